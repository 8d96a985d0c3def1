//! Forward checking on a one-stage network, returning **all** its feasible policies with their
//! expected utilities: the variant of Koriche et al.'s footnote 2 (the FC of Balafoutis and
//! Stergiou, *Algorithms for Stochastic CSPs*, CP 2006, returns a satisfaction threshold instead).
//!
//! Depth-first over the decision variables in order; after each assignment, every hard constraint
//! with exactly one unassigned variable left removes that variable's unsupported values (nFC0).
//! Once the decisions are complete, the stochastic variables are branched in order over every
//! value that counts (of positive probability, or every value under
//! [`Feasibility::EveryPath`]): a value that forward checking removed, or a branch that empties a
//! domain, makes the decisions infeasible at once; otherwise the branches' utilities, weighted by
//! their probabilities, give the policy's value.

use crate::budget::Budget;
use crate::model::{Network, VarId};
use crate::solve::{Feasibility, Solution};
use crate::tables::{Tables, UNASSIGNED};

/// Every feasible policy of the one-stage `network` in lexicographic order of the decisions, and
/// whether the enumeration finished within `budget`.
pub(crate) fn solve(
    network: &Network,
    feasibility: Feasibility,
    budget: &mut Budget,
) -> (Vec<Solution>, bool) {
    let tables = Tables::new(network);
    let n = network.variables.len();
    let mut fc = Fc {
        network,
        tables: &tables,
        feasibility,
        decisions: network.decisions(),
        stochastic: network.stochastic(),
        assignment: vec![UNASSIGNED; n],
        live: network
            .variables
            .iter()
            .map(|v| vec![true; v.domain.len()])
            .collect(),
        trail: Vec::new(),
        found: Vec::new(),
        budget,
    };
    if fc.zero_ary_allows() {
        fc.decide(0);
    }
    let finished = !fc.budget.ran_out();
    (fc.found, finished)
}

struct Fc<'a, 'b> {
    network: &'a Network,
    tables: &'a Tables,
    feasibility: Feasibility,
    decisions: Vec<VarId>,
    stochastic: Vec<VarId>,
    assignment: Vec<u32>,
    /// `live[v][a]`: whether forward checking left value `a` of `v`.
    live: Vec<Vec<bool>>,
    /// Values removed by forward checking, undone in reverse.
    trail: Vec<(VarId, u32)>,
    found: Vec<Solution>,
    budget: &'b mut Budget,
}

impl Fc<'_, '_> {
    /// Constraints with an empty scope are true or false whatever the assignment.
    fn zero_ary_allows(&self) -> bool {
        (0..self.tables.scopes.len())
            .filter(|&c| self.tables.scopes[c].is_empty())
            .all(|c| self.tables.allows(c, &[]))
    }

    fn decide(&mut self, i: usize) {
        if self.budget.spent() {
            return;
        }
        let Some(&x) = self.decisions.get(i) else {
            let mut value = vec![0.0; self.network.players];
            if self.branch(0, 1.0, &mut value) {
                self.record(value);
            }
            return;
        };
        for a in 0..self.live[x].len() as u32 {
            if !self.live[x][a as usize] {
                continue;
            }
            let mark = self.trail.len();
            self.assignment[x] = a;
            if self.forward_check(x) {
                self.decide(i + 1);
            }
            self.undo(mark);
            self.assignment[x] = UNASSIGNED;
        }
    }

    /// Branches the stochastic variables from the `j`-th on, adding the utilities weighted by the
    /// paths' probabilities to `value`; `false` if a path that counts is inconsistent.
    fn branch(&mut self, j: usize, p: f64, value: &mut [f64]) -> bool {
        let Some(&y) = self.stochastic.get(j) else {
            self.tables.add_utility(&self.assignment, p, value);
            return true;
        };
        for d in 0..self.live[y].len() as u32 {
            // A spent budget ends the branching as an inconsistency would: the policy is not
            // reported (the enumeration is incomplete anyway).
            if self.budget.spent() {
                return false;
            }
            let q = self.network.probability(y, d, &self.assignment);
            if q == 0.0 && self.feasibility == Feasibility::Probable {
                continue;
            }
            if !self.live[y][d as usize] {
                return false;
            }
            let mark = self.trail.len();
            self.assignment[y] = d;
            let ok = self.forward_check(y) && self.branch(j + 1, p * q, value);
            self.undo(mark);
            self.assignment[y] = UNASSIGNED;
            if !ok {
                return false;
            }
        }
        true
    }

    /// After assigning `x`: every hard constraint on `x` that is now complete must allow the
    /// assignment, and every one with a single unassigned variable removes that variable's values
    /// it does not allow. `false` on a violation or an emptied domain.
    fn forward_check(&mut self, x: VarId) -> bool {
        for &c in &self.tables.on[x] {
            let scope = &self.tables.scopes[c];
            let mut future = scope.iter().filter(|&&v| self.assignment[v] == UNASSIGNED);
            let consistent = match (future.next(), future.next()) {
                (None, _) => {
                    let tuple = self.tables.tuple(c, &self.assignment).expect("complete");
                    self.tables.allows(c, &tuple)
                }
                (Some(&f), None) => self.filter(c, f),
                _ => true,
            };
            if !consistent {
                return false;
            }
        }
        true
    }

    /// Removes the values of `f`, the last unassigned variable of constraint `c`, that `c` does not
    /// allow; `false` if none is left.
    fn filter(&mut self, c: usize, f: VarId) -> bool {
        let mut left = false;
        for a in 0..self.live[f].len() as u32 {
            if !self.live[f][a as usize] {
                continue;
            }
            self.assignment[f] = a;
            let tuple = self.tables.tuple(c, &self.assignment).expect("complete");
            if self.tables.allows(c, &tuple) {
                left = true;
            } else {
                self.live[f][a as usize] = false;
                self.trail.push((f, a));
            }
        }
        self.assignment[f] = UNASSIGNED;
        left
    }

    fn undo(&mut self, mark: usize) {
        for (v, a) in self.trail.drain(mark..) {
            self.live[v][a as usize] = true;
        }
    }

    fn record(&mut self, value: Vec<f64>) {
        let assignment = self
            .decisions
            .iter()
            .map(|&v| self.network.variables[v].domain[self.assignment[v] as usize])
            .collect();
        self.found.push(Solution { assignment, value });
    }
}

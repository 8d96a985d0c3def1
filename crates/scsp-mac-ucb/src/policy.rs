//! [`Policy`]: a policy of a network as Definition 2 defines it, with its expected utility
//! `val(π)`, feasibility and the solution test; and [`policies`], every feasible policy of a small
//! network of any number of stages (the oracle of the decomposition).

use crate::model::Network;
use crate::solve::Feasibility;
use crate::tables::{Tables, UNASSIGNED};

/// A policy: a tree over the variable order. A decision variable's node has one successor, reached
/// by the chosen value; a stochastic variable's node has one successor per value of its domain, in
/// order; past the last variable, a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Past the last variable.
    Leaf,
    /// A decision: the value index chosen, and the policy of the following variables.
    Decide(u32, Box<Policy>),
    /// A stochastic variable: the policy after each of its values.
    Chance(Vec<Policy>),
}

impl Policy {
    /// `val(π) = Σ P(I) val(I)` over the complete instantiations `I` of the policy's leaves: each
    /// player's expected utility. A leaf that violates a hard constraint is worth −∞; one of
    /// probability zero counts only under [`Feasibility::EveryPath`]. A tree that is not a policy
    /// of `network` (a decision where a stochastic variable comes, a value outside a domain, the
    /// wrong length) is worth −∞ too.
    pub fn value(&self, network: &Network, feasibility: Feasibility) -> Vec<f64> {
        if !self.fits(network, 0) {
            return vec![f64::NEG_INFINITY; network.players];
        }
        let tables = Tables::new(network);
        let mut assignment = vec![UNASSIGNED; network.variables.len()];
        let mut value = vec![0.0; network.players];
        self.walk(network, 0, 1.0, &mut assignment, &mut |p, leaf| {
            if p == 0.0 && feasibility == Feasibility::Probable {
                return;
            }
            if !tables.consistent(leaf) {
                value.iter_mut().for_each(|v| *v = f64::NEG_INFINITY);
            } else {
                tables.add_utility(leaf, p, &mut value);
            }
        });
        value
    }

    /// Whether the policy is feasible: `val(π) ≥ (0, …, 0)`, i.e. every path that counts is
    /// consistent.
    pub fn is_feasible(&self, network: &Network, feasibility: Feasibility) -> bool {
        self.value(network, feasibility).iter().all(|v| *v >= 0.0)
    }

    /// Whether the policy is a solution: feasible, with `val(π) ≥ θ` for every player.
    pub fn is_solution(&self, network: &Network, feasibility: Feasibility) -> bool {
        let value = self.value(network, feasibility);
        value.iter().all(|v| *v >= 0.0) && meets(&value, &network.threshold)
    }

    /// Whether the tree from variable `var` on is a policy of `network`'s variables from `var` on.
    fn fits(&self, network: &Network, var: usize) -> bool {
        let Some(v) = network.variables.get(var) else {
            return *self == Policy::Leaf;
        };
        match self {
            Policy::Leaf => false,
            Policy::Decide(value, next) => {
                !v.stochastic && (*value as usize) < v.domain.len() && next.fits(network, var + 1)
            }
            Policy::Chance(branches) => {
                v.stochastic
                    && branches.len() == v.domain.len()
                    && branches.iter().all(|b| b.fits(network, var + 1))
            }
        }
    }

    /// Visits every leaf with its probability and complete instantiation.
    fn walk(
        &self,
        network: &Network,
        var: usize,
        p: f64,
        assignment: &mut [u32],
        leaf: &mut dyn FnMut(f64, &[u32]),
    ) {
        match self {
            Policy::Leaf => leaf(p, assignment),
            Policy::Decide(value, next) => {
                assignment[var] = *value;
                next.walk(network, var + 1, p, assignment, leaf);
                assignment[var] = UNASSIGNED;
            }
            Policy::Chance(branches) => {
                for (d, next) in branches.iter().enumerate() {
                    let q = network.probability(var, d as u32, assignment);
                    assignment[var] = d as u32;
                    next.walk(network, var + 1, p * q, assignment, leaf);
                }
                assignment[var] = UNASSIGNED;
            }
        }
    }
}

/// Whether `value ≥ threshold` for every player, up to rounding (1e-9).
pub(crate) fn meets(value: &[f64], threshold: &[f64]) -> bool {
    value.iter().zip(threshold).all(|(v, t)| *v >= t - 1e-9)
}

/// Every feasible policy of `network` with its expected utility, for networks small enough to
/// enumerate (any number of stages). Policies that differ only below branches of probability zero
/// are listed once (under [`Feasibility::Probable`], the decisions there are the first values).
pub fn policies(network: &Network, feasibility: Feasibility) -> Vec<(Policy, Vec<f64>)> {
    let tables = Tables::new(network);
    let mut assignment = vec![UNASSIGNED; network.variables.len()];
    Enumeration {
        network,
        tables: &tables,
        feasibility,
    }
    .from(0, 1.0, &mut assignment)
}

struct Enumeration<'a> {
    network: &'a Network,
    tables: &'a Tables,
    feasibility: Feasibility,
}

impl Enumeration<'_> {
    /// The feasible sub-policies from variable `var` on, each with `Σ P(leaf) val(leaf)` over its
    /// leaves (`p` is the probability of the path so far).
    fn from(&self, var: usize, p: f64, assignment: &mut [u32]) -> Vec<(Policy, Vec<f64>)> {
        let players = self.network.players;
        let counts = p > 0.0 || self.feasibility == Feasibility::EveryPath;
        if var == self.network.variables.len() {
            let mut value = vec![0.0; players];
            self.tables.add_utility(assignment, p, &mut value);
            return vec![(Policy::Leaf, value)];
        }
        let size = self.network.variables[var].domain.len() as u32;
        if !self.network.variables[var].stochastic {
            let mut all = Vec::new();
            for a in 0..size {
                assignment[var] = a;
                if !counts && a > 0 {
                    break; // below a branch that does not count, one canonical choice
                }
                if counts && !self.tables.consistent(assignment) {
                    continue;
                }
                for (sub, value) in self.from(var + 1, p, assignment) {
                    all.push((Policy::Decide(a, Box::new(sub)), value));
                }
            }
            assignment[var] = UNASSIGNED;
            return all;
        }
        // A stochastic variable: every combination of its branches' feasible sub-policies.
        let mut combos: Vec<(Vec<Policy>, Vec<f64>)> = vec![(Vec::new(), vec![0.0; players])];
        for d in 0..size {
            let q = self.network.probability(var, d, assignment);
            assignment[var] = d;
            let branch_counts = p * q > 0.0 || self.feasibility == Feasibility::EveryPath;
            let subs = if branch_counts && !self.tables.consistent(assignment) {
                Vec::new()
            } else {
                self.from(var + 1, p * q, assignment)
            };
            combos = combos
                .into_iter()
                .flat_map(|(branches, value)| {
                    subs.iter().map(move |(sub, v)| {
                        let mut branches = branches.clone();
                        branches.push(sub.clone());
                        let sum = value.iter().zip(v).map(|(a, b)| a + b).collect();
                        (branches, sum)
                    })
                })
                .collect();
        }
        assignment[var] = UNASSIGNED;
        combos
            .into_iter()
            .map(|(branches, value)| (Policy::Chance(branches), value))
            .collect()
    }
}

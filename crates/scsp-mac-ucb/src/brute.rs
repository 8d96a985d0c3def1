//! Plain enumeration of a one-stage network's policies: every assignment of the decision variables,
//! every branch of the stochastic ones. Exponential and obviously correct: the oracle of FC and
//! MAC + FC.

use crate::model::Network;
use crate::solve::{Feasibility, Solution};
use crate::tables::{Tables, UNASSIGNED};

/// Every feasible policy of the one-stage `network`, in lexicographic order of the decisions.
pub(crate) fn solve(network: &Network, feasibility: Feasibility) -> Vec<Solution> {
    let tables = Tables::new(network);
    let decisions = network.decisions();
    let stochastic = network.stochastic();
    let mut assignment = vec![UNASSIGNED; network.variables.len()];
    let mut feasible = Vec::new();
    let mut decision_values = Odometer::new(network, &decisions);
    loop {
        decision_values.write(&mut assignment);
        if let Some(value) = expected(network, &tables, &stochastic, &mut assignment, feasibility) {
            feasible.push(Solution {
                assignment: decisions
                    .iter()
                    .map(|&v| network.variables[v].domain[assignment[v] as usize])
                    .collect(),
                value,
            });
        }
        if !decision_values.advance() {
            return feasible;
        }
    }
}

/// The expected utility of the decisions in `assignment` over every branch of `stochastic`, or
/// `None` if a branch that counts is inconsistent.
fn expected(
    network: &Network,
    tables: &Tables,
    stochastic: &[usize],
    assignment: &mut [u32],
    feasibility: Feasibility,
) -> Option<Vec<f64>> {
    let mut value = vec![0.0; network.players];
    let mut branches = Odometer::new(network, stochastic);
    loop {
        branches.write(assignment);
        let p: f64 = stochastic
            .iter()
            .map(|&y| network.probability(y, assignment[y], assignment))
            .product();
        if p > 0.0 || feasibility == Feasibility::EveryPath {
            if !tables.consistent(assignment) {
                return None;
            }
            tables.add_utility(assignment, p, &mut value);
        }
        if !branches.advance() {
            return Some(value);
        }
    }
}

/// Every tuple of the domains of some variables, in lexicographic order.
struct Odometer {
    vars: Vec<usize>,
    sizes: Vec<u32>,
    values: Vec<u32>,
}

impl Odometer {
    fn new(network: &Network, vars: &[usize]) -> Odometer {
        Odometer {
            vars: vars.to_vec(),
            sizes: vars
                .iter()
                .map(|&v| network.variables[v].domain.len() as u32)
                .collect(),
            values: vec![0; vars.len()],
        }
    }

    fn write(&self, assignment: &mut [u32]) {
        for (&v, &a) in self.vars.iter().zip(&self.values) {
            assignment[v] = a;
        }
    }

    /// Moves to the next tuple; `false` after the last.
    fn advance(&mut self) -> bool {
        for i in (0..self.values.len()).rev() {
            self.values[i] += 1;
            if self.values[i] < self.sizes[i] {
                return true;
            }
            self.values[i] = 0;
        }
        false
    }
}

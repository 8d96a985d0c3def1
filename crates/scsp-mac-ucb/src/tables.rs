//! [`Tables`]: a network's constraints compiled for lookups: hard relations as hash sets, soft
//! ones as hash maps, so that checking a tuple or reading its utility costs one hash.

use std::collections::{HashMap, HashSet};

use crate::model::{Network, Relation, VarId};

/// The value index of an unassigned variable in an assignment.
pub(crate) const UNASSIGNED: u32 = u32::MAX;

/// One compiled constraint.
#[derive(Clone, Debug)]
pub(crate) enum Compiled {
    Hard(HashSet<Vec<u32>>),
    Soft(HashMap<Vec<u32>, Vec<f64>>),
}

/// Every constraint of a network, compiled, with the constraints on each variable.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub(crate) scopes: Vec<Vec<VarId>>,
    pub(crate) compiled: Vec<Compiled>,
    /// `on[v]`: the constraints whose scope holds `v`.
    pub(crate) on: Vec<Vec<usize>>,
}

impl Tables {
    pub(crate) fn new(network: &Network) -> Tables {
        let mut on = vec![Vec::new(); network.variables.len()];
        for (c, constraint) in network.constraints.iter().enumerate() {
            for &v in &constraint.scope {
                on[v].push(c);
            }
        }
        Tables {
            scopes: network
                .constraints
                .iter()
                .map(|c| c.scope.clone())
                .collect(),
            compiled: network
                .constraints
                .iter()
                .map(|c| match &c.relation {
                    Relation::Allowed(tuples) => Compiled::Hard(tuples.iter().cloned().collect()),
                    Relation::Utility(rows) => Compiled::Soft(rows.iter().cloned().collect()),
                })
                .collect(),
            on,
        }
    }

    /// The values of constraint `c`'s scope in `assignment`, or `None` if one is unassigned.
    pub(crate) fn tuple(&self, c: usize, assignment: &[u32]) -> Option<Vec<u32>> {
        self.scopes[c]
            .iter()
            .map(|&v| (assignment[v] != UNASSIGNED).then_some(assignment[v]))
            .collect()
    }

    /// Whether hard constraint `c` allows `tuple` (soft constraints allow everything).
    pub(crate) fn allows(&self, c: usize, tuple: &[u32]) -> bool {
        match &self.compiled[c] {
            Compiled::Hard(set) => set.contains(tuple),
            Compiled::Soft(_) => true,
        }
    }

    /// Whether every hard constraint whose scope is fully assigned allows the assignment.
    pub(crate) fn consistent(&self, assignment: &[u32]) -> bool {
        (0..self.scopes.len()).all(|c| match self.tuple(c, assignment) {
            Some(tuple) => self.allows(c, &tuple),
            None => true,
        })
    }

    /// `val(I)` of a complete (or sufficient) assignment: the sum of every soft constraint's
    /// utility, added to `into`.
    pub(crate) fn add_utility(&self, assignment: &[u32], weight: f64, into: &mut [f64]) {
        for (c, compiled) in self.compiled.iter().enumerate() {
            let Compiled::Soft(map) = compiled else {
                continue;
            };
            let Some(tuple) = self.tuple(c, assignment) else {
                continue;
            };
            if let Some(u) = map.get(&tuple) {
                for (acc, x) in into.iter_mut().zip(u) {
                    *acc += weight * x;
                }
            }
        }
    }
}

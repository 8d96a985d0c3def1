//! [`solve`]: every feasible policy of a one-stage network (a μSCSP) with its expected utility, by
//! one of three methods that must agree ([`Algorithm`]):
//!
//! - **MAC + FC** (Koriche et al., Section 4.2): the network is split into the CSP `N′` of its
//!   decision constraints and the μSCSP `N″` of its stochastic ones (those whose scope holds a
//!   stochastic variable). FC enumerates every feasible policy of `N″` over its decision variables
//!   (those of its constraints and of the tables' scopes); they become the *feasibility
//!   constraint* `c_s`, a table over those variables, each tuple with its expected stochastic
//!   utility. MAC (with Compact-Table) then enumerates the solutions of `N′ + c_s`; each is a
//!   feasible policy of the whole network, worth its decision utilities plus its `c_s` tuple's.
//! - **FC** alone on the whole network (what FC-UCB uses).
//! - **Brute force**: every assignment and every branch (the oracle).
//!
//! A solution policy is a feasible one whose value meets the threshold for every player
//! ([`Solved::solutions`]).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::budget::Budget;
use crate::compact_table::CompactTable;
use crate::domains::Domains;
use crate::error::ScspError;
use crate::gac::TableConstraint;
use crate::model::{Network, VarId};
use crate::policy::meets;
use crate::preprocess::preprocess_within;
use crate::tables::{Tables, UNASSIGNED};
use crate::{brute, fc, mac};

/// Which paths of a policy must be consistent for it to be feasible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Feasibility {
    /// Those of positive probability (`0 · −∞ = 0`): the reading Koriche et al.'s own encoding of
    /// GDL needs, since the chance variable ranges over every action of the chance player, most of
    /// them illegal (probability 0) in any given state. The default.
    #[default]
    Probable,
    /// Every path, whatever its probability: the literal "all paths in π are globally consistent"
    /// of Definition 2.
    EveryPath,
}

/// How [`solve`] enumerates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Algorithm {
    /// FC on the stochastic part, MAC with Compact-Table on the rest (MAC-UCB's). The default.
    #[default]
    MacFc,
    /// FC on the whole network (FC-UCB's).
    Fc,
    /// Every assignment and every branch: the oracle.
    Brute,
}

/// The options of [`solve`].
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// The method.
    pub algorithm: Algorithm,
    /// Which paths must be consistent.
    pub feasibility: Feasibility,
    /// Whether to preprocess first (merge, unary projection, universal variables, SAC; see
    /// [`preprocess`](crate::preprocess)). Default `false`; the players and the command line
    /// preprocess.
    pub preprocess: bool,
    /// Stop at this instant ([`Solved::complete`] then says so); preprocessing stops too, keeping
    /// what it removed so far.
    pub deadline: Option<Instant>,
    /// Stop as soon as this flag is set, as at the deadline.
    pub stop: Option<Arc<AtomicBool>>,
    /// Prune by the threshold while solving (Koriche et al., Section 4.4): a policy of the
    /// stochastic part `N″` whose value, with the most the decision constraints can add, falls
    /// below `θ` for some player leaves the feasibility constraint `c_s` before MAC runs (FC and
    /// brute force drop the policies below `θ` as they find them). [`Solved::feasible`] then
    /// holds only the solution policies. Default `false`: every feasible policy is listed.
    pub prune: bool,
}

/// A feasible policy of a one-stage network: the values of its decision variables (in order) and
/// its expected utility for every player.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The value (not the index) of each decision variable, in the network's order.
    pub assignment: Vec<i64>,
    /// `val(π)`, one component per player.
    pub value: Vec<f64>,
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// The names of the decision variables, in the order of [`Solution::assignment`].
    pub decisions: Vec<String>,
    /// Every feasible policy found, in lexicographic order of the decisions' value indices.
    pub feasible: Vec<Solution>,
    /// The threshold `θ`.
    pub threshold: Vec<f64>,
    /// Whether the enumeration finished (else a deadline stopped it).
    pub complete: bool,
    /// With [`SolveOptions::prune`]: the policies the threshold removed (of `N″` for MAC + FC,
    /// feasible policies of the whole network otherwise).
    pub pruned: usize,
}

impl Solved {
    /// The solution policies: the feasible ones whose value meets `θ` for every player.
    pub fn solutions(&self) -> impl Iterator<Item = &Solution> {
        self.feasible
            .iter()
            .filter(|s| meets(&s.value, &self.threshold))
    }
}

/// Every feasible policy of the one-stage `network` (see the [module docs](self)).
pub fn solve(network: &Network, options: &SolveOptions) -> Result<Solved, ScspError> {
    network.validate()?;
    solve_valid(network, options)
}

/// [`solve`] for a network known to be valid: one a player built from a round that a
/// [`RoundEncoder`](crate::RoundEncoder) checked (validating every network a search solves
/// cost a tenth of its solving time).
pub(crate) fn solve_valid(network: &Network, options: &SolveOptions) -> Result<Solved, ScspError> {
    network.require_one_stage()?;
    let mut budget = Budget::new(options.deadline, options.stop.clone());
    let prepared;
    let network = if options.preprocess {
        prepared = preprocess_within(network, &mut budget);
        &prepared
    } else {
        network
    };
    let threshold = options.prune.then_some(network.threshold.as_slice());
    let (mut feasible, complete, mut pruned) = match options.algorithm {
        Algorithm::Brute => (brute::solve(network, options.feasibility), true, 0),
        Algorithm::Fc => {
            let (found, complete) = fc::solve(network, options.feasibility, &mut budget);
            (found, complete, 0)
        }
        Algorithm::MacFc => mac_fc(network, options.feasibility, threshold, &mut budget),
    };
    if let Some(threshold) = threshold {
        let before = feasible.len();
        feasible.retain(|s| meets(&s.value, threshold));
        pruned += before - feasible.len();
    }
    let decisions = network.decisions();
    sort_lexicographically(&mut feasible, network, &decisions);
    Ok(Solved {
        decisions: decisions
            .iter()
            .map(|&v| network.variables[v].name.clone())
            .collect(),
        feasible,
        threshold: network.threshold.clone(),
        complete,
        pruned,
    })
}

/// Sorts solutions in lexicographic order of their decisions' value indices (MAC chooses its
/// variables by domain size, so it finds them in another order). The key is the indices read as
/// one mixed-radix number when the domains' product fits in 128 bits, as it does for any network
/// whose solutions can be listed: one comparison of integers instead of vectors.
fn sort_lexicographically(solutions: &mut [Solution], network: &Network, decisions: &[VarId]) {
    let index = |v: VarId, value: i64| {
        network.variables[v]
            .domain
            .iter()
            .position(|&d| d == value)
            .unwrap_or(usize::MAX)
    };
    let radix = decisions.iter().try_fold(1u128, |product, &v| {
        product.checked_mul(network.variables[v].domain.len().max(1) as u128)
    });
    if radix.is_some() {
        solutions.sort_by_cached_key(|s| {
            decisions
                .iter()
                .zip(&s.assignment)
                .fold(0u128, |key, (&v, &value)| {
                    key * network.variables[v].domain.len().max(1) as u128 + index(v, value) as u128
                })
        });
    } else {
        solutions.sort_by_cached_key(|s| {
            decisions
                .iter()
                .zip(&s.assignment)
                .map(|(&v, &value)| index(v, value))
                .collect::<Vec<_>>()
        });
    }
}

/// MAC + FC (see the [module docs](self)); with a `threshold`, the policies of `N″` that cannot
/// meet it leave `c_s` (their count is returned last).
fn mac_fc(
    network: &Network,
    feasibility: Feasibility,
    threshold: Option<&[f64]>,
    budget: &mut Budget,
) -> (Vec<Solution>, bool, usize) {
    let (stochastic_part, shared) = split(network);
    let (mut policies, complete) = fc::solve(&stochastic_part, feasibility, budget);
    let mut pruned = 0;
    if let Some(threshold) = threshold {
        // The decision constraints add at most their best utilities to a policy's value.
        let bound = decision_utility_bound(network);
        let before = policies.len();
        policies.retain(|p| {
            let most: Vec<f64> = p.value.iter().zip(&bound).map(|(v, b)| v + b).collect();
            meets(&most, threshold)
        });
        pruned = before - policies.len();
    }
    // c_s: the decision tuples of N″'s feasible policies, with their expected utilities.
    let shared_ids: Vec<VarId> = shared.iter().map(|&(v, _)| v).collect();
    let index_of = |v: VarId, value: i64| -> u32 {
        network.variables[v]
            .domain
            .iter()
            .position(|&d| d == value)
            .expect("a value of the domain") as u32
    };
    let mut stochastic_value: HashMap<Vec<u32>, Vec<f64>> = HashMap::new();
    for p in &policies {
        let tuple = shared_ids
            .iter()
            .zip(&p.assignment)
            .map(|(&v, &value)| index_of(v, value))
            .collect();
        stochastic_value.insert(tuple, p.value.clone());
    }
    let mut tables: Vec<TableConstraint> = TableConstraint::of(network)
        .into_iter()
        .filter(|t| t.scope.iter().all(|&v| !network.variables[v].stochastic))
        .collect();
    tables.push(TableConstraint {
        scope: shared_ids.clone(),
        tuples: stochastic_value.keys().cloned().collect(),
    });
    let decisions = network.decisions();
    let sizes: Vec<usize> = network.variables.iter().map(|v| v.domain.len()).collect();
    let mut domains = Domains::new(sizes.iter().copied());
    let mut ct = CompactTable::new(&tables, &sizes);
    let decision_tables = Tables::new(&decision_part(network));
    let mut found = Vec::new();
    let mut assignment = vec![UNASSIGNED; network.variables.len()];
    let finished = mac::enumerate(&mut domains, &mut ct, &decisions, budget, &mut |d| {
        for &v in &decisions {
            assignment[v] = d.values(v)[0];
        }
        let key: Vec<u32> = shared_ids.iter().map(|&v| assignment[v]).collect();
        let mut value = stochastic_value[&key].clone();
        decision_tables.add_utility(&assignment, 1.0, &mut value);
        found.push(Solution {
            assignment: decisions
                .iter()
                .map(|&v| network.variables[v].domain[assignment[v] as usize])
                .collect(),
            value,
        });
    });
    (found, complete && finished, pruned)
}

/// Each player's largest sum of utilities the decision constraints (soft, without a stochastic
/// variable) can give: an unlisted tuple is worth 0, so each constraint adds at least 0.
fn decision_utility_bound(network: &Network) -> Vec<f64> {
    let mut bound = vec![0.0; network.players];
    let decision =
        |c: &&crate::model::Constraint| c.scope.iter().all(|&v| !network.variables[v].stochastic);
    for c in network.constraints.iter().filter(decision) {
        if let crate::model::Relation::Utility(rows) = &c.relation {
            for (p, b) in bound.iter_mut().enumerate() {
                *b += rows.iter().map(|(_, u)| u[p]).fold(0.0, f64::max);
            }
        }
    }
    bound
}

/// `N″`: the stochastic constraints and tables over the stochastic variables and the decision
/// variables they read, in order; and those decision variables (their ids in `network` and in
/// `N″`).
fn split(network: &Network) -> (Network, Vec<(VarId, VarId)>) {
    let stochastic = |v: VarId| network.variables[v].stochastic;
    let constraints: Vec<_> = network
        .constraints
        .iter()
        .filter(|c| c.scope.iter().any(|&v| stochastic(v)))
        .collect();
    let mut keep: Vec<VarId> = constraints
        .iter()
        .flat_map(|c| c.scope.iter().copied())
        .chain(network.cpts.iter().flat_map(|c| c.scope.iter().copied()))
        .chain(network.stochastic())
        .collect();
    keep.sort_unstable();
    keep.dedup();
    let new_id = |v: VarId| keep.iter().position(|&k| k == v).expect("kept");
    let mut part = Network::new(network.players);
    for &v in &keep {
        let var = &network.variables[v];
        part.variable(&var.name, &var.domain, var.stochastic);
    }
    for c in constraints {
        let mut c = c.clone();
        c.scope = c.scope.iter().map(|&v| new_id(v)).collect();
        part.constraints.push(c);
    }
    for cpt in &network.cpts {
        let scope: Vec<VarId> = cpt.scope.iter().map(|&v| new_id(v)).collect();
        part.cpt(new_id(cpt.variable), &scope, cpt.rows.clone());
    }
    let shared = keep
        .iter()
        .enumerate()
        .filter(|&(_, &v)| !stochastic(v))
        .map(|(i, &v)| (v, i))
        .collect();
    (part, shared)
}

/// The network with only its decision constraints (for their utilities).
fn decision_part(network: &Network) -> Network {
    let mut out = network.clone();
    out.constraints
        .retain(|c| c.scope.iter().all(|&v| !network.variables[v].stochastic));
    out.cpts.clear();
    out
}

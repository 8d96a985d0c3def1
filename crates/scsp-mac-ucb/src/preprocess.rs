//! The preprocessing of Koriche et al. (Section 4.1), one function per step, each preserving the
//! network's solution policies:
//!
//! 1. [`merge_same_scope`]: hard constraints over the same variables become one, the intersection
//!    of their relations;
//! 2. [`project_unary`]: a hard constraint over a single decision variable becomes that variable's
//!    domain;
//! 3. [`remove_universal`]: a variable whose every value goes with every allowed combination of the
//!    others leaves the constraint's scope (the paper's counting test:
//!    `|rel_c| = |D(x)| · |rel_c projected on scp_c \ {x}|`);
//! 4. [`singleton_arc_consistency`]: a decision value whose assignment makes the decision
//!    constraints arc-inconsistent is removed (SAC, Debruyne and Bessière, *Some Practicable
//!    Filtering Techniques for the Constraint Satisfaction Problem*, IJCAI 1997), on the CSP `N′`
//!    of the decision constraints alone: the feasibility constraint `c_s` does not exist yet when
//!    preprocessing runs, so SAC here removes less than SAC on `N′ + c_s` would.
//!
//! Domains of stochastic variables are never reduced: a removed value of positive probability
//! would hide an inconsistent branch.

use std::collections::{HashMap, HashSet};

use crate::budget::Budget;
use crate::compact_table::CompactTable;
use crate::domains::Domains;
use crate::gac::{Propagator, TableConstraint};
use crate::model::{Constraint, Network, Relation, VarId};

/// All four steps, in order.
pub fn preprocess(network: &Network) -> Network {
    preprocess_within(network, &mut Budget::default())
}

/// [`preprocess`], SAC stopping where `budget` runs out (what it removed until then stays removed:
/// every removal preserves the policies). The steps work on one copy of `network`: a player
/// preprocesses every network it solves.
pub(crate) fn preprocess_within(network: &Network, budget: &mut Budget) -> Network {
    let mut out = network.clone();
    merge_in_place(&mut out);
    project_unary_in_place(&mut out);
    remove_universal_in_place(&mut out);
    sac_in_place(&mut out, budget);
    out
}

/// Step 1: hard constraints whose scopes hold the same variables are replaced by one, over the
/// first one's scope order, allowing the tuples every one of them allows.
pub fn merge_same_scope(network: &Network) -> Network {
    let mut out = network.clone();
    merge_in_place(&mut out);
    out
}

fn merge_in_place(out: &mut Network) {
    let sorted = |c: &Constraint| {
        let mut key = c.scope.clone();
        key.sort_unstable();
        key
    };
    let hard: Vec<Vec<VarId>> = (out.constraints.iter())
        .filter(|c| c.is_hard())
        .map(sorted)
        .collect();
    let mut distinct = hard.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() == hard.len() {
        return; // no two hard constraints share a scope
    }
    let network = std::mem::take(&mut out.constraints);
    let mut merged_at: HashMap<Vec<VarId>, usize> = HashMap::new();
    for c in &network {
        let Relation::Allowed(tuples) = &c.relation else {
            out.constraints.push(c.clone());
            continue;
        };
        let mut key = c.scope.clone();
        key.sort_unstable();
        match merged_at.get(&key) {
            None => {
                merged_at.insert(key, out.constraints.len());
                out.constraints.push(c.clone());
            }
            Some(&at) => {
                let first = &mut out.constraints[at];
                // Rewrite `c`'s tuples in the first constraint's scope order.
                let order: Vec<usize> = first
                    .scope
                    .iter()
                    .map(|v| c.scope.iter().position(|w| w == v).expect("same variables"))
                    .collect();
                let other: HashSet<Vec<u32>> = tuples
                    .iter()
                    .map(|t| order.iter().map(|&i| t[i]).collect())
                    .collect();
                if let Relation::Allowed(kept) = &mut first.relation {
                    kept.retain(|t| other.contains(t));
                }
                first.name = format!("{} ∩ {}", first.name, c.name);
            }
        }
    }
}

/// Step 2: every hard constraint over one decision variable is removed, and the variable's domain
/// reduced to the values it allows (if it allows none, the result gets a contradiction instead).
pub fn project_unary(network: &Network) -> Network {
    let mut out = network.clone();
    project_unary_in_place(&mut out);
    out
}

fn project_unary_in_place(out: &mut Network) {
    while let Some(i) = out
        .constraints
        .iter()
        .position(|c| c.scope.len() == 1 && c.is_hard() && !out.variables[c.scope[0]].stochastic)
    {
        let c = out.constraints.remove(i);
        let Relation::Allowed(tuples) = c.relation else {
            unreachable!("hard")
        };
        let allowed: HashSet<u32> = tuples.iter().map(|t| t[0]).collect();
        if allowed.is_empty() {
            // Domains are never empty: the network has no solution.
            return add_contradiction(out);
        }
        out.restrict_in_place(c.scope[0], |a| allowed.contains(&a));
    }
}

/// Step 3: universal variables leave the scopes of hard constraints (see the [module
/// docs](self)); a constraint left with no variable is dropped if it allows the empty tuple, and
/// kept (as a contradiction) if not.
pub fn remove_universal(network: &Network) -> Network {
    let mut out = network.clone();
    remove_universal_in_place(&mut out);
    out
}

fn remove_universal_in_place(out: &mut Network) {
    let sizes: Vec<usize> = out.variables.iter().map(|v| v.domain.len()).collect();
    for c in &mut out.constraints {
        while let Some(i) = universal_position(&sizes, c) {
            let Relation::Allowed(tuples) = &mut c.relation else {
                break;
            };
            if sizes[c.scope[i]] == 1 {
                // One value: dropping it keeps the tuples distinct, and in order.
                tuples.iter_mut().for_each(|t| {
                    t.remove(i);
                });
            } else {
                let projected: HashSet<Vec<u32>> = tuples.iter().map(|t| without(t, i)).collect();
                *tuples = projected.into_iter().collect();
            }
            c.scope.remove(i);
        }
    }
    out.constraints
        .retain(|c| !(c.scope.is_empty() && c.relation == Relation::Allowed(vec![vec![]])));
}

/// The position of a universal variable of hard constraint `c`, if it has one; `sizes` are the
/// variables' domain sizes. A variable of one value is universal (the projection without it is a
/// bijection of the distinct tuples): in a round's network, every state variable.
fn universal_position(sizes: &[usize], c: &Constraint) -> Option<usize> {
    let Relation::Allowed(tuples) = &c.relation else {
        return None;
    };
    if let Some(i) = (0..c.scope.len()).find(|&i| sizes[c.scope[i]] == 1) {
        return Some(i);
    }
    // Counted on sorted tuple indices, comparing tuples in place, allocating no tuple.
    let mut order: Vec<usize> = (0..tuples.len()).collect();
    let distinct = count_distinct(&mut order, |a, b| tuples[a].cmp(&tuples[b]));
    (0..c.scope.len()).find(|&i| {
        let without = |a: usize, b: usize| {
            let (x, y) = (&tuples[a], &tuples[b]);
            (&x[..i], &x[i + 1..]).cmp(&(&y[..i], &y[i + 1..]))
        };
        distinct == sizes[c.scope[i]] * count_distinct(&mut order, without)
    })
}

/// The number of distinct items among `order` (indices) by `compare`, sorting `order` by it.
fn count_distinct(
    order: &mut [usize],
    compare: impl Fn(usize, usize) -> std::cmp::Ordering,
) -> usize {
    order.sort_unstable_by(|&a, &b| compare(a, b));
    let repeats = order
        .windows(2)
        .filter(|w| compare(w[0], w[1]) == std::cmp::Ordering::Equal)
        .count();
    order.len() - repeats
}

fn without(tuple: &[u32], i: usize) -> Vec<u32> {
    let mut t = tuple.to_vec();
    t.remove(i);
    t
}

/// Step 4: singleton arc consistency on the decision constraints. Each value of each decision
/// variable is tried alone; if arc consistency (Compact-Table) then empties a domain, the value is
/// removed, until a pass removes nothing. If the decision constraints have no solution at all, the
/// result gets a contradiction (a hard constraint over no variable allowing nothing).
pub fn singleton_arc_consistency(network: &Network) -> Network {
    let mut out = network.clone();
    sac_in_place(&mut out, &mut Budget::default());
    out
}

/// [`singleton_arc_consistency`] within `budget`, changing `network`.
fn sac_in_place(network: &mut Network, budget: &mut Budget) {
    let decisions = network.decisions();
    let tables: Vec<TableConstraint> = TableConstraint::of(network)
        .into_iter()
        .filter(|t| t.scope.iter().all(|&v| !network.variables[v].stochastic))
        .collect();
    let sizes: Vec<usize> = network.variables.iter().map(|v| v.domain.len()).collect();
    let mut domains = Domains::new(sizes.iter().copied());
    let mut ct = CompactTable::new(&tables, &sizes);
    if !ct.propagate(&mut domains, &decisions) {
        return add_contradiction(network);
    }
    loop {
        let mut removed = false;
        for &x in &decisions {
            let values = domains.values(x).to_vec();
            for a in values {
                if budget.spent() {
                    break;
                }
                domains.push();
                ct.push();
                domains.assign(x, a);
                let consistent = ct.propagate(&mut domains, &[x]);
                ct.pop();
                domains.pop();
                if !consistent {
                    domains.remove(x, a);
                    removed = true;
                    if !ct.propagate(&mut domains, &[x]) {
                        return add_contradiction(network);
                    }
                }
            }
        }
        if !removed || budget.ran_out() {
            break;
        }
    }
    for &x in &decisions {
        if domains.size(x) < sizes[x] {
            network.restrict_in_place(x, |a| domains.contains(x, a));
        }
    }
}

/// Adds a contradiction: a hard constraint over no variable, allowing nothing.
fn add_contradiction(network: &mut Network) {
    network.hard(
        "no solution (decision constraints inconsistent)",
        &[],
        Vec::new(),
    );
}

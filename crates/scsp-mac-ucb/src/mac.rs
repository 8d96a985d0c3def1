//! MAC, *Maintaining Arc Consistency* (Sabin and Freuder, *Contradicting Conventional Wisdom in
//! Constraint Satisfaction*, 1994): depth-first search that restores generalised arc consistency
//! after every assignment, here enumerating **every** solution of a CSP.
//!
//! The variable assigned next is the one with the smallest domain (ties: the first in the order);
//! its values are tried in increasing order. Arc consistency comes from any [`Propagator`]:
//! [Compact-Table](crate::compact_table) in play, [`Str`](crate::gac::Str) as its oracle.

use smallvec::SmallVec;

use crate::budget::Budget;
use crate::domains::Domains;
use crate::gac::Propagator;
use crate::model::VarId;

/// Calls `solution` with the domains (all of `vars` reduced to one value) of every solution over
/// `vars`, and returns whether the enumeration finished within `budget`.
pub(crate) fn enumerate<P: Propagator>(
    domains: &mut Domains,
    propagator: &mut P,
    vars: &[VarId],
    budget: &mut Budget,
    solution: &mut dyn FnMut(&Domains),
) -> bool {
    let mut search = Search { vars, budget };
    if propagator.propagate(domains, vars) {
        search.descend(domains, propagator, solution);
    }
    !search.budget.ran_out()
}

struct Search<'a, 'b> {
    vars: &'a [VarId],
    budget: &'b mut Budget,
}

impl Search<'_, '_> {
    fn descend<P: Propagator>(
        &mut self,
        domains: &mut Domains,
        propagator: &mut P,
        solution: &mut dyn FnMut(&Domains),
    ) {
        if self.budget.spent() {
            return;
        }
        let next = self
            .vars
            .iter()
            .copied()
            .filter(|&x| domains.size(x) > 1)
            .min_by_key(|&x| domains.size(x));
        let Some(x) = next else {
            solution(domains);
            return;
        };
        // In increasing order, so that the solutions come out in a reproducible order.
        let mut values: SmallVec<[u32; 16]> = domains.values(x).into();
        values.sort_unstable();
        for a in values {
            domains.push();
            propagator.push();
            domains.assign(x, a);
            if propagator.propagate(domains, &[x]) {
                self.descend(domains, propagator, solution);
            }
            propagator.pop();
            domains.pop();
            if self.budget.ran_out() {
                return;
            }
        }
    }
}

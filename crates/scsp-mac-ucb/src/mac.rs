//! MAC, *Maintaining Arc Consistency* (Sabin and Freuder, *Contradicting Conventional Wisdom in
//! Constraint Satisfaction*, 1994): depth-first search that restores generalised arc consistency
//! after every assignment, here enumerating **every** solution of a CSP.
//!
//! The variable assigned next is the one with the smallest domain (ties: the first in the order);
//! its values are tried in increasing order. Arc consistency comes from any [`Propagator`]:
//! [Compact-Table](crate::compact_table) in play, [`Str`](crate::gac::Str) as its oracle.

use std::time::Instant;

use smallvec::SmallVec;

use crate::domains::Domains;
use crate::gac::Propagator;
use crate::model::VarId;

/// Calls `solution` with the domains (all of `vars` reduced to one value) of every solution over
/// `vars`, and returns whether the enumeration finished before `deadline`.
pub(crate) fn enumerate<P: Propagator>(
    domains: &mut Domains,
    propagator: &mut P,
    vars: &[VarId],
    deadline: Option<Instant>,
    solution: &mut dyn FnMut(&Domains),
) -> bool {
    let mut search = Search {
        vars,
        deadline,
        nodes: 0,
        stopped: false,
    };
    if propagator.propagate(domains, vars) {
        search.descend(domains, propagator, solution);
    }
    !search.stopped
}

struct Search<'a> {
    vars: &'a [VarId],
    deadline: Option<Instant>,
    nodes: u64,
    stopped: bool,
}

impl Search<'_> {
    fn descend<P: Propagator>(
        &mut self,
        domains: &mut Domains,
        propagator: &mut P,
        solution: &mut dyn FnMut(&Domains),
    ) {
        self.nodes += 1;
        if self.nodes % 256 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        if self.stopped {
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
            if self.stopped {
                return;
            }
        }
    }
}

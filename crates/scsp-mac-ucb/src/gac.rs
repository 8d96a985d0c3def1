//! Generalised arc consistency on table constraints: the interface the search propagates with,
//! and [`Str`], a simple and obviously correct propagator (a tabular reduction recomputed from
//! scratch at every call, after Ullmann's STR, 2007) that serves as the test oracle of
//! [Compact-Table](crate::compact_table) and as its baseline in the benches.

use crate::budget::Budget;
use crate::compact_table::CompactTable;
use crate::domains::Domains;
use crate::model::{Network, Relation, VarId};

/// A hard table constraint: a scope and its allowed tuples (value indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableConstraint {
    /// The scope.
    pub scope: Vec<VarId>,
    /// The allowed tuples.
    pub tuples: Vec<Vec<u32>>,
}

impl TableConstraint {
    /// The hard constraints of `network` as tables.
    pub fn of(network: &Network) -> Vec<TableConstraint> {
        network
            .constraints
            .iter()
            .filter_map(|c| match &c.relation {
                Relation::Allowed(tuples) => Some(TableConstraint {
                    scope: c.scope.clone(),
                    tuples: tuples.clone(),
                }),
                Relation::Utility(_) => None,
            })
            .collect()
    }
}

/// What maintains arc consistency during a search.
pub(crate) trait Propagator {
    /// Removes every value without a support in some constraint, until none is left (a fixpoint):
    /// afterwards every value of every variable has a support in every constraint on it. `changed`
    /// are the variables whose domains shrank since the last call. `false` if a domain (or a
    /// table) became empty.
    fn propagate(&mut self, domains: &mut Domains, changed: &[VarId]) -> bool;
    /// Opens a level of the search (with [`Domains::push`]).
    fn push(&mut self);
    /// Closes the level (with [`Domains::pop`]).
    fn pop(&mut self);
}

/// The simple propagator: every call scans every constraint's tuples, keeps the values that
/// appear in a tuple whose values are all live, removes the others, and repeats until nothing
/// changes. Stateless, so backtracking is free.
#[derive(Clone, Debug)]
pub struct Str {
    constraints: Vec<TableConstraint>,
}

impl Str {
    /// A propagator over `constraints`.
    pub fn new(constraints: Vec<TableConstraint>) -> Str {
        Str { constraints }
    }

    /// One pass over one constraint; `None` on a wipeout, else whether it removed a value.
    fn revise(c: &TableConstraint, domains: &mut Domains) -> Option<bool> {
        let mut supported: Vec<Vec<bool>> = c
            .scope
            .iter()
            .map(|&x| {
                vec![
                    false;
                    domains
                        .values(x)
                        .iter()
                        .max()
                        .map_or(0, |m| *m as usize + 1)
                ]
            })
            .collect();
        let mut any = false;
        for tuple in &c.tuples {
            if c.scope
                .iter()
                .zip(tuple)
                .all(|(&x, &a)| domains.contains(x, a))
            {
                any = true;
                for (i, &a) in tuple.iter().enumerate() {
                    supported[i][a as usize] = true;
                }
            }
        }
        if !any {
            return None;
        }
        let mut changed = false;
        for (i, &x) in c.scope.iter().enumerate() {
            let dead: Vec<u32> = domains
                .values(x)
                .iter()
                .copied()
                .filter(|&a| !supported[i][a as usize])
                .collect();
            for a in dead {
                changed |= domains.remove(x, a);
            }
        }
        Some(changed)
    }
}

impl Propagator for Str {
    fn propagate(&mut self, domains: &mut Domains, _: &[VarId]) -> bool {
        loop {
            let mut changed = false;
            for c in &self.constraints {
                match Str::revise(c, domains) {
                    None => return false,
                    Some(c) => changed |= c,
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn push(&mut self) {}

    fn pop(&mut self) {}
}

/// Which propagator maintains arc consistency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// [Compact-Table](crate::compact_table::CompactTable). The default.
    #[default]
    CompactTable,
    /// [`Str`], the simple oracle.
    Str,
}

/// The domains (live value indices, sorted) after enforcing arc consistency on `constraints` over
/// domains of the given sizes, then assigning each `(variable, value)` of `assignments` in turn
/// (skipped if the value is gone) and enforcing it again; `None` on a wipeout.
pub fn arc_consistent(
    constraints: &[TableConstraint],
    sizes: &[usize],
    assignments: &[(VarId, u32)],
    engine: Engine,
) -> Option<Vec<Vec<u32>>> {
    fn run<P: Propagator>(
        mut propagator: P,
        sizes: &[usize],
        assignments: &[(VarId, u32)],
    ) -> Option<Vec<Vec<u32>>> {
        let mut domains = Domains::new(sizes.iter().copied());
        let all: Vec<VarId> = (0..sizes.len()).collect();
        if !propagator.propagate(&mut domains, &all) {
            return None;
        }
        for &(x, a) in assignments {
            if domains.contains(x, a) {
                domains.push();
                propagator.push();
                domains.assign(x, a);
                if !propagator.propagate(&mut domains, &[x]) {
                    return None;
                }
            }
        }
        Some(
            (0..sizes.len())
                .map(|x| {
                    let mut live = domains.values(x).to_vec();
                    live.sort_unstable();
                    live
                })
                .collect(),
        )
    }
    match engine {
        Engine::CompactTable => run(CompactTable::new(constraints, sizes), sizes, assignments),
        Engine::Str => run(Str::new(constraints.to_vec()), sizes, assignments),
    }
}

/// The number of solutions of the CSP `constraints` over domains of the given sizes, enumerated
/// by MAC with `engine` maintaining arc consistency.
pub fn count_solutions(constraints: &[TableConstraint], sizes: &[usize], engine: Engine) -> u64 {
    let vars: Vec<VarId> = (0..sizes.len()).collect();
    let mut domains = Domains::new(sizes.iter().copied());
    let mut count = 0;
    let mut on_solution = |_: &Domains| count += 1;
    match engine {
        Engine::CompactTable => {
            let mut ct = CompactTable::new(constraints, sizes);
            crate::mac::enumerate(
                &mut domains,
                &mut ct,
                &vars,
                &mut Budget::default(),
                &mut on_solution,
            );
        }
        Engine::Str => {
            let mut str = Str::new(constraints.to_vec());
            crate::mac::enumerate(
                &mut domains,
                &mut str,
                &vars,
                &mut Budget::default(),
                &mut on_solution,
            );
        }
    }
    count
}

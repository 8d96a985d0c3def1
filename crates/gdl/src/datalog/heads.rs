//! Remembering which head atoms a join already derived, so that a solution repeating one skips
//! building it.
//!
//! A rule whose body has variables the head does not mention reaches each head atom once per
//! binding of those variables: `(<= (between ?l ?m ?r) (true (piece ?m ?x ?y)) (next_w ?l ?x ?y)
//! (next_e ?r ?x ?y))` derives each `(between l m r)` once per square `(x, y)` they share. Every
//! solution then builds its head, which interns a term and looks it up among the facts: two
//! probes of tables that, on a large game, are far larger than the cache, so each costs a miss
//! to memory. Over the relaxed model of a large chess description, four such rules make 5.1
//! million solutions for 292,000 atoms.
//!
//! [`HeadCache`] keys a solution by the values of the head's variables, which determine the head,
//! in a small direct-mapped table that stays in the cache: a key seen earlier in the same join
//! means the atom is already among the facts (facts only grow during a join), and the solution
//! is skipped. A slot holds one key; a collision evicts, costing only a rebuilt head. Joins with
//! few solutions never touch the table, nor do joins whose body has no variable of its own (each
//! of their solutions has a head of its own), and a join that finds few keys in its first
//! thousand lookups stops consulting it. Goal-directed calls do not use it.

use game_trait::hash::splitmix64 as mix;

use crate::syntax::term::{Bindings, TermId};

/// The most head variables a key holds; a head with more is not cached.
pub(crate) const MAX_KEY: usize = 6;

/// Slots of the table: 16,384 of 28 bytes, 448 KiB, inside a 1 MiB L2 cache. Measured on the domain
/// analysis of a large chess description (`gametree gdl bench FILE --seconds 0`): 65,536 slots
/// (1.8 MiB) skip 7 % more solutions and load 0.1 s slower; 2,048 load 0.15 s slower.
const SLOTS: usize = 16384;

/// Solutions of a join before the table is consulted: below this a repeated head is cheaper
/// rebuilt than hashed.
const WARM_UP: u32 = 64;

/// Lookups after the warm-up that decide whether the join goes on consulting the table: it stops
/// if fewer than one in [`RARE`] found its key. Where heads seldom repeat (the relaxed models of
/// most games), the table only costs: hashing, and the cache lines it takes from the term and
/// fact tables (amazons' domain analysis: 234,000 lookups, none found, 8 % slower).
const TRIAL: u32 = 1024;

/// See [`TRIAL`].
const RARE: u32 = 16;

/// A key's unused places.
const NONE: TermId = TermId(u32::MAX);

#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The join the key belongs to; 0 for none.
    join: u32,
    key: [TermId; MAX_KEY],
}

const EMPTY: Slot = Slot {
    join: 0,
    key: [NONE; MAX_KEY],
};

/// The heads derived by the current join (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct HeadCache {
    slots: Vec<Slot>,
    /// The current join's number; slots of other joins are empty to it.
    join: u32,
    /// The current rule's head variables (`len == 0`: not cached).
    vars: [u32; MAX_KEY],
    len: usize,
    solutions: u32,
    /// Keys found during the trial.
    seen: u32,
}

/// What [`HeadCache::check`] found.
pub(crate) enum Lookup {
    /// The table is not consulted for this solution.
    Off,
    /// The head was derived earlier in this join.
    Seen,
    /// A new key: [`HeadCache::remember`] it once its head is among the facts.
    New(usize, [TermId; MAX_KEY]),
}

impl HeadCache {
    /// Starts a join of a rule whose head has the variables `vars` (each once); `body_only`:
    /// whether its body has variables the head does not (without them every solution of the
    /// join has a head of its own, and the table is not consulted).
    pub(crate) fn begin(&mut self, vars: &[u32], body_only: bool) {
        self.join = self.join.wrapping_add(1);
        if self.join == 0 {
            // Numbers wrapped: slots of a join 2³² joins ago would look current.
            self.slots.fill(EMPTY);
            self.join = 1;
        }
        self.solutions = 0;
        self.seen = 0;
        self.len = if body_only && vars.len() <= MAX_KEY {
            vars.len()
        } else {
            0
        };
        self.vars[..self.len].copy_from_slice(&vars[..self.len]);
    }

    /// Looks the solution `b` up.
    #[inline]
    pub(crate) fn check(&mut self, b: &Bindings) -> Lookup {
        if self.len == 0 {
            return Lookup::Off;
        }
        self.solutions = self.solutions.saturating_add(1);
        if self.solutions <= WARM_UP {
            return Lookup::Off;
        }
        if self.solutions == WARM_UP + TRIAL && self.seen < TRIAL / RARE {
            self.len = 0;
            return Lookup::Off;
        }
        let mut key = [NONE; MAX_KEY];
        let mut h = u64::from(self.join);
        for (k, &v) in key.iter_mut().zip(&self.vars[..self.len]) {
            let Some(t) = b.get(v) else {
                return Lookup::Off;
            };
            *k = t;
            h = mix(h ^ u64::from(t.0));
        }
        if self.slots.is_empty() {
            self.slots = vec![EMPTY; SLOTS];
        }
        let i = h as usize & (SLOTS - 1);
        let slot = &self.slots[i];
        if slot.join == self.join && slot.key == key {
            self.seen += 1;
            Lookup::Seen
        } else {
            Lookup::New(i, key)
        }
    }

    /// Records that the head of the key [`check`](Self::check) returned is among the facts.
    #[inline]
    pub(crate) fn remember(&mut self, slot: usize, key: [TermId; MAX_KEY]) {
        self.slots[slot] = Slot {
            join: self.join,
            key,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bindings with variable `v` bound to `TermId(values[v])`.
    fn bound(values: &[u32]) -> Bindings {
        let mut b = Bindings::default();
        b.reset(values.len());
        for (v, &t) in values.iter().enumerate() {
            b.set(v as u32, TermId(t));
        }
        b
    }

    /// Runs `solutions` through a cache as a join would; which of them it skipped.
    fn skipped(cache: &mut HeadCache, vars: &[u32], solutions: &[Bindings]) -> Vec<usize> {
        cache.begin(vars, true);
        let mut seen = Vec::new();
        for (i, b) in solutions.iter().enumerate() {
            match cache.check(b) {
                Lookup::Seen => seen.push(i),
                Lookup::New(slot, key) => cache.remember(slot, key),
                Lookup::Off => {}
            }
        }
        seen
    }

    #[test]
    fn a_repeated_head_is_skipped_once_warm_and_only_within_its_join() {
        let mut cache = HeadCache::default();
        // Head variables 0 and 2; variable 1 is the body's own and does not matter.
        let mut solutions: Vec<Bindings> = (0..WARM_UP).map(|i| bound(&[i, 0, i])).collect();
        solutions.push(bound(&[500, 1, 7])); // new
        solutions.push(bound(&[500, 2, 7])); // the same head by another body binding
        solutions.push(bound(&[500, 3, 8])); // another head
        solutions.push(bound(&[0, 9, 0])); // seen during the warm-up only: not remembered
        let n = WARM_UP as usize;
        assert_eq!(skipped(&mut cache, &[0, 2], &solutions), [n + 1]);
        // The next join starts empty, even for the same keys.
        assert_eq!(skipped(&mut cache, &[0, 2], &solutions), [n + 1]);
        // A head with too many variables, and one without any, is never cached.
        let wide: Vec<u32> = (0..MAX_KEY as u32 + 1).collect();
        let many: Vec<Bindings> = (0..WARM_UP + 4).map(|_| bound(&[1; 8])).collect();
        assert!(skipped(&mut cache, &wide, &many).is_empty());
        assert!(skipped(&mut cache, &[], &many).is_empty());
        assert_eq!(
            skipped(&mut cache, &[0], &many),
            (n + 1..n + 4).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_body_without_variables_of_its_own_is_never_looked_up() {
        let mut cache = HeadCache::default();
        let same: Vec<Bindings> = (0..WARM_UP + 8).map(|_| bound(&[5])).collect();
        cache.begin(&[0], false);
        assert!(same.iter().all(|b| matches!(cache.check(b), Lookup::Off)));
    }

    #[test]
    fn a_join_whose_heads_seldom_repeat_stops_consulting_the_table() {
        let mut cache = HeadCache::default();
        let (warm, trial) = (WARM_UP as usize, TRIAL as usize);
        // A trial of distinct heads, then every one again: the repeats are not looked up.
        let distinct: Vec<Bindings> = (0..warm + trial).map(|i| bound(&[i as u32])).collect();
        let again: Vec<Bindings> = distinct.iter().chain(&distinct[warm..]).cloned().collect();
        assert!(skipped(&mut cache, &[0], &again).is_empty());
        // One head in eight a repeat during the trial: found all along.
        let some: Vec<Bindings> = (0..warm + 2 * trial)
            .map(|i| bound(&[if i % 8 == 0 { 7 } else { i as u32 }]))
            .collect();
        let found = skipped(&mut cache, &[0], &some);
        assert_eq!(found.len(), trial / 4 - 1);
        assert_eq!(found.last(), Some(&(some.len() - 8)));
    }

    #[test]
    fn join_numbers_wrapping_around_clear_the_table() {
        let mut cache = HeadCache::default();
        let solutions: Vec<Bindings> = (0..WARM_UP + 2).map(|_| bound(&[3])).collect();
        assert_eq!(
            skipped(&mut cache, &[0], &solutions),
            [WARM_UP as usize + 1]
        );
        cache.join = u32::MAX;
        // Join 0 would be every empty slot's; the table is cleared instead.
        assert_eq!(
            skipped(&mut cache, &[0], &solutions),
            [WARM_UP as usize + 1]
        );
        assert_eq!(cache.join, 1);
    }
}

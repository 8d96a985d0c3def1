//! [`Facts`]: sets of ground atoms, one list per relation, with hash indexes on bound arguments.
//!
//! An index of a relation is keyed by the subterms at a few *paths* of its atoms (`[2]` is the third
//! argument, `[1, 0]` the first argument of the second): the joins of [`crate::datalog`] look up the
//! atoms whose subterms at those paths equal the bound parts of a body literal, instead of scanning
//! every atom of the relation. Each index chains its atoms in insertion order, so a join can see only
//! the atoms that existed when a round of semi-naive evaluation started.

use smallvec::SmallVec;

use crate::syntax::term::{Node, TermId, Terms};
use game_trait::hash::{splitmix64 as mix, FastMap};

/// A position inside an atom: the argument index at each level.
pub type Path = SmallVec<[u16; 4]>;

/// "No atom": the end of an index chain, or an atom an index does not hold.
const NONE: u32 = u32::MAX;

/// The subterm of `t` at `path`, if `t` has that shape.
pub fn subterm(terms: &Terms, mut t: TermId, path: &[u16]) -> Option<TermId> {
    for &i in path {
        t = *terms.args(t).get(i as usize)?;
    }
    Some(t)
}

/// Folds a key subterm into an index hash.
#[inline]
pub fn fold_key(h: u64, t: TermId) -> u64 {
    mix(h ^ u64::from(t.0))
}

/// The hash of a key: the fold of its subterms.
pub const KEY_SEED: u64 = 0x2545_f491_4f6c_dd1d;

/// One hash index of a relation.
#[derive(Clone, Debug, Default)]
struct Index {
    paths: Box<[Path]>,
    /// Key hash → (first, last) atom position in the relation.
    heads: FastMap<u64, (u32, u32)>,
    /// Per atom position: the next atom position with the same key hash.
    next: Vec<u32>,
}

impl Index {
    fn key_of(&self, terms: &Terms, atom: TermId) -> Option<u64> {
        let mut h = KEY_SEED;
        for p in self.paths.iter() {
            h = fold_key(h, subterm(terms, atom, p)?);
        }
        Some(h)
    }

    fn add(&mut self, terms: &Terms, atom: TermId, pos: u32) {
        self.next.push(NONE);
        let Some(h) = self.key_of(terms, atom) else {
            return;
        };
        match self.heads.get_mut(&h) {
            Some(entry) => {
                self.next[entry.1 as usize] = pos;
                entry.1 = pos;
            }
            None => {
                self.heads.insert(h, (pos, pos));
            }
        }
    }
}

/// The atoms of one relation and its indexes.
#[derive(Clone, Debug, Default)]
struct Relation {
    atoms: Vec<TermId>,
    indexes: Vec<Index>,
}

/// A set of ground atoms, by relation (relation ids come from the engine's schema), with the
/// indexes the engine's joins use.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Bit `t` is set when atom `t` (a term id) holds.
    present: Vec<u64>,
    rels: Vec<Relation>,
    /// Per relation: the atom positions a join may see, `lo..hi` for the last semi-naive round's
    /// atoms and `0..hi` otherwise.
    windows: Vec<(u32, u32)>,
    count: usize,
}

impl Facts {
    /// An empty set for `relations` relations with the given index paths per relation.
    pub fn new(index_paths: &[Vec<Box<[Path]>>]) -> Facts {
        Facts {
            present: Vec::new(),
            rels: index_paths
                .iter()
                .map(|defs| Relation {
                    atoms: Vec::new(),
                    indexes: defs
                        .iter()
                        .map(|paths| Index {
                            paths: paths.clone(),
                            ..Index::default()
                        })
                        .collect(),
                })
                .collect(),
            windows: vec![(0, u32::MAX); index_paths.len()],
            count: 0,
        }
    }

    /// Adds the indexes of `index_paths` this set does not have yet, built over its atoms.
    pub fn sync_indexes(&mut self, terms: &Terms, index_paths: &[Vec<Box<[Path]>>]) {
        self.rels.resize_with(index_paths.len(), Relation::default);
        self.windows.resize(index_paths.len(), (0, u32::MAX));
        for (r, defs) in self.rels.iter_mut().zip(index_paths) {
            for paths in &defs[r.indexes.len()..] {
                let mut index = Index {
                    paths: paths.clone(),
                    ..Index::default()
                };
                for (pos, &a) in r.atoms.iter().enumerate() {
                    index.add(terms, a, pos as u32);
                }
                r.indexes.push(index);
            }
        }
    }

    /// How many atoms of relation `rel` share a key of its index `index`, on average (`None`
    /// before the index has a key).
    pub fn atoms_per_key(&self, rel: u32, index: u32) -> Option<usize> {
        let r = self.rels.get(rel as usize)?;
        let keys = r.indexes.get(index as usize)?.heads.len();
        (keys > 0).then(|| r.atoms.len().div_ceil(keys))
    }

    /// The window of relation `rel` (see [`set_window`](Facts::set_window)).
    #[inline]
    pub fn window(&self, rel: u32) -> (u32, u32) {
        self.windows
            .get(rel as usize)
            .copied()
            .unwrap_or((0, u32::MAX))
    }

    /// Joins over `rel` see atom positions `0..hi`, and `lo..hi` for the last round's atoms.
    pub fn set_window(&mut self, rel: u32, lo: u32, hi: u32) {
        self.windows[rel as usize] = (lo, hi);
    }

    /// Joins over `rel` see all of its atoms again.
    pub fn reset_window(&mut self, rel: u32) {
        self.windows[rel as usize] = (0, u32::MAX);
    }

    /// Adds `atom` to relation `rel`; whether it was new.
    pub fn insert(&mut self, terms: &Terms, rel: u32, atom: TermId) -> bool {
        let (word, bit) = (atom.0 as usize / 64, atom.0 % 64);
        if word >= self.present.len() {
            self.present
                .resize((word + 1).max(terms.len().div_ceil(64)), 0);
        }
        if self.present[word] >> bit & 1 == 1 {
            return false;
        }
        self.present[word] |= 1 << bit;
        let r = &mut self.rels[rel as usize];
        let pos = r.atoms.len() as u32;
        r.atoms.push(atom);
        for index in &mut r.indexes {
            index.add(terms, atom, pos);
        }
        self.count += 1;
        true
    }

    /// Whether `atom` holds.
    #[inline]
    pub fn contains(&self, atom: TermId) -> bool {
        self.present
            .get(atom.0 as usize / 64)
            .is_some_and(|w| w >> (atom.0 % 64) & 1 == 1)
    }

    /// The atoms of relation `rel`, in the order they were derived.
    #[inline]
    pub fn of(&self, rel: u32) -> &[TermId] {
        self.rels
            .get(rel as usize)
            .map_or(&[], |r| r.atoms.as_slice())
    }

    /// How many atoms hold.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no atom holds.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Approximate bytes held, for memory budgets.
    pub fn bytes(&self) -> usize {
        self.present.len() * 8
            + self
                .rels
                .iter()
                .map(|r| {
                    r.atoms.len() * 4
                        + r.indexes
                            .iter()
                            .map(|i| i.next.len() * 4 + i.heads.len() * 24)
                            .sum::<usize>()
                })
                .sum::<usize>()
    }

    /// The first atom position of relation `rel` whose key under index `index` hashes to `key`.
    #[inline]
    pub fn chain_start(&self, rel: u32, index: u32, key: u64) -> u32 {
        self.rels[rel as usize].indexes[index as usize]
            .heads
            .get(&key)
            .map_or(NONE, |e| e.0)
    }

    /// The atom position after `pos` in the chain of index `index` of relation `rel`.
    #[inline]
    pub fn chain_next(&self, rel: u32, index: u32, pos: u32) -> u32 {
        self.rels[rel as usize].indexes[index as usize].next[pos as usize]
    }

    /// Empties relation `rel` (its atoms no longer hold).
    pub fn clear_relation(&mut self, rel: u32) {
        let r = &mut self.rels[rel as usize];
        for &a in &r.atoms {
            self.present[a.0 as usize / 64] &= !(1 << (a.0 % 64));
        }
        self.count -= r.atoms.len();
        r.atoms.clear();
        for index in &mut r.indexes {
            index.heads.clear();
            index.next.clear();
        }
    }

    /// Empties every relation, keeping the allocated buffers for reuse.
    pub fn clear(&mut self) {
        for rel in 0..self.rels.len() as u32 {
            if !self.rels[rel as usize].atoms.is_empty() {
                self.clear_relation(rel);
            }
        }
    }
}

/// "No such atom" for [`Facts::chain_start`] and [`Facts::chain_next`].
pub const END: u32 = NONE;

/// The paths of `pattern` whose subterms are ground once the variables `bound` are bound: the key
/// an index lookup can use. Stops at the first ground-after-binding subterm of each branch.
pub fn key_paths(terms: &Terms, pattern: TermId, bound: &[u32]) -> Vec<(Path, TermId)> {
    let mut out = Vec::new();
    let mut stack: Vec<(Path, TermId)> = match terms.node(pattern) {
        Node::App(_, args) => args
            .iter()
            .enumerate()
            .map(|(i, &a)| (Path::from_slice(&[i as u16]), a))
            .collect(),
        _ => Vec::new(),
    };
    while let Some((path, t)) = stack.pop() {
        let mut vars = Vec::new();
        terms.vars_of(t, &mut vars);
        if vars.iter().all(|v| bound.contains(v)) {
            out.push((path, t));
            continue;
        }
        if let Node::App(_, args) = terms.node(t) {
            for (i, &a) in args.iter().enumerate() {
                let mut p = path.clone();
                p.push(i as u16);
                stack.push((p, a));
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_finds_the_atoms_with_a_key() {
        let mut t = Terms::default();
        let (cell, b, x) = (t.sym("cell"), t.sym("b"), t.sym("x"));
        let (cb, cx) = (t.constant(b), t.constant(x));
        let nums: Vec<TermId> = (1..=3)
            .map(|i| {
                let s = t.sym(&i.to_string());
                t.constant(s)
            })
            .collect();
        let v = t.var(0);
        let pattern = t.app(cell, &[v, nums[0], cb]);
        let keys = key_paths(&t, pattern, &[]);
        assert_eq!(keys.len(), 2, "the second and third arguments are ground");
        let paths: Box<[Path]> = keys.iter().map(|(p, _)| p.clone()).collect();
        let mut facts = Facts::new(&[vec![paths]]);
        let mut atoms = Vec::new();
        for &i in &nums {
            for &j in &nums {
                for &c in &[cb, cx] {
                    let a = t.app(cell, &[i, j, c]);
                    assert!(facts.insert(&t, 0, a));
                    atoms.push(a);
                }
            }
        }
        assert!(!facts.insert(&t, 0, atoms[0]));
        assert_eq!(facts.len(), 18);
        let key = keys.iter().fold(KEY_SEED, |h, &(_, k)| fold_key(h, k));
        let mut found = Vec::new();
        let mut pos = facts.chain_start(0, 0, key);
        while pos != END {
            found.push(facts.of(0)[pos as usize]);
            pos = facts.chain_next(0, 0, pos);
        }
        let expected: Vec<TermId> = nums
            .iter()
            .map(|&i| t.app(cell, &[i, nums[0], cb]))
            .collect();
        assert_eq!(found, expected);
        // 18 atoms over 3 × 2 keys (the second argument and the third).
        assert_eq!(facts.atoms_per_key(0, 0), Some(3));
        facts.clear();
        assert!(facts.is_empty() && !facts.contains(atoms[3]));
        assert!(facts.insert(&t, 0, atoms[3]));
    }
}

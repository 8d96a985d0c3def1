//! Compact-Table (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin and Schaus, *Compact-Table:
//! Efficiently Filtering Table Constraints with Reversible Sparse Bit-Sets*, CP 2016): generalised
//! arc consistency on table constraints.
//!
//! Each constraint keeps `current`, the set of its tuples whose values are all live, as a
//! **reversible sparse bit-set**: one bit per tuple, the indices of its non-zero words kept first
//! in a list whose live length is the only thing backtracking restores besides the words saved
//! (once per level, by timestamp) before they change. For each variable `x` of the scope and value
//! `a`, `supports[x][a]` is the bit-set of the tuples with `x = a`, stored sparsely (its non-zero
//! words only). A propagation of one constraint:
//!
//! 1. **update**: for each variable whose domain shrank since the constraint last looked (its
//!    recorded size against the current one, both reversible), remove from `current` the supports
//!    of the removed values (the delta), or keep only the union of the supports of the live values
//!    when that is shorter (the reset);
//! 2. **filter**: a live value is kept if its support meets `current`, checked first at its
//!    *residue* (the word where a meeting was last found), then word by word; the others are
//!    removed, and the constraints on their variables scheduled.
//!
//! An empty `current` is a wipeout. Complexity: an update costs the words of the supports read, a
//! filter at most `Σ_x |dom(x)| · words(supports)`; in practice residues make most checks one word.

use crate::domains::Domains;
use crate::gac::{Propagator, TableConstraint};
use crate::model::VarId;

/// Compact-Table over a set of table constraints.
#[derive(Clone, Debug)]
pub struct CompactTable {
    constraints: Vec<Ct>,
    /// `on[x]`: the `(constraint, position)` pairs of variable `x`.
    on: Vec<Vec<(usize, usize)>>,
    queue: Vec<usize>,
    queued: Vec<bool>,
    /// Scratch: the variables one constraint's filtering shrank.
    shrunk: Vec<VarId>,
    trail: Vec<Saved>,
    marks: Vec<usize>,
    /// The timestamp of each open level (a fresh one per push).
    stamps: Vec<u64>,
    next_stamp: u64,
}

/// What the update step found.
enum Update {
    /// `current` is empty.
    Wipeout,
    /// `current` is not empty; `only` is the scope position of the one variable that changed, if
    /// exactly one did.
    Done { only: Option<usize> },
}

/// A value saved before it changed, restored by [`CompactTable::pop`].
#[derive(Clone, Copy, Debug)]
enum Saved {
    Word { c: usize, w: u32, old: u64 },
    Limit { c: usize, old: u32 },
    LastSize { c: usize, i: usize, old: u32 },
}

/// One constraint's state.
#[derive(Clone, Debug)]
struct Ct {
    scope: Vec<VarId>,
    /// The bit-set `current`: its words, …
    words: Vec<u64>,
    /// … the indices of its non-zero words first (`nonzero[..limit]`), …
    nonzero: Vec<u32>,
    /// … the position of each word in `nonzero`, …
    place: Vec<u32>,
    limit: u32,
    /// … and the stamp of the level that last saved each word.
    saved: Vec<u64>,
    /// `supports[i][a]`: the non-zero words `(index, bits)` of the tuples with `scope[i] = a`.
    supports: Vec<Vec<Vec<(u32, u64)>>>,
    /// `residues[i][a]`: the position in `supports[i][a]` of the word where a support was found.
    residues: Vec<Vec<u32>>,
    /// The domain size of `scope[i]` when this constraint last looked at it.
    last_size: Vec<u32>,
    /// Scratch for the reset update.
    mask: Vec<u64>,
    /// Whether a filtering has succeeded: from then on, every live value had a support when the
    /// constraint last looked.
    filtered: bool,
}

impl CompactTable {
    /// Compact-Table over `constraints`, for domains of the given sizes (all values live).
    pub fn new(constraints: &[TableConstraint], sizes: &[usize]) -> CompactTable {
        let mut on = vec![Vec::new(); sizes.len()];
        let cts: Vec<Ct> = constraints
            .iter()
            .enumerate()
            .map(|(c, t)| {
                for (i, &x) in t.scope.iter().enumerate() {
                    on[x].push((c, i));
                }
                Ct::new(t, sizes)
            })
            .collect();
        CompactTable {
            queue: Vec::new(),
            queued: vec![false; cts.len()],
            shrunk: Vec::new(),
            constraints: cts,
            on,
            trail: Vec::new(),
            marks: Vec::new(),
            stamps: vec![0],
            next_stamp: 1,
        }
    }

    /// Schedules the constraints on `x` but `except`.
    fn schedule(&mut self, x: VarId, except: usize) {
        for &(c, _) in &self.on[x] {
            if c != except && !self.queued[c] {
                self.queued[c] = true;
                self.queue.push(c);
            }
        }
    }

    /// Propagates constraint `c`; the variables it shrank are appended to `shrunk`. `false` on a
    /// wipeout.
    fn run(&mut self, c: usize, domains: &mut Domains, shrunk: &mut Vec<VarId>) -> bool {
        let stamp = *self.stamps.last().expect("the root level");
        let ct = &mut self.constraints[c];
        let mut saver = Saver {
            c,
            stamp,
            trail: &mut self.trail,
        };
        match ct.update(domains, &mut saver) {
            Update::Wipeout => false,
            // The first filtering checks every variable: nothing is known to be supported yet.
            Update::Done { only } => {
                let only = only.filter(|_| ct.filtered);
                let consistent = ct.filter(domains, &mut saver, shrunk, only);
                ct.filtered |= consistent;
                consistent
            }
        }
    }
}

impl Propagator for CompactTable {
    fn propagate(&mut self, domains: &mut Domains, changed: &[VarId]) -> bool {
        for &x in changed {
            self.schedule(x, usize::MAX);
        }
        if self.marks.is_empty() {
            // At the root, every constraint filters once (its values may lack supports from the
            // start).
            for c in 0..self.constraints.len() {
                if !self.queued[c] {
                    self.queued[c] = true;
                    self.queue.push(c);
                }
            }
        }
        let mut shrunk = std::mem::take(&mut self.shrunk);
        let mut consistent = true;
        while let Some(c) = self.queue.pop() {
            self.queued[c] = false;
            shrunk.clear();
            if !self.run(c, domains, &mut shrunk) {
                for c in self.queue.drain(..) {
                    self.queued[c] = false;
                }
                consistent = false;
                break;
            }
            for &x in &shrunk {
                self.schedule(x, c);
            }
        }
        self.shrunk = shrunk;
        consistent
    }

    fn push(&mut self) {
        self.marks.push(self.trail.len());
        self.stamps.push(self.next_stamp);
        self.next_stamp += 1;
    }

    fn pop(&mut self) {
        let mark = self.marks.pop().expect("a level is open");
        self.stamps.pop();
        for saved in self.trail.drain(mark..).rev() {
            match saved {
                Saved::Word { c, w, old } => {
                    let ct = &mut self.constraints[c];
                    ct.words[w as usize] = old;
                    ct.saved[w as usize] = 0;
                }
                Saved::Limit { c, old } => self.constraints[c].limit = old,
                Saved::LastSize { c, i, old } => self.constraints[c].last_size[i] = old,
            }
        }
    }
}

/// Records old values on the trail for one constraint at the current level.
struct Saver<'a> {
    c: usize,
    stamp: u64,
    trail: &'a mut Vec<Saved>,
}

impl Ct {
    fn new(t: &TableConstraint, sizes: &[usize]) -> Ct {
        let n = t.tuples.len();
        let word_count = n.div_ceil(64);
        let mut words = vec![!0u64; word_count];
        if n % 64 != 0 {
            words[word_count - 1] = (1u64 << (n % 64)) - 1;
        }
        let mut supports: Vec<Vec<Vec<(u32, u64)>>> = t
            .scope
            .iter()
            .map(|&x| vec![Vec::new(); sizes[x]])
            .collect();
        for (k, tuple) in t.tuples.iter().enumerate() {
            let (w, bit) = ((k / 64) as u32, 1u64 << (k % 64));
            for (i, &a) in tuple.iter().enumerate() {
                let list = &mut supports[i][a as usize];
                match list.last_mut() {
                    Some((last, bits)) if *last == w => *bits |= bit,
                    _ => list.push((w, bit)),
                }
            }
        }
        Ct {
            scope: t.scope.clone(),
            nonzero: (0..word_count as u32).collect(),
            place: (0..word_count as u32).collect(),
            limit: word_count as u32,
            saved: vec![0; word_count],
            mask: vec![0; word_count],
            words,
            residues: t.scope.iter().map(|&x| vec![0; sizes[x]]).collect(),
            last_size: t.scope.iter().map(|&x| sizes[x] as u32).collect(),
            supports,
            filtered: false,
        }
    }

    /// Step 1: `current` loses the tuples that name a value removed since the constraint last
    /// looked, so that it holds exactly the tuples whose values are all live.
    fn update(&mut self, domains: &Domains, saver: &mut Saver) -> Update {
        let mut changed = 0;
        let mut only = None;
        for i in 0..self.scope.len() {
            let x = self.scope[i];
            let (size, last) = (domains.size(x), self.last_size[i] as usize);
            if size == last {
                continue;
            }
            changed += 1;
            only = Some(i);
            let removed = domains.removed_since(x, last);
            if removed.len() < size {
                for &a in removed {
                    for k in 0..self.supports[i][a as usize].len() {
                        let (w, bits) = self.supports[i][a as usize][k];
                        let word = self.words[w as usize];
                        if word & bits != 0 {
                            self.set_word(w, word & !bits, saver);
                        }
                    }
                }
            } else {
                self.keep_live(i, domains.values(x), saver);
            }
            saver.trail.push(Saved::LastSize {
                c: saver.c,
                i,
                old: self.last_size[i],
            });
            self.last_size[i] = size as u32;
            if self.limit == 0 {
                return Update::Wipeout;
            }
        }
        if self.limit == 0 {
            return Update::Wipeout;
        }
        Update::Done {
            only: if changed == 1 { only } else { None },
        }
    }

    /// The reset update: `current ← current ∩ ⋃ supports[i][a]` over the live values `a`.
    fn keep_live(&mut self, i: usize, live: &[u32], saver: &mut Saver) {
        for k in 0..self.limit as usize {
            self.mask[self.nonzero[k] as usize] = 0;
        }
        for &a in live {
            for &(w, bits) in &self.supports[i][a as usize] {
                self.mask[w as usize] |= bits;
            }
        }
        for k in (0..self.limit as usize).rev() {
            let w = self.nonzero[k];
            let word = self.words[w as usize] & self.mask[w as usize];
            if word != self.words[w as usize] {
                self.set_word(w, word, saver);
            }
        }
    }

    /// Step 2: removes the live values whose supports miss `current`; the variables shrunk are
    /// appended to `shrunk`. `false` on an emptied domain. Skipped, as in the paper: assigned
    /// variables (a non-empty `current` supports their one value) and `only`, the one variable
    /// the update saw change (removing its values removed no support of its other values).
    fn filter(
        &mut self,
        domains: &mut Domains,
        saver: &mut Saver,
        shrunk: &mut Vec<VarId>,
        only: Option<usize>,
    ) -> bool {
        for i in 0..self.scope.len() {
            let x = self.scope[i];
            if domains.size(x) == 1 || only == Some(i) {
                continue;
            }
            let mut removed_any = false;
            let mut k = 0;
            while k < domains.size(x) {
                let a = domains.values(x)[k];
                if self.supported(i, a) {
                    k += 1;
                } else {
                    domains.remove(x, a); // swaps the last live value into place `k`
                    removed_any = true;
                }
            }
            if removed_any {
                if domains.size(x) == 0 {
                    return false;
                }
                saver.trail.push(Saved::LastSize {
                    c: saver.c,
                    i,
                    old: self.last_size[i],
                });
                self.last_size[i] = domains.size(x) as u32;
                shrunk.push(x);
            }
        }
        true
    }

    /// Whether value `a` of `scope[i]` has a support in `current`, updating its residue.
    fn supported(&mut self, i: usize, a: u32) -> bool {
        let support = &self.supports[i][a as usize];
        let residue = self.residues[i][a as usize] as usize;
        if let Some(&(w, bits)) = support.get(residue) {
            if self.words[w as usize] & bits != 0 {
                return true;
            }
        }
        match support
            .iter()
            .position(|&(w, bits)| self.words[w as usize] & bits != 0)
        {
            Some(k) => {
                self.residues[i][a as usize] = k as u32;
                true
            }
            None => false,
        }
    }

    /// Sets word `w` of `current`, saving it once per level and dropping it from the non-zero
    /// list when it becomes zero.
    fn set_word(&mut self, w: u32, value: u64, saver: &mut Saver) {
        if self.saved[w as usize] != saver.stamp {
            saver.trail.push(Saved::Word {
                c: saver.c,
                w,
                old: self.words[w as usize],
            });
            self.saved[w as usize] = saver.stamp;
        }
        self.words[w as usize] = value;
        if value == 0 {
            let p = self.place[w as usize];
            if p < self.limit {
                let last = self.limit - 1;
                let moved = self.nonzero[last as usize];
                self.nonzero.swap(p as usize, last as usize);
                self.place[moved as usize] = p;
                self.place[w as usize] = last;
                saver.trail.push(Saved::Limit {
                    c: saver.c,
                    old: self.limit,
                });
                self.limit = last;
            }
        }
    }
}

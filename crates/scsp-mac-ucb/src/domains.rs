//! [`Domains`]: the current domains of a search, as sparse sets that backtrack in constant time.
//!
//! Each variable keeps its values in `dense`, the live ones first: removing a value swaps it with
//! the last live one and shrinks `size`. Backtracking only restores sizes, and the values removed
//! since a size was recorded are exactly `dense[size..recorded]` (the *delta* Compact-Table reads).

use crate::model::VarId;

/// The domains of every variable, with a trail of sizes for backtracking.
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    dense: Vec<Vec<u32>>,
    pos: Vec<Vec<u32>>,
    size: Vec<u32>,
    /// `(variable, size before)` for every first shrink of a variable at a level.
    trail: Vec<(VarId, u32)>,
    /// Trail length at each open level.
    marks: Vec<usize>,
    /// The level at which each variable's size was last saved.
    saved_at: Vec<usize>,
}

impl Domains {
    /// Full domains of the given sizes.
    pub(crate) fn new(sizes: impl IntoIterator<Item = usize>) -> Domains {
        let dense: Vec<Vec<u32>> = sizes.into_iter().map(|n| (0..n as u32).collect()).collect();
        Domains {
            pos: dense.clone(),
            size: dense.iter().map(|d| d.len() as u32).collect(),
            saved_at: vec![usize::MAX; dense.len()],
            dense,
            trail: Vec::new(),
            marks: Vec::new(),
        }
    }

    pub(crate) fn size(&self, x: VarId) -> usize {
        self.size[x] as usize
    }

    pub(crate) fn contains(&self, x: VarId, a: u32) -> bool {
        self.pos[x][a as usize] < self.size[x]
    }

    /// The live values of `x`, in no particular order.
    pub(crate) fn values(&self, x: VarId) -> &[u32] {
        &self.dense[x][..self.size[x] as usize]
    }

    /// The values of `x` removed since its size was `before`.
    pub(crate) fn removed_since(&self, x: VarId, before: usize) -> &[u32] {
        &self.dense[x][self.size[x] as usize..before]
    }

    /// Removes `a` from the domain of `x`; `false` if it was not there.
    pub(crate) fn remove(&mut self, x: VarId, a: u32) -> bool {
        let p = self.pos[x][a as usize];
        if p >= self.size[x] {
            return false;
        }
        let last = self.size[x] - 1;
        self.save(x);
        let b = self.dense[x][last as usize];
        self.dense[x].swap(p as usize, last as usize);
        self.pos[x][a as usize] = last;
        self.pos[x][b as usize] = p;
        self.size[x] = last;
        true
    }

    /// Reduces the domain of `x` to `a` (which must be live).
    pub(crate) fn assign(&mut self, x: VarId, a: u32) {
        debug_assert!(self.contains(x, a));
        self.save(x);
        let p = self.pos[x][a as usize];
        let b = self.dense[x][0];
        self.dense[x].swap(0, p as usize);
        self.pos[x][a as usize] = 0;
        self.pos[x][b as usize] = p;
        self.size[x] = 1;
    }

    fn save(&mut self, x: VarId) {
        let level = self.marks.len();
        if self.saved_at[x] != level {
            self.trail.push((x, self.size[x]));
            self.saved_at[x] = level;
        }
    }

    /// Opens a level: changes from here on are undone by the matching [`pop`](Self::pop).
    pub(crate) fn push(&mut self) {
        self.marks.push(self.trail.len());
    }

    /// Undoes every change since the matching [`push`](Self::push).
    pub(crate) fn pop(&mut self) {
        let mark = self.marks.pop().expect("a level is open");
        for (x, size) in self.trail.drain(mark..).rev() {
            self.size[x] = size;
            self.saved_at[x] = usize::MAX;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removals_are_undone_level_by_level_and_deltas_are_the_removed_values() {
        let mut d = Domains::new([5, 3]);
        d.push();
        assert!(d.remove(0, 1) && d.remove(0, 3) && !d.remove(0, 3));
        let mut delta = d.removed_since(0, 5).to_vec();
        delta.sort_unstable();
        assert_eq!(delta, vec![1, 3]);
        d.push();
        d.assign(0, 4);
        assert_eq!(d.values(0), &[4]);
        d.pop();
        let mut live = d.values(0).to_vec();
        live.sort_unstable();
        assert_eq!(live, vec![0, 2, 4]);
        d.pop();
        assert_eq!(d.size(0), 5);
        assert!((0..5).all(|a| d.contains(0, a)));
    }
}

//! [`AtomIndex`]: where a family of atoms lives in a view's bits, read a word at a time.
//!
//! A board game has hundreds of potential moves per role and a handful legal in any state, and
//! hundreds of `next` atoms of which a few dozen hold; every state's move count and move list, and
//! every successor's fluents, are asked for, so they are read as masked words (a population count,
//! then the set bits) instead of one bit test per atom.

/// Atoms (one role's `legal` atoms, or the `next` atoms) with a value each (the move, or the
/// fluent), grouped by the word of the view's bits holding them.
#[derive(Clone, Debug, Default)]
pub(crate) struct AtomIndex {
    /// (word, mask of the atoms' bits in it), by increasing word.
    words: Vec<(u32, u64)>,
    /// The value of each atom, in bit order (the bits of `words[0]`'s mask first).
    values: Vec<u32>,
    /// Whether `values` increases: the set bits then list the values in order. Otherwise they
    /// are sorted after being read.
    in_order: bool,
}

impl AtomIndex {
    /// The index of (bit, value) pairs.
    pub(crate) fn new(atoms: &[(u32, u32)]) -> AtomIndex {
        let mut by_bit = atoms.to_vec();
        by_bit.sort_unstable();
        let mut index = AtomIndex {
            in_order: by_bit.windows(2).all(|w| w[0].1 < w[1].1),
            ..AtomIndex::default()
        };
        for &(bit, m) in &by_bit {
            let w = bit / 64;
            match index.words.last_mut() {
                Some(last) if last.0 == w => last.1 |= 1 << (bit % 64),
                _ => index.words.push((w, 1 << (bit % 64))),
            }
            index.values.push(m);
        }
        index
    }

    /// Whether the set bits list the values in order.
    #[inline]
    pub(crate) fn in_order(&self) -> bool {
        self.in_order
    }

    /// The number of atoms that hold and the least of their values (`u32::MAX` if none holds).
    #[inline]
    pub(crate) fn summary(&self, bits: &[u64]) -> (usize, u32) {
        if self.in_order {
            let first = self.iter(bits).next().unwrap_or(u32::MAX);
            let count = self.words.iter();
            let count = count.map(|&(w, mask)| (bits[w as usize] & mask).count_ones() as usize);
            return (count.sum(), first);
        }
        self.iter(bits)
            .fold((0, u32::MAX), |(n, first), m| (n + 1, first.min(m)))
    }

    /// The values of the atoms that hold in `bits`, in bit order.
    #[inline]
    pub(crate) fn iter<'a>(&'a self, bits: &'a [u64]) -> HeldValues<'a> {
        HeldValues {
            index: self,
            bits,
            word: 0,
            set: 0,
            mask: 0,
            base: 0,
        }
    }
}

/// The values of the atoms that hold in a view, in bit order ([`AtomIndex::iter`]).
pub(crate) struct HeldValues<'a> {
    index: &'a AtomIndex,
    bits: &'a [u64],
    /// The next entry of `index.words` to read.
    word: usize,
    /// The set bits of the current word not yet returned, its mask, and the position in
    /// `index.values` of its first bit.
    set: u64,
    mask: u64,
    base: usize,
}

impl Iterator for HeldValues<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        while self.set == 0 {
            let &(w, mask) = self.index.words.get(self.word)?;
            self.word += 1;
            self.base += self.mask.count_ones() as usize;
            self.mask = mask;
            self.set = self.bits[w as usize] & mask;
        }
        let low = self.set & self.set.wrapping_neg();
        self.set ^= low;
        Some(self.index.values[self.base + (self.mask & (low - 1)).count_ones() as usize])
    }
}

//! [`LegalIndex`]: where one role's `legal` atoms live in a view's bits, read a word at a time.
//!
//! A board game has hundreds of potential moves per role and a handful legal in any state; every
//! state's move count and move list are asked for, so they are read as masked words (a population
//! count, then the set bits) instead of one bit test per potential move.

/// One role's `legal` atoms, grouped by the word of the view's bits holding them.
#[derive(Clone, Debug, Default)]
pub(crate) struct LegalIndex {
    /// (word, mask of the `legal` bits in it), by increasing word.
    words: Vec<(u32, u64)>,
    /// The move of each `legal` bit, in bit order (the bits of `words[0]`'s mask first).
    moves: Vec<u32>,
    /// Whether `moves` increases: the set bits then list the legal moves in id order. Otherwise
    /// they are sorted after being read.
    in_order: bool,
}

impl LegalIndex {
    /// The index of the (bit, move) pairs of one role's `legal` atoms.
    pub(crate) fn new(legal: &[(u32, u32)]) -> LegalIndex {
        let mut by_bit = legal.to_vec();
        by_bit.sort_unstable();
        let mut index = LegalIndex {
            in_order: by_bit.windows(2).all(|w| w[0].1 < w[1].1),
            ..LegalIndex::default()
        };
        for &(bit, m) in &by_bit {
            let w = bit / 64;
            match index.words.last_mut() {
                Some(last) if last.0 == w => last.1 |= 1 << (bit % 64),
                _ => index.words.push((w, 1 << (bit % 64))),
            }
            index.moves.push(m);
        }
        index
    }

    /// Whether the set bits list the legal moves in id order.
    #[inline]
    pub(crate) fn in_order(&self) -> bool {
        self.in_order
    }

    /// The number of legal moves and the first in id order (`u32::MAX` if there is none).
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

    /// The legal moves, in bit order.
    #[inline]
    pub(crate) fn iter<'a>(&'a self, bits: &'a [u64]) -> LegalMoves<'a> {
        LegalMoves {
            index: self,
            bits,
            word: 0,
            set: 0,
            mask: 0,
            base: 0,
        }
    }
}

/// The legal moves of one role in a view, in bit order ([`LegalIndex::iter`]).
pub(crate) struct LegalMoves<'a> {
    index: &'a LegalIndex,
    bits: &'a [u64],
    /// The next entry of `index.words` to read.
    word: usize,
    /// The legal bits of the current word not yet returned, its mask, and the position in
    /// `index.moves` of its first bit.
    set: u64,
    mask: u64,
    base: usize,
}

impl Iterator for LegalMoves<'_> {
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
        Some(self.index.moves[self.base + (self.mask & (low - 1)).count_ones() as usize])
    }
}

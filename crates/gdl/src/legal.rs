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
    pub(crate) fn iter<'a>(&'a self, bits: &'a [u64]) -> impl Iterator<Item = u32> + 'a {
        let mut base = 0;
        self.words.iter().flat_map(move |&(w, mask)| {
            let start = base;
            base += mask.count_ones() as usize;
            let mut set = bits[w as usize] & mask;
            std::iter::from_fn(move || {
                let low = set & set.wrapping_neg();
                set ^= low;
                (low != 0).then(|| self.moves[start + (mask & (low - 1)).count_ones() as usize])
            })
        })
    }
}

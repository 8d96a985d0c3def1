//! [`FluentSet`]: a game state as a bitset over fluent ids.

use game_trait::hash::{splitmix64, GOLDEN_GAMMA};
use smallvec::SmallVec;

/// A GDL state: the set of fluents that hold, as a bitset over fluent ids (see
/// [`GdlGame::fluent_name`](crate::GdlGame::fluent_name)).
///
/// Up to 512 fluents live inline, so cloning the state of tic-tac-toe (29 fluents), Othello (130)
/// or checkers (about 400) never allocates; larger states live on the heap, and
/// [`Game::play`](game_trait::Game::play) reuses their buffers. Trailing zero words are never
/// stored, so equal sets compare and hash equal whatever their history.
#[derive(Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FluentSet {
    words: SmallVec<[u64; 8]>,
}

/// Written out so that [`clone_from`](Clone::clone_from) reuses the target's buffer: resetting a
/// large state to a saved one (a search's root, a playout's start) allocates nothing.
impl Clone for FluentSet {
    fn clone(&self) -> FluentSet {
        FluentSet {
            words: self.words.clone(),
        }
    }

    fn clone_from(&mut self, source: &FluentSet) {
        self.words.clone_from(&source.words);
    }
}

impl FluentSet {
    /// The empty set.
    pub fn new() -> FluentSet {
        FluentSet::default()
    }

    /// Whether fluent `id` holds.
    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        self.words
            .get((id / 64) as usize)
            .is_some_and(|w| w >> (id % 64) & 1 == 1)
    }

    /// Adds fluent `id`.
    pub fn insert(&mut self, id: u32) {
        let word = (id / 64) as usize;
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (id % 64);
    }

    /// The ids that hold, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(i as u32 * 64 + b)
            })
        })
    }

    /// How many fluents hold.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no fluent holds.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The raw words (bit `i` of word `w` is fluent `64 w + i`).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Builds a set from raw words, dropping trailing zeros.
    #[cfg(test)]
    pub(crate) fn from_words(words: &[u64]) -> FluentSet {
        let len = words.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        FluentSet {
            words: SmallVec::from_slice(&words[..len]),
        }
    }

    /// The raw words, for writing in place; call [`trim`](FluentSet::trim) afterwards.
    pub(crate) fn words_mut(&mut self) -> &mut SmallVec<[u64; 8]> {
        &mut self.words
    }

    /// Drops trailing zero words (keeping the buffer).
    pub(crate) fn trim(&mut self) {
        let len = self
            .words
            .iter()
            .rposition(|&w| w != 0)
            .map_or(0, |i| i + 1);
        self.words.truncate(len);
    }

    /// A 64-bit hash (each word mixed by SplitMix64 with its position).
    pub fn hash64(&self) -> u64 {
        let mut h = GOLDEN_GAMMA;
        for (i, &w) in self.words.iter().enumerate() {
            h ^= splitmix64(w ^ (i as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
            h = h.rotate_left(23).wrapping_mul(0x94d0_49bb_1331_11eb);
        }
        splitmix64(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_zeros_do_not_matter() {
        let mut a = FluentSet::new();
        a.insert(3);
        a.insert(200);
        let b = FluentSet::from_words(&[8, 0, 0, 1 << 8, 0, 0]);
        assert_eq!(a, b);
        assert_eq!(a.hash64(), b.hash64());
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 200]);
        assert_eq!(a.len(), 2);
    }
}

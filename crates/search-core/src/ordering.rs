//! Move ordering for α/β: the transposition-table move first, then the killer moves of the ply, then
//! the rest by descending [`MoveOrdering::score`](game_trait::MoveOrdering::score) plus the history
//! heuristic.
//!
//! The engine's `AlphaBeta` is not generic over the game, so killers and history remember moves by a
//! 64-bit [`move_key`] (a fixed, machine-independent hash of the move). Two moves with the same key
//! share a killer slot or a history counter: that only changes the order moves are tried in, never a
//! value.
//!
//! - **Killers** (Akl and Newborn, 1977): per ply, the last two moves that caused a cutoff there; a
//!   sibling position often refutes the same way.
//! - **History** (Schaeffer, 1989): per side (the root's side to move or the other, as the game
//!   says who moves, not by the ply's parity) and move key, the sum of `draft²` over the cutoffs the
//!   move caused; halved at every new search so that old knowledge fades.
//! - **Best replies** (the countermove heuristic, Uiterwijk, 1992): per side and previous move, the
//!   move last found best in reply to it anywhere in the tree; and **follow-ons**, per side and the
//!   mover's own move two plies up, the move last found best after it. Kept across searches.

use std::hash::{Hash, Hasher};

use game_trait::hash::FxHasher;
use game_trait::MoveHints;

use crate::MAX_PLY;

/// `log2` of the number of history counters per side.
const HISTORY_BITS: u32 = 12;

/// Counters are halved when one exceeds this, so that sums never overflow.
const HISTORY_CAP: i32 = 1 << 24;

/// `log2` of the number of best-reply (and of follow-on) slots per side.
const REPLY_BITS: u32 = 12;

/// The key of a null move on the path (move keys are odd, 0 is "none").
pub(crate) const NULL_MOVE_KEY: u64 = 2;

/// A fixed, machine-independent 64-bit key of a move (never 0, which marks an empty killer slot).
#[inline]
pub fn move_key<M: Hash>(mv: &M) -> u64 {
    let mut hasher = FxHasher::default();
    mv.hash(&mut hasher);
    // A final avalanche, so that the high bits (used for history indices) depend on every input bit.
    let mut z = hasher.finish();
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z ^= z >> 33;
    z | 1
}

/// Killer moves per ply, history counters per side, best replies and follow-ons, and the keys of
/// the moves on the current path. The tables are allocated by the first search that enables them,
/// so a searcher without them (such as a shallow α/β used as an evaluator, created and run many
/// times) pays nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Heuristics {
    killers: Vec<[u64; 2]>,
    history: Vec<i32>,
    /// Best reply per side and previous move (index [`Heuristics::reply_index`]).
    replies: Vec<u64>,
    /// Best follow-on per side and the mover's own previous move.
    follow_ons: Vec<u64>,
    /// The key of the move played at each ply of the current path.
    path: Vec<u64>,
    /// The key of the previous iteration's best root move (0: none).
    previous_best: u64,
}

impl Heuristics {
    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.killers.fill([0; 2]);
        self.history.fill(0);
        self.replies.fill(0);
        self.follow_ons.fill(0);
        self.previous_best = 0;
    }

    /// Start of a search using the tables enabled here: killers are position-specific and go,
    /// history fades, best replies and follow-ons stay (a reply to a move is rarely specific to
    /// one root).
    pub(crate) fn new_search(&mut self, killers: bool, history: bool, replies: bool) {
        if killers {
            if self.killers.is_empty() {
                self.killers = vec![[0; 2]; MAX_PLY + 1];
            }
            self.killers.fill([0; 2]);
        }
        if history {
            if self.history.is_empty() {
                self.history = vec![0; 2 << HISTORY_BITS];
            }
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
        if replies && self.replies.is_empty() {
            self.replies = vec![0; 2 << REPLY_BITS];
            self.follow_ons = vec![0; 2 << REPLY_BITS];
            self.path = vec![0; MAX_PLY + 1];
        }
        self.previous_best = 0;
    }

    #[inline(always)]
    fn history_index(side: usize, key: u64) -> usize {
        (side << HISTORY_BITS) | (key >> (64 - HISTORY_BITS)) as usize
    }

    #[inline(always)]
    fn reply_index(side: usize, key: u64) -> usize {
        (side << REPLY_BITS) | (key >> (64 - REPLY_BITS)) as usize
    }

    /// 0, 1 for the first and second killer of `ply`, else `None`.
    #[inline]
    pub(crate) fn killer_rank(&self, ply: usize, key: u64) -> Option<usize> {
        self.killers[ply].iter().position(|&k| k == key)
    }

    /// The history counter of a move of `side` (0 for the root's side to move, 1 for the other).
    #[inline]
    pub(crate) fn history(&self, side: usize, key: u64) -> i32 {
        self.history[Self::history_index(side, key)]
    }

    /// Records that the move with `key` is played at `ply` on the current path (needs the reply
    /// tables: `new_search(_, _, true)`).
    #[inline(always)]
    pub(crate) fn enter(&mut self, ply: usize, key: u64) {
        self.path[ply] = key;
    }

    /// Remembers the best root move of the iteration just finished (its key; 0 for none).
    pub(crate) fn set_previous_best(&mut self, key: u64) {
        self.previous_best = key;
    }

    /// Whether the move with `key` at `ply`, played by `side` (0 the root's side to move, 1 the
    /// other), is the best reply to the previous move.
    #[inline]
    pub(crate) fn is_best_reply(&self, ply: usize, side: usize, key: u64) -> bool {
        ply >= 1 && self.replies[Self::reply_index(side, self.path[ply - 1])] == key
    }

    /// The reply tables' hints for the move with `key` at `ply`, played by `side`: best reply,
    /// follow-on, and at the root the previous iteration's best move.
    #[inline]
    pub(crate) fn hints(&self, ply: usize, side: usize, key: u64) -> MoveHints {
        let mut hints = MoveHints::NONE;
        if ply == 0 && key == self.previous_best {
            hints |= MoveHints::PREVIOUS_BEST;
        }
        if self.is_best_reply(ply, side, key) {
            hints |= MoveHints::BEST_REPLY;
        }
        if ply >= 2 && self.follow_ons[Self::reply_index(side, self.path[ply - 2])] == key {
            hints |= MoveHints::FOLLOW_ON;
        }
        hints
    }

    /// Records that the move with `key` was best at `ply`, played by `side` (a cutoff or an exact
    /// best): the best reply to the previous move and the follow-on of the move two plies up.
    #[inline]
    pub(crate) fn record_best(&mut self, ply: usize, side: usize, key: u64) {
        if ply >= 1 {
            self.replies[Self::reply_index(side, self.path[ply - 1])] = key;
        }
        if ply >= 2 {
            self.follow_ons[Self::reply_index(side, self.path[ply - 2])] = key;
        }
    }

    /// Records that the move with `key` caused a cutoff at `ply` with `draft` left.
    #[inline]
    pub(crate) fn record_cutoff(
        &mut self,
        ply: usize,
        side: usize,
        key: u64,
        draft: u32,
        killers: bool,
        history: bool,
    ) {
        if killers {
            let slot = &mut self.killers[ply];
            if slot[0] != key {
                slot[1] = slot[0];
                slot[0] = key;
            }
        }
        if history {
            let d = draft.min(1 << 10) as i32;
            let h = &mut self.history[Self::history_index(side, key)];
            *h += d * d;
            if *h > HISTORY_CAP {
                self.history.iter_mut().for_each(|h| *h /= 2);
            }
        }
    }
}

/// Priority of the transposition-table move, the killers and the best reply, above every hook
/// score.
pub(crate) const TT_MOVE_PRIORITY: i64 = 4 << 40;
/// Priority of the first killer (the second gets one less unit of `1 << 40`).
pub(crate) const KILLER_PRIORITY: i64 = 3 << 40;
/// Priority of the best reply to the previous move (with `countermoves`).
pub(crate) const BEST_REPLY_PRIORITY: i64 = 1 << 40;

/// The smallest packed key of a move the engine put ahead of the ordering hook (the table move,
/// a killer or the best reply, whose priorities are at least `1 << 40`; hook and history scores
/// stay far below).
pub(crate) const PROMOTED_KEY: i64 = (1 << 40) << 16;

/// Packs an ordering priority and a move index into one sortable key: descending keys give
/// descending priorities, and among equal priorities the generation order (lower index first).
#[inline(always)]
pub(crate) fn pack(priority: i64, index: usize) -> i64 {
    (priority << 16) | (0xFFFF - index as i64)
}

/// The move index of a packed key.
#[inline(always)]
pub(crate) fn unpack(key: i64) -> usize {
    0xFFFF - (key & 0xFFFF) as usize
}

/// Sorts packed keys in descending order. Insertion sort: move lists are short and often nearly
/// sorted, and it needs no allocation.
#[inline]
pub(crate) fn sort_descending(keys: &mut [i64]) {
    for i in 1..keys.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_keys_sort_by_priority_then_generation_order() {
        let mut keys = vec![pack(0, 0), pack(5, 1), pack(0, 2), pack(-3, 3), pack(5, 4)];
        sort_descending(&mut keys);
        let order: Vec<usize> = keys.iter().map(|&k| unpack(k)).collect();
        assert_eq!(order, vec![1, 4, 0, 2, 3]);
        let mut top = vec![pack(i32::MAX as i64 * 2, 7), pack(TT_MOVE_PRIORITY, 9)];
        sort_descending(&mut top);
        assert_eq!(unpack(top[0]), 9);
    }

    #[test]
    fn move_keys_are_nonzero_and_distinguish_small_moves() {
        let keys: Vec<u64> = (0u32..64).map(|m| move_key(&m)).collect();
        assert!(keys.iter().all(|&k| k != 0));
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert_eq!(move_key(&7u32), move_key(&7u32));
    }

    #[test]
    fn killers_keep_the_two_latest_distinct_cutoff_moves() {
        let (a, b) = (move_key(&11u32), move_key(&13u32));
        let mut h = Heuristics::default();
        h.new_search(true, true, false);
        h.record_cutoff(3, 0, a, 2, true, true);
        h.record_cutoff(3, 0, a, 2, true, true);
        h.record_cutoff(3, 0, b, 3, true, true);
        assert_eq!(h.killer_rank(3, b), Some(0));
        assert_eq!(h.killer_rank(3, a), Some(1));
        assert_eq!(h.killer_rank(2, a), None);
        assert_eq!(
            (h.history(0, a), h.history(0, b), h.history(1, a)),
            (8, 9, 0)
        );
        h.new_search(true, true, false);
        assert_eq!((h.killer_rank(3, b), h.history(0, a)), (None, 4));
    }

    #[test]
    fn best_replies_and_follow_ons_answer_for_the_path_they_were_recorded_on() {
        let [a, b, c, d] = [1u32, 2, 3, 4].map(|m| move_key(&m));
        let mut h = Heuristics::default();
        h.new_search(false, false, true);
        h.set_previous_best(c);
        assert_eq!(h.hints(0, 0, c), MoveHints::PREVIOUS_BEST);
        h.enter(0, a);
        h.enter(1, b);
        h.record_best(2, 0, c); // c is best after a, b: the reply to b, the follow-on of a
        assert_eq!(
            h.hints(2, 0, c),
            MoveHints::BEST_REPLY | MoveHints::FOLLOW_ON
        );
        assert!(h.hints(2, 0, d).is_empty() && h.hints(1, 1, c).is_empty());
        h.enter(1, d); // another reply to a: c is still a's follow-on, not d's best reply
        assert_eq!(h.hints(2, 0, c), MoveHints::FOLLOW_ON);
        // The other side's tables are separate, wherever it moves.
        h.enter(1, b);
        assert!(h.hints(2, 1, c).is_empty());
        h.enter(2, a);
        h.enter(3, b);
        assert!(!h.hints(3, 1, c).contains(MoveHints::BEST_REPLY));
        h.clear();
        assert!(h.hints(0, 0, c).is_empty());
    }
}

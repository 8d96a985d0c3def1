//! The moves the threads of a parallel search are searching now, for move deferral
//! ([`AlphaBetaConfig::defer_draft`](super::AlphaBetaConfig::defer_draft)).

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the table: a few times the number of nodes all threads have open at a deferral draft
/// at once, so that collisions (which only cost a missed or a needless deferral) stay rare.
const SLOTS: usize = 1 << 15;

/// A lossy, lock-free set of `(node, move)` keys, one per slot, as in Kerrigan's simplified ABDADA.
/// Nothing here affects a value: a wrong answer (a key overwritten by another, or a stale one)
/// only changes the order in which one thread searches one node's moves.
#[derive(Debug)]
pub(crate) struct BusyMoves {
    slots: Box<[AtomicU64]>,
    /// Tests only: when non-zero, a key is "busy" by a hash of it and this salt, whatever the
    /// slots say, so that one thread's search defers moves as a contended one would.
    #[cfg(test)]
    scramble: u64,
}

impl BusyMoves {
    /// An empty set.
    pub(crate) fn new() -> BusyMoves {
        BusyMoves {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
            #[cfg(test)]
            scramble: 0,
        }
    }

    /// A set that calls about half of all keys busy, chosen by `salt` (see `scramble`).
    #[cfg(test)]
    pub(crate) fn scrambled(salt: u64) -> BusyMoves {
        BusyMoves {
            scramble: salt | 1,
            ..BusyMoves::new()
        }
    }

    /// The key of `move_key` at the node `node_hash` (never 0, the empty slot).
    #[inline(always)]
    pub(crate) fn key(node_hash: u64, move_key: u64) -> u64 {
        (node_hash ^ move_key.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The high bits: the low ones of keys of one node's moves are alike.
        &self.slots[(key >> 49) as usize & (SLOTS - 1)]
    }

    /// Whether some thread is searching `key` now.
    #[inline(always)]
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        #[cfg(test)]
        if self.scramble != 0 {
            return (key ^ self.scramble).wrapping_mul(0xff51_afd7_ed55_8ccd) >> 63 == 1;
        }
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline(always)]
    pub(crate) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks `key`, unless another key has taken its slot since.
    #[inline(always)]
    pub(crate) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::BusyMoves;

    #[test]
    fn a_key_is_busy_between_enter_and_leave() {
        let busy = BusyMoves::new();
        let key = BusyMoves::key(0x1234_5678_9abc_def0, 42);
        assert!(!busy.is_busy(key));
        busy.enter(key);
        assert!(busy.is_busy(key));
        busy.leave(key);
        assert!(!busy.is_busy(key));
    }

    #[test]
    fn leaving_does_not_clear_a_key_that_took_the_slot() {
        let busy = BusyMoves::new();
        let a = BusyMoves::key(7, 1);
        // Another key of the same slot: same high bits, different low ones.
        let b = a ^ 2;
        busy.enter(a);
        busy.enter(b);
        busy.leave(a);
        assert!(busy.is_busy(b));
        assert!(!busy.is_busy(a));
    }
}

//! The transposition table: search results by position hash, so that a position reached again (by a
//! transposition, or in the next iteration of iterative deepening) is not searched again, and its
//! best move is tried first.
//!
//! # Layout
//! A power-of-two number of 64-byte buckets (one cache line each) of [`BUCKET_SIZE`] = 4 entries of 16
//! bytes. A position's bucket is chosen by the low bits of its 64-bit hash; the high 32 bits are
//! stored as a verification key, so a probe confuses two positions only if they share all of the
//! index bits and the 32 key bits.
//!
//! A table of 2 MiB or more is aligned to 2 MiB and, on Linux, asked for transparent huge pages
//! before it is first written, so that its random probes do not also miss the processor's page
//! translations (a 16 MiB table spans 8 huge pages or 4,096 small ones).
//!
//! # Entry
//! Value, [`Bound`] (exact, lower, upper: what the value says about the score, as the engine
//! reports it), whether the search that produced it was *closed* (every line it searched ended the
//! game, so the value is the game's own), draft (the horizon's
//! [`draft`](game_trait::HorizonPolicy::draft) of the search that produced it) and
//! [`budget_key`](game_trait::HorizonPolicy::budget_key), best move (its index in the game's
//! generated move list, so the table needs no move type and never allocates), and the search
//! generation that wrote it. The α/β engine takes a stored value as the answer for a node
//! only when both the draft and the budget key equal the node's; otherwise it only tries the stored
//! move first.
//!
//! # Shared between threads, without locks
//! Every slot is two 64-bit words written and read with relaxed atomics, so the table takes
//! `&self` to probe and store and several searching threads can share it (Lazy SMP). The first
//! word holds the entry's head (verification key, move, bound, generation) XOR its second word
//! (value, draft, budget key) — Hyatt and Mann's lockless hashing (*A lockless transposition
//! table implementation for parallel search*, ICGA Journal, 2002): a slot whose two words come
//! from two threads' stores decodes to a key that does not verify, and reads as another
//! position's entry. A reader therefore never takes one position's value for another's (beyond
//! the 32-bit key's collision odds). On x86-64 and AArch64 a relaxed atomic load or store is an
//! ordinary one: a single thread pays nothing for this.
//!
//! # Replacement: depth-preferred plus always-replace
//! Storing a position already in its bucket overwrites that entry (keeping its old move if the new
//! result has none). Otherwise the first three slots are *depth-preferred*: the new result takes the
//! slot holding the least valuable entry (empty, then written by an earlier search, then of the
//! smallest draft) if that entry's draft is not larger than the new one's or it is stale. If every
//! depth-preferred slot holds a deeper entry of the current search, the result goes to the fourth,
//! *always-replace* slot. Deep results (expensive to recompute) thus survive, and recent shallow ones
//! still find a place.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use game_trait::{Bound, Score};

use crate::error::SearchError;

mod buckets;
use buckets::Buckets;

/// Entries per bucket.
pub const BUCKET_SIZE: usize = 4;

/// Slots `0..DEPTH_PREFERRED` of a bucket are depth-preferred, the last one always-replace.
const DEPTH_PREFERRED: usize = BUCKET_SIZE - 1;

/// The move index stored when an entry has no best move.
pub const NO_MOVE: u16 = u16::MAX;

/// The bit of a slot's bound byte that marks a closed search's result.
const CLOSED: u8 = 1 << 3;

/// One stored search result, unpacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// High 32 bits of the position hash.
    key: u32,
    value: Score,
    /// The draft, saturated at `u16::MAX`.
    draft: u16,
    /// The horizon's [`budget_key`](game_trait::HorizonPolicy::budget_key).
    budget: u16,
    /// Index of the best move in the generated move list, or [`NO_MOVE`].
    mv: u16,
    /// 0 for an empty slot, else 1 + the bound (upper, exact, lower, estimate) in the low three
    /// bits, plus [`CLOSED`] for a closed search's result.
    bound: u8,
    generation: u8,
}

impl Slot {
    /// The head word: key, move, bound, generation.
    #[inline(always)]
    fn head(&self) -> u64 {
        (u64::from(self.key) << 32)
            | (u64::from(self.mv) << 16)
            | (u64::from(self.bound) << 8)
            | u64::from(self.generation)
    }

    /// The data word: value, draft, budget key.
    #[inline(always)]
    fn data(&self) -> u64 {
        (u64::from(self.value as u32) << 32)
            | (u64::from(self.draft) << 16)
            | u64::from(self.budget)
    }

    #[inline(always)]
    fn unpack(head: u64, data: u64) -> Slot {
        Slot {
            key: (head >> 32) as u32,
            mv: (head >> 16) as u16,
            bound: (head >> 8) as u8,
            generation: head as u8,
            value: (data >> 32) as u32 as Score,
            draft: (data >> 16) as u16,
            budget: data as u16,
        }
    }
}

/// A slot as stored: `check` = head XOR data (see the module docs), both words relaxed atomics.
#[derive(Debug, Default)]
struct AtomicSlot {
    check: AtomicU64,
    data: AtomicU64,
}

impl AtomicSlot {
    #[inline(always)]
    fn load(&self) -> Slot {
        let data = self.data.load(Relaxed);
        Slot::unpack(self.check.load(Relaxed) ^ data, data)
    }

    /// The slot, if it holds an entry with verification key `key` (decoded only then).
    #[inline(always)]
    fn load_if(&self, key: u32) -> Option<Slot> {
        let data = self.data.load(Relaxed);
        let head = self.check.load(Relaxed) ^ data;
        let holds = (head >> 32) as u32 == key && (head >> 8) as u8 != 0;
        holds.then(|| Slot::unpack(head, data))
    }

    #[inline(always)]
    fn store(&self, slot: &Slot) {
        let data = slot.data();
        self.check.store(slot.head() ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

/// A bucket fills exactly one cache line, so a probe costs one memory access.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([AtomicSlot; BUCKET_SIZE]);

impl Bucket {
    /// Makes this bucket's slots the same as `other`'s.
    fn copy_from(&self, other: &Bucket) {
        for (to, from) in self.0.iter().zip(&other.0) {
            to.store(&from.load());
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The stored value.
    pub value: Score,
    /// What the value says about the position's score at `draft`.
    pub bound: Bound,
    /// The draft of the search that stored it (drafts above `u16::MAX` are stored as `u16::MAX`).
    pub draft: u32,
    /// The horizon's budget key of the search that stored it (0 for depth horizons).
    pub budget: u16,
    /// Index of the best move in the position's generated move list, or [`NO_MOVE`].
    pub mv: u16,
    /// Whether every line of the search that stored it ended the game (no static value of a game
    /// in progress, no move beyond the horizon, nothing pruned): the value and bound are then the
    /// game's own, not only those of `draft`.
    pub closed: bool,
}

/// A fixed-size transposition table. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    buckets: Buckets,
    mask: u64,
    generation: u8,
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (at least one bucket of 64 bytes): the largest power of two
    /// number of buckets that fits.
    ///
    /// # Panics
    /// If the machine cannot provide that much memory; [`try_new`](Self::try_new) returns an error
    /// instead.
    pub fn new(bytes: usize) -> TranspositionTable {
        Self::try_new(bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`new`](Self::new), or [`SearchError::TableAllocation`] if the memory cannot be reserved.
    /// On a system that overcommits memory, reserving may succeed for more than the machine can
    /// back; the table is filled at creation, so memory then runs out here, before any search.
    pub fn try_new(bytes: usize) -> Result<TranspositionTable, SearchError> {
        let size = Self::new_size(bytes);
        let count = size / std::mem::size_of::<Bucket>();
        let buckets = Buckets::zeroed(count).ok_or(SearchError::TableAllocation { bytes: size })?;
        Ok(TranspositionTable {
            buckets,
            mask: count as u64 - 1,
            generation: 0,
        })
    }

    /// The size in bytes of a table asked for `bytes` bytes.
    pub fn new_size(bytes: usize) -> usize {
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        count * std::mem::size_of::<Bucket>()
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Marks the start of a new search: entries written before become stale (still probed, but the
    /// first to be replaced).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        let empty = Slot::default();
        for slot in self.buckets.iter().flat_map(|b| &b.0) {
            slot.store(&empty);
        }
        self.generation = 0;
    }

    #[inline(always)]
    fn split(&self, hash: u64) -> (usize, u32) {
        ((hash & self.mask) as usize, (hash >> 32) as u32)
    }

    /// Asks the processor to bring the bucket of `hash` into its cache ahead of a probe or a
    /// store; no effect on the table's contents, nor on processors without the instruction.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = &self.buckets[self.split(hash).0];
            // SAFETY: SSE is part of x86_64's baseline, and a prefetch reads nothing the
            // program sees (the address is a bucket of the table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The entry stored for the position with this hash, if any.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        let (index, key) = self.split(hash);
        self.buckets[index]
            .0
            .iter()
            .find_map(|cell| cell.load_if(key))
            .map(|s| TtEntry {
                value: s.value,
                bound: decode(s.bound),
                draft: u32::from(s.draft),
                budget: s.budget,
                mv: s.mv,
                closed: s.bound & CLOSED != 0,
            })
    }

    /// Stores a search result for the position with this hash (replacement policy: module docs);
    /// `closed` if every line of the search ended the game. Takes `&self`: threads sharing the
    /// table store without locks (module docs).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        hash: u64,
        value: Score,
        bound: Bound,
        draft: u32,
        budget: u16,
        mv: u16,
        closed: bool,
    ) {
        let (index, key) = self.split(hash);
        let generation = self.generation;
        let cells = &self.buckets[index].0;
        let bucket: [Slot; BUCKET_SIZE] = std::array::from_fn(|i| cells[i].load());
        let draft = u16::try_from(draft).unwrap_or(u16::MAX);
        let mut new = Slot {
            key,
            value,
            draft,
            budget,
            mv,
            bound: encode(bound) | if closed { CLOSED } else { 0 },
            generation,
        };
        if let Some(i) = bucket.iter().position(|s| s.bound != 0 && s.key == key) {
            if mv == NO_MOVE {
                new.mv = bucket[i].mv;
            }
            cells[i].store(&new);
            return;
        }
        // The least valuable depth-preferred slot: empty first, then stale, then shallowest.
        let worth = |s: &Slot| {
            if s.bound == 0 {
                (0, 0)
            } else {
                (1 + (s.generation == generation) as u32, s.draft)
            }
        };
        let victim = (0..DEPTH_PREFERRED)
            .min_by_key(|&i| worth(&bucket[i]))
            .unwrap_or(0);
        let v = &bucket[victim];
        let replaceable = v.bound == 0 || v.generation != generation || v.draft <= draft;
        let target = if replaceable { victim } else { BUCKET_SIZE - 1 };
        cells[target].store(&new);
    }
}

fn encode(bound: Bound) -> u8 {
    match bound {
        Bound::Upper => 1,
        Bound::Exact => 2,
        Bound::Lower => 3,
        Bound::Estimate => 4,
    }
}

fn decode(code: u8) -> Bound {
    match code & !CLOSED {
        1 => Bound::Upper,
        2 => Bound::Exact,
        3 => Bound::Lower,
        _ => Bound::Estimate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(TranspositionTable::new(0).bytes(), 64);
        assert_eq!(TranspositionTable::new(1000).bytes(), 512);
        assert_eq!(TranspositionTable::new(1 << 20).bytes(), 1 << 20);
    }

    #[test]
    fn a_table_larger_than_memory_can_hold_is_an_error_not_an_abort() {
        let err = TranspositionTable::try_new(usize::MAX).unwrap_err();
        assert_eq!(
            err,
            SearchError::TableAllocation {
                bytes: 1 << (usize::BITS - 1)
            }
        );
        assert!(err
            .to_string()
            .contains("cannot allocate a transposition table"));
    }

    #[test]
    fn stores_and_probes_with_verification() {
        let mut tt = TranspositionTable::new(1 << 12);
        let h = 0xdead_beef_0000_0005;
        tt.store(h, -7, Bound::Lower, 3, 9, 2, true);
        assert_eq!(
            tt.probe(h),
            Some(TtEntry {
                value: -7,
                bound: Bound::Lower,
                draft: 3,
                budget: 9,
                mv: 2,
                closed: true,
            })
        );
        // Same bucket, different verification key.
        assert_eq!(tt.probe(0x1234_0000_0000_0005), None);
        // Overwriting without a move keeps the old move.
        tt.store(h, 4, Bound::Upper, 5, 0, NO_MOVE, false);
        assert_eq!(
            tt.probe(h).map(|e| (e.value, e.bound, e.mv, e.closed)),
            Some((4, Bound::Upper, 2, false))
        );
        // Every bound keeps its closedness.
        for bound in [Bound::Upper, Bound::Exact, Bound::Lower, Bound::Estimate] {
            for closed in [false, true] {
                tt.store(h, 1, bound, 1, 0, 0, closed);
                assert_eq!(
                    tt.probe(h).map(|e| (e.bound, e.closed)),
                    Some((bound, closed))
                );
            }
        }
        tt.clear();
        assert_eq!(tt.probe(h), None);
    }

    #[test]
    fn deep_entries_survive_and_shallow_ones_use_the_always_replace_slot() {
        let mut tt = TranspositionTable::new(64); // a single bucket
        let key = |k: u64| (k << 32) | 1;
        for k in 1..=3 {
            tt.store(key(k), 0, Bound::Exact, 10, 0, NO_MOVE, false);
        }
        tt.store(key(4), 1, Bound::Exact, 1, 0, NO_MOVE, false);
        tt.store(key(5), 2, Bound::Exact, 2, 0, NO_MOVE, false);
        for k in 1..=3 {
            assert!(tt.probe(key(k)).is_some(), "deep entry {k} was replaced");
        }
        assert_eq!(tt.probe(key(4)), None);
        assert_eq!(tt.probe(key(5)).map(|e| e.value), Some(2));
        // A deeper result replaces the shallowest depth-preferred entry.
        tt.store(key(6), 3, Bound::Exact, 11, 0, NO_MOVE, false);
        assert_eq!(tt.probe(key(6)).map(|e| e.value), Some(3));
        // In a new search, stale entries go first even when deep.
        tt.new_search();
        tt.store(key(7), 4, Bound::Exact, 1, 0, NO_MOVE, false);
        assert_eq!(tt.probe(key(7)).map(|e| e.value), Some(4));
    }

    /// Four threads store and probe one small table at once, each entry's value, draft, budget key
    /// and move derived from its hash: a probe that finds an entry finds that hash's own fields,
    /// never a mix of two stores (torn slots fail verification).
    #[test]
    fn threads_sharing_the_table_never_read_a_torn_entry() {
        let tt = TranspositionTable::new(1 << 10); // 16 buckets: constant contention
        let fields = |h: u64| {
            let m = crate::ordering::move_key(&h);
            (
                (m >> 40) as i32 - (1 << 23),
                (m >> 8) as u16 % 60_000,
                (m >> 24) as u16,
                (m >> 48) as u16 % 1000,
            )
        };
        let (hits, torn) = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4u64)
                .map(|t| {
                    let tt = &tt;
                    scope.spawn(move || {
                        let (mut hits, mut torn) = (0u64, 0u64);
                        let mut z = t.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                        for _ in 0..200_000 {
                            z = game_trait::mix64(z);
                            let h = (z % 64) * 0x0101_0101_0000_0000 + (z >> 60); // 64 keys in 16 buckets
                            let (value, draft, budget, mv) = fields(h);
                            if (z >> 40) & 1 == 0 {
                                tt.store(
                                    h,
                                    value,
                                    Bound::Exact,
                                    u32::from(draft),
                                    budget,
                                    mv,
                                    false,
                                );
                            } else if let Some(e) = tt.probe(h) {
                                hits += 1;
                                let found = (e.value, e.draft as u16, e.budget, e.mv);
                                torn += u64::from(found != (value, draft, budget, mv));
                            }
                        }
                        (hits, torn)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap())
                .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        });
        assert!(hits > 10_000, "too few hits to mean anything: {hits}");
        assert_eq!(torn, 0, "{torn} of {hits} probes read a mixed entry");
    }
}

//! The cache of completely explored states (Koriche et al., Section 4.4): a state is in it once
//! every state below it that the samples can reach has been reached, with its exact value.

use std::collections::HashMap;

use game_trait::hash::{key_of, BuildPrehashed};

/// Marks "no horizon" in a key.
pub(crate) const UNBOUNDED: u32 = u32::MAX;

/// The exact value of completely explored states, keyed by a 64-bit hash of the state's values and
/// the rounds left to the horizon ([`UNBOUNDED`] without one): the value of a state depends on
/// both.
///
/// The exact value is the expectation of what a sample from the state scores: uniform over each
/// player's legal moves, chance by its probabilities, terminal states by their payoffs and states
/// at the horizon 0. It is what the arms' means estimate, so a completely explored arm's mean can
/// be replaced by it.
///
/// Every sample probes the cache at each round it plays, so the key is a 64-bit hash, as in a
/// transposition table, rather than the values themselves (comparing those cost a pointer chase
/// per probe and made the cache the larger part of a sample's time). Two states colliding in 64
/// bits among a million has a probability below 10⁻⁷.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    values: HashMap<u64, Box<[f64]>, BuildPrehashed>,
    /// The most bytes the entries may take, and what they take.
    capacity: usize,
    bytes: usize,
}

/// What an entry of `players` values takes: the key, the boxed slice and its allocation, and the
/// map's control byte and spare room (about an eighth), rounded up.
fn entry_bytes(players: usize) -> usize {
    8 + 16 + 8 * players + 16 + 8
}

/// The key of a state: its values and the rounds left to the horizon, mixed into 64 bits.
pub(crate) fn key(values: &[u32], rounds_left: u32) -> u64 {
    key_of(values.iter().copied().chain([rounds_left]))
}

impl Cache {
    /// An empty cache that may take up to `bytes`.
    pub(crate) fn new(bytes: usize) -> Cache {
        Cache {
            values: HashMap::default(),
            capacity: bytes,
            bytes: 0,
        }
    }

    pub(crate) fn get(&self, key: u64) -> Option<&[f64]> {
        self.values.get(&key).map(|v| &**v)
    }

    /// Records a completely explored state; once the cache is full, new states are not recorded
    /// (their subtrees are then never complete, which costs pruning, never correctness).
    pub(crate) fn insert(&mut self, key: u64, value: &[f64]) {
        let bytes = entry_bytes(value.len());
        if self.bytes + bytes <= self.capacity && self.values.insert(key, value.into()).is_none() {
            self.bytes += bytes;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn clear(&mut self) {
        self.values.clear();
        self.bytes = 0;
    }
}

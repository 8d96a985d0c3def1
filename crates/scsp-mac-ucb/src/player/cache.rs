//! The cache of completely explored states (Koriche et al., Section 4.4): a state is in it once
//! every state below it that the samples can reach has been reached, with its exact value.

use std::collections::HashMap;

/// Marks "no horizon" in a key's last place.
pub(crate) const UNBOUNDED: u32 = u32::MAX;

/// The exact value of completely explored states, keyed by the state's values followed by the
/// rounds left to the horizon ([`UNBOUNDED`] without one): the value of a state depends on both.
///
/// The exact value is the expectation of what a sample from the state scores: uniform over each
/// player's legal moves, chance by its probabilities, terminal states by their payoffs and states
/// at the horizon 0. It is what the arms' means estimate, so a completely explored arm's mean can
/// be replaced by it.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    values: HashMap<Box<[u32]>, Box<[f64]>>,
    capacity: usize,
}

impl Cache {
    pub(crate) fn new(capacity: usize) -> Cache {
        Cache {
            values: HashMap::new(),
            capacity,
        }
    }

    pub(crate) fn get(&self, key: &[u32]) -> Option<&[f64]> {
        self.values.get(key).map(|v| &**v)
    }

    /// Records a completely explored state; once the cache is full, new states are not recorded
    /// (their subtrees are then never complete, which costs pruning, never correctness).
    pub(crate) fn insert(&mut self, key: &[u32], value: &[f64]) {
        if self.values.len() < self.capacity {
            self.values.insert(key.into(), value.into());
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn clear(&mut self) {
        self.values.clear();
    }
}

//! [`SimilarCounts`]: how many moves of each similarity class were already searched at one node,
//! kept in a fixed array so that a fresh tally per node never allocates.

/// Distinct similarity keys tracked per node. Othello's square classes need 6 and Shogi's piece
/// types 14; a seventeenth distinct key at one node is simply not penalised.
pub const SIMILAR_KEYS: usize = 16;

/// Counts of searched moves per similarity key at one node (the Shogi enhancement's state).
#[derive(Clone, Copy, Debug, Default)]
pub struct SimilarCounts {
    keys: [u32; SIMILAR_KEYS],
    counts: [u16; SIMILAR_KEYS],
    len: u8,
}

impl SimilarCounts {
    /// How many moves with `key` were already searched here.
    #[inline]
    pub fn count(&self, key: u32) -> u32 {
        self.slot(key).map_or(0, |i| u32::from(self.counts[i]))
    }

    /// Records one more searched move with `key` (ignored once [`SIMILAR_KEYS`] distinct keys are
    /// tracked).
    #[inline]
    pub fn record(&mut self, key: u32) {
        match self.slot(key) {
            Some(i) => self.counts[i] = self.counts[i].saturating_add(1),
            None if usize::from(self.len) < SIMILAR_KEYS => {
                let i = usize::from(self.len);
                self.keys[i] = key;
                self.counts[i] = 1;
                self.len += 1;
            }
            None => {}
        }
    }

    #[inline]
    fn slot(&self, key: u32) -> Option<usize> {
        self.keys[..usize::from(self.len)]
            .iter()
            .position(|&k| k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_key_and_stops_tracking_when_full() {
        let mut c = SimilarCounts::default();
        assert_eq!(c.count(3), 0);
        c.record(3);
        c.record(3);
        c.record(9);
        assert_eq!((c.count(3), c.count(9), c.count(4)), (2, 1, 0));
        for k in 100..100 + SIMILAR_KEYS as u32 {
            c.record(k);
        }
        assert_eq!(c.count(100 + SIMILAR_KEYS as u32 - 1), 0);
        assert_eq!(c.count(100), 1);
    }
}

//! Maps keyed by 64-bit hashes that are already well mixed ([`game_trait::mix64`]): hashing them
//! again, as the standard library's SipHash would, costs time and buys nothing.

use std::hash::{BuildHasherDefault, Hasher};

use game_trait::mix64;

/// The hasher of maps whose keys are already mixed 64-bit hashes: a key is its own hash.
#[derive(Debug, Default)]
pub(crate) struct Prehashed(u64);

/// Builds [`Prehashed`] hashers.
pub(crate) type BuildPrehashed = BuildHasherDefault<Prehashed>;

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Keys other than `u64` are mixed byte by byte (never used on the hot paths).
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Values mixed into a 64-bit key: equal values, equal key; different values collide with a
/// probability of about 2⁻⁶⁴. How the players key states, and the hand-written games' keys.
pub(crate) fn key_of(values: impl IntoIterator<Item = u32>) -> u64 {
    values.into_iter().fold(0x9E37_79B9_7F4A_7C15, |h, v| {
        mix64(h ^ u64::from(v)).wrapping_add(0x9E37_79B9_7F4A_7C15)
    })
}

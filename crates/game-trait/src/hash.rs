//! Hashing: the one 64-bit mixing function of the workspace ([`mix64`]), SplitMix64's step
//! ([`splitmix64`]) for seed derivation, and the hashers of hash tables whose keys are small
//! integers ([`FxHasher`], [`FastHasher`]) or already-mixed 64-bit keys ([`Prehashed`]).
//!
//! None of these resist flooding: their keys come from games and searches, never from an
//! adversary, and the standard library's SipHash costs more than the lookups they serve. All are
//! fixed functions, the same on every machine and in every run, so that seeded searches,
//! experiments and the iteration order of the tables built with them are reproducible.
//!
//! ```
//! use game_trait::hash::{key_of, splitmix64, FastMap, PrehashedMap};
//!
//! // Independent seeds from one master seed.
//! let seeds: Vec<u64> = (0..3).map(|i| splitmix64(42 ^ i)).collect();
//! assert_ne!(seeds[0], seeds[1]);
//!
//! // A table keyed by small integers, and one keyed by already-mixed keys.
//! let mut by_id: FastMap<u32, &str> = FastMap::default();
//! by_id.insert(7, "seven");
//! let mut by_key: PrehashedMap<u64, u32> = PrehashedMap::default();
//! by_key.insert(key_of([1, 2, 3]), 6);
//! assert_eq!(by_key[&key_of([1, 2, 3])], 6);
//! ```

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// SplitMix64's increment, ⌊2⁶⁴/φ⌋ (φ the golden ratio): consecutive integers times it land far
/// apart.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser (Stafford's Mix13, as in Steele, Lea and Flood, *Fast splittable
/// pseudorandom number generators*, 2014): a bijection on `u64` whose every output bit depends on
/// every input bit, so that nearby inputs (node ids, sibling indices, seeds `1, 2, 3`) give
/// unrelated outputs. Games use it to hash small states; experiments to derive independent seeds.
///
/// ```
/// use game_trait::mix64;
/// assert_ne!(mix64(1) & 0xffff, mix64(2) & 0xffff);
/// assert_eq!(mix64(0), 0); // a bijection that fixes 0: add a constant first if 0 is common
/// ```
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of SplitMix64 from state `z`: [`mix64`] of `z +` [`GOLDEN_GAMMA`]. Unlike [`mix64`] it
/// does not fix 0; a stream is `splitmix64(seed)`, `splitmix64(seed + GOLDEN_GAMMA)`, ….
///
/// ```
/// use game_trait::hash::{splitmix64, GOLDEN_GAMMA};
/// assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF); // SplitMix64's first output from seed 0
/// assert_eq!(splitmix64(0), game_trait::mix64(GOLDEN_GAMMA));
/// ```
#[inline(always)]
pub const fn splitmix64(z: u64) -> u64 {
    mix64(z.wrapping_add(GOLDEN_GAMMA))
}

/// Values folded into one 64-bit key through [`mix64`]: equal sequences, equal keys; different
/// ones collide with a probability of about 2⁻⁶⁴. Keys for a [`PrehashedMap`].
///
/// ```
/// use game_trait::hash::key_of;
/// assert_eq!(key_of([1, 2]), key_of([1, 2]));
/// assert_ne!(key_of([1, 2]), key_of([2, 1]));
/// ```
pub fn key_of(values: impl IntoIterator<Item = u32>) -> u64 {
    values.into_iter().fold(GOLDEN_GAMMA, |h, v| {
        mix64(h ^ u64::from(v)).wrapping_add(GOLDEN_GAMMA)
    })
}

/// The multiplier of rustc's FxHash (64-bit).
const FX_SEED: u64 = 0x517C_C1B7_2722_0A95;

/// The rotate-multiply hasher of rustc and Firefox (FxHash): one rotation, one xor and one
/// multiplication a word, fast on the small integers that moves, node ids and term ids are made
/// of. Integers are hashed as one word each; byte strings in little-endian words of 8 bytes (the
/// last one padded with zeros). [`finish`](Hasher::finish) returns the state as it is, whose low
/// bits are weak: [`FastHasher`] mixes it first.
#[derive(Clone, Copy, Debug, Default)]
pub struct FxHasher(u64);

impl FxHasher {
    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// [`FxHasher`] finished by [`splitmix64`], so that every bit of the hash (the low ones a table
/// picks its bucket with) depends on every bit of the key: for keys such as multiples of a power
/// of two, on which the plain FxHash clusters.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher(FxHasher);

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.0.write_u8(n);
    }
    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.0.write_u16(n);
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.0.write_u32(n);
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0.write_u64(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.0.write_usize(n);
    }
    #[inline]
    fn finish(&self) -> u64 {
        splitmix64(self.0.finish())
    }
}

/// The hasher of tables whose keys are already well-mixed 64-bit hashes (from [`key_of`],
/// [`mix64`] or a game's own hash): a `u64` key is its own hash, since hashing it again costs time
/// and buys nothing. Other keys are mixed byte by byte (slower; meant for no hot path).
#[derive(Clone, Copy, Debug, Default)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix64(self.0 ^ u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Builds [`FxHasher`]s.
pub type BuildFxHasher = BuildHasherDefault<FxHasher>;
/// Builds [`FastHasher`]s.
pub type BuildFastHasher = BuildHasherDefault<FastHasher>;
/// Builds [`Prehashed`] hashers.
pub type BuildPrehashed = BuildHasherDefault<Prehashed>;

/// A `HashMap` with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, BuildFxHasher>;
/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildFastHasher>;
/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildFastHasher>;
/// A `HashMap` keyed by already-mixed 64-bit keys ([`Prehashed`]).
pub type PrehashedMap<K, V> = HashMap<K, V, BuildPrehashed>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn fx<T: Hash>(value: T) -> u64 {
        BuildFxHasher::default().hash_one(value)
    }

    #[test]
    fn integers_of_every_width_hash_as_one_word() {
        let word = (0u64.rotate_left(5) ^ 200).wrapping_mul(FX_SEED);
        assert_eq!(fx(200u8), word);
        assert_eq!(fx(200u16), word);
        assert_eq!(fx(200u32), word);
        assert_eq!(fx(200u64), word);
        assert_eq!(fx(200usize), word);
        assert_eq!(fx([200u8].as_slice()), fx((1usize, 200u8)));
    }

    #[test]
    fn byte_strings_hash_as_padded_words() {
        let mut h = FxHasher::default();
        h.write(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut w = FxHasher::default();
        w.write_u64(u64::from_le_bytes([1, 2, 3, 4, 5, 6, 7, 8]));
        w.write_u64(9);
        assert_eq!(h.finish(), w.finish());
    }

    #[test]
    fn fast_is_fx_then_splitmix() {
        let key = (3u32, 99u64);
        assert_eq!(
            BuildFastHasher::default().hash_one(key),
            splitmix64(fx(key))
        );
    }

    #[test]
    fn prehashed_keys_are_their_own_hash() {
        assert_eq!(
            BuildPrehashed::default().hash_one(0xDEAD_BEEF_u64),
            0xDEAD_BEEF
        );
    }

    #[test]
    fn key_of_is_a_fixed_function() {
        // Pinned: players key their caches with it, and seeded outputs depend on table orders.
        let mut h = GOLDEN_GAMMA;
        for v in [4u32, 5] {
            h = mix64(h ^ u64::from(v)).wrapping_add(GOLDEN_GAMMA);
        }
        assert_eq!(key_of([4, 5]), h);
    }
}

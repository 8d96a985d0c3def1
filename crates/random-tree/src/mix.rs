//! The hashing that turns a parent's key into its children's keys, costs and branching factors.
//!
//! Every random quantity of a tree is a pure function of the tree seed and the node's path, so any node
//! can be regenerated on demand: nothing is stored, and the visiting order cannot change the tree.

/// SplitMix64's increment (⌊2^64/φ⌋): consecutive child indices land far apart before mixing.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Separates the stream that draws branching factors from the one that draws edge costs, so the two
/// are independent even though both start from the node's key.
const BRANCHING_STREAM: u64 = 0xD1B5_4A32_D192_ED03;

/// SplitMix64's finaliser ([`mix64`]): nearby inputs (sibling indices) give unrelated outputs.
pub(crate) use game_trait::mix64 as mix;

/// The key of a tree's root, from the tree seed.
#[inline(always)]
pub(crate) fn root_key(seed: u64) -> u64 {
    mix(seed ^ 0x6A09_E667_F3BC_C908)
}

/// The key of child `index` of the node with key `parent`.
#[inline(always)]
pub(crate) fn child_key(parent: u64, index: u32) -> u64 {
    mix(parent.wrapping_add((u64::from(index) + 1).wrapping_mul(GOLDEN)))
}

/// The random word a node's branching factor is drawn from.
#[inline(always)]
pub(crate) fn branching_word(key: u64) -> u64 {
    mix(key ^ BRANCHING_STREAM)
}

/// A uniform draw from `0..span` (`span ≥ 1`) without modulo bias: Lemire's multiply-shift, rejecting
/// the `2^64 mod span` low products that would favour small results. A rejected word is re-mixed, so
/// the draw stays a pure function of `word`. For power-of-two spans (the paper's 2^16 costs) nothing
/// is ever rejected.
#[inline(always)]
pub(crate) fn below(mut word: u64, span: u64) -> u64 {
    debug_assert!(span > 0);
    loop {
        let product = u128::from(word) * u128::from(span);
        let low = product as u64;
        // `span.wrapping_neg() % span` is 2^64 mod span: the size of the biased zone.
        if low >= span || low >= span.wrapping_neg() % span {
            return (product >> 64) as u64;
        }
        word = mix(word.wrapping_add(GOLDEN));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut seen = [0u32; 7];
        for i in 0..7_000u64 {
            let x = below(mix(i), 7);
            seen[x as usize] += 1;
        }
        // Each of the 7 values is expected 1000 times; 5 standard deviations is ±150.
        assert!(seen.iter().all(|&n| (850..=1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn below_rejects_the_biased_zone() {
        // span = 3·2^62: 2^64 mod span = 2^62, so words whose low product is < 2^62 are re-drawn. A
        // word of 0 has product 0, which must be rejected (re-mixed) rather than mapped to 0 blindly.
        let span = 3u64 << 62;
        let draw = below(0, span);
        assert!(draw < span);
        assert_eq!(draw, below(0, span), "a pure function of the word");
    }

    #[test]
    fn child_keys_differ_from_each_other_and_from_the_parent() {
        let parent = root_key(1);
        let keys: Vec<u64> = (0..100).map(|i| child_key(parent, i)).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len());
        assert!(!keys.contains(&parent));
    }
}

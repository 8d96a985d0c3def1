//! [`mix64`]: the one 64-bit mixing function of the workspace, for hashes and seed derivation.

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

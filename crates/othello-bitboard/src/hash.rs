//! The 64-bit hash of a position for transposition tables.
//!
//! Not Zobrist: a Zobrist key must be updated for every flipped disc (up to 18 per move), which costs
//! more than hashing the two bitboards from scratch, and a transposition table only asks for the hash
//! at the nodes it probes. Instead the two bitboards and the side to move go through MurmurHash3's
//! 64-bit finaliser `fmix64`, a bijection with full avalanche:
//!
//! `hash = fmix64(fmix64(player + SALT[side]) ^ opponent)`
//!
//! For a fixed `player` the map from `opponent` to the hash is a bijection (and vice versa), so two
//! positions that differ on one side only never collide; other pairs collide with probability about
//! 2⁻⁶⁴. Four multiplications, no memory access.

/// Adds the side to move, so that the same discs with the other colour to move (a different state of
/// the game, whose per-player payoffs differ) get an unrelated hash.
const SALT: [u64; 2] = [0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03];

/// MurmurHash3's 64-bit finaliser: a bijection on `u64` in which every input bit affects every output
/// bit with probability close to ½.
#[inline(always)]
pub const fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    k ^= k >> 33;
    k = k.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    k ^= k >> 33;
    k
}

/// The hash of the discs of the player to move and of the opponent, with `side` (0 black, 1 white) to
/// move. See the module docs.
#[inline]
pub const fn hash(player: u64, opponent: u64, side: usize) -> u64 {
    fmix64(fmix64(player.wrapping_add(SALT[side & 1])) ^ opponent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn one_flipped_input_bit_changes_about_half_the_output_bits() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let (mut changed, mut trials) = (0u64, 0u64);
        for _ in 0..2000 {
            let (p, o): (u64, u64) = (rng.gen(), rng.gen());
            let base = hash(p, o, 0);
            for bit in 0..64 {
                changed += (base ^ hash(p ^ 1 << bit, o, 0)).count_ones() as u64;
                changed += (base ^ hash(p, o ^ 1 << bit, 0)).count_ones() as u64;
                trials += 2;
            }
            changed += (base ^ hash(p, o, 1)).count_ones() as u64;
            trials += 1;
        }
        let mean = changed as f64 / trials as f64;
        assert!((31.5..32.5).contains(&mean), "mean {mean}");
    }

    #[test]
    fn the_side_to_move_is_part_of_the_hash() {
        assert_ne!(hash(1, 2, 0), hash(1, 2, 1));
        assert_ne!(hash(1, 2, 0), hash(2, 1, 0));
    }
}

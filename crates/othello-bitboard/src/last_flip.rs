//! Counting the discs a move on the **last empty square** flips, without computing them.
//!
//! With one empty square left every other square holds a disc, so a line through it is fully
//! described by the mover's discs on it: every other square of the line is the opponent's. The
//! number of discs flipped along one line is then a function of the square's position on the line
//! and an 8-bit pattern of the mover's discs, tabulated once ([`COUNT`], 2 KiB). The four lines
//! through the square (rank, file, both diagonals) are gathered into 8-bit patterns with one shift
//! or one multiplication each ("kindergarten" bitboards: a multiplication whose partial products
//! never overlap moves a line's bits into the top byte). Four table loads replace the eight-ray
//! flip computation of [`flips`](crate::board::flips) (Edax counts the last flips by tables too,
//! `count_last_flip`).
//!
//! A diagonal shorter than 8 squares leaves the pattern's bits off the board at 0, which reads as
//! "opponent": a run of opponent discs that reaches them never meets a mover's disc, so it flips
//! nothing, exactly as a run that reaches the edge of the board.

use crate::board::FILE_A;

/// `COUNT[k][pattern]`: discs flipped along one line by a move at position `k` (0..8), given the
/// mover's discs on the line as `pattern` (bit `i` = position `i`), every other square of the line
/// being the opponent's.
static COUNT: [[u8; 256]; 8] = build_count();

/// The two diagonals through each square: `[down-right, down-left]` (`a1`–`h8` and `h1`–`a8`
/// directions), as square masks.
static DIAGONALS: [[u64; 2]; 64] = build_diagonals();

/// Multiplying a file's bits (one per rank, at bit 0 of each byte) by this moves rank `r`'s bit to
/// bit `56 + r`: the partial products `8r + 7j + 7` never collide, so there are no carries.
const FILE_TO_TOP_BYTE: u64 = 0x0102_0408_1020_4080;

/// How many discs `player` flips by playing on `sq`, where `sq` is the only empty square of the
/// board and every square that is not `player`'s is the opponent's. Equals
/// `flips(player, !player & !(1 << sq), sq).count_ones()`; 0 when the move is illegal.
#[inline(always)]
pub fn count_last_flips(player: u64, sq: u8) -> u32 {
    let (rank, file) = ((sq >> 3) as u32, (sq & 7) as usize);
    let [down_right, down_left] = DIAGONALS[sq as usize];
    let row = (player >> (8 * rank)) as u8;
    let column = ((((player >> file) & FILE_A).wrapping_mul(FILE_TO_TOP_BYTE)) >> 56) as u8;
    // Each diagonal square sits in a different file: summing the bytes packs them by file.
    let diagonal = ((player & down_right).wrapping_mul(FILE_A) >> 56) as u8;
    let anti_diagonal = ((player & down_left).wrapping_mul(FILE_A) >> 56) as u8;
    let by_file = &COUNT[file];
    (by_file[row as usize]
        + COUNT[rank as usize][column as usize]
        + by_file[diagonal as usize]
        + by_file[anti_diagonal as usize]) as u32
}

/// Builds [`COUNT`]: for each direction, the run of opponent squares from `k`, counted only when a
/// mover's disc closes it.
const fn build_count() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            table[k][pattern] = run(pattern, k as i32, 1) + run(pattern, k as i32, -1);
            pattern += 1;
        }
        k += 1;
    }
    table
}

/// Opponent squares from `k` (exclusive) in direction `step`, if a mover's disc in `pattern`
/// closes them before the end of the byte; else 0.
const fn run(pattern: usize, k: i32, step: i32) -> u8 {
    let mut i = k + step;
    let mut length = 0;
    while i >= 0 && i < 8 {
        if pattern & (1 << i) != 0 {
            return length;
        }
        length += 1;
        i += step;
    }
    0
}

/// Builds [`DIAGONALS`].
const fn build_diagonals() -> [[u64; 2]; 64] {
    let mut table = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq as i32 / 8, sq as i32 % 8);
        let mut other = 0usize;
        while other < 64 {
            let (r, f) = (other as i32 / 8, other as i32 % 8);
            if r - f == rank - file {
                table[sq][0] |= 1u64 << other;
            }
            if r + f == rank + file {
                table[sq][1] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::flips;
    use game_trait::hash::splitmix64;
    use quickcheck::{QuickCheck, TestResult};

    #[test]
    fn counts_agree_with_the_flip_generator_on_every_last_square() {
        fn prop(seed: u64, sq: u8) -> TestResult {
            let sq = sq % 64;
            let player = splitmix64(seed) & !(1 << sq);
            let opponent = !player & !(1 << sq);
            let expected = flips(player, opponent, sq).count_ones();
            TestResult::from_bool(count_last_flips(player, sq) == expected)
        }
        QuickCheck::new()
            .tests(20_000)
            .quickcheck(prop as fn(u64, u8) -> TestResult);
    }

    #[test]
    fn edge_cases_of_the_lines() {
        // Every square, with the mover owning nothing, everything, or alternating squares.
        for sq in 0..64u8 {
            let bit = 1u64 << sq;
            for player in [
                0,
                !bit,
                0x5555_5555_5555_5555 & !bit,
                0xAAAA_AAAA_AAAA_AAAA & !bit,
            ] {
                let opponent = !player & !bit;
                assert_eq!(
                    count_last_flips(player, sq),
                    flips(player, opponent, sq).count_ones(),
                    "square {sq}, player {player:#x}"
                );
            }
        }
    }

    #[test]
    fn the_top_left_corner_of_a_board_of_opponent_discs_closed_by_one_disc() {
        // a1 empty, the mover owns h8 only: the whole a1-h8 diagonal (6 discs) flips.
        assert_eq!(count_last_flips(1 << 63, 0), 6);
    }
}

//! [`Board`]: two bitboards (the player to move's discs, the opponent's), and the branch-free move
//! generator and disc flipper every other module builds on.
//!
//! Bit `i` is square `i`: `a1` = 0 (top left), `h1` = 7, `a2` = 8, `h8` = 63. A shift by 1 moves a disc
//! one file right (towards `h`), by 8 one rank down (towards rank 8), by 7 and 9 along the diagonals.

use crate::square::Square;

/// File `a` (left edge).
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// File `h` (right edge).
pub const FILE_H: u64 = FILE_A << 7;
/// Rank `1` (top edge).
pub const RANK_1: u64 = 0xFF;
/// Rank `8` (bottom edge).
pub const RANK_8: u64 = RANK_1 << 56;
/// The four corners `a1`, `h1`, `a8`, `h8`.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Opponent discs that may be flipped along a horizontal line: not on files `a`/`h` (a line of
/// flipped discs is always closed by a square on each side). Masking the edges also stops the shifts
/// from wrapping from one rank into the next.
const INNER_H: u64 = !(FILE_A | FILE_H);
/// Same for vertical lines: not on ranks `1`/`8`.
const INNER_V: u64 = !(RANK_1 | RANK_8);
/// Same for diagonals: not on any edge.
const INNER_D: u64 = INNER_H & INNER_V;

/// A position as two disjoint bitboards: the discs of the player to move and of the opponent. Colour
/// and history are not part of it (see [`Position`](crate::Position)); the rules of Othello are
/// colour-symmetric, so a board is all the exact solver needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    player: u64,
    opponent: u64,
}

impl Board {
    /// The standard start position with black (who moves first) as the player: black on `e4`, `d5`,
    /// white on `d4`, `e5`.
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// A board from the player to move's and the opponent's discs, or `None` if they overlap.
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Option<Board> {
        if player & opponent == 0 {
            Some(Board { player, opponent })
        } else {
            None
        }
    }

    /// The discs of the player to move.
    #[inline(always)]
    pub const fn player(self) -> u64 {
        self.player
    }

    /// The discs of the opponent.
    #[inline(always)]
    pub const fn opponent(self) -> u64 {
        self.opponent
    }

    /// The empty squares.
    #[inline(always)]
    pub const fn empties(self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline(always)]
    pub const fn empty_count(self) -> u32 {
        self.empties().count_ones()
    }

    /// The player to move's legal squares (as a bitboard).
    #[inline(always)]
    pub fn moves(self) -> u64 {
        moves(self.player, self.opponent)
    }

    /// The opponent's legal squares, were it to move.
    #[inline(always)]
    pub fn opponent_moves(self) -> u64 {
        moves(self.opponent, self.player)
    }

    /// The discs a move on `square` would flip (0 when the move is illegal).
    #[inline(always)]
    pub fn flips(self, square: Square) -> u64 {
        if self.empties() & square.bit() == 0 {
            return 0;
        }
        flips(self.player, self.opponent, square.index())
    }

    /// The board after the player to move places a disc on `square`, seen from the new player to move
    /// (the former opponent); `None` if the move is illegal.
    #[inline]
    pub fn play(self, square: Square) -> Option<Board> {
        match self.flips(square) {
            0 => None,
            flipped => Some(self.apply_flips(square.bit(), flipped)),
        }
    }

    /// The board after a legal move: `bit` is the square played, `flipped` the discs it flips (from
    /// [`flips`](Board::flips)); sides are swapped.
    #[inline(always)]
    pub const fn apply_flips(self, bit: u64, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ bit,
        }
    }

    /// The board after a pass: the same discs, sides swapped.
    #[inline(always)]
    pub const fn pass(self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_game_over(self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    /// The final disc difference from the player to move's view, with the empty squares going to the
    /// winner (the FFO and Edax convention; a draw scores 0). Meaningful at the end of a game; on any
    /// board it is the score the game would have if it ended now.
    #[inline]
    pub const fn final_score(self) -> i32 {
        let player = self.player.count_ones() as i32;
        let opponent = self.opponent.count_ones() as i32;
        let diff = player - opponent;
        let empties = 64 - player - opponent;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }
}

/// Legal squares for `player` against `opponent`, by parallel-prefix (Kogge-Stone style) shifts: for each
/// of the 4 line directions, both ways at once, grow runs of opponent discs starting next to a
/// player disc, doubling the run length per step; the empty square just past a run is a move.
#[inline(always)]
pub fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let m = line_moves(player, opponent & INNER_H, 1)
        | line_moves(player, opponent & INNER_V, 8)
        | line_moves(player, opponent & INNER_D, 7)
        | line_moves(player, opponent & INNER_D, 9);
    m & empty
}

/// Squares just past a run of `mask` discs that starts next to a `player` disc, along `dir` and its
/// opposite. Runs have at most 6 discs: two single steps reach length 2, two doubling steps (over
/// `mask & mask<<dir`, pairs of adjacent mask discs) reach length 6.
#[inline(always)]
fn line_moves(player: u64, mask: u64, dir: u32) -> u64 {
    let dir2 = dir + dir;
    let mut left = mask & (player << dir);
    let mut right = mask & (player >> dir);
    left |= mask & (left << dir);
    right |= mask & (right >> dir);
    let pair_left = mask & (mask << dir);
    let pair_right = mask & (mask >> dir);
    left |= pair_left & (left << dir2);
    right |= pair_right & (right >> dir2);
    left |= pair_left & (left << dir2);
    right |= pair_right & (right >> dir2);
    (left << dir) | (right >> dir)
}

/// The squares adjacent to each square (8-neighbourhood). A move flips something only if one of them
/// holds an opponent disc: a one-load test that lets endgame loops skip most illegal squares
/// without the eight-ray flip computation.
pub static ADJACENT: [u64; 64] = build_adjacent();

const fn build_adjacent() -> [u64; 64] {
    let mut adjacent = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    adjacent[sq] |= 1 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    adjacent
}

/// The rays from each square in each of the 8 directions (excluding the square itself), for the flip
/// computation. Directions 0..4 go towards higher bit indices (E, SW, S, SE: +1, +7, +8, +9), 4..8 towards
/// lower ones (W, NE, N, NW: -1, -7, -8, -9).
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    // (file step, rank step) per direction, in the order documented on RAYS.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = STEPS[d];
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            let mut ray = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                ray |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The discs flipped by `player` playing on the empty square `sq`, by ray scanning with bit isolation:
/// along each ray the first square that is not an opponent disc is its lowest set bit (rays towards
/// higher indices: `x & -x`) or its highest (rays towards lower indices: leading-zero count); if that
/// square holds a player disc, the opponent discs before it are flipped. Branch-free apart from the
/// fixed 4+4 loop, which the compiler unrolls.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, sq: u8) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        let between = first.wrapping_sub(1) & ray;
        flipped |= between & mask_if(first & player != 0);
    }
    for &ray in &rays[4..] {
        // `| 1` keeps the shift in range when the ray is all opponent discs; bit 0 is then either
        // off the ray (and `& ray` drops it) or an opponent disc (and `& player` drops it).
        let stop = (ray & !opponent) | 1;
        let first = (1u64 << 63) >> stop.leading_zeros();
        let outflank = first & player & ray;
        flipped |= ray & (outflank << 1).wrapping_neg() & mask_if(outflank != 0);
    }
    flipped
}

/// All ones when `condition` holds, else zero (a branch-free select).
#[inline(always)]
const fn mask_if(condition: bool) -> u64 {
    0u64.wrapping_sub(condition as u64)
}

/// The squares adjacent (8-neighbourhood) to some square of `bits` (a square of `bits` is included only
/// when it is adjacent to another one).
#[inline(always)]
pub fn neighbours(bits: u64) -> u64 {
    let horizontal = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
    let row = bits | horizontal;
    horizontal | (row << 8) | (row >> 8)
}

#[cfg(test)]
pub(crate) mod reference {
    //! A slow, obviously correct move generator: walk each direction square by square.

    /// The discs flipped by `player` playing `sq`, walking the 8 directions one square at a time.
    pub fn flips(player: u64, opponent: u64, sq: u8) -> u64 {
        if (player | opponent) >> sq & 1 != 0 {
            return 0;
        }
        let mut flipped = 0;
        for (df, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            let mut line = 0u64;
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + f);
                if opponent & bit != 0 {
                    line |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= line;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        flipped
    }

    /// Legal squares: those where `flips` is non-empty.
    pub fn moves(player: u64, opponent: u64) -> u64 {
        (0..64u8)
            .filter(|&sq| flips(player, opponent, sq) != 0)
            .fold(0, |m, sq| m | 1 << sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{quickcheck, TestResult};

    fn disjoint(a: u64, b: u64) -> (u64, u64) {
        (a, b & !a)
    }

    #[test]
    fn the_adjacency_table_is_the_neighbourhood_of_each_square() {
        for (sq, &adjacent) in ADJACENT.iter().enumerate() {
            assert_eq!(adjacent, neighbours(1 << sq), "square {sq}");
        }
        // Corners have 3 neighbours, other edge squares 5, inner squares 8.
        assert_eq!(ADJACENT[0].count_ones(), 3);
        assert_eq!(ADJACENT[3].count_ones(), 5);
        assert_eq!(ADJACENT[27].count_ones(), 8);
    }

    #[test]
    fn start_position_has_the_four_standard_moves() {
        let moves = Board::START.moves();
        let names: Vec<String> = Square::all()
            .filter(|s| moves & s.bit() != 0)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        let f5: Square = "f5".parse().unwrap();
        assert_eq!(
            Board::START.flips(f5),
            "e5".parse::<Square>().unwrap().bit()
        );
    }

    #[test]
    fn a_full_line_of_six_opponent_discs_is_flipped() {
        // a1 player, b1..g1 opponent: h1 flips all six.
        let board = Board::new(1, 0x7E).unwrap();
        assert_eq!(board.moves(), 1 << 7);
        assert_eq!(board.flips(Square::H1), 0x7E);
        // No player disc behind: nothing to flip, no move.
        let board = Board::new(0, 0x7E).unwrap();
        assert_eq!(board.moves(), 0);
    }

    #[test]
    fn lines_do_not_wrap_around_the_edges() {
        // player on h1, opponent on a2: a shift by 1 would wrap h1 -> a2; b2 must not be a move.
        let board = Board::new(1 << 7, 1 << 8).unwrap();
        assert_eq!(board.moves(), 0);
        assert_eq!(board.flips("b2".parse().unwrap()), 0);
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        let board = Board::new(0b111, 0b1000).unwrap(); // 3 v 1, 60 empty
        assert_eq!(board.final_score(), 62);
        assert_eq!(board.pass().final_score(), -62);
        assert_eq!(Board::new(1, 2).unwrap().final_score(), 0);
    }

    quickcheck! {
        fn moves_match_the_reference(a: u64, b: u64) -> bool {
            let (p, o) = disjoint(a, b);
            moves(p, o) == reference::moves(p, o)
        }

        fn flips_match_the_reference(a: u64, b: u64, sq: u8) -> TestResult {
            let (p, o) = disjoint(a, b);
            let sq = sq % 64;
            if (p | o) >> sq & 1 != 0 {
                return TestResult::discard();
            }
            TestResult::from_bool(flips(p, o, sq) == reference::flips(p, o, sq))
        }

        // Dense boards make long lines likely, which random u64 pairs rarely give.
        fn moves_match_the_reference_on_dense_boards(a: u64, empty: u8) -> bool {
            let empty_bits = 1u64 << (empty % 64) | 1u64 << (empty / 4 % 64);
            let (p, o) = (a & !empty_bits, !a & !empty_bits);
            moves(p, o) == reference::moves(p, o)
                && (0..64).all(|sq| (p | o) >> sq & 1 != 0 || flips(p, o, sq) == reference::flips(p, o, sq))
        }

        fn neighbours_are_the_8_adjacent_squares(bits: u64) -> bool {
            let slow = (0..64).filter(|&s| bits >> s & 1 != 0).fold(0u64, |acc, s: i32| {
                let (f, r) = (s % 8, s / 8);
                let mut acc = acc;
                for df in -1..=1 {
                    for dr in -1..=1 {
                        let (nf, nr) = (f + df, r + dr);
                        if (df, dr) != (0, 0) && (0..8).contains(&nf) && (0..8).contains(&nr) {
                            acc |= 1 << (nr * 8 + nf);
                        }
                    }
                }
                acc
            });
            neighbours(bits) == slow
        }
    }
}

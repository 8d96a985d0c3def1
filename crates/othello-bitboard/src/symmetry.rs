//! [`Symmetry`]: the 8 symmetries of the square board (the dihedral group D4), on bitboards, squares,
//! moves and boards. Othello's rules are invariant under all of them, so perft counts, exact scores and
//! the EV1/EV2 features are too (and are tested to be).

use crate::board::Board;
use crate::square::{Move, Square};

/// One of the 8 symmetries of the board, given by where it sends the square on file `f`, rank `r`
/// (both 0..8, `a1` = (0, 0) at the top left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// (f, r) → (f, r).
    Identity,
    /// Left-right mirror: (f, r) → (7-f, r).
    MirrorFiles,
    /// Top-bottom mirror: (f, r) → (f, 7-r).
    MirrorRanks,
    /// Half turn: (f, r) → (7-f, 7-r).
    Rotate180,
    /// Mirror in the `a1`-`h8` diagonal: (f, r) → (r, f).
    Transpose,
    /// Mirror in the `h1`-`a8` diagonal: (f, r) → (7-r, 7-f).
    AntiTranspose,
    /// Quarter turn clockwise as the board is drawn (`a1` → `h1`): (f, r) → (7-r, f).
    Rotate90,
    /// Quarter turn anticlockwise (`a1` → `a8`): (f, r) → (r, 7-f).
    Rotate270,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Maps every square of a bitboard, with byte and bit swaps (no per-square loop).
    #[inline]
    pub fn bits(self, x: u64) -> u64 {
        match self {
            Symmetry::Identity => x,
            Symmetry::MirrorFiles => mirror_files(x),
            Symmetry::MirrorRanks => x.swap_bytes(),
            Symmetry::Rotate180 => x.reverse_bits(),
            Symmetry::Transpose => transpose(x),
            Symmetry::AntiTranspose => transpose(x).reverse_bits(),
            Symmetry::Rotate90 => mirror_files(transpose(x)),
            Symmetry::Rotate270 => transpose(x).swap_bytes(),
        }
    }

    /// Maps one square.
    pub fn square(self, square: Square) -> Square {
        Square::lowest(self.bits(square.bit()))
    }

    /// Maps a move (the pass maps to itself).
    pub fn mv(self, mv: Move) -> Move {
        match mv.square() {
            Some(square) => Move::at(self.square(square)),
            None => Move::PASS,
        }
    }

    /// Maps both sides' discs of a board.
    pub fn board(self, board: Board) -> Board {
        Board::new(self.bits(board.player()), self.bits(board.opponent()))
            .expect("a symmetry is a bijection, so disjoint sets stay disjoint")
    }
}

/// Reverses the files within each rank (each rank is one byte).
#[inline]
fn mirror_files(x: u64) -> u64 {
    x.reverse_bits().swap_bytes()
}

/// Mirror in the `a1`-`h8` diagonal: square `8r + f` goes to `8f + r`. Three delta swaps, exchanging
/// 4x4, then 2x2, then 1x1 blocks across the diagonal (the chess programming wiki's `flipDiagA1H8`).
#[inline]
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    /// The documented coordinate map of each symmetry, square by square.
    fn by_coordinates(sym: Symmetry, square: Square) -> Square {
        let (f, r) = (square.file(), square.rank());
        let (f2, r2) = match sym {
            Symmetry::Identity => (f, r),
            Symmetry::MirrorFiles => (7 - f, r),
            Symmetry::MirrorRanks => (f, 7 - r),
            Symmetry::Rotate180 => (7 - f, 7 - r),
            Symmetry::Transpose => (r, f),
            Symmetry::AntiTranspose => (7 - r, 7 - f),
            Symmetry::Rotate90 => (7 - r, f),
            Symmetry::Rotate270 => (r, 7 - f),
        };
        Square::from_coords(f2, r2).unwrap()
    }

    #[test]
    fn bit_tricks_match_the_coordinate_maps() {
        for sym in Symmetry::ALL {
            for square in Square::all() {
                assert_eq!(
                    sym.square(square),
                    by_coordinates(sym, square),
                    "{sym:?} {square}"
                );
            }
        }
        assert_eq!(Symmetry::Rotate90.square(Square::A1), Square::H1);
        assert_eq!(Symmetry::Rotate270.square(Square::A1), Square::A8);
    }

    #[test]
    fn the_eight_symmetries_are_distinct() {
        let probe: u64 = 0x0000_0000_0000_0106; // b1, c1, a2: asymmetric
        let images: std::collections::HashSet<u64> =
            Symmetry::ALL.iter().map(|s| s.bits(probe)).collect();
        assert_eq!(images.len(), 8);
    }

    quickcheck! {
        fn inverse_undoes(x: u64) -> bool {
            Symmetry::ALL.iter().all(|s| s.inverse().bits(s.bits(x)) == x)
        }

        fn bits_map_square_by_square(x: u64) -> bool {
            Symmetry::ALL.iter().all(|&s| {
                let slow = Square::all()
                    .filter(|sq| x & sq.bit() != 0)
                    .fold(0, |acc, sq| acc | by_coordinates(s, sq).bit());
                s.bits(x) == slow
            })
        }
    }
}

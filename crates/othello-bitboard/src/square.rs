//! [`Square`] and [`Move`]: the 64 squares named `a1`..`h8`, and a move (a square, or a forced pass).

use std::fmt;
use std::str::FromStr;

use crate::error::OthelloError;

/// One of the 64 squares, numbered as the bits of a [`Board`](crate::Board): `a1` = 0 (top left),
/// `h1` = 7, `a2` = 8, …, `h8` = 63 (bottom right). The file (`a`..`h`) is `index % 8`, the rank
/// (`1`..`8`) is `index / 8 + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `a1`, the top-left corner.
    pub const A1: Square = Square(0);
    /// `h1`, the top-right corner.
    pub const H1: Square = Square(7);
    /// `a8`, the bottom-left corner.
    pub const A8: Square = Square(56);
    /// `h8`, the bottom-right corner.
    pub const H8: Square = Square(63);

    /// The square with bit index `index` (0..64), or `None` if out of range.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = `a` .. 7 = `h`) and `rank` (0 = `1` .. 7 = `8`), or `None` if either is
    /// out of range.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square of the lowest set bit of `bits`. `bits` must be non-zero.
    #[inline(always)]
    pub(crate) fn lowest(bits: u64) -> Square {
        debug_assert!(bits != 0);
        Square(bits.trailing_zeros() as u8)
    }

    /// Bit index, 0..64.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The one-bit bitboard of this square.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// File, 0 (`a`) ..= 7 (`h`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank, 0 (`1`) ..= 7 (`8`).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// All 64 squares, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl FromStr for Square {
    type Err = OthelloError;

    /// Parses `a1`..`h8` (either case), e.g. `"f5"` or `"F5"`.
    fn from_str(text: &str) -> Result<Square, OthelloError> {
        let bad = || OthelloError::BadSquare {
            text: text.to_string(),
        };
        let [file, rank] = text.as_bytes() else {
            return Err(bad());
        };
        let file = file.to_ascii_lowercase().wrapping_sub(b'a');
        let rank = rank.wrapping_sub(b'1');
        Square::from_coords(file, rank).ok_or_else(bad)
    }
}

/// A move: a disc placed on a square, or a forced pass (a player without a legal placement must pass;
/// the pass is a move of its own, and a game ends when neither player can place a disc).
///
/// One byte: `0..64` is the square index, [`Move::PASS`] is 64. Written `f5` or `ps`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The forced pass, written `ps`.
    pub const PASS: Move = Move(64);

    /// Placing a disc on `square`.
    #[inline(always)]
    pub const fn at(square: Square) -> Move {
        Move(square.0)
    }

    /// The square a disc is placed on, or `None` for a pass.
    #[inline(always)]
    pub const fn square(self) -> Option<Square> {
        Square::from_index(self.0)
    }

    /// Whether this is the forced pass.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// The one-bit bitboard of the square played, 0 for a pass.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        // 1 << 64 would overflow: the pass has no bit.
        if self.0 < 64 {
            1 << self.0
        } else {
            0
        }
    }

    /// The raw code: 0..64 for squares, 64 for the pass.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }
}

impl From<Square> for Move {
    fn from(square: Square) -> Move {
        Move::at(square)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            Some(square) => square.fmt(f),
            None => f.write_str("ps"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = OthelloError;

    /// Parses a square name (`f5`, `F5`) or the pass (`ps`, `PS`, also `pa` and `--` as Edax writes it).
    fn from_str(text: &str) -> Result<Move, OthelloError> {
        match text.to_ascii_lowercase().as_str() {
            "ps" | "pa" | "--" => Ok(Move::PASS),
            _ => text.parse::<Square>().map(Move::at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_square() {
        for square in Square::all() {
            let name = square.to_string();
            assert_eq!(name.parse::<Square>().unwrap(), square);
            assert_eq!(name.to_uppercase().parse::<Square>().unwrap(), square);
        }
        assert_eq!(Square::A1.to_string(), "a1");
        assert_eq!(Square::H1.to_string(), "h1");
        assert_eq!(Square::A8.to_string(), "a8");
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        assert_eq!("e4".parse::<Square>().unwrap().index(), 3 * 8 + 4);
    }

    #[test]
    fn bad_square_names_are_rejected_with_the_text() {
        for bad in ["", "a", "a0", "a9", "i1", "a10", "1a", "é1"] {
            let err = bad.parse::<Square>().unwrap_err();
            assert_eq!(
                err,
                OthelloError::BadSquare {
                    text: bad.to_string()
                }
            );
        }
    }

    #[test]
    fn moves_name_squares_and_the_pass() {
        assert_eq!("ps".parse::<Move>().unwrap(), Move::PASS);
        assert_eq!(Move::PASS.to_string(), "ps");
        assert_eq!(Move::PASS.bit(), 0);
        assert_eq!(Move::PASS.square(), None);
        let f5: Move = "F5".parse().unwrap();
        assert_eq!(f5.to_string(), "f5");
        assert_eq!(f5.bit(), 1 << 37);
    }
}

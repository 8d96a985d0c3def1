//! [`Position`]: a [`Board`] with the colour to move and its legal moves cached; the state of the
//! [`Othello`](crate::Othello) game.

use crate::board::Board;
use crate::hash;
use crate::square::{Move, Square};
use crate::symmetry::Symmetry;

/// A colour. Black moves first; as a game-trait player id black is 0 and white is 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first; player 0; `X` in OBF.
    Black,
    /// Player 1; `O` in OBF.
    White,
}

impl Color {
    /// The other colour.
    #[inline(always)]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The game-trait player id: 0 for black, 1 for white.
    #[inline(always)]
    pub const fn id(self) -> usize {
        self as usize
    }

    /// The OBF letter: `X` for black, `O` for white.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// A position: the board from the side to move's view, the colour to move, and (cached, because every
/// searcher asks for it at every node) the side to move's legal squares. A small `Copy` value
/// (24 bytes): the game is copy-make.
///
/// A position whose side to move has no legal square but whose opponent has one must pass: its only
/// move is [`Move::PASS`]. When neither side can move the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    moves: u64,
    side: Color,
}

impl Position {
    /// The standard start position, black to move.
    pub fn start() -> Position {
        Position::new(Board::START, Color::Black)
    }

    /// `board` (seen from the side to move) with `side` to move.
    #[inline(always)]
    pub fn new(board: Board, side: Color) -> Position {
        Position {
            board,
            moves: board.moves(),
            side,
        }
    }

    /// A position from black's and white's discs, or `None` if they overlap.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Option<Position> {
        let board = match side {
            Color::Black => Board::new(black, white)?,
            Color::White => Board::new(white, black)?,
        };
        Some(Position::new(board, side))
    }

    /// The board from the side to move's view.
    #[inline(always)]
    pub const fn board(&self) -> Board {
        self.board
    }

    /// The colour to move.
    #[inline(always)]
    pub const fn side(&self) -> Color {
        self.side
    }

    /// The side to move's legal squares as a bitboard (0 when it must pass or the game is over).
    #[inline(always)]
    pub const fn legal_squares(&self) -> u64 {
        self.moves
    }

    /// Black's discs.
    pub const fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player(),
            Color::White => self.board.opponent(),
        }
    }

    /// White's discs.
    pub const fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent(),
            Color::White => self.board.player(),
        }
    }

    /// Number of empty squares.
    #[inline(always)]
    pub const fn empty_count(&self) -> u32 {
        self.board.empty_count()
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves == 0 && self.board.opponent_moves() == 0
    }

    /// Whether the side to move must pass (it has no legal square, its opponent has one).
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.moves == 0 && self.board.opponent_moves() != 0
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_pass() {
            self.must_pass()
        } else {
            self.moves & mv.bit() != 0
        }
    }

    /// The position after `mv`, or `None` if `mv` is not legal.
    pub fn play(&self, mv: Move) -> Option<Position> {
        self.is_legal(mv).then(|| self.play_legal(mv))
    }

    /// The position after `mv`, which must be legal (checked in debug builds only): the fast path
    /// searchers use.
    #[inline(always)]
    pub fn play_legal(&self, mv: Move) -> Position {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in\n{self}");
        let board = match mv.square() {
            Some(square) => {
                let flipped =
                    crate::board::flips(self.board.player(), self.board.opponent(), square.index());
                self.board.apply_flips(square.bit(), flipped)
            }
            None => self.board.pass(),
        };
        Position::new(board, self.side.other())
    }

    /// The final disc difference from the side to move's view, empties to the winner (see
    /// [`Board::final_score`]).
    #[inline]
    pub const fn final_score(&self) -> i32 {
        self.board.final_score()
    }

    /// The transposition-table hash (see [`hash`](crate::hash)).
    #[inline]
    pub const fn hash(&self) -> u64 {
        hash::hash(self.board.player(), self.board.opponent(), self.side.id())
    }

    /// The image of this position under a board symmetry (same side to move).
    pub fn transform(&self, symmetry: Symmetry) -> Position {
        Position::new(symmetry.board(self.board), self.side)
    }

    /// The legal moves in `a1`..`h8` order: the squares, or `[ps]` when the side to move must pass, or
    /// nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = squares(self.moves).map(Move::at).collect();
        if moves.is_empty() && self.must_pass() {
            moves.push(Move::PASS);
        }
        moves
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

/// The squares of a bitboard, lowest bit (`a1` side) first.
#[inline]
pub fn squares(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let square = Square::lowest(bits);
            bits &= bits - 1;
            square
        })
    })
}

//! The α/β engine's hooks for chess besides move ordering: [`Captures`] (which moves the
//! quiescence search plays below the horizon) and [`ChessSelectivity`] (null moves and check
//! extensions).

use cozy_chess::{Board, Move, Piece};
use game_trait::{Quiescence, Selectivity};

use crate::game::Chess;
use crate::ordering::{is_capture, see};
use crate::position::Position;

/// Quiescence on captures: below the horizon the side to move may stand pat on the static value
/// or play a *noisy* move, and these are captures (en passant too) and queen promotions.
///
/// With `skip_losing` (the default), a capture that loses material by static exchange
/// ([`see`] < 0) is not noisy: it is left out of the quiescence search, as most programs do,
/// which keeps that search small at the price of missing the rare capture that loses material
/// and wins by what follows. Checks are not searched: a position in check at the horizon may be
/// valued by standing pat, a known inexactness of capture-only quiescence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captures {
    /// Leave captures that lose material by static exchange out of the quiescence search.
    pub skip_losing: bool,
}

impl Default for Captures {
    fn default() -> Captures {
        Captures { skip_losing: true }
    }
}

impl Captures {
    /// Whether `mv` is noisy in `board` under this hook.
    #[inline]
    pub fn noisy(&self, board: &Board, mv: Move) -> bool {
        match mv.promotion {
            Some(Piece::Queen) => true,
            Some(_) => false,
            None => is_capture(board, mv) && (!self.skip_losing || see(board, mv) >= 0),
        }
    }
}

impl Quiescence<Chess> for Captures {
    #[inline]
    fn is_noisy(&mut self, _: &Chess, state: &Position, mv: Move) -> bool {
        self.noisy(state.board(), mv)
    }
}

/// Whether `mv` gives check in `board`.
#[inline]
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let mut after = board.clone();
    after.play_unchecked(mv);
    !after.checkers().is_empty()
}

/// Whether the side to move has nothing but its king and pawns: the endings where passing might
/// be better than every move (zugzwang), so a null move proves nothing.
#[inline]
pub fn zugzwang_prone(board: &Board) -> bool {
    let own = board.colors(board.side_to_move());
    let pieces = own - board.pieces(Piece::Pawn) - board.pieces(Piece::King);
    pieces.is_empty()
}

/// Chess's selectivity: where a null move is a fair test, and which moves are searched deeper.
///
/// - **Null moves** (the engine tries them only where the searcher asks, `pvs:null=R`): the side
///   to move passes, except when it is in check (passing would be illegal) or has only its king
///   and pawns ([`zugzwang_prone`]), where passing may be better than any move and the test would
///   prune good lines. The position after a pass has no history: a repetition cannot run through
///   a pass.
/// - **Check extensions**: a move that gives check is searched `check_plies` plies deeper than its
///   siblings (0, the default, for none; the engine caps the plies added along a line at the
///   root's depth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChessSelectivity {
    /// Plies by which a checking move is extended, 0 for none.
    pub check_plies: u32,
}

impl ChessSelectivity {
    /// Null moves where they are fair, and checks extended by `check_plies`.
    pub fn new(check_plies: u32) -> ChessSelectivity {
        ChessSelectivity { check_plies }
    }
}

impl Selectivity<Chess> for ChessSelectivity {
    const NULL_MOVES: bool = true;
    const EXTENDS: bool = true;

    #[inline]
    fn null_move(&mut self, _: &Chess, state: &Position) -> Option<Position> {
        let board = state.board();
        if zugzwang_prone(board) {
            return None;
        }
        // `None` when in check.
        board.null_move().map(Position::from_board)
    }

    #[inline]
    fn extension(&mut self, _: &Chess, state: &Position, mv: Move) -> u32 {
        if self.check_plies == 0 || !gives_check(state.board(), mv) {
            return 0;
        }
        self.check_plies
    }
}

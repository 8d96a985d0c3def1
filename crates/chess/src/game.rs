//! [`Chess`]: the rules as a game-trait [`Game`] and [`ZeroSumGame`], so every searcher of the
//! workspace plays it.

use cozy_chess::{Color, Move};
use game_trait::{Game, MoveList, Outcome, PlayerId, ZeroSumGame};

use crate::position::{insufficient_material, Position};

/// The rules of chess (FIDE's laws of play, with the draw rules applied automatically: see
/// [`Position::status`]). Copy-make: [`Game::apply`] returns the child [`Position`].
///
/// - Players: white is 0, black 1; they alternate ([`ZeroSumGame::ALTERNATES`]).
/// - [`ZeroSumGame::moves`]: the legal moves in [`Position::legal_moves`]'s order (captures by
///   MVV-LVA first).
/// - [`ZeroSumGame::outcome`]: a loss for the side to move when it is checkmated; a draw by
///   stalemate, the fifty-move rule, threefold repetition or insufficient material.
/// - [`Game::state_hash`]: the move generator's Zobrist key ([`Position::hash`]). It does not
///   cover the history, so a table may reuse a value across positions whose draw-by-repetition
///   prospects differ: the usual compromise of chess programs.
/// - [`Game::move_name`]: UCI notation (`e2e4`, `e7e8q`, `e1g1`).
///
/// ```
/// use gametree_chess::{Chess, Position};
/// use game_trait::{Game, MoveList, Outcome, ZeroSumGame};
///
/// let game = Chess;
/// let mut position = game.initial_state();
/// let mut moves = MoveList::new();
/// game.moves(&position, &mut moves);
/// assert_eq!(moves.len(), 20);
/// // Fool's mate.
/// for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     position.play_uci(text)?;
/// }
/// assert_eq!(game.outcome(&position), Some(Outcome::LOSS)); // white, to move, is mated
/// # Ok::<(), gametree_chess::ChessError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chess;

impl Game for Chess {
    type State = Position;
    type Move = Move;

    fn initial_state(&self) -> Position {
        Position::start()
    }

    #[inline]
    fn apply(&self, state: &mut Position, mv: Move) -> Option<Position> {
        Some(state.after(mv))
    }

    #[inline(always)]
    fn state_hash(&self, state: &Position) -> Option<u64> {
        Some(state.hash())
    }

    fn move_name(&self, state: &Position, mv: Move) -> String {
        state.uci(mv)
    }
}

impl ZeroSumGame for Chess {
    /// Every move hands the turn over.
    const ALTERNATES: bool = true;

    #[inline(always)]
    fn side_to_move(&self, state: &Position) -> PlayerId {
        match state.side() {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    /// [`Position::status`] as an outcome for the side to move, cheapest tests first.
    #[inline]
    fn outcome(&self, state: &Position) -> Option<Outcome> {
        let board = state.board();
        if insufficient_material(board) || (state.history_len() >= 4 && state.repetitions() >= 2) {
            return Some(Outcome::DRAW);
        }
        if !board.generate_moves(|_| true) {
            return Some(if state.in_check() {
                Outcome::LOSS
            } else {
                Outcome::DRAW
            });
        }
        (board.halfmove_clock() >= 100).then_some(Outcome::DRAW)
    }

    #[inline]
    fn moves(&self, state: &Position, moves: &mut MoveList<Move>) {
        state.legal_moves(moves);
    }
}

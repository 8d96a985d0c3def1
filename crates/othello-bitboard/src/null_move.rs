//! [`NullMoves`]: where an Othello position may be tested by passing, for the α/β engine's
//! null-move pruning ([`Selectivity`]).
//!
//! Passing is not a legal move in Othello while a move exists, and zugzwang (every move worsens
//! the position) is common, above all in the endgame, where the parity of the last empty squares
//! decides who gets them. The null-move test "even passing keeps the value at β" is therefore
//! offered only while many squares are empty (more than [`NullMoves::min_empties`], 14 by
//! default) and when both sides have a move (a position whose side must pass, or after which
//! the opponent could not move, is not tested). Null-move pruning remains a heuristic here:
//! measure it in matches.

use game_trait::Selectivity;

use crate::game::Othello;
use crate::position::Position;

/// Declares the Othello null move (the side to move passes) where it is offered; no extensions.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `min_empties` | 14 | a null move is offered only with more empty squares than this |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullMoves {
    /// Null moves are offered only in positions with more empty squares than this.
    pub min_empties: u32,
}

impl Default for NullMoves {
    fn default() -> NullMoves {
        NullMoves { min_empties: 14 }
    }
}

impl Selectivity<Othello> for NullMoves {
    const NULL_MOVES: bool = true;

    #[inline]
    fn null_move(&mut self, _: &Othello, state: &Position) -> Option<Position> {
        let board = state.board();
        let offered = state.empty_count() > self.min_empties
            && state.legal_squares() != 0
            && board.opponent_moves() != 0;
        offered.then(|| Position::new(board.pass(), state.side().other()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_trait::{Game, ZeroSumGame};

    #[test]
    fn the_null_move_hands_the_same_discs_to_the_opponent() {
        let game = Othello;
        let start = game.initial_state();
        let passed = NullMoves::default().null_move(&game, &start).unwrap();
        assert_eq!(
            (passed.black(), passed.white()),
            (start.black(), start.white())
        );
        assert_ne!(game.side_to_move(&passed), game.side_to_move(&start));
        assert_eq!(passed.legal_squares(), start.board().opponent_moves());
    }

    #[test]
    fn no_null_move_in_the_endgame() {
        let mut hook = NullMoves { min_empties: 60 };
        assert!(hook.null_move(&Othello, &Othello.initial_state()).is_none());
    }
}

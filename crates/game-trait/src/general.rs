//! [`GeneralGame`]: any number of players, simultaneous moves, a chance player and payoffs per
//! player, as in General Game Playing; and the derivation that makes every [`ZeroSumGame`] one.

use smallvec::SmallVec;

use crate::game::{Game, MoveList, PlayerId, ZeroSumGame};

/// A caller-owned buffer of chance outcomes: each move of the chance player with its probability.
pub type ChanceList<M> = SmallVec<[(M, f64); 16]>;

/// Who acts in a state of a [`GeneralGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The game is over; [`GeneralGame::payoff`] tells how it ended.
    Over,
    /// One player chooses a move (the others have nothing to choose).
    Player(PlayerId),
    /// Every player chooses a move at once (decoupled); the joint move is applied with
    /// [`GeneralGame::play_joint`]. If [`GeneralGame::chance_outcomes`] is non-empty here, chance
    /// moves too.
    Simultaneous,
    /// Only the chance player moves, drawing from [`GeneralGame::chance_outcomes`].
    Chance,
}

/// The rules of any game: `n` players, turns that may be simultaneous or the chance player's, and
/// a payoff per player at the end. Searchers for general games (UCT, perft) take this trait.
///
/// | game | players | [`Turn`]s it produces |
/// |---|---|---|
/// | every [`ZeroSumGame`] (Othello, random trees) | 2 | `Player`, `Over` |
/// | GDL | n | `Player`, `Simultaneous`, `Chance` (the `random` role), `Over` |
///
/// Two-player zero-sum games with one player to move at a time implement [`ZeroSumGame`] instead
/// and get this trait for free.
///
/// # Who calls what
/// Searchers call [`turn`](GeneralGame::turn) first; then at a `Player(p)` node
/// [`legal_moves`](GeneralGame::legal_moves) for `p` and [`Game::apply`]/[`Game::undo`] per move; at
/// a `Chance` node [`chance_outcomes`](GeneralGame::chance_outcomes) and `apply`; at a
/// `Simultaneous` node `legal_moves` for every player and [`play_joint`](GeneralGame::play_joint);
/// at `Over`, [`payoff`](GeneralGame::payoff).
pub trait GeneralGame: Game {
    /// Number of players, not counting the chance player.
    fn players(&self) -> usize;

    /// Who acts in `state`.
    fn turn(&self, state: &Self::State) -> Turn;

    /// **Replaces** the contents of `moves` with `player`'s legal moves in `state`: callers may pass
    /// a list that still holds the last node's moves, so an implementation clears it first (unlike
    /// [`ZeroSumGame::moves`], which is called on a list the caller emptied). At a `Player(p)`
    /// node only `p` is asked; at a `Simultaneous` node every player has at least one move (a player
    /// with nothing to choose has exactly one, such as GDL's `noop`).
    fn legal_moves(&self, state: &Self::State, player: PlayerId, moves: &mut MoveList<Self::Move>);

    /// Replaces the contents of `outcomes` with the chance player's moves and their probabilities
    /// (summing to 1) at `Chance` nodes, and at `Simultaneous` nodes where chance moves too; empty
    /// elsewhere. The default is for games without chance.
    fn chance_outcomes(&self, state: &Self::State, outcomes: &mut ChanceList<Self::Move>) {
        let _ = state;
        outcomes.clear();
    }

    /// Applies a joint move at a `Simultaneous` node, in place: `joint[p]` is player `p`'s move,
    /// followed by the chance player's move when chance moves too. Games without simultaneous nodes
    /// keep the default, which plays `joint[0]` (the only entry a caller can pass them).
    fn play_joint(&self, state: &mut Self::State, joint: &[Self::Move]) {
        if let Some(&mv) = joint.first() {
            self.play(state, mv);
        }
    }

    /// How good the finished game `state` is for `player`, in `[0, 1]` (1 a win, 0 a loss, ½ a draw
    /// for win/loss games; GDL goal values divided by 100). Only asked at `Over`.
    fn payoff(&self, state: &Self::State, player: PlayerId) -> f64;
}

/// Every two-player zero-sum game is a general game: two players, `Player(side to move)` until
/// the outcome is known, and win/draw/loss payoffs from the [`Outcome`](crate::Outcome): 1 for a
/// win, ½ for a draw, 0 for a loss, whatever the margin.
///
/// Because of this blanket implementation a type that implements [`ZeroSumGame`] cannot
/// implement `GeneralGame` itself (the two would overlap): a two-player game that needs other
/// payoffs (goal values, margins) implements `GeneralGame` directly and not `ZeroSumGame`, or
/// offers a zero-sum view as a separate type, as GDL's `TurnTaking` does.
impl<G: ZeroSumGame> GeneralGame for G {
    #[inline]
    fn players(&self) -> usize {
        2
    }

    #[inline]
    fn turn(&self, state: &G::State) -> Turn {
        match self.outcome(state) {
            Some(_) => Turn::Over,
            None => Turn::Player(self.side_to_move(state)),
        }
    }

    /// The side to move's moves while the game goes on; nothing for the other player or once the
    /// game is over. Searchers have asked [`turn`](GeneralGame::turn), and so `outcome`, already;
    /// asking it again here keeps [`ZeroSumGame::moves`] from ever being called on a finished game
    /// (its contract) when a caller outside a search asks.
    #[inline]
    fn legal_moves(&self, state: &G::State, player: PlayerId, moves: &mut MoveList<G::Move>) {
        moves.clear();
        if player == self.side_to_move(state) && self.outcome(state).is_none() {
            self.moves(state, moves);
        }
    }

    /// The win/draw/loss payoff of `player` ([`Outcome::payoff`](crate::Outcome::payoff)). Only
    /// asked at `Over`: on a game in progress it panics in debug builds and answers ½ otherwise.
    fn payoff(&self, state: &G::State, player: PlayerId) -> f64 {
        let outcome = self.outcome(state);
        debug_assert!(outcome.is_some(), "payoff asked of a game in progress");
        let Some(outcome) = outcome else {
            return 0.5;
        };
        if player == self.side_to_move(state) {
            outcome.payoff()
        } else {
            outcome.for_opponent().payoff()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::testing::{Nim, Pile};

    const IN_PROGRESS: Pile = Pile {
        stones: 2,
        to_move: 1,
    };
    /// Player 1 took the last stone: player 0, to move, has lost.
    const OVER: Pile = Pile {
        stones: 0,
        to_move: 0,
    };

    #[test]
    fn a_zero_sum_game_is_a_two_player_general_game() {
        assert_eq!(Nim.players(), 2);
        assert_eq!(Nim.turn(&IN_PROGRESS), Turn::Player(1));
        assert_eq!(Nim.turn(&OVER), Turn::Over);
        let mut outcomes = ChanceList::new();
        outcomes.push((9, 1.0));
        Nim.chance_outcomes(&IN_PROGRESS, &mut outcomes);
        assert!(outcomes.is_empty());
        let mut pile = IN_PROGRESS;
        Nim.play_joint(&mut pile, &[2]);
        assert_eq!(pile, OVER);
    }

    #[test]
    fn legal_moves_replace_the_list_and_only_the_side_to_move_has_any() {
        let mut moves: MoveList<u32> = MoveList::new();
        moves.extend([7, 7, 7]); // left over from another node
        Nim.legal_moves(&IN_PROGRESS, 1, &mut moves);
        assert_eq!(moves.as_slice(), &[1, 2]);
        Nim.legal_moves(&IN_PROGRESS, 0, &mut moves);
        assert!(moves.is_empty(), "the player not to move has no move");
        moves.push(7);
        Nim.legal_moves(&OVER, 0, &mut moves);
        assert!(moves.is_empty(), "a finished game has no move");
    }

    #[test]
    fn payoffs_read_the_outcome_for_either_player() {
        assert_eq!(Nim.outcome(&OVER), Some(Outcome::LOSS));
        assert_eq!((Nim.payoff(&OVER, 0), Nim.payoff(&OVER, 1)), (0.0, 1.0));
        let over = Pile { to_move: 1, ..OVER };
        assert_eq!((Nim.payoff(&over, 0), Nim.payoff(&over, 1)), (1.0, 0.0));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "payoff asked of a game in progress")]
    fn the_payoff_of_a_game_in_progress_is_a_bug() {
        Nim.payoff(&IN_PROGRESS, 0);
    }
}

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
/// Two-player alternating games implement [`ZeroSumGame`] instead and get this trait for free.
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

    /// Replaces the contents of `moves` with `player`'s legal moves in `state`. At a `Player(p)`
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

/// Every two-player alternating game is a general game: two players, `Player(side to move)` until
/// the outcome is known, payoffs from the [`Outcome`](crate::Outcome).
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

    #[inline]
    fn legal_moves(&self, state: &G::State, player: PlayerId, moves: &mut MoveList<G::Move>) {
        moves.clear();
        if player == self.side_to_move(state) && self.outcome(state).is_none() {
            self.moves(state, moves);
        }
    }

    fn payoff(&self, state: &G::State, player: PlayerId) -> f64 {
        let Some(outcome) = self.outcome(state) else {
            return 0.5;
        };
        if player == self.side_to_move(state) {
            outcome.payoff()
        } else {
            outcome.for_opponent().payoff()
        }
    }
}

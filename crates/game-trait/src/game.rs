//! The rules of a game: [`Game`] (any number of players, simultaneous and chance moves) and its
//! two-player, zero-sum, alternating view [`ZeroSumGame`] that negamax searchers require.

use std::fmt::Debug;
use std::hash::Hash;

use smallvec::SmallVec;

/// Index of a player, `0..game.players()`. The chance player has no index: see [`Turn::Chance`].
pub type PlayerId = usize;

/// How many moves a [`MoveList`] holds before it spills to the heap (Othello never has more than 33
/// legal moves, so the hot path of every built-in game stays allocation-free).
pub const MOVES_INLINE: usize = 64;

/// A caller-owned move buffer. Searchers keep one per ply so that generating moves never allocates.
pub type MoveList<M> = SmallVec<[M; MOVES_INLINE]>;

/// A caller-owned buffer of chance outcomes: each move of the chance player with its probability.
pub type ChanceList<M> = SmallVec<[(M, f64); 16]>;

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The game is over; [`Game::payoff`] tells how it ended.
    Over,
    /// One player chooses a move (the others have nothing to choose).
    Player(PlayerId),
    /// Every player chooses a move at once (decoupled); the joint move is applied with
    /// [`Game::play_joint`]. If [`Game::chance_outcomes`] is non-empty here, chance moves too.
    Simultaneous,
    /// Only the chance player moves, drawing from [`Game::chance_outcomes`].
    Chance,
}

/// The rules of a game, as an immutable rules object (`&self`) plus a separate state value.
///
/// One trait covers every game of the workspace honestly:
///
/// | game | players | [`Turn`]s it produces |
/// |---|---|---|
/// | Othello | 2 | `Player`, `Over` (a forced pass is a move) |
/// | incremental random trees | 2 | `Player`, `Over` (leaves at depth `d`) |
/// | GDL | n | `Player`, `Simultaneous`, `Chance` (the `random` role), `Over` |
///
/// # Who calls what
/// Searchers call [`turn`](Game::turn) first; then at a `Player(p)` node [`legal_moves`](Game::legal_moves)
/// for `p` and [`apply`](Game::apply)/[`undo`](Game::undo) per move; at a `Chance` node
/// [`chance_outcomes`](Game::chance_outcomes) and `apply`; at a `Simultaneous` node `legal_moves` for every
/// player and [`play_joint`](Game::play_joint); at `Over`, [`payoff`](Game::payoff).
///
/// # Copy-make or make/unmake: the game chooses
/// [`apply`](Game::apply) either returns the successor and leaves `state` alone (copy-make, best for small
/// `Copy` states such as two bitboards), or changes `state` in place and returns `None`, in which case the
/// caller restores it later with [`undo`](Game::undo) (make/unmake, best for large states). Searchers handle
/// both with one pattern:
///
/// ```
/// # use game_trait::{Game, MoveList};
/// fn count_leaves<G: Game>(game: &G, state: &mut G::State, depth: u32) -> u64 {
///     let game_trait::Turn::Player(p) = game.turn(state) else { return 1 };
///     if depth == 0 { return 1 }
///     let mut moves = MoveList::new();
///     game.legal_moves(state, p, &mut moves);
///     let mut total = 0;
///     for &mv in &moves {
///         match game.apply(state, mv) {
///             // copy-make: search the returned child, `state` is untouched
///             Some(mut child) => total += count_leaves(game, &mut child, depth - 1),
///             // make/unmake: `state` now is the child; put it back afterwards
///             None => {
///                 total += count_leaves(game, state, depth - 1);
///                 game.undo(state, mv);
///             }
///         }
///     }
///     total
/// }
/// ```
pub trait Game {
    /// A position (plus whatever history the rules need). Cheap to clone for copy-make games.
    type State: Clone + Debug;
    /// One player's move. Small and `Copy` (an index, a square, a grounded-term id).
    type Move: Copy + Eq + Hash + Debug;

    /// Number of players, not counting the chance player.
    fn players(&self) -> usize;

    /// The state a game starts from.
    fn initial_state(&self) -> Self::State;

    /// Who acts in `state`.
    fn turn(&self, state: &Self::State) -> Turn;

    /// Replaces the contents of `moves` with `player`'s legal moves in `state`. At a `Player(p)` node
    /// only `p` is asked; at a `Simultaneous` node every player has at least one move (a player with
    /// nothing to choose has exactly one, such as GDL's `noop`).
    fn legal_moves(&self, state: &Self::State, player: PlayerId, moves: &mut MoveList<Self::Move>);

    /// Replaces the contents of `outcomes` with the chance player's moves and their probabilities
    /// (summing to 1) at `Chance` nodes, and at `Simultaneous` nodes where chance moves too; empty
    /// elsewhere. The default is for games without chance.
    fn chance_outcomes(&self, state: &Self::State, outcomes: &mut ChanceList<Self::Move>) {
        let _ = state;
        outcomes.clear();
    }

    /// Applies the move of the single mover (a `Player` or `Chance` node): either returns the successor
    /// leaving `state` untouched (copy-make), or changes `state` in place and returns `None`, promising
    /// that [`undo`](Game::undo) with the same move restores it (make/unmake). See the trait docs.
    fn apply(&self, state: &mut Self::State, mv: Self::Move) -> Option<Self::State>;

    /// Reverts an in-place [`apply`](Game::apply) that returned `None`. Copy-make games keep the
    /// default, which does nothing.
    fn undo(&self, state: &mut Self::State, mv: Self::Move) {
        let _ = (state, mv);
    }

    /// Applies a joint move at a `Simultaneous` node, in place: `joint[p]` is player `p`'s move, followed
    /// by the chance player's move when chance moves too. Games without simultaneous nodes keep the
    /// default, which plays `joint[0]` (the only entry a caller can pass them).
    fn play_joint(&self, state: &mut Self::State, joint: &[Self::Move]) {
        if let Some(&mv) = joint.first() {
            self.play(state, mv);
        }
    }

    /// Applies a move for good (no undo), whichever way the game implements [`apply`](Game::apply).
    fn play(&self, state: &mut Self::State, mv: Self::Move) {
        if let Some(child) = self.apply(state, mv) {
            *state = child;
        }
    }

    /// How good the finished game `state` is for `player`, in `[0, 1]` (1 a win, 0 a loss, ½ a draw for
    /// win/loss games; GDL goal values divided by 100). Only asked at `Over`.
    fn payoff(&self, state: &Self::State, player: PlayerId) -> f64;

    /// A 64-bit hash of the state for transposition tables (Zobrist or equally strong). Equal states
    /// must hash equally.
    fn hash(&self, state: &Self::State) -> u64;

    /// A human-readable name for a move (`"f5"`, `"(mark 1 1)"`), used by the CLI and in PVs.
    fn move_name(&self, state: &Self::State, mv: Self::Move) -> String {
        let _ = state;
        format!("{mv:?}")
    }
}

/// The two-player, zero-sum, alternating view that negamax searchers (Minimax, AlphaBeta, PVS, forward
/// estimation, interest search, conspiracy numbers) need.
///
/// Implementors only ever report [`Turn::Player`] (0 or 1) or [`Turn::Over`]; a forced pass is a move.
/// A turn-taking two-player GDL game implements it through a checked wrapper in the `gdl` crate.
pub trait ZeroSumGame: Game {
    /// The player whose turn it is (at `Over`: the player who would have moved). Values reported by
    /// evaluators and searchers are from this player's point of view (negamax convention).
    fn side_to_move(&self, state: &Self::State) -> PlayerId;

    /// The final result of a finished game from [`side_to_move`](ZeroSumGame::side_to_move)'s view, in
    /// the game's natural unit (Othello: disc difference with empties to the winner; GDL: goal
    /// difference). Positive is a win, 0 a draw. Only asked at `Over`.
    fn final_result(&self, state: &Self::State) -> i32;

    /// The side to move's legal moves; empty exactly when the game is over.
    fn moves(&self, state: &Self::State, moves: &mut MoveList<Self::Move>) {
        match self.turn(state) {
            Turn::Player(p) => self.legal_moves(state, p, moves),
            _ => moves.clear(),
        }
    }
}

//! The rules of a game: [`Game`] (states and moves) and [`ZeroSumGame`] (two players, one's gain
//! the other's loss), with [`Outcome`], how a finished game ended.

use std::fmt::Debug;
use std::hash::Hash;

use smallvec::SmallVec;

use crate::score::{terminal_score, Score, EVAL_LIMIT};

/// Index of a player, `0..players`. The chance player has no index: see
/// [`Turn::Chance`](crate::Turn::Chance).
pub type PlayerId = usize;

/// How many moves a [`MoveList`] holds before it spills to the heap (Othello never has more than 33
/// legal moves, so the hot path of every built-in game stays allocation-free).
pub const MOVES_INLINE: usize = 64;

/// A caller-owned move buffer. Searchers keep one per ply so that generating moves never allocates.
pub type MoveList<M> = SmallVec<[M; MOVES_INLINE]>;

/// States and moves: what every game has, whoever plays it. A game is an immutable rules object
/// (`&self`) plus a separate state value.
///
/// `Game` alone says nothing about who moves or who wins; a game also implements one of:
/// - [`ZeroSumGame`]: two players, one's gain is the other's loss (tic-tac-toe, Othello, chess,
///   Dots and Boxes). Every searcher of the workspace plays these.
/// - [`GeneralGame`](crate::GeneralGame): any number of players, simultaneous moves, a chance
///   player, payoffs per player (General Game Playing). UCT and perft play these. Every
///   `ZeroSumGame` is a `GeneralGame` without writing a line more.
///
/// # Copy-make or make/unmake: the game chooses
/// [`apply`](Game::apply) either returns the successor and leaves `state` alone (copy-make, best for
/// small `Copy` states such as two bitboards), or changes `state` in place and returns `None`, in
/// which case the caller restores it later with [`undo`](Game::undo) (make/unmake, best for large
/// states). Searchers handle both with one pattern:
///
/// ```
/// use game_trait::{MoveList, ZeroSumGame};
///
/// fn count_leaves<G: ZeroSumGame>(game: &G, state: &mut G::State, depth: u32) -> u64 {
///     if depth == 0 || game.outcome(state).is_some() {
///         return 1;
///     }
///     let mut moves = MoveList::new();
///     game.moves(state, &mut moves);
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
    /// One player's move. Small and `Copy` (an index, a square, a grounded-term id), and owning
    /// nothing borrowed (`'static`), so that a searcher can keep moves between searches (UCT's
    /// tree reuse).
    type Move: Copy + Eq + Hash + Debug + 'static;

    /// The state a game starts from.
    fn initial_state(&self) -> Self::State;

    /// Applies a legal move: either returns the successor leaving `state` untouched (copy-make), or
    /// changes `state` in place and returns `None`, promising that [`undo`](Game::undo) with the
    /// same move restores it (make/unmake). Searchers call it only with moves the game listed as
    /// legal in `state`. See the trait docs.
    fn apply(&self, state: &mut Self::State, mv: Self::Move) -> Option<Self::State>;

    /// Reverts an in-place [`apply`](Game::apply) that returned `None`. Copy-make games keep the
    /// default, which does nothing.
    fn undo(&self, state: &mut Self::State, mv: Self::Move) {
        let _ = (state, mv);
    }

    /// Applies a move for good (no undo), whichever way the game implements [`apply`](Game::apply).
    fn play(&self, state: &mut Self::State, mv: Self::Move) {
        if let Some(child) = self.apply(state, mv) {
            *state = child;
        }
    }

    /// The state's 64-bit key for transposition tables (Zobrist or equally strong: equal states
    /// must have equal keys), or `None`: this state has no key, and a search neither probes nor
    /// stores it. A game may give keys to some states only. Games that never hash keep the
    /// default, which is always `None`; they are searched without a table.
    /// [`mix64`](crate::mix64) turns small integers into well-spread keys.
    ///
    /// Named `state_hash`, not `hash`, so that it never clashes with [`std::hash::Hash::hash`] on
    /// a game type that derives `Hash`.
    #[inline]
    fn state_hash(&self, state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// The [`state_hash`](Game::state_hash) of the state `mv` leads to, if the game can tell it
    /// without making the move (an incremental key: the Zobrist key with the move's terms
    /// folded in), or `None`, the default. α/β uses it to ask the processor for a successor's
    /// table bucket while the sibling before it is being searched, so that the successor's probe
    /// does not wait for memory: the `iterative` line of `benches/vs_minimax.rs` (a 16 MiB table)
    /// takes 13–17 % less time with it, on the same nodes. Worth it where the key costs less than
    /// making the move: Othello's, which needs the move's flips, made its endgame solver slower. When `Some`, it must equal the key of the successor
    /// ([`apply`](Game::apply) then `state_hash`); a wrong key costs time, never a wrong value.
    #[inline]
    fn state_hash_after(&self, state: &Self::State, mv: Self::Move) -> Option<u64> {
        let _ = (state, mv);
        None
    }

    /// Which rules this value holds, for searchers that keep what they learned between searches
    /// (UCT's tree, MAC-UCB's index of the round): they recognise a game by its type, its
    /// address and this, so that a game dropped and another loaded in its place (the same
    /// variable, a loop over games) is not taken for the first. `None`, the default, leaves the
    /// type and address to say it: enough for a type whose rules are the type's (Othello). A
    /// type whose values hold different rules gives each its own: a GDL game one per
    /// description loaded, Nim its heap, a random tree a hash of its configuration.
    fn identity(&self) -> Option<u64> {
        None
    }

    /// A human-readable name for a move (`"f5"`, `"(mark 1 1)"`), used by the command line and in
    /// principal variations. The default is the move's `Debug` form.
    fn move_name(&self, state: &Self::State, mv: Self::Move) -> String {
        let _ = state;
        format!("{mv:?}")
    }
}

/// A two-player game whose outcome is one player's gain and the other's loss: what negamax
/// searchers (Minimax, α/β, PVS, MTD(f), forward estimation, interest search, conspiracy numbers)
/// need, and all a game has to say besides [`Game`].
///
/// A game states who moves, how a finished game ended, and the moves of the side to move; the rest
/// is derived (it is a [`GeneralGame`](crate::GeneralGame) too). A forced pass is a move.
///
/// # Who calls what
/// At every node a searcher first asks [`outcome`](ZeroSumGame::outcome); a finished game is scored
/// from its [`Outcome`] by the searcher, never by an evaluator. Only for a game in progress does it
/// ask [`moves`](ZeroSumGame::moves) and then [`Game::apply`] for each move it explores. Values are
/// from the [`side_to_move`](ZeroSumGame::side_to_move)'s point of view (negamax).
///
/// # Turn order: whoever the game says
/// The players need not alternate. After a move, the side to move is whatever
/// [`side_to_move`](ZeroSumGame::side_to_move) says of the new state: the same player again where
/// the rules give an extra turn (Dots and Boxes: completing a box earns another move; a capture
/// sequence played one jump at a time). Every searcher reads it: a child whose side to move is the
/// other player is worth the negation of its value to its parent, a child where the same player
/// moves again is worth its value as it is. A game whose players strictly alternate may say so
/// with [`ALTERNATES`](ZeroSumGame::ALTERNATES), and its searches then skip the question.
///
/// # Example: Nim
/// ```
/// use game_trait::{Game, MoveList, Outcome, PlayerId, ZeroSumGame};
///
/// /// Take 1 or 2 stones from a pile; whoever takes the last stone wins.
/// struct Nim;
///
/// #[derive(Clone, Copy, Debug)]
/// struct Pile {
///     stones: u32,
///     to_move: PlayerId,
/// }
///
/// impl Game for Nim {
///     type State = Pile;
///     type Move = u32; // how many stones to take
///
///     fn initial_state(&self) -> Pile {
///         Pile { stones: 7, to_move: 0 }
///     }
///     fn apply(&self, pile: &mut Pile, take: u32) -> Option<Pile> {
///         Some(Pile { stones: pile.stones - take, to_move: 1 - pile.to_move }) // copy-make
///     }
/// }
///
/// impl ZeroSumGame for Nim {
///     // Every move hands the turn over: searches need not ask who moves next.
///     const ALTERNATES: bool = true;
///
///     fn side_to_move(&self, pile: &Pile) -> PlayerId {
///         pile.to_move
///     }
///     fn outcome(&self, pile: &Pile) -> Option<Outcome> {
///         // The opponent took the last stone: the player to move has lost.
///         (pile.stones == 0).then_some(Outcome::LOSS)
///     }
///     fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
///         moves.extend((1..=2).filter(|&take| take <= pile.stones));
///     }
/// }
///
/// let mut moves = MoveList::new();
/// Nim.moves(&Nim.initial_state(), &mut moves);
/// assert_eq!(moves.as_slice(), &[1, 2]);
/// ```
pub trait ZeroSumGame: Game {
    /// Whether every move hands the turn to the other player, in every reachable position (a pass
    /// is a move, so Othello alternates). Searchers then take a child's value to be the negation
    /// of its parent's view without asking [`side_to_move`](ZeroSumGame::side_to_move): a
    /// constant, so the question compiles away.
    ///
    /// The default, `false`, is right for every game: searchers read the side to move of every
    /// child and negate only where the other player moves, which costs one call of
    /// `side_to_move` per node. It is the default so that a game written the natural way, where
    /// a player sometimes moves again, gets its true values without knowing this constant exists.
    /// Declare `true` only if it holds everywhere: a game that declares it and then lets a player
    /// move twice in a row is searched as if the turn had passed, and gets wrong values.
    const ALTERNATES: bool = false;

    /// The player to move, 0 or 1 (at a finished game: the player who would have moved next). It
    /// may be the player who made the last move: see [the trait docs](ZeroSumGame) on turn order.
    fn side_to_move(&self, state: &Self::State) -> PlayerId;

    /// `None` while the game goes on; once it is over, how it ended for the
    /// [`side_to_move`](ZeroSumGame::side_to_move). Searchers ask this first at every node, so it
    /// is the one place where a game says that it is over and who won.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Pushes the legal moves of the side to move onto `moves`, which **the caller has emptied**:
    /// an implementation just extends it. Callers clear the list first, or call the derived
    /// [`GeneralGame::legal_moves`](crate::GeneralGame::legal_moves), which replaces the list's
    /// contents. Asked only while the game goes on ([`outcome`](ZeroSumGame::outcome) is `None`),
    /// and there must be at least one move (a player who cannot move but whose game is not over
    /// passes: the pass is a move).
    fn moves(&self, state: &Self::State, moves: &mut MoveList<Self::Move>);
}

/// How a finished game ended for one player, in the game's own unit: a positive margin is a win by
/// that much (discs, points, goal difference), a negative one a loss, zero a draw. Games that only
/// know win, loss and draw use [`WIN`](Outcome::WIN), [`LOSS`](Outcome::LOSS) and
/// [`DRAW`](Outcome::DRAW).
///
/// Searchers score an outcome through their evaluator's
/// [`terminal`](crate::Evaluator::terminal), by default [`Outcome::score`]: above every static
/// evaluation for a win, below every one for a loss, larger margins better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Outcome {
    margin: i32,
}

impl Outcome {
    /// A win by the smallest margin.
    pub const WIN: Outcome = Outcome { margin: 1 };
    /// A loss by the smallest margin.
    pub const LOSS: Outcome = Outcome { margin: -1 };
    /// A draw.
    pub const DRAW: Outcome = Outcome { margin: 0 };

    /// A result by `margin` (positive a win, negative a loss, zero a draw), clamped to
    /// `±EVAL_LIMIT` so that every outcome has a score.
    #[inline]
    pub const fn margin_of(margin: i32) -> Outcome {
        let margin = if margin > EVAL_LIMIT {
            EVAL_LIMIT
        } else if margin < -EVAL_LIMIT {
            -EVAL_LIMIT
        } else {
            margin
        };
        Outcome { margin }
    }

    /// The margin: positive for a win, negative for a loss, zero for a draw.
    #[inline]
    pub const fn margin(self) -> i32 {
        self.margin
    }

    /// The same ending seen by the other player.
    #[inline]
    pub const fn for_opponent(self) -> Outcome {
        Outcome {
            margin: -self.margin,
        }
    }

    /// The score searchers give this outcome by default: [`terminal_score`] of the margin, above
    /// every static evaluation for a win and below every one for a loss.
    #[inline]
    pub fn score(self) -> Score {
        terminal_score(self.margin)
    }

    /// The outcome as a payoff in `[0, 1]`: 1 for a win, ½ for a draw, 0 for a loss.
    #[inline]
    pub fn payoff(self) -> f64 {
        match self.margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    // Imported on purpose: a game type deriving `Hash` must still call `state_hash` unambiguously.
    #[allow(unused_imports)]
    use std::hash::Hash;

    use super::*;
    use crate::testing::{Nim, Pile};

    #[test]
    fn state_hash_does_not_clash_with_a_derived_std_hash() {
        let pile = Pile {
            stones: 3,
            to_move: 1,
        };
        assert_eq!(Nim.state_hash(&pile), Nim.state_hash(&pile.clone()));
        assert_ne!(Nim.state_hash(&pile), Nim.state_hash(&Nim.initial_state()));
    }

    #[test]
    fn margins_are_clamped_to_the_evaluation_limit_and_negate_without_overflow() {
        for (margin, clamped) in [
            (i32::MIN, -EVAL_LIMIT),
            (-EVAL_LIMIT - 1, -EVAL_LIMIT),
            (-EVAL_LIMIT, -EVAL_LIMIT),
            (-3, -3),
            (0, 0),
            (64, 64),
            (EVAL_LIMIT + 1, EVAL_LIMIT),
            (i32::MAX, EVAL_LIMIT),
        ] {
            let outcome = Outcome::margin_of(margin);
            assert_eq!(outcome.margin(), clamped, "{margin}");
            assert_eq!(outcome.for_opponent().margin(), -clamped, "{margin}");
            assert_eq!(outcome.for_opponent().for_opponent(), outcome);
            assert_eq!(outcome.score(), terminal_score(clamped));
        }
        assert_eq!(Outcome::WIN.for_opponent(), Outcome::LOSS);
        assert_eq!(Outcome::DRAW.for_opponent(), Outcome::DRAW);
    }

    #[test]
    fn payoffs_are_win_draw_loss_whatever_the_margin() {
        for (margin, payoff) in [(i32::MIN, 0.0), (-1, 0.0), (0, 0.5), (1, 1.0), (64, 1.0)] {
            let outcome = Outcome::margin_of(margin);
            assert_eq!(outcome.payoff(), payoff, "{margin}");
            assert_eq!(outcome.payoff() + outcome.for_opponent().payoff(), 1.0);
        }
    }
}

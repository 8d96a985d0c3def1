//! The shared vocabulary of gametree: what a game is, what an evaluation and a search are, and the
//! extension points through which algorithms plug into one another.
//!
//! Every algorithm and game crate of the workspace depends on this crate and on nothing else of the
//! workspace; composition (an α/β with forward-estimation pruning, a conspiracy-number player whose
//! leaves are evaluated by a shallow α/β) goes through these traits.
//!
//! # Should I be using this crate?
//! Depend on it directly if you implement a game or an algorithm for gametree; to *use* the library,
//! depend on the `gametree` facade, which re-exports this crate as `gametree::game`.
//!
//! # Contents
//! - [`Game`]: states and moves, copy-make or make/unmake as the game prefers, an optional hash.
//!   A game then says who moves and who wins in one of two ways:
//!   - [`ZeroSumGame`]: two players, one's gain the other's loss (side to move, [`Outcome`],
//!     moves; a player may move twice in a row). What most games implement, and all that every
//!     searcher needs.
//!   - [`GeneralGame`]: `n` players, simultaneous moves, a chance player, payoffs per player (General
//!     Game Playing). Every `ZeroSumGame` is one for free.
//! - [`Evaluator`]: static evaluation of games in progress from the side to move's view;
//!   [`FixedDepth`] turns any [`Searcher`] into one.
//! - [`Searcher`], [`Reset`], [`Limits`], [`SearchResult`], [`SearchStats`]: the contract of every
//!   algorithm.
//! - [`Score`], [`Bound`], [`NodeKind`], [`Cutoff`]: what a value means (exact, a lower or an upper
//!   bound, in the terms of the note *Minimax with α/β Pruning*; or an estimate); [`Scale`] and
//!   [`Reading`]: what a value says about the game at hand ("win by 2", "expected payoff 0.54").
//! - [`round`]: [`RoundGame`], a round of play as finite-domain variables and tables, for
//!   stochastic-constraint players (Koriche et al., 2016).
//! - [`hash`]: [`mix64`] and SplitMix64 for seeds, and the fast hashers of the workspace's tables.
//! - [`hooks`]: the α/β engine's extension points: [`ForwardPruning`], [`HorizonPolicy`],
//!   [`MoveOrdering`], and the games' [`Plausibility`] ([`StaticGain`] derives one from any
//!   evaluator).
//!
//! # Example: a game and its evaluation
//! ```
//! use game_trait::{Evaluator, Game, MoveList, Outcome, PlayerId, Score, ZeroSumGame};
//!
//! /// Take 1 or 2 stones from a pile; whoever takes the last stone wins.
//! struct Nim;
//!
//! #[derive(Clone, Copy, Debug)]
//! struct Pile {
//!     stones: u32,
//!     to_move: PlayerId,
//! }
//!
//! impl Game for Nim {
//!     type State = Pile;
//!     type Move = u32;
//!     fn initial_state(&self) -> Pile {
//!         Pile { stones: 7, to_move: 0 }
//!     }
//!     fn apply(&self, pile: &mut Pile, take: u32) -> Option<Pile> {
//!         Some(Pile { stones: pile.stones - take, to_move: 1 - pile.to_move })
//!     }
//! }
//!
//! impl ZeroSumGame for Nim {
//!     fn side_to_move(&self, pile: &Pile) -> PlayerId {
//!         pile.to_move
//!     }
//!     fn outcome(&self, pile: &Pile) -> Option<Outcome> {
//!         (pile.stones == 0).then_some(Outcome::LOSS) // the opponent took the last stone
//!     }
//!     fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
//!         moves.extend((1..=2).filter(|&take| take <= pile.stones));
//!     }
//! }
//!
//! /// Piles that are a multiple of 3 are lost for the side to move.
//! struct Modulo;
//! impl Evaluator<Nim> for Modulo {
//!     fn evaluate(&mut self, _: &Nim, pile: &Pile) -> Score {
//!         if pile.stones % 3 == 0 { -1 } else { 1 }
//!     }
//! }
//!
//! let over = Pile { stones: 0, to_move: 1 };
//! assert_eq!(Modulo.value(&Nim, &over), Outcome::LOSS.score()); // finished: scored by its outcome
//! assert!(Modulo.value(&Nim, &over) < -game_trait::EVAL_LIMIT);
//! assert_eq!(Modulo.value(&Nim, &Nim.initial_state()), 1); // in progress: evaluated
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod eval;
mod gain;
mod game;
mod general;
pub mod hash;
pub mod hooks;
mod reading;
pub mod round;
mod score;
mod search;
#[cfg(test)]
mod testing;

pub use eval::{Evaluator, FixedDepth, MarginOnly, OutcomeOnly};
pub use gain::StaticGain;
pub use game::{Game, MoveList, Outcome, PlayerId, ZeroSumGame, MOVES_INLINE};
pub use general::{ChanceList, GeneralGame, Turn};
pub use hash::mix64;
pub use hooks::{
    DepthHorizon, ForwardPruning, HorizonPolicy, MoveHints, MoveOrdering, NoOrdering, NoPruning,
    NoQuiescence, NoSelectivity, Plausibility, PruneContext, Quiescence, Selectivity, Step,
};
pub use reading::{Reading, Scale};
pub use round::RoundGame;
pub use score::{
    is_decisive, terminal_score, Bound, Cutoff, NodeKind, Score, EVAL_LIMIT, INFINITY, WIN,
};
pub use search::{Limits, Pace, Reset, SearchResult, SearchStats, Searcher};
pub use smallvec;

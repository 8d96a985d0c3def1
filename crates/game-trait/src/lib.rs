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
//! - [`Game`]: the rules of any game of the workspace (n players, simultaneous moves, a chance player,
//!   goal values), with copy-make or make/unmake as the game prefers; [`ZeroSumGame`], the two-player
//!   alternating view negamax needs.
//! - [`Evaluator`]: static evaluation from the side to move's view; [`FixedDepth`] turns any
//!   [`Searcher`] into one.
//! - [`Searcher`], [`Limits`], [`SearchResult`], [`SearchStats`]: the contract of every algorithm.
//! - [`Score`], [`Bound`], [`NodeKind`], [`Cutoff`]: what a value means, in the α/β seed's terms.
//! - [`hooks`]: the engine's extension points: [`ForwardPruning`], [`HorizonPolicy`],
//!   [`MoveOrdering`], and the games' [`Plausibility`].
//!
//! # Example: a game in a dozen lines
//! ```
//! use game_trait::{Evaluator, Game, MoveList, PlayerId, Score, Turn, ZeroSumGame};
//!
//! /// Take 1 or 2 from a pile; whoever takes the last stone wins.
//! struct Nim;
//! #[derive(Clone, Copy, Debug)]
//! struct Pile { stones: u32, mover: PlayerId }
//!
//! impl Game for Nim {
//!     type State = Pile;
//!     type Move = u32;
//!     fn players(&self) -> usize { 2 }
//!     fn initial_state(&self) -> Pile { Pile { stones: 7, mover: 0 } }
//!     fn turn(&self, s: &Pile) -> Turn {
//!         if s.stones == 0 { Turn::Over } else { Turn::Player(s.mover) }
//!     }
//!     fn legal_moves(&self, s: &Pile, _: PlayerId, moves: &mut MoveList<u32>) {
//!         moves.clear();
//!         moves.extend((1..=2).filter(|&n| n <= s.stones));
//!     }
//!     fn apply(&self, s: &mut Pile, take: u32) -> Option<Pile> {
//!         Some(Pile { stones: s.stones - take, mover: 1 - s.mover }) // copy-make
//!     }
//!     fn payoff(&self, s: &Pile, p: PlayerId) -> f64 {
//!         if p == s.mover { 0.0 } else { 1.0 } // the player to move at the end has lost
//!     }
//!     fn hash(&self, s: &Pile) -> u64 { (s.stones as u64) << 1 | s.mover as u64 }
//! }
//!
//! impl ZeroSumGame for Nim {
//!     fn side_to_move(&self, s: &Pile) -> PlayerId { s.mover }
//!     fn final_result(&self, _: &Pile) -> i32 { -1 }
//! }
//!
//! let mut moves = MoveList::new();
//! Nim.moves(&Nim.initial_state(), &mut moves);
//! assert_eq!(moves.as_slice(), &[1, 2]);
//! let mut eval = game_trait::OutcomeOnly;
//! let over = Pile { stones: 0, mover: 1 };
//! assert!(eval.evaluate(&Nim, &over) < -game_trait::EVAL_LIMIT);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod eval;
mod game;
pub mod hooks;
mod score;
mod search;

pub use eval::{Evaluator, FinalResult, FixedDepth, OutcomeOnly};
pub use game::{ChanceList, Game, MoveList, PlayerId, Turn, ZeroSumGame, MOVES_INLINE};
pub use hooks::{
    DepthHorizon, ForwardPruning, HorizonPolicy, MoveOrdering, NoOrdering, NoPruning, Plausibility,
    PruneContext, Step,
};
pub use score::{
    is_decisive, terminal_score, Bound, Cutoff, NodeKind, Score, EVAL_LIMIT, INFINITY, WIN,
};
pub use search::{Limits, SearchResult, SearchStats, Searcher};
pub use smallvec;

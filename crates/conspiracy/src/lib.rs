//! Conspiracy numbers on explicit minimax trees: the CAEV move selection of
//! Vu, Ishitobi, Terrillon and Iida, *Using Conspiracy Numbers for Improving Move Selection in Minimax
//! Game-Tree Search* (ICAART 2016), and the search it starts from, McAllester's *Conspiracy Number
//! Search* (Artificial Intelligence 35, 1988).
//!
//! # Should I use this crate?
//! If you want a minimax player whose move choice looks beyond the single minimax value — how many
//! leaves would have to be wrong for each other value to be the truth — or a best-first searcher that
//! grows the tree until the root value is stable. Everything works on any
//! [`ZeroSumGame`](game_trait::ZeroSumGame) with any [`Evaluator`](game_trait::Evaluator), including
//! a searcher used as one ([`FixedDepth`](game_trait::FixedDepth)); this crate depends on
//! `game-trait` only, so α/β comes from elsewhere (the `gametree` facade composes `search-core`).
//!
//! # Contents
//! | item | what |
//! |---|---|
//! | [`MinimaxTree`] | an explicit tree to a fixed depth, values from the root player's view |
//! | [`ConspiracyNumbers`], [`Grid`] | the conspiracy number of every grid value, one bottom-up pass |
//! | [`CaevConfig`], [`integrate`] | equation (6), the Conspiracy Adjusted Evaluation Value |
//! | [`CaevPlayer`] | the CN(x, y) player of Algorithms 1–2 (a [`Searcher`](game_trait::Searcher)) |
//! | [`Cns`], [`CnsConfig`] | McAllester's conspiracy number search (a [`Searcher`](game_trait::Searcher)) |
//!
//! # The formulas as implemented
//! Equations (1)–(6) of Vu et al., stated as this crate computes them from the paper's definitions.
//! `T` is a node with minimax value `m`, all values from the root player's view (MAX maximises).
//!
//! - **(1) leaves.** `CN(T, v) = 0` if the leaf already has the value, else 1 — or ∞ if the leaf is a
//!   finished game ("its value cannot be changed").
//! - **(2), (3) MAX nodes.** To rise (`v > m`) one child suffices: `min` over children; to fall
//!   (`v < m`) every child must: `Σ` over children.
//! - **(4), (5) MIN nodes.** The reverse: rise `Σ`, fall `min`.
//! - **Which `v`?** "Rise to at least `v`" for `v > m`, "fall to at most `v`" for `v < m`; for every
//!   `v ≠ m` this equals the number needed to make the value *exactly* `v` (proved in
//!   [`ConspiracyNumbers`]' docs and checked against both brute forces). Between leaf values the
//!   numbers are constant; they are 0 only at `m` and never decrease away from `m` (section 3.1).
//! - **(6) CAEV** `= ∫ x / CN(x) dx ÷ ∫ 1 / CN(x) dx` over `[m − RANGE, m + RANGE]`, `CN(m)` taken as
//!   1 (Figure 4), ∞ as weight 0, integrated over segments of STEP with `1/CN` linear inside each (the
//!   appendix's `intgr`). Algorithm 3 as printed returns only the denominator's sum; we return the
//!   ratio, equation (6).
//!
//! # Parameters and defaults
//! | parameter | default | meaning |
//! |---|---|---|
//! | RANGE ([`CaevConfig`]) | the evaluation's unit (required) | half-width of the CAEV window: the paper's 1000 is "1 corner stone" in EV1/EV2 |
//! | STEP ([`CaevConfig`]) | the largest divisor of RANGE up to RANGE / 20 (1000: 50) | segment length of the CAEV integral |
//! | `x` ([`CaevPlayer`]) | — | depth of the explicit layer; ≥ 1 (CN(0, y) is α/β itself) |
//! | `y` ([`CaevPlayer::layered`]) | — | depth of the α/β searches at the layer's leaves |
//! | W ([`CnsConfig`]) | 1 | CNS stops when the likely root values span less than W |
//! | T ([`CnsConfig`]) | 1 | a value is unlikely when more than T leaves must conspire for it |
//!
//! # Complexity
//! CN(x, y) builds a layer of `O(b^x)` nodes for branching `b` and evaluates each of its leaves once
//! (with `y > 0`, one α/β search of depth `y` per leaf); then, per root child, one conspiracy-number
//! pass over the child's subtree for the `2 · RANGE / STEP + 1` grid values, `O(nodes · grid)`
//! ([`ConspiracyNumbers`]). Memory is the layer. [`Cns`] documents its own cost per expansion.
//!
//! # Example
//! A take-away game, searched by CN(3, 0) with a static evaluation whose unit (one clear
//! advantage) is 100 (the facade builds CN(x, y) with search-core's α/β as
//! `CaevPlayer::layered(alpha_beta, x, y, unit)`). The value a CN player reports is a CAEV, an
//! estimate ([`Bound::Estimate`](game_trait::Bound::Estimate)), not a minimax value:
//!
//! ```
//! use conspiracy::{CaevConfig, CaevPlayer, Cns, CnsConfig};
//! use game_trait::{Evaluator, Game, Limits, MoveList, Outcome, PlayerId, Score, Searcher, ZeroSumGame};
//!
//! /// Take 1, 2 or 3 stones; whoever takes the last stone wins.
//! struct TakeAway;
//! #[derive(Clone, Copy, Debug)]
//! struct Pile { stones: u32, mover: PlayerId }
//!
//! impl Game for TakeAway {
//!     type State = Pile;
//!     type Move = u32;
//!     fn initial_state(&self) -> Pile { Pile { stones: 10, mover: 0 } }
//!     fn apply(&self, s: &mut Pile, take: u32) -> Option<Pile> {
//!         Some(Pile { stones: s.stones - take, mover: 1 - s.mover })
//!     }
//! }
//! impl ZeroSumGame for TakeAway {
//!     fn side_to_move(&self, s: &Pile) -> PlayerId { s.mover }
//!     fn outcome(&self, s: &Pile) -> Option<Outcome> {
//!         (s.stones == 0).then_some(Outcome::LOSS) // the opponent took the last stone
//!     }
//!     fn moves(&self, s: &Pile, moves: &mut MoveList<u32>) {
//!         moves.extend((1..=3).filter(|&n| n <= s.stones));
//!     }
//! }
//!
//! /// Piles that are multiples of 4 are lost for the side to move.
//! struct Heuristic;
//! impl Evaluator<TakeAway> for Heuristic {
//!     fn evaluate(&mut self, _: &TakeAway, s: &Pile) -> Score {
//!         if s.stones % 4 == 0 { -100 } else { 100 }
//!     }
//! }
//!
//! let game = TakeAway;
//! let start = game.initial_state();
//! let mut cn = CaevPlayer::new(Heuristic, 3, 100)?;
//! assert_eq!(cn.caev_config(), CaevConfig::new(100, 5)?); // RANGE = unit, STEP = 5
//! let result = cn.search(&game, &start, &Limits::none());
//! assert_eq!(result.best_move, Some(2)); // leave 8 stones
//! assert_eq!(result.bound, game_trait::Bound::Estimate);
//!
//! let mut cns = Cns::new(Heuristic, CnsConfig::default());
//! let result = cns.search(&game, &start, &Limits::none().with_nodes(100_000));
//! assert_eq!(result.best_move, Some(2));
//! assert!(result.value > 0);
//! # Ok::<(), conspiracy::ConspiracyError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod caev;
mod cns;
mod error;
mod numbers;
mod player;
mod tree;

#[cfg(test)]
mod testing;

pub use caev::{integrate, CaevConfig};
pub use cns::{Cns, CnsConfig, CnsOutcome, StopReason};
pub use error::ConspiracyError;
pub use numbers::{Cn, ConspiracyNumbers, Grid, CN_INFINITE, MAX_GRID, MAX_RANGE};
pub use player::{Analysis, CaevPlayer, ChildValue};
pub use tree::{BuildStats, MinimaxTree, Node, NodeId, Side};

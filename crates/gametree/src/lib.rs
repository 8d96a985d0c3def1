//! gametree: reusable game-tree search. This crate is the thin facade over the workspace's crates:
//! it re-exports each one as a module behind a cargo feature, and adds what needs more than one of
//! them — the registry of games and searchers by name, the exact Othello endgame solver, and the
//! reproductions of the papers' experiments.
//!
//! # Should I be using this crate?
//! Yes, unless you want one piece alone: every algorithm and game also stands as its own crate
//! depending only on [`game_trait`] (re-exported here as [`game`]), so a user who wants just the
//! Othello bitboards or the GDL reasoner can depend on that crate and nothing else.
//!
//! # Modules and features (all on by default)
//! | module | crate | feature | what it is |
//! |---|---|---|---|
//! | [`game`] | `game-trait` | — | `Game`, `ZeroSumGame`, `Evaluator`, `Searcher`, `Limits`, the hooks |
//! | `search` | `search-core` | `search` | Minimax, AlphaBeta (PVS, ID, TT), UCT, perft, match runner |
//! | `othello` | `othello-bitboard` | `othello` | Othello bitboards, perft, EV1/EV2, endgame hooks |
//! | `random_tree` | `random-tree` | `random-tree` | Korf–Pemberton–Zhang incremental random trees |
//! | `forward_estimation` | `forward-estimation` | `forward-estimation` | Zhang's forward-estimation pruning |
//! | `interest_search` | `interest-search` | `interest-search` | Rollason's iterate-by-interest horizon |
//! | `conspiracy` | `conspiracy` | `conspiracy` | conspiracy numbers, CAEV (Vu et al.), McAllester's CNS |
//! | `gdl` | `gdl` | `gdl` | Game Description Language: parser, validator, reasoners, games |
//! | `othello_solve` | (composition) | `othello` + `search` | exact endgame solver: PVS + TT + Othello hooks |
//! | `registry`, `games`, [`spec`] | (composition) | `search` | games and searchers by name (`pvs:depth=8`) |
//!
//! # Example: compose a searcher and run it
//! An α/β whose subtrees are pruned by forward estimation with the tree's exact edge-cost bounds,
//! on one of Zhang's incremental random trees, checked against the minimax oracle:
//! ```
//! # #[cfg(all(feature = "search", feature = "random-tree", feature = "forward-estimation"))] {
//! use gametree::prelude::*;
//! use gametree::forward_estimation::{EdgeBounds, ForwardEstimation};
//! use gametree::random_tree::{NodeCost, RandomTree, RandomTreeConfig};
//!
//! let tree = RandomTree::new(RandomTreeConfig::random(5, 8).with_seed(42))?;
//! let root = tree.initial_state();
//! let (l, u) = tree.exact_edge_bounds();
//!
//! let mut fe = AlphaBeta::new(NodeCost)
//!     .with_config(AlphaBetaConfig::alpha_beta(8))
//!     .with_pruning(ForwardEstimation::new(EdgeBounds::Exact { l, u }));
//! let pruned = fe.search(&tree, &root, &Limits::none());
//!
//! let oracle = Minimax::new(NodeCost, 8).search(&tree, &root, &Limits::none());
//! assert_eq!(pruned.value, oracle.value); // Zhang's guarantee with exact bounds and δ = 1
//! assert!(pruned.stats.generated < oracle.stats.generated);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same by name, as the `gametree` CLI does it:
//! ```
//! # #[cfg(all(feature = "search", feature = "othello"))] {
//! use gametree::games::{GameChoice, GameVisitor};
//! use gametree::prelude::*;
//! use gametree::registry::Registered;
//!
//! struct BestMove(&'static str);
//! impl GameVisitor for BestMove {
//!     type Output = Option<String>;
//!     fn visit<G: Registered>(self, game: &G, root: &G::State) -> Option<String> {
//!         let mut searcher = game.searcher(&mut self.0.parse().ok()?).ok()?;
//!         let result = searcher.search(game, root, &Limits::none());
//!         result.best_move.map(|m| game.move_name(root, m))
//!     }
//! }
//! let othello = GameChoice::parse("othello:moves=f5d6")?;
//! let best = othello.visit(BestMove("pvs:depth=4,eval=ev2,tt=1mb"));
//! assert!(best.is_some());
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

#[cfg(feature = "conspiracy")]
pub use conspiracy;
#[cfg(feature = "forward-estimation")]
pub use forward_estimation;
pub use game_trait as game;
#[cfg(feature = "gdl")]
pub use gdl;
#[cfg(feature = "interest-search")]
pub use interest_search;
#[cfg(feature = "othello")]
pub use othello_bitboard as othello;
#[cfg(feature = "random-tree")]
pub use random_tree;
#[cfg(feature = "search")]
pub use search_core as search;

#[cfg(feature = "search")]
pub mod games;
#[cfg(all(feature = "othello", feature = "search"))]
pub mod othello_solve;
#[cfg(feature = "search")]
pub mod registry;
pub mod spec;

/// The README's Rust example, compiled and run as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The names most programs need: the game-trait vocabulary and search-core's searchers.
pub mod prelude {
    pub use game_trait::{
        Bound, Evaluator, Game, GeneralGame, Limits, MoveList, Outcome, PlayerId, Reset, Score,
        SearchResult, SearchStats, Searcher, Turn, ZeroSumGame,
    };
    #[cfg(feature = "search")]
    pub use search_core::{AlphaBeta, AlphaBetaConfig, Minimax, Uct, UctConfig};
}

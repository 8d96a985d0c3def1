//! gametree: reusable game-tree search. Write your game's rules once; search it with negamax α/β
//! that reports whether its value is exact or a bound, principal variation search with a
//! transposition table, Monte Carlo tree search, and the algorithms of five papers that plug into
//! the one engine: forward estimation (Zhang 1995), conspiracy numbers and CAEV (Vu et al. 2016;
//! McAllester 1988), interest search (Rollason 2014), and any game written in the Game Description
//! Language.
//!
//! This crate is the facade: it re-exports each crate of the family as a module behind a cargo
//! feature and adds the compositions a user calls by name: the [registry] of searchers and games,
//! and the [`Kit`](kit::Kit) that builds any of them for your game from a spec such as
//! `pvs:depth=8`.
//!
//! # Should I be using this crate?
//! Yes, to search a game of your own or one of ours. Every algorithm and game also stands as its own
//! crate depending only on [`game_trait`] (here [`game`]): depend on one of those alone if that is
//! all you need (only the Othello bitboards, only the GDL reasoner).
//!
//! # Your own game in a few lines
//! A two-player game states who moves, how a finished game ended and the legal moves; everything
//! else is derived. Tic-tac-toe, solved by PVS and played by UCT:
//! ```
//! # #[cfg(feature = "search")] {
//! use gametree::prelude::*;
//!
//! struct TicTacToe;
//! #[derive(Clone, Copy, Debug, Default)]
//! struct Board { cells: [u8; 9], to_move: u8 } // 0 empty, 1 and 2 the players' marks
//!
//! impl Game for TicTacToe {
//!     type State = Board;
//!     type Move = usize; // the cell
//!     fn initial_state(&self) -> Board {
//!         Board::default()
//!     }
//!     fn apply(&self, board: &mut Board, cell: usize) -> Option<Board> {
//!         let mut next = *board;
//!         next.cells[cell] = board.to_move + 1;
//!         next.to_move = 1 - board.to_move;
//!         Some(next)
//!     }
//! }
//!
//! impl ZeroSumGame for TicTacToe {
//!     fn side_to_move(&self, board: &Board) -> PlayerId {
//!         board.to_move.into()
//!     }
//!     fn outcome(&self, board: &Board) -> Option<Outcome> {
//!         let c = board.cells;
//!         let lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
//!         if lines.iter().any(|&[a, b, d]| c[a] != 0 && c[a] == c[b] && c[b] == c[d]) {
//!             Some(Outcome::LOSS) // the player who just moved made a line
//!         } else if c.iter().all(|&v| v != 0) {
//!             Some(Outcome::DRAW)
//!         } else {
//!             None
//!         }
//!     }
//!     fn moves(&self, board: &Board, moves: &mut MoveList<usize>) {
//!         moves.extend((0..9).filter(|&i| board.cells[i] == 0));
//!     }
//! }
//!
//! let (game, start) = (TicTacToe, TicTacToe.initial_state());
//! // Only finished games have values: every other position is worth 0.
//! let mut pvs = AlphaBeta::new(gametree::game::OutcomeOnly).with_config(AlphaBetaConfig::pvs(9));
//! let solved = pvs.search(&game, &start, &Limits::none());
//! assert_eq!((solved.value, solved.bound), (0, Bound::Exact)); // perfect play draws
//!
//! let mut uct = Uct::new(UctConfig { simulations: 2_000, ..UctConfig::default() });
//! let reply = uct.search(&game, &start, &Limits::none()).best_move;
//! assert!(reply.is_some_and(|cell| cell < 9));
//! # }
//! ```
//! The same searchers by name, with [`Kit`](kit::Kit): `Kit::new(eval, unit).searcher(&game,
//! "pvs:depth=9")`; `examples/connect_four.rs` composes all five families on Connect Four, and
//! `docs/your-own-game.md` is the guide.
//!
//! # Modules and features (all on by default)
//! | module | crate | feature | what it is |
//! |---|---|---|---|
//! | [`game`] | `game-trait` | — | `Game`, `ZeroSumGame`, `GeneralGame`, `Evaluator`, `Searcher`, `Limits`, the engine's hooks |
//! | `search` | `search-core` | `search` | Minimax, AlphaBeta (PVS, iterative deepening, table), UCT, perft, match runner |
//! | `othello` | `othello-bitboard` | `othello` | Othello bitboards, perft, EV1/EV2, endgame hooks |
//! | `othello_solve` | `othello-solve` | `othello` | exact endgame solver: PVS + table + Othello hooks, MTD(f) at the root |
//! | `random_tree` | `random-tree` | `random-tree` | Korf–Pemberton–Zhang incremental random trees |
//! | `forward_estimation` | `forward-estimation` | `forward-estimation` | Zhang's forward-estimation pruning |
//! | `interest_search` | `interest-search` | `interest-search` | Rollason's iterate-by-interest horizon |
//! | `conspiracy` | `conspiracy` | `conspiracy` | conspiracy numbers, CAEV (Vu et al.), McAllester's CNS |
//! | `gdl` | `gdl` | `gdl` | Game Description Language: parser, validator, reasoners, games |
//! | `scsp` | `scsp-mac-ucb` | `scsp` | stochastic constraint networks, MAC + FC, the MAC-UCB / FC-UCB players |
//! | [`spec`] | (this crate) | — | the one grammar of specs: `name:key=value,…` |
//! | `registry`, `kit`, `games` | (this crate) | `search` | searchers and games by name, for your game or ours |
//!
//! # What every searcher shares
//! - [`Searcher::search`](game_trait::Searcher::search) takes the game, a state and
//!   [`Limits`](game_trait::Limits) (depth, nodes, deadline, stop flag) and returns a
//!   [`SearchResult`](game_trait::SearchResult): the move, the value from the side to move's view
//!   with its [`Bound`](game_trait::Bound) (exact, lower, upper, or an estimate), the principal variation and
//!   [`SearchStats`](game_trait::SearchStats) (nodes generated, the papers' measure).
//! - Every random choice flows from a seed in the searcher's configuration: same seed, same
//!   search, on every machine.
//! - [`Reset::reset`](game_trait::Reset::reset) forgets what earlier searches learned (the
//!   table, history); searchers otherwise keep it from one search to the next.
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
#[cfg(feature = "othello")]
pub use othello_solve;
#[cfg(feature = "random-tree")]
pub use random_tree;
#[cfg(feature = "scsp")]
pub use scsp_mac_ucb as scsp;
#[cfg(feature = "search")]
pub use search_core as search;

#[cfg(feature = "search")]
pub mod games;
#[cfg(feature = "search")]
pub mod kit;
#[cfg(feature = "search")]
pub mod registry;
pub mod spec;

/// The names most programs need: the game-trait vocabulary and search-core's searchers.
pub mod prelude {
    pub use game_trait::{
        Bound, Evaluator, Game, GeneralGame, Limits, MoveList, Outcome, PlayerId, Reset, Score,
        SearchResult, SearchStats, Searcher, Turn, ZeroSumGame,
    };
    #[cfg(feature = "search")]
    pub use search_core::{AlphaBeta, AlphaBetaConfig, Minimax, Uct, UctConfig};
}

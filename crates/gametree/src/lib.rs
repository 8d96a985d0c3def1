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
//! "pvs:depth=9")`; `examples/connect_four.rs` searches Connect Four with every family, by name and
//! composed in code, `examples/dots_and_boxes.rs` is a game where a player moves twice in a row,
//! and `docs/your-own-game.md` is the guide. [`prelude`] holds the names those programs use.
//!
//! # Modules and features (all on by default)
//! Each crate of the family is a module of this one, documented here in full (`cargo doc -p
//! gametree` shows them all, with `--no-deps` too).
//!
//! | module | crate | feature | what it is |
//! |---|---|---|---|
//! | [`game`] | `game-trait` | — | `Game`, `ZeroSumGame`, `GeneralGame`, `Evaluator`, `Searcher`, `Limits`, the engine's hooks, reading a value |
//! | [`search`] | `search-core` | `search` | Minimax, AlphaBeta (PVS, iterative deepening, table, Lazy SMP), MTD(f), UCT, perft, match runner |
//! | [`othello`] | `othello-bitboard` | `othello` | Othello bitboards, perft, EV1/EV2, endgame hooks |
//! | [`othello_solve`] | `othello-solve` | `othello` | exact endgame solver: PVS + table + Othello hooks, MTD(f) at the root |
//! | [`chess`] | `gametree-chess` | `chess` | chess on cozy-chess: FEN, draw rules, PeSTO evaluation, ordering, quiescence and selectivity hooks, Treebeard's interest terms, perft, UCI |
//! | [`random_tree`] | `random-tree` | `random-tree` | Korf–Pemberton–Zhang incremental random trees |
//! | [`forward_estimation`] | `forward-estimation` | `forward-estimation` | Zhang's forward-estimation pruning |
//! | [`interest_search`] | `interest-search` | `interest-search` | Rollason's iterate-by-interest horizon |
//! | [`conspiracy`] | `conspiracy` | `conspiracy` | conspiracy numbers, CAEV (Vu et al.), McAllester's CNS |
//! | [`gdl`] | `gdl` | `gdl` | Game Description Language: parser, validator, reasoners, games |
//! | [`scsp`] | `scsp-mac-ucb` | `scsp` | stochastic constraint networks, MAC + FC, the MAC-UCB / FC-UCB players |
//! | [`spec`] | (this crate) | — | the one grammar of specs: `name:key=value,…` |
//! | [`registry`], [`kit`], [`games`] | (this crate) | `search` | searchers and games by name, for your game or ours |
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
//! - A value is on its searcher's [`Scale`](game_trait::Scale): an evaluation with finished games
//!   in a band of their own, final margins, or a mean payoff (UCT). [`Scale::read`](game_trait::Scale::read)
//!   turns it into "win by 2", "draw", "ahead by 1.50 units" or "expected payoff 0.543", and a
//!   searcher built by name carries its scale ([`Built::read`](kit::Built::read)).
#![deny(missing_docs)]

// The crates of the family, inlined: `cargo doc -p gametree --no-deps` documents each one in full
// as a module of this crate, its own crate docs as the module's.
#[cfg(feature = "conspiracy")]
#[doc(inline)]
pub use conspiracy;
#[cfg(feature = "forward-estimation")]
#[doc(inline)]
pub use forward_estimation;
#[doc(inline)]
pub use game_trait as game;
#[cfg(feature = "chess")]
#[doc(inline)]
pub use gametree_chess as chess;
#[cfg(feature = "gdl")]
#[doc(inline)]
pub use gdl;
#[cfg(feature = "interest-search")]
#[doc(inline)]
pub use interest_search;
#[cfg(feature = "othello")]
#[doc(inline)]
pub use othello_bitboard as othello;
#[cfg(feature = "othello")]
#[doc(inline)]
pub use othello_solve;
#[cfg(feature = "random-tree")]
#[doc(inline)]
pub use random_tree;
#[cfg(feature = "scsp")]
#[doc(inline)]
pub use scsp_mac_ucb as scsp;
#[cfg(feature = "search")]
#[doc(inline)]
pub use search_core as search;

#[cfg(feature = "search")]
pub mod games;
#[cfg(feature = "search")]
pub mod kit;
#[cfg(feature = "search")]
pub mod registry;
pub mod spec;

/// The names most programs need: the game-trait vocabulary (a game, its evaluation and hooks, a
/// search's limits and result, and how to read a value), search-core's searchers and match runner,
/// and the [`Kit`](kit::Kit) that builds any searcher by name.
///
/// ```
/// # #[cfg(feature = "search")] {
/// use gametree::prelude::*;
/// use gametree::search::{ExplicitTree, LeafValue};
///
/// let tree = ExplicitTree::random(2, 5, 3);
/// let root = tree.initial_state();
/// let engine = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::pvs(5) });
/// let mut mtdf = Mtdf::new(engine);
/// let oracle = Minimax::new(LeafValue, 5).search(&tree, &root, &Limits::none());
/// assert_eq!(mtdf.search(&tree, &root, &Limits::none()).value, oracle.value);
///
/// // By name, and a short match against UCT with colours swapped.
/// let kit = Kit::new(LeafValue, 10);
/// let mut pvs = kit.searcher(&tree, "pvs:depth=4,tt=1mb")?;
/// let mut uct = kit.searcher(&tree, "uct:sims=200")?;
/// let config = MatchConfig { games: 1, ..MatchConfig::default() };
/// let report = play_match(&tree, &mut pvs, &mut uct, &config, &mut |_, _| {});
/// assert_eq!(report.games, 2);
/// // What a value says: leaf values are small integers, 10 a clear advantage.
/// assert_eq!(Scale::Evaluation { unit: 10 }.read(15), Reading::Ahead { units: 1.5 });
/// # }
/// # Ok::<(), gametree::spec::SpecError>(())
/// ```
pub mod prelude {
    #[cfg(feature = "search")]
    pub use crate::kit::Kit;
    pub use game_trait::{
        Bound, Evaluator, FixedDepth, Game, GeneralGame, Limits, MarginOnly, MoveList,
        MoveOrdering, Outcome, OutcomeOnly, Plausibility, PlayerId, Reading, Reset, Scale, Score,
        SearchResult, SearchStats, Searcher, Turn, ZeroSumGame,
    };
    #[cfg(feature = "search")]
    pub use search_core::arena::{play_match, MatchConfig};
    #[cfg(feature = "search")]
    pub use search_core::{AlphaBeta, AlphaBetaConfig, Minimax, Mtdf, Uct, UctConfig};
}

#[cfg(test)]
mod tests {
    /// Every crate of the family is re-exported inline, so that `cargo doc -p gametree --no-deps`
    /// documents it in full as a module of this crate, not as a bare `pub use` line.
    #[test]
    fn every_crate_of_the_family_is_documented_inline() {
        let lines: Vec<&str> = include_str!("lib.rs").lines().collect();
        let crates: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("pub use ") && !lines[i].contains("::"))
            .collect();
        assert!(crates.len() >= 10, "{} crates re-exported", crates.len());
        for i in crates {
            let attributes = lines[..i].iter().rev().take_while(|l| l.starts_with("#["));
            let inline = attributes.into_iter().any(|l| *l == "#[doc(inline)]");
            assert!(inline, "`{}` is not documented inline", lines[i]);
        }
    }
}

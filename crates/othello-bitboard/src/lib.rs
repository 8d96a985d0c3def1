//! Othello on bitboards: a fast, exact implementation of the game for gametree's searchers, with
//! perft, the evaluation functions of the conspiracy-numbers paper, and the Othello-specific parts of
//! an exact endgame solver.
//!
//! # Should I be using this crate?
//! Depend on it to search Othello with any gametree algorithm (it implements game-trait's [`Game`]
//! and [`ZeroSumGame`](game_trait::ZeroSumGame)), to read FFO/OBF endgame suites, or for a fast move
//! generator. To *solve* endgames, use the `gametree` facade (`gametree::othello_solve`), which
//! composes this crate's hooks with search-core's α/β engine; this crate depends on game-trait only.
//!
//! # Contents
//! - Rules: [`Board`] (two bitboards), [`Position`] (board, colour to move, cached legal squares),
//!   [`Othello`] (the [`Game`]), [`Move`] and [`Square`], [`Symmetry`] (the 8 board symmetries),
//!   the transposition [`hash`].
//! - Text: square names `a1`..`h8`, move sequences ([`parse_moves`], [`Position::play_moves`]), the
//!   board diagram (`Display`), the [`obf`] format of the FFO suites; errors are [`OthelloError`].
//! - [`perft()`]: bulk-counting perft, with run-time CPU-feature dispatch.
//! - [`eval`]: EV1 and EV2 of Vu et al. ([`Ev1`], [`Ev2`], [`Features`]).
//! - Endgame hooks: [`FastestFirst`] move ordering, [`EndgameHorizon`], [`ExactEvaluator`].
//! - [`OthelloPlausibility`]: move interest for Rollason's interest search.
//! - [`NullMoves`]: where a null move is offered, for the α/β engine's null-move pruning.
//! - Seeded random playouts: [`random_position`], [`random_game`].
//!
//! # Board layout
//! Bit `i` of a `u64` is square `i`: `a1` = 0 is the top-left corner, `h1` = 7, `a2` = 8, `h8` = 63
//! (files `a`..`h` left to right, ranks `1`..`8` top to bottom, as the OBF strings list them). A
//! [`Board`] holds the discs of the player to move and of the opponent, not of black and white:
//! the rules are colour-symmetric, so the move generator and the solver never look at colours, and
//! making a move is `(opponent ^ flipped, player ^ flipped ^ square)`. [`Position`] adds the colour
//! to move (needed for [`GeneralGame::payoff`] and display) and caches the legal squares, because every
//! searcher asks for them at every node.
//!
//! # Move generation
//! Legal squares ([`board::moves`]) by parallel-prefix shifts in the style of Kogge and Stone (*A
//! Parallel Algorithm for the Efficient Solution of a General Class of Recurrence Equations*,
//! 1973): for each of the 4 line directions (both ways at once), runs of opponent discs adjacent to
//! a player disc are grown with two single shifts and two doubling shifts (a run has at most 6
//! discs); the empty square beyond a run is a move. Opponent discs on the edges perpendicular to a
//! direction are masked out first, which both reflects the rules (such a disc cannot be inside a
//! flipped line) and stops shifts wrapping from one rank into the next. No branches, no tables.
//!
//! Flips ([`board::flips`]) by ray scanning with bit isolation: along each of the 8 rays from the
//! square (precomputed masks) the first square that is not an opponent disc is the ray's lowest set
//! bit of `ray & !opponent` (`x & -x`, rays towards higher bits) or its highest (a leading-zero count,
//! rays towards lower bits); if it holds a player disc, the squares before it are flipped. Branch-free
//! apart from the unrolled loop over the rays.
//!
//! Both are tested against a square-by-square reference on random and dense boards (quickcheck), and
//! perft reproduces the standard counts from the start (4, 12, 56, 244, 1396, 8200, 55092, 390216,
//! 3005288, 24571284, 212258800 for depths 1 to 11: the gametree repository's tests check both
//! builds to depth 11 against its `testdata/perft.toml`; an independent array-based generator
//! confirms them: `cargo run --release -p othello-bitboard --example perft -- 11 --mailbox`).
//!
//! **CPU features.** The baseline x86-64 target has no `popcnt` or `lzcnt` instruction. [`perft()`],
//! [`endgame::solve_exact`] and [`FastestFirst::key`] are also compiled with
//! `popcnt,lzcnt,bmi1,bmi2,avx2` and chosen at run time when the CPU has them; the portable builds
//! ([`perft_portable`], [`endgame::solve_window_portable`]) are tested to agree. The dispatched
//! build counts about twice as fast (timings in the repository's `docs/reproductions.md`, "Perft").
//!
//! # Evaluation (Vu et al., ICAART 2016, Algorithms 4 and 5)
//! ```text
//! EV1 = 1000·corners + 100·mobility − 200·next_to_corners − 100·frontier + 1·discs
//! EV2 = 1000·corners + 100·mobility + 1·discs
//! ```
//! Every feature is a difference, side to move minus opponent: corners = discs on the 4 corners;
//! mobility = legal squares; next_to_corners = discs on the C and X squares adjacent to an **empty**
//! corner; frontier = discs 8-adjacent to at least one empty square; discs = disc count. The paper
//! names the features only in words; the [`eval`] module gives the exact reading and why, and the
//! tests check hand-computed positions, a square-by-square recount and invariance under the 8
//! symmetries. Searchers score finished games through
//! [`Evaluator::terminal`](game_trait::Evaluator::terminal), by default
//! [`terminal_score`](game_trait::terminal_score) of the final disc difference.
//!
//! # Endgame solver design
//! An exact solve is search-core's generic α/β (principal variation search, transposition table)
//! with three Othello hooks from this crate:
//! - [`FastestFirst`] orders moves by the opponent's number of replies (fewest first), with bonuses
//!   for corners and, in the endgame, for moving into a quadrant with an odd number of empties
//!   (parity); the engine puts the table move first.
//! - [`EndgameHorizon`] makes every position with at most 7 empty squares
//!   ([`endgame::DEFAULT_EXACT_EMPTIES`]) a leaf.
//! - [`ExactEvaluator`] solves those leaves with specialised code in the engine's (usually null)
//!   window: fastest-first on the stack above 5 empties, parity order below, a stability cutoff
//!   ([`stability`]), no move lists or table, the last square solved by counting flips. Below about
//!   7 empties the generic engine's per-node machinery costs more than the work it organises; the
//!   [`endgame`] module explains where the line is and why.
//!
//! The facade's solver (`gametree::othello_solve`) drives the root with MTD(f) null-window probes
//! on the even final scores, from a first guess made by a narrow search (3 moves per node).
//! Values are final disc differences with the empty squares going to the winner (the FFO and Edax
//! convention), from the side to move's point of view. The solver is
//! tested against brute-force minimax on hundreds of seeded random positions and against the FFO
//! scores.
//!
//! # Example: a game between two searchers
//! ```
//! use game_trait::{
//!     Evaluator, Game, GeneralGame, Limits, MoveList, Reset, SearchResult, Searcher, ZeroSumGame,
//! };
//! use othello_bitboard::{Ev1, Ev2, Othello, Position};
//!
//! /// Plays the move whose child the evaluator likes best (one ply of negamax).
//! struct Greedy<E>(E);
//!
//! impl<E: Evaluator<Othello>> Searcher<Othello> for Greedy<E> {
//!     fn search(&mut self, game: &Othello, state: &Position, _: &Limits) -> SearchResult<othello_bitboard::Move> {
//!         let mut result = SearchResult::leaf(self.0.value(game, state));
//!         if game.outcome(state).is_some() {
//!             return result;
//!         }
//!         let mut moves = MoveList::new();
//!         game.moves(state, &mut moves);
//!         for &mv in &moves {
//!             let value = -self.0.value(game, &state.play_legal(mv));
//!             if result.best_move.is_none() || value > result.value {
//!                 (result.best_move, result.value) = (Some(mv), value);
//!             }
//!         }
//!         result
//!     }
//! }
//! impl<E> Reset for Greedy<E> {}
//!
//! let (mut black, mut white) = (Greedy(Ev1), Greedy(Ev2));
//! let mut position = Othello.initial_state();
//! let mut record = Vec::new();
//! while let Some(mv) = {
//!     let searcher: &mut dyn Searcher<Othello> = if position.side().id() == 0 { &mut black } else { &mut white };
//!     searcher.search(&Othello, &position, &Limits::none()).best_move
//! } {
//!     record.push(mv);
//!     position = position.play_legal(mv);
//! }
//! assert!(position.is_game_over());
//! println!("{}\n{}", othello_bitboard::format_moves(&record), position);
//! let margin = Othello.outcome(&position).expect("the game is over").margin();
//! println!("black {:+}", margin * if position.side().id() == 0 { 1 } else { -1 });
//! assert_eq!(Othello.payoff(&position, 0) + Othello.payoff(&position, 1), 1.0);
//! ```
//!
//! [`Game`]: game_trait::Game
//! [`GeneralGame::payoff`]: game_trait::GeneralGame::payoff
#![deny(missing_docs)]

pub mod board;
pub mod endgame;
mod error;
pub mod eval;
mod game;
pub mod hash;
mod last_flip;
mod null_move;
pub mod obf;
pub mod ordering;
pub mod perft;
mod plausibility;
mod position;
mod random;
mod square;
pub mod stability;
pub mod symmetry;
pub mod text;

pub use board::Board;
pub use endgame::{EndgameHorizon, ExactEvaluator};
pub use error::OthelloError;
pub use eval::{Ev1, Ev2, Features};
pub use game::Othello;
pub use null_move::NullMoves;
pub use obf::{parse_obf, read_obf, ObfPosition};
pub use ordering::FastestFirst;
pub use perft::{perft, perft_portable};
pub use plausibility::{OthelloPlausibility, SquareClass};
pub use position::{squares, Color, Position};
pub use random::{random_game, random_move, random_position};
pub use square::{Move, Square};
pub use stability::stable_discs;
pub use symmetry::Symmetry;
pub use text::{format_moves, parse_moves};

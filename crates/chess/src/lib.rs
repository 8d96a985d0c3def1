//! Chess for gametree: the rules on the `cozy-chess` move generator behind game-trait's
//! [`Game`](game_trait::Game) and [`ZeroSumGame`](game_trait::ZeroSumGame), so that every searcher
//! of the workspace plays chess, with the chess-specific hooks of search-core's α/β engine, the
//! interest terms of Rollason's Treebeard, perft, and a UCI engine driver.
//!
//! # Should I be using this crate?
//! Depend on it to search chess with gametree's algorithms, to test a search enhancement on the
//! game most of them were designed for (null moves, late-move reductions, singular and check
//! extensions, interest search), or to put a gametree searcher behind a chess GUI through UCI.
//! It depends on game-trait only among gametree's crates: compose it with search-core's engine
//! yourself, or use the `gametree` facade, where it is the game `chess` (`chess:fen=…`) and
//! `gametree uci` is the engine. It is not a strong engine: the evaluation is piece-square
//! tables only, and the search is the generic one. For a move generator alone, use
//! [`cozy_chess`] (re-exported here as [`cozy`]) directly.
//!
//! # Contents
//! - Rules: [`Chess`] (the game), [`Position`] (a board and the positions the draw rules need),
//!   [`Status`] (checkmate, stalemate, fifty moves, threefold repetition, insufficient
//!   material), moves as the generator's [`Move`] in UCI notation, FEN in
//!   ([`Position::from_fen`], errors as [`ChessError`], never a panic) and out
//!   ([`Position::fen`]).
//! - [`Pesto`]: the evaluation, material and piece-square tables tapered between middlegame and
//!   endgame (PeSTO's tables, see [`eval`]); checkmates scored by their distance ([`mate_in`]).
//! - Hooks of the α/β engine: [`CaptureOrdering`] (MVV-LVA and static exchange, [`see`]),
//!   [`Captures`] (quiescence on captures), [`ChessSelectivity`] (null moves except in king and
//!   pawn endings, check extensions).
//! - [`ChessPlausibility`]: Treebeard's interest terms for interest search.
//! - [`perft()`] and [`divide`]: move-generator counts, in the published counts' convention.
//! - [`uci`]: the Universal Chess Interface, parsing and an engine loop around any searcher.
//!
//! # Rules
//! FIDE's laws of play, standard chess (no Chess960). The draws a player may claim apply
//! automatically, as engines and servers apply them: the third occurrence of a position (same
//! side to move, pieces, castling rights, and en passant capture only where one is legal), the
//! hundredth ply without a capture or a pawn move (unless that ply mates), and positions where no
//! sequence of moves can mate (no pawn, rook or queen, and at most one minor piece, or bishops
//! all on squares of one colour). Stalemate is a draw, checkmate a loss for the side mated.
//!
//! # Example: search a position with a fixed-depth negamax
//! The crate needs no search engine; here is a small one, written against the hooks it exports
//! (the facade composes search-core's engine with them instead).
//! ```
//! use gametree_chess::{Captures, Chess, Pesto, Position};
//! use game_trait::{Evaluator, Game, MoveList, Quiescence, Score, ZeroSumGame};
//!
//! /// Negamax to `depth`, then captures only (standing pat on the static value).
//! fn negamax(p: &Position, depth: u32, mut alpha: Score, beta: Score) -> Score {
//!     if let Some(outcome) = Chess.outcome(p) {
//!         return Pesto.terminal(&Chess, p, outcome);
//!     }
//!     let mut best = if depth == 0 { Pesto.evaluate(&Chess, p) } else { -game_trait::INFINITY };
//!     if best >= beta {
//!         return best;
//!     }
//!     alpha = alpha.max(best);
//!     let mut moves = MoveList::new();
//!     Chess.moves(p, &mut moves);
//!     for &mv in &moves {
//!         if depth == 0 && !Captures::default().is_noisy(&Chess, p, mv) {
//!             continue;
//!         }
//!         let value = -negamax(&p.after(mv), depth.saturating_sub(1), -beta, -alpha);
//!         best = best.max(value);
//!         alpha = alpha.max(value);
//!         if alpha >= beta {
//!             break;
//!         }
//!     }
//!     best
//! }
//!
//! // White wins the queen for a rook (Rxd8+ Kxd8): the capture search sees it at depth 1.
//! let p = Position::from_fen("3qk3/8/8/8/8/8/8/3RK2R w - - 0 1")?;
//! let (inf, static_value) = (game_trait::INFINITY, Pesto::value(p.board()));
//! assert!(negamax(&p, 1, -inf, inf) > static_value + 300);
//! # Ok::<(), gametree_chess::ChessError>(())
//! ```
//!
//! # References
//! - Jeff Rollason, *Interest Search — Another Way to Do Minimax*, AI Factory newsletter, 2014:
//!   the Treebeard interest terms of [`ChessPlausibility`].
//! - Ronald Friederich, PeSTO's tables, as published on the Chess Programming Wiki (*PeSTO's
//!   Evaluation Function*): [`Pesto`].
//! - Donald Beal, *A Generalised Quiescence Search Algorithm*, Artificial Intelligence 43, 1990,
//!   and Chrilly Donninger, *Null Move and Deep Search*, ICCA Journal 16, 1993: null moves.
//! - The published perft counts: the Chess Programming Wiki's *Perft Results* (the start
//!   position, Peter McKenzie's "Kiwipete", positions 3 to 6).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod error;
pub mod eval;
mod game;
mod hooks;
mod ordering;
pub mod perft;
mod plausibility;
mod position;
pub mod uci;

pub use cozy_chess as cozy;
pub use cozy_chess::{Color, Move, Piece, Square};
pub use error::ChessError;
pub use eval::{mate_in, Pesto, MATE};
pub use game::Chess;
pub use hooks::{gives_check, zugzwang_prone, Captures, ChessSelectivity};
pub use ordering::{
    attackers, capture_value, captured, is_capture, see, CaptureOrdering, SEE_VALUE,
};
pub use perft::{divide, perft};
pub use plausibility::ChessPlausibility;
pub use position::{Position, Status, HISTORY, START_FEN};

#[cfg(test)]
mod tests;

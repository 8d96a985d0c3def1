//! Othello on bitboards for gametree (documentation being written).
#![deny(missing_docs)]

pub mod board;
pub mod endgame;
mod error;
pub mod eval;
mod game;
pub mod hash;
pub mod obf;
pub mod ordering;
pub mod perft;
mod position;
mod random;
mod square;
pub mod symmetry;
pub mod text;

mod plausibility;
pub use board::Board;
pub use endgame::{EndgameHorizon, ExactEvaluator};
pub use error::OthelloError;
pub use eval::{Ev1, Ev2, Features};
pub use game::Othello;
pub use obf::{parse_obf, read_obf, ObfPosition};
pub use ordering::FastestFirst;
pub use perft::{perft, perft_portable};
pub use plausibility::{OthelloPlausibility, SquareClass};
pub use position::{squares, Color, Position};
pub use random::{random_game, random_move, random_position};
pub use square::{Move, Square};
pub use symmetry::Symmetry;
pub use text::{format_moves, parse_moves};

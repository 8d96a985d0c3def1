//! gametree's search engine (crate docs being written).
#![deny(missing_docs)]

mod alphabeta;
pub mod arena;
mod minimax;
pub mod ordering;
mod perft;
mod stopwatch;
pub mod tree;
pub mod tt;
pub mod uct;

pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use minimax::Minimax;
pub use perft::{perft, perft_divide};
pub use stopwatch::CHECK_INTERVAL;
pub use tree::{ExplicitTree, LeafValue, Nested};
pub use uct::{Uct, UctConfig};

/// The deepest ply any search of this crate reaches: a node this far below the root is evaluated
/// statically whatever its depth or budget says, so that deep or endless games cannot overflow the
/// stack (every ply costs one frame of about a kilobyte).
pub const MAX_PLY: usize = 256;

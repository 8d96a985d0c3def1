//! gametree facade (being written).
#![deny(missing_docs)]
pub use game_trait as game;
#[cfg(feature = "search")]
pub use search_core as search;
#[cfg(feature = "othello")]
pub use othello_bitboard as othello;

pub mod experiments;
pub mod spec;

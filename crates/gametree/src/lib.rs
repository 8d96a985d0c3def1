//! gametree facade (being written).
#![deny(missing_docs)]
pub use game_trait as game;
#[cfg(feature = "search")]
pub use search_core as search;
#[cfg(feature = "othello")]
pub use othello_bitboard as othello;
#[cfg(feature = "random-tree")]
pub use random_tree;
#[cfg(feature = "forward-estimation")]
pub use forward_estimation;
#[cfg(feature = "interest-search")]
pub use interest_search;
#[cfg(feature = "conspiracy")]
pub use conspiracy;
#[cfg(feature = "gdl")]
pub use gdl;

pub mod experiments;
#[cfg(all(feature = "othello", feature = "search"))]
pub mod othello_solve;
pub mod spec;

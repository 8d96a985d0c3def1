//! gametree facade (work in progress).
#![deny(missing_docs)]
pub use game_trait as game;

//! gametree's search engine (being written; see the module list).
#![deny(missing_docs)]

pub mod arena;
mod perft;
pub mod tree;
mod uct;

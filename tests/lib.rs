//! Shared helpers for the cross-crate integration tests in `tests/tests/`.
//!
//! [`testdata`] loads the workspace's `testdata/` folder: the tables every engine is checked
//! against, in one place.
//!
//! Also the home of the READMEs' doctests: the Rust examples of the root README and of every
//! published crate's README are compiled and run by `cargo test --workspace` as doctests of this
//! (unpublished) package, so that they cannot go stale. They live here rather than in the crates
//! themselves because a published crate cannot include a file from outside its own folder, and
//! because the crates' examples use sibling crates that are only dev-dependencies here.

pub mod testdata;

/// The root README's Rust example.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The published crates' READMEs, one item per README.
#[cfg(doctest)]
mod crate_readmes {
    #[doc = include_str!("../crates/game-trait/README.md")]
    struct GameTrait;
    #[doc = include_str!("../crates/search-core/README.md")]
    struct SearchCore;
    #[doc = include_str!("../crates/othello-bitboard/README.md")]
    struct OthelloBitboard;
    #[doc = include_str!("../crates/othello-solve/README.md")]
    struct OthelloSolve;
    #[doc = include_str!("../crates/random-tree/README.md")]
    struct RandomTree;
    #[doc = include_str!("../crates/forward-estimation/README.md")]
    struct ForwardEstimation;
    #[doc = include_str!("../crates/conspiracy/README.md")]
    struct Conspiracy;
    #[doc = include_str!("../crates/interest-search/README.md")]
    struct InterestSearch;
    #[doc = include_str!("../crates/gdl/README.md")]
    struct Gdl;
    #[doc = include_str!("../crates/scsp-mac-ucb/README.md")]
    struct ScspMacUcb;
    #[doc = include_str!("../crates/gametree/README.md")]
    struct Gametree;
}

//! Shared helpers for the cross-crate integration tests in `tests/tests/`.
//!
//! [`testdata`] loads the workspace's `testdata/` folder: the tables every engine is checked
//! against, in one place.

pub mod testdata;

/// The root README's Rust example, compiled and run by `cargo test --workspace` as a doctest of
/// this (unpublished) package, so that it cannot go stale. It lives here rather than in the
/// `gametree` crate because a published crate cannot include a file from outside its own folder.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

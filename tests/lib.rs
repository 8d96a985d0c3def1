//! Shared helpers for the cross-crate integration tests in `tests/tests/`.
//!
//! [`testdata`] loads the workspace's `testdata/` folder: the tables every engine is checked
//! against, in one place.

pub mod testdata;

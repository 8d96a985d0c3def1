//! Small games and property-test helpers shared by the tests of the workspace's crates.
//!
//! A dev-dependency only (never published): it depends on `game-trait` and third-party crates
//! alone, so that an algorithm crate's tests can use it without seeing a sibling crate.
//!
//! - [`Nim`], [`NimInPlace`]: one pile, take 1 or 2, whoever takes the last stone wins; a
//!   winning move from `n` stones is `n mod 3` (none when that is 0). Copy-make and make/unmake.
//! - [`TreeGame`]: an explicit game tree with a mover and a static value on every node, random or
//!   written by shape.
//! - [`check`]: quickcheck with a number of tests and a bound on discarded cases.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod nim;
mod tree;

pub use nim::{Nim, NimInPlace, Pile};
pub use tree::{TreeGame, TreeNode};

use quickcheck::{QuickCheck, Testable};

/// Runs `prop` on `tests` random cases, allowing up to ten times as many to be discarded
/// (a `TestResult::discard()`), and panics with the failing case if one fails.
pub fn check<T: Testable>(tests: u64, prop: T) {
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests * 10)
        .quickcheck(prop);
}

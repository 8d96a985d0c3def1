//! Helpers shared by search-core's integration tests: quickcheck on random explicit trees.

use std::ops::RangeInclusive;

use quickcheck::TestResult;
use search_core::ExplicitTree;

/// Runs a property of `(seed, depth, branching)` on `tests` random cases ([`test_games::check`]).
pub fn check(tests: u64, prop: fn(u64, u8, u8) -> TestResult) {
    test_games::check(tests, prop);
}

/// A random tree from quickcheck's raw numbers, with its depth: the depth in `depths` and the
/// largest branching in `branching`, each picked by the raw number modulo the range's length.
pub fn random_tree(
    seed: u64,
    depth: u8,
    branching: u8,
    depths: RangeInclusive<u32>,
    branchings: RangeInclusive<u32>,
) -> (ExplicitTree, u32) {
    let pick = |raw: u8, range: &RangeInclusive<u32>| {
        range.start() + u32::from(raw) % (range.end() - range.start() + 1)
    };
    let depth = pick(depth, &depths);
    (
        ExplicitTree::random(seed, depth, pick(branching, &branchings)),
        depth,
    )
}

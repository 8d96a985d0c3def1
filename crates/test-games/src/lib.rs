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

#[cfg(test)]
mod tests {
    use game_trait::{MoveList, ZeroSumGame};

    use super::*;

    /// Every state reachable from the start, with each move's key found both ways: made, then
    /// hashed, and told by `state_hash_after`.
    fn keys_agree<G: ZeroSumGame>(game: &G) {
        let mut stack = vec![game.initial_state()];
        let mut seen = 0;
        while let Some(mut state) = stack.pop() {
            let mut moves = MoveList::new();
            game.moves(&state, &mut moves);
            for &mv in &moves {
                let told = game.state_hash_after(&state, mv);
                let child = match game.apply(&mut state, mv) {
                    Some(child) => child,
                    None => {
                        let child = state.clone();
                        game.undo(&mut state, mv);
                        child
                    }
                };
                assert_eq!(told, game.state_hash(&child), "{state:?} then {mv:?}");
                stack.push(child);
                seen += 1;
            }
        }
        assert!(seen > 10);
    }

    #[test]
    fn the_key_after_a_move_is_the_successors_key() {
        keys_agree(&Nim { stones: 9 });
        keys_agree(&NimInPlace { stones: 9 });
        keys_agree(&TreeGame::random(3, 4, 4, 100));
    }
}

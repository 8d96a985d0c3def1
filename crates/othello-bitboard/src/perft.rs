//! Fast perft: the number of move sequences of a given length, the external check of a move
//! generator (4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800 from the start).
//!
//! Definition (the workspace's, shared with `search_core::perft`): perft(p, 0) = 1; a finished game
//! counts 1 whatever the depth left; otherwise the sum over the legal moves, a forced pass being one
//! move.
//!
//! Speed comes from bulk counting: at depth 1 the count is the number of legal squares (a popcount),
//! or 1 if there are none (a pass or a finished game both count once), so the last ply never plays a
//! move; at depth 2 each child only needs its move generation. On x86-64 the same code is also compiled
//! with `popcnt`, `lzcnt`, `bmi1`, `bmi2` and `avx2` enabled and chosen at run time when the CPU has
//! them ([`perft`]); [`perft_portable`] always runs the baseline build (both are tested).

use crate::board::{flips, Board};

/// Defines a recursive perft function; instantiated once for the baseline CPU and once with x86-64-v3
/// features enabled, so that the inlined move generator is compiled for each.
macro_rules! define_perft {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        fn $name(board: Board, depth: u32) -> u64 {
            let moves = board.moves();
            if moves == 0 {
                let passed = board.pass();
                // A finished game and a forced pass at depth 1 both count once.
                if depth == 1 || passed.moves() == 0 {
                    return 1;
                }
                return $name(passed, depth - 1);
            }
            if depth == 1 {
                return u64::from(moves.count_ones());
            }
            let (player, opponent) = (board.player(), board.opponent());
            let mut total = 0;
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let child = board.apply_flips(1 << sq, flips(player, opponent, sq));
                total += if depth == 2 {
                    // Bulk counting: the child's perft(1) without recursing.
                    u64::from(child.moves().count_ones().max(1))
                } else {
                    $name(child, depth - 1)
                };
            }
            total
        }
    };
}

define_perft!(
    /// Perft for `depth >= 1`, baseline CPU features.
    perft_baseline
);

#[cfg(target_arch = "x86_64")]
define_perft!(
    /// Perft for `depth >= 1`, with x86-64-v3 features (only called after checking them).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    perft_x86_64_v3
);

/// Perft from `board` (side to move's view) to `depth` plies, choosing at run time the fastest build
/// the CPU supports. See the module docs for the definition.
///
/// ```
/// use othello_bitboard::{perft, Board};
/// assert_eq!(perft(Board::START, 6), 8200);
/// ```
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    #[cfg(target_arch = "x86_64")]
    if has_x86_64_v3() {
        // SAFETY: the CPU supports every feature `perft_x86_64_v3` is compiled with.
        return unsafe { perft_x86_64_v3(board, depth) };
    }
    perft_baseline(board, depth)
}

/// [`perft`] on the baseline build only (no run-time feature detection), for testing that path.
pub fn perft_portable(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_baseline(board, depth)
}

/// Whether the CPU has everything the x86-64-v3 builds are compiled with (cached by the standard
/// library after the first call).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_x86_64_v3() -> bool {
    is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("avx2")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_builds_agree_and_start_with_the_standard_counts() {
        // A smoke check; the whole table (to depth 11) is the workspace's `testdata/perft.toml`.
        for (depth, count) in [(0, 1), (1, 4), (2, 12), (3, 56), (4, 244)] {
            assert_eq!(perft(Board::START, depth), count, "depth {depth}");
        }
        for depth in 0..=8 {
            assert_eq!(
                perft_portable(Board::START, depth),
                perft(Board::START, depth),
                "depth {depth}"
            );
        }
    }

    #[test]
    fn finished_games_count_once_at_any_depth() {
        // Black owns everything but a1, which nobody can play: the game is over.
        let board = Board::new(!1, 0).unwrap();
        assert!(board.is_game_over());
        for depth in 1..4 {
            assert_eq!(perft(board, depth), 1);
        }
    }
}

//! Othello perft through the generic engine (`search_core::perft`, the `Game` trait route) against the
//! standard counts and against othello-bitboard's specialised bulk-counting perft.

use gametree::game::Game;
use gametree::othello::{perft, perft_portable, random_position, Board, Othello, Position};
use gametree::search::perft as generic_perft;

/// The standard sequence from the start position, depths 0..=8.
const STANDARD: [u64; 9] = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216];

#[test]
fn generic_perft_gives_the_standard_counts() {
    let start = Othello.initial_state();
    for (depth, &count) in STANDARD.iter().enumerate() {
        assert_eq!(
            generic_perft(&Othello, &start, depth as u32),
            count,
            "depth {depth}"
        );
    }
}

#[test]
fn specialised_and_generic_perft_agree_on_random_positions() {
    // Mid-game and late positions, where passes and finished games occur within the horizon.
    for seed in 0..60 {
        let position: Position = random_position(seed, 8 + (seed % 40) as u32);
        let depth = 3 + (seed % 3) as u32;
        let generic = generic_perft(&Othello, &position, depth);
        let board: Board = position.board();
        assert_eq!(perft(board, depth), generic, "seed {seed}");
        assert_eq!(perft_portable(board, depth), generic, "seed {seed}");
    }
}

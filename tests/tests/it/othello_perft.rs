//! Othello perft through the generic engine (`search_core::perft`, the `Game` trait route) against
//! othello-bitboard's specialised bulk-counting perft on positions no table lists: passes and
//! finished games within the horizon. The tables themselves (`testdata/perft.toml`) are checked by
//! `perft_tables.rs`.

use gametree::othello::{perft, perft_portable, random_position, Board, Othello, Position};
use gametree::search::perft as generic_perft;

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

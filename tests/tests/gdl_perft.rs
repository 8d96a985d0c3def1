//! search-core's generic perft on GDL games: the same counts as the gdl crate's own tests, through
//! the `Game` trait alone (joint moves of simultaneous nodes count as one move).

use gametree::game::Game;
use gametree::gdl::GdlGame;
use gametree::search::perft;

fn game(name: &str) -> GdlGame {
    GdlGame::from_file(format!(
        "{}/../crates/gdl/games/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("shipped game")
}

#[test]
fn connect_four_perft_starts_7_49_343_2401_16807() {
    let g = game("connect4.kif");
    let counts: Vec<u64> = (1..=5).map(|d| perft(&g, &g.initial_state(), d)).collect();
    assert_eq!(counts, [7, 49, 343, 2401, 16807]);
}

#[test]
fn tic_tac_toe_has_255168_complete_games() {
    // search-core's perft counts a finished game as 1 whatever the depth left: depth 9 counts games.
    let g = game("tictactoe.kif");
    assert_eq!(perft(&g, &g.initial_state(), 9), 255_168);
}

#[test]
fn chance_and_simultaneous_games() {
    // Matching Pennies: 4 joint moves (random's only move is noop), then 2 coin flips.
    let g = game("matching_pennies.kif");
    assert_eq!(perft(&g, &g.initial_state(), 1), 4);
    assert_eq!(perft(&g, &g.initial_state(), 3), 8);
    // Rock-paper-scissors over three rounds: 9 joint moves per round.
    let g = game("rps3.kif");
    assert_eq!(perft(&g, &g.initial_state(), 3), 729);
    // Monty Hall: 3 x 3 (pick x hide), then 1 or 2 doors to open, then stay or switch.
    // Opening: 2 choices when the pick hides the car (3 cases), 1 otherwise (6): 3*2 + 6 = 12.
    let g = game("montyhall.kif");
    assert_eq!(perft(&g, &g.initial_state(), 1), 9);
    assert_eq!(perft(&g, &g.initial_state(), 2), 12);
    assert_eq!(perft(&g, &g.initial_state(), 4), 24);
}

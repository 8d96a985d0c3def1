//! `search_core::perft`, the generic perft of any `Game`, against the published and the games' own
//! fast counts: Othello through its `Game` impl, GDL games (alternating, simultaneous and chance)
//! through the `gdl` crate, and a literal recursive reference for the stochastic ones.

use gametree::game::{ChanceList, Game, GeneralGame, MoveList, Turn};
use gametree::gdl::GdlGame;
use gametree::othello::{Board, Othello};
use gametree::search::{perft, perft_divide};

fn load(name: &str) -> GdlGame {
    let path = format!("{}/../crates/gdl/games/{name}", env!("CARGO_MANIFEST_DIR"));
    GdlGame::from_file(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn othello_through_the_game_trait_gives_the_published_counts() {
    let published = [1u64, 4, 12, 56, 244, 1396, 8200, 55092, 390_216];
    let start = Othello.initial_state();
    for (depth, &count) in published.iter().enumerate() {
        let depth = depth as u32;
        assert_eq!(perft(&Othello, &start, depth), count, "depth {depth}");
        assert_eq!(gametree::othello::perft(Board::START, depth), count);
    }
    let divided = perft_divide(&Othello, &start, 5);
    assert_eq!(divided.len(), 4);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 1396);
}

#[test]
fn gdl_turn_taking_games_give_the_known_counts() {
    let c4 = load("connect4.kif");
    let counts: Vec<u64> = (1..=4)
        .map(|d| perft(&c4, &c4.initial_state(), d))
        .collect();
    assert_eq!(counts, [7, 49, 343, 2401]);
    // Tic-tac-toe: 9·8·7·6·5 sequences of five moves; no game ends before the fifth.
    let ttt = load("tictactoe.kif");
    let counts: Vec<u64> = (1..=5)
        .map(|d| perft(&ttt, &ttt.initial_state(), d))
        .collect();
    assert_eq!(counts, [9, 72, 504, 3024, 15120]);
}

/// The definition, literally: recursion, clones, `play` / `play_joint`, the cartesian product.
fn reference<G: GeneralGame>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut joints: Vec<Vec<G::Move>> = vec![Vec::new()];
    let simultaneous = match game.turn(state) {
        Turn::Over => return 1,
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            game.legal_moves(state, p, &mut moves);
            joints = moves.iter().map(|&m| vec![m]).collect();
            false
        }
        Turn::Chance => {
            joints.clear();
            true
        }
        Turn::Simultaneous => {
            for p in 0..game.players() {
                let mut moves = MoveList::new();
                game.legal_moves(state, p, &mut moves);
                joints = joints
                    .iter()
                    .flat_map(|j| moves.iter().map(move |&m| [j.clone(), vec![m]].concat()))
                    .collect();
            }
            true
        }
    };
    if simultaneous {
        let mut outcomes = ChanceList::new();
        game.chance_outcomes(state, &mut outcomes);
        if game.turn(state) == Turn::Chance {
            joints = outcomes.iter().map(|&(m, _)| vec![m]).collect();
        } else if !outcomes.is_empty() {
            joints = joints
                .iter()
                .flat_map(|j| {
                    outcomes
                        .iter()
                        .map(move |&(m, _)| [j.clone(), vec![m]].concat())
                })
                .collect();
        }
    }
    let single = !matches!(game.turn(state), Turn::Simultaneous);
    joints
        .iter()
        .map(|joint| {
            let mut child = state.clone();
            if single {
                game.play(&mut child, joint[0]);
            } else {
                game.play_joint(&mut child, joint);
            }
            reference(game, &child, depth - 1)
        })
        .sum()
}

#[test]
fn gdl_simultaneous_and_chance_games_match_the_reference() {
    // The seed's Example 1: alice and bob place a coin at once (2 × 2 joint moves), then random
    // flips one (2 outcomes), then the game is over.
    let pennies = load("matching_pennies.kif");
    let s = pennies.initial_state();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&pennies, &s, d)).collect();
    assert_eq!(counts, [4, 8, 8, 8]);
    for name in [
        "matching_pennies.kif",
        "montyhall.kif",
        "dice_duel.kif",
        "rps3.kif",
    ] {
        let g = load(name);
        let s = g.initial_state();
        for depth in 0..=5 {
            assert_eq!(
                perft(&g, &s, depth),
                reference(&g, &s, depth),
                "{name} depth {depth}"
            );
        }
    }
}

//! `search_core::perft`, the generic perft of any `GeneralGame`, beyond the tables of
//! `testdata/perft.toml` (which `perft_tables.rs` checks): `perft_divide` on Othello, and a literal
//! recursive reference on the GDL games with simultaneous and chance moves, at every depth to the
//! end of the game.

use gametree::game::{ChanceList, Game, GeneralGame, MoveList, Turn};
use gametree::gdl::{GdlGame, Loader};
use gametree::othello::{Board, Othello};
use gametree::search::{perft, perft_divide};

fn load(name: &str) -> GdlGame {
    let path = format!("{}/../crates/gdl/games/{name}", env!("CARGO_MANIFEST_DIR"));
    Loader::file(&path)
        .load()
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn othello_divide_splits_the_count_by_first_move() {
    let start = Othello.initial_state();
    let divided = perft_divide(&Othello, &start, 5);
    assert_eq!(divided.len(), 4);
    assert!(divided.iter().all(|(joint, _)| joint.len() == 1));
    let total: u64 = divided.iter().map(|(_, n)| n).sum();
    assert_eq!(total, perft(&Othello, &start, 5));
    assert_eq!(total, gametree::othello::perft(Board::START, 5));
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

//! Searchers of search-core on GDL games: alpha-beta and minimax through the checked two-player view,
//! UCT on chance and simultaneous games.

use gametree::game::{ChanceList, Game, GeneralGame, Limits, MoveList, Searcher, Turn};
use gametree::gdl::{GdlError, GdlGame, GoalEvaluator, TurnTaking};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Minimax, Uct, UctConfig};

fn game(name: &str) -> GdlGame {
    GdlGame::from_file(format!(
        "{}/../crates/gdl/games/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("shipped game")
}

#[test]
fn tic_tac_toe_is_a_draw_for_alpha_beta_and_minimax() {
    let ttt = TurnTaking::new(game("tictactoe.kif")).expect("turn-taking");
    let root = ttt.initial_state();
    let mut mm = Minimax::new(GoalEvaluator, 9);
    let mut ab = AlphaBeta::new(GoalEvaluator).with_config(AlphaBetaConfig {
        depth: 9,
        ..AlphaBetaConfig::default()
    });
    let v_mm = mm.search(&ttt, &root, &Limits::depth(9)).value;
    let v_ab = ab.search(&ttt, &root, &Limits::depth(9)).value;
    assert_eq!(v_mm, 0);
    assert_eq!(v_ab, 0);
    // After x takes a corner and o an edge next to it, x wins.
    let mut s = root.clone();
    for m in ["(mark 1 1)", "(mark 1 2)"] {
        let mv = ttt.game().find_move(m).expect("move");
        s = ttt.apply(&mut s, mv).expect("copy-make");
    }
    let v = ab.search(&ttt, &s, &Limits::depth(7)).value;
    assert!(
        v > gametree::game::EVAL_LIMIT,
        "x to move should win, got {v}"
    );
}

#[test]
fn the_two_player_view_rejects_what_it_cannot_represent() {
    for (name, why) in [
        ("dice_duel.kif", "random"),
        ("rps3.kif", "Simultaneous"),
        ("montyhall.kif", "1 players"),
    ] {
        match TurnTaking::new(game(name)) {
            Err(GdlError::NotTurnTaking(msg)) => assert!(msg.contains(why), "{name}: {msg}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn uct_plays_chance_and_simultaneous_gdl_games() {
    for name in [
        "matching_pennies.kif",
        "montyhall.kif",
        "dice_duel.kif",
        "rps3.kif",
        "connect4.kif",
    ] {
        let g = game(name);
        let mut uct = Uct::new(UctConfig {
            simulations: 300,
            ..UctConfig::default()
        });
        let mut s = g.initial_state();
        let mut plies = 0;
        while g.turn(&s) != Turn::Over && plies < 100 {
            let r = uct.search(&g, &s, &Limits::none());
            match (g.turn(&s), r.best_move) {
                (Turn::Player(_), Some(mv)) => g.play(&mut s, mv),
                _ => {
                    // Chance or simultaneous root: UCT's statistics are per player; play the first
                    // legal joint move (and chance's first outcome) to keep the test deterministic.
                    let mut joint = Vec::new();
                    let mut moves = MoveList::new();
                    for p in 0..g.players() {
                        g.legal_moves(&s, p, &mut moves);
                        joint.push(moves[(plies as usize + p) % moves.len()]);
                    }
                    let mut chance = ChanceList::new();
                    g.chance_outcomes(&s, &mut chance);
                    match g.turn(&s) {
                        Turn::Chance => g.play(&mut s, chance[plies as usize % chance.len()].0),
                        _ => {
                            joint.extend(chance.first().map(|&(m, _)| m));
                            g.play_joint(&mut s, &joint);
                        }
                    }
                }
            }
            plies += 1;
        }
        assert_eq!(g.turn(&s), Turn::Over, "{name}");
    }
}

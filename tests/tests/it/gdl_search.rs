//! Searchers of search-core on GDL games: alpha-beta and minimax through the checked two-player view,
//! UCT on chance and simultaneous games.

use gametree::game::{ChanceList, Game, GeneralGame, Limits, MoveList, Searcher, Turn};
use gametree::gdl::{GdlError, GdlGame, GoalEvaluator, Loader, TurnState, TurnTaking};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Minimax, Uct, UctConfig};

fn game(name: &str) -> GdlGame {
    Loader::file(format!(
        "{}/../crates/gdl/games/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .load()
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

/// Take one or two stones from a pile of nine; a player who leaves a multiple of three (other
/// than none) moves again; whoever takes the last stone wins. A role moves twice in a row.
const BONUS_NIM: &str = "
(role white) (role black)
(other white black) (other black white)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(succ 8 9)
(bonus 3) (bonus 6)
(init (pile 9)) (init (control white))
(<= (legal ?p (take 1)) (true (control ?p)) (true (pile ?n)) (succ ?m ?n))
(<= (legal ?p (take 2)) (true (control ?p)) (true (pile ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (left ?m) (does ?p (take 1)) (true (pile ?n)) (succ ?m ?n))
(<= (left ?k) (does ?p (take 2)) (true (pile ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (next (pile ?m)) (left ?m))
(<= (next (control ?p)) (true (control ?p)) (left ?m) (bonus ?m))
(<= (next (control ?q)) (true (control ?p)) (left ?m) (not (bonus ?m)) (other ?p ?q))
(<= (next (last ?p)) (does ?p (take ?x)))
(<= terminal (true (pile 0)))
(<= (goal ?p 100) (true (last ?p)))
(<= (goal ?p 0) (role ?p) (not (true (last ?p))))
";

/// The value of `s` for player 0 by brute force over the whole game: player 0 takes the largest
/// child value, player 1 the smallest, whoever the game says moves.
fn brute_force(game: &TurnTaking, s: &TurnState) -> i32 {
    use gametree::game::ZeroSumGame;
    let for_0 = |s: &TurnState, v: i32| if game.side_to_move(s) == 0 { v } else { -v };
    if let Some(outcome) = game.outcome(s) {
        return for_0(s, outcome.score());
    }
    let mut moves = MoveList::new();
    game.moves(s, &mut moves);
    let values = moves.iter().map(|&mv| {
        let mut child = s.clone();
        game.play(&mut child, mv);
        brute_force(game, &child)
    });
    let values: Vec<i32> = values.collect();
    match game.side_to_move(s) {
        0 => values.into_iter().max(),
        _ => values.into_iter().min(),
    }
    .expect("a game in progress has a move")
}

/// Every exact searcher, in every reachable position of a GDL game where a role moves twice in a
/// row, returns the brute-force value of the whole game.
#[test]
fn a_role_that_moves_twice_gets_true_values_from_every_exact_searcher() {
    use gametree::game::{Bound, ZeroSumGame};
    use gametree::search::Mtdf;
    use std::collections::HashSet;
    let game =
        TurnTaking::new(Loader::text(BONUS_NIM).load().expect("valid GDL")).expect("two-player");
    let mut seen = HashSet::new();
    let mut stack = vec![game.initial_state()];
    let (mut extra_turns, mut positions) = (0, 0);
    let mut moves = MoveList::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s.clone()) || game.outcome(&s).is_some() {
            continue;
        }
        positions += 1;
        let truth = if game.side_to_move(&s) == 0 {
            brute_force(&game, &s)
        } else {
            -brute_force(&game, &s)
        };
        let depth = 10; // the longest game takes nine moves
        let pvs = AlphaBetaConfig {
            tt_bytes: 1 << 16,
            ..AlphaBetaConfig::pvs(depth)
        };
        let mut searchers: Vec<(&str, Box<dyn Searcher<TurnTaking>>)> = vec![
            ("minimax", Box::new(Minimax::new(GoalEvaluator, depth))),
            (
                "alphabeta",
                Box::new(
                    AlphaBeta::new(GoalEvaluator).with_config(AlphaBetaConfig::alpha_beta(depth)),
                ),
            ),
            (
                "pvs",
                Box::new(AlphaBeta::new(GoalEvaluator).with_config(pvs)),
            ),
            (
                "mtdf",
                Box::new(Mtdf::new(AlphaBeta::new(GoalEvaluator).with_config(pvs))),
            ),
        ];
        for (name, searcher) in &mut searchers {
            let r = searcher.search(&game, &s, &Limits::none());
            assert_eq!((r.value, r.bound), (truth, Bound::Exact), "{name} at {s:?}");
        }
        let r = AlphaBeta::new(GoalEvaluator)
            .with_config(pvs)
            .search_parallel(&game, &s, &Limits::none(), 2);
        assert_eq!(
            (r.value, r.bound),
            (truth, Bound::Exact),
            "lazy smp at {s:?}"
        );
        game.moves(&s, &mut moves);
        for &mv in &moves {
            let mut child = s.clone();
            game.play(&mut child, mv);
            extra_turns += usize::from(
                game.side_to_move(&child) == game.side_to_move(&s)
                    && game.outcome(&child).is_none(),
            );
            stack.push(child);
        }
        moves.clear();
    }
    assert!(
        positions > 12 && extra_turns > 5,
        "{positions} positions, {extra_turns} extra turns"
    );
}

/// Nim with five sticks: take one or two, whoever takes the last wins; at most five moves.
const NIM_5: &str = "
(role white) (role black)
(other white black) (other black white)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(init (sticks 5)) (init (control white))
(<= (legal ?p (take 1)) (true (control ?p)) (true (sticks ?n)) (succ ?m ?n))
(<= (legal ?p (take 2)) (true (control ?p)) (true (sticks ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (sticks ?m)) (does ?p (take 1)) (true (sticks ?n)) (succ ?m ?n))
(<= (next (sticks ?k)) (does ?p (take 2)) (true (sticks ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (next (control ?q)) (true (control ?p)) (other ?p ?q))
(<= (next (last ?p)) (does ?p (take ?x)))
(<= terminal (true (sticks 0)))
(<= (goal ?p 100) (true (last ?p)))
(<= (goal ?p 0) (role ?p) (not (true (last ?p))))
";

/// Iterative deepening stops where the game does: PVS and MTD(f) asked for 15, 40 or 100 plies
/// of a game of at most five stop at five or before, with the same value and the same nodes.
#[test]
fn deepening_past_the_end_of_nim_costs_nothing_more() {
    use gametree::game::Bound;
    use gametree::search::Mtdf;
    let nim = TurnTaking::new(Loader::text(NIM_5).load().expect("valid GDL")).expect("two-player");
    let root = nim.initial_state();
    let truth = Minimax::new(GoalEvaluator, 5).search(&nim, &root, &Limits::none());
    let pvs = AlphaBetaConfig {
        tt_bytes: 1 << 16,
        ..AlphaBetaConfig::pvs(1)
    };
    let searchers: [(&str, Box<dyn Searcher<TurnTaking>>); 2] = [
        (
            "pvs",
            Box::new(AlphaBeta::new(GoalEvaluator).with_config(pvs)),
        ),
        (
            "mtdf",
            Box::new(Mtdf::new(AlphaBeta::new(GoalEvaluator).with_config(pvs))),
        ),
    ];
    for (name, mut searcher) in searchers {
        let runs = [15, 40, 100].map(|depth| {
            searcher.reset();
            let r = searcher.search(&nim, &root, &Limits::depth(depth));
            (r.value, r.bound, r.depth, r.stats.generated)
        });
        assert_eq!(
            (runs[0].0, runs[0].1),
            (truth.value, Bound::Exact),
            "{name}"
        );
        assert!(runs[0].2 <= 5, "{name}: {runs:?}");
        assert!(runs.iter().all(|r| *r == runs[0]), "{name}: {runs:?}");
    }
}

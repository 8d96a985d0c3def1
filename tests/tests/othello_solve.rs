//! The exact Othello endgame solver (`gametree::othello_solve`: search-core's PVS with the Othello
//! hooks) against brute-force minimax on seeded random positions, and against the FFO scores.

use std::path::PathBuf;

use gametree::game::{Game, MoveList, ZeroSumGame};
use gametree::othello::{random_game, random_position, read_obf, Othello, Position, Symmetry};
use gametree::othello_solve::{solve, solve_file, FirstGuess, SolveOptions, Solver};

/// Brute-force negamax through the game trait, no pruning at all: the oracle.
fn minimax_solve(state: &Position) -> i32 {
    if let Some(outcome) = Othello.outcome(state) {
        return outcome.margin();
    }
    let mut moves = MoveList::new();
    Othello.moves(state, &mut moves);
    moves
        .iter()
        .map(|&mv| -minimax_solve(&Othello.apply(&mut state.clone(), mv).unwrap()))
        .max()
        .expect("a position that is not over has a move")
}

fn small_table() -> SolveOptions {
    SolveOptions {
        tt_bytes: 1 << 20,
        ..SolveOptions::default()
    }
}

#[test]
fn solver_matches_brute_force_minimax_on_random_positions() {
    let mut solver = Solver::new(small_table());
    for seed in 0..300 {
        // 2..=10 empties, so the engine, the horizon and the exact evaluator all take part.
        let position = random_position(seed, 2 + (seed % 9) as u32);
        let expected = minimax_solve(&position);
        let result = solver.solve(&position);
        assert_eq!(result.score, expected, "seed {seed}\n{position}");
        match result.best_move {
            Some(mv) => {
                let child = position.play(mv).expect("the best move is legal");
                assert_eq!(
                    -minimax_solve(&child),
                    expected,
                    "seed {seed}: best move {mv}"
                );
            }
            None => assert!(position.is_game_over(), "seed {seed}"),
        }
    }
}

#[test]
fn every_horizon_gives_the_same_scores() {
    for exact_empties in [0, 1, 3, 6] {
        let options = SolveOptions {
            exact_empties,
            ..small_table()
        };
        let mut solver = Solver::new(options);
        for seed in 0..40 {
            let position = random_position(500 + seed, 9);
            assert_eq!(
                solver.solve(&position).score,
                minimax_solve(&position),
                "seed {seed}"
            );
        }
    }
}

#[test]
fn mtd_from_any_first_guess_agrees_with_the_full_window_search() {
    let full = SolveOptions {
        mtd: false,
        ..small_table()
    };
    let mut reference = Solver::new(full);
    // Fixed guesses at both ends and in between, and narrow estimates of every width (made from
    // 8 empties up, so that they run here).
    let guesses = [-64, -7, 0, 10, 64]
        .map(FirstGuess::Score)
        .into_iter()
        .chain([0, 1, 2, 5].map(|width| FirstGuess::Narrow {
            width,
            min_empties: 8,
        }));
    let mut drivers: Vec<Solver> = guesses
        .map(|first_guess| {
            Solver::new(SolveOptions {
                first_guess,
                ..small_table()
            })
        })
        .collect();
    for seed in 0..40 {
        // 8..=13 empties: the engine region, several probes per position.
        let position = random_position(900 + seed, 8 + (seed % 6) as u32);
        let expected = reference.solve(&position).score;
        for solver in &mut drivers {
            let result = solver.solve(&position);
            assert_eq!(result.score, expected, "seed {seed}\n{position}");
            let mv = result
                .best_move
                .expect("a position with moves has a best move");
            let child = position.play(mv).expect("the best move is legal");
            assert_eq!(
                -reference.solve(&child).score,
                expected,
                "seed {seed}: {mv}"
            );
        }
    }
}

#[test]
fn the_nodes_of_a_narrow_first_guess_are_counted_where_it_is_made() {
    let narrow_from = |min_empties| {
        Solver::new(SolveOptions {
            first_guess: FirstGuess::Narrow {
                width: 2,
                min_empties,
            },
            ..small_table()
        })
    };
    let position = random_position(77, 12);
    let with = narrow_from(12).solve(&position);
    let without = narrow_from(13).solve(&position);
    assert_eq!(with.score, without.score);
    assert!(with.estimate_nodes > 0, "{with:?}");
    assert!(
        with.nodes > with.estimate_nodes + with.exact_nodes,
        "{with:?}"
    );
    assert_eq!(without.estimate_nodes, 0, "{without:?}");
}

#[test]
fn scores_are_invariant_under_the_symmetries() {
    let mut solver = Solver::new(small_table());
    for seed in 0..10 {
        let position = random_position(900 + seed, 12);
        let score = solver.solve(&position).score;
        for symmetry in Symmetry::ALL {
            assert_eq!(solver.solve(&position.transform(symmetry)).score, score);
        }
    }
}

/// `../shared/ffo/` beside the workspace root.
fn ffo(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/ffo")
        .join(name);
    if path.exists() {
        Some(path)
    } else {
        println!(
            "note: {} is missing; skipping the FFO check",
            path.display()
        );
        None
    }
}

#[test]
fn ffo_1_to_19_exact_scores_and_best_moves() {
    let Some(path) = ffo("fforum-1-19.obf") else {
        return;
    };
    let entries = read_obf(&path).expect("the FFO file parses");
    assert_eq!(entries.len(), 19);
    let solved = solve_file(&path).expect("the FFO file solves");
    assert_eq!(solved.len(), 19);
    for one in &solved {
        assert_eq!(
            Some(one.result.score),
            one.expected(),
            "position {} (line {})",
            one.index,
            one.entry.line
        );
        assert_eq!(
            one.agrees(),
            Some(true),
            "best move of position {}",
            one.index
        );
    }
}

#[test]
fn a_finished_game_solves_to_its_result() {
    let end = *random_game(3).last().unwrap();
    assert!(end.is_game_over());
    let result = solve(&end, &small_table());
    assert_eq!(result.score, end.final_score());
    assert_eq!(result.best_move, None);
}

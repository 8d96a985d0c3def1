//! The exact Othello endgame solver (`gametree::othello_solve`: search-core's PVS with the Othello
//! hooks) against brute-force minimax on seeded random positions, and against the FFO scores in
//! `testdata/ffo/`.

use gametree::game::{Game, MoveList, ZeroSumGame};
use gametree::othello::{random_game, random_position, ObfPosition, Othello, Position, Symmetry};
use gametree::othello_solve::{solve, solve_file, FirstGuess, SolveOptions, Solver};
use gametree_tests::testdata;

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

/// The root drivers checked against the FFO files: MTD(f) from its tuned first guess (the
/// default), one full-window search, and MTD(f) with every probe on two threads.
fn drivers() -> [(&'static str, SolveOptions); 3] {
    let mtd = SolveOptions::default();
    let full = SolveOptions { mtd: false, ..mtd };
    let threads = SolveOptions { threads: 2, ..mtd };
    [
        ("MTD(f)", mtd),
        ("full window", full),
        ("MTD(f), 2 threads", threads),
    ]
}

/// Parallel solving returns exactly the one-thread score, with a move that reaches it, whatever
/// the number of threads and the root driver.
#[test]
fn threads_solve_to_the_one_thread_scores() {
    let mut one = Solver::new(small_table());
    for (seed, threads, mtd) in (0..60).map(|s| (s, 2 + s as usize % 3, s % 2 == 0)) {
        let position = random_position(1000 + seed, 12 + (seed % 6) as u32);
        let expected = one.solve(&position).score;
        let options = SolveOptions {
            threads,
            mtd,
            ..small_table()
        };
        let result = Solver::new(options).solve(&position);
        assert_eq!(
            result.score, expected,
            "seed {seed}, {threads} threads\n{position}"
        );
        let mv = result.best_move.expect("a random position is not over");
        let child = position.play(mv).expect("the best move is legal");
        assert_eq!(-one.solve(&child).score, expected, "seed {seed}: {mv}");
    }
}

/// Checks the score and the best move the solver finds for `entry` against the scores it lists.
fn check_ffo(solver: &mut Solver, entry: &ObfPosition, what: &str) {
    let result = solver.solve(&entry.position);
    let line = entry.line;
    assert_eq!(Some(result.score), entry.best_score(), "{what} line {line}");
    let mv = result.best_move.expect("an FFO position has moves");
    assert!(
        entry.best_moves().contains(&mv),
        "{what} line {line}: {mv} is not one of the best moves {:?}",
        entry.best_moves()
    );
}

#[test]
fn ffo_1_to_19_exact_scores_and_best_moves() {
    let entries = testdata::ffo("fforum-1-19.obf");
    assert_eq!(entries.len(), 19);
    for (name, options) in drivers() {
        let mut solver = Solver::new(options);
        for entry in &entries {
            check_ffo(&mut solver, entry, &format!("{name}: fforum-1-19.obf"));
        }
    }
    // The facade's file driver reads the same file and agrees with it.
    let solved = solve_file(testdata::ffo_path("fforum-1-19.obf")).expect("the FFO file solves");
    assert_eq!(solved.len(), entries.len());
    for one in &solved {
        assert_eq!(one.entry, entries[one.index - 1]);
        assert_eq!(one.agrees(), Some(true), "position {}", one.index);
    }
}

/// The positions of the standard benchmark fast enough for the test suite: those with the fewest
/// empty squares (the whole file, 12 s in a release build, is `gametree solve`'s job).
const FFO_20_39_MAX_EMPTIES: u32 = 19;

#[test]
fn ffo_20_39_exact_scores_and_best_moves_up_to_19_empties() {
    let entries: Vec<ObfPosition> = testdata::ffo("fforum-20-39.obf")
        .into_iter()
        .filter(|e| e.position.empty_count() <= FFO_20_39_MAX_EMPTIES)
        .collect();
    assert!(
        !entries.is_empty(),
        "no position with at most {FFO_20_39_MAX_EMPTIES} empties"
    );
    for (name, options) in drivers() {
        let mut solver = Solver::new(options);
        for entry in &entries {
            check_ffo(&mut solver, entry, &format!("{name}: fforum-20-39.obf"));
        }
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

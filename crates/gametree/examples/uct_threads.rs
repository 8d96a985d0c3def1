//! Parallel UCT's simulations per second with 1 and N threads, root-parallel and tree-parallel
//! side by side in one run: rounds alternate the settings on the same Othello position, each
//! search stopped by the same deadline. The decision of every search is compared with the move
//! of one long sequential search (four times the deadline), as a cheap check of its quality.
//!
//! `cargo run --release -p gametree --example uct_threads -- [THREADS] [SECONDS] [ROUNDS]`
//!
//! (2 threads, 2 s per search, 3 rounds by default.) The position is the one after
//! f5 d6 c3 d3 c4, with 9 legal moves for the side to move.

use std::time::{Duration, Instant};

use gametree::game::{Game, Limits};
use gametree::othello::{Othello, Position};
use gametree::search::{Uct, UctConfig};

/// How a search runs.
#[derive(Clone, Copy)]
enum Mode {
    /// `Uct::analyse_parallel`.
    Root,
    /// `Uct::analyse_tree_parallel`.
    Tree,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().map_or(Ok(2), |s| s.parse())?;
    let seconds: f64 = args.next().map_or(Ok(2.0), |s| s.parse())?;
    let rounds: usize = args.next().map_or(Ok(3), |s| s.parse())?;
    let mut state: Position = Othello.initial_state();
    for name in ["f5", "d6", "c3", "d3", "c4"] {
        let mv = name.parse().map_err(|e| format!("{name}: {e:?}"))?;
        Othello.play(&mut state, mv);
    }
    let uct = Uct::new(UctConfig {
        simulations: u64::MAX,
        seed: 1,
        ..UctConfig::default()
    });
    let limits = |seconds: f64| Limits {
        deadline: Some(Instant::now() + Duration::from_secs_f64(seconds)),
        ..Limits::none()
    };
    // The reference decision: one sequential search four times as long.
    let reference = uct
        .clone()
        .analyse(&Othello, &state, &limits(4.0 * seconds));
    let best = reference.result.best_move.ok_or("the position has moves")?;
    let share = |mv| {
        let arm = reference.arms.iter().find(|a| a.mv == mv);
        arm.map_or(0.0, |a| a.visits as f64 / reference.simulations as f64)
    };
    println!(
        "reference: {best} after {} simulations in {:.0} s ({:.0}% of them)",
        reference.simulations,
        4.0 * seconds,
        100.0 * share(best)
    );
    // Simulations per second and the move chosen, by one search of `mode` on `n` threads.
    let rate = |mode: Mode, n: usize| {
        let limits = limits(seconds);
        let start = Instant::now();
        let a = match mode {
            Mode::Root => uct.analyse_parallel(&Othello, &state, &limits, n),
            Mode::Tree => uct
                .clone()
                .analyse_tree_parallel(&Othello, &state, &limits, n),
        };
        let mv = a.result.best_move.expect("the position has moves");
        (a.simulations as f64 / start.elapsed().as_secs_f64(), mv)
    };
    println!(
        "round  1 thread sims/s  root {threads}t sims/s ratio  tree 1t sims/s  tree {threads}t sims/s ratio  \
         moves (1t root-{threads}t tree-1t tree-{threads}t)"
    );
    let mut peak = [0.0f64; 4];
    let mut agree = [0usize; 4];
    for round in 1..=rounds {
        let runs = [
            rate(Mode::Root, 1),
            rate(Mode::Root, threads),
            rate(Mode::Tree, 1),
            rate(Mode::Tree, threads),
        ];
        for (i, (r, mv)) in runs.iter().enumerate() {
            peak[i] = peak[i].max(*r);
            agree[i] += usize::from(*mv == best);
        }
        let [(one, m0), (root, m1), (tree1, m2), (tree, m3)] = runs;
        println!(
            "{round:>5} {one:>17.0} {root:>14.0} {:>5.2} {tree1:>15.0} {tree:>14.0} {:>5.2}  {m0} {m1} {m2} {m3}",
            root / one,
            tree / one,
        );
    }
    println!(
        "best of {rounds}: root-parallel {:.2}x, tree-parallel {:.2}x (tree on 1 thread: {:.2}x) \
         the 1-thread rate",
        peak[1] / peak[0],
        peak[3] / peak[0],
        peak[2] / peak[0]
    );
    println!(
        "agreement with the reference move: 1 thread {}/{rounds}, root {}/{rounds}, tree on 1 \
         thread {}/{rounds}, tree {}/{rounds}",
        agree[0], agree[1], agree[2], agree[3]
    );
    Ok(())
}

//! Root-parallel UCT's simulations per second with 1 and N threads, side by side in one run:
//! rounds alternate the two settings on the same Othello position, each search stopped by the
//! same deadline.
//!
//! `cargo run --release -p gametree --example uct_threads -- [THREADS] [SECONDS] [ROUNDS]`
//!
//! (2 threads, 2 s per search, 3 rounds by default.) The position is the one after
//! f5 d6 c3 d3 c4, with 9 legal moves for the side to move.

use std::time::{Duration, Instant};

use gametree::game::{Game, Limits};
use gametree::othello::{Othello, Position};
use gametree::search::{Uct, UctConfig};

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
    let rate = |n: usize| {
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_secs_f64(seconds)),
            ..Limits::none()
        };
        let start = Instant::now();
        let a = uct.analyse_parallel(&Othello, &state, &limits, n);
        a.simulations as f64 / start.elapsed().as_secs_f64()
    };
    println!("round  1 thread sims/s  {threads} threads sims/s  ratio");
    let mut best = (0.0f64, 0.0f64);
    for round in 1..=rounds {
        let (one, many) = (rate(1), rate(threads));
        best = (best.0.max(one), best.1.max(many));
        println!("{round:>5} {one:>17.0} {many:>18.0} {:>6.2}", many / one);
    }
    println!("best of {rounds}: {:.2}x", best.1 / best.0);
    Ok(())
}

//! Lazy SMP's time to depth with 1 and N threads, side by side in one run: PVS (64 MiB table,
//! killers, history, fastest-first ordering, EV1) to a fixed depth on the 20 positions of FFO 20–39,
//! the two settings alternating position by position, each search with a fresh table.
//!
//! `cargo run --release -p gametree --example alphabeta_threads -- [THREADS] [DEPTH]`
//!
//! (2 threads, depth 11 by default.) Values must agree: Lazy SMP returns the one-thread value.

use std::time::Instant;

use gametree::game::{Limits, Searcher};
use gametree::othello::Othello;
use gametree::othello::{read_obf, Ev1, FastestFirst};
use gametree::search::{AlphaBeta, AlphaBetaConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().map_or(Ok(2), |s| s.parse())?;
    let depth: u32 = args.next().map_or(Ok(11), |s| s.parse())?;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/ffo/fforum-20-39.obf"
    );
    let positions = read_obf(path)?;
    let engine = || {
        AlphaBeta::new(Ev1)
            .with_config(AlphaBetaConfig::pvs(depth))
            .with_ordering(FastestFirst::default())
    };
    let (mut one_total, mut many_total) = (0.0, 0.0);
    println!("  #  value  1 thread s  {threads} threads s  ratio");
    for (i, p) in positions.iter().enumerate() {
        let limits = Limits::none();
        let start = Instant::now();
        let one = engine().search(&Othello, &p.position, &limits);
        let one_s = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let many = engine().search_parallel(&Othello, &p.position, &limits, threads);
        let many_s = start.elapsed().as_secs_f64();
        if (one.value, one.bound) != (many.value, many.bound) {
            return Err(format!("position {}: {one:?} vs {many:?}", i + 1).into());
        }
        (one_total, many_total) = (one_total + one_s, many_total + many_s);
        println!(
            "{:>3} {:>6} {one_s:>11.3} {many_s:>12.3} {:>6.2}",
            i + 1,
            one.value,
            one_s / many_s
        );
    }
    println!(
        "total {one_total:.2} s vs {many_total:.2} s: {:.2}x",
        one_total / many_total
    );
    Ok(())
}

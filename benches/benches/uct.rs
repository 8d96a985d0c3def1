//! UCT simulations per second: on Othello from the start position (each simulation replays the tree
//! moves from a clone of the root, then plays a uniformly random game to the end, about 60 plies),
//! and on a GDL game through the `gdl` reasoner (simultaneous moves and chance: the cooperative
//! matching pennies of Koriche, Lagrue, Piette and Tabary, *General Game Playing with Stochastic
//! CSP*, 2016).
//!
//! `cargo bench -p gametree-benches --bench uct -- --warm-up-time 1 --measurement-time 3`
//! prints the throughput in simulations (elements) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::{Game, Limits};
use gametree::gdl::Loader;
use gametree::othello::Othello;
use gametree::search::{Uct, UctConfig};

const SIMULATIONS: u64 = 2_000;

fn uct() -> Uct {
    Uct::new(UctConfig {
        simulations: SIMULATIONS,
        ..UctConfig::default()
    })
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("uct");
    group.throughput(Throughput::Elements(SIMULATIONS));
    group.sample_size(20);
    let start = Othello.initial_state();
    group.bench_function("othello-start", |b| {
        b.iter(|| uct().analyse(&Othello, &start, &Limits::none()).simulations)
    });
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/gdl/games/matching_pennies.kif"
    );
    let pennies = Loader::file(path).load().expect("the shipped game loads");
    let root = pennies.initial_state();
    group.bench_function("gdl-matching-pennies", |b| {
        b.iter(|| uct().analyse(&pennies, &root, &Limits::none()).simulations)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

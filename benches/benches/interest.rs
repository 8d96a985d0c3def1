//! Nodes per second of search-core's α/β with Rollason's interest horizon against plain depth, on
//! the same positions and with the same engine, to show what the interest policy costs per node.
//!
//! - `interest/depth`: iterative-deepening PVS (no table) to depth 5 with the Othello plausibility
//!   as move ordering (the interest-table experiment's OFF player).
//! - `interest/interest`: the same engine with [`InterestHorizon`] over [`OthelloPlausibility`]
//!   (defaults, `limit_step` 1000) at 12 iterations, which generates about as many nodes: every
//!   move's interest is computed twice (once to order, once to charge), the per-node price of the
//!   policy.
//! - `interest/uniform`: the interest horizon with [`Uniform`] costs and no sibling tally, i.e.
//!   exactly the depth-5 tree: the price of the budget bookkeeping alone.
//!
//! Throughput is in nodes (elements) per second: each benchmark's element count is the nodes its
//! searches generate over the positions, counted once beforehand (searches are deterministic).
//!
//! `cargo bench -p gametree-benches --bench interest -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::{HorizonPolicy, Limits, Searcher};
use gametree::interest_search::{InterestConfig, InterestHorizon, InterestOrdering, Uniform};
use gametree::othello::{random_position, Ev1, Othello, OthelloPlausibility, Position};
use gametree::search::{AlphaBeta, AlphaBetaConfig};

fn positions() -> Vec<Position> {
    (0..8).map(|seed| random_position(seed, 44)).collect()
}

fn engine(iterations: u32) -> AlphaBetaConfig {
    AlphaBetaConfig {
        tt_bytes: 0,
        ..AlphaBetaConfig::pvs(iterations)
    }
}

/// Searches every position, returning the nodes generated.
fn run_all<S: Searcher<Othello>>(searcher: &mut S, positions: &[Position]) -> u64 {
    positions
        .iter()
        .map(|p| {
            searcher.reset();
            searcher
                .search(&Othello, p, &Limits::none())
                .stats
                .generated
        })
        .sum()
}

fn bench_one<H: HorizonPolicy<Othello>>(
    c: &mut Criterion,
    name: &str,
    horizon: H,
    iterations: u32,
    positions: &[Position],
) {
    let mut searcher = AlphaBeta::new(Ev1)
        .with_config(engine(iterations))
        .with_horizon(horizon)
        .with_ordering(InterestOrdering::new(OthelloPlausibility::new()));
    let nodes = run_all(&mut searcher, positions);
    let mut group = c.benchmark_group("interest");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(name, |b| b.iter(|| run_all(&mut searcher, positions)));
    group.finish();
}

fn interest(c: &mut Criterion) {
    let positions = positions();
    bench_one(c, "depth", gametree::game::DepthHorizon, 5, &positions);
    let interest = InterestHorizon::new(OthelloPlausibility::new());
    bench_one(c, "interest", interest, 12, &positions);
    let uniform = InterestConfig {
        sibling_percent: 0,
        ..InterestConfig::default()
    };
    bench_one(
        c,
        "uniform",
        InterestHorizon::with_config(uniform, Uniform(100)),
        5,
        &positions,
    );
}

criterion_group!(benches, interest);
criterion_main!(benches);

//! Time per move of the conspiracy-number players against plain α/β on the same Othello positions,
//! and the cost of the conspiracy layer over building its tree.
//!
//! - `cn_move/*`: one full decision of CN(5, 0), CN(3, 2) (EV1) and of α/β depth 5 (EV1, plain, no
//!   ordering or TT: CN(0, 5) in the paper's terms), on midgame positions (random legal playouts to 50
//!   empty squares).
//! - `cn_layer/*`: the depth-5 explicit tree alone (`build`), and the tree plus the conspiracy numbers
//!   and CAEV of every root child (`build+caev`): the difference is the CN layer's cost, which is one
//!   vector operation of 41 counters per node (RANGE 1000 / STEP 50).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gametree::conspiracy::{CaevConfig, CaevPlayer, ConspiracyNumbers, MinimaxTree};
use gametree::game::{Limits, Searcher};
use gametree::othello::{random_position, Ev1, Othello, Position};
use gametree::search::{AlphaBeta, AlphaBetaConfig};

/// One corner, EV1's unit: the paper's RANGE = 1000 and STEP = 50.
const EV1_UNIT: i32 = 1000;

fn positions() -> Vec<Position> {
    (1..=4).map(|seed| random_position(seed, 50)).collect()
}

fn alpha_beta(depth: u32) -> AlphaBeta<Ev1> {
    AlphaBeta::new(Ev1).with_config(AlphaBetaConfig {
        depth,
        ..AlphaBetaConfig::default()
    })
}

fn cn_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("cn_move");
    group.sample_size(10);
    for (i, position) in positions().iter().enumerate() {
        let mut cn50 = CaevPlayer::new(Ev1, 5, EV1_UNIT).unwrap();
        group.bench_with_input(BenchmarkId::new("cn(5,0)", i), position, |b, p| {
            b.iter(|| cn50.search(&Othello, p, &Limits::none()))
        });
        let mut cn32 = CaevPlayer::layered(alpha_beta(2), 3, 2, EV1_UNIT).unwrap();
        group.bench_with_input(BenchmarkId::new("cn(3,2)", i), position, |b, p| {
            b.iter(|| cn32.search(&Othello, p, &Limits::none()))
        });
        let mut ab5 = alpha_beta(5);
        group.bench_with_input(BenchmarkId::new("alphabeta(5)", i), position, |b, p| {
            b.iter(|| ab5.search(&Othello, p, &Limits::none()))
        });
    }
    group.finish();
}

fn cn_layer(c: &mut Criterion) {
    let mut group = c.benchmark_group("cn_layer");
    group.sample_size(10);
    let config = CaevConfig::for_unit(EV1_UNIT.into()).unwrap();
    let mut numbers = ConspiracyNumbers::new();
    for (i, position) in positions().iter().enumerate() {
        let nodes = MinimaxTree::build(&Othello, position, 5, &mut Ev1).len();
        eprintln!("cn_layer position {i}: {nodes} nodes in the depth-5 tree");
        group.bench_with_input(BenchmarkId::new("build", i), position, |b, p| {
            b.iter(|| MinimaxTree::build(&Othello, p, 5, &mut Ev1).len())
        });
        group.bench_with_input(BenchmarkId::new("build+caev", i), position, |b, p| {
            b.iter(|| {
                let tree = MinimaxTree::build(&Othello, p, 5, &mut Ev1);
                let children: Vec<_> = tree.root().children().collect();
                children
                    .into_iter()
                    .map(|child| config.caev(&tree, child, &mut numbers))
                    .fold(f64::MIN, f64::max)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, cn_move, cn_layer);
criterion_main!(benches);

//! The generic `search_core::perft` (any `GeneralGame`, through the trait, explicit stack, bulk
//! counting at the last ply) against Othello's hand-written bitboard perft, on the same position
//! and depth: what genericity costs.
//!
//! `cargo bench -p gametree-benches --bench perft -- --warm-up-time 1 --measurement-time 3`
//! prints the throughput in leaves (elements) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::Game;
use gametree::othello::{Board, Othello};
use gametree::search::perft;

const DEPTH: u32 = 7;
const LEAVES: u64 = 55_092;

fn bench(c: &mut Criterion) {
    let start = Othello.initial_state();
    assert_eq!(perft(&Othello, &start, DEPTH), LEAVES);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(LEAVES));
    group.bench_function("othello-generic", |b| {
        b.iter(|| perft(&Othello, std::hint::black_box(&start), DEPTH))
    });
    group.bench_function("othello-handwritten", |b| {
        b.iter(|| gametree::othello::perft(std::hint::black_box(Board::START), DEPTH))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

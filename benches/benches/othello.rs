//! othello-bitboard's hot paths: bulk-counting perft (run-time dispatched and portable builds), move
//! generation and flips, the EV1 evaluation, the exact solver of the last empties, and the composed
//! endgame solver (search-core PVS + the Othello hooks).
//!
//! `cargo bench -p gametree-benches --bench othello -- --warm-up-time 1 --measurement-time 3`
//! (perft(11) and the FFO 20-39 figures are too long for criterion: see the crate docs and the
//! `gametree perft othello 11` / `gametree solve` CLI commands).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::Evaluator;
use gametree::othello::endgame::solve_exact;
use gametree::othello::{
    board, perft, perft_portable, random_game, random_position, Board, Ev1, Othello, Position,
};
use gametree::othello_solve::{SolveOptions, Solver};
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    const DEPTH: u32 = 9;
    const LEAVES: u64 = 3_005_288;
    assert_eq!(perft(Board::START, DEPTH), LEAVES);
    let mut group = c.benchmark_group("othello-perft9");
    group.throughput(Throughput::Elements(LEAVES));
    group.sample_size(20);
    group.bench_function("dispatched", |b| {
        b.iter(|| perft(black_box(Board::START), DEPTH))
    });
    group.bench_function("portable", |b| {
        b.iter(|| perft_portable(black_box(Board::START), DEPTH))
    });
    group.finish();
}

/// Every position of a few seeded random games: a realistic mix of openings, middle games, endings.
fn positions() -> Vec<Position> {
    (0..20).flat_map(random_game).collect()
}

fn bench_board(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("othello-board");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| board::moves(black_box(p.board().player()), p.board().opponent()))
                .fold(0, |a, m| a ^ m)
        })
    });
    group.bench_function("play-first-move", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter_map(|p| p.legal_moves().first().map(|&m| black_box(p).play_legal(m)))
                .count()
        })
    });
    group.bench_function("ev1", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| Ev1.evaluate(&Othello, black_box(p)))
                .fold(0i64, |a, v| a + v as i64)
        })
    });
    group.finish();
}

fn bench_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("othello-solve");
    group.sample_size(10);
    let small: Vec<Position> = (0..100).map(|seed| random_position(seed, 8)).collect();
    group.throughput(Throughput::Elements(small.len() as u64));
    group.bench_function("exact-8-empties", |b| {
        b.iter(|| {
            let mut nodes = 0;
            small
                .iter()
                .map(|p| solve_exact(black_box(p.board()), &mut nodes))
                .sum::<i32>()
        })
    });
    let medium: Vec<Position> = (0..10).map(|seed| random_position(seed, 16)).collect();
    let mut solver = Solver::new(SolveOptions {
        tt_bytes: 4 << 20,
        ..SolveOptions::default()
    });
    group.throughput(Throughput::Elements(medium.len() as u64));
    group.bench_function("pvs-16-empties", |b| {
        b.iter(|| {
            medium
                .iter()
                .map(|p| solver.solve(black_box(p)).score)
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_board, bench_solve);
criterion_main!(benches);

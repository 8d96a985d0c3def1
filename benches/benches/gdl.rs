//! GDL games: load time of the shipped big games, and random playouts per second, fast (grounded)
//! reasoner against the reference one on the small games, and on every big game with the reasoner
//! it loads with (chess and amazons: the reference reasoner, goal-directed).
//!
//! Goals, one core: load < 2 s for each shipped game; chess ≥ 500 random playouts/s,
//! Othello ≥ 1,000/s, breakthrough ≥ 5,000/s, connect four ≥ 50,000/s, tic-tac-toe ≥ 300,000/s.
//! `gdl_uct_vs_playout`: UCT's simulations against bare random games on Tron (10x10,
//! simultaneous), per game: a simulation (descent, expansion, playout, goals) should cost about a
//! random game, not 60 times more as in a reasoner that evaluates every goal rule at each terminal.
//! Run: `cargo bench -p gametree-benches --bench gdl`; the same figures, one game at a time:
//! `gametree gdl bench FILE` (docs/reproductions.md).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::{Game, Limits, Searcher};
use gametree::search::{Uct, UctConfig};
use gdl::{random_playout, GdlGame, Loader, ReasonerKind};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn text(name: &str) -> String {
    let path = format!("{}/../crates/gdl/games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("shipped game")
}

fn game(name: &str) -> GdlGame {
    Loader::text(&text(name))
        .name(name)
        .load()
        .expect("shipped game")
}

const BIG: [&str; 8] = [
    "chess.kif",
    "chess_groundable.kif",
    "checkers.kif",
    "othello.kif",
    "breakthrough.kif",
    "amazons.kif",
    "hex.kif",
    "pacman.kif",
];

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("gdl_load");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for name in BIG {
        let text = text(name);
        group.bench_function(name, |b| {
            b.iter(|| Loader::text(&text).name(name).load().expect("loads"))
        });
    }
    group.finish();
}

fn play(c: &mut Criterion, group: &str, games: &[(&str, GdlGame)]) {
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(1));
    for (label, g) in games {
        let mut rng = Pcg64::seed_from_u64(1);
        group.bench_function(*label, |b| {
            b.iter(|| {
                let p = random_playout(g, g.initial_state(), &mut rng, 100_000);
                assert!(p.finished);
                p.steps
            })
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut small = Vec::new();
    for name in ["tictactoe.kif", "connect4.kif"] {
        let fast = game(name);
        assert_eq!(fast.reasoner_kind(), ReasonerKind::Fast);
        let reference = fast
            .clone()
            .with_reasoner(ReasonerKind::Reference)
            .expect("reference");
        small.push((name, fast));
        small.push((name, reference));
    }
    let labelled: Vec<(String, GdlGame)> = small
        .into_iter()
        .map(|(name, g)| {
            let kind = g.reasoner_kind().name();
            (format!("{name}/{kind}"), g)
        })
        .collect();
    let labelled: Vec<(&str, GdlGame)> = labelled
        .iter()
        .map(|(l, g)| (l.as_str(), g.clone()))
        .collect();
    play(c, "gdl_playout", &labelled);
    let big: Vec<(&str, GdlGame)> = BIG.iter().map(|&name| (name, game(name))).collect();
    play(c, "gdl_playout_big", &big);
}

/// UCT simulations against random games on Tron, both counted per game.
fn uct_against_playouts(c: &mut Criterion) {
    const SIMULATIONS: u64 = 2_000;
    let tron = game("tron.kif");
    assert_eq!(tron.reasoner_kind(), ReasonerKind::Fast);
    let mut group = c.benchmark_group("gdl_uct_vs_playout");
    group.throughput(Throughput::Elements(SIMULATIONS));
    let mut rng = Pcg64::seed_from_u64(1);
    group.bench_function("tron.kif/playouts", |b| {
        b.iter(|| {
            (0..SIMULATIONS)
                .map(|_| random_playout(&tron, tron.initial_state(), &mut rng, 1_000).steps)
                .sum::<usize>()
        })
    });
    group.bench_function("tron.kif/uct", |b| {
        b.iter(|| {
            let mut uct = Uct::new(UctConfig {
                simulations: SIMULATIONS,
                ..UctConfig::default()
            });
            let start = tron.initial_state();
            uct.search(&tron, &start, &Limits::none()).stats.evaluated
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3));
    targets = load, playouts, uct_against_playouts
}
criterion_main!(benches);

//! The stochastic-constraint solver and players (Koriche, Lagrue, Piette and Tabary, *General Game
//! Playing with Stochastic CSP*, 2016):
//!
//! - `gac/…`: enumerating every solution of random table CSPs by MAC, with Compact-Table
//!   (Demeulenaere et al., CP 2016) against the simple STR-style propagator (the tests' oracle),
//!   on the same instances: arity 3 to 5, `n{variables}-d{domain}-e{constraints}-r{arity}`;
//! - `resolution/…`: every feasible policy of random game-round-shaped one-stage networks
//!   (`random::round_like`) of growing size, by MAC + FC (MAC-UCB's) and by FC alone (FC-UCB's),
//!   in policies (elements) per second;
//! - `players/…`: samples per second of MAC-UCB, FC-UCB and UCT from the opening of Pig to 30, and
//!   of MAC-UCB on the round encoding of tic-tac-toe's GDL rules (`gdl::GdlRound`);
//! - `encode/…`: encoding a loaded GDL game as a round (`gdl::GdlRound::new`), as the time column
//!   of the paper's Table 2.
//!
//! `cargo bench -p gametree-benches --bench scsp -- --warm-up-time 1 --measurement-time 5`.
//! Figures: `docs/reproductions.md`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gametree::game::{Game, Limits, Searcher};
use gametree::gdl::{GdlGame, GdlRound, Loader};
use gametree::scsp::gac::{count_solutions, Engine};
use gametree::scsp::games::Pig;
use gametree::scsp::random::{round_like, table_csp};
use gametree::scsp::{solve, Algorithm, MacUcb, MacUcbConfig, SolveOptions};
use gametree::search::{Uct, UctConfig};

/// `(variables, domain, constraints, arity, density)`: from about 1,000 to 5,000 solutions, or
/// none (the arity-5 instance), each a few hundred thousand search nodes.
const CSPS: [(usize, usize, usize, usize, f64); 4] = [
    (20, 6, 40, 3, 0.5),
    (18, 8, 24, 3, 0.3),
    (14, 8, 14, 4, 0.2),
    (13, 6, 12, 5, 0.15),
];

fn gac(c: &mut Criterion) {
    let mut group = c.benchmark_group("gac");
    group.sample_size(10);
    for (n, d, e, r, density) in CSPS {
        let (tables, sizes) = table_csp(n, d, e, r, density, 1);
        let name = format!("n{n}-d{d}-e{e}-r{r}");
        for (engine, label) in [
            (Engine::CompactTable, "compact-table"),
            (Engine::Str, "str"),
        ] {
            group.bench_function(BenchmarkId::new(label, &name), |b| {
                b.iter(|| count_solutions(&tables, &sizes, engine))
            });
        }
    }
    group.finish();
}

fn resolution(c: &mut Criterion) {
    let mut group = c.benchmark_group("resolution");
    group.sample_size(10);
    for decisions in [10, 14, 18] {
        let network = round_like(decisions, 1);
        let options = |algorithm| SolveOptions {
            algorithm,
            ..SolveOptions::default()
        };
        let policies = solve(&network, &options(Algorithm::MacFc))
            .expect("valid")
            .feasible
            .len();
        group.throughput(Throughput::Elements(policies as u64));
        for (algorithm, label) in [(Algorithm::MacFc, "mac+fc"), (Algorithm::Fc, "fc")] {
            group.bench_function(BenchmarkId::new(label, decisions), |b| {
                b.iter(|| {
                    solve(&network, &options(algorithm))
                        .expect("valid")
                        .feasible
                        .len()
                })
            });
        }
    }
    group.finish();
}

const SAMPLES: u64 = 2_000;

fn players(c: &mut Criterion) {
    let mut group = c.benchmark_group("players");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SAMPLES));
    let pig = Pig::new(30);
    let root = pig.initial_state();
    for (config, label) in [
        (MacUcbConfig::default(), "mac-ucb"),
        (MacUcbConfig::fc_ucb(), "fc-ucb"),
    ] {
        let config = MacUcbConfig {
            samples: SAMPLES,
            ..config
        };
        // A fresh player per search: the cache would otherwise make later searches cheaper.
        group.bench_function(BenchmarkId::new(label, "pig-30"), |b| {
            b.iter(|| {
                let mut player = MacUcb::new(config.clone()).expect("valid parameters");
                player.search(&pig, &root, &Limits::none()).stats.evaluated
            })
        });
    }
    let ttt = GdlRound::new(gdl_game("tictactoe")).expect("tic-tac-toe encodes");
    let start = ttt.initial_state();
    group.bench_function(BenchmarkId::new("mac-ucb", "tictactoe.kif"), |b| {
        b.iter(|| {
            let config = MacUcbConfig {
                samples: SAMPLES,
                ..MacUcbConfig::default()
            };
            let mut player = MacUcb::new(config).expect("valid parameters");
            player.search(&ttt, &start, &Limits::none()).stats.evaluated
        })
    });
    group.bench_function(BenchmarkId::new("uct", "pig-30"), |b| {
        b.iter(|| {
            let mut uct = Uct::new(UctConfig {
                simulations: SAMPLES,
                ..UctConfig::default()
            });
            uct.search(&pig, &root, &Limits::none()).stats.evaluated
        })
    });
    group.finish();
}

/// A shipped GDL game.
fn gdl_game(name: &str) -> GdlGame {
    let path = format!(
        "{}/../crates/gdl/games/{name}.kif",
        env!("CARGO_MANIFEST_DIR")
    );
    Loader::file(path).load().expect("a shipped game loads")
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode");
    group.sample_size(10);
    // Connect four and Othello go through helper variables (gates); yahtzee_mini has chance.
    for name in [
        "matching_pennies",
        "dice_duel",
        "tictactoe",
        "yahtzee_mini",
        "connect4",
        "othello",
    ] {
        let game = gdl_game(name);
        group.bench_function(name, |b| {
            b.iter(|| GdlRound::new(game.clone()).expect("encodes").stats())
        });
    }
    group.finish();
}

criterion_group!(benches, gac, resolution, players, encode);
criterion_main!(benches);

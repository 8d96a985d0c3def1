//! Random playouts per second of GDL games, fast (grounded) reasoner against the reference one.
//!
//! Goals (issue 5): ≥ 200,000 tic-tac-toe and ≥ 20,000 connect-four playouts/s on one core with the
//! fast reasoner. Run: `cargo bench -p gametree-benches --bench gdl`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::Game;
use gdl::{random_playout, GdlGame, ReasonerKind};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn game(name: &str) -> GdlGame {
    GdlGame::from_file(format!(
        "{}/../crates/gdl/games/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("shipped game")
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("gdl_playout");
    group.throughput(Throughput::Elements(1));
    for name in ["tictactoe.kif", "connect4.kif"] {
        let fast = game(name);
        assert_eq!(fast.reasoner_kind(), ReasonerKind::Fast);
        let reference = fast
            .clone()
            .with_reasoner(ReasonerKind::Reference)
            .expect("reference");
        for (label, g) in [("fast", &fast), ("reference", &reference)] {
            let mut rng = Pcg64::seed_from_u64(1);
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    let p = random_playout(g, g.initial_state(), &mut rng, 1000);
                    assert!(p.finished);
                    p.steps
                })
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = playouts
}
criterion_main!(benches);

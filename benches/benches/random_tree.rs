//! Node generation on Zhang's incremental random trees: α/β and forward estimation (exact and on-line
//! bounds) searching depth-10 trees with mean branching 5 to the end. Criterion's throughput is in
//! nodes generated per second (`elem/s`); the goal is well under a microsecond per node.
//!
//! `cargo bench -p gametree-benches --bench random_tree`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gametree::forward_estimation::{EdgeBounds, ForwardEstimation};
use gametree::game::{ForwardPruning, Limits, NoPruning, Searcher};
use gametree::random_tree::{NodeCost, RandomTree, RandomTreeConfig};
use gametree::search::{AlphaBeta, AlphaBetaConfig};

const DEPTH: u32 = 10;
/// Trees per iteration: enough that one odd tree does not dominate.
const TREES: u64 = 8;

fn search_all<P: ForwardPruning<RandomTree>>(
    trees: &[RandomTree],
    pruning: impl Fn(&RandomTree) -> P,
) -> u64 {
    trees
        .iter()
        .map(|t| {
            AlphaBeta::new(NodeCost)
                .with_config(AlphaBetaConfig::alpha_beta(DEPTH))
                .with_pruning(pruning(t))
                .search(t, &t.root(), &Limits::none())
                .stats
                .generated
        })
        .sum()
}

fn exact(t: &RandomTree) -> ForwardEstimation {
    let (l, u) = t.exact_edge_bounds();
    ForwardEstimation::new(EdgeBounds::Exact { l, u })
}

fn bench(c: &mut Criterion) {
    for (name, config) in [
        ("random b=5", RandomTreeConfig::random(5, DEPTH as u16)),
        ("uniform b=5", RandomTreeConfig::uniform(5, DEPTH as u16)),
    ] {
        let trees: Vec<RandomTree> = (0..TREES)
            .map(|k| RandomTree::new(config.trial(k)).unwrap())
            .collect();
        let mut group = c.benchmark_group(format!("random_tree d=10 {name}"));
        group.sample_size(10);
        let nodes = search_all(&trees, |_| NoPruning);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function("alphabeta", |b| {
            b.iter(|| black_box(search_all(&trees, |_| NoPruning)))
        });
        let nodes = search_all(&trees, exact);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function("fe exact", |b| {
            b.iter(|| black_box(search_all(&trees, exact)))
        });
        let online = |_: &RandomTree| ForwardEstimation::new(EdgeBounds::Online);
        let nodes = search_all(&trees, online);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function("fe online", |b| {
            b.iter(|| black_box(search_all(&trees, online)))
        });
        group.finish();
    }
    // Generating one child alone: a hash and a multiply-shift per quantity.
    let tree = RandomTree::new(RandomTreeConfig::random(5, 100)).unwrap();
    let mut group = c.benchmark_group("random_tree child");
    group.throughput(Throughput::Elements(1000));
    group.bench_function("1000 children", |b| {
        b.iter(|| {
            let mut node = tree.root();
            let mut sum = 0i64;
            for i in 0..1000u16 {
                let child = tree.child(&node, i % node.branching());
                sum += i64::from(child.cost());
                node = if child.branching() > 0 {
                    child
                } else {
                    tree.root()
                };
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

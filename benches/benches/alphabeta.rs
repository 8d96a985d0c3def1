//! Nodes per second of search-core's α/β on a synthetic tree, to show that the engine's unused hooks
//! are free and what enabled ones cost.
//!
//! The tree is implicit and cheap (a node is a 64-bit hash and a ply; children and values are
//! computed by mixing bits), so the engine's own overhead dominates:
//!
//! - `alphabeta/handwritten`: a 25-line fail-soft negamax α/β, no hooks, no statistics: the floor.
//! - `alphabeta/default-hooks`: `AlphaBeta` with `NoPruning`, `DepthHorizon`, `NoOrdering`
//!   (`NoPruning`'s and `NoOrdering`'s `ENABLED = false` constants delete their call sites;
//!   `DepthHorizon`'s methods are one-line inline functions).
//! - `alphabeta/pass-through-hooks`: a pruning hook with `ENABLED = true` that never prunes (so the
//!   engine computes the parent's and every child's static value for it) and a horizon policy that
//!   re-implements depth with a per-node tally. Same tree, same node count.
//!
//! `cargo bench -p gametree-benches --bench alphabeta -- --warm-up-time 1 --measurement-time 3`
//! prints the throughput in nodes (elements) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametree::game::{
    mix64, Evaluator, ForwardPruning, Game, HorizonPolicy, Limits, MoveList, Outcome, PlayerId,
    PruneContext, Score, Searcher, Step, ZeroSumGame, INFINITY,
};
use gametree::search::{AlphaBeta, AlphaBetaConfig};

const BRANCHING: u32 = 8;
const DEPTH: u32 = 8;

/// A uniform tree of branching [`BRANCHING`] whose nodes are `(hash, ply)`.
#[derive(Clone, Copy, Debug)]
struct Synthetic;

impl Game for Synthetic {
    type State = (u64, u32);
    type Move = u32;
    fn initial_state(&self) -> (u64, u32) {
        (0x1234_5678, 0)
    }
    #[inline]
    fn apply(&self, s: &mut (u64, u32), mv: u32) -> Option<(u64, u32)> {
        Some((mix64(s.0 ^ (mv as u64 + 1)), s.1 + 1))
    }
    #[inline]
    fn state_hash(&self, s: &(u64, u32)) -> Option<u64> {
        Some(s.0)
    }
}

impl ZeroSumGame for Synthetic {
    const ALTERNATES: bool = true;

    #[inline]
    fn side_to_move(&self, s: &(u64, u32)) -> PlayerId {
        s.1 as PlayerId & 1
    }
    /// The tree never ends: searches stop at their depth.
    #[inline]
    fn outcome(&self, _: &(u64, u32)) -> Option<Outcome> {
        None
    }
    #[inline]
    fn moves(&self, _: &(u64, u32), moves: &mut MoveList<u32>) {
        moves.extend(0..BRANCHING);
    }
}

/// Values in -500..=500 from the hash.
#[derive(Clone, Copy, Debug)]
struct HashValue;

impl Evaluator<Synthetic> for HashValue {
    #[inline]
    fn evaluate(&mut self, _: &Synthetic, s: &(u64, u32)) -> Score {
        (s.0 % 1001) as Score - 500
    }
}

/// Enabled, never prunes.
#[derive(Clone, Copy, Debug)]
struct NeverPrune;

impl<G: ZeroSumGame> ForwardPruning<G> for NeverPrune {
    #[inline]
    fn prune(&mut self, _: &PruneContext) -> Option<Score> {
        None
    }
}

/// Depth, re-implemented with a per-node tally.
#[derive(Clone, Copy, Debug)]
struct CountingDepth;

impl<G: ZeroSumGame> HorizonPolicy<G> for CountingDepth {
    type Budget = u32;
    type NodeTally = u32;
    #[inline]
    fn root_budget(&mut self, iteration: u32) -> u32 {
        iteration
    }
    #[inline]
    fn is_leaf(&self, _: &G, _: &G::State, depth: &u32) -> bool {
        *depth == 0
    }
    #[inline]
    fn child_budget(
        &mut self,
        _: &G,
        _: &G::State,
        depth: &u32,
        tally: &mut u32,
        _: Step<G::Move>,
    ) -> Option<u32> {
        *tally += 1;
        Some(depth - 1)
    }
    #[inline]
    fn draft(&self, depth: &u32) -> u32 {
        *depth
    }
}

/// The floor: fail-soft negamax α/β (cutoff `≥ β`) with no hooks and no statistics but a node count.
fn handwritten(s: (u64, u32), depth: u32, mut alpha: Score, beta: Score, nodes: &mut u64) -> Score {
    if depth == 0 {
        return HashValue.evaluate(&Synthetic, &s);
    }
    let mut moves = MoveList::new();
    Synthetic.moves(&s, &mut moves);
    let mut best = -INFINITY;
    for &mv in &moves {
        *nodes += 1;
        let child = Synthetic.apply(&mut s.clone(), mv).unwrap();
        let x = -handwritten(child, depth - 1, -beta, -alpha, nodes);
        best = best.max(x);
        if best >= beta {
            break;
        }
        alpha = alpha.max(x);
    }
    best
}

fn nodes_per_second(c: &mut Criterion) {
    let root = Synthetic.initial_state();
    let limits = Limits::none();
    let config = AlphaBetaConfig::alpha_beta(DEPTH);
    let mut plain = AlphaBeta::new(HashValue).with_config(config);
    let mut hooked = AlphaBeta::new(HashValue)
        .with_config(config)
        .with_pruning(NeverPrune)
        .with_horizon(CountingDepth);
    let reference = plain.search(&Synthetic, &root, &limits);
    let with_hooks = hooked.search(&Synthetic, &root, &limits);
    let mut hand_nodes = 1;
    let hand_value = handwritten(root, DEPTH, -INFINITY, INFINITY, &mut hand_nodes);
    // Same tree, same algorithm: same value and node count for all three.
    assert_eq!(reference.value, hand_value);
    assert_eq!(reference.stats.generated, hand_nodes);
    assert_eq!(reference.stats, with_hooks.stats);
    let nodes = reference.stats.generated;
    eprintln!(
        "synthetic tree b={BRANCHING} d={DEPTH}: {nodes} nodes generated per search (minimax: {})",
        (0..=DEPTH).map(|d| (BRANCHING as u64).pow(d)).sum::<u64>()
    );

    let mut group = c.benchmark_group("alphabeta");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("handwritten", |b| {
        b.iter(|| {
            let mut n = 1;
            handwritten(root, DEPTH, -INFINITY, INFINITY, &mut n)
        })
    });
    group.bench_function("default-hooks", |b| {
        b.iter(|| plain.search(&Synthetic, &root, &limits).value)
    });
    group.bench_function("pass-through-hooks", |b| {
        b.iter(|| hooked.search(&Synthetic, &root, &limits).value)
    });
    group.finish();
}

criterion_group!(benches, nodes_per_second);
criterion_main!(benches);

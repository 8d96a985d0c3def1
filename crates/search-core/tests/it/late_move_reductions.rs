//! Late-move reductions: where they apply, what they leave alone, and that the re-search path
//! keeps values exact when the reduction is zero plies. Their effect on strength is measured in
//! matches (docs/reproductions.md), not here: a reduced search no longer returns minimax values.

use game_trait::{Bound, Cutoff, HorizonPolicy, Limits, SearchResult, Searcher, Step, ZeroSumGame};
use quickcheck::TestResult;
use search_core::{
    AlphaBeta, AlphaBetaConfig, ExplicitTree, LateMoveReduction, LeafValue, Minimax,
};

use crate::common::{check, random_tree};

/// A random tree of depth 2..=7 and branching 2..=6 from quickcheck's raw numbers.
fn tree(seed: u64, depth: u8, branching: u8) -> (ExplicitTree, u32) {
    random_tree(seed, depth, branching, 2..=7, 2..=6)
}

fn pvs(depth: u32, cutoff: Cutoff, lmr: Option<LateMoveReduction>) -> AlphaBetaConfig {
    AlphaBetaConfig {
        depth,
        cutoff,
        pvs: true,
        late_move_reduction: lmr,
        ..AlphaBetaConfig::default()
    }
}

fn search<H: HorizonPolicy<ExplicitTree> + Clone>(
    tree: &ExplicitTree,
    config: AlphaBetaConfig,
    horizon: H,
) -> SearchResult<u32> {
    AlphaBeta::new(LeafValue)
        .with_config(config)
        .with_horizon(horizon)
        .search(tree, &0, &Limits::none())
}

/// Reduce everything that may be reduced.
const EAGER: LateMoveReduction = LateMoveReduction {
    plies: 1,
    after: 1,
    min_draft: 2,
};

#[test]
fn reducing_by_zero_plies_keeps_the_exact_value() {
    // The reduced search is then the null-window search itself: a move that fails low there is
    // no better than α, and one that does not is searched again, so every value stays exact.
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (tree, depth) = tree(seed, depth, branching);
        let exact = Minimax::new(LeafValue, depth).search(&tree, &0, &Limits::none());
        for cutoff in [Cutoff::AtLeastBeta, Cutoff::AboveBeta] {
            for iterative in [false, true] {
                let lmr = LateMoveReduction { plies: 0, ..EAGER };
                let config = AlphaBetaConfig {
                    iterative,
                    tt_bytes: if iterative { 1 << 16 } else { 0 },
                    ..pvs(depth, cutoff, Some(lmr))
                };
                let r = search(&tree, config, game_trait::DepthHorizon);
                if (r.value, r.bound) != (exact.value, Bound::Exact) {
                    return TestResult::error(format!("{cutoff:?} {iterative}: {r:?}"));
                }
            }
        }
        TestResult::passed()
    }
    check(500, prop);
}

/// A depth horizon that does not know how to reduce (the trait's default).
#[derive(Clone, Copy, Debug, Default)]
struct Unreducible;

impl<G: ZeroSumGame> HorizonPolicy<G> for Unreducible {
    type Budget = u32;
    type NodeTally = ();
    fn root_budget(&mut self, iteration: u32) -> u32 {
        iteration
    }
    fn is_leaf(&self, _: &G, _: &G::State, depth: &u32) -> bool {
        *depth == 0
    }
    fn child_budget(
        &mut self,
        _: &G,
        _: &G::State,
        d: &u32,
        _: &mut (),
        _: Step<G::Move>,
    ) -> Option<u32> {
        Some(d - 1)
    }
    fn draft(&self, depth: &u32) -> u32 {
        *depth
    }
}

#[test]
fn reductions_leave_alone_what_they_may_not_reduce() {
    // Same value, same bound, same work as without reductions: a horizon that cannot reduce,
    // nodes shallower than `min_draft`, and nodes with no more than `after` moves.
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (tree, depth) = tree(seed, depth, branching);
        let plain = search(
            &tree,
            pvs(depth, Cutoff::AtLeastBeta, None),
            game_trait::DepthHorizon,
        );
        let cases = [
            (
                "unreducible",
                search(
                    &tree,
                    pvs(depth, Cutoff::AtLeastBeta, Some(EAGER)),
                    Unreducible,
                ),
            ),
            (
                "shallow",
                search(
                    &tree,
                    pvs(
                        depth,
                        Cutoff::AtLeastBeta,
                        Some(LateMoveReduction {
                            min_draft: depth + 1,
                            ..EAGER
                        }),
                    ),
                    game_trait::DepthHorizon,
                ),
            ),
            (
                "few moves",
                search(
                    &tree,
                    pvs(
                        depth,
                        Cutoff::AtLeastBeta,
                        Some(LateMoveReduction { after: 6, ..EAGER }),
                    ),
                    game_trait::DepthHorizon,
                ),
            ),
        ];
        for (what, r) in cases {
            if (r.value, r.bound, r.stats.generated)
                != (plain.value, plain.bound, plain.stats.generated)
            {
                return TestResult::error(format!("{what}: {r:?} vs {plain:?}"));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

#[test]
fn reductions_without_pvs_reduce_nothing() {
    // Only null-window searches are reduced.
    let tree = ExplicitTree::random(7, 6, 5);
    let config = |lmr| AlphaBetaConfig {
        pvs: false,
        ..pvs(6, Cutoff::AtLeastBeta, lmr)
    };
    let plain = search(&tree, config(None), game_trait::DepthHorizon);
    let reduced = search(&tree, config(Some(EAGER)), game_trait::DepthHorizon);
    assert_eq!(
        (plain.value, plain.stats.generated),
        (reduced.value, reduced.stats.generated)
    );
}

#[test]
fn reductions_search_fewer_nodes_on_wide_trees() {
    let (mut plain, mut reduced) = (0, 0);
    let mut changed = 0;
    for seed in 0..40 {
        let tree = ExplicitTree::random(seed, 7, 6);
        let a = search(
            &tree,
            pvs(7, Cutoff::AtLeastBeta, None),
            game_trait::DepthHorizon,
        );
        let b = search(
            &tree,
            pvs(7, Cutoff::AtLeastBeta, Some(EAGER)),
            game_trait::DepthHorizon,
        );
        plain += a.stats.generated;
        reduced += b.stats.generated;
        changed += usize::from(a.value != b.value);
        assert!(tree.children(0).len() > b.best_move.unwrap() as usize);
    }
    assert!(reduced * 10 < plain * 8, "{reduced} vs {plain} nodes");
    // Random trees have no ordering for late moves to be worse by, so some values change: the
    // reductions really are a heuristic, not a disguised exact search.
    assert!(changed > 0, "no value changed in 40 trees");
}

#[test]
fn reductions_apply_inside_null_window_searches() {
    // Below a null window every node's window is already null: that is most of the tree, and
    // where reductions save the most.
    let (mut plain, mut reduced) = (0, 0);
    for seed in 0..40 {
        let tree = ExplicitTree::random(seed, 7, 6);
        let scout = |lmr| {
            AlphaBeta::new(LeafValue)
                .with_config(pvs(7, Cutoff::AtLeastBeta, lmr))
                .search_window(&tree, &0, &Limits::none(), -1, 0)
        };
        plain += scout(None).stats.generated;
        reduced += scout(Some(EAGER)).stats.generated;
    }
    // Null-window searches of these trees cut early (a few thousand nodes in all), so the saving
    // is small; without reductions below the root's window the counts would be equal.
    assert!(reduced < plain, "{reduced} vs {plain} nodes");
}

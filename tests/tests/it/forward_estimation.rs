//! Forward estimation (Zhang 1995) inside search-core's α/β engine: the paper's guarantee on random
//! trees (exact bounds and δ = 1 give α/β's value, generating no more nodes), the sign conventions on
//! hand-built trees, on-line learning, and forward estimation on a game that is not a random tree.

use gametree::forward_estimation::{learn_offline, EdgeBounds, ForwardEstimation, Reading};
use gametree::game::{ForwardPruning, Game, GeneralGame, Limits, SearchResult, Searcher};
use gametree::othello::{Ev1, Othello};
use gametree::random_tree::{Node, NodeCost, RandomTree, RandomTreeConfig, StaticOrdering};
use gametree::search::tree::{ExplicitTree, LeafValue, Nested};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Minimax};
use quickcheck::quickcheck;

fn tree(b: u8, d: u8, seed: u64, random: bool) -> RandomTree {
    let (b, d) = (u16::from(b % 5 + 1), u16::from(d % 7));
    let config = if random {
        RandomTreeConfig::random(b, d)
    } else {
        RandomTreeConfig::uniform(b, d)
    };
    RandomTree::new(config.with_seed(seed)).unwrap()
}

fn search<P: ForwardPruning<RandomTree>>(
    t: &RandomTree,
    depth: u32,
    pruning: P,
) -> SearchResult<u16> {
    AlphaBeta::new(NodeCost)
        .with_config(AlphaBetaConfig::alpha_beta(depth))
        .with_pruning(pruning)
        .search(t, &t.root(), &Limits::none())
}

fn exact(t: &RandomTree) -> ForwardEstimation {
    let (l, u) = t.exact_edge_bounds();
    ForwardEstimation::new(EdgeBounds::Exact { l, u })
}

/// The paper's alpha-beta: children sorted by static value where two or more plies are left.
fn ordered<P: ForwardPruning<RandomTree>>(
    t: &RandomTree,
    depth: u32,
    pruning: P,
) -> SearchResult<u16> {
    AlphaBeta::new(NodeCost)
        .with_config(AlphaBetaConfig::alpha_beta(depth))
        .with_ordering(StaticOrdering::default())
        .with_pruning(pruning)
        .search(t, &t.root(), &Limits::none())
}

quickcheck! {
    /// The paper's guarantee: with the exact edge-cost bounds and δ = 1, forward estimation returns
    /// the minimax value and generates a subset of α/β's nodes, in generation order and in the
    /// paper's static order. Search depths go one past the tree.
    fn exact_fe_returns_the_alphabeta_value_with_no_more_nodes(b: u8, d: u8, seed: u64, random: bool, depth: u8) -> bool {
        let t = tree(b, d, seed, random);
        let depth = u32::from(depth) % (u32::from(t.config().depth) + 2);
        let oracle = Minimax::new(NodeCost, depth).search(&t, &t.root(), &Limits::none());
        let ab = search(&t, depth, gametree::game::NoPruning);
        let fe = search(&t, depth, exact(&t));
        let ab_sorted = ordered(&t, depth, gametree::game::NoPruning);
        let fe_sorted = ordered(&t, depth, exact(&t));
        fe.value == ab.value && ab.value == oracle.value && fe.stats.generated <= ab.stats.generated
            && ab_sorted.value == oracle.value && fe_sorted.value == oracle.value
            && fe_sorted.stats.generated <= ab_sorted.stats.generated
    }
}

quickcheck! {
    /// The node-cut reading keeps the guarantee: with exact bounds and δ = 1 a node is cut only when
    /// a child's true value already fails high, and a child skipped only when it fails low, so the
    /// search returns the minimax value, generating no more nodes than α/β — in generation order and
    /// in the paper's static order, with exact and with on-line bounds' value where they are exact.
    fn node_cut_fe_returns_the_alphabeta_value_with_no_more_nodes(b: u8, d: u8, seed: u64, random: bool, depth: u8) -> bool {
        let t = tree(b, d, seed, random);
        let depth = u32::from(depth) % (u32::from(t.config().depth) + 2);
        let oracle = Minimax::new(NodeCost, depth).search(&t, &t.root(), &Limits::none());
        let cut = || exact(&t).with_reading(Reading::NodeCut);
        let ab = search(&t, depth, gametree::game::NoPruning);
        let fe = search(&t, depth, cut());
        let ab_sorted = ordered(&t, depth, gametree::game::NoPruning);
        let fe_sorted = ordered(&t, depth, cut());
        fe.value == oracle.value && fe.stats.generated <= ab.stats.generated
            && fe_sorted.value == oracle.value
            && fe_sorted.stats.generated <= ab_sorted.stats.generated
    }
}

/// A node cut in the hook's own terms: a MAX node (the root) with β = 10 whose MIN child has static
/// value 9 and one ply left, edge costs in [1, 5] (MAX's view): the child is worth at least
/// 9 + 1·1 = 10 ≥ β, so the root is settled without searching it; the literal reading never cuts.
#[test]
fn the_node_cut_settles_a_parent_from_a_childs_lowest_estimate() {
    use gametree::game::PruneContext;
    let ctx = PruneContext {
        parent_static: 0,
        child_static: 9,
        alpha: 0,
        beta: 10,
        child_depth: 1,
        child_is_max: false,
        parent_is_max: true,
        ply: 0,
    };
    let bounds = EdgeBounds::Exact { l: 1, u: 5 };
    let mut node_cut = ForwardEstimation::new(bounds).with_reading(Reading::NodeCut);
    let mut literal = ForwardEstimation::new(bounds);
    assert_eq!(
        ForwardPruning::<RandomTree>::cut(&mut node_cut, &ctx),
        Some(10)
    );
    assert_eq!(ForwardPruning::<RandomTree>::cut(&mut literal, &ctx), None);
    // A MIN parent sees a MAX child's value as at least c_P − u·d = 20 − 5·2 = 10 ≥ β.
    let min_parent = PruneContext {
        child_static: 20,
        beta: 10,
        child_depth: 2,
        child_is_max: true,
        parent_is_max: false,
        ply: 1,
        ..ctx
    };
    assert_eq!(
        ForwardPruning::<RandomTree>::cut(&mut node_cut, &min_parent),
        Some(10)
    );
    let short = PruneContext {
        child_static: 19,
        ..min_parent
    };
    assert_eq!(
        ForwardPruning::<RandomTree>::cut(&mut node_cut, &short),
        None
    );
    // Condition (1) waits for two plies: a MIN child of depth 1 far below α is not skipped.
    let low = PruneContext {
        child_static: -50,
        alpha: 0,
        beta: 10,
        child_depth: 1,
        ..ctx
    };
    assert_eq!(
        ForwardPruning::<RandomTree>::prune(&mut node_cut, &low),
        None
    );
    assert_eq!(
        ForwardPruning::<RandomTree>::prune(&mut literal, &low),
        Some(-45)
    );
    let deep = PruneContext {
        child_depth: 2,
        ..low
    };
    assert_eq!(
        ForwardPruning::<RandomTree>::prune(&mut node_cut, &deep),
        Some(-40)
    );
}

/// The strongest check of the engine's node count is the paper's own: its Table 1 alpha-beta
/// column (random branching, mean 5) at depths 2 to 4, over 1000 trees, within 2%.
#[test]
fn sorted_alpha_beta_generates_the_papers_node_counts() {
    for (depth, paper) in [(2, 16.872), (3, 64.934), (4, 162.410)] {
        let total: u64 = (0..1000)
            .map(|k| {
                let config = RandomTreeConfig::random(5, 10).with_seed(7).trial(k);
                let t = RandomTree::new(config).unwrap();
                ordered(&t, depth, gametree::game::NoPruning)
                    .stats
                    .generated
                    - 1
            })
            .sum();
        let mean = total as f64 / 1000.0;
        assert!(
            (mean / paper - 1.0).abs() < 0.02,
            "depth {depth}: {mean} vs the paper's {paper}"
        );
    }
}

/// Where the static ordering sorts, every child was generated to be sorted; where it does not (the
/// frontier's parents), children are generated one at a time: at depth 2 on a uniform tree the count
/// is the root, its b children, and the leaves searched.
#[test]
fn an_ordering_that_builds_children_counts_them_when_it_sorts() {
    for seed in 0..50 {
        let t = RandomTree::new(RandomTreeConfig::uniform(5, 6).with_seed(seed)).unwrap();
        let r = ordered(&t, 2, gametree::game::NoPruning);
        assert_eq!(r.stats.generated, 1 + 5 + r.stats.evaluated, "seed {seed}");
    }
}

/// On-line learned bounds lie inside the exact ones, so they prune at least as often at any node with
/// the same window. That is not a theorem for whole searches (a pruned child could have raised α for
/// its siblings), but the paper's Table 1 and this sweep of 3600 searches find it holds.
#[test]
fn online_bounds_never_generate_more_nodes_than_exact_bounds() {
    let mut searches = 0;
    for (b, d) in [(2, 6), (3, 6), (5, 5), (8, 4)] {
        for random in [false, true] {
            for k in 0..150 {
                let base = if random {
                    RandomTreeConfig::random(b, d)
                } else {
                    RandomTreeConfig::uniform(b, d)
                };
                let t = RandomTree::new(base.trial(k)).unwrap();
                for depth in [2, 4, u32::from(d)] {
                    let online = search(&t, depth, ForwardEstimation::new(EdgeBounds::Online));
                    let with_exact = search(&t, depth, exact(&t));
                    assert!(
                        online.stats.generated <= with_exact.stats.generated,
                        "{}: depth {depth}: online {} > exact {}",
                        t.config(),
                        online.stats.generated,
                        with_exact.stats.generated
                    );
                    searches += 1;
                }
            }
        }
    }
    assert_eq!(searches, 3600);
}

/// δ < 1 prunes more: node counts never grow as δ shrinks, on the same trees (summed over trials).
#[test]
fn smaller_delta_generates_fewer_nodes() {
    let mut totals = Vec::new();
    for delta in [1.0, 0.6, 0.2] {
        let mut total = 0;
        for k in 0..40 {
            let t = RandomTree::new(RandomTreeConfig::random(5, 6).trial(k)).unwrap();
            let fe = ForwardEstimation::new(EdgeBounds::Online)
                .with_delta(delta)
                .unwrap();
            total += search(&t, 6, fe).stats.generated;
        }
        totals.push(total);
    }
    assert!(totals[0] > totals[1] && totals[1] > totals[2], "{totals:?}");
}

/// A node of MAX-view `cost` at `ply`, in the side to move's view [`Nested`] wants; a leaf if
/// `children` is empty.
fn node(cost: i32, ply: u32, children: Vec<Nested>) -> Nested {
    let value = if ply % 2 == 0 { cost } else { -cost };
    if children.is_empty() {
        Nested::leaf(value)
    } else {
        Nested::node(value, children)
    }
}

fn explicit(root: &Nested, depth: u32, pruning: ForwardEstimation) -> SearchResult<u32> {
    let t = ExplicitTree::from_nested(root);
    AlphaBeta::new(LeafValue)
        .with_config(AlphaBetaConfig::alpha_beta(depth))
        .with_pruning(pruning)
        .search(&t, &t.initial_state(), &Limits::none())
}

/// A MIN child of the MAX root is skipped when `c + u·d ≤ α` (paper, condition (1), first line).
///
/// Costs (MAX's view): root 0 → A 10 → leaves 12, 8 (A is worth 8); root → B −5 → leaves 3, −9.
/// Edge costs are +10, +2, −2, −5, +8, −4: l = −5, u = 10. After A, α = 8; B can reach at most
/// −5 + 10·1 = 5 ≤ 8, so B is skipped with upper bound 5 and its leaves are never generated.
#[test]
fn a_min_child_is_pruned_by_its_best_case() {
    let root = node(
        0,
        0,
        vec![
            node(10, 1, vec![node(12, 2, vec![]), node(8, 2, vec![])]),
            node(-5, 1, vec![node(3, 2, vec![]), node(-9, 2, vec![])]),
        ],
    );
    let fe = explicit(
        &root,
        2,
        ForwardEstimation::new(EdgeBounds::Exact { l: -5, u: 10 }),
    );
    let ab = explicit(
        &root,
        2,
        ForwardEstimation::new(EdgeBounds::Exact { l: -1000, u: 1000 }),
    );
    assert_eq!((fe.value, fe.best_move), (8, Some(0)));
    assert_eq!(fe.stats.pruned, 1);
    // Root, A, 12, 8, B: B's first leaf (3 ≤ 8, which α/β needs to see) is never generated.
    assert_eq!((fe.stats.generated, ab.stats.generated), (5, 6));
    // u = 12 is not enough to prune B: −5 + 12 = 7 ≤ 8 still is; u = 14 gives 9 > 8.
    let loose = explicit(
        &root,
        2,
        ForwardEstimation::new(EdgeBounds::Exact { l: -5, u: 14 }),
    );
    assert_eq!((loose.stats.pruned, loose.stats.generated), (0, 6));
}

/// A MAX grandchild under a MIN node is skipped when `c + l·d ≥ β` (condition (1), second line),
/// which the engine sees in the MIN parent's negamax view as `−c − l·d ≤ α`.
///
/// Costs (MAX's view): root 0 → A 4 → A1 6 → leaves 7, 5 (A1 = 7); A → A2 → two leaves. All edges
/// lie in [l, u] = [−2, 8]. At A (MIN) after A1, β = 7.
#[test]
fn a_max_child_is_pruned_by_its_worst_case() {
    let build = |a2: i32, leaves: [i32; 2]| {
        node(
            0,
            0,
            vec![node(
                4,
                1,
                vec![
                    node(6, 2, vec![node(7, 3, vec![]), node(5, 3, vec![])]),
                    node(
                        a2,
                        2,
                        vec![node(leaves[0], 3, vec![]), node(leaves[1], 3, vec![])],
                    ),
                ],
            )],
        )
    };
    let bounds = EdgeBounds::Exact { l: -2, u: 8 };
    // A2 = 12 can fall to 12 − 2·1 = 10 ≥ 7 at worst: skipped, its two leaves never generated.
    let pruned = explicit(&build(12, [10, 14]), 3, ForwardEstimation::new(bounds));
    // (A1's leaf 5 ≤ α = 7 counts as pruned too, at d = 0: the hook returns its exact value.)
    assert_eq!(
        (pruned.value, pruned.stats.pruned, pruned.stats.generated),
        (7, 2, 6)
    );
    // A2 = 6 can fall to 4 < 7: searched, and it matters (leaves 4, 6 make A2 = 6 and A = 6).
    // A sign error that bounded the MAX child by u (6 + 8 ≥ 7) would skip it and report 7.
    let kept = explicit(&build(6, [4, 6]), 3, ForwardEstimation::new(bounds));
    assert_eq!((kept.value, kept.stats.generated), (6, 8));
}

/// Forward estimation works on any game with a static evaluator: Othello with EV1 and bounds learned
/// off-line from sampled games. The learned bounds are a heuristic, so the value may differ from
/// α/β's, but the search runs, prunes, and generates fewer nodes.
#[test]
fn forward_estimation_runs_on_othello_with_offline_bounds() {
    let game = Othello;
    let learned = learn_offline(&game, &mut Ev1, 4, 7).unwrap();
    assert!(
        learned.min < 0 && learned.max > 0 && learned.edges > 100,
        "{learned:?}"
    );
    let root = game.initial_state();
    let run = |fe: Option<ForwardEstimation>| {
        let config = AlphaBetaConfig::alpha_beta(7);
        match fe {
            Some(fe) => AlphaBeta::new(Ev1)
                .with_config(config)
                .with_pruning(fe)
                .search(&game, &root, &Limits::none()),
            None => AlphaBeta::new(Ev1)
                .with_config(config)
                .search(&game, &root, &Limits::none()),
        }
    };
    let ab = run(None);
    let fe = run(Some(ForwardEstimation::new(learned.likely_bounds())));
    assert!(fe.best_move.is_some());
    assert!(fe.stats.pruned > 0, "{:?}", fe.stats);
    assert!(
        fe.stats.generated < ab.stats.generated,
        "fe {:?} ab {:?} {learned:?}",
        fe.stats,
        ab.stats
    );
}

/// At full depth α/β with forward estimation picks plain minimax's move and value: the static value at
/// the horizon is the node cost in the mover's view.
#[test]
fn random_tree_values_are_node_costs() {
    let t = RandomTree::new(RandomTreeConfig::uniform(3, 4).with_seed(9)).unwrap();
    let leaf: Node = (0..4).fold(t.root(), |n, _| t.child(&n, 1));
    assert_eq!(t.turn(&leaf), gametree::game::Turn::Over);
    let r = search(&t, 4, exact(&t));
    let mm = Minimax::new(NodeCost, 4).search(&t, &t.root(), &Limits::none());
    assert_eq!((r.value, r.best_move), (mm.value, mm.best_move));
}

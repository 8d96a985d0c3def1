//! Games where a player may move twice in a row: every searcher against a brute force that reads
//! the side to move at every node and shares no code with them, on random trees with extra turns
//! ([`ExtraTurnTree`]); and the hooks see the side that really moves.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use game_trait::{
    Bound, Cutoff, Evaluator, ForwardPruning, HorizonPolicy, Limits, MoveList, Outcome,
    PruneContext, Quiescence, Score, Searcher, Selectivity, Step, ZeroSumGame,
};
use quickcheck::TestResult;
use search_core::tree::NodeId;
use search_core::{
    AlphaBeta, AlphaBetaConfig, ExtraTurnTree, LeafValue, Minimax, Mtdf, NullMovePruning,
};

use crate::common::check;

/// A random tree with extra turns, of depth 1..=7 and branching 1..=4, from quickcheck's numbers.
fn game(seed: u64, depth: u8, branching: u8) -> (ExtraTurnTree, u32) {
    let depth = 1 + u32::from(depth) % 7;
    (
        ExtraTurnTree::random(seed, depth, 1 + u32::from(branching) % 4),
        depth,
    )
}

/// `value`, the value of `state` for its side to move, as player 0 sees it.
fn for_player_0<G: ZeroSumGame>(game: &G, state: &G::State, value: Score) -> Score {
    if game.side_to_move(state) == 0 {
        value
    } else {
        -value
    }
}

/// The value of `state` searched `depth` plies deep, for player 0, by brute force: player 0 takes
/// the largest child value and player 1 the smallest, whoever the game says moves at each node.
fn brute<G: ZeroSumGame, E: Evaluator<G>>(
    game: &G,
    eval: &mut E,
    s: &G::State,
    depth: u32,
) -> Score {
    if let Some(outcome) = game.outcome(s) {
        let value = eval.terminal(game, s, outcome);
        return for_player_0(game, s, value);
    }
    if depth == 0 {
        let value = eval.evaluate(game, s);
        return for_player_0(game, s, value);
    }
    let mut moves = MoveList::new();
    game.moves(s, &mut moves);
    let values = moves.iter().map(|&mv| {
        let mut child = s.clone();
        game.play(&mut child, mv);
        brute(game, eval, &child, depth - 1)
    });
    let values: Vec<Score> = values.collect();
    let best = match game.side_to_move(s) {
        0 => values.iter().max(),
        _ => values.iter().min(),
    };
    *best.expect("a game in progress has a move")
}

/// The brute-force value of the root, for its side to move.
fn truth(game: &ExtraTurnTree, depth: u32) -> Score {
    for_player_0(game, &0, brute(game, &mut LeafValue, &0, depth))
}

#[test]
fn the_trees_have_extra_turns_and_alternating_stretches() {
    let game = ExtraTurnTree::random(1, 6, 3);
    let tree = game.tree();
    let (mut same, mut other) = (0, 0);
    for node in 0..tree.len() as NodeId {
        for child in tree.children(node) {
            match game.side_to_move(&child) == game.side_to_move(&node) {
                true => same += 1,
                false => other += 1,
            }
        }
    }
    assert!(
        same > 10 && other > same,
        "{same} extra turns, {other} turns passed"
    );
    assert_eq!(ExtraTurnTree::random(1, 6, 3), game);
}

#[test]
fn minimax_reads_the_side_to_move() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, depth) = game(seed, depth, branching);
        for d in 1..=depth {
            let r = Minimax::new(LeafValue, d).search(&game, &0, &Limits::none());
            if (r.value, r.bound) != (truth(&game, d), Bound::Exact) {
                return TestResult::error(format!("depth {d}: {r:?} vs {}", truth(&game, d)));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

/// Every configuration of the engine whose value is the minimax value of its depth.
fn exact_configs(depth: u32) -> Vec<AlphaBetaConfig> {
    let mut configs = Vec::new();
    for cutoff in [Cutoff::AtLeastBeta, Cutoff::AboveBeta] {
        let plain = AlphaBetaConfig {
            cutoff,
            ..AlphaBetaConfig::alpha_beta(depth)
        };
        let pvs = AlphaBetaConfig {
            cutoff,
            tt_bytes: 1 << 16,
            ..AlphaBetaConfig::pvs(depth)
        };
        configs.extend([
            plain,
            AlphaBetaConfig { pvs: true, ..plain },
            pvs,
            AlphaBetaConfig { tt_bytes: 0, ..pvs },
            AlphaBetaConfig {
                aspiration: Some(3),
                countermoves: true,
                etc_draft: Some(1),
                ..pvs
            },
        ]);
    }
    configs
}

#[test]
fn every_alpha_beta_variant_equals_brute_force() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, depth) = game(seed, depth, branching);
        let exact = truth(&game, depth);
        for config in exact_configs(depth) {
            let mut ab = AlphaBeta::new(LeafValue).with_config(config);
            let r = ab.search(&game, &0, &Limits::none());
            if (r.value, r.bound) != (exact, Bound::Exact) {
                return TestResult::error(format!("{config:?}: {r:?} vs {exact}"));
            }
            // Any window: the bound is true of the brute-force value.
            for (alpha, beta) in [(exact - 3, exact - 1), (exact + 1, exact + 4), (-2, 2)] {
                let w = ab.search_window(&game, &0, &Limits::none(), alpha, beta);
                let inside = alpha < w.value && w.value < beta;
                if !w.bound.admits(w.value, exact) || (inside && w.bound != Bound::Exact) {
                    return TestResult::error(format!("{config:?} ({alpha}, {beta}): {w:?}"));
                }
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

#[test]
fn mtdf_equals_brute_force() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, depth) = game(seed, depth, branching);
        let exact = truth(&game, depth);
        for (iterative, guess) in [(true, 0), (false, -7), (false, 9)] {
            let config = AlphaBetaConfig {
                iterative,
                tt_bytes: 1 << 16,
                ..AlphaBetaConfig::pvs(depth)
            };
            let engine = AlphaBeta::new(LeafValue).with_config(config);
            let mut mtdf = Mtdf::new(engine).with_first_guess(guess);
            let r = mtdf.search(&game, &0, &Limits::none());
            if (r.value, r.bound) != (exact, Bound::Exact) {
                return TestResult::error(format!("iterative {iterative}: {r:?} vs {exact}"));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

#[test]
fn lazy_smp_equals_brute_force() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, depth) = game(seed, depth, branching);
        let exact = truth(&game, depth);
        let config = AlphaBetaConfig {
            tt_bytes: 1 << 16,
            defer_draft: Some(1),
            ..AlphaBetaConfig::pvs(depth)
        };
        let mut ab = AlphaBeta::new(LeafValue).with_config(config);
        for threads in [2, 3] {
            let r = ab.search_parallel(&game, &0, &Limits::none(), threads);
            let w = ab.search_window_parallel(&game, &0, &Limits::none(), -100, 100, threads);
            if (r.value, r.bound, w.value, w.bound) != (exact, Bound::Exact, exact, Bound::Exact) {
                return TestResult::error(format!("{threads} threads: {r:?}, {w:?} vs {exact}"));
            }
        }
        TestResult::passed()
    }
    check(60, prop);
}

/// Moves to even-numbered children are noisy.
#[derive(Clone, Copy, Debug)]
struct EvenChildren;

impl Quiescence<ExtraTurnTree> for EvenChildren {
    fn is_noisy(&mut self, _: &ExtraTurnTree, _: &NodeId, mv: u32) -> bool {
        mv % 2 == 0
    }
}

/// The quiescence value of `s` for player 0 by brute force: the side to move stands pat on the
/// static value or plays a noisy move, `noisy` plies at most; whoever the game says moves.
fn brute_quiescence(game: &ExtraTurnTree, s: NodeId, noisy: u32) -> Score {
    let stand_pat = for_player_0(game, &s, LeafValue.evaluate(game, &s));
    if noisy == 0 {
        return stand_pat;
    }
    let children = game
        .tree()
        .children(s)
        .filter(|c| (c - game.tree().children(s).start) % 2 == 0);
    let values = children.map(|c| match game.outcome(&c) {
        Some(outcome) => for_player_0(game, &c, LeafValue.terminal(game, &c, outcome)),
        None => brute_quiescence(game, c, noisy - 1),
    });
    let values = std::iter::once(stand_pat).chain(values);
    match game.side_to_move(&s) {
        0 => values.max(),
        _ => values.min(),
    }
    .expect("standing pat is always a value")
}

/// The depth-limited value of `s` whose horizon leaves are resolved by quiescence, for player 0.
fn brute_with_quiescence(game: &ExtraTurnTree, s: NodeId, depth: u32, noisy: u32) -> Score {
    if let Some(outcome) = game.outcome(&s) {
        return for_player_0(game, &s, LeafValue.terminal(game, &s, outcome));
    }
    if depth == 0 {
        return brute_quiescence(game, s, noisy);
    }
    let values = game
        .tree()
        .children(s)
        .map(|c| brute_with_quiescence(game, c, depth - 1, noisy));
    match game.side_to_move(&s) {
        0 => values.max(),
        _ => values.min(),
    }
    .expect("a game in progress has a move")
}

#[test]
fn quiescence_equals_brute_force() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, height) = game(seed, depth, branching);
        let depth = height / 2;
        let exact = for_player_0(&game, &0, brute_with_quiescence(&game, 0, depth, 3));
        for config in exact_configs(depth) {
            let config = AlphaBetaConfig {
                quiescence_depth: 3,
                ..config
            };
            let mut ab = AlphaBeta::new(LeafValue)
                .with_config(config)
                .with_quiescence(EvenChildren);
            let r = ab.search(&game, &0, &Limits::none());
            if (r.value, r.bound) != (exact, Bound::Exact) {
                return TestResult::error(format!("{config:?}: {r:?} vs {exact}"));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

/// A null move that leaves the position as it is, the same player to move: the search of the
/// "passed" position is the node's own search, shallower. Deep enough to reach every leaf, it is
/// exact, and so is every null-move cut: each pass costs two plies of budget and descends none,
/// and a line passes at most once per level of the tree, so three plies per level are enough.
#[derive(Clone, Copy, Debug)]
struct PassToSelf;

/// How many null moves [`PassToSelf`] gave: the test is only a test if the engine tried some.
static NULL_MOVES_TRIED: AtomicU64 = AtomicU64::new(0);

impl Selectivity<ExtraTurnTree> for PassToSelf {
    const NULL_MOVES: bool = true;
    fn null_move(&mut self, _: &ExtraTurnTree, s: &NodeId) -> Option<NodeId> {
        NULL_MOVES_TRIED.fetch_add(1, Ordering::Relaxed);
        Some(*s)
    }
}

#[test]
fn a_null_move_is_read_from_the_view_of_whoever_moves_after_it() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, height) = game(seed, depth, branching);
        let exact = truth(&game, height);
        let null = NullMovePruning {
            reduction: 1,
            min_draft: 1,
        };
        for config in exact_configs(3 * height) {
            let config = AlphaBetaConfig {
                null_move: Some(null),
                ..config
            };
            let mut ab = AlphaBeta::new(LeafValue)
                .with_config(config)
                .with_selectivity(PassToSelf);
            let r = ab.search(&game, &0, &Limits::none());
            if (r.value, r.bound) != (exact, Bound::Exact) {
                return TestResult::error(format!("{config:?}: {r:?} vs {exact}"));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
    assert!(NULL_MOVES_TRIED.load(Ordering::Relaxed) > 1000);
}

/// The node the evaluator was last asked about: the engine evaluates a child just before it
/// offers the child to the pruning hook.
#[derive(Clone, Debug, Default)]
struct LastEvaluated(Rc<Cell<NodeId>>);

impl Evaluator<ExtraTurnTree> for LastEvaluated {
    fn evaluate(&mut self, game: &ExtraTurnTree, s: &NodeId) -> Score {
        self.0.set(*s);
        LeafValue.evaluate(game, s)
    }
    fn terminal(&mut self, game: &ExtraTurnTree, s: &NodeId, outcome: Outcome) -> Score {
        self.0.set(*s);
        LeafValue.terminal(game, s, outcome)
    }
}

/// Checks every context against the game: whose node the child and its parent are (player 0 is
/// the root's side to move), and the child's static value in the parent's view. Never prunes.
struct ContextCheck {
    game: ExtraTurnTree,
    parents: Vec<NodeId>,
    last: Rc<Cell<NodeId>>,
    errors: Rc<RefCell<Vec<String>>>,
}

impl ForwardPruning<ExtraTurnTree> for ContextCheck {
    fn prune(&mut self, ctx: &PruneContext) -> Option<Score> {
        let child = self.last.get();
        let parent = self.parents[child as usize];
        let own = self.game.tree().value(child);
        let same = self.game.side_to_move(&child) == self.game.side_to_move(&parent);
        let expected = (
            self.game.side_to_move(&child) == 0,
            self.game.side_to_move(&parent) == 0,
            if same { own } else { -own },
        );
        if (ctx.child_is_max, ctx.parent_is_max, ctx.child_static) != expected {
            let error = format!("child {child} of {parent}: {ctx:?}, expected {expected:?}");
            self.errors.borrow_mut().push(error);
        }
        None
    }
}

/// A depth horizon that also tracks whether the root's side moves at a node, from the steps the
/// engine describes and its `same_mover` corrections, and checks both against the game.
#[derive(Clone)]
struct SideCheck(Rc<RefCell<Vec<String>>>);

impl HorizonPolicy<ExtraTurnTree> for SideCheck {
    /// Depth left, and whether the root's side to move (player 0) moves at the node.
    type Budget = (u32, bool);
    type NodeTally = ();

    fn root_budget(&mut self, iteration: u32) -> (u32, bool) {
        (iteration, true)
    }
    fn is_leaf(&self, game: &ExtraTurnTree, s: &NodeId, budget: &(u32, bool)) -> bool {
        if budget.1 != (game.side_to_move(s) == 0) {
            self.0
                .borrow_mut()
                .push(format!("node {s}: budget {budget:?}"));
        }
        budget.0 == 0
    }
    fn child_budget(
        &mut self,
        game: &ExtraTurnTree,
        s: &NodeId,
        budget: &(u32, bool),
        _: &mut (),
        step: Step<u32>,
    ) -> Option<(u32, bool)> {
        if step.mover_is_root_side != (game.side_to_move(s) == 0) {
            self.0.borrow_mut().push(format!("node {s}: {step:?}"));
        }
        Some((budget.0 - 1, !step.mover_is_root_side))
    }
    fn same_mover(&self, budget: (u32, bool)) -> (u32, bool) {
        (budget.0, !budget.1)
    }
    fn draft(&self, budget: &(u32, bool)) -> u32 {
        budget.0
    }
}

#[test]
fn hooks_see_the_side_that_moves() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (game, depth) = game(seed, depth, branching);
        let mut parents = vec![0; game.tree().len()];
        for node in 0..game.tree().len() as NodeId {
            for child in game.tree().children(node) {
                parents[child as usize] = node;
            }
        }
        let errors = Rc::new(RefCell::new(Vec::new()));
        let eval = LastEvaluated::default();
        let pruning = ContextCheck {
            game: game.clone(),
            parents,
            last: eval.0.clone(),
            errors: errors.clone(),
        };
        let mut checked = AlphaBeta::new(eval)
            .with_config(exact_configs(depth)[2])
            .with_pruning(pruning);
        checked.search(&game, &0, &Limits::none());
        let mut sided = AlphaBeta::new(LeafValue)
            .with_config(exact_configs(depth)[4])
            .with_horizon(SideCheck(errors.clone()));
        let r = sided.search(&game, &0, &Limits::none());
        let errors = errors.borrow();
        if !errors.is_empty() || r.value != truth(&game, depth) {
            return TestResult::error(format!("{r:?}: {:?}", &errors[..errors.len().min(3)]));
        }
        TestResult::passed()
    }
    check(200, prop);
}

/// What every exact searcher above was checked against is not a tautology: on these trees,
/// negating at every ply gives other values.
#[test]
fn negating_by_ply_would_give_other_values() {
    fn by_ply(game: &ExtraTurnTree, s: NodeId, depth: u32) -> Score {
        let tree = game.tree();
        if depth == 0 || tree.children(s).is_empty() {
            return tree.value(s);
        }
        let values = tree.children(s).map(|c| -by_ply(game, c, depth - 1));
        values.max().expect("children")
    }
    let differ = (0..50)
        .filter(|&seed| {
            let game = ExtraTurnTree::random(seed, 5, 3);
            by_ply(&game, 0, 5) != truth(&game, 5)
        })
        .count();
    assert!(differ > 25, "only {differ} of 50 trees differ");
}

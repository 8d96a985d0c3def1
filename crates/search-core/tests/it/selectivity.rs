//! The selectivity hook: null-move pruning and extensions. Both change the tree searched, so
//! each is checked against a reference of the tree it should search: null moves in a game where
//! passing is a legal move (there a null move with `R = 0` is a sound lower bound, so the values
//! stay exactly Minimax's), extensions against a Minimax that extends the same moves.

use std::cell::Cell;
use std::rc::Rc;

use game_trait::{
    Bound, Cutoff, Evaluator, Game, HorizonPolicy, Limits, MoveList, NoSelectivity, Outcome,
    PlayerId, Score, SearchResult, Searcher, Selectivity, Step, ZeroSumGame,
};
use quickcheck::TestResult;
use search_core::{
    AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue, Minimax, NullMovePruning,
    SingularExtension,
};

use crate::common::{check, random_tree};

/// A random tree of depth 2..=6 and branching 2..=5 from quickcheck's raw numbers.
fn tree(seed: u64, depth: u8, branching: u8) -> (ExplicitTree, u32) {
    random_tree(seed, depth, branching, 2..=6, 2..=5)
}

/// The configurations checked: plain α/β, PVS with a table and killers, both cutoff criteria.
fn configs(depth: u32) -> Vec<AlphaBetaConfig> {
    let mut configs = Vec::new();
    for cutoff in [Cutoff::AtLeastBeta, Cutoff::AboveBeta] {
        configs.push(AlphaBetaConfig {
            cutoff,
            ..AlphaBetaConfig::alpha_beta(depth)
        });
        configs.push(AlphaBetaConfig {
            cutoff,
            tt_bytes: 1 << 16,
            ..AlphaBetaConfig::pvs(depth)
        });
    }
    configs
}

// ---------------------------------------------------------------------------------------------
// Null moves

/// A pass, as a move of [`PassTree`].
const PASS: u32 = u32::MAX;

/// An [`ExplicitTree`] in which the side to move may also pass (never twice in a row): the
/// game where a null move is a real move, so that null-move pruning's lower bound is sound.
#[derive(Clone, Debug)]
struct PassTree(ExplicitTree);

/// A node of the tree, whether the last move was a pass, and the plies played.
type PassState = (u32, bool, u32);

impl PassTree {
    /// +1 if the side to move is the one the tree's values are from, else −1.
    fn sign(&self, state: &PassState) -> Score {
        let tree_side = self.0.side_to_move(&state.0) as u32;
        if tree_side == state.2 % 2 {
            1
        } else {
            -1
        }
    }
}

impl Game for PassTree {
    type State = PassState;
    type Move = u32;

    fn initial_state(&self) -> PassState {
        (0, false, 0)
    }

    fn apply(&self, state: &mut PassState, mv: u32) -> Option<PassState> {
        Some(match mv {
            PASS => (state.0, true, state.2 + 1),
            child => (
                self.0.apply(&mut state.0.clone(), child)?,
                false,
                state.2 + 1,
            ),
        })
    }

    fn state_hash(&self, state: &PassState) -> Option<u64> {
        let node = self.0.state_hash(&state.0)?;
        Some(node ^ (u64::from(state.1) << 63) ^ (u64::from(state.2) << 40))
    }
}

impl ZeroSumGame for PassTree {
    fn side_to_move(&self, state: &PassState) -> PlayerId {
        (state.2 % 2) as PlayerId
    }

    fn outcome(&self, state: &PassState) -> Option<Outcome> {
        let outcome = self.0.outcome(&state.0)?;
        Some(Outcome::margin_of(outcome.margin() * self.sign(state)))
    }

    fn moves(&self, state: &PassState, moves: &mut MoveList<u32>) {
        self.0.moves(&state.0, moves);
        if !state.1 {
            moves.push(PASS);
        }
    }
}

/// The tree's values, from the side to move's view.
#[derive(Clone, Copy, Debug)]
struct PassValue;

impl Evaluator<PassTree> for PassValue {
    fn evaluate(&mut self, game: &PassTree, state: &PassState) -> Score {
        game.0.value(state.0) * game.sign(state)
    }
}

/// Declares the pass a null move wherever it is legal, and counts how often it was asked.
#[derive(Clone, Debug, Default)]
struct Passes {
    asked: Rc<Cell<u64>>,
}

impl Selectivity<PassTree> for Passes {
    const NULL_MOVES: bool = true;

    fn null_move(&mut self, game: &PassTree, state: &PassState) -> Option<PassState> {
        self.asked.set(self.asked.get() + 1);
        game.apply(&mut state.clone(), PASS).filter(|_| !state.1)
    }
}

/// Declares null moves legal but refuses every one, counting how often it was asked.
#[derive(Clone, Debug, Default)]
struct NeverPass {
    asked: Rc<Cell<u64>>,
}

impl Selectivity<ExplicitTree> for NeverPass {
    const NULL_MOVES: bool = true;

    fn null_move(&mut self, _: &ExplicitTree, _: &u32) -> Option<u32> {
        self.asked.set(self.asked.get() + 1);
        None
    }
}

fn with_null<S: Selectivity<PassTree>>(
    game: &PassTree,
    config: AlphaBetaConfig,
    null_move: Option<NullMovePruning>,
    selectivity: S,
) -> SearchResult<u32> {
    AlphaBeta::new(PassValue)
        .with_config(AlphaBetaConfig {
            null_move,
            ..config
        })
        .with_selectivity(selectivity)
        .search(game, &game.initial_state(), &Limits::none())
}

#[test]
fn null_moves_that_are_real_moves_keep_minimax_values_when_not_reduced() {
    // With R = 0 the null move's search is exactly the search of the pass, a legal move here, so
    // "passing reaches β" proves the node worth β: every value stays the minimax value.
    thread_local!(static ASKED: Cell<u64> = const { Cell::new(0) });
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (tree, depth) = tree(seed, depth, branching);
        let game = PassTree(tree);
        let root = game.initial_state();
        let oracle = Minimax::new(PassValue, depth).search(&game, &root, &Limits::none());
        let exact = NullMovePruning {
            reduction: 0,
            min_draft: 1,
        };
        for config in configs(depth) {
            let hook = Passes::default();
            let result = with_null(&game, config, Some(exact), hook.clone());
            ASKED.with(|a| a.set(a.get() + hook.asked.get()));
            if (result.value, result.bound) != (oracle.value, Bound::Exact) {
                return TestResult::error(format!(
                    "{config:?}: {} {:?}, Minimax {}",
                    result.value, result.bound, oracle.value
                ));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
    assert!(ASKED.with(Cell::get) > 0, "no null move was ever tried");
}

#[test]
fn null_moves_cut_nodes_and_are_never_tried_without_the_option() {
    let game = PassTree(ExplicitTree::random(7, 6, 4));
    let config = AlphaBetaConfig::pvs(6);
    let hook = Passes::default();
    let off = with_null(&game, config, None, hook.clone());
    assert_eq!(hook.asked.get(), 0, "null moves tried with the option off");
    let on = with_null(
        &game,
        config,
        Some(NullMovePruning::default()),
        hook.clone(),
    );
    assert!(hook.asked.get() > 0);
    assert!(
        on.stats.generated < off.stats.generated,
        "{} nodes with null moves, {} without",
        on.stats.generated,
        off.stats.generated
    );
}

#[test]
fn refused_null_moves_change_nothing() {
    thread_local!(static ASKED: Cell<u64> = const { Cell::new(0) });
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let (tree, depth) = tree(seed, depth, branching);
        for config in configs(depth) {
            let plain =
                AlphaBeta::new(LeafValue)
                    .with_config(config)
                    .search(&tree, &0, &Limits::none());
            let hook = NeverPass::default();
            let refusing = AlphaBeta::new(LeafValue)
                .with_config(AlphaBetaConfig {
                    null_move: Some(NullMovePruning::default()),
                    ..config
                })
                .with_selectivity(hook.clone())
                .search(&tree, &0, &Limits::none());
            ASKED.with(|a| a.set(a.get() + hook.asked.get()));
            let same = (
                plain.value,
                plain.bound,
                plain.best_move,
                plain.stats.generated,
            ) == (
                refusing.value,
                refusing.bound,
                refusing.best_move,
                refusing.stats.generated,
            );
            if !same {
                return TestResult::error(format!("{config:?}: {plain:?} vs {refusing:?}"));
            }
        }
        TestResult::passed()
    }
    check(200, prop);
    assert!(ASKED.with(Cell::get) > 0, "no null move was ever asked for");
}

// ---------------------------------------------------------------------------------------------
// Extensions

/// Extends by one ply every move whose child's id is a multiple of 3.
#[derive(Clone, Copy, Debug)]
struct EveryThird;

impl EveryThird {
    fn plies(tree: &ExplicitTree, state: u32, mv: u32) -> u32 {
        let child = tree.apply(&mut state.clone(), mv).unwrap_or(0);
        u32::from(child % 3 == 0)
    }
}

impl Selectivity<ExplicitTree> for EveryThird {
    const EXTENDS: bool = true;

    fn extension(&mut self, tree: &ExplicitTree, state: &u32, mv: u32) -> u32 {
        EveryThird::plies(tree, *state, mv)
    }
}

/// Negamax over the extended tree: a move [`EveryThird`] extends keeps its parent's depth, as
/// long as the extensions along the line stay within `cap` plies.
fn extended_minimax(tree: &ExplicitTree, state: u32, depth: u32, extended: u32, cap: u32) -> Score {
    if let Some(outcome) = tree.outcome(&state) {
        return LeafValue.terminal(tree, &state, outcome);
    }
    if depth == 0 {
        return tree.value(state);
    }
    let mut moves = MoveList::new();
    tree.moves(&state, &mut moves);
    let mut best = Score::MIN;
    for mv in moves {
        let plies = EveryThird::plies(tree, state, mv);
        let plies = if extended + plies <= cap { plies } else { 0 };
        let child = tree.apply(&mut state.clone(), mv).expect("copy-make");
        best = best.max(-extended_minimax(
            tree,
            child,
            depth - 1 + plies,
            extended + plies,
            cap,
        ));
    }
    best
}

#[test]
fn extensions_search_the_extended_tree_exactly() {
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        // A tree four plies taller than the search, so that the cap on extensions matters.
        let depth = 1 + depth as u32 % 4;
        let tree = ExplicitTree::random(seed, depth + 4, 2 + branching as u32 % 2);
        let oracle = extended_minimax(&tree, 0, depth, 0, depth);
        for config in configs(depth) {
            let result = AlphaBeta::new(LeafValue)
                .with_config(config)
                .with_selectivity(EveryThird)
                .search(&tree, &0, &Limits::none());
            if (result.value, result.bound) != (oracle, Bound::Exact) {
                return TestResult::error(format!(
                    "{config:?}: {} {:?}, extended Minimax {oracle}",
                    result.value, result.bound
                ));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

#[test]
fn extensions_deepen_the_search_and_the_default_hook_does_not() {
    let tree = ExplicitTree::random(3, 7, 3);
    let config = AlphaBetaConfig::alpha_beta(4);
    let plain = AlphaBeta::new(LeafValue)
        .with_config(config)
        .with_selectivity(NoSelectivity)
        .search(&tree, &0, &Limits::none());
    let extended = AlphaBeta::new(LeafValue)
        .with_config(config)
        .with_selectivity(EveryThird)
        .search(&tree, &0, &Limits::none());
    let reference =
        AlphaBeta::new(LeafValue)
            .with_config(config)
            .search(&tree, &0, &Limits::none());
    assert_eq!(plain.stats.generated, reference.stats.generated);
    assert!(extended.stats.generated > plain.stats.generated);
    assert_eq!(extended.value, extended_minimax(&tree, 0, 4, 0, 4));
}

// ---------------------------------------------------------------------------------------------
// Singular extensions

fn singular(depth: u32, cutoff: Cutoff, margin: Score) -> AlphaBetaConfig {
    AlphaBetaConfig {
        cutoff,
        tt_bytes: 1 << 16,
        etc_draft: Some(2),
        singular_extension: Some(SingularExtension {
            min_draft: 2,
            margin,
        }),
        ..AlphaBetaConfig::pvs(depth)
    }
}

/// Depth, but a budget can never be deepened: singularity is tested, nothing is extended.
#[derive(Clone, Copy, Debug)]
struct NoDeeper;

impl HorizonPolicy<ExplicitTree> for NoDeeper {
    type Budget = u32;
    type NodeTally = ();
    const ORDER_INDEPENDENT: bool = true;

    fn root_budget(&mut self, iteration: u32) -> u32 {
        iteration
    }
    fn is_leaf(&self, _: &ExplicitTree, _: &u32, depth: &u32) -> bool {
        *depth == 0
    }
    fn child_budget(
        &mut self,
        _: &ExplicitTree,
        _: &u32,
        depth: &u32,
        _: &mut (),
        _: Step<u32>,
    ) -> Option<u32> {
        Some(depth - 1)
    }
    fn draft(&self, depth: &u32) -> u32 {
        *depth
    }
    fn reduced(&self, depth: &u32, plies: u32) -> Option<u32> {
        Some(depth.saturating_sub(plies))
    }
}

#[test]
fn singularity_tests_leave_the_searched_tree_alone() {
    // The tests search each candidate node again without its table move (own window, no table,
    // no ETC); with a horizon that cannot extend, that must change nothing the node reports:
    // values stay Minimax's, in trees taller than the search.
    fn prop(seed: u64, depth: u8, branching: u8) -> TestResult {
        let depth = 2 + depth as u32 % 4;
        let tree = ExplicitTree::random(seed, depth + 3, 2 + branching as u32 % 2);
        let oracle = Minimax::new(LeafValue, depth).search(&tree, &0, &Limits::none());
        for cutoff in [Cutoff::AtLeastBeta, Cutoff::AboveBeta] {
            let result = AlphaBeta::new(LeafValue)
                .with_config(singular(depth, cutoff, 0))
                .with_horizon(NoDeeper)
                .search(&tree, &0, &Limits::none());
            if (result.value, result.bound) != (oracle.value, Bound::Exact) {
                return TestResult::error(format!(
                    "{cutoff:?}: {} {:?}, Minimax {}",
                    result.value, result.bound, oracle.value
                ));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

#[test]
fn singular_moves_are_searched_deeper() {
    // The same searches, the same tests; only extending the singular moves differs.
    let mut deeper = 0;
    for seed in 0..40 {
        let tree = ExplicitTree::random(seed, 8, 3);
        let config = singular(5, Cutoff::AtLeastBeta, 0);
        let engine = AlphaBeta::new(LeafValue).with_config(config);
        let extending = engine.clone().search(&tree, &0, &Limits::none());
        let not = engine
            .with_horizon(NoDeeper)
            .search(&tree, &0, &Limits::none());
        deeper += usize::from(extending.stats.generated > not.stats.generated);
    }
    assert!(deeper > 0, "no singular extension in 40 trees");
}

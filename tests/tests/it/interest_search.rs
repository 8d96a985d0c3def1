//! Interest search (Rollason) inside search-core's α/β engine, on random explicit trees:
//! the equal-cost property (iteration d is the depth-d search, node for node), agreement with a
//! full-width negamax over the interest-limited tree, the parity separation, and composition with
//! forward-pruning hooks.

use gametree::forward_estimation::{EdgeBounds, ForwardEstimation};
use gametree::game::{
    ForwardPruning, Game, HorizonPolicy, Limits, MoveList, Plausibility, PruneContext, Score,
    Searcher, Step, ZeroSumGame,
};
use gametree::interest_search::{
    HintBonuses, InterestConfig, InterestHorizon, InterestOrdering, LimitSplit, Uniform,
};
use gametree::search::tree::{ExplicitTree, LeafValue, Nested, NodeId};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Minimax};
use quickcheck::quickcheck;

/// A random tree whose static values are in `-1..=1` (so that α often reaches the ceiling and
/// edges are short): depth `d`, branching `1..=b`, from a SplitMix64 stream seeded by `seed`.
fn narrow_tree(seed: u64, d: u32, b: u32) -> ExplicitTree {
    fn next(z: &mut u64) -> u64 {
        let x = gametree::game::hash::splitmix64(*z);
        *z = z.wrapping_add(gametree::game::hash::GOLDEN_GAMMA);
        x
    }
    fn build(z: &mut u64, d: u32, b: u32) -> Nested {
        let value = (next(z) % 3) as Score - 1;
        if d == 0 {
            return Nested::leaf(value);
        }
        let n = 1 + next(z) % u64::from(b);
        Nested::node(value, (0..n).map(|_| build(z, d - 1, b)).collect())
    }
    ExplicitTree::from_nested(&build(&mut { seed }, d, b))
}

/// Rollason's defaults without the engine's dynamic terms: the oracles below cannot know the
/// engine's killers and best replies, which depend on its search order.
fn static_terms() -> InterestConfig {
    InterestConfig {
        bonuses: HintBonuses::NONE,
        ..InterestConfig::default()
    }
}

/// The limit shared out between the tallies and no diminishing with depth, as iterative deepening
/// shares plies: with one step per move, iteration d is the depth-d search.
fn alternate() -> InterestConfig {
    InterestConfig {
        limits: LimitSplit::Alternate,
        beyond_depth_percent: 100,
        ..static_terms()
    }
}

/// Every move costs one step (Uniform(100) at the default scale), no sibling charge.
fn depth_like(separate_parities: bool) -> InterestHorizon<Uniform> {
    let config = InterestConfig {
        sibling_percent: 0,
        separate_parities,
        ..alternate()
    };
    InterestHorizon::with_config(config, Uniform(100))
}

/// A fixed pseudo-random interest per (node, move) in `lo..lo + 181`, and three similarity classes.
#[derive(Clone, Copy, Debug)]
struct Hashed {
    lo: u32,
}

impl Plausibility<ExplicitTree> for Hashed {
    fn interest(&mut self, _: &ExplicitTree, state: &NodeId, mv: u32) -> u32 {
        let h = (u64::from(*state) << 8 | u64::from(mv)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.lo + (h >> 40) as u32 % 181
    }
    fn similarity(&self, _: &ExplicitTree, _: &NodeId, mv: u32) -> Option<u32> {
        (mv % 4 != 3).then_some(mv % 3)
    }
}

/// Full-width negamax over the tree a horizon policy defines, moves in the order `order` gives
/// (stable, descending): the oracle for α/β with that policy.
fn oracle<H: HorizonPolicy<ExplicitTree>>(
    t: &ExplicitTree,
    s: NodeId,
    budget: H::Budget,
    h: &mut H,
    order: &mut dyn FnMut(NodeId, u32) -> i64,
    ply: u32,
) -> Score {
    let mut moves = MoveList::new();
    t.moves(&s, &mut moves);
    if moves.is_empty() || h.is_leaf(t, &s, &budget) {
        return t.value(s);
    }
    let mut sorted: Vec<u32> = moves.to_vec();
    sorted.sort_by_key(|&m| std::cmp::Reverse(order(s, m)));
    let mut tally = H::NodeTally::default();
    let mut best: Option<Score> = None;
    for (index, &mv) in sorted.iter().enumerate() {
        let step = Step::new(mv, index, ply % 2 == 0);
        let Some(child) = h.child_budget(t, &s, &budget, &mut tally, step) else {
            break;
        };
        let c = t.apply(&mut s.clone(), mv).unwrap();
        let v = -oracle(t, c, child, h, order, ply + 1);
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    best.unwrap_or_else(|| t.value(s))
}

quickcheck! {
    /// With every move costing the same and the limit depth × cost, interest search is the
    /// fixed-depth search: same value, same best move, same nodes generated and evaluated.
    fn equal_costs_visit_exactly_the_fixed_depth_tree(seed: u64, d: u8, b: u8, separate: bool) -> bool {
        let (d, b) = (u32::from(d % 6) + 1, u32::from(b % 6) + 1);
        let t = ExplicitTree::random(seed, d + 1, b);
        let root = t.initial_state();
        let plain = AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(d))
            .search(&t, &root, &Limits::none());
        let interest = AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(d))
            .with_horizon(depth_like(separate))
            .search(&t, &root, &Limits::none());
        let minimax = Minimax::new(LeafValue, d).search(&t, &root, &Limits::none());
        interest.value == minimax.value
            && interest.value == plain.value
            && interest.best_move == plain.best_move
            && interest.stats.generated == plain.stats.generated
            && interest.stats.evaluated == plain.stats.evaluated
    }

    /// With Rollason's defaults (sibling tally, similar-moves penalty, separate parities) and varied
    /// costs, α/β with the interest horizon returns the value of full-width negamax over the
    /// interest-limited tree, ordered or not, plain α/β or PVS.
    fn alpha_beta_with_interest_equals_the_interest_tree_oracle(seed: u64, k: u8, b: u8, pvs: bool) -> bool {
        let (k, b) = (u32::from(k % 10) + 1, u32::from(b % 6) + 1);
        let t = ExplicitTree::random(seed, 9, b);
        let root = t.initial_state();
        let config = AlphaBetaConfig { pvs, ..AlphaBetaConfig::alpha_beta(k) };
        let pl = Hashed { lo: 40 };
        let mut h = InterestHorizon::with_config(static_terms(), pl);
        let budget = h.root_budget(k);
        let expect_unordered = oracle(&t, root, budget, &mut h, &mut |_, _| 0, 0);
        let mut p = pl;
        let expect_ordered =
            oracle(&t, root, budget, &mut h, &mut |s, m| i64::from(p.interest(&t, &s, m)), 0);
        let unordered = AlphaBeta::new(LeafValue)
            .with_config(config)
            .with_horizon(InterestHorizon::with_config(static_terms(), pl))
            .search(&t, &root, &Limits::none());
        let ordered = AlphaBeta::new(LeafValue)
            .with_config(config)
            .with_horizon(InterestHorizon::with_config(static_terms(), pl))
            .with_ordering(InterestOrdering::with_bonuses(pl, HintBonuses::NONE))
            .search(&t, &root, &Limits::none());
        unordered.value == expect_unordered && ordered.value == expect_ordered
    }

    /// A sound pruning hook composes with the interest horizon without changing its value.
    fn composes_with_a_sound_pruning_hook(seed: u64, k: u8, b: u8) -> bool {
        let (k, b) = (u32::from(k % 24) + 1, u32::from(b % 4) + 2);
        let t = narrow_tree(seed, 8, b);
        let root = t.initial_state();
        let pl = Hashed { lo: 40 };
        let base = AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(k))
            .with_horizon(InterestHorizon::with_config(static_terms(), pl))
            .search(&t, &root, &Limits::none());
        let pruned = AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(k))
            .with_horizon(InterestHorizon::with_config(static_terms(), pl))
            .with_pruning(CeilingReached)
            .search(&t, &root, &Limits::none());
        pruned.value == base.value && pruned.stats.generated <= base.stats.generated
    }

    /// Forward estimation with exact edge bounds stays equal to α/β under the interest horizon when
    /// every move costs at least one `limit_step`: the draft then bounds the plies left, which is
    /// what its estimate `static + u × depth` needs.
    fn composes_with_forward_estimation(seed: u64, k: u8, b: u8) -> bool {
        let (k, b) = (u32::from(k % 24) + 1, u32::from(b % 4) + 2);
        let t = narrow_tree(seed, 8, b);
        let root = t.initial_state();
        let pl = Hashed { lo: 1 }.capped(100); // interest ≤ 100: cost ≥ 1000 = limit_step
        let base = AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(k))
            .with_horizon(InterestHorizon::with_config(static_terms(), pl))
            .search(&t, &root, &Limits::none());
        let bounds = EdgeBounds::Exact { l: -2, u: 2 };
        let fe = AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(k))
            .with_horizon(InterestHorizon::with_config(static_terms(), pl))
            .with_pruning(ForwardEstimation::new(bounds))
            .search(&t, &root, &Limits::none());
        fe.value == base.value
    }
}

/// `Hashed` with interests clamped to at most `max`.
#[derive(Clone, Copy, Debug)]
struct Capped(Hashed, u32);

impl Hashed {
    fn capped(self, max: u32) -> Capped {
        Capped(self, max)
    }
}

impl Plausibility<ExplicitTree> for Capped {
    fn interest(&mut self, t: &ExplicitTree, s: &NodeId, mv: u32) -> u32 {
        self.0.interest(t, s, mv).min(self.1)
    }
    fn similarity(&self, t: &ExplicitTree, s: &NodeId, mv: u32) -> Option<u32> {
        self.0.similarity(t, s, mv)
    }
}

/// Sound by construction: no node of a narrow tree is worth more than 1 to anyone, so once α
/// reaches 1 every remaining child can be skipped with that upper bound.
#[derive(Clone, Copy, Debug)]
struct CeilingReached;

impl<G: ZeroSumGame> ForwardPruning<G> for CeilingReached {
    fn prune(&mut self, ctx: &PruneContext) -> Option<Score> {
        (ctx.alpha >= 1).then_some(1)
    }
}

/// Interest per child node id, 100 unless listed.
#[derive(Clone, Debug)]
struct ById(Vec<(NodeId, u32)>);

impl Plausibility<ExplicitTree> for ById {
    fn interest(&mut self, t: &ExplicitTree, s: &NodeId, mv: u32) -> u32 {
        let child = t.apply(&mut s.clone(), mv).unwrap();
        self.0
            .iter()
            .find(|(id, _)| *id == child)
            .map_or(100, |&(_, i)| i)
    }
}

/// Parity separation inside the engine: B's only reply is a dull move that costs B's whole share;
/// A's winning follow-up still fits A's own tally, so the engine sees the win. With one shared
/// tally of the same iteration, B's dull move "escapes" into a static value.
#[test]
fn with_the_opponents_tally_exhausted_the_root_sides_line_continues() {
    // root(A) -> a1 -> B: dull (interest 40, cost 2500) -> A: win -> B lost (leaf -500)
    //                    B: cheap (interest 100)        -> A: win -> B lost (leaf -500)
    let t = ExplicitTree::from_nested(&Nested::node(
        0,
        vec![Nested::node(
            0,
            vec![
                Nested::node(0, vec![Nested::leaf(-500)]),
                Nested::node(0, vec![Nested::leaf(-500)]),
            ],
        )],
    ));
    let root = t.initial_state();
    let a1 = t.children(root).start;
    let dull = t.children(a1).start; // listed first, so it is tried first when unordered
    let plausibility = ById(vec![(dull, 40)]);
    // limit_step 1250: iteration n gives A ⌈n/2⌉ × 1250 and B ⌊n/2⌋ × 1250.
    let config = InterestConfig {
        sibling_percent: 0,
        limit_step: 1250,
        ..alternate()
    };
    let search = |config: InterestConfig, iteration: u32| {
        AlphaBeta::new(LeafValue)
            .with_config(AlphaBetaConfig::alpha_beta(iteration))
            .with_horizon(InterestHorizon::with_config(config, plausibility.clone()))
            .with_ordering(InterestOrdering::with_bonuses(
                plausibility.clone(),
                HintBonuses::NONE,
            ))
            .search(&t, &root, &Limits::none())
    };
    // Iteration 4: A 2500, B 2500. The dull move spends exactly B's share (B is exhausted), yet
    // A's follow-up (2000 of A's own 2500) is searched: the engine sees the win.
    assert_eq!(search(config, 4).value, 500);
    // Iteration 3: A 2500, B 1250. The dull move is out of B's reach: B must face the win.
    assert_eq!(search(config, 3).value, 500);
    // Shared, iteration 4 (one tally of 5000): 1000 + 2500 + 1000 fits, the win is seen. Shared,
    // iteration 3 (3750): the dull move (3500) fits but A's follow-up (4500) does not: B dodges into
    // the static 0, the flaw of the first version Rollason describes.
    let shared = InterestConfig {
        separate_parities: false,
        ..config
    };
    assert_eq!(search(shared, 4).value, 500);
    assert_eq!(search(shared, 3).value, 0);
}

/// The composition tests above are not vacuous: both hooks do skip children under the interest
/// horizon.
#[test]
fn the_pruning_hooks_do_fire_under_the_interest_horizon() {
    let (mut ceiling, mut fe) = (0, 0);
    for seed in 0..40 {
        let t = narrow_tree(seed, 8, 4);
        let root = t.initial_state();
        let search = |pruning, iteration| {
            AlphaBeta::new(LeafValue)
                .with_config(AlphaBetaConfig::alpha_beta(iteration))
                .with_horizon(InterestHorizon::with_config(
                    static_terms(),
                    Hashed { lo: 60 }.capped(100),
                ))
                .with_pruning(pruning)
                .search(&t, &root, &Limits::none())
                .stats
                .pruned
        };
        ceiling += search(Hooks::Ceiling, 24);
        for iteration in 2..8 {
            let bounds = EdgeBounds::Exact { l: -2, u: 2 };
            fe += search(Hooks::Fe(ForwardEstimation::new(bounds)), iteration);
        }
    }
    assert!(ceiling > 0 && fe > 0, "ceiling {ceiling}, fe {fe}");
}

/// Either hook, so that one closure can run both.
enum Hooks {
    Ceiling,
    Fe(ForwardEstimation),
}

impl<G: ZeroSumGame> ForwardPruning<G> for Hooks {
    fn start_search(&mut self) {
        if let Hooks::Fe(fe) = self {
            ForwardPruning::<G>::start_search(fe);
        }
    }
    fn prune(&mut self, ctx: &PruneContext) -> Option<Score> {
        match self {
            Hooks::Ceiling => ForwardPruning::<G>::prune(&mut CeilingReached, ctx),
            Hooks::Fe(fe) => ForwardPruning::<G>::prune(fe, ctx),
        }
    }
}

/// Counts the plausibility's calls (shared between clones).
#[derive(Clone)]
struct Counting<Pl>(Pl, std::rc::Rc<std::cell::Cell<u64>>);

impl<G: ZeroSumGame, Pl: Plausibility<G>> Plausibility<G> for Counting<Pl> {
    fn interest(&mut self, game: &G, state: &G::State, mv: G::Move) -> u32 {
        self.1.set(self.1.get() + 1);
        self.0.interest(game, state, mv)
    }
    fn similarity(&self, game: &G, state: &G::State, mv: G::Move) -> Option<u32> {
        self.0.similarity(game, state, mv)
    }
}

quickcheck! {
    /// Hooks paired by `interest_search::hooks` read each move's interest back from the engine's
    /// ordering score: the same search, value, move and nodes, as hooks that compute it again, with
    /// fewer plausibility calls.
    fn paired_hooks_search_the_same_tree_with_fewer_calls(seed: u64, k: u8, b: u8, pvs: bool) -> bool {
        let (k, b) = (u32::from(k % 8) + 1, u32::from(b % 6) + 2);
        let t = ExplicitTree::random(seed, 9, b);
        let root = t.initial_state();
        let config = AlphaBetaConfig { pvs, ..AlphaBetaConfig::alpha_beta(k) };
        let calls = std::rc::Rc::new(std::cell::Cell::new(0));
        let pl = Counting(Hashed { lo: 40 }, calls.clone());
        let (horizon, ordering) = gametree::interest_search::hooks(static_terms(), pl.clone());
        let paired = AlphaBeta::new(LeafValue)
            .with_config(config)
            .with_horizon(horizon)
            .with_ordering(ordering)
            .search(&t, &root, &Limits::none());
        let paired_calls = calls.replace(0);
        let single = AlphaBeta::new(LeafValue)
            .with_config(config)
            .with_horizon(InterestHorizon::with_config(static_terms(), pl.clone()))
            .with_ordering(InterestOrdering::with_bonuses(pl, HintBonuses::NONE))
            .search(&t, &root, &Limits::none());
        (paired.value, paired.best_move, paired.stats.generated)
            == (single.value, single.best_move, single.stats.generated)
            && paired_calls < calls.get()
    }
}

/// Records the union of the hints the engine passes to a horizon.
struct Recording<H>(H, std::rc::Rc<std::cell::Cell<u8>>);

impl<G: ZeroSumGame, H: HorizonPolicy<G>> HorizonPolicy<G> for Recording<H> {
    type Budget = H::Budget;
    type NodeTally = H::NodeTally;
    const HINTS: bool = true;
    fn root_budget(&mut self, iteration: u32) -> H::Budget {
        self.0.root_budget(iteration)
    }
    fn is_leaf(&self, game: &G, state: &G::State, budget: &H::Budget) -> bool {
        self.0.is_leaf(game, state, budget)
    }
    fn child_budget(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &H::Budget,
        tally: &mut H::NodeTally,
        step: Step<G::Move>,
    ) -> Option<H::Budget> {
        self.1.set(self.1.get() | step.hints.bits());
        self.0.child_budget(game, state, budget, tally, step)
    }
    fn draft(&self, budget: &H::Budget) -> u32 {
        self.0.draft(budget)
    }
    fn budget_key(&self, budget: &H::Budget) -> u16 {
        self.0.budget_key(budget)
    }
}

/// The engine supplies every one of Treebeard's dynamic terms: in an iterative Othello search
/// with a table and killers, the horizon sees the table move, the previous iteration's best move,
/// killers, best replies and follow-ons; with none of those tables but the path's, only the
/// reply terms.
#[test]
fn the_engine_supplies_every_dynamic_term_to_the_horizon() {
    use gametree::game::MoveHints;
    use othello_bitboard::{Ev1, Othello, OthelloPlausibility};
    let seen = std::rc::Rc::new(std::cell::Cell::new(0u8));
    let (horizon, ordering) =
        gametree::interest_search::hooks(InterestConfig::default(), OthelloPlausibility::new());
    let config = AlphaBetaConfig {
        history: false,
        tt_bytes: 1 << 20,
        ..AlphaBetaConfig::pvs(4)
    };
    let mut engine = AlphaBeta::new(Ev1)
        .with_config(config)
        .with_horizon(Recording(horizon, seen.clone()))
        .with_ordering(ordering);
    let result = engine.search(&Othello, &Othello.initial_state(), &Limits::none());
    assert!(result.best_move.is_some());
    let all = MoveHints::TABLE
        | MoveHints::PREVIOUS_BEST
        | MoveHints::KILLER
        | MoveHints::BEST_REPLY
        | MoveHints::FOLLOW_ON;
    assert_eq!(seen.get(), all.bits());

    seen.set(0);
    let plain = AlphaBeta::new(Ev1)
        .with_config(AlphaBetaConfig::alpha_beta(3))
        .with_horizon(Recording(depth_like(true), seen.clone()));
    let mut plain = plain;
    plain.search(&Othello, &Othello.initial_state(), &Limits::none());
    let replies = MoveHints::BEST_REPLY | MoveHints::FOLLOW_ON;
    assert_eq!(seen.get() & !replies.bits(), 0);
    assert_ne!(seen.get(), 0);
}

/// Interest search where a player may move twice in a row: at every node the budget charges the
/// player the game says moves there (the engine corrects the budget of a child where the mover
/// moves again, [`HorizonPolicy::same_mover`]), so each parity's tally pays for its own moves.
#[test]
fn each_tally_pays_for_the_moves_of_the_player_who_really_moves() {
    use gametree::interest_search::{InterestBudget, InterestTally, Parity};
    use gametree::search::ExtraTurnTree;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Interest search, checking its budgets against the game at every node.
    struct Checked(InterestHorizon<Uniform>, Rc<RefCell<Vec<String>>>);

    impl Checked {
        fn check(&self, game: &ExtraTurnTree, s: &NodeId, mover: Parity, what: &str) {
            let real = match game.side_to_move(s) {
                0 => Parity::RootSide, // the root is player 0's
                _ => Parity::OtherSide,
            };
            if mover != real {
                self.1
                    .borrow_mut()
                    .push(format!("node {s}: {what} {mover:?}"));
            }
        }
    }

    impl HorizonPolicy<ExtraTurnTree> for Checked {
        type Budget = InterestBudget;
        type NodeTally = InterestTally;
        fn root_budget(&mut self, iteration: u32) -> InterestBudget {
            HorizonPolicy::<ExtraTurnTree>::root_budget(&mut self.0, iteration)
        }
        fn is_leaf(&self, game: &ExtraTurnTree, s: &NodeId, budget: &InterestBudget) -> bool {
            self.check(game, s, budget.to_move(), "budget");
            self.0.is_leaf(game, s, budget)
        }
        fn child_budget(
            &mut self,
            game: &ExtraTurnTree,
            s: &NodeId,
            budget: &InterestBudget,
            tally: &mut InterestTally,
            step: Step<u32>,
        ) -> Option<InterestBudget> {
            let mover = match step.mover_is_root_side {
                true => Parity::RootSide,
                false => Parity::OtherSide,
            };
            self.check(game, s, mover, "step");
            self.0.child_budget(game, s, budget, tally, step)
        }
        fn same_mover(&self, budget: InterestBudget) -> InterestBudget {
            HorizonPolicy::<ExtraTurnTree>::same_mover(&self.0, budget)
        }
        fn draft(&self, budget: &InterestBudget) -> u32 {
            HorizonPolicy::<ExtraTurnTree>::draft(&self.0, budget)
        }
        fn budget_key(&self, budget: &InterestBudget) -> u16 {
            HorizonPolicy::<ExtraTurnTree>::budget_key(&self.0, budget)
        }
    }

    fn prop(seed: u64) -> bool {
        let game = ExtraTurnTree::random(seed, 6, 3);
        let errors = Rc::new(RefCell::new(Vec::new()));
        let horizon = Checked(depth_like(true), errors.clone());
        let config = AlphaBetaConfig {
            tt_bytes: 1 << 16,
            history: false,
            ..AlphaBetaConfig::pvs(8)
        };
        let mut search = AlphaBeta::new(LeafValue)
            .with_config(config)
            .with_horizon(horizon);
        search.search(&game, &0, &Limits::none());
        let errors = errors.borrow();
        errors.is_empty() || panic!("seed {seed}: {:?}", &errors[..errors.len().min(3)])
    }
    quickcheck(prop as fn(u64) -> bool);
}

/// Interest search's iterations stop once one admitted every move down to the end of the game:
/// asked for 20, 50 or 100 iterations on a small tree whose leaves are finished games, it stops
/// at the same iteration with the same value and nodes (full-width α/β's value, since nothing
/// lay beyond the horizon).
#[test]
fn interest_iterations_stop_at_the_end_of_the_game() {
    fn prop(seed: u64) -> bool {
        let tree = ExplicitTree::random(seed, 4, 3);
        let truth = Minimax::new(LeafValue, 4).search(&tree, &0, &Limits::none());
        let runs = [20, 50, 100].map(|iterations| {
            let (horizon, ordering) =
                gametree::interest_search::hooks(InterestConfig::default(), Uniform(100));
            let config = AlphaBetaConfig {
                tt_bytes: 1 << 16,
                history: false,
                ..AlphaBetaConfig::pvs(iterations)
            };
            let r = AlphaBeta::new(LeafValue)
                .with_config(config)
                .with_horizon(horizon)
                .with_ordering(ordering)
                .search(&tree, &0, &Limits::none());
            (r.value, r.depth, r.stats.generated)
        });
        runs[0].0 == truth.value && runs[0].1 < 20 && runs.iter().all(|r| *r == runs[0])
            || panic!("seed {seed}: {runs:?} vs {}", truth.value)
    }
    quickcheck(prop as fn(u64) -> bool);
}

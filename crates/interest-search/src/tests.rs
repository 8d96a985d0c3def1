//! Properties of the policy on small explicit trees, driven by a minimal negamax that follows the
//! [`HorizonPolicy`] contract exactly (the real engine is search-core's; the cross-crate tests in
//! `tests/tests/interest_*.rs` run it).

use game_trait::{
    Evaluator, Game, HorizonPolicy, MoveList, Outcome, Plausibility, PlayerId, Score, Step,
    ZeroSumGame,
};
use quickcheck::{quickcheck, TestResult};

use crate::{
    HintBonuses, InterestBudget, InterestConfig, InterestHorizon, LimitSplit, Parity, StaticGain,
    Uniform,
};

/// The configuration most tests were written for: the limit shared out between the tallies, no
/// diminishing interest with depth (their closed forms assume it).
fn alternate() -> InterestConfig {
    InterestConfig {
        limits: LimitSplit::Alternate,
        beyond_depth_percent: 100,
        ..InterestConfig::default()
    }
}

/// An explicit tree: node 0 is the root; `kids[n]` in generation order; per node its interest as a
/// move, its similarity key, and its static value (side to move's view).
#[derive(Clone, Debug, Default)]
struct Tree {
    kids: Vec<Vec<usize>>,
    interest: Vec<u32>,
    key: Vec<Option<u32>>,
    value: Vec<Score>,
}

#[derive(Clone, Copy, Debug)]
struct At {
    node: usize,
    ply: u32,
}

impl Tree {
    fn add(&mut self, parent: Option<usize>, interest: u32, value: Score) -> usize {
        let id = self.kids.len();
        self.kids.push(Vec::new());
        self.interest.push(interest);
        self.key.push(None);
        self.value.push(value);
        if let Some(p) = parent {
            self.kids[p].push(id);
        }
        id
    }

    /// Complete tree of branching `b` and depth `d`, leaf values from a cheap hash.
    fn uniform(b: usize, d: u32) -> Tree {
        let mut t = Tree::default();
        let root = t.add(None, 100, 0);
        let mut frontier = vec![root];
        for _ in 0..d {
            let mut next = Vec::new();
            for &p in &frontier {
                for _ in 0..b {
                    let id = t.kids.len();
                    let value = (id as i32).wrapping_mul(7919).rem_euclid(23) - 11;
                    next.push(t.add(Some(p), 100, value));
                }
            }
            frontier = next;
        }
        t
    }
}

impl Game for Tree {
    type State = At;
    type Move = usize;
    fn initial_state(&self) -> At {
        At { node: 0, ply: 0 }
    }
    fn apply(&self, s: &mut At, mv: usize) -> Option<At> {
        Some(At {
            node: mv,
            ply: s.ply + 1,
        })
    }
    fn state_hash(&self, s: &At) -> Option<u64> {
        Some(s.node as u64)
    }
}

impl ZeroSumGame for Tree {
    fn side_to_move(&self, s: &At) -> PlayerId {
        (s.ply % 2) as PlayerId
    }
    fn outcome(&self, s: &At) -> Option<Outcome> {
        self.kids[s.node]
            .is_empty()
            .then(|| Outcome::margin_of(self.value[s.node]))
    }
    fn moves(&self, s: &At, moves: &mut MoveList<usize>) {
        moves.extend(self.kids[s.node].iter().copied());
    }
}

/// The tree's own table of interests and similarity keys.
#[derive(Clone, Copy, Debug)]
struct Table;

impl Plausibility<Tree> for Table {
    fn interest(&mut self, t: &Tree, _: &At, mv: usize) -> u32 {
        t.interest[mv]
    }
    fn similarity(&self, t: &Tree, _: &At, mv: usize) -> Option<u32> {
        t.key[mv]
    }
}

struct Static;
impl Evaluator<Tree> for Static {
    fn evaluate(&mut self, t: &Tree, s: &At) -> Score {
        t.value[s.node]
    }
    fn terminal(&mut self, _: &Tree, _: &At, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

/// Full-width negamax over the tree the policy defines, recording every visited node.
fn negamax<H: HorizonPolicy<Tree>>(
    t: &Tree,
    s: At,
    budget: H::Budget,
    h: &mut H,
    visited: &mut Vec<usize>,
) -> Score {
    visited.push(s.node);
    if t.kids[s.node].is_empty() || h.is_leaf(t, &s, &budget) {
        return Static.evaluate(t, &s);
    }
    let mut tally = H::NodeTally::default();
    let mut best = None;
    for (index, &mv) in t.kids[s.node].iter().enumerate() {
        let step = Step::new(mv, index, s.ply % 2 == 0);
        let Some(child) = h.child_budget(t, &s, &budget, &mut tally, step) else {
            break;
        };
        let v = -negamax(t, t.apply(&mut s.clone(), mv).unwrap(), child, h, visited);
        best = Some(best.map_or(v, |b: Score| b.max(v)));
    }
    best.unwrap_or_else(|| Static.evaluate(t, &s))
}

fn run<H: HorizonPolicy<Tree>>(t: &Tree, h: &mut H, iteration: u32) -> (Score, Vec<usize>) {
    let mut visited = Vec::new();
    let budget = h.root_budget(iteration);
    let v = negamax(t, t.initial_state(), budget, h, &mut visited);
    (v, visited)
}

fn equal_costs(sibling_percent: u32, separate_parities: bool) -> InterestHorizon<Uniform> {
    let config = InterestConfig {
        limit_step: 1000,
        scale: 100_000,
        sibling_percent,
        similar_percent: 100,
        separate_parities,
        inherit_siblings: true,
        ..alternate()
    };
    InterestHorizon::with_config(config, Uniform(100)) // every move costs 1000 = one step
}

quickcheck! {
    /// Every move costing one step, no sibling charge: iteration d is the depth-d search, node for
    /// node and value for value, with either parity rule.
    fn equal_costs_without_sibling_charge_is_fixed_depth(b: u8, d: u8, separate: bool) -> TestResult {
        let (b, d) = (usize::from(b % 4) + 1, u32::from(d % 6) + 1);
        let t = Tree::uniform(b, d);
        for iteration in 0..=d + 1 {
            let (v, nodes) = run(&t, &mut equal_costs(0, separate), iteration);
            let (w, reference) = run(&t, &mut game_trait::DepthHorizon, iteration);
            if v != w || nodes != reference {
                return TestResult::failed();
            }
        }
        TestResult::passed()
    }

    /// With the article's sibling charge and one shared tally, a node with `k` steps left explores
    /// `min(b, k)` moves, the i-th with `k − i` left: N(k) = 1 + Σ_{i=1}^{min(b,k)} N(k − i).
    fn sibling_charge_shared_tally_counts(b: u8, k: u8) -> bool {
        let (b, k) = (usize::from(b % 4) + 1, u32::from(k % 7));
        fn n(b: usize, k: u32) -> usize {
            1 + (1..=(b as u32).min(k)).map(|i| n(b, k - i)).sum::<usize>()
        }
        let t = Tree::uniform(b, k + 1);
        run(&t, &mut equal_costs(100, false), k).1.len() == n(b, k)
    }

    /// Without inheritance the sibling tally only limits width: a node with `k` steps explores
    /// `min(b, k)` moves and every child keeps `k − 1`: N(k) = 1 + min(b, k) × N(k − 1).
    fn sibling_tally_without_inheritance_only_limits_width(b: u8, k: u8) -> bool {
        let (b, k) = (usize::from(b % 4) + 1, u32::from(k % 6));
        fn n(b: usize, k: u32) -> usize {
            if k == 0 { 1 } else { 1 + b.min(k as usize) * n(b, k - 1) }
        }
        let t = Tree::uniform(b, k + 1);
        let mut h = equal_costs(100, false);
        h = InterestHorizon::with_config(InterestConfig { inherit_siblings: false, ..*h.config() }, Uniform(100));
        run(&t, &mut h, k).1.len() == n(b, k)
    }

    /// The same with one tally per parity: the mover has `r` steps, the other `o`;
    /// N(r, o) = 1 + Σ_{i=1}^{min(b,r)} N(o, r − i). Iteration k gives r = ⌈k/2⌉, o = ⌊k/2⌋.
    fn sibling_charge_separate_tallies_counts(b: u8, k: u8) -> bool {
        let (b, k) = (usize::from(b % 4) + 1, u32::from(k % 8));
        fn n(b: usize, r: u32, o: u32) -> usize {
            1 + (1..=(b as u32).min(r)).map(|i| n(b, o, r - i)).sum::<usize>()
        }
        let t = Tree::uniform(b, k.div_ceil(2) * 2 + 1);
        run(&t, &mut equal_costs(100, true), k).1.len() == n(b, k.div_ceil(2), k / 2)
    }
}

#[test]
fn article_formula_net_cost_and_stop() {
    // Root with three moves of interest 100, 50, 25: costs 1000, 2000, 4000.
    let mut t = Tree::default();
    let root = t.add(None, 1, 0);
    for i in [100, 50, 25] {
        t.add(Some(root), i, 0);
    }
    let mut h = InterestHorizon::with_config(alternate(), Table);
    let s = t.initial_state();
    let budget = InterestBudget::root(3500, 0);
    let mut tally = Default::default();
    let step = |index: usize, mv: usize| Step::new(mv, index, true);
    let a = h
        .child_budget(&t, &s, &budget, &mut tally, step(0, 1))
        .unwrap();
    assert_eq!(a.spent(Parity::RootSide), 1000); // 0 + 0 + 1000
    let b = h
        .child_budget(&t, &s, &budget, &mut tally, step(1, 2))
        .unwrap();
    assert_eq!(b.spent(Parity::RootSide), 3000); // 0 + 1000 + 2000
    assert_eq!(b.to_move(), Parity::OtherSide);
    // 0 + 3000 + 4000 > 3500: no further move at this node.
    assert!(h
        .child_budget(&t, &s, &budget, &mut tally, step(2, 3))
        .is_none());
    assert_eq!(tally.total_cost_this_ply, 3000);
}

#[test]
fn similar_moves_cost_more_for_each_one_already_searched() {
    let mut t = Tree::default();
    let root = t.add(None, 1, 0);
    for key in [Some(7), Some(7), None, Some(7), Some(8)] {
        let id = t.add(Some(root), 100, 0);
        t.key[id] = key;
    }
    let config = InterestConfig {
        sibling_percent: 0,
        similar_percent: 50,
        ..alternate()
    };
    let mut h = InterestHorizon::with_config(config, Table);
    let (s, budget) = (t.initial_state(), InterestBudget::root(u32::MAX, 0));
    let mut tally = Default::default();
    let costs: Vec<u32> = (1..=5)
        .map(|mv| {
            let step = Step::new(mv, mv - 1, true);
            h.child_budget(&t, &s, &budget, &mut tally, step)
                .unwrap()
                .spent(Parity::RootSide)
        })
        .collect();
    // base 1000; key 7 seen 0, 1, -, 2 times; key 8 fresh.
    assert_eq!(costs, vec![1000, 1500, 1000, 2000, 1000]);
    assert_eq!(tally.total_cost_this_ply, 6500);
}

/// Root side A plays a1; B answers with an expensive, dull move that uses up B's whole share; A's
/// own tally is untouched, so A's winning follow-up is still searched. B to move afterwards is a
/// leaf: B's tally is exhausted.
#[test]
fn with_one_tally_exhausted_the_other_line_continues() {
    let mut t = Tree::default();
    let root = t.add(None, 1, 0);
    let a1 = t.add(Some(root), 100, 0); // cost 1000
    let dull = t.add(Some(a1), 50, 0); // cost 2000: all of B's share at iteration 4
    let win = t.add(Some(dull), 100, 0); // cost 1000, A's second move
    let b_reply = t.add(Some(win), 100, 0);
    t.add(Some(b_reply), 100, 0);
    t.value[win] = -90; // B to move at `win` is lost by 90 for B (static)
    let mut h = InterestHorizon::with_config(alternate(), Table);
    let (v, visited) = run(&t, &mut h, 4); // A: 2000, B: 2000
    assert_eq!(visited, vec![root, a1, dull, win]);
    assert_eq!(v, 90);
    // B to move at `win` has nothing left: its reply is never searched.
    assert!(!visited.contains(&b_reply));
}

/// The flaw of one shared tally that Rollason describes: B escapes A's threat by a move just
/// expensive enough that A's follow-up no longer fits. With separate tallies the dull move can only
/// spend B's own interest, which cannot afford it, so B must face the threat.
#[test]
fn shared_tally_lets_the_opponent_dodge_separate_tallies_do_not() {
    let mut t = Tree::default();
    let root = t.add(None, 1, 0);
    let a1 = t.add(Some(root), 100, 0); // 1000
    let cheap = t.add(Some(a1), 100, 0); // 1000
    let threat = t.add(Some(cheap), 100, -500); // 1000: B to move, lost
    let dull = t.add(Some(a1), 40, 0); // 2500
    t.add(Some(dull), 100, -500); // the same threat, out of reach
    let config = InterestConfig {
        sibling_percent: 0,
        ..alternate()
    };
    // Iteration 4, shared: one tally of 4000. After the dull move (3500) A's threat (4500) no
    // longer fits: B "escapes" into a static 0.
    let shared = InterestConfig {
        separate_parities: false,
        ..config
    };
    let (v, visited) = run(&t, &mut InterestHorizon::with_config(shared, Table), 4);
    assert_eq!((v, visited), (0, vec![root, a1, cheap, threat, dull]));
    // Iteration 4, separate: A 2000, B 2000. B cannot afford the dull move; the threat stands.
    let (v, visited) = run(&t, &mut InterestHorizon::with_config(config, Table), 4);
    assert_eq!((v, visited), (500, vec![root, a1, cheap, threat]));
}

/// The horizon effect Rollason says remains: a side can end its *own* line early by choosing an
/// expensive move, and a disaster that needs more of its moves to unfold is not seen.
#[test]
fn remaining_horizon_effect_a_side_can_spend_itself_out_of_a_disaster() {
    let mut t = Tree::default();
    let root = t.add(None, 1, 0);
    let good = t.add(Some(root), 100, 0); // cheap, sound-looking, but...
    let reply = t.add(Some(good), 100, 0);
    let forced = t.add(Some(reply), 100, 0); // A's next move is forced into
    let crush = t.add(Some(forced), 100, -800); // B's crushing answer: A to move, lost
    let bad = t.add(Some(root), 34, 0); // cost 2941: uses up A's share at once
    let reply2 = t.add(Some(bad), 100, -30); // A to move: a small static minus
    let refutation = t.add(Some(reply2), 100, 0); // what A would find next, never searched
    t.add(Some(refutation), 100, 0);
    let config = InterestConfig {
        sibling_percent: 0,
        ..alternate()
    };
    let mut h = InterestHorizon::with_config(config, Table);
    // A 3000, B 2000 (iteration 5 of limit_step 1000 would give A 3000, B 2000).
    let mut visited = Vec::new();
    let v = negamax(
        &t,
        t.initial_state(),
        InterestBudget::root(3000, 2000),
        &mut h,
        &mut visited,
    );
    assert!(visited.contains(&crush) && !visited.contains(&refutation));
    // `bad` ends A's line after B's reply (A has 59 units left), so its -30 beats `good`'s -800
    // (seen from A): the search prefers the bad move, exactly the remaining horizon effect.
    assert_eq!(v, -30);
}

#[test]
fn iteration_budgets_share_the_limit_like_plies_and_draft_counts_steps() {
    let h = equal_costs(100, true);
    let b = h.iteration_budget(5);
    assert_eq!(
        (b.limit(Parity::RootSide), b.limit(Parity::OtherSide)),
        (3000, 2000)
    );
    assert_eq!(HorizonPolicy::<Tree>::draft(&h, &b), 5);
    let shared = equal_costs(100, false).iteration_budget(5);
    assert_eq!(
        (
            shared.limit(Parity::RootSide),
            shared.limit(Parity::OtherSide)
        ),
        (5000, 0)
    );
    assert_eq!(
        HorizonPolicy::<Tree>::draft(&equal_costs(100, false), &shared),
        5
    );
    assert!(HorizonPolicy::<Tree>::is_leaf(
        &h,
        &Tree::uniform(1, 1),
        &At { node: 0, ply: 0 },
        &h.iteration_budget(0)
    ));
}

#[test]
fn budgets_of_equal_draft_but_different_splits_have_different_keys() {
    // (2000, 0) and (1000, 1000) both have draft 2, but the first lets one side make two moves and
    // the other none, the second each side one: different trees, so the table must tell them apart.
    let h = equal_costs(100, true);
    let key = |b: &InterestBudget| HorizonPolicy::<Tree>::budget_key(&h, b);
    let draft = |b: &InterestBudget| HorizonPolicy::<Tree>::draft(&h, b);
    let lopsided = InterestBudget::root(2000, 0);
    let even = InterestBudget::root(1000, 1000);
    assert_eq!(draft(&lopsided), draft(&even));
    assert_ne!(key(&lopsided), key(&even));
    // Only what is left matters, not what was spent to get there.
    assert_eq!(key(&InterestBudget::root(1000, 1000)), key(&even));
    let mut keys: Vec<u16> = (0..=20)
        .map(|i| key(&InterestBudget::root(100 * i, 2000 - 100 * i)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 21, "splits of one total collide");
}

#[test]
fn costs_never_reach_zero() {
    let h = InterestHorizon::new(Uniform(1));
    assert_eq!(h.cost(u32::MAX), 1);
    assert_eq!(h.cost(0), 100_000);
    assert_eq!(h.cost(100), 1000);
}

#[test]
fn static_gain_is_base_interest_plus_the_mover_s_gain() {
    let mut t = Tree::default();
    let root = t.add(None, 1, 10);
    let good = t.add(Some(root), 1, -310); // child's mover loses 310: the root's mover gains 300
    let bad = t.add(Some(root), 1, 50);
    let mut pl = StaticGain::new(Static, 100);
    let s = t.initial_state();
    assert_eq!(pl.interest(&t, &s, good), 500 + 300);
    assert_eq!(pl.interest(&t, &s, bad), 500);
}

#[test]
fn the_root_always_searches_its_first_move_but_nothing_else_beyond_the_limit() {
    let mut t = Tree::default();
    let root = t.add(None, 1, 0);
    let expensive = t.add(Some(root), 10, 0); // cost 10000, far beyond iteration 1's 1000
    let reply = t.add(Some(expensive), 100, 0);
    t.add(Some(reply), 100, 0);
    t.add(Some(root), 10, 0);
    let mut h = InterestHorizon::with_config(alternate(), Table);
    let (_, visited) = run(&t, &mut h, 1);
    // The first root move is searched; the root side has nothing left and the other side no share.
    assert_eq!(visited, vec![root, expensive]);
    let (_, visited) = run(&t, &mut h, 2); // the other side now has 1000: it replies
    assert_eq!(visited, vec![root, expensive, reply]);
    assert_eq!(run(&t, &mut h, 0).1, vec![root]);
}

quickcheck! {
    /// The article's limit semantics: each tally meets the whole limit, so with one step per move
    /// and no sibling charge iteration n is the depth-2n search (one shared tally: depth n).
    fn whole_limits_give_each_player_the_iteration_s_moves(b: u8, n: u8, separate: bool) -> TestResult {
        let (b, n) = (usize::from(b % 3) + 1, u32::from(n % 3) + 1);
        let config = InterestConfig {
            limits: LimitSplit::Whole,
            ..*equal_costs(0, separate).config()
        };
        let depth = if separate { 2 * n } else { n };
        let t = Tree::uniform(b, depth + 1);
        let (v, nodes) = run(&t, &mut InterestHorizon::with_config(config, Uniform(100)), n);
        let (w, reference) = run(&t, &mut game_trait::DepthHorizon, depth);
        TestResult::from_bool(v == w && nodes == reference)
    }
}

#[test]
fn nominal_depth_is_where_one_step_moves_reach() {
    let whole = InterestHorizon::new(Uniform(100));
    let budget = whole.iteration_budget(3);
    assert_eq!(
        (
            budget.limit(Parity::RootSide),
            budget.limit(Parity::OtherSide)
        ),
        (3000, 3000)
    );
    assert_eq!(budget.nominal_depth(), Some(6));
    let alternate = InterestHorizon::with_config(alternate(), Uniform(100));
    assert_eq!(alternate.iteration_budget(3).nominal_depth(), Some(3));
    assert_eq!(InterestBudget::root(5, 5).nominal_depth(), None);
}

/// Term 15: a move taking the line past the nominal depth keeps `beyond_depth_percent` of its
/// interest per ply beyond, so its cost grows geometrically there; before, costs are unchanged.
#[test]
fn interest_diminishes_past_the_nominal_depth() {
    let config = InterestConfig {
        limits: LimitSplit::Alternate,
        sibling_percent: 0,
        beyond_depth_percent: 50,
        ..InterestConfig::default()
    };
    let t = Tree::uniform(1, 8);
    let mut h = InterestHorizon::with_config(config, Uniform(100));
    let mut budget = h.iteration_budget(2); // nominal depth 2
    let mut s = t.initial_state();
    let mut costs = Vec::new();
    for ply in 0..4 {
        let before = budget.spent(Parity::RootSide) + budget.spent(Parity::OtherSide);
        let mut tally = Default::default();
        let step = Step::new(1 + ply, 0, ply % 2 == 0);
        budget = h
            .child_budget(&t, &s, &with_room(budget), &mut tally, step)
            .unwrap();
        costs.push(budget.spent(Parity::RootSide) + budget.spent(Parity::OtherSide) - before);
        s = t.apply(&mut s.clone(), step.mv).unwrap();
    }
    // Plies 0 and 1 reach depth ≤ 2: 1000 each; then interest 50 → 2000, 25 → 4000.
    assert_eq!(costs, vec![1000, 1000, 2000, 4000]);
    assert_eq!(budget.ply(), 4);
}

/// The budget with both limits lifted out of reach, its spending and depth kept.
fn with_room(budget: InterestBudget) -> InterestBudget {
    budget.with_limits(u32::MAX, u32::MAX)
}

/// Treebeard's dynamic terms: the engine's hints add their bonuses to the move's interest.
#[test]
fn the_engine_s_hints_add_treebeard_s_bonuses() {
    use game_trait::MoveHints;
    let bonuses = HintBonuses::TREEBEARD;
    assert_eq!(bonuses.bonus(MoveHints::NONE), 0);
    assert_eq!(bonuses.bonus(MoveHints::TABLE), 25);
    let all = MoveHints::TABLE
        | MoveHints::PREVIOUS_BEST
        | MoveHints::KILLER
        | MoveHints::BEST_REPLY
        | MoveHints::FOLLOW_ON;
    assert_eq!(bonuses.bonus(all), 425);
    assert!(HintBonuses::NONE.is_none() && !bonuses.is_none());

    let t = Tree::uniform(2, 2);
    let mut h = InterestHorizon::with_config(alternate(), Uniform(100));
    let budget = InterestBudget::root(u32::MAX, u32::MAX);
    let cost = |h: &mut InterestHorizon<Uniform>, hints| {
        let step = Step::new(1, 0, true).with_hints(hints);
        let child = h.child_budget(
            &t,
            &t.initial_state(),
            &budget,
            &mut Default::default(),
            step,
        );
        child.unwrap().spent(Parity::RootSide)
    };
    assert_eq!(cost(&mut h, MoveHints::NONE), 1000); // 100 000 / 100
    assert_eq!(cost(&mut h, MoveHints::KILLER), 500); // 100 000 / 200
    assert_eq!(cost(&mut h, MoveHints::TABLE | MoveHints::KILLER), 444); // / 225
}

/// Paired hooks read the interest from the engine's ordering score instead of asking the
/// plausibility again; unpaired ones ask (the score may come from an unrelated ordering).
#[test]
fn paired_hooks_compute_each_interest_once() {
    #[derive(Clone, Default)]
    struct Counting(std::rc::Rc<std::cell::Cell<u32>>);
    impl Plausibility<Tree> for Counting {
        fn interest(&mut self, _: &Tree, _: &At, _: usize) -> u32 {
            self.0.set(self.0.get() + 1);
            100
        }
    }
    let t = Tree::uniform(2, 2);
    let calls = Counting::default();
    // What the first move of the root costs, and how many plausibility calls that took.
    let cost = |h: &mut InterestHorizon<Counting>| {
        calls.0.set(0);
        let budget = InterestBudget::root(u32::MAX, u32::MAX);
        let step = Step::new(1, 0, true).with_order_score(Some(200));
        let child = h.child_budget(
            &t,
            &t.initial_state(),
            &budget,
            &mut Default::default(),
            step,
        );
        (child.unwrap().spent(Parity::RootSide), calls.0.get())
    };
    let (mut paired, _) = crate::hooks(alternate(), calls.clone());
    assert_eq!(cost(&mut paired), (500, 0)); // interest 200, from the order score
    let mut single = InterestHorizon::with_config(alternate(), calls.clone());
    assert_eq!(cost(&mut single), (1000, 1)); // interest 100, asked
}

//! [`CaevPlayer`]: the CN(x, y) player of Algorithms 1 and 2.

use std::time::Instant;

use game_trait::{
    Bound, Evaluator, FixedDepth, Limits, Reset, Score, SearchResult, SearchStats, Searcher,
    ZeroSumGame,
};

use crate::caev::CaevConfig;
use crate::error::ConspiracyError;
use crate::numbers::ConspiracyNumbers;
use crate::tree::MinimaxTree;

/// The CN(x, y) player: an explicit minimax layer of depth `x` whose root children are ranked by CAEV.
/// Details below.
///
/// ```text
/// Algorithm 1  CN(node, cn_depth, ab_depth)        Algorithm 2  minimax(node, depth)
///   minimax(node, cn_depth)                          if node is terminal or depth = 0:
///   for all child in node.children:                      node.eval ← alphabeta(node, ab_depth)
///       child.eval ← CAEV(child)                          return
///   return get_best_move(node.children)              for all child: minimax(child, depth − 1)
///                                                    node.eval ← best child.eval
/// ```
///
/// The top layer is an explicit [`MinimaxTree`] of depth `x = cn_depth`; its leaves are valued by the
/// player's [`Evaluator`] — the facade composes `FixedDepth<AlphaBeta>` of depth `y = ab_depth` for
/// CN(x, y), or a static evaluation for CN(x, 0) — and each root child's value is replaced by the CAEV
/// of its subtree (computed with the root player's values, so the best child is the one with the
/// **largest** CAEV; the paper's negamax formulation gives the same choice because CAEV commutes with
/// negating every value). Ties in CAEV go to the larger minimax value, then to the earlier move.
///
/// **CN(0, y).** With `x = 0` the layer is the root alone and Algorithm 1 has no children to choose
/// from; the paper says such a player "will be identical to an alpha-beta player". This type therefore
/// requires `x ≥ 1` ([`CaevPlayer::new`] rejects 0) and CN(0, y) is the α/β searcher itself, which the
/// facade constructs directly.
///
/// **Counting nodes.** [`SearchStats::generated`] is the layer's nodes plus, when the player knows how
/// to read its evaluator's counter ([`CaevPlayer::layered`] does for [`FixedDepth`], others may set
/// [`CaevPlayer::with_node_counter`]), the nodes the evaluating searches generated *below* the layer's
/// leaves: each evaluating search counts its own root, which is a layer leaf already counted once, so
/// one node per evaluated leaf is subtracted.
///
/// **Limits.** `limits.depth` caps `x` (at least one ply is always built: a move must be chosen).
/// With a node budget, deadline or stop flag the layer is deepened iteratively from 1 ply to `x` and
/// the last completed depth's choice is played. The 1-ply layer is built whatever the limits (so a
/// budget smaller than the root's moves still yields a move); the node budget counts the nodes of
/// the layer being built, not those of earlier layers or of the leaf searches. The deadline and the
/// stop flag are read at a pace that follows the cost of a layer node ([`Pace`](game_trait::Pace),
/// at most every 1024 nodes), so a search overruns its deadline by about a millisecond, or by one
/// leaf evaluation where that takes longer.
#[derive(Clone, Debug)]
pub struct CaevPlayer<E> {
    evaluator: E,
    cn_depth: u32,
    caev: CaevConfig,
    leaf_depth: Option<u32>,
    node_counter: Option<fn(&E) -> u64>,
    numbers: ConspiracyNumbers,
    /// Set by [`Reset::reset`]: the evaluator is reset at the start of the next search.
    reset_evaluator: bool,
}

/// A root child as the player saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildValue<M> {
    /// The move to the child.
    pub mv: M,
    /// The child's minimax value in the layer (root player's view).
    pub minimax: Score,
    /// The CAEV of the child's subtree (root player's view): what the player ranks by.
    pub caev: f64,
}

/// Everything one CN(x, y) decision computed.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// The root's minimax value in the layer (root player's view): plain minimax's answer.
    pub minimax: Score,
    /// Every root child, in move generation order.
    pub children: Vec<ChildValue<M>>,
    /// Index into `children` of the move played.
    pub best: usize,
    /// Layer depth actually built.
    pub depth: u32,
    /// Work done (see the module docs for how nodes are counted).
    pub stats: SearchStats,
    /// The minimax principal variation of the chosen child's subtree, starting with its move.
    pub pv: Vec<M>,
}

impl<E> CaevPlayer<E> {
    /// CN(`cn_depth`, ·) with `evaluator` at the layer's leaves, whose `unit` is one clear advantage
    /// in its values (Othello's EV1: 1000, a corner; a box-difference count: 1): RANGE and STEP
    /// are [`CaevConfig::for_unit`]`(unit)`, as the `gametree` facade's `Kit` derives them.
    /// [`with_caev`](CaevPlayer::with_caev) sets them explicitly. `cn_depth` must be at least 1
    /// (CN(0, y) is plain α/β: see the module docs) and `unit` positive.
    pub fn new(evaluator: E, cn_depth: u32, unit: Score) -> Result<CaevPlayer<E>, ConspiracyError> {
        if cn_depth == 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "cn_depth",
                value: 0,
            });
        }
        Ok(CaevPlayer {
            evaluator,
            cn_depth,
            caev: CaevConfig::for_unit(i64::from(unit))?,
            leaf_depth: None,
            node_counter: None,
            numbers: ConspiracyNumbers::new(),
            reset_evaluator: false,
        })
    }

    /// Uses `caev`'s RANGE and STEP instead of those derived from the unit.
    pub fn with_caev(mut self, caev: CaevConfig) -> CaevPlayer<E> {
        self.caev = caev;
        self
    }

    /// Tells the player how to read how many nodes its evaluator has generated so far (a running
    /// total), so that [`SearchStats::generated`] includes them.
    pub fn with_node_counter(mut self, counter: fn(&E) -> u64) -> CaevPlayer<E> {
        self.node_counter = Some(counter);
        self
    }

    /// The layer depth `x`.
    pub fn cn_depth(&self) -> u32 {
        self.cn_depth
    }

    /// RANGE and STEP.
    pub fn caev_config(&self) -> CaevConfig {
        self.caev
    }

    /// The leaf evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The leaf evaluator, mutably.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.evaluator
    }
}

impl<S> CaevPlayer<FixedDepth<S>> {
    /// CN(`cn_depth`, `ab_depth`): the layer's leaves are valued by `searcher` run to `ab_depth`
    /// plies (e.g. search-core's `AlphaBeta`), whose generated nodes are counted; `unit` is one
    /// clear advantage in the searcher's values, as for [`new`](CaevPlayer::new).
    pub fn layered(
        searcher: S,
        cn_depth: u32,
        ab_depth: u32,
        unit: Score,
    ) -> Result<CaevPlayer<FixedDepth<S>>, ConspiracyError> {
        let mut player = CaevPlayer::new(FixedDepth::new(searcher, ab_depth), cn_depth, unit)?
            .with_node_counter(|e| e.nodes);
        player.leaf_depth = Some(ab_depth);
        Ok(player)
    }
}

impl<E> CaevPlayer<E> {
    /// Builds the layer of `state` and values every root child by CAEV. `None` only if the root is a
    /// finished game: the first layer (1 ply under limits, else `x` plies) is built whatever the
    /// limits say, deeper ones only within them.
    pub fn analyse<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
    ) -> Option<Analysis<G::Move>>
    where
        G: ZeroSumGame,
        E: Evaluator<G>,
    {
        self.settle_reset::<G>();
        let target = limits
            .depth
            .map_or(self.cn_depth, |d| d.min(self.cn_depth))
            .max(1);
        let limited = limits.nodes.is_some() || limits.deadline.is_some() || limits.stop.is_some();
        let first = if limited { 1 } else { target };
        let mut best = None;
        let mut stats = SearchStats::default();
        let unlimited = Limits::none();
        for depth in first..=target {
            // The first layer is built whatever the limits: a move must be chosen (as the α/β
            // engine always completes its first iteration).
            let layer_limits = if best.is_none() { &unlimited } else { limits };
            if best.is_some() && limits.exhausted(0) {
                break; // the deadline passed or the stop flag rose between layers
            }
            let Some(analysis) = self.analyse_at(game, state, depth, layer_limits) else {
                break;
            };
            stats += analysis.stats;
            best = Some(analysis);
        }
        best.map(|mut a| {
            a.stats = stats;
            a
        })
    }

    /// Resets the evaluator if the player was reset since its last search.
    fn settle_reset<G>(&mut self)
    where
        G: ZeroSumGame,
        E: Evaluator<G>,
    {
        if std::mem::take(&mut self.reset_evaluator) {
            self.evaluator.reset();
        }
    }

    /// One layer of exactly `depth` plies.
    fn analyse_at<G>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
        limits: &Limits,
    ) -> Option<Analysis<G::Move>>
    where
        G: ZeroSumGame,
        E: Evaluator<G>,
    {
        let counted_before = self.node_counter.map(|count| count(&self.evaluator));
        let tree = MinimaxTree::build_within(game, state, depth, &mut self.evaluator, limits)?;
        let root = tree.root();
        if root.is_leaf() {
            return None;
        }
        let children: Vec<ChildValue<G::Move>> = root
            .children()
            .map(|c| ChildValue {
                mv: tree.node(c).mv.expect("children have moves"),
                minimax: tree.node(c).value,
                caev: self.caev.caev(&tree, c, &mut self.numbers),
            })
            .collect();
        let best = best_child(&children);
        let best_id = root.children().nth(best).expect("best is a child");
        let mut pv = vec![children[best].mv];
        pv.extend(
            tree.principal_variation(best_id)
                .into_iter()
                .filter_map(|n| tree.node(n).mv),
        );
        let build = tree.stats();
        let below_leaves = match (counted_before, self.node_counter) {
            (Some(before), Some(count)) => {
                (count(&self.evaluator) - before).saturating_sub(build.evaluated)
            }
            _ => 0,
        };
        Some(Analysis {
            minimax: root.value,
            children,
            best,
            depth,
            stats: SearchStats {
                generated: build.generated + below_leaves,
                expanded: build.expanded,
                evaluated: build.evaluated,
                ..SearchStats::default()
            },
            pv,
        })
    }
}

/// The index of the largest CAEV; ties to the larger minimax value, then to the earlier move.
fn best_child<M>(children: &[ChildValue<M>]) -> usize {
    let mut best = 0;
    for (i, c) in children.iter().enumerate().skip(1) {
        let b = &children[best];
        if c.caev > b.caev || (c.caev == b.caev && c.minimax > b.minimax) {
            best = i;
        }
    }
    best
}

impl<G, E> Searcher<G> for CaevPlayer<E>
where
    G: ZeroSumGame,
    E: Evaluator<G>,
{
    /// Plays the root child with the largest CAEV. The reported value is that CAEV rounded to the
    /// nearest integer (root side's view), with [`Bound::Estimate`]: a weighted average of the
    /// values the layer's leaves could conspire to reach, neither the minimax value nor a bound
    /// on it; [`CaevPlayer::analyse`] also gives the minimax value.
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.settle_reset::<G>();
        if game.outcome(state).is_some() {
            let mut result = SearchResult::leaf(self.evaluator.value(game, state));
            result.elapsed = start.elapsed();
            return result;
        }
        match self.analyse(game, state, limits) {
            Some(a) => {
                let best = a.children[a.best];
                SearchResult {
                    best_move: Some(best.mv),
                    value: best.caev.round() as Score,
                    bound: Bound::Estimate,
                    pv: a.pv,
                    depth: a.depth,
                    stats: a.stats,
                    elapsed: start.elapsed(),
                }
            }
            None => SearchResult {
                best_move: None,
                value: 0,
                bound: Bound::Exact,
                pv: Vec::new(),
                depth: 0,
                stats: SearchStats::default(),
                elapsed: start.elapsed(),
            },
        }
    }
}

/// Every search builds its tree anew: nothing is kept for the next one but what the evaluator may
/// keep (a [`FixedDepth`] searcher's table), which is reset ([`Evaluator::reset`]) at the start of
/// the next search.
impl<E> Reset for CaevPlayer<E> {
    fn reset(&mut self) {
        self.reset_evaluator = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbers::{ConspiracyNumbers, Grid};
    use crate::testing::{brute_force_cn, negamax, Reading, StoredValue, TreeGame};
    use crate::{integrate, Cn, CN_INFINITE};
    use quickcheck::{QuickCheck, TestResult};

    /// Negamax to a fixed depth as an evaluator: stands in for `FixedDepth<AlphaBeta>`.
    struct Negamax(u32);
    impl Evaluator<TreeGame> for Negamax {
        fn evaluate(&mut self, game: &TreeGame, s: &u32) -> Score {
            negamax(game, *s, self.0)
        }
        fn terminal(&mut self, _: &TreeGame, _: &u32, outcome: game_trait::Outcome) -> Score {
            outcome.margin()
        }
    }

    /// Negamax whose every leaf takes real time, as a leaf searched by a deep α/β would; the
    /// `stop_at`-th evaluation raises `stop`.
    struct SlowNegamax {
        evaluations: std::sync::Arc<std::sync::atomic::AtomicU64>,
        stop_at: u64,
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    }
    impl Evaluator<TreeGame> for SlowNegamax {
        fn evaluate(&mut self, game: &TreeGame, s: &u32) -> Score {
            use std::sync::atomic::Ordering::Relaxed;
            if self.evaluations.fetch_add(1, Relaxed) + 1 == self.stop_at {
                self.stop.store(true, Relaxed);
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
            negamax(game, *s, 1)
        }
        fn terminal(&mut self, _: &TreeGame, _: &u32, outcome: game_trait::Outcome) -> Score {
            outcome.margin()
        }
    }

    /// Under a stop flag the layer's build looks at the limits as often as its leaves' cost asks:
    /// a few slow leaves after the flag, not a thousand nodes.
    #[test]
    fn slow_leaves_stop_the_layer_within_a_few_of_them() {
        let game = TreeGame::random(5, 8, 6, 50);
        for stop_at in [30, 200] {
            let evaluations = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let leaves = SlowNegamax {
                evaluations: evaluations.clone(),
                stop_at,
                stop: stop.clone(),
            };
            let mut player = CaevPlayer::new(leaves, 6, 10).unwrap();
            let analysis = player.analyse(&game, &0, &Limits::none().with_stop(stop));
            assert!(analysis.is_some());
            let n = evaluations.load(std::sync::atomic::Ordering::Relaxed);
            assert!(
                (stop_at..=stop_at + 16).contains(&n),
                "stopped at leaf {stop_at}: {n} leaves valued"
            );
        }
    }

    #[test]
    fn the_layer_value_is_negamax_of_depth_x_plus_y() {
        fn prop(seed: u64) -> bool {
            let game = TreeGame::random(seed, 4, 3, 50);
            let (x, y) = (1 + (seed % 3) as u32, (seed / 3 % 2) as u32);
            let mut player = CaevPlayer::new(Negamax(y), x, 10).unwrap();
            match player.analyse(&game, &0, &Limits::none()) {
                Some(a) => a.minimax == negamax(&game, 0, x + y) && a.depth == x,
                None => game.nodes[0].children.is_empty(),
            }
        }
        QuickCheck::new()
            .tests(200)
            .quickcheck(prop as fn(u64) -> bool);
    }

    /// The played move is the child with the largest CAEV, each CAEV recomputed from brute-force
    /// conspiracy numbers of the child's subtree.
    #[test]
    fn plays_the_child_with_the_largest_brute_force_caev() {
        fn prop(seed: u64) -> TestResult {
            let game = TreeGame::random(seed, 3, 2, 9);
            if game.nodes[0].children.is_empty() {
                return TestResult::discard();
            }
            let caev = CaevConfig::new(12, 3).unwrap();
            let mut player = CaevPlayer::new(StoredValue, 3, 12).unwrap().with_caev(caev);
            let result = player.search(&game, &0, &Limits::none());
            let tree = MinimaxTree::build(&game, &0, 3, &mut StoredValue);
            let expected: Vec<f64> = tree
                .root()
                .children()
                .map(|c| {
                    let grid = caev.grid(tree.node(c).value);
                    let numbers: Vec<Cn> = (0..grid.len())
                        .map(|i| {
                            brute_force_cn(&tree, c, grid.value(i) as Score, Reading::AtLeast)
                                .unwrap_or(CN_INFINITE)
                        })
                        .collect();
                    integrate(&grid, &numbers)
                })
                .collect();
            let best = expected.iter().cloned().fold(f64::MIN, f64::max);
            let played = tree
                .root()
                .children()
                .position(|c| tree.node(c).mv == result.best_move)
                .unwrap();
            TestResult::from_bool(
                (expected[played] - best).abs() < 1e-9
                    && result.value == expected[played].round() as Score
                    && result.bound == Bound::Estimate,
            )
        }
        QuickCheck::new()
            .tests(200)
            .quickcheck(prop as fn(u64) -> TestResult);
    }

    /// A position where CAEV and minimax disagree. Child X = MIN(0, 0) is worth 0, but one leaf can
    /// lower it and both must rise to raise it; child Y = MIN(−1, 50, 50, 50) is worth −1, and one
    /// leaf (the −1) raises it as far as 50. Minimax plays X; CAEV, whose window reaches 50, plays Y.
    #[test]
    fn caev_can_overrule_minimax() {
        let game = TreeGame::from_shape(&[&[0, 0], &[-1, 50, 50, 50]]);
        let mut player = CaevPlayer::new(StoredValue, 2, 60)
            .unwrap()
            .with_caev(CaevConfig::new(60, 1).unwrap());
        let a = player.analyse(&game, &0, &Limits::none()).unwrap();
        assert_eq!(a.minimax, 0);
        assert_eq!(a.children[0].minimax, 0);
        assert_eq!(a.children[1].minimax, -1);
        assert!(a.children[1].caev > a.children[0].caev, "{:?}", a.children);
        assert_eq!(a.best, 1);
        // The same numbers by hand for X at grid step 1: CN(v) = 1 for v in [−60, −1] (one leaf
        // falls), 2 for v in [1, 60] (both rise): the window leans down.
        let tree = MinimaxTree::build(&game, &0, 2, &mut StoredValue);
        let x = tree.root().children().next().unwrap();
        let mut numbers = ConspiracyNumbers::new();
        let grid = Grid::around(0, 60, 1).unwrap();
        let n = numbers.compute(&tree, x, &grid);
        assert!(n[..60].iter().all(|&c| c == 1) && n[60] == 0 && n[61..].iter().all(|&c| c == 2));
    }

    #[test]
    fn zero_layer_depth_is_rejected_and_finished_games_have_no_move() {
        assert!(CaevPlayer::new(StoredValue, 0, 1).is_err());
        assert!(CaevPlayer::new(StoredValue, 1, 0).is_err());
        let game = TreeGame::from_shape(&[&[1]]);
        let over = 3; // the terminal node below the open leaf
        assert!(game.outcome(&over).is_some());
        let mut player = CaevPlayer::new(StoredValue, 2, 10).unwrap();
        let r = player.search(&game, &over, &Limits::none());
        assert_eq!(r.best_move, None);
        assert_eq!(r.value, game.stored(over));
    }

    #[test]
    fn a_node_budget_falls_back_to_a_shallower_layer() {
        let game = TreeGame::random(7, 6, 3, 20);
        let mut player = CaevPlayer::new(StoredValue, 6, 10).unwrap();
        let full = player.analyse(&game, &0, &Limits::none()).unwrap();
        assert_eq!(full.depth, 6);
        let budget = Limits::none().with_nodes(full.stats.generated / 2);
        let partial = player.analyse(&game, &0, &budget).unwrap();
        assert!(partial.depth < 6 && partial.depth >= 1);
        // A budget below the root's move count, a passed deadline: still a 1-ply choice.
        for tiny in [
            Limits::none().with_nodes(1),
            Limits::none().with_time(std::time::Duration::ZERO),
        ] {
            let r = player.search(&game, &0, &tiny);
            assert!(r.best_move.is_some());
            assert_eq!(r.depth, 1);
        }
        let capped = player.analyse(&game, &0, &Limits::depth(2)).unwrap();
        assert_eq!(capped.depth, 2);
        assert_eq!(capped.minimax, negamax(&game, 0, 2));
    }

    #[test]
    fn layered_players_count_the_evaluators_nodes() {
        /// A searcher that reports 10 generated nodes per search.
        struct Ten;
        impl Searcher<TreeGame> for Ten {
            fn search(&mut self, g: &TreeGame, s: &u32, _: &Limits) -> SearchResult<u32> {
                let mut r = SearchResult::leaf(StoredValue.evaluate(g, s));
                r.stats.generated = 10;
                r
            }
        }
        impl Reset for Ten {}
        let game = TreeGame::random(3, 3, 3, 20);
        let mut player = CaevPlayer::layered(Ten, 2, 1, 10).unwrap();
        let a = player.analyse(&game, &0, &Limits::none()).unwrap();
        let tree = MinimaxTree::build(&game, &0, 2, &mut StoredValue);
        let leaves = tree.stats().evaluated;
        assert_eq!(a.stats.generated, tree.len() as u64 + 9 * leaves);
    }
}

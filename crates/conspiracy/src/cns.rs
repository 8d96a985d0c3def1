//! [`Cns`]: McAllester's conspiracy number search (*Conspiracy Numbers for Min-Max Search*,
//! Artificial Intelligence 35, 1988), as section 2.2 of Vu et al. (ICAART 2016) summarises it.

use std::time::Instant;

use game_trait::{
    Bound, Evaluator, Limits, MoveList, PlayerId, Reset, Score, SearchResult, SearchStats,
    Searcher, ZeroSumGame, EVAL_LIMIT, WIN,
};

use crate::error::ConspiracyError;
use crate::tree::{child_state, Side};

/// W, T and the memory budget of [`Cns`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CnsConfig {
    w: i64,
    t: u32,
    max_nodes: usize,
    bounds: (Score, Score),
}

impl Default for CnsConfig {
    /// The paper's worked example (Figure 1): W = 1 (stop at a single likely value), T = 1 (a value
    /// needing more than one conspirator is unlikely); at most 2²² nodes in memory; values bounded by
    /// the band of finished games, `±(WIN + EVAL_LIMIT)`.
    fn default() -> CnsConfig {
        CnsConfig {
            w: 1,
            t: 1,
            max_nodes: 1 << 22,
            bounds: (-(WIN + EVAL_LIMIT), WIN + EVAL_LIMIT),
        }
    }
}

impl CnsConfig {
    /// The largest threshold T accepted. Every node stores `2 (T + 1)` values (8 (T + 1) bytes) and
    /// each update costs `O(T²)` per child: with a large T, lower the node budget
    /// ([`with_max_nodes`](Self::with_max_nodes)) accordingly.
    pub const MAX_T: u32 = 1024;

    /// Stop when the likely root values span less than `w` (> 0), a value being likely while at most
    /// `t` (≤ [`MAX_T`](Self::MAX_T)) leaves must conspire to reach it.
    pub fn new(w: i64, t: u32) -> Result<CnsConfig, ConspiracyError> {
        if w <= 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "w",
                value: w,
            });
        }
        if t > Self::MAX_T {
            return Err(ConspiracyError::TooLarge {
                parameter: "t",
                value: i64::from(t),
                max: i64::from(Self::MAX_T),
            });
        }
        Ok(CnsConfig {
            w,
            t,
            ..CnsConfig::default()
        })
    }

    /// At most `max_nodes` nodes in memory (the tree stops growing there).
    pub fn with_max_nodes(mut self, max_nodes: usize) -> CnsConfig {
        self.max_nodes = max_nodes.max(1);
        self
    }

    /// The values a leaf could possibly take, `[low, high]`: an open leaf's conspirators can move it
    /// anywhere in between, no further. The default is the whole score range.
    pub fn with_bounds(mut self, low: Score, high: Score) -> Result<CnsConfig, ConspiracyError> {
        if low > high {
            return Err(ConspiracyError::EmptyInterval {
                low: low.into(),
                high: high.into(),
            });
        }
        self.bounds = (low, high);
        Ok(self)
    }

    /// W: the width below which the range of likely values is narrow enough.
    pub fn w(&self) -> i64 {
        self.w
    }

    /// T: the conspiracy threshold.
    pub fn t(&self) -> u32 {
        self.t
    }

    /// The node budget in memory.
    pub fn max_nodes(&self) -> usize {
        self.max_nodes
    }
}

/// Why a conspiracy number search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The likely values span less than W: the search's own goal.
    Converged,
    /// The caller's node budget, deadline or stop flag.
    Limit,
    /// The tree reached [`CnsConfig::max_nodes`].
    Memory,
}

/// The state of the root when a conspiracy number search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CnsOutcome {
    /// Lowest likely root value: the least `v` with at most T conspirators for "fall to at most v".
    pub low: Score,
    /// Highest likely root value: the largest `v` with at most T conspirators for "rise to at least v".
    pub high: Score,
    /// The root's minimax value in the grown tree.
    pub value: Score,
    /// Leaves expanded.
    pub expansions: u64,
    /// Why the search stopped.
    pub reason: StopReason,
}

/// McAllester's Conspiracy Number Search: a best-first search that grows the tree until the root's
/// value is stable.
///
/// # The algorithm (section 2.2)
/// Every node keeps, for `k = 0..=T`, the highest value `up[k]` it can be raised to and the lowest
/// value `down[k]` it can be lowered to when at most `k` of its leaves change (`up[0] = down[0]` is its
/// minimax value). An open leaf can become anything within the value bounds; a finished game nothing
/// else. A MAX node rises with its best child (`up[k] = max over children`) but falls only when all
/// children fall (`down` is the (min, max)-convolution of the children's, the conspirators splitting
/// `k` between them); MIN nodes the reverse. These are equations (2)–(5) turned around: the
/// conspiracy number of `v` is the least `k` with `up[k] ≥ v` (or `down[k] ≤ v`).
///
/// The **range of likely root values** is `[down[T], up[T]]` at the root: the values at most T
/// conspirators can reach. Until it is narrower than W (so every excluded value needs more than T
/// conspirators), the search takes the **least likely end** — the one with the larger conspiracy
/// number; on a tie the one farther from the root value, then the upper — and expands one of its
/// conspirators: from the root it descends, for a value to be reached by rising, to the child with
/// the fewest conspirators at a node that needs only one child to rise (MAX), and to the child with the
/// fewest (non-zero) conspirators at a node that needs them all (MIN); symmetrically for falling. The
/// leaf reached is expanded (its children generated and statically evaluated) and the numbers of its
/// ancestors recomputed.
///
/// # Parameters
/// [`CnsConfig`]: W (default 1), T (default 1), the memory budget, the value bounds. [`Limits`]: a node
/// budget (nodes generated), deadline and stop flag end the search early; `limits.depth`, if set,
/// freezes leaves at that depth (at least 1) — they are never expanded and count as unchangeable, so
/// with W = 1 and T at least the number of leaves the search returns the minimax value of that depth. The root is
/// always expanded once, whatever the budget (and even when T = 0 makes the range a single value
/// from the start), so that a move is always chosen in a game that is not over.
///
/// # Result
/// The root's minimax value in the grown tree (root side's view), its best child's move, and the
/// principal variation; [`Cns::outcome`] tells the final range and why the search stopped.
///
/// # Complexity
/// Each expansion costs one move generation, one evaluation per child, and `O(depth · b · T²)` to
/// update the ancestors (the convolutions); memory is one node (with its position) per generated node.
#[derive(Clone, Debug)]
pub struct Cns<E> {
    evaluator: E,
    config: CnsConfig,
    outcome: Option<CnsOutcome>,
    /// Set by [`Reset::reset`]: the evaluator is reset at the start of the next search.
    reset_evaluator: bool,
}

impl<E> Cns<E> {
    /// CNS with `evaluator` valuing every generated node.
    pub fn new(evaluator: E, config: CnsConfig) -> Cns<E> {
        Cns {
            evaluator,
            config,
            outcome: None,
            reset_evaluator: false,
        }
    }

    /// The configuration.
    pub fn config(&self) -> CnsConfig {
        self.config
    }

    /// How the last search ended (`None` before the first, or when its root was a finished game).
    pub fn outcome(&self) -> Option<CnsOutcome> {
        self.outcome
    }

    /// The evaluator.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.evaluator
    }
}

/// One node of the growing tree.
struct CnsNode<S, M> {
    state: Option<S>,
    mv: Option<M>,
    parent: u32,
    first_child: u32,
    child_count: u32,
    side: Side,
    /// Open leaves can still be expanded; terminal and frozen leaves cannot.
    open: bool,
    depth: u32,
}

/// Which way the root must move for the value being disproved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Rise,
    Fall,
}

/// The grown tree: nodes plus, per node, `up[0..=T]` and `down[0..=T]` in flat arrays.
struct Tree<S, M> {
    nodes: Vec<CnsNode<S, M>>,
    up: Vec<Score>,
    down: Vec<Score>,
    width: usize,
    bounds: (Score, Score),
    root_player: PlayerId,
    scratch: Vec<Score>,
}

impl<S: Clone, M> Tree<S, M> {
    /// A tree holding only the root, valued by `evaluator`.
    fn start<G, E>(game: &G, evaluator: &mut E, state: &S, config: &CnsConfig) -> Self
    where
        G: ZeroSumGame<State = S, Move = M>,
        E: Evaluator<G>,
    {
        let mut tree = Tree {
            nodes: Vec::new(),
            up: Vec::new(),
            down: Vec::new(),
            width: config.t as usize + 1,
            bounds: config.bounds,
            root_player: game.side_to_move(state),
            scratch: Vec::new(),
        };
        let value = evaluator.value(game, state);
        tree.push_leaf(
            CnsNode {
                state: Some(state.clone()),
                mv: None,
                parent: 0,
                first_child: 0,
                child_count: 0,
                side: Side::Max,
                open: true,
                depth: 0,
            },
            value,
        );
        tree
    }
}

impl<S, M> Tree<S, M> {
    fn up(&self, n: usize) -> &[Score] {
        &self.up[n * self.width..(n + 1) * self.width]
    }

    fn down(&self, n: usize) -> &[Score] {
        &self.down[n * self.width..(n + 1) * self.width]
    }

    fn value(&self, n: usize) -> Score {
        self.up[n * self.width]
    }

    /// Conspiracy number of "rise to at least v" at `n`; `width` means more than T.
    fn cn_up(&self, n: usize, v: Score) -> usize {
        self.up(n)
            .iter()
            .position(|&u| u >= v)
            .unwrap_or(self.width)
    }

    /// Conspiracy number of "fall to at most v" at `n`; `width` means more than T.
    fn cn_down(&self, n: usize, v: Score) -> usize {
        self.down(n)
            .iter()
            .position(|&d| d <= v)
            .unwrap_or(self.width)
    }

    fn cn(&self, n: usize, dir: Direction, v: Score) -> usize {
        match dir {
            Direction::Rise => self.cn_up(n, v),
            Direction::Fall => self.cn_down(n, v),
        }
    }

    /// Adds a leaf of `value`; an open leaf's conspirators can take it to either bound.
    fn push_leaf(&mut self, node: CnsNode<S, M>, value: Score) {
        let (low, high) = self.bounds;
        let open = node.open;
        self.nodes.push(node);
        self.up.push(value);
        self.down.push(value);
        for _ in 1..self.width {
            self.up.push(if open { high.max(value) } else { value });
            self.down.push(if open { low.min(value) } else { value });
        }
    }

    /// Recomputes `up` and `down` of the interior node `n` from its children.
    fn recompute(&mut self, n: usize) {
        let (first, count, side) = {
            let node = &self.nodes[n];
            (
                node.first_child as usize,
                node.child_count as usize,
                node.side,
            )
        };
        let w = self.width;
        // MAX: one child suffices to rise (pointwise max), all must fall (convolution); MIN reverse.
        let (single, all) = match side {
            Side::Max => (Direction::Rise, Direction::Fall),
            Side::Min => (Direction::Fall, Direction::Rise),
        };
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        buf.resize(3 * w, 0);
        let (single_acc, rest) = buf.split_at_mut(w);
        let (all_acc, next) = rest.split_at_mut(w);
        single_acc.copy_from_slice(self.side_array(first, single));
        all_acc.copy_from_slice(self.side_array(first, all));
        for c in first + 1..first + count {
            let child = self.side_array(c, single);
            for (a, &x) in single_acc.iter_mut().zip(child) {
                *a = match single {
                    Direction::Rise => (*a).max(x),
                    Direction::Fall => (*a).min(x),
                };
            }
            convolve(all, all_acc, self.side_array(c, all), next);
            all_acc.copy_from_slice(next);
        }
        let (up, down) = match side {
            Side::Max => (&*single_acc, &*all_acc),
            Side::Min => (&*all_acc, &*single_acc),
        };
        self.up[n * w..(n + 1) * w].copy_from_slice(up);
        self.down[n * w..(n + 1) * w].copy_from_slice(down);
        self.scratch = buf;
    }

    /// Makes the open leaf `n` unchangeable (a position without moves that did not say it was over).
    fn close(&mut self, n: usize) {
        let w = self.width;
        let value = self.value(n);
        self.nodes[n].open = false;
        self.up[n * w..(n + 1) * w].fill(value);
        self.down[n * w..(n + 1) * w].fill(value);
    }

    fn side_array(&self, n: usize, dir: Direction) -> &[Score] {
        match dir {
            Direction::Rise => self.up(n),
            Direction::Fall => self.down(n),
        }
    }

    /// From the root, the open leaf to expand for moving the root's value to `v` in direction `dir`.
    fn conspirator(&self, dir: Direction, v: Score) -> usize {
        let mut n = 0;
        loop {
            let node = &self.nodes[n];
            if node.child_count == 0 {
                return n;
            }
            let first = node.first_child as usize;
            // Children already at the target need no conspirator; among the rest, the fewest.
            n = (first..first + node.child_count as usize)
                .map(|c| (self.cn(c, dir, v), c))
                .filter(|&(cn, _)| cn > 0)
                .min()
                .map(|(_, c)| c)
                .expect("a node needing conspirators has a child needing them");
        }
    }
}

impl<G, E> Searcher<G> for Cns<E>
where
    G: ZeroSumGame,
    E: Evaluator<G>,
{
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.outcome = None;
        if std::mem::take(&mut self.reset_evaluator) {
            self.evaluator.reset();
        }
        if game.outcome(state).is_some() {
            let mut result = SearchResult::leaf(self.evaluator.value(game, state));
            result.elapsed = start.elapsed();
            return result;
        }
        let config = self.config;
        // A depth limit of 0 would freeze the root itself; the root is always expanded (a move
        // must be chosen), so it counts as 1.
        let limits = &Limits {
            depth: limits.depth.map(|d| d.max(1)),
            ..limits.clone()
        };
        let mut tree = Tree::start(game, &mut self.evaluator, state, &config);
        let mut stats = SearchStats {
            generated: 1,
            evaluated: 1,
            ..SearchStats::default()
        };
        let mut moves = MoveList::new();
        // The root is always expanded once, whatever the limits: a move must be chosen.
        let no_limits = Limits {
            depth: limits.depth,
            ..Limits::none()
        };
        let forced = CnsConfig {
            max_nodes: usize::MAX,
            ..config
        };
        if tree.nodes[0].open {
            let _ = grow(
                game,
                &mut self.evaluator,
                &mut tree,
                0,
                &mut moves,
                &forced,
                &no_limits,
                &mut stats,
            );
        }
        let reason = loop {
            let t = config.t as usize;
            let (low, high) = (tree.down(0)[t], tree.up(0)[t]);
            if i64::from(high) - i64::from(low) < config.w {
                break StopReason::Converged;
            }
            if limits.exhausted(stats.generated) {
                break StopReason::Limit;
            }
            let m = tree.value(0);
            let (cn_high, cn_low) = (tree.cn_up(0, high), tree.cn_down(0, low));
            let rise = cn_high > cn_low
                || (cn_high == cn_low
                    && i64::from(high) - i64::from(m) >= i64::from(m) - i64::from(low));
            let (dir, target) = if rise {
                (Direction::Rise, high)
            } else {
                (Direction::Fall, low)
            };
            let leaf = tree.conspirator(dir, target);
            if let Err(reason) = grow(
                game,
                &mut self.evaluator,
                &mut tree,
                leaf,
                &mut moves,
                &config,
                limits,
                &mut stats,
            ) {
                break reason;
            }
        };
        let t = config.t as usize;
        let outcome = CnsOutcome {
            low: tree.down(0)[t],
            high: tree.up(0)[t],
            value: tree.value(0),
            expansions: stats.expanded,
            reason,
        };
        self.outcome = Some(outcome);
        let pv = principal_variation(&tree);
        SearchResult {
            best_move: pv.first().copied(),
            value: outcome.value,
            bound: Bound::Exact,
            depth: tree.nodes.iter().map(|n| n.depth).max().unwrap_or(0),
            pv,
            stats,
            elapsed: start.elapsed(),
        }
    }
}

/// Every search grows its tree anew: nothing is kept for the next one but what the evaluator may
/// keep, which is reset ([`Evaluator::reset`]) at the start of the next search.
impl<E> Reset for Cns<E> {
    fn reset(&mut self) {
        self.reset_evaluator = true;
    }
}

/// Expands the open leaf `leaf` (the conspirator chosen) and updates its ancestors; refuses when the
/// tree would outgrow [`CnsConfig::max_nodes`].
#[allow(clippy::too_many_arguments)]
fn grow<G, E>(
    game: &G,
    evaluator: &mut E,
    tree: &mut Tree<G::State, G::Move>,
    leaf: usize,
    moves: &mut MoveList<G::Move>,
    config: &CnsConfig,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Result<(), StopReason>
where
    G: ZeroSumGame,
    E: Evaluator<G>,
{
    debug_assert!(tree.nodes[leaf].open, "conspirators are open leaves");
    let Some(mut state) = tree.nodes[leaf].state.take() else {
        unreachable!("open leaves keep their position");
    };
    moves.clear();
    game.moves(&state, moves);
    if moves.is_empty() {
        // A game in progress without a move breaks `ZeroSumGame::moves`: it cannot change.
        tree.close(leaf);
        update_ancestors(tree, leaf);
        return Ok(());
    }
    if tree.nodes.len() + moves.len() > config.max_nodes {
        tree.nodes[leaf].state = Some(state);
        return Err(StopReason::Memory);
    }
    expand(game, evaluator, tree, leaf, &mut state, moves, limits.depth);
    stats.generated += moves.len() as u64;
    stats.evaluated += moves.len() as u64;
    stats.expanded += 1;
    update_ancestors(tree, leaf);
    Ok(())
}

/// Splitting `k` conspirators between the node's earlier children (`acc`) and one more (`child`),
/// when **all** of them must move: to fall, the node is at most the larger of the two values reached
/// and the conspirators are split to make it smallest; to rise, the smaller and made largest.
fn convolve(dir: Direction, acc: &[Score], child: &[Score], out: &mut [Score]) {
    for (k, o) in out.iter_mut().enumerate() {
        let pairs = (0..=k).map(|j| (acc[j], child[k - j]));
        *o = match dir {
            Direction::Fall => pairs.map(|(a, c)| a.max(c)).min(),
            Direction::Rise => pairs.map(|(a, c)| a.min(c)).max(),
        }
        .expect("k + 1 splits");
    }
}

/// Generates the children of `leaf`, values them with the evaluator and appends them to the tree.
fn expand<G, E>(
    game: &G,
    evaluator: &mut E,
    tree: &mut Tree<G::State, G::Move>,
    leaf: usize,
    state: &mut G::State,
    moves: &MoveList<G::Move>,
    depth_limit: Option<u32>,
) where
    G: ZeroSumGame,
    E: Evaluator<G>,
{
    let first = tree.nodes.len() as u32;
    let depth = tree.nodes[leaf].depth + 1;
    for &mv in moves {
        let child = child_state(game, state, mv);
        let side_to_move = game.side_to_move(&child);
        let value = evaluator.value(game, &child);
        let value = if side_to_move == tree.root_player {
            value
        } else {
            -value
        };
        let over = game.outcome(&child).is_some();
        let frozen = depth_limit.is_some_and(|d| depth >= d);
        tree.push_leaf(
            CnsNode {
                state: (!over && !frozen).then_some(child),
                mv: Some(mv),
                parent: leaf as u32,
                first_child: 0,
                child_count: 0,
                side: if side_to_move == tree.root_player {
                    Side::Max
                } else {
                    Side::Min
                },
                open: !over && !frozen,
                depth,
            },
            value,
        );
    }
    let node = &mut tree.nodes[leaf];
    node.first_child = first;
    node.child_count = moves.len() as u32;
    node.open = false;
}

/// Recomputes the numbers of `n` (if it has children) and of every ancestor, up to the root.
fn update_ancestors<S, M>(tree: &mut Tree<S, M>, mut n: usize) {
    loop {
        if tree.nodes[n].child_count > 0 {
            tree.recompute(n);
        }
        if n == 0 {
            return;
        }
        n = tree.nodes[n].parent as usize;
    }
}

/// From the root, at each node the child that backs its value up most firmly: among the children
/// with the node's value, the one needing the most conspirators to drop below it (MAX) or rise above
/// it (MIN); the earliest on a tie. In a partly grown tree a child can share its parent's value
/// without being proven (it could still fall without moving the parent), so "the first child with
/// the value" could be a move that loses; with T above every finite conspiracy number, the chosen
/// child is one whose value cannot change.
fn principal_variation<S, M: Copy>(tree: &Tree<S, M>) -> Vec<M> {
    let mut pv = Vec::new();
    let mut n = 0;
    loop {
        let node = &tree.nodes[n];
        let (first, value) = (node.first_child as usize, tree.value(n));
        let firmness = |c: usize| match node.side {
            Side::Max => tree.cn_down(c, value.saturating_sub(1)),
            Side::Min => tree.cn_up(c, value.saturating_add(1)),
        };
        let mut best: Option<(usize, usize)> = None;
        for c in first..first + node.child_count as usize {
            if tree.value(c) == value && best.map_or(true, |(_, f)| firmness(c) > f) {
                best = Some((c, firmness(c)));
            }
        }
        let Some((best, _)) = best else {
            return pv;
        };
        pv.extend(tree.nodes[best].mv);
        n = best;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbers::{ConspiracyNumbers, Grid, CN_INFINITE};
    use crate::testing::{negamax, StoredValue, TreeGame};
    use crate::tree::{MinimaxTree, NodeId};
    use quickcheck::QuickCheck;

    fn exact_config() -> CnsConfig {
        // T above any number of leaves of the test trees: "more than T" then means "impossible".
        CnsConfig::new(1, 200).unwrap()
    }

    #[test]
    fn with_enough_budget_it_finds_the_minimax_value() {
        fn prop(seed: u64) -> bool {
            let game = TreeGame::random(seed, 4, 3, 50);
            let mut cns = Cns::new(StoredValue, exact_config());
            let r = cns.search(&game, &0, &Limits::none());
            let truth = negamax(&game, 0, 100);
            let outcome = cns.outcome();
            let child_ok = match r.best_move {
                Some(mv) => -negamax(&game, mv, 100) == truth,
                None => game.nodes[0].children.is_empty(),
            };
            r.value == truth
                && child_ok
                && outcome.map_or(true, |o| {
                    o.reason == StopReason::Converged && o.low == o.high
                })
        }
        QuickCheck::new()
            .tests(150)
            .quickcheck(prop as fn(u64) -> bool);
    }

    #[test]
    fn a_depth_limit_freezes_the_frontier() {
        fn prop(seed: u64, depth: u8) -> bool {
            let depth = u32::from(depth % 4);
            let game = TreeGame::random(seed, 4, 3, 50);
            let mut cns = Cns::new(StoredValue, exact_config());
            let r = cns.search(&game, &0, &Limits::depth(depth));
            // Depth 0 counts as 1: the root is always expanded.
            r.value == negamax(&game, 0, depth.max(1))
        }
        QuickCheck::new()
            .tests(150)
            .quickcheck(prop as fn(u64, u8) -> bool);
    }

    #[test]
    fn the_range_holds_the_value_and_is_narrow_when_converged() {
        fn prop(seed: u64, w: u8, t: u8) -> bool {
            let game = TreeGame::random(seed, 5, 3, 50);
            let config = CnsConfig::new(i64::from(w % 20) + 1, u32::from(t % 4)).unwrap();
            let mut cns = Cns::new(StoredValue, config);
            let r = cns.search(&game, &0, &Limits::none().with_nodes(2_000));
            match cns.outcome() {
                None => game.nodes[0].children.is_empty(),
                Some(o) => {
                    o.low <= r.value
                        && r.value <= o.high
                        && o.value == r.value
                        && match o.reason {
                            StopReason::Converged => {
                                i64::from(o.high) - i64::from(o.low) < config.w()
                            }
                            StopReason::Limit => r.stats.generated >= 2_000,
                            StopReason::Memory => false,
                        }
                }
            }
        }
        QuickCheck::new()
            .tests(150)
            .quickcheck(prop as fn(u64, u8, u8) -> bool);
    }

    #[test]
    fn memory_and_node_limits_stop_the_search() {
        let game = TreeGame::random(11, 8, 3, 50);
        let mut cns = Cns::new(StoredValue, exact_config().with_max_nodes(50));
        cns.search(&game, &0, &Limits::none());
        assert_eq!(cns.outcome().unwrap().reason, StopReason::Memory);
        let mut cns = Cns::new(StoredValue, exact_config());
        let r = cns.search(&game, &0, &Limits::none().with_nodes(100));
        assert_eq!(cns.outcome().unwrap().reason, StopReason::Limit);
        assert!(r.stats.generated >= 100 && r.stats.generated < 100 + 3);
        assert!(r.best_move.is_some());
        assert!(CnsConfig::new(0, 1).is_err());
    }

    #[test]
    fn the_root_is_always_expanded_so_a_move_is_always_chosen() {
        let game = TreeGame::random(5, 4, 3, 50);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        for (t, limits) in [
            (0, Limits::none()),
            (3, Limits::none().with_nodes(1)),
            (3, Limits::none().with_stop(stop)),
            (3, Limits::depth(0)),
        ] {
            let mut cns = Cns::new(StoredValue, CnsConfig::new(1, t).unwrap());
            let r = cns.search(&game, &0, &limits);
            assert!(r.best_move.is_some(), "T = {t}, {limits:?}");
            assert!(game.nodes[0].children.contains(&r.best_move.unwrap()));
        }
    }

    #[test]
    fn thresholds_beyond_the_maximum_are_refused() {
        assert!(CnsConfig::new(1, CnsConfig::MAX_T).is_ok());
        let err = CnsConfig::new(1, CnsConfig::MAX_T + 1).unwrap_err();
        assert!(err.to_string().contains("t = 1025 is too large"), "{err}");
    }

    /// The `up`/`down` arrays, expanded breadth-first to a depth, give the same conspiracy numbers
    /// (capped at T + 1) as the one-pass vectors of [`ConspiracyNumbers`] on the same tree.
    #[test]
    fn threshold_arrays_agree_with_the_one_pass_numbers() {
        fn prop(seed: u64, t: u8) -> bool {
            let depth = 1 + (seed % 4) as u32;
            let game = TreeGame::random(seed, depth, 3, 6);
            let config = CnsConfig::new(1, u32::from(t % 6)).unwrap();
            let mut tree = Tree::start(&game, &mut StoredValue, &0, &config);
            let mut moves = MoveList::new();
            let mut n = 0;
            while n < tree.nodes.len() {
                if tree.nodes[n].open && tree.nodes[n].depth < depth {
                    let mut state = tree.nodes[n].state.take().unwrap();
                    moves.clear();
                    game.moves(&state, &mut moves);
                    expand(
                        &game,
                        &mut StoredValue,
                        &mut tree,
                        n,
                        &mut state,
                        &moves,
                        None,
                    );
                    update_ancestors(&mut tree, n);
                }
                n += 1;
            }
            let reference = MinimaxTree::build(&game, &0, depth, &mut StoredValue);
            let m = reference.root().value;
            if m != tree.value(0) {
                return false;
            }
            let grid = Grid::new(-8, 1, 17).unwrap();
            let mut cn = ConspiracyNumbers::new();
            let numbers = cn.compute(&reference, NodeId::ROOT, &grid);
            (0..grid.len()).all(|i| {
                let v = grid.value(i) as Score;
                let capped = if numbers[i] == CN_INFINITE {
                    tree.width
                } else {
                    (numbers[i] as usize).min(tree.width)
                };
                let ours = if v >= m {
                    tree.cn_up(0, v)
                } else {
                    tree.cn_down(0, v)
                };
                ours == capped
            })
        }
        QuickCheck::new()
            .tests(200)
            .quickcheck(prop as fn(u64, u8) -> bool);
    }
}

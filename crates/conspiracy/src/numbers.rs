//! Conspiracy numbers of every value of a [`Grid`], for one subtree, in one bottom-up pass.

use game_trait::Score;

use crate::error::ConspiracyError;
use crate::tree::{MinimaxTree, NodeId, Side};

/// A conspiracy number. [`CN_INFINITE`] means "impossible": only terminal leaves would have to change.
pub type Cn = u32;

/// The conspiracy number of a value no set of leaves can reach (sums saturate at it).
pub const CN_INFINITE: Cn = Cn::MAX;

/// The largest half-width of a window around a value ([`Grid::around`], CAEV's RANGE): far beyond
/// any score, small enough that no window arithmetic can overflow.
pub const MAX_RANGE: i64 = 1 << 40;

/// The largest grid [`Grid::new`] accepts (a guard against a mistyped step, not a tuning knob).
pub const MAX_GRID: usize = 1 << 20;

/// Evenly spaced values `low, low + step, …, low + (len − 1)·step` (in `i64`, so that a window around
/// a decisive score cannot overflow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    low: i64,
    step: i64,
    len: usize,
}

impl Grid {
    /// `len` values from `low` in steps of `step`.
    pub fn new(low: i64, step: i64, len: usize) -> Result<Grid, ConspiracyError> {
        if step <= 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "step",
                value: step,
            });
        }
        if len == 0 || len > MAX_GRID {
            return Err(ConspiracyError::GridLength { len, max: MAX_GRID });
        }
        // Every value must be representable: `value(i)` does plain arithmetic.
        let span = step.checked_mul(len as i64 - 1);
        if span.and_then(|s| low.checked_add(s)).is_none() {
            return Err(ConspiracyError::TooLarge {
                parameter: "step",
                value: step,
                max: (i64::MAX - low.max(0)) / (len as i64 - 1).max(1),
            });
        }
        Ok(Grid { low, step, len })
    }

    /// The window `[center − range, center + range]` in steps of `step` (the CAEV grid; `range` a
    /// multiple of `step`, so `center` is on the grid).
    pub fn around(center: Score, range: i64, step: i64) -> Result<Grid, ConspiracyError> {
        if step <= 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "step",
                value: step,
            });
        }
        if range < 0 {
            return Err(ConspiracyError::NonPositive {
                parameter: "range",
                value: range,
            });
        }
        if range > MAX_RANGE {
            return Err(ConspiracyError::TooLarge {
                parameter: "range",
                value: range,
                max: MAX_RANGE,
            });
        }
        if range % step != 0 {
            return Err(ConspiracyError::RangeNotMultipleOfStep { range, step });
        }
        let len = usize::try_from(2 * (range / step) + 1).unwrap_or(usize::MAX);
        Grid::new(i64::from(center) - range, step, len)
    }

    /// The `i`-th value.
    pub fn value(&self, i: usize) -> i64 {
        self.low + self.step * i as i64
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always `false`: a grid has at least one value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Distance between neighbouring values.
    pub fn step(&self) -> i64 {
        self.step
    }

    /// The first value.
    pub fn low(&self) -> i64 {
        self.low
    }

    /// Indices of the first grid value `≥ v` and of the first `> v` (`len` if none), with at most one
    /// division: this runs once per leaf, the hot path of [`ConspiracyNumbers::compute`].
    #[inline]
    fn bracket(&self, v: i64) -> (usize, usize) {
        if v < self.low {
            return (0, 0);
        }
        let (offset, step) = ((v - self.low) as u64, self.step as u64);
        if step
            .checked_mul(self.len as u64)
            .is_some_and(|end| offset >= end)
        {
            return (self.len, self.len);
        }
        let (q, r) = ((offset / step) as usize, offset % step);
        let at_least = if r == 0 { q } else { q + 1 };
        (at_least.min(self.len), (q + 1).min(self.len))
    }

    /// Index of the first grid value `≥ v` (`len` if none): where the rise numbers start for a root
    /// of value `v`.
    fn first_at_least(&self, v: i64) -> usize {
        if v <= self.low {
            return 0;
        }
        let k = (v - self.low + self.step - 1) / self.step; // ceil
        usize::try_from(k).map_or(self.len, |k| k.min(self.len))
    }
}

/// Computes conspiracy numbers and keeps its buffers between calls, so that computing them for every
/// root child of a search allocates only the first time.
///
/// # The definition, as we read equations (1)–(5)
/// Let `m` be the minimax value of the subtree's root (root player's view). For a value `v`:
///
/// - `v ≥ m`: `CN(v)` is the least number of leaves whose values must change for the root's value to
///   **rise to at least `v`** (`CN↑`);
/// - `v < m`: the least number of leaves that must change for it to **fall to at most `v`** (`CN↓`).
///
/// Recursively, with "already satisfied" folded into the leaf case:
///
/// | node | `CN↑(T, v)` (rise) | `CN↓(T, v)` (fall) |
/// |---|---|---|
/// | leaf `l`, not terminal | 0 if `l ≥ v`, else 1 | 0 if `l ≤ v`, else 1 |
/// | leaf `l`, terminal (eq. 1: cannot change) | 0 if `l ≥ v`, else ∞ | 0 if `l ≤ v`, else ∞ |
/// | MAX node (eqs. 2, 3) | min over children | sum over children |
/// | MIN node (eqs. 4, 5) | sum over children | min over children |
///
/// A MAX node reaches `≥ v` as soon as one child does (min), and `≤ v` only when every child does
/// (sum; the children's leaf sets are disjoint, so the counts add). The equations' "0 if the node
/// already has the value" cases are exactly the children whose own number is 0, so the recursion
/// needs no special case above the leaves.
///
/// **"At least v" or "exactly v"?** The paper says "change to v". Both readings give the same
/// numbers for every `v ≠ m`: a cheapest set of conspirators for "≥ v", set to exactly `v`, makes the
/// root exactly `v` (by induction: a MAX node below `v` gets one child to exactly `v`; a MIN node
/// gets each child below `v` to exactly `v` while the others stay `≥ v`). The crate's tests check
/// both brute-force readings against this pass.
///
/// **Grid values between leaf values.** `CN↑(v)` is a step function of `v` that can only change just
/// above a leaf value (it is constant on every interval `(lᵢ, lᵢ₊₁]` of consecutive leaf values);
/// `CN↓(v)` is constant on every `[lᵢ, lᵢ₊₁)`. A grid value between two leaf values therefore gets the
/// number of the nearest leaf value on the far side from `m`. `CN(m) = 0`, every other number is at
/// least 1, and the numbers never decrease moving away from `m` (section 3.1); if `m` is not itself
/// on the grid no grid value has number 0.
///
/// # Complexity
/// One post-order walk of the subtree with one vector of `grid.len()` counters per level of the
/// current path: `O(nodes · grid)` time, `O(depth · grid)` memory, no recursion and no allocation
/// once the buffers have grown.
#[derive(Clone, Debug, Default)]
pub struct ConspiracyNumbers {
    /// One accumulator of `grid.len()` counters per level of the current path, level-major.
    levels: Vec<Cn>,
    /// The post-order walk: (node, index of the next child to fold in).
    stack: Vec<(u32, u32)>,
    /// The result of the last [`compute`](ConspiracyNumbers::compute).
    numbers: Vec<Cn>,
    grid: Option<Grid>,
    center: Score,
}

impl ConspiracyNumbers {
    /// Empty buffers.
    pub fn new() -> ConspiracyNumbers {
        ConspiracyNumbers::default()
    }

    /// The conspiracy number of every value of `grid` for the subtree rooted at `node`, whose value
    /// `m` splits the grid: `CN↑` for values `≥ m`, `CN↓` below (see the module docs).
    pub fn compute<M>(&mut self, tree: &MinimaxTree<M>, node: NodeId, grid: &Grid) -> &[Cn] {
        let len = grid.len();
        let m = tree.node(node).value;
        let split = grid.first_at_least(i64::from(m));
        self.grid = Some(*grid);
        self.center = m;
        self.numbers.clear();
        self.numbers.resize(len, 0);
        let root = tree.node(node);
        if root.is_leaf() {
            fold_leaf(
                &mut self.numbers,
                grid,
                split,
                root.value,
                root.terminal,
                None,
            );
            return &self.numbers;
        }
        let levels_needed = (tree.max_depth() - root.depth + 1) as usize * len;
        if self.levels.len() < levels_needed {
            self.levels.resize(levels_needed, 0);
        }
        self.stack.clear();
        self.stack.push((node.0, 0));
        reset(&mut self.levels[..len], split, root.side);
        while let Some(&(id, next)) = self.stack.last() {
            let parent = tree.node(NodeId(id));
            let level = self.stack.len() - 1;
            if next == parent.child_count {
                // Every child folded in: hand this node's numbers to its parent's accumulator.
                self.stack.pop();
                let (below, this) = self.levels.split_at_mut(level * len);
                let this = &this[..len];
                match self.stack.last() {
                    Some(&(grand, _)) => {
                        let into = &mut below[(level - 1) * len..];
                        fold(&mut into[..len], this, split, tree.node(NodeId(grand)).side);
                    }
                    None => self.numbers.copy_from_slice(this),
                }
                continue;
            }
            let child_id = NodeId(parent.first_child + next);
            self.stack[level].1 += 1;
            let side = parent.side;
            let child = tree.node(child_id);
            if child.is_leaf() {
                // Leaves are folded straight into the parent: no vector of their own.
                let acc = &mut self.levels[level * len..(level + 1) * len];
                fold_leaf(acc, grid, split, child.value, child.terminal, Some(side));
            } else {
                let acc = &mut self.levels[(level + 1) * len..(level + 2) * len];
                reset(acc, split, child.side);
                self.stack.push((child_id.0, 0));
            }
        }
        &self.numbers
    }

    /// The numbers of the last [`compute`](ConspiracyNumbers::compute), one per grid value.
    pub fn numbers(&self) -> &[Cn] {
        &self.numbers
    }

    /// The grid of the last computation.
    pub fn grid(&self) -> Option<Grid> {
        self.grid
    }

    /// The subtree root's value `m` in the last computation.
    pub fn center(&self) -> Score {
        self.center
    }
}

/// The identity of a node's accumulator: min starts at ∞, sum at 0. Below `split` the fall rule
/// applies (MAX sums, MIN takes the min), from `split` on the rise rule (MAX min, MIN sum).
fn reset(acc: &mut [Cn], split: usize, side: Side) {
    let (fall, rise) = acc.split_at_mut(split);
    let (fall_identity, rise_identity) = match side {
        Side::Max => (0, CN_INFINITE),
        Side::Min => (CN_INFINITE, 0),
    };
    fall.fill(fall_identity);
    rise.fill(rise_identity);
}

/// Folds a child's numbers into its parent's accumulator: min or saturating sum, per half.
fn fold(acc: &mut [Cn], child: &[Cn], split: usize, parent: Side) {
    let (acc_fall, acc_rise) = acc.split_at_mut(split);
    let (child_fall, child_rise) = child.split_at(split);
    match parent {
        Side::Max => {
            sum_into(acc_fall, child_fall);
            min_into(acc_rise, child_rise);
        }
        Side::Min => {
            min_into(acc_fall, child_fall);
            sum_into(acc_rise, child_rise);
        }
    }
}

fn min_into(acc: &mut [Cn], child: &[Cn]) {
    for (a, &c) in acc.iter_mut().zip(child) {
        *a = (*a).min(c);
    }
}

fn sum_into(acc: &mut [Cn], child: &[Cn]) {
    for (a, &c) in acc.iter_mut().zip(child) {
        *a = a.saturating_add(c);
    }
}

/// Folds a leaf of value `l` into an accumulator (or, with `parent = None`, writes the leaf's own
/// numbers). The leaf's numbers are a step: 0 where it already satisfies the target, `cost` (1, or ∞
/// when terminal) elsewhere, so only the non-zero stretch is touched.
fn fold_leaf(
    acc: &mut [Cn],
    grid: &Grid,
    split: usize,
    l: Score,
    terminal: bool,
    parent: Option<Side>,
) {
    let cost = if terminal { CN_INFINITE } else { 1 };
    let (at_least, above) = grid.bracket(i64::from(l));
    // Fall half (v < m): the leaf must change where l > v, i.e. at grid values below l.
    let fall_end = at_least.min(split);
    // Rise half (v ≥ m): the leaf must change where l < v, i.e. at grid values above l.
    let rise_start = above.max(split);
    match parent {
        None => {
            acc.fill(0);
            acc[..fall_end].fill(cost);
            acc[rise_start..].fill(cost);
        }
        Some(side) => {
            let (fall_zero, fall_cost) = (fall_end..split, 0..fall_end);
            let (rise_zero, rise_cost) = (split..rise_start, rise_start..acc.len());
            match side {
                Side::Max => {
                    // fall: sum (zeros change nothing); rise: min.
                    acc[fall_cost]
                        .iter_mut()
                        .for_each(|a| *a = a.saturating_add(cost));
                    acc[rise_zero].fill(0);
                    acc[rise_cost].iter_mut().for_each(|a| *a = (*a).min(cost));
                }
                Side::Min => {
                    acc[fall_zero].fill(0);
                    acc[fall_cost].iter_mut().for_each(|a| *a = (*a).min(cost));
                    acc[rise_cost]
                        .iter_mut()
                        .for_each(|a| *a = a.saturating_add(cost));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{brute_force_cn, open_leaves, Reading, StoredValue, TreeGame};
    use quickcheck::{QuickCheck, TestResult};

    /// A small random tree built to its open frontier, with at most 10 open leaves so that the
    /// brute force (every subset of leaves) stays cheap.
    fn small_tree(seed: u64) -> Option<MinimaxTree<u32>> {
        let depth = 1 + (seed % 4) as u32;
        let branching = if depth <= 2 { 3 } else { 2 };
        let game = TreeGame::random(seed, depth, branching, 4);
        let tree = MinimaxTree::build(&game, &0, depth, &mut StoredValue);
        (open_leaves(&tree, NodeId::ROOT).len() <= 10).then_some(tree)
    }

    fn to_option(cn: Cn) -> Option<u32> {
        (cn != CN_INFINITE).then_some(cn)
    }

    #[test]
    fn one_pass_matches_brute_force_in_both_readings_at_every_node() {
        fn prop(seed: u64, step: u8, offset: u8) -> TestResult {
            let Some(tree) = small_tree(seed) else {
                return TestResult::discard();
            };
            let step = i64::from(step % 3 + 1);
            let grid = Grid::new(-7 + i64::from(offset % 3), step, 14 / step as usize + 1).unwrap();
            let mut cn = ConspiracyNumbers::new();
            // The root and every root child (the CAEV player's subtrees).
            let nodes = std::iter::once(NodeId::ROOT).chain(tree.root().children());
            for node in nodes {
                let numbers = cn.compute(&tree, node, &grid).to_vec();
                for (i, &n) in numbers.iter().enumerate() {
                    let v = grid.value(i) as Score;
                    let at_least = brute_force_cn(&tree, node, v, Reading::AtLeast);
                    let exactly = brute_force_cn(&tree, node, v, Reading::Exactly);
                    if to_option(n) != at_least || at_least != exactly {
                        eprintln!(
                            "seed {seed} node {node:?} v {v}: {n} vs {at_least:?} / {exactly:?}"
                        );
                        return TestResult::failed();
                    }
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(300)
            .quickcheck(prop as fn(u64, u8, u8) -> TestResult);
    }

    #[test]
    fn numbers_are_zero_at_the_root_value_and_grow_away_from_it() {
        fn prop(seed: u64) -> TestResult {
            let Some(tree) = small_tree(seed) else {
                return TestResult::discard();
            };
            let m = tree.root().value;
            let grid = Grid::around(m, 8, 1).unwrap();
            let mut cn = ConspiracyNumbers::new();
            let numbers = cn.compute(&tree, NodeId::ROOT, &grid);
            let centre = 8;
            let ok = numbers[centre] == 0
                && numbers.iter().enumerate().all(|(i, &n)| i == centre || n >= 1)
                // Section 3.1: v1 < v2 < m ⇒ CN(v1) ≥ CN(v2); m < v1 < v2 ⇒ CN(v1) ≤ CN(v2).
                && numbers[..centre].windows(2).all(|w| w[0] >= w[1])
                && numbers[centre..].windows(2).all(|w| w[0] <= w[1]);
            TestResult::from_bool(ok)
        }
        QuickCheck::new()
            .tests(300)
            .quickcheck(prop as fn(u64) -> TestResult);
    }

    /// Figure 1 of the paper. The picture is lost in the text, but its caption pins it down: the root
    /// is 3; lowering it to 2 needs "node C or D", to 1 "node A or B and node C or D". That is a MAX
    /// root over X = MIN(A, B) = 2 and Y = MIN(C, D) = 3; with A = 2, B = 4, C = 3, D = 5 (all open
    /// leaves) the table "1..6 → 2 1 0 1 1 2" follows.
    #[test]
    fn figure_one_table() {
        let game = TreeGame::from_shape(&[&[2, 4], &[3, 5]]);
        let tree = MinimaxTree::build(&game, &0, 2, &mut StoredValue);
        assert_eq!(tree.root().value, 3);
        let grid = Grid::new(1, 1, 6).unwrap();
        let mut cn = ConspiracyNumbers::new();
        assert_eq!(cn.compute(&tree, NodeId::ROOT, &grid), &[2, 1, 0, 1, 1, 2]);
    }

    #[test]
    fn terminal_leaves_cannot_conspire() {
        // Root MAX over a finished game worth 0 and an open leaf worth 0: rising needs the open leaf
        // (1), falling needs both (∞).
        let mut game = TreeGame::from_shape(&[&[0]]);
        game.nodes[0].children = vec![1, 3]; // root: the MIN node, and node 3 (a finished game)
        let tree = MinimaxTree::build(&game, &0, 2, &mut StoredValue);
        let mut cn = ConspiracyNumbers::new();
        let grid = Grid::new(-1, 1, 3).unwrap();
        assert_eq!(cn.compute(&tree, NodeId::ROOT, &grid), &[CN_INFINITE, 0, 1]);
    }

    #[test]
    fn a_leaf_root_and_grids_off_the_root_value() {
        let game = TreeGame::from_shape(&[&[5]]);
        let tree = MinimaxTree::build(&game, &0, 2, &mut StoredValue);
        let leaf = tree.root().children().next().unwrap();
        let leaf = tree.node(leaf).children().next().unwrap();
        let mut cn = ConspiracyNumbers::new();
        // Grid 0, 3, 6, 9 around a leaf of value 5 (not on the grid): no zero.
        let grid = Grid::new(0, 3, 4).unwrap();
        assert_eq!(cn.compute(&tree, leaf, &grid), &[1, 1, 1, 1]);
        assert_eq!(cn.compute(&tree, NodeId::ROOT, &grid), &[1, 1, 1, 1]);
    }
}

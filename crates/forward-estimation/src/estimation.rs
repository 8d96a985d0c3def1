//! [`ForwardEstimation`]: Zhang's pruning conditions (1)–(3) as a game-trait [`ForwardPruning`] hook.

use game_trait::{ForwardPruning, PruneContext, Score, ZeroSumGame, INFINITY};

use crate::bounds::EdgeBounds;
use crate::error::FeError;
use crate::reading::Reading;

/// Zhang's forward estimation (*Forward Estimation for Minimax Search*, ISI/RR-95-429, 1995) as a
/// pruning hook for any α/β engine of the workspace (`search_core::AlphaBeta::with_pruning`).
///
/// # The idea
/// A subtree whose root has static value `c` and depth `d`, with every edge cost in `[l, u]`, has a
/// minimax value in `[c + l·d, c + u·d]`: each leaf lies in that interval, and minimax only selects
/// among leaf values. So a MIN node whose best case `c + u·d` is at most α, or a MAX node whose worst
/// case `c + l·d` is at least β, cannot affect the root, and is skipped without being searched:
///
/// ```text
///   (1)  MIN root: prune if c + u·d ≤ α        MAX root: prune if c + l·d ≥ β
///   (2)  the same with the most likely increment u' and decrement l'
///   (3)  u' = δ·u, l' = δ·l, δ ∈ [0, 1]
/// ```
///
/// Here `d` is the **remaining depth of the child's subtree**, i.e. the number of plies between the
/// child and the search horizon (the paper: "d is the depth of the subtree"); the engine passes it as
/// [`PruneContext::child_depth`]. A leaf child (d = 0) is pruned iff `c ≤ α`, which returns exactly its
/// value. The child has already been generated (its static value is needed), so a pruned child still
/// counts as a generated node, as in the paper.
///
/// # The conditions in the engine's negamax view (derivation)
/// The hook sees values from the **parent's** point of view. Let `c` be the child's static value in
/// MAX's view and `c_P = child_static` the same value from the parent `P`'s view, with `P`'s window
/// `(α_P, β_P)`.
/// - `P` is MAX (the child is MIN): `P`'s view is MAX's, `c_P = c`, and the child's α is `α_P` (the
///   best value of its MAX ancestors). Condition (1) reads `c_P + u·d ≤ α_P`, and the child's value
///   for `P` is at most `c_P + u·d`.
/// - `P` is MIN (the child is MAX): `c_P = −c`, and negamax searches the child with window
///   `(−β_P, −α_P)` in MAX's view, so the child's β is `−α_P` (the best value of its MIN ancestors).
///   Condition (1), `c + l·d ≥ −α_P`, is `c_P − l·d ≤ α_P`, and the child's value for `P`,
///   `−value(child) ≤ −(c + l·d)`, is at most `c_P − l·d`.
///
/// Both cases are one rule: with `u_P = u` when the parent is MAX and `u_P = −l` when it is MIN (the
/// largest edge cost **as the parent sees it**), skip the child iff `c_P + u_P·d ≤ α_P`, and report
/// `c_P + u_P·d` (which is `≤ α_P`) as an upper bound on its value, as [`ForwardPruning::prune`]
/// requires. With δ the rule uses `δ·u` and `δ·l`; the product is rounded down, which for integer
/// scores is the same condition.
///
/// With exact bounds and δ = 1 every skipped child provably fails low, so the search returns α/β's
/// value and generates a subset of its nodes. The bounds assume every leaf of the subtree is `d` plies
/// below its root; if a game can end sooner, bounds with `l ≤ 0 ≤ u` keep that guarantee.
///
/// # Edge-cost sources
/// See [`EdgeBounds`]: exact, off-line learned ([`learn_offline`](crate::learn_offline)), or on-line
/// learned (the running min and max of `child_static − parent_static` in MAX's view, over every child
/// the engine shows the hook in this search, updated *before* the child is tested).
///
/// # Parameters
/// - `bounds`: the source of `l` and `u` (no default: random trees give exact ones).
/// - `delta`: δ of conditions (3), default 1.0 (exact forward estimation); smaller prunes more and
///   turns forward estimation into a selective search (the paper recommends 0.5 on random trees).
/// - `reading`: [`Reading::Literal`] (the default) or [`Reading::NodeCut`], the reading that
///   reproduces the paper's Table 1: condition (1) only on subtrees of depth ≥ 2, and a node cut
///   when a child's estimated range settles its parent ([`ForwardPruning::cut`]).
///
/// # Example
/// ```
/// use forward_estimation::{EdgeBounds, ForwardEstimation};
/// use game_trait::{ForwardPruning, PruneContext};
/// # struct AnyGame;
/// # impl game_trait::Game for AnyGame {
/// #     type State = ();
/// #     type Move = u8;
/// #     fn initial_state(&self) {}
/// #     fn apply(&self, _: &mut (), _: u8) -> Option<()> { Some(()) }
/// # }
/// # impl game_trait::ZeroSumGame for AnyGame {
/// #     fn side_to_move(&self, _: &()) -> usize { 0 }
/// #     fn outcome(&self, _: &()) -> Option<game_trait::Outcome> { Some(game_trait::Outcome::DRAW) }
/// #     fn moves(&self, _: &(), _: &mut game_trait::MoveList<u8>) {}
/// # }
///
/// let mut fe = ForwardEstimation::new(EdgeBounds::Exact { l: -10, u: 10 });
/// // MAX parent with α = 50; a MIN child at static value 25 with 2 plies left can reach at most
/// // 25 + 10·2 = 45 ≤ 50: skip it, reporting 45 as an upper bound.
/// let ctx = PruneContext {
///     parent_static: 30, child_static: 25, alpha: 50, beta: 90,
///     child_depth: 2, child_is_max: false, parent_is_max: true, ply: 0,
/// };
/// assert_eq!(ForwardPruning::<AnyGame>::prune(&mut fe, &ctx), Some(45));
/// ```
#[derive(Clone, Debug)]
pub struct ForwardEstimation {
    bounds: EdgeBounds,
    delta: f64,
    reading: Reading,
    /// Edge costs met in this search (MAX's view), for on-line bounds: `(min, max)`, `min > max` when
    /// none has been met yet.
    seen: (i64, i64),
    /// `δ·l` and `δ·u` in force, recomputed only when the bounds change.
    scaled: (f64, f64),
}

impl ForwardEstimation {
    /// Forward estimation with the given edge-cost bounds and δ = 1.
    pub fn new(bounds: EdgeBounds) -> ForwardEstimation {
        let mut fe = ForwardEstimation {
            bounds,
            delta: 1.0,
            reading: Reading::Literal,
            seen: (i64::MAX, i64::MIN),
            scaled: (0.0, 0.0),
        };
        fe.rescale();
        fe
    }

    /// Sets δ of conditions (3). Fails unless `0 ≤ δ ≤ 1`.
    pub fn with_delta(mut self, delta: f64) -> Result<ForwardEstimation, FeError> {
        if !(0.0..=1.0).contains(&delta) {
            return Err(FeError::Delta { delta });
        }
        self.delta = delta;
        self.rescale();
        Ok(self)
    }

    /// Sets the reading of the conditions.
    pub fn with_reading(mut self, reading: Reading) -> ForwardEstimation {
        self.reading = reading;
        self
    }

    /// The reading of the conditions.
    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// The source of the edge-cost bounds.
    pub fn bounds(&self) -> EdgeBounds {
        self.bounds
    }

    /// δ.
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// The `(l, u)` in force (before δ): the fixed bounds, or the on-line ones learned so far in the
    /// current search (`None` before the first edge).
    pub fn current_bounds(&self) -> Option<(Score, Score)> {
        match self.bounds.fixed() {
            Some(b) => Some(b),
            None if self.seen.0 <= self.seen.1 => Some((clamp(self.seen.0), clamp(self.seen.1))),
            None => None,
        }
    }

    /// A short description such as `fe:bounds=online,delta=0.5` (with `,reading=node-cut` when
    /// that is the reading).
    pub fn name(&self) -> String {
        let reading = match self.reading {
            Reading::Literal => String::new(),
            other => format!(",reading={}", other.name()),
        };
        format!(
            "fe:bounds={},delta={}{reading}",
            self.bounds.name(),
            self.delta
        )
    }

    fn rescale(&mut self) {
        let (l, u) = match self.bounds.fixed() {
            Some((l, u)) => (i64::from(l), i64::from(u)),
            None => self.seen,
        };
        self.scaled = (self.delta * l as f64, self.delta * u as f64);
    }

    /// Records an edge cost (MAX's view) for on-line bounds.
    #[inline]
    fn learn(&mut self, edge: i64) {
        if edge < self.seen.0 || edge > self.seen.1 {
            self.seen = (self.seen.0.min(edge), self.seen.1.max(edge));
            self.rescale();
        }
    }
}

impl<G: ZeroSumGame> ForwardPruning<G> for ForwardEstimation {
    fn start_search(&mut self) {
        if self.bounds == EdgeBounds::Online {
            self.seen = (i64::MAX, i64::MIN);
            self.rescale();
        }
    }

    #[inline]
    fn prune(&mut self, ctx: &PruneContext) -> Option<Score> {
        // Read from the context, not guessed from the child's side: a player may move twice.
        let parent_is_max = ctx.parent_is_max;
        if self.bounds == EdgeBounds::Online {
            let edge = i64::from(ctx.child_static) - i64::from(ctx.parent_static);
            self.learn(if parent_is_max { edge } else { -edge });
        }
        if self.reading == Reading::NodeCut && ctx.child_depth < 2 {
            return None;
        }
        // The largest edge cost as the parent sees it: u for a MAX parent, −l for a MIN parent.
        let rise = if parent_is_max {
            self.scaled.1
        } else {
            -self.scaled.0
        };
        // On-line bounds are never empty here: the edge to this very child was just learned.
        let reach = (rise * f64::from(ctx.child_depth)).floor();
        let bound = f64::from(ctx.child_static) + reach;
        (bound <= f64::from(ctx.alpha)).then(|| clamp(bound.max(-f64::from(INFINITY)) as i64))
    }

    const CUTS: bool = true;

    /// The node cut of [`Reading::NodeCut`]: the child's value for the parent is at least
    /// `c_P + l_P·d`, with `l_P` the smallest edge cost as the parent sees it (`l` for a MAX
    /// parent, `−u` for a MIN one); when that reaches β the parent is settled. Rounded up, which
    /// for integer scores is the same condition.
    #[inline]
    fn cut(&mut self, ctx: &PruneContext) -> Option<Score> {
        if self.reading != Reading::NodeCut {
            return None;
        }
        let fall = if ctx.parent_is_max {
            self.scaled.0
        } else {
            -self.scaled.1
        };
        let reach = (fall * f64::from(ctx.child_depth)).ceil();
        let bound = f64::from(ctx.child_static) + reach;
        (bound >= f64::from(ctx.beta)).then(|| clamp(bound.min(f64::from(INFINITY)) as i64))
    }
}

fn clamp(x: i64) -> Score {
    x.clamp(-i64::from(INFINITY), i64::from(INFINITY)) as Score
}

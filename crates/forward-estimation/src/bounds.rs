//! [`EdgeBounds`]: where the minimal and maximal edge costs `l`, `u` come from.

use game_trait::Score;

/// The source of the edge-cost bounds `l ≤ u` (Zhang §3), always in **MAX's view** (MAX is the side to
/// move at the root of the search): an edge's cost is the static value of the child minus that of the
/// parent, both seen by MAX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeBounds {
    /// Bounds known a priori, e.g. [the random tree's](https://docs.rs/random-tree) range. With δ = 1
    /// forward estimation then returns exactly α/β's value (Zhang's guarantee), provided every edge of
    /// the searched tree really lies in `[l, u]`.
    Exact {
        /// Minimal edge cost.
        l: Score,
        /// Maximal edge cost.
        u: Score,
    },
    /// Bounds learned off-line by sampling games with the static evaluator
    /// ([`learn_offline`](crate::learn_offline)): a heuristic, since an unsampled edge may exceed them.
    Offline {
        /// Smallest edge cost sampled (or the most likely decrement, for conditions (2)).
        l: Score,
        /// Largest edge cost sampled (or the most likely increment).
        u: Score,
    },
    /// Bounds learned on-line: the running minimum and maximum of the edge costs met so far in the
    /// current search, reset when a search starts; the edge to a child is learned before the child is
    /// tested, so the bounds are never empty when used.
    Online,
}

impl EdgeBounds {
    /// A short name: `exact`, `offline` or `online`.
    pub fn name(&self) -> &'static str {
        match self {
            EdgeBounds::Exact { .. } => "exact",
            EdgeBounds::Offline { .. } => "offline",
            EdgeBounds::Online => "online",
        }
    }

    /// The fixed `(l, u)`, or `None` for on-line bounds.
    pub fn fixed(&self) -> Option<(Score, Score)> {
        match *self {
            EdgeBounds::Exact { l, u } | EdgeBounds::Offline { l, u } => Some((l, u)),
            EdgeBounds::Online => None,
        }
    }
}

//! [`InterestConfig`]: the parameters of interest search and their defaults.

/// Every parameter of interest search. All costs are in integer *cost units*; a move of interest `i`
/// costs `max(1, scale / i)` units (Rollason's `cost = 1 / interest`, scaled to integers).
///
/// | field | default | meaning |
/// |---|---|---|
/// | [`limit_step`](Self::limit_step) | 1000 | interest limit added per iteration (any size ≥ 1) |
/// | [`scale`](Self::scale) | 100 000 | numerator of `cost = scale / interest` |
/// | [`sibling_percent`](Self::sibling_percent) | 100 | share of `total_cost_this_ply` charged (100: Rollason's rule) |
/// | [`similar_percent`](Self::similar_percent) | 100 | cost added per similar move already searched at the node |
/// | [`separate_parities`](Self::separate_parities) | `true` | one tally per player (Rollason's fix) |
/// | [`inherit_siblings`](Self::inherit_siblings) | `true` | children inherit their elder siblings' costs |
///
/// With the defaults a move of interest 100 (Treebeard's base interest `1000 / legal moves` for ten
/// legal moves) costs 1000 units, exactly one `limit_step`: one iteration buys one such move.
/// Every computation saturates, so no value can overflow; a `limit_step` or `scale` of 0 is taken
/// as 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterestConfig {
    /// How much each iteration raises the interest limit: iteration `i` has the limit
    /// `i × limit_step`, shared between the two parities (see the crate docs). Any value ≥ 1:
    /// Rollason's point is that iterations need not be whole plies.
    pub limit_step: u32,
    /// Numerator of the cost formula `cost = max(1, scale / interest)`. Only the ratio
    /// `limit_step / scale` matters for the shape of the tree; a large scale keeps integer rounding
    /// negligible.
    pub scale: u32,
    /// Percentage of `total_cost_this_ply` (the costs of the siblings already explored at a node)
    /// added to `net_cost`. 100 is Rollason's rule; 0 drops the term, which turns a search where
    /// every move costs the same into a fixed-depth search (see the crate docs for why the two
    /// conflict).
    pub sibling_percent: u32,
    /// The similar-moves penalty (Shotest's Shogi enhancement): a move whose
    /// [`similarity`](game_trait::Plausibility::similarity) key was already searched `k` times at
    /// this node costs `base × (1 + k × similar_percent / 100)`. 0 turns the penalty off.
    pub similar_percent: u32,
    /// Charge each player's moves to that player's own tally (Rollason's fix for the opponent
    /// dodging an outcome with an expensive move). `false` keeps one shared tally, the flawed first
    /// version Rollason describes, for comparison.
    pub separate_parities: bool,
    /// Whether a child inherits `net_cost` (its elder siblings' costs included) as its
    /// `total_path_cost` — our reading of Rollason's diagram, default `true` — or only the path's
    /// own moves (`false`: the sibling tally then limits a node's width but not its children's
    /// depth).
    pub inherit_siblings: bool,
}

impl Default for InterestConfig {
    fn default() -> InterestConfig {
        InterestConfig {
            limit_step: 1000,
            scale: 100_000,
            sibling_percent: 100,
            similar_percent: 100,
            separate_parities: true,
            inherit_siblings: true,
        }
    }
}

//! [`InterestConfig`]: the parameters of interest search and their defaults.

use game_trait::MoveHints;

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
/// | [`limits`](Self::limits) | [`LimitSplit::Whole`] | each tally against the whole limit, or the limit shared out |
/// | [`bonuses`](Self::bonuses) | [`HintBonuses::TREEBEARD`] | interest the engine's heuristics add (table +25, …) |
/// | [`beyond_depth_percent`](Self::beyond_depth_percent) | 50 | interest kept per ply beyond the iteration's nominal depth |
///
/// With the defaults a move of interest 100 (Treebeard's base interest `1000 / legal moves` for ten
/// legal moves) costs 1000 units, exactly one `limit_step`: one iteration buys one such move per
/// player. Every computation saturates, so no value can overflow; a `limit_step` or `scale` of 0 is
/// taken as 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterestConfig {
    /// How much each iteration raises the interest limit: iteration `i` has the limit
    /// `i × limit_step` (see [`limits`](Self::limits) for how the two tallies meet it). Any value
    /// ≥ 1: Rollason's point is that iterations need not be whole plies.
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
    /// this node costs `base × (1 + k × similar_percent / 100)`. 0 turns the penalty off, as in
    /// Treebeard (chess), which did not have it.
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
    /// How an iteration's limit meets the two tallies (see the crate docs, reading 2).
    pub limits: LimitSplit,
    /// The interest the engine's own heuristics add to a move (Treebeard's dynamic terms 3–7).
    pub bonuses: HintBonuses,
    /// Treebeard's term 15, "diminish interest if beyond iteration depth": a move that takes a line
    /// `k` plies past the iteration's nominal depth keeps `beyond_depth_percent^k` percent of its
    /// interest. 100 turns the term off. The nominal depth is how deep a line of moves costing one
    /// `limit_step` each reaches in the iteration.
    pub beyond_depth_percent: u32,
}

impl InterestConfig {
    /// The defaults of the table above, usable in a `const` (`..InterestConfig::DEFAULT`).
    pub const DEFAULT: InterestConfig = InterestConfig {
        limit_step: 1000,
        scale: 100_000,
        sibling_percent: 100,
        similar_percent: 100,
        separate_parities: true,
        inherit_siblings: true,
        limits: LimitSplit::Whole,
        bonuses: HintBonuses::TREEBEARD,
        beyond_depth_percent: 50,
    };
}

impl Default for InterestConfig {
    fn default() -> InterestConfig {
        InterestConfig::DEFAULT
    }
}

/// How an iteration's limit `n × limit_step` meets the two players' tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LimitSplit {
    /// Each tally is compared with the whole limit, as the article states ("compared to the
    /// iteration interest limit"): in iteration `n` each player may spend `n` steps, so a line of
    /// one-step moves reaches `2n` plies. The default.
    #[default]
    Whole,
    /// The limit is shared out as iterative deepening shares plies: the root's side may spend
    /// `⌈n/2⌉` steps and the other side `⌊n/2⌋`, so that with one step per move iteration `n` is
    /// exactly the depth-`n` search (our earlier reading, kept for comparison).
    Alternate,
}

/// The interest Treebeard adds for what the searching engine knows about a move (terms 3–7 of its
/// list), given as [`MoveHints`] by search-core's engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HintBonuses {
    /// The move is the transposition table's move here ("move is in the transposition table").
    pub table: u32,
    /// At the root, the previous iteration's best move.
    pub previous_best: u32,
    /// A killer move of the ply.
    pub killer: u32,
    /// The global best reply to the previous move.
    pub best_reply: u32,
    /// The best follow-on of the mover's move two plies up.
    pub follow_on: u32,
}

impl HintBonuses {
    /// Treebeard's figures: table +25, previous best, killer, best reply and follow-on +100 each.
    pub const TREEBEARD: HintBonuses = HintBonuses {
        table: 25,
        previous_best: 100,
        killer: 100,
        best_reply: 100,
        follow_on: 100,
    };

    /// No dynamic term: a move's interest is its plausibility alone.
    pub const NONE: HintBonuses = HintBonuses {
        table: 0,
        previous_best: 0,
        killer: 0,
        best_reply: 0,
        follow_on: 0,
    };

    /// The interest `hints` add, the sum of the matching terms.
    #[inline]
    pub fn bonus(&self, hints: MoveHints) -> u32 {
        let term = |flag: MoveHints, value: u32| if hints.contains(flag) { value } else { 0 };
        term(MoveHints::TABLE, self.table)
            .saturating_add(term(MoveHints::PREVIOUS_BEST, self.previous_best))
            .saturating_add(term(MoveHints::KILLER, self.killer))
            .saturating_add(term(MoveHints::BEST_REPLY, self.best_reply))
            .saturating_add(term(MoveHints::FOLLOW_ON, self.follow_on))
    }

    /// Whether every term is 0.
    pub fn is_none(&self) -> bool {
        *self == HintBonuses::NONE
    }
}

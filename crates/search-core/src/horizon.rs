//! Horizon combinators: policies that wrap another [`HorizonPolicy`] and change which tree it defines.
//!
//! [`WidthLimit`] keeps only the first `width` moves of every node, in the engine's search order: a
//! *narrow* (n-best, beam-like) search. Its value is the exact minimax value of that narrow tree,
//! which is an estimate of the full tree's value, never a bound on it: both sides lose moves. Use
//! it where a cheap, informed guess is worth more than a proof, e.g. as the first guess of MTD(f)
//! (the Othello endgame solver of the `gametree` facade does this).
//!
//! ```
//! use game_trait::{Bound, DepthHorizon, Game, Limits, Searcher};
//! use search_core::horizon::WidthLimit;
//! use search_core::{AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue};
//!
//! let tree = ExplicitTree::random(3, 6, 4);
//! let config = AlphaBetaConfig { depth: 6, ..AlphaBetaConfig::default() };
//! let engine = AlphaBeta::new(LeafValue).with_config(config);
//! let mut narrow = engine.clone().with_horizon(WidthLimit::new(DepthHorizon, 2));
//! let mut full = engine;
//! let root = tree.initial_state();
//! let estimate = narrow.search(&tree, &root, &Limits::none());
//! let exact = full.search(&tree, &root, &Limits::none());
//! // The narrow search sees fewer nodes; its value is exact for the narrow tree only.
//! assert!(estimate.stats.generated <= exact.stats.generated);
//! assert_eq!(estimate.bound, Bound::Exact);
//! ```

use game_trait::{HorizonPolicy, Step, ZeroSumGame};

/// Searches at most `width` moves at every node, counting the promoted ones (the table move and
/// killers) first, then the ordering hook's best; everything else as `inner` says.
///
/// Parameters: `inner`, the horizon that decides leaves and budgets; `width` ≥ 1, the number of
/// moves searched per node (a width of 0 is read as 1: a node always searches its first move, or
/// it would become a leaf). Which moves are "first" depends on the order, and the table move and
/// killers change it, so with a table a position's value may come from a slightly different narrow
/// tree than without: still an estimate, never a bound. Do not share a table with a full-width
/// search, whose entries must be exact.
///
/// Cost: the narrow tree of depth `d` has at most `width^d` leaves, whatever the branching; every
/// node still generates (and, with an ordering hook, orders) all its moves.
#[derive(Clone, Copy, Debug)]
pub struct WidthLimit<H> {
    /// The horizon being narrowed.
    pub inner: H,
    /// Moves searched per node, at least 1.
    pub width: usize,
}

impl<H> WidthLimit<H> {
    /// `inner`, narrowed to `width` moves per node (at least 1).
    pub fn new(inner: H, width: usize) -> WidthLimit<H> {
        WidthLimit {
            inner,
            width: width.max(1),
        }
    }
}

impl<G: ZeroSumGame, H: HorizonPolicy<G>> HorizonPolicy<G> for WidthLimit<H> {
    type Budget = H::Budget;
    type NodeTally = H::NodeTally;

    #[inline(always)]
    fn root_budget(&mut self, iteration: u32) -> H::Budget {
        self.inner.root_budget(iteration)
    }

    #[inline(always)]
    fn is_leaf(&self, game: &G, state: &G::State, budget: &H::Budget) -> bool {
        self.inner.is_leaf(game, state, budget)
    }

    #[inline(always)]
    fn child_budget(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &H::Budget,
        tally: &mut H::NodeTally,
        step: Step<G::Move>,
    ) -> Option<H::Budget> {
        if step.index >= self.width.max(1) {
            return None;
        }
        self.inner.child_budget(game, state, budget, tally, step)
    }

    #[inline(always)]
    fn same_mover(&self, budget: H::Budget) -> H::Budget {
        self.inner.same_mover(budget)
    }

    #[inline(always)]
    fn draft(&self, budget: &H::Budget) -> u32 {
        self.inner.draft(budget)
    }

    #[inline(always)]
    fn reduced(&self, budget: &H::Budget, plies: u32) -> Option<H::Budget> {
        self.inner.reduced(budget, plies)
    }

    #[inline(always)]
    fn extended(&self, budget: &H::Budget, plies: u32) -> Option<H::Budget> {
        self.inner.extended(budget, plies)
    }

    #[inline(always)]
    fn budget_key(&self, budget: &H::Budget) -> u16 {
        self.inner.budget_key(budget)
    }
}

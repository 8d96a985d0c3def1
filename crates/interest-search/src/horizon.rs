//! [`InterestHorizon`]: Rollason's interest budget as the α/β engine's horizon policy.

use game_trait::{HorizonPolicy, Plausibility, Step, ZeroSumGame};

use crate::config::{InterestConfig, LimitSplit};
use crate::similar::SimilarCounts;

/// One of the two search parities: the player to move at the root, or the other one (in a game
/// where players alternate, the players of the even and the odd plies; in one where a player may
/// move twice in a row, whoever the game says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    /// The player to move at the root.
    RootSide,
    /// The other player.
    OtherSide,
}

impl Parity {
    #[inline(always)]
    fn of_mover(mover_is_root_side: bool) -> Parity {
        if mover_is_root_side {
            Parity::RootSide
        } else {
            Parity::OtherSide
        }
    }

    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }

    /// The other parity.
    #[inline(always)]
    fn other(self) -> Parity {
        match self {
            Parity::RootSide => Parity::OtherSide,
            Parity::OtherSide => Parity::RootSide,
        }
    }
}

/// What a node has left to spend: each parity's `total_path_cost` and its share of the iteration's
/// interest limit, plus who moves here.
///
/// With [`separate_parities`](InterestConfig::separate_parities) off, both players charge the
/// root side's tally and the whole limit sits there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterestBudget {
    spent: [u32; 2],
    limit: [u32; 2],
    to_move: Parity,
    /// Plies from the root.
    ply: u16,
    /// The iteration's nominal depth in plies ([`NO_NOMINAL_DEPTH`] for none).
    nominal: u16,
}

/// The nominal depth of a budget built by [`InterestBudget::root`]: interest never diminishes.
const NO_NOMINAL_DEPTH: u16 = u16::MAX;

impl InterestBudget {
    /// The root budget for an explicit per-parity limit (root side, other side), without a nominal
    /// depth (interest does not diminish with depth below it).
    pub fn root(root_side_limit: u32, other_side_limit: u32) -> InterestBudget {
        InterestBudget {
            spent: [0, 0],
            limit: [root_side_limit, other_side_limit],
            to_move: Parity::RootSide,
            ply: 0,
            nominal: NO_NOMINAL_DEPTH,
        }
    }

    /// Plies from the root to this node.
    pub fn ply(&self) -> u32 {
        u32::from(self.ply)
    }

    /// The iteration's nominal depth, if it has one: how deep a line of one-step moves reaches.
    pub fn nominal_depth(&self) -> Option<u32> {
        (self.nominal != NO_NOMINAL_DEPTH).then_some(u32::from(self.nominal))
    }

    /// `total_path_cost` of `parity`: what its moves on the path to this node cost, siblings'
    /// tallies included (see the crate docs).
    pub fn spent(&self, parity: Parity) -> u32 {
        self.spent[parity.index()]
    }

    /// The share of the iteration's limit that `parity` may spend.
    pub fn limit(&self, parity: Parity) -> u32 {
        self.limit[parity.index()]
    }

    /// What `parity` has left: `limit − spent`.
    pub fn remaining(&self, parity: Parity) -> u32 {
        self.limit[parity.index()].saturating_sub(self.spent[parity.index()])
    }

    /// The same budget with other limits (root side, other side): what was spent, the ply and
    /// the nominal depth are kept.
    pub fn with_limits(self, root_side_limit: u32, other_side_limit: u32) -> InterestBudget {
        InterestBudget {
            limit: [root_side_limit, other_side_limit],
            ..self
        }
    }

    /// The parity to move at this node.
    pub fn to_move(&self) -> Parity {
        self.to_move
    }

    /// Whether this is the root (nothing spent: every move costs at least 1) about to try its first
    /// move, which is searched whatever it costs: an iteration must produce a move.
    #[inline(always)]
    fn is_root_first_move(&self, index: usize) -> bool {
        index == 0 && self.spent == [0, 0]
    }
}

/// What one node accumulates over the moves it has tried: Rollason's `total_cost_this_ply` and
/// the similar-moves counts. A fresh `default()` per node.
#[derive(Clone, Copy, Debug, Default)]
pub struct InterestTally {
    /// Sum of the costs (similar-move penalties included) of the moves already explored here.
    pub total_cost_this_ply: u32,
    /// How many moves of each similarity class were already explored here.
    pub similar: SimilarCounts,
}

/// Rollason's interest search as a [`HorizonPolicy`]: a branch ends when the interest it has cost
/// its mover exceeds the iteration's interest limit, not at a fixed depth (Jeff Rollason, *Interest
/// Search — Another Way to Do Minimax*, AI Factory, 2014). See the crate docs for the formula, the
/// parity rule, the parameters and their defaults, and how ambiguities of the article are read.
#[derive(Clone, Debug, Default)]
pub struct InterestHorizon<Pl> {
    config: InterestConfig,
    plausibility: Pl,
    /// Built by [`crate::hooks`] together with an [`InterestOrdering`](crate::InterestOrdering)
    /// on the same plausibility and bonuses: the ordering's score of a move is then its interest,
    /// and is not computed again.
    paired: bool,
}

impl<Pl> InterestHorizon<Pl> {
    /// Interest search with the default [`InterestConfig`] and the game's `plausibility`.
    pub fn new(plausibility: Pl) -> InterestHorizon<Pl> {
        InterestHorizon::with_config(InterestConfig::default(), plausibility)
    }

    /// Interest search with explicit parameters.
    pub fn with_config(config: InterestConfig, plausibility: Pl) -> InterestHorizon<Pl> {
        InterestHorizon {
            config,
            plausibility,
            paired: false,
        }
    }

    /// This horizon, told that the engine's ordering scores are its own interests (see
    /// [`crate::hooks`]).
    pub(crate) fn paired(self) -> InterestHorizon<Pl> {
        InterestHorizon {
            paired: true,
            ..self
        }
    }

    /// The parameters.
    pub fn config(&self) -> &InterestConfig {
        &self.config
    }

    /// The plausibility function.
    pub fn plausibility(&self) -> &Pl {
        &self.plausibility
    }

    /// The plausibility function, mutably (to feed per-search hints such as killers).
    pub fn plausibility_mut(&mut self) -> &mut Pl {
        &mut self.plausibility
    }

    /// The base cost of a move of `interest`: `max(1, scale / interest)`. Never 0, so every branch
    /// ends.
    #[inline]
    pub fn cost(&self, interest: u32) -> u32 {
        (self.config.scale / interest.max(1)).max(1)
    }

    /// The cost of a move with base cost `base` when `similar` moves like it were already searched
    /// at this node: `base × (1 + similar × similar_percent / 100)`.
    ///
    /// Linear rather than geometric growth: a doubling penalty would cap each class at two or three
    /// moves whatever the budget, an absolute width limit Rollason says interest search avoids; a
    /// linear one keeps every move reachable given enough interest.
    #[inline]
    pub fn similar_cost(&self, base: u32, similar: u32) -> u32 {
        let extra = u64::from(base)
            .saturating_mul(u64::from(similar))
            .saturating_mul(u64::from(self.config.similar_percent))
            / 100;
        saturate(u64::from(base) + extra)
    }

    /// The root budget of iteration `iteration`: the limit `iteration × limit_step`, met by both
    /// tallies in full ([`LimitSplit::Whole`]) or shared out as iterative deepening shares plies,
    /// `⌈iteration / 2⌉` steps to the root side and `⌊iteration / 2⌋` to the other
    /// ([`LimitSplit::Alternate`]); with shared parities one tally gets the whole limit.
    pub fn iteration_budget(&self, iteration: u32) -> InterestBudget {
        let step = u64::from(self.config.limit_step.max(1));
        let whole = saturate(step * u64::from(iteration));
        let mut budget = match (self.config.separate_parities, self.config.limits) {
            (false, _) => InterestBudget::root(whole, 0),
            (true, LimitSplit::Whole) => InterestBudget::root(whole, whole),
            (true, LimitSplit::Alternate) => InterestBudget::root(
                saturate(step * u64::from(iteration.div_ceil(2))),
                saturate(step * u64::from(iteration / 2)),
            ),
        };
        let steps = (u64::from(budget.limit[0]) + u64::from(budget.limit[1])) / step;
        budget.nominal = u16::try_from(steps).unwrap_or(NO_NOMINAL_DEPTH - 1);
        budget
    }

    /// The interest of `step.mv`: the ordering's score when paired (it already holds the
    /// bonuses), else the plausibility plus the engine's hints; diminished past the nominal depth.
    #[inline]
    fn interest<G: ZeroSumGame>(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &InterestBudget,
        step: &Step<G::Move>,
    ) -> u32
    where
        Pl: Plausibility<G>,
    {
        let interest = match step.order_score {
            Some(score) if self.paired => score.max(1) as u32,
            _ => self
                .plausibility
                .interest(game, state, step.mv)
                .saturating_add(self.config.bonuses.bonus(step.hints)),
        };
        self.diminished(interest, budget)
    }

    /// Term 15: `interest × (beyond_depth_percent / 100)^k` for a move taking the line `k` plies
    /// past the nominal depth, at least 1.
    #[inline]
    fn diminished(&self, interest: u32, budget: &InterestBudget) -> u32 {
        let percent = u64::from(self.config.beyond_depth_percent);
        if percent >= 100 || budget.nominal == NO_NOMINAL_DEPTH || budget.ply < budget.nominal {
            return interest;
        }
        let beyond = (budget.ply - budget.nominal + 1).min(64);
        let mut x = u64::from(interest);
        for _ in 0..beyond {
            x = x * percent / 100;
            if x <= 1 {
                return 1;
            }
        }
        saturate(x).max(1)
    }

    /// Which tally a move by `mover` charges.
    #[inline(always)]
    fn payer(&self, mover: Parity) -> usize {
        if self.config.separate_parities {
            mover.index()
        } else {
            0
        }
    }
}

#[inline(always)]
fn saturate(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

impl<G: ZeroSumGame, Pl: Plausibility<G>> HorizonPolicy<G> for InterestHorizon<Pl> {
    type Budget = InterestBudget;
    type NodeTally = InterestTally;
    const HINTS: bool = true;

    fn root_budget(&mut self, iteration: u32) -> InterestBudget {
        self.iteration_budget(iteration)
    }

    /// A leaf when the mover cannot afford even the cheapest move (every move costs ≥ 1); otherwise
    /// moves are generated and the first [`child_budget`](HorizonPolicy::child_budget) decides.
    #[inline]
    fn is_leaf(&self, _: &G, _: &G::State, budget: &InterestBudget) -> bool {
        let payer = self.payer(budget.to_move);
        budget.spent[payer] >= budget.limit[payer]
    }

    /// `net_cost = total_path_cost(mover) + sibling_percent% × total_cost_this_ply + cost_this_move`;
    /// `None` once it exceeds the mover's limit, else the child's budget with the mover's
    /// `total_path_cost` raised to `net_cost`. The root's first move is the one exception: it is
    /// searched even beyond the limit (and its mover then has nothing left), so that every iteration
    /// with a non-zero limit yields a move.
    #[inline]
    fn child_budget(
        &mut self,
        game: &G,
        state: &G::State,
        budget: &InterestBudget,
        tally: &mut InterestTally,
        step: Step<G::Move>,
    ) -> Option<InterestBudget> {
        let mover = Parity::of_mover(step.mover_is_root_side);
        let payer = self.payer(mover);
        let interest = self.interest(game, state, budget, &step);
        let base = self.cost(interest);
        let key = if self.config.similar_percent > 0 {
            self.plausibility.similarity(game, state, step.mv)
        } else {
            None
        };
        let cost = match key {
            Some(k) => self.similar_cost(base, tally.similar.count(k)),
            None => base,
        };
        let siblings =
            u64::from(tally.total_cost_this_ply) * u64::from(self.config.sibling_percent) / 100;
        let net_cost = u64::from(budget.spent[payer]) + siblings + u64::from(cost);
        if net_cost > u64::from(budget.limit[payer]) && !budget.is_root_first_move(step.index) {
            return None;
        }
        tally.total_cost_this_ply = tally.total_cost_this_ply.saturating_add(cost);
        if let Some(k) = key {
            tally.similar.record(k);
        }
        let mut child = *budget;
        child.spent[payer] = if self.config.inherit_siblings {
            saturate(net_cost)
        } else {
            budget.spent[payer].saturating_add(cost)
        };
        child.to_move = mover.other();
        child.ply = budget.ply.saturating_add(1);
        Some(child)
    }

    /// The mover moves again: the child's node is played by the mover's parity, not the other's
    /// ([`child_budget`](HorizonPolicy::child_budget) handed it over).
    #[inline]
    fn same_mover(&self, budget: InterestBudget) -> InterestBudget {
        InterestBudget {
            to_move: budget.to_move.other(),
            ..budget
        }
    }

    /// The interest both parities have left, in `limit_step`s: at the root of iteration `i` it is
    /// `i`, and when every move costs one step it is exactly the remaining depth. A later sibling,
    /// charged for its elder siblings, gets a smaller draft, as a reduced search should.
    #[inline]
    fn draft(&self, budget: &InterestBudget) -> u32 {
        let left = u64::from(budget.remaining(Parity::RootSide))
            + u64::from(budget.remaining(Parity::OtherSide));
        saturate(left / u64::from(self.config.limit_step.max(1)))
    }

    /// What the draft forgets: how the remaining interest is split between the parities, who
    /// moves, and (when interest diminishes with depth) how far the node is from the nominal
    /// depth. Budgets (2000, 0) and (1000, 1000) have the same draft but search different trees,
    /// so a table entry of one must not answer for the other. A 16-bit mix of these.
    #[inline]
    fn budget_key(&self, budget: &InterestBudget) -> u16 {
        let to_nominal = if self.config.beyond_depth_percent < 100 {
            (i64::from(budget.nominal) - i64::from(budget.ply)).clamp(-64, 64) as u64
        } else {
            0
        };
        let mixed = (u64::from(budget.remaining(Parity::RootSide)) << 33)
            ^ (u64::from(budget.remaining(Parity::OtherSide)) << 1)
            ^ budget.to_move.index() as u64
            ^ to_nominal.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (mixed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48) as u16
    }
}

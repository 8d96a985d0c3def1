//! [`InterestOrdering`]: search moves in increasing cost, i.e. decreasing interest.

use game_trait::{MoveHints, MoveOrdering, Plausibility, ZeroSumGame};

use crate::config::HintBonuses;

/// Orders moves by the game's plausibility, most interesting (cheapest) first, as interest search
/// requires ("the moves list is then sorted by cost, low to high", Rollason 2014). The engine sorts
/// by descending [`score`](MoveOrdering::score), so the score is the interest itself. Use it
/// together with [`InterestHorizon`](crate::InterestHorizon) on a clone of the same plausibility.
///
/// The engine's hints add Treebeard's dynamic terms ([`HintBonuses`], the same as the horizon's,
/// so that moves are tried in increasing cost). The similar-moves penalty is not part of the order:
/// it depends on which moves were already searched, which a static sort cannot know; the horizon
/// charges it as moves are tried.
#[derive(Clone, Debug)]
pub struct InterestOrdering<Pl> {
    plausibility: Pl,
    bonuses: HintBonuses,
}

impl<Pl: Default> Default for InterestOrdering<Pl> {
    fn default() -> InterestOrdering<Pl> {
        InterestOrdering::new(Pl::default())
    }
}

impl<Pl> InterestOrdering<Pl> {
    /// Orders by `plausibility` plus Treebeard's bonuses ([`HintBonuses::TREEBEARD`], the
    /// default of [`InterestConfig`](crate::InterestConfig)).
    pub fn new(plausibility: Pl) -> InterestOrdering<Pl> {
        InterestOrdering::with_bonuses(plausibility, HintBonuses::TREEBEARD)
    }

    /// Orders by `plausibility` plus `bonuses` for the engine's hints.
    pub fn with_bonuses(plausibility: Pl, bonuses: HintBonuses) -> InterestOrdering<Pl> {
        InterestOrdering {
            plausibility,
            bonuses,
        }
    }

    /// The plausibility function.
    pub fn plausibility(&self) -> &Pl {
        &self.plausibility
    }

    /// The plausibility function, mutably (to feed per-search hints such as killers).
    pub fn plausibility_mut(&mut self) -> &mut Pl {
        &mut self.plausibility
    }
}

impl<G: ZeroSumGame, Pl: Plausibility<G>> MoveOrdering<G> for InterestOrdering<Pl> {
    #[inline]
    fn score(&mut self, game: &G, state: &G::State, mv: G::Move, _depth: u32) -> i32 {
        let interest = self.plausibility.interest(game, state, mv);
        i32::try_from(interest).unwrap_or(i32::MAX)
    }

    const HINTS: bool = true;

    /// The interest plus the bonuses of the engine's hints.
    #[inline]
    fn hinted_score(
        &mut self,
        game: &G,
        state: &G::State,
        mv: G::Move,
        depth: u32,
        hints: MoveHints,
    ) -> i32 {
        let score = self.score(game, state, mv, depth);
        let bonus = i32::try_from(self.bonuses.bonus(hints)).unwrap_or(i32::MAX);
        score.saturating_add(bonus)
    }
}

//! [`InterestOrdering`]: search moves in increasing cost, i.e. decreasing interest.

use game_trait::{MoveOrdering, Plausibility, ZeroSumGame};

/// Orders moves by the game's plausibility, most interesting (cheapest) first, as interest search
/// requires ("the moves list is then sorted by cost, low to high", Rollason 2014). The engine sorts
/// by descending [`score`](MoveOrdering::score), so the score is the interest itself. Use it
/// together with [`InterestHorizon`](crate::InterestHorizon) on a clone of the same plausibility.
///
/// The similar-moves penalty is not part of the order: it depends on which moves were already
/// searched, which a static sort cannot know; the horizon charges it as moves are tried.
#[derive(Clone, Debug, Default)]
pub struct InterestOrdering<Pl> {
    plausibility: Pl,
}

impl<Pl> InterestOrdering<Pl> {
    /// Orders by `plausibility`.
    pub fn new(plausibility: Pl) -> InterestOrdering<Pl> {
        InterestOrdering { plausibility }
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
}

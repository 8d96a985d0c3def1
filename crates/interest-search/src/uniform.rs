//! [`Uniform`]: the plausibility under which interest search is depth-limited search.

use game_trait::{Plausibility, ZeroSumGame};

/// Every move has the same interest and no move is similar to another. With
/// [`sibling_percent`](crate::InterestConfig::sibling_percent) 0 and a `limit_step` equal to the
/// resulting cost, iteration `d` of interest search is exactly the depth-`d` search: the
/// reference point of the crate's tests, and the "interest OFF" baseline inside one engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uniform(pub u32);

impl Default for Uniform {
    /// Interest 100: cost 1000 = one default `limit_step`.
    fn default() -> Uniform {
        Uniform(100)
    }
}

impl<G: ZeroSumGame> Plausibility<G> for Uniform {
    #[inline(always)]
    fn interest(&mut self, _: &G, _: &G::State, _: G::Move) -> u32 {
        self.0.max(1)
    }
}

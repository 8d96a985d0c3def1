//! [`Evaluator`]: static evaluation, and the adapters that turn searchers into evaluators.

use crate::game::{Outcome, ZeroSumGame};
use crate::score::{Bound, Score};
use crate::search::{Limits, Searcher};

/// Static evaluation of a game in progress from its side to move's point of view, in integer units.
///
/// Searchers never ask an evaluator about a finished game: they score its [`Outcome`] with
/// [`terminal`](Evaluator::terminal), whose default puts every win above and every loss below all
/// evaluations. Keep evaluations within `±EVAL_LIMIT` so that this holds. Takes `&mut self` so that
/// a searcher can serve as an evaluator ([`FixedDepth`]).
pub trait Evaluator<G: ZeroSumGame> {
    /// The value of `state`, a game in progress, for its side to move.
    fn evaluate(&mut self, game: &G, state: &G::State) -> Score;

    /// The value of `state` as a search with the window `(alpha, beta)` needs it, and what it
    /// says about the state's true value, fail-soft: a value strictly inside the window is exact,
    /// a value `≤ alpha` may be an upper bound and a value `≥ beta` a lower bound. The engine
    /// calls this at its horizon leaves.
    ///
    /// The default is [`evaluate`](Evaluator::evaluate), exact. Evaluators that search below the
    /// horizon override it to stop as soon as the window is decided: an exact endgame solver, a
    /// quiescence search. The window is the engine's business: it passes one under which these
    /// bounds keep its own bookkeeping right.
    #[inline]
    fn evaluate_window(
        &mut self,
        game: &G,
        state: &G::State,
        alpha: Score,
        beta: Score,
    ) -> (Score, Bound) {
        let _ = (alpha, beta);
        (self.evaluate(game, state), Bound::Exact)
    }

    /// The score of the finished game `state`, which ended in `outcome` for its side to move. The
    /// default, [`Outcome::score`], ranks every win above and every loss below all evaluations.
    /// Evaluators whose scale *is* the game's result override it to return
    /// [`outcome.margin()`](Outcome::margin): exact solvers counting discs, random trees whose leaf
    /// values are costs on the evaluation's scale.
    #[inline]
    fn terminal(&mut self, game: &G, state: &G::State, outcome: Outcome) -> Score {
        let _ = (game, state);
        outcome.score()
    }

    /// The value of any state: [`terminal`](Evaluator::terminal) of its outcome if the game is
    /// over, else [`evaluate`](Evaluator::evaluate). For callers outside a search (forward
    /// estimation's sampling, a conspiracy tree's leaves); searchers test the outcome themselves.
    #[inline]
    fn value(&mut self, game: &G, state: &G::State) -> Score {
        match game.outcome(state) {
            Some(outcome) => self.terminal(game, state, outcome),
            None => self.evaluate(game, state),
        }
    }

    /// Forgets what earlier evaluations learned, so that the evaluator answers as a fresh one
    /// would. The default does nothing: for evaluators that keep nothing (a static evaluation).
    /// Evaluators with state override it ([`FixedDepth`] resets its searcher's table).
    ///
    /// A searcher that owns an evaluator calls it once it is itself
    /// [reset](crate::Reset::reset): at the start of its next search, because
    /// [`Reset`](crate::Reset) does not name the game.
    #[inline]
    fn reset(&mut self) {}
}

impl<G: ZeroSumGame, E: Evaluator<G> + ?Sized> Evaluator<G> for &mut E {
    #[inline]
    fn evaluate(&mut self, game: &G, state: &G::State) -> Score {
        (**self).evaluate(game, state)
    }

    #[inline]
    fn evaluate_window(
        &mut self,
        game: &G,
        state: &G::State,
        alpha: Score,
        beta: Score,
    ) -> (Score, Bound) {
        (**self).evaluate_window(game, state, alpha, beta)
    }

    #[inline]
    fn terminal(&mut self, game: &G, state: &G::State, outcome: Outcome) -> Score {
        (**self).terminal(game, state, outcome)
    }

    #[inline]
    fn reset(&mut self) {
        (**self).reset()
    }
}

/// Every game in progress is worth 0; finished games are scored by [`Outcome::score`]. The
/// evaluator for solving small games outright.
#[derive(Clone, Copy, Debug, Default)]
pub struct OutcomeOnly;

impl<G: ZeroSumGame> Evaluator<G> for OutcomeOnly {
    #[inline]
    fn evaluate(&mut self, _: &G, _: &G::State) -> Score {
        0
    }
}

/// Every game in progress is worth 0; finished games are scored by their raw margin (disc
/// difference, goal difference). For exact endgame solvers, whose searches only reach finished
/// games and whose scores are margins.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarginOnly;

impl<G: ZeroSumGame> Evaluator<G> for MarginOnly {
    #[inline]
    fn evaluate(&mut self, _: &G, _: &G::State) -> Score {
        0
    }

    #[inline]
    fn terminal(&mut self, _: &G, _: &G::State, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

/// A searcher run to a fixed depth, used as an evaluator: the value of a state is the value the
/// searcher returns for it. This is how searchers compose, e.g. the conspiracy-number player
/// evaluates the leaves of its layer with a shallow α/β.
///
/// ```
/// # use game_trait::{Evaluator, FixedDepth, Searcher, ZeroSumGame};
/// fn shallow<G: ZeroSumGame, S: Searcher<G>>(searcher: S) -> impl Evaluator<G> {
///     FixedDepth::new(searcher, 2)
/// }
/// ```
#[derive(Clone, Debug)]
pub struct FixedDepth<S> {
    /// The searcher that evaluates.
    pub searcher: S,
    /// Depth of each evaluating search.
    pub depth: u32,
    /// Nodes generated by all evaluating searches so far.
    pub nodes: u64,
}

impl<S> FixedDepth<S> {
    /// Evaluates with `searcher` at `depth` plies.
    pub fn new(searcher: S, depth: u32) -> FixedDepth<S> {
        FixedDepth {
            searcher,
            depth,
            nodes: 0,
        }
    }
}

impl<G: ZeroSumGame, S: Searcher<G>> Evaluator<G> for FixedDepth<S> {
    fn evaluate(&mut self, game: &G, state: &G::State) -> Score {
        let result = self
            .searcher
            .search(game, state, &Limits::depth(self.depth));
        self.nodes += result.stats.generated;
        result.value
    }

    /// What the searcher says of the finished game: its own evaluator's score of the outcome.
    fn terminal(&mut self, game: &G, state: &G::State, _: Outcome) -> Score {
        self.evaluate(game, state)
    }

    /// Resets the searcher ([`Reset::reset`](crate::Reset::reset)): its table and history are
    /// forgotten. The node count is kept: it counts work done, not knowledge.
    fn reset(&mut self) {
        self.searcher.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::search::{Reset, SearchResult};
    use crate::testing::{Nim, Pile};

    /// A searcher that only counts its searches and resets.
    #[derive(Default)]
    struct Counter {
        searches: u32,
        resets: u32,
    }

    impl Reset for Counter {
        fn reset(&mut self) {
            self.resets += 1;
        }
    }

    impl Searcher<Nim> for Counter {
        fn search(&mut self, _: &Nim, _: &Pile, _: &Limits) -> SearchResult<u32> {
            self.searches += 1;
            SearchResult::leaf(0)
        }
    }

    #[test]
    fn fixed_depth_resets_its_searcher() {
        let mut eval = FixedDepth::new(Counter::default(), 2);
        eval.evaluate(&Nim, &Nim.initial_state());
        Evaluator::<Nim>::reset(&mut eval);
        Evaluator::<Nim>::reset(&mut &mut eval);
        assert_eq!((eval.searcher.searches, eval.searcher.resets), (1, 2));
    }
}

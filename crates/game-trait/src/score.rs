//! Integer scores and what a returned value means: [`Bound`] (exact, lower, upper) and [`NodeKind`].

use serde::{Deserialize, Serialize};

/// A value from the side to move's point of view. Larger is better for the side to move.
pub type Score = i32;

/// Larger than every score a search can return; the full window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Score = 1_000_000_000;

/// Base of the band that finished games occupy: a win scores `WIN + result`, a loss `-WIN + result`
/// (see [`terminal_score`]). Static evaluations must stay within `±EVAL_LIMIT`, so that every won
/// terminal outcome dominates every evaluation.
pub const WIN: Score = 500_000_000;

/// Bound on the magnitude of static evaluations (and of `result`s passed to [`terminal_score`]).
pub const EVAL_LIMIT: Score = 100_000_000;

/// Maps the final result of a finished game (side to move's view, natural unit) to a score that
/// dominates every static evaluation: wins above `WIN`, losses below `-WIN`, draws 0. Larger wins
/// still score higher, so a searcher prefers the bigger margin.
pub fn terminal_score(result: i32) -> Score {
    let result = result.clamp(-EVAL_LIMIT, EVAL_LIMIT);
    match result.signum() {
        1 => WIN + result,
        -1 => -WIN + result,
        _ => 0,
    }
}

/// Whether `score` is in the band of won or lost finished games (see [`terminal_score`]).
pub fn is_decisive(score: Score) -> bool {
    score.abs() > WIN - EVAL_LIMIT
}

/// What a returned value says about the true (minimax) score of a node.
///
/// The bookkeeping follows the note *Minimax with α/β Pruning* exactly: with upper, exact and lower
/// represented as −1, 0 and +1, [`invert`](Bound::invert) is negation (the negamax step from child
/// to parent) and [`join`](Bound::join) is `max` (two successors returned the same value).
///
/// [`Estimate`](Bound::Estimate) stands outside that algebra: the value of a searcher that weighs
/// or samples rather than bounds (CAEV's conspiracy-adjusted value), which says nothing certain
/// about the score. α/β never produces one; inverting keeps it, and joining with it gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The score is at most the value (a fail-low: every successor was searched, none raised α).
    Upper,
    /// The value is the score.
    Exact,
    /// The score is at least the value (a fail-high: a successor caused a cutoff).
    Lower,
    /// The value estimates the score and bounds it neither way: a weighted average or a sampled
    /// mean, on the searcher's own scale.
    Estimate,
}

impl Bound {
    /// The bound as seen from the other side: a lower bound on a child's score is an upper bound on the
    /// negated score its parent sees (`invert`).
    pub fn invert(self) -> Bound {
        match self {
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
            Bound::Exact => Bound::Exact,
            Bound::Estimate => Bound::Estimate,
        }
    }

    /// The bound of a maximum reached by two successors with equal values: lower if either is lower,
    /// else exact if either is exact, else upper (`join`); an estimate if either is one.
    pub fn join(self, other: Bound) -> Bound {
        self.max(other)
    }

    /// Whether a returned `value` with this bound is consistent with the true `score` (an estimate
    /// is consistent with every score: it claims none).
    pub fn admits(self, value: Score, score: Score) -> bool {
        match self {
            Bound::Exact => score == value,
            Bound::Lower => score >= value,
            Bound::Upper => score <= value,
            Bound::Estimate => true,
        }
    }

    /// Lower-case name: `exact`, `lower`, `upper` or `estimate`.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Upper => "upper",
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Estimate => "estimate",
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The classification of a searched node by its values (Knuth and Moore's types 1–3, named PV, Cut
/// and All as in *Minimax with α/β Pruning*), known only after its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NodeKind {
    /// No successor caused a cutoff and at least one negated successor value met or exceeded α: the
    /// returned value is exact.
    Pv,
    /// A successor caused a cutoff: the returned value is a lower bound.
    Cut,
    /// No negated successor value met or raised α: the returned value is an upper bound.
    All,
}

/// Which comparison ends the loop over successors: the `⋆` in `break if retval ⋆ beta`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cutoff {
    /// `ret ≥ β`: the usual choice; prunes more, and a value equal to α or β may be a bound.
    #[default]
    AtLeastBeta,
    /// `ret > β`: the convention *Minimax with α/β Pruning* prefers for theory; a value equal to α
    /// or β is exact.
    AboveBeta,
}

impl Cutoff {
    /// Whether `value` causes a cutoff against `beta` under this criterion.
    #[inline(always)]
    pub fn fails_high(self, value: Score, beta: Score) -> bool {
        match self {
            Cutoff::AtLeastBeta => value >= beta,
            Cutoff::AboveBeta => value > beta,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invert_and_join_are_negation_and_max_of_minus_one_zero_one() {
        let code = |b: Bound| match b {
            Bound::Upper => -1,
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Estimate => unreachable!("not among the bounds of the algebra"),
        };
        let all = [Bound::Upper, Bound::Exact, Bound::Lower];
        for a in all {
            assert_eq!(code(a.invert()), -code(a));
            for b in all {
                assert_eq!(code(a.join(b)), code(a).max(code(b)));
            }
        }
    }

    #[test]
    fn an_estimate_survives_inversion_and_joins_and_claims_nothing() {
        for b in [Bound::Upper, Bound::Exact, Bound::Lower, Bound::Estimate] {
            assert_eq!(b.join(Bound::Estimate), Bound::Estimate);
            assert_eq!(Bound::Estimate.join(b), Bound::Estimate);
        }
        assert_eq!(Bound::Estimate.invert(), Bound::Estimate);
        assert!(Bound::Estimate.admits(3, -100) && Bound::Estimate.admits(3, 3));
        assert_eq!(Bound::Estimate.to_string(), "estimate");
    }

    #[test]
    fn terminal_scores_dominate_evaluations_and_keep_their_order() {
        assert!(terminal_score(1) > EVAL_LIMIT);
        assert!(terminal_score(-1) < -EVAL_LIMIT);
        assert_eq!(terminal_score(0), 0);
        assert!(terminal_score(64) > terminal_score(2));
        assert!(terminal_score(-2) > terminal_score(-64));
        assert!(is_decisive(terminal_score(3)) && !is_decisive(EVAL_LIMIT));
        assert!(terminal_score(i32::MAX) < INFINITY);
    }
}

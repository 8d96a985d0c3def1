//! [`Scale`] and [`Reading`]: what a searcher's value means for the game at hand, said the way a
//! player would say it ("win by 2", "draw", "ahead by 1.5", "expected payoff 0.54").

use std::fmt;

use crate::score::{is_decisive, Score, WIN};

/// The scale a searcher's values are on, to read them as the game's result ([`Scale::read`]).
///
/// A [`Score`] is on one of three scales, and only whoever built the searcher knows which (the
/// `gametree` facade's kit records it with every searcher it builds):
///
/// | searcher | scale |
/// |---|---|
/// | α/β, PVS, MTD(f), Minimax, forward estimation, interest search, conspiracy numbers, with an evaluator that keeps the default [`Evaluator::terminal`](crate::Evaluator::terminal) | [`Scale::Evaluation`]: finished games in the band of [`terminal_score`](crate::terminal_score) (a win by `m` scores [`WIN`](crate::WIN)` + m`), games in progress in the evaluation's units |
/// | the same searchers solving a game whose evaluator scores a finished game by its margin (`terminal` returns [`Outcome::margin`](crate::Outcome::margin), as [`MarginOnly`](crate::MarginOnly) does) | [`Scale::Margin`]: the value is the result |
/// | UCT, MAC-UCB (a mean payoff in `[0, 1]` as `round((2·mean − 1) · 1000)`) | [`Scale::Payoff`] with `half_width` 1000 ([`Scale::MEAN_PAYOFF`]) |
///
/// What a value proves is its [`Bound`](crate::Bound), which a reading leaves as it is: a lower
/// bound that reads "win by 2" is a win by at least 2.
///
/// ```
/// use game_trait::{terminal_score, Reading, Scale};
///
/// // A GDL win by 100 goal points, found by PVS: the value is WIN + 100.
/// let evaluation = Scale::Evaluation { unit: 1000 };
/// assert_eq!(evaluation.read(terminal_score(100)), Reading::Win { by: 100 });
/// assert_eq!(evaluation.read(terminal_score(100)).to_string(), "win by 100");
/// assert_eq!(evaluation.read(-2500).to_string(), "behind by 2.50 units");
/// // Dots and Boxes solved with the box difference as the score of a finished game.
/// assert_eq!(Scale::Margin.read(2).to_string(), "win by 2");
/// assert_eq!(Scale::Margin.read(0), Reading::Draw);
/// // UCT's 86 on its ±1000 scale: a mean payoff of 0.543.
/// assert_eq!(Scale::MEAN_PAYOFF.read(86).to_string(), "expected payoff 0.543");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// An evaluation: finished games in the band of [`terminal_score`](crate::terminal_score),
    /// read as a win or a loss by their margin; any other value in the evaluation's units, `unit`
    /// (at least 1) being one clear advantage, read as how far ahead the side to move is.
    Evaluation {
        /// One clear advantage, in evaluation units (the `unit` of the facade's kit).
        unit: Score,
    },
    /// Final margins: the value is the game's result for the side to move, a win, a draw or a
    /// loss by that much. Right for a search that reached the end of the game with an evaluator
    /// that scores finished games by their margin; on a search cut short by its depth, read the
    /// same values with `Evaluation { unit: 1 }` instead.
    Margin,
    /// A mean payoff in `[0, 1]` (a win 1, a draw ½, a loss 0) mapped to `±half_width`: read as
    /// the expected payoff, the chance of winning where a game cannot be drawn. Such values are
    /// estimates, whatever bound their searcher reports.
    Payoff {
        /// The value of a certain win (at least 1).
        half_width: Score,
    },
}

/// What a value says, in the terms of the game: see [`Scale::read`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reading {
    /// The side to move wins by `by` (in the game's unit: discs, boxes, goal points).
    Win {
        /// The margin, at least 1 on the evaluation scale.
        by: i32,
    },
    /// A draw (only on the [`Margin`](Scale::Margin) scale: an evaluation of 0 may be a draw or
    /// an even game in progress, and reads as [`Ahead`](Reading::Ahead) by 0).
    Draw,
    /// The side to move loses by `by`.
    Loss {
        /// The margin, positive.
        by: i32,
    },
    /// A game in progress, the side to move ahead by `units` clear advantages (behind if negative).
    Ahead {
        /// The value divided by the evaluation's unit.
        units: f64,
    },
    /// The side to move's expected payoff, in `[0, 1]`.
    Payoff {
        /// A win 1, a draw ½, a loss 0, averaged.
        mean: f64,
    },
}

impl Scale {
    /// UCT's and MAC-UCB's scale: a mean payoff as `round((2·mean − 1) · 1000)` (search-core's
    /// `uct::VALUE_SCALE` is the 1000).
    pub const MEAN_PAYOFF: Scale = Scale::Payoff { half_width: 1000 };

    /// What `value`, from the side to move's point of view, says on this scale.
    pub fn read(self, value: Score) -> Reading {
        match self {
            Scale::Evaluation { .. } if is_decisive(value) && value > 0 => {
                Reading::Win { by: value - WIN }
            }
            Scale::Evaluation { .. } if is_decisive(value) => Reading::Loss { by: -value - WIN },
            Scale::Evaluation { unit } => Reading::Ahead {
                units: f64::from(value) / f64::from(unit.max(1)),
            },
            Scale::Margin => match value.signum() {
                1 => Reading::Win { by: value },
                0 => Reading::Draw,
                _ => Reading::Loss {
                    by: value.saturating_neg(),
                },
            },
            Scale::Payoff { half_width } => {
                let share = f64::from(value) / f64::from(half_width.max(1));
                Reading::Payoff {
                    mean: ((share + 1.0) / 2.0).clamp(0.0, 1.0),
                }
            }
        }
    }
}

impl fmt::Display for Reading {
    /// `win by 2`, `draw`, `loss by 3`, `ahead by 1.25 units`, `behind by 0.50 units`, `even`,
    /// `expected payoff 0.543`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reading::Win { by } => write!(f, "win by {by}"),
            Reading::Draw => f.write_str("draw"),
            Reading::Loss { by } => write!(f, "loss by {by}"),
            Reading::Ahead { units } if units > 0.0 => write!(f, "ahead by {units:.2} units"),
            Reading::Ahead { units } if units < 0.0 => write!(f, "behind by {:.2} units", -units),
            Reading::Ahead { .. } => f.write_str("even"),
            Reading::Payoff { mean } => write!(f, "expected payoff {mean:.3}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{terminal_score, Outcome, EVAL_LIMIT, INFINITY};

    #[test]
    fn finished_games_read_as_their_outcome_and_evaluations_in_units() {
        let scale = Scale::Evaluation { unit: 100 };
        for margin in [1, 2, 64, EVAL_LIMIT] {
            let win = Outcome::margin_of(margin);
            assert_eq!(scale.read(win.score()), Reading::Win { by: margin });
            let loss = win.for_opponent();
            assert_eq!(scale.read(loss.score()), Reading::Loss { by: margin });
        }
        assert_eq!(scale.read(terminal_score(0)), Reading::Ahead { units: 0.0 });
        assert_eq!(scale.read(EVAL_LIMIT), Reading::Ahead { units: 1e6 });
        assert_eq!(scale.read(-150).to_string(), "behind by 1.50 units");
        assert_eq!(scale.read(0).to_string(), "even");
        // Bounds beyond the band (a fail-soft ±∞) still read without overflow.
        assert!(matches!(scale.read(INFINITY), Reading::Win { .. }));
        assert!(matches!(scale.read(-INFINITY), Reading::Loss { .. }));
    }

    #[test]
    fn margins_and_payoffs_read_as_results_and_chances() {
        assert_eq!(Scale::Margin.read(-3), Reading::Loss { by: 3 });
        assert_eq!(
            Scale::Margin.read(i32::MIN).to_string(),
            "loss by 2147483647"
        );
        for (value, mean) in [
            (1000, 1.0),
            (0, 0.5),
            (-1000, 0.0),
            (500, 0.75),
            (5000, 1.0),
        ] {
            assert_eq!(Scale::MEAN_PAYOFF.read(value), Reading::Payoff { mean });
        }
        assert_eq!(
            Scale::MEAN_PAYOFF.read(-86).to_string(),
            "expected payoff 0.457"
        );
    }
}

//! [`ConspiracyError`]: every way a configuration of this crate can be invalid.

use thiserror::Error;

/// Why a configuration was rejected. Each variant names the parameter and the value given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConspiracyError {
    /// A grid or CAEV step must be positive.
    #[error("{parameter} must be positive, got {value}")]
    NonPositive {
        /// The parameter (`step`, `range`, `w`, `cn_depth`).
        parameter: &'static str,
        /// The value given.
        value: i64,
    },
    /// The CAEV window `[m - range, m + range]` must be cut into whole segments of `step`.
    #[error("range {range} is not a multiple of step {step}")]
    RangeNotMultipleOfStep {
        /// RANGE as given.
        range: i64,
        /// STEP as given.
        step: i64,
    },
    /// A grid of values must hold at least one value and not more than the given limit.
    #[error("grid of {len} values is out of range 1..={max}")]
    GridLength {
        /// Number of values asked for.
        len: usize,
        /// The largest grid accepted.
        max: usize,
    },
    /// A parameter above the largest value this crate accepts.
    #[error("{parameter} = {value} is too large; at most {max}")]
    TooLarge {
        /// The parameter (`t`, `range`).
        parameter: &'static str,
        /// The value given.
        value: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// The lower end of a value interval lies above its upper end.
    #[error("empty value interval: {low} > {high}")]
    EmptyInterval {
        /// Lower end given.
        low: i64,
        /// Upper end given.
        high: i64,
    },
}

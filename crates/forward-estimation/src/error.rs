//! [`FeError`]: bad parameters for forward estimation.

/// Why forward estimation could not be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FeError {
    /// δ of conditions (3) must lie in `[0, 1]`.
    #[error("delta must be in [0, 1], got {delta}")]
    Delta {
        /// The δ given.
        delta: f64,
    },
    /// Off-line learning needs at least one sampled game.
    #[error("off-line learning needs at least one sample game")]
    NoSamples,
    /// The sampled games contained no edge between two unfinished positions to learn from.
    #[error("the {samples} sampled games had no edge between two unfinished positions")]
    NoEdges {
        /// How many games were sampled.
        samples: usize,
    },
}

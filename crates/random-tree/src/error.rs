//! [`ConfigError`]: why a tree configuration was rejected.

/// Why a [`RandomTreeConfig`](crate::RandomTreeConfig) was rejected: one variant per parameter at
/// fault, so that a caller can say which one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The branching factor (`b`, or `B` for random branching) is 0.
    #[error("invalid random tree: the branching factor must be at least 1")]
    NoBranching,
    /// The smallest edge cost is above the largest.
    #[error("invalid random tree: empty edge-cost range: lo = {lo} > hi = {hi}")]
    EmptyEdgeRange {
        /// The smallest edge cost given.
        lo: i32,
        /// The largest edge cost given.
        hi: i32,
    },
    /// A node's cost could leave the evaluators' range: `depth · widest > limit`.
    #[error(
        "invalid random tree: node costs could reach {depth} · {widest}, beyond the evaluators' \
         limit {limit}"
    )]
    CostOverflow {
        /// The depth.
        depth: u16,
        /// The largest magnitude of an edge cost, `max(|lo|, |hi|)`.
        widest: i64,
        /// The evaluators' limit, `EVAL_LIMIT`.
        limit: i32,
    },
}

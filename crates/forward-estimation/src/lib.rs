//! Zhang's *forward estimation* (W. Zhang, *Forward Estimation for Minimax Search*, USC/ISI research
//! report ISI/RR-95-429, January 1995) as a forward-pruning hook for α/β.
//!
//! Forward estimation bounds the minimax value of a subtree before searching it, from nothing but the
//! static value `c` of its root, its depth `d`, and bounds `[l, u]` on the edge costs (the change of
//! static value along one move): the value lies in `[c + l·d, c + u·d]`. A MIN subtree that cannot rise
//! above α, or a MAX subtree that cannot fall below β, is skipped. With exact bounds the result equals
//! α/β's; with bounds scaled by δ < 1 it becomes a cheap selective search.
//!
//! # Should I use this crate?
//! Use it with any α/β engine that takes a game-trait [`ForwardPruning`](game_trait::ForwardPruning)
//! hook (search-core's `AlphaBeta::with_pruning`), on any game with a static evaluator that is
//! meaningful at interior nodes. It is strongest where static values change by bounded steps, such as
//! incremental random trees.
//!
//! # Contents
//! - [`ForwardEstimation`]: the hook; conditions (1)–(3) of the paper, their negamax derivation, δ.
//! - [`EdgeBounds`]: exact, off-line learned, or on-line learned bounds.
//! - [`Reading`]: the literal reading of the conditions, or the node-cut reading.
//! - [`learn_offline`] and [`LearnedEdges`]: sampling games to learn bounds.
//!
//! # Parameters
//! | parameter | default | meaning |
//! |---|---|---|
//! | `bounds` ([`EdgeBounds`]) | none: exact bounds when the game knows them (random trees), else learned | the edge-cost bounds `l`, `u` |
//! | `delta` ([`ForwardEstimation::with_delta`]) | 1.0 | δ of conditions (3): `δ·l`, `δ·u`; below 1 a selective search |
//! | `reading` ([`Reading`]) | `Literal` | condition (1) on every child, or the node-cut reading that reproduces the paper's Table 1 |
//!
//! # Complexity
//! Per generated child the hook does `O(1)` work (one comparison; on-line bounds add a running
//! minimum and maximum). It needs the static value of every generated node, not only of the
//! leaves, so the engine evaluates interior nodes too. With exact bounds and δ = 1 the search
//! generates a subset of α/β's nodes and returns α/β's value; how many it saves depends on the tree
//! and the bounds (on Zhang's random trees of mean branching 5 and depth 10, about 40 % in the
//! literal reading and 50 % in the node-cut one: the repository's `docs/reproductions.md`). [`learn_offline`] evaluates every child of every position
//! of its sampled games: `O(samples · plies · b)` evaluations.
//!
//! # Example
//! ```
//! use forward_estimation::{EdgeBounds, ForwardEstimation};
//!
//! // The paper's random trees: edge costs in {−2^15 + 1, …, 2^15}, searched exactly…
//! let exact = ForwardEstimation::new(EdgeBounds::Exact { l: -32767, u: 32768 });
//! // …or selectively, with on-line learned bounds shrunk by δ = 0.5 (the paper's game-playing setup).
//! let selective = ForwardEstimation::new(EdgeBounds::Online).with_delta(0.5)?;
//! assert_eq!(selective.name(), "fe:bounds=online,delta=0.5");
//! // With search-core: `AlphaBeta::new(NodeCost).with_pruning(exact)`.
//! # let _ = exact;
//! # Ok::<(), forward_estimation::FeError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bounds;
mod error;
mod estimation;
mod learn;
mod reading;

pub use bounds::EdgeBounds;
pub use error::FeError;
pub use estimation::ForwardEstimation;
pub use learn::{learn_offline, LearnedEdges, MAX_SAMPLE_PLIES};
pub use reading::Reading;

#[cfg(test)]
mod tests;

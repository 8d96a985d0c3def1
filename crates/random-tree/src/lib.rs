//! Incremental random game trees (Korf, Pemberton and Zhang, *Incremental random search trees*, 1994):
//! the test bed of Zhang's *Forward Estimation for Minimax Search* (ISI/RR-95-429, 1995).
//!
//! A tree has depth `d`; every interior node has either exactly `b` children (uniform trees) or a number
//! drawn uniformly from `{1, …, B}` (random trees, mean `b = (B + 1)/2`; the root gets the mean); each
//! edge has an integer cost drawn independently and uniformly from `{l, …, u}` (by default the paper's
//! `{−2^15 + 1, …, 2^15}`); a node's cost is the sum of the edge costs on its path; the root is a MAX
//! node of cost 0. Nodes' costs are correlated along shared paths, as the values of real game
//! positions are.
//!
//! # Should I use this crate?
//! Use it to measure game-tree searchers on trees of any size with known statistics: a [`Node`] is 16
//! bytes and generating a child is a couple of 64-bit multiplications, so trees are never stored and
//! depth 100 is as cheap as depth 10. Every random quantity is a pure function of the tree's seed and
//! the node's path, so any search order sees the same tree and a seed names the same tree everywhere.
//!
//! # Contents
//! - [`RandomTreeConfig`] and [`Branching`].
//! - [`RandomTree`]: the tree, a game-trait [`Game`](game_trait::Game) and
//!   [`ZeroSumGame`](game_trait::ZeroSumGame); [`RandomTree::exact_edge_bounds`] gives `(l, u)`.
//! - [`Node`]: a position (key, cost, depth, branching).
//! - [`NodeCost`]: the static evaluator (the node's cost from the side to move's view, at every node).
//! - [`StaticOrdering`]: children searched best static value first, the ordering of Zhang's alpha-beta.
//! - [`EdgePlausibility`]: a move's interest and similarity key for Rollason's interest search.
//!
//! # Example
//! ```
//! use game_trait::{Evaluator, Game, MoveList, ZeroSumGame};
//! use random_tree::{NodeCost, RandomTree, RandomTreeConfig};
//!
//! let tree = RandomTree::new(RandomTreeConfig::uniform(3, 4).with_seed(7))?;
//! let root = tree.initial_state();
//! assert_eq!((root.cost(), root.branching()), (0, 3));
//!
//! // A child is a pure function of its parent and its index.
//! let a = tree.child(&root, 2);
//! assert_eq!(a, tree.child(&root, 2));
//! let (l, u) = tree.exact_edge_bounds();
//! assert!((l..=u).contains(&a.cost()));
//!
//! // Values are from the side to move's point of view: MIN moves at ply 1.
//! assert_eq!(NodeCost.evaluate(&tree, &a), -a.cost());
//! let mut moves = MoveList::new();
//! tree.moves(&a, &mut moves);
//! assert_eq!(moves.as_slice(), &[0, 1, 2]);
//! # Ok::<(), random_tree::ConfigError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod config;
mod error;
mod mix;
mod ordering;
mod plausibility;
mod tree;

pub use config::{Branching, RandomTreeConfig, MAX_RANDOM_MEAN, PAPER_MAX_EDGE, PAPER_MIN_EDGE};
pub use error::ConfigError;
pub use ordering::StaticOrdering;
pub use plausibility::EdgePlausibility;
pub use tree::{Node, NodeCost, RandomTree};

#[cfg(test)]
mod tests;

//! [`RandomTree`], its [`Node`]s, the game-trait implementation and the [`NodeCost`] evaluator.

use game_trait::{Evaluator, Game, MoveList, Outcome, PlayerId, Score, ZeroSumGame};

use crate::config::{Branching, RandomTreeConfig};
use crate::error::ConfigError;
use crate::mix;

/// A node of a random tree: everything needed to generate its children, in 16 bytes, `Copy`.
///
/// Costs are `i32`: [`RandomTreeConfig::validate`] guarantees `d · max(|l|, |u|) ≤ EVAL_LIMIT`
/// (10^8), so a path cost can never overflow (the paper's largest tree, `d = 100` with costs up to
/// 2^15, reaches at most 3 276 800).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    key: u64,
    cost: i32,
    depth: u16,
    branching: u16,
}

impl Node {
    /// The node's 64-bit key: a hash of the tree seed and the node's path. Also its
    /// [`Game::state_hash`].
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The node's cost: the sum of the edge costs from the root, in MAX's view (the root has cost 0).
    pub fn cost(&self) -> i32 {
        self.cost
    }

    /// Ply of the node (root = 0).
    pub fn depth(&self) -> u16 {
        self.depth
    }

    /// Number of children (0 exactly at the leaves, which are at depth `d`).
    pub fn branching(&self) -> u16 {
        self.branching
    }

    /// Whether MAX (player 0, the root's player) moves here: MAX moves at even plies.
    pub fn is_max(&self) -> bool {
        self.depth % 2 == 0
    }

    /// The cost from the side to move's point of view: the node's static value under negamax.
    pub fn value(&self) -> i32 {
        if self.is_max() {
            self.cost
        } else {
            -self.cost
        }
    }
}

/// An incremental random tree (Korf, Pemberton and Zhang 1994), the test bed of Zhang's forward
/// estimation: depth `d`, uniform or random branching, independent uniform integer edge costs, a node's
/// cost the sum of the edge costs on its path, the root a MAX node of cost 0.
///
/// Nothing is stored: each child is a pure function of its parent's key and its index (a SplitMix64
/// mix of the two), so a depth-100 tree costs nothing, every algorithm sees the same tree whatever order
/// it visits nodes in, and a seed names the same tree on every machine.
///
/// As a [`Game`], MAX (player 0) moves at even plies and MIN at odd ones; moves are child indices
/// `0..branching`; the leaves (depth `d`) are finished games whose result is their cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomTree {
    config: RandomTreeConfig,
    span: u64,
}

impl RandomTree {
    /// The tree `config` describes.
    pub fn new(config: RandomTreeConfig) -> Result<RandomTree, ConfigError> {
        config.validate()?;
        let span = (i64::from(config.max_edge) - i64::from(config.min_edge) + 1) as u64;
        Ok(RandomTree { config, span })
    }

    /// The tree's parameters.
    pub fn config(&self) -> &RandomTreeConfig {
        &self.config
    }

    /// The root: a MAX node with cost 0 and (for random branching) the mean branching factor.
    pub fn root(&self) -> Node {
        Node {
            key: mix::root_key(self.config.seed),
            cost: 0,
            depth: 0,
            branching: if self.config.depth == 0 {
                0
            } else {
                self.config.branching.root()
            },
        }
    }

    /// Child `index` of `parent` (`index < parent.branching()`): a few multiplications, no allocation.
    #[inline]
    pub fn child(&self, parent: &Node, index: u16) -> Node {
        debug_assert!(index < parent.branching);
        let key = mix::child_key(parent.key, u32::from(index));
        let edge = self.config.min_edge + mix::below(key, self.span) as i32;
        let depth = parent.depth + 1;
        let branching = if depth >= self.config.depth {
            0
        } else {
            match self.config.branching {
                Branching::Uniform(b) => b,
                Branching::Random { max } => {
                    1 + mix::below(mix::branching_word(key), u64::from(max)) as u16
                }
            }
        };
        Node {
            key,
            cost: parent.cost + edge,
            depth,
            branching,
        }
    }

    /// The exact minimal and maximal edge costs `(l, u)`: the bounds forward estimation needs to be
    /// exact (equal to α/β's value).
    pub fn exact_edge_bounds(&self) -> (i32, i32) {
        (self.config.min_edge, self.config.max_edge)
    }
}

impl Game for RandomTree {
    type State = Node;
    type Move = u16;

    /// A hash of the configuration: trees of different shapes or seeds are different games.
    fn identity(&self) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.config.hash(&mut hasher);
        Some(hasher.finish())
    }

    fn initial_state(&self) -> Node {
        self.root()
    }

    #[inline]
    fn apply(&self, node: &mut Node, index: u16) -> Option<Node> {
        Some(self.child(node, index))
    }

    #[inline]
    fn state_hash(&self, node: &Node) -> Option<u64> {
        Some(node.key)
    }

    fn move_name(&self, _: &Node, index: u16) -> String {
        index.to_string()
    }
}

impl ZeroSumGame for RandomTree {
    /// MAX and MIN take turns, ply by ply.
    const ALTERNATES: bool = true;

    /// MAX (player 0) moves at even depths, MIN (player 1) at odd ones.
    #[inline]
    fn side_to_move(&self, node: &Node) -> PlayerId {
        usize::from(node.depth % 2)
    }

    /// At a leaf, its cost from the side to move's point of view: the paper's "static value of this
    /// leaf is the outcome of the game". MAX wins when the cost is positive, MIN when negative.
    #[inline]
    fn outcome(&self, node: &Node) -> Option<Outcome> {
        (node.branching == 0).then(|| Outcome::margin_of(node.value()))
    }

    #[inline]
    fn moves(&self, node: &Node, moves: &mut MoveList<u16>) {
        moves.extend(0..node.branching);
    }
}

/// The paper's static evaluator: a node's cost, from the side to move's point of view, at **every**
/// node (interior nodes have static values, which forward estimation needs).
///
/// Leaves are scored by their raw cost too ([`terminal`](Evaluator::terminal) returns the
/// outcome's margin, not [`Outcome::score`]): in the paper a leaf's value *is* its cost, and forward
/// estimation's bounds `c + u·d` are only meaningful if leaves and interior nodes share one scale.
/// Costs stay within `±EVAL_LIMIT` by [`RandomTreeConfig::validate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeCost;

impl Evaluator<RandomTree> for NodeCost {
    #[inline(always)]
    fn evaluate(&mut self, _: &RandomTree, node: &Node) -> Score {
        node.value()
    }

    #[inline(always)]
    fn terminal(&mut self, _: &RandomTree, _: &Node, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

//! UCT's search tree: nodes and edges in two flat arenas addressed by `u32` indices (no `Rc`, no
//! per-node allocation), with children created lazily, one per simulation.
//!
//! Each expanded node owns a contiguous range of edges:
//!
//! | node | its edges |
//! |---|---|
//! | `Player(p)` | `p`'s legal moves, each with its child (if created) and `p`'s reward statistics |
//! | `Chance` | the outcomes with their probabilities and children |
//! | `Simultaneous` | every player's moves, player after player (the *arms* of decoupled UCT, each with that player's reward statistics), then the chance outcomes if chance moves too |
//!
//! The child reached by a joint move of a `Simultaneous` node is found in a hash map keyed by the node
//! and the joint move's mixed-radix code, because the product of the players' move counts can be far
//! larger than the handful of joint moves a search ever tries.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use game_trait::{PlayerId, Turn};

/// Index of a node in [`Tree::nodes`].
pub(super) type NodeId = u32;

/// "No child yet".
pub(super) const NONE: NodeId = u32::MAX;

/// The root's index.
pub(super) const ROOT: NodeId = 0;

/// One state of the tree. The state itself is not stored: each simulation replays the moves from a
/// clone of the root, which works the same for copy-make and make/unmake games.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Who acts here.
    pub turn: Turn,
    /// Whether the edges were generated (on the node's second visit; the first is its playout).
    pub expanded: bool,
    /// First edge in [`Tree::edges`].
    pub first_edge: u32,
    /// Number of edges.
    pub edge_count: u32,
    /// `Simultaneous` only: first entry in [`Tree::groups`], which holds `players + 1` offsets (relative
    /// to `first_edge`) delimiting each player's arms and then the chance outcomes.
    pub first_group: u32,
    /// Simulations that went through this node.
    pub visits: u64,
    /// Plies from the root.
    pub depth: u32,
}

/// A move out of a node, with its statistics.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge<M> {
    /// The move (a chance outcome at chance edges).
    pub mv: M,
    /// Child reached by this move (`Player` and `Chance` nodes), or [`NONE`].
    pub child: NodeId,
    /// Times this edge was chosen.
    pub visits: u64,
    /// Sum of the rewards of the player who chose the edge (unused at chance edges).
    pub reward: f64,
    /// Probability of a chance outcome (unused otherwise).
    pub probability: f64,
}

impl<M> Edge<M> {
    pub(super) fn new(mv: M, probability: f64) -> Edge<M> {
        Edge {
            mv,
            child: NONE,
            visits: 0,
            reward: 0.0,
            probability,
        }
    }

    /// Mean reward of the chooser, or `None` before the first visit.
    pub(super) fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.reward / self.visits as f64)
    }
}

/// The search tree of one UCT search.
#[derive(Debug)]
pub(super) struct Tree<M> {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge<M>>,
    pub groups: Vec<u32>,
    /// Children of `Simultaneous` nodes, keyed by `(node, mixed-radix code of the joint move)`.
    pub joint_children: HashMap<(NodeId, u64), NodeId, BuildHasherDefault<FxHasher>>,
}

impl<M: Copy> Tree<M> {
    /// A tree holding only the root, whose turn is `turn`.
    pub(super) fn new(turn: Turn, capacity: usize) -> Tree<M> {
        let mut tree = Tree {
            nodes: Vec::with_capacity(capacity),
            edges: Vec::new(),
            groups: Vec::new(),
            joint_children: HashMap::default(),
        };
        tree.push_node(turn, 0);
        tree
    }

    /// Whether another node fits (indices are `u32`, and [`NONE`] is reserved).
    pub(super) fn has_room(&self) -> bool {
        self.nodes.len() < NONE as usize
    }

    /// Adds an unexpanded node and returns its index.
    pub(super) fn push_node(&mut self, turn: Turn, depth: u32) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            turn,
            expanded: false,
            first_edge: 0,
            edge_count: 0,
            first_group: 0,
            visits: 0,
            depth,
        });
        id
    }

    /// Absolute edge range of `player`'s arms at the `Simultaneous` node `node`; with
    /// `player == players`, the chance outcomes.
    pub(super) fn arms(&self, node: NodeId, player: PlayerId) -> std::ops::Range<usize> {
        let n = &self.nodes[node as usize];
        let g = n.first_group as usize + player;
        let first = n.first_edge as usize;
        first + self.groups[g] as usize..first + self.groups[g + 1] as usize
    }
}

/// Firefox's (and rustc's) multiplicative hash: the map's keys are two small integers, for which
/// SipHash's flood resistance buys nothing and costs a lot.
#[derive(Default, Clone, Copy, Debug)]
pub(super) struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

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
//!
//! A child is always created after its parent, so its index is larger: one pass in index order
//! visits every parent before its children, which is how [`Tree::subtree`] copies the part of a
//! tree below a new root into a fresh, compact one.

use game_trait::hash::FxMap;
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
    /// Simulations of tree-parallel UCT that went through this node and are not yet backed up:
    /// each counts as [`UctConfig::virtual_loss`](super::UctConfig::virtual_loss) extra visits
    /// (always 0 outside a tree-parallel search, and at the end of every search).
    pub pending: u32,
}

/// A move out of a node, with its statistics.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge<M> {
    /// The move (a chance outcome at chance edges).
    pub mv: M,
    /// Child reached by this move (`Player` and `Chance` nodes), or [`NONE`].
    pub child: NodeId,
    /// Times this edge was chosen.
    visits: u64,
    /// Sum of the rewards of the player who chose the edge (unused at chance edges).
    reward: f64,
    /// `reward / visits` and `1 / sqrt(visits)` (0 before the first visit), kept by
    /// [`add`](Edge::add) so that UCB1 reads them instead of dividing and taking a square root
    /// for every edge of every node it passes (43 % of a simulation's time on the Connect Four of
    /// `benches/vs_minimax.rs`, whose playouts are cheap).
    mean: f64,
    inv_sqrt_visits: f64,
    /// Probability of a chance outcome (unused otherwise).
    pub probability: f64,
    /// Simulations of tree-parallel UCT that chose this edge and are not yet backed up: each
    /// counts as [`UctConfig::virtual_loss`](super::UctConfig::virtual_loss) extra visits that
    /// brought no reward (always 0 outside a tree-parallel search, and at the end of every search).
    pub pending: u32,
}

impl<M> Edge<M> {
    pub(super) fn new(mv: M, probability: f64) -> Edge<M> {
        Edge {
            mv,
            child: NONE,
            visits: 0,
            reward: 0.0,
            mean: 0.0,
            inv_sqrt_visits: 0.0,
            probability,
            pending: 0,
        }
    }

    /// Times this edge was chosen.
    #[inline(always)]
    pub(super) fn visits(&self) -> u64 {
        self.visits
    }

    /// Mean reward of the chooser, or `None` before the first visit.
    pub(super) fn mean(&self) -> Option<f64> {
        (self.visits > 0).then_some(self.mean)
    }

    /// Counts `visits` more choices of the edge that brought the chooser `reward` in all.
    #[inline]
    pub(super) fn add(&mut self, visits: u64, reward: f64) {
        self.visits += visits;
        self.reward += reward;
        if self.visits > 0 {
            let n = self.visits as f64;
            self.mean = self.reward / n;
            self.inv_sqrt_visits = n.sqrt().recip();
        }
    }

    /// The UCB1 index `mean + c · sqrt(ln N / n)` given `exploration` = `c · sqrt(ln N)`; +∞
    /// before the first visit.
    #[inline(always)]
    pub(super) fn ucb1(&self, exploration: f64) -> f64 {
        if self.visits == 0 {
            f64::INFINITY
        } else {
            self.mean + exploration * self.inv_sqrt_visits
        }
    }

    /// The index with `virtual_visits` more visits that brought no reward (tree-parallel UCT's
    /// virtual loss), given `log_n` = `ln N` and `c`.
    pub(super) fn ucb1_with(&self, virtual_visits: u64, log_n: f64, c: f64) -> f64 {
        let visits = self.visits + virtual_visits;
        if visits == 0 {
            return f64::INFINITY;
        }
        let n = visits as f64;
        self.reward / n + c * (log_n / n).sqrt()
    }
}

/// The search tree of one UCT search.
#[derive(Debug)]
pub(super) struct Tree<M> {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge<M>>,
    pub groups: Vec<u32>,
    /// Children of `Simultaneous` nodes, keyed by `(node, mixed-radix code of the joint move)`.
    pub joint_children: FxMap<(NodeId, u64), NodeId>,
    /// Each node's [`state_hash`](game_trait::Game::state_hash), parallel to `nodes`, when the tree
    /// is kept for reuse ([`UctConfig::reuse`](super::UctConfig::reuse)); empty otherwise.
    pub keys: Vec<Option<u64>>,
    /// Whether `keys` is kept.
    keyed: bool,
    /// The value, for every player, of the nodes whose subtree is completely explored, when
    /// [`UctConfig::solver`](super::UctConfig::solver) records them.
    pub exact: FxMap<NodeId, Box<[f64]>>,
}

/// The empty tree, with no node at all (not even a root), allocating nothing: what a
/// tree-parallel worker holds while the shared tree is not lent to it.
impl<M> Default for Tree<M> {
    fn default() -> Tree<M> {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            groups: Vec::new(),
            joint_children: FxMap::default(),
            keys: Vec::new(),
            keyed: false,
            exact: FxMap::default(),
        }
    }
}

impl<M: Copy> Tree<M> {
    /// A tree holding only the root, whose turn is `turn`; with `keyed`, it records every node's
    /// key, the root's being `root_key`.
    pub(super) fn new(turn: Turn, capacity: usize, keyed: bool, root_key: Option<u64>) -> Tree<M> {
        let mut tree = Tree {
            nodes: Vec::with_capacity(capacity),
            edges: Vec::new(),
            groups: Vec::new(),
            joint_children: FxMap::default(),
            keys: Vec::new(),
            keyed,
            exact: FxMap::default(),
        };
        tree.push_node(turn, 0, root_key);
        tree
    }

    /// Whether another node fits (indices are `u32`, and [`NONE`] is reserved).
    pub(super) fn has_room(&self) -> bool {
        self.nodes.len() < NONE as usize
    }

    /// Adds an unexpanded node whose state has the key `key` and returns its index.
    pub(super) fn push_node(&mut self, turn: Turn, depth: u32, key: Option<u64>) -> NodeId {
        let id = self.nodes.len() as NodeId;
        if self.keyed {
            self.keys.push(key);
        }
        self.nodes.push(Node {
            turn,
            expanded: false,
            first_edge: 0,
            edge_count: 0,
            first_group: 0,
            visits: 0,
            depth,
            pending: 0,
        });
        id
    }

    /// Whether the tree records keys.
    pub(super) fn keyed(&self) -> bool {
        self.keyed
    }

    /// The node to reuse as the root of a state whose key is `key` and turn `turn`: among the
    /// expanded nodes with that key and turn, the shallowest, then the most visited, then the
    /// first created. `None` if there is none (or the tree keeps no keys).
    pub(super) fn find(&self, key: u64, turn: Turn) -> Option<NodeId> {
        let mut best: Option<NodeId> = None;
        for (i, k) in self.keys.iter().enumerate() {
            let n = &self.nodes[i];
            if *k != Some(key) || n.turn != turn || !n.expanded {
                continue;
            }
            // `Option::is_none_or` is newer than the workspace's minimum Rust.
            let better = best.map_or(true, |b| {
                let b = &self.nodes[b as usize];
                (n.depth, std::cmp::Reverse(n.visits)) < (b.depth, std::cmp::Reverse(b.visits))
            });
            if better {
                best = Some(i as NodeId);
            }
        }
        best
    }

    /// The part of the tree below `root`, with `root` as the new root and its statistics kept, as
    /// a new tree of at most `max_nodes` nodes (at least the root): parents are copied before
    /// their children, in the order they were created, and a child that does not fit is left out
    /// (its edge keeps its statistics and gets a new child when a simulation next takes it).
    /// Everything else is dropped. `players` is the game's number of players. Time and memory:
    /// linear in the size of `self`.
    pub(super) fn subtree(&self, root: NodeId, players: usize, max_nodes: usize) -> Tree<M> {
        let max_nodes = max_nodes.max(1);
        // The joint-move children of each `Simultaneous` node, in a deterministic order.
        let mut joint: Vec<(NodeId, u64, NodeId)> = self
            .joint_children
            .iter()
            .map(|(&(parent, code), &child)| (parent, code, child))
            .collect();
        joint.sort_unstable();
        // Old index → new index, for the nodes kept.
        let mut renumber = vec![NONE; self.nodes.len()];
        let mut order = vec![root];
        renumber[root as usize] = 0;
        let keep = |child: NodeId, order: &mut Vec<NodeId>, renumber: &mut [NodeId]| {
            if child != NONE && order.len() < max_nodes {
                renumber[child as usize] = order.len() as NodeId;
                order.push(child);
            }
        };
        for old in root as usize..self.nodes.len() {
            if renumber[old] == NONE {
                continue;
            }
            let n = &self.nodes[old];
            let first = n.first_edge as usize;
            for e in &self.edges[first..first + n.edge_count as usize] {
                keep(e.child, &mut order, &mut renumber);
            }
            let from = joint.partition_point(|&(parent, _, _)| (parent as usize) < old);
            for &(_, _, child) in joint[from..].iter().take_while(|j| j.0 as usize == old) {
                keep(child, &mut order, &mut renumber);
            }
        }
        let base = self.nodes[root as usize].depth;
        let mut tree = Tree {
            nodes: Vec::with_capacity(order.len()),
            edges: Vec::new(),
            groups: Vec::new(),
            joint_children: FxMap::default(),
            keys: Vec::with_capacity(if self.keyed { order.len() } else { 0 }),
            keyed: self.keyed,
            exact: FxMap::default(),
        };
        for &old in &order {
            let mut n = self.nodes[old as usize].clone();
            let first = n.first_edge as usize;
            n.first_edge = tree.edges.len() as u32;
            n.depth -= base;
            let edges = &self.edges[first..first + n.edge_count as usize];
            tree.edges.extend(edges.iter().map(|e| Edge {
                child: if e.child == NONE {
                    NONE
                } else {
                    renumber[e.child as usize]
                },
                ..*e
            }));
            if n.expanded && n.turn == Turn::Simultaneous {
                let g = n.first_group as usize;
                n.first_group = tree.groups.len() as u32;
                tree.groups
                    .extend_from_slice(&self.groups[g..g + players + 2]);
            }
            tree.nodes.push(n);
            if self.keyed {
                tree.keys.push(self.keys[old as usize]);
            }
        }
        for (parent, code, child) in joint {
            let (parent, child) = (renumber[parent as usize], renumber[child as usize]);
            if parent != NONE && child != NONE {
                tree.joint_children.insert((parent, code), child);
            }
        }
        for (&old, value) in &self.exact {
            if renumber[old as usize] != NONE {
                tree.exact.insert(renumber[old as usize], value.clone());
            }
        }
        tree
    }

    /// Whether the root's edges (moves, probabilities, and at a `Simultaneous` root the players'
    /// groups) are those of `other`'s root: the check that a reused root is the state searched.
    pub(super) fn same_root_edges(&self, other: &Tree<M>, players: usize) -> bool
    where
        M: PartialEq,
    {
        let (a, b) = (&self.nodes[ROOT as usize], &other.nodes[ROOT as usize]);
        let edges = |t: &Tree<M>, n: &Node| {
            let first = n.first_edge as usize;
            t.edges[first..first + n.edge_count as usize]
                .iter()
                .map(|e| (e.mv, e.probability.to_bits()))
                .collect::<Vec<_>>()
        };
        let groups = |t: &Tree<M>, n: &Node| match n.turn {
            Turn::Simultaneous => {
                let g = n.first_group as usize;
                t.groups[g..g + players + 2].to_vec()
            }
            _ => Vec::new(),
        };
        a.turn == b.turn
            && a.expanded == b.expanded
            && edges(self, a) == edges(other, b)
            && groups(self, a) == groups(other, b)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The statistics an edge keeps are the ones UCB1 would compute from its visits and reward:
    /// the mean exactly, the exploration term to the last bits.
    #[test]
    fn an_edge_keeps_its_mean_and_exploration_factor() {
        let mut e = Edge::new(0u32, 0.0);
        assert_eq!(e.mean(), None);
        assert_eq!(e.ucb1(1.0), f64::INFINITY);
        let (c, big_n) = (1.4_f64, 1_000.0_f64);
        let mut reward = 0.0;
        for (i, r) in [1.0, 0.0, 0.5, 1.0, 1.0, 0.0, 0.5]
            .into_iter()
            .cycle()
            .take(300)
            .enumerate()
        {
            e.add(1, r);
            reward += r;
            let n = (i + 1) as f64;
            assert_eq!(e.visits(), i as u64 + 1);
            assert_eq!(e.mean(), Some(reward / n));
            let formula = reward / n + c * (big_n.ln() / n).sqrt();
            let kept = e.ucb1(c * big_n.ln().sqrt());
            assert!(
                (kept - formula).abs() <= 1e-12 * formula,
                "{kept} {formula}"
            );
            assert_eq!(e.ucb1_with(0, big_n.ln(), c), formula);
        }
        e.add(5, 4.0);
        assert_eq!(e.mean(), Some((reward + 4.0) / 305.0));
    }
}

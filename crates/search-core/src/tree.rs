//! [`ExplicitTree`]: a game tree written out node by node, with a static value on every node; and
//! [`ExtraTurnTree`], one whose players do not always alternate.
//!
//! It is the test bed of every searcher of the workspace: minimax on it is cheap and exact, its shapes
//! are random (branching 1, early leaves, ties), and hand-written trees reproduce the worked examples
//! of the papers. As a [`Game`] its state is a node index and its move a child index.
//!
//! # Values
//! Every node stores a static value **from the point of view of its side to move** (negamax), for
//! leaves and interior nodes alike; [`LeafValue`] reads it. At a leaf it is the final result, at an
//! interior node it is what a static evaluator would say there (used when a depth-limited search stops
//! at the node, and by forward-pruning hooks). Player 0 moves at even plies, player 1 at odd plies.
//!
//! ```
//! use game_trait::{Game, Limits, Searcher};
//! use search_core::{ExplicitTree, LeafValue, Minimax, Nested};
//!
//! // The root (player 0) chooses between a leaf worth +3 to player 1 and a node where player 1
//! // chooses between leaves worth -2 and +4 to player 0.
//! let tree = ExplicitTree::from_nested(&Nested::node(0, vec![
//!     Nested::leaf(3),
//!     Nested::node(0, vec![Nested::leaf(-2), Nested::leaf(4)]),
//! ]));
//! let result = Minimax::new(LeafValue, 2).search(&tree, &tree.initial_state(), &Limits::none());
//! // Player 1 takes max(2, -4) = 2 at the inner node, so the root sees max(-3, -2) = -2.
//! assert_eq!(result.value, -2);
//! assert_eq!(result.best_move, Some(1));
//! ```

use std::ops::Range;

use game_trait::hash::key_of;
use game_trait::{mix64, Evaluator, Game, MoveList, Outcome, PlayerId, Score, ZeroSumGame};
use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Index of a node of an [`ExplicitTree`]; the root is 0.
pub type NodeId = u32;

/// The largest tree [`ExplicitTree::random`] builds: nodes past this budget become leaves, so that any
/// `(depth, max_branching)` stays within memory (2²² nodes take 64 MiB).
pub const MAX_RANDOM_NODES: usize = 1 << 22;

/// The largest branching factor [`ExplicitTree::random`] accepts (larger requests are clamped).
pub const MAX_RANDOM_BRANCHING: u32 = 64;

/// Static values of [`ExplicitTree::random`] lie in `-VALUE_RANGE..=VALUE_RANGE`: a small range, so
/// that ties (and the bound subtleties they bring) are frequent.
pub const VALUE_RANGE: Score = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// Index of the first child; children are contiguous.
    first_child: NodeId,
    /// Number of children; 0 for a leaf.
    children: u32,
    /// Static value from the node's side to move's point of view.
    value: Score,
    /// Distance from the root, which fixes the side to move (player 0 at even plies).
    ply: u32,
}

/// An explicit game tree: nodes in a vector, each with a contiguous range of children and a static
/// value. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitTree {
    nodes: Vec<Node>,
    /// A hash of every node: the tree's [`Game::identity`], computed once as it is built.
    identity: u64,
}

/// A hand-written tree for [`ExplicitTree::from_nested`]: values are from the side to move's point
/// of view at that node (negamax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nested {
    /// A finished game worth this much to its side to move.
    Leaf(Score),
    /// An interior node with its static value and its children, searched left to right.
    Node(Score, Vec<Nested>),
}

impl Nested {
    /// A leaf worth `value` to its side to move.
    pub fn leaf(value: Score) -> Nested {
        Nested::Leaf(value)
    }

    /// An interior node with static value `value` (side to move's view) and `children`. A node with
    /// no children is a leaf.
    pub fn node(value: Score, children: Vec<Nested>) -> Nested {
        Nested::Node(value, children)
    }
}

impl ExplicitTree {
    /// A random tree, the same for the same arguments on every machine.
    ///
    /// Nodes at ply `depth` are leaves; a shallower node is a leaf with probability 1/8 (never the
    /// root), and otherwise has a uniformly random number of children in `1..=max_branching`
    /// (`max_branching` is clamped to `1..=`[`MAX_RANDOM_BRANCHING`]). Every node's static value is
    /// uniform in `-VALUE_RANGE..=VALUE_RANGE`. The tree is built breadth first and stops growing at
    /// [`MAX_RANDOM_NODES`] nodes (the remaining frontier becomes leaves), so no request exhausts
    /// memory.
    pub fn random(seed: u64, depth: u32, max_branching: u32) -> ExplicitTree {
        let max_branching = max_branching.clamp(1, MAX_RANDOM_BRANCHING);
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut nodes = vec![Node {
            first_child: 0,
            children: 0,
            value: rng.gen_range(-VALUE_RANGE..=VALUE_RANGE),
            ply: 0,
        }];
        // Breadth first: children of node `i` are appended when `i` is reached, so they are contiguous.
        let mut next = 0;
        while next < nodes.len() {
            let Node { ply, .. } = nodes[next];
            let early_leaf = next != 0 && rng.gen_ratio(1, 8);
            if ply < depth && !early_leaf {
                let count = rng.gen_range(1..=max_branching) as usize;
                if nodes.len() + count > MAX_RANDOM_NODES {
                    break;
                }
                nodes[next].first_child = nodes.len() as NodeId;
                nodes[next].children = count as u32;
                for _ in 0..count {
                    let value = rng.gen_range(-VALUE_RANGE..=VALUE_RANGE);
                    nodes.push(Node {
                        first_child: 0,
                        children: 0,
                        value,
                        ply: ply + 1,
                    });
                }
            }
            next += 1;
        }
        ExplicitTree::with_nodes(nodes)
    }

    /// A tree written by hand, children in the order given (which is the order searchers see them).
    /// Deep nestings are built without recursion.
    pub fn from_nested(root: &Nested) -> ExplicitTree {
        let mut nodes = vec![Node {
            first_child: 0,
            children: 0,
            value: 0,
            ply: 0,
        }];
        // Breadth first with an explicit queue, so that children are contiguous and no nesting
        // depth can overflow the stack.
        let mut queue = std::collections::VecDeque::from([(0usize, root)]);
        while let Some((id, nested)) = queue.pop_front() {
            let (value, children): (Score, &[Nested]) = match nested {
                Nested::Leaf(v) => (*v, &[]),
                Nested::Node(v, children) => (*v, children),
            };
            nodes[id].value = value;
            nodes[id].first_child = nodes.len() as NodeId;
            nodes[id].children = children.len() as u32;
            let ply = nodes[id].ply + 1;
            for child in children {
                queue.push_back((nodes.len(), child));
                nodes.push(Node {
                    first_child: 0,
                    children: 0,
                    value: 0,
                    ply,
                });
            }
        }
        ExplicitTree::with_nodes(nodes)
    }

    /// The tree of `nodes`, identified by a hash of them all: two trees share an identity only
    /// if they are the same tree (up to a 64-bit collision), whichever constructor built them.
    fn with_nodes(nodes: Vec<Node>) -> ExplicitTree {
        let identity = key_of(
            nodes
                .iter()
                .flat_map(|n| [n.first_child, n.children, n.value as u32, n.ply]),
        );
        ExplicitTree { nodes, identity }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no node (never: every tree has a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The children of `node`, as node ids.
    pub fn children(&self, node: NodeId) -> Range<NodeId> {
        let n = &self.nodes[node as usize];
        n.first_child..n.first_child + n.children
    }

    /// The static value of `node`, from its side to move's point of view.
    pub fn value(&self, node: NodeId) -> Score {
        self.nodes[node as usize].value
    }

    /// Distance of `node` from the root.
    pub fn ply(&self, node: NodeId) -> u32 {
        self.nodes[node as usize].ply
    }

    /// Depth of the deepest leaf.
    pub fn height(&self) -> u32 {
        self.nodes.iter().map(|n| n.ply).max().unwrap_or(0)
    }
}

impl Game for ExplicitTree {
    type State = NodeId;
    /// The index of the child among its siblings (0 for the leftmost).
    type Move = u32;

    fn initial_state(&self) -> NodeId {
        0
    }

    /// A hash of the whole tree: a searcher that keeps its tree across searches (UCT) does not
    /// take another tree built at the same address for this one.
    fn identity(&self) -> Option<u64> {
        Some(self.identity)
    }

    #[inline]
    fn apply(&self, state: &mut NodeId, mv: u32) -> Option<NodeId> {
        Some(self.nodes[*state as usize].first_child + mv)
    }

    /// Node ids are unique positions (a tree has no transpositions); mixed so that low bits vary.
    #[inline]
    fn state_hash(&self, state: &NodeId) -> Option<u64> {
        Some(mix64(u64::from(*state).wrapping_add(0x9e37_79b9_7f4a_7c15)))
    }
}

impl ZeroSumGame for ExplicitTree {
    /// Player 0 moves at even plies, player 1 at odd ones.
    const ALTERNATES: bool = true;

    #[inline]
    fn side_to_move(&self, state: &NodeId) -> PlayerId {
        (self.nodes[*state as usize].ply % 2) as PlayerId
    }

    /// At a leaf, its stored value (side to move's view) as the margin.
    #[inline]
    fn outcome(&self, state: &NodeId) -> Option<Outcome> {
        let node = &self.nodes[*state as usize];
        (node.children == 0).then(|| Outcome::margin_of(node.value))
    }

    #[inline]
    fn moves(&self, state: &NodeId, moves: &mut MoveList<u32>) {
        moves.extend(0..self.nodes[*state as usize].children);
    }
}

/// An [`ExplicitTree`] whose moves do not always hand the turn over: at some nodes the player who
/// just moved moves again, as in Dots and Boxes. The test bed of turn order: a searcher that negates
/// by ply rather than asking [`ZeroSumGame::side_to_move`] gets its values wrong.
///
/// Values are stored as in the explicit tree, from each node's own side to move's point of view;
/// [`LeafValue`] reads them.
///
/// ```
/// use game_trait::{Game, Limits, Searcher, ZeroSumGame};
/// use search_core::{AlphaBeta, AlphaBetaConfig, ExtraTurnTree, LeafValue, Minimax};
///
/// let game = ExtraTurnTree::random(3, 5, 3); // seed, depth, branching
/// let moves_again = |n: u32| game.tree().children(n).any(|c| game.side_to_move(&c) == game.side_to_move(&n));
/// assert!((0..game.tree().len() as u32).any(moves_again)); // somewhere a player moves twice in a row
///
/// let root = game.initial_state();
/// let oracle = Minimax::new(LeafValue, 5).search(&game, &root, &Limits::none());
/// let mut pvs = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::pvs(5));
/// assert_eq!(pvs.search(&game, &root, &Limits::none()).value, oracle.value);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraTurnTree {
    tree: ExplicitTree,
    /// The side to move at every node.
    sides: Vec<u8>,
    /// The tree's identity and the sides to move, hashed once as it is built.
    identity: u64,
}

impl ExtraTurnTree {
    /// The tree of [`ExplicitTree::random`] with the same arguments (same shape and values), in
    /// which player 0 moves at the root and every other node keeps its parent's side to move with
    /// probability 1/3 (an extra turn), else goes to the other player. The same for the same
    /// arguments on every machine.
    pub fn random(seed: u64, depth: u32, max_branching: u32) -> ExtraTurnTree {
        let tree = ExplicitTree::random(seed, depth, max_branching);
        let mut rng = Pcg64::seed_from_u64(seed ^ 0x5eed_7e57_0f7e_2a15);
        let mut sides = vec![0u8; tree.len()];
        // Parents come before their children (breadth first), so one pass in index order works.
        for id in 0..tree.len() as NodeId {
            for child in tree.children(id) {
                let extra_turn = rng.gen_ratio(1, 3);
                sides[child as usize] = sides[id as usize] ^ u8::from(!extra_turn);
            }
        }
        let tree_words = [tree.identity as u32, (tree.identity >> 32) as u32];
        let identity = key_of(
            tree_words
                .into_iter()
                .chain(sides.iter().map(|&s| u32::from(s))),
        );
        ExtraTurnTree {
            tree,
            sides,
            identity,
        }
    }

    /// The tree: its shape and values.
    pub fn tree(&self) -> &ExplicitTree {
        &self.tree
    }
}

impl Game for ExtraTurnTree {
    type State = NodeId;
    /// The index of the child among its siblings (0 for the leftmost).
    type Move = u32;

    fn initial_state(&self) -> NodeId {
        0
    }

    /// A hash of the tree and of the sides to move: the same tree with other turns is another
    /// game.
    fn identity(&self) -> Option<u64> {
        Some(self.identity)
    }

    #[inline]
    fn apply(&self, state: &mut NodeId, mv: u32) -> Option<NodeId> {
        self.tree.apply(state, mv)
    }

    #[inline]
    fn state_hash(&self, state: &NodeId) -> Option<u64> {
        self.tree.state_hash(state)
    }
}

impl ZeroSumGame for ExtraTurnTree {
    #[inline]
    fn side_to_move(&self, state: &NodeId) -> PlayerId {
        PlayerId::from(self.sides[*state as usize])
    }

    #[inline]
    fn outcome(&self, state: &NodeId) -> Option<Outcome> {
        self.tree.outcome(state)
    }

    #[inline]
    fn moves(&self, state: &NodeId, moves: &mut MoveList<u32>) {
        self.tree.moves(state, moves)
    }
}

/// The evaluator of [`ExplicitTree`]: every node's stored static value, from its side to move's
/// point of view. Leaves give their raw value (not mapped through
/// [`terminal_score`](game_trait::terminal_score)), so that leaf and interior values are comparable,
/// as in the papers' random trees.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeafValue;

impl Evaluator<ExplicitTree> for LeafValue {
    #[inline]
    fn evaluate(&mut self, game: &ExplicitTree, state: &NodeId) -> Score {
        game.value(*state)
    }

    /// A leaf's raw value, on the same scale as the interior nodes' values.
    #[inline]
    fn terminal(&mut self, _: &ExplicitTree, _: &NodeId, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

impl Evaluator<ExtraTurnTree> for LeafValue {
    #[inline]
    fn evaluate(&mut self, game: &ExtraTurnTree, state: &NodeId) -> Score {
        game.tree.value(*state)
    }

    /// A leaf's raw value, on the same scale as the interior nodes' values.
    #[inline]
    fn terminal(&mut self, _: &ExtraTurnTree, _: &NodeId, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_trait::{GeneralGame, Turn};

    #[test]
    fn random_trees_are_reproducible_and_respect_their_parameters() {
        let a = ExplicitTree::random(11, 5, 4);
        assert_eq!(a, ExplicitTree::random(11, 5, 4));
        assert_ne!(a, ExplicitTree::random(12, 5, 4));
        assert!(a.height() <= 5);
        for id in 0..a.len() as NodeId {
            assert!(a.children(id).len() <= 4);
            assert!(a.value(id).abs() <= VALUE_RANGE);
            for child in a.children(id) {
                assert_eq!(a.ply(child), a.ply(id) + 1);
            }
        }
    }

    #[test]
    fn random_trees_have_varied_shapes() {
        let t = ExplicitTree::random(3, 6, 3);
        let counts: Vec<usize> = (0..t.len() as NodeId)
            .map(|id| t.children(id).len())
            .collect();
        for k in 0..=3 {
            assert!(counts.contains(&k), "no node with {k} children");
        }
        // An early leaf: a leaf above the last ply.
        assert!((0..t.len() as NodeId).any(|id| t.children(id).is_empty() && t.ply(id) < 6));
    }

    #[test]
    fn huge_requests_are_capped() {
        let t = ExplicitTree::random(1, 40, 1000);
        assert!(t.len() <= MAX_RANDOM_NODES);
    }

    #[test]
    fn nested_trees_keep_their_order_values_and_sides() {
        let t = ExplicitTree::from_nested(&Nested::node(
            7,
            vec![
                Nested::leaf(1),
                Nested::node(-3, vec![Nested::leaf(2), Nested::leaf(-4)]),
            ],
        ));
        assert_eq!(t.len(), 5);
        assert_eq!(t.value(0), 7);
        assert_eq!(t.turn(&0), Turn::Player(0));
        let second = t.apply(&mut 0, 1).unwrap();
        assert_eq!(t.value(second), -3);
        assert_eq!(t.turn(&second), Turn::Player(1));
        let leaf = t.apply(&mut second.clone(), 1).unwrap();
        assert_eq!((t.value(leaf), t.turn(&leaf)), (-4, Turn::Over));
        // The leaf is at ply 2: player 0 to move, worth -4 to player 0.
        assert_eq!((t.payoff(&leaf, 0), t.payoff(&leaf, 1)), (0.0, 1.0));
    }

    #[test]
    fn deep_nestings_do_not_overflow() {
        let mut nested = Nested::leaf(1);
        for _ in 0..100_000 {
            nested = Nested::node(0, vec![nested]);
        }
        let t = ExplicitTree::from_nested(&nested);
        assert_eq!(t.height(), 100_000);
        // Dropping a deeply nested value recurses; take it apart iteratively.
        let mut current = nested;
        while let Nested::Node(_, mut children) = current {
            current = children.pop().unwrap_or(Nested::Leaf(0));
        }
    }
}

//! [`MinimaxTree`]: an explicit minimax tree built from any [`ZeroSumGame`] to a fixed depth.
//!
//! Conspiracy numbers are a property of a whole tree (which leaves could conspire to move the root),
//! so, unlike α/β, the tree has to exist in memory. It is stored as an arena: the children of a node
//! are contiguous and every child has a larger index than its parent, so a bottom-up pass is a
//! reverse sweep over the arena and no walk ever recurses (deep trees cannot overflow the stack).

use game_trait::{Evaluator, Limits, MoveList, Pace, PlayerId, Score, ZeroSumGame};

/// Index of a node in a [`MinimaxTree`]; the root is [`NodeId::ROOT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// Position of the node in the arena ([`MinimaxTree::nodes`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Whose turn it is at a node, seen from the root: MAX is the root's side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The root's side to move: takes the largest child value.
    Max,
    /// The opponent: takes the smallest child value.
    Min,
}

/// One node of a [`MinimaxTree`].
#[derive(Clone, Debug)]
pub struct Node<M> {
    /// The move that leads here from the parent (`None` at the root).
    pub mv: Option<M>,
    /// Minimax value **from the root player's point of view**: the evaluator's value at a leaf, the
    /// max (MAX node) or min (MIN node) of the children's values at an interior node.
    pub value: Score,
    /// Whose turn it is here.
    pub side: Side,
    /// Whether the game is over here. A terminal leaf's value can never change: no conspirator.
    pub terminal: bool,
    /// Distance from the root in plies.
    pub depth: u32,
    pub(crate) first_child: u32,
    pub(crate) child_count: u32,
}

impl<M> Node<M> {
    /// Whether the node has no children in the tree (a terminal position, or the depth was reached).
    pub fn is_leaf(&self) -> bool {
        self.child_count == 0
    }

    /// The node's children, in the order the game generated their moves.
    pub fn children(&self) -> impl ExactSizeIterator<Item = NodeId> {
        (self.first_child..self.first_child + self.child_count).map(NodeId)
    }
}

/// What building a tree cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Nodes created (root included): the tree's size.
    pub generated: u64,
    /// Interior nodes (moves generated and children created).
    pub expanded: u64,
    /// Leaves evaluated by the evaluator.
    pub evaluated: u64,
}

/// An explicit minimax tree: every node to `depth` plies below the root (fewer where the game ends),
/// leaves valued by an [`Evaluator`], interior values backed up by minimax.
///
/// All values are from the **root player's** point of view (the evaluator's side-to-move values are
/// negated at the opponent's nodes), so MAX nodes maximise and MIN nodes minimise; this is the view in
/// which the paper states equations (1)–(5).
#[derive(Clone, Debug)]
pub struct MinimaxTree<M> {
    nodes: Vec<Node<M>>,
    root_player: PlayerId,
    max_depth: u32,
    stats: BuildStats,
}

/// One pending node of the iterative depth-first build: which node, and its position.
struct Pending<S> {
    node: u32,
    state: S,
}

/// The most created nodes between two looks at the limits; fewer under a deadline or a stop flag
/// when leaves are slow to value (a [`Pace`]).
const LIMIT_CHECK_INTERVAL: u64 = 1024;

impl<M: Copy> MinimaxTree<M> {
    /// Builds the tree of `state` to `depth` plies, evaluating every leaf (terminal or at the depth)
    /// with `evaluator`. Time: one evaluation per leaf plus one move generation per interior node.
    pub fn build<G, E>(game: &G, state: &G::State, depth: u32, evaluator: &mut E) -> MinimaxTree<M>
    where
        G: ZeroSumGame<Move = M>,
        E: Evaluator<G> + ?Sized,
    {
        Self::build_within(game, state, depth, evaluator, &Limits::none())
            .expect("no limit can be exhausted")
    }

    /// Like [`build`](MinimaxTree::build), but gives up and returns `None` as soon as `limits` are
    /// exhausted (node budget, deadline or stop flag; `limits.depth` is ignored: `depth` rules).
    /// The node budget counts the nodes this tree creates.
    pub fn build_within<G, E>(
        game: &G,
        state: &G::State,
        depth: u32,
        evaluator: &mut E,
        limits: &Limits,
    ) -> Option<MinimaxTree<M>>
    where
        G: ZeroSumGame<Move = M>,
        E: Evaluator<G> + ?Sized,
    {
        let root_player = game.side_to_move(state);
        let mut tree = MinimaxTree {
            nodes: vec![Node {
                mv: None,
                value: 0,
                side: Side::Max,
                terminal: false,
                depth: 0,
                first_child: 0,
                child_count: 0,
            }],
            root_player,
            max_depth: 0,
            stats: BuildStats::default(),
        };
        let mut pending = vec![Pending {
            node: 0,
            state: state.clone(),
        }];
        let mut moves = MoveList::new();
        // A leaf valued by a search of its own can take a millisecond: under a deadline or a stop
        // flag the looks follow the nodes' cost; a node budget alone is looked at every
        // `LIMIT_CHECK_INTERVAL` nodes, so where it stops does not depend on the machine.
        let mut pace = (limits.deadline.is_some() || limits.stop.is_some())
            .then(|| Pace::new(LIMIT_CHECK_INTERVAL));
        let mut next_check = pace.as_ref().map_or(LIMIT_CHECK_INTERVAL, Pace::interval);
        while let Some(Pending { node, mut state }) = pending.pop() {
            if tree.nodes.len() as u64 >= next_check {
                next_check = match pace.as_mut() {
                    Some(pace) => tree.nodes.len() as u64 + pace.interval_after_look(),
                    None => next_check + LIMIT_CHECK_INTERVAL,
                };
                if limits.exhausted(tree.nodes.len() as u64) {
                    return None;
                }
            }
            let node_depth = tree.nodes[node as usize].depth;
            let terminal = game.outcome(&state).is_some();
            if terminal || node_depth >= depth {
                let value = evaluator.value(game, &state);
                let value = if game.side_to_move(&state) == root_player {
                    value
                } else {
                    -value
                };
                let here = &mut tree.nodes[node as usize];
                here.terminal = terminal;
                here.value = value;
                tree.max_depth = tree.max_depth.max(node_depth);
                continue;
            }
            moves.clear();
            game.moves(&state, &mut moves);
            let Ok(first_child) = u32::try_from(tree.nodes.len()) else {
                return None; // more than 4 billion nodes: refuse rather than wrap
            };
            let here = &mut tree.nodes[node as usize];
            here.first_child = first_child;
            here.child_count = moves.len() as u32;
            let child_depth = node_depth + 1;
            for &mv in moves.iter() {
                let child = child_state(game, &mut state, mv);
                let side = if game.side_to_move(&child) == root_player {
                    Side::Max
                } else {
                    Side::Min
                };
                let index = tree.nodes.len() as u32;
                tree.nodes.push(Node {
                    mv: Some(mv),
                    value: 0,
                    side,
                    terminal: false,
                    depth: child_depth,
                    first_child: 0,
                    child_count: 0,
                });
                pending.push(Pending {
                    node: index,
                    state: child,
                });
            }
            if limits
                .nodes
                .is_some_and(|max| tree.nodes.len() as u64 > max)
            {
                return None;
            }
        }
        tree.back_up();
        Some(tree)
    }

    /// Minimax back-up in one reverse sweep (children always follow their parent in the arena), and
    /// the counters.
    fn back_up(&mut self) {
        let mut stats = BuildStats {
            generated: self.nodes.len() as u64,
            ..BuildStats::default()
        };
        for i in (0..self.nodes.len()).rev() {
            let node = &self.nodes[i];
            if node.is_leaf() {
                stats.evaluated += 1;
                continue;
            }
            stats.expanded += 1;
            let values = node.children().map(|c| self.nodes[c.index()].value);
            let value = match node.side {
                Side::Max => values.max(),
                Side::Min => values.min(),
            };
            self.nodes[i].value = value.expect("interior nodes have children");
        }
        self.stats = stats;
    }
}

impl<M> MinimaxTree<M> {
    /// Every node; index with [`NodeId::index`]. The root is at index 0.
    pub fn nodes(&self) -> &[Node<M>] {
        &self.nodes
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id.index()]
    }

    /// The root.
    pub fn root(&self) -> &Node<M> {
        &self.nodes[0]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always `false`: a tree has at least its root. (Provided for `len`'s sake.)
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The player to move at the root, whose point of view every value takes.
    pub fn root_player(&self) -> PlayerId {
        self.root_player
    }

    /// Depth of the deepest leaf.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// What the build cost.
    pub fn stats(&self) -> BuildStats {
        self.stats
    }

    /// The principal variation below `id`: from each node, the first child whose value equals the
    /// node's (the move minimax would play).
    pub fn principal_variation(&self, id: NodeId) -> Vec<NodeId> {
        let mut pv = Vec::new();
        let mut node = self.node(id);
        while let Some(best) = node
            .children()
            .find(|&c| self.nodes[c.index()].value == node.value)
        {
            pv.push(best);
            node = self.node(best);
        }
        pv
    }
}

/// The successor of `state` by `mv`, leaving `state` as it was, whichever way the game applies moves.
pub(crate) fn child_state<G: ZeroSumGame>(game: &G, state: &mut G::State, mv: G::Move) -> G::State {
    match game.apply(state, mv) {
        Some(child) => child,
        None => {
            // make/unmake: the tree keeps every position, so copy the child out and restore.
            let child = state.clone();
            game.undo(state, mv);
            child
        }
    }
}

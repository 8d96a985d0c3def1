//! Test support: small random game trees as a [`ZeroSumGame`], and brute-force oracles.
#![allow(dead_code)]

use game_trait::{Evaluator, Game, MoveList, Outcome, PlayerId, Score, ZeroSumGame};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::tree::{MinimaxTree, NodeId, Side};

/// A game whose positions are the nodes of an explicit tree. Nodes without children are finished
/// games; `value` is player 0's view (the evaluator's and the final result's source).
#[derive(Clone, Debug)]
pub struct TreeGame {
    pub nodes: Vec<TreeNode>,
}

#[derive(Clone, Debug)]
pub struct TreeNode {
    pub children: Vec<u32>,
    pub value: Score,
    pub mover: PlayerId,
}

impl TreeGame {
    /// A random tree: interior nodes to `depth` plies have 1..=`branching` children, except that a node
    /// above `depth` ends the game with probability 1/5. Every node at `depth` has one child more (so it
    /// is an *open* leaf when the tree is built to `depth`). Values in `-spread..=spread`.
    pub fn random(seed: u64, depth: u32, branching: u32, spread: Score) -> TreeGame {
        let mut rng = Pcg64::seed_from_u64(seed);
        let root_mover = rng.gen_range(0..2);
        let mut game = TreeGame { nodes: Vec::new() };
        game.grow(&mut rng, 0, depth, branching, spread, root_mover);
        game
    }

    /// A MAX root (player 0) over MIN nodes whose children are open leaves with the given values
    /// (player 0's view); each open leaf has one terminal child so that the game goes on below it.
    pub fn from_shape(shape: &[&[Score]]) -> TreeGame {
        let mut game = TreeGame {
            nodes: vec![TreeNode {
                children: vec![],
                value: 0,
                mover: 0,
            }],
        };
        for leaves in shape {
            let min = game.push(0, 1);
            game.nodes[0].children.push(min);
            for &value in leaves.iter() {
                let leaf = game.push(value, 0);
                game.nodes[min as usize].children.push(leaf);
                let below = game.push(value, 1);
                game.nodes[leaf as usize].children.push(below);
            }
        }
        game
    }

    fn push(&mut self, value: Score, mover: PlayerId) -> u32 {
        self.nodes.push(TreeNode {
            children: vec![],
            value,
            mover,
        });
        self.nodes.len() as u32 - 1
    }

    fn grow(
        &mut self,
        rng: &mut Pcg64,
        d: u32,
        depth: u32,
        branching: u32,
        spread: Score,
        mover: PlayerId,
    ) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(TreeNode {
            children: Vec::new(),
            value: rng.gen_range(-spread..=spread),
            mover,
        });
        let count = if d == depth {
            1
        } else if d > 0 && rng.gen_ratio(1, 5) {
            0
        } else {
            rng.gen_range(1..=branching)
        };
        for _ in 0..count {
            let child = if d == depth {
                self.leaf(rng, spread, 1 - mover)
            } else {
                self.grow(rng, d + 1, depth, branching, spread, 1 - mover)
            };
            self.nodes[id as usize].children.push(child);
        }
        id
    }

    fn leaf(&mut self, rng: &mut Pcg64, spread: Score, mover: PlayerId) -> u32 {
        self.nodes.push(TreeNode {
            children: Vec::new(),
            value: rng.gen_range(-spread..=spread),
            mover,
        });
        self.nodes.len() as u32 - 1
    }
}

impl Game for TreeGame {
    type State = u32;
    type Move = u32;
    fn initial_state(&self) -> u32 {
        0
    }
    fn apply(&self, _: &mut u32, mv: u32) -> Option<u32> {
        Some(mv)
    }
    fn state_hash(&self, s: &u32) -> Option<u64> {
        Some(u64::from(*s))
    }
}

impl ZeroSumGame for TreeGame {
    fn side_to_move(&self, s: &u32) -> PlayerId {
        self.nodes[*s as usize].mover
    }
    fn outcome(&self, s: &u32) -> Option<Outcome> {
        let n = &self.nodes[*s as usize];
        n.children
            .is_empty()
            .then(|| Outcome::margin_of(self.stored(*s)))
    }
    fn moves(&self, s: &u32, moves: &mut MoveList<u32>) {
        moves.extend(self.nodes[*s as usize].children.iter().copied());
    }
}

impl TreeGame {
    /// The value stored at `s`, from its side to move's view.
    pub fn stored(&self, s: u32) -> Score {
        let n = &self.nodes[s as usize];
        if n.mover == 0 {
            n.value
        } else {
            -n.value
        }
    }
}

/// The stored value, from the side to move's view (terminal or not: small trees stay in the raw
/// value range so that grids of step 1 cover every leaf).
#[derive(Clone, Copy, Debug, Default)]
pub struct StoredValue;

impl Evaluator<TreeGame> for StoredValue {
    fn evaluate(&mut self, game: &TreeGame, s: &u32) -> Score {
        game.stored(*s)
    }
    fn terminal(&mut self, _: &TreeGame, _: &u32, outcome: Outcome) -> Score {
        outcome.margin()
    }
}

/// Plain negamax of the game to `depth` with [`StoredValue`]: the side to move's value.
pub fn negamax(game: &TreeGame, s: u32, depth: u32) -> Score {
    let n = &game.nodes[s as usize];
    if n.children.is_empty() || depth == 0 {
        return game.stored(s);
    }
    n.children
        .iter()
        .map(|&c| -negamax(game, c, depth - 1))
        .max()
        .unwrap()
}

/// Minimax value of `node` with the leaves in `changed` (leaf ids) replaced by `to`.
pub fn minimax_with<M>(
    tree: &MinimaxTree<M>,
    node: NodeId,
    changed: &[NodeId],
    to: Score,
) -> Score {
    let n = tree.node(node);
    if n.is_leaf() {
        return if changed.contains(&node) { to } else { n.value };
    }
    let values = n.children().map(|c| minimax_with(tree, c, changed, to));
    match n.side {
        Side::Max => values.max().unwrap(),
        Side::Min => values.min().unwrap(),
    }
}

/// The open (non-terminal) leaves below `node`.
pub fn open_leaves<M>(tree: &MinimaxTree<M>, node: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(id) = stack.pop() {
        let n = tree.node(id);
        if n.is_leaf() {
            if !n.terminal {
                out.push(id);
            }
        } else {
            stack.extend(n.children());
        }
    }
    out
}

/// How the brute force reads "change the root to v".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Rise to at least v / fall to at most v (conspirators move to ±∞).
    AtLeast,
    /// Become exactly v (conspirators move to v).
    Exactly,
}

/// The smallest number of open leaves below `node` whose change moves its value to `v`, by trying
/// every subset in order of size; `None` when no subset does.
pub fn brute_force_cn<M>(
    tree: &MinimaxTree<M>,
    node: NodeId,
    v: Score,
    reading: Reading,
) -> Option<u32> {
    let m = tree.node(node).value;
    if v == m {
        return Some(0);
    }
    let leaves = open_leaves(tree, node);
    assert!(leaves.len() <= 16, "brute force is for small trees");
    let mut masks: Vec<u32> = (0..1u32 << leaves.len()).collect();
    masks.sort_by_key(|m| m.count_ones());
    let to = match reading {
        Reading::Exactly => v,
        Reading::AtLeast if v > m => Score::MAX / 2,
        Reading::AtLeast => Score::MIN / 2,
    };
    for mask in masks {
        let set: Vec<NodeId> = (0..leaves.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| leaves[i])
            .collect();
        let r = minimax_with(tree, node, &set, to);
        let ok = match reading {
            Reading::Exactly => r == v,
            Reading::AtLeast => (v > m && r >= v) || (v < m && r <= v),
        };
        if ok {
            return Some(mask.count_ones());
        }
    }
    None
}

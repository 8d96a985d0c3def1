//! Test support: an evaluator and brute-force oracles for the shared test crate's [`TreeGame`].
#![allow(dead_code)]

use game_trait::{Evaluator, Outcome, Score};
pub use test_games::TreeGame;

use crate::tree::{MinimaxTree, NodeId, Side};

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

//! [`EdgePlausibility`]: how interesting a move of a random tree is, and which moves are alike,
//! for Rollason's interest search.

use game_trait::{Plausibility, Score};

use crate::tree::{Node, RandomTree};

/// Interest of a random tree's move from its edge cost, and a similarity key by cost band:
///
/// > `interest = 1000 / branching + max(0, 100 × gain / unit)`
///
/// where `gain` is the edge's cost from the mover's point of view (what the move adds to its
/// static value). This is [`StaticGain`](game_trait::StaticGain) over [`NodeCost`](crate::NodeCost)
/// exactly, computed from the one edge instead of counting moves and evaluating two positions.
///
/// **Similarity.** The only characteristic a random tree's move has is its cost, so moves are
/// alike when their gains fall in the same of [`bands`](EdgePlausibility::bands) equal bands of the
/// mover's edge-cost range: the stand-in for Shotest's "drops of the same piece type", for its
/// similar-moves penalty (Rollason, *Interest Search — Another Way to Do Minimax*, 2014). Four bands by
/// default: with twenty moves a node has about five alike in each, so the penalty bites as it does
/// among a Shogi position's many drops of one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgePlausibility {
    unit: Score,
    bands: u32,
}

impl EdgePlausibility {
    /// Bands of the edge-cost range by default.
    pub const DEFAULT_BANDS: u32 = 4;

    /// Interest with a gain of `unit` (at least 1) worth +100, and [`DEFAULT_BANDS`] similarity
    /// bands.
    ///
    /// [`DEFAULT_BANDS`]: EdgePlausibility::DEFAULT_BANDS
    pub fn new(unit: Score) -> EdgePlausibility {
        EdgePlausibility {
            unit: unit.max(1),
            bands: Self::DEFAULT_BANDS,
        }
    }

    /// The same with `bands` similarity bands (at least 1; 1 makes every move alike).
    pub fn with_bands(self, bands: u32) -> EdgePlausibility {
        EdgePlausibility {
            bands: bands.max(1),
            ..self
        }
    }

    /// The number of similarity bands.
    pub fn bands(&self) -> u32 {
        self.bands
    }

    /// The gain of move `index` at `node` for its mover, and the mover's range of gains.
    #[inline]
    fn gain(tree: &RandomTree, node: &Node, index: u16) -> (i64, i64, i64) {
        let edge = i64::from(tree.child(node, index).cost() - node.cost());
        let (l, u) = tree.exact_edge_bounds();
        let (l, u) = (i64::from(l), i64::from(u));
        if node.is_max() {
            (edge, l, u)
        } else {
            (-edge, -u, -l)
        }
    }
}

impl Plausibility<RandomTree> for EdgePlausibility {
    #[inline]
    fn interest(&mut self, tree: &RandomTree, node: &Node, index: u16) -> u32 {
        let base = 1000 / i64::from(node.branching().max(1));
        let (gain, _, _) = Self::gain(tree, node, index);
        let bonus = (100 * gain / i64::from(self.unit)).max(0);
        (base + bonus).clamp(1, i64::from(u32::MAX)) as u32
    }

    /// The band of the mover's edge-cost range the move's gain falls in.
    #[inline]
    fn similarity(&self, tree: &RandomTree, node: &Node, index: u16) -> Option<u32> {
        let (gain, lo, hi) = Self::gain(tree, node, index);
        let span = hi - lo + 1;
        Some(((gain - lo) * i64::from(self.bands) / span) as u32)
    }
}

#[cfg(test)]
mod tests {
    use game_trait::{Game, MoveList, StaticGain, ZeroSumGame};

    use super::*;
    use crate::{NodeCost, RandomTreeConfig};

    #[test]
    fn interest_is_static_gain_over_node_cost() {
        let tree = RandomTree::new(RandomTreeConfig::uniform(7, 4).with_seed(3)).unwrap();
        let mut fast = EdgePlausibility::new(1 << 12);
        let mut slow = StaticGain::new(NodeCost, 1 << 12);
        let mut node = tree.initial_state();
        for ply in 0..3u16 {
            for index in 0..node.branching() {
                assert_eq!(
                    fast.interest(&tree, &node, index),
                    slow.interest(&tree, &node, index),
                    "ply {ply}, move {index}"
                );
            }
            node = tree.child(&node, ply % node.branching());
        }
    }

    #[test]
    fn similar_moves_share_a_band_of_the_mover_s_gains() {
        let tree = RandomTree::new(RandomTreeConfig::uniform(40, 3).with_seed(5)).unwrap();
        let plausibility = EdgePlausibility::new(100);
        for node in [tree.root(), tree.child(&tree.root(), 0)] {
            let mut moves = MoveList::new();
            tree.moves(&node, &mut moves);
            let mut seen = [0; 4];
            for &m in &moves {
                let band = plausibility.similarity(&tree, &node, m).unwrap();
                seen[band as usize] += 1;
                // Higher bands hold the mover's better moves.
                let (gain, lo, hi) = EdgePlausibility::gain(&tree, &node, m);
                let quarter = (hi - lo + 1) / 4;
                assert_eq!(i64::from(band), ((gain - lo) / quarter).min(3));
            }
            assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        }
        let one = plausibility.with_bands(0);
        assert_eq!(one.bands(), 1);
        assert_eq!(one.similarity(&tree, &tree.root(), 3), Some(0));
    }
}

//! The triangular principal-variation table: row `ply` holds the best line found below the node
//! being searched at `ply`, as move indices into each node's generated move list.
//!
//! A node clears its row on entry; when a successor becomes its best, the row becomes that move
//! followed by the successor's row. Storing indices rather than moves keeps the table independent of
//! the game (it lives in the searcher and is allocated once); the driver turns the root's row into
//! moves by replaying it.

use crate::MAX_PLY;

/// Row width: a node at `ply` has at most `MAX_PLY - ply` moves below it.
const WIDTH: usize = MAX_PLY + 1;

/// See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub(crate) struct PvTable {
    /// `WIDTH` rows of `WIDTH` indices; allocated on first use.
    moves: Vec<u16>,
    len: Vec<usize>,
}

impl PvTable {
    /// Allocates the table if it is not yet (once per searcher, never during a search).
    pub(crate) fn ensure_allocated(&mut self) {
        if self.moves.is_empty() {
            self.moves = vec![0; WIDTH * WIDTH];
            self.len = vec![0; WIDTH];
        }
    }

    /// Empties the row of `ply` (on entering a node).
    #[inline(always)]
    pub(crate) fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// The row of `ply` becomes `index` followed by the row of `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, index: u16) {
        let below = self.len[ply + 1];
        let (head, tail) = self.moves.split_at_mut((ply + 1) * WIDTH);
        let row = &mut head[ply * WIDTH..];
        row[0] = index;
        // Most lines are copied from just above a leaf: skip the (out-of-line) copy then.
        if below > 0 {
            row[1..=below].copy_from_slice(&tail[..below]);
        }
        self.len[ply] = below + 1;
    }

    /// The row of `ply` becomes `index` alone (a successor that was pruned, not searched).
    #[inline]
    pub(crate) fn set_single(&mut self, ply: usize, index: u16) {
        self.moves[ply * WIDTH] = index;
        self.len[ply] = 1;
    }

    /// The line found below the root.
    pub(crate) fn root(&self) -> &[u16] {
        &self.moves[..self.len[0]]
    }
}

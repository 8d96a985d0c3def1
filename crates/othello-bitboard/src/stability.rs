//! Stable discs: discs that no continuation of the game can flip, and the bound on the final score
//! they give (the exact solver's *stability cutoff*).
//!
//! A disc can only be flipped along one of the four axes through it (horizontal, vertical, the two
//! diagonals), by a move that brackets a run of discs containing it. Along an axis a disc is safe
//! when
//! - the line through it on that axis is full (no move can ever be played on it), or
//! - one of its two neighbours on that axis is off the board, or is a stable disc of the same colour
//!   (any bracketing run would have to contain that neighbour, which never flips).
//!
//! A disc safe on all four axes is stable. [`stable_discs`] computes the least fixpoint of that rule
//! from nothing (corners first, then what leans on them, …) with shifts, so every disc it reports
//! is really stable: a lower bound of the stable set, the classic one of Edax and other solvers.
//! Discs of the other colour play no part except by filling lines.

use crate::board::{FILE_A, FILE_H, RANK_1, RANK_8};

/// The eight ranks.
const ROWS: [u64; 8] = {
    let mut rows = [0u64; 8];
    let mut r = 0;
    while r < 8 {
        rows[r] = RANK_1 << (8 * r);
        r += 1;
    }
    rows
};

/// The eight files.
const COLUMNS: [u64; 8] = {
    let mut columns = [0u64; 8];
    let mut c = 0;
    while c < 8 {
        columns[c] = FILE_A << c;
        c += 1;
    }
    columns
};

/// The 15 diagonals along which the file and the rank grow together (`a1`-`h8` and its parallels),
/// indexed by `file − rank + 7`.
const DIAGONALS_9: [u64; 15] = {
    let mut lines = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        lines[file + 7 - rank] |= 1 << sq;
        sq += 1;
    }
    lines
};

/// The 15 diagonals along which the file shrinks as the rank grows (`h1`-`a8` and its parallels),
/// indexed by `file + rank`.
const DIAGONALS_7: [u64; 15] = {
    let mut lines = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        lines[file + rank] |= 1 << sq;
        sq += 1;
    }
    lines
};

/// The union of the `lines` that `occupied` fills completely.
#[inline(always)]
fn full(lines: &[u64], occupied: u64) -> u64 {
    let mut full = 0;
    for &line in lines {
        if occupied & line == line {
            full |= line;
        }
    }
    full
}

/// The discs of `own` that can never be flipped, whatever is played (a subset of the truly stable
/// discs; see the [module docs](self)). `other` holds the other colour's discs.
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let occupied = own | other;
    // Along each axis: squares whose line is full, or that have an off-board neighbour.
    let base_h = full(&ROWS, occupied) | FILE_A | FILE_H;
    let base_v = full(&COLUMNS, occupied) | RANK_1 | RANK_8;
    let edges = FILE_A | FILE_H | RANK_1 | RANK_8;
    let base_9 = full(&DIAGONALS_9, occupied) | edges;
    let base_7 = full(&DIAGONALS_7, occupied) | edges;
    let mut stable = 0u64;
    loop {
        // Squares with a stable neighbour on each axis (masks stop shifts wrapping across files).
        let h = base_h | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
        let v = base_v | (stable << 8) | (stable >> 8);
        let d9 = base_9 | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
        let d7 = base_7 | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
        let grown = own & h & v & d9 & d7;
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The best final score (disc difference, empties to the winner) the side whose opponent owns
/// `other_stable` stable discs can still reach: those discs stay the opponent's, so at most
/// `64 − other_stable` squares end up ours.
#[inline]
pub fn score_ceiling(other_stable: u64) -> i32 {
    64 - 2 * other_stable.count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::random_position;
    use crate::{Board, Position};
    use game_trait::{MoveList, ZeroSumGame};

    /// Every square whose disc changes colour somewhere in some continuation (brute force over all
    /// lines of play).
    fn ever_flipped(p: &Position, changed: &mut u64) {
        let game = crate::Othello;
        if game.outcome(p).is_some() {
            return;
        }
        let mut moves = MoveList::new();
        game.moves(p, &mut moves);
        for &mv in &moves {
            let child = p.play_legal(mv);
            let (before, after) = (p.board(), child.board());
            // The mover's discs before the move that are not the mover's after it: none; the
            // opponent's discs that became the mover's: flipped.
            *changed |= before.opponent() & after.opponent();
            ever_flipped(&child, changed);
        }
    }

    #[test]
    fn stable_discs_never_flip_in_any_continuation() {
        for seed in 0..300 {
            let p = random_position(seed, 4 + (seed % 6) as u32);
            let b = p.board();
            let mut changed = 0;
            ever_flipped(&p, &mut changed);
            for (own, other) in [(b.player(), b.opponent()), (b.opponent(), b.player())] {
                let stable = stable_discs(own, other);
                assert_eq!(stable & !own, 0, "seed {seed}: a stable square is not own");
                assert_eq!(
                    stable & changed,
                    0,
                    "seed {seed}: a stable disc flipped\n{p}"
                );
            }
        }
    }

    #[test]
    fn corners_edges_and_full_boards() {
        // A lone corner is stable; a lone edge disc is not.
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(1 << 3, 0), 0);
        // A run along rank 1 from a1 leans on the corner.
        assert_eq!(stable_discs(0b1111, 0), 0b1111);
        // On a full board every disc is stable.
        let own = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(stable_discs(own, !own), own);
        assert_eq!(stable_discs(!own, own), !own);
        // The start position has none.
        let b = Board::START;
        assert_eq!(stable_discs(b.player(), b.opponent()), 0);
        assert_eq!(score_ceiling(0), 64);
        assert_eq!(score_ceiling(0b111), 58);
    }

    #[test]
    fn the_ceiling_bounds_the_exact_score() {
        for seed in 0..200 {
            let p = random_position(500 + seed, 8);
            let b = p.board();
            let mut nodes = 0;
            let exact = crate::endgame::solve_exact(b, &mut nodes);
            assert!(exact <= score_ceiling(stable_discs(b.opponent(), b.player())));
        }
    }
}

//! [`FastestFirst`]: Othello move ordering for the α/β engine's [`MoveOrdering`] hook.
//!
//! The key of a move, higher searched first (the engine puts the transposition-table move and killers
//! before all of them):
//!
//! ```text
//! key = −MOBILITY_WEIGHT · replies − POTENTIAL_WEIGHT · potential
//!       + CORNER_BONUS · [move on a corner] + PARITY_BONUS · [odd region]
//! ```
//!
//! - *Fastest first* (`replies`): the number of legal squares the opponent has after the move, a
//!   corner counting twice (giving a corner away is worse than any other reply). Few replies make
//!   small subtrees, and a move that leaves the opponent few options is usually good, so it is both
//!   cheap to refute and likely to refute (the classic endgame-solver ordering).
//! - *Potential mobility* (`potential`): the empty squares next to the mover's discs after the
//!   move, where the opponent's future moves come from.
//! - *Corners*: a disc on a corner can never be flipped.
//! - *Parity*: in the endgame, playing into a quadrant with an odd number of empty squares tends to
//!   give the last move of that region to the mover.

use game_trait::MoveOrdering;

use crate::board::{flips, neighbours, CORNERS};
use crate::game::Othello;
use crate::position::Position;
use crate::square::Move;

/// The four quadrants (`a1`-`d4`, `e1`-`h4`, `a5`-`d8`, `e5`-`h8`), for parity.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The quadrant containing bit `sq`.
#[inline(always)]
pub const fn quadrant(sq: u8) -> usize {
    ((sq >> 2) & 1) as usize | (((sq >> 5) & 1) << 1) as usize
}

/// Fastest-first ordering with corner and parity bonuses. See the [module docs](self).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `mobility_weight` | 16 | key lost per opponent reply (corner replies count twice) |
/// | `corner_bonus` | 30 | key gained by a move on a corner |
/// | `parity_bonus` | 4 | key gained by a move into a quadrant with an odd number of empties |
/// | `parity_empties` | 20 | parity counts only with at most this many empty squares |
/// | `potential_weight` | 2 | key lost per empty square next to the mover's discs after the move |
///
/// The defaults were chosen by timing exact solves of the FFO endgame suite (positions 20–39); the
/// measurements are in the repository's `docs/reproductions.md` ("Exact endgame solving").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastestFirst {
    /// Key lost per opponent reply.
    pub mobility_weight: i32,
    /// Key gained by a move on a corner.
    pub corner_bonus: i32,
    /// Key gained by a move into a quadrant with an odd number of empty squares.
    pub parity_bonus: i32,
    /// Parity counts only when the position has at most this many empty squares.
    pub parity_empties: u32,
    /// Key lost per empty square next to the mover's discs after the move (the opponent's potential
    /// mobility).
    pub potential_weight: i32,
}

impl Default for FastestFirst {
    fn default() -> FastestFirst {
        FastestFirst {
            mobility_weight: 16,
            corner_bonus: 30,
            parity_bonus: 4,
            parity_empties: 20,
            potential_weight: 2,
        }
    }
}

impl FastestFirst {
    /// The ordering key of `mv` in `position` (see the module docs); the pass, the only move when it
    /// is legal, gets 0.
    #[inline]
    pub fn key(&self, position: &Position, mv: Move) -> i32 {
        let Some(square) = mv.square() else { return 0 };
        #[cfg(target_arch = "x86_64")]
        if crate::perft::has_x86_64_v3() {
            // SAFETY: the CPU supports every feature `key_x86_64_v3` is compiled with.
            return unsafe { self.key_x86_64_v3(position.board(), square) };
        }
        self.key_portable(position.board(), square)
    }

    /// [`key`](FastestFirst::key) for a placement, compiled with x86-64-v3 features (a hardware
    /// popcount matters here: two per move).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn key_x86_64_v3(&self, board: crate::Board, square: crate::Square) -> i32 {
        self.key_portable(board, square)
    }

    /// [`key`](FastestFirst::key) for a placement, baseline build.
    #[inline(always)]
    fn key_portable(&self, board: crate::Board, square: crate::Square) -> i32 {
        let sq = square.index();
        let flipped = flips(board.player(), board.opponent(), sq);
        let child = board.apply_flips(square.bit(), flipped);
        let mut key = -self.mobility_weight * weighted_replies(child) as i32;
        if self.potential_weight != 0 {
            // The opponent's potential mobility: empty squares next to our discs.
            let potential = (neighbours(child.opponent()) & child.empties()).count_ones() as i32;
            key -= self.potential_weight * potential;
        }
        if CORNERS & square.bit() != 0 {
            key += self.corner_bonus;
        }
        let empties = board.empties();
        if empties.count_ones() <= self.parity_empties
            && (empties & QUADRANTS[quadrant(sq)]).count_ones() % 2 == 1
        {
            key += self.parity_bonus;
        }
        key
    }
}

/// The opponent's replies in `child` (its side to move's moves), corner replies counted twice:
/// giving a corner away is worse than giving any other reply. The fastest-first measure, shared by
/// [`FastestFirst`] and the specialised endgame solver.
#[inline(always)]
pub(crate) fn weighted_replies(child: crate::Board) -> u32 {
    let replies = child.moves();
    replies.count_ones() + (replies & CORNERS).count_ones()
}

impl MoveOrdering<Othello> for FastestFirst {
    #[inline]
    fn score(&mut self, _: &Othello, state: &Position, mv: Move, _depth: u32) -> i32 {
        self.key(state, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    #[test]
    fn quadrants_partition_the_board() {
        assert_eq!(QUADRANTS.iter().fold(0, |a, q| a | q), u64::MAX);
        for square in Square::all() {
            let q = quadrant(square.index());
            assert!(QUADRANTS[q] & square.bit() != 0, "{square}");
            let expected = usize::from(square.file() >= 4) + 2 * usize::from(square.rank() >= 4);
            assert_eq!(q, expected);
        }
    }

    #[test]
    fn the_dispatched_and_portable_keys_agree() {
        let order = FastestFirst::default();
        for seed in 0..50 {
            for p in crate::random_game(seed) {
                for sq in crate::squares(p.legal_squares()) {
                    assert_eq!(
                        order.key(&p, Move::at(sq)),
                        order.key_portable(p.board(), sq)
                    );
                }
            }
        }
    }

    #[test]
    fn fewer_replies_rank_higher() {
        // After f5 white has f4, d6, f6; compare their keys with the replies counted by hand.
        let p = Position::start().play_moves("f5").unwrap();
        let order = FastestFirst {
            potential_weight: 0,
            ..FastestFirst::default()
        };
        for mv in p.legal_moves() {
            let replies = p.play_legal(mv).legal_squares().count_ones() as i32;
            assert_eq!(order.key(&p, mv), -16 * replies, "{mv}");
        }
    }

    #[test]
    fn potential_mobility_counts_empties_next_to_the_movers_discs() {
        // After f5 (black), white's d6: the empty squares next to white's discs afterwards.
        let p = Position::start().play_moves("f5").unwrap();
        let d6 = Move::at("d6".parse().unwrap());
        let child = p.play_legal(d6);
        let white = child.board().opponent();
        let potential = (neighbours(white) & child.board().empties()).count_ones() as i32;
        let replies = child.legal_squares().count_ones() as i32;
        let order = FastestFirst::default();
        assert_eq!(order.key(&p, d6), -16 * replies - 2 * potential);
    }

    #[test]
    fn corners_and_parity_add_their_bonuses() {
        // Black c1, white b1, black to move: a1 takes the corner (flipping b1).
        let black = "c1".parse::<Square>().unwrap().bit();
        let white = "b1".parse::<Square>().unwrap().bit();
        let p = Position::from_colors(black, white, crate::Color::Black).unwrap();
        let a1 = Move::at(Square::A1);
        assert!(p.is_legal(a1));
        // 62 empties: no parity; after a1 white has no disc, so no replies; the potential is the
        // 5 empties next to a1-c1 (a2, b2, c2, d1, d2).
        assert_eq!(FastestFirst::default().key(&p, a1), 30 - 2 * 5);
        let endgame = FastestFirst {
            parity_empties: 64,
            ..FastestFirst::default()
        };
        // Quadrant a1-d4 has 16 - 2 = 14 empties: even, no bonus.
        assert_eq!(endgame.key(&p, a1), 20);
        // With d4 black too the quadrant has 13 empties: odd, the bonus applies.
        let black = black | "d4".parse::<Square>().unwrap().bit();
        let p = Position::from_colors(black, white, crate::Color::Black).unwrap();
        let no_parity = FastestFirst {
            parity_bonus: 0,
            ..endgame
        };
        assert_eq!(endgame.key(&p, a1), no_parity.key(&p, a1) + 4);
    }
}

//! [`OthelloPlausibility`]: how interesting an Othello move is, for Rollason's interest search.
//! The terms are documented on the type.

use game_trait::Plausibility;

use crate::board::{neighbours, CORNERS, FILE_A, FILE_H, RANK_1, RANK_8};
use crate::game::Othello;
use crate::position::Position;
use crate::square::Move;
use crate::Board;

/// Interest of a pass (always the only move): the base interest of a one-move position.
const PASS_INTEREST: i32 = 1000;
/// Bonus for taking a corner.
const CORNER: i32 = 300;
/// Bonus per own disc newly anchored to an own corner along an edge.
const STABLE_DISC: i32 = 30;
/// Bonus per legal square the move takes away from the opponent.
const MOBILITY: i32 = 25;
/// Bonus for the best move of the previous search at this position (Treebeard's term 4).
const PREVIOUS_BEST: i32 = 100;
/// Bonus for a killer move at this number of empties (Treebeard's term 5).
const KILLER: i32 = 100;
/// Divisor for a move onto the X square of an empty corner.
const X_DIVISOR: i32 = 4;
/// Divisor for a move onto a C square of an empty corner.
const C_DIVISOR: i32 = 2;

/// The four X squares (b2, g2, b7, g7).
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// The edge squares.
const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;
/// The eight C squares (edge neighbours of the corners).
const C_SQUARES: u64 = neighbours_const(CORNERS) & EDGES & !CORNERS;
/// The inner 4 × 4.
const CENTRE: u64 = 0x0000_3C3C_3C3C_0000;

/// `neighbours` for constants (the board module's version is not `const`).
const fn neighbours_const(bits: u64) -> u64 {
    let horizontal = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
    let row = bits | horizontal;
    horizontal | (row << 8) | (row >> 8)
}

/// The class of a square, the similarity key of the moves onto it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum SquareClass {
    /// a1, h1, a8, h8.
    Corner = 0,
    /// The diagonal neighbours of the corners.
    X = 1,
    /// The edge neighbours of the corners.
    C = 2,
    /// The other edge squares.
    Edge = 3,
    /// The second ring, without the X squares.
    Buffer = 4,
    /// The inner 4 × 4.
    Centre = 5,
}

impl SquareClass {
    /// The class of the square `bit` (a single-bit board).
    pub fn of(bit: u64) -> SquareClass {
        if bit & CORNERS != 0 {
            SquareClass::Corner
        } else if bit & X_SQUARES != 0 {
            SquareClass::X
        } else if bit & C_SQUARES != 0 {
            SquareClass::C
        } else if bit & EDGES != 0 {
            SquareClass::Edge
        } else if bit & CENTRE != 0 {
            SquareClass::Centre
        } else {
            SquareClass::Buffer
        }
    }
}

/// Killer slots per number of empties (0..=60).
const KILLER_DEPTHS: usize = 61;

/// Othello's plausibility for Rollason's interest search (Jeff Rollason, *Interest Search —
/// Another Way to Do Minimax*, AI Factory, 2014).
///
/// Interest search (the `interest-search` crate) turns each move's interest into a cost,
/// `cost = scale / interest`, and ends a line when its mover has spent its share of the iteration's
/// interest limit. Rollason lists the interest terms of his chess program Treebeard as examples to
/// choose from, not as a specification; this type is the same idea for Othello, in Treebeard's units
/// (its base interest is `1000 / legal moves`, and its bonuses are around 100). "Term n" below is
/// the n-th entry of that list:
///
/// | term | value | why |
/// |---|---|---|
/// | base | `1000 / legal moves` | Treebeard's term 1: in a position with many choices each one matters less |
/// | corner | `+300` | a corner can never be flipped and anchors edges: almost always worth a look |
/// | stable discs | `+30` per own disc newly anchored | discs joined to an own corner along an edge can never be flipped (a cheap, sound subset of stability) |
/// | mobility | `+25` per square the opponent loses (nothing when it gains) | Othello's strategic core: restricting the opponent's choices |
/// | previous best | `+100` | Treebeard's term 4 (previous iteration's best move), fed by [`set_previous_best`](Self::set_previous_best) |
/// | killer | `+100` | Treebeard's term 5 (killer moves), per number of empties, fed by [`add_killer`](Self::add_killer) |
/// | X square | `÷ 4` | the diagonal neighbour of an **empty** corner usually gives the corner away |
/// | C square | `÷ 2` | an edge neighbour of an empty corner: often, not always, as bad |
///
/// The additive terms, all non-negative as in Treebeard's list, are summed first; the X/C penalties
/// then divide the sum (a multiplicative "down" keeps the interest positive however small the
/// base), so every move's interest lies between a quarter of the base and the base plus its
/// bonuses: no move costs more than four times an ordinary one. A pass,
/// always the only move, has the base interest 1000.
///
/// **Similarity** ([`Plausibility::similarity`]) is the square class, for the similar-moves penalty:
/// corner, X, C, edge (the other edge squares), buffer (the second ring without the X squares) and
/// centre (the inner 4 × 4); a pass has none.
///
/// **Per-search state.** The α/β engine does not report cutoffs or best moves to hooks, so the
/// hints are fed by the caller: [`learn_line`](Self::learn_line) after a search records
/// its principal variation (the move it expects to play next as the best move of the position it
/// expects to face, the replies and later moves as killers at their number of empties), which is
/// what the next search, two plies later, most wants to try first. [`clear`](Self::clear) forgets
/// them.
#[derive(Clone, Debug)]
pub struct OthelloPlausibility {
    /// Hash of the position where `best` was best, and the move.
    previous_best: Option<(u64, Move)>,
    /// Two killers per number of empties, newest first.
    killers: [[Option<Move>; 2]; KILLER_DEPTHS],
    /// The facts of the last position asked about: the engine asks for every move of a node in a
    /// row (ordering) and then again per move explored (the horizon's cost), so one entry saves
    /// two move generations per call.
    last_parent: Option<(Board, ParentFacts)>,
}

/// What [`square_interest`] needs of the position before the move, the same for all its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ParentFacts {
    /// Legal moves of the side to move.
    legal: u32,
    /// Legal moves the opponent would have if it were to move.
    replies_before: i32,
    /// The mover's discs anchored to an own corner.
    anchored_before: i32,
}

impl ParentFacts {
    fn of(board: Board) -> ParentFacts {
        ParentFacts {
            legal: board.moves().count_ones(),
            replies_before: board.opponent_moves().count_ones() as i32,
            anchored_before: edge_anchored(board.player()).count_ones() as i32,
        }
    }
}

impl Default for OthelloPlausibility {
    fn default() -> OthelloPlausibility {
        OthelloPlausibility::new()
    }
}

impl OthelloPlausibility {
    /// A plausibility with no hints yet.
    pub fn new() -> OthelloPlausibility {
        OthelloPlausibility {
            previous_best: None,
            killers: [[None; 2]; KILLER_DEPTHS],
            last_parent: None,
        }
    }

    /// Forgets the best move and the killers.
    pub fn clear(&mut self) {
        *self = OthelloPlausibility::new();
    }

    /// Records `mv` as the best move found at `position` (Treebeard's "previous iteration best
    /// move").
    pub fn set_previous_best(&mut self, position: &Position, mv: Move) {
        self.previous_best = Some((position.hash(), mv));
    }

    /// Records `mv` as a killer for positions with as many empty squares as `position`.
    pub fn add_killer(&mut self, position: &Position, mv: Move) {
        let slot = &mut self.killers[empties_index(position)];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    /// Records a principal variation from `root`, the searcher's own move first: the move it expects
    /// to play next (`line[2]`, after the expected reply `line[1]`) as the best move of the position
    /// it expects to face, and every move after the first as a killer at its number of empties.
    /// (`line[0]` is played at once: the position it was best at never comes back.) Stops at the
    /// first illegal move.
    pub fn learn_line(&mut self, root: &Position, line: &[Move]) {
        let mut position = *root;
        for (i, &mv) in line.iter().enumerate() {
            if i == 2 {
                self.set_previous_best(&position, mv);
            }
            if i >= 1 {
                self.add_killer(&position, mv);
            }
            match position.play(mv) {
                Some(next) => position = next,
                None => return,
            }
        }
    }

    /// The hint bonus of `mv` at `position`: previous best and killer terms.
    fn hints(&self, position: &Position, mv: Move) -> i32 {
        let best = match self.previous_best {
            Some((hash, best)) if best == mv && hash == position.hash() => PREVIOUS_BEST,
            _ => 0,
        };
        let killer = if self.killers[empties_index(position)].contains(&Some(mv)) {
            KILLER
        } else {
            0
        };
        best + killer
    }
}

#[inline]
fn empties_index(position: &Position) -> usize {
    (position.empty_count() as usize).min(KILLER_DEPTHS - 1)
}

/// Own discs joined to an own corner by an unbroken run along an edge: they can never be flipped.
#[inline]
pub fn edge_anchored(own: u64) -> u64 {
    /// (corner, step along an edge away from it).
    const RAYS: [(i8, i8); 8] = [
        (0, 1),
        (0, 8),
        (7, -1),
        (7, 8),
        (56, 1),
        (56, -8),
        (63, -1),
        (63, -8),
    ];
    if own & CORNERS == 0 {
        return 0; // the common case: nothing is anchored
    }
    let mut anchored = 0;
    for (corner, step) in RAYS {
        let mut square = corner;
        for _ in 0..8 {
            let bit = 1u64 << square;
            if own & bit == 0 {
                break;
            }
            anchored |= bit;
            square += step;
        }
    }
    anchored
}

/// The interest of a disc placed on `bit` in `board` (side to move's view), hints excluded.
fn square_interest(board: Board, bit: u64, flipped: u64, parent: ParentFacts) -> i32 {
    let mut interest = 1000 / parent.legal.max(1) as i32;
    if bit & CORNERS != 0 {
        interest += CORNER;
    }
    // After the move the sides are swapped: the mover's discs are the child's opponent's.
    let child = board.apply_flips(bit, flipped);
    let own_after = child.opponent();
    let newly_anchored = edge_anchored(own_after).count_ones() as i32 - parent.anchored_before;
    interest += STABLE_DISC * newly_anchored;
    let reply_before = parent.replies_before;
    let reply_after = child.moves().count_ones() as i32;
    // Only a reduction counts: like every Treebeard term this one only adds interest, so that no
    // move falls below the base (a negative term could drive the interest to 1 and the cost to
    // `scale`, pruning the move for good).
    interest += MOBILITY * (reply_before - reply_after).max(0);
    interest
}

/// X or C penalty for `bit` in `board`: the divisor when the adjacent corner is empty.
fn corner_penalty(board: Board, bit: u64) -> i32 {
    let empty_corners = CORNERS & board.empties();
    if bit & neighbours(empty_corners) == 0 {
        1
    } else if bit & X_SQUARES != 0 {
        X_DIVISOR
    } else if bit & C_SQUARES != 0 {
        C_DIVISOR
    } else {
        1
    }
}

impl Plausibility<Othello> for OthelloPlausibility {
    fn interest(&mut self, _: &Othello, state: &Position, mv: Move) -> u32 {
        let Some(square) = mv.square() else {
            return PASS_INTEREST as u32;
        };
        let board = state.board();
        let bit = square.bit();
        let flipped = board.flips(square);
        let parent = match self.last_parent {
            Some((b, facts)) if b == board => facts,
            _ => {
                let facts = ParentFacts::of(board);
                self.last_parent = Some((board, facts));
                facts
            }
        };
        let additive = square_interest(board, bit, flipped, parent) + self.hints(state, mv);
        (additive / corner_penalty(board, bit)).max(1) as u32
    }

    fn similarity(&self, _: &Othello, _: &Position, mv: Move) -> Option<u32> {
        mv.square().map(|s| SquareClass::of(s.bit()) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{random_position, Color, Square, Symmetry};
    use game_trait::{MoveList, ZeroSumGame};
    use quickcheck::quickcheck;

    fn sq(name: &str) -> u64 {
        name.parse::<Square>().unwrap().bit()
    }

    #[test]
    fn square_classes_partition_the_board() {
        let count = |c: SquareClass| (0..64).filter(|&i| SquareClass::of(1u64 << i) == c).count();
        assert_eq!(count(SquareClass::Corner), 4);
        assert_eq!(count(SquareClass::X), 4);
        assert_eq!(count(SquareClass::C), 8);
        assert_eq!(count(SquareClass::Edge), 16);
        assert_eq!(count(SquareClass::Buffer), 16);
        assert_eq!(count(SquareClass::Centre), 16);
        assert_eq!(SquareClass::of(sq("b2")), SquareClass::X);
        assert_eq!(SquareClass::of(sq("b1")), SquareClass::C);
        assert_eq!(SquareClass::of(sq("c1")), SquareClass::Edge);
        assert_eq!(SquareClass::of(sq("c2")), SquareClass::Buffer);
        assert_eq!(SquareClass::of(sq("d4")), SquareClass::Centre);
    }

    #[test]
    fn edge_anchored_discs_run_from_own_corners() {
        let own = sq("a1") | sq("b1") | sq("c1") | sq("e1") | sq("a2") | sq("h8") | sq("d4");
        assert_eq!(
            edge_anchored(own),
            sq("a1") | sq("b1") | sq("c1") | sq("a2") | sq("h8")
        );
        assert_eq!(edge_anchored(sq("b1") | sq("d4")), 0);
        assert_eq!(edge_anchored(RANK_1), RANK_1);
    }

    /// Black to move can take a1 (corner), or play b2/b1 next to the empty a1 corner and elsewhere.
    fn corner_position() -> Position {
        // White on b2, c3; black on d4: black plays a1 (flipping b2, c3).
        // White on c2 (black on d2... ) — built with from_colors.
        let white = sq("b2") | sq("c3") | sq("c2") | sq("f4");
        let black = sq("d4") | sq("d2") | sq("g4");
        Position::from_colors(black, white, Color::Black).unwrap()
    }

    #[test]
    fn corners_up_x_squares_down() {
        let p = corner_position();
        let mut pl = OthelloPlausibility::new();
        let a1 = Move::at("a1".parse().unwrap());
        assert!(p.is_legal(a1));
        let interest = |pl: &mut OthelloPlausibility, m: Move| pl.interest(&Othello, &p, m);
        let corner = interest(&mut pl, a1);
        let mut moves = MoveList::new();
        Othello.moves(&p, &mut moves);
        for &m in &moves {
            if m != a1 {
                assert!(corner > interest(&mut pl, m), "a1 {corner} vs {m}");
            }
        }
    }

    #[test]
    fn c_squares_next_to_an_empty_corner_are_halved() {
        // Black d1, white c1, black to move: b1 (a C square of the empty a1 corner) flips c1.
        let p = Position::from_colors(sq("d1"), sq("c1"), Color::Black).unwrap();
        let b1 = Move::at("b1".parse().unwrap());
        assert!(p.is_legal(b1));
        let board = p.board();
        let raw = square_interest(
            board,
            b1.bit(),
            board.flips(b1.square().unwrap()),
            ParentFacts::of(board),
        );
        let mut pl = OthelloPlausibility::new();
        assert_eq!(pl.interest(&Othello, &p, b1), (raw / 2).max(1) as u32);
    }

    #[test]
    fn hints_add_exactly_their_bonus() {
        let p = Position::start();
        let mut pl = OthelloPlausibility::new();
        let mut moves = MoveList::new();
        Othello.moves(&p, &mut moves);
        let m = moves[0];
        let before = pl.interest(&Othello, &p, m);
        pl.set_previous_best(&p, m);
        assert_eq!(pl.interest(&Othello, &p, m), before + 100);
        pl.add_killer(&p, m);
        assert_eq!(pl.interest(&Othello, &p, m), before + 200);
        assert_eq!(pl.interest(&Othello, &p, moves[1]), {
            let mut fresh = OthelloPlausibility::new();
            fresh.interest(&Othello, &p, moves[1])
        });
        pl.clear();
        assert_eq!(pl.interest(&Othello, &p, m), before);
        // learn_line: the expected next move is best where it will be played, the reply and the
        // later moves are killers; the move played at once learns nothing.
        let child = p.play(m).unwrap();
        let mut replies = MoveList::new();
        Othello.moves(&child, &mut replies);
        let r = replies[0];
        let next = child.play(r).unwrap();
        let mut ours = MoveList::new();
        Othello.moves(&next, &mut ours);
        let n = ours[0];
        let (reply_before, next_before) = (
            pl.interest(&Othello, &child, r),
            pl.interest(&Othello, &next, n),
        );
        pl.learn_line(&p, &[m, r, n]);
        assert_eq!(pl.interest(&Othello, &p, m), before);
        assert_eq!(pl.interest(&Othello, &child, r), reply_before + 100);
        assert_eq!(pl.interest(&Othello, &next, n), next_before + 200);
    }

    #[test]
    fn the_remembered_position_never_leaks_into_another() {
        // One plausibility asked about a game's positions in turn (each position's facts replace
        // the last) answers as a fresh one does.
        let mut reused = OthelloPlausibility::new();
        for seed in 0..20 {
            for p in crate::random_game(seed) {
                for mv in p.legal_moves() {
                    let fresh = OthelloPlausibility::new().interest(&Othello, &p, mv);
                    assert_eq!(reused.interest(&Othello, &p, mv), fresh);
                }
            }
        }
    }

    quickcheck! {
        /// Interest is positive, classes cover every legal move, and without hints the interest is
        /// the same in all eight symmetric images of a position.
        fn interest_is_positive_and_symmetric(seed: u64, empties: u8) -> bool {
            let p = random_position(seed, u32::from(empties % 60));
            let mut pl = OthelloPlausibility::new();
            let mut moves = MoveList::new();
            if p.is_game_over() {
                return true;
            }
            Othello.moves(&p, &mut moves);
            moves.iter().all(|&m| {
                let i = pl.interest(&Othello, &p, m);
                let symmetric = Symmetry::ALL.iter().all(|&s| {
                    pl.interest(&Othello, &p.transform(s), s.mv(m)) == i
                });
                i >= 1 && symmetric && (m.is_pass() || pl.similarity(&Othello, &p, m).is_some())
            })
        }
    }
}

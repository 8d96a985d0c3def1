//! The two evaluation functions of Vu, Ishitobi, Terrillon and Iida, *Using Conspiracy Numbers for
//! Improving Move Selection in Minimax Game-Tree Search* (ICAART 2016, Algorithms 4 and 5), from the
//! side to move's point of view.
//!
//! ```text
//! EV1 = 1000·corners + 100·mobility − 200·next_to_corners − 100·frontier + 1·discs   (Algorithm 4)
//! EV2 = 1000·corners + 100·mobility + 1·discs                                        (Algorithm 5)
//! ```
//!
//! The paper says only that "the included features are the differences between 2 players in the number
//! of corners, mobility (the number of moves), the number of discs, the number of next-to-open-corner
//! discs and the number of frontier discs (discs next to an open cell)". Our exact reading, each feature
//! being *side to move minus opponent*:
//!
//! | feature | counts, for one player |
//! |---|---|
//! | `corners` | discs on `a1`, `h1`, `a8`, `h8` |
//! | `mobility` | legal squares (as if that player were to move; a pass counts 0) |
//! | `next_to_corners` | discs on the 3 squares adjacent to an **empty** corner (its two C squares and its X square) |
//! | `frontier` | discs 8-adjacent to at least one empty square |
//! | `discs` | discs |
//!
//! Searchers score finished games by their [`Outcome`](game_trait::Outcome) (the final disc
//! difference, empties to the winner) above every evaluation; these functions see only games in
//! progress. All values lie well inside
//! [`EVAL_LIMIT`](game_trait::EVAL_LIMIT) (|EV1| < 20 000).

use game_trait::{Evaluator, Score};

use crate::board::{moves, neighbours, Board, CORNERS};
use crate::game::Othello;
use crate::position::Position;

/// The five feature differences of EV1 and EV2, side to move minus opponent. See the
/// module docs for the definitions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Corner discs.
    pub corners: i32,
    /// Legal squares.
    pub mobility: i32,
    /// Discs on the C and X squares of empty corners.
    pub next_to_corners: i32,
    /// Discs adjacent to an empty square.
    pub frontier: i32,
    /// Discs.
    pub discs: i32,
}

impl Features {
    /// The features of `board` (side to move's view).
    pub fn of(board: Board) -> Features {
        let (p, o) = (board.player(), board.opponent());
        let diff = |set: u64| (p & set).count_ones() as i32 - (o & set).count_ones() as i32;
        let empties = board.empties();
        Features {
            corners: diff(CORNERS),
            mobility: moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32,
            // The 8-neighbourhood of a corner is exactly its two C squares and its X square.
            next_to_corners: diff(neighbours(CORNERS & empties)),
            frontier: diff(neighbours(empties)),
            discs: diff(!0),
        }
    }

    /// EV1 (Algorithm 4): `1000·corners + 100·mobility − 200·next_to_corners − 100·frontier + discs`.
    pub const fn ev1(&self) -> Score {
        1000 * self.corners + 100 * self.mobility - 200 * self.next_to_corners - 100 * self.frontier
            + self.discs
    }

    /// EV2 (Algorithm 5): `1000·corners + 100·mobility + discs`.
    pub const fn ev2(&self) -> Score {
        1000 * self.corners + 100 * self.mobility + self.discs
    }
}

/// The first evaluation function of Vu et al., EV1 (Algorithm 4).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ev1;

/// The second evaluation function of Vu et al., EV2 (Algorithm 5).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ev2;

impl Evaluator<Othello> for Ev1 {
    #[inline]
    fn evaluate(&mut self, _: &Othello, state: &Position) -> Score {
        Features::of(state.board()).ev1()
    }
}

impl Evaluator<Othello> for Ev2 {
    #[inline]
    fn evaluate(&mut self, _: &Othello, state: &Position) -> Score {
        Features::of(state.board()).ev2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::reference;
    use crate::random::random_game;
    use crate::symmetry::Symmetry;
    use crate::{Color, Square};
    use quickcheck::quickcheck;

    fn bits(names: &str) -> u64 {
        names
            .split_whitespace()
            .map(|n| n.parse::<Square>().unwrap().bit())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn the_start_position_is_level() {
        assert_eq!(Features::of(Position::start().board()), Features::default());
        assert_eq!(Ev1.evaluate(&Othello, &Position::start()), 0);
    }

    #[test]
    fn after_f5_by_hand() {
        // White to move: white d4; black d5 e5 e4 f5. White's moves f4 d6 f6, black's c3 d3 c4;
        // every disc touches an empty square; no corner is taken or touched.
        let p = Position::start().play_moves("f5").unwrap();
        let f = Features::of(p.board());
        let expected = Features {
            corners: 0,
            mobility: 0,
            next_to_corners: 0,
            frontier: 1 - 4,
            discs: 1 - 4,
        };
        assert_eq!(f, expected);
        assert_eq!(Ev1.evaluate(&Othello, &p), 300 - 3);
        assert_eq!(Ev2.evaluate(&Othello, &p), -3);
    }

    #[test]
    fn corners_and_their_neighbours_by_hand() {
        // Black a1 d4, white a2 b2 c3 g1, black to move.
        // corners: black a1 -> +1. Empty corners h1 a8 h8; g1 (white) is next to h1 -> -1; a2 and b2
        // are next to a1, which is taken, so they do not count. discs 2 - 4. Every disc touches an
        // empty square: frontier 2 - 4. Black can play only a3 (flipping a2); white only e5
        // (flipping d4 through c3): mobility 1 - 1.
        let black = bits("a1 d4");
        let white = bits("a2 b2 c3 g1");
        let p = Position::from_colors(black, white, Color::Black).unwrap();
        assert_eq!(p.legal_squares(), bits("a3"));
        assert_eq!(p.board().opponent_moves(), bits("e5"));
        let f = Features::of(p.board());
        assert_eq!(
            f,
            Features {
                corners: 1,
                mobility: 0,
                next_to_corners: -1,
                frontier: -2,
                discs: -2
            }
        );
        assert_eq!(f.ev1(), 1000 + 200 + 200 - 2);
        assert_eq!(f.ev2(), 1000 - 2);
        assert_eq!(Ev1.evaluate(&Othello, &p), 1398);
    }

    #[test]
    fn a_disc_surrounded_by_discs_is_not_frontier() {
        // A full board but h8: only g7, g8 and h7 touch the empty square.
        let board = Board::new(!(1u64 << 63), 0).unwrap();
        let f = Features::of(board);
        assert_eq!(f.frontier, 3);
        assert_eq!(f.next_to_corners, 3);
        assert_eq!(f.corners, 3);
    }

    #[test]
    fn finished_games_score_as_terminal_results() {
        let p = Position::from_colors(bits("a1 b1 c1"), 0, Color::White).unwrap();
        assert!(p.is_game_over());
        assert_eq!(Ev1.value(&Othello, &p), game_trait::terminal_score(-64));
        assert_eq!(Ev2.value(&Othello, &p), game_trait::terminal_score(-64));
    }

    quickcheck! {
        fn features_are_invariant_under_the_8_symmetries(seed: u64) -> bool {
            random_game(seed).iter().all(|p| {
                let f = Features::of(p.board());
                Symmetry::ALL.iter().all(|&s| Features::of(s.board(p.board())) == f)
            })
        }

        fn features_are_antisymmetric_in_the_side_to_move(seed: u64) -> bool {
            random_game(seed).iter().all(|p| {
                let (f, g) = (Features::of(p.board()), Features::of(p.board().pass()));
                (f.corners, f.mobility, f.next_to_corners, f.frontier, f.discs)
                    == (-g.corners, -g.mobility, -g.next_to_corners, -g.frontier, -g.discs)
            })
        }

        fn features_match_a_square_by_square_count(seed: u64) -> bool {
            random_game(seed).iter().all(|p| Features::of(p.board()) == slow_features(p.board()))
        }
    }

    /// The definitions of the module docs, one square at a time.
    fn slow_features(board: Board) -> Features {
        let (p, o) = (board.player(), board.opponent());
        let owner = |sq: i32| -> i32 {
            if p >> sq & 1 != 0 {
                1
            } else if o >> sq & 1 != 0 {
                -1
            } else {
                0
            }
        };
        let adjacent = |a: i32, b: i32| {
            a != b && ((a % 8) - (b % 8)).abs() <= 1 && ((a / 8) - (b / 8)).abs() <= 1
        };
        let corners = [0, 7, 56, 63];
        let mut f = Features {
            mobility: reference::moves(p, o).count_ones() as i32
                - reference::moves(o, p).count_ones() as i32,
            ..Features::default()
        };
        for sq in 0..64 {
            let who = owner(sq);
            f.discs += who;
            if corners.contains(&sq) {
                f.corners += who;
            }
            if corners.iter().any(|&c| owner(c) == 0 && adjacent(c, sq)) {
                f.next_to_corners += who;
            }
            if (0..64).any(|e| owner(e) == 0 && adjacent(e, sq)) {
                f.frontier += who;
            }
        }
        f
    }
}

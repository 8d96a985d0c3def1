//! [`Pesto`]: material and piece-square tables, tapered between middlegame and endgame, and the
//! scores of finished games with the distance to mate.
//!
//! # The tables
//! The values are those of PeSTO ("Piece-Square Tables Only"), Ronald Friederich's engine, as
//! published on the Chess Programming Wiki's page *PeSTO's Evaluation Function*: a middlegame and
//! an endgame value for each piece (pawn 82/94, knight 337/281, bishop 365/297, rook 477/512,
//! queen 1025/936 centipawns) plus a middlegame and an endgame table of 64 squares for each piece,
//! tuned on game results with Texel's method. They are the whole evaluation: no mobility, pawn
//! structure or king safety terms, and no tempo bonus.
//!
//! # Tapering
//! The *phase* counts the pieces left: knight and bishop 1, rook 2, queen 4 (24 at the start,
//! capped at 24 after promotions). With `mg` and `eg` the two sums, white's minus black's,
//!
//! > `value = (mg × phase + eg × (24 − phase)) / 24`
//!
//! (integer division, towards zero), from the side to move's point of view. The same function of
//! a position and of its mirror image with colours swapped gives the same value: the tests check
//! it.

use cozy_chess::{Board, Color, Piece};
use game_trait::{is_decisive, terminal_score, Evaluator, Outcome, Score, WIN};

use crate::game::Chess;
use crate::position::Position;

/// Middlegame value of a pawn, knight, bishop, rook, queen and king (PeSTO).
pub const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
/// Endgame value of a pawn, knight, bishop, rook, queen and king (PeSTO).
pub const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// What each piece adds to the phase (24 in the start position).
pub const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the start position: pure middlegame.
pub const MAX_PHASE: i32 = 24;

/// The tables, as published: index 0 is a8, 7 is h8, 56 is a1, 63 is h1, from white's side.
#[rustfmt::skip]
const MG_TABLE: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ],
    [ // knight
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ],
    [ // bishop
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [ // rook
         32,  42,  32,  51, 63,  9,  31,  43,
         27,  32,  58,  62, 80, 67,  26,  44,
         -5,  19,  26,  36, 17, 45,  61,  16,
        -24, -11,   7,  26, 24, 35,  -8, -20,
        -36, -26, -12,  -1,  9, -7,   6, -23,
        -45, -25, -16, -17,  3,  0,  -5, -33,
        -44, -16, -20,  -9, -1, 11,  -6, -71,
        -19, -13,   1,  17, 16,  7, -37, -26,
    ],
    [ // queen
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [ // king
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

/// The endgame tables, laid out as [`MG_TABLE`].
#[rustfmt::skip]
const EG_TABLE: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [ // bishop
        -14, -21, -11,  -8, -7,  -9, -17, -24,
         -8,  -4,   7, -12, -3, -13,  -4, -14,
          2,  -8,   0,  -1, -2,   6,   0,   4,
         -3,   9,  12,   9, 14,  10,   3,   2,
         -6,   3,  13,  19,  7,  10,  -3,  -9,
        -12,  -3,   8,  10, 13,   3,  -7, -15,
        -14, -18,  -7,  -1,  4,  -9, -15, -27,
        -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ],
    [ // rook
        13, 10, 18, 15, 12,  12,   8,   5,
        11, 13, 13, 11, -3,   3,   8,   3,
         7,  7,  7,  5,  4,  -3,  -5,  -3,
         4,  3, 13,  1,  2,   1,  -1,   2,
         3,  5,  8,  4, -5,  -6,  -8, -11,
        -4,  0, -5, -1, -7, -12,  -8, -16,
        -6, -6,  0,  2, -9,  -9, -11,  -3,
        -9,  2,  3, -1, -5, -13,   4, -20,
    ],
    [ // queen
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [ // king
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

/// Value plus table entry for `[colour][piece][square]`, squares numbered as the generator does
/// (a1 = 0, h8 = 63): a white piece on `s` reads the published table at `s ^ 56`, a black one at
/// `s` (its mirror image from black's side).
const fn combined(values: [i32; 6], tables: [[i32; 64]; 6]) -> [[[i32; 64]; 6]; 2] {
    let mut out = [[[0; 64]; 6]; 2];
    let mut piece = 0;
    while piece < 6 {
        let mut square = 0;
        while square < 64 {
            out[0][piece][square] = values[piece] + tables[piece][square ^ 56];
            out[1][piece][square] = values[piece] + tables[piece][square];
            square += 1;
        }
        piece += 1;
    }
    out
}

const MG: [[[i32; 64]; 6]; 2] = combined(MG_VALUE, MG_TABLE);
const EG: [[[i32; 64]; 6]; 2] = combined(EG_VALUE, EG_TABLE);

/// The middlegame value (piece value plus table) of `piece` of `colour` on `square`.
#[inline(always)]
pub fn mg_value(colour: Color, piece: Piece, square: cozy_chess::Square) -> i32 {
    MG[colour as usize][piece as usize][square as usize]
}

/// The endgame value (piece value plus table) of `piece` of `colour` on `square`.
#[inline(always)]
pub fn eg_value(colour: Color, piece: Piece, square: cozy_chess::Square) -> i32 {
    EG[colour as usize][piece as usize][square as usize]
}

/// How far below [`WIN`] plus this a checkmate scores: see [`Pesto::terminal`].
pub const MATE: Score = 1_000_000;

/// The PeSTO evaluation (see the [module docs](self)), in centipawns from the side to move's point
/// of view, and checkmates scored by how soon they fall.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pesto;

impl Pesto {
    /// The tapered value of `board` for white: `(mg, eg, phase)` combined.
    #[inline]
    pub fn white_view(board: &Board) -> Score {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for (colour, sign) in [(Color::White, 1), (Color::Black, -1)] {
            let own = board.colors(colour);
            for piece in Piece::ALL {
                let (mg_row, eg_row) = (
                    &MG[colour as usize][piece as usize],
                    &EG[colour as usize][piece as usize],
                );
                for square in own & board.pieces(piece) {
                    mg += sign * mg_row[square as usize];
                    eg += sign * eg_row[square as usize];
                    phase += PHASE[piece as usize];
                }
            }
        }
        let phase = phase.min(MAX_PHASE);
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// The value of `board` for its side to move.
    #[inline]
    pub fn value(board: &Board) -> Score {
        let white = Pesto::white_view(board);
        match board.side_to_move() {
            Color::White => white,
            Color::Black => -white,
        }
    }
}

impl Evaluator<Chess> for Pesto {
    #[inline]
    fn evaluate(&mut self, _: &Chess, state: &Position) -> Score {
        Pesto::value(state.board())
    }

    /// A draw scores 0. A checkmate scores `−(WIN + MATE − p)` for the side mated, `p` being the
    /// [game ply](Position::game_ply) at which it falls: every mate is worse than every
    /// evaluation, a sooner mate worse than a later one, so the winner mates as soon as it can and
    /// the loser holds out. [`mate_in`] turns such a score back into moves to mate.
    #[inline]
    fn terminal(&mut self, _: &Chess, state: &Position, outcome: Outcome) -> Score {
        if outcome.margin() == 0 {
            return 0;
        }
        let late = MATE - (state.game_ply() as Score).min(MATE - 1);
        let score = terminal_score(late);
        if outcome.margin() > 0 {
            score
        } else {
            -score
        }
    }
}

/// The moves to mate a score of [`Pesto`] announces, searched from a position at game ply
/// `root_ply`: positive when the side to move mates (`mate_in(v, p) == Some(1)`: mate with its
/// next move), negative when it is mated, `None` for a score that is not a mate.
///
/// ```
/// use gametree_chess::{mate_in, Chess, Pesto, Position};
/// use game_trait::{Evaluator, Outcome};
///
/// let mated = Position::from_fen("5Q1k/8/6K1/8/8/8/8/8 b - - 1 1")?; // ply 1
/// let score = Pesto.terminal(&Chess, &mated, Outcome::LOSS);
/// assert_eq!(mate_in(-score, 0), Some(1)); // from the position before, white mates in 1
/// assert_eq!(mate_in(score, 1), Some(0)); // already mated
/// assert_eq!(mate_in(150, 0), None);
/// # Ok::<(), gametree_chess::ChessError>(())
/// ```
pub fn mate_in(score: Score, root_ply: u32) -> Option<i32> {
    if !is_decisive(score) {
        return None;
    }
    let late = score.abs() - WIN;
    let mate_ply = MATE - late;
    let plies = mate_ply - root_ply as i32;
    Some(if score > 0 {
        (plies + 1) / 2
    } else {
        -(plies / 2)
    })
}

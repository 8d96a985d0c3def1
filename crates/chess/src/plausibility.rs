//! [`ChessPlausibility`]: how interesting a chess move is, with the terms of Treebeard's list in
//! Rollason's *Interest Search — Another Way to Do Minimax* (AI Factory, 2014).

use cozy_chess::{
    get_between_rays, get_bishop_moves, get_bishop_rays, get_king_moves, get_knight_moves,
    get_pawn_attacks, get_rook_moves, get_rook_rays, BitBoard, Board, Color, Move, Piece, Square,
};
use game_trait::{MoveList, Plausibility};

use crate::eval::{eg_value, mg_value, MAX_PHASE, PHASE};
use crate::game::Chess;
use crate::hooks::gives_check;
use crate::ordering::{captured, see, SEE_VALUE};
use crate::position::Position;

/// Term 2: interest added to every move of a side in check, divided by its number of replies.
pub const IN_CHECK: u32 = 1000;
/// Term 10: interest of a checking move.
pub const GIVES_CHECK: u32 = 100;
/// Term 10, "more if our previous ply was also check": added when the mover's previous move
/// checked too.
pub const CHECK_AGAIN: u32 = 100;
/// Term 13: capturing a piece that gives check.
pub const CAPTURE_CHECKER: u32 = 100;
/// Term 14: a promotion.
pub const PROMOTION: u32 = 100;
/// Term 17: the best move that captures nothing.
pub const BEST_QUIET: u32 = 100;
/// Terms 8, 9, 11, 12 and 16 are `value / divisor` of the piece named in each term, values in
/// [`SEE_VALUE`] (pawn 100, queen 900): term 9, the captured piece.
pub const CAPTURE_DIVISOR: u32 = 4;
/// Term 9 for a capture that loses material by static exchange: the captured piece's value over
/// this divisor instead.
pub const LOSING_CAPTURE_DIVISOR: u32 = 16;
/// Term 8: the most valuable piece (not a pawn or the king) a pawn attacks after its move.
pub const PAWN_ATTACK_DIVISOR: u32 = 8;
/// Term 11: the most valuable piece (not a pawn or the king) the moved piece attacks.
pub const ATTACK_DIVISOR: u32 = 20;
/// Term 11, "extra if fork": the second most valuable piece the moved piece attacks (the king
/// counting as a queen), when it attacks two or more.
pub const FORK_DIVISOR: u32 = 5;
/// Term 12: the value of a piece moved away from an enemy attack.
pub const ESCAPE_DIVISOR: u32 = 8;
/// Term 16: the value of the piece behind a pinned piece that moves (a queen's worth behind an
/// absolute pin, to the king).
pub const PIN_DIVISOR: u32 = 8;

/// Chess's plausibility for Rollason's interest search, Treebeard's terms as the article lists
/// them (its "term n" is the n-th entry; Rollason names the terms and a few amounts, "f(value)"
/// for the others). Terms 3–7 (table move, previous best, killers, best reply, follow-on) are
/// what the searching engine knows: the interest-search crate adds them from the engine's hints;
/// term 15 (diminishing interest beyond the iteration's depth) is that crate's horizon. This type
/// supplies the others, which are about the position:
///
/// | term | interest | reading |
/// |---|---|---|
/// | 1. base | `1000 / legal moves` | as the article |
/// | 2. in check | `+1000 / legal moves` | the article's "+=1000 (function of number of replies)": we divide by the replies, so an evasion among few counts more |
/// | 8. pawn attacks piece | `+v / 8` | `v`: the most valuable knight, bishop, rook or queen the pawn attacks after its move |
/// | 9. value of capture | `+v / 4`, or `v / 16` if the capture loses material by [`see`] | `v`: the captured piece |
/// | 10. we give check | `+100`, `+100` more if the mover's previous move checked too | as the article, our figure for "more" |
/// | 11. attack pieces, extra if fork | `+v₁ / 20`, and `+v₂ / 5` if two or more are attacked | `v₁`: the most valuable piece (not pawn or king) the moved piece attacks from its new square; `v₂`: the second most valuable attacked, the king counting as a queen (a fork) |
/// | 12. moving a piece under attack | `+v / 8` | `v`: the moved piece, if an enemy piece attacked its square |
/// | 13. capture checking piece | `+100` | as the article |
/// | 14. promotion | `+100` | every promotion (under-promotions too) |
/// | 16. move piece that is target of pin | `+v / 8` | `v`: the more valuable own piece behind the moved one on a line from an enemy slider (the king counting as a queen); ties to defended pieces are not detected |
/// | 17. best non-capture | `+100` | the quiet move that gains most by the evaluation's tables (tapered), one per position |
///
/// Values are [`SEE_VALUE`]'s (pawn 100, knight 320, bishop 330, rook 500, queen 900). The
/// divisors are our choices, made so that each term stays near the article's +100 for the
/// pieces that matter (a queen captured +225, a queen attacked by a pawn +112, a fork of king and
/// rook +100). [`similarity`](Plausibility::similarity): the quiet moves of one piece are similar
/// (Shotest's similar-moves penalty); captures, checks and promotions are like no other.
#[derive(Clone, Debug, Default)]
pub struct ChessPlausibility {
    /// What every move of the last position asked about shares (the engine asks for every move
    /// of a node in a row, then again per move explored).
    last: Option<(Board, Facts)>,
}

/// What the terms need of the position before the move, the same for all its moves.
#[derive(Clone, Copy, Debug)]
struct Facts {
    legal: u32,
    in_check: bool,
    /// Squares the opponent attacks.
    attacked: BitBoard,
    best_quiet: Option<Move>,
}

impl ChessPlausibility {
    /// A plausibility with nothing cached.
    pub fn new() -> ChessPlausibility {
        ChessPlausibility::default()
    }

    fn facts(&mut self, position: &Position) -> Facts {
        let board = position.board();
        if let Some((cached, facts)) = &self.last {
            if cached.hash() == board.hash() && cached == board {
                return *facts;
            }
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let facts = Facts {
            legal: moves.len() as u32,
            in_check: position.in_check(),
            attacked: attacked_by(board, !board.side_to_move()),
            best_quiet: best_quiet(board, &moves),
        };
        self.last = Some((board.clone(), facts));
        facts
    }

    /// The interest of `mv` in `position`, without the engine's terms (at least 1).
    pub fn interest_of(&mut self, position: &Position, mv: Move) -> u32 {
        let facts = self.facts(position);
        let board = position.board();
        let us = board.side_to_move();
        let legal = facts.legal.max(1);
        let mut interest = 1000 / legal;
        if facts.in_check {
            interest += IN_CHECK / legal;
        }
        let mover = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        if let Some(victim) = captured(board, mv) {
            let divisor = if see(board, mv) >= 0 {
                CAPTURE_DIVISOR
            } else {
                LOSING_CAPTURE_DIVISOR
            };
            interest += value(victim) / divisor;
            if board.checkers().has(mv.to) {
                interest += CAPTURE_CHECKER;
            }
        }
        if gives_check(board, mv) {
            interest += GIVES_CHECK;
            // Bit 1: the opponent, one ply ago, was in check from our previous move.
            if position.check_history() & 0b10 != 0 {
                interest += CHECK_AGAIN;
            }
        }
        if mv.promotion.is_some() {
            interest += PROMOTION;
        }
        // Terms 8 and 11: what the moved piece attacks from its new square.
        let landed = mv.promotion.unwrap_or(mover);
        let castles = board.colors(us).has(mv.to);
        if !castles {
            let occupied = (board.occupied() - mv.from.bitboard()) | mv.to.bitboard();
            let targets = attacks(landed, us, mv.to, occupied) & board.colors(!us);
            let (attacked, fork) = attacked_values(board, targets);
            if attacked > 0 {
                let divisor = if landed == Piece::Pawn {
                    PAWN_ATTACK_DIVISOR
                } else {
                    ATTACK_DIVISOR
                };
                interest += attacked / divisor;
            }
            interest += fork / FORK_DIVISOR;
        }
        // Term 12: moving away from an attack.
        if mover != Piece::King && facts.attacked.has(mv.from) {
            interest += value(mover) / ESCAPE_DIVISOR;
        }
        // Term 16: the moved piece shields a more valuable one from an enemy slider.
        if let Some(behind) = pinned_to(board, mv.from) {
            interest += behind.min(value(Piece::Queen)) / PIN_DIVISOR;
        }
        if facts.best_quiet == Some(mv) {
            interest += BEST_QUIET;
        }
        interest.max(1)
    }
}

#[inline]
fn value(piece: Piece) -> u32 {
    SEE_VALUE[piece as usize] as u32
}

/// The squares `piece` of `colour` on `square` attacks with `occupied` on the board.
fn attacks(piece: Piece, colour: Color, square: Square, occupied: BitBoard) -> BitBoard {
    match piece {
        Piece::Pawn => get_pawn_attacks(square, colour),
        Piece::Knight => get_knight_moves(square),
        Piece::Bishop => get_bishop_moves(square, occupied),
        Piece::Rook => get_rook_moves(square, occupied),
        Piece::Queen => get_bishop_moves(square, occupied) | get_rook_moves(square, occupied),
        Piece::King => get_king_moves(square),
    }
}

/// Every square a piece of `colour` attacks.
fn attacked_by(board: &Board, colour: Color) -> BitBoard {
    let occupied = board.occupied();
    let mut all = BitBoard::EMPTY;
    for piece in Piece::ALL {
        for square in board.colored_pieces(colour, piece) {
            all |= attacks(piece, colour, square, occupied);
        }
    }
    all
}

/// What the pieces on `targets` are worth to terms 8 and 11: the most valuable that is not a pawn
/// or the king (0 if none), and, when there are two or more, the second most valuable, the king
/// counting as a queen (a fork; 0 otherwise).
fn attacked_values(board: &Board, targets: BitBoard) -> (u32, u32) {
    let (mut most, mut first, mut second) = (0, 0, 0);
    for square in targets {
        let Some(piece) = board.piece_on(square) else {
            continue;
        };
        if !matches!(piece, Piece::Pawn | Piece::King) {
            most = most.max(value(piece));
        }
        let v = value(piece).min(value(Piece::Queen));
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    (most, second)
}

/// The value of the most valuable own piece that the piece on `from` shields from an enemy
/// slider: on a line from an enemy bishop, rook or queen through `from` to it, nothing else in
/// between, and worth more than the piece on `from`.
fn pinned_to(board: &Board, from: Square) -> Option<u32> {
    let us = board.side_to_move();
    let shield = value(board.piece_on(from)?);
    let them = board.colors(!us);
    let diagonal = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & them;
    let straight = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & them;
    let occupied = board.occupied();
    let mut best = None;
    for (sliders, rays) in [
        (diagonal, get_bishop_rays(from)),
        (straight, get_rook_rays(from)),
    ] {
        for slider in sliders & rays {
            if !(get_between_rays(slider, from) & occupied).is_empty() {
                continue;
            }
            // The first piece beyond `from`, away from the slider.
            let beyond = attacks_along(from, slider, occupied);
            let Some(square) = beyond else { continue };
            if !board.colors(us).has(square) {
                continue;
            }
            let behind = value(board.piece_on(square)?);
            if behind > shield && best.map_or(true, |b| behind > b) {
                best = Some(behind);
            }
        }
    }
    best
}

/// The first occupied square past `from` on the line from `slider` through `from`.
fn attacks_along(from: Square, slider: Square, occupied: BitBoard) -> Option<Square> {
    let (df, dr) = (
        (from.file() as i8 - slider.file() as i8).signum(),
        (from.rank() as i8 - slider.rank() as i8).signum(),
    );
    let mut square = from;
    while let Some(next) = square.try_offset(df, dr) {
        if occupied.has(next) {
            return Some(next);
        }
        square = next;
    }
    None
}

/// The quiet move (no capture, no promotion) whose piece gains most by the evaluation's tables,
/// tapered by the position's phase; the first of equals.
fn best_quiet(board: &Board, moves: &MoveList<Move>) -> Option<Move> {
    let us = board.side_to_move();
    let phase: i32 = Piece::ALL
        .iter()
        .map(|&p| PHASE[p as usize] * board.pieces(p).len() as i32)
        .sum::<i32>()
        .min(MAX_PHASE);
    let mut best: Option<(i32, Move)> = None;
    for &mv in moves {
        if mv.promotion.is_some() || captured(board, mv).is_some() || board.colors(us).has(mv.to) {
            continue;
        }
        let Some(piece) = board.piece_on(mv.from) else {
            continue;
        };
        let mg = mg_value(us, piece, mv.to) - mg_value(us, piece, mv.from);
        let eg = eg_value(us, piece, mv.to) - eg_value(us, piece, mv.from);
        let gain = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
        if best.map_or(true, |(g, _)| gain > g) {
            best = Some((gain, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

impl Plausibility<Chess> for ChessPlausibility {
    #[inline]
    fn interest(&mut self, _: &Chess, state: &Position, mv: Move) -> u32 {
        self.interest_of(state, mv)
    }

    /// The quiet moves of one piece share its square as their key.
    fn similarity(&self, _: &Chess, state: &Position, mv: Move) -> Option<u32> {
        let board = state.board();
        let quiet =
            mv.promotion.is_none() && captured(board, mv).is_none() && !gives_check(board, mv);
        quiet.then_some(mv.from as u32)
    }
}

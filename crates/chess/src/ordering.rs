//! Move ordering by captures and their exchanges: [`see`] (static exchange evaluation),
//! [`capture_value`] (MVV-LVA) and the [`CaptureOrdering`] hook.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Move, Piece, Rank, Square,
};
use game_trait::MoveOrdering;

use crate::game::Chess;
use crate::position::{en_passant_square, Position};

/// Piece values for exchanges, in centipawns: pawn 100, knight 320, bishop 330, rook 500, queen
/// 900, and the king more than all the others together (so that a capture by the king into an
/// attacked square always loses).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

#[inline(always)]
fn value(piece: Piece) -> i32 {
    SEE_VALUE[piece as usize]
}

/// The piece `mv` captures, if any: the piece on the target square, or a pawn taken en passant.
/// Castling (the king moving onto its own rook, as the generator writes it) captures nothing.
#[inline]
pub fn captured(board: &Board, mv: Move) -> Option<Piece> {
    let us = board.side_to_move();
    if board.colors(!us).has(mv.to) {
        return board.piece_on(mv.to);
    }
    let pawn_move = board.colored_pieces(us, Piece::Pawn).has(mv.from);
    (pawn_move && en_passant_square(board) == Some(mv.to)).then_some(Piece::Pawn)
}

/// Whether `mv` captures (en passant too).
#[inline]
pub fn is_capture(board: &Board, mv: Move) -> bool {
    captured(board, mv).is_some()
}

/// Every piece of either colour that attacks `square` when the pieces on `occupied` are on the
/// board (pieces off it neither attack nor block). The caller masks the result with `occupied`.
#[inline]
pub fn attackers(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let pawns = board.pieces(Piece::Pawn);
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    // A white pawn attacks `square` from where a black pawn on `square` would attack, and back.
    (get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White))
        | (get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black))
        | (get_knight_moves(square) & board.pieces(Piece::Knight))
        | (get_king_moves(square) & board.pieces(Piece::King))
        | (get_bishop_moves(square, occupied) & diagonal)
        | (get_rook_moves(square, occupied) & straight)
}

/// Static exchange evaluation: what the side to move gains in material (in [`SEE_VALUE`]s) by
/// playing `mv` and letting both sides recapture on its target square, each time with their least
/// valuable attacker, each free to stop when going on would lose. Pieces uncovered by a capture
/// join in (x-rays); pins are ignored. A promotion counts the new piece; castling gains 0.
///
/// ```
/// use gametree_chess::{see, Position};
///
/// let p = Position::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1")?;
/// assert_eq!(see(p.board(), p.parse_move("e1e5")?), 100); // the pawn is free
/// let p = Position::from_fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1")?;
/// assert_eq!(see(p.board(), p.parse_move("d3e5")?), -220); // knight for pawn
/// # Ok::<(), gametree_chess::ChessError>(())
/// ```
pub fn see(board: &Board, mv: Move) -> i32 {
    let us = board.side_to_move();
    if board.colors(us).has(mv.to) {
        return 0; // castling
    }
    let Some(mover) = board.piece_on(mv.from) else {
        return 0;
    };
    let mut occupied = board.occupied() - mv.from.bitboard();
    let mut gains = [0i32; 34];
    gains[0] = match board.piece_on(mv.to) {
        Some(victim) => value(victim),
        None if mover == Piece::Pawn && en_passant_square(board) == Some(mv.to) => {
            // The pawn taken en passant stands behind the target square.
            let behind = Square::new(mv.to.file(), Rank::Fifth.relative_to(us));
            occupied -= behind.bitboard();
            value(Piece::Pawn)
        }
        None => 0,
    };
    let mut on_square = value(mover);
    if let Some(promotion) = mv.promotion {
        gains[0] += value(promotion) - value(Piece::Pawn);
        on_square = value(promotion);
    }
    let last_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
    let mut side = !us;
    let mut depth = 0;
    loop {
        let candidates = attackers(board, mv.to, occupied) & occupied & board.colors(side);
        let Some((piece, from)) = Piece::ALL.into_iter().find_map(|piece| {
            (candidates & board.pieces(piece))
                .next_square()
                .map(|from| (piece, from))
        }) else {
            break;
        };
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        on_square = value(piece);
        if piece == Piece::Pawn && last_ranks.has(mv.to) {
            gains[depth] += value(Piece::Queen) - value(Piece::Pawn);
            on_square = value(Piece::Queen);
        }
        occupied -= from.bitboard();
        side = !side;
        if depth + 1 == gains.len() {
            break;
        }
    }
    // Each side may decline to capture: fold from the last capture back.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The MVV-LVA key of a capture: the most valuable victim first, among captures of one victim the
/// least valuable attacker first. `victim * 8 + 7 - attacker`, pieces numbered pawn 0 to king 5.
#[inline]
pub fn capture_value(victim: Piece, attacker: Piece) -> i32 {
    victim as i32 * 8 + 7 - attacker as i32
}

/// Ordering bands of [`CaptureOrdering`], above and below the engine's history scores (at most
/// 2²⁴), below its table move and killers.
const GOOD: i32 = 1 << 28;

/// Chess move ordering for the α/β engine's [`MoveOrdering`] hook, after the table move and the
/// killers the engine puts first:
///
/// 1. captures that do not lose material ([`see`] ≥ 0) and queen promotions, by MVV-LVA
///    ([`capture_value`]);
/// 2. quiet moves, in the engine's history order (this hook gives them all 0);
/// 3. captures that lose material, the least losing first;
/// 4. promotions to a rook, bishop or knight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureOrdering;

impl CaptureOrdering {
    /// The ordering key of `mv` in `board` (higher is searched first).
    #[inline]
    pub fn key(board: &Board, mv: Move) -> i32 {
        let under_promotion = matches!(mv.promotion, Some(p) if p != Piece::Queen);
        if under_promotion {
            return -2 * GOOD;
        }
        let attacker = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        match captured(board, mv) {
            Some(victim) => {
                let exchange = see(board, mv);
                if exchange >= 0 {
                    GOOD + 64 * capture_value(victim, attacker) + (mv.promotion.is_some() as i32)
                } else {
                    -GOOD + exchange
                }
            }
            None if mv.promotion.is_some() => {
                GOOD + 64 * capture_value(Piece::Queen, Piece::Pawn) - 1
            }
            None => 0,
        }
    }
}

impl MoveOrdering<Chess> for CaptureOrdering {
    #[inline]
    fn score(&mut self, _: &Chess, state: &Position, mv: Move, _: u32) -> i32 {
        CaptureOrdering::key(state.board(), mv)
    }
}

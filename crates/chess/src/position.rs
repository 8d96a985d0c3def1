//! [`Position`]: a board plus what the draw rules need to know of the game so far, FEN in and out,
//! moves in UCI notation, and the end of the game ([`Status`]).

use std::fmt;

use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{
    get_pawn_attacks, BitBoard, Board, Color, FenParseError, Move, Piece, PieceMoves, Rank, Square,
};
use game_trait::MoveList;

use crate::error::ChessError;

/// How many earlier positions a [`Position`] remembers: every one since the last capture or pawn
/// move, which is all a repetition can reach back to, since the fifty-move rule ends the game
/// after 100 such plies.
pub const HISTORY: usize = 100;

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The squares of the dark colour (a1 is dark), for bishops that can never meet.
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// How a game stands: going on, or ended, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move is in check and has no legal move: it has lost.
    Checkmate,
    /// The side to move is not in check and has no legal move: a draw.
    Stalemate,
    /// 100 plies (fifty moves each) without a capture or a pawn move: a draw.
    FiftyMoves,
    /// The position occurred for the third time (same side to move, pieces, castling rights and
    /// en passant capture): a draw.
    Repetition,
    /// Neither side can ever mate (king against king, a lone minor piece, or bishops all on squares
    /// of one colour): a draw.
    InsufficientMaterial,
}

impl Status {
    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }

    /// What ended the game, in a few words (`"checkmate"`, `"threefold repetition"`); `"ongoing"`
    /// while it goes on.
    pub fn describe(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::FiftyMoves => "fifty-move rule",
            Status::Repetition => "threefold repetition",
            Status::InsufficientMaterial => "insufficient material",
        }
    }
}

/// A chess position and the positions since the last capture or pawn move, which the draw rules
/// need: a [`Board`] of the move generator (pieces, side to move, castling rights, en passant file,
/// the halfmove clock and the move number) and the repetition keys of the earlier positions.
///
/// Positions are values: [`after`](Position::after) returns the successor and leaves `self` as it
/// is. A position made from a FEN string knows nothing of the game before it (FEN does not say),
/// so repetitions count from there.
///
/// ```
/// use gametree_chess::{Position, Status};
///
/// let mut position = Position::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")?;
/// assert_eq!(position.status(), Status::Ongoing);
/// position.play_uci("f1f8")?;
/// assert_eq!(position.status(), Status::Checkmate);
/// assert_eq!(position.fen(), "5Q1k/8/6K1/8/8/8/8/8 b - - 1 1");
/// # Ok::<(), gametree_chess::ChessError>(())
/// ```
#[derive(Clone)]
pub struct Position {
    board: Board,
    /// Repetition keys of the positions since the last irreversible move, oldest first; only the
    /// first `len` are used.
    history: [u64; HISTORY],
    len: u8,
    /// Bit `i`: whether the side to move `i` plies ago was in check (bit 0: now).
    checks: u8,
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        Position::from_board(Board::startpos())
    }

    /// The position of `board`, with no earlier positions.
    pub fn from_board(board: Board) -> Position {
        let checks = u8::from(!board.checkers().is_empty());
        Position {
            board,
            history: [0; HISTORY],
            len: 0,
            checks,
        }
    }

    /// Reads Forsyth–Edwards Notation: placement, side to move, castling rights (`KQkq` or `-`),
    /// en passant square, halfmove clock and move number. The two counters may be left out (as in
    /// EPD test suites): they are then 0 and 1. Standard chess only (no Chess960 castling).
    ///
    /// Never panics: a string that is not a legal position is an error saying what is wrong.
    pub fn from_fen(fen: &str) -> Result<Position, ChessError> {
        let bad = |problem: String| ChessError::Fen {
            fen: fen.to_string(),
            problem,
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let full = match fields.len() {
            6 => fields.join(" "),
            4 => format!("{} 0 1", fields.join(" ")),
            n => {
                return Err(bad(format!(
                    "{n} fields; expected 6 (placement, side to move, castling, en passant, \
                     halfmove clock, move number) or the first 4"
                )))
            }
        };
        check_placement(fields[0]).map_err(&bad)?;
        let board = Board::from_fen(&full, false).map_err(|e| bad(explain(e, &fields)))?;
        Ok(Position::from_board(board))
    }

    /// The position in Forsyth–Edwards Notation, all six fields.
    pub fn fen(&self) -> String {
        self.board.to_string()
    }

    /// The move generator's board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.board.side_to_move()
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Plies played since the start of the game, from the move number and the side to move: 0 at
    /// the start, 1 after white's first move.
    #[inline]
    pub fn game_ply(&self) -> u32 {
        2 * (u32::from(self.board.fullmove_number()).max(1) - 1)
            + u32::from(self.side() == Color::Black)
    }

    /// The generator's Zobrist key of the board (pieces, side to move, castling rights, en passant
    /// file). The transposition-table key ([`Game::state_hash`](game_trait::Game::state_hash)).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// The key that decides repetitions: the Zobrist key, with the en passant file only where an
    /// en passant capture is legal (FIDE's rule: positions differ by an en passant right only if
    /// the capture can be made).
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        repetition_key(&self.board)
    }

    /// How many times the position occurred before, since the last capture or pawn move.
    pub fn repetitions(&self) -> u32 {
        let key = self.repetition_key();
        let len = usize::from(self.len);
        // Only positions with the same side to move: 2, 4, 6, … plies ago.
        (2..=len)
            .step_by(2)
            .filter(|&back| self.history[len - back] == key)
            .count() as u32
    }

    /// Which of the last eight positions had their side to move in check: bit `i` for the
    /// position `i` plies ago (bit 0 is this one). Positions before the start or the FEN it was
    /// read from count as not in check.
    #[inline]
    pub fn check_history(&self) -> u8 {
        self.checks
    }

    /// Earlier positions remembered (those since the last capture or pawn move, at most
    /// [`HISTORY`]).
    pub fn history_len(&self) -> usize {
        usize::from(self.len)
    }

    /// The same position without its history: repetitions count from here, as if it had just
    /// been read from FEN.
    pub fn without_history(&self) -> Position {
        Position::from_board(self.board.clone())
    }

    /// The position after the legal move `mv` (checked only in debug builds): the board moves,
    /// and this position joins the history (which empties after a capture or a pawn move).
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        debug_assert!(self.board.is_legal(mv), "{mv} is illegal in {}", self.fen());
        let mut child = self.clone();
        child.board.play_unchecked(mv);
        child.checks = (self.checks << 1) | u8::from(child.in_check());
        if child.board.halfmove_clock() == 0 {
            // A capture or a pawn move: no earlier position can come back.
            child.len = 0;
        } else {
            if usize::from(child.len) == HISTORY {
                // Only when play goes on past the fifty-move rule: the oldest cannot recur
                // within the window the rule allows.
                child.history.copy_within(1.., 0);
                child.len -= 1;
            }
            child.history[usize::from(child.len)] = self.repetition_key();
            child.len += 1;
        }
        child
    }

    /// Reads a move in UCI notation (`e2e4`, `e7e8q`, castling as the king's move `e1g1`) and
    /// checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, ChessError> {
        let text = text.trim();
        let syntax = |problem| ChessError::MoveSyntax {
            text: text.to_string(),
            problem,
        };
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(syntax(
                "expected from and to squares and an optional promotion piece, as e2e4 or e7e8q",
            ));
        }
        let mv = parse_uci_move(&self.board, text).map_err(|_| {
            syntax("expected squares a1..h8 and a promotion piece among q, r, b, n")
        })?;
        if !self.board.is_legal(mv) {
            return Err(ChessError::IllegalMove {
                text: text.to_string(),
                fen: self.fen(),
            });
        }
        Ok(mv)
    }

    /// Plays a move given in UCI notation; on error the position is unchanged.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, ChessError> {
        let mv = self.parse_move(text)?;
        *self = self.after(mv);
        Ok(mv)
    }

    /// Plays moves in UCI notation separated by spaces; stops at the first bad one, and the error
    /// says which (the position is then left after the moves before it).
    pub fn play_line(&mut self, moves: &str) -> Result<(), ChessError> {
        for text in moves.split_whitespace() {
            self.play_uci(text)?;
        }
        Ok(())
    }

    /// `mv` in UCI notation: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    pub fn uci(&self, mv: Move) -> String {
        display_uci_move(&self.board, mv).to_string()
    }

    /// How the game stands: over by checkmate, stalemate or a draw rule, or going on. The draw
    /// rules apply automatically: a third occurrence of a position, the hundredth ply without a
    /// capture or pawn move (unless it mates) and a position where neither side can mate end the
    /// game (FIDE lets a player claim the first two; engines and servers apply them as here).
    pub fn status(&self) -> Status {
        if insufficient_material(&self.board) {
            return Status::InsufficientMaterial;
        }
        if self.repetitions() >= 2 {
            return Status::Repetition;
        }
        if !self.board.generate_moves(|_| true) {
            return if self.in_check() {
                Status::Checkmate
            } else {
                Status::Stalemate
            };
        }
        if self.board.halfmove_clock() >= 100 {
            return Status::FiftyMoves;
        }
        Status::Ongoing
    }

    /// The legal moves, in the order the search tries them when it knows nothing better: captures
    /// first, the most valuable victim first and then the least valuable attacker (MVV-LVA), en
    /// passant among the pawn captures; then promotions (queen first); then the other moves, pawns
    /// first and the king last. Pushed onto `moves`, which is not cleared.
    pub fn legal_moves(&self, moves: &mut MoveList<Move>) {
        let board = &self.board;
        let mut sets = [PieceMoves {
            piece: Piece::Pawn,
            from: Square::A1,
            to: BitBoard::EMPTY,
        }; MAX_PIECE_MOVES];
        let mut n = 0;
        board.generate_moves(|set| {
            sets[n] = set;
            n += 1;
            false
        });
        let sets = &sets[..n];
        let them = board.colors(!board.side_to_move());
        let en_passant = en_passant_square(board).map_or(BitBoard::EMPTY, Square::bitboard);
        for victim in [
            Piece::Queen,
            Piece::Rook,
            Piece::Bishop,
            Piece::Knight,
            Piece::Pawn,
        ] {
            let mut targets = them & board.pieces(victim);
            if victim == Piece::Pawn {
                targets |= en_passant;
            }
            if targets.is_empty() {
                continue;
            }
            for set in sets {
                let mut to = set.to & targets;
                if set.piece != Piece::Pawn {
                    to -= en_passant;
                }
                push_moves(moves, set.piece, set.from, to);
            }
        }
        let promotion_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
        for set in sets.iter().filter(|s| s.piece == Piece::Pawn) {
            push_moves(
                moves,
                set.piece,
                set.from,
                set.to & (promotion_ranks - them),
            );
        }
        for set in sets {
            let mut quiet = set.to - them;
            if set.piece == Piece::Pawn {
                quiet -= en_passant | promotion_ranks;
            }
            push_moves(moves, set.piece, set.from, quiet);
        }
    }

    /// The same position with colours swapped and the board mirrored top to bottom (a white pawn
    /// on e2 becomes a black pawn on e7), the other side to move, the same counters and history
    /// length. Every rule and a colour-blind evaluation treat both alike.
    pub fn mirrored(&self) -> Position {
        let fen = self.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let placement: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| rank.chars().map(swap_case).collect())
            .collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = fields[2].chars().map(swap_case).collect();
        castling.sort_by_key(|c| "KQkq-".find(*c));
        let castling: String = castling.into_iter().collect();
        let en_passant = match fields[3].as_bytes() {
            [file, b'3'] => format!("{}6", *file as char),
            [file, b'6'] => format!("{}3", *file as char),
            _ => "-".to_string(),
        };
        let fen = format!(
            "{} {side} {castling} {en_passant} {} {}",
            placement.join("/"),
            fields[4],
            fields[5]
        );
        let board = Board::from_fen(&fen, false).expect("the mirror of a legal position is legal");
        let mut mirrored = Position::from_board(board);
        mirrored.len = self.len;
        for i in 0..usize::from(self.len) {
            // Keys of earlier positions cannot be mirrored without the positions: stand-ins that
            // match nothing keep the history's length (and so the fifty-move window) alike.
            mirrored.history[i] = !self.history[i];
        }
        mirrored
    }
}

/// The most times [`Board::generate_moves`] calls its listener.
const MAX_PIECE_MOVES: usize = 18;

/// Pushes the moves of `piece` from `from` to each square of `to`; pawns reaching the last rank
/// give four moves, the queen first.
#[inline(always)]
fn push_moves(moves: &mut MoveList<Move>, piece: Piece, from: Square, to: BitBoard) {
    for square in to {
        if piece == Piece::Pawn && matches!(square.rank(), Rank::First | Rank::Eighth) {
            for promotion in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
                moves.push(Move {
                    from,
                    to: square,
                    promotion: Some(promotion),
                });
            }
        } else {
            moves.push(Move {
                from,
                to: square,
                promotion: None,
            });
        }
    }
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// The square a pawn of the side to move would capture en passant on, if the last move was a
/// double pawn push.
#[inline]
pub(crate) fn en_passant_square(board: &Board) -> Option<Square> {
    let file = board.en_passant()?;
    Some(Square::new(
        file,
        Rank::Sixth.relative_to(board.side_to_move()),
    ))
}

/// See [`Position::repetition_key`].
#[inline]
fn repetition_key(board: &Board) -> u64 {
    let Some(square) = en_passant_square(board) else {
        return board.hash();
    };
    let us = board.side_to_move();
    let capturers = get_pawn_attacks(square, !us) & board.colored_pieces(us, Piece::Pawn);
    let legal = capturers.into_iter().any(|from| {
        board.is_legal(Move {
            from,
            to: square,
            promotion: None,
        })
    });
    if legal {
        board.hash()
    } else {
        board.hash_without_ep()
    }
}

/// Whether neither side can ever mate: no pawn, rook or queen, and at most one minor piece or only
/// bishops, all on squares of one colour. (Other dead positions, such as blocked pawn chains, are
/// played out.)
#[inline]
pub(crate) fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop).0;
    if knights.len() + bishops.count_ones() <= 1 {
        return true;
    }
    knights.is_empty() && (bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0)
}

/// Checks the placement field of a FEN string square by square, for a message that names the
/// culprit (the generator only says "the board is invalid").
fn check_placement(placement: &str) -> Result<(), String> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the placement `{placement}` has {} ranks separated by `/`; expected 8",
            ranks.len()
        ));
    }
    let mut kings = [0, 0];
    for (i, rank) in ranks.iter().enumerate() {
        let number = 8 - i;
        let mut files = 0;
        for c in rank.chars() {
            match c {
                '1'..='8' => files += c as usize - '0' as usize,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    if c.eq_ignore_ascii_case(&'p') && (number == 1 || number == 8) {
                        return Err(format!("a pawn on rank {number}, where pawns cannot stand"));
                    }
                    if c == 'K' {
                        kings[0] += 1;
                    } else if c == 'k' {
                        kings[1] += 1;
                    }
                    files += 1;
                }
                other => {
                    return Err(format!(
                        "`{other}` in rank {number} is neither a piece (pnbrqk, white in capitals) \
                         nor a count of empty squares (1-8)"
                    ))
                }
            }
        }
        if files != 8 {
            return Err(format!(
                "rank {number} (`{rank}`) covers {files} files; expected 8"
            ));
        }
    }
    for (colour, count) in ["white", "black"].iter().zip(kings) {
        if count != 1 {
            return Err(format!("{colour} has {count} kings; expected 1"));
        }
    }
    Ok(())
}

/// The generator's FEN error, said with the field it is about.
fn explain(error: FenParseError, fields: &[&str]) -> String {
    let field = |i: usize| fields.get(i).copied().unwrap_or("");
    match error {
        FenParseError::InvalidBoard => "the placement is not a legal position: the side that is \
            not to move is in check, or more pieces give check than any move can"
            .to_string(),
        FenParseError::InvalidSideToMove => {
            format!("side to move `{}`: expected w or b", field(1))
        }
        FenParseError::InvalidCastlingRights => format!(
            "castling rights `{}`: expected `-` or letters among KQkq, each with its king and \
             rook on their starting squares",
            field(2)
        ),
        FenParseError::InvalidEnPassant => format!(
            "en passant square `{}`: expected `-` or the square a pawn of the side not to move \
             just passed over (rank 3 or 6, the pawn beside it)",
            field(3)
        ),
        FenParseError::InvalidHalfMoveClock => format!(
            "halfmove clock `{}`: expected a number from 0 to 100",
            field(4)
        ),
        FenParseError::InvalidFullmoveNumber => {
            format!(
                "move number `{}`: expected a number from 1 to 65535",
                field(5)
            )
        }
        FenParseError::MissingField | FenParseError::TooManyFields => {
            "expected 6 fields separated by spaces".to_string()
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("fen", &self.fen())
            .field("history", &&self.history[..usize::from(self.len)])
            .finish()
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)
    }
}

impl PartialEq for Position {
    /// The same board (counters included) and the same earlier positions.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.history[..usize::from(self.len)] == other.history[..usize::from(other.len)]
    }
}

impl Eq for Position {}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl std::str::FromStr for Position {
    type Err = ChessError;
    fn from_str(fen: &str) -> Result<Position, ChessError> {
        Position::from_fen(fen)
    }
}

//! [`OthelloError`]: everything that can be wrong with Othello text input, saying what and where.

use std::path::PathBuf;

use thiserror::Error;

/// An error in Othello text input: a square name, a move sequence, an OBF file. Every variant carries
/// the offending text and where it is (move index, line and column, both 1-based for lines and
/// columns, 0-based for move indices as in `moves[k]`).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OthelloError {
    /// A square name is not `a1`..`h8`.
    #[error("bad square {text:?}: expected a file a-h then a rank 1-8, such as \"f5\"")]
    BadSquare {
        /// The text that was read.
        text: String,
    },

    /// A token of a move sequence is neither a square name nor `ps`.
    #[error(
        "bad move {text:?} at index {index} (column {column}): expected a square a1-h8 or \"ps\""
    )]
    BadMove {
        /// 0-based index of the move in the sequence.
        index: usize,
        /// 1-based column of its first character in the input.
        column: usize,
        /// The token.
        text: String,
    },

    /// A move of a sequence is not legal in the position it is played in.
    #[error("illegal move {mv} at index {index}{}", legal_hint(.legal))]
    IllegalMove {
        /// 0-based index of the move in the sequence.
        index: usize,
        /// The move's name, `f5` or `ps`.
        mv: String,
        /// The legal moves at that point, space-separated (empty when the game was already over).
        legal: String,
    },

    /// An OBF board has a character other than `X`/`x`/`*` (black), `O`/`o` (white) and `-`/`.`
    /// (empty).
    #[error("line {line}, column {column}: bad board character {found:?} (expected X, O or -)")]
    ObfBoardChar {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },

    /// An OBF board does not have exactly 64 squares.
    #[error("line {line}: the board has {found} squares, expected 64")]
    ObfBoardLength {
        /// 1-based line.
        line: usize,
        /// Number of board characters found.
        found: usize,
    },

    /// The side to move of an OBF line is missing or not `X`/`O`.
    #[error("line {line}, column {column}: bad side to move {found:?} (expected X or O)")]
    ObfSide {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The text found (empty when missing).
        found: String,
    },

    /// A `move:score` entry of an OBF line is malformed or names an illegal move.
    #[error("line {line}, column {column}: bad move:score entry {text:?}: {reason}")]
    ObfScore {
        /// 1-based line.
        line: usize,
        /// 1-based column of the entry.
        column: usize,
        /// The entry.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// A file could not be read.
    #[error("cannot read {}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
}

fn legal_hint(legal: &str) -> String {
    if legal.is_empty() {
        ": the game is over".to_string()
    } else {
        format!(" (legal: {legal})")
    }
}

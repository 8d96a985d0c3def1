//! [`ChessError`]: what is wrong with a FEN string or a move, said so that a user can fix it.

/// Why a FEN string or a move was refused. Every message names the culprit and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChessError {
    /// A FEN string that does not describe a legal chess position.
    #[error("bad FEN `{fen}`: {problem}")]
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A move that is not written in UCI notation (`e2e4`, `e7e8q`, castling as `e1g1`).
    #[error("bad move `{text}`: {problem}")]
    MoveSyntax {
        /// The move as given.
        text: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A well-formed move that is not legal in the position.
    #[error("illegal move `{text}` in {fen}")]
    IllegalMove {
        /// The move as given.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
}

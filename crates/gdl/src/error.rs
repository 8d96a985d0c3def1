//! [`GdlError`]: everything that can go wrong, with the file, line and column it went wrong at.

use std::fmt;

/// A position in a game description: file name (or `<input>`), 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file the text came from, `<input>` for strings.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One problem the validator found: where, in which rule, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where the offending rule (or literal) starts.
    pub location: Location,
    /// The offending rule, printed in KIF (`(<= (legal ?p noop) (not (true (control ?p))))`).
    pub rule: String,
    /// What is wrong, in words a game author can act on.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rule.is_empty() {
            write!(f, "{}: {}", self.location, self.message)
        } else {
            write!(
                f,
                "{}: {}\n    in rule {}",
                self.location, self.message, self.rule
            )
        }
    }
}

/// The error type of every fallible function of this crate.
#[derive(Debug, thiserror::Error)]
pub enum GdlError {
    /// The file could not be read (or is not UTF-8 text). The CLI maps this to exit code 2.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The path that failed.
        path: String,
        /// Why (the I/O error's message).
        reason: String,
    },
    /// The text is not well-formed GDL (unbalanced parentheses, a missing `.`, nesting too deep, ...).
    #[error("{location}: syntax error: {message}")]
    Syntax {
        /// Where the parser stopped.
        location: Location,
        /// What it expected or found.
        message: String,
    },
    /// The text parses but is not a valid game description; every problem found is listed.
    #[error("{} problem(s) in the game description:\n{}", .diagnostics.len(), DisplayList(.diagnostics))]
    Invalid {
        /// The problems, in source order.
        diagnostics: Vec<Diagnostic>,
    },
    /// The rules compute something a game cannot have (no legal move for a role, a goal value that
    /// is not a number from 0 to 100, ...), found while reasoning about a state.
    #[error("the rules are inconsistent: {0}")]
    Semantics(String),
    /// The game is not a two-player, turn-taking, constant-sum game, so the two-player view
    /// ([`TurnTaking`](crate::TurnTaking)) does not apply.
    #[error("not a two-player turn-taking constant-sum game: {0}")]
    NotTurnTaking(String),
    /// The fast reasoner was requested but grounding does not apply (too many ground rules).
    #[error("the fast reasoner does not apply: {0}")]
    NoFastReasoner(String),
    /// Loading exceeded its [`Limits`](crate::Limits); the message names the limit and the rule
    /// being evaluated when it was reached.
    #[error("{0}")]
    Budget(String),
    /// The description has no stratified model: ground atoms depend on each other through
    /// negation (the message names a cycle).
    #[error("{0}")]
    NotStratified(String),
    /// The game cannot be encoded as a round of a stochastic constraint network
    /// ([`GdlRound`](crate::GdlRound)); the reason, in one line.
    #[error("cannot encode the game as a round: {0}")]
    Encoding(String),
}

impl GdlError {
    /// The `gametree gdl check` exit code for this error: 2 for unreadable input, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            GdlError::Unreadable { .. } => 2,
            _ => 1,
        }
    }

    /// The error in one line, for a tool that reports failures in one: an invalid description's
    /// first problem (without its rule) and how many more there are; otherwise the whole message.
    pub fn headline(&self) -> String {
        match self {
            GdlError::Invalid { diagnostics } => match diagnostics.as_slice() {
                [] => "invalid game description".to_string(),
                [d, rest @ ..] => {
                    let more = match rest.len() {
                        0 => String::new(),
                        n => format!(" (and {n} more problem(s))"),
                    };
                    format!("{}: {}{more}", d.location, d.message)
                }
            },
            other => other.to_string(),
        }
    }
}

struct DisplayList<'a>(&'a [Diagnostic]);

impl fmt::Display for DisplayList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "  {d}")?;
        }
        Ok(())
    }
}

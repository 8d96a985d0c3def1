//! [`ConfigError`]: why a tree configuration was rejected.

/// Why a [`RandomTreeConfig`](crate::RandomTreeConfig) was rejected. Columns are 1-based character
/// positions in the text that was parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The text is not a list of `key=value` pairs.
    #[error("column {column}: {message}")]
    Syntax {
        /// Where the problem starts.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A key the configuration does not have.
    #[error("column {column}: unknown key `{key}`; accepted keys: {accepted}")]
    UnknownKey {
        /// The key given.
        key: String,
        /// Where it starts.
        column: usize,
        /// Every accepted key.
        accepted: &'static str,
    },
    /// A value that does not parse.
    #[error("column {column}: bad value `{value}` for `{key}`: expected {expected}")]
    Value {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// Where the pair starts.
        column: usize,
        /// What was expected.
        expected: String,
    },
    /// Parameters that parse but do not make a valid tree together.
    #[error("invalid random tree: {message}")]
    Invalid {
        /// What is wrong.
        message: String,
    },
}

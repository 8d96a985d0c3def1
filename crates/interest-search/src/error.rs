//! [`InterestError`]: why an interest-search specification was rejected.

/// Why an `interest:key=value,...` specification could not be read. Columns are 1-based byte
/// offsets into the text that was parsed, so the CLI can point at the culprit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterestError {
    /// The text names another searcher (`alphabeta:...` passed to the interest parser).
    #[error("expected an `interest` spec, found `{name}` (column 1)")]
    WrongName {
        /// The name before the `:`.
        name: String,
    },
    /// A parameter is not of the form `key=value`.
    #[error("parameter `{text}` at column {column} is not `key=value`")]
    Malformed {
        /// The offending parameter.
        text: String,
        /// Where it starts.
        column: usize,
    },
    /// A key interest search does not take.
    #[error("unknown parameter `{key}` at column {column}; accepted: {accepted}")]
    UnknownKey {
        /// The key given.
        key: String,
        /// Where it starts.
        column: usize,
        /// The accepted keys, comma-separated.
        accepted: &'static str,
    },
    /// The same key twice.
    #[error("parameter `{key}` given twice (second time at column {column})")]
    Duplicate {
        /// The repeated key.
        key: String,
        /// Where the repetition starts.
        column: usize,
    },
    /// A value that does not parse or is out of range.
    #[error("bad value `{value}` for `{key}` at column {column}: {expected}")]
    BadValue {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
        /// Where the value starts.
        column: usize,
        /// What was expected.
        expected: &'static str,
    },
}

//! [`ConfigError`]: why a tree configuration was rejected.

/// Why a [`RandomTreeConfig`](crate::RandomTreeConfig) was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Parameters that do not make a valid tree together.
    #[error("invalid random tree: {message}")]
    Invalid {
        /// What is wrong.
        message: String,
    },
}

//! [`SearchError`]: what a searcher of this crate can refuse.

/// Why a searcher could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The machine could not provide the transposition table asked for.
    #[error("cannot allocate a transposition table of {bytes} bytes")]
    TableAllocation {
        /// The size of the table, in bytes: the size asked for rounded down to a power of two of
        /// buckets.
        bytes: usize,
    },
}

//! Forward estimation (being written).
#![deny(missing_docs)]

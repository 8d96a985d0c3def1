//! The command-line program's integration tests (each runs the built `gametree` binary as a
//! user would), one module per command family, built as one test binary: every
//! binary links the libraries again and instantiates their generic code again.

mod cli;
mod ggp;
mod scsp_reproduce;
mod shard;
mod uci;

//! The workspace's cross-crate integration tests, one module per concern, built as one test
//! binary: every binary links the libraries again and instantiates their generic code again.

mod conspiracy_cns;
mod forward_estimation;
mod gdl_search;
mod generic_perft;
mod guide;
mod interest_search;
mod matrix;
mod othello_perft;
mod othello_solve;
mod perft_tables;
mod uct_gdl;

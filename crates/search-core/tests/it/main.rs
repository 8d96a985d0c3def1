//! search-core's integration tests, one module per searcher or concern, built as one test
//! binary: every binary links the libraries again and instantiates their generic code again.

mod common;

mod alphabeta;
mod arena;
mod end_of_game;
mod late_move_reductions;
mod perft;
mod selectivity;
mod turn_order;
mod uct;

//! gdl's integration tests, one module per game or concern, built as one test binary: every
//! binary links the libraries again and instantiates their generic code again.
//! (`allocation.rs` stays a binary of its own: it installs a counting global allocator.)

mod common;

mod awale_mini;
mod backgammon_mini;
mod big_games;
mod bomberman;
mod cant_stop_mini;
mod chess_groundable;
mod chinese_checkers3;
mod fuzz;
mod games;
mod kaseklau;
mod limits;
mod orchard;
mod pickomino_mini;
mod racetrack;
mod round;
mod tron;
mod validate;
mod yahtzee_mini;

//! One module per subcommand.

pub mod gdl;
pub mod ggp;
pub mod list;
pub mod matches;
pub mod merge;
pub mod perft;
pub mod reproduce;
pub mod scsp;
pub mod search;
pub mod showcase;
pub mod solve;
pub mod uci;

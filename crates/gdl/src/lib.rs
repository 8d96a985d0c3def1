//! The Game Description Language (work in progress).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod check;
pub mod desc;
mod error;
pub mod eval;
mod fluents;
mod game;
mod graph;
pub mod network;
mod playout;
pub mod reference;
pub mod syntax;
pub mod term;
mod turn_taking;
mod validate;

pub use check::{check, check_file, CheckReport};
pub use error::{Diagnostic, GdlError, Location};
pub use fluents::FluentSet;
pub use game::{GdlGame, GdlMove, ReasonerKind};
pub use playout::{random_playout, sample, Playout};
pub use turn_taking::{GoalEvaluator, TtState, TurnTaking};

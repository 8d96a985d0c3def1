//! The Game Description Language (work in progress).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod desc;
mod error;
pub mod eval;
mod fluents;
mod game;
mod graph;
pub mod network;
pub mod reference;
pub mod syntax;
pub mod term;
mod validate;

pub use error::{Diagnostic, GdlError, Location};
pub use fluents::FluentSet;
pub use game::{GdlGame, GdlMove, ReasonerKind};

//! General Game Playing over HTTP: a player that game managers drive (`gametree ggp serve`) and a
//! small manager for local matches (`gametree ggp play`). The protocol is the one published with
//! the GDL specification (Love, Hinrichs, Haley, Schkufza, Genesereth, *General Game Playing:
//! Game Description Language Specification*, 2008); `docs/ggp.md` describes what is supported.
//!
//! - [`sexp`]: the KIF s-expressions of messages, spelled as received;
//! - [`message`]: the requests as a typed enum;
//! - [`player`]: the protocol's state machine, testable without sockets;
//! - [`engine`]: the searcher of a match on its own thread, so that the clock is kept;
//! - [`server`]: the HTTP loop around the player;
//! - [`gate`]: the front door that bounds the connections the HTTP loop sees;
//! - [`manager`]: the game manager of `ggp play`.

pub mod engine;
pub mod gate;
pub mod log;
pub mod manager;
pub mod message;
mod perspective;
pub mod player;
pub mod server;
pub mod sexp;

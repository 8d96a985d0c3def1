//! General Game Playing over HTTP for gametree: a player that game managers drive, and a small
//! manager for local matches. The protocol is the one published with the GDL specification (Love,
//! Hinrichs, Haley, Schkufza, Genesereth, *General Game Playing: Game Description Language
//! Specification*, 2008); `docs/ggp.md` in the repository describes what is supported. The
//! `gametree` command line's `ggp serve` and `ggp play` are thin wrappers around this crate.
//!
//! - [`sexp`]: the KIF s-expressions of messages, spelled as received;
//! - [`message`]: the requests as a typed enum ([`Message::parse`](message::Message::parse));
//! - [`player`]: the protocol's state machine ([`Player`](player::Player)), testable without
//!   sockets;
//! - [`engine`]: the searcher of a match on its own thread, so that the clock is kept;
//! - [`server`]: the HTTP server around the player (hyper on tokio, with read timeouts);
//! - [`manager`]: the game manager of `gametree ggp play`;
//! - [`log`]: the player's event log.
//!
//! # Example: a player on a port, driven by hand
//! ```no_run
//! use std::time::Duration;
//! use ggp::log::Log;
//! use ggp::player::{Config, Player};
//!
//! let config = Config {
//!     name: "mine".into(),
//!     spec: "uct:sims=1000000000".parse()?,
//!     fallback: "uct:sims=1000000000".parse()?,
//!     margin: Duration::from_secs(1),
//!     seed: 1,
//! };
//! let listener = ggp::server::bind("127.0.0.1", 9147)?;
//! ggp::server::serve(listener, Log::stderr(), Player::new(config, Log::stderr()))?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod engine;
pub mod log;
pub mod manager;
pub mod message;
mod perspective;
pub mod player;
pub mod server;
pub mod sexp;

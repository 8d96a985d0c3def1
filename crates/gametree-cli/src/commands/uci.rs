//! `gametree uci [--searcher SPEC]`: a chess engine speaking the Universal Chess Interface on
//! standard input and output, for chess GUIs and match tools.

use std::io::{self, ErrorKind};

use gametree::chess::{uci, Chess};
use gametree::games::Registered;
use gametree::registry;
use gametree::spec::Spec;

use crate::Failure;

/// The engine's searcher unless `--searcher` says otherwise.
pub const DEFAULT_SEARCHER: &str = "pvs:tt=64mb,quiescence=on,checks=1,null=2";

/// The searchers that deepen by depth, as `go` drives them.
const DEEPENING: &[&str] = &["pvs", "alphabeta", "mtdf", "fe", "interest"];

/// Arguments of `uci`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The searcher, with chess's parameters: one that deepens by depth (pvs, alphabeta, mtdf,
    /// fe, interest), since `go` searches depth 1, 2, … until its limits. Its `depth` is
    /// ignored: `go depth N` gives one.
    #[arg(long, short, default_value = DEFAULT_SEARCHER)]
    searcher: String,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let spec: Spec = args.searcher.parse().map_err(Failure::input)?;
    let entry = registry::searcher(spec.name()).map_err(Failure::input)?;
    if !DEEPENING.contains(&entry.name) {
        return Err(Failure::input(format!(
            "uci needs a searcher that deepens by depth ({}), not {}",
            DEEPENING.join(", "),
            entry.name
        )));
    }
    // Built once here so that a bad spec is an error before the protocol starts; the engine
    // builds its own on its search thread.
    drop(Chess.searcher(&spec).map_err(Failure::input)?);
    let make = move || {
        Chess
            .searcher(&spec)
            .map(|built| built.searcher)
            .map_err(|e| e.to_string())
    };
    match uci::run(io::stdin().lock(), io::stdout(), make) {
        Ok(()) => Ok(()),
        // The GUI closed the pipe: nothing left to answer.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::input(format!("uci: {e}"))),
    }
}

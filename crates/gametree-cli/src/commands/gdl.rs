//! `gametree gdl check <FILE> [--accept-unsafe]`: validate a GDL description and summarise it.
//! `gametree gdl bench <FILE> [--seconds S] [--seed N] [--json] [--accept-unsafe]`: load time,
//! ground rules, fluents, random playouts per second and their mean length.

use std::path::PathBuf;

use gametree::gdl::{BenchReport, GdlError, Limits, Loader, UnsafeVariables};

use crate::out::{out, outln};
use crate::Failure;

/// Arguments of `gdl`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Validate a game description: print roles, fluent and move counts, whether the fast reasoner
    /// applies, and any warnings. Exit 0 for a valid game, 1 for an invalid one, 2 for unreadable input.
    Check {
        /// A GDL file (KIF or the infix Prolog-like form).
        file: PathBuf,
        #[command(flatten)]
        reading: Reading,
    },
    /// Measure a game: load time, ground rules, fluents, moves, then seeded uniformly random playouts
    /// for about S seconds (playouts per second, mean length; `--seconds 0` measures the load
    /// alone); on the reference reasoner, its join steps and the rules that took the most. One
    /// thread. Exit 1 if the game does not load, 2 for unreadable input.
    Bench {
        /// A GDL file (KIF or the infix Prolog-like form).
        file: PathBuf,
        /// How long to play random playouts, in seconds (0: load only).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// The seed of the random playouts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        reading: Reading,
    },
}

/// How a game file is read (shared with `ggp play`, `perft`, `search` and `match`).
#[derive(clap::Args, Debug)]
pub struct Reading {
    /// Accept rules in a game file with a variable no positive literal binds, as GGP Base does
    /// (GDL forbids them): each such variable ranges over the ground terms that can reach it
    /// (`gdl check` warns about each rule).
    #[arg(long)]
    accept_unsafe: bool,
    /// Play a description that does not ground whole on the hybrid reasoner where it applies
    /// (the rest grounded; its relations too large to ground, ground atom by atom as states ask
    /// for them) instead of the reference reasoner: faster play, a slower load, more memory
    #[arg(long)]
    hybrid: bool,
}

impl Reading {
    /// The default limits, with unsafe variables read and the hybrid reasoner used as asked.
    pub fn limits(&self) -> Limits {
        Limits {
            unsafe_variables: if self.accept_unsafe {
                UnsafeVariables::RangeOverGroundTerms
            } else {
                UnsafeVariables::Reject
            },
            hybrid_relation_atoms: match self.hybrid {
                true => Limits::HYBRID_RELATION_ATOMS,
                false => 0,
            },
            ..Limits::default()
        }
    }
}

pub fn run(args: &Args) -> Result<(), Failure> {
    match &args.command {
        Command::Check { file, reading } => {
            match Loader::file(file).limits(&reading.limits()).check() {
                Ok(report) => {
                    out!("{report}");
                    Ok(())
                }
                Err(e) => Err(failure(file, e)),
            }
        }
        Command::Bench {
            file,
            seconds,
            seed,
            json,
            reading,
        } => {
            if !(seconds.is_finite() && *seconds >= 0.0) {
                return Err(Failure::input(format!(
                    "--seconds must be a non-negative number, got {seconds}"
                )));
            }
            let report = gametree::gdl::bench(file, *seconds, *seed, &reading.limits())
                .map_err(|e| failure(file, e))?;
            if *json {
                outln!("{}", to_json(&report));
            } else {
                out!("{report}");
            }
            Ok(())
        }
    }
}

/// Unreadable input is exit status 2; a description that is invalid or does not load, 1. A
/// description past the limits of loading is not called invalid: it may be valid GDL whose
/// static relations or ground program are larger than the limits allow.
fn failure(file: &std::path::Path, e: GdlError) -> Failure {
    match e {
        GdlError::Unreadable { .. } => Failure::input(e),
        GdlError::Budget(_) => Failure::check(format!(
            "{}: does not load within the limits of loading: {e}",
            file.display()
        )),
        _ => Failure::check(format!("{}: invalid game description: {e}", file.display())),
    }
}

fn to_json(r: &BenchReport) -> serde_json::Value {
    serde_json::json!({
        "file": r.source,
        "reasoner": r.reasoner.name(),
        "fallback": r.fallback,
        "goal_directed": r.goal_directed,
        "deferred": r.deferred,
        "per_state": r.per_state,
        "load_seconds": r.load_seconds,
        "ground_rules": r.ground_rules,
        "fluents": r.fluents,
        "moves": r.moves,
        "playouts": r.playouts,
        "seconds": r.seconds,
        "playouts_per_second": r.playouts_per_second(),
        "mean_length": r.mean_length,
        "join_steps": r.join_steps,
        "rule_steps": r.rule_steps.iter().map(|s| serde_json::json!({
            "location": s.location,
            "rule": s.rule,
            "steps": s.steps,
        })).collect::<Vec<_>>(),
    })
}

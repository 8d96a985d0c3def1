//! `gametree`: the command-line face of the gametree libraries. Thin glue: arguments in, library calls,
//! formatted results out. Bad input prints one line on stderr and exits with status 2.

mod commands;
mod out;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Game-tree search: perft, search, matches, endgame solving and the papers' reproductions.
#[derive(Parser, Debug)]
#[command(name = "gametree", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree at each depth 1..=DEPTH: `depth count seconds` per line.
    Perft(commands::perft::Args),
    /// Search the start position (or a given one) with a searcher and print value, bound, move, PV and statistics.
    Search(commands::search::Args),
    /// Play a match between two searchers, each opening twice with colours swapped.
    Match(commands::matches::Args),
    /// Solve Othello endgame positions exactly (OBF file); exit 1 if a listed score disagrees.
    Solve(commands::solve::Args),
    /// Reproduce a paper's table or figure (`gametree reproduce list` names them).
    Reproduce(commands::reproduce::Args),
    /// Combine the shards of a `reproduce` or `match` run (--shard K/N) into the unsharded report.
    Merge(commands::merge::Args),
    /// Game Description Language tools.
    Gdl(commands::gdl::Args),
    /// Stochastic constraint networks: list the solution policies of a one-stage network.
    Scsp(commands::scsp::Args),
    /// General Game Playing over HTTP: a player for game managers, and a small manager.
    Ggp(commands::ggp::Args),
    /// List the games, searchers (with their parameters and defaults) and reproductions.
    List(commands::list::Args),
    /// Play chess through the Universal Chess Interface on standard input and output.
    Uci(commands::uci::Args),
}

/// A failure to report: the message, and the exit status (2 for bad input, 1 for a failed check).
pub struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    /// Bad input: unknown game, unreadable file, bad spec, bad depth (exit status 2).
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            status: 2,
        }
    }

    /// The command ran but what it checked is wrong, e.g. a score mismatch (exit status 1).
    pub fn check(message: impl std::fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            status: 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        None => commands::showcase::run(),
        Some(Command::Perft(args)) => commands::perft::run(&args),
        Some(Command::Search(args)) => commands::search::run(&args),
        Some(Command::Match(args)) => commands::matches::run(&args),
        Some(Command::Solve(args)) => commands::solve::run(&args),
        Some(Command::Reproduce(args)) => commands::reproduce::run(&args),
        Some(Command::Merge(args)) => commands::merge::run(&args),
        Some(Command::Gdl(args)) => commands::gdl::run(&args),
        Some(Command::Scsp(args)) => commands::scsp::run(&args),
        Some(Command::Ggp(args)) => commands::ggp::run(&args),
        Some(Command::List(args)) => commands::list::run(&args),
        Some(Command::Uci(args)) => commands::uci::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("gametree: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

//! `gametree ggp serve --port P --searcher SPEC [--name NAME] [--log FILE] [--margin SECONDS]`.

use std::path::PathBuf;
use std::time::Duration;

use gametree::spec::Spec;

use crate::ggp::engine::check_spec;
use crate::ggp::log::Log;
use crate::ggp::player::{Config, Player};
use crate::Failure;

/// Arguments of `ggp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Play General Game Playing matches for a game manager: answer the GGP protocol's HTTP
    /// requests (info, start, play, stop, abort) on a port, with the given searcher. Runs until
    /// killed; bad requests are logged and answered with HTTP 400.
    Serve(ServeArgs),
}

/// Arguments of `ggp serve`.
#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The TCP port to listen on.
    #[arg(long)]
    port: u16,
    /// The address to listen on (all interfaces by default, so remote managers can connect).
    #[arg(long, default_value = "0.0.0.0")]
    host: String,
    /// The searcher: `uct:…` plays every game; a two-player searcher (`alphabeta`, `pvs`, …)
    /// plays two-player turn-taking constant-sum games, and UCT plays the others. The play
    /// clock always stops the search: give a large simulation count or depth to search by time.
    #[arg(long, short, default_value = "uct:sims=1000000000")]
    searcher: String,
    /// The name `(info)` reports.
    #[arg(long, default_value = "gametree")]
    name: String,
    /// Append the log here instead of writing it on stderr.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Seconds kept back from every clock for the network and the manager (half the clock when
    /// the clock is not longer).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    margin: f64,
    /// Seeds the random legal moves played when a search gives no usable move in time.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    match &args.command {
        Command::Serve(serve) => run_serve(serve),
    }
}

fn run_serve(args: &ServeArgs) -> Result<(), Failure> {
    let spec: Spec = args.searcher.parse().map_err(Failure::input)?;
    let full = check_spec(&spec).map_err(Failure::input)?;
    if !(args.margin.is_finite() && (0.0..=3600.0).contains(&args.margin)) {
        return Err(Failure::input(format!(
            "--margin must be seconds from 0 to 3600, got {}",
            args.margin
        )));
    }
    if args.name.is_empty()
        || args
            .name
            .contains(|c: char| c.is_whitespace() || "()".contains(c))
    {
        return Err(Failure::input(format!(
            "--name must be one KIF symbol (no blanks or parentheses), got `{}`",
            args.name
        )));
    }
    let mut log = match &args.log {
        Some(path) => {
            Log::file(path).map_err(|e| Failure::input(format!("{}: {e}", path.display())))?
        }
        None => Log::stderr(),
    };
    let server = tiny_http::Server::http((args.host.as_str(), args.port)).map_err(|e| {
        Failure::input(format!("cannot listen on {}:{}: {e}", args.host, args.port))
    })?;
    log.line(
        "listen",
        &format!(
            "{}:{} name={} searcher={full}",
            args.host, args.port, args.name
        ),
    );
    let config = Config {
        name: args.name.clone(),
        spec,
        fallback: "uct:sims=1000000000".parse().map_err(Failure::input)?,
        margin: Duration::from_secs_f64(args.margin),
        seed: args.seed,
    };
    crate::ggp::server::serve(server, Player::new(config, log));
    Ok(())
}

//! `gametree ggp serve --port P --searcher SPEC [--name NAME] [--log FILE] [--margin SECONDS]`;
//! `gametree ggp play --game FILE --player URL… [--start S] [--play P] [--out FILE]`.

use std::path::PathBuf;
use std::time::Duration;

use gametree::game::GeneralGame;
use gametree::gdl::Loader;
use gametree::spec::Spec;

use crate::out::outln;
use crate::Failure;
use ggp::engine::check_spec;
use ggp::log::Log;
use ggp::manager::{self, MatchSetup, Record};
use ggp::player::{Config, Player};

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
    /// Run one match between GGP players (one `--player` URL per role other than `random`, in
    /// the order of the rules), playing the `random` role here, and record it as JSON lines: the start, every
    /// step's moves, reply times and errors, and the goals. A missing, late or illegal move is
    /// replaced by a random legal one and recorded as an error. For local matches and tests.
    Play(PlayArgs),
}

/// Arguments of `ggp play`.
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// The game: a GDL file (KIF or the infix form; sent to the players in KIF).
    #[arg(long)]
    game: PathBuf,
    /// A player's URL, e.g. `http://127.0.0.1:9147/`; one per role other than `random`, in the
    /// order of the rules.
    #[arg(long = "player", value_name = "URL", required = true)]
    players: Vec<String>,
    /// The start clock, in seconds.
    #[arg(long = "start", default_value_t = 10.0, value_name = "SECONDS")]
    start_clock: f64,
    /// The play clock, in seconds.
    #[arg(long = "play", default_value_t = 5.0, value_name = "SECONDS")]
    play_clock: f64,
    /// The match id sent to the players (default: `gametree.` and the Unix time).
    #[arg(long)]
    id: Option<String>,
    /// Write the JSON lines here instead of on stdout (a summary line then goes to stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Seeds the `random` role's moves and the replacements of bad moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    reading: super::gdl::Reading,
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
        Command::Play(play) => run_play(play),
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
    let listener = ggp::server::bind(&args.host, args.port).map_err(|e| {
        Failure::input(format!("cannot listen on {}:{}: {e}", args.host, args.port))
    })?;
    let server_log = log.try_clone();
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
    ggp::server::serve(listener, server_log, Player::new(config, log))
        .map_err(|e| Failure::input(format!("cannot serve on {}:{}: {e}", args.host, args.port)))
}

fn run_play(args: &PlayArgs) -> Result<(), Failure> {
    let setup = match_setup(args)?;
    let mut file = match &args.out {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    let mut stdout = std::io::stdout();
    let out: &mut dyn std::io::Write = match &mut file {
        Some(f) => f,
        None => &mut stdout,
    };
    let outcome = manager::run(&setup, &mut Record::new(out)).map_err(Failure::check)?;
    if args.out.is_some() {
        let goals: Vec<String> = outcome
            .goals
            .iter()
            .map(|(r, g)| format!("{r} {}", g.map_or("none".into(), |g| g.to_string())))
            .collect();
        outln!(
            "match {}: {} steps; goals {}; {} errors",
            setup.id,
            outcome.steps,
            goals.join(", "),
            outcome.errors
        );
    }
    Ok(())
}

/// The match the arguments describe: the game loaded, its rules in KIF, the clocks checked.
fn match_setup(args: &PlayArgs) -> Result<MatchSetup, Failure> {
    let text = std::fs::read_to_string(&args.game)
        .map_err(|e| Failure::input(format!("{}: {e}", args.game.display())))?;
    let name = args.game.display().to_string();
    let game = Loader::text(&text)
        .name(&name)
        .limits(&args.reading.limits())
        .load()
        .map_err(|e| Failure::input(e.headline()))?;
    let clauses = gametree::gdl::syntax::parse(&text, &name).map_err(Failure::input)?;
    let rules: Vec<String> = clauses.iter().map(|c| c.to_kif()).collect();
    if args.players.len() != game.players() {
        let roles: Vec<&str> = (0..game.players()).map(|p| game.player_name(p)).collect();
        return Err(Failure::input(format!(
            "the game has {} player roles ({}), and {} --player URLs were given",
            roles.len(),
            roles.join(", "),
            args.players.len()
        )));
    }
    let id = args.id.clone().unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        format!("gametree.{}", now.map_or(0, |d| d.as_secs()))
    });
    if id.is_empty() || id.contains(|c: char| c.is_whitespace() || "();".contains(c)) {
        return Err(Failure::input(format!(
            "--id must be one KIF symbol (no blanks, parentheses or `;`), got `{id}`"
        )));
    }
    Ok(MatchSetup {
        id,
        rules: rules.join(" "),
        game,
        players: args.players.clone(),
        start_clock: clock(args.start_clock, "--start")?,
        play_clock: clock(args.play_clock, "--play")?,
        seed: args.seed,
    })
}

/// A clock given in seconds: positive, at most a day.
fn clock(value: f64, flag: &str) -> Result<Duration, Failure> {
    if value.is_finite() && value > 0.0 && value <= 86_400.0 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(Failure::input(format!(
            "{flag} must be seconds from 0 to 86400, got {value}"
        )))
    }
}

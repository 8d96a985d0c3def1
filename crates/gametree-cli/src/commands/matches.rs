//! `gametree match <GAME> <SPEC_A> <SPEC_B> --games N --seed S [--json] [--shard K/N] [--jobs J]
//! [--accept-unsafe]`.
//!
//! The units of a match (for `--shard` and `--jobs`) are its games, `0..2 · games`: game `i`
//! plays opening `i / 2`, drawn in order from the seed, with colours by `i % 2`.

use std::time::Duration;

use gametree::game::{Limits, ZeroSumGame};
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::kit::Built;
use gametree::search::arena::{
    openings, play_one, report_of, GamePlayed, MatchConfig, MatchReport,
};
use gametree::spec::{Spec, SpecError};
use reproduce::shard::{run_parallel, Shard};
use serde_json::{json, Value};

use crate::commands::merge::write_shard;
use crate::commands::reproduce::with_progress;
use crate::out::outln;
use crate::Failure;

/// Arguments of `match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A two-player zero-sum game name with optional parameters, or a game file.
    game: String,
    /// First searcher (its results are reported as wins/draws/losses).
    a: String,
    /// Second searcher.
    b: String,
    /// Number of openings; each is played twice with colours swapped.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Seed for the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random legal plies played before the searchers take over.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Wall-clock milliseconds per move (each search's deadline), on top of the searchers' own
    /// depth or simulation counts; give them a large depth to search by time only.
    #[arg(long, value_name = "MS")]
    move_time: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Play only the games whose index is K modulo N (of 0..2·games), and print them as JSON
    /// lines for `gametree merge`.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    shard: Option<String>,
    /// Games played at once, on this many threads (each with its own pair of searchers).
    #[arg(long, value_name = "J", default_value_t = 1)]
    jobs: usize,
    #[command(flatten)]
    reading: super::gdl::Reading,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    if args.jobs == 0 {
        return Err(Failure::input("--jobs must be at least 1"));
    }
    let game =
        GameChoice::parse_with(&args.game, &args.reading.limits()).map_err(Failure::input)?;
    let a: Spec = args.a.parse().map_err(Failure::input)?;
    let b: Spec = args.b.parse().map_err(Failure::input)?;
    game.visit(Match { a, b, args })
}

struct Match<'a> {
    a: Spec,
    b: Spec,
    args: &'a Args,
}

impl GameVisitor for Match<'_> {
    type Output = Result<(), Failure>;

    fn visit<G: Registered>(self, _: &G, _: &G::State) -> Result<(), Failure> {
        Err(Failure::input("`match` needs a two-player zero-sum game"))
    }

    fn visit_zero_sum<G: Registered + ZeroSumGame>(
        self,
        game: &G,
        root: &G::State,
    ) -> Result<(), Failure> {
        // Built here to report a bad spec before any game; each thread builds its own pair.
        let a_spec = game.searcher(&self.a).map_err(Failure::input)?.spec;
        let b_spec = game.searcher(&self.b).map_err(Failure::input)?.spec;
        let args = self.args;
        let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose();
        let shard = shard.map_err(Failure::input)?.unwrap_or(Shard::ALL);
        let config = MatchConfig {
            games: args.games,
            seed: args.seed,
            opening_plies: args.opening_plies,
            limits: Limits::none(),
            time_per_move: args.move_time.map(Duration::from_millis),
        };
        let openings = openings(game, root, &config);
        let indices = shard.units(2 * config.games);
        let init = || (game.searcher(&self.a), game.searcher(&self.b));
        type Pair<G> = (Result<Built<G>, SpecError>, Result<Built<G>, SpecError>);
        let unit = |pair: &mut Pair<G>, i: usize| match pair {
            (Ok(a), Ok(b)) => Ok(play_one(
                game,
                &openings,
                i,
                &mut a.searcher,
                &mut b.searcher,
                &config,
            )),
            _ => Err("a searcher could not be built on a worker thread"),
        };
        let games = with_progress(|p| run_parallel(&indices, args.jobs, &init, &unit, p))?;
        if args.shard.is_none() {
            print_report(&a_spec, &b_spec, &report_of(&games), args.json);
            return Ok(());
        }
        let run = json!({
            "command": "match",
            "game": args.game,
            "a": a_spec,
            "b": b_spec,
            "games": args.games,
            "seed": args.seed,
            "opening_plies": args.opening_plies,
            "move_time": args.move_time,
        });
        let records = indices
            .into_iter()
            .zip(games.iter().map(|g| json!(g)))
            .collect::<Vec<_>>();
        write_shard(run, shard, 2 * config.games, &records);
        Ok(())
    }
}

/// `gametree merge` of a match's shards: the report of `run` from every game's `records`.
pub fn merge(run: &Value, records: &[Value], json: bool) -> Result<(), Failure> {
    let corrupt = || Failure::input("the shards' header names no searchers");
    let (Some(a), Some(b)) = (run["a"].as_str(), run["b"].as_str()) else {
        return Err(corrupt());
    };
    let games = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let game = serde_json::from_value::<GamePlayed>(r.clone());
            game.map_err(|e| Failure::input(format!("unit {i} is not a game of a match: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    print_report(a, b, &report_of(&games), json);
    Ok(())
}

fn print_report(a: &str, b: &str, report: &MatchReport, json: bool) {
    if json {
        outln!("{}", serde_json::to_string(report).unwrap_or_default());
        return;
    }
    let width = a.len().max(b.len()).max(8);
    outln!(
        "{:<width$}  {:>5} {:>5} {:>5}  {:>6}  {:>12}  {:>12}",
        "searcher",
        "wins",
        "draws",
        "losses",
        "score",
        "nodes/move",
        "ms/move"
    );
    let rows = [
        (a, report.wins, report.losses, report.score, &report.a),
        (b, report.losses, report.wins, 1.0 - report.score, &report.b),
    ];
    for (name, wins, losses, score, side) in rows {
        outln!(
            "{name:<width$}  {wins:>5} {:>5} {losses:>5}  {:>5.1}%  {:>12.0}  {:>12.3}",
            report.draws,
            100.0 * score,
            side.nodes_per_move,
            1000.0 * side.seconds_per_move
        );
    }
    let elo = &report.elo;
    outln!(
        "{} games; Elo difference of the first searcher {:+.0} (95% interval {:+.0} .. {:+.0})",
        report.games,
        elo.diff,
        elo.low,
        elo.high
    );
}

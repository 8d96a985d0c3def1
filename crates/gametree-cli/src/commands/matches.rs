//! `gametree match <GAME> <SPEC_A> <SPEC_B> --games N --seed S [--json]`.

use std::time::Duration;

use gametree::game::{Limits, ZeroSumGame};
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::search::arena::{play_match_from, MatchConfig, MatchReport};
use gametree::spec::Spec;

use crate::commands::reproduce::progress_bar;
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
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let game = GameChoice::parse(&args.game).map_err(Failure::input)?;
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
        let mut a = game.searcher(&self.a).map_err(Failure::input)?;
        let mut b = game.searcher(&self.b).map_err(Failure::input)?;
        let config = MatchConfig {
            games: self.args.games,
            seed: self.args.seed,
            opening_plies: self.args.opening_plies,
            limits: Limits::none(),
            time_per_move: self.args.move_time.map(Duration::from_millis),
        };
        let bar = progress_bar();
        let mut progress = |done: u64, total: u64| {
            if let Some(bar) = &bar {
                bar.set_length(total);
                bar.set_position(done);
            }
        };
        let report = play_match_from(
            game,
            root,
            &mut a.searcher,
            &mut b.searcher,
            &config,
            &mut progress,
        );
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        print_report(&a.spec, &b.spec, &report, self.args.json);
        Ok(())
    }
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

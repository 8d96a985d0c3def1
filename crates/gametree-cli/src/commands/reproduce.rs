//! `gametree reproduce <NAME> [--trials N] [--games N] [--move-time MS] [--samples N]
//! [--only GAME,...] [--mac-ucb PARAMS] [--seed S] [--json] [--svg FILE] [--shard K/N]
//! [--jobs J]`.

use std::io::IsTerminal;
use std::path::PathBuf;

use std::path::Path;

use reproduce::shard::{self, Shard};
use reproduce::{self as experiments, Report, ReproduceOptions};
use serde_json::{json, Value};

use crate::commands::merge::write_shard;
use crate::out::{out, outln};
use crate::Failure;

/// Arguments of `reproduce`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The experiment, e.g. `fe-table1`; `list` prints them all.
    name: String,
    /// Trials (random trees) per data point; default: the paper's.
    #[arg(long)]
    trials: Option<usize>,
    /// Games (start positions) per pairing; default: the paper's.
    #[arg(long)]
    games: Option<usize>,
    /// Milliseconds of deliberation per move (scsp-*: default 30, the paper's 30 s scaled by
    /// 1/1000; scsp-table4 scales its other times by the same ratio).
    #[arg(long, value_name = "MS")]
    move_time: Option<u64>,
    /// Simulations or samples per move instead of a time limit (scsp-*): the matches then depend
    /// on --seed only.
    #[arg(long)]
    samples: Option<u64>,
    /// Only these games (comma-separated names), for the experiments that play several games;
    /// each plays the same matches as in the full run.
    #[arg(long, value_name = "GAME,...", value_delimiter = ',')]
    only: Vec<String>,
    /// More parameters of the MAC-UCB and FC-UCB seats, as in a searcher spec (scsp-table3,
    /// scsp-table4, scsp-fig6): another reading of the algorithm against the same opponents, e.g.
    /// `confidence=off,c=0.7` (`gametree list` gives mac-ucb's parameters).
    #[arg(long, value_name = "PARAMS")]
    mac_ucb: Option<String>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON object per row instead of the text tables.
    #[arg(long)]
    json: bool,
    /// Also draw the figure as SVG into this file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Run only the games or trials whose index is K modulo N, and print them as JSON lines for
    /// `gametree merge` (fe-table1, fe-fig2, cn-*, scsp-table3, scsp-table4, scsp-fig6,
    /// scsp-headroom).
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    shard: Option<String>,
    /// Games or trials played at once, on this many threads; the output is the same as with 1
    /// (fe-table1, fe-fig2, cn-*, scsp-table3, scsp-table4, scsp-fig6, scsp-headroom).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    if args.name == "list" {
        for experiment in experiments::EXPERIMENTS {
            outln!("{:<16} {}", experiment.name, experiment.description);
        }
        return Ok(());
    }
    let options = ReproduceOptions {
        trials: args.trials,
        games: args.games,
        seed: args.seed,
        svg: args.svg.is_some(),
        move_time: args.move_time,
        samples: args.samples,
        only: args.only.clone(),
        mac_ucb: args.mac_ucb.clone(),
    };
    let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose();
    let shard = shard.map_err(Failure::input)?;
    let jobs = args.jobs.unwrap_or(1);
    if jobs == 0 {
        return Err(Failure::input("--jobs must be at least 1"));
    }
    if shard.is_none() && args.jobs.is_none() {
        let report = with_progress(|p| experiments::run(&args.name, &options, p))?;
        return print(&args.name, &report, args.json, args.svg.as_deref());
    }
    let plan = match experiments::plan(&args.name, &options) {
        Some(plan) => plan.map_err(Failure::input)?,
        None => return Err(not_in_units(&args.name)),
    };
    let Some(shard) = shard else {
        let report = with_progress(|p| shard::run_all(plan.as_ref(), jobs, p))?;
        return print(&args.name, &report, args.json, args.svg.as_deref());
    };
    if args.svg.is_some() {
        return Err(Failure::input(
            "--svg goes with `gametree merge`, not --shard",
        ));
    }
    let records = with_progress(|p| shard::run_shard(plan.as_ref(), shard, jobs, p))?;
    let run = json!({
        "command": "reproduce",
        "experiment": args.name,
        "options": shard::options_json(&options),
    });
    write_shard(run, shard, plan.count(), &records);
    Ok(())
}

/// Why `name` refuses --shard and --jobs: unknown, or not cut into units yet.
fn not_in_units(name: &str) -> Failure {
    if experiments::experiment(name).is_none() {
        return Failure::input(format!(
            "unknown experiment `{name}` (`gametree reproduce list` names them)"
        ));
    }
    let sharded: Vec<&str> = (experiments::EXPERIMENTS.iter())
        .filter(|e| e.plan.is_some())
        .map(|e| e.name)
        .collect();
    Failure::input(format!(
        "`{name}` does not take --shard or --jobs yet; these do: {}",
        sharded.join(", ")
    ))
}

/// Runs `work` with a progress bar on a terminal.
pub fn with_progress<T, E: std::fmt::Display>(
    work: impl FnOnce(&mut dyn FnMut(u64, u64)) -> Result<T, E>,
) -> Result<T, Failure> {
    let bar = progress_bar();
    let mut progress = |done: u64, total: u64| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    };
    let result = work(&mut progress).map_err(Failure::input);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}

/// Prints a report: its rows as JSON lines or its text; and its figure into `svg`.
fn print(name: &str, report: &Report, json: bool, svg: Option<&Path>) -> Result<(), Failure> {
    if json {
        for row in &report.rows {
            outln!("{row}");
        }
    } else {
        out!("{report}");
    }
    if let Some(path) = svg {
        let figure = report
            .svg
            .as_deref()
            .ok_or_else(|| Failure::input(format!("`{name}` draws no figure")))?;
        std::fs::write(path, figure)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// `gametree merge` of a reproduction's shards: the report of `run` from every unit's `records`.
pub fn merge(
    run: &Value,
    records: &[Value],
    json: bool,
    svg: Option<&Path>,
) -> Result<(), Failure> {
    let corrupt = || Failure::input("the shards' header names no experiment and options");
    let name = run["experiment"].as_str().ok_or_else(corrupt)?;
    let mut options = shard::options_from_json(&run["options"]).ok_or_else(corrupt)?;
    options.svg = svg.is_some();
    let plan = experiments::plan(name, &options).ok_or_else(corrupt)?;
    let plan = plan.map_err(Failure::input)?;
    if plan.count() != records.len() {
        return Err(Failure::input(format!(
            "the shards hold {} units; `{name}` with these options has {}",
            records.len(),
            plan.count()
        )));
    }
    let report = plan.report(records).map_err(Failure::input)?;
    print(name, &report, json, svg)
}

/// A progress bar on stderr when it is a terminal; nothing otherwise (CI logs stay clean).
pub fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(1);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} (eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

//! `gametree reproduce <NAME> [--trials N] [--games N] [--move-time MS] [--samples N]
//! [--only GAME,...] [--seed S] [--json] [--svg FILE]`.

use std::io::IsTerminal;
use std::path::PathBuf;

use reproduce::{self as experiments, ReproduceOptions};

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
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON object per row instead of the text tables.
    #[arg(long)]
    json: bool,
    /// Also draw the figure as SVG into this file.
    #[arg(long)]
    svg: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    if args.name == "list" {
        for (name, about, _) in experiments::EXPERIMENTS {
            outln!("{name:<16} {about}");
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
    };
    let bar = progress_bar();
    let mut progress = |done: u64, total: u64| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    };
    let report = experiments::run(&args.name, &options, &mut progress).map_err(Failure::input)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if args.json {
        for row in &report.rows {
            outln!("{row}");
        }
    } else {
        out!("{report}");
    }
    if let Some(path) = &args.svg {
        let svg = report
            .svg
            .as_deref()
            .ok_or_else(|| Failure::input(format!("`{}` draws no figure", args.name)))?;
        std::fs::write(path, svg)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
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

//! The papers' experiments, reproduced: the tables and figures of Zhang's forward estimation, Vu
//! et al.'s conspiracy numbers, Rollason's interest search and Koriche et al.'s MAC-UCB, each run at the paper's parameters
//! and printed next to the paper's own numbers. `gametree reproduce <NAME>` runs them;
//! `docs/reproductions.md` records the results.
//!
//! Each experiment is a module with one entry point,
//! `pub fn run(options: &ReproduceOptions, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, ExperimentError>`,
//! registered in [`EXPERIMENTS`]. The report carries a text table that prints the paper's own numbers next
//! to ours, one JSON object per row, and optionally an SVG figure.
//!
//! This package is not published: it is the workspace's lab, built on the published crates.
#![deny(missing_docs)]

use std::fmt;

pub mod cn;
pub mod fe;
pub mod fe_othello;
pub mod fe_protocol;
pub mod interest;
pub mod scsp;
pub mod scsp_arena;
pub mod scsp_play;
pub mod shard;
pub mod svg;

/// Options shared by every reproduction. `None` means the paper's own value.
#[derive(Clone, Debug, Default)]
pub struct ReproduceOptions {
    /// Number of trials (random trees) per data point.
    pub trials: Option<usize>,
    /// Number of games (start positions) per pairing.
    pub games: Option<usize>,
    /// Master seed: every random choice of the experiment derives from it.
    pub seed: u64,
    /// Whether to draw the figure as SVG.
    pub svg: bool,
    /// Milliseconds of deliberation per move, for the experiments whose players search by time.
    pub move_time: Option<u64>,
    /// Simulations (UCT) or samples (MAC-UCB, FC-UCB) per move instead of a time: the players then
    /// depend on the seed only.
    pub samples: Option<u64>,
    /// Only these games (by name), for the experiments that play several; empty: all. A game
    /// plays the same matches with or without the others.
    pub only: Vec<String>,
}

/// What a reproduction produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Human-readable tables, the paper's figures beside ours.
    pub text: String,
    /// One JSON object per row (for `--json`).
    pub rows: Vec<serde_json::Value>,
    /// The figure, when asked for and the experiment has one.
    pub svg: Option<String>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Why a reproduction could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// No experiment has that name.
    #[error("unknown experiment `{name}`; available: {available}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names that exist, comma-separated.
        available: String,
    },
    /// An option is out of range for this experiment.
    #[error("invalid option for `{experiment}`: {message}")]
    InvalidOption {
        /// The experiment.
        experiment: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// Signature of an experiment's entry point. `progress(done, total)` is called as work completes.
pub type RunFn = fn(&ReproduceOptions, &mut dyn FnMut(u64, u64)) -> Result<Report, ExperimentError>;

/// Every registered experiment: name, one-line description, entry point.
pub const EXPERIMENTS: &[(&str, &str, RunFn)] = &[
    (cn::NAME, cn::DESCRIPTION, cn::run),
    (cn::TABLE3_NAME, cn::TABLE3_DESCRIPTION, cn::table3),
    (interest::NAME, interest::DESCRIPTION, interest::run),
    (fe::TABLE1.0, fe::TABLE1.1, fe::table1),
    (fe::FIG1A.0, fe::FIG1A.1, fe::fig1a),
    (fe::FIG1B.0, fe::FIG1B.1, fe::fig1b),
    (fe::FIG2.0, fe::FIG2.1, fe::fig2),
    (fe::FIG3A.0, fe::FIG3A.1, fe::fig3a),
    (fe_othello::FIG3B.0, fe_othello::FIG3B.1, fe_othello::fig3b),
    (scsp::TABLE2.0, scsp::TABLE2.1, scsp::table2),
    (scsp_play::TABLE3.0, scsp_play::TABLE3.1, scsp_play::table3),
    (scsp_play::TABLE4.0, scsp_play::TABLE4.1, scsp_play::table4),
    (scsp_play::FIG6.0, scsp_play::FIG6.1, scsp_play::fig6),
];

/// The experiments that play several games, which [`ReproduceOptions::only`] selects among.
pub const PLAY_GAMES: [&str; 3] = [scsp_play::TABLE3.0, scsp_play::TABLE4.0, scsp_play::FIG6.0];

/// The experiments that run as units (see [`shard`]), so can be sharded, run on several threads
/// and merged; the others refuse `--shard` and `--jobs`.
pub const SHARDED: &[(&str, shard::PlanFn)] = &[
    (cn::NAME, cn::plan),
    (cn::TABLE3_NAME, cn::table3_plan),
    (fe::TABLE1.0, fe::table1_plan),
    (fe::FIG2.0, fe::fig2_plan),
    (scsp_play::TABLE3.0, scsp_play::table3_plan),
    (scsp_play::TABLE4.0, scsp_play::table4_plan),
    (scsp_play::FIG6.0, scsp_play::fig6_plan),
];

/// The units of the experiment called `name`: `None` if it does not run as units (or does not
/// exist; [`run`] says which).
pub fn plan(
    name: &str,
    options: &ReproduceOptions,
) -> Option<Result<Box<dyn shard::Units>, ExperimentError>> {
    let (experiment, plan) = SHARDED.iter().find(|(n, _)| *n == name)?;
    Some(only_applies(experiment, options).and_then(|()| plan(options)))
}

/// Refuses [`ReproduceOptions::only`] for an experiment that does not play several games.
fn only_applies(
    experiment: &'static str,
    options: &ReproduceOptions,
) -> Result<(), ExperimentError> {
    if options.only.is_empty() || PLAY_GAMES.contains(&experiment) {
        return Ok(());
    }
    Err(ExperimentError::InvalidOption {
        experiment,
        message: format!("--only applies to {} alone", PLAY_GAMES.join(", ")),
    })
}

/// Runs the experiment called `name`.
pub fn run(
    name: &str,
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    match EXPERIMENTS.iter().find(|(n, _, _)| *n == name) {
        Some((experiment, _, run)) => {
            only_applies(experiment, options)?;
            run(options, progress)
        }
        None => Err(ExperimentError::Unknown {
            name: name.to_string(),
            available: EXPERIMENTS
                .iter()
                .map(|(n, _, _)| *n)
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

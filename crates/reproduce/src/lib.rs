//! The papers' experiments, reproduced: the tables and figures of Zhang's forward estimation, Vu
//! et al.'s conspiracy numbers, Rollason's interest search and Koriche et al.'s MAC-UCB, each run at the paper's parameters
//! and printed next to the paper's own numbers. `gametree reproduce <NAME>` runs them;
//! `docs/reproductions.md` records the results.
//!
//! Each paper is a folder: [`zhang1995`] (forward estimation, with its Othello experiment and the
//! tournament protocol), [`vu2016`] (conspiracy numbers), [`rollason2014`] (interest search) and
//! [`koriche2016`] (stochastic constraint networks: Table 2's encodings, the matches of Tables 3
//! and 4 and Figure 6, and their arena). [`EXPERIMENTS`] is the one table of experiments: each
//! row names an experiment, says what it reproduces, gives its entry point
//! (`fn(&ReproduceOptions, &mut dyn FnMut(u64, u64)) -> Result<Report, ExperimentError>`), how it
//! splits into units when it can be sharded ([`shard`]), and whether it plays several games that
//! [`ReproduceOptions::only`] selects among. The report carries a text table that prints the
//! paper's own numbers next to ours, one JSON object per row, and optionally an SVG figure.
#![deny(missing_docs)]

use std::fmt;

pub mod koriche2016;
pub mod rollason2014;
pub mod shard;
pub mod svg;
pub mod vu2016;
pub mod zhang1995;

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
    /// More parameters of the MAC-UCB and FC-UCB seats, written as in a searcher spec
    /// (`confidence=off,c=0.7`), for the experiments that seat them (scsp-table3, scsp-table4,
    /// scsp-fig6): how another reading of the algorithm plays. The budget, the seed and the seat
    /// (and Figure 6's share) stay the experiment's.
    pub mac_ucb: Option<String>,
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

/// One experiment of [`EXPERIMENTS`].
#[derive(Clone, Copy, Debug)]
pub struct Experiment {
    /// Its name on the command line (`gametree reproduce NAME`).
    pub name: &'static str,
    /// What it reproduces, in one line.
    pub description: &'static str,
    /// Its entry point.
    pub run: RunFn,
    /// How it splits into units, for the experiments that can be sharded, run on several threads
    /// and merged ([`shard`]); the others refuse `--shard` and `--jobs`.
    pub plan: Option<shard::PlanFn>,
    /// Whether it plays several games, which [`ReproduceOptions::only`] selects among.
    pub plays_games: bool,
}

impl Experiment {
    const fn new(name_and_description: (&'static str, &'static str), run: RunFn) -> Experiment {
        Experiment {
            name: name_and_description.0,
            description: name_and_description.1,
            run,
            plan: None,
            plays_games: false,
        }
    }

    const fn sharded(self, plan: shard::PlanFn) -> Experiment {
        Experiment {
            plan: Some(plan),
            ..self
        }
    }

    const fn playing_games(self) -> Experiment {
        Experiment {
            plays_games: true,
            ..self
        }
    }
}

/// Every experiment, in the order `gametree reproduce list` shows them.
pub const EXPERIMENTS: &[Experiment] = &[
    Experiment::new((vu2016::NAME, vu2016::DESCRIPTION), vu2016::run).sharded(vu2016::plan),
    Experiment::new(
        (vu2016::TABLE3_NAME, vu2016::TABLE3_DESCRIPTION),
        vu2016::table3,
    )
    .sharded(vu2016::table3_plan),
    Experiment::new(
        (rollason2014::NAME, rollason2014::DESCRIPTION),
        rollason2014::run,
    )
    .playing_games(),
    Experiment::new(zhang1995::TABLE1, zhang1995::table1).sharded(zhang1995::table1_plan),
    Experiment::new(zhang1995::FIG1A, zhang1995::fig1a),
    Experiment::new(zhang1995::FIG1B, zhang1995::fig1b),
    Experiment::new(zhang1995::FIG2, zhang1995::fig2).sharded(zhang1995::fig2_plan),
    Experiment::new(zhang1995::FIG3A, zhang1995::fig3a),
    Experiment::new(zhang1995::othello::FIG3B, zhang1995::othello::fig3b),
    Experiment::new(koriche2016::TABLE2, koriche2016::table2),
    Experiment::new(koriche2016::play::TABLE3, koriche2016::play::table3)
        .sharded(koriche2016::play::table3_plan)
        .playing_games(),
    Experiment::new(koriche2016::play::TABLE4, koriche2016::play::table4)
        .sharded(koriche2016::play::table4_plan)
        .playing_games(),
    Experiment::new(koriche2016::play::FIG6, koriche2016::play::fig6)
        .sharded(koriche2016::play::fig6_plan)
        .playing_games(),
    Experiment::new(koriche2016::play::HEADROOM, koriche2016::play::headroom)
        .sharded(koriche2016::play::headroom_plan)
        .playing_games(),
];

/// The experiment called `name`.
pub fn experiment(name: &str) -> Option<&'static Experiment> {
    EXPERIMENTS.iter().find(|e| e.name == name)
}

/// The units of the experiment called `name`: `None` if it does not run as units (or does not
/// exist; [`run`] says which).
pub fn plan(
    name: &str,
    options: &ReproduceOptions,
) -> Option<Result<Box<dyn shard::Units>, ExperimentError>> {
    let experiment = experiment(name)?;
    let plan = experiment.plan?;
    let applies =
        only_applies(experiment, options).and_then(|()| mac_ucb_applies(experiment, options));
    Some(applies.and_then(|()| plan(options)))
}

/// Refuses [`ReproduceOptions::only`] for an experiment that does not play several games.
fn only_applies(
    experiment: &Experiment,
    options: &ReproduceOptions,
) -> Result<(), ExperimentError> {
    if options.only.is_empty() || experiment.plays_games {
        return Ok(());
    }
    let playing: Vec<&str> = (EXPERIMENTS.iter())
        .filter(|e| e.plays_games)
        .map(|e| e.name)
        .collect();
    Err(ExperimentError::InvalidOption {
        experiment: experiment.name,
        message: format!("--only applies to {} alone", playing.join(", ")),
    })
}

/// Refuses [`ReproduceOptions::mac_ucb`] for an experiment that seats no MAC-UCB player.
fn mac_ucb_applies(
    experiment: &Experiment,
    options: &ReproduceOptions,
) -> Result<(), ExperimentError> {
    let seating = koriche2016::play::SEATING_MAC_UCB;
    if options.mac_ucb.is_none() || seating.contains(&experiment.name) {
        return Ok(());
    }
    Err(ExperimentError::InvalidOption {
        experiment: experiment.name,
        message: format!("--mac-ucb applies to {} alone", seating.join(", ")),
    })
}

/// Runs the experiment called `name`.
pub fn run(
    name: &str,
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    match experiment(name) {
        Some(experiment) => {
            only_applies(experiment, options)?;
            mac_ucb_applies(experiment, options)?;
            (experiment.run)(options, progress)
        }
        None => Err(ExperimentError::Unknown {
            name: name.to_string(),
            available: (EXPERIMENTS.iter())
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

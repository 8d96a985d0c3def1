//! Reproductions of the papers' experiments, run by `gametree reproduce <NAME>`.
//!
//! Each experiment is a module with one entry point,
//! `pub fn run(options: &ReproduceOptions, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, ExperimentError>`,
//! registered in [`EXPERIMENTS`]. The report carries a text table that prints the paper's own numbers next
//! to ours, one JSON object per row, and optionally an SVG figure.

use std::fmt;

#[cfg(all(feature = "conspiracy", feature = "othello", feature = "search"))]
pub mod cn;
#[cfg(all(
    feature = "forward-estimation",
    feature = "random-tree",
    feature = "search"
))]
pub mod fe;
#[cfg(all(
    feature = "forward-estimation",
    feature = "othello",
    feature = "search"
))]
pub mod fe_othello;
#[cfg(all(
    feature = "forward-estimation",
    feature = "search",
    any(feature = "random-tree", feature = "othello")
))]
pub mod fe_protocol;
#[cfg(all(
    feature = "interest-search",
    feature = "othello",
    feature = "random-tree",
    feature = "search"
))]
pub mod interest;
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
    #[cfg(all(feature = "conspiracy", feature = "othello", feature = "search"))]
    (cn::NAME, cn::DESCRIPTION, cn::run),
    #[cfg(all(
        feature = "interest-search",
        feature = "othello",
        feature = "random-tree",
        feature = "search"
    ))]
    (interest::NAME, interest::DESCRIPTION, interest::run),
    #[cfg(all(
        feature = "forward-estimation",
        feature = "random-tree",
        feature = "search"
    ))]
    (fe::TABLE1.0, fe::TABLE1.1, fe::table1),
    #[cfg(all(
        feature = "forward-estimation",
        feature = "random-tree",
        feature = "search"
    ))]
    (fe::FIG1A.0, fe::FIG1A.1, fe::fig1a),
    #[cfg(all(
        feature = "forward-estimation",
        feature = "random-tree",
        feature = "search"
    ))]
    (fe::FIG1B.0, fe::FIG1B.1, fe::fig1b),
    #[cfg(all(
        feature = "forward-estimation",
        feature = "random-tree",
        feature = "search"
    ))]
    (fe::FIG2.0, fe::FIG2.1, fe::fig2),
    #[cfg(all(
        feature = "forward-estimation",
        feature = "random-tree",
        feature = "search"
    ))]
    (fe::FIG3A.0, fe::FIG3A.1, fe::fig3a),
    #[cfg(all(
        feature = "forward-estimation",
        feature = "othello",
        feature = "search"
    ))]
    (fe_othello::FIG3B.0, fe_othello::FIG3B.1, fe_othello::fig3b),
];

/// Runs the experiment called `name`.
pub fn run(
    name: &str,
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    match EXPERIMENTS.iter().find(|(n, _, _)| *n == name) {
        Some((_, _, run)) => run(options, progress),
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

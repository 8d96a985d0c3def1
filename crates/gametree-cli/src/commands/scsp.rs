//! `gametree scsp solve FILE.json [--json] [--threshold t1,t2,…] [--algorithm mac|fc|brute]
//! [--feasibility probable|every-path]`: every solution policy of a one-stage stochastic constraint
//! network. `gametree scsp encode FILE.kif [--json]`: the size of a GDL game's round encoding.

use std::path::{Path, PathBuf};
use std::time::Instant;

use gametree::gdl::{GdlError, GdlRound, Loader};

use gametree::scsp::{json, solve, Algorithm, Feasibility, Solution, SolveOptions, Solved};

use crate::out::outln;
use crate::Failure;

/// Arguments of `scsp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Print every solution policy of a one-stage network (a JSON file): the values of its decision
    /// variables and its expected utility for each player, then a summary line. A policy is
    /// feasible when its paths satisfy the hard constraints, a solution when moreover its value
    /// meets the threshold for every player.
    Solve(SolveArgs),
    /// Encode a GDL game as the round of a stochastic constraint network (Koriche, Lagrue, Piette,
    /// Tabary, General Game Playing with Stochastic CSP, 2016, Section 3.2) and print its size as
    /// their Table 2 does: variables, largest domain, constraints (tables) and seconds, from reading
    /// the file to the encoded round. Exit status 1 with the reason when the encoder cannot handle
    /// the game, 2 when the file is not valid GDL.
    Encode(EncodeArgs),
}

#[derive(clap::Args, Debug)]
struct EncodeArgs {
    /// The game description (KIF or infix GDL).
    file: PathBuf,
    /// One JSON object: {"game", "variables", "max_domain", "constraints", "seconds"}.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// The network, in the JSON form of `gametree::scsp::json`.
    file: PathBuf,
    /// One JSON object per solution, {"assignment": {"x1": 2, …}, "value": [0.75, …]}, then
    /// {"solutions": N, "feasible": M}.
    #[arg(long)]
    json: bool,
    /// The threshold θ, one number in [0, 1] per player (instead of the file's).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    threshold: Option<Vec<f64>>,
    /// How to enumerate: MAC on the decision constraints with FC on the stochastic ones, FC alone,
    /// or plain enumeration (the oracle). All three find the same policies.
    #[arg(long, value_enum, default_value = "mac")]
    algorithm: Method,
    /// Which paths of a policy must satisfy the hard constraints: those of positive probability,
    /// or every path.
    #[arg(long, value_enum, default_value = "probable")]
    feasibility: Paths,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Method {
    Mac,
    Fc,
    Brute,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Paths {
    Probable,
    EveryPath,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    match &args.command {
        Command::Solve(args) => run_solve(args),
        Command::Encode(args) => run_encode(args),
    }
}

fn run_encode(args: &EncodeArgs) -> Result<(), Failure> {
    let start = Instant::now();
    let file = args.file.display();
    let game = Loader::file(&args.file)
        .load()
        .map_err(|e| Failure::input(format!("{file}: {}", e.headline())))?;
    let round = GdlRound::new(game).map_err(|e| match e {
        GdlError::Encoding(_) => Failure::check(format!("{file}: {e}")),
        e => Failure::input(format!("{file}: {e}")),
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let stats = round.stats();
    let name = game_name(&args.file);
    if args.json {
        outln!(
            "{{\"game\": {}, \"variables\": {}, \"max_domain\": {}, \"constraints\": {}, \"seconds\": {seconds:.3}}}",
            serde_json::Value::from(name),
            stats.variables,
            stats.max_domain,
            stats.constraints
        );
    } else {
        outln!(
            "{name}: {} variables, largest domain {}, {} constraints, {seconds:.3} s",
            stats.variables,
            stats.max_domain,
            stats.constraints
        );
    }
    Ok(())
}

/// The game's name: the file name without its extension.
fn game_name(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

fn run_solve(args: &SolveArgs) -> Result<(), Failure> {
    let mut network = json::read(&args.file).map_err(|e| Failure::input(located(args, e)))?;
    if let Some(threshold) = &args.threshold {
        network.threshold = threshold.clone();
        network
            .validate()
            .map_err(|e| Failure::input(format!("--threshold: {e}")))?;
    }
    let options = SolveOptions {
        algorithm: match args.algorithm {
            Method::Mac => Algorithm::MacFc,
            Method::Fc => Algorithm::Fc,
            Method::Brute => Algorithm::Brute,
        },
        feasibility: match args.feasibility {
            Paths::Probable => Feasibility::Probable,
            Paths::EveryPath => Feasibility::EveryPath,
        },
        preprocess: true,
        ..SolveOptions::default()
    };
    let solved = solve(&network, &options).map_err(|e| Failure::input(located(args, e)))?;
    for solution in solved.solutions() {
        outln!("{}", line(&solved, solution, args.json));
    }
    let solutions = solved.solutions().count();
    let feasible = solved.feasible.len();
    if args.json {
        outln!("{{\"solutions\": {solutions}, \"feasible\": {feasible}}}");
    } else {
        let threshold: Vec<String> = solved.threshold.iter().map(|t| t.to_string()).collect();
        outln!(
            "{solutions} solution{} among {feasible} feasible polic{} (threshold {})",
            if solutions == 1 { "" } else { "s" },
            if feasible == 1 { "y" } else { "ies" },
            threshold.join(" ")
        );
    }
    Ok(())
}

fn located(args: &SolveArgs, e: impl std::fmt::Display) -> String {
    format!("{}: {e}", args.file.display())
}

/// One solution: `x1=2 x2=0  value 0.75 0.25`, or its JSON object (keys in the network's order).
fn line(solved: &Solved, solution: &Solution, json: bool) -> String {
    let pairs = solved.decisions.iter().zip(&solution.assignment);
    if json {
        let assignment: Vec<String> = pairs
            .map(|(name, value)| format!("{}: {value}", serde_json::Value::from(name.as_str())))
            .collect();
        let value = serde_json::Value::from(solution.value.clone());
        format!(
            "{{\"assignment\": {{{}}}, \"value\": {value}}}",
            assignment.join(", ")
        )
    } else {
        let assignment: Vec<String> = pairs
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let value: Vec<String> = solution.value.iter().map(|v| v.to_string()).collect();
        format!("{}  value {}", assignment.join(" "), value.join(" "))
    }
}

//! `gametree solve <FILE.obf> [--json]`: exact Othello endgame solving.

use std::path::PathBuf;

use gametree::othello_solve::{solve_file_with, FileSolve, FirstGuess, SolveOptions};

use crate::out::outln;
use crate::Failure;

/// Arguments of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Positions in OBF form (64 squares `X`/`O`/`-`, the side to move, optional `; move:score`).
    file: PathBuf,
    /// One JSON object per position: {"index":..,"score":..,"best_move":..,"nodes":..,"seconds":..}.
    #[arg(long)]
    json: bool,
    /// Transposition-table size, e.g. `64mb`.
    #[arg(long, default_value = "64mb")]
    tt: String,
    /// Positions with at most this many empty squares are solved by the specialised Othello code
    /// instead of the generic engine (default: the tuned value).
    #[arg(long)]
    exact_empties: Option<u32>,
    /// One search in the window (-64, 64) instead of MTD(f) null-window probes (for comparison).
    #[arg(long)]
    full_window: bool,
    /// Start MTD(f) from this score instead of a narrow search's estimate (for comparison).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "full_window")]
    first_guess: Option<i32>,
    /// Moves per node of the narrow search that makes MTD(f)'s first guess (default: 3).
    #[arg(long, conflicts_with_all = ["first_guess", "full_window"])]
    narrow_width: Option<usize>,
    /// Threads per position: the calling thread's MTD(f) probe, and helpers probing the
    /// neighbouring scores over the shared table (1: the sequential solver).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let tt_bytes = gametree::spec::parse_size(&args.tt)
        .filter(|&bytes| bytes as u64 <= gametree::spec::MAX_SIZE)
        .ok_or_else(|| {
            Failure::input(format!(
                "bad --tt `{}`: expected a size up to 64gb, such as 64mb",
                args.tt
            ))
        })?;
    let defaults = SolveOptions::default();
    let first_guess = match (args.first_guess, args.narrow_width) {
        (Some(score), _) => FirstGuess::Score(score),
        (None, Some(width)) => FirstGuess::narrow(width),
        (None, None) => defaults.first_guess,
    };
    let options = SolveOptions {
        tt_bytes,
        exact_empties: args.exact_empties.unwrap_or(defaults.exact_empties),
        mtd: !args.full_window,
        first_guess,
        threads: usize::from(args.threads),
        ..defaults
    };
    if !args.json {
        outln!(
            "{:>3}  {:>5}  {:>8}  {:>4}  {:>14}  {:>8}  {:>12}",
            "#",
            "score",
            "expected",
            "move",
            "nodes",
            "seconds",
            "nodes/s"
        );
    }
    let mut mismatches = Vec::new();
    let (mut nodes, mut seconds) = (0u64, 0.0f64);
    let solved = solve_file_with(&args.file, &options, |one: &FileSolve| {
        nodes += one.result.nodes;
        seconds += one.result.seconds;
        if one.agrees() == Some(false) {
            mismatches.push(one.index);
        }
        print_one(one, args.json);
    })
    .map_err(Failure::input)?;
    if !args.json {
        let rate = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        outln!(
            "total: {} positions, {nodes} nodes, {seconds:.3} s, {rate:.0} nodes/s",
            solved.len()
        );
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        let list = mismatches
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        Err(Failure::check(format!(
            "MISMATCH: {} of {} positions disagree with the scores in {} (positions {list})",
            mismatches.len(),
            solved.len(),
            args.file.display()
        )))
    }
}

/// One position's line: a table row, or one JSON object `{"index":1,"score":38,"best_move":"a2",
/// "nodes":..,"exact_nodes":..,"estimate_nodes":..,"seconds":..,"expected":38,"agrees":true}`
/// (`best_move` is `null` for a finished game; `expected` and `agrees` are `null` when the file
/// lists no scores).
fn print_one(one: &FileSolve, json: bool) {
    if json {
        let r = &one.result;
        let line = serde_json::json!({
            "index": one.index,
            "score": r.score,
            "best_move": r.best_move.map(|m| m.to_string()),
            "nodes": r.nodes,
            "exact_nodes": r.exact_nodes,
            "estimate_nodes": r.estimate_nodes,
            "seconds": r.seconds,
            "expected": one.expected(),
            "agrees": one.agrees(),
        });
        outln!("{line}");
        return;
    }
    let r = &one.result;
    let expected = one
        .expected()
        .map_or_else(|| "-".to_string(), |e| e.to_string());
    let best = r
        .best_move
        .map_or_else(|| "-".to_string(), |m| m.to_string());
    let rate = if r.seconds > 0.0 {
        r.nodes as f64 / r.seconds
    } else {
        0.0
    };
    let flag = if one.agrees() == Some(false) {
        "  MISMATCH"
    } else {
        ""
    };
    outln!(
        "{:>3}  {:>+5}  {:>8}  {:>4}  {:>14}  {:>8.3}  {:>12.0}{flag}",
        one.index,
        r.score,
        expected,
        best,
        r.nodes,
        r.seconds,
        rate
    );
}

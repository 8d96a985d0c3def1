//! Grounds a game with a raised budget and says how far grounding got: the ground rules and load
//! phases if it fits, or the limit it reached and the rule being grounded then. For measuring
//! what the default [`Limits`] keep a game from (`docs/reproductions.md`, "GDL fast reasoner").
//!
//! ```text
//! cargo run --release -p gdl --example ground_budget -- FILE [GROUND_RULES] [GROUND_SECONDS]
//! ```
//!
//! Domain analysis may hold 20 million atoms; `GROUND_RULES` defaults to 3,000,000 and
//! `GROUND_SECONDS` to 120. No fallback: a game that does not ground is an error here.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gdl::{Limits, Loader};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: ground_budget FILE [GROUND_RULES] [GROUND_SECONDS]");
        return ExitCode::from(2);
    };
    let number = |i: usize, default: u64| -> Result<u64, String> {
        args.get(i)
            .map_or(Ok(default), |s| s.parse().map_err(|e| format!("{s}: {e}")))
    };
    let (rules, seconds) = match (number(1, 3_000_000), number(2, 120)) {
        (Ok(r), Ok(s)) => (r as usize, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("ground_budget: {e}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ground_budget: {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let limits = Limits {
        ground_rules: rules,
        atoms: 20_000_000,
        relaxed_atoms: 20_000_000,
        ground_time: Duration::from_secs(seconds),
        ground_steps: u64::MAX,
        time: Duration::from_secs(seconds + 60),
        fallback: false,
        ..Limits::default()
    };
    let start = Instant::now();
    match Loader::text(&text).name(file).limits(&limits).load() {
        Ok(game) => {
            let p = game.load_profile();
            println!(
                "{file}: {} ground rules, loaded in {:.2} s (domain {:.2}, ground {:.2}, compile {:.2})",
                game.ground_rules().unwrap_or(0),
                start.elapsed().as_secs_f64(),
                p.domain.as_secs_f64(),
                p.instantiate.as_secs_f64(),
                p.compile.as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{file}: after {:.1} s: {e}", start.elapsed().as_secs_f64());
            ExitCode::from(1)
        }
    }
}

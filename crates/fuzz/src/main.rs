//! `fuzz [--target NAME|all] [--count N | --seconds S] [--seed S] [--replay INDEX] [--failures DIR]`:
//! runs the parsers on mutated inputs and prints, per target, the inputs run, the errors, the
//! panics, the longest time per input and the rate. Exits with 1 if any input panicked.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use fuzz::{Budget, Target, TARGETS};

const USAGE: &str = "usage: fuzz [--target NAME|all] [--count N | --seconds S] [--seed S] \
                     [--replay INDEX] [--failures DIR]";

struct Options {
    targets: Vec<&'static Target>,
    budget: Budget,
    seed: u64,
    replay: Option<u64>,
    failures: PathBuf,
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
            eprintln!("targets: {}", names.join(", "));
            return ExitCode::from(2);
        }
    };
    if let Some(index) = options.replay {
        return replay(&options, index);
    }
    let mut panicked = false;
    println!(
        "{:<14} {:>12} {:>12} {:>7} {:>12} {:>12}",
        "target", "inputs", "errors", "panics", "max time", "inputs/s"
    );
    for target in &options.targets {
        let r = fuzz::run(target, options.seed, options.budget, &options.failures);
        println!(
            "{:<14} {:>12} {:>12} {:>7} {:>9.1} ms {:>12.0}",
            target.name,
            r.inputs,
            r.errors,
            r.panics.len(),
            r.max_time.as_secs_f64() * 1e3,
            r.rate()
        );
        for path in r.panics.iter().chain(&r.slow) {
            println!("  saved {}", path.display());
        }
        panicked |= !r.panics.is_empty();
    }
    if panicked {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes input `index` of each target to the failures folder and parses it once.
fn replay(options: &Options, index: u64) -> ExitCode {
    for target in &options.targets {
        let text = fuzz::input(target, &(target.seeds)(), options.seed, index);
        let path = options
            .failures
            .join(format!("{}-{}-{index}.txt", target.name, options.seed));
        if let Err(e) =
            std::fs::create_dir_all(&options.failures).and_then(|()| std::fs::write(&path, &text))
        {
            eprintln!("cannot write {}: {e}", path.display());
        }
        let accepted = (target.run)(&text);
        println!(
            "{}: input {index} ({} bytes, {}) {}",
            target.name,
            text.len(),
            path.display(),
            if accepted { "accepted" } else { "rejected" }
        );
    }
    ExitCode::SUCCESS
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        targets: TARGETS.iter().collect(),
        budget: Budget::Time(Duration::from_secs(5)),
        seed: 1,
        replay: None,
        failures: PathBuf::from("fuzz-failures"),
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("`{flag}` needs a value"));
        match flag.as_str() {
            "--target" => options.targets = targets(&value()?)?,
            "--count" => options.budget = Budget::Count(number(&value()?)?),
            "--seconds" => options.budget = Budget::Time(Duration::from_secs(number(&value()?)?)),
            "--seed" => options.seed = number(&value()?)?,
            "--replay" => options.replay = Some(number(&value()?)?),
            "--failures" => options.failures = PathBuf::from(value()?),
            "-h" | "--help" => return Err("fuzzes the parsers that read user input".into()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

fn targets(name: &str) -> Result<Vec<&'static Target>, String> {
    if name == "all" {
        return Ok(TARGETS.iter().collect());
    }
    fuzz::target(name)
        .map(|t| vec![t])
        .ok_or_else(|| format!("no target `{name}`"))
}

fn number(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a non-negative integer"))
}

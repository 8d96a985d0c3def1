//! Fuzzing of every parser of the workspace that reads user input, on the stable toolchain.
//!
//! Each [target](targets::TARGETS) starts from the real files the parser reads (the shipped GDL
//! games, the FFO positions, the SCSP examples, the registry's specs) and mutates them: byte
//! flips, truncation, splicing with another file, insertion of the language's tokens and of
//! nesting up to 100,000 levels deep. Input number `i` of a run depends only on the run's seed and
//! `i`, so a failure is reproduced with `--seed S --replay i`.
//!
//! The contract checked on every input: the parser returns (an accepted value or an error), never
//! panics, never overflows the stack, and answers within [`SLOW`]. A panicking input is saved to a
//! file and counted; a stack overflow ends the process, as it would in any program.
//!
//! ```text
//! cargo run --release -p fuzz -- --target all --seconds 10 --seed 1
//! ```

#![deny(missing_docs)]

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand_pcg::Pcg64;

pub mod mutate;
pub mod targets;

pub use targets::{Target, TARGETS};

/// An input that takes longer than this is reported as slow.
pub const SLOW: Duration = Duration::from_secs(1);

/// How long a run lasts.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// This many inputs.
    Count(u64),
    /// As many inputs as fit in this time.
    Time(Duration),
}

/// What a run of one target found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Inputs parsed.
    pub inputs: u64,
    /// Inputs the parser rejected with an error (the rest it accepted).
    pub errors: u64,
    /// Inputs that made the parser panic, each saved to a file.
    pub panics: Vec<PathBuf>,
    /// Inputs that took longer than [`SLOW`], each saved to a file.
    pub slow: Vec<PathBuf>,
    /// The longest time one input took.
    pub max_time: Duration,
    /// The whole run's time.
    pub elapsed: Duration,
}

impl Report {
    /// Inputs per second.
    pub fn rate(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Input number `index` of a run of `target` with `seed`: the same numbers, the same text.
pub fn input(target: &Target, seeds: &[String], seed: u64, index: u64) -> String {
    // PCG streams: one independent generator per input, so any input can be replayed alone.
    let mut rng = Pcg64::new(u128::from(seed) << 64 | 0xcafe_f00d, u128::from(index));
    mutate::mutate(&mut rng, seeds, target.tokens, target.opener)
}

/// The stack the parsers run on: the size of a main thread's on the usual platforms, whichever
/// thread calls [`run`].
pub const STACK: usize = 8 << 20;

/// Runs `target` on inputs `0..` until `budget` is spent, on a thread with a [`STACK`]-byte stack;
/// panicking and slow inputs are saved in `failures`.
pub fn run(target: &Target, seed: u64, budget: Budget, failures: &Path) -> Report {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, || run_here(target, seed, budget, failures))
            .expect("a thread for the parsers")
            .join()
            .expect("panics are caught per input")
    })
}

fn run_here(target: &Target, seed: u64, budget: Budget, failures: &Path) -> Report {
    let seeds = (target.seeds)();
    let mut report = Report::default();
    let start = Instant::now();
    // A run may panic thousands of times: print only the message.
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    while !spent(budget, report.inputs, start) {
        let index = report.inputs;
        let text = input(target, &seeds, seed, index);
        let began = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&text)));
        let took = began.elapsed();
        report.max_time = report.max_time.max(took);
        report.inputs += 1;
        match outcome {
            Ok(true) => {}
            Ok(false) => report.errors += 1,
            Err(_) => report
                .panics
                .push(save(failures, target, seed, index, "panic", &text)),
        }
        if took > SLOW {
            report
                .slow
                .push(save(failures, target, seed, index, "slow", &text));
        }
    }
    panic::set_hook(previous);
    report.elapsed = start.elapsed();
    report
}

fn spent(budget: Budget, inputs: u64, start: Instant) -> bool {
    match budget {
        Budget::Count(n) => inputs >= n,
        // Reading the clock costs little next to parsing, so every input checks it.
        Budget::Time(t) => start.elapsed() >= t,
    }
}

/// Writes a failing input to `failures/<target>-<seed>-<index>.<kind>.txt`; returns the path.
fn save(
    failures: &Path,
    target: &Target,
    seed: u64,
    index: u64,
    kind: &str,
    text: &str,
) -> PathBuf {
    let path = failures.join(format!("{}-{seed}-{index}.{kind}.txt", target.name));
    let written = std::fs::create_dir_all(failures).and_then(|()| std::fs::write(&path, text));
    if let Err(e) = written {
        eprintln!("cannot save the failing input to {}: {e}", path.display());
    }
    path
}

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

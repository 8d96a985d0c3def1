//! Experiments cut into independent *units* (a game, a trial), so that a run can be spread over
//! threads (`--jobs`) and machines (`--shard K/N`) and put back together (`gametree merge`).
//!
//! A unit is seeded from the master seed and its index only, and produces a JSON record; the
//! report is computed from all the records in index order. So running units in any order, on any
//! number of threads or machines, and merging their records gives the unsharded run's report,
//! byte for byte (when the players count samples rather than time).

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use serde_json::Value;

use crate::{ExperimentError, Report, ReproduceOptions};

/// The units `index`, `index + of`, `index + 2·of`, … of a run: shard `index` of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, `0..of`.
    pub index: usize,
    /// How many shards the run is cut into.
    pub of: usize,
}

impl Shard {
    /// The whole run: one shard.
    pub const ALL: Shard = Shard { index: 0, of: 1 };

    /// Whether unit `unit` belongs to this shard.
    pub fn contains(&self, unit: usize) -> bool {
        unit % self.of == self.index
    }

    /// This shard's units among `0..count`, in order.
    pub fn units(&self, count: usize) -> Vec<usize> {
        (self.index..count).step_by(self.of).collect()
    }
}

/// Why a `--shard` argument is not `K/N`.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid --shard `{0}`: expected K/N with N at least 1 and K from 0 to N-1, e.g. 0/4")]
pub struct ShardSyntaxError(pub String);

impl FromStr for Shard {
    type Err = ShardSyntaxError;

    fn from_str(s: &str) -> Result<Shard, ShardSyntaxError> {
        let bad = || ShardSyntaxError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let of: usize = n.trim().parse().map_err(|_| bad())?;
        if of == 0 || index >= of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }
}

/// An experiment as independent units `0..count()`.
pub trait Units: Sync {
    /// How many units the whole run has.
    fn count(&self) -> usize;
    /// Runs unit `index`: its record. Depends on the options and `index` only.
    fn run(&self, index: usize) -> Result<Value, ExperimentError>;
    /// The report of the whole run from every unit's record, in index order.
    fn report(&self, records: &[Value]) -> Result<Report, ExperimentError>;
}

/// Builds an experiment's units from its options (checking them).
pub type PlanFn = fn(&ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError>;

/// Runs `unit(state, i)` for every `i` of `indices` on `jobs` threads (each thread's `state` from
/// `init`, built once per thread), and returns the results in the order of `indices`; if units
/// fail, the error of the first of them in that order. `progress(done, total)` is called on this
/// thread as units finish, so a progress bar needs not be thread-safe.
///
/// The threads take the units one at a time from a shared counter, so none sits idle while
/// another has units left, however different their lengths (a game of chess beside a game of
/// tic-tac-toe): indices split into ranges up front can leave one thread to work through a
/// range of long units alone.
pub fn run_parallel<S, T, E>(
    indices: &[usize],
    jobs: usize,
    init: &(dyn Fn() -> S + Sync),
    unit: &(dyn Fn(&mut S, usize) -> Result<T, E> + Sync),
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<T>, E>
where
    T: Send,
    E: Send,
{
    let total = indices.len() as u64;
    progress(0, total);
    let threads = jobs.min(indices.len());
    if threads <= 1 {
        return run_here(indices, init, unit, progress);
    }
    let next = AtomicUsize::new(0);
    // The position of the first unit known to have failed: the units after it are skipped (the
    // run fails anyway), those before it still run, so the error reported is always the same.
    let first_failed = AtomicUsize::new(usize::MAX);
    let (tx, rx) = mpsc::channel::<(usize, Result<T, E>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (tx, next, first_failed) = (tx.clone(), &next, &first_failed);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= indices.len() || k > first_failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let result = unit(&mut state, indices[k]);
                    if result.is_err() {
                        first_failed.fetch_min(k, Ordering::Relaxed);
                    }
                    if tx.send((k, result)).is_err() {
                        break;
                    }
                }
            });
        }
        // The channel closes once every thread is done and has dropped its sender.
        drop(tx);
        let mut results: Vec<Option<T>> = indices.iter().map(|_| None).collect();
        let mut first_error: Option<(usize, E)> = None;
        for (done, (k, result)) in rx.iter().enumerate() {
            progress(done as u64 + 1, total);
            match result {
                Ok(t) => results[k] = Some(t),
                Err(e) if first_error.as_ref().map_or(true, |(at, _)| k < *at) => {
                    first_error = Some((k, e));
                }
                Err(_) => {}
            }
        }
        if let Some((_, e)) = first_error {
            return Err(e);
        }
        // A thread that panicked left its unit without a result; the scope re-raises its panic
        // when it ends, so the results are only collected once they are all there.
        Ok(results.into_iter().flatten().collect())
    })
}

/// [`run_parallel`] on this thread alone.
fn run_here<S, T, E>(
    indices: &[usize],
    init: &(dyn Fn() -> S + Sync),
    unit: &(dyn Fn(&mut S, usize) -> Result<T, E> + Sync),
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<T>, E> {
    let mut state = init();
    let mut out = Vec::with_capacity(indices.len());
    for (done, &i) in indices.iter().enumerate() {
        out.push(unit(&mut state, i)?);
        progress(done as u64 + 1, indices.len() as u64);
    }
    Ok(out)
}

/// Runs the units of `shard` of `plan` on `jobs` threads: `(index, record)` in index order.
pub fn run_shard(
    plan: &dyn Units,
    shard: Shard,
    jobs: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<(usize, Value)>, ExperimentError> {
    let indices = shard.units(plan.count());
    let records = run_parallel(&indices, jobs, &|| (), &|(), i| plan.run(i), progress)?;
    Ok(indices.into_iter().zip(records).collect())
}

/// Runs every unit of `plan` on `jobs` threads and reports: the unsharded run.
pub fn run_all(
    plan: &dyn Units,
    jobs: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let records: Vec<Value> = run_shard(plan, Shard::ALL, jobs, progress)?
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    plan.report(&records)
}

/// The options of a run as JSON, for a shard's header line (all but `svg`, which merge decides).
pub fn options_json(options: &ReproduceOptions) -> Value {
    serde_json::json!({
        "trials": options.trials,
        "games": options.games,
        "seed": options.seed,
        "move_time": options.move_time,
        "samples": options.samples,
        "only": options.only,
        "mac_ucb": options.mac_ucb,
    })
}

/// The options of a shard's header line ([`options_json`]); `None` if it is not such an object.
pub fn options_from_json(value: &Value) -> Option<ReproduceOptions> {
    let opt = |key: &str| match &value[key] {
        Value::Null => Some(None),
        v => v.as_u64().map(Some),
    };
    Some(ReproduceOptions {
        trials: opt("trials")?.map(|n| n as usize),
        games: opt("games")?.map(|n| n as usize),
        seed: value["seed"].as_u64()?,
        svg: false,
        move_time: opt("move_time")?,
        samples: opt("samples")?,
        only: match &value["only"] {
            Value::Null => Vec::new(),
            v => (v.as_array()?.iter())
                .map(|g| g.as_str().map(String::from))
                .collect::<Option<_>>()?,
        },
        mac_ucb: match &value["mac_ucb"] {
            Value::Null => None,
            v => Some(v.as_str()?.to_string()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_syntax() {
        assert_eq!("1/3".parse(), Ok(Shard { index: 1, of: 3 }));
        for bad in ["3/3", "a/b", "0/0", "1", "-1/2", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_partition_the_units() {
        let mut all: Vec<usize> = (0..3)
            .flat_map(|k| Shard { index: k, of: 3 }.units(10))
            .collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn parallel_results_come_in_index_order() {
        let indices: Vec<usize> = (0..50).collect();
        let mut calls = 0;
        let out =
            run_parallel::<(), usize, ()>(&indices, 3, &|| (), &|(), i| Ok(i * i), &mut |_, _| {
                calls += 1
            });
        assert_eq!(out, Ok(indices.iter().map(|i| i * i).collect()));
        assert_eq!(calls, 51);
    }

    #[test]
    fn a_long_unit_does_not_hold_up_the_others() {
        // Unit 0 runs until every other unit is done (or ten seconds pass): on two threads the
        // other thread must take all of them, wherever they lie in the list.
        let indices: Vec<usize> = (0..40).collect();
        let done = AtomicUsize::new(0);
        let unit = |(): &mut (), i: usize| -> Result<bool, ()> {
            if i > 0 {
                done.fetch_add(1, Ordering::SeqCst);
                return Ok(true);
            }
            let start = std::time::Instant::now();
            while done.load(Ordering::SeqCst) < 39 {
                if start.elapsed().as_secs() >= 10 {
                    return Ok(false);
                }
                std::thread::yield_now();
            }
            Ok(true)
        };
        let out = run_parallel(&indices, 2, &|| (), &unit, &mut |_, _| {});
        assert_eq!(out, Ok(vec![true; 40]));
    }

    #[test]
    fn a_failed_run_reports_its_first_failure() {
        let indices: Vec<usize> = (0..30).collect();
        let unit = |(): &mut (), i: usize| if i % 7 == 5 { Err(i) } else { Ok(i) };
        for jobs in [1, 2, 4] {
            let out = run_parallel(&indices, jobs, &|| (), &unit, &mut |_, _| {});
            assert_eq!(out, Err(5), "{jobs} jobs");
        }
    }

    #[test]
    fn options_round_trip() {
        let options = ReproduceOptions {
            games: Some(3),
            seed: 9,
            samples: Some(20),
            mac_ucb: Some("confidence=off".into()),
            ..ReproduceOptions::default()
        };
        let back = options_from_json(&options_json(&options)).unwrap();
        assert_eq!(options_json(&back), options_json(&options));
        assert_eq!(back.mac_ucb.as_deref(), Some("confidence=off"));
    }
}

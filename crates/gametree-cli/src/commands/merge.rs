//! `gametree merge FILES… [--json] [--svg FILE]`: the shards of a `reproduce` or `match` run
//! (`--shard K/N`), put back together into the report the unsharded run prints.
//!
//! A shard file is JSON lines: a header, then one line per unit (see [`write_shard`]). The header
//! names the run (command, experiment or game, options), the shard, the number of shards and of
//! units, so that merge can refuse shards that do not belong together, a shard given twice or
//! missing, and a unit missing or given twice.

use std::path::{Path, PathBuf};

use reproduce::shard::Shard;
use serde_json::{json, Value};

use crate::out::outln;
use crate::Failure;

/// Arguments of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shard files, one per shard `K/N` of the same run, in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the rows as JSON, as the unsharded run does with --json.
    #[arg(long)]
    json: bool,
    /// Also draw the figure as SVG into this file (reproductions that have one).
    #[arg(long)]
    svg: Option<PathBuf>,
}

/// Prints a shard: the header line naming `run`, then `{"unit": i, "record": …}` per unit.
pub fn write_shard(run: Value, shard: Shard, units: usize, records: &[(usize, Value)]) {
    let header = json!({"run": run, "shard": shard.index, "shards": shard.of, "units": units});
    outln!("{header}");
    for (unit, record) in records {
        outln!("{}", json!({"unit": unit, "record": record}));
    }
}

/// A shard file, read.
struct ShardFile {
    path: PathBuf,
    run: Value,
    shard: Shard,
    units: usize,
    records: Vec<(usize, Value)>,
}

/// Reads and parses a shard file.
fn read(path: &Path) -> Result<ShardFile, Failure> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read {name}: {e}")))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let not_shard = || Failure::input(format!("{name}: not a shard file (no header line)"));
    let (_, first) = lines.next().ok_or_else(not_shard)?;
    let header: Value = serde_json::from_str(first).map_err(|_| not_shard())?;
    let number = |key: &str| header[key].as_u64().map(|n| n as usize);
    let (Some(index), Some(of), Some(units)) = (number("shard"), number("shards"), number("units"))
    else {
        return Err(not_shard());
    };
    if !header["run"].is_object() || of == 0 || index >= of {
        return Err(not_shard());
    }
    let mut records = Vec::new();
    for (n, line) in lines {
        let bad = || Failure::input(format!("{name}:{}: not a unit line", n + 1));
        let value: Value = serde_json::from_str(line).map_err(|_| bad())?;
        let unit = value["unit"].as_u64().ok_or_else(bad)? as usize;
        records.push((unit, value["record"].clone()));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        run: header["run"].clone(),
        shard: Shard { index, of },
        units,
        records,
    })
}

/// The run the files are shards of and every unit's record in index order, if the files are the
/// shards `0/N` to `N-1/N` of one run, each once, holding each of its units once.
fn assemble(files: Vec<ShardFile>) -> Result<(Value, Vec<Value>), Failure> {
    let first = &files[0];
    let (of, units) = (first.shard.of, first.units);
    let mut owner: Vec<Option<&Path>> = vec![None; of];
    let mut slots: Vec<Option<Value>> = vec![None; units];
    for file in &files {
        let name = file.path.display();
        if file.run != first.run || file.shard.of != of || file.units != units {
            return Err(Failure::input(format!(
                "{name} and {} are shards of different runs",
                first.path.display()
            )));
        }
        let k = file.shard.index;
        if let Some(other) = owner[k].replace(&file.path) {
            let other = other.display();
            return Err(Failure::input(format!(
                "shard {k}/{of} given twice: {other} and {name}"
            )));
        }
        for (unit, record) in &file.records {
            let misplaced = *unit >= units || !file.shard.contains(*unit);
            if misplaced || slots[*unit].replace(record.clone()).is_some() {
                let why = if misplaced {
                    "does not belong in"
                } else {
                    "appears twice in"
                };
                return Err(Failure::input(format!("unit {unit} {why} {name}")));
            }
        }
    }
    if let Some(k) = owner.iter().position(Option::is_none) {
        return Err(Failure::input(format!("shard {k}/{of} is missing")));
    }
    let records = slots.into_iter().enumerate().map(|(unit, record)| {
        record.ok_or_else(|| Failure::input(format!("unit {unit} is missing from its shard")))
    });
    Ok((first.run.clone(), records.collect::<Result<_, _>>()?))
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let files = args
        .files
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let (run, records) = assemble(files)?;
    match run["command"].as_str() {
        Some("reproduce") => {
            crate::commands::reproduce::merge(&run, &records, args.json, args.svg.as_deref())
        }
        Some("match") if args.svg.is_none() => {
            crate::commands::matches::merge(&run, &records, args.json)
        }
        Some("match") => Err(Failure::input("`match` draws no figure")),
        _ => Err(Failure::input(
            "the shards name no command this merge knows",
        )),
    }
}

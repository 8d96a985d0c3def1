//! `--shard K/N`, `--jobs J` and `gametree merge`: the shards of a run, merged, print what the
//! unsharded run prints, byte for byte; threads change nothing; merge refuses shards that do not
//! make one run. Small sizes, and sample counts instead of times, so that runs are short and
//! depend on the seed only.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn gametree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The arguments of `parts`, one after the other.
fn cat<'a>(parts: &[&[&'a str]]) -> Vec<&'a str> {
    parts.concat()
}

/// Standard output of a run that must succeed.
fn stdout(args: &[&str]) -> String {
    let out = gametree(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Asserts that `args` fail with exit status 2 and one line on stderr; returns the line.
fn refused(args: &[&str]) -> String {
    let out = gametree(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

/// A directory of its own for each test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gametree-shard-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `run` as `n` shards into `dir`: the files' paths, shard 0 first.
fn shards(dir: &std::path::Path, run: &[&str], n: usize) -> Vec<String> {
    (0..n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let text = stdout(&cat(&[run, &["--shard", &shard]]));
            let path = dir.join(format!("shard-{k}.jsonl"));
            std::fs::write(&path, text).unwrap();
            path.display().to_string()
        })
        .collect()
}

/// A small Table 3: one game per pairing, four samples per move, five of the games that play fast
/// (GDL and built-in, with chance and without; a run takes well under a second).
const TABLE3: [&str; 10] = [
    "reproduce",
    "scsp-table3",
    "--games",
    "1",
    "--samples",
    "4",
    "--only",
    "tictactoe,dice_duel,montyhall,nim,pennies",
    "--seed",
    "5",
];

#[test]
fn three_shards_merged_are_the_unsharded_table3_in_json_and_text() {
    let dir = scratch("table3");
    let files = shards(&dir, &TABLE3, 3);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let mut shuffled: Vec<&str> = files.iter().rev().copied().collect();
    let json = stdout(&cat(&[&TABLE3[..], &["--json"]]));
    assert_eq!(stdout(&cat(&[&["merge", "--json"], &shuffled[..]])), json);
    shuffled.rotate_left(1);
    let text = stdout(&TABLE3);
    assert_eq!(stdout(&cat(&[&["merge"], &shuffled[..]])), text);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_sweep_sharded_and_merged_keeps_its_rows_and_figure() {
    // Table 4 and Figure 6 are the same code (a sweep); Table 4 is the cheaper.
    let dir = scratch("sweeps");
    let run = [
        "reproduce",
        "scsp-table4",
        "--games",
        "1",
        "--samples",
        "3",
        "--only",
        "tictactoe,pig",
    ];
    let files = shards(&dir, &run, 2);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let svg = dir.join("table4.svg").display().to_string();
    let merged = stdout(&cat(&[&["merge", "--json", "--svg", &svg], &files[..]]));
    assert_eq!(merged, stdout(&cat(&[&run[..], &["--json"]])));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn forward_estimation_trials_sharded_and_merged_are_the_unsharded_run() {
    let dir = scratch("fe");
    for name in ["fe-table1", "fe-fig2"] {
        let run = ["reproduce", name, "--trials", "5", "--seed", "3"];
        let files = shards(&dir, &cat(&[&run[..], &["--jobs", "2"]]), 3);
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let json = stdout(&cat(&[&run[..], &["--json"]]));
        assert_eq!(
            stdout(&cat(&[&["merge", "--json"], &files[..]])),
            json,
            "{name}"
        );
        assert_eq!(
            stdout(&cat(&[&["merge"], &files[..]])),
            stdout(&run),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_jobs_print_what_one_job_prints() {
    let one = stdout(&cat(&[&TABLE3[..], &["--json", "--jobs", "1"]]));
    assert_eq!(
        stdout(&cat(&[&TABLE3[..], &["--json", "--jobs", "2"]])),
        one
    );
    let shard = ["--shard", "1/2"];
    let one = stdout(&cat(&[&TABLE3[..], &shard, &["--jobs", "1"]]));
    assert_eq!(stdout(&cat(&[&TABLE3[..], &shard, &["--jobs", "2"]])), one);
}

#[test]
fn merge_refuses_missing_duplicated_and_foreign_shards() {
    let dir = scratch("refuse");
    let files = shards(&dir, &TABLE3, 3);
    let err = refused(&["merge", &files[0], &files[1]]);
    assert!(err.contains("shard 2/3 is missing"), "{err}");
    let err = refused(&["merge", &files[0], &files[1], &files[2], &files[1]]);
    assert!(err.contains("given twice"), "{err}");
    let other = dir.join("other.jsonl").display().to_string();
    let seed_2 = stdout(&cat(&[&TABLE3[..6], &["--seed", "2", "--shard", "2/3"]]));
    std::fs::write(&other, seed_2).unwrap();
    let err = refused(&["merge", &files[0], &files[1], &other]);
    assert!(err.contains("different runs"), "{err}");
    // A shard that lost a unit (a task cut short) is not a shard of the run either.
    let text = std::fs::read_to_string(&files[2]).unwrap();
    let cut: Vec<&str> = text.lines().take(text.lines().count() - 1).collect();
    std::fs::write(&other, cut.join("\n")).unwrap();
    let err = refused(&["merge", &files[0], &files[1], &other]);
    assert!(err.contains("missing"), "{err}");
    std::fs::write(&other, "not json\n").unwrap();
    refused(&["merge", &files[0], &files[1], &other]);
    refused(&["merge", "/nonexistent/shard-0.jsonl"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_shards_and_jobs_are_one_line_and_exit_status_2() {
    for shard in ["3/3", "a/b", "0/0", "1", "-1/2"] {
        let err = refused(&cat(&[&TABLE3[..], &["--shard", shard]]));
        assert!(err.contains("--shard"), "{err}");
        refused(&[
            "match",
            "othello",
            "alphabeta:depth=1",
            "uct",
            "--shard",
            shard,
        ]);
    }
    refused(&cat(&[&TABLE3[..], &["--jobs", "0"]]));
    // An experiment not cut into units says so rather than running whole.
    let err = refused(&["reproduce", "interest-table", "--shard", "0/2"]);
    assert!(err.contains("scsp-table3"), "{err}");
    refused(&["reproduce", "fe-fig1a", "--jobs", "2"]);
    refused(&["reproduce", "no-such", "--jobs", "2"]);
    refused(&cat(&[&TABLE3[..], &["--shard", "0/2", "--svg", "x.svg"]]));
}

/// A report (or a row) without its wall-clock figures, which no two runs share.
fn untimed(report: &str) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.retain(|k, _| !k.contains("seconds"));
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(report).expect("one JSON object");
    strip(&mut v);
    v
}

#[test]
fn match_shards_and_jobs_play_the_unsharded_games() {
    let dir = scratch("match");
    let run = [
        "match",
        "othello",
        "alphabeta:depth=2",
        "uct:sims=40,seed=3",
        "--games",
        "3",
        "--seed",
        "4",
    ];
    let whole = untimed(&stdout(&cat(&[&run[..], &["--json"]])));
    assert_eq!(whole["games"], 6);
    let files = shards(&dir, &run, 4);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let merged = stdout(&cat(&[&["merge", "--json"], &files[..]]));
    assert_eq!(untimed(&merged), whole);
    let parallel = stdout(&cat(&[&run[..], &["--json", "--jobs", "2"]]));
    assert_eq!(untimed(&parallel), whole);
    let text = stdout(&cat(&[&["merge"], &files[..]]));
    assert!(text.contains("6 games; Elo difference"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn conspiracy_tables_sharded_and_merged_play_the_unsharded_games() {
    // cn-tables and cn-table3 share their units (an opening of a pairing); cn-table3 is cheaper.
    let dir = scratch("cn");
    let run = ["reproduce", "cn-table3", "--games", "1", "--json"];
    let untimed_lines = |text: &str| text.lines().map(untimed).collect::<Vec<_>>();
    let whole = untimed_lines(&stdout(&run));
    let files = shards(&dir, &run[..4], 2);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let merged = stdout(&cat(&[&["merge", "--json"], &files[..]]));
    assert_eq!(untimed_lines(&merged), whole);
    std::fs::remove_dir_all(&dir).ok();
}

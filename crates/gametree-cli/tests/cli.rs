//! The command-line contract outside checks rely on: output formats, JSON keys, exit codes.

use std::path::PathBuf;
use std::process::{Command, Output};

fn gametree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn workspace(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join(path).display().to_string()
}

#[test]
fn perft_prints_depth_count_seconds_and_json() {
    let out = gametree(&["perft", "othello", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let counts: Vec<(u32, u64)> = stdout(&out)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "`depth count seconds`: {l}");
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect();
    assert_eq!(counts, vec![(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396)]);
    let out = gametree(&["perft", "random-tree:b=5,d=6,seed=1", "3", "--json"]);
    let last = stdout(&out).lines().last().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(&last).unwrap();
    assert_eq!(v["depth"], 3);
    assert_eq!(v["count"], 125);
    assert!(v["seconds"].is_number());
    let out = gametree(&["perft", &workspace("crates/gdl/games/connect4.kif"), "3"]);
    assert!(stdout(&out).contains("3 343 "), "{}", stdout(&out));
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_status_2() {
    for args in [
        vec!["perft", "chess", "3"],
        vec!["perft", "othello", "deep"],
        vec!["perft", "/nonexistent/game.kif", "2"],
        vec!["search", "othello", "--searcher", "alphabeta:dpth=3"],
        vec!["search", "othello", "--searcher", "telepathy"],
        vec!["solve", "/nonexistent.obf"],
        vec!["reproduce", "fe-table9"],
        vec!["gdl", "check", "/nonexistent.kif"],
        vec!["gdl", "bench", "/nonexistent.kif"],
        vec!["gdl", "bench", "x.kif", "--seconds", "-1"],
    ] {
        let out = gametree(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(!err.trim().is_empty(), "{args:?}: no message");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A simultaneous-move game cannot host a match between negamax searchers' colours.
    let rps = workspace("crates/gdl/games/rps3.kif");
    let out = gametree(&["match", &rps, "uct", "uct"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("two-player zero-sum"),
        "{}",
        stderr(&out)
    );
    let err = stderr(&gametree(&["search", "othello", "--searcher", "telepathy"]));
    assert!(err.contains("accepted: minimax, alphabeta"), "{err}");
}

#[test]
fn search_reports_value_bound_move_pv_and_statistics_as_json() {
    let out = gametree(&[
        "search",
        "othello:moves=f5d6",
        "--searcher",
        "pvs:depth=4,tt=1mb",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    for key in [
        "searcher",
        "value",
        "bound",
        "best_move",
        "pv",
        "depth",
        "seconds",
        "stats",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["bound"], "exact");
    assert!(v["stats"]["generated"].as_u64().unwrap() > 0);
}

#[test]
fn solve_reads_obf_reports_json_and_fails_on_a_wrong_listed_score() {
    let dir = std::env::temp_dir().join(format!("gametree-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // FFO-style position 1 of fforum-20-39 (6 empties): H5 scores +6.
    let board = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X";
    let good = dir.join("good.obf");
    std::fs::write(&good, format!("{board}; H5:+6; G6:-2;\n")).unwrap();
    let out = gametree(&["solve", good.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["index"], 1);
    assert_eq!(v["score"], 6);
    assert_eq!(v["best_move"], "h5");
    assert!(v["nodes"].is_u64() && v["seconds"].is_number());
    let wrong = dir.join("wrong.obf");
    std::fs::write(&wrong, format!("{board}; H5:+8;\n")).unwrap();
    let out = gametree(&["solve", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("MISMATCH"), "{}", stderr(&out));
    let bad = dir.join("bad.obf");
    std::fs::write(&bad, "XXO X\n").unwrap();
    assert_eq!(
        gametree(&["solve", bad.to_str().unwrap()]).status.code(),
        Some(2)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gdl_check_exit_codes() {
    let ok = gametree(&["gdl", "check", &workspace("crates/gdl/games/montyhall.kif")]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("roles:"), "{}", stdout(&ok));
    let dir = std::env::temp_dir().join(format!("gametree-gdl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let invalid = dir.join("invalid.kif");
    std::fs::write(&invalid, "(role a)\n(<= (legal a ?m) (true (on)))\n").unwrap();
    let out = gametree(&["gdl", "check", invalid.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("unsafe variable"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn match_plays_both_colours_and_list_names_everything() {
    let out = gametree(&[
        "match",
        "othello",
        "alphabeta:depth=2",
        "alphabeta:depth=1",
        "--games",
        "2",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["games"], 4);
    assert!(v["elo"]["low"].as_f64().unwrap() <= v["elo"]["high"].as_f64().unwrap());
    let list = stdout(&gametree(&["list"]));
    for name in [
        "othello",
        "random-tree",
        "caev",
        "cns",
        "interest",
        "fe",
        "uct",
        "fe-table1",
        "cn-tables",
    ] {
        assert!(list.contains(name), "list lacks {name}");
    }
}

#[test]
fn gdl_bench_reports_load_time_ground_rules_and_playouts_as_text_and_json() {
    let game = workspace("crates/gdl/games/tictactoe.kif");
    let out = gametree(&["gdl", "bench", &game, "--seconds", "0.2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for field in ["reasoner:", "load:", "ground rules:", "fluents:", "playouts:", "mean length:"] {
        assert!(text.contains(field), "{field} missing: {text}");
    }
    let out = gametree(&["gdl", "bench", &game, "--seconds", "0.2", "--seed", "3", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["reasoner"], "fast");
    assert_eq!(v["fluents"], 29);
    assert!(v["ground_rules"].as_u64().unwrap() > 0);
    assert!(v["playouts"].as_u64().unwrap() > 0);
    assert!(v["playouts_per_second"].as_f64().unwrap() > 0.0);
    let mean = v["mean_length"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&mean), "tic-tac-toe lasts 5 to 9 plies: {mean}");
    assert!(v["load_seconds"].is_number());
    // A game that does not load is a failed check (1), with the reason on one line of stderr.
    let dir = std::env::temp_dir().join(format!("gametree-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let invalid = dir.join("invalid.kif");
    std::fs::write(&invalid, "(role a)\n(<= (legal a ?m) (true (on)))\n").unwrap();
    let out = gametree(&["gdl", "bench", invalid.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).ok();
}

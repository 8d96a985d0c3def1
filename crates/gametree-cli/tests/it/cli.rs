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
        vec!["perft", "shogi", "3"],
        vec!["perft", "othello", "deep"],
        vec!["perft", "/nonexistent/game.kif", "2"],
        vec!["perft", "<file>.kif:", "2"],
        vec!["search", "othello", "--searcher", "alphabeta:dpth=3"],
        vec!["search", "othello", "--searcher", "telepathy"],
        vec![
            "search",
            "othello",
            "--searcher",
            "pvs:aspiration=3000000000",
        ],
        vec!["search", "othello", "--searcher", "pvs:tt=1000gb"],
        vec!["search", "othello", "--searcher", "interest:tt=100000gb"],
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
        "reading",
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

/// A CN player's value is a CAEV, a weighted average: it is reported as an estimate, not as
/// an exact minimax value.
#[test]
fn a_caev_is_reported_as_an_estimate() {
    let out = gametree(&[
        "search",
        "tree:seed=3,depth=5",
        "--searcher",
        "caev:cn=2,ab=1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["bound"], "estimate", "{v}");
}

/// Every value comes with what it says about the game, on its searcher's scale: UCT's mean
/// payoff, an evaluation in units of a clear advantage, a finished game as a win or a loss.
#[test]
fn search_says_what_the_value_means() {
    let reading = |game: &str, searcher: &str| {
        let out = gametree(&["search", game, "--searcher", searcher, "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        v["reading"].as_str().unwrap().to_string()
    };
    let uct = reading("tree:seed=3,depth=5", "uct:sims=300");
    assert!(uct.starts_with("expected payoff 0."), "{uct}");
    let pvs = reading("othello:moves=f5d6", "pvs:depth=3,tt=1mb");
    assert!(pvs.contains("units") || pvs == "even", "{pvs}");
    // Tic-tac-toe in GDL, solved: a drawn game reads as even (an evaluation of 0).
    let ttt = workspace("crates/gdl/games/tictactoe.kif");
    let solved = reading(&ttt, "pvs:depth=9,tt=1mb");
    assert_eq!(solved, "even");
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
    let huge = gametree(&["solve", good.to_str().unwrap(), "--tt", "1000gb"]);
    assert_eq!(huge.status.code(), Some(2));
    assert!(stderr(&huge).contains("up to 64gb"), "{}", stderr(&huge));
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

/// Take one or two of three sticks; taking the last wins. `noop` is written `unsafe` (its `?p`
/// is bound by no positive literal, as in GGP Base rulesheets) or `safe` (bound by `role`).
fn sticks(noop: &str) -> String {
    let body = match noop {
        "unsafe" => "(true (control ?q)) (distinct ?p ?q)",
        _ => "(role ?p) (true (control ?q)) (distinct ?p ?q)",
    };
    format!(
        "(role x) (role o) (init (pile 3)) (init (control x)) (succ 0 1) (succ 1 2) (succ 2 3)
         (<= (legal ?p (take 1)) (true (control ?p)) (true (pile ?n)) (succ ?m ?n))
         (<= (legal ?p (take 2)) (true (control ?p)) (true (pile ?n)) (succ ?m ?n) (succ ?k ?m))
         (<= (legal ?p noop) {body})
         (<= (next (pile ?m)) (does ?p (take 1)) (true (pile ?n)) (succ ?m ?n))
         (<= (next (pile ?k)) (does ?p (take 2)) (true (pile ?n)) (succ ?m ?n) (succ ?k ?m))
         (<= (next (control o)) (true (control x))) (<= (next (control x)) (true (control o)))
         (<= (next (last ?p)) (does ?p (take ?n)))
         (<= terminal (true (pile 0)))
         (<= (goal ?p 100) (true (last ?p))) (<= (goal ?p 0) (role ?p) (not (true (last ?p))))"
    )
}

#[test]
fn perft_search_and_match_accept_unsafe_variables_when_asked() {
    let dir = std::env::temp_dir().join(format!("gametree-unsafe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (safe, unsafe_) = (dir.join("safe.kif"), dir.join("unsafe.kif"));
    std::fs::write(&safe, sticks("safe")).unwrap();
    std::fs::write(&unsafe_, sticks("unsafe")).unwrap();
    let (safe, unsafe_) = (safe.to_str().unwrap(), unsafe_.to_str().unwrap());
    let counts = |out: &Output| -> Vec<String> {
        assert!(out.status.success(), "{}", stderr(out));
        let text = stdout(out);
        // `depth count seconds`: the seconds vary.
        (text.lines())
            .map(|l| l.rsplit_once(' ').unwrap().0.to_string())
            .collect()
    };
    let refused = gametree(&["perft", unsafe_, "3"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stdout(&refused));
    assert_eq!(stderr(&refused).lines().count(), 1, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("unsafe variable"),
        "{}",
        stderr(&refused)
    );
    let read = counts(&gametree(&["perft", unsafe_, "3", "--accept-unsafe"]));
    assert_eq!(read, counts(&gametree(&["perft", safe, "3"])));
    assert_eq!(read[..2], ["1 2", "2 3"]);
    for args in [
        &["search", unsafe_, "--searcher", "alphabeta:depth=4"][..],
        &[
            "match",
            unsafe_,
            "alphabeta:depth=3",
            "alphabeta:depth=3",
            "--games",
            "1",
        ],
    ] {
        assert_eq!(gametree(args).status.code(), Some(2), "{args:?}");
        let out = gametree(&[args, &["--accept-unsafe"]].concat());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
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
        "mac-ucb",
        "fc-ucb",
        "pennies",
        "pig",
        "fe-table1",
        "cn-tables",
    ] {
        assert!(list.contains(name), "list lacks {name}");
    }
}

#[test]
fn scsp_solve_lists_solutions_in_text_and_json_and_the_methods_agree() {
    let file = workspace("crates/scsp-mac-ucb/testdata/one-stage.json");
    let out = gametree(&["scsp", "solve", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "x1=1  value 0.5 0\nx1=2  value 0.5 0.5\n2 solutions among 3 feasible policies (threshold 0.25 0)\n"
    );
    let json = |args: &[&str]| -> Vec<serde_json::Value> {
        let out = gametree(&[&["scsp", "solve", &file, "--json"], args].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let all = json(&["--threshold", "0,0"]);
    assert_eq!(all.len(), 4);
    assert_eq!(all[2]["assignment"]["x1"], 3);
    assert_eq!(all[2]["value"], serde_json::json!([0.0, 0.5]));
    assert_eq!(all[3], serde_json::json!({"solutions": 3, "feasible": 3}));
    for algorithm in ["fc", "brute"] {
        assert_eq!(json(&["--threshold", "0,0", "--algorithm", algorithm]), all);
    }
    // Every path must be consistent: only x1 = 3 keeps its impossible branches legal.
    let strict = json(&["--threshold", "0,0", "--feasibility", "every-path"]);
    assert_eq!(
        strict.last().unwrap(),
        &serde_json::json!({"solutions": 1, "feasible": 1})
    );
}

#[test]
fn scsp_solve_refuses_bad_networks_in_one_line() {
    let dir = std::env::temp_dir().join(format!("gametree-scsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"players": 1, "variables": [{"name": "x", "domain": [1]}],
        "constraints": [{"scope": ["x"], "allowed": [[2]]}]}"#,
    )
    .unwrap();
    let two_stage = workspace("crates/scsp-mac-ucb/testdata/example2.json");
    let one_stage = workspace("crates/scsp-mac-ucb/testdata/one-stage.json");
    let bad = bad.display().to_string();
    for (args, says) in [
        (
            vec![bad.as_str()],
            "constraints[0].allowed[0][0]: 2 is not in the domain of `x`",
        ),
        (vec![two_stage.as_str()], "not a one-stage network"),
        (
            vec![one_stage.as_str(), "--threshold", "0.5"],
            "--threshold",
        ),
        (
            vec![one_stage.as_str(), "--threshold", "0.5,2"],
            "--threshold",
        ),
        (vec!["/nonexistent.json"], "cannot read"),
    ] {
        let out = gametree(&[&["scsp", "solve"], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn scsp_encode_prints_the_size_of_a_gdl_round_in_text_and_json() {
    let ttt = workspace("crates/gdl/games/tictactoe.kif");
    let out = gametree(&["scsp", "encode", &ttt]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("tictactoe: 23 variables, largest domain 10, 33 constraints, "),
        "{text}"
    );
    let out = gametree(&["scsp", "encode", &ttt, "--json"]);
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["constraints", "game", "max_domain", "seconds", "variables"]
    );
    assert_eq!(json["game"], "tictactoe");
    assert_eq!(json["variables"], 23);
    assert_eq!(json["max_domain"], 10);
    assert_eq!(json["constraints"], 33);
    assert!(json["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn scsp_encode_refuses_in_one_line_exit_1_for_the_encoder_and_2_for_bad_gdl() {
    let dir = std::env::temp_dir().join(format!("gametree-encode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.kif");
    std::fs::write(&bad, "(role x").unwrap();
    let bad = bad.display().to_string();
    let hex = workspace("crates/gdl/games/hex.kif");
    for (file, code, says) in [
        (
            hex.as_str(),
            1,
            "cannot encode the game as a round: table `terminal`",
        ),
        (bad.as_str(), 2, "syntax error"),
        ("/nonexistent.kif", 2, "cannot read"),
    ] {
        let out = gametree(&["scsp", "encode", file]);
        assert_eq!(out.status.code(), Some(code), "{file}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{file}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mac_ucb_searches_a_game_that_describes_its_rounds() {
    let out = gametree(&[
        "search",
        "pig:target=10",
        "--searcher",
        "mac-ucb:samples=500",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v["best_move"].is_string(), "{v}");
    let out = gametree(&["search", "othello", "--searcher", "mac-ucb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("this game takes: minimax"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn gdl_bench_reports_load_time_ground_rules_and_playouts_as_text_and_json() {
    let game = workspace("crates/gdl/games/tictactoe.kif");
    let out = gametree(&["gdl", "bench", &game, "--seconds", "0.2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for field in [
        "reasoner:",
        "load:",
        "ground rules:",
        "fluents:",
        "playouts:",
        "mean length:",
    ] {
        assert!(text.contains(field), "{field} missing: {text}");
    }
    let out = gametree(&[
        "gdl",
        "bench",
        &game,
        "--seconds",
        "0.2",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["reasoner"], "fast");
    assert_eq!(v["fluents"], 29);
    assert!(v["ground_rules"].as_u64().unwrap() > 0);
    assert!(v["playouts"].as_u64().unwrap() > 0);
    assert!(v["playouts_per_second"].as_f64().unwrap() > 0.0);
    let mean = v["mean_length"].as_f64().unwrap();
    assert!(
        (5.0..=9.0).contains(&mean),
        "tic-tac-toe lasts 5 to 9 plies: {mean}"
    );
    assert!(v["load_seconds"].is_number());
    // The fast reasoner joins nothing; the reference reasoner names the rules it joins most.
    assert_eq!(
        (&v["join_steps"], &v["rule_steps"]),
        (&0.into(), &serde_json::json!([]))
    );
    assert!(!text.contains("join steps:"), "{text}");
    let chess = workspace("crates/gdl/games/chess.kif");
    let out = gametree(&[
        "gdl",
        "bench",
        &chess,
        "--seconds",
        "0",
        "--json",
        "--hybrid",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["reasoner"], "hybrid", "{v}");
    assert!(v["ground_rules"].as_u64().unwrap() > 0, "{v}");
    let deferred = v["deferred"].as_array().unwrap();
    assert!(deferred.contains(&"threatened".into()), "{v}");
    let out = gametree(&["gdl", "bench", &chess, "--seconds", "0.01", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["reasoner"], "reference");
    let steps: Vec<u64> = v["rule_steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["steps"].as_u64().unwrap())
        .collect();
    assert!(steps.windows(2).all(|w| w[0] >= w[1]), "{v}");
    assert_eq!(
        steps.iter().sum::<u64>(),
        v["join_steps"].as_u64().unwrap(),
        "{v}"
    );
    assert!(
        v["rule_steps"][0]["location"]
            .as_str()
            .unwrap()
            .contains("chess.kif:"),
        "{v}"
    );
    let out = gametree(&["gdl", "bench", &chess, "--seconds", "0.01"]);
    assert!(stdout(&out).contains("join steps:"), "{}", stdout(&out));
    // `--seconds 0` measures the load alone: no playout, not even one.
    let out = gametree(&["gdl", "bench", &game, "--seconds", "0", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["playouts"], 0, "{v}");
    assert_eq!(v["mean_length"].as_f64(), Some(0.0), "{v}");
    let out = gametree(&["gdl", "bench", &game, "--seconds", "0"]);
    assert!(
        stdout(&out).contains("playouts:     none (load only)"),
        "{}",
        stdout(&out)
    );
    // A game that does not load is a failed check (1), with the reason on one line of stderr.
    let dir = std::env::temp_dir().join(format!("gametree-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let invalid = dir.join("invalid.kif");
    std::fs::write(&invalid, "(role a)\n(<= (legal a ?m) (true (on)))\n").unwrap();
    let out = gametree(&["gdl", "bench", invalid.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("invalid game description"));
    // A static relation too large to evaluate whole (16^6 atoms) is evaluated per query.
    let large = dir.join("large.kif");
    let numbers: String = (0..16).map(|n| format!("(num {n}) ")).collect();
    let rules = "(<= (legal a go) (big 0 0 0 0 0 0) (true on)) (<= (next off) (does a go))
         (<= terminal (not (true on))) (goal a 100)
         (<= (big ?a ?b ?c ?d ?e ?f) (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f) (seed))";
    std::fs::write(
        &large,
        format!("(role a) {numbers} (init on) {rules} (seed)"),
    )
    .unwrap();
    let out = gametree(&["gdl", "bench", large.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["deferred"], serde_json::json!(["big/6"]));
    assert_eq!(v["goal_directed"], true);
    // Recursive, it stays whole (see `Limits::static_relation_atoms`), and is past the limits:
    // valid GDL that does not load, not called invalid.
    let recursive = format!("(role a) {numbers} (init on) {rules} (<= (seed) (big 0 0 0 0 0 0))");
    std::fs::write(&large, format!("{recursive} (seed)")).unwrap();
    let out = gametree(&["gdl", "bench", large.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("does not load within the limits"),
        "{message}"
    );
    assert!(message.contains("static relations"), "{message}");
    assert!(!message.contains("invalid"), "{message}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `gametree perft othello 11 | head -1`: the reader goes after one line; the command must end
/// quietly with status 0, not panic on the closed pipe.
#[test]
fn a_reader_that_stops_reading_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(["perft", "othello", "11"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("1 4 "), "{first}");
    // The reader is dropped here: the next line the command prints meets a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

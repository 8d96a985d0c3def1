//! `gametree reproduce scsp-*` at a tiny size: the tables' shape, their JSON fields, the figures,
//! and the same JSON from the same seed when the players count samples instead of time.

use std::process::{Command, Output};

use serde_json::Value;

fn gametree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json_rows(args: &[&str]) -> Vec<Value> {
    let out = gametree(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// The games of the tables that play a game in well under a second at 20 samples a move, in the
/// tables' order (the paper's larger games, Bomberman to chess, take seconds to a minute each).
const GAMES: [&str; 15] = [
    "tictactoe",
    "dice_duel",
    "matching_pennies",
    "montyhall",
    "rps3",
    "orchard",
    "pickomino_mini",
    "yahtzee_mini",
    "cant_stop_mini",
    "backgammon_mini",
    "nim",
    "pennies",
    "pig",
    "awale_mini",
    "kaseklau",
];

#[test]
fn table2_encodes_our_games_and_prints_the_papers_sizes() {
    let rows = json_rows(&["reproduce", "scsp-table2", "--json"]);
    let ttt = rows.iter().find(|r| r["game"] == "tictactoe").unwrap();
    assert_eq!(ttt["encoded"], true);
    assert!(ttt["variables"].as_u64().unwrap() > 0);
    assert_eq!(ttt["paper"]["variables"], 19);
    assert_eq!(ttt["paper"]["max_domain"], 18);
    assert_eq!(ttt["paper"]["constraints"], 37);
    let chess = rows.iter().find(|r| r["game"] == "chess").unwrap();
    assert_eq!(chess["encoded"], false);
    assert!(chess["refused"].is_string());
    // Whole-board rules go through helper variables; Hex's recursive paths cannot.
    for game in ["othello", "connect4"] {
        let row = rows.iter().find(|r| r["game"] == game).unwrap();
        assert_eq!(row["encoded"], true, "{row}");
    }
    let hex = rows.iter().find(|r| r["game"] == "hex").unwrap();
    assert!(
        hex["refused"]
            .as_str()
            .unwrap()
            .contains("depends on itself"),
        "{hex}"
    );
    assert!(rows
        .iter()
        .any(|r| r["game"] == "pig" && r["source"] == "built-in"));
    // The text of the same table is checked by the reproduce crate's unit tests: encoding every
    // game takes most of a minute (chess_groundable's round alone half of it).
}

#[test]
fn table3_has_three_pairings_per_game_and_is_the_same_from_the_same_seed() {
    let args = [
        "reproduce",
        "scsp-table3",
        "--games",
        "1",
        "--samples",
        "20",
        "--seed",
        "7",
        "--json",
    ];
    let rows = json_rows(&[&args[..], &["--only", &GAMES.join(",")]].concat());
    // The same seed replays the same matches; a game run alone plays the ones it plays among others.
    let only = ["tictactoe", "yahtzee_mini", "pig"];
    let alone = json_rows(&[&args[..], &["--only", &only.join(",")]].concat());
    let among_all: Vec<&serde_json::Value> = (rows.iter())
        .filter(|r| only.iter().any(|g| r["game"] == *g))
        .collect();
    assert_eq!(alone.iter().collect::<Vec<_>>(), among_all);
    for game in GAMES {
        let pairs: Vec<(String, String)> = rows
            .iter()
            .filter(|r| r["game"] == game)
            .map(|r| (r["a"].to_string(), r["b"].to_string()))
            .collect();
        assert!(pairs.len() >= 3, "{game}: {pairs:?}");
    }
    for row in &rows {
        assert_eq!(row["games"], 1, "{row}");
        for key in ["percent", "sigma", "wins", "draws", "losses", "forfeits"] {
            assert!(row[key].is_number(), "{key} in {row}");
        }
    }
}

#[test]
fn table3_by_time_prints_the_table_with_the_papers_row() {
    let only = "tictactoe,orchard,cant_stop_mini";
    let out = gametree(&[
        "reproduce",
        "scsp-table3",
        "--games",
        "2",
        "--move-time",
        "5",
        "--only",
        only,
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("MAC-UCB vs FC-UCB"), "{text}");
    assert!(text.contains("paper TicTacToe"), "{text}");
    assert!(text.contains("paper Can't Stop"), "{text}");
    assert!(text.contains("5 ms per move"), "{text}");
    for game in only.split(',') {
        assert!(text.contains(game), "{game} in {text}");
    }
    assert!(!text.contains("yahtzee_mini"), "{text}");
}

#[test]
fn only_names_games_that_exist_and_experiments_that_play_them() {
    for (args, says) in [
        (
            ["scsp-table3", "--only", "tictactoe,nosuch"],
            "no game `nosuch`",
        ),
        (["scsp-table2", "--only", "tictactoe"], "--only applies to"),
    ] {
        let out = gametree(&[&["reproduce"], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn mac_ucb_parameters_go_to_the_experiments_that_seat_it() {
    for (args, says) in [
        (
            ["scsp-headroom", "--mac-ucb", "c=1"],
            "--mac-ucb applies to",
        ),
        (
            ["interest-table", "--mac-ucb", "c=1"],
            "--mac-ucb applies to",
        ),
        (
            ["scsp-table3", "--mac-ucb", "samples=5"],
            "samples is set by the experiment",
        ),
        (
            ["scsp-fig6", "--mac-ucb", "share=0.5"],
            "share is set by the experiment",
        ),
        (
            ["scsp-table3", "--mac-ucb", "confidence=maybe"],
            "confidence",
        ),
        (["scsp-table4", "--mac-ucb", "nosuch=1"], "nosuch"),
    ] {
        let out = gametree(&[&["reproduce"], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let args = [
        "reproduce",
        "scsp-table3",
        "--only",
        "tictactoe",
        "--games",
        "1",
    ];
    let out = gametree(
        &[
            &args[..],
            &["--samples", "6", "--mac-ucb", "lookahead=round"],
        ]
        .concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("MAC-UCB and FC-UCB with lookahead=round"),
        "{text}"
    );
}

#[test]
fn table4_fig6_and_headroom_sweep_their_points_and_draw_figures() {
    // Four games that play in well under a second: GDL games without chance, with it, and with
    // one player, and a built-in game (the larger games take the sweeps minutes in tests).
    let only = "tictactoe,dice_duel,montyhall,pig";
    let dir = std::env::temp_dir().join(format!("gametree-scsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut tictactoe = Vec::new();
    for (name, points) in [("scsp-table4", 8), ("scsp-fig6", 11), ("scsp-headroom", 4)] {
        let svg = dir.join(format!("{name}.svg"));
        let svg_arg = svg.display().to_string();
        let args = [
            "reproduce",
            name,
            "--games",
            "1",
            "--samples",
            "6",
            "--only",
            only,
            "--json",
            "--svg",
            &svg_arg,
        ];
        let rows = json_rows(&args);
        assert_eq!(rows.len(), 4 * points, "{name}");
        assert_eq!(rows, json_rows(&args), "{name}: same seed, same JSON");
        assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
        let rows: Vec<Value> = rows
            .into_iter()
            .filter(|r| r["game"] == "tictactoe")
            .collect();
        assert_eq!(rows.len(), points, "{name}");
        tictactoe.push(rows);
    }
    let [_, fig6, headroom] = &tictactoe[..] else {
        unreachable!("three sweeps")
    };
    assert_eq!(fig6[0]["share"], 0.0);
    assert_eq!(fig6[10]["share"], 1.0);
    let factors: Vec<&serde_json::Value> = headroom.iter().map(|r| &r["budget_factor"]).collect();
    assert_eq!(factors, [1, 3, 10, 30]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_sizes_are_one_line_and_exit_status_2() {
    for args in [
        ["reproduce", "scsp-table3", "--games", "0"],
        ["reproduce", "scsp-table4", "--move-time", "0"],
        ["reproduce", "scsp-fig6", "--samples", "0"],
    ] {
        let out = gametree(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
}

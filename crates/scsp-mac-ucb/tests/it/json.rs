//! Reading networks: every malformed file is an error naming the place, never a panic.

use quickcheck::{QuickCheck, TestResult};
use scsp_mac_ucb::json::parse;

/// A valid network, which each case below breaks in one place.
const VALID: &str = r#"{"players": 2,
 "variables": [{"name": "x1", "domain": [1, 2, 3]}, {"name": "y", "domain": [0, 1, 2], "stochastic": true}],
 "constraints": [
   {"scope": ["x1", "y"], "allowed": [[1, 0], [1, 1], [2, 2]]},
   {"scope": ["x1", "y"], "utility": [[[1, 0], [1.0, 0.0]], [[2, 2], [0.5, 0.5]]]}],
 "cpts": [{"variable": "y", "scope": [], "rows": [[[], [0.25, 0.25, 0.5]]]}],
 "threshold": [0.0, 0.0]}"#;

fn error(text: &str) -> String {
    parse(text).expect_err(text).to_string()
}

fn broken(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from}");
    error(&VALID.replacen(from, to, 1))
}

#[test]
fn the_example_of_the_format_reads() {
    let network = parse(VALID).unwrap();
    assert_eq!(network.variables.len(), 2);
    assert_eq!(network.constraints.len(), 2);
    assert_eq!(network.cpts.len(), 1);
}

#[test]
fn each_malformed_place_is_named() {
    let cases = [
        (
            broken(r#"["x1", "y"], "allowed""#, r#"["x1", "z"], "allowed""#),
            "constraints[0].scope[1]: unknown variable `z`",
        ),
        (
            broken("[2, 2]]}", "[4, 2]]}"),
            "constraints[0].allowed[2][0]: 4 is not in the domain of `x1`",
        ),
        (
            broken("[1, 1], [2, 2]", "[1, 1], [2]"),
            "constraints[0].allowed[2]: 1 values for a scope of 2 variables",
        ),
        (broken("[0.5, 0.5]]]}", "[0.5, 1.5]]]}"), "constraints[1]"),
        (broken("[0.5, 0.5]]]}", "[0.5]]]}"), "constraints[1]"),
        (broken("[0.25, 0.25, 0.5]", "[0.25, 0.25, 0.4]"), "cpts[0]"),
        (
            broken(r#""variable": "y""#, r#""variable": "w""#),
            "cpts[0].variable: unknown variable `w`",
        ),
        (
            broken(r#""scope": [], "rows""#, r#""scope": ["y"], "rows""#),
            "cpts[0]",
        ),
        (
            broken(r#""name": "y""#, r#""name": "x1""#),
            "variable `x1` is declared twice",
        ),
        (
            broken(r#""threshold": [0.0, 0.0]"#, r#""threshold": [0.0]"#),
            "threshold",
        ),
        (
            broken(
                r#""allowed": [[1, 0]"#,
                r#""utility": [], "allowed": [[1, 0]"#,
            ),
            "constraints[0]: a constraint has either",
        ),
        (
            broken(
                r#""stochastic": true"#,
                r#""stochastic": true, "colour": 1"#,
            ),
            "unknown field `colour`",
        ),
    ];
    for (message, place) in cases {
        assert!(
            message.contains(place),
            "{message:?} does not name {place:?}"
        );
    }
}

#[test]
fn a_cpt_must_read_earlier_variables_and_cover_its_scope() {
    // y's table reads x2, which comes after y.
    let late = r#"{"players": 1,
      "variables": [{"name": "y", "domain": [0, 1], "stochastic": true}, {"name": "x2", "domain": [0, 1]}],
      "cpts": [{"variable": "y", "scope": ["x2"], "rows": [[[0], [0.5, 0.5]], [[1], [0.5, 0.5]]]}]}"#;
    assert!(
        error(late).contains("`x2` does not come before `y`"),
        "{}",
        error(late)
    );
    // A missing row for x = 1.
    let partial = r#"{"players": 1,
      "variables": [{"name": "x", "domain": [0, 1]}, {"name": "y", "domain": [0, 1], "stochastic": true}],
      "cpts": [{"variable": "y", "scope": ["x"], "rows": [[[0], [0.5, 0.5]]]}]}"#;
    assert!(
        error(partial).contains("every tuple needs a distribution"),
        "{}",
        error(partial)
    );
}

#[test]
fn a_player_count_too_large_to_allocate_is_an_error() {
    let message = error(r#"{"players": 1000000000000000000, "variables": []}"#);
    assert!(message.starts_with("players: "), "{message}");
    let message = error(r#"{"players": 0, "variables": [{"name": "x", "domain": [1]}]}"#);
    assert!(message.contains("at least one player"), "{message}");
}

#[test]
fn syntax_errors_give_line_and_column_once() {
    let message = error("{\"players\": 2,\n \"variables\": [}");
    assert!(message.starts_with("line 2, column 16: "), "{message}");
    assert!(!message.contains("at line"), "{message}");
    let message = error("{\"players\": 2,\n");
    assert!(message.starts_with("line 2, column 1: EOF"), "{message}");
}

/// serde_json counts bytes; the error counts characters, so it points inside the line.
#[test]
fn syntax_error_columns_count_characters() {
    let message = error("\"variabl\u{fffd}s\"");
    assert!(message.starts_with("line 1, column 11: "), "{message}");
    let message = error("{\"é\": [}");
    assert!(message.starts_with("line 1, column 4: "), "{message}");
}

/// Any text, and the valid file cut or with any byte changed, is a network or an error.
#[test]
fn no_text_makes_the_reader_panic() {
    fn prop(cut: usize, at: usize, byte: u8, garbage: String) -> TestResult {
        let mut bytes = VALID.as_bytes().to_vec();
        let at = at % bytes.len();
        bytes[at] = byte;
        let changed = String::from_utf8_lossy(&bytes).into_owned();
        let _ = parse(&VALID[..cut % VALID.len()]);
        let _ = parse(&changed);
        let _ = parse(&garbage);
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(usize, usize, u8, String) -> TestResult);
}

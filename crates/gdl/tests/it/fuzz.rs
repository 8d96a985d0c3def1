//! No input makes the parser or validator panic or overflow the stack: random bytes, random token
//! soups, deep nesting and long rule chains.

use gdl::Loader;
use quickcheck::{QuickCheck, TestResult};

fn survives(text: &str) -> bool {
    // Any outcome is fine as long as it is a value, not a panic.
    let _ = Loader::text(text).name("fuzz").load();
    let _ = gdl::Loader::text(text).name("fuzz").check();
    true
}

#[test]
fn random_bytes_never_panic() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let text = String::from_utf8_lossy(&bytes);
        TestResult::from_bool(survives(&text))
    }
    QuickCheck::new()
        .tests(1000)
        .quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

#[test]
fn random_token_soups_never_panic() {
    const TOKENS: [&str; 40] = [
        "(", ")", "(", ")", "<=", "not", "or", "distinct", "true", "does", "next", "init", "legal",
        "goal", "terminal", "role", "random", "sees", "base", "input", "?x", "?y", "a", "b", "1",
        "100", " ", "\n", ";c\n", ":-", "←", ",", "&", ".", "X", "Y", "p", "q", "f(", "noop",
    ];
    fn prop(picks: Vec<u8>) -> TestResult {
        let text: String = picks
            .iter()
            .map(|&i| TOKENS[i as usize % TOKENS.len()])
            .collect::<Vec<_>>()
            .join(" ");
        TestResult::from_bool(survives(&text))
    }
    QuickCheck::new()
        .tests(1500)
        .quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

#[test]
fn random_small_games_never_panic() {
    // Well-formed clauses over a tiny vocabulary: exercises the validator and both reasoners.
    const HEADS: [&str; 8] = [
        "(p ?x)",
        "(q ?x)",
        "(legal r ?x)",
        "(next (f ?x))",
        "terminal",
        "(goal r 100)",
        "(init (f 1))",
        "(role r)",
    ];
    const BODIES: [&str; 10] = [
        "(p ?x)",
        "(q ?x)",
        "(not (p ?x))",
        "(true (f ?x))",
        "(does r ?x)",
        "(distinct ?x 1)",
        "(or (p ?x) (q ?x))",
        "(n ?x)",
        "(not terminal)",
        "(legal r ?x)",
    ];
    fn prop(rules: Vec<(u8, Vec<u8>)>) -> TestResult {
        let mut text = String::from("(role r)\n(n 1)\n(n 2)\n(init (f 1))\n");
        for (h, body) in rules.iter().take(12) {
            text.push_str(&format!("(<= {}", HEADS[*h as usize % HEADS.len()]));
            for b in body.iter().take(4) {
                text.push(' ');
                text.push_str(BODIES[*b as usize % BODIES.len()]);
            }
            text.push_str(")\n");
        }
        TestResult::from_bool(survives(&text))
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Vec<(u8, Vec<u8>)>) -> TestResult);
}

#[test]
fn deep_nesting_and_long_chains_are_handled() {
    for text in [
        format!("(role {}", "(".repeat(100_000)),
        format!("(p {}x{})", "(f ".repeat(100_000), ")".repeat(100_000)),
        format!("p({}x{}).", "f(".repeat(100_000), ")".repeat(100_000)),
        format!("p :- {}.", vec!["q"; 100_000].join(", ")),
    ] {
        assert!(Loader::text(&text).name("deep").load().is_err());
    }
    // A 20,000-step chain of rules: stratification and grounding are iterative.
    let mut text = String::from(
        "(role r)\n(init (s 0))\n(<= (legal r go) (true (s 0)))\n(<= (next (s 0)) (does r go))\n",
    );
    text.push_str("(<= (c0) (true (s 0)))\n");
    for i in 1..20_000 {
        text.push_str(&format!("(<= (c{i}) (c{}))\n", i - 1));
    }
    text.push_str("(<= terminal (not (c19999)))\n(<= (goal r 100) (c19999))\n");
    let g = Loader::text(&text).name("chain").load().unwrap();
    use game_trait::{Game, GeneralGame};
    assert_eq!(g.turn(&g.initial_state()), game_trait::Turn::Player(0));
}

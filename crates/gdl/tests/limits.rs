//! Stratification at the ground level, and loading under budgets: what is accepted, what is
//! rejected, and that a budget stops loading with an error naming the rule.

use std::time::{Duration, Instant};

use game_trait::{Game, GeneralGame};
use gdl::{GdlError, GdlGame, Limits, Loader, ReasonerKind};

fn games_dir(name: &str) -> String {
    let path = format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("shipped game")
}

/// One move ends the game; the goal is whatever the rules after `extra` say.
const BASE: &str = "(role a)\n(init (on))\n(<= (legal a go) (true (on)))\n\
(<= (next (off)) (does a go))\n(<= terminal (true (off)))\n";

/// Loads `text` with each reasoner: fast, reference bottom-up, reference goal-directed.
fn three_ways(text: &str) -> [GdlGame; 3] {
    let fast = Loader::text(text)
        .name("t.kif")
        .load()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        fast.reasoner_kind(),
        ReasonerKind::Fast,
        "{:?}",
        fast.fallback_reason()
    );
    let bottom_up = fast.clone().with_reasoner(ReasonerKind::Reference).unwrap();
    let goal_directed = bottom_up.clone().with_goal_directed(true);
    [fast, bottom_up, goal_directed]
}

#[test]
fn recursion_through_negation_between_relations_is_accepted_when_ground_stratified() {
    // `goal` depends on `not goal`, but (goal a 100) on (goal a 0) only: stratified ground rules.
    let text = format!("{BASE}(<= (goal a 0) (true (on)))\n(<= (goal a 100) (not (goal a 0)))\n");
    for g in three_ways(&text) {
        assert!(
            g.warnings()
                .iter()
                .any(|w| w.contains("recursion through negation between relations")),
            "{:?}",
            g.warnings()
        );
        let s = g.initial_state();
        assert_eq!(g.goals(&s)[0], Some(0), "{:?}", g.reasoner_kind());
        let mut s2 = s.clone();
        g.play(&mut s2, g.find_move("go").unwrap());
        assert_eq!(g.turn(&s2), game_trait::Turn::Over);
        assert_eq!(g.goals(&s2)[0], Some(100), "{:?}", g.reasoner_kind());
    }
}

#[test]
fn a_relation_recursing_through_negation_is_judged_atom_by_atom() {
    // (r x) :- not (r y) along links: stratified when the links have no cycle.
    let rules = "(n 1) (n 2) (n 3)\n(<= (r ?x) (n ?x) (link ?x ?y) (not (r ?y)) (true (on)))\n\
        (<= (goal a 100) (r 2))\n(<= (goal a 0) (r 1))\n(<= (goal a 50) (true (off)))\n";
    // 3 has no link, so (r 3) is false, (r 2) true, (r 1) false: the goal is 100.
    let acyclic = format!("{BASE}{rules}(link 1 2)\n(link 2 3)\n");
    for g in three_ways(&acyclic) {
        let goals = g.goals(&g.initial_state());
        assert_eq!(goals[0], Some(100), "{:?}", g.reasoner_kind());
    }
    // With a cycle of links, (r 1) depends on itself through negation: no stratified model.
    let cyclic = format!("{BASE}{rules}(link 1 2)\n(link 2 1)\n");
    let err = Loader::text(&cyclic).name("t.kif").load().unwrap_err();
    assert!(matches!(err, GdlError::NotStratified(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("`(r 1)`") && message.contains("`(r 2)`"),
        "{message}"
    );
}

#[test]
fn without_ground_rules_recursion_through_negation_cannot_be_accepted() {
    let text = format!("{BASE}(<= (goal a 0) (true (on)))\n(<= (goal a 100) (not (goal a 0)))\n");
    let limits = Limits {
        ground_rules: 0,
        ..Limits::default()
    };
    let err = Loader::text(&text)
        .name("t.kif")
        .limits(&limits)
        .load()
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("stratification cannot be established"),
        "{err}"
    );
}

#[test]
fn a_runaway_static_rule_stops_within_its_atom_budget_and_is_named() {
    // Five variables over 40 constants: 102 million atoms.
    let mut text = String::from(BASE);
    text.push_str("(goal a 100)\n(<= (big ?a ?b ?c ?d ?e) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e))\n");
    text.push_str("(<= (legal a stay) (big 1 1 1 1 1))\n");
    for i in 1..=40 {
        text.push_str(&format!("(n {i})\n"));
    }
    let limits = Limits {
        atoms: 200_000,
        ..Limits::default()
    };
    let start = Instant::now();
    let err = Loader::text(&text)
        .name("t.kif")
        .limits(&limits)
        .load()
        .unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    let message = err.to_string();
    assert!(matches!(err, GdlError::Budget(_)), "{message}");
    assert!(
        message.contains("more than 200000 atoms") && message.contains("(<= (big ?a ?b ?c ?d ?e)"),
        "{message}"
    );
}

#[test]
fn grounding_budgets_name_the_rule_and_fall_back_or_fail() {
    let checkers = games_dir("checkers.kif");
    // Too few ground rules allowed: without fallback, an error naming the limit and a rule.
    let tight = Limits {
        ground_rules: 1000,
        fallback: false,
        ..Limits::default()
    };
    let message = Loader::text(&checkers)
        .name("checkers.kif")
        .limits(&tight)
        .load()
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("more than 1000 ground rules") && message.contains("checkers.kif:"),
        "{message}"
    );
    // With fallback: the reference reasoner plays, and says why.
    let fallback = Limits {
        ground_rules: 1000,
        ..Limits::default()
    };
    let g = Loader::text(&checkers)
        .name("checkers.kif")
        .limits(&fallback)
        .load()
        .unwrap();
    assert_eq!(g.reasoner_kind(), ReasonerKind::Reference);
    assert!(g.goal_directed());
    assert!(g.fallback_reason().unwrap_or("").contains("ground rules"));
    // Memory, time and domain analysis budgets.
    for (limits, needle) in [
        (
            Limits {
                memory_bytes: 2_000_000,
                fallback: false,
                ..Limits::default()
            },
            "more than 2 MB",
        ),
        (
            Limits {
                ground_time: Duration::ZERO,
                fallback: false,
                ..Limits::default()
            },
            "more than 0.0 s",
        ),
        (
            Limits {
                ground_steps: 10_000,
                fallback: false,
                ..Limits::default()
            },
            "more than 10000 join steps",
        ),
        (
            Limits {
                relaxed_atoms: 5000,
                fallback: false,
                ..Limits::default()
            },
            "more than 5000 atoms",
        ),
    ] {
        let message = Loader::text(&checkers)
            .name("checkers.kif")
            .limits(&limits)
            .load()
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(needle) && message.contains("checkers.kif:"),
            "{needle}: {message}"
        );
    }
}

#[test]
fn a_fallback_too_slow_for_its_query_budget_is_an_error() {
    let limits = Limits {
        ground_rules: 0,
        fallback_query: Duration::ZERO,
        ..Limits::default()
    };
    let message = Loader::text(&games_dir("checkers.kif"))
        .name("checkers.kif")
        .limits(&limits)
        .load()
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("the reference reasoner is no fallback"),
        "{message}"
    );
}

#[test]
fn wherever_the_join_step_budget_runs_out_the_error_names_a_rule() {
    // Grounding checkers takes about 3 million join steps: in domain analysis, in instantiating
    // rules and their decompositions, and in counting a rule's instances as written to choose
    // between the two. Each budget below stops it somewhere else; every stop names the rule.
    let checkers = games_dir("checkers.kif");
    for steps in (1..=12).map(|i| i * 240_000) {
        let limits = Limits {
            ground_steps: steps,
            fallback: false,
            ..Limits::default()
        };
        let message = Loader::text(&checkers)
            .name("checkers.kif")
            .limits(&limits)
            .load()
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(&format!("more than {steps} join steps"))
                && message.contains("checkers.kif:"),
            "{steps}: {message}"
        );
    }
}

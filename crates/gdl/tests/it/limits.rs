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
    for steps in (1..=12).map(|i| i * 230_000) {
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

/// A player builds a list of distinct elements, four long; which lists are lists is a static
/// relation over every list of up to five of `n` elements (`n`⁵ atoms and more: the way
/// rulesheets in circulation define lists), only ever asked about one list at a time.
fn list_game(n: usize) -> String {
    let mut text = String::from(
        "(role a)\n(init (held nil))\n\
         (<= (legal a (add ?e)) (true (held ?l)) (e ?e) (not (member ?e ?l)) (islist (cons ?e ?l)))\n\
         (<= (next (held (cons ?e ?l))) (does a (add ?e)) (true (held ?l)))\n\
         (<= (member ?e ?l) (true (held ?l)) (in ?e ?l))\n\
         (<= (in ?e (cons ?e ?t)) (islist (cons ?e ?t)))\n\
         (<= (in ?e (cons ?h ?t)) (islist (cons ?h ?t)) (in ?e ?t))\n\
         (<= terminal (true (held (cons ?a (cons ?b (cons ?c (cons ?d nil)))))))\n\
         (<= (goal a 100) (true (held (cons ?a ?t))) (first ?a))\n\
         (<= (goal a 0) (true (held (cons ?a ?t))) (not (first ?a)))\n\
         (<= (goal a 0) (true (held nil)))\n\
         (first e1)\n\
         (islist nil)\n\
         (<= (islist (cons ?a nil)) (e ?a))\n\
         (<= (islist (cons ?a (cons ?b nil))) (e ?a) (e ?b))\n\
         (<= (islist (cons ?a (cons ?b (cons ?c nil)))) (e ?a) (e ?b) (e ?c))\n\
         (<= (islist (cons ?a (cons ?b (cons ?c (cons ?d nil))))) (e ?a) (e ?b) (e ?c) (e ?d))\n\
         (<= (islist (cons ?a (cons ?b (cons ?c (cons ?d (cons ?f nil)))))) \
             (e ?a) (e ?b) (e ?c) (e ?d) (e ?f))\n",
    );
    for i in 1..=n {
        text.push_str(&format!("(e e{i})\n"));
    }
    text
}

#[test]
fn a_static_relation_too_large_to_hold_whole_is_evaluated_per_query() {
    // 30 elements: 24 million lists of five, far past the atoms of loading.
    let start = Instant::now();
    let g = Loader::text(&list_game(30))
        .name("lists.kif")
        .load()
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(g.reasoner_kind(), ReasonerKind::Reference);
    assert!(g.goal_directed());
    let deferred = g.deferred_relations();
    assert!(deferred.contains(&"islist/1".to_string()), "{deferred:?}");
    // Distinct elements: 30, 30·29, 30·29·28, 30·29·28·27 lists, and then the game is over.
    let mut level = vec![g.initial_state()];
    let mut moves = game_trait::MoveList::new();
    for expected in [30, 870, 24_360] {
        let mut next = Vec::new();
        for s in &level {
            g.legal_moves(s, 0, &mut moves);
            for &m in moves.iter() {
                let mut c = s.clone();
                g.play(&mut c, m);
                next.push(c);
            }
        }
        assert_eq!(next.len(), expected);
        level = next;
    }
    let s = &level[0];
    g.legal_moves(s, 0, &mut moves);
    assert_eq!(moves.len(), 27);
    let mut end = s.clone();
    g.play(&mut end, moves[0]);
    assert_eq!(g.turn(&end), game_trait::Turn::Over);
}

#[test]
fn a_deferred_static_relation_answers_as_the_whole_one_does() {
    // Six elements: small enough to evaluate whole, and then to answer by whole models (the
    // simplest oracle); deferred under a tiny limit. (Neither grounds: the relaxed model's lists
    // grow without end.)
    let text = list_game(6);
    let whole = Loader::text(&text).name("lists.kif").load().unwrap();
    assert!(whole.deferred_relations().is_empty());
    let whole = whole.with_goal_directed(false);
    assert!(!whole.goal_directed());
    let limits = Limits {
        static_relation_atoms: 100,
        ..Limits::default()
    };
    let lazy = Loader::text(&text)
        .name("lists.kif")
        .limits(&limits)
        .load()
        .unwrap();
    assert_eq!(lazy.deferred_relations(), ["islist/1"]);
    // Whole models would hold the deferred relation whole in every query: refused.
    let lazy = lazy.with_goal_directed(false);
    assert!(lazy.goal_directed());
    // Every game: the same moves at every state, the same goals at every end.
    fn walk(a: &GdlGame, sa: &gdl::FluentSet, b: &GdlGame, sb: &gdl::FluentSet) -> usize {
        assert_eq!(a.fluent_names(sa), b.fluent_names(sb));
        if a.turn(sa) == game_trait::Turn::Over {
            assert_eq!(b.turn(sb), game_trait::Turn::Over);
            assert_eq!(a.goals(sa), b.goals(sb));
            return 1;
        }
        let (ma, mb) = (a.role_moves(sa, 0), b.role_moves(sb, 0));
        let names = |g: &GdlGame, ms: &[gdl::GdlMove]| {
            let mut v: Vec<String> = ms.iter().map(|&m| g.move_term(m)).collect();
            v.sort();
            v
        };
        assert_eq!(names(a, &ma), names(b, &mb));
        ma.iter()
            .map(|&m| {
                let mb = b.find_move(&a.move_term(m)).unwrap();
                let (mut ca, mut cb) = (sa.clone(), sb.clone());
                a.play(&mut ca, m);
                b.play(&mut cb, mb);
                walk(a, &ca, b, &cb)
            })
            .sum()
    }
    let games = walk(&whole, &whole.initial_state(), &lazy, &lazy.initial_state());
    assert_eq!(games, 6 * 5 * 4 * 3);
}

#[test]
fn a_recursive_static_relation_is_never_deferred() {
    // `less` over 301 numbers: 45,150 atoms, past the limit, but goal-directed it would answer
    // `(less 0 300)` by 300 nested calls; it is evaluated whole.
    let mut text = String::from(BASE);
    text.push_str("(goal a 100)\n(<= (less ?x ?y) (succ ?x ?y))\n");
    text.push_str("(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))\n");
    text.push_str("(<= (legal a stay) (less 0 300) (true (on)))\n");
    for i in 0..300 {
        text.push_str(&format!("(succ {i} {})\n", i + 1));
    }
    let limits = Limits {
        static_relation_atoms: 1_000,
        ..Limits::default()
    };
    let g = Loader::text(&text)
        .name("t.kif")
        .limits(&limits)
        .load()
        .unwrap();
    assert!(
        g.deferred_relations().is_empty(),
        "{:?}",
        g.deferred_relations()
    );
    assert!(g.find_move("stay").is_some());
}

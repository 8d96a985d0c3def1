//! The validator: every kind of problem is reported, with its location and rule.

use game_trait::{Game, GeneralGame, MoveList, Turn};
use gdl::{FluentSet, GdlError, GdlGame, Limits, Loader, ReasonerKind, UnsafeVariables};

/// A minimal valid game the tests break one rule at a time.
const BASE: &str =
    "(role a)\n(init (on))\n(<= (legal a go) (true (on)))\n(<= (next (on)) (does a go))\n\
(<= terminal (not (true (on))))\n(<= (goal a 100) (true (on)))\n";

fn problems(text: &str) -> Vec<String> {
    match Loader::text(text).name("t.kif").load() {
        Err(GdlError::Invalid { diagnostics }) => {
            diagnostics.iter().map(|d| d.to_string()).collect()
        }
        Err(e) => vec![e.to_string()],
        Ok(_) => Vec::new(),
    }
}

fn assert_problem(extra: &str, line: u32, needle: &str) {
    let text = format!("{BASE}{extra}");
    let found = problems(&text);
    assert!(
        found
            .iter()
            .any(|p| p.contains(needle) && p.starts_with(&format!("t.kif:{line}:"))),
        "expected `{needle}` at line {line}, got {found:#?}"
    );
}

#[test]
fn the_base_game_is_valid() {
    assert!(problems(BASE).is_empty(), "{:?}", problems(BASE));
}

#[test]
fn the_headline_of_an_invalid_description_is_its_first_problem_in_one_line() {
    let text = format!("{BASE}(<= (legal a ?m) (true (on)))\n(<= (legal a ?n) (true (on)))\n");
    let e = Loader::text(&text).name("t.kif").load().unwrap_err();
    let line = e.headline();
    assert!(line.starts_with("t.kif:7:"), "{line}");
    assert!(line.contains("unsafe variable `?m`"), "{line}");
    assert!(line.ends_with("(and 1 more problem(s))"), "{line}");
    assert!(
        !line.contains('\n') && e.to_string().contains('\n'),
        "{line}"
    );
    let e = Loader::text("(role a").name("t.kif").load().unwrap_err();
    assert_eq!(e.headline(), e.to_string());
}

#[test]
fn arity_clash() {
    assert_problem(
        "(p 1)\n(<= (q) (p 1 2))\n",
        8,
        "relation `p` used with arity 2, but it has arity 1 at t.kif:7:1",
    );
    assert_problem(
        "(<= (legal a) (true (on)))\n",
        7,
        "the GDL keyword `legal` has arity 2",
    );
}

#[test]
fn a_rule_written_twice_is_read_once_with_a_warning() {
    let once = format!("{BASE}(<= (p ?x) (true ?x))\n");
    // The same rules again, one with its variable renamed: a copy all the same.
    let twice = format!("{once}(<= (p ?y) (true ?y))\n(<= (legal a go) (true (on)))\n");
    let rules = |text: &str| gdl::description::load(text, "t.kif").unwrap().rules.len();
    assert_eq!(rules(&twice), rules(&once));
    let g = Loader::text(&twice).name("t.kif").load().unwrap();
    let warnings = g.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("t.kif:8:1: the same rule as line 7; the copy is ignored (1 more"),
        "{warnings:?}"
    );
    // Rules that differ in a literal's order are not copies.
    let reordered =
        format!("{BASE}(<= (p ?x ?y) (true ?x) (true ?y))\n(<= (p ?x ?y) (true ?y) (true ?x))\n");
    assert_eq!(rules(&reordered), rules(BASE) + 2);
}

#[test]
fn base_and_input_of_other_arities_are_dropped_with_a_warning_unless_read() {
    // GGP Base's compact declarations: not GDL's `base`/`input`, and nothing reads them.
    let declared =
        format!("{BASE}(base on (val 1 2))\n(base on2 (val 1) (val 2))\n(input a (val go) x)\n");
    let g = Loader::text(&declared)
        .name("t.kif")
        .load()
        .expect("valid once the declarations are dropped");
    let warnings = g.warnings();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings[0].starts_with("t.kif:7:1: `base` with 2 argument(s)"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].contains("`base` with 3 argument(s)"),
        "{warnings:?}"
    );
    assert!(
        warnings[2].contains("`input` with 3 argument(s)"),
        "{warnings:?}"
    );
    // Declarations of GDL's own arity stay, without a warning.
    let standard = format!("{BASE}(base (on))\n(input a go)\n");
    assert!(Loader::text(&standard)
        .name("t.kif")
        .load()
        .unwrap()
        .warnings()
        .is_empty());
    // A rule that reads such a relation keeps it, and the arity problem is reported.
    assert_problem(
        "(base on (val 1 2))\n(<= (p) (base on ?v))\n",
        7,
        "relation `base` used with arity 2, but the GDL keyword `base` has arity 1",
    );
}

#[test]
fn unsafe_variables() {
    assert_problem(
        "(<= (legal a ?m) (true (on)))\n",
        7,
        "unsafe variable `?m`: it occurs in the head",
    );
    assert_problem(
        "(<= (p ?x) (true (on)) (not (q ?x)))\n(q 1)\n",
        7,
        "unsafe variable `?x`",
    );
    assert_problem(
        "(<= (p 1) (true (on)) (distinct ?y 2))\n",
        7,
        "in a `distinct`",
    );
    // The infix form: P is a variable.
    let text = "role(a). init(on). legal(a, go) :- true(on). next(on) :- does(a, go).\n\
        terminal :- not true(on). goal(a, 100) :- true(on).\nlegal(P, noop) :- not true(control(P)).";
    let found = problems(text);
    assert!(
        found
            .iter()
            .any(|p| p.contains("unsafe variable `P`") && p.starts_with("t.kif:3:1")),
        "{found:?}"
    );
}

#[test]
fn recursion_through_negation_among_ground_atoms_is_rejected_and_named() {
    let text = format!("{BASE}(<= (p) (true (on)) (not (q)))\n(<= (q) (p))\n");
    let err = Loader::text(&text).name("t.kif").load().unwrap_err();
    assert!(matches!(err, GdlError::NotStratified(_)), "{err}");
    assert_eq!(
        err.to_string(),
        "no stratified model: the ground atom `p` depends on itself through negation: `p` → not `q` → `p`"
    );
}

#[test]
fn does_under_legal_terminal_goal_and_true_in_init() {
    assert_problem(
        "(<= (moved) (does a go))\n(<= terminal (moved))\n",
        8,
        "`terminal` must not depend on `does` (through `moved`)",
    );
    assert_problem(
        "(<= (legal a stay) (does a go))\n",
        7,
        "`legal` must not depend on `does`",
    );
    assert_problem(
        "(<= (init (off)) (true (on)))\n",
        7,
        "`init` must not depend on `true`",
    );
}

#[test]
fn roles_and_goals() {
    let found = problems("(init (on))\n(<= terminal (true (on)))\n");
    assert!(
        found.iter().any(|p| p.contains("declares no `role`")),
        "{found:?}"
    );
    assert_problem("(role b)\n", 7, "role `b` has no `goal` rule");
    assert!(
        problems(&format!("{BASE}(role random)\n")).is_empty(),
        "random needs no goal"
    );
    assert_problem(
        "(<= (true (on)) (true (on)))\n",
        7,
        "`true` cannot be defined by a rule",
    );
}

#[test]
fn all_problems_are_listed_together() {
    let text = format!("{BASE}(<= (legal a ?m) (true (on)))\n(role b)\n");
    assert_eq!(problems(&text).len(), 2);
}

#[test]
fn syntax_errors_have_line_and_column() {
    let err = Loader::text("(role a)\n(init (on)\n")
        .name("s.kif")
        .load()
        .unwrap_err();
    assert!(
        err.to_string().starts_with("s.kif:2:1: syntax error"),
        "{err}"
    );
    let err = Loader::text("role(a).\ninit(on) foo.\n")
        .name("s.gdl")
        .load()
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("s.gdl:2:10: syntax error: expected `.`"),
        "{err}"
    );
    assert_eq!(err.exit_code(), 1);
    let err = Loader::file("/nonexistent/x.kif").load().unwrap_err();
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn check_summarises_a_valid_game() {
    let r = gdl::Loader::text(BASE).name("t.kif").check().unwrap();
    assert_eq!(r.roles, ["a"]);
    assert_eq!((r.fluents, r.moves), (1, 1));
    assert!(r.fast_reasoner);
    // The base game's single move keeps it going forever.
    assert!(
        r.warnings.iter().all(|w| w.contains("did not end")),
        "{:?}",
        r.warnings
    );
    // A game that never ends is valid but warned about.
    let endless =
        "(role a)\n(init (on))\n(<= (legal a go) (true (on)))\n(<= (next (on)) (does a go))\n\
        (<= terminal (true (off)))\n(<= (goal a 100) (true (on)))\n";
    let r = gdl::Loader::text(endless).name("e.kif").check().unwrap();
    assert!(
        r.warnings.iter().any(|w| w.contains("did not end")),
        "{:?}",
        r.warnings
    );
    let unused = format!("{BASE}(<= (goal a 0) (true (on)) (missing))\n");
    let r = gdl::Loader::text(&unused).name("u.kif").check().unwrap();
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("`missing` is used but never defined")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn recursion_restriction() {
    // `num` of ever larger terms: no reasoner could finish the model.
    assert_problem(
        "(num 0)\n(<= (num (s ?x)) (num ?x))\n",
        8,
        "recursion restriction violated: argument `?x` of the recursive literal `(num ?x)`",
    );
    // Recursion whose arguments are bound outside the cycle, or are head arguments, is fine.
    let fine = format!(
        "{BASE}(succ 0 1)\n(succ 1 2)\n(<= (less ?a ?b) (succ ?a ?b))\n\
         (<= (less ?a ?c) (succ ?a ?b) (less ?b ?c))\n(<= (reach ?x) (reach ?x) (true (on)))\n"
    );
    assert!(problems(&fine).is_empty(), "{:?}", problems(&fine));
}

#[test]
fn every_problem_of_a_description_is_listed_together() {
    // An arity clash and a forbidden dependency in one file: both are reported.
    let text = format!("{BASE}(p 1)\n(<= (q) (p 1 2))\n(<= (legal a stay) (does a go))\n");
    let found = problems(&text);
    assert!(found.iter().any(|p| p.contains("arity")), "{found:#?}");
    assert!(
        found
            .iter()
            .any(|p| p.contains("must not depend on `does`")),
        "{found:#?}"
    );
}

#[test]
fn loading_terminates_when_the_relaxed_model_is_infinite() {
    // A step counter stopped only by `terminal`: valid GDL, but relaxing negation and terminal
    // makes the grounder's model infinite. The game falls back to the reference reasoner, says
    // why, and plays.
    let text = "(role a)\n(init (step 0))\n(<= (legal a go) (true (step ?x)))\n\
                (<= (next (step (s ?x))) (true (step ?x)))\n\
                (<= terminal (true (step (s (s (s 0))))))\n(goal a 100)\n";
    let game = Loader::text(text).name("t.kif").load().expect("valid");
    assert_eq!(game.reasoner_kind(), gdl::ReasonerKind::Reference);
    assert!(game
        .fallback_reason()
        .unwrap_or("")
        .contains("relaxed model"));
    let playout = gdl::random_playout(
        &game,
        game_trait::Game::initial_state(&game),
        &mut <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(1),
        100,
    );
    assert!(playout.finished && playout.steps == 3, "{playout:?}");
}

#[test]
fn goal_values_must_be_integers_from_0_to_100() {
    assert_problem(
        "(<= (goal a 150) (true (on)))\n",
        7,
        "goal value `150` is not an integer from 0 to 100",
    );
    assert_problem("(<= (goal a high) (true (on)))\n", 7, "goal value `high`");
}

#[test]
fn problems_found_while_reading_a_clause_name_the_clause() {
    assert_problem(
        "(<= (distinct a b) (true (on)))\n",
        7,
        "in rule (<= (distinct a b) (true on))",
    );
}

/// Unsafe variables in a head (a fact among them), a negated literal, a `distinct` and an
/// arithmetic table, as GGP Base rulesheets write them.
const UNSAFE: &str = "(role a)\n(init (step 0))\n(legal ?p pass)\n\
(<= (legal ?p mark) (role ?p) (free ?p))\n(<= (free ?x) (not (true (marked ?x))))\n\
(<= (next (marked ?p)) (does ?p mark))\n(<= (next (marked ?p)) (true (marked ?p)))\n\
(<= (next (step ?n)) (true (step ?m)) (sum ?m 1 ?n))\n(<= (sum ?x 0 ?x) (succ 0 1))\n\
(<= (sum ?x ?y ?z) (succ ?y0 ?y) (succ ?z0 ?z) (sum ?x ?y0 ?z0))\n(succ 0 1)\n(succ 1 2)\n\
(succ 2 3)\n(<= (differ ?x ?y) (distinct ?x ?y))\n\
(<= terminal (true (step ?s)) (not (differ ?s 2)))\n(<= (goal a 100) (true (marked a)))\n\
(<= (goal a 0) (not (true (marked a))))\n(<= (absent ?f) (not (true ?f)))\n";

#[test]
fn unsafe_variables_range_over_the_ground_terms_when_asked() {
    let found = problems(UNSAFE);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(
        found[0].starts_with("t.kif:3:1: unsafe variable `?p`"),
        "{found:#?}"
    );
    let limits = Limits {
        unsafe_variables: UnsafeVariables::RangeOverGroundTerms,
        ..Limits::default()
    };
    let fast = Loader::text(UNSAFE)
        .name("t.kif")
        .limits(&limits)
        .load()
        .unwrap();
    assert_eq!(fast.reasoner_kind(), ReasonerKind::Fast);
    let warnings = fast.warnings();
    let warned: Vec<&String> = (warnings.iter())
        .filter(|w| w.contains("unsafe variable(s)") && w.contains("ground terms"))
        .collect();
    // Each variable ranges over the constants that reach its positions: the role for `?p` and
    // `free`'s `?x`; the numbers of `sum` and `step` (joined through `succ`) for `sum`'s `?x`;
    // the steps, and the 2 written against them, for `differ`.
    let expected = [
        "t.kif:3:1: unsafe variable(s) ?p (1 value(s)):",
        "t.kif:5:1: unsafe variable(s) ?x (1 value(s)):",
        "t.kif:9:1: unsafe variable(s) ?x (4 value(s)):",
        "t.kif:14:1: unsafe variable(s) ?x (4 value(s)), ?y (1 value(s)):",
        // `true`'s argument holds compound terms: every ground argument instead, the 10 terms
        // a, pass, mark, 0, 1, 2, 3, 100, (step 0) and (marked a).
        "t.kif:18:1: unsafe variable(s) ?f (10 value(s)):",
    ];
    assert_eq!(warned.len(), expected.len(), "one per rule: {warnings:#?}");
    for (w, e) in warned.iter().zip(expected) {
        assert!(w.starts_with(e), "{w}");
    }
    let bottom_up = fast.clone().with_reasoner(ReasonerKind::Reference).unwrap();
    let goal_directed = bottom_up.clone().with_goal_directed(true);
    for g in [fast, bottom_up, goal_directed] {
        let name = |g: &GdlGame, s: &FluentSet| -> Vec<String> {
            let mut moves = MoveList::new();
            g.legal_moves(s, 0, &mut moves);
            let mut names: Vec<String> = moves.iter().map(|&m| g.move_term(m)).collect();
            names.sort();
            names
        };
        let play = |s: &FluentSet, m: &str| {
            let mut s = s.clone();
            let mv = g.find_move(m).unwrap();
            g.apply(&mut s, mv).unwrap_or(s)
        };
        let start = g.initial_state();
        assert_eq!(
            name(&g, &start),
            ["mark", "pass"],
            "{:?}",
            g.reasoner_kind()
        );
        let marked = play(&start, "mark");
        assert_eq!(name(&g, &marked), ["pass"], "{:?}", g.reasoner_kind());
        for (first, goal) in [(marked, 100), (play(&start, "pass"), 0)] {
            assert_ne!(g.turn(&first), Turn::Over);
            let end = play(&first, "pass");
            assert_eq!(g.turn(&end), Turn::Over, "{:?}", g.reasoner_kind());
            assert_eq!(g.goals(&end)[0], Some(goal), "{:?}", g.reasoner_kind());
        }
    }
}

//! A racetrack whose successor reads a derived relation of the move's effect (`nvel`, the new
//! velocity) after a position: goal-directed evaluation must plan that relation before the
//! arithmetic table it joins, or it evaluates it once per row of the table.

use gdl::{Limits, Loader, ReasonerKind};

use crate::common::{perfts, Finished};

/// One robot on a grid of cells 0..=12, four plies, speeding up by 0 or 1 along each axis each
/// ply; `add` is the whole table of sums up to 12 (91 atoms).
fn racetrack() -> String {
    let mut text = String::from(
        "(role robot)
         (init (pos 0 0)) (init (vel 0 0)) (init (step 0))
         (dv 0) (dv 1)
         (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
         (<= (legal robot (speed ?dx ?dy)) (dv ?dx) (dv ?dy))
         (<= (nvel ?x ?y) (true (vel ?px ?py)) (does robot (speed ?dx ?dy))
             (add ?px ?dx ?x) (add ?py ?dy ?y))
         (<= (npos ?x ?y) (true (pos ?px ?py)) (nvel ?vx ?vy) (add ?px ?vx ?x) (add ?py ?vy ?y))
         (<= (next (vel ?x ?y)) (nvel ?x ?y))
         (<= (next (pos ?x ?y)) (npos ?x ?y))
         (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
         (<= terminal (true (step 4)))
         (<= (goal robot 100) (true (pos 10 10)))
         (<= (goal robot 0) (not (true (pos 10 10))))
",
    );
    for a in 0..=12 {
        for b in 0..=12 - a {
            text.push_str(&format!("(add {a} {b} {})\n", a + b));
        }
    }
    text
}

#[test]
fn a_move_effect_relation_is_evaluated_once_per_successor() {
    let fast = Loader::text(&racetrack()).name("racetrack").load().unwrap();
    assert_eq!(fast.reasoner_kind(), ReasonerKind::Fast);
    let limits = Limits {
        ground_rules: 0,
        ..Limits::default()
    };
    let goal_directed = Loader::text(&racetrack())
        .name("racetrack")
        .limits(&limits)
        .load()
        .unwrap();
    assert!(goal_directed.goal_directed());
    // Four speed choices a ply: 4, 16, 64, 256 sequences, on both reasoners.
    let expected = perfts(&fast, 4, Finished::Nothing);
    assert_eq!(expected, [4, 16, 64, 256]);
    goal_directed.count_rule_steps();
    assert_eq!(perfts(&goal_directed, 4, Finished::Nothing), expected);
    let (_, rules) = goal_directed.rule_steps();
    let steps = |head: &str| {
        (rules.iter())
            .filter(|r| r.rule.starts_with(head))
            .map(|r| r.steps)
            .sum::<u64>()
    };
    // One evaluation of `nvel` and a lookup per `add` in each successor's `npos`: 864 join steps
    // in these perfts. Planned after the table (scanning `add` first), `nvel` was called once for
    // each of the table's rows matching the position, and `npos` took 33,892.
    let successors: u64 = expected.iter().sum();
    assert!(
        steps("(<= (npos") <= 4 * successors,
        "npos: {} steps for {successors} successors; {rules:?}",
        steps("(<= (npos")
    );
}

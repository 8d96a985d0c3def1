//! The engine's models against naive evaluation.

use quickcheck::{QuickCheck, TestResult};

use crate::datalog::{Budget, Engine, Scratch};
use crate::description::{Literal, Rule};
use crate::syntax::term::{Bindings, TermId, Terms};

/// The model of `rules` by naive evaluation: every rule joined in full over every atom until
/// nothing new holds (positive bodies only).
fn naive_model(terms: &mut Terms, rules: &[Rule]) -> Vec<TermId> {
    fn join(
        terms: &mut Terms,
        body: &[Literal],
        atoms: &[TermId],
        b: &mut Bindings,
        out: &mut Vec<Bindings>,
    ) {
        let Some((Literal::Pos(first), rest)) = body.split_first() else {
            out.push(b.clone());
            return;
        };
        for &atom in atoms {
            let mark = b.mark();
            if terms.matches(*first, atom, b) {
                join(terms, rest, atoms, b, out);
            }
            b.undo(mark);
        }
    }
    let mut atoms: Vec<TermId> = Vec::new();
    loop {
        let mut new = Vec::new();
        for rule in rules {
            let mut solutions = Vec::new();
            let mut b = Bindings::default();
            b.reset(rule.vars as usize);
            join(terms, &rule.body, &atoms, &mut b, &mut solutions);
            for s in solutions {
                let head = terms.substitute(rule.head, &s).expect("safe rule");
                if !atoms.contains(&head) && !new.contains(&head) {
                    new.push(head);
                }
            }
        }
        if new.is_empty() {
            return atoms;
        }
        atoms.extend(new);
    }
}

/// The model of `rules` by the engine's semi-naive evaluation, its plans made once per
/// component or, with `replanning`, again as its relations grow.
fn engine_model(terms: &mut Terms, rules: &[Rule], replanning: bool) -> Vec<TermId> {
    let mut engine = Engine::new(terms, rules, &[], &[]);
    let mut facts = engine.facts();
    let heads: Vec<u32> = (0..engine.schema.len() as u32).collect();
    let comps = engine.components_for(&heads, false);
    let mut budget = Budget::new(1 << 20, 1 << 30, None, 64);
    let mut scratch = Scratch::default();
    let run = match replanning {
        false => Engine::run_adaptive,
        true => Engine::run_replanning,
    };
    run(
        &mut engine,
        &comps,
        terms,
        &mut facts,
        &mut scratch,
        &mut budget,
    )
    .expect("in budget");
    heads.iter().flat_map(|&r| facts.of(r).to_vec()).collect()
}

/// A program of facts and positive rules over relations `p0`…`p2` and constants `c0`…`c2`,
/// from `spec`: rules join up to three literals over four variables, so that some of a
/// literal's variables often occur nowhere else in its rule.
fn program(spec: &[(u8, Vec<u8>)]) -> String {
    let arity = |r: u8| 1 + (r % 3) as usize;
    let var = |x: u8| format!("?v{}", x % 4);
    let mut text = String::new();
    for r in 0..3u8 {
        let args: Vec<String> = (0..arity(r)).map(|i| format!("c{}", i % 3)).collect();
        text += &format!("(p{r} {})\n", args.join(" "));
    }
    for (head, body) in spec.iter().take(6) {
        let mut lits = Vec::new();
        let mut bound = Vec::new();
        for chunk in body.chunks(4).take(3) {
            let r = chunk[0] % 3;
            let args: Vec<String> = (0..arity(r))
                .map(|i| match chunk.get(i + 1) {
                    Some(&x) if x % 5 == 4 => format!("c{}", x % 3),
                    Some(&x) => {
                        bound.push(var(x));
                        var(x)
                    }
                    None => format!("c{}", i % 3),
                })
                .collect();
            lits.push(format!("(p{r} {})", args.join(" ")));
        }
        if lits.is_empty() {
            continue;
        }
        let h = head % 3;
        let hargs: Vec<String> = (0..arity(h))
            .map(
                |i| match bound.get((*head as usize + i) % bound.len().max(1)) {
                    Some(v) if i % 2 == 0 => v.clone(),
                    _ => format!("c{}", (*head as usize + i) % 3),
                },
            )
            .collect();
        text += &format!("(<= (p{h} {}) {})\n", hargs.join(" "), lits.join(" "));
    }
    text
}

/// Whether naive evaluation, the semi-naive engine and the replanning engine agree on the
/// model of the program `spec` generates.
fn models_agree(spec: Vec<(u8, Vec<u8>)>) -> TestResult {
    let text = program(&spec);
    let Ok(mut desc) = crate::description::rules_of(&text, "program.kif") else {
        return TestResult::discard();
    };
    let mut naive = naive_model(&mut desc.terms, &desc.rules);
    let mut semi_naive = engine_model(&mut desc.terms, &desc.rules, false);
    let mut replanned = engine_model(&mut desc.terms, &desc.rules, true);
    naive.sort();
    semi_naive.sort();
    replanned.sort();
    TestResult::from_bool(naive == semi_naive && naive == replanned)
}

#[test]
fn skipping_repeats_and_replanning_leave_every_model_as_naive_evaluation_computes_it() {
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(models_agree as fn(Vec<(u8, Vec<u8>)>) -> TestResult);
}

#[test]
fn generated_programs_accept_every_byte() {
    // The top of the byte range, where arithmetic in `u8` would overflow.
    for head in [0, 1, 253, 254, 255] {
        for body in [
            vec![0],
            vec![255, 255, 255, 255],
            vec![254, 3, 255, 9, 1, 2, 0],
        ] {
            assert!(!models_agree(vec![(head, body)]).is_failure());
        }
    }
}

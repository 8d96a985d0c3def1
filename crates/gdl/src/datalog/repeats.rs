//! Delta atoms that cannot derive anything new, which semi-naive rounds skip.
//!
//! Each round of semi-naive evaluation joins, per rule and recursive body literal, the atoms the
//! last round derived for that literal with the rest of the body. Some of a literal's variables
//! may occur nowhere else in its rule, neither in the head nor in another literal: in domain
//! analysis, typically a variable that only a negated literal read, since the relaxed rules drop
//! negation. Two atoms of the literal that bind its *other* variables alike then join the rest of
//! the body alike and derive the same heads, so an atom that repeats one already joined is
//! skipped. (Any derivation through the repeat is one through the earlier atom with the same
//! other atoms, which the earlier atom's round, the first pass, or the round of the last of those
//! other atoms derives.)
//!
//! In GGP Base chess's relaxed model, each `legal` rule joined every pseudo-legal move of a
//! player again for every new square its king could reach (the king's square only fed the
//! dropped `not (threatened …)`); skipped, the domain analysis that finds which of its relations
//! the hybrid reasoner defers (`gametree gdl bench chess.kif --hybrid`) takes a quarter less time.

use smallvec::SmallVec;

use crate::syntax::term::{Bindings, Node, TermId, Terms};
use game_trait::hash::FastSet;

/// A delta plan's literal whose atoms may repeat: the position of the literal in the rule body,
/// and the literal's variables that occur elsewhere in the rule (those that key a repeat).
#[derive(Clone, Debug)]
pub(crate) struct Repeats {
    pub(crate) literal: u32,
    kept: Box<[u32]>,
}

impl Repeats {
    /// For the rule body literal `literal`, `pattern`, whose rule reads the variables `elsewhere`
    /// outside it: `None` when every variable of the pattern occurs elsewhere or twice in it (no
    /// atom of it can repeat another).
    pub(crate) fn of(
        terms: &Terms,
        literal: usize,
        pattern: TermId,
        elsewhere: &[u32],
    ) -> Option<Repeats> {
        let mut occurrences = Vec::new();
        occurrences_of(terms, pattern, &mut occurrences);
        let once = |v: u32| occurrences.iter().filter(|&&w| w == v).count() == 1;
        let mut kept: Vec<u32> = Vec::new();
        let mut dropped = false;
        for &v in &occurrences {
            if elsewhere.contains(&v) || !once(v) {
                if !kept.contains(&v) {
                    kept.push(v);
                }
            } else {
                dropped = true;
            }
        }
        dropped.then(|| Repeats {
            literal: literal as u32,
            kept: kept.into_boxed_slice(),
        })
    }
}

/// Every occurrence of a variable in `t`, in order (a variable as often as it occurs).
fn occurrences_of(terms: &Terms, t: TermId, out: &mut Vec<u32>) {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if terms.is_ground(t) {
            continue;
        }
        match terms.node(t) {
            Node::Var(v) => out.push(v),
            Node::Const(_) => {}
            Node::App(_, args) => stack.extend(args.iter().rev()),
        }
    }
}

/// The key of an atom of a [`Repeats`] literal: the bindings of its kept variables.
type Key = SmallVec<[TermId; 4]>;

/// The keys of the atoms one delta plan's literal has joined so far in one evaluation of its
/// component: those it found in place when the plan first ran (joined in full by the first
/// pass), then those of each round's delta.
#[derive(Clone, Debug, Default)]
pub(crate) struct Joined {
    /// Atom positions before this one are keyed (or were skipped by a join that stopped early,
    /// which only costs a repeat that is joined anyway).
    upto: u32,
    keys: FastSet<Key>,
    bindings: Bindings,
}

impl Joined {
    /// Keys the atoms `atoms[upto..lo]` of `repeats`' literal `pattern` (in a rule of `vars`
    /// variables): those derived before the delta it is about to join, each joined already.
    pub(crate) fn catch_up(
        &mut self,
        terms: &Terms,
        (repeats, pattern, vars): (&Repeats, TermId, u32),
        atoms: &[TermId],
        lo: u32,
    ) {
        let end = (lo as usize).min(atoms.len());
        for &atom in atoms.get(self.upto as usize..end).unwrap_or(&[]) {
            self.bindings.reset(vars as usize);
            if terms.matches(pattern, atom, &mut self.bindings) {
                let key = key(repeats, &self.bindings);
                self.keys.insert(key);
            }
        }
        self.upto = self.upto.max(end as u32);
    }

    /// After the join of the delta up to position `hi`: every atom before it is keyed.
    pub(crate) fn joined_to(&mut self, hi: u32) {
        self.upto = self.upto.max(hi);
    }

    /// Whether the delta atom that bound `b` repeats an atom joined already; if not, it is keyed
    /// now (the join goes on to join it).
    #[inline]
    pub(crate) fn repeat(&mut self, repeats: &Repeats, b: &Bindings) -> bool {
        !self.keys.insert(key(repeats, b))
    }
}

fn key(repeats: &Repeats, b: &Bindings) -> Key {
    // A kept variable the match left unbound cannot occur: matching binds every variable of
    // the pattern.
    (repeats.kept.iter())
        .map(|&v| b.get(v).unwrap_or(TermId(u32::MAX)))
        .collect()
}

#[cfg(test)]
mod tests {
    use quickcheck::{QuickCheck, TestResult};

    use super::Repeats;
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

    /// The model of `rules` by the engine's semi-naive evaluation.
    fn engine_model(terms: &mut Terms, rules: &[Rule]) -> Vec<TermId> {
        let mut engine = Engine::new(terms, rules, &[], &[]);
        let mut facts = engine.facts();
        let heads: Vec<u32> = (0..engine.schema.len() as u32).collect();
        let comps = engine.components_for(&heads, false);
        let mut budget = Budget::new(1 << 20, 1 << 30, None, 64);
        let mut scratch = Scratch::default();
        (engine.run_adaptive(&comps, terms, &mut facts, &mut scratch, &mut budget))
            .expect("within budget");
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
                        _ => format!("c{}", (head + i as u8) % 3),
                    },
                )
                .collect();
            text += &format!("(<= (p{h} {}) {})\n", hargs.join(" "), lits.join(" "));
        }
        text
    }

    #[test]
    fn skipping_repeats_leaves_every_model_as_naive_evaluation_computes_it() {
        fn prop(spec: Vec<(u8, Vec<u8>)>) -> TestResult {
            let text = program(&spec);
            let Ok(mut desc) = crate::description::rules_of(&text, "program.kif") else {
                return TestResult::discard();
            };
            let mut naive = naive_model(&mut desc.terms, &desc.rules);
            let mut semi_naive = engine_model(&mut desc.terms, &desc.rules);
            naive.sort();
            semi_naive.sort();
            TestResult::from_bool(naive == semi_naive)
        }
        QuickCheck::new()
            .tests(2_000)
            .quickcheck(prop as fn(Vec<(u8, Vec<u8>)>) -> TestResult);
    }

    #[test]
    fn only_variables_read_elsewhere_or_twice_key_a_repeat() {
        let text = "(<= (p ?x) (q ?x ?y) (r ?x))\n(<= (s ?x) (q ?x ?x))";
        let mut desc = crate::description::rules_of(text, "t.kif").expect("parses");
        // The rule heading `name`: its first literal and the variables of its head.
        let mut rule = |name: &str| {
            let rel = desc.terms.sym(name);
            let rule = (desc.rules.iter())
                .find(|r| desc.terms.functor(r.head).is_some_and(|(f, _)| f == rel))
                .expect("a rule");
            let Literal::Pos(first) = rule.body[0] else {
                unreachable!("a positive literal first")
            };
            let mut head_vars = Vec::new();
            desc.terms.vars_of(rule.head, &mut head_vars);
            (first, head_vars)
        };
        let (q_xy, p_vars) = rule("p");
        let (q_xx, s_vars) = rule("s");
        let repeats = Repeats::of(&desc.terms, 0, q_xy, &[p_vars, vec![0]].concat());
        assert_eq!(repeats.expect("?y occurs once").kept.len(), 1);
        assert!(Repeats::of(&desc.terms, 0, q_xx, &s_vars).is_none());
    }
}

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
    use super::Repeats;
    use crate::description::Literal;

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

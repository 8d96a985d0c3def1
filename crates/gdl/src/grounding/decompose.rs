//! Rule decomposition before grounding: the body literals that share a variable the rest of the
//! rule does not see are moved into an auxiliary rule, so that the variable is eliminated once
//! instead of multiplying every instance.
//!
//! A frame axiom of amazons, `next(location(x, y, s)) :- true(location(x, y, s)), does(p, play(x1,
//! y1, x2, y2, x3, y3)), distinctCell(x, y, x1, y1)`, has as many ground instances as fluents times
//! moves (tens of millions). Eliminating `p, x2, y2, x3, y3` (seen only by the `does` literal)
//! gives `aux1(x1, y1) :- does(p, play(x1, y1, x2, y2, x3, y3))`, one ground rule per move;
//! eliminating `x1, y1` next gives `aux2(x, y) :- aux1(x1, y1), distinctCell(x, y, x1, y1)`, one
//! per pair of cells; the frame axiom itself becomes `next(...) :- true(...), aux2(x, y)`. This is
//! variable elimination on the rule's join (the bucket elimination of Dechter, *Bucket Elimination:
//! A Unifying Framework for Reasoning*, 1999), the same idea as the rule splitting GGP grounders use.
//!
//! The rewriting preserves the model: `aux(I) <=> exists Z: bucket(I, Z)` where `Z` are the
//! eliminated variables, none of which occurs in the head or the rest of the body. A bucket is
//! split off only when its auxiliary rule is safe on its own (every variable of its head and of its
//! negated and `distinct` literals bound by one of its positive literals), when it reads the state
//! or the moves (a static bucket folds away during grounding anyway), and when it makes the rule
//! narrower. Only the grounder uses the rewritten rules; the reference reasoner keeps the originals,
//! so the cross-checks test this rewriting too.
//!
//! Equal buckets share one auxiliary rule. A disjunction in a body is expanded into one rule per
//! alternative before this runs, so a rule like racer's `legal_speed` (`(or (distinct ?ndx p0)
//! (distinct ?ndy p0))` beside a join of position, velocity and track) becomes two rules with the
//! same expensive join; grounded twice under two auxiliary names, that join alone passed the two
//! million ground rules of the default limits. A bucket equal to an earlier one up to the names of
//! its variables (the same literals in the same order, the same interface) reuses that bucket's
//! auxiliary relation ([`Decomposed::reads`] names the rule that defines it).
//! The grounder still chooses for each rule between its decomposition and the rule as written:
//! an auxiliary relation is grounded once, and only if a rule that reads it is grounded
//! decomposed.

use crate::description::{Literal, Rule};
use crate::syntax::term::{Node, Sym, TermId, Terms};
use game_trait::hash::FastMap;

/// The decomposed program: its rules, and for each the index of the original rule it came from.
#[derive(Clone, Debug, Default)]
pub struct Decomposed {
    /// The rules, originals rewritten and auxiliary ones added: for each original, its rewritten
    /// rule and then the auxiliary rules its decomposition made.
    pub rules: Vec<Rule>,
    /// Per rule: the original rule it comes from (for messages).
    pub origin: Vec<usize>,
    /// Per rule: the rules that define the auxiliary atoms its body reads, its own original's or
    /// (shared, see the [module docs](self)) an earlier one's.
    pub reads: Vec<Vec<usize>>,
}

/// Decomposes `rules`; `is_static` says whether a relation depends on neither `true` nor `does`,
/// and `is_grounded` whether the rules of a relation are grounded at all (a bucket of a rule that
/// is not, `sees` for one, is never shared: nothing would define it).
pub fn decompose(
    terms: &mut Terms,
    rules: &[Rule],
    is_static: &dyn Fn(Sym) -> bool,
    is_grounded: &dyn Fn(Sym) -> bool,
) -> Decomposed {
    let mut out = Decomposed::default();
    // Each shareable bucket's key, with its auxiliary relation; the rule defining each relation.
    let mut by_bucket: FastMap<Vec<u32>, Sym> = FastMap::default();
    let mut defined_at: FastMap<Sym, usize> = FastMap::default();
    let mut reads_aux: Vec<Vec<Sym>> = Vec::new();
    let mut made = 0;
    for (i, rule) in rules.iter().enumerate() {
        let shares = terms
            .functor(rule.head)
            .is_some_and(|(f, _)| is_grounded(f));
        // Rules to decompose, with the auxiliary relation each defines.
        let mut pending: Vec<(Rule, Option<Sym>)> = vec![(rule.clone(), None)];
        while let Some((mut r, defines)) = pending.pop() {
            let mut read = Vec::new();
            while let Some(found) = split(terms, &r, is_static) {
                let key = shares.then(|| bucket_key(terms, &found.bucket, &found.iface));
                let known = key.as_ref().and_then(|k| by_bucket.get(k)).copied();
                let name = known.unwrap_or_else(|| {
                    made += 1;
                    terms.sym(&format!("__aux{}", made - 1))
                });
                let (aux_rule, rest) = found.rewrite(terms, &r, name);
                r.body = rest;
                read.push(name);
                if known.is_none() {
                    if let Some(key) = key {
                        by_bucket.insert(key, name);
                    }
                    pending.push((aux_rule, Some(name)));
                }
            }
            if let Some(name) = defines {
                defined_at.insert(name, out.rules.len());
            }
            out.rules.push(r);
            out.origin.push(i);
            reads_aux.push(read);
        }
    }
    out.reads = (reads_aux.iter())
        .map(|syms| syms.iter().map(|s| defined_at[s]).collect())
        .collect();
    out
}

/// A bucket as a sequence of numbers that two buckets share exactly when they are equal up to the
/// names of their variables: each literal's kind, then its terms in prefix order (variables
/// numbered by first occurrence), then the interface's variables by those numbers.
fn bucket_key(terms: &Terms, bucket: &[Literal], iface: &[u32]) -> Vec<u32> {
    const VAR: u32 = 0;
    const CONST: u32 = 1;
    const APP: u32 = 2;
    let mut numbered: Vec<u32> = Vec::new();
    let mut number = |v: u32| match numbered.iter().position(|&w| w == v) {
        Some(k) => k as u32,
        None => {
            numbered.push(v);
            numbered.len() as u32 - 1
        }
    };
    let mut key = Vec::new();
    for lit in bucket {
        let (kind, atoms) = match *lit {
            Literal::Pos(a) => (10, [Some(a), None]),
            Literal::Neg(a) => (11, [Some(a), None]),
            Literal::Distinct(a, b) => (12, [Some(a), Some(b)]),
            Literal::Same(a, b) => (13, [Some(a), Some(b)]),
        };
        key.push(kind);
        let mut stack: Vec<TermId> = atoms.iter().rev().flatten().copied().collect();
        while let Some(t) = stack.pop() {
            match terms.node(t) {
                Node::Var(v) => key.extend([VAR, number(v)]),
                Node::Const(c) => key.extend([CONST, c.0]),
                Node::App(f, args) => {
                    key.extend([APP, f.0, args.len() as u32]);
                    stack.extend(args.iter().rev());
                }
            }
        }
    }
    key.push(u32::MAX);
    key.extend(iface.iter().map(|&v| number(v)));
    key
}

fn vars_of(terms: &Terms, t: TermId) -> Vec<u32> {
    let mut v = Vec::new();
    terms.vars_of(t, &mut v);
    v
}

/// The variables of a body literal, each once.
pub(crate) fn literal_vars(terms: &Terms, lit: &Literal) -> Vec<u32> {
    match *lit {
        Literal::Pos(a) | Literal::Neg(a) => vars_of(terms, a),
        Literal::Distinct(a, b) | Literal::Same(a, b) => {
            let mut v = vars_of(terms, a);
            terms.vars_of(b, &mut v);
            v
        }
    }
}

/// A bucket chosen to split off a rule: which body literals it takes, and its interface (the
/// variables it shares with the rest of the rule, its auxiliary atom's arguments).
struct Split {
    in_bucket: Vec<bool>,
    bucket: Vec<Literal>,
    iface: Vec<u32>,
}

impl Split {
    /// The auxiliary rule `name(iface) :- bucket`, and the rule's remaining body with the
    /// auxiliary atom.
    fn rewrite(&self, terms: &mut Terms, r: &Rule, name: Sym) -> (Rule, Vec<Literal>) {
        let args: Vec<TermId> = self.iface.iter().map(|&v| terms.var(v)).collect();
        let atom = terms.app(name, &args);
        let mut rest: Vec<Literal> = r
            .body
            .iter()
            .zip(&self.in_bucket)
            .filter(|(_, &b)| !b)
            .map(|(l, _)| *l)
            .collect();
        rest.push(Literal::Pos(atom));
        terms.set_var_names(&r.var_names);
        let text = crate::description::rule_text(terms, atom, &self.bucket);
        let aux = Rule {
            head: atom,
            body: self.bucket.clone(),
            vars: r.vars,
            var_names: r.var_names.clone(),
            location: r.location.clone(),
            text,
        };
        (aux, rest)
    }
}

/// The best bucket to split off `r`, or `None` when no split helps.
fn split(terms: &Terms, r: &Rule, is_static: &dyn Fn(Sym) -> bool) -> Option<Split> {
    let head_vars = vars_of(terms, r.head);
    let lit_vars: Vec<Vec<u32>> = r.body.iter().map(|l| literal_vars(terms, l)).collect();
    let mut candidates: Vec<u32> = lit_vars.iter().flatten().copied().collect();
    candidates.sort_unstable();
    candidates.dedup();
    candidates.retain(|v| !head_vars.contains(v));
    let mut best: Option<(usize, Vec<bool>, Vec<u32>)> = None;
    for z in candidates {
        let in_bucket: Vec<bool> = lit_vars.iter().map(|vs| vs.contains(&z)).collect();
        let Some(iface) = interface(terms, r, &head_vars, &lit_vars, &in_bucket, is_static) else {
            continue;
        };
        let width = iface.len();
        if best.as_ref().map_or(true, |(w, _, _)| width < *w) {
            best = Some((width, in_bucket, iface));
        }
    }
    let (_, in_bucket, iface) = best?;
    let bucket: Vec<Literal> = r
        .body
        .iter()
        .zip(&in_bucket)
        .filter(|(_, &b)| b)
        .map(|(l, _)| *l)
        .collect();
    Some(Split {
        in_bucket,
        bucket,
        iface,
    })
}

/// The variables a bucket shares with the rest of the rule (its auxiliary atom's arguments), if
/// splitting it off is safe and worth it.
fn interface(
    terms: &Terms,
    r: &Rule,
    head_vars: &[u32],
    lit_vars: &[Vec<u32>],
    in_bucket: &[bool],
    is_static: &dyn Fn(Sym) -> bool,
) -> Option<Vec<u32>> {
    let count = in_bucket.iter().filter(|&&b| b).count();
    if count == r.body.len() || count == 0 {
        return None; // the whole body: nothing to gain
    }
    let mut outside: Vec<u32> = head_vars.to_vec();
    let mut inside: Vec<u32> = Vec::new();
    let mut bound: Vec<u32> = Vec::new();
    let mut dynamic = false;
    for ((lit, vs), &b) in r.body.iter().zip(lit_vars).zip(in_bucket) {
        if !b {
            outside.extend(vs);
            continue;
        }
        inside.extend(vs);
        if let Literal::Pos(a) = *lit {
            bound.extend(vs);
            dynamic |= terms.functor(a).is_some_and(|(f, _)| !is_static(f));
        }
        if let Literal::Neg(a) = *lit {
            dynamic |= terms.functor(a).is_some_and(|(f, _)| !is_static(f));
        }
    }
    let mut iface: Vec<u32> = inside
        .iter()
        .copied()
        .filter(|v| outside.contains(v))
        .collect();
    iface.sort_unstable();
    iface.dedup();
    inside.sort_unstable();
    inside.dedup();
    let safe = inside.iter().all(|v| bound.contains(v));
    (dynamic && safe && iface.len() < inside.len()).then_some(iface)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::load;

    /// The decomposition of `text`'s rules, with `cell` the one static relation and `sees` the
    /// one relation not grounded: the auxiliary rules' texts, and for each rule that reads an
    /// auxiliary relation another original's decomposition defines, the two originals' texts.
    fn decomposed(text: &str) -> (Vec<String>, Vec<(String, String)>) {
        let mut d = load(text, "test.kif").unwrap();
        let (cell, sees) = (d.terms.sym("cell"), d.kw.sees);
        let out = decompose(&mut d.terms, &d.rules, &|s| s == cell, &|s| s != sees);
        let aux = out.rules.iter().map(|r| r.text.clone());
        let aux = aux.filter(|t| t.starts_with("(<= __aux") || t.starts_with("(<= (__aux"));
        let aux = aux.collect();
        let mut reads = Vec::new();
        for (r, defs) in out.reads.iter().enumerate() {
            let original = |r: usize| d.rules[out.origin[r]].text.clone();
            let elsewhere = defs.iter().filter(|&&def| out.origin[def] != out.origin[r]);
            reads.extend(elsewhere.map(|&def| (original(r), original(def))));
        }
        (aux, reads)
    }

    const RULES: &str = "
        (role a) (init (at 1)) (init (speed 1)) (cell 1) (cell 2)
        (<= (legal a (go ?s)) (true (speed ?s)) (or (distinct ?s 0) (distinct ?s 9))
            (true (at ?x)) (cell ?x))
        (<= (next (at ?x)) (true (at ?x)))
        (<= terminal (true (at 2))) (goal a 100)
    ";

    #[test]
    fn the_disjuncts_of_one_rule_share_its_buckets() {
        let (aux, reads) = decomposed(RULES);
        // `(true (at ?x)) (cell ?x)` has no variable the head or the rest needs: one bucket,
        // split off once, read by both disjuncts; the first defines it.
        assert_eq!(aux, ["(<= __aux0 (true (at ?x)) (cell ?x))"]);
        assert_eq!(reads.len(), 1, "{reads:?}");
        assert!(reads[0].0.contains("(distinct ?s 9)"), "{reads:?}");
        assert!(reads[0].1.contains("(distinct ?s 0)"), "{reads:?}");
    }

    #[test]
    fn buckets_that_differ_in_a_constant_or_in_literal_order_are_not_shared() {
        let text = RULES.replace(
            "(<= terminal (true (at 2)))",
            "(<= terminal (true (speed 3)) (true (at ?x)) (cell ?x) (distinct ?x 2))
             (<= terminal (true (speed 4)) (cell ?x) (true (at ?x)))
             (<= terminal (true (speed 5)) (true (at ?y)) (cell ?y))",
        );
        let (aux, reads) = decomposed(&text);
        // The third is `legal`'s bucket with its variable renamed: shared.
        assert_eq!(aux.len(), 3, "{aux:?}");
        assert_eq!(reads.len(), 2, "{reads:?}");
        assert!(reads[1].0.contains("(speed 5)"), "{reads:?}");
    }

    #[test]
    fn a_bucket_of_a_rule_never_grounded_is_not_shared() {
        // `sees` comes first: were its bucket shared, `legal` would read an auxiliary relation
        // no ground rule defines.
        let text = RULES.replace(
            "(role a)",
            "(role a) (<= (sees a ok) (true (at ?x)) (cell ?x) (true (speed 1)))",
        );
        let (aux, reads) = decomposed(&text);
        assert_eq!(aux.len(), 2, "{aux:?}");
        assert_eq!(reads.len(), 1, "{reads:?}");
        assert!(reads[0].1.starts_with("(<= (legal"), "{reads:?}");
    }
}

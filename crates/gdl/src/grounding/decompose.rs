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

use crate::description::{Literal, Rule};
use crate::syntax::term::{Sym, TermId, Terms};

/// The decomposed program: its rules, and for each the index of the original rule it came from.
#[derive(Clone, Debug, Default)]
pub struct Decomposed {
    /// The rules, originals rewritten and auxiliary ones added.
    pub rules: Vec<Rule>,
    /// Per rule: the original rule it comes from (for messages).
    pub origin: Vec<usize>,
}

/// Decomposes `rules`; `is_static` says whether a relation depends on neither `true` nor `does`.
pub fn decompose(terms: &mut Terms, rules: &[Rule], is_static: &dyn Fn(Sym) -> bool) -> Decomposed {
    let mut out = Decomposed::default();
    let mut next_aux = 0usize;
    for (i, rule) in rules.iter().enumerate() {
        let mut pending = vec![rule.clone()];
        while let Some(mut r) = pending.pop() {
            while let Some((aux_rule, rest)) = split(terms, &r, is_static, &mut next_aux) {
                r.body = rest;
                pending.push(aux_rule);
            }
            out.rules.push(r);
            out.origin.push(i);
        }
    }
    out
}

fn vars_of(terms: &Terms, t: TermId) -> Vec<u32> {
    let mut v = Vec::new();
    terms.vars_of(t, &mut v);
    v
}

fn literal_vars(terms: &Terms, lit: &Literal) -> Vec<u32> {
    match *lit {
        Literal::Pos(a) | Literal::Neg(a) => vars_of(terms, a),
        Literal::Distinct(a, b) | Literal::Same(a, b) => {
            let mut v = vars_of(terms, a);
            terms.vars_of(b, &mut v);
            v
        }
    }
}

/// The best bucket to split off `r`, as (auxiliary rule, remaining body with the auxiliary atom),
/// or `None` when no split helps.
fn split(
    terms: &mut Terms,
    r: &Rule,
    is_static: &dyn Fn(Sym) -> bool,
    next_aux: &mut usize,
) -> Option<(Rule, Vec<Literal>)> {
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
    let name = format!("__aux{}", *next_aux);
    *next_aux += 1;
    let sym = terms.sym(&name);
    let args: Vec<TermId> = iface.iter().map(|&v| terms.var(v)).collect();
    let atom = terms.app(sym, &args);
    let bucket: Vec<Literal> = r
        .body
        .iter()
        .zip(&in_bucket)
        .filter(|(_, &b)| b)
        .map(|(l, _)| *l)
        .collect();
    let mut rest: Vec<Literal> = r
        .body
        .iter()
        .zip(&in_bucket)
        .filter(|(_, &b)| !b)
        .map(|(l, _)| *l)
        .collect();
    rest.push(Literal::Pos(atom));
    terms.set_var_names(&r.var_names);
    let text = crate::description::rule_text(terms, atom, &bucket);
    let aux = Rule {
        head: atom,
        body: bucket,
        vars: r.vars,
        var_names: r.var_names.clone(),
        location: r.location.clone(),
        text,
    };
    Some((aux, rest))
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

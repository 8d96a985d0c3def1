//! The reference reasoner's engine: bottom-up, stratified evaluation of the rules over a set of input
//! facts (the state's `true` atoms and the joint move's `does` atoms).
//!
//! It follows the semantics directly: stratum by stratum (lowest first), every rule is joined against
//! the facts derived so far until nothing new is derived (naive iteration; strata without recursion
//! take one pass). The result is the unique stratified model of the rules plus the inputs. Joins are
//! nested loops over the facts of each relation, in a literal order chosen once per rule (negations and
//! `distinct`s as soon as their variables are bound, bound positive literals as lookups).
//!
//! The same engine computes the *relaxed* model used for grounding: negation ignored, `true(f)` for
//! every `init(f)` and `next(f)`, `does(r, m)` for every `legal(r, m)`, iterated to a fixpoint.

use std::collections::{HashMap, HashSet};

use crate::desc::{Description, Literal, Rule};
use crate::term::{Bindings, Node, Sym, TermId, Terms};

/// A set of ground atoms, indexed by relation.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    set: HashSet<TermId>,
    by_rel: HashMap<(Sym, usize), Vec<TermId>>,
}

impl Facts {
    /// Adds `atom`; whether it was new.
    pub fn insert(&mut self, terms: &Terms, atom: TermId) -> bool {
        if !self.set.insert(atom) {
            return false;
        }
        if let Some(rel) = terms.functor(atom) {
            self.by_rel.entry(rel).or_default().push(atom);
        }
        true
    }

    /// Whether `atom` holds.
    pub fn contains(&self, atom: TermId) -> bool {
        self.set.contains(&atom)
    }

    /// The atoms of relation `rel` (name and arity), in the order they were derived.
    pub fn of(&self, rel: (Sym, usize)) -> &[TermId] {
        self.by_rel.get(&rel).map_or(&[], Vec::as_slice)
    }

    /// How many atoms hold.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether no atom holds.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// One literal in join order.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A positive literal with unbound variables: try every fact of its relation.
    Scan(TermId, (Sym, usize)),
    /// A positive literal whose variables are all bound: one lookup.
    Check(TermId),
    /// A negated literal (all variables bound).
    Neg(TermId),
    /// `distinct` (all variables bound).
    Distinct(TermId, TermId),
}

/// A rule prepared for joining.
#[derive(Clone, Debug)]
struct Plan {
    rule: usize,
    steps: Vec<Step>,
}

/// Rules grouped by stratum and prepared for evaluation.
#[derive(Clone, Debug)]
pub struct Engine {
    strata: Vec<(Vec<Plan>, bool)>,
}

impl Engine {
    /// Prepares the rules of `desc`.
    pub fn new(desc: &Description) -> Engine {
        let strata = desc
            .strata
            .iter()
            .map(|rules| {
                let heads: Vec<Sym> = rules
                    .iter()
                    .filter_map(|&r| desc.terms.functor(desc.rules[r].head).map(|f| f.0))
                    .collect();
                let recursive = rules.iter().any(|&r| {
                    desc.rules[r].body.iter().any(|l| match *l {
                        Literal::Pos(a) => {
                            desc.terms.functor(a).is_some_and(|f| heads.contains(&f.0))
                        }
                        _ => false,
                    })
                });
                let plans = rules
                    .iter()
                    .map(|&r| plan(&desc.terms, r, &desc.rules[r]))
                    .collect();
                (plans, recursive)
            })
            .collect();
        Engine { strata }
    }

    /// The stratified model of the rules plus the ground atoms `inputs`.
    pub fn model(&self, terms: &mut Terms, rules: &[Rule], inputs: &[TermId]) -> Facts {
        let mut facts = Facts::default();
        for &a in inputs {
            facts.insert(terms, a);
        }
        let mut solutions = Vec::new();
        for (plans, recursive) in &self.strata {
            loop {
                let mut changed = false;
                for p in plans {
                    changed |= self.fire(
                        terms,
                        rules,
                        p,
                        &mut facts,
                        false,
                        &mut solutions,
                        usize::MAX,
                    );
                }
                if !*recursive || !changed {
                    break;
                }
            }
        }
        facts
    }

    /// The relaxed model (see the module docs): an over-approximation of every reachable state's
    /// atoms, used to ground the rules. `None` once it holds more than `max_atoms` atoms or a term
    /// nested deeper than [`MAX_RELAXED_DEPTH`]: relaxing negation (and so `terminal`) can make it
    /// infinite, e.g. a step counter `next(step(s(?x)))` that only the terminal rule stops, and
    /// such a model grows by one nesting level per round, so the depth test ends it quickly.
    pub fn relaxed_model(
        &self,
        desc_kw: &crate::desc::Keywords,
        terms: &mut Terms,
        rules: &[Rule],
        max_atoms: usize,
    ) -> Option<Facts> {
        let mut facts = Facts::default();
        let mut solutions = Vec::new();
        loop {
            let mut changed = false;
            for (plans, _) in &self.strata {
                loop {
                    let mut round = false;
                    for p in plans {
                        round |= self.fire(
                            terms,
                            rules,
                            p,
                            &mut facts,
                            true,
                            &mut solutions,
                            max_atoms + 1,
                        );
                        // A capped join would leave the model silently incomplete: give up.
                        let width = (rules[p.rule].vars as usize).max(1);
                        if facts.len() > max_atoms
                            || solutions.len() > max_atoms * width
                            || terms.max_depth() > MAX_RELAXED_DEPTH
                        {
                            return None;
                        }
                    }
                    changed |= round;
                    if !round {
                        break;
                    }
                }
            }
            // true(f) for init(f) and next(f); does(r, m) for legal(r, m).
            let mut new = Vec::new();
            for (from, to) in [(desc_kw.init, desc_kw.true_), (desc_kw.next, desc_kw.true_)] {
                for &a in facts.of((from, 1)) {
                    let f = terms.args(a)[0];
                    new.push(terms.app(to, &[f]));
                }
            }
            for &a in facts.of((desc_kw.legal, 2)) {
                let args = terms.args(a).to_vec();
                new.push(terms.app(desc_kw.does, &args));
            }
            for a in new {
                changed |= facts.insert(terms, a);
            }
            if terms.max_depth() > MAX_RELAXED_DEPTH {
                return None;
            }
            if !changed {
                return Some(facts);
            }
        }
    }

    /// Derives the heads of one rule's solutions (at most `max_solutions` of them); whether
    /// anything new was derived.
    #[allow(clippy::too_many_arguments)]
    fn fire(
        &self,
        terms: &mut Terms,
        rules: &[Rule],
        p: &Plan,
        facts: &mut Facts,
        relaxed: bool,
        buf: &mut Vec<TermId>,
        max_solutions: usize,
    ) -> bool {
        let rule = &rules[p.rule];
        buf.clear();
        let width = (rule.vars as usize).max(1);
        let max_values = max_solutions.saturating_mul(width);
        solve(
            terms,
            facts,
            &p.steps,
            rule.vars as usize,
            relaxed,
            buf,
            max_values,
        );
        let mut changed = false;
        let mut b = Bindings::default();
        for sol in buf.chunks(rule.vars.max(1) as usize) {
            bind_all(&mut b, sol, rule.vars as usize);
            if let Some(head) = terms.substitute(rule.head, &b) {
                changed |= facts.insert(terms, head);
            }
            if rule.vars == 0 {
                break;
            }
        }
        changed
    }

    /// The solutions of rule `rule`'s body over `facts` (negation ignored when `relaxed`), as a
    /// flat list of `vars` values per solution (for a rule without variables, one dummy value per
    /// solution), at most `max_solutions` of them. Returns whether that cap cut the list short.
    #[allow(clippy::too_many_arguments)]
    pub fn solutions(
        &self,
        terms: &Terms,
        rules: &[Rule],
        rule: usize,
        facts: &Facts,
        relaxed: bool,
        out: &mut Vec<TermId>,
        max_solutions: usize,
    ) -> bool {
        let plan = plan(terms, rule, &rules[rule]);
        let width = (rules[rule].vars as usize).max(1);
        let max_values = max_solutions.saturating_mul(width);
        solve(
            terms,
            facts,
            &plan.steps,
            rules[rule].vars as usize,
            relaxed,
            out,
            max_values,
        );
        out.len() >= max_values
    }
}

/// The relaxed model gives up on terms nested deeper than this (atoms included): real games nest
/// a few levels (`true((cell 1 1 b))` is 2); a counter written as `(s (s … 0))` deeper than this
/// is played by the reference reasoner instead.
pub const MAX_RELAXED_DEPTH: u32 = 64;

/// Loads one flat solution into `b`.
pub fn bind_all(b: &mut Bindings, sol: &[TermId], vars: usize) {
    b.reset(vars);
    for (v, &t) in sol.iter().enumerate().take(vars) {
        b.set(v as u32, t);
    }
}

/// Orders a rule's literals for joining: tests as soon as their variables are bound, otherwise the
/// positive literal with the most bound variables.
fn plan(terms: &Terms, rule: usize, r: &Rule) -> Plan {
    let mut bound: Vec<u32> = Vec::new();
    let mut left: Vec<Literal> = r.body.clone();
    let mut steps = Vec::new();
    let vars_of = |t: TermId| {
        let mut v = Vec::new();
        terms.vars_of(t, &mut v);
        v
    };
    while !left.is_empty() {
        let all_bound = |t: TermId, bound: &[u32]| vars_of(t).iter().all(|v| bound.contains(v));
        let test = left.iter().position(|l| match *l {
            Literal::Neg(a) => all_bound(a, &bound),
            Literal::Distinct(a, b) => all_bound(a, &bound) && all_bound(b, &bound),
            Literal::Pos(a) => all_bound(a, &bound),
        });
        let pick = test.unwrap_or_else(|| {
            // The positive literal binding the fewest new variables first keeps joins narrow.
            left.iter()
                .enumerate()
                .filter(|(_, l)| matches!(l, Literal::Pos(_)))
                .min_by_key(|(_, l)| match l {
                    Literal::Pos(a) => vars_of(*a).iter().filter(|v| !bound.contains(v)).count(),
                    _ => usize::MAX,
                })
                .map_or(0, |(i, _)| i)
        });
        let lit = left.remove(pick);
        steps.push(match lit {
            Literal::Pos(a) if all_bound(a, &bound) => Step::Check(a),
            Literal::Pos(a) => {
                for v in vars_of(a) {
                    if !bound.contains(&v) {
                        bound.push(v);
                    }
                }
                match terms.functor(a) {
                    Some(rel) => Step::Scan(a, rel),
                    None => Step::Check(a),
                }
            }
            Literal::Neg(a) => Step::Neg(a),
            Literal::Distinct(a, b) => Step::Distinct(a, b),
        });
    }
    Plan { rule, steps }
}

/// Backtracking join over `steps`, iterative so that long bodies cannot overflow the stack. Pushes
/// `vars` values per solution onto `out` (one dummy value when `vars == 0`), stopping once `out`
/// holds `max_values` values (a cap that keeps a runaway cross product from exhausting memory).
fn solve(
    terms: &Terms,
    facts: &Facts,
    steps: &[Step],
    vars: usize,
    relaxed: bool,
    out: &mut Vec<TermId>,
    max_values: usize,
) {
    let n = steps.len();
    let mut b = Bindings::default();
    b.reset(vars);
    let mut cursor = vec![0usize; n + 1];
    let mut marks = vec![0usize; n + 1];
    let mut level = 0;
    loop {
        if level == n {
            if vars == 0 {
                out.push(TermId(0));
            }
            for v in 0..vars {
                out.push(b.get(v as u32).unwrap_or(TermId(0)));
            }
            if n == 0 || out.len() >= max_values {
                return;
            }
            level -= 1;
            continue;
        }
        b.undo(marks[level]);
        let advanced = match steps[level] {
            Step::Scan(p, rel) => {
                let cands = facts.of(rel);
                let mut found = false;
                while cursor[level] < cands.len() {
                    let g = cands[cursor[level]];
                    cursor[level] += 1;
                    if terms.matches(p, g, &mut b) {
                        found = true;
                        break;
                    }
                    b.undo(marks[level]);
                }
                found
            }
            step => {
                let first = cursor[level] == 0;
                cursor[level] = 1;
                first
                    && match step {
                        Step::Check(a) => resolve(terms, a, &b).is_some_and(|g| facts.contains(g)),
                        Step::Neg(a) => {
                            relaxed || !resolve(terms, a, &b).is_some_and(|g| facts.contains(g))
                        }
                        Step::Distinct(x, y) => !equal(terms, x, y, &b),
                        Step::Scan(..) => false,
                    }
            }
        };
        if advanced {
            level += 1;
            cursor[level] = 0;
            marks[level] = b.mark();
        } else if level == 0 {
            return;
        } else {
            level -= 1;
        }
    }
}

/// The existing ground term `t` denotes under `b`, or `None` if it was never built (then it is no
/// fact) or has unbound variables.
pub fn resolve(terms: &Terms, t: TermId, b: &Bindings) -> Option<TermId> {
    if terms.is_ground(t) {
        return Some(t);
    }
    match terms.node(t) {
        Node::Var(v) => b.get(*v),
        Node::Const(_) => Some(t),
        Node::App(f, args) => {
            let args: Option<Vec<TermId>> = args.iter().map(|&a| resolve(terms, a, b)).collect();
            terms.lookup_app(*f, &args?)
        }
    }
}

/// Whether `x` and `y` denote the same ground term under `b` (structurally; unbound variables are
/// equal only to themselves).
pub fn equal(terms: &Terms, x: TermId, y: TermId, b: &Bindings) -> bool {
    let deref = |t: TermId| match terms.node(t) {
        Node::Var(v) => b.get(*v).unwrap_or(t),
        _ => t,
    };
    let (x, y) = (deref(x), deref(y));
    if x == y {
        return true;
    }
    if terms.is_ground(x) && terms.is_ground(y) {
        return false;
    }
    match (terms.node(x), terms.node(y)) {
        (Node::App(f, xs), Node::App(g, ys)) if f == g && xs.len() == ys.len() => xs
            .iter()
            .zip(ys.iter())
            .all(|(&a, &c)| equal(terms, a, c, b)),
        _ => false,
    }
}

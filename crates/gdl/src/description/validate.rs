//! The validator: the checks listed in [`crate::description`], filling in the stratification.

use std::collections::HashMap;

use crate::description::graph;
use crate::description::unsafe_binding;
use crate::description::{Description, Literal, UnsafeVariables, KEYWORDS};
use crate::error::{Diagnostic, Location};
use crate::syntax::term::{Node, Sym, TermId};

/// Checks `desc`, sets its warnings, and returns the problems found (empty if valid); binds
/// unsafe variables first if `unsafe_variables` says so.
pub fn validate(desc: &mut Description, unsafe_variables: UnsafeVariables) -> Vec<Diagnostic> {
    let mut v = Validator {
        desc,
        out: Vec::new(),
    };
    v.foreign_declarations();
    v.arities();
    if unsafe_variables == UnsafeVariables::RangeOverGroundTerms {
        let warnings = unsafe_binding::bind(v.desc);
        v.desc.warnings.extend(warnings);
    }
    v.heads_and_safety();
    // The relation graph needs only relation names, so its checks run even after arity or safety
    // problems: an author sees every problem of the file at once.
    v.dependencies();
    v.roles_and_goals();
    // After the checks, so that each copy of an invalid rule is reported where it is written.
    v.repeated_rules();
    v.out
}

struct Validator<'a> {
    desc: &'a mut Description,
    out: Vec<Diagnostic>,
}

impl Validator<'_> {
    fn report(&mut self, rule: usize, message: String) {
        let r = &self.desc.rules[rule];
        self.out.push(Diagnostic {
            location: r.location.clone(),
            rule: r.text.clone(),
            message,
        });
    }

    /// Drops the `base` and `input` facts and rules written with other arities than GDL's (some
    /// GGP Base rulesheets declare `(base cell (val 1 2 3) (val x o b))`, a compact form of their
    /// own) when no rule reads them: these declarations only describe the game, so playing it
    /// does not need them. A warning names each form dropped; a description that reads such a
    /// relation keeps it and gets the arity error.
    fn foreign_declarations(&mut self) {
        let terms = &self.desc.terms;
        let (base, input) = (terms.find_sym("base"), terms.find_sym("input"));
        let foreign = |atom: TermId| match terms.functor(atom) {
            Some((f, arity)) if Some(f) == base => arity != 1,
            Some((f, arity)) if Some(f) == input => arity != 2,
            _ => false,
        };
        let read = (self.desc.rules.iter())
            .flat_map(|r| &r.body)
            .any(|lit| matches!(*lit, Literal::Pos(a) | Literal::Neg(a) if foreign(a)));
        if read {
            return;
        }
        let mut dropped: Vec<(String, usize, String)> = Vec::new();
        self.desc.rules.retain(|r| {
            if !foreign(r.head) {
                return true;
            }
            if let Some((f, arity)) = terms.functor(r.head) {
                let name = terms.name(f).to_string();
                if !dropped.iter().any(|(n, a, _)| *n == name && *a == arity) {
                    dropped.push((name, arity, r.location.to_string()));
                }
            }
            false
        });
        for (name, arity, at) in dropped {
            let expected = if name == "input" { 2 } else { 1 };
            self.desc.warnings.push(format!(
                "{at}: `{name}` with {arity} argument(s) is not GDL's `{name}` ({expected}); \
                 these declarations are ignored (nothing reads them)"
            ));
        }
    }

    /// Drops each rule written again word for word (up to its variables' names), with one warning
    /// naming the first copy: a copy derives nothing new, but every reasoner would evaluate it
    /// (GGP Base's AlexChess writes one of its pin rules twice, the costliest rule of its
    /// domain analysis).
    fn repeated_rules(&mut self) {
        let mut first: HashMap<(TermId, &[Literal]), usize> = HashMap::new();
        let mut repeated = Vec::new();
        for (i, r) in self.desc.rules.iter().enumerate() {
            if let Some(&earlier) = first.get(&(r.head, r.body.as_slice())) {
                repeated.push((i, earlier));
            } else {
                first.insert((r.head, r.body.as_slice()), i);
            }
        }
        let Some(&(copy, original)) = repeated.first() else {
            return;
        };
        let rules = &self.desc.rules;
        let others = match repeated.len() {
            1 => String::new(),
            n => format!(" ({} more rules repeat an earlier one)", n - 1),
        };
        let warning = format!(
            "{}: the same rule as line {}; the copy is ignored{others}\n    in rule {}",
            rules[copy].location, rules[original].location.line, rules[copy].text
        );
        self.desc.warnings.push(warning);
        let mut drop = vec![false; rules.len()];
        repeated.iter().for_each(|&(i, _)| drop[i] = true);
        let mut i = 0;
        self.desc.rules.retain(|_| {
            i += 1;
            !drop[i - 1]
        });
    }

    /// Every relation is used with one arity; keywords with their own.
    fn arities(&mut self) {
        let mut seen: HashMap<Sym, (usize, usize)> = HashMap::new();
        for &(name, arity) in KEYWORDS.iter() {
            if let Some(s) = self.desc.terms.find_sym(name) {
                seen.insert(s, (arity, usize::MAX));
            }
        }
        for rule in 0..self.desc.rules.len() {
            let atoms: Vec<TermId> = self.desc.rules[rule].atoms().collect();
            for atom in atoms {
                let Some((f, arity)) = self.desc.terms.functor(atom) else {
                    continue;
                };
                match seen.get(&f) {
                    None => {
                        seen.insert(f, (arity, rule));
                    }
                    Some(&(a, first)) if a != arity => {
                        let name = self.desc.terms.name(f).to_string();
                        let earlier = if first == usize::MAX {
                            format!("the GDL keyword `{name}` has arity {a}")
                        } else {
                            format!("it has arity {a} at {}", self.desc.rules[first].location)
                        };
                        self.report(
                            rule,
                            format!("relation `{name}` used with arity {arity}, but {earlier}"),
                        );
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// No rule defines `true`, `does` or `distinct`; every variable is bound by a positive literal.
    fn heads_and_safety(&mut self) {
        let kw = self.desc.kw;
        for rule in 0..self.desc.rules.len() {
            let r = &self.desc.rules[rule];
            let head_rel = self.desc.terms.functor(r.head).map(|(f, _)| f);
            if head_rel == Some(kw.true_) || head_rel == Some(kw.does) {
                let name = self
                    .desc
                    .terms
                    .name(head_rel.unwrap_or(kw.true_))
                    .to_string();
                self.report(
                    rule,
                    format!("`{name}` cannot be defined by a rule: the game supplies it"),
                );
                continue;
            }
            if head_rel == Some(kw.goal) {
                let terms = &self.desc.terms;
                let value = terms.arg(r.head, 1).filter(|&v| terms.is_ground(v));
                if let Some(v) = value {
                    if !terms.number(v).is_some_and(|n| (0..=100).contains(&n)) {
                        let shown = terms.show(v);
                        self.report(
                            rule,
                            format!("goal value `{shown}` is not an integer from 0 to 100"),
                        );
                    }
                }
            }
            let r = &self.desc.rules[rule];
            let messages: Vec<String> = unsafe_binding::unsafe_variables(&self.desc.terms, r)
                .into_iter()
                .map(|(v, place)| {
                    let name = r.var_names.get(v as usize).map_or("?", String::as_str);
                    format!("unsafe variable `{name}`: it occurs in {place} but in no positive body literal")
                })
                .collect();
            for m in messages {
                self.report(rule, m);
            }
        }
    }

    /// The recursion restriction of the GDL specification (Love et al. 2008, Definition 15),
    /// which keeps every model finite: in a rule with head `p(a1, …, an)`, every argument `bj` of a
    /// positive body literal `q(b1, …, bk)` whose relation `q` is in a cycle with `p` (the same
    /// strongly connected component of the relation graph) must be ground, or equal to one of the
    /// head's arguments `ai`, or a variable that occurs in a positive body literal whose relation is
    /// *not* in a cycle with `p`. Without it `(<= (num (s ?x)) (num ?x))` derives `num` of ever
    /// larger terms and no reasoner terminates.
    fn recursion_restriction(&mut self, ids: &HashMap<Sym, usize>, comp_of: &[usize]) {
        let mut problems = Vec::new();
        for ri in 0..self.desc.rules.len() {
            let names = self.desc.rules[ri].var_names.clone();
            self.desc.terms.set_var_names(&names);
            if let Some(message) = self.restriction_of(ri, ids, comp_of) {
                problems.push((ri, message));
            }
        }
        for (rule, message) in problems {
            self.report(rule, message);
        }
    }

    /// The first violation of the recursion restriction in rule `ri`, as a message.
    fn restriction_of(
        &self,
        ri: usize,
        ids: &HashMap<Sym, usize>,
        comp_of: &[usize],
    ) -> Option<String> {
        let terms = &self.desc.terms;
        let comp = |a: TermId| {
            terms
                .functor(a)
                .and_then(|(r, _)| ids.get(&r))
                .map(|&i| comp_of[i])
        };
        let r = &self.desc.rules[ri];
        let head_comp = comp(r.head)?;
        let head_args = terms.args(r.head);
        let positive = || {
            r.body.iter().filter_map(|l| match *l {
                Literal::Pos(a) => Some(a),
                _ => None,
            })
        };
        let mut anchored = Vec::new();
        for a in positive().filter(|&a| comp(a) != Some(head_comp)) {
            terms.vars_of(a, &mut anchored);
        }
        for a in positive().filter(|&a| comp(a) == Some(head_comp)) {
            for &b in terms.args(a) {
                let ok = terms.is_ground(b)
                    || head_args.contains(&b)
                    || matches!(terms.node(b), Node::Var(v) if anchored.contains(&v));
                if !ok {
                    return Some(format!(
                        "recursion restriction violated: argument `{}` of the recursive literal \
                         `{}` is neither ground, nor an argument of the head, nor a variable bound \
                         by a non-recursive positive literal (the rule could derive ever larger \
                         terms)",
                        terms.show(b),
                        terms.show(a)
                    ));
                }
            }
        }
        None
    }

    /// Stratification, and what `legal`/`terminal`/`goal` and `init` may depend on.
    fn dependencies(&mut self) {
        let kw = self.desc.kw;
        // Relation graph: head -> body relation, remembering negative edges.
        let mut ids: HashMap<Sym, usize> = HashMap::new();
        let mut names: Vec<Sym> = Vec::new();
        let mut id = |s: Sym, names: &mut Vec<Sym>| {
            *ids.entry(s).or_insert_with(|| {
                names.push(s);
                names.len() - 1
            })
        };
        let mut edges: Vec<Vec<usize>> = Vec::new();
        let mut negative: Vec<(usize, usize, usize)> = Vec::new(); // (head, body, rule)
        let mut rule_head = Vec::new();
        for (ri, r) in self.desc.rules.iter().enumerate() {
            let Some((h, _)) = self.desc.terms.functor(r.head) else {
                continue;
            };
            let h = id(h, &mut names);
            rule_head.push(h);
            for lit in &r.body {
                let (a, neg) = match *lit {
                    Literal::Pos(a) => (a, false),
                    Literal::Neg(a) => (a, true),
                    Literal::Distinct(..) | Literal::Same(..) => continue,
                };
                let Some((b, _)) = self.desc.terms.functor(a) else {
                    continue;
                };
                let b = id(b, &mut names);
                edges.resize(names.len(), Vec::new());
                if !edges[h].contains(&b) {
                    edges[h].push(b);
                }
                if neg {
                    negative.push((h, b, ri));
                }
            }
            edges.resize(names.len(), Vec::new());
        }
        let comps = graph::sccs(&edges);
        let mut comp_of = vec![0; names.len()];
        for (c, comp) in comps.iter().enumerate() {
            for &v in comp {
                comp_of[v] = c;
            }
        }
        for &(h, b, rule) in &negative {
            if comp_of[h] == comp_of[b] {
                let cycle = graph::path(&edges, b, h).unwrap_or_default();
                let mut text = format!(
                    "`{}` → not `{}`",
                    self.desc.terms.name(names[h]),
                    self.desc.terms.name(names[b])
                );
                for &v in cycle.iter().skip(1) {
                    text.push_str(&format!(" → `{}`", self.desc.terms.name(names[v])));
                }
                // Stratified at the ground level is what GDL needs: the reasoners check that (on
                // the ground program, or while evaluating), so this is only a warning.
                let r = &self.desc.rules[rule];
                self.desc.warnings.push(format!(
                    "{}: recursion through negation between relations ({text}); accepted if the \
                     ground rules are stratified\n    in rule {}",
                    r.location, r.text
                ));
            }
        }
        self.recursion_restriction(&ids, &comp_of);
        // Forbidden dependencies.
        let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        for (v, out) in edges.iter().enumerate() {
            for &w in out {
                reverse[w].push(v);
            }
        }
        // Which relations depend on `target`: a breadth-first search over reversed edges.
        let reaches = |target: Sym| -> Vec<bool> {
            let mut r = vec![false; names.len()];
            let Some(&t) = ids.get(&target) else { return r };
            r[t] = true;
            let mut queue = vec![t];
            while let Some(v) = queue.pop() {
                for &u in &reverse[v] {
                    if !std::mem::replace(&mut r[u], true) {
                        queue.push(u);
                    }
                }
            }
            r
        };
        let on_does = reaches(kw.does);
        let on_true = reaches(kw.true_);
        for r in self.desc.rules.iter() {
            let Some((h, _)) = self.desc.terms.functor(r.head) else {
                continue;
            };
            let checks: &[(&[bool], &str)] = if [kw.legal, kw.terminal, kw.goal].contains(&h) {
                &[(&on_does, "does")]
            } else if h == kw.init {
                &[(&on_does, "does"), (&on_true, "true")]
            } else {
                &[]
            };
            for &(reach, bad) in checks {
                for lit in &r.body {
                    let (Literal::Pos(a) | Literal::Neg(a)) = *lit else {
                        continue;
                    };
                    let Some((b, _)) = self.desc.terms.functor(a) else {
                        continue;
                    };
                    if reach[ids[&b]] {
                        let via = if self.desc.terms.name(b) == bad {
                            String::new()
                        } else {
                            format!(" (through `{}`)", self.desc.terms.name(b))
                        };
                        self.out.push(Diagnostic {
                            location: r.location.clone(),
                            rule: r.text.clone(),
                            message: format!(
                                "`{}` must not depend on `{bad}`{via}",
                                self.desc.terms.name(h)
                            ),
                        });
                        break;
                    }
                }
            }
        }
        // Warnings: relations used but never defined.
        let mut defined = vec![false; names.len()];
        for &h in &rule_head {
            defined[h] = true;
        }
        for (v, &s) in names.iter().enumerate() {
            if s != kw.true_ && s != kw.does && !defined[v] {
                self.desc.warnings.push(format!(
                    "relation `{}` is used but never defined, so it never holds",
                    self.desc.terms.name(s)
                ));
            }
        }
    }

    fn roles_and_goals(&mut self) {
        let kw = self.desc.kw;
        let mut any_role = false;
        for ri in 0..self.desc.rules.len() {
            let r = &self.desc.rules[ri];
            if self.desc.terms.functor(r.head).map(|f| f.0) != Some(kw.role) {
                continue;
            }
            any_role = true;
            if !r.body.is_empty() || !self.desc.terms.is_ground(r.head) {
                self.report(
                    ri,
                    "roles must be given as ground facts, `(role name)`".into(),
                );
                continue;
            }
            let Some(role) = self.desc.terms.arg(r.head, 0) else {
                continue;
            };
            if self.desc.terms.node(role) == Node::Const(kw.random) {
                continue;
            }
            let has_goal = self.desc.rules.iter().any(|g| {
                self.desc.terms.functor(g.head) == Some((kw.goal, 2))
                    && self.desc.terms.arg(g.head, 0).is_some_and(|t| {
                        t == role || matches!(self.desc.terms.node(t), Node::Var(_))
                    })
            });
            if !has_goal {
                let name = self.desc.terms.show(role);
                self.report(ri, format!("role `{name}` has no `goal` rule"));
            }
        }
        if !any_role {
            self.out.push(Diagnostic {
                location: Location {
                    file: self
                        .desc
                        .rules
                        .first()
                        .map(|r| r.location.file.clone())
                        .unwrap_or_default(),
                    line: 1,
                    column: 1,
                },
                rule: String::new(),
                message: "the description declares no `role`".into(),
            });
        }
    }
}

//! From syntax trees to rules ([`Description`]), and the validator.
//!
//! Conversion flattens `or` (a rule with disjunctive bodies becomes one rule per disjunct, at most
//! [`MAX_DISJUNCTS`] per rule) and pushes `not` through `or` (De Morgan), so the rest of the crate sees
//! only four kinds of body literal: positive atoms, negated atoms, `distinct` and its negation.
//!
//! The validator then checks what the GDL specification (Love et al., *General Game Playing: Game
//! Description Language Specification*, 2008; Thielscher, *A General Game Description Language for
//! Incomplete Information Games*, 2010) requires of a valid description, and reports every violation
//! with its location and rule:
//! arity clashes; unsafe variables (a variable of the head, of a negated literal or of a `distinct`
//! that no positive body literal binds); `legal`,
//! `terminal` or `goal` depending on `does`; `init` depending on `true` or `does`; rules defining `true`
//! or `does`; no `role`; a role (other than `random`) without a `goal` rule. Recursion through
//! negation between relations is a warning (the cycle is named): what GDL requires is a stratified
//! *ground* program, which grounding checks.

pub(crate) mod graph;
pub(crate) mod unsafe_binding;
pub(crate) mod validate;

use std::collections::HashMap;

use crate::error::{Diagnostic, GdlError, Location};
use crate::syntax::term::{Sym, TermId, Terms};
use crate::syntax::{Ast, AstKind};

/// A rule body may expand into at most this many disjunct-free rules.
pub const MAX_DISJUNCTS: usize = 4096;

/// A body literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// The atom holds.
    Pos(TermId),
    /// The atom does not hold (negation as failure).
    Neg(TermId),
    /// The two terms differ (both ground when evaluated).
    Distinct(TermId, TermId),
    /// The two terms are equal: `(not (distinct a b))` (both ground when evaluated).
    Same(TermId, TermId),
}

/// One disjunct-free rule `head :- body`; a fact has an empty body.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The head atom.
    pub head: TermId,
    /// The body literals, in source order.
    pub body: Vec<Literal>,
    /// The number of variables (`Node::Var(0..vars)`).
    pub vars: u32,
    /// The variables' names as written, for messages.
    pub var_names: Vec<String>,
    /// Where the rule starts.
    pub location: Location,
    /// The rule printed in KIF, for messages.
    pub text: String,
}

impl Rule {
    /// The head, then the atoms of the positive and negated body literals, in source order.
    pub fn atoms(&self) -> impl Iterator<Item = TermId> + '_ {
        let body = self.body.iter().filter_map(|l| match *l {
            Literal::Pos(a) | Literal::Neg(a) => Some(a),
            Literal::Distinct(..) | Literal::Same(..) => None,
        });
        std::iter::once(self.head).chain(body)
    }
}

/// The GDL keywords and their arities.
pub const KEYWORDS: [(&str, usize); 11] = [
    ("role", 1),
    ("init", 1),
    ("true", 1),
    ("next", 1),
    ("legal", 2),
    ("does", 2),
    ("goal", 2),
    ("terminal", 0),
    ("base", 1),
    ("input", 2),
    ("sees", 2),
];

/// Interned keyword symbols.
#[derive(Clone, Copy, Debug)]
pub struct Keywords {
    /// `role`
    pub role: Sym,
    /// `init`
    pub init: Sym,
    /// `true`
    pub true_: Sym,
    /// `next`
    pub next: Sym,
    /// `legal`
    pub legal: Sym,
    /// `does`
    pub does: Sym,
    /// `goal`
    pub goal: Sym,
    /// `terminal`
    pub terminal: Sym,
    /// `sees`
    pub sees: Sym,
    /// `random`, the GDL-II chance role.
    pub random: Sym,
}

impl Keywords {
    fn new(terms: &mut Terms) -> Keywords {
        Keywords {
            role: terms.sym("role"),
            init: terms.sym("init"),
            true_: terms.sym("true"),
            next: terms.sym("next"),
            legal: terms.sym("legal"),
            does: terms.sym("does"),
            goal: terms.sym("goal"),
            terminal: terms.sym("terminal"),
            sees: terms.sym("sees"),
            random: terms.sym("random"),
        }
    }
}

/// A parsed and validated game description: the term arena and the rules.
#[derive(Clone, Debug)]
pub struct Description {
    /// Symbols and terms (atoms included).
    pub terms: Terms,
    /// The keywords' symbols.
    pub kw: Keywords,
    /// All rules, facts included, in source order.
    pub rules: Vec<Rule>,
    /// Problems that do not make the description invalid.
    pub warnings: Vec<String>,
}

/// What loading does with a rule whose variable no positive body literal binds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnsafeVariables {
    /// The description is invalid, as the GDL specification says.
    #[default]
    Reject,
    /// Each unsafe variable ranges over the ground terms that can reach its argument positions
    /// (or, where those positions can hold compound terms, over every ground term the
    /// description writes as an argument), with a warning: how a top-down prover such as GGP
    /// Base's reads these rules (`(legal ?player pass)` holds for whichever player it is asked
    /// about), and what rulesheets in circulation rely on. Which terms reach a position: the
    /// crate docs, "Validation".
    RangeOverGroundTerms,
}

/// Parses and validates `text` (`file` names it in messages).
pub fn load(text: &str, file: &str) -> Result<Description, GdlError> {
    load_with(text, file, UnsafeVariables::Reject)
}

/// [`load`], with rules that have unsafe variables handled as `unsafe_variables` says.
pub fn load_with(
    text: &str,
    file: &str,
    unsafe_variables: UnsafeVariables,
) -> Result<Description, GdlError> {
    let mut desc = rules_of(text, file)?;
    let diagnostics = crate::description::validate::validate(&mut desc, unsafe_variables);
    if diagnostics.is_empty() {
        Ok(desc)
    } else {
        Err(GdlError::Invalid { diagnostics })
    }
}

/// The rules of `text`, parsed but not validated as a game: the engine's tests evaluate
/// programs GDL's restrictions reject.
pub(crate) fn rules_of(text: &str, file: &str) -> Result<Description, GdlError> {
    let asts = crate::syntax::parse(text, file)?;
    let mut b = Builder {
        terms: Terms::default(),
        rules: Vec::new(),
        diagnostics: Vec::new(),
        file,
        current: None,
    };
    let kw = Keywords::new(&mut b.terms);
    for ast in &asts {
        b.current = Some(ast);
        b.clause(ast);
    }
    if !b.diagnostics.is_empty() {
        return Err(GdlError::Invalid {
            diagnostics: b.diagnostics,
        });
    }
    Ok(Description {
        terms: b.terms,
        kw,
        rules: b.rules,
        warnings: Vec::new(),
    })
}

/// A body under construction: a disjunction of conjunctions (DNF).
type Dnf = Vec<Vec<Literal>>;

struct Builder<'a> {
    terms: Terms,
    rules: Vec<Rule>,
    diagnostics: Vec<Diagnostic>,
    file: &'a str,
    /// The clause being converted, printed in messages about it.
    current: Option<&'a Ast>,
}

/// Per-clause conversion state: the variables seen so far.
#[derive(Default)]
struct Scope {
    vars: Vec<String>,
}

impl Scope {
    fn var(&mut self, name: &str) -> u32 {
        match self.vars.iter().position(|v| v == name) {
            Some(i) => i as u32,
            None => {
                self.vars.push(name.to_string());
                (self.vars.len() - 1) as u32
            }
        }
    }
}

impl Builder<'_> {
    fn location(&self, pos: (u32, u32)) -> Location {
        Location {
            file: self.file.to_string(),
            line: pos.0,
            column: pos.1,
        }
    }

    fn problem(&mut self, pos: (u32, u32), rule: &str, message: String) {
        let rule = match (rule, self.current) {
            ("", Some(clause)) => clause.to_kif(),
            _ => rule.to_string(),
        };
        self.diagnostics.push(Diagnostic {
            location: self.location(pos),
            rule,
            message,
        });
    }

    fn clause(&mut self, ast: &Ast) {
        let mut scope = Scope::default();
        let (head_ast, body_asts): (&Ast, &[Ast]) = match &ast.kind {
            AstKind::App(f, parts) if f == "<=" => (&parts[0], &parts[1..]),
            AstKind::Const(f) if f == "<=" => {
                self.problem(ast.pos, "", "`<=` needs a head".into());
                return;
            }
            _ => (ast, &[]),
        };
        let Some(head) = self.atom(head_ast, &mut scope, "head") else {
            return;
        };
        let mut dnf: Dnf = vec![Vec::new()];
        for lit in body_asts {
            let Some(alternatives) = self.literal(lit, &mut scope, false) else {
                return;
            };
            if let [only] = alternatives.as_slice() {
                // No disjunction: extend in place (bodies may have many literals).
                for conj in &mut dnf {
                    conj.extend_from_slice(only);
                }
                continue;
            }
            if dnf.len().saturating_mul(alternatives.len()) > MAX_DISJUNCTS {
                self.problem(
                    lit.pos,
                    "",
                    format!("more than {MAX_DISJUNCTS} disjuncts after expanding `or`"),
                );
                return;
            }
            dnf = dnf
                .iter()
                .flat_map(|prefix| {
                    alternatives.iter().map(move |alt| {
                        let mut conj = prefix.clone();
                        conj.extend_from_slice(alt);
                        conj
                    })
                })
                .collect();
        }
        let names: Vec<String> = scope.vars.clone();
        for body in dnf {
            self.terms.set_var_names(&names);
            let text = rule_text(&self.terms, head, &body);
            self.rules.push(Rule {
                head,
                body,
                vars: names.len() as u32,
                var_names: names.clone(),
                location: self.location(ast.pos),
                text,
            });
        }
    }

    /// An atom (a head or a positive literal): a constant or a compound, not a variable.
    fn atom(&mut self, ast: &Ast, scope: &mut Scope, what: &str) -> Option<TermId> {
        match &ast.kind {
            AstKind::Var(v) => {
                self.problem(
                    ast.pos,
                    "",
                    format!("a variable (`{v}`) cannot be a {what}"),
                );
                None
            }
            AstKind::Const(f) | AstKind::App(f, _)
                if ["not", "or", "distinct", "<="].contains(&f.as_str()) && what == "head" =>
            {
                self.problem(ast.pos, "", format!("`{f}` cannot be a rule head"));
                None
            }
            _ => Some(self.term(ast, scope)),
        }
    }

    fn term(&mut self, ast: &Ast, scope: &mut Scope) -> TermId {
        match &ast.kind {
            AstKind::Var(v) => {
                let i = scope.var(v);
                self.terms.var(i)
            }
            AstKind::Const(c) => {
                let s = self.terms.sym(c);
                self.terms.constant(s)
            }
            AstKind::App(f, args) => {
                let f = self.terms.sym(f);
                let args: Vec<TermId> = args.iter().map(|a| self.term(a, scope)).collect();
                self.terms.app(f, &args)
            }
        }
    }

    /// A body literal as a disjunction of conjunctions; `negated` under an odd number of `not`s.
    fn literal(&mut self, ast: &Ast, scope: &mut Scope, negated: bool) -> Option<Dnf> {
        match &ast.kind {
            AstKind::App(f, args) if f == "not" => {
                if args.len() != 1 {
                    self.problem(
                        ast.pos,
                        "",
                        format!("`not` takes one literal, found {}", args.len()),
                    );
                    return None;
                }
                self.literal(&args[0], scope, !negated)
            }
            AstKind::App(f, args) if f == "or" => {
                let parts: Vec<Dnf> = args
                    .iter()
                    .map(|a| self.literal(a, scope, negated))
                    .collect::<Option<_>>()?;
                if negated {
                    // not (a or b) = not a and not b: the product of the parts.
                    let mut out: Dnf = vec![Vec::new()];
                    for part in parts {
                        if out.len().saturating_mul(part.len()) > MAX_DISJUNCTS {
                            self.problem(
                                ast.pos,
                                "",
                                format!("more than {MAX_DISJUNCTS} disjuncts"),
                            );
                            return None;
                        }
                        out = out
                            .iter()
                            .flat_map(|p| {
                                part.iter().map(move |q| {
                                    let mut c = p.clone();
                                    c.extend_from_slice(q);
                                    c
                                })
                            })
                            .collect();
                    }
                    Some(out)
                } else {
                    let out: Dnf = parts.into_iter().flatten().collect();
                    if out.len() > MAX_DISJUNCTS {
                        self.problem(ast.pos, "", format!("more than {MAX_DISJUNCTS} disjuncts"));
                        return None;
                    }
                    Some(out)
                }
            }
            AstKind::App(f, args) if f == "distinct" => {
                if args.len() != 2 {
                    self.problem(
                        ast.pos,
                        "",
                        format!("`distinct` takes two terms, found {}", args.len()),
                    );
                    return None;
                }
                let a = self.term(&args[0], scope);
                let b = self.term(&args[1], scope);
                Some(vec![vec![if negated {
                    Literal::Same(a, b)
                } else {
                    Literal::Distinct(a, b)
                }]])
            }
            AstKind::Const(f) if ["not", "or", "distinct"].contains(&f.as_str()) => {
                self.problem(ast.pos, "", format!("`{f}` needs arguments"));
                None
            }
            _ => {
                let atom = self.atom(ast, scope, "literal")?;
                Some(vec![vec![if negated {
                    Literal::Neg(atom)
                } else {
                    Literal::Pos(atom)
                }]])
            }
        }
    }
}

/// A rule printed in KIF (variables under the names set with [`Terms::set_var_names`]).
pub fn rule_text(terms: &Terms, head: TermId, body: &[Literal]) -> String {
    if body.is_empty() {
        return terms.show(head);
    }
    let mut out = String::from("(<= ");
    terms.write(head, &mut out);
    for lit in body {
        out.push(' ');
        match *lit {
            Literal::Pos(a) => terms.write(a, &mut out),
            Literal::Neg(a) => {
                out.push_str("(not ");
                terms.write(a, &mut out);
                out.push(')');
            }
            Literal::Distinct(a, b) | Literal::Same(a, b) => {
                let same = matches!(lit, Literal::Same(..));
                out.push_str(if same {
                    "(not (distinct "
                } else {
                    "(distinct "
                });
                terms.write(a, &mut out);
                out.push(' ');
                terms.write(b, &mut out);
                out.push_str(if same { "))" } else { ")" });
            }
        }
    }
    out.push(')');
    out
}

impl Description {
    /// The roles in order of their `role` facts.
    pub fn roles(&self) -> Vec<TermId> {
        let mut roles = Vec::new();
        for r in &self.rules {
            if self.terms.functor(r.head) == Some((self.kw.role, 1)) && r.body.is_empty() {
                if let Some(a) = self.terms.arg(r.head, 0) {
                    if !roles.contains(&a) {
                        roles.push(a);
                    }
                }
            }
        }
        roles
    }

    /// The relation (functor) of every atom a rule uses, with its arity; for the validator.
    pub fn relation(&self, atom: TermId) -> Option<(Sym, usize)> {
        self.terms.functor(atom)
    }

    /// The relations defined by rule heads, mapped to their rules.
    pub fn definitions(&self) -> HashMap<Sym, Vec<usize>> {
        let mut defs: HashMap<Sym, Vec<usize>> = HashMap::new();
        for (i, r) in self.rules.iter().enumerate() {
            if let Some((f, _)) = self.terms.functor(r.head) {
                defs.entry(f).or_default().push(i);
            }
        }
        defs
    }
}

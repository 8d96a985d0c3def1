//! Unsafe variables bound the way GGP Base's prover reads them
//! ([`UnsafeVariables::RangeOverGroundTerms`](crate::description::UnsafeVariables)).
//!
//! A top-down prover answers `(legal ?player pass)` for whichever player it is asked about: the
//! caller binds the variable. Bottom-up evaluation needs the values up front, so each unsafe
//! variable gets a positive literal over a finite set of ground terms:
//!
//! - **A variable of the head** ranges over the constants that can reach its argument positions.
//!   Positions are *connected* when a rule writes one variable at both (`(cell ?x ?y)` in one
//!   literal and `(distpair ?x ?z)` in another connect `cell`'s first argument and `distpair`'s),
//!   and the keywords connect the positions their semantics equates (`init`, `true` and `next`;
//!   `legal` and `does`; the role of `role`, `legal`, `does`, `goal` and `sees`). A constant can
//!   reach a position only from a position connected to it, so these constants (the
//!   argument-domain analysis of Kissmann and Edelkamp, *Instantiating General Games*, 2009, on
//!   the positions a variable spans) hold every value a query can ask about. Where the connected
//!   positions can hold compound terms, or hold no constant at all, the variable ranges over
//!   every ground term the description writes as an argument instead.
//! - **A variable only in `not` or `distinct`** ranges over every ground term the description
//!   writes as an argument: such a test asks about any value (GGP Base's prover reads
//!   `(distinct ?y 2)` with `?y` unbound as true), and those terms are the values a description
//!   can name.
//!
//! A relation whose every argument is unsafe (`(<= (distpair ?w ?x ?y ?z) (distinct ?w ?x))`)
//! still has a row per combination of values; typing the positions keeps that product to the
//! coordinates a board uses instead of every term of the description.

use std::collections::HashMap;

use crate::description::{Description, Literal, Rule};
use crate::error::Location;
use crate::syntax::term::{Node, Sym, TermId, Terms};

/// Binds every unsafe variable of `desc` (see the module docs) and returns a warning per rule
/// changed.
pub fn bind(desc: &mut Description) -> Vec<String> {
    let unsafe_rules: Vec<(usize, Vec<u32>)> = (0..desc.rules.len())
        .filter_map(|i| {
            let vars = unsafe_variables(&desc.terms, &desc.rules[i]);
            (!vars.is_empty()).then(|| (i, vars.into_iter().map(|(v, _)| v).collect()))
        })
        .collect();
    let Some(&(first, _)) = unsafe_rules.first() else {
        return Vec::new();
    };
    let positions = Positions::of(desc);
    let universe = ground_arguments(desc);
    let mut domains = Domains::default();
    let mut warnings = Vec::new();
    for (i, vars) in unsafe_rules {
        let mut described = Vec::new();
        for v in vars {
            let values = positions.constants_of(&desc.terms, &desc.rules[i], v);
            let (key, values) = match values {
                Some((class, values)) => (Some(class), values),
                None => (None, universe.clone()),
            };
            let name = desc.rules[i].var_names.get(v as usize);
            described.push(format!(
                "{} ({} value(s))",
                name.map_or("?", String::as_str),
                values.len()
            ));
            let relation = domains.relation(&mut desc.terms, key, values);
            let var = desc.terms.var(v);
            let literal = Literal::Pos(desc.terms.app(relation, &[var]));
            desc.rules[i].body.push(literal);
        }
        warnings.push(format!(
            "{}: unsafe variable(s) {}: each ranges over the ground terms that can reach its \
             argument positions, as GGP Base's prover reads it",
            desc.rules[i].location,
            described.join(", ")
        ));
    }
    let location = desc.rules[first].location.clone();
    domains.add_facts(desc, &location);
    warnings
}

/// The variables of `r` that no positive body literal binds, each with where it first occurs.
pub fn unsafe_variables(terms: &Terms, r: &Rule) -> Vec<(u32, &'static str)> {
    let mut bound = Vec::new();
    for lit in &r.body {
        if let Literal::Pos(a) = *lit {
            terms.vars_of(a, &mut bound);
        }
    }
    let mut found: Vec<(u32, &'static str)> = Vec::new();
    let mut check = |t: TermId, place: &'static str| {
        let mut vars = Vec::new();
        terms.vars_of(t, &mut vars);
        for v in vars {
            if !bound.contains(&v) && !found.iter().any(|(u, _)| *u == v) {
                found.push((v, place));
            }
        }
    };
    check(r.head, "the head");
    for lit in &r.body {
        match *lit {
            Literal::Neg(a) => check(a, "a negated literal"),
            Literal::Distinct(a, b) | Literal::Same(a, b) => {
                check(a, "a `distinct`");
                check(b, "a `distinct`");
            }
            Literal::Pos(_) => {}
        }
    }
    found
}

/// The domain relations made so far: one per class of positions, and one for the universe.
#[derive(Default)]
struct Domains {
    by_class: HashMap<Option<usize>, Sym>,
    made: Vec<(Sym, Vec<TermId>)>,
}

impl Domains {
    /// The relation holding `values` (those of position class `class`, or the universe for
    /// `None`), made on first use under a name the parser cannot produce (it splits symbols at
    /// spaces), so that it never clashes with the game's.
    fn relation(&mut self, terms: &mut Terms, class: Option<usize>, values: Vec<TermId>) -> Sym {
        if let Some(&s) = self.by_class.get(&class) {
            return s;
        }
        let name = match class {
            Some(c) => format!("ground term {c}"),
            None => "ground term".to_string(),
        };
        let s = terms.sym(&name);
        self.by_class.insert(class, s);
        self.made.push((s, values));
        s
    }

    /// Adds the relations made as facts of `desc`, placed at `location` for messages.
    fn add_facts(self, desc: &mut Description, location: &Location) {
        for (relation, values) in self.made {
            for t in values {
                let head = desc.terms.app(relation, &[t]);
                let text = format!("({} {})", desc.terms.name(relation), desc.terms.show(t));
                desc.rules.push(Rule {
                    head,
                    body: Vec::new(),
                    vars: 0,
                    var_names: Vec::new(),
                    location: location.clone(),
                    text,
                });
            }
        }
    }
}

/// An argument position: relation or function symbol, its arity, the argument's index.
type Position = (Sym, usize, usize);

/// The argument positions of a description, in classes of connected positions (see the module
/// docs), with the constants written at each class and whether it can hold compound terms.
struct Positions {
    ids: HashMap<Position, usize>,
    parent: Vec<usize>,
    constants: Vec<Vec<TermId>>,
    compound: Vec<bool>,
}

impl Positions {
    fn of(desc: &Description) -> Positions {
        let mut p = Positions {
            ids: HashMap::new(),
            parent: Vec::new(),
            constants: Vec::new(),
            compound: Vec::new(),
        };
        for r in &desc.rules {
            let mut var_at: HashMap<u32, usize> = HashMap::new();
            for atom in r.atoms() {
                p.walk(&desc.terms, atom, &mut var_at);
            }
        }
        let kw = desc.kw;
        let links: [&[Position]; 5] = [
            &[(kw.init, 1, 0), (kw.true_, 1, 0), (kw.next, 1, 0)],
            &[(kw.legal, 2, 1), (kw.does, 2, 1)],
            &[(kw.role, 1, 0), (kw.legal, 2, 0), (kw.does, 2, 0)],
            &[(kw.role, 1, 0), (kw.goal, 2, 0)],
            &[(kw.role, 1, 0), (kw.sees, 2, 0)],
        ];
        for group in links {
            let ids: Vec<usize> = group.iter().map(|&pos| p.id(pos)).collect();
            for w in ids.windows(2) {
                p.union(w[0], w[1]);
            }
        }
        p
    }

    /// Records the arguments of `t` (an atom or a function term), recursively, connecting the
    /// positions of each variable of the rule (`var_at`: a position where each was seen).
    fn walk(&mut self, terms: &Terms, t: TermId, var_at: &mut HashMap<u32, usize>) {
        let Node::App(f, args) = terms.node(t) else {
            return;
        };
        for (i, &arg) in args.iter().enumerate() {
            let id = self.id((f, args.len(), i));
            match terms.node(arg) {
                Node::Var(v) => match var_at.get(&v) {
                    Some(&other) => self.union(id, other),
                    None => {
                        var_at.insert(v, id);
                    }
                },
                Node::Const(_) => {
                    let root = self.root(id);
                    self.constants[root].push(arg);
                }
                Node::App(..) => {
                    let root = self.root(id);
                    self.compound[root] = true;
                    self.walk(terms, arg, var_at);
                }
            }
        }
    }

    fn id(&mut self, pos: Position) -> usize {
        let next = self.parent.len();
        let id = *self.ids.entry(pos).or_insert(next);
        if id == next {
            self.parent.push(id);
            self.constants.push(Vec::new());
            self.compound.push(false);
        }
        id
    }

    /// The representative of `x`'s class, which holds the class's constants and flag.
    fn root(&self, mut x: usize) -> usize {
        while self.parent[x] != x {
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.parent[b] = a;
            let moved = std::mem::take(&mut self.constants[b]);
            self.constants[a].extend(moved);
            self.compound[a] |= self.compound[b];
        }
    }

    /// The class of unsafe variable `v`'s positions in `r`'s head, and the constants that can
    /// reach them (sorted, once each); `None` when `v` is not in the head, or when its positions
    /// can hold compound terms or no constant.
    fn constants_of(&self, terms: &Terms, r: &Rule, v: u32) -> Option<(usize, Vec<TermId>)> {
        let mut at = None;
        find_var(terms, r.head, v, &mut |pos| at = at.or(Some(pos)));
        let class = self.root(*self.ids.get(&at?)?);
        if self.compound[class] || self.constants[class].is_empty() {
            return None;
        }
        let mut values = self.constants[class].clone();
        values.sort_unstable_by_key(|t| t.0);
        values.dedup();
        Some((class, values))
    }
}

/// Calls `found` with each position of variable `v` in `t`.
fn find_var(terms: &Terms, t: TermId, v: u32, found: &mut dyn FnMut(Position)) {
    let Node::App(f, args) = terms.node(t) else {
        return;
    };
    for (i, &arg) in args.iter().enumerate() {
        match terms.node(arg) {
            Node::Var(w) if w == v => found((f, args.len(), i)),
            Node::App(..) => find_var(terms, arg, v, found),
            _ => {}
        }
    }
}

/// The ground terms written as arguments of an atom, or of such a term, in any rule; each once,
/// in the order first written.
fn ground_arguments(desc: &Description) -> Vec<TermId> {
    let terms = &desc.terms;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<TermId> = Vec::new();
    for r in &desc.rules {
        for atom in r.atoms() {
            stack.extend(terms.args(atom).iter().rev());
            while let Some(t) = stack.pop() {
                if terms.is_ground(t) && seen.insert(t) {
                    out.push(t);
                }
                stack.extend(terms.args(t).iter().rev());
            }
        }
    }
    out
}

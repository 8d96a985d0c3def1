//! Interned symbols and hash-consed terms.
//!
//! Every constant and function name is a [`Sym`] (a `u32` into a symbol table), and every term —
//! atoms included, an atom being a term whose functor is the relation — is a [`TermId`] into an arena
//! where equal terms share one id. Ground-term equality is therefore id equality, which is what makes
//! matching, fact sets and grounding cheap.

use std::collections::HashMap;
use std::fmt::Write;

/// An interned constant, function or relation name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// A term in the [`Terms`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

/// One arena node. Variables are numbered per rule (`0..rule.vars`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// The rule's `n`-th variable.
    Var(u32),
    /// A constant (or a 0-ary relation such as `terminal`).
    Const(Sym),
    /// A function term or an atom: functor and arguments.
    App(Sym, Box<[TermId]>),
}

/// The symbol table and the term arena of one game description.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    names: Vec<Box<str>>,
    symbols: HashMap<Box<str>, Sym>,
    nodes: Vec<Node>,
    ground: Vec<bool>,
    /// Nesting depth of each term (a constant or variable is 0).
    depth: Vec<u32>,
    /// The largest nesting depth of any term built so far.
    max_depth: u32,
    index: HashMap<Node, TermId>,
    /// Names of the variables of the rule being printed; only for messages.
    var_names: Vec<String>,
}

impl Terms {
    /// Interns `name`.
    pub fn sym(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.symbols.get(name) {
            return s;
        }
        let s = Sym(self.names.len() as u32);
        self.names.push(name.into());
        self.symbols.insert(name.into(), s);
        s
    }

    /// The symbol named `name`, if it was ever interned.
    pub fn find_sym(&self, name: &str) -> Option<Sym> {
        self.symbols.get(name).copied()
    }

    /// The name of `s`.
    pub fn name(&self, s: Sym) -> &str {
        &self.names[s.0 as usize]
    }

    /// Interns a node.
    pub fn intern(&mut self, node: Node) -> TermId {
        if let Some(&t) = self.index.get(&node) {
            return t;
        }
        let (ground, depth) = match &node {
            Node::Var(_) => (false, 0),
            Node::Const(_) => (true, 0),
            Node::App(_, args) => (
                args.iter().all(|&a| self.ground[a.0 as usize]),
                1 + args
                    .iter()
                    .map(|&a| self.depth[a.0 as usize])
                    .max()
                    .unwrap_or(0),
            ),
        };
        let t = TermId(self.nodes.len() as u32);
        self.nodes.push(node.clone());
        self.ground.push(ground);
        self.depth.push(depth);
        self.max_depth = self.max_depth.max(depth);
        self.index.insert(node, t);
        t
    }

    /// The constant `s` as a term.
    pub fn constant(&mut self, s: Sym) -> TermId {
        self.intern(Node::Const(s))
    }

    /// `f(args)`, or the constant `f` when `args` is empty.
    pub fn app(&mut self, f: Sym, args: &[TermId]) -> TermId {
        if args.is_empty() {
            self.constant(f)
        } else {
            self.intern(Node::App(f, args.into()))
        }
    }

    /// The existing id of `f(args)` without creating it.
    pub fn lookup_app(&self, f: Sym, args: &[TermId]) -> Option<TermId> {
        let node = if args.is_empty() {
            Node::Const(f)
        } else {
            Node::App(f, args.into())
        };
        self.index.get(&node).copied()
    }

    /// The node of `t`.
    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t.0 as usize]
    }

    /// The largest nesting depth of any term built so far (`(cell 1 1 b)` has depth 1, an atom
    /// `true((cell 1 1 b))` depth 2).
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Whether `t` has no variables.
    pub fn is_ground(&self, t: TermId) -> bool {
        self.ground[t.0 as usize]
    }

    /// Functor and arity of an atom or term (`(cell 1 1 b)` is `cell`/3, `terminal` is `terminal`/0);
    /// `None` for a variable.
    pub fn functor(&self, t: TermId) -> Option<(Sym, usize)> {
        match self.node(t) {
            Node::Var(_) => None,
            Node::Const(s) => Some((*s, 0)),
            Node::App(f, args) => Some((*f, args.len())),
        }
    }

    /// The arguments of `t` (empty for constants and variables).
    pub fn args(&self, t: TermId) -> &[TermId] {
        match self.node(t) {
            Node::App(_, args) => args,
            _ => &[],
        }
    }

    /// The `i`-th argument of `t`, if any.
    pub fn arg(&self, t: TermId, i: usize) -> Option<TermId> {
        self.args(t).get(i).copied()
    }

    /// The integer value of a numeric constant (`100`), if `t` is one.
    pub fn number(&self, t: TermId) -> Option<i64> {
        match self.node(t) {
            Node::Const(s) => self.name(*s).parse().ok(),
            _ => None,
        }
    }

    /// Adds the variables of `t` to `out` (deduplicated). Iterative: terms may be deep.
    pub fn vars_of(&self, t: TermId, out: &mut Vec<u32>) {
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            if self.is_ground(t) {
                continue;
            }
            match self.node(t) {
                Node::Var(v) => {
                    if !out.contains(v) {
                        out.push(*v);
                    }
                }
                Node::Const(_) => {}
                Node::App(_, args) => stack.extend(args.iter().rev()),
            }
        }
    }

    /// Sets the variable names used by [`show`](Terms::show) (names of the rule being printed).
    pub fn set_var_names(&mut self, names: &[String]) {
        self.var_names.clear();
        self.var_names.extend_from_slice(names);
    }

    /// `t` in KIF syntax: `(cell 1 1 b)`, `?x`.
    pub fn show(&self, t: TermId) -> String {
        let mut out = String::new();
        self.write(t, &mut out);
        out
    }

    /// Appends `t` in KIF syntax to `out`. Iterative, so deep terms cannot overflow the stack.
    pub fn write(&self, t: TermId, out: &mut String) {
        enum Step {
            Term(TermId),
            Text(&'static str),
        }
        let mut stack = vec![Step::Term(t)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Text(s) => out.push_str(s),
                Step::Term(t) => match self.node(t) {
                    Node::Var(v) => match self.var_names.get(*v as usize) {
                        Some(name) => out.push_str(name),
                        None => {
                            let _ = write!(out, "?_{v}");
                        }
                    },
                    Node::Const(s) => out.push_str(self.name(*s)),
                    Node::App(f, args) => {
                        out.push('(');
                        out.push_str(self.name(*f));
                        stack.push(Step::Text(")"));
                        for &a in args.iter().rev() {
                            stack.push(Step::Term(a));
                            stack.push(Step::Text(" "));
                        }
                    }
                },
            }
        }
    }
}

/// Variable bindings of one rule during matching, with a trail to undo them on backtracking.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    values: Vec<Option<TermId>>,
    trail: Vec<u32>,
}

impl Bindings {
    /// Fresh, all-unbound bindings for `vars` variables.
    pub fn reset(&mut self, vars: usize) {
        self.values.clear();
        self.values.resize(vars, None);
        self.trail.clear();
    }

    /// The value of variable `v`.
    pub fn get(&self, v: u32) -> Option<TermId> {
        self.values.get(v as usize).copied().flatten()
    }

    /// A mark to undo to.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Unbinds every variable bound since `mark`.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let v = self.trail.pop().unwrap_or_default();
            self.values[v as usize] = None;
        }
    }

    /// Binds `v` to `t` (recorded on the trail).
    pub fn set(&mut self, v: u32, t: TermId) {
        self.bind(v, t);
    }

    fn bind(&mut self, v: u32, t: TermId) {
        self.values[v as usize] = Some(t);
        self.trail.push(v);
    }
}

impl Terms {
    /// Matches pattern `p` against ground term `g`, extending `b`. On failure, `b` may hold partial
    /// bindings: the caller undoes to its mark. Recursion is bounded by the term depth, which the
    /// parser limits.
    pub fn matches(&self, p: TermId, g: TermId, b: &mut Bindings) -> bool {
        if p == g {
            return true;
        }
        if self.is_ground(p) {
            return false;
        }
        match (self.node(p), self.node(g)) {
            (Node::Var(v), _) => match b.get(*v) {
                Some(bound) => bound == g,
                None => {
                    b.bind(*v, g);
                    true
                }
            },
            (Node::App(f, ps), Node::App(h, gs)) if f == h && ps.len() == gs.len() => ps
                .iter()
                .zip(gs.iter())
                .all(|(&p, &g)| self.matches(p, g, b)),
            _ => false,
        }
    }

    /// `t` with its variables replaced by their bindings; `None` if a variable of `t` is unbound.
    pub fn substitute(&mut self, t: TermId, b: &Bindings) -> Option<TermId> {
        if self.is_ground(t) {
            return Some(t);
        }
        match self.node(t).clone() {
            Node::Var(v) => b.get(v),
            Node::Const(_) => Some(t),
            Node::App(f, args) => {
                let mut ground = Vec::with_capacity(args.len());
                for &a in args.iter() {
                    ground.push(self.substitute(a, b)?);
                }
                Some(self.app(f, &ground))
            }
        }
    }
}

//! Interned symbols and hash-consed terms.
//!
//! Every constant and function name is a [`Sym`] (a `u32` into a symbol table), and every term —
//! atoms included, an atom being a term whose functor is the relation — is a [`TermId`] into an arena
//! where equal terms share one id. Ground-term equality is therefore id equality, which is what makes
//! matching, fact sets and grounding cheap.
//!
//! The arena is flat (one entry per term, arguments in one shared vector) and its hash table is
//! probed with a functor and an argument slice, so looking a term up never allocates: the joins of
//! the reasoners resolve millions of terms while grounding a large game.

use std::collections::HashMap;
use std::fmt::Write;

use smallvec::SmallVec;

use game_trait::hash::splitmix64 as mix;

/// An interned constant, function or relation name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// A term in the [`Terms`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

/// What a term is: a view into the arena. Variables are numbered per rule (`0..rule.vars`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node<'a> {
    /// The rule's `n`-th variable.
    Var(u32),
    /// A constant (or a 0-ary relation such as `terminal`).
    Const(Sym),
    /// A function term or an atom: functor and arguments (at least one).
    App(Sym, &'a [TermId]),
}

/// One arena entry: the functor (or variable number), where the arguments start, and packed
/// metadata (argument count, nesting depth, ground and variable flags).
#[derive(Clone, Copy, Debug)]
struct Entry {
    functor: u32,
    start: u32,
    meta: u32,
}

const LEN_BITS: u32 = 16;
const DEPTH_SHIFT: u32 = LEN_BITS;
const DEPTH_MASK: u32 = (1 << 14) - 1;
const GROUND_BIT: u32 = 1 << 30;
const VAR_BIT: u32 = 1 << 31;

impl Entry {
    fn len(self) -> usize {
        (self.meta & ((1 << LEN_BITS) - 1)) as usize
    }
    fn depth(self) -> u32 {
        (self.meta >> DEPTH_SHIFT) & DEPTH_MASK
    }
}

/// The symbol table and the term arena of one game description.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    names: Vec<Box<str>>,
    symbols: HashMap<Box<str>, Sym>,
    entries: Vec<Entry>,
    args: Vec<TermId>,
    /// Open-addressing hash table, a power of two long, probed linearly from the slot the top bits
    /// of a term's hash name: per slot the high half of the term's hash and its id plus one
    /// (0 = empty), so that a probe rarely touches the arena.
    table: Vec<u64>,
    /// While the table grows: the previous table, whose slots move into `table` a few per term
    /// interned, so that no single call pauses for all of them, and how many have moved.
    old: Vec<u64>,
    moved: usize,
    /// The largest nesting depth of any term built so far.
    max_depth: u32,
    /// Names of the variables of the rule being printed; only for messages.
    var_names: Vec<String>,
}

/// The most arguments a term may have (the parser's limits keep real descriptions far below).
pub const MAX_ARITY: usize = (1 << LEN_BITS) - 1;

fn hash_node(tag: u32, functor: u32, args: &[TermId]) -> u64 {
    let mut h = mix(u64::from(functor) << 2 | u64::from(tag));
    for a in args {
        h = mix(h ^ u64::from(a.0));
    }
    h
}

/// How many slots of the previous table move per term interned while the table grows: the
/// table doubles when half full, so the move ends halfway to the next doubling.
const MOVES_PER_TERM: usize = 32;

/// The slot where probing for a term starts in a table of `len` slots (a power of two, at most
/// 2^32): the top bits of `hi`, the top half of the term's hash.
fn home(hi: u64, len: usize) -> usize {
    (hi >> (32 - len.trailing_zeros())) as usize
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

    /// How many terms the arena holds (ids are `0..len`).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the arena holds no term.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Approximate bytes held by the arena, for memory budgets.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
            + self.args.len() * 4
            + (self.table.len() + self.old.len()) * 8
    }

    fn same(&self, t: u32, tag: u32, functor: u32, args: &[TermId]) -> bool {
        let e = self.entries[t as usize];
        let e_tag = if e.meta & VAR_BIT != 0 {
            0
        } else if e.len() == 0 {
            1
        } else {
            2
        };
        e_tag == tag && e.functor == functor && self.slice(e) == args
    }

    fn slice(&self, e: Entry) -> &[TermId] {
        &self.args[e.start as usize..e.start as usize + e.len()]
    }

    /// The slot of the table where the term is, or the empty slot where it would go; `h` is
    /// [`hash_node`] of the term. While the table grows, a term not found there may still be in
    /// the part of the previous table that has not moved.
    fn probe(&self, h: u64, tag: u32, functor: u32, args: &[TermId]) -> (usize, Option<TermId>) {
        let (slot, found) = self.probe_in(&self.table, h, tag, functor, args);
        if found.is_none() && self.moved < self.old.len() {
            if let (_, Some(t)) = self.probe_in(&self.old, h, tag, functor, args) {
                return (slot, Some(t));
            }
        }
        (slot, found)
    }

    fn probe_in(
        &self,
        table: &[u64],
        h: u64,
        tag: u32,
        functor: u32,
        args: &[TermId],
    ) -> (usize, Option<TermId>) {
        if table.is_empty() {
            return (0, None);
        }
        let mask = table.len() - 1;
        let mut i = home(h >> 32, table.len());
        loop {
            let e = table[i];
            if e == 0 {
                return (i, None);
            }
            let t = e as u32 - 1;
            if e >> 32 == h >> 32 && self.same(t, tag, functor, args) {
                return (i, Some(TermId(t)));
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table. Its slots move over the next terms interned ([`Terms::move_slots`]):
    /// moving half a million at once paused a query for 137 ms, which a search's deadline feels.
    fn grow(&mut self) {
        self.move_slots(usize::MAX);
        let size = (self.table.len() * 2).max(1024);
        debug_assert!(
            size.trailing_zeros() <= 32,
            "a hash's top half indexes the table"
        );
        self.old = std::mem::replace(&mut self.table, vec![0u64; size]);
        self.moved = 0;
    }

    /// Moves up to `n` slots of the previous table into the table. A slot keeps the top half of
    /// its term's hash, which is where probing starts, so a slot moves without reading the arena,
    /// and in order: consecutive slots land near each other. The previous table stays whole until
    /// every slot has moved, so probing it still finds the terms that have not.
    fn move_slots(&mut self, n: usize) {
        if self.old.is_empty() {
            return;
        }
        let end = self.moved.saturating_add(n).min(self.old.len());
        let (len, mask) = (self.table.len(), self.table.len() - 1);
        for &e in self.old[self.moved..end].iter().filter(|&&e| e != 0) {
            let mut i = home(e >> 32, len);
            while self.table[i] != 0 {
                i = (i + 1) & mask;
            }
            self.table[i] = e;
        }
        self.moved = end;
        if self.moved == self.old.len() {
            self.old = Vec::new();
            self.moved = 0;
        }
    }

    fn intern(&mut self, tag: u32, functor: u32, args: &[TermId]) -> TermId {
        let h = hash_node(tag, functor, args);
        let (mut slot, found) = self.probe(h, tag, functor, args);
        if let Some(t) = found {
            return t;
        }
        if (self.entries.len() + 1) * 2 > self.table.len() {
            self.grow();
            slot = self.probe(h, tag, functor, args).0;
        }
        let ground = tag == 1 || (tag == 2 && args.iter().all(|&a| self.is_ground(a)));
        let depth = if tag == 2 {
            1 + args.iter().map(|&a| self.depth(a)).max().unwrap_or(0)
        } else {
            0
        };
        let meta = args.len().min(MAX_ARITY) as u32
            | depth.min(DEPTH_MASK) << DEPTH_SHIFT
            | if ground { GROUND_BIT } else { 0 }
            | if tag == 0 { VAR_BIT } else { 0 };
        let t = TermId(self.entries.len() as u32);
        self.entries.push(Entry {
            functor,
            start: self.args.len() as u32,
            meta,
        });
        self.args.extend_from_slice(args);
        self.table[slot] = (h >> 32) << 32 | u64::from(t.0 + 1);
        self.max_depth = self.max_depth.max(depth);
        self.move_slots(MOVES_PER_TERM);
        t
    }

    /// The `n`-th variable of a rule as a term.
    pub fn var(&mut self, n: u32) -> TermId {
        self.intern(0, n, &[])
    }

    /// The constant `s` as a term.
    pub fn constant(&mut self, s: Sym) -> TermId {
        self.intern(1, s.0, &[])
    }

    /// `f(args)`, or the constant `f` when `args` is empty.
    pub fn app(&mut self, f: Sym, args: &[TermId]) -> TermId {
        if args.is_empty() {
            self.constant(f)
        } else {
            self.intern(2, f.0, args)
        }
    }

    /// Term `t` of the arena `from`, interned in this one (symbols matched by name). Iterative:
    /// terms may be deep.
    pub fn import(&mut self, from: &Terms, t: TermId) -> TermId {
        // Post-order: a node is built once its arguments are.
        let mut done: Vec<TermId> = Vec::new();
        let mut stack = vec![(t, false)];
        while let Some((t, ready)) = stack.pop() {
            match from.node(t) {
                Node::Var(v) => done.push(self.var(v)),
                Node::Const(c) => {
                    let c = self.sym(from.name(c));
                    done.push(self.constant(c));
                }
                Node::App(f, args) if ready => {
                    let args = done.split_off(done.len() - args.len());
                    let f = self.sym(from.name(f));
                    done.push(self.app(f, &args));
                }
                Node::App(_, args) => {
                    stack.push((t, true));
                    stack.extend(args.iter().rev().map(|&a| (a, false)));
                }
            }
        }
        done.pop().unwrap_or(t)
    }

    /// The existing id of `f(args)` without creating it.
    pub fn lookup_app(&self, f: Sym, args: &[TermId]) -> Option<TermId> {
        let tag = if args.is_empty() { 1 } else { 2 };
        self.probe(hash_node(tag, f.0, args), tag, f.0, args).1
    }

    /// What `t` is.
    #[inline]
    pub fn node(&self, t: TermId) -> Node<'_> {
        let e = self.entries[t.0 as usize];
        if e.meta & VAR_BIT != 0 {
            Node::Var(e.functor)
        } else if e.len() == 0 {
            Node::Const(Sym(e.functor))
        } else {
            Node::App(Sym(e.functor), self.slice(e))
        }
    }

    fn depth(&self, t: TermId) -> u32 {
        self.entries[t.0 as usize].depth()
    }

    /// The largest nesting depth of any term built so far (`(cell 1 1 b)` has depth 1, an atom
    /// `true((cell 1 1 b))` depth 2).
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Whether `t` has no variables.
    #[inline]
    pub fn is_ground(&self, t: TermId) -> bool {
        self.entries[t.0 as usize].meta & GROUND_BIT != 0
    }

    /// Functor and arity of an atom or term (`(cell 1 1 b)` is `cell`/3, `terminal` is `terminal`/0);
    /// `None` for a variable.
    #[inline]
    pub fn functor(&self, t: TermId) -> Option<(Sym, usize)> {
        let e = self.entries[t.0 as usize];
        (e.meta & VAR_BIT == 0).then_some((Sym(e.functor), e.len()))
    }

    /// The arguments of `t` (empty for constants and variables).
    #[inline]
    pub fn args(&self, t: TermId) -> &[TermId] {
        self.slice(self.entries[t.0 as usize])
    }

    /// The `i`-th argument of `t`, if any.
    pub fn arg(&self, t: TermId, i: usize) -> Option<TermId> {
        self.args(t).get(i).copied()
    }

    /// The integer value of a numeric constant (`100`), if `t` is one.
    pub fn number(&self, t: TermId) -> Option<i64> {
        match self.node(t) {
            Node::Const(s) => self.name(s).parse().ok(),
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
                    if !out.contains(&v) {
                        out.push(v);
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
                    Node::Var(v) => match self.var_names.get(v as usize) {
                        Some(name) => out.push_str(name),
                        None => {
                            let _ = write!(out, "?_{v}");
                        }
                    },
                    Node::Const(s) => out.push_str(self.name(s)),
                    Node::App(f, args) => {
                        out.push('(');
                        out.push_str(self.name(f));
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
    #[inline]
    pub fn get(&self, v: u32) -> Option<TermId> {
        self.values.get(v as usize).copied().flatten()
    }

    /// A mark to undo to.
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Unbinds every variable bound since `mark`.
    #[inline]
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let v = self.trail.pop().unwrap_or_default();
            self.values[v as usize] = None;
        }
    }

    /// Binds `v` to `t` (recorded on the trail).
    #[inline]
    pub fn set(&mut self, v: u32, t: TermId) {
        self.values[v as usize] = Some(t);
        self.trail.push(v);
    }
}

/// Argument buffers of [`Terms::substitute`] and [`Terms::resolve`]: inline for the usual arities.
type ArgBuf = SmallVec<[TermId; 8]>;

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
            (Node::Var(v), _) => match b.get(v) {
                Some(bound) => bound == g,
                None => {
                    b.set(v, g);
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
        match self.node(t) {
            Node::Var(v) => b.get(v),
            Node::Const(_) => Some(t),
            Node::App(f, args) => {
                let args: ArgBuf = args.iter().copied().collect();
                let mut ground = ArgBuf::new();
                for a in args {
                    ground.push(self.substitute(a, b)?);
                }
                Some(self.app(f, &ground))
            }
        }
    }

    /// The existing ground term `t` denotes under `b`, or `None` if it was never built (then it is
    /// no fact) or has unbound variables.
    pub fn resolve(&self, t: TermId, b: &Bindings) -> Option<TermId> {
        if self.is_ground(t) {
            return Some(t);
        }
        match self.node(t) {
            Node::Var(v) => b.get(v),
            Node::Const(_) => Some(t),
            Node::App(f, args) => {
                let mut ground = ArgBuf::new();
                for &a in args {
                    ground.push(self.resolve(a, b)?);
                }
                self.lookup_app(f, &ground)
            }
        }
    }

    /// Whether `x` and `y` denote the same ground term under `b` (structurally; unbound variables
    /// are equal only to themselves).
    pub fn equal(&self, x: TermId, y: TermId, b: &Bindings) -> bool {
        let deref = |t: TermId| match self.node(t) {
            Node::Var(v) => b.get(v).unwrap_or(t),
            _ => t,
        };
        let (x, y) = (deref(x), deref(y));
        if x == y {
            return true;
        }
        if self.is_ground(x) && self.is_ground(y) {
            return false;
        }
        match (self.node(x), self.node(y)) {
            (Node::App(f, xs), Node::App(g, ys)) if f == g && xs.len() == ys.len() => {
                xs.iter().zip(ys.iter()).all(|(&a, &c)| self.equal(a, c, b))
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_imported_term_prints_as_in_its_own_arena() {
        let mut from = Terms::default();
        let (f, g, a) = (from.sym("f"), from.sym("g"), from.sym("a"));
        let (a, x) = (from.constant(a), from.var(0));
        let inner = from.app(g, &[a, x]);
        let t = from.app(f, &[inner, a, inner]);
        // A deep term too: imported without recursion.
        let mut deep = a;
        for _ in 0..100_000 {
            deep = from.app(g, &[deep]);
        }
        let mut to = Terms::default();
        to.sym("b"); // symbol numbers that differ from `from`'s
        let u = to.import(&from, t);
        assert_eq!(to.show(u), from.show(t));
        assert_eq!(to.import(&from, t), u, "hash-consed: the same id");
        let (f2, g2) = (to.sym("f"), to.sym("g"));
        assert_eq!(to.functor(u), Some((f2, 3)));
        assert_eq!(to.functor(to.args(u)[0]), Some((g2, 2)));
        let d = to.import(&from, deep);
        assert_eq!(to.max_depth(), from.max_depth());
        assert_eq!(to.functor(d), Some((g2, 1)));
    }

    #[test]
    fn equal_terms_share_an_id_and_lookups_find_them() {
        let mut t = Terms::default();
        let (f, a, b) = (t.sym("f"), t.sym("a"), t.sym("b"));
        let ca = t.constant(a);
        let cb = t.constant(b);
        let x = t.var(0);
        let fab = t.app(f, &[ca, cb]);
        assert_eq!(t.app(f, &[ca, cb]), fab);
        assert_ne!(t.app(f, &[cb, ca]), fab);
        assert_eq!(t.lookup_app(f, &[ca, cb]), Some(fab));
        assert_eq!(t.lookup_app(f, &[ca, ca]), None);
        let fax = t.app(f, &[ca, x]);
        assert!(t.is_ground(fab) && !t.is_ground(fax));
        assert_eq!(t.functor(fab), Some((f, 2)));
        assert_eq!(t.functor(x), None);
        // Many terms: the table grows and every one is still found.
        let ids: Vec<TermId> = (0..5000)
            .map(|i| {
                let s = t.sym(&i.to_string());
                let c = t.constant(s);
                t.app(f, &[c, fab])
            })
            .collect();
        for (i, &id) in ids.iter().enumerate() {
            let c = t.constant(t.find_sym(&i.to_string()).unwrap());
            assert_eq!(t.lookup_app(f, &[c, fab]), Some(id));
        }
        assert_eq!(t.show(fax), "(f a ?_0)");
        assert_eq!(t.max_depth(), 2);
    }

    /// The table grows by moving its slots a few per new term: at every step in between, every
    /// term is found once (the same id), whichever table holds it.
    #[test]
    fn terms_are_found_while_the_table_grows() {
        let mut t = Terms::default();
        let f = t.sym("f");
        let mut ids = Vec::new();
        for i in 0..40_000u32 {
            let s = t.sym(&format!("c{i}"));
            let c = t.constant(s);
            ids.push((c, t.app(f, &[c])));
            for k in [0, i / 3, i / 2, i] {
                let (c, id) = ids[k as usize];
                assert_eq!(t.lookup_app(f, &[c]), Some(id), "term {k} after {i}");
                assert_eq!(t.app(f, &[c]), id);
            }
        }
        assert_eq!(t.len(), 80_000);
        assert!(t.old.is_empty() || t.moved < t.old.len());
    }
}

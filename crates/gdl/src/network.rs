//! The fast reasoner: the rules grounded by domain analysis and compiled into straight-line
//! propositional programs over bitsets.
//!
//! # Grounding (domain analysis)
//! 1. The *relaxed model* ([`Engine::relaxed_model`](crate::eval::Engine::relaxed_model)) is computed once: negation ignored, `true(f)`
//!    for every `init(f)` and `next(f)`, `does(r, m)` for every `legal(r, m)`, to a fixpoint. It is the
//!    atom-level form of the classic argument-domain fixpoint: every atom that can hold in any
//!    reachable state (with any legal joint move) is in it, and it is usually far smaller than the
//!    product of the argument domains.
//! 2. *Static* relations (those that depend on neither `true` nor `does`) are evaluated once and
//!    folded away: a static literal is either dropped (it always holds) or kills its ground rule.
//! 3. Every rule with a dynamic head is instantiated over the relaxed model (`distinct` decided on
//!    the spot). The result is bounded by [`MAX_GROUND_RULES`]; beyond it, grounding gives up and the
//!    game falls back to the reference reasoner.
//!
//! # Compilation
//! Every ground atom becomes a proposition: `true(f)` reads bit `f` of the state, `does(r, m)`
//! compares the joint move, and each derived atom gets a slot in a scratch bitset. Three programs are
//! compiled, each holding only the ground rules its outputs need: *view* (`legal`, `terminal`),
//! *goal* and *next*. Rules run in dependency order (strongly connected components of the ground
//! atom graph, dependencies first); a head holds if any of its rules' bodies holds. Recursive
//! components are iterated to a fixpoint; stratification guarantees negated atoms are final before
//! they are read. Evaluating a program touches no allocator unless a program has more than 4096
//! derived atoms (the scratch bitset lives on the stack up to that size).

use std::collections::{HashMap, HashSet};

use smallvec::SmallVec;

use crate::desc::Literal;
use crate::eval::{bind_all, resolve, Facts};
use crate::fluents::FluentSet;
use crate::graph;
use crate::reference::{goal_value, Kb, NO_MOVE};
use crate::term::{Bindings, Sym, TermId};

/// Grounding gives up beyond this many ground rules.
pub const MAX_GROUND_RULES: usize = 500_000;

/// Grounding gives up when the relaxed model grows beyond this many atoms (it may be infinite).
pub const MAX_RELAXED_ATOMS: usize = 4 * MAX_GROUND_RULES;

/// A proposition reference in a compiled body: kind in bits 29–30 (0 fluent, 1 `does`, 2 derived),
/// negation in bit 31, index in bits 0–28.
type Lit = u32;
const KIND_FLUENT: u32 = 0;
const KIND_DOES: u32 = 1 << 29;
const KIND_DERIVED: u32 = 2 << 29;
const NEGATED: u32 = 1 << 31;
const INDEX: u32 = (1 << 29) - 1;

/// Scratch bits for the derived atoms of one evaluation.
pub type Scratch = SmallVec<[u64; 64]>;

#[derive(Clone, Copy, Debug)]
struct GroundRule {
    head: u32,
    /// `does` and derived literals, in `Program::lits`.
    start: u32,
    end: u32,
    /// Offset in `Program::masks` of this rule's state masks (`words` bits that must be set, then
    /// `words` bits that must be clear), or [`NO_MASK`] if its body reads no state bit.
    mask: u32,
}

const NO_MASK: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Block {
    start: u32,
    end: u32,
    fixpoint: bool,
}

/// A compiled program: blocks of rules in dependency order.
#[derive(Clone, Debug, Default)]
struct Program {
    rules: Vec<GroundRule>,
    lits: Vec<Lit>,
    masks: Vec<u64>,
    blocks: Vec<Block>,
    /// Rules run only when one `does` atom holds, by `does` id: the `next` rules with a positive
    /// `does` literal. Nothing reads their heads, so they can run last, and only the few whose move
    /// was played are looked at.
    buckets: Vec<(u32, u32)>,
    bucket_rules: Vec<GroundRule>,
}

/// The compiled rules of a game. Fluent and move ids are those of the [`Kb`] tables.
#[derive(Clone, Debug)]
pub struct Network {
    /// Fluents carried over unchanged by frame axioms `next(f) :- true(f)`.
    copy: Vec<u64>,
    /// Distinguishes networks in the per-thread view cache (clones share it: they are identical).
    id: u64,
    /// Words of a state bitset (fluents / 64, rounded up).
    words: usize,
    /// `does` id of (role, move), `u32::MAX` for none.
    does_index: Vec<Vec<u32>>,
    derived: usize,
    does: Vec<(u32, u32)>,
    view: Program,
    goal: Program,
    next: Program,
    /// Per role: (derived slot, move id), sorted by move id.
    legal: Vec<Vec<(u32, u32)>>,
    terminal: Option<u32>,
    /// Per role: (derived slot, goal value).
    goals: Vec<Vec<(u32, u8)>>,
    /// (derived slot, fluent id) of every `next` atom.
    next_out: Vec<(u32, u32)>,
    ground_rules: usize,
}

/// Relations that depend on neither `true` nor `does`.
fn static_relations(kb: &Kb) -> HashSet<Sym> {
    let kw = kb.desc.kw;
    let terms = &kb.desc.terms;
    // Dependents of each relation, then a search from `true` and `does`.
    let mut dependents: HashMap<Sym, Vec<Sym>> = HashMap::new();
    for r in &kb.desc.rules {
        let Some((h, _)) = terms.functor(r.head) else {
            continue;
        };
        for l in &r.body {
            if let Literal::Pos(a) | Literal::Neg(a) = *l {
                if let Some((f, _)) = terms.functor(a) {
                    dependents.entry(f).or_default().push(h);
                }
            }
        }
    }
    let mut dynamic: HashSet<Sym> = [kw.true_, kw.does].into_iter().collect();
    let mut queue: Vec<Sym> = dynamic.iter().copied().collect();
    while let Some(v) = queue.pop() {
        for &u in dependents.get(&v).map_or(&[][..], Vec::as_slice) {
            if dynamic.insert(u) {
                queue.push(u);
            }
        }
    }
    let mut all: HashSet<Sym> = HashSet::new();
    for r in &kb.desc.rules {
        if let Some((h, _)) = terms.functor(r.head) {
            all.insert(h);
        }
        for l in &r.body {
            if let Literal::Pos(a) | Literal::Neg(a) = *l {
                if let Some((f, _)) = terms.functor(a) {
                    all.insert(f);
                }
            }
        }
    }
    // The reasoner's outputs are read from derived slots, so they are never folded away, even when
    // their rules read neither `true` nor `does` (`legal(?p, noop) :- role(?p)`): their static
    // bodies fold to nothing and the ground rule holds unconditionally.
    let outputs = [kw.legal, kw.next, kw.goal, kw.terminal];
    all.retain(|s| !dynamic.contains(s) && !outputs.contains(s));
    all
}

/// What a ground literal became.
enum Folded {
    Always,
    Never,
    Lit(Lit),
}

struct Grounder<'a> {
    kb: &'a mut Kb,
    relaxed: Facts,
    statics: HashSet<Sym>,
    static_model: Facts,
    derived: HashMap<TermId, u32>,
    derived_atoms: Vec<TermId>,
    does: Vec<(u32, u32)>,
    does_ids: HashMap<(u32, u32), u32>,
}

impl Grounder<'_> {
    fn slot(&mut self, atom: TermId) -> u32 {
        let next = self.derived_atoms.len() as u32;
        *self.derived.entry(atom).or_insert_with(|| {
            self.derived_atoms.push(atom);
            next
        })
    }

    /// A ground positive atom as a literal.
    fn fold(&mut self, atom: Option<TermId>) -> Folded {
        let Some(atom) = atom else {
            return Folded::Never;
        };
        let kw = self.kb.desc.kw;
        let Some((rel, _)) = self.kb.desc.terms.functor(atom) else {
            return Folded::Never;
        };
        if rel == kw.true_ {
            let f = self.kb.desc.terms.args(atom)[0];
            return match self.kb.find_fluent(f) {
                Some(id) => Folded::Lit(KIND_FLUENT | id),
                None => Folded::Never,
            };
        }
        if rel == kw.does {
            let args = self.kb.desc.terms.args(atom);
            let (Some(r), Some(m)) = (self.kb.role_index(args[0]), self.kb.find_move(args[1]))
            else {
                return Folded::Never;
            };
            let key = (r as u32, m);
            let next = self.does.len() as u32;
            let id = *self.does_ids.entry(key).or_insert(next);
            if id == next {
                self.does.push(key);
            }
            return Folded::Lit(KIND_DOES | id);
        }
        if self.statics.contains(&rel) {
            return if self.static_model.contains(atom) {
                Folded::Always
            } else {
                Folded::Never
            };
        }
        if !self.relaxed.contains(atom) {
            return Folded::Never;
        }
        Folded::Lit(KIND_DERIVED | self.slot(atom))
    }

    /// Instantiates every dynamic rule over the relaxed model: (head slot, body literals).
    fn ground(&mut self) -> Result<Vec<(u32, Vec<Lit>)>, String> {
        let kw = self.kb.desc.kw;
        let skip = [kw.init, kw.role, kw.sees, kw.true_, kw.does];
        let mut out = Vec::new();
        let mut seen: HashSet<(u32, Vec<Lit>)> = HashSet::new();
        let mut sols = Vec::new();
        let mut b = Bindings::default();
        for ri in 0..self.kb.desc.rules.len() {
            let head_rel = self
                .kb
                .desc
                .terms
                .functor(self.kb.desc.rules[ri].head)
                .map(|f| f.0);
            let Some(head_rel) = head_rel else { continue };
            if self.statics.contains(&head_rel) || skip.contains(&head_rel) {
                continue;
            }
            sols.clear();
            let capped = self.kb.engine.solutions(
                &self.kb.desc.terms,
                &self.kb.desc.rules,
                ri,
                &self.relaxed,
                true,
                &mut sols,
                MAX_GROUND_RULES + 1,
            );
            if capped {
                return Err(format!(
                    "a rule has more than {MAX_GROUND_RULES} instances over the relaxed model"
                ));
            }
            let vars = self.kb.desc.rules[ri].vars as usize;
            let body = self.kb.desc.rules[ri].body.clone();
            let head = self.kb.desc.rules[ri].head;
            'solutions: for sol in sols.chunks(vars.max(1)) {
                bind_all(&mut b, sol, vars);
                let Some(h) = self.kb.desc.terms.substitute(head, &b) else {
                    continue;
                };
                let mut lits = Vec::with_capacity(body.len());
                for lit in &body {
                    match *lit {
                        Literal::Pos(a) => match self.fold(resolve(&self.kb.desc.terms, a, &b)) {
                            Folded::Always => {}
                            Folded::Never => continue 'solutions,
                            Folded::Lit(l) => lits.push(l),
                        },
                        Literal::Neg(a) => match self.fold(resolve(&self.kb.desc.terms, a, &b)) {
                            Folded::Always => continue 'solutions,
                            Folded::Never => {}
                            Folded::Lit(l) => lits.push(l | NEGATED),
                        },
                        Literal::Distinct(..) => {} // decided by the join
                    }
                }
                let h = self.slot(h);
                // `or` expansion and symmetric rules often produce the same ground rule twice.
                lits.sort_unstable();
                lits.dedup();
                if !seen.insert((h, lits.clone())) {
                    continue;
                }
                out.push((h, lits));
                if out.len() > MAX_GROUND_RULES {
                    return Err(format!(
                        "grounding produces more than {MAX_GROUND_RULES} ground rules"
                    ));
                }
                if vars == 0 {
                    break;
                }
            }
        }
        Ok(out)
    }
}

impl Network {
    /// Grounds and compiles the rules of `kb`, registering every fluent and move the relaxed model
    /// knows of in `kb`'s tables. `Err` says why the fast reasoner does not apply.
    pub fn build(kb: &mut Kb) -> Result<Network, String> {
        let kw = kb.desc.kw;
        let Some(relaxed) =
            kb.engine
                .relaxed_model(&kw, &mut kb.desc.terms, &kb.desc.rules, MAX_RELAXED_ATOMS)
        else {
            return Err(format!(
                "the relaxed model (every atom of every reachable state, negation ignored) has more \
                 than {MAX_RELAXED_ATOMS} atoms"
            ));
        };
        let static_model = kb.engine.model(&mut kb.desc.terms, &kb.desc.rules, &[]);
        // Fluents: initial ones first (so ids match the reference reasoner's), then the others.
        for &a in static_model
            .of((kw.init, 1))
            .iter()
            .chain(relaxed.of((kw.true_, 1)))
        {
            let f = kb.desc.terms.args(a)[0];
            kb.fluent_id(f);
        }
        for &a in relaxed.of((kw.legal, 2)) {
            let m = kb.desc.terms.args(a)[1];
            kb.move_id(m);
        }
        let statics = static_relations(kb);
        let mut g = Grounder {
            kb,
            relaxed,
            statics,
            static_model,
            derived: HashMap::new(),
            derived_atoms: Vec::new(),
            does: Vec::new(),
            does_ids: HashMap::new(),
        };
        let rules = g.ground()?;
        let derived = g.derived_atoms.len();
        if derived > INDEX as usize {
            return Err("too many ground atoms".into());
        }
        // Outputs.
        let roles = g.kb.roles.len();
        let mut legal = vec![Vec::new(); roles];
        let mut goals = vec![Vec::new(); roles];
        let mut terminal = None;
        let mut next_out = Vec::new();
        for (slot, &atom) in g.derived_atoms.iter().enumerate() {
            let slot = slot as u32;
            let terms = &g.kb.desc.terms;
            let Some((rel, _)) = terms.functor(atom) else {
                continue;
            };
            let args = terms.args(atom).to_vec();
            if rel == kw.legal {
                if let (Some(r), Some(m)) = (g.kb.role_index(args[0]), g.kb.find_move(args[1])) {
                    legal[r].push((slot, m));
                }
            } else if rel == kw.goal {
                if let (Some(r), Some(v)) =
                    (g.kb.role_index(args[0]), goal_value(&g.kb.desc, args[1]))
                {
                    goals[r].push((slot, v));
                }
            } else if rel == kw.terminal {
                terminal = Some(slot);
            } else if rel == kw.next {
                if let Some(f) = g.kb.find_fluent(args[0]) {
                    next_out.push((slot, f));
                }
            }
        }
        for l in &mut legal {
            l.sort_unstable_by_key(|&(_, m)| m);
        }
        // Dependency order over derived atoms.
        let mut edges = vec![Vec::new(); derived];
        for (h, lits) in &rules {
            for &l in lits {
                if l & (3 << 29) == KIND_DERIVED {
                    edges[*h as usize].push((l & INDEX) as usize);
                }
            }
        }
        let order = graph::sccs(&edges);
        let words = g.kb.fluents.len().div_ceil(64).max(1);
        let mut read = vec![false; derived];
        for (_, lits) in &rules {
            for &l in lits {
                if l & (3 << 29) == KIND_DERIVED {
                    read[(l & INDEX) as usize] = true;
                }
            }
        }
        let is_next: Vec<bool> = {
            let mut v = vec![false; derived];
            for &(s, _) in &next_out {
                v[s as usize] = true;
            }
            v
        };
        // Frame axioms `next(f) :- true(f)` become one word-wide copy instead of a rule per fluent.
        let mut next_fluent = vec![u32::MAX; derived];
        for &(s, f) in &next_out {
            next_fluent[s as usize] = f;
        }
        let mut copy = vec![0u64; words];
        let rules: Vec<(u32, Vec<Lit>)> = rules
            .into_iter()
            .filter(|(h, lits)| match lits.as_slice() {
                [l] if l & (3 << 29) == KIND_FLUENT
                    && l & NEGATED == 0
                    && next_fluent[*h as usize] == (l & INDEX)
                    && !read[*h as usize] =>
                {
                    let f = (l & INDEX) as usize;
                    copy[f / 64] |= 1 << (f % 64);
                    false
                }
                _ => true,
            })
            .collect();
        let mut rules_of = vec![Vec::new(); derived];
        for (i, (h, _)) in rules.iter().enumerate() {
            rules_of[*h as usize].push(i);
        }
        let n_does = g.does.len();
        let compile = |outputs: &[u32], bucketed: bool| -> Program {
            let mut needed = vec![false; derived];
            let mut stack: Vec<usize> = outputs.iter().map(|&s| s as usize).collect();
            while let Some(v) = stack.pop() {
                if !std::mem::replace(&mut needed[v], true) {
                    stack.extend(edges[v].iter().copied());
                }
            }
            let mut p = Program::default();
            let mut buckets: Vec<Vec<GroundRule>> =
                vec![Vec::new(); if bucketed { n_does } else { 0 }];
            for comp in &order {
                if !needed[comp[0]] {
                    continue;
                }
                let fixpoint = comp.len() > 1 || edges[comp[0]].contains(&comp[0]);
                let start = p.rules.len() as u32;
                for &v in comp {
                    for &ri in &rules_of[v] {
                        let (h, lits) = &rules[ri];
                        let mut rest: Vec<Lit> = lits
                            .iter()
                            .copied()
                            .filter(|&l| l & (3 << 29) != KIND_FLUENT)
                            .collect();
                        // `does` tests first: they fail most often and cost one comparison.
                        rest.sort_by_key(|&l| (l & (3 << 29) != KIND_DOES) as u8);
                        let fluent_lits: Vec<Lit> = lits
                            .iter()
                            .copied()
                            .filter(|&l| l & (3 << 29) == KIND_FLUENT)
                            .collect();
                        let mask = if fluent_lits.is_empty() {
                            NO_MASK
                        } else {
                            let at = p.masks.len();
                            p.masks.resize(at + 2 * words, 0);
                            for l in fluent_lits {
                                let i = (l & INDEX) as usize;
                                let w = at + if l & NEGATED != 0 { words } else { 0 } + i / 64;
                                p.masks[w] |= 1 << (i % 64);
                            }
                            at as u32
                        };
                        let s = p.lits.len() as u32;
                        p.lits.extend_from_slice(&rest);
                        let rule = GroundRule {
                            head: *h,
                            start: s,
                            end: p.lits.len() as u32,
                            mask,
                        };
                        let key = rest
                            .iter()
                            .find(|&&l| l & (3 << 29) == KIND_DOES && l & NEGATED == 0);
                        match key {
                            Some(&k) if bucketed && is_next[*h as usize] && !read[*h as usize] => {
                                buckets[(k & INDEX) as usize].push(rule)
                            }
                            _ => p.rules.push(rule),
                        }
                    }
                }
                let end = p.rules.len() as u32;
                match p.blocks.last_mut() {
                    _ if end == start => {}
                    // Consecutive one-pass components run as one block: order is all they need.
                    Some(last) if !fixpoint && !last.fixpoint && last.end == start => {
                        last.end = end
                    }
                    _ => p.blocks.push(Block {
                        start,
                        end,
                        fixpoint,
                    }),
                }
            }
            for b in buckets {
                let start = p.bucket_rules.len() as u32;
                p.bucket_rules.extend(b);
                p.buckets.push((start, p.bucket_rules.len() as u32));
            }
            p
        };
        let view_out: Vec<u32> = legal
            .iter()
            .flatten()
            .map(|&(s, _)| s)
            .chain(terminal)
            .collect();
        let goal_out: Vec<u32> = goals.iter().flatten().map(|&(s, _)| s).collect();
        let next_slots: Vec<u32> = next_out.iter().map(|&(s, _)| s).collect();
        let view = compile(&view_out, false);
        let goal = compile(&goal_out, false);
        let next = compile(&next_slots, true);
        let uses_does = |p: &Program| p.lits.iter().any(|&l| l & (3 << 29) == KIND_DOES);
        if uses_does(&view) || uses_does(&goal) {
            return Err("legal, terminal or goal depends on does".into());
        }
        let mut does_index = vec![vec![u32::MAX; g.kb.moves.len()]; roles];
        for (id, &(r, m)) in g.does.iter().enumerate() {
            does_index[r as usize][m as usize] = id as u32;
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Ok(Network {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            words,
            copy,
            does_index,
            derived,
            does: g.does,
            view,
            goal,
            next,
            legal,
            terminal,
            goals,
            next_out,
            ground_rules: rules.len(),
        })
    }

    /// Rules (in blocks, in `does` buckets) of the view, goal and next programs: their sizes.
    pub fn program_sizes(&self) -> [(usize, usize); 3] {
        [&self.view, &self.goal, &self.next].map(|p| (p.rules.len(), p.bucket_rules.len()))
    }

    /// The number of ground rules.
    pub fn ground_rules(&self) -> usize {
        self.ground_rules
    }

    /// A zeroed scratch bitset for one evaluation.
    #[inline]
    pub fn scratch(&self) -> Scratch {
        SmallVec::from_elem(0, self.derived.div_ceil(64))
    }

    #[inline(always)]
    fn holds(&self, lit: Lit, joint: &[u32], scratch: &[u64]) -> bool {
        let i = (lit & INDEX) as usize;
        let value = if lit & (3 << 29) == KIND_DOES {
            let (r, m) = self.does[i];
            joint.get(r as usize) == Some(&m)
        } else {
            scratch[i / 64] >> (i % 64) & 1 == 1
        };
        value != (lit & NEGATED != 0)
    }

    /// Whether a rule's body holds: its state masks, then its `does` and derived literals.
    #[inline(always)]
    fn body(
        &self,
        p: &Program,
        r: &GroundRule,
        state: &[u64],
        joint: &[u32],
        scratch: &[u64],
    ) -> bool {
        if r.mask != NO_MASK {
            let m = r.mask as usize;
            let (pos, neg) = p.masks[m..m + 2 * self.words].split_at(self.words);
            for ((&s, &p), &n) in state.iter().zip(pos).zip(neg) {
                if s & p != p || s & n != 0 {
                    return false;
                }
            }
        }
        p.lits[r.start as usize..r.end as usize]
            .iter()
            .all(|&l| self.holds(l, joint, scratch))
    }

    fn run(&self, p: &Program, state: &FluentSet, joint: &[u32], scratch: &mut [u64]) {
        // The state padded to the network's width, so that mask tests need no bounds logic.
        let mut padded: SmallVec<[u64; 8]> = SmallVec::from_slice(state.words());
        padded.resize(self.words.max(padded.len()), 0);
        let state = &padded[..];
        for block in &p.blocks {
            let rules = &p.rules[block.start as usize..block.end as usize];
            loop {
                let mut changed = false;
                for r in rules {
                    let h = r.head as usize;
                    if scratch[h / 64] >> (h % 64) & 1 == 1 {
                        continue; // already holds: another rule for the same head fired
                    }
                    if self.body(p, r, state, joint, scratch) {
                        scratch[h / 64] |= 1 << (h % 64);
                        changed = true;
                    }
                }
                if !block.fixpoint || !changed {
                    break;
                }
            }
        }
        if p.buckets.is_empty() {
            return;
        }
        for (r, &m) in joint.iter().enumerate() {
            let Some(&d) = self.does_index.get(r).and_then(|v| v.get(m as usize)) else {
                continue;
            };
            let Some(&(start, end)) = p.buckets.get(d as usize) else {
                continue;
            };
            for rule in &p.bucket_rules[start as usize..end as usize] {
                let h = rule.head as usize;
                if scratch[h / 64] >> (h % 64) & 1 == 0 && self.body(p, rule, state, joint, scratch)
                {
                    scratch[h / 64] |= 1 << (h % 64);
                }
            }
        }
    }

    /// This network's identity for caches (clones share it).
    #[inline]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Evaluates the view program (`legal`, `terminal`) for `state` into `scratch`.
    #[inline]
    pub fn eval_view(&self, state: &FluentSet, scratch: &mut Scratch) {
        scratch.clear();
        scratch.resize(self.derived.div_ceil(64), 0);
        self.run(&self.view, state, &[], scratch);
    }

    /// Evaluates the goal program for `state` into `scratch`.
    pub fn eval_goal(&self, state: &FluentSet, scratch: &mut Scratch) {
        scratch.clear();
        scratch.resize(self.derived.div_ceil(64), 0);
        self.run(&self.goal, state, &[], scratch);
    }

    #[inline(always)]
    fn bit(scratch: &[u64], slot: u32) -> bool {
        scratch[slot as usize / 64] >> (slot % 64) & 1 == 1
    }

    /// After [`eval_view`](Network::eval_view): whether the state is terminal.
    #[inline]
    pub fn terminal(&self, scratch: &Scratch) -> bool {
        self.terminal.is_some_and(|s| Self::bit(scratch, s))
    }

    /// After [`eval_view`](Network::eval_view): role `r`'s legal move count and its first legal move.
    #[inline]
    pub fn legal_summary(&self, scratch: &Scratch, r: usize) -> (usize, u32) {
        let mut count = 0;
        let mut first = NO_MOVE;
        for &(s, m) in &self.legal[r] {
            if Self::bit(scratch, s) {
                if count == 0 {
                    first = m;
                }
                count += 1;
            }
        }
        (count, first)
    }

    /// After [`eval_view`](Network::eval_view): role `r`'s legal moves, in increasing id order.
    pub fn legal_moves(&self, scratch: &Scratch, r: usize, out: &mut impl Extend<u32>) {
        out.extend(
            self.legal[r]
                .iter()
                .filter(|&&(s, _)| Self::bit(scratch, s))
                .map(|&(_, m)| m),
        );
    }

    /// After [`eval_goal`](Network::eval_goal): role `r`'s goal value (the largest if several hold).
    pub fn goal(&self, scratch: &Scratch, r: usize) -> Option<u8> {
        self.goals[r]
            .iter()
            .filter(|&&(s, _)| Self::bit(scratch, s))
            .map(|&(_, v)| v)
            .max()
    }

    /// The successor of `state` under `joint` (`joint[r]` is role `r`'s move id).
    pub fn next(&self, state: &FluentSet, joint: &[u32], scratch: &mut Scratch) -> FluentSet {
        scratch.clear();
        scratch.resize(self.derived.div_ceil(64), 0);
        self.run(&self.next, state, joint, scratch);
        let mut words: SmallVec<[u64; 8]> = self
            .copy
            .iter()
            .zip(state.words())
            .map(|(c, s)| c & s)
            .collect();
        words.resize(self.words, 0);
        for &(s, f) in &self.next_out {
            let bit = scratch[s as usize / 64] >> (s % 64) & 1;
            words[f as usize / 64] |= bit << (f % 64);
        }
        FluentSet::from_words(&words)
    }
}

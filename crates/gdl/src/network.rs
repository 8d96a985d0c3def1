//! The fast reasoner: a game's ground rules ([`crate::ground`]) compiled into straight-line
//! propositional programs over bitsets.
//!
//! Every ground atom becomes a proposition: `true(f)` reads bit `f` of the state, `does(r, m)`
//! compares the joint move, and each derived atom gets a slot in a scratch bitset. Three programs are
//! compiled, each holding only the ground rules its outputs need: *view* (`legal`, `terminal`),
//! *goal* and *next*. Rules run in dependency order (strongly connected components of the ground
//! atom graph, dependencies first); a head holds if any of its rules' bodies holds, and a body is
//! read state bits first, so most rules fail on one load. Recursive components are iterated to a
//! fixpoint; ground stratification ([`crate::ground`]) guarantees negated atoms are final before
//! they are read. Frame axioms `next(f) :- true(f)` become one word-wide copy, and `next` rules that
//! need a move run only when that move is played. Evaluating a program allocates nothing: the
//! scratch bits and the successor's buffer are reused.

use smallvec::SmallVec;

use crate::fluents::FluentSet;
use crate::graph;
use crate::ground::{
    GroundProgram, Lit, INDEX, KIND, KIND_DERIVED, KIND_DOES, KIND_FLUENT, NEGATED,
};
use crate::reference::{goal_value, Kb, NO_MOVE};

/// Scratch bits for the derived atoms of one evaluation.
pub type Scratch = Vec<u64>;

#[derive(Clone, Copy, Debug)]
struct CompiledRule {
    head: u32,
    /// Its literals in `Program::lits`: state literals first, then `does`, then derived atoms.
    start: u32,
    end: u32,
}

#[derive(Clone, Copy, Debug)]
struct Block {
    start: u32,
    end: u32,
    fixpoint: bool,
}

/// A compiled program: blocks of rules in dependency order.
#[derive(Clone, Debug, Default)]
struct Program {
    rules: Vec<CompiledRule>,
    lits: Vec<Lit>,
    blocks: Vec<Block>,
    /// Rules run only when one `does` atom holds, by `does` id: the `next` rules with a positive
    /// `does` literal. Nothing reads their heads, so they can run last, and only the few whose move
    /// was played are looked at.
    buckets: Vec<(u32, u32)>,
    bucket_rules: Vec<CompiledRule>,
    /// Like `buckets`, for the rules with a positive `does` literal and no derived one (the
    /// projections of moves that decomposition creates): they run first, since others read them.
    pre_buckets: Vec<(u32, u32)>,
    pre_rules: Vec<CompiledRule>,
}

/// The compiled rules of a game. Fluent and move ids are those of the [`Kb`] tables.
#[derive(Clone, Debug)]
pub struct Network {
    /// Fluents carried over unchanged by frame axioms `next(f) :- true(f)`.
    copy: Vec<u64>,
    /// Distinguishes networks in the per-thread view cache (clones share it: they are identical).
    id: u64,
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

/// The derived slots a game's answers are read from.
struct Outputs {
    legal: Vec<Vec<(u32, u32)>>,
    terminal: Option<u32>,
    goals: Vec<Vec<(u32, u8)>>,
    next_out: Vec<(u32, u32)>,
}

impl Outputs {
    fn new(kb: &Kb, g: &GroundProgram) -> Outputs {
        let kw = kb.desc.kw;
        let terms = &kb.desc.terms;
        let roles = kb.roles.len();
        let mut out = Outputs {
            legal: vec![Vec::new(); roles],
            terminal: None,
            goals: vec![Vec::new(); roles],
            next_out: Vec::new(),
        };
        for (slot, &atom) in g.atoms.iter().enumerate() {
            let slot = slot as u32;
            let Some((rel, _)) = terms.functor(atom) else {
                continue;
            };
            let args = terms.args(atom);
            if rel == kw.legal {
                if let (Some(r), Some(m)) = (kb.role_index(args[0]), kb.find_move(args[1])) {
                    out.legal[r].push((slot, m));
                }
            } else if rel == kw.goal {
                if let (Some(r), Some(v)) = (kb.role_index(args[0]), goal_value(&kb.desc, args[1]))
                {
                    out.goals[r].push((slot, v));
                }
            } else if rel == kw.terminal {
                out.terminal = Some(slot);
            } else if rel == kw.next {
                if let Some(f) = kb.find_fluent(args[0]) {
                    out.next_out.push((slot, f));
                }
            }
        }
        for l in &mut out.legal {
            l.sort_unstable_by_key(|&(_, m)| m);
        }
        out
    }

    fn view_slots(&self) -> Vec<u32> {
        self.legal
            .iter()
            .flatten()
            .map(|&(s, _)| s)
            .chain(self.terminal)
            .collect()
    }

    fn goal_slots(&self) -> Vec<u32> {
        self.goals.iter().flatten().map(|&(s, _)| s).collect()
    }

    fn next_slots(&self) -> Vec<u32> {
        self.next_out.iter().map(|&(s, _)| s).collect()
    }
}

/// Compiles the ground rules an output set needs into a [`Program`].
struct Compiler<'a> {
    g: &'a GroundProgram,
    edges: &'a [Vec<usize>],
    /// Strongly connected components of the derived atoms, dependencies first.
    order: &'a [Vec<usize>],
    rules_of: &'a [Vec<usize>],
    read: &'a [bool],
    next_fluent: &'a [u32],
}

impl Compiler<'_> {
    /// The program computing `outputs`; with `buckets = Some(does ids)`, rules whose head nothing
    /// reads and that need a positive `does` go to that move's bucket.
    fn compile(&self, outputs: &[u32], buckets: Option<usize>) -> Program {
        let mut needed = vec![false; self.edges.len()];
        let mut stack: Vec<usize> = outputs.iter().map(|&s| s as usize).collect();
        while let Some(v) = stack.pop() {
            if !std::mem::replace(&mut needed[v], true) {
                stack.extend(self.edges[v].iter().copied());
            }
        }
        let mut p = Program::default();
        let mut bucketed: Vec<Vec<CompiledRule>> = vec![Vec::new(); buckets.unwrap_or(0)];
        let mut pre: Vec<Vec<CompiledRule>> = vec![Vec::new(); buckets.unwrap_or(0)];
        for comp in self.order {
            if !needed[comp[0]] {
                continue;
            }
            let fixpoint = comp.len() > 1 || self.edges[comp[0]].contains(&comp[0]);
            let start = p.rules.len() as u32;
            for &v in comp {
                for &ri in &self.rules_of[v] {
                    let mut lits: SmallVec<[Lit; 16]> = self.g.body(ri).iter().copied().collect();
                    // State bits first (one load each), then `does` (one comparison), then derived.
                    lits.sort_by_key(|&l| (l & KIND != KIND_FLUENT, l & KIND != KIND_DOES));
                    let s = p.lits.len() as u32;
                    p.lits.extend_from_slice(&lits);
                    let rule = CompiledRule {
                        head: v as u32,
                        start: s,
                        end: p.lits.len() as u32,
                    };
                    let key = lits
                        .iter()
                        .find(|&&l| l & KIND == KIND_DOES && l & NEGATED == 0);
                    let derived = lits.iter().any(|&l| l & KIND == KIND_DERIVED);
                    match key {
                        Some(&k) if buckets.is_some() && !derived => {
                            pre[(k & INDEX) as usize].push(rule)
                        }
                        Some(&k)
                            if buckets.is_some()
                                && self.next_fluent[v] != u32::MAX
                                && !self.read[v] =>
                        {
                            bucketed[(k & INDEX) as usize].push(rule)
                        }
                        _ => p.rules.push(rule),
                    }
                }
            }
            let end = p.rules.len() as u32;
            match p.blocks.last_mut() {
                _ if end == start => {}
                // Consecutive one-pass components run as one block: order is all they need.
                Some(last) if !fixpoint && !last.fixpoint && last.end == start => last.end = end,
                _ => p.blocks.push(Block {
                    start,
                    end,
                    fixpoint,
                }),
            }
        }
        for b in bucketed {
            let start = p.bucket_rules.len() as u32;
            p.bucket_rules.extend(b);
            p.buckets.push((start, p.bucket_rules.len() as u32));
        }
        for b in pre {
            let start = p.pre_rules.len() as u32;
            p.pre_rules.extend(b);
            p.pre_buckets.push((start, p.pre_rules.len() as u32));
        }
        p
    }
}

impl Network {
    /// Compiles the ground program `g` of `kb`'s rules (whose tables give fluent and move ids).
    /// `Err` says why the fast reasoner does not apply.
    pub fn build(kb: &Kb, g: &GroundProgram) -> Result<Network, String> {
        let kw = kb.desc.kw;
        let derived = g.atoms.len();
        if derived > INDEX as usize || kb.fluents.len() > INDEX as usize {
            return Err("too many ground atoms".into());
        }
        let outputs = Outputs::new(kb, g);
        // Dependency order over derived atoms.
        let mut edges = vec![Vec::new(); derived];
        let mut read = vec![false; derived];
        for i in 0..g.len() {
            for &l in g.body(i) {
                if l & KIND == KIND_DERIVED {
                    edges[g.heads[i] as usize].push((l & INDEX) as usize);
                    read[(l & INDEX) as usize] = true;
                }
            }
        }
        let order = graph::sccs(&edges);
        let words = kb.fluents.len().div_ceil(64).max(1);
        // Frame axioms `next(f) :- true(f)` become one word-wide copy instead of a rule per fluent.
        let mut next_fluent = vec![u32::MAX; derived];
        for &(s, f) in &outputs.next_out {
            next_fluent[s as usize] = f;
        }
        let mut copy = vec![0u64; words];
        let mut rules_of = vec![Vec::new(); derived];
        let mut kept = 0;
        for i in 0..g.len() {
            let h = g.heads[i] as usize;
            if let [l] = g.body(i) {
                if l & KIND == KIND_FLUENT
                    && l & NEGATED == 0
                    && next_fluent[h] == l & INDEX
                    && !read[h]
                {
                    let f = (l & INDEX) as usize;
                    copy[f / 64] |= 1 << (f % 64);
                    continue;
                }
            }
            rules_of[h].push(i);
            kept += 1;
        }
        let ctx = Compiler {
            g,
            edges: &edges,
            order: &order,
            rules_of: &rules_of,
            read: &read,
            next_fluent: &next_fluent,
        };
        let view = ctx.compile(&outputs.view_slots(), None);
        let goal = ctx.compile(&outputs.goal_slots(), None);
        let next = ctx.compile(&outputs.next_slots(), Some(g.does.len()));
        let uses_does = |p: &Program| p.lits.iter().any(|&l| l & KIND == KIND_DOES);
        if uses_does(&view) || uses_does(&goal) {
            return Err("legal, terminal or goal depends on does".into());
        }
        let roles = kb.roles.len();
        let mut does_index = vec![vec![u32::MAX; kb.moves.len()]; roles];
        for (id, &(r, m)) in g.does.iter().enumerate() {
            does_index[r as usize][m as usize] = id as u32;
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let _ = kw;
        Ok(Network {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            copy,
            does_index,
            derived,
            does: g.does.clone(),
            view,
            goal,
            next,
            legal: outputs.legal,
            terminal: outputs.terminal,
            goals: outputs.goals,
            next_out: outputs.next_out,
            ground_rules: kept,
        })
    }

    /// Rules (in blocks, in `does` buckets) of the view, goal and next programs: their sizes.
    pub fn program_sizes(&self) -> [(usize, usize); 3] {
        [&self.view, &self.goal, &self.next]
            .map(|p| (p.rules.len(), p.bucket_rules.len() + p.pre_rules.len()))
    }

    /// The number of ground rules.
    pub fn ground_rules(&self) -> usize {
        self.ground_rules
    }

    #[inline(always)]
    fn holds(&self, lit: Lit, state: &[u64], joint: &[u32], scratch: &[u64]) -> bool {
        let i = (lit & INDEX) as usize;
        let value = match lit & KIND {
            KIND_FLUENT => state.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1),
            KIND_DOES => {
                let (r, m) = self.does[i];
                joint.get(r as usize) == Some(&m)
            }
            _ => scratch[i / 64] >> (i % 64) & 1 == 1,
        };
        value != (lit & NEGATED != 0)
    }

    /// Whether a rule's body holds (state literals come first: most rules fail on one bit).
    #[inline(always)]
    fn body(
        &self,
        p: &Program,
        r: &CompiledRule,
        state: &[u64],
        joint: &[u32],
        scratch: &[u64],
    ) -> bool {
        p.lits[r.start as usize..r.end as usize]
            .iter()
            .all(|&l| self.holds(l, state, joint, scratch))
    }

    fn run(&self, p: &Program, state: &FluentSet, joint: &[u32], scratch: &mut [u64]) {
        let state = state.words();
        self.run_buckets(p, &p.pre_buckets, &p.pre_rules, state, joint, scratch);
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
        self.run_buckets(p, &p.buckets, &p.bucket_rules, state, joint, scratch);
    }

    /// Runs the rules of the buckets of the `does` atoms of `joint`.
    fn run_buckets(
        &self,
        p: &Program,
        buckets: &[(u32, u32)],
        rules: &[CompiledRule],
        state: &[u64],
        joint: &[u32],
        scratch: &mut [u64],
    ) {
        if buckets.is_empty() {
            return;
        }
        for (r, &m) in joint.iter().enumerate() {
            let Some(&d) = self.does_index.get(r).and_then(|v| v.get(m as usize)) else {
                continue;
            };
            let Some(&(start, end)) = buckets.get(d as usize) else {
                continue;
            };
            for rule in &rules[start as usize..end as usize] {
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

    /// The successor of `state` under `joint` (`joint[r]` is role `r`'s move id), written into
    /// `out` (whose buffer is reused: no allocation once it is large enough).
    pub fn next_into(
        &self,
        state: &FluentSet,
        joint: &[u32],
        scratch: &mut Scratch,
        out: &mut FluentSet,
    ) {
        scratch.clear();
        scratch.resize(self.derived.div_ceil(64), 0);
        self.run(&self.next, state, joint, scratch);
        let words = out.words_mut();
        words.clear();
        words.extend(
            self.copy
                .iter()
                .zip(state.words().iter().chain(std::iter::repeat(&0)))
                .map(|(c, s)| c & s),
        );
        for &(s, f) in &self.next_out {
            let bit = scratch[s as usize / 64] >> (s % 64) & 1;
            words[f as usize / 64] |= bit << (f % 64);
        }
        out.trim();
    }
}

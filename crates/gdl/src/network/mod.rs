//! The fast reasoner: a game's ground rules ([`crate::grounding`]) compiled into straight-line
//! propositional programs over bitsets.
//!
//! Every ground atom becomes a proposition: `true(f)` reads bit `f` of the state, `does(r, m)`
//! compares the joint move, and each derived atom gets a slot in a scratch bitset. Three programs are
//! compiled, each holding only the ground rules its outputs need: *view* (`legal`, `terminal`, and
//! the atoms *next* needs that do not depend on the move, unless that makes it recursive), *goal*
//! and *next*. A view without recursion is updated from the previous state's view by the fluents
//! that differ ([`crate::network::differential`]); otherwise programs run whole. Rules run in dependency order (strongly connected components of the ground
//! atom graph, dependencies first); a head holds if any of its rules' bodies holds, and a body is
//! read state bits first, so most rules fail on one load. Recursive components are iterated to a
//! fixpoint; ground stratification ([`crate::grounding`]) guarantees negated atoms are final before
//! they are read. Frame axioms `next(f) :- true(f)` become one word-wide copy, conditional ones
//! `next(f) :- does(r, m), true(f)` a word mask per move, and `next` rules that need a move run
//! only when that move is played. Evaluating a program allocates nothing: the
//! scratch bits and the successor's buffer are reused.

pub(crate) mod atom_index;
pub mod differential;

use smallvec::SmallVec;

use crate::description::graph;
use crate::game::fluents::FluentSet;
use crate::grounding::{
    GroundProgram, Lit, INDEX, KIND, KIND_DERIVED, KIND_DOES, KIND_FLUENT, NEGATED,
};
use crate::network::atom_index::AtomIndex;
use crate::reference::{goal_value, Kb};
use crate::syntax::term::Sym;
use differential::{Differential, Leaves, Model, GATE_READERS};
use game_trait::hash::FastSet;

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
    /// This block's rules that need a move, in `Program::moved`, sorted by `does` id: only those
    /// of the moves played are looked at.
    moved_start: u32,
    moved_end: u32,
    /// A one-pass block's rules as segments sharing their first literal (`Program::segments`).
    seg_start: u32,
    seg_end: u32,
}

/// The "first literal" of a segment of rules with empty bodies.
const ALWAYS: Lit = u32::MAX;

/// Consecutive rules of a one-pass block whose first literal is `lit`: when it fails, all of
/// them are skipped at once (a board's rules share their first cell test by the dozen).
#[derive(Clone, Copy, Debug)]
struct Segment {
    lit: Lit,
    start: u32,
    end: u32,
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
    /// Conditional frame axioms `next(f) :- does(r, m), true(f)`, by `does` id: (word, fluents)
    /// pairs `keeps[keep_start[d]..keep_start[d + 1]]` of the state carried over when `d` is played
    /// (a board game keeps every cell its move does not touch, a rule per cell and move).
    keep_start: Vec<u32>,
    keeps: Vec<(u32, u64)>,
    /// Guarded frame axioms `next(f) :- true(f), not g`, whose head nothing reads: per word, the
    /// fluents carried over unless their guard holds (a board game keeps every cell its move does
    /// not touch, a rule per cell reading a derived `touched` atom). Empty if there are none.
    guarded: Vec<u64>,
    /// (bit of the guard `g`, word, fluents it stops) of those axioms, by guard bit.
    guards: Vec<(u32, u32, u64)>,
    /// (`does` id, rule) of the blocks' rules that need a move (see [`Block`]).
    moved: Vec<(u32, CompiledRule)>,
    segments: Vec<Segment>,
    /// Fixpoint blocks: per rule index, the rules of its block that read its head positively
    /// (`readers[reader_start[r]..reader_start[r + 1]]`), so that a new atom wakes only them.
    reader_start: Vec<u32>,
    readers: Vec<u32>,
}

impl Program {
    /// The head bits of all its rules.
    fn heads(&self) -> impl Iterator<Item = u32> + '_ {
        let moved = self.moved.iter().map(|(_, r)| r);
        self.rules
            .iter()
            .chain(&self.bucket_rules)
            .chain(&self.pre_rules)
            .chain(moved)
            .map(|r| r.head)
    }
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
    layout: Layout,
    view: Program,
    goal: Program,
    next: Program,
    /// Per role: (bit of the `legal` atom, move id), sorted by move id.
    legal: Vec<Vec<(u32, u32)>>,
    /// Per role: its `legal` bits by word.
    legal_index: Vec<AtomIndex>,
    terminal: Option<u32>,
    /// Per role: (bit of the `goal` atom, goal value).
    goals: Vec<Vec<(u32, u8)>>,
    /// The `next` atoms some rule derives, with their fluents: only those that hold are read.
    next_out: AtomIndex,
    ground_rules: usize,
    /// The view program indexed for differential evaluation, when it has no recursion.
    diff: Option<Differential>,
    /// A hybrid's second pass over a view and over a successor, once its inputs are known
    /// ([`eval_view_again`](Network::eval_view_again)); empty otherwise.
    again: [Again; 2],
}

/// The rules that read a hybrid's inputs of one kind, directly or through other atoms, and the
/// bits of their heads: what a second pass clears and evaluates again once the inputs are set.
#[derive(Clone, Debug, Default)]
struct Again {
    program: Program,
    heads: Vec<u32>,
}

/// The derived slots a game's answers are read from.
pub(crate) struct Outputs {
    /// Per role: (slot of the `legal` atom, move id), sorted by move id.
    pub(crate) legal: Vec<Vec<(u32, u32)>>,
    /// The slot of `terminal`, if some rule derives it.
    pub(crate) terminal: Option<u32>,
    /// Per role: (slot of the `goal` atom, goal value).
    pub(crate) goals: Vec<Vec<(u32, u8)>>,
    /// (slot of the `next` atom, fluent id) of every `next` atom some rule derives.
    pub(crate) next_out: Vec<(u32, u32)>,
    /// The slots of atoms of the view's and the successor's extra output relations (a hybrid's
    /// asks: [`Network::build_with`]).
    pub(crate) extra: [Vec<u32>; 2],
}

impl Outputs {
    /// The output slots of `g`, the ground program of `kb`.
    pub(crate) fn new(kb: &Kb, g: &GroundProgram, extra: [&[Sym]; 2]) -> Outputs {
        let kw = kb.desc.kw;
        let terms = &kb.desc.terms;
        let roles = kb.roles.len();
        let mut out = Outputs {
            legal: vec![Vec::new(); roles],
            terminal: None,
            goals: vec![Vec::new(); roles],
            next_out: Vec::new(),
            extra: [Vec::new(), Vec::new()],
        };
        for (slot, &atom) in g.atoms.iter().enumerate() {
            let slot = slot as u32;
            let Some((rel, _)) = terms.functor(atom) else {
                continue;
            };
            let args = terms.args(atom);
            if let Some(side) = extra.iter().position(|rels| rels.contains(&rel)) {
                out.extra[side].push(slot);
            } else if rel == kw.legal {
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
            .chain(self.extra[0].iter().copied())
            .collect()
    }

    fn goal_slots(&self) -> Vec<u32> {
        self.goals.iter().flatten().map(|&(s, _)| s).collect()
    }

    fn next_slots(&self) -> Vec<u32> {
        let next = self.next_out.iter().map(|&(s, _)| s);
        next.chain(self.extra[1].iter().copied()).collect()
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
    layout: Layout,
    /// Per derived atom: the length of the longest chain of derived atoms below it.
    level: &'a [u32],
    /// Per derived atom: whether it is an input that depends on the move (a hybrid's bridge
    /// atoms asked for with each successor), whose readers the view must not compute.
    moved_input: &'a [bool],
    /// Per derived atom: the rules that read it (by head slot).
    readers: &'a [Vec<usize>],
}

/// Where the bits of one evaluation live: the state's fluents, then the `does` atoms of the joint
/// move, then the derived atoms, in one bitset, so that a literal is one bit test whatever it reads.
#[derive(Clone, Copy, Debug)]
struct Layout {
    does_base: u32,
    derived_base: u32,
    words: usize,
}

impl Layout {
    /// The bit of ground literal `l` (its negation flag kept).
    fn place(&self, l: Lit) -> Lit {
        let i = l & INDEX;
        let at = match l & KIND {
            KIND_FLUENT => i,
            KIND_DOES => self.does_base + i,
            _ => self.derived_base + i,
        };
        at | (l & NEGATED)
    }
}

impl Compiler<'_> {
    /// The program computing `outputs`, without the atoms `known` holds (computed by another
    /// program first), and the atoms it computes. With `buckets = Some(does ids)`, the rules that
    /// need a move run only when it is played: in a bucket before everything (no derived literal),
    /// after everything (their head is a `next` nothing reads), or in their component's block.
    fn compile(
        &self,
        outputs: &[u32],
        buckets: Option<usize>,
        known: &[bool],
    ) -> (Program, Vec<bool>) {
        let needed = self.needed(outputs, known);
        let mut p = Program::default();
        let mut post: Vec<Vec<CompiledRule>> = vec![Vec::new(); buckets.unwrap_or(0)];
        let mut pre: Vec<Vec<CompiledRule>> = vec![Vec::new(); buckets.unwrap_or(0)];
        let mut keeps: Vec<Vec<(u32, u64)>> = vec![Vec::new(); buckets.unwrap_or(0)];
        let mut guards: Vec<(u32, u32, u64)> = Vec::new();
        for comp in self.order {
            if !needed[comp[0]] {
                continue;
            }
            let fixpoint = comp.len() > 1 || self.edges[comp[0]].contains(&comp[0]);
            let start = p.rules.len() as u32;
            let mut moved: Vec<(u32, CompiledRule)> = Vec::new();
            for &v in comp {
                // A fluent with two guarded axioms is carried unless both guards hold: those stay
                // rules.
                let guarded = buckets.is_some()
                    && self.rules_of[v]
                        .iter()
                        .filter(|&&ri| self.guarded_frame(self.g.body(ri), v).is_some())
                        .count()
                        == 1;
                for &ri in &self.rules_of[v] {
                    let lits = self.g.body(ri);
                    if let Some(guard) = self.guarded_frame(lits, v).filter(|_| guarded) {
                        let f = self.next_fluent[v];
                        guards.push((
                            self.layout.place(KIND_DERIVED | guard),
                            f / 64,
                            1 << (f % 64),
                        ));
                        continue;
                    }
                    let rule = self.emit(&mut p, ri, v);
                    let key = lits
                        .iter()
                        .find(|&&l| l & KIND == KIND_DOES && l & NEGATED == 0)
                        .map(|&k| k & INDEX);
                    // Atoms another program computed first are read like state bits.
                    let derived = lits.iter().any(|&l| {
                        l & KIND == KIND_DERIVED
                            && !known.get((l & INDEX) as usize).is_some_and(|&k| k)
                    });
                    match key.filter(|_| buckets.is_some()) {
                        Some(k) if self.is_keep(lits, v) => {
                            let f = self.next_fluent[v];
                            keeps[k as usize].push((f / 64, 1 << (f % 64)));
                        }
                        Some(k) if !derived => pre[k as usize].push(rule),
                        Some(k) if self.next_fluent[v] != u32::MAX && !self.read[v] => {
                            post[k as usize].push(rule)
                        }
                        Some(k) if !fixpoint => moved.push((k, rule)),
                        _ => p.rules.push(rule),
                    }
                }
            }
            let end = p.rules.len() as u32;
            moved.sort_by_key(|&(k, _)| k);
            let moved_start = p.moved.len() as u32;
            p.moved.extend(moved);
            let moved_end = p.moved.len() as u32;
            match p.blocks.last_mut() {
                _ if end == start && moved_end == moved_start => {}
                // Consecutive one-pass components run as one block: order is all they need. A
                // component with rules that need a move has a block of its own.
                Some(last)
                    if !fixpoint
                        && !last.fixpoint
                        && last.end == start
                        && moved_end == moved_start
                        && last.moved_end == last.moved_start =>
                {
                    last.end = end
                }
                _ => p.blocks.push(Block {
                    start,
                    end,
                    fixpoint,
                    moved_start,
                    moved_end,
                    seg_start: 0,
                    seg_end: 0,
                }),
            }
        }
        self.segment(&mut p);
        p.buckets = flatten(post, &mut p.bucket_rules);
        p.pre_buckets = flatten(pre, &mut p.pre_rules);
        if keeps.iter().any(|k| !k.is_empty()) {
            p.keep_start.push(0);
            for mut k in keeps {
                k.sort_unstable_by_key(|&(w, _)| w);
                let start = p.keeps.len();
                for (w, m) in k {
                    match p.keeps[start..].last_mut() {
                        Some(last) if last.0 == w => last.1 |= m,
                        _ => p.keeps.push((w, m)),
                    }
                }
                p.keep_start.push(p.keeps.len() as u32);
            }
        }
        if !guards.is_empty() {
            guards.sort_unstable_by_key(|&(g, w, _)| (g, w));
            p.guarded = vec![0; self.layout.does_base as usize / 64];
            for &(g, w, m) in &guards {
                p.guarded[w as usize] |= m;
                match p.guards.last_mut() {
                    Some(last) if (last.0, last.1) == (g, w) => last.2 |= m,
                    _ => p.guards.push((g, w, m)),
                }
            }
        }
        self.link_readers(&mut p);
        (p, needed)
    }

    /// The second pass for the inputs `input` flags: the rules computing the atoms `computed`
    /// flags that read an input, directly or not (see [`Again`]); empty without inputs.
    fn again(&self, input: &[bool], computed: &[bool], buckets: Option<usize>) -> Again {
        let mut cone = vec![false; input.len()];
        let mut stack: Vec<usize> = (0..input.len()).filter(|&v| input[v]).collect();
        if stack.is_empty() {
            return Again::default();
        }
        while let Some(v) = stack.pop() {
            if !std::mem::replace(&mut cone[v], true) {
                stack.extend(self.readers[v].iter().copied());
            }
        }
        let known: Vec<bool> = cone.iter().map(|&c| !c).collect();
        let outputs: Vec<u32> = (0..cone.len() as u32)
            .filter(|&v| cone[v as usize] && computed[v as usize])
            .collect();
        let (program, _) = self.compile(&outputs, buckets, &known);
        let mut heads: Vec<u32> = program.heads().collect();
        heads.sort_unstable();
        heads.dedup();
        Again { program, heads }
    }

    /// The atoms computing `outputs` needs, short of those `known` holds.
    fn needed(&self, outputs: &[u32], known: &[bool]) -> Vec<bool> {
        let mut needed = vec![false; self.edges.len()];
        let mut stack: Vec<usize> = outputs.iter().map(|&s| s as usize).collect();
        while let Some(v) = stack.pop() {
            if known.get(v).is_some_and(|&k| k) {
                continue;
            }
            if !std::mem::replace(&mut needed[v], true) {
                stack.extend(self.edges[v].iter().copied());
            }
        }
        needed
    }

    /// The guard `g` if the rule with body `lits` and head slot `head` is a guarded frame axiom
    /// `next(f) :- true(f), not g` whose head nothing reads.
    fn guarded_frame(&self, lits: &[Lit], head: usize) -> Option<u32> {
        let f = self.next_fluent[head];
        if f == u32::MAX || self.read[head] {
            return None;
        }
        match *lits {
            [a, b] if a == KIND_FLUENT | f || b == KIND_FLUENT | f => {
                let other = if a == KIND_FLUENT | f { b } else { a };
                (other & KIND == KIND_DERIVED && other & NEGATED != 0).then_some(other & INDEX)
            }
            _ => None,
        }
    }

    /// Whether the rule with body `lits` and head slot `head` is a conditional frame axiom
    /// `next(f) :- does(r, m), true(f)` whose head nothing reads: a bit copied when `m` is played.
    fn is_keep(&self, lits: &[Lit], head: usize) -> bool {
        let f = self.next_fluent[head];
        f != u32::MAX
            && !self.read[head]
            && lits.len() == 2
            && lits.contains(&(KIND_FLUENT | f))
            && lits
                .iter()
                .any(|&l| l & KIND == KIND_DOES && l & NEGATED == 0)
    }

    /// The view program and the atoms it computes. Besides `legal` and `terminal`, it computes the
    /// atoms the successor needs that do not depend on the move played, when that keeps it free of
    /// recursion: a view is updated differentially from the previous state's, while the `next`
    /// program runs whole for every successor.
    fn view(&self, outputs: &Outputs) -> (Program, Vec<bool>) {
        let mut uses_move = vec![false; self.edges.len()];
        for comp in self.order {
            let any = comp.iter().any(|&v| {
                self.rules_of[v].iter().any(|&ri| {
                    self.g.body(ri).iter().any(|&l| match l & KIND {
                        KIND_DOES => true,
                        KIND_DERIVED => uses_move[(l & INDEX) as usize],
                        _ => false,
                    })
                })
            });
            for &v in comp {
                uses_move[v] = any || self.moved_input[v];
            }
        }
        let for_next = self.needed(&outputs.next_slots(), &[]);
        let mut slots = outputs.view_slots();
        slots.extend(
            (0..for_next.len())
                .filter(|&v| for_next[v] && !uses_move[v])
                .map(|v| v as u32),
        );
        let (view, in_view) = self.compile(&slots, None, &[]);
        if view.blocks.iter().any(|b| b.fixpoint) {
            return self.compile(&outputs.view_slots(), None, &[]);
        }
        (view, in_view)
    }

    /// Appends rule `ri` (head slot `head`) to `p`'s literals: state bits first (one load each),
    /// then `does` (one comparison), then derived atoms.
    fn emit(&self, p: &mut Program, ri: usize, head: usize) -> CompiledRule {
        let mut lits: SmallVec<[Lit; 16]> = self.g.body(ri).iter().copied().collect();
        lits.sort_by_key(|&l| (l & KIND != KIND_FLUENT, l & KIND != KIND_DOES));
        let start = p.lits.len() as u32;
        p.lits.extend(lits.iter().map(|&l| self.layout.place(l)));
        CompiledRule {
            head: self.layout.derived_base + head as u32,
            start,
            end: p.lits.len() as u32,
        }
    }

    /// Orders each one-pass block's rules by the level of their head (so that what a rule reads is
    /// computed before it), then by first literal, and cuts them into segments.
    fn segment(&self, p: &mut Program) {
        let base = self.layout.derived_base;
        for b in 0..p.blocks.len() {
            let block = p.blocks[b];
            if block.fixpoint {
                continue;
            }
            let range = block.start as usize..block.end as usize;
            let lits = &p.lits;
            // A rule without literals (its body folded away) always fires: its own segment.
            let first = |r: &CompiledRule| {
                if r.start < r.end {
                    lits[r.start as usize]
                } else {
                    ALWAYS
                }
            };
            // Keys computed once per rule (reading them in every comparison is two scattered
            // loads), packed with the rule's place into one integer, so that the sort is stable
            // and moves 16 bytes; the rules are then gathered in order (moving them by swaps
            // cost a cache miss per swap on a million rules).
            let key = |(i, r): (usize, &CompiledRule)| {
                let level = u128::from(self.level[(r.head - base) as usize]);
                level << 64 | u128::from(first(r)) << 32 | i as u128
            };
            let mut keys: Vec<u128> = p.rules[range.clone()].iter().enumerate().map(key).collect();
            keys.sort_unstable();
            let block_rules = &p.rules[range.clone()];
            let sorted: Vec<CompiledRule> = keys
                .iter()
                .map(|&k| block_rules[k as u32 as usize])
                .collect();
            p.rules[range.clone()].copy_from_slice(&sorted);
            // Segments read level and first literal off the sorted keys: looking them up again
            // per rule would be two scattered loads each.
            let seg_start = p.segments.len() as u32;
            let mut open = None;
            for (i, &k) in range.zip(&keys) {
                let (level, lit) = ((k >> 64) as u64, (k >> 32) as u32);
                match p.segments.last_mut() {
                    Some(seg) if open == Some((level, lit)) => seg.end += 1,
                    _ => {
                        open = Some((level, lit));
                        p.segments.push(Segment {
                            lit,
                            start: i as u32,
                            end: i as u32 + 1,
                        });
                    }
                }
            }
            p.blocks[b].seg_start = seg_start;
            p.blocks[b].seg_end = p.segments.len() as u32;
        }
    }

    /// Fills `p`'s reader lists of its fixpoint blocks.
    fn link_readers(&self, p: &mut Program) {
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); p.rules.len()];
        for block in p.blocks.iter().filter(|b| b.fixpoint) {
            let range = block.start as usize..block.end as usize;
            let mut by_head: game_trait::hash::FastMap<u32, Vec<u32>> = Default::default();
            for r in range.clone() {
                by_head.entry(p.rules[r].head).or_default().push(r as u32);
            }
            for r in range {
                let rule = p.rules[r];
                for &l in &p.lits[rule.start as usize..rule.end as usize] {
                    if l & NEGATED == 0 && l >= self.layout.derived_base {
                        for &w in by_head.get(&l).map_or(&[][..], Vec::as_slice) {
                            lists[w as usize].push(r as u32);
                        }
                    }
                }
            }
        }
        p.reader_start.push(0);
        for l in lists {
            p.readers.extend(l);
            p.reader_start.push(p.readers.len() as u32);
        }
    }
}

/// The view program `p` indexed for differential evaluation, unless it has recursive blocks (whose
/// atoms could support each other: counts of holding rules do not determine them) or a rule too
/// long for its counts. The rules of the atoms of `evaluated` (`legal` atoms no rule reads) are
/// left out of the counts: they are evaluated after each update instead ([`Leaves`]).
fn differential_view(
    net: &Network,
    evaluated: &FastSet<u32>,
    gate_readers: u32,
) -> Option<Differential> {
    let (p, layout) = (&net.view, net.layout);
    if p.blocks.iter().any(|b| b.fixpoint) {
        return None;
    }
    if (p.rules.iter()).any(|r| (r.end - r.start) as usize > differential::MAX_LITERALS) {
        return None;
    }
    let mut empty = vec![0u64; layout.words];
    net.run(p, &[], &mut empty);
    let lits = |r: &CompiledRule| &p.lits[r.start as usize..r.end as usize];
    let rules = (p.rules.iter())
        .filter(|r| !evaluated.contains(&r.head))
        .map(|r| (r.head, lits(r)));
    let leaves = Leaves::new(
        (p.rules.iter())
            .filter(|r| evaluated.contains(&r.head))
            .map(|r| (r.head, lits(r))),
        NEGATED,
    );
    Some(Differential::new(
        rules,
        NEGATED,
        layout.words,
        layout.derived_base,
        empty,
        leaves,
        gate_readers,
    ))
}

/// The bits of the `legal` atoms no rule of the view, goal or next program reads: only the game
/// reads them, after an update.
fn leaf_heads(net: &Network) -> FastSet<u32> {
    let mut leaf: FastSet<u32> = net.legal.iter().flatten().map(|&(bit, _)| bit).collect();
    for p in [&net.view, &net.goal, &net.next] {
        let rules = (p.rules.iter()).chain(&p.bucket_rules).chain(&p.pre_rules);
        let moved = p.moved.iter().map(|(_, r)| r);
        for r in rules.chain(moved) {
            for &l in &p.lits[r.start as usize..r.end as usize] {
                leaf.remove(&(l & !NEGATED));
            }
        }
        for &(guard, _, _) in &p.guards {
            leaf.remove(&guard);
        }
    }
    leaf
}

/// The states [`Network::tune_view`] looks at.
const TUNING_PLIES: usize = 64;
/// The seed of the random playouts [`Network::tune_view`] plays.
const TUNING_SEED: u64 = 0x1eaf;

/// Legal moves read out of bit order are sorted in a stack buffer of this size.
const SORTED_ON_STACK: usize = 128;

/// Flattens per-`does` rule lists into `rules`, returning each list's range.
fn flatten(lists: Vec<Vec<CompiledRule>>, rules: &mut Vec<CompiledRule>) -> Vec<(u32, u32)> {
    lists
        .into_iter()
        .map(|l| {
            let start = rules.len() as u32;
            rules.extend(l);
            (start, rules.len() as u32)
        })
        .collect()
}

impl Network {
    /// Compiles the ground program `g` of `kb`'s rules (whose tables give fluent and move ids).
    /// `Err` says why the fast reasoner does not apply.
    pub fn build(kb: &Kb, g: &GroundProgram) -> Result<Network, String> {
        Network::build_with(kb, g, [&[], &[]], [&[], &[]])
    }

    /// [`build`](Network::build), the atoms of the relations `extra[0]` computed with each view
    /// and those of `extra[1]` with each successor, to be read with [`holds`](Network::holds);
    /// the atoms of the relations `inputs[0]` and `inputs[1]`, which no rule derives, are inputs
    /// of a second pass over a view ([`eval_view_again`](Network::eval_view_again)) and over a
    /// successor ([`next_again_into`](Network::next_again_into)).
    pub(crate) fn build_with(
        kb: &Kb,
        g: &GroundProgram,
        extra: [&[Sym]; 2],
        inputs: [&[Sym]; 2],
    ) -> Result<Network, String> {
        let kw = kb.desc.kw;
        let derived = g.atoms.len();
        if derived > INDEX as usize || kb.fluents.len() > INDEX as usize {
            return Err("too many ground atoms".into());
        }
        let outputs = Outputs::new(kb, g, extra);
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
        let does_base = (words * 64) as u32;
        let derived_base = does_base + (g.does.len().div_ceil(64) * 64) as u32;
        let layout = Layout {
            does_base,
            derived_base,
            words: (derived_base as usize + derived).div_ceil(64),
        };
        if layout.words * 64 > INDEX as usize {
            return Err("too many ground atoms".into());
        }
        let mut level = vec![0u32; derived];
        for comp in &order {
            let below = comp
                .iter()
                .flat_map(|&v| edges[v].iter())
                .filter(|w| !comp.contains(w))
                .map(|&w| level[w] + 1)
                .max()
                .unwrap_or(0);
            for &v in comp {
                level[v] = below;
            }
        }
        let input_of = |side: usize| -> Vec<bool> {
            (g.atoms.iter())
                .map(|&a| kb.desc.terms.functor(a))
                .map(|f| f.is_some_and(|(f, _)| inputs[side].contains(&f)))
                .collect()
        };
        let (view_inputs, moved_input) = (input_of(0), input_of(1));
        // Only a hybrid's network (one with inputs) has a second pass to find readers for.
        let mut readers = Vec::new();
        if inputs.iter().any(|rels| !rels.is_empty()) {
            readers = vec![Vec::new(); derived];
            for (h, body) in edges.iter().enumerate() {
                for &b in body {
                    readers[b].push(h);
                }
            }
        }
        let ctx = Compiler {
            moved_input: &moved_input,
            readers: &readers,
            g,
            edges: &edges,
            order: &order,
            rules_of: &rules_of,
            read: &read,
            next_fluent: &next_fluent,
            layout,
            level: &level,
        };
        // The goal and next programs start from the view's atoms (a state's view is always
        // computed before its successor or its goals are asked for): they skip those rules.
        let (view, in_view) = ctx.view(&outputs);
        let (goal, _) = ctx.compile(&outputs.goal_slots(), None, &in_view);
        let (next, _) = ctx.compile(&outputs.next_slots(), Some(g.does.len()), &in_view);
        let again = match readers.is_empty() {
            true => Default::default(),
            false => {
                let next_atoms = ctx.needed(&outputs.next_slots(), &[]);
                let moves = Some(g.does.len());
                [
                    ctx.again(&view_inputs, &in_view, None),
                    ctx.again(&moved_input, &next_atoms, moves),
                ]
            }
        };
        let uses_does = |p: &Program| {
            p.lits
                .iter()
                .any(|&l| (does_base..derived_base).contains(&(l & !NEGATED)))
        };
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
        let at = |s: u32| derived_base + s;
        // `next` atoms no rule is left to derive (frame axioms became copies) are never read.
        let heads: game_trait::hash::FastSet<u32> =
            [&view, &next].iter().flat_map(|p| p.heads()).collect();
        let legal: Vec<Vec<(u32, u32)>> = outputs
            .legal
            .iter()
            .map(|l| l.iter().map(|&(s, m)| (at(s), m)).collect())
            .collect();
        let next_out: Vec<(u32, u32)> = outputs
            .next_out
            .iter()
            .map(|&(s, f)| (at(s), f))
            .filter(|&(s, _)| heads.contains(&s))
            .collect();
        let mut net = Network {
            again,
            diff: None,
            legal_index: legal.iter().map(|l| AtomIndex::new(l)).collect(),
            legal,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            copy,
            does_index,
            layout,
            view,
            goal,
            next,
            terminal: outputs.terminal.map(at),
            goals: outputs
                .goals
                .iter()
                .map(|l| l.iter().map(|&(s, v)| (at(s), v)).collect())
                .collect(),
            next_out: AtomIndex::new(&next_out),
            ground_rules: kept,
        };
        net.diff = differential_view(&net, &FastSet::default(), GATE_READERS);
        Ok(net)
    }

    /// Evaluates the view program for `state` into `model`, which holds the view of `previous` (a
    /// state this network evaluated into it), or anything if `previous` is `None`. A view without
    /// recursion is updated from the previous one by the fluents that differ; otherwise, and from
    /// nothing, it is computed whole.
    pub fn update_view(&self, previous: Option<&FluentSet>, state: &FluentSet, model: &mut Model) {
        let Some(diff) = &self.diff else {
            return self.eval_view(state, &mut model.bits);
        };
        let fluent_words = self.layout.does_base as usize / 64;
        match previous {
            Some(previous) => diff.update(model, previous.words(), state.words(), fluent_words),
            None => {
                model.copy_from(diff.empty());
                diff.update(model, &[], state.words(), fluent_words);
            }
        }
    }

    /// A hybrid's second pass over a view updated into `model` ([`update_view`](Self::update_view)):
    /// makes the derived atoms `inputs` (slots of the ground program no rule derives) the ones
    /// that hold, updating what reads those that changed since the model's last second pass.
    /// `false`, and `model` untouched, where the view is not differential: there the second pass
    /// is [`eval_view_again`](Self::eval_view_again), over the view evaluated whole.
    pub(crate) fn set_view_inputs(&self, model: &mut Model, inputs: &[u32]) -> bool {
        let Some(diff) = &self.diff else {
            return false;
        };
        let mut bits: SmallVec<[u32; 16]> = SmallVec::new();
        bits.extend(inputs.iter().map(|&slot| self.slot_bit(slot)));
        bits.sort_unstable();
        bits.dedup();
        diff.set_inputs(model, &bits);
        true
    }

    /// Prepares the differential view for games played from `init`: chooses the `legal` rules to
    /// evaluate rather than count ([`Leaves`]) by what each way costs along a short seeded random
    /// playout from `init`, and keeps `init`'s view (updating a view to it is then a copy).
    pub(crate) fn tune_view(&mut self, init: &FluentSet) {
        if self.diff.is_none() {
            return;
        }
        let views = self.sample_views(init);
        let p = &self.view;
        let candidates = leaf_heads(self);
        let rules = (p.rules.iter())
            .filter(|r| candidates.contains(&r.head))
            .map(|r| (r.head, &p.lits[r.start as usize..r.end as usize]));
        let evaluated = Leaves::cheaper_evaluated(rules, NEGATED, &views);
        if !evaluated.is_empty() {
            self.diff = differential_view(self, &evaluated, GATE_READERS);
        }
        let fluent_words = self.layout.does_base as usize / 64;
        if let Some(diff) = &mut self.diff {
            diff.anchor_at(init.words(), fluent_words);
        }
    }

    /// The views of the states of seeded random playouts from `init`, [`TUNING_PLIES`] in all.
    fn sample_views(&self, init: &FluentSet) -> Vec<Scratch> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(TUNING_SEED);
        let (mut state, mut next) = (init.clone(), FluentSet::new());
        let (mut views, mut scratch, mut moves, mut joint) =
            (Vec::new(), Scratch::new(), Vec::new(), Vec::new());
        while views.len() < TUNING_PLIES {
            let mut view = Scratch::new();
            self.eval_view(&state, &mut view);
            joint.clear();
            for r in 0..self.roles() {
                moves.clear();
                self.legal_moves(&view, r, &mut moves);
                if moves.is_empty() {
                    break;
                }
                joint.push(moves[rng.gen_range(0..moves.len())]);
            }
            let over = self.terminal(&view) || joint.len() < self.roles();
            if !over {
                self.next_into(&state, &joint, &view, &mut scratch, &mut next);
            }
            views.push(view);
            if over {
                state.clone_from(init);
            } else {
                std::mem::swap(&mut state, &mut next);
            }
        }
        views
    }

    /// How many rules of the differential view are evaluated after each update rather than
    /// counted (see [`tune_view`](Self::tune_view)).
    #[cfg(test)]
    pub(crate) fn evaluated_view_rules(&self) -> usize {
        self.diff.as_ref().map_or(0, Differential::evaluated_rules)
    }

    /// Whether views are updated from the previous state's ([`update_view`](Network::update_view)).
    #[cfg(test)]
    pub fn has_differential_view(&self) -> bool {
        self.diff.is_some()
    }

    /// Makes every bit read by `readers` rules or more a gate of the differential view (to test
    /// gates on games that have none), its `legal` rules counted.
    #[cfg(test)]
    pub(crate) fn gate_view_bits_read_by(&mut self, readers: u32) {
        if self.diff.is_some() {
            self.diff = differential_view(self, &FastSet::default(), readers);
        }
    }

    /// Evaluates every view whole from now on (to test that way too).
    #[cfg(test)]
    pub(crate) fn evaluate_views_whole(&mut self) {
        self.diff = None;
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

    /// Whether a rule's body holds: one bit test per literal (state bits come first: most rules
    /// fail on the first).
    #[inline(always)]
    fn body(p: &Program, r: &CompiledRule, bits: &[u64]) -> bool {
        p.lits[r.start as usize..r.end as usize]
            .iter()
            .all(|&l| Self::bit(bits, l & !NEGATED) != (l & NEGATED != 0))
    }

    /// Sets `r`'s head if its body holds; whether it became true.
    #[inline(always)]
    fn fire(p: &Program, r: &CompiledRule, bits: &mut [u64]) -> bool {
        let h = r.head as usize;
        if bits[h / 64] >> (h % 64) & 1 == 0 && Self::body(p, r, bits) {
            bits[h / 64] |= 1 << (h % 64);
            return true;
        }
        false
    }

    /// Runs program `p` on `bits`, which hold the state (and the joint move's `does` atoms).
    fn run(&self, p: &Program, joint: &[u32], bits: &mut [u64]) {
        self.run_buckets(&p.pre_buckets, &p.pre_rules, p, joint, bits);
        let mut work: SmallVec<[u32; 64]> = SmallVec::new();
        for block in &p.blocks {
            if block.moved_end > block.moved_start {
                self.run_moved(p, block, joint, bits);
            }
            if !block.fixpoint {
                for seg in &p.segments[block.seg_start as usize..block.seg_end as usize] {
                    if seg.lit != ALWAYS
                        && Self::bit(bits, seg.lit & !NEGATED) == (seg.lit & NEGATED != 0)
                    {
                        continue; // the first literal of every rule of the segment fails
                    }
                    for rule in &p.rules[seg.start as usize..seg.end as usize] {
                        Self::fire(p, rule, bits);
                    }
                }
                continue;
            }
            for r in block.start..block.end {
                if Self::fire(p, &p.rules[r as usize], bits) {
                    work.push(r);
                }
            }
            // A recursive block: each new atom wakes the rules of the block that read it.
            while let Some(w) = work.pop() {
                let from = p.reader_start[w as usize] as usize;
                let to = p.reader_start[w as usize + 1] as usize;
                for &r in &p.readers[from..to] {
                    if Self::fire(p, &p.rules[r as usize], bits) {
                        work.push(r);
                    }
                }
            }
        }
        self.run_buckets(&p.buckets, &p.bucket_rules, p, joint, bits);
    }

    /// The `does` ids of the joint move's atoms.
    fn does_ids<'a>(&'a self, joint: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
        joint.iter().enumerate().filter_map(|(r, &m)| {
            let d = *self.does_index.get(r)?.get(m as usize)?;
            (d != u32::MAX).then_some(d)
        })
    }

    /// Runs the rules of `block` that need one of the moves of `joint`.
    fn run_moved(&self, p: &Program, block: &Block, joint: &[u32], bits: &mut [u64]) {
        let moved = &p.moved[block.moved_start as usize..block.moved_end as usize];
        for d in self.does_ids(joint) {
            let from = moved.partition_point(|&(k, _)| k < d);
            for (_, rule) in moved[from..].iter().take_while(|&&(k, _)| k == d) {
                Self::fire(p, rule, bits);
            }
        }
    }

    /// Runs the rules of the buckets of the `does` atoms of `joint`.
    fn run_buckets(
        &self,
        buckets: &[(u32, u32)],
        rules: &[CompiledRule],
        p: &Program,
        joint: &[u32],
        bits: &mut [u64],
    ) {
        if buckets.is_empty() {
            return;
        }
        for d in self.does_ids(joint) {
            if let Some(&(start, end)) = buckets.get(d as usize) {
                for rule in &rules[start as usize..end as usize] {
                    Self::fire(p, rule, bits);
                }
            }
        }
    }

    /// The number of roles.
    pub fn roles(&self) -> usize {
        self.legal.len()
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
        scratch.resize(self.layout.words, 0);
        let words = state.words();
        let n = words.len().min(self.layout.does_base as usize / 64);
        scratch[..n].copy_from_slice(&words[..n]);
        self.run(&self.view, &[], scratch);
    }

    /// A hybrid's second pass over a view [evaluated](Network::eval_view) into `scratch`: with
    /// the derived atoms `inputs` (slots of the ground program no rule derives) holding, the atoms
    /// that read them again.
    pub(crate) fn eval_view_again(&self, inputs: &[u32], scratch: &mut Scratch) {
        self.prepare_again(&self.again[0], inputs, scratch);
        self.run(&self.again[0].program, &[], scratch);
    }

    /// Clears the heads of a second pass and sets its input bits.
    fn prepare_again(&self, again: &Again, inputs: &[u32], bits: &mut [u64]) {
        for &h in &again.heads {
            bits[h as usize / 64] &= !(1 << (h % 64));
        }
        for &slot in inputs {
            let b = (self.layout.derived_base + slot) as usize;
            bits[b / 64] |= 1 << (b % 64);
        }
    }

    /// Evaluates the goal program for `state` into `scratch`, starting from `view`, the view of
    /// the same state ([`eval_view`](Network::eval_view)).
    pub fn eval_goal(&self, _state: &FluentSet, view: &Scratch, scratch: &mut Scratch) {
        scratch.clone_from(view);
        self.run(&self.goal, &[], scratch);
    }

    /// The bit of the derived atom of slot `slot` in a view's or a successor's scratch.
    pub(crate) fn slot_bit(&self, slot: u32) -> u32 {
        self.layout.derived_base + slot
    }

    #[inline(always)]
    fn bit(bits: &[u64], at: u32) -> bool {
        bits[at as usize / 64] >> (at % 64) & 1 == 1
    }

    /// After [`eval_view`](Network::eval_view): whether the state is terminal.
    #[inline]
    pub fn terminal(&self, scratch: &Scratch) -> bool {
        self.terminal.is_some_and(|s| Self::bit(scratch, s))
    }

    /// After [`eval_view`](Network::eval_view): role `r`'s legal move count and its first legal move.
    #[inline]
    pub fn legal_summary(&self, scratch: &Scratch, r: usize) -> (usize, u32) {
        self.legal_index[r].summary(scratch)
    }

    /// After [`eval_view`](Network::eval_view): role `r`'s legal moves, in increasing id order.
    pub fn legal_moves(&self, scratch: &Scratch, r: usize, out: &mut impl Extend<u32>) {
        let index = &self.legal_index[r];
        if index.in_order() {
            return out.extend(index.iter(scratch));
        }
        // Sorted on the stack when few (the usual case), else by testing every atom in move order.
        let mut few = [0u32; SORTED_ON_STACK];
        let mut n = 0;
        for m in index.iter(scratch) {
            if n == SORTED_ON_STACK {
                let all = self.legal[r]
                    .iter()
                    .filter(|&&(s, _)| Self::bit(scratch, s));
                return out.extend(all.map(|&(_, m)| m));
            }
            few[n] = m;
            n += 1;
        }
        few[..n].sort_unstable();
        out.extend(few[..n].iter().copied());
    }

    /// After [`eval_goal`](Network::eval_goal): role `r`'s goal value (the largest if several hold).
    pub fn goal(&self, scratch: &Scratch, r: usize) -> Option<u8> {
        self.goals[r]
            .iter()
            .filter(|&&(s, _)| Self::bit(scratch, s))
            .map(|&(_, v)| v)
            .max()
    }

    /// Adds to `out`, which holds the fluents the unconditional frame axioms carry over (`copy`),
    /// those of `state` that the guarded ones carry over: whose guard does not hold in `bits`.
    fn carry_guarded(&self, state: &[u64], bits: &[u64], out: &mut [u64]) {
        let p = &self.next;
        for ((o, &g), &s) in out.iter_mut().zip(&p.guarded).zip(state) {
            *o |= g & s;
        }
        for &(guard, w, m) in &p.guards {
            if Self::bit(bits, guard) {
                // A fluent `copy` carries stays, whatever its guarded axiom says.
                out[w as usize] &= !(m & !self.copy[w as usize]);
            }
        }
    }

    /// The successor of `state` under `joint` (`joint[r]` is role `r`'s move id), starting from
    /// `view`, the view of the same state ([`eval_view`](Network::eval_view)), written into `out`
    /// (whose buffer is reused: no allocation once it is large enough).
    pub fn next_into(
        &self,
        state: &FluentSet,
        joint: &[u32],
        view: &Scratch,
        scratch: &mut Scratch,
        out: &mut FluentSet,
    ) {
        scratch.clone_from(view);
        for d in self.does_ids(joint) {
            let b = (self.layout.does_base + d) as usize;
            scratch[b / 64] |= 1 << (b % 64);
        }
        self.run(&self.next, joint, scratch);
        self.collect_next(state, joint, scratch, out);
    }

    /// A hybrid's second pass over a successor [computed](Network::next_into) from `scratch`:
    /// with the derived atoms `inputs` holding, the atoms that read them again, and `out`
    /// again.
    pub(crate) fn next_again_into(
        &self,
        state: &FluentSet,
        joint: &[u32],
        inputs: &[u32],
        scratch: &mut Scratch,
        out: &mut FluentSet,
    ) {
        self.prepare_again(&self.again[1], inputs, scratch);
        self.run(&self.again[1].program, joint, scratch);
        self.collect_next(state, joint, scratch, out);
    }

    /// Writes into `out` the successor of `state` under `joint` that the next program's bits
    /// `scratch` say.
    fn collect_next(&self, state: &FluentSet, joint: &[u32], scratch: &[u64], out: &mut FluentSet) {
        let words = out.words_mut();
        words.clear();
        words.extend(
            self.copy
                .iter()
                .zip(state.words().iter().chain(std::iter::repeat(&0)))
                .map(|(c, s)| c & s),
        );
        if !self.next.guarded.is_empty() {
            self.carry_guarded(state.words(), scratch, words);
        }
        let keeps = &self.next;
        if !keeps.keep_start.is_empty() {
            let state = state.words();
            for d in self.does_ids(joint) {
                let from = keeps.keep_start[d as usize] as usize;
                let to = keeps.keep_start[d as usize + 1] as usize;
                for &(w, m) in &keeps.keeps[from..to] {
                    words[w as usize] |= state.get(w as usize).map_or(0, |s| s & m);
                }
            }
        }
        for f in self.next_out.iter(scratch) {
            words[f as usize / 64] |= 1 << (f % 64);
        }
        out.trim();
    }
}

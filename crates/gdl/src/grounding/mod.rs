//! Grounding: the rules instantiated into a propositional program over the atoms that can hold.
//!
//! 1. **Domain analysis.** The *relaxed model* is computed once by the [`Engine`]: negation ignored,
//!    `true(f)` for every `init(f)` and `next(f)`, `does(r, m)` for every `legal(r, m)`, to a
//!    fixpoint ([`relaxed_rules`]). Every atom that can hold in a reachable state (with any legal
//!    joint move) is in it. This is the atom-level form of the argument-domain analysis of
//!    instantiation (Kissmann, Edelkamp, *Instantiating General Games*, 2009), and it is computed the
//!    way a Datalog engine would: semi-naively, with indexed joins, each component planned with the
//!    sizes of the relations it reads.
//!    The rules are first decomposed ([`crate::grounding::decompose`]): literals sharing a variable nothing
//!    else in the rule sees move into an auxiliary rule, so that the variable is eliminated once.
//! 2. **Instantiation.** Every rule whose head can depend on the state is joined once more over the
//!    relaxed model; each solution is a ground rule. Static literals (relations that depend on
//!    neither `true` nor `does`) are decided on the spot from the exact static model, atoms outside
//!    the relaxed model are false, so a ground rule keeps only its state, move and derived literals.
//!    A literal the join matched to a fact is read from that fact, not looked up again.
//!    A decomposed rule is grounded as written instead when that gives fewer rules to evaluate in
//!    a state. Both are counted (joined without building a rule) before either is instantiated:
//!    the rule as written is counted up to four times the decomposition's solutions, giving up
//!    after four join steps per solution that count allows (a join that slow, a racetrack's
//!    position × velocity × track, costs more to instantiate than the decomposition), and when
//!    neither fits in the budget's ground rules, grounding stops before building any.
//! 3. **Stratification.** The ground program must be stratified: no cycle of ground atoms may go
//!    through a negation. This is checked here, on the ground program, so a description whose
//!    relations recurse through negation but whose atoms do not is accepted (GDL asks for a
//!    stratified program; real descriptions such as `(<= (goal r 100) (not (goal r 0)))` are
//!    stratified only at the ground level).
//!
//! Everything runs under a [`Budget`]; exceeding it stops grounding with the rule being
//! instantiated.

pub(crate) mod bridge;
pub(crate) mod cone;
pub mod decompose;

use std::time::Instant;

use smallvec::SmallVec;

use crate::datalog::facts::Facts;
use crate::datalog::{
    relaxed_rules, Budget, Engine, EvalError, Limit, Matched, Plan, Scratch, Step,
};
use crate::description::graph;
use crate::description::{Literal, Rule};
use crate::grounding::bridge::Bridged;
use crate::grounding::decompose::{decompose, Decomposed};
use crate::limits::LoadProfile;
use crate::reference::Kb;
use crate::syntax::term::{Sym, TermId};
use game_trait::hash::{FastMap, FastSet};

/// A literal of a ground rule: kind in bits 29–30 ([`KIND_FLUENT`], [`KIND_DOES`],
/// [`KIND_DERIVED`]), [`NEGATED`] in bit 31, index in bits 0–28.
pub type Lit = u32;
/// `true(f)`: the index is the fluent id.
pub const KIND_FLUENT: u32 = 0;
/// `does(r, m)`: the index is a `does` id ([`GroundProgram::does`]).
pub const KIND_DOES: u32 = 1 << 29;
/// A derived atom: the index is its slot ([`GroundProgram::atoms`]).
pub const KIND_DERIVED: u32 = 2 << 29;
/// The kind bits.
pub const KIND: u32 = 3 << 29;
/// The literal is negated.
pub const NEGATED: u32 = 1 << 31;
/// The index bits.
pub const INDEX: u32 = (1 << 29) - 1;

/// The ground rules of a game.
#[derive(Clone, Debug, Default)]
pub struct GroundProgram {
    /// Head slot of each ground rule.
    pub heads: Vec<u32>,
    /// Where each rule's literals start in `lits` (one more entry than rules).
    pub starts: Vec<u32>,
    /// The literals of all rules.
    pub lits: Vec<Lit>,
    /// The derived atom of each slot.
    pub atoms: Vec<TermId>,
    /// (role index, move id) of each `does` id.
    pub does: Vec<(u32, u32)>,
}

impl GroundProgram {
    /// The number of ground rules.
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    /// The literals of rule `i`.
    pub fn body(&self, i: usize) -> &[Lit] {
        &self.lits[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    fn bytes(&self) -> usize {
        self.heads.len() * 8 + self.lits.len() * 4 + self.atoms.len() * 4
    }
}

/// Why grounding failed.
#[derive(Clone, Debug)]
pub enum GroundError {
    /// A budget limit was reached (see [`EvalError::Budget`]).
    Eval(EvalError),
    /// Ground atoms depend on each other through negation: the program has no stratified ground
    /// model. The atoms of one such cycle, in order.
    Cycle(Vec<TermId>),
}

impl From<EvalError> for GroundError {
    fn from(e: EvalError) -> GroundError {
        GroundError::Eval(e)
    }
}

/// What a ground literal became.
#[derive(Clone, Copy)]
enum Folded {
    Always,
    Never,
    Lit(Lit),
}

/// A body literal's last instance: the values its variables had and what it became. Consecutive
/// solutions of a join share the bindings of its outer steps, so most literals fold as they did
/// for the solution before, and are not looked up again.
struct LitMemo {
    vars: SmallVec<[u32; 4]>,
    values: SmallVec<[Option<TermId>; 4]>,
    folded: Option<Folded>,
}

impl LitMemo {
    /// One per literal of `body`, empty.
    fn for_body(terms: &crate::syntax::term::Terms, body: &[Literal]) -> Vec<LitMemo> {
        body.iter()
            .map(|lit| {
                let mut vars = Vec::new();
                if let Literal::Pos(a) | Literal::Neg(a) = *lit {
                    terms.vars_of(a, &mut vars);
                }
                LitMemo {
                    vars: vars.into_iter().collect(),
                    values: SmallVec::new(),
                    folded: None,
                }
            })
            .collect()
    }

    /// What the literal became the last time, if its variables have the same values under `b`.
    fn recall(&self, b: &crate::syntax::term::Bindings) -> Option<Folded> {
        let same = self.vars.len() == self.values.len()
            && self
                .vars
                .iter()
                .zip(&self.values)
                .all(|(&v, &t)| b.get(v) == t);
        self.folded.filter(|_| same)
    }

    fn remember(&mut self, b: &crate::syntax::term::Bindings, folded: Folded) {
        self.values.clear();
        self.values.extend(self.vars.iter().map(|&v| b.get(v)));
        self.folded = Some(folded);
    }
}

/// Numbers by term id: a vector indexed by the id rather than a hash map, since ids are dense
/// (`0..terms.len()`) and instantiation looks one up for nearly every literal of every solution.
#[derive(Default)]
struct IdTable(Vec<u32>);

impl IdTable {
    const ABSENT: u32 = u32::MAX;

    fn get(&self, t: TermId) -> Option<u32> {
        self.0
            .get(t.0 as usize)
            .copied()
            .filter(|&id| id != Self::ABSENT)
    }

    fn insert(&mut self, t: TermId, id: u32) {
        let i = t.0 as usize;
        if i >= self.0.len() {
            self.0.resize((i + 1).next_power_of_two(), Self::ABSENT);
        }
        self.0[i] = id;
    }
}

impl FromIterator<(TermId, u32)> for IdTable {
    fn from_iter<I: IntoIterator<Item = (TermId, u32)>>(pairs: I) -> IdTable {
        let mut table = IdTable::default();
        for (t, id) in pairs {
            table.insert(t, id);
        }
        table
    }
}

/// Instantiation state: the tables that give atoms their literal codes, and the rules so far.
struct Instances {
    fluents: IdTable,
    moves: IdTable,
    roles: Vec<TermId>,
    true_: Sym,
    does_sym: Sym,
    static_rels: FastSet<Sym>,
    /// The static relations the relaxed model holds exactly (no negation made it larger): a
    /// fact of one that a join matched holds.
    exact_statics: FastSet<(Sym, usize)>,
    slots: IdTable,
    program: GroundProgram,
    does_ids: FastMap<(u32, u32), u32>,
    /// The newest ground rule with each hash of (head, literals), to drop duplicates (`or`
    /// expansion and symmetric rules produce many).
    seen: FastMap<u64, u32>,
    /// Per ground rule, the next older rule with its hash ([`NO_RULE`] at the end): chains in one
    /// vector rather than a vector per hash, a million allocations fewer on a large program.
    same_hash: Vec<u32>,
}

/// The end of a [`Instances::same_hash`] chain.
const NO_RULE: u32 = u32::MAX;

impl Instances {
    fn slot(&mut self, atom: TermId) -> u32 {
        if let Some(slot) = self.slots.get(atom) {
            return slot;
        }
        let next = self.program.atoms.len() as u32;
        self.slots.insert(atom, next);
        self.program.atoms.push(atom);
        next
    }

    /// `true(f)` for a ground `f` (or `None`: a term never built, so no fluent) as a literal.
    fn fold_fluent(&self, fluent: Option<TermId>) -> Folded {
        match fluent.and_then(|f| self.fluents.get(f)) {
            Some(id) => Folded::Lit(KIND_FLUENT | id),
            None => Folded::Never,
        }
    }

    /// `does(role, move)` for ground arguments as a literal.
    fn fold_does(&mut self, role: Option<TermId>, mv: Option<TermId>) -> Folded {
        let role = role.and_then(|role| self.roles.iter().position(|&r| r == role));
        let (Some(r), Some(m)) = (role, mv.and_then(|m| self.moves.get(m))) else {
            return Folded::Never;
        };
        let key = (r as u32, m);
        let next = self.program.does.len() as u32;
        let id = *self.does_ids.entry(key).or_insert(next);
        if id == next {
            self.program.does.push(key);
        }
        Folded::Lit(KIND_DOES | id)
    }

    /// A ground atom of relation `rel`, neither `true` nor `does`, as a literal.
    fn fold_atom(&mut self, statics: &Facts, relaxed: &Facts, rel: Sym, atom: TermId) -> Folded {
        if self.static_rels.contains(&rel) {
            return if statics.contains(atom) {
                Folded::Always
            } else {
                Folded::Never
            };
        }
        if !relaxed.contains(atom) {
            return Folded::Never;
        }
        Folded::Lit(KIND_DERIVED | self.slot(atom))
    }

    /// The positive literal `atom` under `b` as a literal of a ground rule. The arguments of
    /// `true` and `does` are looked up as they are: their atoms are never built.
    fn fold(
        &mut self,
        terms: &crate::syntax::term::Terms,
        statics: &Facts,
        relaxed: &Facts,
        atom: TermId,
        b: &crate::syntax::term::Bindings,
    ) -> Folded {
        let Some((rel, _)) = terms.functor(atom) else {
            return Folded::Never;
        };
        let args = terms.args(atom);
        if rel == self.true_ {
            return self.fold_fluent(terms.resolve(args[0], b));
        }
        if rel == self.does_sym {
            return self.fold_does(terms.resolve(args[0], b), terms.resolve(args[1], b));
        }
        match terms.resolve(atom, b) {
            Some(atom) => self.fold_atom(statics, relaxed, rel, atom),
            None => Folded::Never,
        }
    }

    /// A positive literal the join matched to the relaxed model's fact `atom` as a literal: the
    /// fact's arguments are read, nothing is looked up in the term table, and a fact of a static
    /// relation the relaxed model holds exactly holds.
    fn fold_matched(
        &mut self,
        terms: &crate::syntax::term::Terms,
        statics: &Facts,
        relaxed: &Facts,
        atom: TermId,
    ) -> Folded {
        let Some(rel) = terms.functor(atom) else {
            return Folded::Never;
        };
        let args = terms.args(atom);
        if rel.0 == self.true_ {
            return self.fold_fluent(Some(args[0]));
        }
        if rel.0 == self.does_sym {
            return self.fold_does(Some(args[0]), Some(args[1]));
        }
        if self.exact_statics.contains(&rel) {
            return Folded::Always;
        }
        self.fold_atom(statics, relaxed, rel.0, atom)
    }

    /// The literals of a ground body under `b` into `lits`; `false` if a literal is false for good.
    /// `memos` holds one [`LitMemo`] per literal of `body`, `steps` the plan step that matched
    /// each positive literal to a fact of `matched`.
    #[allow(clippy::too_many_arguments)]
    fn body(
        &mut self,
        terms: &crate::syntax::term::Terms,
        statics: &Facts,
        relaxed: &Facts,
        body: &[Literal],
        memos: &mut [LitMemo],
        steps: &[Option<usize>],
        b: &crate::syntax::term::Bindings,
        matched: Matched<'_>,
        lits: &mut Vec<Lit>,
    ) -> bool {
        lits.clear();
        for ((lit, memo), &step) in body.iter().zip(memos).zip(steps) {
            let (atom, negated) = match *lit {
                Literal::Pos(a) => (a, false),
                Literal::Neg(a) => (a, true),
                Literal::Distinct(..) | Literal::Same(..) => continue, // decided by the join
            };
            let folded = match memo.recall(b) {
                Some(folded) => folded,
                None => {
                    let folded = match step.and_then(|s| matched.atom(s)) {
                        Some(fact) => self.fold_matched(terms, statics, relaxed, fact),
                        None => self.fold(terms, statics, relaxed, atom, b),
                    };
                    memo.remember(b, folded);
                    folded
                }
            };
            match (folded, negated) {
                (Folded::Always, false) | (Folded::Never, true) => {}
                (Folded::Never, false) | (Folded::Always, true) => return false,
                (Folded::Lit(l), neg) => lits.push(if neg { l | NEGATED } else { l }),
            }
        }
        true
    }

    /// Adds a ground rule unless an identical one exists; with `unique`, the caller knows none
    /// can, and the rule is not entered in the table that finds them.
    fn add(&mut self, head: u32, lits: &mut Vec<Lit>, unique: bool) {
        lits.sort_unstable();
        lits.dedup();
        if unique {
            let p = &mut self.program;
            self.same_hash.push(NO_RULE);
            p.heads.push(head);
            p.lits.extend_from_slice(lits);
            p.starts.push(p.lits.len() as u32);
            return;
        }
        let h = rule_hash(head, lits);
        let mut r = self.seen.get(&h).copied().unwrap_or(NO_RULE);
        while r != NO_RULE {
            let p = &self.program;
            if p.heads[r as usize] == head && p.body(r as usize) == lits.as_slice() {
                return;
            }
            r = self.same_hash[r as usize];
        }
        let p = &mut self.program;
        let older = self.seen.insert(h, p.heads.len() as u32);
        self.same_hash.push(older.unwrap_or(NO_RULE));
        p.heads.push(head);
        p.lits.extend_from_slice(lits);
        p.starts.push(p.lits.len() as u32);
    }
}

/// The key of a ground rule (its literals sorted) in [`Instances::seen`].
fn rule_hash(head: u32, lits: &[Lit]) -> u64 {
    (lits.iter()).fold(game_trait::hash::splitmix64(u64::from(head)), |h, &l| {
        game_trait::hash::splitmix64(h ^ u64::from(l))
    })
}

/// The relaxed model of `rules` (see the module docs), within `budget` (whose depth limit stops the
/// infinite models that relaxing negation can create, e.g. a step counter only `terminal` stops:
/// they grow by one nesting level per round). The engine also holds `queries`, rules it does not
/// evaluate but can join afterwards; their indices follow the evaluated rules'.
fn relaxed_model(
    kb: &mut Kb,
    rules: &[Rule],
    queries: &[Rule],
    left_out: &dyn Fn(usize) -> bool,
    budget: &mut Budget,
) -> Result<(Engine, Facts), EvalError> {
    let kw = kb.desc.kw;
    let mut all: Vec<Rule> = rules.to_vec();
    all.extend_from_slice(queries);
    let all = relaxed_rules(&mut kb.desc.terms, &all, &kw);
    let mut engine = Engine::new(&kb.desc.terms, &all, &[], &[]);
    let heads: Vec<u32> = all
        .iter()
        .enumerate()
        .filter(|&(i, _)| i < rules.len() || i >= rules.len() + queries.len())
        .filter(|&(i, _)| !left_out(i))
        .filter_map(|(_, r)| kb.desc.terms.functor(r.head))
        .filter_map(|rel| engine.schema.id(rel))
        .collect();
    let mut facts = engine.facts();
    let comps = engine.components_for(&heads, false);
    engine.run_adaptive(
        &comps,
        &mut kb.desc.terms,
        &mut facts,
        &mut Scratch::default(),
        budget,
    )?;
    Ok((engine, facts))
}

/// The relations of `kb`'s rules that depend on the state and whose relaxed model (see the
/// [module docs](self)) reaches `cap` atoms, evaluated within `budget`: the ones grounding cannot
/// hold whole, to defer ([`bridge`]). Each stops growing at the cap; relations that read it see
/// the atoms it has. (A static relation's atoms decide literals while grounding, whatever their
/// number: they are never capped.)
pub fn oversized(kb: &mut Kb, budget: Budget, cap: usize) -> Result<Vec<Sym>, EvalError> {
    let kw = kb.desc.kw;
    let static_rels = static_relations(kb);
    let is_static = |s| static_rels.contains(&s);
    // Decomposed as for grounding: a frame axiom joining a move with every cell is slow whole.
    let dec = decompose(&mut kb.desc.terms, &kb.desc.rules, &is_static, &|_| true);
    let rules = relaxed_rules(&mut kb.desc.terms, &dec.rules, &kw);
    let mut engine = Engine::new(&kb.desc.terms, &rules, &[], &[]);
    let uncapped: Vec<bool> = (0..engine.schema.len() as u32)
        .map(|r| kb.engine.schema.id(engine.schema.get(r)))
        .map(|r| r.is_some_and(|r| kb.engine.is_static(r)))
        .collect();
    let mut budget = budget.with_relation_cap(cap, uncapped);
    let heads: Vec<u32> = (rules.iter())
        .filter_map(|r| kb.desc.terms.functor(r.head))
        .filter_map(|rel| engine.schema.id(rel))
        .collect();
    let mut facts = engine.facts();
    let comps = engine.components_for(&heads, false);
    let terms = &mut kb.desc.terms;
    // Only which relations reach the cap matters, not the order of their atoms.
    engine.run_replanning(
        &comps,
        terms,
        &mut facts,
        &mut Scratch::default(),
        &mut budget,
    )?;
    // An auxiliary relation of the decomposition stands for the relation its rule defines, but
    // for an output's: an output cannot be deferred, and the rule is bridged if it reads a
    // relation that is.
    let outputs = [kw.legal, kw.next, kw.goal, kw.terminal, kw.sees];
    let mut defines: FastMap<Sym, Option<Sym>> = FastMap::default();
    for (rule, &o) in dec.rules.iter().zip(&dec.origin) {
        let head = |r: &Rule| kb.desc.terms.functor(r.head).map(|(f, _)| f);
        if let (Some(aux), Some(original)) = (head(rule), head(&kb.desc.rules[o])) {
            defines.insert(aux, Some(original).filter(|o| !outputs.contains(o)));
        }
    }
    let mut out: Vec<Sym> = Vec::new();
    for &r in budget.capped() {
        let rel = engine.schema.get(r).0;
        let Some(rel) = defines.get(&rel).copied().unwrap_or(Some(rel)) else {
            continue;
        };
        if !out.contains(&rel) {
            out.push(rel);
        }
    }
    Ok(out)
}

/// Grounds `kb`'s rules within `budget` and at most `max_rules` ground rules, registering every
/// fluent and move of the relaxed model in `kb`'s tables (initial fluents first, so that ids agree
/// with the reference reasoner's).
///
/// With `bridged` (the rules `kb` holds, bridged around relations too large to ground: see
/// [`bridge`]), the deferred relations are neither evaluated in domain analysis nor grounded, and
/// the bridges' atoms are ground atoms no ground rule defines: their domain comes from their
/// domain rules.
pub fn ground(
    kb: &mut Kb,
    bridged: Option<&Bridged>,
    budget: &mut Budget,
    max_rules: usize,
    profile: &mut LoadProfile,
) -> Result<GroundProgram, GroundError> {
    let start = Instant::now();
    let static_rels = static_relations(kb);
    let mut skip = skipped(kb, &static_rels);
    let mut left_out = FastSet::default();
    let mut rules = kb.desc.rules.clone();
    if let Some(bridged) = bridged {
        left_out.extend(bridged.left_out.iter().copied());
        skip.extend(bridged.left_out.iter().copied());
        for rule in &mut rules {
            let head = kb.desc.terms.functor(rule.head).map(|(f, _)| f);
            if let Some(b) = bridged.bridges.iter().find(|b| Some(b.relation) == head) {
                skip.insert(b.relation);
                *rule = b.domain.clone();
            }
        }
    }
    let is_static = |s| static_rels.contains(&s);
    let dec = decompose(&mut kb.desc.terms, &rules, &is_static, &|s| {
        !skip.contains(&s)
    });
    // The original rules, under heads nothing reads, to count their instances when deciding
    // whether a decomposition pays.
    let originals: Vec<Rule> = rules
        .into_iter()
        .enumerate()
        .map(|(i, mut r)| {
            let name = kb.desc.terms.sym(&format!("__orig{i}"));
            let args = kb.desc.terms.args(r.head).to_vec();
            r.head = kb.desc.terms.app(name, &args);
            r
        })
        .collect();
    // Errors name the original rule a decomposed rule comes from. The engine's rules are the
    // decomposition's followed by the originals (counted, never grounded, under their own heads),
    // then any the relaxation adds.
    let n_originals = originals.len();
    let source = |r: usize| {
        let original = r.checked_sub(dec.rules.len()).filter(|&o| o < n_originals);
        dec.origin.get(r).copied().or(original)
    };
    let origin = |e: EvalError| match e {
        EvalError::Budget { limit, rule } => EvalError::Budget {
            limit,
            rule: rule.and_then(source),
        },
        EvalError::NotStratified { rule, atom } => EvalError::NotStratified {
            rule: rule.and_then(source),
            atom,
        },
    };
    // A rule of a relation left out, or of an auxiliary relation its decomposition made.
    let left_out: Vec<bool> = (dec.origin.iter())
        .map(|&o| kb.desc.terms.functor(kb.desc.rules[o].head))
        .map(|head| head.is_some_and(|(f, _)| left_out.contains(&f)))
        .collect();
    let left_out = |r: usize| left_out.get(r).copied().unwrap_or(false);
    let domain = relaxed_model(kb, &dec.rules, &originals, &left_out, budget).map_err(origin);
    profile.domain = start.elapsed();
    let start = Instant::now();
    let result = match domain {
        Ok((engine, relaxed)) => {
            register(kb, &engine, &relaxed);
            let mut g = Grounder::new(kb, engine, relaxed, static_rels, skip, max_rules);
            g.all(kb, &dec, budget).map(|()| g.inst.program)
        }
        Err(e) => Err(e),
    };
    profile.instantiate = start.elapsed();
    let program = result.map_err(|e| GroundError::Eval(origin(e)))?;
    stratified(&program)?;
    Ok(program)
}

/// The relations of `kb` that depend on neither `true` nor `does`.
fn static_relations(kb: &Kb) -> FastSet<Sym> {
    (0..kb.engine.schema.len() as u32)
        .filter(|&r| kb.engine.is_static(r))
        .map(|r| kb.engine.schema.get(r).0)
        .collect()
}

/// Registers the relaxed model's fluents and moves in `kb`'s tables.
fn register(kb: &mut Kb, engine: &Engine, relaxed: &Facts) {
    let kw = kb.desc.kw;
    let args_of = |rel: Option<u32>, i: usize| -> Vec<TermId> {
        rel.map_or(&[][..], |r| relaxed.of(r))
            .iter()
            .map(|&a| kb.desc.terms.args(a)[i])
            .collect()
    };
    let fluents = args_of(engine.schema.id((kw.true_, 1)), 0);
    let moves = args_of(engine.schema.id((kw.legal, 2)), 1);
    for f in fluents {
        kb.fluent_id(f);
    }
    for m in moves {
        kb.move_id(m);
    }
}

/// The relations whose rules are not grounded: inputs, and static relations other than outputs.
fn skipped(kb: &Kb, statics: &FastSet<Sym>) -> FastSet<Sym> {
    let kw = kb.desc.kw;
    let outputs = [kw.legal, kw.next, kw.goal, kw.terminal];
    let mut skip: FastSet<Sym> = statics
        .iter()
        .copied()
        .filter(|s| !outputs.contains(s))
        .collect();
    skip.extend([kw.init, kw.role, kw.sees, kw.true_, kw.does]);
    skip
}

/// Instantiation: the relaxed model's engine and facts, and the ground rules so far.
struct Grounder {
    engine: Engine,
    relaxed: Facts,
    inst: Instances,
    scratch: Scratch,
    max_rules: usize,
    /// Relations whose rules are not grounded: inputs, and static relations other than outputs.
    skip: FastSet<Sym>,
}

/// A rule that needs a move is grounded as written, without trying its decomposition, when it has
/// fewer instances than this and at most [`CHEAP`] per move.
const MOVED_CAP: usize = 250_000;
/// See [`MOVED_CAP`].
const CHEAP: usize = 256;

/// A count gives up, as if it had reached its cap, after this many join steps per solution it
/// may count: a join that slow would cost more to instantiate than the cap's worth of rules.
const STEPS_PER_SOLUTION: u64 = 4;

/// The `work` of a count that must run to its cap however slow its join (no allowance of join
/// steps per solution).
const UNHURRIED: usize = usize::MAX / STEPS_PER_SOLUTION as usize;

/// Stops a count once it reaches its cap (never escapes [`Grounder::count`]).
const COUNT_CAP: EvalError = EvalError::Budget {
    limit: Limit::GroundRules(0),
    rule: None,
};

impl Grounder {
    fn new(
        kb: &Kb,
        engine: Engine,
        relaxed: Facts,
        statics: FastSet<Sym>,
        skip: FastSet<Sym>,
        max_rules: usize,
    ) -> Grounder {
        let kw = kb.desc.kw;
        let ids = |v: &[TermId]| v.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
        let exact_statics = exact_statics(kb, &engine, &relaxed);
        Grounder {
            inst: Instances {
                fluents: ids(&kb.fluents),
                moves: ids(&kb.moves),
                roles: kb.roles.clone(),
                true_: kw.true_,
                does_sym: kw.does,
                static_rels: statics,
                exact_statics,
                slots: IdTable::default(),
                program: GroundProgram {
                    starts: vec![0],
                    ..GroundProgram::default()
                },
                does_ids: FastMap::default(),
                seen: FastMap::default(),
                same_hash: Vec::new(),
            },
            engine,
            relaxed,
            scratch: Scratch::default(),
            max_rules,
            skip,
        }
    }

    /// Grounds every rule: an original rule's decomposition when it is smaller than the rule
    /// itself (counted over the relaxed model, with the auxiliary rules of other decompositions
    /// it reads that are not grounded yet), the rule as written otherwise.
    fn all(&mut self, kb: &mut Kb, dec: &Decomposed, budget: &mut Budget) -> Result<(), EvalError> {
        let groups = groups(dec);
        // Per rule of the decomposition: whether it is grounded.
        let mut grounded = vec![false; dec.rules.len()];
        for (o, group) in groups.iter().cloned().enumerate() {
            let Some((head_rel, _)) = kb.desc.terms.functor(kb.desc.rules[o].head) else {
                continue;
            };
            if self.skip.contains(&head_rel) {
                continue;
            }
            let rules = with_definitions(dec, group.clone(), &grounded);
            if rules.len() == 1 {
                self.instances(kb, group.start, &dec.rules[group.start], budget)?;
                continue;
            }
            let query = dec.rules.len() + o;
            let original = kb.desc.rules[o].clone();
            // Per-state cost: a rule needing a move runs only when its move is played, so its
            // instances count divided by the number of moves.
            let moves = kb.moves.len().max(1);
            let cost =
                |kb: &Kb, rule: &Rule, n: usize| if has_does(kb, rule) { n / moves } else { n };
            // The common case, decided without instantiating the decomposition: a rule as written
            // that needs a move and has few instances per move.
            if has_does(kb, &original) {
                // Counting past `(CHEAP + 1) * moves` instances cannot change the decision.
                let decisive = MOVED_CAP.min((CHEAP + 1).saturating_mul(moves));
                let whole = self.count(kb, query, decisive, MOVED_CAP, budget)?;
                if whole < MOVED_CAP && cost(kb, &original, whole) <= CHEAP {
                    self.instances(kb, query, &original, budget)?;
                    continue;
                }
            }
            // Both sides are counted before either is instantiated: counting is a join alone,
            // a few times cheaper than building the rules, and a side past the budget is known
            // before any of it is built.
            let room = self.max_rules.saturating_sub(self.inst.program.len()) + 1;
            let (mut n_split, mut split_cost) = (0, 0);
            for &r in &rules {
                let n = self.count(kb, r, room, UNHURRIED, budget)?;
                n_split += n;
                split_cost += cost(kb, &dec.rules[r], n);
            }
            // The rule as written: fewer than four times as many solutions, and no more of them
            // to evaluate in a state; never counted past the ground rules the budget has left.
            let cap = (4 * n_split + 1000).min(room);
            // Nor, here, counting past the instances whose cost would exceed the split's.
            let decisive = match has_does(kb, &original) {
                true => (split_cost + 1).saturating_mul(moves),
                false => split_cost + 1,
            };
            let whole = self.count(kb, query, cap.min(decisive), cap, budget)?;
            if whole < cap && cost(kb, &original, whole) <= split_cost {
                self.instances(kb, query, &original, budget)?;
            } else if n_split >= room {
                // Neither fits, counted in join solutions (a few may fold away or repeat, but the
                // budget holds the join's size): the split's instances would only be dropped.
                return Err(EvalError::Budget {
                    limit: Limit::GroundRules(self.max_rules),
                    rule: Some(query),
                });
            } else {
                for &r in &rules {
                    grounded[r] = true;
                    self.instances(kb, r, &dec.rules[r], budget)?;
                }
            }
        }
        Ok(())
    }

    /// Adds the ground instances of engine rule `ri` (whose body is `rule`'s); returns how many
    /// ground rules it added.
    fn instances(
        &mut self,
        kb: &mut Kb,
        ri: usize,
        rule: &Rule,
        budget: &mut Budget,
    ) -> Result<usize, EvalError> {
        let before = self.inst.program.len();
        let unique = self.unique_instances(kb, rule);
        let plan = self.engine.full_plan(&kb.desc.terms, ri, &mut self.relaxed);
        let (inst, max_rules, statics) = (&mut self.inst, self.max_rules, &kb.statics);
        let mut lits = Vec::new();
        let mut memos = LitMemo::for_body(&kb.desc.terms, &rule.body);
        let steps = matching_steps(&plan, &rule.body);
        self.engine.solve(
            &plan,
            &mut kb.desc.terms,
            None,
            &mut self.relaxed,
            None,
            &mut self.scratch,
            budget,
            &mut |terms, relaxed, b, matched, budget| {
                let body = &rule.body;
                if !inst.body(
                    terms, statics, relaxed, body, &mut memos, &steps, b, matched, &mut lits,
                ) {
                    return Ok(());
                }
                let Some(h) = terms.substitute(rule.head, b) else {
                    return Ok(());
                };
                let h = inst.slot(h);
                inst.add(h, &mut lits, unique);
                let n = inst.program.len();
                if n > max_rules {
                    return Err(EvalError::Budget {
                        limit: Limit::GroundRules(max_rules),
                        rule: Some(ri),
                    });
                }
                if n % 4096 == 0
                    && terms.bytes() + relaxed.bytes() + inst.program.bytes() > budget.max_bytes
                {
                    return Err(EvalError::Budget {
                        limit: Limit::Memory(budget.max_bytes),
                        rule: Some(ri),
                    });
                }
                Ok(())
            },
        )?;
        Ok(self.inst.program.len() - before)
    }

    /// Whether no two ground instances of `rule` can be equal, nor equal another rule's: its head
    /// relation has no other rule, and each of its variables occurs in the head or in a positive
    /// literal that stays in the instance (of `true`, `does` or a relation that is not static), no
    /// two of one relation, so different solutions have different heads or literals. A rule with
    /// this property skips the duplicate check, a hash table probe per instance (a tenth of
    /// racer4's load).
    fn unique_instances(&self, kb: &Kb, rule: &Rule) -> bool {
        let terms = &kb.desc.terms;
        let rel = |atom: TermId| terms.functor(atom).map(|(f, _)| f);
        let head = rel(rule.head);
        let rules_of_head = kb.desc.rules.iter().filter(|r| rel(r.head) == head);
        if rules_of_head.count() > 1 {
            return false;
        }
        let kw = kb.desc.kw;
        // A variable of the head tells instances apart by their heads.
        let (mut kept, mut kept_rels) = (Vec::new(), Vec::new());
        terms.vars_of(rule.head, &mut kept);
        for lit in &rule.body {
            if let Literal::Pos(a) = *lit {
                let r = rel(a);
                let input = r == Some(kw.true_) || r == Some(kw.does);
                if input || r.is_some_and(|r| !self.inst.static_rels.contains(&r)) {
                    // Two literals of one relation can swap atoms between solutions (`(adjacent
                    // ?x ?y) (adjacent ?y ?x)`): the same literals, sorted, for both.
                    if kept_rels.contains(&r) {
                        return false;
                    }
                    kept_rels.push(r);
                    terms.vars_of(a, &mut kept);
                }
            }
        }
        let mut all = Vec::new();
        terms.vars_of(rule.head, &mut all);
        for lit in &rule.body {
            match *lit {
                Literal::Pos(a) | Literal::Neg(a) => terms.vars_of(a, &mut all),
                Literal::Distinct(x, y) | Literal::Same(x, y) => {
                    terms.vars_of(x, &mut all);
                    terms.vars_of(y, &mut all);
                }
            }
        }
        all.iter().all(|v| kept.contains(v))
    }

    /// The number of solutions of engine rule `ri` over the relaxed model, up to `cap`; `cap`
    /// too when the join takes more than [`STEPS_PER_SOLUTION`] steps per solution of `work`
    /// (at least `cap`: a count stopped early for its decision keeps the step allowance of the
    /// larger cap, so that the join's speed decides as before).
    fn count(
        &mut self,
        kb: &mut Kb,
        ri: usize,
        cap: usize,
        work: usize,
        budget: &mut Budget,
    ) -> Result<usize, EvalError> {
        let plan = self.engine.full_plan(&kb.desc.terms, ri, &mut self.relaxed);
        let outer_steps = budget.max_steps;
        let steps = (work.max(cap) as u64).saturating_mul(STEPS_PER_SOLUTION);
        budget.max_steps = outer_steps.min(budget.steps().saturating_add(steps));
        let mut n = 0;
        let result = self.engine.solve(
            &plan,
            &mut kb.desc.terms,
            None,
            &mut self.relaxed,
            None,
            &mut self.scratch,
            budget,
            &mut |_, _, _, _, _| {
                n += 1;
                if n >= cap {
                    Err(COUNT_CAP)
                } else {
                    Ok(())
                }
            },
        );
        let ours = budget.max_steps < outer_steps;
        budget.max_steps = outer_steps;
        match result {
            Err(e) if e == COUNT_CAP => Ok(n),
            Err(EvalError::Budget {
                limit: Limit::JoinSteps(_),
                ..
            }) if ours => Ok(cap),
            other => other.map(|()| n),
        }
    }
}

/// The static relations whose relaxed model (`relaxed`, of `engine`) is their exact model
/// (`kb`'s): as many atoms, the exact ones being among the relaxed.
fn exact_statics(kb: &Kb, engine: &Engine, relaxed: &Facts) -> FastSet<(Sym, usize)> {
    (0..kb.engine.schema.len() as u32)
        .filter(|&r| kb.engine.is_static(r))
        .map(|r| (r, kb.engine.schema.get(r)))
        .filter(|&(r, rel)| {
            engine
                .schema
                .id(rel)
                .is_some_and(|id| relaxed.of(id).len() == kb.statics.of(r).len())
        })
        .map(|(_, rel)| rel)
        .collect()
}

/// Per literal of `body`, the step of `plan` that matches it to a fact, if it is positive (a
/// literal written twice is matched by two steps, one each).
fn matching_steps(plan: &Plan, body: &[Literal]) -> Vec<Option<usize>> {
    let mut taken = vec![false; plan.steps.len()];
    body.iter()
        .map(|lit| {
            let Literal::Pos(atom) = *lit else {
                return None;
            };
            let step = plan.steps.iter().enumerate().position(|(i, step)| {
                !taken[i]
                    && matches!(*step, Step::Scan { pat, .. } | Step::Check { pat } if pat == atom)
            })?;
            taken[step] = true;
            Some(step)
        })
        .collect()
}

/// The decomposition's rules by original rule: each original's rewritten rule, then its
/// auxiliary rules.
fn groups(dec: &Decomposed) -> Vec<std::ops::Range<usize>> {
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for (r, &o) in dec.origin.iter().enumerate() {
        match groups.get_mut(o) {
            Some(group) => group.end = r + 1,
            None => groups.push(r..r + 1),
        }
    }
    groups
}

/// The rules of `group` (an original's decomposition) and the rules defining the auxiliary
/// atoms they read from other decompositions that are not `grounded` yet, and theirs.
fn with_definitions(
    dec: &Decomposed,
    group: std::ops::Range<usize>,
    grounded: &[bool],
) -> Vec<usize> {
    let mut rules: Vec<usize> = group.collect();
    let mut next = 0;
    while let Some(&r) = rules.get(next) {
        next += 1;
        for &def in &dec.reads[r] {
            if !grounded[def] && !rules.contains(&def) {
                rules.push(def);
            }
        }
    }
    rules
}

/// Whether `rule` has a positive `does` literal (its ground rules run only when their move is
/// played).
fn has_does(kb: &Kb, rule: &Rule) -> bool {
    rule.body.iter().any(|l| match *l {
        Literal::Pos(a) => kb
            .desc
            .terms
            .functor(a)
            .is_some_and(|(f, _)| f == kb.desc.kw.does),
        _ => false,
    })
}

/// Checks that no cycle of ground atoms goes through a negated literal.
fn stratified(p: &GroundProgram) -> Result<(), GroundError> {
    let n = p.atoms.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..p.len() {
        for &l in p.body(i) {
            if l & KIND == KIND_DERIVED {
                edges[p.heads[i] as usize].push((l & INDEX) as usize);
            }
        }
    }
    let comps = graph::sccs(&edges);
    let mut comp_of = vec![0; n];
    for (c, comp) in comps.iter().enumerate() {
        for &v in comp {
            comp_of[v] = c;
        }
    }
    for i in 0..p.len() {
        let h = p.heads[i] as usize;
        for &l in p.body(i) {
            let b = (l & INDEX) as usize;
            if l & KIND == KIND_DERIVED && l & NEGATED != 0 && comp_of[b] == comp_of[h] {
                let cycle = graph::path(&edges, b, h).unwrap_or_default();
                let mut atoms = vec![p.atoms[h]];
                atoms.extend(cycle.iter().map(|&v| p.atoms[v]));
                return Err(GroundError::Cycle(atoms));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::shipped::SHIPPED;

    /// Grounds a shipped game's rules with the default limits.
    fn ground_shipped(text: &str, name: &str) -> Option<GroundProgram> {
        let limits = crate::Limits::default();
        let desc = crate::description::load_with(text, name, limits.unsafe_variables).ok()?;
        let mut budget = Budget::new(limits.atoms, limits.memory_bytes, None, u32::MAX);
        let mut kb = Kb::new(desc, &mut budget, limits.static_relation_atoms).ok()?;
        let mut relaxed = Budget::new(
            limits.relaxed_atoms,
            limits.memory_bytes,
            None,
            crate::datalog::MAX_RELAXED_DEPTH,
        );
        let mut profile = LoadProfile::default();
        ground(
            &mut kb,
            None,
            &mut relaxed,
            limits.ground_rules,
            &mut profile,
        )
        .ok()
    }

    /// The duplicate check skipped for rules whose instances are unique
    /// ([`Grounder::unique_instances`]) must not let a duplicate through: symmetric literals
    /// (`(has_runner ?q) (has_runner ?p)`) are the case it must see.
    #[test]
    fn no_ground_rule_is_added_twice() {
        let mut grounded = 0;
        for &(name, text) in SHIPPED {
            let Some(p) = ground_shipped(text, name) else {
                continue;
            };
            grounded += 1;
            let mut rules: Vec<(u32, &[Lit])> =
                (0..p.len()).map(|r| (p.heads[r], p.body(r))).collect();
            rules.sort_unstable();
            let before = rules.len();
            rules.dedup();
            assert_eq!(rules.len(), before, "{name}: a ground rule appears twice");
        }
        assert!(grounded >= 20, "only {grounded} shipped games grounded");
    }
}

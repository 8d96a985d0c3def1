//! The Datalog engine under both reasoners: bottom-up, stratified, semi-naive evaluation with
//! indexed joins, under a budget.
//!
//! # Evaluation
//! The relations of a program are split into the strongly connected components of their dependency
//! graph, evaluated dependencies first. A component whose rules do not read its own relations takes
//! one pass; a recursive one is evaluated *semi-naively* (Bancilhon, Ramakrishnan, *An Amateur's
//! Introduction to Recursive Query Processing Strategies*, 1986): after a first pass, each round
//! joins every rule once per recursive body literal, that literal ranging over the atoms derived in
//! the previous round only (and placed first in the join), until a round derives nothing new.
//! A last-round atom that agrees with one joined before on every variable the rest of the rule
//! reads derives nothing new, and is skipped ([`repeats`]).
//!
//! A component with a negative edge inside it (recursion through negation at the relation level,
//! which GDL's validator forbids but real descriptions contain, e.g. `(<= (goal r 100) (not (goal r
//! 0)))`) is evaluated by the alternating fixpoint (Van Gelder, *The Alternating Fixpoint of Logic
//! Programs with Negation*, 1989): alternately an over- and an under-estimate of the component,
//! negation read against the other estimate, until the under-estimate is stable. When the ground
//! program is stratified, as GDL requires of every game, the two meet and give its unique stratified
//! model; when they do not, the input has no stratified model and evaluation fails with
//! [`EvalError::NotStratified`].
//!
//! # Joins
//! Each rule body is compiled into a [`Plan`]: tests (negations, `distinct`, fully bound atoms) as
//! soon as their variables are bound, otherwise the positive literal expected to have the fewest
//! matches. A positive literal with bound arguments is looked up in a hash index of its relation
//! keyed on those arguments ([`crate::datalog::facts`]), which is what keeps joins over large relations
//! (a chess board's squares, their lines and threats) from scanning every fact at each step.
//! One-off evaluations plan each component with the sizes of the relations below it
//! ([`Engine::run_adaptive`]); [`Engine::run_replanning`] also plans a recursive component's
//! rounds again as its own relations grow, estimating a lookup by how many atoms share a key of
//! the index it would use.
//!
//! # Budgets
//! Every evaluation runs under a [`Budget`] (atoms, bytes, a deadline, term depth); exceeding it stops
//! the evaluation within the budget and names the rule that was being evaluated.

pub mod facts;
mod heads;
mod repeats;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use smallvec::SmallVec;

use crate::datalog::facts::{fold_key, key_paths, Facts, Path, END, KEY_SEED};
use crate::datalog::heads::{HeadCache, Lookup, MAX_KEY};
use crate::datalog::repeats::{Joined, Repeats};
use crate::description::graph;
use crate::description::{Literal, Rule};
use crate::syntax::term::{Bindings, Sym, TermId, Terms};
use game_trait::hash::{FastMap, FastSet};

/// The relations of a program: name and arity, numbered.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    ids: FastMap<(Sym, usize), u32>,
    rels: Vec<(Sym, usize)>,
}

impl Schema {
    /// The id of relation `rel`, if the program mentions it.
    pub fn id(&self, rel: (Sym, usize)) -> Option<u32> {
        self.ids.get(&rel).copied()
    }

    /// Name and arity of relation `id`.
    pub fn get(&self, id: u32) -> (Sym, usize) {
        self.rels[id as usize]
    }

    fn intern(&mut self, rel: (Sym, usize)) -> u32 {
        let next = self.rels.len() as u32;
        *self.ids.entry(rel).or_insert_with(|| {
            self.rels.push(rel);
            next
        })
    }

    /// How many relations.
    pub fn len(&self) -> usize {
        self.rels.len()
    }
}

/// What stopped an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// More atoms than allowed.
    Atoms(usize),
    /// More memory (terms, facts, ground rules) than allowed, in bytes.
    Memory(usize),
    /// More time than allowed.
    Time(Duration),
    /// A term nested deeper than allowed (an unbounded counter, a growing list).
    Depth(u32),
    /// More ground rules than allowed (grounding only).
    GroundRules(usize),
    /// More join steps than allowed (a step binds one literal or fails to).
    JoinSteps(u64),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Atoms(n) => write!(f, "more than {n} atoms"),
            Limit::Memory(n) => write!(f, "more than {} MB", n / 1_000_000),
            Limit::Time(d) => write!(f, "more than {:.1} s", d.as_secs_f64()),
            Limit::Depth(n) => write!(f, "terms nested deeper than {n}"),
            Limit::GroundRules(n) => write!(f, "more than {n} ground rules"),
            Limit::JoinSteps(n) => write!(f, "more than {n} join steps"),
        }
    }
}

/// Why an evaluation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A budget limit was reached while evaluating rule `rule` (an index into the rules the engine
    /// was built from; `None` for rules the engine added itself).
    Budget {
        /// Which limit.
        limit: Limit,
        /// The rule being evaluated.
        rule: Option<usize>,
    },
    /// The component of rule `rule` has no stratified model for this input: `atom` is neither true
    /// nor false in its well-founded model (recursion through negation at the ground level).
    NotStratified {
        /// A rule of the component.
        rule: Option<usize>,
        /// An atom left undefined.
        atom: TermId,
    },
}

/// Limits of one evaluation.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The most atoms a model may hold.
    pub max_atoms: usize,
    /// The most bytes terms and facts may take (checked now and then).
    pub max_bytes: usize,
    /// When to give up.
    pub deadline: Option<(Instant, Duration)>,
    /// The deepest term allowed.
    pub max_depth: u32,
    /// The most join steps all evaluations under this budget may take together (checked every
    /// few thousand steps).
    pub max_steps: u64,
    steps: u64,
    /// Join steps per rule of the description, when counted (see
    /// [`with_rule_steps`](Self::with_rule_steps)); empty otherwise.
    rule_steps: Vec<u64>,
    /// The most atoms one relation may hold before it is capped (see
    /// [`with_relation_cap`](Self::with_relation_cap)).
    relation_cap: usize,
    /// The relations that reached `relation_cap`: no rule adds to them any more.
    capped: Vec<u32>,
    /// Per relation id: whether `relation_cap` does not apply to it.
    uncapped: Vec<bool>,
}

impl Budget {
    /// No limit: the reference reasoner's queries during play.
    pub fn unlimited() -> Budget {
        Budget {
            max_atoms: usize::MAX,
            max_bytes: usize::MAX,
            deadline: None,
            max_depth: u32::MAX,
            max_steps: u64::MAX,
            steps: 0,
            rule_steps: Vec::new(),
            relation_cap: usize::MAX,
            capped: Vec::new(),
            uncapped: Vec::new(),
        }
    }

    /// The given limits, the time counted from now.
    pub fn new(
        max_atoms: usize,
        max_bytes: usize,
        time: Option<Duration>,
        max_depth: u32,
    ) -> Budget {
        Budget {
            max_atoms,
            max_bytes,
            deadline: time.map(|d| (Instant::now() + d, d)),
            max_depth,
            max_steps: u64::MAX,
            steps: 0,
            rule_steps: Vec::new(),
            relation_cap: usize::MAX,
            capped: Vec::new(),
            uncapped: Vec::new(),
        }
    }

    /// This budget, where a relation that reaches `cap` atoms stops growing instead of
    /// stopping the evaluation: neither its rules nor those that read it run any more (an
    /// under-approximation, for telling which relations are too large to hold whole:
    /// [`capped`](Self::capped)). Relations whose id `uncapped` flags grow as they will.
    pub fn with_relation_cap(mut self, cap: usize, uncapped: Vec<bool>) -> Budget {
        self.relation_cap = cap;
        self.uncapped = uncapped;
        self
    }

    /// The relations that reached the [relation cap](Self::with_relation_cap).
    pub fn capped(&self) -> &[u32] {
        &self.capped
    }

    /// Whether a rule of `head` with this body is not to run: its head, or a relation it reads,
    /// reached the cap. (Every rule that reads a relation too large to ground is rewritten or
    /// left out of grounding anyway; evaluating it would only make the run slower.)
    fn reads_capped(&self, head: u32, body: &[Lit]) -> bool {
        let capped = |r: &u32| self.capped.contains(r);
        capped(&head)
            || body.iter().any(|l| match l {
                Lit::Pos(_, r) | Lit::Neg(_, r) => capped(r),
                Lit::Distinct(..) | Lit::Same(..) => false,
            })
    }

    /// The join steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// This budget, adding each join step to `counts[rule]` for the description's rule it joins
    /// (`counts` as long as the description's rules; internal rules are not counted).
    pub fn with_rule_steps(mut self, counts: Vec<u64>) -> Budget {
        self.rule_steps = counts;
        self
    }

    /// The counts given to [`with_rule_steps`](Self::with_rule_steps), with this budget's steps
    /// added; this budget counts no more.
    pub fn take_rule_steps(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.rule_steps)
    }

    /// Counts a join step, and checks time, memory and steps every few thousand; `Err` names
    /// `rule`.
    #[inline]
    pub fn tick(
        &mut self,
        terms: &Terms,
        facts: &Facts,
        rule: Option<usize>,
    ) -> Result<(), EvalError> {
        self.steps += 1;
        if let Some(count) = rule.and_then(|r| self.rule_steps.get_mut(r)) {
            *count += 1;
        }
        if self.steps % 4096 != 0 {
            return Ok(());
        }
        self.check_slow(terms, facts, rule)
    }

    /// Checks every limit now, as [`tick`](Self::tick) does every few thousand steps: for the end
    /// of a query, so that one finished in fewer steps than that is held to the limits too.
    pub fn check_now(&self, terms: &Terms, facts: &Facts) -> Result<(), EvalError> {
        self.check_slow(terms, facts, None)
    }

    fn check_slow(
        &self,
        terms: &Terms,
        facts: &Facts,
        rule: Option<usize>,
    ) -> Result<(), EvalError> {
        // An unlimited budget (every reference query's) skips the sum over the relations.
        let limited_bytes = self.max_bytes != usize::MAX;
        let limit = if let Some((_, d)) = self.deadline.filter(|(at, _)| Instant::now() > *at) {
            Some(Limit::Time(d))
        } else if limited_bytes && terms.bytes() + facts.bytes() > self.max_bytes {
            Some(Limit::Memory(self.max_bytes))
        } else if terms.max_depth() > self.max_depth {
            Some(Limit::Depth(self.max_depth))
        } else if self.steps > self.max_steps {
            Some(Limit::JoinSteps(self.max_steps))
        } else {
            None
        };
        limit.map_or(Ok(()), |limit| Err(EvalError::Budget { limit, rule }))
    }

    fn atoms(&self, facts: &Facts, rule: Option<usize>) -> Result<(), EvalError> {
        if facts.len() > self.max_atoms {
            return Err(EvalError::Budget {
                limit: Limit::Atoms(self.max_atoms),
                rule,
            });
        }
        Ok(())
    }
}

/// Stops the join of a rule whose head relation just reached the budget's relation cap (never
/// escapes [`Engine::fire_with`]).
const RELATION_CAPPED: EvalError = EvalError::Budget {
    limit: Limit::Atoms(usize::MAX),
    rule: None,
};

/// "No call": the step needs no call pattern's answers first (see [`Plan`]).
pub(crate) const NO_CALL: u32 = u32::MAX;

/// Goal-directed evaluation's hook ([`crate::reference::demand`]): called before a join step that needs the
/// answers of call pattern `call` with bound values `values`.
pub(crate) trait DemandHook {
    /// Makes sure the facts hold every answer of the call.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        engine: &Engine,
        call: u32,
        values: &[TermId],
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        budget: &mut Budget,
    ) -> Result<(), EvalError>;
}

/// What [`Engine::solve`] calls with each solution's bindings and the facts its steps matched.
pub type OnSolution<'a> = dyn FnMut(&mut Terms, &mut Facts, &Bindings, Matched<'_>, &mut Budget) -> Result<(), EvalError>
    + 'a;

/// The facts a solution's steps matched, by step of its [`Plan`]: what a positive literal
/// denotes, found without building or looking up its atom again.
#[derive(Clone, Copy)]
pub struct Matched<'a>(&'a [Level]);

impl Matched<'_> {
    /// The fact step `step` matched, if it is a positive literal's.
    pub fn atom(&self, step: usize) -> Option<TermId> {
        self.0.get(step).map(|l| l.atom).filter(|&a| a != NO_ATOM)
    }
}

/// [`Level::atom`] of a step that matches no fact.
const NO_ATOM: TermId = TermId(u32::MAX);

/// A body literal with its relation id.
#[derive(Clone, Copy, Debug)]
enum Lit {
    Pos(TermId, u32),
    Neg(TermId, u32),
    Distinct(TermId, TermId),
    Same(TermId, TermId),
}

/// A rule prepared for the engine.
#[derive(Clone, Debug)]
struct Prepared {
    head: TermId,
    head_rel: u32,
    /// The head's variables, each once: they determine the head atom.
    head_vars: SmallVec<[u32; MAX_KEY]>,
    vars: u32,
    body: Vec<Lit>,
    /// Index of the rule the engine was given, for messages; `None` for internal rules.
    source: Option<usize>,
}

/// One literal of a join, in order.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// A positive literal with unbound variables: its matching atoms, through index `index` of its
    /// relation keyed by `keys` (resolved under the bindings) or, without index, all of them;
    /// `delta` restricts it to the atoms of the last semi-naive round.
    Scan {
        pat: TermId,
        rel: u32,
        index: u32,
        keys: SmallVec<[TermId; 4]>,
        delta: bool,
    },
    /// A positive literal whose variables are all bound: one lookup.
    Check { pat: TermId },
    /// A negated literal (all variables bound); `internal` when its relation is in the component
    /// being evaluated (read against the alternating fixpoint's estimate).
    Neg { pat: TermId, internal: bool },
    /// `distinct` (all variables bound).
    Distinct(TermId, TermId),
    /// `(not (distinct a b))` (all variables bound).
    Same(TermId, TermId),
}

/// A rule body in join order.
#[derive(Clone, Debug)]
pub struct Plan {
    pub(crate) rule: usize,
    pub(crate) steps: Vec<Step>,
    /// Goal-directed evaluation ([`crate::reference::demand`]): per step, the call pattern whose answers it
    /// needs first ([`NO_CALL`] for none); empty in bottom-up evaluation.
    pub(crate) calls: Vec<u32>,
    /// How many steps bind every variable of the head: a model needs one solution per head atom,
    /// so once they are bound and the head holds, the remaining steps can be skipped.
    head_bound: usize,
    /// A delta plan's literal whose atoms may repeat one already joined ([`repeats`]).
    repeats: Option<Repeats>,
}

/// A strongly connected component of the relation graph and its rules' plans.
#[derive(Clone, Debug, Default)]
struct Component {
    rels: Vec<u32>,
    rules: Vec<usize>,
    /// One plan per rule, over all atoms.
    full: Vec<Plan>,
    /// One plan per (rule, recursive literal), that literal over the last round's atoms.
    delta: Vec<Plan>,
    recursive: bool,
    internal_negation: bool,
    /// Components this one reads.
    deps: Vec<usize>,
}

/// A program prepared for evaluation: rules, relation schema, components, plans and indexes.
#[derive(Clone, Debug)]
pub struct Engine {
    /// The relations.
    pub schema: Schema,
    rules: Vec<Prepared>,
    comps: Vec<Component>,
    comp_of: Vec<usize>,
    index_defs: Vec<Vec<Box<[Path]>>>,
    /// Per relation: whether it depends on none of the input relations (its atoms are the same in
    /// every evaluation, so they can be computed once into a base layer).
    is_static: Vec<bool>,
}

/// Reusable buffers of the join loop.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    bindings: Bindings,
    levels: Vec<Level>,
    /// Boxed: goal-directed evaluation moves its scratches in and out of a pool per call, and
    /// never uses the cache.
    heads: Option<Box<HeadCache>>,
    /// Per delta plan with [`Plan::repeats`] (keyed by rule and literal), what it joined in the
    /// evaluation of its component so far.
    joined: FastMap<(usize, u32), Joined>,
}

#[derive(Clone, Copy, Debug)]
struct Level {
    pos: u32,
    end: u32,
    mark: usize,
    started: bool,
    /// The fact a positive literal's step last matched ([`NO_ATOM`] for other steps).
    atom: TermId,
}

impl Default for Level {
    fn default() -> Level {
        Level {
            pos: 0,
            end: 0,
            mark: 0,
            started: false,
            atom: NO_ATOM,
        }
    }
}

/// A component's first pass sees all of the atoms of its relations `rels`; the atoms they hold
/// now, which the first round's window starts after.
fn first_window(rels: &[u32], facts: &mut Facts) -> Vec<u32> {
    let seen: Vec<u32> = rels.iter().map(|&r| facts.of(r).len() as u32).collect();
    for (&r, &len) in rels.iter().zip(&seen) {
        facts.set_window(r, 0, len);
    }
    seen
}

/// The next semi-naive round's window on `rels`: the atoms derived since `seen`, which moves
/// past them; `false` when there are none (the component is complete).
fn next_window(rels: &[u32], facts: &mut Facts, seen: &mut [u32]) -> bool {
    let mut any = false;
    for (&r, seen) in rels.iter().zip(seen) {
        let len = facts.of(r).len() as u32;
        facts.set_window(r, *seen, len);
        any |= len > *seen;
        *seen = len;
    }
    any
}

/// [`Engine::run_replanning`] plans a component's rounds again once one of its relations holds
/// this many times the atoms it had when they were planned…
const REPLAN_GROWTH: usize = 4;
/// …and at least this many (a few in tests, whose models are small).
const REPLAN_ATOMS: usize = if cfg!(test) { 4 } else { 1024 };

/// The size the planner assumes of a derived relation it knows nothing of.
const UNKNOWN_SIZE: usize = 1 << 12;

/// Estimated matches of a literal with `bound` of its key paths bound, in a relation of `size`.
fn estimate(size: usize, bound: usize) -> usize {
    (size >> (3 * bound.min(20))).max(1)
}

impl Engine {
    /// Prepares `rules` (their terms in `terms`); `inputs` are the relations supplied by the caller
    /// of each evaluation (`true` and `does` for the game rules), `extra` relations to know even if
    /// no rule mentions them.
    pub fn new(
        terms: &Terms,
        rules: &[Rule],
        inputs: &[(Sym, usize)],
        extra: &[(Sym, usize)],
    ) -> Engine {
        let mut schema = Schema::default();
        for &r in inputs.iter().chain(extra) {
            schema.intern(r);
        }
        let mut prepared = Vec::with_capacity(rules.len());
        for (i, r) in rules.iter().enumerate() {
            let Some(rel) = terms.functor(r.head) else {
                continue;
            };
            let head_rel = schema.intern(rel);
            let mut body = Vec::with_capacity(r.body.len());
            let mut usable = true;
            for lit in &r.body {
                body.push(match *lit {
                    Literal::Pos(a) | Literal::Neg(a) => {
                        let Some(rel) = terms.functor(a) else {
                            usable = false;
                            break;
                        };
                        let id = schema.intern(rel);
                        if matches!(lit, Literal::Pos(_)) {
                            Lit::Pos(a, id)
                        } else {
                            Lit::Neg(a, id)
                        }
                    }
                    Literal::Distinct(a, b) => Lit::Distinct(a, b),
                    Literal::Same(a, b) => Lit::Same(a, b),
                });
            }
            if usable {
                let mut head_vars = Vec::new();
                terms.vars_of(r.head, &mut head_vars);
                prepared.push(Prepared {
                    head: r.head,
                    head_rel,
                    head_vars: head_vars.into_iter().collect(),
                    vars: r.vars,
                    body,
                    source: Some(i),
                });
            }
        }
        let input_ids: Vec<u32> = inputs.iter().filter_map(|&r| schema.id(r)).collect();
        let mut engine = Engine {
            index_defs: vec![Vec::new(); schema.len()],
            is_static: Vec::new(),
            comp_of: Vec::new(),
            comps: Vec::new(),
            schema,
            rules: prepared,
        };
        engine.components();
        engine.statics(&input_ids);
        for c in 0..engine.comps.len() {
            engine.plan_component(terms, c, &|_| None);
        }
        engine
    }

    /// The relation graph's components, dependencies first, with their rules.
    fn components(&mut self) {
        let n = self.schema.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for r in &self.rules {
            for lit in &r.body {
                if let Lit::Pos(_, b) | Lit::Neg(_, b) = *lit {
                    if !edges[r.head_rel as usize].contains(&(b as usize)) {
                        edges[r.head_rel as usize].push(b as usize);
                    }
                }
            }
        }
        let sccs = graph::sccs(&edges);
        self.comp_of = vec![0; n];
        for (c, comp) in sccs.iter().enumerate() {
            for &v in comp {
                self.comp_of[v] = c;
            }
        }
        self.comps = sccs
            .iter()
            .map(|rels| Component {
                rels: rels.iter().map(|&r| r as u32).collect(),
                ..Component::default()
            })
            .collect();
        for (i, r) in self.rules.iter().enumerate() {
            let c = self.comp_of[r.head_rel as usize];
            self.comps[c].rules.push(i);
            for lit in &r.body {
                match *lit {
                    Lit::Pos(_, b) | Lit::Neg(_, b) => {
                        let d = self.comp_of[b as usize];
                        if d == c {
                            self.comps[c].recursive = true;
                            if matches!(lit, Lit::Neg(..)) {
                                self.comps[c].internal_negation = true;
                            }
                        } else if !self.comps[c].deps.contains(&d) {
                            self.comps[c].deps.push(d);
                        }
                    }
                    Lit::Distinct(..) | Lit::Same(..) => {}
                }
            }
        }
    }

    /// Marks the relations that depend on no input relation.
    fn statics(&mut self, inputs: &[u32]) {
        let mut dynamic = vec![false; self.comps.len()];
        for &i in inputs {
            dynamic[self.comp_of[i as usize]] = true;
        }
        for c in 0..self.comps.len() {
            if self.comps[c].deps.iter().any(|&d| dynamic[d]) {
                dynamic[c] = true;
            }
        }
        self.is_static = (0..self.schema.len())
            .map(|r| !dynamic[self.comp_of[r]])
            .collect();
    }

    /// Whether relation `rel` is evaluated once, into a base layer: it depends on no input
    /// relation, and was not [deferred](Engine::run_statics) for its size.
    pub fn is_static(&self, rel: u32) -> bool {
        self.is_static[rel as usize]
    }

    /// Evaluates the static components into `facts` (dependencies first, each planned with the
    /// sizes of those below it), except the ones too large to hold whole: a non-recursive
    /// component whose own atoms pass `defer_above` is rolled back and, with every component that
    /// reads it, no longer static. Its relations are then evaluated with the dynamic ones, in
    /// each query; a caller that defers anything must evaluate goal-directed
    /// ([`crate::reference::demand`]), where a query computes only the atoms its bound arguments
    /// ask for. The `keep` relations, and those they read, are never deferred (their atoms are
    /// read whole): passing the limit there is an error. Returns the deferred relations.
    pub fn run_statics(
        &mut self,
        terms: &mut Terms,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
        defer_above: usize,
        keep: &[u32],
    ) -> Result<Vec<u32>, EvalError> {
        let mut deferred = Vec::new();
        let kept = self.components_for(keep, false);
        for c in self.all_components(true) {
            let still_static = self.comps[c].rels.iter().all(|&r| self.is_static(r));
            if self.comps[c].rules.is_empty() || !still_static {
                continue;
            }
            // A recursive component stays whole: goal-directed, a recursion answers by a chain of
            // nested calls as long as itself (`(less 0 300)`: 300 calls), where a non-recursive
            // one is a single join of the relations below it.
            let deferrable = !kept.contains(&c) && !self.comps[c].recursive;
            let limit = budget.max_atoms;
            let cap = match deferrable {
                true => limit.min(facts.len().saturating_add(defer_above)),
                false => limit,
            };
            budget.max_atoms = cap;
            let result = self.run_adaptive(&[c], terms, facts, scratch, budget);
            budget.max_atoms = limit;
            match result {
                Err(EvalError::Budget {
                    limit: Limit::Atoms(_),
                    ..
                }) if cap < limit => {
                    for &r in &self.comps[c].rels {
                        facts.clear_relation(r);
                    }
                    deferred.extend(self.defer(c));
                }
                other => other?,
            }
        }
        Ok(deferred)
    }

    /// Makes component `c` and every component that reads it (transitively) dynamic; returns the
    /// relations of `c`.
    fn defer(&mut self, c: usize) -> Vec<u32> {
        let mut dynamic = vec![false; self.comps.len()];
        dynamic[c] = true;
        // Components come dependencies first, so one pass reaches every reader.
        for d in c + 1..self.comps.len() {
            if self.comps[d].deps.iter().any(|&e| dynamic[e]) {
                dynamic[d] = true;
            }
        }
        for (d, _) in dynamic.iter().enumerate().filter(|(_, &on)| on) {
            for &r in &self.comps[d].rels {
                self.is_static[r as usize] = false;
            }
        }
        self.comps[c].rels.clone()
    }

    /// Compiles the plans of components `comps` again with relation sizes `size` (`None`: unknown).
    pub fn plan_components(
        &mut self,
        terms: &Terms,
        comps: &[usize],
        size: &dyn Fn(u32) -> Option<usize>,
    ) {
        for &c in comps {
            self.plan_component(terms, c, size);
        }
    }

    /// (Re)compiles the plans of component `c`, estimating relation sizes with `size` (`None`:
    /// unknown).
    fn plan_component(&mut self, terms: &Terms, c: usize, size: &dyn Fn(u32) -> Option<usize>) {
        let in_comp: Vec<u32> = self.comps[c].rels.clone();
        let full = (self.comps[c].rules.clone().into_iter())
            .map(|ri| self.plan(terms, ri, None, &in_comp, size, &[], None))
            .collect();
        // The first pass sees the component's relations as they are (usually empty: joining them
        // first fails at once); later rounds see them growing, so their size counts as unknown.
        let growing = |r: u32| if in_comp.contains(&r) { None } else { size(r) };
        self.comps[c].full = full;
        self.comps[c].delta = self.delta_plans(terms, c, &growing, None);
    }

    /// The delta plans of component `c`: per rule, one per body literal of the component's
    /// relations. `size` and `sharing` as for [`plan`](Self::plan).
    fn delta_plans(
        &mut self,
        terms: &Terms,
        c: usize,
        size: &dyn Fn(u32) -> Option<usize>,
        sharing: Option<&Facts>,
    ) -> Vec<Plan> {
        let in_comp: Vec<u32> = self.comps[c].rels.clone();
        let mut delta = Vec::new();
        for ri in self.comps[c].rules.clone() {
            let body = self.rules[ri].body.clone();
            for (i, lit) in body.iter().enumerate() {
                if let Lit::Pos(_, rel) = *lit {
                    if in_comp.contains(&rel) {
                        delta.push(self.plan(terms, ri, Some(i), &in_comp, size, &[], sharing));
                    }
                }
            }
        }
        delta
    }

    /// Relation sizes for planning goal-directed evaluation: `size`'s where it knows one (static
    /// and input relations), and an estimate for each derived relation that describes a move's
    /// effect — one whose every rule reads the joint move (`moves`, the `does` relation) and
    /// otherwise only relations of known size, such as a racer's new velocity. Per rule, the
    /// product of its positive literals' [`estimate`]s joined greedily in the planner's order,
    /// summed over the rules, and never more than the planner assumes of a relation it knows
    /// nothing of. Planned with it, a racetrack's successor evaluates the new velocity once
    /// instead of once per row of the arithmetic table that the position joins. (Estimating
    /// every derived relation this way changed GGP Base chess's plans for the worse: 2.6 % more
    /// join steps.)
    pub(crate) fn derived_sizes(
        &self,
        terms: &Terms,
        size: &dyn Fn(u32) -> Option<usize>,
        moves: u32,
    ) -> Vec<Option<usize>> {
        let mut sizes: Vec<Option<usize>> = (0..self.schema.len() as u32).map(size).collect();
        let effect_of_move = |ri: &usize| {
            let body = &self.rules[*ri].body;
            let known = body.iter().all(|lit| match *lit {
                Lit::Pos(_, r) | Lit::Neg(_, r) => size(r).is_some(),
                Lit::Distinct(..) | Lit::Same(..) => true,
            });
            known
                && body
                    .iter()
                    .any(|lit| matches!(*lit, Lit::Pos(_, r) if r == moves))
        };
        for comp in &self.comps {
            // A relation of a recursive component reads itself, of unknown size.
            let [rel] = comp.rels[..] else { continue };
            if sizes[rel as usize].is_some()
                || comp.rules.is_empty()
                || !comp.rules.iter().all(effect_of_move)
            {
                continue;
            }
            let derived = (comp.rules.iter())
                .map(|&ri| self.rule_estimate(terms, ri, size))
                .fold(0usize, usize::saturating_add);
            sizes[rel as usize] = Some(derived.min(UNKNOWN_SIZE));
        }
        sizes
    }

    /// The atoms rule `ri`, whose relations all have a known `size`, is expected to derive: its
    /// positive literals joined greedily, smallest [`estimate`] first, the estimates multiplied.
    fn rule_estimate(
        &self,
        terms: &Terms,
        ri: usize,
        size: &dyn Fn(u32) -> Option<usize>,
    ) -> usize {
        let mut left: Vec<(TermId, u32)> = (self.rules[ri].body.iter())
            .filter_map(|lit| match *lit {
                Lit::Pos(a, rel) => Some((a, rel)),
                _ => None,
            })
            .collect();
        let (mut bound, mut product) = (Vec::new(), 1usize);
        while !left.is_empty() {
            let matches = |&(a, rel): &(TermId, u32)| {
                let known = size(rel).unwrap_or(UNKNOWN_SIZE);
                estimate(known, key_paths(terms, a, &bound).len())
            };
            let (k, fewest) = (left.iter().map(matches).enumerate())
                .min_by_key(|&(_, n)| n)
                .expect("a literal is left");
            let (a, _) = left.remove(k);
            terms.vars_of(a, &mut bound);
            product = product.saturating_mul(fewest);
        }
        product
    }

    /// Orders rule `ri`'s literals for joining (literal `delta` first, over the last round only):
    /// the one expected to match the fewest atoms next, from the relations' sizes (`size`; in
    /// `in_comp`, unknown ones are taken as large) or, where `sharing` has an index on the
    /// literal's bound arguments, from how many atoms share a key of it. `init_bound` are bound
    /// before the first step.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn plan(
        &mut self,
        terms: &Terms,
        ri: usize,
        delta: Option<usize>,
        in_comp: &[u32],
        size: &dyn Fn(u32) -> Option<usize>,
        init_bound: &[u32],
        sharing: Option<&Facts>,
    ) -> Plan {
        let body = self.rules[ri].body.clone();
        let mut left: Vec<usize> = (0..body.len()).collect();
        let mut bound: Vec<u32> = init_bound.to_vec();
        let mut steps = Vec::with_capacity(body.len());
        let vars_of = |t: TermId| {
            let mut v = Vec::new();
            terms.vars_of(t, &mut v);
            v
        };
        while !left.is_empty() {
            let all_bound = |t: TermId, bound: &[u32]| vars_of(t).iter().all(|v| bound.contains(v));
            let test = left.iter().position(|&i| match body[i] {
                Lit::Neg(a, _) | Lit::Pos(a, _) => all_bound(a, &bound),
                Lit::Distinct(a, b) | Lit::Same(a, b) => {
                    all_bound(a, &bound) && all_bound(b, &bound)
                }
            });
            let pick = match (delta, test) {
                (Some(d), _) if left.contains(&d) => left.iter().position(|&i| i == d),
                (_, Some(t)) => Some(t),
                _ => left
                    .iter()
                    .enumerate()
                    .filter_map(|(k, &i)| match body[i] {
                        Lit::Pos(a, rel) => {
                            let keys = key_paths(terms, a, &bound);
                            let known = size(rel).unwrap_or(if in_comp.contains(&rel) {
                                1 << 20
                            } else {
                                UNKNOWN_SIZE
                            });
                            let shared = sharing.and_then(|f| self.atoms_per_key(f, rel, &keys));
                            let matches = shared.unwrap_or_else(|| estimate(known, keys.len()));
                            let new_vars = vars_of(a).iter().filter(|v| !bound.contains(v)).count();
                            Some((k, (matches, new_vars, k)))
                        }
                        _ => None,
                    })
                    .min_by_key(|&(_, key)| key)
                    .map(|(k, _)| k),
            };
            // A literal that can never be placed (an unsafe rule the validator would reject):
            // place it anyway so that the plan terminates; its test then simply fails.
            let i = left.remove(pick.unwrap_or(0));
            let step = match body[i] {
                // A bound delta literal still scans the last round's atoms: as a check it would
                // hold every round once its atom exists, and the rule would be joined again in
                // full each round (a ground `(does r noop)` with every fluent: quadratic).
                Lit::Pos(a, _) if all_bound(a, &bound) && delta != Some(i) => {
                    Step::Check { pat: a }
                }
                Lit::Pos(a, rel) => {
                    let keys = key_paths(terms, a, &bound);
                    for v in vars_of(a) {
                        if !bound.contains(&v) {
                            bound.push(v);
                        }
                    }
                    let index = if keys.is_empty() {
                        END
                    } else {
                        let paths: Box<[Path]> = keys.iter().map(|(p, _)| p.clone()).collect();
                        self.index_id(rel, paths)
                    };
                    Step::Scan {
                        pat: a,
                        rel,
                        index,
                        keys: keys.iter().map(|&(_, k)| k).collect(),
                        delta: delta == Some(i),
                    }
                }
                Lit::Neg(a, rel) => Step::Neg {
                    pat: a,
                    internal: in_comp.contains(&rel),
                },
                Lit::Distinct(a, b) => Step::Distinct(a, b),
                Lit::Same(a, b) => Step::Same(a, b),
            };
            steps.push(step);
        }
        let mut head_vars = Vec::new();
        terms.vars_of(self.rules[ri].head, &mut head_vars);
        let mut seen = init_bound.to_vec();
        let mut head_bound = if head_vars.iter().all(|v| seen.contains(v)) {
            0
        } else {
            steps.len()
        };
        for (i, step) in steps.iter().enumerate() {
            if let Step::Scan { pat, .. } = step {
                terms.vars_of(*pat, &mut seen);
            }
            if head_bound > 0 && head_vars.iter().all(|v| seen.contains(v)) {
                head_bound = i + 1;
                break;
            }
        }
        // The delta literal is joined first (see above).
        let delta_first = matches!(steps.first(), Some(Step::Scan { delta: true, .. }));
        let repeats = match delta.map(|d| (d, body[d])) {
            Some((d, Lit::Pos(pattern, _))) if delta_first && init_bound.is_empty() => {
                let mut elsewhere = head_vars;
                for (i, lit) in body.iter().enumerate() {
                    match *lit {
                        _ if i == d => {}
                        Lit::Pos(a, _) | Lit::Neg(a, _) => terms.vars_of(a, &mut elsewhere),
                        Lit::Distinct(a, b) | Lit::Same(a, b) => {
                            terms.vars_of(a, &mut elsewhere);
                            terms.vars_of(b, &mut elsewhere);
                        }
                    }
                }
                Repeats::of(terms, d, pattern, &elsewhere)
            }
            _ => None,
        };
        Plan {
            rule: ri,
            steps,
            calls: Vec::new(),
            head_bound,
            repeats,
        }
    }

    /// How many atoms of `rel` in `facts` share a key on the paths of `keys`, on average, if
    /// `facts` has that index already.
    fn atoms_per_key(&self, facts: &Facts, rel: u32, keys: &[(Path, TermId)]) -> Option<usize> {
        let defs = self.index_defs.get(rel as usize)?;
        let same = |d: &[Path]| d.len() == keys.len() && d.iter().zip(keys).all(|(d, k)| *d == k.0);
        let index = defs.iter().position(|d| same(d))?;
        facts.atoms_per_key(rel, index as u32)
    }

    fn index_id(&mut self, rel: u32, paths: Box<[Path]>) -> u32 {
        let defs = &mut self.index_defs[rel as usize];
        match defs.iter().position(|d| *d == paths) {
            Some(i) => i as u32,
            None => {
                defs.push(paths);
                (defs.len() - 1) as u32
            }
        }
    }

    /// An empty fact set with this engine's indexes.
    pub fn facts(&self) -> Facts {
        Facts::new(&self.index_defs)
    }

    /// Adds indexes planned since `facts` was made.
    pub fn update_indexes(&self, terms: &Terms, facts: &mut Facts) {
        facts.sync_indexes(terms, &self.index_defs);
    }

    /// The components needed for relations `outputs`, in evaluation order; without the static
    /// ones when `skip_static` (they are read from a base layer).
    pub fn components_for(&self, outputs: &[u32], skip_static: bool) -> Vec<usize> {
        let mut needed = vec![false; self.comps.len()];
        let mut stack: Vec<usize> = outputs.iter().map(|&r| self.comp_of[r as usize]).collect();
        while let Some(c) = stack.pop() {
            if needed[c] {
                continue;
            }
            if skip_static
                && self.comps[c]
                    .rels
                    .iter()
                    .all(|&r| self.is_static[r as usize])
            {
                continue;
            }
            needed[c] = true;
            stack.extend(self.comps[c].deps.iter().copied());
        }
        (0..self.comps.len()).filter(|&c| needed[c]).collect()
    }

    /// Every component, in evaluation order, that is static (`true`) or not (`false`).
    pub fn all_components(&self, statics: bool) -> Vec<usize> {
        (0..self.comps.len())
            .filter(|&c| {
                self.comps[c]
                    .rels
                    .iter()
                    .all(|&r| self.is_static[r as usize] == statics)
            })
            .collect()
    }

    /// Whether any component has recursion through negation (relation level).
    pub fn has_internal_negation(&self) -> bool {
        self.comps.iter().any(|c| c.internal_negation)
    }

    /// Evaluates components `comps` (in order) into `facts`, reading static relations from `base`
    /// when given. `facts` holds the inputs beforehand.
    pub fn run(
        &self,
        comps: &[usize],
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        for &c in comps {
            if self.comps[c].rules.is_empty() {
                continue;
            }
            if self.comps[c].internal_negation {
                self.alternating(c, terms, base, facts, scratch, budget)?;
            } else {
                self.component(c, terms, base, facts, None, scratch, budget)?;
            }
        }
        Ok(())
    }

    /// Like [`run`](Engine::run), but (re)plans each component with the sizes of the relations
    /// computed so far before evaluating it: for one-off evaluations of large programs (grounding),
    /// where a good join order matters more than planning time.
    pub fn run_adaptive(
        &mut self,
        comps: &[usize],
        terms: &mut Terms,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        self.run_planned(comps, terms, facts, scratch, budget, false)
    }

    /// Like [`run_adaptive`](Engine::run_adaptive), and a recursive component's delta plans are
    /// planned again whenever one of its relations has grown [`REPLAN_GROWTH`] times since they
    /// were (at least to [`REPLAN_ATOMS`] atoms), with the sizes its relations have reached and
    /// how many of their atoms share a key of the indexes they have: a component that starts
    /// empty is otherwise joined all along in an order chosen knowing nothing of it. The model
    /// is the same, the order in which its atoms are derived is not: for analyses of the model
    /// whose results do not depend on that order.
    pub fn run_replanning(
        &mut self,
        comps: &[usize],
        terms: &mut Terms,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        self.run_planned(comps, terms, facts, scratch, budget, true)
    }

    fn run_planned(
        &mut self,
        comps: &[usize],
        terms: &mut Terms,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
        replan: bool,
    ) -> Result<(), EvalError> {
        for &c in comps {
            if self.comps[c].rules.is_empty() {
                continue;
            }
            let sizes: Vec<usize> = (0..self.schema.len() as u32)
                .map(|r| facts.of(r).len())
                .collect();
            self.plan_component(terms, c, &|r| Some(sizes[r as usize]));
            self.update_indexes(terms, facts);
            let comp = &self.comps[c];
            if replan && comp.recursive && !comp.internal_negation {
                let rels = comp.rels.clone();
                let mut seen = first_window(&rels, facts);
                scratch.joined.clear();
                let result = self.replanning(c, &rels, &mut seen, terms, facts, scratch, budget);
                for &r in &rels {
                    facts.reset_window(r);
                }
                result?;
            } else {
                self.run(&[c], terms, None, facts, scratch, budget)?;
            }
        }
        Ok(())
    }

    /// The rounds of [`component`](Engine::component) `c` (its relations `rels`, which `seen`
    /// says how far the last round saw), no base and no internal negation, its delta plans
    /// planned again as its relations grow (see [`run_replanning`](Engine::run_replanning)).
    #[allow(clippy::too_many_arguments)]
    fn replanning(
        &mut self,
        c: usize,
        rels: &[u32],
        seen: &mut [u32],
        terms: &mut Terms,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        for p in &self.comps[c].full {
            self.fire(p, terms, None, facts, None, scratch, budget)?;
        }
        let mut planned: Vec<u32> = seen.to_vec();
        while next_window(rels, facts, seen) {
            let grown = |(&r, &at): (&u32, &u32)| {
                let len = facts.of(r).len();
                len >= REPLAN_ATOMS && len >= REPLAN_GROWTH * at as usize
            };
            if rels.iter().zip(&planned).any(grown) {
                let sizes: Vec<usize> = (0..self.schema.len() as u32)
                    .map(|r| facts.of(r).len())
                    .collect();
                let delta = self.delta_plans(terms, c, &|r| Some(sizes[r as usize]), Some(facts));
                self.comps[c].delta = delta;
                self.update_indexes(terms, facts);
                planned = rels.iter().map(|&r| facts.of(r).len() as u32).collect();
            }
            for p in &self.comps[c].delta {
                self.fire(p, terms, None, facts, None, scratch, budget)?;
            }
        }
        Ok(())
    }

    /// Semi-naive evaluation of component `c`; `oracle` answers its internal negations.
    #[allow(clippy::too_many_arguments)]
    fn component(
        &self,
        c: usize,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        oracle: Option<&FastSet<TermId>>,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let comp = &self.comps[c];
        let mut seen = first_window(&comp.rels, facts);
        // What delta plans joined in an earlier evaluation says nothing about this one.
        scratch.joined.clear();
        let result = (|| {
            for p in &comp.full {
                self.fire(p, terms, base, facts, oracle, scratch, budget)?;
            }
            if !comp.recursive {
                return Ok(());
            }
            while next_window(&comp.rels, facts, &mut seen) {
                for p in &comp.delta {
                    self.fire(p, terms, base, facts, oracle, scratch, budget)?;
                }
            }
            Ok(())
        })();
        for &r in &comp.rels {
            facts.reset_window(r);
        }
        result
    }

    /// The alternating fixpoint of component `c` (see the module docs).
    fn alternating(
        &self,
        c: usize,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let rels = self.comps[c].rels.clone();
        let snapshot = |facts: &Facts| -> FastSet<TermId> {
            rels.iter()
                .flat_map(|&r| facts.of(r).iter().copied())
                .collect()
        };
        let mut under: FastSet<TermId> = FastSet::default();
        loop {
            for &r in &rels {
                facts.clear_relation(r);
            }
            self.component(c, terms, base, facts, Some(&under), scratch, budget)?;
            let over = snapshot(facts);
            for &r in &rels {
                facts.clear_relation(r);
            }
            self.component(c, terms, base, facts, Some(&over), scratch, budget)?;
            let next = snapshot(facts);
            if next == under {
                if let Some(&atom) = over.iter().find(|a| !under.contains(a)) {
                    let rule = self.comps[c]
                        .rules
                        .first()
                        .and_then(|&r| self.rules[r].source);
                    return Err(EvalError::NotStratified { rule, atom });
                }
                return Ok(());
            }
            under = next;
        }
    }

    /// Joins plan `p` and adds the heads of its solutions (each head once).
    #[allow(clippy::too_many_arguments)]
    fn fire(
        &self,
        p: &Plan,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        oracle: Option<&FastSet<TermId>>,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let (repeats, mut joined) = match (&p.repeats, p.steps.first()) {
            (Some(repeats), Some(&Step::Scan { pat, rel, .. })) => {
                let slot = (p.rule, repeats.literal);
                let mut joined = scratch.joined.remove(&slot).unwrap_or_default();
                let described = (repeats, pat, self.rules[p.rule].vars);
                joined.catch_up(terms, described, facts.of(rel), facts.window(rel).0);
                (Some((slot, rel)), Some(joined))
            }
            _ => (None, None),
        };
        let join = Join {
            heads_only: true,
            init: &[],
            demand: None,
            joined: joined.as_mut(),
        };
        let result = self.fire_with(p, join, terms, base, facts, oracle, scratch, budget);
        if let (Some((slot, rel)), Some(mut joined)) = (repeats, joined) {
            let (_, hi) = facts.window(rel);
            joined.joined_to(hi.min(facts.of(rel).len() as u32));
            scratch.joined.insert(slot, joined);
        }
        result
    }

    /// [`fire`](Engine::fire) with the given way of joining (initial bindings, demand calls).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn fire_with(
        &self,
        p: &Plan,
        join: Join<'_, '_>,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        oracle: Option<&FastSet<TermId>>,
        scratch: &mut Scratch,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let rule = &self.rules[p.rule];
        let (head, head_rel, source) = (rule.head, rule.head_rel, rule.source);
        if !budget.capped.is_empty() && budget.reads_capped(head_rel, &rule.body) {
            return Ok(());
        }
        // Taken out of the scratch for the closure; the join borrows the rest. Not for the
        // calls of goal-directed evaluation: small joins, thousands of them a query.
        let mut heads = match join.demand {
            None => Some(scratch.heads.take().unwrap_or_default()),
            Some(_) => None,
        };
        if let Some(heads) = heads.as_deref_mut() {
            heads.begin(&rule.head_vars, rule.vars as usize > rule.head_vars.len());
        }
        let result = self.join(
            p,
            join,
            terms,
            base,
            facts,
            oracle,
            scratch,
            budget,
            &mut |terms, facts, b, _, budget| {
                let lookup = heads.as_deref_mut().map_or(Lookup::Off, |h| h.check(b));
                if let Lookup::Seen = lookup {
                    return Ok(());
                }
                if let Some(atom) = terms.substitute(head, b) {
                    if facts.insert(terms, head_rel, atom) {
                        budget.atoms(facts, source)?;
                        if facts.of(head_rel).len() >= budget.relation_cap
                            && !budget
                                .uncapped
                                .get(head_rel as usize)
                                .copied()
                                .unwrap_or(false)
                        {
                            budget.capped.push(head_rel);
                            return Err(RELATION_CAPPED);
                        }
                    }
                    if let (Lookup::New(slot, key), Some(h)) = (lookup, heads.as_deref_mut()) {
                        h.remember(slot, key);
                    }
                }
                Ok(())
            },
        );
        if heads.is_some() {
            scratch.heads = heads;
        }
        match result {
            Err(RELATION_CAPPED) => Ok(()),
            other => other,
        }
    }

    /// The plan of rule `ri` over all atoms, with relation sizes taken from `facts` (for one-off
    /// joins such as grounding).
    pub fn full_plan(&mut self, terms: &Terms, ri: usize, facts: &mut Facts) -> Plan {
        let sizes: Vec<usize> = (0..self.schema.len() as u32)
            .map(|r| facts.of(r).len())
            .collect();
        let plan = self.plan(
            terms,
            ri,
            None,
            &[],
            &|r| Some(sizes[r as usize]),
            &[],
            None,
        );
        self.update_indexes(terms, facts);
        plan
    }

    /// The head relation and variable count of rule `ri`.
    pub fn rule_shape(&self, ri: usize) -> (u32, u32) {
        (self.rules[ri].head_rel, self.rules[ri].vars)
    }

    /// Enumerates the solutions of plan `p`'s body (negations against `oracle` if internal,
    /// against the facts otherwise), calling `on_solution` with the bindings of each.
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &self,
        p: &Plan,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        oracle: Option<&FastSet<TermId>>,
        scratch: &mut Scratch,
        budget: &mut Budget,
        on_solution: &mut OnSolution<'_>,
    ) -> Result<(), EvalError> {
        let join = Join {
            heads_only: false,
            init: &[],
            demand: None,
            joined: None,
        };
        self.join(
            p,
            join,
            terms,
            base,
            facts,
            oracle,
            scratch,
            budget,
            on_solution,
        )
    }

    /// [`solve`](Engine::solve); with `heads_only`, skips the solutions whose head already holds
    /// (what a model needs: each head atom once), which on rules with existential variables (a
    /// frame axiom joined with every move) saves most of the join.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn join(
        &self,
        p: &Plan,
        join: Join<'_, '_>,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        oracle: Option<&FastSet<TermId>>,
        scratch: &mut Scratch,
        budget: &mut Budget,
        on_solution: &mut OnSolution<'_>,
    ) -> Result<(), EvalError> {
        let Join {
            heads_only,
            init,
            mut demand,
            mut joined,
        } = join;
        let rule = &self.rules[p.rule];
        let n = p.steps.len();
        scratch.bindings.reset(rule.vars as usize);
        for &(v, t) in init {
            scratch.bindings.set(v, t);
        }
        let holds = |terms: &Terms, facts: &Facts, b: &Bindings| {
            terms
                .resolve(rule.head, b)
                .is_some_and(|h| facts.contains(h))
        };
        if heads_only && p.head_bound == 0 && holds(terms, facts, &scratch.bindings) {
            return Ok(());
        }
        if n == 0 {
            return on_solution(terms, facts, &scratch.bindings, Matched(&[]), budget);
        }
        scratch.levels.clear();
        scratch.levels.resize(n, Level::default());
        // Backtracking to the first step must keep the initial bindings.
        scratch.levels[0].mark = scratch.bindings.mark();
        let mut level = 0;
        loop {
            budget.tick(terms, facts, rule.source)?;
            let call = p.calls.get(level).copied().unwrap_or(NO_CALL);
            if let (Some(hook), false) = (demand.as_deref_mut(), call == NO_CALL) {
                if !scratch.levels[level].started {
                    let values = call_values(&p.steps[level], terms, &scratch.bindings);
                    hook.call(self, call, &values, terms, base, facts, budget)?;
                }
            }
            let ok = self.advance(
                &p.steps[level],
                &mut scratch.levels[level],
                &mut scratch.bindings,
                terms,
                base,
                facts,
                oracle,
            );
            if !ok {
                if level == 0 {
                    return Ok(());
                }
                level -= 1;
                continue;
            }
            if let (0, Some(joined), Some(repeats)) = (level, joined.as_deref_mut(), &p.repeats) {
                if joined.repeat(repeats, &scratch.bindings) {
                    continue; // derives nothing an atom joined already did not
                }
            }
            // At the last step the solution's insertion tests the head anyway (one term lookup
            // instead of two); earlier, a head that holds cuts the steps left.
            if heads_only
                && level + 1 == p.head_bound
                && level + 1 < n
                && holds(terms, facts, &scratch.bindings)
            {
                continue; // this head already holds: try the next binding of this step
            }
            if level + 1 == n {
                let matched = Matched(&scratch.levels);
                on_solution(terms, facts, &scratch.bindings, matched, budget)?;
                if heads_only {
                    // The head now holds: back to the step that bound its last variable.
                    match p.head_bound {
                        0 => return Ok(()),
                        b => level = b - 1,
                    }
                }
                continue;
            }
            level += 1;
            let mark = scratch.bindings.mark();
            scratch.levels[level] = Level {
                mark,
                ..Level::default()
            };
        }
    }

    /// The rules of relation `rel`.
    pub(crate) fn rules_of(&self, rel: u32) -> Vec<usize> {
        (0..self.rules.len())
            .filter(|&r| self.rules[r].head_rel == rel)
            .collect()
    }

    /// The head of rule `ri`.
    pub(crate) fn head(&self, ri: usize) -> TermId {
        self.rules[ri].head
    }

    /// Whether relation `rel` is an input of evaluation (`true`, `does`): never derived.
    pub(crate) fn is_input(&self, rel: u32) -> bool {
        self.comps[self.comp_of[rel as usize]].rules.is_empty()
    }

    /// The index definitions of every relation, to give a base layer the indexes of new plans.
    pub(crate) fn index_defs(&self) -> &[Vec<Box<[Path]>>] {
        &self.index_defs
    }

    /// The next way step `step` holds under the bindings (extending them), or `false`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn advance(
        &self,
        step: &Step,
        st: &mut Level,
        b: &mut Bindings,
        terms: &Terms,
        base: Option<&Facts>,
        facts: &Facts,
        oracle: Option<&FastSet<TermId>>,
    ) -> bool {
        b.undo(st.mark);
        let holds = |t: TermId| -> bool {
            match base {
                Some(base) if base.contains(t) => true,
                _ => facts.contains(t),
            }
        };
        match step {
            Step::Scan {
                pat,
                rel,
                index,
                keys,
                delta,
            } => {
                let src = match base {
                    Some(base) if self.is_static[*rel as usize] => base,
                    _ => facts,
                };
                let (lo, hi) = src.window(*rel);
                let atoms = src.of(*rel);
                let hi = hi.min(atoms.len() as u32);
                let lo = if *delta { lo } else { 0 };
                if !st.started {
                    st.started = true;
                    if *index == END {
                        st.pos = lo;
                    } else {
                        let mut key = KEY_SEED;
                        for &k in keys {
                            match terms.resolve(k, b) {
                                Some(t) => key = fold_key(key, t),
                                None => return false,
                            }
                        }
                        st.pos = src.chain_start(*rel, *index, key);
                    }
                    st.end = hi;
                }
                loop {
                    let at = st.pos;
                    if at == END || at >= st.end {
                        return false;
                    }
                    st.pos = if *index == END {
                        at + 1
                    } else {
                        src.chain_next(*rel, *index, at)
                    };
                    if at < lo {
                        continue;
                    }
                    if terms.matches(*pat, atoms[at as usize], b) {
                        st.atom = atoms[at as usize];
                        return true;
                    }
                    b.undo(st.mark);
                }
            }
            _ if st.started => false,
            Step::Check { pat } => {
                st.started = true;
                match terms.resolve(*pat, b) {
                    Some(t) if holds(t) => {
                        st.atom = t;
                        true
                    }
                    _ => false,
                }
            }
            Step::Neg { pat, internal } => {
                st.started = true;
                match terms.resolve(*pat, b) {
                    None => true,
                    Some(t) => match (internal, oracle) {
                        (true, Some(o)) => !o.contains(&t),
                        _ => !holds(t),
                    },
                }
            }
            Step::Distinct(x, y) => {
                st.started = true;
                !terms.equal(*x, *y, b)
            }
            Step::Same(x, y) => {
                st.started = true;
                terms.equal(*x, *y, b)
            }
        }
    }
}

/// How a join runs: with `heads_only`, solutions whose head already holds are skipped (what a
/// model needs); `init` binds variables before the first step; `demand` is called before the
/// steps that need a call pattern's answers (goal-directed evaluation).
pub(crate) struct Join<'a, 'h> {
    pub(crate) heads_only: bool,
    pub(crate) init: &'a [(u32, TermId)],
    pub(crate) demand: Option<&'a mut (dyn DemandHook + 'h)>,
    /// What a delta plan with [`Plan::repeats`] joined already: its repeats are skipped.
    pub(crate) joined: Option<&'a mut Joined>,
}

/// The bound values of a demand call at `step`: its index keys, or a fully bound atom's
/// arguments (built if need be: the call may derive terms not seen yet; the atom itself is not
/// built, since the call derives it if it holds).
fn call_values(step: &Step, terms: &mut Terms, b: &Bindings) -> SmallVec<[TermId; 8]> {
    let args: SmallVec<[TermId; 8]> = match step {
        Step::Scan { keys, .. } => keys.iter().copied().collect(),
        Step::Check { pat } | Step::Neg { pat, .. } => terms.args(*pat).iter().copied().collect(),
        Step::Distinct(..) | Step::Same(..) => return SmallVec::new(),
    };
    let mut values = SmallVec::new();
    for a in args {
        match terms.substitute(a, b) {
            Some(v) => values.push(v),
            // Unbound (a plan never leaves a checked atom's variable unbound): no values, as
            // when the atom could not be built.
            None if !matches!(step, Step::Scan { .. }) => return SmallVec::new(),
            None => {}
        }
    }
    values
}

/// Domain analysis gives up on terms nested deeper than this (atoms included): real games nest a few
/// levels (`true((cell 1 1 b))` is 2); a counter written as `(s (s … 0))` deeper than this is played
/// by the reference reasoner instead.
pub const MAX_RELAXED_DEPTH: u32 = 64;

/// The relaxed form of a program, for domain analysis: negative literals dropped (so every atom
/// of every reachable state is derivable, and some that are not), plus `true(f) :- init(f)`,
/// `true(f) :- next(f)` and `does(r, m) :- legal(r, m)`.
pub fn relaxed_rules(
    terms: &mut Terms,
    rules: &[Rule],
    kw: &crate::description::Keywords,
) -> Vec<Rule> {
    let mut out: Vec<Rule> = rules
        .iter()
        .map(|r| Rule {
            body: r
                .body
                .iter()
                .filter(|l| !matches!(l, Literal::Neg(_)))
                .copied()
                .collect(),
            ..r.clone()
        })
        .collect();
    let (x, y) = (terms.var(0), terms.var(1));
    let feedback = [
        (terms.app(kw.true_, &[x]), terms.app(kw.init, &[x]), 1),
        (terms.app(kw.true_, &[x]), terms.app(kw.next, &[x]), 1),
        (terms.app(kw.does, &[x, y]), terms.app(kw.legal, &[x, y]), 2),
    ];
    for (head, body, vars) in feedback {
        out.push(Rule {
            head,
            body: vec![Literal::Pos(body)],
            vars,
            var_names: vec!["?f".into(), "?m".into()],
            location: crate::error::Location {
                file: String::new(),
                line: 0,
                column: 0,
            },
            text: String::new(),
        });
    }
    out
}

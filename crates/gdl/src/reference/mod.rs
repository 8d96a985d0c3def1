//! The reference reasoner: every query computes the stratified model of the rules plus the state's
//! `true` facts (and the joint move's `does` facts) with the [`Engine`] and reads the answer off it.
//! Slow and obviously right; the oracle the fast reasoner is tested against.
//!
//! Two things keep it usable on large games without changing what it computes: the relations that
//! depend on neither `true` nor `does` are the same in every state, so they are evaluated once, at
//! load, into a base layer every query reads; and a query evaluates only the components its answer
//! depends on (a legality query never evaluates `next`).
//!
//! A static relation too large to hold whole (a list type over every list of up to 25 elements,
//! a direction between any two points of a large grid: millions of atoms, of which a query asks
//! about a few) is *deferred*: it leaves the base layer, with every relation that reads it, and
//! queries evaluate it goal-directed ([`demand`]), for the arguments they bind.

pub mod demand;

use std::collections::HashMap;

use crate::datalog::facts::Facts;
use crate::datalog::{Budget, Engine, EvalError, Scratch};
use crate::description::{Description, KEYWORDS};
use crate::game::fluents::FluentSet;
use crate::reference::demand::{DemandProgram, DemandState};
use crate::syntax::term::{Sym, TermId};

/// "No move" in a joint move (a role without legal moves).
pub const NO_MOVE: u32 = u32::MAX;

/// The relation ids of the keywords a query reads or writes.
#[derive(Clone, Copy, Debug)]
struct KeyRels {
    true_: u32,
    does: u32,
    init: u32,
    legal: u32,
    next: u32,
    goal: u32,
    terminal: u32,
    sees: u32,
}

/// Which components each kind of query evaluates.
#[derive(Clone, Debug, Default)]
struct Queries {
    view: Vec<usize>,
    goal: Vec<usize>,
    next: Vec<usize>,
    sees: Vec<usize>,
}

/// The parsed rules plus the tables that give fluents and moves their ids. Shared by both reasoners:
/// grounding fills the tables up front, the reference reasoner extends them when it meets a new
/// fluent or move.
#[derive(Clone, Debug)]
pub struct Kb {
    /// The rules.
    pub desc: Description,
    /// The evaluation engine prepared for them.
    pub engine: Engine,
    /// All roles in declaration order, `random` included.
    pub roles: Vec<TermId>,
    /// Fluent terms by id.
    pub fluents: Vec<TermId>,
    fluent_ids: HashMap<TermId, u32>,
    /// Move terms by id.
    pub moves: Vec<TermId>,
    move_ids: HashMap<TermId, u32>,
    /// The static relations' atoms: the base layer of every query.
    pub statics: Facts,
    /// The static relations too large to evaluate whole, evaluated on demand in each query.
    deferred: Vec<u32>,
    /// The last query's atoms (reused buffer).
    facts: Facts,
    scratch: Scratch,
    rel: KeyRels,
    queries: Queries,
    /// Goal-directed evaluation ([`crate::reference::demand`]), when switched on.
    demand: Option<Box<(DemandProgram, DemandState)>>,
    /// Atoms of input relations other than `true` and `does` for the next query.
    given: Vec<TermId>,
    /// The last state [`view`](Kb::view) answered, and its answer.
    last_view: Option<(FluentSet, RefView)>,
    /// Join steps of the queries so far per rule of `desc`, once
    /// [`count_rule_steps`](Kb::count_rule_steps) is called; empty until then.
    rule_steps: Vec<u64>,
    /// Join steps of the queries counted so far in every rule, the engine's own included.
    query_steps: u64,
}

/// What the reference reasoner says about a state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefView {
    /// Legal move ids per role, sorted.
    pub legal: Vec<Vec<u32>>,
    /// Whether `terminal` holds.
    pub terminal: bool,
}

impl Kb {
    /// Prepares the reasoning tables for `desc` and evaluates its static relations within
    /// `budget`. A static relation whose component passes `defer_above` atoms is not evaluated
    /// whole but in each query, on demand ([`Kb::deferred`]); `usize::MAX` evaluates them all.
    pub fn new(
        desc: Description,
        budget: &mut Budget,
        defer_above: usize,
    ) -> Result<Kb, EvalError> {
        Kb::with_inputs(desc, budget, defer_above, &[])
    }

    /// [`Kb::new`], with the relations `extra` (name, arity) given with each query, as `true`
    /// and `does` are, instead of computed by their rules ([`atoms_of`](Kb::atoms_of)).
    pub(crate) fn with_inputs(
        mut desc: Description,
        budget: &mut Budget,
        defer_above: usize,
        extra: &[(Sym, usize)],
    ) -> Result<Kb, EvalError> {
        let keywords: Vec<(Sym, usize)> = KEYWORDS
            .iter()
            .map(|&(name, arity)| (desc.terms.sym(name), arity))
            .collect();
        let kw = desc.kw;
        let mut inputs = vec![(kw.true_, 1), (kw.does, 2)];
        inputs.extend_from_slice(extra);
        let mut engine = Engine::new(&desc.terms, &desc.rules, &inputs, &keywords);
        let id = |s: Sym, arity: usize| engine.schema.id((s, arity)).unwrap_or(u32::MAX);
        let rel = KeyRels {
            true_: id(kw.true_, 1),
            does: id(kw.does, 2),
            init: id(kw.init, 1),
            legal: id(kw.legal, 2),
            next: id(kw.next, 1),
            goal: id(kw.goal, 2),
            terminal: id(kw.terminal, 0),
            sees: id(kw.sees, 2),
        };
        let mut statics = engine.facts();
        let mut scratch = Scratch::default();
        // Each static component is planned with the sizes of those below it: arithmetic tables
        // built by recursion join a small `succ` before a large `less`, not in the order written.
        let deferred = engine.run_statics(
            &mut desc.terms,
            &mut statics,
            &mut scratch,
            budget,
            defer_above,
            &[rel.init],
        )?;
        let queries = Queries {
            view: engine.components_for(&[rel.legal, rel.terminal], true),
            goal: engine.components_for(&[rel.goal], true),
            next: engine.components_for(&[rel.next], true),
            sees: engine.components_for(&[rel.sees], true),
        };
        let roles = desc.roles();
        // Plan the per-state components again, now that the static relations' sizes are known
        // (a state holds about as many fluents as the initial one, a joint move an atom per role).
        let state_size = statics.of(rel.init).len().max(1);
        let sizes: Vec<Option<usize>> = (0..engine.schema.len() as u32)
            .map(|r| {
                if r == rel.true_ {
                    Some(state_size)
                } else if r == rel.does {
                    Some(roles.len())
                } else if engine.is_static(r) {
                    Some(statics.of(r).len())
                } else {
                    None
                }
            })
            .collect();
        let dynamic = engine.all_components(false);
        engine.plan_components(&desc.terms, &dynamic, &|r| sizes[r as usize]);
        statics.sync_indexes(&desc.terms, engine.index_defs());
        let facts = engine.facts();
        Ok(Kb {
            desc,
            engine,
            roles,
            fluents: Vec::new(),
            fluent_ids: HashMap::new(),
            moves: Vec::new(),
            move_ids: HashMap::new(),
            statics,
            deferred,
            facts,
            scratch,
            rel,
            queries,
            demand: None,
            given: Vec::new(),
            last_view: None,
            rule_steps: Vec::new(),
            query_steps: 0,
        })
    }

    /// Switches queries to goal-directed evaluation ([`crate::reference::demand`]): the same answers, computed
    /// from what each query needs instead of whole models. For games too large to ground.
    pub fn enable_demand(&mut self) {
        self.enable_demand_with(&[], &[]);
    }

    /// [`enable_demand`](Kb::enable_demand), with the relations `extra` asked for too
    /// ([`atoms_of`](Kb::atoms_of)), and the input relations `small` planned as holding a few
    /// atoms.
    pub(crate) fn enable_demand_with(&mut self, extra: &[u32], small: &[u32]) {
        if self.demand.is_some() {
            return;
        }
        let r = self.rel;
        let roots: Vec<u32> = [r.legal, r.terminal, r.goal, r.next, r.sees]
            .into_iter()
            .chain(extra.iter().copied())
            .filter(|&rel| rel != u32::MAX && !self.engine.is_static(rel))
            .collect();
        // Static relations have their size; a state holds about as many fluents as the initial one,
        // a joint move one atom per role; derived relations are unknown, but for those that
        // describe a move's effect, estimated from their rules (`Engine::derived_sizes`). (Not
        // every fluent the game can have: a plan would then scan an arithmetic table before
        // reading the one position a state holds.)
        let (statics, engine) = (&self.statics, &self.engine);
        let state_size = statics.of(r.init).len().max(1);
        let sizes: Vec<Option<usize>> = (0..engine.schema.len() as u32)
            .map(|rel| {
                if rel == r.true_ {
                    Some(state_size)
                } else if rel == r.does || small.contains(&rel) {
                    Some(self.roles.len())
                } else if engine.is_static(rel) {
                    Some(statics.of(rel).len())
                } else {
                    None
                }
            })
            .collect();
        let size = |rel: u32| sizes.get(rel as usize).copied().flatten();
        let sizes = engine.derived_sizes(&self.desc.terms, &size, r.does);
        let size = |rel: u32| sizes.get(rel as usize).copied().flatten();
        let program = DemandProgram::new(&mut self.engine, &self.desc.terms, &roots, &size);
        self.engine
            .update_indexes(&self.desc.terms, &mut self.facts);
        self.statics
            .sync_indexes(&self.desc.terms, self.engine.index_defs());
        self.demand = Some(Box::new((program, DemandState::default())));
    }

    /// Switches queries back to bottom-up evaluation of whole models, unless static relations
    /// were [deferred](Kb::deferred): a whole model would hold them whole, in every query.
    pub fn disable_demand(&mut self) {
        if self.deferred.is_empty() {
            self.demand = None;
        }
    }

    /// The static relations too large to evaluate whole at load (their component passed the
    /// atoms given to [`Kb::new`]); queries evaluate them goal-directed, for the arguments asked.
    pub fn deferred(&self) -> &[u32] {
        &self.deferred
    }

    /// Whether queries use goal-directed evaluation.
    pub fn demand_enabled(&self) -> bool {
        self.demand.is_some()
    }

    /// The id of fluent term `f`, registering it if new.
    pub fn fluent_id(&mut self, f: TermId) -> u32 {
        let next = self.fluents.len() as u32;
        *self.fluent_ids.entry(f).or_insert_with(|| {
            self.fluents.push(f);
            next
        })
    }

    /// The id of fluent term `f`, if registered.
    pub fn find_fluent(&self, f: TermId) -> Option<u32> {
        self.fluent_ids.get(&f).copied()
    }

    /// The id of move term `m`, registering it if new.
    pub fn move_id(&mut self, m: TermId) -> u32 {
        let next = self.moves.len() as u32;
        *self.move_ids.entry(m).or_insert_with(|| {
            self.moves.push(m);
            next
        })
    }

    /// The id of move term `m`, if registered.
    pub fn find_move(&self, m: TermId) -> Option<u32> {
        self.move_ids.get(&m).copied()
    }

    /// The index of role term `r`.
    pub fn role_index(&self, r: TermId) -> Option<usize> {
        self.roles.iter().position(|&x| x == r)
    }

    /// Evaluates components `comps` over `state` and the joint move (`joint[r]` is role `r`'s
    /// move id or [`NO_MOVE`]; empty for no move at all) into the query buffer, within `budget`.
    fn eval(
        &mut self,
        state: &FluentSet,
        joint: &[u32],
        comps: &[usize],
        roots: &[u32],
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let kw = self.desc.kw;
        self.facts.clear();
        for id in state.iter() {
            if let Some(&f) = self.fluents.get(id as usize) {
                let atom = self.desc.terms.app(kw.true_, &[f]);
                self.facts.insert(&self.desc.terms, self.rel.true_, atom);
            }
        }
        for (r, &m) in joint.iter().enumerate() {
            if let (Some(&role), Some(&mv)) = (self.roles.get(r), self.moves.get(m as usize)) {
                let atom = self.desc.terms.app(kw.does, &[role, mv]);
                self.facts.insert(&self.desc.terms, self.rel.does, atom);
            }
        }
        for &atom in &self.given {
            let rel = self.desc.terms.functor(atom);
            if let Some(rel) = rel.and_then(|r| self.engine.schema.id(r)) {
                self.facts.insert(&self.desc.terms, rel, atom);
            }
        }
        if let Some(demand) = &mut self.demand {
            let (program, state) = &mut **demand;
            return program.query(
                roots,
                state,
                &self.engine,
                &mut self.desc.terms,
                Some(&self.statics),
                &mut self.facts,
                budget,
            );
        }
        self.engine.run(
            comps,
            &mut self.desc.terms,
            Some(&self.statics),
            &mut self.facts,
            &mut self.scratch,
            budget,
        )
    }

    /// Evaluates a query without limits. A game is loaded only once its stratification is
    /// established (ground-level stratified whenever the relation level is not), so evaluation
    /// cannot fail; were it to, the partial model is read, which the cross-checks would expose.
    fn eval_unlimited(&mut self, state: &FluentSet, joint: &[u32], comps: &[usize], roots: &[u32]) {
        let mut budget = self.counting_budget();
        let _ = self.eval(state, joint, comps, roots, &mut budget);
        self.add_counts(budget);
    }

    /// An unlimited budget for a query, counting its join steps per rule if this reasoner does.
    fn counting_budget(&mut self) -> Budget {
        Budget::unlimited().with_rule_steps(std::mem::take(&mut self.rule_steps))
    }

    /// Takes back what a [`counting_budget`](Kb::counting_budget) counted.
    fn add_counts(&mut self, mut budget: Budget) {
        self.rule_steps = budget.take_rule_steps();
        if !self.rule_steps.is_empty() {
            self.query_steps += budget.steps();
        }
    }

    /// From now on, counts the join steps of the queries (legal moves, successors, goals,
    /// percepts), in all and per rule of the description, from zero: which rules the queries'
    /// joins run through ([`rule_steps`](Kb::rule_steps), [`query_steps`](Kb::query_steps)).
    pub fn count_rule_steps(&mut self) {
        self.rule_steps = vec![0; self.desc.rules.len()];
        self.query_steps = 0;
    }

    /// The join steps of every query since [`count_rule_steps`](Kb::count_rule_steps), in the
    /// description's rules and in the rules the engine adds; 0 unless it was called.
    pub fn query_steps(&self) -> u64 {
        self.query_steps
    }

    /// The join steps counted per rule of the description (indexed like `desc.rules`); empty
    /// unless [`count_rule_steps`](Kb::count_rule_steps) was called.
    pub fn rule_steps(&self) -> &[u64] {
        &self.rule_steps
    }

    /// The initial state: every `f` with `init(f)` (a static relation).
    pub fn initial(&mut self) -> FluentSet {
        let atoms: Vec<TermId> = self.statics.of(self.rel.init).to_vec();
        self.collect_fluents(&atoms)
    }

    fn collect_fluents(&mut self, atoms: &[TermId]) -> FluentSet {
        let mut out = FluentSet::new();
        for &a in atoms {
            let f = self.desc.terms.args(a)[0];
            let id = self.fluent_id(f);
            out.insert(id);
        }
        out
    }

    /// Legal moves and terminal in `state` (the last state's view is kept: a search asks about
    /// the same state several times in a row).
    pub fn view(&mut self, state: &FluentSet) -> RefView {
        if let Some((cached, view)) = &self.last_view {
            if cached == state {
                return view.clone();
            }
        }
        let mut budget = self.counting_budget();
        let view = self.view_within(state, &mut budget).unwrap_or_default();
        self.add_counts(budget);
        self.last_view = Some((state.clone(), view.clone()));
        view
    }

    /// Legal moves and terminal in `state`, within `budget` (its limits also checked when the query
    /// ends): used at load to see whether the reference reasoner is fast enough to play a game
    /// grounding gave up on.
    pub fn view_within(
        &mut self,
        state: &FluentSet,
        budget: &mut Budget,
    ) -> Result<RefView, EvalError> {
        let comps = std::mem::take(&mut self.queries.view);
        let roots = [self.rel.legal, self.rel.terminal];
        let result = self.eval(state, &[], &comps, &roots, budget);
        self.queries.view = comps;
        result?;
        budget.check_now(&self.desc.terms, &self.facts)?;
        let mut view = RefView {
            legal: vec![Vec::new(); self.roles.len()],
            terminal: false,
        };
        let legal: Vec<TermId> = self.atoms(self.rel.legal).to_vec();
        for a in legal {
            let (r, m) = (self.desc.terms.args(a)[0], self.desc.terms.args(a)[1]);
            if let Some(r) = self.role_index(r) {
                let id = self.move_id(m);
                view.legal[r].push(id);
            }
        }
        for l in &mut view.legal {
            l.sort_unstable();
            l.dedup();
        }
        view.terminal = !self.atoms(self.rel.terminal).is_empty();
        Ok(view)
    }

    /// The atoms of relation `rel` in the last query (static relations from the base layer).
    fn atoms(&self, rel: u32) -> &[TermId] {
        if rel == u32::MAX {
            &[]
        } else if self.engine.is_static(rel) {
            self.statics.of(rel)
        } else {
            self.facts.of(rel)
        }
    }

    /// The goal value of each role in `state` (the largest if several hold).
    pub fn goals(&mut self, state: &FluentSet) -> Vec<Option<u8>> {
        let comps = std::mem::take(&mut self.queries.goal);
        self.eval_unlimited(state, &[], &comps, &[self.rel.goal]);
        self.queries.goal = comps;
        let mut goals = vec![None; self.roles.len()];
        for &a in self.atoms(self.rel.goal) {
            let (r, v) = (self.desc.terms.args(a)[0], self.desc.terms.args(a)[1]);
            if let (Some(r), Some(v)) = (self.role_index(r), goal_value(&self.desc, v)) {
                goals[r] = Some(goals[r].map_or(v, |g: u8| g.max(v)));
            }
        }
        goals
    }

    /// Appends to `out` the atoms of relations `rels` in `state` under the joint move (`joint`
    /// empty for none) with the atoms `given` of the extra input relations
    /// ([`with_inputs`](Kb::with_inputs)), evaluating components `comps` (those `rels` need:
    /// [`Engine::components_for`]); with goal-directed evaluation, `rels` must have been asked
    /// for ([`enable_demand_with`](Kb::enable_demand_with)).
    pub(crate) fn atoms_of(
        &mut self,
        state: &FluentSet,
        joint: &[u32],
        given: &[TermId],
        rels: &[u32],
        comps: &[usize],
        out: &mut Vec<TermId>,
    ) {
        self.given.clear();
        self.given.extend_from_slice(given);
        self.eval_unlimited(state, joint, comps, rels);
        self.given.clear();
        for &rel in rels {
            out.extend_from_slice(self.atoms(rel));
        }
    }

    /// The successor of `state` under the joint move.
    pub fn next(&mut self, state: &FluentSet, joint: &[u32]) -> FluentSet {
        let comps = std::mem::take(&mut self.queries.next);
        self.eval_unlimited(state, joint, &comps, &[self.rel.next]);
        self.queries.next = comps;
        let atoms = self.atoms(self.rel.next).to_vec();
        self.collect_fluents(&atoms)
    }

    /// The successor of `state` under the joint move, within `budget` (its limits also checked
    /// when the query ends).
    pub fn next_within(
        &mut self,
        state: &FluentSet,
        joint: &[u32],
        budget: &mut Budget,
    ) -> Result<FluentSet, EvalError> {
        let comps = std::mem::take(&mut self.queries.next);
        let result = self.eval(state, joint, &comps, &[self.rel.next], budget);
        self.queries.next = comps;
        result?;
        budget.check_now(&self.desc.terms, &self.facts)?;
        let atoms = self.atoms(self.rel.next).to_vec();
        Ok(self.collect_fluents(&atoms))
    }

    /// The percepts `sees(r, p)` after the joint move: (role index, percept term).
    pub fn sees(&mut self, state: &FluentSet, joint: &[u32]) -> Vec<(usize, TermId)> {
        let comps = std::mem::take(&mut self.queries.sees);
        self.eval_unlimited(state, joint, &comps, &[self.rel.sees]);
        self.queries.sees = comps;
        self.atoms(self.rel.sees)
            .iter()
            .filter_map(|&a| {
                let args = self.desc.terms.args(a);
                Some((self.role_index(args[0])?, args[1]))
            })
            .collect()
    }
}

/// A goal value: a numeric constant from 0 to 100. The validator rejects rules whose head names any
/// other constant; a value reached through a variable (`(goal ?p ?v)`) outside that range counts as
/// no goal value, which `gdl check` reports when a playout ends there.
pub fn goal_value(desc: &Description, v: TermId) -> Option<u8> {
    desc.terms
        .number(v)
        .filter(|n| (0..=100).contains(n))
        .map(|n| n as u8)
}

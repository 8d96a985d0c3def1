//! The reference reasoner: every query computes the stratified model of the rules plus the state's
//! `true` facts (and the joint move's `does` facts) with [`Engine::model`] and reads the answer off
//! it. Slow and obviously right; the oracle the fast reasoner is tested against.

use std::collections::HashMap;

use crate::desc::Description;
use crate::eval::{Engine, Facts};
use crate::fluents::FluentSet;
use crate::term::TermId;

/// "No move" in a joint move (a role without legal moves).
pub const NO_MOVE: u32 = u32::MAX;

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
}

/// What the reference reasoner says about a state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefView {
    /// Legal move ids per role, sorted.
    pub legal: Vec<Vec<u32>>,
    /// Whether `terminal` holds.
    pub terminal: bool,
    /// The goal value per role, if one holds (the largest if several do).
    pub goals: Vec<Option<u8>>,
}

impl Kb {
    /// Prepares the reasoning tables for `desc`.
    pub fn new(desc: Description) -> Kb {
        let engine = Engine::new(&desc);
        let roles = desc.roles();
        Kb {
            desc,
            engine,
            roles,
            fluents: Vec::new(),
            fluent_ids: HashMap::new(),
            moves: Vec::new(),
            move_ids: HashMap::new(),
        }
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

    /// The model of the rules over `state` and the joint move (`joint[r]` is role `r`'s move id or
    /// [`NO_MOVE`]; empty for no move at all).
    pub fn model(&mut self, state: &FluentSet, joint: &[u32]) -> Facts {
        let kw = self.desc.kw;
        let mut inputs = Vec::new();
        for id in state.iter() {
            if let Some(&f) = self.fluents.get(id as usize) {
                inputs.push(self.desc.terms.app(kw.true_, &[f]));
            }
        }
        for (r, &m) in joint.iter().enumerate() {
            if let (Some(&role), Some(&mv)) = (self.roles.get(r), self.moves.get(m as usize)) {
                inputs.push(self.desc.terms.app(kw.does, &[role, mv]));
            }
        }
        self.engine
            .model(&mut self.desc.terms, &self.desc.rules, &inputs)
    }

    /// The initial state: every `f` with `init(f)` in the model without inputs.
    pub fn initial(&mut self) -> FluentSet {
        let facts = self.model(&FluentSet::new(), &[]);
        self.collect_fluents(&facts, self.desc.kw.init)
    }

    fn collect_fluents(&mut self, facts: &Facts, rel: crate::term::Sym) -> FluentSet {
        let mut out = FluentSet::new();
        for &a in facts.of((rel, 1)) {
            let f = self.desc.terms.args(a)[0];
            let id = self.fluent_id(f);
            out.insert(id);
        }
        out
    }

    /// Legal moves, terminal and goals in `state`.
    pub fn view(&mut self, state: &FluentSet) -> RefView {
        let facts = self.model(state, &[]);
        let kw = self.desc.kw;
        let mut view = RefView {
            legal: vec![Vec::new(); self.roles.len()],
            terminal: false,
            goals: vec![None; self.roles.len()],
        };
        for &a in facts.of((kw.legal, 2)) {
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
        let terminal = self.desc.terms.constant(kw.terminal);
        view.terminal = facts.contains(terminal);
        for &a in facts.of((kw.goal, 2)) {
            let (r, v) = (self.desc.terms.args(a)[0], self.desc.terms.args(a)[1]);
            if let (Some(r), Some(v)) = (self.role_index(r), goal_value(&self.desc, v)) {
                view.goals[r] = Some(view.goals[r].map_or(v, |g: u8| g.max(v)));
            }
        }
        view
    }

    /// The successor of `state` under the joint move.
    pub fn next(&mut self, state: &FluentSet, joint: &[u32]) -> FluentSet {
        let facts = self.model(state, joint);
        self.collect_fluents(&facts, self.desc.kw.next)
    }

    /// The percepts `sees(r, p)` after the joint move: (role index, percept term).
    pub fn sees(&mut self, state: &FluentSet, joint: &[u32]) -> Vec<(usize, TermId)> {
        let facts = self.model(state, joint);
        facts
            .of((self.desc.kw.sees, 2))
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

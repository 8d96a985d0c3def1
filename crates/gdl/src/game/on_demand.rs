//! Grounding on demand: the hybrid's bridge atoms and the deferred relations they read, ground one
//! atom at a time when a state first asks for it, then evaluated in every later state over those
//! ground rules.
//!
//! A relation too large to ground whole is usually small where the games go: GGP Base chess's
//! `threatened` has 8,192 atoms (player, king square, vacated square) of which a playout asks a
//! few hundred, and each one's rules, once ground, are a disjunction over the few squares an
//! attacker can stand on, each guarded by one cell. Grounding an atom costs a join over the
//! static relations and the fluent table, once; evaluating it in a state is a walk over its ground
//! rules that tests the state's fluent bits first and stops at the first rule that holds, with
//! every atom's value remembered for the rest of the state's questions.
//!
//! What it grounds is a cache: when the ground rules pass [`MAX_LITERALS`] body literals, they
//! are all dropped before the next state and grounded again as states ask for them.
//!
//! It stands aside for good (and the goal-directed reference engine answers) when a ground atom
//! depends on itself (its value would need a fixpoint, not a walk), when derivations nest deeper
//! than [`MAX_DEPTH`], and when a rule cannot be ground atom by atom (a variable that only a
//! negated literal, or a recursive relation, could bind).

use std::sync::Arc;

use game_trait::hash::FastMap;

use crate::description::Literal;
use crate::game::fluents::FluentSet;
use crate::reference::Kb;
use crate::syntax::term::{Bindings, Node, Sym, TermId, Terms};

/// How deep derivations may nest before the walk stands aside (each level is a stack frame).
pub(crate) const MAX_DEPTH: u32 = 1_000;

/// How many body literals the ground rules may hold before they are dropped (4 bytes each; the
/// atoms and rules they go with take about as much again).
pub(crate) const MAX_LITERALS: usize = 1 << 24;

/// Why grounding on demand stands aside for good.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum StandAside {
    /// A ground atom depends on itself.
    #[error("a ground atom depends on itself")]
    Cycle,
    /// Derivations nest deeper than [`MAX_DEPTH`].
    #[error("derivations nest deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A rule cannot be ground atom by atom (the reason says which and why).
    #[error("{0}")]
    Unsupported(String),
}

/// What a ground atom is, for evaluation.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `(true F)`: fluent `F`'s id.
    Fluent(u32),
    /// `(does R M)`: role index and move id.
    Does(u32, u32),
    /// An ask: holds when the network asks it (see [`OnDemand::assume`]).
    Ask,
    /// A derived atom whose rules are not ground yet.
    Ungrounded,
    /// A derived atom: its ground rules, `rules[first..end]`.
    Derived(u32, u32),
}

/// How a relation's atoms are found while grounding.
#[derive(Clone, Copy, Debug)]
enum Class {
    Fluent,
    Does,
    Ask,
    /// A static relation held whole (its engine id).
    Static(u32),
    Derived,
    /// No rule defines it: it never holds.
    Never,
}

/// A body literal ground, or what it folded to.
enum Ground {
    Const(bool),
    Node(u32),
}

/// Where the candidates of an enumerated literal come from, and which of their arguments is
/// fixed: the key of [`OnDemand::candidates`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    /// 0: the fluent table; 1: the move table; 2 + id: static relation `id`.
    source: u32,
    functor: Option<(Sym, usize)>,
    /// The fixed argument's position (`u32::MAX`: none) and value.
    position: u32,
    value: TermId,
}

/// A rule of the reasoner's program as grounding reads it.
#[derive(Clone, Debug)]
struct Shape {
    head: TermId,
    body: Vec<Literal>,
    /// Per body literal: its variables.
    vars: Vec<Vec<u32>>,
    var_count: u32,
}

/// The ground atoms asked for so far, their ground rules, and each atom's value in the state
/// being evaluated.
#[derive(Clone, Debug)]
pub(crate) struct OnDemand {
    ids: FastMap<TermId, u32>,
    kinds: Vec<Kind>,
    atoms: Vec<TermId>,
    /// Per atom: `epoch << 2 | value` (`IN_PROGRESS`, `FALSE` or `TRUE`) in the epoch it was
    /// last evaluated.
    memo: Vec<u32>,
    epoch: u32,
    /// Ground rules: ranges of `literals`, each `atom << 1 | negated`, or for a fluent's
    /// literal `FLUENT_LITERAL | fluent << 1 | negated` (tested without a lookup).
    rules: Vec<(u32, u32)>,
    literals: Vec<u32>,
    /// Per relation (name, arity): the rules defining it.
    shapes: FastMap<(Sym, usize), Arc<[Shape]>>,
    classes: FastMap<(Sym, usize), Class>,
    asks: Vec<Sym>,
    candidates: FastMap<Key, Arc<[TermId]>>,
    /// Per derived pattern with unbound variables: the ground atoms it may take (`None` while
    /// they are being found).
    patterns: FastMap<TermId, Option<Arc<[TermId]>>>,
    bindings: Bindings,
    /// The atoms made before the first state: kept when the rest are dropped.
    kept: usize,
    /// How many times the ground rules were dropped.
    flushes: u64,
}

/// The source keys of the fluent table's, the move table's and a derived literal's candidates
/// (see [`Key::source`]; a static relation's is 2 + its id).
const FLUENTS: u32 = 0;
const MOVES: u32 = 1;
const DERIVED: u32 = u32::MAX;

/// Marks a ground literal that tests a fluent in place (see [`OnDemand::rules`]).
const FLUENT_LITERAL: u32 = 1 << 31;

const IN_PROGRESS: u32 = 0;
const FALSE: u32 = 1;
const TRUE: u32 = 2;

impl OnDemand {
    /// Grounding on demand over `kb`'s rules, whose relations `asks` are the network's asks.
    pub(crate) fn new(kb: &Kb, asks: &[Sym]) -> OnDemand {
        let terms = &kb.desc.terms;
        let mut shapes: FastMap<(Sym, usize), Vec<Shape>> = FastMap::default();
        for rule in &kb.desc.rules {
            let Some(rel) = terms.functor(rule.head) else {
                continue;
            };
            let vars = (rule.body.iter())
                .map(|l| {
                    let mut vs = Vec::new();
                    match *l {
                        Literal::Pos(a) | Literal::Neg(a) => terms.vars_of(a, &mut vs),
                        Literal::Distinct(x, y) | Literal::Same(x, y) => {
                            terms.vars_of(x, &mut vs);
                            terms.vars_of(y, &mut vs);
                        }
                    }
                    vs
                })
                .collect();
            shapes.entry(rel).or_default().push(Shape {
                head: rule.head,
                body: rule.body.clone(),
                vars,
                var_count: rule.vars,
            });
        }
        OnDemand {
            ids: FastMap::default(),
            kinds: Vec::new(),
            atoms: Vec::new(),
            memo: Vec::new(),
            epoch: 0,
            rules: Vec::new(),
            literals: Vec::new(),
            shapes: shapes.into_iter().map(|(k, v)| (k, v.into())).collect(),
            classes: FastMap::default(),
            asks: asks.to_vec(),
            candidates: FastMap::default(),
            patterns: FastMap::default(),
            bindings: Bindings::default(),
            kept: 0,
            flushes: 0,
        }
    }

    /// The atom id of `atom` (ground, in `kb`'s terms), an ask or a derived atom; `None` if it
    /// never holds.
    pub(crate) fn atom(&mut self, kb: &Kb, atom: TermId) -> Result<Option<u32>, StandAside> {
        let made = self.ground_atom(kb, atom)?;
        self.kept = self.kinds.len();
        Ok(match made {
            Ground::Node(id) => Some(id),
            Ground::Const(_) => None,
        })
    }

    /// Starts evaluating a new state: every value remembered is forgotten, and every ground rule
    /// if they passed [`MAX_LITERALS`].
    pub(crate) fn begin(&mut self) {
        if self.literals.len() > MAX_LITERALS {
            self.flush();
        }
        self.epoch += 1;
        if self.epoch >= 1 << 30 {
            self.memo.fill(0);
            self.epoch = 1;
        }
    }

    /// Drops every ground rule, and every atom but those [`atom`](Self::atom) made before
    /// the first state (the asks and bridges the hybrid holds the ids of).
    fn flush(&mut self) {
        let kept = self.kept;
        self.kinds.truncate(kept);
        self.atoms.truncate(kept);
        self.memo.truncate(kept);
        self.ids.retain(|_, &mut id| (id as usize) < kept);
        for kind in &mut self.kinds {
            if let Kind::Derived(..) = kind {
                *kind = Kind::Ungrounded;
            }
        }
        self.rules.clear();
        self.literals.clear();
        self.patterns.clear();
        self.flushes += 1;
    }

    /// Ask atom `id` holds in this state.
    pub(crate) fn assume(&mut self, id: u32) {
        self.memo[id as usize] = self.epoch << 2 | TRUE;
    }

    /// Whether atom `id` holds in `state` under `joint` (as the reference engine's queries
    /// take them), grounding what it needs; the asks that hold were [`assume`](Self::assume)d
    /// since [`begin`](Self::begin).
    pub(crate) fn holds(
        &mut self,
        kb: &mut Kb,
        id: u32,
        state: &FluentSet,
        joint: &[u32],
    ) -> Result<bool, StandAside> {
        self.value(kb, id, 0, state, joint)
    }

    fn value(
        &mut self,
        kb: &mut Kb,
        id: u32,
        depth: u32,
        state: &FluentSet,
        joint: &[u32],
    ) -> Result<bool, StandAside> {
        let memo = self.memo[id as usize];
        if memo >> 2 == self.epoch {
            return match memo & 3 {
                IN_PROGRESS => Err(StandAside::Cycle),
                v => Ok(v == TRUE),
            };
        }
        let (first, end) = match self.kinds[id as usize] {
            Kind::Fluent(f) => return Ok(state.contains(f)),
            Kind::Does(r, m) => return Ok(joint.get(r as usize) == Some(&m)),
            Kind::Ask => return Ok(false),
            Kind::Ungrounded => {
                self.ground(kb, id)?;
                return self.value(kb, id, depth, state, joint);
            }
            Kind::Derived(first, end) => (first, end),
        };
        if depth >= MAX_DEPTH {
            return Err(StandAside::TooDeep);
        }
        self.memo[id as usize] = self.epoch << 2 | IN_PROGRESS;
        let mut holds = false;
        'rules: for r in first..end {
            let (lo, hi) = self.rules[r as usize];
            for i in lo..hi {
                let l = self.literals[i as usize];
                let holds = if l & FLUENT_LITERAL != 0 {
                    state.contains((l & !FLUENT_LITERAL) >> 1)
                } else {
                    self.value(kb, l >> 1, depth + 1, state, joint)?
                };
                if holds == (l & 1 == 1) {
                    continue 'rules;
                }
            }
            holds = true;
            break;
        }
        self.memo[id as usize] = self.epoch << 2 | if holds { TRUE } else { FALSE };
        Ok(holds)
    }

    /// The rules whose head has `atom`'s relation.
    fn shapes_of(&self, kb: &Kb, atom: TermId) -> Arc<[Shape]> {
        let rel = kb.desc.terms.functor(atom).unwrap_or((Sym(0), 0));
        (self.shapes.get(&rel).cloned()).unwrap_or_else(|| Arc::new([]))
    }

    /// Grounds the rules of derived atom `id`.
    fn ground(&mut self, kb: &mut Kb, id: u32) -> Result<(), StandAside> {
        let atom = self.atoms[id as usize];
        let shapes = self.shapes_of(kb, atom);
        let first = self.rules.len() as u32;
        let mut body = Vec::new();
        for shape in shapes.iter() {
            self.bindings.reset(shape.var_count as usize);
            if !kb.desc.terms.matches(shape.head, atom, &mut self.bindings) {
                continue;
            }
            self.solve(kb, shape, 0, &mut body, None)?;
        }
        self.kinds[id as usize] = Kind::Derived(first, self.rules.len() as u32);
        Ok(())
    }

    /// Grounds `shape`'s body under the bindings, the literals in `done` (a bit per literal)
    /// ground already into `body`: the literals whose variables are bound are ground (and
    /// folded, if static), then one that binds more is enumerated. Each instance becomes a
    /// ground rule, or with `heads`, its head goes there.
    fn solve(
        &mut self,
        kb: &mut Kb,
        shape: &Shape,
        mut done: u64,
        body: &mut Vec<u32>,
        heads: Option<&mut Vec<TermId>>,
    ) -> Result<(), StandAside> {
        if shape.body.len() > 64 {
            let head = kb.desc.terms.show(shape.head);
            return Err(StandAside::Unsupported(format!(
                "a rule of `{head}` has more than 64 body literals"
            )));
        }
        let start = body.len();
        let result = self.solve_bound(kb, shape, &mut done, body);
        let result = match result {
            Ok(true) => self.enumerate(kb, shape, done, body, heads),
            Ok(false) => Ok(()),
            Err(e) => Err(e),
        };
        body.truncate(start);
        result
    }

    /// Grounds the literals whose variables are all bound; `false` if one cannot hold.
    fn solve_bound(
        &mut self,
        kb: &mut Kb,
        shape: &Shape,
        done: &mut u64,
        body: &mut Vec<u32>,
    ) -> Result<bool, StandAside> {
        for (i, literal) in shape.body.iter().enumerate() {
            let bound = shape.vars[i]
                .iter()
                .all(|&v| self.bindings.get(v).is_some());
            if *done >> i & 1 == 1 || !bound {
                continue;
            }
            *done |= 1 << i;
            let terms = &kb.desc.terms;
            let (atom, negated) = match *literal {
                Literal::Distinct(x, y) | Literal::Same(x, y) => {
                    let equal = terms.equal(x, y, &self.bindings);
                    if equal != matches!(literal, Literal::Same(..)) {
                        return Ok(false);
                    }
                    continue;
                }
                Literal::Pos(a) => (a, false),
                Literal::Neg(a) => (a, true),
            };
            let Some(atom) = self.instance(kb, atom)? else {
                if negated {
                    continue;
                }
                return Ok(false);
            };
            match self.ground_atom(kb, atom)? {
                Ground::Const(holds) if holds == negated => return Ok(false),
                Ground::Const(_) => {}
                Ground::Node(id) => body.push(id << 1 | u32::from(negated)),
            }
        }
        Ok(true)
    }

    /// `atom` under the bindings: looked up if its relation is static (`None`: no such term, so
    /// no such fact), interned otherwise (a fluent's or a move's atom need not exist yet).
    fn instance(&mut self, kb: &mut Kb, atom: TermId) -> Result<Option<TermId>, StandAside> {
        let terms = &kb.desc.terms;
        let rel = terms.functor(atom).unwrap_or((Sym(0), 0));
        Ok(match self.class(kb, rel)? {
            Class::Static(_) | Class::Never => terms.resolve(atom, &self.bindings),
            _ => kb.desc.terms.substitute(atom, &self.bindings),
        })
    }

    /// Every literal left has unbound variables: enumerates the positive one with the fewest
    /// candidates (a fluent, a move or a static atom from the tables; a derived atom from the
    /// instances its rules may make), or emits the instance if none is left.
    fn enumerate(
        &mut self,
        kb: &mut Kb,
        shape: &Shape,
        done: u64,
        body: &mut Vec<u32>,
        mut heads: Option<&mut Vec<TermId>>,
    ) -> Result<(), StandAside> {
        // (candidates, literal's atom, source key or `DERIVED`, pattern)
        let mut best: Option<(Arc<[TermId]>, TermId, u32, TermId)> = None;
        let mut unbound = None;
        for i in (0..shape.body.len()).filter(|&i| done >> i & 1 == 0) {
            unbound.get_or_insert(i);
            let Literal::Pos(atom) = shape.body[i] else {
                continue;
            };
            let terms = &kb.desc.terms;
            let rel = terms.functor(atom).unwrap_or((Sym(0), 0));
            let (key, pattern) = match self.class(kb, rel)? {
                Class::Fluent => (FLUENTS, terms.args(atom)[0]),
                Class::Does => (MOVES, atom),
                Class::Static(r) => (2 + r, atom),
                Class::Derived => (DERIVED, atom),
                Class::Never => return Ok(()),
                Class::Ask => continue,
            };
            let found = match key {
                DERIVED => {
                    let pattern =
                        canonical(&mut kb.desc.terms, atom, &self.bindings, &mut Vec::new());
                    match self.instances(kb, pattern) {
                        Ok(found) => found,
                        // Recursion through this pattern, or a rule that cannot enumerate it:
                        // another literal binds its variables, or none does.
                        Err(StandAside::Cycle | StandAside::Unsupported(_)) => continue,
                        Err(e) => return Err(e),
                    }
                }
                _ => self.candidates(kb, key, pattern),
            };
            if best.as_ref().map_or(true, |b| found.len() < b.0.len()) {
                best = Some((found, atom, key, pattern));
            }
        }
        if let Some((found, atom, key, pattern)) = best {
            // A move's candidates are move terms, each taken with every role.
            let roles = match key {
                MOVES => kb.roles.len(),
                _ => 1,
            };
            for &candidate in found.iter() {
                for role in 0..roles {
                    let mark = self.bindings.mark();
                    if self.bind(kb, key, (atom, pattern), (role, candidate)) {
                        self.solve(kb, shape, done, body, heads.as_deref_mut())?;
                    }
                    self.bindings.undo(mark);
                }
            }
            return Ok(());
        }
        if let Some(i) = unbound {
            let terms = &mut kb.desc.terms;
            let head = terms.show(shape.head);
            return Err(StandAside::Unsupported(format!(
                "in a rule of `{head}`, literal {} has a variable no positive literal binds",
                i + 1
            )));
        }
        if let Some(heads) = heads {
            let Some(head) = kb.desc.terms.substitute(shape.head, &self.bindings) else {
                let head = kb.desc.terms.show(shape.head);
                return Err(StandAside::Unsupported(format!(
                    "a rule of `{head}` leaves a variable of its head unbound"
                )));
            };
            heads.push(head);
            return Ok(());
        }
        // Fluents first, tested in place (most rules fail on one), then moves: a bit test each.
        let mut ground: Vec<u32> = (body.iter())
            .map(|&l| match self.kinds[(l >> 1) as usize] {
                Kind::Fluent(f) if f < FLUENT_LITERAL >> 1 => FLUENT_LITERAL | f << 1 | (l & 1),
                _ => l,
            })
            .collect();
        ground.sort_by_key(|&l| {
            let class = if l & FLUENT_LITERAL != 0 {
                0
            } else if let Kind::Does(..) = self.kinds[(l >> 1) as usize] {
                1
            } else {
                2
            };
            (class, l)
        });
        ground.dedup();
        let lo = self.literals.len() as u32;
        self.literals.extend_from_slice(&ground);
        self.rules.push((lo, self.literals.len() as u32));
        Ok(())
    }

    /// The ground atoms of derived `pattern` (its unbound variables numbered from 0, see
    /// [`canonical`]) that some instance of a rule may make hold: `Cycle` if that needs the
    /// pattern itself (a relation that recurses: a clear line is a clear square next to a
    /// clear line), for the caller to bind its variables another way.
    fn instances(&mut self, kb: &mut Kb, pattern: TermId) -> Result<Arc<[TermId]>, StandAside> {
        match self.patterns.get(&pattern) {
            Some(Some(found)) => return Ok(found.clone()),
            Some(None) => return Err(StandAside::Cycle),
            None => {}
        }
        self.patterns.insert(pattern, None);
        match self.round(kb, pattern) {
            Ok(heads) => {
                let found: Arc<[TermId]> = heads.into();
                self.patterns.insert(pattern, Some(found.clone()));
                Ok(found)
            }
            Err(e) => {
                self.patterns.remove(&pattern);
                Err(e)
            }
        }
    }

    /// [`instances`](Self::instances) found: the heads of `pattern`'s rule instances,
    /// sorted.
    fn round(&mut self, kb: &mut Kb, pattern: TermId) -> Result<Vec<TermId>, StandAside> {
        let outer = std::mem::take(&mut self.bindings);
        let mut heads = Vec::new();
        let found = self.heads_of(kb, pattern, &mut heads);
        self.bindings = outer;
        found?;
        // Loose matching bound nothing to the pattern's variables: keep the heads it matches.
        let mut vars = Vec::new();
        kb.desc.terms.vars_of(pattern, &mut vars);
        let mut check = Bindings::default();
        heads.retain(|&h| {
            check.reset(vars.len());
            kb.desc.terms.matches(pattern, h, &mut check)
        });
        heads.sort();
        heads.dedup();
        Ok(heads)
    }

    /// Adds to `heads` the head of every instance of a rule whose head matches `pattern`.
    fn heads_of(
        &mut self,
        kb: &mut Kb,
        pattern: TermId,
        heads: &mut Vec<TermId>,
    ) -> Result<(), StandAside> {
        let shapes = self.shapes_of(kb, pattern);
        for shape in shapes.iter() {
            self.bindings.reset(shape.var_count as usize);
            if loosely(&kb.desc.terms, shape.head, pattern, &mut self.bindings) {
                self.solve(kb, shape, 0, &mut Vec::new(), Some(heads))?;
            }
        }
        Ok(())
    }

    /// Binds literal `atom` (with its `pattern`, see [`enumerate`](Self::enumerate)) to a
    /// candidate of source `key`: a derived atom, a fluent, a static atom, or for a `does`
    /// literal, the move term played by role `role`.
    fn bind(
        &mut self,
        kb: &Kb,
        key: u32,
        (atom, pattern): (TermId, TermId),
        (role, candidate): (usize, TermId),
    ) -> bool {
        let terms = &kb.desc.terms;
        match key {
            DERIVED => terms.matches(atom, candidate, &mut self.bindings),
            MOVES => {
                let [role_pattern, move_pattern] = terms.args(atom) else {
                    return false;
                };
                terms.matches(*role_pattern, kb.roles[role], &mut self.bindings)
                    && terms.matches(*move_pattern, candidate, &mut self.bindings)
            }
            _ => terms.matches(pattern, candidate, &mut self.bindings),
        }
    }

    /// The terms of source `key` that may match `pattern` under the bindings: those with its
    /// functor and the value of its first bound argument.
    fn candidates(&mut self, kb: &Kb, source: u32, pattern: TermId) -> Arc<[TermId]> {
        let terms = &kb.desc.terms;
        // A move's candidates are the move terms, indexed by the move's pattern.
        let pattern = match source {
            MOVES => terms.args(pattern).get(1).copied().unwrap_or(pattern),
            _ => pattern,
        };
        let functor = terms.functor(pattern);
        let args = terms.args(pattern);
        let bound = (args.iter().enumerate())
            .find_map(|(i, &a)| terms.resolve(a, &self.bindings).map(|v| (i as u32, v)));
        let (position, value) = bound.unwrap_or((u32::MAX, TermId(0)));
        let key = Key {
            source,
            functor,
            position,
            value,
        };
        if let Some(found) = self.candidates.get(&key) {
            return found.clone();
        }
        let all: &[TermId] = match source {
            FLUENTS => &kb.fluents,
            MOVES => &kb.moves,
            r => kb.statics.of(r - 2),
        };
        let fits = |&&t: &&TermId| {
            functor.map_or(true, |f| terms.functor(t) == Some(f))
                && (position == u32::MAX || terms.arg(t, position as usize) == Some(value))
        };
        let found: Arc<[TermId]> = all.iter().filter(fits).copied().collect();
        self.candidates.insert(key, found.clone());
        found
    }

    /// The atom id of ground `atom`, or what it folds to.
    fn ground_atom(&mut self, kb: &Kb, atom: TermId) -> Result<Ground, StandAside> {
        if let Some(&id) = self.ids.get(&atom) {
            return Ok(Ground::Node(id));
        }
        let terms = &kb.desc.terms;
        let rel = terms.functor(atom).unwrap_or((Sym(0), 0));
        let kind = match self.class(kb, rel)? {
            Class::Never => return Ok(Ground::Const(false)),
            Class::Static(_) => return Ok(Ground::Const(kb.statics.contains(atom))),
            Class::Fluent => match kb.find_fluent(terms.args(atom)[0]) {
                Some(f) => Kind::Fluent(f),
                None => return Ok(Ground::Const(false)),
            },
            Class::Does => {
                let args = terms.args(atom);
                match (kb.role_index(args[0]), kb.find_move(args[1])) {
                    (Some(r), Some(m)) => Kind::Does(r as u32, m),
                    _ => return Ok(Ground::Const(false)),
                }
            }
            Class::Ask => Kind::Ask,
            Class::Derived => Kind::Ungrounded,
        };
        let id = self.kinds.len() as u32;
        if id >= FLUENT_LITERAL >> 1 {
            // A literal holds an atom id shifted once, below the fluent mark.
            return Err(StandAside::Unsupported(format!(
                "more than {} ground atoms",
                FLUENT_LITERAL >> 1
            )));
        }
        self.ids.insert(atom, id);
        self.kinds.push(kind);
        self.atoms.push(atom);
        self.memo.push(0);
        Ok(Ground::Node(id))
    }

    /// How `rel`'s atoms are found.
    fn class(&mut self, kb: &Kb, rel: (Sym, usize)) -> Result<Class, StandAside> {
        if let Some(&c) = self.classes.get(&rel) {
            return Ok(c);
        }
        let kw = &kb.desc.kw;
        let class = if rel == (kw.true_, 1) {
            Class::Fluent
        } else if rel == (kw.does, 2) {
            Class::Does
        } else if self.asks.contains(&rel.0) {
            Class::Ask
        } else {
            match kb.engine.schema.id(rel) {
                None => Class::Never,
                Some(r) if kb.deferred().contains(&r) => {
                    return Err(StandAside::Unsupported(format!(
                        "`{}` is a static relation too large to hold whole",
                        kb.desc.terms.name(rel.0)
                    )))
                }
                Some(r) if kb.engine.is_static(r) => Class::Static(r),
                Some(_) => Class::Derived,
            }
        };
        self.classes.insert(rel, class);
        Ok(class)
    }

    /// Ground atoms and ground rules held, and how many times they were dropped.
    pub(crate) fn size(&self) -> (usize, usize, u64) {
        (self.kinds.len(), self.rules.len(), self.flushes)
    }
}

/// `t` under `b`, its unbound variables renumbered from 0 in order of appearance (`seen`): one
/// term per call pattern, whatever the calling rule named its variables.
fn canonical(terms: &mut Terms, t: TermId, b: &Bindings, seen: &mut Vec<u32>) -> TermId {
    if terms.is_ground(t) {
        return t;
    }
    match terms.node(t) {
        Node::Var(v) => match b.get(v) {
            Some(value) => value,
            None => {
                let n = seen.iter().position(|&s| s == v).unwrap_or_else(|| {
                    seen.push(v);
                    seen.len() - 1
                });
                terms.var(n as u32)
            }
        },
        Node::Const(_) => t,
        Node::App(f, args) => {
            let args: Vec<TermId> = args.to_vec();
            let args: Vec<TermId> = (args.into_iter())
                .map(|a| canonical(terms, a, b, seen))
                .collect();
            terms.app(f, &args)
        }
    }
}

/// Matches rule head `head` against call pattern `pattern`, whose variables match anything and
/// bind nothing (a head variable facing one stays unbound, for the body to bind).
fn loosely(terms: &Terms, head: TermId, pattern: TermId, b: &mut Bindings) -> bool {
    if terms.is_ground(pattern) {
        return terms.matches(head, pattern, b);
    }
    match (terms.node(head), terms.node(pattern)) {
        (_, Node::Var(_)) | (Node::Var(_), _) => true,
        (Node::App(f, hs), Node::App(g, ps)) if f == g && hs.len() == ps.len() => {
            (hs.iter().zip(ps)).all(|(&h, &p)| loosely(terms, h, p, b))
        }
        _ => false,
    }
}

//! [`Gates`]: helper variables for derived atoms whose cone is too large for one table.
//!
//! A derived atom is a function of the variables its rules read. When a table's cone spans more
//! value combinations than can be enumerated, the atoms below it are given Boolean helper
//! variables (*gates*, [`VariableKind::Auxiliary`]), each defined by a table over the variables
//! its own rules read, with the gates of its children standing in for their cones. An atom whose
//! rules together read too much is split: each rule becomes a conjunction of literals, long
//! conjunctions are cut into gated chunks, and the rules are joined by a tree of gated
//! disjunctions. Every gate table is small ([`GATE_TUPLES`] combinations or so) and functional:
//! each assignment of its inputs allows exactly one value of the gate.
//!
//! Gates are defined only over acyclic rules: a recursive atom (Hex's connectivity) cannot be a
//! function of its own gate, and is refused. A gate that reads no move is determined by the state
//! (a player computes it before deciding); one that reads a move belongs to the transition and its
//! table is a [`TableRole::Next`] table.

use game_trait::round::{Relation, Round, TableRole, VariableKind};

use super::probe::{combinations, each_assignment};
use crate::error::GdlError;
use crate::grounding::{GroundProgram, Lit, INDEX, KIND, KIND_DERIVED, KIND_DOES, NEGATED};

/// The value combinations a table made through gates aims to stay under (a gate's inputs aim at
/// half of it, so that with the gate itself its table stays under it). An aim, not a bound: a
/// conjunction that no chunking shrinks, or a table over many gates, may pass it up to the
/// encoding's limit. Small tables keep propagation cheap for the players: on Othello, 2^8 makes
/// 6,685 variables and 0.6 M tuples, 2^12 4,523 variables but 4.6 M tuples.
pub(crate) const GATE_TUPLES: u64 = 1 << 8;

/// A round variable with no value in the assignment being evaluated.
const UNSET: u32 = u32::MAX;

/// What an atom's rules read once inlined: its own scope, or too much for one table.
#[derive(Clone, Debug)]
enum Inline {
    Unknown,
    Visiting,
    Fits(Vec<usize>),
    Wide,
}

/// A part of a conjunction: a ground literal, or a gate (true when its value is 1).
#[derive(Clone, Copy, Debug)]
enum Item {
    Lit(Lit),
    Gate(usize),
}

/// A disjunction of conjunctions.
type Dnf = Vec<Vec<Item>>;

/// Where the literals of the ground program find their values among the round's variables.
pub(crate) struct Inputs {
    /// Per fluent id: its state variable's round index and the value that means it holds.
    pub(crate) fluent_at: Vec<(usize, u32)>,
    /// Per `does` id: its actor's action variable and the value of its move, `None` for a move
    /// that is never legal (no value of the variable stands for it).
    pub(crate) does_at: Vec<Option<(usize, u32)>>,
}

/// Builds gates into a [`Round`] and evaluates derived atoms over its variables.
pub(crate) struct Gates<'a> {
    g: &'a GroundProgram,
    inputs: Inputs,
    atom_name: &'a dyn Fn(u32) -> String,
    max_tuples: u64,
    rules_of: Vec<Vec<u32>>,
    /// Per derived slot: its gate variable, once made.
    gate: Vec<Option<usize>>,
    inline: Vec<Inline>,
    /// Per round variable: whether it depends on a move (actions, chance, gates reading them).
    dynamic: Vec<bool>,
    /// Per round variable: its value in the assignment being evaluated, or [`UNSET`].
    value: Vec<u32>,
    /// Per derived slot: the evaluation that last computed it, and its truth then.
    memo: Vec<(u64, bool)>,
    epoch: u64,
    /// Chunks made so far, for their names.
    chunks: usize,
}

impl<'a> Gates<'a> {
    /// Gates over `g`, whose literals read the round's variables through `inputs`.
    pub(crate) fn new(
        g: &'a GroundProgram,
        inputs: Inputs,
        atom_name: &'a dyn Fn(u32) -> String,
        max_tuples: u64,
    ) -> Gates<'a> {
        let mut rules_of = vec![Vec::new(); g.atoms.len()];
        for (i, &h) in g.heads.iter().enumerate() {
            rules_of[h as usize].push(i as u32);
        }
        Gates {
            g,
            inputs,
            atom_name,
            max_tuples,
            rules_of,
            gate: vec![None; g.atoms.len()],
            inline: vec![Inline::Unknown; g.atoms.len()],
            dynamic: Vec::new(),
            value: Vec::new(),
            memo: vec![(0, false); g.atoms.len()],
            epoch: 0,
            chunks: 0,
        }
    }

    /// The round variables a table over the atoms `slots` reads, gating atoms until their
    /// combinations times `extra` (the table's other columns) fit under [`GATE_TUPLES`], or at
    /// least under the encoding's limit. An error says why the atoms cannot be covered.
    pub(crate) fn cover(
        &mut self,
        round: &mut Round,
        slots: &[u32],
        extra: u64,
    ) -> Result<Vec<usize>, GdlError> {
        let mut parts = Vec::new();
        for &s in slots {
            parts.push((s, self.part(round, s)?));
        }
        loop {
            let scope = union(parts.iter().map(|p| p.1.as_slice()));
            let size = self.size(round, &scope).saturating_mul(extra);
            if size <= self.target() {
                return Ok(scope);
            }
            let gates = &self.gate;
            let widest = (parts.iter_mut())
                .filter(|(s, scope)| !is_gate(gates, *s, scope))
                .max_by_key(|(_, scope)| scope.len());
            match widest {
                Some((s, scope)) => *scope = vec![self.gate(round, *s)?],
                None if size <= self.max_tuples => return Ok(scope),
                None => {
                    return Err(GdlError::Encoding(format!(
                        "even with a helper variable per atom, the table spans {size} value combinations"
                    )))
                }
            }
        }
    }

    /// Sets the values of `scope`'s variables for the evaluations that follow.
    pub(crate) fn load(&mut self, scope: &[usize], values: &[u32]) {
        self.epoch += 1;
        if let Some(&last) = scope.iter().max() {
            if self.value.len() <= last {
                self.value.resize(last + 1, UNSET);
            }
        }
        for (&v, &x) in scope.iter().zip(values) {
            self.value[v] = x;
        }
    }

    /// Clears the values of `scope`'s variables.
    pub(crate) fn unload(&mut self, scope: &[usize]) {
        scope.iter().for_each(|&v| self.value[v] = UNSET);
    }

    /// Whether the derived atom `slot` holds under the loaded values.
    pub(crate) fn holds(&mut self, slot: u32) -> bool {
        match self.gate[slot as usize] {
            Some(x) if self.value[x] != UNSET => self.value[x] == 1,
            _ => self.atom(slot),
        }
    }

    /// Grows the per-variable vectors to the round's variables; action and chance variables are
    /// dynamic.
    fn grow(&mut self, round: &Round) {
        for v in &round.variables[self.dynamic.len()..] {
            let moves = matches!(v.kind, VariableKind::Action(_) | VariableKind::Chance);
            self.dynamic.push(moves);
            self.value.push(UNSET);
        }
    }

    /// The combinations a gate's inputs aim to stay under: [`GATE_TUPLES`], or the encoding's
    /// limit if it is lower.
    fn target(&self) -> u64 {
        GATE_TUPLES.min(self.max_tuples)
    }

    /// The combinations a gate's inputs aim to stay under: half of [`target`](Gates::target), the
    /// other half for the gate's own two values.
    fn input_limit(&self) -> u64 {
        self.target() / 2
    }

    fn size(&self, round: &Round, scope: &[usize]) -> u64 {
        combinations(scope.iter().map(|&v| round.variables[v].values.len())).unwrap_or(u64::MAX)
    }

    /// What atom `slot` contributes to a parent's scope: its gate, its inlined scope, or (when it
    /// is too wide to inline) a new gate.
    fn part(&mut self, round: &mut Round, slot: u32) -> Result<Vec<usize>, GdlError> {
        if let Some(x) = self.gate[slot as usize] {
            return Ok(vec![x]);
        }
        match self.inline_scope(round, slot)? {
            Some(scope) => Ok(scope),
            None => Ok(vec![self.gate(round, slot)?]),
        }
    }

    /// The variables atom `slot`'s rules read with its children inlined, gating the widest
    /// children until the scope fits half of [`GATE_TUPLES`]; `None` if it cannot.
    fn inline_scope(
        &mut self,
        round: &mut Round,
        slot: u32,
    ) -> Result<Option<Vec<usize>>, GdlError> {
        match &self.inline[slot as usize] {
            Inline::Fits(scope) => return Ok(Some(scope.clone())),
            Inline::Wide => return Ok(None),
            Inline::Visiting => {
                return Err(GdlError::Encoding(format!(
                "`{}` depends on itself, and recursive rules cannot be split into helper variables",
                (self.atom_name)(slot)
            )))
            }
            Inline::Unknown => {}
        }
        self.inline[slot as usize] = Inline::Visiting;
        let mut direct = Vec::new();
        let mut children = Vec::new();
        for &rule in &self.rules_of[slot as usize] {
            for &lit in self.g.body(rule as usize) {
                match lit & KIND {
                    KIND_DERIVED => children.push(lit & INDEX),
                    _ => direct.extend(self.input_of(lit)),
                }
            }
        }
        children.sort_unstable();
        children.dedup();
        let mut parts = Vec::new();
        for c in children {
            parts.push((c, self.part(round, c)?));
        }
        let fitted = loop {
            let scope = union(
                std::iter::once(direct.as_slice()).chain(parts.iter().map(|p| p.1.as_slice())),
            );
            if self.size(round, &scope) <= self.input_limit() {
                break Inline::Fits(scope);
            }
            let gates = &self.gate;
            let widest = (parts.iter_mut())
                .filter(|(c, scope)| !is_gate(gates, *c, scope))
                .max_by_key(|(_, scope)| scope.len());
            match widest {
                Some((c, scope)) => *scope = vec![self.gate(round, *c)?],
                None => break Inline::Wide,
            }
        };
        self.inline[slot as usize] = fitted.clone();
        Ok(match fitted {
            Inline::Fits(scope) => Some(scope),
            _ => None,
        })
    }

    /// The round variable of a fluent or `does` literal, if it reads one.
    fn input_of(&self, lit: Lit) -> Option<usize> {
        let index = (lit & INDEX) as usize;
        match lit & KIND {
            KIND_DOES => self.inputs.does_at[index].map(|(v, _)| v),
            KIND_DERIVED => None,
            _ => Some(self.inputs.fluent_at[index].0),
        }
    }

    /// The gate of atom `slot`, made if needed.
    fn gate(&mut self, round: &mut Round, slot: u32) -> Result<usize, GdlError> {
        if let Some(x) = self.gate[slot as usize] {
            return Ok(x);
        }
        let name = (self.atom_name)(slot);
        let x = match self.inline_scope(round, slot)? {
            Some(scope) => self.make(round, &name, &scope, |gates| gates.atom(slot))?,
            None => {
                let rules: Dnf = self.rules_of[slot as usize]
                    .iter()
                    .map(|&r| {
                        self.g
                            .body(r as usize)
                            .iter()
                            .map(|&l| Item::Lit(l))
                            .collect()
                    })
                    .collect();
                let dnf = self.reduce_or(round, &name, rules)?;
                self.formula(round, &name, dnf)?
            }
        };
        self.gate[slot as usize] = Some(x);
        Ok(x)
    }

    /// A gate that is the disjunction `dnf`.
    fn formula(&mut self, round: &mut Round, name: &str, dnf: Dnf) -> Result<usize, GdlError> {
        let mut scopes = Vec::new();
        for conj in &dnf {
            for &item in conj {
                scopes.push(self.item_scope(round, item)?);
            }
        }
        let scope = union(scopes.iter().map(Vec::as_slice));
        self.make(round, name, &scope, |gates| {
            dnf.iter().any(|conj| conj.iter().all(|&i| gates.item(i)))
        })
    }

    /// A new gate variable named `name`, and its table over `scope`: the gate's value is `value`
    /// under each assignment of `scope`.
    fn make(
        &mut self,
        round: &mut Round,
        name: &str,
        scope: &[usize],
        mut value: impl FnMut(&mut Gates<'a>) -> bool,
    ) -> Result<usize, GdlError> {
        let size = self.size(round, scope);
        if size.saturating_mul(2) > self.max_tuples {
            return Err(GdlError::Encoding(format!(
                "the helper variable for `{name}` would read {size} value combinations"
            )));
        }
        let x = round.variable(name, VariableKind::Auxiliary, &["false", "true"]);
        self.grow(round);
        self.dynamic[x] = scope.iter().any(|&v| self.dynamic[v]);
        let sizes: Vec<usize> = scope
            .iter()
            .map(|&v| round.variables[v].values.len())
            .collect();
        let mut tuples = Vec::new();
        each_assignment(&sizes, |a| {
            self.load(scope, a);
            tuples.push([a, &[u32::from(value(self))]].concat());
        });
        self.unload(scope);
        let role = if self.dynamic[x] {
            TableRole::Next
        } else {
            TableRole::Other
        };
        let mut table_scope = scope.to_vec();
        table_scope.push(x);
        round.table(
            &format!("gate({name})"),
            role,
            &table_scope,
            Relation::Allowed(tuples),
        );
        Ok(x)
    }

    /// The variables `item` reads.
    fn item_scope(&mut self, round: &mut Round, item: Item) -> Result<Vec<usize>, GdlError> {
        match item {
            Item::Gate(x) => Ok(vec![x]),
            Item::Lit(l) if l & KIND == KIND_DERIVED => self.part(round, l & INDEX),
            Item::Lit(l) => Ok(self.input_of(l).into_iter().collect()),
        }
    }

    /// `dnf` with every conjunction cut to fit and the disjunction gated in groups until its
    /// scope fits half of [`GATE_TUPLES`] (or no grouping helps).
    fn reduce_or(&mut self, round: &mut Round, name: &str, dnf: Dnf) -> Result<Dnf, GdlError> {
        let mut terms = Vec::new();
        for conj in dnf {
            terms.push(self.reduce_and(round, name, conj)?);
        }
        loop {
            let mut scopes = Vec::new();
            for conj in &terms {
                let mut s = Vec::new();
                for &i in conj {
                    s.push(self.item_scope(round, i)?);
                }
                scopes.push(union(s.iter().map(Vec::as_slice)));
            }
            let groups = self.pack(round, &scopes);
            if groups.len() <= 1
                && self.size(round, &union(scopes.iter().map(Vec::as_slice))) <= self.input_limit()
            {
                return Ok(terms);
            }
            let progress = groups
                .iter()
                .any(|g| g.len() > 1 || !matches!(terms[g[0]][..], [Item::Gate(_)]));
            if !progress {
                return Ok(terms);
            }
            let mut next = Vec::new();
            for group in groups {
                if let [i] = group[..] {
                    if let [Item::Gate(_)] = terms[i][..] {
                        next.push(terms[i].clone());
                        continue;
                    }
                }
                let dnf: Dnf = group.iter().map(|&i| terms[i].clone()).collect();
                let chunk = self.chunk_name(name);
                next.push(vec![Item::Gate(self.formula(round, &chunk, dnf)?)]);
            }
            terms = next;
        }
    }

    /// `conj` cut into gated chunks until its scope fits half of [`GATE_TUPLES`] (or no
    /// chunking helps). A derived literal too wide to share a chunk is gated on its own.
    fn reduce_and(
        &mut self,
        round: &mut Round,
        name: &str,
        mut conj: Vec<Item>,
    ) -> Result<Vec<Item>, GdlError> {
        loop {
            let mut scopes = Vec::new();
            for &i in &conj {
                scopes.push(self.item_scope(round, i)?);
            }
            if self.size(round, &union(scopes.iter().map(Vec::as_slice))) <= self.input_limit() {
                return Ok(conj);
            }
            let groups = self.pack(round, &scopes);
            if groups.len() == conj.len() {
                // Every item stands alone: gate the derived ones that are inlined (a literal
                // reads its atom's gate once it has one), or give up.
                let mut changed = false;
                for &item in &conj {
                    if let Item::Lit(l) = item {
                        let atom = l & INDEX;
                        if l & KIND == KIND_DERIVED && self.gate[atom as usize].is_none() {
                            self.gate(round, atom)?;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    return Ok(conj);
                }
                continue;
            }
            let mut next = Vec::new();
            for group in groups {
                if let [i] = group[..] {
                    next.push(conj[i]);
                } else {
                    let part: Vec<Item> = group.iter().map(|&i| conj[i]).collect();
                    let chunk = self.chunk_name(name);
                    next.push(Item::Gate(self.formula(round, &chunk, vec![part])?));
                }
            }
            conj = next;
        }
    }

    /// Greedy groups of consecutive scopes whose union fits half of [`GATE_TUPLES`].
    fn pack(&self, round: &Round, scopes: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut current: Vec<usize> = Vec::new();
        let mut vars: Vec<usize> = Vec::new();
        for (i, scope) in scopes.iter().enumerate() {
            let joined = union([vars.as_slice(), scope.as_slice()]);
            if current.is_empty() || self.size(round, &joined) <= self.input_limit() {
                current.push(i);
                vars = joined;
            } else {
                groups.push(std::mem::take(&mut current));
                current.push(i);
                vars = scope.clone();
            }
        }
        if !current.is_empty() {
            groups.push(current);
        }
        groups
    }

    fn chunk_name(&mut self, name: &str) -> String {
        self.chunks += 1;
        format!("{name}#{}", self.chunks)
    }

    /// Whether `item` holds under the loaded values.
    fn item(&mut self, item: Item) -> bool {
        match item {
            Item::Gate(x) => self.value[x] == 1,
            Item::Lit(l) => self.lit(l),
        }
    }

    fn lit(&mut self, lit: Lit) -> bool {
        let index = lit & INDEX;
        let holds = match lit & KIND {
            KIND_DERIVED => self.holds(index),
            KIND_DOES => {
                self.inputs.does_at[index as usize].is_some_and(|(v, x)| self.value[v] == x)
            }
            _ => {
                let (v, x) = self.inputs.fluent_at[index as usize];
                debug_assert!(self.value[v] != UNSET, "a fluent outside the table's scope");
                self.value[v] == x
            }
        };
        holds != (lit & NEGATED != 0)
    }

    /// Whether atom `slot` holds, from its rules (memoised per loaded assignment), whether or not
    /// it has a gate.
    fn atom(&mut self, slot: u32) -> bool {
        let (epoch, truth) = self.memo[slot as usize];
        if epoch == self.epoch {
            return truth;
        }
        let mut truth = false;
        let g: &'a GroundProgram = self.g;
        for i in 0..self.rules_of[slot as usize].len() {
            let body = g.body(self.rules_of[slot as usize][i] as usize);
            if body.iter().all(|&l| self.lit(l)) {
                truth = true;
                break;
            }
        }
        self.memo[slot as usize] = (self.epoch, truth);
        truth
    }
}

/// Whether `scope` is atom `slot`'s gate alone (an atom gated since its scope was taken, as a
/// side effect of another, still has its inlined scope and can be narrowed to its gate).
fn is_gate(gates: &[Option<usize>], slot: u32, scope: &[usize]) -> bool {
    gates[slot as usize].is_some_and(|g| scope == [g])
}

/// The sorted union of scopes.
fn union<'s>(scopes: impl IntoIterator<Item = &'s [usize]>) -> Vec<usize> {
    let mut all: Vec<usize> = scopes.into_iter().flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

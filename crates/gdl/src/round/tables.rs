//! [`Encoder`]: the tables of a round, each read off the fast reasoner by enumerating the values
//! of the variables its atoms' cone reaches (see [`crate::round`]).

use std::collections::BTreeMap;

use game_trait::round::{Relation, Round, TableRole, VariableKind};

use super::gates::{Gates, Inputs};
use super::probe::{combinations, each_assignment, Probe, StateVar};
use crate::error::GdlError;
use crate::grounding::cone::Cones;
use crate::grounding::GroundProgram;
use crate::network::Outputs;
use crate::reference::NO_MOVE;

/// A role that moves in the round: a player, or `random`.
pub(crate) struct Actor {
    /// Its role index.
    pub(crate) role: usize,
    /// Its name.
    pub(crate) name: String,
    /// Whether it is `random`.
    pub(crate) chance: bool,
    /// Its player index (among the roles other than `random`); 0 for `random`.
    pub(crate) player: usize,
    /// The move ids its action variable's values stand for, sorted.
    pub(crate) moves: Vec<u32>,
    /// The moves' names.
    pub(crate) labels: Vec<String>,
}

/// Builds a [`Round`] table by table.
pub(crate) struct Encoder<'a> {
    g: &'a GroundProgram,
    outputs: Outputs,
    cones: Cones<'a>,
    probe: Probe<'a>,
    vars: &'a [StateVar],
    /// The state variable of each fluent id.
    var_of: Vec<usize>,
    max_tuples: u64,
    max_total_tuples: u64,
    max_tables: usize,
    round: Round,
    /// Round index of each state variable, of its next variable, of each actor's action variable.
    state: Vec<usize>,
    next: Vec<usize>,
    actions: Vec<usize>,
    terminal: usize,
    /// Helper variables for tables too large to enumerate, if the options allow them.
    gates: Option<Gates<'a>>,
}

/// What the encoder needs from a loaded game.
pub(crate) struct Parts<'a> {
    pub(crate) g: &'a GroundProgram,
    pub(crate) outputs: Outputs,
    pub(crate) probe: Probe<'a>,
    pub(crate) vars: &'a [StateVar],
    pub(crate) fluents: usize,
    pub(crate) players: usize,
    pub(crate) max_tuples: u64,
    pub(crate) max_total_tuples: u64,
    pub(crate) max_tables: usize,
    /// Whether tables too large to enumerate are split through helper variables.
    pub(crate) gates: bool,
    /// The text of each derived atom (for the helper variables' names).
    pub(crate) atom_name: &'a dyn Fn(u32) -> String,
}

impl<'a> Encoder<'a> {
    /// An encoder whose round has every variable: terminal, state, actions (players', then
    /// chance's), next.
    pub(crate) fn new(parts: Parts<'a>, actors: &[Actor]) -> Encoder<'a> {
        let mut var_of = vec![usize::MAX; parts.fluents];
        for (i, v) in parts.vars.iter().enumerate() {
            for &f in v.values.iter().flatten() {
                var_of[f as usize] = i;
            }
        }
        let mut round = Round::new(parts.players);
        let terminal = round.variable("terminal", VariableKind::Terminal, &["false", "true"]);
        let labels = |v: &StateVar| v.labels.clone();
        let state: Vec<usize> = parts
            .vars
            .iter()
            .map(|v| add(&mut round, &v.name, VariableKind::State, labels(v)))
            .collect();
        let actions: Vec<usize> = actors
            .iter()
            .map(|a| {
                let kind = if a.chance {
                    VariableKind::Chance
                } else {
                    VariableKind::Action(a.player)
                };
                add(
                    &mut round,
                    &format!("does({})", a.name),
                    kind,
                    a.labels.clone(),
                )
            })
            .collect();
        let next = parts
            .vars
            .iter()
            .zip(&state)
            .map(|(v, &s)| {
                add(
                    &mut round,
                    &format!("{}'", v.name),
                    VariableKind::Next(s),
                    labels(v),
                )
            })
            .collect();
        let gates = parts.gates.then(|| {
            let inputs = inputs(&parts, &var_of, &state, &actions, actors);
            Gates::new(parts.g, inputs, parts.atom_name, parts.max_tuples)
        });
        Encoder {
            gates,
            g: parts.g,
            outputs: parts.outputs,
            cones: Cones::new(parts.g),
            probe: parts.probe,
            vars: parts.vars,
            var_of,
            max_tuples: parts.max_tuples,
            max_total_tuples: parts.max_total_tuples,
            max_tables: parts.max_tables,
            round,
            state,
            next,
            actions,
            terminal,
        }
    }

    /// Adds every table and returns the round.
    pub(crate) fn encode(mut self, actors: &[Actor]) -> Result<Round, GdlError> {
        let planned = self.planned_tuples(actors);
        if planned > self.max_total_tuples {
            return Err(GdlError::Encoding(format!(
                "its tables would enumerate {planned} value combinations in all, more than the limit of {}",
                self.max_total_tuples
            )));
        }
        self.terminal_table()?;
        self.within_max_tables()?;
        for (i, actor) in actors.iter().enumerate() {
            self.legal_tables(i, actor)?;
            self.within_max_tables()?;
        }
        for v in 0..self.vars.len() {
            self.next_table(v, actors)?;
            self.within_max_tables()?;
        }
        for actor in actors.iter().filter(|a| !a.chance) {
            self.goal_table(actor)?;
            self.within_max_tables()?;
        }
        Ok(self.round)
    }

    /// Stops the encoding as soon as it has more tables than the options allow.
    fn within_max_tables(&self) -> Result<(), GdlError> {
        match self.round.tables.len() {
            n if n > self.max_tables => Err(GdlError::Encoding(format!(
                "it has more than {} tables (the limit)",
                self.max_tables
            ))),
            _ => Ok(()),
        }
    }

    /// An estimate of the value combinations the tables small enough to enumerate directly will
    /// enumerate (it leaves out the tables made through helper variables, which aim to be small),
    /// from the cones alone, so that a game too large to encode is refused before any
    /// enumeration.
    fn planned_tuples(&mut self, actors: &[Actor]) -> u64 {
        let mut scopes: Vec<(Vec<usize>, u64)> = Vec::new();
        let terminal = self.cones.of(self.outputs.terminal);
        scopes.push((self.vars_of(&terminal.fluents), 2));
        for actor in actors {
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for &(slot, _) in &self.outputs.legal[actor.role] {
                let cone = self.cones.of([slot]);
                groups.push(self.vars_of(&cone.fluents));
            }
            groups.sort_unstable();
            groups.dedup();
            let moves = actor.moves.len() as u64;
            scopes.extend(groups.into_iter().map(|vars| (vars, moves)));
        }
        for v in 0..self.vars.len() {
            let fluents: Vec<u32> = self.vars[v].values.iter().flatten().copied().collect();
            let slots = (self.outputs.next_out.iter())
                .filter(|(_, f)| fluents.contains(f))
                .map(|&(s, _)| s);
            let cone = self.cones.of(slots);
            let moves = (actors.iter())
                .filter(|a| {
                    cone.does
                        .iter()
                        .any(|&d| self.g.does[d as usize].0 as usize == a.role)
                })
                .map(|a| a.moves.len() as u64)
                .product::<u64>();
            scopes.push((self.vars_of(&cone.fluents), moves));
        }
        for actor in actors.iter().filter(|a| !a.chance) {
            let slots = self.outputs.goals[actor.role].iter().map(|&(s, _)| s);
            let cone = self.cones.of(slots);
            scopes.push((self.vars_of(&cone.fluents), 2));
        }
        scopes
            .iter()
            .filter_map(|(vars, extra)| combinations(self.sizes(vars))?.checked_mul(*extra))
            .filter(|&n| n <= self.max_tuples)
            .fold(0u64, u64::saturating_add)
    }

    /// The state variables (indices into `vars`) the fluents reach, sorted.
    fn vars_of(&self, fluents: &[u32]) -> Vec<usize> {
        let mut vars: Vec<usize> = fluents.iter().map(|&f| self.var_of[f as usize]).collect();
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    fn sizes(&self, vars: &[usize]) -> Vec<usize> {
        vars.iter().map(|&v| self.vars[v].values.len()).collect()
    }

    /// Rejects a table of `name` over variables of these sizes with more combinations than the limit.
    fn check_size(&self, name: &str, sizes: &[usize]) -> Result<(), GdlError> {
        match combinations(sizes.iter().copied()) {
            Some(n) if n <= self.max_tuples => Ok(()),
            n => Err(GdlError::Encoding(format!(
                "table `{name}` spans {} variables with {} value combinations, more than the limit of {}",
                sizes.len(),
                n.map_or_else(|| "over 2^64".to_string(), |n| n.to_string()),
                self.max_tuples
            ))),
        }
    }

    /// Calls `visit` with each assignment of `vars`, the probe set to the state it gives.
    fn each_state(&mut self, vars: &[usize], mut visit: impl FnMut(&mut Probe<'a>, &[u32])) {
        let sizes = self.sizes(vars);
        let chosen: Vec<&StateVar> = vars.iter().map(|&v| &self.vars[v]).collect();
        let probe = &mut self.probe;
        each_assignment(&sizes, |a| {
            probe.set(&chosen, a, &[]);
            visit(probe, a);
        });
    }

    fn round_scope(&self, vars: &[usize]) -> Vec<usize> {
        vars.iter().map(|&v| self.state[v]).collect()
    }

    /// When a table over the atoms `slots` is too large (`too_large`), its scope through helper
    /// variables ([`Gates::cover`]), `visit` called with each assignment of it and the atoms'
    /// truth under it; `extra` is the product of the table's other columns' sizes.
    fn through_gates(
        &mut self,
        too_large: GdlError,
        slots: &[u32],
        extra: u64,
        mut visit: impl FnMut(&[u32], &[bool]),
    ) -> Result<Vec<usize>, GdlError> {
        let Some(gates) = self.gates.as_mut() else {
            return Err(too_large);
        };
        let scope = gates.cover(&mut self.round, slots, extra).map_err(|why| {
            let (too_large, why) = (message(&too_large), message(&why));
            GdlError::Encoding(format!("{too_large}; {why}"))
        })?;
        let sizes: Vec<usize> = scope
            .iter()
            .map(|&v| self.round.variables[v].values.len())
            .collect();
        let mut truth = vec![false; slots.len()];
        each_assignment(&sizes, |a| {
            gates.load(&scope, a);
            for (t, &s) in truth.iter_mut().zip(slots) {
                *t = gates.holds(s);
            }
            visit(a, &truth);
        });
        gates.unload(&scope);
        Ok(scope)
    }

    /// `terminal`: the terminal variable against the state variables `terminal`'s cone reaches.
    fn terminal_table(&mut self) -> Result<(), GdlError> {
        let cone = self.cones.of(self.outputs.terminal);
        let vars = self.vars_of(&cone.fluents);
        let mut sizes = self.sizes(&vars);
        sizes.push(2);
        let mut tuples = Vec::new();
        let mut scope = match self.check_size("terminal", &sizes) {
            Ok(()) => {
                self.each_state(&vars, |probe, a| {
                    tuples.push([a, &[u32::from(probe.terminal())]].concat());
                });
                self.round_scope(&vars)
            }
            Err(too_large) => {
                let slots: Vec<u32> = self.outputs.terminal.into_iter().collect();
                self.through_gates(too_large, &slots, 2, |a, holds| {
                    tuples.push([a, &[u32::from(holds[0])]].concat());
                })?
            }
        };
        scope.push(self.terminal);
        self.round.table(
            "terminal",
            TableRole::Terminal,
            &scope,
            Relation::Allowed(tuples),
        );
        Ok(())
    }

    /// The legal tables of one actor: its moves grouped by the state variables their `legal`
    /// atom's cone reaches, one table per group, allowing a move of the group exactly where it is
    /// legal and every other move everywhere.
    fn legal_tables(&mut self, i: usize, actor: &Actor) -> Result<(), GdlError> {
        let mut groups: BTreeMap<Vec<usize>, Vec<(u32, u32)>> = BTreeMap::new();
        for &(slot, m) in &self.outputs.legal[actor.role].clone() {
            let cone = self.cones.of([slot]);
            let value = actor.value_of(m).expect("a move with a legal atom");
            groups
                .entry(self.vars_of(&cone.fluents))
                .or_default()
                .push((value, slot));
        }
        for (k, (vars, members)) in groups.into_iter().enumerate() {
            let name = format!("legal({})[{k}]", actor.name);
            let mut sizes = self.sizes(&vars);
            sizes.push(actor.moves.len());
            let values: Vec<u32> = members.iter().map(|&(v, _)| v).collect();
            match self.check_size(&name, &sizes) {
                Ok(()) => {
                    let mut tuples = Vec::new();
                    self.each_state(&vars, |probe, a| {
                        let legal = probe.legal(actor.role);
                        for (v, m) in actor.moves.iter().enumerate() {
                            let v = v as u32;
                            if !values.contains(&v) || legal.binary_search(m).is_ok() {
                                tuples.push([a, &[v]].concat());
                            }
                        }
                    });
                    let mut scope = self.round_scope(&vars);
                    scope.push(self.actions[i]);
                    self.round
                        .table(&name, TableRole::Legal, &scope, Relation::Allowed(tuples));
                }
                Err(too_large) => self.gated_legal_tables(too_large, &name, i, actor, &members)?,
            }
        }
        Ok(())
    }

    /// The legal tables of a group of moves (value, `legal` slot) too large to enumerate: one
    /// table per move through helper variables, over the move's gate (or its small cone) and the
    /// action variable.
    fn gated_legal_tables(
        &mut self,
        too_large: GdlError,
        name: &str,
        i: usize,
        actor: &Actor,
        members: &[(u32, u32)],
    ) -> Result<(), GdlError> {
        let too_large = message(&too_large);
        let moves = actor.moves.len() as u32;
        for (k, &(value, slot)) in members.iter().enumerate() {
            let mut tuples = Vec::new();
            let error = GdlError::Encoding(too_large.clone());
            let mut scope = self.through_gates(error, &[slot], u64::from(moves), |a, legal| {
                for v in 0..moves {
                    if v != value || legal[0] {
                        tuples.push([a, &[v]].concat());
                    }
                }
            })?;
            scope.push(self.actions[i]);
            let name = format!("{name}.{k}");
            self.round
                .table(&name, TableRole::Legal, &scope, Relation::Allowed(tuples));
        }
        Ok(())
    }

    /// The next table of state variable `v`: its next variable against the state variables and
    /// the actions the cone of its fluents' `next` atoms reaches. Combinations after which the
    /// rules give the variable no single value (two of its fluents, or none of a variable that
    /// needs one) are left out: no legal joint move from a reachable state leads there.
    fn next_table(&mut self, v: usize, actors: &[Actor]) -> Result<(), GdlError> {
        let fluents: Vec<u32> = self.vars[v].values.iter().flatten().copied().collect();
        let slots: Vec<u32> = (self.outputs.next_out.iter())
            .filter(|(_, f)| fluents.contains(f))
            .map(|&(s, _)| s)
            .collect();
        let cone = self.cones.of(slots.iter().copied());
        let vars = self.vars_of(&cone.fluents);
        let roles: Vec<usize> = cone
            .does
            .iter()
            .map(|&d| self.g.does[d as usize].0 as usize)
            .collect();
        let movers: Vec<usize> = (0..actors.len())
            .filter(|&i| roles.contains(&actors[i].role))
            .collect();
        let name = format!("next({})", self.vars[v].name);
        let mut sizes = self.sizes(&vars);
        sizes.extend(movers.iter().map(|&i| actors[i].moves.len()));
        if let Err(too_large) = self.check_size(&name, &sizes) {
            return self.gated_next_table(too_large, v, &name, &slots);
        }
        let move_sizes: Vec<usize> = movers.iter().map(|&i| actors[i].moves.len()).collect();
        let roles = actors.iter().map(|a| a.role).max().map_or(0, |r| r + 1);
        let var = &self.vars[v];
        let mut tuples = Vec::new();
        self.each_state(&vars, |probe, a| {
            each_assignment(&move_sizes, |m| {
                let mut joint = vec![NO_MOVE; roles];
                for (&i, &value) in movers.iter().zip(m) {
                    joint[actors[i].role] = actors[i].moves[value as usize];
                }
                if let Some(next) = var.value_of_successor(probe.next(&joint)) {
                    tuples.push([a, m, &[next]].concat());
                }
            });
        });
        let mut scope = self.round_scope(&vars);
        scope.extend(movers.iter().map(|&i| self.actions[i]));
        scope.push(self.next[v]);
        self.round
            .table(&name, TableRole::Next, &scope, Relation::Allowed(tuples));
        Ok(())
    }

    /// The next table of state variable `v` through helper variables, over the gates (or small
    /// cones) of its fluents' `next` atoms `slots`.
    fn gated_next_table(
        &mut self,
        too_large: GdlError,
        v: usize,
        name: &str,
        slots: &[u32],
    ) -> Result<(), GdlError> {
        let var = self.vars[v].clone();
        let fluent_of: Vec<u32> = slots
            .iter()
            .map(|s| {
                let found = self.outputs.next_out.iter().find(|(slot, _)| slot == s);
                found.map_or(u32::MAX, |&(_, f)| f)
            })
            .collect();
        let domain = var.values.len() as u64;
        let mut tuples = Vec::new();
        let mut scope = self.through_gates(too_large, slots, domain, |a, holds| {
            let next: Vec<u32> = (fluent_of.iter().zip(holds))
                .filter(|(_, &h)| h)
                .map(|(&f, _)| f)
                .collect();
            if let Some(value) = var.value_of_fluents(&next) {
                tuples.push([a, &[value]].concat());
            }
        })?;
        scope.push(self.next[v]);
        self.round
            .table(name, TableRole::Next, &scope, Relation::Allowed(tuples));
        Ok(())
    }

    /// The goal table of one player: its reward (goal / 100) in terminal states, over the state
    /// variables its `goal` atoms' cone reaches and the terminal variable; rows of reward 0 are
    /// left out.
    fn goal_table(&mut self, actor: &Actor) -> Result<(), GdlError> {
        let slots: Vec<u32> = self.outputs.goals[actor.role]
            .iter()
            .map(|&(s, _)| s)
            .collect();
        let cone = self.cones.of(slots.iter().copied());
        let vars = self.vars_of(&cone.fluents);
        let name = format!("goal({})", actor.name);
        let mut sizes = self.sizes(&vars);
        sizes.push(2); // the terminal variable
        let players = self.round.players;
        let mut rows = Vec::new();
        let mut row = |a: &[u32], goal: Option<u8>| {
            let reward = goal.map_or(0.0, |g| f64::from(g) / 100.0);
            if reward > 0.0 {
                let mut rewards = vec![0.0; players];
                rewards[actor.player] = reward;
                rows.push(([a, &[1]].concat(), rewards));
            }
        };
        let mut scope = match self.check_size(&name, &sizes) {
            Ok(()) => {
                self.each_state(&vars, |probe, a| row(a, probe.goal(actor.role)));
                self.round_scope(&vars)
            }
            Err(too_large) => {
                let goals = self.outputs.goals[actor.role].clone();
                self.through_gates(too_large, &slots, 2, |a, holds| {
                    // The largest goal that holds, as the reasoner reads it.
                    let goal = (goals.iter().zip(holds))
                        .filter(|(_, &h)| h)
                        .map(|(&(_, g), _)| g)
                        .max();
                    row(a, goal);
                })?
            }
        };
        scope.push(self.terminal);
        self.round
            .table(&name, TableRole::Goal, &scope, Relation::Utility(rows));
        Ok(())
    }
}

impl Actor {
    /// The value of move `m` of this actor's action variable.
    pub(crate) fn value_of(&self, m: u32) -> Option<u32> {
        self.moves.binary_search(&m).ok().map(|v| v as u32)
    }
}

/// The message of an encoding error, without the error's own prefix.
fn message(error: &GdlError) -> String {
    match error {
        GdlError::Encoding(why) => why.clone(),
        other => other.to_string(),
    }
}

/// Where each literal of the ground program reads its value among the round's variables: a
/// fluent its state variable's value that stands for it, a `does` atom its actor's action
/// variable's value for its move (none for a move that has no `legal` atom).
fn inputs(
    parts: &Parts<'_>,
    var_of: &[usize],
    state: &[usize],
    actions: &[usize],
    actors: &[Actor],
) -> Inputs {
    let fluent_at = (0..parts.fluents as u32)
        .map(|f| {
            let v = var_of[f as usize];
            let value = parts.vars[v].values.iter().position(|&x| x == Some(f));
            (state[v], value.expect("the variable of the fluent") as u32)
        })
        .collect();
    let does_at = (parts.g.does.iter())
        .map(|&(role, m)| {
            let i = actors.iter().position(|a| a.role == role as usize)?;
            Some((actions[i], actors[i].value_of(m)?))
        })
        .collect();
    Inputs { fluent_at, does_at }
}

/// Adds a variable with owned value names.
fn add(round: &mut Round, name: &str, kind: VariableKind, labels: Vec<String>) -> usize {
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    round.variable(name, kind, &labels)
}

//! [`Network`]: a `k`-player stochastic constraint network ⟨V, Y, D, C, P, θ⟩ (Koriche, Lagrue,
//! Piette and Tabary, 2016, Definition 2), its stages (Definition 3) and its decomposition into
//! one-stage networks (Section 3.3).
//!
//! Values are stored as indices into each variable's domain (`0..domain.len()`); the domain keeps
//! the values themselves for input and output.

use std::collections::HashSet;

use crate::error::ScspError;

/// Index of a variable in [`Network::variables`], which is also its place in the order `V`.
pub type VarId = usize;

/// Probabilities of a row must sum to 1 within this.
pub const PROBABILITY_TOLERANCE: f64 = 1e-9;

/// A variable: a name, a finite domain, and whether it is stochastic (in `Y`) or a decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its values; value index `i` stands for `domain[i]`.
    pub domain: Vec<i64>,
    /// Whether it is a stochastic variable.
    pub stochastic: bool,
}

/// What a constraint maps its scope's tuples to.
#[derive(Clone, Debug, PartialEq)]
pub enum Relation {
    /// A hard constraint: the allowed tuples (value 0 for every player); every other tuple is
    /// forbidden (−∞).
    Allowed(Vec<Vec<u32>>),
    /// A soft constraint: each listed tuple's utility vector in `[0, 1]^k`; unlisted tuples are
    /// worth 0 to every player.
    Utility(Vec<(Vec<u32>, Vec<f64>)>),
}

/// A constraint `c = (scp_c, val_c)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    /// Its name, for messages.
    pub name: String,
    /// The scope, in the order of the tuples' values.
    pub scope: Vec<VarId>,
    /// The relation.
    pub relation: Relation,
}

impl Constraint {
    /// Whether it is hard.
    pub fn is_hard(&self) -> bool {
        matches!(self.relation, Relation::Allowed(_))
    }
}

/// A conditional probability table `(y, scp_y, prob_y)`: for each tuple of the scope, a
/// distribution over `D(y)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cpt {
    /// The stochastic variable.
    pub variable: VarId,
    /// Variables before `variable` in the order.
    pub scope: Vec<VarId>,
    /// One row per tuple of `D(scope)`: the tuple and the distribution over `D(variable)`.
    pub rows: Vec<(Vec<u32>, Vec<f64>)>,
}

/// A stage `⟨X_t, Y_t⟩` (Definition 3): decision variables, then stochastic variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// `X_t`.
    pub decisions: Vec<VarId>,
    /// `Y_t`.
    pub stochastic: Vec<VarId>,
}

/// A `k`-player stochastic constraint network ⟨V, Y, D, C, P, θ⟩ (see the [module docs](self)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Network {
    /// `k`, the number of players (utilities and the threshold have `k` components).
    pub players: usize,
    /// `V` in order, each with its domain and kind.
    pub variables: Vec<Variable>,
    /// `C`.
    pub constraints: Vec<Constraint>,
    /// `P`: at most one table per stochastic variable; a stochastic variable without one is
    /// uniformly distributed.
    pub cpts: Vec<Cpt>,
    /// `θ ∈ [0, 1]^k`.
    pub threshold: Vec<f64>,
}

impl Network {
    /// An empty network of `players` players, threshold 0.
    pub fn new(players: usize) -> Network {
        Network {
            players,
            threshold: vec![0.0; players],
            ..Network::default()
        }
    }

    /// Adds a variable whose domain is `domain` and returns it.
    pub fn variable(&mut self, name: &str, domain: &[i64], stochastic: bool) -> VarId {
        self.variables.push(Variable {
            name: name.to_string(),
            domain: domain.to_vec(),
            stochastic,
        });
        self.variables.len() - 1
    }

    /// Adds a hard constraint allowing `tuples` (value indices) over `scope`.
    pub fn hard(&mut self, name: &str, scope: &[VarId], tuples: Vec<Vec<u32>>) {
        self.constraints.push(Constraint {
            name: name.to_string(),
            scope: scope.to_vec(),
            relation: Relation::Allowed(tuples),
        });
    }

    /// Adds a soft constraint with the given utilities over `scope`.
    pub fn soft(&mut self, name: &str, scope: &[VarId], utilities: Vec<(Vec<u32>, Vec<f64>)>) {
        self.constraints.push(Constraint {
            name: name.to_string(),
            scope: scope.to_vec(),
            relation: Relation::Utility(utilities),
        });
    }

    /// Adds the conditional probability table of `variable`.
    pub fn cpt(&mut self, variable: VarId, scope: &[VarId], rows: Vec<(Vec<u32>, Vec<f64>)>) {
        self.cpts.push(Cpt {
            variable,
            scope: scope.to_vec(),
            rows,
        });
    }

    /// The index of the variable called `name`.
    pub fn find(&self, name: &str) -> Option<VarId> {
        self.variables.iter().position(|v| v.name == name)
    }

    /// The decision variables `X = V \ Y`, in order.
    pub fn decisions(&self) -> Vec<VarId> {
        (0..self.variables.len())
            .filter(|&v| !self.variables[v].stochastic)
            .collect()
    }

    /// The stochastic variables `Y`, in order.
    pub fn stochastic(&self) -> Vec<VarId> {
        (0..self.variables.len())
            .filter(|&v| self.variables[v].stochastic)
            .collect()
    }

    /// The table of `variable`, if it has one.
    pub fn cpt_of(&self, variable: VarId) -> Option<&Cpt> {
        self.cpts.iter().find(|c| c.variable == variable)
    }

    /// `P(y = value | assignment)`: `assignment[v]` is the value index of every variable of the
    /// table's scope.
    pub fn probability(&self, y: VarId, value: u32, assignment: &[u32]) -> f64 {
        match self.cpt_of(y) {
            None => 1.0 / self.variables[y].domain.len() as f64,
            Some(cpt) => cpt
                .rows
                .iter()
                .find(|(tuple, _)| {
                    tuple
                        .iter()
                        .zip(&cpt.scope)
                        .all(|(&t, &v)| assignment[v] == t)
                })
                .map_or(0.0, |(_, dist)| dist[value as usize]),
        }
    }

    /// The stages `⟨X_1, Y_1⟩, …, ⟨X_T, Y_T⟩`: a new stage starts at every decision variable that
    /// follows a stochastic one.
    pub fn stages(&self) -> Vec<Stage> {
        let mut stages: Vec<Stage> = Vec::new();
        for (v, var) in self.variables.iter().enumerate() {
            let new_stage = match stages.last() {
                None => true,
                Some(stage) => !var.stochastic && !stage.stochastic.is_empty(),
            };
            if new_stage {
                stages.push(Stage {
                    decisions: Vec::new(),
                    stochastic: Vec::new(),
                });
            }
            let stage = stages.last_mut().expect("a stage was just pushed");
            if var.stochastic {
                stage.stochastic.push(v);
            } else {
                stage.decisions.push(v);
            }
        }
        stages
    }

    /// Fails unless every decision variable precedes every stochastic variable (a μSCSP).
    pub fn require_one_stage(&self) -> Result<(), ScspError> {
        let Some(first) = self.variables.iter().position(|v| v.stochastic) else {
            return Ok(());
        };
        match self.variables[first..].iter().find(|v| !v.stochastic) {
            None => Ok(()),
            Some(decision) => Err(ScspError::NotOneStage {
                decision: decision.name.clone(),
                stochastic: self.variables[first].name.clone(),
            }),
        }
    }

    /// The decomposition into one-stage networks `μSCSP_1, …, μSCSP_T` (Section 3.3): stage `t`'s
    /// network holds the constraints and tables whose last variable lies in stage `t`, its own
    /// variables, and, first and as decisions, the earlier variables those constraints read (the
    /// values of earlier stages, which solving the sequence instantiates). A constraint over no
    /// variable goes to the first stage.
    ///
    /// The paper's `μSCSP_t` also holds the next variables `f_{t+1}` and the constraints that set
    /// them; here a constraint goes to the stage of its *last* variable, so those constraints land
    /// in `μSCSP_{t+1}`, which reads stage `t`'s values as decisions. The policies and their values
    /// are the same (a test checks it on the paper's Example 2); only the cut between stages moves.
    pub fn decompose(&self) -> Vec<Network> {
        let stages = self.stages();
        let stage_of: Vec<usize> = {
            let mut of = vec![0; self.variables.len()];
            for (t, stage) in stages.iter().enumerate() {
                for &v in stage.decisions.iter().chain(&stage.stochastic) {
                    of[v] = t;
                }
            }
            of
        };
        let last = |scope: &[VarId], extra: VarId| {
            scope
                .iter()
                .copied()
                .chain([extra])
                .map(|v| stage_of[v])
                .max()
        };
        (0..stages.len())
            .map(|t| {
                let constraints: Vec<&Constraint> = self
                    .constraints
                    .iter()
                    // A constraint belongs to the stage of its last variable; one over no
                    // variable (a constant) to the first.
                    .filter(|c| c.scope.iter().map(|&v| stage_of[v]).max().unwrap_or(0) == t)
                    .collect();
                let cpts: Vec<&Cpt> = self
                    .cpts
                    .iter()
                    .filter(|c| last(&c.scope, c.variable) == Some(t))
                    .collect();
                let mut keep: Vec<VarId> = constraints
                    .iter()
                    .flat_map(|c| c.scope.iter().copied())
                    .chain(cpts.iter().flat_map(|c| c.scope.iter().copied()))
                    .filter(|&v| stage_of[v] < t)
                    .chain(stages[t].decisions.iter().copied())
                    .chain(stages[t].stochastic.iter().copied())
                    .collect();
                keep.sort_unstable();
                keep.dedup();
                self.project(&keep, &constraints, &cpts, t)
            })
            .collect()
    }

    /// The network over `keep` (in order) with the given constraints and tables; variables of
    /// stages before `stage` become decisions (they are instantiated by earlier stages).
    fn project(
        &self,
        keep: &[VarId],
        constraints: &[&Constraint],
        cpts: &[&Cpt],
        stage: usize,
    ) -> Network {
        let stages = self.stages();
        let own: HashSet<VarId> = stages[stage]
            .decisions
            .iter()
            .chain(&stages[stage].stochastic)
            .copied()
            .collect();
        let new_id = |v: VarId| keep.iter().position(|&k| k == v).expect("kept");
        let mut out = Network {
            players: self.players,
            threshold: self.threshold.clone(),
            ..Network::default()
        };
        for &v in keep {
            let var = &self.variables[v];
            out.variable(&var.name, &var.domain, var.stochastic && own.contains(&v));
        }
        for c in constraints {
            out.constraints.push(Constraint {
                name: c.name.clone(),
                scope: c.scope.iter().map(|&v| new_id(v)).collect(),
                relation: c.relation.clone(),
            });
        }
        for c in cpts {
            out.cpt(
                new_id(c.variable),
                &c.scope.iter().map(|&v| new_id(v)).collect::<Vec<_>>(),
                c.rows.clone(),
            );
        }
        out
    }

    /// The same network with the domain of decision variable `var` reduced to the values
    /// (indices) `keep` accepts; tuples and table rows naming a removed value are dropped and the
    /// rest re-indexed. A stochastic variable's domain is its distribution's: the network is
    /// returned unchanged.
    pub fn restrict(&self, var: VarId, keep: impl Fn(u32) -> bool) -> Network {
        let mut out = self.clone();
        out.restrict_in_place(var, keep);
        out
    }

    /// [`Network::restrict`], changing this network.
    pub(crate) fn restrict_in_place(&mut self, var: VarId, keep: impl Fn(u32) -> bool) {
        if self.variables[var].stochastic {
            return;
        }
        let old = &self.variables[var].domain;
        let map: Vec<Option<u32>> = {
            let mut next = 0;
            (0..old.len() as u32)
                .map(|i| {
                    keep(i).then(|| {
                        next += 1;
                        next - 1
                    })
                })
                .collect()
        };
        // Rewrites a tuple in place; `false` if it names a removed value.
        let reindex = |scope: &[VarId], tuple: &mut [u32]| -> bool {
            for (&v, t) in scope.iter().zip(tuple.iter_mut()) {
                if v == var {
                    match map[*t as usize] {
                        Some(new) => *t = new,
                        None => return false,
                    }
                }
            }
            true
        };
        let domain: Vec<i64> = (0..old.len())
            .filter(|&i| map[i].is_some())
            .map(|i| old[i])
            .collect();
        self.variables[var].domain = domain;
        for c in &mut self.constraints {
            if !c.scope.contains(&var) {
                continue;
            }
            match &mut c.relation {
                Relation::Allowed(tuples) => tuples.retain_mut(|t| reindex(&c.scope, t)),
                Relation::Utility(rows) => rows.retain_mut(|(t, _)| reindex(&c.scope, t)),
            }
        }
        for cpt in &mut self.cpts {
            if cpt.scope.contains(&var) {
                cpt.rows.retain_mut(|(t, _)| reindex(&cpt.scope, t));
            }
        }
    }

    /// The same network with decision variable `var` fixed to the value index `value`.
    pub fn instantiate(&self, var: VarId, value: u32) -> Network {
        self.restrict(var, |i| i == value)
    }

    /// Checks everything Definitions 2 and 3 require of a network (see [`ScspError`]).
    pub fn validate(&self) -> Result<(), ScspError> {
        crate::validate::network(self)
    }
}

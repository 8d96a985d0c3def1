//! Extending the tree: the network of a state, instantiated from the game's round, with what the
//! tree knows of its successors and the threshold `θ`, solved by MAC + FC (or FC); its solutions
//! become the node's arms.
//!
//! # What the tree tells the solver (Section 4.4)
//! With a threshold, the network gets one more soft constraint, over the choosing players' action
//! variables and the chance variable: the value of each (joint action, chance outcome), for
//! every player, as far as the tree knows it:
//!
//! - exactly, when the successor is a finished game, lies at the horizon, or is a node whose
//!   subtree is completely explored;
//! - as the upper confidence bound `mean + c·√(ln n / n_s)` of the successor node's samples
//!   (`n_s` of them, `n` the largest count among the successors), when
//!   [`confidence_pruning`](crate::MacUcbConfig::confidence_pruning) is on;
//! - as 1, the most a payoff can be, otherwise.
//!
//! A policy's value is then an upper bound on what its joint action can be worth, and the solver
//! removes, from the policies of the stochastic part `N″`, those whose bound falls below `θ`
//! before MAC runs: the feasibility constraint `c_s` shrinks as `θ` rises. `θ` counts for the
//! choosing player (or every player, by [`ThresholdPruning`]). A network with no solution under
//! `θ` is solved again without it, so a state where every move falls short of `θ` keeps them.

use std::collections::HashSet;

use game_trait::{GeneralGame, Turn};

use super::tree::{Arm, Node};
use super::Search;
use crate::encoding::{play_values, Encoding, RoundNetwork};
use crate::error::ScspError;
use crate::player::config::ThresholdPruning;
use crate::player::{fallback_reason, LegalValues};
use crate::solve::{solve_valid, SolveOptions, Solved};

/// What the tree knows of one (joint action, chance outcome): every player's value, and whether
/// it is exact.
struct Known {
    value: Vec<f64>,
    exact: bool,
}

impl<G: GeneralGame, E: Encoding<G>> Search<'_, G, E> {
    /// The node of `state`, `depth` rounds below the root, which is not finished and not at the
    /// horizon: its network solved, its solutions the arms. The rules' legal joint moves are the
    /// arms when the network cannot be built or solved in time (the reason is returned too).
    pub(super) fn solve_node(&mut self, state: &G::State, depth: u32) -> (Node, Option<String>) {
        let game = self.game;
        let turn = game.turn(state);
        let chance = self.sampler.chance_values(state);
        let legal = LegalValues::of(game, self.encoding, state, turn);
        let chooser = legal.only_chooser(turn);
        let solved = (self.encoding.network(game, state)).and_then(|mut rn| {
            let compared = self.compared(chooser);
            let known = (self.threshold.is_some() && !compared.is_empty())
                .then(|| self.known(state, depth, turn, &legal, &chance));
            if let Some(known) = &known {
                self.add_values(&mut rn, turn, &legal, &chance, known, chooser, &compared);
            }
            Ok((self.solve(&rn)?, rn, known))
        });
        let players = game.players();
        let mut node = Node {
            turn,
            chance: chance.clone().into(),
            arms: Vec::new(),
            exact: None,
            complete: false,
            visits: 0,
            sum: vec![0.0; players].into(),
            on_path: false,
        };
        let (solved, rn, known) = match solved {
            Ok(found) => found,
            Err(e) => {
                node.arms = (legal.joints().into_iter())
                    .map(|j| Arm::new(j, chance.len(), players))
                    .collect();
                node.complete = true; // the rules' every legal joint move
                return (node, Some(e.to_string()));
            }
        };
        let mut seen = HashSet::new();
        let joints: Vec<Vec<u32>> = (solved.feasible.iter())
            .map(|s| {
                rn.actions
                    .iter()
                    .map(|&a| s.assignment[a] as u32)
                    .collect::<Vec<u32>>()
            })
            .filter(|j| legal.allows(j) && seen.insert(legal.asked(j)))
            .collect();
        let fallback = joints
            .is_empty()
            .then(|| fallback_reason(solved.feasible.len(), solved.complete));
        node.arms = if joints.is_empty() {
            legal.joints()
        } else {
            joints
        }
        .into_iter()
        .map(|j| Arm::new(j, chance.len(), players))
        .collect();
        // Complete: every legal joint move is an arm (or removed below, on an exact value).
        node.complete = solved.complete || fallback.is_some();
        // The legal joint moves the solver left out: removed on exact values, they stay as
        // removed arms that know their value; on estimates, the node can never be exact.
        for (i, joint) in legal.joints().into_iter().enumerate() {
            if seen.contains(&legal.asked(&joint)) || fallback.is_some() {
                continue;
            }
            let Some(known) = &known else {
                node.complete = false;
                continue;
            };
            let outcomes = &known[i];
            if outcomes.iter().all(|k| k.exact) {
                let mut arm = Arm::new(joint, chance.len(), players);
                arm.exact = Some(expectation(outcomes, &chance, players).into());
                arm.removed = true;
                node.arms.push(arm);
            } else {
                node.complete = false;
            }
        }
        (node, fallback)
    }

    /// Solves `rn`'s network under the threshold (pruning), and again without it if nothing
    /// meets it.
    fn solve(&self, rn: &RoundNetwork) -> Result<Solved, ScspError> {
        let options = SolveOptions {
            algorithm: self.config.algorithm,
            feasibility: self.config.feasibility,
            preprocess: self.config.preprocess,
            deadline: self.limits.deadline,
            stop: self.limits.stop.clone(),
            prune: rn.network.threshold.iter().any(|&t| t > 0.0),
        };
        let solved = solve_valid(&rn.network, &options)?;
        if solved.feasible.is_empty() && solved.pruned > 0 {
            return solve_valid(
                &rn.network,
                &SolveOptions {
                    prune: false,
                    ..options
                },
            );
        }
        Ok(solved)
    }

    /// What the tree knows of each legal joint action's successors, in the order of
    /// `legal.joints()`, one entry per chance outcome (one when chance does not move).
    fn known(
        &mut self,
        state: &G::State,
        depth: u32,
        turn: Turn,
        legal: &LegalValues,
        chance: &[(u32, f64)],
    ) -> Vec<Vec<Known>> {
        let game = self.game;
        let outcomes: Vec<Option<u32>> = if chance.is_empty() {
            vec![None]
        } else {
            chance.iter().map(|&(y, _)| Some(y)).collect()
        };
        let mut known = Vec::new();
        for joint in legal.joints() {
            let mut per_outcome = Vec::with_capacity(outcomes.len());
            let mut children = Vec::with_capacity(outcomes.len());
            for &y in &outcomes {
                let mut next = state.clone();
                play_values(self.encoding, game, &mut next, turn, &joint, y);
                children.push(next);
            }
            let counts: Vec<u64> = (children.iter())
                .map(|c| {
                    self.node_of(c, depth + 1)
                        .map_or(0, |n| self.tree.nodes[n as usize].visits)
                })
                .collect();
            let most = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
            for child in &children {
                per_outcome.push(self.known_value(child, depth + 1, most));
            }
            known.push(per_outcome);
        }
        known
    }

    /// What the tree knows of `child`, `depth` rounds below the root; `most` is the largest
    /// sample count among its siblings.
    fn known_value(&mut self, child: &G::State, depth: u32, most: f64) -> Known {
        let players = self.game.players();
        if let Some(value) = self.sampler.leaf_value(child, depth) {
            return Known {
                value: value.to_vec(),
                exact: true,
            };
        }
        let optimistic = Known {
            value: vec![1.0; players],
            exact: false,
        };
        let key = self.sampler.key(child, depth);
        if let Some(value) = self.cache.get(key) {
            return Known {
                value: value.to_vec(),
                exact: true,
            };
        }
        let Some(node) = self.tree.find(key) else {
            return optimistic;
        };
        let n = &self.tree.nodes[node as usize];
        if let Some(exact) = &n.exact {
            return Known {
                value: exact.to_vec(),
                exact: true,
            };
        }
        if !self.config.confidence_pruning || n.visits == 0 {
            return optimistic;
        }
        let width = self.config.exploration * (most.ln() / n.visits as f64).sqrt();
        Known {
            value: (n.sum.iter())
                .map(|s| (s / n.visits as f64 + width).min(1.0))
                .collect(),
            exact: false,
        }
    }

    /// Adds the values the tree knows as a soft constraint over the asked players' action
    /// variables and the chance variable, and sets the network's threshold for the `compared`
    /// players: `θ`, lowered to the value of the best joint action known exactly (for `chooser`,
    /// else for its worst-off player), which the threshold never removes.
    #[allow(clippy::too_many_arguments)]
    fn add_values(
        &self,
        rn: &mut RoundNetwork,
        turn: Turn,
        legal: &LegalValues,
        chance: &[(u32, f64)],
        known: &[Vec<Known>],
        chooser: Option<usize>,
        compared: &[usize],
    ) {
        let (Some(threshold), Some(y)) = (self.threshold, rn.chance) else {
            return;
        };
        let players = self.game.players();
        let asked: Vec<usize> = (0..players)
            .filter(|&p| crate::encoding::asks(turn, p))
            .collect();
        let decisions = rn.network.decisions();
        let mut scope: Vec<usize> = asked.iter().map(|&p| decisions[rn.actions[p]]).collect();
        scope.push(y);
        // The chance variable's value when chance does not move: the one its table allows.
        let fixed_chance = (0..rn.network.variables[y].domain.len() as u32)
            .find(|&v| rn.network.probability(y, v, &[]) > 0.0)
            .unwrap_or(0);
        let mut rows = Vec::new();
        for (joint, outcomes) in legal.joints().iter().zip(known) {
            for (k, known) in outcomes.iter().enumerate() {
                let mut tuple: Vec<u32> = asked.iter().map(|&p| joint[p]).collect();
                tuple.push(chance.get(k).map_or(fixed_chance, |&(y, _)| y));
                rows.push((tuple, known.value.clone()));
            }
        }
        rn.network.soft("value", &scope, rows);
        let worth =
            |v: &[f64]| chooser.map_or_else(|| v.iter().copied().fold(1.0, f64::min), |c| v[c]);
        let best_exact = (known.iter())
            .filter(|outcomes| outcomes.iter().all(|k| k.exact))
            .map(|outcomes| expectation(outcomes, chance, players))
            .max_by(|a, b| worth(a).total_cmp(&worth(b)));
        rn.network.threshold = (0..players)
            .map(|p| match (&best_exact, compared.contains(&p)) {
                (_, false) => 0.0,
                (Some(best), true) => threshold[p].min(best[p]),
                (None, true) => threshold[p],
            })
            .collect();
    }

    /// The players whose values the threshold compares at a node where `chooser` chooses
    /// ([`ThresholdPruning`]): none where several players choose under
    /// [`ThresholdPruning::Chooser`], since no one player's value ranks their joint actions.
    pub(super) fn compared(&self, chooser: Option<usize>) -> Vec<usize> {
        match (self.config.pruning, chooser) {
            (ThresholdPruning::Off, _) | (ThresholdPruning::Chooser, None) => Vec::new(),
            (ThresholdPruning::Chooser, Some(c)) => vec![c],
            (ThresholdPruning::AllPlayers, _) => (0..self.game.players()).collect(),
        }
    }
}

/// The expectation over chance's outcomes of what is known of them.
fn expectation(outcomes: &[Known], chance: &[(u32, f64)], players: usize) -> Vec<f64> {
    let mut value = vec![0.0; players];
    for (k, known) in outcomes.iter().enumerate() {
        let p = chance.get(k).map_or(1.0, |&(_, p)| p);
        value
            .iter_mut()
            .zip(&known.value)
            .for_each(|(x, v)| *x += p * v);
    }
    value
}

//! The [`Lookahead::Sequence`](super::Lookahead::Sequence) reading: a tree of solved networks below
//! the current state, grown where UCB points, sampled from its frontier (see the
//! [module docs](super)).
//!
//! One sample:
//! 1. **Descend** from the root: at each node UCB picks an arm ([`select`]), chance's outcome is
//!    drawn by its probability, and the state moves on, until a state that is not a node yet (the
//!    frontier), a node known exactly, or an arm known exactly.
//! 2. **Extend**: if solving is within its share of the work ([`Meter`]), the frontier state's
//!    network is instantiated and solved ([`extend`]), and becomes a node; the descent takes one
//!    more arm there. Finished games and states at the horizon become nodes at no cost.
//! 3. **Sample**: uniformly random moves (chance by its probabilities) from the state reached to a
//!    finished game (its payoffs) or the horizon (0 for everyone). The cache of explored states
//!    (Section 4.4) records where samples end and, from the legal moves, which states they have
//!    explored completely, with the value of the best policy below them; such a state becomes a
//!    node known exactly when a descent reaches it.
//! 4. **Back up** every player's value along the path, then settle: an arm whose every child is
//!    exact becomes exact, and a node whose arms give its value ([`tree`]) too.

mod extend;
mod meter;
mod select;
mod tree;

use std::time::{Duration, Instant};

use game_trait::{Bound, GeneralGame, Limits, PlayerId, SearchResult, SearchStats};
use rand::SeedableRng;
use rand_pcg::Pcg64;

use super::cache::Cache;
use super::config::MacUcbConfig;
use super::sample::{draw, Sampler, Valuation};
use super::{score_of_mean, stopped, ArmReport, MacUcbAnalysis};
use crate::encoding::{play_values, Encoding};
use meter::Meter;
pub(crate) use tree::Tree;
use tree::{Node, NodeId, UNKNOWN};

/// One search of the sequence reading.
pub(super) struct Search<'a, G: GeneralGame, E> {
    game: &'a G,
    config: &'a MacUcbConfig,
    /// How the game reads as networks and action values.
    encoding: &'a E,
    threshold: Option<&'a [f64]>,
    limits: &'a Limits,
    tree: &'a mut Tree,
    cache: &'a mut Cache,
    sampler: Sampler<'a, G, E>,
    rng: Pcg64,
    meter: Meter,
    /// The current descent: each node, the arm taken (if any) and the outcome drawn.
    path: Vec<(NodeId, Option<u32>)>,
    /// What this search did.
    networks: u64,
    nodes_before: usize,
    samples: u64,
    depth: u32,
}

/// The parts of a player a search uses.
pub(super) struct Parts<'a> {
    pub config: &'a MacUcbConfig,
    pub threshold: Option<&'a [f64]>,
    pub tree: &'a mut Tree,
    pub cache: &'a mut Cache,
}

/// What a finished search found.
pub(super) struct Found<M> {
    pub result: SearchResult<M>,
    pub analysis: MacUcbAnalysis,
    /// Every player's mean for the arm played, which the next threshold comes from.
    pub mean: Option<Vec<f64>>,
}

/// Searches `state` (not finished) in the sequence reading; `chooser` is the player whose move
/// is returned.
pub(super) fn search<G: GeneralGame, E: Encoding<G>>(
    parts: Parts<'_>,
    game: &G,
    encoding: &E,
    state: &G::State,
    limits: &Limits,
    chooser: Option<PlayerId>,
) -> Found<G::Move> {
    let start = Instant::now();
    let mut search = Search {
        game,
        config: parts.config,
        encoding,
        threshold: parts.threshold,
        limits,
        nodes_before: parts.tree.len(),
        tree: parts.tree,
        cache: parts.cache,
        sampler: Sampler::new(game, encoding, parts.config.horizon, Valuation::Policy),
        rng: Pcg64::seed_from_u64(parts.config.seed),
        meter: Meter::new(parts.config.solve_share, limits.deadline.is_some()),
        path: Vec::new(),
        networks: 0,
        samples: 0,
        depth: 0,
    };
    let (root, fallback) = search.root(state);
    let budget = limits.nodes.unwrap_or(parts.config.samples);
    while search.samples < budget
        && search.tree.nodes[root as usize].exact.is_none()
        && !stopped(limits)
    {
        if !search.sample(state, root) {
            break;
        }
    }
    search.finish(state, root, chooser, fallback, start)
}

impl<'a, G: GeneralGame, E: Encoding<G>> Search<'a, G, E> {
    /// The root's node: kept if the tree knows it exactly from its arms (pruned by the
    /// threshold), else solved (again: the threshold and what the tree learned may remove arms)
    /// and added or updated.
    fn root(&mut self, state: &G::State) -> (NodeId, Option<String>) {
        let key = self.sampler.key(state, 0);
        let known = self.tree.find(key);
        // A node the cache made known has no arms yet: it is solved like a new one.
        let solved = |r: &NodeId| {
            let n = &self.tree.nodes[*r as usize];
            n.exact.is_some() && !n.arms.is_empty()
        };
        if let Some(root) = known.filter(solved) {
            self.prune(root);
            return (root, None);
        }
        let started = self.meter.start();
        let (node, fallback) = self.solve_node(state, 0);
        self.meter.solved(started);
        self.networks += 1;
        let root = match known {
            Some(root) => {
                self.tree.replace_arms(root, node.arms, node.complete);
                root
            }
            None => self.tree.add(key, node),
        };
        (root, fallback)
    }

    /// The node of `state`, `depth` rounds below the root, if the tree has one.
    fn node_of(&mut self, state: &G::State, depth: u32) -> Option<NodeId> {
        let key = self.sampler.key(state, depth);
        self.tree.find(key)
    }

    /// One sample from the root (see the [module docs](self)); `false` if the deadline or the stop
    /// flag interrupted it (nothing is recorded then).
    fn sample(&mut self, root_state: &G::State, root: NodeId) -> bool {
        let mut state = root_state.clone();
        let mut node = root;
        let mut depth = 0;
        let mut extended = false;
        self.path.clear();
        let value: Vec<f64> = loop {
            self.tree.nodes[node as usize].on_path = true;
            if let Some(exact) = &self.tree.nodes[node as usize].exact {
                self.path.push((node, None));
                break exact.to_vec();
            }
            let arm = self.select(node);
            self.path.push((node, Some(arm)));
            let n = &self.tree.nodes[node as usize];
            if let Some(exact) = &n.arms[arm as usize].exact {
                break exact.to_vec();
            }
            let outcome = (!n.chance.is_empty()).then(|| draw_index(&n.chance, &mut self.rng));
            let y = outcome.map(|k| n.chance[k].0);
            play_values(
                self.encoding,
                self.game,
                &mut state,
                n.turn,
                &n.arms[arm as usize].joint,
                y,
            );
            depth += 1;
            self.depth = self.depth.max(depth);
            let slot = outcome.unwrap_or(0);
            let mut child = n.arms[arm as usize].children[slot];
            if child == UNKNOWN {
                child = self.node_of(&state, depth).unwrap_or(UNKNOWN);
            }
            if child == UNKNOWN {
                // The frontier: solve it into a node (once per sample), or sample from it.
                let Some(id) = self.new_node(&state, depth, extended) else {
                    match self.playout(state, depth) {
                        Some(value) => break value,
                        None => return self.abandon(),
                    }
                };
                extended |= self.tree.nodes[id as usize].exact.is_none();
                child = id;
            }
            self.tree.nodes[node as usize].arms[arm as usize].children[slot] = child;
            if self.tree.nodes[child as usize].on_path {
                // A state repeated on this path (a game that can go round in circles).
                match self.playout(state, depth) {
                    Some(value) => break value,
                    None => return self.abandon(),
                }
            }
            // On into the child; a node solved in this sample is left by one of its arms, as the
            // paper samples "starting from the partial policy associated with a feasible
            // solution".
            node = child;
        };
        self.back_up(&value);
        true
    }

    /// A node for `state`, which the tree does not have: a known one if the game is over, the
    /// horizon reached or the samples explored everything below it (the cache); else a solved
    /// one if solving is within its share, nothing has been solved in this sample yet and the
    /// tree has room; else `None`.
    fn new_node(&mut self, state: &G::State, depth: u32, extended: bool) -> Option<NodeId> {
        let key = self.sampler.key(state, depth);
        let known = match self.sampler.leaf_value(state, depth) {
            Some(value) => Some(value.to_vec()),
            None => self.cache.get(key).map(<[f64]>::to_vec),
        };
        if let Some(value) = known {
            let node = Node::known(self.game.turn(state), &value);
            return Some(self.tree.add(key, node));
        }
        let room = self.tree.bytes() < self.config.cache_bytes;
        if extended || !room || !self.meter.may_solve() {
            return None;
        }
        let started = self.meter.start();
        let (node, _) = self.solve_node(state, depth);
        self.meter.solved(started);
        self.networks += 1;
        Some(self.tree.add(key, node))
    }

    /// Uniformly random play from `state`, `depth` rounds below the root; `None` if the deadline
    /// or the stop flag interrupted it.
    fn playout(&mut self, state: G::State, depth: u32) -> Option<Vec<f64>> {
        let started = self.meter.start();
        let value = self
            .sampler
            .playout(state, depth, self.cache, &mut self.rng, self.limits)?
            .to_vec();
        self.meter.sampled(started);
        Some(value)
    }

    /// Clears the marks of an interrupted descent.
    fn abandon(&mut self) -> bool {
        for &(node, _) in &self.path {
            self.tree.nodes[node as usize].on_path = false;
        }
        false
    }

    /// Records `value` along the path, settles what became exact, and prunes by the threshold.
    fn back_up(&mut self, value: &[f64]) {
        self.samples += 1;
        let players = self.game.players();
        for &(node, arm) in &self.path {
            self.tree.record(node, arm, value);
            self.tree.nodes[node as usize].on_path = false;
        }
        for i in (0..self.path.len()).rev() {
            let (node, Some(arm)) = self.path[i] else {
                continue;
            };
            let settled = self.tree.settle(node, arm, players);
            self.prune(node);
            if !settled {
                break;
            }
        }
    }

    /// Removes the arms of `node` known exactly to fall below the threshold
    /// ([`ThresholdPruning`]).
    fn prune(&mut self, node: NodeId) {
        let Some(threshold) = self.threshold else {
            return;
        };
        let chooser = select::chooser(&self.tree.nodes[node as usize], self.game.players());
        let compared = self.compared(chooser);
        if !compared.is_empty() {
            self.tree.prune(node, chooser, threshold, &compared);
        }
    }

    /// The result and the analysis of the search.
    fn finish(
        self,
        root_state: &G::State,
        root: NodeId,
        chooser: Option<PlayerId>,
        fallback: Option<String>,
        start: Instant,
    ) -> Found<G::Move> {
        let node = &self.tree.nodes[root as usize];
        let perspective = chooser.unwrap_or(0);
        let players = self.game.players();
        let chosen = select::final_arm(
            node,
            perspective,
            players,
            self.config.choice,
            self.config.exploration,
        );
        let arm = &node.arms[chosen];
        let mean = arm.means();
        let best_move =
            chooser.map(|p| (self.encoding).move_of(self.game, root_state, Some(p), arm.joint[p]));
        let (solving, sampling) = self.meter.spent();
        let timed = self.limits.deadline.is_some();
        let seconds = |s: f64| {
            if timed {
                Duration::from_secs_f64(s)
            } else {
                Duration::ZERO
            }
        };
        let created = (self.tree.len() - self.nodes_before) as u64;
        let analysis = MacUcbAnalysis {
            chooser,
            arms: node.arms.iter().map(report).collect(),
            chosen: Some(chosen),
            feasible: node.arms.iter().filter(|a| !a.removed).count(),
            solved: node.complete,
            fallback,
            threshold: self.threshold.map(<[f64]>::to_vec),
            solve_time: seconds(solving),
            samples: self.samples,
            cached_states: self.tree.len(),
            networks: self.networks,
            sample_time: seconds(sampling),
            exact: node.exact.is_some(),
        };
        let result = SearchResult {
            best_move,
            value: score_of_mean(mean.as_ref().map_or(0.5, |m| m[perspective])),
            bound: if node.exact.is_some() {
                Bound::Exact
            } else {
                Bound::Estimate
            },
            pv: best_move.into_iter().collect(),
            depth: self.depth,
            stats: SearchStats {
                generated: created,
                expanded: self.networks,
                evaluated: self.samples,
                ..SearchStats::default()
            },
            elapsed: start.elapsed(),
        };
        Found {
            result,
            analysis,
            mean,
        }
    }
}

/// The index of an outcome drawn by its probability.
fn draw_index(outcomes: &[(u32, f64)], rng: &mut Pcg64) -> usize {
    let indexed: Vec<(usize, f64)> = outcomes
        .iter()
        .enumerate()
        .map(|(k, &(_, p))| (k, p))
        .collect();
    draw(&indexed, rng)
}

/// An arm as the analysis reports it.
fn report(arm: &tree::Arm) -> ArmReport {
    ArmReport {
        joints: vec![arm.joint.to_vec()],
        samples: arm.visits,
        mean: arm.means(),
        exact: arm.exact.is_some(),
        removed: arm.removed,
    }
}

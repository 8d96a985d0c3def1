//! [`MacUcb`]: the MAC-UCB and FC-UCB players of Koriche, Lagrue, Piette and Tabary, *General Game
//! Playing with Stochastic CSP* (Constraints, 2016, Sections 4.3–4.4), for any [`RoundGame`].
//!
//! # One search
//! 1. **Solve.** The round's one-stage network of the current state ([`round_network`]) is
//!    preprocessed and solved by MAC + FC (MAC-UCB) or FC alone (FC-UCB), until it is solved or
//!    [`solve_share`](MacUcbConfig::solve_share) of the time to the deadline has passed. Every
//!    feasible policy found, a joint action of the players, is an arm ([`Arms`]).
//! 2. **Sample.** UCB1 picks the arm that maximises `ū_i + c·√(ln n / n_i)` (`ū_i` its mean reward
//!    for the choosing player, `n_i` its samples, `n` all samples, `c` =
//!    [`exploration`](MacUcbConfig::exploration), √2 by default: the paper's `√(2 ln n / n_i)`). A
//!    sample plays the arm's joint action, draws chance's outcome by its probability, then plays
//!    uniformly random moves until a terminal state (scored by its payoffs) or the
//!    [`horizon`](MacUcbConfig::horizon) (a non-terminal state there is worth 0 to all).
//! 3. **Cache and threshold.** Every state a sample ends in, and every state whose successors are
//!    all in the cache, is recorded with its exact value (the expectation of a sample from it),
//!    so a subtree is known to be completely explored when its root is in the cache. A completely
//!    explored arm's mean becomes exact; if it is below the threshold `θ`, the arm is removed
//!    ([`ThresholdPruning`]). After each search `θ` becomes `(r_min, …, r_min)`, `r` the chosen
//!    arm's mean rewards (Section 4.4). The cache and `θ` last until [`Reset::reset`].
//! 4. **Choose.** The arm with the highest UCB index is played ([`FinalChoice`]); once every arm is
//!    completely explored, the one with the highest exact value.
//!
//! The move returned is the choosing player's: the player to move at a `Player` turn; at a
//! `Simultaneous` turn [`MacUcbConfig::player`], else the only player with a choice, else player
//! 0. At a `Chance` turn nobody chooses and the result has no move.
//!
//! # Limits
//! Samples per search: [`Limits::nodes`], or [`MacUcbConfig::samples`] when that is `None`. The
//! deadline and the stop flag are checked before every sample and every 64 rounds of a playout
//! (a sample the deadline interrupts is not counted), and by the solver every 256 nodes.
//! `limits.depth` is ignored.
//!
//! # What a search reports
//! The value is the chosen arm's mean reward for the choosing player on the scale
//! `round((2m − 1) · 1000)`: a certain win +1000, ½ 0, a certain loss −1000. `stats.evaluated` is
//! the number of samples, `stats.expanded` the number of arms, `stats.generated` the states the
//! cache learned. [`MacUcb::analyse`] also returns every arm's statistics.
//!
//! # Determinism
//! Every random choice comes from a [`Pcg64`] seeded with [`MacUcbConfig::seed`] at the start of
//! each search: without a deadline or stop flag, a search depends only on the configuration, the
//! game, the state and what the cache and `θ` learned in earlier searches.

mod bandit;
mod cache;
mod config;
mod sample;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use game_trait::{
    Bound, GeneralGame, Limits, MoveList, PlayerId, Reset, RoundGame, Score, SearchResult,
    SearchStats, Searcher, Turn,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::encoding::asks;
use crate::encoding::round_network;
use crate::error::ScspError;
use crate::solve::{solve, SolveOptions};
use bandit::Bandit;
use cache::Cache;
pub use config::{Arms, FinalChoice, MacUcbConfig, ThresholdPruning};
use sample::{draw, Sampler};

/// The MAC-UCB player, or FC-UCB with [`MacUcbConfig::fc_ucb`] (see the [module docs](self)).
#[derive(Debug)]
pub struct MacUcb {
    config: MacUcbConfig,
    cache: Cache,
    threshold: Option<Vec<f64>>,
}

/// One arm after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmReport {
    /// Its joint actions: action values, one per player (several when arms group by the chooser's
    /// action).
    pub joints: Vec<Vec<u32>>,
    /// Samples drawn from it.
    pub samples: u64,
    /// Every player's mean reward (exact once completely explored); `None` if never sampled.
    pub mean: Option<Vec<f64>>,
    /// Whether it is completely explored.
    pub exact: bool,
    /// Whether the threshold removed it.
    pub removed: bool,
}

/// What a search did, besides its result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MacUcbAnalysis {
    /// The player whose move was chosen (`None` at a chance turn or a finished game).
    pub chooser: Option<PlayerId>,
    /// The arms, in the order of the feasible policies.
    pub arms: Vec<ArmReport>,
    /// The arm played.
    pub chosen: Option<usize>,
    /// Feasible policies the solver found.
    pub feasible: usize,
    /// Whether the solver finished (else the solving deadline cut it short).
    pub solved: bool,
    /// Why the arms are the rules' legal joint moves instead of the solver's policies, if they
    /// are: the round description failed, or no policy was found in time.
    pub fallback: Option<String>,
    /// The threshold the search pruned with.
    pub threshold: Option<Vec<f64>>,
    /// Time spent solving.
    pub solve_time: Duration,
    /// Samples drawn.
    pub samples: u64,
    /// States in the cache after the search.
    pub cached_states: usize,
}

/// A mean reward in `[0, 1]` on the ±1000 scale of search values.
fn score_of_mean(mean: f64) -> Score {
    ((2.0 * mean.clamp(0.0, 1.0) - 1.0) * 1000.0).round() as Score
}

impl MacUcb {
    /// A player with `config`, or an error naming a parameter out of range.
    pub fn new(config: MacUcbConfig) -> Result<MacUcb, ScspError> {
        config.validate()?;
        Ok(MacUcb {
            cache: Cache::new(config.cache_capacity),
            config,
            threshold: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &MacUcbConfig {
        &self.config
    }

    /// The threshold `θ` the next search prunes with (`None` before the first search).
    pub fn threshold(&self) -> Option<&[f64]> {
        self.threshold.as_deref()
    }

    /// Searches `state` within `limits`, returning the result and what the search did.
    pub fn analyse<G: RoundGame>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
    ) -> (SearchResult<G::Move>, MacUcbAnalysis) {
        let start = Instant::now();
        let turn = game.turn(state);
        let chooser = self.chooser(game, state, turn);
        let perspective = chooser.or(self.player(game)).unwrap_or(0);
        if turn == Turn::Over {
            let value = score_of_mean(game.payoff(state, perspective));
            return (SearchResult::leaf(value), MacUcbAnalysis::default());
        }
        let solve_deadline = limits.deadline.map(|d| {
            start
                + d.saturating_duration_since(start)
                    .mul_f64(self.config.solve_share)
        });
        let mut analysis = MacUcbAnalysis {
            chooser,
            threshold: self.threshold.clone(),
            ..MacUcbAnalysis::default()
        };
        let solve_limits = Limits {
            deadline: solve_deadline,
            ..limits.clone()
        };
        let joints = self.arms_of(game, state, turn, &solve_limits, &mut analysis);
        analysis.solve_time = start.elapsed();
        let group = chooser.filter(|_| self.config.arms == Arms::OwnAction);
        let players = game.players();
        let mut bandit = Bandit::new(joints, group, perspective, self.config.exploration, players);
        let cached_before = self.cache.len();
        self.sample(game, state, limits, &mut bandit);

        let all_exact = (0..bandit.arms.len())
            .all(|i| bandit.arms[i].removed || bandit.arms[i].exact.is_some());
        let choice = if all_exact {
            FinalChoice::Mean
        } else {
            self.config.choice
        };
        let chosen = bandit.choose(choice);
        let mean = bandit.mean(chosen);
        if let Some(r) = &mean {
            let r_min = r.iter().copied().fold(f64::INFINITY, f64::min);
            self.threshold = Some(vec![r_min; players]);
        }
        let joint = &bandit.joints[bandit.arms[chosen].members[0]];
        let best_move = chooser.map(|p| game.action(Some(p), joint[p]));
        analysis.chosen = Some(chosen);
        analysis.samples = bandit.total;
        analysis.cached_states = self.cache.len();
        analysis.arms = reports(&bandit);
        let result = SearchResult {
            best_move,
            value: score_of_mean(mean.map_or(0.5, |m| m[perspective])),
            bound: Bound::Exact,
            pv: best_move.into_iter().collect(),
            depth: 1,
            stats: SearchStats {
                generated: (self.cache.len() - cached_before) as u64,
                expanded: bandit.arms.len() as u64,
                evaluated: bandit.total,
                ..SearchStats::default()
            },
            elapsed: start.elapsed(),
        };
        (result, analysis)
    }

    /// [`MacUcbConfig::player`], if `game` has that player.
    fn player<G: GeneralGame>(&self, game: &G) -> Option<PlayerId> {
        self.config.player.filter(|&p| p < game.players())
    }

    /// Who chooses in a state of `turn` (see the [module docs](self)).
    fn chooser<G: GeneralGame>(&self, game: &G, state: &G::State, turn: Turn) -> Option<PlayerId> {
        match turn {
            Turn::Player(p) => Some(p),
            Turn::Chance | Turn::Over => None,
            Turn::Simultaneous => {
                let mut moves = MoveList::new();
                let mut choosing = (0..game.players()).filter(|&p| {
                    game.legal_moves(state, p, &mut moves);
                    moves.len() > 1
                });
                let only = match (choosing.next(), choosing.next()) {
                    (Some(p), None) => Some(p),
                    _ => None,
                };
                self.player(game).or(only).or(Some(0))
            }
        }
    }

    /// The distinct joint actions of the round's feasible policies that the rules allow; the
    /// rules' legal joint moves if there are none (the reason goes into `analysis.fallback`).
    fn arms_of<G: RoundGame>(
        &self,
        game: &G,
        state: &G::State,
        turn: Turn,
        limits: &Limits,
        analysis: &mut MacUcbAnalysis,
    ) -> Vec<Vec<u32>> {
        let legal = LegalValues::of(game, state, turn);
        let solved = round_network(game, state).and_then(|rn| {
            let options = SolveOptions {
                algorithm: self.config.algorithm,
                feasibility: self.config.feasibility,
                preprocess: self.config.preprocess,
                deadline: limits.deadline,
                stop: limits.stop.clone(),
                prune: false,
            };
            Ok((solve(&rn.network, &options)?, rn.actions))
        });
        let reason = match solved {
            Err(e) => e.to_string(),
            Ok((solved, actions)) => {
                analysis.feasible = solved.feasible.len();
                analysis.solved = solved.complete;
                let mut seen = HashSet::new();
                let joints: Vec<Vec<u32>> = solved
                    .feasible
                    .iter()
                    .map(|s| {
                        actions
                            .iter()
                            .map(|&a| s.assignment[a] as u32)
                            .collect::<Vec<_>>()
                    })
                    .filter(|j| legal.allows(j) && seen.insert(j.clone()))
                    .collect();
                if !joints.is_empty() {
                    return joints;
                }
                match (analysis.feasible, solved.complete) {
                    (0, false) => "no feasible policy was found before the solving deadline".into(),
                    (0, true) => "the round's network has no feasible policy".into(),
                    _ => "no feasible policy is a legal joint move".into(),
                }
            }
        };
        analysis.fallback = Some(reason);
        legal.joints()
    }

    /// Samples until the budget, the deadline or the stop flag.
    fn sample<G: RoundGame>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        bandit: &mut Bandit,
    ) {
        let mut rng = Pcg64::seed_from_u64(self.config.seed);
        let mut sampler = Sampler::new(game, self.config.horizon);
        let chance = sampler.chance_values(state);
        let budget = limits.nodes.unwrap_or(self.config.samples);
        for arm in 0..bandit.arms.len() {
            self.update_exact(&mut sampler, state, &chance, bandit, arm);
        }
        while bandit.total < budget && !stopped(limits) {
            if bandit.arms.iter().all(|a| a.removed || a.exact.is_some()) {
                break;
            }
            let arm = bandit.select();
            if let Some(exact) = bandit.arms[arm].exact.clone() {
                bandit.record(arm, &exact);
                continue;
            }
            let members = &bandit.arms[arm].members;
            let joint = &bandit.joints[members[rng.gen_range(0..members.len())]];
            let y = (!chance.is_empty()).then(|| draw(&chance, &mut rng));
            let next = sampler.successor(state, joint, y);
            match sampler.playout(next, &mut self.cache, &mut rng, limits) {
                Some(reward) => bandit.record(arm, reward),
                None => break,
            }
            self.update_exact(&mut sampler, state, &chance, bandit, arm);
        }
    }

    /// Gives `arm` its members' exact values where the cache knows every successor, and prunes.
    fn update_exact<G: RoundGame>(
        &self,
        sampler: &mut Sampler<G>,
        state: &G::State,
        chance: &[(u32, f64)],
        bandit: &mut Bandit,
        arm: usize,
    ) {
        if bandit.arms[arm].exact.is_some() {
            return;
        }
        for k in 0..bandit.arms[arm].members.len() {
            let m = bandit.arms[arm].members[k];
            if bandit.joint_exact[m].is_some() {
                continue;
            }
            // Chance's outcomes, or the one successor when chance does not move.
            let branches = chance.len().max(1);
            let mut value = vec![0.0; bandit.arms[arm].sum.len()];
            for b in 0..branches {
                let (y, p) = chance.get(b).map_or((None, 1.0), |&(y, p)| (Some(y), p));
                let next = sampler.successor(state, &bandit.joints[m], y);
                let Some(v) = self.cache.get(sampler.key(&next, 1)) else {
                    return;
                };
                value.iter_mut().zip(v).for_each(|(x, v)| *x += p * v);
            }
            bandit.set_exact(arm, m, value);
        }
        if let Some(threshold) = &self.threshold {
            bandit.prune(threshold, self.config.pruning);
        }
    }
}

/// Whether the deadline has passed or the stop flag is set.
pub(crate) fn stopped(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

fn reports(bandit: &Bandit) -> Vec<ArmReport> {
    (0..bandit.arms.len())
        .map(|i| {
            let arm = &bandit.arms[i];
            ArmReport {
                joints: arm
                    .members
                    .iter()
                    .map(|&m| bandit.joints[m].clone())
                    .collect(),
                samples: arm.samples,
                mean: bandit.mean(i),
                exact: arm.exact.is_some(),
                removed: arm.removed,
            }
        })
        .collect()
}

/// The action values the rules allow each player in a state (empty for a player not asked).
struct LegalValues {
    players: Vec<Vec<u32>>,
}

impl LegalValues {
    fn of<G: RoundGame>(game: &G, state: &G::State, turn: Turn) -> LegalValues {
        let mut moves = MoveList::new();
        let players = (0..game.players())
            .map(|p| {
                if !asks(turn, p) {
                    return Vec::new();
                }
                game.legal_moves(state, p, &mut moves);
                moves
                    .iter()
                    .map(|&m| game.action_value(Some(p), m))
                    .collect()
            })
            .collect();
        LegalValues { players }
    }

    /// Whether every player the game asks plays a legal move in `joint`.
    fn allows(&self, joint: &[u32]) -> bool {
        self.players
            .iter()
            .zip(joint)
            .all(|(legal, a)| legal.is_empty() || legal.contains(a))
    }

    /// Every legal joint move (players not asked: value 0, never played).
    fn joints(&self) -> Vec<Vec<u32>> {
        let mut joints = vec![Vec::new()];
        for legal in &self.players {
            let choices: &[u32] = if legal.is_empty() { &[0] } else { legal };
            joints = joints
                .iter()
                .flat_map(|j| choices.iter().map(move |&a| [j.as_slice(), &[a]].concat()))
                .collect();
        }
        joints
    }
}

impl Reset for MacUcb {
    /// Forgets the cache and the threshold.
    fn reset(&mut self) {
        self.cache.clear();
        self.threshold = None;
    }
}

impl<G: RoundGame> Searcher<G> for MacUcb {
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        self.analyse(game, state, limits).0
    }
}

//! The [`Lookahead::Round`](super::Lookahead::Round) reading: the current round's network solved,
//! its solutions the arms of one bandit, each sampled by uniformly random play to the end of the
//! game, with the cache of explored states (see the [module docs](super)).

use std::collections::HashSet;
use std::time::Instant;

use game_trait::{Bound, Limits, RoundGame, SearchResult, SearchStats, Turn};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::bandit::Bandit;
use super::config::{Arms, FinalChoice};
use super::sample::{draw, Sampler, Valuation};
use super::{
    fallback_reason, score_of_mean, stopped, ArmReport, ByRound, LegalValues, MacUcb,
    MacUcbAnalysis,
};
use crate::encoding::Encoding;
use crate::solve::{solve_valid, SolveOptions};

impl MacUcb {
    /// A search in the round reading, after the root's checks (see [`MacUcb::analyse`]).
    pub(super) fn analyse_round<G: RoundGame>(
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
        let indexed = self.index_round(game, &solve_limits);
        let encoder = self.encoder.take();
        let encoding = ByRound(indexed.map(|()| &encoder.as_ref().expect("indexed").1));
        let joints = self.arms_of(game, &encoding, state, turn, &solve_limits, &mut analysis);
        analysis.solve_time = start.elapsed();
        let group = chooser.filter(|_| self.config.arms == Arms::OwnAction);
        let players = game.players();
        let mut bandit = Bandit::new(joints, group, perspective, self.config.exploration, players);
        let cached_before = self.cache.len();
        self.sample(game, &encoding, state, limits, &mut bandit);
        self.encoder = encoder;

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
            bound: Bound::Estimate,
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

    /// The distinct joint actions of the round's feasible policies that the rules allow; the
    /// rules' legal joint moves if there are none (the reason goes into `analysis.fallback`).
    fn arms_of<G: RoundGame>(
        &self,
        game: &G,
        encoding: &ByRound,
        state: &G::State,
        turn: Turn,
        limits: &Limits,
        analysis: &mut MacUcbAnalysis,
    ) -> Vec<Vec<u32>> {
        let legal = LegalValues::of(game, encoding, state, turn);
        let solved = encoding.network(game, state).and_then(|rn| {
            let options = SolveOptions {
                algorithm: self.config.algorithm,
                feasibility: self.config.feasibility,
                preprocess: self.config.preprocess,
                deadline: limits.deadline,
                stop: limits.stop.clone(),
                prune: false,
            };
            Ok((solve_valid(&rn.network, &options)?, rn.actions))
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
                fallback_reason(analysis.feasible, solved.complete)
            }
        };
        analysis.fallback = Some(reason);
        legal.joints()
    }

    /// Samples until the budget, the deadline or the stop flag.
    fn sample<G: RoundGame>(
        &mut self,
        game: &G,
        encoding: &ByRound,
        state: &G::State,
        limits: &Limits,
        bandit: &mut Bandit,
    ) {
        let mut rng = Pcg64::seed_from_u64(self.config.seed);
        let mut sampler = Sampler::new(game, encoding, self.config.horizon, Valuation::Uniform);
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
            match sampler.playout(next, 1, &mut self.cache, &mut rng, limits) {
                Some(reward) => bandit.record(arm, reward),
                None => break,
            }
            self.update_exact(&mut sampler, state, &chance, bandit, arm);
        }
    }

    /// Gives `arm` its members' exact values where the cache knows every successor, and prunes.
    fn update_exact<G: RoundGame>(
        &self,
        sampler: &mut Sampler<G, ByRound>,
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

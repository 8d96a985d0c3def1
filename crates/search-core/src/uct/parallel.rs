//! Root-parallel UCT: independent searches of one state on several threads, their root
//! statistics merged.

use std::time::Instant;

use game_trait::{mix64, Bound, GeneralGame, Limits, PlayerId, SearchResult};

use super::{score_of_mean, ArmStatistics, PlayoutPolicy, Uct, UctAnalysis, UctConfig};

impl<P> Uct<P> {
    /// Root-parallel UCT (Cazenave and Jouandeau, *On the Parallelization of UCT*, 2007; Chaslot,
    /// Winands and van den Herik, *Parallel Monte-Carlo Tree Search*, 2008): `threads` independent
    /// searches of `state`, each with its own tree, generator and share of the simulations, whose
    /// root arms are then merged: visits added, means weighted by visits. The move played is the
    /// most visited of the first player's merged arms, as in [`analyse`](Uct::analyse).
    ///
    /// Thread 0 uses [`UctConfig::seed`], thread `i` a seed mixed from it and `i`, and the budget
    /// (`limits.nodes`, else [`UctConfig::simulations`]) is split as evenly as it divides, thread 0
    /// taking the remainder; so with one thread this is exactly [`analyse`](Uct::analyse) without
    /// reuse, and without a deadline or stop flag the result depends only on the seed and the
    /// thread count. The kept tree of [`UctConfig::reuse`] is neither used nor changed. With
    /// several threads the principal variation is the move alone, and `depth` is the deepest
    /// thread's.
    pub fn analyse_parallel<G>(
        &self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        threads: usize,
    ) -> UctAnalysis<G::Move>
    where
        G: GeneralGame + Sync,
        G::State: Sync,
        G::Move: Send,
        P: PlayoutPolicy<G> + Clone + Send,
    {
        let start = Instant::now();
        let threads = threads.max(1);
        let budget = limits.nodes.unwrap_or(self.config.simulations);
        let share = budget / threads as u64;
        let analyses: Vec<UctAnalysis<G::Move>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|i| {
                    let extra = if i == 0 { budget % threads as u64 } else { 0 };
                    let config = UctConfig {
                        seed: thread_seed(self.config.seed, i),
                        reuse: false,
                        ..self.config.clone()
                    };
                    let limits = Limits {
                        nodes: Some(share + extra),
                        ..limits.clone()
                    };
                    let policy = self.policy.clone();
                    scope.spawn(move || {
                        // Built on its thread: a `Uct` is not `Send` (its kept tree may not be).
                        let mut worker = Uct {
                            config,
                            policy,
                            kept: None,
                        };
                        worker.analyse(game, state, &limits)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a UCT worker panicked"))
                .collect()
        });
        merge(analyses, start)
    }
}

/// Thread 0 searches with the configured seed (so one thread is the sequential search); the
/// others with seeds mixed from it.
pub(super) fn thread_seed(seed: u64, thread: usize) -> u64 {
    if thread == 0 {
        seed
    } else {
        mix64(seed ^ (thread as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

/// The workers' analyses as one: arms added up position by position (every worker lists the same
/// state's arms in the same order), statistics summed.
fn merge<M: Copy + PartialEq>(analyses: Vec<UctAnalysis<M>>, start: Instant) -> UctAnalysis<M> {
    if analyses.len() == 1 || analyses.iter().all(|a| a.simulations == 0) {
        // One worker is the sequential search; at a finished root every worker says the same.
        return analyses.into_iter().next().expect("at least one worker");
    }
    let mut iter = analyses.into_iter();
    let mut merged = iter.next().expect("at least one worker");
    let mut payoff_sums: Vec<f64> = scaled(&merged.root_mean, merged.simulations);
    let mut reward_sums: Vec<f64> = merged.arms.iter().map(reward_sum).collect();
    for other in iter {
        merged.simulations += other.simulations;
        merged.result.stats += other.result.stats;
        merged.result.depth = merged.result.depth.max(other.result.depth);
        merged.tree_nodes += other.tree_nodes;
        for (sum, s) in payoff_sums
            .iter_mut()
            .zip(scaled(&other.root_mean, other.simulations))
        {
            *sum += s;
        }
        if payoff_sums.is_empty() {
            payoff_sums = scaled(&other.root_mean, other.simulations);
        }
        for ((arm, sum), theirs) in merged
            .arms
            .iter_mut()
            .zip(&mut reward_sums)
            .zip(&other.arms)
        {
            debug_assert!(arm.mv == theirs.mv && arm.player == theirs.player);
            arm.visits += theirs.visits;
            *sum += reward_sum(theirs);
        }
    }
    for (arm, sum) in merged.arms.iter_mut().zip(&reward_sums) {
        arm.mean = (arm.visits > 0).then(|| sum / arm.visits as f64);
    }
    let n = merged.simulations.max(1) as f64;
    merged.root_mean = payoff_sums.iter().map(|s| s / n).collect();
    merged.result = merged_result(&merged, start);
    merged
}

/// A mean over `n` simulations back to a sum.
fn scaled(means: &[f64], n: u64) -> Vec<f64> {
    means.iter().map(|m| m * n as f64).collect()
}

fn reward_sum<M>(arm: &ArmStatistics<M>) -> f64 {
    arm.mean.unwrap_or(0.0) * arm.visits as f64
}

/// The merged search's result: the most visited arm of the first player listed (the mover, or
/// the first player of a simultaneous root), the higher mean among equals and then the first in
/// generation order, as the sequential search chooses; valued by its mean; a chance root by the
/// root's mean.
fn merged_result<M: Copy>(merged: &UctAnalysis<M>, start: Instant) -> SearchResult<M> {
    let first: Option<PlayerId> = merged.arms.first().map(|a| a.player);
    let mut best: Option<&ArmStatistics<M>> = None;
    for arm in merged.arms.iter().filter(|a| Some(a.player) == first) {
        let better = best.map_or(true, |b| {
            arm.visits > b.visits
                || (arm.visits == b.visits && arm.mean.unwrap_or(0.0) > b.mean.unwrap_or(0.0))
        });
        if better {
            best = Some(arm);
        }
    }
    let value = match best {
        Some(arm) => score_of_mean(arm.mean.unwrap_or(0.5)),
        None if !merged.root_mean.is_empty() => score_of_mean(merged.root_mean[0]),
        None => 0,
    };
    SearchResult {
        best_move: best.map(|a| a.mv),
        value,
        bound: Bound::Estimate,
        pv: best.map(|a| vec![a.mv]).unwrap_or_default(),
        depth: merged.result.depth,
        stats: merged.result.stats,
        elapsed: start.elapsed(),
    }
}

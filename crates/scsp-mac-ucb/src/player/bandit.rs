//! The bandit over a round's feasible policies (Section 4.3): UCB1 over the arms, the arms' exact
//! values once completely explored, and their removal by the threshold (Section 4.4).

use super::config::{FinalChoice, ThresholdPruning};

/// One arm: one or more joint actions (one unless arms group by the chooser's action).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Arm {
    /// Indices into [`Bandit::joints`].
    pub(crate) members: Vec<usize>,
    pub(crate) samples: u64,
    /// Every player's summed reward.
    pub(crate) sum: Vec<f64>,
    /// Every player's exact value, once every member is completely explored.
    pub(crate) exact: Option<Vec<f64>>,
    /// Removed by the threshold.
    pub(crate) removed: bool,
}

/// The arms of one search.
#[derive(Debug)]
pub(crate) struct Bandit {
    /// The distinct joint actions (action values, one per player).
    pub(crate) joints: Vec<Vec<u32>>,
    /// Each joint action's exact value, once known.
    pub(crate) joint_exact: Vec<Option<Vec<f64>>>,
    pub(crate) arms: Vec<Arm>,
    /// The player whose reward the arms maximise.
    pub(crate) perspective: usize,
    pub(crate) exploration: f64,
    /// Samples over all arms.
    pub(crate) total: u64,
}

impl Bandit {
    /// Arms over `joints`: one per joint action, or, with `group_by` a player, one per action of
    /// that player (in order of first appearance).
    pub(crate) fn new(
        joints: Vec<Vec<u32>>,
        group_by: Option<usize>,
        perspective: usize,
        exploration: f64,
        players: usize,
    ) -> Bandit {
        let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
        for (i, joint) in joints.iter().enumerate() {
            let key = group_by.map_or(i as u32, |p| joint[p]);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(i),
                None => groups.push((key, vec![i])),
            }
        }
        let arms = groups
            .into_iter()
            .map(|(_, members)| Arm {
                members,
                samples: 0,
                sum: vec![0.0; players],
                exact: None,
                removed: false,
            })
            .collect();
        Bandit {
            joint_exact: vec![None; joints.len()],
            joints,
            arms,
            perspective,
            exploration,
            total: 0,
        }
    }

    /// An arm's mean reward for every player: exact once known, else the samples' mean.
    pub(crate) fn mean(&self, arm: usize) -> Option<Vec<f64>> {
        let a = &self.arms[arm];
        match (&a.exact, a.samples) {
            (Some(exact), _) => Some(exact.clone()),
            (None, 0) => None,
            (None, n) => Some(a.sum.iter().map(|s| s / n as f64).collect()),
        }
    }

    /// The perspective player's mean for `arm` (0 before any sample).
    fn own_mean(&self, arm: usize) -> f64 {
        let a = &self.arms[arm];
        match &a.exact {
            Some(exact) => exact[self.perspective],
            None if a.samples == 0 => 0.0,
            None => a.sum[self.perspective] / a.samples as f64,
        }
    }

    /// `ū_i + c·√(ln n / n_i)`; infinite for an arm never sampled.
    fn index(&self, arm: usize) -> f64 {
        let n = self.arms[arm].samples;
        if n == 0 {
            return f64::INFINITY;
        }
        let total = self.total.max(1) as f64;
        self.own_mean(arm) + self.exploration * (total.ln() / n as f64).sqrt()
    }

    fn live(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.arms.len()).filter(|&i| !self.arms[i].removed)
    }

    /// The arm to sample next: the highest UCB index (first on ties).
    pub(crate) fn select(&self) -> usize {
        self.best_by(|i| (self.index(i), 0.0))
    }

    /// The arm to play.
    pub(crate) fn choose(&self, choice: FinalChoice) -> usize {
        match choice {
            FinalChoice::UcbIndex => self.select(),
            FinalChoice::Mean => self.best_by(|i| (self.own_mean(i), self.arms[i].samples as f64)),
            FinalChoice::MostSampled => {
                self.best_by(|i| (self.arms[i].samples as f64, self.own_mean(i)))
            }
        }
    }

    /// The live arm with the greatest `key` (compared lexicographically; first on ties).
    fn best_by(&self, key: impl Fn(usize) -> (f64, f64)) -> usize {
        let mut best: Option<(usize, (f64, f64))> = None;
        for i in self.live() {
            let k = key(i);
            if best.map_or(true, |(_, b)| k > b) {
                best = Some((i, k));
            }
        }
        best.expect("a live arm").0
    }

    /// Records a sample of `arm` that scored `reward`.
    pub(crate) fn record(&mut self, arm: usize, reward: &[f64]) {
        let a = &mut self.arms[arm];
        a.samples += 1;
        a.sum.iter_mut().zip(reward).for_each(|(s, r)| *s += r);
        self.total += 1;
    }

    /// Records joint action `joint`'s exact value; the arm's follows once all its members are
    /// known (their mean: a sample draws a member uniformly).
    pub(crate) fn set_exact(&mut self, arm: usize, joint: usize, value: Vec<f64>) {
        self.joint_exact[joint] = Some(value);
        let members = &self.arms[arm].members;
        let known: Option<Vec<&Vec<f64>>> = members
            .iter()
            .map(|&m| self.joint_exact[m].as_ref())
            .collect();
        if let Some(known) = known {
            let mut mean = vec![0.0; known[0].len()];
            for v in &known {
                mean.iter_mut()
                    .zip(v.iter())
                    .for_each(|(m, v)| *m += v / known.len() as f64);
            }
            self.arms[arm].exact = Some(mean);
        }
    }

    /// Removes the completely explored arms whose exact value is below `threshold` (as `pruning`
    /// reads it), except the best completely explored one: `threshold` comes from an earlier
    /// search and may be above every arm of this one, and the best known arm must stay playable.
    pub(crate) fn prune(&mut self, threshold: &[f64], pruning: ThresholdPruning) {
        let mut best: Option<(usize, f64)> = None;
        for i in self.live() {
            if let Some(exact) = &self.arms[i].exact {
                let own = exact[self.perspective];
                if best.map_or(true, |(_, b)| own > b) {
                    best = Some((i, own));
                }
            }
        }
        for i in 0..self.arms.len() {
            let Some(exact) = &self.arms[i].exact else {
                continue;
            };
            if self.arms[i].removed || best.is_some_and(|(b, _)| b == i) {
                continue;
            }
            let below = |p: usize| exact[p] < threshold[p] - 1e-9;
            let fails = match pruning {
                ThresholdPruning::Off => false,
                ThresholdPruning::Chooser => below(self.perspective),
                ThresholdPruning::AllPlayers => (0..exact.len()).any(below),
            };
            self.arms[i].removed = fails;
        }
    }
}

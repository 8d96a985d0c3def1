//! [`MacUcbConfig`]: the parameters of the MAC-UCB and FC-UCB players, with the paper's defaults.

use game_trait::PlayerId;
use serde::{Deserialize, Serialize};

use crate::error::ScspError;
use crate::solve::{Algorithm, Feasibility};

/// How far a search looks ahead with solved networks: the two readings of "MAC is used to solve
/// each μSCSP in turn" (the module docs of [`player`](crate::player) set them beside the paper's
/// sentences).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lookahead {
    /// A tree of solved networks below the current state, grown where UCB points, with the solve
    /// share of the time; uniform random samples from its frontier. The default: the paper's
    /// sequence ⟨μSCSP_1, …, μSCSP_t⟩, each instantiated from the best solution of the one
    /// before (Sections 4.3–4.4, 5.2).
    #[default]
    Sequence,
    /// The current round's network only, its solutions sampled flat to the end of the game: one
    /// network per move.
    Round,
}

/// What an arm of the bandit is, in the [`Lookahead::Round`] reading (the sequence reading's nodes
/// are described in the [module docs](crate::player)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Arms {
    /// Every feasible policy of the round's network, a joint action of all players, is an arm
    /// ("considering each feasible solution of μSCSP_t as an arm", Section 4.3), valued by the
    /// choosing player's reward. The default. In a round where one player chooses and the others
    /// have one action each, the arms are that player's moves. Policies that differ only in the
    /// values of other decision variables (helpers of the encoding, not actions) are one arm.
    #[default]
    Joint,
    /// The feasible policies grouped by the choosing player's action: an arm is one of its moves,
    /// and a sample of it draws the other players' actions uniformly among the feasible policies
    /// that contain it. In rounds where several players choose at once this values a move against
    /// every reply instead of the best one; elsewhere it is the same as `Joint`.
    OwnAction,
}

/// Which arm is played when sampling ends.
///
/// The paper calls "best" the feasible solution that maximises the UCB index, in the sentence
/// that says which solution the next network of the sequence is instantiated with (Section 4.3):
/// UCB's selection, which every reading uses while sampling. It does not say which arm is played
/// at the end. The default is UCT's robust choice, the most sampled arm: measured with 300
/// samples a move against `uct:sims=300,reuse=true,solver=true`, 60 games each, MAC-UCB scored
/// 65.8 / 47.5 / 48.3 / 53.3 % on the pickomino, yahtzee, can't stop and backgammon minis
/// playing the most sampled arm, and 50.8 / 30.0 / 40.0 / 50.0 % playing the highest index,
/// which favours the arms sampled least.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FinalChoice {
    /// The arm that maximises the UCB index `ū_i + c·√(ln n / n_i)`, as while sampling.
    UcbIndex,
    /// The arm with the highest mean reward (ties: more samples).
    Mean,
    /// The most sampled arm (ties: the higher mean). The default.
    #[default]
    MostSampled,
}

/// Which players' values the threshold `θ` prunes completely explored arms by (Section 4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ThresholdPruning {
    /// No pruning by the threshold.
    Off,
    /// An arm whose exact value for the choosing player is below `θ` is removed. The default.
    /// `θ = (r_min, …, r_min)` comes from the arm chosen in the previous search; the best
    /// completely explored arm is never removed (after a bad chance outcome every arm may be below
    /// it).
    #[default]
    Chooser,
    /// An arm whose exact value is below `θ` for some player is removed: the componentwise
    /// `val(π) ≥ θ` of a solution policy, literally. In a game someone wins, this removes the
    /// arms that win outright for the chooser (the opponent's component is 0) unless one is the
    /// best completely explored arm, so it is an option, not the default.
    AllPlayers,
}

/// The parameters of [`MacUcb`](crate::MacUcb), with the defaults of [`MacUcbConfig::default`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MacUcbConfig {
    /// How far a search looks ahead with solved networks. Default [`Lookahead::Sequence`].
    pub lookahead: Lookahead,
    /// How each round's network is solved: [`Algorithm::MacFc`] (MAC-UCB, the default) or
    /// [`Algorithm::Fc`] (FC-UCB).
    pub algorithm: Algorithm,
    /// Whether the network is preprocessed before it is solved (Section 4.1). Default `true`.
    pub preprocess: bool,
    /// Which paths of a policy must be consistent. Default [`Feasibility::Probable`].
    pub feasibility: Feasibility,
    /// The share of the search given to solving networks, the rest to sampling. Default 0.9, the
    /// paper's 90 % / 10 % (its Figure 6). [`Lookahead::Sequence`]: a network is solved to extend
    /// the tree only while solving has had at most this share of the time spent so far (of the
    /// work, counting a network and a sample as one each, when the search has no deadline).
    /// [`Lookahead::Round`]: the round's network is solved within this share of the time to the
    /// deadline, and sampling has the rest.
    pub solve_share: f64,
    /// `c` of the UCB index `ū_i + c·√(ln n / n_i)`. Default √2, the paper's `√(2 ln n / n_i)`.
    pub exploration: f64,
    /// Samples per search when [`Limits::nodes`](game_trait::Limits::nodes) is `None`. Default
    /// 10 000, the paper's number of simulations.
    pub samples: u64,
    /// Seed of each search's random generator. Default 0.
    pub seed: u64,
    /// The horizon `T`, in rounds after the current one: a state reached `T` rounds later that is
    /// not terminal is worth 0 to every player (so `Some(1)` scores each arm's successor state
    /// itself, without sampling past it). `None`, the default, is the paper's horizon (Section
    /// 5.1): "the maximum number of turns that can be sampled by UCB during a given deliberation
    /// time", so samples go as deep as the game goes in the time given, and a sample the
    /// deadline interrupts is not counted.
    pub horizon: Option<u32>,
    /// What an arm is. Default [`Arms::Joint`].
    pub arms: Arms,
    /// Which arm is played. Default [`FinalChoice::MostSampled`].
    pub choice: FinalChoice,
    /// How the threshold prunes. Default [`ThresholdPruning::Chooser`].
    pub pruning: ThresholdPruning,
    /// [`Lookahead::Sequence`]: whether the networks also lose the joint actions whose value, by
    /// the upper confidence bounds of their sampled outcomes, cannot reach the threshold (the
    /// paper's pruning of "domain values of the stochastic variable below the confidence value",
    /// Section 4.4). Default `true`. A node that lost a joint action this way is never marked
    /// exact: the bound is an estimate.
    pub confidence_pruning: bool,
    /// The most memory the tree of solved networks ([`Lookahead::Sequence`]) or the cache of
    /// explored states ([`Lookahead::Round`]) may hold, in bytes; both are kept across searches
    /// until [`Reset::reset`](game_trait::Reset::reset). A full tree stops growing, and is
    /// dropped at the start of the next search. Default 1 GiB (the paper allowed 32 GB and never
    /// filled them).
    pub cache_bytes: usize,
    /// The player whose move is returned, and whose reward the arms maximise, in rounds where
    /// several players choose. `None`, the default: the only player with a choice if there is one,
    /// else player 0. A player the game does not have counts as `None`.
    pub player: Option<PlayerId>,
}

impl Default for MacUcbConfig {
    fn default() -> MacUcbConfig {
        MacUcbConfig {
            lookahead: Lookahead::Sequence,
            algorithm: Algorithm::MacFc,
            preprocess: true,
            feasibility: Feasibility::Probable,
            solve_share: 0.9,
            exploration: std::f64::consts::SQRT_2,
            samples: 10_000,
            seed: 0,
            horizon: None,
            arms: Arms::Joint,
            choice: FinalChoice::MostSampled,
            pruning: ThresholdPruning::Chooser,
            confidence_pruning: true,
            cache_bytes: 1 << 30,
            player: None,
        }
    }
}

impl MacUcbConfig {
    /// The defaults with FC instead of MAC: the FC-UCB player.
    pub fn fc_ucb() -> MacUcbConfig {
        MacUcbConfig {
            algorithm: Algorithm::Fc,
            ..MacUcbConfig::default()
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), ScspError> {
        let invalid = |name: &'static str, message: &str| {
            Err(ScspError::Parameter {
                name,
                message: message.to_string(),
            })
        };
        if !(0.0..=1.0).contains(&self.solve_share) {
            return invalid("solve_share", "must be between 0 and 1");
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return invalid("exploration", "must be a finite number, at least 0");
        }
        if self.samples == 0 {
            return invalid("samples", "must be at least 1");
        }
        if self.horizon == Some(0) {
            return invalid("horizon", "must be at least 1 round");
        }
        Ok(())
    }
}

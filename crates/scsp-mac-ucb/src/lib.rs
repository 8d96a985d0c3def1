//! Stochastic constraint networks for General Game Playing, and the MAC-UCB and FC-UCB players of
//! F. Koriche, S. Lagrue, É. Piette and S. Tabary, *General Game Playing with Stochastic CSP*
//! (Constraints 21(1), 2016).
//!
//! A game with chance, played in rounds, is a sequence of one-stage stochastic constraint networks
//! (`μSCSP`s), one per round: the state's variables fixed, the players' actions to decide, chance's
//! outcome drawn. A player solves these networks exactly (every feasible policy) in a sequence
//! that UCB steers, each instantiated where the best solution of the one before leads, and
//! estimates the policies' worth by sampling below the last.
//!
//! # The model ([`model`], [`policy`])
//! A `k`-player network ⟨V, Y, D, C, P, θ⟩ (Definition 2): ordered variables with finite integer
//! domains, each a decision or stochastic ([`Variable`]); hard constraints (allowed tuples;
//! everything else is −∞) and soft ones (a utility vector in `[0, 1]^k` per tuple) ([`Constraint`]);
//! a conditional probability table per stochastic variable ([`Cpt`], uniform when absent); a
//! threshold `θ ∈ [0, 1]^k`. A [`Policy`] decides each decision variable given the stochastic
//! values before it; `val(π)` is each player's expected utility; a policy is *feasible* when its
//! paths satisfy the hard constraints and a *solution* when moreover `val(π) ≥ θ` componentwise.
//! [`Network::stages`] and [`Network::decompose`] split a `T`-stage network into one-stage ones
//! (Definition 3, Section 3.3). Networks are built in code or read from JSON ([`json`]).
//!
//! # Solving a one-stage network ([`solve()`])
//! 1. **Preprocessing** ([`preprocess`], Section 4.1): merging hard constraints of equal scope,
//!    projecting unary ones into domains, removing universal variables from scopes (the paper's
//!    counting test), and singleton arc consistency on the decision constraints.
//! 2. **Resolution** (Section 4.2): the network is split into the CSP `N′` of its decision
//!    constraints and the `μSCSP` `N″` of its stochastic ones; forward checking enumerates every
//!    feasible policy of `N″` (not only the best value: the paper's footnote 2), which becomes the
//!    feasibility constraint `c_s`; MAC enumerates the solutions of `N′ + c_s`, propagating with
//!    [Compact-Table](compact_table) (Demeulenaere et al., CP 2016). [`Algorithm::Fc`] runs FC on
//!    the whole network instead, and [`Algorithm::Brute`] enumerates everything (the oracle the
//!    tests compare both with, as they compare Compact-Table with the simple [`gac::Str`]).
//!
//! # Playing ([`MacUcb`], [`RoundGame`](game_trait::RoundGame))
//! A game describes its rounds once, as variables and tables ([`game_trait::round`]);
//! [`round_network`] turns a state into its `μSCSP_t`, [`check_round`] confirms that the
//! description agrees with the rules, and a [`RoundEncoder`] instantiates many states' networks
//! cheaply. [`MacUcb`] grows a tree of solved networks below the current state: each node's
//! feasible policies are the arms of a UCB1 bandit (`ū_i + √(2 ln n / n_i)`, Section 4.3), a
//! sample descends by UCB, solves the network where it leaves the tree (within the solve share),
//! and plays uniformly at random below to the end of the game or the horizon; completely explored
//! subtrees are known exactly, and the networks carry the threshold `θ = (r_min, …, r_min)` and
//! what the tree knows, so that the solver removes the joint actions that fall below it (Section
//! 4.4). The [`player`] module sets each of the paper's sentences beside what the player does.
//! Its parameters and their defaults are in [`MacUcbConfig`]: 90 % of the work to solving,
//! 10 000 samples, `c` = √2, as in the paper. FC-UCB is the same player with
//! [`MacUcbConfig::fc_ucb`]. [`games`] holds three hand-written games that describe their rounds.
//!
//! # Readings of the paper, and the defaults
//! Where the paper can be read more than one way, each reading is an option and the default is the
//! most faithful one that plays sensibly:
//!
//! - **Feasibility** ([`Feasibility`]): Definition 2 asks that *all* paths of a policy be
//!   consistent ([`Feasibility::EveryPath`]); but the paper's own encoding of GDL gives chance's
//!   variable every action of the chance player, most of them illegal (probability 0) in any state,
//!   and the paper's examples treat those branches as irrelevant. The default,
//!   [`Feasibility::Probable`], asks it of the paths of positive probability (`0 · −∞ = 0`).
//! - **Lookahead** ([`Lookahead`]): "MAC … used to solve each μSCSP in turn" is a sequence of
//!   networks in every deliberation, each "instantiating μSCSP_{t+1} with the values of the best
//!   feasible solution estimated from μSCSP_t" ([`Lookahead::Sequence`], the default: a tree of
//!   them, grown where UCB points). [`Lookahead::Round`] solves the current round's network only
//!   and samples its solutions flat.
//! - **Arms** (round reading, [`Arms`]): "each feasible solution of μSCSP_t" is an arm: a joint
//!   action of every player ([`Arms::Joint`], the default). [`Arms::OwnAction`] groups them by the
//!   choosing player's action, which values a simultaneous move against every reply.
//! - **Threshold** ([`ThresholdPruning`]): the literal `val(π) ≥ θ` for every player
//!   ([`ThresholdPruning::AllPlayers`]) would remove a move that wins outright in any game someone
//!   wins (its value for the loser is 0 < `r_min`); the default compares the choosing player's
//!   value only.
//! - **The final choice** ([`FinalChoice`]): the paper's "best" solution, the one that maximises
//!   the UCB index, is the one the next network is instantiated with (UCB's selection); it does
//!   not say which arm is played. The default plays the most sampled arm, as UCT does (measured
//!   against the highest index in [`FinalChoice`]'s docs); the mean and the index are options.
//! - **The next variables** `f_{t+1}` are left out of the round's network: a correct description
//!   determines them from the actions and chance (Section 3.3), and the players take the successor
//!   from the game's rules (see [`encoding`]).
//! - **Horizon**: the paper samples "as deep as UCB can in the time given"; the default samples to
//!   the end of the game, and [`MacUcbConfig::horizon`] sets a fixed `T`.
//! - **Confidence pruning** ([`MacUcbConfig::confidence_pruning`]): "when a sufficient number of
//!   domain values of the stochastic variable are below the confidence value, the corresponding
//!   subtree can be safely removed from the solution set of N″", which the paper does not define
//!   further. Our reading: a joint action's value, each chance outcome counted at the upper
//!   confidence bound of its samples (exactly when known, 1 when never sampled), must reach `θ`;
//!   FC on `N″` removes the policies that cannot. A node that lost a joint action this way is
//!   never known exactly.
//! - **Preprocessing on every round**: the paper preprocesses each `μSCSP_t` but the last, in which
//!   the rewards are revealed; the player here preprocesses every round's network (the steps
//!   preserve the solutions, so this costs time, never a policy), and
//!   [`MacUcbConfig::preprocess`] turns it off.
//!
//! The paper's compilation of a GDL description into networks (its Section 3.2) is not in this
//! crate: a game enters it through [`RoundGame`](game_trait::RoundGame), which `gdl::GdlRound`
//! implements for the GDL descriptions whose round it can encode, or, for any game whose states
//! have keys, through the networks its rules give at each state ([`StateEncoding`],
//! [`MacUcb::analyse_by_state`]): the state fixed, a network is its players' legal moves, chance's
//! outcomes and the payoffs of its finished successors. Both are an [`Encoding`];
//! `gametree`'s GDL searcher takes the round where the encoder describes the game and the
//! states elsewhere (recursive rules, goals over many fluents, tables too large).
//!
//! # Example
//! Koriche et al.'s cooperative matching pennies (their Example 1): alice and bob each place a
//! coin, then chance flips one; both win if the three agree. Every policy in which alice and bob
//! agree wins with probability ½.
//!
//! ```
//! use game_trait::{Game, Limits};
//! use scsp_mac_ucb::games::CooperativePennies;
//! use scsp_mac_ucb::{check_round, MacUcb, MacUcbConfig};
//!
//! let game = CooperativePennies::new();
//! check_round(&game, 1, 10)?; // the round's tables agree with the rules
//! let mut player = MacUcb::new(MacUcbConfig { samples: 1_000, ..MacUcbConfig::default() })?;
//! let (result, analysis) = player.analyse(&game, &game.initial_state(), &Limits::none());
//! let chosen = &analysis.arms[analysis.chosen.unwrap()];
//! assert_eq!(chosen.joints[0][0], chosen.joints[0][1]); // alice and bob agree
//! assert_eq!(chosen.mean, Some(vec![0.5, 0.5])); // known exactly: the game is small
//! assert_eq!(result.value, 0); // ½ on the ±1000 scale
//! # Ok::<(), scsp_mac_ucb::ScspError>(())
//! ```
//!
//! Solving a network read from JSON, as `gametree scsp solve` does:
//!
//! ```
//! use scsp_mac_ucb::{json, solve, SolveOptions};
//!
//! let network = json::parse(r#"{"players": 1,
//!     "variables": [{"name": "x", "domain": [1, 2]},
//!                   {"name": "coin", "domain": [0, 1], "stochastic": true}],
//!     "constraints": [{"scope": ["x", "coin"], "utility": [[[1, 0], [1.0]], [[2, 1], [0.5]]]}]}"#)?;
//! let solved = solve(&network, &SolveOptions::default())?;
//! let values: Vec<_> = solved.feasible.iter().map(|s| (s.assignment[0], s.value[0])).collect();
//! assert_eq!(values, [(1, 0.5), (2, 0.25)]); // x = 1 wins on heads, x = 2 half-wins on tails
//! # Ok::<(), scsp_mac_ucb::ScspError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod brute;
mod budget;
pub mod compact_table;
mod domains;
pub mod encoding;
mod error;
mod fc;
pub mod gac;
pub mod games;
pub mod json;
mod mac;
pub mod model;
pub mod player;
pub mod policy;
pub mod preprocess;
pub mod random;
pub mod solve;
mod tables;
mod validate;

pub use encoding::{
    check_round, check_state_networks, round_network, state_network, Encoding, RoundEncoder,
    RoundNetwork, StateEncoding,
};
pub use error::ScspError;
pub use model::{Constraint, Cpt, Network, Relation, Stage, VarId, Variable};
pub use player::{
    Arms, FinalChoice, Lookahead, MacUcb, MacUcbAnalysis, MacUcbConfig, ThresholdPruning,
};
pub use policy::{policies, Policy};
pub use solve::{solve, Algorithm, Feasibility, Solution, SolveOptions, Solved};

//! [`MacUcb`]: the MAC-UCB and FC-UCB players of Koriche, Lagrue, Piette and Tabary, *General Game
//! Playing with Stochastic CSP* (Constraints, 2016, Sections 4.3–4.4 and 5), for any
//! [`RoundGame`].
//!
//! # What the paper says, and how we read it
//! The paper's sentences that constrain the player, each with what the player does:
//!
//! | the paper | the player |
//! |---|---|
//! | "MAC … used to solve each μSCSP in turn, together with the UCB policy for approximating the values of those strategies obtained by the last μSCSP in the sequence" (abstract) | a search grows a tree of solved one-stage networks below the current state, and samples below its frontier |
//! | "The resolution of the next problem in the sequence is performed by instantiating μSCSP_{t+1} with the values of the best feasible solution estimated from μSCSP_t" (4.3) | a network is instantiated at the state that UCB's best arm (and chance's outcome) leads to, and solved; its feasible solutions are that node's arms |
//! | "we sample uniformly at random all possible moves from t + 1 to T − 1" (4.3) | below the frontier, uniformly random moves to a finished game or the horizon |
//! | "the one that maximizes ū_i + √(2 ln n / n_i)" (4.3) | UCB1 at every node, `c` = √2 by default ([`MacUcbConfig::exploration`]) |
//! | "θ is reset to (r_min, …, r_min)" from "the best policy estimated by UCB over the sequence" (4.4) | after each search `θ` becomes the smallest component of the played arm's mean; every network solved afterwards carries it |
//! | "a caching technique which stores the leaves already explored … whether a subtree is completely explored … any solution … whose expected value is less than θ can be safely removed" (4.4) | the cache of explored states and the tree know completely explored subtrees exactly; the solver removes the joint actions known to fall below `θ` |
//! | "When a sufficient number of domain values of the stochastic variable are below the confidence value, the corresponding subtree can be safely removed from the solution set of … N″" (4.4) | the networks carry each joint action's upper confidence bound per chance outcome, and FC on `N″` removes those below `θ` ([`MacUcbConfig::confidence_pruning`]) |
//! | "the ability of MAC to solve a more important number of μSCSPs in the sequence" (5.2); "90 % of deliberation time was dedicated to exploitation" (solving) (5.2, Figure 6) | [`MacUcbConfig::solve_share`] bounds the share of the search spent solving networks; the rest samples |
//! | "10000 simulations were performed" (footnote 3) | [`MacUcbConfig::samples`], 10,000 |
//! | "32 GB were allowed for caching and this limit was never reached" (footnote 4) | [`MacUcbConfig::cache_bytes`], 1 GiB by default |
//! | "The horizon T was fixed to the maximum number of turns that can be sampled by UCB during a given deliberation time" (5.1) | samples go as deep as the game in the time given; [`MacUcbConfig::horizon`] fixes `T` |
//!
//! Where the paper is silent, the choices are ours:
//!
//! - **Which node to extend next**: where a sample's descent leaves the tree, at most one network
//!   per sample (as UCT adds one node per simulation), while solving is within its share; the
//!   descent then takes one of the new node's arms and samples from there.
//! - **The share, without a deadline**: a search by sample count measures work instead of time,
//!   a network and a sample counting one each, so that it depends on its seed only.
//! - **Exact values**: a node is known exactly when its arms are (each arm the expectation of its
//!   chance outcomes' nodes), as the value of the best policy: the choosing player's best arm,
//!   the first of equals. An arm known exactly has a confidence interval of width zero, so its
//!   UCB index is its value alone. Where several players choose at once, a node is known only
//!   when every outcome pays them alike (a cooperative game): a maximum does not solve a matrix
//!   game.
//! - **Several players choosing at once**: each runs UCB over its own actions (decoupled UCB);
//!   a joint arm valued by one player would have the others play for that player.
//! - **The threshold's players** ([`ThresholdPruning`]): the choosing player's value by default;
//!   the best arm known exactly is never removed (the threshold comes from an earlier estimate).
//! - **The move played** ([`FinalChoice`]): the paper names the solution with the highest UCB
//!   index as the one the next network is instantiated with, not the move to play; the most
//!   sampled arm is played by default.
//!
//! [`Lookahead::Round`] keeps the other reading: the current round's network only, its
//! solutions one bandit's arms sampled flat to the end of the game, the cache's exact values the
//! expectation of uniformly random play. It is the player this crate had before the sequence
//! reading, reproduced exactly (`cargo test -p scsp-mac-ucb --test it round_reading`).
//!
//! # One search (the sequence reading)
//! 1. The root's network is solved (unless the tree kept from earlier searches knows the root
//!    exactly), with `θ` and what the tree knows of the root's successors.
//! 2. Until the budget, the deadline or the stop flag, or until the root is known exactly: a
//!    sample descends by UCB, extends the tree where solving is within its share, samples
//!    below, and backs up every player's value.
//! 3. The arm played is the best exact one once the root is known exactly, else by
//!    [`FinalChoice`] (the most sampled by default).
//!
//! The move returned is the choosing player's: the player to move at a `Player` turn; at a
//! `Simultaneous` turn [`MacUcbConfig::player`], else the only player with a choice, else player
//! 0. At a `Chance` turn nobody chooses and the result has no move. The tree, the cache and `θ`
//! last until [`Reset::reset`], for the same game value: the same type at the same address,
//! with the same [`Game::identity`].
//!
//! # Limits
//! Samples per search: [`Limits::nodes`], or [`MacUcbConfig::samples`] when that is `None`. The
//! deadline and the stop flag are checked before every sample and every 64 rounds of a playout
//! (a sample the deadline interrupts is not counted), and by the solver every 256 nodes.
//! `limits.depth` is ignored. A game's round is indexed once, by [`MacUcb::prepare`] before the
//! clock runs, or else by the first search within its own deadline (see `prepare` for what that
//! costs a game with large tables).
//!
//! # What a search reports
//! The value is the played arm's mean reward for the choosing player on the scale
//! `round((2m − 1) · 1000)`: a certain win +1000, ½ 0, a certain loss −1000; its bound is
//! [`Bound::Estimate`](game_trait::Bound::Estimate), or [`Bound::Exact`](game_trait::Bound::Exact)
//! once the root is known exactly (the sequence reading: the value of the best policy). `stats.evaluated` is
//! the number of samples, `stats.expanded` the networks solved, `stats.generated` the nodes (or,
//! in the round reading, cached states) added. [`MacUcb::analyse`] also returns every root
//! arm's statistics and whether the root is known exactly.
//!
//! # Determinism
//! Every random choice comes from a [`Pcg64`](rand_pcg::Pcg64) seeded with
//! [`MacUcbConfig::seed`] at the start of each search: without a deadline or stop flag, a search
//! depends only on the configuration, the game, the state and what the tree, the cache and `θ`
//! learned in earlier searches.

mod bandit;
mod cache;
mod config;
mod round;
mod sample;
mod sequence;

use std::time::{Duration, Instant};

use game_trait::{
    Game, GeneralGame, Limits, MoveList, PlayerId, Reset, RoundGame, Score, SearchResult, Searcher,
    Turn,
};

use crate::budget::Budget;
use crate::encoding::{asks, Encoding, RoundEncoder, RoundNetwork, StateEncoding};
use crate::error::ScspError;
use cache::Cache;
pub use config::{Arms, FinalChoice, Lookahead, MacUcbConfig, ThresholdPruning};
use sequence::Tree;

/// The MAC-UCB player, or FC-UCB with [`MacUcbConfig::fc_ucb`] (see the [module docs](self)).
#[derive(Debug)]
pub struct MacUcb {
    config: MacUcbConfig,
    /// The round reading's cache of explored states.
    cache: Cache,
    /// The sequence reading's tree, and the game it belongs to.
    tree: Option<(GameId, Tree)>,
    /// The game's round, indexed, and the game it belongs to.
    encoder: Option<(GameId, RoundEncoder)>,
    threshold: Option<Vec<f64>>,
}

/// A [`RoundGame`] read through its round: the indexed round, or why it could not be indexed
/// (the networks are then errors, and the players play the rules' moves). Its action values are
/// the game's own, the same in every state.
pub(crate) struct ByRound<'a>(pub(crate) Result<&'a RoundEncoder, ScspError>);

impl<G: RoundGame> Encoding<G> for ByRound<'_> {
    fn network(&self, game: &G, state: &G::State) -> Result<RoundNetwork, ScspError> {
        self.0.clone()?.network(game, state)
    }

    fn move_of(&self, game: &G, _: &G::State, player: Option<PlayerId>, value: u32) -> G::Move {
        game.action(player, value)
    }

    fn value_of(&self, game: &G, _: &G::State, player: Option<PlayerId>, mv: G::Move) -> u32 {
        game.action_value(player, mv)
    }

    fn state_values(&self, game: &G, state: &G::State, values: &mut Vec<u32>) {
        game.state_values(state, values);
    }
}

/// A game value while it lives: its type's name, its address (two values of a zero-sized type
/// share an address, and are the same game) and its [`Game::identity`] (a game loaded where
/// another was dropped is another game). What the player learned of one game is not
/// used on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GameId(&'static str, usize, Option<u64>);

fn identify<G: Game>(game: &G) -> GameId {
    let address = game as *const G as usize;
    GameId(std::any::type_name::<G>(), address, game.identity())
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
    /// Time spent solving (zero in a sequence search without a deadline, which counts work
    /// instead of time).
    pub solve_time: Duration,
    /// Samples drawn.
    pub samples: u64,
    /// States in the cache (round reading) or nodes in the tree (sequence reading) after the
    /// search.
    pub cached_states: usize,
    /// Networks solved: the root's and those that extended the tree.
    pub networks: u64,
    /// Time spent sampling (sequence reading with a deadline).
    pub sample_time: Duration,
    /// Whether the root's value is known exactly: its subtree is completely explored.
    pub exact: bool,
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
            cache: Cache::new(config.cache_bytes),
            tree: None,
            encoder: None,
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

    /// Indexes the tables of `game`'s round now, with no deadline, so that no search has to.
    ///
    /// The index is built once per game, by the first search otherwise, and within that search's
    /// deadline: a search the deadline stops first plays a legal move it never searched, and
    /// the next one starts the index again. On a game whose tables take longer to index
    /// than a move's deadline, every search would end that way (the small Can't Stop of the
    /// `gametree` crate's GDL games takes about 33 ms, more than a 30 ms move). Call it where the
    /// rules are known before the clock runs (a match's start clock, a tournament's setup),
    /// with the same game value, at the same address, that the searches will be given: the
    /// player recognises a game by its type, its address and its
    /// [`identity`](game_trait::Game::identity). An error if the round is not one the
    /// player can read (the searches then play the rules' moves).
    pub fn prepare<G: RoundGame>(&mut self, game: &G) -> Result<(), ScspError> {
        self.index_round(game, &Limits::none())
    }

    /// Searches `state` within `limits`, returning the result and what the search did.
    pub fn analyse<G: RoundGame>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
    ) -> (SearchResult<G::Move>, MacUcbAnalysis) {
        match self.config.lookahead {
            Lookahead::Round => self.analyse_round(game, state, limits),
            Lookahead::Sequence => self.analyse_sequence(game, state, limits),
        }
    }

    /// A search in the sequence reading, the networks from the game's round.
    fn analyse_sequence<G: RoundGame>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
    ) -> (SearchResult<G::Move>, MacUcbAnalysis) {
        let indexed = self.index_round(game, limits);
        let encoder = self.encoder.take();
        let encoding = ByRound(indexed.map(|()| &encoder.as_ref().expect("indexed").1));
        let found = self.sequence_search(game, &encoding, state, limits);
        self.encoder = encoder;
        found
    }

    /// Searches `state` of any game whose states have keys, the network of each state read off
    /// the rules there ([`StateEncoding`]), in the sequence reading: how MAC-UCB plays a game
    /// whose round cannot be described as tables (recursive rules, goals over many fluents,
    /// descriptions too large to enumerate). A game without state keys gets no move, and the
    /// analysis says why.
    pub fn analyse_by_state<G: GeneralGame>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
    ) -> (SearchResult<G::Move>, MacUcbAnalysis) {
        match StateEncoding::for_game(game) {
            Ok(encoding) => self.sequence_search(game, &encoding, state, limits),
            Err(e) => {
                let analysis = MacUcbAnalysis {
                    fallback: Some(e.to_string()),
                    ..MacUcbAnalysis::default()
                };
                (SearchResult::leaf(0), analysis)
            }
        }
    }

    /// The sequence reading on `game` read through `encoding`, with the tree kept for it.
    fn sequence_search<G: GeneralGame, E: Encoding<G>>(
        &mut self,
        game: &G,
        encoding: &E,
        state: &G::State,
        limits: &Limits,
    ) -> (SearchResult<G::Move>, MacUcbAnalysis) {
        let turn = game.turn(state);
        let chooser = self.chooser(game, state, turn);
        if turn == Turn::Over {
            let perspective = chooser.or(self.player(game)).unwrap_or(0);
            let value = score_of_mean(game.payoff(state, perspective));
            return (SearchResult::leaf(value), MacUcbAnalysis::default());
        }
        let id = identify(game);
        let keep =
            |(kept, tree): &(GameId, Tree)| *kept == id && tree.bytes() < self.config.cache_bytes;
        if !self.tree.as_ref().is_some_and(keep) {
            self.tree = Some((id, Tree::default()));
            self.cache.clear();
        }
        let (_, tree) = self.tree.as_mut().expect("a tree was just made");
        let parts = sequence::Parts {
            config: &self.config,
            threshold: self.threshold.as_deref(),
            tree,
            cache: &mut self.cache,
        };
        let found = sequence::search(parts, game, encoding, state, limits, chooser);
        if let Some(r) = &found.mean {
            let r_min = r.iter().copied().fold(f64::INFINITY, f64::min);
            self.threshold = Some(vec![r_min; game.players()]);
        }
        (found.result, found.analysis)
    }

    /// Indexes `game`'s round into `self.encoder` unless it is there: once per game, within the
    /// deadline of `limits` (an error if it runs out first: the search then plays the rules'
    /// moves, and the next one tries again).
    fn index_round<G: RoundGame>(&mut self, game: &G, limits: &Limits) -> Result<(), ScspError> {
        let id = identify(game);
        if self.encoder.as_ref().map_or(true, |(kept, _)| *kept != id) {
            self.encoder = None;
            let mut budget = Budget::new(limits.deadline, limits.stop.clone());
            self.encoder = Some((id, RoundEncoder::within(game, &mut budget)?));
        }
        Ok(())
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
}

/// Why a network's solutions gave no arm, when `feasible` policies were found and the solver
/// finished (`complete`) or not.
pub(crate) fn fallback_reason(feasible: usize, complete: bool) -> String {
    match (feasible, complete) {
        (0, false) => "no feasible policy was found before the solving deadline",
        (0, true) => "the round's network has no feasible policy",
        _ => "no feasible policy is a legal joint move",
    }
    .to_string()
}

/// Whether the deadline has passed or the stop flag is set.
pub(crate) fn stopped(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

/// The action values the rules allow each player in a state (empty for a player not asked).
pub(crate) struct LegalValues {
    players: Vec<Vec<u32>>,
}

impl LegalValues {
    pub(crate) fn of<G: GeneralGame, E: Encoding<G>>(
        game: &G,
        encoding: &E,
        state: &G::State,
        turn: Turn,
    ) -> LegalValues {
        let players = (0..game.players())
            .map(|p| match asks(turn, p) {
                true => encoding.legal_values(game, state, p),
                false => Vec::new(),
            })
            .collect();
        LegalValues { players }
    }

    /// Whether every player the game asks plays a legal move in `joint`.
    pub(crate) fn allows(&self, joint: &[u32]) -> bool {
        self.players
            .iter()
            .zip(joint)
            .all(|(legal, a)| legal.is_empty() || legal.contains(a))
    }

    /// The actions of the players asked in `joint` (the others' are never played).
    pub(crate) fn asked(&self, joint: &[u32]) -> Vec<u32> {
        (self.players.iter().zip(joint))
            .filter(|(legal, _)| !legal.is_empty())
            .map(|(_, &a)| a)
            .collect()
    }

    /// The only player with more than one legal action at a `turn` that asks players.
    pub(crate) fn only_chooser(&self, turn: Turn) -> Option<PlayerId> {
        if let Turn::Player(p) = turn {
            return Some(p);
        }
        let mut choosing = (0..self.players.len()).filter(|&p| self.players[p].len() > 1);
        match (choosing.next(), choosing.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }

    /// Every legal joint move (players not asked: value 0, never played).
    pub(crate) fn joints(&self) -> Vec<Vec<u32>> {
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
    /// Forgets the cache, the tree, the indexed round and the threshold.
    fn reset(&mut self) {
        self.cache.clear();
        self.tree = None;
        self.encoder = None;
        self.threshold = None;
    }
}

impl<G: RoundGame> Searcher<G> for MacUcb {
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        self.analyse(game, state, limits).0
    }
}

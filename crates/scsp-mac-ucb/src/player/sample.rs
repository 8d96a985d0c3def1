//! Sampling an arm (Section 4.3): its joint action, a chance outcome by its probability, then
//! uniformly random moves up to a terminal state or the horizon; and the cache bookkeeping that
//! tells when a state is completely explored (Section 4.4).

use game_trait::{ChanceList, GeneralGame, Limits, MoveList, PlayerId, Turn};
use rand::Rng;
use rand_pcg::Pcg64;

use super::cache::{key, Cache, UNBOUNDED};
use super::stopped;
use crate::encoding::{play_values, Encoding};

/// How often, in playout rounds, a sample reads the clock.
const CLOCK_EVERY: u32 = 64;

/// What the cache's exact value of a completely explored state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Valuation {
    /// The expectation of a sample from it: uniform over each player's moves, chance by its
    /// probabilities. What the round reading's arm means estimate.
    Uniform,
    /// The value of the best policy below it: the choosing player's best move, chance by its
    /// probabilities (expectimax). What the sequence reading's nodes back up. A state where
    /// several players choose at once has one only when every outcome pays all alike.
    Policy,
}

/// The value of the best policy from the values of each combination of the `choosing` players'
/// moves (see [`Valuation::Policy`]).
fn policy_value(combinations: Vec<Vec<f64>>, choosing: &[PlayerId]) -> Option<Vec<f64>> {
    let best_for = |p: PlayerId| {
        (combinations.iter())
            .fold(None::<&Vec<f64>>, |b, v| match b {
                Some(b) if b[p] >= v[p] => Some(b),
                _ => Some(v),
            })
            .cloned()
    };
    match choosing {
        [] => combinations.first().cloned(),
        &[p] => best_for(p),
        _ => {
            let alike = (combinations.iter()).all(|v| v.iter().all(|x| (x - v[0]).abs() < 1e-9));
            alike.then(|| best_for(0)).flatten()
        }
    }
}

/// Samples states of one game, owning the buffers a sample reuses (moves, outcomes, the path, the
/// reward). What a sample still allocates: the state clones along its path, the entries it adds to
/// the cache, and the move lists of the completeness check.
pub(crate) struct Sampler<'a, G: GeneralGame, E> {
    game: &'a G,
    /// How the game's moves read as action values.
    encoding: &'a E,
    horizon: Option<u32>,
    valuation: Valuation,
    /// The reward of the last sample, one per player.
    reward: Vec<f64>,
    /// The playout's states below the arm, with their depths, for the completeness check.
    path: Vec<(G::State, u32)>,
    /// The state values of the last state keyed.
    values: Vec<u32>,
    moves: MoveList<G::Move>,
    joint: MoveList<G::Move>,
    outcomes: ChanceList<G::Move>,
}

impl<'a, G: GeneralGame, E: Encoding<G>> Sampler<'a, G, E> {
    pub(crate) fn new(
        game: &'a G,
        encoding: &'a E,
        horizon: Option<u32>,
        valuation: Valuation,
    ) -> Sampler<'a, G, E> {
        Sampler {
            game,
            encoding,
            horizon,
            valuation,
            reward: vec![0.0; game.players()],
            path: Vec::new(),
            values: Vec::new(),
            moves: MoveList::new(),
            joint: MoveList::new(),
            outcomes: ChanceList::new(),
        }
    }

    /// The state after `joint` (action values) and `chance` (the chance value, when chance moves
    /// at `root`).
    pub(crate) fn successor(
        &self,
        root: &G::State,
        joint: &[u32],
        chance: Option<u32>,
    ) -> G::State {
        let mut next = root.clone();
        let turn = self.game.turn(root);
        play_values(self.encoding, self.game, &mut next, turn, joint, chance);
        next
    }

    /// The chance outcomes at `state` as action values with their probabilities (empty when chance
    /// does not move).
    pub(crate) fn chance_values(&mut self, state: &G::State) -> Vec<(u32, f64)> {
        self.game.chance_outcomes(state, &mut self.outcomes);
        (self.outcomes.iter())
            .map(|&(m, p)| (self.encoding.value_of(self.game, state, None, m), p))
            .collect()
    }

    /// Plays out from `state`, `depth` rounds below the root, and returns every player's reward;
    /// `None` if the deadline passed or the stop flag was set first (the sample does not count).
    pub(crate) fn playout(
        &mut self,
        mut state: G::State,
        mut depth: u32,
        cache: &mut Cache,
        rng: &mut Pcg64,
        limits: &Limits,
    ) -> Option<&[f64]> {
        self.path.clear();
        loop {
            let key = self.key(&state, depth);
            if let Some(value) = cache.get(key) {
                self.reward.copy_from_slice(value);
                break;
            }
            let turn = self.game.turn(&state);
            if self.leaf(&state, turn, depth) {
                cache.insert(key, &self.reward);
                break;
            }
            if depth % CLOCK_EVERY == 0 && stopped(limits) {
                return None;
            }
            let before = state.clone();
            if !self.random_round(&mut state, turn, rng) {
                // Nobody can move in a game in progress: scored 0, as at the horizon.
                self.reward.iter_mut().for_each(|r| *r = 0.0);
                cache.insert(key, &self.reward);
                break;
            }
            self.path.push((before, depth));
            depth += 1;
        }
        self.record_complete(cache);
        Some(&self.reward)
    }

    /// Every player's value of `state`, `depth` rounds below the root, if it ends a sample: its
    /// payoffs if it is terminal, 0 at the horizon.
    pub(crate) fn leaf_value(&mut self, state: &G::State, depth: u32) -> Option<&[f64]> {
        let turn = self.game.turn(state);
        self.leaf(state, turn, depth).then_some(&self.reward[..])
    }

    /// Whether a state ends a sample, terminal (scored by its payoffs) or at the horizon (0), with
    /// its value in `reward`.
    fn leaf(&mut self, state: &G::State, turn: Turn, depth: u32) -> bool {
        if turn == Turn::Over {
            for (p, r) in self.reward.iter_mut().enumerate() {
                *r = self.game.payoff(state, p);
            }
            true
        } else if self.horizon.is_some_and(|t| depth >= t) {
            self.reward.iter_mut().for_each(|r| *r = 0.0);
            true
        } else {
            false
        }
    }

    /// One round of uniformly random moves (chance by its probabilities); `false`, playing
    /// nothing, if someone who must move has no move (a game that breaks its contract).
    fn random_round(&mut self, state: &mut G::State, turn: Turn, rng: &mut Pcg64) -> bool {
        let game = self.game;
        match turn {
            Turn::Player(p) => {
                game.legal_moves(state, p, &mut self.moves);
                if self.moves.is_empty() {
                    return false;
                }
                let mv = self.moves[rng.gen_range(0..self.moves.len())];
                game.play(state, mv);
            }
            Turn::Chance => {
                game.chance_outcomes(state, &mut self.outcomes);
                if self.outcomes.is_empty() {
                    return false;
                }
                game.play(state, draw(&self.outcomes, rng));
            }
            Turn::Simultaneous => {
                self.joint.clear();
                for p in 0..game.players() {
                    game.legal_moves(state, p, &mut self.moves);
                    if self.moves.is_empty() {
                        return false;
                    }
                    self.joint
                        .push(self.moves[rng.gen_range(0..self.moves.len())]);
                }
                game.chance_outcomes(state, &mut self.outcomes);
                if !self.outcomes.is_empty() {
                    self.joint.push(draw(&self.outcomes, rng));
                }
                game.play_joint(state, &self.joint);
            }
            Turn::Over => {}
        }
        true
    }

    /// Walks the playout's path upwards, recording each state whose every successor is in the
    /// cache, until one is not.
    fn record_complete(&mut self, cache: &mut Cache) {
        while let Some((state, depth)) = self.path.pop() {
            let Some(value) = self.exact(&state, depth, cache) else {
                return;
            };
            let key = self.key(&state, depth);
            cache.insert(key, &value);
        }
    }

    /// The exact value of `state` at `depth` if every successor is in the cache, by the
    /// sampler's [`Valuation`]: over each combination of the choosing players' moves, the
    /// expectation over chance's outcomes; then the mean over the combinations (uniform, as the
    /// samples play) or the best one for the player who chooses.
    fn exact(&mut self, state: &G::State, depth: u32, cache: &Cache) -> Option<Vec<f64>> {
        let game = self.game;
        let players = game.players();
        let turn = game.turn(state);
        // Every combination of the choosing players' moves, and chance's outcome if it moves.
        let choosers: Vec<PlayerId> = match turn {
            Turn::Player(p) => vec![p],
            Turn::Simultaneous => (0..players).collect(),
            Turn::Chance | Turn::Over => Vec::new(),
        };
        let lists: Vec<MoveList<G::Move>> = choosers
            .iter()
            .map(|&p| {
                let mut moves = MoveList::new();
                game.legal_moves(state, p, &mut moves);
                moves
            })
            .collect();
        if lists.iter().any(|l| l.is_empty()) {
            return None;
        }
        game.chance_outcomes(state, &mut self.outcomes);
        let outcomes: ChanceList<G::Move> = std::mem::take(&mut self.outcomes);
        let mut combinations: Vec<Vec<f64>> = Vec::new();
        // The uniform mean, summed as the products come (its rounding is part of what the round
        // reading's samples report).
        let weight = 1.0 / lists.iter().map(|l| l.len() as f64).product::<f64>();
        let mut uniform = vec![0.0; players];
        let mut index = vec![0usize; lists.len()];
        let complete = 'all: loop {
            let mut value = vec![0.0; players];
            for (mv, p) in chance_or_none(&outcomes) {
                let mut child = state.clone();
                self.joint.clear();
                self.joint
                    .extend(index.iter().zip(&lists).map(|(&i, l)| l[i]));
                self.joint.extend(mv);
                match turn {
                    Turn::Simultaneous => game.play_joint(&mut child, &self.joint),
                    _ => game.play(&mut child, self.joint[0]),
                }
                let Some(v) = cache.get(self.key(&child, depth + 1)) else {
                    break 'all false;
                };
                value.iter_mut().zip(v).for_each(|(x, v)| *x += p * v);
                uniform
                    .iter_mut()
                    .zip(v)
                    .for_each(|(x, v)| *x += weight * p * v);
            }
            combinations.push(value);
            // The next combination of moves (an odometer), or done.
            let Some(i) = (0..index.len())
                .rev()
                .find(|&i| index[i] + 1 < lists[i].len())
            else {
                break true;
            };
            index[i] += 1;
            index[i + 1..].iter_mut().for_each(|x| *x = 0);
        };
        self.outcomes = outcomes;
        if !complete {
            return None;
        }
        let choosing: Vec<PlayerId> = (choosers.iter().zip(&lists))
            .filter(|(_, l)| l.len() > 1)
            .map(|(&p, _)| p)
            .collect();
        match self.valuation {
            Valuation::Uniform => Some(uniform),
            Valuation::Policy => policy_value(combinations, &choosing),
        }
    }

    /// The cache key of `state` at `depth`.
    pub(crate) fn key(&mut self, state: &G::State, depth: u32) -> u64 {
        self.encoding
            .state_values(self.game, state, &mut self.values);
        key(
            &self.values,
            self.horizon.map_or(UNBOUNDED, |t| t.saturating_sub(depth)),
        )
    }
}

/// Chance's outcomes, or one "no chance move" of probability 1 when chance does not move.
fn chance_or_none<M: Copy>(outcomes: &[(M, f64)]) -> Vec<(Option<M>, f64)> {
    if outcomes.is_empty() {
        vec![(None, 1.0)]
    } else {
        outcomes.iter().map(|&(m, p)| (Some(m), p)).collect()
    }
}

/// A chance outcome drawn by its probability.
pub(crate) fn draw<M: Copy>(outcomes: &[(M, f64)], rng: &mut Pcg64) -> M {
    let mut x: f64 = rng.gen();
    for &(m, p) in outcomes {
        if x < p {
            return m;
        }
        x -= p;
    }
    outcomes.last().expect("chance has a move").0
}

//! [`StateEncoding`]: the one-stage network of a state built from the game's rules at that state.

use std::cell::RefCell;

use game_trait::{ChanceList, GeneralGame, MoveList, PlayerId, Turn};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::{asks, play_values, Encoding, RoundNetwork};
use crate::error::ScspError;
use crate::model::Network;

/// The encoding that builds each state's network from the rules, for any game whose states have
/// keys, where the round cannot be described once as tables.
///
/// MAC-UCB solves networks at a known state: the state variables are fixed, and what is left to
/// decide is the players' actions and chance's outcome. So the network of a state can be read off
/// the rules there ([`state_network`]):
///
/// - a decision variable per player the game asks (`does(p)`), its values the player's legal
///   moves in the order the rules list them; a player not asked has the one value `noop`;
/// - the chance variable (`does(random)`), its values chance's outcomes, with their probabilities
///   as its table (one value of probability 1 when chance does not move);
/// - a soft constraint `successor` over those variables: the payoffs of each (joint move, chance
///   outcome) whose successor is a finished game (0 for every player elsewhere, as the goal
///   table of a round is 0 in a state that is not terminal).
///
/// The variables' domains are the legal tables of a round restricted to the state, and the
/// successor's payoffs are what the round's terminal and goal tables say one round later. A
/// state's key is [`Game::state_hash`](game_trait::Game::state_hash): a game whose states have no
/// key cannot be searched this way ([`StateEncoding::for_game`] says so).
///
/// An action value is a move's place in the list the rules give in that state, so reading values
/// as moves needs the lists: the encoding keeps those of the last state it was asked about, which
/// is the state a search asks about many times in a row.
#[derive(Debug)]
pub struct StateEncoding<G: GeneralGame> {
    lists: RefCell<Lists<G>>,
}

/// Every player's legal moves and chance's outcomes in the state with key `key`.
#[derive(Debug)]
struct Lists<G: GeneralGame> {
    key: Option<u64>,
    moves: Vec<MoveList<G::Move>>,
    outcomes: ChanceList<G::Move>,
}

impl<G: GeneralGame> StateEncoding<G> {
    /// The encoding for `game`, whose initial state must have a key
    /// ([`Game::state_hash`](game_trait::Game::state_hash)): the players find states by it.
    pub fn for_game(game: &G) -> Result<StateEncoding<G>, ScspError> {
        match game.state_hash(&game.initial_state()) {
            Some(_) => Ok(StateEncoding {
                lists: RefCell::new(Lists {
                    key: None,
                    moves: vec![MoveList::new(); game.players()],
                    outcomes: ChanceList::new(),
                }),
            }),
            None => Err(ScspError::Round {
                message: "the game gives its states no keys (state_hash), which a search of \
                          per-state networks needs"
                    .into(),
            }),
        }
    }

    /// Runs `read` on the lists of `state`, generating them unless they are the last state's.
    fn with_lists<T>(&self, game: &G, state: &G::State, read: impl FnOnce(&Lists<G>) -> T) -> T {
        let key = game.state_hash(state);
        let mut lists = self.lists.borrow_mut();
        if key.is_none() || lists.key != key {
            let lists = &mut *lists;
            for (p, moves) in lists.moves.iter_mut().enumerate() {
                game.legal_moves(state, p, moves);
            }
            game.chance_outcomes(state, &mut lists.outcomes);
            lists.key = key;
        }
        read(&lists)
    }
}

/// The one-stage network of the unfinished `state` of `game`, read off the rules (see
/// [`StateEncoding`]).
pub fn state_network<G: GeneralGame>(
    game: &G,
    state: &G::State,
) -> Result<RoundNetwork, ScspError> {
    let encoding = StateEncoding::for_game(game)?;
    network_of(&encoding, game, state)
}

/// [`state_network`], reading moves through `encoding`'s lists.
fn network_of<G: GeneralGame>(
    encoding: &StateEncoding<G>,
    game: &G,
    state: &G::State,
) -> Result<RoundNetwork, ScspError> {
    let turn = game.turn(state);
    if turn == Turn::Over {
        return Err(ScspError::Round {
            message: format!("{state:?} is finished: it has no round to play"),
        });
    }
    let players = game.players();
    let mut network = Network::new(players);
    let mut moves = MoveList::new();
    let mut sizes = Vec::with_capacity(players);
    for p in 0..players {
        let count = if asks(turn, p) {
            game.legal_moves(state, p, &mut moves);
            moves.len()
        } else {
            1
        };
        if count == 0 {
            return Err(ScspError::Round {
                message: format!("in {state:?}, which is not over, player {p} has no legal move"),
            });
        }
        sizes.push(count);
        network.variable(
            &format!("does({p})"),
            &(0..count as i64).collect::<Vec<_>>(),
            false,
        );
    }
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    let chance_moves = turn == Turn::Chance || !outcomes.is_empty();
    let distribution: Vec<f64> = if chance_moves {
        outcomes.iter().map(|&(_, p)| p).collect()
    } else {
        vec![1.0]
    };
    if distribution.is_empty() {
        return Err(ScspError::Round {
            message: format!("in {state:?} chance must move but has no outcome"),
        });
    }
    let y = network.variable(
        "does(random)",
        &(0..distribution.len() as i64).collect::<Vec<_>>(),
        true,
    );
    network.cpt(y, &[], vec![(Vec::new(), distribution)]);
    let scope: Vec<usize> = (0..=players).collect();
    let chance = chance_moves.then_some(&outcomes[..]);
    let rows = finished_successors(encoding, game, state, turn, &sizes, chance);
    network.soft("successor", &scope, rows);
    network.validate()?;
    Ok(RoundNetwork {
        network,
        actions: (0..players).collect(),
        chance: Some(y),
    })
}

/// Every (joint move, chance outcome) of `state` whose successor is finished, with its payoffs.
fn finished_successors<G: GeneralGame>(
    encoding: &StateEncoding<G>,
    game: &G,
    state: &G::State,
    turn: Turn,
    sizes: &[usize],
    outcomes: Option<&[(G::Move, f64)]>,
) -> Vec<(Vec<u32>, Vec<f64>)> {
    let players = game.players();
    let outcome_count = outcomes.map_or(1, <[_]>::len);
    let mut rows = Vec::new();
    let mut joint = vec![0u32; players];
    loop {
        for y in 0..outcome_count as u32 {
            let mut next = state.clone();
            let chance = outcomes.map(|_| y);
            play_values(encoding, game, &mut next, turn, &joint, chance);
            if game.turn(&next) == Turn::Over {
                let payoffs = (0..players).map(|p| game.payoff(&next, p)).collect();
                rows.push(([joint.as_slice(), &[y]].concat(), payoffs));
            }
        }
        let Some(p) = (0..players)
            .rev()
            .find(|&p| (joint[p] as usize) + 1 < sizes[p])
        else {
            return rows;
        };
        joint[p] += 1;
        joint[p + 1..].iter_mut().for_each(|a| *a = 0);
    }
}

impl<G: GeneralGame> Encoding<G> for StateEncoding<G> {
    fn network(&self, game: &G, state: &G::State) -> Result<RoundNetwork, ScspError> {
        network_of(self, game, state)
    }

    /// The `value`-th legal move of `player` in `state` (chance's `value`-th outcome), in the
    /// order the rules list them. A player not asked has none to make.
    fn move_of(&self, game: &G, state: &G::State, player: Option<PlayerId>, value: u32) -> G::Move {
        self.with_lists(game, state, |lists| match player {
            Some(p) => lists.moves[p][value as usize],
            None => lists.outcomes[value as usize].0,
        })
    }

    fn value_of(&self, game: &G, state: &G::State, player: Option<PlayerId>, mv: G::Move) -> u32 {
        let position = self.with_lists(game, state, |lists| match player {
            Some(p) => lists.moves[p].iter().position(|&m| m == mv),
            None => lists.outcomes.iter().position(|&(m, _)| m == mv),
        });
        position.map_or(u32::MAX, |i| i as u32)
    }

    /// Places `0..n` for the `n` legal moves: no search through the list.
    fn legal_values(&self, game: &G, state: &G::State, player: PlayerId) -> Vec<u32> {
        self.with_lists(game, state, |lists| {
            (0..lists.moves[player].len() as u32).collect()
        })
    }

    /// The state's 64-bit key as two values (none if the game gives it no key, which
    /// [`StateEncoding::for_game`] rules out for the initial state).
    fn state_values(&self, game: &G, state: &G::State, values: &mut Vec<u32>) {
        values.clear();
        if let Some(key) = game.state_hash(state) {
            values.extend([key as u32, (key >> 32) as u32]);
        }
    }
}

/// Checks, in every unfinished state of `playouts` random games of `game` from the start (moves
/// uniform, from a generator seeded with `seed`), that the network [`state_network`] builds has
/// as feasible policies exactly the legal joint moves (with chance's outcomes of positive
/// probability), that its values read back as the rules' moves, and that its `successor`
/// constraint pays exactly the payoffs of the finished successors. Returns the number of states
/// checked; the first disagreement is an error naming the state.
pub fn check_state_networks<G: GeneralGame>(
    game: &G,
    seed: u64,
    playouts: usize,
) -> Result<usize, ScspError> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut checked = 0;
    let encoding = StateEncoding::for_game(game)?;
    for _ in 0..playouts {
        let mut state = game.initial_state();
        while game.turn(&state) != Turn::Over {
            checked += 1;
            check_state(game, &encoding, &state)?;
            state = random_successor(game, &state, &mut rng);
        }
    }
    Ok(checked)
}

/// The checks of [`check_state_networks`] in one state.
fn check_state<G: GeneralGame>(
    game: &G,
    encoding: &StateEncoding<G>,
    state: &G::State,
) -> Result<(), ScspError> {
    let error = |what: String| ScspError::Round {
        message: format!("in {state:?} {what}"),
    };
    let rn = network_of(encoding, game, state)?;
    let solved = crate::solve(&rn.network, &crate::SolveOptions::default())?;
    let turn = game.turn(state);
    let mut expected = 1;
    let mut moves = MoveList::new();
    for p in (0..game.players()).filter(|&p| asks(turn, p)) {
        game.legal_moves(state, p, &mut moves);
        expected *= moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            if encoding.move_of(game, state, Some(p), i as u32) != mv
                || encoding.value_of(game, state, Some(p), mv) != i as u32
            {
                return Err(error(format!(
                    "player {p}'s move {mv:?} does not read back"
                )));
            }
        }
    }
    if solved.feasible.len() != expected {
        return Err(error(format!(
            "the network has {} feasible policies for {expected} legal joint moves",
            solved.feasible.len()
        )));
    }
    let players = game.players();
    for solution in &solved.feasible {
        let joint: Vec<u32> = solution.assignment.iter().map(|&v| v as u32).collect();
        let mut outcomes = ChanceList::new();
        game.chance_outcomes(state, &mut outcomes);
        let branches: Vec<(Option<u32>, f64)> = if turn == Turn::Chance || !outcomes.is_empty() {
            (0..outcomes.len() as u32)
                .map(|y| (Some(y), outcomes[y as usize].1))
                .collect()
        } else {
            vec![(None, 1.0)]
        };
        let mut value = vec![0.0; players];
        for (y, p) in branches {
            let mut next = state.clone();
            play_values(encoding, game, &mut next, turn, &joint, y);
            if game.turn(&next) == Turn::Over {
                value
                    .iter_mut()
                    .enumerate()
                    .for_each(|(q, v)| *v += p * game.payoff(&next, q));
            }
        }
        if value
            .iter()
            .zip(&solution.value)
            .any(|(a, b)| (a - b).abs() > 1e-9)
        {
            return Err(error(format!(
                "the joint move {joint:?} is worth {:?} in the network, {value:?} by the rules",
                solution.value
            )));
        }
    }
    Ok(())
}

/// The state after a uniformly random joint move (chance by its probabilities).
fn random_successor<G: GeneralGame>(game: &G, state: &G::State, rng: &mut Pcg64) -> G::State {
    let mut next = state.clone();
    let mut moves = MoveList::new();
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    let chance = |rng: &mut Pcg64, outcomes: &ChanceList<G::Move>| {
        let mut x: f64 = rng.gen();
        for &(m, p) in outcomes.iter() {
            if x < p {
                return m;
            }
            x -= p;
        }
        outcomes[outcomes.len() - 1].0
    };
    match game.turn(state) {
        Turn::Player(p) => {
            game.legal_moves(state, p, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play(&mut next, mv);
        }
        Turn::Chance => {
            let mv = chance(rng, &outcomes);
            game.play(&mut next, mv);
        }
        Turn::Simultaneous => {
            let mut joint: MoveList<G::Move> = MoveList::new();
            for p in 0..game.players() {
                game.legal_moves(state, p, &mut moves);
                joint.push(moves[rng.gen_range(0..moves.len())]);
            }
            if !outcomes.is_empty() {
                joint.push(chance(rng, &outcomes));
            }
            game.play_joint(&mut next, &joint);
        }
        Turn::Over => {}
    }
    next
}

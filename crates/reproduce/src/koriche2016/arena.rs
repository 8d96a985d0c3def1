//! The matches of the MAC-UCB reproductions: games of any number of players, with simultaneous
//! moves and chance, each seat played by its own searcher, scored as Koriche et al. score them.
//!
//! `search_core::arena` plays two-player zero-sum games only; these games are general games
//! ([`GeneralGame`]): two rivals (tic-tac-toe, dice duel, rock-paper-scissors, nim, pig), a team
//! of players against chance (matching pennies) or one player (Monty Hall).
//!
//! - **Rivals.** Searcher A takes one seat and B every other (the paper's footnote 5 for three
//!   players); game `i` seats A at `i mod players`, so with two players the colours alternate. A
//!   game is a win for A when its payoff beats every other seat's, a draw when it ties the best.
//! - **Team** (cooperative and one-player games, footnote 6): every seat plays the same searcher,
//!   and a game is a victory when the payoff is positive (our team games pay 0 or a win).
//! - The searchers are built afresh for every game, with seeds derived from the game's key, and
//!   chance's moves are drawn from the same key: same seed, same games, when the searchers
//!   search by sample count. A searcher that names no move, or an illegal one, forfeits: its seat
//!   loses the game.
//! - A game still going after [`MAX_TURNS`] turns in which someone chose a move (pig, nim and their
//!   kind can go round in circles: a player may hold with nothing to bank) ends there with payoff 0
//!   for every seat, the paper's rule for a game that reaches its horizon `T` (Section 5.1).
//! - UCT reports player 0's move at a simultaneous root, so it plays seat `p` through [`Seat`], the
//!   game with players 0 and `p` swapped; MAC-UCB and FC-UCB are told their seat (`player=p`).

use std::time::Duration;

use gametree::game::{
    mix64, ChanceList, Game, GeneralGame, Limits, MoveList, PlayerId, Searcher, Turn,
};
use gametree::games::Registered;
use gametree::registry::{self, Needs};
use gametree::spec::Spec;

use game_trait::hash::{splitmix64, GOLDEN_GAMMA};

/// How the matches of a reproduction are played.
#[derive(Clone, Debug)]
pub struct Setting {
    /// Deliberation time per move.
    pub move_time: Option<Duration>,
    /// Simulations or samples per move (else as many as the time allows).
    pub samples: Option<u64>,
    /// Games per pairing.
    pub games: usize,
    /// More parameters of the MAC-UCB and FC-UCB seats (`confidence=off,c=0.7`), appended to
    /// their specs.
    pub mac_ucb: Option<String>,
}

/// Turns with a choice after which a game ends unfinished (see the [module docs](self)).
pub const MAX_TURNS: u32 = 200;

/// Simulations or samples when the time is the limit: more than any search reaches.
const UNBOUNDED: u64 = 1 << 40;

impl Setting {
    /// The limits of one search by `algo`, its deadline counted from now.
    fn limits(&self, algo: Algo) -> Limits {
        let factor = match algo {
            Algo::UctTimes(k) => k,
            _ => 1,
        };
        match self.move_time {
            Some(t) => Limits::none().with_time(t * factor),
            None => Limits::none(),
        }
    }
}

/// A searcher of the tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algo {
    /// UCT with the cache of explored subtrees (`uct:reuse=true,solver=true`: its tree kept
    /// between moves, completely explored subtrees known exactly), as the paper ran it.
    Uct,
    /// UCT as [`Algo::Uct`], given this many times the setting's budget (simulations and time):
    /// what more search buys on a game.
    UctTimes(u32),
    /// MAC-UCB, with its share of the time to solving (default 0.9, the paper's).
    MacUcb(Option<f64>),
    /// FC-UCB.
    FcUcb,
}

impl Algo {
    /// The paper's name.
    pub fn label(self) -> &'static str {
        match self {
            Algo::Uct | Algo::UctTimes(_) => "UCT",
            Algo::MacUcb(_) => "MAC-UCB",
            Algo::FcUcb => "FC-UCB",
        }
    }

    /// The searcher's spec for `seat`, seeded with `seed`.
    pub fn spec(self, setting: &Setting, seed: u64, seat: PlayerId) -> String {
        let budget = setting.samples.unwrap_or(UNBOUNDED);
        let extra = setting
            .mac_ucb
            .as_ref()
            .map_or(String::new(), |p| format!(",{p}"));
        match self {
            Algo::Uct => format!("uct:reuse=true,solver=true,sims={budget},seed={seed}"),
            Algo::UctTimes(k) => {
                let budget = budget.saturating_mul(u64::from(k));
                format!("uct:reuse=true,solver=true,sims={budget},seed={seed}")
            }
            Algo::FcUcb => format!("fc-ucb:samples={budget},seed={seed},player={seat}{extra}"),
            Algo::MacUcb(share) => {
                let share = share.map_or(String::new(), |s| format!(",share={s}"));
                format!("mac-ucb:samples={budget},seed={seed},player={seat}{share}{extra}")
            }
        }
    }
}

/// Code to run on a game of the tables, whatever its type.
pub trait OnGame {
    /// What it produces.
    type Output;
    /// Runs on `game`.
    fn run<G: Registered + Clone>(self, game: &G) -> Self::Output;
}

/// The result of a pairing, from A's point of view (a team's, for team games).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games decided by a forfeit (either side's).
    pub forfeits: u64,
    /// Games stopped after [`MAX_TURNS`] turns.
    pub unfinished: u64,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The share of victories, a draw counting half, in %.
    pub fn percent(&self) -> f64 {
        let n = self.games() as f64;
        100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// The standard deviation of [`percent`](Self::percent) as an estimate: `sqrt(v / n)`, `v` the
    /// variance of the games' results (1, ½, 0), in %.
    pub fn sigma(&self) -> f64 {
        let n = self.games() as f64;
        let s = self.percent() / 100.0;
        let v = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        100.0 * (v / n).sqrt()
    }
}

/// `game` seen by player `me`: players 0 and `me` swap numbers, the others keep theirs.
#[derive(Clone, Debug)]
pub struct Seat<G> {
    game: G,
    me: PlayerId,
}

impl<G: GeneralGame> Seat<G> {
    /// The swap is its own inverse: it maps seat numbers to game numbers and back.
    fn swap(&self, p: PlayerId) -> PlayerId {
        match p {
            0 => self.me,
            p if p == self.me => 0,
            p => p,
        }
    }
}

impl<G: GeneralGame> Game for Seat<G> {
    type State = G::State;
    type Move = G::Move;

    fn initial_state(&self) -> G::State {
        self.game.initial_state()
    }

    fn identity(&self) -> Option<u64> {
        self.game.identity()
    }

    fn apply(&self, state: &mut G::State, mv: G::Move) -> Option<G::State> {
        self.game.apply(state, mv)
    }

    fn undo(&self, state: &mut G::State, mv: G::Move) {
        self.game.undo(state, mv)
    }

    fn play(&self, state: &mut G::State, mv: G::Move) {
        self.game.play(state, mv)
    }

    fn state_hash(&self, state: &G::State) -> Option<u64> {
        self.game.state_hash(state)
    }

    fn move_name(&self, state: &G::State, mv: G::Move) -> String {
        self.game.move_name(state, mv)
    }
}

impl<G: GeneralGame> GeneralGame for Seat<G> {
    fn players(&self) -> usize {
        self.game.players()
    }

    fn turn(&self, state: &G::State) -> Turn {
        match self.game.turn(state) {
            Turn::Player(p) => Turn::Player(self.swap(p)),
            other => other,
        }
    }

    fn legal_moves(&self, state: &G::State, player: PlayerId, moves: &mut MoveList<G::Move>) {
        self.game.legal_moves(state, self.swap(player), moves)
    }

    fn chance_outcomes(&self, state: &G::State, outcomes: &mut ChanceList<G::Move>) {
        self.game.chance_outcomes(state, outcomes)
    }

    /// `joint` lists the seat's players, then chance: reorder it into the game's numbering.
    fn play_joint(&self, state: &mut G::State, joint: &[G::Move]) {
        let mut ordered = joint.to_vec();
        if self.me < self.game.players().min(joint.len()) {
            ordered.swap(0, self.me);
        }
        self.game.play_joint(state, &ordered)
    }

    fn payoff(&self, state: &G::State, player: PlayerId) -> f64 {
        self.game.payoff(state, self.swap(player))
    }
}

impl<G: Registered + Clone> Registered for Seat<G> {}

/// The searcher of one seat.
enum Agent<G: Registered + Clone> {
    /// A searcher told its seat (MAC-UCB, FC-UCB).
    Own(Box<dyn Searcher<G>>),
    /// A searcher that plays player 0, on the game seen from the seat (UCT).
    Seated(Box<Seat<G>>, Box<dyn Searcher<Seat<G>>>),
}

impl<G: Registered + Clone> Agent<G> {
    fn new(game: &G, spec: &str, me: PlayerId) -> Result<Agent<G>, String> {
        let spec: Spec = spec.parse().map_err(|e| format!("{e}"))?;
        let entry = registry::searcher(spec.name()).map_err(|e| e.to_string())?;
        if entry.needs == Needs::Rounds {
            let built = game.searcher(&spec).map_err(|e| e.to_string())?;
            return Ok(Agent::Own(built.searcher));
        }
        let seat = Box::new(Seat {
            game: game.clone(),
            me,
        });
        let built = seat.searcher(&spec).map_err(|e| e.to_string())?;
        Ok(Agent::Seated(seat, built.searcher))
    }

    fn choose(&mut self, game: &G, state: &G::State, limits: &Limits) -> Option<G::Move> {
        match self {
            Agent::Own(searcher) => searcher.search(game, state, limits).best_move,
            Agent::Seated(seat, searcher) => searcher.search(&**seat, state, limits).best_move,
        }
    }
}

/// How a game ended: every seat's payoff, the seat that forfeited if one did, and whether it was
/// stopped after [`MAX_TURNS`].
struct Ending {
    payoffs: Vec<f64>,
    forfeit: Option<PlayerId>,
    unfinished: bool,
}

impl Ending {
    /// The game is over in `state`.
    fn over<G: GeneralGame>(game: &G, state: &G::State) -> Ending {
        Ending {
            payoffs: (0..game.players()).map(|p| game.payoff(state, p)).collect(),
            forfeit: None,
            unfinished: false,
        }
    }

    /// Seat `p` forfeited: it scores 0, every other seat 1.
    fn forfeited(n: usize, p: PlayerId) -> Ending {
        Ending {
            payoffs: (0..n).map(|q| if q == p { 0.0 } else { 1.0 }).collect(),
            forfeit: Some(p),
            unfinished: false,
        }
    }

    /// The game reached [`MAX_TURNS`]: 0 for everyone.
    fn unfinished(n: usize) -> Ending {
        Ending {
            payoffs: vec![0.0; n],
            forfeit: None,
            unfinished: true,
        }
    }
}

/// A uniform number in `[0, 1)` from the generator `rng` (SplitMix64).
fn uniform(rng: &mut u64) -> f64 {
    *rng = rng.wrapping_add(GOLDEN_GAMMA);
    (mix64(*rng) >> 11) as f64 / (1u64 << 53) as f64
}

/// Chance's move in `state`, if chance moves there.
fn chance<G: GeneralGame>(game: &G, state: &G::State, rng: &mut u64) -> Option<G::Move> {
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    let mut u = uniform(rng);
    for &(mv, p) in &outcomes {
        if u < p {
            return Some(mv);
        }
        u -= p;
    }
    outcomes.last().map(|&(mv, _)| mv)
}

/// Plays one game, seat `p` by `agents[p]`, built for `seats[p]`.
fn play_game<G: Registered + Clone>(
    game: &G,
    (agents, seats): (&mut [Agent<G>], &[Algo]),
    setting: &Setting,
    rng: &mut u64,
) -> Ending {
    let n = game.players();
    let mut state = game.initial_state();
    let mut legal = MoveList::new();
    let mut turns = 0;
    loop {
        let turn = game.turn(&state);
        if turn != Turn::Chance {
            turns += 1;
        }
        let movers = match turn {
            Turn::Over => return Ending::over(game, &state),
            _ if turns > MAX_TURNS => return Ending::unfinished(n),
            Turn::Player(p) => p..p + 1,
            Turn::Simultaneous => 0..n,
            Turn::Chance => 0..0,
        };
        let mut joint = Vec::with_capacity(n + 1);
        for p in movers {
            let mv = agents[p].choose(game, &state, &setting.limits(seats[p]));
            game.legal_moves(&state, p, &mut legal);
            match mv.filter(|mv| legal.contains(mv)) {
                Some(mv) => joint.push(mv),
                None => return Ending::forfeited(n, p),
            }
        }
        joint.extend(chance(game, &state, rng));
        match turn {
            Turn::Simultaneous => game.play_joint(&mut state, &joint),
            _ => game.play(&mut state, joint[0]),
        }
    }
}

/// Plays game `i` of a pairing: seat `p` by `seats[p]`, seeds from `key`.
fn play_seated<G: Registered + Clone>(
    game: &G,
    seats: &[Algo],
    setting: &Setting,
    key: u64,
) -> Result<Ending, String> {
    let mut agents = seats
        .iter()
        .enumerate()
        .map(|(p, algo)| {
            let seed = splitmix64(key ^ p as u64) >> 1;
            Agent::new(game, &algo.spec(setting, seed, p), p)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut rng = key;
    Ok(play_game(game, (&mut agents, seats), setting, &mut rng))
}

/// One game's result from A's (or the team's) point of view: a unit of the MAC-UCB reproductions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameOutcome {
    /// Better (a win), equal (a draw) or worse (a loss) than the best other seat.
    pub result: std::cmp::Ordering,
    /// Whether a forfeit (either side's) decided it.
    pub forfeit: bool,
    /// Whether it was stopped after [`MAX_TURNS`] turns.
    pub unfinished: bool,
}

impl GameOutcome {
    fn new(result: std::cmp::Ordering, end: &Ending) -> GameOutcome {
        GameOutcome {
            result,
            forfeit: end.forfeit.is_some(),
            unfinished: end.unfinished,
        }
    }
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, game: &GameOutcome) {
        match game.result {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Less => self.losses += 1,
        }
        self.forfeits += u64::from(game.forfeit);
        self.unfinished += u64::from(game.unfinished);
    }
}

/// The key of game `i` of a pairing whose key is `key`: a game's seeds depend on its index only.
fn game_key(key: u64, i: usize) -> u64 {
    splitmix64(key ^ splitmix64(i as u64))
}

/// Game `i` of A against B on `game` (rivals; see the [module docs](self)), seeds from `key`.
pub fn rivals_game<G: Registered + Clone>(
    game: &G,
    (a, b): (Algo, Algo),
    setting: &Setting,
    key: u64,
    i: usize,
) -> Result<GameOutcome, String> {
    let n = game.players();
    let seats: Vec<Algo> = (0..n).map(|p| if p == i % n { a } else { b }).collect();
    let end = play_seated(game, &seats, setting, game_key(key, i))?;
    let best_other = (0..n)
        .filter(|&p| p != i % n)
        .map(|p| end.payoffs[p])
        .fold(f64::NEG_INFINITY, f64::max);
    Ok(GameOutcome::new(
        end.payoffs[i % n].total_cmp(&best_other),
        &end,
    ))
}

/// Game `i` of a team of `algo` on every seat of `game` (see the [module docs](self)), seeds from
/// `key`.
pub fn team_game<G: Registered + Clone>(
    game: &G,
    algo: Algo,
    setting: &Setting,
    key: u64,
    i: usize,
) -> Result<GameOutcome, String> {
    let end = play_seated(game, &vec![algo; game.players()], setting, game_key(key, i))?;
    let result = if end.forfeit.is_none() && end.payoffs[0] > 0.0 {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Less
    };
    Ok(GameOutcome::new(result, &end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--mac-ucb`'s parameters reach the MAC-UCB and FC-UCB seats, after the experiment's own,
    /// and not UCT's.
    #[test]
    fn more_parameters_go_to_the_mac_ucb_and_fc_ucb_seats() {
        let setting = Setting {
            move_time: None,
            samples: Some(100),
            games: 1,
            mac_ucb: Some("confidence=off,c=0.7".into()),
        };
        let spec = |algo: Algo| algo.spec(&setting, 5, 1);
        assert_eq!(
            spec(Algo::MacUcb(Some(0.5))),
            "mac-ucb:samples=100,seed=5,player=1,share=0.5,confidence=off,c=0.7"
        );
        assert_eq!(
            spec(Algo::FcUcb),
            "fc-ucb:samples=100,seed=5,player=1,confidence=off,c=0.7"
        );
        assert_eq!(
            spec(Algo::Uct),
            "uct:reuse=true,solver=true,sims=100,seed=5"
        );
    }
}

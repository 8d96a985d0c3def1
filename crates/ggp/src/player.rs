//! [`Player`]: the protocol's state machine. It takes a request body and the instant it arrived,
//! and returns the reply; it knows nothing of sockets, so tests drive it directly.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gametree::game::{ChanceList, Game, GeneralGame, MoveList, PlayerId};
use gametree::gdl::{FluentSet, GdlError, GdlGame, GdlMove, Loader};
use gametree::spec::Spec;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::engine::Engine;
use super::log::Log;
use super::message::{Message, Moves};
use super::sexp::{self, Sexp};

/// The reply to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A protocol answer (`ready`, `done`, a move, the info list): HTTP 200.
    Answer(String),
    /// Not a GGP message: HTTP 400, with the reason.
    BadRequest(String),
    /// A well-formed message the player cannot act on (an unknown match, rules that do not
    /// load): HTTP 400, with the reason.
    Refused(String),
}

/// How the player plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// The name `info` gives.
    pub name: String,
    /// The searcher.
    pub spec: Spec,
    /// The searcher used where `spec`'s does not fit the game (UCT).
    pub fallback: Spec,
    /// Time kept back from every clock for the network and the manager.
    pub margin: Duration,
    /// Seeds the random legal moves played when no search result is usable.
    pub seed: u64,
}

/// The protocol's state: idle, or in one match.
pub struct Player {
    config: Config,
    current: Option<Match>,
    /// The match, while a `play` whose reply was due before its work was done still works on it.
    working: Option<Working>,
    log: Log,
    rng: Pcg64,
    status: Arc<Status>,
}

/// The player's name and whether it is in a match: what `(info)` answers.
#[derive(Debug)]
pub struct Status {
    name: String,
    busy: AtomicBool,
}

impl Status {
    /// `((name NAME) (status available))`, or `busy` during a match.
    pub fn info(&self) -> String {
        let status = if self.busy.load(Ordering::Relaxed) {
            "busy"
        } else {
            "available"
        };
        format!("((name {}) (status {status}))", self.name)
    }
}

/// The most states kept as candidates for the true one in GDL-II play.
const MAX_BELIEFS: usize = 32;
/// The most joint moves of the other roles tried from one candidate state in GDL-II play.
const MAX_JOINTS: usize = 4096;

/// The role this player plays: a player role, or GDL-II's `random` (its index among the roles),
/// which a manager may also hand to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seat {
    /// A player role, by its player number.
    Player(PlayerId),
    /// The `random` role, by its index among all roles.
    Random(usize),
}

/// The seat of `role` (case-insensitive) in `game`.
fn seat(game: &GdlGame, role: &str) -> Option<Seat> {
    let player = (0..game.players()).find(|&p| game.player_name(p).eq_ignore_ascii_case(role));
    let random = || {
        let r = game.roles().iter().position(|r| r == "random")?;
        (game.has_random() && role.eq_ignore_ascii_case("random")).then_some(Seat::Random(r))
    };
    player.map(Seat::Player).or_else(random)
}

/// A match lent to the thread of a `play` that overran its clock: it comes back on `back` when
/// that thread is done, and the moves of the `play`s answered meanwhile are followed then.
struct Working {
    id: String,
    back: Receiver<Match>,
    queued: Vec<Moves>,
    /// What a `play` answers while the match is away (see [`Match::guess`]).
    guess: String,
    play_clock: Duration,
}

/// What a `play` thread hands back: the move spelled, how it was chosen, and whether the moves
/// were followed.
type Played = (String, String, Result<(), String>);

/// A match in progress.
struct Match {
    id: String,
    me: Seat,
    game: GdlGame,
    /// The state played from: the true one, or in GDL-II play the first candidate.
    state: FluentSet,
    /// GDL-II: every state consistent with this player's moves and percepts (at most
    /// [`MAX_BELIEFS`]).
    beliefs: Vec<FluentSet>,
    play_clock: Duration,
    /// The searcher; none for the `random` role, which plays uniformly.
    engine: Option<Engine>,
    /// Lower-case symbol → spelling as received, to answer in the manager's own case.
    spelling: HashMap<String, String>,
    moves: u32,
    /// The last move this player answered, spelled.
    last_answer: Option<String>,
    /// Tests slow the reasoner down by this much per move followed.
    #[cfg(test)]
    slow: Duration,
}

impl Player {
    /// An idle player.
    pub fn new(config: Config, log: Log) -> Player {
        let rng = Pcg64::seed_from_u64(config.seed);
        let status = Arc::new(Status {
            name: config.name.clone(),
            busy: AtomicBool::new(false),
        });
        Player {
            config,
            current: None,
            working: None,
            log,
            rng,
            status,
        }
    }

    /// Writes a line to the player's log.
    pub fn log(&mut self, event: &str, details: &str) {
        self.log.line(event, details);
    }

    /// What `(info)` answers, readable while the player is busy with another request.
    pub fn status(&self) -> Arc<Status> {
        self.status.clone()
    }

    /// Answers the request `body`, which arrived at `arrived` (the clocks run from then).
    pub fn handle(&mut self, body: &str, arrived: Instant) -> Reply {
        let reply = match Message::parse(body) {
            Ok(message) => self.answer(message, arrived),
            Err(e) => {
                self.log("bad-request", &e.to_string());
                Reply::BadRequest(e.to_string())
            }
        };
        let busy = self.current.is_some() || self.working.is_some();
        self.status.busy.store(busy, Ordering::Relaxed);
        reply
    }

    fn answer(&mut self, message: Message, arrived: Instant) -> Reply {
        match message {
            Message::Info => Reply::Answer(self.status.info()),
            Message::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => self.start(id, &role, &rules, (start_clock, play_clock), arrived),
            Message::Play { id, moves } => self.play(&id, &moves, arrived),
            Message::Stop { id, moves } => self.stop(&id, &moves),
            Message::Abort { id } => self.abort(&id),
            Message::Preview { .. } => {
                let answer = if self.current.is_some() || self.working.is_some() {
                    "busy"
                } else {
                    "ready"
                };
                self.log("preview", answer);
                Reply::Answer(answer.into())
            }
        }
    }

    /// The time a reply may take under `clock`: the clock less the margin, or half the clock
    /// when the margin is not smaller than it.
    fn budget(&self, clock: Duration) -> Duration {
        if clock > self.config.margin {
            clock - self.config.margin
        } else {
            clock / 2
        }
    }
}

/// Loading and starting a match.
impl Player {
    fn start(
        &mut self,
        id: String,
        role: &str,
        rules: &[Sexp],
        (start_clock, play_clock): (Duration, Duration),
        arrived: Instant,
    ) -> Reply {
        if let Some(old) = self.current.take() {
            self.log("abort", &format!("{} (a new match starts)", old.id));
        }
        if let Some(old) = self.working.take() {
            // Its thread finishes on its own and drops the match.
            self.log("abort", &format!("{} (a new match starts)", old.id));
        }
        let budget = self.budget(start_clock);
        let game = match load(rules, &id, budget) {
            Ok(game) => game,
            Err(e) => return self.refuse("start", &format!("{id}: the rules do not load: {e}")),
        };
        let Some(me) = seat(&game, role) else {
            return self.refuse(
                "start",
                &format!("{id}: `{role}` is not a role of the game"),
            );
        };
        let engine = match me {
            Seat::Player(p) => match self.engine(&game, p, arrived + budget) {
                Ok(engine) => Some(engine),
                Err(e) => return self.refuse("start", &format!("{id}: {e}")),
            },
            Seat::Random(_) => None,
        };
        let mut spelling = HashMap::new();
        for clause in rules {
            learn_spelling(&mut spelling, clause);
        }
        self.log(
            "start",
            &format!(
                "{id} role={role} searcher={} reasoner={:?} load_ms={}",
                engine
                    .as_ref()
                    .map_or("uniform (the random role)", |e| &e.spec),
                game.reasoner_kind(),
                arrived.elapsed().as_millis()
            ),
        );
        let state = game.initial_state();
        let mut engine = engine;
        if let Some(engine) = engine.as_mut() {
            // The rest of the start clock grows the tree the first `play` starts from.
            engine.warm_up(&state, arrived + budget);
        }
        self.current = Some(Match {
            id,
            me,
            beliefs: vec![state.clone()],
            state,
            game,
            play_clock,
            engine,
            spelling,
            moves: 0,
            last_answer: None,
            #[cfg(test)]
            slow: Duration::ZERO,
        });
        Reply::Answer("ready".into())
    }

    /// The configured searcher, or the fallback where it does not fit the game.
    fn engine(
        &mut self,
        game: &GdlGame,
        me: PlayerId,
        ready_by: Instant,
    ) -> Result<Engine, String> {
        match Engine::start(game.clone(), me, &self.config.spec, ready_by) {
            Ok(engine) => Ok(engine),
            Err(why) => {
                self.log(
                    "searcher",
                    &format!("{why}; playing {}", self.config.fallback),
                );
                // UCT builds without looking at the game: the clock cannot refuse it.
                let no_later = ready_by.max(Instant::now() + Duration::from_secs(1));
                Engine::start(game.clone(), me, &self.config.fallback, no_later)
            }
        }
    }

    fn refuse(&mut self, event: &str, why: &str) -> Reply {
        self.log(event, &format!("refused: {why}"));
        Reply::Refused(why.to_string())
    }
}

/// Playing, stopping, aborting.
impl Player {
    /// Everything a `play` asks of the reasoner (following the moves, the legal moves, the
    /// search) runs on a thread of its own, against the clock from the request's arrival. If
    /// that thread has not answered when the reply is due, the reply is [`Match::guess`], and the
    /// match stays with the thread until it is done; the moves of later `play`s are queued.
    fn play(&mut self, id: &str, moves: &Moves, arrived: Instant) -> Reply {
        let play_clock = match (&self.current, &self.working) {
            (Some(m), _) if m.id == id => m.play_clock,
            (_, Some(w)) if w.id == id => w.play_clock,
            _ => return self.refuse("play", &format!("no match `{id}` in progress")),
        };
        let budget = self.budget(play_clock);
        let reply_by = arrived + budget;
        // The search stops early enough for the reply to be written and sent.
        let reserve = (budget / 10).clamp(Duration::from_millis(20), Duration::from_millis(250));
        let deadline = reply_by.checked_sub(reserve).unwrap_or(arrived);
        let mut queued = Vec::new();
        if let Some(w) = self.working.take() {
            match w
                .back
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(m) => {
                    self.current = Some(m);
                    queued = w.queued;
                }
                Err(RecvTimeoutError::Timeout) => {
                    let guess = w.guess.clone();
                    let mut w = w;
                    w.queued.push(moves.clone());
                    self.working = Some(w);
                    let line = format!(
                        "{id} move={guess} how=guessed (the last play's reasoning is not done) \
                         ms={} budget_ms={}",
                        arrived.elapsed().as_millis(),
                        budget.as_millis()
                    );
                    self.log("play", &line);
                    return Reply::Answer(guess);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return self.refuse("play", &format!("{id}: the match was lost"));
                }
            }
        }
        let Some(mut m) = self.current.take() else {
            return Reply::Refused("no match".into());
        };
        let guess = m.guess();
        let (played, back) = (channel::<std::thread::Result<Played>>(), channel::<Match>());
        let mut rng = Pcg64::seed_from_u64(self.rng.gen());
        let moves = moves.clone();
        let work = move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                let mut followed = Ok(());
                for earlier in queued.iter().chain([&moves]) {
                    if let Err(e) = m.follow(earlier) {
                        followed = Err(e);
                    }
                }
                let (mv, how) = m.choose(deadline, reply_by, &mut rng);
                let text = m.spell(mv);
                m.moves += 1;
                m.last_answer = Some(text.clone());
                (text, how, followed)
            }));
            let _ = played.0.send(result);
            let _ = back.0.send(m);
        };
        if let Err(e) = std::thread::Builder::new()
            .name("ggp-play".into())
            .spawn(work)
        {
            // The match went down with the closure.
            return self.refuse("play", &format!("{id}: cannot start a thread: {e}"));
        }
        let answer = played
            .1
            .recv_timeout(reply_by.saturating_duration_since(Instant::now()));
        let text = match answer {
            Ok(Ok((text, how, followed))) => {
                // The thread hands the match back right after its answer.
                match back.1.recv() {
                    Ok(m) => self.current = Some(m),
                    Err(_) => self.log("play", &format!("{id}: the match was lost")),
                }
                if let Err(e) = followed {
                    self.log("desync", &format!("{id}: {e}"));
                }
                let line = format!(
                    "{id} move={text} how={how} ms={} budget_ms={}",
                    arrived.elapsed().as_millis(),
                    budget.as_millis()
                );
                self.log("play", &line);
                return Reply::Answer(text);
            }
            Ok(Err(_)) => {
                self.current = back.1.recv().ok();
                self.log(
                    "panic",
                    &format!("{id}: playing panicked; answering a guess"),
                );
                guess.clone()
            }
            Err(_) => {
                self.working = Some(Working {
                    id: id.to_string(),
                    back: back.1,
                    queued: Vec::new(),
                    guess: guess.clone(),
                    play_clock,
                });
                let line = format!(
                    "{id} move={guess} how=guessed (the reasoner was not done by the reply) \
                     ms={} budget_ms={}",
                    arrived.elapsed().as_millis(),
                    budget.as_millis()
                );
                self.log("play", &line);
                guess.clone()
            }
        };
        Reply::Answer(text)
    }

    /// Takes the match back from a `play` thread still working on it, waiting until `until` at
    /// most; `false` if it is not back by then.
    fn reclaim(&mut self, until: Instant) -> bool {
        let Some(w) = self.working.take() else {
            return true;
        };
        match w
            .back
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            Ok(mut m) => {
                for moves in &w.queued {
                    if let Err(e) = m.follow(moves) {
                        self.log("desync", &format!("{}: {e}", w.id));
                    }
                }
                self.current = Some(m);
                true
            }
            Err(RecvTimeoutError::Timeout) => {
                self.working = Some(w);
                false
            }
            Err(RecvTimeoutError::Disconnected) => true,
        }
    }

    fn stop(&mut self, id: &str, moves: &Moves) -> Reply {
        if let Some(w) = &self.working {
            let until = Instant::now() + self.budget(w.play_clock);
            if w.id == id && !self.reclaim(until) {
                self.working = None;
                self.log(
                    "stop",
                    &format!("{id}: still reasoning on the last play; goals unknown"),
                );
                return Reply::Answer("done".into());
            }
        }
        match self.current.take() {
            Some(mut m) if m.id == id => {
                if let Err(e) = m.follow(moves) {
                    self.log("desync", &format!("{id}: {e}"));
                }
                let goals = m.goals();
                self.log("stop", &format!("{id} moves={} goals={goals}", m.moves));
            }
            other => {
                self.current = other;
                self.log("stop", &format!("{id}: no such match in progress"));
            }
        }
        Reply::Answer("done".into())
    }

    fn abort(&mut self, id: &str) -> Reply {
        if self.working.as_ref().is_some_and(|w| w.id == id) {
            // Its thread finishes on its own and drops the match.
            self.working = None;
            self.log("abort", id);
            return Reply::Answer("done".into());
        }
        match self.current.take() {
            Some(m) if m.id == id => self.log("abort", id),
            other => {
                self.current = other;
                self.log("abort", &format!("{id}: no such match in progress"));
            }
        }
        Reply::Answer("done".into())
    }

    /// A legal move of the current match, for when handling a request failed unexpectedly.
    pub fn emergency_move(&mut self) -> Option<String> {
        let m = self.current.as_mut()?;
        let mv = m.random_legal(&mut self.rng)?;
        Some(m.spell(Some(mv)))
    }
}

/// The least time to answer a `start` in which the player builds a hybrid reasoner.
const HYBRID_START_CLOCK: Duration = Duration::from_secs(10);

/// Loads the rules of a `start` within `budget`, the time to answer it.
fn load(rules: &[Sexp], id: &str, budget: Duration) -> Result<GdlGame, GdlError> {
    let text: Vec<String> = rules.iter().map(Sexp::to_string).collect();
    let mut limits = gametree::gdl::Limits::default();
    // Loading must leave time to start the searcher and reply; grounding gets part of it so
    // that a game too large to ground in time is played by the reference reasoner instead.
    limits.time = budget.mul_f64(0.8).max(Duration::from_millis(100));
    limits.ground_time = limits.time.mul_f64(0.6);
    // A game manager's rulesheet is played if any reading of it can be: a rejected game forfeits
    // the match. GGP Base, where most rulesheets come from, accepts unsafe variables.
    limits.unsafe_variables = gametree::gdl::UnsafeVariables::RangeOverGroundTerms;
    // A description too large to ground whole is played by the hybrid reasoner where the start
    // clock leaves time to build it (GGP Base's chess: 2.3-3.6 s, then twice the reference
    // reasoner's playouts), by the reference reasoner otherwise.
    if budget >= HYBRID_START_CLOCK {
        limits.hybrid_relation_atoms = gametree::gdl::Limits::HYBRID_RELATION_ATOMS;
    }
    Loader::text(&text.join("\n"))
        .name(id)
        .limits(&limits)
        .load()
}

/// Records the spelling of every atom of `clause`, keyed by its lower case.
fn learn_spelling(spelling: &mut HashMap<String, String>, clause: &Sexp) {
    let mut atoms = Vec::new();
    clause.atoms(&mut atoms);
    for a in atoms {
        spelling
            .entry(a.to_lowercase())
            .or_insert_with(|| a.to_string());
    }
}

impl Match {
    /// Advances the state by the moves of a `play` or `stop`.
    fn follow(&mut self, moves: &Moves) -> Result<(), String> {
        #[cfg(test)]
        std::thread::sleep(self.slow);
        match moves {
            Moves::None => Ok(()),
            Moves::Joint(list) => {
                let (joint, complete) = self.joint(list)?;
                self.game.play_joint(&mut self.state, &joint);
                self.beliefs = vec![self.state.clone()];
                match complete {
                    true => Ok(()),
                    false => Err(
                        "the random role's move was not given; its first legal move \
                                  was assumed"
                            .into(),
                    ),
                }
            }
            Moves::Private {
                last_move,
                percepts,
                ..
            } => self.follow_private(last_move.as_ref(), percepts),
        }
    }

    /// The joint move (players in order, then chance) that `list` names: one move per role in
    /// the order of the rules, `random` included or left out; and whether it is complete (false
    /// when `random` had a choice and its move was left out).
    fn joint(&self, list: &[Sexp]) -> Result<(Vec<GdlMove>, bool), String> {
        let roles = self.game.roles();
        let players = self.game.players();
        let named: Vec<&str> = if list.len() == roles.len() {
            roles.iter().map(String::as_str).collect()
        } else if list.len() == players {
            (0..players).map(|p| self.game.player_name(p)).collect()
        } else {
            return Err(format!("{} moves for {} roles", list.len(), roles.len()));
        };
        let mut joint = vec![GdlMove(u32::MAX); players];
        let mut chance = None;
        let mut legal = MoveList::new();
        for (role, text) in named.iter().zip(list) {
            let mv = self
                .game
                .find_move(&text.to_string())
                .ok_or_else(|| format!("`{text}` of {role} is no move of the game"))?;
            match (0..players).find(|&p| self.game.player_name(p) == *role) {
                Some(p) => {
                    self.game.legal_moves(&self.state, p, &mut legal);
                    if !legal.contains(&mv) {
                        return Err(format!("`{text}` is not legal for {role}"));
                    }
                    joint[p] = mv;
                }
                None => {
                    let r = roles.iter().position(|r| r == role).unwrap_or(usize::MAX);
                    if !self.game.role_moves(&self.state, r).contains(&mv) {
                        return Err(format!("`{text}` is not legal for {role}"));
                    }
                    chance = Some(mv);
                }
            }
        }
        let mut outcomes = ChanceList::new();
        self.game.chance_outcomes(&self.state, &mut outcomes);
        let complete = chance.is_some() || outcomes.is_empty();
        joint.extend(chance);
        Ok((joint, complete))
    }

    /// GDL-II: keeps the candidate states in which this player's last move leads to exactly the
    /// percepts received, and plays from the first.
    fn follow_private(&mut self, mine: Option<&Sexp>, percepts: &[Sexp]) -> Result<(), String> {
        let Some(mine) = mine else { return Ok(()) };
        let Seat::Player(me) = self.me else {
            return Err("GDL-II percepts are followed for player roles only".into());
        };
        let mv = self
            .game
            .find_move(&mine.to_string())
            .ok_or_else(|| format!("`{mine}` is no move of the game"))?;
        let mut seen: Vec<String> = percepts
            .iter()
            .map(|p| p.to_string().to_lowercase())
            .collect();
        seen.sort();
        let role = self.game.player_name(me).to_string();
        let mut next: Vec<FluentSet> = Vec::new();
        let mut any = None;
        for state in &self.beliefs {
            for joint in joints(&self.game, state, me, mv) {
                let mut s = state.clone();
                self.game.play_joint(&mut s, &joint);
                let mut got: Vec<String> = self
                    .game
                    .percepts(state, &joint)
                    .into_iter()
                    .filter(|(r, _)| *r == role)
                    .map(|(_, p)| p)
                    .collect();
                got.sort();
                if got == seen && !next.contains(&s) && next.len() < MAX_BELIEFS {
                    next.push(s);
                } else if any.is_none() {
                    any = Some(s);
                }
            }
        }
        let consistent = !next.is_empty();
        if !consistent {
            next.extend(any);
        }
        if let Some(first) = next.first() {
            self.state = first.clone();
            self.beliefs = next;
        }
        if consistent {
            Ok(())
        } else {
            Err("no state explains the percepts; playing from a guess".into())
        }
    }
}

/// Every joint move (players, then chance when it has a choice) in which player `me` plays
/// `mine`, at most [`MAX_JOINTS`].
fn joints(game: &GdlGame, state: &FluentSet, me: PlayerId, mine: GdlMove) -> Vec<Vec<GdlMove>> {
    let mut options: Vec<Vec<GdlMove>> = Vec::new();
    let mut legal = MoveList::new();
    for p in 0..game.players() {
        game.legal_moves(state, p, &mut legal);
        if p == me {
            options.push(vec![mine]);
        } else {
            options.push(legal.iter().copied().collect());
        }
    }
    let mut chance = ChanceList::new();
    game.chance_outcomes(state, &mut chance);
    if !chance.is_empty() {
        options.push(chance.iter().map(|&(m, _)| m).collect());
    }
    let mut out: Vec<Vec<GdlMove>> = vec![Vec::new()];
    for choices in options {
        let mut grown = Vec::new();
        'outer: for prefix in &out {
            for &c in &choices {
                if grown.len() >= MAX_JOINTS {
                    break 'outer;
                }
                let mut j = prefix.clone();
                j.push(c);
                grown.push(j);
            }
        }
        out = grown;
    }
    out
}

/// Choosing and printing moves.
impl Match {
    /// This player's move: the searcher's if it answers in time with a legal move, otherwise a
    /// random legal one. `None` only if the player has no legal move (the game is over).
    fn choose(
        &mut self,
        deadline: Instant,
        reply_by: Instant,
        rng: &mut Pcg64,
    ) -> (Option<GdlMove>, String) {
        let legal = self.my_moves();
        match legal.len() {
            0 => return (None, "none".into()),
            1 => return (Some(legal[0]), "forced".into()),
            _ => {}
        }
        let wait_until = reply_by
            .checked_sub(Duration::from_millis(5))
            .unwrap_or(reply_by);
        // The fallback is drawn from the moves computed before the search: asking the reasoner
        // again after a timeout could itself make the reply late.
        let random = legal[rng.gen_range(0..legal.len())];
        let Some(engine) = self.engine.as_mut() else {
            return (Some(random), "random (the random role)".into());
        };
        match engine.search(&self.state, deadline, wait_until) {
            Ok(Some(mv)) if legal.contains(&mv) => (Some(mv), "searched".into()),
            Ok(_) => (
                Some(random),
                "random (no legal move from the search)".into(),
            ),
            Err(e) => (Some(random), format!("random ({e})")),
        }
    }

    fn random_legal(&self, rng: &mut Pcg64) -> Option<GdlMove> {
        let legal = self.my_moves();
        (!legal.is_empty()).then(|| legal[rng.gen_range(0..legal.len())])
    }

    /// What to answer when the reasoner is not done by the time the reply is due: `noop` (in the
    /// manager's spelling) if the game has it, as it is most often legal in the turn-taking games
    /// where reasoning is slow; otherwise this player's last answer. It may be illegal: a manager
    /// then plays a legal move for this player, as it does for a late reply.
    fn guess(&self) -> String {
        match self.game.find_move("noop") {
            Some(noop) => self.spell(Some(noop)),
            None => self.last_answer.clone().unwrap_or_else(|| "nil".into()),
        }
    }

    /// This role's legal moves in the current state.
    fn my_moves(&self) -> Vec<GdlMove> {
        match self.me {
            Seat::Player(p) => {
                let mut legal = MoveList::new();
                self.game.legal_moves(&self.state, p, &mut legal);
                legal.to_vec()
            }
            Seat::Random(r) => self.game.role_moves(&self.state, r),
        }
    }

    /// The move in KIF, in the spelling of the rules received (`nil` for none).
    fn spell(&self, mv: Option<GdlMove>) -> String {
        let Some(mv) = mv else { return "nil".into() };
        let text = self.game.move_term(mv);
        match sexp::parse(&text) {
            Ok(s) => s
                .map_atoms(&|a| {
                    self.spelling
                        .get(a)
                        .cloned()
                        .unwrap_or_else(|| a.to_string())
                })
                .to_string(),
            Err(_) => text,
        }
    }

    /// The goal values, `(role value)…`, in the current state.
    fn goals(&self) -> String {
        let goals = self.game.goals(&self.state);
        (0..self.game.players())
            .map(|p| {
                let g = goals.get(p).copied().flatten();
                format!(
                    "({} {})",
                    self.game.player_name(p),
                    g.map_or("none".into(), |g| g.to_string())
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(name: &str) -> String {
        let path = format!("{}/../gdl/games/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    }

    fn player() -> Player {
        let spec: Spec = "uct:sims=200".parse().unwrap();
        let config = Config {
            name: "tester".into(),
            spec: spec.clone(),
            fallback: spec,
            margin: Duration::from_millis(100),
            seed: 3,
        };
        Player::new(config, Log::quiet())
    }

    fn answer(p: &mut Player, text: &str) -> String {
        match p.handle(text, Instant::now()) {
            Reply::Answer(a) => a,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn plays_a_match_and_echoes_the_managers_spelling() {
        let mut p = player();
        assert_eq!(
            answer(&mut p, "(info)"),
            "((name tester) (status available))"
        );
        let rules = game("tictactoe.kif").replace("mark", "MARK");
        assert_eq!(
            answer(&mut p, &format!("(start m XPLAYER ({rules}) 5 1)")),
            "ready"
        );
        assert!(answer(&mut p, "(info)").contains("busy"));
        let first = answer(&mut p, "(PLAY m NIL)");
        assert!(first.starts_with("(MARK "), "{first}");
        assert_eq!(answer(&mut p, &format!("(play m ({first} noop))")), "noop");
        assert_eq!(answer(&mut p, "(stop m nil)"), "done");
        assert!(answer(&mut p, "(info)").contains("available"));
    }

    #[test]
    fn refuses_unknown_matches_and_garbage_and_restarts_on_start() {
        let mut p = player();
        assert!(matches!(
            p.handle("(play x nil)", Instant::now()),
            Reply::Refused(_)
        ));
        assert!(matches!(
            p.handle("hello", Instant::now()),
            Reply::BadRequest(_)
        ));
        let rules = game("tictactoe.kif");
        answer(&mut p, &format!("(start a xplayer ({rules}) 5 1)"));
        answer(&mut p, &format!("(start b oplayer ({rules}) 5 1)"));
        assert!(matches!(
            p.handle("(play a nil)", Instant::now()),
            Reply::Refused(_)
        ));
        assert_eq!(answer(&mut p, "(play b nil)"), "noop");
        assert!(matches!(
            p.handle("(start c nobody ((role x)) 5 1)", Instant::now()),
            Reply::Refused(_)
        ));
        assert_eq!(answer(&mut p, "(abort b)"), "done");
    }

    #[test]
    fn follows_gdl_ii_percepts_to_the_consistent_states() {
        let mut p = player();
        answer(
            &mut p,
            &format!("(start mh candidate ({}) 5 1)", game("montyhall.kif")),
        );
        let choice = answer(&mut p, "(play mh 0 nil nil)");
        assert!(choice.starts_with("(choose "), "{choice}");
        let door = &choice[8..9];
        assert_eq!(
            answer(&mut p, &format!("(play mh 1 {choice} ((chosen {door})))")),
            "noop"
        );
        assert_eq!(p.current.as_ref().unwrap().beliefs.len(), 3);
        let opened = ["1", "2", "3"].into_iter().find(|d| *d != door).unwrap();
        let last = answer(&mut p, &format!("(play mh 2 noop ((opened {opened})))"));
        assert!(["noop", "switch"].contains(&last.as_str()), "{last}");
        assert_eq!(p.current.as_ref().unwrap().beliefs.len(), 2);
        assert_eq!(
            answer(&mut p, &format!("(stop mh 3 {last} ((car {door})))")),
            "done"
        );
    }

    /// A reasoner slower than the clock: the reply is a guess on time, the match stays with the
    /// reasoner, the moves of the `play`s answered meanwhile are queued, and once the reasoner
    /// has caught up the player plays from the state all those moves lead to.
    #[test]
    fn a_reasoner_slower_than_the_clock_is_answered_for_in_time() {
        let mut p = player();
        answer(
            &mut p,
            &format!("(start m xplayer ({}) 5 1)", game("tictactoe.kif")),
        );
        p.current.as_mut().unwrap().slow = Duration::from_millis(150);
        p.config.margin = Duration::from_millis(900); // 100 ms to answer
        for moves in ["nil", "((mark 1 1) noop)"] {
            let asked = Instant::now();
            assert_eq!(answer(&mut p, &format!("(play m {moves})")), "noop");
            let took = asked.elapsed();
            assert!(took < Duration::from_millis(140), "{moves}: {took:?}");
            assert!(p.working.is_some(), "{moves}");
        }
        // A clock the reasoner fits in: it catches up and searches from where x and o played,
        // where (mark 1 1) and (mark 2 2) are taken.
        p.config.margin = Duration::from_millis(100);
        let mv = answer(&mut p, "(play m (noop (mark 2 2)))");
        assert!(mv.starts_with("(mark "), "{mv}");
        assert!(!["(mark 1 1)", "(mark 2 2)"].contains(&mv.as_str()), "{mv}");
        assert!(p.working.is_none());
        assert_eq!(answer(&mut p, "(stop m nil)"), "done");
    }

    #[test]
    fn plays_the_random_role_uniformly_when_handed_it() {
        let mut p = player();
        answer(
            &mut p,
            &format!("(start mh RANDOM ({}) 5 1)", game("montyhall.kif")),
        );
        let hide = answer(&mut p, "(play mh nil)");
        assert!(hide.starts_with("(hide_car "), "{hide}");
        let open = answer(&mut p, &format!("(play mh ((choose 1) {hide}))"));
        assert!(open.starts_with("(open_door "), "{open}");
        assert_ne!(&open[11..12], "1", "the chosen door is never opened");
        assert_ne!(open[11..12], hide[10..11], "the car's door is never opened");
        assert_eq!(answer(&mut p, &format!("(play mh (noop {open}))")), "noop");
    }

    #[test]
    fn follows_the_random_roles_move_when_the_manager_gives_it() {
        let mut p = player();
        let rules = game("montyhall.kif");
        answer(&mut p, &format!("(start a candidate ({rules}) 5 1)"));
        answer(&mut p, "(play a nil)");
        // An illegal move of `random` is not followed: the candidate still chooses a door.
        let again = answer(&mut p, "(play a ((choose 1) (open_door 1)))");
        assert!(again.starts_with("(choose "), "{again}");
        assert_eq!(answer(&mut p, "(play a ((choose 1) (hide_car 2)))"), "noop");
        answer(&mut p, &format!("(start b candidate ({rules}) 5 1)"));
        answer(&mut p, "(play b nil)");
        // Without `random`'s move the player assumes one and plays on.
        assert_eq!(answer(&mut p, "(play b ((choose 1)))"), "noop");
    }

    /// Mutations of real messages (cut, spliced, with stray parentheses and symbols) are
    /// answered or refused, never a panic, and the player still plays afterwards.
    #[test]
    fn mangled_messages_never_break_the_player() {
        let mut p = player();
        p.config.margin = Duration::from_millis(990);
        let rules = game("tictactoe.kif");
        let seeds = [
            format!("(start m xplayer ({rules}) 1 1)"),
            "(play m nil)".to_string(),
            "(play m ((mark 1 1) noop))".to_string(),
            "(play m 2 (mark 1 1) ((cell 1 1 x)))".to_string(),
            "(stop m (noop (mark 2 2)))".to_string(),
            "(info)".to_string(),
            "(abort m)".to_string(),
        ];
        let mut rng = Pcg64::seed_from_u64(11);
        let mut answered = 0;
        for _ in 0..1500 {
            let mut text: Vec<char> = seeds[rng.gen_range(0..seeds.len())].chars().collect();
            for _ in 0..rng.gen_range(1..3) {
                mutate(&mut text, &mut rng);
            }
            let text: String = text.into_iter().collect();
            answered += usize::from(matches!(p.handle(&text, Instant::now()), Reply::Answer(_)));
        }
        // Mutations that keep a message well-formed are answered, the others refused.
        assert!((100..1400).contains(&answered), "{answered} answered");
        answer(&mut p, &seeds[0]);
        assert!(answer(&mut p, "(play m nil)").starts_with("(mark "));
    }

    fn mutate(text: &mut Vec<char>, rng: &mut Pcg64) {
        let at = rng.gen_range(0..=text.len());
        let pieces = ['(', ')', ' ', ';', '\n', '?', 'x', '1', 'é', '\u{0}'];
        match rng.gen_range(0..4) {
            0 => text.truncate(at),
            1 => text.insert(at, pieces[rng.gen_range(0..pieces.len())]),
            2 if at < text.len() => {
                let end = rng.gen_range(at..text.len());
                text.drain(at..end);
            }
            _ => {
                let end = rng.gen_range(at..=text.len());
                let chunk: Vec<char> = text[at..end].to_vec();
                text.splice(at..at, chunk);
            }
        }
    }
}

//! A small game manager for local matches and tests: it sends the GGP protocol's requests to one
//! player per role, keeps the true state, replaces a missing, illegal or late move by a random
//! legal one (and records the error), plays the `random` role itself, and records the match as
//! JSON lines. A test harness, not a tournament server.

use std::io::Write;
use std::time::{Duration, Instant};

use gametree::game::{Game, GeneralGame};
use gametree::gdl::{FluentSet, GdlGame, GdlMove};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::{json, Value};

/// Time allowed past a clock for the HTTP exchange before a reply counts as missing (a reply
/// after the clock but within this grace is read, and recorded as late).
const GRACE: Duration = Duration::from_secs(2);
/// The most steps a match may take: a game description whose play never ends is stopped here.
const MAX_STEPS: u32 = 10_000;

/// A match to run.
pub struct MatchSetup {
    /// The match id sent to the players.
    pub id: String,
    /// The game, for the true state and legality.
    pub game: GdlGame,
    /// The rules as sent, in KIF.
    pub rules: String,
    /// One player URL per player role, in the order of the rules.
    pub players: Vec<String>,
    /// The start clock.
    pub start_clock: Duration,
    /// The play clock.
    pub play_clock: Duration,
    /// Seeds the random moves (the `random` role's, and the replacements).
    pub seed: u64,
}

/// One player's answer to one request.
struct Answer {
    text: Option<String>,
    elapsed: Duration,
    error: Option<String>,
}

/// The match's JSON lines, written as they happen.
pub struct Record<'a> {
    out: &'a mut dyn Write,
}

impl Record<'_> {
    /// A record written to `out`.
    pub fn new(out: &mut dyn Write) -> Record<'_> {
        Record { out }
    }

    fn line(&mut self, value: &Value) -> Result<(), String> {
        writeln!(self.out, "{value}")
            .and_then(|_| self.out.flush())
            .map_err(|e| format!("cannot write the record: {e}"))
    }
}

/// Sends `body` to every player at once and waits for all answers (each within `clock` + grace).
fn ask_all(
    agent: &ureq::Agent,
    players: &[String],
    body: &[String],
    clock: Duration,
) -> Vec<Answer> {
    std::thread::scope(|scope| {
        let asks: Vec<_> = players
            .iter()
            .zip(body)
            .map(|(url, body)| scope.spawn(move || ask(agent, url, body, clock)))
            .collect();
        asks.into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| Answer {
                    text: None,
                    elapsed: Duration::ZERO,
                    error: Some("the request thread failed".into()),
                })
            })
            .collect()
    })
}

fn ask(agent: &ureq::Agent, url: &str, body: &str, clock: Duration) -> Answer {
    let sent = Instant::now();
    let result = agent
        .post(url)
        .timeout(clock + GRACE)
        .set("Content-Type", "text/acl")
        .send_string(body);
    let text = match result {
        Ok(response) => response.into_string().map_err(|e| e.to_string()),
        Err(ureq::Error::Status(code, response)) => Err(format!(
            "HTTP {code}: {}",
            response.into_string().unwrap_or_default().trim()
        )),
        Err(e) => Err(e.to_string()),
    };
    let elapsed = sent.elapsed();
    match text {
        Ok(text) => Answer {
            error: (elapsed > clock).then(|| format!("late: {} ms", elapsed.as_millis())),
            text: Some(text.trim().to_string()),
            elapsed,
        },
        Err(e) => Answer {
            text: None,
            elapsed,
            error: Some(e),
        },
    }
}

/// What the match ended with: goal values per player role, and the number of errors recorded.
pub struct Outcome {
    /// `(role, goal)` per player role.
    pub goals: Vec<(String, Option<u8>)>,
    /// Steps played.
    pub steps: u32,
    /// Errors recorded (late, illegal or missing replies).
    pub errors: usize,
}

/// Runs the match, writing its record to `record`.
pub fn run(setup: &MatchSetup, record: &mut Record<'_>) -> Result<Outcome, String> {
    let mut m = Match {
        agent: ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .build(),
        setup,
        rng: Pcg64::seed_from_u64(setup.seed),
        errors: 0,
        steps: 0,
    };
    m.start(record)?;
    let mut state = setup.game.initial_state();
    let mut last: Option<Vec<String>> = None;
    while !setup.game.is_terminal(&state) && m.steps < MAX_STEPS {
        let names = m.step(&mut state, last.as_deref(), record)?;
        last = Some(names);
    }
    m.stop(&state, last.as_deref(), record)
}

/// A match in progress, on the manager's side.
struct Match<'a> {
    agent: ureq::Agent,
    setup: &'a MatchSetup,
    rng: Pcg64,
    errors: usize,
    steps: u32,
}

impl Match<'_> {
    /// Sends `start` to every player and records their replies.
    fn start(&mut self, record: &mut Record<'_>) -> Result<(), String> {
        let (setup, game) = (self.setup, &self.setup.game);
        let starts: Vec<String> = (0..game.players())
            .map(|p| {
                format!(
                    "(start {} {} ({}) {} {})",
                    setup.id,
                    game.player_name(p),
                    setup.rules,
                    setup.start_clock.as_secs_f64(),
                    setup.play_clock.as_secs_f64()
                )
            })
            .collect();
        let answers = ask_all(&self.agent, &setup.players, &starts, setup.start_clock);
        let replies = answers_json(game, &answers, "ready");
        self.errors += count_errors(&replies);
        record.line(&json!({
            "type": "start", "match": setup.id, "roles": game.roles(), "players": setup.players,
            "start_clock": setup.start_clock.as_secs_f64(),
            "play_clock": setup.play_clock.as_secs_f64(), "replies": replies,
        }))
    }

    /// Asks every player for its move after `last`, plays the joint move on `state`, records
    /// the step, and returns the moves played, in the order of the roles.
    fn step(
        &mut self,
        state: &mut FluentSet,
        last: Option<&[String]>,
        record: &mut Record<'_>,
    ) -> Result<Vec<String>, String> {
        let (setup, game) = (self.setup, &self.setup.game);
        let body = vec![format!("(play {} {})", setup.id, moves_text(last)); game.players()];
        let answers = ask_all(&self.agent, &setup.players, &body, setup.play_clock);
        let (joint, errors) = referee(game, state, &answers, &mut self.rng);
        self.errors += errors.len();
        self.steps += 1;
        let names: Vec<String> = joint.iter().map(|&m| game.move_term(m)).collect();
        record.line(&json!({
            "type": "step", "step": self.steps, "moves": names,
            "ms": answers.iter().map(|a| a.elapsed.as_millis() as u64).collect::<Vec<_>>(),
            "errors": errors,
        }))?;
        play_roles(game, state, &joint);
        Ok(names)
    }

    /// Sends `stop` to every player, records the goals, and ends the match.
    fn stop(
        mut self,
        state: &FluentSet,
        last: Option<&[String]>,
        record: &mut Record<'_>,
    ) -> Result<Outcome, String> {
        let (setup, game) = (self.setup, &self.setup.game);
        let body = vec![format!("(stop {} {})", setup.id, moves_text(last)); game.players()];
        let answers = ask_all(&self.agent, &setup.players, &body, setup.play_clock);
        let replies = answers_json(game, &answers, "done");
        self.errors += count_errors(&replies);
        let all = game.goals(state);
        let goals: Vec<(String, Option<u8>)> = (0..game.players())
            .map(|p| {
                (
                    game.player_name(p).to_string(),
                    all.get(p).copied().flatten(),
                )
            })
            .collect();
        let goal_map: serde_json::Map<String, Value> =
            goals.iter().map(|(r, g)| (r.clone(), json!(g))).collect();
        record.line(&json!({
            "type": "stop", "steps": self.steps, "goals": goal_map, "errors": self.errors,
            "terminal": game.is_terminal(state), "replies": replies,
        }))?;
        Ok(Outcome {
            goals,
            steps: self.steps,
            errors: self.errors,
        })
    }
}

/// `nil` before the first step, then `(m1 … mn)`.
fn moves_text(last: Option<&[String]>) -> String {
    last.map_or("nil".to_string(), |m| format!("({})", m.join(" ")))
}

/// Each role's move in the order of the rules (`random` drawn here), with the errors of the
/// players whose replies were replaced.
fn referee(
    game: &GdlGame,
    state: &FluentSet,
    answers: &[Answer],
    rng: &mut Pcg64,
) -> (Vec<GdlMove>, Vec<Value>) {
    let mut errors = Vec::new();
    let mut joint = Vec::new();
    let mut player = 0;
    for (r, role) in game.roles().iter().enumerate() {
        let legal = game.role_moves(state, r);
        let is_random = role == "random" && game.has_random();
        let answer = (!is_random).then(|| &answers[player]);
        player += usize::from(!is_random);
        let Some(&random) = legal.get(rng.gen_range(0..legal.len().max(1))) else {
            continue; // no legal move in a state that is not terminal: the rules are at fault
        };
        let Some(answer) = answer else {
            joint.push(random);
            continue;
        };
        let chosen = answer.text.as_deref().and_then(|t| game.find_move(t));
        let problem = match (&answer.error, chosen) {
            (Some(e), _) => Some(e.clone()),
            (None, Some(mv)) if legal.contains(&mv) => None,
            (None, _) => Some("illegal move".to_string()),
        };
        match (problem, chosen) {
            (None, Some(mv)) => joint.push(mv),
            (Some(e), _) => {
                errors.push(json!({"role": role, "reply": answer.text, "error": e,
                                   "replaced_by": game.move_term(random)}));
                joint.push(random);
            }
            (None, None) => joint.push(random),
        }
    }
    (joint, errors)
}

/// Plays a joint move given in role order (`random` included) on `state`.
fn play_roles(game: &GdlGame, state: &mut FluentSet, roles_joint: &[GdlMove]) {
    let mut joint = Vec::with_capacity(roles_joint.len());
    let mut chance = None;
    for (role, &mv) in game.roles().iter().zip(roles_joint) {
        if role == "random" && game.has_random() {
            chance = Some(mv);
        } else {
            joint.push(mv);
        }
    }
    joint.extend(chance);
    game.play_joint(state, &joint);
}

/// The start or stop replies as JSON, an error where the reply is not `expected`.
fn answers_json(game: &GdlGame, answers: &[Answer], expected: &str) -> Vec<Value> {
    answers
        .iter()
        .enumerate()
        .map(|(p, a)| {
            let fine = a
                .text
                .as_deref()
                .is_some_and(|t| t.eq_ignore_ascii_case(expected));
            let error = a
                .error
                .clone()
                .or_else(|| (!fine).then(|| format!("expected `{expected}`")));
            json!({"role": game.player_name(p), "reply": a.text,
                   "ms": a.elapsed.as_millis() as u64, "error": error})
        })
        .collect()
}

fn count_errors(replies: &[Value]) -> usize {
    replies.iter().filter(|r| !r["error"].is_null()).count()
}

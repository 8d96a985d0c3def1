//! [`bench()`]: the figures a GGP user compares reasoners by — load time, ground rules, fluents,
//! random playouts per second and their mean length — for `gametree gdl bench`.

use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

use game_trait::Game;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::error::GdlError;
use crate::game::playout::random_playout;
use crate::game::{GdlGame, ReasonerKind, RuleSteps};
use crate::limits::{Limits, LoadProfile};

/// What [`bench()`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// The file benchmarked.
    pub source: String,
    /// Which reasoner played.
    pub reasoner: ReasonerKind,
    /// Why the fast reasoner does not apply, if it does not.
    pub fallback: Option<String>,
    /// Whether the reference reasoner evaluates goal-directed ([`GdlGame::goal_directed`]).
    pub goal_directed: bool,
    /// The static relations evaluated per query rather than whole at load
    /// ([`GdlGame::deferred_relations`]).
    pub deferred: Vec<String>,
    /// For a hybrid game, who evaluated the deferred relations during the playouts
    /// ([`GdlGame::per_state_reasoner`]).
    pub per_state: Option<String>,
    /// Wall-clock seconds to parse, validate, ground and compile (one thread).
    pub load_seconds: f64,
    /// How the load time splits into phases.
    pub profile: LoadProfile,
    /// Ground rules of the fast reasoner (after frame axioms become copies).
    pub ground_rules: Option<usize>,
    /// Fluents (state propositions) known.
    pub fluents: usize,
    /// Ground moves known.
    pub moves: usize,
    /// Complete random playouts played.
    pub playouts: u64,
    /// Seconds spent playing them.
    pub seconds: f64,
    /// Mean number of rounds (joint moves) per playout (0 when none was played).
    pub mean_length: f64,
    /// The reference reasoner's join steps during the playouts (0 when the fast reasoner played).
    pub join_steps: u64,
    /// The rules of the description that took them, most first ([`GdlGame::rule_steps`]); the
    /// rest were taken in rules the engine adds.
    pub rule_steps: Vec<RuleSteps>,
}

impl BenchReport {
    /// Playouts per second.
    pub fn playouts_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.playouts as f64 / self.seconds
        } else {
            0.0
        }
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.source)?;
        match (self.reasoner, self.goal_directed) {
            (ReasonerKind::Reference, true) => {
                writeln!(f, "reasoner:     {}, goal-directed", self.reasoner)?
            }
            _ => writeln!(f, "reasoner:     {}", self.reasoner)?,
        }
        if let Some(why) = &self.fallback {
            writeln!(f, "fallback:     {why}")?;
        }
        if !self.deferred.is_empty() {
            writeln!(
                f,
                "deferred:     {} (too large to evaluate whole: evaluated per query)",
                self.deferred.join(", ")
            )?;
        }
        if let Some(per_state) = &self.per_state {
            writeln!(f, "per state:    {per_state}")?;
        }
        let p = &self.profile;
        writeln!(
            f,
            "load:         {:.3} s (parse {:.3}, statics {:.3}, domain {:.3}, ground {:.3}, compile {:.3})",
            self.load_seconds,
            p.parse.as_secs_f64(),
            p.statics.as_secs_f64(),
            p.domain.as_secs_f64(),
            p.instantiate.as_secs_f64(),
            p.compile.as_secs_f64()
        )?;
        match self.ground_rules {
            Some(n) => writeln!(f, "ground rules: {n}")?,
            None => writeln!(f, "ground rules: -")?,
        }
        writeln!(f, "fluents:      {}", self.fluents)?;
        writeln!(f, "moves:        {}", self.moves)?;
        if self.playouts == 0 {
            return writeln!(f, "playouts:     none (load only)");
        }
        writeln!(
            f,
            "playouts:     {} in {:.2} s = {:.1}/s",
            self.playouts,
            self.seconds,
            self.playouts_per_second()
        )?;
        writeln!(f, "mean length:  {:.1} rounds", self.mean_length)?;
        self.write_busiest_rules(f)
    }
}

impl BenchReport {
    /// How many of the rules with the most join steps the text report lists.
    const BUSIEST_RULES: usize = 5;

    /// The rules the reference reasoner spent most join steps in, with their share of all.
    fn write_busiest_rules(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.join_steps == 0 {
            return Ok(());
        }
        let total = self.join_steps;
        let per_second = total as f64 / self.seconds;
        writeln!(f, "join steps:   {total} = {per_second:.0}/s, the most in")?;
        for r in self.rule_steps.iter().take(Self::BUSIEST_RULES) {
            let share = 100.0 * r.steps as f64 / total as f64;
            writeln!(f, "  {share:5.1} %  {}  {}", r.location, r.rule)?;
        }
        Ok(())
    }
}

/// The longest playout [`bench()`] plays; a game still running then counts as finished there.
pub const MAX_STEPS: usize = 100_000;

/// Loads `path` within `limits` (timing it), then plays seeded uniformly random playouts from the
/// initial state, starting one while less than `seconds` has passed (none when it is 0).
pub fn bench(
    path: impl AsRef<Path>,
    seconds: f64,
    seed: u64,
    limits: &Limits,
) -> Result<BenchReport, GdlError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| GdlError::Unreadable {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let start = Instant::now();
    let game = GdlGame::load(&text, &path.display().to_string(), limits)?;
    let load_seconds = start.elapsed().as_secs_f64();
    let mut rng = Pcg64::seed_from_u64(seed);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let (mut playouts, mut steps) = (0u64, 0u64);
    game.count_rule_steps();
    let start = Instant::now();
    // Checked before each playout: `seconds` = 0 measures the load alone (a game whose
    // playouts never end, or take minutes, can still be timed).
    while start.elapsed() < budget {
        let p = random_playout(&game, game.initial_state(), &mut rng, MAX_STEPS);
        playouts += 1;
        steps += p.steps as u64;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let (fluents, moves) = game.counts();
    let (join_steps, rule_steps) = game.rule_steps();
    Ok(BenchReport {
        source: path.display().to_string(),
        reasoner: game.reasoner_kind(),
        fallback: game.fallback_reason().map(str::to_string),
        goal_directed: game.goal_directed(),
        deferred: game.deferred_relations(),
        per_state: game.per_state_reasoner(),
        load_seconds,
        profile: game.load_profile(),
        ground_rules: game.ground_rules(),
        fluents,
        moves,
        playouts,
        seconds: elapsed,
        mean_length: if playouts > 0 {
            steps as f64 / playouts as f64
        } else {
            0.0
        },
        join_steps,
        rule_steps,
    })
}

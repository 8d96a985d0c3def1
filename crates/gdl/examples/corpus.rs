//! Surveys a folder of game descriptions, the way a GGP player meets the games managers send: for
//! each file, whether it loads and how (reasoner, ground rules, load time), random playouts per
//! second, and whether the fast reasoner agrees with the reference reasoner along seeded random
//! playouts (every state's turn, goals, legal moves, chance outcomes and successor).
//!
//! ```text
//! cargo run --release -p gdl --example corpus -- [DIR] [SECONDS]
//! ```
//!
//! `DIR` defaults to the shipped games; `SECONDS` (default 2) is the time given to playouts, and
//! again to the cross-check, per game. Loading runs under the default [`Limits`] with 20 s in all
//! and 10 s for grounding, and reads unsafe variables as GGP Base does, as `gametree ggp` does.
//! One line per game, then a summary; exit 1 if the reasoners disagree on any game. Figures for a
//! corpus of GGP Base games: `docs/reproductions.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use game_trait::{ChanceList, Game, GeneralGame, MoveList, Turn};
use gdl::{
    random_playout, FluentSet, GdlGame, GdlMove, Limits, Loader, ReasonerKind, UnsafeVariables,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// The longest playout played, in rounds.
const MAX_ROUNDS: usize = 10_000;

/// Rounds played between two looks at the clock.
const STRETCH: usize = 16;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/games")),
        PathBuf::from,
    );
    let seconds = match args.get(1).map(|s| s.parse::<f64>()) {
        None => 2.0,
        Some(Ok(s)) if s > 0.0 => s,
        Some(_) => {
            eprintln!("corpus: SECONDS must be a positive number");
            return ExitCode::from(2);
        }
    };
    let files = match kif_files(&dir) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("corpus: {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let budget = Duration::from_secs_f64(seconds);
    let mut tally = Tally::default();
    let mut out = std::io::stdout().lock();
    let header = format!(
        "{:<40} {:>9} {:>8} {:>10} {:>11} {:>8} {:>8}  note",
        "game", "reasoner", "load s", "rules", "playouts/s", "rounds", "checked"
    );
    let lines = std::iter::once(header).chain(files.iter().map(|f| survey(f, budget, &mut tally)));
    for line in lines {
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(2); // the reader went away
        }
    }
    if writeln!(out, "\n{tally}").is_err() {
        return ExitCode::from(2);
    }
    if tally.disagree > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The `.kif` files of `dir`, sorted.
fn kif_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "kif"))
        .collect();
    files.sort();
    Ok(files)
}

/// Counts over the corpus.
#[derive(Default)]
struct Tally {
    games: usize,
    fast: usize,
    reference: usize,
    rejected: usize,
    slow_loads: usize,
    agree: usize,
    disagree: usize,
    load_seconds: Vec<f64>,
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut loads = self.load_seconds.clone();
        loads.sort_by(f64::total_cmp);
        let at = |q: f64| {
            loads
                .get(((loads.len() as f64 - 1.0) * q) as usize)
                .copied()
        };
        writeln!(
            f,
            "{} games: {} fast, {} reference, {} rejected (invalid, or past the limits)",
            self.games, self.fast, self.reference, self.rejected
        )?;
        if let (Some(median), Some(max)) = (at(0.5), at(1.0)) {
            writeln!(
                f,
                "load: median {median:.3} s, slowest {max:.3} s; {} loaded in 2 s or more",
                self.slow_loads
            )?;
        }
        write!(
            f,
            "fast against reference: {} agree, {} disagree",
            self.agree, self.disagree
        )
    }
}

/// Loads, plays and cross-checks one file; its line of the table.
fn survey(file: &Path, budget: Duration, tally: &mut Tally) -> String {
    tally.games += 1;
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let start = Instant::now();
    let loaded = load(file, &name);
    let load = start.elapsed().as_secs_f64();
    let game = match loaded {
        Ok(game) => game,
        Err(e) => {
            tally.rejected += 1;
            // The count of problems, and the first of them.
            let first: Vec<&str> = e.lines().take(2).map(str::trim).collect();
            let first = first.join(" ");
            return format!(
                "{name:<40} {:>9} {load:>8.3} {:>10} {:>11} {:>8} {:>8}  {first}",
                "-", "-", "-", "-", "-"
            );
        }
    };
    tally.load_seconds.push(load);
    tally.slow_loads += usize::from(load >= 2.0);
    let (rate, rounds) = playouts(&game, budget);
    let (kind, checked, note) = match game.reasoner_kind() {
        kind @ (ReasonerKind::Fast | ReasonerKind::Hybrid) => {
            tally.fast += 1;
            match cross_check(&game, budget) {
                Ok(states) => {
                    tally.agree += 1;
                    (kind.name(), states.to_string(), String::new())
                }
                Err(why) => {
                    tally.disagree += 1;
                    (kind.name(), "-".to_string(), format!("DISAGREE: {why}"))
                }
            }
        }
        ReasonerKind::Reference => {
            tally.reference += 1;
            let why = game.fallback_reason().unwrap_or_default();
            ("reference", "-".to_string(), first_line(why))
        }
    };
    let rules = (game.ground_rules()).map_or_else(|| "-".to_string(), |n| n.to_string());
    let rounds = rounds.map_or_else(|| "-".to_string(), |r| format!("{r:.1}"));
    format!("{name:<40} {kind:>9} {load:>8.3} {rules:>10} {rate:>11.1} {rounds:>8} {checked:>8}  {note}")
}

/// The game in `file`, loaded under the default limits with 20 s in all and 10 s for grounding;
/// the error's text if it does not load.
fn load(file: &Path, name: &str) -> Result<GdlGame, String> {
    let limits = Limits {
        time: Duration::from_secs(20),
        ground_time: Duration::from_secs(10),
        unsafe_variables: UnsafeVariables::RangeOverGroundTerms,
        ..Limits::default()
    };
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    Loader::text(&text)
        .name(name)
        .limits(&limits)
        .load()
        .map_err(|e| e.to_string())
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

/// Complete random playouts per second over about `budget`, and their mean length in rounds
/// (`None` if none finished). Playouts run in stretches of [`STRETCH`] rounds, so that one slow
/// game cannot overrun the budget by much.
fn playouts(game: &GdlGame, budget: Duration) -> (f64, Option<f64>) {
    let mut rng = Pcg64::seed_from_u64(1);
    let start = Instant::now();
    let (mut complete, mut rounds) = (0u64, 0usize);
    'games: while start.elapsed() < budget {
        let mut s = game.initial_state();
        let mut played = 0;
        while played < MAX_ROUNDS {
            if start.elapsed() >= budget {
                break 'games;
            }
            let p = random_playout(game, s, &mut rng, STRETCH);
            (s, played) = (p.state, played + p.steps);
            if p.steps < STRETCH || p.finished {
                break;
            }
        }
        complete += 1;
        rounds += played;
    }
    let seconds = start.elapsed().as_secs_f64();
    let mean = (complete > 0).then(|| rounds as f64 / complete as f64);
    (complete as f64 / seconds, mean)
}

/// A uniformly random joint move at `s` into `joint` (chance by its distribution); `None` at a
/// finished game or where a role has no legal move.
fn random_joint(
    game: &GdlGame,
    s: &FluentSet,
    rng: &mut Pcg64,
    moves: &mut MoveList<GdlMove>,
    chance: &mut ChanceList<GdlMove>,
    joint: &mut Vec<GdlMove>,
) -> Option<()> {
    if game.turn(s) == Turn::Over {
        return None;
    }
    joint.clear();
    for p in 0..game.players() {
        game.legal_moves(s, p, moves);
        joint.push(*moves.get(rng.gen_range(0..moves.len().max(1)))?);
    }
    game.chance_outcomes(s, chance);
    joint.extend(gdl::sample(chance, rng));
    Some(())
}

/// Plays seeded random games with the fast reasoner for about `budget`, asking the reference
/// reasoner the same questions at every state; the states compared, or the first difference.
fn cross_check(fast: &GdlGame, budget: Duration) -> Result<usize, String> {
    let reference = fast
        .clone()
        .with_reasoner(ReasonerKind::Reference)
        .map_err(|e| e.to_string())?;
    let mut rng = Pcg64::seed_from_u64(2);
    let start = Instant::now();
    let mut states = 0;
    let (mut moves, mut chance, mut joint) = (MoveList::new(), ChanceList::new(), Vec::new());
    while start.elapsed() < budget {
        let mut s = fast.initial_state();
        if s != reference.initial_state() {
            return Err("initial states differ".into());
        }
        for _ in 0..MAX_ROUNDS {
            if start.elapsed() >= budget {
                return Ok(states);
            }
            states += 1;
            same_answers(fast, &reference, &s)?;
            if random_joint(fast, &s, &mut rng, &mut moves, &mut chance, &mut joint).is_none() {
                break;
            }
            let (mut a, mut b) = (s.clone(), s.clone());
            fast.play_joint(&mut a, &joint);
            reference.play_joint(&mut b, &joint);
            if a != b {
                return Err(format!("successors differ after {}", names(fast, &joint)));
            }
            s = a;
        }
    }
    Ok(states)
}

/// Whether both reasoners give `s` the same turn, goals, legal moves and chance outcomes.
fn same_answers(fast: &GdlGame, reference: &GdlGame, s: &FluentSet) -> Result<(), String> {
    let at = || format!("in {:?}", fast.fluent_names(s));
    if fast.turn(s) != reference.turn(s) {
        return Err(format!("turns differ {}", at()));
    }
    if fast.goals(s) != reference.goals(s) {
        return Err(format!("goals differ {}", at()));
    }
    for role in 0..fast.roles().len() {
        if fast.role_moves(s, role) != reference.role_moves(s, role) {
            return Err(format!(
                "legal moves of {} differ {}",
                fast.roles()[role],
                at()
            ));
        }
    }
    let (mut a, mut b) = (ChanceList::new(), ChanceList::new());
    fast.chance_outcomes(s, &mut a);
    reference.chance_outcomes(s, &mut b);
    if a != b {
        return Err(format!("chance outcomes differ {}", at()));
    }
    Ok(())
}

fn names(game: &GdlGame, joint: &[GdlMove]) -> String {
    let names: Vec<String> = joint.iter().map(|&m| game.move_term(m)).collect();
    names.join(" ")
}

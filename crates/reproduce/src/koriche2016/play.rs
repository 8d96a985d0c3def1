//! `scsp-table3`, `scsp-table4`, `scsp-fig6`: Koriche, Lagrue, Piette and Tabary, *General Game
//! Playing with Stochastic CSP* (2016), Tables 3 and 4 and Figure 6: MAC-UCB, FC-UCB and UCT in
//! matches.
//!
//! **The paper's setting.** Fifteen GDL games; MAC-UCB against UCT, MAC-UCB against FC-UCB and
//! FC-UCB against UCT with 30 s per move (Table 3), the first pairing at 1 to 60 s (Table 4), and
//! MAC-UCB against UCT with 0 to 100 % of its time to solving (Figure 6, 30 s); 5000 plays per
//! setting; UCT with a cache of the subtrees already explored. The percentage of wins of the first
//! searcher and its standard deviation σ. A three-player game pits one MAC-UCB (or FC-UCB) against
//! two of the other (footnote 5); a cooperative game reports the victories of a team that plays
//! one algorithm on every seat (footnote 6).
//!
//! **Ours.** Every game MAC-UCB plays ([`games`]): our versions of the paper's fifteen games (the
//! dice games and Awale in small variants), small GDL games of chance and the built-in games that
//! describe their rounds. Games the round encoder refuses are played through the networks their
//! rules give at each state. Chinese Checkers has three players: one seat against two of the
//! other algorithm (footnote 5); matching pennies, pennies and Orchard are cooperative and Monty
//! Hall has one player, all scored as footnote 6 says. The time per move is
//! the paper's divided by 1000 (30 ms for its 30 s; `--move-time` sets the 30 s column and Table 4
//! scales the others by the same ratio), or a number of samples (`--samples`), which makes a run
//! depend on `--seed` only. UCT is `uct:reuse=true,solver=true`. A draw counts half a win; σ is the standard
//! deviation of the percentage as an estimate (see [`Tally::sigma`]). How games are played and
//! scored: [`arena`](super::arena).
//!
//! **`scsp-headroom`** is not in the paper: UCT given 1, 3, 10 and 30 times the budget
//! ([`FACTORS`]) against UCT, on the same games. It measures how far any player can pull ahead
//! of UCT on a game by searching more: where UCT with 30 times the samples wins about half its
//! games, the game's outcome is the dice's, and no player beats UCT there by much.

use std::time::Duration;

use gametree::gdl::Loader;
use gametree::registry;
use gametree::scsp::games::{CooperativePennies, Nim, Pig};
use gametree::spec::{Args, Spec, SpecError};
use serde_json::{json, Value};

use super::arena::{rivals_game, team_game, Algo, GameOutcome, OnGame, Setting, Tally};
use super::{PAPER, PLAYED, PLAYED_AFTER};
use crate::shard::{run_all, Units};
use crate::svg::{Chart, Series};
use crate::{ExperimentError, Report, ReproduceOptions};
use game_trait::hash::splitmix64;

/// Registered name and description of Table 3.
pub const TABLE3: (&str, &str) = (
    "scsp-table3",
    "Koriche et al. 2016, Table 3: MAC-UCB vs UCT, MAC-UCB vs FC-UCB, FC-UCB vs UCT, 30 ms per move (paper: 30 s)",
);
/// Registered name and description of Table 4.
pub const TABLE4: (&str, &str) = (
    "scsp-table4",
    "Koriche et al. 2016, Table 4: MAC-UCB vs UCT at 1 to 60 ms per move (paper: 1 to 60 s)",
);
/// Registered name and description of Figure 6.
pub const FIG6: (&str, &str) = (
    "scsp-fig6",
    "Koriche et al. 2016, Figure 6: MAC-UCB vs UCT with 0 to 100 % of its time to solving, 30 ms per move",
);

/// Registered name and description of the headroom table (not in the paper).
pub const HEADROOM: (&str, &str) = (
    "scsp-headroom",
    "What more search buys on the games of Koriche et al.'s tables: UCT with 1, 3, 10 and 30 times the budget against UCT",
);

/// The experiments that seat MAC-UCB and FC-UCB, and so take `--mac-ucb`.
pub const SEATING_MAC_UCB: [&str; 3] = [TABLE3.0, TABLE4.0, FIG6.0];

/// The MAC-UCB parameters an experiment sets itself, which `--mac-ucb` may not: the budget, the
/// seed, the seat, and (Figure 6, whose points are its values) the share.
fn set_by(experiment: &str) -> &'static [&'static str] {
    match experiment == FIG6.0 {
        true => &["samples", "seed", "player", "share"],
        false => &["samples", "seed", "player"],
    }
}

/// The paper's 30 s per move, scaled by 1/1000.
pub const MOVE_TIME_MS: u64 = 30;
/// Default games per pairing of Table 3 (paper: 5000).
pub const TABLE3_GAMES: usize = 20;
/// Default games per point of Table 4 and Figure 6, fewer than Table 3's (more points).
pub const POINT_GAMES: usize = 10;
/// The paper's times per move in Table 4, in seconds.
pub const PAPER_TIMES: [u64; 8] = [1, 5, 10, 20, 30, 40, 50, 60];
/// The shares of Figure 6, in %.
pub const SHARES: [u32; 11] = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
/// The headroom table's budgets, as multiples of the other player's.
pub const FACTORS: [u32; 4] = [1, 3, 10, 30];

/// How a game's matches are scored (see [`arena`](super::arena)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Each player for itself.
    Rivals,
    /// Cooperative, or one player: a team of one algorithm.
    Team,
}

/// Where a game comes from.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// A GDL text (of [`PLAYED`] or [`PLAYED_AFTER`]).
    Gdl(&'static str),
    Nim,
    Pennies,
    Pig,
}

/// A game of the tables.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// Its name.
    pub name: &'static str,
    /// How it is scored.
    pub kind: Kind,
    source: Source,
}

/// Every game MAC-UCB plays, in the order of the tables.
pub fn games() -> Vec<Played> {
    let gdl = |(name, text): (&'static str, &'static str)| Played {
        name,
        kind: match name {
            "matching_pennies" | "montyhall" | "orchard" => Kind::Team,
            _ => Kind::Rivals,
        },
        source: Source::Gdl(text),
    };
    let mut games: Vec<Played> = PLAYED.iter().copied().map(gdl).collect();
    let built_in = [
        ("nim", Kind::Rivals, Source::Nim),
        ("pennies", Kind::Team, Source::Pennies),
        ("pig", Kind::Rivals, Source::Pig),
    ];
    games.extend(built_in.map(|(name, kind, source)| Played { name, kind, source }));
    games.extend(PLAYED_AFTER.iter().copied().map(gdl));
    games
}

/// The games of `only` (all if empty) with their places in [`games()`], which their matches'
/// seeds derive from: a game plays the same matches whichever others run.
fn selected(
    experiment: &'static str,
    only: &[String],
) -> Result<Vec<(usize, Played)>, ExperimentError> {
    let all = games();
    if let Some(unknown) = only
        .iter()
        .find(|name| !all.iter().any(|g| g.name == name.as_str()))
    {
        let names: Vec<&str> = all.iter().map(|g| g.name).collect();
        return Err(ExperimentError::InvalidOption {
            experiment,
            message: format!("no game `{unknown}`; the games are {}", names.join(", ")),
        });
    }
    let chosen = |g: &Played| only.is_empty() || only.iter().any(|n| n == g.name);
    Ok(all
        .into_iter()
        .enumerate()
        .filter(|(_, g)| chosen(g))
        .collect())
}

impl Played {
    /// Runs `v` on the game (the built-in ones at their default parameters).
    fn visit<V: OnGame>(&self, v: V) -> Result<V::Output, String> {
        Ok(match self.source {
            Source::Gdl(text) => {
                let game = Loader::text(text).name(format!("{}.kif", self.name)).load();
                v.run(&game.map_err(|e| e.to_string())?)
            }
            Source::Nim => v.run(&Nim::new(15)),
            Source::Pennies => v.run(&CooperativePennies::new()),
            Source::Pig => v.run(&Pig::new(20)),
        })
    }
}

/// One point of a table: A against B (rivals) or A's team, under its own setting.
#[derive(Clone, Debug)]
struct Job {
    a: Algo,
    b: Algo,
    setting: Setting,
}

/// One game of one job of one game of a table: a unit of these experiments (see [`crate::shard`]).
#[derive(Clone, Copy, Debug)]
struct UnitId {
    /// Index of the game in [`games`].
    game: usize,
    /// Index of the job among the game's.
    job: usize,
    /// Index of the match game within the job.
    i: usize,
}

/// Which table a [`Sweep`] prints.
enum Table {
    Table3,
    /// Table 4, over these points.
    Table4(Vec<Setting>),
    Fig6,
    Headroom,
}

/// Table 3, Table 4 or Figure 6 as units: every game of every job of every game of the table.
struct Sweep {
    table: Table,
    experiment: &'static str,
    games: Vec<Played>,
    /// Each game's jobs, and for each job the job whose games it reports (itself, or the earlier
    /// job a team shares: a team plays once per algorithm and setting).
    jobs: Vec<Vec<(Job, usize)>>,
    /// The games that play (indices into `games`).
    chosen: Vec<usize>,
    units: Vec<UnitId>,
    seed: u64,
    /// The setting the options ask for and the time of its 30 s column.
    base: (Setting, Option<u64>),
    svg: bool,
}

impl Sweep {
    fn new(
        table: Table,
        options: &ReproduceOptions,
        base: (Setting, Option<u64>),
        jobs: &dyn Fn(Kind) -> Vec<Job>,
    ) -> Result<Sweep, ExperimentError> {
        let experiment = match table {
            Table::Table3 => TABLE3.0,
            Table::Table4(_) => TABLE4.0,
            Table::Fig6 => FIG6.0,
            Table::Headroom => HEADROOM.0,
        };
        // Every game keeps its place (its seeds) whichever games `--only` chooses.
        let chosen: Vec<usize> = selected(experiment, &options.only)?
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        let games = games();
        let jobs: Vec<Vec<(Job, usize)>> =
            games.iter().map(|g| shared(g.kind, jobs(g.kind))).collect();
        let mut units = Vec::new();
        for (game, game_jobs) in jobs.iter().enumerate() {
            if !chosen.contains(&game) {
                continue;
            }
            for (job, (j, source)) in game_jobs.iter().enumerate() {
                if *source == job {
                    units.extend((0..j.setting.games).map(|i| UnitId { game, job, i }));
                }
            }
        }
        Ok(Sweep {
            table,
            experiment,
            games,
            jobs,
            chosen,
            units,
            seed: options.seed,
            base,
            svg: options.svg,
        })
    }

    /// The tallies of every game's jobs from the units' records.
    fn tallies(&self, records: &[Value]) -> Result<Vec<(Played, Vec<Tally>)>, ExperimentError> {
        let mut tallies: Vec<Vec<Tally>> = self
            .jobs
            .iter()
            .map(|j| vec![Tally::default(); j.len()])
            .collect();
        for (index, (unit, record)) in self.units.iter().zip(records).enumerate() {
            let outcome =
                outcome_of(record, self.games[unit.game].name, unit).ok_or_else(|| {
                    ExperimentError::InvalidOption {
                        experiment: self.experiment,
                        message: format!("unit {index}'s record is not this unit's: {record}"),
                    }
                })?;
            tallies[unit.game][unit.job].add(&outcome);
        }
        let shared = |(game, jobs): (&Played, &Vec<(Job, usize)>), own: &Vec<Tally>| {
            (*game, jobs.iter().map(|&(_, source)| own[source]).collect())
        };
        Ok(self
            .games
            .iter()
            .zip(&self.jobs)
            .zip(&tallies)
            .enumerate()
            .filter(|(i, _)| self.chosen.contains(i))
            .map(|(_, (g, t))| shared(g, t))
            .collect())
    }
}

/// `jobs` with, for each, the job whose games it reports: a team's job with the algorithm and
/// setting of an earlier one is that earlier job's.
fn shared(kind: Kind, jobs: Vec<Job>) -> Vec<(Job, usize)> {
    let same = |j: &Job, k: &Job| {
        j.a == k.a
            && j.setting.move_time == k.setting.move_time
            && j.setting.samples == k.setting.samples
    };
    let source = |(i, job): (usize, &Job)| match kind {
        Kind::Rivals => i,
        Kind::Team => jobs[..i].iter().position(|k| same(k, job)).unwrap_or(i),
    };
    let sources: Vec<usize> = jobs.iter().enumerate().map(source).collect();
    jobs.into_iter().zip(sources).collect()
}

/// A unit's record: which unit it is and how its game went.
fn outcome_record(game: &str, unit: &UnitId, outcome: &GameOutcome) -> Value {
    json!({
        "game": game,
        "job": unit.job,
        "i": unit.i,
        "result": match outcome.result {
            std::cmp::Ordering::Greater => "win",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "loss",
        },
        "forfeit": outcome.forfeit,
        "unfinished": outcome.unfinished,
    })
}

/// The outcome in `record`, if it is the record of `unit` of `game`.
fn outcome_of(record: &Value, game: &str, unit: &UnitId) -> Option<GameOutcome> {
    let ours = record["game"] == game
        && record["job"].as_u64() == Some(unit.job as u64)
        && record["i"].as_u64() == Some(unit.i as u64);
    let result = match record["result"].as_str()? {
        "win" => std::cmp::Ordering::Greater,
        "draw" => std::cmp::Ordering::Equal,
        "loss" => std::cmp::Ordering::Less,
        _ => return None,
    };
    ours.then_some(GameOutcome {
        result,
        forfeit: record["forfeit"].as_bool()?,
        unfinished: record["unfinished"].as_bool()?,
    })
}

/// Game `i` of a job, run on a game of the tables.
struct OneGame<'a> {
    kind: Kind,
    job: &'a Job,
    key: u64,
    i: usize,
}

impl OnGame for OneGame<'_> {
    type Output = Result<GameOutcome, String>;

    fn run<G: gametree::games::Registered + Clone>(self, game: &G) -> Self::Output {
        let job = self.job;
        match self.kind {
            Kind::Rivals => rivals_game(game, (job.a, job.b), &job.setting, self.key, self.i),
            Kind::Team => team_game(game, job.a, &job.setting, self.key, self.i),
        }
    }
}

impl Units for Sweep {
    fn count(&self) -> usize {
        self.units.len()
    }

    fn run(&self, index: usize) -> Result<Value, ExperimentError> {
        let invalid = |message: String| ExperimentError::InvalidOption {
            experiment: self.experiment,
            message,
        };
        let unit = self
            .units
            .get(index)
            .ok_or_else(|| invalid(format!("no unit {index}")))?;
        let game = &self.games[unit.game];
        // The keys of the matches before there were units: by game, then by job.
        let game_key = splitmix64(self.seed ^ splitmix64(unit.game as u64));
        let one = OneGame {
            kind: game.kind,
            job: &self.jobs[unit.game][unit.job].0,
            key: splitmix64(game_key ^ unit.job as u64),
            i: unit.i,
        };
        let outcome = game
            .visit(one)
            .and_then(|o| o)
            .map_err(|message| invalid(format!("{}: {message}", game.name)))?;
        Ok(outcome_record(game.name, unit, &outcome))
    }

    fn report(&self, records: &[Value]) -> Result<Report, ExperimentError> {
        if records.len() != self.units.len() {
            return Err(ExperimentError::InvalidOption {
                experiment: self.experiment,
                message: format!("{} records for {} units", records.len(), self.units.len()),
            });
        }
        let results = self.tallies(records)?;
        let mut rows = Vec::new();
        for ((game, tallies), jobs) in results.iter().zip(&self.jobs) {
            for ((job, _), tally) in jobs.iter().zip(tallies) {
                rows.push(cell_row(self.experiment, game, job, tally));
            }
        }
        let (text, svg) = match &self.table {
            Table::Table3 => (table3_text(&self.base, &results), None),
            Table::Table4(points) => table4_text(&self.base, points, &results, self.svg),
            Table::Fig6 => fig6_text(&self.base, &results, self.svg),
            Table::Headroom => headroom_text(&self.base, &results, self.svg),
        };
        Ok(Report { text, rows, svg })
    }
}

/// The setting the options ask for, with `games` games by default; `move_ms` is the 30 s column.
fn setting(
    experiment: &'static str,
    options: &ReproduceOptions,
    games: usize,
) -> Result<(Setting, Option<u64>), ExperimentError> {
    let invalid = |message: &str| ExperimentError::InvalidOption {
        experiment,
        message: message.into(),
    };
    let games = options.games.unwrap_or(games);
    if games == 0 {
        return Err(invalid("--games must be at least 1"));
    }
    if options.samples == Some(0) || options.move_time == Some(0) {
        return Err(invalid("--samples and --move-time must be at least 1"));
    }
    let move_ms = match (options.move_time, options.samples) {
        (None, Some(_)) => None,
        (ms, _) => Some(ms.unwrap_or(MOVE_TIME_MS)),
    };
    let mac_ucb = (options.mac_ucb.as_deref())
        .filter(|params| !params.trim().is_empty())
        .map(|params| mac_ucb_params(experiment, params))
        .transpose()?;
    let setting = Setting {
        move_time: move_ms.map(Duration::from_millis),
        samples: options.samples,
        games,
        mac_ucb,
    };
    Ok((setting, move_ms))
}

/// `--mac-ucb`'s parameters, checked against MAC-UCB's table (those the experiment sets are
/// refused).
fn mac_ucb_params(experiment: &'static str, params: &str) -> Result<String, ExperimentError> {
    let invalid = |message: String| ExperimentError::InvalidOption {
        experiment,
        message: format!("--mac-ucb: {message}"),
    };
    let spec: Spec = format!("mac-ucb:{params}")
        .parse()
        .map_err(|e: SpecError| invalid(e.to_string()))?;
    let entry = registry::searcher("mac-ucb").map_err(|e| invalid(e.to_string()))?;
    Args::new(&spec, &[entry.params]).map_err(|e| invalid(e.to_string()))?;
    if let Some(key) = set_by(experiment).iter().find(|k| spec.value(k).is_some()) {
        return Err(invalid(format!("{key} is set by the experiment")));
    }
    Ok(params.to_string())
}

/// What limits each move, for the tables' headings.
fn describe(setting: &Setting, move_ms: Option<u64>) -> String {
    let time = move_ms.map(|ms| format!("{ms} ms per move"));
    let samples = setting
        .samples
        .map(|n| format!("{n} simulations or samples per move"));
    let limits: Vec<String> = [time, samples].into_iter().flatten().collect();
    let reading = (setting.mac_ucb.as_ref())
        .map_or(String::new(), |p| format!(", MAC-UCB and FC-UCB with {p}"));
    format!(
        "{}, {} games per pairing{reading}",
        limits.join(" and "),
        setting.games
    )
}

/// The three pairings of Table 3; a team game adds UCT's team (its own victories, for reference).
fn table3_jobs(kind: Kind, setting: &Setting) -> Vec<Job> {
    let mac = Algo::MacUcb(None);
    let mut pairs = vec![
        (mac, Algo::Uct),
        (mac, Algo::FcUcb),
        (Algo::FcUcb, Algo::Uct),
    ];
    if kind == Kind::Team {
        pairs.push((Algo::Uct, Algo::Uct));
    }
    pairs
        .into_iter()
        .map(|(a, b)| Job {
            a,
            b,
            setting: setting.clone(),
        })
        .collect()
}

/// A row of the paper's Table 3: our name of the game, theirs, and (%, σ) per pairing.
type PaperRow3 = (&'static str, &'static str, [(f64, f64); 3]);

/// The paper's Table 3 rows, by our names of its games.
const PAPER_TABLE3: [PaperRow3; 15] = [
    (
        "tictactoe",
        "TicTacToe",
        [(65.7, 0.89), (51.8, 0.76), (64.9, 0.73)],
    ),
    (
        "orchard",
        "Orchard",
        [(70.2, 3.41), (70.2, 3.45), (70.0, 2.45)],
    ),
    (
        "pickomino_mini",
        "Pickomino",
        [(63.4, 4.89), (65.9, 6.10), (52.1, 5.34)],
    ),
    (
        "yahtzee_mini",
        "Yathzee",
        [(71.2, 5.48), (74.0, 5.12), (58.6, 5.34)],
    ),
    (
        "cant_stop_mini",
        "Can't Stop",
        [(71.7, 6.43), (65.9, 4.87), (54.7, 5.34)],
    ),
    (
        "backgammon_mini",
        "Backgammon",
        [(68.2, 5.49), (84.8, 6.36), (47.3, 5.87)],
    ),
    (
        "awale_mini",
        "Awale",
        [(56.7, 1.63), (77.7, 1.92), (43.2, 2.34)],
    ),
    (
        "bomberman",
        "Bombberman",
        [(65.4, 6.32), (75.7, 5.34), (58.4, 5.46)],
    ),
    (
        "checkers",
        "Checkers",
        [(61.2, 2.12), (76.9, 1.61), (57.5, 1.43)],
    ),
    (
        "chess_groundable",
        "Chess",
        [(53.8, 1.75), (68.5, 1.76), (39.4, 1.75)],
    ),
    (
        "chinese_checkers3",
        "Chinese checkers",
        [(55.4, 8.24), (78.1, 7.23), (32.7, 6.51)],
    ),
    ("hex", "Hex", [(69.7, 2.45), (73.2, 3.24), (55.3, 3.12)]),
    (
        "kaseklau",
        "Kaseklau",
        [(71.4, 6.56), (58.9, 7.87), (68.3, 7.34)],
    ),
    (
        "othello",
        "Othello",
        [(79.3, 1.41), (75.1, 0.89), (61.3, 1.14)],
    ),
    (
        "pacman",
        "Pacman",
        [(69.1, 2.73), (74.1, 3.12), (61.8, 3.78)],
    ),
];

/// `scsp-table3`. See the [module docs](self).
pub fn table3(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(table3_plan(options)?.as_ref(), 1, progress)
}

/// `scsp-table3` as units (see [`crate::shard`]).
pub fn table3_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    let base = setting(TABLE3.0, options, TABLE3_GAMES)?;
    let jobs = |kind| table3_jobs(kind, &base.0);
    Ok(Box::new(Sweep::new(
        Table::Table3,
        options,
        base.clone(),
        &jobs,
    )?))
}

/// The text of Table 3.
fn table3_text(
    (setting, move_ms): &(Setting, Option<u64>),
    results: &[(Played, Vec<Tally>)],
) -> String {
    let mut text = format!(
        "{PAPER}, Table 3: percentage of wins of the first searcher and its σ; {} (paper: 30 s per \
         move, 5000 plays).\n\n{:<24} {:>15} {:>7}  {:>17} {:>7}  {:>14} {:>7}\n",
        describe(setting, *move_ms),
        "game",
        "MAC-UCB vs UCT",
        "σ",
        "MAC-UCB vs FC-UCB",
        "σ",
        "FC-UCB vs UCT",
        "σ"
    );
    for (game, tallies) in results {
        text += &table3_line(game, tallies);
    }
    text +=
        "\nTeam games (footnote 6): the victories of a team playing the first searcher on every \
             seat; the paper's Orchard row is read the same way.\n";
    text
}

/// One game's line of Table 3, with the paper's line or UCT's team below it.
fn table3_line(game: &Played, tallies: &[Tally]) -> String {
    let cells = |values: &mut dyn Iterator<Item = (f64, f64)>| {
        values
            .zip([15, 17, 14])
            .map(|((p, s), w)| format!(" {:>w$} {:>7}", format!("{p:.1} %"), format!("{s:.2} %")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let name = match game.kind {
        Kind::Team => format!("{} (team)", game.name),
        Kind::Rivals => game.name.to_string(),
    };
    let ours = &mut tallies.iter().take(3).map(|t| (t.percent(), t.sigma()));
    let mut line = format!("{name:<24}{}\n", cells(ours));
    if let Some((_, theirs, row)) = PAPER_TABLE3.iter().find(|(ours, ..)| *ours == game.name) {
        let paper = &mut row.iter().copied();
        line += &format!("{:<24}{}\n", format!("  paper {theirs}"), cells(paper));
    }
    if let Some(uct) = tallies.get(3) {
        line += &format!(
            "  team of UCT: {:.1} % (σ {:.2} %)\n",
            uct.percent(),
            uct.sigma()
        );
    }
    line
}

/// The JSON object of one cell.
fn cell_row(experiment: &str, game: &Played, job: &Job, tally: &Tally) -> Value {
    let share = match job.a {
        Algo::MacUcb(share) => share,
        _ => None,
    };
    let factor = match job.a {
        Algo::UctTimes(k) => k,
        _ => 1,
    };
    json!({
        "experiment": experiment,
        "game": game.name,
        "kind": match game.kind { Kind::Rivals => "rivals", Kind::Team => "team" },
        "a": job.a.label(),
        "b": job.b.label(),
        "share": share,
        "budget_factor": factor,
        "move_ms": job.setting.move_time.map(|t| t.as_millis() as u64),
        "samples": job.setting.samples,
        "games": tally.games(),
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "forfeits": tally.forfeits,
        "unfinished": tally.unfinished,
        "percent": tally.percent(),
        "sigma": tally.sigma(),
    })
}

/// `base` with its time and samples scaled by `num / den` (at least 1 ms, 1 sample).
fn scaled(base: &Setting, num: u64, den: u64) -> Setting {
    let scale = |x: u64| (x * num / den).max(1);
    Setting {
        move_time: base
            .move_time
            .map(|t| Duration::from_millis(scale(t.as_millis() as u64))),
        samples: base.samples.map(scale),
        games: base.games,
        mac_ucb: base.mac_ucb.clone(),
    }
}

/// A point's label: its time per move, else its samples.
fn point_label(setting: &Setting) -> String {
    match (setting.move_time, setting.samples) {
        (Some(t), _) => format!("{} ms", t.as_millis()),
        (None, Some(n)) => format!("{n} sam"),
        (None, None) => "-".into(),
    }
}

/// The paper's Table 4 (MAC-UCB against UCT at 1, 5, 10, 20, 30, 40, 50 and 60 s, in %), by our
/// names of its games.
const PAPER_TABLE4: [(&str, &str, [f64; 8]); 15] = [
    (
        "tictactoe",
        "TicTacToe",
        [63.6, 64.4, 64.9, 65.4, 65.7, 65.9, 65.8, 65.4],
    ),
    (
        "orchard",
        "Orchard",
        [65.3, 68.5, 69.9, 70.2, 70.2, 70.1, 70.2, 70.2],
    ),
    (
        "pickomino_mini",
        "Pickomino",
        [52.4, 55.3, 58.0, 61.1, 63.4, 65.8, 66.1, 68.6],
    ),
    (
        "yahtzee_mini",
        "Yathzee",
        [43.5, 50.1, 53.7, 64.3, 71.2, 75.2, 77.1, 78.9],
    ),
    (
        "cant_stop_mini",
        "Can't Stop",
        [50.3, 54.7, 59.9, 62.2, 71.7, 74.9, 76.3, 78.9],
    ),
    (
        "backgammon_mini",
        "Backgammon",
        [53.1, 58.1, 61.4, 65.8, 68.2, 71.3, 77.0, 79.6],
    ),
    (
        "awale_mini",
        "Awale",
        [38.6, 43.3, 47.4, 51.6, 56.7, 57.9, 61.3, 63.0],
    ),
    (
        "bomberman",
        "Bombberman",
        [58.3, 60.0, 60.2, 64.7, 65.4, 70.1, 72.4, 75.6],
    ),
    (
        "checkers",
        "Checkers",
        [43.4, 49.6, 51.4, 56.8, 61.2, 67.2, 71.3, 75.7],
    ),
    (
        "chess_groundable",
        "Chess",
        [34.0, 39.3, 46.1, 49.9, 53.8, 56.4, 57.6, 60.8],
    ),
    (
        "chinese_checkers3",
        "Chinese Checkers",
        [27.4, 35.5, 43.7, 50.7, 55.4, 59.1, 63.2, 65.4],
    ),
    (
        "hex",
        "Hex",
        [54.7, 56.2, 58.5, 67.4, 69.7, 71.4, 71.9, 72.5],
    ),
    (
        "kaseklau",
        "Kaseklau",
        [63.6, 65.2, 68.3, 70.2, 71.4, 73.2, 74.7, 75.1],
    ),
    (
        "othello",
        "Othello",
        [61.9, 64.0, 70.6, 75.8, 79.3, 82.0, 84.2, 84.9],
    ),
    (
        "pacman",
        "Pacman",
        [64.4, 66.2, 67.1, 67.9, 69.1, 69.4, 69.8, 70.5],
    ),
];

/// The paper's Table 4 row for our game `name`: its name there and its values.
fn paper_table4(name: &str) -> Option<(&'static str, &'static [f64])> {
    PAPER_TABLE4
        .iter()
        .find(|(ours, ..)| *ours == name)
        .map(|(_, theirs, row)| (*theirs, &row[..]))
}

/// The vertical axis of Table 4 and Figure 6.
const MAC_WINS: &str = "MAC-UCB wins vs UCT (%)";

/// Where a sweep finds the paper's row for a game of ours, if it prints one.
type PaperRows = Option<fn(&str) -> Option<(&'static str, &'static [f64])>>;

/// A table of one pairing over several points: a row per game, a column per point.
fn sweep_text(
    heading: String,
    labels: &[String],
    results: &[(Played, Vec<Tally>)],
    paper: PaperRows,
) -> String {
    let mut text = format!("{heading}\n\n{:<24}", "game");
    for label in labels {
        text += &format!(" {label:>7}");
    }
    text.push('\n');
    for (game, tallies) in results {
        let name = match game.kind {
            Kind::Team => format!("{} (team)", game.name),
            Kind::Rivals => game.name.to_string(),
        };
        text += &format!("{name:<24}");
        for t in tallies {
            text += &format!(" {:>7.1}", t.percent());
        }
        text.push('\n');
        if let Some((name, values)) = paper.and_then(|row| row(game.name)) {
            text += &format!("{:<24}", format!("  paper {name}"));
            for v in values {
                text += &format!(" {v:>7.1}");
            }
            text.push('\n');
        }
    }
    text
}

/// The figure of a sweep: a curve per game over `xs`, the paper's rows dashed.
fn sweep_chart(
    title: &str,
    (x_label, y_label): (&str, &str),
    xs: &[f64],
    results: &[(Played, Vec<Tally>)],
    paper: PaperRows,
) -> String {
    let mut series: Vec<Series> = results
        .iter()
        .map(|(game, tallies)| Series {
            name: game.name.to_string(),
            points: xs
                .iter()
                .zip(tallies)
                .map(|(&x, t)| (x, t.percent()))
                .collect(),
            dashed: false,
        })
        .collect();
    let papers = results
        .iter()
        .filter_map(|(game, _)| paper.and_then(|row| row(game.name)));
    for (name, values) in papers {
        series.push(Series {
            name: format!("paper: {name}"),
            points: xs.iter().copied().zip(values.iter().copied()).collect(),
            dashed: true,
        });
    }
    Chart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.into(),
        series,
        ..Chart::default()
    }
    .to_svg()
}

/// `scsp-table4`. See the [module docs](self).
pub fn table4(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(table4_plan(options)?.as_ref(), 1, progress)
}

/// `scsp-table4` as units (see [`crate::shard`]).
pub fn table4_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    let base = setting(TABLE4.0, options, POINT_GAMES)?;
    let points: Vec<Setting> = PAPER_TIMES
        .iter()
        .map(|&t| scaled(&base.0, t, 30))
        .collect();
    let points_against_uct = points
        .iter()
        .map(|point| (Algo::MacUcb(None), point.clone()))
        .collect();
    against_uct(Table::Table4(points), options, base, points_against_uct)
}

/// A sweep of one pairing against UCT over `points` (the first searcher and the setting of
/// each), on every game.
fn against_uct(
    table: Table,
    options: &ReproduceOptions,
    base: (Setting, Option<u64>),
    points: Vec<(Algo, Setting)>,
) -> Result<Box<dyn Units>, ExperimentError> {
    let jobs = |_| {
        let job = |(a, setting): &(Algo, Setting)| Job {
            a: *a,
            b: Algo::Uct,
            setting: setting.clone(),
        };
        points.iter().map(job).collect::<Vec<_>>()
    };
    Ok(Box::new(Sweep::new(table, options, base, &jobs)?))
}

/// The text and figure of Table 4.
fn table4_text(
    (base, move_ms): &(Setting, Option<u64>),
    points: &[Setting],
    results: &[(Played, Vec<Tally>)],
    svg: bool,
) -> (String, Option<String>) {
    let labels: Vec<String> = points.iter().map(point_label).collect();
    let heading = format!(
        "{PAPER}, Table 4: percentage of wins of MAC-UCB against UCT by deliberation per move; the \
         30 s column at {} and the others in the paper's ratios (paper: 1 to 60 s, 5000 plays).",
        describe(base, *move_ms)
    );
    let paper: PaperRows = Some(paper_table4);
    let mut text = sweep_text(heading, &labels, results, paper);
    text += "\nTeam games: the victories of a team of MAC-UCB (footnote 6).\n";
    let svg = svg.then(|| {
        let xs: Vec<f64> = points.iter().map(x_of).collect();
        let x_label = if base.move_time.is_some() {
            "milliseconds per move"
        } else {
            "samples per move"
        };
        sweep_chart(
            "Table 4: MAC-UCB vs UCT by time per move",
            (x_label, MAC_WINS),
            &xs,
            results,
            paper,
        )
    });
    (text, svg)
}

/// A point's horizontal coordinate: its milliseconds, else its samples.
fn x_of(setting: &Setting) -> f64 {
    match setting.move_time {
        Some(t) => t.as_millis() as f64,
        None => setting.samples.unwrap_or(0) as f64,
    }
}

/// `scsp-fig6`. See the [module docs](self).
pub fn fig6(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(fig6_plan(options)?.as_ref(), 1, progress)
}

/// `scsp-fig6` as units (see [`crate::shard`]).
pub fn fig6_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    let base = setting(FIG6.0, options, POINT_GAMES)?;
    let share = |&s: &u32| Algo::MacUcb(Some(f64::from(s) / 100.0));
    let points = SHARES.iter().map(|s| (share(s), base.0.clone())).collect();
    against_uct(Table::Fig6, options, base, points)
}

/// The text and figure of Figure 6.
fn fig6_text(
    (base, move_ms): &(Setting, Option<u64>),
    results: &[(Played, Vec<Tally>)],
    svg: bool,
) -> (String, Option<String>) {
    let labels: Vec<String> = SHARES.iter().map(|s| format!("{s} %")).collect();
    let mut heading = format!(
        "{PAPER}, Figure 6: percentage of wins of MAC-UCB against UCT by its share of the time \
         given to solving; {} (paper: 30 s per move; its optimum between 86 and 94 %, the curves \
         are not printed as numbers).",
        describe(base, *move_ms)
    );
    if base.move_time.is_none() {
        heading += "\nWithout a time per move the share is of the work: a network solved and a \
                    sample drawn count one each.";
    }
    let mut text = sweep_text(heading, &labels, results, None);
    text += "\nTeam games: the victories of a team of MAC-UCB (footnote 6).\n";
    let svg = svg.then(|| {
        let xs: Vec<f64> = SHARES.iter().map(|&s| f64::from(s)).collect();
        sweep_chart(
            "Figure 6: MAC-UCB vs UCT by share of time to solving",
            ("% of the time to solving", MAC_WINS),
            &xs,
            results,
            None,
        )
    });
    (text, svg)
}

/// `scsp-headroom`. See the [module docs](self).
pub fn headroom(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(headroom_plan(options)?.as_ref(), 1, progress)
}

/// `scsp-headroom` as units (see [`crate::shard`]).
pub fn headroom_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    let base = setting(HEADROOM.0, options, POINT_GAMES)?;
    let points = FACTORS
        .iter()
        .map(|&k| (Algo::UctTimes(k), base.0.clone()))
        .collect();
    against_uct(Table::Headroom, options, base, points)
}

/// The text and figure of the headroom table.
fn headroom_text(
    (base, move_ms): &(Setting, Option<u64>),
    results: &[(Played, Vec<Tally>)],
    svg: bool,
) -> (String, Option<String>) {
    let labels: Vec<String> = FACTORS.iter().map(|k| format!("×{k}")).collect();
    let heading = format!(
        "What more search buys: percentage of wins of UCT given 1, 3, 10 and 30 times the budget \
         against UCT at {} (not in {PAPER}: the room any player has to beat UCT on each game).",
        describe(base, *move_ms)
    );
    let mut text = sweep_text(heading, &labels, results, None);
    text += "\nσ of each cell (percentage points):\n";
    for (game, tallies) in results {
        text += &format!("{:<24}", game.name);
        for t in tallies {
            text += &format!(" {:>7.1}", t.sigma());
        }
        text.push('\n');
    }
    text += "\nTeam games: the victories of a team of the stronger UCT (footnote 6).\n";
    let svg = svg.then(|| {
        let xs: Vec<f64> = FACTORS.iter().map(|&k| f64::from(k)).collect();
        sweep_chart(
            "What more search buys: UCT ×k vs UCT",
            ("times the budget", "wins of UCT ×k vs UCT (%)"),
            &xs,
            results,
            None,
        )
    });
    (text, svg)
}

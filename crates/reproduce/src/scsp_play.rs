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
//! **Ours.** Every game MAC-UCB plays: the GDL games our encoder handles and the built-in games
//! that describe their rounds ([`games`]); none has three players, matching pennies, pennies and
//! Orchard are cooperative and Monty Hall has one player, all scored as footnote 6 says. The time per move is
//! the paper's divided by 1000 (30 ms for its 30 s; `--move-time` sets the 30 s column and Table 4
//! scales the others by the same ratio), or a number of samples (`--samples`), which makes a run
//! depend on `--seed` only. UCT is `uct:reuse=true`. A draw counts half a win; σ is the standard
//! deviation of the percentage as an estimate (see [`Tally::sigma`]). How games are played and
//! scored: [`crate::scsp_arena`].

use std::time::Duration;

use gametree::gdl::GdlGame;
use gametree::scsp::games::{CooperativePennies, Nim, Pig};
use serde_json::{json, Value};

use super::cn::splitmix64;
use super::scsp::{ENCODABLE, PAPER};
use super::scsp_arena::{rivals, team, Algo, OnGame, Setting, Tally};
use super::svg::{Chart, Series};
use super::{ExperimentError, Report, ReproduceOptions};

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

/// How a game's matches are scored (see [`crate::scsp_arena`]).
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
    /// A GDL text (of [`ENCODABLE`]).
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
    let mut games: Vec<Played> = ENCODABLE.iter().copied().map(gdl).collect();
    let built_in = [
        ("nim", Kind::Rivals, Source::Nim),
        ("pennies", Kind::Team, Source::Pennies),
        ("pig", Kind::Rivals, Source::Pig),
    ];
    games.extend(built_in.map(|(name, kind, source)| Played { name, kind, source }));
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
                let game = GdlGame::parse(text, &format!("{}.kif", self.name));
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

/// The jobs of one game, run on it.
struct RunJobs<'a> {
    kind: Kind,
    jobs: &'a [Job],
    key: u64,
    done: &'a mut dyn FnMut(),
}

impl OnGame for RunJobs<'_> {
    type Output = Result<Vec<Tally>, String>;

    /// A team plays once per algorithm and setting: later jobs with the same ones share it.
    fn run<G: gametree::games::Registered + Clone>(self, game: &G) -> Self::Output {
        let mut tallies: Vec<Tally> = Vec::new();
        for (i, job) in self.jobs.iter().enumerate() {
            let key = splitmix64(self.key ^ i as u64);
            let same = |j: &Job| {
                j.a == job.a
                    && j.setting.move_time == job.setting.move_time
                    && j.setting.samples == job.setting.samples
            };
            let tally = match self.kind {
                Kind::Rivals => rivals(game, job.a, job.b, &job.setting, key, self.done)?,
                Kind::Team => match self.jobs[..i].iter().position(same) {
                    Some(earlier) => tallies[earlier],
                    None => team(game, job.a, &job.setting, key, self.done)?,
                },
            };
            tallies.push(tally);
        }
        Ok(tallies)
    }
}

/// Runs `jobs(kind)` on every game: the tallies, game by game.
fn run_all(
    experiment: &'static str,
    jobs: &dyn Fn(Kind) -> Vec<Job>,
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<(Played, Vec<Tally>)>, ExperimentError> {
    let seed = options.seed;
    let games = selected(experiment, &options.only)?;
    let games_of = |g: &Played| {
        jobs(g.kind)
            .iter()
            .map(|j| j.setting.games as u64)
            .sum::<u64>()
    };
    let total: u64 = games.iter().map(|(_, g)| games_of(g)).sum();
    let mut played = 0;
    progress(0, total);
    let mut out = Vec::new();
    for (i, game) in games {
        let mut done = || {
            played += 1;
            progress(played, total);
        };
        let run = RunJobs {
            kind: game.kind,
            jobs: &jobs(game.kind),
            key: splitmix64(seed ^ splitmix64(i as u64)),
            done: &mut done,
        };
        let tallies =
            game.visit(run)
                .and_then(|t| t)
                .map_err(|message| ExperimentError::InvalidOption {
                    experiment,
                    message: format!("{}: {message}", game.name),
                })?;
        out.push((game, tallies));
    }
    Ok(out)
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
    let setting = Setting {
        move_time: move_ms.map(Duration::from_millis),
        samples: options.samples,
        games,
    };
    Ok((setting, move_ms))
}

/// What limits each move, for the tables' headings.
fn describe(setting: &Setting, move_ms: Option<u64>) -> String {
    let time = move_ms.map(|ms| format!("{ms} ms per move"));
    let samples = setting
        .samples
        .map(|n| format!("{n} simulations or samples per move"));
    let limits: Vec<String> = [time, samples].into_iter().flatten().collect();
    format!(
        "{}, {} games per pairing",
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

/// The paper's Table 3 rows for the games we share.
const PAPER_TABLE3: [PaperRow3; 6] = [
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
];

/// `scsp-table3`. See the [module docs](self).
pub fn table3(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let (setting, move_ms) = setting(TABLE3.0, options, TABLE3_GAMES)?;
    let jobs = |kind| table3_jobs(kind, &setting);
    let results = run_all(TABLE3.0, &jobs, options, progress)?;
    let mut text = format!(
        "{PAPER}, Table 3: percentage of wins of the first searcher and its σ; {} (paper: 30 s per \
         move, 5000 plays).\n\n{:<24} {:>15} {:>7}  {:>17} {:>7}  {:>14} {:>7}\n",
        describe(&setting, move_ms),
        "game",
        "MAC-UCB vs UCT",
        "σ",
        "MAC-UCB vs FC-UCB",
        "σ",
        "FC-UCB vs UCT",
        "σ"
    );
    let mut rows = Vec::new();
    for (game, tallies) in &results {
        text += &table3_line(game, tallies);
        for (job, tally) in table3_jobs(game.kind, &setting).iter().zip(tallies) {
            rows.push(cell_row(TABLE3.0, game, job, tally));
        }
    }
    text +=
        "\nTeam games (footnote 6): the victories of a team playing the first searcher on every \
             seat; the paper's Orchard row is read the same way.\n";
    Ok(Report {
        text,
        rows,
        svg: None,
    })
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
    json!({
        "experiment": experiment,
        "game": game.name,
        "kind": match game.kind { Kind::Rivals => "rivals", Kind::Team => "team" },
        "a": job.a.label(),
        "b": job.b.label(),
        "share": share,
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

/// The paper's Table 4 row for tic-tac-toe, the one game we share, in %.
const PAPER_TABLE4_TICTACTOE: [f64; 8] = [63.6, 64.4, 64.9, 65.4, 65.7, 65.9, 65.8, 65.4];

/// A row of the paper beside ours: its name and its values.
type PaperRow<'a> = Option<(&'a str, &'a [f64])>;

/// A table of one pairing over several points: a row per game, a column per point.
fn sweep_text(
    heading: String,
    labels: &[String],
    results: &[(Played, Vec<Tally>)],
    paper: PaperRow,
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
        if let Some((name, values)) = paper.filter(|_| game.name == "tictactoe") {
            text += &format!("{:<24}", format!("  paper {name}"));
            for v in values {
                text += &format!(" {v:>7.1}");
            }
            text.push('\n');
        }
    }
    text
}

/// The figure of a sweep: a curve per game over `xs`, the paper's row dashed.
fn sweep_chart(
    title: &str,
    x_label: &str,
    xs: &[f64],
    results: &[(Played, Vec<Tally>)],
    paper: PaperRow,
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
    if let Some((name, values)) = paper {
        series.push(Series {
            name: format!("paper: {name}"),
            points: xs.iter().copied().zip(values.iter().copied()).collect(),
            dashed: true,
        });
    }
    Chart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: "MAC-UCB wins vs UCT (%)".into(),
        series,
        ..Chart::default()
    }
    .to_svg()
}

/// The JSON rows of a sweep: one per game and point.
fn sweep_rows(
    experiment: &str,
    jobs: &dyn Fn(Kind) -> Vec<Job>,
    results: &[(Played, Vec<Tally>)],
) -> Vec<Value> {
    let mut rows = Vec::new();
    for (game, tallies) in results {
        for (job, tally) in jobs(game.kind).iter().zip(tallies) {
            rows.push(cell_row(experiment, game, job, tally));
        }
    }
    rows
}

/// `scsp-table4`. See the [module docs](self).
pub fn table4(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let (base, move_ms) = setting(TABLE4.0, options, POINT_GAMES)?;
    let points: Vec<Setting> = PAPER_TIMES.iter().map(|&t| scaled(&base, t, 30)).collect();
    let jobs = |_| {
        let job = |setting: &Setting| Job {
            a: Algo::MacUcb(None),
            b: Algo::Uct,
            setting: setting.clone(),
        };
        points.iter().map(job).collect::<Vec<_>>()
    };
    let results = run_all(TABLE4.0, &jobs, options, progress)?;
    let labels: Vec<String> = points.iter().map(point_label).collect();
    let heading = format!(
        "{PAPER}, Table 4: percentage of wins of MAC-UCB against UCT by deliberation per move; the \
         30 s column at {} and the others in the paper's ratios (paper: 1 to 60 s, 5000 plays).",
        describe(&base, move_ms)
    );
    let paper = Some(("TicTacToe", &PAPER_TABLE4_TICTACTOE[..]));
    let mut text = sweep_text(heading, &labels, &results, paper);
    text += "\nTeam games: the victories of a team of MAC-UCB (footnote 6).\n";
    let svg = options.svg.then(|| {
        let xs: Vec<f64> = points.iter().map(x_of).collect();
        let x_label = if base.move_time.is_some() {
            "milliseconds per move"
        } else {
            "samples per move"
        };
        sweep_chart(
            "Table 4: MAC-UCB vs UCT by time per move",
            x_label,
            &xs,
            &results,
            paper,
        )
    });
    Ok(Report {
        text,
        rows: sweep_rows(TABLE4.0, &jobs, &results),
        svg,
    })
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
    let (base, move_ms) = setting(FIG6.0, options, POINT_GAMES)?;
    let jobs = |_| {
        let job = |&share: &u32| Job {
            a: Algo::MacUcb(Some(f64::from(share) / 100.0)),
            b: Algo::Uct,
            setting: base.clone(),
        };
        SHARES.iter().map(job).collect::<Vec<_>>()
    };
    let results = run_all(FIG6.0, &jobs, options, progress)?;
    let labels: Vec<String> = SHARES.iter().map(|s| format!("{s} %")).collect();
    let mut heading = format!(
        "{PAPER}, Figure 6: percentage of wins of MAC-UCB against UCT by its share of the time \
         given to solving; {} (paper: 30 s per move; its optimum between 86 and 94 %, the curves \
         are not printed as numbers).",
        describe(&base, move_ms)
    );
    if base.move_time.is_none() {
        heading += "\nWithout a time per move the share changes nothing: solving is not cut short.";
    }
    let mut text = sweep_text(heading, &labels, &results, None);
    text += "\nTeam games: the victories of a team of MAC-UCB (footnote 6).\n";
    let svg = options.svg.then(|| {
        let xs: Vec<f64> = SHARES.iter().map(|&s| f64::from(s)).collect();
        sweep_chart(
            "Figure 6: MAC-UCB vs UCT by share of time to solving",
            "% of the time to solving",
            &xs,
            &results,
            None,
        )
    });
    Ok(Report {
        text,
        rows: sweep_rows(FIG6.0, &jobs, &results),
        svg,
    })
}

//! `cn-tables`: Tables 1–3 of Vu, Ishitobi, Terrillon and Iida, *Using Conspiracy Numbers for
//! Improving Move Selection in Minimax Game-Tree Search* (ICAART 2016).
//!
//! Players CN(5, 0), CN(3, 2) and CN(0, 5) (layer depth, α/β depth; CN(0, 5) is plain α/β of depth 5),
//! each with EV1 and with EV2, play Othello. Every pairing plays each of `games` start positions
//! (default 20, the paper's) twice with colours swapped, a win scoring 1 and a draw ½.
//!
//! **Start positions.** The paper started "from a random position between move 5 and move 10" of
//! games of the 2015 US National Open; we have no transcripts, so each start position is a seeded
//! random legal opening of 5 to 10 plies (the length also drawn from the seed). Opening `i` is the
//! same in every pairing. Same `--seed`, same tables.
//!
//! **Players.** CN(x, y) is [`CaevPlayer::layered`] over search-core's plain α/β (no transposition
//! table, no move ordering) of depth `y`, with the paper's RANGE = 1000 and STEP = 50; CN(5, 0) is
//! [`CaevPlayer::new`] with the static evaluation at the leaves; CN(0, 5) is α/β of depth 5 itself.
//!
//! Each cell prints our score beside the paper's, and the 95% Elo interval of our score (search-core's
//! [`elo_estimate`]) so that a reader can tell a difference from noise: with 40 games an interval
//! spans roughly ±110 Elo around even. `cn-table3` ([`table3`]) replays Table 3 from the 244
//! positions after four moves, 488 games per cell, where the interval is about ±35 Elo.

use conspiracy::CaevPlayer;
use game_trait::hash::splitmix64;
use game_trait::{Evaluator, Searcher};
use othello_bitboard::{Ev1, Ev2, Othello, Position};
use search_core::arena::{elo_estimate, play_match, play_match_from, EloEstimate, MatchConfig};
use search_core::{AlphaBeta, AlphaBetaConfig};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::shard::{run_all, Units};
use crate::{ExperimentError, Report, ReproduceOptions};

/// Registered name.
pub const NAME: &str = "cn-tables";
/// One-line description.
pub const DESCRIPTION: &str =
    "Vu et al. 2016, Tables 1-3: CN(5,0), CN(3,2), CN(0,5) with EV1/EV2 on Othello";

/// Registered name of Table 3 on the fixed openings.
pub const TABLE3_NAME: &str = "cn-table3";
/// Its one-line description.
pub const TABLE3_DESCRIPTION: &str =
    "Vu et al. 2016, Table 3 with 488 games per cell: EV1 vs EV2 players from the 244 openings";

/// Start positions per pairing in the paper (each played twice).
const PAPER_GAMES: usize = 20;

/// Where a pairing's games start.
#[derive(Clone)]
enum Starts {
    /// `games` seeded random openings of 5 to 10 plies (the paper's count, not its positions).
    Random { games: usize, seed: u64 },
    /// The given positions, in order.
    Fixed(Vec<Position>),
}

impl Starts {
    fn len(&self) -> usize {
        match self {
            Starts::Random { games, .. } => *games,
            Starts::Fixed(positions) => positions.len(),
        }
    }
}

/// The three players of the paper: (layer depth x, α/β depth y).
const PLAYERS: [(u32, u32); 3] = [(5, 0), (3, 2), (0, 5)];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Eval {
    Ev1,
    Ev2,
}

impl Eval {
    fn name(self) -> &'static str {
        match self {
            Eval::Ev1 => "EV1",
            Eval::Ev2 => "EV2",
        }
    }
}

/// One cell of a table: the row player's points and the column player's, as the paper prints them.
type Points = (f64, f64);

/// A cell of Tables 1 and 2: (row, column) indices into [`PLAYERS`] and the paper's points.
type PaperCell = ((usize, usize), Points);

/// Table 1 (EV1) and Table 2 (EV2): row player's points first, upper triangle (rows 0..3, cols > row).
const PAPER_SAME_EVAL: [(Eval, [PaperCell; 3]); 2] = [
    (
        Eval::Ev1,
        [
            ((0, 1), (19.5, 20.5)),
            ((0, 2), (19.0, 21.0)),
            ((1, 2), (18.0, 22.0)),
        ],
    ),
    (
        Eval::Ev2,
        [
            ((0, 1), (23.0, 17.0)),
            ((0, 2), (28.0, 12.0)),
            ((1, 2), (22.0, 18.0)),
        ],
    ),
];

/// Table 3: rows are the EV1 players, columns the EV2 players; the EV1 player's points first. (The
/// paper's caption says the opposite, columns EV1 and rows EV2, but its table body and its prose put
/// EV1 in the rows; we follow the body, whose numbers we compare with.)
const PAPER_CROSS: [[Points; 3]; 3] = [
    [(25.0, 15.0), (19.0, 21.0), (15.0, 25.0)],
    [(23.0, 17.0), (27.0, 13.0), (25.0, 15.0)],
    [(22.0, 18.0), (25.5, 14.5), (20.5, 19.5)],
];

/// A pairing of a table: the table's number, the row and column players (indices into
/// [`PLAYERS`] with their evaluations), and the paper's points.
#[derive(Clone, Copy)]
struct Pairing {
    table: u32,
    row: (usize, Eval),
    col: (usize, Eval),
    paper: Points,
}

/// The pairings of Tables 1 and 2 (if `same_eval`), then those of Table 3.
fn pairings(same_eval: bool) -> Vec<Pairing> {
    let mut out = Vec::new();
    for (table, (eval, paper)) in [1, 2]
        .into_iter()
        .zip(PAPER_SAME_EVAL)
        .filter(|_| same_eval)
    {
        for ((row, col), paper) in paper {
            out.push(Pairing {
                table,
                row: (row, eval),
                col: (col, eval),
                paper,
            });
        }
    }
    for (row, paper_row) in PAPER_CROSS.iter().enumerate() {
        for (col, &paper) in paper_row.iter().enumerate() {
            out.push(Pairing {
                table: 3,
                row: (row, Eval::Ev1),
                col: (col, Eval::Ev2),
                paper,
            });
        }
    }
    out
}

/// The CN tables as units (see [`crate::shard`]): unit `p · openings + o` plays opening `o` of
/// pairing `p`, twice with colours swapped, with players of its own.
struct CnPlan {
    experiment: &'static str,
    pairings: Vec<Pairing>,
    starts: Starts,
}

/// `cn-tables` as units (see [`crate::shard`]).
pub fn plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    let games = options.games.unwrap_or(PAPER_GAMES);
    if games == 0 {
        return Err(ExperimentError::InvalidOption {
            experiment: NAME,
            message: "--games must be at least 1".into(),
        });
    }
    let starts = Starts::Random {
        games,
        seed: options.seed,
    };
    Ok(Box::new(CnPlan {
        experiment: NAME,
        pairings: pairings(true),
        starts,
    }))
}

/// `cn-table3` as units (see [`crate::shard`]).
pub fn table3_plan(options: &ReproduceOptions) -> Result<Box<dyn Units>, ExperimentError> {
    let mut openings = crate::zhang1995::othello::openings();
    match options.games {
        Some(0) => {
            return Err(ExperimentError::InvalidOption {
                experiment: TABLE3_NAME,
                message: "--games must be at least 1".into(),
            })
        }
        Some(n) => openings.truncate(n),
        None => {}
    }
    let starts = Starts::Fixed(openings);
    Ok(Box::new(CnPlan {
        experiment: TABLE3_NAME,
        pairings: pairings(false),
        starts,
    }))
}

/// Runs the three tables. `options.games` start positions per pairing (default 20); `options.seed`
/// fixes the openings.
pub fn run(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(plan(options)?.as_ref(), 1, progress)
}

/// `cn-table3`: Table 3 alone, every pairing playing the 244 positions after the first four moves
/// (the openings of `fe-fig3b`), each twice with colours swapped: 488 games per cell, where an
/// interval on the score spans about ±30 Elo around even instead of ±110 at 40 games. `--games N`
/// plays the first `N` openings.
pub fn table3(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    run_all(table3_plan(options)?.as_ref(), 1, progress)
}

impl Units for CnPlan {
    fn count(&self) -> usize {
        self.pairings.len() * self.starts.len()
    }

    fn run(&self, index: usize) -> Result<Value, ExperimentError> {
        let n = self.starts.len();
        let pairing =
            self.pairings
                .get(index / n)
                .ok_or_else(|| ExperimentError::InvalidOption {
                    experiment: self.experiment,
                    message: format!("no unit {index}"),
                })?;
        let games = play_opening(pairing, &self.starts, index % n);
        Ok(serde_json::to_value(games).unwrap_or_default())
    }

    fn report(&self, records: &[Value]) -> Result<Report, ExperimentError> {
        let n = self.starts.len();
        let mut results = Vec::with_capacity(self.pairings.len());
        for (p, chunk) in records.chunks(n).enumerate() {
            let games = chunk
                .iter()
                .map(|r| serde_json::from_value::<Opening>(r.clone()).ok());
            let games = games.collect::<Option<Vec<_>>>().filter(|g| g.len() == n);
            let games = games.ok_or_else(|| ExperimentError::InvalidOption {
                experiment: self.experiment,
                message: format!("the records of pairing {p} are not its games"),
            })?;
            results.push(pairing_result(&games));
        }
        if results.len() != self.pairings.len() {
            return Err(ExperimentError::InvalidOption {
                experiment: self.experiment,
                message: format!("{} records for {} units", records.len(), self.count()),
            });
        }
        Ok(self.tables(&results))
    }
}

impl CnPlan {
    /// The report from every pairing's result, in the order of [`CnPlan::pairings`].
    fn tables(&self, results: &[PairingResult]) -> Report {
        let mut report = Report::default();
        let mut cells = [[[None; 3]; 3]; 3];
        for (p, result) in self.pairings.iter().zip(results) {
            report
                .rows
                .push(row_json(p.table, p.row, p.col, result, p.paper));
            let table = &mut cells[p.table as usize - 1];
            table[p.row.0][p.col.0] = Some((*result, p.paper));
            if p.table < 3 {
                table[p.col.0][p.row.0] = Some((result.mirrored(), (p.paper.1, p.paper.0)));
            }
        }
        report.text = match &self.starts {
            Starts::Random { games, seed } => tables_text(&cells, *games, *seed),
            Starts::Fixed(openings) => format!(
                "Vu et al. 2016, Table 3 (Othello), {} openings x 2 colours per cell: every position after \
                 the first four moves (paper: 20 x 2 from tournament games).\nEach cell: ours as a score \
                 out of 40 (paper's), row player's points first; [95% Elo interval of the row player]; \
                 games W-D-L.\n\nTable 3: EV1 players (rows) against EV2 players (columns)\n{}",
                openings.len(),
                format_scaled_table(&cells[2])
            ),
        };
        report
    }
}

/// The cells of the three tables: a pairing's result and the paper's points, by row and column.
type Cells = [[Option<(PairingResult, Points)>; 3]; 3];

/// The text of `cn-tables`.
fn tables_text(cells: &[Cells; 3], games: usize, seed: u64) -> String {
    let mut text = format!(
        "Vu et al. 2016, Tables 1-3 (Othello). {games} start positions x 2 colours per pairing \
         (paper: 20 x 2); seeded random openings of 5-10 plies (paper: move 5-10 of tournament \
         games), seed {seed}.\nEach cell: ours (paper), row player's points first; [95% Elo interval \
         of the row player].\n\n",
    );
    for (number, (eval, _)) in [1, 2].into_iter().zip(PAPER_SAME_EVAL) {
        text.push_str(&format!(
            "Table {number}: players with {} against each other\n",
            eval.name()
        ));
        text.push_str(&format_table(&cells[number - 1], eval, eval));
        text.push('\n');
    }
    text.push_str("Table 3: EV1 players (rows) against EV2 players (columns)\n");
    text.push_str(&format_table(&cells[2], Eval::Ev1, Eval::Ev2));
    text
}

/// What one pairing produced, from the row player's side.
#[derive(Clone, Copy, Debug)]
struct PairingResult {
    wins: u64,
    draws: u64,
    losses: u64,
    elo: EloEstimate,
    row_seconds_per_move: f64,
    col_seconds_per_move: f64,
}

impl PairingResult {
    fn points(&self) -> Points {
        let half = self.draws as f64 / 2.0;
        (self.wins as f64 + half, self.losses as f64 + half)
    }

    /// The same result from the column player's side.
    fn mirrored(&self) -> PairingResult {
        PairingResult {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
            elo: EloEstimate {
                diff: -self.elo.diff,
                low: -self.elo.high,
                high: -self.elo.low,
            },
            row_seconds_per_move: self.col_seconds_per_move,
            col_seconds_per_move: self.row_seconds_per_move,
        }
    }
}

/// The player CN(x, y) with `eval`, boxed so that the three shapes share one type.
fn player(((x, y), eval): ((u32, u32), Eval)) -> Box<dyn Searcher<Othello>> {
    fn build<E: Evaluator<Othello> + Copy + 'static>(
        x: u32,
        y: u32,
        e: E,
    ) -> Box<dyn Searcher<Othello>> {
        let alpha_beta = || {
            AlphaBeta::new(e).with_config(AlphaBetaConfig {
                depth: y,
                ..AlphaBetaConfig::default()
            })
        };
        match (x, y) {
            (0, _) => Box::new(alpha_beta()),
            (_, 0) => Box::new(CaevPlayer::new(e, x, 1000).expect("x > 0")),
            _ => Box::new(CaevPlayer::layered(alpha_beta(), x, y, 1000).expect("x > 0")),
        }
    }
    match eval {
        Eval::Ev1 => build(x, y, Ev1),
        Eval::Ev2 => build(x, y, Ev2),
    }
}

/// One opening of a pairing, played twice with colours swapped: a unit's record.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Opening {
    wins: u64,
    draws: u64,
    losses: u64,
    row_seconds: f64,
    row_moves: u64,
    col_seconds: f64,
    col_moves: u64,
}

/// Plays opening `opening` of `starts` twice (colours swapped) between the pairing's players.
fn play_opening(pairing: &Pairing, starts: &Starts, opening: usize) -> Opening {
    let (mut a, mut b) = (
        player((PLAYERS[pairing.row.0], pairing.row.1)),
        player((PLAYERS[pairing.col.0], pairing.col.1)),
    );
    let report = match starts {
        Starts::Random { seed, .. } => {
            let key = splitmix64(seed ^ splitmix64(opening as u64));
            let config = MatchConfig {
                games: 1,
                seed: key,
                opening_plies: 5 + (splitmix64(key) % 6) as u32,
                ..MatchConfig::default()
            };
            play_match(&Othello, &mut *a, &mut *b, &config, &mut |_, _| {})
        }
        Starts::Fixed(positions) => {
            let config = MatchConfig {
                games: 1,
                opening_plies: 0,
                ..MatchConfig::default()
            };
            let root = &positions[opening];
            play_match_from(&Othello, root, &mut *a, &mut *b, &config, &mut |_, _| {})
        }
    };
    Opening {
        wins: report.wins,
        draws: report.draws,
        losses: report.losses,
        row_seconds: report.a.seconds,
        row_moves: report.a.moves,
        col_seconds: report.b.seconds,
        col_moves: report.b.moves,
    }
}

/// A pairing's result from its openings, in order.
fn pairing_result(openings: &[Opening]) -> PairingResult {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let (mut a_time, mut a_moves, mut b_time, mut b_moves) = (0.0, 0, 0.0, 0);
    for o in openings {
        wins += o.wins;
        draws += o.draws;
        losses += o.losses;
        a_time += o.row_seconds;
        a_moves += o.row_moves;
        b_time += o.col_seconds;
        b_moves += o.col_moves;
    }
    let per_move = |t: f64, n: u64| if n == 0 { 0.0 } else { t / n as f64 };
    PairingResult {
        wins,
        draws,
        losses,
        elo: elo_estimate(wins, draws, losses),
        row_seconds_per_move: per_move(a_time, a_moves),
        col_seconds_per_move: per_move(b_time, b_moves),
    }
}

fn label(index: usize) -> String {
    let (x, y) = PLAYERS[index];
    format!("CN({x},{y})")
}

fn format_table(
    cells: &[[Option<(PairingResult, Points)>; 3]; 3],
    rows: Eval,
    cols: Eval,
) -> String {
    let width = 40;
    let mut out = format!("{:<12}", format!("{}\\{}", rows.name(), cols.name()));
    for col in 0..3 {
        out.push_str(&format!("{:<width$}", label(col)));
    }
    out.push('\n');
    for (row, line) in cells.iter().enumerate() {
        out.push_str(&format!("{:<12}", label(row)));
        for cell in line {
            let text = match cell {
                None => "-".to_string(),
                Some((result, paper)) => {
                    let (ours_a, ours_b) = result.points();
                    format!(
                        "{ours_a}-{ours_b} ({}-{}) [{:+.0}, {:+.0}]",
                        paper.0, paper.1, result.elo.low, result.elo.high
                    )
                }
            };
            out.push_str(&format!("{text:<width$}"));
        }
        out.push('\n');
    }
    let times: Vec<String> = (0..3)
        .filter_map(|i| {
            let other = (i + 1) % 3;
            cells[i][other]
                .or(cells[i][(i + 2) % 3])
                .map(|(r, _)| format!("{} {:.3} s", label(i), r.row_seconds_per_move))
        })
        .collect();
    out.push_str(&format!(
        "time per move ({}): {}\n",
        rows.name(),
        times.join(", ")
    ));
    out
}

/// Table 3 with every score scaled to the paper's 40 games, beside the paper's, with the interval
/// and the games behind it.
fn format_scaled_table(cells: &[[Option<(PairingResult, Points)>; 3]; 3]) -> String {
    let width = 46;
    let mut out = format!("{:<12}", "EV1\\EV2");
    for col in 0..3 {
        out.push_str(&format!("{:<width$}", label(col)));
    }
    out.push('\n');
    for (row, line) in cells.iter().enumerate() {
        out.push_str(&format!("{:<12}", label(row)));
        for (result, paper) in line.iter().flatten() {
            let (a, b) = result.points();
            let scale = 40.0 / (a + b);
            let text = format!(
                "{:.1}-{:.1} ({}-{}) [{:+.0}, {:+.0}] {}-{}-{}",
                a * scale,
                b * scale,
                paper.0,
                paper.1,
                result.elo.low,
                result.elo.high,
                result.wins,
                result.draws,
                result.losses
            );
            out.push_str(&format!("{text:<width$}"));
        }
        out.push('\n');
    }
    out
}

fn row_json(
    table: u32,
    (row, row_eval): (usize, Eval),
    (col, col_eval): (usize, Eval),
    result: &PairingResult,
    paper: Points,
) -> serde_json::Value {
    let (ours_a, ours_b) = result.points();
    json!({
        "experiment": NAME,
        "table": table,
        "row": format!("{} {}", label(row), row_eval.name()),
        "col": format!("{} {}", label(col), col_eval.name()),
        "games": result.wins + result.draws + result.losses,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "points": [ours_a, ours_b],
        "paper_points": [paper.0, paper.1],
        "elo": result.elo.diff,
        "elo_low": result.elo.low,
        "elo_high": result.elo.high,
        "row_seconds_per_move": result.row_seconds_per_move,
        "col_seconds_per_move": result.col_seconds_per_move,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_results_swap_points_and_negate_elo() {
        let r = PairingResult {
            wins: 3,
            draws: 1,
            losses: 0,
            elo: elo_estimate(3, 1, 0),
            row_seconds_per_move: 1.0,
            col_seconds_per_move: 2.0,
        };
        let m = r.mirrored();
        assert_eq!(m.points(), (0.5, 3.5));
        assert_eq!(m.elo.low, -r.elo.high);
        assert_eq!(m.row_seconds_per_move, 2.0);
    }

    #[test]
    fn table3_plays_the_fixed_openings_with_both_colours() {
        let options = ReproduceOptions {
            games: Some(1),
            ..ReproduceOptions::default()
        };
        let report = table3(&options, &mut |_, _| {}).unwrap();
        assert_eq!(report.rows.len(), 9);
        for row in &report.rows {
            assert_eq!(row["games"], 2, "{row}");
            assert_eq!(row["table"], 3);
        }
        assert!(report.text.contains("1 openings x 2 colours"));
        let zero = ReproduceOptions {
            games: Some(0),
            ..ReproduceOptions::default()
        };
        assert!(table3(&zero, &mut |_, _| {}).is_err());
    }

    #[test]
    fn zero_games_is_an_invalid_option() {
        let options = ReproduceOptions {
            games: Some(0),
            ..ReproduceOptions::default()
        };
        assert!(matches!(
            run(&options, &mut |_, _| {}),
            Err(ExperimentError::InvalidOption { .. })
        ));
    }
}

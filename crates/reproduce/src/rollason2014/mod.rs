//! `interest-table`: the Treebeard and Shotest tables of Rollason, *Interest Search — Another way to
//! do Minimax* (AI Factory, 2014), on chess (Treebeard's game), on Othello and on a high-branching
//! random tree.
//!
//! Rollason compares each engine with interest search ON against the same engine with it OFF:
//!
//! | | Treebeard (chess, 500 games) | Shotest (shogi) |
//! |---|---|---|
//! | (a) same iterations | 20× faster, 41 % | 119× faster, 8.3 % |
//! | (b) iterations re-balanced to ~50 % | 5× faster | 14× faster |
//! | (c) equal time per move | 72 % | 90.5 % |
//!
//! **Engines.** Both sides are search-core's iterative-deepening PVS (4 MiB transposition table,
//! killers; no history heuristic, which would override the interest order) with the same move
//! ordering ([`InterestOrdering`]: the game's plausibility plus Treebeard's bonuses for the engine's
//! table move, previous best, killers, best reply and follow-on) and the same static evaluation;
//! they differ only in the horizon. OFF iterates by depth (depth `d` = iteration `d`); ON iterates
//! by interest with the paired hooks of [`interest_search::hooks`] at the article's settings: each
//! tally against the whole limit, the sibling tally, separate parities, Treebeard's dynamic terms
//! and diminishing interest past the nominal depth; `limit_step` is set so that a move of the
//! game's *base* interest (`1000 / typical legal moves`) costs one step.
//!
//! The testbeds, each chosen by `--only` (all three by default):
//! - **Othello** (`othello`), EV1 (the evaluation of Vu et al. 2016), [`OthelloPlausibility`]
//!   (typical 10 legal moves: `limit_step` 1000), OFF at depth 5, **without** the similar-moves
//!   penalty: Treebeard had none, it was added for Shogi.
//! - **Random tree** (`random`, the Shogi stand-in: `b=20`, depth 12, Korf–Pemberton–Zhang
//!   incremental tree), the static evaluation [`NodeCost`] and [`EdgePlausibility`] (a gain of
//!   2¹⁴ worth +100 interest; 20 legal moves: `limit_step` 2000), OFF at depth 3, **with** the
//!   similar-moves penalty over [`EdgePlausibility`]'s cost bands, as Shotest had it.
//! - **Chess** (`chess`), Treebeard's own game: PeSTO's evaluation, the capture search at
//!   the horizon for both players, [`ChessPlausibility`] (Treebeard's terms; typical 35 legal
//!   moves: `limit_step` 3500), OFF at depth 3, without the similar-moves penalty. Depth 3
//!   because ON's cost grows more than tenfold an iteration on chess (Treebeard's check, capture
//!   and attack bonuses make forcing lines cheap): row (a) at depth 4 would take hours a match.
//!
//! **Rows**, Rollason's three protocols. (a) ON and OFF with the same number of iterations.
//! (b) Re-balanced: ON's iterations raised one at a time until it scores at least 50 % against OFF
//! (at most 12 more, and none once ON is 10× slower than OFF; if never, the last is shown and
//! marked), or lowered while ON still scores 50 % if it already did at equal iterations. (c) Equal
//! time: OFF stays at its depth and ON gets the number of iterations whose time per move is
//! closest to OFF's, measured side by side on short calibration matches ([`CALIBRATION_OPENINGS`]
//! openings each). Speed is OFF's time per move over ON's (Rollason's "× faster"), and nodes per
//! move likewise. Every match plays `games` seeded random openings twice with colours swapped
//! (search-core's arena); the score is ON's, with its 95 % Elo interval. 200 openings (400 games)
//! give a score within ±5 % at 95 % confidence whatever the draw rate (1.96 × √(0.25 / 400) =
//! 0.049).
//!
//! Node counts are deterministic for a given `--seed`; times are measured, so row (c)'s choice of
//! iterations may differ between machines when two counts are nearly equally close.

use game_trait::{
    Evaluator, Limits, NoQuiescence, Plausibility, Quiescence, Searcher, ZeroSumGame,
};
use gametree::chess::{Captures, Chess, ChessPlausibility, Pesto};
use interest_search::{InterestConfig, InterestOrdering};
use othello_bitboard::{Ev1, Othello, OthelloPlausibility};
use random_tree::{EdgePlausibility, NodeCost, RandomTree, RandomTreeConfig};
use search_core::arena::{play_match, MatchConfig, MatchReport};
use search_core::{AlphaBeta, AlphaBetaConfig};
use serde_json::json;

use crate::{ExperimentError, Report, ReproduceOptions};

/// Registered name.
pub const NAME: &str = "interest-table";
/// One-line description.
pub const DESCRIPTION: &str =
    "Rollason 2014, Treebeard/Shotest tables: interest search ON vs OFF on Othello EV1, a b=20 random tree and chess";

/// Openings per match by default (each played twice). Treebeard played 500 games; 40 keep the
/// default run to minutes, and the Elo intervals say how much that costs.
const DEFAULT_GAMES: usize = 20;

/// At most this many extra iterations are tried when re-balancing (row b), and at most the
/// testbed's depth plus this many when matching OFF's time (row c).
const MAX_EXTRA_ITERATIONS: u32 = 12;

/// Re-balancing (row b) stops raising ON's iterations once ON takes this many times OFF's time
/// per move: Rollason's ON reached parity 5× *faster* than OFF, and each further iteration
/// multiplies the cost of a 400-game match.
const MAX_SLOWDOWN: f64 = 10.0;

/// Openings of each calibration match of row (c), each played twice.
pub const CALIBRATION_OPENINGS: usize = 5;

/// Seed of the calibration matches' openings, mixed with the experiment's: not the measured ones.
const CALIBRATION_SEED: u64 = 0xca1b;

/// OFF's depth on chess: with the capture search, a few milliseconds a move, so that the
/// re-balancing row's dearer matches stay within minutes each.
const CHESS_DEPTH: u32 = 3;

/// Interest search on chess: a move of Treebeard's base interest, 1000 / 35 typical legal moves,
/// costs one step (`limit_step` 3500, cost = 100,000 / interest); no similar-moves penalty, which
/// Treebeard did not have.
pub const CHESS_INTEREST: InterestConfig = InterestConfig {
    limit_step: 3500,
    similar_percent: 0,
    ..InterestConfig::DEFAULT
};

/// Interest search on Othello: typical 10 legal moves, `limit_step` 1000; no similar-moves
/// penalty (Treebeard's chess had none).
pub const OTHELLO_INTEREST: InterestConfig = InterestConfig {
    limit_step: 1000,
    similar_percent: 0,
    ..InterestConfig::DEFAULT
};

/// Transposition table of each player.
const TT_BYTES: usize = 4 << 20;

/// Rollason's Treebeard figures: (row, speed-up as printed, win % of interest ON).
const TREEBEARD: [(&str, &str, f64); 3] = [
    ("same iterations", "20x", 41.0),
    ("re-balanced", "5x", 50.0),
    ("equal time", "1x", 72.0),
];
const SHOTEST: [(&str, &str, f64); 3] = [
    ("same iterations", "119x", 8.3),
    ("re-balanced", "14x", 50.0),
    ("equal time", "1x", 90.5),
];

/// One game to run the three rows on.
struct Testbed<'a, G: ZeroSumGame> {
    name: &'static str,
    game: &'a G,
    /// OFF's depth, also ON's iterations in row (a).
    depth: u32,
    /// Random plies of each opening.
    opening_plies: u32,
    /// The depth-iterating player.
    off: &'a dyn Fn(u32) -> Box<dyn Searcher<G>>,
    /// The interest-iterating player.
    on: &'a dyn Fn(u32) -> Box<dyn Searcher<G>>,
}

/// One row of a table: a match and the speed figures.
#[derive(Clone, Debug)]
struct Row {
    /// ON's iterations (OFF's depth is the testbed's).
    iterations: u32,
    /// The match, ON as side A.
    report: MatchReport,
    /// Whether (row b) a 50 % score was reached.
    reached: bool,
}

impl Row {
    fn time_ratio(&self) -> f64 {
        self.report.b.seconds_per_move / self.report.a.seconds_per_move
    }
    fn node_ratio(&self) -> f64 {
        self.report.b.nodes_per_move / self.report.a.nodes_per_move
    }
}

/// The testbeds by the names `--only` takes, in the order the report shows them.
pub const TESTBEDS: [&str; 3] = ["othello", "random", "chess"];

/// What one testbed's three rows print and record.
type TableOut = (String, Vec<serde_json::Value>);

/// Runs the experiment: the testbeds `--only` names (all three by default), three rows each.
pub fn run(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let invalid = |message: String| ExperimentError::InvalidOption {
        experiment: NAME,
        message,
    };
    let games = options.games.unwrap_or(DEFAULT_GAMES);
    if games == 0 {
        return Err(invalid("--games must be at least 1".into()));
    }
    if let Some(unknown) = (options.only.iter()).find(|n| !TESTBEDS.contains(&n.as_str())) {
        return Err(invalid(format!(
            "no testbed `{unknown}`; the testbeds are {}",
            TESTBEDS.join(", ")
        )));
    }
    let chosen = |name: &str| options.only.is_empty() || options.only.iter().any(|n| n == name);
    let mut text = format!(
        "interest-table: interest search ON (A) vs OFF (B), {} games per match (seed {})\n",
        2 * games,
        options.seed
    );
    let mut rows = Vec::new();
    for name in TESTBEDS.into_iter().filter(|n| chosen(n)) {
        let (table, json) = match name {
            "othello" => othello_table(games, options.seed, progress),
            "random" => random_tree_table(games, options.seed, progress)?,
            _ => chess_table(games, options.seed, progress),
        };
        text.push('\n');
        text.push_str(&table);
        rows.extend(json);
    }
    Ok(Report {
        text,
        rows,
        svg: None,
    })
}

/// Othello (EV1), the chess stand-in, beside Treebeard's rows.
fn othello_table(games: usize, seed: u64, progress: &mut dyn FnMut(u64, u64)) -> TableOut {
    let othello = Testbed {
        name: "Othello (EV1)",
        game: &Othello,
        depth: 5,
        opening_plies: 6,
        off: &othello_off,
        on: &othello_on,
    };
    tabulate(&othello, games, seed, progress, (&TREEBEARD, "Treebeard"))
}

/// The Othello testbed's interest-OFF player: the engine to `depth` plies, ordered by
/// [`OthelloPlausibility`] plus the engine's hints.
fn othello_off(depth: u32) -> Box<dyn Searcher<Othello>> {
    depth_player(Ev1, OthelloPlausibility::new(), NoQuiescence, depth)
}

/// The Othello testbed's interest-ON player ([`OTHELLO_INTEREST`]), `iterations` iterations.
fn othello_on(iterations: u32) -> Box<dyn Searcher<Othello>> {
    let plausibility = OthelloPlausibility::new();
    interest_player(
        Ev1,
        plausibility,
        NoQuiescence,
        OTHELLO_INTEREST,
        iterations,
    )
}

/// The b = 20 random tree, the Shogi stand-in, beside Shotest's rows.
fn random_tree_table(
    games: usize,
    seed: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<TableOut, ExperimentError> {
    let tree = RandomTree::new(RandomTreeConfig {
        seed,
        ..RandomTreeConfig::uniform(20, 12)
    })
    .map_err(|e| ExperimentError::InvalidOption {
        experiment: NAME,
        message: e.to_string(),
    })?;
    let unit = (tree.exact_edge_bounds().1 / 2).max(1);
    let tree_off = |depth: u32| -> Box<dyn Searcher<RandomTree>> {
        depth_player(NodeCost, EdgePlausibility::new(unit), NoQuiescence, depth)
    };
    let tree_on = |iterations: u32| -> Box<dyn Searcher<RandomTree>> {
        let config = InterestConfig {
            limit_step: 2000,
            similar_percent: 100, // Shotest's similar-moves penalty, over cost bands
            ..InterestConfig::default()
        };
        let plausibility = EdgePlausibility::new(unit);
        interest_player(NodeCost, plausibility, NoQuiescence, config, iterations)
    };
    let random = Testbed {
        name: "random tree (b=20, d=12)",
        game: &tree,
        depth: 3,
        opening_plies: 2,
        off: &tree_off,
        on: &tree_on,
    };
    Ok(tabulate(
        &random,
        games,
        seed,
        progress,
        (&SHOTEST, "Shotest"),
    ))
}

/// Chess, Treebeard's own game: PeSTO's evaluation, a capture search at the horizon for both
/// players (without one a depth-limited chess search stops in the middle of exchanges),
/// Treebeard's terms ([`ChessPlausibility`]) ordering both and steering ON.
fn chess_table(games: usize, seed: u64, progress: &mut dyn FnMut(u64, u64)) -> TableOut {
    let chess = Testbed {
        name: "chess (PeSTO, capture search)",
        game: &Chess,
        depth: CHESS_DEPTH,
        opening_plies: 4,
        off: &chess_off,
        on: &chess_on,
    };
    tabulate(&chess, games, seed, progress, (&TREEBEARD, "Treebeard"))
}

/// The three rows of `bed`, printed beside the `paper` program's figures, and as JSON.
fn tabulate<G: ZeroSumGame>(
    bed: &Testbed<'_, G>,
    games: usize,
    seed: u64,
    progress: &mut dyn FnMut(u64, u64),
    (paper, program): (&[(&str, &str, f64); 3], &str),
) -> TableOut {
    let table = run_testbed(bed, games, seed, progress);
    let text = format_table(bed.name, bed.depth, &table, paper, program);
    (text, rows_json(bed.name, &table))
}

/// The chess testbed's interest-OFF player: the engine to `depth` plies, ordered by Treebeard's
/// terms plus the engine's hints, the capture search at its leaves.
pub fn chess_off(depth: u32) -> Box<dyn Searcher<Chess>> {
    depth_player(Pesto, ChessPlausibility::new(), Captures::default(), depth)
}

/// The chess testbed's interest-ON player: the same engine iterating by interest
/// ([`CHESS_INTEREST`]), `iterations` iterations.
pub fn chess_on(iterations: u32) -> Box<dyn Searcher<Chess>> {
    let plausibility = ChessPlausibility::new();
    interest_player(
        Pesto,
        plausibility,
        Captures::default(),
        CHESS_INTEREST,
        iterations,
    )
}

/// Iterative-deepening PVS with a small table and killers, `iterations` iterations. No history
/// heuristic: its scores would override the interest order the ON player's horizon relies on, and
/// both players get the same engine.
fn engine(iterations: u32) -> AlphaBetaConfig {
    AlphaBetaConfig {
        tt_bytes: TT_BYTES,
        history: false,
        ..AlphaBetaConfig::pvs(iterations)
    }
}

/// The interest-OFF player: the engine to `depth` plies, ordered by the plausibility plus the
/// engine's hints, as ON is.
fn depth_player<G, E, Pl, Q>(
    eval: E,
    plausibility: Pl,
    quiescence: Q,
    depth: u32,
) -> Box<dyn Searcher<G>>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + 'static,
    Pl: Plausibility<G> + Clone + 'static,
    Q: Quiescence<G> + 'static,
{
    Box::new(
        AlphaBeta::new(eval)
            .with_config(engine(depth))
            .with_ordering(InterestOrdering::new(plausibility))
            .with_quiescence(quiescence),
    )
}

/// The interest-ON player: the same engine with the paired interest hooks, `iterations`
/// iterations.
fn interest_player<G, E, Pl, Q>(
    eval: E,
    plausibility: Pl,
    quiescence: Q,
    config: InterestConfig,
    iterations: u32,
) -> Box<dyn Searcher<G>>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + 'static,
    Pl: Plausibility<G> + Clone + 'static,
    Q: Quiescence<G> + 'static,
{
    let (horizon, ordering) = interest_search::hooks(config, plausibility);
    Box::new(
        AlphaBeta::new(eval)
            .with_config(engine(iterations))
            .with_horizon(horizon)
            .with_ordering(ordering)
            .with_quiescence(quiescence),
    )
}

/// Plays one match, ON (with `on` iterations) as side A against OFF (depth `off`).
fn play<G: ZeroSumGame>(
    bed: &Testbed<'_, G>,
    on: u32,
    off: u32,
    games: usize,
    seed: u64,
) -> MatchReport {
    let config = MatchConfig {
        games,
        seed,
        opening_plies: bed.opening_plies,
        limits: Limits::none(),
        time_per_move: None,
    };
    let (mut a, mut b) = ((bed.on)(on), (bed.off)(off));
    play_match(bed.game, &mut *a, &mut *b, &config, &mut |_, _| {})
}

/// Rows (a), (b), (c) of one testbed. `progress` counts matches (an estimate of the total).
fn run_testbed<G: ZeroSumGame>(
    bed: &Testbed<'_, G>,
    games: usize,
    seed: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> [Row; 3] {
    let total = 2 * u64::from(MAX_EXTRA_ITERATIONS) + 3;
    let mut done = 0;
    let mut tick = |progress: &mut dyn FnMut(u64, u64)| {
        done += 1;
        progress(done.min(total - 1), total);
    };
    let d = bed.depth;
    let match_row = |iterations: u32| {
        let report = play(bed, iterations, d, games, seed);
        Row {
            iterations,
            reached: report.score >= 0.5,
            report,
        }
    };
    let same = match_row(d);
    tick(progress);
    let rebalanced = rebalance(&same, d, &mut |i| {
        tick(progress);
        match_row(i)
    });
    let on = equal_time_iterations(bed, seed, &mut || tick(progress));
    let equal_time = match_row(on);
    progress(total, total);
    [same, rebalanced, equal_time]
}

/// Row (b): from the same-iterations row, ON's iterations raised one at a time until it scores at
/// least 50 % (at most [`MAX_EXTRA_ITERATIONS`] more, and no further once ON is
/// [`MAX_SLOWDOWN`] times slower than OFF); or, if it already does, lowered while it still does
/// (down to one iteration), so that the row shows the cheapest ON at parity.
fn rebalance(same: &Row, depth: u32, play: &mut dyn FnMut(u32) -> Row) -> Row {
    let mut row = same.clone();
    if same.reached {
        for iterations in (1..depth).rev() {
            let lower = play(iterations);
            if !lower.reached {
                break;
            }
            row = lower;
        }
        return row;
    }
    for iterations in depth + 1..=depth + MAX_EXTRA_ITERATIONS {
        if row.time_ratio() < 1.0 / MAX_SLOWDOWN {
            break;
        }
        row = play(iterations);
        if row.reached {
            break;
        }
    }
    row
}

/// Row (c): the number of ON iterations whose time per move is closest to OFF's at the testbed's
/// depth, both measured side by side in a short calibration match per count (counts from 1 up,
/// until ON is the slower one).
fn equal_time_iterations<G: ZeroSumGame>(
    bed: &Testbed<'_, G>,
    seed: u64,
    tick: &mut dyn FnMut(),
) -> u32 {
    let mut best = (1, f64::INFINITY);
    for iterations in 1..=bed.depth + MAX_EXTRA_ITERATIONS {
        let report = play(
            bed,
            iterations,
            bed.depth,
            CALIBRATION_OPENINGS,
            seed ^ CALIBRATION_SEED,
        );
        tick();
        let ratio = report.a.seconds_per_move / report.b.seconds_per_move;
        if ratio.ln().abs() < best.1 {
            best = (iterations, ratio.ln().abs());
        }
        if ratio >= 1.0 {
            break;
        }
    }
    best.0
}

/// The text table of one testbed, Rollason's figures beside ours.
fn format_table(
    name: &str,
    depth: u32,
    rows: &[Row; 3],
    paper: &[(&str, &str, f64); 3],
    program: &str,
) -> String {
    let mut t = format!(
        "{name}: OFF = depth {depth} ({:.2} ms per move)\n",
        1000.0 * rows[0].report.b.seconds_per_move,
    );
    t.push_str(&format!(
        "{:<16} {:>6} {:>9} {:>9} {:>7} {:>22}   {program}: {:>6} {:>6}\n",
        "row", "iters", "speed(t)", "speed(n)", "ON %", "Elo ON-OFF [95%]", "speed", "ON %"
    ));
    for (row, &(label, speed, win)) in rows.iter().zip(paper) {
        let r = &row.report;
        let iterations = match (row.iterations, row.reached) {
            (i, false) if label == "re-balanced" => format!("{i}*"),
            (i, _) => i.to_string(),
        };
        t.push_str(&format!(
            "{:<16} {:>6} {:>8.2}x {:>8.2}x {:>6.1}% {:>+6.0} [{:>+5.0}, {:>+5.0}]   {program}: {:>6} {:>5.1}%\n",
            label,
            iterations,
            row.time_ratio(),
            row.node_ratio(),
            100.0 * r.score,
            r.elo.diff,
            r.elo.low,
            r.elo.high,
            speed,
            win
        ));
    }
    if !rows[1].reached {
        t.push_str(&format!(
            "* 50 % not reached before ON took {MAX_SLOWDOWN}x OFF's time per move (or within \
             {MAX_EXTRA_ITERATIONS} more iterations); the last match is shown\n"
        ));
    }
    t
}

/// One JSON object per row.
fn rows_json(name: &str, rows: &[Row; 3]) -> Vec<serde_json::Value> {
    let labels = ["same-iterations", "rebalanced", "equal-time"];
    rows.iter()
        .zip(labels)
        .map(|(row, label)| {
            let r = &row.report;
            json!({
                "testbed": name,
                "row": label,
                "on_iterations": row.iterations,
                "reached_50": row.reached,
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "on_score": r.score,
                "elo": r.elo,
                "speed_time": row.time_ratio(),
                "speed_nodes": row.node_ratio(),
                "on_nodes_per_move": r.a.nodes_per_move,
                "off_nodes_per_move": r.b.nodes_per_move,
                "on_seconds_per_move": r.a.seconds_per_move,
                "off_seconds_per_move": r.b.seconds_per_move,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn an_unknown_testbed_is_an_invalid_option() {
        let options = ReproduceOptions {
            only: vec!["shogi".into()],
            ..ReproduceOptions::default()
        };
        let Err(ExperimentError::InvalidOption { message, .. }) = run(&options, &mut |_, _| {})
        else {
            panic!("`shogi` was accepted");
        };
        assert!(message.contains("othello, random, chess"), "{message}");
    }

    /// The chess players, at the smallest depth and iteration count, play legal games to the end
    /// with the capture search at their leaves.
    #[test]
    fn the_chess_players_play_legal_games() {
        let bed = Testbed {
            name: "chess",
            game: &Chess,
            depth: 1,
            opening_plies: 4,
            off: &chess_off,
            on: &chess_on,
        };
        let report = play(&bed, 1, 1, 1, 5);
        assert_eq!(report.games, 2);
        assert_eq!(report.a.forfeits + report.b.forfeits, 0);
        assert!(report.a.moves > 0 && report.b.moves > 0);
    }

    /// A miniature Othello testbed at depth 2.
    fn with_miniature(check: impl FnOnce(&Testbed<'_, Othello>)) {
        let bed = Testbed {
            name: "Othello",
            game: &Othello,
            depth: 2,
            opening_plies: 4,
            off: &othello_off,
            on: &othello_on,
        };
        check(&bed);
    }

    /// Both players play legal games to the end, and the table prints the paper's figures beside
    /// ours and marks a re-balancing that never reached 50 %.
    #[test]
    fn a_match_is_legal_and_the_table_shows_both_sides() {
        with_miniature(|bed| {
            let report = play(bed, 2, 2, 1, 7);
            assert_eq!(report.games, 2);
            assert_eq!(report.a.forfeits + report.b.forfeits, 0);
            let text = format_table(
                "Othello",
                2,
                &[0, 1, 2].map(|i| Row {
                    iterations: [2, 3, 2][i],
                    report: report.clone(),
                    reached: i != 1,
                }),
                &TREEBEARD,
                "Treebeard",
            );
            assert!(text.contains("20x") && text.contains("72.0%") && text.contains("3*"));
            // Row (c) picks a count in range, from side-by-side calibration matches.
            let mut calibrations = 0;
            let on = equal_time_iterations(bed, 7, &mut || calibrations += 1);
            assert!((1..=2 + MAX_EXTRA_ITERATIONS).contains(&on));
            assert!(calibrations >= on as usize);
        });
    }

    /// Re-balancing raises ON's iterations until 50 % is reached, or lowers them while it is
    /// still reached, and reports the last match it played otherwise.
    #[test]
    fn rebalancing_finds_the_cheapest_count_at_parity() {
        with_miniature(|bed| {
            let mut report = play(bed, 1, 1, 1, 3);
            (report.a.seconds_per_move, report.b.seconds_per_move) = (1.0, 1.0);
            let row = |iterations, reached| Row {
                iterations,
                report: report.clone(),
                reached,
            };
            // Parity from 7 iterations up: raised from 5 to 7.
            let mut tried = Vec::new();
            let up = rebalance(&row(5, false), 5, &mut |i| {
                tried.push(i);
                row(i, i >= 7)
            });
            assert_eq!((up.iterations, up.reached, tried), (7, true, vec![6, 7]));
            // Parity from 3 iterations up, already reached at 5: lowered to 3.
            let mut tried = Vec::new();
            let down = rebalance(&row(5, true), 5, &mut |i| {
                tried.push(i);
                row(i, i >= 3)
            });
            assert_eq!((down.iterations, tried), (3, vec![4, 3, 2]));
            // Never reached: the last match, marked.
            let never = rebalance(&row(5, false), 5, &mut |i| row(i, false));
            assert_eq!(
                (never.iterations, never.reached),
                (5 + MAX_EXTRA_ITERATIONS, false)
            );
            // ON already more than MAX_SLOWDOWN times slower: no dearer match is played.
            let mut slow = row(5, false);
            slow.report.a.seconds_per_move = 2.0 * MAX_SLOWDOWN;
            let capped = rebalance(&slow, 5, &mut |_| unreachable!("a dearer match"));
            assert_eq!((capped.iterations, capped.reached), (5, false));
        });
    }
}

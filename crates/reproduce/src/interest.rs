//! `interest-table`: the Treebeard and Shotest tables of Rollason, *Interest Search — Another way to
//! do Minimax* (AI Factory, 2014), on Othello and on a high-branching random tree.
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
//! killers; no history heuristic, which would override the interest order) with the same move ordering ([`InterestOrdering`] over the game's plausibility)
//! and the same static evaluation; they differ only in the horizon. OFF iterates by depth (depth
//! `d` = iteration `d`); ON iterates by interest with [`InterestHorizon`] at its defaults (sibling
//! tally, similar-moves penalty, separate parities), `limit_step` calibrated so that a move of the
//! game's *base* interest (`1000 / typical legal moves`) costs one step: iteration `i` of ON then
//! "means" depth `i` along a line of ordinary moves, which is what makes "the same number of
//! iterations" a comparison at all.
//!
//! - **Othello**, EV1 (the evaluation of Vu et al. 2016), [`OthelloPlausibility`]
//!   (typical 10 legal moves: `limit_step` 1000), OFF at depth 5. After each of its moves a
//!   player's plausibility learns the search's principal variation (the expected next best move and
//!   killers by number of empties, Treebeard's terms 4–5 at the only grain the engine allows: it has
//!   no callback inside a search); both players learn, so they differ only in the horizon.
//! - **Random tree** (`b=20`, depth 12, Korf–Pemberton–Zhang incremental tree), the static
//!   evaluation [`NodeCost`] and [`StaticGain`] (a gain of 2¹⁴ worth +100 interest; 20 legal moves:
//!   `limit_step` 2000), OFF at depth 3. Rollason reports larger gains for shogi's larger branching;
//!   this is the workspace's stand-in.
//!
//! **Rows.** (a) ON and OFF with the same number of iterations. (b) ON's iterations raised one at a
//! time until it scores at least 50 % against OFF (at most 12 more; if never, the last is shown and
//! marked). (c) Both sides get the same wall-clock time per move: OFF's average time per move in
//! (a), but at least 10 ms (far above the engine's clock-polling granularity), iterating as far
//! as each move's deadline allows. Speed is OFF's time per move over ON's (Rollason's "× faster"),
//! and nodes per move likewise. Every match plays `games` seeded random openings twice with
//! colours swapped (search-core's arena); the score is ON's, with its 95 % Elo interval.
//!
//! Rows (a) and (b) are deterministic for a given `--seed` (node counts always; times are
//! measured); row (c) depends on the machine's speed, as any equal-time match does.

use std::time::Duration;

use game_trait::{
    Evaluator, Limits, NoPruning, Plausibility, Reset, SearchResult, Searcher, ZeroSumGame,
};
use interest_search::{InterestConfig, InterestHorizon, InterestOrdering, StaticGain};
use othello_bitboard::{Ev1, Move, Othello, OthelloPlausibility, Position};
use random_tree::{NodeCost, RandomTree, RandomTreeConfig};
use search_core::arena::{play_match, MatchConfig, MatchReport};
use search_core::{AlphaBeta, AlphaBetaConfig};
use serde_json::json;

use super::{ExperimentError, Report, ReproduceOptions};

/// Registered name.
pub const NAME: &str = "interest-table";
/// One-line description.
pub const DESCRIPTION: &str =
    "Rollason 2014, Treebeard/Shotest tables: interest search ON vs OFF, Othello EV1 and a b=20 random tree";

/// Openings per match by default (each played twice). Treebeard played 500 games; 40 keep the
/// default run to minutes, and the Elo intervals say how much that costs.
const DEFAULT_GAMES: usize = 20;

/// At most this many extra iterations are tried when re-balancing (row b).
const MAX_EXTRA_ITERATIONS: u32 = 12;

/// Iterations of the time-limited searchers of row (c): the deadline stops them first.
const UNBOUNDED_ITERATIONS: u32 = 60;

/// Row (c)'s time per move is at least this: far above the engine's clock-polling granularity
/// ([`search_core::CHECK_INTERVAL`] nodes, about a millisecond for these slow-node searchers), so
/// that "equal time" is equal in fact. OFF's depth-`d` moves can take well under a millisecond.
const MIN_EQUAL_TIME: Duration = Duration::from_millis(10);

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

/// Runs the experiment: both testbeds, three rows each.
pub fn run(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let games = options.games.unwrap_or(DEFAULT_GAMES);
    if games == 0 {
        return Err(ExperimentError::InvalidOption {
            experiment: NAME,
            message: "--games must be at least 1".into(),
        });
    }
    let mut rows = Vec::new();
    let mut text = String::new();
    text.push_str(&format!(
        "interest-table: interest search ON (A) vs OFF (B), {} games per match (seed {})\n\n",
        2 * games,
        options.seed
    ));

    let othello_off = |depth: u32| -> Box<dyn Searcher<Othello>> {
        Box::new(Hinted(
            AlphaBeta::new(Ev1)
                .with_config(engine(depth))
                .with_ordering(InterestOrdering::new(OthelloPlausibility::new())),
        ))
    };
    let othello_on = |iterations: u32| -> Box<dyn Searcher<Othello>> {
        Box::new(Hinted(interest_searcher(
            Ev1,
            OthelloPlausibility::new(),
            1000,
            iterations,
        )))
    };
    let othello = Testbed {
        name: "Othello (EV1)",
        game: &Othello,
        depth: 5,
        opening_plies: 6,
        off: &othello_off,
        on: &othello_on,
    };
    let table = run_testbed(&othello, games, options.seed, progress);
    text.push_str(&format_table(
        othello.name,
        othello.depth,
        &table,
        &TREEBEARD,
        "Treebeard",
    ));
    rows.extend(rows_json(othello.name, &table));

    let tree = RandomTree::new(RandomTreeConfig {
        seed: options.seed,
        ..RandomTreeConfig::uniform(20, 12)
    })
    .map_err(|e| ExperimentError::InvalidOption {
        experiment: NAME,
        message: e.to_string(),
    })?;
    let unit = (tree.exact_edge_bounds().1 / 2).max(1);
    let tree_off = |depth: u32| -> Box<dyn Searcher<RandomTree>> {
        Box::new(
            AlphaBeta::new(NodeCost)
                .with_config(engine(depth))
                .with_ordering(InterestOrdering::new(StaticGain::new(NodeCost, unit))),
        )
    };
    let tree_on = |iterations: u32| -> Box<dyn Searcher<RandomTree>> {
        interest_player(NodeCost, StaticGain::new(NodeCost, unit), 2000, iterations)
    };
    let random = Testbed {
        name: "random tree (b=20, d=12)",
        game: &tree,
        depth: 3,
        opening_plies: 2,
        off: &tree_off,
        on: &tree_on,
    };
    let table = run_testbed(&random, games, options.seed, progress);
    text.push('\n');
    text.push_str(&format_table(
        random.name,
        random.depth,
        &table,
        &SHOTEST,
        "Shotest",
    ));
    rows.extend(rows_json(random.name, &table));

    Ok(Report {
        text,
        rows,
        svg: None,
    })
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

/// The interest-ON engine: the same engine, the interest horizon at its defaults with `limit_step`.
type InterestSearcher<E, Pl> = AlphaBeta<E, NoPruning, InterestHorizon<Pl>, InterestOrdering<Pl>>;

/// Builds the interest-ON engine.
fn interest_searcher<E, Pl: Clone>(
    eval: E,
    plausibility: Pl,
    limit_step: u32,
    iterations: u32,
) -> InterestSearcher<E, Pl> {
    let config = InterestConfig {
        limit_step,
        ..InterestConfig::default()
    };
    AlphaBeta::new(eval)
        .with_config(engine(iterations))
        .with_horizon(InterestHorizon::with_config(config, plausibility.clone()))
        .with_ordering(InterestOrdering::new(plausibility))
}

/// The interest-ON player of a game without per-search hints.
fn interest_player<G, E, Pl>(
    eval: E,
    plausibility: Pl,
    limit_step: u32,
    iterations: u32,
) -> Box<dyn Searcher<G>>
where
    G: ZeroSumGame + 'static,
    E: Evaluator<G> + 'static,
    Pl: Plausibility<G> + Clone + 'static,
{
    Box::new(interest_searcher(
        eval,
        plausibility,
        limit_step,
        iterations,
    ))
}

/// An Othello player whose plausibility is fed the hint terms: after each move's search its
/// principal variation is learned ([`OthelloPlausibility::learn_line`]: the expected next best move
/// and killers by number of empties), so the next search, two plies later, finds its expected line
/// more interesting. The engine offers no callback inside a search, so this is the finest grain
/// available. Both players of the Othello table are hinted, so that they differ only in the horizon.
struct Hinted<H>(AlphaBeta<Ev1, NoPruning, H, InterestOrdering<OthelloPlausibility>>);

/// Horizons that may hold a plausibility to teach (the interest horizon does, depth does not).
trait Teachable {
    fn plausibility(&mut self) -> Option<&mut OthelloPlausibility>;
}

impl Teachable for game_trait::DepthHorizon {
    fn plausibility(&mut self) -> Option<&mut OthelloPlausibility> {
        None
    }
}

impl Teachable for InterestHorizon<OthelloPlausibility> {
    fn plausibility(&mut self) -> Option<&mut OthelloPlausibility> {
        Some(self.plausibility_mut())
    }
}

impl<H> Searcher<Othello> for Hinted<H>
where
    H: Teachable + game_trait::HorizonPolicy<Othello>,
{
    fn search(&mut self, game: &Othello, state: &Position, limits: &Limits) -> SearchResult<Move> {
        let result = self.0.search(game, state, limits);
        if let Some(p) = self.0.horizon_mut().plausibility() {
            p.learn_line(state, &result.pv);
        }
        self.0
            .ordering_mut()
            .plausibility_mut()
            .learn_line(state, &result.pv);
        result
    }
}

impl<H: Teachable> Reset for Hinted<H> {
    fn reset(&mut self) {
        self.0.reset();
        if let Some(p) = self.0.horizon_mut().plausibility() {
            p.clear();
        }
        self.0.ordering_mut().plausibility_mut().clear();
    }
}

/// Plays one match, ON as side A, each move within `time_per_move` if given.
fn play<G: ZeroSumGame>(
    bed: &Testbed<'_, G>,
    on: u32,
    off: u32,
    time_per_move: Option<Duration>,
    games: usize,
    seed: u64,
) -> MatchReport {
    let config = MatchConfig {
        games,
        seed,
        opening_plies: bed.opening_plies,
        limits: Limits::none(),
        time_per_move,
    };
    let (mut a, mut b) = ((bed.on)(on), (bed.off)(off));
    play_match(bed.game, &mut *a, &mut *b, &config, &mut |_, _| {})
}

/// Rows (a), (b), (c) of one testbed. `progress` counts matches.
fn run_testbed<G: ZeroSumGame>(
    bed: &Testbed<'_, G>,
    games: usize,
    seed: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> [Row; 3] {
    let total = u64::from(MAX_EXTRA_ITERATIONS) + 2;
    let mut done = 0;
    let mut tick = |progress: &mut dyn FnMut(u64, u64)| {
        done += 1;
        progress(done, total);
    };
    let d = bed.depth;
    let same = Row {
        iterations: d,
        report: play(bed, d, d, None, games, seed),
        reached: true,
    };
    tick(progress);

    let mut rebalanced = same.clone();
    rebalanced.reached = same.report.score >= 0.5;
    for iterations in d + 1..=d + MAX_EXTRA_ITERATIONS {
        if rebalanced.reached {
            break;
        }
        let report = play(bed, iterations, d, None, games, seed);
        tick(progress);
        rebalanced = Row {
            iterations,
            reached: report.score >= 0.5,
            report,
        };
    }

    let per_move = equal_time_per_move(&same);
    let equal_time = Row {
        iterations: UNBOUNDED_ITERATIONS,
        report: play(
            bed,
            UNBOUNDED_ITERATIONS,
            UNBOUNDED_ITERATIONS,
            Some(per_move),
            games,
            seed,
        ),
        reached: true,
    };
    progress(total, total);
    [same, rebalanced, equal_time]
}

/// Row (c)'s time per move: OFF's average in row (a), at least [`MIN_EQUAL_TIME`].
fn equal_time_per_move(same: &Row) -> Duration {
    Duration::from_secs_f64(same.report.b.seconds_per_move).max(MIN_EQUAL_TIME)
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
        "{name}: OFF = depth {depth} ({:.2} ms per move); equal time = {:.1} ms per move\n",
        1000.0 * rows[0].report.b.seconds_per_move,
        1000.0 * equal_time_per_move(&rows[0]).as_secs_f64()
    );
    t.push_str(&format!(
        "{:<16} {:>6} {:>9} {:>9} {:>7} {:>22}   {program}: {:>6} {:>6}\n",
        "row", "iters", "speed(t)", "speed(n)", "ON %", "Elo ON-OFF [95%]", "speed", "ON %"
    ));
    for (row, &(label, speed, win)) in rows.iter().zip(paper) {
        let r = &row.report;
        let iterations = match (row.iterations, row.reached) {
            (UNBOUNDED_ITERATIONS, _) => "time".to_string(),
            (i, true) => i.to_string(),
            (i, false) => format!("{i}*"),
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
        t.push_str("* 50 % not reached within the iterations tried; the last match is shown\n");
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

    /// A miniature of row (a) on Othello: ON at two iterations searches fewer nodes than OFF at
    /// depth two with the same engine (the sibling tally trims every node), and both play legal
    /// games to the end.
    #[test]
    fn interest_on_searches_less_than_off_at_equal_iterations() {
        let off = |depth: u32| -> Box<dyn Searcher<Othello>> {
            Box::new(
                AlphaBeta::new(Ev1)
                    .with_config(engine(depth))
                    .with_ordering(InterestOrdering::new(OthelloPlausibility::new())),
            )
        };
        let on = |iterations: u32| -> Box<dyn Searcher<Othello>> {
            Box::new(Hinted(interest_searcher(
                Ev1,
                OthelloPlausibility::new(),
                1000,
                iterations,
            )))
        };
        let bed = Testbed {
            name: "Othello",
            game: &Othello,
            depth: 2,
            opening_plies: 4,
            off: &off,
            on: &on,
        };
        let report = play(&bed, 2, 2, None, 1, 7);
        assert_eq!(report.games, 2);
        assert_eq!(report.a.forfeits + report.b.forfeits, 0);
        assert!(report.a.nodes_per_move < report.b.nodes_per_move);
        let text = format_table(
            "Othello",
            2,
            &[0, 1, 2].map(|i| Row {
                iterations: [2, 3, UNBOUNDED_ITERATIONS][i],
                report: report.clone(),
                reached: i != 1,
            }),
            &TREEBEARD,
            "Treebeard",
        );
        assert!(text.contains("20x") && text.contains("72.0%") && text.contains("3*"));
    }
}

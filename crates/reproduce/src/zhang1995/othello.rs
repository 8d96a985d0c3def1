//! `fe-fig3b`: Zhang, *Forward Estimation for Minimax Search* (1995), Figure 3(b): forward
//! estimation against alpha-beta in games of Othello.
//!
//! **The paper's setting.** Bill's evaluation function; edge-cost bounds learned off-line from 10
//! sampled games; with the extreme learned costs and conditions (1) FE "played almost the same as
//! alpha-beta", so Figure 3(b) uses the *most likely* increment and decrement with conditions (2);
//! a tournament is 244 pairs of games, one pair per position after all possible first four moves,
//! the colours swapped within a pair; the horizons follow the protocol of Figure 3(a) (both start
//! at 1, whichever generated fewer nodes in a tournament searches one ply deeper in the next); the
//! curves MORE and LESS as in Figure 3(a); next to each point, FE's CPU time per game over
//! alpha-beta's.
//!
//! **Ours.** EV1 of Vu et al. 2016 (Bill's evaluation is not available);
//! [`learn_offline`] over 10 seeded random games, whose
//! [`likely_bounds`](forward_estimation::LearnedEdges::likely_bounds) (mean rise and mean fall: our
//! reading of "most likely") feed conditions (2) with δ = 1. Both players are search-core's plain
//! α/β with the same fastest-first ordering and differ only in the pruning hook. A pair is won by
//! the side whose two games sum to more discs (with empties to the winner), which for two games
//! with swapped colours is the paper's rule. Horizons stop at [`FIG3B_MAX_AB_HORIZON`] for α/β so
//! that a default run takes minutes; `--games N` plays the first `N` openings only.

use std::time::Instant;

use forward_estimation::{learn_offline, ForwardEstimation};
use game_trait::{ForwardPruning, Limits, MoveList, Searcher, ZeroSumGame};
use othello_bitboard::{Ev1, FastestFirst, Othello, Position};
use search_core::{AlphaBeta, AlphaBetaConfig};
use serde_json::json;

use super::protocol::{play_protocol, points, Point, Tournament};
use crate::svg::{Chart, Series};
use crate::{ExperimentError, Report, ReproduceOptions};

/// Registered name and description.
pub const FIG3B: (&str, &str) = (
    "fe-fig3b",
    "Zhang 1995, Figure 3(b): FE (off-line most likely edge costs) vs alpha-beta, Othello EV1, 244 openings",
);

/// Games sampled to learn the edge costs (the paper's 10).
pub const FIG3B_SAMPLES: usize = 10;
/// The protocol stops once alpha-beta's horizon would pass this (the paper's axis reaches 8).
pub const FIG3B_MAX_AB_HORIZON: u32 = 7;

/// Every position after the first four moves, in generation order (244: perft(4)).
pub fn openings() -> Vec<Position> {
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    let mut frontier = vec![Position::start()];
    for _ in 0..4 {
        let mut next = Vec::new();
        for p in frontier {
            moves.clear();
            Othello.moves(&p, &mut moves);
            next.extend(moves.iter().map(|&mv| p.play_legal(mv)));
        }
        frontier = next;
    }
    out.extend(frontier);
    out
}

/// A side's searcher: search-core's α/β to `horizon` with fastest-first ordering and `pruning`.
fn player<P: ForwardPruning<Othello>>(
    horizon: u32,
    pruning: P,
) -> AlphaBeta<Ev1, P, game_trait::DepthHorizon, FastestFirst> {
    AlphaBeta::new(Ev1)
        .with_config(AlphaBetaConfig::alpha_beta(horizon))
        .with_ordering(FastestFirst::default())
        .with_pruning(pruning)
}

/// Plays one game from `start`; FE plays the side to move at `start` iff `fe_first`. Returns the
/// final disc difference from FE's point of view and the nodes and seconds each side spent.
fn play(
    start: Position,
    fe_first: bool,
    fe: &mut impl Searcher<Othello>,
    ab: &mut impl Searcher<Othello>,
) -> (i32, [u64; 2], [f64; 2]) {
    let fe_side = if fe_first {
        start.side()
    } else {
        start.side().other()
    };
    let (mut p, mut nodes, mut seconds) = (start, [0u64; 2], [0f64; 2]);
    while !p.is_game_over() {
        let fe_moves = p.side() == fe_side;
        let clock = Instant::now();
        let result = if fe_moves {
            fe.search(&Othello, &p, &Limits::none())
        } else {
            ab.search(&Othello, &p, &Limits::none())
        };
        let i = usize::from(!fe_moves);
        seconds[i] += clock.elapsed().as_secs_f64();
        nodes[i] += result.stats.generated;
        // A position that is not over always has a move (a pass included), and α/β names one.
        let mv = result.best_move.unwrap_or_else(|| p.legal_moves()[0]);
        p = p.play_legal(mv);
    }
    let score = p.final_score();
    let fe_score = if p.side() == fe_side { score } else { -score };
    (fe_score, nodes, seconds)
}

/// One tournament: every opening played twice, FE first then second.
fn tournament(
    openings: &[Position],
    pruning: &ForwardEstimation,
    fe_horizon: u32,
    ab_horizon: u32,
) -> Tournament {
    let mut t = Tournament::new(fe_horizon, ab_horizon);
    let mut fe = player(fe_horizon, pruning.clone());
    let mut ab = player(ab_horizon, game_trait::NoPruning);
    for &start in openings {
        let mut total = 0;
        for fe_first in [true, false] {
            let (score, nodes, seconds) = play(start, fe_first, &mut fe, &mut ab);
            total += score;
            t.fe_nodes += nodes[0];
            t.ab_nodes += nodes[1];
            t.fe_seconds += seconds[0];
            t.ab_seconds += seconds[1];
        }
        t.record_pair(total.cmp(&0));
    }
    t
}

/// `fe-fig3b`. See the [module docs](self).
pub fn fig3b(
    options: &ReproduceOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    fig3b_to(options, FIG3B_MAX_AB_HORIZON, progress)
}

/// [`fig3b`] with α/β's last horizon `max_ab` (tests use a small one).
fn fig3b_to(
    options: &ReproduceOptions,
    max_ab: u32,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, ExperimentError> {
    let mut openings = openings();
    if let Some(n) = options.games.or(options.trials) {
        if n == 0 {
            return Err(ExperimentError::InvalidOption {
                experiment: FIG3B.0,
                message: "--games must be at least 1".into(),
            });
        }
        openings.truncate(n);
    }
    let learned = learn_offline(&Othello, &mut Ev1, FIG3B_SAMPLES, options.seed).map_err(|e| {
        ExperimentError::InvalidOption {
            experiment: FIG3B.0,
            message: e.to_string(),
        }
    })?;
    let pruning = ForwardEstimation::new(learned.likely_bounds());
    // A tournament on Othello cannot fail; the protocol's signature allows it for random trees.
    let mut play = |fe_h, ab_h| -> Result<Tournament, ExperimentError> {
        Ok(tournament(&openings, &pruning, fe_h, ab_h))
    };
    let played = play_protocol(max_ab, 8, &mut play, progress)?;
    let mut text = format!(
        "Zhang 1995, Figure 3(b): FE vs alpha-beta on Othello, EV1 (paper: Bill's evaluation), {} pairs of \
         games from the positions after four moves (paper: 244).\n\
         Edge costs learned off-line from {FIG3B_SAMPLES} random games: extremes l = {}, u = {}; most likely \
         l' = {:.0}, u' = {:.0} (paper, Bill: l = -2680916, u = 2993448, l' = -53618, u' = 59869).\n\n\
         Tournaments in the order played:\n{:>4} {:>4} {:>8} {:>5} {:>5} {:>5} {:>12} {:>12} {:>10}\n",
        openings.len(),
        learned.min,
        learned.max,
        learned.mean_decrement,
        learned.mean_increment,
        "FE h",
        "AB h",
        "FE win%",
        "FE",
        "AB",
        "ties",
        "FE nodes",
        "AB nodes",
        "time FE/AB"
    );
    let mut rows = Vec::new();
    for t in &played {
        text += &format!(
            "{:>4} {:>4} {:>8.1} {:>5} {:>5} {:>5} {:>12} {:>12} {:>10.2}\n",
            t.fe_horizon,
            t.ab_horizon,
            t.win_rate(),
            t.fe_wins,
            t.ab_wins,
            t.ties,
            t.fe_nodes,
            t.ab_nodes,
            t.time_ratio()
        );
    }
    text += &format!(
        "\n{:>4} {:>6} {:>10} {:>10} {:>6} {:>10} {:>10}\n",
        "AB h", "MORE h", "MORE win%", "time ratio", "LESS h", "LESS win%", "time ratio"
    );
    let (mut more_curve, mut less_curve) = (Vec::new(), Vec::new());
    for Point {
        ab_horizon: h,
        more,
        less,
    } in points(&played, max_ab, &mut play)?
    {
        text += &format!(
            "{h:>4} {:>6} {:>10.1} {:>10.2} {:>6} {:>10} {:>10}\n",
            more.fe_horizon,
            more.win_rate(),
            more.time_ratio(),
            less.map_or("-".into(), |t| t.fe_horizon.to_string()),
            less.map_or("-".into(), |t| format!("{:.1}", t.win_rate())),
            less.map_or("-".into(), |t| format!("{:.2}", t.time_ratio())),
        );
        more_curve.push((f64::from(h), more.win_rate()));
        let mut curves = vec![("more", more)];
        if let Some(less) = less {
            less_curve.push((f64::from(h), less.win_rate()));
            curves.push(("less", less));
        }
        for (curve, t) in curves {
            rows.push(json!({
                "ab_horizon": h, "curve": curve, "fe_horizon": t.fe_horizon,
                "win_rate": (t.win_rate() * 10.0).round() / 10.0,
                "fe_wins": t.fe_wins, "ab_wins": t.ab_wins, "ties": t.ties,
                "fe_nodes": t.fe_nodes, "ab_nodes": t.ab_nodes,
                "time_ratio": (t.time_ratio() * 100.0).round() / 100.0,
            }));
        }
    }
    text += "\nThe paper gives Figure 3(b) only as a plot: FE reaches the same depth as alpha-beta \
                    with fewer nodes below horizon 3, three levels deeper at horizon 8, and wins with \
                    less CPU time from alpha-beta horizon 3 on.\n";
    let mut svg = None;
    if options.svg {
        let chart = Chart {
            title: "FE vs alpha-beta, Othello (EV1, most likely edge costs)".into(),
            x_label: "alpha-beta lookahead depth".into(),
            y_label: "winning rate of FE (%)".into(),
            series: vec![
                Series {
                    name: "MORE".into(),
                    points: more_curve,
                    dashed: true,
                },
                Series {
                    name: "LESS".into(),
                    points: less_curve,
                    dashed: false,
                },
            ],
            ..Chart::default()
        };
        svg = Some(chart.to_svg());
    }
    Ok(Report { text, rows, svg })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_openings_are_the_244_positions_after_four_moves() {
        let o = openings();
        assert_eq!(o.len(), 244);
        assert!(o.iter().all(|p| p.empty_count() == 56));
    }

    #[test]
    fn a_short_run_plays_the_protocol_and_reports_both_curves() {
        let options = ReproduceOptions {
            games: Some(3),
            seed: 1,
            svg: true,
            ..ReproduceOptions::default()
        };
        let report = fig3b_to(&options, 2, &mut |_, _| {}).unwrap();
        assert!(report.text.contains("MORE"), "{}", report.text);
        assert!(report.svg.is_some());
        for row in &report.rows {
            let (w, l, t) = (&row["fe_wins"], &row["ab_wins"], &row["ties"]);
            let pairs = w.as_u64().unwrap() + l.as_u64().unwrap() + t.as_u64().unwrap();
            assert_eq!(pairs, 3);
        }
    }
}

//! The match runner: Elo arithmetic against hand-computed values, colours alternating over repeated
//! openings, results read from the right side, forfeits, determinism.

use std::time::Duration;

use game_trait::{Bound, Limits, Reset, SearchResult, SearchStats, Searcher};
use search_core::arena::{elo_estimate, elo_of_score, play_match, GameResult, MatchConfig};
use search_core::{Uct, UctConfig};
use test_games::{Nim, Pile};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn elo_of_a_score() {
    assert!(close(elo_of_score(0.5), 0.0));
    // 0.76 is the classic "+200": -400 log10(1/0.76 - 1) = 200.2409...
    assert!(close(elo_of_score(0.76), 200.240_940_227_674));
    assert!(close(elo_of_score(0.24), -200.240_940_227_674));
}

#[test]
fn elo_interval_by_hand() {
    // 6 wins, 2 draws, 2 losses: s = 0.7, per-game variance (6·0.09 + 2·0.04 + 2·0.49)/10 = 0.16,
    // effective games m = 10 · 0.21 / 0.16 = 13.125; Wilson: centre 0.654716, half-width 0.222709,
    // so the score lies in [0.432007, 0.877424].
    let e = elo_estimate(6, 2, 2);
    assert!(close(e.diff, 147.190_714_117_838));
    assert!(close(e.low, -47.540_818_257_490));
    assert!(close(e.high, 341.922_246_493_165));
    // Even score, symmetric interval; all draws is as uncertain as an even Bernoulli score.
    let even = elo_estimate(3, 4, 3);
    assert!(close(even.diff, 0.0));
    assert!(close(even.low, -even.high));
    assert!(close(even.high, 160.981_589_875_091));
    assert!(close(elo_estimate(0, 10, 0).high, 203.504_974_971_228));
}

#[test]
fn elo_clamps_extreme_scores_to_half_a_game() {
    // 10 out of 10: the score counts as 9.5 / 10; Wilson's interval still has a width:
    // [0.722460, 1], its open end shown at the clamp.
    let perfect = elo_estimate(10, 0, 0);
    assert!(close(perfect.diff, 511.501_440_381_132));
    assert!(close(perfect.low, 166.195_142_914_819));
    assert_eq!(perfect.high, perfect.diff);
    let zero = elo_estimate(0, 0, 20);
    assert!(close(zero.diff, -636.425_842_810_600));
    assert!(close(zero.high, -286.607_141_180_412));
    // 3 wins, 7 losses, no draws: the plain Wilson interval [0.107789, 0.603227].
    let e = elo_estimate(3, 0, 7);
    assert!(close(e.diff, -147.190_714_117_838));
    assert!(close(e.low, -367.156_732_897_586));
    assert!(close(e.high, 72.775_304_661_910));
    // More games, narrower interval around the same score.
    let more = elo_estimate(28, 0, 12);
    assert!(more.low > -47.6 && more.high < 341.9 && more.high - more.low < e.high - e.low);
    assert!(elo_estimate(0, 0, 0).diff.is_nan());
}

/// Twenty stones.
const NIM: Nim = Nim { stones: 20 };

/// A searcher playing a fixed rule; reports 1 node per search.
struct Rule(fn(&Pile) -> u32);

impl Searcher<Nim> for Rule {
    fn search(&mut self, _: &Nim, state: &Pile, _: &Limits) -> SearchResult<u32> {
        let mv = (self.0)(state);
        SearchResult {
            best_move: Some(mv),
            value: 0,
            bound: Bound::Exact,
            pv: vec![mv],
            depth: 1,
            stats: SearchStats {
                generated: 1,
                ..SearchStats::default()
            },
            elapsed: Duration::ZERO,
        }
    }
}

impl Reset for Rule {}

fn perfect() -> Rule {
    Rule(|s| if s.stones % 3 == 0 { 1 } else { s.stones % 3 })
}

fn first() -> Rule {
    Rule(|_| 1)
}

fn config(games: usize, seed: u64) -> MatchConfig {
    MatchConfig {
        games,
        seed,
        opening_plies: 3,
        limits: Limits::none(),
        time_per_move: None,
    }
}

#[test]
fn each_opening_is_played_twice_with_colours_swapped() {
    let mut calls = Vec::new();
    let report = play_match(
        &NIM,
        &mut perfect(),
        &mut perfect(),
        &config(8, 5),
        &mut |done, total| calls.push((done, total)),
    );
    assert_eq!(report.games, 16);
    assert_eq!(report.records.len(), 16);
    for (i, pair) in report.records.chunks(2).enumerate() {
        assert_eq!((pair[0].opening, pair[1].opening), (i, i));
        assert_eq!((pair[0].a_player, pair[1].a_player), (0, 1));
        assert_eq!(pair[0].opening_moves, pair[1].opening_moves);
        assert_eq!(pair[0].opening_moves.len(), 3);
        // Perfect play from the same position: whoever holds the winning side wins, so swapping
        // colours swaps the result.
        assert_ne!(pair[0].outcome, pair[1].outcome, "{pair:?}");
        assert_eq!(pair[0].plies, pair[1].plies);
    }
    assert_eq!((report.wins, report.losses, report.draws), (8, 8, 0));
    assert!(close(report.score, 0.5));
    assert!(close(report.elo.diff, 0.0));
    // Openings are random: not all the same.
    assert!(report
        .records
        .iter()
        .any(|r| r.opening_moves != report.records[0].opening_moves));
    // Progress: once before the first game, then after each.
    assert_eq!(calls.len(), 17);
    assert_eq!(calls[0], (0, 16));
    assert_eq!(calls[16], (16, 16));
}

#[test]
fn results_are_read_for_the_right_side() {
    // Perfect play beats "always take one" from every position, on either side.
    let report = play_match(
        &NIM,
        &mut perfect(),
        &mut first(),
        &config(6, 9),
        &mut |_, _| {},
    );
    assert_eq!((report.wins, report.draws, report.losses), (12, 0, 0));
    assert!(report
        .records
        .iter()
        .all(|r| r.outcome == GameResult::Win && !r.forfeit));
    let reversed = play_match(
        &NIM,
        &mut first(),
        &mut perfect(),
        &config(6, 9),
        &mut |_, _| {},
    );
    assert_eq!((reversed.wins, reversed.losses), (0, 12));
    // Each side's figures: one node per move, moves adding up to the plies played.
    let plies: u64 = report.records.iter().map(|r| u64::from(r.plies)).sum();
    assert_eq!(report.a.moves + report.b.moves, plies);
    assert_eq!(report.a.nodes, report.a.moves);
    assert!(close(report.a.nodes_per_move, 1.0));
}

#[test]
fn an_illegal_move_forfeits_the_game() {
    let mut cheat = Rule(|_| 3);
    let report = play_match(
        &NIM,
        &mut cheat,
        &mut first(),
        &config(4, 2),
        &mut |_, _| {},
    );
    assert_eq!(report.losses, 8);
    assert_eq!(report.a.forfeits, 8);
    assert_eq!(report.b.forfeits, 0);
    assert!(report.records.iter().all(|r| r.forfeit));
}

#[test]
fn same_seed_same_match() {
    let run = |seed| {
        let mut a = Uct::new(UctConfig {
            simulations: 200,
            ..UctConfig::default()
        });
        let mut b = Uct::new(UctConfig {
            simulations: 50,
            seed: 9,
            ..UctConfig::default()
        });
        play_match(&NIM, &mut a, &mut b, &config(5, seed), &mut |_, _| {})
    };
    let (x, y) = (run(3), run(3));
    assert_eq!(x.records, y.records);
    assert_eq!((x.a.nodes, x.b.nodes), (y.a.nodes, y.b.nodes));
    let z = run(4);
    assert_ne!(
        x.records
            .iter()
            .map(|r| &r.opening_moves)
            .collect::<Vec<_>>(),
        z.records
            .iter()
            .map(|r| &r.opening_moves)
            .collect::<Vec<_>>()
    );
}

/// Records the deadline of every search it is asked to make, and takes one stone.
struct DeadlineRecorder(Vec<Option<std::time::Instant>>);

impl Searcher<Nim> for DeadlineRecorder {
    fn search(&mut self, nim: &Nim, state: &Pile, limits: &Limits) -> SearchResult<u32> {
        self.0.push(limits.deadline);
        first().search(nim, state, limits)
    }
}

impl Reset for DeadlineRecorder {}

#[test]
fn time_per_move_gives_every_search_its_own_deadline() {
    let time = Duration::from_secs(3600);
    let timed = MatchConfig {
        time_per_move: Some(time),
        ..config(2, 5)
    };
    let (mut a, mut b) = (DeadlineRecorder(Vec::new()), DeadlineRecorder(Vec::new()));
    let before = std::time::Instant::now();
    play_match(&NIM, &mut a, &mut b, &timed, &mut |_, _| {});
    let after = std::time::Instant::now();
    let mut deadlines: Vec<_> = a.0.iter().chain(&b.0).map(|d| d.unwrap()).collect();
    assert!(deadlines.len() > 4);
    // Each deadline is `time` after its own search began: all within the match's span, and not
    // one shared instant.
    assert!(deadlines
        .iter()
        .all(|&d| d >= before + time && d <= after + time));
    deadlines.sort();
    deadlines.dedup();
    assert!(deadlines.len() > 1, "every move got the same deadline");
    // A match-wide deadline that comes first is kept.
    let match_deadline = std::time::Instant::now() + Duration::from_secs(60);
    let capped = MatchConfig {
        limits: Limits {
            deadline: Some(match_deadline),
            ..Limits::none()
        },
        ..timed
    };
    let mut capped_a = DeadlineRecorder(Vec::new());
    play_match(&NIM, &mut capped_a, &mut first(), &capped, &mut |_, _| {});
    assert!(capped_a.0.iter().all(|&d| d == Some(match_deadline)));
    // Without it the limits pass through untouched.
    let mut plain = DeadlineRecorder(Vec::new());
    play_match(
        &NIM,
        &mut plain,
        &mut first(),
        &config(1, 5),
        &mut |_, _| {},
    );
    assert!(plain.0.iter().all(Option::is_none));
}

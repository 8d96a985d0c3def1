//! The match runner: [`play_match`] plays two searchers against each other on a two-player zero-sum
//! game and reports the score with an Elo difference and its 95% interval.
//!
//! # How a match is played
//! - [`MatchConfig::games`] random openings are drawn from [`MatchConfig::seed`] (a [`Pcg64`]): each
//!   is [`MatchConfig::opening_plies`] uniformly random legal moves from the initial state. An opening
//!   that finishes the game is drawn again (up to 100 times; then it is kept as it is).
//! - Each opening is played **twice with colours swapped**: in game `2i` searcher A plays player 0,
//!   in game `2i + 1` player 1. Same seed ⇒ same openings.
//! - Before every game both searchers are [`reset`](game_trait::Reset::reset), so games are
//!   independent of their order.
//! - Every move is a [`Searcher::search`] under [`MatchConfig::limits`]. A searcher that returns no
//!   move or an illegal one in an unfinished game **forfeits** (loses that game); forfeits are counted
//!   per side. Games must be finite: the runner imposes no length limit.
//! - The result is read from [`ZeroSumGame::outcome`] at the end: the side to move's
//!   [`Outcome`](game_trait::Outcome), whose margin's sign says who won.
//!
//! # The Elo estimate
//! With `n` games, `w` wins, `d` draws and `l` losses (A's view), the score is `s = (w + d/2) / n`
//! and the logistic Elo difference `D(s) = −400 · log10(1/s − 1)` (so `s = 0.76` gives ≈ +200; the
//! logistic form of Elo's rating, *The Rating of Chessplayers, Past and Present*, 1978).
//!
//! The 95% interval is the **Wilson score interval** (Wilson, *Probable Inference, the Law of
//! Succession, and Statistical Inference*, 1927) of `s` mapped through `D`, with `z = 1.96`:
//!
//! ```text
//! [D(c − h), D(c + h)],  c = (s + z²/2m) / (1 + z²/m),  h = z / (1 + z²/m) · sqrt(s(1 − s)/m + z²/4m²)
//! ```
//!
//! where `m` is the effective number of games: `m = n · s(1 − s) / v`, `v` the per-game variance of
//! the results (1, ½, 0) around `s`, `v = (w(1 − s)² + d(½ − s)² + l·s²) / n`. Without draws `v =
//! s(1 − s)` and `m = n`: the plain Wilson interval; draws shrink the variance and so narrow the
//! interval. When every game has the same result (`v = 0`) `m = n`. Unlike the normal approximation,
//! Wilson's interval does not collapse onto the estimate for a 10–0 score: it says how little ten
//! games prove.
//!
//! `D` is infinite at 0 and 1, so every score (the estimate and the two ends of the interval) is first
//! clamped to `[1/(2n), 1 − 1/(2n)]`: a perfect score counts as half a game short of perfect, and
//! the open end of its interval is shown at that clamp. With no games every figure is NaN.

use std::time::{Duration, Instant};

use game_trait::{Limits, MoveList, PlayerId, Searcher, ZeroSumGame};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

/// How many times an opening that ends the game is drawn again.
const OPENING_ATTEMPTS: u32 = 100;

/// What a match consists of.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of openings; each is played twice (colours swapped), so the match has `2 · games`
    /// games. Default 10.
    pub games: usize,
    /// Seed of the random openings. Default 1.
    pub seed: u64,
    /// Random legal plies of each opening before the searchers take over. Default 4.
    pub opening_plies: u32,
    /// Limits of every move's search (both sides). Default: none, i.e. each searcher's own
    /// configured depth or simulation count. A `deadline` here is an instant, so it bounds the
    /// whole match; for a time limit per move use [`time_per_move`](Self::time_per_move).
    pub limits: Limits,
    /// Wall-clock time of each move's search: every search gets a deadline this long after it
    /// starts (on top of `limits`). Default: none.
    pub time_per_move: Option<Duration>,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            games: 10,
            seed: 1,
            opening_plies: 4,
            limits: Limits::none(),
            time_per_move: None,
        }
    }
}

/// How a game ended, from searcher A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// A won.
    Win,
    /// Neither won.
    Draw,
    /// A lost.
    Loss,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index of the opening (`0..games`); games `2i` and `2i + 1` share opening `i`.
    pub opening: usize,
    /// The opening's moves, by [`Game::move_name`](game_trait::Game::move_name).
    pub opening_moves: Vec<String>,
    /// The player searcher A played (0 in even games, 1 in odd ones).
    pub a_player: PlayerId,
    /// Plies played after the opening.
    pub plies: u32,
    /// The result for A.
    pub outcome: GameResult,
    /// Whether the game was decided by a forfeit (no move, or an illegal one).
    pub forfeit: bool,
}

/// What one side did over a match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideReport {
    /// Moves searched.
    pub moves: u64,
    /// Nodes generated over all moves ([`SearchStats::generated`](game_trait::SearchStats)).
    pub nodes: u64,
    /// Wall-clock seconds spent in `search`, as measured by the runner.
    pub seconds: f64,
    /// `nodes / moves` (0 without moves).
    pub nodes_per_move: f64,
    /// `seconds / moves` (0 without moves).
    pub seconds_per_move: f64,
    /// Games lost by returning no move or an illegal one.
    pub forfeits: u64,
}

/// An Elo difference with its 95% interval (see the [module docs](self) for the formulas).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Estimated Elo difference, A minus B.
    pub diff: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The outcome of [`play_match`], from searcher A's point of view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchReport {
    /// Games played (`2 · games`).
    pub games: u64,
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// A's score, `(wins + draws / 2) / games` (NaN without games).
    pub score: f64,
    /// A's Elo difference over B.
    pub elo: EloEstimate,
    /// Searcher A's figures.
    pub a: SideReport,
    /// Searcher B's figures.
    pub b: SideReport,
    /// Every game, in the order played.
    pub records: Vec<GameRecord>,
}

/// The logistic Elo difference of a score: `−400 · log10(1/score − 1)`; infinite at 0 and 1 (see
/// [`elo_estimate`] for the clamped version).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The Elo difference and its 95% interval for `wins`, `draws` and `losses` (see the
/// [module docs](self): Wilson's score interval over the effective number of games, each score
/// clamped to `[1/(2n), 1 − 1/(2n)]`).
pub fn elo_estimate(wins: u64, draws: u64, losses: u64) -> EloEstimate {
    const Z: f64 = 1.96;
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return EloEstimate {
            diff: f64::NAN,
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let (w, d, l) = (wins as f64, draws as f64, losses as f64);
    let s = (w + d / 2.0) / n;
    let variance = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    let m = if variance > 0.0 {
        n * s * (1.0 - s) / variance
    } else {
        n
    };
    let z2 = Z * Z;
    let centre = (s + z2 / (2.0 * m)) / (1.0 + z2 / m);
    let half = Z / (1.0 + z2 / m) * (s * (1.0 - s) / m + z2 / (4.0 * m * m)).sqrt();
    let eps = 0.5 / n;
    let elo = |score: f64| elo_of_score(score.clamp(eps, 1.0 - eps));
    EloEstimate {
        diff: elo(s),
        low: elo(centre - half),
        high: elo(centre + half),
    }
}

/// Plays `2 · config.games` games between `a` and `b` on `game` (see the [module docs](self)) and
/// reports the result from A's point of view. `progress(done, total)` is called before the first game
/// and after each one.
///
/// ```
/// # use game_trait::{Game, MoveList, Outcome, PlayerId, ZeroSumGame};
/// # use search_core::arena::{play_match, MatchConfig};
/// # #[derive(Clone, Copy, Debug)] struct Pile { stones: u32, mover: PlayerId }
/// # struct Nim;
/// # impl Game for Nim {
/// #     type State = Pile; type Move = u32;
/// #     fn initial_state(&self) -> Pile { Pile { stones: 9, mover: 0 } }
/// #     fn apply(&self, s: &mut Pile, t: u32) -> Option<Pile> { Some(Pile { stones: s.stones - t, mover: 1 - s.mover }) }
/// # }
/// # impl ZeroSumGame for Nim {
/// #     fn side_to_move(&self, s: &Pile) -> PlayerId { s.mover }
/// #     fn outcome(&self, s: &Pile) -> Option<Outcome> { (s.stones == 0).then_some(Outcome::LOSS) }
/// #     fn moves(&self, s: &Pile, m: &mut MoveList<u32>) { m.extend((1..=2).filter(|&n| n <= s.stones)); }
/// # }
/// use search_core::{Uct, UctConfig};
/// let mut strong = Uct::new(UctConfig { simulations: 2_000, ..UctConfig::default() });
/// let mut weak = Uct::new(UctConfig { simulations: 1, ..UctConfig::default() });
/// let config = MatchConfig { games: 3, opening_plies: 1, ..MatchConfig::default() };
/// let report = play_match(&Nim, &mut strong, &mut weak, &config, &mut |_, _| {});
/// assert_eq!(report.games, 6);
/// assert_eq!(report.wins + report.draws + report.losses, 6);
/// println!("{:.0}% → Elo {:+.0} ({:+.0} .. {:+.0})", 100.0 * report.score,
///          report.elo.diff, report.elo.low, report.elo.high);
/// ```
pub fn play_match<G, A, B>(
    game: &G,
    a: &mut A,
    b: &mut B,
    config: &MatchConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> MatchReport
where
    G: ZeroSumGame,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    play_match_from(game, &game.initial_state(), a, b, config, progress)
}

/// [`play_match`] from `root` instead of the game's initial state: every opening's random plies
/// start there.
pub fn play_match_from<G, A, B>(
    game: &G,
    root: &G::State,
    a: &mut A,
    b: &mut B,
    config: &MatchConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> MatchReport
where
    G: ZeroSumGame,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    let total = 2 * config.games as u64;
    let openings = openings(game, root, config);
    let mut games = Vec::with_capacity(2 * config.games);
    progress(0, total);
    for index in 0..2 * config.games {
        games.push(play_one(game, &openings, index, a, b, config));
        progress(games.len() as u64, total);
    }
    report_of(&games)
}

/// An opening of a match: the position and its moves' names.
pub type Opening<G> = (<G as game_trait::Game>::State, Vec<String>);

/// The match's openings, drawn in order from [`MatchConfig::seed`]: game `i` of the match starts
/// from opening `i / 2`. They are cheap to draw, so a part of a match (one shard of its games)
/// draws them all and plays its own games: the same games as the whole match.
pub fn openings<G: ZeroSumGame>(
    game: &G,
    root: &G::State,
    config: &MatchConfig,
) -> Vec<Opening<G>> {
    let mut rng = Pcg64::seed_from_u64(config.seed);
    (0..config.games)
        .map(|_| random_opening(game, root, config.opening_plies, &mut rng))
        .collect()
}

/// One game of a match: its record and what each side did in it (A first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamePlayed {
    /// The game.
    pub record: GameRecord,
    /// Searcher A's figures in this game.
    pub a: SideReport,
    /// Searcher B's figures in this game.
    pub b: SideReport,
}

/// Game `index` of a match (`0..2 · games`): opening `index / 2`, A playing player `index % 2`.
/// Both searchers are reset first, so the game does not depend on the games played before.
///
/// # Panics
/// If `openings` has no opening `index / 2`.
pub fn play_one<G, A, B>(
    game: &G,
    openings: &[Opening<G>],
    index: usize,
    a: &mut A,
    b: &mut B,
    config: &MatchConfig,
) -> GamePlayed
where
    G: ZeroSumGame,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    let (start, opening_moves) = &openings[index / 2];
    let a_player = index % 2;
    a.reset();
    b.reset();
    let mut sides = [SideReport::default(), SideReport::default()];
    let played = play_game(game, start.clone(), a, b, a_player, config, &mut sides);
    let [a, b] = sides;
    let record = GameRecord {
        opening: index / 2,
        opening_moves: opening_moves.clone(),
        a_player,
        plies: played.plies,
        outcome: played.outcome,
        forfeit: played.forfeit,
    };
    GamePlayed { record, a, b }
}

/// Plays `plies` uniformly random legal moves from `root`, drawing again (a bounded number of times)
/// if that finishes the game. Returns the position and the moves' names.
fn random_opening<G: ZeroSumGame>(
    game: &G,
    root: &G::State,
    plies: u32,
    rng: &mut Pcg64,
) -> (G::State, Vec<String>) {
    let mut moves = MoveList::new();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut state = root.clone();
        let mut names = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            if game.outcome(&state).is_some() {
                break;
            }
            moves.clear();
            game.moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            names.push(game.move_name(&state, mv));
            game.play(&mut state, mv);
        }
        if game.outcome(&state).is_none() || attempt >= OPENING_ATTEMPTS {
            return (state, names);
        }
    }
}

/// How one game went.
struct Played {
    plies: u32,
    outcome: GameResult,
    forfeit: bool,
}

/// Plays one game from `state`, A playing `a_player`, adding each side's work to `sides` (0 = A).
fn play_game<G, A, B>(
    game: &G,
    mut state: G::State,
    a: &mut A,
    b: &mut B,
    a_player: PlayerId,
    config: &MatchConfig,
    sides: &mut [SideReport; 2],
) -> Played
where
    G: ZeroSumGame,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    let mut legal = MoveList::new();
    let mut plies = 0;
    let outcome = loop {
        if let Some(outcome) = game.outcome(&state) {
            break outcome;
        }
        let mover = game.side_to_move(&state);
        let side = usize::from(mover != a_player);
        let mut limits = config.limits.clone();
        if let Some(time) = config.time_per_move {
            // The earlier of the match's deadline, if any, and this move's.
            let this_move = Instant::now() + time;
            limits.deadline = Some(limits.deadline.map_or(this_move, |d| d.min(this_move)));
        }
        let clock = Instant::now();
        let result = if side == 0 {
            a.search(game, &state, &limits)
        } else {
            b.search(game, &state, &limits)
        };
        let report = &mut sides[side];
        report.seconds += clock.elapsed().as_secs_f64();
        report.nodes += result.stats.generated;
        report.moves += 1;
        legal.clear();
        game.moves(&state, &mut legal);
        match result.best_move.filter(|mv| legal.contains(mv)) {
            Some(mv) => game.play(&mut state, mv),
            None => {
                report.forfeits += 1;
                let outcome = if side == 0 {
                    GameResult::Loss
                } else {
                    GameResult::Win
                };
                return Played {
                    plies,
                    outcome,
                    forfeit: true,
                };
            }
        }
        plies += 1;
    };
    let for_a = if game.side_to_move(&state) == a_player {
        outcome
    } else {
        outcome.for_opponent()
    };
    let outcome = match for_a.margin().signum() {
        1 => GameResult::Win,
        -1 => GameResult::Loss,
        _ => GameResult::Draw,
    };
    Played {
        plies,
        outcome,
        forfeit: false,
    }
}

/// Totals the games of a match, in order, into its report.
pub fn report_of(games: &[GamePlayed]) -> MatchReport {
    let mut sides = [SideReport::default(), SideReport::default()];
    for played in games {
        for (total, side) in sides.iter_mut().zip([&played.a, &played.b]) {
            total.moves += side.moves;
            total.nodes += side.nodes;
            total.seconds += side.seconds;
            total.forfeits += side.forfeits;
        }
    }
    let records = games.iter().map(|g| g.record.clone()).collect();
    report(sides, records)
}

/// Totals the games into a report.
fn report(sides: [SideReport; 2], records: Vec<GameRecord>) -> MatchReport {
    let count = |o: GameResult| records.iter().filter(|r| r.outcome == o).count() as u64;
    let (wins, draws, losses) = (
        count(GameResult::Win),
        count(GameResult::Draw),
        count(GameResult::Loss),
    );
    let games = records.len() as u64;
    let [a, b] = sides.map(|mut side| {
        if side.moves > 0 {
            side.nodes_per_move = side.nodes as f64 / side.moves as f64;
            side.seconds_per_move = side.seconds / side.moves as f64;
        }
        side
    });
    MatchReport {
        games,
        wins,
        draws,
        losses,
        score: (wins as f64 + draws as f64 / 2.0) / games as f64,
        elo: elo_estimate(wins, draws, losses),
        a,
        b,
        records,
    }
}

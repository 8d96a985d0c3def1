//! search-core side by side with minimax-rs (the `minimax` crate, 0.6) on the same Connect Four.
//!
//! Measured with `cargo bench -p gametree-benches --bench vs_minimax` on the 2-core machine with
//! nothing else running (load average 1.0–1.9 from the machine's own threads), 2026-12-01: the
//! binaries of bdef185 and of 02a5456 (tables of 2 MiB or more on huge pages), twice each,
//! alternating. Ours / theirs time, median of the interleaved rounds (docs/reproductions.md,
//! "search-core vs minimax-rs", has the ranges, the node counts, earlier runs and the profiles):
//!
//! | group | pair | bdef185 | huge pages |
//! |---|---|---|---|
//! | fixed | `AlphaBeta` / `Negamax`, depth 9, no table | 0.99, 1.00 | 1.00, 0.98 (the same code) |
//! | plain | `AlphaBeta`, depth 9, no table / a bare negamax α/β | 1.42, 1.43 | 1.40, 1.41 (the same code) |
//! | iterative | `pvs` / `IterativeSearch`, 16 MiB table, depth 12 | 0.88, 0.97 | 0.73, 0.85 |
//! | iterative | `pvs` without killers and history / `IterativeSearch` | 0.75, 0.70 | 0.61, 0.68 |
//! | mcts | `Uct` / `MonteCarloTreeSearch`, 20,000 simulations, 1 thread | 0.52, 0.47 | 0.47, 0.49 (the same code) |
//! | mcts | same, 2 threads | 0.38, 0.34 | 0.33, 0.37 |
//! | parallel | `search_parallel` / `ParallelSearch`, depth 15, 1 thread | 0.92, 1.13 | 0.87, 0.96 |
//! | parallel | same, 2 threads | 0.33, 0.27 | 0.28, 0.32 |
//!
//! One Connect Four (7×6 bitboard, John Tromp's layout), written once for gametree's
//! `ZeroSumGame` and once for minimax-rs's `Game`, sharing the rules, the hash (`mix64` of
//! `mine + taken`), the move order (centre first: columns 4 3 5 2 6 1 7) and the evaluation (100
//! per threat, an empty cell that would complete four, and 3 per stone in the centre column, side
//! to move minus opponent; a loss is −32767, minimax-rs's `WORST_EVAL`, on both sides). Before
//! timing anything, each group checks that both searches return the same root value at every
//! depth it times and that the move each one picks is worth that value (minimax-rs shifts mate
//! scores by one per ply and picks among equal moves at random, so values are compared with its
//! mate scores folded back to ±32767, and moves by their value rather than by name); it prints the
//! node counts (positions generated, the root included, counted through `apply` on both sides).
//!
//! Groups (`cargo bench -p gametree-benches --bench vs_minimax [-- GROUP]`; `uct_root` runs only
//! when named):
//! - `fixed`: fixed-depth α/β without a table: our `AlphaBeta` with `AlphaBetaConfig::alpha_beta`
//!   (generation order, no table, no killers) against minimax-rs's `Negamax`, which shuffles the
//!   root moves at random (so its node count varies from run to run) and orders the rest as
//!   generated.
//! - `plain`: the same `AlphaBeta` against [`bare`], a fail-soft negamax α/β of a dozen lines on
//!   the same game (no bounds, no line, no counts, no limits), after checking their values agree
//!   at every depth: what the engine's bookkeeping costs where nothing is switched on. And both
//!   against [`Accounted`], the bare α/β held to what the engine returns (a `MoveList`, the
//!   counts, limit checks, bounds, the line), checked equal to the engine in value, bound, line
//!   and counts at every depth: the engine measured 0.99–1.03 times its time, which measured
//!   1.41–1.46 times the bare loop's (2026-12-02, three runs, nothing else running, load average
//!   0.9–1.2).
//! - `iterative`: iterative deepening with a 16 MiB transposition table to a fixed depth: our
//!   `AlphaBetaConfig::pvs` preset (PVS, table, killers, history), and the same without killers and
//!   history, against minimax-rs's `IterativeSearch` with its default options (two-tier table,
//!   null-window search) and a 16 MiB table. Every timed search starts from an empty table.
//! - `mcts`: our `Uct` (root-parallel on 2 threads) against minimax-rs's `MonteCarloTreeSearch`
//!   (tree-parallel with virtual loss) at the same number of simulations from the start position,
//!   1 and 2 threads; throughput in simulations per second.
//! - `parallel`: our `AlphaBeta::search_parallel` (Lazy SMP with move deferral, `pvs` preset with a
//!   16 MiB table) against minimax-rs's `ParallelSearch` (Young Brothers Wait on rayon, default
//!   options, 16 MiB table), 1 and 2 threads, to a depth that takes about a second on one thread.
//! - `uct_root`: not a timing; the root statistics of both UCTs on the empty board at 200,000 to
//!   2,500,000 simulations (see [`uct_root`]).
//!
//! After each group the bench prints `ours / theirs` for the group's pairs: the median over the
//! interleaved rounds of each round's ratio, its range, and the mean times, each pair measured in
//! the same run.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput,
};
use gametree::game::{
    mix64, Bound, Evaluator, Game, Limits, MoveList, Outcome, PlayerId, Reset, Score, SearchResult,
    SearchStats, Searcher, ZeroSumGame, INFINITY,
};
use gametree::search::{AlphaBeta, AlphaBetaConfig, Uct, UctConfig};
use minimax::Strategy;

// ---------------------------------------------------------------------------------------------
// The game, once.

const WIDTH: u32 = 7;
const HEIGHT: u32 = 6;
/// The bottom cell of every column.
const BOTTOM: u64 = {
    let (mut bits, mut column) = (0, 0);
    while column < WIDTH {
        bits |= 1 << (7 * column);
        column += 1;
    }
    bits
};
/// Every playable cell.
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// The centre column.
const CENTRE: u64 = 0x3f << (7 * 3);
/// The order in which both games list their moves: centre first.
const ORDER: [u32; 7] = [3, 2, 4, 1, 5, 0, 6];
/// minimax-rs's win (`BEST_EVAL`); a loss is its negation.
const BEST: Score = minimax::BEST_EVAL as Score;

/// A position: the stones of the player to move, every stone, and the number of stones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Position {
    mine: u64,
    taken: u64,
    stones: u32,
}

/// Positions generated by `C4<true>`, on every thread.
static GENERATED: AtomicU64 = AtomicU64::new(0);

impl Position {
    /// The stones of the player who just moved.
    #[inline]
    fn theirs(&self) -> u64 {
        self.mine ^ self.taken
    }

    /// The position after a stone in `column`; counted in [`GENERATED`] if `COUNT`.
    #[inline]
    fn play<const COUNT: bool>(&self, column: u32) -> Position {
        if COUNT {
            GENERATED.fetch_add(1, Ordering::Relaxed);
        }
        // Adding the column's bottom bit carries up to the column's first empty cell.
        Position {
            mine: self.theirs(),
            taken: self.taken | (self.taken + (1 << (7 * column))),
            stones: self.stones + 1,
        }
    }

    /// The position after the columns of `moves` (digits 1 to 7) from the empty board.
    fn after(moves: &str) -> Position {
        moves.bytes().fold(Position::default(), |p, c| {
            p.play::<false>(u32::from(c - b'1'))
        })
    }

    /// Whether the player who just moved made four in a row.
    #[inline]
    fn lost(&self) -> bool {
        let stones = self.theirs();
        [1, 7, 6, 8].iter().any(|&d| {
            let pairs = stones & (stones >> d);
            pairs & (pairs >> (2 * d)) != 0
        })
    }

    #[inline]
    fn full(&self) -> bool {
        self.stones == WIDTH * HEIGHT
    }

    /// The legal columns, centre first. The constant is iterated by reference: an iterator
    /// owning a copy of the array is moved into `SmallVec::extend`'s frame on every call, which
    /// cost our side 7 % of `fixed` (minimax-rs's `Vec::extend` does not pay it).
    #[inline]
    fn moves(&self) -> impl Iterator<Item = u32> + '_ {
        ORDER
            .iter()
            .copied()
            .filter(|&c| self.taken & (1 << (HEIGHT - 1 + 7 * c)) == 0)
    }

    #[inline]
    fn key(&self) -> u64 {
        mix64(self.mine + self.taken) // mine + taken identifies a position
    }

    /// 100 per threat and 3 per centre stone, side to move minus opponent.
    #[inline]
    fn evaluate(&self) -> Score {
        let count = |bits: u64| bits.count_ones() as Score;
        let (mine, theirs) = (self.mine, self.theirs());
        100 * (count(threats(mine, self.taken)) - count(threats(theirs, self.taken)))
            + 3 * (count(mine & CENTRE) - count(theirs & CENTRE))
    }
}

/// The empty cells where a stone would complete four in a row of `stones` (Pascal Pons' threat
/// mask).
#[inline]
fn threats(stones: u64, taken: u64) -> u64 {
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for d in [7, 6, 8] {
        let pair = (stones << d) & (stones << (2 * d));
        cells |= pair & (stones << (3 * d));
        cells |= pair & (stones >> d);
        let pair = (stones >> d) & (stones >> (2 * d));
        cells |= pair & (stones << d);
        cells |= pair & (stones >> (3 * d));
    }
    cells & BOARD & !taken
}

/// Connect Four for both libraries; `C4<true>` counts the positions it generates.
#[derive(Clone, Copy, Debug, Default)]
struct C4<const COUNT: bool>;

/// The game the timed searches play.
const GAME: C4<false> = C4;

/// Positions generated while `f` runs (with `C4<true>`), on every thread.
fn counting<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = GENERATED.load(Ordering::Relaxed);
    let out = f();
    (out, GENERATED.load(Ordering::Relaxed) - before)
}

// ---------------------------------------------------------------------------------------------
// The game for gametree.

impl<const COUNT: bool> Game for C4<COUNT> {
    type State = Position;
    type Move = u32;

    fn initial_state(&self) -> Position {
        Position::default()
    }
    #[inline]
    fn apply(&self, p: &mut Position, column: u32) -> Option<Position> {
        Some(p.play::<COUNT>(column))
    }
    #[inline]
    fn state_hash(&self, p: &Position) -> Option<u64> {
        Some(p.key())
    }
    #[inline]
    fn state_hash_after(&self, p: &Position, column: u32) -> Option<u64> {
        Some(p.play::<false>(column).key())
    }
}

impl<const COUNT: bool> ZeroSumGame for C4<COUNT> {
    const ALTERNATES: bool = true;

    #[inline]
    fn side_to_move(&self, p: &Position) -> PlayerId {
        (p.stones % 2) as PlayerId
    }
    #[inline]
    fn outcome(&self, p: &Position) -> Option<Outcome> {
        if p.lost() {
            Some(Outcome::LOSS)
        } else if p.full() {
            Some(Outcome::DRAW)
        } else {
            None
        }
    }
    #[inline]
    fn moves(&self, p: &Position, moves: &mut MoveList<u32>) {
        moves.extend(p.moves());
    }
}

/// The evaluation for gametree; finished games score minimax-rs's ±32767.
#[derive(Clone, Copy, Debug, Default)]
struct Threats;

impl<const COUNT: bool> Evaluator<C4<COUNT>> for Threats {
    #[inline]
    fn evaluate(&mut self, _: &C4<COUNT>, p: &Position) -> Score {
        p.evaluate()
    }
    #[inline]
    fn terminal(&mut self, _: &C4<COUNT>, _: &Position, outcome: Outcome) -> Score {
        BEST * outcome.margin().signum()
    }
}

// ---------------------------------------------------------------------------------------------
// The game for minimax-rs.

impl<const COUNT: bool> minimax::Game for C4<COUNT> {
    type S = Position;
    type M = u32;

    #[inline]
    fn generate_moves(p: &Position, moves: &mut Vec<u32>) -> Option<minimax::Winner> {
        let winner = Self::get_winner(p);
        if winner.is_none() {
            moves.extend(p.moves());
        }
        winner
    }
    #[inline]
    fn apply(p: &mut Position, column: u32) -> Option<Position> {
        Some(p.play::<COUNT>(column))
    }
    #[inline]
    fn get_winner(p: &Position) -> Option<minimax::Winner> {
        if p.lost() {
            Some(minimax::Winner::PlayerJustMoved)
        } else if p.full() {
            Some(minimax::Winner::Draw)
        } else {
            None
        }
    }
    #[inline]
    fn zobrist_hash(p: &Position) -> u64 {
        p.key()
    }
    /// The column, 1 to 7 (`uct_root` prints minimax-rs's root by it).
    fn notation(_: &Position, column: u32) -> Option<String> {
        Some(format!("column {}", column + 1))
    }
}

/// The same evaluation for minimax-rs.
#[derive(Clone, Copy, Debug, Default)]
struct MmThreats<const COUNT: bool>;

impl<const COUNT: bool> minimax::Evaluator for MmThreats<COUNT> {
    type G = C4<COUNT>;
    #[inline]
    fn evaluate(&self, p: &Position) -> minimax::Evaluation {
        p.evaluate() as minimax::Evaluation
    }
}

// ---------------------------------------------------------------------------------------------
// The searchers, configured once.

const TABLE_BYTES: usize = 16 << 20;

fn ours_fixed(depth: u32) -> AlphaBeta<Threats> {
    AlphaBeta::new(Threats).with_config(AlphaBetaConfig::alpha_beta(depth))
}

fn ours_pvs(depth: u32, killers_history: bool) -> AlphaBeta<Threats> {
    AlphaBeta::new(Threats).with_config(AlphaBetaConfig {
        tt_bytes: TABLE_BYTES,
        killers: killers_history,
        history: killers_history,
        ..AlphaBetaConfig::pvs(depth)
    })
}

fn theirs_iterative<const COUNT: bool>(depth: u32) -> minimax::IterativeSearch<MmThreats<COUNT>> {
    let options = minimax::IterativeOptions::new().with_table_byte_size(TABLE_BYTES);
    let mut search = minimax::IterativeSearch::new(MmThreats, options);
    search.set_max_depth(depth as u8);
    search
}

fn theirs_parallel<const COUNT: bool>(
    depth: u32,
    threads: usize,
) -> minimax::ParallelSearch<MmThreats<COUNT>> {
    let options = minimax::IterativeOptions::new().with_table_byte_size(TABLE_BYTES);
    let parallel = minimax::ParallelOptions::new().with_num_threads(threads);
    let mut search = minimax::ParallelSearch::new(MmThreats, options, parallel);
    search.set_max_depth(depth as u8);
    search
}

fn theirs_mcts(simulations: u32, threads: usize) -> minimax::MonteCarloTreeSearch<C4<false>> {
    let mut search = minimax::MonteCarloTreeSearch::new(
        minimax::MCTSOptions::default().with_num_threads(threads),
    );
    search.set_max_rollouts(simulations);
    search
}

fn ours_uct(simulations: u64) -> Uct {
    Uct::new(UctConfig {
        simulations,
        seed: 1,
        ..UctConfig::default()
    })
}

// ---------------------------------------------------------------------------------------------
// Checks.

/// minimax-rs's mate scores (±32767 moved one towards 0 per ply) folded back to ±32767.
fn unclamp(value: Score) -> Score {
    if value > BEST - 100 {
        BEST
    } else if value < -BEST + 100 {
        -BEST
    } else {
        value
    }
}

/// The `depth`-ply value of playing `column` in `p`, by our PVS (exact: the same value as plain
/// α/β, which the crate's tests check).
fn move_value(p: &Position, column: u32, depth: u32) -> Score {
    let child = p.play::<false>(column);
    let value = if depth == 1 || child.lost() || child.full() {
        Threats.value(&GAME, &child)
    } else {
        ours_pvs(depth - 1, true)
            .search(&GAME, &child, &Limits::none())
            .value
    };
    -unclamp(value)
}

/// Asserts that our result and minimax-rs's (value and move) agree at `depth` on `p`.
fn agree(what: &str, p: &Position, depth: u32, ours: &SearchResult<u32>, theirs: (Score, u32)) {
    let (value, column) = theirs;
    let mine = unclamp(ours.value);
    let best = ours.best_move.expect("a game in progress has a move");
    assert_eq!(
        mine, value,
        "{what}: values differ at depth {depth} on {p:?}"
    );
    assert_eq!(move_value(p, best, depth), value, "{what}: our move");
    assert_eq!(move_value(p, column, depth), value, "{what}: their move");
}

/// The check positions: the start, and a few openings.
const POSITIONS: [&str; 4] = ["", "4453", "3443", "44433"];

// ---------------------------------------------------------------------------------------------
// Timing.

/// One timed search: prepares it outside the timing (a new searcher, or our searcher with its
/// table emptied, so that every search starts from an empty table), then times the search alone.
type Run<'a> = Box<dyn FnMut() -> Duration + 'a>;

/// A [`Run`] from what the runs share (`kept`: our searcher, whose table is allocated once), the
/// preparation and the search.
fn run<'a, K: 'a, S, T>(
    mut kept: K,
    mut setup: impl FnMut(&mut K) -> S + 'a,
    mut search: impl FnMut(&mut K, &mut S) -> T + 'a,
) -> Run<'a> {
    Box::new(move || {
        let mut searcher = setup(&mut kept);
        let start = Instant::now();
        black_box(search(&mut kept, &mut searcher));
        let elapsed = start.elapsed();
        drop(searcher);
        elapsed
    })
}

/// Benches each run of `runs` in `group`, then prints the interleaved ratios of `pairs` (indices
/// into `runs`, ours first).
fn bench_group(
    c: &mut Criterion,
    name: &str,
    runs: &mut [(&str, Run<'_>)],
    pairs: &[(usize, usize)],
    tune: impl FnOnce(&mut BenchmarkGroup<'_, WallTime>),
    budget: Duration,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    tune(&mut group);
    for (id, run) in runs.iter_mut() {
        group.bench_function(*id, |b| {
            b.iter_custom(|iters| (0..iters).map(|_| run()).sum())
        });
    }
    group.finish();
    if !wanted(name, runs.iter().map(|r| r.0)) {
        return;
    }
    let times = interleaved(runs, budget);
    let rounds = times[0].len();
    eprintln!("{name}: ours / theirs, interleaved ({rounds} rounds)");
    for &(a, b) in pairs {
        let mut ratios: Vec<f64> = (0..rounds)
            .map(|r| times[a][r].as_secs_f64() / times[b][r].as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        let mean_ms =
            |t: &[Duration]| t.iter().sum::<Duration>().as_secs_f64() * 1e3 / (2 * rounds) as f64;
        eprintln!(
            "  {:>28} / {:<10} {:.2}  (median; range {:.2}–{:.2}; mean {:.1} ms / {:.1} ms)",
            runs[a].0,
            runs[b].0,
            ratios[rounds / 2],
            ratios[0],
            ratios[rounds - 1],
            mean_ms(&times[a]),
            mean_ms(&times[b])
        );
    }
}

/// Every run's time per round, interleaved: each round runs every run forwards, then backwards
/// (A B C C B A), so that a drift in the machine's speed (another process starting or stopping)
/// weighs on all alike; rounds until `budget` is spent, at least 2 (1 with `--test`). The ratios
/// printed are the median of the rounds' ratios (the higher of the middle two for an even number).
fn interleaved(runs: &mut [(&str, Run<'_>)], budget: Duration) -> Vec<Vec<Duration>> {
    let start = Instant::now();
    let mut times = vec![Vec::new(); runs.len()];
    let min_rounds = if quick() { 1 } else { 2 };
    while times[0].len() < min_rounds || (!quick() && start.elapsed() < budget) {
        let mut round = vec![Duration::ZERO; runs.len()];
        for i in (0..runs.len()).chain((0..runs.len()).rev()) {
            round[i] += (runs[i].1)();
        }
        for (t, r) in times.iter_mut().zip(round) {
            t.push(r);
        }
    }
    times
}

/// Whether criterion runs each bench once only (`--test`, `--list`) or profiles it
/// (`--profile-time`): then the interleaved ratios take one round.
fn quick() -> bool {
    std::env::args().any(|a| a == "--test" || a == "--list" || a == "--profile-time")
}

/// The command line's filter: criterion's first free argument.
fn filter() -> Option<String> {
    const WITH_VALUE: [&str; 15] = [
        "--warm-up-time",
        "--measurement-time",
        "--sample-size",
        "--save-baseline",
        "--baseline",
        "--load-baseline",
        "--output-format",
        "--plotting-backend",
        "--profile-time",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--nresamples",
        "--color",
        "-c",
    ];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if WITH_VALUE.contains(&arg.as_str()) {
            args.next();
        } else if !arg.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

/// Whether the filter (read as a substring of `GROUP/ID`, which a plain word is to criterion's
/// regex) selects a bench of `group`, so that a group's checks and interleaved rounds run only
/// when one of its benches does.
fn wanted<'a>(group: &str, mut ids: impl Iterator<Item = &'a str>) -> bool {
    filter().map_or(true, |f| ids.any(|id| format!("{group}/{id}").contains(&f)))
}

// ---------------------------------------------------------------------------------------------
// The groups.

const FIXED_DEPTH: u32 = 9;
const ITERATIVE_DEPTH: u32 = 12;
const MCTS_SIMULATIONS: u32 = 20_000;
const PARALLEL_DEPTH: u32 = 15;
/// The bench ids of the `mcts` and `parallel` groups.
const THREADED: [&str; 4] = ["ours-1t", "theirs-1t", "ours-2t", "theirs-2t"];
/// The position the timed α/β searches start from.
const BENCH_POSITION: &str = "4453";

fn fixed(c: &mut Criterion) {
    if !wanted("fixed", ["ours", "theirs"].into_iter()) {
        return;
    }
    eprintln!("fixed: nodes ours / theirs at depth {FIXED_DEPTH} (checked at every depth to it)");
    for moves in POSITIONS {
        let p = Position::after(moves);
        for depth in 1..=FIXED_DEPTH {
            let (ours, n_ours) = counting(|| {
                AlphaBeta::new(Threats)
                    .with_config(AlphaBetaConfig::alpha_beta(depth))
                    .search(&C4::<true>, &p, &Limits::none())
            });
            // minimax-rs shuffles the root moves: its count is a mean over 5 searches.
            let mut n_theirs = 0;
            for _ in 0..if depth == FIXED_DEPTH { 5 } else { 1 } {
                let (theirs, n) = counting(|| {
                    let mut negamax = minimax::Negamax::new(MmThreats::<true>, depth as u8);
                    let column = negamax.choose_move(&p).expect("a move");
                    (negamax.root_value() as Score, column)
                });
                agree("fixed", &p, depth, &ours, theirs);
                n_theirs += n;
            }
            if depth == FIXED_DEPTH {
                eprintln!("  {moves:>6}: {} / {}", n_ours + 1, n_theirs / 5 + 1);
            }
        }
    }
    let p = Position::after(BENCH_POSITION);
    let mut runs = [
        (
            "ours",
            run(
                ours_fixed(FIXED_DEPTH),
                |_| (),
                |e, _| e.search(&GAME, &p, &Limits::none()).value,
            ),
        ),
        (
            "theirs",
            run(
                (),
                |_| minimax::Negamax::new(MmThreats::<false>, FIXED_DEPTH as u8),
                |_, s| s.choose_move(&p),
            ),
        ),
    ];
    bench_group(
        c,
        "fixed",
        &mut runs,
        &[(0, 1)],
        |_| {},
        Duration::from_secs(4),
    );
}

fn iterative(c: &mut Criterion) {
    if !wanted(
        "iterative",
        ["ours-pvs", "ours-pvs-no-killers-history", "theirs"].into_iter(),
    ) {
        return;
    }
    eprintln!(
        "iterative: nodes ours pvs (without killers and history) / theirs at depth \
         {ITERATIVE_DEPTH} (checked at every even depth to it)"
    );
    for moves in POSITIONS {
        let p = Position::after(moves);
        for column in p.moves() {
            let after = GAME.state_hash(&p.play::<false>(column));
            assert_eq!(
                GAME.state_hash_after(&p, column),
                after,
                "{moves} then {column}"
            );
        }
        for depth in (2..=ITERATIVE_DEPTH).step_by(2) {
            let (theirs, n_theirs) = counting(|| {
                let mut search = theirs_iterative::<true>(depth);
                let column = search.choose_move(&p).expect("a move");
                (search.root_value() as Score, column)
            });
            let mut counts = Vec::new();
            for killers_history in [true, false] {
                let mut engine = ours_pvs(depth, killers_history);
                let (ours, n) = counting(|| engine.search(&C4::<true>, &p, &Limits::none()));
                agree("iterative", &p, depth, &ours, theirs);
                counts.push(n + 1);
            }
            if depth == ITERATIVE_DEPTH {
                eprintln!(
                    "  {moves:>6}: {} ({}) / {}",
                    counts[0],
                    counts[1],
                    n_theirs + 1
                );
            }
        }
    }
    let p = Position::after(BENCH_POSITION);
    let ours = |killers_history| {
        let mut engine = ours_pvs(ITERATIVE_DEPTH, killers_history);
        engine.allocate_table().expect("16 MiB");
        run(
            engine,
            |e| e.reset(),
            move |e, _| e.search(&GAME, &p, &Limits::none()).value,
        )
    };
    let mut runs = [
        ("ours-pvs", ours(true)),
        ("ours-pvs-no-killers-history", ours(false)),
        (
            "theirs",
            run(
                (),
                |_| theirs_iterative::<false>(ITERATIVE_DEPTH),
                |_, s| s.choose_move(&p),
            ),
        ),
    ];
    let pairs = [(0, 2), (1, 2)];
    bench_group(
        c,
        "iterative",
        &mut runs,
        &pairs,
        |_| {},
        Duration::from_secs(3),
    );
}

fn mcts(c: &mut Criterion) {
    if !wanted("mcts", THREADED.into_iter()) {
        return;
    }
    // Sanity: both find the only winning move of a win in one (column 3).
    let win_now = Position::after("475465");
    for threads in [1, 2] {
        let ours = ours_uct(u64::from(MCTS_SIMULATIONS)).analyse_parallel(
            &GAME,
            &win_now,
            &Limits::none(),
            threads,
        );
        assert_eq!(ours.result.best_move, Some(2), "our UCT, {threads} threads");
        let theirs = theirs_mcts(MCTS_SIMULATIONS, threads).choose_move(&win_now);
        assert_eq!(theirs, Some(2), "their MCTS, {threads} threads");
    }
    let start = Position::default();
    let ours = |threads| {
        run(
            ours_uct(u64::from(MCTS_SIMULATIONS)),
            |_| (),
            move |u, _| {
                u.analyse_parallel(&GAME, &start, &Limits::none(), threads)
                    .simulations
            },
        )
    };
    let theirs = |threads| {
        run(
            (),
            move |_| theirs_mcts(MCTS_SIMULATIONS, threads),
            move |_, s| s.choose_move(&start),
        )
    };
    let mut runs = [
        ("ours-1t", ours(1)),
        ("theirs-1t", theirs(1)),
        ("ours-2t", ours(2)),
        ("theirs-2t", theirs(2)),
    ];
    let tune = |g: &mut BenchmarkGroup<'_, WallTime>| {
        g.throughput(Throughput::Elements(u64::from(MCTS_SIMULATIONS)));
    };
    bench_group(
        c,
        "mcts",
        &mut runs,
        &[(0, 1), (2, 3)],
        tune,
        Duration::from_secs(3),
    );
}

fn parallel(c: &mut Criterion) {
    if !wanted("parallel", THREADED.into_iter()) {
        return;
    }
    let p = Position::after(BENCH_POSITION);
    eprintln!("parallel: nodes ours / theirs at depth {PARALLEL_DEPTH}, all threads");
    for threads in [1, 2] {
        let mut engine = ours_pvs(PARALLEL_DEPTH, true);
        let (ours, n_ours) =
            counting(|| engine.search_parallel(&C4::<true>, &p, &Limits::none(), threads));
        let (theirs, n_theirs) = counting(|| {
            let mut search = theirs_parallel::<true>(PARALLEL_DEPTH, threads);
            let column = search.choose_move(&p).expect("a move");
            (search.root_value() as Score, column)
        });
        agree("parallel", &p, PARALLEL_DEPTH, &ours, theirs);
        eprintln!("  {threads} threads: {} / {}", n_ours + 1, n_theirs + 1);
    }
    let ours = |threads| {
        let mut engine = ours_pvs(PARALLEL_DEPTH, true);
        engine.allocate_table().expect("16 MiB");
        run(
            engine,
            |e| e.reset(),
            move |e, _| e.search_parallel(&GAME, &p, &Limits::none(), threads).value,
        )
    };
    let theirs = |threads| {
        run(
            (),
            move |_| theirs_parallel::<false>(PARALLEL_DEPTH, threads),
            move |_, s| s.choose_move(&p),
        )
    };
    let mut runs = [
        ("ours-1t", ours(1)),
        ("theirs-1t", theirs(1)),
        ("ours-2t", ours(2)),
        ("theirs-2t", theirs(2)),
    ];
    let tune = |g: &mut BenchmarkGroup<'_, WallTime>| {
        g.sampling_mode(SamplingMode::Flat);
        g.warm_up_time(Duration::from_millis(100));
    };
    let pairs = [(0, 1), (2, 3), (2, 0), (3, 1)]; // the last two: 2 threads / 1 thread
    bench_group(c, "parallel", &mut runs, &pairs, tune, Duration::ZERO);
}

/// A bare fail-soft negamax α/β on the same game, evaluation and move order, with nothing else:
/// no bounds, no line, no counts, no limits. The floor the engine's plain α/β is measured against.
fn bare(p: &Position, depth: u32, mut alpha: Score, beta: Score) -> Score {
    if p.lost() {
        return -BEST;
    }
    if p.full() {
        return 0;
    }
    if depth == 0 {
        return p.evaluate();
    }
    let mut best = -INFINITY;
    for column in p.moves() {
        let x = -bare(&p.play::<false>(column), depth - 1, -beta, -alpha);
        if x > best {
            best = x;
            alpha = alpha.max(x);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// [`bare`] held to the engine's contract: the moves written into a `MoveList` through
/// `ZeroSumGame::moves`, the engine's counts, a check of the limits at every move, each value's
/// bound (the bookkeeping of *Minimax with α/β Pruning*) and the principal variation in a
/// triangular table. `plain` checks that it returns the engine's value, bound, line and counts,
/// then times it: the floor for a search that returns what the engine returns.
struct Accounted {
    stats: SearchStats,
    /// The time limit (an hour away: it never stops the bench), moves left until the clock is
    /// read, and whether the limit stopped the search.
    deadline: Instant,
    countdown: u32,
    stopped: bool,
    /// Row `ply` of the line table holds the best line below the node at `ply`.
    lines: Vec<[u32; LINE_WIDTH]>,
    lengths: [usize; LINE_WIDTH],
}

/// Plies the line table of [`Accounted`] holds.
const LINE_WIDTH: usize = FIXED_DEPTH as usize + 1;

impl Accounted {
    fn new() -> Accounted {
        Accounted {
            stats: SearchStats::default(),
            deadline: Instant::now() + Duration::from_secs(3600),
            countdown: 1,
            stopped: false,
            lines: vec![[0; LINE_WIDTH]; LINE_WIDTH],
            lengths: [0; LINE_WIDTH],
        }
    }

    /// The value and bound of `p` searched `depth` plies, and its principal variation.
    fn search(&mut self, p: &Position, depth: u32) -> (Score, Bound, Vec<u32>) {
        self.stats.generated += 1; // the root, as the engine counts it
        let (value, bound) = self.node(p, depth, 0, -INFINITY, INFINITY);
        (value, bound, self.lines[0][..self.lengths[0]].to_vec())
    }

    /// The value of `p`, `ply` plies below the root, searched `depth` plies in the window
    /// `(alpha, beta)`, and its bound; its line goes to row `ply`.
    fn node(
        &mut self,
        p: &Position,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Bound) {
        self.lengths[ply] = 0;
        if let Some(outcome) = GAME.outcome(p) {
            self.stats.evaluated += 1;
            return (Threats.terminal(&GAME, p, outcome), Bound::Exact);
        }
        if depth == 0 {
            self.stats.evaluated += 1;
            return (p.evaluate(), Bound::Exact);
        }
        let mut moves = MoveList::new();
        GAME.moves(p, &mut moves);
        let alpha0 = alpha;
        let (mut best, mut bound, mut best_bound) = (-INFINITY, Bound::Exact, Bound::Upper);
        let (mut meets_alpha, mut cut) = (false, false);
        for (i, &column) in moves.iter().enumerate() {
            self.stats.generated += 1;
            if self.tick() {
                return (0, Bound::Exact);
            }
            let (x, d) = self.node(&p.play::<false>(column), depth - 1, ply + 1, -beta, -alpha);
            let (x, d) = (-x, d.invert());
            let new_best = if i == 0 || x > best {
                (best, bound) = (x, d);
                true
            } else if x == best {
                bound = bound.join(d);
                d > best_bound
            } else {
                false
            };
            if new_best {
                best_bound = d;
                if x >= alpha || ply == 0 {
                    self.set_line(ply, column);
                }
            }
            meets_alpha |= x >= alpha0;
            if best >= beta {
                cut = true;
                if i + 1 < moves.len() {
                    bound = Bound::Lower;
                }
                break;
            }
            alpha = alpha.max(x);
        }
        self.count(cut, meets_alpha);
        (best, bound)
    }

    /// Whether a limit stops the search; the clock is read every 1,024 moves.
    #[inline]
    fn tick(&mut self) -> bool {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.look();
        }
        self.stopped
    }

    #[inline(never)]
    fn look(&mut self) {
        self.countdown = 1024;
        self.stopped = Instant::now() >= self.deadline;
    }

    /// The line at `ply` becomes `column` followed by the line below it.
    fn set_line(&mut self, ply: usize, column: u32) {
        let below = self.lengths[ply + 1];
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = column;
        row[1..=below].copy_from_slice(&tail[0][..below]);
        self.lengths[ply] = below + 1;
    }

    /// Counts an expanded node as Cut, Pv or All.
    fn count(&mut self, cut: bool, meets_alpha: bool) {
        let stats = &mut self.stats;
        stats.expanded += 1;
        if cut {
            stats.cutoffs += 1;
            stats.cut_nodes += 1;
        } else if meets_alpha {
            stats.pv_nodes += 1;
        } else {
            stats.all_nodes += 1;
        }
    }
}

fn plain(c: &mut Criterion) {
    if !wanted("plain", ["ours", "bare", "accounted"].into_iter()) {
        return;
    }
    for moves in POSITIONS {
        let p = Position::after(moves);
        for depth in 1..=FIXED_DEPTH {
            let ours = ours_fixed(depth).search(&GAME, &p, &Limits::none());
            let value = bare(&p, depth, -INFINITY, INFINITY);
            assert_eq!(ours.value, value, "plain: {moves} at depth {depth}");
            let mut accounted = Accounted::new();
            let (value, bound, line) = accounted.search(&p, depth);
            let (a, o) = (&accounted.stats, &ours.stats);
            let counts = |s: &SearchStats| {
                let kinds = (s.cutoffs, s.cut_nodes, s.pv_nodes, s.all_nodes);
                (s.generated, s.evaluated, s.expanded, kinds)
            };
            assert_eq!(
                (value, bound, line, counts(a)),
                (ours.value, ours.bound, ours.pv, counts(o)),
                "plain, accounted: {moves} at depth {depth}"
            );
        }
    }
    let p = Position::after(BENCH_POSITION);
    let mut runs = [
        (
            "ours",
            run(
                ours_fixed(FIXED_DEPTH),
                |_| (),
                |e, _| e.search(&GAME, &p, &Limits::none()).value,
            ),
        ),
        (
            "bare",
            run(
                (),
                |_| (),
                |_, _| bare(&p, FIXED_DEPTH, -INFINITY, INFINITY),
            ),
        ),
        (
            "accounted",
            run((), |_| Accounted::new(), |_, a| a.search(&p, FIXED_DEPTH)),
        ),
    ];
    bench_group(
        c,
        "plain",
        &mut runs,
        &[(0, 1), (2, 1), (0, 2)],
        |_| {},
        Duration::from_secs(4),
    );
}

/// Not a timing: UCT's statistics at the root of the empty board at 200,000 to 2,500,000
/// simulations, ours (at our `c` = 1.4 and at minimax-rs's, `sqrt(2 log2 N / n)` being
/// `c` = 1.70 with the natural logarithm) and minimax-rs's (its own printout), one thread each.
/// Runs only when named (`-- uct_root`): it takes about half a minute.
fn uct_root(_: &mut Criterion) {
    if !filter().is_some_and(|f| f.contains("uct_root")) {
        return;
    }
    let c_theirs = (2.0 / std::f64::consts::LN_2).sqrt();
    for simulations in [200_000u32, 1_000_000, 2_500_000] {
        for c in [1.4, c_theirs] {
            let mut uct = Uct::new(UctConfig {
                simulations: u64::from(simulations),
                seed: 1,
                exploration: c,
                ..UctConfig::default()
            });
            let analysis = uct.analyse(&GAME, &Position::default(), &Limits::none());
            let mut arms = analysis.arms.clone();
            arms.sort_by_key(|a| std::cmp::Reverse(a.visits));
            let arms: Vec<String> = arms
                .iter()
                .map(|a| format!("{}: {} ({:.3})", a.mv + 1, a.visits, a.mean.unwrap_or(0.0)))
                .collect();
            eprintln!(
                "uct_root: ours, c {c:.2}, {simulations} simulations: {}",
                arms.join(", ")
            );
        }
        eprintln!("uct_root: minimax-rs, {simulations} simulations:");
        let mut theirs = minimax::MonteCarloTreeSearch::<C4<false>>::new(
            minimax::MCTSOptions::default()
                .with_num_threads(1)
                .verbose(),
        );
        theirs.set_max_rollouts(simulations);
        theirs.choose_move(&Position::default());
    }
}

criterion_group!(benches, fixed, plain, iterative, mcts, parallel, uct_root);
criterion_main!(benches);

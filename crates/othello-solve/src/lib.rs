//! Exact Othello endgame solving: the final disc difference under perfect play (empties to the
//! winner, the FFO and Edax convention) and a move that reaches it, for any position.
//!
//! # Should I be using this crate?
//! Use it to solve Othello endgames, or as a worked example of composing gametree's parts: it is
//! search-core's [`AlphaBeta`] engine with Othello's hooks from othello-bitboard and no code of its
//! own below the root. Through the `gametree` facade it is `gametree::othello_solve`.
//!
//! # How it solves
//! The engine is a principal variation search with a transposition table, ordered by
//! [`FastestFirst`] (after the table move), stopped by an [`EndgameHorizon`] a few empty squares
//! before the end, where the [`ExactEvaluator`]'s specialised code solves the rest. Every search is
//! a full-depth PVS from the root (budget [`UNLIMITED`], so a position's draft is its number of
//! empty squares and transpositions at any ply share table entries); enhanced transposition
//! cutoffs run from 12 empty squares up.
//!
//! The root is driven by **MTD(f)** (Plaat, Schaeffer, Pijls and de Bruin, *Best-first fixed-depth
//! minimax algorithms*, 1996) on Othello's even scores: final disc differences with the empties to
//! the winner are always even (`64 − 2 · loser's discs`), so a probe with the window
//! `(g − 1, g + 1)` around an even guess `g` either returns `g` exactly or proves the score above
//! or below it; the next guess is the fail-soft bound, rounded away from `g` to even; the table
//! keeps every probe's work for the next. Windows are clamped to `[-64, 64]`, where a bound is
//! exact.
//!
//! MTD(f) costs one probe per step from its first guess to the score, so the guess matters
//! ([`SolveOptions::first_guess`], [`FirstGuess`]). By default it is the value of a **narrow
//! search**: the same engine and ordering, but every node searches only its first 3 moves
//! ([`WidthLimit`]), to the end of the game, with its own table. That value is exact for the narrow
//! tree and only an estimate for the real one (both sides lose moves), which is all a first guess
//! needs. Positions with fewer than 20 empty squares start from 0 instead: there the estimate
//! costs about as much as it saves. The width, the 20 empties and the 12 empties of the enhanced
//! cutoffs were chosen by measuring the FFO suites; `docs/reproductions.md` has the figures.
//!
//! [`SolveOptions::mtd`] = `false` replaces MTD(f) by one full-window search, for comparison: its
//! first root move is searched as a principal variation with a wide window all the way down,
//! which costs about 1.6 times the nodes. There is no iterative deepening by depth: without a
//! midgame evaluation a shallower iteration cannot tell good moves from bad better than
//! fastest-first does.
//!
//! # Threads
//! With [`SolveOptions::threads`] above 1, the searches of the root (every MTD(f) probe) run on
//! that many threads sharing the transposition table: search-core's
//! [`AlphaBeta::search_windows_parallel`], which starts the helper threads once per position,
//! keeps them for all its probes, and takes each probe's answer from the first thread to finish
//! it. The threads split the work by Lazy SMP with move deferral (simplified ABDADA, after Weill,
//! *The ABDADA Distributed Minimax Search Algorithm*, 1996: a thread that reaches a move another
//! thread is searching searches the node's other moves first).
//! The score is exactly the one-thread score; the best move may be another move reaching it.
//! [`SolveResult::nodes`] then counts every thread's engine nodes but only the calling thread's
//! exact-evaluator nodes (each thread has its own evaluator). The narrow first-guess search stays
//! on one thread: it is about 2 % of the work.
//!
//! ```
//! use othello_bitboard::random_position;
//! use othello_solve::{solve, SolveOptions};
//!
//! let position = random_position(1, 12); // a seeded random position with 12 empty squares
//! let result = solve(&position, &SolveOptions::default());
//! assert!((-64..=64).contains(&result.score));
//! let best = result.best_move.expect("the game is not over");
//! assert!(position.play(best).is_some());
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::path::Path;
use std::time::Instant;

use game_trait::{Bound, Evaluator, Limits, NoPruning, Reset, SearchResult, SearchStats};
use othello_bitboard::endgame::{DEFAULT_EXACT_EMPTIES, UNLIMITED};
use othello_bitboard::{
    read_obf, EndgameHorizon, ExactEvaluator, FastestFirst, Move, ObfPosition, Othello,
    OthelloError, Position,
};
use search_core::horizon::WidthLimit;
use search_core::{AlphaBeta, AlphaBetaConfig};

/// The largest final disc difference: every score lies in `-SCORE_MAX..=SCORE_MAX`.
const SCORE_MAX: i32 = 64;

/// Enhanced transposition cutoffs (a table probe per successor before searching any) pay only for
/// large subtrees: from this many empty squares up (chosen by measuring the FFO 20–39 suite).
const ETC_EMPTIES: u32 = 12;

/// Where MTD(f) starts (see the [crate docs](crate)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstGuess {
    /// This score, from the side to move's view; an odd score is rounded down to even.
    Score(i32),
    /// The value of a narrow search ([`WidthLimit`]): every node searches only its first `width`
    /// moves in the solver's order. Positions with fewer than `min_empties` empty squares start
    /// from 0.
    Narrow {
        /// Moves searched per node, at least 1.
        width: usize,
        /// The fewest empty squares at which the estimate is made.
        min_empties: u32,
    },
}

impl FirstGuess {
    /// The tuned estimate: width 3 from 20 empties (measured on the FFO suites).
    pub const NARROW: FirstGuess = FirstGuess::narrow(3);

    /// A narrow search of `width` moves per node, from the tuned 20 empties.
    pub const fn narrow(width: usize) -> FirstGuess {
        FirstGuess::Narrow {
            width,
            min_empties: 20,
        }
    }
}

/// Table size of the narrow search that makes the first guess: its trees are small (a few hundred
/// thousand nodes on the FFO positions), and a larger table does not help them.
const NARROW_TT_BYTES: usize = 4 << 20;

/// How to solve. The [`Default`] is the tuned setting.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `exact_empties` | [`DEFAULT_EXACT_EMPTIES`] (7) | at most this many empties: solved by the specialised code |
/// | `tt_bytes` | 64 MiB | transposition-table size |
/// | `ordering` | [`FastestFirst::default`] | move-ordering weights |
/// | `clear_between` | `true` | empty the table between positions (independent figures per position) |
/// | `mtd` | `true` | drive the root by MTD(f) null-window probes (else one `(-64, 64)` search) |
/// | `first_guess` | [`FirstGuess::NARROW`] | where MTD(f) starts: a narrow search's value (width 3, from 20 empties) or a fixed score |
/// | `threads` | 1 | threads per search (see [Threads](crate#threads)) |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Positions with at most this many empty squares are leaves, solved by [`ExactEvaluator`].
    pub exact_empties: u32,
    /// Transposition-table size in bytes.
    pub tt_bytes: usize,
    /// Move-ordering weights.
    pub ordering: FastestFirst,
    /// Whether [`Solver::solve`] empties the table before each position.
    pub clear_between: bool,
    /// Whether the root is driven by MTD(f) probes (see the [crate docs](crate)).
    pub mtd: bool,
    /// Where MTD(f) starts.
    pub first_guess: FirstGuess,
    /// Threads searching each position (see [Threads](crate#threads)); 0 and 1 are the
    /// sequential solver.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            exact_empties: DEFAULT_EXACT_EMPTIES,
            tt_bytes: AlphaBetaConfig::PVS_TT_BYTES,
            ordering: FastestFirst::default(),
            clear_between: true,
            mtd: true,
            first_guess: FirstGuess::NARROW,
            threads: 1,
        }
    }
}

/// The exact solution of one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveResult {
    /// Final disc difference under perfect play from the side to move's view, empties to the winner.
    pub score: i32,
    /// A move reaching `score` (`None` when the game is over).
    pub best_move: Option<Move>,
    /// Positions generated: by the engine plus by the exact evaluator below the horizon.
    pub nodes: u64,
    /// Of `nodes`, those generated by the exact evaluator.
    pub exact_nodes: u64,
    /// Of `nodes`, those generated by the narrow search that made MTD(f)'s first guess.
    pub estimate_nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The engine type of the solver.
type Engine = AlphaBeta<ExactEvaluator, NoPruning, EndgameHorizon, FastestFirst>;

/// The engine type of the narrow search that makes MTD(f)'s first guess.
type NarrowEngine = AlphaBeta<ExactEvaluator, NoPruning, WidthLimit<EndgameHorizon>, FastestFirst>;

/// A reusable solver: keeps its transposition tables between positions (allocated once).
#[derive(Clone, Debug)]
pub struct Solver {
    engine: Engine,
    /// Present when the options ask for a narrow first guess.
    narrow: Option<NarrowEngine>,
    options: SolveOptions,
}

impl Solver {
    /// A solver with `options`.
    pub fn new(options: SolveOptions) -> Solver {
        let config = AlphaBetaConfig {
            depth: UNLIMITED,
            pvs: true,
            iterative: false,
            tt_bytes: options.tt_bytes,
            etc_draft: Some(UNLIMITED + ETC_EMPTIES),
            // Threads split the moves of every node the engine searches (all have keys).
            defer_draft: Some(UNLIMITED),
            ..AlphaBetaConfig::default()
        };
        let horizon = EndgameHorizon {
            exact_empties: options.exact_empties,
        };
        let engine = AlphaBeta::new(ExactEvaluator::default())
            .with_config(config)
            .with_horizon(horizon)
            .with_ordering(options.ordering);
        let narrow = match options.first_guess {
            FirstGuess::Narrow { width, .. } if options.mtd => {
                let config = AlphaBetaConfig {
                    tt_bytes: NARROW_TT_BYTES,
                    etc_draft: None,
                    ..config
                };
                let narrow = AlphaBeta::new(ExactEvaluator::default())
                    .with_config(config)
                    .with_horizon(WidthLimit::new(horizon, width))
                    .with_ordering(options.ordering);
                Some(narrow)
            }
            _ => None,
        };
        Solver {
            engine,
            narrow,
            options,
        }
    }

    /// Solves `position` exactly.
    pub fn solve(&mut self, position: &Position) -> SolveResult {
        let start = Instant::now();
        if self.options.clear_between {
            self.engine.reset();
        }
        self.engine.evaluator_mut().nodes = 0;
        let mut estimate_nodes = 0;
        let result = if self.options.mtd {
            let first_guess = self.first_guess(position, &mut estimate_nodes);
            self.mtd(position, first_guess)
        } else {
            self.probes(position, |probe| probe(-SCORE_MAX, SCORE_MAX))
        };
        debug_assert!(
            result.bound == Bound::Exact || result.value.abs() == SCORE_MAX,
            "{result:?}"
        );
        let mut best_move = result.best_move;
        if best_move.is_none() && !position.is_game_over() {
            // The root itself is below the horizon, so the engine evaluated it without a move:
            // pick one reaching the score among the (at most `exact_empties`) children.
            best_move = self.best_child(position, result.value);
        }
        let exact_nodes = self.engine.evaluator_mut().nodes;
        SolveResult {
            score: result.value,
            best_move,
            nodes: result.stats.generated + exact_nodes + estimate_nodes,
            exact_nodes,
            estimate_nodes,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

impl Solver {
    /// The searches of the root that `driver` asks for through its `probe(alpha, beta)`. Final
    /// scores lie in `[-64, 64]`: with a window that touches either end, a line reaching it cuts
    /// off at once (a wipeout needs no proof that nothing beats it), and a bound there is exact.
    /// On more than one thread, the threads are kept for all of them (see
    /// [Threads](crate#threads)).
    fn probes(
        &mut self,
        position: &Position,
        driver: impl FnOnce(&mut dyn FnMut(i32, i32) -> SearchResult<Move>) -> SearchResult<Move>,
    ) -> SearchResult<Move> {
        let (limits, threads) = (Limits::none(), self.options.threads);
        self.engine
            .search_windows_parallel(&Othello, position, &limits, threads, driver)
    }

    /// MTD(f)'s first guess for `position`, adding the nodes spent on it to `nodes`.
    fn first_guess(&mut self, position: &Position, nodes: &mut u64) -> i32 {
        match (self.options.first_guess, &mut self.narrow) {
            (FirstGuess::Score(score), _) => score,
            (FirstGuess::Narrow { min_empties, .. }, Some(narrow))
                if position.empty_count() >= min_empties =>
            {
                if self.options.clear_between {
                    narrow.reset();
                }
                narrow.evaluator_mut().nodes = 0;
                let estimate = narrow.search_window(
                    &Othello,
                    position,
                    &Limits::none(),
                    -SCORE_MAX,
                    SCORE_MAX,
                );
                *nodes += estimate.stats.generated + narrow.evaluator_mut().nodes;
                estimate.value
            }
            _ => 0,
        }
    }

    /// MTD(f) on even scores (see the [crate docs](crate)) from `first_guess`.
    fn mtd(&mut self, position: &Position, first_guess: i32) -> SearchResult<Move> {
        self.probes(position, |probe| mtd(probe, first_guess))
    }

    /// A move of `position` whose exactly solved child scores `score` (from the parent's view).
    fn best_child(&mut self, position: &Position, score: i32) -> Option<Move> {
        let eval = self.engine.evaluator_mut();
        position
            .legal_moves()
            .into_iter()
            .find(|&mv| -eval.evaluate(&Othello, &position.play_legal(mv)) == score)
    }
}

/// MTD(f) on even scores (see the [crate docs](crate)) from `first_guess`: probes
/// `(g − 1, g + 1)` until one is exact, each probe's statistics added to the result's.
fn mtd(
    probe: &mut dyn FnMut(i32, i32) -> SearchResult<Move>,
    first_guess: i32,
) -> SearchResult<Move> {
    let mut guess = first_guess.clamp(-SCORE_MAX, SCORE_MAX) & !1;
    let mut stats = SearchStats::default();
    loop {
        let (alpha, beta) = ((guess - 1).max(-SCORE_MAX), (guess + 1).min(SCORE_MAX));
        let mut result = probe(alpha, beta);
        stats += result.stats;
        let v = result.value;
        let settled = match result.bound {
            // The engine reports no estimates; one would be as final as an exact value.
            Bound::Exact | Bound::Estimate => true,
            Bound::Lower => v >= SCORE_MAX,
            Bound::Upper => v <= -SCORE_MAX,
        };
        if settled {
            result.stats = stats;
            return result;
        }
        // The score is even and beyond the fail-soft bound `v` (itself beyond the window).
        guess = match result.bound {
            Bound::Lower => v + (v & 1),
            _ => v - (v & 1),
        };
    }
}

/// Solves `position` exactly with a fresh [`Solver`].
pub fn solve(position: &Position, options: &SolveOptions) -> SolveResult {
    Solver::new(*options).solve(position)
}

/// One position of an OBF file, solved, with what the file says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSolve {
    /// 1-based index of the position in the file.
    pub index: usize,
    /// The position and the scores the file lists.
    pub entry: ObfPosition,
    /// The solution.
    pub result: SolveResult,
}

impl FileSolve {
    /// The exact score the file lists (its best move score), if it lists any.
    pub fn expected(&self) -> Option<i32> {
        self.entry.best_score()
    }

    /// Whether the solution agrees with the file: the score equals the listed best score and the
    /// best move is one of the listed moves reaching it. `None` when the file lists no scores.
    pub fn agrees(&self) -> Option<bool> {
        let expected = self.expected()?;
        let move_ok = match self.result.best_move {
            Some(mv) => self.entry.best_moves().contains(&mv),
            None => false,
        };
        Some(self.result.score == expected && move_ok)
    }
}

/// Solves every position of an OBF file in order with one [`Solver`], calling `each` after each one
/// (for progress output), and returns them all.
pub fn solve_file_with(
    path: impl AsRef<Path>,
    options: &SolveOptions,
    mut each: impl FnMut(&FileSolve),
) -> Result<Vec<FileSolve>, OthelloError> {
    let entries = read_obf(path)?;
    let mut solver = Solver::new(*options);
    let mut solved = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let result = solver.solve(&entry.position);
        let one = FileSolve {
            index: i + 1,
            entry,
            result,
        };
        each(&one);
        solved.push(one);
    }
    Ok(solved)
}

/// Solves every position of an OBF file with the default options.
pub fn solve_file(path: impl AsRef<Path>) -> Result<Vec<FileSolve>, OthelloError> {
    solve_file_with(path, &SolveOptions::default(), |_| {})
}

//! Parallel window probes ([`AlphaBeta::search_windows_parallel`]): one set of helper threads
//! kept for a whole sequence of window searches of one root, the first thread to finish a probe
//! answering it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use game_trait::{Limits, Score, SearchResult, SearchStats, ZeroSumGame};

use super::busy::BusyMoves;
use super::{AlphaBeta, Hooks, SharedHooks};
use crate::tt::TranspositionTable;

/// A probe posted to the helpers.
#[derive(Clone, Debug)]
struct Job {
    /// 1, 2, 3, … in the order of the session's probes: a helper searches each at most once.
    serial: u64,
    window: (Score, Score),
    /// Set once the probe is answered: every thread still searching it stops.
    done: Arc<AtomicBool>,
}

/// The latest probe, and whether the session is over.
#[derive(Debug, Default)]
struct Posted {
    job: Option<Job>,
    closed: bool,
}

/// What the calling thread and its helpers share during one session.
struct Board<M> {
    posted: Mutex<Posted>,
    /// Wakes the helpers waiting for a probe.
    wake: Condvar,
    /// The first helper to finish a probe leaves its result here, with the probe's serial.
    answer: Mutex<Option<(u64, SearchResult<M>)>>,
    /// The helpers' statistics not yet added to a result.
    stats: Mutex<SearchStats>,
}

/// Locks `mutex` even if a thread panicked holding it: every value behind these locks is whole
/// between two statements, and a helper's panic is reported when it is joined.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<M> Board<M> {
    fn new() -> Board<M> {
        Board {
            posted: Mutex::new(Posted::default()),
            wake: Condvar::new(),
            answer: Mutex::new(None),
            stats: Mutex::new(SearchStats::default()),
        }
    }

    /// Posts `job` and wakes the helpers.
    fn post(&self, job: Job) {
        lock(&self.posted).job = Some(job);
        self.wake.notify_all();
    }

    /// Ends the session: stops the probe in progress and lets the helpers return.
    fn close(&self) {
        let mut posted = lock(&self.posted);
        posted.closed = true;
        if let Some(job) = &posted.job {
            job.done.store(true, Ordering::Relaxed);
        }
        drop(posted);
        self.wake.notify_all();
    }

    /// Waits for an unanswered probe after the one numbered `last`; `None` once the session is
    /// closed.
    fn next_job(&self, last: u64) -> Option<Job> {
        let mut posted = lock(&self.posted);
        loop {
            if posted.closed {
                return None;
            }
            match &posted.job {
                Some(job) if job.serial > last && !job.done.load(Ordering::Relaxed) => {
                    return Some(job.clone())
                }
                _ => {
                    posted = self
                        .wake
                        .wait(posted)
                        .unwrap_or_else(PoisonError::into_inner)
                }
            }
        }
    }

    /// A helper's search of `job`, ended: the answer if the probe is still open (then a helper
    /// was the first to finish it, and the others stop), else only its statistics count.
    fn offer(&self, job: &Job, result: SearchResult<M>) {
        *lock(&self.stats) += result.stats;
        let mut answer = lock(&self.answer);
        // `done` is only set under this lock (or by `close`), so exactly one thread answers.
        if !job.done.load(Ordering::Relaxed) {
            job.done.store(true, Ordering::Relaxed);
            *answer = Some((job.serial, result));
        }
    }

    /// The answer to `job` once the calling thread's own search of it, `mine`, has ended: a
    /// helper's if one finished first, else `mine` (and the helpers stop). Its statistics are the
    /// calling thread's and those of every helper search ended so far.
    fn settle(&self, job: &Job, mine: SearchResult<M>) -> SearchResult<M> {
        let mut stats = mine.stats;
        let mut answer = lock(&self.answer);
        let mut result = match answer.take() {
            Some((serial, theirs)) if serial == job.serial => theirs,
            _ => {
                job.done.store(true, Ordering::Relaxed);
                mine
            }
        };
        drop(answer);
        stats += std::mem::take(&mut *lock(&self.stats));
        result.stats = stats;
        result
    }
}

/// Closes the board when dropped, so that the helpers return even if the driver panics.
struct Closing<'a, M>(&'a Board<M>);

impl<M> Drop for Closing<'_, M> {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl<E, P, H, O, Q, S> AlphaBeta<E, P, H, O, Q, S> {
    /// A sequence of window searches of one root on `threads` threads sharing this searcher's
    /// transposition table, for drivers that probe a root with many windows, such as MTD(f)
    /// (Plaat, Schaeffer, Pijls and de Bruin, *Best-first fixed-depth minimax algorithms*, 1996).
    /// `driver` is given `probe`: `probe(alpha, beta)` is
    /// [`search_window`](AlphaBeta::search_window) in `(alpha, beta)` on every thread, and what
    /// `driver` returns is the result, with the nodes of the helpers' searches not yet counted
    /// added to its statistics. With `threads ≤ 1`, `probe` is `search_window` itself.
    ///
    /// The helper threads are started once for the whole sequence. Each probe is answered by the
    /// first thread to finish it (the others stop and wait for the next probe), so no thread
    /// sits idle while another finishes the probe alone; its statistics count the calling
    /// thread's nodes and those of every helper search ended so far. The threads share the work
    /// through the table and move deferral ([`defer_draft`](crate::AlphaBetaConfig::defer_draft),
    /// simplified ABDADA after Weill, *The ABDADA Distributed Minimax Search Algorithm*, 1996).
    /// Every answer is a complete search of its window, so exact probes return exactly the value
    /// and bound of `search_window`, and bounds are true ones; node counts, fail-soft values
    /// beyond the window and the move among equals vary from run to run.
    ///
    /// ```
    /// use game_trait::{Bound, Game, Limits, Searcher};
    /// use search_core::{AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue};
    ///
    /// let tree = ExplicitTree::random(5, 6, 4);
    /// let root = tree.initial_state();
    /// let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::alpha_beta(6) };
    /// let mut ab = AlphaBeta::new(LeafValue).with_config(config);
    /// let exact = ab.search(&tree, &root, &Limits::none()).value;
    /// // MTD(f) from 0: null windows (g − 1, g) until one is exact or the bounds meet.
    /// let mtd = ab.search_windows_parallel(&tree, &root, &Limits::none(), 2, |probe| {
    ///     let (mut lower, mut upper, mut g) = (i32::MIN, i32::MAX, 0);
    ///     loop {
    ///         let r = probe(g - 1, g);
    ///         match r.bound {
    ///             Bound::Exact | Bound::Estimate => return r,
    ///             Bound::Lower => lower = r.value,
    ///             Bound::Upper => upper = r.value,
    ///         }
    ///         if lower >= upper {
    ///             return r;
    ///         }
    ///         g = if r.bound == Bound::Lower { r.value + 1 } else { r.value };
    ///     }
    /// });
    /// assert_eq!(mtd.value, exact);
    /// ```
    pub fn search_windows_parallel<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        threads: usize,
        driver: impl FnOnce(
            &mut dyn FnMut(Score, Score) -> SearchResult<G::Move>,
        ) -> SearchResult<G::Move>,
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame + Sync,
        G::State: Send + Sync,
        G::Move: Send,
        Self: SharedHooks<G>,
    {
        if threads <= 1 {
            return driver(&mut |alpha, beta| self.search_window(game, state, limits, alpha, beta));
        }
        let start = Instant::now();
        self.prepare_search(game, state);
        let table = self.tt.take();
        if self.config.defer_draft.is_some() {
            self.busy = Some(Arc::new(BusyMoves::new()));
        }
        let board = Board::new();
        let mut result = std::thread::scope(|scope| {
            for _ in 1..threads {
                let mut helper = self.helper();
                let (board, table) = (&board, table.as_ref());
                scope.spawn(move || helper.help(game, state, limits.depth, table, board));
            }
            let _closing = Closing(&board);
            let mut serial = 0;
            driver(&mut |alpha, beta| {
                serial += 1;
                let job = Job {
                    serial,
                    window: (alpha, beta),
                    done: Arc::new(AtomicBool::new(false)),
                };
                self.probe(game, state, limits, table.as_ref(), &board, job)
            })
        });
        result.stats += std::mem::take(&mut *lock(&board.stats));
        self.tt = table;
        self.busy = None;
        result.elapsed = start.elapsed();
        result
    }

    /// The calling thread's part of one probe: posts `job` to the helpers, searches it too, and
    /// returns the first answer.
    fn probe<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        table: Option<&TranspositionTable>,
        board: &Board<G::Move>,
        job: Job,
    ) -> SearchResult<G::Move>
    where
        G: ZeroSumGame,
        Self: Hooks<G>,
    {
        let start = Instant::now();
        board.post(job.clone());
        self.prepare_probe();
        let mine = self.window(
            game,
            state,
            limits,
            table,
            job.window,
            Some(&job.done),
            start,
        );
        let mut result = board.settle(&job, mine);
        result.elapsed = start.elapsed();
        result
    }

    /// A helper thread's part of a session: searches every probe posted on `board` (to `depth`,
    /// as the calling thread does) until it is answered, and offers what it finds.
    fn help<G>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        table: Option<&TranspositionTable>,
        board: &Board<G::Move>,
    ) where
        G: ZeroSumGame,
        Self: Hooks<G>,
    {
        // The calling thread watches the caller's other limits and ends the probe for everyone.
        let limits = Limits {
            depth,
            ..Limits::none()
        };
        let mut last = 0;
        while let Some(job) = board.next_job(last) {
            last = job.serial;
            self.prepare_probe();
            let done = Some(&*job.done);
            let result = self.window(
                game,
                state,
                &limits,
                table,
                job.window,
                done,
                Instant::now(),
            );
            board.offer(&job, result);
        }
    }
}

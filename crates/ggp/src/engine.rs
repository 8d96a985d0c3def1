//! [`Engine`]: the searcher of a match, on a thread of its own, so that a search that overruns its
//! deadline (searchers look at the clock about once a millisecond, but a single query of a slow
//! reasoner can take longer) never delays the reply: the request thread waits until its own
//! deadline, then answers without the search.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Instant;

use gametree::game::{Limits, PlayerId, Searcher};
use gametree::games::Registered;
use gametree::gdl::{FluentSet, GdlGame, GdlMove, Loader, TurnState, TurnTaking};
use gametree::registry::{self, Needs};
use gametree::spec::{DefaultValue, Spec};

use super::perspective::Perspective;

/// One search request to the worker.
struct Job {
    state: FluentSet,
    limits: Limits,
    reply: Sender<Result<Option<GdlMove>, String>>,
}

/// A searcher for one role of one match, running on its own thread.
pub struct Engine {
    jobs: Sender<Job>,
    /// The stop flag of the search in progress, raised when the engine is dropped.
    current: Option<Arc<AtomicBool>>,
    /// The searcher's spec with every parameter as used.
    pub spec: String,
}

/// The searcher, as built for the game: through [`Perspective`] for every game, through
/// [`TurnTaking`] for negamax searchers, on the game itself for MAC-UCB and FC-UCB (which read it
/// through its round encoding, or the networks its rules give at each state).
enum Built {
    General(Perspective, Box<dyn Searcher<Perspective>>),
    ZeroSum(TurnTaking, Box<dyn Searcher<TurnTaking>>, u8),
    Rounds(GdlGame, Box<dyn Searcher<GdlGame>>),
}

impl Built {
    fn new(game: GdlGame, me: PlayerId, spec: &Spec) -> Result<(Built, String), String> {
        let entry = registry::searcher(spec.name()).map_err(|e| e.to_string())?;
        match entry.needs {
            Needs::General => {
                let view = Perspective::new(game, me);
                let built = view
                    .searcher(&keeping_the_tree(spec))
                    .map_err(|e| e.to_string())?;
                Ok((Built::General(view, built.searcher), built.spec))
            }
            Needs::ZeroSum => {
                let two = TurnTaking::new(game).map_err(|e| {
                    format!("`{}` needs a two-player turn-taking game: {e}", spec.name())
                })?;
                let built = two.searcher(spec).map_err(|e| e.to_string())?;
                let last_mover = 1 - me.min(1) as u8;
                Ok((Built::ZeroSum(two, built.searcher, last_mover), built.spec))
            }
            Needs::Rounds => {
                let built = game
                    .searcher(&for_seat(spec, me))
                    .map_err(|e| e.to_string())?;
                Ok((Built::Rounds(game, built.searcher), built.spec))
            }
        }
    }

    fn search(&mut self, state: FluentSet, limits: &Limits) -> Option<GdlMove> {
        match self {
            Built::General(view, searcher) => searcher.search(view, &state, limits).best_move,
            Built::ZeroSum(two, searcher, last_mover) => {
                let state = TurnState {
                    fluents: state,
                    last_mover: *last_mover,
                };
                searcher.search(two, &state, limits).best_move
            }
            Built::Rounds(game, searcher) => searcher.search(game, &state, limits).best_move,
        }
    }
}

/// `spec`, with MAC-UCB told which seat it plays (`player=me`, the move it returns in rounds
/// where several players choose) unless the spec says.
fn for_seat(spec: &Spec, me: PlayerId) -> Spec {
    if spec.value("player").is_some() {
        return spec.clone();
    }
    let text = spec.to_string();
    let separator = if text.contains(':') { "," } else { ":" };
    format!("{text}{separator}player={me}")
        .parse()
        .unwrap_or_else(|_| spec.clone())
}

impl Registered for Perspective {}

/// `spec`, with UCT keeping its tree between the moves of the match (`reuse=true`) unless the
/// spec says otherwise, or runs root-parallel threads, which keep no tree (`threads` above 1
/// with `parallel=root`). Sound here: the engine searches one game value for the whole match,
/// and every state it is given is the last one moved on by the moves played, which UCT finds in
/// its tree by the state's key.
fn keeping_the_tree(spec: &Spec) -> Spec {
    if spec.name() != "uct" || spec.value("reuse").is_some() {
        return spec.clone();
    }
    let threads = spec.value("threads").and_then(|t| t.parse::<i64>().ok());
    let parallel = spec.value("parallel").or_else(|| {
        let uct = registry::searcher("uct").ok()?;
        match uct.params.iter().find(|p| p.key == "parallel")?.default {
            DefaultValue::Fixed(word) => Some(word),
            DefaultValue::Derived(_) => None,
        }
    });
    if threads.unwrap_or(1) > 1 && parallel == Some("root") {
        return spec.clone();
    }
    let text = spec.to_string();
    let separator = if text.contains(':') { "," } else { ":" };
    format!("{text}{separator}reuse=true")
        .parse()
        .unwrap_or_else(|_| spec.clone())
}

/// A one-move game, two players: enough to check a spec's parameters before any match.
const PROBE_GAME: &str = "(role a) (role b) (init (control a))
    (<= (legal a go) (true (control a))) (<= (legal b noop) (true (control a)))
    (<= (next done) (does a go)) (<= terminal (true done)) (goal a 50) (goal b 50)";

/// Checks that `spec` names a searcher that plays GDL games, with valid parameters.
pub fn check_spec(spec: &Spec) -> Result<String, String> {
    let game = Loader::text(PROBE_GAME).load().map_err(|e| e.to_string())?;
    Built::new(game, 0, spec).map(|(_, full)| full)
}

impl Engine {
    /// Builds the searcher `spec` names for player `me` of `game` on a new thread, by
    /// `ready_by` (the two-player searchers check the game along random playouts first, which
    /// on a slow reasoner can take longer than a start clock).
    pub fn start(
        game: GdlGame,
        me: PlayerId,
        spec: &Spec,
        ready_by: Instant,
    ) -> Result<Engine, String> {
        let (jobs, inbox) = channel::<Job>();
        let (ready, built) = channel();
        let given = spec.clone();
        std::thread::Builder::new()
            .name("ggp-search".into())
            .spawn(move || match Built::new(game, me, &given) {
                Ok((searcher, full)) => {
                    let _ = ready.send(Ok(full));
                    serve(searcher, inbox);
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            })
            .map_err(|e| format!("cannot start a search thread: {e}"))?;
        let wait = ready_by.saturating_duration_since(Instant::now());
        let spec = match built.recv_timeout(wait) {
            Ok(result) => result?,
            Err(RecvTimeoutError::Timeout) => {
                // The thread finishes building, finds no job sender and ends.
                return Err(format!(
                    "`{}` was not ready within the start clock",
                    spec.name()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("the search thread died while building the searcher".into())
            }
        };
        Ok(Engine {
            jobs,
            current: None,
            spec,
        })
    }

    /// Starts searching `state` until `deadline` or the next [`search`](Engine::search), whichever
    /// comes first, without waiting for the answer: the time of a start clock spent growing the
    /// tree that the first `play` finds (with UCT's `reuse`).
    pub fn warm_up(&mut self, state: &FluentSet, deadline: Instant) {
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = Limits::none().with_stop(stop.clone());
        limits.deadline = Some(deadline);
        let (reply, _) = channel();
        let job = Job {
            state: state.clone(),
            limits,
            reply,
        };
        if self.jobs.send(job).is_ok() {
            self.current = Some(stop);
        }
    }

    /// Searches `state` until `deadline`, waiting for the answer until `wait_until` at most.
    /// `Ok(None)` when the searcher has no move to suggest.
    pub fn search(
        &mut self,
        state: &FluentSet,
        deadline: Instant,
        wait_until: Instant,
    ) -> Result<Option<GdlMove>, String> {
        if let Some(earlier) = self.current.take() {
            // A warm-up still running gives way.
            earlier.store(true, Ordering::Relaxed);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = Limits::none().with_stop(stop.clone());
        limits.deadline = Some(deadline);
        let (reply, answer) = channel();
        let job = Job {
            state: state.clone(),
            limits,
            reply,
        };
        self.jobs
            .send(job)
            .map_err(|_| "the search thread is gone".to_string())?;
        self.current = Some(stop.clone());
        let wait = wait_until.saturating_duration_since(Instant::now());
        let result = match answer.recv_timeout(wait) {
            Ok(result) => result,
            Err(RecvTimeoutError::Timeout) => Err("the search overran its deadline".into()),
            Err(RecvTimeoutError::Disconnected) => Err("the search thread is gone".into()),
        };
        stop.store(true, Ordering::Relaxed);
        result
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(stop) = &self.current {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The worker's loop: one search per job until the engine is dropped. A panicking search is
/// reported as an error and the worker goes on.
fn serve(mut searcher: Built, inbox: Receiver<Job>) {
    while let Ok(job) = inbox.recv() {
        let result = catch_unwind(AssertUnwindSafe(|| searcher.search(job.state, &job.limits)))
            .map_err(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                format!("the searcher panicked: {what}")
            });
        let _ = job.reply.send(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uct_keeps_its_tree_unless_the_spec_says_otherwise() {
        let full = |spec: &str| check_spec(&spec.parse().unwrap()).unwrap();
        assert!(full("uct").contains("reuse=true"), "{}", full("uct"));
        assert!(full("uct:sims=5").contains("reuse=true"));
        assert!(full("uct:reuse=false").contains("reuse=false"));
        assert!(!full("alphabeta:depth=2").contains("reuse"));
        // Tree-parallel threads share one tree, which they keep; root-parallel ones keep none.
        assert!(full("uct:threads=2,parallel=tree").contains("reuse=true"));
        for root in ["uct:threads=2,parallel=root", "uct:threads=2"] {
            let full = full(root);
            assert!(full.contains("reuse=false"), "{full}");
        }
    }
}

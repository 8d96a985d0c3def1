//! Tree-parallel UCT: several threads grow one tree, kept apart by virtual loss.
//!
//! The tree sits behind one mutex. A simulation takes it twice: once to descend (selection,
//! expansion, the new node) and mark its path with a virtual loss, and once to remove the
//! virtual loss and back the payoffs up. The playout, which is most of a simulation's time, runs
//! with the tree unlocked. While a thread holds the lock, the tree is lent to its own search
//! state (a move of a few words, not a copy), so that the descent and the backup are the very
//! code of the sequential search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use game_trait::{GeneralGame, Limits};

use super::parallel::thread_seed;
use super::tree::Tree;
use super::{CheckPace, PlayoutPolicy, Run, Uct, UctAnalysis, UctConfig};

/// The tree every thread searches, and how many simulations were started on it.
struct Shared<M> {
    tree: Tree<M>,
    started: u64,
}

/// What a worker adds to the search's totals.
struct Tally {
    simulations: u64,
    expanded: u64,
    max_depth: u32,
    payoff_sums: Vec<f64>,
}

impl<P> Uct<P> {
    /// Tree-parallel UCT with virtual loss (Chaslot, Winands and van den Herik, *Parallel
    /// Monte-Carlo Tree Search*, 2008): `threads` threads run the simulations of one search on
    /// one shared tree. A simulation locks the tree to descend it and add its node, exactly as
    /// [`analyse`](Uct::analyse) does, then plays out with the tree unlocked, then locks it again
    /// to back up its payoffs. Between the two, every node and edge of its path counts
    /// [`UctConfig::virtual_loss`] extra visits with no reward, so the UCB1 index another thread
    /// sees there is
    ///
    /// ```text
    ///     reward_i / (n_i + v·p_i) + c · sqrt(ln(N + v·P) / (n_i + v·p_i))
    /// ```
    ///
    /// where `p_i` and `P` are the simulations under way through the edge and its node and `v`
    /// the virtual loss (default 1): the line being explored looks worse until its simulations
    /// come back, and the threads spread over the tree instead of crowding onto one line. The
    /// backup removes the virtual loss, so after the search every count is the sequential one's.
    /// Chaslot et al. lock the tree globally or per node; this search takes one lock, the
    /// simpler of the two. The threads take turns only in the tree (the descent replays the
    /// tree's moves and generates the new node's, the backup adds the payoffs), so the more of a
    /// simulation's time its playout takes, the closer the speed-up comes to the number of
    /// threads. [`analyse_parallel`](Uct::analyse_parallel) takes no lock at all, but splits
    /// the simulations over trees that are each shallower.
    ///
    /// Thread 0 draws from [`UctConfig::seed`], thread `i` from a seed mixed from it and `i`. The
    /// budget (`limits.nodes`, else [`UctConfig::simulations`]) is shared: the threads run
    /// exactly that many simulations between them, and the first thread that finds the deadline
    /// passed or the stop flag raised stops them all. With one thread this is exactly
    /// [`analyse`](Uct::analyse) (the same tree, generator and result); with several, which
    /// simulations run in which order depends on the threads' timing, so the result does too.
    ///
    /// [`UctConfig::reuse`] works as in [`analyse`](Uct::analyse): the search starts from the
    /// kept subtree of `state`, and keeps the shared tree for the next search. The result
    /// (best move, value, principal variation, statistics) reads the shared tree as the
    /// sequential search reads its own.
    pub fn analyse_tree_parallel<G>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
        threads: usize,
    ) -> UctAnalysis<G::Move>
    where
        G: GeneralGame + Sync,
        G::State: Sync,
        G::Move: Send,
        P: PlayoutPolicy<G> + Clone + Send,
    {
        let start = Instant::now();
        let threads = threads.max(1);
        let budget = limits.nodes.unwrap_or(self.config.simulations);
        let mut run = match self.begin(game, state, budget, start) {
            Ok(run) => run,
            Err(finished) => return *finished,
        };
        let shared = Mutex::new(Shared {
            tree: std::mem::take(&mut run.tree),
            started: 0,
        });
        let stop = AtomicBool::new(false);
        let tallies: Vec<Tally> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|i| {
                    let config = UctConfig {
                        seed: thread_seed(run.config.seed, i),
                        ..run.config.clone()
                    };
                    let policy = run.policy.clone();
                    let (shared, stop) = (&shared, &stop);
                    scope.spawn(move || {
                        work(game, state, limits, budget, config, policy, shared, stop)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a UCT worker panicked"))
                .collect()
        });
        run.tree = shared.into_inner().expect("a UCT worker panicked").tree;
        debug_assert!(run.tree.nodes.iter().all(|n| n.pending == 0));
        debug_assert!(run.tree.edges.iter().all(|e| e.pending == 0));
        for tally in tallies {
            run.simulations += tally.simulations;
            run.expanded += tally.expanded;
            run.max_depth = run.max_depth.max(tally.max_depth);
            for (sum, s) in run.payoff_sums.iter_mut().zip(&tally.payoff_sums) {
                *sum += s;
            }
        }
        let (analysis, tree) = run.finish(start);
        self.keep(game, tree, &analysis);
        analysis
    }
}

/// One thread's share of a tree-parallel search: simulations on `shared` until the budget is
/// spent, the limits are reached, or another thread raised `stop`.
#[allow(clippy::too_many_arguments)] // a thread's closure, spelled out
fn work<G, P>(
    game: &G,
    root: &G::State,
    limits: &Limits,
    budget: u64,
    config: UctConfig,
    mut policy: P,
    shared: &Mutex<Shared<G::Move>>,
    stop: &AtomicBool,
) -> Tally
where
    G: GeneralGame,
    P: PlayoutPolicy<G>,
{
    let lock = || shared.lock().expect("a UCT worker panicked");
    let mut run = Run::new(game, &mut policy, &config, Tree::default());
    let mut check = CheckPace::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if check.due(run.simulations) && limits.exhausted(run.simulations) {
            stop.store(true, Ordering::Relaxed);
            break;
        }
        let mut state = root.clone();
        run.path.clear();
        run.path_arms.clear();
        let play_out = {
            let mut shared = lock();
            if shared.started >= budget {
                break;
            }
            shared.started += 1;
            std::mem::swap(&mut run.tree, &mut shared.tree);
            let play_out = run.descend(&mut state);
            run.mark_pending(true);
            std::mem::swap(&mut run.tree, &mut shared.tree);
            play_out
        };
        let finished = !play_out || run.playout(&mut state, check.within(limits));
        {
            let mut shared = lock();
            std::mem::swap(&mut run.tree, &mut shared.tree);
            run.mark_pending(false);
            if finished {
                run.backpropagate();
            }
            std::mem::swap(&mut run.tree, &mut shared.tree);
        }
        if !finished {
            // The limits stopped the playout: dropped, and the other threads told.
            stop.store(true, Ordering::Relaxed);
            break;
        }
        run.simulations += 1;
    }
    Tally {
        simulations: run.simulations,
        expanded: run.expanded,
        max_depth: run.max_depth,
        payoff_sums: run.payoff_sums,
    }
}

#[cfg(test)]
mod tests {
    use game_trait::{Game, Turn};
    use test_games::{Nim, TreeGame};

    use super::*;
    use crate::uct::tree::ROOT;
    use crate::uct::{Kept, UniformPlayout};

    /// Twenty stones of Nim, take 1 or 2.
    const NIM: Nim = Nim { stones: 20 };

    /// After a tree-parallel search on several threads, no virtual loss is left anywhere in the
    /// shared tree, and every node's visits are its edges' (each simulation counted once).
    #[test]
    fn every_virtual_loss_is_removed_and_every_simulation_counted_once() {
        for threads in [2, 4] {
            let mut uct = Uct::new(UctConfig {
                simulations: 20_000,
                reuse: true,
                virtual_loss: 3,
                ..UctConfig::default()
            });
            let a = uct.analyse_tree_parallel(&NIM, &NIM.initial_state(), &Limits::none(), threads);
            assert_eq!(a.simulations, 20_000);
            let kept = uct.kept.take().expect("the tree is kept");
            let tree = &kept.downcast::<Kept<u32>>().expect("Nim's tree").tree;
            assert!(
                tree.nodes.iter().all(|n| n.pending == 0),
                "{threads} threads"
            );
            assert!(
                tree.edges.iter().all(|e| e.pending == 0),
                "{threads} threads"
            );
            assert_eq!(tree.nodes[ROOT as usize].visits, 20_000);
            for (i, n) in tree.nodes.iter().enumerate() {
                if !n.expanded || n.turn == Turn::Over {
                    continue;
                }
                let first = n.first_edge as usize;
                let edges = &tree.edges[first..first + n.edge_count as usize];
                let below: u64 = edges.iter().map(|e| e.visits()).sum();
                // A node other than the root is expanded on its second visit: its first
                // simulation played out from it.
                let first_visit = u64::from(i != ROOT as usize);
                assert_eq!(below + first_visit, n.visits, "{threads} threads, node {i}");
            }
        }
    }

    /// UCB1 breaks ties uniformly at random: among seven untried edges each is drawn about a
    /// seventh of the time, and among equal statistics likewise.
    #[test]
    fn ties_are_drawn_uniformly() {
        let config = UctConfig::default();
        let mut policy = UniformPlayout;
        let tree = Tree::new(Turn::Player(0), 1, false, None);
        let game = TreeGame::from_shape(&[&[0], &[0], &[0], &[0], &[0], &[0], &[0]]);
        let mut run = Run::new(&game, &mut policy, &config, tree);
        run.expand(ROOT, &game.initial_state());
        assert_eq!(run.tree.nodes[ROOT as usize].edge_count, 7);
        for visited in [false, true] {
            if visited {
                for e in &mut run.tree.edges {
                    e.add(10, 5.0);
                }
                run.tree.nodes[ROOT as usize].visits = 70;
            }
            let mut counts = [0u32; 7];
            for _ in 0..7_000 {
                counts[run.ucb1(ROOT, 0..7, Some(0)).unwrap()] += 1;
            }
            assert!(
                counts.iter().all(|&k| (850..=1150).contains(&k)),
                "visited {visited}: {counts:?}"
            );
        }
    }

    /// A simulation under way through an edge steers the next selection to its sibling of equal
    /// statistics, and the more so the larger the virtual loss; with a virtual loss of 0 it does
    /// not.
    #[test]
    fn virtual_loss_steers_the_selection_away_from_a_pending_edge() {
        for (loss, steered) in [(1, true), (3, true), (0, false)] {
            let config = UctConfig {
                virtual_loss: loss,
                ..UctConfig::default()
            };
            let mut policy = UniformPlayout;
            let tree = Tree::new(Turn::Player(0), 1, false, None);
            let mut run = Run::new(&NIM, &mut policy, &config, tree);
            run.expand(ROOT, &NIM.initial_state());
            for e in &mut run.tree.edges {
                e.add(10, 5.0);
            }
            run.tree.nodes[ROOT as usize].visits = 20;
            run.tree.edges[0].pending = 1;
            run.tree.nodes[ROOT as usize].pending = 1;
            let picks: Vec<usize> = (0..64)
                .map(|_| run.ucb1(ROOT, 0..2, Some(0)).unwrap())
                .collect();
            if steered {
                assert!(
                    picks.iter().all(|&i| i == 1),
                    "virtual loss {loss}: {picks:?}"
                );
            } else {
                // Equal indices: ties are broken at random, both edges come up.
                assert!(picks.contains(&0) && picks.contains(&1), "{picks:?}");
            }
        }
    }
}

//! [`Uct`]: Monte-Carlo tree search with UCB1 selection (UCT), for any [`GeneralGame`]: n players, payoffs in
//! `[0, 1]`, simultaneous moves (decoupled UCT) and chance moves.
//!
//! # The algorithm
//! UCT is Kocsis & Szepesvári, *Bandit based Monte-Carlo Planning* (ECML 2006): every simulation
//! descends the tree from the root choosing, at each node, the move that maximises the UCB1 index of
//! Auer, Cesa-Bianchi & Fischer, *Finite-time Analysis of the Multiarmed Bandit Problem* (2002)
//!
//! ```text
//!     mean_i + c · sqrt(ln N / n_i)
//! ```
//!
//! where `mean_i` is the mean reward of move `i` for the player who chooses it, `n_i` how often `i`
//! was chosen, `N` how often the node was visited, and `c` the exploration constant
//! ([`UctConfig::exploration`], default 1.4 ≈ √2, which gives the `sqrt(2 ln n / n_i)` of Koriche,
//! Lagrue, Piette and Tabary, *General Game Playing with Stochastic CSP*, Constraints, 2016, whose
//! MAC-UCB and UCT experiments set this searcher's defaults). A move never tried has an infinite
//! index, so every move is tried once first; ties (untried moves included) are broken uniformly at
//! random from the seeded generator, which matters at simultaneous nodes (see below). When the
//! descent leaves the tree it adds **one** node (children are created lazily), plays a *playout* to
//! the end of the game with a [`PlayoutPolicy`] (default [`UniformPlayout`]), and adds every
//! player's payoff ([`GeneralGame::payoff`], in `[0, 1]`) to the statistics along the path.
//!
//! What each kind of node does:
//!
//! | [`Turn`] | selection | statistics |
//! |---|---|---|
//! | `Player(p)` | UCB1 over `p`'s moves, maximising `p`'s reward (the multi-player UCT of Sturtevant, *An Analysis of UCT in Multi-Player Games*, 2008, which Koriche et al. compare against: each player maximises its own payoff) | per move: visits, `p`'s reward |
//! | `Simultaneous` | **decoupled UCT** (DUCT, as in CadiaPlayer, Finnsson & Björnsson, *Simulation-Based Approach to General Game Playing*, 2008; analysed by Lanctot, Lisý & Winands 2013; Cowling, Powley & Whitehouse's ISMCTS, 2012, likewise keeps each player's statistics over its own moves only): every player runs its own UCB1 over its own moves, as if the others' choices were part of the environment, and the joint move is the tuple of the choices; if chance moves too, its outcome is drawn from its distribution. Random tie-breaking keeps the players' choices independent (with first-index tie-breaking both players of matching pennies would walk the diagonal forever) | per player and per move of that player: visits, that player's reward |
//! | `Chance` | an outcome drawn from [`GeneralGame::chance_outcomes`] with its probability | per outcome: visits |
//! | `Over` | none: the payoffs are read | — |
//!
//! **A known limit of decoupled UCB1**: it need not converge to an equilibrium (Shafiei, Sturtevant &
//! Schaeffer 2009; Lanctot et al. 2013 compare it with Exp3 and regret-matching selection, which are
//! not implemented here). Each player's arm means mix rewards gathered against the other players'
//! *past* choices; when those choices drift, a mean goes stale. In a prisoner's dilemma the players
//! can settle on mutual cooperation because defection's mean still remembers the time the other
//! defected too, and in a perfectly symmetric game the two deterministic UCB1s can move in lockstep.
//! Matching pennies is played mixed, and a move that dominates by more than the others' choices can
//! shift its mean is found (both are tested).
//!
//! Playouts end at a finished game or after [`UctConfig::max_playout_plies`] plies; a truncated playout
//! scores [`UctConfig::truncation_payoff`] for every player (Koriche et al.'s convention: a state at
//! their sampling horizon that is not a goal state is irrelevant, with a reward of 0 to all
//! players).
//!
//! # What a search reports
//! - **best move**: the root mover's most visited move (ties: the higher mean, then generation order).
//!   At a `Simultaneous` root: **player 0's** most visited move (the others' are in
//!   [`UctAnalysis::arms`]). At a `Chance` root nobody chooses: `None`.
//! - **value**: the best move's mean reward for its chooser, on the scale of [`score_of_mean`]: a mean
//!   `m ∈ [0, 1]` becomes `round((2m − 1) · 1000)`, so a certain win is +1000, a draw (½) 0 and a
//!   certain loss −1000, matching the negamax convention that 0 is even. At a `Chance` root: player 0's
//!   mean payoff over all simulations; at a finished root: player 0's payoff.
//! - **bound**: [`Bound::Estimate`]: a UCT value is a sampling estimate, not a bound of any kind;
//!   [`Bound::Exact`] when [`UctConfig::solver`] solved the root (the value of the best policy)
//!   or the root is a finished game.
//! - **stats**: `generated` = tree nodes created (including the root), `expanded` = nodes whose moves
//!   were generated, `evaluated` = **simulations** run (each ends in one evaluated leaf).
//!   [`SearchResult::depth`] is the depth of the deepest tree node.
//! - **pv**: the most visited path through `Player` nodes, stopping at the first node that is not a
//!   `Player` node (after the root) or was never expanded.
//!
//! [`Uct::analyse`] returns all of this plus the root's per-move statistics.
//! For games that can be shared between threads, two parallel searches:
//! [`Uct::analyse_tree_parallel`] runs the simulations of one search on several threads that
//! share one tree, kept apart by a virtual loss ([`UctConfig::virtual_loss`]; Chaslot, Winands
//! and van den Herik, *Parallel Monte-Carlo Tree Search*, 2008), and [`Uct::analyse_parallel`]
//! runs it root-parallel (independent trees, their root statistics merged). On one thread both
//! are the sequential search.
//!
//! # Parameters
//! | [`UctConfig`] field | default | meaning |
//! |---|---|---|
//! | `simulations` | 10 000 | simulations per search when [`Limits::nodes`] is `None` |
//! | `exploration` | 1.4 | `c` of the UCB1 index |
//! | `seed` | 0 | seed of the search's random generator |
//! | `max_playout_plies` | 10 000 | longest playout below the tree |
//! | `truncation_payoff` | 0 | every player's payoff for a truncated playout |
//! | `reuse` | `false` | keep the tree for the next search (below) |
//! | `solver` | `false` | record completely explored subtrees with their exact values, and use them ([`UctConfig::solver`]) |
//! | `virtual_loss` | 1 | tree-parallel only: visits without reward counted on the path of each simulation under way |
//!
//! The playout policy is a type parameter, [`UniformPlayout`] by default ([`Uct::with_policy`]).
//!
//! # Limits
//! The number of simulations is `limits.nodes`, or [`UctConfig::simulations`] when that is `None`.
//! The deadline and the stop flag are checked before the first simulation, then at a pace that
//! follows the simulations' speed ([`Pace`]): before every simulation and after every ply of it
//! while they take a millisecond or more (a GDL reasoner, long playouts), so that a deadline is
//! overrun by one ply at most (the simulation under way is dropped, nothing of it backed up), and
//! up to every 256 simulations once they are fast, where a clock read per simulation would cost a
//! noticeable share of the time. `limits.depth` is ignored. To search by time only, set `simulations` to `u64::MAX` and give a deadline.
//!
//! # Reusing the tree
//! With [`UctConfig::reuse`], a search keeps its tree, and the next search on the same game value
//! (the same type at the same address, with the same
//! [`Game::identity`](game_trait::Game::identity))
//! looks in it for the state it is given: a node whose state has the same
//! [`Game::state_hash`](game_trait::Game::state_hash) and turn and was expanded, the shallowest
//! and then the most visited if several are. Its moves must be the ones the game lists in the new
//! state (checked, so a colliding key cannot make the search suggest an illegal root move). That
//! node becomes the root with every statistic below it, and the rest of the tree is dropped: the
//! subtree is copied into fresh arenas in creation order, at most as many nodes as the previous
//! search ran simulations (a child that does not fit is left out and grown again), so the tree
//! never holds more nodes than the last two searches' simulations. Otherwise (another game, a
//! state not in the tree, a game without keys) the search starts afresh. This is what a player
//! needs between moves: it searches, the game moves on by its move and the others', and the next
//! search starts where those moves lead.
//!
//! The budget counts the simulations the search runs; the reused ones come on top
//! ([`UctAnalysis::reused`]), and the root's arms, the best move and the principal variation
//! count both. [`SearchStats::generated`] counts the nodes this search created,
//! [`UctAnalysis::tree_nodes`] the whole tree. Sound where a state's key identifies it (GDL's
//! fluent sets, Zobrist keys); a game whose keys often collide should not turn it on.
//! [`Reset::reset`] drops the kept tree, as does a search with `reuse` off; so should a caller
//! that searches a different game at the address of a dropped one, of a type that gives no
//! [`identity`](game_trait::Game::identity) (GDL games do). Cost: one
//! [`state_hash`](game_trait::Game::state_hash) per node created, and a pass over the kept tree
//! per search.
//!
//! # Determinism
//! Every random choice (chance outcomes, playout moves) comes from a [`Pcg64`] seeded with
//! [`UctConfig::seed`] at the start of each search: without a deadline or stop flag, a search depends
//! only on that seed, the rest of the configuration, the game and the state, and with
//! [`UctConfig::reuse`] also on the searches before it since the last reset: the same searches
//! in the same order give the same results.
//!
//! # Cost
//! Each simulation clones the root state and replays the tree moves from it (states are not stored
//! in the tree), then plays out: per simulation, `O(Σ b)` UCB1 evaluations over the moves `b` of the
//! tree nodes on its path, plus one move generation and one move per playout ply. Memory: one node
//! per simulation plus one edge per legal move of each expanded node (with reuse: per simulation
//! of the last two searches).
//!
//! ```
//! use game_trait::{Game, Limits, MoveList, Outcome, PlayerId, Searcher, ZeroSumGame};
//! use search_core::{Uct, UctConfig};
//!
//! /// Take 1 or 2 stones; whoever takes the last one wins.
//! struct Nim;
//! #[derive(Clone, Copy, Debug)]
//! struct Pile { stones: u32, mover: PlayerId }
//! impl Game for Nim {
//!     type State = Pile;
//!     type Move = u32;
//!     fn initial_state(&self) -> Pile { Pile { stones: 5, mover: 0 } }
//!     fn apply(&self, s: &mut Pile, take: u32) -> Option<Pile> {
//!         Some(Pile { stones: s.stones - take, mover: 1 - s.mover })
//!     }
//! }
//! impl ZeroSumGame for Nim {
//!     fn side_to_move(&self, s: &Pile) -> PlayerId { s.mover }
//!     fn outcome(&self, s: &Pile) -> Option<Outcome> { (s.stones == 0).then_some(Outcome::LOSS) }
//!     fn moves(&self, s: &Pile, moves: &mut MoveList<u32>) {
//!         moves.extend((1..=2).filter(|&n| n <= s.stones));
//!     }
//! }
//!
//! let mut uct = Uct::new(UctConfig { simulations: 2_000, ..UctConfig::default() });
//! let result = uct.search(&Nim, &Nim.initial_state(), &Limits::none());
//! assert_eq!(result.best_move, Some(2)); // leave a multiple of 3
//! assert!(result.value > 900); // a certain win, on the ±1000 scale
//! ```

mod parallel;
mod playout;
mod solver;
mod tree;
mod tree_parallel;

use std::any::Any;
use std::sync::LazyLock;
use std::time::Instant;

use game_trait::{
    Bound, ChanceList, GeneralGame, Limits, MoveList, Pace, PlayerId, Reset, Score, SearchResult,
    SearchStats, Searcher, Turn,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

pub use playout::{PlayoutPolicy, UniformPlayout};
use tree::{Edge, NodeId, Tree, NONE, ROOT};

/// Half-width of UCT's value scale: a mean reward of 1 scores `VALUE_SCALE`, ½ scores 0, 0 scores
/// `-VALUE_SCALE` (see [`score_of_mean`]).
pub const VALUE_SCALE: Score = 1000;

/// The most simulations between two looks at the deadline and the stop flag.
const CHECK_INTERVAL: u64 = 256;

/// When to look at the limits next: a [`Pace`] over simulations, at most every
/// [`CHECK_INTERVAL`] of them. While simulations are slow (one between looks), the limits are
/// looked at after every ply of a simulation as well, so that a deadline is overrun by one ply at
/// most; a simulation the limits stop is dropped. Only the time of a stop depends on the pace:
/// the simulation budget is counted exactly.
struct CheckPace {
    next: u64,
    pace: Pace,
}

impl CheckPace {
    fn new() -> CheckPace {
        CheckPace {
            next: 0,
            pace: Pace::new(CHECK_INTERVAL),
        }
    }

    /// Whether to look at the limits before simulation number `simulations`.
    #[inline]
    fn due(&mut self, simulations: u64) -> bool {
        if simulations < self.next {
            return false;
        }
        self.next = simulations + self.pace.interval_after_look();
        true
    }

    /// `limits` while simulations are slow enough to look at them after every ply.
    #[inline]
    fn within<'l>(&self, limits: &'l Limits) -> Option<&'l Limits> {
        (self.pace.interval() == 1).then_some(limits)
    }
}

/// Maps a mean reward in `[0, 1]` to a [`Score`]: `round((2·mean − 1) · VALUE_SCALE)`, so 1 ↦ +1000,
/// ½ ↦ 0, 0 ↦ −1000. Means outside `[0, 1]` (from a game whose payoffs break the contract) are clamped.
pub fn score_of_mean(mean: f64) -> Score {
    let mean = if mean.is_nan() {
        0.5
    } else {
        mean.clamp(0.0, 1.0)
    };
    ((2.0 * mean - 1.0) * f64::from(VALUE_SCALE)).round() as Score
}

/// The parameters of [`Uct`], with the defaults of [`UctConfig::default`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UctConfig {
    /// Simulations per search when [`Limits::nodes`] is `None`. Default 10 000, the number of
    /// simulations in the experiments of Koriche et al., *General Game Playing with Stochastic
    /// CSP*, 2016.
    pub simulations: u64,
    /// The exploration constant `c` of UCB1, `mean + c · sqrt(ln N / n)`. Default 1.4 (≈ √2, UCB1's
    /// own constant for rewards in `[0, 1]`). 0 is pure exploitation after every move was tried once.
    pub exploration: f64,
    /// Seed of the search's [`Pcg64`]. Default 0.
    pub seed: u64,
    /// Longest playout, in plies below the tree; longer playouts are cut and score
    /// [`truncation_payoff`](UctConfig::truncation_payoff). Default 10 000 (games are finite; this only
    /// guards against games that are not).
    pub max_playout_plies: u32,
    /// Payoff of every player for a truncated playout (and for a non-finished state where a player
    /// or chance has no move, which breaks the [`GeneralGame`] contract). Default 0, the convention
    /// of Koriche et al., 2016.
    pub truncation_payoff: f64,
    /// Keep the tree between searches and, when the next search's state is in it, start from
    /// that subtree with its statistics (see [Reusing the tree](self#reusing-the-tree)). Default
    /// `false`: every search starts afresh.
    #[serde(default)]
    pub reuse: bool,
    /// Tree-parallel UCT's virtual loss ([`Uct::analyse_tree_parallel`]): while a simulation that
    /// chose an edge is under way on one thread, the other threads see that edge (and its node)
    /// with this many extra visits that brought no reward, so that they spread over other moves.
    /// Default 1, the virtual loss of Chaslot, Winands and van den Herik, *Parallel Monte-Carlo
    /// Tree Search*, 2008 (Segal, *On the Scalability of Parallel UCT*, 2010, measures larger
    /// ones). 0 turns it off: the threads then crowd onto the same line until its simulations
    /// come back. Sequential and root-parallel searches never see a virtual loss.
    #[serde(default = "default_virtual_loss")]
    pub virtual_loss: u32,
    /// Record the subtrees the simulations have explored completely, with their exact values,
    /// and use them: a simulation stops at a node known exactly, and an edge whose child is known
    /// exactly has its value as its UCB1 index. A search whose root becomes known exactly stops
    /// and plays its best child. The "cache allowing it to know in advance the subtrees already
    /// explored" of the UCT that Koriche et al. (2016) played against, read as MCTS-Solver (see
    /// the solver's module docs in the source, `uct/solver.rs`, and the [module docs](self)).
    /// Default `false`.
    #[serde(default)]
    pub solver: bool,
}

fn default_virtual_loss() -> u32 {
    1
}

impl Default for UctConfig {
    fn default() -> UctConfig {
        UctConfig {
            simulations: 10_000,
            exploration: 1.4,
            seed: 0,
            max_playout_plies: 10_000,
            truncation_payoff: 0.0,
            reuse: false,
            virtual_loss: default_virtual_loss(),
            solver: false,
        }
    }
}

/// Monte-Carlo tree search with UCB1 (Kocsis & Szepesvári 2006), decoupled at simultaneous nodes: see
/// the [module docs](self) for the algorithm, what the result means and the limits it honours.
///
/// `P` is the [`PlayoutPolicy`], uniform random by default; change it with [`Uct::with_policy`].
#[derive(Debug, Default)]
pub struct Uct<P = UniformPlayout> {
    config: UctConfig,
    policy: P,
    /// The last search's tree, when [`UctConfig::reuse`] keeps it: a [`Kept`] of the game's
    /// move type.
    kept: Option<Box<dyn Any>>,
}

/// A clone has the configuration and the policy, not the kept tree: its first search starts
/// afresh.
impl<P: Clone> Clone for Uct<P> {
    fn clone(&self) -> Self {
        Uct {
            config: self.config.clone(),
            policy: self.policy.clone(),
            kept: None,
        }
    }
}

/// The tree of the last search, kept for the next ([`UctConfig::reuse`]).
struct Kept<M> {
    /// The game searched: a tree is reused on the same game value only.
    game: GameId,
    tree: Tree<M>,
    /// Simulations the search that built it ran: the most nodes a reused subtree keeps, so that
    /// the tree never holds more than the last two searches' simulations.
    simulations: u64,
}

/// Statistics of one move at the root, from [`Uct::analyse`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArmStatistics<M> {
    /// The player choosing the move.
    pub player: PlayerId,
    /// The move.
    pub mv: M,
    /// Simulations in which `player` chose it.
    pub visits: u64,
    /// Mean reward of `player` over those simulations, in `[0, 1]`; `None` if never chosen.
    pub mean: Option<f64>,
}

/// Everything a UCT search learned, from [`Uct::analyse`].
#[derive(Clone, Debug)]
pub struct UctAnalysis<M> {
    /// What [`Searcher::search`] returns.
    pub result: SearchResult<M>,
    /// Simulations run.
    pub simulations: u64,
    /// The root's arms in generation order: the mover's moves at a `Player` root; every player's moves,
    /// player after player, at a `Simultaneous` root; empty at `Chance` and finished roots.
    pub arms: Vec<ArmStatistics<M>>,
    /// Each player's mean payoff over this search's simulations (the root's estimated value for
    /// every player; empty if no simulation ran).
    pub root_mean: Vec<f64>,
    /// Simulations carried over from earlier searches: the visits of the reused root (0 when the
    /// search started afresh). The arms' visits count them too.
    pub reused: u64,
    /// Nodes in the tree at the end of the search, those carried over included.
    pub tree_nodes: u64,
}

impl Uct<UniformPlayout> {
    /// UCT with uniformly random playouts.
    pub fn new(config: UctConfig) -> Uct<UniformPlayout> {
        Uct {
            config,
            policy: UniformPlayout,
            kept: None,
        }
    }
}

impl<P> Uct<P> {
    /// The same search with playout policy `policy`.
    pub fn with_policy<Q>(self, policy: Q) -> Uct<Q> {
        Uct {
            config: self.config,
            policy,
            kept: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &UctConfig {
        &self.config
    }

    /// The configuration, to change between searches.
    pub fn config_mut(&mut self) -> &mut UctConfig {
        &mut self.config
    }

    /// The playout policy.
    pub fn policy_mut(&mut self) -> &mut P {
        &mut self.policy
    }

    /// Searches `state` within `limits` and returns the result with the root's statistics.
    pub fn analyse<G: GeneralGame>(
        &mut self,
        game: &G,
        state: &G::State,
        limits: &Limits,
    ) -> UctAnalysis<G::Move>
    where
        P: PlayoutPolicy<G>,
    {
        let start = Instant::now();
        let budget = limits.nodes.unwrap_or(self.config.simulations);
        let mut run = match self.begin(game, state, budget, start) {
            Ok(run) => run,
            Err(finished) => return *finished,
        };
        let mut check = CheckPace::new();
        while run.simulations < budget && !run.root_solved() {
            if check.due(run.simulations) && limits.exhausted(run.simulations) {
                break;
            }
            if !run.simulate(state, check.within(limits)) {
                break;
            }
        }
        let (analysis, tree) = run.finish(start);
        self.keep(game, tree, &analysis);
        analysis
    }

    /// The search of `state` with the root expanded and, with [`UctConfig::reuse`], the kept
    /// subtree of `state` adopted; or the analysis of a finished `state`, which has nothing to
    /// search.
    fn begin<'s, G: GeneralGame>(
        &'s mut self,
        game: &'s G,
        state: &G::State,
        budget: u64,
        start: Instant,
    ) -> Result<Run<'s, G, P>, Box<UctAnalysis<G::Move>>>
    where
        P: PlayoutPolicy<G>,
    {
        let kept = self.kept.take();
        let root_turn = game.turn(state);
        if root_turn == Turn::Over {
            let mut result = SearchResult::leaf(score_of_mean(game.payoff(state, 0)));
            result.elapsed = start.elapsed();
            return Err(Box::new(UctAnalysis {
                result,
                simulations: 0,
                arms: Vec::new(),
                root_mean: Vec::new(),
                reused: 0,
                tree_nodes: 0,
            }));
        }
        let reuse = self.config.reuse;
        let root_key = if reuse { game.state_hash(state) } else { None };
        let capacity = budget.saturating_add(1).min(1 << 20) as usize;
        let tree = Tree::new(root_turn, capacity, reuse, root_key);
        let mut run = Run::new(game, &mut self.policy, &self.config, tree);
        run.expand(ROOT, state);
        if let (Some(key), Some(kept)) = (root_key, kept) {
            if let Ok(kept) = kept.downcast::<Kept<G::Move>>() {
                run.adopt(*kept, identify(game), key);
            }
        }
        Ok(run)
    }

    /// Keeps `tree`, the tree of the search that returned `analysis`, for the next search when
    /// [`UctConfig::reuse`] is on.
    fn keep<G: GeneralGame>(
        &mut self,
        game: &G,
        tree: Tree<G::Move>,
        analysis: &UctAnalysis<G::Move>,
    ) {
        if self.config.reuse {
            self.kept = Some(Box::new(Kept {
                game: identify(game),
                tree,
                simulations: analysis.simulations,
            }));
        }
    }
}

/// A game value while it lives: its type's name, its address (two values of a zero-sized type
/// share an address, and are the same game) and its
/// [`Game::identity`](game_trait::Game::identity) (a game loaded where another was dropped is
/// another game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GameId(&'static str, usize, Option<u64>);

fn identify<G: game_trait::Game>(game: &G) -> GameId {
    let address = game as *const G as usize;
    GameId(std::any::type_name::<G>(), address, game.identity())
}

impl<G: GeneralGame, P: PlayoutPolicy<G>> Searcher<G> for Uct<P> {
    fn search(&mut self, game: &G, state: &G::State, limits: &Limits) -> SearchResult<G::Move> {
        self.analyse(game, state, limits).result
    }
}

/// Drops the tree kept for reuse ([`UctConfig::reuse`]); without reuse a search keeps nothing
/// for the next one anyway. Every search re-seeds its generator from [`UctConfig::seed`].
impl<P> Reset for Uct<P> {
    fn reset(&mut self) {
        self.kept = None;
    }
}

/// How a simulation left a node of its path.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Through the edge with this (absolute) index: `Player` and `Chance` nodes.
    Edge(u32),
    /// Through a joint move whose arms (one per player, then the chance outcome if chance moves) are
    /// at this offset of [`Run::path_arms`].
    Joint(u32),
    /// The path ends here (a new node, a finished game, or a node without moves).
    Leaf,
}

/// The state of one search: the tree, the random generator and the reusable buffers.
struct Run<'a, G: GeneralGame, P> {
    game: &'a G,
    policy: &'a mut P,
    config: &'a UctConfig,
    rng: Pcg64,
    tree: Tree<G::Move>,
    players: usize,
    simulations: u64,
    expanded: u64,
    max_depth: u32,
    /// Nodes and simulations carried over from an earlier search.
    reused_nodes: u64,
    reused: u64,
    /// The current simulation's path through the tree.
    path: Vec<(NodeId, Step)>,
    /// The arms chosen at the `Simultaneous` nodes of `path`.
    path_arms: Vec<u32>,
    /// Every player's payoff for the current simulation.
    payoffs: Vec<f64>,
    /// Sum of every player's payoffs over all simulations.
    payoff_sums: Vec<f64>,
    moves: MoveList<G::Move>,
    outcomes: ChanceList<G::Move>,
    joint: Vec<G::Move>,
}

impl<'a, G: GeneralGame, P: PlayoutPolicy<G>> Run<'a, G, P> {
    /// A search of `tree` whose generator is seeded with `config.seed`.
    fn new(game: &'a G, policy: &'a mut P, config: &'a UctConfig, tree: Tree<G::Move>) -> Self {
        let players = game.players();
        Run {
            game,
            policy,
            config,
            rng: Pcg64::seed_from_u64(config.seed),
            tree,
            players,
            simulations: 0,
            expanded: 0,
            max_depth: 0,
            reused_nodes: 0,
            reused: 0,
            path: Vec::new(),
            path_arms: Vec::new(),
            payoffs: vec![0.0; players],
            payoff_sums: vec![0.0; players],
            moves: MoveList::new(),
            outcomes: ChanceList::new(),
            joint: Vec::with_capacity(players + 1),
        }
    }

    /// Generates the edges of `node`, whose state is `state`.
    fn expand(&mut self, node: NodeId, state: &G::State) {
        let first_edge = self.tree.edges.len() as u32;
        let game = self.game;
        let first_group = self.tree.groups.len() as u32;
        match self.tree.nodes[node as usize].turn {
            Turn::Player(p) => {
                game.legal_moves(state, p, &mut self.moves);
                let edges = self.moves.iter().map(|&mv| Edge::new(mv, 0.0));
                self.tree.edges.extend(edges);
            }
            Turn::Chance => {
                game.chance_outcomes(state, &mut self.outcomes);
                let edges = self.outcomes.iter().map(|&(mv, p)| Edge::new(mv, p));
                self.tree.edges.extend(edges);
            }
            Turn::Simultaneous => {
                self.tree.groups.push(0);
                for p in 0..self.players {
                    game.legal_moves(state, p, &mut self.moves);
                    let edges = self.moves.iter().map(|&mv| Edge::new(mv, 0.0));
                    self.tree.edges.extend(edges);
                    self.tree
                        .groups
                        .push(self.tree.edges.len() as u32 - first_edge);
                }
                game.chance_outcomes(state, &mut self.outcomes);
                let edges = self.outcomes.iter().map(|&(mv, p)| Edge::new(mv, p));
                self.tree.edges.extend(edges);
                self.tree
                    .groups
                    .push(self.tree.edges.len() as u32 - first_edge);
            }
            Turn::Over => {}
        }
        let n = &mut self.tree.nodes[node as usize];
        n.expanded = true;
        n.first_edge = first_edge;
        n.edge_count = self.tree.edges.len() as u32 - first_edge;
        n.first_group = first_group;
        self.expanded += 1;
    }

    /// Continues from `kept` instead of the fresh tree when it was built on the same game `game`,
    /// holds an expanded node whose state has the root's key `key` and turn, and
    /// that node's moves are those just generated at the root: the subtree below it becomes the
    /// tree, and the rest of `kept` is dropped. Otherwise the fresh tree stays.
    fn adopt(&mut self, kept: Kept<G::Move>, game: GameId, key: u64) {
        if kept.game != game || !kept.tree.keyed() {
            return;
        }
        let turn = self.tree.nodes[ROOT as usize].turn;
        let Some(root) = kept.tree.find(key, turn) else {
            return;
        };
        let max_nodes = usize::try_from(kept.simulations.max(1)).unwrap_or(usize::MAX);
        let tree = kept.tree.subtree(root, self.players, max_nodes);
        drop(kept);
        if !tree.same_root_edges(&self.tree, self.players) {
            return;
        }
        self.reused = tree.nodes[ROOT as usize].visits;
        self.reused_nodes = tree.nodes.len() as u64;
        self.max_depth = tree.nodes.iter().map(|n| n.depth).max().unwrap_or(0);
        self.expanded = 0;
        self.tree = tree;
    }

    /// One simulation: selection and expansion in the tree, a playout below it, backpropagation.
    /// `false`, with nothing backed up, if `watch` (the limits, given while simulations are
    /// slow) stops the playout; the node the simulation added stays, unvisited.
    fn simulate(&mut self, root: &G::State, watch: Option<&Limits>) -> bool {
        let mut state = root.clone();
        self.path.clear();
        self.path_arms.clear();
        if self.descend(&mut state) && !self.playout(&mut state, watch) {
            return false;
        }
        self.backpropagate();
        self.simulations += 1;
        true
    }

    /// Walks down from the root to a leaf of the tree and adds one node. Returns whether
    /// `state`, the state reached, is to be played out; otherwise the simulation ended in the
    /// tree, and `payoffs` are filled.
    #[must_use]
    fn descend(&mut self, state: &mut G::State) -> bool {
        let mut node = ROOT;
        loop {
            let turn = self.tree.nodes[node as usize].turn;
            if self.config.solver {
                if let Some(value) = self.tree.exact.get(&node) {
                    self.payoffs.copy_from_slice(value);
                    self.path.push((node, Step::Leaf));
                    return false;
                }
            }
            if turn == Turn::Over {
                self.path.push((node, Step::Leaf));
                self.read_payoffs(state);
                if self.config.solver {
                    self.settle_finished(node);
                }
                return false;
            }
            if !self.tree.nodes[node as usize].expanded {
                self.expand(node, state);
            }
            let Some((step, child)) = self.select(node, turn, state) else {
                // A player or chance without a move in a non-finished state.
                self.path.push((node, Step::Leaf));
                self.truncated();
                return false;
            };
            self.path.push((node, step));
            if let Some(child) = child {
                node = child;
                continue;
            }
            // Left the tree: add the child reached (if it can be stored), then play out from it.
            if let Some(child) = self.add_child(node, step, state) {
                self.path.push((child, Step::Leaf));
                if self.tree.nodes[child as usize].turn == Turn::Over {
                    self.read_payoffs(state);
                    if self.config.solver {
                        self.settle_finished(child);
                    }
                    return false;
                }
            }
            return true;
        }
    }

    /// Chooses how to leave the expanded `node`, applies the choice to `state`, and returns the step
    /// with the child already in the tree (`Some(None)`: not yet created), or `None` if some player or
    /// chance has no move.
    fn select(
        &mut self,
        node: NodeId,
        turn: Turn,
        state: &mut G::State,
    ) -> Option<(Step, Option<NodeId>)> {
        let edges = self.tree.nodes[node as usize].first_edge as usize;
        let count = self.tree.nodes[node as usize].edge_count as usize;
        let edge = match turn {
            Turn::Player(p) => self.ucb1(node, edges..edges + count, Some(p))?,
            Turn::Chance => edges + sample(&mut self.rng, &self.tree.edges[edges..edges + count])?,
            Turn::Simultaneous => return self.select_joint(node, state),
            Turn::Over => return None,
        };
        let e = &self.tree.edges[edge];
        self.game.play(state, e.mv);
        let child = (e.child != NONE).then_some(e.child);
        Some((Step::Edge(edge as u32), child))
    }

    /// Decoupled UCT at a `Simultaneous` node: each player's UCB1 over its own arms, chance sampled.
    fn select_joint(
        &mut self,
        node: NodeId,
        state: &mut G::State,
    ) -> Option<(Step, Option<NodeId>)> {
        let offset = self.path_arms.len() as u32;
        self.joint.clear();
        for p in 0..=self.players {
            let arms = self.tree.arms(node, p);
            let chosen = if p < self.players {
                self.ucb1(node, arms, None)?
            } else if arms.is_empty() {
                break; // chance does not move here
            } else {
                arms.start + sample(&mut self.rng, &self.tree.edges[arms])?
            };
            self.path_arms.push(chosen as u32);
            self.joint.push(self.tree.edges[chosen].mv);
        }
        self.game.play_joint(state, &self.joint);
        let child = self
            .joint_code(node, offset)
            .and_then(|code| self.tree.joint_children.get(&(node, code)).copied());
        Some((Step::Joint(offset), child))
    }

    /// The UCB1 choice among the edges `range` of `node`: the maximiser of `mean + c · sqrt(ln N / n)`,
    /// an untried edge counting as +∞. Ties are broken uniformly at random, because deterministic
    /// tie-breaking locks the players of a simultaneous node into step: both would try their first
    /// move, then both their second, and never meet off the diagonal. `None` if the range is empty.
    ///
    /// In a tree-parallel search, visits count the simulations under way (`pending`) as
    /// [`UctConfig::virtual_loss`] visits each, with no reward: the virtual loss. With
    /// [`UctConfig::solver`], an edge of `player`'s whose child is known exactly has that value as
    /// its index.
    fn ucb1(
        &mut self,
        node: NodeId,
        range: std::ops::Range<usize>,
        player: Option<PlayerId>,
    ) -> Option<usize> {
        let index = self.indices(node, player);
        let mut best = None;
        let mut best_index = f64::NEG_INFINITY;
        let mut ties = 0u32;
        for i in range.clone() {
            let x = index.of(self, i);
            if x > best_index || best.is_none() {
                best_index = x;
                best = Some(i);
                ties = 1;
            } else if x == best_index {
                ties += 1;
            }
        }
        if ties < 2 {
            return best;
        }
        // One draw among the tied edges (mostly the untried ones of a new node), then the drawn
        // one found again: the indices are recomputed exactly as above.
        let mut drawn = self.rng.gen_range(0..ties);
        range.into_iter().find(|&i| {
            let tied = index.of(self, i) == best_index;
            if tied && drawn == 0 {
                return true;
            }
            drawn -= u32::from(tied);
            false
        })
    }

    /// What UCB1 needs of `node` to index its edges (see [`ucb1`](Self::ucb1)).
    #[inline(always)]
    fn indices(&self, node: NodeId, player: Option<PlayerId>) -> Indices {
        let loss = u64::from(self.config.virtual_loss);
        let n = &self.tree.nodes[node as usize];
        let virtual_visits = u64::from(n.pending) * loss;
        let visits = (n.visits + virtual_visits).max(1);
        let c = self.config.exploration;
        Indices {
            loss,
            // Only edges with virtual visits read it, and only nodes with some have them.
            log_n: if virtual_visits > 0 {
                (visits as f64).ln()
            } else {
                0.0
            },
            c,
            // `c · sqrt(ln N / n)` as `c · sqrt(ln N) · (1 / sqrt(n))`: one logarithm and
            // square root per node (mostly looked up), the edges' factors kept by `Edge::add`.
            exploration: c * sqrt_ln(visits),
            exact_for: player.filter(|_| self.config.solver),
        }
    }

    /// Creates the child reached from `node` by `step`, whose state is `state`; `None` if the tree is
    /// full or the joint move's code overflowed (the simulation then plays out without storing it).
    fn add_child(&mut self, node: NodeId, step: Step, state: &G::State) -> Option<NodeId> {
        if !self.tree.has_room() {
            return None;
        }
        let id = self.tree.nodes.len() as NodeId;
        match step {
            Step::Edge(edge) => self.tree.edges[edge as usize].child = id,
            Step::Joint(offset) => {
                let code = self.joint_code(node, offset)?;
                self.tree.joint_children.insert((node, code), id);
            }
            Step::Leaf => return None,
        }
        let depth = self.tree.nodes[node as usize].depth + 1;
        let key = if self.tree.keyed() {
            self.game.state_hash(state)
        } else {
            None
        };
        self.tree.push_node(self.game.turn(state), depth, key);
        self.max_depth = self.max_depth.max(depth);
        Some(id)
    }

    /// The mixed-radix code of the joint move recorded at `offset` of `path_arms` for `node`.
    fn joint_code(&self, node: NodeId, offset: u32) -> Option<u64> {
        let mut code = 0u64;
        let mut radix = 1u64;
        let groups = self.players + usize::from(!self.tree.arms(node, self.players).is_empty());
        for p in 0..groups {
            let arms = self.tree.arms(node, p);
            let digit = (self.path_arms[offset as usize + p] as usize - arms.start) as u64;
            code = code.checked_add(digit.checked_mul(radix)?)?;
            radix = radix.checked_mul(arms.len() as u64)?;
        }
        Some(code)
    }

    /// Plays `state` out to the end with the playout policy, filling `payoffs`; `false` if
    /// `watch` says to stop first (looked at before every ply).
    #[must_use]
    fn playout(&mut self, state: &mut G::State, watch: Option<&Limits>) -> bool {
        let game = self.game;
        let mut plies = 0;
        loop {
            if watch.is_some_and(|limits| limits.exhausted(self.simulations)) {
                return false;
            }
            let turn = game.turn(state);
            if turn == Turn::Over {
                self.read_payoffs(state);
                return true;
            }
            if plies >= self.config.max_playout_plies {
                self.truncated();
                return true;
            }
            let played = match turn {
                Turn::Player(p) => self.playout_move(state, p).map(|mv| game.play(state, mv)),
                Turn::Chance => self.playout_chance(state).map(|mv| game.play(state, mv)),
                Turn::Simultaneous => self.playout_joint(state),
                Turn::Over => unreachable!("handled above"),
            };
            if played.is_none() {
                self.truncated();
                return true;
            }
            plies += 1;
        }
    }

    /// The playout policy's move for `player`, or `None` if it has none. (Inlined: left to
    /// itself the compiler stops inlining it when the playout loop grows by a branch, which cost
    /// the bench's fast playouts 10 %.)
    #[inline(always)]
    fn playout_move(&mut self, state: &G::State, player: PlayerId) -> Option<G::Move> {
        self.game.legal_moves(state, player, &mut self.moves);
        if self.moves.is_empty() {
            return None;
        }
        let i = self
            .policy
            .choose(self.game, state, player, &self.moves, &mut self.rng);
        Some(self.moves[i])
    }

    /// A chance outcome drawn with its probability, or `None` if there is none.
    fn playout_chance(&mut self, state: &G::State) -> Option<G::Move> {
        self.game.chance_outcomes(state, &mut self.outcomes);
        let i = sample(&mut self.rng, &self.outcomes[..])?;
        Some(self.outcomes[i].0)
    }

    /// Plays one joint move of a playout; `None` if some player has no move.
    fn playout_joint(&mut self, state: &mut G::State) -> Option<()> {
        let mut joint = std::mem::take(&mut self.joint);
        joint.clear();
        for p in 0..self.players {
            match self.playout_move(state, p) {
                Some(mv) => joint.push(mv),
                None => {
                    self.joint = joint;
                    return None;
                }
            }
        }
        self.game.chance_outcomes(state, &mut self.outcomes);
        if let Some(i) = sample(&mut self.rng, &self.outcomes[..]) {
            joint.push(self.outcomes[i].0);
        }
        self.game.play_joint(state, &joint);
        self.joint = joint;
        Some(())
    }

    fn read_payoffs(&mut self, state: &G::State) {
        for (p, payoff) in self.payoffs.iter_mut().enumerate() {
            *payoff = self.game.payoff(state, p);
        }
    }

    fn truncated(&mut self) {
        self.payoffs.fill(self.config.truncation_payoff);
    }

    /// Counts the simulation under way on every node and chosen edge of its path (`add`), or
    /// stops counting it (not `add`): tree-parallel UCT's virtual loss. Chance edges are counted
    /// too, though nothing reads them there.
    fn mark_pending(&mut self, add: bool) {
        let change = |pending: &mut u32| {
            *pending = if add { *pending + 1 } else { *pending - 1 };
        };
        for &(node, step) in &self.path {
            change(&mut self.tree.nodes[node as usize].pending);
            match step {
                Step::Edge(edge) => change(&mut self.tree.edges[edge as usize].pending),
                Step::Joint(offset) => {
                    let chance = !self.tree.arms(node, self.players).is_empty();
                    let arms = self.players + usize::from(chance);
                    for i in 0..arms {
                        let edge = self.path_arms[offset as usize + i] as usize;
                        change(&mut self.tree.edges[edge].pending);
                    }
                }
                Step::Leaf => {}
            }
        }
    }

    /// Adds the simulation's payoffs to every node and chosen edge of its path.
    fn backpropagate(&mut self) {
        for &(node, step) in &self.path {
            let n = &mut self.tree.nodes[node as usize];
            n.visits += 1;
            match (step, n.turn) {
                (Step::Edge(edge), turn) => {
                    let e = &mut self.tree.edges[edge as usize];
                    let reward = match turn {
                        Turn::Player(p) => self.payoffs[p],
                        _ => 0.0,
                    };
                    e.add(1, reward);
                }
                (Step::Joint(offset), _) => {
                    let chance = !self.tree.arms(node, self.players).is_empty();
                    let arms = self.players + usize::from(chance);
                    for i in 0..arms {
                        let e = &mut self.tree.edges[self.path_arms[offset as usize + i] as usize];
                        let reward = if i < self.players {
                            self.payoffs[i]
                        } else {
                            0.0
                        };
                        e.add(1, reward);
                    }
                }
                (Step::Leaf, _) => {}
            }
        }
        for (sum, payoff) in self.payoff_sums.iter_mut().zip(&self.payoffs) {
            *sum += payoff;
        }
        if self.config.solver {
            self.settle_path();
        }
    }

    /// Whether the root is known exactly ([`UctConfig::solver`]): nothing is left to search.
    fn root_solved(&self) -> bool {
        self.tree.exact.contains_key(&ROOT)
    }

    /// The root's edge best for its mover `p` among those whose child is known exactly (the first
    /// of equals), once the root is.
    fn best_exact(&self, p: PlayerId, range: std::ops::Range<usize>) -> Option<usize> {
        let value = |i: usize| self.exact_child(self.tree.edges[i].child).map(|v| v[p]);
        let mut best: Option<(usize, f64)> = None;
        for i in range {
            if let Some(v) = value(i) {
                if best.map_or(true, |(_, b)| v > b) {
                    best = Some((i, v));
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// The root's decision arms: `(player, absolute edge range)` per deciding player.
    fn root_arms(&self) -> Vec<(PlayerId, std::ops::Range<usize>)> {
        let root = &self.tree.nodes[ROOT as usize];
        let first = root.first_edge as usize;
        match root.turn {
            Turn::Player(p) => vec![(p, first..first + root.edge_count as usize)],
            Turn::Simultaneous => (0..self.players)
                .map(|p| (p, self.tree.arms(ROOT, p)))
                .collect(),
            Turn::Chance | Turn::Over => Vec::new(),
        }
    }

    /// The most visited edge of `range` (ties: higher mean, then first).
    fn most_visited(&self, range: std::ops::Range<usize>) -> Option<usize> {
        let mut best: Option<usize> = None;
        for i in range {
            let e = &self.tree.edges[i];
            let better = match best {
                None => true,
                Some(b) => {
                    let b = &self.tree.edges[b];
                    e.visits() > b.visits()
                        || (e.visits() == b.visits()
                            && e.mean().unwrap_or(0.0) > b.mean().unwrap_or(0.0))
                }
            };
            if better {
                best = Some(i);
            }
        }
        best
    }

    /// The principal variation from the root's best edge: most visited edges through `Player` nodes.
    fn principal_variation(&self, best: usize) -> Vec<G::Move> {
        let mut pv = vec![self.tree.edges[best].mv];
        if !matches!(self.tree.nodes[ROOT as usize].turn, Turn::Player(_)) {
            return pv;
        }
        let mut child = self.tree.edges[best].child;
        while child != NONE {
            let n = &self.tree.nodes[child as usize];
            if !n.expanded || !matches!(n.turn, Turn::Player(_)) {
                break;
            }
            let first = n.first_edge as usize;
            let Some(edge) = self.most_visited(first..first + n.edge_count as usize) else {
                break;
            };
            if self.tree.edges[edge].visits() == 0 {
                break;
            }
            pv.push(self.tree.edges[edge].mv);
            child = self.tree.edges[edge].child;
        }
        pv
    }

    /// Assembles the search's result, and hands the tree back.
    fn finish(self, start: Instant) -> (UctAnalysis<G::Move>, Tree<G::Move>) {
        let root_mean: Vec<f64> = if self.simulations == 0 {
            Vec::new()
        } else {
            let n = self.simulations as f64;
            self.payoff_sums.iter().map(|s| s / n).collect()
        };
        let root_arms = self.root_arms();
        // A root known exactly plays its best child: the mover's, or player 0's arm of the best
        // joint move.
        let solved = match self.tree.nodes[ROOT as usize].turn {
            _ if !self.root_solved() => None,
            Turn::Player(p) => root_arms
                .first()
                .and_then(|(_, range)| self.best_exact(p, range.clone()))
                .map(|best| {
                    (
                        best,
                        self.exact_child(self.tree.edges[best].child).unwrap()[p],
                    )
                }),
            Turn::Simultaneous => self
                .joint_value(ROOT)
                .map(|(arms, value)| (arms[0], value[0])),
            Turn::Chance | Turn::Over => None,
        };
        let best = solved.map(|(best, _)| best).or_else(|| {
            root_arms
                .first()
                .and_then(|(_, range)| self.most_visited(range.clone()))
        });
        let value = match (self.tree.nodes[ROOT as usize].turn, best, solved) {
            (_, _, Some((_, exact))) => score_of_mean(exact),
            (Turn::Chance, _, _) => score_of_mean(root_mean.first().copied().unwrap_or(0.5)),
            (_, Some(best), _) => score_of_mean(self.tree.edges[best].mean().unwrap_or(0.5)),
            (_, None, _) => 0,
        };
        let arms = root_arms
            .iter()
            .flat_map(|(p, range)| {
                self.tree.edges[range.clone()]
                    .iter()
                    .map(move |e| ArmStatistics {
                        player: *p,
                        mv: e.mv,
                        visits: e.visits(),
                        mean: e.mean(),
                    })
            })
            .collect();
        let stats = SearchStats {
            generated: self.tree.nodes.len() as u64 - self.reused_nodes,
            expanded: self.expanded,
            evaluated: self.simulations,
            ..SearchStats::default()
        };
        let result = SearchResult {
            best_move: best.map(|b| self.tree.edges[b].mv),
            value,
            bound: if solved.is_some() {
                Bound::Exact
            } else {
                Bound::Estimate
            },
            pv: best
                .map(|b| self.principal_variation(b))
                .unwrap_or_default(),
            depth: self.max_depth,
            stats,
            elapsed: start.elapsed(),
        };
        let analysis = UctAnalysis {
            result,
            simulations: self.simulations,
            arms,
            root_mean,
            reused: self.reused,
            tree_nodes: self.tree.nodes.len() as u64,
        };
        (analysis, self.tree)
    }
}

/// Something with a probability: a chance edge of the tree or a chance outcome.
trait Weighted {
    fn weight(&self) -> f64;
}

/// A node's constants for the UCB1 indices of its edges ([`Run::ucb1`]).
struct Indices {
    /// [`UctConfig::virtual_loss`].
    loss: u64,
    /// `ln N`, virtual visits included.
    log_n: f64,
    /// [`UctConfig::exploration`].
    c: f64,
    /// `c · sqrt(ln N)`.
    exploration: f64,
    /// The player whose exact values index the edges under [`UctConfig::solver`].
    exact_for: Option<PlayerId>,
}

impl Indices {
    /// The index of edge `i`.
    #[inline(always)]
    fn of<G: GeneralGame, P: PlayoutPolicy<G>>(&self, run: &Run<'_, G, P>, i: usize) -> f64 {
        let e = &run.tree.edges[i];
        let exact = self
            .exact_for
            .and_then(|p| Some(run.exact_child(e.child)?[p]));
        if let Some(exact) = exact {
            return exact;
        }
        match u64::from(e.pending) * self.loss {
            0 => e.ucb1(self.exploration),
            virtual_visits => e.ucb1_with(virtual_visits, self.log_n, self.c),
        }
    }
}

/// `sqrt(ln n)`, looked up for the visit counts below 4,096 that most nodes have (the
/// logarithm was 7 % of a simulation's time on the Connect Four of `benches/vs_minimax.rs`);
/// the table holds the values computed, so the indices are the same.
fn sqrt_ln(n: u64) -> f64 {
    static TABLE: LazyLock<Box<[f64]>> = LazyLock::new(|| {
        (0..4096u32)
            .map(|n| f64::from(n.max(1)).ln().sqrt())
            .collect()
    });
    match TABLE.get(n as usize) {
        Some(&x) => x,
        None => (n as f64).ln().sqrt(),
    }
}

impl<M> Weighted for Edge<M> {
    fn weight(&self) -> f64 {
        self.probability
    }
}

impl<M> Weighted for (M, f64) {
    fn weight(&self) -> f64 {
        self.1
    }
}

/// Draws an index of `items` with probability proportional to its weight (weights need not sum to
/// exactly 1); `None` if `items` is empty.
fn sample<W: Weighted>(rng: &mut Pcg64, items: &[W]) -> Option<usize> {
    let last = items.len().checked_sub(1)?;
    let total: f64 = items.iter().map(Weighted::weight).sum();
    let mut u = rng.gen::<f64>() * total;
    for (i, item) in items.iter().enumerate() {
        u -= item.weight();
        if u < 0.0 {
            return Some(i);
        }
    }
    // Rounding left a sliver past the last weight.
    Some(last)
}

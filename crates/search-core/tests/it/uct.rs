//! UCT: finds the minimax (max^n) move on small games, handles simultaneous moves (decoupled UCT) and
//! chance, honours its limits, and is deterministic for a seed.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_trait::{
    ChanceList, Evaluator, Game, GeneralGame, Limits, MoveList, Outcome, PlayerId, Score, Searcher,
    Turn,
};
use rand_pcg::Pcg64;
use search_core::uct::{score_of_mean, PlayoutPolicy, UctAnalysis, UniformPlayout};
use search_core::{ExplicitTree, ExtraTurnTree, Minimax, Nested, Uct, UctConfig};
use test_games::{Nim, NimInPlace, Pile};

fn uct(simulations: u64, seed: u64) -> Uct {
    Uct::new(UctConfig {
        simulations,
        seed,
        ..UctConfig::default()
    })
}

fn analyse<G: GeneralGame>(game: &G, state: &G::State, simulations: u64) -> UctAnalysis<G::Move> {
    uct(simulations, 7).analyse(game, state, &Limits::none())
}

// ---------------------------------------------------------------------------------------------
// Nim: take 1 or 2, whoever takes the last stone wins. Winning move from n: n mod 3 (if not 0).

/// Ten stones, copy-make.
const NIM: Nim = Nim { stones: 10 };
/// The same game, make/unmake.
const NIM_IN_PLACE: NimInPlace = NimInPlace { stones: 10 };

#[test]
fn nim_finds_the_winning_move_from_every_winning_pile() {
    for stones in (1..=14).filter(|n| n % 3 != 0) {
        for mover in [0, 1] {
            let state = Pile { stones, mover };
            let a = analyse(&NIM, &state, 4_000);
            assert_eq!(a.result.best_move, Some(stones % 3), "pile {stones}");
            // A certain win: the chosen move's mean is close to 1.
            assert!(a.result.value > 800, "pile {stones}: {}", a.result.value);
        }
    }
}

#[test]
fn nim_losing_piles_are_valued_as_losses() {
    for stones in [3, 6, 9] {
        let a = analyse(&NIM, &Pile { stones, mover: 1 }, 4_000);
        assert!(a.result.value < -600, "pile {stones}: {}", a.result.value);
    }
}

#[test]
fn copy_make_and_make_unmake_searches_are_identical() {
    let state = Pile {
        stones: 11,
        mover: 0,
    };
    let a = analyse(&NIM, &state, 3_000);
    let b = analyse(&NIM_IN_PLACE, &state, 3_000);
    assert_eq!(a.arms, b.arms);
    assert_eq!(a.result.pv, b.result.pv);
    assert_eq!(a.result.stats, b.result.stats);
}

#[test]
fn principal_variation_is_a_line_of_legal_moves() {
    let state = Pile {
        stones: 8,
        mover: 0,
    };
    let a = analyse(&NIM, &state, 5_000);
    assert_eq!(a.result.pv.first(), a.result.best_move.as_ref());
    assert!(a.result.pv.len() >= 3, "pv {:?}", a.result.pv);
    let mut s = state;
    for &mv in &a.result.pv {
        let mut moves = MoveList::new();
        NIM.legal_moves(&s, s.mover, &mut moves);
        assert!(moves.contains(&mv));
        NIM.play(&mut s, mv);
    }
    // The winner's replies along the pv keep the pile a multiple of 3.
    let mut s = state;
    for (i, &mv) in a.result.pv.iter().enumerate() {
        NIM.play(&mut s, mv);
        if i % 2 == 0 && i < 4 {
            assert_eq!(s.stones % 3, 0, "pv {:?}", a.result.pv);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-written trees: payoffs of player 0 at the leaves, players alternating by depth (2 players,
// zero-sum: player 1 gets 1 − v), or a payoff vector per leaf (n players).

#[derive(Clone, Debug)]
enum Hand {
    Leaf(Vec<f64>),
    Node(Vec<Hand>),
}

fn leaf(v: f64) -> Hand {
    Hand::Leaf(vec![v, 1.0 - v])
}

/// Player 0's expected payoff under uniformly random play from `hand`.
fn playout_mean(hand: &Hand) -> f64 {
    match hand {
        Hand::Leaf(payoffs) => payoffs[0],
        Hand::Node(children) => {
            children.iter().map(playout_mean).sum::<f64>() / children.len() as f64
        }
    }
}

struct HandGame {
    root: Hand,
    players: usize,
}

impl HandGame {
    fn node(&self, path: &[usize]) -> &Hand {
        path.iter().fold(&self.root, |n, &i| match n {
            Hand::Node(c) => &c[i],
            Hand::Leaf(_) => unreachable!(),
        })
    }
}

impl Game for HandGame {
    type State = Vec<usize>;
    type Move = usize;
    fn initial_state(&self) -> Vec<usize> {
        Vec::new()
    }
    fn apply(&self, s: &mut Vec<usize>, mv: usize) -> Option<Vec<usize>> {
        s.push(mv);
        None
    }
    fn undo(&self, s: &mut Vec<usize>, _: usize) {
        s.pop();
    }
    fn state_hash(&self, s: &Vec<usize>) -> Option<u64> {
        Some(s.iter().fold(0, |h, &m| h * 31 + m as u64 + 1))
    }
}

impl GeneralGame for HandGame {
    fn players(&self) -> usize {
        self.players
    }
    fn turn(&self, s: &Vec<usize>) -> Turn {
        match self.node(s) {
            Hand::Leaf(_) => Turn::Over,
            Hand::Node(_) => Turn::Player(s.len() % self.players),
        }
    }
    fn legal_moves(&self, s: &Vec<usize>, _: PlayerId, moves: &mut MoveList<usize>) {
        moves.clear();
        if let Hand::Node(c) = self.node(s) {
            moves.extend(0..c.len());
        }
    }
    fn payoff(&self, s: &Vec<usize>, p: PlayerId) -> f64 {
        match self.node(s) {
            Hand::Leaf(v) => v[p],
            Hand::Node(_) => unreachable!(),
        }
    }
}

/// max^n: every player maximises its own payoff (ties: the first move). Returns (payoffs, move).
fn max_n(node: &Hand, depth: usize, players: usize) -> (Vec<f64>, Option<usize>) {
    match node {
        Hand::Leaf(v) => (v.clone(), None),
        Hand::Node(children) => {
            let mover = depth % players;
            let mut best: Option<(Vec<f64>, usize)> = None;
            for (i, c) in children.iter().enumerate() {
                let (v, _) = max_n(c, depth + 1, players);
                if best.as_ref().map_or(true, |(b, _)| v[mover] > b[mover]) {
                    best = Some((v, i));
                }
            }
            let (v, i) = best.expect("a node has children");
            (v, Some(i))
        }
    }
}

/// The value of player 0 when every player minimises (`paranoid`) or maximises player 0's payoff.
fn against_player_0(node: &Hand, depth: usize, players: usize, paranoid: bool) -> (f64, usize) {
    match node {
        Hand::Leaf(v) => (v[0], 0),
        Hand::Node(children) => {
            let values: Vec<f64> = children
                .iter()
                .map(|c| against_player_0(c, depth + 1, players, paranoid).0)
                .collect();
            let maximise = depth % players == 0 || !paranoid;
            let mut best = 0;
            for (i, &v) in values.iter().enumerate() {
                if (maximise && v > values[best]) || (!maximise && v < values[best]) {
                    best = i;
                }
            }
            (values[best], best)
        }
    }
}

#[test]
fn depth_three_trap_is_avoided() {
    // Move 0 looks better on average (random playouts: 0.67 against 0.49) but player 1 refutes it
    // (value 0.1); move 1 is worth 0.5.
    let root = Hand::Node(vec![
        Hand::Node(vec![
            Hand::Node(vec![leaf(1.0), leaf(1.0)]),
            Hand::Node(vec![leaf(1.0), leaf(0.9)]),
            Hand::Node(vec![leaf(0.0), leaf(0.1)]),
        ]),
        Hand::Node(vec![
            Hand::Node(vec![leaf(0.4), leaf(0.5)]),
            Hand::Node(vec![leaf(0.6), leaf(0.45)]),
        ]),
    ]);
    let (value, best) = max_n(&root, 0, 2);
    assert_eq!((best, value[0]), (Some(1), 0.5));
    // Uniformly random playouts rate the trap higher: this test is not trivial.
    let Hand::Node(arms) = &root else {
        unreachable!()
    };
    assert!(playout_mean(&arms[0]) > playout_mean(&arms[1]) + 0.15);
    let game = HandGame { root, players: 2 };
    let a = analyse(&game, &Vec::new(), 5_000);
    assert_eq!(a.result.best_move, Some(1));
    assert!((a.arms[1].mean.unwrap() - 0.5).abs() < 0.05, "{:?}", a.arms);
    assert!(a.result.value.abs() <= 100, "value {}", a.result.value);
}

#[test]
fn three_players_each_maximise_their_own_payoff() {
    let l = |v: [f64; 3]| Hand::Leaf(v.to_vec());
    let root = Hand::Node(vec![
        Hand::Node(vec![
            Hand::Node(vec![l([0.2, 0.9, 0.3]), l([0.9, 0.8, 0.1])]),
            Hand::Node(vec![l([0.9, 0.1, 0.2]), l([1.0, 0.2, 0.6])]),
        ]),
        Hand::Node(vec![
            Hand::Node(vec![l([0.6, 0.5, 0.7]), l([0.1, 0.9, 0.2])]),
            Hand::Node(vec![l([0.0, 0.4, 0.1]), l([0.3, 0.3, 0.9])]),
        ]),
    ]);
    let (value, best) = max_n(&root, 0, 3);
    assert_eq!(best, Some(1));
    assert_eq!(value, vec![0.6, 0.5, 0.7]);
    // The tree tells max^n apart from the two-player shortcuts.
    assert_eq!(against_player_0(&root, 0, 3, true).1, 0);
    assert_eq!(against_player_0(&root, 0, 3, false).1, 0);

    let game = HandGame { root, players: 3 };
    let a = analyse(&game, &Vec::new(), 6_000);
    assert_eq!(a.result.best_move, Some(1));
    assert_eq!(a.result.pv, vec![1, 0, 0]);
    assert!((a.arms[1].mean.unwrap() - 0.6).abs() < 0.05, "{:?}", a.arms);
    assert_eq!(a.root_mean.len(), 3);
    // Most simulations follow the max^n line, so the root's estimate for each player is near it.
    for (p, v) in value.iter().enumerate() {
        assert!((a.root_mean[p] - v).abs() < 0.1, "{:?}", a.root_mean);
    }
}

// ---------------------------------------------------------------------------------------------
// Simultaneous moves.

/// A one-shot 2×2 game: `table[a][b]` is (payoff 0, payoff 1) when player 0 plays `a`, player 1 `b`.
struct Matrix {
    table: [[(f64, f64); 2]; 2],
}

impl Game for Matrix {
    type State = Option<(usize, usize)>;
    type Move = usize;
    fn initial_state(&self) -> Self::State {
        None
    }
    fn apply(&self, _: &mut Self::State, _: usize) -> Option<Self::State> {
        unreachable!("no single-mover node")
    }
    fn state_hash(&self, _: &Self::State) -> Option<u64> {
        Some(0)
    }
}

impl GeneralGame for Matrix {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, s: &Self::State) -> Turn {
        if s.is_some() {
            Turn::Over
        } else {
            Turn::Simultaneous
        }
    }
    fn legal_moves(&self, _: &Self::State, _: PlayerId, moves: &mut MoveList<usize>) {
        moves.clear();
        moves.extend([0, 1]);
    }
    fn play_joint(&self, s: &mut Self::State, joint: &[usize]) {
        *s = Some((joint[0], joint[1]));
    }
    fn payoff(&self, s: &Self::State, p: PlayerId) -> f64 {
        let (a, b) = s.expect("over");
        let (x, y) = self.table[a][b];
        if p == 0 {
            x
        } else {
            y
        }
    }
}

#[test]
fn matching_pennies_is_played_mixed() {
    let pennies = Matrix {
        table: [[(1.0, 0.0), (0.0, 1.0)], [(0.0, 1.0), (1.0, 0.0)]],
    };
    for seed in 0..4 {
        let a = uct(20_000, seed).analyse(&pennies, &None, &Limits::none());
        assert_eq!(a.arms.len(), 4);
        // Both players keep both coins in play: a pure strategy would be exploited by the other's
        // UCB1.
        for arm in &a.arms {
            assert!(arm.visits > 20_000 * 3 / 10, "seed {seed}: {:?}", a.arms);
        }
        // And the game's value, ½, is what player 0 gets on average. Had player 1 maximised player
        // 0's payoff (no decoupling), player 0 would get nearly 1.
        assert!(
            (a.root_mean[0] - 0.5).abs() < 0.05,
            "seed {seed}: {:?}",
            a.root_mean
        );
        assert!(
            (a.root_mean[1] - 0.5).abs() < 0.05,
            "seed {seed}: {:?}",
            a.root_mean
        );
    }
}

#[test]
fn each_player_of_a_simultaneous_node_maximises_its_own_payoff() {
    // Player 0 gains 0.5 by playing 1, player 1 gains 0.5 by playing 0, whatever the other does; each
    // also hands the other 0.4 by playing 0 (resp. 1). Equilibrium: (1, 0), paying (0.55, 0.55).
    // Player 1 maximising player 0's payoff (no decoupling) would play 1 instead, giving 0.95.
    // The margins (0.5) exceed what the other's changing mix can add to one arm's mean (0.4), so
    // the decoupled UCB1s cannot be misled by stale statistics (see the module docs on lockstep).
    let game = Matrix {
        table: [[(0.05, 0.95), (0.45, 0.45)], [(0.55, 0.55), (0.95, 0.05)]],
    };
    for seed in 0..4 {
        let a = uct(5_000, seed).analyse(&game, &None, &Limits::none());
        assert_eq!(a.result.best_move, Some(1), "seed {seed}: {:?}", a.arms);
        assert_eq!(a.result.pv, vec![1]);
        let player_1: Vec<_> = a.arms.iter().filter(|arm| arm.player == 1).collect();
        assert!(
            player_1[0].visits > 4 * player_1[1].visits,
            "seed {seed}: {:?}",
            a.arms
        );
        assert!(
            (a.root_mean[0] - 0.55).abs() < 0.1,
            "seed {seed}: {:?}",
            a.root_mean
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Chance.

/// Player 0 takes a safe 0.7 (move 0) or rolls a loaded die (move 1): faces 1..=6 with weights
/// 1,1,1,1,1,5 (tenths), paying face / 6, so the roll is worth 45/60 = 0.75 in expectation but only
/// 0.583 if the die were sampled uniformly.
struct Dice;

#[derive(Clone, Copy, Debug, PartialEq)]
enum DiceState {
    Choose,
    Rolling,
    Done(f64),
}

impl Game for Dice {
    type State = DiceState;
    type Move = u8;
    fn initial_state(&self) -> DiceState {
        DiceState::Choose
    }
    fn apply(&self, s: &mut DiceState, mv: u8) -> Option<DiceState> {
        Some(match s {
            DiceState::Choose if mv == 0 => DiceState::Done(0.7),
            DiceState::Choose => DiceState::Rolling,
            _ => DiceState::Done(f64::from(mv) / 6.0),
        })
    }
    fn state_hash(&self, _: &DiceState) -> Option<u64> {
        Some(0)
    }
}

impl GeneralGame for Dice {
    fn players(&self) -> usize {
        1
    }
    fn turn(&self, s: &DiceState) -> Turn {
        match s {
            DiceState::Choose => Turn::Player(0),
            DiceState::Rolling => Turn::Chance,
            DiceState::Done(_) => Turn::Over,
        }
    }
    fn legal_moves(&self, _: &DiceState, _: PlayerId, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend([0, 1]);
    }
    fn chance_outcomes(&self, s: &DiceState, outcomes: &mut ChanceList<u8>) {
        outcomes.clear();
        if *s == DiceState::Rolling {
            outcomes.extend((1..=6).map(|f| (f, if f == 6 { 0.5 } else { 0.1 })));
        }
    }
    fn payoff(&self, s: &DiceState, _: PlayerId) -> f64 {
        match s {
            DiceState::Done(v) => *v,
            _ => unreachable!(),
        }
    }
}

#[test]
fn a_loaded_die_is_valued_at_its_expectation() {
    let a = analyse(&Dice, &DiceState::Choose, 20_000);
    assert_eq!(a.result.best_move, Some(1));
    let roll = a.arms[1].mean.unwrap();
    assert!((roll - 0.75).abs() < 0.02, "roll {roll}");
    assert_eq!(a.result.value, score_of_mean(roll));

    // At a chance root nobody chooses; the estimate is player 0's mean over all simulations.
    let r = analyse(&Dice, &DiceState::Rolling, 20_000);
    assert_eq!(r.result.best_move, None);
    assert!(r.arms.is_empty());
    assert!((r.root_mean[0] - 0.75).abs() < 0.02, "{:?}", r.root_mean);
    assert_eq!(r.result.value, score_of_mean(r.root_mean[0]));
}

/// Ten flips of a coin showing heads with probability 0.8, paying the fraction of heads: most flips
/// happen in playouts, below the tree, so this tests the playouts' chance sampling.
struct Coins;

impl Game for Coins {
    type State = (u8, u8);
    type Move = u8;
    fn initial_state(&self) -> (u8, u8) {
        (0, 0)
    }
    fn apply(&self, s: &mut (u8, u8), heads: u8) -> Option<(u8, u8)> {
        Some((s.0 + 1, s.1 + heads))
    }
    fn state_hash(&self, s: &(u8, u8)) -> Option<u64> {
        Some(u64::from(s.0) << 8 | u64::from(s.1))
    }
}

impl GeneralGame for Coins {
    fn players(&self) -> usize {
        1
    }
    fn turn(&self, s: &(u8, u8)) -> Turn {
        if s.0 == 10 {
            Turn::Over
        } else {
            Turn::Chance
        }
    }
    fn legal_moves(&self, _: &(u8, u8), _: PlayerId, moves: &mut MoveList<u8>) {
        moves.clear();
    }
    fn chance_outcomes(&self, _: &(u8, u8), outcomes: &mut ChanceList<u8>) {
        outcomes.clear();
        outcomes.extend([(1, 0.8), (0, 0.2)]);
    }
    fn payoff(&self, s: &(u8, u8), _: PlayerId) -> f64 {
        f64::from(s.1) / 10.0
    }
}

#[test]
fn playouts_draw_chance_with_its_probabilities() {
    let a = analyse(&Coins, &(0, 0), 5_000);
    assert!((a.root_mean[0] - 0.8).abs() < 0.01, "{:?}", a.root_mean);
}

// ---------------------------------------------------------------------------------------------
// Limits and determinism.

#[test]
fn simulations_are_capped_by_the_config_and_by_limits() {
    let state = NIM.initial_state();
    let a = uct(777, 0).analyse(&NIM, &state, &Limits::none());
    assert_eq!(a.simulations, 777);
    assert_eq!(a.result.stats.evaluated, 777);
    // One node per simulation at most (fewer once finished games are reached again), plus the root.
    assert!(a.result.stats.generated <= 778);
    assert!(a.result.stats.generated > 100);
    let visits: u64 = a.arms.iter().map(|arm| arm.visits).sum();
    assert_eq!(visits, 777);

    let b = uct(777, 0).analyse(&NIM, &state, &Limits::none().with_nodes(123));
    assert_eq!(b.simulations, 123);
}

#[test]
fn a_passed_deadline_or_a_raised_stop_flag_stops_at_once_with_a_legal_move() {
    let state = NIM.initial_state();
    let past = Limits {
        deadline: Some(Instant::now()),
        ..Limits::none()
    };
    let a = uct(10_000, 0).analyse(&NIM, &state, &past);
    assert_eq!(a.simulations, 0);
    assert_eq!(a.result.best_move, Some(1));
    let stop = Limits::none().with_stop(Arc::new(AtomicBool::new(true)));
    assert_eq!(uct(10_000, 0).analyse(&NIM, &state, &stop).simulations, 0);
}

#[test]
fn a_deadline_ends_an_unbounded_search() {
    // A long game, an unbounded simulation count: only the deadline can end this search.
    let state = Pile {
        stones: 2_000,
        mover: 0,
    };
    let limits = Limits::none().with_time(Duration::from_millis(50));
    let a = uct(u64::MAX, 0).analyse(&NIM, &state, &limits);
    assert!(a.simulations > 0);
    assert!(a.simulations < u64::MAX);
    assert!(a.result.best_move.is_some());
}

/// Uniform playouts whose every move takes real time (as a slow reasoner's do); the
/// `stop_at`-th playout move, counted over every copy, raises `stop`.
#[derive(Clone)]
struct SlowPlayout {
    moves: Arc<AtomicU64>,
    stop_at: u64,
    stop: Arc<AtomicBool>,
}

impl<G: GeneralGame> PlayoutPolicy<G> for SlowPlayout {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: PlayerId,
        moves: &[G::Move],
        rng: &mut Pcg64,
    ) -> usize {
        if self.moves.fetch_add(1, Ordering::Relaxed) + 1 == self.stop_at {
            self.stop.store(true, Ordering::Relaxed);
        }
        std::thread::sleep(Duration::from_micros(100));
        UniformPlayout.choose(game, state, player, moves, rng)
    }
}

/// While simulations are slow, the limits are looked at after every ply: a search stops within
/// a ply of its stop flag instead of finishing the simulation under way, which is dropped (each
/// simulation counted is backed up whole). Sequential, and tree-parallel on two threads.
#[test]
fn slow_simulations_stop_within_a_ply_and_are_dropped_whole() {
    let state = Pile {
        stones: 40,
        mover: 0,
    };
    for (threads, stop_at) in [(1, 60), (1, 250), (2, 250)] {
        let stop = Arc::new(AtomicBool::new(false));
        let policy = SlowPlayout {
            moves: Arc::new(AtomicU64::new(0)),
            stop_at,
            stop: stop.clone(),
        };
        let moves = policy.moves.clone();
        let mut searcher = uct(u64::MAX, 3).with_policy(policy);
        let limits = Limits::none().with_stop(stop);
        let a = match threads {
            1 => searcher.analyse(&NIM, &state, &limits),
            _ => searcher.analyse_tree_parallel(&NIM, &state, &limits, threads),
        };
        let played = moves.load(Ordering::Relaxed);
        assert!(
            (stop_at..=stop_at + threads as u64).contains(&played),
            "{threads} threads, stopped at move {stop_at}: {played} moves played"
        );
        assert!(a.simulations > 0, "{threads} threads");
        let visits: u64 = a.arms.iter().map(|arm| arm.visits).sum();
        assert_eq!(visits, a.simulations, "{threads} threads");
    }
}

#[test]
fn same_seed_same_search_different_seed_different_search() {
    let state = DiceState::Choose;
    let mut searcher = uct(3_000, 42);
    let first = searcher.analyse(&Dice, &state, &Limits::none());
    // The generator is re-seeded at every search: the same searcher repeats itself.
    let again = searcher.analyse(&Dice, &state, &Limits::none());
    let fresh = uct(3_000, 42).analyse(&Dice, &state, &Limits::none());
    for other in [&again, &fresh] {
        assert_eq!(first.arms, other.arms);
        assert_eq!(first.root_mean, other.root_mean);
        assert_eq!(first.result.value, other.result.value);
        assert_eq!(first.result.stats, other.result.stats);
    }
    let other_seed = uct(3_000, 43).analyse(&Dice, &state, &Limits::none());
    assert_ne!(first.root_mean, other_seed.root_mean);
}

#[test]
fn a_finished_root_is_a_leaf() {
    let over = Pile {
        stones: 0,
        mover: 1,
    };
    let a = analyse(&NIM, &over, 100);
    assert_eq!(a.result.best_move, None);
    assert_eq!(a.simulations, 0);
    // Player 0's payoff: player 1 is to move at the end, so player 0 won.
    assert_eq!(a.result.value, 1000);
}

#[test]
fn truncated_playouts_score_the_truncation_payoff() {
    // With playouts cut after one ply, a 2 000-stone Nim never finishes below the tree.
    let state = Pile {
        stones: 2_000,
        mover: 0,
    };
    let mut searcher = Uct::new(UctConfig {
        simulations: 200,
        max_playout_plies: 1,
        truncation_payoff: 0.25,
        ..UctConfig::default()
    });
    let a = searcher.analyse(&NIM, &state, &Limits::none());
    assert_eq!(a.root_mean, vec![0.25, 0.25]);
}

// ---------------------------------------------------------------------------------------------
// Random explicit trees against the Minimax oracle.

/// Win / draw / loss of a leaf for its side to move (UCT sees the same through `payoff`), so that
/// Minimax's value is the game-theoretic outcome UCT estimates.
struct Sign;

impl Evaluator<ExplicitTree> for Sign {
    fn evaluate(&mut self, game: &ExplicitTree, state: &u32) -> Score {
        game.value(*state).signum()
    }
    fn terminal(&mut self, _: &ExplicitTree, _: &u32, outcome: Outcome) -> Score {
        outcome.margin().signum()
    }
}

#[test]
fn random_trees_uct_plays_a_minimax_optimal_move() {
    let mut disagreements = Vec::new();
    let mut root_values = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let tree = ExplicitTree::random(seed, 6, 4);
        let root = tree.initial_state();
        let height = tree.height();
        let oracle = Minimax::new(Sign, height).search(&tree, &root, &Limits::none());
        let a = analyse(&tree, &root, 20_000);
        let mv = a.result.best_move.expect("the root has moves");
        // The chosen move's exact value: Minimax on the child, negated.
        let child = tree.apply(&mut root.clone(), mv).unwrap();
        let value = -Minimax::new(Sign, height)
            .search(&tree, &child, &Limits::none())
            .value;
        if tree.turn(&child) == Turn::Over {
            assert_eq!(value, -tree.value(child).signum());
        }
        root_values.insert(oracle.value);
        if value != oracle.value {
            disagreements.push((seed, value, oracle.value));
        }
        // And the estimate has the oracle's sign: a won root is valued above a drawn one, etc.
        assert_eq!(
            (f64::from(a.result.value) / 1000.0).round() as i32,
            oracle.value,
            "seed {seed}: uct {} minimax {}",
            a.result.value,
            oracle.value
        );
    }
    assert!(disagreements.is_empty(), "{disagreements:?}");
    // The trees are varied: won, lost (and possibly drawn) roots.
    assert!(
        root_values.contains(&1) && root_values.contains(&-1),
        "{root_values:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Reusing the tree between searches.

fn reusing(simulations: u64) -> Uct {
    Uct::new(UctConfig {
        simulations,
        seed: 3,
        reuse: true,
        ..UctConfig::default()
    })
}

fn visits_of<M: PartialEq>(a: &UctAnalysis<M>, mv: M) -> u64 {
    a.arms
        .iter()
        .find(|arm| arm.mv == mv)
        .expect("an arm")
        .visits
}

#[test]
fn reuse_keeps_the_statistics_of_the_child_played() {
    let mut uct = reusing(3_000);
    let root = Pile {
        stones: 10,
        mover: 0,
    };
    let first = uct.analyse(&NIM, &root, &Limits::none());
    assert_eq!(first.reused, 0);
    let mut child = root;
    NIM.play(&mut child, 1);
    // No new simulation: what the search reports is what the first one left below move 1.
    let kept = uct.analyse(&NIM, &child, &Limits::none().with_nodes(0));
    assert_eq!(kept.reused, visits_of(&first, 1));
    // The child was created on its first visit and expanded on its second: every later visit
    // chose one of its moves.
    let below: u64 = kept.arms.iter().map(|arm| arm.visits).sum();
    assert_eq!(below, kept.reused - 1);
    assert_eq!(kept.result.stats.generated, 0);
    // Two plies on (a move and the reply), with new simulations on top.
    let mut grandchild = child;
    NIM.play(&mut grandchild, 1);
    let next = uct.analyse(&NIM, &grandchild, &Limits::none().with_nodes(500));
    assert!(next.reused > 0);
    let below: u64 = next.arms.iter().map(|arm| arm.visits).sum();
    assert_eq!(below, next.reused - 1 + 500);
    assert_eq!(next.simulations, 500);
}

#[test]
fn after_reuse_the_same_total_of_simulations_finds_the_winning_move() {
    // 10 → 9 (the winning move) → 8: the winning move from 8 is to take 2.
    let total = 2_000;
    let mut uct = reusing(total);
    let mut state = Pile {
        stones: 10,
        mover: 0,
    };
    let first = uct.analyse(&NIM, &state, &Limits::none());
    assert_eq!(first.result.best_move, Some(1));
    NIM.play(&mut state, 1);
    NIM.play(&mut state, 1);
    let peek = uct.analyse(&NIM, &state, &Limits::none().with_nodes(0));
    assert!(peek.reused > 0 && peek.reused < total, "{}", peek.reused);
    // `peek` kept the same tree: search the rest of the total.
    let a = uct.analyse(
        &NIM,
        &state,
        &Limits::none().with_nodes(total - peek.reused),
    );
    assert_eq!(a.reused, peek.reused);
    assert_eq!(a.result.best_move, Some(2), "{:?}", a.arms);
    assert!(a.result.value > 500, "{}", a.result.value);
    let visits: u64 = a.arms.iter().map(|arm| arm.visits).sum();
    assert_eq!(visits, total - 1);
}

#[test]
fn a_state_not_in_the_tree_or_another_game_starts_afresh() {
    let root = Pile {
        stones: 10,
        mover: 0,
    };
    let unrelated = Pile {
        stones: 14,
        mover: 0,
    };
    let fresh = reusing(1_000).analyse(&NIM, &unrelated, &Limits::none());
    let mut uct = reusing(1_000);
    uct.analyse(&NIM, &root, &Limits::none());
    let a = uct.analyse(&NIM, &unrelated, &Limits::none());
    assert_eq!(a.reused, 0);
    assert_eq!(a.arms, fresh.arms);
    assert_eq!(a.result.stats.generated, fresh.result.stats.generated);
    // The same state of another game value: afresh too.
    uct.analyse(&NIM, &root, &Limits::none());
    let b = uct.analyse(&NIM_IN_PLACE, &root, &Limits::none());
    assert_eq!(b.reused, 0);
    // And after a reset.
    uct.analyse(&NIM, &root, &Limits::none());
    game_trait::Reset::reset(&mut uct);
    assert_eq!(uct.analyse(&NIM, &root, &Limits::none()).reused, 0);
}

#[test]
fn reuse_is_deterministic_for_a_seed() {
    let play = || {
        let mut uct = reusing(800);
        let mut state = Pile {
            stones: 13,
            mover: 0,
        };
        let mut record = Vec::new();
        while NIM.turn(&state) != Turn::Over {
            let a = uct.analyse(&NIM, &state, &Limits::none());
            let mv = a.result.best_move.expect("a move");
            record.push((mv, a.reused, a.arms));
            NIM.play(&mut state, mv);
        }
        record
    };
    assert_eq!(play(), play());
}

#[test]
fn memory_stays_bounded_over_a_long_game() {
    // Both players share one searcher, so every search finds its state one ply below the last
    // root: the case where the most is kept.
    let sims = 2_000;
    let mut uct = reusing(sims);
    let mut state = Pile {
        stones: 400,
        mover: 0,
    };
    let mut largest = 0;
    let mut reused = 0;
    let mut searches = 0;
    while NIM.turn(&state) != Turn::Over {
        let a = uct.analyse(&NIM, &state, &Limits::none());
        largest = largest.max(a.tree_nodes);
        reused += a.reused;
        searches += 1;
        // At most the previous search's simulations are kept, plus this one's nodes.
        assert!(a.tree_nodes <= 2 * sims + 1, "{} nodes", a.tree_nodes);
        let mv = a.result.best_move.expect("a move");
        NIM.play(&mut state, mv);
    }
    assert!(searches > 200, "{searches}");
    assert!(reused > 0);
    assert!(
        largest > sims,
        "the trees did grow past one search: {largest}"
    );
}

/// Three rounds of matching pennies: player 0 scores a third for each round the coins match.
struct ThreeRounds;

impl Game for ThreeRounds {
    /// (rounds played, rounds player 0 won)
    type State = (u8, u8);
    type Move = usize;
    fn initial_state(&self) -> (u8, u8) {
        (0, 0)
    }
    fn apply(&self, _: &mut (u8, u8), _: usize) -> Option<(u8, u8)> {
        unreachable!("no single-mover node")
    }
    fn state_hash(&self, s: &(u8, u8)) -> Option<u64> {
        Some(game_trait::mix64(u64::from(s.0) << 8 | u64::from(s.1)))
    }
}

impl GeneralGame for ThreeRounds {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, s: &(u8, u8)) -> Turn {
        if s.0 == 3 {
            Turn::Over
        } else {
            Turn::Simultaneous
        }
    }
    fn legal_moves(&self, _: &(u8, u8), _: PlayerId, moves: &mut MoveList<usize>) {
        moves.clear();
        moves.extend([0, 1]);
    }
    fn play_joint(&self, s: &mut (u8, u8), joint: &[usize]) {
        *s = (s.0 + 1, s.1 + u8::from(joint[0] == joint[1]));
    }
    fn payoff(&self, s: &(u8, u8), p: PlayerId) -> f64 {
        let won = f64::from(s.1) / 3.0;
        if p == 0 {
            won
        } else {
            1.0 - won
        }
    }
}

#[test]
fn reuse_below_a_simultaneous_node_keeps_each_players_arms() {
    let mut uct = reusing(4_000);
    uct.analyse(&ThreeRounds, &(0, 0), &Limits::none());
    // (0, 1) and (1, 0) both lead to (1, 0): the more visited of the two children is kept.
    let a = uct.analyse(&ThreeRounds, &(1, 0), &Limits::none().with_nodes(1_000));
    assert!(a.reused > 0);
    assert_eq!(a.arms.len(), 4);
    for player in 0..2 {
        let visits: u64 = a
            .arms
            .iter()
            .filter(|arm| arm.player == player)
            .map(|arm| arm.visits)
            .sum();
        assert_eq!(
            visits,
            a.reused - 1 + 1_000,
            "player {player}: {:?}",
            a.arms
        );
    }
    // Its children came along: a third search from a state two rounds in still reuses.
    let b = uct.analyse(&ThreeRounds, &(2, 1), &Limits::none().with_nodes(100));
    assert!(b.reused > 0);
}

// ---------------------------------------------------------------------------------------------
// Root-parallel UCT.

/// With one thread, root-parallel UCT is the sequential search, arm for arm.
#[test]
fn root_parallel_with_one_thread_is_the_sequential_search() {
    let state = Pile {
        stones: 11,
        mover: 0,
    };
    let sequential = analyse(&NIM, &state, 3_000);
    let parallel = uct(3_000, 7).analyse_parallel(&NIM, &state, &Limits::none(), 1);
    assert_eq!(parallel.arms, sequential.arms);
    assert_eq!(parallel.result.pv, sequential.result.pv);
    assert_eq!(parallel.result.value, sequential.result.value);
    assert_eq!(parallel.result.stats, sequential.result.stats);
    assert_eq!(parallel.simulations, 3_000);
}

/// Several threads share the budget exactly, add their arms' visits up to it, repeat themselves
/// for a seed, and still find Nim's winning moves.
#[test]
fn root_parallel_threads_share_the_budget_and_find_the_winning_moves() {
    for stones in [4, 8, 13] {
        let state = Pile { stones, mover: 1 };
        let run = |threads| uct(12_001, 3).analyse_parallel(&NIM, &state, &Limits::none(), threads);
        let (a, b) = (run(3), run(3));
        assert_eq!(a.simulations, 12_001);
        assert_eq!(a.arms.iter().map(|arm| arm.visits).sum::<u64>(), 12_001);
        assert_eq!(
            (a.arms.clone(), a.result.best_move),
            (b.arms, b.result.best_move)
        );
        assert_eq!(a.result.best_move, Some(stones % 3), "pile {stones}");
        assert!(a.result.value > 800, "pile {stones}: {}", a.result.value);
        // The other threads did search with seeds of their own.
        let one = run(1);
        assert_ne!(a.arms, one.arms, "three threads searched exactly as one");
    }
    // A finished game: no simulation, no move.
    let over = uct(100, 1).analyse_parallel(
        &NIM,
        &Pile {
            stones: 0,
            mover: 0,
        },
        &Limits::none(),
        2,
    );
    assert_eq!((over.simulations, over.result.best_move), (0, None));
}

// ---------------------------------------------------------------------------------------------
// Tree-parallel UCT.

/// Everything a search reports that does not depend on the clock, to compare two searches.
fn same_search<M: PartialEq + std::fmt::Debug>(a: &UctAnalysis<M>, b: &UctAnalysis<M>) {
    assert_eq!(a.arms, b.arms);
    assert_eq!(a.root_mean, b.root_mean);
    assert_eq!(a.simulations, b.simulations);
    assert_eq!(a.reused, b.reused);
    assert_eq!(a.tree_nodes, b.tree_nodes);
    assert_eq!(a.result.best_move, b.result.best_move);
    assert_eq!(a.result.pv, b.result.pv);
    assert_eq!(a.result.value, b.result.value);
    assert_eq!(a.result.depth, b.result.depth);
    assert_eq!(a.result.stats, b.result.stats);
}

/// With one thread, tree-parallel UCT is the sequential search, on every kind of node: the
/// virtual loss its simulations mark is gone before the next one selects.
#[test]
fn tree_parallel_with_one_thread_is_the_sequential_search() {
    let tree = |u: &mut Uct| {
        u.analyse_tree_parallel(
            &NIM,
            &Pile {
                stones: 11,
                mover: 0,
            },
            &Limits::none(),
            1,
        )
    };
    let seq = |u: &mut Uct| {
        u.analyse(
            &NIM,
            &Pile {
                stones: 11,
                mover: 0,
            },
            &Limits::none(),
        )
    };
    same_search(&tree(&mut uct(3_000, 7)), &seq(&mut uct(3_000, 7)));
    let dice = |u: &mut Uct| u.analyse_tree_parallel(&Dice, &DiceState::Choose, &Limits::none(), 1);
    same_search(
        &dice(&mut uct(2_000, 5)),
        &uct(2_000, 5).analyse(&Dice, &DiceState::Choose, &Limits::none()),
    );
    let rounds = uct(2_000, 9).analyse_tree_parallel(&ThreeRounds, &(0, 0), &Limits::none(), 1);
    same_search(
        &rounds,
        &uct(2_000, 9).analyse(&ThreeRounds, &(0, 0), &Limits::none()),
    );
    // A search with another virtual loss is the same search on one thread.
    let mut heavy = uct(3_000, 7);
    heavy.config_mut().virtual_loss = 5;
    same_search(&tree(&mut heavy), &seq(&mut uct(3_000, 7)));
}

/// The same, as a property over random trees, seeds and budgets; and with reuse, search after
/// search along a line of play.
#[test]
fn tree_parallel_on_one_thread_repeats_the_sequential_search_quickcheck() {
    fn prop(tree_seed: u64, seed: u64, sims: u16) -> quickcheck::TestResult {
        let tree = ExplicitTree::random(tree_seed % 1_000, 5, 4);
        let root = tree.initial_state();
        let sims = u64::from(sims % 2_000) + 1;
        let a = uct(sims, seed).analyse_tree_parallel(&tree, &root, &Limits::none(), 1);
        let b = uct(sims, seed).analyse(&tree, &root, &Limits::none());
        same_search(&a, &b);
        quickcheck::TestResult::passed()
    }
    quickcheck::QuickCheck::new()
        .tests(100)
        .quickcheck(prop as fn(u64, u64, u16) -> quickcheck::TestResult);

    let (mut parallel, mut sequential) = (reusing(1_500), reusing(1_500));
    let mut state = Pile {
        stones: 14,
        mover: 0,
    };
    while state.stones > 0 {
        let a = parallel.analyse_tree_parallel(&NIM, &state, &Limits::none(), 1);
        let b = sequential.analyse(&NIM, &state, &Limits::none());
        same_search(&a, &b);
        let mv = a.result.best_move.expect("a move");
        state = NIM.apply(&mut state.clone(), mv).unwrap();
    }
}

/// Two and three threads run exactly the budget between them (the root's arms count every
/// simulation once), play legal moves, and find Nim's winning moves as the sequential search
/// does.
#[test]
fn tree_parallel_threads_share_the_budget_and_find_the_winning_moves() {
    for threads in [2, 3] {
        for stones in [4, 8, 13] {
            let state = Pile { stones, mover: 1 };
            let a = uct(6_001, 3).analyse_tree_parallel(&NIM, &state, &Limits::none(), threads);
            assert_eq!(a.simulations, 6_001);
            assert_eq!(a.arms.iter().map(|arm| arm.visits).sum::<u64>(), 6_001);
            assert_eq!(a.result.stats.evaluated, 6_001);
            assert_eq!(a.result.best_move, Some(stones % 3), "pile {stones}");
            assert!(a.result.value > 800, "pile {stones}: {}", a.result.value);
            // The principal variation is a line of legal moves.
            let mut s = state;
            for &mv in &a.result.pv {
                assert!(mv <= s.stones.min(2), "{:?}", a.result.pv);
                s = NIM.apply(&mut s.clone(), mv).unwrap();
            }
        }
    }
    // Simultaneous nodes: each player's arms count every simulation once.
    let a = uct(4_000, 1).analyse_tree_parallel(&ThreeRounds, &(0, 0), &Limits::none(), 2);
    for player in 0..2 {
        let visits: u64 = a
            .arms
            .iter()
            .filter(|arm| arm.player == player)
            .map(|arm| arm.visits)
            .sum();
        assert_eq!(visits, 4_000, "player {player}: {:?}", a.arms);
    }
    // Chance below the root: the loaded die is still worth its expectation.
    let d = uct(20_000, 2).analyse_tree_parallel(&Dice, &DiceState::Choose, &Limits::none(), 2);
    assert_eq!(d.result.best_move, Some(1));
    assert!(
        (d.arms[1].mean.unwrap() - 0.75).abs() < 0.02,
        "{:?}",
        d.arms
    );
    // A finished game: no simulation, no move.
    let over = Pile {
        stones: 0,
        mover: 0,
    };
    let o = uct(100, 1).analyse_tree_parallel(&NIM, &over, &Limits::none(), 2);
    assert_eq!((o.simulations, o.result.best_move), (0, None));
}

/// On random trees, two threads play a Minimax-optimal move as often as the sequential search
/// (`random_trees_uct_plays_a_minimax_optimal_move`, which allows no miss at this budget).
#[test]
fn tree_parallel_random_trees_play_minimax_optimal_moves() {
    let mut misses = Vec::new();
    for seed in 0..20 {
        let tree = ExplicitTree::random(seed, 6, 4);
        let root = tree.initial_state();
        let height = tree.height();
        let oracle = Minimax::new(Sign, height).search(&tree, &root, &Limits::none());
        let a = uct(20_000, 1).analyse_tree_parallel(&tree, &root, &Limits::none(), 2);
        let mv = a.result.best_move.expect("the root has moves");
        let child = tree.apply(&mut root.clone(), mv).unwrap();
        let value = -Minimax::new(Sign, height)
            .search(&tree, &child, &Limits::none())
            .value;
        if value != oracle.value {
            misses.push((seed, mv, value, oracle.value));
        }
    }
    assert!(misses.is_empty(), "{misses:?}");
}

/// The threads stop at a passed deadline or a raised stop flag, and a deadline ends an unbounded
/// search.
#[test]
fn tree_parallel_honours_deadlines_and_stop_flags() {
    let state = NIM.initial_state();
    let past = Limits {
        deadline: Some(Instant::now()),
        ..Limits::none()
    };
    let a = uct(10_000, 0).analyse_tree_parallel(&NIM, &state, &past, 2);
    assert_eq!(a.simulations, 0);
    assert_eq!(a.result.best_move, Some(1));
    let stop = Limits::none().with_stop(Arc::new(AtomicBool::new(true)));
    assert_eq!(
        uct(10_000, 0)
            .analyse_tree_parallel(&NIM, &state, &stop, 2)
            .simulations,
        0
    );
    let long = Pile {
        stones: 2_000,
        mover: 0,
    };
    let limits = Limits::none().with_time(Duration::from_millis(50));
    let b = uct(u64::MAX, 0).analyse_tree_parallel(&NIM, &long, &limits, 2);
    assert!(b.simulations > 0 && b.simulations < u64::MAX);
    assert!(b.result.best_move.is_some());
}

/// With reuse, a tree-parallel search keeps its shared tree, and the next one starts from the
/// subtree of its state.
#[test]
fn tree_parallel_reuses_the_shared_tree() {
    let mut uct = reusing(4_000);
    let first = uct.analyse_tree_parallel(
        &NIM,
        &Pile {
            stones: 14,
            mover: 0,
        },
        &Limits::none(),
        2,
    );
    assert_eq!(first.reused, 0);
    assert_eq!(first.result.best_move, Some(2));
    // It took 2 and the opponent 1: eleven stones, the first player to move again.
    let next = Pile {
        stones: 11,
        mover: 0,
    };
    let a = uct.analyse_tree_parallel(&NIM, &next, &Limits::none().with_nodes(1_000), 2);
    assert!(a.reused > 0, "nothing reused");
    assert_eq!(a.simulations, 1_000);
    assert_eq!(
        a.arms.iter().map(|arm| arm.visits).sum::<u64>(),
        a.reused - 1 + 1_000
    );
    assert_eq!(a.result.best_move, Some(2));
}

// ---------------------------------------------------------------------------------------------
// The solver: completely explored subtrees known exactly.

/// A random tree with chance: the state is the path of child indices from the root.
#[derive(Clone, Debug)]
enum Luck {
    End(Vec<f64>),
    Move(PlayerId, Vec<Luck>),
    Chance(Vec<Luck>),
}

impl Luck {
    /// A tree from `seed`, `players` players, up to `depth` levels of 1 to 3 children; payoffs
    /// uniform in `[0, 1]` for each player (ties have probability 0).
    fn random(seed: u64, depth: u32, players: usize) -> Luck {
        use rand::{Rng, SeedableRng};
        fn grow(rng: &mut rand_pcg::Pcg64, depth: u32, players: usize, root: bool) -> Luck {
            if depth == 0 || (!root && rng.gen_bool(0.2)) {
                return Luck::End((0..players).map(|_| rng.gen()).collect());
            }
            let n = rng.gen_range(1..=3);
            let children = (0..n)
                .map(|_| grow(rng, depth - 1, players, false))
                .collect();
            match rng.gen_range(0..=players) {
                0 => Luck::Chance(children),
                p => Luck::Move(p - 1, children),
            }
        }
        grow(
            &mut rand_pcg::Pcg64::seed_from_u64(seed),
            depth,
            players,
            true,
        )
    }

    fn at(&self, path: &[usize]) -> &Luck {
        path.iter().fold(self, |n, &i| match n {
            Luck::Move(_, c) | Luck::Chance(c) => &c[i],
            Luck::End(_) => unreachable!("a path through a finished game"),
        })
    }

    /// The mover's best child for the mover (the first of equals); chance's children averaged.
    fn expectimax(&self) -> Vec<f64> {
        match self {
            Luck::End(v) => v.clone(),
            Luck::Chance(c) => {
                let values: Vec<Vec<f64>> = c.iter().map(Luck::expectimax).collect();
                (0..values[0].len())
                    .map(|p| values.iter().map(|v| v[p]).sum::<f64>() / values.len() as f64)
                    .collect()
            }
            Luck::Move(p, c) => c
                .iter()
                .map(Luck::expectimax)
                .fold(None::<Vec<f64>>, |b, v| match b {
                    Some(b) if b[*p] >= v[*p] => Some(b),
                    _ => Some(v),
                })
                .expect("a move has children"),
        }
    }
}

struct LuckGame(Luck, usize);

impl Game for LuckGame {
    type State = Vec<usize>;
    type Move = usize;
    fn initial_state(&self) -> Vec<usize> {
        Vec::new()
    }
    fn apply(&self, s: &mut Vec<usize>, mv: usize) -> Option<Vec<usize>> {
        let mut child = s.clone();
        child.push(mv);
        Some(child)
    }
    fn state_hash(&self, s: &Vec<usize>) -> Option<u64> {
        Some(s.iter().fold(7, |h, &m| game_trait::mix64(h ^ m as u64)))
    }
}

impl GeneralGame for LuckGame {
    fn players(&self) -> usize {
        self.1
    }
    fn turn(&self, s: &Vec<usize>) -> Turn {
        match self.0.at(s) {
            Luck::End(_) => Turn::Over,
            Luck::Move(p, _) => Turn::Player(*p),
            Luck::Chance(_) => Turn::Chance,
        }
    }
    fn legal_moves(&self, s: &Vec<usize>, p: PlayerId, moves: &mut MoveList<usize>) {
        moves.clear();
        if let Luck::Move(q, c) = self.0.at(s) {
            if *q == p {
                moves.extend(0..c.len());
            }
        }
    }
    fn chance_outcomes(&self, s: &Vec<usize>, outcomes: &mut ChanceList<usize>) {
        outcomes.clear();
        if let Luck::Chance(c) = self.0.at(s) {
            outcomes.extend((0..c.len()).map(|i| (i, 1.0 / c.len() as f64)));
        }
    }
    fn payoff(&self, s: &Vec<usize>, p: PlayerId) -> f64 {
        match self.0.at(s) {
            Luck::End(v) => v[p],
            _ => unreachable!("asked only at the end"),
        }
    }
}

fn solving(simulations: u64) -> Uct {
    Uct::new(UctConfig {
        simulations,
        solver: true,
        ..UctConfig::default()
    })
}

/// With the solver, UCT solves small random trees with chance and two or three players, stops
/// once the root is solved, and then plays expectimax's move and reports its value. UCB1 visits
/// an arm below the best known one ever more rarely, so a tree may stay unsolved: 193 of the
/// 200 are solved within 50,000 simulations (198 are).
#[test]
fn the_solver_finds_the_expectimax_value_and_move() {
    let mut solved = 0;
    for seed in 0..200 {
        let players = 2 + (seed % 2) as usize;
        let game = LuckGame(Luck::random(seed, 4, players), players);
        let root = game.initial_state();
        let Turn::Player(p) = game.turn(&root) else {
            solved += 1;
            continue;
        };
        let a = solving(50_000).analyse(&game, &root, &Limits::none());
        if a.simulations == 50_000 {
            continue;
        }
        solved += 1;
        let want = game.0.expectimax();
        assert_eq!(a.result.value, score_of_mean(want[p]), "seed {seed}");
        let mv = a.result.best_move.unwrap();
        let child = game.0.at(&[mv]).expectimax();
        assert!((child[p] - want[p]).abs() < 1e-12, "seed {seed}: move {mv}");
    }
    assert!(solved >= 190, "{solved} of 200 solved");
}

/// Off, the solver changes nothing: the same searches as before, simulation for simulation.
#[test]
fn without_the_solver_uct_searches_as_it_did() {
    let game = LuckGame(Luck::random(3, 5, 2), 2);
    let root = game.initial_state();
    let plain = uct(3_000, 7).analyse(&game, &root, &Limits::none());
    let off = Uct::new(UctConfig {
        simulations: 3_000,
        seed: 7,
        solver: false,
        ..UctConfig::default()
    })
    .analyse(&game, &root, &Limits::none());
    same_search(&plain, &off);
    let on = solving(3_000).analyse(&game, &root, &Limits::none());
    assert!(
        on.simulations < plain.simulations,
        "the solver stops early here"
    );
}

/// A team game of one simultaneous round: player 0 picks a row of three, player 1 a column (of
/// two, or only the second), and both get the cell's payoff.
struct Team {
    columns: usize,
}

const TEAM: [[f64; 2]; 3] = [[0.5, 0.0], [0.25, 1.0], [0.0, 0.75]];

impl Game for Team {
    type State = Option<(usize, usize)>;
    type Move = usize;
    fn initial_state(&self) -> Self::State {
        None
    }
    fn apply(&self, _: &mut Self::State, _: usize) -> Option<Self::State> {
        unreachable!("no single-mover node")
    }
}

impl GeneralGame for Team {
    fn players(&self) -> usize {
        2
    }
    fn turn(&self, s: &Self::State) -> Turn {
        if s.is_some() {
            Turn::Over
        } else {
            Turn::Simultaneous
        }
    }
    fn legal_moves(&self, _: &Self::State, p: PlayerId, moves: &mut MoveList<usize>) {
        moves.clear();
        match p {
            0 => moves.extend(0..3),
            _ => moves.extend(2 - self.columns..2),
        }
    }
    fn play_joint(&self, s: &mut Self::State, joint: &[usize]) {
        *s = Some((joint[0], joint[1]));
    }
    fn payoff(&self, s: &Self::State, _: PlayerId) -> f64 {
        let (a, b) = s.expect("over");
        TEAM[a][b]
    }
}

/// A simultaneous node where one player has a choice is solved as that player's node, and the
/// solved root plays player 0's part of the best joint move. Where both choose, decoupled UCB1
/// does not try every joint move (each player explores its own arms), so a cooperative node like
/// this one, which the solver could settle, stays unsolved after 100,000 simulations.
#[test]
fn a_simultaneous_node_with_one_chooser_is_solved() {
    let one = solving(10_000).analyse(&Team { columns: 1 }, &None, &Limits::none());
    assert!(one.simulations < 100, "{}", one.simulations);
    assert_eq!((one.result.best_move, one.result.value), (Some(1), 1000));
    let both = solving(100_000).analyse(&Team { columns: 2 }, &None, &Limits::none());
    assert_eq!(both.simulations, 100_000);
}

#[test]
fn a_tree_built_anew_in_the_same_place_is_searched_afresh() {
    let mut uct = reusing(2_000);
    let mut tree = ExplicitTree::random(1, 5, 4);
    let root = tree.initial_state();
    uct.analyse(&tree, &root, &Limits::none());
    let again = uct.analyse(&tree, &root, &Limits::none().with_nodes(0));
    assert!(again.reused > 0, "the same tree reuses its statistics");
    // Another tree in the same variable, at the same address: nothing of the first may be
    // taken for it.
    tree = ExplicitTree::random(2, 5, 4);
    let other = uct.analyse(&tree, &root, &Limits::none().with_nodes(0));
    assert_eq!(other.reused, 0);
}

#[test]
fn trees_are_identified_by_their_nodes() {
    let nested = Nested::node(0, vec![Nested::leaf(3), Nested::leaf(-2)]);
    let swapped = Nested::node(0, vec![Nested::leaf(-2), Nested::leaf(3)]);
    let same = ExplicitTree::from_nested(&nested);
    assert_eq!(
        same.identity(),
        ExplicitTree::from_nested(&nested).identity()
    );
    assert_ne!(
        same.identity(),
        ExplicitTree::from_nested(&swapped).identity()
    );
    assert_eq!(
        ExplicitTree::random(7, 4, 3).identity(),
        ExplicitTree::random(7, 4, 3).identity()
    );
    let turns = ExtraTurnTree::random(2, 5, 4);
    let other_turns = ExtraTurnTree::random(3, 5, 4);
    assert_ne!(turns.identity(), other_turns.identity());
    assert_ne!(turns.identity(), turns.tree().identity());
}

//! How many of a position's legal moves Rollason's interest search weighs at the root, iteration
//! by iteration, with the settings of `gametree reproduce interest-table` (each tally against the
//! whole limit, the sibling tally, Treebeard's terms without the engine's hints):
//!
//! ```text
//! cargo run --release -p reproduce --example interest_breadth -- [POSITIONS]
//! ```
//!
//! The positions are reached by seeded uniformly random play from the start (4 to 40 plies). The
//! root's moves are taken in the order of their interest, as the engine's interest ordering takes
//! them, and each is admitted while the root side's tally fits the iteration's limit (the first
//! always is): what the sibling tally leaves of the root at each limit. A full-width search to a
//! depth weighs every legal move at every iteration.
//!
//! On chess it then plays each position with interest search ON (1 to 4 iterations) and OFF
//! (depth 3), both as in the table (PeSTO, the capture search, Treebeard's terms ordering), and
//! asks a judge, PVS to depth 5 with the capture search, how much each move played loses against
//! the judge's best: the share of moves that lose a pawn (100) or more.

use game_trait::hash::splitmix64;
use game_trait::{
    HorizonPolicy, Limits, MoveList, Plausibility, Reset, Searcher, Step, ZeroSumGame,
};
use gametree::chess::{CaptureOrdering, Captures, Chess, ChessPlausibility, Pesto};
use gametree::othello::{Othello, OthelloPlausibility};
use interest_search::{InterestConfig, InterestHorizon, InterestTally};
use reproduce::rollason2014::{chess_off, chess_on, CHESS_INTEREST, OTHELLO_INTEREST};
use search_core::{AlphaBeta, AlphaBetaConfig};

/// Iterations reported.
const ITERATIONS: u32 = 8;

fn main() {
    let positions = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 500,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("interest_breadth: POSITIONS must be a positive integer");
            std::process::exit(2);
        }
    };
    let chess = ChessPlausibility::new();
    report("chess", &Chess, chess, CHESS_INTEREST, positions);
    let othello = OthelloPlausibility::new();
    report("Othello", &Othello, othello, OTHELLO_INTEREST, positions);
    judge_chess(positions.min(200));
}

/// The share of chess moves, ON's and OFF's, that the judge rates a pawn or more below its best.
fn judge_chess(positions: usize) {
    let states = random_positions(&Chess, positions);
    let mut judge = AlphaBeta::new(Pesto)
        .with_config(AlphaBetaConfig::pvs(5))
        .with_ordering(CaptureOrdering)
        .with_quiescence(Captures::default());
    let mut players: Vec<(String, Box<dyn Searcher<Chess>>)> = (1..=4)
        .map(|n| (format!("ON, {n} iteration(s)"), chess_on(n)))
        .collect();
    players.push(("OFF, depth 3".into(), chess_off(3)));
    println!(
        "chess: moves a depth-5 judge rates a pawn or more below its best, {positions} positions"
    );
    for (name, player) in &mut players {
        let mut blunders = 0;
        for state in &states {
            player.reset();
            let Some(mv) = player.search(&Chess, state, &Limits::none()).best_move else {
                continue;
            };
            judge.reset();
            let best = judge.search(&Chess, state, &Limits::none()).value;
            let after = state.after(mv);
            judge.reset();
            let reply = judge.search(&Chess, &after, &Limits::depth(4)).value;
            if best + reply >= 100 {
                blunders += 1;
            }
        }
        let share = 100.0 * blunders as f64 / states.len() as f64;
        println!("{name:<22} {share:>5.1} %");
    }
}

/// Prints the mean number of legal moves and of root moves admitted at each iteration.
fn report<G: ZeroSumGame, Pl: Plausibility<G>>(
    name: &str,
    game: &G,
    plausibility: Pl,
    config: InterestConfig,
    positions: usize,
) {
    let step = config.limit_step;
    let states = random_positions(game, positions);
    let legal: usize = states.iter().map(|s| legal_moves(game, s).len()).sum();
    let mut admitted = vec![0usize; ITERATIONS as usize];
    let mut horizon = InterestHorizon::with_config(config, plausibility);
    for state in &states {
        let moves = by_interest(game, state, horizon.plausibility_mut());
        for (i, total) in admitted.iter_mut().enumerate() {
            *total += root_breadth(&mut horizon, game, state, &moves, i as u32 + 1);
        }
    }
    let mean = |n: usize| n as f64 / states.len() as f64;
    println!(
        "{name}: {} positions, {:.1} legal moves on average (limit_step {})",
        states.len(),
        mean(legal),
        step
    );
    println!("iteration  root moves weighed");
    for (i, total) in admitted.iter().enumerate() {
        println!("{:>9}  {:>18.2}", i + 1, mean(*total));
    }
    println!();
}

/// How many of `moves` (in the order searched) iteration `iteration` admits at the root.
fn root_breadth<G: ZeroSumGame, H: HorizonPolicy<G, NodeTally = InterestTally>>(
    horizon: &mut H,
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    iteration: u32,
) -> usize {
    let budget = horizon.root_budget(iteration);
    let mut tally = InterestTally::default();
    let mut fits = |(index, &mv): (usize, &G::Move)| {
        let step = Step::new(mv, index, true);
        horizon
            .child_budget(game, state, &budget, &mut tally, step)
            .is_some()
    };
    moves.iter().enumerate().take_while(|&m| fits(m)).count()
}

/// The legal moves of `state`, most interesting first.
fn by_interest<G: ZeroSumGame, Pl: Plausibility<G>>(
    game: &G,
    state: &G::State,
    plausibility: &mut Pl,
) -> Vec<G::Move> {
    let mut scored: Vec<(u32, G::Move)> = (legal_moves(game, state).iter())
        .map(|&mv| (plausibility.interest(game, state, mv), mv))
        .collect();
    scored.sort_by_key(|&(interest, _)| std::cmp::Reverse(interest));
    scored.into_iter().map(|(_, mv)| mv).collect()
}

fn legal_moves<G: ZeroSumGame>(game: &G, state: &G::State) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    game.moves(state, &mut moves);
    moves
}

/// `count` positions of games in progress, each after 4 to 40 uniformly random plies (seed 1).
fn random_positions<G: ZeroSumGame>(game: &G, count: usize) -> Vec<G::State> {
    let mut rng = 1u64;
    let mut next = |n: usize| {
        rng = splitmix64(rng);
        (rng % n as u64) as usize
    };
    let mut states = Vec::with_capacity(count);
    while states.len() < count {
        let plies = 4 + next(37);
        let mut state = game.initial_state();
        for _ in 0..plies {
            let moves = legal_moves(game, &state);
            if game.outcome(&state).is_some() || moves.is_empty() {
                break;
            }
            game.play(&mut state, moves[next(moves.len())]);
        }
        if game.outcome(&state).is_none() {
            states.push(state);
        }
    }
    states
}

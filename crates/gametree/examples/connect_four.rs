//! Connect Four written against gametree's public API, then searched by every family of the
//! library: PVS with a transposition table, MTD(f), Lazy SMP, UCT, Zhang's forward estimation, the
//! CN(x, y) conspiracy-number player of Vu et al., and Rollason's interest search, by name and
//! composed in code; and a game in the Game Description Language, loaded from a string.
//!
//! `cargo run --release -p gametree --example connect_four`
//!
//! The game is a bitboard (John Tromp's layout: one 7-bit column per 7 bits, the extra bit
//! stopping carries); a move is a column. The docs/your-own-game.md guide walks through it.

use std::time::Instant;

use gametree::conspiracy::CaevPlayer;
use gametree::forward_estimation::{learn_offline, ForwardEstimation};
use gametree::gdl::{GoalEvaluator, Loader, TurnTaking};
use gametree::interest_search::InterestConfig;
use gametree::prelude::*;

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

/// The rules: 7 columns, 6 rows, four in a row wins.
#[derive(Clone, Copy, Debug)]
struct ConnectFour;

/// A position: the stones of the player to move, every stone, and the number of stones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Position {
    mine: u64,
    taken: u64,
    stones: u32,
}

impl Position {
    /// The stones of the player who just moved.
    fn theirs(&self) -> u64 {
        self.mine ^ self.taken
    }

    /// Plays the columns of `moves` (digits 1 to 7) from the empty board.
    fn after(moves: &str) -> Position {
        moves.bytes().fold(Position::default(), |p, c| {
            ConnectFour
                .apply(&mut p.clone(), u32::from(c - b'1'))
                .unwrap()
        })
    }
}

/// Whether `stones` hold four in a row: vertically (shift 1), horizontally (7) and diagonally (6, 8).
fn four_in_a_row(stones: u64) -> bool {
    [1, 7, 6, 8].iter().any(|&d| {
        let pairs = stones & (stones >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

/// The empty cells where a stone would complete four in a row of `stones` (Pascal Pons' threat
/// mask): the evaluation counts them.
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

impl Game for ConnectFour {
    type State = Position;
    type Move = u32; // the column, 0 to 6

    fn initial_state(&self) -> Position {
        Position::default()
    }

    fn apply(&self, p: &mut Position, column: u32) -> Option<Position> {
        // Adding the column's bottom bit carries up to the column's first empty cell.
        let taken = p.taken | (p.taken + (1 << (7 * column)));
        Some(Position {
            mine: p.theirs(), // the opponent moves next
            taken,
            stones: p.stones + 1,
        })
    }

    fn state_hash(&self, p: &Position) -> Option<u64> {
        Some(gametree::game::mix64(p.mine + p.taken)) // mine + taken identifies a position
    }

    fn move_name(&self, _: &Position, column: u32) -> String {
        (column + 1).to_string()
    }
}

impl ZeroSumGame for ConnectFour {
    // Every move hands the turn over: searches need not ask who moves next.
    const ALTERNATES: bool = true;

    fn side_to_move(&self, p: &Position) -> PlayerId {
        (p.stones % 2) as PlayerId
    }

    fn outcome(&self, p: &Position) -> Option<Outcome> {
        if four_in_a_row(p.theirs()) {
            Some(Outcome::LOSS) // the player who just moved made four
        } else if p.stones == WIDTH * HEIGHT {
            Some(Outcome::DRAW)
        } else {
            None
        }
    }

    fn moves(&self, p: &Position, moves: &mut MoveList<u32>) {
        let full = |c: u32| p.taken & (1 << (HEIGHT - 1 + 7 * c)) != 0; // its top cell is taken
        moves.extend((0..WIDTH).filter(|&c| !full(c)));
    }
}

/// The evaluation: 100 per threat (an empty cell that would complete four), and 3 per stone in
/// the centre column, side to move minus opponent. A threat is the unit of a clear advantage.
#[derive(Clone, Copy, Debug)]
struct Threats;

const CENTRE: u64 = 0x3f << (7 * 3);

impl Evaluator<ConnectFour> for Threats {
    fn evaluate(&mut self, _: &ConnectFour, p: &Position) -> Score {
        let count = |bits: u64| bits.count_ones() as Score;
        let (mine, theirs) = (p.mine, p.theirs());
        100 * (count(threats(mine, p.taken)) - count(threats(theirs, p.taken)))
            + 3 * (count(mine & CENTRE) - count(theirs & CENTRE))
    }
}

/// Centre columns first: they take part in the most lines.
#[derive(Clone, Copy, Debug)]
struct CentreFirst;

impl MoveOrdering<ConnectFour> for CentreFirst {
    fn score(&mut self, _: &ConnectFour, _: &Position, column: u32, _: u32) -> i32 {
        -(column as i32 - 3).abs()
    }
}

/// Interest for interest search: high for a move that wins or blocks a win, then the centre.
#[derive(Clone, Copy, Debug)]
struct Interest;

impl Plausibility<ConnectFour> for Interest {
    fn interest(&mut self, game: &ConnectFour, p: &Position, column: u32) -> u32 {
        let child = game.apply(&mut p.clone(), column).unwrap();
        let cell = child.taken ^ p.taken;
        let decisive = (threats(p.mine, p.taken) | threats(p.theirs(), p.taken)) & cell != 0;
        let centre = 3 - (column as i32 - 3).unsigned_abs();
        if decisive {
            1000
        } else {
            100 + 50 * centre
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = ConnectFour;
    let kit = Kit::new(Threats, 100)
        .with_ordering(CentreFirst)
        .with_plausibility(Interest)
        .with_typical_moves(WIDTH);

    // The five families by name, on a position where the side to move (the first player, with
    // three in the bottom row and the fourth cell on the right taken) wins at once in column 3
    // and only there: each must see it.
    let win_now = Position::after("475465");
    let specs = [
        "pvs:depth=9,tt=16mb",
        "uct:sims=3000,seed=1",
        "fe:depth=7,bounds=offline,samples=20",
        "caev:cn=3,ab=3",
        "interest:iterations=8,tt=16mb",
    ];
    println!("side to move wins in one (column 3):");
    for spec in specs {
        let mut built = kit.build(&game, &spec.parse()?)?;
        let start = Instant::now();
        let result = built.searcher.search(&game, &win_now, &Limits::none());
        let column = result.best_move.map(|c| game.move_name(&win_now, c));
        println!(
            "  {:<78} plays {}  value {:>10}  {:>8} nodes  {:.3} s",
            built.spec,
            column.as_deref().unwrap_or("-"),
            result.value,
            result.stats.generated,
            start.elapsed().as_secs_f64()
        );
        assert_eq!(result.best_move, Some(2), "{spec} missed the win");
    }

    // Composed in code rather than by name: α/β pruned by forward estimation, with edge-cost
    // bounds learned from 20 random games, checked against plain α/β at the same depth. Learned
    // bounds are not guaranteed to be exact, so in general the values could differ; here they
    // agree, and forward estimation generates fewer nodes.
    let learned = learn_offline(&game, &mut Threats, 20, 7)?;
    let mut fe = AlphaBeta::new(Threats)
        .with_config(AlphaBetaConfig::alpha_beta(6))
        .with_ordering(CentreFirst)
        .with_pruning(ForwardEstimation::new(learned.bounds()));
    let mut plain = AlphaBeta::new(Threats)
        .with_config(AlphaBetaConfig::alpha_beta(6))
        .with_ordering(CentreFirst);
    let opening = Position::after("4435");
    let (pruned, full) = (
        fe.search(&game, &opening, &Limits::none()),
        plain.search(&game, &opening, &Limits::none()),
    );
    println!(
        "\nafter 4 4 3 5, depth 6: alpha-beta {} ({} nodes), forward estimation {} ({} nodes)",
        full.value, full.stats.generated, pruned.value, pruned.stats.generated
    );
    assert_eq!(
        pruned.value, full.value,
        "forward estimation lost alpha-beta's value"
    );
    assert!(pruned.stats.generated <= full.stats.generated);

    compose_in_code(&game, &win_now)?;
    gdl_from_text()?;

    // A short match: PVS against UCT, each opening played twice with colours swapped.
    let mut pvs = kit.searcher(&game, "pvs:depth=6,tt=4mb")?;
    let mut uct = kit.searcher(&game, "uct:sims=2000,seed=3")?;
    let config = MatchConfig {
        games: 3,
        ..MatchConfig::default()
    };
    let report = play_match(&game, &mut pvs, &mut uct, &config, &mut |_, _| {});
    println!(
        "\npvs:depth=6 against uct:sims=2000, {} games: {} wins, {} draws, {} losses",
        report.games, report.wins, report.draws, report.losses
    );
    Ok(())
}

/// Every family composed in code, as the kit composes them from names: each finds the win in one.
fn compose_in_code(
    game: &ConnectFour,
    win_now: &Position,
) -> Result<(), Box<dyn std::error::Error>> {
    let pvs_config = AlphaBetaConfig {
        tt_bytes: 16 << 20,
        ..AlphaBetaConfig::pvs(9)
    };
    // α/β and PVS: the engine, a configuration, the game's move ordering.
    let mut pvs = AlphaBeta::new(Threats)
        .with_config(pvs_config)
        .with_ordering(CentreFirst);
    // MTD(f): null-window probes of the same engine, converging over its table.
    let mut mtdf = Mtdf::new(
        AlphaBeta::new(Threats)
            .with_config(pvs_config)
            .with_ordering(CentreFirst),
    );
    // UCT: random playouts, no evaluation; its values are mean payoffs.
    let mut uct = Uct::new(UctConfig {
        simulations: 3000,
        seed: 1,
        ..UctConfig::default()
    });
    // CN(3, 3): a 3-ply layer whose leaves a depth-3 α/β values; one threat (100) is the unit
    // that sets the CAEV's window.
    let leaves = AlphaBeta::new(Threats).with_config(AlphaBetaConfig::alpha_beta(3));
    let mut caev = CaevPlayer::layered(leaves, 3, 3, 100)?;
    // Interest search: PVS whose iterations raise an interest budget instead of the depth.
    let (horizon, ordering) = gametree::interest_search::hooks(InterestConfig::default(), Interest);
    let mut interest = AlphaBeta::new(Threats)
        .with_config(AlphaBetaConfig {
            history: false, // it would break the cheapest-first order
            ..AlphaBetaConfig::pvs(8)
        })
        .with_horizon(horizon)
        .with_ordering(ordering);

    let evaluation = Scale::Evaluation { unit: 100 };
    let searchers: [(&str, &mut dyn Searcher<ConnectFour>, Scale); 5] = [
        ("pvs", &mut pvs, evaluation),
        ("mtdf", &mut mtdf, evaluation),
        ("uct", &mut uct, Scale::MEAN_PAYOFF),
        ("caev", &mut caev, evaluation),
        ("interest", &mut interest, evaluation),
    ];
    println!("\ncomposed in code:");
    for (name, searcher, scale) in searchers {
        let result = searcher.search(game, win_now, &Limits::none());
        let reading = scale.read(result.value);
        let column = result.best_move.map(|c| game.move_name(win_now, c));
        let column = column.as_deref().unwrap_or("-");
        println!("  {name:<9} plays {column}: {reading} ({})", result.bound);
        assert_eq!(result.best_move, Some(2), "{name} missed the win");
    }
    // Lazy SMP: the PVS engine on two threads sharing its table.
    let result = pvs.search_parallel(game, win_now, &Limits::none(), 2);
    assert_eq!(result.best_move, Some(2), "lazy smp missed the win");
    Ok(())
}

/// Nim in the Game Description Language: five sticks, take one or two, whoever takes the last
/// one wins.
const NIM: &str = "
(role white) (role black)
(other white black) (other black white)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(init (sticks 5)) (init (control white))
(<= (legal ?p (take 1)) (true (control ?p)) (true (sticks ?n)) (succ ?m ?n))
(<= (legal ?p (take 2)) (true (control ?p)) (true (sticks ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (sticks ?m)) (does ?p (take 1)) (true (sticks ?n)) (succ ?m ?n))
(<= (next (sticks ?k)) (does ?p (take 2)) (true (sticks ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (next (control ?q)) (true (control ?p)) (other ?p ?q))
(<= (next (last ?p)) (does ?p (take ?x)))
(<= terminal (true (sticks 0)))
(<= (goal ?p 100) (true (last ?p)))
(<= (goal ?p 0) (role ?p) (not (true (last ?p))))
";

/// A game written in GDL, loaded from a string: UCT plays the general game, and its checked
/// two-player view takes every other searcher.
fn gdl_from_text() -> Result<(), Box<dyn std::error::Error>> {
    let nim = Loader::text(NIM).load()?;
    let mut uct = Uct::new(UctConfig {
        simulations: 2000,
        ..UctConfig::default()
    });
    let played = uct.search(&nim, &nim.initial_state(), &Limits::none());
    let two_player = TurnTaking::new(nim)?; // two players, turn-taking, constant-sum: checked
    let mut pvs = AlphaBeta::new(GoalEvaluator).with_config(AlphaBetaConfig::pvs(10));
    let solved = pvs.search(&two_player, &two_player.initial_state(), &Limits::none());
    // One goal point (1000 in GoalEvaluator's units) is the unit; a win by 100 points is WIN + 100.
    let reading = Scale::Evaluation { unit: 1000 }.read(solved.value);
    println!(
        "\nnim in GDL: pvs {} = {reading} ({}), uct {}",
        solved.value,
        solved.bound,
        Scale::MEAN_PAYOFF.read(played.value)
    );
    assert_eq!(reading, Reading::Win { by: 100 });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_counts_are_the_published_ones() {
        let start = ConnectFour.initial_state();
        let counts: Vec<u64> = (1..=5)
            .map(|depth| gametree::search::perft(&ConnectFour, &start, depth))
            .collect();
        assert_eq!(counts, [7, 49, 343, 2401, 16807]);
    }

    /// Everything `main` shows holds: every family finds the win in one, forward estimation keeps
    /// α/β's value, the match is played.
    #[test]
    fn the_walkthrough_runs_and_its_checks_hold() {
        main().unwrap();
    }

    #[test]
    fn rows_columns_and_diagonals_win() {
        assert!(ConnectFour.outcome(&Position::after("1212121")).is_some()); // a column
        assert!(ConnectFour.outcome(&Position::after("1122334")).is_some()); // a row
        assert!(ConnectFour
            .outcome(&Position::after("12233434454"))
            .is_some()); // a diagonal
        assert!(ConnectFour.outcome(&Position::after("112233")).is_none());
    }
}

//! Iterative deepening stops at the end of the game: once an iteration searched only lines that
//! ended the game, deeper iterations cannot change its value, so PVS, MTD(f) and Lazy SMP stop
//! there, and their node counts stop growing with the depth asked for.

use game_trait::{
    Bound, Evaluator, Game, Limits, MoveList, Outcome, PlayerId, Score, Searcher, ZeroSumGame,
};
use quickcheck::{QuickCheck, TestResult};
use search_core::{AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue, Minimax, Mtdf};

/// Take 1, 2 or 3 sticks from a pile of 12; whoever takes the last stick wins. Many move orders
/// reach the same pile, so the table settles transpositions with entries of closed searches.
#[derive(Clone, Copy, Debug)]
struct Sticks;

impl Game for Sticks {
    type State = (u32, PlayerId);
    type Move = u32;
    fn initial_state(&self) -> (u32, PlayerId) {
        (12, 0)
    }
    fn apply(&self, s: &mut (u32, PlayerId), take: u32) -> Option<(u32, PlayerId)> {
        Some((s.0 - take, 1 - s.1))
    }
    fn state_hash(&self, s: &(u32, PlayerId)) -> Option<u64> {
        Some(game_trait::mix64(u64::from(s.0) << 1 | s.1 as u64))
    }
}

impl ZeroSumGame for Sticks {
    fn side_to_move(&self, s: &(u32, PlayerId)) -> PlayerId {
        s.1
    }
    fn outcome(&self, s: &(u32, PlayerId)) -> Option<Outcome> {
        (s.0 == 0).then_some(Outcome::LOSS)
    }
    fn moves(&self, s: &(u32, PlayerId), moves: &mut MoveList<u32>) {
        moves.extend((1..=3).filter(|&take| take <= s.0));
    }
}

/// Sticks in progress are worth the pile modulo 4 (a guess, not the truth), so that a search cut
/// short by its depth shows it.
#[derive(Clone, Copy, Debug)]
struct Guess;

impl Evaluator<Sticks> for Guess {
    fn evaluate(&mut self, _: &Sticks, s: &(u32, PlayerId)) -> Score {
        (s.0 % 4) as Score
    }
}

/// The searchers that deepen, with a table: PVS, PVS with aspiration windows, MTD(f).
fn deepening<G: ZeroSumGame + 'static, E: Evaluator<G> + Clone + 'static>(
    eval: E,
) -> Vec<(&'static str, Box<dyn Searcher<G>>)> {
    let pvs = AlphaBetaConfig {
        tt_bytes: 1 << 18,
        ..AlphaBetaConfig::pvs(1)
    };
    let aspiration = AlphaBetaConfig {
        aspiration: Some(2),
        ..pvs
    };
    vec![
        (
            "pvs",
            Box::new(AlphaBeta::new(eval.clone()).with_config(pvs)),
        ),
        (
            "aspiration",
            Box::new(AlphaBeta::new(eval.clone()).with_config(aspiration)),
        ),
        (
            "mtdf",
            Box::new(Mtdf::new(AlphaBeta::new(eval).with_config(pvs))),
        ),
    ]
}

/// A game of at most 12 plies: at depth 12 and beyond every searcher stops where the game does,
/// with the same value, depth and node count whether asked for 15, 40 or 100 plies.
#[test]
fn node_counts_stop_growing_past_the_length_of_the_game() {
    let root = Sticks.initial_state();
    let truth = Minimax::new(Guess, 12).search(&Sticks, &root, &Limits::none());
    for (name, mut searcher) in deepening::<Sticks, _>(Guess) {
        let runs: Vec<_> = [15, 40, 100]
            .map(|depth| {
                searcher.reset();
                let r = searcher.search(&Sticks, &root, &Limits::depth(depth));
                (r.value, r.bound, r.depth, r.stats.generated)
            })
            .into();
        let (value, bound, depth, _) = runs[0];
        assert_eq!((value, bound), (truth.value, Bound::Exact), "{name}");
        assert!(depth <= 12, "{name}: stopped at {depth}");
        assert!(runs.iter().all(|r| *r == runs[0]), "{name}: {runs:?}");
    }
    // Lazy SMP's helpers vary the node count, not where the calling thread stops.
    let mut smp = AlphaBeta::new(Guess).with_config(AlphaBetaConfig {
        tt_bytes: 1 << 18,
        ..AlphaBetaConfig::pvs(100)
    });
    let r = smp.search_parallel(&Sticks, &root, &Limits::none(), 2);
    assert_eq!((r.value, r.bound), (truth.value, Bound::Exact));
    assert!(r.depth <= 12, "lazy smp stopped at {}", r.depth);
}

/// Random trees whose every leaf is a finished game: searched deeper than their height, every
/// deepening searcher stops at the height or before, with the minimax value, and the same nodes
/// however much deeper it was asked to go; Lazy SMP stops there too.
#[test]
fn deepening_stops_where_every_line_has_ended() {
    fn prop(seed: u64, height: u8, branching: u8) -> TestResult {
        let (height, branching) = (1 + u32::from(height) % 8, 1 + u32::from(branching) % 4);
        let tree = ExplicitTree::random(seed, height, branching);
        let truth = Minimax::new(LeafValue, height).search(&tree, &0, &Limits::none());
        for (name, mut searcher) in deepening::<ExplicitTree, _>(LeafValue) {
            let mut runs = Vec::new();
            for depth in [height + 3, 100] {
                searcher.reset();
                let r = searcher.search(&tree, &0, &Limits::depth(depth));
                runs.push((r.value, r.bound, r.depth, r.stats.generated));
            }
            let (value, bound, depth, _) = runs[0];
            if (value, bound) != (truth.value, Bound::Exact) || depth > height || runs[0] != runs[1]
            {
                return TestResult::error(format!("{name}: {runs:?} vs {}", truth.value));
            }
        }
        let mut smp = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig {
            tt_bytes: 1 << 16,
            ..AlphaBetaConfig::pvs(100)
        });
        let r = smp.search_parallel(&tree, &0, &Limits::none(), 2);
        if (r.value, r.bound) != (truth.value, Bound::Exact) || r.depth > height {
            return TestResult::error(format!("lazy smp: {r:?} vs {}", truth.value));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(u64, u8, u8) -> TestResult);
}

/// A game that never ends: no iteration is closed, so the search goes to the depth asked for.
#[derive(Clone, Copy, Debug)]
struct Endless;

impl Game for Endless {
    type State = u64;
    type Move = u64;
    fn initial_state(&self) -> u64 {
        1
    }
    fn apply(&self, s: &mut u64, mv: u64) -> Option<u64> {
        Some(game_trait::mix64(*s ^ mv))
    }
    fn state_hash(&self, s: &u64) -> Option<u64> {
        Some(*s)
    }
}

impl ZeroSumGame for Endless {
    fn side_to_move(&self, s: &u64) -> PlayerId {
        (*s & 1) as PlayerId
    }
    fn outcome(&self, _: &u64) -> Option<Outcome> {
        None
    }
    fn moves(&self, _: &u64, moves: &mut MoveList<u64>) {
        moves.extend(0..3);
    }
}

/// A hash of the position, in `-8..8`.
#[derive(Clone, Copy, Debug)]
struct Noise;

impl Evaluator<Endless> for Noise {
    fn evaluate(&mut self, _: &Endless, s: &u64) -> Score {
        (*s % 16) as Score - 8
    }
}

#[test]
fn a_game_that_goes_on_is_searched_to_the_depth_asked_for() {
    for (name, mut searcher) in deepening::<Endless, _>(Noise) {
        let r = searcher.search(&Endless, &1, &Limits::depth(7));
        let truth = Minimax::new(Noise, 7).search(&Endless, &1, &Limits::none());
        assert_eq!((r.value, r.depth), (truth.value, 7), "{name}");
    }
}

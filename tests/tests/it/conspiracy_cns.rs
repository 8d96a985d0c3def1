//! The conspiracy crate against search-core's oracles: McAllester's CNS with a threshold above any
//! finite conspiracy number must find the exact minimax value; the CN(x, y) player's layer, with
//! leaves valued by a depth-`y` search, must back up the minimax value of depth `x + y`.

use gametree::conspiracy::{CaevPlayer, Cns, CnsConfig, StopReason};
use gametree::game::{Game, GeneralGame, Limits, Searcher};
use gametree::search::{AlphaBeta, AlphaBetaConfig, ExplicitTree, LeafValue, Minimax};
use quickcheck::{QuickCheck, TestResult};

/// Random trees of depth ≤ 4 and branching ≤ 3 have at most 81 leaves, so no finite conspiracy number
/// exceeds 81: with T = 81 "more than T conspirators" means "impossible".
const T_ABOVE_EVERY_FINITE_NUMBER: u32 = 81;

/// One clear advantage in [`LeafValue`]'s small integers (the facade's unit for explicit trees).
const UNIT: i32 = 10;

fn tree(seed: u64) -> (ExplicitTree, u32) {
    let depth = 1 + (seed % 4) as u32;
    (
        ExplicitTree::random(seed, depth, 1 + (seed / 4 % 3) as u32),
        depth,
    )
}

#[test]
fn cns_with_enough_budget_returns_the_minimax_value() {
    fn prop(seed: u64) -> bool {
        let (game, depth) = tree(seed);
        let root = game.initial_state();
        let truth = Minimax::new(LeafValue, depth).search(&game, &root, &Limits::none());
        let config = CnsConfig::new(1, T_ABOVE_EVERY_FINITE_NUMBER).unwrap();
        let mut cns = Cns::new(LeafValue, config);
        let found = cns.search(&game, &root, &Limits::none());
        let converged = cns
            .outcome()
            .map_or(true, |o| o.reason == StopReason::Converged);
        // The move must be one minimax rates as best (ties may pick another best child).
        let move_ok = match found.best_move {
            None => truth.best_move.is_none(),
            Some(mv) => {
                let child = game.apply(&mut root.clone(), mv).unwrap();
                let after =
                    Minimax::new(LeafValue, depth - 1).search(&game, &child, &Limits::none());
                -after.value == truth.value
            }
        };
        found.value == truth.value && converged && move_ok
    }
    QuickCheck::new()
        .tests(1000)
        .quickcheck(prop as fn(u64) -> bool);
}

#[test]
fn cns_under_a_depth_limit_returns_that_depths_minimax_value() {
    fn prop(seed: u64, limit: u8) -> bool {
        let (game, depth) = tree(seed);
        let limit = u32::from(limit) % (depth + 1);
        let root = game.initial_state();
        // A limit of 0 counts as 1: CNS always expands the root, so that it names a move.
        let truth = Minimax::new(LeafValue, limit.max(1)).search(&game, &root, &Limits::none());
        let config = CnsConfig::new(1, T_ABOVE_EVERY_FINITE_NUMBER).unwrap();
        let found = Cns::new(LeafValue, config).search(&game, &root, &Limits::depth(limit));
        found.value == truth.value
    }
    QuickCheck::new()
        .tests(1000)
        .quickcheck(prop as fn(u64, u8) -> bool);
}

#[test]
fn the_cn_layer_over_alpha_beta_backs_up_the_deeper_minimax_value() {
    fn prop(seed: u64, split: u8) -> TestResult {
        let game = ExplicitTree::random(seed, 5, 3);
        let root = game.initial_state();
        if game.turn(&root) == gametree::game::Turn::Over {
            return TestResult::discard();
        }
        let x = 1 + u32::from(split) % 4; // layer depth 1..=4
        let y = 5 - x;
        let truth = Minimax::new(LeafValue, 5).search(&game, &root, &Limits::none());
        let alpha_beta = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig {
            depth: y,
            ..AlphaBetaConfig::default()
        });
        let mut player = CaevPlayer::layered(alpha_beta, x, y, UNIT).unwrap();
        let analysis = player.analyse(&game, &root, &Limits::none()).unwrap();
        let mut by_minimax = CaevPlayer::layered(Minimax::new(LeafValue, y), x, y, UNIT).unwrap();
        let same = by_minimax.analyse(&game, &root, &Limits::none()).unwrap();
        TestResult::from_bool(
            analysis.minimax == truth.value
                && same.minimax == truth.value
                // Same leaf values, same CAEVs, same move, whichever search values the leaves.
                && same.children == analysis.children
                && analysis.stats.generated >= analysis.stats.evaluated,
        )
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(u64, u8) -> TestResult);
}

/// The same where a player may move twice in a row: CNS and the CN layer build their trees with
/// the side to move the game states at each node, and agree with Minimax, which reads it too (and
/// which search-core's tests hold to a brute force).
#[test]
fn with_extra_turns_cns_and_the_cn_layer_back_up_the_minimax_value() {
    use gametree::search::ExtraTurnTree;
    fn prop(seed: u64, split: u8) -> TestResult {
        let depth = 2 + (seed % 3) as u32;
        let game = ExtraTurnTree::random(seed, depth, 2 + (seed / 3 % 2) as u32);
        let root = game.initial_state();
        if game.turn(&root) == gametree::game::Turn::Over {
            return TestResult::discard();
        }
        let truth = Minimax::new(LeafValue, depth).search(&game, &root, &Limits::none());
        let config = CnsConfig::new(1, T_ABOVE_EVERY_FINITE_NUMBER).unwrap();
        let cns = Cns::new(LeafValue, config).search(&game, &root, &Limits::none());
        let x = 1 + u32::from(split) % (depth - 1);
        let alpha_beta =
            AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::alpha_beta(depth - x));
        let mut player = CaevPlayer::layered(alpha_beta, x, depth - x, UNIT).unwrap();
        let layer = player.analyse(&game, &root, &Limits::none()).unwrap();
        TestResult::from_bool(cns.value == truth.value && layer.minimax == truth.value)
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(u64, u8) -> TestResult);
}

/// A reset player searches as a fresh one: the table its leaf-valuing PVS filled is emptied too,
/// so the same search generates the same nodes and finds the same move and value.
#[test]
fn a_reset_layered_player_searches_as_a_fresh_one() {
    use gametree::game::Reset;
    let pvs = || {
        AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig {
            tt_bytes: 1 << 16,
            ..AlphaBetaConfig::pvs(3)
        })
    };
    let mut warmed_any = false;
    for seed in 0..20 {
        let game = ExplicitTree::random(seed, 6, 3);
        let root = game.initial_state();
        if game.turn(&root) == gametree::game::Turn::Over {
            continue;
        }
        let fresh =
            CaevPlayer::layered(pvs(), 2, 3, UNIT)
                .unwrap()
                .search(&game, &root, &Limits::none());
        let mut player = CaevPlayer::layered(pvs(), 2, 3, UNIT).unwrap();
        player.search(&game, &root, &Limits::none());
        let warm = player.search(&game, &root, &Limits::none());
        warmed_any |= warm.stats != fresh.stats;
        player.reset();
        let again = player.search(&game, &root, &Limits::none());
        assert_eq!(
            (again.best_move, again.value, &again.pv, again.stats),
            (fresh.best_move, fresh.value, &fresh.pv, fresh.stats),
            "seed {seed}"
        );
    }
    assert!(
        warmed_any,
        "no table ever changed a second search: the test proves nothing"
    );
}

/// A CN(x, y) player built in code from the evaluation's unit is the player the facade's `Kit`
/// builds from a spec with that unit: same window, same move, same value, and that value is
/// reported as what it is, an estimate; on a scale where Othello's RANGE of 1000 would be a
/// hundred clear advantages wide, not that window.
#[test]
fn the_cn_player_built_in_code_is_the_one_built_by_spec() {
    use gametree::conspiracy::CaevConfig;
    use gametree::game::Bound;
    use gametree::kit::Kit;
    let kit = Kit::new(LeafValue, UNIT);
    for seed in 0..30 {
        let game = ExplicitTree::random(seed, 5, 3);
        let root = game.initial_state();
        if game.turn(&root) == gametree::game::Turn::Over {
            continue;
        }
        let alpha_beta = AlphaBeta::new(LeafValue).with_config(AlphaBetaConfig::alpha_beta(2));
        let mut in_code = CaevPlayer::layered(alpha_beta, 3, 2, UNIT).unwrap();
        assert_eq!(in_code.caev_config(), CaevConfig::new(10, 1).unwrap());
        let mut by_spec = kit.searcher(&game, "caev:cn=3,ab=2").unwrap();
        let (a, b) = (
            in_code.search(&game, &root, &Limits::none()),
            by_spec.search(&game, &root, &Limits::none()),
        );
        assert_eq!(
            (a.best_move, a.value, a.bound),
            (b.best_move, b.value, b.bound)
        );
        assert_eq!(a.bound, Bound::Estimate, "seed {seed}");
    }
}

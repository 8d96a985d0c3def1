//! MAC-UCB and FC-UCB on the hand-written games: legal moves in every state they meet, the
//! options each doing what they say, the cache, the threshold, limits and determinism.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::common::{Altered, Luck};
use game_trait::round::Relation;
use game_trait::{
    ChanceList, Game, GeneralGame, Limits, MoveList, Reset, RoundGame, Searcher, Turn,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use scsp_mac_ucb::games::{CooperativePennies, Nim, Pig, PigState, HOLD, ROLL};
use scsp_mac_ucb::{
    Algorithm, Arms, FinalChoice, Lookahead, MacUcb, MacUcbAnalysis, MacUcbConfig, ThresholdPruning,
};

fn player(config: MacUcbConfig) -> MacUcb {
    MacUcb::new(config).expect("valid parameters")
}

fn samples(n: u64) -> MacUcbConfig {
    MacUcbConfig {
        samples: n,
        ..MacUcbConfig::default()
    }
}

/// Plays a game (up to 300 rounds) with one player per seat (each told its seat, for simultaneous rounds) and
/// checks every move it returns is legal; chance moves at random.
fn play_checking_legality<G: RoundGame>(game: &G, config: &MacUcbConfig, seed: u64) {
    let mut seats: Vec<MacUcb> = (0..game.players())
        .map(|p| {
            player(MacUcbConfig {
                player: Some(p),
                seed: seed + p as u64,
                ..config.clone()
            })
        })
        .collect();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut moves = MoveList::new();
    let mut outcomes = ChanceList::new();
    // At most 300 rounds: with the componentwise threshold, Pig players may never bank a win.
    for _ in 0..300 {
        let turn = game.turn(&state);
        let mut choose = |p: usize, state: &G::State| {
            game.legal_moves(state, p, &mut moves);
            let best = seats[p].search(game, state, &Limits::none()).best_move;
            let mv = best.expect("a move where the player chooses");
            assert!(
                moves.contains(&mv),
                "{mv:?} is not legal for {p} in {state:?}"
            );
            mv
        };
        match turn {
            Turn::Over => return,
            Turn::Player(p) => {
                let mv = choose(p, &state);
                game.play(&mut state, mv);
            }
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                let mv = outcomes[rng.gen_range(0..outcomes.len())].0;
                game.play(&mut state, mv);
            }
            Turn::Simultaneous => {
                let mut joint: Vec<G::Move> =
                    (0..game.players()).map(|p| choose(p, &state)).collect();
                game.chance_outcomes(&state, &mut outcomes);
                if !outcomes.is_empty() {
                    joint.push(outcomes[rng.gen_range(0..outcomes.len())].0);
                }
                game.play_joint(&mut state, &joint);
            }
        }
    }
}

/// Every option, one at a time, on both resolutions and both readings.
fn configurations() -> Vec<MacUcbConfig> {
    let mut all = Vec::new();
    for (algorithm, lookahead) in [Algorithm::MacFc, Algorithm::Fc]
        .into_iter()
        .flat_map(|a| [(a, Lookahead::Sequence), (a, Lookahead::Round)])
    {
        let base = MacUcbConfig {
            algorithm,
            lookahead,
            ..samples(150)
        };
        all.push(base.clone());
        all.push(MacUcbConfig {
            arms: Arms::OwnAction,
            ..base.clone()
        });
        for choice in [FinalChoice::Mean, FinalChoice::MostSampled] {
            all.push(MacUcbConfig {
                choice,
                ..base.clone()
            });
        }
        for pruning in [ThresholdPruning::Off, ThresholdPruning::AllPlayers] {
            all.push(MacUcbConfig {
                pruning,
                ..base.clone()
            });
        }
        all.push(MacUcbConfig {
            horizon: Some(3),
            preprocess: false,
            confidence_pruning: false,
            solve_share: 0.3,
            ..base.clone()
        });
    }
    all
}

#[test]
fn every_move_is_legal_on_every_hand_written_game() {
    for (i, config) in configurations().iter().enumerate() {
        let seed = i as u64;
        play_checking_legality(&Nim::new(11), config, seed);
        play_checking_legality(&CooperativePennies::new(), config, seed);
        play_checking_legality(&Pig::new(8), config, seed);
    }
}

#[test]
fn mac_and_fc_find_the_same_arms() {
    let pig = Pig::new(10);
    let mut rng = Pcg64::seed_from_u64(3);
    let mut state = pig.initial_state();
    while pig.turn(&state) != Turn::Over {
        let (_, mac) = player(samples(20)).analyse(&pig, &state, &Limits::none());
        let (_, fc) =
            player(MacUcbConfig::fc_ucb()).analyse(&pig, &state, &Limits::none().with_nodes(20));
        assert_eq!(mac.feasible, fc.feasible);
        let joints =
            |a: &MacUcbAnalysis| a.arms.iter().map(|r| r.joints.clone()).collect::<Vec<_>>();
        assert_eq!(joints(&mac), joints(&fc));
        assert!(mac.fallback.is_none() && mac.solved);
        let act = if rng.gen_bool(0.7) { ROLL } else { HOLD };
        let mut joint = [2, 2, rng.gen_range(0..6)];
        joint[state.mover] = act;
        pig.play_joint(&mut state, &joint);
    }
}

#[test]
fn an_immediate_win_is_found_and_known_exactly() {
    let nim = Nim::new(3);
    let (result, analysis) =
        player(samples(200)).analyse(&nim, &nim.initial_state(), &Limits::none());
    assert_eq!(result.best_move, Some(3));
    assert_eq!(result.value, 1000);
    let take_all = &analysis.arms[analysis.chosen.unwrap()];
    assert!(take_all.exact);
    assert_eq!(take_all.mean, Some(vec![1.0, 0.0]));

    // Pig: 5 banked and 5 in hand of a 10-point target: holding wins on the spot.
    let pig = Pig::new(10);
    let state = PigState {
        scores: [5, 0],
        total: 5,
        mover: 0,
    };
    let (result, _) = player(samples(500)).analyse(&pig, &state, &Limits::none());
    assert_eq!(result.best_move, Some(HOLD));
}

/// The cooperative pennies of Koriche et al.'s Example 1: a policy in which alice and bob agree
/// wins with probability ½, one in which they do not never wins.
#[test]
fn pennies_arms_are_the_joint_choices_valued_exactly() {
    let game = CooperativePennies::new();
    let root = game.initial_state();
    let (result, analysis) = player(samples(1_000)).analyse(&game, &root, &Limits::none());
    assert_eq!(analysis.arms.len(), 4);
    for arm in &analysis.arms {
        let joint = &arm.joints[0];
        let win = if joint[0] == joint[1] { 0.5 } else { 0.0 };
        assert!(arm.exact, "{arm:?}");
        assert_eq!(arm.mean, Some(vec![win, win]));
    }
    let chosen = &analysis.arms[analysis.chosen.unwrap()].joints[0];
    assert_eq!(chosen[0], chosen[1]);
    assert_eq!(result.value, 0);

    // Grouped by alice's coin (the round reading's option), each arm is worth ¼: bob matches
    // half the time.
    let own = MacUcbConfig {
        arms: Arms::OwnAction,
        lookahead: Lookahead::Round,
        ..samples(1_000)
    };
    let (_, analysis) = player(own).analyse(&game, &root, &Limits::none());
    assert_eq!(analysis.arms.len(), 2);
    for arm in &analysis.arms {
        assert_eq!(arm.joints.len(), 2);
        assert_eq!(arm.mean, Some(vec![0.25, 0.25]));
    }
}

/// In the round reading, the arms are valued by the searching player, so the threshold removes
/// the two disagreeing joint choices under both readings of it; in the sequence reading, where
/// alice and bob both choose, no one player's value ranks the joint choices, and only the
/// componentwise reading removes them.
#[test]
fn the_threshold_prunes_completely_explored_arms_below_it() {
    let game = CooperativePennies::new();
    let root = game.initial_state();
    for (lookahead, by_chooser) in [(Lookahead::Round, 2), (Lookahead::Sequence, 0)] {
        let removed = |pruning| removed_by(&game, &root, lookahead, pruning);
        assert_eq!(removed(ThresholdPruning::Off), 0);
        assert_eq!(removed(ThresholdPruning::Chooser), by_chooser);
        assert_eq!(removed(ThresholdPruning::AllPlayers), 2);
    }

    // Reset forgets θ and the cache.
    let mut p = player(samples(1_000));
    p.search(&game, &root, &Limits::none());
    p.reset();
    assert_eq!(p.threshold(), None);
    let (_, analysis) = p.analyse(&game, &root, &Limits::none());
    assert_eq!(analysis.threshold, None);
    assert!(analysis.arms.iter().all(|a| !a.removed));
}

/// The arms the threshold removes in a second search of pennies' opening.
fn removed_by(
    game: &CooperativePennies,
    root: &<CooperativePennies as Game>::State,
    lookahead: Lookahead,
    pruning: ThresholdPruning,
) -> usize {
    {
        let mut p = player(MacUcbConfig {
            pruning,
            lookahead,
            ..samples(1_000)
        });
        p.search(game, root, &Limits::none());
        // θ = (½, ½), from the agreeing policy chosen.
        assert_eq!(p.threshold(), Some(&[0.5, 0.5][..]));
        let (_, analysis) = p.analyse(game, root, &Limits::none());
        analysis.arms.iter().filter(|a| a.removed).count()
    }
}

/// Under the literal componentwise reading, a threshold with a positive opponent component is
/// failed by every arm that wins outright (the opponent's value is 0); but the best completely
/// explored arm is never removed, so the win is still played under every reading.
#[test]
fn an_outright_win_survives_every_reading_of_the_threshold() {
    let pig = Pig::new(10);
    let opening = pig.initial_state();
    let winning = PigState {
        scores: [5, 0],
        total: 5,
        mover: 0,
    };
    for pruning in [ThresholdPruning::Chooser, ThresholdPruning::AllPlayers] {
        let mut p = player(MacUcbConfig {
            pruning,
            ..samples(2_000)
        });
        p.search(&pig, &opening, &Limits::none());
        assert!(p.threshold().unwrap()[1] > 0.0);
        let (result, analysis) = p.analyse(&pig, &winning, &Limits::none());
        assert_eq!(result.best_move, Some(HOLD), "{pruning:?}");
        let hold = analysis
            .arms
            .iter()
            .find(|a| a.joints[0][0] == HOLD)
            .unwrap();
        assert!(hold.exact && !hold.removed, "{pruning:?}");
    }
}

/// A threshold left by an earlier search can exceed every arm of the current one (here, after a
/// bad chance outcome): the best completely explored arm must survive the pruning and be played.
#[test]
fn a_stale_threshold_never_removes_the_best_arm() {
    let luck = Luck::new();
    let mut p = player(samples(1_000));
    p.search(&luck, &Luck::START, &Limits::none());
    let theta = p.threshold().unwrap()[0];
    assert!(
        theta > Luck::BAD_BEST,
        "θ = {theta}: the test needs a threshold above every arm"
    );
    let (result, analysis) = p.analyse(&luck, &Luck::BAD, &Limits::none());
    assert_eq!(result.best_move, Some(Luck::X), "{analysis:?}");
    assert_eq!(analysis.arms.iter().filter(|a| a.removed).count(), 1);
}

/// Nim has few states: the cache's transpositions explore it completely in a few dozen samples,
/// and then the search stops early and plays the best exact value.
#[test]
fn a_completely_explored_round_stops_sampling() {
    let nim = Nim::new(13);
    let (_, a) = player(samples(10_000)).analyse(&nim, &nim.initial_state(), &Limits::none());
    assert!(a.arms.iter().all(|r| r.exact));
    assert!(a.samples < 200, "{} samples", a.samples);
    assert!(a.cached_states <= 28);
}

#[test]
fn the_horizon_scores_unfinished_states_zero() {
    let nim = Nim::new(9);
    let root = nim.initial_state();
    let short = MacUcbConfig {
        horizon: Some(1),
        ..samples(100)
    };
    let (result, analysis) = player(short).analyse(&nim, &root, &Limits::none());
    assert!(analysis
        .arms
        .iter()
        .all(|a| a.exact && a.mean == Some(vec![0.0, 0.0])));
    assert_eq!(result.value, -1000);
    // Without a horizon, random play from any of the three moves wins sometimes.
    let round = MacUcbConfig {
        lookahead: Lookahead::Round,
        ..samples(100)
    };
    let (_, analysis) = player(round).analyse(&nim, &root, &Limits::none());
    assert!(analysis
        .arms
        .iter()
        .all(|a| a.mean.as_ref().unwrap()[0] > 0.0));
}

#[test]
fn each_final_choice_picks_by_its_rule() {
    // Pig's opening is far from completely explored after 300 samples (Nim's few states would be).
    let pig = Pig::new(20);
    let root = pig.initial_state();
    for choice in [
        FinalChoice::UcbIndex,
        FinalChoice::Mean,
        FinalChoice::MostSampled,
    ] {
        let config = MacUcbConfig {
            choice,
            ..samples(300)
        };
        let (_, a) = player(config).analyse(&pig, &root, &Limits::none());
        assert!(a.arms.iter().all(|r| !r.exact));
        let chosen = &a.arms[a.chosen.unwrap()];
        let mean = |r: &scsp_mac_ucb::player::ArmReport| r.mean.as_ref().unwrap()[0];
        match choice {
            FinalChoice::Mean => assert!(a.arms.iter().all(|r| mean(r) <= mean(chosen))),
            FinalChoice::MostSampled => assert!(a.arms.iter().all(|r| r.samples <= chosen.samples)),
            FinalChoice::UcbIndex => {
                let index = |r: &scsp_mac_ucb::player::ArmReport| {
                    mean(r) + 2f64.sqrt() * ((a.samples as f64).ln() / r.samples as f64).sqrt()
                };
                assert!(a.arms.iter().all(|r| index(r) <= index(chosen) + 1e-12));
            }
        }
    }
}

#[test]
fn limits_bound_the_samples_and_a_passed_deadline_still_moves() {
    let pig = Pig::new(20);
    let root = pig.initial_state();
    let mut p = player(samples(10_000));
    let (_, a) = p.analyse(&pig, &root, &Limits::none().with_nodes(321));
    assert_eq!(a.samples, 321);
    let past = Limits {
        deadline: Some(Instant::now()),
        ..Limits::none()
    };
    let (result, a) = player(samples(10_000)).analyse(&pig, &root, &past);
    assert_eq!(a.samples, 0);
    assert!(matches!(result.best_move, Some(ROLL | HOLD)));
    let stop = Limits::none().with_stop(Arc::new(AtomicBool::new(true)));
    let (result, a) = player(samples(10_000)).analyse(&pig, &root, &stop);
    assert_eq!(a.samples, 0);
    assert!(result.best_move.is_some());
}

/// Indexing the round is once per game: left to the searches, a deadline shorter than the
/// index stops every one of them before it is done; prepared, the searches only search, and
/// find what they found before.
#[test]
fn a_prepared_player_leaves_indexing_out_of_its_deadlines() {
    let pig = Pig::new(20);
    let root = pig.initial_state();
    let past = || Limits {
        deadline: Some(Instant::now()),
        ..Limits::none()
    };
    let indexing = |a: &MacUcbAnalysis| {
        a.fallback
            .as_deref()
            .is_some_and(|f| f.contains("indexing the round's tables"))
    };
    for lookahead in [Lookahead::Sequence, Lookahead::Round] {
        let config = MacUcbConfig {
            lookahead,
            ..samples(500)
        };
        let mut unprepared = player(config.clone());
        for _ in 0..2 {
            let (_, a) = unprepared.analyse(&pig, &root, &past());
            assert!(indexing(&a), "{lookahead:?}: {:?}", a.fallback);
        }
        let mut prepared = player(config.clone());
        prepared.prepare(&pig).expect("Pig's round indexes");
        let (_, a) = prepared.analyse(&pig, &root, &past());
        assert!(!indexing(&a), "{lookahead:?}: {:?}", a.fallback);

        let mut prepared = player(config.clone());
        prepared.prepare(&pig).expect("Pig's round indexes");
        let untimed = |mut a: MacUcbAnalysis| {
            // The round reading clocks its solving (index included) even without a deadline.
            a.solve_time = Default::default();
            a
        };
        let by_search = player(config).analyse(&pig, &root, &Limits::none());
        let after_prepare = prepared.analyse(&pig, &root, &Limits::none());
        assert_eq!(
            untimed(by_search.1),
            untimed(after_prepare.1),
            "{lookahead:?}"
        );
        assert_eq!(by_search.0.best_move, after_prepare.0.best_move);
    }
}

#[test]
fn same_seed_same_search_other_seed_other_search() {
    let pig = Pig::new(20);
    let root = pig.initial_state();
    let run = |seed| {
        let config = MacUcbConfig {
            seed,
            ..samples(2_000)
        };
        player(config).analyse(&pig, &root, &Limits::none()).1.arms
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn a_broken_round_falls_back_to_the_rules_moves() {
    let nim = Nim::new(7);
    let mut round = nim.round().clone();
    for table in &mut round.tables {
        if table.name == "legal(0)" {
            table.relation = Relation::Allowed(Vec::new());
        }
    }
    let broken = Altered { game: nim, round };
    let (result, analysis) =
        player(samples(200)).analyse(&broken, &broken.initial_state(), &Limits::none());
    assert_eq!(
        analysis.fallback.as_deref(),
        Some("the round's network has no feasible policy")
    );
    assert_eq!(analysis.arms.len(), 3);
    assert!(matches!(result.best_move, Some(1..=3)));
}

#[test]
fn parameters_out_of_range_are_errors() {
    for (config, name) in [
        (
            MacUcbConfig {
                solve_share: 1.5,
                ..MacUcbConfig::default()
            },
            "solve_share",
        ),
        (
            MacUcbConfig {
                exploration: f64::NAN,
                ..MacUcbConfig::default()
            },
            "exploration",
        ),
        (
            MacUcbConfig {
                samples: 0,
                ..MacUcbConfig::default()
            },
            "samples",
        ),
        (
            MacUcbConfig {
                horizon: Some(0),
                ..MacUcbConfig::default()
            },
            "horizon",
        ),
    ] {
        let message = MacUcb::new(config).unwrap_err().to_string();
        assert!(message.contains(name), "{message}");
    }
}

#[test]
fn the_player_parameter_picks_whose_move_is_returned() {
    let game = CooperativePennies::new();
    let root = game.initial_state();
    for (seat, chooser) in [(None, Some(0)), (Some(1), Some(1)), (Some(7), Some(0))] {
        let config = MacUcbConfig {
            player: seat,
            ..samples(100)
        };
        let (_, analysis) = player(config).analyse(&game, &root, &Limits::none());
        assert_eq!(analysis.chooser, chooser, "player {seat:?}");
    }
}

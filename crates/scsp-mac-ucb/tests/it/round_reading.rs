//! The round reading ([`Lookahead::Round`]), with the final choice that was then the default
//! ([`FinalChoice::UcbIndex`]), is the player MAC-UCB was before the sequence reading became the
//! default: it reproduces, to the last bit of every mean, what that player did (recorded in
//! `testdata/round-reading.jsonl`).

use game_trait::{ChanceList, GeneralGame, Limits, MoveList, RoundGame, Turn};
use rand::{Rng, SeedableRng};
use scsp_mac_ucb::games::{CooperativePennies, Nim, Pig};
use scsp_mac_ucb::{FinalChoice, Lookahead, MacUcb, MacUcbConfig};
use serde_json::{json, Value};

/// The start and the states of a random game of `seed`, up to 12 rounds.
fn states<G: GeneralGame>(game: &G, seed: u64) -> Vec<G::State> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut out = vec![game.initial_state()];
    let mut state = game.initial_state();
    let mut moves = MoveList::new();
    let mut outcomes = ChanceList::new();
    let mut pick = |n: usize| rng.gen_range(0..n);
    for _ in 0..12 {
        match game.turn(&state) {
            Turn::Over => break,
            Turn::Player(p) => {
                game.legal_moves(&state, p, &mut moves);
                game.play(&mut state, moves[pick(moves.len())]);
            }
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                game.play(&mut state, outcomes[pick(outcomes.len())].0);
            }
            Turn::Simultaneous => {
                let mut joint = Vec::new();
                for p in 0..game.players() {
                    game.legal_moves(&state, p, &mut moves);
                    joint.push(moves[pick(moves.len())]);
                }
                game.chance_outcomes(&state, &mut outcomes);
                if !outcomes.is_empty() {
                    joint.push(outcomes[pick(outcomes.len())].0);
                }
                game.play_joint(&mut state, &joint);
            }
        }
        if game.turn(&state) != Turn::Over {
            out.push(state.clone());
        }
    }
    out
}

/// One line of the record for every third state of the games of seeds 0 to 2.
fn record<G: RoundGame>(name: &str, game: &G, lines: &mut Vec<Value>) {
    for seed in 0..3 {
        let config = MacUcbConfig {
            lookahead: Lookahead::Round,
            choice: FinalChoice::UcbIndex,
            samples: 300,
            seed,
            ..MacUcbConfig::default()
        };
        let mut player = MacUcb::new(config).unwrap();
        for (i, state) in states(game, seed).iter().enumerate().step_by(3) {
            let (result, a) = player.analyse(game, state, &Limits::none());
            let arms: Vec<Value> = (a.arms.iter())
                .map(|arm| {
                    json!({"joints": arm.joints, "samples": arm.samples, "mean": arm.mean,
                           "exact": arm.exact, "removed": arm.removed})
                })
                .collect();
            let best_move = result.best_move.map(|m| game.action_value(a.chooser, m));
            lines.push(
                json!({"game": name, "seed": seed, "state": i, "best_move": best_move,
                "value": result.value, "samples": a.samples, "chosen": a.chosen,
                "feasible": a.feasible, "cached": a.cached_states, "threshold": a.threshold,
                "arms": arms}),
            );
        }
    }
}

#[test]
fn the_round_reading_reproduces_the_recorded_player() {
    let mut lines = Vec::new();
    record("nim", &Nim::new(11), &mut lines);
    record("pennies", &CooperativePennies::new(), &mut lines);
    record("pig", &Pig::new(20), &mut lines);
    // Compared as text: each float is printed as the shortest decimal that reads back as
    // itself, so equal text is equal bits (parsing the record instead would round its floats).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/round-reading.jsonl");
    let recorded = std::fs::read_to_string(path).expect("the record is in testdata");
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), recorded.len());
    for (ours, theirs) in lines.iter().zip(recorded) {
        assert_eq!(ours.to_string(), theirs);
    }
}

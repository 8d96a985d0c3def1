//! The hand-written games' rounds agree with their rules, and `check_round` notices when a round
//! does not.

mod common;

use common::Altered;
use game_trait::round::Relation;
use game_trait::{Game, GeneralGame, RoundGame};
use scsp_mac_ucb::games::{CooperativePennies, Nim, Pig};
use scsp_mac_ucb::{check_round, round_network, solve, SolveOptions};

#[test]
fn every_hand_written_round_agrees_with_its_rules() {
    assert!(check_round(&Nim::new(9), 1, 200).unwrap() > 1000);
    assert_eq!(check_round(&CooperativePennies::new(), 1, 50).unwrap(), 150);
    assert!(check_round(&Pig::new(10), 1, 100).unwrap() > 1000);
}

/// Drops every other tuple (or row) of table `t`, starting with the first.
fn thinned<G: RoundGame + Clone>(game: &G, t: usize) -> Altered<G> {
    let mut round = game.round().clone();
    round.tables[t].relation = match &round.tables[t].relation {
        Relation::Allowed(tuples) => {
            Relation::Allowed(tuples.iter().skip(1).step_by(2).cloned().collect())
        }
        Relation::Utility(rows) => {
            Relation::Utility(rows.iter().skip(1).step_by(2).cloned().collect())
        }
    };
    Altered {
        game: game.clone(),
        round,
    }
}

fn every_table_is_checked<G: RoundGame + Clone>(game: &G) {
    for t in 0..game.round().tables.len() {
        let name = &game.round().tables[t].name;
        let result = check_round(&thinned(game, t), 7, 200);
        assert!(result.is_err(), "a thinned `{name}` went unnoticed");
    }
}

#[test]
fn a_round_that_disagrees_with_the_rules_is_an_error() {
    every_table_is_checked(&Nim::new(9));
    every_table_is_checked(&CooperativePennies::new());
    every_table_is_checked(&Pig::new(10));
}

#[test]
fn a_malformed_round_is_an_error_not_a_panic() {
    let nim = Nim::new(5);
    let mut round = nim.round().clone();
    round.variables.retain(|v| v.name != "take(1)");
    round.tables.clear();
    let altered = Altered { game: nim, round };
    let message = round_network(&altered, &altered.initial_state())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("player 1 has 0 action variables"),
        "{message}"
    );
}

/// In the initial state of cooperative matching pennies the feasible policies are the four joint
/// choices of alice and bob, each followed by chance's `noop`; in the second round, the one joint
/// `noop` with chance's flip.
#[test]
fn pennies_networks_have_the_joint_actions_as_policies() {
    let game = CooperativePennies::new();
    let mut state = game.initial_state();
    let first = round_network(&game, &state).unwrap();
    let solved = solve(&first.network, &SolveOptions::default()).unwrap();
    let joint: Vec<Vec<i64>> = solved
        .feasible
        .iter()
        .map(|s| first.actions.iter().map(|&a| s.assignment[a]).collect())
        .collect();
    assert_eq!(joint, vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
    game.play_joint(&mut state, &[0, 0]);
    let second = round_network(&game, &state).unwrap();
    let solved = solve(&second.network, &SolveOptions::default()).unwrap();
    assert_eq!(solved.feasible.len(), 1);
    assert_eq!(solved.feasible[0].assignment[second.actions[0]], 2);
}

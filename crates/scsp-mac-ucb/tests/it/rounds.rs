//! The hand-written games' rounds agree with their rules, and `check_round` notices when a round
//! does not.

use crate::common::{Altered, Luck};
use game_trait::round::{Relation, Round, VariableKind};
use game_trait::{Game, GeneralGame, Limits, RoundGame};
use scsp_mac_ucb::games::{CooperativePennies, Nim, Pig};
use scsp_mac_ucb::{check_round, round_network, solve, MacUcb, MacUcbConfig, SolveOptions};

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

/// Each way a description can be malformed is an error naming it — from `round_network`, from
/// `check_round` — and the player still answers with a legal move. Never a panic.
#[test]
fn a_malformed_round_is_an_error_not_a_panic() {
    type Change = fn(&mut Round);
    let changes: [(&str, Change, &str); 5] = [
        (
            "no action for player 1",
            |r| {
                let take = r
                    .variables
                    .iter_mut()
                    .find(|v| v.name == "take(1)")
                    .unwrap();
                take.kind = VariableKind::Auxiliary;
            },
            "player 1 has 0 action variables",
        ),
        (
            "a scope beyond the variables",
            |r| r.tables[0].scope.push(99),
            "names variable 99",
        ),
        (
            "a tuple shorter than its scope",
            |r| match &mut r.tables[0].relation {
                Relation::Allowed(tuples) => tuples.push(vec![1]),
                Relation::Utility(_) => unreachable!(),
            },
            "does not fit its scope",
        ),
        (
            "a value beyond its variable's",
            |r| match &mut r.tables[0].relation {
                Relation::Allowed(tuples) => tuples.push(vec![1, 7]),
                Relation::Utility(_) => unreachable!(),
            },
            "does not fit its scope",
        ),
        (
            "one player fewer than the game",
            |r| {
                r.players = 1;
                r.variables
                    .iter_mut()
                    .filter(|v| v.name == "take(1)")
                    .for_each(|v| v.kind = VariableKind::Auxiliary);
            },
            "the round has 1 players, the game 2",
        ),
    ];
    for (what, change, says) in changes {
        let nim = Nim::new(5);
        let mut round = nim.round().clone();
        change(&mut round);
        let game = Altered { game: nim, round };
        let root = game.initial_state();
        let message = round_network(&game, &root).unwrap_err().to_string();
        assert!(message.contains(says), "{what}: {message}");
        assert!(check_round(&game, 1, 3).is_err(), "{what}");
        let mut player = MacUcb::new(MacUcbConfig {
            samples: 100,
            ..MacUcbConfig::default()
        })
        .unwrap();
        let (result, analysis) = player.analyse(&game, &root, &Limits::none());
        assert!(matches!(result.best_move, Some(1..=3)), "{what}");
        assert!(
            analysis.fallback.is_some_and(|f| f.contains(says)),
            "{what}"
        );
    }
}

/// A game whose chance moves although its round has no chance variable.
#[test]
fn chance_without_a_chance_variable_is_an_error_not_a_panic() {
    let luck = Luck::new();
    let mut round = luck.round().clone();
    round
        .variables
        .iter_mut()
        .filter(|v| v.kind == VariableKind::Chance)
        .for_each(|v| v.kind = VariableKind::Auxiliary);
    let game = Altered { game: luck, round };
    let message = check_round(&game, 1, 5).unwrap_err().to_string();
    assert!(
        message.contains("chance moves, but the round has no chance variable"),
        "{message}"
    );
    let mut player = MacUcb::new(MacUcbConfig {
        samples: 100,
        ..MacUcbConfig::default()
    })
    .unwrap();
    let (result, _) = player.analyse(&game, &1, &Limits::none());
    assert_eq!(result.best_move, None); // a chance turn: nobody chooses
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

//! GDL games as rounds for MAC-UCB: `scsp::check_round` accepts their encoding, and `mac-ucb`
//! and `fc-ucb` specs play them through the registry.
#![cfg(all(feature = "gdl", feature = "scsp"))]

use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::gdl::{GdlRound, Loader};
use gametree::prelude::*;
use gametree::scsp::check_round;
use gametree::spec::{Spec, SpecError};

fn path(name: &str) -> String {
    format!("{}/../gdl/games/{name}.kif", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_players_checker_accepts_the_encoding_of_every_game_it_handles() {
    // Fewer playouts for a game with large tables: the checker scans them at every state.
    for (name, playouts) in [
        ("matching_pennies", 20),
        ("rps3", 20),
        ("montyhall", 20),
        ("dice_duel", 20),
        ("tictactoe", 20),
        ("orchard", 20),
        ("pickomino_mini", 5),
        ("yahtzee_mini", 5),
        ("cant_stop_mini", 20),
        ("backgammon_mini", 4),
    ] {
        let round = GdlRound::new(Loader::file(path(name)).load().unwrap()).unwrap();
        let states = check_round(&round, 3, playouts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(states > playouts, "{name}: {states}");
    }
}

/// Connect four's and Othello's rounds read whole lines through helper variables: the checker
/// fixes them from the state (and, for the transition, from the moves) before comparing.
#[test]
fn the_checker_accepts_rounds_with_helper_variables() {
    for (name, playouts) in [("connect4", 5), ("othello", 1)] {
        let round = GdlRound::new(Loader::file(path(name)).load().unwrap()).unwrap();
        let states = check_round(&round, 5, playouts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(states > 10 * playouts, "{name}: {states}");
    }
}

/// Builds the searcher and plays one search from the start, returning the move's name.
struct FirstMove(Spec);

impl GameVisitor for FirstMove {
    type Output = Result<Option<String>, SpecError>;
    fn visit<G: Registered>(self, game: &G, root: &G::State) -> Self::Output {
        let mut searcher = game.searcher(&self.0)?.searcher;
        let result = searcher.search(game, root, &Limits::none());
        Ok(result.best_move.map(|m| game.move_name(root, m)))
    }
}

fn first_move(game: &str, spec: &str) -> Result<Option<String>, SpecError> {
    let choice = GameChoice::parse(&path(game)).unwrap();
    let spec: Spec = spec.parse().unwrap();
    choice.visit_for(&spec.clone(), FirstMove(spec))
}

#[test]
fn mac_ucb_and_fc_ucb_specs_play_gdl_games() {
    for spec in ["mac-ucb:samples=200", "fc-ucb:samples=200"] {
        let mv = first_move("tictactoe", spec)
            .unwrap()
            .expect("xplayer moves");
        assert!(mv.starts_with("(mark "), "{spec}: {mv}");
        // Simultaneous: the move returned is player 0's, one of rock, paper, scissors.
        let mv = first_move("rps3", spec).unwrap().expect("a throw");
        assert!(!mv.is_empty(), "{spec}: {mv}");
    }
}

#[test]
fn mac_ucb_plays_connect_four_through_its_helper_variables() {
    let mv = first_move("connect4", "mac-ucb:samples=100")
        .unwrap()
        .expect("red moves");
    assert!(mv.starts_with("(drop "), "{mv}");
}

#[test]
fn a_game_the_encoder_cannot_handle_is_refused_with_the_reason() {
    let err = first_move("hex", "mac-ucb").unwrap_err().to_string();
    assert!(err.contains("cannot encode the game as a round"), "{err}");
    assert!(err.contains("depends on itself"), "{err}");
}

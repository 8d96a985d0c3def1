//! GDL games as rounds for MAC-UCB: `scsp::check_round` accepts their encoding, and `mac-ucb`
//! and `fc-ucb` specs play them through the registry.
#![cfg(all(feature = "gdl", feature = "scsp"))]

use gametree::game::ChanceList;
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::gdl::{FluentSet, GdlRound, Loader, ReasonerKind};
use gametree::prelude::*;
use gametree::scsp::encoding::Encoding;
use gametree::scsp::{
    check_round, check_state_networks, solve, Relation, RoundEncoder, RoundNetwork, ScspError,
    SolveOptions, StateEncoding,
};
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

/// Hex's winner is a recursive path, which the round encoder refuses; MAC-UCB then reads the
/// networks the rules give at each state, and plays.
#[test]
fn a_game_the_encoder_cannot_handle_is_played_by_its_per_state_networks() {
    let game = Loader::file(path("hex")).load().unwrap();
    let err = GdlRound::new(game).unwrap_err().to_string();
    assert!(err.contains("depends on itself"), "{err}");
    let mv = first_move("hex", "mac-ucb:samples=100").unwrap();
    assert!(
        mv.as_ref().is_some_and(|m| m.starts_with("(place ")),
        "{mv:?}"
    );
}

/// `networks=round` insists on the round encoding (and says why a game has none), `state` reads
/// the rules' networks even where the encoding exists, and both choose among the same moves; the
/// same seed and samples give the same move through either, since both grow the same tree.
#[test]
fn the_networks_parameter_chooses_between_the_round_and_the_rules() {
    let err = first_move("hex", "mac-ucb:samples=50,networks=round").unwrap_err();
    assert!(err.to_string().contains("networks=round"), "{err}");
    let by_round = first_move("tictactoe", "mac-ucb:samples=300,networks=round").unwrap();
    let by_state = first_move("tictactoe", "mac-ucb:samples=300,networks=state").unwrap();
    assert!(
        by_round.as_ref().is_some_and(|m| m.starts_with("(mark ")),
        "{by_round:?}"
    );
    assert_eq!(by_round, by_state);
}

/// Every shipped game's per-state networks, along seeded random games, have exactly the rules'
/// legal joint moves as feasible policies, read back as the rules' moves, and pay exactly the
/// payoffs of the finished successors (the games the reference reasoner plays aside: a random
/// game takes minutes there).
#[test]
fn every_shipped_game_has_the_rules_per_state_networks() {
    let dir = format!("{}/../gdl/games", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".kif").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        let game = Loader::file(path(&name)).load().unwrap();
        if game.reasoner_kind() == ReasonerKind::Reference {
            continue; // chess and amazons: a random game takes minutes
        }
        let playouts = match name.as_str() {
            "checkers" | "chess_groundable" => 1,
            _ => 3,
        };
        let states =
            check_state_networks(&game, 11, playouts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(states > 0, "{name}");
    }
}

/// Where both exist, the round encoding's networks and the per-state ones have the same feasible
/// joint moves in every state of seeded random games; a round with one legal tuple dropped
/// disagrees.
#[test]
fn the_round_and_the_per_state_networks_agree_and_a_broken_table_does_not() {
    for name in [
        "tictactoe",
        "dice_duel",
        "orchard",
        "pickomino_mini",
        "rps3",
    ] {
        let round = GdlRound::new(Loader::file(path(name)).load().unwrap()).unwrap();
        let encoder = RoundEncoder::new(&round).unwrap();
        let states = agreeing_states(&round, &encoder, 4).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(states > 4, "{name}");
    }
    let round = GdlRound::new(Loader::file(path("tictactoe")).load().unwrap()).unwrap();
    let broken = Broken(RoundEncoder::new(&round).unwrap());
    assert!(agreeing_states(&round, &broken, 4).is_err());
}

/// The round encoding with the first tuple of every legal table dropped from each network.
struct Broken(RoundEncoder);

impl Encoding<GdlRound> for Broken {
    fn network(&self, game: &GdlRound, state: &FluentSet) -> Result<RoundNetwork, ScspError> {
        let mut rn = self.0.network(game, state)?;
        for c in rn.network.constraints.iter_mut() {
            if let (true, Relation::Allowed(tuples)) =
                (c.name.starts_with("legal"), &mut c.relation)
            {
                tuples.truncate(tuples.len().saturating_sub(1));
            }
        }
        Ok(rn)
    }
    fn move_of(
        &self,
        g: &GdlRound,
        s: &FluentSet,
        p: Option<usize>,
        v: u32,
    ) -> gametree::gdl::GdlMove {
        self.0.move_of(g, s, p, v)
    }
    fn value_of(
        &self,
        g: &GdlRound,
        s: &FluentSet,
        p: Option<usize>,
        m: gametree::gdl::GdlMove,
    ) -> u32 {
        self.0.value_of(g, s, p, m)
    }
    fn state_values(&self, g: &GdlRound, s: &FluentSet, values: &mut Vec<u32>) {
        self.0.state_values(g, s, values)
    }
}

/// Plays `playouts` seeded random games of `rules` and compares, in each unfinished state, the
/// joint moves of the feasible policies of the networks `encoder` builds with those of the
/// per-state networks: the number of states compared, or the first disagreement.
fn agreeing_states<E: Encoding<GdlRound>>(
    rules: &GdlRound,
    encoder: &E,
    playouts: u64,
) -> Result<usize, String> {
    let game = rules;
    let by_rules = StateEncoding::for_game(rules).map_err(|e| e.to_string())?;
    let mut compared = 0;
    for seed in 0..playouts {
        let mut state = game.initial_state();
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while game.turn(&state) != Turn::Over {
            let turn = game.turn(&state);
            let by_round = joints_of(game, encoder, &state, turn)?;
            let by_state = joints_of(rules, &by_rules, &state, turn)?;
            if by_round != by_state {
                return Err(format!("{state:?}: {by_round:?} against {by_state:?}"));
            }
            compared += 1;
            let joints: Vec<&Vec<String>> = by_round.iter().collect();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let joint = joints[(rng % joints.len() as u64) as usize].clone();
            play_named(rules, &mut state, &joint, rng);
        }
    }
    Ok(compared)
}

/// The joint moves (by name, players asked only) of the feasible policies of `state`'s network.
fn joints_of<G: GeneralGame, E: Encoding<G>>(
    game: &G,
    encoding: &E,
    state: &G::State,
    turn: Turn,
) -> Result<std::collections::BTreeSet<Vec<String>>, String> {
    let rn = encoding.network(game, state).map_err(|e| e.to_string())?;
    let solved = solve(&rn.network, &SolveOptions::default()).map_err(|e| e.to_string())?;
    let asked: Vec<usize> = (0..game.players())
        .filter(|&p| match turn {
            Turn::Player(q) => p == q,
            Turn::Simultaneous => true,
            _ => false,
        })
        .collect();
    Ok((solved.feasible.iter())
        .map(|s| {
            (asked.iter())
                .map(|&p| {
                    let value = s.assignment[rn.actions[p]] as u32;
                    let mv = encoding.move_of(game, state, Some(p), value);
                    game.move_name(state, mv)
                })
                .collect()
        })
        .collect())
}

/// Plays the joint move named `joint` (players asked only) and a chance outcome picked by `pick`.
fn play_named(game: &GdlRound, state: &mut FluentSet, joint: &[String], pick: u64) {
    let turn = game.turn(state);
    let mut moves = MoveList::new();
    let mut named = joint.iter();
    let mut chosen = Vec::new();
    for p in 0..game.players() {
        game.legal_moves(state, p, &mut moves);
        let asked = matches!(turn, Turn::Simultaneous) || turn == Turn::Player(p);
        let mv = if asked {
            let name = named.next().expect("a move per player asked");
            *moves
                .iter()
                .find(|&&m| &game.move_name(state, m) == name)
                .unwrap()
        } else {
            moves[0]
        };
        chosen.push(mv);
    }
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    match turn {
        Turn::Player(p) => game.play(state, chosen[p]),
        Turn::Chance => game.play(state, outcomes[(pick % outcomes.len() as u64) as usize].0),
        _ => {
            if !outcomes.is_empty() {
                chosen.push(outcomes[(pick % outcomes.len() as u64) as usize].0);
            }
            game.play_joint(state, &chosen);
        }
    }
}

//! MAC-UCB's sequence reading on GDL games, against exact values: tic-tac-toe solved as a draw
//! and never lost against a perfect opponent, the small Orchards' optimum approached; and the
//! baselines of the paper's tables (UCT with its solver, reusing its tree) on the hand-written
//! games.
#![cfg(all(feature = "gdl", feature = "scsp", feature = "search"))]

use std::collections::HashMap;

use gametree::gdl::{FluentSet, GdlRound, Loader};
use gametree::prelude::*;
use gametree::scsp::games::{CooperativePennies, Nim, Pig};
use gametree::scsp::{MacUcb, MacUcbConfig};
use gametree::search::{Uct, UctConfig};

fn round(name: &str) -> GdlRound {
    let path = format!("{}/../gdl/games/{name}.kif", env!("CARGO_MANIFEST_DIR"));
    GdlRound::new(Loader::file(path).load().unwrap()).unwrap()
}

/// The value of the best policy from `state` for every player (the mover's best move for the
/// mover, the first of equals; chance's outcomes averaged), by a memoised search through the
/// rules: the oracle.
fn best_policy(
    game: &GdlRound,
    state: &FluentSet,
    memo: &mut HashMap<FluentSet, Vec<f64>>,
) -> Vec<f64> {
    if let Some(v) = memo.get(state) {
        return v.clone();
    }
    let players = game.players();
    let value = match game.turn(state) {
        Turn::Over => (0..players).map(|p| game.payoff(state, p)).collect(),
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            game.legal_moves(state, p, &mut moves);
            let mut best: Option<Vec<f64>> = None;
            for &mv in &moves {
                let mut child = state.clone();
                game.play(&mut child, mv);
                let v = best_policy(game, &child, memo);
                if best.as_ref().map_or(true, |b| v[p] > b[p]) {
                    best = Some(v);
                }
            }
            best.expect("a player to move has a move")
        }
        turn => panic!("{turn:?}: the oracle plays turn-taking games"),
    };
    memo.insert(state.clone(), value.clone());
    value
}

/// Every state reachable from the start of `game`.
fn reachable(game: &GdlRound) -> Vec<FluentSet> {
    let mut seen = HashMap::new();
    let mut stack = vec![game.initial_state()];
    let mut moves = MoveList::new();
    while let Some(state) = stack.pop() {
        if seen.insert(state.clone(), ()).is_some() {
            continue;
        }
        if let Turn::Player(p) = game.turn(&state) {
            game.legal_moves(&state, p, &mut moves);
            for &mv in &moves {
                let mut child = state.clone();
                game.play(&mut child, mv);
                stack.push(child);
            }
        }
    }
    seen.into_keys().collect()
}

/// From the start, the sequence reading explores all of tic-tac-toe within 10,000 samples and
/// knows it is a draw (the paper: "all the search tree is explored using only 5s per move").
/// Then, from every reachable position where the side to move has not already lost (by the
/// oracle), the same player, keeping its tree, never loses against a perfect opponent.
#[test]
fn tic_tac_toe_is_solved_as_a_draw_and_never_lost() {
    let game = round("tictactoe");
    let start = game.initial_state();
    let mut player = MacUcb::new(MacUcbConfig {
        samples: 10_000,
        ..MacUcbConfig::default()
    })
    .unwrap();
    let (result, analysis) = player.analyse(&game, &start, &Limits::none());
    assert!(analysis.exact, "{} samples", analysis.samples);
    assert_eq!(result.value, 0, "a draw");

    let mut memo = HashMap::new();
    let mut games = 0;
    for position in reachable(&game) {
        let Turn::Player(me) = game.turn(&position) else {
            continue;
        };
        let value = best_policy(&game, &position, &mut memo)[me];
        if value < 0.5 {
            continue; // lost whatever it plays
        }
        games += 1;
        let mut state = position.clone();
        while let Turn::Player(p) = game.turn(&state) {
            let mv = if p == me {
                player
                    .search(&game, &state, &Limits::none())
                    .best_move
                    .unwrap()
            } else {
                perfect_move(&game, &state, p, &mut memo)
            };
            game.play(&mut state, mv);
        }
        let got = game.payoff(&state, me);
        assert!(
            got >= value,
            "from {position:?}: {got} where {value} was certain"
        );
    }
    assert!(games > 3_000, "{games} positions");
}

/// The oracle's move for `p` in `state`: the first of its best.
fn perfect_move(
    game: &GdlRound,
    state: &FluentSet,
    p: usize,
    memo: &mut HashMap<FluentSet, Vec<f64>>,
) -> gametree::gdl::GdlMove {
    let mut moves = MoveList::new();
    game.legal_moves(state, p, &mut moves);
    let values: Vec<f64> = (moves.iter())
        .map(|&mv| {
            let mut child = state.clone();
            game.play(&mut child, mv);
            best_policy(game, &child, memo)[p]
        })
        .collect();
    let best = values.iter().copied().fold(f64::MIN, f64::max);
    moves[values.iter().position(|&v| v == best).unwrap()]
}

/// The shipped Orchard with `fruits` on each tree and a raven of `raven` pieces.
fn small_orchard(fruits: u32, raven: u32) -> GdlRound {
    let text = include_str!("../../gdl/games/orchard.kif");
    let mut text = text.replace("(true (raven 9))", &format!("(true (raven {raven}))"));
    for tree in ["apple", "pear", "plum", "cherry"] {
        let shipped = format!("(init (fruits {tree} 10))");
        assert!(text.contains(&shipped));
        text = text.replace(&shipped, &format!("(init (fruits {tree} {fruits}))"));
    }
    GdlRound::new(Loader::text(&text).load().unwrap()).unwrap()
}

/// Orchard is cooperative, and a die face whose tree is empty passes the turn, so play can come
/// back to a state and the tree of solved networks never closes. Its value still approaches the
/// optimum that value iteration computes in `gdl`'s tests (`crates/gdl/tests/it/orchard.rs`):
/// 1 fruit a tree and a raven of 2 pieces are won with probability 0.72903 under optimal play.
#[test]
fn the_small_orchards_value_approaches_the_optimum() {
    let game = small_orchard(1, 2);
    let start = game.initial_state();
    let mut player = MacUcb::new(MacUcbConfig {
        samples: 20_000,
        ..MacUcbConfig::default()
    })
    .unwrap();
    let (_, analysis) = player.analyse(&game, &start, &Limits::none());
    let mean = analysis.arms[analysis.chosen.unwrap()]
        .mean
        .clone()
        .unwrap()[0];
    assert!((mean - 0.72903).abs() < 0.03, "{mean}");
}

/// The paper's UCT baseline keeps its tree between moves, which needs state keys: the
/// hand-written games have them, so a second search reuses the first one's simulations.
#[test]
fn uct_reuses_its_tree_on_the_hand_written_games() {
    fn reused<G: GeneralGame>(game: &G) -> u64 {
        let mut uct = Uct::new(UctConfig {
            simulations: 2_000,
            reuse: true,
            solver: true,
            ..UctConfig::default()
        });
        let root = game.initial_state();
        uct.analyse(game, &root, &Limits::none());
        uct.analyse(game, &root, &Limits::none()).reused
    }
    assert!(reused(&Nim::new(11)) > 0);
    assert!(reused(&CooperativePennies::new()) > 0);
    assert!(reused(&Pig::new(20)) > 0);
}

/// A searcher kept from one game to the next, the games loaded into the same variable (so at the
/// same address): what it learned of the first (MAC-UCB's index of the round, UCT's tree) must
/// not be taken for the second's.
#[test]
fn a_searcher_kept_across_games_at_one_address_starts_afresh() {
    let mut mac = MacUcb::new(MacUcbConfig {
        samples: 200,
        ..MacUcbConfig::default()
    })
    .unwrap();
    let mut uct = Uct::new(UctConfig {
        simulations: 2_000,
        reuse: true,
        solver: true,
        ..UctConfig::default()
    });
    let mut game;
    let mut moves = MoveList::new();
    for name in ["tictactoe", "connect4", "tictactoe", "breakthrough"] {
        game = round(name);
        let start = game.initial_state();
        game.legal_moves(&start, 0, &mut moves);
        let (mac_result, analysis) = mac.analyse(&game, &start, &Limits::none());
        // Read through another game's index, the round would not fit, and the search would
        // fall back to networks read off the rules.
        assert_eq!(analysis.fallback, None, "{name}");
        let mv = mac_result.best_move.expect("a move");
        assert!(
            moves.contains(&mv),
            "{name}: MAC-UCB plays {}",
            game.game().move_term(mv)
        );
        let analysis = uct.analyse(&game, &start, &Limits::none());
        assert_eq!(analysis.reused, 0, "{name}: UCT reused another game's tree");
        let mv = analysis.result.best_move.expect("a move");
        assert!(
            moves.contains(&mv),
            "{name}: UCT plays {}",
            game.game().move_term(mv)
        );
    }
}

/// The hand-written games' parameters are part of their identity.
#[test]
fn the_hand_written_games_are_identified_by_their_parameters() {
    assert_eq!(Nim::new(11).identity(), Nim::new(11).identity());
    assert_ne!(Nim::new(11).identity(), Nim::new(12).identity());
    assert_ne!(Pig::new(20).identity(), Pig::new(30).identity());
}

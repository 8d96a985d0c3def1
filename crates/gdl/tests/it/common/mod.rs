//! What the gdl integration tests share: loading the shipped games, successors, perft under either
//! convention for finished games, the moves at a node by name, and the exact value of a small
//! game through the rules and through a test's own model of them. Everything goes through the
//! public API, as a user's code would.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

use game_trait::{ChanceList, Game, GeneralGame, MoveList, Turn};
use gdl::{FluentSet, GdlGame, GdlMove, Limits, Loader, ReasonerKind};

/// The path of shipped game `name` (`"chess.kif"`).
pub fn path(name: &str) -> String {
    format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Shipped game `name` with the default limits.
pub fn load(name: &str) -> GdlGame {
    Loader::file(path(name))
        .load()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `text` played by the reference reasoner evaluating goal-directed (what a game too large to
/// ground gets): grounding is given no ground rule at all.
pub fn goal_directed_text(text: &str, name: &str) -> GdlGame {
    let limits = Limits {
        ground_rules: 0,
        ..Limits::default()
    };
    let g = Loader::text(text)
        .name(name)
        .limits(&limits)
        .load()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(g.reasoner_kind(), ReasonerKind::Reference, "{name}");
    g
}

/// Shipped game `name`, goal-directed ([`goal_directed_text`]).
pub fn goal_directed(name: &str) -> GdlGame {
    let text = std::fs::read_to_string(path(name)).expect("shipped game");
    goal_directed_text(&text, name)
}

/// The state after `mv` (`s` itself at a finished game).
pub fn child(g: &GdlGame, s: &FluentSet, mv: GdlMove) -> FluentSet {
    let mut s = s.clone();
    g.apply(&mut s, mv).unwrap_or(s)
}

/// How perft counts a game that ends before the depth asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    /// As one leaf (the convention of most published tables).
    Leaf,
    /// As no leaf (chess perft: a mated side has no moves, so no leaves below).
    Nothing,
}

/// The move sequences `depth` rounds long below `s`: every legal move of the player at a turn,
/// every outcome at a chance node, every joint move (and outcome) at a simultaneous round.
pub fn perft(g: &GdlGame, s: &FluentSet, depth: u32, finished: Finished) -> u64 {
    if depth == 0 {
        return 1;
    }
    let below = |play: &dyn Fn(&mut FluentSet)| {
        let mut c = s.clone();
        play(&mut c);
        perft(g, &c, depth - 1, finished)
    };
    match g.turn(s) {
        Turn::Over => match finished {
            Finished::Leaf => 1,
            Finished::Nothing => 0,
        },
        // Every child counts 1 at the last depth, finished or not.
        Turn::Player(p) if depth == 1 => legal(g, s, p).len() as u64,
        Turn::Player(p) => (legal(g, s, p).iter())
            .map(|&m| below(&|c| g.play(c, m)))
            .sum(),
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(s, &mut outcomes);
            (outcomes.iter())
                .map(|&(m, _)| below(&|c| g.play(c, m)))
                .sum()
        }
        Turn::Simultaneous => (joints(g, s).iter())
            .map(|j| below(&|c| g.play_joint(c, j)))
            .sum(),
    }
}

/// Every joint move at a simultaneous round: the players' moves, then chance's outcome if it
/// moves too.
fn joints(g: &GdlGame, s: &FluentSet) -> Vec<Vec<GdlMove>> {
    let mut joints = vec![Vec::new()];
    for p in 0..g.players() {
        let moves = legal(g, s, p);
        joints = (joints.iter())
            .flat_map(|j| moves.iter().map(move |&m| [&j[..], &[m]].concat()))
            .collect();
    }
    let mut outcomes = ChanceList::new();
    g.chance_outcomes(s, &mut outcomes);
    if !outcomes.is_empty() {
        joints = (joints.iter())
            .flat_map(|j| outcomes.iter().map(move |&(m, _)| [&j[..], &[m]].concat()))
            .collect();
    }
    joints
}

/// Perft at depths 1 to `depths` from the start.
pub fn perfts(g: &GdlGame, depths: u32, finished: Finished) -> Vec<u64> {
    let s = g.initial_state();
    (1..=depths).map(|d| perft(g, &s, d, finished)).collect()
}

/// Player `p`'s legal moves at `s`.
pub fn legal(g: &GdlGame, s: &FluentSet, p: usize) -> MoveList<GdlMove> {
    let mut moves = MoveList::new();
    g.legal_moves(s, p, &mut moves);
    moves
}

/// The names of `moves`, sorted: how the tests compare a role's moves with their own model's.
pub fn sorted_names(g: &GdlGame, moves: &[GdlMove]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|&m| g.move_term(m)).collect();
    names.sort();
    names
}

/// Every role's moves at `s`, by sorted name, are a test model's: `expected[role]` (sorted).
/// `model` is shown on a failure.
pub fn assert_moves_agree(g: &GdlGame, s: &FluentSet, expected: &[Vec<String>], model: &dyn Debug) {
    for (role, expected) in expected.iter().enumerate() {
        let moves = sorted_names(g, &g.role_moves(s, role));
        assert_eq!(&moves, expected, "{}: {model:?}", g.roles()[role]);
    }
}

/// Every role's payoff at `s` is a test model's goal: `goals[role]`. `model` is shown on a failure.
pub fn assert_payoffs_agree(g: &GdlGame, s: &FluentSet, goals: &[f64], model: &dyn Debug) {
    for (p, goal) in goals.iter().enumerate() {
        assert_eq!(g.payoff(s, p), *goal, "{model:?}");
    }
}

/// `s` is chance's turn with two outcomes of probability ½ (a coin, or a die's two halves).
pub fn assert_even_coin(g: &GdlGame, s: &FluentSet) {
    let c = choices(g, s);
    assert_eq!(c.len(), 2);
    assert!(c.iter().all(|&(_, _, p)| p == 0.5));
}

/// The choices at `s` of a game without simultaneous moves, by name: the player's moves (each
/// with probability one over their number) or chance's outcomes with their probabilities; none
/// at a finished game.
pub fn choices(g: &GdlGame, s: &FluentSet) -> Vec<(String, GdlMove, f64)> {
    match g.turn(s) {
        Turn::Player(p) => {
            let moves = legal(g, s, p);
            let p = 1.0 / moves.len() as f64;
            moves.iter().map(|&m| (g.move_term(m), m, p)).collect()
        }
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(s, &mut outcomes);
            (outcomes.iter())
                .map(|&(m, p)| (g.move_term(m), m, p))
                .collect()
        }
        Turn::Over => Vec::new(),
        Turn::Simultaneous => panic!("{} has simultaneous moves", g.source_name()),
    }
}

/// Player `me`'s payoff under optimal play by both players of a two-player constant-sum game
/// with chance, through the description: `me` maximises, the other minimises, chance averages by
/// its probabilities. `memo` must be empty or hold values of this game for `me`; the game must
/// not return to a state.
pub fn value_by_rules(
    g: &GdlGame,
    s: &FluentSet,
    me: usize,
    memo: &mut HashMap<FluentSet, f64>,
) -> f64 {
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let mut value_after = |mv: GdlMove| {
        let mut next = s.clone();
        g.play(&mut next, mv);
        value_by_rules(g, &next, me, memo)
    };
    let v = match g.turn(s) {
        Turn::Over => g.payoff(s, me),
        Turn::Player(p) => {
            let values = legal(g, s, p).into_iter().map(&mut value_after);
            if p == me {
                values.fold(0.0, f64::max)
            } else {
                values.fold(1.0, f64::min)
            }
        }
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(s, &mut outcomes);
            outcomes.iter().map(|&(m, p)| p * value_after(m)).sum()
        }
        Turn::Simultaneous => panic!("{} has simultaneous moves", g.source_name()),
    };
    memo.insert(s.clone(), v);
    v
}

/// A test's own model of a two-player game whose chance moves are uniform among the outcomes it
/// lists (dice), for [`value_by_model`].
pub trait GameModel: Clone + Eq + Hash {
    /// Who chooses and among what: a player (0 or 1) or chance (any other index); `None` once the
    /// game is over.
    fn chooser(&self) -> Option<(usize, Vec<String>)>;
    /// Plays the chooser's move.
    fn play(&mut self, mv: &str);
    /// Player `p`'s payoff in a finished game, from 0 to 1.
    fn payoff(&self, p: usize) -> f64;
}

/// The model's move sequences `depth` moves long (a game that ends sooner counts 1).
pub fn model_perft<M: GameModel>(m: &M, depth: u32) -> u64 {
    match m.chooser() {
        Some((_, moves)) if depth > 0 => (moves.iter())
            .map(|mv| {
                let mut next = m.clone();
                next.play(mv);
                model_perft(&next, depth - 1)
            })
            .sum(),
        _ => 1,
    }
}

/// [`value_by_rules`] through a model.
pub fn value_by_model<M: GameModel>(m: &M, me: usize, memo: &mut HashMap<M, f64>) -> f64 {
    if let Some(&v) = memo.get(m) {
        return v;
    }
    let v = match m.chooser() {
        None => m.payoff(me),
        Some((who, moves)) => {
            let n = moves.len() as f64;
            let values = moves.iter().map(|mv| {
                let mut next = m.clone();
                next.play(mv);
                value_by_model(&next, me, memo)
            });
            match who {
                p if p == me => values.fold(0.0, f64::max),
                0 | 1 => values.fold(1.0, f64::min),
                _ => values.sum::<f64>() / n,
            }
        }
    };
    memo.insert(m.clone(), v);
    v
}

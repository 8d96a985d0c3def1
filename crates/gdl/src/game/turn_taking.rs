//! [`TurnTaking`]: the two-player view of a turn-taking, constant-sum GDL game, so that negamax
//! searchers (Minimax, AlphaBeta, PVS, ...) run on it; and [`GoalEvaluator`], its default static
//! evaluation.

use game_trait::{
    Evaluator, Game, GeneralGame, MoveList, Outcome, PlayerId, Score, Turn, ZeroSumGame,
};
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::error::GdlError;
use crate::game::fluents::FluentSet;
use crate::game::{GdlGame, GdlMove};

/// A state of the two-player view: the fluents plus who moved last (so that a finished game knows
/// whose point of view its [`ZeroSumGame::outcome`] takes: the player who would move next).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnState {
    /// The GDL state.
    pub fluents: FluentSet,
    /// The player who made the last move (1 at the start, so player 0 is "next" in an empty game).
    pub last_mover: u8,
}

/// A two-player, turn-taking, constant-sum GDL game as a [`ZeroSumGame`].
///
/// # Checks made by [`TurnTaking::new`]
/// * exactly two players and no `random` role (errors otherwise: these are decidable);
/// * along [`TurnTaking::DEFAULT_PLAYOUTS`] seeded random playouts (a *sampled* check, not a proof):
///   every non-terminal state visited is a [`Turn::Player`] node (one player chooses, the other's only
///   move is `noop`-like), and the goal values at every terminal state reached sum to the same
///   constant.
///
/// The side to move is the player with a choice; at a finished game it is the player who did not
/// make the last move. The [`outcome`](ZeroSumGame::outcome)'s margin is the goal difference
/// `goal(side) − goal(other)` in goal units (−100..100). As a [`GeneralGame`] (for UCT) its payoffs
/// are therefore win, draw or loss; play the wrapped [`GdlGame`] for payoffs that are the goal values
/// themselves.
#[derive(Clone, Debug)]
pub struct TurnTaking {
    game: GdlGame,
}

impl TurnTaking {
    /// The number of random playouts [`TurnTaking::new`] samples.
    pub const DEFAULT_PLAYOUTS: usize = 64;

    /// Wraps `game` after the checks in the type docs (seed 0).
    pub fn new(game: GdlGame) -> Result<TurnTaking, GdlError> {
        TurnTaking::with_check(game, TurnTaking::DEFAULT_PLAYOUTS, 0)
    }

    /// Wraps `game`, sampling `playouts` seeded random playouts for the turn-taking and constant-sum
    /// checks.
    pub fn with_check(game: GdlGame, playouts: usize, seed: u64) -> Result<TurnTaking, GdlError> {
        if game.players() != 2 {
            return Err(GdlError::NotTurnTaking(format!(
                "{} players",
                game.players()
            )));
        }
        if game.has_random() {
            return Err(GdlError::NotTurnTaking(
                "the game has a `random` (chance) role".into(),
            ));
        }
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut sum = None;
        let mut moves = MoveList::new();
        for _ in 0..playouts {
            let mut state = game.initial_state();
            for _ in 0..100_000 {
                match game.turn(&state) {
                    Turn::Over => break,
                    Turn::Player(p) => {
                        game.legal_moves(&state, p, &mut moves);
                        let mv = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
                        game.play(&mut state, mv);
                    }
                    other => {
                        return Err(GdlError::NotTurnTaking(format!(
                            "a reachable state is a {other:?} node: {}",
                            game.fluent_names(&state).join(" ")
                        )))
                    }
                }
            }
            let g = game.goals(&state);
            let total: u32 = g.iter().map(|v| v.unwrap_or(0) as u32).sum();
            match sum {
                None => sum = Some(total),
                Some(s) if s != total => {
                    return Err(GdlError::NotTurnTaking(format!(
                        "goal values sum to {s} in one terminal state and to {total} in another"
                    )))
                }
                Some(_) => {}
            }
        }
        Ok(TurnTaking { game })
    }

    /// The wrapped game.
    pub fn game(&self) -> &GdlGame {
        &self.game
    }

    fn goal_difference(&self, state: &TurnState) -> Option<i32> {
        let side = self.side_to_move(state);
        let goals = self.game.goals(&state.fluents);
        let (me, other) = (
            goals.get(side).copied().flatten()?,
            goals.get(1 - side).copied().flatten()?,
        );
        Some(me as i32 - other as i32)
    }
}

impl Game for TurnTaking {
    type State = TurnState;
    type Move = GdlMove;

    fn initial_state(&self) -> TurnState {
        TurnState {
            fluents: self.game.initial_state(),
            last_mover: 1,
        }
    }

    fn identity(&self) -> Option<u64> {
        self.game.identity()
    }

    fn apply(&self, state: &mut TurnState, mv: GdlMove) -> Option<TurnState> {
        let mover = self.side_to_move(state) as u8;
        let fluents = self.game.apply(&mut state.fluents, mv)?;
        Some(TurnState {
            fluents,
            last_mover: mover,
        })
    }

    fn state_hash(&self, state: &TurnState) -> Option<u64> {
        let mover = u64::from(state.last_mover).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Some(state.fluents.hash64() ^ mover)
    }

    fn move_name(&self, state: &TurnState, mv: GdlMove) -> String {
        self.game.move_name(&state.fluents, mv)
    }
}

impl ZeroSumGame for TurnTaking {
    fn side_to_move(&self, state: &TurnState) -> PlayerId {
        match self.game.turn(&state.fluents) {
            Turn::Player(p) => p,
            _ => 1 - state.last_mover.min(1) as usize,
        }
    }

    /// At a terminal state, the goal difference `goal(side) − goal(other)` (0 if a goal is
    /// missing).
    fn outcome(&self, state: &TurnState) -> Option<Outcome> {
        match self.game.turn(&state.fluents) {
            Turn::Over => Some(Outcome::margin_of(self.goal_difference(state).unwrap_or(0))),
            _ => None,
        }
    }

    fn moves(&self, state: &TurnState, moves: &mut MoveList<GdlMove>) {
        if let Turn::Player(p) = self.game.turn(&state.fluents) {
            self.game.legal_moves(&state.fluents, p, moves);
        }
    }
}

/// The default static evaluation of [`TurnTaking`] games in progress: the goal difference
/// `goal(side) − goal(other)` *as the rules define it in the current state* (many descriptions give
/// goal values in every state, e.g. the current piece count), times 1000, or 0 where a player has no
/// goal value. A classic GGP heuristic (goal-based evaluation), cheap and game-independent.
/// Finished games are scored by their outcome, the final goal difference, above every evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct GoalEvaluator;

impl Evaluator<TurnTaking> for GoalEvaluator {
    fn evaluate(&mut self, game: &TurnTaking, state: &TurnState) -> Score {
        game.goal_difference(state).map_or(0, |d| d * 1000)
    }
}

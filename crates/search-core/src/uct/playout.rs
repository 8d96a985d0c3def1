//! Playout policies: how UCT picks moves below its tree.

use game_trait::{GeneralGame, PlayerId};
use rand::Rng;
use rand_pcg::Pcg64;

/// Chooses a player's move during a playout (the simulation below UCT's tree).
///
/// Chance moves are never asked: playouts draw them from [`GeneralGame::chance_outcomes`] with their
/// probabilities. At a `Simultaneous` node the policy is asked once per player, in player order.
///
/// Draw every random choice from `rng` (the search's seeded generator) so that searches stay
/// deterministic for a given seed.
pub trait PlayoutPolicy<G: GeneralGame> {
    /// Index in `moves` (never empty) of the move `player` plays in `state`; must be `< moves.len()`.
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: PlayerId,
        moves: &[G::Move],
        rng: &mut Pcg64,
    ) -> usize;
}

/// The default playout policy: every legal move with equal probability (Kocsis & Szepesvári's
/// "Monte-Carlo" rollouts; the uniform sampling of Koriche, Lagrue, Piette and Tabary's MAC-UCB,
/// *General Game Playing with Stochastic CSP*, 2016).
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPlayout;

impl<G: GeneralGame> PlayoutPolicy<G> for UniformPlayout {
    #[inline]
    fn choose(
        &mut self,
        _: &G,
        _: &G::State,
        _: PlayerId,
        moves: &[G::Move],
        rng: &mut Pcg64,
    ) -> usize {
        rng.gen_range(0..moves.len())
    }
}

impl<G: GeneralGame, P: PlayoutPolicy<G> + ?Sized> PlayoutPolicy<G> for &mut P {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: PlayerId,
        moves: &[G::Move],
        rng: &mut Pcg64,
    ) -> usize {
        (**self).choose(game, state, player, moves, rng)
    }
}

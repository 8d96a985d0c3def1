//! How much of UCT's tree survives from one move to the next: two UCT players with
//! [`UctConfig::reuse`] play a GDL game, each with its own searcher, and every search reports the
//! simulations it ran and those it found in the tree its previous search left.
//!
//! `cargo run --release -p gametree --example uct_reuse -- [GAME.kif] [SIMULATIONS] [SEED]`
//!
//! (connect four from `crates/gdl/games`, 5,000 simulations per move, seed 1, by default.) Each
//! player's search finds its state two plies below its last root: its own move and the reply.

use std::time::Instant;

use gametree::game::{Game, GeneralGame, Limits, Turn};
use gametree::gdl::Loader;
use gametree::search::{Uct, UctConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../gdl/games/connect4.kif").to_string()
    });
    let simulations: u64 = args.next().map_or(Ok(5_000), |s| s.parse())?;
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse())?;
    let game = Loader::text(&std::fs::read_to_string(&path)?)
        .name(&path)
        .load()?;
    let mut players: Vec<Uct> = (0..game.players())
        .map(|p| {
            Uct::new(UctConfig {
                simulations,
                seed: seed + p as u64,
                reuse: true,
                ..UctConfig::default()
            })
        })
        .collect();
    let mut state = game.initial_state();
    let (mut searched, mut reused, mut plies) = (0u64, 0u64, 0u64);
    println!("ply player move            reused   share  tree nodes      ms");
    while let Turn::Player(p) = game.turn(&state) {
        let start = Instant::now();
        let a = players[p].analyse(&game, &state, &Limits::none());
        let mv = a.result.best_move.ok_or("no move")?;
        let share = a.reused as f64 / (a.reused + a.simulations) as f64;
        println!(
            "{plies:>3} {:>6} {:<15} {:>6} {:>6.1}% {:>11} {:>7}",
            game.player_name(p),
            game.move_name(&state, mv),
            a.reused,
            100.0 * share,
            a.tree_nodes,
            start.elapsed().as_millis()
        );
        searched += a.simulations;
        reused += a.reused;
        plies += 1;
        game.play(&mut state, mv);
    }
    println!(
        "{plies} searches of {simulations} simulations: {reused} reused, {:.1} per search, \
         {:.1}% of the simulations behind the moves played",
        reused as f64 / plies.max(1) as f64,
        100.0 * reused as f64 / (reused + searched).max(1) as f64
    );
    Ok(())
}

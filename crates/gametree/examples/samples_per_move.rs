//! How many samples (MAC-UCB, FC-UCB) or simulations (UCT) two searchers draw in the same time at
//! every state of one game: what a player's cost per sample does to it at equal time.
//!
//! `cargo run --release -p gametree --example samples_per_move -- GAME [SPEC_A] [SPEC_B] [MS]`
//!
//! (by default `mac-ucb` against `uct:reuse=true,solver=true`, the searchers of
//! `gametree reproduce scsp-table3`, 30 ms a search.) `GAME` is a game name or file, as for
//! `gametree search`. Both searchers search every state for `MS` milliseconds, each keeping its
//! own tree from move to move; A's move is played where player 0 moves, B's elsewhere, and
//! chance's outcomes are drawn by their probabilities from a fixed seed. It prints the
//! `evaluated` count of both searches every ten plies, then their means over the game. Run it
//! with nothing else on the machine: the counts are the machine's speed.

use std::time::Duration;

use gametree::game::{ChanceList, Limits, Turn};
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::spec::Spec;

/// Plays one game with searchers `specs` given `time` a search; an error if a spec does not
/// build or a game reaches a simultaneous turn (a joint move this driver does not assemble).
struct SamplesPerMove {
    specs: [Spec; 2],
    time: Duration,
}

impl GameVisitor for SamplesPerMove {
    type Output = Result<(), String>;

    fn visit<G: Registered>(self, game: &G, root: &G::State) -> Result<(), String> {
        let mut searchers = Vec::new();
        for spec in &self.specs {
            searchers.push(game.searcher(spec).map_err(|e| e.to_string())?.searcher);
        }
        println!(
            "ply      A      B   ({} | {})",
            self.specs[0], self.specs[1]
        );
        let (mut state, mut ply) = (root.clone(), 0u64);
        let (mut totals, mut outcomes, mut rng) = ([0u64; 2], ChanceList::new(), 1u64);
        loop {
            let mover = match game.turn(&state) {
                Turn::Over => break,
                Turn::Player(p) => p,
                Turn::Chance => {
                    game.chance_outcomes(&state, &mut outcomes);
                    rng = gametree::game::hash::splitmix64(rng);
                    let mv = draw(&outcomes, rng).ok_or("chance has no outcome")?;
                    game.play(&mut state, mv);
                    continue;
                }
                Turn::Simultaneous => return Err("a simultaneous turn: not supported here".into()),
            };
            let mut counts = [0u64; 2];
            let mut chosen = None;
            for (k, searcher) in searchers.iter_mut().enumerate() {
                let limits = Limits::none().with_time(self.time);
                let found = searcher.search(game, &state, &limits);
                counts[k] = found.stats.evaluated;
                if (k == 0) == (mover == 0) {
                    chosen = found.best_move;
                }
            }
            totals[0] += counts[0];
            totals[1] += counts[1];
            if ply % 10 == 0 {
                println!("{ply:>3} {:>6} {:>6}", counts[0], counts[1]);
            }
            let mv = chosen.ok_or_else(|| format!("no move at ply {ply}"))?;
            game.play(&mut state, mv);
            ply += 1;
        }
        let mean = |t: u64| t as f64 / ply.max(1) as f64;
        println!(
            "mean over {ply} plies: A {:.0}, B {:.0}",
            mean(totals[0]),
            mean(totals[1])
        );
        Ok(())
    }
}

/// The outcome `bits` (uniformly random) picks by the outcomes' probabilities.
fn draw<M: Copy>(outcomes: &[(M, f64)], bits: u64) -> Option<M> {
    let mut u = (bits >> 11) as f64 / (1u64 << 53) as f64;
    let hit = outcomes.iter().find(|&&(_, p)| {
        let hit = u < p;
        u -= p;
        hit
    });
    hit.or(outcomes.last()).map(|&(mv, _)| mv)
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("samples_per_move: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let game = args
        .next()
        .ok_or("usage: samples_per_move GAME [SPEC_A] [SPEC_B] [MS]")?;
    let a = args.next().unwrap_or_else(|| "mac-ucb".into());
    let b = args
        .next()
        .unwrap_or_else(|| "uct:reuse=true,solver=true".into());
    let ms: u64 = args.next().map_or(Ok(30), |s| s.parse())?;
    let visitor = SamplesPerMove {
        specs: [a.parse()?, b.parse()?],
        time: Duration::from_millis(ms),
    };
    GameChoice::parse(&game)?.visit_general(visitor)?;
    Ok(())
}

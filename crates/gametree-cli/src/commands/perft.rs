//! `gametree perft <GAME> <DEPTH> [--json] [--accept-unsafe]`.

use std::time::Instant;

use gametree::games::{GameChoice, GameVisitor, Registered};

use crate::out::outln;
use crate::Failure;

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game name with optional parameters (`othello`, `random-tree:b=5,d=6,seed=1`) or a game file
    /// (`.kif`: joint moves of simultaneous players count as one move).
    game: String,
    /// Deepest depth to count.
    depth: u32,
    /// One JSON object per line: {"depth":..,"count":..,"seconds":..}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    reading: super::gdl::Reading,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let game =
        GameChoice::parse_with(&args.game, &args.reading.limits()).map_err(Failure::input)?;
    game.visit_general(Perft {
        depth: args.depth,
        json: args.json,
    });
    Ok(())
}

struct Perft {
    depth: u32,
    json: bool,
}

impl GameVisitor for Perft {
    type Output = ();
    fn visit<G: Registered>(self, game: &G, root: &G::State) {
        for depth in 1..=self.depth {
            let start = Instant::now();
            let count = game.perft(root, depth);
            let seconds = start.elapsed().as_secs_f64();
            if self.json {
                outln!(
                    "{}",
                    serde_json::json!({ "depth": depth, "count": count, "seconds": seconds })
                );
            } else {
                outln!("{depth} {count} {seconds:.3}");
            }
        }
    }
}

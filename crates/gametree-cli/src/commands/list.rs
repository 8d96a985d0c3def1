//! `gametree list`: what the registry knows.

use gametree::games::GAME_NAMES;
use gametree::registry::SEARCHERS;
use reproduce::EXPERIMENTS;

use crate::Failure;

pub fn run() -> Result<(), Failure> {
    println!("games: {}", GAME_NAMES.join(", "));
    println!(
        "  othello[:moves=f5d6...]   random-tree:b=5,d=6,seed=1 (or B=9 for random branching)"
    );
    println!("  tree:seed=1,depth=6,branching=4   path/to/game.kif\n");
    println!("searchers (SPEC = name:key=value,...):");
    for s in SEARCHERS {
        let scope = if s.zero_sum {
            "two-player zero-sum"
        } else {
            "any game"
        };
        println!("  {:<10} {} ({scope})", s.name, s.about);
        println!("  {:<10} {}", "", s.params);
    }
    println!("  zero-sum searchers on othello also take eval=ev1|ev2\n");
    println!("reproductions (gametree reproduce NAME):");
    for (name, about, _) in EXPERIMENTS {
        println!("  {name:<16} {about}");
    }
    Ok(())
}

//! Tron, the shipped simultaneous game (a round where one rider has a single move is a turn of
//! the other): its joint-move perft agrees with a Rust model of the rules written here, and
//! seeded random games agree with the model round by round (moves, crashes, goals).

use game_trait::{Game, GeneralGame, Turn};
use gdl::{GdlGame, GdlMove, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::{legal, Finished};

const SIDE: i32 = 10;
/// North, south, east, west, in the order the model lists them.
const STEPS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const NAMES: [&str; 4] = ["north", "south", "east", "west"];

/// The rules of `tron.kif`, on a 100-bit wall set.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Tron {
    riders: [(i32, i32); 2],
    walls: u128,
    crashed: [bool; 2],
}

fn bit(x: i32, y: i32) -> u128 {
    1 << ((x - 1) * SIDE + (y - 1))
}

fn on_board(x: i32, y: i32) -> bool {
    (1..=SIDE).contains(&x) && (1..=SIDE).contains(&y)
}

impl Tron {
    fn start() -> Tron {
        Tron {
            riders: [(3, 5), (8, 6)],
            walls: bit(3, 5) | bit(8, 6),
            crashed: [false; 2],
        }
    }

    fn over(&self) -> bool {
        self.crashed.iter().any(|&c| c)
    }

    /// Rider `r`'s legal directions: those onto a free cell, or north if there is none.
    fn moves(&self, r: usize) -> Vec<usize> {
        let (x, y) = self.riders[r];
        let free: Vec<usize> = (0..4)
            .filter(|&d| {
                let (nx, ny) = (x + STEPS[d].0, y + STEPS[d].1);
                on_board(nx, ny) && self.walls & bit(nx, ny) == 0
            })
            .collect();
        if free.is_empty() {
            vec![0]
        } else {
            free
        }
    }

    fn play(&self, dirs: [usize; 2]) -> Tron {
        let targets = [0, 1].map(|r| {
            let (x, y) = self.riders[r];
            let (nx, ny) = (x + STEPS[dirs[r]].0, y + STEPS[dirs[r]].1);
            on_board(nx, ny).then_some((nx, ny))
        });
        let mut next = *self;
        for r in 0..2 {
            next.crashed[r] = match targets[r] {
                None => true,
                Some((x, y)) => self.walls & bit(x, y) != 0 || targets[1 - r] == targets[r],
            };
            if let Some((x, y)) = targets[r] {
                next.riders[r] = (x, y);
                next.walls |= bit(x, y);
            }
        }
        next
    }

    fn goals(&self) -> [u8; 2] {
        match self.crashed {
            [false, false] | [true, true] => [50, 50],
            [true, false] => [0, 100],
            [false, true] => [100, 0],
        }
    }
}

/// Joint-move sequences of `depth` rounds (a finished game counts 1).
fn model_perft(t: &Tron, depth: u32) -> u64 {
    if depth == 0 || t.over() {
        return 1;
    }
    let (a, b) = (t.moves(0), t.moves(1));
    a.iter()
        .flat_map(|&da| b.iter().map(move |&db| [da, db]))
        .map(|dirs| model_perft(&t.play(dirs), depth - 1))
        .sum()
}

fn load() -> GdlGame {
    common::load("tron.kif")
}

#[test]
fn tron_loads_on_the_fast_reasoner_as_a_simultaneous_game() {
    let g = load();
    assert_eq!(
        g.reasoner_kind(),
        ReasonerKind::Fast,
        "{:?}",
        g.fallback_reason()
    );
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    assert_eq!(g.turn(&g.initial_state()), Turn::Simultaneous);
}

#[test]
fn tron_perft_matches_the_model() {
    let g = load();
    let model: Vec<u64> = (1..=4).map(|d| model_perft(&Tron::start(), d)).collect();
    let ours = common::perfts(&g, 4, Finished::Leaf);
    assert_eq!(ours, model);
    assert_eq!(model[0], 16);
}

/// The model's direction index of a GDL move `(move d)`.
fn direction(g: &GdlGame, m: GdlMove) -> usize {
    let name = g.move_term(m);
    NAMES
        .iter()
        .position(|d| name == format!("(move {d})"))
        .unwrap_or_else(|| panic!("unexpected move {name}"))
}

#[test]
fn random_games_agree_with_the_model_round_by_round() {
    let g = load();
    let mut rng = Pcg64::seed_from_u64(2026);
    let (mut crashes, mut draws) = (0, 0);
    for game in 0..300 {
        let mut s = g.initial_state();
        let mut t = Tron::start();
        while !t.over() {
            let choosers: Vec<usize> = (0..2).filter(|&r| t.moves(r).len() > 1).collect();
            let turn = match choosers[..] {
                [r] => Turn::Player(r),
                _ => Turn::Simultaneous,
            };
            assert_eq!(g.turn(&s), turn, "game {game} at {t:?}");
            let picks = [0, 1].map(|r| {
                let legal = legal(&g, &s, r);
                let dirs: Vec<usize> = legal.iter().map(|&m| direction(&g, m)).collect();
                assert_eq!(dirs, t.moves(r), "game {game}, rider {r}, at {t:?}");
                legal[rng.gen_range(0..legal.len())]
            });
            t = t.play(picks.map(|m| direction(&g, m)));
            g.play_joint(&mut s, &picks);
        }
        assert_eq!(g.turn(&s), Turn::Over, "game {game}");
        let goals: Vec<Option<u8>> = g.goals(&s).to_vec();
        assert_eq!(goals, t.goals().map(Some), "game {game} at {t:?}");
        crashes += usize::from(t.goals() != [50, 50]);
        draws += usize::from(t.goals() == [50, 50]);
    }
    // Both endings occur, so both goal rules were compared.
    assert!(crashes > 0 && draws > 0, "{crashes} wins, {draws} draws");
}

//! No allocation per step: once a game's buffers have grown, the grounded reasoners play whole
//! random games without touching the allocator, whatever the size of the game: states past the
//! inline fluent limit (chess's 991 fluents against 512 inline) must not be a cliff.
//!
//! The test binary counts every allocation through its own global allocator, so this file holds
//! this one test: a second test running on another thread would be counted too.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use game_trait::{ChanceList, Game, GeneralGame, MoveList, Turn};
use gdl::{FluentSet, GdlGame, Loader, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// The system allocator, counting the allocations made through it.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The buffers of one playout loop, grown once and reused.
struct Buffers {
    moves: MoveList<gdl::GdlMove>,
    chance: ChanceList<gdl::GdlMove>,
    joint: Vec<gdl::GdlMove>,
}

/// The longest game played, in rounds.
const MAX_ROUNDS: usize = 500;

/// Plays one random game on `state` in place (at most [`MAX_ROUNDS`] rounds, chance uniformly);
/// the number of rounds.
fn play_out(g: &GdlGame, state: &mut FluentSet, rng: &mut Pcg64, buf: &mut Buffers) -> usize {
    for step in 0..MAX_ROUNDS {
        match g.turn(state) {
            Turn::Over => return step,
            Turn::Player(p) => {
                g.legal_moves(state, p, &mut buf.moves);
                let mv = buf.moves[rng.gen_range(0..buf.moves.len())];
                g.play(state, mv);
            }
            Turn::Chance => {
                g.chance_outcomes(state, &mut buf.chance);
                let mv = buf.chance[rng.gen_range(0..buf.chance.len())].0;
                g.play(state, mv);
            }
            Turn::Simultaneous => {
                buf.joint.clear();
                for p in 0..g.players() {
                    g.legal_moves(state, p, &mut buf.moves);
                    buf.joint.push(buf.moves[rng.gen_range(0..buf.moves.len())]);
                }
                g.chance_outcomes(state, &mut buf.chance);
                if let Some(&(mv, _)) = buf.chance.first() {
                    buf.joint.push(mv);
                }
                g.play_joint(state, &buf.joint);
            }
        }
    }
    MAX_ROUNDS
}

/// Windows of random games the test plays before giving up on one without allocations.
const WINDOWS: usize = 10;

/// The allocations of each window of `games` random games of `name`, played until a window makes
/// none (at most [`WINDOWS`]), and the steps of the last window. Buffers that grow as longer games
/// come along (doubling, so a handful of times) stop allocating after a few windows; an allocation
/// per step or per game never does.
fn allocations_by_window(name: &str, games: usize) -> (Vec<u64>, usize) {
    let path = format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let g = Loader::file(&path)
        .load()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(g.reasoner_kind(), ReasonerKind::Fast, "{name}");
    let mut rng = Pcg64::seed_from_u64(7);
    let mut buf = Buffers {
        moves: MoveList::with_capacity(4096),
        chance: ChanceList::with_capacity(64),
        joint: Vec::with_capacity(8),
    };
    let init = g.initial_state();
    let mut state = init.clone();
    let mut windows = Vec::new();
    let mut steps = 0;
    while windows.last() != Some(&0) && windows.len() < WINDOWS {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        steps = 0;
        for _ in 0..games {
            state.clone_from(&init);
            steps += play_out(&g, &mut state, &mut rng, &mut buf);
        }
        windows.push(ALLOCATIONS.load(Ordering::Relaxed) - before);
    }
    (windows, steps)
}

#[test]
fn grounded_games_play_without_allocating() {
    // (game, games per window). Chess (991 fluents, past the 512 inline) and checkers are the
    // point of the test; the small games show nothing grows per step either.
    for (name, games) in [
        ("tictactoe.kif", 50),
        ("connect4.kif", 20),
        ("breakthrough.kif", 10),
        ("othello.kif", 5),
        ("checkers.kif", 5),
        ("hex.kif", 5),
        ("pacman.kif", 5),
        ("chess_groundable.kif", 3),
        ("backgammon_mini.kif", 5),
        ("yahtzee_mini.kif", 5),
        ("rps3.kif", 20),
        ("tron.kif", 50),
    ] {
        let (windows, steps) = allocations_by_window(name, games);
        assert!(steps > 0, "{name}: no step played");
        assert_eq!(
            windows.last(),
            Some(&0),
            "{name}: allocations in each window of {games} games: {windows:?}"
        );
    }
}

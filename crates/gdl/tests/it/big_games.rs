//! The big shipped games: each loads with the reasoner it should get, its perft counts agree with
//! an independent count (published counts, or a Rust model of the rules written here), and its
//! reasoners agree with each other along seeded random playouts.

use std::collections::HashSet;

use game_trait::{Game, GeneralGame, MoveList, Turn};
use gdl::{GdlGame, GdlMove, Limits, Loader, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common::{goal_directed, load, path, perfts, Finished};

#[test]
fn the_big_games_load_with_the_reasoner_they_should() {
    for name in [
        "breakthrough.kif",
        "checkers.kif",
        "othello.kif",
        "hex.kif",
        "pacman.kif",
    ] {
        let g = load(name);
        assert_eq!(
            g.reasoner_kind(),
            ReasonerKind::Fast,
            "{name}: {:?}",
            g.fallback_reason()
        );
        assert!(g.warnings().is_empty(), "{name}: {:?}", g.warnings());
    }
    // Too large to ground within the default limits: played goal-directed, and the reason says
    // which limit and which rule.
    for name in ["chess.kif", "amazons.kif"] {
        let g = load(name);
        assert_eq!(g.reasoner_kind(), ReasonerKind::Reference, "{name}");
        let why = g.fallback_reason().unwrap_or_default();
        assert!(
            why.contains("atoms") && why.contains(".kif:"),
            "{name}: {why}"
        );
    }
}

#[test]
fn othello_perft_is_the_published_one() {
    // The standard counts (also in testdata/perft.toml for othello-bitboard).
    let expected = [4, 12, 56, 244, 1396, 8200];
    assert_eq!(perfts(&load("othello.kif"), 6, Finished::Leaf), expected);
    assert_eq!(
        perfts(&goal_directed("othello.kif"), 4, Finished::Leaf),
        expected[..4]
    );
}

#[test]
fn chess_perft_is_the_published_one() {
    // The standard counts from the initial position: 20, 400, 8,902 (197,281 at depth 4).
    assert_eq!(
        perfts(&load("chess.kif"), 3, Finished::Leaf),
        [20, 400, 8902]
    );
}

/// GGP Base's chess on the hybrid reasoner: the threat relations evaluated per state, the rest
/// grounded.
fn hybrid_chess() -> GdlGame {
    let limits = Limits {
        hybrid_relation_atoms: Limits::HYBRID_RELATION_ATOMS,
        ..Limits::default()
    };
    Loader::file(path("chess.kif"))
        .limits(&limits)
        .load()
        .unwrap()
}

#[test]
fn chess_on_the_hybrid_reasoner_defers_the_threats_and_counts_the_published_perft() {
    let chess = hybrid_chess();
    assert_eq!(chess.reasoner_kind(), ReasonerKind::Hybrid);
    let deferred = chess.deferred_relations();
    for threat in ["threatened", "threatened_with_capture", "queen_threatens"] {
        assert!(deferred.iter().any(|d| d == threat), "{deferred:?}");
    }
    for grounded in ["legal2", "in_check", "next_file"] {
        assert!(!deferred.iter().any(|d| d == grounded), "{deferred:?}");
    }
    // The published counts to depth 4: the description's own rules (castling, the 200-move
    // limit) do not come into play this early.
    let counts = perfts(&chess, 4, Finished::Leaf);
    assert_eq!(counts, [20, 400, 8902, 197_281]);
    let per_state = chess.per_state_reasoner().unwrap();
    assert!(per_state.starts_with("grounded on demand"), "{per_state}");
}

#[test]
fn chess_on_the_hybrid_reasoner_agrees_with_the_reference() {
    // Checks, captures, castling and promotions come up along random games of a few dozen plies.
    let hybrid = hybrid_chess();
    cross_check("chess.kif", &load("chess.kif"), &hybrid, 3, 80);
    // The threats were ground on demand, not evaluated goal-directed.
    let per_state = hybrid.per_state_reasoner().unwrap();
    assert!(per_state.starts_with("grounded on demand"), "{per_state}");
}

#[test]
fn hex_perft_is_the_falling_factorial() {
    // No chain can join two sides before red's ninth stone (ply 17): every empty cell is a move.
    let g = load("hex.kif");
    assert_eq!(perfts(&g, 3, Finished::Leaf), [81, 81 * 80, 81 * 80 * 79]);
}

#[test]
fn amazons_has_2176_first_moves() {
    // The known count of first moves of 10x10 Amazons; also from the model below.
    assert_eq!(amazons_first_moves(), 2176);
    assert_eq!(perfts(&load("amazons.kif"), 1, Finished::Leaf), [2176]);
}

/// First moves of 10x10 Amazons counted on a plain board: queen slides, then arrow slides from
/// the landing square (the vacated square is free).
fn amazons_first_moves() -> u64 {
    let mut board = [[0u8; 10]; 10];
    let whites = [(3, 0), (6, 0), (0, 3), (9, 3)];
    for &(x, y) in &whites {
        board[x][y] = 1;
    }
    for &(x, y) in &[(0, 6), (9, 6), (3, 9), (6, 9)] {
        board[x][y] = 2;
    }
    let slides = |board: &[[u8; 10]; 10], (x, y): (i32, i32)| {
        let mut out = Vec::new();
        for (dx, dy) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut cx, mut cy) = (x + dx, y + dy);
            while (0..10).contains(&cx)
                && (0..10).contains(&cy)
                && board[cx as usize][cy as usize] == 0
            {
                out.push((cx, cy));
                cx += dx;
                cy += dy;
            }
        }
        out
    };
    let mut n = 0;
    for &(x, y) in &whites {
        let mut b = board;
        b[x][y] = 0;
        for to in slides(&b, (x as i32, y as i32)) {
            n += slides(&b, to).len() as u64;
        }
    }
    n
}

#[test]
fn breakthrough_perft_matches_a_model() {
    let g = load("breakthrough.kif");
    let model = (1..=4)
        .map(|d| breakthrough_perft(&Breakthrough::start(), d))
        .collect::<Vec<_>>();
    assert_eq!(perfts(&g, 4, Finished::Leaf), model);
    assert_eq!(model[..2], [22, 484]);
    assert_eq!(
        perfts(&goal_directed("breakthrough.kif"), 3, Finished::Leaf),
        model[..3]
    );
}

/// Breakthrough on a plain board: `cells[x][y]` is 0, 1 (white, moving up) or 2 (black).
#[derive(Clone)]
struct Breakthrough {
    cells: [[u8; 8]; 8],
    white: bool,
}

impl Breakthrough {
    fn start() -> Breakthrough {
        let mut cells = [[0; 8]; 8];
        for col in cells.iter_mut() {
            col[0] = 1;
            col[1] = 1;
            col[6] = 2;
            col[7] = 2;
        }
        Breakthrough { cells, white: true }
    }

    fn over(&self) -> bool {
        let on = |c: u8| self.cells.iter().flatten().any(|&v| v == c);
        (0..8).any(|x| self.cells[x][7] == 1 || self.cells[x][0] == 2) || !on(1) || !on(2)
    }

    fn children(&self) -> Vec<Breakthrough> {
        let (me, dy) = if self.white { (1, 1) } else { (2, -1) };
        let mut out = Vec::new();
        for x in 0..8i32 {
            for y in 0..8i32 {
                if self.cells[x as usize][y as usize] != me {
                    continue;
                }
                for dx in [-1, 0, 1] {
                    let (nx, ny) = (x + dx, y + dy);
                    if !(0..8).contains(&nx) || !(0..8).contains(&ny) {
                        continue;
                    }
                    let target = self.cells[nx as usize][ny as usize];
                    if (dx == 0 && target == 0) || (dx != 0 && target != me) {
                        let mut c = self.clone();
                        c.cells[x as usize][y as usize] = 0;
                        c.cells[nx as usize][ny as usize] = me;
                        c.white = !self.white;
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}

fn breakthrough_perft(s: &Breakthrough, depth: u32) -> u64 {
    if depth == 0 || s.over() {
        return 1;
    }
    s.children()
        .iter()
        .map(|c| breakthrough_perft(c, depth - 1))
        .sum()
}

#[test]
fn checkers_perft_matches_a_model_of_the_ggp_rules() {
    // The model, made to force captures (longest sequences only), gives the published perft of
    // English draughts; GGP checkers does not force captures, which shows from depth 3.
    let standard: Vec<u64> = (1..=5)
        .map(|d| checkers_perft(&Checkers::start(), d, true))
        .collect();
    assert_eq!(standard, [7, 49, 302, 1469, 7361]);
    let model: Vec<u64> = (1..=5)
        .map(|d| checkers_perft(&Checkers::start(), d, false))
        .collect();
    assert_eq!(perfts(&load("checkers.kif"), 5, Finished::Leaf), model);
}

/// Checkers as the GGP rules have it: men move and jump diagonally forward, kings both ways;
/// capturing is optional; a double or triple jump is one move, all its conditions read in the
/// state before it (landing squares empty, jumped pieces the opponent's); a man reaching the far
/// row is crowned. `cells[file][rank]`: 0 empty, 1/2 white man/king, 3/4 black man/king.
#[derive(Clone)]
struct Checkers {
    cells: [[u8; 8]; 8],
    white: bool,
}

impl Checkers {
    fn start() -> Checkers {
        let mut cells = [[0; 8]; 8];
        for (f, file) in cells.iter_mut().enumerate() {
            for (r, cell) in file.iter_mut().enumerate() {
                if (f + r) % 2 == 1 {
                    *cell = match r {
                        0..=2 => 1,
                        5..=7 => 3,
                        _ => 0,
                    };
                }
            }
        }
        Checkers { cells, white: true }
    }

    fn mine(&self, v: u8) -> bool {
        if self.white {
            v == 1 || v == 2
        } else {
            v == 3 || v == 4
        }
    }

    fn theirs(&self, v: u8) -> bool {
        v != 0 && !self.mine(v)
    }

    fn get(&self, f: i32, r: i32) -> Option<u8> {
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| self.cells[f as usize][r as usize])
    }

    /// Diagonal directions a piece may go: a man forward only.
    fn dirs(&self, v: u8) -> Vec<(i32, i32)> {
        let forward = if self.white { 1 } else { -1 };
        match v {
            1 | 3 => vec![(1, forward), (-1, forward)],
            _ => vec![(1, 1), (-1, 1), (1, -1), (-1, -1)],
        }
    }

    /// Squares reachable by one capturing jump from (f, r) for piece `v`, with the jumped square.
    fn jumps(&self, v: u8, (f, r): (i32, i32)) -> Vec<((i32, i32), (i32, i32))> {
        self.dirs(v)
            .into_iter()
            .filter_map(|(df, dr)| {
                let over = (f + df, r + dr);
                let to = (f + 2 * df, r + 2 * dr);
                (self.get(over.0, over.1).is_some_and(|x| self.theirs(x))
                    && self.get(to.0, to.1) == Some(0))
                .then_some((to, over))
            })
            .collect()
    }

    /// The positions after each move; with `forced`, English draughts' rule: when a capture
    /// exists, only the captures that cannot be extended.
    fn children(&self, forced: bool) -> Vec<Checkers> {
        let (mut out, mut captures) = (Vec::new(), Vec::new());
        for f in 0..8i32 {
            for r in 0..8i32 {
                let v = self.cells[f as usize][r as usize];
                if !self.mine(v) {
                    continue;
                }
                for (df, dr) in self.dirs(v) {
                    if self.get(f + df, r + dr) == Some(0) {
                        out.push(self.after(v, (f, r), (f + df, r + dr), &[]));
                    }
                }
                // A move is its path (distinct paths to one square are distinct moves), with
                // whether it could go on.
                let mut moves = HashSet::new();
                for (a, c1) in self.jumps(v, (f, r)) {
                    let mut extended = false;
                    for (b, c2) in self.jumps(v, a) {
                        if b == (f, r) {
                            continue;
                        }
                        extended = true;
                        let mut more = false;
                        for (c, c3) in self.jumps(v, b) {
                            if c != a {
                                more = true;
                                moves.insert((c, vec![c1, c2, c3], false));
                            }
                        }
                        moves.insert((b, vec![c1, c2], more));
                    }
                    moves.insert((a, vec![c1], extended));
                }
                let mut paths: Vec<_> = moves.into_iter().collect();
                paths.sort();
                for (to, captured, extensible) in paths {
                    if !(forced && extensible) {
                        captures.push(self.after(v, (f, r), to, &captured));
                    }
                }
            }
        }
        if forced && !captures.is_empty() {
            return captures;
        }
        out.extend(captures);
        out
    }

    fn after(&self, v: u8, from: (i32, i32), to: (i32, i32), captured: &[(i32, i32)]) -> Checkers {
        let mut c = self.clone();
        c.cells[from.0 as usize][from.1 as usize] = 0;
        for &(f, r) in captured {
            c.cells[f as usize][r as usize] = 0;
        }
        let crowned = match v {
            1 if to.1 == 7 => 2,
            3 if to.1 == 0 => 4,
            _ => v,
        };
        c.cells[to.0 as usize][to.1 as usize] = crowned;
        c.white = !self.white;
        c
    }
}

fn checkers_perft(s: &Checkers, depth: u32, forced: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = s.children(forced);
    if depth == 1 {
        return children.len() as u64;
    }
    children
        .iter()
        .map(|c| checkers_perft(c, depth - 1, forced))
        .sum()
}

#[test]
fn pacman_perft_matches_a_model() {
    let g = load("pacman.kif");
    let model: Vec<u64> = (1..=8).map(|d| pacman_perft(&Pacman::start(), d)).collect();
    assert_eq!(perfts(&g, 8, Finished::Leaf), model);
    assert_eq!(
        perfts(&goal_directed("pacman.kif"), 4, Finished::Leaf),
        model[..4]
    );
}

/// Two-player pacman on the shipped maze: pacman and the two ghosts (moved together) alternate;
/// a capture ends the game (the pellets, the only other thing the rules track, do not matter
/// within a few plies).
#[derive(Clone)]
struct Pacman {
    pacman: (i32, i32),
    ghosts: [(i32, i32); 2],
    pacman_to_move: bool,
}

/// Walls: `(x, y)` blocked to the north (towards y + 1), and to the east (towards x + 1), as the
/// description's initial state lists them.
const BLOCKED_NORTH: [(i32, i32); 24] = [
    (4, 1),
    (5, 1),
    (1, 2),
    (2, 2),
    (4, 2),
    (5, 2),
    (7, 2),
    (8, 2),
    (2, 3),
    (4, 3),
    (5, 3),
    (7, 3),
    (2, 5),
    (4, 5),
    (5, 5),
    (7, 5),
    (1, 6),
    (2, 6),
    (4, 6),
    (5, 6),
    (7, 6),
    (8, 6),
    (4, 7),
    (5, 7),
];
const BLOCKED_EAST: [(i32, i32); 24] = [
    (1, 4),
    (1, 5),
    (2, 1),
    (2, 2),
    (2, 4),
    (2, 5),
    (2, 7),
    (2, 8),
    (3, 2),
    (3, 4),
    (3, 5),
    (3, 7),
    (5, 2),
    (5, 4),
    (5, 5),
    (5, 7),
    (6, 1),
    (6, 2),
    (6, 4),
    (6, 5),
    (6, 7),
    (6, 8),
    (7, 4),
    (7, 5),
];

impl Pacman {
    fn start() -> Pacman {
        Pacman {
            pacman: (5, 3),
            ghosts: [(4, 6), (5, 6)],
            pacman_to_move: true,
        }
    }

    fn steps((x, y): (i32, i32)) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        if y < 8 && !BLOCKED_NORTH.contains(&(x, y)) {
            out.push((x, y + 1));
        }
        if y > 1 && !BLOCKED_NORTH.contains(&(x, y - 1)) {
            out.push((x, y - 1));
        }
        if x < 8 && !BLOCKED_EAST.contains(&(x, y)) {
            out.push((x + 1, y));
        }
        if x > 1 && !BLOCKED_EAST.contains(&(x - 1, y)) {
            out.push((x - 1, y));
        }
        out
    }

    fn over(&self) -> bool {
        self.ghosts.contains(&self.pacman)
    }

    fn children(&self) -> Vec<Pacman> {
        let mut out = Vec::new();
        if self.pacman_to_move {
            for to in Pacman::steps(self.pacman) {
                out.push(Pacman {
                    pacman: to,
                    pacman_to_move: false,
                    ..self.clone()
                });
            }
        } else {
            for a in Pacman::steps(self.ghosts[0]) {
                for b in Pacman::steps(self.ghosts[1]) {
                    out.push(Pacman {
                        ghosts: [a, b],
                        pacman_to_move: true,
                        ..self.clone()
                    });
                }
            }
        }
        out
    }
}

fn pacman_perft(s: &Pacman, depth: u32) -> u64 {
    if depth == 0 || s.over() {
        return 1;
    }
    s.children()
        .iter()
        .map(|c| pacman_perft(c, depth - 1))
        .sum()
}

/// Plays seeded random playouts with `a`, asking `b` the same questions at every state, for at
/// most `plies` plies each. Moves are compared by their terms: a game that is not grounded numbers
/// moves as it meets them, so two instances may number them differently.
fn cross_check(name: &str, a: &GdlGame, b: &GdlGame, playouts: usize, plies: usize) {
    let mut rng = Pcg64::seed_from_u64(0x5eed ^ name.len() as u64);
    let (mut ma, mut mb) = (MoveList::new(), MoveList::new());
    let names = |g: &GdlGame, moves: &MoveList<GdlMove>| {
        let mut v: Vec<String> = moves.iter().map(|&m| g.move_term(m)).collect();
        v.sort();
        v
    };
    for _ in 0..playouts {
        let mut s = a.initial_state();
        assert_eq!(
            a.fluent_names(&s),
            b.fluent_names(&b.initial_state()),
            "{name}"
        );
        let mut t = b.initial_state();
        for _ in 0..plies {
            let turn = a.turn(&s);
            assert_eq!(turn, b.turn(&t), "{name}: {:?}", a.fluent_names(&s));
            if turn == Turn::Over {
                assert_eq!(
                    a.goals(&s),
                    b.goals(&t),
                    "{name}: goals in {:?}",
                    a.fluent_names(&s)
                );
                break;
            }
            let (mut ja, mut jb): (Vec<GdlMove>, Vec<GdlMove>) = (Vec::new(), Vec::new());
            for p in 0..a.players() {
                a.legal_moves(&s, p, &mut ma);
                b.legal_moves(&t, p, &mut mb);
                assert_eq!(
                    names(a, &ma),
                    names(b, &mb),
                    "{name}: legal moves of {p} in {:?}",
                    a.fluent_names(&s)
                );
                let m = ma[rng.gen_range(0..ma.len())];
                ja.push(m);
                jb.push(b.find_move(&a.move_term(m)).expect("the same move"));
            }
            a.play_joint(&mut s, &ja);
            b.play_joint(&mut t, &jb);
            assert_eq!(
                a.fluent_names(&s),
                b.fluent_names(&t),
                "{name}: after {:?}",
                ja.iter().map(|&m| a.move_term(m)).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn the_fast_reasoner_agrees_with_the_reference_on_the_big_games() {
    // Bottom-up reference evaluation: whole models, so a few playouts each.
    for (name, playouts) in [
        ("breakthrough.kif", 6),
        ("othello.kif", 4),
        ("hex.kif", 6),
        ("pacman.kif", 6),
        ("checkers.kif", 4),
    ] {
        let fast = load(name);
        let reference = fast.clone().with_reasoner(ReasonerKind::Reference).unwrap();
        cross_check(name, &fast, &reference, playouts, 300);
    }
}

#[test]
fn goal_directed_evaluation_agrees_with_the_fast_reasoner() {
    for (name, playouts) in [
        ("tictactoe.kif", 50),
        ("connect4.kif", 20),
        ("breakthrough.kif", 20),
        ("othello.kif", 10),
        ("hex.kif", 10),
        ("pacman.kif", 20),
        ("checkers.kif", 5),
        ("matching_pennies.kif", 20),
        ("montyhall.kif", 20),
    ] {
        cross_check(name, &load(name), &goal_directed(name), playouts, 300);
    }
}

#[test]
fn deferring_every_static_relation_changes_no_answer() {
    // No static relation is evaluated whole (the initial state's aside): each is answered in
    // every query, for the arguments asked.
    let limits = Limits {
        ground_rules: 0,
        static_relation_atoms: 0,
        ..Limits::default()
    };
    for (name, playouts, deferred) in [
        ("tictactoe.kif", 30, "index/1"),
        ("connect4.kif", 10, "succ/2"),
        ("breakthrough.kif", 10, "++/2"),
        ("othello.kif", 4, "succ/2"),
        ("montyhall.kif", 20, "door/1"),
    ] {
        let text = std::fs::read_to_string(path(name)).unwrap();
        let lazy = Loader::text(&text)
            .name(name)
            .limits(&limits)
            .load()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(lazy.goal_directed(), "{name}");
        let named = lazy.deferred_relations();
        assert!(named.iter().any(|r| r == deferred), "{name}: {named:?}");
        cross_check(name, &load(name), &lazy, playouts, 300);
    }
}

#[test]
fn goal_directed_chess_agrees_with_whole_models() {
    // The bottom-up reference on chess computes every threat of every square: seconds a state,
    // so a few plies of two playouts.
    let chess = load("chess.kif");
    assert_eq!(chess.reasoner_kind(), ReasonerKind::Reference);
    let text = std::fs::read_to_string(path("chess.kif")).unwrap();
    let limits = Limits {
        ground_rules: 0,
        fallback_query: std::time::Duration::from_secs(600),
        ..Limits::default()
    };
    let whole = Loader::text(&text)
        .name("chess.kif")
        .limits(&limits)
        .load()
        .unwrap();
    let whole = whole.with_goal_directed(false);
    cross_check("chess.kif", &chess, &whole, 1, 2);
}

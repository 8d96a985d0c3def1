//! `chess_groundable.kif`, the chess description written to be grounded: perft from the published
//! test positions (castling, en passant, promotion, pins and checks), the end of the game, and the
//! fast reasoner against the goal-directed reference reasoner along random playouts.

use game_trait::{Game, GeneralGame, MoveList, Turn};
use gdl::{FluentSet, GdlGame, Limits, Loader, ReasonerKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::common;
use crate::common::Finished;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/games/chess_groundable.kif");

/// The description with its initial position replaced by the one of `fen` (Forsyth-Edwards
/// Notation: placement, side to move, castling rights, en passant square; move counters ignored).
fn from_fen(fen: &str) -> String {
    let text = std::fs::read_to_string(FILE).expect("shipped game");
    let mut rules: String = text
        .lines()
        .filter(|l| !l.starts_with("(init "))
        .flat_map(|l| [l, "\n"])
        .collect();
    rules.push_str(&init_facts(fen).join("\n"));
    rules
}

fn init_facts(fen: &str) -> Vec<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut facts = vec!["(init (step 1))".to_string()];
    for (row, pieces) in fields[0].split('/').enumerate() {
        let rank = 8 - row;
        let mut file = 1;
        for c in pieces.chars() {
            if let Some(gap) = c.to_digit(10) {
                file += gap as usize;
                continue;
            }
            let owner = if c.is_ascii_uppercase() {
                "white"
            } else {
                "black"
            };
            let kind = match c.to_ascii_lowercase() {
                'p' => "pawn",
                'n' => "knight",
                'b' => "bishop",
                'r' => "rook",
                'q' => "queen",
                'k' => "king",
                other => panic!("{fen}: piece {other}"),
            };
            facts.push(format!("(init (cell {file} {rank} {owner} {kind}))"));
            file += 1;
        }
    }
    let side = if fields[1] == "w" { "white" } else { "black" };
    facts.push(format!("(init (control {side}))"));
    for (c, right) in [
        ('K', "white king"),
        ('Q', "white queen"),
        ('k', "black king"),
        ('q', "black queen"),
    ] {
        if fields[2].contains(c) {
            facts.push(format!("(init (castle {right}))"));
        }
    }
    if let [f, r] = fields[3].as_bytes() {
        facts.push(format!("(init (en_passant {} {}))", f - b'a' + 1, r - b'0'));
    }
    facts
}

fn game(fen: &str, limits: &Limits) -> GdlGame {
    Loader::text(&from_fen(fen))
        .name("chess_groundable.kif")
        .limits(limits)
        .load()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fast(fen: &str) -> GdlGame {
    let g = game(fen, &Limits::default());
    assert_eq!(g.reasoner_kind(), ReasonerKind::Fast, "{fen}");
    g
}

/// The reference reasoner evaluating goal-directed.
fn goal_directed(fen: &str) -> GdlGame {
    common::goal_directed_text(&from_fen(fen), "chess_groundable.kif")
}

/// Chess perft at depths 1 to `depths`: a finished game has no leaves below it (the published
/// counts' convention).
fn perfts(g: &GdlGame, depths: u32) -> Vec<u64> {
    common::perfts(g, depths, Finished::Nothing)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// "Kiwipete" (Peter McKenzie): castling both ways, pins, en passant, promotions by depth 4.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Chess Programming Wiki's position 3: en passant captures that expose the king along a rank.
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Position 4: promotions and captures with promotion, castling rights lost by capture.
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// Position 5: a promotion that checks, a knight forking the king and rook.
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
/// Position 6 (Steven Edwards): a quiet, symmetric middlegame.
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

#[test]
fn the_start_position_has_the_published_perft() {
    assert_eq!(perfts(&fast(START), 4), [20, 400, 8902, 197_281]);
}

#[test]
fn kiwipete_has_the_published_perft() {
    assert_eq!(perfts(&fast(KIWIPETE), 3), [48, 2039, 97_862]);
}

#[test]
fn position_3_has_the_published_perft() {
    assert_eq!(
        perfts(&fast(POSITION_3), 5),
        [14, 191, 2812, 43_238, 674_624]
    );
}

#[test]
fn position_4_has_the_published_perft() {
    assert_eq!(perfts(&fast(POSITION_4), 3), [6, 264, 9467]);
    // The same position with colours swapped.
    let mirrored = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
    assert_eq!(perfts(&fast(mirrored), 3), [6, 264, 9467]);
}

#[test]
fn position_5_has_the_published_perft() {
    assert_eq!(perfts(&fast(POSITION_5), 3), [44, 1486, 62_379]);
}

#[test]
fn position_6_has_the_published_perft() {
    assert_eq!(perfts(&fast(POSITION_6), 3), [46, 2079, 89_890]);
}

#[test]
fn the_goal_directed_reasoner_counts_the_same() {
    assert_eq!(perfts(&goal_directed(START), 3), [20, 400, 8902]);
    assert_eq!(perfts(&goal_directed(KIWIPETE), 2), [48, 2039]);
    assert_eq!(perfts(&goal_directed(POSITION_3), 3), [14, 191, 2812]);
    assert_eq!(perfts(&goal_directed(POSITION_4), 2), [6, 264]);
}

/// The state after `moves` (each a move term) from `fen`.
fn after(g: &GdlGame, moves: &[&str]) -> FluentSet {
    let mut s = g.initial_state();
    for m in moves {
        let Turn::Player(p) = g.turn(&s) else {
            panic!("over before {m}");
        };
        let mv = g.find_move(m).unwrap_or_else(|| panic!("no move {m}"));
        let mut legal = MoveList::new();
        g.legal_moves(&s, p, &mut legal);
        assert!(legal.contains(&mv), "{m} is not legal");
        g.play(&mut s, mv);
    }
    s
}

#[test]
fn checkmate_scores_100_and_0_stalemate_50_each() {
    // Fool's mate: 1. f3 e5 2. g4 Qh4#.
    let g = fast(START);
    let s = after(
        &g,
        &[
            "(move 6 2 6 3)",
            "(move 5 7 5 5)",
            "(move 7 2 7 4)",
            "(move 4 8 8 4)",
        ],
    );
    assert_eq!(g.turn(&s), Turn::Over);
    assert_eq!(g.goals(&s)[..], [Some(0), Some(100)]);
    // Black to move, not in check, no legal move.
    let g = fast("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.turn(&g.initial_state()), Turn::Over);
    assert_eq!(g.goals(&g.initial_state())[..], [Some(50), Some(50)]);
    // Mate in one: the position before is not over, and scores 50 each.
    let g = fast("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    assert_eq!(g.goals(&g.initial_state())[..], [Some(50), Some(50)]);
    let s = after(&g, &["(move 6 1 6 8)"]);
    assert_eq!(g.turn(&s), Turn::Over);
    assert_eq!(g.goals(&s)[..], [Some(100), Some(0)]);
}

#[test]
fn the_game_ends_after_200_plies() {
    // Knights shuffle out and back: 200 plies, then the game is over with 50 each.
    let g = fast(START);
    let shuffle = [
        "(move 2 1 3 3)",
        "(move 2 8 3 6)",
        "(move 3 3 2 1)",
        "(move 3 6 2 8)",
    ];
    let moves: Vec<&str> = shuffle.iter().copied().cycle().take(200).collect();
    let s = after(&g, &moves[..199]);
    assert!(matches!(g.turn(&s), Turn::Player(_)));
    let s = after(&g, &moves);
    assert_eq!(g.turn(&s), Turn::Over);
    assert_eq!(g.goals(&s)[..], [Some(50), Some(50)]);
}

#[test]
fn the_reasoners_agree_along_random_games() {
    // Whole games (up to 200 plies) from the start and from Kiwipete, every state's legal moves,
    // successor, end and goals compared.
    for fen in [START, KIWIPETE] {
        let (a, b) = (fast(fen), goal_directed(fen));
        let mut rng = Pcg64::seed_from_u64(17);
        let mut moves = MoveList::new();
        for _ in 0..2 {
            let (mut s, mut t) = (a.initial_state(), b.initial_state());
            loop {
                let turn = a.turn(&s);
                assert_eq!(turn, b.turn(&t), "{:?}", a.fluent_names(&s));
                let Turn::Player(p) = turn else {
                    assert_eq!(a.goals(&s), b.goals(&t));
                    break;
                };
                a.legal_moves(&s, p, &mut moves);
                let mut names: Vec<String> = moves.iter().map(|&m| a.move_term(m)).collect();
                let mut theirs = MoveList::new();
                b.legal_moves(&t, p, &mut theirs);
                let mut other: Vec<String> = theirs.iter().map(|&m| b.move_term(m)).collect();
                names.sort();
                other.sort();
                assert_eq!(names, other, "{:?}", a.fluent_names(&s));
                let m = moves[rng.gen_range(0..moves.len())];
                let term = a.move_term(m);
                a.play(&mut s, m);
                b.play(&mut t, b.find_move(&term).expect("the same move"));
                assert_eq!(a.fluent_names(&s), b.fluent_names(&t), "after {term}");
            }
        }
    }
}

//! The crate's tests: rules, FEN, perft, evaluation symmetry, exchanges, hooks and the UCI loop.

use std::collections::HashSet;

use cozy_chess::{Board, Move, Piece, Rank};
use game_trait::{
    Evaluator, Game, Limits, MoveList, Outcome, Plausibility, Quiescence, Reset, SearchResult,
    Searcher, Selectivity, ZeroSumGame,
};
use quickcheck::quickcheck;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use crate::*;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The positions of a game of random legal moves from the start, at most `plies` long.
fn random_game(seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut game = vec![Position::start()];
    let mut moves = MoveList::new();
    for _ in 0..plies {
        let last = game.last().unwrap();
        if Chess.outcome(last).is_some() {
            break;
        }
        moves.clear();
        Chess.moves(last, &mut moves);
        let mv = moves[rng.gen_range(0..moves.len())];
        let next = last.after(mv);
        game.push(next);
    }
    game
}

/// Perft through the trait, in the published convention: a finished game has no leaves below it.
fn trait_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if Chess.outcome(p).is_some() {
        return 0;
    }
    let mut moves = MoveList::new();
    Chess.moves(p, &mut moves);
    moves
        .iter()
        .map(|&mv| trait_perft(&p.after(mv), depth - 1))
        .sum()
}

#[test]
fn perft_reproduces_the_published_counts_at_small_depths() {
    let cases: [(&str, &[u64]); 6] = [
        (START_FEN, &[20, 400, 8902, 197_281]),
        (KIWIPETE, &[48, 2039, 97_862]),
        (POSITION_3, &[14, 191, 2812, 43_238]),
        (POSITION_4, &[6, 264, 9467]),
        (POSITION_5, &[44, 1486, 62_379]),
        (POSITION_6, &[46, 2079, 89_890]),
    ];
    for (text, counts) in cases {
        let p = fen(text);
        for (depth, &count) in (1..).zip(counts) {
            assert_eq!(perft(p.board(), depth), count, "{text} depth {depth}");
            if depth <= 3 {
                assert_eq!(trait_perft(&p, depth), count, "{text} trait depth {depth}");
            }
        }
        let divided: u64 = divide(&p, 2).iter().map(|(_, n)| n).sum();
        assert_eq!(divided, counts[1]);
    }
}

#[test]
fn checkmate_stalemate_and_their_outcomes() {
    let mated = fen("5Q1k/8/6K1/8/8/8/8/8 b - - 1 1");
    assert_eq!(mated.status(), Status::Checkmate);
    assert_eq!(Chess.outcome(&mated), Some(Outcome::LOSS));
    let stalemate = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.status(), Status::Stalemate);
    assert_eq!(Chess.outcome(&stalemate), Some(Outcome::DRAW));
    // Fool's mate from the start.
    let mut p = Position::start();
    p.play_line("f2f3 e7e5 g2g4 d8h4").unwrap();
    assert_eq!(p.status(), Status::Checkmate);
    assert_eq!(Chess.side_to_move(&p), 0);
}

#[test]
fn the_fifty_move_rule_yields_to_a_mate_on_the_hundredth_ply() {
    let before = fen("7k/8/6K1/8/8/8/8/5Q2 w - - 99 80");
    assert_eq!(before.status(), Status::Ongoing);
    let mut mate = before.clone();
    mate.play_uci("f1f8").unwrap();
    assert_eq!(mate.board().halfmove_clock(), 100);
    assert_eq!(mate.status(), Status::Checkmate);
    let mut quiet = before.clone();
    quiet.play_uci("g6f6").unwrap();
    assert_eq!(quiet.status(), Status::FiftyMoves);
    assert_eq!(Chess.outcome(&quiet), Some(Outcome::DRAW));
    // A pawn move resets the clock.
    let mut reset = fen("7k/8/6K1/8/8/8/P7/5Q2 w - - 99 80");
    reset.play_uci("a2a3").unwrap();
    assert_eq!(reset.status(), Status::Ongoing);
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let mut p = Position::start();
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    p.play_line(shuffle).unwrap();
    assert_eq!((p.repetitions(), p.status()), (1, Status::Ongoing));
    p.play_line("g1f3 g8f6 f3g1").unwrap();
    assert_eq!(p.status(), Status::Ongoing);
    p.play_uci("f6g8").unwrap();
    assert_eq!((p.repetitions(), p.status()), (2, Status::Repetition));
    assert_eq!(Chess.outcome(&p), Some(Outcome::DRAW));
    // A FEN knows no history.
    assert_eq!(fen(&p.fen()).status(), Status::Ongoing);
    assert_eq!(p.without_history().repetitions(), 0);
}

#[test]
fn an_en_passant_right_distinguishes_positions_only_where_the_capture_is_legal() {
    // After e2e4 black cannot take en passant: the position is the same as without the right.
    let mut p = Position::start();
    p.play_line("e2e4 g8f6 g1f3 f6g8 f3g1").unwrap();
    assert_eq!(p.repetitions(), 1);
    p.play_line("g8f6 g1f3 f6g8 f3g1").unwrap();
    assert_eq!(p.status(), Status::Repetition);
    // Here d4xe3 en passant is legal after e2e4: the first occurrence differs from the others.
    let mut p = fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    p.play_line("e2e4 e8d8 e1d1 d8e8 d1e1").unwrap();
    assert_eq!(p.repetitions(), 0);
    p.play_line("e8d8 e1d1 d8e8 d1e1").unwrap();
    assert_eq!((p.repetitions(), p.status()), (1, Status::Ongoing));
    p.play_line("e8d8 e1d1 d8e8 d1e1").unwrap();
    assert_eq!(p.status(), Status::Repetition);
}

#[test]
fn insufficient_material_is_a_draw() {
    let drawn = [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/1N2K3 b - - 0 1",
        "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", // both bishops on dark squares
        "5b2/8/8/4k3/8/B7/8/2B1K3 w - - 0 1",
    ];
    for text in drawn {
        assert_eq!(fen(text).status(), Status::InsufficientMaterial, "{text}");
    }
    let playable = [
        "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1", // two knights can mate with help
        "4b3/8/8/4k3/8/8/8/2B1K3 w - - 0 1", // bishops on both colours
        "8/8/8/4k3/8/8/P7/4K3 w - - 0 1",
    ];
    for text in playable {
        assert_eq!(fen(text).status(), Status::Ongoing, "{text}");
    }
}

#[test]
fn bad_fen_is_an_error_that_says_what_is_wrong() {
    let cases = [
        ("", "0 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "`x` in rank 7",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "black has 0 kings",
        ),
        (
            "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1",
            "pawn on rank 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move `x`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            "castling rights `KQkz`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling rights",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "en passant square `e4`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock `x`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "move number `0`",
        ),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 extra", "7 fields"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not a legal position"),
    ];
    for (text, expected) in cases {
        let err = Position::from_fen(text).expect_err(text).to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
    // The counters may be left out.
    assert_eq!(
        fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").fen(),
        START_FEN
    );
}

#[test]
fn moves_in_uci_notation() {
    let p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let castle = p.parse_move("e1g1").unwrap();
    assert_eq!(p.uci(castle), "e1g1");
    assert_eq!(p.uci(p.parse_move("e1c1").unwrap()), "e1c1");
    let errors = [
        ("e1", "bad move"),
        ("e9e1", "bad move"),
        ("e1e3", "illegal move"),
        ("a1a8q", "illegal move"),
        ("é1e2", "bad move"),
    ];
    for (text, expected) in errors {
        let err = p.parse_move(text).expect_err(text).to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
    let mut q = fen("8/4P3/8/8/8/8/8/k6K w - - 0 1");
    q.play_uci("e7e8n").unwrap();
    assert_eq!(q.fen(), "4N3/8/8/8/8/8/8/k6K b - - 0 1");
}

#[test]
fn generation_order_puts_captures_first_by_mvv_lva() {
    // The queen on c5 is attacked by two pawns and a rook, the knight on e5 by a pawn.
    let p = fen("4k3/8/8/2q1n3/1P1P4/2R5/8/4K3 w - - 0 1");
    let mut moves = MoveList::new();
    Chess.moves(&p, &mut moves);
    let names: Vec<String> = moves.iter().map(|&m| p.uci(m)).collect();
    assert_eq!(names[..4], ["b4c5", "d4c5", "c3c5", "d4e5"]);
    // Then every capture before every quiet move.
    let board = p.board();
    let first_quiet = moves.iter().position(|&m| !is_capture(board, m)).unwrap();
    assert_eq!(first_quiet, 4);
    assert!(moves[first_quiet..].iter().all(|&m| !is_capture(board, m)));
}

#[test]
fn static_exchanges() {
    let cases = [
        // A free pawn; a defended one taken by the knight; the classic x-ray line.
        (
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
            "e1e5",
            100,
        ),
        (
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5",
            -220,
        ),
        // Pawn takes a defended knight: knight for pawn.
        ("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", 220),
        // En passant, undefended.
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100),
        // The king cannot take a defended piece.
        ("4k3/8/8/8/8/2b5/3r4/4K3 w - - 0 1", "e1d2", -19_500),
        // A promotion capturing a rook, recaptured by the king.
        ("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", 500 + 800 - 900),
    ];
    for (text, mv, expected) in cases {
        let p = fen(text);
        // Parsed without the legality check: the king's capture is illegal, and still valued.
        let m: Move = mv.parse().unwrap();
        assert_eq!(see(p.board(), m), expected, "{text} {mv}");
    }
}

#[test]
fn a_recapture_that_promotes_counts_the_promotion() {
    // ...Qxb8 wins a bishop, then a7xb8=Q takes the queen and makes one: 330 − 900 − 800.
    let p = fen("1B2nk2/Pq6/2p1p3/1b1p3p/7P/1PR1p3/Q4P2/4K1R1 b - - 2 37");
    let mv = p.parse_move("b7b8").unwrap();
    assert_eq!(see(p.board(), mv), -1370);
}

#[test]
fn ordering_puts_winning_captures_first_and_losing_ones_after_quiet_moves() {
    let p = fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
    let key = |mv: &str| CaptureOrdering::key(p.board(), p.parse_move(mv).unwrap());
    assert!(key("d3e5") < key("a3a4"));
    let q = fen("4k3/8/8/2q5/1P6/8/8/4K3 w - - 0 1");
    let key_q = |mv: &str| CaptureOrdering::key(q.board(), q.parse_move(mv).unwrap());
    assert!(key_q("b4c5") > key_q("e1d1"));
    let r = fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let key_r = |mv: &str| CaptureOrdering::key(r.board(), r.parse_move(mv).unwrap());
    assert!(key_r("b7b8q") > key_r("e1d1"));
    assert!(key_r("b7b8n") < key_r("e1d1"));
}

#[test]
fn quiescence_plays_captures_and_queen_promotions_that_do_not_lose() {
    let p = fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
    let mut hook = Captures::default();
    let mv = |p: &Position, m: &str| p.parse_move(m).unwrap();
    assert!(!hook.is_noisy(&Chess, &p, mv(&p, "d3e5"))); // loses a knight for a pawn
    assert!(Captures { skip_losing: false }.noisy(p.board(), mv(&p, "d3e5")));
    assert!(!hook.is_noisy(&Chess, &p, mv(&p, "a3a4")));
    let q = fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(hook.is_noisy(&Chess, &q, mv(&q, "b7b8q")));
    assert!(!hook.is_noisy(&Chess, &q, mv(&q, "b7b8r")));
}

#[test]
fn null_moves_are_refused_in_check_and_in_king_and_pawn_endings() {
    let mut hook = ChessSelectivity::new(1);
    let start = Position::start();
    let passed = hook.null_move(&Chess, &start).unwrap();
    assert_eq!(passed.side(), Color::Black);
    assert_eq!(
        passed.board().pieces(Piece::Pawn),
        start.board().pieces(Piece::Pawn)
    );
    let pawns_only = fen("4k3/8/8/8/8/8/4P3/4K2n w - - 0 1");
    assert!(hook.null_move(&Chess, &pawns_only).is_none());
    let in_check = fen("4k3/8/8/8/8/8/8/r3K2R w - - 0 1");
    assert!(hook.null_move(&Chess, &in_check).is_none());
    // Checks are extended by the given plies, other moves not at all.
    let p = fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(hook.extension(&Chess, &p, p.parse_move("h1h8").unwrap()), 1);
    assert_eq!(hook.extension(&Chess, &p, p.parse_move("h1h7").unwrap()), 0);
    assert_eq!(
        ChessSelectivity::default().extension(&Chess, &p, p.parse_move("h1h8").unwrap()),
        0
    );
}

#[test]
fn treebeard_terms_rank_forcing_moves_above_quiet_ones() {
    let mut pl = ChessPlausibility::new();
    // A knight fork of king and rook, a check, a capture and a quiet move.
    let p = fen("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1");
    let interest =
        |pl: &mut ChessPlausibility, m: &str| pl.interest(&Chess, &p, p.parse_move(m).unwrap());
    let fork = interest(&mut pl, "d5c7");
    let quiet = interest(&mut pl, "e1d1");
    let legal = {
        let mut m = MoveList::new();
        Chess.moves(&p, &mut m);
        m.len() as u32
    };
    // Base + check + fork (second most valuable of king and rook: the rook) + attack on the rook.
    assert_eq!(fork, 1000 / legal + 100 + 500 / 5 + 500 / 20);
    assert_eq!(quiet, 1000 / legal);
    // In check every move gains 1000 / replies; taking the checker gains 100 more.
    let q = fen("4k3/8/8/8/8/8/3q4/4K2R w - - 0 1");
    let evasions = {
        let mut m = MoveList::new();
        Chess.moves(&q, &mut m);
        m.len() as u32
    };
    let take = pl.interest(&Chess, &q, q.parse_move("e1d2").unwrap());
    assert_eq!(take, 2000 / evasions + 900 / 4 + 100);
    assert_eq!(
        pl.similarity(&Chess, &q, q.parse_move("e1d2").unwrap()),
        None
    );
    let r = Position::start();
    assert_eq!(
        pl.similarity(&Chess, &r, r.parse_move("g1f3").unwrap()),
        pl.similarity(&Chess, &r, r.parse_move("g1h3").unwrap())
    );
}

#[test]
fn evaluation_of_the_start_is_even_and_mates_count_their_distance() {
    assert_eq!(Pesto::value(Position::start().board()), 0);
    let mate_soon = fen("5Q1k/8/6K1/8/8/8/8/8 b - - 1 1");
    let mate_late = fen("5Q1k/8/6K1/8/8/8/8/8 b - - 1 40");
    let soon = Pesto.terminal(&Chess, &mate_soon, Outcome::LOSS);
    let late = Pesto.terminal(&Chess, &mate_late, Outcome::LOSS);
    assert!(soon < late && late < -game_trait::EVAL_LIMIT);
    assert_eq!(Pesto.terminal(&Chess, &mate_soon, Outcome::DRAW), 0);
    assert_eq!(mate_in(-soon, 0), Some(1));
    assert_eq!(mate_in(-late, 0), Some(40));
}

/// A one-ply searcher for the UCI loop: the move whose child PeSTO likes best.
struct Greedy;

impl Reset for Greedy {}

impl Searcher<Chess> for Greedy {
    fn search(&mut self, game: &Chess, state: &Position, limits: &Limits) -> SearchResult<Move> {
        let mut result = SearchResult::leaf(0);
        let mut moves = MoveList::new();
        game.moves(state, &mut moves);
        for &mv in &moves {
            let value = -Pesto.value(game, &state.after(mv));
            if result.best_move.is_none() || value > result.value {
                (result.best_move, result.value) = (Some(mv), value);
            }
        }
        result.pv = result.best_move.into_iter().collect();
        result.depth = limits.depth.unwrap_or(1);
        result.stats.generated = moves.len() as u64 + 1;
        result
    }
}

/// Output shared between the engine and the test.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl std::io::Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A GUI's side of a session: the lines of a script, except that `wait` holds the next line back
/// until the engine has answered one more `bestmove` than before, as a GUI waits for the move.
struct Script {
    lines: std::collections::VecDeque<String>,
    out: Shared,
    waited: usize,
}

impl std::io::Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let Some(line) = self.lines.pop_front() else {
                return Ok(0);
            };
            if line == "wait" {
                self.waited += 1;
                while self.out.text().matches("bestmove").count() < self.waited {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                continue;
            }
            let bytes = format!("{line}\n").into_bytes();
            assert!(bytes.len() <= buf.len());
            buf[..bytes.len()].copy_from_slice(&bytes);
            return Ok(bytes.len());
        }
    }
}

/// Runs the UCI loop on the lines of `script` with [`Greedy`] and returns its output lines.
fn uci_session(script: &str) -> Vec<String> {
    let out = Shared::default();
    let input = Script {
        lines: script.lines().map(String::from).collect(),
        out: out.clone(),
        waited: 0,
    };
    let make = || -> Result<Box<dyn Searcher<Chess>>, String> { Ok(Box::new(Greedy)) };
    uci::run(std::io::BufReader::new(input), out.clone(), make).unwrap();
    out.text().lines().map(String::from).collect()
}

#[test]
fn the_uci_loop_answers_every_command_and_reports_errors_as_info_strings() {
    let lines = uci_session(
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 2\nwait\n\
         bogus words\nposition fen 8/8/8 w - - 0 1\nposition startpos moves e2e5\ngo depth x\n\
         go wtime\njoho isready\nposition fen 5Q1k/8/6K1/8/8/8/8/8 b - - 1 1\ngo depth 3\nwait\n\
         quit\n",
    );
    assert_eq!(
        lines[0],
        format!("id name gametree chess {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines.contains(&"uciok".to_string()));
    assert!(lines.contains(&"readyok".to_string()));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 2, "{lines:#?}");
    assert!(infos[0].starts_with("info depth 1 score cp ") && infos[0].contains(" pv "));
    let bestmoves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), 2, "{lines:#?}");
    assert_ne!(bestmoves[0], "bestmove 0000");
    assert_eq!(bestmoves[1], "bestmove 0000"); // mated: no move
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 5, "{lines:#?}");
    assert!(errors[0].contains("unknown command `bogus words`"));
    assert!(errors[1].contains("ranks"));
    assert!(errors[2].contains("illegal move `e2e5`"));
    assert!(errors[3].contains("depth `x`"));
    assert!(errors[4].contains("wtime without a value"));
    assert!(lines.contains(&"info string ignored `joho`".to_string()));
}

#[test]
fn an_engine_without_a_searcher_says_why_and_still_moves() {
    let out = Shared::default();
    let input = Script {
        lines: ["go depth 3", "wait", "quit"].map(String::from).into(),
        out: out.clone(),
        waited: 0,
    };
    let make = || -> Result<Box<dyn Searcher<Chess>>, String> { Err("no memory".into()) };
    uci::run(std::io::BufReader::new(input), out.clone(), make).unwrap();
    let text = out.text();
    assert!(
        text.contains("info string error: no searcher: no memory"),
        "{text}"
    );
    assert!(text.contains("bestmove a2a3"), "{text}");
}

#[test]
fn go_infinite_waits_for_stop_and_the_end_of_input_ends_the_engine() {
    let lines = uci_session("position startpos\ngo infinite\nisready\nstop\n");
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(best > ready, "{lines:#?}");
}

#[test]
fn uci_parses_go_and_position() {
    let (command, skipped) = uci::parse("go wtime 1000 btime -5 winc 10 binc 0 movestogo 20")
        .unwrap()
        .unwrap();
    assert!(skipped.is_empty());
    let uci::Command::Go(go) = command else {
        panic!("{command:?}")
    };
    assert_eq!(
        (go.wtime, go.btime, go.winc, go.movestogo),
        (Some(1000), Some(0), Some(10), Some(20))
    );
    assert!(uci::parse("go depth 0").is_err());
    assert!(uci::parse("go searchmoves e2e4").is_err());
    assert_eq!(uci::parse("   ").unwrap(), None);
    let (command, _) = uci::parse(&format!("position fen {KIWIPETE} moves e1g1"))
        .unwrap()
        .unwrap();
    let uci::Command::Position(p) = command else {
        panic!()
    };
    assert_eq!(
        p.fen(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"
    );
}

#[test]
fn the_time_budget_honours_the_clock() {
    use std::time::Duration;
    let ms = Duration::from_millis;
    let go = uci::Go {
        movetime: Some(100),
        ..uci::Go::default()
    };
    assert_eq!(uci::budget(&go, Color::White), (None, Some(ms(95))));
    let go = uci::Go {
        wtime: Some(60_000),
        winc: Some(1000),
        btime: Some(10),
        ..uci::Go::default()
    };
    let (soft, hard) = uci::budget(&go, Color::White);
    assert_eq!(hard, Some(ms(3 * (2000 + 750))));
    assert_eq!(soft, Some(ms(2750 * 6 / 10)));
    // Ten milliseconds left: never more than nine.
    let (_, hard) = uci::budget(&go, Color::Black);
    assert!(hard.unwrap() <= ms(9));
    assert_eq!(
        uci::budget(
            &uci::Go {
                depth: Some(4),
                ..uci::Go::default()
            },
            Color::White
        ),
        (None, None)
    );
}

quickcheck! {
    fn fen_round_trips_and_incremental_keys_match_fresh_ones(seed: u64) -> bool {
        random_game(seed, 120).iter().all(|p| {
            let again = fen(&p.fen());
            again.board() == p.board() && again.fen() == p.fen() && again.hash() == p.hash()
        })
    }

    fn moves_are_the_generators_without_duplicates_captures_first(seed: u64) -> bool {
        random_game(seed, 80).iter().filter(|p| Chess.outcome(p).is_none()).all(|p| {
            let mut ours = MoveList::new();
            Chess.moves(p, &mut ours);
            let mut theirs: Vec<Move> = Vec::new();
            p.board().generate_moves(|set| { theirs.extend(set); false });
            let set: HashSet<Move> = ours.iter().copied().collect();
            let first_quiet = ours.iter().position(|&m| !is_capture(p.board(), m) && m.promotion.is_none()).unwrap_or(ours.len());
            set.len() == ours.len()
                && set == theirs.into_iter().collect::<HashSet<Move>>()
                && ours[first_quiet..].iter().all(|&m| !is_capture(p.board(), m))
        })
    }

    fn copy_make_agrees_with_the_generators_checked_play(seed: u64) -> bool {
        let game = random_game(seed, 60);
        game.windows(2).all(|w| {
            let (parent, child) = (&w[0], &w[1]);
            let mut moves = MoveList::new();
            Chess.moves(parent, &mut moves);
            moves.iter().any(|&mv| {
                let mut checked: Board = parent.board().clone();
                checked.try_play(mv).is_ok() && &checked == child.board() && Chess.apply(&mut parent.clone(), mv).as_ref() == Some(child)
            })
        })
    }

    fn the_evaluation_and_the_rules_are_colour_blind(seed: u64) -> bool {
        random_game(seed, 60).iter().all(|p| {
            let m = p.mirrored();
            let mut a = MoveList::new();
            let mut b = MoveList::new();
            if Chess.outcome(p).is_none() {
                Chess.moves(p, &mut a);
                Chess.moves(&m, &mut b);
            }
            Pesto::value(p.board()) == Pesto::value(m.board())
                && p.status() == m.status()
                && a.len() == b.len()
                && perft(p.board(), 2) == perft(m.board(), 2)
                && m.mirrored().fen() == p.fen()
        })
    }

    fn exchanges_stay_between_the_victim_and_its_loss(seed: u64) -> bool {
        random_game(seed, 80).iter().filter(|p| Chess.outcome(p).is_none()).all(|p| {
            let mut moves = MoveList::new();
            Chess.moves(p, &mut moves);
            moves.iter().all(|&mv| {
                let board = p.board();
                let Some(victim) = captured(board, mv) else { return true };
                let gain = see(board, mv);
                let promotion = mv.promotion.map_or(0, |q| SEE_VALUE[q as usize] - 100);
                let mover = SEE_VALUE[board.piece_on(mv.from).unwrap() as usize];
                let most = SEE_VALUE[victim as usize] + promotion;
                // A pawn that recaptures on the last rank promotes: the exchange can also cost
                // what it gains (a7xb8=Q after ...Qxb8 loses the queen and faces a new one).
                let last_rank = matches!(mv.to.rank(), Rank::First | Rank::Eighth);
                let recapture_promotion = if last_rank { SEE_VALUE[Piece::Queen as usize] - 100 } else { 0 };
                gain <= most && gain >= most - mover.max(promotion + 100) - recapture_promotion
            })
        })
    }

    fn fen_reading_never_panics_on_mangled_text(seed: u64, edits: Vec<(u8, char)>) -> bool {
        let game = random_game(seed, 30);
        let mut text: Vec<char> = game.last().unwrap().fen().chars().collect();
        for (at, c) in edits {
            let at = at as usize % (text.len() + 1);
            if at < text.len() && c.is_ascii_digit() { text.remove(at); } else { text.insert(at, c); }
        }
        let text: String = text.into_iter().collect();
        match Position::from_fen(&text) { Ok(p) => fen(&p.fen()) == p, Err(e) => !e.to_string().is_empty() }
    }

    fn uci_parsing_never_panics(line: String) -> bool {
        let _ = uci::parse(&line);
        let _ = uci::parse(&format!("position fen {line}"));
        let _ = uci::parse(&format!("go {line}"));
        true
    }
}

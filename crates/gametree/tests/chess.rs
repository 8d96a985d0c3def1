//! Chess through the facade: the game by name (`chess:fen=…,moves=…`), its searchers with the
//! chess hooks, the values they agree on, mates found at the right distance, and perft.
#![cfg(all(feature = "chess", feature = "search"))]

use gametree::chess::{mate_in, Chess, Position};
use gametree::game::{Limits, ZeroSumGame};
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::spec::{Spec, SpecError};

/// The root position `spec` names.
fn root(spec: &str) -> Position {
    match GameChoice::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}")) {
        GameChoice::Chess(position) => *position,
        other => panic!("{spec}: {other:?}"),
    }
}

/// The value, depth and best move (UCI) of `searcher` on `position`.
fn search(position: &Position, searcher: &str) -> (i32, u32, Option<String>) {
    let spec: Spec = searcher.parse().unwrap();
    let mut built = Chess
        .searcher(&spec)
        .unwrap_or_else(|e| panic!("{searcher}: {e}"));
    let result = built.searcher.search(&Chess, position, &Limits::none());
    let best = result.best_move.map(|m| position.uci(m));
    (result.value, result.depth, best)
}

#[test]
fn chess_by_name_from_a_fen_and_after_moves() {
    assert_eq!(root("chess"), Position::start());
    let after = root("chess:moves=e2e4 e7e5 g1f3");
    assert_eq!(
        after.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(root(&format!("chess:fen={kiwipete}")).fen(), kiwipete);
    let castled = root(&format!("chess:fen={kiwipete},moves=e1g1"));
    assert!(castled
        .fen()
        .starts_with("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq"));
}

#[test]
fn bad_positions_and_moves_name_their_parameter() {
    let err = GameChoice::parse("chess:fen=8/8/8 w - - 0 1").unwrap_err();
    assert!(matches!(err, SpecError::Invalid { .. }), "{err:?}");
    assert!(
        err.to_string().contains("fen=8/8/8 w - - 0 1: bad FEN"),
        "{err}"
    );
    let err = GameChoice::parse("chess:moves=e2e4 e2e4").unwrap_err();
    assert!(
        err.to_string()
            .contains("moves=e2e4 e2e4: illegal move `e2e4`"),
        "{err}"
    );
    let err = GameChoice::parse("chess:depth=3").unwrap_err();
    assert!(matches!(err, SpecError::UnknownKey { .. }), "{err:?}");
}

#[test]
fn the_chess_parameters_go_to_the_searchers_that_use_them() {
    let full = |text: &str| Chess.searcher(&text.parse().unwrap()).map(|b| b.spec);
    let spec = full("pvs:depth=2,quiescence=on,checks=1,null=2").unwrap();
    assert!(
        spec.contains("null=2") && spec.ends_with("quiescence=on,checks=1"),
        "{spec}"
    );
    assert!(full("interest:iterations=2,quiescence=on").is_ok());
    for refused in [
        "minimax:quiescence=on",
        "caev:checks=1",
        "interest:checks=1",
    ] {
        let err = full(refused).unwrap_err();
        assert!(err.to_string().contains("α/β engine"), "{refused}: {err}");
    }
    assert!(matches!(
        full("uct:quiescence=on"),
        Err(SpecError::UnknownKey { .. })
    ));
    assert!(matches!(
        full("pvs:checks=3"),
        Err(SpecError::BadValue { .. })
    ));
}

#[test]
fn searchers_with_the_same_hooks_agree_on_the_value() {
    // α/β, PVS with a table and MTD(f) compute the same function of the tree: with the capture
    // search at the horizon and check extensions too.
    for spec in [
        "chess:moves=e2e4 d7d5",
        "chess:fen=r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "chess:fen=1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
    ] {
        let position = root(spec);
        for hooks in ["", ",quiescence=on", ",quiescence=on,checks=1"] {
            let (ab, ..) = search(&position, &format!("alphabeta:depth=3{hooks}"));
            let (pvs, ..) = search(&position, &format!("pvs:depth=3,tt=4mb{hooks}"));
            let (mtdf, ..) = search(&position, &format!("mtdf:depth=3,tt=4mb{hooks}"));
            assert_eq!((pvs, mtdf), (ab, ab), "{spec}{hooks}");
            if hooks.is_empty() {
                let (minimax, ..) = search(&position, "minimax:depth=3");
                assert_eq!(minimax, ab, "{spec}");
            }
        }
    }
}

#[test]
fn the_capture_search_sees_a_defended_piece_and_mates_come_at_the_right_distance() {
    // Taking the pawn on e5 loses the knight: at depth 1 only the capture search sees it.
    let position = root("chess:fen=1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
    let (_, _, greedy) = search(&position, "alphabeta:depth=1");
    let (_, _, careful) = search(&position, "alphabeta:depth=1,quiescence=on");
    assert_eq!(greedy.as_deref(), Some("d3e5"));
    assert_ne!(careful.as_deref(), Some("d3e5"));
    // Mate in two: Re8+ Rxe8 Rxe8#.
    let position = root("chess:fen=3r2k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1");
    let (value, _, best) = search(&position, "pvs:depth=4,quiescence=on");
    assert_eq!(best.as_deref(), Some("e2e8"));
    assert_eq!(mate_in(value, position.game_ply()), Some(2));
    // Mated in one from the other side.
    let mut before = root("chess:fen=3r2k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1");
    before.play_uci("e2e8").unwrap();
    let (value, ..) = search(&before, "pvs:depth=3");
    assert_eq!(mate_in(value, before.game_ply()), Some(-1));
}

#[test]
fn every_heuristic_and_thread_count_plays_a_legal_move() {
    let position = root("chess:moves=e2e4 e7e5 g1f3 b8c6 f1b5");
    for spec in [
        "pvs:depth=4,quiescence=on,checks=1,null=2,lmr=1,singular=50",
        "pvs:depth=3,threads=2,quiescence=on",
        "interest:iterations=3,quiescence=on",
        "fe:depth=2,bounds=online,quiescence=on",
        "uct:sims=200",
    ] {
        let (_, _, best) = search(&position, spec);
        let best = best.unwrap_or_else(|| panic!("{spec}: no move"));
        assert!(position.parse_move(&best).is_ok(), "{spec}: {best}");
    }
}

#[test]
fn perft_through_the_registry_is_the_published_one() {
    struct Perft(u32);
    impl GameVisitor for Perft {
        type Output = u64;
        fn visit<G: Registered>(self, game: &G, root: &G::State) -> u64 {
            game.perft(root, self.0)
        }
    }
    assert_eq!(GameChoice::parse("chess").unwrap().visit(Perft(4)), 197_281);
    // Fool's mate is over: no move, whatever the depth.
    let mated = GameChoice::parse("chess:moves=f2f3 e7e5 g2g4 d8h4").unwrap();
    assert_eq!(mated.visit(Perft(2)), 0);
    let GameChoice::Chess(p) = mated else {
        unreachable!()
    };
    assert!(Chess.outcome(&p).is_some());
}

//! Every perft engine against the tables of `testdata/perft.toml`: Othello's bulk-counting bitboard
//! perft (dispatched and portable builds) and the generic `search_core::perft` through the game trait
//! on the Othello positions; gametree-chess's bulk-counting perft and the generic one through the
//! game trait on the chess positions; the generic perft over both GDL reasoners on the GDL games.
//!
//! Each engine counts every depth of a case whose count is within its budget of leaves (what it
//! reaches in test time); `every_count_is_checked_by_some_engine` makes sure no count of the file
//! goes unchecked.

use std::path::PathBuf;

use gametree::chess::{perft as chess_perft, Chess, Position as ChessPosition};
use gametree::game::{Game, MoveList, ZeroSumGame};
use gametree::gdl::{shipped, GdlGame, Loader, ReasonerKind};
use gametree::othello::{perft, perft_portable, Othello};
use gametree::search::perft as generic_perft;
use gametree_tests::testdata::{self, PerftCase};

/// The most leaves an engine counts at one depth, chosen so that each test takes a few seconds at
/// most in a test build (opt-level 3, debug assertions). Measured there: the Othello engines count
/// perft(11) from the start in 0.5 s (bitboard), 0.6 s (portable build) and 2 s (generic), so they
/// run every depth; the fast GDL reasoner counts connect four's 823,536 leaves in 0.4 s, the
/// reference reasoner 16,807 in 1.2 s.
const EVERY_DEPTH: u64 = u64::MAX;
/// Chess's bulk-counting perft runs every depth (the start's 119,060,324 leaves at depth 6 are the
/// most); perft through the game trait (a move list and a position copied per node, the draw rules
/// applied) stops at this many leaves.
const CHESS_TRAIT_BUDGET: u64 = 200_000;
const GDL_FAST_BUDGET: u64 = 1_000_000;
const GDL_REFERENCE_BUDGET: u64 = 20_000;

/// Checks `engine` on every depth of `case` within `budget` leaves; at least one must be.
fn check<S>(engine: &str, case: &PerftCase<S>, budget: u64, mut count: impl FnMut(u32) -> u64) {
    let mut ran = 0;
    for (depth, expected) in case.depths().take_while(|&(_, n)| n <= budget) {
        assert_eq!(
            count(depth),
            expected,
            "{engine} on {}: perft({depth})",
            case.name
        );
        ran += 1;
    }
    assert!(ran > 0, "{engine} on {}: no depth within budget", case.name);
}

#[test]
fn othello_bitboard_perft() {
    for case in &testdata::perft().othello {
        check("bitboard perft", case, EVERY_DEPTH, |d| {
            perft(case.start.board(), d)
        });
    }
}

#[test]
fn othello_bitboard_perft_portable_build() {
    for case in &testdata::perft().othello {
        check("portable perft", case, EVERY_DEPTH, |d| {
            perft_portable(case.start.board(), d)
        });
    }
}

#[test]
fn othello_through_the_game_trait() {
    for case in &testdata::perft().othello {
        check("generic perft", case, EVERY_DEPTH, |d| {
            generic_perft(&Othello, &case.start, d)
        });
    }
}

#[test]
fn chess_bulk_perft() {
    for case in &testdata::perft().chess {
        check("chess perft", case, EVERY_DEPTH, |d| {
            chess_perft(case.start.board(), d)
        });
    }
}

#[test]
fn chess_through_the_game_trait() {
    for case in &testdata::perft().chess {
        check("the game trait's moves", case, CHESS_TRAIT_BUDGET, |d| {
            trait_perft(&case.start, d)
        });
    }
}

/// Perft through [`Game`] in the published chess convention (a mate or draw before the last ply
/// has no leaves below it, where the file's convention counts it once).
fn trait_perft(position: &ChessPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if Chess.outcome(position).is_some() {
        return 0;
    }
    let mut moves = MoveList::new();
    Chess.moves(position, &mut moves);
    moves
        .iter()
        .map(|&mv| trait_perft(&position.after(mv), depth - 1))
        .sum()
}

/// GGP Base's chess description (played by the reference reasoner: it has no ground program)
/// against chess's published counts from the start, to depth 3: its rules differ from chess's
/// (queen-only promotion, no repetition or fifty-move rule, 200 plies at most) only deeper. Its
/// depth 4, 197,281, agrees too (`gametree perft crates/gdl/games/chess.kif 4`, 10 s).
#[test]
fn ggp_base_chess_description_against_chess() {
    let tables = testdata::perft();
    let start = tables.chess.iter().find(|c| c.name == "initial position");
    let chess = start.expect("the chess table has the initial position");
    let text = shipped("chess").expect("chess.kif is shipped");
    let game = Loader::text(text)
        .name("chess.kif")
        .load()
        .expect("chess.kif loads");
    let state = game.initial_state();
    check("GGP Base's chess", chess, GDL_REFERENCE_BUDGET, |d| {
        generic_perft(&game, &state, d)
    });
}

fn gdl(case: &PerftCase<PathBuf>, kind: ReasonerKind) -> GdlGame {
    let path = &case.start;
    Loader::file(path)
        .load()
        .and_then(|g| g.with_reasoner(kind))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn gdl_fast_reasoner() {
    for case in &testdata::perft().gdl {
        let game = gdl(case, ReasonerKind::Fast);
        assert_eq!(game.reasoner_kind(), ReasonerKind::Fast, "{}", case.name);
        let start = game.initial_state();
        check("fast reasoner", case, GDL_FAST_BUDGET, |d| {
            generic_perft(&game, &start, d)
        });
    }
}

#[test]
fn gdl_reference_reasoner() {
    for case in &testdata::perft().gdl {
        let game = gdl(case, ReasonerKind::Reference);
        let start = game.initial_state();
        check("reference reasoner", case, GDL_REFERENCE_BUDGET, |d| {
            generic_perft(&game, &start, d)
        });
    }
}

/// No count of the file goes unchecked: the Othello engines run every depth, and the fast GDL
/// reasoner must reach every GDL count.
#[test]
fn every_count_is_checked_by_some_engine() {
    let most = testdata::perft()
        .gdl
        .iter()
        .flat_map(|case| case.counts.iter().copied())
        .max()
        .expect("GDL cases");
    assert!(
        most <= GDL_FAST_BUDGET.max(GDL_REFERENCE_BUDGET),
        "a GDL count of {most} is checked by no reasoner: raise a budget or drop the count"
    );
}

//! The matrix: every registered searcher on every registered game, through the same names the CLI
//! takes. Short searches; every move returned must be legal, every principal variation a line of
//! legal moves, and every searcher the registry marks exact must return Minimax's value at the
//! same depth, with an exact bound at the root.
//!
//! A new searcher joins by adding its row to [`SHORT_SPECS`] (the test fails until it does); a new
//! game by adding its spec to [`GAMES`].

use gametree::game::{Bound, GeneralGame, Limits, MoveList, SearchResult, Turn, ZeroSumGame};
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::registry::{Needs, SEARCHERS};
use gametree::spec::Spec;

/// Games, as the CLI names them (GDL paths relative to the workspace root).
const GAMES: &[&str] = &[
    "tree:seed=3,depth=6,branching=4",
    "tree:seed=11,depth=5,branching=7",
    "random-tree:b=4,d=6,seed=2",
    "random-tree:max_b=7,d=5,seed=9",
    "othello:moves=f5d6c3d3c4f4f6f3e6e7",
    "othello",
    "chess:moves=e2e4 e7e5 g1f3",
    // Kiwipete: castling both ways, pins, en passant and promotions close by.
    "chess:fen=r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "crates/gdl/games/tictactoe.kif",
    "crates/gdl/games/connect4.kif",
    "crates/gdl/games/matching_pennies.kif",
    "crates/gdl/games/dice_duel.kif",
    "crates/gdl/games/rps3.kif",
    "crates/gdl/games/montyhall.kif",
    "nim:heap=9",
    "pennies",
    "pig:target=12",
];

/// The games of [`GAMES`] that describe their rounds (and so take MAC-UCB and FC-UCB): the
/// hand-written ones, and the GDL games played as general games whose round the encoder
/// (`gdl::GdlRound`) handles.
fn describes_rounds(game: &str) -> bool {
    ["nim", "pennies", "pig"]
        .iter()
        .any(|g| game.starts_with(g))
        || game.ends_with(".kif")
}

/// Depth of the exact searchers and of the Minimax they are compared with.
const DEPTH: u32 = 3;

/// A short search for each registered searcher; `{d}` is [`DEPTH`].
const SHORT_SPECS: &[(&str, &[&str])] = &[
    ("minimax", &["minimax:depth={d}"]),
    (
        "alphabeta",
        &[
            "alphabeta:depth={d}",
            "alphabeta:depth={d},cutoff=gt",
            "alphabeta:depth={d},tt=1mb",
        ],
    ),
    (
        "pvs",
        &[
            "pvs:depth={d},tt=1mb",
            "pvs:depth={d},tt=1mb,aspiration=50,cutoff=gt",
            "pvs:depth={d},tt=1mb,countermoves=true",
        ],
    ),
    (
        "mtdf",
        &["mtdf:depth={d},tt=1mb", "mtdf:depth={d},tt=0,guess=-40"],
    ),
    (
        "fe",
        &[
            "fe:depth={d},bounds=online",
            "fe:depth={d},delta=0.5,bounds=offline,samples=2",
            "fe:depth={d},bounds=likely,samples=2",
        ],
    ),
    (
        "interest",
        &[
            "interest:iterations=3,tt=1mb",
            "interest:iterations=2,parities=shared",
            "interest:iterations=3,limits=alternate,bonuses=none,beyond_depth_percent=100",
        ],
    ),
    (
        "caev",
        &["caev:cn=2,ab=1", "caev:cn=1,ab=0", "caev:cn=0,ab=2"],
    ),
    ("cns", &["cns:nodes=3000", "cns:w=5,t=2,nodes=1000"]),
    ("uct", &["uct:sims=300,seed=4"]),
    (
        "mac-ucb",
        &[
            "mac-ucb:samples=300",
            "mac-ucb:samples=200,arms=own,choice=most,pruning=all,horizon=4,preprocess=off",
        ],
    ),
    (
        "fc-ucb",
        &["fc-ucb:samples=300,choice=mean,pruning=off,seed=3"],
    ),
];

fn short_specs(name: &str) -> Vec<String> {
    let (_, specs) = SHORT_SPECS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("registered searcher `{name}` has no row in SHORT_SPECS"));
    specs
        .iter()
        .map(|s| s.replace("{d}", &DEPTH.to_string()))
        .collect()
}

fn load(game: &str) -> GameChoice {
    let path = if game.starts_with("crates/") {
        format!("{}/../{game}", env!("CARGO_MANIFEST_DIR"))
    } else {
        game.to_string()
    };
    GameChoice::parse(&path).unwrap_or_else(|e| panic!("{game}: {e}"))
}

/// Checks that `result`'s move is legal at `root` and its PV is a line of legal moves. At a
/// simultaneous root a searcher names player 0's move (and the PV is that move alone); at a chance
/// root nobody chooses.
fn check_moves<G: GeneralGame>(
    game: &G,
    root: &G::State,
    result: &SearchResult<G::Move>,
    what: &str,
) {
    let mut moves = MoveList::new();
    let chooser = match game.turn(root) {
        Turn::Player(p) => Some(p),
        Turn::Simultaneous => Some(0),
        Turn::Over | Turn::Chance => None,
    };
    match chooser {
        Some(p) => {
            game.legal_moves(root, p, &mut moves);
            let best = result
                .best_move
                .unwrap_or_else(|| panic!("{what}: no move"));
            assert!(moves.contains(&best), "{what}: illegal best move");
        }
        None => assert!(
            result.best_move.is_none(),
            "{what}: a move where nobody chooses"
        ),
    }
    if let (Some(first), Some(best)) = (result.pv.first(), result.best_move) {
        assert!(
            *first == best,
            "{what}: the PV does not start with the best move"
        );
    }
    if game.turn(root) == Turn::Simultaneous {
        assert!(result.pv.len() <= 1, "{what}: a PV through a joint move");
        return;
    }
    let mut state = root.clone();
    for (i, &mv) in result.pv.iter().enumerate() {
        let Turn::Player(p) = game.turn(&state) else {
            panic!("{what}: the PV goes on past a node where no single player moves (ply {i})")
        };
        game.legal_moves(&state, p, &mut moves);
        assert!(moves.contains(&mv), "{what}: PV move {i} is illegal");
        game.play(&mut state, mv);
    }
}

struct Matrix {
    game: &'static str,
    runs: usize,
}

impl GameVisitor for Matrix {
    type Output = usize;

    /// Games that are not two-player zero-sum: the general searchers run, and MAC-UCB and FC-UCB
    /// on games that describe their rounds; the others are refused with an error naming what is
    /// accepted.
    fn visit<G: Registered>(mut self, game: &G, root: &G::State) -> usize {
        let rounds = describes_rounds(self.game);
        for info in SEARCHERS {
            let plays = info.needs == Needs::General || (info.needs == Needs::Rounds && rounds);
            for text in short_specs(info.name) {
                let what = format!("{text} on {}", self.game);
                let spec: Spec = text.parse().unwrap();
                match game.searcher(&spec) {
                    Ok(mut built) => {
                        assert!(plays, "{what}: a searcher for other games was built");
                        let result = built.searcher.search(game, root, &Limits::none());
                        check_moves(game, root, &result, &what);
                        self.runs += 1;
                    }
                    Err(e) => {
                        assert!(!plays, "{what}: {e}");
                        assert!(
                            e.to_string().contains("this game takes: uct"),
                            "{what}: {e}"
                        );
                    }
                }
            }
        }
        self.runs
    }

    fn visit_zero_sum<G: Registered + ZeroSumGame>(mut self, game: &G, root: &G::State) -> usize {
        let oracle: Spec = format!("minimax:depth={DEPTH}").parse().unwrap();
        let oracle = game
            .searcher(&oracle)
            .unwrap()
            .searcher
            .search(game, root, &Limits::none());
        assert_eq!(oracle.bound, Bound::Exact);
        for info in SEARCHERS {
            for text in short_specs(info.name) {
                let what = format!("{text} on {}", self.game);
                let spec: Spec = text.parse().unwrap();
                if info.needs == Needs::Rounds {
                    let e = game.searcher(&spec).err().expect("refused");
                    assert!(
                        e.to_string().contains("this game takes: minimax"),
                        "{what}: {e}"
                    );
                    continue;
                }
                let mut built = game
                    .searcher(&spec)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let result = built.searcher.search(game, root, &Limits::none());
                check_moves(game, root, &result, &what);
                if info.exact {
                    assert_eq!(
                        result.value, oracle.value,
                        "{what}: value differs from minimax"
                    );
                    assert_eq!(result.bound, Bound::Exact, "{what}: root bound");
                }
                self.runs += 1;
            }
        }
        self.runs
    }
}

#[test]
fn every_searcher_on_every_game() {
    let mut total = 0;
    for &name in GAMES {
        let runs = load(name).visit(Matrix {
            game: name,
            runs: 0,
        });
        assert!(runs > 0, "{name}: nothing ran");
        total += runs;
    }
    let zero_sum_runs: usize = SHORT_SPECS.iter().map(|(_, s)| s.len()).sum();
    assert!(total >= zero_sum_runs * 4, "only {total} searches ran");
}

#[test]
fn every_registered_searcher_has_a_row_and_every_row_is_registered() {
    for info in SEARCHERS {
        assert!(!short_specs(info.name).is_empty());
    }
    for (name, _) in SHORT_SPECS {
        assert!(
            SEARCHERS.iter().any(|s| s.name == *name),
            "`{name}` is not registered"
        );
    }
}

#[test]
fn exact_searchers_agree_with_minimax_on_many_random_trees() {
    // The matrix's exact rows again, on 40 random explicit trees and 20 random-branching
    // incremental trees at depths 1..=5.
    let mut games: Vec<String> = (0..40)
        .map(|seed| {
            format!(
                "tree:seed={seed},depth={},branching={}",
                1 + seed % 5,
                2 + seed % 6
            )
        })
        .collect();
    games.extend((0..20).map(|seed| format!("random-tree:max_b=6,d={},seed={seed}", 1 + seed % 5)));
    for game in &games {
        let choice = GameChoice::parse(game).unwrap();
        choice.visit(Exact { game });
    }

    struct Exact<'a> {
        game: &'a str,
    }
    impl GameVisitor for Exact<'_> {
        type Output = ();
        fn visit<G: Registered>(self, _: &G, _: &G::State) {
            unreachable!("all these games are zero-sum")
        }
        fn visit_zero_sum<G: Registered + ZeroSumGame>(self, game: &G, root: &G::State) {
            for depth in 1..=5 {
                let run = |text: String| {
                    let spec: Spec = text.parse().unwrap();
                    game.searcher(&spec)
                        .unwrap()
                        .searcher
                        .search(game, root, &Limits::none())
                };
                let oracle = run(format!("minimax:depth={depth}"));
                for info in SEARCHERS.iter().filter(|s| s.exact) {
                    for text in short_specs(info.name) {
                        let text =
                            text.replace(&format!("depth={DEPTH}"), &format!("depth={depth}"));
                        let result = run(text.clone());
                        assert_eq!(result.value, oracle.value, "{text} on {}", self.game);
                    }
                }
            }
        }
    }
}

#[test]
fn othello_searchers_take_an_evaluation_and_bad_specs_say_what_is_accepted() {
    struct Run(&'static str);
    impl GameVisitor for Run {
        type Output = Result<String, String>;
        fn visit<G: Registered>(self, game: &G, root: &G::State) -> Result<String, String> {
            let spec: Spec = self.0.parse().map_err(|e| format!("{e}"))?;
            let mut built = game.searcher(&spec).map_err(|e| format!("{e}"))?;
            built.searcher.search(game, root, &Limits::none());
            Ok(built.spec)
        }
    }
    let othello = load("othello:moves=f5d6c3");
    for (spec, full) in [
        (
            "interest:limit_step=800,eval=ev2,iterations=3",
            "interest:iterations=3,limit_step=800,scale=100000,sibling_percent=100,\
             similar_percent=100,parities=separate,inherit_siblings=true,limits=whole,\
             bonuses=treebeard,beyond_depth_percent=50,tt=4mb,eval=ev2",
        ),
        (
            "caev:cn=2,ab=1",
            "caev:cn=2,ab=1,range=1000,step=50,eval=ev1",
        ),
        (
            "pvs:depth=3,eval=ev2",
            "pvs:depth=3,tt=64mb,cutoff=ge,aspiration=0,countermoves=false,lmr=0,null=0,singular=0,threads=1,eval=ev2",
        ),
    ] {
        let built = othello
            .visit(Run(spec))
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(built, full);
    }
    let err = othello.visit(Run("pvs:eval=ev3")).unwrap_err();
    assert!(err.contains("ev1") && err.contains("ev2"), "{err}");
    let err = othello
        .visit(Run("interest:similar_percent=20000"))
        .unwrap_err();
    assert!(err.contains("similar_percent"), "{err}");
    let err = othello.visit(Run("fe:bounds=exact")).unwrap_err();
    assert!(err.contains("offline"), "{err}");
    let err = load("tree").visit(Run("alphabeta:eval=ev1")).unwrap_err();
    assert!(err.contains("no parameter `eval`"), "{err}");
    // UCT evaluates nothing: it takes no evaluation, and its full spec names none.
    let err = othello.visit(Run("uct:sims=10,eval=ev2")).unwrap_err();
    assert!(err.contains("`uct` has no parameter `eval`"), "{err}");
    assert_eq!(
        othello.visit(Run("uct:sims=10")).unwrap(),
        "uct:sims=10,c=1.4,seed=0,reuse=false,solver=false,threads=1,parallel=root"
    );
    // A depth of 0 would name no move.
    for spec in [
        "pvs:depth=0",
        "minimax:depth=0",
        "fe:depth=0",
        "alphabeta:depth=0",
    ] {
        let err = othello.visit(Run(spec)).unwrap_err();
        assert!(err.contains("an integer from 1 to 256"), "{spec}: {err}");
    }
    assert!(othello.visit(Run("caev:cn=1,ab=0")).is_ok());
    let err = othello.visit(Run("caev:cn=0,ab=0")).unwrap_err();
    assert!(err.contains("ab=0: CN(0, 0) would search nothing"), "{err}");
}

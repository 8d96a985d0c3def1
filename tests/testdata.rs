//! The loader of the workspace's `testdata/` folder (described in `testdata/README.md`): every
//! table a test checks engines against, read from one place.
//!
//! Every function here panics with the path of the file and what is wrong with it when a file is
//! missing, unreadable or malformed. Test data is part of the repository: a test that cannot read
//! its data fails, it never skips.

use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};

use gametree::chess::Position as ChessPosition;
use gametree::othello::obf::parse_obf_line;
use gametree::othello::{read_obf, ObfPosition, Position};
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// The workspace root: the tests package sits at `<root>/tests`.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests package sits inside the workspace")
        .to_path_buf()
}

/// `<root>/testdata/<relative>`, which must exist.
pub fn path(relative: &str) -> PathBuf {
    existing(workspace_root().join("testdata").join(relative))
}

/// `path` itself, or a panic naming it if it does not exist.
fn existing(path: PathBuf) -> PathBuf {
    assert!(
        path.is_file(),
        "test data file {} is missing: it is part of the repository (see testdata/README.md), \
         and tests never skip for lack of data",
        path.display()
    );
    path
}

/// The text of `testdata/<relative>`.
pub fn read(relative: &str) -> String {
    let path = path(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `testdata/<relative>` parsed as TOML into `T`.
pub fn load_toml<T: DeserializeOwned>(relative: &str) -> T {
    let text = read(relative);
    toml::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not a valid table: {e}", path(relative).display()))
}

/// The positions of the OBF file `testdata/ffo/<name>`, with the exact move scores it lists.
pub fn ffo(name: &str) -> Vec<ObfPosition> {
    let path = ffo_path(name);
    let positions = read_obf(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        !positions.is_empty(),
        "{} holds no position",
        path.display()
    );
    for p in &positions {
        assert!(
            p.best_score().is_some(),
            "{} line {}: no move score listed",
            path.display(),
            p.line
        );
    }
    positions
}

/// The path of `testdata/ffo/<name>`, which must exist.
pub fn ffo_path(name: &str) -> PathBuf {
    path(&format!("ffo/{name}"))
}

/// `testdata/perft.toml`: perft counts from Othello positions, chess positions and GDL games.
#[derive(Clone, Debug)]
pub struct PerftTables {
    /// Othello positions, counted by the Othello engines.
    pub othello: Vec<PerftCase<Position>>,
    /// Chess positions, counted by gametree-chess.
    pub chess: Vec<PerftCase<ChessPosition>>,
    /// GDL games from their initial state, counted by the GDL reasoners.
    pub gdl: Vec<PerftCase<PathBuf>>,
}

/// One row of a perft table: where counting starts and perft at depths 1, 2, 3, ….
#[derive(Clone, Debug)]
pub struct PerftCase<S> {
    /// The case's name, for messages.
    pub name: String,
    /// The start: an Othello or chess position, or the path of a GDL game file.
    pub start: S,
    /// `counts[i]` is perft at depth `i + 1`.
    pub counts: Vec<u64>,
}

impl<S> PerftCase<S> {
    /// `(depth, count)` for every listed depth, shallowest first.
    pub fn depths(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        (1..).zip(self.counts.iter().copied())
    }
}

/// The file's rows as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPerft {
    othello: Vec<RawCase>,
    chess: Vec<RawCase>,
    gdl: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    /// Othello: `start` or an OBF board and side to move. Chess: `start` or a FEN. GDL: a game
    /// file, from the workspace root.
    start: String,
    counts: Vec<u64>,
}

/// Loads and checks `testdata/perft.toml`.
pub fn perft() -> PerftTables {
    const FILE: &str = "perft.toml";
    let raw: RawPerft = load_toml(FILE);
    let file = path(FILE);
    let bad = |case: &str, what: String| -> ! { panic!("{}: [{case}]: {what}", file.display()) };
    let check = |case: &RawCase| {
        if case.counts.is_empty() {
            bad(&case.name, "no counts".into());
        }
        // A finished game counts 1 at any depth and every other node has a move: perft never shrinks.
        if case.counts.windows(2).any(|w| w[1] < w[0]) {
            bad(&case.name, format!("counts decrease: {:?}", case.counts));
        }
    };
    let othello = raw
        .othello
        .iter()
        .map(|case| {
            check(case);
            let start = if case.start == "start" {
                Position::start()
            } else {
                match parse_obf_line(&case.start, 1) {
                    Ok(Some(obf)) => obf.position,
                    Ok(None) => bad(&case.name, "empty position".into()),
                    Err(e) => bad(&case.name, format!("position: {e}")),
                }
            };
            PerftCase {
                name: case.name.clone(),
                start,
                counts: case.counts.clone(),
            }
        })
        .collect();
    let chess = raw
        .chess
        .iter()
        .map(|case| {
            check(case);
            let start = if case.start == "start" {
                ChessPosition::start()
            } else {
                ChessPosition::from_fen(&case.start)
                    .unwrap_or_else(|e| bad(&case.name, format!("position: {e}")))
            };
            PerftCase {
                name: case.name.clone(),
                start,
                counts: case.counts.clone(),
            }
        })
        .collect();
    let gdl = raw
        .gdl
        .iter()
        .map(|case| {
            check(case);
            PerftCase {
                name: case.name.clone(),
                start: existing(workspace_root().join(&case.start)),
                counts: case.counts.clone(),
            }
        })
        .collect();
    let tables = PerftTables {
        othello,
        chess,
        gdl,
    };
    unique_names(&file, &tables.othello);
    unique_names(&file, &tables.chess);
    unique_names(&file, &tables.gdl);
    tables
}

fn unique_names<S: Debug>(file: &Path, cases: &[PerftCase<S>]) {
    assert!(!cases.is_empty(), "{}: an empty table", file.display());
    for (i, case) in cases.iter().enumerate() {
        assert!(
            cases[..i].iter().all(|c| c.name != case.name),
            "{}: two cases named {:?}",
            file.display(),
            case.name
        );
    }
}

//! The parsers under test, each with the real files it reads as seeds and the tokens of its
//! language.

use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::registry::{GAMES, SEARCHERS};
use gametree::spec::{parse_size, Args, DefaultValue, Kind, Param, Spec};

use std::time::Duration;

use gametree::gdl::{GdlError, Limits, Loader, UnsafeVariables};
use gametree::othello::OthelloError;
use gametree::scsp::ScspError;
use gametree::spec::SpecError;

use ggp::{message, sexp};

/// One parser under test.
pub struct Target {
    /// Its name on the command line.
    pub name: &'static str,
    /// What it parses.
    pub about: &'static str,
    /// The real inputs mutations start from.
    pub seeds: fn() -> Vec<String>,
    /// Words of its language, inserted by mutations.
    pub tokens: &'static [&'static str],
    /// What opens a nesting level, repeated by the deep-nesting mutation.
    pub opener: &'static str,
    /// Parses one input: `true` if accepted, `false` if rejected with an error.
    pub run: fn(&str) -> bool,
}

/// Every target, in the order `--target all` runs them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "gdl-kif",
        about: "GDL game descriptions in KIF: parsing and validation",
        seeds: kif_games,
        tokens: GDL_TOKENS,
        opener: "(",
        run: gdl_parse,
    },
    Target {
        name: "gdl-kif-load",
        about: "GDL game descriptions in KIF: parsing, validation, grounding within limits, checks",
        seeds: kif_games,
        tokens: GDL_TOKENS,
        opener: "(",
        run: gdl_load,
    },
    Target {
        name: "gdl-infix",
        about: "GDL game descriptions in the infix (Prolog-like) syntax: parsing and validation",
        seeds: infix_games,
        tokens: GDL_TOKENS,
        opener: "f(",
        run: gdl_parse,
    },
    Target {
        name: "gdl-infix-load",
        about: "GDL game descriptions in the infix syntax: parsing, validation, grounding, checks",
        seeds: infix_games,
        tokens: GDL_TOKENS,
        opener: "f(",
        run: gdl_load,
    },
    Target {
        name: "obf",
        about: "Othello positions in OBF, and move strings played from them",
        seeds: obf_files,
        tokens: &[
            "X", "O", "-", ";", ":", "+", "a1", "h8", "ps", "pa", "A9", "i1", "\n", " ",
        ],
        opener: "-",
        run: obf,
    },
    Target {
        name: "game-spec",
        about: "game specs (`othello:moves=f5d6`, `random-tree:b=5,d=6`)",
        seeds: game_specs,
        tokens: SPEC_TOKENS,
        opener: ",",
        run: game_spec,
    },
    Target {
        name: "searcher-spec",
        about: "searcher specs (`pvs:depth=8,tt=64mb`) checked against the registry's tables",
        seeds: searcher_specs,
        tokens: SPEC_TOKENS,
        opener: ",",
        run: searcher_spec,
    },
    Target {
        name: "searcher-build",
        about: "searcher specs built for three games (tables allocated, nothing searched)",
        seeds: searcher_specs,
        tokens: SPEC_TOKENS,
        opener: ",",
        run: searcher_build,
    },
    Target {
        name: "scsp-json",
        about: "stochastic constraint networks in JSON",
        seeds: scsp_files,
        tokens: &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "null",
            "true",
            "-1",
            "\"variables\"",
            "\"constraints\"",
            "\"players\"",
            "\"domain\"",
            "\"stochastic\"",
            "\"scope\"",
        ],
        opener: "[",
        run: scsp_json,
    },
    Target {
        name: "ggp-message",
        about: "messages of the General Game Playing protocol",
        seeds: ggp_messages,
        tokens: &[
            "(", ")", "info", "start", "play", "stop", "abort", "preview", "nil", "10", ";c\n",
        ],
        opener: "(",
        run: ggp_message,
    },
];

const GDL_TOKENS: &[&str] = &[
    "(", ")", "<=", ":-", "←", ",", "&", ".", "not", "or", "distinct", "true", "does", "next",
    "init", "legal", "goal", "terminal", "role", "random", "sees", "base", "input", "?x", "X", "_",
    "100", " ", "\n", ";c\n", "%c\n",
];

const SPEC_TOKENS: &[&str] = &[
    ":", ",", "=", "depth", "tt", "seed", "moves", "eval", "true", "0", "-1", " ",
];

/// The shipped GDL games, included so that the binary runs from any directory.
const KIF_GAMES: [&str; 13] = [
    include_str!("../../gdl/games/amazons.kif"),
    include_str!("../../gdl/games/breakthrough.kif"),
    include_str!("../../gdl/games/checkers.kif"),
    include_str!("../../gdl/games/chess.kif"),
    include_str!("../../gdl/games/connect4.kif"),
    include_str!("../../gdl/games/dice_duel.kif"),
    include_str!("../../gdl/games/hex.kif"),
    include_str!("../../gdl/games/matching_pennies.kif"),
    include_str!("../../gdl/games/montyhall.kif"),
    include_str!("../../gdl/games/othello.kif"),
    include_str!("../../gdl/games/pacman.kif"),
    include_str!("../../gdl/games/rps3.kif"),
    include_str!("../../gdl/games/tictactoe.kif"),
];

fn kif_games() -> Vec<String> {
    KIF_GAMES.iter().map(|s| s.to_string()).collect()
}

/// The shipped games rewritten in the infix syntax.
fn infix_games() -> Vec<String> {
    KIF_GAMES.iter().filter_map(|kif| to_infix(kif)).collect()
}

/// `(<= (p ?x) (q ?x))` as `p(?x) :- q(?x).`; `None` if the text is not a list of s-expressions.
fn to_infix(kif: &str) -> Option<String> {
    let clauses = sexp::parse(&format!("({kif})")).ok()?;
    let sexp::Sexp::List(clauses) = clauses else {
        return None;
    };
    let mut out = String::new();
    for clause in &clauses {
        match clause {
            sexp::Sexp::List(items) if items.first().is_some_and(|h| h.is("<=")) => {
                let body: Vec<String> = items[2..].iter().map(term).collect();
                out += &format!("{} :- {}.\n", term(&items[1]), body.join(", "));
            }
            fact => out += &format!("{}.\n", term(fact)),
        }
    }
    Some(out)
}

fn term(sexp: &sexp::Sexp) -> String {
    match sexp {
        sexp::Sexp::Atom(a) => a.clone(),
        sexp::Sexp::List(items) => match items.split_first() {
            Some((head, args)) => {
                let args: Vec<String> = args.iter().map(term).collect();
                format!("{}({})", term(head), args.join(", "))
            }
            None => "nil".into(),
        },
    }
}

/// Loading limits a tenth or less of the defaults: the same checks stop grounding, sooner.
fn fuzz_limits() -> Limits {
    Limits {
        ground_rules: 200_000,
        atoms: 500_000,
        static_relation_atoms: 50_000,
        relaxed_atoms: 50_000,
        // On, unlike the default: a description that does not ground whole reaches the hybrid
        // reasoner's domain analysis, bridging and second grounding too.
        hybrid_relation_atoms: 1_600,
        memory_bytes: 256 << 20,
        time: Duration::from_secs(2),
        ground_time: Duration::from_millis(500),
        ground_steps: 10_000_000,
        fallback: true,
        fallback_query: Duration::from_millis(100),
        // Bound rather than rejected, so that mutations that unbind a variable reach the binding.
        unsafe_variables: UnsafeVariables::RangeOverGroundTerms,
    }
}

/// Descriptions up to this size also get the full check (with the default limits and random
/// playouts): the small shipped games and what mutations make of them.
const CHECKED_SIZE: usize = 3000;

/// Parses and validates: what every loader does first, and all a syntax or rule error needs.
fn gdl_parse(text: &str) -> bool {
    let parsed = gametree::gdl::description::load(text, "fuzz");
    if let Err(e) = &parsed {
        gdl_error_within(text, e);
    }
    parsed.is_ok()
}

/// Loads the game (statics, grounding, the fast reasoner or the fallback) within
/// [`fuzz_limits`], and checks small ones with random playouts.
fn gdl_load(text: &str) -> bool {
    let parsed = Loader::text(text)
        .name("fuzz")
        .limits(&fuzz_limits())
        .load();
    if let Err(e) = &parsed {
        gdl_error_within(text, e);
    }
    let accepted = parsed.is_ok();
    if text.len() <= CHECKED_SIZE {
        let _ = gametree::gdl::Loader::text(text).name("fuzz").check();
    }
    accepted
}

fn gdl_error_within(text: &str, error: &GdlError) {
    if let GdlError::Syntax { location, .. } = error {
        within(text, location.line as usize, location.column as usize);
    }
}

fn obf_files() -> Vec<String> {
    let files = [
        include_str!("../../../testdata/ffo/fforum-1-19.obf"),
        include_str!("../../../testdata/ffo/fforum-20-39.obf"),
    ];
    // One position per seed, and the move strings the positions name as best.
    let lines = files.iter().flat_map(|f| f.lines().map(str::to_string));
    lines
        .chain(["f5d6c3d3c4".to_string(), "F5 d6 pass".to_string()])
        .collect()
}

/// Parses the text as OBF; each position then plays the text as a move string, and the start
/// position plays every line as one.
fn obf(text: &str) -> bool {
    use gametree::othello::{parse_moves, parse_obf, Position};
    let _ = parse_moves(text);
    for line in text.lines().take(4) {
        let _ = Position::start().play_moves(line);
    }
    match parse_obf(text) {
        Err(e) => {
            obf_error_within(text, &e);
            false
        }
        Ok(positions) => {
            for p in positions.iter().take(4) {
                let _ = p.position.play_moves(text);
                let _ = p.best_moves();
            }
            true
        }
    }
}

fn obf_error_within(text: &str, error: &OthelloError) {
    match *error {
        OthelloError::ObfBoardChar { line, column, .. }
        | OthelloError::ObfSide { line, column, .. }
        | OthelloError::ObfScore { line, column, .. } => within(text, line, column),
        OthelloError::ObfBoardLength { line, .. } => within(text, line, 1),
        _ => {}
    }
}

/// `name:key=default,…`: a spec naming every parameter with its default.
fn full_spec(name: &str, params: &[Param]) -> String {
    let given: Vec<String> = params
        .iter()
        .filter_map(|p| match p.default {
            DefaultValue::Fixed(v) if !v.is_empty() => Some(format!("{}={v}", p.key)),
            _ => None,
        })
        .collect();
    format!("{name}:{}", given.join(","))
}

fn game_specs() -> Vec<String> {
    let mut seeds: Vec<String> = GAMES
        .iter()
        .filter(|g| g.named)
        .map(|g| full_spec(g.name, g.params))
        .collect();
    seeds.extend(GAMES.iter().map(|g| g.name.to_string()));
    seeds.push("othello:moves=f5d6c3d3c4".into());
    seeds
}

fn searcher_specs() -> Vec<String> {
    let mut seeds: Vec<String> = SEARCHERS
        .iter()
        .map(|s| full_spec(s.name, s.params))
        .collect();
    seeds.extend(SEARCHERS.iter().map(|s| s.name.to_string()));
    seeds.push("pvs:depth=8,tt=64mb,eval=ev2".into());
    seeds
}

fn game_spec(text: &str) -> bool {
    // A path would read a file, maybe a device; game files are the GDL targets' business.
    let text = text.replace(['/', '\\'], "_");
    if text.ends_with(".kif")
        || text.ends_with(".gdl")
        || text.ends_with(".kif2")
        || text.ends_with(".pl")
    {
        return false;
    }
    let parsed = GameChoice::parse(&text);
    if let Err(e) = &parsed {
        spec_error_within(&text, e);
    }
    parsed.is_ok()
}

fn spec_error_within(text: &str, error: &SpecError) {
    match *error {
        SpecError::Malformed { column, .. }
        | SpecError::UnknownKey { column, .. }
        | SpecError::BadValue { column, .. } => {
            // A spec is one line: its columns count every character, line breaks included.
            let width = text.chars().count();
            assert!(
                (1..=width + 1).contains(&column),
                "error at column {column} of {width}"
            );
        }
        _ => {}
    }
}

/// The games searchers are built for: a zero-sum game with an evaluation, an explicit tree, and a
/// game only the general searchers play.
const GAMES_FOR_SEARCHERS: [&str; 3] = ["othello:moves=f5d6", "tree:depth=3", "nim:heap=5"];

/// Parses the spec and checks its keys and values against the searcher's table and the
/// parameters Othello adds to evaluating searchers: everything short of building.
fn searcher_spec(text: &str) -> bool {
    let spec = match text.parse::<Spec>() {
        Ok(spec) => spec,
        Err(e) => {
            spec_error_within(text, &e);
            return false;
        }
    };
    let entry = match gametree::registry::searcher(spec.name()) {
        Ok(entry) => entry,
        Err(_) => return false,
    };
    let othello = gametree::registry::game("othello").map_or(&[][..], |g| g.searcher_params);
    let extra = if entry.evaluates { othello } else { &[] };
    match Args::new(&spec, &[entry.params, extra]) {
        Ok(_) => true,
        Err(e) => {
            spec_error_within(text, &e);
            false
        }
    }
}

/// Builds the searcher for each of [`GAMES_FOR_SEARCHERS`]: allocating tables (up to 16 MiB)
/// and sampling games costs far more than parsing, hence a target of its own.
fn searcher_build(text: &str) -> bool {
    let spec = match text.parse::<Spec>() {
        Ok(spec) => spec,
        Err(e) => {
            spec_error_within(text, &e);
            return false;
        }
    };
    if too_costly(&spec) {
        return false;
    }
    let mut accepted = false;
    for game in GAMES_FOR_SEARCHERS {
        let game = GameChoice::parse(game).expect("a valid built-in game spec");
        accepted |= game.visit_for(&spec, Build(&spec));
    }
    accepted
}

/// Values that are valid but ask for work the fuzzer should not wait for or memory it should not
/// take: tables over 16 MiB, thousands of sample games at build time.
fn too_costly(spec: &Spec) -> bool {
    let params = SEARCHERS
        .iter()
        .flat_map(|s| s.params)
        .chain(GAMES.iter().flat_map(|g| g.searcher_params));
    params.into_iter().any(|p| {
        let Some(value) = spec.value(p.key) else {
            return false;
        };
        match p.kind {
            Kind::Size => parse_size(value).is_some_and(|bytes| bytes > 16 << 20),
            Kind::Int { .. } => p.key == "samples" && value.parse::<u64>().is_ok_and(|n| n > 1000),
            _ => false,
        }
    })
}

/// Builds the searcher a spec names for the visited game, without searching.
struct Build<'a>(&'a Spec);

impl GameVisitor for Build<'_> {
    type Output = bool;
    fn visit<G: Registered>(self, game: &G, _root: &G::State) -> bool {
        game.searcher(self.0).is_ok()
    }
}

fn scsp_files() -> Vec<String> {
    vec![
        include_str!("../../scsp-mac-ucb/testdata/example2.json").to_string(),
        include_str!("../../scsp-mac-ucb/testdata/one-stage.json").to_string(),
    ]
}

fn scsp_json(text: &str) -> bool {
    let parsed = gametree::scsp::json::parse(text);
    if let Err(ScspError::Syntax { line, column, .. }) = &parsed {
        within(text, *line, *column);
    }
    parsed.is_ok()
}

fn ggp_messages() -> Vec<String> {
    let rules = KIF_GAMES[12];
    vec![
        "(info)".into(),
        format!("(start m1 xplayer ({rules}) 10 5)"),
        "(play m1 nil)".into(),
        "(play m1 ((mark 1 1) noop))".into(),
        "(play m1 3 (mark 1 1) ((sees x)))".into(),
        "(stop m1 ((mark 3 3) noop))".into(),
        "(abort m1)".into(),
        format!("(preview ({rules}) 10)"),
    ]
}

fn ggp_message(text: &str) -> bool {
    let parsed = message::Message::parse(text);
    if let Err(message::MessageError::Syntax(e)) = &parsed {
        assert!(
            e.offset <= text.len(),
            "error at byte {} of {}",
            e.offset,
            text.len()
        );
    }
    parsed.is_ok()
}

/// Panics unless the 1-based `line` and `column` of an error lie in `text` or just past its end:
/// an error that points elsewhere is a bug too.
fn within(text: &str, line: usize, column: usize) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        (1..=lines.len()).contains(&line),
        "error at line {line} of {}",
        lines.len()
    );
    let width = lines[line - 1].chars().count();
    assert!(
        (1..=width + 1).contains(&column),
        "error at column {column} of line {line}, {width} wide"
    );
}

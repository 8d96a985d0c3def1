//! Every searcher and game that can be named in text, with its parameters: one table, from which
//! the builders take their defaults, the errors list what is accepted, `gametree list` prints its
//! help, and the reference below is generated (a test keeps it up to date).
//!
//! To build a searcher for your own game by name, give [`Kit`](crate::kit::Kit) your evaluation
//! (and, if you have them, a move ordering and a plausibility) and ask for a spec:
//! `kit.searcher(&game, "pvs:depth=8")`. Built-in games are chosen by
//! [`GameChoice`](crate::games::GameChoice).
//!
#![doc = include_str!("registry/reference.md")]

use std::fmt::Write;

use game_trait::INFINITY;

use crate::spec::{DefaultValue, Kind, Param, SpecError};

/// A searcher that can be named in a spec.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearcherEntry {
    /// The name before the colon.
    pub name: &'static str,
    /// What it is, in one line.
    pub about: &'static str,
    /// The paper it implements, by authors, title and year ("" for textbook algorithms).
    pub paper: &'static str,
    /// The games it plays.
    pub needs: Needs,
    /// Whether it uses the game's evaluation, and so takes the game's
    /// [`searcher_params`](GameEntry::searcher_params) (Othello's `eval`).
    pub evaluates: bool,
    /// Whether, at the same depth and evaluation, it returns exactly the minimax value.
    pub exact: bool,
    /// Its parameters.
    pub params: &'static [Param],
}

/// The games a searcher plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Two-player zero-sum games ([`ZeroSumGame`](game_trait::ZeroSumGame)).
    ZeroSum,
    /// Every game ([`GeneralGame`](game_trait::GeneralGame)).
    General,
    /// Games that describe their rounds as variables and tables
    /// ([`RoundGame`](game_trait::RoundGame)).
    Rounds,
}

impl SearcherEntry {
    /// Which games it plays, for listings.
    pub fn plays(&self) -> &'static str {
        match self.needs {
            Needs::ZeroSum => "two-player zero-sum games",
            Needs::General => "every game",
            Needs::Rounds => "games that describe their rounds as variables and tables",
        }
    }
}

/// A game that can be named in a spec.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameEntry {
    /// The name before the colon (`<file>.kif` for game files).
    pub name: &'static str,
    /// Whether a spec names the game by `name`: `false` for the `<file>.kif` row, which describes
    /// game files in listings and is not a name [`game`] finds.
    pub named: bool,
    /// What it is, in one line.
    pub about: &'static str,
    /// Its parameters.
    pub params: &'static [Param],
    /// Parameters this game adds to every searcher that uses its evaluation (Othello: `eval`):
    /// those whose [`evaluates`](SearcherEntry::evaluates) is set.
    pub searcher_params: &'static [Param],
}

const fn int(min: i64, max: i64) -> Kind {
    Kind::Int { min, max }
}

const fn choice(words: &'static [&'static str]) -> Kind {
    Kind::Choice(words)
}

const ANY: i64 = i64::MAX;
#[cfg(feature = "random-tree")]
const I32_MIN: i64 = i32::MIN as i64;
#[cfg(feature = "random-tree")]
const I32_MAX: i64 = i32::MAX as i64;
/// A search depth: at least one ply, or the search names no move.
const DEPTH: Kind = int(1, 256);
const CUTOFF: Param = Param::fixed(
    "cutoff",
    choice(&["ge", "gt"]),
    "ge",
    "cutoff criterion: ge stops at ret ≥ β, gt at ret > β (a value equal to α or β is then exact)",
);
/// `threads` of the α/β searchers that run Lazy SMP.
const THREADS: Param = Param::fixed(
    "threads",
    int(1, 256),
    "1",
    "threads sharing the table: Lazy SMP with move deferral (without lmr, null or singular, the value is the one-thread value)",
);

const TT_NONE: Param = Param::fixed(
    "tt",
    Kind::Size,
    "0",
    "transposition-table size, 0 for none",
);

/// Every searcher, in the order `gametree list` shows them. Those that evaluate also take the
/// game's [`searcher_params`](GameEntry::searcher_params) (Othello's `eval`).
#[rustfmt::skip] // a table: one parameter per line
pub const SEARCHERS: &[SearcherEntry] = &[
    SearcherEntry {
        name: "minimax",
        about: "plain full-width negamax, the oracle every pruning search is tested against",
        paper: "",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: true,
        params: &[Param::fixed("depth", DEPTH, "3", "depth in plies")],
    },
    SearcherEntry {
        name: "alphabeta",
        about: "fail-soft negamax alpha-beta that reports whether its value is exact or a bound",
        paper: "Knuth and Moore, An Analysis of Alpha-Beta Pruning, 1975",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: true,
        params: &[Param::fixed("depth", DEPTH, "4", "depth in plies"), TT_NONE, CUTOFF],
    },
    SearcherEntry {
        name: "pvs",
        about: "principal variation search with iterative deepening, a table, killers and history",
        paper: "Marsland and Campbell, Parallel Search of Strongly Ordered Game Trees, 1982",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: true,
        params: &[
            Param::fixed("depth", DEPTH, "6", "depth of the last iteration, in plies"),
            Param::fixed("tt", Kind::Size, "64mb", "transposition-table size, 0 for none"),
            CUTOFF,
            Param::fixed("aspiration", int(0, INFINITY as i64), "0",
                "half-width of the window around the last iteration's value, 0 for none"),
            Param::fixed("countermoves", Kind::Flag, "false",
                "try the best reply to the previous move right after the killers"),
            Param::fixed("lmr", int(0, 8), "0",
                "late-move reductions: plies a late, quiet move is first searched shallower by \
                 (after 3 moves, at draft 3 and up; re-searched if it beats α), 0 for none; \
                 a heuristic: values are no longer exact"),
            Param::fixed("null", int(0, 6), "0",
                "null-move pruning: R, plies the search of a pass is shallower than a move's \
                 (at draft 2 and up, at null-window nodes whose static value reaches β, where \
                 the game offers a null move: Othello with more than 14 empty squares, chess \
                 out of check and king-and-pawn endings), 0 for none; a heuristic: values are no \
                 longer exact"),
            Param::fixed("singular", int(0, INFINITY as i64), "0",
                "singular extensions: a table move every other move stays this far below (in \
                 evaluation units, at half depth) is searched one ply deeper, at draft 6 and \
                 up (needs tt > 0); 0 for none; a heuristic: values are no longer exact"),
            THREADS,
        ],
    },
    SearcherEntry {
        name: "mtdf",
        about: "MTD(f): the minimax value by null-window alpha-beta probes over a table, depth by depth",
        paper: "Plaat, Schaeffer, Pijls and de Bruin, Best-First Fixed-Depth Minimax Algorithms, 1996",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: true,
        params: &[
            Param::fixed("depth", DEPTH, "6", "depth of the last iteration, in plies"),
            Param::fixed("tt", Kind::Size, "64mb", "transposition-table size, 0 for none"),
            Param::fixed("guess", int(-(INFINITY as i64) + 1, INFINITY as i64), "0",
                "first guess of the first depth; later depths start from the previous value"),
        ],
    },
    #[cfg(feature = "forward-estimation")]
    SearcherEntry {
        name: "fe",
        about: "alpha-beta pruning subtrees whose estimated value range cannot reach the window",
        paper: "Zhang, Forward Estimation for Minimax Search, 1995",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: false,
        params: &[
            Param::fixed("depth", DEPTH, "4", "depth in plies"),
            Param::fixed("delta", Kind::Real { min: 0.0, max: 1.0 }, "1.0",
                "δ, scaling the edge-cost bounds: 1 keeps alpha-beta's value with exact bounds"),
            Param::derived("bounds", choice(&["exact", "offline", "likely", "online"]),
                "`exact` where the game knows its edge costs, else `offline`",
                "edge-cost bounds: exact, learned from sample games (extremes, or likely: mean \
                 rise and fall), or learned during the search"),
            Param::fixed("samples", int(1, 1_000_000), "10", "sample games for off-line bounds"),
            Param::fixed("seed", int(0, ANY), "1", "seed of the sample games"),
            Param::fixed("reading", choice(&["literal", "node-cut"]), "literal",
                "the conditions on every child, or only on subtrees of depth >= 2 plus a node cut                  when a child's estimated range settles its parent (reproduces the paper's Table 1)"),
            TT_NONE,
            CUTOFF,
        ],
    },
    #[cfg(feature = "interest-search")]
    SearcherEntry {
        name: "interest",
        about: "PVS whose iterations raise an interest budget instead of the depth",
        paper: "Rollason, Interest Search: Another Way to Do Minimax, 2014",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: false,
        params: &[
            Param::fixed("iterations", int(1, 10_000), "6", "iterations"),
            Param::derived("limit_step", int(1, u32::MAX as i64),
                "100 per typical legal move of the game (Othello: 1000)",
                "interest limit added per iteration"),
            Param::fixed("scale", int(1, u32::MAX as i64), "100000", "cost = scale / interest"),
            Param::fixed("sibling_percent", int(0, 10_000), "100",
                "share of the elder siblings' costs a move pays"),
            Param::fixed("similar_percent", int(0, 10_000), "100",
                "extra cost per similar move already searched at the node"),
            Param::fixed("parities", choice(&["separate", "shared"]), "separate",
                "one interest tally per player, or one shared tally"),
            Param::fixed("inherit_siblings", Kind::Flag, "true",
                "whether children inherit their elder siblings' costs"),
            Param::fixed("limits", choice(&["whole", "alternate"]), "whole",
                "each player's tally against the whole iteration limit, or the limit shared out \
                 between them as plies are"),
            Param::fixed("bonuses", choice(&["treebeard", "none"]), "treebeard",
                "interest added for the engine's table move (+25), previous best, killers, best \
                 reply and follow-on (+100 each), or none"),
            Param::fixed("beyond_depth_percent", int(1, 100), "50",
                "interest kept per ply past the iteration's nominal depth, 100 for no diminishing"),
            Param::fixed("tt", Kind::Size, "4mb", "transposition-table size, 0 for none"),
        ],
    },
    #[cfg(feature = "conspiracy")]
    SearcherEntry {
        name: "caev",
        about: "the CN(x, y) player: a depth-x layer, leaves valued by a depth-y alpha-beta, moves \
                chosen by conspiracy-adjusted evaluation values",
        paper: "Vu, Ishitobi, Terrillon and Iida, Using Conspiracy Numbers for Improving Move \
                Selection in Minimax Game-Tree Search, 2016",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: false,
        params: &[
            Param::fixed("cn", int(0, 64), "3", "x: depth of the layer (0: alpha-beta of depth y)"),
            Param::fixed("ab", int(0, 256), "2",
                "y: depth of the alpha-beta valuing the layer's leaves (0: their static value)"),
            Param::derived("range", int(1, 1 << 40),
                "the game's evaluation unit (Othello EV1: 1000, one corner)",
                "RANGE: half-width of the integration window"),
            Param::derived("step", int(1, 1 << 40),
                "the largest divisor of range that is at most range / 20, at least 1 (1000: 50)",
                "STEP: segment length; range must be a multiple of it"),
        ],
    },
    #[cfg(feature = "conspiracy")]
    SearcherEntry {
        name: "cns",
        about: "conspiracy number search: grows the tree where fewest leaves can change the value",
        paper: "McAllester, Conspiracy Numbers for Min-Max Search, 1988",
        needs: Needs::ZeroSum,
        evaluates: true,
        exact: false,
        params: &[
            Param::fixed("w", int(1, ANY), "1", "granularity of the value grid"),
            Param::fixed("t", int(0, 1024), "1",
                "threshold: stop when more than t leaves must conspire to change the value"),
            Param::fixed("nodes", int(1, u32::MAX as i64), "4194304",
                "largest tree kept, in nodes"),
        ],
    },
    SearcherEntry {
        name: "uct",
        about: "Monte Carlo tree search with UCB1, decoupled at simultaneous moves",
        paper: "Kocsis and Szepesvári, Bandit Based Monte-Carlo Planning, 2006",
        needs: Needs::General,
        evaluates: false,
        exact: false,
        params: &[
            Param::fixed("sims", int(1, ANY), "10000", "simulations per search"),
            Param::fixed("c", Kind::Real { min: 0.0, max: f64::MAX }, "1.4", "exploration weight"),
            Param::fixed("seed", int(0, ANY), "0", "seed of the simulations"),
            Param::fixed("reuse", Kind::Flag, "false",
                "keep the tree for the next search, which starts from the subtree of its state \
                 (refused with threads>1 and parallel=root)"),
            Param::fixed("solver", Kind::Flag, "false",
                "record completely explored subtrees with their exact values (the best policy's: \
                 the mover's best child, chance's expectation) and use them in selection, as \
                 MCTS-Solver does; a solved root stops the search"),
            Param::fixed("threads", int(1, 256), "1",
                "threads searching at once (1: the sequential search, whatever parallel says)"),
            Param::fixed("parallel", choice(&["tree", "root"]), UCT_PARALLEL,
                "how threads>1 search: tree = one shared tree, the threads kept apart by a \
                 virtual loss of 1; root = a tree and a seed each, their root statistics merged"),
        ],
    },
    #[cfg(feature = "scsp")]
    SearcherEntry {
        name: "mac-ucb",
        about: "solves a sequence of the rounds' stochastic constraint networks by MAC + FC, each \
                instantiated where UCB points, and samples below them",
        paper: "Koriche, Lagrue, Piette and Tabary, General Game Playing with Stochastic CSP, 2016",
        needs: Needs::Rounds,
        evaluates: false,
        exact: false,
        params: MAC_UCB,
    },
    #[cfg(feature = "scsp")]
    SearcherEntry {
        name: "fc-ucb",
        about: "MAC-UCB with each round's network solved by forward checking alone",
        paper: "Koriche, Lagrue, Piette and Tabary, General Game Playing with Stochastic CSP, 2016",
        needs: Needs::Rounds,
        evaluates: false,
        exact: false,
        params: MAC_UCB,
    },
];

/// The default of `uct`'s `parallel`: root-parallel, which `cargo run --release -p gametree
/// --example uct_threads` measured at 2.00x the one-thread simulations per second on 2 threads
/// of an idle machine; it has no lock, so it cannot scale worse than tree-parallel UCT, whose
/// descents and backups take turns on one lock (Chaslot et al., 2008, also found root
/// parallelisation the stronger of the two). Side by side, on a machine too busy to show any
/// speed-up, both ran at about the one-thread rate and chose the same moves; `parallel=tree`
/// stays the choice that keeps the tree between moves (`reuse`).
const UCT_PARALLEL: &str = "root";

/// The parameters of `mac-ucb` and `fc-ucb`.
#[cfg(feature = "scsp")]
#[rustfmt::skip] // a table: one parameter per line
const MAC_UCB: &[Param] = &[
    Param::fixed("samples", int(1, ANY), "10000", "samples per search"),
    Param::fixed("lookahead", choice(&["sequence", "round"]), "sequence",
        "sequence: a tree of solved networks grown where UCB points, samples below it; round: \
         the current round's network only, its solutions sampled flat"),
    Param::fixed("share", Kind::Real { min: 0.0, max: 1.0 }, "0.9",
        "share of the search given to solving networks, the rest to sampling (of the time with \
         a deadline, else of the work: a network and a sample count one each)"),
    Param::fixed("c", Kind::Real { min: 0.0, max: f64::MAX }, "1.4142135623730951",
        "exploration weight: √2 is the paper's √(2 ln n / n_i)"),
    Param::fixed("seed", int(0, ANY), "0", "seed of the samples"),
    Param::fixed("horizon", int(0, u32::MAX as i64), "0",
        "rounds sampled past the current one (a state there that is not terminal scores 0), 0 for \
         as deep as the game goes"),
    Param::fixed("arms", choice(&["joint", "own"]), "joint",
        "an arm is a joint action (each feasible policy) or the choosing player's own action"),
    Param::fixed("choice", choice(&["most", "mean", "ucb"]), "most",
        "the arm played: most sampled, highest mean, or highest UCB index"),
    Param::fixed("pruning", choice(&["chooser", "all", "off"]), "chooser",
        "completely explored arms below the threshold are removed, by the chooser's value or by \
         every player's"),
    Param::fixed("confidence", choice(&["on", "off"]), "on",
        "sequence: joint actions whose sampled outcomes' upper confidence bounds fall below the \
         threshold leave the networks"),
    Param::fixed("cache", Kind::Size, "1gb",
        "most memory for the tree of solved networks, and for the cache of explored states"),
    Param::fixed("preprocess", choice(&["on", "off"]), "on",
        "merging, unary projection, universal variables and SAC before solving"),
    Param::derived("player", int(0, 255), "the only player with a choice, else 0",
        "the player whose move is returned in rounds where several choose"),
    Param::fixed("networks", choice(&["auto", "round", "state"]), "auto",
        "GDL games: round: the networks of the game's round encoding (refused where it does not \
         encode); state: the networks the rules give at each state; auto: round where the \
         encoding has at most 1000 tables, else state"),
];

/// Every built-in game, in the order `gametree list` shows them.
#[rustfmt::skip] // a table: one parameter per line
pub const GAMES: &[GameEntry] = &[
    #[cfg(feature = "othello")]
    GameEntry {
        name: "othello",
        named: true,
        about: "Othello on bitboards, from the start or after the given moves",
        params: &[Param::fixed("moves", Kind::Text, "", "moves from the start: f5d6c3 (ps: pass)")],
        searcher_params: &[Param::fixed("eval", choice(&["ev1", "ev2"]), "ev1",
            "the evaluation: EV1 or EV2 of Vu et al. (2016)")],
    },
    #[cfg(feature = "chess")]
    GameEntry {
        name: "chess",
        named: true,
        about: "chess, the draws by repetition, fifty moves and insufficient material applied \
                automatically; from the start or a FEN, after the given moves",
        params: &[
            Param::fixed("fen", Kind::Text, "",
                "the position in Forsyth-Edwards Notation; the start position if empty"),
            Param::fixed("moves", Kind::Text, "",
                "moves played from there in UCI notation, separated by spaces: e2e4 e7e5 g1f3"),
        ],
        searcher_params: &[
            Param::fixed("quiescence", choice(&["off", "on"]), "off",
                "on: horizon leaves are valued by a search of captures and queen promotions \
                 that do not lose material (alphabeta, pvs, mtdf, fe, interest); a heuristic: \
                 values are no longer exact"),
            Param::fixed("checks", int(0, 2), "0",
                "check extensions: plies a checking move is searched deeper (alphabeta, pvs, \
                 mtdf, fe), 0 for none; values are those of the extended tree"),
        ],
    },
    #[cfg(feature = "random-tree")]
    GameEntry {
        name: "random-tree",
        named: true,
        about: "an incremental random tree (Korf, Pemberton and Zhang, 1994)",
        params: &[
            Param::fixed("b", int(1, 65_535), "5",
                "branching: exact if uniform, mean if random (then at most 32768)"),
            Param::derived("max_b", int(1, 65_535),
                "2b − 1 with branching=random, unused otherwise",
                "random branching from {1, …, max_b}; implies branching=random; with b, only \
                 2b − 1"),
            Param::derived("branching", choice(&["uniform", "random"]),
                "`random` if max_b is given, else `uniform`", "uniform or random branching"),
            Param::fixed("d", int(0, 65_535), "10", "depth: the leaves are d plies deep"),
            Param::fixed("seed", int(0, ANY), "0", "the tree's seed"),
            Param::fixed("lo", int(I32_MIN, I32_MAX), "-32767", "smallest edge cost"),
            Param::fixed("hi", int(I32_MIN, I32_MAX), "32768", "largest edge cost"),
        ],
        searcher_params: &[],
    },
    GameEntry {
        name: "tree",
        named: true,
        about: "an explicit random tree with small integer values on every node",
        params: &[
            Param::fixed("seed", int(0, ANY), "1", "the tree's seed"),
            Param::fixed("depth", int(0, 12), "6", "depth"),
            Param::fixed("branching", int(1, 16), "4", "largest number of children"),
        ],
        searcher_params: &[],
    },
    #[cfg(feature = "scsp")]
    GameEntry {
        name: "nim",
        named: true,
        about: "one heap, take 1 to 3 stones, the last stone wins; describes its rounds",
        params: &[Param::fixed("heap", int(1, 1_000), "15", "stones at the start")],
        searcher_params: &[],
    },
    #[cfg(feature = "scsp")]
    GameEntry {
        name: "pennies",
        named: true,
        about: "cooperative matching pennies against chance (Koriche et al., 2016, Example 1); \
                describes its rounds",
        params: &[],
        searcher_params: &[],
    },
    #[cfg(feature = "scsp")]
    GameEntry {
        name: "pig",
        named: true,
        about: "the dice game Pig, the die thrown every round; describes its rounds",
        params: &[Param::fixed("target", int(1, 100), "20", "points to win")],
        searcher_params: &[],
    },
    #[cfg(feature = "gdl")]
    GameEntry {
        name: "<file>.kif",
        named: false,
        about: "a game in the Game Description Language (GDL or GDL-II, KIF syntax); two-player \
                turn-taking constant-sum games get every searcher, others UCT; MAC-UCB and FC-UCB \
                play those whose rounds the encoder handles (gdl::GdlRound)",
        params: &[],
        searcher_params: &[],
    },
];

/// The searcher called `name`.
pub fn searcher(name: &str) -> Result<&'static SearcherEntry, SpecError> {
    SEARCHERS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| SpecError::UnknownName {
            kind: "searcher",
            name: name.to_string(),
            accepted: names(SEARCHERS.iter().map(|s| s.name)),
        })
}

/// The built-in game called `name` (game files are read by [`GameChoice`](crate::games::GameChoice),
/// not found here).
pub fn game(name: &str) -> Result<&'static GameEntry, SpecError> {
    GAMES
        .iter()
        .find(|g| g.named && g.name == name)
        .ok_or_else(|| SpecError::UnknownName {
            kind: "game",
            name: name.to_string(),
            accepted: names(GAMES.iter().filter(|g| g.named).map(|g| g.name))
                + if cfg!(feature = "gdl") {
                    ", or a game file (.kif, .gdl)"
                } else {
                    ""
                },
        })
}

fn names(names: impl Iterator<Item = &'static str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

/// The tables as Markdown: the reference in these docs, and `gametree list --markdown`.
pub fn reference() -> String {
    let mut out = String::from("# Searchers\n\n");
    for s in SEARCHERS {
        let _ = write!(
            out,
            "## `{}`\n\n{}; plays {}",
            s.name,
            capitalise(s.about),
            s.plays()
        );
        if s.exact {
            out.push_str("; returns exactly the minimax value");
        }
        out.push_str(".\n");
        if !s.paper.is_empty() {
            let _ = writeln!(out, "*{}*.", s.paper);
        }
        params_table(&mut out, s.params);
    }
    out.push_str("# Games\n\n");
    for g in GAMES {
        let _ = write!(out, "## `{}`\n\n{}.\n", g.name, capitalise(g.about));
        params_table(&mut out, g.params);
        if !g.searcher_params.is_empty() {
            let _ = writeln!(out, "{}:", evaluating_searchers_take());
            params_table(&mut out, g.searcher_params);
        }
    }
    out
}

/// `Every searcher but uct also takes`: who takes a game's
/// [`searcher_params`](GameEntry::searcher_params), for listings.
pub fn evaluating_searchers_take() -> String {
    let others: Vec<&str> = SEARCHERS
        .iter()
        .filter(|s| !s.evaluates)
        .map(|s| s.name)
        .collect();
    match others.as_slice() {
        [] => "Every searcher also takes".to_string(),
        _ => format!("Every searcher but {} also takes", others.join(", ")),
    }
}

fn params_table(out: &mut String, params: &[Param]) {
    if params.is_empty() {
        out.push('\n');
        return;
    }
    out.push_str("\n| parameter | default | values | meaning |\n|---|---|---|---|\n");
    for p in params {
        let default = match p.default {
            DefaultValue::Fixed("") => "(none)".to_string(),
            DefaultValue::Fixed(value) => format!("`{value}`"),
            DefaultValue::Derived(how) => how.to_string(),
        };
        let _ = writeln!(out, "| `{}` | {default} | {} | {} |", p.key, p.kind, p.help);
    }
    out.push('\n');
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference in the rustdoc is generated from the tables; regenerate it with
    /// `GAMETREE_BLESS=1 cargo test -p gametree reference` after changing them.
    #[test]
    #[cfg(all(
        feature = "othello",
        feature = "random-tree",
        feature = "forward-estimation",
        feature = "interest-search",
        feature = "conspiracy",
        feature = "gdl"
    ))]
    fn the_reference_is_generated_from_the_tables() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/registry/reference.md");
        let generated = reference();
        if std::env::var_os("GAMETREE_BLESS").is_some() {
            std::fs::write(path, &generated).expect("the reference is writable");
        }
        let committed = std::fs::read_to_string(path).expect("the reference exists");
        assert!(
            committed == generated,
            "src/registry/reference.md is stale: run `GAMETREE_BLESS=1 cargo test -p gametree \
             reference` and commit it"
        );
    }

    /// Builds `spec` for the game visited and, on small games, searches with it briefly.
    #[cfg(all(feature = "othello", feature = "random-tree", feature = "gdl"))]
    struct Build {
        spec: crate::spec::Spec,
        search: bool,
    }

    #[cfg(all(feature = "othello", feature = "random-tree", feature = "gdl"))]
    impl crate::games::GameVisitor for Build {
        type Output = Result<String, SpecError>;
        fn visit<G: crate::games::Registered>(self, game: &G, root: &G::State) -> Self::Output {
            let mut built = game.searcher(&self.spec)?;
            if self.search {
                let limits = game_trait::Limits::none().with_nodes(20_000);
                built.searcher.search(game, root, &limits);
            }
            Ok(built.spec)
        }
    }

    /// Every integer parameter of every searcher, at both ends of its range, on every kind of
    /// game: the searcher builds (or is refused with a message, never a panic), and the value is
    /// used as given; one beyond either end is a `BadValue`. On the small tree it also searches.
    #[test]
    #[cfg(all(
        feature = "othello",
        feature = "random-tree",
        feature = "forward-estimation",
        feature = "interest-search",
        feature = "conspiracy",
        feature = "gdl"
    ))]
    fn every_integer_parameter_builds_at_both_ends_of_its_range_and_not_beyond() {
        use crate::games::GameChoice;
        use crate::spec::Spec;
        let gdl = |name: &str| format!("{}/../gdl/games/{name}", env!("CARGO_MANIFEST_DIR"));
        let games = [
            ("tree:depth=4,branching=3".to_string(), ""),
            ("random-tree:b=3,d=4".to_string(), ""),
            ("othello".to_string(), "othello"),
            #[cfg(feature = "chess")]
            ("chess".to_string(), "chess"),
            (gdl("tictactoe.kif"), ""), // two-player zero-sum: every searcher
            (gdl("rps3.kif"), ""),      // simultaneous: UCT, MAC-UCB, FC-UCB
            #[cfg(feature = "scsp")]
            ("pig:target=5".to_string(), ""), // describes its rounds: UCT, MAC-UCB, FC-UCB
        ];
        for (on, entry) in &games {
            let choice = GameChoice::parse(on).unwrap();
            let game_params = if entry.is_empty() {
                &[][..]
            } else {
                game(entry).unwrap().searcher_params
            };
            let small = on.starts_with("tree") || on.starts_with("pig");
            for s in SEARCHERS {
                let game_params = if s.evaluates { game_params } else { &[] };
                for p in s.params.iter().chain(game_params) {
                    let Kind::Int { min, max } = p.kind else {
                        continue;
                    };
                    for value in [min, max] {
                        // Sampling a million games of Othello or GDL takes minutes; the range
                        // check that makes reading `samples` safe runs on every build anyway.
                        if p.key == "samples" && value == max && !small {
                            continue;
                        }
                        let spec: Spec = format!("{}:{}={value}", s.name, p.key).parse().unwrap();
                        let build = Build {
                            spec: spec.clone(),
                            search: small,
                        };
                        match choice.visit_for(&spec, build) {
                            // As given, or not read at all (`fe:samples` with exact bounds).
                            Ok(full) => {
                                let used: Spec = full.parse().unwrap();
                                let value = value.to_string();
                                assert!(
                                    used.value(p.key).map_or(true, |v| v == value),
                                    "{spec} on {on}: {full}"
                                );
                            }
                            Err(SpecError::Invalid { .. }) => {}
                            Err(e) => panic!("{spec} on {on}: {e}"),
                        }
                    }
                    // A game UCT alone plays refuses the others before reading any value.
                    let refused = match s.needs {
                        Needs::ZeroSum => on.ends_with("rps3.kif") || on.starts_with("pig"),
                        Needs::General => false,
                        Needs::Rounds => !(on.starts_with("pig") || on.ends_with(".kif")),
                    };
                    let beyond = [min.checked_sub(1), max.checked_add(1)];
                    for beyond in beyond.into_iter().flatten().filter(|_| !refused) {
                        let spec: Spec = format!("{}:{}={beyond}", s.name, p.key).parse().unwrap();
                        let build = Build {
                            spec: spec.clone(),
                            search: false,
                        };
                        let result = choice.visit_for(&spec, build);
                        assert!(
                            matches!(result, Err(SpecError::BadValue { .. })),
                            "{spec} on {on}: {result:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn listing_rows_are_not_names() {
        for g in GAMES {
            assert_eq!(game(g.name).is_ok(), g.named, "{}", g.name);
        }
        #[cfg(feature = "gdl")]
        {
            let err = game("<file>.kif").unwrap_err();
            assert!(matches!(err, SpecError::UnknownName { .. }), "{err:?}");
            assert!(
                err.to_string().ends_with(", or a game file (.kif, .gdl)"),
                "{err}"
            );
        }
    }

    #[test]
    fn every_default_is_of_its_kind_and_keys_are_unique() {
        let tables = SEARCHERS
            .iter()
            .map(|s| s.params)
            .chain(GAMES.iter().flat_map(|g| [g.params, g.searcher_params]));
        for table in tables {
            for (i, p) in table.iter().enumerate() {
                if let DefaultValue::Fixed(value) = p.default {
                    let spec: crate::spec::Spec = format!("x:{}={value}", p.key).parse().unwrap();
                    let ok = value.is_empty() || crate::spec::Args::new(&spec, &[table]).is_ok();
                    assert!(ok, "default of `{}` is not {}", p.key, p.kind);
                }
                assert!(
                    table[..i].iter().all(|q| q.key != p.key),
                    "`{}` twice",
                    p.key
                );
            }
        }
    }
}

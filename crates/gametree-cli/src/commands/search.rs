//! `gametree search <GAME> --searcher <SPEC> [--json] [--accept-unsafe]`.

use std::time::Duration;

use gametree::game::{GeneralGame, Limits, Reading, SearchResult};
use gametree::games::{GameChoice, GameVisitor, Registered};
use gametree::spec::Spec;

use crate::out::outln;
use crate::Failure;

/// Arguments of `search`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game name with optional parameters, or a game file.
    game: String,
    /// The searcher, e.g. `alphabeta:depth=5`, `pvs:depth=8,tt=64mb`, `uct:sims=10000,c=1.4`.
    #[arg(long, short)]
    searcher: String,
    /// Stop after this many milliseconds of search, counted once the game is loaded and the
    /// searcher built (the last completed iteration is reported).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Stop after generating this many nodes (UCT: simulations).
    #[arg(long)]
    nodes: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    reading: super::gdl::Reading,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let game =
        GameChoice::parse_with(&args.game, &args.reading.limits()).map_err(Failure::input)?;
    let spec: Spec = args.searcher.parse().map_err(Failure::input)?;
    game.visit_for(
        &spec,
        Search {
            spec: &spec,
            time: args.time_ms.map(Duration::from_millis),
            nodes: args.nodes,
            json: args.json,
        },
    )
}

struct Search<'a> {
    spec: &'a Spec,
    time: Option<Duration>,
    nodes: Option<u64>,
    json: bool,
}

impl Search<'_> {
    /// The search's limits, its time counted from now: loading the game and building the
    /// searcher (a MAC-UCB player indexes its round's tables then) are not the search's time.
    fn limits(&self) -> Limits {
        let mut limits = Limits::none();
        if let Some(time) = self.time {
            limits = limits.with_time(time);
        }
        if let Some(nodes) = self.nodes {
            limits = limits.with_nodes(nodes);
        }
        limits
    }
}

impl GameVisitor for Search<'_> {
    type Output = Result<(), Failure>;
    fn visit<G: Registered>(self, game: &G, root: &G::State) -> Result<(), Failure> {
        let mut built = game.searcher(self.spec).map_err(Failure::input)?;
        let result = built.searcher.search(game, root, &self.limits());
        let reading = built.read(&result);
        print_result(game, root, (&built.spec, reading), &result, self.json);
        Ok(())
    }
}

/// Prints a search result of the searcher `name` as text or one JSON object, with what its value
/// says about the game (`reading`).
pub fn print_result<G: GeneralGame>(
    game: &G,
    root: &G::State,
    (name, reading): (&str, Reading),
    result: &SearchResult<G::Move>,
    json: bool,
) {
    let best = result.best_move.map(|m| game.move_name(root, m));
    let pv = pv_names(game, root, &result.pv);
    let seconds = result.elapsed.as_secs_f64();
    if json {
        let line = serde_json::json!({
            "searcher": name,
            "value": result.value,
            "bound": result.bound.name(),
            "reading": reading.to_string(),
            "best_move": best,
            "pv": pv,
            "depth": result.depth,
            "seconds": seconds,
            "stats": result.stats,
        });
        outln!("{line}");
        return;
    }
    let s = &result.stats;
    outln!("searcher   {name}");
    outln!("value      {} ({})", result.value, result.bound);
    outln!("reading    {reading}");
    outln!(
        "best move  {}",
        best.as_deref().unwrap_or("none (game over)")
    );
    outln!("pv         {}", pv.join(" "));
    outln!("depth      {}", result.depth);
    outln!("seconds    {seconds:.3}");
    let rate = if seconds > 0.0 {
        s.generated as f64 / seconds
    } else {
        0.0
    };
    outln!(
        "nodes      {} generated, {} expanded, {} evaluated ({rate:.0} generated/s)",
        s.generated,
        s.expanded,
        s.evaluated
    );
    outln!("cutoffs    {}   pruned {}", s.cutoffs, s.pruned);
    outln!("tt         {} probes, {} hits", s.tt_probes, s.tt_hits);
    outln!(
        "node kinds {} pv, {} cut, {} all",
        s.pv_nodes,
        s.cut_nodes,
        s.all_nodes
    );
}

/// Names the moves of a principal variation, replaying it from `root`. Stops at the first move that
/// is not legal in the replayed position (a PV from a sampling searcher may be short or stale).
pub fn pv_names<G: GeneralGame>(game: &G, root: &G::State, pv: &[G::Move]) -> Vec<String> {
    let mut state = root.clone();
    let mut names = Vec::with_capacity(pv.len());
    let mut moves = gametree::game::MoveList::new();
    for &mv in pv {
        let gametree::game::Turn::Player(p) = game.turn(&state) else {
            break;
        };
        game.legal_moves(&state, p, &mut moves);
        if !moves.contains(&mv) {
            break;
        }
        names.push(game.move_name(&state, mv));
        game.play(&mut state, mv);
    }
    names
}

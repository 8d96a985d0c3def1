//! [`AlphaBetaConfig`]: what the α/β engine does besides plain fail-soft α/β.

use game_trait::{Cutoff, Score};

/// Options of [`AlphaBeta`](crate::AlphaBeta). The [`Default`] is plain fail-soft α/β to depth 4 (no
/// PVS, no iterative deepening, no table, no killers or history); [`AlphaBetaConfig::pvs`] is the
/// tournament setting.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `depth` | 4 | nominal depth (last iteration); [`Limits::depth`](game_trait::Limits) overrides it |
/// | `cutoff` | [`Cutoff::AtLeastBeta`] | the cutoff criterion `⋆` in `break if retval ⋆ beta` (see the [crate docs](crate)) |
/// | `pvs` | `false` | principal variation search: null window on every child but the first |
/// | `iterative` | `false` | iterative deepening: iterations 1, 2, …, `depth`, or fewer where one searched only to the end of the game |
/// | `aspiration` | `None` | half-width δ of the aspiration window `(v − δ, v + δ)` around the previous iteration's value |
/// | `tt_bytes` | 0 | transposition-table size in bytes, 0 for none |
/// | `killers` | `false` | two killer moves per ply |
/// | `history` | `false` | the history heuristic |
/// | `countermoves` | `false` | the best reply to the previous move goes right after the killers |
/// | `quiescence_depth` | 16 | noisy plies a quiescence hook may search below the horizon |
/// | `etc_draft` | `None` | enhanced transposition cutoffs at nodes of at least this draft (needs a table) |
/// | `defer_draft` | `Some(2)` | parallel searches: at nodes of at least this draft, a move another thread is searching waits until the node's other moves are done |
/// | `late_move_reduction` | `None` | late, quiet moves searched shallower first (changes values: a heuristic) |
/// | `singular_extension` | `None` | a table move far better than every other searched one ply deeper (changes values: a heuristic) |
/// | `null_move` | `None` | null-move pruning where the game's [`Selectivity`](game_trait::Selectivity) hook allows a pass (changes values: a heuristic) |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Nominal search depth in plies: the root budget is
    /// [`HorizonPolicy::root_budget`](game_trait::HorizonPolicy::root_budget)`(depth)`.
    pub depth: u32,
    /// Which comparison with β ends the loop over a node's successors (both are exact at the root
    /// with a full window; they differ in what a value on the window's edge means).
    pub cutoff: Cutoff,
    /// Principal variation search (Marsland and Campbell, *Parallel Search of Strongly Ordered Game
    /// Trees*, 1982; Reinefeld's NegaScout, *An Improvement to the Scout Tree Search Algorithm*,
    /// 1983): every successor but the first searched is first tested with a null window, and
    /// re-searched with the full window only if it proves better.
    pub pvs: bool,
    /// Iterative deepening: search depth 1, 2, …, `depth`, each iteration ordering the next through
    /// the transposition table, killers and history; a stopped search returns the last completed one.
    /// An iteration every line of which ended the game (no game in progress valued statically, no
    /// move beyond the horizon, nothing pruned) is the last: its value is the game's own, and a
    /// deeper one would find it again, so the result's `depth` may be less than `depth`.
    pub iterative: bool,
    /// Aspiration windows (with `iterative`): iteration `i > 1` starts with the window
    /// `(v − δ, v + δ)` around the previous value `v`, re-searching with the failed side opened to
    /// infinity when the value falls outside.
    pub aspiration: Option<Score>,
    /// Transposition-table size in bytes (rounded down to a power of two of 64-byte buckets); 0 for
    /// no table. The table is allocated at the first search whose root has a key, or at once by
    /// [`AlphaBeta::allocate_table`](crate::AlphaBeta::allocate_table), which reports a size the
    /// machine cannot provide (a search that cannot allocate it runs without a table). A table of
    /// 2 MiB or more is asked for huge pages on Linux (see [`tt`](crate::tt)), which saves its
    /// random probes a page walk each.
    pub tt_bytes: usize,
    /// Killer-move ordering (Akl and Newborn, *The Principal Continuation and the Killer
    /// Heuristic*, 1977): the last two moves that caused a cutoff at the same ply go first.
    pub killers: bool,
    /// History-heuristic ordering (Schaeffer, *The History Heuristic and Alpha-Beta Search
    /// Enhancements in Practice*, 1989): moves that caused deep cutoffs anywhere go first.
    pub history: bool,
    /// Countermove ordering (Uiterwijk, *The Countermove Heuristic*, 1992): the move last found
    /// best in reply to the opponent's previous move, anywhere in the tree, is tried right after
    /// the killers. Changes only the order, never a value.
    pub countermoves: bool,
    /// How many noisy plies the quiescence search may go below a horizon leaf (with a
    /// [`Quiescence`](game_trait::Quiescence) hook; unused without). At the cap a position is
    /// evaluated statically.
    pub quiescence_depth: u32,
    /// Enhanced transposition cutoffs (Plaat, Schaeffer, Pijls and de Bruin, *Exploiting Graph
    /// Properties of Game Trees*, 1996) at nodes whose draft is at least this: before searching
    /// any successor, the engine probes every successor's table entry, and one stored at exactly
    /// that successor's budget whose value already proves the node worth β (`−value ⋆ β`, the
    /// entry exact or an upper bound) ends the node with a lower bound. Costs a move and a probe
    /// per successor, so it pays only where subtrees are large; needs a table (`tt_bytes > 0`) and
    /// is never tried at the root. `None`, the default, for none.
    pub etc_draft: Option<u32>,
    /// Move deferral in parallel searches ([`search_parallel`](crate::AlphaBeta::search_parallel)
    /// and [`search_window_parallel`](crate::AlphaBeta::search_window_parallel)): simplified
    /// ABDADA (Weill, *The ABDADA Distributed Minimax Search Algorithm*, 1996, in the simplified
    /// form of Kerrigan, 2016). At a node whose draft is at least this, each thread marks the
    /// moves it is searching in a small shared table, and a thread that reaches a move another
    /// thread is searching (any move but the node's first) searches the node's other moves first
    /// and that one last, when the table usually already holds its value. So the threads split a
    /// node's moves between them instead of searching them in step. Only with a horizon that is
    /// [order-independent](game_trait::HorizonPolicy::ORDER_INDEPENDENT) and a game whose states
    /// have keys; it changes only the order of moves, so exact searches keep their values. `None`
    /// for pure Lazy SMP. Unused by one-thread searches.
    pub defer_draft: Option<u32>,
    /// Late-move reductions, `None` (the default) for none. With PVS, a move tried late at a
    /// node is first searched with a null window and a budget
    /// [reduced](game_trait::HorizonPolicy::reduced) by [`LateMoveReduction::plies`]; only if it
    /// proves better than α is it searched again with its full budget. Unsafe: a move whose
    /// reduced search fails low is never looked at more deeply, so the values are no longer the
    /// minimax values of the nominal depth, and the bounds the engine reports are those of the
    /// reduced tree. Measure it in matches, not against Minimax.
    pub late_move_reduction: Option<LateMoveReduction>,
    /// Null-move pruning, `None` (the default) for none. At a node searched with a null window
    /// (not the root, not a node a null move led to), of draft at least
    /// [`NullMovePruning::min_draft`], whose static value already reaches β, the side to move
    /// passes, through the game's [`Selectivity::null_move`](game_trait::Selectivity::null_move),
    /// and the position is searched [`NullMovePruning::reduction`] plies shallower than a move
    /// would be; if the value still fails high, the node is cut with the smallest value that fails
    /// high (β, or β + 1 under [`Cutoff::AboveBeta`]) as a lower bound. Needs a
    /// selectivity hook that declares null moves (the default hook declares none). Unsafe where
    /// passing would be better than every move (zugzwang), which the game excludes by refusing
    /// the null move there; measure it in matches.
    pub null_move: Option<NullMovePruning>,
    /// Singular extensions, `None` (the default) for none (Anantharaman, Campbell and Hsu,
    /// *Singular Extensions: Adding Selectivity to Brute-Force Searching*, 1990, in the
    /// table-driven form of today's engines). At a node of draft `d` at least
    /// [`SingularExtension::min_draft`] (not the root) whose table entry names a move and proves
    /// the node worth at least `v` (exact or lower bound, stored at draft `d − 3` or deeper), the
    /// engine searches the node's *other* moves at draft `⌊d / 2⌋` with a null window at
    /// `s = v − margin`; if none of them reaches `s`, the table move is *singular* and is searched
    /// one ply deeper (within the cap on extensions along a line, see
    /// [`Selectivity`](game_trait::Selectivity)); a node with no other move makes its table move
    /// singular. Needs a table (`tt_bytes > 0`). Unsafe: the tree searched depends on the table;
    /// measure it in matches.
    pub singular_extension: Option<SingularExtension>,
}

/// When a table move is [singular](AlphaBetaConfig::singular_extension).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `min_draft` | 6 | the smallest draft at which singularity is tested |
/// | `margin` | 1 | how far below the table move's value every other move must stay, in evaluation units |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingularExtension {
    /// The smallest draft at which the table move's singularity is tested.
    pub min_draft: u32,
    /// How far below the table move's value (`v − margin`) every other move must stay; in the
    /// evaluation's units, so scale it to your evaluation.
    pub margin: Score,
}

impl Default for SingularExtension {
    fn default() -> SingularExtension {
        SingularExtension {
            min_draft: 6,
            margin: 1,
        }
    }
}

/// How [null-move pruning](AlphaBetaConfig::null_move) searches: the null move's budget is the
/// node's less `1 + reduction` plies (the pass itself, and `R`), at nodes of draft at least
/// `min_draft`.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `reduction` | 2 | `R`: plies the null move's search is shallower than a move's (Donninger's R = 2) |
/// | `min_draft` | 2 | the smallest draft at which a null move is tried |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullMovePruning {
    /// `R`: how much shallower than a move's the null move's search is.
    pub reduction: u32,
    /// The smallest draft at which a null move is tried.
    pub min_draft: u32,
}

impl Default for NullMovePruning {
    fn default() -> NullMovePruning {
        NullMovePruning {
            reduction: 2,
            min_draft: 2,
        }
    }
}

/// Which moves [late-move reductions](AlphaBetaConfig::late_move_reduction) reduce, and by how
/// much: at a node of draft at least `min_draft`, every move after the first `after` searched
/// (never the first), unless it is the table move, a killer or the countermove, or the
/// [quiescence hook](game_trait::Quiescence) calls it noisy. Reductions need
/// [`pvs`](AlphaBetaConfig::pvs): a reduced move is searched with a null window, at PV nodes and
/// at the null-window nodes that make up most of the tree alike.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `plies` | 1 | how much shallower the first search of a late move is |
/// | `after` | 3 | moves searched at full depth at each node before reductions start |
/// | `min_draft` | 3 | the smallest draft at which a node reduces its moves |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateMoveReduction {
    /// Plies taken off the budget of a reduced move's first search.
    pub plies: u32,
    /// Moves searched at full depth first at every node.
    pub after: u32,
    /// The smallest draft at which moves are reduced.
    pub min_draft: u32,
}

impl Default for LateMoveReduction {
    fn default() -> LateMoveReduction {
        LateMoveReduction {
            plies: 1,
            after: 3,
            min_draft: 3,
        }
    }
}

impl Default for AlphaBetaConfig {
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: 4,
            cutoff: Cutoff::AtLeastBeta,
            pvs: false,
            iterative: false,
            aspiration: None,
            tt_bytes: 0,
            killers: false,
            history: false,
            countermoves: false,
            quiescence_depth: 16,
            etc_draft: None,
            defer_draft: Some(2),
            late_move_reduction: None,
            null_move: None,
            singular_extension: None,
        }
    }
}

impl AlphaBetaConfig {
    /// Size of the table [`pvs`](AlphaBetaConfig::pvs) uses: 64 MiB.
    pub const PVS_TT_BYTES: usize = 64 << 20;

    /// Plain fail-soft α/β to `depth` plies.
    pub fn alpha_beta(depth: u32) -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth,
            ..AlphaBetaConfig::default()
        }
    }

    /// The strong setting: PVS with iterative deepening to `depth`, a 64 MiB transposition table,
    /// killers and history.
    pub fn pvs(depth: u32) -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth,
            pvs: true,
            iterative: true,
            tt_bytes: Self::PVS_TT_BYTES,
            killers: true,
            history: true,
            ..AlphaBetaConfig::default()
        }
    }
}

//! The hybrid reasoner: a ground network for everything that grounds; the relations too large to
//! ground evaluated per state for exactly the atoms the network asks for, the answers fed back to
//! the network as inputs.
//!
//! A description falls to it when grounding it whole passes the limits. Domain analysis runs
//! again with each relation capped at [`Limits::hybrid_relation_atoms`] atoms; the relations that
//! reach the cap, and every relation other than an output that reads them, are *deferred*, and
//! each output rule that reads one is bridged ([`crate::grounding::bridge`]): the network holds
//! the rule's other literals and computes its *asks*, the bridge atoms a state can use. A view
//! (or a successor) is then evaluated twice: once with every bridge atom false, which computes
//! the asks; then, if some of the asked bridge atoms hold, once more with those as inputs.
//! Everything else — the move generation a threat does not guard, the successor's frame axioms,
//! goals and terminal — stays in the network.
//!
//! Who says which asked bridge atoms hold: grounding on demand ([`crate::game::on_demand`]: each
//! bridge atom, and each deferred atom it reads, ground the first time a state needs it, then
//! evaluated over its ground rules in every state after), or, where that stands aside (a ground
//! atom that depends on itself), the reference engine, goal-directed, from the bridged rules.
//!
//! GGP Base's chess is the case it was built for: every `threatened` relation takes a square to
//! ignore (the one a move vacates), which makes the threat family a product of attacker, king and
//! vacated squares no ground program holds whole, though the few hundred threats a game asks
//! about ground quickly; a state asks whether the king is safe for each piece that can move.
//! `gametree gdl bench crates/gdl/games/chess.kif --hybrid` says what it defers, who evaluates
//! it, and how fast it plays.

use std::sync::{Mutex, MutexGuard};

use game_trait::hash::FastMap;

use crate::datalog::{Budget, MAX_RELAXED_DEPTH};
use crate::description::Description;
use crate::game::fluents::FluentSet;
use crate::game::on_demand::{OnDemand, StandAside};
use crate::grounding::bridge::{bridge, deferred_closure, Bridge, Bridged};
use crate::grounding::{ground, oversized, GroundError, GroundProgram};
use crate::limits::{Limits, LoadProfile};
use crate::network::differential::Model;
use crate::network::{Network, Scratch};
use crate::reference::Kb;
use crate::syntax::term::{Sym, TermId};

/// What a hybrid game asks the reference engine for, and where the answers go.
#[derive(Debug)]
pub(crate) struct Hybrid {
    /// The deferred relations and the bridges' rules, the asks given with each query.
    kb: Mutex<Kb>,
    /// The bridge atoms and what they read, ground as states ask for them; the reference
    /// engine answers when grounding on demand stands aside.
    demand: Mutex<Demand>,
    /// The bridges that do not read the move: asked for with each view.
    view: Bridges,
    /// Those that do: asked for with each successor.
    next: Bridges,
    /// Per bridge atom (in `kb`'s terms): its network slot.
    slots: FastMap<TermId, u32>,
    /// The deferred relations, by name.
    deferred: Vec<String>,
}

/// Who answers the asks: grounding on demand, or (once it stood aside, and why) the reference
/// engine.
#[derive(Clone, Debug)]
enum Demand {
    Ground(Box<OnDemand>),
    Aside(StandAside),
}

impl Clone for Hybrid {
    fn clone(&self) -> Hybrid {
        // One lock at a time: `answer_grounded` takes `demand`, then `kb`.
        let demand = self.demand().clone();
        let kb = self.kb().clone();
        Hybrid {
            kb: Mutex::new(kb),
            demand: Mutex::new(demand),
            view: self.view.clone(),
            next: self.next.clone(),
            slots: self.slots.clone(),
            deferred: self.deferred.clone(),
        }
    }
}

/// Bridges asked for together.
#[derive(Clone, Debug, Default)]
struct Bridges {
    /// (network slot, atom in the reasoner's terms) of each ask atom, in slot order.
    asks: Vec<(u32, TermId)>,
    /// The asks' bits in the network's layout, a word at a time: (word, the asks' bits in it,
    /// the index in `asks` of the first), so that finding the asks that hold tests a word, not
    /// a bit, per 64 asks.
    ask_words: Vec<(u32, u64, u32)>,
    /// The ask atoms that hold in every state (an ask whose rule reads nothing that changes:
    /// tic-tac-toe's `(<= (goal xplayer 100) (line x))` bridged around `line`).
    always: Vec<TermId>,
    /// Per ask of `asks`, then of `always`: its atom and its bridge atom in grounding on demand,
    /// and the bridge atom's network slot (none if the bridge atom is no atom of the network).
    grounded: Vec<Option<Grounded>>,
    /// The bridge relations (the query's roots) and the components they need.
    rels: Vec<u32>,
    comps: Vec<usize>,
}

/// An ask and its bridge atom, as grounding on demand knows them.
#[derive(Clone, Copy, Debug)]
struct Grounded {
    ask: u32,
    bridge: u32,
    slot: u32,
}

impl Hybrid {
    /// The second pass over `view`, the network's view of `state` as updated from another state's
    /// ([`Network::update_view`]): the view with those of the asked bridge atoms that hold. A
    /// differential view is updated in place from the bridge atoms it held before (`false`);
    /// otherwise the view holds none, and the second pass writes the view into `bits` (`true`)
    /// unless none holds (`false`: `view` is the view).
    pub(crate) fn view_again(
        &self,
        net: &Network,
        state: &FluentSet,
        view: &mut Model,
        bits: &mut Scratch,
    ) -> bool {
        let inputs = self.answer(&self.view, &view.bits, state, &[]);
        if net.set_view_inputs(view, &inputs) || inputs.is_empty() {
            return false;
        }
        bits.clone_from(&view.bits);
        net.eval_view_again(&inputs, bits);
        true
    }

    /// The successor of `state` under `joint` into `out`, from the state's `view` (see
    /// [`Network::next_into`]): with no bridge atom that reads the move, then with those of the
    /// asked ones that hold.
    pub(crate) fn next_into(
        &self,
        net: &Network,
        (state, joint): (&FluentSet, &[u32]),
        view: &Scratch,
        scratch: &mut Scratch,
        out: &mut FluentSet,
    ) {
        net.next_into(state, joint, view, scratch, out);
        let inputs = self.answer(&self.next, scratch, state, joint);
        if !inputs.is_empty() {
            net.next_again_into(state, joint, &inputs, scratch, out);
        }
    }

    /// The slots of the bridge atoms of `b` that `bits` asks for and that hold.
    fn answer(&self, b: &Bridges, bits: &[u64], state: &FluentSet, joint: &[u32]) -> Vec<u32> {
        let mut asked: Vec<usize> = Vec::new();
        for &(w, mask, first) in &b.ask_words {
            let mut hit = bits[w as usize] & mask;
            while hit != 0 {
                let below = mask & ((1 << hit.trailing_zeros()) - 1);
                asked.push(first as usize + below.count_ones() as usize);
                hit &= hit - 1;
            }
        }
        asked.extend(b.asks.len()..b.asks.len() + b.always.len());
        if asked.is_empty() {
            return Vec::new();
        }
        if let Some(slots) = self.answer_grounded(b, &asked, state, joint) {
            return slots;
        }
        let atom = |i: usize| {
            b.asks
                .get(i)
                .map_or_else(|| b.always[i - b.asks.len()], |a| a.1)
        };
        let asked: Vec<TermId> = asked.into_iter().map(atom).collect();
        let mut atoms = Vec::new();
        self.kb()
            .atoms_of(state, joint, &asked, &b.rels, &b.comps, &mut atoms);
        // Every bridge atom an ask allows is in the ground program (its domain is the ask's).
        atoms
            .iter()
            .filter_map(|a| self.slots.get(a))
            .copied()
            .collect()
    }

    /// [`answer`](Self::answer) by grounding on demand, the asks `asked` (indices into `b`'s
    /// asks, then its `always`); `None` if it stands aside (for good, from now on).
    fn answer_grounded(
        &self,
        b: &Bridges,
        asked: &[usize],
        state: &FluentSet,
        joint: &[u32],
    ) -> Option<Vec<u32>> {
        let mut demand = self.demand();
        let Demand::Ground(ground) = &mut *demand else {
            return None;
        };
        let mut kb = self.kb();
        ground.begin();
        let asked = || asked.iter().filter_map(|&i| b.grounded[i]);
        for a in asked() {
            ground.assume(a.ask);
        }
        let mut slots = Vec::new();
        for a in asked() {
            match ground.holds(&mut kb, a.bridge, state, joint) {
                Ok(true) => slots.push(a.slot),
                Ok(false) => {}
                Err(why) => {
                    *demand = Demand::Aside(why);
                    return None;
                }
            }
        }
        Some(slots)
    }

    fn demand(&self) -> MutexGuard<'_, Demand> {
        // A panic mid-walk leaves at worst atoms ground and values of a finished epoch.
        self.demand.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The reasoner of the deferred relations and the bridges.
    pub(crate) fn kb(&self) -> MutexGuard<'_, Kb> {
        // As for the game's own tables: a panic mid-query leaves them consistent.
        self.kb.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Who answers the asks, in a line: grounding on demand and what it holds, or the reference
    /// engine and why.
    pub(crate) fn per_state(&self) -> String {
        match &*self.demand() {
            Demand::Ground(ground) => {
                let (atoms, rules, drops) = ground.size();
                format!("grounded on demand: {atoms} atoms, {rules} rules so far (dropped {drops} times)")
            }
            Demand::Aside(why) => format!("goal-directed: grounding on demand stood aside: {why}"),
        }
    }

    /// Makes the reference engine answer every ask from now on (to test it).
    #[cfg(test)]
    pub(crate) fn goal_directed_only(&self) {
        *self.demand() = Demand::Aside(StandAside::Unsupported("switched off".into()));
    }

    /// The deferred relations, by name.
    pub(crate) fn deferred(&self) -> &[String] {
        &self.deferred
    }
}

/// The hybrid reasoner for `desc` (as parsed, before anything was grounded), which grounding
/// could not hold whole: the game's reasoning tables (the description as written, with the fluent
/// and move ids of the network), the network, and the bridges; `Err` says why there is none.
/// `defer` names the relations to defer instead of domain analysis (for tests).
pub(crate) fn build(
    desc: &Description,
    limits: &Limits,
    defer: Option<&[&str]>,
    profile: &mut LoadProfile,
) -> Result<(Kb, Network, Hybrid), String> {
    let cap = limits.hybrid_relation_atoms;
    let budget = || {
        let mut b = Budget::new(
            limits.relaxed_atoms.saturating_mul(4),
            limits.memory_bytes,
            Some(limits.ground_time),
            MAX_RELAXED_DEPTH,
        );
        b.max_steps = limits.ground_steps;
        b
    };
    let tables = |desc: Description| {
        Kb::new(desc, &mut budget(), limits.static_relation_atoms)
            .map_err(|e| super::describe(&e, &[], "evaluating the static relations"))
    };
    // The description's tables, evaluated once: the probe below fills a copy with the terms of
    // domain analysis; the game gets them as they are.
    let mut game = tables(desc.clone())?;
    let (bridged, mut full) = bridged(desc, &mut game.clone(), cap, defer, &budget)?;
    // Grounded on a copy: grounding interns every ground atom, and a term table that large would
    // slow every per-state query (its probes would miss the cache).
    let mut grounding = tables(full.clone())?;
    let mut relaxed = budget();
    relaxed.max_atoms = limits.relaxed_atoms;
    let program = ground(
        &mut grounding,
        Some(&bridged),
        &mut relaxed,
        limits.ground_rules,
        profile,
    )
    .map_err(|e| match e {
        GroundError::Eval(e) => super::describe(&e, &grounding.desc.rules, "grounding the rest"),
        GroundError::Cycle(_) => "the rest's ground rules recurse through negation".into(),
    })?;
    // Per side (the view's bridges, then the successor's): an ask relation or a bridge relation
    // of each.
    let side = |moved: bool, of: fn(&Bridge) -> Sym| -> Vec<Sym> {
        (bridged.bridges.iter())
            .filter(|b| b.moved == moved)
            .map(of)
            .collect()
    };
    let (view_asks, next_asks) = (side(false, |b| b.ask), side(true, |b| b.ask));
    let (view_inputs, next_inputs) = (side(false, |b| b.relation), side(true, |b| b.relation));
    let net = Network::build_with(
        &grounding,
        &program,
        [&view_asks, &next_asks],
        [&view_inputs, &next_inputs],
    )?;
    // The game's tables: the description as written, the ids of the network's fluents and moves.
    import_tables(&grounding, &mut game);
    // The bridges' reasoner: the bridged rules without the asks' (the network computes them).
    let is_ask = |r: &crate::description::Rule| {
        let head = full.terms.functor(r.head).map(|(f, _)| f);
        bridged.bridges.iter().any(|b| Some(b.ask) == head)
    };
    full.rules.retain(|r| !is_ask(r));
    let inputs: Vec<(Sym, usize)> = bridged.bridges.iter().map(|b| (b.ask, b.arity)).collect();
    let mut kb = Kb::with_inputs(full, &mut budget(), limits.static_relation_atoms, &inputs)
        .map_err(|e| super::describe(&e, &[], "evaluating the static relations"))?;
    import_tables(&grounding, &mut kb);
    let asks = [view_asks, next_asks];
    let hybrid = wire(kb, (&grounding, &program, &net), &bridged, asks)?;
    Ok((game, net, hybrid))
}

/// The bridged program for `desc` (around the relations `defer`, or those that reach `cap` atoms),
/// and the description with its rules; `probe` is a scratch copy of the description's tables.
fn bridged(
    desc: &Description,
    probe: &mut Kb,
    cap: usize,
    defer: Option<&[&str]>,
    budget: &dyn Fn() -> Budget,
) -> Result<(Bridged, Description), String> {
    let roots = match defer {
        Some(names) => names.iter().map(|n| probe.desc.terms.sym(n)).collect(),
        None => oversized(probe, budget(), cap)
            .map_err(|e| super::describe(&e, &[], "domain analysis with relations capped"))?,
    };
    let kw = desc.kw;
    let outputs = [
        kw.legal,
        kw.next,
        kw.goal,
        kw.terminal,
        kw.sees,
        kw.true_,
        kw.does,
    ];
    let name = |s| probe.desc.terms.name(s).to_string();
    if let Some(&out) = roots.iter().find(|r| outputs.contains(r)) {
        return Err(format!("`{}` alone is too large to ground", name(out)));
    }
    if roots.is_empty() {
        return Err("no relation is too large to ground alone".into());
    }
    let roots: Vec<String> = roots.iter().map(|&r| name(r)).collect();
    let mut full = desc.clone();
    let roots: Vec<Sym> = roots.iter().map(|r| full.terms.sym(r)).collect();
    let deferred = deferred_closure(&full.terms, &full.rules, &kw, roots);
    let bridged = bridge(&mut full.terms, &desc.rules, &kw, deferred).map_err(|e| e.to_string())?;
    full.rules.clone_from(&bridged.rules);
    Ok((bridged, full))
}

/// [`Bridges::ask_words`] of `asks` (in slot order) in `net`'s layout.
fn ask_words(net: &Network, asks: &[(u32, TermId)]) -> Vec<(u32, u64, u32)> {
    let mut words: Vec<(u32, u64, u32)> = Vec::new();
    for (i, &(slot, _)) in asks.iter().enumerate() {
        let bit = net.slot_bit(slot);
        let (word, mask) = (bit / 64, 1 << (bit % 64));
        match words.last_mut() {
            Some((last, bits, _)) if *last == word => {
                debug_assert!(*bits < mask, "asks in slot order");
                *bits |= mask;
            }
            _ => words.push((word, mask, i as u32)),
        }
    }
    words
}

/// Registers `from`'s fluents and moves in `to`, in the order of their ids (so that ids agree).
fn import_tables(from: &Kb, to: &mut Kb) {
    for &f in &from.fluents {
        let f = to.desc.terms.import(&from.desc.terms, f);
        to.fluent_id(f);
    }
    for &m in &from.moves {
        let m = to.desc.terms.import(&from.desc.terms, m);
        to.move_id(m);
    }
}

/// The bridges' reasoner `kb`, told which ask atoms are in `program` (grounded with the tables of
/// `grounding`, compiled into `net`) and where their bridge atoms are.
fn wire(
    mut kb: Kb,
    (grounding, program, net): (&Kb, &GroundProgram, &Network),
    bridged: &Bridged,
    asks: [Vec<Sym>; 2],
) -> Result<Hybrid, String> {
    let from = &grounding.desc.terms;
    let mut slots = FastMap::default();
    let mut sides = [Bridges::default(), Bridges::default()];
    for (slot, &atom) in program.atoms.iter().enumerate() {
        let Some((rel, _)) = from.functor(atom) else {
            continue;
        };
        let side = asks.iter().position(|a| a.contains(&rel));
        let is_bridge = bridged.bridges.iter().any(|b| b.relation == rel);
        if side.is_some() || is_bridge {
            let atom = kb.desc.terms.import(from, atom);
            match side {
                Some(side) => sides[side].asks.push((slot as u32, atom)),
                None => drop(slots.insert(atom, slot as u32)),
            }
        }
    }
    for b in &bridged.bridges {
        let side = &mut sides[usize::from(b.moved)];
        let rel = kb.engine.schema.id((b.relation, b.arity));
        side.rels.push(rel.ok_or("a bridge has no rule")?);
        // A static ask is no atom of the ground program: its atoms are asked for every time.
        let ask = grounding.engine.schema.id((b.ask, b.arity));
        if let Some(ask) = ask.filter(|&a| grounding.engine.is_static(a)) {
            for &atom in grounding.statics.of(ask) {
                side.always.push(kb.desc.terms.import(from, atom));
            }
        }
    }
    for side in &mut sides {
        side.comps = kb.engine.components_for(&side.rels, true);
        side.ask_words = ask_words(net, &side.asks);
    }
    let roots: Vec<u32> = sides.iter().flat_map(|s| s.rels.clone()).collect();
    let given: Vec<u32> = (bridged.bridges.iter())
        .filter_map(|b| kb.engine.schema.id((b.ask, b.arity)))
        .collect();
    kb.enable_demand_with(&roots, &given);
    let demand = match ground_on_demand(&mut kb, bridged, &slots, &mut sides) {
        Ok(ground) => Demand::Ground(Box::new(ground)),
        Err(why) => Demand::Aside(why),
    };
    let mut deferred: Vec<String> = (bridged.deferred.iter())
        .map(|&s| kb.desc.terms.name(s).to_string())
        .collect();
    deferred.sort();
    let [view, next] = sides;
    Ok(Hybrid {
        kb: Mutex::new(kb),
        demand: Mutex::new(demand),
        view,
        next,
        slots,
        deferred,
    })
}

/// Grounding on demand over `kb`'s rules, which knows every ask of `sides` and its bridge atom
/// (filling in their `grounded`).
fn ground_on_demand(
    kb: &mut Kb,
    bridged: &Bridged,
    slots: &FastMap<TermId, u32>,
    sides: &mut [Bridges; 2],
) -> Result<OnDemand, StandAside> {
    let asks: Vec<Sym> = bridged.bridges.iter().map(|b| b.ask).collect();
    let mut ground = OnDemand::new(kb, &asks);
    for side in sides {
        let atoms: Vec<TermId> = (side.asks.iter().map(|a| a.1))
            .chain(side.always.iter().copied())
            .collect();
        for ask in atoms {
            let terms = &mut kb.desc.terms;
            let (rel, _) = terms.functor(ask).unwrap_or((Sym(0), 0));
            let args = terms.args(ask).to_vec();
            let bridge = (bridged.bridges.iter().find(|b| b.ask == rel))
                .map(|b| terms.app(b.relation, &args));
            let slot = bridge.and_then(|b| slots.get(&b).copied());
            let grounded = match (bridge, slot) {
                (Some(bridge), Some(slot)) => {
                    match (ground.atom(kb, ask)?, ground.atom(kb, bridge)?) {
                        (Some(ask), Some(bridge)) => Some(Grounded { ask, bridge, slot }),
                        _ => None,
                    }
                }
                _ => None,
            };
            side.grounded.push(grounded);
        }
    }
    Ok(ground)
}

#[cfg(test)]
mod tests {
    use game_trait::{Game, GeneralGame};
    use rand::{Rng, SeedableRng};

    use crate::game::{GdlGame, GdlMove, ReasonerKind};
    use crate::limits::Limits;

    fn text(file: &str) -> String {
        let path = format!("{}/games/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    }

    fn names(game: &GdlGame, moves: &[GdlMove]) -> Vec<String> {
        let mut names: Vec<String> = moves.iter().map(|&m| game.move_term(m)).collect();
        names.sort();
        names
    }

    /// What a game says about one state: its fluents, whose turn it is, the goals, and every
    /// role's legal moves, by name.
    #[derive(Debug, PartialEq)]
    struct Seen {
        fluents: Vec<String>,
        turn: String,
        goals: String,
        moves: Vec<Vec<String>>,
    }

    /// A game of at most `plies` plies on `game` from the start, `choose` naming each role's
    /// move among its legal ones: what the game says about each state.
    fn play(
        game: &GdlGame,
        plies: usize,
        choose: &mut dyn FnMut(&[String]) -> String,
    ) -> Vec<Seen> {
        let mut state = game.initial_state();
        let mut seen = Vec::new();
        for ply in 0..=plies {
            let roles = game.roles().len();
            let moves: Vec<Vec<String>> = (0..roles)
                .map(|r| names(game, &game.role_moves(&state, r)))
                .collect();
            let over = game.is_terminal(&state) || ply == plies || moves.iter().any(Vec::is_empty);
            seen.push(Seen {
                fluents: game.fluent_names(&state),
                turn: format!("{:?}", game.turn(&state)),
                goals: format!("{:?}", game.goals(&state)),
                moves,
            });
            if over {
                break;
            }
            let joint: Vec<u32> = (seen[ply].moves.iter())
                .map(|legal| game.find_move(&choose(legal)).unwrap().0)
                .collect();
            state = game.successor(&state, &joint);
        }
        seen
    }

    /// Plays `playouts` seeded random games of at most `plies` plies on `a`, then the same games
    /// on `b`, comparing what each says about every state. Each game is played on its own, one
    /// state after the other, as a search would: a view is updated from the previous state's.
    fn agree(what: &str, a: &GdlGame, b: &GdlGame, playouts: u64, plies: usize) {
        for seed in 0..playouts {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let mut chosen = Vec::new();
            let played = play(a, plies, &mut |legal| {
                let name = legal[rng.gen_range(0..legal.len())].clone();
                chosen.push(name.clone());
                name
            });
            let mut chosen = chosen.into_iter();
            // Where `b` disagrees on the moves, the comparison below says so.
            let replayed = play(b, plies, &mut |legal| {
                let name = chosen.next().unwrap_or_default();
                if legal.contains(&name) {
                    name
                } else {
                    legal[0].clone()
                }
            });
            for (ply, (x, y)) in played.iter().zip(&replayed).enumerate() {
                assert_eq!(x, y, "{what}, game {seed}, ply {ply}");
            }
            assert_eq!(played.len(), replayed.len(), "{what}, game {seed}: length");
        }
    }

    #[test]
    fn a_hybrid_plays_as_the_ground_game_whatever_it_defers() {
        let (mut grounded_on_demand, mut differential) = (0, 0);
        for (file, playouts) in [
            ("tictactoe.kif", 10),
            ("connect4.kif", 3),
            ("tron.kif", 3),
            ("dice_duel.kif", 4),
            ("breakthrough.kif", 2),
            ("kaseklau.kif", 3),
        ] {
            let text = text(file);
            let plain = GdlGame::load(&text, file, &Limits::default()).unwrap();
            assert_eq!(plain.reasoner_kind(), ReasonerKind::Fast, "{file}");
            let kb = plain.kb();
            let desc = &kb.desc;
            let heads = desc.rules.iter().filter_map(|r| desc.terms.functor(r.head));
            let mut relations: Vec<String> =
                heads.map(|(f, _)| desc.terms.name(f).to_string()).collect();
            drop(kb);
            relations.sort();
            relations.dedup();
            let mut hybrids = 0;
            for relation in &relations {
                let defer = [relation.as_str()];
                let limits = Limits::default();
                let Ok(hybrid) = GdlGame::load_deferring(&text, file, &limits, Some(&defer)) else {
                    continue;
                };
                assert_eq!(hybrid.reasoner_kind(), ReasonerKind::Hybrid);
                hybrids += 1;
                // Each per-state reasoner, from its own load: grounding on demand on a view
                // updated in place, then the goal-directed engine alone on views evaluated whole
                // (and again over what reads the bridge atoms).
                let what = format!("{file} deferring {relation}");
                agree(&what, &plain, &hybrid, playouts, 200);
                let per_state = hybrid.per_state_reasoner().unwrap_or_default();
                grounded_on_demand += usize::from(per_state.starts_with("grounded"));
                let net = hybrid.fast.as_ref().unwrap();
                differential += usize::from(net.has_differential_view());
                let mut hybrid =
                    GdlGame::load_deferring(&text, file, &limits, Some(&defer)).unwrap();
                hybrid.hybrid.as_ref().unwrap().goal_directed_only();
                hybrid.fast.as_mut().unwrap().evaluate_views_whole();
                agree(
                    &format!("{what}, goal-directed"),
                    &plain,
                    &hybrid,
                    playouts,
                    200,
                );
            }
            assert!(hybrids > 0, "{file}: no hybrid around any of {relations:?}");
        }
        // Most of the hybrids ground on demand; the others stood aside (a recursive relation).
        assert!(
            grounded_on_demand >= 30,
            "{grounded_on_demand} hybrids grounded on demand"
        );
        assert!(differential >= 30, "{differential} views updated in place");
    }

    /// A walk on a graph with a cycle: whether `d` can be reached from `a` needs whether it can
    /// be reached from `b`, which needs `a` again.
    const GRAPH: &str = "
        (role walker)
        (init (at a))
        (init (open a b)) (init (open b a)) (init (open b c)) (init (open d a))
        (<= (path ?x ?y) (true (open ?x ?y)))
        (<= (path ?x ?z) (true (open ?x ?y)) (path ?y ?z))
        (node a) (node b) (node c) (node d)
        (<= (legal walker (go ?y)) (true (at ?x)) (node ?y) (path ?x ?y))
        (<= (next (at ?y)) (does walker (go ?y)))
        (<= (next (open ?x ?y)) (true (open ?x ?y)))
        (<= terminal (true (at c)))
        (<= (goal walker 100) (true (at c)))
        (<= (goal walker 0) (not (true (at c))))";

    #[test]
    fn grounding_on_demand_stands_aside_for_an_atom_that_depends_on_itself() {
        let limits = Limits::default();
        let plain = GdlGame::load(GRAPH, "graph", &limits).unwrap();
        let hybrid = GdlGame::load_deferring(GRAPH, "graph", &limits, Some(&["path"])).unwrap();
        assert_eq!(hybrid.reasoner_kind(), ReasonerKind::Hybrid);
        agree("graph deferring path", &plain, &hybrid, 20, 30);
        assert_eq!(
            hybrid.per_state_reasoner().unwrap(),
            "goal-directed: grounding on demand stood aside: a ground atom depends on itself"
        );
    }
}

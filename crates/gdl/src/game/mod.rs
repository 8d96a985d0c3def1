//! [`GdlGame`]: a game description as a game-trait [`Game`].

pub(crate) mod bench;
pub(crate) mod check;
pub(crate) mod fluents;
pub(crate) mod hybrid;
pub(crate) mod loader;
pub(crate) mod on_demand;
pub(crate) mod playout;
pub(crate) mod shipped;
pub(crate) mod turn_taking;

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use game_trait::{ChanceList, Game, GeneralGame, MoveList, PlayerId, Turn};
use smallvec::SmallVec;

use crate::datalog::{Budget, EvalError, Limit};
use crate::description::{Description, Rule};
use crate::error::GdlError;
use crate::game::fluents::FluentSet;
use crate::game::hybrid::Hybrid;
use crate::grounding::{ground, GroundError, GroundProgram};
use crate::limits::{Limits, LoadProfile};
use crate::network::differential::Model;
use crate::network::{Network, Scratch};
use crate::reference::{Kb, RefView, NO_MOVE};

/// A move: the id of a ground move term (`(mark 1 1)`, `noop`), shared by all roles. Print it with
/// [`Game::move_name`] or [`GdlGame::move_term`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GdlMove(pub u32);

/// Which reasoner answers a [`GdlGame`]'s queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReasonerKind {
    /// The grounded, compiled propositional program.
    Fast,
    /// The rules evaluated on every query: whole stratified models bottom-up, or goal-directed
    /// ([`GdlGame::goal_directed`]).
    Reference,
    /// A grounded program for the description but its relations too large to ground, whose
    /// atoms are ground as states ask for them and evaluated in each state as the program's
    /// inputs ([`GdlGame::deferred_relations`], [`GdlGame::per_state_reasoner`],
    /// [`Limits::hybrid_relation_atoms`]).
    Hybrid,
}

impl ReasonerKind {
    /// A one-word name: `fast`, `reference` or `hybrid`.
    pub fn name(self) -> &'static str {
        match self {
            ReasonerKind::Fast => "fast",
            ReasonerKind::Reference => "reference",
            ReasonerKind::Hybrid => "hybrid",
        }
    }
}

impl std::fmt::Display for ReasonerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ReasonerKind::Fast => "fast (grounded propositional program)",
            ReasonerKind::Reference => "reference (the rules evaluated on every query)",
            ReasonerKind::Hybrid => {
                "hybrid (a grounded program, the relations too large to ground evaluated per state)"
            }
        })
    }
}

/// A GDL game: any valid description, as a game-trait [`Game`].
///
/// * Players are the roles other than `random`, in declaration order.
/// * [`turn`](GeneralGame::turn): `Over` if `terminal` holds; `Chance` if `random` has several legal moves
///   and every other role exactly one; `Player(p)` if exactly one player has several legal moves and
///   `random` at most one — or if no role has a choice and exactly one player's single move is not
///   `noop` (a forced move in a turn-taking game stays that player's move); `Simultaneous` otherwise.
/// * Chance is uniform over `random`'s legal moves (GDL-II). At a `Simultaneous` node where `random`
///   has several moves, [`chance_outcomes`](GeneralGame::chance_outcomes) lists them and
///   [`play_joint`](GeneralGame::play_joint) expects the chance move after the players' moves. Roles with a
///   single legal move (the `noop` of turn-taking games, a forced chance move) are filled in by
///   [`apply`](Game::apply) and `play_joint`.
/// * [`payoff`](GeneralGame::payoff) is the role's goal value divided by 100 (0 if no goal value holds, the
///   largest if several do). Goal values must be numeric constants from 0 to 100; others are ignored.
/// * `sees` (GDL-II percepts) are available through [`GdlGame::percepts`]; play is full-information.
///
/// States are [`FluentSet`]s, moves [`GdlMove`]s; the game is copy-make.
#[derive(Debug)]
pub struct GdlGame {
    kb: Mutex<Kb>,
    roles: Vec<String>,
    players: Vec<usize>,
    random: Option<usize>,
    noop: Option<u32>,
    init: FluentSet,
    /// The ground network: the fast reasoner's, or the hybrid's (whose inputs `hybrid` supplies).
    fast: Option<Network>,
    hybrid: Option<Hybrid>,
    kind: ReasonerKind,
    fallback: Option<String>,
    name: String,
    profile: LoadProfile,
    /// The limits the game was loaded within (grounding it again uses them too).
    limits: Limits,
    /// Distinct for every load ([`Game::identity`]); a clone keeps it.
    identity: u64,
}

/// The next [`GdlGame`]'s identity.
static NEXT_IDENTITY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Clone for GdlGame {
    fn clone(&self) -> GdlGame {
        GdlGame {
            kb: Mutex::new(self.kb().clone()),
            roles: self.roles.clone(),
            players: self.players.clone(),
            random: self.random,
            noop: self.noop,
            init: self.init.clone(),
            fast: self.fast.clone(),
            hybrid: self.hybrid.clone(),
            kind: self.kind,
            fallback: self.fallback.clone(),
            name: self.name.clone(),
            profile: self.profile,
            limits: self.limits.clone(),
            identity: self.identity,
        }
    }
}

thread_local! {
    /// The last view (legal moves, terminal) the fast reasoner computed on this thread, by network
    /// and state. A search asks `turn`, `legal_moves` and `apply` about the same state in a row;
    /// this makes the second and third question free.
    static VIEW_CACHE: std::cell::RefCell<ViewCache> = std::cell::RefCell::new(ViewCache {
        network: u64::MAX,
        state: FluentSet::new(),
        view: Model::default(),
        again: Scratch::new(),
        answered: false,
        summary: None,
    });
}

thread_local! {
    /// Scratch bits for the fast reasoner's goal and next programs, reused across calls.
    static SCRATCH: std::cell::RefCell<Scratch> = const { std::cell::RefCell::new(Scratch::new()) };
    /// The buffer successors are written into before being swapped with the state played.
    static SPARE: std::cell::RefCell<FluentSet> = std::cell::RefCell::new(FluentSet::new());
}

struct ViewCache {
    network: u64,
    state: FluentSet,
    /// The view of `state`: its bits, and what updating them to another state's view needs (a
    /// hybrid's bridge atoms included, where the view is differential).
    view: Model,
    /// A hybrid's view of `state`, when its second pass evaluated it here (`answered`: the view
    /// is not differential, and a bridge atom holds).
    again: Scratch,
    answered: bool,
    /// Per role: legal move count and first legal move; `None` at a terminal state.
    summary: Option<Summary>,
}

/// Per role: the number of legal moves and the first one.
type Summary = SmallVec<[(usize, u32); ROLES_INLINE]>;

/// Runs `f` on the fast reasoner's view of `state`, computing it unless cached (from the previous
/// view where the network can), then `again` on it: a hybrid's second pass, which updates the
/// view in place, or returns `true` when it wrote the view into its third argument.
#[inline]
fn with_view<R>(
    net: &Network,
    state: &FluentSet,
    again: impl FnOnce(&FluentSet, &mut Model, &mut Scratch) -> bool,
    f: impl FnOnce(&Scratch, &Option<Summary>) -> R,
) -> R {
    VIEW_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let cache = &mut *cache;
        if cache.network != net.id() || cache.state != *state {
            let previous = (cache.network == net.id()).then_some(&cache.state);
            net.update_view(previous, state, &mut cache.view);
            cache.answered = again(state, &mut cache.view, &mut cache.again);
            cache.network = net.id();
            cache.state.clone_from(state);
            let bits = cache.bits();
            cache.summary = (!net.terminal(bits)).then(|| {
                (0..net.roles())
                    .map(|r| net.legal_summary(bits, r))
                    .collect()
            });
        }
        f(cache.bits(), &cache.summary)
    })
}

impl ViewCache {
    /// The view's bits.
    fn bits(&self) -> &Scratch {
        match self.answered {
            true => &self.again,
            false => &self.view.bits,
        }
    }
}

/// The join steps the reference reasoner took in one rule of a description
/// ([`GdlGame::rule_steps`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSteps {
    /// Where the rule starts in the description.
    pub location: String,
    /// The rule, printed in KIF.
    pub rule: String,
    /// Join steps taken in its body.
    pub steps: u64,
}

/// Roles (players plus `random`) whose per-state buffers stay on the stack; more roles work, their
/// buffers spill to the heap.
const ROLES_INLINE: usize = 8;

impl GdlGame {
    /// Parses, validates and grounds `text`, named `file` in messages, within `limits`: what
    /// [`Loader::load`](crate::Loader::load) does once it has the text.
    pub(crate) fn load(text: &str, file: &str, limits: &Limits) -> Result<GdlGame, GdlError> {
        GdlGame::load_deferring(text, file, limits, None)
    }

    /// [`load`](Self::load); with `defer`, on the hybrid reasoner around those relations, whether
    /// or not the description grounds (for tests).
    pub(crate) fn load_deferring(
        text: &str,
        file: &str,
        limits: &Limits,
        defer: Option<&[&str]>,
    ) -> Result<GdlGame, GdlError> {
        let mut profile = LoadProfile::default();
        let start = Instant::now();
        let desc = crate::description::load_with(text, file, limits.unsafe_variables)?;
        // As parsed: the hybrid reasoner starts over from it if grounding gives up.
        let parsed = desc.clone();
        profile.parse = start.elapsed();
        let start = Instant::now();
        let mut budget = Budget::new(
            limits.atoms,
            limits.memory_bytes,
            Some(limits.time),
            u32::MAX,
        );
        let rules = desc.rules.clone();
        let mut kb = Kb::new(desc, &mut budget, limits.static_relation_atoms).map_err(|e| {
            GdlError::Budget(describe(&e, &rules, "evaluating the static relations"))
        })?;
        let roles: Vec<String> = kb.roles.iter().map(|&r| kb.desc.terms.show(r)).collect();
        let random = roles.iter().position(|r| r == "random");
        let players: Vec<usize> = (0..roles.len()).filter(|&r| Some(r) != random).collect();
        if players.is_empty() {
            return Err(GdlError::Semantics("no role other than `random`".into()));
        }
        let mut init = kb.initial();
        profile.statics = start.elapsed();
        let mut built = match defer {
            None => build_fast(&mut kb, &parsed, &init, limits, &mut budget, &mut profile)?,
            Some(defer) => {
                let (game_kb, net, hybrid) =
                    hybrid::build(&parsed, limits, Some(defer), &mut profile)
                        .map_err(GdlError::Budget)?;
                kb = game_kb;
                kb.enable_demand();
                Built {
                    fast: Some(net),
                    hybrid: Some(hybrid),
                    fallback: None,
                }
            }
        };
        if built.hybrid.is_some() {
            init = kb.initial(); // the hybrid's tables replaced the description's
            if let Some(net) = built.fast.as_mut() {
                net.tune_view(&init);
            }
        }
        if !kb.deferred().is_empty() {
            // Whole models would hold the deferred relations whole: the reference reasoner (for
            // games it plays, and as the fast one's oracle) asks only for what it needs.
            kb.enable_demand();
        }
        let noop = kb
            .desc
            .terms
            .find_sym("noop")
            .and_then(|s| kb.desc.terms.lookup_app(s, &[]))
            .map(|t| kb.move_id(t));
        Ok(GdlGame {
            kb: Mutex::new(kb),
            roles,
            players,
            random,
            noop,
            init,
            kind: match (&built.fast, &built.hybrid) {
                (Some(_), None) => ReasonerKind::Fast,
                (Some(_), Some(_)) => ReasonerKind::Hybrid,
                (None, _) => ReasonerKind::Reference,
            },
            fast: built.fast,
            hybrid: built.hybrid,
            fallback: built.fallback,
            name: file.to_string(),
            profile,
            limits: limits.clone(),
            identity: NEXT_IDENTITY.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// The same game answered by the given reasoner. [`GdlError::NoFastReasoner`] if `Fast` is asked
    /// for a game that could not be grounded whole, or `Hybrid` for one without a hybrid reasoner.
    pub fn with_reasoner(mut self, kind: ReasonerKind) -> Result<GdlGame, GdlError> {
        let available = match kind {
            ReasonerKind::Fast => self.fast.is_some() && self.hybrid.is_none(),
            ReasonerKind::Hybrid => self.hybrid.is_some(),
            ReasonerKind::Reference => true,
        };
        if !available {
            return Err(GdlError::NoFastReasoner(
                self.fallback.clone().unwrap_or_default(),
            ));
        }
        self.kind = kind;
        Ok(self)
    }

    /// Which reasoner answers queries.
    pub fn reasoner_kind(&self) -> ReasonerKind {
        self.kind
    }

    /// Whether the reference reasoner evaluates goal-directed (only what a query asks about), as it does for
    /// a game grounding gave up on, instead of computing whole models.
    pub fn goal_directed(&self) -> bool {
        self.kb().demand_enabled()
    }

    /// The same game with the reference reasoner evaluating goal-directed (`true`) or whole
    /// models bottom-up (`false`). Both give the same answers; the second is the simpler oracle,
    /// the first the faster on large games. A game with [deferred](GdlGame::deferred_relations)
    /// static relations stays goal-directed: a whole model would hold them whole.
    pub fn with_goal_directed(self, on: bool) -> GdlGame {
        {
            let mut kb = self.kb();
            if on {
                kb.enable_demand();
            } else {
                kb.disable_demand();
            }
        }
        self
    }

    /// The static relations too large to evaluate whole at load ([`Limits::static_relation_atoms`]),
    /// as `name/arity`: the reference reasoner evaluates them in each query, goal-directed, for
    /// the arguments the query binds; and for a [hybrid](ReasonerKind::Hybrid) game, the
    /// relations too large to ground, by name, which it evaluates the same way. Empty for most
    /// games.
    pub fn deferred_relations(&self) -> Vec<String> {
        let kb = self.kb();
        let statics = kb.deferred().iter().map(|&r| {
            let (name, arity) = kb.engine.schema.get(r);
            format!("{}/{arity}", kb.desc.terms.name(name))
        });
        let hybrid = self
            .hybrid
            .iter()
            .flat_map(|h| h.deferred().iter().cloned());
        statics.chain(hybrid).collect()
    }

    /// For a [hybrid](ReasonerKind::Hybrid) game, who evaluates the deferred relations in each
    /// state, in a line: grounding on demand (each atom a state asks for ground once, then
    /// evaluated over its ground rules in every state after: `grounded on demand: 1077242 atoms,
    /// 2445056 rules so far (dropped 0 times)`), or the goal-directed reference engine, with the
    /// reason grounding on demand stood aside. `None` for other games.
    pub fn per_state_reasoner(&self) -> Option<String> {
        self.hybrid.as_ref().map(Hybrid::per_state)
    }

    /// Starts counting the reference reasoner's join steps per rule, from zero: see
    /// [`rule_steps`](Self::rule_steps). Costs the reference reasoner about one increment per
    /// join step; the fast reasoner takes none.
    pub fn count_rule_steps(&self) {
        match self.active_hybrid() {
            Some(hybrid) => hybrid.kb().count_rule_steps(),
            None => self.kb().count_rule_steps(),
        }
    }

    /// The join steps of the reference reasoner's queries since
    /// [`count_rule_steps`](Self::count_rule_steps), in all, and the rules of the description
    /// that took them, most first (ties in source order): which rules its joins run through.
    /// No steps and no rules if nothing was counted, as in a game the fast reasoner plays (its
    /// queries join nothing); on the hybrid reasoner, the joins of its per-state evaluations
    /// (their bridge rules are the description's rules rewritten, `(<= (__bridge0 …) …)`).
    pub fn rule_steps(&self) -> (u64, Vec<RuleSteps>) {
        // A hybrid joins in its reasoner of the relations it does not ground.
        let kb = match self.active_hybrid() {
            Some(hybrid) => hybrid.kb(),
            None => self.kb(),
        };
        let mut counted: Vec<RuleSteps> = (kb.rule_steps().iter().zip(&kb.desc.rules))
            .filter(|(&steps, _)| steps > 0)
            .map(|(&steps, rule)| RuleSteps {
                location: rule.location.to_string(),
                rule: rule.text.clone(),
                steps,
            })
            .collect();
        counted.sort_by_key(|r| std::cmp::Reverse(r.steps)); // stable: ties keep source order
        (kb.query_steps(), counted)
    }

    /// Why the fast reasoner does not apply, if it does not (for a hybrid game, why grounding
    /// the description whole gave up).
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// The number of ground rules of the fast reasoner, if it applies.
    pub fn ground_rules(&self) -> Option<usize> {
        self.fast.as_ref().map(Network::ground_rules)
    }

    /// Sizes of the fast reasoner's view, goal and next programs: (rules in blocks, rules in `does`
    /// buckets) each.
    pub fn program_sizes(&self) -> Option<[(usize, usize); 3]> {
        self.fast.as_ref().map(Network::program_sizes)
    }

    /// Where the time of loading went.
    pub fn load_profile(&self) -> LoadProfile {
        self.profile
    }

    /// The file name the description came from (`<input>` for text).
    pub fn source_name(&self) -> &str {
        &self.name
    }

    /// All role names in declaration order, `random` included.
    pub fn roles(&self) -> &[String] {
        &self.roles
    }

    /// The role name of player `p`.
    pub fn player_name(&self, p: PlayerId) -> &str {
        &self.roles[self.players[p]]
    }

    /// Whether the description has the GDL-II `random` role.
    pub fn has_random(&self) -> bool {
        self.random.is_some()
    }

    /// The number of fluents and of moves known so far (all of them once grounded).
    pub fn counts(&self) -> (usize, usize) {
        let kb = self.kb();
        (kb.fluents.len(), kb.moves.len())
    }

    /// The move term of `mv` in KIF (`(mark 1 1)`).
    pub fn move_term(&self, mv: GdlMove) -> String {
        let kb = self.kb();
        kb.moves
            .get(mv.0 as usize)
            .map_or_else(|| format!("#{}", mv.0), |&t| kb.desc.terms.show(t))
    }

    /// The fluent term of fluent `id` in KIF (`(cell 1 1 x)`).
    pub fn fluent_name(&self, id: u32) -> String {
        let kb = self.kb();
        kb.fluents
            .get(id as usize)
            .map_or_else(|| format!("#{id}"), |&t| kb.desc.terms.show(t))
    }

    /// The fluents of `state`, printed and sorted.
    pub fn fluent_names(&self, state: &FluentSet) -> Vec<String> {
        let mut v: Vec<String> = state.iter().map(|f| self.fluent_name(f)).collect();
        v.sort();
        v
    }

    /// The move with the given KIF text (case-insensitive), if the game knows it.
    pub fn find_move(&self, text: &str) -> Option<GdlMove> {
        let wanted = text.trim().to_lowercase();
        let kb = self.kb();
        kb.moves
            .iter()
            .position(|&t| kb.desc.terms.show(t) == wanted)
            .map(|i| GdlMove(i as u32))
    }

    /// The legal moves of role `role` (an index into [`roles`](Self::roles), `random` included)
    /// in `state`; none at a terminal state. A game manager needs `random`'s move even where it
    /// has no choice, to tell the players every role's move.
    pub fn role_moves(&self, state: &FluentSet, role: usize) -> Vec<GdlMove> {
        let mut moves: SmallVec<[u32; 16]> = SmallVec::new();
        if role < self.roles.len() {
            self.role_moves_into(state, role, &mut moves);
        }
        moves.into_iter().map(GdlMove).collect()
    }

    fn role_moves_into(&self, state: &FluentSet, role: usize, moves: &mut SmallVec<[u32; 16]>) {
        match self.active_fast() {
            Some(net) => self.with_view(net, state, |sc, _| {
                if !net.terminal(sc) {
                    net.legal_moves(sc, role, moves);
                }
            }),
            None => {
                let view = self.ref_view(state);
                if !view.terminal {
                    moves.extend(view.legal[role].iter().copied());
                }
            }
        }
    }

    /// The warnings the validator produced.
    pub fn warnings(&self) -> Vec<String> {
        self.kb().desc.warnings.clone()
    }

    /// The GDL-II percepts after the joint move (`joint` in [`play_joint`](GeneralGame::play_joint)'s
    /// layout): `(role name, percept)` for every `sees(role, percept)` that holds. Computed by the
    /// reference reasoner.
    pub fn percepts(&self, state: &FluentSet, joint: &[GdlMove]) -> Vec<(String, String)> {
        let full = self.full_joint(state, joint);
        let mut kb = self.kb();
        let sees = kb.sees(state, &full);
        sees.into_iter()
            .map(|(r, p)| (self.roles[r].clone(), kb.desc.terms.show(p)))
            .collect()
    }

    /// Goal values per player in `state` (terminal or not), as the rules define them.
    pub fn goals(&self, state: &FluentSet) -> SmallVec<[Option<u8>; ROLES_INLINE]> {
        match self.active_fast() {
            Some(net) => self.with_view(net, state, |view, _| {
                SCRATCH.with(|sc| {
                    let mut sc = sc.borrow_mut();
                    net.eval_goal(state, view, &mut sc);
                    self.players.iter().map(|&r| net.goal(&sc, r)).collect()
                })
            }),
            None => {
                let goals = self.kb().goals(state);
                self.players.iter().map(|&r| goals[r]).collect()
            }
        }
    }

    /// Whether `terminal` holds in `state`.
    pub fn is_terminal(&self, state: &FluentSet) -> bool {
        self.turn(state) == Turn::Over
    }

    fn kb(&self) -> MutexGuard<'_, Kb> {
        // A poisoned lock only means another thread panicked mid-query; the tables stay consistent
        // (they only ever grow), so keep going.
        self.kb.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The fast reasoner's network, if the game has one (whichever reasoner is active).
    pub(crate) fn network(&self) -> Option<&Network> {
        self.fast.as_ref().filter(|_| self.hybrid.is_none())
    }

    /// The game's ground rules, grounded again on a copy of its tables (the network keeps only
    /// their compiled form), with fluent and move ids those of the game; `None` if the game has no
    /// fast reasoner or grounding fails within the [`Limits`] it was loaded with.
    pub(crate) fn ground_program(&self) -> Option<(Kb, GroundProgram)> {
        self.network()?;
        let mut kb = self.kb().clone();
        let limits = &self.limits;
        let mut budget = Budget::new(
            limits.relaxed_atoms,
            limits.memory_bytes,
            Some(limits.ground_time),
            crate::datalog::MAX_RELAXED_DEPTH,
        );
        budget.max_steps = limits.ground_steps;
        let mut profile = LoadProfile::default();
        let program = ground(
            &mut kb,
            None,
            &mut budget,
            limits.ground_rules,
            &mut profile,
        )
        .ok()?;
        Some((kb, program))
    }

    /// Player `p`'s role index (into [`roles`](Self::roles)).
    pub(crate) fn role_of(&self, p: PlayerId) -> usize {
        self.players[p]
    }

    /// The role index of `random`, if the game has it.
    pub(crate) fn random_role(&self) -> Option<usize> {
        self.random
    }

    #[inline]
    fn active_fast(&self) -> Option<&Network> {
        match self.kind {
            ReasonerKind::Fast | ReasonerKind::Hybrid => self.fast.as_ref(),
            ReasonerKind::Reference => None,
        }
    }

    /// Runs `f` on the network's view of `state` (see [`with_view`]), a hybrid's inputs asked
    /// for first.
    #[inline]
    fn with_view<R>(
        &self,
        net: &Network,
        state: &FluentSet,
        f: impl FnOnce(&Scratch, &Option<Summary>) -> R,
    ) -> R {
        // A hybrid's network answers only with the hybrid active: only a hybrid sets bridge
        // atoms in a view.
        let again = |state: &FluentSet, view: &mut Model, bits: &mut Scratch| {
            self.active_hybrid()
                .is_some_and(|hybrid| hybrid.view_again(net, state, view, bits))
        };
        with_view(net, state, again, f)
    }

    fn ref_view(&self, state: &FluentSet) -> RefView {
        self.kb().view(state)
    }

    /// Runs `f` on every role's legal move count and first legal move (`None` at a terminal
    /// state), borrowed from the cached view: the summary is asked for several times per state.
    #[inline]
    fn with_summary<R>(
        &self,
        state: &FluentSet,
        f: impl FnOnce(Option<&[(usize, u32)]>) -> R,
    ) -> R {
        match self.active_fast() {
            Some(net) => self.with_view(net, state, |_, summary| f(summary.as_deref())),
            None => {
                let view = self.ref_view(state);
                if view.terminal {
                    return f(None);
                }
                let summary: Summary = view
                    .legal
                    .iter()
                    .map(|l| (l.len(), l.first().copied().unwrap_or(NO_MOVE)))
                    .collect();
                f(Some(&summary))
            }
        }
    }

    fn decide(&self, summary: &[(usize, u32)]) -> Turn {
        let random_moves = self.random.map_or(0, |r| summary[r].0);
        let mut choosers = self
            .players
            .iter()
            .enumerate()
            .filter(|&(_, &r)| summary[r].0 > 1);
        let first = choosers.next();
        let more = choosers.next().is_some();
        match (first, more) {
            (None, _) if random_moves > 1 => Turn::Chance,
            (None, _) => {
                let mut forced = self
                    .players
                    .iter()
                    .enumerate()
                    .filter(|&(_, &r)| summary[r].0 == 1 && Some(summary[r].1) != self.noop);
                match (forced.next(), forced.next()) {
                    (Some((p, _)), None) => Turn::Player(p),
                    _ => Turn::Simultaneous,
                }
            }
            (Some((p, _)), false) if random_moves <= 1 => Turn::Player(p),
            _ => Turn::Simultaneous,
        }
    }

    /// A joint move over all roles: `joint` gives the players' moves (then chance's, if it has a
    /// choice); roles with one legal move get it.
    fn full_joint(&self, state: &FluentSet, joint: &[GdlMove]) -> SmallVec<[u32; ROLES_INLINE]> {
        let mut full: SmallVec<[u32; ROLES_INLINE]> =
            SmallVec::from_elem(NO_MOVE, self.roles.len());
        self.with_summary(state, |summary| {
            let summary = summary.unwrap_or_default();
            for (r, slot) in full.iter_mut().enumerate() {
                *slot = summary.get(r).map_or(NO_MOVE, |&(_, m)| m);
            }
        });
        for (p, &r) in self.players.iter().enumerate() {
            if let Some(m) = joint.get(p) {
                full[r] = m.0;
            }
        }
        if let (Some(r), Some(m)) = (self.random, joint.get(self.players.len())) {
            full[r] = m.0;
        }
        full
    }

    fn successor(&self, state: &FluentSet, joint: &[u32]) -> FluentSet {
        let mut out = FluentSet::new();
        self.successor_into(state, joint, &mut out);
        out
    }

    /// The successor of `state` written into `out` (its buffer reused).
    fn successor_into(&self, state: &FluentSet, joint: &[u32], out: &mut FluentSet) {
        let Some(net) = self.active_fast() else {
            *out = self.kb().next(state, joint);
            return;
        };
        self.with_view(net, state, |view, _| {
            SCRATCH.with(|sc| {
                let sc = &mut sc.borrow_mut();
                match self.active_hybrid() {
                    Some(hybrid) => hybrid.next_into(net, (state, joint), view, sc, out),
                    None => net.next_into(state, joint, view, sc, out),
                }
            })
        })
    }

    /// The hybrid reasoner, when it is the one answering.
    #[inline]
    fn active_hybrid(&self) -> Option<&Hybrid> {
        self.hybrid
            .as_ref()
            .filter(|_| self.kind == ReasonerKind::Hybrid)
    }

    /// Plays `joint` (over all roles) on `state` in place, through a per-thread spare state, so
    /// that large states allocate nothing.
    fn advance(&self, state: &mut FluentSet, joint: &[u32]) {
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            self.successor_into(state, joint, &mut spare);
            std::mem::swap(state, &mut *spare);
        });
    }
}

impl std::str::FromStr for GdlGame {
    type Err = GdlError;
    /// [`Loader::text`](crate::Loader::text)`(text).load()`.
    fn from_str(text: &str) -> Result<GdlGame, GdlError> {
        crate::Loader::text(text).load()
    }
}

impl Game for GdlGame {
    type State = FluentSet;

    type Move = GdlMove;

    fn initial_state(&self) -> FluentSet {
        self.init.clone()
    }

    /// Distinct for every description loaded (a clone shares its original's).
    fn identity(&self) -> Option<u64> {
        Some(self.identity)
    }

    /// Plays `mv` for the role that has a choice (the player at a `Player` node, `random` at a
    /// `Chance` node); every other role plays its single legal move.
    fn apply(&self, state: &mut FluentSet, mv: GdlMove) -> Option<FluentSet> {
        let Some(joint) = self.single_joint(state, mv) else {
            return Some(state.clone()); // a finished game stays as it is
        };
        Some(self.successor(state, &joint))
    }

    /// Plays `mv` in place: the same successor as [`apply`](Game::apply), without allocating.
    fn play(&self, state: &mut FluentSet, mv: GdlMove) {
        if let Some(joint) = self.single_joint(state, mv) {
            self.advance(state, &joint);
        }
    }

    fn state_hash(&self, state: &FluentSet) -> Option<u64> {
        Some(state.hash64())
    }

    fn move_name(&self, _state: &FluentSet, mv: GdlMove) -> String {
        self.move_term(mv)
    }
}

impl GdlGame {
    /// The joint move of [`apply`](Game::apply): `mv` for the role that has a choice (the player at
    /// a `Player` node, `random` at a `Chance` node), every other role's single legal move; `None`
    /// at a terminal state (the state stays as it is).
    fn single_joint(
        &self,
        state: &FluentSet,
        mv: GdlMove,
    ) -> Option<SmallVec<[u32; ROLES_INLINE]>> {
        self.with_summary(state, |summary| {
            let summary = summary?;
            Some(self.joint_for(summary, mv))
        })
    }

    /// [`single_joint`](Self::single_joint) at a state with this summary.
    fn joint_for(&self, summary: &[(usize, u32)], mv: GdlMove) -> SmallVec<[u32; ROLES_INLINE]> {
        let turn = self.decide(summary);
        let mut joint: SmallVec<[u32; ROLES_INLINE]> = summary.iter().map(|&(_, m)| m).collect();
        match turn {
            Turn::Player(p) => joint[self.players[p]] = mv.0,
            Turn::Chance => {
                if let Some(r) = self.random {
                    joint[r] = mv.0;
                }
            }
            _ => {
                // Not a single mover: give `mv` to every role with a choice (the caller should have
                // used `play_joint`; this keeps `apply` total).
                for (r, &(n, _)) in summary.iter().enumerate() {
                    if n > 1 {
                        joint[r] = mv.0;
                    }
                }
            }
        }
        joint
    }
}

impl GeneralGame for GdlGame {
    fn players(&self) -> usize {
        self.players.len()
    }

    fn turn(&self, state: &FluentSet) -> Turn {
        self.with_summary(state, |s| s.map_or(Turn::Over, |s| self.decide(s)))
    }

    fn legal_moves(&self, state: &FluentSet, player: PlayerId, moves: &mut MoveList<GdlMove>) {
        moves.clear();
        let Some(&r) = self.players.get(player) else {
            return;
        };
        match self.active_fast() {
            Some(net) => self.with_view(net, state, |sc, _| {
                if !net.terminal(sc) {
                    net.legal_moves(sc, r, &mut MapExtend(moves));
                }
            }),
            None => {
                let view = self.ref_view(state);
                if !view.terminal {
                    moves.extend(view.legal[r].iter().map(|&m| GdlMove(m)));
                }
            }
        }
    }

    fn chance_outcomes(&self, state: &FluentSet, outcomes: &mut ChanceList<GdlMove>) {
        outcomes.clear();
        let Some(r) = self.random else { return };
        let mut moves: SmallVec<[u32; 16]> = SmallVec::new();
        self.role_moves_into(state, r, &mut moves);
        if moves.len() > 1 {
            let p = 1.0 / moves.len() as f64;
            outcomes.extend(moves.iter().map(|&m| (GdlMove(m), p)));
        }
    }

    fn play_joint(&self, state: &mut FluentSet, joint: &[GdlMove]) {
        let full = self.full_joint(state, joint);
        self.advance(state, &full);
    }

    fn payoff(&self, state: &FluentSet, player: PlayerId) -> f64 {
        self.goals(state)
            .get(player)
            .copied()
            .flatten()
            .map_or(0.0, |g| g as f64 / 100.0)
    }
}

/// Adapts a move list to receive raw move ids.
struct MapExtend<'a>(&'a mut MoveList<GdlMove>);

impl Extend<u32> for MapExtend<'_> {
    fn extend<I: IntoIterator<Item = u32>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().map(GdlMove));
    }
}

/// `e` in words: the limit reached and the rule being evaluated.
fn describe(e: &EvalError, rules: &[Rule], doing: &str) -> String {
    let rule = |r: Option<usize>| match r.and_then(|r| rules.get(r)) {
        Some(r) => format!(" at {}: {}", r.location, r.text),
        None => String::new(),
    };
    match e {
        EvalError::Budget { limit, rule: r } => {
            format!("{doing} stopped: {limit}{}", rule(*r))
        }
        EvalError::NotStratified { rule: r, .. } => {
            format!(
                "{doing}: recursion through negation with no stratified model{}",
                rule(*r)
            )
        }
    }
}

/// The reasoners a load built.
struct Built {
    /// The ground network (the hybrid's, with `hybrid`).
    fast: Option<Network>,
    hybrid: Option<Hybrid>,
    /// Why the description was not grounded whole.
    fallback: Option<String>,
}

/// Grounds and compiles the fast reasoner, or the hybrid one (replacing `kb` with the tables of
/// its bridged rules), or says why the game falls back to the reference reasoner; `Err` when none
/// applies within `limits`.
fn build_fast(
    kb: &mut Kb,
    parsed: &Description,
    init: &FluentSet,
    limits: &Limits,
    budget: &mut Budget,
    profile: &mut LoadProfile,
) -> Result<Built, GdlError> {
    let rules = &parsed.rules;
    let left = budget
        .deadline
        .map_or(limits.ground_time, |(at, _)| {
            at.saturating_duration_since(Instant::now())
        })
        .min(limits.ground_time);
    let mut relaxed_budget = Budget::new(
        budget.max_atoms.min(limits.relaxed_atoms),
        budget.max_bytes,
        Some(left),
        crate::datalog::MAX_RELAXED_DEPTH,
    );
    relaxed_budget.max_steps = limits.ground_steps;
    let grounded = ground(kb, None, &mut relaxed_budget, limits.ground_rules, profile);
    let start = Instant::now();
    let reason = match grounded {
        Ok(program) => {
            let net = Network::build(kb, &program);
            profile.compile = start.elapsed();
            return Ok(match net {
                Ok(mut net) => {
                    net.tune_view(init);
                    Built {
                        fast: Some(net),
                        hybrid: None,
                        fallback: None,
                    }
                }
                Err(reason) => Built {
                    fast: None,
                    hybrid: None,
                    fallback: Some(reason),
                },
            });
        }
        Err(GroundError::Cycle(atoms)) => {
            let shown: Vec<String> = atoms
                .iter()
                .map(|&a| format!("`{}`", kb.desc.terms.show(a)))
                .collect();
            return Err(GdlError::NotStratified(format!(
                "no stratified model: the ground atom {} depends on itself through negation: {} → not {}",
                shown[0],
                shown[0],
                shown[1..].join(" → ")
            )));
        }
        Err(GroundError::Eval(
            e @ EvalError::Budget {
                limit: Limit::Depth(_),
                ..
            },
        )) => describe(
            &e,
            rules,
            "grounding (the relaxed model: every atom of every reachable state, negation ignored)",
        ),
        Err(GroundError::Eval(e)) => describe(&e, rules, "grounding"),
    };
    let mut reason = reason;
    if limits.hybrid_relation_atoms > 0 && !kb.engine.has_internal_negation() {
        let start = Instant::now();
        let mut hybrid_profile = LoadProfile::default();
        match hybrid::build(parsed, limits, None, &mut hybrid_profile) {
            Ok((game_kb, net, hybrid)) => {
                *kb = game_kb;
                // Its reference reasoner too evaluates goal-directed: the description has models
                // too large to compute whole in every state.
                kb.enable_demand();
                let (domain, instantiate) = (hybrid_profile.domain, hybrid_profile.instantiate);
                profile.domain += domain;
                profile.instantiate += instantiate;
                profile.compile += start.elapsed().saturating_sub(domain + instantiate);
                return Ok(Built {
                    fast: Some(net),
                    hybrid: Some(hybrid),
                    fallback: Some(reason),
                });
            }
            Err(why) => reason = format!("{reason}; no hybrid reasoner: {why}"),
        }
    }
    if !limits.fallback {
        return Err(GdlError::Budget(reason));
    }
    if kb.engine.has_internal_negation() {
        return Err(GdlError::Budget(format!(
            "{reason}; the relations recurse through negation, and without the ground rules their \
             stratification cannot be established"
        )));
    }
    // The reference reasoner is sound; it must also be fast enough: one view and one successor of
    // the initial state within the fallback's time. It evaluates goal-directed: a game too large to
    // ground has models too large to compute whole in every state.
    kb.enable_demand();
    let mut quick = Budget::new(
        limits.atoms,
        limits.memory_bytes,
        Some(limits.fallback_query),
        u32::MAX,
    );
    let probe = kb.view_within(init, &mut quick).and_then(|view| {
        let joint: Vec<u32> = view
            .legal
            .iter()
            .map(|l| l.first().copied().unwrap_or(NO_MOVE))
            .collect();
        if view.terminal {
            Ok(())
        } else {
            kb.next_within(init, &joint, &mut quick).map(|_| ())
        }
    });
    profile.compile = start.elapsed();
    match probe {
        Ok(()) => Ok(Built {
            fast: None,
            hybrid: None,
            fallback: Some(reason),
        }),
        Err(e) => Err(GdlError::Budget(format!(
            "{reason}; the reference reasoner is no fallback: {}",
            describe(&e, rules, "its first query")
        ))),
    }
}

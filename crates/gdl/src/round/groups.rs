//! Multi-valued state variables: groups of fluents of which at most one holds in every reachable
//! state (*at most one*), or exactly one (*exactly one*), proven by induction over the ground rules.
//!
//! # The analysis
//! 1. **Candidates.** For every fluent name, arity `n ≥ 1` and argument position `k`, the ground
//!    fluents that agree on every argument but the `k`-th form a candidate (at least two fluents):
//!    `(cell 1 1 x)`, `(cell 1 1 o)`, `(cell 1 1 b)` for `(cell 1 1 ?)`. A candidate is *exactly
//!    one* if one of its fluents holds initially, *at most one* if none does, and is dropped if
//!    several do.
//! 2. **Induction.** Assume every surviving candidate holds in a state `s` (the hypothesis `H`).
//!    For candidate `G`, the `next` atoms of its fluents are a function of their cone `R` (the
//!    fluents and moves their ground rules read, see [`crate::grounding::cone`]). Every assignment of the
//!    fluents of `R` that `H` allows (each candidate's fluents within `R`: at most one true; all of
//!    an *exactly one* candidate's fluents in `R`: one true) is tried with every joint move: each
//!    role plays one of the moves in `R` or, if it has others, one outside `R` (which the rules of
//!    `G` do not see). When the successor breaks `G` (two of its fluents, or none for *exactly
//!    one*), the joint move must also be legal: the fluents the `legal` atoms of its moves read
//!    (a move outside `R` tried as each such move of the role) are assigned every way `H` allows;
//!    if some assignment makes the joint move legal, `G` fails.
//! 3. **Fixpoint.** A failing *exactly one* candidate is retried as *at most one*; a failing *at
//!    most one* candidate is dropped; the survivors are checked again until none fails. The
//!    survivors then hold initially and are preserved by every legal joint move from any state
//!    where they all hold, hence in every reachable state. The check over-approximates (it also
//!    tries unreachable states and ignores that play stops at terminal states), so it is sound,
//!    not complete. A check that would enumerate more than a fixed number of cases drops the
//!    candidate, which is sound too.
//! 4. **Choice.** For each fluent name, the argument position whose surviving candidates cover most
//!    fluents (then: fewest variables) gives the variables; every fluent not covered is a Boolean.

use std::collections::{BTreeMap, HashMap};

use super::probe::{combinations, each_assignment, Probe, StateVar};
use crate::game::fluents::FluentSet;
use crate::grounding::cone::Cones;
use crate::network::Outputs;
use crate::reference::{Kb, NO_MOVE};
use crate::syntax::term::TermId;

/// The most assignments of a candidate's cone times joint moves that its check may try.
const MAX_CASES: u64 = 1 << 20;
/// The most assignments of the fluents the legal atoms of a breaking joint move read.
const MAX_LEGAL_CASES: u64 = 1 << 12;
/// The most ways to choose moves outside the cone for the roles that play one.
const MAX_OTHER_MOVES: u64 = 256;

/// A candidate group.
struct Candidate {
    members: Vec<u32>,
    exact: bool,
    alive: bool,
    /// (fluent name, arity, position): which family of candidates it belongs to.
    family: (u32, usize, usize),
    name: String,
    labels: Vec<String>,
}

/// The analysis of one game.
pub(crate) struct Groups<'a> {
    outputs: &'a Outputs,
    does: &'a [(u32, u32)],
    cones: Cones<'a>,
    probe: Probe<'a>,
    cands: Vec<Candidate>,
    /// The candidates each fluent belongs to.
    of_fluent: Vec<Vec<usize>>,
    fluents: usize,
}

impl<'a> Groups<'a> {
    /// The candidates of `kb`'s fluents that `init` allows.
    pub(crate) fn new(
        kb: &Kb,
        outputs: &'a Outputs,
        g: &'a crate::grounding::GroundProgram,
        probe: Probe<'a>,
        init: &FluentSet,
    ) -> Groups<'a> {
        let cands = candidates(kb, init);
        let mut of_fluent = vec![Vec::new(); kb.fluents.len()];
        for (i, c) in cands.iter().enumerate() {
            c.members
                .iter()
                .for_each(|&f| of_fluent[f as usize].push(i));
        }
        Groups {
            outputs,
            does: &g.does,
            cones: Cones::new(g),
            probe,
            cands,
            of_fluent,
            fluents: kb.fluents.len(),
        }
    }

    /// Runs the fixpoint and returns the state variables: the chosen groups, then Booleans.
    pub(crate) fn variables(mut self, boolean_name: impl Fn(u32) -> String) -> Vec<StateVar> {
        self.fixpoint();
        let mut vars = self.choose();
        let mut covered = vec![false; self.fluents];
        for v in &vars {
            v.values
                .iter()
                .flatten()
                .for_each(|&f| covered[f as usize] = true);
        }
        vars.extend(
            (0..self.fluents as u32)
                .filter(|&f| !covered[f as usize])
                .map(|f| StateVar::boolean(f, boolean_name(f))),
        );
        vars.sort_by_key(|v| v.values.iter().flatten().min().copied());
        vars
    }

    fn fixpoint(&mut self) {
        loop {
            let mut changed = false;
            for c in 0..self.cands.len() {
                if self.cands[c].alive && !self.preserved(c) {
                    changed = true;
                    let cand = &mut self.cands[c];
                    if cand.exact {
                        cand.exact = false;
                    } else {
                        cand.alive = false;
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Per family, the position whose live candidates cover most fluents, as variables.
    fn choose(&self) -> Vec<StateVar> {
        let mut by_name: BTreeMap<(u32, usize), BTreeMap<usize, Vec<usize>>> = BTreeMap::new();
        for (i, c) in self.cands.iter().enumerate().filter(|(_, c)| c.alive) {
            let (name, arity, k) = c.family;
            by_name
                .entry((name, arity))
                .or_default()
                .entry(k)
                .or_default()
                .push(i);
        }
        let mut vars = Vec::new();
        for positions in by_name.values() {
            let score = |cands: &Vec<usize>| {
                let covered: usize = cands.iter().map(|&i| self.cands[i].members.len()).sum();
                (covered, usize::MAX - cands.len())
            };
            let best = positions
                .values()
                .max_by_key(|c| score(c))
                .expect("non-empty");
            vars.extend(best.iter().map(|&i| self.variable(i)));
        }
        vars
    }

    fn variable(&self, i: usize) -> StateVar {
        let c = &self.cands[i];
        let mut values: Vec<Option<u32>> = c.members.iter().map(|&f| Some(f)).collect();
        let mut labels = c.labels.clone();
        if !c.exact {
            values.push(None);
            labels.push("none".into());
        }
        StateVar {
            name: c.name.clone(),
            values,
            labels,
        }
    }

    /// Whether candidate `c` holds after every legal joint move from every state where all live
    /// candidates hold (step 2 of the [module docs](self)); `false` when the check is too large.
    fn preserved(&mut self, c: usize) -> bool {
        let members = self.cands[c].members.clone();
        let exact = self.cands[c].exact;
        let slots = (self.outputs.next_out.iter())
            .filter(|(_, f)| members.contains(f))
            .map(|&(s, _)| s);
        let cone = self.cones.of(slots.collect::<Vec<_>>());
        let Some(blocks) = self.blocks(&cone.fluents, MAX_CASES) else {
            return false;
        };
        let choices = self.move_choices(&cone.does);
        let sizes: Vec<usize> = blocks.iter().map(|b| b.len() + 1).collect();
        let cases = combinations(sizes.iter().copied().chain(choices.iter().map(Vec::len)));
        if cases.map_or(true, |n| n > MAX_CASES) {
            return false;
        }
        let choice_sizes: Vec<usize> = choices.iter().map(Vec::len).collect();
        let checks = self.checks(&cone.fluents);
        let mut holds = true;
        each_assignment(&sizes, |a| {
            if !holds {
                return;
            }
            let state = assigned(&blocks, a);
            if !self.consistent(&state, &checks) {
                return;
            }
            self.probe.set_state(state.clone());
            each_assignment(&choice_sizes, |m| {
                if !holds {
                    return;
                }
                let joint: Vec<u32> = choices.iter().zip(m).map(|(c, &i)| c[i as usize]).collect();
                let next = self.probe.next(&joint);
                let n = members.iter().filter(|&&f| next.contains(f)).count();
                if n > 1 || (exact && n == 0) {
                    holds = !self.possible(&state, &cone.fluents, &joint, &choices);
                    self.probe.set_state(state.clone());
                }
            });
        });
        holds
    }

    /// Per role, the moves of `does` it may play, and `NO_MOVE` for "a move outside them" if it
    /// has other moves.
    fn move_choices(&self, does: &[u32]) -> Vec<Vec<u32>> {
        let mut choices = vec![Vec::new(); self.outputs.legal.len()];
        for &d in does {
            let (r, m) = self.does[d as usize];
            choices[r as usize].push(m);
        }
        for (r, c) in choices.iter_mut().enumerate() {
            if self.outputs.legal[r].iter().any(|(_, m)| !c.contains(m)) || c.is_empty() {
                c.push(NO_MOVE);
            }
        }
        choices
    }

    /// Whether some state that agrees with `state` on `known`, where every live candidate holds,
    /// makes `joint` legal (each `NO_MOVE` of a role with moves in `choices` tried as each of its
    /// other moves). `true` when that is too large to find out.
    fn possible(
        &mut self,
        state: &FluentSet,
        known: &[u32],
        joint: &[u32],
        choices: &[Vec<u32>],
    ) -> bool {
        let others: Vec<Vec<u32>> = (0..joint.len())
            .map(|r| match joint[r] {
                NO_MOVE if choices[r] != [NO_MOVE] => (self.outputs.legal[r].iter())
                    .map(|&(_, m)| m)
                    .filter(|m| !choices[r].contains(m))
                    .collect(),
                m => vec![m],
            })
            .collect();
        let sizes: Vec<usize> = others.iter().map(Vec::len).collect();
        if combinations(sizes.iter().copied()).map_or(true, |n| n > MAX_OTHER_MOVES) {
            return true;
        }
        let mut found = false;
        each_assignment(&sizes, |i| {
            if !found {
                let moves: Vec<u32> = others.iter().zip(i).map(|(o, &i)| o[i as usize]).collect();
                found = self.legal_somewhere(state, known, &moves);
            }
        });
        found
    }

    /// Whether the moves (`NO_MOVE`: any) can all be legal in a state that agrees with `state` on
    /// `known` and where every live candidate holds.
    fn legal_somewhere(&mut self, state: &FluentSet, known: &[u32], moves: &[u32]) -> bool {
        let slots: Vec<u32> = (moves.iter().enumerate())
            .filter(|&(_, &m)| m != NO_MOVE)
            .filter_map(|(r, &m)| {
                let legal = &self.outputs.legal[r];
                legal
                    .binary_search_by_key(&m, |&(_, m)| m)
                    .ok()
                    .map(|i| legal[i].0)
            })
            .collect();
        let cone = self.cones.of(slots);
        let free: Vec<u32> = cone
            .fluents
            .into_iter()
            .filter(|f| known.binary_search(f).is_err())
            .collect();
        let Some(blocks) = self.blocks(&free, MAX_LEGAL_CASES) else {
            return true;
        };
        let mut all: Vec<u32> = known.iter().chain(&free).copied().collect();
        all.sort_unstable();
        let checks = self.checks(&all);
        let sizes: Vec<usize> = blocks.iter().map(|b| b.len() + 1).collect();
        let mut found = false;
        each_assignment(&sizes, |a| {
            if found {
                return;
            }
            let mut full = assigned(&blocks, a);
            state.iter().for_each(|f| full.insert(f));
            if self.consistent(&full, &checks) {
                self.probe.set_state(full);
                found = (moves.iter().enumerate())
                    .filter(|&(_, &m)| m != NO_MOVE)
                    .all(|(r, m)| self.probe.legal(r).binary_search(m).is_ok());
            }
        });
        found
    }

    /// `fluents` (sorted) split into blocks to enumerate: the live candidates' fluents among them,
    /// largest first, then singletons; `None` if that is more than `limit` assignments.
    fn blocks(&self, fluents: &[u32], limit: u64) -> Option<Vec<Vec<u32>>> {
        let mut touching: Vec<(usize, Vec<u32>)> = self
            .touching(fluents)
            .into_iter()
            .map(|c| {
                (
                    c,
                    self.cands[c]
                        .members
                        .iter()
                        .filter(|f| fluents.binary_search(f).is_ok())
                        .copied()
                        .collect(),
                )
            })
            .collect();
        touching.sort_by_key(|(c, m): &(usize, Vec<u32>)| (usize::MAX - m.len(), *c));
        let mut used: Vec<u32> = Vec::new();
        let mut blocks = Vec::new();
        for (_, members) in touching {
            let part: Vec<u32> = members.into_iter().filter(|f| !used.contains(f)).collect();
            if part.len() >= 2 {
                used.extend(&part);
                blocks.push(part);
            }
        }
        blocks.extend(
            fluents
                .iter()
                .filter(|f| !used.contains(f))
                .map(|&f| vec![f]),
        );
        let sizes = blocks.iter().map(|b| b.len() + 1);
        combinations(sizes).filter(|&n| n <= limit).map(|_| blocks)
    }

    /// The live candidates with a fluent among `fluents`.
    fn touching(&self, fluents: &[u32]) -> Vec<usize> {
        let mut cands: Vec<usize> = fluents
            .iter()
            .flat_map(|&f| self.of_fluent[f as usize].iter().copied())
            .filter(|&c| self.cands[c].alive)
            .collect();
        cands.sort_unstable();
        cands.dedup();
        cands
    }

    /// What [`consistent`](Self::consistent) checks for assignments of `fluents` (sorted): each
    /// live candidate touching them, and whether it must have a fluent among them.
    fn checks(&self, fluents: &[u32]) -> Vec<(usize, bool)> {
        self.touching(fluents)
            .into_iter()
            .map(|c| {
                let cand = &self.cands[c];
                let inside = cand
                    .members
                    .iter()
                    .all(|f| fluents.binary_search(f).is_ok());
                (c, cand.exact && inside)
            })
            .collect()
    }

    /// Whether `state` satisfies every check: at most one fluent of each candidate, one where
    /// required.
    fn consistent(&self, state: &FluentSet, checks: &[(usize, bool)]) -> bool {
        checks.iter().all(|&(c, required)| {
            let n = self.cands[c]
                .members
                .iter()
                .filter(|&&f| state.contains(f))
                .count();
            n <= 1 && (n == 1 || !required)
        })
    }
}

/// The fluents that assignment `a` of `blocks` makes true (value `len` of a block: none).
fn assigned(blocks: &[Vec<u32>], a: &[u32]) -> FluentSet {
    let mut state = FluentSet::new();
    for (b, &v) in blocks.iter().zip(a) {
        if let Some(&f) = b.get(v as usize) {
            state.insert(f);
        }
    }
    state
}

/// Step 1 of the [module docs](self): the candidates `init` allows.
fn candidates(kb: &Kb, init: &FluentSet) -> Vec<Candidate> {
    let terms = &kb.desc.terms;
    let mut families: HashMap<(u32, usize, usize, Vec<TermId>), Vec<u32>> = HashMap::new();
    for (f, &t) in kb.fluents.iter().enumerate() {
        let Some((name, arity)) = terms.functor(t) else {
            continue;
        };
        let args = terms.args(t);
        for k in 0..arity.min(args.len()) {
            let rest = [&args[..k], &args[k + 1..]].concat();
            families
                .entry((name.0, arity, k, rest))
                .or_default()
                .push(f as u32);
        }
    }
    let mut cands: Vec<Candidate> = families
        .into_iter()
        .filter(|(_, members)| members.len() >= 2)
        .filter_map(|((name, arity, k, _), members)| {
            let held = members.iter().filter(|&&f| init.contains(f)).count();
            (held <= 1).then(|| candidate(kb, (name, arity, k), members, held == 1))
        })
        .collect();
    cands.sort_by_key(|c| (c.members[0], c.family.2));
    cands
}

fn candidate(kb: &Kb, family: (u32, usize, usize), members: Vec<u32>, exact: bool) -> Candidate {
    let terms = &kb.desc.terms;
    let first = kb.fluents[members[0] as usize];
    let k = family.2;
    let args: Vec<String> = (terms.args(first).iter().enumerate())
        .map(|(i, &a)| {
            if i == k {
                "?".to_string()
            } else {
                terms.show(a)
            }
        })
        .collect();
    let functor = terms
        .functor(first)
        .map_or_else(String::new, |(s, _)| terms.name(s).to_string());
    Candidate {
        labels: (members.iter())
            .map(|&f| terms.show(terms.args(kb.fluents[f as usize])[k]))
            .collect(),
        members,
        exact,
        alive: true,
        family,
        name: format!("({functor} {})", args.join(" ")),
    }
}

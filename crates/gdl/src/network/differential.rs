//! Differential evaluation of a non-recursive propositional program: the model of a state is
//! updated from the model of another state by propagating only the bits that differ.
//!
//! Consecutive queries of a playout or a search ask about states that differ in a few fluents (a
//! move fills a cell and passes the turn), while a full evaluation runs every rule. Here each rule
//! keeps the number of its literals that hold and each derived atom the number of its rules that
//! hold; flipping a bit adjusts the counts of the rules that read it, and an atom whose count
//! crosses zero flips in turn. In a program without recursion (an acyclic ground atom graph) the
//! counts determine the model, so the result is the same whatever the order changes are propagated
//! in — and the same as evaluating the rules from scratch.
//!
//! Rules whose heads no rule reads (a game's `legal` atoms) can instead be evaluated again after
//! each update, where a sample of play shows that to be cheaper.

/// The most literals a rule of a differential program may have: a count of the literals that do
/// not hold fits in 16 bits even while it passes below zero for a moment (see
/// [`Differential::update`]). A program with a longer rule is evaluated whole.
pub const MAX_LITERALS: usize = i16::MAX as usize;

/// The rules of a program indexed by the bits they read.
#[derive(Clone, Debug)]
pub struct Differential {
    /// Per rule: the bit of its head.
    heads: Vec<u32>,
    /// Per bit: `readers[reader_start[b]..reader_start[b + 1]]` are `rule << 1 | negated` for every
    /// literal reading bit `b`.
    reader_start: Vec<u32>,
    readers: Vec<u32>,
    /// The first derived bit: counts of atoms are indexed from it.
    derived_base: u32,
    /// The model of the empty state, the starting point of every thread's first update.
    empty: Model,
    /// The rules whose heads nothing reads, evaluated after each update.
    leaves: Leaves,
    /// Per rule: its index among the gated rules ([`Gates`]), or [`UNGATED`].
    gated: Vec<u32>,
    gates: Gates,
    /// A state (its fluent words) whose model is kept: an update to it is a copy. The game's
    /// initial state, where every playout of a bench, and every random game a player plays out
    /// from the start, goes back to.
    anchor: Option<(Vec<u64>, Model)>,
}

/// Bits read by so many rules ([`GATE_READERS`] or more) that counting them on each flip would
/// cost more than the rest of an update: the turn in a game whose every move rule reads whose turn
/// it is (GGP Base chess: 46,683 rules read each `control` fluent, and both flip every ply). Each
/// rule reading a gate leaves that literal out of its count and, while its other literals hold
/// (it is *armed*), sits on its gate's list; flipping the gate visits that list only.
#[derive(Clone, Debug, Default)]
struct Gates {
    /// Per gated rule: its gate's index and whether its literal is negated (`gate << 1 | neg`).
    lit: Vec<u32>,
    /// Per gate: where its list starts in [`Model::armed`] (room for every rule it gates), then
    /// the end.
    start: Vec<u32>,
}

/// A bit with this many readers or more is a gate ([`Gates`]): 1,024, where the gates of the
/// shipped games are the turn fluents of the large ones (chess_groundable's, GGP Base chess's).
pub(crate) const GATE_READERS: u32 = 1024;

/// [`Differential::gated`] of a rule that reads no gate.
const UNGATED: u32 = u32::MAX;

/// A reader entry that is a gate's flip, not a rule's literal: the gate's index below it.
const GATE: u32 = 1 << 31;

/// The model of one state under a [`Differential`] program: its bits and the counts behind them.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// The state's fluents followed by the derived atoms (the layout of the network).
    pub bits: Vec<u64>,
    /// Per rule: how many of its literals do not hold (it holds at zero). Sixteen bits halve the
    /// array the updates scatter over (chess: 101,512 rules, 200 KB), and suffice for rules of
    /// up to [`MAX_LITERALS`] literals.
    missing: Vec<u16>,
    /// Per derived atom: how many of its rules hold.
    support: Vec<u32>,
    /// Bits flipped whose readers are still to be updated (`bit << 1 | new value`).
    pending: Vec<u32>,
    /// The input bits set (derived atoms no rule derives: a hybrid's bridge atoms), in increasing
    /// order ([`Differential::set_inputs`]).
    inputs: Vec<u32>,
    /// Per gate: its value as propagated so far (a gate's bit flips at once, its list is visited
    /// when the flip is taken from `pending`).
    gate_on: Vec<bool>,
    /// Per gate, from [`Gates::start`]: the armed rules it gates, `armed_len` of them.
    armed: Vec<u32>,
    armed_len: Vec<u32>,
    /// Per gated rule: where it is in its gate's list, while armed.
    armed_at: Vec<u32>,
}

impl Model {
    /// Makes this model a copy of `other`, reusing its buffers.
    pub(crate) fn copy_from(&mut self, other: &Model) {
        self.bits.clone_from(&other.bits);
        self.missing.clone_from(&other.missing);
        self.support.clone_from(&other.support);
        self.pending.clear();
        self.inputs.clone_from(&other.inputs);
        self.gate_on.clone_from(&other.gate_on);
        self.armed.clone_from(&other.armed);
        self.armed_len.clone_from(&other.armed_len);
        self.armed_at.clone_from(&other.armed_at);
    }
}

impl Differential {
    /// Indexes `rules` (each with the bits of its literals, `negated` flagging negative ones) over
    /// a layout of `words` words whose derived atoms start at `derived_base`. `empty_bits` is the
    /// model of the empty state (every fluent false), computed by evaluating the rules. Bits read
    /// by `gate_readers` rules or more are gates ([`GATE_READERS`]).
    pub(crate) fn new<'a>(
        rules: impl Iterator<Item = (u32, &'a [u32])> + Clone,
        negated: u32,
        words: usize,
        derived_base: u32,
        empty_bits: Vec<u64>,
        leaves: Leaves,
        gate_readers: u32,
    ) -> Differential {
        let bits = words * 64;
        let at = |l: u32| (l & !negated) as usize;
        let mut count = vec![0u32; bits + 1];
        for (_, lits) in rules.clone() {
            for &l in lits {
                count[at(l)] += 1;
            }
        }
        let n_rules = rules.clone().count();
        // Gates: bits read by `gate_readers` rules or more (none if rule ids would reach GATE).
        let mut gate_of: game_trait::hash::FastMap<u32, u32> = Default::default();
        if (n_rules as u64) < u64::from(GATE >> 1) {
            for (b, &c) in count[..bits].iter().enumerate() {
                if c >= gate_readers {
                    gate_of.insert(b as u32, gate_of.len() as u32);
                }
            }
        }
        // Each rule's gate: of the gates it reads, the one read most.
        let read_by = count.clone();
        let gate_lit = |lits: &[u32]| {
            (lits.iter().enumerate())
                .filter(|&(_, &l)| gate_of.contains_key(&(at(l) as u32)))
                .max_by_key(|&(i, &l)| (read_by[at(l)], usize::MAX - i))
                .map(|(i, _)| i)
        };
        let mut per_gate = vec![0u32; gate_of.len()];
        for (_, lits) in rules.clone() {
            if let Some(i) = gate_lit(lits) {
                count[at(lits[i])] -= 1;
                per_gate[gate_of[&(at(lits[i]) as u32)] as usize] += 1;
            }
        }
        for &b in gate_of.keys() {
            count[b as usize] += 1; // the gate's own entry
        }
        let mut reader_start = Vec::with_capacity(bits + 1);
        let mut total = 0;
        for &c in &count[..bits] {
            reader_start.push(total);
            total += c;
        }
        reader_start.push(total);
        let mut fill = reader_start.clone();
        let mut readers = vec![0u32; total as usize];
        let mut gates = Gates::default();
        gates.start.push(0);
        for &n in &per_gate {
            gates
                .start
                .push(gates.start.last().copied().unwrap_or(0) + n);
        }
        let bit = |b: u32| empty_bits[b as usize / 64] >> (b % 64) & 1 == 1;
        let mut empty = Model {
            bits: empty_bits.clone(),
            support: vec![0; bits - derived_base as usize],
            armed: vec![0; gates.start.last().copied().unwrap_or(0) as usize],
            armed_len: vec![0; gate_of.len()],
            gate_on: vec![false; gate_of.len()],
            ..Model::default()
        };
        for (&b, &g) in &gate_of {
            readers[fill[b as usize] as usize] = GATE | g;
            fill[b as usize] += 1;
            empty.gate_on[g as usize] = bit(b);
        }
        let (mut heads, mut gated) = (Vec::with_capacity(n_rules), Vec::with_capacity(n_rules));
        for (r, (head, lits)) in rules.enumerate() {
            let gate = gate_lit(lits);
            let mut held = 0;
            for (i, &l) in lits.iter().enumerate() {
                let neg = (l & negated != 0) as u32;
                if Some(i) == gate {
                    gated.push(gates.lit.len() as u32);
                    gates.lit.push(gate_of[&(at(l) as u32)] << 1 | neg);
                    continue;
                }
                readers[fill[at(l)] as usize] = (r as u32) << 1 | neg;
                fill[at(l)] += 1;
                held += (bit(at(l) as u32) != (neg == 1)) as u32;
            }
            if gate.is_none() {
                gated.push(UNGATED);
            }
            debug_assert!(lits.len() <= MAX_LITERALS);
            let missing = (lits.len() - usize::from(gate.is_some())) as u32 - held;
            empty.missing.push(missing as u16);
            heads.push(head);
        }
        empty.armed_at = vec![0; gates.lit.len()];
        let mut differential = Differential {
            heads,
            reader_start,
            readers,
            derived_base,
            empty: Model::default(),
            leaves,
            gated,
            gates,
            anchor: None,
        };
        // The empty state's counts (its bits are the rules' evaluation): a rule holds when its
        // counted literals and its gate do.
        for r in 0..differential.heads.len() {
            if empty.missing[r] == 0 && differential.arm(&mut empty, r, true) {
                let head = differential.heads[r] - derived_base;
                empty.support[head as usize] += 1;
            }
        }
        differential.empty = empty;
        differential
    }

    /// Keeps the model of the state whose fluent words (without trailing zero words) are `words`,
    /// so that updating any model to that state copies it.
    pub fn anchor_at(&mut self, words: &[u64], fluent_words: usize) {
        let mut model = Model::default();
        model.copy_from(&self.empty);
        self.update(&mut model, &[], words, fluent_words);
        self.anchor = Some((words.to_vec(), model));
    }

    /// How many rules are evaluated after each update rather than counted ([`Leaves`]).
    #[cfg(test)]
    pub(crate) fn evaluated_rules(&self) -> usize {
        self.leaves.rules.len()
    }

    /// The model of the empty state.
    pub fn empty(&self) -> &Model {
        &self.empty
    }

    /// Turns `model`, the model of state `from`, into the model of state `to` (both given as fluent
    /// words; missing words are zero). Allocates nothing once the model's buffers have grown.
    pub fn update(&self, model: &mut Model, from: &[u64], to: &[u64], fluent_words: usize) {
        if let Some((words, anchored)) = &self.anchor {
            if words.as_slice() == to {
                // Going back to the start undoes every fluent a playout changed (two per mark in
                // tic-tac-toe): copying the kept model costs less than propagating them.
                return model.copy_from(anchored);
            }
        }
        for w in 0..fluent_words {
            let a = from.get(w).copied().unwrap_or(0);
            let b = to.get(w).copied().unwrap_or(0);
            let mut changed = a ^ b;
            while changed != 0 {
                let i = changed.trailing_zeros();
                changed &= changed - 1;
                let at = w as u32 * 64 + i;
                model.bits[w] ^= 1 << i;
                model.pending.push(at << 1 | (b >> i & 1) as u32);
            }
        }
        self.propagate_pending(model);
        self.leaves.eval(&mut model.bits);
    }

    /// Makes `inputs` (bits no rule derives, in increasing order) the input bits set in `model`,
    /// clearing those set before: only the inputs that change, and what reads them, are updated.
    /// An update to another state ([`update`](Self::update)) keeps the inputs, so a hybrid reads
    /// its asks (which no input reaches) from the updated model, then sets the inputs they call
    /// for. Allocates nothing once the model's buffers have grown.
    pub fn set_inputs(&self, model: &mut Model, inputs: &[u32]) {
        debug_assert!(inputs.windows(2).all(|w| w[0] < w[1]));
        // A merge of the two sorted lists (`u32::MAX`, no bit, past the end): a bit in one of
        // them only flips.
        let (mut i, mut j) = (0, 0);
        while i < model.inputs.len() || j < inputs.len() {
            let old = model.inputs.get(i).copied().unwrap_or(u32::MAX);
            let new = inputs.get(j).copied().unwrap_or(u32::MAX);
            i += usize::from(old <= new);
            j += usize::from(new <= old);
            if old != new {
                let (at, on) = if old < new { (old, false) } else { (new, true) };
                model.bits[at as usize / 64] ^= 1 << (at % 64);
                model.pending.push(at << 1 | on as u32);
            }
        }
        if model.pending.is_empty() {
            return;
        }
        model.inputs.clear();
        model.inputs.extend_from_slice(inputs);
        self.propagate_pending(model);
        self.leaves.eval(&mut model.bits);
    }

    /// Updates the readers of every pending flip, flipping the atoms whose support crosses zero.
    fn propagate_pending(&self, model: &mut Model) {
        // Most programs have no gate: their loop tests for none (measured: ~10 % of
        // chess_groundable's playouts when it did).
        if self.gates.lit.is_empty() {
            self.propagate::<false>(model)
        } else {
            self.propagate::<true>(model)
        }
    }

    /// [`propagate_pending`](Self::propagate_pending), with or without gates.
    fn propagate<const GATED: bool>(&self, model: &mut Model) {
        while let Some(p) = model.pending.pop() {
            let (at, now) = (p >> 1, p & 1);
            let from = self.reader_start[at as usize] as usize;
            let to = self.reader_start[at as usize + 1] as usize;
            for &reader in &self.readers[from..to] {
                if GATED && reader & GATE != 0 {
                    self.toggle(model, reader & !GATE);
                    continue;
                }
                let r = (reader >> 1) as usize;
                let missing = &mut model.missing[r];
                // The literal now holds iff the bit's new value differs from its negation flag.
                // Flips are taken last in, first out, so an atom that went off and on again can
                // have its "on" counted before its "off": the count may pass below zero for a
                // moment (wrapping), and the support crossings it makes cancel out.
                if now != reader & 1 {
                    *missing = missing.wrapping_sub(1);
                    if *missing == 0 {
                        self.rest_holds::<GATED>(model, r, true);
                    }
                } else {
                    *missing = missing.wrapping_add(1);
                    if *missing == 1 {
                        self.rest_holds::<GATED>(model, r, false);
                    }
                }
            }
        }
    }

    /// All of rule `r`'s counted literals now hold (`holds`), or one no longer does: an ungated
    /// rule's head gains or loses its support; a gated rule is armed or disarmed, and its head
    /// gains or loses its support if its gate holds.
    #[inline]
    fn rest_holds<const GATED: bool>(&self, model: &mut Model, r: usize, holds: bool) {
        if !GATED || self.arm(model, r, holds) {
            self.support(model, self.heads[r], holds);
        }
    }

    /// Arms rule `r` (`holds`) or disarms it, if it is gated: whether its head's support changes
    /// (an ungated rule's always does, a gated rule's if its gate holds).
    #[inline]
    fn arm(&self, model: &mut Model, r: usize, holds: bool) -> bool {
        let g = self.gated[r];
        if g == UNGATED {
            return true;
        }
        let lit = self.gates.lit[g as usize];
        let gate = (lit >> 1) as usize;
        let start = self.gates.start[gate] as usize;
        if holds {
            let at = model.armed_len[gate];
            model.armed[start + at as usize] = r as u32;
            model.armed_at[g as usize] = at;
            model.armed_len[gate] += 1;
        } else {
            let at = model.armed_at[g as usize] as usize;
            model.armed_len[gate] -= 1;
            let last = model.armed[start + model.armed_len[gate] as usize];
            model.armed[start + at] = last;
            model.armed_at[self.gated[last as usize] as usize] = at as u32;
        }
        model.gate_on[gate] != (lit & 1 == 1)
    }

    /// Gate `gate` flipped: each armed rule it gates gains or loses its support. (A gate's flip is
    /// taken as a toggle, not as the value it flipped to: a derived gate can flip twice before
    /// either flip is taken, and the later one is taken first.)
    fn toggle(&self, model: &mut Model, gate: u32) {
        let gate = gate as usize;
        model.gate_on[gate] = !model.gate_on[gate];
        let start = self.gates.start[gate] as usize;
        for k in start..start + model.armed_len[gate] as usize {
            let r = model.armed[k] as usize;
            let neg = self.gates.lit[self.gated[r] as usize] & 1 == 1;
            self.support(model, self.heads[r], model.gate_on[gate] != neg);
        }
    }

    /// One more (`gained`) or one fewer rule of atom `head` holds: flips it when that crosses zero.
    #[inline]
    fn support(&self, model: &mut Model, head: u32, gained: bool) {
        let s = &mut model.support[(head - self.derived_base) as usize];
        let flips = if gained {
            *s += 1;
            *s == 1
        } else {
            *s -= 1;
            *s == 0
        };
        if flips {
            model.bits[head as usize / 64] ^= 1 << (head % 64);
            model.pending.push(head << 1 | gained as u32);
        }
    }
}

/// Rules whose heads no rule reads (a game's `legal` atoms), left out of the counts: after each
/// update their heads are cleared and the rules evaluated again, in groups sharing a literal, so
/// that a group whose literal does not hold costs one bit test.
///
/// A turn-taking game gates every move on whose turn it is (directly, or through an atom per
/// piece or square that can move): each turn flips the gates of both sides, and counting would
/// update every rule behind them, the moves that are not legal included. Evaluated, only the
/// groups of the side to move are read, once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Leaves {
    /// (word, bits) of the heads, cleared before the groups run.
    heads: Vec<(u32, u64)>,
    /// Per group: its shared literal ([`ALWAYS`] for rules without literals) and its rules.
    groups: Vec<(u32, u32, u32)>,
    /// Per rule: its head bit and its other literals in `lits`.
    rules: Vec<(u32, u32, u32)>,
    lits: Vec<u32>,
    negated: u32,
}

/// What updating a rule's count costs, in bit tests: a count update is a load, a store, a branch
/// and the pending stack around them, a test a load and a shift. With 4, the choice agrees with
/// cachegrind's instruction counts on the shipped games: tic-tac-toe, connect four, breakthrough
/// and chess evaluate their legal rules, Tron (whose legal rules hold in most states) counts them.
const COUNT_COST: u64 = 4;

/// The shared literal of a group of rules without literals.
const ALWAYS: u32 = u32::MAX;

impl Leaves {
    /// Groups `rules` (head bit, literal bits with `negated` flagging negative ones) by the literal
    /// most of them share: each rule goes with its literal read by the most rules.
    pub(crate) fn new<'a>(
        rules: impl Iterator<Item = (u32, &'a [u32])> + Clone,
        negated: u32,
    ) -> Leaves {
        let mut readers: game_trait::hash::FastMap<u32, u32> = Default::default();
        for (_, lits) in rules.clone() {
            for &l in lits {
                *readers.entry(l).or_default() += 1;
            }
        }
        let gate = |lits: &[u32]| {
            let best = lits
                .iter()
                .enumerate()
                .max_by_key(|&(i, l)| (readers[l], usize::MAX - i));
            best.map_or((ALWAYS, usize::MAX), |(i, &l)| (l, i))
        };
        let mut by_gate: Vec<(u32, u32, Vec<u32>)> = rules
            .map(|(head, lits)| {
                let (g, at) = gate(lits);
                let rest = (lits.iter().enumerate()).filter(|&(i, _)| i != at);
                (g, head, rest.map(|(_, &l)| l).collect())
            })
            .collect();
        by_gate.sort_by_key(|&(g, head, _)| (g, head));
        let mut leaves = Leaves {
            negated,
            ..Leaves::default()
        };
        let mut heads: std::collections::BTreeMap<u32, u64> = Default::default();
        for (g, head, rest) in by_gate {
            *heads.entry(head / 64).or_default() |= 1 << (head % 64);
            if leaves.groups.last().map_or(true, |&(last, _, _)| last != g) {
                let at = leaves.rules.len() as u32;
                leaves.groups.push((g, at, at));
            }
            let start = leaves.lits.len() as u32;
            leaves.lits.extend(rest);
            leaves.rules.push((head, start, leaves.lits.len() as u32));
            leaves.groups.last_mut().expect("pushed").2 += 1;
        }
        leaves.heads = heads.into_iter().collect();
        leaves
    }

    /// The heads of `rules` (as for [`new`](Self::new)) whose rules are cheaper evaluated than
    /// counted over the successive views `views` (a sample of play): evaluating costs a bit test
    /// per group in each view, and the literals of its rules when its shared literal holds;
    /// counting costs an update per literal that changed from the view before.
    pub(crate) fn cheaper_evaluated<'a>(
        rules: impl Iterator<Item = (u32, &'a [u32])> + Clone,
        negated: u32,
        views: &[Vec<u64>],
    ) -> game_trait::hash::FastSet<u32> {
        let all = Leaves::new(rules, negated);
        let mut evaluated = game_trait::hash::FastSet::default();
        let mut counted = game_trait::hash::FastSet::default();
        for &(gate, start, end) in &all.groups {
            let rules = &all.rules[start as usize..end as usize];
            let (evaluating, counting) = all.costs(gate, rules, views);
            let heads = rules.iter().map(|&(head, _, _)| head);
            if evaluating < counting {
                evaluated.extend(heads);
            } else {
                counted.extend(heads);
            }
        }
        // An atom is evaluated only if all its rules are.
        evaluated.retain(|h| !counted.contains(h));
        evaluated
    }

    /// What evaluating and what counting the group of `rules` sharing literal `gate` cost over
    /// `views` (see [`cheaper_evaluated`](Self::cheaper_evaluated)).
    fn costs(&self, gate: u32, rules: &[(u32, u32, u32)], views: &[Vec<u64>]) -> (u64, u64) {
        let (mut evaluating, mut counting) = (0u64, 0u64);
        let lits = |&(_, from, to): &(u32, u32, u32)| &self.lits[from as usize..to as usize];
        for pair in views.windows(2) {
            let (before, now) = (&pair[0], &pair[1]);
            let changed = |l: u32| self.holds(before, l) != self.holds(now, l);
            evaluating += 1;
            if gate == ALWAYS || self.holds(now, gate) {
                evaluating += rules.iter().map(|r| lits(r).len() as u64 + 1).sum::<u64>();
            }
            let gate_flips = (gate != ALWAYS && changed(gate)) as usize;
            for r in rules {
                let flips = lits(r).iter().filter(|&&l| changed(l)).count() + gate_flips;
                counting += COUNT_COST * flips as u64;
            }
        }
        (evaluating, counting)
    }

    /// Whether literal `l` holds in `bits`.
    #[inline]
    fn holds(&self, bits: &[u64], l: u32) -> bool {
        let at = l & !self.negated;
        (bits[at as usize / 64] >> (at % 64) & 1 == 1) != (l & self.negated != 0)
    }

    /// Sets the heads of the rules that hold in `bits`, and clears the others.
    fn eval(&self, bits: &mut [u64]) {
        for &(w, m) in &self.heads {
            bits[w as usize] &= !m;
        }
        for &(gate, start, end) in &self.groups {
            if gate != ALWAYS && !self.holds(bits, gate) {
                continue;
            }
            for &(head, from, to) in &self.rules[start as usize..end as usize] {
                if (self.lits[from as usize..to as usize].iter()).all(|&l| self.holds(bits, l)) {
                    bits[head as usize / 64] |= 1 << (head % 64);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use game_trait::{ChanceList, Game, GeneralGame, MoveList, Turn};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    use super::{Model, MAX_LITERALS};
    use crate::{FluentSet, GdlGame, Loader};

    /// The states of a seeded random playout of `game`, at most `max` of them.
    fn playout(game: &GdlGame, rng: &mut Pcg64, max: usize) -> Vec<FluentSet> {
        let (mut moves, mut chance) = (MoveList::new(), ChanceList::new());
        let mut states = vec![game.initial_state()];
        while states.len() < max {
            let mut s = states.last().unwrap().clone();
            if game.turn(&s) == Turn::Over {
                break;
            }
            let mut joint = Vec::new();
            for p in 0..game.players() {
                game.legal_moves(&s, p, &mut moves);
                if moves.is_empty() {
                    return states;
                }
                joint.push(moves[rng.gen_range(0..moves.len())]);
            }
            game.chance_outcomes(&s, &mut chance);
            joint.extend(crate::sample(&chance, rng));
            game.play_joint(&mut s, &joint);
            states.push(s);
        }
        states
    }

    /// Along seeded random playouts of every shipped game, a view updated from the previous
    /// state's, from a state three moves back, or from the end of the previous playout, has the same
    /// bits as the view computed whole.
    #[test]
    fn updated_views_are_whole_views() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        let mut rng = Pcg64::seed_from_u64(7);
        let mut differential = 0;
        for path in names {
            let game = Loader::file(&path).load().unwrap();
            let Some(net) = game.network() else { continue };
            differential += net.has_differential_view() as usize;
            // As built, and with every bit that two rules read a gate.
            let mut gated = net.clone();
            gated.gate_view_bits_read_by(2);
            for (net, what) in [(net, "as built"), (&gated, "gated")] {
                let (mut step, mut skip) = (Model::default(), Model::default());
                let (mut at_step, mut at_skip): (Option<FluentSet>, Option<FluentSet>) =
                    (None, None);
                let mut whole = Vec::new();
                for _ in 0..3 {
                    for (i, s) in playout(&game, &mut rng, 150).into_iter().enumerate() {
                        let at = format!("{}, {what}: step {i}", path.display());
                        net.eval_view(&s, &mut whole);
                        net.update_view(at_step.as_ref(), &s, &mut step);
                        assert_eq!(step.bits, whole, "{at}");
                        at_step = Some(s.clone());
                        if i % 3 == 0 {
                            net.update_view(at_skip.as_ref(), &s, &mut skip);
                            assert_eq!(skip.bits, whole, "{at}, from three back");
                            at_skip = Some(s);
                        }
                    }
                }
            }
        }
        assert!(
            differential >= 5,
            "most shipped games have views without recursion"
        );
    }

    /// Where the moves of the side to move are all that changes from turn to turn, the legal
    /// rules are evaluated after each update; Tron's, which hold in most states, are counted.
    #[test]
    fn legal_rules_are_evaluated_where_a_sample_of_play_shows_it_cheaper() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
        for (name, evaluated) in [
            ("tictactoe.kif", true),
            ("connect4.kif", true),
            ("breakthrough.kif", true),
            ("chess_groundable.kif", true),
            ("tron.kif", false),
        ] {
            let game = Loader::file(format!("{dir}/{name}")).load().unwrap();
            let rules = game.network().unwrap().evaluated_view_rules();
            assert_eq!(rules > 0, evaluated, "{name}: {rules} rules evaluated");
        }
    }

    /// A game whose view has a rule of `literals` literals (`full`: every cell is set).
    fn long_rule_game(literals: usize) -> GdlGame {
        let mut text = String::from("(role p) (init (c 1)) (<= (legal p stop) (true (c 1)))\n");
        for i in 1..=literals {
            text += &format!("(idx {i}) ");
        }
        text += "(<= (legal p (set ?i)) (idx ?i) (not (true (c ?i))))
            (<= (next (c ?i)) (does p (set ?i))) (<= (next (c ?i)) (true (c ?i)))
            (<= (next done) (does p stop))
            (<= terminal (true done)) (<= terminal full)
            (<= (goal p 100) full) (<= (goal p 0) (not full))
            (<= full";
        for i in 1..=literals {
            text += &format!(" (true (c {i}))");
        }
        text += ")";
        Loader::text(&text).load().unwrap()
    }

    /// A rule longer than the 16-bit counts allow sends the view to whole evaluation; one at the
    /// limit is still updated differentially, and right.
    #[test]
    fn a_rule_past_the_count_limit_is_evaluated_whole() {
        for (literals, differential) in [(MAX_LITERALS, true), (MAX_LITERALS + 1, false)] {
            let game = long_rule_game(literals);
            let net = game.network().expect("grounds");
            assert_eq!(net.has_differential_view(), differential, "{literals}");
            let (fluents, _) = game.counts();
            let cells: Vec<u32> = (0..fluents as u32)
                .filter(|&f| game.fluent_name(f).starts_with("(c "))
                .collect();
            assert_eq!(cells.len(), literals);
            // The start, every cell but one, every cell: `full` (the terminal) only at the last.
            let (mut all_but_one, mut all) = (FluentSet::new(), FluentSet::new());
            for (i, &f) in cells.iter().enumerate() {
                all.insert(f);
                if i > 0 {
                    all_but_one.insert(f);
                }
            }
            let (mut model, mut whole) = (Model::default(), Vec::new());
            let mut previous: Option<FluentSet> = None;
            for (s, full) in [
                (game.initial_state(), false),
                (all_but_one, false),
                (all, true),
            ] {
                net.update_view(previous.as_ref(), &s, &mut model);
                net.eval_view(&s, &mut whole);
                assert_eq!(model.bits, whole, "{literals}");
                assert_eq!(game.is_terminal(&s), full, "{literals}");
                previous = Some(s);
            }
        }
    }
}

//! Goal-directed evaluation: the reference reasoner's mode for games too large to ground.
//!
//! Bottom-up evaluation computes every atom of every relation in each state. In GGP chess that
//! includes `threatened_with_capture(owner, cx, cy, x, y, ignorex, ignorey)` for every square,
//! king square and ignored square — hundreds of thousands of atoms per state, of which a position
//! asks about a few dozen. Goal-directed evaluation computes only what the query needs: before a
//! join step reads a derived relation, the step's *call* — the relation and the values its bound
//! arguments have — is evaluated by running the relation's rules with those arguments bound, and
//! its answers are added to the facts; a call is evaluated once per query (tabling). This is the
//! subgoal-driven evaluation of Datalog (Vieille, *Recursive Axioms in Deductive Databases: the
//! Query/Subquery Approach*, 1986; the tabling of Tamaki and Sato, 1986), on the engine's own
//! plans and indexes.
//!
//! Recursion between calls (a call reached again while it is being evaluated, e.g. Hex's
//! connection) is handled the way strongly connected components are: the calls it involves are
//! re-evaluated until a whole pass adds nothing, and only then marked complete. Negation needs no
//! special care: a negated literal is fully bound, so its call is evaluated completely before the
//! literal is tested, and in a stratified program that call never leads back to the caller.

use crate::datalog::facts::{subterm, Facts, Path};
use crate::datalog::{Budget, DemandHook, Engine, EvalError, Join, Limit, Scratch, Step, NO_CALL};
use crate::syntax::term::{Bindings, TermId, Terms};
use game_trait::hash::{splitmix64 as mix, FastMap};

/// The deepest nesting of calls evaluated (each level is a Rust stack frame): far above what
/// real descriptions need (chess nests about a dozen).
pub const MAX_CALL_DEPTH: usize = 400;

/// A rule of a call pattern's relation, planned with the pattern's arguments bound.
#[derive(Clone, Debug)]
struct Callee {
    plan: crate::datalog::Plan,
    /// Per bound path of the pattern: the rule head's subterm there, if the head has one.
    heads: Vec<Option<TermId>>,
}

/// The plans of goal-directed evaluation: every call pattern the queries can reach, and for each
/// the rules that answer it.
#[derive(Clone, Debug, Default)]
pub struct DemandProgram {
    patterns: Vec<(u32, Box<[Path]>)>,
    ids: FastMap<(u32, Box<[Path]>), u32>,
    callees: Vec<Vec<Callee>>,
    /// Per pattern: the pattern of the same relation with every argument free, if some query or
    /// rule calls it. Once that call is complete, every atom of the relation is in the facts, so
    /// a more specific call has nothing left to add.
    general: Vec<Option<u32>>,
    roots: FastMap<u32, u32>,
}

impl DemandProgram {
    /// Plans the calls reachable from queries on relations `roots` (all arguments free); `size`
    /// estimates a relation's number of atoms where known (static and input relations).
    pub fn new(
        engine: &mut Engine,
        terms: &Terms,
        roots: &[u32],
        size: &dyn Fn(u32) -> Option<usize>,
    ) -> DemandProgram {
        let mut d = DemandProgram::default();
        for &r in roots {
            let id = d.pattern(r, Box::new([]));
            d.roots.insert(r, id);
        }
        let mut next = 0;
        while next < d.patterns.len() {
            let (rel, paths) = d.patterns[next].clone();
            let mut callees = Vec::new();
            for ri in engine.rules_of(rel) {
                let head = engine.head(ri);
                let heads: Vec<Option<TermId>> =
                    paths.iter().map(|p| subterm(terms, head, p)).collect();
                let mut bound = Vec::new();
                for t in heads.iter().flatten() {
                    terms.vars_of(*t, &mut bound);
                }
                let mut plan = engine.plan(terms, ri, None, &[], size, &bound, None);
                plan.calls = plan
                    .steps
                    .iter()
                    .map(|s| d.call_of(engine, terms, s))
                    .collect();
                callees.push(Callee { plan, heads });
            }
            d.callees.push(callees);
            next += 1;
        }
        d.general = d
            .patterns
            .iter()
            .map(|(rel, _)| d.ids.get(&(*rel, Box::default())).copied())
            .collect();
        d
    }

    fn pattern(&mut self, rel: u32, paths: Box<[Path]>) -> u32 {
        let next = self.patterns.len() as u32;
        *self.ids.entry((rel, paths.clone())).or_insert_with(|| {
            self.patterns.push((rel, paths));
            next
        })
    }

    /// The call pattern a plan step needs answered first, if it reads a derived relation.
    fn call_of(&mut self, engine: &Engine, terms: &Terms, step: &Step) -> u32 {
        let (rel, paths): (u32, Box<[Path]>) = match step {
            Step::Scan { rel, index, .. } => {
                let paths = match engine.index_defs()[*rel as usize].get(*index as usize) {
                    Some(p) => p.clone(),
                    None => Box::new([]),
                };
                (*rel, paths)
            }
            Step::Check { pat } | Step::Neg { pat, .. } => {
                let Some(rel) = terms.functor(*pat).and_then(|f| engine.schema.id(f)) else {
                    return NO_CALL;
                };
                let arity = terms.args(*pat).len();
                (
                    rel,
                    (0..arity).map(|i| Path::from_slice(&[i as u16])).collect(),
                )
            }
            Step::Distinct(..) | Step::Same(..) => return NO_CALL,
        };
        if engine.is_static(rel) || engine.is_input(rel) {
            return NO_CALL;
        }
        self.pattern(rel, paths)
    }

    /// Evaluates the queries on relations `roots` into `facts` (which hold the inputs).
    #[allow(clippy::too_many_arguments)]
    pub fn query(
        &self,
        roots: &[u32],
        state: &mut DemandState,
        engine: &Engine,
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        state.calls.clear();
        state.stack.clear();
        let mut ctx = Calls {
            program: self,
            state,
        };
        for r in roots {
            if let Some(&id) = self.roots.get(r) {
                ctx.call(engine, id, &[], terms, base, facts, budget)?;
            }
        }
        Ok(())
    }
}

/// The calls of one query: which are complete, which are being evaluated, and reusable buffers.
#[derive(Clone, Debug, Default)]
pub struct DemandState {
    calls: CallTable,
    stack: Vec<Frame>,
    pool: Vec<Scratch>,
    bindings: Bindings,
}

/// A call being evaluated.
#[derive(Clone, Debug)]
struct Frame {
    call: CallId,
    /// The outermost call on the stack it (transitively) read while incomplete.
    low: usize,
    /// Whether a call reached it again while it was being evaluated.
    recursed: bool,
    /// Calls of its component that finished before it, to mark complete with it.
    members: Vec<CallId>,
}

/// A call of a query, by its index in the query's [`CallTable`].
type CallId = u32;

/// The calls of one query, each numbered once and marked when complete. Calls are told apart by
/// their pattern and values themselves, not by a hash of them alone: two calls sharing a hash
/// must not share an answer (the second would be skipped as complete, and the query would miss
/// its atoms without a sign).
#[derive(Clone, Debug, Default)]
struct CallTable {
    /// A hash of (pattern, values) → the call that has it; a call whose hash another call took
    /// goes on to the hash's hash, until it finds itself or a free one.
    by_hash: FastMap<u64, CallId>,
    /// Per call: where its words (the pattern, then its values) start in `words`.
    starts: Vec<u32>,
    words: Vec<u32>,
    complete: Vec<bool>,
}

impl CallTable {
    fn clear(&mut self) {
        self.by_hash.clear();
        self.starts.clear();
        self.words.clear();
        self.complete.clear();
    }

    /// Whether `id` is call `call` with `values`.
    fn is(&self, id: CallId, call: u32, values: &[TermId]) -> bool {
        let start = self.starts[id as usize] as usize;
        let end = (self.starts.get(id as usize + 1)).map_or(self.words.len(), |&e| e as usize);
        let words = &self.words[start..end];
        words.len() == values.len() + 1
            && words[0] == call
            && words[1..].iter().zip(values).all(|(&w, v)| w == v.0)
    }

    /// The number of call `call` with `values`, or the free hash where it would go.
    fn probe(&self, call: u32, values: &[TermId]) -> Result<CallId, u64> {
        let mut hash = call_hash(call, values);
        loop {
            match self.by_hash.get(&hash) {
                Some(&id) if self.is(id, call, values) => return Ok(id),
                Some(_) => hash = mix(hash),
                None => return Err(hash),
            }
        }
    }

    /// The number of call `call` with `values`, if it has one.
    fn find(&self, call: u32, values: &[TermId]) -> Option<CallId> {
        self.probe(call, values).ok()
    }

    /// The number of call `call` with `values`, given one if it has none yet.
    fn number(&mut self, call: u32, values: &[TermId]) -> CallId {
        self.probe(call, values).unwrap_or_else(|hash| {
            let id = self.starts.len() as CallId;
            self.starts.push(self.words.len() as u32);
            self.words.push(call);
            self.words.extend(values.iter().map(|v| v.0));
            self.complete.push(false);
            self.by_hash.insert(hash, id);
            id
        })
    }

    fn is_complete(&self, id: CallId) -> bool {
        self.complete[id as usize]
    }
}

struct Calls<'a> {
    program: &'a DemandProgram,
    state: &'a mut DemandState,
}

fn call_hash(call: u32, values: &[TermId]) -> u64 {
    values
        .iter()
        .fold(mix(u64::from(call)), |h, t| mix(h ^ u64::from(t.0)))
}

impl DemandHook for Calls<'_> {
    fn call(
        &mut self,
        engine: &Engine,
        call: u32,
        values: &[TermId],
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let calls = &mut self.state.calls;
        let id = calls.number(call, values);
        if calls.is_complete(id) {
            return Ok(());
        }
        if let Some(general) = self.program.general[call as usize] {
            if general != call
                && calls
                    .find(general, &[])
                    .is_some_and(|g| calls.is_complete(g))
            {
                return Ok(());
            }
        }
        if let Some(pos) = self.state.stack.iter().position(|f| f.call == id) {
            // Recursion: read what the call has so far, and have it re-evaluated.
            self.state.stack[pos].recursed = true;
            if let Some(top) = self.state.stack.last_mut() {
                top.low = top.low.min(pos);
            }
            return Ok(());
        }
        let depth = self.state.stack.len();
        if depth >= MAX_CALL_DEPTH {
            return Err(EvalError::Budget {
                limit: Limit::Depth(MAX_CALL_DEPTH as u32),
                rule: None,
            });
        }
        self.state.stack.push(Frame {
            call: id,
            low: depth,
            recursed: false,
            members: Vec::new(),
        });
        loop {
            let before = facts.len();
            self.pass(engine, call, values, terms, base, facts, budget)?;
            let frame = self.state.stack.last_mut().expect("this call's frame");
            if frame.low < depth {
                // Part of an enclosing call's component: complete only when that one is.
                let frame = self.state.stack.pop().expect("this call's frame");
                let parent = self.state.stack.last_mut().expect("an enclosing call");
                parent.low = parent.low.min(frame.low);
                parent.members.push(frame.call);
                parent.members.extend(frame.members);
                return Ok(());
            }
            if frame.recursed && facts.len() > before {
                frame.recursed = false;
                continue; // the component grew: another pass
            }
            let frame = self.state.stack.pop().expect("this call's frame");
            let complete = &mut self.state.calls.complete;
            for id in std::iter::once(frame.call).chain(frame.members) {
                complete[id as usize] = true;
            }
            return Ok(());
        }
    }
}

impl Calls<'_> {
    /// Runs every rule of call `call` once, its bound arguments set to `values`.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &mut self,
        engine: &Engine,
        call: u32,
        values: &[TermId],
        terms: &mut Terms,
        base: Option<&Facts>,
        facts: &mut Facts,
        budget: &mut Budget,
    ) -> Result<(), EvalError> {
        let program = self.program;
        for callee in &program.callees[call as usize] {
            let Some(init) = self.head_bindings(engine, callee, values, terms) else {
                continue;
            };
            let mut scratch = self.state.pool.pop().unwrap_or_default();
            let join = Join {
                heads_only: true,
                init: &init,
                demand: Some(self),
                joined: None,
            };
            let result = engine.fire_with(
                &callee.plan,
                join,
                terms,
                base,
                facts,
                None,
                &mut scratch,
                budget,
            );
            self.state.pool.push(scratch);
            result?;
        }
        Ok(())
    }

    /// The variable bindings that make `callee`'s head agree with the call's values, or `None`
    /// when it cannot.
    fn head_bindings(
        &mut self,
        engine: &Engine,
        callee: &Callee,
        values: &[TermId],
        terms: &Terms,
    ) -> Option<Vec<(u32, TermId)>> {
        let (_, vars) = engine.rule_shape(callee.plan.rule);
        let b = &mut self.state.bindings;
        b.reset(vars as usize);
        for (head, &value) in callee.heads.iter().zip(values) {
            if let Some(h) = head {
                if !terms.matches(*h, value, b) {
                    return None;
                }
            }
        }
        Some((0..vars).filter_map(|v| b.get(v).map(|t| (v, t))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two calls whose hashes collide keep numbers of their own, and each is found again.
    #[test]
    fn calls_sharing_a_hash_are_told_apart() {
        let mut calls = CallTable::default();
        let a = calls.number(3, &[TermId(7), TermId(8)]);
        assert_eq!(calls.number(3, &[TermId(7), TermId(8)]), a);
        // Make call b's hash the one a took, as a collision would.
        let b_values = [TermId(9)];
        calls.by_hash.insert(call_hash(5, &b_values), a);
        assert_eq!(calls.find(5, &b_values), None);
        let b = calls.number(5, &b_values);
        assert_ne!(a, b);
        assert_eq!(calls.find(5, &b_values), Some(b));
        assert_eq!(calls.number(5, &b_values), b);
        // A prefix of a's words is another call.
        assert_eq!(calls.find(3, &[TermId(7)]), None);
        calls.complete[b as usize] = true;
        assert!(calls.is_complete(b) && !calls.is_complete(a));
        calls.clear();
        assert_eq!(calls.find(3, &[TermId(7), TermId(8)]), None);
    }
}

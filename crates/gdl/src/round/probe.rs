//! [`Probe`]: the fast reasoner asked about arbitrary sets of fluents, reachable or not, and the
//! [`StateVar`]s whose values make up such sets.

use crate::game::fluents::FluentSet;
use crate::network::{Network, Scratch};

/// A state variable of the round: each value stands for one fluent that holds (and no other of
/// the variable's fluents), or, as `None`, for none of them holding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StateVar {
    /// Its name: the fluent for a Boolean, the fluents' common term with `?` for a group.
    pub(crate) name: String,
    /// The fluent each value stands for; `None`: no fluent of the variable holds.
    pub(crate) values: Vec<Option<u32>>,
    /// The values' names.
    pub(crate) labels: Vec<String>,
}

impl StateVar {
    /// One fluent as a Boolean: value 0 (`false`) without it, 1 (`true`) with it.
    pub(crate) fn boolean(fluent: u32, name: String) -> StateVar {
        StateVar {
            name,
            values: vec![None, Some(fluent)],
            labels: vec!["false".into(), "true".into()],
        }
    }

    /// The variable's value in `state`: the first value whose fluent holds, else the `None`
    /// value; `None` if the variable has no `None` value and none of its fluents holds.
    pub(crate) fn value_in(&self, state: &FluentSet) -> Option<u32> {
        let holds = |v: &Option<u32>| v.is_some_and(|f| state.contains(f));
        self.values
            .iter()
            .position(holds)
            .or_else(|| self.values.iter().position(Option::is_none))
            .map(|i| i as u32)
    }

    /// The value of the successor's fluents in `next`, if exactly one value describes them
    /// (at most one of its fluents holds, and, if none does, the variable has a `None` value).
    pub(crate) fn value_of_successor(&self, next: &FluentSet) -> Option<u32> {
        self.value_where(|f| next.contains(f))
    }

    /// [`value_of_successor`](StateVar::value_of_successor) for the fluents listed in `next`.
    pub(crate) fn value_of_fluents(&self, next: &[u32]) -> Option<u32> {
        self.value_where(|f| next.contains(&f))
    }

    fn value_where(&self, holds: impl Fn(u32) -> bool) -> Option<u32> {
        let mut found = None;
        for (i, v) in self.values.iter().enumerate() {
            if v.is_some_and(&holds) {
                if found.is_some() {
                    return None;
                }
                found = Some(i as u32);
            }
        }
        found.or_else(|| {
            self.values
                .iter()
                .position(Option::is_none)
                .map(|i| i as u32)
        })
    }
}

/// The number of assignments of variables with these domain sizes, `None` past `u64`.
pub(crate) fn combinations(sizes: impl IntoIterator<Item = usize>) -> Option<u64> {
    sizes
        .into_iter()
        .try_fold(1u64, |n, s| n.checked_mul(s as u64))
}

/// Calls `visit` with every assignment of variables with these domain sizes, in lexicographic
/// order (none if a domain is empty).
pub(crate) fn each_assignment(sizes: &[usize], mut visit: impl FnMut(&[u32])) {
    if sizes.contains(&0) {
        return;
    }
    let mut tuple = vec![0u32; sizes.len()];
    loop {
        visit(&tuple);
        // The odometer: increment the last position that can be, zero the ones after it.
        let Some(i) = (0..tuple.len())
            .rev()
            .find(|&i| (tuple[i] as usize) + 1 < sizes[i])
        else {
            return;
        };
        tuple[i] += 1;
        tuple[i + 1..].iter_mut().for_each(|t| *t = 0);
    }
}

/// The fast reasoner's answers about one set of fluents at a time, with reused buffers.
pub(crate) struct Probe<'a> {
    net: &'a Network,
    state: FluentSet,
    view: Scratch,
    scratch: Scratch,
    next: FluentSet,
    moves: Vec<u32>,
}

impl<'a> Probe<'a> {
    /// A probe of `net`.
    pub(crate) fn new(net: &'a Network) -> Probe<'a> {
        Probe {
            net,
            state: FluentSet::new(),
            view: Scratch::new(),
            scratch: Scratch::new(),
            next: FluentSet::new(),
            moves: Vec::new(),
        }
    }

    /// Sets the state to the fluents `assignment` gives the variables `vars`, plus `extra`, and
    /// evaluates its view.
    pub(crate) fn set(&mut self, vars: &[&StateVar], assignment: &[u32], extra: &[u32]) {
        let mut state = FluentSet::new();
        for (var, &value) in vars.iter().zip(assignment) {
            if let Some(f) = var.values[value as usize] {
                state.insert(f);
            }
        }
        extra.iter().for_each(|&f| state.insert(f));
        self.set_state(state);
    }

    /// Sets the state and evaluates its view.
    pub(crate) fn set_state(&mut self, state: FluentSet) {
        self.state = state;
        self.net.eval_view(&self.state, &mut self.view);
    }

    /// Whether `terminal` holds in the state.
    pub(crate) fn terminal(&self) -> bool {
        self.net.terminal(&self.view)
    }

    /// Role `role`'s legal moves in the state (whether or not it is terminal), by move id.
    pub(crate) fn legal(&mut self, role: usize) -> &[u32] {
        self.moves.clear();
        self.net.legal_moves(&self.view, role, &mut self.moves);
        &self.moves
    }

    /// Role `role`'s goal value in the state (the largest if several hold).
    pub(crate) fn goal(&mut self, role: usize) -> Option<u8> {
        self.net
            .eval_goal(&self.state, &self.view, &mut self.scratch);
        self.net.goal(&self.scratch, role)
    }

    /// The successor of the state under `joint` (a move id per role, `u32::MAX` for a move that
    /// none of the rules asked about mentions).
    pub(crate) fn next(&mut self, joint: &[u32]) -> &FluentSet {
        self.net.next_into(
            &self.state,
            joint,
            &self.view,
            &mut self.scratch,
            &mut self.next,
        );
        &self.next
    }
}

//! [`Budget`]: when a solver must stop — a deadline and a stop flag, polled every few hundred
//! nodes so that reading the clock costs nothing noticeable.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How often, in search nodes (or SAC probes), a solver polls its budget.
const POLL_EVERY: u64 = 256;

/// A deadline and a stop flag, either optional, and a count of the calls since the last poll.
#[derive(Clone, Debug, Default)]
pub(crate) struct Budget {
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    calls: u64,
    spent: bool,
}

impl Budget {
    pub(crate) fn new(deadline: Option<Instant>, stop: Option<Arc<AtomicBool>>) -> Budget {
        Budget {
            deadline,
            stop,
            calls: 0,
            spent: false,
        }
    }

    /// Whether the budget is spent; polls the clock and the flag every [`POLL_EVERY`] calls, and
    /// stays spent once it is.
    pub(crate) fn spent(&mut self) -> bool {
        self.calls += 1;
        if !self.spent && self.calls % POLL_EVERY == 0 {
            self.spent = self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed));
        }
        self.spent
    }

    /// Whether the budget is spent, polling the clock and the flag at once: before a piece of
    /// work worth `calls` ordinary calls (indexing thousands of tuples).
    pub(crate) fn spent_after(&mut self, calls: usize) -> bool {
        self.calls += calls as u64;
        if !self.spent {
            self.spent = self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed));
        }
        self.spent
    }

    /// Whether the budget ran out at some poll.
    pub(crate) fn ran_out(&self) -> bool {
        self.spent
    }
}

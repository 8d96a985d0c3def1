//! [`Budget`]: when a solver must stop — a deadline and a stop flag, looked at on a
//! [`Pace`](game_trait::Pace), so that reading the clock costs nothing noticeable on fast search
//! nodes and a slow node (a large network's propagation) overruns the deadline by about a
//! millisecond, not by hundreds of nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use game_trait::Pace;

/// The most search nodes (or SAC probes) between two looks at the budget.
const MAX_LOOK_INTERVAL: u64 = 256;

/// A deadline and a stop flag, either optional, and when to look at them next.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    calls: u64,
    /// The call count at which to look next: `u64::MAX`, never, when there is neither a deadline
    /// nor a flag to look at.
    next_look: u64,
    pace: Pace,
    spent: bool,
}

impl Default for Budget {
    /// A budget that is never spent.
    fn default() -> Budget {
        Budget::new(None, None)
    }
}

impl Budget {
    pub(crate) fn new(deadline: Option<Instant>, stop: Option<Arc<AtomicBool>>) -> Budget {
        let limited = deadline.is_some() || stop.is_some();
        Budget {
            deadline,
            stop,
            calls: 0,
            next_look: if limited { 1 } else { u64::MAX },
            pace: Pace::new(MAX_LOOK_INTERVAL),
            spent: false,
        }
    }

    /// Whether the budget is spent; looks at the clock and the flag when the pace says so, and
    /// stays spent once it is.
    pub(crate) fn spent(&mut self) -> bool {
        self.calls += 1;
        if !self.spent && self.calls >= self.next_look {
            self.look();
        }
        self.spent
    }

    /// Whether the budget is spent, looking at the clock and the flag at once: before a piece of
    /// work worth `calls` ordinary calls (indexing thousands of tuples).
    pub(crate) fn spent_after(&mut self, calls: usize) -> bool {
        self.calls += calls as u64;
        if !self.spent && self.next_look != u64::MAX {
            self.look();
        }
        self.spent
    }

    /// Whether the budget ran out at some look.
    pub(crate) fn ran_out(&self) -> bool {
        self.spent
    }

    fn look(&mut self) {
        self.spent = self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
        self.next_look = self.calls + self.pace.interval_after_look();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn an_unlimited_budget_is_never_spent() {
        let mut budget = Budget::default();
        assert!((0..10_000).all(|_| !budget.spent()));
        assert!(!budget.spent_after(1 << 20));
        assert!(!budget.ran_out());
    }

    #[test]
    fn a_past_deadline_is_seen_at_the_first_call() {
        let mut budget = Budget::new(Some(Instant::now()), None);
        assert!(budget.spent());
        assert!(budget.ran_out());
    }

    /// Calls of 200 µs each (a propagation over a large network): once the flag is set, the
    /// budget must be spent within a few calls, about a millisecond, not the 256 calls (51 ms)
    /// of a fixed schedule.
    #[test]
    fn slow_calls_see_the_stop_flag_within_a_few_of_them() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut budget = Budget::new(None, Some(stop.clone()));
        for _ in 0..300 {
            std::thread::sleep(Duration::from_micros(200));
            assert!(!budget.spent());
        }
        stop.store(true, Ordering::Relaxed);
        let mut after = 0;
        while !budget.spent() {
            std::thread::sleep(Duration::from_micros(200));
            after += 1;
            assert!(after < 256, "still not spent after {after} slow calls");
        }
        assert!(after <= 16, "spent only {after} slow calls after the flag");
    }
}

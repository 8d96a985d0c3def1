//! Polling the search [`Limits`] cheaply: the clock is read once every [`CHECK_INTERVAL`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};

use game_trait::Limits;

/// How many generated nodes pass between two looks at the limits (deadline, node budget, stop flag).
pub const CHECK_INTERVAL: u32 = 1024;

/// Counts generated nodes down to the next look at the [`Limits`], and remembers once they are hit.
#[derive(Debug)]
pub(crate) struct Stopwatch<'a> {
    limits: &'a Limits,
    /// A second stop flag besides the limits' own (a parallel search's "this probe is answered").
    also: Option<&'a AtomicBool>,
    countdown: u32,
    stopped: bool,
}

impl<'a> Stopwatch<'a> {
    pub(crate) fn new(limits: &'a Limits) -> Stopwatch<'a> {
        Stopwatch {
            limits,
            also: None,
            countdown: CHECK_INTERVAL,
            stopped: false,
        }
    }

    /// Also stops once `flag` is set (read as often as the limits).
    pub(crate) fn or_when(self, flag: Option<&'a AtomicBool>) -> Stopwatch<'a> {
        Stopwatch { also: flag, ..self }
    }

    /// Records one more generated node (`generated` in total) and tells whether the search must stop.
    /// Only every [`CHECK_INTERVAL`]-th call reads the clock: `Instant::now` costs more than a node.
    #[inline(always)]
    pub(crate) fn tick(&mut self, generated: u64) -> bool {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_INTERVAL;
            self.stopped = self.stopped
                || self.limits.exhausted(generated)
                || self.also.is_some_and(|f| f.load(Ordering::Relaxed));
        }
        self.stopped
    }

    /// Whether a limit was hit.
    #[inline(always)]
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}

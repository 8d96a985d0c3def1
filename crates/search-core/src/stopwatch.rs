//! Polling the search [`Limits`] cheaply: the clock is read every few generated nodes, as few
//! as the nodes' cost allows.

use std::sync::atomic::{AtomicBool, Ordering};

use game_trait::{Limits, Pace};

/// The most generated nodes between two looks at the limits (deadline, node budget, stop flag).
pub const CHECK_INTERVAL: u32 = 1024;

/// Counts generated nodes down to the next look at the [`Limits`], and remembers once they are hit.
#[derive(Debug)]
pub(crate) struct Stopwatch<'a> {
    limits: &'a Limits,
    /// A second stop flag besides the limits' own (a parallel search's "this probe is answered").
    also: Option<&'a AtomicBool>,
    countdown: u32,
    /// Under a deadline or a stop flag, the nodes between looks follow the nodes' cost (a
    /// deadline is then overrun by about a millisecond whether a node costs a microsecond or, as
    /// when each leaf is valued by a search of its own or a neural network, a millisecond). With
    /// neither, looks are every [`CHECK_INTERVAL`] nodes, so that where a node budget stops a
    /// search does not depend on the machine.
    pace: Option<Pace>,
    stopped: bool,
}

impl<'a> Stopwatch<'a> {
    pub(crate) fn new(limits: &'a Limits) -> Stopwatch<'a> {
        Stopwatch {
            limits,
            also: None,
            countdown: 0,
            pace: None,
            stopped: false,
        }
        .paced(limits.deadline.is_some() || limits.stop.is_some())
    }

    /// Also stops once `flag` is set (read as often as the limits).
    pub(crate) fn or_when(self, flag: Option<&'a AtomicBool>) -> Stopwatch<'a> {
        let paced = self.pace.is_some() || flag.is_some();
        Stopwatch { also: flag, ..self }.paced(paced)
    }

    /// Starts the count to the first look: paced, or every [`CHECK_INTERVAL`] nodes.
    fn paced(self, paced: bool) -> Stopwatch<'a> {
        let pace = paced.then(|| Pace::new(u64::from(CHECK_INTERVAL)));
        let countdown = pace
            .as_ref()
            .map_or(CHECK_INTERVAL, |p| p.interval() as u32);
        Stopwatch {
            pace,
            countdown,
            ..self
        }
    }

    /// Records one more generated node (`generated` in total) and tells whether the search must stop.
    /// Only every `interval`-th call looks at the limits: `Instant::now` costs more than a node.
    #[inline(always)]
    pub(crate) fn tick(&mut self, generated: u64) -> bool {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.look(generated);
        }
        self.stopped
    }

    #[inline(never)]
    fn look(&mut self, generated: u64) {
        self.countdown = match &mut self.pace {
            // At most `CHECK_INTERVAL`, so it fits.
            Some(pace) => pace.interval_after_look() as u32,
            None => CHECK_INTERVAL,
        };
        self.stopped = self.stopped
            || self.limits.exhausted(generated)
            || self.also.is_some_and(|f| f.load(Ordering::Relaxed));
    }

    /// Whether a limit was hit.
    #[inline(always)]
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}

//! [`Meter`]: how a search splits its work between solving networks and sampling, by
//! [`MacUcbConfig::solve_share`](crate::MacUcbConfig::solve_share).

use std::time::Instant;

/// What solving and sampling have cost so far, in seconds (a search with a deadline) or in
/// pieces of work (without one: a network solved and a sample drawn count one each, so that a
/// search by sample count depends on its seed only).
#[derive(Debug)]
pub(super) struct Meter {
    share: f64,
    timed: bool,
    solving: f64,
    sampling: f64,
}

/// A piece of work under way, measured when it ends.
pub(super) struct Started(Option<Instant>);

impl Meter {
    /// A meter for `share` of the work to solving, by the clock if `timed`.
    pub(super) fn new(share: f64, timed: bool) -> Meter {
        Meter {
            share,
            timed,
            solving: 0.0,
            sampling: 0.0,
        }
    }

    /// Whether solving may extend the tree now: it has had at most its share of the work so far
    /// (never with a share of 0, always with 1).
    pub(super) fn may_solve(&self) -> bool {
        self.share > 0.0 && self.solving <= self.share * (self.solving + self.sampling)
    }

    /// Starts measuring a piece of work.
    pub(super) fn start(&self) -> Started {
        Started(self.timed.then(Instant::now))
    }

    /// Ends a network's solving, started at `started`.
    pub(super) fn solved(&mut self, started: Started) {
        self.solving += Self::cost(started);
    }

    /// Ends a sample, started at `started`.
    pub(super) fn sampled(&mut self, started: Started) {
        self.sampling += Self::cost(started);
    }

    fn cost(started: Started) -> f64 {
        started.0.map_or(1.0, |t| t.elapsed().as_secs_f64())
    }

    /// Seconds (or pieces of work) spent solving and sampling.
    pub(super) fn spent(&self) -> (f64, f64) {
        (self.solving, self.sampling)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_work_keeps_solving_within_its_share() {
        for (share, solves_per_ten) in [(0.0, 0), (0.25, 4), (0.5, 10), (1.0, 10)] {
            let mut meter = Meter::new(share, false);
            let mut solves = 0;
            // A search that may solve once per sample, as the sequence reading does.
            for _ in 0..10 {
                if meter.may_solve() {
                    meter.solved(meter.start());
                    solves += 1;
                }
                meter.sampled(meter.start());
            }
            assert_eq!(solves, solves_per_ten, "share {share}");
        }
    }
}

//! The tournament protocol of Zhang's Figure 3, shared by `fe-fig3a` (random trees) and `fe-fig3b`
//! (Othello): forward estimation (FE) and alpha-beta both start at horizon 1; after each
//! tournament, whichever side generated fewer nodes searches one ply deeper in the next (on a tie,
//! FE). For each alpha-beta horizon `h`, **MORE** is the tournament in which FE, one step deeper,
//! first generated more nodes than alpha-beta at `h`; **LESS** is FE one ply shallower than MORE
//! against the same `h` (played separately if the protocol skipped it).

/// One tournament's totals: pairs of games between FE at `fe_horizon` and alpha-beta at
/// `ab_horizon`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tournament {
    /// FE's search horizon.
    pub fe_horizon: u32,
    /// Alpha-beta's search horizon.
    pub ab_horizon: u32,
    /// Pairs FE won.
    pub fe_wins: u32,
    /// Pairs alpha-beta won.
    pub ab_wins: u32,
    /// Tied pairs.
    pub ties: u32,
    /// Nodes FE generated over all games.
    pub fe_nodes: u64,
    /// Nodes alpha-beta generated over all games.
    pub ab_nodes: u64,
    /// FE's CPU seconds over all games (0 where not measured).
    pub fe_seconds: f64,
    /// Alpha-beta's CPU seconds over all games (0 where not measured).
    pub ab_seconds: f64,
}

impl Tournament {
    /// An empty tally for the given horizons.
    pub fn new(fe_horizon: u32, ab_horizon: u32) -> Tournament {
        Tournament {
            fe_horizon,
            ab_horizon,
            ..Tournament::default()
        }
    }

    /// Records one pair whose summed outcome, from FE's view, is `fe_outcome`.
    pub fn record_pair(&mut self, fe_outcome: std::cmp::Ordering) {
        match fe_outcome {
            std::cmp::Ordering::Greater => self.fe_wins += 1,
            std::cmp::Ordering::Less => self.ab_wins += 1,
            std::cmp::Ordering::Equal => self.ties += 1,
        }
    }

    /// FE's winning rate in percent, a tie counting half.
    pub fn win_rate(&self) -> f64 {
        let pairs = f64::from(self.fe_wins + self.ab_wins + self.ties);
        100.0 * (f64::from(self.fe_wins) + 0.5 * f64::from(self.ties)) / pairs
    }

    /// FE's CPU time over alpha-beta's.
    pub fn time_ratio(&self) -> f64 {
        self.fe_seconds / self.ab_seconds.max(1e-9)
    }
}

/// One point of the figure: alpha-beta's horizon and its MORE and LESS tournaments.
#[derive(Clone, Copy, Debug)]
pub struct Point {
    /// Alpha-beta's horizon.
    pub ab_horizon: u32,
    /// FE one step deeper, first generating more nodes than alpha-beta.
    pub more: Tournament,
    /// FE one ply shallower than MORE (none when MORE's horizon is 1).
    pub less: Option<Tournament>,
}

/// Plays the protocol until alpha-beta's horizon would pass `max_ab` (or FE's runs `fe_lead`
/// plies ahead, a guard), calling `play(fe_horizon, ab_horizon)` for each tournament and
/// `progress` after it. Returns the tournaments in the order played.
pub fn play_protocol<E>(
    max_ab: u32,
    fe_lead: u32,
    play: &mut impl FnMut(u32, u32) -> Result<Tournament, E>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<Tournament>, E> {
    let (mut fe_h, mut ab_h) = (1u32, 1u32);
    let mut played: Vec<Tournament> = Vec::new();
    let estimate = u64::from(3 * max_ab);
    while ab_h <= max_ab && fe_h <= ab_h + fe_lead {
        let t = play(fe_h, ab_h)?;
        played.push(t);
        progress(played.len() as u64, estimate.max(played.len() as u64 + 1));
        if t.fe_nodes <= t.ab_nodes {
            fe_h += 1;
        } else {
            ab_h += 1;
        }
    }
    Ok(played)
}

/// The MORE and LESS tournaments of every alpha-beta horizon up to `max_ab` that the protocol
/// reached, playing a LESS tournament with `play` where the protocol skipped it.
pub fn points<E>(
    played: &[Tournament],
    max_ab: u32,
    play: &mut impl FnMut(u32, u32) -> Result<Tournament, E>,
) -> Result<Vec<Point>, E> {
    let mut points = Vec::new();
    for h in 1..=max_ab {
        // The tournament that ended alpha-beta's stay at horizon h.
        let Some(more) = played
            .iter()
            .find(|t| t.ab_horizon == h && t.fe_nodes > t.ab_nodes)
            .copied()
        else {
            continue;
        };
        let less = match more.fe_horizon {
            1 => None,
            f => Some(
                match played
                    .iter()
                    .find(|t| t.ab_horizon == h && t.fe_horizon == f - 1)
                {
                    Some(t) => *t,
                    None => play(f - 1, h)?,
                },
            ),
        };
        points.push(Point {
            ab_horizon: h,
            more,
            less,
        });
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake game: FE's nodes grow as 3^h, alpha-beta's as 4^h; FE wins when deeper.
    fn fake(fe: u32, ab: u32) -> Result<Tournament, ()> {
        let mut t = Tournament::new(fe, ab);
        t.fe_nodes = 3u64.pow(fe);
        t.ab_nodes = 4u64.pow(ab);
        t.record_pair(fe.cmp(&ab));
        Ok(t)
    }

    #[test]
    fn the_cheaper_side_goes_one_deeper_and_more_less_pair_up() {
        let played = play_protocol(3, 8, &mut fake, &mut |_, _| {}).unwrap();
        let order: Vec<(u32, u32)> = played
            .iter()
            .map(|t| (t.fe_horizon, t.ab_horizon))
            .collect();
        // (1,1): 3 ≤ 4, FE deeper; (2,1): 9 > 4, AB deeper; (2,2): 9 ≤ 16; (3,2): 27 > 16; ...
        // (4,3): 81 > 64 takes AB to 4, past the last horizon.
        assert_eq!(order, [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3)]);
        let points = points(&played, 3, &mut fake).unwrap();
        let pairs: Vec<(u32, u32, Option<u32>)> = points
            .iter()
            .map(|p| {
                (
                    p.ab_horizon,
                    p.more.fe_horizon,
                    p.less.map(|t| t.fe_horizon),
                )
            })
            .collect();
        assert_eq!(pairs, [(1, 2, Some(1)), (2, 3, Some(2)), (3, 4, Some(3))]);
        assert_eq!(points[2].more.win_rate(), 100.0);
    }
}

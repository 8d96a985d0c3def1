//! The players' time limit: a search ends within 10 ms of its deadline. Alone in its test binary,
//! so that no other test of this crate competes for the processor while it measures.

use std::time::{Duration, Instant};

use game_trait::{Game, Limits, Searcher};
use scsp_mac_ucb::games::Pig;
use scsp_mac_ucb::{MacUcb, MacUcbConfig};

#[test]
fn a_search_ends_within_10_ms_of_its_deadline() {
    // Long games (Pig to 100), no sample budget: only the deadline ends these searches.
    let pig = Pig::new(100);
    let root = pig.initial_state();
    for config in [MacUcbConfig::default(), MacUcbConfig::fc_ucb()] {
        for (i, budget) in [5, 20, 60].into_iter().enumerate() {
            let mut player = MacUcb::new(MacUcbConfig {
                samples: u64::MAX,
                seed: i as u64,
                ..config.clone()
            })
            .unwrap();
            // The round is indexed before the clock runs, as a match's start clock allows: on
            // a busy machine indexing Pig's round can take the whole of a 20 ms search.
            player.prepare(&pig).unwrap();
            let start = Instant::now();
            let limits = Limits::none().with_time(Duration::from_millis(budget));
            let result = player.search(&pig, &root, &limits);
            let overrun = start
                .elapsed()
                .saturating_sub(Duration::from_millis(budget));
            assert!(result.best_move.is_some());
            // With 5 ms, solving may take the whole budget on a busy machine.
            assert!(budget < 20 || result.stats.evaluated > 0);
            assert!(
                overrun <= Duration::from_millis(10),
                "{overrun:?} over {budget} ms"
            );
        }
    }
}

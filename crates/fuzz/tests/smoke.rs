//! A short run of every target: the harness works and no parser panics on the first inputs.

use std::time::Duration;

use fuzz::{Budget, TARGETS};

#[test]
fn every_target_survives_a_short_run() {
    let failures = std::env::temp_dir().join("gametree-fuzz-smoke");
    for target in TARGETS {
        let report = fuzz::run(
            target,
            7,
            Budget::Time(Duration::from_millis(400)),
            &failures,
        );
        assert!(report.inputs > 0, "{}: no input ran", target.name);
        assert!(
            report.panics.is_empty(),
            "{}: panicked on {:?}",
            target.name,
            report.panics
        );
    }
}

#[test]
fn inputs_depend_only_on_seed_and_index() {
    let target = fuzz::target("gdl-kif").unwrap();
    let seeds = (target.seeds)();
    for index in [0, 1, 999] {
        assert_eq!(
            fuzz::input(target, &seeds, 3, index),
            fuzz::input(target, &seeds, 3, index)
        );
    }
    assert_ne!(
        fuzz::input(target, &seeds, 3, 5),
        fuzz::input(target, &seeds, 4, 5)
    );
}

#[test]
fn every_target_has_seeds_its_parser_accepts() {
    for target in TARGETS {
        let seeds = (target.seeds)();
        assert!(
            seeds.iter().any(|s| (target.run)(s)),
            "{}: no seed is accepted",
            target.name
        );
    }
}

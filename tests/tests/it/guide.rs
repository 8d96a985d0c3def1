//! `docs/your-own-game.md` quotes the examples `crates/gametree/examples/connect_four.rs` and
//! `dots_and_boxes.rs`, which CI compiles and runs: every Rust block of the guide must be an
//! excerpt of one of them (lines in order, compared without their indentation), so that the guide
//! cannot drift from code that works.

use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Rust code blocks of a Markdown text, each as its lines without indentation.
fn rust_blocks(markdown: &str) -> Vec<Vec<&str>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in markdown.lines() {
        let fence = line.trim_start();
        match (&mut current, fence.starts_with("```")) {
            (None, true) if fence == "```rust" => current = Some(Vec::new()),
            (Some(_), true) => blocks.extend(current.take()),
            (Some(block), false) => block.push(line.trim()),
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn every_block_of_the_guide_is_an_excerpt_of_an_example() {
    let guide = read("docs/your-own-game.md");
    let examples = ["connect_four.rs", "dots_and_boxes.rs"]
        .map(|name| read(&format!("crates/gametree/examples/{name}")));
    let examples: Vec<Vec<&str>> = examples
        .iter()
        .map(|example| example.lines().map(str::trim).collect())
        .collect();
    let blocks = rust_blocks(&guide);
    assert!(blocks.len() >= 8, "only {} Rust blocks found", blocks.len());
    for block in blocks {
        let found = examples
            .iter()
            .any(|example| example.windows(block.len()).any(|w| w == block.as_slice()));
        assert!(found, "not an excerpt of an example:\n{}", block.join("\n"));
    }
}

/// The guide shows every searcher family composed in code, a GDL game loaded from a string, and
/// how to read a value: a newcomer finds each there, not in the examples or other crates' docs.
#[test]
fn the_guide_composes_every_family_in_code() {
    let guide = read("docs/your-own-game.md");
    let code: Vec<String> = rust_blocks(&guide)
        .iter()
        .map(|block| block.join("\n"))
        .collect();
    for (family, call) in [
        ("α/β and PVS", "AlphaBeta::new("),
        ("MTD(f)", "Mtdf::new("),
        ("Lazy SMP", ".search_parallel("),
        ("UCT", "Uct::new("),
        ("a CAEV player", "CaevPlayer::layered("),
        ("interest search", "interest_search::hooks("),
        (
            "forward estimation",
            ".with_pruning(ForwardEstimation::new(",
        ),
        ("a GDL game from a string", "Loader::text("),
        ("reading a value", ".read("),
    ] {
        assert!(
            code.iter().any(|block| block.contains(call)),
            "the guide shows no {family} in code (`{call}`)"
        );
    }
}

//! `gametree list [--markdown]`: every game, searcher and reproduction, with the parameters and
//! defaults of the registry's tables.

use gametree::registry::{evaluating_searchers_take, reference, GAMES, SEARCHERS};
use gametree::spec::{DefaultValue, Param};
use reproduce::EXPERIMENTS;

use crate::out::{out, outln};
use crate::Failure;

/// Arguments of `list`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print the searchers' and games' reference as Markdown (the registry's documentation).
    #[arg(long)]
    markdown: bool,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    if args.markdown {
        out!("{}", reference());
        return Ok(());
    }
    outln!("searchers (SPEC = name or name:key=value,...):");
    for s in SEARCHERS {
        outln!("  {:<12}{} ({})", s.name, s.about, s.plays());
        params(s.params);
    }
    outln!("\ngames (GAME = name or name:key=value,..., or a game file):");
    for g in GAMES {
        outln!("  {:<12}{}", g.name, g.about);
        params(g.params);
        if !g.searcher_params.is_empty() {
            outln!("  {:<12}{}:", "", evaluating_searchers_take());
            params(g.searcher_params);
        }
    }
    outln!("\nreproductions (gametree reproduce NAME):");
    for experiment in EXPERIMENTS {
        outln!("  {:<16}{}", experiment.name, experiment.description);
    }
    Ok(())
}

/// One line per parameter: `key=default  meaning (values)`.
fn params(params: &[Param]) {
    for p in params {
        let default = match p.default {
            DefaultValue::Derived(how) => format!("; default: {how}"),
            DefaultValue::Fixed(_) => String::new(),
        };
        // A column of 22, one space at least after a longer `key=default`.
        outln!(
            "  {:<12}  {:<21} {} ({}{default})",
            "",
            p.to_string(),
            p.help,
            p.kind
        );
    }
}

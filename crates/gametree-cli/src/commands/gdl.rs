//! `gametree gdl check <FILE>`: validate a GDL description and summarise it.

use std::path::PathBuf;

use crate::Failure;

/// Arguments of `gdl`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Validate a game description: print roles, fluent and move counts, whether the fast reasoner
    /// applies, and any warnings. Exit 0 for a valid game, 1 for an invalid one, 2 for unreadable input.
    Check {
        /// A GDL file (KIF or the infix Prolog-like form).
        file: PathBuf,
    },
}

pub fn run(args: &Args) -> Result<(), Failure> {
    match &args.command {
        Command::Check { file } => match gametree::gdl::check_file(file) {
            Ok(report) => {
                print!("{report}");
                Ok(())
            }
            Err(e) if e.exit_code() == 2 => Err(Failure::input(e)),
            Err(e) => Err(Failure::check(format!(
                "{}: invalid game description: {e}",
                file.display()
            ))),
        },
    }
}

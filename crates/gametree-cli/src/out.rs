//! Standard output that ends the program quietly when the reader has gone.
//!
//! `println!` panics when stdout is a closed pipe (`gametree list | head`): Rust ignores SIGPIPE,
//! so the write fails with `BrokenPipe` and the macro turns that into a panic. A command whose
//! reader has stopped reading has nothing left to do, so [`outln!`] and [`out!`] exit with
//! status 0 instead, as a Unix filter killed by SIGPIPE would; any other write error is reported on
//! one line with status 2.

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};

/// Writes `args` to standard output; exits on a closed pipe or a failed write.
pub fn write(args: Arguments) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("gametree: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// `print!` that ends the program quietly on a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` that ends the program quietly on a closed pipe.
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

//! [`Log`]: one line per event, `SECONDS EVENT details…`, where SECONDS is the Unix time with
//! milliseconds; appended to a file, or written on stderr.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where the player's log lines go.
pub struct Log {
    file: Option<File>,
    quiet: bool,
}

impl Log {
    /// Lines on stderr.
    pub fn stderr() -> Log {
        Log {
            file: None,
            quiet: false,
        }
    }

    /// No lines at all (for tests).
    pub fn quiet() -> Log {
        Log {
            file: None,
            quiet: true,
        }
    }

    /// Lines appended to `path`.
    pub fn file(path: &Path) -> std::io::Result<Log> {
        let file = File::options().create(true).append(true).open(path)?;
        Ok(Log {
            file: Some(file),
            quiet: false,
        })
    }

    /// A second handle on the same log, for another thread (lines are appended whole). On
    /// stderr if the file cannot be shared.
    pub fn try_clone(&self) -> Log {
        Log {
            file: self.file.as_ref().and_then(|f| f.try_clone().ok()),
            quiet: self.quiet,
        }
    }

    /// Writes `SECONDS EVENT details`. Newlines in `details` are flattened so that a line is an
    /// event; a failing write is ignored (the log must never stop the player).
    pub fn line(&mut self, event: &str, details: &str) {
        if self.quiet {
            return;
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        let details: String = details
            .chars()
            .take(500)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let line = format!("{now:.3} {event} {details}\n");
        let _ = match &mut self.file {
            Some(f) => f.write_all(line.as_bytes()),
            None => std::io::stderr().write_all(line.as_bytes()),
        };
    }
}

//! What the solver binaries share: the error a run can end with, and how it becomes an exit
//! status, so every `main.rs` stays a few lines long.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::{ParseError, report};

/// Why a run stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input is malformed (or a case is beyond the limits); located.
    #[error(transparent)]
    Input(#[from] ParseError),
    /// Writing the answers failed (for example standard output was closed).
    #[error("cannot write output: {0}")]
    Output(#[from] io::Error),
    /// Writing a picture file (`--svg FILE`) failed.
    #[error("cannot write the picture {}: {source}", path.display())]
    Picture {
        /// The file that could not be written.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// The exit status for the outcome of a run, after telling standard error what went wrong:
/// 0 on success, 1 with `error: line L, column C: ...` for bad input. A closed standard
/// output (a reader such as `head` that has seen enough) ends the run quietly with 0; any
/// other write failure (of standard output or of a picture file) is reported with
/// status 1.
pub fn exit_code(outcome: Result<(), RunError>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(RunError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(RunError::Input(e)) => {
            eprintln!("{}", report(&e));
            ExitCode::FAILURE
        }
        Err(e @ (RunError::Output(_) | RunError::Picture { .. })) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

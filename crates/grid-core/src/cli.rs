//! What the solver binaries share: the input (a file named on the command line, or
//! standard input), the error a run can end with, and how it becomes an exit status, so
//! every `main.rs` stays a few lines long.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::error::{ParseError, report};

/// Why a run stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input is malformed (or a case is beyond the limits); located.
    #[error(transparent)]
    Input(#[from] ParseError),
    /// A file named on the command line is malformed (or beyond the limits); located in
    /// it. Displayed as `FILE: line L, column C: ...`.
    #[error("{file}: {error}")]
    InFile {
        /// The file, as named on the command line.
        file: String,
        /// What is wrong, and where.
        error: ParseError,
    },
    /// A case named rather than located (a benchmark instance given by its files) could
    /// not be answered within a limit. Displayed as `CASE: why`.
    #[error("{case}: {reason}")]
    Unanswered {
        /// Which case, in words (its files, its number of agents).
        case: String,
        /// Which limit, in words.
        reason: String,
    },
    /// Writing the answers failed (for example standard output was closed).
    #[error("cannot write output: {0}")]
    Output(#[from] io::Error),
    /// The input file named on the command line cannot be opened.
    #[error("cannot open the input {}: {source}", path.display())]
    Open {
        /// The file, as named on the command line.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Writing a result file (such as ghosts' `--output FILE` and `--tracker FILE`)
    /// failed.
    #[error("cannot write the result file {}: {source}", path.display())]
    ResultFile {
        /// The file that could not be written.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
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
///
/// When standard error cannot be written either (`2>/dev/full`), the status is all that
/// is left to say it: the message is dropped rather than turned into a panic (which is
/// what `eprintln!` does, with status 101).
pub fn exit_code(outcome: Result<(), RunError>) -> ExitCode {
    exit_code_telling(outcome, &mut io::stderr())
}

/// [`exit_code`], telling `stderr` what went wrong (and ignoring a failure to write it).
fn exit_code_telling(outcome: Result<(), RunError>, stderr: &mut impl Write) -> ExitCode {
    let tell = |stderr: &mut dyn Write, message: &dyn fmt::Display| {
        // Nothing useful is left to do when the error stream itself fails.
        let _ = writeln!(stderr, "{message}");
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(RunError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(RunError::Input(e)) => {
            tell(stderr, &report(&e));
            ExitCode::FAILURE
        }
        Err(
            e @ (RunError::Output(_)
            | RunError::Picture { .. }
            | RunError::ResultFile { .. }
            | RunError::InFile { .. }
            | RunError::Open { .. }
            | RunError::Unanswered { .. }),
        ) => {
            tell(stderr, &format_args!("error: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// The input of a program: the file at `path` when the command line names one, else
/// standard input; buffered either way.
///
/// # Errors
/// [`RunError::Open`] when the file cannot be opened (`error: cannot open the input FILE:
/// No such file or directory (os error 2)`, status 1).
pub fn open_input(path: Option<&Path>) -> Result<Box<dyn BufRead>, RunError> {
    match path {
        None => Ok(Box::new(io::stdin().lock())),
        Some(path) => match File::open(path) {
            Ok(file) => Ok(Box::new(BufReader::new(file))),
            Err(source) => Err(RunError::Open {
                path: path.to_owned(),
                source,
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    /// An error stream that refuses every byte, like `2>/dev/full`.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(28)) // ENOSPC
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_full_error_stream_still_gives_status_1() {
        let input = ParseError::at(
            2,
            3,
            ErrorKind::Missing {
                what: "box".to_owned(),
            },
        );
        assert_eq!(
            exit_code_telling(Err(input.clone().into()), &mut Full),
            ExitCode::FAILURE
        );
        let output = RunError::Output(io::Error::from_raw_os_error(28));
        assert_eq!(exit_code_telling(Err(output), &mut Full), ExitCode::FAILURE);
        let mut told = Vec::new();
        assert_eq!(
            exit_code_telling(Err(input.into()), &mut told),
            ExitCode::FAILURE
        );
        assert_eq!(told, b"error: line 2, column 3: this case has no box\n");
    }

    #[test]
    fn a_missing_input_file_is_named() {
        let missing = Path::new("/nonexistent/input.txt");
        let Err(error) = open_input(Some(missing)) else {
            panic!("opened a missing file");
        };
        let mut told = Vec::new();
        assert_eq!(exit_code_telling(Err(error), &mut told), ExitCode::FAILURE);
        let told = String::from_utf8(told).unwrap();
        assert!(
            told.starts_with("error: cannot open the input /nonexistent/input.txt: "),
            "{told}"
        );
    }
}

//! Sokoban with many boxes, as players and solver authors know it: XSB levels in, LURD
//! solutions out, each proven optimal for one of the two standard metrics
//! (spec `sokoban.md`):
//! - [`Metric::Pushes`]: fewest pushes, then fewest moves among those;
//! - [`Metric::Moves`]: fewest moves (every step), then fewest pushes among those.
//!
//! - [`parse`]: the XSB reader, one level at a time, with located errors;
//! - [`search`]: the exact A* over (boxes, exact player square) with a lexicographic cost;
//! - [`board`]: lone-box push distances, dead squares and freeze deadlocks;
//! - [`matching`]: the minimum-cost matching bound;
//! - [`groups`]: deadlocks of two or three boxes, found once per level;
//! - [`mod@verify`]: the LURD replay checker;
//! - [`show`]: the level drawn after every push (`--show`);
//! - [`svg`]: the solution as an animated SVG picture (`--svg`);
//! - `generate` (feature `generate`): seeded small random levels for the tests.
//!
//! ```
//! use sokoban::{Level, Metric, Outcome, SolveOptions, solve};
//!
//! let level = Level::from_xsb("#######\n#@ $ .#\n#######\n").unwrap();
//! let Outcome::Solved(s) = solve(&level, &SolveOptions::new(Metric::Pushes)) else {
//!     panic!("solvable")
//! };
//! assert_eq!((s.pushes, s.moves, s.lurd.as_str()), (2, 3, "rRR"));
//! ```
//!
//! # Limits
//! Bad input never panics: a malformed level gets a located error and the run goes on with
//! the next one (`docs/errors.md`). `--max-cells` ([`RunOptions::max_cells`], default 2^16)
//! bounds rows x longest row of a level while it is read; `--memory-mib`
//! ([`SolveOptions::memory_mib`]) bounds what one search stores, counted as it grows (the
//! answer is then `unknown: memory`); `--time-limit` ([`SolveOptions::time_limit`]) bounds
//! its time (`unknown: time`).

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod board;
#[doc(hidden)]
pub mod finder;
#[cfg(feature = "generate")]
pub mod generate;
pub mod groups;
pub mod matching;
pub mod parse;
pub mod search;
pub mod show;
pub mod svg;
pub mod verify;

use std::fmt;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use grid_core::RunError;
use grid_core::error::report;
use grid_core::limits::DEFAULT_MEMORY_MIB;

pub use parse::{Collection, DEFAULT_MAX_CELLS, Level, LevelText};
pub use verify::{Counts, VerifyError, verify};

/// Which cost is minimised first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Fewest pushes, then fewest moves.
    #[default]
    Pushes,
    /// Fewest moves, then fewest pushes.
    Moves,
}

/// How one level is searched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveOptions {
    /// The metric.
    pub metric: Metric,
    /// The memory the search may store, in MiB.
    pub memory_mib: u64,
    /// The time one level may take; `None` for no limit.
    pub time_limit: Option<Duration>,
}

impl SolveOptions {
    /// `metric`, the default memory budget, no time limit.
    pub fn new(metric: Metric) -> Self {
        SolveOptions {
            metric,
            memory_mib: DEFAULT_MEMORY_MIB,
            time_limit: None,
        }
    }
}

/// A limit that stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// `--time-limit`.
    Time,
    /// `--memory-mib`.
    Memory,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Time => "time",
            Limit::Memory => "memory",
        })
    }
}

/// An optimal solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Its pushes.
    pub pushes: u32,
    /// Its moves (every step, pushes included).
    pub moves: u32,
    /// The moves, `lurd` walks and `LURD` pushes.
    pub lurd: String,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Solved optimally.
    Solved(Solution),
    /// Proven unsolvable.
    Unsolvable,
    /// A limit stopped the search first.
    Unknown(Limit),
}

impl fmt::Display for Outcome {
    /// The answer line: `PUSHES MOVES LURD` (`0 0` for a level solved at the start), `-1`,
    /// or `unknown: <limit>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Solved(s) if s.lurd.is_empty() => write!(f, "0 0"),
            Outcome::Solved(s) => write!(f, "{} {} {}", s.pushes, s.moves, s.lurd),
            Outcome::Unsolvable => f.write_str("-1"),
            Outcome::Unknown(limit) => write!(f, "unknown: {limit}"),
        }
    }
}

/// The optimal solution of `level` for `options.metric`; see [`search`].
pub fn solve(level: &Level, options: &SolveOptions) -> Outcome {
    search::solve(level, options)
}

/// How [`run`] reads and answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// The search options of every level.
    pub solve: SolveOptions,
    /// The largest rows x longest row accepted for one level (`--max-cells`).
    pub max_cells: u64,
    /// Only the levels numbered in this range (1-based, inclusive), when set.
    pub levels: Option<(usize, usize)>,
    /// Draw the level after every push of the solution.
    pub show: bool,
    /// Where to save each answered level as an animated picture (`--svg FILE`): the k-th
    /// level answered goes to the file [`grid_core::svg::case_path`] names (`FILE` for the
    /// first, `FILE-k.svg` after it).
    pub svg: Option<PathBuf>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            solve: SolveOptions::new(Metric::Pushes),
            max_cells: DEFAULT_MAX_CELLS,
            levels: None,
            show: false,
            svg: None,
        }
    }
}

/// Reads the levels of `input` one by one and writes for each selected one its title line
/// and its answer line (with `--show`, the drawings), flushing after each, and with
/// [`RunOptions::svg`] saves its picture. A malformed
/// level gets `error: line L, column C: ...` on `errors` and nothing on `output`, and the
/// next level is read.
///
/// Returns the number of malformed levels (the binary exits with 1 when it is not 0).
///
/// # Errors
/// [`RunError::Output`] when writing fails, [`RunError::Input`] when reading fails,
/// [`RunError::Picture`] when a picture cannot be saved.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    errors: &mut impl Write,
    options: &RunOptions,
) -> Result<usize, RunError> {
    let mut collection = Collection::new(input, options.max_cells);
    let mut malformed = 0;
    let mut answered = 0u64;
    while let Some(text) = collection.next_level()? {
        if let Some((first, last)) = options.levels {
            if text.number < first {
                continue;
            }
            if text.number > last {
                break;
            }
        }
        let level = match Level::from_text(&text) {
            Ok(level) => level,
            Err(e) => {
                malformed += 1;
                writeln!(errors, "{}", report(&e))?;
                errors.flush()?;
                continue;
            }
        };
        let outcome = solve(&level, &options.solve);
        writeln!(output, "{}", level.title())?;
        writeln!(output, "{outcome}")?;
        if let (true, Outcome::Solved(s)) = (options.show, &outcome) {
            show::show(&level, &s.lurd, output)?;
        }
        output.flush()?;
        answered += 1;
        if let Some(path) = &options.svg {
            let lurd = match &outcome {
                Outcome::Solved(s) => Some(s.lurd.as_str()),
                _ => None,
            };
            grid_core::svg::write_file(&grid_core::svg::case_path(path, answered), |file| {
                svg::write_svg(file, &level, lurd)
            })?;
        }
    }
    Ok(malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_goes_on_after_a_malformed_level() {
        let input = "; one\n####\n#@@#\n####\n\n; two\n######\n#@$ .#\n######\n";
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let bad = run(input.as_bytes(), &mut out, &mut err, &RunOptions::default()).unwrap();
        assert_eq!(bad, 1);
        assert_eq!(String::from_utf8(out).unwrap(), "; two\n2 2 RR\n");
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "error: line 3, column 3: the player ('@' or '+') appears again (first at line 3, \
             column 2)\n"
        );
    }
}

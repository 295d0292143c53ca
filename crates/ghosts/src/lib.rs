//! ghosts: the fewest steps that bring every ghost home, all ghosts moving at once.
//!
//! The problem is "The Morning after Halloween" (ICPC Asia Tokyo 2007, UVa 1601); the
//! input format, the step rule and the output are in `docs/ghosts.md`. In one step every
//! ghost stays or moves to a neighbouring corridor cell, all at once; no two may end on one
//! cell or swap cells; following is allowed.
//!
//! # Using the library
//! Parse a [`Dataset`] from text (or build one from coordinates with [`Dataset::new`]),
//! then [`solve`] it:
//! ```
//! let dataset: ghosts::Dataset = "5 3 1\n#####\n#a A#\n#####\n".parse()?;
//! let solution = ghosts::solve(&dataset, &ghosts::Options::default())?;
//! assert_eq!(solution.map(|s| s.steps()), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Everything a caller needs from `grid-core` ([`Grid`], [`CellId`], [`ParseError`], ...)
//! is re-exported here. [`run`] is the whole program (many datasets, streamed).
//!
//! # Modules
//! - [`problem`]: the dataset, its validating constructor, the options and [`solve`];
//! - [`parse`]: reading a dataset, with located errors;
//! - [`moves`]: the step rule and its checker;
//! - [`heuristic`]: consistent lower bounds (one-ghost and exact pair distances);
//! - [`search`]: A* over joint placements;
//! - [`plan`]: writing, drawing and replaying plans;
//! - [`svg`]: the answer as an animated SVG picture (`--svg`);
//! - `generate` (feature `generate`): seeded random maps that keep the statement's
//!   promises.
//!
//! # Features
//! - `cli` (default): the `ghosts` binary and its command-line parser (clap). A library
//!   user can leave it out: `ghosts = { ..., default-features = false }`.
//! - `generate`: the seeded generators, for the workspace's tests and tools.
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, guard the resources:
//! - `--max-cells` ([`RunOptions::max_cells`], default [`DEFAULT_MAX_CELLS`] = 2^22):
//!   width x height, checked on the header before any row is read; no side may pass 4096.
//! - `--memory-mib` ([`RunOptions::memory_mib`], default 1024): checked twice. From the
//!   header, the tables sized by the map ([`parse::BYTES_PER_CELL`] + n x
//!   [`parse::BYTES_PER_CELL_PER_GHOST`] bytes a cell, measured) must fit, or the dataset is
//!   refused before anything is allocated. The placements the search stores cannot be
//!   known in advance (at most C^n, usually far fewer), so the search counts them and
//!   stops, with an error at the dataset's header, when the next one would pass the
//!   budget.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

#[cfg(feature = "generate")]
pub mod generate;
pub mod heuristic;
pub mod moves;
pub mod parse;
pub mod plan;
pub mod problem;
pub mod search;
pub mod svg;

use std::io::{BufRead, Write};
use std::path::PathBuf;

use grid_core::CaseReader;
use grid_core::limits::Limits;

pub use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB};
pub use grid_core::{CellError, CellId, Dir, ErrorKind, Grid, ParseError, RunError, exit_code};
pub use parse::{MAX_GHOSTS, read_dataset, read_dataset_within};
pub use problem::{Dataset, DatasetError, Marker, Options, Solution, SolveError, solve};
pub use search::Plan;

/// What the program prints and how far it may go: the flags of the `ghosts` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// After each answer, the placement after every step (`--plan`).
    pub plan: bool,
    /// After each answer, the map drawn before and after every step (`--show`).
    pub show: bool,
    /// Where to save each dataset's answer as an animated picture (`--svg FILE`): dataset
    /// k in the file [`grid_core::svg::case_path`] names (`FILE` for the first,
    /// `FILE-k.svg` for the others).
    pub svg: Option<PathBuf>,
    /// Largest map accepted, in cells (width x height).
    pub max_cells: u64,
    /// Memory one search may use, in MiB.
    pub memory_mib: u64,
}

impl Default for RunOptions {
    /// No plan, no drawing, no picture, [`DEFAULT_MAX_CELLS`], [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        RunOptions {
            plan: false,
            show: false,
            svg: None,
            max_cells: DEFAULT_MAX_CELLS,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// Solves every dataset of `input` in turn, writing each answer (and plan) to `output`
/// and flushing it before reading the next dataset, so an error in dataset k keeps the
/// answers of datasets 1..k-1. With [`RunOptions::svg`], each dataset's picture is saved
/// after its answer is written.
///
/// # Examples
/// ```
/// let mut out = Vec::new();
/// let input = "5 3 1\n#####\n#a A#\n#####\n0 0 0\n";
/// ghosts::run(input.as_bytes(), &mut out, &ghosts::RunOptions::default())?;
/// assert_eq!(out, b"2\n");
/// # Ok::<(), ghosts::RunError>(())
/// ```
///
/// # Errors
/// [`RunError::Input`] for the first malformed dataset or one past a budget (located;
/// the answers before it are written and flushed), [`RunError::Output`] when writing
/// fails, [`RunError::Picture`] when a picture file cannot be written.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    options: &RunOptions,
) -> Result<(), RunError> {
    let mut reader = CaseReader::new(input);
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    let mut number = 0;
    while let Some(dataset) = read_dataset_within(&mut reader, limits)? {
        number += 1;
        let solve_options = Options {
            plan: options.plan || options.show || options.svg.is_some(),
            memory_mib: options.memory_mib,
        };
        let solution = solve(&dataset, &solve_options).map_err(|e| match e {
            SolveError::OverBudget {
                budget_mib,
                placements,
            } => ParseError::at(
                dataset.header_line,
                1,
                ErrorKind::OverBudget {
                    budget_mib,
                    detail: format!(
                        "the search ran out after storing {placements} placement{}",
                        if placements == 1 { "" } else { "s" }
                    ),
                },
            ),
            // The header check of `read_dataset_within` refuses these first; kept for
            // completeness, located the same way.
            SolveError::TablesOverBudget {
                budget_mib,
                need_mib,
            } => ParseError::at(
                dataset.header_line,
                1,
                ErrorKind::OverBudget {
                    budget_mib,
                    detail: format!("about {need_mib} MiB for the tables sized by the map"),
                },
            ),
        })?;
        match &solution {
            Some(solution) => writeln!(output, "{}", solution.steps())?,
            None => writeln!(output, "-1")?,
        }
        if let Some(plan) = solution.as_ref().and_then(Solution::plan) {
            if options.plan {
                plan::write_plan(output, &dataset.grid, plan)?;
            }
            if options.show {
                plan::write_drawings(output, &dataset, plan)?;
            }
        }
        output.flush()?;
        if let Some(path) = &options.svg {
            grid_core::svg::write_file(&grid_core::svg::case_path(path, number), |file| {
                svg::write_svg(file, &dataset, solution.as_ref().and_then(Solution::plan))
            })?;
        }
    }
    Ok(())
}

//! Pushing Boxes (SWERC 1997; POJ 1475, UVa 589, AcWing 174), exactly as
//! `docs/sokoban-path.md` states it: a person pushes one box onto a target with the fewest
//! pushes, then the fewest walks, then the smallest push sequence (N < S < W < E), then the
//! smallest walk sequence (n < s < w < e), on grids of any size.
//!
//! # Using the library
//! Parse a [`Maze`] from text (or build one from coordinates with [`Maze::new`]), then
//! [`solve`] it:
//! ```
//! let maze: sokoban_path::Maze = "1 4\nSB.T\n".parse()?;
//! let solution = sokoban_path::solve(&maze, &sokoban_path::Options::default())?;
//! assert_eq!(solution.as_ref().map(|s| s.moves()), Some("EE"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Everything a caller needs from `grid-core` ([`Grid`], [`CellId`], [`ParseError`], ...)
//! is re-exported here; [`verify`] replays any move string. [`run`] is the whole program
//! (many mazes, streamed), built on [`solve`].
//!
//! # Inside the crate
//! A ladder, each module using only those below it:
//! - `solve`: [`Options`], [`solve`] and [`SolveError`], over the reader's memory estimate
//!   and the search;
//! - `show` (`--show` frames), `svg` (the `--svg` picture), `verify` (the move replay),
//!   thin layers over grid-core's single-box board;
//! - `search`: the exact four-key search over (box cell, side of the person), with
//!   grid-core's stamped walker for the walks around the box;
//! - `parse`: the format, one maze at a time, with located errors and size limits;
//! - `problem`: the [`Maze`] and its validating constructor;
//! - `generate` (feature `generate`, hidden): seeded workloads for tests and benchmarks.
//!
//! # Features
//! - `cli` (default): the `sokoban-path` binary and its command-line parser (clap). A
//!   library user can leave it out: `sokoban-path = { ..., default-features = false }`.
//! - `generate`: the seeded generators, for the workspace's tests and tools.
//! - `internals` (hidden): the reader of one maze of a stream and the drawings, for the
//!   workspace's tests and fuzz targets only.
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, are checked on each
//! maze's header before its rows are read or anything is allocated for it:
//! - `--max-cells` ([`RunOptions::max_cells`], default [`DEFAULT_MAX_CELLS`] = 2^22):
//!   rows x columns; no side may pass 4096.
//! - `--memory-mib` ([`RunOptions::memory_mib`], default 1024): the search needs at most
//!   [`BYTES_PER_CELL`] (200) bytes a cell, measured on open rooms (the worst case: every
//!   cell floor), so a maze whose rows x columns x 200 bytes passes the budget is refused.
//!   With the default cell budget this never binds (2^22 cells need 800 MiB); it does
//!   when `--max-cells` is raised.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

#[cfg(feature = "generate")]
#[doc(hidden)]
pub mod generate;
mod parse;
mod problem;
mod search;
mod show;
mod solve;
mod svg;
mod verify;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use grid_core::CaseReader;
use grid_core::limits::Limits;

pub use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB};
pub use grid_core::{
    BoardError, CellError, CellId, Counts, Dir, ErrorKind, Grid, ParseError, ReplayError, RunError,
    exit_code,
};
pub use parse::BYTES_PER_CELL;
pub use problem::Maze;
pub use search::Solution;
pub use solve::{Options, SolveError, solve};
pub use verify::verify;

/// What the workspace's tests and fuzz targets reach besides the front door (feature
/// `internals`): not part of the library's promise.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::parse::{read_maze, read_maze_within};
    pub use crate::show::show;
    pub use crate::svg::write_svg;

    /// Every maze of `text` (up to `0 0` or the end).
    ///
    /// # Errors
    /// The first located input error.
    pub fn parse_all(text: &str, max_cells: u64) -> Result<Vec<crate::Maze>, crate::ParseError> {
        let mut reader = grid_core::CaseReader::new(text.as_bytes());
        let mut mazes = Vec::new();
        while let Some(maze) = read_maze(&mut reader, max_cells)? {
            mazes.push(maze);
        }
        Ok(mazes)
    }
}

/// How [`run`] reads and answers: the flags of the `sokoban-path` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// The largest rows x columns accepted for one maze (`--max-cells`).
    pub max_cells: u64,
    /// The memory one maze's search may need, in MiB (`--memory-mib`).
    pub memory_mib: u64,
    /// Draw the maze after every push, below the move string.
    pub show: bool,
    /// Where to save each maze's answer as an animated picture (`--svg FILE`): maze k in
    /// the file [`grid_core::svg::case_path`] names (`FILE` for the first, `FILE-k.svg`
    /// for the others).
    pub svg: Option<PathBuf>,
}

impl Default for RunOptions {
    /// [`DEFAULT_MAX_CELLS`], [`DEFAULT_MEMORY_MIB`], no drawing, no picture.
    fn default() -> Self {
        RunOptions {
            max_cells: DEFAULT_MAX_CELLS,
            memory_mib: DEFAULT_MEMORY_MIB,
            show: false,
            svg: None,
        }
    }
}

/// Reads mazes from `input` until `0 0` or the end, writing for the k-th one `Maze #k`, the
/// move string or `Impossible.`, (with `--show`, the drawings) and an empty line; output is
/// flushed after every maze. With [`RunOptions::svg`], each maze's picture is saved after
/// its answer is written.
///
/// # Examples
/// ```
/// let mut out = Vec::new();
/// let input = "1 4\nSB.T\n0 0\n";
/// sokoban_path::run(input.as_bytes(), &mut out, &sokoban_path::RunOptions::default())?;
/// assert_eq!(out, b"Maze #1\nEE\n\n");
/// # Ok::<(), sokoban_path::RunError>(())
/// ```
///
/// # Errors
/// [`RunError::Input`] for the first malformed maze (the answers before it are already
/// written and flushed), [`RunError::Output`] when writing fails, [`RunError::Picture`]
/// when a picture file cannot be written.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    options: &RunOptions,
) -> Result<(), RunError> {
    run_counting(input, output, options, &AtomicU64::new(0))
}

/// [`run`], adding 1 to `mazes` as each maze is read: the binary's progress line
/// (`grid_core::progress`) reads it from another thread while a large maze is solved.
///
/// # Errors
/// As [`run`].
pub fn run_counting(
    input: impl BufRead,
    output: &mut impl Write,
    options: &RunOptions,
    mazes: &AtomicU64,
) -> Result<(), RunError> {
    let mut reader = CaseReader::new(input);
    let mut number = 0u64;
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    let solve_options = Options {
        memory_mib: options.memory_mib,
    };
    while let Some(maze) = parse::read_maze_within(&mut reader, limits)? {
        number += 1;
        mazes.fetch_add(1, Ordering::Relaxed);
        // The reader refused at the header what the budget cannot hold, with its place.
        let solution = solve(&maze, &solve_options).map_err(
            |SolveError::Memory {
                 budget_mib,
                 need_mib,
             }| {
                let detail = format!("about {need_mib} MiB");
                ParseError::at(
                    reader.line(),
                    1,
                    ErrorKind::OverBudget { budget_mib, detail },
                )
            },
        )?;
        writeln!(output, "Maze #{number}")?;
        match &solution {
            Some(solution) => {
                writeln!(output, "{}", solution.moves())?;
                if options.show {
                    show::show(&maze, solution.moves(), output)?;
                }
            }
            None => writeln!(output, "Impossible.")?,
        }
        writeln!(output)?;
        output.flush()?;
        if let Some(path) = &options.svg {
            grid_core::svg::write_file(&grid_core::svg::case_path(path, number), |file| {
                svg::write_svg(file, &maze, solution.as_ref().map(Solution::moves))
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_streams_answers_before_an_error() {
        let mut out = Vec::new();
        let result = run(
            "1 3\nSBT\n1 3\nS.T\n".as_bytes(),
            &mut out,
            &RunOptions::default(),
        );
        assert_eq!(String::from_utf8(out).unwrap(), "Maze #1\nE\n\n");
        assert_eq!(
            result.unwrap_err().to_string(),
            "line 3, column 1: this case has no box 'B'"
        );
    }

    #[test]
    fn the_count_goes_up_as_each_maze_is_read() {
        let (mut out, mazes) = (Vec::new(), AtomicU64::new(0));
        let input = "1 3\nSBT\n1 3\nSTB\n1 3\nS.T\n";
        let result = run_counting(input.as_bytes(), &mut out, &RunOptions::default(), &mazes);
        assert!(result.is_err());
        // Two mazes read and answered; the third's error came before it was counted.
        assert_eq!(mazes.load(Ordering::Relaxed), 2);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Maze #1\nE\n\nMaze #2\nImpossible.\n\n"
        );
    }

    #[test]
    fn show_draws_every_push() {
        let mut out = Vec::new();
        let options = RunOptions {
            show: true,
            ..RunOptions::default()
        };
        run("1 4\nSB.T\n0 0\n".as_bytes(), &mut out, &options).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Maze #1\nEE\nstart\nSB.T\npush 1 of 2: E after 0 walks\n.SBT\n\
             push 2 of 2: E after 0 walks\n..S*\n\n"
        );
    }
}

//! Single-box Sokoban, fewest player steps: every step counts, pushing or not, and the game
//! ends the moment the box stands on the target (format and rules: `docs/sokoban-steps.md`).
//!
//! # Using the library
//! Parse a [`Puzzle`] from text (or build one from coordinates with [`Puzzle::new`]),
//! then [`solve`] it:
//! ```
//! let puzzle: sokoban_steps::Puzzle = "1 4\nX*.@\n".parse()?;
//! let solution = sokoban_steps::solve(&puzzle, &sokoban_steps::Options::default())?;
//! assert_eq!(solution.map(|s| s.steps()), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Everything a caller needs from `grid-core` ([`Grid`], [`CellId`], [`ParseError`], ...)
//! is re-exported here; [`replay`] checks any step sequence. [`run`] is the whole program,
//! built on [`solve`].
//!
//! The search runs over (box cell, side of the box the player stands on) rather than over
//! (player, box) pairs: A* with a consistent lower bound from relaxed searches, and a
//! second, backward pass for the smallest optimal sequence.
//!
//! # Inside the crate
//! A ladder, each module using only those below it:
//! - `solve`: [`Options`], [`solve`], [`Solution`] and [`SolveError`];
//! - `show` (`--show` boards), `svg` (the `--svg` picture), `verify` (the replay), thin
//!   layers over grid-core's single-box board;
//! - `path`: the smallest optimal step sequence ([`Path`]), over the search's tables;
//! - `search`: the A* over (box cell, player side) states;
//! - `bound`: the relaxed searches that give its heuristic and prune the path search;
//! - `walk`: the cached walks between the sides of a box (grid-core's stamped walker);
//! - `detour`: local lower bounds of one walk, and the state numbering;
//! - `parse`: the format, exactly one case, with located errors and size limits;
//! - `problem`: the [`Puzzle`] and its validating constructor;
//! - `generate` (feature `generate`, hidden): seeded workloads for tests and benchmarks.
//!
//! # Features
//! - `cli` (default): the `sokoban-steps` binary and its command-line parser (clap). A
//!   library user can leave it out: `sokoban-steps = { ..., default-features = false }`.
//! - `generate`: the seeded generators, for the workspace's tests and tools.
//! - `internals` (hidden): the lower-level solver, the reader and the drawings, for the
//!   workspace's tests and fuzz targets only.
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, are checked on the
//! header before any row is read or anything is allocated:
//! - `--max-cells` ([`RunOptions::max_cells`], default [`DEFAULT_MAX_CELLS`] = 2^22): N x
//!   M; no side may pass 4096.
//! - `--memory-mib` ([`RunOptions::memory_mib`], default 1024): the search needs at most
//!   [`BYTES_PER_CELL`] (160) bytes a cell, measured on open rooms (the worst case: every
//!   cell floor), so a board whose N x M x 160 bytes passes the budget is refused. With the
//!   defaults the cell budget binds first (2^22 cells need 640 MiB); the memory budget
//!   binds when `--max-cells` is raised.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

use std::io::{BufRead, Write};
use std::path::PathBuf;

use grid_core::limits::Limits;

mod bound;
mod detour;
#[cfg(feature = "generate")]
#[doc(hidden)]
pub mod generate;
mod parse;
mod path;
mod problem;
mod search;
mod show;
mod solve;
mod svg;
mod verify;
mod walk;

pub use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB};
pub use grid_core::{
    BoardError, CellError, CellId, Dir, ErrorKind, Grid, Move, ParseError, ReplayError, RunError,
    exit_code,
};
pub use parse::BYTES_PER_CELL;
pub use path::Path;
pub use problem::Puzzle;
pub use solve::{Options, Solution, SolveError, solve};
pub use verify::replay;

/// What the workspace's tests and fuzz targets reach besides the front door (feature
/// `internals`): not part of the library's promise.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::parse::{read_puzzle, read_puzzle_within};
    pub use crate::search::Solver;
    pub use crate::show::write_pushes;
    pub use crate::svg::write_svg;
    pub use crate::verify::replay_moves;
}

/// What to print besides the answer, and how large a board to accept: the flags of the
/// `sokoban-steps` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// Print a second line: the smallest optimal step sequence (`nswe` walks, `NSWE`
    /// pushes), empty when the box starts on the target, absent when the answer is `-1`.
    pub path: bool,
    /// Print the start board and the board after every push of that sequence.
    pub show: bool,
    /// Where to save the answer as an animated picture (`--svg FILE`).
    pub svg: Option<PathBuf>,
    /// Refuse boards of more than this many cells (N x M), before reading their rows.
    pub max_cells: u64,
    /// Refuse, before reading its rows, a board whose search would need more than this
    /// many MiB (`--memory-mib`).
    pub memory_mib: u64,
}

impl Default for RunOptions {
    /// No path, no boards, no picture, [`DEFAULT_MAX_CELLS`], [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        RunOptions {
            path: false,
            show: false,
            svg: None,
            max_cells: DEFAULT_MAX_CELLS,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// Reads the one case of `input`, solves it and writes the answer line (`-1` when
/// unsolvable), then with the options the path line and the boards; flushes `output`;
/// saves the picture ([`RunOptions::svg`]); then checks that only blank lines follow.
///
/// # Errors
/// [`RunError::Input`] with a located error for malformed input: nothing is written for a
/// malformed case, but content after a good case (a second case, say) is reported after
/// its answer is written and flushed, as the multi-case programs keep the answers before a
/// bad case. [`RunError::Output`] when writing fails, [`RunError::Picture`] when the
/// picture file cannot be written.
///
/// # Examples
/// ```
/// let mut out = Vec::new();
/// let options = sokoban_steps::RunOptions { path: true, ..Default::default() };
/// sokoban_steps::run("1 4\nX*.@\n".as_bytes(), &mut out, &options)?;
/// assert_eq!(out, b"2\nEE\n");
/// # Ok::<(), sokoban_steps::RunError>(())
/// ```
pub fn run(
    mut input: impl BufRead,
    output: &mut impl Write,
    options: &RunOptions,
) -> Result<(), RunError> {
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    let (puzzle, lines_read) = parse::read_case(&mut input, limits)?;
    let solve_options = Options {
        path: options.path || options.show || options.svg.is_some(),
        memory_mib: options.memory_mib,
    };
    // The reader refused at the header what the budget cannot hold, with its place.
    let solution = solve(&puzzle, &solve_options).map_err(
        |SolveError::Memory {
             budget_mib,
             need_mib,
         }| {
            let detail = format!("about {need_mib} MiB");
            ParseError::at(1, 1, ErrorKind::OverBudget { budget_mib, detail })
        },
    )?;
    let path = solution.as_ref().and_then(Solution::path);
    match &solution {
        None => writeln!(output, "-1")?,
        Some(solution) => {
            writeln!(output, "{}", solution.steps())?;
            if let (true, Some(path)) = (options.path, path) {
                writeln!(output, "{path}")?;
            }
            if let (true, Some(path)) = (options.show, path) {
                show::write_pushes(output, &puzzle, path)?;
            }
        }
    }
    output.flush()?;
    if let Some(file) = &options.svg {
        grid_core::svg::write_file(file, |out| svg::write_svg(out, &puzzle, path))?;
    }
    parse::expect_end(&mut input, lines_read)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str, options: &RunOptions) -> String {
        let mut out = Vec::new();
        run(text.as_bytes(), &mut out, options).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn samples() {
        let o = RunOptions::default();
        assert_eq!(answer("4 4\n....\n..*@\n....\n.X..\n", &o), "3\n");
        assert_eq!(
            answer("6 6\n...#..\n......\n#*##..\n..##.#\n..X...\n.@#...\n", &o),
            "11\n"
        );
    }

    #[test]
    fn path_line() {
        let o = RunOptions {
            path: true,
            ..RunOptions::default()
        };
        assert_eq!(answer("4 4\n....\n..*@\n....\n.X..\n", &o), "3\nnnE\n");
        assert_eq!(answer("1 3\nX@*\n", &o), "-1\n");
    }
}

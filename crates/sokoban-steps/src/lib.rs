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
//! is re-exported here. The lower-level [`Solver`] gives the count
//! ([`Solver::fewest_steps`]) and the path ([`Solver::smallest_path`]) from one set of
//! tables; [`show::write_pushes`] draws the boards after every push,
//! [`svg::write_svg`] the animated picture of a solution, and [`verify::replay`] checks
//! any sequence. [`run`] is the whole program.
//!
//! The search runs over (box cell, side of the box the player stands on) rather than over
//! (player, box) pairs: see [`search`].
//!
//! # Features
//! - `cli` (default): the `sokoban-steps` binary and its command-line parser (clap). A
//!   library user can leave it out: `sokoban-steps = { ..., default-features = false }`.
//! - `generate`: the seeded generators, for the workspace's tests and tools.
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

pub mod bound;
#[cfg(feature = "generate")]
pub mod generate;
pub mod parse;
pub mod path;
pub mod problem;
pub mod search;
pub mod show;
pub mod svg;
pub mod verify;
pub mod walk;

pub use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB};
pub use grid_core::{BoardError, Move, Position, ReplayError};
pub use grid_core::{CellError, CellId, Dir, ErrorKind, Grid, ParseError, RunError, exit_code};
pub use parse::{BYTES_PER_CELL, read_puzzle, read_puzzle_within};
pub use path::Path;
pub use problem::{Options, Puzzle, Solution, SolveError, solve};
pub use search::Solver;

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
    let mut solver = Solver::new(&puzzle);
    let mut path = None;
    if options.path || options.show || options.svg.is_some() {
        path = solver.smallest_path();
        match &path {
            None => writeln!(output, "-1")?,
            Some(path) => {
                writeln!(output, "{}", path.0.len())?;
                if options.path {
                    writeln!(output, "{path}")?;
                }
                if options.show {
                    show::write_pushes(output, &puzzle, path)?;
                }
            }
        }
    } else {
        match solver.fewest_steps() {
            Some(steps) => writeln!(output, "{steps}")?,
            None => writeln!(output, "-1")?,
        }
    }
    output.flush()?;
    if let Some(file) = &options.svg {
        grid_core::svg::write_file(file, |out| svg::write_svg(out, &puzzle, path.as_ref()))?;
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

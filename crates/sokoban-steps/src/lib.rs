//! Single-box Sokoban, fewest player steps: every step counts, pushing or not, and the game
//! ends the moment the box stands on the target (format and rules: `docs/sokoban-steps.md`).
//!
//! The library reads the one case of an input ([`read_puzzle`]), finds the fewest steps
//! ([`Solver::fewest_steps`]), optionally the smallest optimal step sequence
//! ([`Solver::smallest_path`]) and the boards after every push ([`show::write_pushes`]), and
//! checks any sequence ([`verify::replay`]). [`run`] ties them together as the binary does.
//!
//! The search runs over (box cell, side of the box the player stands on) rather than over
//! (player, box) pairs: see [`search`].
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, are checked on the
//! header before any row is read or anything is allocated:
//! - `--max-cells` ([`Options::max_cells`], default 2^22): N x M; no side may pass 4096.
//! - `--memory-mib` ([`Options::memory_mib`], default 1024): the search needs at most
//!   [`BYTES_PER_CELL`] (160) bytes a cell, measured on open rooms (the worst case: every
//!   cell floor), so a board whose N x M x 160 bytes passes the budget is refused. With the
//!   defaults the cell budget binds first (2^22 cells need 640 MiB); the memory budget
//!   binds when `--max-cells` is raised.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

use std::io::{BufRead, Write};

use grid_core::RunError;
use grid_core::limits::{DEFAULT_MEMORY_MIB, Limits};

pub mod bound;
pub mod generate;
pub mod parse;
pub mod path;
pub mod search;
pub mod show;
pub mod verify;
pub mod walk;

pub use parse::{BYTES_PER_CELL, DEFAULT_MAX_CELLS, Puzzle, read_puzzle, read_puzzle_within};
pub use path::{Move, Path};
pub use search::Solver;

/// What to print besides the answer, and how large a board to accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Print a second line: the smallest optimal step sequence (`nswe` walks, `NSWE`
    /// pushes), empty when the box starts on the target, absent when the answer is `-1`.
    pub path: bool,
    /// Print the start board and the board after every push of that sequence.
    pub show: bool,
    /// Refuse boards of more than this many cells (N x M), before reading their rows.
    pub max_cells: usize,
    /// Refuse, before reading its rows, a board whose search would need more than this
    /// many MiB (`--memory-mib`).
    pub memory_mib: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            path: false,
            show: false,
            max_cells: DEFAULT_MAX_CELLS,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// The fewest steps for `puzzle`, or `None` when the box can never reach the target.
///
/// # Complexity
/// See [`search`].
pub fn fewest_steps(puzzle: &Puzzle) -> Option<u32> {
    Solver::new(puzzle).fewest_steps()
}

/// The smallest optimal step sequence for `puzzle` (N < S < W < E), or `None` when the box
/// can never reach the target.
///
/// # Complexity
/// See [`path`].
pub fn smallest_path(puzzle: &Puzzle) -> Option<Path> {
    Solver::new(puzzle).smallest_path()
}

/// Reads the one case of `input`, solves it and writes the answer line (`-1` when
/// unsolvable), then with the options the path line and the boards; flushes `output`;
/// then checks that only blank lines follow.
///
/// # Errors
/// [`RunError::Input`] with a located error for malformed input: nothing is written for a
/// malformed case, but content after a good case (a second case, say) is reported after
/// its answer is written and flushed, as the multi-case programs keep the answers before a
/// bad case. [`RunError::Output`] when writing fails.
pub fn run(
    mut input: impl BufRead,
    output: &mut impl Write,
    options: &Options,
) -> Result<(), RunError> {
    let limits = Limits {
        max_cells: options.max_cells as u64,
        memory_mib: options.memory_mib,
    };
    let (puzzle, lines_read) = parse::read_case(&mut input, limits)?;
    let mut solver = Solver::new(&puzzle);
    if options.path || options.show {
        match solver.smallest_path() {
            None => writeln!(output, "-1")?,
            Some(path) => {
                writeln!(output, "{}", path.0.len())?;
                if options.path {
                    writeln!(output, "{path}")?;
                }
                if options.show {
                    show::write_pushes(output, &puzzle, &path)?;
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
    parse::expect_end(&mut input, lines_read)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str, options: &Options) -> String {
        let mut out = Vec::new();
        run(text.as_bytes(), &mut out, options).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn samples() {
        let o = Options::default();
        assert_eq!(answer("4 4\n....\n..*@\n....\n.X..\n", &o), "3\n");
        assert_eq!(
            answer("6 6\n...#..\n......\n#*##..\n..##.#\n..X...\n.@#...\n", &o),
            "11\n"
        );
    }

    #[test]
    fn path_line() {
        let o = Options {
            path: true,
            ..Options::default()
        };
        assert_eq!(answer("4 4\n....\n..*@\n....\n.X..\n", &o), "3\nnnE\n");
        assert_eq!(answer("1 3\nX@*\n", &o), "-1\n");
    }
}

//! Single-box Sokoban, fewest player steps: every step counts, pushing or not, and the game
//! ends the moment the box stands on the target (spec: `shared/specs/sokoban-steps.md`).
//!
//! The library reads the one case of an input ([`read_puzzle`]), finds the fewest steps
//! ([`Solver::fewest_steps`]), optionally the smallest optimal step sequence
//! ([`Solver::smallest_path`]) and the boards after every push ([`show::write_pushes`]), and
//! checks any sequence ([`verify::replay`]). [`run`] ties them together as the binary does.
//!
//! The search runs over (box cell, side of the box the player stands on) rather than over
//! (player, box) pairs: see [`search`].

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

use std::io::{BufRead, Write};

use grid_core::RunError;

pub mod bound;
pub mod generate;
pub mod parse;
pub mod path;
pub mod search;
pub mod show;
pub mod verify;
pub mod walk;

pub use parse::{DEFAULT_MAX_CELLS, Puzzle, read_puzzle};
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            path: false,
            show: false,
            max_cells: DEFAULT_MAX_CELLS,
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
/// unsolvable), then with the options the path line and the boards; flushes `output`.
///
/// # Errors
/// [`RunError::Input`] with a located error for malformed input (nothing is written then);
/// [`RunError::Output`] when writing fails.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    options: &Options,
) -> Result<(), RunError> {
    let puzzle = read_puzzle(input, options.max_cells)?;
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

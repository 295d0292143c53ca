//! The library's front door: a [`Puzzle`] (parsed from text or built from coordinates),
//! the [`Options`] of one search, and [`solve`], which returns a [`Solution`].
//!
//! Why a layer of its own: the search works on cell numbers and trusts its input; a
//! caller speaks in rows and columns. This module checks once, at construction, what a
//! caller can get wrong, so every [`Puzzle`] is one the text format could have written.

use std::str::FromStr;

use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB, MIB};
use grid_core::{Board, BoardError, CellId, Grid, Notation, ParseError};

use crate::parse::{BYTES_PER_CELL, read_puzzle};
use crate::path::Path;
use crate::search::Solver;

/// One single-box Sokoban case: the board and where the player, the box and the target
/// start.
///
/// Every value of this type is valid: the three markers stand on three different floor
/// cells, as in the text format (one character per cell).
///
/// # Examples
/// From text, in the input format (`N M`, then N rows of `. # X * @`):
/// ```
/// let puzzle: sokoban_steps::Puzzle = "1 4\nX*.@\n".parse()?;
/// assert_eq!(puzzle.grid().position(puzzle.target()), (0, 3));
/// # Ok::<(), sokoban_steps::ParseError>(())
/// ```
/// From coordinates, `(row, col)` from 0 at the top left:
/// ```
/// use sokoban_steps::{Grid, Puzzle};
///
/// let grid = Grid::new(1, 4, |_, _| true);
/// let puzzle = Puzzle::new(grid, (0, 0), (0, 1), (0, 3))?;
/// assert_eq!(puzzle.to_text(), "1 4\nX*.@\n");
/// # Ok::<(), sokoban_steps::BoardError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The floor and the three markers, in this format's letters ([`NOTATION`]).
    pub(crate) board: Board,
}

/// The letters of this format: the player `X`, the box `*`, the target `@` (on the frames
/// too: nothing else stands on the target while the game goes on).
pub(crate) static NOTATION: Notation = Notation {
    letters: ['X', '*', '@'],
    names: ["the player 'X'", "the box '*'", "the target '@'"],
    box_on_target: '*',
    player_on_target: 'X',
};

impl Puzzle {
    /// The puzzle on `grid` (its cells are the floor) with the player, the box and the
    /// target at the given `(row, col)`, from 0 at the top left.
    ///
    /// # Errors
    /// A [`BoardError`] when a marker is outside the grid or on a wall, or two markers
    /// share a cell (the box on the target included).
    ///
    /// # Complexity
    /// O(1).
    pub fn new(
        grid: Grid,
        player: (usize, usize),
        box_cell: (usize, usize),
        target: (usize, usize),
    ) -> Result<Puzzle, BoardError> {
        Board::new(grid, player, box_cell, target, &NOTATION).map(|board| Puzzle { board })
    }

    /// The floor cells and how they connect (walls and the outside are not cells).
    pub fn grid(&self) -> &Grid {
        self.board.grid()
    }

    /// The player's start.
    pub fn player(&self) -> CellId {
        self.board.player()
    }

    /// The box's start.
    pub fn box_cell(&self) -> CellId {
        self.board.box_cell()
    }

    /// The target.
    pub fn target(&self) -> CellId {
        self.board.target()
    }

    /// The case in the input format (`N M`, then the rows), ending with a newline.
    pub fn to_text(&self) -> String {
        self.board.to_text()
    }

    /// The board model the replay, the frames and the picture work on.
    pub(crate) fn board(&self) -> &Board {
        &self.board
    }
}

/// Parses the one case of the text (blank lines around it are fine), with the default
/// cell budget and no memory check (that is [`solve`]'s business).
///
/// # Errors
/// As [`read_puzzle`]: the located [`ParseError`] the program would print.
impl FromStr for Puzzle {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        read_puzzle(text.as_bytes(), DEFAULT_MAX_CELLS)
    }
}

/// What one search computes and how much memory it may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Also find the smallest optimal step sequence ([`Solution::path`]).
    pub path: bool,
    /// Memory the search may use, in MiB (`--memory-mib`): a board whose N x M x
    /// [`BYTES_PER_CELL`] bytes pass it is refused.
    pub memory_mib: u64,
}

impl Default for Options {
    /// No path, [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        Options {
            path: false,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// The answer for a solvable puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    steps: u32,
    path: Option<Path>,
}

impl Solution {
    /// The fewest player steps, walks and pushes alike.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// When [`Options::path`] asked for it: the optimal step sequence smallest by
    /// N < S < W < E, `steps()` moves long.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_ref()
    }
}

/// Why [`solve`] refused a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The search's tables would pass [`Options::memory_mib`].
    #[error(
        "solving this puzzle needs about {need_mib} MiB, more than the memory budget of {budget_mib} MiB"
    )]
    OverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// The estimated need, in MiB (rounded up).
        need_mib: u64,
    },
}

/// The fewest player steps that bring the box of `puzzle` onto the target, and with
/// [`Options::path`] the smallest optimal step sequence; `Ok(None)` when the box can
/// never reach the target.
///
/// # Examples
/// ```
/// let puzzle: sokoban_steps::Puzzle = "4 4\n....\n..*@\n....\n.X..\n".parse()?;
/// let options = sokoban_steps::Options { path: true, ..Default::default() };
/// let solution = sokoban_steps::solve(&puzzle, &options)?.expect("solvable");
/// assert_eq!(solution.steps(), 3);
/// assert_eq!(solution.path().map(ToString::to_string).as_deref(), Some("nnE"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::OverBudget`] when the board's N x M x [`BYTES_PER_CELL`] bytes pass
/// [`Options::memory_mib`].
///
/// # Complexity
/// A* over (box cell, side) states: see [`crate::search`] and [`crate::path`].
pub fn solve(puzzle: &Puzzle, options: &Options) -> Result<Option<Solution>, SolveError> {
    let grid = puzzle.grid();
    let need = (grid.height() as u64)
        .saturating_mul(grid.width() as u64)
        .saturating_mul(BYTES_PER_CELL);
    if need > options.memory_mib.saturating_mul(MIB) {
        return Err(SolveError::OverBudget {
            budget_mib: options.memory_mib,
            need_mib: need.div_ceil(MIB),
        });
    }
    let mut solver = Solver::new(puzzle);
    Ok(if options.path {
        solver.smallest_path().map(|path| Solution {
            steps: path.0.len() as u32,
            path: Some(path),
        })
    } else {
        solver
            .fewest_steps()
            .map(|steps| Solution { steps, path: None })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constructor_refuses_what_the_format_cannot_hold() {
        // .#..
        let grid = || Grid::new(1, 4, |_, col| col != 1);
        let e = |p, b, t| Puzzle::new(grid(), p, b, t).unwrap_err().to_string();
        assert_eq!(
            e((0, 1), (0, 2), (0, 3)),
            "the player 'X': (0, 1) is a wall"
        );
        assert_eq!(
            e((0, 0), (1, 2), (0, 3)),
            "the box '*': (1, 2) is outside the 1 x 4 grid"
        );
        assert_eq!(
            e((0, 0), (0, 3), (0, 3)),
            "the box starts on the target at (0, 3): the format needs them apart"
        );
        assert_eq!(
            e((0, 2), (0, 2), (0, 3)),
            "the box '*' and the player 'X' are both at (0, 2)"
        );
        assert_eq!(
            e((0, 3), (0, 2), (0, 3)),
            "the target '@' and the player 'X' are both at (0, 3)"
        );
        let built = Puzzle::new(grid(), (0, 0), (0, 2), (0, 3)).unwrap();
        assert_eq!(built, "1 4\nX#*@\n".parse().unwrap());
        let solution = solve(&built, &Options::default()).unwrap();
        assert_eq!(solution, None, "X is walled off");
    }

    #[test]
    fn a_tiny_budget_is_a_typed_error() {
        let maze: Puzzle = "1 4\nX*.@\n".parse().unwrap();
        assert_eq!(
            solve(
                &maze,
                &Options {
                    path: true,
                    memory_mib: 0
                }
            ),
            Err(SolveError::OverBudget {
                budget_mib: 0,
                need_mib: 1
            })
        );
    }
}

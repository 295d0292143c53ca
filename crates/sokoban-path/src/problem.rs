//! The library's front door: a [`Maze`] (parsed from text or built from coordinates),
//! the [`Options`] of one search, and [`solve`], which returns a [`Solution`].
//!
//! Why a layer of its own: the search works on cell numbers and trusts its input; a
//! caller speaks in rows and columns. This module checks once, at construction, what a
//! caller can get wrong, so every [`Maze`] is one the text format could have written.

use std::str::FromStr;

use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB, Limits, MIB};
use grid_core::{Board, BoardError, CaseReader, CellId, ErrorKind, Grid, Notation, ParseError};

use crate::parse::{BYTES_PER_CELL, read_maze_within};
use crate::search::{Solution, Solver};

/// One maze: its floor cells and where the person, the box and the target start.
///
/// Every value of this type is valid: the three markers stand on three different floor
/// cells, as in the text format (one character per cell).
///
/// # Examples
/// From text, in the input format (`N M`, then N rows of `. # S B T`):
/// ```
/// let maze: sokoban_path::Maze = "1 4\nSB.T\n".parse()?;
/// assert_eq!(maze.grid().position(maze.target()), (0, 3));
/// # Ok::<(), sokoban_path::ParseError>(())
/// ```
/// From coordinates, `(row, col)` from 0 at the top left:
/// ```
/// use sokoban_path::{Grid, Maze};
///
/// let grid = Grid::new(1, 4, |_, _| true);
/// let maze = Maze::new(grid, (0, 0), (0, 1), (0, 3))?;
/// assert_eq!(maze.box_start().index(), 1);
/// # Ok::<(), sokoban_path::BoardError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maze {
    /// The floor and the three markers, in this format's letters ([`NOTATION`]).
    pub(crate) board: Board,
}

/// The letters of this format: the person `S`, the box `B`, the target `T`; on the
/// `--show` frames `*` is the box on the target and `+` the person on it.
pub(crate) static NOTATION: Notation = Notation {
    letters: ['S', 'B', 'T'],
    names: ["the person 'S'", "the box 'B'", "the target 'T'"],
    box_on_target: '*',
    player_on_target: '+',
};

impl Maze {
    /// The maze on `grid` (its cells are the floor) with the person, the box and the
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
        person: (usize, usize),
        box_start: (usize, usize),
        target: (usize, usize),
    ) -> Result<Maze, BoardError> {
        Board::new(grid, person, box_start, target, &NOTATION).map(|board| Maze { board })
    }

    /// The floor cells and how they connect.
    pub fn grid(&self) -> &Grid {
        self.board.grid()
    }

    /// Where the person starts.
    pub fn person(&self) -> CellId {
        self.board.player()
    }

    /// Where the box starts.
    pub fn box_start(&self) -> CellId {
        self.board.box_cell()
    }

    /// The target.
    pub fn target(&self) -> CellId {
        self.board.target()
    }

    /// The board model the replay, the frames and the picture work on.
    pub(crate) fn board(&self) -> &Board {
        &self.board
    }
}

/// Parses exactly one maze in the input format, optionally followed by the terminator
/// `0 0`, with the default cell budget and no memory check (that is [`solve`]'s
/// business).
///
/// # Errors
/// The located [`ParseError`] the program would print, and one for a text with no maze
/// or with a second one.
impl FromStr for Maze {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Maze, ParseError> {
        let mut reader = CaseReader::new(text.as_bytes());
        let Some(maze) = read_maze_within(&mut reader, Limits::cells_only(DEFAULT_MAX_CELLS))?
        else {
            return Err(ParseError::at(
                reader.line().max(1),
                1,
                ErrorKind::Missing {
                    what: "maze before the end or the terminator `0 0`".to_owned(),
                },
            ));
        };
        match reader.header(["number of rows", "number of columns"])? {
            Some(next) if !next.is_terminator() => Err(next.error_at(
                0,
                ErrorKind::Unexpected {
                    expected: "the end of the text (it holds one maze)".to_owned(),
                    found: "a second maze".to_owned(),
                },
            )),
            _ => Ok(maze),
        }
    }
}

/// How much memory one search may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Memory the search may use, in MiB (`--memory-mib`): a maze whose rows x columns x
    /// [`BYTES_PER_CELL`] bytes pass it is refused.
    pub memory_mib: u64,
}

impl Default for Options {
    /// [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        Options {
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// Why [`solve`] refused a maze.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The search's tables would pass [`Options::memory_mib`].
    #[error(
        "solving this maze needs about {need_mib} MiB, more than the memory budget of {budget_mib} MiB"
    )]
    OverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// The estimated need, in MiB (rounded up).
        need_mib: u64,
    },
}

/// The answer for `maze` under the spec's four keys (fewest pushes, then fewest walks,
/// then the smallest push string, then the smallest walk string), or `Ok(None)` when no
/// move string solves it.
///
/// For many mazes, the program keeps one [`Solver`] and reuses its buffers.
///
/// # Examples
/// ```
/// let maze: sokoban_path::Maze = "3 4\nS...\n.B..\n...T\n".parse()?;
/// let solution = sokoban_path::solve(&maze, &sokoban_path::Options::default())?;
/// let solution = solution.expect("solvable");
/// assert_eq!(solution.moves(), "eSwsEE"); // walks e, w, s; pushes S, E, E
/// assert_eq!((solution.pushes(), solution.walks()), (3, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::OverBudget`] when the grid's rows x columns x [`BYTES_PER_CELL`] bytes
/// pass [`Options::memory_mib`].
///
/// # Complexity
/// See [`crate::search`]: O(cells^2) in the worst case, near O(cells) on open rooms.
pub fn solve(maze: &Maze, options: &Options) -> Result<Option<Solution>, SolveError> {
    let grid = maze.grid();
    let need = (grid.height() as u64)
        .saturating_mul(grid.width() as u64)
        .saturating_mul(BYTES_PER_CELL);
    if need > options.memory_mib.saturating_mul(MIB) {
        return Err(SolveError::OverBudget {
            budget_mib: options.memory_mib,
            need_mib: need.div_ceil(MIB),
        });
    }
    Ok(Solver::new().solve(maze))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constructor_refuses_what_the_format_cannot_hold() {
        // .#..
        let grid = || Grid::new(1, 4, |_, col| col != 1);
        let e = |p, b, t| Maze::new(grid(), p, b, t).unwrap_err().to_string();
        assert_eq!(
            e((0, 1), (0, 2), (0, 3)),
            "the person 'S': (0, 1) is a wall"
        );
        assert_eq!(
            e((0, 0), (1, 2), (0, 3)),
            "the box 'B': (1, 2) is outside the 1 x 4 grid"
        );
        assert_eq!(
            e((0, 0), (0, 3), (0, 3)),
            "the box starts on the target at (0, 3): the format needs them apart"
        );
        assert_eq!(
            e((0, 2), (0, 2), (0, 3)),
            "the box 'B' and the person 'S' are both at (0, 2)"
        );
        assert_eq!(
            e((0, 3), (0, 2), (0, 3)),
            "the target 'T' and the person 'S' are both at (0, 3)"
        );
        let built = Maze::new(grid(), (0, 0), (0, 2), (0, 3)).unwrap();
        assert_eq!(built, "1 4\nS#BT\n".parse().unwrap());
        let moves = solve(&built, &Options::default()).unwrap();
        assert_eq!(moves.as_ref().map(Solution::moves), None, "S is walled off");
    }

    #[test]
    fn parsing_wants_exactly_one_maze() {
        let e = |text: &str| text.parse::<Maze>().unwrap_err().to_string();
        assert_eq!(
            e("0 0\n"),
            "line 1, column 1: this case has no maze before the end or the terminator `0 0`"
        );
        assert_eq!(
            e("1 3\nSBT\n1 3\nSBT\n"),
            "line 3, column 1: expected the end of the text (it holds one maze), found a \
             second maze"
        );
        assert!("1 3\nSBT\n0 0\n".parse::<Maze>().is_ok());
    }

    #[test]
    fn a_tiny_budget_is_a_typed_error() {
        let maze: Maze = "1 4\nSB.T\n".parse().unwrap();
        assert_eq!(
            solve(&maze, &Options { memory_mib: 0 }),
            Err(SolveError::OverBudget {
                budget_mib: 0,
                need_mib: 1
            })
        );
    }
}

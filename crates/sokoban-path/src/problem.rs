//! The problem: a [`Maze`] and its validating constructor, on grid-core's single-box
//! [`Board`] in this format's letters.
//!
//! Why a layer of its own: the search works on cell numbers and trusts its input; a
//! caller speaks in rows and columns. This module checks once, at construction, what a
//! caller can get wrong, so every [`Maze`] is one the text format could have written. It
//! stands at the bottom of the crate: the reader, the search and the drawings build on it.

use grid_core::{Board, BoardError, CellId, Grid, Notation};

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
        assert_eq!(built.board().to_text(), "1 4\nS#BT\n");
    }
}

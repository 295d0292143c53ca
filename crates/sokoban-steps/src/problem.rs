//! The problem: a [`Puzzle`] and its validating constructor, on grid-core's single-box
//! [`Board`] in this format's letters.
//!
//! Why a layer of its own: the search works on cell numbers and trusts its input; a
//! caller speaks in rows and columns. This module checks once, at construction, what a
//! caller can get wrong, so every [`Puzzle`] is one the text format could have written. It
//! stands at the bottom of the crate: the reader, the searches and the drawings build on
//! it.

use grid_core::{Board, BoardError, CellId, Grid, Notation};

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
        assert_eq!(built.to_text(), "1 4\nX#*@\n");
    }
}

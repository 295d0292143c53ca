//! Reading one maze of the input: the `N M` header, the rows, and the three markers.
//!
//! Why this shape: [`grid_core::CaseReader`] already locates every malformed line; this
//! module adds only what is particular to this format (the alphabet `. # S B T`, one of
//! each marker) and the size limits, checked on the header before anything is allocated.
//!
//! # Complexity
//! O(N x M) per maze, and memory proportional to the rows actually read.

use std::io::BufRead;
use std::str::FromStr;

use grid_core::limits::{DEFAULT_MAX_CELLS, Limits, SizeFields, grid_size};
use grid_core::{Board, CaseReader, ErrorKind, Grid, ParseError, RowEnd};

use crate::problem::{Maze, NOTATION};

/// The memory a maze's search needs per cell (walls included, since only the header is
/// known when it is checked): the maze read, the cell numbering, the blocks, and the four
/// per-state tables of the search (4 states a cell). Measured: a 1000 x 1000 open
/// room peaks at 190 MB (193 bytes a cell), a 500 x 500 one at 49 MB; mazes with walls
/// need less.
pub const BYTES_PER_CELL: u64 = 200;

/// Where the maze's size stands in the `N M` header.
const SIZE: SizeFields<'static> = SizeFields {
    rows: 0,
    rows_name: "the number of rows",
    cols: 1,
    cols_name: "the number of columns",
};

#[cfg(any(test, feature = "internals"))]
/// Reads the next maze, or `Ok(None)` at the terminator line `0 0` or at end of input.
///
/// `max_cells` bounds rows x columns; the error for a larger header says how to raise it.
///
/// # Errors
/// As [`read_maze_within`], without the memory check.
pub fn read_maze<R: BufRead>(
    reader: &mut CaseReader<R>,
    max_cells: u64,
) -> Result<Option<Maze>, ParseError> {
    read_maze_within(reader, Limits::cells_only(max_cells))
}

/// Reads the next maze, refusing from its header alone (before reading its rows or
/// allocating anything) a maze above `limits.max_cells` cells or one whose search
/// ([`BYTES_PER_CELL`] bytes a cell) would not fit in `limits.memory_mib`. `Ok(None)` at
/// the terminator line `0 0` or at end of input.
///
/// # Errors
/// A located [`ParseError`] for a malformed header, a size or memory need beyond the
/// limits, a short or long row, a cut-off maze, an unknown character, or a missing or
/// repeated marker.
pub fn read_maze_within<R: BufRead>(
    reader: &mut CaseReader<R>,
    limits: Limits,
) -> Result<Option<Maze>, ParseError> {
    let Some(header) = reader.header(["number of rows", "number of columns"])? else {
        return Ok(None);
    };
    if header.is_terminator() {
        return Ok(None);
    }
    let size = grid_size(&header, SIZE, limits.max_cells)?;
    size.check_memory(BYTES_PER_CELL, limits.memory_mib)?;
    let (rows, cols) = (size.rows, size.cols);
    let chars = reader.grid(rows, cols, RowEnd::TrimTrailingSpaces)?;
    for (row, col, byte) in chars.cells() {
        if !matches!(byte, b'.' | b'#' | b'S' | b'B' | b'T') {
            return Err(chars.unexpected(row, col, "one of '.', '#', 'S', 'B', 'T'"));
        }
    }
    let person = chars.unique(b'S', "person 'S'", header.line)?;
    let box_start = chars.unique(b'B', "box 'B'", header.line)?;
    let target = chars.unique(b'T', "target 'T'", header.line)?;
    let grid = Grid::from_chars(&chars, |b| b != b'#');
    let at = |(row, col): (usize, usize)| grid.cell(row, col);
    // The markers are floor, so they are cells of the grid.
    let (Some(person), Some(box_start), Some(target)) = (at(person), at(box_start), at(target))
    else {
        return Err(ParseError::at(
            header.line,
            1,
            ErrorKind::Missing {
                what: "floor under a marker".to_owned(),
            },
        ));
    };
    // Three different letters, so three different cells.
    let board = Board::from_cells(grid, [person, box_start, target], &NOTATION);
    Ok(Some(Maze { board }))
}

/// Parses exactly one maze in the input format, optionally followed by the terminator
/// `0 0`, with the default cell budget and no memory check (that is
/// [`solve`](crate::solve)'s business).
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

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> Result<Option<Maze>, ParseError> {
        read_maze(&mut CaseReader::new(text.as_bytes()), DEFAULT_MAX_CELLS)
    }

    #[test]
    fn reads_markers_and_floor() {
        let maze = first("2 3\nSB#\n..T  \n0 0\n").unwrap().unwrap();
        let grid = maze.grid();
        assert_eq!(grid.cell_count(), 5);
        assert_eq!(grid.position(maze.person()), (0, 0));
        assert_eq!(grid.position(maze.box_start()), (0, 1));
        assert_eq!(grid.position(maze.target()), (1, 2));
        assert_eq!(first("0 0\n").unwrap(), None);
        assert_eq!(first("").unwrap(), None);
    }

    #[test]
    fn errors_are_located() {
        let e = |t: &str| first(t).unwrap_err().to_string();
        assert_eq!(
            e("1 3\nSBx\n"),
            "line 2, column 3: expected one of '.', '#', 'S', 'B', 'T', found 'x'"
        );
        assert_eq!(
            e("1 3\nSB.\n"),
            "line 1, column 1: this case has no target 'T'"
        );
        assert_eq!(
            e("1 4\nSBTS\n"),
            "line 2, column 4: person 'S' appears again (first at line 2, column 1)"
        );
        assert_eq!(
            e("5000 1\n"),
            "line 1, column 1: the number of rows is 5000, above the limit of 4096 per side"
        );
        assert_eq!(
            e("4000 4000\n"),
            "line 1, column 1: the number of cells (4000 rows x 4000 columns) is 16000000, \
             above the limit of 4194304; raise it with --max-cells"
        );
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
}

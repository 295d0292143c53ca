//! The input format: a header `N M`, then N rows of `. # X * @`, exactly one case.
//!
//! Why this shape: the grid-core reader already locates every malformed header and row, so
//! this module only adds what is particular to the format: the five cell characters, the
//! three unique markers, the size budget checked before any row is read, and the rule
//! that nothing but blank lines may follow the one case.
//!
//! # Complexity
//! O(N x M) time; memory grows with the rows actually read, never with the sizes claimed.

use std::io::BufRead;
use std::str::FromStr;

use grid_core::limits::{DEFAULT_MAX_CELLS, Limits, SizeFields, grid_size};
use grid_core::{Board, CaseReader, ErrorKind, Grid, ParseError, RowEnd, describe_char_at};

use crate::problem::{NOTATION, Puzzle};

/// The memory a case's search needs per cell (walls included, since only the header is
/// known when it is checked): the board read, the cell numbering, the blocks, the cached
/// walks, the bound and the per-state tables (4 states a cell), with room for the heap.
/// Measured on a 1000 x 1000 open room (the worst case: every cell floor): 112 MB for the
/// count, 138 MB with `--path` (a 500 x 500 one: 30 MB and 36 MB).
pub const BYTES_PER_CELL: u64 = 160;

/// Where the board's size stands in the `N M` header.
const SIZE: SizeFields<'static> = SizeFields {
    rows: 0,
    rows_name: "the number of rows N",
    cols: 1,
    cols_name: "the number of columns M",
};

/// Reads the one case of `input`, refusing a header above `max_cells` cells (N x M) before
/// reading any row.
///
/// Blank lines before the header and after the last row are fine; any other byte after the
/// case is an error: the format holds exactly one case, and silently ignoring a second grid
/// would answer a question nobody asked.
///
/// # Errors
/// A located [`ParseError`]: an empty input (line 1, column 1, or the line after the
/// blank ones), a bad header, a size above the limits, a short or long row, a character
/// other than `. # X * @`, a missing or repeated `X`, `*` or `@`, trailing content.
///
/// # Complexity
/// O(N x M + length of the input).
pub fn read_puzzle(input: impl BufRead, max_cells: u64) -> Result<Puzzle, ParseError> {
    read_puzzle_within(input, Limits::cells_only(max_cells))
}

/// Reads the one case of `input` as [`read_puzzle`] does, also refusing from the header
/// alone (before any row is read or anything allocated) a board whose search
/// ([`BYTES_PER_CELL`] bytes a cell) would not fit in `limits.memory_mib`.
///
/// # Errors
/// As [`read_puzzle`], and the memory refusal located at the header.
///
/// # Complexity
/// O(N x M + length of the input).
pub fn read_puzzle_within(mut input: impl BufRead, limits: Limits) -> Result<Puzzle, ParseError> {
    let (puzzle, lines_read) = read_case(&mut input, limits)?;
    expect_end(&mut input, lines_read)?;
    Ok(puzzle)
}

/// Reads the case at the start of `input` with the checks of [`read_puzzle_within`] except
/// the last (that nothing follows), leaving the rest of `input` unread; returns the puzzle
/// and the number of lines read, for [`expect_end`]. [`crate::run`] answers the case before
/// it checks the rest, so that its answer is out even when garbage follows.
///
/// # Errors
/// As [`read_puzzle_within`], but for trailing content.
///
/// # Complexity
/// O(N x M).
pub fn read_case(input: &mut impl BufRead, limits: Limits) -> Result<(Puzzle, usize), ParseError> {
    let mut reader = CaseReader::new(input);
    let Some(header) = reader.header(["number of rows N", "number of columns M"])? else {
        return Err(ParseError::at(
            reader.line() + 1,
            1,
            ErrorKind::Unexpected {
                expected: "a header `N M`".to_owned(),
                found: "end of input".to_owned(),
            },
        ));
    };
    let size = grid_size(&header, SIZE, limits.max_cells)?;
    size.check_memory(BYTES_PER_CELL, limits.memory_mib)?;
    let (height, width) = (size.rows, size.cols);
    let chars = reader.grid(height, width, RowEnd::TrimTrailingSpaces)?;
    for (row, col, byte) in chars.cells() {
        if !matches!(byte, b'.' | b'#' | b'X' | b'*' | b'@') {
            return Err(chars.unexpected(row, col, "one of . # X * @"));
        }
    }
    let player = chars.unique(b'X', "player 'X'", header.line)?;
    let box_cell = chars.unique(b'*', "box '*'", header.line)?;
    let target = chars.unique(b'@', "target '@'", header.line)?;
    let lines_read = reader.line();
    let grid = Grid::from_chars(&chars, |b| b != b'#');
    let cell = |(row, col): (usize, usize)| {
        grid.cell(row, col)
            .ok_or_else(|| chars.unexpected(row, col, "a floor cell"))
    };
    let (player, box_cell, target) = (cell(player)?, cell(box_cell)?, cell(target)?);
    // The three markers are three different characters, so three different cells.
    let puzzle = Puzzle {
        board: Board::from_cells(grid, [player, box_cell, target], &NOTATION),
    };
    Ok((puzzle, lines_read))
}

/// Checks that only whitespace is left in `input`, `lines_read` lines having been read.
///
/// # Errors
/// "expected end of input" located at the first other byte.
///
/// # Complexity
/// O(length of the rest), constant memory.
pub fn expect_end(mut input: impl BufRead, lines_read: usize) -> Result<(), ParseError> {
    let mut line = lines_read + 1;
    let mut column = 1;
    loop {
        let chunk = input
            .fill_buf()
            .map_err(|e| ParseError::at(line, column, ErrorKind::Io(e.to_string())))?;
        if chunk.is_empty() {
            return Ok(());
        }
        for (i, &byte) in chunk.iter().enumerate() {
            match byte {
                b'\n' => {
                    line += 1;
                    column = 1;
                }
                b' ' | b'\t' | b'\r' => column += 1,
                _ => {
                    return Err(ParseError::at(
                        line,
                        column,
                        ErrorKind::Unexpected {
                            expected: "end of input (the format holds one case)".to_owned(),
                            found: describe_char_at(&chunk[i..]),
                        },
                    ));
                }
            }
        }
        let len = chunk.len();
        input.consume(len);
    }
}

/// Parses the one case of the text (blank lines around it are fine), with the default
/// cell budget and no memory check (that is
/// [`solve`](crate::solve)'s business).
///
/// # Errors
/// The located [`ParseError`] the program would print.
impl FromStr for Puzzle {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        read_puzzle(text.as_bytes(), DEFAULT_MAX_CELLS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        read_puzzle(text.as_bytes(), 64).unwrap_err().to_string()
    }

    #[test]
    fn reads_a_case_with_blank_lines_around() {
        let p = read_puzzle("\n1 4 \r\nX*.@  \r\n\n  \n".as_bytes(), 64).unwrap();
        assert_eq!(p.grid().cell_count(), 4);
        assert_eq!(p.player().index(), 0);
        assert_eq!(p.box_cell().index(), 1);
        assert_eq!(p.target().index(), 3);
        assert_eq!(p.to_text(), "1 4\nX*.@\n");
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(
            error(""),
            "line 1, column 1: expected a header `N M`, found end of input"
        );
        assert_eq!(
            error("\n\n"),
            "line 3, column 1: expected a header `N M`, found end of input"
        );
        assert_eq!(
            error("1 3\nX*@\n1 3\n"),
            "line 3, column 1: expected end of input (the format holds one case), found '1'"
        );
        assert_eq!(
            error("1 3\nX*@\n\n  x"),
            "line 4, column 3: expected end of input (the format holds one case), found 'x'"
        );
        assert_eq!(
            error("1 3\nX+@\n"),
            "line 2, column 2: expected one of . # X * @, found '+'"
        );
        assert_eq!(
            error("1 3\nX.@\n"),
            "line 1, column 1: this case has no box '*'"
        );
        assert_eq!(
            error("10 10\n"),
            "line 1, column 1: the number of cells (10 rows x 10 columns) is 100, above the \
             limit of 64; raise it with --max-cells"
        );
        assert!(error("0 3\n").starts_with("line 1, column 1: expected the number of rows"));
        assert!(error("1 5000\n").starts_with("line 1, column 3: the number of columns M is"));
    }
}

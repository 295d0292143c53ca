//! Reading one dataset: the `w h n` header, then `h` rows of exactly `w` characters.

use std::io::BufRead;
use std::str::FromStr;

use grid_core::limits::{Limits, SizeFields, grid_size};
use grid_core::{CaseReader, ErrorKind, Grid, ParseError, RowEnd};

use crate::dataset::{Dataset, MAX_GHOSTS};

/// Memory the tables sized by the map need per cell, besides [`BYTES_PER_CELL_PER_GHOST`]:
/// the map read, the cell numbering, the move table and the direct table of visited
/// placements. Measured: a 1000 x 1000 open map with one ghost peaks at 57 MB.
pub const BYTES_PER_CELL: u64 = 56;

/// Memory each ghost adds per cell: its distance-to-home table (4 bytes a cell). Measured:
/// the same map with 26 ghosts peaks at 155 MB.
pub const BYTES_PER_CELL_PER_GHOST: u64 = 4;

/// Where the map's size stands in the `w h n` header.
const SIZE: SizeFields<'static> = SizeFields {
    rows: 1,
    rows_name: "the height",
    cols: 0,
    cols_name: "the width",
};

/// Reads the next dataset, refusing a map above `max_cells` cells before reading its rows.
/// `Ok(None)` at the terminator `0 0 0` or at the end of input (a missing terminator is
/// tolerated).
///
/// # Errors
/// As [`read_dataset_within`], without the memory check.
///
/// # Complexity
/// O(w x h).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn read_dataset<R: BufRead>(
    reader: &mut CaseReader<R>,
    max_cells: u64,
) -> Result<Option<Dataset>, ParseError> {
    read_dataset_within(reader, Limits::cells_only(max_cells))
}

/// Reads the next dataset, refusing from its header alone (before reading its rows or
/// allocating anything) a map above `limits.max_cells` cells or one whose per-cell tables
/// ([`BYTES_PER_CELL`] + n x [`BYTES_PER_CELL_PER_GHOST`] bytes a cell) would not fit in
/// `limits.memory_mib`. `Ok(None)` at the terminator `0 0 0` or at the end of input.
///
/// # Errors
/// A located [`ParseError`] for a malformed header, a size or memory need beyond the
/// limits, a short or long row, a cut-off map, a character other than `#`, a space or
/// the first n letters, or a missing or repeated letter.
///
/// # Complexity
/// O(w x h).
pub fn read_dataset_within<R: BufRead>(
    reader: &mut CaseReader<R>,
    limits: Limits,
) -> Result<Option<Dataset>, ParseError> {
    let Some(header) = reader.header(["width", "height", "number of ghosts"])? else {
        return Ok(None);
    };
    if header.is_terminator() {
        return Ok(None);
    }
    let size = grid_size(&header, SIZE, limits.max_cells)?;
    let ghosts = header.bounded(2, "the number of ghosts", 0, MAX_GHOSTS, "")?;
    size.check_memory(
        BYTES_PER_CELL + BYTES_PER_CELL_PER_GHOST * ghosts as u64,
        limits.memory_mib,
    )?;
    let (width, height) = (size.cols, size.rows);
    let chars = reader.grid(height, width, RowEnd::Exact)?;
    let last = (b'a' + ghosts as u8).wrapping_sub(1) as char;
    let expected = match ghosts {
        0 => "'#' or a space".to_owned(),
        1 => "'#', a space, 'a' or 'A'".to_owned(),
        _ => format!(
            "'#', a space, or a ghost letter a-{last} or A-{}",
            last.to_ascii_uppercase()
        ),
    };
    for (row, col, byte) in chars.cells() {
        let known = match byte {
            b'#' | b' ' => true,
            b'a'..=b'z' => usize::from(byte - b'a') < ghosts,
            b'A'..=b'Z' => usize::from(byte - b'A') < ghosts,
            _ => false,
        };
        if !known {
            return Err(chars.unexpected(row, col, &expected));
        }
    }
    let grid = Grid::from_chars(&chars, |b| b != b'#');
    let mut starts = Vec::with_capacity(ghosts);
    let mut homes = Vec::with_capacity(ghosts);
    for i in 0..ghosts as u8 {
        for (letter, list, role) in [
            (b'a' + i, &mut starts, "start"),
            (b'A' + i, &mut homes, "home"),
        ] {
            let what = format!("{role} '{}'", letter as char);
            let (row, col) = chars.unique(letter, &what, header.line)?;
            let cell = grid
                .cell(row, col)
                .ok_or_else(|| chars.unexpected(row, col, "a corridor"))?;
            list.push(cell);
        }
    }
    // The letters are corridor cells, each once (checked above).
    Ok(Some(Dataset::from_checked_cells(
        grid,
        starts,
        homes,
        header.line,
    )))
}

/// Parses exactly one dataset in the input format, optionally followed by the
/// terminator `0 0 0`, with the default cell budget and no memory check (that is
/// [`crate::solve`]'s business).
///
/// # Errors
/// The located [`ParseError`] the program would print, and one for a text with no
/// dataset or with a second one.
impl FromStr for Dataset {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Dataset, ParseError> {
        let mut reader = CaseReader::new(text.as_bytes());
        let limits = Limits::cells_only(grid_core::limits::DEFAULT_MAX_CELLS);
        let Some(dataset) = read_dataset_within(&mut reader, limits)? else {
            return Err(ParseError::at(
                reader.line().max(1),
                1,
                ErrorKind::Missing {
                    what: "dataset before the end or the terminator `0 0 0`".to_owned(),
                },
            ));
        };
        match reader.header(["width", "height", "number of ghosts"])? {
            Some(next) if !next.is_terminator() => Err(next.error_at(
                0,
                ErrorKind::Unexpected {
                    expected: "the end of the text (it holds one dataset)".to_owned(),
                    found: "a second dataset".to_owned(),
                },
            )),
            _ => Ok(dataset),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Option<Dataset>, ParseError> {
        read_dataset(&mut CaseReader::new(text.as_bytes()), 1 << 20)
    }

    #[test]
    fn reads_a_dataset() {
        let d = read("5 3 2\n#####\n#aAb#\n#B  #\n").unwrap().unwrap();
        assert_eq!(d.grid.cell_count(), 6);
        assert_eq!(d.grid.position(d.starts[1]), (1, 3));
        assert_eq!(d.grid.position(d.homes[1]), (2, 1));
    }

    #[test]
    fn terminator_and_end_of_input_stop() {
        assert!(read("0 0 0\n5 3 2\n").unwrap().is_none());
        assert!(read("\n\n").unwrap().is_none());
    }

    #[test]
    fn errors_are_located() {
        let e = read("3 1 1\naAb\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 3: expected '#', a space, 'a' or 'A', found 'b'"
        );
        let e = read("3 1 2\naAb\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1, column 1: this case has no home 'B'");
        let e = read("3 1 1\naAa\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 3: start 'a' appears again (first at line 2, column 1)"
        );
        let e = read("100000 100000 3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: the width is 100000, above the limit of 4096 per side"
        );
        let e = read("4000 4000 3\n").unwrap_err();
        assert!(e.to_string().contains("raise it with --max-cells"), "{e}");
        let e = read("3 1 27\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
    }
}

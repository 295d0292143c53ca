//! Reading one dataset: the `w h n` header, then `h` rows of exactly `w` characters.

use std::io::BufRead;

use grid_core::{CaseReader, CellId, ErrorKind, Grid, ParseError, RowEnd};

/// Most ghosts a dataset may have: one per letter a-z.
pub const MAX_GHOSTS: u64 = 26;

/// Longest side a map may have.
pub const MAX_SIDE: u64 = 4096;

/// A map with its ghosts: where each starts and where its home is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dataset {
    /// The corridor cells (letters are corridor too); outside the map is wall.
    pub grid: Grid,
    /// Start of ghost `i` (letter `a + i`).
    pub starts: Vec<CellId>,
    /// Home of ghost `i` (letter `A + i`).
    pub homes: Vec<CellId>,
    /// Line of the dataset's header, to locate errors found while solving.
    pub header_line: usize,
}

/// Reads the next dataset. `Ok(None)` at the terminator `0 0 0` or at the end of input
/// (a missing terminator is tolerated).
///
/// # Complexity
/// O(w x h).
pub fn read_dataset<R: BufRead>(
    reader: &mut CaseReader<R>,
    max_cells: u64,
) -> Result<Option<Dataset>, ParseError> {
    let Some(header) = reader.header(["width", "height", "number of ghosts"])? else {
        return Ok(None);
    };
    if header.is_terminator() {
        return Ok(None);
    }
    let width = header.bounded(0, "width", 1, MAX_SIDE, "")?;
    let height = header.bounded(1, "height", 1, MAX_SIDE, "")?;
    let ghosts = header.bounded(2, "number of ghosts", 0, MAX_GHOSTS, "")?;
    let cells = (width as u64) * (height as u64);
    if cells > max_cells {
        return Err(header.error_at(
            0,
            ErrorKind::TooLarge {
                what: "the map's cell count (width x height)".to_owned(),
                value: cells,
                limit: max_cells,
                hint: "; raise it with --max-cells".to_owned(),
            },
        ));
    }
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
    Ok(Some(Dataset {
        grid,
        starts,
        homes,
        header_line: header.line,
    }))
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
            "line 1, column 1: width is 100000, above the limit of 4096"
        );
        let e = read("4000 4000 3\n").unwrap_err();
        assert!(e.to_string().contains("raise it with --max-cells"), "{e}");
        let e = read("3 1 27\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
    }
}

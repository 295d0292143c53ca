//! The MovingAI grid map format (`.map`), as the MAPF benchmark of Stern et al. (SoCS 2019)
//! publishes its maps: a header of `type`, `height`, `width` and `map` lines, then
//! `height` rows of exactly `width` characters.
//!
//! ```text
//! type octile
//! height 3
//! width 4
//! map
//! ..@.
//! .T..
//! ....
//! ```
//!
//! `.`, `G` and `S` are free cells; `@`, `O`, `T` and `W` are blocked. `type octile` names
//! the format, not the moves: multi-agent path finding uses these maps as 4-connected
//! grids. Every problem is a located [`ParseError`], and the size is checked against the
//! side limit, the cell budget and the memory budget before any row is read.
//!
//! # Complexity
//! O(height x width) time; memory grows with the rows actually read.

use std::io::BufRead;

use crate::error::{ErrorKind, ParseError, char_column, describe_char_at};
use crate::grid::Grid;
use crate::limits::{GridSize, Limits, MAX_SIDE};
use crate::reader::{CaseReader, RowEnd};

/// Memory the map itself needs per cell once read: the rows as bytes, the cell numbering,
/// the coordinates and the neighbour table of [`Grid`] (1 + 4 + 8 + 16 bytes, rounded up).
pub const MAP_BYTES_PER_CELL: u64 = 32;

/// The longest header line read (`type`, `height`, `width`, `map`).
const MAX_HEADER_LINE: usize = 256;

/// A MovingAI map: its free cells as a [`Grid`] (outside the map is blocked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovingAiMap {
    /// The free cells and how they connect (4-connected).
    pub grid: Grid,
    /// The word after `type` (`octile` in the benchmark).
    pub kind: String,
}

/// Whether a map character is a free cell: `.`, `G`, `S` free; `@`, `O`, `T`, `W`
/// blocked; `None` for any other byte.
pub(crate) fn is_free(byte: u8) -> Option<bool> {
    match byte {
        b'.' | b'G' | b'S' => Some(true),
        b'@' | b'O' | b'T' | b'W' => Some(false),
        _ => None,
    }
}

/// Reads a whole `.map` file from `input`, refusing from the header alone (before reading
/// any row) a side above [`MAX_SIDE`], more than `limits.max_cells` cells, or a map whose
/// tables, `bytes_per_cell` a cell (at least [`MAP_BYTES_PER_CELL`]: pass what the caller's
/// search will add), would not fit in `limits.memory_mib`.
///
/// # Errors
/// A located [`ParseError`]: a missing or malformed `type`, `height`, `width` or `map`
/// line, a repeated one, a size out of limits, a short or long row, a character outside
/// `.GS@OTW`, a cut-off map, or anything but blank lines after the last row.
///
/// # Complexity
/// O(height x width).
pub fn read_map<R: BufRead>(
    input: R,
    limits: Limits,
    bytes_per_cell: u64,
) -> Result<MovingAiMap, ParseError> {
    let mut reader = CaseReader::new(input);
    let kind = read_type(&mut reader)?;
    let mut height: Option<(u64, usize)> = None;
    let mut width: Option<(u64, usize)> = None;
    loop {
        let Some(line) = reader.text_line(MAX_HEADER_LINE)? else {
            return Err(ParseError::at(
                reader.line() + 1,
                1,
                ErrorKind::Unexpected {
                    expected: "the line 'map'".to_owned(),
                    found: "end of input".to_owned(),
                },
            ));
        };
        let (key, key_column, value) = split_key(line);
        let at = reader.line();
        match key.as_slice() {
            b"map" if value.is_none() => break,
            b"height" | b"width" => {
                let name = if key == b"height" {
                    "the height"
                } else {
                    "the width"
                };
                let slot = if key == b"height" {
                    &mut height
                } else {
                    &mut width
                };
                if let Some((_, first_line)) = *slot {
                    return Err(ParseError::at(
                        at,
                        key_column,
                        ErrorKind::Repeated {
                            what: format!("the line '{}'", String::from_utf8_lossy(&key)),
                            first_line,
                            first_column: 1,
                        },
                    ));
                }
                let side = side_value(value, at, name)?;
                *slot = Some((side, at));
            }
            _ => {
                return Err(ParseError::at(
                    at,
                    key_column,
                    ErrorKind::Unexpected {
                        expected: "'height N', 'width N' or 'map'".to_owned(),
                        found: describe_word(&key),
                    },
                ));
            }
        }
    }
    let map_line = reader.line();
    let missing = |what: &str| {
        ParseError::at(
            map_line,
            1,
            ErrorKind::Unexpected {
                expected: format!("a line '{what} N' before 'map'"),
                found: "'map'".to_owned(),
            },
        )
    };
    let (rows, rows_line) = height.ok_or_else(|| missing("height"))?;
    let (cols, _) = width.ok_or_else(|| missing("width"))?;
    let size = GridSize {
        rows: rows as usize,
        cols: cols as usize,
        line: rows_line,
        column: 1,
    };
    if size.cells() > limits.max_cells {
        return Err(ParseError::at(
            rows_line,
            1,
            ErrorKind::TooLarge {
                what: format!(
                    "the number of cells ({} rows x {} columns)",
                    size.rows, size.cols
                ),
                value: size.cells(),
                limit: limits.max_cells,
                hint: "; raise it with --max-cells".to_owned(),
            },
        ));
    }
    size.check_memory(bytes_per_cell.max(MAP_BYTES_PER_CELL), limits.memory_mib)?;
    let chars = reader.grid(size.rows, size.cols, RowEnd::Exact)?;
    for (row, col, byte) in chars.cells() {
        if is_free(byte).is_none() {
            return Err(chars.unexpected(
                row,
                col,
                "a map character ('.', 'G', 'S' free; '@', 'O', 'T', 'W' blocked)",
            ));
        }
    }
    while let Some(line) = reader.text_line(MAX_HEADER_LINE)? {
        if let Some(pos) = line.iter().position(|b| !b.is_ascii_whitespace()) {
            let (found, column) = (describe_char_at(&line[pos..]), char_column(line, pos));
            return Err(ParseError::at(
                reader.line(),
                column,
                ErrorKind::Unexpected {
                    expected: "end of input after the last row".to_owned(),
                    found,
                },
            ));
        }
    }
    let grid = Grid::from_chars(&chars, |b| is_free(b) == Some(true));
    Ok(MovingAiMap { grid, kind })
}

/// The first line, `type WORD`.
fn read_type<R: BufRead>(reader: &mut CaseReader<R>) -> Result<String, ParseError> {
    let expected = || "the line 'type' and the map type (e.g. 'type octile')".to_owned();
    let Some(line) = reader.text_line(MAX_HEADER_LINE)? else {
        return Err(ParseError::at(
            1,
            1,
            ErrorKind::Unexpected {
                expected: expected(),
                found: "end of input".to_owned(),
            },
        ));
    };
    let (key, key_column, value) = split_key(line);
    match (key.as_slice(), value) {
        (b"type", Some((word, _))) if word.iter().all(u8::is_ascii_graphic) => {
            Ok(String::from_utf8_lossy(&word).into_owned())
        }
        (b"type", Some((word, column))) => Err(ParseError::at(
            1,
            column,
            ErrorKind::Unexpected {
                expected: "a map type of printable characters".to_owned(),
                found: describe_word(&word),
            },
        )),
        (b"type", None) => Err(ParseError::at(
            1,
            key_column + 4,
            ErrorKind::Unexpected {
                expected: "the map type after 'type'".to_owned(),
                found: "end of line".to_owned(),
            },
        )),
        _ => Err(ParseError::at(
            1,
            key_column,
            ErrorKind::Unexpected {
                expected: expected(),
                found: describe_word(&key),
            },
        )),
    }
}

/// A word of a header line and its 1-based column.
type Word = (Vec<u8>, usize);

/// `KEY [VALUE]` split at blanks: the key, its 1-based column, and the value with its
/// column (the rest of the line after the blanks, trailing blanks removed).
fn split_key(line: &[u8]) -> (Vec<u8>, usize, Option<Word>) {
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let start = line.iter().position(|b| !blank(b)).unwrap_or(line.len());
    let end = line[start..]
        .iter()
        .position(blank)
        .map_or(line.len(), |p| start + p);
    let key = line[start..end].to_vec();
    let rest_start = line[end..]
        .iter()
        .position(|b| !blank(b))
        .map_or(line.len(), |p| end + p);
    let mut rest_end = line.len();
    while rest_end > rest_start && blank(&line[rest_end - 1]) {
        rest_end -= 1;
    }
    let value = (rest_start < rest_end).then(|| {
        (
            line[rest_start..rest_end].to_vec(),
            char_column(line, rest_start),
        )
    });
    (key, char_column(line, start), value)
}

/// A side, `1..=MAX_SIDE`, from the value of a `height` or `width` line.
fn side_value(value: Option<(Vec<u8>, usize)>, line: usize, name: &str) -> Result<u64, ParseError> {
    let Some((digits, column)) = value else {
        return Err(ParseError::at(
            line,
            1,
            ErrorKind::Unexpected {
                expected: format!("{name} after the key"),
                found: "end of line".to_owned(),
            },
        ));
    };
    if let Some(pos) = digits.iter().position(|b| !b.is_ascii_digit()) {
        return Err(ParseError::at(
            line,
            column + pos,
            ErrorKind::Unexpected {
                expected: format!("{name} as a whole number"),
                found: describe_char_at(&digits[pos..]),
            },
        ));
    }
    if digits.len() > 19 {
        return Err(ParseError::at(
            line,
            column,
            ErrorKind::Unexpected {
                expected: format!("{name} as a number of at most 19 digits"),
                found: format!("{} digits", digits.len()),
            },
        ));
    }
    let value = digits
        .iter()
        .fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
    if value == 0 {
        return Err(ParseError::at(
            line,
            column,
            ErrorKind::Unexpected {
                expected: format!("{name} of at least 1"),
                found: "0".to_owned(),
            },
        ));
    }
    if value > MAX_SIDE {
        return Err(ParseError::at(
            line,
            column,
            ErrorKind::TooLarge {
                what: name.to_owned(),
                value,
                limit: MAX_SIDE,
                hint: " per side".to_owned(),
            },
        ));
    }
    Ok(value)
}

/// A word for an error message: `'word'`, or its first character described (`'３'
/// (U+FF13)`) when it is not printable ASCII, or "an empty line".
fn describe_word(word: &[u8]) -> String {
    if word.is_empty() {
        return "an empty line".to_owned();
    }
    let printable = std::str::from_utf8(word)
        .is_ok_and(|w| w.chars().count() <= 40 && w.chars().all(|c| !c.is_control()));
    if printable {
        format!("'{}'", String::from_utf8_lossy(word))
    } else {
        describe_char_at(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<MovingAiMap, ParseError> {
        read_map(text.as_bytes(), Limits::cells_only(1 << 20), 0)
    }

    fn error(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    /// Columns count characters and a non-ASCII character is named, as in the other
    /// readers (issue 15, item 10).
    #[test]
    fn non_ascii_is_named_and_counted_as_one_column() {
        assert_eq!(
            error("type octile\nheight 1\u{ff13}\n"),
            "line 2, column 9: expected the height as a whole number, found '\u{ff13}' (U+FF13)"
        );
        assert_eq!(
            error("type octile\n\u{ff48}eight 3\n"),
            "line 2, column 1: expected 'height N', 'width N' or 'map', found '\u{ff48}eight'"
        );
        assert_eq!(
            error("type octile\nheight 1\nwidth 2\nmap\n\u{ff0e}.\n"),
            "line 5, column 1: expected a map character ('.', 'G', 'S' free; '@', 'O', 'T', \
             'W' blocked), found '\u{ff0e}' (U+FF0E)"
        );
        assert_eq!(
            error("type octile\nheight 1\nwidth 2\nmap\n.\u{e9}\n"),
            "line 5, column 2: expected a map character ('.', 'G', 'S' free; '@', 'O', 'T', \
             'W' blocked), found '\u{e9}' (U+00E9)"
        );
        assert_eq!(
            error("type octile\nheight 1\nwidth 2\nmap\n..\n \u{e9}\u{e9}x\n"),
            "line 6, column 2: expected end of input after the last row, found '\u{e9}' (U+00E9)"
        );
        assert_eq!(char_column("\u{e9}\u{e9}x".as_bytes(), 4), 3);
        assert_eq!(char_column(b"a\xffb", 2), 3, "a bad byte is one column");
    }

    #[test]
    fn reads_a_map() {
        let map = read("type octile\nheight 3\nwidth 4\nmap\n..@.\n.T..\nGSOW\n\n").unwrap();
        assert_eq!(map.kind, "octile");
        assert_eq!((map.grid.height(), map.grid.width()), (3, 4));
        assert_eq!(map.grid.cell_count(), 8);
        assert!(map.grid.cell(0, 2).is_none());
        assert!(map.grid.cell(1, 1).is_none());
        assert!(map.grid.cell(2, 0).is_some());
        assert!(map.grid.cell(2, 2).is_none());
        // Width before height, CRLF line ends.
        let map = read("type octile\r\nwidth 2\r\nheight 1\r\nmap\r\n.@\r\n").unwrap();
        assert_eq!((map.grid.height(), map.grid.width()), (1, 2));
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(
            error(""),
            "line 1, column 1: expected the line 'type' and the map type (e.g. 'type \
             octile'), found end of input"
        );
        assert_eq!(
            error("height 3\n"),
            "line 1, column 1: expected the line 'type' and the map type (e.g. 'type \
             octile'), found 'height'"
        );
        assert_eq!(
            error("type octile\nheight x3\n"),
            "line 2, column 8: expected the height as a whole number, found 'x'"
        );
        assert_eq!(
            error("type octile\nheight 3\ndepth 4\n"),
            "line 3, column 1: expected 'height N', 'width N' or 'map', found 'depth'"
        );
        assert_eq!(
            error("type octile\nheight 3\nheight 3\n"),
            "line 3, column 1: the line 'height' appears again (first at line 2, column 1)"
        );
        assert_eq!(
            error("type octile\nheight 3\nmap\n"),
            "line 3, column 1: expected a line 'width N' before 'map', found 'map'"
        );
        assert_eq!(
            error("type octile\nheight 5000\nwidth 1\nmap\n"),
            "line 2, column 8: the height is 5000, above the limit of 4096 per side"
        );
        assert_eq!(
            error("type octile\nheight 0\n"),
            "line 2, column 8: expected the height of at least 1, found 0"
        );
        assert_eq!(
            error("type octile\nheight 2\nwidth 2\nmap\n..\n.x\n"),
            "line 6, column 2: expected a map character ('.', 'G', 'S' free; '@', 'O', \
             'T', 'W' blocked), found 'x'"
        );
        assert_eq!(
            error("type octile\nheight 2\nwidth 2\nmap\n..\n"),
            "line 6, column 1: expected row 2 of 2, found end of input"
        );
        assert_eq!(
            error("type octile\nheight 1\nwidth 2\nmap\n..\n..\n"),
            "line 6, column 1: expected end of input after the last row, found '.'"
        );
        assert_eq!(
            error("type octile\nheight 1\nwidth 2\nmap\n...\n"),
            "line 5, column 3: expected end of row after 2 characters, found '.'"
        );
    }

    #[test]
    fn sizes_are_checked_before_reading_rows() {
        let text = "type octile\nheight 4000\nwidth 4000\nmap\n";
        let e = read(text).unwrap_err().to_string();
        assert!(e.contains("raise it with --max-cells"), "{e}");
        let limits = Limits {
            max_cells: u64::MAX,
            memory_mib: 100,
        };
        let e = read_map(text.as_bytes(), limits, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("raise it with --memory-mib"), "{e}");
    }
}

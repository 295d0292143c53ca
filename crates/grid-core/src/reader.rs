//! A streaming reader of multi-case text input: integer header lines, then rows of an
//! exact width, every problem reported as a located [`ParseError`].
//!
//! The reader never holds more than one line plus the grid it is building, and it caps
//! the length of every line it reads, so no input can make it allocate without bound.

use std::io::{BufRead, Read};

use crate::error::{ErrorKind, ParseError, describe_byte};

/// How long a header line may be before the reader refuses it.
const MAX_HEADER_LINE: usize = 4096;
/// How many bytes past its width a row may run (trailing spaces) before it is refused.
const ROW_SLACK: usize = 4096;

/// How the end of a grid row is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowEnd {
    /// The row is exactly `width` bytes; spaces are cells (the ghosts format).
    Exact,
    /// Trailing spaces after the row are ignored (the Sokoban formats).
    TrimTrailingSpaces,
}

/// Reads cases line by line from any [`BufRead`], counting lines for error locations.
///
/// `\n` and `\r\n` line endings are both accepted.
#[derive(Debug)]
pub struct CaseReader<R> {
    input: R,
    /// Number of lines consumed so far (the 1-based number of the last line read).
    line: usize,
    buf: Vec<u8>,
}

/// A header line of `K` non-negative integers, with where each one stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header<const K: usize> {
    /// 1-based line number of the header.
    pub line: usize,
    /// The values, in order.
    pub values: [u64; K],
    /// 1-based column where each value starts.
    pub columns: [usize; K],
}

impl<const K: usize> Header<K> {
    /// True when every value is zero: the terminator line (`0 0`, `0 0 0`).
    pub fn is_terminator(&self) -> bool {
        self.values.iter().all(|&v| v == 0)
    }

    /// An error located at the start of field `field`.
    pub fn error_at(&self, field: usize, kind: ErrorKind) -> ParseError {
        ParseError::at(self.line, self.columns[field], kind)
    }

    /// Field `field` as a `usize` in `min..=max`, or a located error naming it `what`.
    ///
    /// `hint` (possibly empty) tells how a too-small `max` can be raised.
    pub fn bounded(
        &self,
        field: usize,
        what: &str,
        min: u64,
        max: u64,
        hint: &str,
    ) -> Result<usize, ParseError> {
        let value = self.values[field];
        if value < min {
            return Err(self.error_at(
                field,
                ErrorKind::Unexpected {
                    expected: format!("{what} of at least {min}"),
                    found: value.to_string(),
                },
            ));
        }
        if value > max {
            return Err(self.error_at(
                field,
                ErrorKind::TooLarge {
                    what: what.to_owned(),
                    value,
                    limit: max,
                    hint: hint.to_owned(),
                },
            ));
        }
        usize::try_from(value).map_err(|_| {
            self.error_at(
                field,
                ErrorKind::TooLarge {
                    what: what.to_owned(),
                    value,
                    limit: usize::MAX as u64,
                    hint: String::new(),
                },
            )
        })
    }
}

/// The rows of one case, as bytes, with the line each row came from.
///
/// Rows are consecutive input lines, so row `r` is line `first_line + r`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharGrid {
    height: usize,
    width: usize,
    bytes: Vec<u8>,
    first_line: usize,
}

impl CharGrid {
    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The byte at `row`, `col` (0-based).
    ///
    /// # Panics
    /// When `row` or `col` is outside the grid.
    pub fn byte(&self, row: usize, col: usize) -> u8 {
        assert!(
            row < self.height && col < self.width,
            "cell outside the grid"
        );
        self.bytes[row * self.width + col]
    }

    /// Every cell as `(row, col, byte)`, row by row.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        let width = self.width.max(1);
        self.bytes
            .iter()
            .enumerate()
            .map(move |(i, &b)| (i / width, i % width, b))
    }

    /// An error of `kind` located at the cell `row`, `col` (0-based).
    pub fn error_at(&self, row: usize, col: usize, kind: ErrorKind) -> ParseError {
        ParseError::at(self.first_line + row, col + 1, kind)
    }

    /// "expected `expected`, found <the byte at row, col>", located there.
    pub fn unexpected(&self, row: usize, col: usize, expected: &str) -> ParseError {
        self.error_at(
            row,
            col,
            ErrorKind::Unexpected {
                expected: expected.to_owned(),
                found: describe_byte(self.byte(row, col)),
            },
        )
    }

    /// The only cell holding `marker`, or a located error: [`ErrorKind::Repeated`] at its
    /// second appearance, [`ErrorKind::Missing`] at `header_line` when it is absent.
    ///
    /// # Complexity
    /// O(height x width).
    pub fn unique(
        &self,
        marker: u8,
        what: &str,
        header_line: usize,
    ) -> Result<(usize, usize), ParseError> {
        let mut found = None;
        for (row, col, byte) in self.cells() {
            if byte != marker {
                continue;
            }
            if let Some((first_row, first_col)) = found {
                return Err(self.error_at(
                    row,
                    col,
                    ErrorKind::Repeated {
                        what: what.to_owned(),
                        first_line: self.first_line + first_row,
                        first_column: first_col + 1,
                    },
                ));
            }
            found = Some((row, col));
        }
        found.ok_or_else(|| {
            ParseError::at(
                header_line,
                1,
                ErrorKind::Missing {
                    what: what.to_owned(),
                },
            )
        })
    }
}

impl<R: BufRead> CaseReader<R> {
    /// A reader at the start of `input`.
    pub fn new(input: R) -> Self {
        CaseReader {
            input,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// Number of lines consumed so far.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The next line without its line ending, for formats that are not integer headers
    /// and rows (the MovingAI files). `Ok(None)` at end of input.
    ///
    /// # Errors
    /// A line longer than `max_len` bytes, located just past the limit; a read failure.
    pub fn text_line(&mut self, max_len: usize) -> Result<Option<&[u8]>, ParseError> {
        Ok(self.next_line(max_len)?.then_some(self.buf.as_slice()))
    }

    /// Reads the next line into `self.buf` without its line ending. `Ok(false)` at end of
    /// input. A line longer than `max_len` bytes is an error located just past the limit.
    fn next_line(&mut self, max_len: usize) -> Result<bool, ParseError> {
        self.buf.clear();
        let cap = max_len.saturating_add(2) as u64; // room for "\r\n"
        let read = Read::take(&mut self.input, cap)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| ParseError::at(self.line + 1, 1, ErrorKind::Io(e.to_string())))?;
        if read == 0 {
            return Ok(false);
        }
        self.line += 1;
        let ended = self.buf.last() == Some(&b'\n');
        if ended {
            self.buf.pop();
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > max_len || (!ended && read as u64 == cap) {
            // Only the first `cap` bytes were read: the true length is unknown, and `buf`
            // keeps them so that a grid row can say where it runs past its width.
            return Err(ParseError::at(
                self.line,
                max_len + 1,
                ErrorKind::Unexpected {
                    expected: format!("a line of at most {max_len} bytes"),
                    found: "a longer one".to_owned(),
                },
            ));
        }
        Ok(true)
    }

    /// The next header of `K` whitespace-separated non-negative integers, named `names`
    /// for error messages. Blank lines before it are skipped. `Ok(None)` at end of input.
    ///
    /// # Complexity
    /// O(length of the lines read).
    pub fn header<const K: usize>(
        &mut self,
        names: [&str; K],
    ) -> Result<Option<Header<K>>, ParseError> {
        loop {
            if !self.next_line(MAX_HEADER_LINE)? {
                return Ok(None);
            }
            if self.buf.iter().any(|b| !b.is_ascii_whitespace()) {
                break;
            }
        }
        let line = self.line;
        let bytes = &self.buf;
        let mut values = [0u64; K];
        let mut columns = [0usize; K];
        let mut pos = 0;
        let skip_blanks = |mut pos: usize| {
            while pos < bytes.len() && matches!(bytes[pos], b' ' | b'\t') {
                pos += 1;
            }
            pos
        };
        for (field, name) in names.iter().enumerate() {
            pos = skip_blanks(pos);
            columns[field] = pos + 1;
            if pos == bytes.len() {
                return Err(ParseError::at(
                    line,
                    pos + 1,
                    ErrorKind::Unexpected {
                        expected: format!("the {name}"),
                        found: "end of line".to_owned(),
                    },
                ));
            }
            let mut value: u64 = 0;
            let start = pos;
            while pos < bytes.len() && !matches!(bytes[pos], b' ' | b'\t') {
                let byte = bytes[pos];
                if !byte.is_ascii_digit() {
                    return Err(ParseError::at(
                        line,
                        pos + 1,
                        ErrorKind::Unexpected {
                            expected: format!("the {name} as a whole number"),
                            found: describe_byte(byte),
                        },
                    ));
                }
                value = value
                    .saturating_mul(10)
                    .saturating_add(u64::from(byte - b'0'));
                pos += 1;
            }
            if pos - start > 19 {
                // Saturated: report the digits rather than a clipped number.
                return Err(ParseError::at(
                    line,
                    start + 1,
                    ErrorKind::Unexpected {
                        expected: format!("the {name} as a number of at most 19 digits"),
                        found: format!("{} digits", pos - start),
                    },
                ));
            }
            values[field] = value;
        }
        pos = skip_blanks(pos);
        if pos < bytes.len() {
            return Err(ParseError::at(
                line,
                pos + 1,
                ErrorKind::Unexpected {
                    expected: "end of line".to_owned(),
                    found: describe_byte(bytes[pos]),
                },
            ));
        }
        Ok(Some(Header {
            line,
            values,
            columns,
        }))
    }

    /// The next `height` rows of exactly `width` bytes each.
    ///
    /// Memory grows with the rows actually read, never with the sizes claimed, so a
    /// header that lies about its size cannot make this allocate more than the input.
    ///
    /// # Complexity
    /// O(height x width).
    pub fn grid(
        &mut self,
        height: usize,
        width: usize,
        row_end: RowEnd,
    ) -> Result<CharGrid, ParseError> {
        let first_line = self.line + 1;
        let mut bytes = Vec::new();
        for row in 0..height {
            let more = match self.next_line(width.saturating_add(ROW_SLACK)) {
                Ok(more) => more,
                // An overlong row: when its first bytes already run past the width, say
                // so where they do (as for any long row); only trailing spaces beyond
                // the slack get the line-length error.
                Err(e) if !matches!(e.kind, ErrorKind::Io(_)) => {
                    let past = self.buf.get(width..).unwrap_or_default();
                    let runs_past = match row_end {
                        RowEnd::Exact => !past.is_empty(),
                        RowEnd::TrimTrailingSpaces => past.iter().any(|&b| b != b' '),
                    };
                    return Err(if runs_past {
                        self.row_too_long(width)
                    } else {
                        e
                    });
                }
                Err(e) => return Err(e),
            };
            if !more {
                return Err(ParseError::at(
                    self.line + 1,
                    1,
                    ErrorKind::Unexpected {
                        expected: format!("row {} of {height}", row + 1),
                        found: "end of input".to_owned(),
                    },
                ));
            }
            let mut len = self.buf.len();
            if row_end == RowEnd::TrimTrailingSpaces {
                while len > width && self.buf[len - 1] == b' ' {
                    len -= 1;
                }
            }
            if len < width {
                return Err(ParseError::at(
                    self.line,
                    len + 1,
                    ErrorKind::Unexpected {
                        expected: format!("a row of {width} characters"),
                        found: format!("end of row after {len}"),
                    },
                ));
            }
            if len > width {
                return Err(self.row_too_long(width));
            }
            bytes.extend_from_slice(&self.buf[..width]);
        }
        Ok(CharGrid {
            height,
            width,
            bytes,
            first_line,
        })
    }

    /// "expected end of row after `width` characters, found X", X being the byte just
    /// past the width of the row just read (which must be longer).
    fn row_too_long(&self, width: usize) -> ParseError {
        ParseError::at(
            self.line,
            width + 1,
            ErrorKind::Unexpected {
                expected: format!("end of row after {width} characters"),
                found: describe_byte(self.buf[width]),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(text: &str) -> CaseReader<&[u8]> {
        CaseReader::new(text.as_bytes())
    }

    #[test]
    fn header_skips_blank_lines_and_reads_fields() {
        let mut r = reader("\n  \r\n 3\t4  5 \r\n");
        let h = r.header(["a", "b", "c"]).unwrap().unwrap();
        assert_eq!(h.line, 3);
        assert_eq!(h.values, [3, 4, 5]);
        assert_eq!(h.columns, [2, 4, 7]);
        assert!(r.header(["a"]).unwrap().is_none());
    }

    #[test]
    fn header_errors_are_located() {
        let e = reader("3 -4\n").header(["width", "height"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 3: expected the height as a whole number, found '-'"
        );
        let e = reader("3\n").header(["width", "height"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 2: expected the height, found end of line"
        );
        let e = reader("3 4 5\n").header(["width", "height"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 5: expected end of line, found '5'"
        );
        let e = reader("99999999999999999999999 1\n")
            .header(["width", "height"])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: expected the width as a number of at most 19 digits, found \
             23 digits"
        );
    }

    #[test]
    fn bounded_checks_both_ends() {
        let h = reader("0 100000\n")
            .header(["height", "width"])
            .unwrap()
            .unwrap();
        let e = h.bounded(0, "height", 1, 10, "").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: expected height of at least 1, found 0"
        );
        let e = h
            .bounded(1, "width", 1, 512, "; raise it with --x")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 3: width is 100000, above the limit of 512; raise it with --x"
        );
        assert_eq!(h.bounded(1, "width", 1, 100_000, "").unwrap(), 100_000);
    }

    #[test]
    fn grid_reads_rows_with_either_line_ending() {
        let mut r = reader("1 2\r\nab\r\ncd\n");
        r.header(["h", "w"]).unwrap();
        let g = r.grid(2, 2, RowEnd::Exact).unwrap();
        assert_eq!(g.byte(1, 0), b'c');
        assert_eq!(
            g.error_at(1, 1, ErrorKind::Missing { what: "x".into() })
                .line,
            3
        );
    }

    #[test]
    fn grid_row_length_errors() {
        let e = reader("abc\nab\n").grid(2, 3, RowEnd::Exact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 3: expected a row of 3 characters, found end of row after 2"
        );
        let e = reader("abcd\n").grid(1, 3, RowEnd::Exact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 4: expected end of row after 3 characters, found 'd'"
        );
        let e = reader("abc\n").grid(3, 3, RowEnd::Exact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: expected row 2 of 3, found end of input"
        );
    }

    #[test]
    fn trailing_spaces_are_kept_or_trimmed_as_asked() {
        assert!(
            reader("ab   \n")
                .grid(1, 2, RowEnd::TrimTrailingSpaces)
                .is_ok()
        );
        assert!(reader("ab   \n").grid(1, 2, RowEnd::Exact).is_err());
        let g = reader("a  \n").grid(1, 3, RowEnd::Exact).unwrap();
        assert_eq!(g.byte(0, 2), b' ');
    }

    #[test]
    fn overlong_lines_are_refused_without_reading_them_whole() {
        let long = "x".repeat(10_000);
        let e = reader(&long).header(["a"]).unwrap_err();
        assert_eq!((e.line, e.column), (1, MAX_HEADER_LINE + 1));
        let e = reader(&long)
            .grid(1, 5, RowEnd::TrimTrailingSpaces)
            .unwrap_err();
        assert_eq!(e.line, 1);
        // A long row is located where it passes its width, however long it is...
        let row = format!("abc{long}\n");
        for row_end in [RowEnd::Exact, RowEnd::TrimTrailingSpaces] {
            let e = reader(&row).grid(1, 3, row_end).unwrap_err();
            assert_eq!(
                e.to_string(),
                "line 1, column 4: expected end of row after 3 characters, found 'x'"
            );
        }
        // ...and only trailing spaces beyond the slack get the line-length error.
        let spaces = format!("abc{}\n", " ".repeat(10_000));
        let e = reader(&spaces)
            .grid(1, 3, RowEnd::TrimTrailingSpaces)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "line 1, column {}: expected a line of at most {} bytes, found a longer one",
                3 + ROW_SLACK + 1,
                3 + ROW_SLACK
            )
        );
    }

    #[test]
    fn unique_markers() {
        let g = reader("S.S\n").grid(1, 3, RowEnd::Exact).unwrap();
        let e = g.unique(b'S', "'S'", 7).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 3: 'S' appears again (first at line 1, column 1)"
        );
        let e = g.unique(b'B', "box 'B'", 7).unwrap_err();
        assert_eq!(e.to_string(), "line 7, column 1: this case has no box 'B'");
        let g = reader("..S\n").grid(1, 3, RowEnd::Exact).unwrap();
        assert_eq!(g.unique(b'S', "S", 1).unwrap(), (0, 2));
    }

    #[test]
    fn non_utf8_bytes_are_described() {
        let g = CaseReader::new(&b"a\xffb\n"[..])
            .grid(1, 3, RowEnd::Exact)
            .unwrap();
        assert_eq!(
            g.unexpected(0, 1, "a cell").to_string(),
            "line 1, column 2: expected a cell, found byte 0xff"
        );
    }
}

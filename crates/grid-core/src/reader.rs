//! A streaming reader of multi-case text input: integer header lines, then rows of an
//! exact width, every problem reported as a located [`ParseError`].
//!
//! The reader never holds more than one line plus the grid it is building, and it caps
//! the length of every line it reads, so no input can make it allocate without bound
//! (trailing spaces after a Sokoban row, which may run for gigabytes, are skipped as they
//! stream past, never stored).
//!
//! Columns count characters, not bytes: a row of `width` cells is `width` characters
//! (Unicode scalar values; a byte that is not valid UTF-8 counts as one character), so an
//! error after a non-ASCII character points where an editor shows it.

use std::io::{BufRead, Read};

use crate::error::{
    ErrorKind, ParseError, describe_byte, describe_char, describe_char_at, first_char,
};

/// How long a header line may be before the reader refuses it.
const MAX_HEADER_LINE: usize = 4096;
/// How many bytes past its `4 x width` (the longest a row of `width` characters can be in
/// UTF-8) a row is read into memory; trailing spaces beyond that are skipped unread.
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
    /// The last grid read, to tell a row too many from a bad header.
    last_grid: Option<LastGrid>,
}

/// Where the last grid came from and how its rows end.
#[derive(Debug, Clone, Copy)]
struct LastGrid {
    /// The line just before its rows: its case's header.
    header_line: usize,
    height: usize,
    width: usize,
    row_end: RowEnd,
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
    /// One byte a cell: the character when it is ASCII; for any other character its first
    /// UTF-8 byte (never ASCII, so never a cell of any format), the character itself kept in
    /// `wide` for error messages; a byte of non-UTF-8 text as it is.
    bytes: Vec<u8>,
    /// The non-ASCII characters of the grid, by cell index, in increasing index order.
    wide: Vec<(usize, char)>,
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

    /// The byte at `row`, `col` (0-based): the character when it is ASCII, a byte of
    /// 0x80 or more otherwise (see [`CharGrid::unexpected`] for what it was).
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

    /// "expected `expected`, found <the character at row, col>", located there.
    pub fn unexpected(&self, row: usize, col: usize, expected: &str) -> ParseError {
        let byte = self.byte(row, col);
        let index = row * self.width + col;
        let found = match self.wide.binary_search_by_key(&index, |&(i, _)| i) {
            Ok(at) if !byte.is_ascii() => describe_char(self.wide[at].1),
            _ => describe_byte(byte),
        };
        self.error_at(
            row,
            col,
            ErrorKind::Unexpected {
                expected: expected.to_owned(),
                found,
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
            last_grid: None,
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

    /// Reads the next line into `self.buf` without its line ending, but no more than
    /// `cap + 2` bytes of it. `None` at end of input; `Some(true)` when the whole line was
    /// read, `Some(false)` when it is longer: `self.buf` then holds its first bytes (a `\r`
    /// at their end kept, as it may be inside the line) and the rest is still unread.
    fn read_line(&mut self, cap: usize) -> Result<Option<bool>, ParseError> {
        self.buf.clear();
        let limit = cap.saturating_add(2) as u64; // room for "\r\n"
        let read = Read::take(&mut self.input, limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| ParseError::at(self.line + 1, 1, ErrorKind::Io(e.to_string())))?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        let ended = self.buf.last() == Some(&b'\n');
        if ended {
            self.buf.pop();
        }
        let whole = ended || (read as u64) < limit;
        if whole && self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some(whole))
    }

    /// Reads the next line into `self.buf` without its line ending. `Ok(false)` at end of
    /// input. A line longer than `max_len` bytes is an error located just past the limit.
    fn next_line(&mut self, max_len: usize) -> Result<bool, ParseError> {
        match self.read_line(max_len)? {
            None => Ok(false),
            Some(whole) if whole && self.buf.len() <= max_len => Ok(true),
            Some(_) => Err(ParseError::at(
                self.line,
                max_len + 1,
                ErrorKind::Unexpected {
                    expected: format!("a line of at most {max_len} bytes"),
                    found: "a longer one".to_owned(),
                },
            )),
        }
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
        if let Some(error) = self.row_too_many() {
            return Err(error);
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
                    // Everything before `pos` is ASCII, so `pos + 1` is its column.
                    return Err(ParseError::at(
                        line,
                        pos + 1,
                        ErrorKind::Unexpected {
                            expected: format!("the {name} as a whole number"),
                            found: describe_char_at(&bytes[pos..]),
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
                    found: describe_char_at(&bytes[pos..]),
                },
            ));
        }
        Ok(Some(Header {
            line,
            values,
            columns,
        }))
    }

    /// When the line just read, where a header is expected, is rather one row too many of
    /// the last grid: it holds no digit (no header can do without one) and is as long as
    /// that grid's rows. The error then says so instead of complaining about the header.
    fn row_too_many(&self) -> Option<ParseError> {
        let last = self.last_grid?;
        if self.buf.iter().any(u8::is_ascii_digit) {
            return None;
        }
        let mut row = self.buf.as_slice();
        if last.row_end == RowEnd::TrimTrailingSpaces {
            while let [rest @ .., b' '] = row {
                row = rest;
            }
        }
        (char_count(row) == last.width).then(|| {
            ParseError::at(
                self.line,
                1,
                ErrorKind::Unexpected {
                    expected: "a header".to_owned(),
                    found: format!(
                        "a row (the case of line {} has more rows than the {} its header gives)",
                        last.header_line, last.height
                    ),
                },
            )
        })
    }

    /// The next `height` rows of exactly `width` characters each.
    ///
    /// The header of the case must be the line just read: errors name its line. Memory
    /// grows with the rows actually read, never with the sizes claimed, so a header that
    /// lies about its size cannot make this allocate more than the input; trailing spaces
    /// ([`RowEnd::TrimTrailingSpaces`]) are skipped as they stream past, however many.
    ///
    /// # Errors
    /// A located [`ParseError`] for a short or long row, a case cut off by the end of input,
    /// or by a line of digits only (the next header: the case has fewer rows than `height`).
    ///
    /// # Complexity
    /// O(height x width + length of the rows).
    pub fn grid(
        &mut self,
        height: usize,
        width: usize,
        row_end: RowEnd,
    ) -> Result<CharGrid, ParseError> {
        let header_line = self.line;
        let first_line = self.line + 1;
        let mut bytes = Vec::new();
        let mut wide = Vec::new();
        // Room for `width` characters of up to 4 bytes each, and some trailing spaces.
        let cap = width.saturating_mul(4).saturating_add(ROW_SLACK);
        for row in 0..height {
            let complete = match self.read_line(cap)? {
                Some(whole) => whole,
                None => {
                    return Err(ParseError::at(
                        self.line + 1,
                        1,
                        ErrorKind::Unexpected {
                            expected: format!("row {} of {height}", row + 1),
                            found: "end of input".to_owned(),
                        },
                    ));
                }
            };
            let header_like = self.buf.iter().any(u8::is_ascii_digit)
                && self
                    .buf
                    .iter()
                    .all(|b| b.is_ascii_digit() || matches!(b, b' ' | b'\t'));
            if header_like {
                // Digits appear in no row of any format, and a header is made of them.
                return Err(ParseError::at(
                    self.line,
                    1,
                    ErrorKind::Unexpected {
                        expected: format!("row {} of {height}", row + 1),
                        found: format!(
                            "a header (the case of line {header_line} ended after {row} of its \
                             {height} rows)"
                        ),
                    },
                ));
            }
            // A `\r` that ends a line cut short may be followed by its `\n`.
            let mut pending_cr = false;
            let mut line = self.buf.as_slice();
            if !complete {
                if let [rest @ .., b'\r'] = line {
                    line = rest;
                    pending_cr = true;
                }
            }
            let row_start = bytes.len();
            // The first character past the width that may not be there, with its column.
            let mut past = None;
            let mut count = 0;
            for (character, first_byte, rest) in characters(line) {
                if count < width {
                    if let Some(c) = character.filter(|c| !c.is_ascii()) {
                        wide.push((row_start + count, c));
                    }
                    bytes.push(first_byte);
                    count += 1;
                    continue;
                }
                if past.is_none() {
                    past = Some(rest);
                }
                if row_end == RowEnd::Exact || first_byte != b' ' {
                    return Err(self.row_too_long(width, past.unwrap_or(rest)));
                }
            }
            if count < width {
                return Err(ParseError::at(
                    self.line,
                    count + 1,
                    ErrorKind::Unexpected {
                        expected: format!("a row of {width} characters"),
                        found: format!("end of row after {count}"),
                    },
                ));
            }
            if !complete {
                // Only spaces so far past the width (an exact row this long would have
                // failed above): skip the rest of the line as it streams past.
                if !self.skip_trailing_spaces(pending_cr)? {
                    return Err(self.row_too_long(width, b" "));
                }
            }
        }
        self.last_grid = Some(LastGrid {
            header_line,
            height,
            width,
            row_end,
        });
        Ok(CharGrid {
            height,
            width,
            bytes,
            wide,
            first_line,
        })
    }

    /// Consumes the rest of the current line, which must be spaces up to its `\n` or `\r\n`
    /// (or the end of input); `pending_cr` when a `\r` was read just before. `Ok(false)` at
    /// any other byte. Constant memory, whatever the length.
    fn skip_trailing_spaces(&mut self, mut pending_cr: bool) -> Result<bool, ParseError> {
        loop {
            let chunk = self
                .input
                .fill_buf()
                .map_err(|e| ParseError::at(self.line, 1, ErrorKind::Io(e.to_string())))?;
            if chunk.is_empty() {
                return Ok(true);
            }
            for (i, &byte) in chunk.iter().enumerate() {
                match byte {
                    b'\n' => {
                        self.input.consume(i + 1);
                        return Ok(true);
                    }
                    b' ' if !pending_cr => {}
                    b'\r' if !pending_cr => pending_cr = true,
                    _ => return Ok(false),
                }
            }
            let len = chunk.len();
            self.input.consume(len);
        }
    }

    /// "expected end of row after `width` characters, found X" at the column just past the
    /// width of the row just read, X being the character `rest` starts with.
    fn row_too_long(&self, width: usize, rest: &[u8]) -> ParseError {
        ParseError::at(
            self.line,
            width + 1,
            ErrorKind::Unexpected {
                expected: format!("end of row after {width} characters"),
                found: describe_char_at(rest),
            },
        )
    }
}

/// The characters of `line`, each as (the character, or `None` for a byte that is not
/// valid UTF-8; its first byte; the bytes of `line` from it on).
fn characters(line: &[u8]) -> impl Iterator<Item = (Option<char>, u8, &[u8])> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let rest = line.get(pos..)?;
        let &first = rest.first()?;
        let character = first_char(rest);
        pos += character.map_or(1, char::len_utf8);
        Some((character, first, rest))
    })
}

/// The number of characters of `bytes`, a byte that is not valid UTF-8 counting as one.
fn char_count(bytes: &[u8]) -> usize {
    characters(bytes).count()
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
        // ...while trailing spaces after a Sokoban row are fine, however many.
        for ending in ["\n", "\r\n", ""] {
            let spaces = format!("abc{}{ending}", " ".repeat(10_000));
            let g = reader(&spaces)
                .grid(1, 3, RowEnd::TrimTrailingSpaces)
                .unwrap();
            assert_eq!(g.byte(0, 2), b'c');
        }
    }

    /// `n` spaces after `row`, then `rest`, without holding the spaces in memory.
    fn spaces_after(row: &'static str, n: u64, rest: &'static str) -> impl BufRead {
        let spaces = std::io::repeat(b' ').take(n);
        std::io::BufReader::new(row.as_bytes().chain(spaces).chain(rest.as_bytes()))
    }

    #[test]
    fn trailing_spaces_stream_past_in_bounded_memory() {
        // 64 MiB of spaces after each row: read through, never stored.
        let n = 64 << 20;
        let mut r = CaseReader::new(spaces_after("ab", n, "\r\ncd\n1 2\n"));
        let g = r.grid(2, 2, RowEnd::TrimTrailingSpaces).unwrap();
        assert_eq!((g.byte(0, 1), g.byte(1, 0)), (b'b', b'c'));
        assert!(
            r.buf.capacity() < 4 * 2 + ROW_SLACK + 64,
            "{}",
            r.buf.capacity()
        );
        let h = r.header(["a", "b"]).unwrap().unwrap();
        assert_eq!((h.line, h.values), (3, [1, 2]));
        // A character after the spaces still makes the row too long, where it passes the
        // width; so does a `\r` that does not end the line.
        for rest in ["x\n", "\r \n"] {
            let e = CaseReader::new(spaces_after("ab", n, rest))
                .grid(1, 2, RowEnd::TrimTrailingSpaces)
                .unwrap_err();
            assert_eq!(
                e.to_string(),
                "line 1, column 3: expected end of row after 2 characters, found a space"
            );
        }
    }

    #[test]
    fn columns_count_characters() {
        // Two-byte and three-byte characters take one column each.
        let g = reader("Sé€\n").grid(1, 3, RowEnd::Exact).unwrap();
        assert_eq!(
            g.unexpected(0, 1, "a cell").to_string(),
            "line 1, column 2: expected a cell, found 'é' (U+00E9)"
        );
        assert_eq!(
            g.unexpected(0, 2, "a cell").to_string(),
            "line 1, column 3: expected a cell, found '€' (U+20AC)"
        );
        let e = reader("éé.x\n").grid(1, 3, RowEnd::Exact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 4: expected end of row after 3 characters, found 'x'"
        );
        let e = reader("ab€\n")
            .grid(1, 2, RowEnd::TrimTrailingSpaces)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 3: expected end of row after 2 characters, found '€' (U+20AC)"
        );
        let e = reader("éa\n").grid(1, 3, RowEnd::Exact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 3: expected a row of 3 characters, found end of row after 2"
        );
        // A row of `width` four-byte characters is read whole, however long in bytes.
        let wide = "😀".repeat(5000);
        let g = reader(&wide).grid(1, 5000, RowEnd::Exact).unwrap();
        assert_eq!(g.width(), 5000);
        // A byte of non-UTF-8 text is one column too; a control character is named by its
        // code point.
        let g = CaseReader::new(&b"\xe2\x82.\xc2\x85\n"[..])
            .grid(1, 4, RowEnd::Exact)
            .unwrap();
        assert_eq!(
            g.unexpected(0, 1, "a cell").to_string(),
            "line 1, column 2: expected a cell, found byte 0x82"
        );
        assert_eq!(
            g.unexpected(0, 3, "a cell").to_string(),
            "line 1, column 4: expected a cell, found U+0085"
        );
        let e = reader("3 €\n").header(["a", "b"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 3: expected the b as a whole number, found '€' (U+20AC)"
        );
    }

    #[test]
    fn a_row_too_many_or_too_few_is_named() {
        // One row too many: the next "header" is a row as long as the others.
        let mut r = reader("2 3\n#a#\n# #\n#A#\n");
        r.header(["h", "w"]).unwrap();
        r.grid(2, 3, RowEnd::Exact).unwrap();
        let e = r.header(["h", "w"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4, column 1: expected a header, found a row (the case of line 1 has more \
             rows than the 2 its header gives)"
        );
        // Trailing spaces do not count for a Sokoban row.
        let mut r = reader("1 3\nSBT\n.#.   \n");
        r.header(["n", "m"]).unwrap();
        r.grid(1, 3, RowEnd::TrimTrailingSpaces).unwrap();
        let e = r.header(["n", "m"]).unwrap_err();
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        // A line of another length is only a bad header.
        let mut r = reader("1 3\nSBT\nxy\n");
        r.header(["n", "m"]).unwrap();
        r.grid(1, 3, RowEnd::TrimTrailingSpaces).unwrap();
        let e = r.header(["n", "m"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column 1: expected the n as a whole number, found 'x'"
        );
        // Rows missing: the next header (digits only) comes where a row should.
        let mut r = reader("3 5\n#####\n#aA #\n0 0 0\n");
        r.header(["w", "h"]).unwrap();
        let e = r.grid(3, 5, RowEnd::Exact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4, column 1: expected row 3 of 3, found a header (the case of line 1 \
             ended after 2 of its 3 rows)"
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

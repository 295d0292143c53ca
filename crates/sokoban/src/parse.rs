//! The XSB reader: level collections as they are published, one level at a time.
//!
//! A level is a maximal run of lines made only of `#@+$*. -_` that contain a `#`; every
//! other line (blank, `; 12`, `;screen.12`, `Title: ...`) separates levels, and the last
//! non-blank one before a level is its title (spec `sokoban.md`, "Input"). Rows are not
//! padded: the floor is what the player can reach, boxes ignored, and everything else is
//! wall.
//!
//! Why a line reader of its own rather than grid-core's [`grid_core::CaseReader`]: XSB has
//! no header with the size, so the size budget is checked while the rows arrive, and a
//! line longer than [`MAX_SIDE`] is measured and skipped without being stored.
//!
//! # Complexity
//! O(length of the input) time; memory O(rows x columns of one level), never more than
//! `--max-cells` allows.

use std::io::{self, BufRead};
use std::str::FromStr;

use grid_core::{CellId, ErrorKind, Grid, ParseError};

/// The longest row, and the most rows, a level may have.
pub const MAX_SIDE: usize = grid_core::limits::MAX_SIDE as usize;

/// The default cell budget (rows x longest row of one level, `--max-cells`).
pub const DEFAULT_MAX_CELLS: u64 = 1 << 16;

/// The most floor cells a level may have: cells are stored as 16-bit numbers in the
/// search's states.
pub const MAX_FLOOR: usize = u16::MAX as usize;

/// The longest title line printed as it is, in bytes: a level whose title line is
/// longer is refused with a located error (the line is measured, not stored, past it).
pub const MAX_TITLE: usize = 1 << 20;

/// Whether `byte` may appear in a level row.
fn is_level_byte(byte: u8) -> bool {
    matches!(
        byte,
        b'#' | b'@' | b'+' | b'$' | b'*' | b'.' | b' ' | b'-' | b'_'
    )
}

/// One line of the input, with its end (`\n`, `\r\n`) removed.
#[derive(Debug, Default)]
struct Line {
    /// Its first [`MAX_TITLE`] + 1 bytes at most.
    bytes: Vec<u8>,
    /// Its full length in bytes.
    len: usize,
    /// Its length without its trailing spaces (what a row keeps).
    content: usize,
    /// Made only of level bytes.
    level_bytes: bool,
    /// Holds a `#`.
    wall: bool,
    /// Made only of white space.
    blank: bool,
    /// Carriage returns in it, a last one included.
    returns: usize,
}

impl Line {
    /// A level row: only level bytes, with at least one wall.
    fn is_row(&self) -> bool {
        self.level_bytes && self.wall
    }
}

/// Reads one line into `line`, storing at most [`MAX_TITLE`] + 1 bytes of it and measuring
/// the rest; `false` at the end of the input.
///
/// Why measure rather than store: a row may carry any number of trailing spaces (they are
/// ignored) and a line any length, and memory stays bounded by [`MAX_TITLE`] either way.
fn read_line(input: &mut impl BufRead, line: &mut Line) -> io::Result<bool> {
    line.bytes.clear();
    line.len = 0;
    line.content = 0;
    line.level_bytes = true;
    line.wall = false;
    line.blank = true;
    line.returns = 0;
    let mut last = 0u8;
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], Some(i + 1)),
            None => (buffer, None),
        };
        if let Some(i) = chunk.iter().rposition(|&b| b != b' ' && b != b'\r') {
            line.content = line.len + i + 1;
        }
        if let Some(&b) = chunk.last() {
            last = b;
        }
        line.len += chunk.len();
        let room = (MAX_TITLE + 1).saturating_sub(line.bytes.len());
        line.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        // A '\r' is only allowed as the last byte (a "\r\n" end); checked below.
        line.level_bytes &= chunk.iter().all(|&b| is_level_byte(b) || b == b'\r');
        line.wall |= chunk.contains(&b'#');
        line.blank &= chunk.iter().all(u8::is_ascii_whitespace);
        line.returns += chunk.iter().filter(|&&b| b == b'\r').count();
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if last == b'\r' {
        if line.bytes.len() == line.len {
            line.bytes.pop();
        }
        line.len -= 1;
        line.returns -= 1;
    }
    line.level_bytes &= line.returns == 0;
    Ok(any)
}

/// The text of one level as read: its rows, where it starts, its number and title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LevelText {
    /// 1-based number of the level in the input.
    pub(crate) number: usize,
    /// The title line: the last comment line before the level, or `; N`.
    title: String,
    /// 1-based line of its first row.
    line: usize,
    /// Its rows, as read (not padded, trailing spaces dropped); empty when the level was
    /// refused for its size.
    rows: Vec<Vec<u8>>,
    /// Set when the level is beyond a size limit: the error, located.
    refused: Option<ParseError>,
}

impl LevelText {
    /// Validates the level ([`Level::from_rows`]), its errors located in the input.
    pub(crate) fn into_level(self) -> Result<Level, ParseError> {
        if let Some(e) = self.refused {
            return Err(e);
        }
        let line = self.line;
        Level::from_rows(self.number, self.title, &self.rows).map_err(|e| e.located(line))
    }
}

/// Reads the levels of an XSB collection one at a time, with their titles: an iterator
/// over each level, or the located error that refused it.
///
/// After a refused level the next one is still read; after an error reading the input
/// ([`ErrorKind::Io`]) the iterator ends.
///
/// ```
/// let text = "; one\n#####\n#@$.#\n#####\n\n; two\n####\n#@@#\n####\n";
/// let mut levels = sokoban::Collection::new(text.as_bytes(), sokoban::DEFAULT_MAX_CELLS);
/// assert_eq!(levels.next().unwrap().unwrap().title(), "; one");
/// let error = levels.next().unwrap().unwrap_err();
/// assert_eq!(error.to_string(), "line 8, column 3: the player ('@' or '+') appears again \
///                                (first at line 8, column 2)");
/// assert!(levels.next().is_none());
/// ```
///
/// # Complexity
/// O(length of the input) time; memory O(rows x columns of one level), never more than
/// its `max_cells` allows, and one line of at most [`MAX_TITLE`] bytes.
#[derive(Debug)]
pub struct Collection<R> {
    input: R,
    line: Line,
    /// The line in `line` is read and not yet used.
    pending: bool,
    line_number: usize,
    levels: usize,
    max_cells: u64,
    /// An error reading the input ended the collection.
    failed: bool,
}

impl<R: BufRead> Collection<R> {
    /// The levels of `input`, each refused when rows x longest row passes `max_cells`.
    pub fn new(input: R, max_cells: u64) -> Self {
        Collection {
            input,
            line: Line::default(),
            pending: false,
            line_number: 0,
            levels: 0,
            max_cells,
            failed: false,
        }
    }

    fn advance(&mut self) -> Result<bool, ParseError> {
        if self.pending {
            self.pending = false;
            return Ok(true);
        }
        self.line_number += 1;
        read_line(&mut self.input, &mut self.line)
            .map_err(|e| ParseError::at(self.line_number, 1, ErrorKind::Io(e.to_string())))
    }

    /// The next level's text, or `None` at the end of the input. A level beyond the size
    /// limits comes back with its error in `refused` and its rows dropped, so that the
    /// next level can still be read.
    ///
    /// # Errors
    /// Only when reading fails ([`ErrorKind::Io`]).
    pub(crate) fn next_text(&mut self) -> Result<Option<LevelText>, ParseError> {
        // The title: its text, or the line and length of one too long to print.
        let mut title: Option<Result<String, (usize, usize)>> = None;
        loop {
            if !self.advance()? {
                return Ok(None);
            }
            if self.line.is_row() {
                break;
            }
            if !self.line.blank {
                title = Some(if self.line.len > MAX_TITLE {
                    Err((self.line_number, self.line.len))
                } else {
                    let text = String::from_utf8_lossy(&self.line.bytes);
                    Ok(text.trim_end().to_owned())
                });
            }
        }
        self.levels += 1;
        let start = self.line_number;
        let mut level = LevelText {
            number: self.levels,
            title: String::new(),
            line: start,
            rows: Vec::new(),
            refused: None,
        };
        match title {
            Some(Ok(text)) => level.title = text,
            None => level.title = format!("; {}", self.levels),
            Some(Err((line, len))) => {
                level.refused = Some(too_large(
                    line,
                    "the length of this title line",
                    len as u64,
                    MAX_TITLE as u64,
                    "",
                ));
            }
        }
        let mut width = 0usize;
        loop {
            let row_line = self.line_number;
            let len = self.line.content;
            if level.refused.is_none() {
                width = width.max(len);
                let rows = level.rows.len() as u64 + 1;
                if len > MAX_SIDE {
                    level.refused = Some(too_large(
                        row_line,
                        "the length of this row",
                        len as u64,
                        MAX_SIDE as u64,
                        "",
                    ));
                } else if rows > MAX_SIDE as u64 {
                    level.refused = Some(too_large(
                        row_line,
                        "the number of rows of this level",
                        rows,
                        MAX_SIDE as u64,
                        "",
                    ));
                } else if rows * width as u64 > self.max_cells {
                    level.refused = Some(too_large(
                        start,
                        &format!("the number of cells ({rows} rows x {width} columns so far)"),
                        rows * width as u64,
                        self.max_cells,
                        "; raise it with --max-cells",
                    ));
                } else {
                    level.rows.push(self.line.bytes[..len].to_vec());
                }
                if level.refused.is_some() {
                    level.rows = Vec::new();
                }
            }
            if !self.advance()? {
                break;
            }
            if !self.line.is_row() {
                self.pending = true;
                break;
            }
        }
        Ok(Some(level))
    }

    /// How many levels have been read so far: the number of the last one returned.
    pub fn levels_read(&self) -> usize {
        self.levels
    }
}

impl<R: BufRead> Iterator for Collection<R> {
    type Item = Result<Level, ParseError>;

    /// The next level, or the located error that refused it; `None` at the end of the
    /// input and after an error reading it.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_text() {
            Ok(text) => text.map(LevelText::into_level),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

fn too_large(line: usize, what: &str, value: u64, limit: u64, hint: &str) -> ParseError {
    ParseError::at(
        line,
        1,
        ErrorKind::TooLarge {
            what: what.to_owned(),
            value,
            limit,
            hint: hint.to_owned(),
        },
    )
}

/// Why rows do not make a level ([`Level::new`]); rows and columns count from 1 in the
/// rows given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// A character that is not one of `#@+$*. -_`.
    #[error("row {row}, column {column}: {found} is not one of #@+$*. -_")]
    NotXsb {
        /// Its row.
        row: usize,
        /// Its column (in characters).
        column: usize,
        /// The character, described.
        found: String,
    },
    /// A second player (`@` or `+`).
    #[error(
        "row {row}, column {column}: a second player (the first is at row {first_row}, column {first_column})"
    )]
    SecondPlayer {
        /// Its row.
        row: usize,
        /// Its column.
        column: usize,
        /// The first player's row.
        first_row: usize,
        /// The first player's column.
        first_column: usize,
    },
    /// No player.
    #[error("no player ('@' or '+')")]
    NoPlayer,
    /// No box.
    #[error("no box ('$' or '*')")]
    NoBox,
    /// Not as many goals as boxes.
    #[error("{boxes} boxes and {goals} goals")]
    GoalCount {
        /// The boxes (`$`, `*`).
        boxes: usize,
        /// The goals (`.`, `*`, `+`).
        goals: usize,
    },
    /// More than [`MAX_SIDE`] rows or columns, or more than [`MAX_FLOOR`] floor cells.
    #[error("{what} is {value}, above the limit of {limit}")]
    TooLarge {
        /// What is too large, in words.
        what: &'static str,
        /// Its value.
        value: usize,
        /// The limit.
        limit: usize,
    },
}

impl LevelError {
    /// The error as the reader reports it, for a level whose first row is line `line`.
    fn located(self, line: usize) -> ParseError {
        match self {
            LevelError::NotXsb { row, column, found } => ParseError::at(
                line + row - 1,
                column,
                ErrorKind::Unexpected {
                    expected: "one of #@+$*. -_".to_owned(),
                    found,
                },
            ),
            LevelError::SecondPlayer {
                row,
                column,
                first_row,
                first_column,
            } => ParseError::at(
                line + row - 1,
                column,
                ErrorKind::Repeated {
                    what: "the player ('@' or '+')".to_owned(),
                    first_line: line + first_row - 1,
                    first_column,
                },
            ),
            LevelError::NoPlayer => ParseError::at(
                line,
                1,
                ErrorKind::Missing {
                    what: "player ('@' or '+')".to_owned(),
                },
            ),
            LevelError::NoBox => ParseError::at(
                line,
                1,
                ErrorKind::Missing {
                    what: "box ('$' or '*')".to_owned(),
                },
            ),
            LevelError::GoalCount { boxes, goals } => ParseError::at(
                line,
                1,
                ErrorKind::Unexpected {
                    expected: format!("as many goals as boxes ({boxes})"),
                    found: format!("{goals} goal{}", if goals == 1 { "" } else { "s" }),
                },
            ),
            LevelError::TooLarge { what, value, limit } => {
                too_large(line, what, value as u64, limit as u64, "")
            }
        }
    }
}

/// A Sokoban level: the floor the player can reach, the boxes, the goals and the player.
///
/// Invariants: as many boxes as goals (at least one), all on distinct floor cells of
/// [`Level::grid`], both lists sorted; boxes and goals the player can never reach are kept
/// apart ([`Level::stranded`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    number: usize,
    title: String,
    grid: Grid,
    boxes: Vec<CellId>,
    goals: Vec<CellId>,
    player: CellId,
    /// What each square of the rectangle shows when drawn: `#` wall, ` ` outside.
    walls: Vec<bool>,
    /// Boxes off goals and goals without boxes outside the player's reach.
    stranded: bool,
}

impl Level {
    /// The level of these rows (XSB, not padded; trailing spaces are ignored), with this
    /// title and number 1.
    ///
    /// ```
    /// let level = sokoban::Level::new("; a corridor", &["#######", "#@ $ .#", "#######"])?;
    /// assert_eq!(level.title(), "; a corridor");
    /// # Ok::<(), sokoban::LevelError>(())
    /// ```
    ///
    /// # Errors
    /// A character that is not XSB, no player or a second one, no box, not as many goals
    /// as boxes, more than [`MAX_SIDE`] rows or columns, more than [`MAX_FLOOR`] floor
    /// cells ([`LevelError`]).
    ///
    /// # Complexity
    /// O(rows x columns).
    pub fn new(title: &str, rows: &[&str]) -> Result<Self, LevelError> {
        if rows.len() > MAX_SIDE {
            return Err(LevelError::TooLarge {
                what: "the number of rows",
                value: rows.len(),
                limit: MAX_SIDE,
            });
        }
        let mut bytes = Vec::with_capacity(rows.len());
        for (r, row) in rows.iter().enumerate() {
            let row = row.trim_end_matches(' ');
            if let Some((column, c)) = row
                .chars()
                .enumerate()
                .find(|&(_, c)| !u8::try_from(c).is_ok_and(is_level_byte))
            {
                return Err(LevelError::NotXsb {
                    row: r + 1,
                    column: column + 1,
                    found: grid_core::describe_char(c),
                });
            }
            if row.len() > MAX_SIDE {
                return Err(LevelError::TooLarge {
                    what: "the length of a row",
                    value: row.len(),
                    limit: MAX_SIDE,
                });
            }
            bytes.push(row.as_bytes().to_vec());
        }
        Level::from_rows(1, title.to_owned(), &bytes)
    }

    /// Validates rows of level bytes, at most [`MAX_SIDE`] of at most [`MAX_SIDE`] bytes.
    pub(crate) fn from_rows(
        number: usize,
        title: String,
        rows: &[Vec<u8>],
    ) -> Result<Self, LevelError> {
        let height = rows.len();
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let byte = |r: usize, c: usize| rows[r].get(c).copied().unwrap_or(b' ');
        let mut player: Option<(usize, usize)> = None;
        let (mut box_count, mut goal_count) = (0usize, 0usize);
        for r in 0..height {
            for c in 0..width {
                let b = byte(r, c);
                if matches!(b, b'@' | b'+') {
                    if let Some((pr, pc)) = player {
                        return Err(LevelError::SecondPlayer {
                            row: r + 1,
                            column: c + 1,
                            first_row: pr + 1,
                            first_column: pc + 1,
                        });
                    }
                    player = Some((r, c));
                }
                box_count += usize::from(matches!(b, b'$' | b'*'));
                goal_count += usize::from(matches!(b, b'.' | b'*' | b'+'));
            }
        }
        let Some((pr, pc)) = player else {
            return Err(LevelError::NoPlayer);
        };
        if box_count == 0 {
            return Err(LevelError::NoBox);
        }
        if box_count != goal_count {
            return Err(LevelError::GoalCount {
                boxes: box_count,
                goals: goal_count,
            });
        }
        // The floor: what the player reaches from its square, walls stopping it, boxes not.
        let open = |r: usize, c: usize| byte(r, c) != b'#';
        let mut reach = vec![false; height * width];
        let mut stack = vec![(pr, pc)];
        reach[pr * width + pc] = true;
        let mut floor = 0usize;
        while let Some((r, c)) = stack.pop() {
            floor += 1;
            let near = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            for (nr, nc) in near {
                if nr < height && nc < width && open(nr, nc) && !reach[nr * width + nc] {
                    reach[nr * width + nc] = true;
                    stack.push((nr, nc));
                }
            }
        }
        if floor > MAX_FLOOR {
            return Err(LevelError::TooLarge {
                what: "the number of floor cells",
                value: floor,
                limit: MAX_FLOOR,
            });
        }
        let grid = Grid::new(height, width, |r, c| reach[r * width + c]);
        let (mut boxes, mut goals) = (Vec::new(), Vec::new());
        let mut stranded = false;
        for r in 0..height {
            for c in 0..width {
                let b = byte(r, c);
                let is_box = matches!(b, b'$' | b'*');
                let is_goal = matches!(b, b'.' | b'*' | b'+');
                match grid.cell(r, c) {
                    Some(cell) => {
                        if is_box {
                            boxes.push(cell);
                        }
                        if is_goal {
                            goals.push(cell);
                        }
                    }
                    // Out of reach: a box on a goal stays there for good (a wall); a box
                    // off a goal, or a goal without a box, can never be fixed.
                    None => stranded |= is_box != is_goal,
                }
            }
        }
        let walls = (0..height * width)
            .map(|i| byte(i / width, i % width) == b'#')
            .collect();
        Ok(Level {
            number,
            title,
            player: grid.cell(pr, pc).unwrap_or(CellId::new(0)),
            grid,
            boxes,
            goals,
            walls,
            stranded,
        })
    }

    /// Parses the first level of `xsb` (for the crate's tests and tools).
    #[cfg(test)]
    pub(crate) fn from_xsb(xsb: &str) -> Result<Self, ParseError> {
        xsb.parse()
    }

    /// 1-based number in its collection.
    pub fn number(&self) -> usize {
        self.number
    }

    /// Its title line.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The floor: every square the player can reach, boxes ignored.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The boxes on the floor, sorted.
    pub fn boxes(&self) -> &[CellId] {
        &self.boxes
    }

    /// The goals on the floor, sorted; as many as [`Level::boxes`] unless
    /// [`Level::stranded`].
    pub fn goals(&self) -> &[CellId] {
        &self.goals
    }

    /// The player's square.
    pub fn player(&self) -> CellId {
        self.player
    }

    /// Whether a box off a goal or an empty goal lies out of the player's reach: the level
    /// cannot be solved.
    pub fn stranded(&self) -> bool {
        self.stranded
    }

    /// Whether the square at `row`, `col` is drawn as a wall (`#` in the input).
    pub fn is_wall(&self, row: usize, col: usize) -> bool {
        self.walls
            .get(row * self.grid.width() + col)
            .copied()
            .unwrap_or(false)
    }

    /// The level in XSB, with `boxes` and `player` in place of the start (for drawings).
    pub fn draw(&self, boxes: &[CellId], player: CellId) -> String {
        self.draw_towards(boxes, player, &self.goals)
    }

    /// The level in XSB with `boxes` and `player` in place of the start and the goals on
    /// `goals` (sorted) in place of its own: the level whose solutions take `boxes` to
    /// `goals` (for a stretch of a solution, polished on its own).
    pub(crate) fn draw_towards(
        &self,
        boxes: &[CellId],
        player: CellId,
        goals: &[CellId],
    ) -> String {
        let grid = &self.grid;
        let mut text = String::new();
        for row in 0..grid.height() {
            let mut line = String::new();
            for col in 0..grid.width() {
                line.push(match grid.cell(row, col) {
                    None if self.is_wall(row, col) => '#',
                    None => ' ',
                    Some(c) => {
                        let goal = goals.binary_search(&c).is_ok();
                        let is_box = boxes.contains(&c);
                        match (c == player, is_box, goal) {
                            (true, _, true) => '+',
                            (true, _, false) => '@',
                            (false, true, true) => '*',
                            (false, true, false) => '$',
                            (false, false, true) => '.',
                            (false, false, false) => ' ',
                        }
                    }
                });
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }
}

impl FromStr for Level {
    type Err = ParseError;

    /// The first level of an XSB text (its title and every rule as [`Collection`] reads
    /// them, with [`DEFAULT_MAX_CELLS`]).
    ///
    /// # Errors
    /// The located [`ParseError`] of the first level, or "no level" when the text has
    /// none.
    fn from_str(xsb: &str) -> Result<Self, ParseError> {
        match Collection::new(xsb.as_bytes(), DEFAULT_MAX_CELLS).next() {
            Some(level) => level,
            None => Err(no_level()),
        }
    }
}

/// The error of an input without a level.
pub(crate) fn no_level() -> ParseError {
    ParseError::at(
        1,
        1,
        ErrorKind::Unexpected {
            expected: "a level (rows of #@+$*. -_ with a '#')".to_owned(),
            found: "no level in the input".to_owned(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(text: &str) -> Vec<Result<Level, ParseError>> {
        Collection::new(text.as_bytes(), DEFAULT_MAX_CELLS).collect()
    }

    #[test]
    fn titles_separators_and_floor() {
        let text = "Title: set\n; 1\n\n####\n#@$.#\n####\nAuthor: x\n#####\n#+*$ #\n";
        let all = levels(text);
        assert_eq!(all.len(), 2);
        let first = all[0].as_ref().unwrap();
        assert_eq!(first.title(), "; 1");
        assert_eq!(first.grid().cell_count(), 3);
        assert_eq!(first.boxes().len(), 1);
        // The second row "#@$.#" is longer than the wall above it: the square past the
        // first row's end is outside, and the floor is only what the player reaches.
        let second = all[1].as_ref().unwrap();
        assert_eq!(second.title(), "Author: x");
        assert_eq!(second.number(), 2);
        assert_eq!(second.boxes().len(), 2);
        assert_eq!(second.goals().len(), 2);
    }

    #[test]
    fn errors_are_located_and_the_next_level_still_reads() {
        let text =
            "#####\n#@$ #\n#####\n\n####\n#@@#\n####\n\n###\n#@#\n###\n\n#####\n#@$.#\n#####\n";
        let all = levels(text);
        assert_eq!(
            all[0].as_ref().unwrap_err().to_string(),
            "line 1, column 1: expected as many goals as boxes (1), found 0 goals"
        );
        assert_eq!(
            all[1].as_ref().unwrap_err().to_string(),
            "line 6, column 3: the player ('@' or '+') appears again (first at line 6, column 2)"
        );
        assert_eq!(
            all[2].as_ref().unwrap_err().to_string(),
            "line 9, column 1: this case has no box ('$' or '*')"
        );
        assert!(all[3].is_ok());
    }

    #[test]
    fn stranded_boxes_are_allowed() {
        let level = Level::from_xsb("#######\n#@$.#$#\n#####.#\n").unwrap();
        assert!(level.stranded());
        let level = Level::from_xsb("#######\n#@$.#*#\n#######\n").unwrap();
        assert!(!level.stranded());
        assert_eq!(level.boxes().len(), 1);
    }

    #[test]
    fn size_limits_refuse_before_storing() {
        let mut collection = Collection::new("####\n#@$.#\n####\n".as_bytes(), 8);
        let text = collection.next_text().unwrap().unwrap();
        assert!(text.rows.is_empty());
        assert_eq!(
            text.into_level().unwrap_err().to_string(),
            "line 1, column 1: the number of cells (2 rows x 5 columns so far) is 10, above \
             the limit of 8; raise it with --max-cells"
        );
        let long = format!("#@$.{}\n", "#".repeat(5000));
        let mut collection = Collection::new(long.as_bytes(), u64::MAX);
        let text = collection.next_text().unwrap().unwrap();
        assert!(text.rows.is_empty());
        assert!(
            text.into_level()
                .unwrap_err()
                .to_string()
                .contains("the length of this row is 5004")
        );
    }

    #[test]
    fn trailing_spaces_are_measured_not_stored() {
        let spaces = " ".repeat(5000);
        let text = format!("#####{spaces}\n#@$.#{spaces}\r\n#####{spaces}\n");
        let mut collection = Collection::new(text.as_bytes(), DEFAULT_MAX_CELLS);
        let level = collection.next_text().unwrap().unwrap();
        assert_eq!(
            level.rows,
            [b"#####".to_vec(), b"#@$.#".to_vec(), b"#####".to_vec()]
        );
        assert!(level.into_level().is_ok());
    }

    #[test]
    fn long_titles_are_kept_whole_up_to_the_limit() {
        let title = format!("; {}", "t".repeat(10_000));
        let text = format!("{title}\n#####\n#@$.#\n#####\n");
        assert_eq!(text.parse::<Level>().unwrap().title(), title);
        let title = format!("; {}", "t".repeat(MAX_TITLE));
        let text =
            format!("; ignored\n{title}\n#####\n#@$.#\n#####\n\n; next\n#####\n#@$.#\n#####\n");
        let all = levels(&text);
        assert_eq!(
            all[0].as_ref().unwrap_err().to_string(),
            format!(
                "line 2, column 1: the length of this title line is {}, above the limit of {MAX_TITLE}",
                MAX_TITLE + 2
            )
        );
        assert_eq!(all[1].as_ref().unwrap().title(), "; next");
    }

    #[test]
    fn an_input_without_a_level_is_an_error() {
        let only_returns = "; a\r#####\r#@$.#\r#####\r";
        assert_eq!(levels(only_returns).len(), 0);
        assert!(
            only_returns
                .parse::<Level>()
                .unwrap_err()
                .to_string()
                .contains("no level")
        );
    }

    #[test]
    fn new_checks_the_rows() {
        let level = Level::new("t", &["#####  ", "#@$.#", "#####"]).unwrap();
        assert_eq!(level, "t\n#####\n#@$.#\n#####\n".parse().unwrap());
        assert_eq!(
            Level::new("t", &["#####", "#@$x#"]).unwrap_err(),
            LevelError::NotXsb {
                row: 2,
                column: 4,
                found: "'x'".to_owned()
            }
        );
        assert_eq!(
            Level::new("t", &["#@@$.#"]).unwrap_err(),
            LevelError::SecondPlayer {
                row: 1,
                column: 3,
                first_row: 1,
                first_column: 2
            }
        );
        assert_eq!(
            Level::new("t", &["#$.#"]).unwrap_err(),
            LevelError::NoPlayer
        );
        assert_eq!(Level::new("t", &["#@.#"]).unwrap_err(), LevelError::NoBox);
        assert_eq!(
            Level::new("t", &["#@$$.#"]).unwrap_err(),
            LevelError::GoalCount { boxes: 2, goals: 1 }
        );
    }
}

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

use grid_core::{CellId, ErrorKind, Grid, ParseError};

/// The longest row, and the most rows, a level may have.
pub const MAX_SIDE: usize = grid_core::limits::MAX_SIDE as usize;

/// The default cell budget (rows x longest row of one level, `--max-cells`).
pub const DEFAULT_MAX_CELLS: u64 = 1 << 16;

/// The most floor cells a level may have: cells are stored as 16-bit numbers in the
/// search's states.
pub const MAX_FLOOR: usize = u16::MAX as usize;

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
    /// Its first [`MAX_SIDE`] + 1 bytes at most.
    bytes: Vec<u8>,
    /// Its full length in bytes.
    len: usize,
    /// Made only of level bytes.
    level_bytes: bool,
}

impl Line {
    /// A level row: only level bytes, with at least one wall.
    fn is_row(&self) -> bool {
        self.level_bytes && self.bytes.contains(&b'#')
    }

    fn is_blank(&self) -> bool {
        self.bytes.iter().all(u8::is_ascii_whitespace)
    }
}

/// Reads one line into `line`, storing at most [`MAX_SIDE`] + 1 bytes of it; `false` at the
/// end of the input.
fn read_line(input: &mut impl BufRead, line: &mut Line) -> io::Result<bool> {
    line.bytes.clear();
    line.len = 0;
    line.level_bytes = true;
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
        line.len += chunk.len();
        let room = (MAX_SIDE + 1).saturating_sub(line.bytes.len());
        line.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        // A '\r' is only allowed as the last byte (a "\r\n" end); checked below.
        line.level_bytes &= chunk.iter().all(|&b| is_level_byte(b) || b == b'\r');
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if line.bytes.last() == Some(&b'\r') && line.len <= MAX_SIDE + 1 {
        line.bytes.pop();
        line.len -= 1;
    }
    line.level_bytes &= !line.bytes.contains(&b'\r');
    Ok(any)
}

/// The text of one level as read: its rows, where it starts, its number and title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelText {
    /// 1-based number of the level in the input.
    pub number: usize,
    /// The title line: the last comment line before the level, or `; N`.
    pub title: String,
    /// 1-based line of its first row.
    pub line: usize,
    /// Its rows, as read (not padded); empty when the level was refused for its size.
    pub rows: Vec<Vec<u8>>,
    /// Set when the level is beyond a size limit: the error, located.
    pub refused: Option<ParseError>,
}

/// Streams the levels of an XSB collection.
#[derive(Debug)]
pub struct Collection<R> {
    input: R,
    line: Line,
    /// The line in `line` is read and not yet used.
    pending: bool,
    line_number: usize,
    levels: usize,
    max_cells: u64,
}

impl<R: BufRead> Collection<R> {
    /// Levels of `input`, each refused when rows x longest row passes `max_cells`.
    pub fn new(input: R, max_cells: u64) -> Self {
        Collection {
            input,
            line: Line::default(),
            pending: false,
            line_number: 0,
            levels: 0,
            max_cells,
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
    /// limits comes back with [`LevelText::refused`] set and its rows dropped, so that the
    /// next level can still be read.
    ///
    /// # Errors
    /// Only when reading fails ([`ErrorKind::Io`]).
    pub fn next_level(&mut self) -> Result<Option<LevelText>, ParseError> {
        let mut title: Option<String> = None;
        loop {
            if !self.advance()? {
                return Ok(None);
            }
            if self.line.is_row() {
                break;
            }
            if !self.line.is_blank() {
                let text = String::from_utf8_lossy(&self.line.bytes);
                title = Some(text.trim_end().to_owned());
            }
        }
        self.levels += 1;
        let start = self.line_number;
        let mut level = LevelText {
            number: self.levels,
            title: title.unwrap_or_else(|| format!("; {}", self.levels)),
            line: start,
            rows: Vec::new(),
            refused: None,
        };
        let mut width = 0usize;
        loop {
            let row_line = self.line_number;
            if level.refused.is_none() {
                width = width.max(self.line.len);
                let rows = level.rows.len() as u64 + 1;
                if self.line.len > MAX_SIDE {
                    level.refused = Some(too_large(
                        row_line,
                        "the length of this row",
                        self.line.len as u64,
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
                    level.rows.push(self.line.bytes.clone());
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
    /// Validates a level read by [`Collection::next_level`].
    ///
    /// # Errors
    /// A located [`ParseError`]: the size refusal of the text, no player, a second player,
    /// no box, different numbers of boxes and goals, more than [`MAX_FLOOR`] floor cells.
    ///
    /// # Complexity
    /// O(rows x columns).
    pub fn from_text(text: &LevelText) -> Result<Self, ParseError> {
        if let Some(e) = &text.refused {
            return Err(e.clone());
        }
        let height = text.rows.len();
        let width = text.rows.iter().map(Vec::len).max().unwrap_or(0);
        let byte = |r: usize, c: usize| text.rows[r].get(c).copied().unwrap_or(b' ');
        let mut player: Option<(usize, usize)> = None;
        let (mut box_count, mut goal_count) = (0usize, 0usize);
        for r in 0..height {
            for c in 0..width {
                let b = byte(r, c);
                if matches!(b, b'@' | b'+') {
                    if let Some((pr, pc)) = player {
                        return Err(ParseError::at(
                            text.line + r,
                            c + 1,
                            ErrorKind::Repeated {
                                what: "the player ('@' or '+')".to_owned(),
                                first_line: text.line + pr,
                                first_column: pc + 1,
                            },
                        ));
                    }
                    player = Some((r, c));
                }
                box_count += usize::from(matches!(b, b'$' | b'*'));
                goal_count += usize::from(matches!(b, b'.' | b'*' | b'+'));
            }
        }
        let Some((pr, pc)) = player else {
            return Err(ParseError::at(
                text.line,
                1,
                ErrorKind::Missing {
                    what: "player ('@' or '+')".to_owned(),
                },
            ));
        };
        if box_count == 0 {
            return Err(ParseError::at(
                text.line,
                1,
                ErrorKind::Missing {
                    what: "box ('$' or '*')".to_owned(),
                },
            ));
        }
        if box_count != goal_count {
            return Err(ParseError::at(
                text.line,
                1,
                ErrorKind::Unexpected {
                    expected: format!("as many goals as boxes ({box_count})"),
                    found: format!(
                        "{goal_count} goal{}",
                        if goal_count == 1 { "" } else { "s" }
                    ),
                },
            ));
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
            return Err(too_large(
                text.line,
                "the number of floor cells",
                floor as u64,
                MAX_FLOOR as u64,
                "",
            ));
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
            number: text.number,
            title: text.title.clone(),
            player: grid.cell(pr, pc).unwrap_or(CellId::new(0)),
            grid,
            boxes,
            goals,
            walls,
            stranded,
        })
    }

    /// Parses the first level of `xsb` (for tests and tools).
    ///
    /// # Errors
    /// As [`Level::from_text`]; a text without a level is "this case has no level".
    pub fn from_xsb(xsb: &str) -> Result<Self, ParseError> {
        let mut collection = Collection::new(xsb.as_bytes(), DEFAULT_MAX_CELLS);
        match collection.next_level()? {
            Some(text) => Level::from_text(&text),
            None => Err(ParseError::at(
                1,
                1,
                ErrorKind::Missing {
                    what: "level".to_owned(),
                },
            )),
        }
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
        let grid = &self.grid;
        let mut text = String::new();
        for row in 0..grid.height() {
            let mut line = String::new();
            for col in 0..grid.width() {
                line.push(match grid.cell(row, col) {
                    None if self.is_wall(row, col) => '#',
                    None => ' ',
                    Some(c) => {
                        let goal = self.goals.binary_search(&c).is_ok();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(text: &str) -> Vec<Result<Level, ParseError>> {
        let mut collection = Collection::new(text.as_bytes(), DEFAULT_MAX_CELLS);
        let mut out = Vec::new();
        while let Some(level) = collection.next_level().unwrap() {
            out.push(Level::from_text(&level));
        }
        out
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
        let text = collection.next_level().unwrap().unwrap();
        assert!(text.rows.is_empty());
        assert_eq!(
            Level::from_text(&text).unwrap_err().to_string(),
            "line 1, column 1: the number of cells (2 rows x 5 columns so far) is 10, above \
             the limit of 8; raise it with --max-cells"
        );
        let long = format!("#@$.{}\n", "#".repeat(5000));
        let mut collection = Collection::new(long.as_bytes(), u64::MAX);
        let text = collection.next_level().unwrap().unwrap();
        assert!(
            Level::from_text(&text)
                .unwrap_err()
                .to_string()
                .contains("the length of this row is 5004")
        );
    }
}

//! The MovingAI scenario format (`.scen`) of the MAPF benchmark: agents' starts and goals on
//! a `.map` read by [`grid_core::movingai`].
//!
//! The first line is `version 1`; each following line is one agent, 9 tab-separated
//! columns: bucket, map file name, map width, map height, start x, start y, goal x, goal y,
//! and an 8-connected optimal length (not used here: moves are 4-connected). x is the
//! column, y the row. An instance of K agents is the first K agent lines, the field's
//! convention; the lines after them are not read.
//!
//! The map name of column 2 is not compared with the map given (benchmark files are often
//! renamed or kept in other folders); the map size of columns 3 and 4 is, on every line.
//!
//! Errors name their column in characters and a non-ASCII character by itself and its code
//! point (`'３' (U+FF13)`), as the `.map` reader and every other reader do.
//!
//! # Complexity
//! O(K x K) for K agents (the repeated start or goal is reported with its first line, found
//! through a table indexed by cell: O(K + cells)).

use std::io::BufRead;

use grid_core::{CaseReader, CellId, ErrorKind, Grid, ParseError, char_column, describe_char_at};

/// Longest line read from a scenario.
const MAX_LINE: usize = 4096;

/// Columns of an agent line.
const COLUMNS: usize = 9;

/// The agents of an instance, in scenario order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Start of agent `i`.
    pub starts: Vec<CellId>,
    /// Goal of agent `i`.
    pub goals: Vec<CellId>,
}

/// Reads the first `agents` agents of a scenario on `grid` (`None`: every agent of the
/// file).
///
/// # Errors
/// A located [`ParseError`]: a first line other than `version 1`, a line without 9
/// tab-separated columns, a column that is not a whole number, a map size other than the
/// grid's, a start or goal outside the map or on a blocked cell, a start or goal repeated,
/// or fewer agent lines than `agents`.
///
/// # Complexity
/// O(cells + length of the lines read).
pub fn read_scenario<R: BufRead>(
    input: R,
    grid: &Grid,
    agents: Option<usize>,
) -> Result<Scenario, ParseError> {
    let mut reader = CaseReader::new(input);
    read_version(&mut reader)?;
    let mut starts = Vec::new();
    let mut goals = Vec::new();
    // Per cell: the line and column where it was first a start (resp. a goal).
    let mut start_at = vec![None::<(usize, usize)>; grid.cell_count()];
    let mut goal_at = vec![None::<(usize, usize)>; grid.cell_count()];
    while agents.is_none_or(|k| starts.len() < k) {
        let Some(line) = reader.text_line(MAX_LINE)? else {
            return match agents {
                Some(k) => Err(ParseError::at(
                    reader.line() + 1,
                    1,
                    ErrorKind::Unexpected {
                        expected: format!(
                            "agent {} of the {k} asked for with --agents",
                            starts.len() + 1
                        ),
                        found: format!("end of input after {} agents", starts.len()),
                    },
                )),
                None => Ok(Scenario { starts, goals }),
            };
        };
        let line = line.to_vec();
        let number = reader.line();
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let fields = split_tabs(&line, number)?;
        let value = |i: usize, what: &str| whole_number(&fields[i], number, what);
        value(0, "the bucket")?;
        let width = value(2, "the map width")?;
        let height = value(3, "the map height")?;
        for (found, expected, i, what) in [
            (width, grid.width(), 2, "width"),
            (height, grid.height(), 3, "height"),
        ] {
            if found != expected as u64 {
                return Err(ParseError::at(
                    number,
                    fields[i].1,
                    ErrorKind::Unexpected {
                        expected: format!("the map's {what}, {expected}"),
                        found: found.to_string(),
                    },
                ));
            }
        }
        for (x, y, role, list, seen) in [
            (4, 5, "start", &mut starts, &mut start_at),
            (6, 7, "goal", &mut goals, &mut goal_at),
        ] {
            let col = value(x, &format!("the {role} x"))?;
            let row = value(y, &format!("the {role} y"))?;
            let at = (number, fields[x].1);
            let cell = usize::try_from(row)
                .ok()
                .zip(usize::try_from(col).ok())
                .and_then(|(r, c)| (r < grid.height() && c < grid.width()).then_some((r, c)));
            let Some((r, c)) = cell else {
                return Err(ParseError::at(
                    at.0,
                    at.1,
                    ErrorKind::Unexpected {
                        expected: format!(
                            "a {role} inside the {} x {} map",
                            grid.width(),
                            grid.height()
                        ),
                        found: format!("x {col}, y {row}"),
                    },
                ));
            };
            let Some(cell) = grid.cell(r, c) else {
                return Err(ParseError::at(
                    at.0,
                    at.1,
                    ErrorKind::Unexpected {
                        expected: format!("a {role} on a free cell"),
                        found: format!("x {col}, y {row}, a blocked cell"),
                    },
                ));
            };
            if let Some((first_line, first_column)) = seen[cell.index()] {
                return Err(ParseError::at(
                    at.0,
                    at.1,
                    ErrorKind::Repeated {
                        what: format!("the {role} x {col}, y {row}"),
                        first_line,
                        first_column,
                    },
                ));
            }
            seen[cell.index()] = Some(at);
            list.push(cell);
        }
    }
    Ok(Scenario { starts, goals })
}

/// The first line, `version 1`.
fn read_version<R: BufRead>(reader: &mut CaseReader<R>) -> Result<(), ParseError> {
    let line = reader.text_line(MAX_LINE)?.unwrap_or_default();
    let words: Vec<&[u8]> = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words == [b"version".as_slice(), b"1".as_slice()] {
        return Ok(());
    }
    let found = match line.first() {
        None => "an empty line".to_owned(),
        Some(_) => format!(
            "'{}'",
            String::from_utf8_lossy(line)
                .chars()
                .take(40)
                .collect::<String>()
        ),
    };
    Err(ParseError::at(
        1,
        1,
        ErrorKind::Unexpected {
            expected: "the line 'version 1'".to_owned(),
            found,
        },
    ))
}

/// The 9 tab-separated columns of an agent line, each with its 1-based column (counted in
/// characters, as every reader counts them).
fn split_tabs(line: &[u8], number: usize) -> Result<Vec<(Vec<u8>, usize)>, ParseError> {
    let mut fields = Vec::with_capacity(COLUMNS);
    // Byte offset of the current column's first byte.
    let mut start = 0;
    for (i, part) in line.split(|&b| b == b'\t').enumerate() {
        if i == COLUMNS {
            // The tab that ends the ninth column, just before `start`.
            return Err(ParseError::at(
                number,
                char_column(line, start - 1),
                ErrorKind::Unexpected {
                    expected: format!("end of line after {COLUMNS} columns"),
                    found: "a tab".to_owned(),
                },
            ));
        }
        let trimmed = if i + 1 == COLUMNS {
            part.trim_ascii_end()
        } else {
            part
        };
        fields.push((trimmed.to_vec(), char_column(line, start)));
        start += part.len() + 1;
    }
    if fields.len() < COLUMNS {
        return Err(ParseError::at(
            number,
            char_column(line, line.len()),
            ErrorKind::Unexpected {
                expected: format!(
                    "{COLUMNS} tab-separated columns (bucket, map, width, height, start x, \
                     start y, goal x, goal y, length)"
                ),
                found: format!("end of line after {} columns", fields.len()),
            },
        ));
    }
    Ok(fields)
}

/// A column as a whole number (at most 19 digits), or a located error naming it `what` and
/// the first character that is not a digit (all before it are ASCII digits, one column
/// each).
fn whole_number(field: &(Vec<u8>, usize), line: usize, what: &str) -> Result<u64, ParseError> {
    let (digits, column) = field;
    if digits.is_empty() {
        return Err(ParseError::at(
            line,
            *column,
            ErrorKind::Unexpected {
                expected: format!("{what} as a whole number"),
                found: "an empty column".to_owned(),
            },
        ));
    }
    if let Some(pos) = digits.iter().position(|b| !b.is_ascii_digit()) {
        return Err(ParseError::at(
            line,
            column + pos,
            ErrorKind::Unexpected {
                expected: format!("{what} as a whole number"),
                found: describe_char_at(&digits[pos..]),
            },
        ));
    }
    if digits.len() > 19 {
        return Err(ParseError::at(
            line,
            *column,
            ErrorKind::Unexpected {
                expected: format!("{what} as a number of at most 19 digits"),
                found: format!("{} digits", digits.len()),
            },
        ));
    }
    Ok(digits
        .iter()
        .fold(0u64, |v, &d| v * 10 + u64::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Limits;
    use grid_core::movingai::read_map;

    const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n";

    fn read(scen: &str, agents: Option<usize>) -> Result<Scenario, ParseError> {
        let map = read_map(MAP.as_bytes(), Limits::cells_only(1 << 20), 0).unwrap();
        read_scenario(scen.as_bytes(), &map.grid, agents)
    }

    fn error(scen: &str, agents: Option<usize>) -> String {
        read(scen, agents).unwrap_err().to_string()
    }

    #[test]
    fn reads_the_first_agents() {
        let text = "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t5.0\n0\tm.map\t4\t3\t3\t2\t0\t0\t5\n\
                    garbage that is never read\n";
        let s = read(text, Some(2)).unwrap();
        assert_eq!(s.starts.len(), 2);
        let map = read_map(MAP.as_bytes(), Limits::cells_only(1 << 20), 0).unwrap();
        assert_eq!(map.grid.position(s.starts[1]), (2, 3));
        assert_eq!(map.grid.position(s.goals[1]), (0, 0));
        let s = read(&text[..text.find("garbage").unwrap()], None).unwrap();
        assert_eq!(s.goals.len(), 2);
    }

    /// A map name in Japanese before the columns: the column of an error counts its
    /// characters, not its bytes, and a full-width digit is named.
    #[test]
    fn non_ascii_is_named_and_counted_as_one_column() {
        assert_eq!(
            error("version 1\n0\tルーム.map\t4\t3\t３\t0\t3\t2\t1\n", None),
            "line 2, column 15: expected the start x as a whole number, found '\u{ff13}' (U+FF13)"
        );
        assert_eq!(
            error("version 1\n0\tルーム.map\t5\t3\t0\t0\t3\t2\t1\n", None),
            "line 2, column 11: expected the map's width, 4, found 5"
        );
        assert_eq!(
            error("version 1\n0\té\t4\t3\t0\t0\t3\t2\t1\tx\n", None),
            "line 2, column 18: expected end of line after 9 columns, found a tab"
        );
        assert_eq!(
            error("version 1\n0\té\t4\t3\t0\t0\t3\t2é\n", None),
            "line 2, column 17: expected 9 tab-separated columns (bucket, map, width, height, \
             start x, start y, goal x, goal y, length), found end of line after 8 columns"
        );
        let map = read_map(MAP.as_bytes(), Limits::cells_only(1 << 20), 0).unwrap();
        let bytes = b"version 1\n0\t\xff\xfe\t4\t3\t0\t0\t3\t2\xff\t1\n";
        assert_eq!(
            read_scenario(&bytes[..], &map.grid, None)
                .unwrap_err()
                .to_string(),
            "line 2, column 17: expected the goal y as a whole number, found byte 0xff",
            "a byte that is not UTF-8 is one column"
        );
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(
            error("version 2\n", None),
            "line 1, column 1: expected the line 'version 1', found 'version 2'"
        );
        let agent = |fields: &str| format!("version 1\n{fields}\n");
        assert_eq!(
            error(&agent("0\tm\t4\t3\t0\t0\t3\t2"), None),
            "line 2, column 16: expected 9 tab-separated columns (bucket, map, width, height, \
             start x, start y, goal x, goal y, length), found end of line after 8 columns"
        );
        assert_eq!(
            error(&agent("0\tm\t5\t3\t0\t0\t3\t2\t1"), None),
            "line 2, column 5: expected the map's width, 4, found 5"
        );
        assert_eq!(
            error(&agent("0\tm\t4\t3\t1\t1\t3\t2\t1"), None),
            "line 2, column 9: expected a start on a free cell, found x 1, y 1, a blocked cell"
        );
        assert_eq!(
            error(&agent("0\tm\t4\t3\t0\t0\t4\t2\t1"), None),
            "line 2, column 13: expected a goal inside the 4 x 3 map, found x 4, y 2"
        );
        assert_eq!(
            error(&agent("0\tm\t4\t3\t0\t-1\t3\t2\t1"), None),
            "line 2, column 11: expected the start y as a whole number, found '-'"
        );
        assert_eq!(
            error(
                &agent("0\tm\t4\t3\t0\t0\t3\t2\t1\n0\tm\t4\t3\t1\t0\t3\t2\t1"),
                None
            ),
            "line 3, column 13: the goal x 3, y 2 appears again (first at line 2, column 13)"
        );
        assert_eq!(
            error(&agent("0\tm\t4\t3\t0\t0\t3\t2\t1"), Some(3)),
            "line 3, column 1: expected agent 2 of the 3 asked for with --agents, found end \
             of input after 1 agents"
        );
    }
}

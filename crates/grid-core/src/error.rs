//! The typed, located error that every malformed input is reported with.

use std::fmt;

/// A problem in the input, located at a 1-based line and column.
///
/// Columns count characters (Unicode scalar values; each byte that is not part of valid
/// UTF-8 counts as one), so they match what an editor shows.
///
/// Its `Display` is `line L, column C: <what is wrong>`; the binaries print it behind
/// `error: ` and exit with status 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line of the offending character, or of the line that is missing.
    pub line: usize,
    /// 1-based column of the offending character (1 for a missing line).
    pub column: usize,
    /// What is wrong there.
    pub kind: ErrorKind,
}

impl ParseError {
    /// An error of `kind` at `line`, `column` (both 1-based).
    pub fn at(line: usize, column: usize, kind: ErrorKind) -> Self {
        ParseError { line, column, kind }
    }
}

/// What is wrong with the input at the place a [`ParseError`] points to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The format wants `expected` here, and the input has `found`.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What the format allows here, in words.
        expected: String,
        /// What the input holds here, in words (see [`describe_char_at`]).
        found: String,
    },
    /// A marker that must appear once appears a second time.
    #[error("{what} appears again (first at line {first_line}, column {first_column})")]
    Repeated {
        /// The marker, in words.
        what: String,
        /// Line of its first appearance.
        first_line: usize,
        /// Column of its first appearance.
        first_column: usize,
    },
    /// A marker that must appear in a case does not (located at the case header).
    #[error("this case has no {what}")]
    Missing {
        /// The marker, in words.
        what: String,
    },
    /// A size in the input is above what the program accepts.
    #[error("{what} is {value}, above the limit of {limit}{hint}")]
    TooLarge {
        /// The quantity, in words.
        what: String,
        /// Its value in the input (saturated at `u64::MAX`).
        value: u64,
        /// The largest accepted value.
        limit: u64,
        /// How the limit can be raised, starting with "; " (or empty).
        hint: String,
    },
    /// Solving the case would take more memory than the budget allows.
    #[error(
        "solving this case needs more than the memory budget of {budget_mib} MiB ({detail}); raise it with --memory-mib"
    )]
    OverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// What ran out, in words.
        detail: String,
    },
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Io(String),
}

/// Describes one input byte for an error message: `'x'` for printable ASCII, `a space`,
/// `a tab`, or `byte 0xNN` for anything else (including the bytes of non-UTF-8 text).
pub(crate) fn describe_byte(byte: u8) -> String {
    match byte {
        b' ' => "a space".to_owned(),
        b'\t' => "a tab".to_owned(),
        b'\r' => "a carriage return".to_owned(),
        0x21..=0x7e => format!("'{}'", byte as char),
        _ => format!("byte 0x{byte:02x}"),
    }
}

/// Describes one character for an error message: ASCII as `'x'` when printable, `a space`,
/// `a tab`, `a carriage return` or `byte 0xNN`; any other character by itself and its
/// code point (`'é' (U+00E9)`), or the code point alone for a control character.
pub fn describe_char(c: char) -> String {
    match u8::try_from(c) {
        Ok(byte) if byte.is_ascii() => describe_byte(byte),
        _ if c.is_control() => format!("U+{:04X}", u32::from(c)),
        _ => format!("'{c}' (U+{:04X})", u32::from(c)),
    }
}

/// Describes the character that `bytes` start with: [`describe_char`] when they start with
/// a whole UTF-8 character, `byte 0xNN` (the first byte) when they do not (a byte of
/// non-UTF-8 text). Empty `bytes` read "end of line".
pub fn describe_char_at(bytes: &[u8]) -> String {
    match (first_char(bytes), bytes.first()) {
        (Some(c), _) => describe_char(c),
        (None, Some(&byte)) => describe_byte(byte),
        (None, None) => "end of line".to_owned(),
    }
}

/// The 1-based column of byte `pos` of `line`, counted in characters as every reader
/// counts them (a byte that is not valid UTF-8 counts as one character): the column an
/// error at that byte names. A `pos` past the end counts the whole line.
///
/// ```
/// assert_eq!(grid_core::char_column("\u{e9}\u{e9}x".as_bytes(), 4), 3);
/// assert_eq!(grid_core::char_column(b"a\xffb", 2), 3);
/// ```
///
/// # Complexity
/// O(pos).
pub fn char_column(line: &[u8], pos: usize) -> usize {
    let before = &line[..pos.min(line.len())];
    let chars: usize = before
        .utf8_chunks()
        .map(|chunk| chunk.valid().chars().count() + chunk.invalid().len())
        .sum();
    chars + 1
}

/// The character `bytes` start with, when they start with a whole UTF-8 character; looks
/// at its own bytes only (at most 4).
pub(crate) fn first_char(bytes: &[u8]) -> Option<char> {
    let len = match *bytes.first()? {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    std::str::from_utf8(bytes.get(..len)?).ok()?.chars().next()
}

/// Formats an error for standard error, as every binary prints it.
pub fn report(error: &ParseError) -> impl fmt::Display + '_ {
    struct Report<'a>(&'a ParseError);
    impl fmt::Display for Report<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "error: {}", self.0)
        }
    }
    Report(error)
}

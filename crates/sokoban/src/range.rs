//! `--level N` and `--level A-B`: which levels of a collection to answer.

use std::fmt;
use std::str::FromStr;

/// A range of level numbers, 1-based and inclusive, never empty: `N` or `A-B` as text.
///
/// ```
/// let range: sokoban::LevelRange = "2-3".parse()?;
/// assert!(range.contains(3) && !range.contains(4));
/// assert_eq!("7".parse::<sokoban::LevelRange>()?.to_string(), "7");
/// assert!("3-2".parse::<sokoban::LevelRange>().is_err());
/// # Ok::<(), sokoban::LevelRangeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelRange {
    first: usize,
    last: usize,
}

/// Why a text is not a [`LevelRange`]; its message says what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LevelRangeError(String);

impl LevelRange {
    /// Levels `first` to `last`.
    ///
    /// # Errors
    /// When `first` is 0 or `first > last`.
    pub fn new(first: usize, last: usize) -> Result<Self, LevelRangeError> {
        if first == 0 {
            return Err(LevelRangeError(
                "expected a level number of at least 1, found '0'".to_owned(),
            ));
        }
        if first > last {
            return Err(LevelRangeError(format!(
                "the range {first}-{last} is empty"
            )));
        }
        Ok(LevelRange { first, last })
    }

    /// The first level.
    pub fn first(&self) -> usize {
        self.first
    }

    /// The last level.
    pub fn last(&self) -> usize {
        self.last
    }

    /// Whether level `number` is in the range.
    pub fn contains(&self, number: usize) -> bool {
        (self.first..=self.last).contains(&number)
    }
}

impl FromStr for LevelRange {
    type Err = LevelRangeError;

    fn from_str(text: &str) -> Result<Self, LevelRangeError> {
        let number = |s: &str| {
            s.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    LevelRangeError(format!(
                        "expected a level number of at least 1, found '{s}'"
                    ))
                })
        };
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        LevelRange::new(first, last)
    }
}

impl fmt::Display for LevelRange {
    /// `N` for one level, else `A-B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

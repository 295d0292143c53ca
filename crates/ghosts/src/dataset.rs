//! The problem of the UVa statement: a map with its ghosts, each with a start and a home.
//!
//! Why a layer of its own: the search works on cell numbers and stores its tables in the
//! shape that makes it fast; a caller speaks in rows and columns. This module checks
//! everything a caller can get wrong once, at construction ([`Dataset::new`]), so the
//! search may trust its input. It stands at the bottom of the crate's ladder: it uses
//! only `grid-core`.

use std::fmt;

use grid_core::{CellError, CellId, Grid};

/// Most ghosts a dataset may have: one per letter a-z.
pub const MAX_GHOSTS: u64 = 26;

/// The placements of all ghosts after each step, from the first step to the last (every
/// ghost home): `plan[t][i]` is ghost `i`'s cell after step `t + 1`.
pub type Plan = Vec<Vec<CellId>>;

/// A map with its ghosts: where each starts and where its home is.
///
/// Ghost `i` is the one the text format writes as the letter `a + i` (its home: `A + i`).
/// Every value of this type is valid: at most [`MAX_GHOSTS`] ghosts, each start and each
/// home on a corridor cell, no two starts and no two homes on one cell.
///
/// # Examples
/// From text, in the input format (`w h n`, then h rows of w characters):
/// ```
/// let dataset: ghosts::Dataset = "5 3 1\n#####\n#a A#\n#####\n".parse()?;
/// assert_eq!(dataset.ghost_count(), 1);
/// # Ok::<(), ghosts::ParseError>(())
/// ```
/// From coordinates, `(row, col)` from 0 at the top left:
/// ```
/// use ghosts::{Dataset, Grid};
///
/// let rows = ["#####", "#   #", "#####"];
/// let grid = Grid::new(3, 5, |r, c| rows[r].as_bytes()[c] != b'#');
/// let dataset = Dataset::new(grid, &[(1, 1)], &[(1, 3)])?;
/// assert_eq!(dataset.grid().position(dataset.homes()[0]), (1, 3));
/// # Ok::<(), ghosts::DatasetError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The corridor cells (letters are corridor too); outside the map is wall.
    pub(crate) grid: Grid,
    /// Start of ghost `i` (letter `a + i`).
    pub(crate) starts: Vec<CellId>,
    /// Home of ghost `i` (letter `A + i`).
    pub(crate) homes: Vec<CellId>,
    /// Line of the dataset's header, to locate errors found while solving (1 for a
    /// dataset built in code).
    pub(crate) header_line: usize,
}

/// What a search is asked for: the fewest steps alone, or an optimal plan as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// The number of steps only (the search keeps no way back to the start).
    Steps,
    /// The steps and one optimal plan.
    Plan,
}

/// Two datasets are equal when their maps, starts and homes are (wherever in an input
/// they were read).
impl PartialEq for Dataset {
    fn eq(&self, other: &Dataset) -> bool {
        (&self.grid, &self.starts, &self.homes) == (&other.grid, &other.starts, &other.homes)
    }
}

impl Eq for Dataset {}

/// A start or a home, to say which one a [`DatasetError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// Where ghost `i` starts (letter `a + i`).
    Start(usize),
    /// Where ghost `i` must end (letter `A + i`).
    Home(usize),
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Past 'z' (only in a refused dataset) the number is all there is to say.
        let letter = |base: u8, i: usize| match u8::try_from(i) {
            Ok(i) if i < 26 => format!("'{}'", (base + i) as char),
            _ => format!("number {}", i + 1),
        };
        match *self {
            Marker::Start(i) => write!(f, "the start of ghost {}", letter(b'a', i)),
            Marker::Home(i) => write!(f, "the home {}", letter(b'A', i)),
        }
    }
}

/// Why [`Dataset::new`] refuses its arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatasetError {
    /// The lists of starts and homes have different lengths.
    #[error("{starts} starts but {homes} homes: every ghost needs one of each")]
    CountMismatch {
        /// Starts given.
        starts: usize,
        /// Homes given.
        homes: usize,
    },
    /// More ghosts than letters (and than the search's keys hold).
    #[error("{ghosts} ghosts, above the limit of {limit} (one per letter a-z)")]
    TooManyGhosts {
        /// Ghosts given.
        ghosts: usize,
        /// [`MAX_GHOSTS`].
        limit: usize,
    },
    /// A start or home is not a corridor cell of the map.
    #[error("{marker}: {source}")]
    NotCorridor {
        /// Which start or home.
        marker: Marker,
        /// Outside the map or on a wall.
        source: CellError,
    },
    /// Two starts, or two homes, share a cell.
    #[error("{first} and {second} are both at ({row}, {col})")]
    SharedCell {
        /// The first of the two.
        first: Marker,
        /// The second.
        second: Marker,
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
}

impl Dataset {
    /// The dataset on `grid` (its cells are the corridor) where ghost `i` starts at
    /// `starts[i]` and must end at `homes[i]`, both `(row, col)` from 0 at the top left.
    /// A start may be a home, its own or another ghost's (the text format cannot write
    /// that, but the step rule has no quarrel with it).
    ///
    /// # Errors
    /// A [`DatasetError`] when the lists' lengths differ, there are more than
    /// [`MAX_GHOSTS`] ghosts, a cell is outside the map or a wall, or two starts (or two
    /// homes) share a cell.
    ///
    /// # Complexity
    /// O(n + cells of the grid) (one mark per cell to find shared cells).
    pub fn new(
        grid: Grid,
        starts: &[(usize, usize)],
        homes: &[(usize, usize)],
    ) -> Result<Dataset, DatasetError> {
        if starts.len() != homes.len() {
            return Err(DatasetError::CountMismatch {
                starts: starts.len(),
                homes: homes.len(),
            });
        }
        if starts.len() > MAX_GHOSTS as usize {
            return Err(DatasetError::TooManyGhosts {
                ghosts: starts.len(),
                limit: MAX_GHOSTS as usize,
            });
        }
        let place = |positions: &[(usize, usize)], marker: fn(usize) -> Marker| {
            let mut first_at: Vec<Option<usize>> = vec![None; grid.cell_count()];
            let mut cells = Vec::with_capacity(positions.len());
            for (i, &(row, col)) in positions.iter().enumerate() {
                let cell =
                    grid.floor_cell(row, col)
                        .map_err(|source| DatasetError::NotCorridor {
                            marker: marker(i),
                            source,
                        })?;
                if let Some(j) = first_at[cell.index()] {
                    return Err(DatasetError::SharedCell {
                        first: marker(j),
                        second: marker(i),
                        row,
                        col,
                    });
                }
                first_at[cell.index()] = Some(i);
                cells.push(cell);
            }
            Ok(cells)
        };
        let starts = place(starts, Marker::Start)?;
        let homes = place(homes, Marker::Home)?;
        Ok(Dataset {
            grid,
            starts,
            homes,
            header_line: 1,
        })
    }

    /// The dataset of cells already checked: the reader's (whose letters are corridor and
    /// unique), or a subset of another instance's agents. At most [`MAX_GHOSTS`] agents,
    /// distinct starts, distinct homes, all cells of `grid`.
    pub(crate) fn from_checked_cells(
        grid: Grid,
        starts: Vec<CellId>,
        homes: Vec<CellId>,
        header_line: usize,
    ) -> Dataset {
        debug_assert!(starts.len() == homes.len() && starts.len() <= MAX_GHOSTS as usize);
        debug_assert!(
            starts
                .iter()
                .chain(&homes)
                .all(|c| c.index() < grid.cell_count())
        );
        Dataset {
            grid,
            starts,
            homes,
            header_line,
        }
    }

    /// The corridor cells and how they connect.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Number of ghosts, 0 to [`MAX_GHOSTS`].
    pub fn ghost_count(&self) -> usize {
        self.starts.len()
    }

    /// Where each ghost starts, in letter order.
    pub fn starts(&self) -> &[CellId] {
        &self.starts
    }

    /// Each ghost's home, in letter order.
    pub fn homes(&self) -> &[CellId] {
        &self.homes
    }
}

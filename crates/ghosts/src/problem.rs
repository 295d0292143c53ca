//! The library's front door: a [`Dataset`] (parsed from text or built from coordinates),
//! the [`Options`] of one search, and [`solve`], which returns a [`Solution`].
//!
//! Why a layer of its own: the search works on cell numbers and stores its tables in the
//! shape that makes it fast; a caller speaks in rows and columns and wants an answer that
//! cannot be misread. This module checks everything a caller can get wrong once, at
//! construction, so the search may trust its input.

use std::fmt;
use std::str::FromStr;

use grid_core::limits::{DEFAULT_MEMORY_MIB, Limits, MIB};
use grid_core::{CaseReader, CellError, CellId, ErrorKind, Grid, ParseError};

use crate::parse::{BYTES_PER_CELL, BYTES_PER_CELL_PER_GHOST, MAX_GHOSTS, read_dataset_within};
use crate::search::Plan;

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

/// Parses exactly one dataset in the input format, optionally followed by the
/// terminator `0 0 0`, with the default cell budget and no memory check (that is
/// [`solve`]'s business).
///
/// # Errors
/// The located [`ParseError`] the program would print, and one for a text with no
/// dataset or with a second one.
impl FromStr for Dataset {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Dataset, ParseError> {
        let mut reader = CaseReader::new(text.as_bytes());
        let limits = Limits::cells_only(grid_core::limits::DEFAULT_MAX_CELLS);
        let Some(dataset) = read_dataset_within(&mut reader, limits)? else {
            return Err(ParseError::at(
                reader.line().max(1),
                1,
                ErrorKind::Missing {
                    what: "dataset before the end or the terminator `0 0 0`".to_owned(),
                },
            ));
        };
        match reader.header(["width", "height", "number of ghosts"])? {
            Some(next) if !next.is_terminator() => Err(next.error_at(
                0,
                ErrorKind::Unexpected {
                    expected: "the end of the text (it holds one dataset)".to_owned(),
                    found: "a second dataset".to_owned(),
                },
            )),
            _ => Ok(dataset),
        }
    }
}

/// What one search computes and how much memory it may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Also find one optimal plan ([`Solution::plan`]).
    pub plan: bool,
    /// Memory the search may use, in MiB (`--memory-mib`).
    pub memory_mib: u64,
}

impl Default for Options {
    /// No plan, [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        Options {
            plan: false,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// The answer for a solvable dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    steps: u32,
    plan: Option<Plan>,
    expanded: usize,
}

impl Solution {
    /// The fewest steps that bring every ghost home.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// When [`Options::plan`] asked for it: the placement after each step (every ghost's
    /// cell, in letter order), the last one with every ghost home; `steps()` long.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Placements the search expanded: a measure of its work, for benchmarks.
    pub fn expanded(&self) -> usize {
        self.expanded
    }
}

/// Why [`solve`] gave up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The placements to store would pass [`Options::memory_mib`].
    #[error(
        "the search needs more than the memory budget of {budget_mib} MiB (it ran out after storing {placements} placements)"
    )]
    OverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// Placements stored when the budget ran out.
        placements: usize,
    },
    /// The many-agent methods ([`crate::mapf`]) would pass [`Options::memory_mib`].
    #[error("the search needs more than the memory budget of {budget_mib} MiB ({detail})")]
    OverBudgetPlanning {
        /// The budget, in MiB.
        budget_mib: u64,
        /// What ran out, in words.
        detail: String,
    },
    /// The tables sized by the map ([`BYTES_PER_CELL`] + n x [`BYTES_PER_CELL_PER_GHOST`]
    /// bytes a cell, walls included) would pass [`Options::memory_mib`] before the search
    /// starts.
    #[error(
        "the tables sized by the map need about {need_mib} MiB, more than the memory budget of {budget_mib} MiB"
    )]
    TablesOverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// The estimated need, in MiB (rounded up).
        need_mib: u64,
    },
}

impl SolveError {
    /// What ran out, in words, as the over-budget error of the program says it.
    pub fn detail(&self) -> String {
        match self {
            SolveError::OverBudget { placements, .. } => format!(
                "the search ran out after storing {placements} placement{}",
                if *placements == 1 { "" } else { "s" }
            ),
            SolveError::OverBudgetPlanning { detail, .. } => detail.clone(),
            SolveError::TablesOverBudget { need_mib, .. } => {
                format!("about {need_mib} MiB for the tables sized by the map")
            }
        }
    }

    /// The budget that was too small, in MiB.
    pub fn budget_mib(&self) -> u64 {
        match self {
            SolveError::OverBudget { budget_mib, .. }
            | SolveError::OverBudgetPlanning { budget_mib, .. }
            | SolveError::TablesOverBudget { budget_mib, .. } => *budget_mib,
        }
    }
}

/// The fewest steps that bring every ghost of `dataset` home, all moving at once, and
/// with [`Options::plan`] one optimal plan; `Ok(None)` when they can never all be home.
///
/// # Examples
/// ```
/// let dataset: ghosts::Dataset = "4 3 2\n####\n#aA#\n#Bb#\n".parse()?;
/// let options = ghosts::Options { plan: true, ..Default::default() };
/// let solution = ghosts::solve(&dataset, &options)?.expect("solvable");
/// assert_eq!(solution.steps(), 1);
/// assert_eq!(solution.plan().map(Vec::len), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::TablesOverBudget`] when the map's tables alone would not fit in
/// [`Options::memory_mib`] (checked before anything is allocated), and
/// [`SolveError::OverBudget`] when the placements the search stores would pass it,
/// [`SolveError::OverBudgetPlanning`] when the many-agent methods would.
///
/// # Complexity
/// The portfolio of [`crate::mapf`]: the joint-placement A* of [`crate::search`] for few
/// ghosts, fixed-horizon planning and SAT decisions for more.
pub fn solve(dataset: &Dataset, options: &Options) -> Result<Option<Solution>, SolveError> {
    let grid = dataset.grid();
    let per_cell = BYTES_PER_CELL + BYTES_PER_CELL_PER_GHOST * dataset.ghost_count() as u64;
    let need = (grid.height() as u64)
        .saturating_mul(grid.width() as u64)
        .saturating_mul(per_cell);
    if need > options.memory_mib.saturating_mul(MIB) {
        return Err(SolveError::TablesOverBudget {
            budget_mib: options.memory_mib,
            need_mib: need.div_ceil(MIB),
        });
    }
    let found = crate::mapf::solve_dataset(
        dataset,
        options.plan,
        options.memory_mib,
        crate::mapf::Method::Auto,
    )
    .map_err(|e| match e {
        crate::mapf::Unanswered::OverBudget { budget_mib, detail } => {
            SolveError::OverBudgetPlanning { budget_mib, detail }
        }
        crate::mapf::Unanswered::JointOverBudget {
            budget_mib,
            placements,
        } => SolveError::OverBudget {
            budget_mib,
            placements,
        },
    })?;
    Ok(found.steps.map(|steps| Solution {
        steps,
        plan: found.plan,
        expanded: found.expanded,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room() -> Grid {
        // ####
        // #  #
        // ## #
        let rows = ["####", "#  #", "## #"];
        Grid::new(3, 4, |r, c| rows[r].as_bytes()[c] != b'#')
    }

    #[test]
    fn the_constructor_refuses_what_the_format_cannot_hold() {
        let e = |starts: &[(usize, usize)], homes: &[(usize, usize)]| {
            Dataset::new(room(), starts, homes).unwrap_err().to_string()
        };
        assert_eq!(
            e(&[(1, 1)], &[]),
            "1 starts but 0 homes: every ghost needs one of each"
        );
        assert_eq!(e(&[(1, 1)], &[(2, 1)]), "the home 'A': (2, 1) is a wall");
        assert_eq!(
            e(&[(1, 1), (3, 2)], &[(1, 2), (2, 2)]),
            "the start of ghost 'b': (3, 2) is outside the 3 x 4 grid"
        );
        assert_eq!(
            e(&[(1, 1), (1, 2)], &[(2, 2), (2, 2)]),
            "the home 'A' and the home 'B' are both at (2, 2)"
        );
        let many = vec![(1, 1); 27];
        assert_eq!(
            e(&many, &many),
            "27 ghosts, above the limit of 26 (one per letter a-z)"
        );
        // A start may be a home (the text format cannot write it; the search does not
        // mind): b must leave a's home, a follows it.
        let d = Dataset::new(room(), &[(1, 1), (1, 2)], &[(1, 2), (2, 2)]).unwrap();
        assert_eq!(d.ghost_count(), 2);
        assert_eq!(d.grid().position(d.starts()[1]), (1, 2));
        assert_eq!(
            solve(&d, &Options::default()).unwrap().map(|s| s.steps()),
            Some(1)
        );
    }

    #[test]
    fn built_and_parsed_datasets_agree_and_solve_alike() {
        let built = Dataset::new(room(), &[(1, 1)], &[(2, 2)]).unwrap();
        let parsed: Dataset = "4 3 1\n####\n#a #\n##A#\n".parse().unwrap();
        assert_eq!(built, parsed);
        let options = Options::default();
        let steps = |d: &Dataset| solve(d, &options).unwrap().map(|s| s.steps());
        assert_eq!(steps(&built), steps(&parsed));
        assert_eq!(steps(&built), Some(2));
    }

    #[test]
    fn parsing_wants_exactly_one_dataset() {
        let e = |text: &str| text.parse::<Dataset>().unwrap_err().to_string();
        assert_eq!(
            e("\n"),
            "line 1, column 1: this case has no dataset before the end or the terminator `0 0 0`"
        );
        assert_eq!(
            e("3 1 1\naA \n3 1 1\naA \n"),
            "line 3, column 1: expected the end of the text (it holds one dataset), found a \
             second dataset"
        );
        assert!("3 1 1\naA \n0 0 0\n".parse::<Dataset>().is_ok());
    }

    #[test]
    fn a_tiny_budget_is_a_typed_error() {
        let d: Dataset = "5 2 2\nab   \n   BA\n".parse().unwrap();
        let options = |memory_mib| Options {
            plan: false,
            memory_mib,
        };
        assert_eq!(
            solve(&d, &options(0)),
            Err(SolveError::TablesOverBudget {
                budget_mib: 0,
                need_mib: 1
            })
        );
        // 26 ghosts crossing an open room: the tables fit, and so does the many-agent
        // search (the joint A* would not: its placements pass 1 MiB).
        let crowd = |width: usize, height: usize| -> Dataset {
            let mut rows = vec![" ".repeat(width); height];
            rows[0] = ('a'..='z').chain(" ".repeat(width - 26).chars()).collect();
            rows[height - 1] = " "
                .repeat(width - 26)
                .chars()
                .chain(('A'..='Z').rev())
                .collect();
            format!("{width} {height} 26\n{}\n", rows.join("\n"))
                .parse()
                .unwrap()
        };
        let small = crowd(30, 10);
        let found = solve(&small, &options(1)).unwrap().map(|s| s.steps());
        assert!(found.is_some_and(|steps| steps >= 9 + 25), "{found:?}");
        // In a room of 100 x 40 the planning tables ((T + 1) x cells x 8 bytes) do not.
        assert!(matches!(
            solve(&crowd(100, 40), &options(1)),
            Err(SolveError::OverBudgetPlanning { budget_mib: 1, .. })
        ));
    }
}

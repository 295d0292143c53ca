//! Resource guards: the grid size a header claims, checked against a side limit and a cell
//! budget (`--max-cells`), and the memory a search will need, checked against a memory
//! budget (`--memory-mib`), both before anything is allocated for the case.
//!
//! Why one module: the three formats name and order their size fields differently
//! (`N M`, `w h n`), but a user should meet one wording and one pair of flags whichever
//! program refuses the case. Every refusal is a located [`ParseError`] at the header that
//! names the limit hit and the flag that raises it.
//!
//! # Complexity
//! O(1) per check.

use crate::error::{ErrorKind, ParseError};
use crate::reader::Header;

/// The longest side (rows or columns) any program accepts, whatever the budgets: a fixed
/// limit that keeps cell coordinates and numbers small.
pub const MAX_SIDE: u64 = 4096;

/// Bytes in a MiB, the unit of `--memory-mib`.
pub const MIB: u64 = 1 << 20;

/// The default cell budget of one case (`--max-cells`), the same for every program:
/// 2^22 cells, a 2048 x 2048 grid. It only guards the reading (a header claiming a huge
/// grid is refused before any row is read); what a search may use is the memory budget's
/// business, and at this size every program's per-cell tables fit in the default
/// [`DEFAULT_MEMORY_MIB`] (at most 200 bytes a cell: 800 MiB).
pub const DEFAULT_MAX_CELLS: u64 = 1 << 22;

/// The default memory budget of one case, in MiB (`--memory-mib`).
pub const DEFAULT_MEMORY_MIB: u64 = 1024;

/// The hint of a refused cell count.
const MAX_CELLS_HINT: &str = "; raise it with --max-cells";

/// The two budgets of one case, as the `--max-cells` and `--memory-mib` flags set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most cells (rows x columns, walls included) a grid may have.
    pub max_cells: u64,
    /// Most memory one case's search may need, in MiB.
    pub memory_mib: u64,
}

impl Limits {
    /// Only the cell budget; memory unlimited (for tests and tools that trust their input).
    pub fn cells_only(max_cells: u64) -> Self {
        Limits {
            max_cells,
            memory_mib: u64::MAX,
        }
    }
}

/// Where a format keeps the grid size in its header, and what it calls the two fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeFields<'a> {
    /// Index of the number of rows among the header's fields.
    pub rows: usize,
    /// Its name in messages, e.g. "the number of rows N" or "the height h".
    pub rows_name: &'a str,
    /// Index of the number of columns among the header's fields.
    pub cols: usize,
    /// Its name in messages.
    pub cols_name: &'a str,
}

/// A grid size read from a header and found within the side limit and the cell budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridSize {
    /// Number of rows, 1..=[`MAX_SIDE`].
    pub rows: usize,
    /// Number of columns, 1..=[`MAX_SIDE`].
    pub cols: usize,
    /// Line of the header, where refusals are located.
    pub line: usize,
    /// Column where the size starts in the header (the first of the two fields).
    pub column: usize,
}

impl GridSize {
    /// Rows x columns (at most [`MAX_SIDE`] squared, so no overflow).
    pub fn cells(&self) -> u64 {
        self.rows as u64 * self.cols as u64
    }

    /// Refuses the case when its search, needing `bytes_per_cell` bytes for each of the
    /// grid's cells (walls included: the header is all that is known yet), would not fit in
    /// `memory_mib` MiB.
    ///
    /// # Errors
    /// [`ErrorKind::OverBudget`] located at the size in the header, its detail giving the
    /// need in MiB (rounded up) and how it was estimated.
    pub fn check_memory(&self, bytes_per_cell: u64, memory_mib: u64) -> Result<(), ParseError> {
        let Some(need_mib) = over_budget_mib(self.cells(), bytes_per_cell, memory_mib) else {
            return Ok(());
        };
        Err(ParseError::at(
            self.line,
            self.column,
            ErrorKind::OverBudget {
                budget_mib: memory_mib,
                detail: format!(
                    "about {need_mib} MiB for {} x {} cells at {} bytes a cell",
                    self.rows, self.cols, bytes_per_cell
                ),
            },
        ))
    }
}

/// The memory `cells` cells at `bytes_per_cell` bytes each need, in MiB rounded up, when it
/// is more than `memory_mib` MiB; `None` when it fits. The one rule of every `--memory-mib`
/// check on a grid's cells: at a header ([`GridSize::check_memory`]) and in a solver's
/// `solve`, which library callers reach without a header.
///
/// ```
/// use grid_core::limits::over_budget_mib;
///
/// assert_eq!(over_budget_mib(1 << 20, 3, 2), Some(3));
/// assert_eq!(over_budget_mib(1 << 20, 2, 2), None);
/// ```
///
/// # Complexity
/// O(1); saturates rather than overflows.
pub fn over_budget_mib(cells: u64, bytes_per_cell: u64, memory_mib: u64) -> Option<u64> {
    let need = cells.saturating_mul(bytes_per_cell);
    (need > memory_mib.saturating_mul(MIB)).then(|| need.div_ceil(MIB))
}

/// Reads the grid size from `header` and checks it before anything is allocated: each side
/// in 1..=[`MAX_SIDE`], and rows x columns at most `max_cells`.
///
/// # Errors
/// A located [`ParseError`]: "expected NAME of at least 1" at a zero side, "NAME is V,
/// above the limit of 4096 per side" at a longer one, and at the first size field
/// "the number of cells (R rows x C columns) is X, above the limit of Y; raise it with
/// --max-cells".
pub fn grid_size<const K: usize>(
    header: &Header<K>,
    fields: SizeFields<'_>,
    max_cells: u64,
) -> Result<GridSize, ParseError> {
    let side = |field: usize, name: &str| {
        header
            .bounded(field, name, 1, MAX_SIDE, "")
            .map_err(|mut e| {
                if let ErrorKind::TooLarge { hint, .. } = &mut e.kind {
                    *hint = " per side".to_owned();
                }
                e
            })
    };
    let (first, second) = if fields.rows <= fields.cols {
        (
            (fields.rows, fields.rows_name),
            (fields.cols, fields.cols_name),
        )
    } else {
        (
            (fields.cols, fields.cols_name),
            (fields.rows, fields.rows_name),
        )
    };
    let first_value = side(first.0, first.1)?;
    let second_value = side(second.0, second.1)?;
    let (rows, cols) = if fields.rows <= fields.cols {
        (first_value, second_value)
    } else {
        (second_value, first_value)
    };
    let size = GridSize {
        rows,
        cols,
        line: header.line,
        column: header.columns[first.0],
    };
    if size.cells() > max_cells {
        return Err(ParseError::at(
            size.line,
            size.column,
            ErrorKind::TooLarge {
                what: format!(
                    "the number of cells ({} rows x {} columns)",
                    size.rows, size.cols
                ),
                value: size.cells(),
                limit: max_cells,
                hint: MAX_CELLS_HINT.to_owned(),
            },
        ));
    }
    Ok(size)
}

/// A `--time-limit` value of the programs: a number of seconds, at least 0, fractions
/// allowed (`2.5`); the message says what was expected.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(grid_core::limits::parse_seconds(" 2.5"), Ok(Duration::from_millis(2500)));
/// assert!(grid_core::limits::parse_seconds("-1").is_err());
/// assert!(grid_core::limits::parse_seconds("soon").is_err());
/// ```
///
/// # Errors
/// A message for clap (or any caller) when `text` is not such a number.
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, found '{text}'"))?;
    std::time::Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("expected a number of seconds of at least 0, found '{text}'"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::CaseReader;

    fn header<const K: usize>(text: &str, names: [&str; K]) -> Header<K> {
        CaseReader::new(text.as_bytes())
            .header(names)
            .unwrap()
            .unwrap()
    }

    const ROWS_FIRST: SizeFields<'static> = SizeFields {
        rows: 0,
        rows_name: "the number of rows",
        cols: 1,
        cols_name: "the number of columns",
    };

    const WIDTH_FIRST: SizeFields<'static> = SizeFields {
        rows: 1,
        rows_name: "the height",
        cols: 0,
        cols_name: "the width",
    };

    #[test]
    fn reads_sizes_in_either_order() {
        let h = header(" 3 4\n", ["a", "b"]);
        let size = grid_size(&h, ROWS_FIRST, 100).unwrap();
        assert_eq!((size.rows, size.cols, size.line, size.column), (3, 4, 1, 2));
        let h = header("3 4 2\n", ["a", "b", "c"]);
        let size = grid_size(&h, WIDTH_FIRST, 100).unwrap();
        assert_eq!((size.rows, size.cols, size.cells()), (4, 3, 12));
    }

    #[test]
    fn refusals_name_the_limit_and_the_flag() {
        let e = |text: &str, fields, max| {
            grid_size(&header(text, ["a", "b"]), fields, max)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("0 4\n", ROWS_FIRST, 100),
            "line 1, column 1: expected the number of rows of at least 1, found 0"
        );
        assert_eq!(
            e("4 1000000000\n", ROWS_FIRST, 100),
            "line 1, column 3: the number of columns is 1000000000, above the limit of \
             4096 per side"
        );
        // The first field of the header is checked first, whatever it holds.
        assert_eq!(
            e("5000 0\n", WIDTH_FIRST, 100),
            "line 1, column 1: the width is 5000, above the limit of 4096 per side"
        );
        assert_eq!(
            e("20 30\n", WIDTH_FIRST, 100),
            "line 1, column 1: the number of cells (30 rows x 20 columns) is 600, above \
             the limit of 100; raise it with --max-cells"
        );
    }

    #[test]
    fn memory_need_is_rounded_up_and_refused_above_the_budget() {
        let size = grid_size(&header("1024 1024\n", ["a", "b"]), ROWS_FIRST, u64::MAX).unwrap();
        assert!(size.check_memory(100, 100).is_ok());
        assert_eq!(
            size.check_memory(101, 100).unwrap_err().to_string(),
            "line 1, column 1: solving this case needs more than the memory budget of \
             100 MiB (about 101 MiB for 1024 x 1024 cells at 101 bytes a cell); raise it \
             with --memory-mib"
        );
        assert!(size.check_memory(u64::MAX, 1).is_err());
    }
}

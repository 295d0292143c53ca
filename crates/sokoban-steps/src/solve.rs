//! The entry point: the [`Options`] of one search, [`solve`] with its [`Solution`], and
//! the [`SolveError`] of a limit reached.
//!
//! Why a module of its own: it stands above the problem, the reader's memory estimate and
//! the searches, and joins them: the estimate decides before any table is allocated
//! whether the search may run at all.

use grid_core::limits::{DEFAULT_MEMORY_MIB, over_budget_mib};

use crate::parse::BYTES_PER_CELL;
use crate::path::Path;
use crate::problem::Puzzle;
use crate::search::Solver;

/// What one search computes and how much memory it may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Also find the smallest optimal step sequence ([`Solution::path`]).
    pub path: bool,
    /// Memory the search may use, in MiB (`--memory-mib`): a board whose N x M x
    /// [`BYTES_PER_CELL`] bytes pass it is refused.
    pub memory_mib: u64,
}

impl Default for Options {
    /// No path, [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        Options {
            path: false,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// The answer for a solvable puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    steps: u32,
    path: Option<Path>,
}

impl Solution {
    /// The fewest player steps, walks and pushes alike.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// When [`Options::path`] asked for it: the optimal step sequence smallest by
    /// N < S < W < E, `steps()` moves long.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_ref()
    }
}

/// Why [`solve`] refused a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The search's tables would pass [`Options::memory_mib`].
    #[error(
        "solving this puzzle needs about {need_mib} MiB, more than the memory budget of {budget_mib} MiB"
    )]
    Memory {
        /// The budget, in MiB.
        budget_mib: u64,
        /// The estimated need, in MiB (rounded up).
        need_mib: u64,
    },
}

/// The fewest player steps that bring the box of `puzzle` onto the target, and with
/// [`Options::path`] the smallest optimal step sequence; `Ok(None)` when the box can
/// never reach the target.
///
/// # Examples
/// ```
/// let puzzle: sokoban_steps::Puzzle = "4 4\n....\n..*@\n....\n.X..\n".parse()?;
/// let options = sokoban_steps::Options { path: true, ..Default::default() };
/// let solution = sokoban_steps::solve(&puzzle, &options)?.expect("solvable");
/// assert_eq!(solution.steps(), 3);
/// assert_eq!(solution.path().map(ToString::to_string).as_deref(), Some("nnE"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::Memory`] when the board's N x M x [`BYTES_PER_CELL`] bytes pass
/// [`Options::memory_mib`].
///
/// # Complexity
/// A* over (box cell, side) states: O(S log S) for the S states expanded (at most
/// 4 x cells), plus the walk searches; O(cells) memory.
pub fn solve(puzzle: &Puzzle, options: &Options) -> Result<Option<Solution>, SolveError> {
    let grid = puzzle.grid();
    let cells = (grid.height() as u64).saturating_mul(grid.width() as u64);
    if let Some(need_mib) = over_budget_mib(cells, BYTES_PER_CELL, options.memory_mib) {
        let budget_mib = options.memory_mib;
        return Err(SolveError::Memory {
            budget_mib,
            need_mib,
        });
    }
    let mut solver = Solver::new(puzzle);
    Ok(if options.path {
        solver.smallest_path().map(|path| Solution {
            steps: path.len() as u32,
            path: Some(path),
        })
    } else {
        solver
            .fewest_steps()
            .map(|steps| Solution { steps, path: None })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_budget_is_a_typed_error() {
        let maze: Puzzle = "1 4\nX*.@\n".parse().unwrap();
        assert_eq!(
            solve(
                &maze,
                &Options {
                    path: true,
                    memory_mib: 0
                }
            ),
            Err(SolveError::Memory {
                budget_mib: 0,
                need_mib: 1
            })
        );
    }

    #[test]
    fn a_walled_off_player_has_no_answer() {
        let puzzle: Puzzle = "1 4\nX#*@\n".parse().unwrap();
        assert_eq!(solve(&puzzle, &Options::default()), Ok(None));
    }
}

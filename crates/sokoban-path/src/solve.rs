//! The entry point: the [`Options`] of one search, [`solve`], and the [`SolveError`] of
//! a limit reached.
//!
//! Why a module of its own: it stands above the problem, the reader's memory estimate and
//! the search, and joins them: the estimate decides before any table is allocated whether
//! the search may run at all.

use std::cell::RefCell;

use grid_core::limits::{DEFAULT_MEMORY_MIB, over_budget_mib};

use crate::parse::BYTES_PER_CELL;
use crate::problem::Maze;
use crate::search::{Solution, Solver};

/// How much memory one search may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Memory the search may use, in MiB (`--memory-mib`): a maze whose rows x columns x
    /// [`BYTES_PER_CELL`] bytes pass it is refused.
    pub memory_mib: u64,
}

impl Default for Options {
    /// [`DEFAULT_MEMORY_MIB`].
    fn default() -> Self {
        Options {
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// Why [`solve`] refused a maze.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The search's tables would pass [`Options::memory_mib`].
    #[error(
        "solving this maze needs about {need_mib} MiB, more than the memory budget of {budget_mib} MiB"
    )]
    Memory {
        /// The budget, in MiB.
        budget_mib: u64,
        /// The estimated need, in MiB (rounded up).
        need_mib: u64,
    },
}

/// The answer for `maze` under the spec's four keys (fewest pushes, then fewest walks,
/// then the smallest push string, then the smallest walk string), or `Ok(None)` when no
/// move string solves it.
///
/// The search's buffers are kept from one call to the next on the same thread, so that
/// solving many small mazes allocates once.
///
/// # Examples
/// ```
/// let maze: sokoban_path::Maze = "3 4\nS...\n.B..\n...T\n".parse()?;
/// let solution = sokoban_path::solve(&maze, &sokoban_path::Options::default())?;
/// let solution = solution.expect("solvable");
/// assert_eq!(solution.moves(), "eSwsEE"); // walks e, w, s; pushes S, E, E
/// assert_eq!((solution.pushes(), solution.walks()), (3, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::Memory`] when the grid's rows x columns x [`BYTES_PER_CELL`] bytes
/// pass [`Options::memory_mib`].
///
/// # Complexity
/// See the crate's search notes: O(cells^2) in the worst case, near O(cells) on open rooms.
pub fn solve(maze: &Maze, options: &Options) -> Result<Option<Solution>, SolveError> {
    let grid = maze.grid();
    let cells = (grid.height() as u64).saturating_mul(grid.width() as u64);
    if let Some(need_mib) = over_budget_mib(cells, BYTES_PER_CELL, options.memory_mib) {
        let budget_mib = options.memory_mib;
        return Err(SolveError::Memory {
            budget_mib,
            need_mib,
        });
    }
    thread_local! {
        static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
    }
    Ok(SOLVER.with(|solver| match solver.try_borrow_mut() {
        Ok(mut solver) => solver.solve(maze),
        // Only a re-entrant call could find it taken: give it buffers of its own.
        Err(_) => Solver::new().solve(maze),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_budget_is_a_typed_error() {
        let maze: Maze = "1 4\nSB.T\n".parse().unwrap();
        assert_eq!(
            solve(&maze, &Options { memory_mib: 0 }),
            Err(SolveError::Memory {
                budget_mib: 0,
                need_mib: 1
            })
        );
    }

    #[test]
    fn a_walled_off_person_has_no_answer() {
        let maze: Maze = "1 4\nS#BT\n".parse().unwrap();
        assert_eq!(solve(&maze, &Options::default()), Ok(None));
    }
}

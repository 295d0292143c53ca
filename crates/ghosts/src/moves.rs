//! The step rule: what every ghost may do in one step, and the check that a step obeys it.

use grid_core::{CellId, Grid};

/// Where a ghost on each cell may be after one step: itself first (staying), then its
/// corridor neighbours in N, S, W, E order. Indexed by cell number.
#[derive(Debug, Clone)]
pub struct Options {
    options: Vec<[u32; 5]>,
    len: Vec<u8>,
}

impl Options {
    /// The options of every cell of `grid`.
    ///
    /// # Complexity
    /// O(cells).
    pub fn new(grid: &Grid) -> Self {
        let mut options = Vec::with_capacity(grid.cell_count());
        let mut len = Vec::with_capacity(grid.cell_count());
        for cell in grid.cells() {
            let mut row = [cell.index() as u32; 5];
            let mut k = 1;
            for (_, next) in grid.neighbours(cell) {
                row[k] = next.index() as u32;
                k += 1;
            }
            options.push(row);
            len.push(k as u8);
        }
        Options { options, len }
    }

    /// The cells a ghost on `cell` may occupy after one step, staying first.
    #[inline]
    pub fn of(&self, cell: u32) -> &[u32] {
        &self.options[cell as usize][..self.len[cell as usize] as usize]
    }
}

/// Whether ghosts `i` and `j` may go from `(a, b)` to `(a2, b2)` in the same step: they must
/// not land on one cell and must not swap cells (following is allowed).
#[inline]
pub fn compatible(a: u32, b: u32, a2: u32, b2: u32) -> bool {
    a2 != b2 && !(a2 == b && b2 == a)
}

/// Why a step from one placement of the ghosts to the next is not legal.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalStep {
    /// A ghost jumped to a cell that is neither its own nor a neighbour.
    #[error("ghost {ghost} jumps from {from:?} to {to:?}")]
    Jump {
        /// Ghost letter.
        ghost: char,
        /// Its cell before, `(row, col)`.
        from: (usize, usize),
        /// Its cell after.
        to: (usize, usize),
    },
    /// Two ghosts end the step on one cell.
    #[error("ghosts {first} and {second} both end on {cell:?}")]
    Collision {
        /// First ghost letter.
        first: char,
        /// Second ghost letter.
        second: char,
        /// The shared cell.
        cell: (usize, usize),
    },
    /// Two ghosts swapped cells.
    #[error("ghosts {first} and {second} swap cells")]
    Swap {
        /// First ghost letter.
        first: char,
        /// Second ghost letter.
        second: char,
    },
}

/// Checks one step of all ghosts from `before` to `after` against the rule of the spec.
///
/// # Complexity
/// O(n^2) for n ghosts.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn check_step(grid: &Grid, before: &[CellId], after: &[CellId]) -> Result<(), IllegalStep> {
    // Agents past the 26 letters (benchmark instances) are all named '*'.
    let letter = |i: usize| {
        if i < 26 {
            (b'a' + i as u8) as char
        } else {
            '*'
        }
    };
    for (i, (&from, &to)) in before.iter().zip(after).enumerate() {
        if from != to && !grid.neighbours(from).any(|(_, n)| n == to) {
            return Err(IllegalStep::Jump {
                ghost: letter(i),
                from: grid.position(from),
                to: grid.position(to),
            });
        }
        for j in 0..i {
            if after[j] == to {
                return Err(IllegalStep::Collision {
                    first: letter(j),
                    second: letter(i),
                    cell: grid.position(to),
                });
            }
            if after[j] == from && before[j] == to {
                return Err(IllegalStep::Swap {
                    first: letter(j),
                    second: letter(i),
                });
            }
        }
    }
    Ok(())
}

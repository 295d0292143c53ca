//! Plans: writing them (`--plan`), drawing them (`--show`, streamed frame by frame) and replaying them (the checker
//! the tests run on every plan).

use std::io::{self, Write};

use grid_core::{CellId, Grid};

use crate::dataset::{Dataset, Plan};
use crate::moves::{IllegalStep, check_step};

/// Writes one line per step: every ghost's `row,col` after the step, in letter order.
///
/// # Errors
/// When writing fails.
///
/// # Complexity
/// O(steps x n) time; one line held at a time.
pub fn write_plan(out: &mut impl Write, grid: &Grid, plan: &Plan) -> io::Result<()> {
    let mut line = String::new();
    for placement in plan {
        line.clear();
        for (i, &cell) in placement.iter().enumerate() {
            let (row, col) = grid.position(cell);
            let sep = if i == 0 { "" } else { " " };
            line.push_str(&format!("{sep}{row},{col}"));
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Writes the map before the first step and after every step, each under a line
/// `step K`: walls `#`, ghosts by their lowercase letter, a home without its ghost by its
/// uppercase letter.
///
/// Streamed frame by frame: one map's worth of memory, however long the plan (a 512 x
/// 512 corridor takes 131,000 steps, whose drawings would need 34 GB at once).
///
/// # Errors
/// When writing fails.
///
/// # Complexity
/// O(steps x (w x h + n)) time and output; O(w x h) memory.
pub fn write_drawings(out: &mut impl Write, dataset: &Dataset, plan: &Plan) -> io::Result<()> {
    let grid = &dataset.grid;
    let stride = grid.width() + 1;
    // The empty map with its homes, drawn once; each frame copies it and adds the ghosts.
    let mut empty = vec![b' '; grid.height() * stride];
    for row in 0..grid.height() {
        for col in 0..grid.width() {
            if grid.cell(row, col).is_none() {
                empty[row * stride + col] = b'#';
            }
        }
        empty[row * stride + grid.width()] = b'\n';
    }
    for (i, &home) in dataset.homes.iter().enumerate() {
        let (r, c) = grid.position(home);
        empty[r * stride + c] = b'A' + i as u8;
    }
    let mut frame = empty.clone();
    let frames = std::iter::once(&dataset.starts).chain(plan.iter());
    for (step, placement) in frames.enumerate() {
        frame.copy_from_slice(&empty);
        for (i, &ghost) in placement.iter().enumerate() {
            let (r, c) = grid.position(ghost);
            frame[r * stride + c] = b'a' + i as u8;
        }
        writeln!(out, "step {step}")?;
        out.write_all(&frame)?;
    }
    Ok(())
}

/// Why a plan does not solve its dataset.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPlan {
    /// Step `step` (1-based) breaks the step rule.
    #[error("step {step}: {illegal}")]
    Illegal {
        /// 1-based step number.
        step: usize,
        /// The broken rule.
        illegal: IllegalStep,
    },
    /// A placement names the wrong number of ghosts.
    #[error("step {step}: {found} ghosts placed, the dataset has {expected}")]
    WrongCount {
        /// 1-based step number.
        step: usize,
        /// Ghosts in the placement.
        found: usize,
        /// Ghosts in the dataset.
        expected: usize,
    },
    /// After the last step some ghost is not home.
    #[error("after {steps} steps not every ghost is home")]
    NotHome {
        /// Steps in the plan.
        steps: usize,
    },
}

/// Replays `plan` on `dataset`: every step must be legal and the last placement must have
/// every ghost home. Returns the number of steps.
///
/// # Complexity
/// O(steps x n^2).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn check_plan(dataset: &Dataset, plan: &Plan) -> Result<usize, BadPlan> {
    let n = dataset.starts.len();
    let mut before: &[CellId] = &dataset.starts;
    for (i, after) in plan.iter().enumerate() {
        if after.len() != n {
            return Err(BadPlan::WrongCount {
                step: i + 1,
                found: after.len(),
                expected: n,
            });
        }
        check_step(&dataset.grid, before, after).map_err(|illegal| BadPlan::Illegal {
            step: i + 1,
            illegal,
        })?;
        before = after;
    }
    if before != dataset.homes.as_slice() {
        return Err(BadPlan::NotHome { steps: plan.len() });
    }
    Ok(plan.len())
}

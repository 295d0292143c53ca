//! Plans: writing them (`--plan`), drawing them (`--show`) and replaying them (the checker
//! the tests run on every plan).

use std::fmt::Write as _;

use grid_core::{CellId, Grid};

use crate::moves::{IllegalStep, check_step};
use crate::problem::Dataset;
use crate::search::Plan;

/// One line per step: every ghost's `row,col` after the step, in letter order.
pub fn format_plan(grid: &Grid, plan: &Plan) -> String {
    let mut text = String::new();
    for placement in plan {
        let cells: Vec<String> = placement
            .iter()
            .map(|&c| {
                let (row, col) = grid.position(c);
                format!("{row},{col}")
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    text
}

/// The map before the first step and after every step: walls `#`, ghosts by their
/// lowercase letter, a home without its ghost by its uppercase letter.
pub fn draw_plan(dataset: &Dataset, plan: &Plan) -> String {
    let mut text = String::new();
    let frames = std::iter::once(&dataset.starts).chain(plan.iter());
    for (step, placement) in frames.enumerate() {
        let _ = writeln!(text, "step {step}");
        text.push_str(&draw(dataset, placement));
    }
    text
}

fn draw(dataset: &Dataset, placement: &[CellId]) -> String {
    let grid = &dataset.grid;
    let mut rows: Vec<Vec<u8>> = (0..grid.height())
        .map(|r| {
            (0..grid.width())
                .map(|c| {
                    if grid.cell(r, c).is_some() {
                        b' '
                    } else {
                        b'#'
                    }
                })
                .collect()
        })
        .collect();
    for (i, &home) in dataset.homes.iter().enumerate() {
        let (r, c) = grid.position(home);
        rows[r][c] = b'A' + i as u8;
    }
    for (i, &ghost) in placement.iter().enumerate() {
        let (r, c) = grid.position(ghost);
        rows[r][c] = b'a' + i as u8;
    }
    let mut text = String::new();
    for row in rows {
        text.push_str(&String::from_utf8_lossy(&row));
        text.push('\n');
    }
    text
}

/// Why a plan does not solve its dataset.
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

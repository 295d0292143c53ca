//! What the workspace's tests share, kept out of the libraries (a dev-dependency only, in
//! the manner of rust-analyzer's `test-utils`):
//!
//! - [`harness`]: how a data-driven test case is run through a binary and rendered for
//!   its snapshot, and the closed-pipe checks;
//! - [`peak_memory`]: a binary run as a whole process with its peak resident memory,
//!   for the tests of `--memory-mib`;
//! - [`mutate`]: seeded mutations of corpus inputs, for the fuzz tests;
//! - [`fuzz`]: what every stable fuzz test shares (corpus, campaigns, outcome check);
//! - [`svg_reading`]: SVG pictures read back as XML, with the writer's invariants checked;
//! - [`random_grid`]: the random grids that tests compare fast searches on.

pub mod fuzz;
pub mod harness;
pub mod mutate;
pub mod peak_memory;
pub mod svg_reading;

use grid_core::rng::SplitMix64;
use grid_core::{CellId, Grid};

/// A `height` x `width` grid where each cell is a wall with probability
/// `wall_percent` / 100, drawn from `rng`.
///
/// # Complexity
/// O(height x width).
pub fn random_grid(rng: &mut SplitMix64, height: usize, width: usize, wall_percent: u32) -> Grid {
    let open: Vec<bool> = (0..height * width)
        .map(|_| !rng.percent(wall_percent))
        .collect();
    Grid::new(height, width, |r, c| open[r * width + c])
}

/// `k` distinct starts and `k` distinct goals among the free cells of `grid`, each set
/// drawn from `rng` by a shuffle of all the cells (`k` at most the cell count).
///
/// # Complexity
/// O(C).
pub fn random_ends(rng: &mut SplitMix64, grid: &Grid, k: usize) -> (Vec<CellId>, Vec<CellId>) {
    let mut all: Vec<CellId> = grid.cells().collect();
    rng.shuffle(&mut all);
    let starts = all[..k].to_vec();
    rng.shuffle(&mut all);
    let goals = all[..k].to_vec();
    (starts, goals)
}

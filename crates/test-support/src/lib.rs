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
//! - [`Terminal`]: standard output and error meeting on one terminal, for the tests of
//!   the progress lines;
//! - [`random_grid`]: the random grids that tests compare fast searches on.

pub mod fuzz;
pub mod harness;
pub mod mutate;
pub mod peak_memory;
pub mod svg_reading;
mod terminal;

pub use terminal::Terminal;

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

/// A random small multi-agent instance: a grid of 3 to 9 rows and columns with up to
/// 30 % walls, and 2 to 12 agents on distinct random starts and distinct random goals,
/// at most one agent per `cells_per_agent` cells; `None` when the grid has fewer than 6
/// free cells. The neighbourhood searches' tests draw their maps from it.
///
/// # Complexity
/// O(C), C = 81 cells at most.
pub fn random_agents(
    rng: &mut SplitMix64,
    cells_per_agent: usize,
) -> Option<(Grid, Vec<CellId>, Vec<CellId>)> {
    let (h, w) = (rng.between(3, 9), rng.between(3, 9));
    let walls = rng.between(0, 30) as u32;
    let grid = random_grid(rng, h, w, walls);
    let cells = grid.cell_count();
    if cells < 6 {
        return None;
    }
    let k = rng.between(2, (cells / cells_per_agent).clamp(2, 12));
    let (starts, goals) = random_ends(rng, &grid, k);
    Some((grid, starts, goals))
}

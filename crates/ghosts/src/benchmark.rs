//! The many-agent problem of the MovingAI MAPF benchmark: a `.map`, a `.scen` and the
//! number of agents K taken from the top of the scenario (the field's convention).
//!
//! It enters [`crate::solve`] by the same door as a [`crate::Dataset`]: the same rules
//! (no two agents on one cell, no swaps, following allowed), any number of agents. The
//! formats are read by `grid_core::movingai` (the map) and [`crate::scen`] (the
//! scenario), each error located in its file.

use std::io::BufRead;

use grid_core::limits::{DEFAULT_MAX_CELLS, Limits};
use grid_core::movingai::{MAP_BYTES_PER_CELL, read_map};
use grid_core::{CellId, Grid, ParseError};

use crate::scen::read_scenario;

/// A MovingAI benchmark instance: the free cells of the map, and the start and goal of
/// each of its agents, in scenario order. Every value is valid: distinct starts, distinct
/// goals, all on free cells.
///
/// # Examples
/// ```
/// let map = "type octile\nheight 1\nwidth 4\nmap\n....\n";
/// let scen = "version 1\n0\tline.map\t4\t1\t0\t0\t3\t0\t3\n";
/// let problem = ghosts::Benchmark::new(map, scen, Some(1))?;
/// let answer = ghosts::solve(&problem, &ghosts::Options::default())?;
/// assert_eq!(answer.map(|solution| solution.steps()), Some(3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Benchmark {
    grid: Grid,
    starts: Vec<CellId>,
    goals: Vec<CellId>,
}

/// Why [`Benchmark::new`] refuses its texts: the located error, and which file it is in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BenchmarkError {
    /// The map text is malformed, or larger than the default cell budget.
    #[error("the map: {0}")]
    Map(ParseError),
    /// The scenario text is malformed, does not fit the map, or has fewer agents than
    /// asked for.
    #[error("the scenario: {0}")]
    Scenario(ParseError),
}

impl Benchmark {
    /// The instance of the first `agents` agents of the scenario text `scenario` on the
    /// map text `map` (`None`: every agent of the scenario), with the default cell
    /// budget.
    ///
    /// # Errors
    /// [`BenchmarkError::Map`] or [`BenchmarkError::Scenario`] with the located error.
    ///
    /// # Complexity
    /// O(cells + length of the scenario lines read).
    pub fn new(
        map: &str,
        scenario: &str,
        agents: Option<usize>,
    ) -> Result<Benchmark, BenchmarkError> {
        let grid = read_grid(map.as_bytes(), Limits::cells_only(DEFAULT_MAX_CELLS))
            .map_err(BenchmarkError::Map)?;
        Benchmark::on_grid(grid, scenario.as_bytes(), agents).map_err(BenchmarkError::Scenario)
    }

    /// The instance of the first `agents` agents of `scenario` on `grid`.
    pub(crate) fn on_grid(
        grid: Grid,
        scenario: impl BufRead,
        agents: Option<usize>,
    ) -> Result<Benchmark, ParseError> {
        let read = read_scenario(scenario, &grid, agents)?;
        Ok(Benchmark {
            grid,
            starts: read.starts,
            goals: read.goals,
        })
    }

    /// The free cells and how they connect.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Number of agents.
    pub fn agent_count(&self) -> usize {
        self.starts.len()
    }

    /// Where each agent starts, in scenario order.
    pub fn starts(&self) -> &[CellId] {
        &self.starts
    }

    /// Each agent's goal, in scenario order.
    pub fn goals(&self) -> &[CellId] {
        &self.goals
    }
}

/// The free cells of a MovingAI map, refused before its rows are read when it is above
/// `limits` (cells, or memory at the map reader's bytes a cell).
pub(crate) fn read_grid(map: impl BufRead, limits: Limits) -> Result<Grid, ParseError> {
    Ok(read_map(map, limits, MAP_BYTES_PER_CELL)?.grid)
}

//! ghosts: the fewest steps that bring every ghost home, all ghosts moving at once.
//!
//! The problem is "The Morning after Halloween" (ICPC Asia Tokyo 2007); the contract is
//! `shared/specs/ghosts.md`. In one step every ghost stays or moves to a neighbouring
//! corridor cell, all at once; no two may end on one cell or swap cells; following is
//! allowed.
//!
//! - [`parse`]: reading a dataset, with located errors;
//! - [`moves`]: the step rule and its checker;
//! - [`heuristic`]: consistent lower bounds (one-ghost and exact pair distances);
//! - [`search`]: A* over joint placements;
//! - [`plan`]: writing, drawing and replaying plans;
//! - [`generate`]: seeded random maps that keep the statement's promises.
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, guard the resources:
//! - `--max-cells` ([`Options::max_cells`], default 2^20): width x height, checked on the
//!   header before any row is read; no side may pass 4096.
//! - `--memory-mib` ([`Options::memory_mib`], default 1024): checked twice. From the header,
//!   the tables sized by the map ([`parse::BYTES_PER_CELL`] + n x
//!   [`parse::BYTES_PER_CELL_PER_GHOST`] bytes a cell, measured) must fit, or the dataset is
//!   refused before anything is allocated. The placements the search stores cannot be
//!   known in advance (at most C^n, usually far fewer), so the search counts them and
//!   stops, with an error at the dataset's header, when the next one would pass the
//!   budget.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod generate;
pub mod heuristic;
pub mod mapf;
pub mod moves;
pub mod parse;
pub mod plan;
pub mod scen;
pub mod search;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use grid_core::limits::{DEFAULT_MEMORY_MIB, Limits};
use grid_core::{CaseReader, ErrorKind, ParseError, RunError};

pub use parse::{Dataset, read_dataset, read_dataset_within};
pub use search::{PairsAfter, Plan, Solution, solve, solve_with};

/// What the program prints and how far it may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// After each answer, the placement after every step (`--plan`).
    pub plan: bool,
    /// After each answer, the map drawn before and after every step (`--show`).
    pub show: bool,
    /// Largest map accepted, in cells (width x height).
    pub max_cells: u64,
    /// Memory one search may use, in MiB.
    pub memory_mib: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            plan: false,
            show: false,
            max_cells: 1 << 20,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// Solves every dataset of `input` in turn, writing each answer (and plan) to `output`
/// and flushing it before reading the next dataset, so an error in dataset k keeps the
/// answers of datasets 1..k-1.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    options: &Options,
) -> Result<(), RunError> {
    let mut reader = CaseReader::new(input);
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    while let Some(dataset) = read_dataset_within(&mut reader, limits)? {
        let solution = mapf::solve(
            &dataset,
            options.plan || options.show,
            options.memory_mib,
            mapf::Method::Auto,
        )
        .map_err(|e| over_budget(dataset.header_line, options.memory_mib, &e))?;
        match solution.steps {
            Some(steps) => writeln!(output, "{steps}")?,
            None => writeln!(output, "-1")?,
        }
        if let Some(plan) = &solution.plan {
            if options.plan {
                output.write_all(plan::format_plan(&dataset.grid, plan).as_bytes())?;
            }
            if options.show {
                output.write_all(plan::draw_plan(&dataset, plan).as_bytes())?;
            }
        }
        output.flush()?;
    }
    Ok(())
}

/// The located over-budget error of a search that could not finish.
fn over_budget(line: usize, budget_mib: u64, unanswered: &mapf::Unanswered) -> ParseError {
    ParseError::at(
        line,
        1,
        ErrorKind::OverBudget {
            budget_mib,
            detail: unanswered.detail().to_owned(),
        },
    )
}

/// A benchmark instance on the command line: `--map FILE.map --scen FILE.scen
/// [--agents K]` (all agents of the scenario when K is not given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Benchmark {
    /// The MovingAI `.map` file.
    pub map: PathBuf,
    /// The MovingAI `.scen` file.
    pub scen: PathBuf,
    /// How many agents, from the top of the scenario.
    pub agents: Option<usize>,
}

/// Solves the benchmark instance `benchmark`: writes the fewest steps (or `-1`), then the
/// plan (`--plan`: one line per step, every agent's `row,col` in scenario order) and the
/// frames (`--show`) as for datasets.
///
/// # Errors
/// [`RunError::InFile`] for a file that cannot be read, is malformed, or is beyond the
/// limits, located in that file (the over-budget error of the search is located at the
/// first line of the scenario); [`RunError::Output`] when writing fails.
///
/// # Complexity
/// See [`mapf::solve`].
pub fn run_benchmark(
    benchmark: &Benchmark,
    output: &mut impl Write,
    options: &Options,
) -> Result<(), RunError> {
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    let in_file = |path: &Path| {
        let file = path.display().to_string();
        move |error: ParseError| RunError::InFile { file, error }
    };
    let open = |path: &Path| {
        std::fs::File::open(path)
            .map(std::io::BufReader::new)
            .map_err(|e| in_file(path)(ParseError::at(1, 1, ErrorKind::Io(e.to_string()))))
    };
    let map = grid_core::movingai::read_map(
        open(&benchmark.map)?,
        limits,
        grid_core::movingai::MAP_BYTES_PER_CELL,
    )
    .map_err(in_file(&benchmark.map))?;
    let scenario = scen::read_scenario(open(&benchmark.scen)?, &map.grid, benchmark.agents)
        .map_err(in_file(&benchmark.scen))?;
    let dataset = Dataset {
        grid: map.grid,
        starts: scenario.starts,
        homes: scenario.goals,
        header_line: 1,
    };
    let solution = mapf::solve(
        &dataset,
        options.plan || options.show,
        options.memory_mib,
        mapf::Method::Auto,
    )
    .map_err(|e| in_file(&benchmark.scen)(over_budget(1, options.memory_mib, &e)))?;
    match solution.steps {
        Some(steps) => writeln!(output, "{steps}")?,
        None => writeln!(output, "-1")?,
    }
    if let Some(plan) = &solution.plan {
        if options.plan {
            output.write_all(plan::format_plan(&dataset.grid, plan).as_bytes())?;
        }
        if options.show {
            let frames = mapf::show::draw_plan(&dataset.grid, &dataset.starts, &dataset.homes, plan);
            output.write_all(frames.as_bytes())?;
        }
    }
    output.flush()?;
    Ok(())
}

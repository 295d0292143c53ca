//! ghosts: the fewest steps that bring every ghost home, all ghosts moving at once.
//!
//! The problem is "The Morning after Halloween" (ICPC Asia Tokyo 2007, UVa 1601); the
//! input format, the step rule and the output are in `docs/ghosts.md`. In one step every
//! ghost stays or moves to a neighbouring corridor cell, all at once; no two may end on one
//! cell or swap cells; following is allowed.
//!
//! # Using the library
//! Parse a [`Dataset`] from text (or build one from coordinates with [`Dataset::new`]),
//! then [`solve`] it:
//! ```
//! let dataset: ghosts::Dataset = "5 3 1\n#####\n#a A#\n#####\n".parse()?;
//! let solution = ghosts::solve(&dataset, &ghosts::Options::default())?;
//! assert_eq!(solution.map(|s| s.steps()), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Everything a caller needs from `grid-core` ([`Grid`], [`CellId`], [`ParseError`], ...)
//! is re-exported here. [`run`] is the whole program (many datasets, streamed).
//!
//! # Modules
//! - [`problem`]: the dataset, its validating constructor, the options and [`solve`];
//! - [`parse`]: reading a dataset, with located errors;
//! - [`moves`]: the step rule and its checker;
//! - [`heuristic`]: consistent lower bounds (one-ghost and exact pair distances);
//! - [`search`]: A* over joint placements;
//! - [`mapf`]: many agents: fixed-horizon planning, SAT decisions, the -1 test;
//! - [`scen`]: the MovingAI scenario reader (`--map`, `--scen`, `--agents`);
//! - [`plan`]: writing, drawing and replaying plans;
//! - [`svg`]: the answer as an animated SVG picture (`--svg`);
//! - `generate` (feature `generate`): seeded random maps that keep the statement's
//!   promises.
//!
//! # Features
//! - `cli` (default): the `ghosts` binary and its command-line parser (clap). A library
//!   user can leave it out: `ghosts = { ..., default-features = false }`.
//! - `generate`: the seeded generators, for the workspace's tests and tools.
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, guard the resources:
//! - `--max-cells` ([`RunOptions::max_cells`], default [`DEFAULT_MAX_CELLS`] = 2^22):
//!   width x height, checked on the header before any row is read; no side may pass 4096.
//! - `--memory-mib` ([`RunOptions::memory_mib`], default 1024): checked twice. From the
//!   header, the tables sized by the map ([`parse::BYTES_PER_CELL`] + n x
//!   [`parse::BYTES_PER_CELL_PER_GHOST`] bytes a cell, measured) must fit, or the dataset is
//!   refused before anything is allocated. The placements the search stores cannot be
//!   known in advance (at most C^n, usually far fewer), so the search counts them and
//!   stops, with an error at the dataset's header, when the next one would pass the
//!   budget.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

#[cfg(feature = "generate")]
pub mod generate;
pub mod heuristic;
pub mod mapf;
pub mod moves;
pub mod parse;
pub mod plan;
pub mod problem;
pub mod scen;
pub mod search;
pub mod svg;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use grid_core::CaseReader;
use grid_core::limits::Limits;

pub use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB};
pub use grid_core::{CellError, CellId, Dir, ErrorKind, Grid, ParseError, RunError, exit_code};
pub use parse::{MAX_GHOSTS, read_dataset, read_dataset_within};
pub use problem::{Dataset, DatasetError, Marker, Options, Solution, SolveError, solve};
pub use search::Plan;

/// What the program prints and how far it may go: the flags of the `ghosts` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// After each answer, the placement after every step (`--plan`).
    pub plan: bool,
    /// After each answer, the map drawn before and after every step (`--show`).
    pub show: bool,
    /// Where to save each dataset's answer as an animated picture (`--svg FILE`): dataset
    /// k in the file [`grid_core::svg::case_path`] names (`FILE` for the first,
    /// `FILE-k.svg` for the others).
    pub svg: Option<PathBuf>,
    /// Largest map accepted, in cells (width x height).
    pub max_cells: u64,
    /// Memory one search may use, in MiB.
    pub memory_mib: u64,
    /// For a benchmark instance: every step of the search (bound, horizons, which method
    /// settled it, seconds) on standard error, one `ghosts: ...` line each (`--verbose`).
    pub verbose: bool,
}

impl Default for RunOptions {
    /// No plan, no drawing, no picture, [`DEFAULT_MAX_CELLS`], [`DEFAULT_MEMORY_MIB`],
    /// quiet.
    fn default() -> Self {
        RunOptions {
            plan: false,
            show: false,
            svg: None,
            max_cells: DEFAULT_MAX_CELLS,
            memory_mib: DEFAULT_MEMORY_MIB,
            verbose: false,
        }
    }
}

/// Solves every dataset of `input` in turn, writing each answer (and plan) to `output`
/// and flushing it before reading the next dataset, so an error in dataset k keeps the
/// answers of datasets 1..k-1. With [`RunOptions::svg`], each dataset's picture is saved
/// after its answer is written.
///
/// # Examples
/// ```
/// let mut out = Vec::new();
/// let input = "5 3 1\n#####\n#a A#\n#####\n0 0 0\n";
/// ghosts::run(input.as_bytes(), &mut out, &ghosts::RunOptions::default())?;
/// assert_eq!(out, b"2\n");
/// # Ok::<(), ghosts::RunError>(())
/// ```
///
/// # Errors
/// [`RunError::Input`] for the first malformed dataset or one past a budget (located;
/// the answers before it are written and flushed), [`RunError::Output`] when writing
/// fails, [`RunError::Picture`] when a picture file cannot be written.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    options: &RunOptions,
) -> Result<(), RunError> {
    let mut reader = CaseReader::new(input);
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    let mut number = 0;
    while let Some(dataset) = read_dataset_within(&mut reader, limits)? {
        number += 1;
        let solve_options = Options {
            plan: options.plan || options.show || options.svg.is_some(),
            memory_mib: options.memory_mib,
        };
        let solution =
            solve(&dataset, &solve_options).map_err(|e| over_budget(dataset.header_line, &e))?;
        match &solution {
            Some(solution) => writeln!(output, "{}", solution.steps())?,
            None => writeln!(output, "-1")?,
        }
        if let Some(plan) = solution.as_ref().and_then(Solution::plan) {
            if options.plan {
                plan::write_plan(output, &dataset.grid, plan)?;
            }
            if options.show {
                plan::write_drawings(output, &dataset, plan)?;
            }
        }
        output.flush()?;
        if let Some(path) = &options.svg {
            grid_core::svg::write_file(&grid_core::svg::case_path(path, number), |file| {
                svg::write_svg(file, &dataset, solution.as_ref().and_then(Solution::plan))
            })?;
        }
    }
    Ok(())
}

/// [`run`] on the datasets of the file `path` (the program's positional argument).
///
/// # Errors
/// [`RunError::Open`] when the file cannot be opened; else as [`run`].
pub fn run_file(
    path: &Path,
    output: &mut impl Write,
    options: &RunOptions,
) -> Result<(), RunError> {
    run(std::io::BufReader::new(open_file(path)?), output, options)
}

/// `path` opened for reading, or the error that says it cannot be.
fn open_file(path: &Path) -> Result<std::fs::File, RunError> {
    std::fs::File::open(path).map_err(|source| RunError::Open {
        file: path.display().to_string(),
        source,
    })
}

/// The located over-budget error of a search that could not finish.
fn over_budget(line: usize, error: &SolveError) -> ParseError {
    ParseError::at(
        line,
        1,
        ErrorKind::OverBudget {
            budget_mib: error.budget_mib(),
            detail: error.detail(),
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

/// Solves the benchmark instance `benchmark` (any number of agents): writes the fewest
/// steps (or `-1`), then the plan (`--plan`: one line per step, every agent's `row,col`
/// in scenario order), the frames (`--show`) and the picture (`--svg`) as for datasets.
///
/// # Errors
/// [`RunError::InFile`] for a file that cannot be read, is malformed, or is beyond the
/// limits, located in that file (the over-budget error of the search is located at the
/// first line of the scenario); [`RunError::Output`] when writing fails,
/// [`RunError::Picture`] when the picture cannot be written.
///
/// # Complexity
/// See [`mapf::solve`].
pub fn run_benchmark(
    benchmark: &Benchmark,
    output: &mut impl Write,
    options: &RunOptions,
) -> Result<(), RunError> {
    let limits = Limits {
        max_cells: options.max_cells,
        memory_mib: options.memory_mib,
    };
    let in_file = |path: &Path| {
        let file = path.display().to_string();
        move |error: ParseError| RunError::InFile { file, error }
    };
    let open = |path: &Path| open_file(path).map(std::io::BufReader::new);
    let map = grid_core::movingai::read_map(
        open(&benchmark.map)?,
        limits,
        grid_core::movingai::MAP_BYTES_PER_CELL,
    )
    .map_err(in_file(&benchmark.map))?;
    let grid = map.grid;
    let scenario = scen::read_scenario(open(&benchmark.scen)?, &grid, benchmark.agents)
        .map_err(in_file(&benchmark.scen))?;
    let want_plan = options.plan || options.show || options.svg.is_some();
    let mut trace = |event: &mapf::Event| {
        if options.verbose {
            eprintln!("ghosts: {event}");
        }
    };
    let solution = mapf::solve_traced(
        &grid,
        &scenario.starts,
        &scenario.goals,
        want_plan,
        options.memory_mib,
        mapf::Method::Auto,
        &mut trace,
    )
    .map_err(|e| {
        let error = match e {
            mapf::Unanswered::OverBudget { budget_mib, detail } => {
                SolveError::OverBudgetPlanning { budget_mib, detail }
            }
            mapf::Unanswered::JointOverBudget {
                budget_mib,
                placements,
            } => SolveError::OverBudget {
                budget_mib,
                placements,
            },
        };
        in_file(&benchmark.scen)(over_budget(1, &error))
    })?;
    match solution.steps {
        Some(steps) => writeln!(output, "{steps}")?,
        None => writeln!(output, "-1")?,
    }
    if let Some(plan) = &solution.plan {
        if options.plan {
            plan::write_plan(output, &grid, plan)?;
        }
        if options.show {
            mapf::show::write_drawings(output, &grid, &scenario.starts, &scenario.goals, plan)?;
        }
    }
    output.flush()?;
    if let Some(path) = &options.svg {
        grid_core::svg::write_file(path, |file| {
            mapf::show::write_svg(
                file,
                &grid,
                &scenario.starts,
                &scenario.goals,
                solution.plan.as_ref(),
            )
        })?;
    }
    Ok(())
}

//! ghosts: the fewest steps that bring every ghost home, all ghosts moving at once.
//!
//! The problem is "The Morning after Halloween" (ICPC Asia Tokyo 2007, UVa 1601); the
//! input format, the step rule and the output are in `docs/ghosts.md`. In one step every
//! ghost stays or moves to a neighbouring corridor cell, all at once; no two may end on one
//! cell or swap cells; following is allowed. The same rules on the MovingAI benchmark's
//! maps and scenarios, for any number of agents, are multi-agent path finding with the
//! makespan objective (`docs/mapf.md`).
//!
//! # Using the library
//! Parse a [`Dataset`] from text (or build one from coordinates with [`Dataset::new`]),
//! then [`solve`] it:
//! ```
//! let text = "5 3 1\n#####\n#a A#\n#####\n";
//! let problem: ghosts::Dataset = text.parse()?;
//! let answer = ghosts::solve(&problem, &ghosts::Options::default())?;
//! match answer {
//!     Some(solution) => assert_eq!(solution.steps(), 2),
//!     None => println!("the ghosts can never all be home"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! A MovingAI instance enters by the same door: [`Benchmark::new`] from the map text, the
//! scenario text and the number of agents. [`Options`] asks for the plan, sets the
//! memory budget and the time limit, and takes a sink for the trace of the search
//! ([`Event`]). [`run`] is the whole program (many datasets, streamed), built on
//! [`solve`]; [`run_file`] and [`run_benchmark`] are its other inputs.
//!
//! # Inside: a ladder of modules
//! Each module uses only those below it (no module imports one that imports it back):
//! 1. the formats and the program: `lib` ([`run`]), `plan` and `svg` (writing and
//!    drawing answers), `mapf::show` (the same for MovingAI instances),
//!    `progress_line` (the binary's [`ProgressLine`] on a terminal);
//! 2. the front door: `solve` ([`Options`], [`Solution`], [`SolveError`], [`solve`]);
//! 3. the readers: `parse` (the UVa format, with located errors), `benchmark` and `scen`
//!    (the MovingAI files);
//! 4. the many-agent driver: `mapf` (the lower bound, the -1 test, horizons settled by
//!    prioritized planning and SAT decisions on cores of agents), which runs
//! 5. the joint-placement A* `search`, over
//! 6. its bounds `heuristic` (one-ghost and exact pair distances) and the step rule
//!    `moves`;
//! 7. at the bottom, the problem itself: `dataset` ([`Dataset`], its validating
//!    constructor, [`Plan`]), and `progress` ([`Progress`]: the figures of the solve
//!    under way, for a progress line).
//!
//! # Features
//! - `cli` (default): the `ghosts` binary and its command-line parser (clap). A library
//!   user can leave it out: `ghosts = { ..., default-features = false }`.
//! - `generate`: seeded random maps that keep the statement's promises, for the
//!   workspace's tests and tools.
//! - `internals`: the methods one by one, for the workspace's own tests (hidden, and no
//!   promise to anyone else).
//!
//! # Limits
//! Bad input never panics: [`run`] ends with a located error (`docs/errors.md` lists them
//! all). Two budgets, the flags of every program of the workspace, guard the resources:
//! - `--max-cells` ([`RunOptions::max_cells`], default [`DEFAULT_MAX_CELLS`] = 2^22):
//!   width x height, checked on the header before any row is read; no side may pass 4096.
//! - `--memory-mib` ([`RunOptions::memory_mib`], default 1024): checked twice. From the
//!   header, the tables sized by the map (56 + 4 n bytes a cell, measured) must fit, or the
//!   dataset is refused before anything is allocated. The placements the search stores
//!   cannot be known in advance (at most C^n, usually far fewer), so the search counts
//!   them and stops, with an error at the dataset's header, when the next one would pass
//!   the budget.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]
// The `internals` feature makes the methods public one by one for the workspace's tests
// (hidden, not part of the API); their docs name the private items they are built from.
#![cfg_attr(feature = "internals", allow(rustdoc::private_intra_doc_links))]

mod benchmark;
mod dataset;
#[cfg(feature = "generate")]
pub mod generate;
mod heuristic;
mod mapf;
mod moves;
mod parse;
mod plan;
mod progress;
mod progress_line;
mod scen;
mod search;
mod solve;
mod svg;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use grid_core::limits::Limits;
use grid_core::{CaseReader, ErrorKind};

pub use benchmark::{Benchmark, BenchmarkError};
pub use dataset::{Dataset, DatasetError, MAX_GHOSTS, Marker, Plan};
pub use grid_core::limits::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB};
pub use grid_core::progress::Wiping;
pub use grid_core::{CellError, CellId, Grid, ParseError, RunError, exit_code};
pub use mapf::Event;
pub use progress::Progress;
pub use progress_line::ProgressLine;
pub use solve::{Objective, Options, Problem, Solution, SolveError, solve};

use parse::read_dataset_within;

/// The methods one by one, for the workspace's tests: each compared with a slow
/// reference, with and without its switches. Not part of the API.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::dataset::Want;
    pub use crate::parse::{read_dataset, read_dataset_within};
    pub use crate::plan::{BadPlan, check_plan, write_drawings};
    pub use crate::scen::{Scenario, read_scenario};
    pub use crate::svg::write_svg;

    /// The joint-placement A*.
    pub mod search {
        pub use crate::search::{Found, OverBudget, PairsAfter, solve, solve_with};
    }

    /// The many-agent methods and their driver.
    pub mod mapf {
        pub use crate::mapf::{
            Agents, Event, Horizons, Instance, LastResort, Limits, Method, Refused, Stopped,
            Stopwatch, Techniques, Unanswered, constructive, lacam, push_swap, refine, repair, sat,
            soc, solvable, solve, solve_stopped, solve_traced, solve_with, solve_with_last_resort,
        };
    }
}

/// What the program prints, how far it may go, and who hears of the search's progress:
/// the flags of the `ghosts` binary.
#[derive(Clone)]
pub struct RunOptions<'a> {
    /// What each answer minimises (`--objective`).
    pub objective: Objective,
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
    /// Where to write the instance's answer in lacam3's `result.txt` format (`--output
    /// FILE`, MovingAI instances only; `docs/mapf.md`).
    pub result_file: Option<PathBuf>,
    /// The file the MAPF Tracker's CSV row of the answer is appended to (`--tracker
    /// FILE`, MovingAI instances only; the header first when the file is new or empty).
    pub tracker_file: Option<PathBuf>,
    /// Wall time one search may take (`--time-limit`): past it, the best plan found
    /// with its proven lower bound ([`Options::time_limit`]); `None`: no limit.
    pub time_limit: Option<std::time::Duration>,
    /// The threads one search may use ([`Options::threads`]; `--jobs`): by default the
    /// machine's processors, as sokoban's `RunOptions`; the library's own
    /// [`Options::default`] takes one.
    pub threads: std::num::NonZeroUsize,
    /// Told every step of each search ([`Options::trace`]); the binary's `--verbose`
    /// prints them on standard error.
    pub trace: Option<&'a dyn Fn(&Event)>,
    /// Kept up to date with each search's bound and best plan ([`Options::progress`]);
    /// the binary redraws them on standard error when it is a terminal.
    pub progress: Option<&'a Progress>,
}

impl Default for RunOptions<'_> {
    /// The makespan, no plan, no drawing, no picture, [`DEFAULT_MAX_CELLS`],
    /// [`DEFAULT_MEMORY_MIB`], no time limit, the machine's processors, no trace,
    /// no progress.
    fn default() -> Self {
        RunOptions {
            objective: Objective::Makespan,
            plan: false,
            show: false,
            svg: None,
            max_cells: DEFAULT_MAX_CELLS,
            memory_mib: DEFAULT_MEMORY_MIB,
            result_file: None,
            tracker_file: None,
            time_limit: None,
            threads: std::thread::available_parallelism().unwrap_or(std::num::NonZeroUsize::MIN),
            trace: None,
            progress: None,
        }
    }
}

impl std::fmt::Debug for RunOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("objective", &self.objective)
            .field("plan", &self.plan)
            .field("show", &self.show)
            .field("svg", &self.svg)
            .field("max_cells", &self.max_cells)
            .field("memory_mib", &self.memory_mib)
            .field("result_file", &self.result_file)
            .field("tracker_file", &self.tracker_file)
            .field("time_limit", &self.time_limit)
            .field("threads", &self.threads)
            .field("trace", &self.trace.map(|_| "a sink"))
            .field("progress", &self.progress)
            .finish()
    }
}

impl RunOptions<'_> {
    fn limits(&self) -> Limits {
        Limits {
            max_cells: self.max_cells,
            memory_mib: self.memory_mib,
        }
    }

    /// The options of each solve: the plan whenever something prints, draws or writes
    /// it.
    fn solve_options(&self) -> Options<'_> {
        Options {
            objective: self.objective,
            plan: self.plan
                || self.show
                || self.svg.is_some()
                || self.result_file.is_some()
                || self.tracker_file.is_some(),
            memory_mib: self.memory_mib,
            time_limit: self.time_limit,
            threads: self.threads,
            trace: self.trace,
            progress: self.progress,
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
    options: &RunOptions<'_>,
) -> Result<(), RunError> {
    let mut reader = CaseReader::new(input);
    let solve_options = options.solve_options();
    let mut number = 0;
    while let Some(dataset) = read_dataset_within(&mut reader, options.limits())? {
        number += 1;
        let solution = solve(&dataset, &solve_options)
            .map_err(|e| unanswered_dataset(dataset.header_line, &e))?;
        write_answer(output, solution.as_ref())?;
        if let Some(plan) = solution.as_ref().and_then(Solution::plan) {
            if options.plan {
                plan::write_plan(output, dataset.grid(), plan)?;
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

/// The answer line: the objective's value ([`Solution::cost`]), `unproven: COST >= LB`
/// when a limit stopped the proof, or `-1` when no plan exists.
fn write_answer(output: &mut impl Write, solution: Option<&Solution>) -> std::io::Result<()> {
    match solution {
        Some(solution) if !solution.is_proven() => writeln!(
            output,
            "unproven: {} >= {}",
            solution.cost(),
            solution.lower_bound()
        ),
        Some(solution) => writeln!(output, "{}", solution.cost()),
        None => writeln!(output, "-1"),
    }
}

/// [`run`] on the datasets of the file `path` (the program's positional argument).
///
/// # Errors
/// [`RunError::Open`] when the file cannot be opened; else as [`run`].
pub fn run_file(
    path: &Path,
    output: &mut impl Write,
    options: &RunOptions<'_>,
) -> Result<(), RunError> {
    run(std::io::BufReader::new(open_file(path)?), output, options)
}

/// `path` opened for reading, or the error that says it cannot be.
fn open_file(path: &Path) -> Result<std::fs::File, RunError> {
    std::fs::File::open(path).map_err(|source| RunError::Open {
        path: path.to_owned(),
        source,
    })
}

/// The error of a dataset's search that could not finish, located at its header.
fn unanswered_dataset(line: usize, error: &SolveError) -> ParseError {
    let kind = match error {
        SolveError::Memory { budget_mib, detail } => ErrorKind::OverBudget {
            budget_mib: *budget_mib,
            detail: detail.clone(),
        },
        // `--time-limit` passed before any plan was found.
        SolveError::Time { limit } => ErrorKind::Unexpected {
            expected: format!("an answer within {limit:?}"),
            found: "the time limit passed".to_owned(),
        },
    };
    ParseError::at(line, 1, kind)
}

/// A benchmark instance on the command line: `--map FILE.map --scen FILE.scen
/// [--agents K]` (all agents of the scenario when K is not given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchmarkFiles {
    /// The MovingAI `.map` file.
    pub map: PathBuf,
    /// The MovingAI `.scen` file.
    pub scen: PathBuf,
    /// How many agents, from the top of the scenario.
    pub agents: Option<usize>,
}

impl BenchmarkFiles {
    /// The instance in words, for an error that has no place in a file: "the first 6
    /// agents of room.scen on room.map".
    fn describe(&self, agents: usize) -> String {
        format!(
            "the {} agent{} of {} on {}",
            match self.agents {
                Some(_) => format!("first {agents}"),
                None => format!("{agents}"),
            },
            if agents == 1 { "" } else { "s" },
            self.scen.display(),
            self.map.display()
        )
    }
}

/// Solves the benchmark instance of `files` (any number of agents): writes the fewest
/// steps (or `-1`), then the plan (`--plan`: one line per step, every agent's `row,col`
/// in scenario order), the frames (`--show`) and the picture (`--svg`) as for datasets,
/// and the result files ([`RunOptions::result_file`], [`RunOptions::tracker_file`]).
///
/// # Errors
/// [`RunError::Open`] for a file that cannot be opened, [`RunError::InFile`] for one that
/// is malformed or beyond the limits (located in that file), [`RunError::Unanswered`]
/// when the search passes the memory budget (naming the instance and the budget),
/// [`RunError::Output`] when writing fails, [`RunError::Picture`] when the picture
/// cannot be written, [`RunError::ResultFile`] when `--output` or `--tracker` cannot.
///
/// # Complexity
/// See [`solve`].
pub fn run_benchmark(
    files: &BenchmarkFiles,
    output: &mut impl Write,
    options: &RunOptions<'_>,
) -> Result<(), RunError> {
    let in_file = |path: &Path| {
        let file = path.display().to_string();
        move |error: ParseError| RunError::InFile { file, error }
    };
    let open = |path: &Path| open_file(path).map(std::io::BufReader::new);
    let grid =
        benchmark::read_grid(open(&files.map)?, options.limits()).map_err(in_file(&files.map))?;
    let problem =
        Benchmark::on_grid(grid, open(&files.scen)?, files.agents).map_err(in_file(&files.scen))?;
    let clock = std::time::Instant::now();
    let solution =
        solve(&problem, &options.solve_options()).map_err(|error| RunError::Unanswered {
            case: files.describe(problem.agent_count()),
            reason: match error {
                SolveError::Memory { budget_mib, detail } => format!(
                    "solving it needs more than the memory budget of {budget_mib} MiB \
                     ({detail}); raise it with --memory-mib"
                ),
                other => other.to_string(),
            },
        })?;
    let (grid, starts, goals) = (problem.grid(), problem.starts(), problem.goals());
    write_answer(output, solution.as_ref())?;
    let plan = solution.as_ref().and_then(Solution::plan);
    if let Some(plan) = plan {
        if options.plan {
            plan::write_plan(output, grid, plan)?;
        }
        if options.show {
            mapf::show::write_drawings(output, grid, starts, goals, plan)?;
        }
    }
    output.flush()?;
    if let Some(path) = &options.svg {
        grid_core::svg::write_file(path, |file| {
            mapf::show::write_svg(file, grid, starts, goals, plan)
        })?;
    }
    if options.result_file.is_some() || options.tracker_file.is_some() {
        let answer = InstanceAnswer::new(&problem, solution.as_ref());
        if let Some(path) = &options.result_file {
            write_result_file(path, files, &problem, &answer, clock.elapsed())?;
        }
        if let (Some(path), Some(configurations)) = (&options.tracker_file, &answer.configurations)
        {
            append_tracker_row(path, files, &problem, configurations, answer.soc_lb)?;
        }
    }
    Ok(())
}

/// An instance's answer as the result files say it: the plan from the starts (times 0 to
/// T) and the proven lower bounds on both objectives (the bound of the objective solved,
/// and the distance bound of the other).
struct InstanceAnswer {
    configurations: Option<Vec<Vec<CellId>>>,
    soc_lb: u64,
    makespan_lb: u32,
}

impl InstanceAnswer {
    /// # Complexity
    /// O(K x C) for the distances, O(K x T) for the plan.
    fn new(problem: &Benchmark, solution: Option<&Solution>) -> InstanceAnswer {
        let (grid, starts, goals) = (problem.grid(), problem.starts(), problem.goals());
        let distances: Vec<u32> = starts
            .iter()
            .zip(goals)
            .map(|(&s, &g)| grid.distances(g, None)[s.index()])
            .filter(|&d| d != grid_core::UNREACHABLE)
            .collect();
        let mut soc_lb: u64 = distances.iter().map(|&d| u64::from(d)).sum();
        let mut makespan_lb = distances.iter().copied().max().unwrap_or(0);
        let configurations = solution.and_then(|solution| {
            match solution.objective() {
                Objective::Makespan => {
                    makespan_lb = u32::try_from(solution.lower_bound()).unwrap_or(u32::MAX);
                }
                Objective::SumOfCosts => soc_lb = solution.lower_bound(),
            }
            let plan = solution.plan()?;
            Some(
                std::iter::once(starts.to_vec())
                    .chain(plan.iter().cloned())
                    .collect(),
            )
        });
        InstanceAnswer {
            configurations,
            soc_lb,
            makespan_lb,
        }
    }
}

/// Writes `answer` to `path` in lacam3's result format (`--output`).
fn write_result_file(
    path: &Path,
    files: &BenchmarkFiles,
    problem: &Benchmark,
    answer: &InstanceAnswer,
    took: std::time::Duration,
) -> Result<(), RunError> {
    let failed = |source| RunError::ResultFile {
        path: path.to_owned(),
        source,
    };
    let map_file = files.map.display().to_string();
    let report = mapf::result_file::Report {
        grid: problem.grid(),
        map_file: &map_file,
        solver: "ghosts",
        starts: problem.starts(),
        goals: problem.goals(),
        configurations: answer.configurations.as_deref(),
        soc_lb: answer.soc_lb,
        makespan_lb: answer.makespan_lb,
        comp_time_ms: u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(failed)?);
    mapf::result_file::write_result(&mut out, &report).map_err(failed)?;
    out.flush().map_err(failed)
}

/// Appends the MAPF Tracker's CSV row of `configurations` to `path` (`--tracker`), with
/// the header first when the file is new or empty. The instance is named by the
/// scenario's file name (`MAP-TYPE-ID.scen`); another name gives the map's file name, the
/// scenario's, and 0.
fn append_tracker_row(
    path: &Path,
    files: &BenchmarkFiles,
    problem: &Benchmark,
    configurations: &[Vec<CellId>],
    soc_lb: u64,
) -> Result<(), RunError> {
    use mapf::result_file::{TRACKER_HEADER, TrackerInstance, tracker_row};
    let failed = |source| RunError::ResultFile {
        path: path.to_owned(),
        source,
    };
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let instance =
        TrackerInstance::from_scen_stem(&stem(&files.scen)).unwrap_or_else(|| TrackerInstance {
            map_name: stem(&files.map),
            scen_type: stem(&files.scen),
            type_id: 0,
        });
    let row = tracker_row(
        &instance,
        problem.grid(),
        configurations,
        problem.goals(),
        soc_lb,
    );
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    let empty = file.metadata().map_err(failed)?.len() == 0;
    let text = if empty {
        format!("{TRACKER_HEADER}\n{row}\n")
    } else {
        format!("{row}\n")
    };
    file.write_all(text.as_bytes()).map_err(failed)
}

//! `ghosts [FILE] < datasets`: one line per dataset, the fewest steps or -1;
//! `ghosts --map FILE.map --scen FILE.scen --agents K`: the same for a MovingAI instance.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Fewest steps to bring every ghost home, all ghosts moving at once.
///
/// Input: UVa 1601 "The Morning after Halloween" datasets in FILE, or on standard input
/// (docs/ghosts.md).
///
/// Bad input is reported as `error: line L, column C: ...` with status 1 (docs/errors.md).
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// Read the datasets from this file instead of standard input.
    #[arg(value_name = "FILE", conflicts_with = "map")]
    input: Option<PathBuf>,
    /// After each answer, print every ghost's `row,col` after each step.
    #[arg(long)]
    plan: bool,
    /// After each answer, draw the map before and after every step.
    #[arg(long)]
    show: bool,
    /// Save each answer as an animated SVG picture: the first dataset's in FILE, the
    /// k-th's in FILE with -k before its extension (out.svg, out-2.svg, out-3.svg, ...).
    /// A dataset without an answer gets the level with the ghosts at their starts.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Largest map accepted, in cells (width x height).
    #[arg(long, default_value_t = ghosts::DEFAULT_MAX_CELLS)]
    max_cells: u64,
    /// Solve a MovingAI benchmark instance: this `.map` file (with --scen).
    #[arg(long, value_name = "FILE.map", requires = "scen")]
    map: Option<PathBuf>,
    /// The MovingAI `.scen` file of the instance (with --map).
    #[arg(long, value_name = "FILE.scen", requires = "map")]
    scen: Option<PathBuf>,
    /// The instance is the first K agents of the scenario (default: all of them).
    #[arg(long, value_name = "K", requires = "map")]
    agents: Option<usize>,
    /// What to minimise: `makespan` (the steps until the last ghost is home) or `soc`
    /// (the sum of the steps each ghost takes to be home for good).
    #[arg(long, value_enum, default_value_t = ghosts::Objective::Makespan)]
    objective: ghosts::Objective,
    /// With --map: write the answer to FILE in lacam3's `result.txt` format (docs/mapf.md).
    #[arg(long, value_name = "FILE", requires = "map")]
    output: Option<PathBuf>,
    /// With --map: append the answer's MAPF Tracker CSV row to FILE (the header first when
    /// FILE is new or empty; nothing for -1).
    #[arg(long, value_name = "FILE", requires = "map")]
    tracker: Option<PathBuf>,
    /// Wall seconds one dataset's (or instance's) search may take: past it, the best plan
    /// found and its proven lower bound, `unproven: COST >= LB` (default: no limit).
    #[arg(long, value_name = "SECONDS", value_parser = grid_core::limits::parse_seconds)]
    time_limit: Option<std::time::Duration>,
    /// Threads one search may use (default: the machine's processors). With 2 or more,
    /// --objective soc and --time-limit, a second thread improves the plan beside the
    /// proof, and for the makespan a SAT decision still running after a second is raced
    /// by a second solver configuration; give 1 when running several instances at once.
    #[arg(long, value_name = "N")]
    jobs: Option<std::num::NonZeroUsize>,
    /// Memory one dataset's search may use, in MiB.
    #[arg(long, default_value_t = ghosts::DEFAULT_MEMORY_MIB)]
    memory_mib: u64,
    /// With --map: every step of the search (bound, horizons, the method that settled it,
    /// seconds) on standard error.
    #[arg(long, requires = "map")]
    verbose: bool,
}

/// Prints one step of the search on standard error (`--verbose`). A full or closed
/// standard error loses the line, not the run.
fn to_stderr(event: &ghosts::Event) {
    let _ = writeln!(io::stderr(), "ghosts: {event}");
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let progress = ghosts::Progress::new();
    // A progress line only for a person watching (and not under --verbose, whose lines
    // are the progress): never into a file or a pipe.
    let watched = io::stderr().is_terminal() && !cli.verbose;
    let line = ghosts::ProgressLine::new(&progress, cli.objective, cli.map.is_none(), io::stderr());
    let options = ghosts::RunOptions {
        objective: cli.objective,
        plan: cli.plan,
        show: cli.show,
        svg: cli.svg,
        max_cells: cli.max_cells,
        memory_mib: cli.memory_mib,
        result_file: cli.output,
        tracker_file: cli.tracker,
        time_limit: cli.time_limit,
        threads: cli
            .jobs
            .unwrap_or_else(|| ghosts::RunOptions::default().threads),
        trace: cli.verbose.then_some(&to_stderr as &dyn Fn(&ghosts::Event)),
        progress: watched.then_some(&progress),
    };
    let ended = std::thread::scope(|scope| {
        let keeper = watched.then(|| scope.spawn(|| line.keep()));
        // Each answer wipes the line first, so that they never share it.
        let mut output = BufWriter::new(line.wiping(io::stdout().lock()));
        let ended = match (cli.map, cli.scen, cli.input) {
            (Some(map), Some(scen), _) => ghosts::run_benchmark(
                &ghosts::BenchmarkFiles {
                    map,
                    scen,
                    agents: cli.agents,
                },
                &mut output,
                &options,
            ),
            (_, _, Some(path)) => ghosts::run_file(&path, &mut output, &options),
            _ => ghosts::run(io::stdin().lock(), &mut output, &options),
        };
        // What is left in the buffer goes out before the line's thread ends.
        let ended = ended.and_then(|()| output.flush().map_err(ghosts::RunError::from));
        line.end();
        if let Some(keeper) = keeper {
            keeper.thread().unpark();
            let _ = keeper.join();
        }
        ended
    });
    ghosts::exit_code(ended)
}

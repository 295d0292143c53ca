//! `ghosts < datasets`: one line per dataset, the fewest steps or -1;
//! `ghosts --map FILE.map --scen FILE.scen --agents K`: the same for a MovingAI instance.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::Parser;

/// Fewest steps to bring every ghost home (shared/specs/ghosts.md). Reads datasets from
/// standard input; bad input is reported as `error: line L, column C: ...` with status 1.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// After each answer, print every ghost's `row,col` after each step.
    #[arg(long)]
    plan: bool,
    /// After each answer, draw the map before and after every step.
    #[arg(long)]
    show: bool,
    /// Largest map accepted, in cells (width x height).
    #[arg(long, default_value_t = ghosts::Options::default().max_cells)]
    max_cells: u64,
    /// Solve a MovingAI benchmark instance: this `.map` file (with --scen).
    #[arg(long, value_name = "FILE.map", requires = "scen")]
    map: Option<std::path::PathBuf>,
    /// The MovingAI `.scen` file of the instance (with --map).
    #[arg(long, value_name = "FILE.scen", requires = "map")]
    scen: Option<std::path::PathBuf>,
    /// The instance is the first K agents of the scenario (default: all of them).
    #[arg(long, value_name = "K", requires = "map")]
    agents: Option<usize>,
    /// Memory one dataset's search may use, in MiB.
    #[arg(long, default_value_t = ghosts::Options::default().memory_mib)]
    memory_mib: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = ghosts::Options {
        plan: cli.plan,
        show: cli.show,
        max_cells: cli.max_cells,
        memory_mib: cli.memory_mib,
    };
    let stdout = io::stdout();
    let mut output = BufWriter::new(stdout.lock());
    grid_core::exit_code(match (cli.map, cli.scen) {
        (Some(map), Some(scen)) => ghosts::run_benchmark(
            &ghosts::Benchmark {
                map,
                scen,
                agents: cli.agents,
            },
            &mut output,
            &options,
        ),
        _ => ghosts::run(io::stdin().lock(), &mut output, &options),
    })
}

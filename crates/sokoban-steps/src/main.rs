//! `sokoban-steps`: reads one single-box Sokoban case from a file or standard input and prints the
//! fewest player steps that bring the box to the target, or `-1`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use grid_core::progress::{self, QUIET_FOR};
use sokoban_steps::{DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MIB, RunOptions};

/// Fewest player steps (walks and pushes) to bring the one box onto the target.
///
/// Input: one single-box Sokoban board (`. # X * @`) in FILE or on standard input
/// (docs/sokoban-steps.md).
///
/// Bad input is reported as `error: line L, column C: ...` with status 1 (docs/errors.md).
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The input file; standard input when absent.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Also print one optimal step sequence (nswe walks, NSWE pushes), the smallest by
    /// N < S < W < E.
    #[arg(long)]
    path: bool,
    /// Also print the start board and the board after every push.
    #[arg(long)]
    show: bool,
    /// Save the answer as an animated SVG picture in FILE (the player and the box moving
    /// step by step, pushes in red). An unsolvable board gets the level with the player
    /// and the box at their starts.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Refuse boards of more than this many cells (N x M).
    #[arg(long, default_value_t = DEFAULT_MAX_CELLS)]
    max_cells: u64,
    /// Refuse a board whose search would need more than this many MiB.
    #[arg(long, default_value_t = DEFAULT_MEMORY_MIB)]
    memory_mib: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = RunOptions {
        path: cli.path,
        show: cli.show,
        svg: cli.svg,
        max_cells: cli.max_cells,
        memory_mib: cli.memory_mib,
    };
    // A progress line only for a person watching a long run: never into a file or a pipe.
    let text = |elapsed: std::time::Duration| {
        let seconds = elapsed.as_secs_f64();
        (elapsed >= QUIET_FOR).then(|| format!("sokoban-steps: {seconds:.0} s"))
    };
    let ended = progress::answering(text, |output| {
        let run = |input| sokoban_steps::run(input, output, &options);
        grid_core::open_input(cli.input.as_deref()).and_then(run)
    });
    sokoban_steps::exit_code(ended)
}

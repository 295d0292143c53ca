//! `sokoban-path`: reads mazes from a file or standard input, writes their answers on
//! standard output.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::Parser;
use grid_core::progress::{self, QUIET_FOR};

/// Pushing Boxes: fewest pushes, then fewest walks, one exact answer per maze.
///
/// Input: UVa 589 "Pushing Boxes" mazes in FILE or on standard input (docs/sokoban-path.md).
///
/// Bad input is reported as `error: line L, column C: ...` with status 1 (docs/errors.md).
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The input file; standard input when absent.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Draw the maze after every push, below the move string.
    #[arg(long)]
    show: bool,
    /// Save each answer as an animated SVG picture: the first maze's in FILE, the k-th's
    /// in FILE with -k before its extension (out.svg, out-2.svg, out-3.svg, ...). An
    /// impossible maze gets the level with the person and the box at their starts.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Refuse a maze with more than this many cells (rows x columns).
    #[arg(long, default_value_t = sokoban_path::DEFAULT_MAX_CELLS)]
    max_cells: u64,
    /// Refuse a maze whose search would need more than this many MiB.
    #[arg(long, default_value_t = sokoban_path::DEFAULT_MEMORY_MIB)]
    memory_mib: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = sokoban_path::RunOptions {
        max_cells: cli.max_cells,
        memory_mib: cli.memory_mib,
        show: cli.show,
        svg: cli.svg,
    };
    // A progress line only for a person watching a long run: never into a file or a pipe.
    let mazes = AtomicU64::new(0);
    let text = |elapsed: Duration| {
        let maze = mazes.load(Ordering::Relaxed);
        let seconds = elapsed.as_secs_f64();
        (elapsed >= QUIET_FOR).then(|| format!("sokoban-path: maze {maze}, {seconds:.0} s"))
    };
    let ended = progress::answering(text, |output| {
        let run = |input| sokoban_path::run_counting(input, output, &options, &mazes);
        grid_core::open_input(cli.input.as_deref()).and_then(run)
    });
    sokoban_path::exit_code(ended)
}

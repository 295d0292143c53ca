//! `sokoban`: reads XSB levels from a file or standard input, writes their optimal
//! solutions; the work is [`sokoban::run`].

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

/// Sokoban levels in XSB: proven optimal LURD solutions, one per level.
///
/// Input: XSB level collections, many boxes, from FILE or standard input
/// (docs/sokoban.md).
///
/// A malformed level is reported as `error: line L, column C: ...` and skipped; the run
/// then ends with status 1 (docs/errors.md).
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The XSB collection to read (default: standard input).
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// What to minimise first.
    #[arg(long, value_enum, default_value_t = sokoban::Metric::Pushes)]
    metric: sokoban::Metric,
    /// Only level N, or levels A-B (1-based, in input order).
    #[arg(long)]
    level: Option<sokoban::LevelRange>,
    /// Give up on a level after this many seconds of wall time (answer `unknown: time`);
    /// `none` for no limit. The default lets a collection of 90 hard levels finish in
    /// minutes.
    #[arg(long, value_parser = parse_limit, allow_negative_numbers = true, default_value = "10")]
    time_limit: Limit,
    /// Solve this many levels at once, one per thread (default: the machine's
    /// processors); the answers still come in input order.
    #[arg(long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
    /// Give up on a level whose search would store more than this many MiB.
    #[arg(long, default_value_t = grid_core::limits::DEFAULT_MEMORY_MIB)]
    memory_mib: u64,
    /// Refuse a level with more than this many cells (rows x longest row).
    #[arg(long, default_value_t = sokoban::DEFAULT_MAX_CELLS)]
    max_cells: u64,
    /// Draw the level after every push of each solution.
    #[arg(long)]
    show: bool,
    /// Save each solution printed as an animated SVG, named by its level's number N in
    /// the input: FILE for level 1, FILE-N.svg (before FILE's extension) for level N.
    /// Levels without a solution (-1, unknown) get no picture.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// `--time-limit`: seconds, or none.
#[derive(Debug, Clone, Copy)]
struct Limit(Option<Duration>);

fn parse_limit(text: &str) -> Result<Limit, String> {
    if text.trim() == "none" {
        return Ok(Limit(None));
    }
    grid_core::limits::parse_seconds(text).map(|d| Limit(Some(d)))
}

/// The exit status after Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    return_freed_memory();
    let cli = Cli::parse();
    // Ctrl-C once: no further level is read, the levels under way end with what they
    // have, and every answer found is printed. Twice: stop at once.
    let interrupt = sokoban::Interrupt::default();
    let handler = interrupt.clone();
    let _ = ctrlc::set_handler(move || {
        if handler.is_set() {
            std::process::exit(i32::from(INTERRUPTED));
        }
        handler.interrupt();
    });
    let options = sokoban::RunOptions {
        solve: sokoban::Options {
            metric: cli.metric,
            memory_mib: cli.memory_mib,
            time_limit: cli.time_limit.0,
            interrupt: Some(interrupt.clone()),
            ..sokoban::Options::default()
        },
        max_cells: cli.max_cells,
        levels: cli.level,
        show: cli.show,
        svg: cli.svg,
        jobs: cli
            .jobs
            .unwrap_or_else(|| sokoban::RunOptions::default().jobs),
        // A progress line only for a person watching: never into a file or a pipe.
        progress: io::stderr().is_terminal(),
    };
    let input: Box<dyn BufRead> = match &cli.input {
        None => Box::new(io::stdin().lock()),
        Some(path) => match File::open(path) {
            Ok(file) => Box::new(BufReader::new(file)),
            Err(e) => {
                let _ = writeln!(io::stderr(), "error: cannot open {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
    };
    match sokoban::run(
        input,
        &mut BufWriter::new(io::stdout().lock()),
        &mut io::stderr().lock(),
        &options,
    ) {
        Ok(_) if interrupt.is_set() => {
            let _ = writeln!(io::stderr(), "sokoban: interrupted");
            ExitCode::from(INTERRUPTED)
        }
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => grid_core::exit_code(Err(e)),
    }
}

/// Large blocks of memory straight from the system, and back to it when freed. A level's
/// searches run one after another, each growing its tables by doubling up to its share
/// of `--memory-mib` and freeing them when it ends (the finder, the fewest pushes, the
/// exact search, the polish); glibc raises the size it serves from its own heap as large
/// blocks are freed, and kept what the searches before had freed besides what the next one
/// counted: XSokoban 2 at `--memory-mib 300 --time-limit 10` peaked at 289 to 368 MB in
/// six runs, 215 to 217 MB with this, in the same time.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn return_freed_memory() {
    // SAFETY: `mallopt` only sets a parameter of the allocator, here before any thread of
    // this program starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Elsewhere the allocator is left as it is.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_memory() {}

//! `sokoban`: reads XSB levels on standard input, writes their optimal solutions.

use std::io::{self, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// The metric, as on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum MetricArg {
    /// Fewest pushes, then fewest moves.
    Pushes,
    /// Fewest moves, then fewest pushes.
    Moves,
}

/// Sokoban levels in XSB: proven optimal LURD solutions, one per level.
///
/// Input: XSB level collections, many boxes, on standard input (docs/sokoban.md).
///
/// A malformed level is reported as `error: line L, column C: ...` and skipped; the run
/// then ends with status 1 (docs/errors.md).
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// What to minimise first.
    #[arg(long, value_enum, default_value_t = MetricArg::Pushes)]
    metric: MetricArg,
    /// Only level N, or levels A-B (1-based, in input order).
    #[arg(long, value_parser = parse_range)]
    level: Option<(usize, usize)>,
    /// Give up on a level after this many seconds (answer `unknown: time`).
    #[arg(long, value_parser = parse_seconds, allow_negative_numbers = true)]
    time_limit: Option<Duration>,
    /// Give up on a level whose search would store more than this many MiB.
    #[arg(long, default_value_t = grid_core::limits::DEFAULT_MEMORY_MIB)]
    memory_mib: u64,
    /// Refuse a level with more than this many cells (rows x longest row).
    #[arg(long, default_value_t = sokoban::DEFAULT_MAX_CELLS)]
    max_cells: u64,
    /// Draw the level after every push of each solution.
    #[arg(long)]
    show: bool,
    /// Save each answered level's solution as an animated SVG: FILE for the first,
    /// FILE-2.svg, FILE-3.svg, ... for the next ones.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("expected a level number of at least 1, found '{s}'"))
    };
    let (first, last) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if first > last {
        return Err(format!("the range {first}-{last} is empty"));
    }
    Ok((first, last))
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, found '{text}'"))?;
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("expected a number of seconds of at least 0, found '{text}'"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = sokoban::RunOptions {
        solve: sokoban::SolveOptions {
            metric: match cli.metric {
                MetricArg::Pushes => sokoban::Metric::Pushes,
                MetricArg::Moves => sokoban::Metric::Moves,
            },
            memory_mib: cli.memory_mib,
            time_limit: cli.time_limit,
        },
        max_cells: cli.max_cells,
        levels: cli.level,
        show: cli.show,
        svg: cli.svg,
    };
    match sokoban::run(
        io::stdin().lock(),
        &mut BufWriter::new(io::stdout().lock()),
        &mut io::stderr().lock(),
        &options,
    ) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => grid_core::exit_code(Err(e)),
    }
}

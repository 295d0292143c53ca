//! Project tasks, run as `cargo xtask TASK` (an alias in `.cargo/config.toml`).
//!
//! In the manner of rust-analyzer's xtask: a plain binary with few dependencies, so the
//! tasks work on a fresh machine with nothing but the Rust toolchain (no `cargo-insta`).
//! Arguments are parsed by clap, as in the solver binaries: `cargo xtask` alone lists the
//! tasks, `cargo xtask TASK --help` explains one, and an unknown flag exits with status 2.

mod bench;
mod find_cases;
mod gen_cases;
mod peers;
mod process;
mod snapshots;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Project tasks: snapshots, generated cases, benchmarks.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Option<Task>,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Run every case in testdata/ and check it against its snapshot and known answer; fail
    /// on stale, missing or orphaned snapshots.
    Verify,
    /// Write changed snapshots as .snap.new for `cargo insta review`, and remove orphans.
    Bless {
        /// Overwrite the .snap files directly (review them with `git diff`).
        #[arg(long)]
        accept: bool,
    },
    /// Print seeded random cases on standard output.
    Gen {
        #[command(subcommand)]
        problem: gen_cases::Problem,
    },
    /// Time the release binaries as whole processes, beside the C++ baselines when they
    /// are present.
    ///
    /// The baselines are looked for in $GRID_BASELINES_DIR (default: ../shared/baselines
    /// beside the workspace) and compiled with g++; without them every workload is timed
    /// for ours alone and the baseline columns show `-`. The first line of output says
    /// what was found, before anything is built.
    Bench(bench::Args),
    /// Search random cases for ones worth keeping in testdata or a test (prints them).
    FindCases {
        #[command(subcommand)]
        search: find_cases::Search,
    },
    /// (internal) Run PROGRAM once with INPUT and OUTPUT; print wall seconds and peak KiB.
    #[command(name = "__measure", hide = true)]
    Measure {
        program: PathBuf,
        input: PathBuf,
        output: PathBuf,
        /// Arguments for PROGRAM.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// (internal) The soukoban crate as a sokoban-steps program, for `bench --peers`.
    #[command(name = "__soukoban", hide = true)]
    Soukoban {
        /// Read one XSB level instead and print the peer's `PUSHES MOVES` for this
        /// optimum (`pushes` or `moves`), for the Microban rows of `bench sokoban --peers`.
        #[arg(long)]
        xsb: Option<String>,
    },
}

fn main() -> ExitCode {
    let Some(task) = Cli::parse().task else {
        // `cargo xtask` alone: the list of tasks, as a successful run.
        return match Cli::command().print_help() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    };
    let outcome = match task {
        Task::Verify => snapshots::verify(),
        Task::Bless { accept } => snapshots::bless(accept),
        Task::Gen { problem } => gen_cases::run(problem),
        Task::Bench(args) => bench::run(&args),
        Task::FindCases { search } => find_cases::run(search),
        Task::Measure {
            program,
            input,
            output,
            args,
        } => bench::measure_child(&program, &input, &output, &args),
        Task::Soukoban { xsb: None } => peers::soukoban_steps(),
        Task::Soukoban { xsb: Some(metric) } => peers::soukoban_xsb(&metric),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap checks the definitions (unique names, groups, ...) only when they are used in
    /// a debug build: check them all here, before a task trips over them.
    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}

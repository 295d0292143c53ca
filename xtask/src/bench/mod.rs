//! `cargo xtask bench [WORKLOAD]`: our release binaries timed as whole processes, each
//! workload in its own module, all of them one after the other when none is named.
//!
//! The modules form a ladder: this driver parses the flags and calls the workloads
//! ([`programs`], [`ghosts_many`], [`sokoban`], [`mapf`]); they stand on [`measure`] (one
//! measured process), [`cactus`] (the SVG plots) and the crate's `process` helpers, and
//! none of them calls another workload.

mod cactus;
mod ghosts_many;
mod mapf;
mod measure;
mod programs;
mod sokoban;

pub use measure::measure_child;

use clap::Subcommand;

use programs::Program;

/// `cargo xtask bench`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    workload: Option<Workload>,
    #[command(flatten)]
    all: TableArgs,
}

/// The flags of the table of ghosts, sokoban-path and sokoban-steps rows (and, with no
/// workload named, of every workload).
#[derive(Debug, Clone, clap::Args)]
pub struct TableArgs {
    /// Fewer inputs and 3 runs instead of 7: a check that everything runs, not figures.
    #[arg(long)]
    quick: bool,
    /// Also time the soukoban crate on the 128 x 128 sokoban-steps levels (and, with no
    /// workload named, on the Microban rows of `sokoban`); needs a build with the `peers`
    /// feature: cargo run -q --release -p xtask --features peers -- bench --peers.
    #[arg(long)]
    peers: bool,
}

/// The workloads.
#[derive(Debug, Subcommand)]
enum Workload {
    /// The 3-ghost datasets, against the C++ bidirectional BFS.
    Ghosts(TableArgs),
    /// Many ghosts (4 to 13, pillar rooms, mazes, pockets), one process per dataset,
    /// against the solver at commit b5c6080 built from git history.
    GhostsMany(ghosts_many::Args),
    /// Pushing Boxes mazes, generated and real, against the C++ baseline.
    SokobanPath(TableArgs),
    /// Single-box Sokoban boards, against the C++ baseline (and the soukoban crate).
    SokobanSteps(TableArgs),
    /// The many-box solver on the published level collections, one process per level.
    Sokoban(sokoban::Args),
    /// `ghosts` on the MovingAI MAPF benchmark, one process per instance, beside
    /// CBSH2-RTC and lacam2 when they are built.
    Mapf(mapf::Args),
}

/// `cargo xtask bench`.
pub fn run(args: &Args) -> Result<(), String> {
    let table = |programs: &[Program], flags: &TableArgs, skipped: &[String]| {
        programs::run(
            programs,
            &programs::Setting {
                quick: flags.quick,
                peers_asked: flags.peers,
                skipped,
            },
        )
    };
    let not_asked = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|name| format!("the {name} rows (not asked for)"))
            .collect()
    };
    match &args.workload {
        None => run_all(&args.all),
        Some(Workload::Ghosts(flags)) => table(
            &[Program::Ghosts],
            flags,
            &not_asked(&[
                "ghosts-many",
                "sokoban-path",
                "sokoban-steps",
                "sokoban",
                "mapf",
            ]),
        ),
        Some(Workload::SokobanPath(flags)) => table(
            &[Program::SokobanPath],
            flags,
            &not_asked(&["ghosts", "ghosts-many", "sokoban-steps", "sokoban", "mapf"]),
        ),
        Some(Workload::SokobanSteps(flags)) => table(
            &[Program::SokobanSteps],
            flags,
            &not_asked(&["ghosts", "ghosts-many", "sokoban-path", "sokoban", "mapf"]),
        ),
        Some(Workload::GhostsMany(flags)) => ghosts_many::run(flags),
        Some(Workload::Sokoban(flags)) => sokoban::run(flags),
        Some(Workload::Mapf(flags)) => mapf::run(flags),
    }
}

/// Every workload with its default flags, the table first.
fn run_all(flags: &TableArgs) -> Result<(), String> {
    let mut skipped = Vec::new();
    let levels = sokoban::levels_dir();
    if !levels.exists() {
        skipped.push(format!(
            "the sokoban rows (no level collections in {}; set SOKOBAN_LEVELS)",
            levels.display()
        ));
    }
    let benchmark = mapf::benchmark_dir();
    if !benchmark.join("maps").is_dir() {
        skipped.push(format!(
            "the mapf rows (no MovingAI benchmark in {}; set MAPF_BENCHMARK)",
            benchmark.display()
        ));
    }
    programs::run(
        &[Program::Ghosts, Program::SokobanPath, Program::SokobanSteps],
        &programs::Setting {
            quick: flags.quick,
            peers_asked: flags.peers,
            skipped: &skipped,
        },
    )?;
    println!();
    ghosts_many::run(&ghosts_many::Args::defaults(flags.quick))?;
    println!();
    sokoban::run(&sokoban::Args::defaults(flags.quick, flags.peers))?;
    println!();
    mapf::run(&mapf::Args::defaults(flags.quick))
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    fn parses(words: &str) -> bool {
        crate::Cli::try_parse_from(words.split_whitespace()).is_ok()
    }

    #[test]
    fn each_workload_takes_its_own_flags_and_no_other() {
        assert!(parses("xtask bench --quick --peers"));
        assert!(parses("xtask bench ghosts --quick"));
        assert!(parses(
            "xtask bench sokoban --set microban --metric pushes --limit 10"
        ));
        assert!(parses("xtask bench ghosts-many --limit 10"));
        assert!(parses(
            "xtask bench mapf --agents 10,20 --limit 60 --only den312d"
        ));
        assert!(!parses("xtask bench --limit 10"));
        assert!(!parses("xtask bench ghosts --set microban"));
        assert!(!parses("xtask bench mapf --no-such-flag"));
        assert!(!parses("xtask bench --quick mapf"));
    }
}

//! Project tasks, run as `cargo xtask TASK` (an alias in `.cargo/config.toml`).
//!
//! In the manner of rust-analyzer's xtask: a plain binary with few dependencies, so the
//! tasks work on a fresh machine with nothing but the Rust toolchain (no `cargo-insta`).

mod bench;
mod bench_sokoban;
mod gen_cases;
mod peers;
mod process;
mod snapshots;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask TASK [ARGS]

tasks:
  verify                 run every case in testdata/ and check it against its snapshot and
                         known answer; fail on stale, missing or orphaned snapshots
  bless [--accept]       write new snapshots as .snap.new for `cargo insta review`
                         (--accept: overwrite the .snap files directly) and remove orphans
  gen PROBLEM [FLAGS]    print seeded random cases; `cargo xtask gen help` lists them
  bench [--quick] [--peers] [PROBLEM]
                         release builds vs the C++ baselines, whole process, side by side;
                         --peers adds the soukoban crate on the large sokoban-steps levels
                         (build with: cargo run -q --release -p xtask --features peers -- bench --peers)
  bench sokoban [--set microban|microban2|xsokoban]... [--metric pushes|moves]
                [--limit SECONDS] [--levels A-B]
                         the many-box solver on the published collections, one process per
                         level, checked against testdata/sokoban/microban_optimal.tsv
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((task, rest)) = args.split_first() else {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    };
    let outcome = match task.as_str() {
        "verify" => snapshots::verify(rest),
        "bless" => snapshots::bless(rest),
        "gen" => gen_cases::run(rest),
        "bench" if rest.iter().any(|a| a == "sokoban") => bench_sokoban::run(rest),
        "bench" => bench::run(rest),
        "__measure" => bench::measure_child(rest),
        "__soukoban" => peers::soukoban_steps(),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown task `{other}`\n\n{USAGE}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

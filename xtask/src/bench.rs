//! `cargo xtask bench [--quick]`: our release binaries against the C++ baselines of
//! `../shared/baselines/`, as whole processes on the same generated inputs.
//!
//! Runs alternate (ours, baseline, ours, ...) so that machine noise hits both alike; the
//! table shows medians of wall time and of peak resident memory (from `wait4`), and the
//! ratios ours / baseline. Outputs are compared too: a bench of wrong answers is no bench.

use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use ghosts::generate::{Density, Keep, MapSpec};

use crate::process::{cargo, root, run as run_command, target_dir};

/// One input, the program of ours that solves it, and the baseline it is measured against.
struct Workload {
    name: &'static str,
    input: String,
    ours: &'static str,
    ours_args: &'static [&'static str],
    baseline: &'static str,
    /// Whether the outputs must be equal byte for byte (exact numbers, not move strings).
    same_output: bool,
}

fn workloads(quick: bool) -> Result<Vec<Workload>, String> {
    let dense = MapSpec {
        width: 16,
        height: 16,
        ghosts: 3,
        density: Density::Dense,
    };
    let sparse = MapSpec {
        density: Density::Sparse,
        ..dense
    };
    let datasets = if quick { 24 } else { 96 };
    Ok(vec![
        Workload {
            name: "ghosts: dense 16x16, 3 ghosts",
            input: ghosts::generate::datasets(1601, datasets, dense, &Keep::Answers(20..=45))?,
            ours: "ghosts",
            ours_args: &[],
            baseline: "ghosts_bibfs_ref",
            same_output: true,
        },
        Workload {
            name: "ghosts: sparse 16x16, 3 ghosts",
            input: ghosts::generate::datasets(2007, datasets, sparse, &Keep::Answers(20..=45))?,
            ours: "ghosts",
            ours_args: &[],
            baseline: "ghosts_bibfs_ref",
            same_output: true,
        },
    ])
}

/// Wall time in seconds and peak resident memory in KiB of one whole-process run.
struct Measure {
    seconds: f64,
    peak_kib: i64,
}

fn measure(program: &Path, args: &[&str], input: &Path, output: &Path) -> Result<Measure, String> {
    let stdin = File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let stdout = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // std has no way to get one child's peak memory: wait4 reaps it with its rusage.
    let usage = wait4(pid, &mut status)?;
    let seconds = started.elapsed().as_secs_f64();
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!(
            "{} failed on {} (status {status})",
            program.display(),
            input.display()
        ));
    }
    Ok(Measure {
        seconds,
        peak_kib: usage.ru_maxrss,
    })
}

#[allow(unsafe_code)]
fn wait4(pid: libc::pid_t, status: &mut i32) -> Result<libc::rusage, String> {
    // SAFETY: rusage is plain data, all zeroes is a valid value; wait4 writes into the two
    // pointers we own and reaps `pid`, our own child that nothing else waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, status, 0, &mut usage) };
    if reaped == pid {
        Ok(usage)
    } else {
        Err(format!("wait4 failed: {}", std::io::Error::last_os_error()))
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// `cargo xtask bench`.
pub fn run(args: &[String]) -> Result<(), String> {
    let quick = match args {
        [] => false,
        [flag] if flag == "--quick" => true,
        _ => return Err("usage: cargo xtask bench [--quick]".to_owned()),
    };
    let repeats = if quick { 3 } else { 7 };
    let target = target_dir();
    let work = target.join("bench");
    fs::create_dir_all(&work).map_err(|e| e.to_string())?;

    let mut build = cargo();
    build.args([
        "build",
        "--release",
        "--quiet",
        "--workspace",
        "--bins",
        "--exclude",
        "xtask",
    ]);
    run_command(build)?;
    let baselines = target.join("baselines");
    let script = root().join("../shared/baselines/build.sh");
    let mut compile = Command::new("bash");
    compile.arg(&script).arg(&baselines).stdout(Stdio::null());
    run_command(compile)?;

    println!(
        "{:<34} {:>10} {:>10} {:>8} {:>9} {:>9} {:>7}  outputs",
        "workload", "ours ms", "base ms", "time x", "ours MiB", "base MiB", "mem x"
    );
    for workload in workloads(quick)? {
        let input = work.join(format!("{}.in", slug(workload.name)));
        fs::write(&input, &workload.input).map_err(|e| e.to_string())?;
        let ours = target.join("release").join(workload.ours);
        let base = baselines.join(workload.baseline);
        let (ours_out, base_out) = (
            input.with_extension("ours.out"),
            input.with_extension("base.out"),
        );
        let (mut ours_runs, mut base_runs) = (Vec::new(), Vec::new());
        for _ in 0..repeats {
            ours_runs.push(measure(&ours, workload.ours_args, &input, &ours_out)?);
            base_runs.push(measure(&base, &[], &input, &base_out)?);
        }
        let same = fs::read(&ours_out).map_err(|e| e.to_string())?
            == fs::read(&base_out).map_err(|e| e.to_string())?;
        let outputs = match (workload.same_output, same) {
            (_, true) => "equal",
            (true, false) => "DIFFER",
            (false, false) => "differ (ties)",
        };
        let ms = |runs: &[Measure]| median(runs.iter().map(|m| m.seconds * 1e3).collect());
        let mib =
            |runs: &[Measure]| median(runs.iter().map(|m| m.peak_kib as f64 / 1024.0).collect());
        let (ours_ms, base_ms, ours_mib, base_mib) = (
            ms(&ours_runs),
            ms(&base_runs),
            mib(&ours_runs),
            mib(&base_runs),
        );
        println!(
            "{:<34} {:>10.2} {:>10.2} {:>8.4} {:>9.1} {:>9.1} {:>7.3}  {}",
            workload.name,
            ours_ms,
            base_ms,
            ours_ms / base_ms,
            ours_mib,
            base_mib,
            ours_mib / base_mib,
            outputs
        );
    }
    println!(
        "time x and mem x are ours / baseline (smaller is better); medians of {repeats} alternating runs"
    );
    Ok(())
}

/// A file name for a workload: its name with runs of other characters turned into `-`.
fn slug(name: &str) -> String {
    let text: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    text.split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

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
    name: String,
    input: String,
    ours: &'static str,
    /// The C++ baseline, when it can handle the input (their limits are small).
    baseline: Option<&'static str>,
    /// Whether the outputs must be equal byte for byte (numbers, not move strings that
    /// may break ties differently).
    same_output: bool,
    /// Whether `--peers` times the soukoban crate on it (in place of a baseline).
    peer: bool,
}

fn ghosts_workloads(quick: bool) -> Result<Vec<Workload>, String> {
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
    let mut list = Vec::new();
    for (name, seed, spec) in [("dense", 1601, dense), ("sparse", 2007, sparse)] {
        list.push(Workload {
            name: format!("ghosts: {datasets} {name} 16x16, 3 ghosts"),
            input: ghosts::generate::datasets(seed, datasets, spec, &Keep::Answers(20..=45))?,
            ours: "ghosts",
            baseline: Some("ghosts_bibfs_ref"),
            same_output: true,
            peer: false,
        });
    }
    Ok(list)
}

/// A seeded level generator of sokoban-path: `(seed, side) -> input`.
type Generator = fn(u64, usize) -> String;

fn sokoban_path_workloads(quick: bool) -> Result<Vec<Workload>, String> {
    use sokoban_path::generate;
    let mazes = if quick { 500 } else { 2000 };
    let mut list = vec![Workload {
        name: format!("sokoban-path: {mazes} open <=20x20"),
        input: generate::open_rooms(589, mazes, 20),
        ours: "sokoban-path",
        baseline: Some("sokoban_path_ref"),
        // The baseline breaks ties by queue order, not by the spec's key 3.
        same_output: false,
        peer: false,
    }];
    let big: [(&str, Generator); 3] = [
        ("room", generate::big_room),
        ("ladder", generate::ladder),
        ("unsolvable", generate::unsolvable),
    ];
    for (name, make) in big {
        list.push(Workload {
            name: format!("sokoban-path: {name} 128x128"),
            input: make(1, 128),
            ours: "sokoban-path",
            baseline: None,
            same_output: false,
            peer: false,
        });
    }
    list.push(Workload {
        name: "sokoban-path: 8 real levels".to_owned(),
        input: real_levels()?,
        ours: "sokoban-path",
        baseline: None,
        same_output: false,
        peer: false,
    });
    Ok(list)
}

fn sokoban_steps_workloads() -> Vec<Workload> {
    use sokoban_steps::generate;
    let mut list = Vec::new();
    for (name, input) in [
        ("room 10x10", generate::room(1, 10, 10, 12)),
        ("ladder 10x10", generate::ladder(1, 10, 10)),
        ("unsolvable 10x10", generate::unsolvable(1, 10, 10, 12)),
    ] {
        list.push(Workload {
            name: format!("sokoban-steps: {name}"),
            input,
            ours: "sokoban-steps",
            baseline: Some("sokoban_steps_ref"),
            same_output: true,
            peer: false,
        });
    }
    for (name, input) in [
        ("room 128x128", generate::room(1, 128, 128, 12)),
        ("ladder 128x128", generate::ladder(1, 128, 128)),
        ("unsolvable 128x128", generate::unsolvable(1, 128, 128, 12)),
    ] {
        list.push(Workload {
            name: format!("sokoban-steps: {name}"),
            input,
            ours: "sokoban-steps",
            baseline: None,
            same_output: true,
            peer: true,
        });
    }
    list
}

/// Wall time in seconds and peak resident memory in KiB of one whole-process run.
pub(crate) struct Measure {
    pub(crate) seconds: f64,
    pub(crate) peak_kib: i64,
}

pub(crate) fn measure(
    program: &Path,
    args: &[&str],
    input: &Path,
    output: &Path,
) -> Result<Measure, String> {
    // Peak memory comes from a small helper process (this binary, `__measure`): a child's
    // ru_maxrss includes the memory of whoever spawned it, up to its exec, and the bench
    // itself holds every workload in memory.
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let report = Command::new(me)
        .arg("__measure")
        .arg(program)
        .arg(input)
        .arg(output)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run the measuring helper: {e}"))?;
    let text = String::from_utf8_lossy(&report.stdout);
    if !report.status.success() {
        return Err(format!(
            "{}{}",
            text,
            String::from_utf8_lossy(&report.stderr)
        ));
    }
    let mut fields = text.split_whitespace();
    let mut next = || fields.next().and_then(|f| f.parse::<f64>().ok());
    match (next(), next()) {
        (Some(seconds), Some(kib)) => Ok(Measure {
            seconds,
            peak_kib: kib as i64,
        }),
        _ => Err(format!("unreadable measurement `{text}`")),
    }
}

/// `xtask __measure PROGRAM INPUT OUTPUT [ARGS]`: runs PROGRAM once, stdin from INPUT and
/// stdout to OUTPUT, and prints its wall time in seconds and its peak memory in KiB.
pub fn measure_child(args: &[String]) -> Result<(), String> {
    let [program, input, output, rest @ ..] = args else {
        return Err("usage: xtask __measure PROGRAM INPUT OUTPUT [ARGS]".to_owned());
    };
    let stdin = File::open(input).map_err(|e| format!("{input}: {e}"))?;
    let stdout = File::create(output).map_err(|e| format!("{output}: {e}"))?;
    let started = Instant::now();
    let child = Command::new(program)
        .args(rest)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let mut status = 0;
    let usage = wait4(child.id() as libc::pid_t, &mut status)?;
    let seconds = started.elapsed().as_secs_f64();
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!("{program} failed on {input} (status {status})"));
    }
    println!("{seconds} {}", usage.ru_maxrss);
    Ok(())
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

/// The eight real single-box levels of `../shared/levels/` in sokoban-path's format, as
/// one input.
fn real_levels() -> Result<String, String> {
    let mut text = String::new();
    for k in 1..=8 {
        let path = root().join(format!("../shared/levels/path-{k}.in"));
        let level = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for line in level.lines().filter(|l| l.trim() != "0 0") {
            text.push_str(line);
            text.push('\n');
        }
    }
    text.push_str("0 0\n");
    Ok(text)
}

/// How our output and the baseline's are compared.
fn compare(ours: &str, base: &str, same_output: bool) -> String {
    if ours == base {
        return "equal".to_owned();
    }
    if base.trim() == crate::peers::PEER_PANICKED {
        return crate::peers::PEER_PANICKED.to_owned();
    }
    if same_output {
        return "DIFFER".to_owned();
    }
    // Move strings: equally good answers have the same pushes and walks per maze.
    let counts = |text: &str| -> Vec<(usize, usize)> {
        text.lines()
            .filter(|l| l.chars().all(|c| "nsweNSWE".contains(c)) && !l.is_empty())
            .map(|l| (l.chars().filter(char::is_ascii_uppercase).count(), l.len()))
            .collect()
    };
    let differing = ours
        .lines()
        .zip(base.lines())
        .filter(|(a, b)| a != b)
        .count();
    if counts(ours) == counts(base) {
        format!("same counts, {differing} ties broken otherwise")
    } else {
        "COUNTS DIFFER".to_owned()
    }
}

const USAGE: &str =
    "usage: cargo xtask bench [--quick] [--peers] [ghosts|sokoban-path|sokoban-steps]";

/// `cargo xtask bench`.
pub fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let peers = args.iter().any(|a| a == "--peers");
    if peers && !cfg!(feature = "peers") {
        return Err(crate::peers::NO_PEERS.to_owned());
    }
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let problems = ["ghosts", "sokoban-path", "sokoban-steps"];
    if only.len() > 1 || only.iter().any(|p| !problems.contains(&p.as_str())) {
        return Err(USAGE.to_owned());
    }
    let wanted = |problem: &str| only.is_empty() || only[0] == problem;
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

    let mut workloads = Vec::new();
    if wanted("ghosts") {
        workloads.extend(ghosts_workloads(quick)?);
    }
    if wanted("sokoban-path") {
        workloads.extend(sokoban_path_workloads(quick)?);
    }
    if wanted("sokoban-steps") {
        workloads.extend(sokoban_steps_workloads());
    }
    println!(
        "{:<40} {:>9} {:>9} {:>8} {:>8} {:>8} {:>6}  outputs",
        "workload", "ours ms", "base ms", "time x", "ours MiB", "base MiB", "mem x"
    );
    let ms = |runs: &[Measure]| median(runs.iter().map(|m| m.seconds * 1e3).collect());
    let mib = |runs: &[Measure]| median(runs.iter().map(|m| m.peak_kib as f64 / 1024.0).collect());
    for workload in workloads {
        let input = work.join(format!("{}.in", slug(&workload.name)));
        fs::write(&input, &workload.input).map_err(|e| e.to_string())?;
        let ours = target.join("release").join(workload.ours);
        let (ours_out, base_out) = (
            input.with_extension("ours.out"),
            input.with_extension("base.out"),
        );
        let (mut ours_runs, mut base_runs) = (Vec::new(), Vec::new());
        for _ in 0..repeats {
            ours_runs.push(measure(&ours, &[], &input, &ours_out)?);
            if let Some(base) = workload.baseline {
                base_runs.push(measure(&baselines.join(base), &[], &input, &base_out)?);
            } else if peers && workload.peer {
                let me = std::env::current_exe().map_err(|e| e.to_string())?;
                base_runs.push(measure(&me, &["__soukoban"], &input, &base_out)?);
            }
        }
        let (ours_ms, ours_mib) = (ms(&ours_runs), mib(&ours_runs));
        if base_runs.is_empty() {
            let answer = fs::read_to_string(&ours_out).map_err(|e| e.to_string())?;
            let first = answer
                .lines()
                .find(|l| !l.starts_with("Maze"))
                .unwrap_or("");
            let shown: String = first.chars().take(24).collect();
            println!(
                "{:<40} {ours_ms:>9.2} {:>9} {:>8} {ours_mib:>8.1} {:>8} {:>6}  ours only: {shown}{}",
                workload.name,
                "-",
                "-",
                "-",
                "-",
                if first.len() > 24 { "..." } else { "" }
            );
            continue;
        }
        let read = |path: &Path| fs::read_to_string(path).map_err(|e| e.to_string());
        let outputs = compare(&read(&ours_out)?, &read(&base_out)?, workload.same_output);
        let (base_ms, base_mib) = (ms(&base_runs), mib(&base_runs));
        println!(
            "{:<40} {ours_ms:>9.2} {base_ms:>9.2} {:>8.4} {ours_mib:>8.1} {base_mib:>8.1} {:>6.3}  {outputs}",
            workload.name,
            ours_ms / base_ms,
            ours_mib / base_mib,
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

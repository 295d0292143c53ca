//! `cargo xtask bench [--quick]`: our release binaries as whole processes on generated
//! inputs and the real levels of `testdata/`, side by side with the C++ baselines when they
//! are present (in `$GRID_BASELINES_DIR`, by default `../shared/baselines/` beside the
//! workspace: they are not part of the repository). Without them, or without `g++`, every
//! workload is timed for ours alone and the baseline columns show `-`.
//!
//! Runs alternate (ours, baseline, ours, ...) so that machine noise hits both alike; the
//! table shows medians of wall time and of peak resident memory (from `wait4`), and the
//! ratios ours / baseline. Outputs are compared too: a bench of wrong answers is no bench.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};
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
    /// User plus system CPU time in seconds: what a loaded machine does not inflate much.
    pub(crate) cpu_seconds: f64,
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
    match (next(), next(), next()) {
        (Some(seconds), Some(kib), Some(cpu_seconds)) => Ok(Measure {
            seconds,
            peak_kib: kib as i64,
            cpu_seconds,
        }),
        _ => Err(format!("unreadable measurement `{text}`")),
    }
}

/// `xtask __measure PROGRAM INPUT OUTPUT [ARGS]`: runs PROGRAM once, stdin from INPUT and
/// stdout to OUTPUT, and prints its wall time in seconds, its peak memory in KiB and its
/// CPU time (user + system) in seconds.
pub fn measure_child(
    program: &Path,
    input: &Path,
    output: &Path,
    args: &[String],
) -> Result<(), String> {
    let (program_name, input_name) = (program.display(), input.display());
    let stdin = File::open(input).map_err(|e| format!("{input_name}: {e}"))?;
    let stdout = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .spawn()
        .map_err(|e| format!("cannot start {program_name}: {e}"))?;
    let mut status = 0;
    let usage = wait4(child.id() as libc::pid_t, &mut status)?;
    let seconds = started.elapsed().as_secs_f64();
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!(
            "{program_name} failed on {input_name} (status {status})"
        ));
    }
    let cpu = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    println!(
        "{seconds} {} {}",
        usage.ru_maxrss,
        cpu(usage.ru_utime) + cpu(usage.ru_stime)
    );
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

/// The eight real single-box levels (`testdata/sokoban-path/level-K.in`) as one input.
fn real_levels() -> Result<String, String> {
    let mut text = String::new();
    for k in 1..=8 {
        let path = root().join(format!("testdata/sokoban-path/level-{k}.in"));
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

/// `cargo xtask bench`.
#[derive(Debug, clap::Args)]
// Named apart from `bench_sokoban::Args`, flattened in here: clap refuses two argument
// groups of one name.
#[group(id = "bench_args")]
pub struct Args {
    /// Fewer inputs and 3 runs instead of 7: a check that everything runs, not figures.
    #[arg(long)]
    quick: bool,
    /// Also time the soukoban crate on the 128 x 128 sokoban-steps levels and on the
    /// Microban rows of `sokoban`, push- and move-optimal (needs a build
    /// with the `peers` feature: cargo run -q --release -p xtask --features peers -- bench
    /// --peers).
    #[arg(long)]
    peers: bool,
    /// Only the workloads of this program.
    #[arg(value_enum)]
    program: Option<Program>,
    #[command(flatten)]
    sokoban: crate::bench_sokoban::SokobanArgs,
    #[command(flatten)]
    ghosts_many: crate::bench_ghosts_many::GhostsManyArgs,
    #[command(flatten)]
    mapf: crate::bench_mapf::MapfArgs,
}

/// The programs the bench has workloads for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Program {
    Ghosts,
    /// Many ghosts (4 to 13, pillar rooms, mazes, pockets), one process per dataset,
    /// against the solver at the start of issue 9 built from git history.
    GhostsMany,
    SokobanPath,
    SokobanSteps,
    /// The many-box solver on the published level collections (see the `--set` flags).
    Sokoban,
    /// `ghosts` on the MovingAI MAPF benchmark (see the `--mapf-limit`, `--agents`, `--maps`
    /// and `--scenarios` flags).
    Mapf,
}

/// The baseline programs `build.sh` compiles.
const BASELINES: [&str; 4] = [
    "ghosts_bfs_ref",
    "ghosts_bibfs_ref",
    "sokoban_path_ref",
    "sokoban_steps_ref",
];

/// Where the C++ baselines are looked for: `$GRID_BASELINES_DIR`, by default
/// `../shared/baselines` beside the workspace.
fn baselines_source() -> PathBuf {
    std::env::var_os("GRID_BASELINES_DIR")
        .map_or_else(|| root().join("../shared/baselines"), PathBuf::from)
}

/// Whether the baselines can be built, and if not, why not (in words).
fn probe_baselines(source: &Path) -> Result<(), String> {
    if !source.join("build.sh").is_file() {
        return Err(format!("no build.sh in {}", source.display()));
    }
    let compiler = Command::new("g++")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match compiler {
        Ok(status) if status.success() => Ok(()),
        _ => Err(format!(
            "{} has them, but g++ cannot be run",
            source.display()
        )),
    }
}

/// `cargo xtask bench`.
pub fn run(args: &Args) -> Result<(), String> {
    let quick = args.quick;
    if args.program == Some(Program::Sokoban) {
        return crate::bench_sokoban::run(&args.sokoban, quick, args.peers);
    }
    if args.program == Some(Program::GhostsMany) {
        return crate::bench_ghosts_many::run(&args.ghosts_many, quick);
    }
    if args.program == Some(Program::Mapf) {
        return crate::bench_mapf::run(&args.mapf, quick);
    }
    let wanted = |program: Program| args.program.is_none_or(|only| only == program);
    let repeats = if quick { 3 } else { 7 };
    let target = target_dir();
    let work = target.join("bench");

    // What will be compared, said before the minutes of building.
    let source = baselines_source();
    let probe = probe_baselines(&source);
    let peers = args.peers && cfg!(feature = "peers");
    let baselines_said = match &probe {
        Ok(()) => format!("found in {} (built with g++)", source.display()),
        Err(why) => format!(
            "none ({why}; set GRID_BASELINES_DIR), so every row is timed for ours alone with `-` in the baseline columns"
        ),
    };
    let peers_said = match (args.peers, peers) {
        (false, _) => "off (--peers adds the soukoban crate)".to_owned(),
        (true, true) => "soukoban on the 128x128 sokoban-steps rows".to_owned(),
        (true, false) => {
            "soukoban asked for but not in this build (needs --features peers), skipped".to_owned()
        }
    };
    let mut skipped: Vec<String> = [
        (Program::Ghosts, "ghosts"),
        (Program::GhostsMany, "ghosts-many"),
        (Program::SokobanPath, "sokoban-path"),
        (Program::SokobanSteps, "sokoban-steps"),
        (Program::Sokoban, "sokoban"),
        (Program::Mapf, "mapf"),
    ]
    .into_iter()
    .filter(|&(program, _)| !wanted(program))
    .map(|(_, name)| format!("the {name} rows (not asked for)"))
    .collect();
    let levels = crate::bench_sokoban::levels_dir();
    if wanted(Program::Sokoban) && !levels.exists() {
        skipped.push(format!(
            "the sokoban rows (no level collections in {}; set SOKOBAN_LEVELS)",
            levels.display()
        ));
    }
    let mapf = crate::bench_mapf::benchmark_dir();
    if wanted(Program::Mapf) && !mapf.join("maps").is_dir() {
        skipped.push(format!(
            "the mapf rows (no MovingAI benchmark in {}; set MAPF_BENCHMARK)",
            mapf.display()
        ));
    }
    let skipped_said = if skipped.is_empty() {
        "none".to_owned()
    } else {
        skipped.join(", ")
    };
    println!(
        "bench: baselines: {baselines_said}; peers: {peers_said}; rows skipped: {skipped_said}"
    );
    if args.peers && !peers {
        eprintln!("xtask: {}", crate::peers::NO_PEERS);
    }
    std::io::stdout().flush().map_err(|e| e.to_string())?;

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
    let have_baselines = probe.is_ok() && {
        let mut compile = Command::new("bash");
        compile
            .arg(source.join("build.sh"))
            .arg(&baselines)
            .stdout(Stdio::null());
        match run_command(compile) {
            Ok(()) => BASELINES
                .iter()
                .all(|name| baselines.join(OsStr::new(name)).is_file()),
            Err(e) => {
                println!("bench: the baselines did not build ({e}); timing ours alone");
                false
            }
        }
    };

    let mut workloads = Vec::new();
    if wanted(Program::Ghosts) {
        workloads.extend(ghosts_workloads(quick)?);
    }
    if wanted(Program::SokobanPath) {
        workloads.extend(sokoban_path_workloads(quick)?);
    }
    if wanted(Program::SokobanSteps) {
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
            if let Some(base) = workload.baseline.filter(|_| have_baselines) {
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
    if have_baselines {
        println!(
            "time x and mem x are ours / baseline (smaller is better); medians of {repeats} alternating runs"
        );
    } else {
        println!("medians of {repeats} runs; no baselines, so no ratios");
    }
    if wanted(Program::GhostsMany) {
        println!();
        crate::bench_ghosts_many::run(&args.ghosts_many, quick)?;
    }
    if wanted(Program::Sokoban) {
        println!();
        crate::bench_sokoban::run(&args.sokoban, quick, args.peers)?;
    }
    if wanted(Program::Mapf) {
        println!();
        crate::bench_mapf::run(&args.mapf, quick)?;
    }
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

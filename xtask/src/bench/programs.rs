//! The table of `cargo xtask bench [ghosts|sokoban-path|sokoban-steps]`: our release
//! binaries as whole processes on generated inputs and the real levels of `testdata/`, side
//! by side with the C++ baselines when they are present (in `$GRID_BASELINES_DIR`, by default `../shared/baselines/` beside the
//! workspace: they are not part of the repository). Without them, or without `g++`, every
//! workload is timed for ours alone and the baseline columns show `-`.
//!
//! Runs alternate (ours, baseline, ours, ...) so that machine noise hits both alike; the
//! table shows medians of wall time and of peak resident memory (from `getrusage`), and the
//! ratios ours / baseline. Outputs are compared too: a bench of wrong answers is no bench.

use std::ffi::OsStr;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ghosts::generate::{Density, Keep, MapSpec};

use super::measure::{Measure, measure, median};
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

/// The programs with rows in this table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// `ghosts` on generated 3-ghost datasets, against the bidirectional BFS baseline.
    Ghosts,
    /// `sokoban-path` on generated and real mazes.
    SokobanPath,
    /// `sokoban-steps` on generated boards.
    SokobanSteps,
}

/// What the table's first line says was found, and the peer's switch.
pub struct Setting<'a> {
    /// Fewer inputs and 3 runs instead of 7.
    pub quick: bool,
    /// `--peers` was given.
    pub peers_asked: bool,
    /// The rows of the other workloads that will not run, in words.
    pub skipped: &'a [String],
}

/// The table of `programs`: our release binaries against the C++ baselines (or the
/// soukoban peer), one row per workload.
pub fn run(programs: &[Program], setting: &Setting<'_>) -> Result<(), String> {
    let repeats = if setting.quick { 3 } else { 7 };
    let target = target_dir();
    let source = baselines_source();
    let probe = probe_baselines(&source);
    let peers = setting.peers_asked && cfg!(feature = "peers");
    announce(&source, &probe, setting, peers)?;

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
    let have_baselines = probe.is_ok() && build_baselines(&source, &baselines);
    let mut workloads = Vec::new();
    for &program in programs {
        match program {
            Program::Ghosts => workloads.extend(ghosts_workloads(setting.quick)?),
            Program::SokobanPath => workloads.extend(sokoban_path_workloads(setting.quick)?),
            Program::SokobanSteps => workloads.extend(sokoban_steps_workloads()),
        }
    }
    println!("{OUTPUTS_LEGEND}");
    println!(
        "{:<40} {:>9} {:>9} {:>8} {:>8} {:>8} {:>6}  outputs",
        "workload", "ours ms", "base ms", "time x", "ours MiB", "base MiB", "mem x"
    );
    for workload in workloads {
        let base = match workload.baseline.filter(|_| have_baselines) {
            Some(name) => Some(Rival::Baseline(baselines.join(name))),
            None if peers && workload.peer => Some(Rival::Soukoban),
            None => None,
        };
        time_workload(&workload, base.as_ref(), repeats, &work)?;
    }
    if have_baselines {
        println!(
            "time x and mem x are ours / baseline (smaller is better); medians of {repeats} alternating runs"
        );
    } else {
        println!("medians of {repeats} runs; no baselines, so no ratios");
    }
    Ok(())
}

/// The explanation of the table's last column, printed above it.
const OUTPUTS_LEGEND: &str = "outputs: `equal` = ours and the other program print the same \
    bytes; `same counts, N ties broken otherwise` = the same pushes and walks per maze, N \
    answers choosing other moves among equals; `ours only: E` = nothing to compare with, E \
    is the start of our first answer";

/// The program a row is timed against.
enum Rival {
    /// A C++ baseline binary.
    Baseline(PathBuf),
    /// The soukoban crate, through `xtask __soukoban`.
    Soukoban,
}

/// The first line: what will be compared, said before the minutes of building.
fn announce(
    source: &Path,
    probe: &Result<(), String>,
    setting: &Setting<'_>,
    peers: bool,
) -> Result<(), String> {
    let baselines_said = match probe {
        Ok(()) => format!("found in {} (built with g++)", source.display()),
        Err(why) => format!(
            "none ({why}; set GRID_BASELINES_DIR), so every row is timed for ours alone with `-` in the baseline columns"
        ),
    };
    let peers_said = match (setting.peers_asked, peers) {
        (false, _) => "off (--peers adds the soukoban crate)".to_owned(),
        (true, true) => "soukoban on the 128x128 sokoban-steps rows".to_owned(),
        (true, false) => {
            "soukoban asked for but not in this build (needs --features peers), skipped".to_owned()
        }
    };
    let skipped_said = if setting.skipped.is_empty() {
        "none".to_owned()
    } else {
        setting.skipped.join(", ")
    };
    println!(
        "bench: baselines: {baselines_said}; peers: {peers_said}; rows skipped: {skipped_said}"
    );
    if setting.peers_asked && !peers {
        eprintln!("xtask: {}", crate::peers::NO_PEERS);
    }
    std::io::stdout().flush().map_err(|e| e.to_string())
}

/// Compiles the baselines into `into` with their `build.sh`; whether all of them are there.
fn build_baselines(source: &Path, into: &Path) -> bool {
    let mut compile = Command::new("bash");
    compile
        .arg(source.join("build.sh"))
        .arg(into)
        .stdout(Stdio::null());
    match run_command(compile) {
        Ok(()) => BASELINES
            .iter()
            .all(|name| into.join(OsStr::new(name)).is_file()),
        Err(e) => {
            println!("bench: the baselines did not build ({e}); timing ours alone");
            false
        }
    }
}

/// Times one workload, ours and `rival` alternately, and prints its row.
fn time_workload(
    workload: &Workload,
    rival: Option<&Rival>,
    repeats: usize,
    work: &Path,
) -> Result<(), String> {
    let input = work.join(format!("{}.in", slug(&workload.name)));
    fs::write(&input, &workload.input).map_err(|e| e.to_string())?;
    let ours = target_dir().join("release").join(workload.ours);
    let (ours_out, base_out) = (
        input.with_extension("ours.out"),
        input.with_extension("base.out"),
    );
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let (mut ours_runs, mut base_runs) = (Vec::new(), Vec::new());
    for _ in 0..repeats {
        ours_runs.push(measure(&ours, &[], &input, &ours_out)?);
        match rival {
            Some(Rival::Baseline(base)) => {
                base_runs.push(measure(base, &[], &input, &base_out)?);
            }
            Some(Rival::Soukoban) => {
                base_runs.push(measure(&me, &["__soukoban"], &input, &base_out)?);
            }
            None => {}
        }
    }
    let ms = |runs: &[Measure]| median(runs.iter().map(|m| m.seconds * 1e3).collect());
    let mib = |runs: &[Measure]| median(runs.iter().map(Measure::peak_mib).collect());
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
        return Ok(());
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

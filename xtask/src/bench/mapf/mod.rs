//! `cargo xtask bench mapf`: `ghosts --map --scen --agents K` on the MovingAI MAPF
//! benchmark maps of `../shared/mapf/` (scenarios random-1 and even-1, K = 10, 20, 40, 80 by
//! default), one process per instance with a CPU time limit, printing per instance the
//! lower bound, the answer, the seconds and the method that settled it (from the binary's
//! `--verbose` trace on standard error).
//!
//! Answers are checked where the optimum is known (the figures, proved by
//! lacam2), and every instance must be answered within the limit for the bench to
//! succeed. With `--agents` past 80 (e.g. `--agents 100,150,200`), each map and scenario
//! stops at the first K it does not answer within the limit: how far each map goes.
//!
//! Skipped with a message when the benchmark is absent: it is a bench input only.
//! `MAPF_BENCHMARK=DIR` reads it from another folder (with `maps/` and `scen/` inside).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::measure::{Measure, measure};
use solvers::{Instance as Scenario, Limits, Objective, Solver};

mod runs;
mod solvers;
use crate::process::{cargo, root, run as run_command, target_dir};

/// The 12 maps of the benchmark subset, in the order the table shows them.
const MAPS: [&str; 12] = [
    "empty-8-8",
    "empty-16-16",
    "empty-32-32",
    "random-32-32-10",
    "random-32-32-20",
    "maze-32-32-2",
    "maze-32-32-4",
    "room-32-32-4",
    "random-64-64-10",
    "room-64-64-8",
    "warehouse-10-20-10-2-1",
    "den312d",
];

/// Optimal makespans proved by others (the lacam2 figures): map, scenario, K,
/// makespan.
const KNOWN: [(&str, &str, usize, u32); 11] = [
    ("random-32-32-20", "random-1", 10, 36),
    ("random-32-32-20", "random-1", 20, 48),
    ("random-32-32-20", "random-1", 40, 48),
    ("random-32-32-20", "random-1", 100, 48),
    ("maze-32-32-2", "random-1", 10, 74),
    ("maze-32-32-2", "random-1", 20, 127),
    ("maze-32-32-2", "random-1", 40, 129),
    ("empty-8-8", "random-1", 10, 8),
    ("empty-8-8", "random-1", 20, 8),
    ("empty-8-8", "random-1", 30, 12),
    ("room-32-32-4", "random-1", 20, 46),
];

/// The flags of `bench mapf`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// K = 10 and 20 only: a check that everything runs, not figures.
    #[arg(long)]
    quick: bool,
    /// CPU seconds an instance may take.
    #[arg(long, default_value_t = 60.0)]
    limit: f64,
    /// The agent counts, comma separated (default 10,20,40,80); past 80, each map and
    /// scenario stops at its first instance not answered within the limit.
    #[arg(long, value_delimiter = ',')]
    agents: Vec<usize>,
    /// Only these maps, comma separated (default: the 12 of the sweep).
    #[arg(long, value_delimiter = ',', value_name = "MAP")]
    only: Vec<String>,
    /// The scenarios, comma separated (default random-1,even-1).
    #[arg(long, value_delimiter = ',')]
    scenarios: Vec<String>,
    /// The `--memory-mib` of every run (the program's own default is 1024). A run past
    /// it answers with the over-budget error, shown as `budget`.
    #[arg(long, default_value_t = 4096)]
    memory_mib: u64,
    /// Run the peers beside ours: CBSH2-RTC (sum of costs) and lacam2 (makespan), found in
    /// DIR as `cbs` and `lacam2/build/main` (see docs/bench.md); each one absent is skipped
    /// with a message.
    #[arg(long, value_name = "DIR")]
    peers: Option<PathBuf>,
    /// Every map and scenario found in DIR (`.map` and `MAP-KIND-N.scen` files, in any
    /// folders up to three deep) instead of the sweep's; --only and --scenarios filter it.
    #[arg(long, value_name = "DIR")]
    maps: Option<PathBuf>,
    /// The objectives, comma separated (default: makespan; with --peers or --maps, both).
    /// Ours runs the sum of costs only when its binary has --objective.
    #[arg(long, value_enum, value_delimiter = ',')]
    objective: Vec<Objective>,
    /// Processes at a time (with --peers, --maps or --objective; more than one makes the
    /// seconds noisier).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// The CSV of the runs, appended to and resumed from (default
    /// target/bench/mapf-runs.csv); the cactus plots go beside it.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

impl Args {
    /// The flags of a plain `bench mapf [--quick]`.
    pub fn defaults(quick: bool) -> Args {
        Args {
            quick,
            limit: 60.0,
            agents: Vec::new(),
            only: Vec::new(),
            scenarios: Vec::new(),
            memory_mib: 4096,
            peers: None,
            maps: None,
            objective: Vec::new(),
            jobs: 1,
            csv: None,
        }
    }
}

/// Where the benchmark is looked for: `$MAPF_BENCHMARK`, by default `../shared/mapf` beside
/// the workspace (it is not part of the repository).
pub fn benchmark_dir() -> PathBuf {
    std::env::var_os("MAPF_BENCHMARK").map_or_else(|| root().join("../shared/mapf"), Into::into)
}

/// What one run printed.
struct Outcome {
    lower_bound: Option<u32>,
    answer: Option<String>,
    settled_by: String,
}

/// Reads the answer from standard output and the bound and method from the `--verbose`
/// trace (`ghosts: lower bound B`, `ghosts: settled by METHOD ...`).
fn read_outcome(stdout: &str, stderr: &str) -> Outcome {
    let mut lower_bound = None;
    let mut settled_by = String::from("-");
    for line in stderr.lines() {
        let Some(event) = line.strip_prefix("ghosts: ") else {
            continue;
        };
        if let Some(bound) = event.strip_prefix("lower bound ") {
            lower_bound = bound.parse().ok();
        } else if let Some(how) = event.strip_prefix("settled by ") {
            // `sat at T = 97: plan (...)` -> `sat at T = 97`.
            settled_by = how.split(':').next().unwrap_or(how).to_owned();
        }
    }
    let answer = stdout.lines().next().map(str::to_owned);
    Outcome {
        lower_bound,
        answer,
        settled_by,
    }
}

/// The over-budget error of a run's standard error (`error: FILE: line L, column C:
/// solving this case needs more than the memory budget of ...` for the map's tables,
/// `error: the K agents of S on M: solving it needs more than the memory budget of ...`
/// for the search), from `solving` on.
fn over_budget(stderr: &str) -> Option<String> {
    stderr.lines().find_map(|line| {
        let end = line.find(" needs more than the memory budget")?;
        let start = line[..end].rfind("solving ")?;
        Some(line[start..].to_owned())
    })
}

/// Agent lines of a scenario file (all lines after `version 1` that are not blank).
fn agent_lines(path: &Path) -> Result<usize, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .count())
}

/// `cargo xtask bench mapf`.
pub fn run(args: &Args) -> Result<(), String> {
    if args.peers.is_some() || args.maps.is_some() || !args.objective.is_empty() {
        return run_wide(args);
    }
    let dir = benchmark_dir();
    if !dir.join("maps").is_dir() {
        println!(
            "mapf: skipped, the MovingAI benchmark is not in {} (set MAPF_BENCHMARK)",
            dir.display()
        );
        return Ok(());
    }
    let mut agents = if args.agents.is_empty() {
        if args.quick {
            vec![10, 20]
        } else {
            vec![10, 20, 40, 80]
        }
    } else {
        args.agents.clone()
    };
    agents.sort_unstable();
    agents.dedup();
    let maps: Vec<String> = if args.only.is_empty() {
        MAPS.iter().map(|&m| m.to_owned()).collect()
    } else {
        args.only.clone()
    };
    let scenarios: Vec<String> = if args.scenarios.is_empty() {
        vec!["random-1".to_owned(), "even-1".to_owned()]
    } else {
        args.scenarios.clone()
    };
    let limit = args.limit;
    let memory_mib = args.memory_mib;
    let mut build = cargo();
    build.args(["build", "--release", "--quiet", "-p", "ghosts"]);
    run_command(build)?;
    let binary = target_dir().join("release/ghosts");
    let work = target_dir().join("bench");
    fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    println!(
        "{:<24} {:<9} {:>5} {:>5} {:>7} {:>8} {:>8} {:>8}  settled by",
        "map", "scenario", "K", "bound", "answer", "cpu s", "wall s", "MiB"
    );
    let mut report =
        String::from("map\tscenario\tK\tbound\tanswer\tcpu_s\twall_s\tpeak_mib\tsettled_by\n");
    let (mut answered, mut asked, mut wrong, mut open) = (0, 0, Vec::new(), Vec::new());
    for map in &maps {
        let map_file = dir.join("maps").join(format!("{map}.map"));
        for scenario in &scenarios {
            let scen_file = dir.join("scen").join(format!("{map}-{scenario}.scen"));
            let available = agent_lines(&scen_file)?;
            for &k in &agents {
                let name = format!("{map} {scenario} {k}");
                if k > available {
                    println!(
                        "{map:<24} {scenario:<9} {k:>5}  (the scenario has {available} agents: \
                         no larger K)"
                    );
                    break;
                }
                asked += 1;
                let instance = Instance {
                    map,
                    scenario,
                    k,
                    map_file: &map_file,
                    scen_file: &scen_file,
                };
                let run = run_instance(&binary, &instance, limit, memory_mib, &work);
                if run.in_time {
                    answered += 1;
                } else {
                    open.push(name.clone());
                }
                let known = KNOWN
                    .iter()
                    .find(|&&(m, s, n, _)| m == map && s == scenario && n == k)
                    .map(|&(_, _, _, steps)| steps);
                let check = match known {
                    Some(steps) if run.in_time && run.answer != steps.to_string() => {
                        wrong.push(format!("{name}: {}, known {steps}", run.answer));
                        format!(" WRONG, known {steps}")
                    }
                    Some(_) if run.in_time => " (= known)".to_owned(),
                    _ => String::new(),
                };
                print_row(&instance, &run, &check, &mut report);
                if !run.in_time && agents.iter().any(|&a| a > 80) {
                    // Past the sweep: the first K out of reach ends this map and scenario.
                    break;
                }
            }
        }
    }
    fs::write(work.join("mapf.tsv"), report).map_err(|e| e.to_string())?;
    println!(
        "mapf: {answered} of {asked} answered within {limit} CPU s each (one process each, \
         --memory-mib {memory_mib}); open (or over budget): {open:?}; table in target/bench/mapf.tsv, traces in \
         target/bench/mapf-*.err"
    );
    if !wrong.is_empty() {
        return Err(format!(
            "mapf: answers differ from the known optima: {wrong:?}"
        ));
    }
    Ok(())
}

/// `bench mapf` with peers, objectives or a folder of maps: see [`runs`].
fn run_wide(args: &Args) -> Result<(), String> {
    let (dir, default_scenarios) = match &args.maps {
        Some(dir) => (dir.clone(), Vec::new()),
        None => (
            benchmark_dir(),
            vec!["random-1".to_owned(), "even-1".to_owned()],
        ),
    };
    if !dir.is_dir() {
        println!(
            "mapf: skipped, no MovingAI maps in {} (--maps DIR or MAPF_BENCHMARK)",
            dir.display()
        );
        return Ok(());
    }
    let scenarios = if args.scenarios.is_empty() {
        default_scenarios
    } else {
        args.scenarios.clone()
    };
    let only: Vec<String> = match (&args.maps, args.only.is_empty()) {
        (None, true) => MAPS.iter().map(|&m| m.to_owned()).collect(),
        _ => args.only.clone(),
    };
    let instances: Vec<Scenario> = runs::discover(&dir)?
        .into_iter()
        .filter(|i| only.is_empty() || only.contains(&i.map))
        .filter(|i| scenarios.is_empty() || scenarios.contains(&i.scen))
        .collect();
    let mut agents = if args.agents.is_empty() {
        if args.quick {
            vec![10, 20]
        } else {
            vec![10, 20, 40, 80]
        }
    } else {
        args.agents.clone()
    };
    agents.sort_unstable();
    agents.dedup();
    let mut build = cargo();
    build.args(["build", "--release", "--quiet", "-p", "ghosts"]);
    run_command(build)?;
    let mut solvers = vec![Solver::ours(target_dir().join("release/ghosts"))];
    if let Some(peers) = &args.peers {
        let (found, absent) = Solver::peers(peers);
        for message in absent {
            println!("mapf: {message}");
        }
        solvers.extend(found);
    }
    let objectives = if !args.objective.is_empty() {
        args.objective.clone()
    } else if args.peers.is_some() || args.maps.is_some() {
        vec![Objective::Makespan, Objective::Soc]
    } else {
        vec![Objective::Makespan]
    };
    if objectives.contains(&Objective::Soc) && !solvers[0].handles(Objective::Soc) {
        println!(
            "mapf: our ghosts has no --objective yet: ours runs the makespan only, the sum \
             of costs is the peers'"
        );
    }
    let work = target_dir().join("bench");
    fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let csv = args
        .csv
        .clone()
        .unwrap_or_else(|| work.join("mapf-runs.csv"));
    let limits = Limits {
        seconds: args.limit,
        memory_mib: args.memory_mib,
    };
    println!(
        "mapf: {} scenarios of {} from {}, K in {agents:?}, {} CPU s each, {} at a time; \
         solvers: {}",
        instances.len(),
        instances
            .iter()
            .map(|i| i.map.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        dir.display(),
        args.limit,
        args.jobs,
        solvers
            .iter()
            .map(Solver::name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let rows = runs::run(&runs::Plan {
        instances: &instances,
        agents: &agents,
        objectives: &objectives,
        solvers: &solvers,
        limits,
        jobs: usize::try_from(args.jobs).unwrap_or(1),
        csv: &csv,
        work: &work,
    })?;
    let disagreements = runs::summary(&rows, &solvers, &objectives);
    let plot_dir = csv.parent().unwrap_or(Path::new("."));
    let plots = runs::plots(&rows, &solvers, &objectives, args.limit, plot_dir)?;
    let proven = |solver: &Solver, objective: Objective| {
        rows.iter()
            .filter(|r| r.solver == solver.name() && r.objective == objective && r.outcome.proven)
            .count()
    };
    for &objective in &objectives {
        let counts: Vec<String> = solvers
            .iter()
            .filter(|s| s.handles(objective))
            .map(|s| format!("{} {}", s.name(), proven(s, objective)))
            .collect();
        println!("mapf {}: proven: {}", objective.name(), counts.join(", "));
    }
    println!(
        "mapf: rows in {}, cactus plots {}",
        csv.display(),
        plots
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if disagreements.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "mapf: solvers prove different optima on {disagreements:?}"
        ))
    }
}

/// One instance: the first `k` agents of a scenario on a map.
struct Instance<'a> {
    map: &'a str,
    scenario: &'a str,
    k: usize,
    map_file: &'a Path,
    scen_file: &'a Path,
}

/// What one run of ours on an instance gave.
struct InstanceRun {
    measure: Measure,
    outcome: Outcome,
    /// The answer, `budget` (over the memory budget) or `open`.
    answer: String,
    /// Answered within the limit.
    in_time: bool,
}

/// `ghosts` on one instance, under the CPU limit.
fn run_instance(
    binary: &Path,
    instance: &Instance<'_>,
    limit: f64,
    memory_mib: u64,
    work: &Path,
) -> InstanceRun {
    // Each instance's answer and trace are kept (and two benches at once do not share
    // files).
    let stem = format!("mapf-{}-{}-{}", instance.map, instance.scenario, instance.k);
    let (out, err) = (
        work.join(format!("{stem}.out")),
        work.join(format!("{stem}.err")),
    );
    // The CPU limit is the shell's `ulimit -t` (SIGXCPU ends the run, leaving no answer);
    // the trace goes to a file for the bound and the method. Status 1 (an error: over the
    // memory budget) still counts as measured, so that its seconds are shown; the trace
    // tells what it was.
    let script = format!(
        "ulimit -t {}; \"$0\" \"$@\" 2>'{}'; s=$?; [ $s -eq 1 ] && exit 0; exit $s",
        limit.ceil() as u64 + 1,
        err.display()
    );
    let args = [
        "-c".to_owned(),
        script,
        binary.display().to_string(),
        "--map".to_owned(),
        instance.map_file.display().to_string(),
        "--scen".to_owned(),
        instance.scen_file.display().to_string(),
        "--agents".to_owned(),
        instance.k.to_string(),
        "--memory-mib".to_owned(),
        memory_mib.to_string(),
        "--verbose".to_owned(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let _ = fs::remove_file(&out);
    let _ = fs::remove_file(&err);
    let measure =
        measure(Path::new("/bin/sh"), &args, Path::new("/dev/null"), &out).unwrap_or(Measure {
            seconds: f64::NAN,
            peak_kib: 0,
            cpu_seconds: limit.ceil() + 1.0,
            status: -1,
        });
    let trace = fs::read_to_string(&err).unwrap_or_default();
    let mut outcome = read_outcome(&fs::read_to_string(&out).unwrap_or_default(), &trace);
    let over_budget = over_budget(&trace);
    let in_time = measure.cpu_seconds <= limit && outcome.answer.is_some();
    let answer = match (&outcome.answer, in_time, &over_budget) {
        (Some(a), true, _) => a.clone(),
        (_, _, Some(why)) => {
            outcome.settled_by = why.clone();
            "budget".to_owned()
        }
        _ => "open".to_owned(),
    };
    InstanceRun {
        measure,
        outcome,
        answer,
        in_time,
    }
}

/// Prints one instance's row and adds it to the tab-separated `report`.
fn print_row(instance: &Instance<'_>, run: &InstanceRun, check: &str, report: &mut String) {
    let Instance {
        map, scenario, k, ..
    } = instance;
    let (m, answer) = (&run.measure, &run.answer);
    let bound = run
        .outcome
        .lower_bound
        .map_or_else(|| "-".to_owned(), |b| b.to_string());
    let mib = m.peak_mib();
    // A run stopped at the limit has no wall time or peak of its own.
    let (wall, peak) = if m.seconds.is_nan() {
        ("-".to_owned(), "-".to_owned())
    } else {
        (format!("{:.2}", m.seconds), format!("{mib:.1}"))
    };
    println!(
        "{map:<24} {scenario:<9} {k:>5} {bound:>5} {answer:>7} {:>8.2} {wall:>8} {peak:>8}  {}{check}",
        m.cpu_seconds, run.outcome.settled_by
    );
    let _ = writeln!(
        report,
        "{map}\t{scenario}\t{k}\t{bound}\t{answer}\t{:.3}\t{:.3}\t{mib:.1}\t{}",
        m.cpu_seconds, m.seconds, run.outcome.settled_by
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trace_gives_the_bound_and_the_method() {
        let stderr = "ghosts: lower bound 97\nghosts: planning at T = 97: none (0.1 s)\n\
                      ghosts: settled by sat at T = 98: plan (10 variables, 2.0 s)\n";
        let outcome = read_outcome("98\n", stderr);
        assert_eq!(outcome.lower_bound, Some(97));
        assert_eq!(outcome.answer.as_deref(), Some("98"));
        assert_eq!(outcome.settled_by, "sat at T = 98");
    }

    #[test]
    fn the_over_budget_error_is_told_apart() {
        let stderr = "ghosts: lower bound 97\nerror: x.scen: line 1, column 1: solving this \
                      case needs more than the memory budget of 8 MiB (11 MiB for the \
                      distances of 500 agents); raise it with --memory-mib\n";
        assert_eq!(
            over_budget(stderr).as_deref(),
            Some(
                "solving this case needs more than the memory budget of 8 MiB (11 MiB for the \
                 distances of 500 agents); raise it with --memory-mib"
            )
        );
        assert_eq!(over_budget("error: line 3, column 1: bad row\n"), None);
    }
}

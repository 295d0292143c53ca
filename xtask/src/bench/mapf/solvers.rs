//! The solvers of `bench mapf` beside the sweep: ours and the two peers, each run as one
//! measured process on one instance, and what each prints read back into one [`Outcome`].
//!
//! - ours: `ghosts --map --scen --agents K --verbose` (with `--objective` and
//!   `--time-limit` when the binary has them); the first output line is the answer (`N`,
//!   `-1`, or `unproven: N >= LB`), the trace gives the lower bound;
//! - lacam2 (makespan, `-O 1`): its result file's `solved=`, `makespan=`, `makespan_lb=`;
//!   proven when the makespan meets the bound;
//! - CBSH2-RTC (sum of costs): its result line `...: Optimal,COST,RUNTIME,HL,LL,MIN_F,...`
//!   (`Timeout,-1,...` when not proven), MIN_F its lower bound.
//!
//! Every run gets the CPU limit (`ulimit -t`) and an address-space cap, and each solver's
//! own time limit is set to the same seconds.

use std::fs;
use std::path::{Path, PathBuf};

use crate::bench::measure::measure_any;

/// The objective of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Objective {
    /// The largest arrival time.
    Makespan,
    /// The sum of the arrival times (the field's sum of costs).
    Soc,
}

impl Objective {
    /// The name in the CSV and on ghosts' command line.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Makespan => "makespan",
            Objective::Soc => "soc",
        }
    }
}

/// A solver and its binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solver {
    /// Our `ghosts`, with the flags its `--help` lists.
    Ours {
        binary: PathBuf,
        objective_flag: bool,
        time_limit_flag: bool,
        /// It takes `--jobs` (threads one search may use): the bench gives it 1, since it
        /// counts CPU seconds (`ulimit -t` and the limit count every thread's) as the
        /// peers' single thread does.
        jobs_flag: bool,
    },
    /// lacam2's `main`.
    Lacam2(PathBuf),
    /// CBSH2-RTC's `cbs`.
    Cbsh2(PathBuf),
}

impl Solver {
    /// The name in the CSV and the tables.
    pub fn name(&self) -> &'static str {
        match self {
            Solver::Ours { .. } => "ours",
            Solver::Lacam2(_) => "lacam2",
            Solver::Cbsh2(_) => "CBSH2-RTC",
        }
    }

    /// Whether it solves for `objective`.
    pub fn handles(&self, objective: Objective) -> bool {
        match self {
            Solver::Ours { objective_flag, .. } => {
                objective == Objective::Makespan || *objective_flag
            }
            Solver::Lacam2(_) => objective == Objective::Makespan,
            Solver::Cbsh2(_) => objective == Objective::Soc,
        }
    }

    /// Ours, with the optional flags found in its help text.
    pub fn ours(binary: PathBuf) -> Solver {
        let help = std::process::Command::new(&binary)
            .arg("--help")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        Solver::Ours {
            objective_flag: help.contains("--objective"),
            time_limit_flag: help.contains("--time-limit"),
            jobs_flag: help.contains("--jobs"),
            binary,
        }
    }

    /// The peers found in `dir`: `cbs` and `lacam2` there, or where their builds put them
    /// (`CBSH2-RTC/build/cbs`, `lacam2/build/main`); a message for each one absent.
    pub fn peers(dir: &Path) -> (Vec<Solver>, Vec<String>) {
        let find =
            |candidates: &[&str]| candidates.iter().map(|c| dir.join(c)).find(|p| p.is_file());
        let (mut found, mut absent) = (Vec::new(), Vec::new());
        match find(&["cbs", "CBSH2-RTC/build/cbs", "cbsh2-rtc/build/cbs"]) {
            Some(path) => found.push(Solver::Cbsh2(path)),
            None => absent.push(format!(
                "CBSH2-RTC skipped: no cbs, CBSH2-RTC/build/cbs or cbsh2-rtc/build/cbs in {}",
                dir.display()
            )),
        }
        match find(&["lacam2/build/main", "lacam2-main", "lacam2"]) {
            Some(path) => found.push(Solver::Lacam2(path)),
            None => absent.push(format!(
                "lacam2 skipped: no lacam2/build/main or lacam2-main in {}",
                dir.display()
            )),
        }
        (found, absent)
    }
}

/// One instance: the first K agents of a scenario file on a map file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The map's name (file stem).
    pub map: String,
    /// The scenario's name without the map (`random-1`).
    pub scen: String,
    /// The `.map` file.
    pub map_file: PathBuf,
    /// The `.scen` file.
    pub scen_file: PathBuf,
    /// Agents the scenario has.
    pub available: usize,
}

/// What a run gave.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    /// The objective's value of the plan found, or -1 (proven unsolvable).
    pub answer: Option<i64>,
    /// The answer is proven optimal (or proven unsolvable).
    pub proven: bool,
    /// The proven lower bound.
    pub bound: Option<u64>,
    /// How it ended, in a few words (no commas: it goes in the CSV).
    pub note: String,
}

/// One finished run, as one CSV row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The map's name.
    pub map: String,
    /// The scenario's name.
    pub scen: String,
    /// K.
    pub agents: usize,
    /// The objective.
    pub objective: Objective,
    /// The solver's name.
    pub solver: String,
    /// The answer.
    pub outcome: Outcome,
    /// CPU seconds.
    pub seconds: f64,
    /// Wall seconds.
    pub wall_seconds: f64,
    /// Peak resident memory.
    pub peak_mib: f64,
    /// The limit it ran under.
    pub limit: f64,
}

/// The CPU limit, the address-space cap, and the solver's own time limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Seconds per run.
    pub seconds: f64,
    /// Our `--memory-mib`; the cap on every process is this plus 4 GiB.
    pub memory_mib: u64,
}

/// Runs `solver` on the first `k` agents of `instance` for `objective`, files under `work`.
pub fn run(
    solver: &Solver,
    instance: &Instance,
    k: usize,
    objective: Objective,
    limits: Limits,
    work: &Path,
) -> Row {
    let stem = work.join(format!(
        "mapf-{}-{}-{k}-{}-{}",
        instance.map,
        instance.scen,
        objective.name(),
        solver.name()
    ));
    let (out, err, result) = (
        stem.with_extension("out"),
        stem.with_extension("err"),
        stem.with_extension("result"),
    );
    let _ = fs::remove_file(&result);
    let caps = format!(
        "ulimit -t {}; ulimit -v {}; exec \"$0\" \"$@\" 2>'{}'",
        limits.seconds.ceil() as u64 + 1,
        (limits.memory_mib + 4096) * 1024,
        err.display()
    );
    let (program, mut args) = command(solver, instance, k, objective, limits, &result);
    let mut sh = vec!["-c".to_owned(), caps, program.display().to_string()];
    sh.append(&mut args);
    let sh: Vec<&str> = sh.iter().map(String::as_str).collect();
    let measured = measure_any(Path::new("/bin/sh"), &sh, Path::new("/dev/null"), &out);
    let stdout = fs::read_to_string(&out).unwrap_or_default();
    let stderr = fs::read_to_string(&err).unwrap_or_default();
    let (mut outcome, seconds, wall_seconds, peak_mib) = match measured {
        Ok((m, _)) => {
            let mut outcome = match solver {
                Solver::Ours { .. } => read_ours(&stdout, &stderr),
                Solver::Lacam2(_) => read_lacam2(&fs::read_to_string(&result).unwrap_or_default()),
                Solver::Cbsh2(_) => read_cbsh2(&stdout),
            };
            if m.status != 0 && outcome.note.is_empty() {
                outcome.note = format!("status {}", m.status);
            }
            (outcome, m.cpu_seconds, m.seconds, m.peak_mib())
        }
        Err(e) => (
            Outcome {
                note: format!("not run: {}", e.lines().next().unwrap_or("")),
                ..Outcome::default()
            },
            f64::NAN,
            f64::NAN,
            f64::NAN,
        ),
    };
    if seconds > limits.seconds && outcome.proven {
        // Past the limit: what a faster machine would have; not counted as proven here.
        outcome.proven = false;
        outcome.note = format!("past the limit; {}", outcome.note);
    }
    outcome.note = outcome.note.replace([',', '\n'], ";");
    Row {
        map: instance.map.clone(),
        scen: instance.scen.clone(),
        agents: k,
        objective,
        solver: solver.name().to_owned(),
        outcome,
        seconds,
        wall_seconds,
        peak_mib,
        limit: limits.seconds,
    }
}

/// The program and arguments of one run.
fn command(
    solver: &Solver,
    instance: &Instance,
    k: usize,
    objective: Objective,
    limits: Limits,
    result: &Path,
) -> (PathBuf, Vec<String>) {
    let (map, scen) = (
        instance.map_file.display().to_string(),
        instance.scen_file.display().to_string(),
    );
    let seconds = limits.seconds.to_string();
    match solver {
        Solver::Ours {
            binary,
            objective_flag,
            time_limit_flag,
            jobs_flag,
        } => {
            let mut args = vec![
                "--map".to_owned(),
                map,
                "--scen".to_owned(),
                scen,
                "--agents".to_owned(),
                k.to_string(),
                "--memory-mib".to_owned(),
                limits.memory_mib.to_string(),
                "--verbose".to_owned(),
            ];
            if *objective_flag {
                args.extend(["--objective".to_owned(), objective.name().to_owned()]);
            }
            if *time_limit_flag {
                args.extend(["--time-limit".to_owned(), seconds]);
            }
            if *jobs_flag {
                args.extend(["--jobs".to_owned(), "1".to_owned()]);
            }
            (binary.clone(), args)
        }
        // lacam2 takes whole seconds.
        Solver::Lacam2(binary) => (
            binary.clone(),
            [
                "-m",
                &map,
                "-i",
                &scen,
                "-N",
                &k.to_string(),
                "-t",
                &(limits.seconds.floor().max(1.0) as u64).to_string(),
                "-O",
                "1",
                "-o",
                &result.display().to_string(),
            ]
            .map(str::to_owned)
            .to_vec(),
        ),
        Solver::Cbsh2(binary) => (
            binary.clone(),
            [
                "-m",
                &map,
                "-a",
                &scen,
                "-k",
                &k.to_string(),
                "-t",
                &seconds,
                "-s",
                "1",
            ]
            .map(str::to_owned)
            .to_vec(),
        ),
    }
}

/// Our answer line and `--verbose` trace.
fn read_ours(stdout: &str, stderr: &str) -> Outcome {
    let mut outcome = Outcome::default();
    let mut traced_bound = None;
    for line in stderr.lines() {
        if let Some(event) = line.strip_prefix("ghosts: ") {
            if let Some(bound) = event.strip_prefix("lower bound ") {
                traced_bound = bound.trim().parse().ok();
            } else if let Some(how) = event.strip_prefix("settled by ") {
                outcome.note = how.split(':').next().unwrap_or(how).to_owned();
            }
        } else if line.contains("memory budget") {
            outcome.note = "over the memory budget".to_owned();
        }
    }
    let first = stdout.lines().next().unwrap_or("").trim();
    if let Some(rest) = first.strip_prefix("unproven:") {
        let mut parts = rest.split(">=");
        outcome.answer = parts.next().and_then(|a| a.trim().parse().ok());
        outcome.bound = parts.next().and_then(|b| b.trim().parse().ok());
    } else if let Ok(answer) = first.parse::<i64>() {
        outcome.answer = Some(answer);
        outcome.proven = true;
        outcome.bound = u64::try_from(answer).ok();
    }
    if outcome.bound.is_none() {
        outcome.bound = traced_bound;
    }
    outcome
}

/// lacam2's result file (`key=value` lines).
fn read_lacam2(result: &str) -> Outcome {
    let value = |key: &str| {
        result
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .map(str::trim)
    };
    let mut outcome = Outcome::default();
    if value("solved") == Some("1") {
        outcome.answer = value("makespan").and_then(|v| v.parse().ok());
        outcome.bound = value("makespan_lb").and_then(|v| v.parse().ok());
        outcome.proven = outcome.answer.is_some()
            && outcome.answer.and_then(|a| u64::try_from(a).ok()) == outcome.bound;
    } else {
        outcome.note = "no plan".to_owned();
    }
    outcome
}

/// CBSH2-RTC's result line.
fn read_cbsh2(stdout: &str) -> Outcome {
    let mut outcome = Outcome::default();
    let Some(fields) = stdout
        .lines()
        .find_map(|l| l.split_once(": ").map(|(_, rest)| rest.trim()))
    else {
        outcome.note = "no result line".to_owned();
        return outcome;
    };
    let fields: Vec<&str> = fields.split(',').collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.trim().parse::<f64>().ok());
    outcome.bound = number(5).map(|b| b.max(0.0) as u64);
    match fields.first().copied() {
        Some("Optimal") => {
            outcome.answer = number(1).map(|c| c as i64);
            outcome.proven = true;
        }
        Some(status) => outcome.note = status.to_owned(),
        None => {}
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_answers_proven_and_unproven() {
        let traced = "ghosts: lower bound 97\nghosts: settled by sat at T = 98: plan\n";
        let proven = read_ours("98\n", traced);
        assert_eq!(
            (proven.answer, proven.proven, proven.bound),
            (Some(98), true, Some(98))
        );
        assert_eq!(proven.note, "sat at T = 98");
        let unproven = read_ours("unproven: 58 >= 48\n", "");
        assert_eq!(
            (unproven.answer, unproven.proven, unproven.bound),
            (Some(58), false, Some(48))
        );
        let open = read_ours("", traced);
        assert_eq!((open.answer, open.bound), (None, Some(97)));
        assert!(read_ours("-1\n", "").proven);
    }

    #[test]
    fn lacam2_is_proven_when_the_makespan_meets_its_bound() {
        let file = "agents=40\nsolved=1\nsoc=1108\nsoc_lb=819\nmakespan=48\nmakespan_lb=48\n";
        let outcome = read_lacam2(file);
        assert_eq!(
            (outcome.answer, outcome.proven, outcome.bound),
            (Some(48), true, Some(48))
        );
        let loose = read_lacam2("solved=1\nmakespan=606\nmakespan_lb=527\n");
        assert_eq!(
            (loose.answer, loose.proven, loose.bound),
            (Some(606), false, Some(527))
        );
        assert_eq!(read_lacam2("solved=0\n").answer, None);
    }

    #[test]
    fn cbsh2_gives_the_cost_or_its_bound() {
        let optimal =
            read_cbsh2("WDG+GR+GC+T+BP with AStar : Optimal,413,0.008,5,1326,413,405,413,\n");
        assert_eq!(
            (optimal.answer, optimal.proven, optimal.bound),
            (Some(413), true, Some(413))
        );
        let timeout =
            read_cbsh2("WDG+GR+GC+T+BP with AStar : Timeout,-1,30.0,5,1326,1902,1890,1895,\n");
        assert_eq!(
            (timeout.answer, timeout.proven, timeout.bound),
            (None, false, Some(1902))
        );
        assert_eq!(timeout.note, "Timeout");
    }
}

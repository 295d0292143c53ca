//! `bench mapf` with peers, both objectives or a folder of maps: many solvers on many
//! instances, `--jobs N` processes at a time, one CSV row per run, resumable.
//!
//! The work is cut into chains: one map, scenario, objective and solver over the agent
//! counts in increasing order, so that a chain can stop at its first K without any answer
//! (when some K is past 80, as the sweep does). Workers take whole chains; the main thread
//! appends each finished row to the CSV at once (a run of hours loses nothing when
//! stopped) and, on a terminal, shows progress on standard error. Rows already in the CSV
//! for the same limit are not run again.

use std::collections::{BTreeMap, HashSet};
use std::fs::{self, OpenOptions};
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Instant;

use super::solvers::{self, Instance, Limits, Objective, Outcome, Row, Solver};
use crate::bench::cactus::{Curve, Plot};

/// The CSV's header.
pub const HEADER: &str = "map,scen,agents,objective,solver,answer,proven,bound,seconds,wall_seconds,peak_mib,limit_s,note";

/// The `.map` and `.scen` files under `dir` (three levels deep at most), as instances:
/// a scenario `MAP-KIND-N.scen` belongs to `MAP.map`. Sorted by map, then scenario.
pub fn discover(dir: &Path) -> Result<Vec<Instance>, String> {
    let mut maps = BTreeMap::new();
    let mut scens = Vec::new();
    let mut folders = vec![(dir.to_path_buf(), 0)];
    while let Some((folder, depth)) = folders.pop() {
        let entries = fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let stem = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned);
            match (path.extension().and_then(|e| e.to_str()), stem) {
                _ if path.is_dir() && depth < 3 => folders.push((path, depth + 1)),
                (Some("map"), Some(stem)) => {
                    maps.insert(stem, path);
                }
                (Some("scen"), Some(stem)) => scens.push((stem, path)),
                _ => {}
            }
        }
    }
    let mut instances = Vec::new();
    for (stem, scen_file) in scens {
        // The longest map name that the scenario's name starts with.
        let owner = maps
            .iter()
            .filter(|(map, _)| stem.len() > map.len() + 1 && stem.starts_with(&format!("{map}-")))
            .max_by_key(|(map, _)| map.len());
        if let Some((map, map_file)) = owner {
            instances.push(Instance {
                scen: stem[map.len() + 1..].to_owned(),
                map: map.clone(),
                map_file: map_file.clone(),
                available: super::agent_lines(&scen_file)?,
                scen_file,
            });
        }
    }
    instances.sort_by(|a, b| (&a.map, &a.scen).cmp(&(&b.map, &b.scen)));
    Ok(instances)
}

/// One chain of runs.
struct Chain<'a> {
    instance: &'a Instance,
    objective: Objective,
    solver: &'a Solver,
    agents: Vec<usize>,
}

/// What to run and where to keep it.
pub struct Plan<'a> {
    /// The instances.
    pub instances: &'a [Instance],
    /// The agent counts, increasing.
    pub agents: &'a [usize],
    /// The objectives.
    pub objectives: &'a [Objective],
    /// The solvers.
    pub solvers: &'a [Solver],
    /// Limits of every run.
    pub limits: Limits,
    /// Processes at a time.
    pub jobs: usize,
    /// The CSV (appended to).
    pub csv: &'a Path,
    /// Traces and result files.
    pub work: &'a Path,
}

/// Runs the plan, printing a line per finished run; returns every row of the CSV at this
/// limit, the ones of earlier runs included.
pub fn run(plan: &Plan<'_>) -> Result<Vec<Row>, String> {
    let earlier = read_csv(plan.csv)?;
    let done: HashSet<(String, String, usize, Objective, String)> = earlier
        .iter()
        .filter(|r| r.limit == plan.limits.seconds)
        .map(|r| {
            (
                r.map.clone(),
                r.scen.clone(),
                r.agents,
                r.objective,
                r.solver.clone(),
            )
        })
        .collect();
    let stop_early = plan.agents.iter().any(|&k| k > 80);
    let mut chains = Vec::new();
    for instance in plan.instances {
        for &objective in plan.objectives {
            for solver in plan.solvers.iter().filter(|s| s.handles(objective)) {
                let agents: Vec<usize> = plan
                    .agents
                    .iter()
                    .copied()
                    .filter(|&k| k <= instance.available)
                    .filter(|&k| {
                        let key = (
                            instance.map.clone(),
                            instance.scen.clone(),
                            k,
                            objective,
                            solver.name().to_owned(),
                        );
                        !done.contains(&key)
                    })
                    .collect();
                if !agents.is_empty() {
                    chains.push(Chain {
                        instance,
                        objective,
                        solver,
                        agents,
                    });
                }
            }
        }
    }
    let total: usize = chains.iter().map(|c| c.agents.len()).sum();
    if !done.is_empty() {
        println!(
            "mapf: {} runs already in {} are kept; {total} to go",
            done.len(),
            plan.csv.display()
        );
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(plan.csv)
        .map_err(|e| format!("{}: {e}", plan.csv.display()))?;
    if earlier.is_empty() && fs::metadata(plan.csv).map(|m| m.len()).unwrap_or(0) == 0 {
        writeln!(file, "{HEADER}").map_err(|e| e.to_string())?;
    }
    print_header();
    let queue = Mutex::new(chains.into_iter());
    let (sender, receiver) = mpsc::channel::<Row>();
    let mut rows: Vec<Row> = earlier
        .into_iter()
        .filter(|r| r.limit == plan.limits.seconds)
        .collect();
    let started = Instant::now();
    let progress = std::io::stderr().is_terminal();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..plan.jobs.max(1) {
            let sender = sender.clone();
            let queue = &queue;
            scope.spawn(move || {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.next());
                    let Some(chain) = next else { break };
                    for &k in &chain.agents {
                        let row = solvers::run(
                            chain.solver,
                            chain.instance,
                            k,
                            chain.objective,
                            plan.limits,
                            plan.work,
                        );
                        let answered = row.outcome.answer.is_some();
                        if sender.send(row).is_err() || (stop_early && !answered) {
                            break;
                        }
                    }
                }
            });
        }
        drop(sender);
        for (i, row) in receiver.iter().enumerate() {
            writeln!(file, "{}", csv_line(&row)).map_err(|e| e.to_string())?;
            file.flush().map_err(|e| e.to_string())?;
            print_row(&row);
            if progress {
                eprint!(
                    "\r\x1b[K[{} of at most {total}, {:.0} s] {} {} {}",
                    i + 1,
                    started.elapsed().as_secs_f64(),
                    row.map,
                    row.scen,
                    row.agents
                );
            }
            rows.push(row);
        }
        if progress {
            eprintln!();
        }
        Ok(())
    })?;
    Ok(rows)
}

fn print_header() {
    println!(
        "{:<24} {:<9} {:>5} {:<8} {:<9} {:>7} {:>6} {:>7} {:>8} {:>8} {:>8}  note",
        "map",
        "scenario",
        "K",
        "obj.",
        "solver",
        "answer",
        "proven",
        "bound",
        "cpu s",
        "wall s",
        "MiB"
    );
}

fn print_row(row: &Row) {
    let o = &row.outcome;
    let show = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
    println!(
        "{:<24} {:<9} {:>5} {:<8} {:<9} {:>7} {:>6} {:>7} {:>8.2} {:>8.2} {:>8.1}  {}",
        row.map,
        row.scen,
        row.agents,
        row.objective.name(),
        row.solver,
        show(o.answer.map(|a| a.to_string())),
        if o.proven { "yes" } else { "no" },
        show(o.bound.map(|b| b.to_string())),
        row.seconds,
        row.wall_seconds,
        row.peak_mib,
        o.note
    );
}

/// A row as a CSV line.
pub fn csv_line(row: &Row) -> String {
    let o = &row.outcome;
    format!(
        "{},{},{},{},{},{},{},{},{:.3},{:.3},{:.1},{},{}",
        row.map,
        row.scen,
        row.agents,
        row.objective.name(),
        row.solver,
        o.answer.map(|a| a.to_string()).unwrap_or_default(),
        u8::from(o.proven),
        o.bound.map(|b| b.to_string()).unwrap_or_default(),
        row.seconds,
        row.wall_seconds,
        row.peak_mib,
        row.limit,
        o.note
    )
}

/// The rows of an earlier CSV (none when it does not exist); a line that does not read is
/// an error, so that no finished row is silently run again.
pub fn read_csv(path: &Path) -> Result<Vec<Row>, String> {
    let Ok(text) = fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let bad = || {
            format!(
                "{}: line {}: not a row of this bench",
                path.display(),
                i + 1
            )
        };
        let f: Vec<&str> = line.splitn(13, ',').collect();
        if f.len() != 13 {
            return Err(bad());
        }
        let objective = match f[3] {
            "makespan" => Objective::Makespan,
            "soc" => Objective::Soc,
            _ => return Err(bad()),
        };
        let number = |s: &str| s.parse::<f64>().map_err(|_| bad());
        rows.push(Row {
            map: f[0].to_owned(),
            scen: f[1].to_owned(),
            agents: f[2].parse().map_err(|_| bad())?,
            objective,
            solver: f[4].to_owned(),
            outcome: Outcome {
                answer: f[5].parse().ok(),
                proven: f[6] == "1",
                bound: f[7].parse().ok(),
                note: f[12].to_owned(),
            },
            seconds: number(f[8])?,
            wall_seconds: number(f[9])?,
            peak_mib: number(f[10])?,
            limit: number(f[11])?,
        });
    }
    Ok(rows)
}

/// Per instance, each solver's answer, bound and seconds side by side; the instances on
/// which two solvers prove different optima (an error of one of them).
pub fn summary(rows: &[Row], solvers: &[Solver], objectives: &[Objective]) -> Vec<String> {
    let mut by_instance: BTreeMap<(String, String, usize), Vec<&Row>> = BTreeMap::new();
    for row in rows {
        by_instance
            .entry((row.map.clone(), row.scen.clone(), row.agents))
            .or_default()
            .push(row);
    }
    let columns: Vec<(Objective, &str)> = objectives
        .iter()
        .flat_map(|&o| {
            solvers
                .iter()
                .filter(move |s| s.handles(o))
                .map(move |s| (o, s.name()))
        })
        .collect();
    println!();
    let mut header = format!("{:<24} {:<9} {:>5}", "map", "scenario", "K");
    for (objective, solver) in &columns {
        header.push_str(&format!(
            " | {:>20}",
            format!("{solver} {}", objective.name())
        ));
    }
    println!("{header}");
    let mut disagreements = Vec::new();
    for ((map, scen, k), runs) in &by_instance {
        let mut line = format!("{map:<24} {scen:<9} {k:>5}");
        for &(objective, solver) in &columns {
            let cell = runs
                .iter()
                .find(|r| r.objective == objective && r.solver == solver)
                .map_or_else(|| "-".to_owned(), |r| cell(r));
            line.push_str(&format!(" | {cell:>20}"));
        }
        println!("{line}");
        for &objective in objectives {
            let proven: HashSet<i64> = runs
                .iter()
                .filter(|r| r.objective == objective && r.outcome.proven)
                .filter_map(|r| r.outcome.answer)
                .collect();
            if proven.len() > 1 {
                disagreements.push(format!("{map} {scen} {k} {}", objective.name()));
            }
        }
    }
    println!("each cell: answer (* proven) / lower bound, CPU seconds; - not run or no answer");
    disagreements
}

fn cell(row: &Row) -> String {
    let o = &row.outcome;
    let answer = o.answer.map_or_else(|| "-".to_owned(), |a| a.to_string());
    let bound = o.bound.map_or_else(|| "-".to_owned(), |b| b.to_string());
    let star = if o.proven { "*" } else { "" };
    format!("{answer}{star}/{bound} {:.2}s", row.seconds)
}

/// One cactus plot per objective: instances proven against CPU seconds, per solver (and
/// answered, proven or not, dashed where some answers are unproven); the files written.
pub fn plots(
    rows: &[Row],
    solvers: &[Solver],
    objectives: &[Objective],
    limit: f64,
    dir: &Path,
) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    for &objective in objectives {
        let of: Vec<&Row> = rows.iter().filter(|r| r.objective == objective).collect();
        let instances: HashSet<(&str, &str, usize)> = of
            .iter()
            .map(|r| (r.map.as_str(), r.scen.as_str(), r.agents))
            .collect();
        let mut curves = Vec::new();
        for solver in solvers.iter().filter(|s| s.handles(objective)) {
            let mine: Vec<&&Row> = of.iter().filter(|r| r.solver == solver.name()).collect();
            let seconds = |keep: fn(&Row) -> bool| -> Vec<f64> {
                mine.iter()
                    .filter(|r| keep(r) && r.seconds <= limit)
                    .map(|r| r.seconds)
                    .collect()
            };
            curves.push(Curve {
                label: format!("{}, proven", solver.name()),
                seconds: seconds(|r| r.outcome.proven),
                dashed: false,
            });
            if mine
                .iter()
                .any(|r| r.outcome.answer.is_some() && !r.outcome.proven)
            {
                curves.push(Curve {
                    label: format!("{}, answered", solver.name()),
                    seconds: seconds(|r| r.outcome.answer.is_some()),
                    dashed: true,
                });
            }
        }
        let plot = Plot {
            title: format!(
                "MAPF, {}: instances settled within x CPU seconds",
                objective.name()
            ),
            instances: instances.len(),
            limit,
            curves,
        };
        let path = dir.join(format!("mapf-{}.svg", objective.name()));
        fs::write(&path, plot.svg()).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn row(solver: &str, answer: Option<i64>, proven: bool) -> Row {
        Row {
            map: "empty-8-8".to_owned(),
            scen: "random-1".to_owned(),
            agents: 10,
            objective: Objective::Soc,
            solver: solver.to_owned(),
            outcome: Outcome {
                answer,
                proven,
                bound: Some(40),
                note: "sat at T = 9".to_owned(),
            },
            seconds: 0.25,
            wall_seconds: 0.5,
            peak_mib: 3.5,
            limit: 30.0,
        }
    }

    #[test]
    fn rows_go_through_the_csv_and_back() {
        let dir = std::env::temp_dir().join(format!("xtask-mapf-csv-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("runs.csv");
        let rows = [row("ours", Some(41), true), row("CBSH2-RTC", None, false)];
        let text: String = std::iter::once(HEADER.to_owned())
            .chain(rows.iter().map(csv_line))
            .map(|l| l + "\n")
            .collect();
        fs::write(&path, text).unwrap();
        assert_eq!(read_csv(&path).unwrap(), rows.to_vec());
        fs::write(&path, format!("{HEADER}\nnot,a,row\n")).unwrap();
        assert!(read_csv(&path).is_err());
        assert_eq!(read_csv(&dir.join("absent.csv")).unwrap(), Vec::new());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scenarios_are_matched_to_their_maps_in_any_folder_layout() {
        let dir = std::env::temp_dir().join(format!("xtask-mapf-find-{}", std::process::id()));
        for sub in ["maps", "scen-random", "scen-even"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        fs::write(dir.join("maps/room-32-32-4.map"), "").unwrap();
        fs::write(dir.join("maps/room-32-32-4-x.map"), "").unwrap();
        let scen = "version 1\n0\tm.map\t32\t32\t1\t1\t2\t2\t1.4\n";
        fs::write(dir.join("scen-random/room-32-32-4-random-1.scen"), scen).unwrap();
        fs::write(dir.join("scen-even/room-32-32-4-x-even-2.scen"), scen).unwrap();
        fs::write(dir.join("scen-even/lonely-even-1.scen"), scen).unwrap();
        let found = discover(&dir).unwrap();
        let names: Vec<(&str, &str, usize)> = found
            .iter()
            .map(|i| (i.map.as_str(), i.scen.as_str(), i.available))
            .collect();
        assert_eq!(
            names,
            [
                ("room-32-32-4", "random-1", 1),
                ("room-32-32-4-x", "even-2", 1)
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn proven_answers_that_differ_are_reported() {
        let solvers = [Solver::Cbsh2(PathBuf::from("cbs"))];
        let agree = [
            row("CBSH2-RTC", Some(41), true),
            row("ours", Some(41), true),
        ];
        assert!(summary(&agree, &solvers, &[Objective::Soc]).is_empty());
        let differ = [
            row("CBSH2-RTC", Some(41), true),
            row("ours", Some(42), true),
        ];
        assert_eq!(
            summary(&differ, &solvers, &[Objective::Soc]),
            ["empty-8-8 random-1 10 soc"]
        );
        let unproven = [
            row("CBSH2-RTC", Some(41), true),
            row("ours", Some(45), false),
        ];
        assert!(summary(&unproven, &solvers, &[Objective::Soc]).is_empty());
    }
}

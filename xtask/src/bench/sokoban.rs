//! `cargo xtask bench sokoban`: the many-box solver on the published level collections of
//! `../shared/sokoban-levels/`, one process per level with a time limit, counting the
//! levels proven within it per metric, and checking every answer against the known optima
//! of `testdata/fixtures/sokoban/microban_optimal.tsv` (Microban).
//!
//! Skipped with a message when the collections are absent: they are bench inputs only.
//! `SOKOBAN_LEVELS=DIR` reads them from another folder.

use std::collections::HashMap;
use std::fs;

use std::path::Path;
use std::thread;

use super::cactus::{Curve, Plot};
use super::measure::{Measure, measure_any};
use crate::process::{cargo, root, run as run_command, target_dir};

/// The collections, by the name `--set` takes, their file and the default limit (seconds).
/// In the order of [`Set`].
const SETS: [(&str, &str, f64); 4] = [
    ("microban", "Microban_155.xsb", 10.0),
    ("microban2", "Microban_II_135.xsb", 30.0),
    ("xsokoban", "XSokoban_90.xsb", 60.0),
    ("sasquatch", "Sasquatch_50.xsb", 60.0),
];

/// The collections `--set` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Set {
    /// Microban, 155 levels, 10 s each by default.
    Microban,
    /// Microban II, 135 levels, 30 s each by default.
    Microban2,
    /// XSokoban, 90 levels, 60 s each by default.
    Xsokoban,
    /// Sasquatch, 50 levels, 60 s each by default.
    Sasquatch,
}

/// The metrics `--metric` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// Fewest pushes, then moves.
    Pushes,
    /// Fewest moves, then pushes.
    Moves,
}

impl Metric {
    /// The metric as the solver's `--metric` spells it.
    fn name(self) -> &'static str {
        match self {
            Metric::Pushes => "pushes",
            Metric::Moves => "moves",
        }
    }
}

/// Which clock the limit of `bench sokoban` is kept on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Clock {
    /// The solver's own `--time-limit`, in wall seconds, as a user runs it: a level not
    /// proven within it still prints the best solution found (`unproven: ...`), so the
    /// `solved` column counts those. For a quiet machine: other work takes from the limit.
    #[default]
    Wall,
    /// CPU seconds (`ulimit -t`), the solver's wall limit thirty times longer, for a
    /// machine shared with other work: what is proven within the limit is measured fairly,
    /// but the run is killed at the limit before it prints an unproven solution, so the
    /// `solved` column counts little beyond the proven.
    Cpu,
}

/// The flags of `bench sokoban`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Levels 1-40 of each set only: a check that everything runs, not figures.
    #[arg(long)]
    quick: bool,
    /// Also time the soukoban crate on the Microban levels, push- and move-optimal (needs
    /// a build with the `peers` feature: cargo run -q --release -p xtask --features peers
    /// -- bench sokoban --peers).
    #[arg(long)]
    peers: bool,
    /// The collections (default: microban).
    #[arg(long = "set", value_enum)]
    sets: Vec<Set>,
    /// The metrics (default: both).
    #[arg(long = "metric", value_enum)]
    metrics: Vec<Metric>,
    /// Seconds a level may take to count (default: the set's), on the `--clock`.
    #[arg(long)]
    limit: Option<f64>,
    /// The clock the limit is kept on: `wall` (the solver's `--time-limit`, a quiet
    /// machine) or `cpu` (`ulimit -t`, a shared machine).
    #[arg(long, value_enum, default_value_t)]
    clock: Clock,
    /// Only levels A-B of each set (with --quick: 1-40).
    #[arg(long, value_parser = parse_range)]
    levels: Option<(usize, usize)>,
}

impl Args {
    /// The flags of a plain `bench sokoban [--quick] [--peers]`.
    pub fn defaults(quick: bool, peers: bool) -> Args {
        Args {
            quick,
            peers,
            sets: Vec::new(),
            metrics: Vec::new(),
            limit: None,
            clock: Clock::default(),
            levels: None,
        }
    }
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let n = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    Ok((n(a)?, n(b)?))
}

/// Per Microban level: (pushes, moves) of the push optimum and of the move optimum, where
/// the table proves them.
type Known = HashMap<usize, [Option<(u32, u32)>; 2]>;

fn known() -> Result<Known, String> {
    let path = root().join("testdata/fixtures/sokoban/microban_optimal.tsv");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut table = HashMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 8 {
            continue;
        }
        let n = |i: usize| f[i].parse::<u32>().ok();
        let level: usize = f[0].parse().map_err(|_| format!("bad row `{line}`"))?;
        let pushes = (f[6] == "exact").then(|| n(2).zip(n(3))).flatten();
        let moves = (f[7] == "exact").then(|| n(5).zip(n(4))).flatten();
        table.insert(level, [pushes, moves]);
    }
    Ok(table)
}

/// Where the level collections are looked for: `$SOKOBAN_LEVELS`, by default
/// `../shared/sokoban-levels` beside the workspace (they are not part of the repository).
pub fn levels_dir() -> std::path::PathBuf {
    std::env::var_os("SOKOBAN_LEVELS")
        .map_or_else(|| root().join("../shared/sokoban-levels"), Into::into)
}

/// How one level ended, read from the answer line the solver printed for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// A proven optimal solution: its pushes and moves.
    Proven(u32, u32),
    /// Proven unsolvable (`-1`).
    Unsolvable,
    /// A legal solution not proven optimal (`unproven: PUSHES MOVES LURD >= LB`): its
    /// pushes and moves, and the proven lower bound on the metric's first key.
    Found(u32, u32, Option<u32>),
    /// No answer within the limits (`unknown: ...`, or stopped at the CPU limit).
    Open,
}

impl Answer {
    /// Reads the answer line of a level.
    fn read(line: &str) -> Answer {
        let counts = |text: &str| {
            let mut fields = text.split_whitespace().map(|f| f.parse::<u32>().ok());
            fields.next().flatten().zip(fields.next().flatten())
        };
        if line.trim() == "-1" {
            Answer::Unsolvable
        } else if let Some(rest) = line.strip_prefix("unproven:") {
            let bound = rest
                .rsplit_once(">=")
                .and_then(|(_, b)| b.trim().parse().ok());
            counts(rest).map_or(Answer::Open, |(p, m)| Answer::Found(p, m, bound))
        } else {
            counts(line).map_or(Answer::Open, |(p, m)| Answer::Proven(p, m))
        }
    }

    /// Whether a solution was printed, proven or not.
    fn solved(self) -> bool {
        matches!(self, Answer::Proven(..) | Answer::Found(..))
    }

    /// Whether an unproven solution is proven optimal on the metric's first key (its
    /// lower bound equals it), as `--metric pushes` proves the fewest pushes first.
    fn first_key_proven(self, metric: &str) -> bool {
        match self {
            Answer::Found(p, m, Some(bound)) => bound == if metric == "moves" { m } else { p },
            _ => false,
        }
    }

    /// Whether the answer is proven: optimal, or unsolvable.
    fn proven(self) -> bool {
        matches!(self, Answer::Proven(..) | Answer::Unsolvable)
    }
}

/// One level's run.
struct LevelRun {
    level: usize,
    answer: Answer,
    measure: Measure,
    /// The answer line, cut to 40 characters.
    shown: String,
}

/// `cargo xtask bench sokoban`: one process per level, a level counting as proven when
/// it is answered (solved or `-1`) within the limit, and as solved when a solution, proven
/// or not, is printed within it. The limit is the solver's `--time-limit` (wall, the
/// default) or CPU time (`--clock cpu`: `ulimit -t` stops a level at the limit, the wall
/// limit is thirty times it; see [`Clock`]). With `peers` (and the
/// `peers` feature), the Microban rows are followed by the `soukoban` crate's push- or
/// move-optimal A* on the same levels, under the same limit. Each set gets a cactus plot.
pub fn run(args: &Args) -> Result<(), String> {
    let sets = if args.sets.is_empty() {
        vec![Set::Microban]
    } else {
        args.sets.clone()
    };
    let metrics = if args.metrics.is_empty() {
        vec![Metric::Pushes, Metric::Moves]
    } else {
        args.metrics.clone()
    };
    let range = args.levels.or(args.quick.then_some((1, 40)));
    let levels_dir = levels_dir();
    if !levels_dir.exists() {
        println!(
            "sokoban: skipped, the level collections are not in {}",
            levels_dir.display()
        );
        return Ok(());
    }
    let mut build = cargo();
    build.args(["build", "--release", "--quiet", "-p", "sokoban"]);
    run_command(build)?;
    let work = target_dir().join("bench");
    fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let known = known()?;
    println!(
        "{:<28} {:>7} {:>7} {:>8} {:>9} {:>9} {:>8}  checked / levels not proven",
        "set, metric, limit", "solved", "proven", "of", "cpu s", "max s", "max MiB"
    );
    for set in sets {
        let (name, file, default_limit) = SETS[set as usize];
        let input = levels_dir.join(file);
        let text = fs::read_to_string(&input).map_err(|e| format!("{}: {e}", input.display()))?;
        let count = count_levels(&text);
        let limit = args.limit.unwrap_or(default_limit);
        let (first, last) = range.unwrap_or((1, count));
        let levels: Vec<usize> = (first..=last.min(count)).collect();
        let mut curves = Vec::new();
        for &metric in &metrics {
            let metric = metric.name();
            let runs: Vec<LevelRun> = levels
                .iter()
                .map(|&level| run_level(&input, level, metric, limit, args.clock, &work))
                .collect::<Result<_, _>>()?;
            write_runs(&work.join(format!("sokoban-{name}-{metric}.tsv")), &runs)?;
            let wrong = report_row(name, metric, limit, args.clock, &runs, &known);
            curves.extend(level_curves(
                &format!("ours, {metric}"),
                &runs,
                limit,
                args.clock,
            ));
            if !wrong.is_empty() {
                return Err(format!(
                    "{name} {metric}: answers differ from the table: {wrong:?}"
                ));
            }
            if args.peers && cfg!(feature = "peers") && name == "microban" {
                let peer = peer_row(&text, &levels, metric, limit, &known, &work)?;
                curves.push(Curve {
                    label: format!("soukoban, {metric}"),
                    seconds: peer,
                    dashed: false,
                });
            }
        }
        let plot = Plot {
            title: format!(
                "{name}: levels settled within x {} seconds, one process each",
                args.clock.name()
            ),
            instances: levels.len(),
            limit,
            curves,
        };
        let svg = work.join(format!("sokoban-{name}.svg"));
        fs::write(&svg, plot.svg()).map_err(|e| format!("{}: {e}", svg.display()))?;
    }
    println!(
        "solved: a solution printed, proven or not; proven: optimal or -1; one process per \
         level, --jobs {} ({}), --memory-mib 4096; per-level times in \
         target/bench/sokoban-*.tsv, cactus plots in target/bench/sokoban-SET.svg",
        jobs_per_level(args.clock),
        match args.clock {
            Clock::Cpu => "one thread, as ulimit -t counts every thread",
            Clock::Wall => "the machine's cores: the finder and the exact search side by side",
        }
    );
    Ok(())
}

/// The solver's `--jobs` for one level on `clock`: on the wall clock the machine's cores
/// (its default: the finder and the exact search side by side); on the CPU clock one
/// thread, since `ulimit -t` counts every thread's time.
fn jobs_per_level(clock: Clock) -> usize {
    match clock {
        Clock::Cpu => 1,
        Clock::Wall => thread::available_parallelism().map_or(1, usize::from),
    }
}

/// Our solver on one level, under the limit on `clock`.
///
/// # Errors
/// When the run could not be measured.
fn run_level(
    input: &Path,
    level: usize,
    metric: &str,
    limit: f64,
    clock: Clock,
    work: &Path,
) -> Result<LevelRun, String> {
    let binary = target_dir().join("release/sokoban");
    let out = work.join("sokoban-level.out");
    // On the CPU clock the limit is the shell's `ulimit -t` (SIGXCPU ends the run: then
    // the answer is missing and the level counts as open), and the solver's own wall limit
    // is a generous safety net for machines shared with other work. On the wall clock the
    // limit is the solver's, which prints its best by then, and `ulimit -t` the safety net.
    let (cpu_cap, wall_limit) = match clock {
        Clock::Cpu => (limit.ceil() as u64 + 1, limit * 30.0),
        Clock::Wall => (limit.ceil() as u64 + 5, limit),
    };
    let jobs = jobs_per_level(clock);
    let cpu_cap = match clock {
        Clock::Cpu => cpu_cap,
        Clock::Wall => cpu_cap * jobs as u64,
    };
    let cpu_cap = format!("ulimit -t {cpu_cap}; exec \"$0\" \"$@\"");
    let args = [
        "-c".to_owned(),
        cpu_cap,
        binary.display().to_string(),
        "--metric".to_owned(),
        metric.to_owned(),
        "--level".to_owned(),
        level.to_string(),
        "--time-limit".to_owned(),
        wall_limit.to_string(),
        "--memory-mib".to_owned(),
        "4096".to_owned(),
        "--jobs".to_owned(),
        jobs.to_string(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let measure = measure_under_cpu_limit(&args, input, &out, limit)?;
    let printed = fs::read_to_string(&out).unwrap_or_default();
    let line = printed.lines().nth(1).unwrap_or("");
    let answer = if clock.seconds(&measure) > limit + WALL_GRACE {
        Answer::Open
    } else {
        Answer::read(line)
    };
    Ok(LevelRun {
        level,
        answer,
        measure,
        shown: line.chars().take(40).collect(),
    })
}

/// How far past a wall limit the solver may print and still count: it keeps its
/// `--time-limit` within a fraction of a second.
const WALL_GRACE: f64 = 1.0;

impl Clock {
    /// The seconds of `measure` on this clock.
    fn seconds(self, measure: &Measure) -> f64 {
        match self {
            Clock::Wall => measure.seconds,
            Clock::Cpu => measure.cpu_seconds,
        }
    }

    /// The clock's name in the report.
    fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "CPU",
        }
    }
}

/// The per-level table of one set and metric.
fn write_runs(path: &Path, runs: &[LevelRun]) -> Result<(), String> {
    let mut rows = String::from(
        "level\tcpu_seconds\twall_seconds\tpeak_mib\tstatus\tpushes\tmoves\tlower_bound\tanswer\n",
    );
    let field = |n: Option<u32>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
    for run in runs {
        let m = &run.measure;
        let (status, pushes, moves, bound) = match run.answer {
            Answer::Proven(p, m) => ("proven", Some(p), Some(m), None),
            Answer::Unsolvable => ("unsolvable", None, None, None),
            Answer::Found(p, m, b) => ("unproven", Some(p), Some(m), b),
            Answer::Open => ("open", None, None, None),
        };
        rows.push_str(&format!(
            "{}\t{:.3}\t{:.3}\t{:.1}\t{status}\t{}\t{}\t{}\t{}\n",
            run.level,
            m.cpu_seconds,
            m.seconds,
            m.peak_mib(),
            field(pushes),
            field(moves),
            field(bound),
            run.shown
        ));
    }
    fs::write(path, rows).map_err(|e| format!("{}: {e}", path.display()))
}

/// Prints the row of one set and metric; the Microban levels whose answers differ from
/// the table's optima.
fn report_row(
    name: &str,
    metric: &str,
    limit: f64,
    clock: Clock,
    runs: &[LevelRun],
    known: &Known,
) -> Vec<usize> {
    let solved = runs.iter().filter(|r| r.answer.solved()).count();
    let proven = runs.iter().filter(|r| r.answer.proven()).count();
    let first_key: Vec<usize> = runs
        .iter()
        .filter(|r| r.answer.first_key_proven(metric))
        .map(|r| r.level)
        .collect();
    let total: f64 = runs.iter().map(|r| r.measure.cpu_seconds).sum();
    let max_s = runs
        .iter()
        .map(|r| r.measure.cpu_seconds)
        .fold(0.0, f64::max);
    let max_mib = runs
        .iter()
        .map(|r| r.measure.peak_mib())
        .fold(0.0, f64::max);
    let open: Vec<usize> = runs
        .iter()
        .filter(|r| !r.answer.proven())
        .map(|r| r.level)
        .collect();
    let (mut checked, mut wrong) = (0, Vec::new());
    if name == "microban" {
        for run in runs {
            let want = known
                .get(&run.level)
                .and_then(|k| k[usize::from(metric == "moves")]);
            let Some(want) = want else { continue };
            match run.answer {
                Answer::Proven(p, m) if (p, m) == want => checked += 1,
                Answer::Proven(..) | Answer::Unsolvable => wrong.push(run.level),
                // A longer solution, not claimed optimal, is no wrong answer.
                Answer::Found(..) | Answer::Open => {}
            }
        }
    }
    let check = if name == "microban" {
        format!("{checked} equal the table, wrong: {wrong:?}, ")
    } else {
        String::new()
    };
    println!(
        "{:<28} {solved:>7} {proven:>7} {:>8} {total:>9.1} {max_s:>9.2} {max_mib:>8.1}  {check}not proven: {open:?}, of them with the fewest {} proven: {first_key:?}",
        format!("{name}, {metric}, {limit} s {}", clock.name()),
        runs.len(),
        metric,
    );
    wrong
}

/// The cactus curves of one run of a set: proven, and solved (proven or not) when some
/// solutions are unproven.
fn level_curves(label: &str, runs: &[LevelRun], limit: f64, clock: Clock) -> Vec<Curve> {
    let within = |r: &&LevelRun| clock.seconds(&r.measure) <= limit + WALL_GRACE;
    let proven: Vec<f64> = runs
        .iter()
        .filter(within)
        .filter(|r| r.answer.proven())
        .map(|r| clock.seconds(&r.measure).min(limit))
        .collect();
    let solved: Vec<f64> = runs
        .iter()
        .filter(within)
        .filter(|r| r.answer.solved())
        .map(|r| clock.seconds(&r.measure).min(limit))
        .collect();
    let mut curves = vec![Curve {
        label: format!("{label}, proven"),
        seconds: proven,
        dashed: false,
    }];
    if runs.iter().any(|r| matches!(r.answer, Answer::Found(..))) {
        curves.push(Curve {
            label: format!("{label}, solved"),
            seconds: solved,
            dashed: true,
        });
    }
    curves
}

/// The `soukoban` crate on each of `levels` of the Microban text, for `metric`, as whole
/// processes under the CPU `limit`: how many it answers, and on how many its first key and
/// both keys equal the known optima. Returns the CPU seconds of the levels it answered.
fn peer_row(
    text: &str,
    levels: &[usize],
    metric: &str,
    limit: f64,
    known: &Known,
    work: &Path,
) -> Result<Vec<f64>, String> {
    let xtask = std::env::current_exe().map_err(|e| e.to_string())?;
    let input = work.join("sokoban-peer.in");
    let out = work.join("sokoban-peer.out");
    let mut rows = String::from("level\tcpu_seconds\tpeak_mib\tanswer\tfirst_key\tboth_keys\n");
    let (mut total, mut max_s, mut max_mib) = (0.0f64, 0.0f64, 0.0f64);
    let (mut first_right, mut both_right, mut checked, mut open) = (0, 0, 0, Vec::new());
    let mut settled = Vec::new();
    for &level in levels {
        let xsb = level_rows(text, level).ok_or(format!("microban: no level {level}"))?;
        fs::write(&input, xsb).map_err(|e| e.to_string())?;
        let cpu_cap = format!("ulimit -t {}; exec \"$0\" \"$@\"", limit.ceil() as u64 + 1);
        let exe = xtask.display().to_string();
        let args = ["-c", &cpu_cap, &exe, "__soukoban", "--xsb", metric];
        let m = measure_under_cpu_limit(&args, &input, &out, limit)?;
        let line = fs::read_to_string(&out).unwrap_or_default();
        let line = line.trim().to_owned();
        total += m.cpu_seconds;
        max_s = max_s.max(m.cpu_seconds);
        max_mib = max_mib.max(m.peak_mib());
        let mut fields = line.split_whitespace().map(|f| f.parse::<u32>().ok());
        let counts = fields.next().flatten().zip(fields.next().flatten());
        let answered = counts.is_some() || line == "-1";
        if answered && m.cpu_seconds <= limit {
            settled.push(m.cpu_seconds);
        } else {
            open.push(level);
        }
        // The table's optimum for the metric, (pushes, moves) like the peer's answer.
        let want = known
            .get(&level)
            .and_then(|k| k[usize::from(metric == "moves")]);
        let (mut first, mut both) = ("-", "-");
        if let (Some(want), Some(got)) = (want, counts.filter(|_| m.cpu_seconds <= limit)) {
            checked += 1;
            let key = |c: (u32, u32)| if metric == "moves" { c.1 } else { c.0 };
            first = if key(got) == key(want) {
                "right"
            } else {
                "wrong"
            };
            both = if got == want { "right" } else { "wrong" };
            first_right += usize::from(key(got) == key(want));
            both_right += usize::from(got == want);
        }
        rows.push_str(&format!(
            "{level}\t{:.3}\t{:.1}\t{line}\t{first}\t{both}\n",
            m.cpu_seconds,
            m.peak_mib()
        ));
    }
    fs::write(
        work.join(format!("sokoban-microban-{metric}-soukoban.tsv")),
        rows,
    )
    .map_err(|e| e.to_string())?;
    println!(
        "{:<28} {:>7} {:>7} {:>8} {total:>9.1} {max_s:>9.2} {max_mib:>8.1}  of {checked} in the table: first key right {first_right}, both keys {both_right}; unknown: {open:?}",
        format!("  soukoban 0.1.5, {metric}"),
        "-",
        settled.len(),
        levels.len(),
    );
    Ok(settled)
}

/// The rows of level `n` (1-based) of an XSB collection, as counted by [`count_levels`].
fn level_rows(text: &str, n: usize) -> Option<String> {
    let mut count = 0;
    let mut inside = false;
    let mut rows = String::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        let row = is_level_row(line);
        if row && !inside {
            count += 1;
        }
        if row && count == n {
            rows.push_str(line);
            rows.push('\n');
        }
        inside = row;
    }
    (!rows.is_empty()).then_some(rows)
}

/// Whether `line` is a row of a level: only level characters, with a wall.
fn is_level_row(line: &str) -> bool {
    let line = line.trim_end_matches('\r');
    line.contains('#') && line.bytes().all(|b| b"#@+$*. -_".contains(&b))
}

/// The number of levels of an XSB collection (maximal runs of level rows).
fn count_levels(text: &str) -> usize {
    let is_row = is_level_row;
    let mut count = 0;
    let mut inside = false;
    for line in text.lines() {
        let row = is_row(line);
        if row && !inside {
            count += 1;
        }
        inside = row;
    }
    count
}

/// `/bin/sh args` run as one measured process (the arguments set the CPU limit), its
/// output in `out` (removed first, so that a run that prints nothing leaves nothing); a run
/// that fails, such as one killed at the CPU limit of `limit` seconds, counts as just past
/// the limit.
///
/// # Errors
/// When the run could not be measured at all (the measuring helper did not start).
fn measure_under_cpu_limit(
    args: &[&str],
    input: &Path,
    out: &Path,
    limit: f64,
) -> Result<Measure, String> {
    match fs::remove_file(out) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("{}: {e}", out.display()));
        }
        _ => {}
    }
    let (m, _) = measure_any(Path::new("/bin/sh"), args, input, out)?;
    Ok(if m.status == 0 {
        m
    } else {
        Measure {
            cpu_seconds: m.cpu_seconds.max(limit.ceil() + 1.0),
            ..m
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_lines_tell_proven_from_found() {
        assert_eq!(Answer::read("12 40 lurdLURD"), Answer::Proven(12, 40));
        assert_eq!(Answer::read("-1"), Answer::Unsolvable);
        assert_eq!(
            Answer::read("unproven: 14 52 lurdLURD >= 12"),
            Answer::Found(14, 52, Some(12))
        );
        assert_eq!(Answer::read("unknown: time"), Answer::Open);
        assert_eq!(Answer::read(""), Answer::Open);
        assert_eq!(
            Answer::read("unproven: 12 52 lurdLURD >= 12"),
            Answer::Found(12, 52, Some(12))
        );
        assert!(Answer::Found(12, 52, Some(12)).first_key_proven("pushes"));
        assert!(!Answer::Found(12, 52, Some(12)).first_key_proven("moves"));
        assert!(!Answer::Found(14, 52, Some(12)).first_key_proven("pushes"));
        assert!(Answer::Found(1, 2, None).solved() && !Answer::Found(1, 2, None).proven());
        assert!(Answer::Unsolvable.proven() && !Answer::Unsolvable.solved());
    }

    #[test]
    fn levels_are_counted_as_runs_of_rows() {
        assert_eq!(count_levels("; 1\n###\n#@#\n\n; 2\n###\nTitle\n#\n"), 3);
    }

    #[test]
    fn a_level_is_its_run_of_rows() {
        let text = "; 1\n###\n#@#\n\n; 2\n#.#\nTitle\n#\n";
        assert_eq!(level_rows(text, 2).as_deref(), Some("#.#\n"));
        assert_eq!(level_rows(text, 3).as_deref(), Some("#\n"));
        assert_eq!(level_rows(text, 4), None);
    }
}

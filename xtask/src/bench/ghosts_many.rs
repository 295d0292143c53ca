//! `cargo xtask bench ghosts-many`: today's `ghosts` against the solver at the start of
//! issue 9 (commit [`OLD_COMMIT`], built from git history outside the working tree) on 96
//! many-ghost datasets of the generator's layouts: pillar rooms, mazes and corridors with
//! pockets (a quarter of them blocked, answer -1), 4 to 13 ghosts, maps of 16 x 16 to
//! 32 x 32.
//!
//! Each dataset is its own process for each program, with a CPU limit (`ulimit -t`) and an
//! address-space cap (`ulimit -v`, [`ADDRESS_SPACE_KIB`]) so that a search that runs away
//! cannot take the shared machine's memory. A run that does not answer within them
//! (killed at the limit, or over its memory budget) counts at the limit. The ratios are
//! total time old / total time ours, and the median over the datasets of old / ours;
//! every answer of ours must equal the old solver's where that one answered.
//!
//! Without git history holding the old commit, or when it does not build, the rows time
//! ours alone and say so.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use ghosts::generate::{Layout, LayoutSpec};

use super::measure::{measure, median};
use crate::process::{cargo, root, run as run_command, target_dir};

/// The solver at the start of issue 9 ("Many ghosts in UVa datasets").
pub const OLD_COMMIT: &str = "b5c6080";

/// The first seed; dataset `i` is drawn from `SEED + i` alone, so that
/// `cargo xtask gen ghosts --count 1 --seed ...` (the command in the report) redraws it.
const SEED: u64 = 1_601_009_000;

/// Address space a run may take, in KiB (4 GiB).
const ADDRESS_SPACE_KIB: u64 = 4 << 20;

/// CPU seconds a run may take by default (with `--quick`: [`QUICK_LIMIT`]).
const LIMIT: u64 = 10;

/// CPU seconds a run may take with `--quick`.
const QUICK_LIMIT: u64 = 2;

/// The flags of `bench ghosts-many`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The first 24 datasets and a 2 s limit: a check that everything runs, not figures.
    #[arg(long)]
    quick: bool,
    /// CPU seconds each process may take (default 10, with --quick 2).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600))]
    limit: Option<u64>,
}

impl Args {
    /// The flags of a plain `bench ghosts-many [--quick]`.
    pub fn defaults(quick: bool) -> Args {
        Args { quick, limit: None }
    }
}

/// One dataset of the workload.
struct Case {
    spec: LayoutSpec,
    seed: u64,
    text: String,
}

impl Case {
    /// The layout's name, as `gen ghosts --style` spells it.
    fn style(&self) -> &'static str {
        match self.spec.layout {
            Layout::PillarRoom => "pillars",
            Layout::Maze => "maze",
            Layout::Pockets => "pockets",
            Layout::BlockedPockets => "blocked",
        }
    }

    /// The command that prints this dataset.
    fn command(&self) -> String {
        let style = match self.spec.layout {
            Layout::PillarRoom => "pillars",
            Layout::Maze => "maze",
            Layout::Pockets => "pockets --blocked 0",
            Layout::BlockedPockets => "pockets --blocked 100",
        };
        format!(
            "cargo xtask gen ghosts --count 1 --style {style} --ghosts {} --size {}x{} --seed {}",
            self.spec.ghosts, self.spec.width, self.spec.height, self.seed
        )
    }
}

/// The 96 datasets (the first 24 with `quick`): the three layouts in turn, the ghosts 4 to 13 and
/// the sides 16 to 32 varying apart from each other, every fourth pockets dataset blocked.
fn cases(quick: bool) -> Result<Vec<Case>, String> {
    let mut list = Vec::new();
    for i in 0..if quick { 24 } else { 96 } {
        let (kind, j) = (i % 3, i / 3);
        let layout = match kind {
            0 => Layout::PillarRoom,
            1 => Layout::Maze,
            _ if j % 4 == 3 => Layout::BlockedPockets,
            _ => Layout::Pockets,
        };
        let side = 16 + 4 * ((j + j / 10 + kind) % 5);
        let spec = LayoutSpec {
            width: side,
            height: side,
            ghosts: 4 + j % 10,
            layout,
        };
        let seed = SEED + i as u64;
        let text = ghosts::generate::layout_datasets(seed, &[spec])?;
        list.push(Case { spec, seed, text });
    }
    Ok(list)
}

/// The old solver's binary, built from git history into `target/ghosts-OLD_COMMIT/`
/// (offline when the local registry has its crates, else from crates.io); an error says
/// why it cannot be had.
fn build_old() -> Result<PathBuf, String> {
    let dir = target_dir().join(format!("ghosts-{OLD_COMMIT}"));
    let binary = dir.join("target/release/ghosts");
    let commit = format!("{OLD_COMMIT}^{{commit}}");
    let known = Command::new("git")
        .arg("-C")
        .arg(root())
        .args(["rev-parse", "--quiet", "--verify", &commit])
        .output()
        .map_err(|e| format!("git cannot be run ({e})"))?;
    if !known.status.success() {
        return Err(format!(
            "commit {OLD_COMMIT} is not in the git history here"
        ));
    }
    if !dir.join("Cargo.toml").is_file() {
        fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let tar = dir.with_extension("tar");
        let mut archive = Command::new("git");
        archive
            .arg("-C")
            .arg(root())
            .args(["archive", "--format=tar", "-o"])
            .arg(&tar)
            .arg(OLD_COMMIT);
        run_command(archive)?;
        let mut unpack = Command::new("tar");
        unpack.arg("-xf").arg(&tar).arg("-C").arg(&dir);
        run_command(unpack)?;
        fs::remove_file(&tar).map_err(|e| e.to_string())?;
    }
    let build = |offline: bool| {
        let mut command = cargo();
        command.current_dir(&dir).args([
            "build",
            "--release",
            "--quiet",
            "--locked",
            "-p",
            "ghosts",
        ]);
        command.arg("--target-dir").arg(dir.join("target"));
        if offline {
            command.arg("--offline");
        }
        run_command(command)
    };
    build(true)
        .or_else(|_| build(false))
        .map_err(|e| format!("commit {OLD_COMMIT} did not build: {e}"))?;
    Ok(binary)
}

/// How one run ended.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// Answered: the first output line, in CPU seconds (user and system) and wall seconds.
    Answer {
        answer: String,
        cpu_seconds: f64,
        wall_seconds: f64,
    },
    /// Refused with its over-budget error.
    OverBudget,
    /// Stopped at the CPU limit or the address-space cap (killed by a signal).
    Limit,
    /// Anything else (the measuring helper failed, a wrong exit): the bench fails.
    Failed(String),
}

impl Outcome {
    /// CPU seconds, a run that did not answer counted at the limit.
    fn seconds(&self, limit: u64) -> f64 {
        match self {
            Outcome::Answer { cpu_seconds, .. } => *cpu_seconds,
            _ => limit as f64,
        }
    }

    /// Wall seconds, a run that did not answer shown as `-`.
    fn wall(&self) -> String {
        match self {
            Outcome::Answer { wall_seconds, .. } => format!("{wall_seconds:.4}"),
            _ => "-".to_owned(),
        }
    }

    fn answer(&self) -> Option<&str> {
        match self {
            Outcome::Answer { answer, .. } => Some(answer),
            _ => None,
        }
    }

    fn shown(&self) -> String {
        match self {
            Outcome::Answer { answer, .. } => answer.clone(),
            Outcome::OverBudget => "over budget".to_owned(),
            Outcome::Limit => "limit".to_owned(),
            Outcome::Failed(_) => "FAILED".to_owned(),
        }
    }
}

/// `program` on `input` under the CPU limit and the address-space cap.
fn run_one(program: &Path, input: &Path, output: &Path, limit: u64) -> Outcome {
    let caps = format!("ulimit -t {limit}; ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" \"$@\"");
    let program = program.display().to_string();
    match measure(
        Path::new("/bin/sh"),
        &["-c", &caps, &program],
        input,
        output,
    ) {
        Ok(m) => Outcome::Answer {
            answer: fs::read_to_string(output)
                .unwrap_or_default()
                .lines()
                .next()
                .unwrap_or("")
                .to_owned(),
            cpu_seconds: m.cpu_seconds,
            wall_seconds: m.seconds,
        },
        Err(message) if message.contains("memory budget") => Outcome::OverBudget,
        Err(message) if killed_by_signal(&message) => Outcome::Limit,
        Err(message) => Outcome::Failed(message),
    }
}

/// Whether the measuring helper's error reports a run ended by a signal: SIGXCPU at the
/// CPU limit, SIGKILL past it, SIGABRT when an allocation fails at the address-space cap.
/// Its message ends in `(status S)`, S the raw wait status (the signal in the low 7 bits).
fn killed_by_signal(message: &str) -> bool {
    let status = message
        .rsplit_once("(status ")
        .and_then(|(_, rest)| rest.split(')').next())
        .and_then(|s| s.trim().parse::<i32>().ok());
    status.is_some_and(|s| {
        let signal = s & 0x7f;
        signal == libc::SIGXCPU || signal == libc::SIGKILL || signal == libc::SIGABRT
    })
}

/// The row of one dataset.
struct Row {
    case_index: usize,
    old: Option<Outcome>,
    ours: Outcome,
}

/// `cargo xtask bench ghosts-many`.
pub fn run(args: &Args) -> Result<(), String> {
    let limit = args
        .limit
        .unwrap_or(if args.quick { QUICK_LIMIT } else { LIMIT });
    let cases = cases(args.quick)?;
    let mut build = cargo();
    build.args(["build", "--release", "--quiet", "-p", "ghosts"]);
    run_command(build)?;
    let ours = target_dir().join("release/ghosts");
    let old = build_old();
    match &old {
        Ok(_) => println!(
            "ghosts-many: {} datasets, ours against the solver at {OLD_COMMIT}, one process \
             each, {limit} s CPU limit, {} GiB address space",
            cases.len(),
            ADDRESS_SPACE_KIB >> 20
        ),
        Err(why) => println!(
            "ghosts-many: {} datasets, ours alone ({why}), one process each, {limit} s CPU limit",
            cases.len()
        ),
    }
    let work = target_dir().join("bench/ghosts-many");
    fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let input = work.join(format!("{i:02}.in"));
        fs::write(&input, &case.text).map_err(|e| e.to_string())?;
        let old_outcome = old
            .as_ref()
            .ok()
            .map(|old| run_one(old, &input, &input.with_extension("old.out"), limit));
        let ours_outcome = run_one(&ours, &input, &input.with_extension("ours.out"), limit);
        rows.push(Row {
            case_index: i,
            old: old_outcome,
            ours: ours_outcome,
        });
    }
    report(&cases, &rows, limit, &work)
}

/// The table by layout and ghosts, the totals, the per-dataset file and the check of the
/// answers.
fn report(cases: &[Case], rows: &[Row], limit: u64, work: &Path) -> Result<(), String> {
    let mut tsv = String::from(
        "dataset\tstyle\tghosts\tsize\told_cpu_s\tours_cpu_s\told_wall_s\tours_wall_s\told_answer\tours_answer\tcommand\n",
    );
    let mut mismatches = Vec::new();
    for row in rows {
        let case = &cases[row.case_index];
        let old = row.old.as_ref();
        tsv.push_str(&format!(
            "{}\t{}\t{}\t{}x{}\t{}\t{:.4}\t{}\t{}\t{}\t{}\t{}\n",
            row.case_index,
            case.style(),
            case.spec.ghosts,
            case.spec.width,
            case.spec.height,
            old.map_or("-".to_owned(), |o| format!("{:.4}", o.seconds(limit))),
            row.ours.seconds(limit),
            old.map_or("-".to_owned(), Outcome::wall),
            row.ours.wall(),
            old.map_or("-".to_owned(), Outcome::shown),
            row.ours.shown(),
            case.command()
        ));
        if let (Some(a), Some(b)) = (old.and_then(Outcome::answer), row.ours.answer()) {
            if a != b {
                mismatches.push(row.case_index);
            }
        }
    }
    let table = work.join("ghosts-many.tsv");
    fs::write(&table, tsv).map_err(|e| e.to_string())?;
    let failed: Vec<String> = rows
        .iter()
        .flat_map(|r| [r.old.as_ref(), Some(&r.ours)].into_iter().flatten())
        .filter_map(|o| match o {
            Outcome::Failed(message) => Some(message.trim().to_owned()),
            _ => None,
        })
        .collect();
    if let Some(first) = failed.first() {
        return Err(format!(
            "ghosts-many: {} runs failed for another reason than the limits (the first: \
             {first}); nothing to report",
            failed.len()
        ));
    }

    print_bands(cases, rows, limit);
    println!(
        "CPU seconds (user + system), one run each; a run without an answer (at the {limit} s CPU limit, over \
         its memory budget or past the {} GiB cap) counts as {limit} s; total x = old total / \
         ours total, median x = the median of old / ours per dataset; per dataset: {}",
        ADDRESS_SPACE_KIB >> 20,
        table.display()
    );
    if mismatches.is_empty() {
        println!("answers: ours equals the old solver's on every dataset it answered");
        Ok(())
    } else {
        Err(format!(
            "ghosts-many: OUR ANSWERS DIFFER from the solver at {OLD_COMMIT} on datasets \
             {mismatches:?} (see {})",
            table.display()
        ))
    }
}

/// The table by layout and number of ghosts: totals and ratios of each band.
fn print_bands(cases: &[Case], rows: &[Row], limit: u64) {
    println!(
        "{:<8} {:>7} {:>6} {:>11} {:>10} {:>10} {:>8} {:>9} {:>11} {:>11}",
        "style",
        "ghosts",
        "sets",
        "sizes",
        "old cpu s",
        "ours cpu s",
        "total x",
        "median x",
        "old unans.",
        "ours unans."
    );
    let bands: [(&str, &[&str], (usize, usize)); 13] = [
        ("pillars", &["pillars"], (4, 6)),
        ("pillars", &["pillars"], (7, 9)),
        ("pillars", &["pillars"], (10, 13)),
        ("maze", &["maze"], (4, 6)),
        ("maze", &["maze"], (7, 9)),
        ("maze", &["maze"], (10, 13)),
        ("pockets", &["pockets"], (4, 6)),
        ("pockets", &["pockets"], (7, 9)),
        ("pockets", &["pockets"], (10, 13)),
        ("blocked", &["blocked"], (4, 13)),
        ("all", &["pillars", "maze", "pockets", "blocked"], (4, 6)),
        ("all", &["pillars", "maze", "pockets", "blocked"], (7, 13)),
        ("all", &["pillars", "maze", "pockets", "blocked"], (4, 13)),
    ];
    for (name, styles, (low, high)) in bands {
        let chosen: Vec<&Row> = rows
            .iter()
            .filter(|r| {
                let case = &cases[r.case_index];
                styles.contains(&case.style()) && (low..=high).contains(&case.spec.ghosts)
            })
            .collect();
        if chosen.is_empty() {
            continue;
        }
        let sides: Vec<usize> = chosen
            .iter()
            .map(|r| cases[r.case_index].spec.width)
            .collect();
        let (small, large) = (
            sides.iter().min().copied().unwrap_or(0),
            sides.iter().max().copied().unwrap_or(0),
        );
        let ours: f64 = chosen.iter().map(|r| r.ours.seconds(limit)).sum();
        let unanswered = |o: &Outcome| o.answer().is_none();
        let ours_open = chosen.iter().filter(|r| unanswered(&r.ours)).count();
        let (old, total, med, old_open) = if chosen.iter().all(|r| r.old.is_some()) {
            let old_of = |r: &Row| r.old.as_ref().map_or(0.0, |o| o.seconds(limit));
            let old: f64 = chosen.iter().map(|r| old_of(r)).sum();
            let ratios = chosen
                .iter()
                .map(|r| old_of(r) / r.ours.seconds(limit))
                .collect();
            let open = chosen
                .iter()
                .filter(|r| r.old.as_ref().is_some_and(unanswered))
                .count();
            (
                format!("{old:.2}"),
                format!("{:.1}", old / ours),
                format!("{:.1}", median(ratios)),
                open.to_string(),
            )
        } else {
            ("-".into(), "-".into(), "-".into(), "-".into())
        };
        println!(
            "{name:<8} {:>7} {:>6} {:>11} {old:>10} {ours:>10.2} {total:>8} {med:>9} {old_open:>11} {ours_open:>11}",
            format!("{low}-{high}"),
            chosen.len(),
            format!("{small}-{large} sq"),
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn runs_killed_at_the_limits_are_told_from_other_failures() {
        let at = |status: i32| format!("ghosts failed on 05.in (status {status})\n");
        assert!(killed_by_signal(&at(libc::SIGXCPU)));
        assert!(killed_by_signal(&at(libc::SIGKILL)));
        assert!(killed_by_signal(&at(libc::SIGABRT | 0x80)));
        // Exit status 1 (wait status 256) and a helper that did not start are failures.
        assert!(!killed_by_signal(&at(256)));
        assert!(!killed_by_signal(
            "cannot run the measuring helper: No such file"
        ));
    }

    #[test]
    fn the_workload_has_96_datasets_of_4_to_13_ghosts_up_to_32_by_32() {
        let cases = cases(false).unwrap();
        assert_eq!(cases.len(), 96);
        let ghosts: Vec<usize> = cases.iter().map(|c| c.spec.ghosts).collect();
        assert_eq!(ghosts.iter().min(), Some(&4));
        assert_eq!(ghosts.iter().max(), Some(&13));
        assert!(cases.iter().all(|c| (16..=32).contains(&c.spec.width)));
        for style in ["pillars", "maze", "pockets", "blocked"] {
            assert!(cases.iter().any(|c| c.style() == style), "{style}");
        }
    }

    /// The command a row names prints that row's dataset.
    #[test]
    fn each_dataset_is_what_its_command_prints() {
        use clap::Parser as _;
        for case in cases(true).unwrap() {
            let command = case.command();
            let words = command.split_whitespace().skip(1);
            let Ok(crate::Cli {
                task:
                    Some(crate::Task::Gen {
                        problem: crate::gen_cases::Problem::Ghosts(args),
                    }),
            }) = crate::Cli::try_parse_from(words)
            else {
                panic!("`{command}` does not parse");
            };
            assert_eq!(
                crate::gen_cases::ghosts_cases(&args),
                Ok(case.text),
                "{command}"
            );
        }
    }
}

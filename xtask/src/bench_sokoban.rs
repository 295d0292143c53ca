//! `cargo xtask bench sokoban`: the many-box solver on the published level collections of
//! `../shared/sokoban-levels/`, one process per level with a time limit, counting the
//! levels proven within it per metric, and checking every answer against the known optima
//! of `testdata/sokoban/microban_optimal.tsv` (Microban).
//!
//! Skipped with a message when the collections are absent: they are bench inputs only.
//! `SOKOBAN_LEVELS=DIR` reads them from another folder.

use std::collections::HashMap;
use std::fs;

use crate::bench::measure;
use crate::process::{cargo, root, run as run_command, target_dir};

/// The collections, by the name `--set` takes, their file and the default limit (seconds).
const SETS: [(&str, &str, f64); 3] = [
    ("microban", "Microban_155.xsb", 10.0),
    ("microban2", "Microban_II_135.xsb", 30.0),
    ("xsokoban", "XSokoban_90.xsb", 30.0),
];

const USAGE: &str = "usage: cargo xtask bench sokoban [--set microban|microban2|xsokoban]... \
[--metric pushes|moves] [--limit SECONDS] [--levels A-B]";

/// Per Microban level: (pushes, moves) of the push optimum and of the move optimum, where
/// the table proves them.
type Known = HashMap<usize, [Option<(u32, u32)>; 2]>;

fn known() -> Result<Known, String> {
    let path = root().join("testdata/sokoban/microban_optimal.tsv");
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

/// `cargo xtask bench sokoban ...`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut sets: Vec<&str> = Vec::new();
    let mut metrics: Vec<&str> = Vec::new();
    let mut limit: Option<f64> = None;
    let mut range: Option<(usize, usize)> = None;
    let mut it = args.iter().filter(|a| *a != "sokoban");
    while let Some(flag) = it.next() {
        let mut value = || it.next().map(String::as_str).ok_or(USAGE.to_owned());
        match flag.as_str() {
            "--set" => sets.push(value()?),
            "--metric" => metrics.push(value()?),
            "--limit" => limit = Some(value()?.parse().map_err(|_| USAGE.to_owned())?),
            "--levels" => {
                let v = value()?;
                let (a, b) = v.split_once('-').unwrap_or((v, v));
                range = Some((
                    a.parse().map_err(|_| USAGE.to_owned())?,
                    b.parse().map_err(|_| USAGE.to_owned())?,
                ));
            }
            _ => return Err(USAGE.to_owned()),
        }
    }
    if sets.is_empty() {
        sets.push("microban");
    }
    if metrics.is_empty() {
        metrics = vec!["pushes", "moves"];
    }
    if metrics.iter().any(|m| !matches!(*m, "pushes" | "moves")) {
        return Err(USAGE.to_owned());
    }
    // SOKOBAN_LEVELS names another folder (a worktree has no ../shared beside it).
    let levels_dir = std::env::var_os("SOKOBAN_LEVELS")
        .map_or_else(|| root().join("../shared/sokoban-levels"), Into::into);
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
    let binary = target_dir().join("release/sokoban");
    let work = target_dir().join("bench");
    fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let known = known()?;
    println!(
        "{:<28} {:>7} {:>8} {:>9} {:>9} {:>8}  checked / unknown levels",
        "set, metric, limit", "proven", "of", "total s", "max s", "max MiB"
    );
    for name in sets {
        let Some(&(_, file, default_limit)) = SETS.iter().find(|s| s.0 == name) else {
            return Err(USAGE.to_owned());
        };
        let input = levels_dir.join(file);
        let text = fs::read_to_string(&input).map_err(|e| format!("{}: {e}", input.display()))?;
        let count = count_levels(&text);
        let limit = limit.unwrap_or(default_limit);
        let (first, last) = range.unwrap_or((1, count));
        for &metric in &metrics {
            let report = work.join(format!("sokoban-{name}-{metric}.tsv"));
            let mut rows = String::from("level\tseconds\tpeak_mib\tanswer\n");
            let (mut proven, mut total, mut max_s, mut max_mib) = (0, 0.0f64, 0.0f64, 0.0f64);
            let (mut checked, mut wrong, mut open) = (0, Vec::new(), Vec::new());
            for level in first..=last.min(count) {
                let out = work.join("sokoban-level.out");
                let args = [
                    "--metric".to_owned(),
                    metric.to_owned(),
                    "--level".to_owned(),
                    level.to_string(),
                    "--time-limit".to_owned(),
                    limit.to_string(),
                    "--memory-mib".to_owned(),
                    "4096".to_owned(),
                ];
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let m = measure(&binary, &args, &input, &out)?;
                let answer = fs::read_to_string(&out).map_err(|e| e.to_string())?;
                let line = answer.lines().nth(1).unwrap_or("").to_owned();
                total += m.seconds;
                max_s = max_s.max(m.seconds);
                max_mib = max_mib.max(m.peak_kib as f64 / 1024.0);
                let mut fields = line.split_whitespace();
                let counts = fields
                    .next()
                    .and_then(|p| p.parse::<u32>().ok())
                    .zip(fields.next().and_then(|m| m.parse::<u32>().ok()));
                if line.starts_with("unknown") {
                    open.push(level);
                } else {
                    proven += 1;
                }
                if name == "microban" {
                    let want = known
                        .get(&level)
                        .and_then(|k| k[usize::from(metric == "moves")]);
                    if let Some(want) = want {
                        if counts == Some(want) {
                            checked += 1;
                        } else if counts.is_some() || line == "-1" {
                            wrong.push(level);
                        }
                    }
                }
                let shown: String = line.chars().take(40).collect();
                rows.push_str(&format!(
                    "{level}\t{:.3}\t{:.1}\t{shown}\n",
                    m.seconds,
                    m.peak_kib as f64 / 1024.0
                ));
            }
            fs::write(&report, rows).map_err(|e| e.to_string())?;
            let of = last.min(count) + 1 - first;
            let check = if name == "microban" {
                format!("{checked} equal the table, wrong: {wrong:?}, ")
            } else {
                String::new()
            };
            println!(
                "{:<28} {proven:>7} {of:>8} {total:>9.1} {max_s:>9.2} {max_mib:>8.1}  {check}unknown: {open:?}",
                format!("{name}, {metric}, {limit} s"),
            );
            if !wrong.is_empty() {
                return Err(format!(
                    "{name} {metric}: answers differ from the table: {wrong:?}"
                ));
            }
        }
    }
    println!(
        "one process per level, 1 core, --memory-mib 4096; per-level times in target/bench/sokoban-*.tsv"
    );
    Ok(())
}

/// The number of levels of an XSB collection (maximal runs of level rows).
fn count_levels(text: &str) -> usize {
    let is_row = |l: &str| {
        let l = l.trim_end_matches('\r');
        l.contains('#') && l.bytes().all(|b| b"#@+$*. -_".contains(&b))
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_counted_as_runs_of_rows() {
        assert_eq!(count_levels("; 1\n###\n#@#\n\n; 2\n###\nTitle\n#\n"), 3);
    }
}

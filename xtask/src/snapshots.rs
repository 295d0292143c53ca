//! `verify` and `bless`: the data-driven cases of `testdata/` against their insta snapshots.
//!
//! The cases run through each solver crate's `tests/cases.rs` (the real binary on every
//! case of `testdata/<crate>/` and `testdata/bad/<crate>/` (`NAME.in`, `NAME.args` or
//! both; the fixtures they name are in `testdata/fixtures/<crate>/`), its known answer asserted, its
//! output snapshotted), so
//! `cargo test` and `cargo xtask verify` check the same thing. What insta cannot see is
//! checked here: a snapshot whose case is gone (or is named after the `.args` of a case
//! that has a `.in`), a `.out` file without its case,
//! and snapshots written but never reviewed (`.snap.new`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::process::{cargo, root, run};

/// The case folders of a crate: the insta snapshot prefix of the test in `cases.rs` that
/// globs it (`cases__<test>@`), and the folder under `testdata/` (`{}` is the crate).
const CASE_SETS: [(&str, &str); 2] = [("cases__cases@", "{}"), ("cases__bad_input@", "bad/{}")];

/// The crates with data-driven cases: those that have `tests/cases.rs`.
fn case_crates() -> Result<Vec<String>, String> {
    let crates = root().join("crates");
    let mut names = Vec::new();
    for entry in fs::read_dir(&crates).map_err(|e| format!("{}: {e}", crates.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.join("tests/cases.rs").exists() {
            if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                names.push(name.to_owned());
            }
        }
    }
    names.sort();
    Ok(names)
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Everything that has lost its case, and every snapshot awaiting review.
struct Leftovers {
    orphans: Vec<PathBuf>,
    pending: Vec<PathBuf>,
}

fn leftovers() -> Result<Leftovers, String> {
    let mut found = Leftovers {
        orphans: Vec::new(),
        pending: Vec::new(),
    };
    for name in case_crates()? {
        let folders: Vec<(&str, PathBuf)> = CASE_SETS
            .iter()
            .map(|(prefix, folder)| {
                (
                    *prefix,
                    root().join("testdata").join(folder.replace("{}", &name)),
                )
            })
            .collect();
        for (_, data) in &folders {
            for file in files_in(data) {
                let extension = file.extension().and_then(|e| e.to_str()).unwrap_or("");
                // A case is `NAME.in`, `NAME.args` or both; a known answer needs one.
                let has_case = ["in", "args"]
                    .iter()
                    .any(|case| file.with_extension(case).exists());
                if extension == "out" && !has_case {
                    found.orphans.push(file);
                }
            }
        }
        for file in files_in(&root().join("crates").join(&name).join("tests/snapshots")) {
            let file_name = file
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_owned();
            if file_name.ends_with(".snap.new") || file_name.ends_with(".pending-snap") {
                found.pending.push(file);
                continue;
            }
            let case = folders.iter().find_map(|(prefix, data)| {
                let case = file_name.strip_prefix(prefix)?.strip_suffix(".snap")?;
                Some(data.join(case))
            });
            let gone = |case: &PathBuf| {
                let flags_of_an_input = case.extension().is_some_and(|e| e == "args")
                    && case.with_extension("in").exists();
                !case.exists() || flags_of_an_input
            };
            if case.is_some_and(|case| gone(&case)) {
                found.orphans.push(file);
            }
        }
    }
    Ok(found)
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| format!("  {}", p.strip_prefix(root()).unwrap_or(p).display()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs every solver crate's `cases` test, insta set to compare only.
fn run_cases(update: &str, force_pass: bool) -> Result<(), String> {
    let mut command = cargo();
    command.args(["test", "--workspace", "--test", "cases"]);
    command.env("INSTA_UPDATE", update);
    command.env("INSTA_FORCE_PASS", if force_pass { "1" } else { "0" });
    command.env_remove("INSTA_GLOB_FILTER");
    run(command)
}

/// `cargo xtask verify`.
pub fn verify() -> Result<(), String> {
    let found = leftovers()?;
    if !found.pending.is_empty() {
        return Err(format!(
            "snapshots written but not reviewed (run `cargo insta review`, or delete them):\n{}",
            list(&found.pending)
        ));
    }
    if !found.orphans.is_empty() {
        return Err(format!(
            "files whose case in testdata/ is gone (`cargo xtask bless` removes them):\n{}",
            list(&found.orphans)
        ));
    }
    run_cases("no", false).map_err(|e| {
        format!("{e}\na case's output differs from its snapshot or known answer (see above); if the change is intended, run `cargo xtask bless` and review")
    })?;
    println!("verify: every case matches its snapshot and known answer");
    Ok(())
}

/// `cargo xtask bless [--accept]`.
pub fn bless(accept: bool) -> Result<(), String> {
    let found = leftovers()?;
    for orphan in &found.orphans {
        fs::remove_file(orphan).map_err(|e| format!("{}: {e}", orphan.display()))?;
        println!(
            "removed {}",
            orphan.strip_prefix(root()).unwrap_or(orphan).display()
        );
    }
    // Known-answer failures still fail the run; snapshots are written regardless.
    let outcome = run_cases(if accept { "always" } else { "new" }, true);
    let pending = leftovers()?.pending;
    if accept {
        println!("snapshots written; review them with `git diff`");
    } else if pending.is_empty() {
        println!("no snapshot changed");
    } else {
        println!(
            "new snapshots to review with `cargo insta review` (or `cargo xtask bless --accept`, then `git diff`):\n{}",
            list(&pending)
        );
    }
    outcome
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Fuzzing on stable Rust: random maps and seeded mutations of the testdata corpus go
//! through [`ghosts::run`] in-process with small budgets. Every run must end with answers
//! or a located input error, never a panic, and every answer's plan must replay with
//! `ghosts::internals::check_plan` in exactly the steps it claims.

use std::path::Path;

use ghosts::RunOptions;
use ghosts::internals::{check_plan, read_dataset};
use grid_core::rng::SplitMix64;
use grid_core::{CaseReader, RunError};
use test_support::harness::{
    ClosedPipe, assert_quiet_exit, assert_quiet_on_closed_pipe, run_into_closed_pipe,
    run_with_full_stderr,
};
use test_support::mutate::{answered_rounds, mutate};

/// The bytes of the format's cells, for plausible insertions.
const ALPHABET: &[u8] = b"#  aAbBcC";

/// Small budgets, so that no case gets large or slow.
const MAX_CELLS: u64 = 400;

/// The corpus files of `testdata/ghosts/` and `testdata/bad/ghosts/` small enough to mutate.
fn corpus() -> Vec<Vec<u8>> {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let files = test_support::mutate::corpus(&testdata, "ghosts").unwrap();
    assert!(files.len() >= 20, "corpus too small: {}", files.len());
    files
}

/// A random dataset or two: a small map of walls, spaces and up to 3 ghosts, sometimes
/// with a stray byte.
fn random_input(rng: &mut SplitMix64) -> Vec<u8> {
    let mut text = String::new();
    for _ in 0..rng.between(1, 2) {
        let (w, h, n) = (rng.between(1, 8), rng.between(1, 8), rng.between(0, 3));
        let mut cells: Vec<u8> = (0..w * h)
            .map(|_| if rng.percent(30) { b'#' } else { b' ' })
            .collect();
        for i in 0..n as u8 {
            for letter in [b'a' + i, b'A' + i] {
                cells[rng.below(w * h)] = letter;
            }
        }
        text.push_str(&format!("{w} {h} {n}\n"));
        for row in cells.chunks(w) {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
    }
    if rng.percent(50) {
        text.push_str("0 0 0\n");
    }
    let mut bytes = text.into_bytes();
    if rng.percent(20) && !bytes.is_empty() {
        let at = rng.below(bytes.len());
        bytes[at] = b"x\xff\t."[rng.below(4)];
    }
    bytes
}

/// Where this thread's fuzz runs save their picture (`--svg`).
fn scratch_svg() -> std::path::PathBuf {
    test_support::svg_reading::scratch_file(Path::new(env!("CARGO_TARGET_TMPDIR")))
}

/// Runs `input` and checks the outcome; returns whether it was answered in full.
fn check(input: &[u8], rng: &mut SplitMix64) -> bool {
    let options = RunOptions {
        objective: ghosts::Objective::Makespan,
        plan: !rng.percent(20),
        show: rng.percent(20),
        svg: rng.percent(10).then(scratch_svg),
        max_cells: MAX_CELLS,
        memory_mib: if rng.percent(10) { 0 } else { 16 },
        result_file: None,
        tracker_file: None,
        time_limit: None,
        threads: std::num::NonZeroUsize::MIN,
        trace: None,
        progress: None,
    };
    let mut out = Vec::new();
    let outcome = ghosts::run(input, &mut out, &options);
    test_support::svg_reading::check_saved(options.svg.as_deref());
    match outcome {
        Ok(()) => {
            if options.plan && !options.show {
                check_answers(input, &String::from_utf8(out).unwrap());
            }
            true
        }
        Err(RunError::Input(e)) => {
            let shown = e.to_string();
            assert!(
                e.line >= 1 && e.column >= 1 && shown.starts_with("line "),
                "{shown}\ninput: {:?}",
                String::from_utf8_lossy(input)
            );
            false
        }
        Err(e) => panic!("{e}"),
    }
}

/// Every answer with a plan replays: the plan is legal and takes exactly the steps given.
fn check_answers(input: &[u8], out: &str) {
    let mut reader = CaseReader::new(input);
    let mut lines = out.lines();
    while let Some(dataset) = read_dataset(&mut reader, MAX_CELLS).unwrap() {
        let steps: i64 = lines.next().unwrap().parse().unwrap();
        if steps < 0 {
            continue;
        }
        let plan: Vec<Vec<_>> = (0..steps)
            .map(|_| {
                lines
                    .next()
                    .unwrap()
                    .split(' ')
                    .filter(|cell| !cell.is_empty())
                    .map(|cell| {
                        let (row, col) = cell.split_once(',').unwrap();
                        let (row, col) = (row.parse().unwrap(), col.parse().unwrap());
                        dataset.grid().cell(row, col).unwrap()
                    })
                    .collect()
            })
            .collect();
        assert_eq!(
            check_plan(&dataset, &plan),
            Ok(steps as usize),
            "input: {:?}",
            String::from_utf8_lossy(input)
        );
    }
    assert_eq!(lines.next(), None);
}

#[test]
fn mutated_corpus_never_panics_and_every_plan_replays() {
    let corpus = corpus();
    let seeds = |rng: &mut SplitMix64| {
        let seed = &corpus[rng.below(corpus.len())];
        mutate(rng, seed, ALPHABET)
    };
    let answered = answered_rounds(0x6805_7505, 2000, seeds, check);
    // Most corpus files are bad input already, and most mutations break a good one; enough
    // must still be answered in full to reach the search and the plan checker.
    eprintln!("{answered} of 2000 answered in full");
    assert!(answered > 50, "only {answered} of 2000 answered");
}

#[test]
fn random_maps_never_panic_and_every_plan_replays() {
    let answered = answered_rounds(0x9057, 2000, random_input, check);
    eprintln!("{answered} of 2000 answered in full");
    assert!(answered > 200, "only {answered} of 2000 answered");
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let input = "4 3 1\n####\n#aA#\n####\n0 0 0\n";
    let outcome = ghosts::run(input.as_bytes(), &mut ClosedPipe, &RunOptions::default());
    assert_quiet_on_closed_pipe(outcome);
}

/// `ghosts < big | head -c 1`: the process sees its stdout close after one byte and must
/// exit 0 without a word on stderr (no panic message).
#[test]
fn piping_into_head_exits_quietly() {
    let input = "4 3 1\n####\n#aA#\n####\n".repeat(100_000);
    let output = run_into_closed_pipe(
        Path::new(env!("CARGO_BIN_EXE_ghosts")),
        &[],
        input.into_bytes(),
    )
    .unwrap();
    assert_quiet_exit(&output);
}

/// `ghosts < bad 2>/dev/full`: the error cannot be told, but the status still says it (1,
/// not the 101 of a panic), and the answers before the bad case are out.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_still_exits_1() {
    let output = run_with_full_stderr(
        Path::new(env!("CARGO_BIN_EXE_ghosts")),
        &[],
        "4 3 1\n####\n#aA#\n####\n4 3 1\n####\n#aX#\n####\n".as_bytes(),
    )
    .unwrap();
    assert_eq!(output.status.code(), Some(1), "{:?}", output.status);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "1\n");
}

/// `ghosts --verbose --map .. --scen .. 2>/dev/full`, and the same with standard error
/// closed (`2>&-`): the trace lines are lost, the answer is not (status 0, not the 101 of
/// a panic in `eprintln!`).
#[cfg(target_os = "linux")]
#[test]
fn verbose_survives_a_full_or_closed_standard_error() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures/ghosts");
    let (map, scen) = (
        fixtures.join("mapf-room.map"),
        fixtures.join("mapf-room.scen"),
    );
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let binary = env!("CARGO_BIN_EXE_ghosts");
    let flags = ["--verbose", "--map", map, "--scen", scen, "--agents", "6"];
    let full = run_with_full_stderr(Path::new(binary), &flags, b"").unwrap();
    assert_eq!(full.status.code(), Some(0), "{full:?}");
    // `exec 2>&-` closes the descriptor itself (a null device would accept the lines).
    let closed = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" 2>&-")
        .arg(binary)
        .args(flags)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(closed.status.code(), Some(0), "{closed:?}");
    assert_eq!(closed.stdout, full.stdout);
    assert!(!full.stdout.is_empty());
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Fuzzing on stable Rust: random boards and seeded mutations of the testdata corpus go
//! through [`sokoban_steps::run`] in-process with small budgets. Every run must end with an
//! answer or a located input error, never a panic, and every `--path` line must replay
//! with [`sokoban_steps::replay`] in exactly the steps the answer gives.

use std::path::Path;

use grid_core::rng::SplitMix64;
use sokoban_steps::internals::read_puzzle;
use sokoban_steps::{RunOptions, replay};
use test_support::fuzz::{answered, mutated_corpus_campaign, random_campaign, stray_byte};
use test_support::harness::{
    ClosedPipe, assert_quiet_exit, assert_quiet_on_closed_pipe, run_into_closed_pipe,
    run_with_full_stderr,
};

/// The bytes of the format's cells, for plausible insertions.
const ALPHABET: &[u8] = b"..#X*@";

/// Small budgets, so that no case gets large or slow.
const MAX_CELLS: u64 = 1024;

/// A random board of walls and floor with the three markers (sometimes one missing or
/// doubled), now and then followed by a second board, sometimes with a stray byte.
fn random_input(rng: &mut SplitMix64) -> Vec<u8> {
    let mut text = String::new();
    for _ in 0..[1, 1, 1, 1, 1, 1, 1, 1, 1, 2][rng.below(10)] {
        let (rows, cols) = (rng.between(1, 8), rng.between(1, 8));
        let mut cells: Vec<u8> = (0..rows * cols)
            .map(|_| if rng.percent(25) { b'#' } else { b'.' })
            .collect();
        for marker in *b"X*@" {
            for _ in 0..[1, 1, 1, 1, 1, 1, 1, 1, 0, 2][rng.below(10)] {
                cells[rng.below(rows * cols)] = marker;
            }
        }
        text.push_str(&format!("{rows} {cols}\n"));
        for row in cells.chunks(cols) {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
    }
    if rng.percent(20) {
        text.push_str("\n  \n");
    }
    let mut bytes = text.into_bytes();
    stray_byte(rng, &mut bytes, 10);
    bytes
}

/// Where this thread's fuzz runs save their picture (`--svg`).
fn scratch_svg() -> std::path::PathBuf {
    test_support::svg_reading::scratch_file(Path::new(env!("CARGO_TARGET_TMPDIR")))
}

/// Runs `input` and checks the outcome; returns whether it was answered without error.
fn check(input: &[u8], rng: &mut SplitMix64) -> bool {
    let options = RunOptions {
        path: !rng.percent(20),
        show: rng.percent(20),
        svg: rng.percent(10).then(scratch_svg),
        max_cells: MAX_CELLS,
        memory_mib: if rng.percent(10) { 0 } else { 4 },
    };
    let mut out = Vec::new();
    let outcome = sokoban_steps::run(input, &mut out, &options);
    test_support::svg_reading::check_saved(options.svg.as_deref());
    let answered = answered(&outcome, input);
    if answered && options.path {
        check_answer(input, &String::from_utf8(out).unwrap());
    }
    answered
}

/// The path line replays in exactly the steps of the answer line.
fn check_answer(input: &[u8], out: &str) {
    let puzzle = read_puzzle(input, MAX_CELLS).unwrap();
    let mut lines = out.lines();
    let steps: i64 = lines.next().unwrap().parse().unwrap();
    if steps < 0 {
        return;
    }
    let path = lines.next().unwrap();
    assert_eq!(
        replay(&puzzle, path),
        Ok(steps as usize),
        "input: {:?}",
        String::from_utf8_lossy(input)
    );
}

#[test]
fn mutated_corpus_never_panics_and_every_answer_replays() {
    // Many corpus files are bad input already, and most mutations break a good one;
    // enough must still be answered to reach the search and the checker.
    mutated_corpus_campaign("sokoban-steps", 0x5354_4501, 2000, ALPHABET, 51, check);
}

#[test]
fn random_boards_never_panic_and_every_answer_replays() {
    random_campaign(0x5354_4502, 2000, 201, random_input, check);
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let input = "1 3\nX*@\n";
    let outcome = sokoban_steps::run(input.as_bytes(), &mut ClosedPipe, &RunOptions::default());
    assert_quiet_on_closed_pipe(outcome);
}

/// `sokoban-steps --show < big | head -c 1` (a 4000-push corridor drawn after every push, 16 MB): the process sees its stdout close after one byte and must
/// exit 0 without a word on stderr (no panic message).
#[test]
fn piping_into_head_exits_quietly() {
    let input = format!("1 4000\nX*{}@\n", ".".repeat(3997));
    let output = run_into_closed_pipe(
        Path::new(env!("CARGO_BIN_EXE_sokoban-steps")),
        &["--show"],
        input.into_bytes(),
    )
    .unwrap();
    assert_quiet_exit(&output);
}

/// `sokoban-steps < bad 2>/dev/full`: the error cannot be told, but the status still says it (1,
/// not the 101 of a panic), and the answers before the bad case are out.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_still_exits_1() {
    let output = run_with_full_stderr(
        Path::new(env!("CARGO_BIN_EXE_sokoban-steps")),
        &[],
        "1 3\nX*@\n1 3\n".as_bytes(),
    )
    .unwrap();
    assert_eq!(output.status.code(), Some(1), "{:?}", output.status);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "1\n");
}

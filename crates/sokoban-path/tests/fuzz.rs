#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Fuzzing on stable Rust: random mazes and seeded mutations of the testdata corpus go
//! through [`sokoban_path::run`] in-process with small budgets. Every run must end with
//! answers or a located input error, never a panic, and every move string must pass
//! [`sokoban_path::verify`] on its maze.

use std::path::Path;

use grid_core::CaseReader;
use grid_core::rng::SplitMix64;
use sokoban_path::internals::read_maze;
use sokoban_path::{RunOptions, verify};
use test_support::fuzz::{answered, mutated_corpus_campaign, random_campaign, stray_byte};
use test_support::harness::{
    ClosedPipe, assert_quiet_exit, assert_quiet_on_closed_pipe, run_into_closed_pipe,
    run_with_full_stderr,
};

/// The bytes of the format's cells, for plausible insertions.
const ALPHABET: &[u8] = b"..#SBT";

/// Small budgets, so that no case gets large or slow.
const MAX_CELLS: u64 = 1024;

/// One to three random mazes: small boards of walls and floor with the three markers
/// (sometimes one missing or doubled), sometimes with a stray byte.
fn random_input(rng: &mut SplitMix64) -> Vec<u8> {
    let mut text = String::new();
    for _ in 0..rng.between(1, 3) {
        let (rows, cols) = (rng.between(1, 8), rng.between(1, 8));
        let mut cells: Vec<u8> = (0..rows * cols)
            .map(|_| if rng.percent(25) { b'#' } else { b'.' })
            .collect();
        for marker in *b"SBT" {
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
    if rng.percent(50) {
        text.push_str("0 0\n");
    }
    let mut bytes = text.into_bytes();
    stray_byte(rng, &mut bytes, 10);
    bytes
}

/// Where this thread's fuzz runs save their picture (`--svg`).
fn scratch_svg() -> std::path::PathBuf {
    test_support::svg_reading::scratch_file(Path::new(env!("CARGO_TARGET_TMPDIR")))
}

/// Runs `input` and checks the outcome; returns whether it was answered in full.
fn check(input: &[u8], rng: &mut SplitMix64) -> bool {
    let options = RunOptions {
        max_cells: MAX_CELLS,
        memory_mib: if rng.percent(10) { 0 } else { 4 },
        show: rng.percent(20),
        svg: rng.percent(10).then(scratch_svg),
    };
    let mut out = Vec::new();
    let outcome = sokoban_path::run(input, &mut out, &options);
    test_support::svg_reading::check_saved(options.svg.as_deref());
    let answered = answered(&outcome, input);
    if answered && !options.show {
        check_answers(input, &String::from_utf8(out).unwrap());
    }
    answered
}

/// Every maze has its `Maze #k` block, and every move string solves its maze.
fn check_answers(input: &[u8], out: &str) {
    let mut reader = CaseReader::new(input);
    let mut lines = out.lines();
    let mut number = 0;
    while let Some(maze) = read_maze(&mut reader, MAX_CELLS).unwrap() {
        number += 1;
        assert_eq!(lines.next(), Some(format!("Maze #{number}").as_str()));
        let answer = lines.next().unwrap();
        if answer != "Impossible." {
            let counts = verify(&maze, answer);
            assert!(
                counts.is_ok(),
                "{counts:?}\ninput: {:?}",
                String::from_utf8_lossy(input)
            );
        }
        assert_eq!(lines.next(), Some(""));
    }
    assert_eq!(lines.next(), None);
}

#[test]
fn mutated_corpus_never_panics_and_every_answer_replays() {
    // Many corpus files are bad input already, and most mutations break a good one;
    // enough must still be answered to reach the search and the checker.
    mutated_corpus_campaign("sokoban-path", 0x5043_4b01, 2000, ALPHABET, 51, check);
}

#[test]
fn random_mazes_never_panic_and_every_answer_replays() {
    random_campaign(0x5043_4b02, 2000, 201, random_input, check);
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let input = "1 3\nSBT\n0 0\n";
    let outcome = sokoban_path::run(input.as_bytes(), &mut ClosedPipe, &RunOptions::default());
    assert_quiet_on_closed_pipe(outcome);
}

/// `sokoban-path < big | head -c 1`: the process sees its stdout close after one byte and must
/// exit 0 without a word on stderr (no panic message).
#[test]
fn piping_into_head_exits_quietly() {
    let input = "1 3\nSBT\n".repeat(100_000);
    let output = run_into_closed_pipe(
        Path::new(env!("CARGO_BIN_EXE_sokoban-path")),
        &[],
        input.into_bytes(),
    )
    .unwrap();
    assert_quiet_exit(&output);
}

/// `sokoban-path < bad 2>/dev/full`: the error cannot be told, but the status still says it (1,
/// not the 101 of a panic), and the answers before the bad case are out.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_still_exits_1() {
    let output = run_with_full_stderr(
        Path::new(env!("CARGO_BIN_EXE_sokoban-path")),
        &[],
        "1 3\nSBT\n1 3\nSBX\n".as_bytes(),
    )
    .unwrap();
    assert_eq!(output.status.code(), Some(1), "{:?}", output.status);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "Maze #1\nE\n\n");
}

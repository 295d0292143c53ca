#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `--memory-mib` is a promise on the largest levels too: the whole process's peak
//! resident memory stays within the budget plus [`SLACK_MIB`]. Each check runs the real
//! binary on a hostile level, built here in memory, and measures it as a whole process.
//!
//! No libtest harness: a measuring test binary starts itself again as the small process
//! that spawns and measures the binary (`test_support::peak_memory`); `main` runs the
//! checks, and a failed one panics, which fails the test.

use std::path::Path;

use test_support::peak_memory::{MeasuredRun, run_reported, serve_measurement};

const BINARY: &str = env!("CARGO_BIN_EXE_sokoban");

/// What the process holds besides its budget: the program's start-up, the level's text
/// and the measuring process's few MiB that the peak may include.
const SLACK_MIB: u64 = 8;

/// An open `side` x `side` room, the player in a corner, a box on every third square of
/// every third row up to `boxes` of them, and as many goals after them.
fn open_room(side: usize, boxes: usize) -> Vec<u8> {
    let mut rows = vec![vec![b' '; side]; side];
    let spots = (1..side - 1)
        .step_by(3)
        .flat_map(|r| (1..side - 1).step_by(3).map(move |c| (r, c)));
    for (i, (r, c)) in spots.take(2 * boxes).enumerate() {
        rows[r][c] = if i < boxes { b'$' } else { b'.' };
    }
    rows[0][0] = b'@';
    let mut text = format!("; open room, {boxes} boxes\n").into_bytes();
    let wall = vec![b'#'; side + 2];
    text.extend_from_slice(&wall);
    text.push(b'\n');
    for row in rows {
        text.push(b'#');
        text.extend_from_slice(&row);
        text.extend_from_slice(b"#\n");
    }
    text.extend_from_slice(&wall);
    text.push(b'\n');
    text
}

fn run(input: &[u8], args: &[&str]) -> MeasuredRun {
    run_reported(Path::new(BINARY), args, input).unwrap()
}

/// 2 000 goals on a floor of 40 000 squares: the push distances take 320 MB, built by
/// the searches before they were counted (measured 692 MB under 300 MiB, and 1.35 GB under
/// the default 1 024 MiB for 3 000 boxes); now counted first, and the answer is
/// `unknown: memory` at once.
fn tables_larger_than_the_budget() {
    let level = open_room(200, 2000);
    for budget in ["100", "300"] {
        let run = run(&level, &["--memory-mib", budget, "--time-limit", "20"]);
        assert_eq!(run.status, 0, "{run:?}");
        assert_eq!(run.stdout, "; open room, 2000 boxes\nunknown: memory\n");
        run.assert_peak_within(budget.parse::<u64>().unwrap() + SLACK_MIB);
    }
}

/// 100 boxes in a room of 14 400 squares, where the tables fit: the searches run until
/// the clock or the budget stops them, within the budget. The limit lets the finder's
/// macro moves run (after the exact search meets its memory): one state's macro moves,
/// every place of every box, took 184 MB beside a budget of 64 MiB before they were
/// counted (161 MiB peak, the check at 3 s passing or not by the machine's speed).
fn a_large_room_within_a_small_budget() {
    let level = open_room(120, 100);
    let run = run(&level, &["--memory-mib", "128", "--time-limit", "6"]);
    assert_eq!(run.status, 0, "{run:?}");
    let answer = run.stdout.lines().nth(1).unwrap();
    assert!(
        answer.starts_with("unknown: ") || answer.starts_with("unproven: "),
        "{run:?}"
    );
    run.assert_peak_within(128 + SLACK_MIB);
}

fn main() {
    serve_measurement();
    tables_larger_than_the_budget();
    a_large_room_within_a_small_budget();
    println!("memory: 2 checks passed");
}

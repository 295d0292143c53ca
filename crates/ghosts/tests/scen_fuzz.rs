#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Fuzzing the MovingAI `.scen` reader on stable Rust: seeded mutations of the testdata
//! scenarios and random scenarios go through [`read_scenario`] on their maps. Every read
//! must end with the agents a plain reading of the lines gives (distinct starts, distinct
//! goals, on free cells) or a located error inside the input, never a panic.
//!
//! `SCEN_FUZZ_ROUNDS=N` runs N rounds of each campaign instead of 3000 (a longer campaign
//! by hand; the test asserts the same things either way).

use std::cell::Cell;
use std::collections::HashSet;
use std::path::Path;

use ghosts::Grid;
use ghosts::internals::read_scenario;
use grid_core::limits::Limits;
use grid_core::movingai::read_map;
use grid_core::rng::SplitMix64;
use test_support::mutate::{answered_rounds, mutate};

/// Digits, tabs and the words of a scenario line, for plausible insertions.
const ALPHABET: &[u8] = b"0123456789\t\t\t\n.mapversion -";

fn rounds() -> usize {
    test_support::fuzz::rounds_from_env("SCEN_FUZZ_ROUNDS", 3000)
}

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures/ghosts")
}

fn map(text: &[u8]) -> Grid {
    read_map(text, Limits::cells_only(1 << 20), 0).unwrap().grid
}

/// The `.scen` files of the fixtures, each with the map its second line names when that
/// map is a fixture (the room otherwise: the broken scenarios are written for it).
fn corpus() -> Vec<(Vec<u8>, Grid)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "scen") {
            let scen = std::fs::read(&path).unwrap();
            let named = String::from_utf8_lossy(&scen)
                .lines()
                .nth(1)
                .and_then(|line| line.split('\t').nth(1).map(str::to_owned))
                .unwrap_or_default();
            let map_file = [named.as_str(), "mapf-room.map"]
                .into_iter()
                .map(|name| fixtures().join(name))
                .find(|p| p.is_file())
                .unwrap();
            files.push((scen, map(&std::fs::read(map_file).unwrap())));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(files.len() >= 5, "corpus too small: {}", files.len());
    files
}

/// The reference: the agents of `input` on `grid` when every line read is plainly well
/// formed (`version 1`, then lines of 9 tab-separated columns, the numeric ones plain
/// digits, the map's size, starts and goals distinct and free), read with `split` and
/// `parse`; `None` when any of that fails. Blank lines are skipped, and the lines after
/// the `agents` asked for are not looked at, as the reader does.
type Agent = ((usize, usize), (usize, usize));

fn reference(input: &[u8], grid: &Grid, agents: Option<usize>) -> Option<Vec<Agent>> {
    let mut lines = input
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let version = std::str::from_utf8(lines.next()?).ok()?;
    if version.split_ascii_whitespace().collect::<Vec<_>>() != ["version", "1"] {
        return None;
    }
    let mut found = Vec::new();
    let (mut starts, mut goals) = (HashSet::new(), HashSet::new());
    for line in lines {
        if agents.is_some_and(|k| found.len() == k) {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let columns: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        if columns.len() != 9 || line.len() > 4096 {
            return None;
        }
        let number = |i: usize| -> Option<usize> {
            let c = columns[i];
            let digits = !c.is_empty() && c.len() <= 19 && c.iter().all(u8::is_ascii_digit);
            digits.then(|| std::str::from_utf8(c).ok()?.parse().ok())?
        };
        number(0)?;
        if (number(2)?, number(3)?) != (grid.width(), grid.height()) {
            return None;
        }
        let start = (number(5)?, number(4)?);
        let goal = (number(7)?, number(6)?);
        for (at, seen) in [(start, &mut starts), (goal, &mut goals)] {
            let inside = at.0 < grid.height() && at.1 < grid.width();
            if !inside || grid.cell(at.0, at.1).is_none() || !seen.insert(at) {
                return None;
            }
        }
        found.push((start, goal));
    }
    if agents.is_some_and(|k| found.len() < k) {
        return None;
    }
    Some(found)
}

/// A random scenario on `grid`: agents on distinct random free cells, now and then a
/// repeated cell, a blocked or outside cell, a wrong size, a cut line, a blank line or a
/// stray byte.
fn random_scen(rng: &mut SplitMix64, grid: &Grid) -> Vec<u8> {
    let (w, h) = (grid.width(), grid.height());
    let free: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.cell(y, x).is_some())
        .collect();
    let mut shuffled = || {
        let mut cells = free.clone();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        cells
    };
    let (starts, goals) = (shuffled(), shuffled());
    let mut text = String::from(if rng.percent(3) {
        "version 2\n"
    } else {
        "version 1\n"
    });
    for i in 0..rng.between(0, 8).min(free.len()) {
        let ((mut sx, sy), (gx, mut gy)) = (starts[i], goals[i]);
        if rng.percent(3) {
            sx = rng.below(w + 1); // outside, blocked or repeated, now and then
        }
        if rng.percent(3) {
            gy = rng.below(h + 1);
        }
        let width = if rng.percent(3) { w + 1 } else { w };
        let mut line = format!("1\tm.map\t{width}\t{h}\t{sx}\t{sy}\t{gx}\t{gy}\t1.5");
        if rng.percent(3) {
            line.truncate(rng.below(line.len() + 1));
        }
        text.push_str(&line);
        text.push_str(if rng.percent(10) { "\r\n" } else { "\n" });
        if rng.percent(5) {
            text.push('\n');
        }
    }
    let mut bytes = text.into_bytes();
    test_support::fuzz::stray_byte(rng, &mut bytes, 10);
    bytes
}

/// Reads `input` on `grid` (all agents, or the first few); returns whether it read.
fn check(input: &[u8], grid: &Grid, rng: &mut SplitMix64) -> bool {
    let agents = rng.percent(30).then(|| rng.below(6));
    let expected = reference(input, grid, agents);
    match read_scenario(input, grid, agents) {
        Ok(scenario) => {
            let read: Vec<_> = scenario
                .starts
                .iter()
                .zip(&scenario.goals)
                .map(|(&s, &g)| (grid.position(s), grid.position(g)))
                .collect();
            assert_eq!(
                Some(read),
                expected,
                "input: {:?}",
                String::from_utf8_lossy(input)
            );
            true
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(
                expected.is_none(),
                "refused a scenario the reference reads: {shown}\ninput: {:?}",
                String::from_utf8_lossy(input)
            );
            assert!(
                e.line >= 1 && e.column >= 1 && shown.starts_with("line "),
                "{shown}"
            );
            // The place is inside the input: its line exists (or is the one after the
            // last, for a missing agent), its column at most one past the line's end,
            // counted in characters.
            let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            let line = lines.get(e.line - 1).copied().unwrap_or_default();
            let chars = grid_core::char_column(line, line.len());
            assert!(e.line <= lines.len() + 1, "{shown}");
            assert!(
                e.column <= chars,
                "{shown} (the line has {} characters)",
                chars - 1
            );
            // A non-ASCII character of a UTF-8 input is named, not shown as its bytes.
            test_support::fuzz::assert_names_characters(&shown, input);
            false
        }
    }
}

#[test]
fn mutated_scenarios_never_panic() {
    let corpus = corpus();
    let rounds = rounds();
    // The input of a round is drawn before its check: `seed` is this round's file.
    let seed = Cell::new(0);
    let read = answered_rounds(
        0x5343_4e01,
        rounds,
        |rng| {
            seed.set(rng.below(corpus.len()));
            mutate(rng, &corpus[seed.get()].0, ALPHABET)
        },
        |input, rng| check(input, &corpus[seed.get()].1, rng),
    );
    eprintln!("{read} of {rounds} mutated scenarios read");
    // Many mutations keep a scenario readable (a changed number, a duplicated line).
    assert!(read * 20 > rounds, "only {read} of {rounds} read");
}

#[test]
fn random_scenarios_never_panic() {
    let rounds = rounds();
    let grids = [
        map(&std::fs::read(fixtures().join("mapf-room.map")).unwrap()),
        map(b"type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"),
        map(b"type octile\nheight 1\nwidth 1\nmap\n.\n"),
    ];
    // The input of a round is drawn before its check: `which` is this round's map.
    let which = Cell::new(0);
    let read = answered_rounds(
        0x5343_4e02,
        rounds,
        |rng| {
            which.set(rng.below(grids.len()));
            random_scen(rng, &grids[which.get()])
        },
        |input, rng| check(input, &grids[which.get()], rng),
    );
    eprintln!("{read} of {rounds} random scenarios read");
    assert!(read * 4 > rounds, "only {read} of {rounds} read");
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Fuzzing the MovingAI `.map` reader on stable Rust: seeded mutations of the testdata
//! maps and random maps go through [`read_map`] with small budgets. Every read must end
//! with a map of the size its header gives or a located error, never a panic.
//!
//! `MOVINGAI_FUZZ_ROUNDS=N` runs N rounds of each campaign instead of 3000 (a longer
//! campaign by hand; the test asserts the same things either way).

use std::path::Path;

use grid_core::limits::Limits;
use grid_core::movingai::read_map;
use grid_core::rng::SplitMix64;
use test_support::mutate::{answered_rounds, mutate};

/// The map characters, and the bytes of the header words, for plausible insertions.
const ALPHABET: &[u8] = b"..@@GSOTW\nmaptypeheightwidth 0123456789";

fn rounds() -> usize {
    test_support::fuzz::rounds_from_env("MOVINGAI_FUZZ_ROUNDS", 3000)
}

/// The `.map` files of the testdata (the fixtures, the cases and the bad cases).
fn corpus() -> Vec<Vec<u8>> {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files = Vec::new();
    let dirs = [
        testdata.join("fixtures/ghosts"),
        testdata.join("ghosts"),
        testdata.join("bad/ghosts"),
    ];
    for dir in dirs {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "map") {
                files.push(std::fs::read(&path).unwrap());
            }
        }
    }
    files.sort();
    assert!(files.len() >= 3, "corpus too small: {}", files.len());
    files
}

/// A random map: a header (now and then with a field missing, repeated or out of order)
/// and rows of map characters, sometimes with a stray byte.
fn random_map(rng: &mut SplitMix64) -> Vec<u8> {
    let (h, w) = (rng.between(1, 9), rng.between(1, 9));
    let mut text = String::from("type octile\n");
    let mut fields = vec![format!("height {h}\n"), format!("width {w}\n")];
    if rng.percent(20) {
        fields.reverse();
    }
    if rng.percent(5) {
        fields.pop();
    }
    text.extend(fields);
    text.push_str("map\n");
    let rows = if rng.percent(10) { h - 1 } else { h };
    for _ in 0..rows {
        for _ in 0..w {
            text.push(['.', '.', '@', 'T', 'G', 'S', 'O', 'W'][rng.below(8)]);
        }
        text.push_str(if rng.percent(10) { "\r\n" } else { "\n" });
    }
    let mut bytes = text.into_bytes();
    test_support::fuzz::stray_byte(rng, &mut bytes, 10);
    bytes
}

/// Reads `input`; returns whether it was a map.
fn check(input: &[u8], rng: &mut SplitMix64) -> bool {
    let limits = Limits {
        max_cells: 4096,
        memory_mib: if rng.percent(10) { 0 } else { 16 },
    };
    match read_map(input, limits, 0) {
        Ok(map) => {
            let (h, w) = (map.grid.height(), map.grid.width());
            assert!(h >= 1 && w >= 1 && h * w <= 4096, "{h} x {w}");
            assert!(map.grid.cell_count() <= h * w);
            true
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(
                e.line >= 1 && e.column >= 1 && shown.starts_with("line "),
                "{shown}\ninput: {:?}",
                String::from_utf8_lossy(input)
            );
            // A non-ASCII character of a UTF-8 input is named, not shown as its bytes.
            test_support::fuzz::assert_names_characters(&shown, input);
            false
        }
    }
}

#[test]
fn mutated_maps_never_panic() {
    let corpus = corpus();
    let rounds = rounds();
    let seeds = |rng: &mut SplitMix64| {
        let seed = &corpus[rng.below(corpus.len())];
        mutate(rng, seed, ALPHABET)
    };
    let read = answered_rounds(0x4d41_5001, rounds, seeds, check);
    eprintln!("{read} of {rounds} mutated maps read");
    // Most mutations break a map (a row one character off is enough).
    assert!(read * 40 > rounds, "only {read} of {rounds} read");
}

#[test]
fn random_maps_never_panic() {
    let rounds = rounds();
    let read = answered_rounds(0x4d41_5002, rounds, random_map, check);
    eprintln!("{read} of {rounds} random maps read");
    assert!(read * 4 > rounds, "only {read} of {rounds} read");
}

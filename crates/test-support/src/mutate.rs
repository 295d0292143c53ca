//! Seeded mutations of text inputs, for the fuzz tests every solver crate runs on stable
//! Rust: byte changes, deletions, insertions, duplicated lines, truncations and changed
//! numbers, applied to the files of the testdata corpus.
//!
//! Why these operations: each one aims at a class of malformed input the programs must
//! report (unknown or non-UTF-8 bytes, short and long rows, cut-off cases, repeated
//! markers, absurd or zero sizes), while most of the input stays well formed, so that the
//! mutated case still reaches the deeper checks and often the search itself.
//!
//! # Complexity
//! O(length of the input) per mutation.

use std::io;
use std::path::Path;

use grid_core::rng::SplitMix64;

/// Numbers a changed header field may become: the edges of every limit.
const NUMBERS: [&str; 10] = [
    "0",
    "1",
    "2",
    "3",
    "26",
    "27",
    "4096",
    "4097",
    "1000000000",
    "99999999999999999999999",
];

/// Bytes worth inserting into any text format besides the format's own alphabet.
const NOISE: &[u8] = b" \t\r\n0123456789-+x\xff\xc3\xa9\x00";

/// Largest corpus file worth mutating: bigger ones only slow the fuzz tests down.
pub const MAX_SEED_LEN: usize = 8192;

/// The seeds of a program's mutation fuzz test: the `.in` files of
/// `testdata/<program>/`, `testdata/bad/<program>/` and (when it exists)
/// `testdata/fixtures/<program>/` (below `testdata`) of at most
/// [`MAX_SEED_LEN`] bytes, sorted so that a seed of the generator names the same inputs.
pub fn corpus(testdata: &Path, program: &str) -> io::Result<Vec<Vec<u8>>> {
    let mut files = Vec::new();
    let fixtures = testdata.join("fixtures").join(program);
    let mut dirs = vec![testdata.join(program), testdata.join("bad").join(program)];
    if fixtures.is_dir() {
        dirs.push(fixtures);
    }
    for dir in dirs {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "in") {
                let bytes = std::fs::read(&path)?;
                if bytes.len() <= MAX_SEED_LEN {
                    files.push(bytes);
                }
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `input` after 1 to 3 random mutations; `alphabet` holds the bytes of the format's cells
/// (so that insertions and changes often produce plausible rows).
pub fn mutate(rng: &mut SplitMix64, input: &[u8], alphabet: &[u8]) -> Vec<u8> {
    let mut text = input.to_vec();
    for _ in 0..rng.between(1, 3) {
        mutate_once(rng, &mut text, alphabet);
    }
    text
}

/// A byte of the format's alphabet or, one time in four, of [`NOISE`].
fn byte(rng: &mut SplitMix64, alphabet: &[u8]) -> u8 {
    if alphabet.is_empty() || rng.percent(25) {
        NOISE[rng.below(NOISE.len())]
    } else {
        alphabet[rng.below(alphabet.len())]
    }
}

fn mutate_once(rng: &mut SplitMix64, text: &mut Vec<u8>, alphabet: &[u8]) {
    let len = text.len();
    let at = rng.below(len + 1);
    match rng.below(7) {
        // Change one byte.
        0 if at < len => text[at] = byte(rng, alphabet),
        // Delete a short range (a byte, a line ending, part of a row).
        1 if at < len => {
            let end = (at + rng.between(1, 4)).min(len);
            text.drain(at..end);
        }
        // Insert a few bytes.
        2 => {
            let bytes: Vec<u8> = (0..rng.between(1, 3))
                .map(|_| byte(rng, alphabet))
                .collect();
            text.splice(at..at, bytes);
        }
        // Duplicate the line holding `at` (a repeated row or header).
        3 => {
            let start = text[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let end = text[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(len, |i| at + i + 1);
            let line = text[start..end].to_vec();
            text.splice(start..start, line);
        }
        // Cut the input off.
        4 => text.truncate(at),
        // Change a number (most often a header field).
        5 => {
            let digits: Vec<usize> = (0..len).filter(|&i| text[i].is_ascii_digit()).collect();
            if digits.is_empty() {
                return;
            }
            let start = digits[rng.below(digits.len())];
            let end = (start..len)
                .find(|&i| !text[i].is_ascii_digit())
                .unwrap_or(len);
            let number = if rng.percent(50) {
                NUMBERS[rng.below(NUMBERS.len())].to_owned()
            } else {
                rng.below(40).to_string()
            };
            text.splice(start..end, number.into_bytes());
        }
        // Swap the line endings of one line to `\r\n` or drop one.
        _ => {
            if let Some(i) = text[at..].iter().position(|&b| b == b'\n') {
                if rng.percent(50) {
                    text.insert(at + i, b'\r');
                } else {
                    text.remove(at + i);
                }
            }
        }
    }
}

/// Runs `rounds` fuzz rounds from `seed`: each draws an input with `input` and hands it to
/// `check` (which asserts what must hold and says whether the input was answered in full).
/// Returns how many were answered, so a test can insist that enough inputs reach the
/// search and the replay checkers rather than all failing at the parser.
pub fn answered_rounds(
    seed: u64,
    rounds: usize,
    mut input: impl FnMut(&mut SplitMix64) -> Vec<u8>,
    mut check: impl FnMut(&[u8], &mut SplitMix64) -> bool,
) -> usize {
    let mut rng = SplitMix64::new(seed);
    (0..rounds)
        .filter(|_| {
            let text = input(&mut rng);
            check(&text, &mut rng)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_follow_the_seed_and_change_the_input() {
        let input = b"2 3\nSB.\n..T\n0 0\n";
        let run = |seed| {
            let mut rng = SplitMix64::new(seed);
            (0..100)
                .map(|_| mutate(&mut rng, input, b".#SBT"))
                .collect::<Vec<_>>()
        };
        let first = run(1);
        assert_ne!(first, run(2), "another seed, other mutations");
        let changed = first.iter().filter(|m| m.as_slice() != input).count();
        assert!(changed > 80, "{changed}");
        assert!(mutate(&mut SplitMix64::new(2), b"", b"").len() <= 3);
    }
}

//! What the stable fuzz tests of every program share (`crates/*/tests/fuzz.rs`): the
//! corpus of a program, the two campaigns (mutated corpus files and random inputs) with
//! their floor of answered inputs, the check of a run's outcome, and the stray byte.
//!
//! Why here: each program's test keeps only what is its own (its random inputs, its
//! options, its replay of the answers); the rules every run must follow (answers or a
//! located input error, never a panic nor another error) are written once.
//!
//! # Complexity
//! O(rounds x the cost of one run).

use std::path::{Path, PathBuf};

use grid_core::RunError;
use grid_core::rng::SplitMix64;

use crate::mutate::{answered_rounds, corpus, mutate};

/// The workspace's `testdata/` folder.
pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The mutation seeds of `program` ([`crate::mutate::corpus`]).
///
/// # Panics
/// When the corpus cannot be read or holds fewer than `at_least` files (a test helper).
pub fn program_corpus(program: &str, at_least: usize) -> Vec<Vec<u8>> {
    let files = corpus(&testdata(), program)
        .unwrap_or_else(|e| panic!("the corpus of {program} cannot be read: {e}"));
    assert!(
        files.len() >= at_least,
        "corpus of {program} too small: {}",
        files.len()
    );
    files
}

/// Whether a run of the program's library `run` on `input` answered: `true` for `Ok`,
/// `false` for a located input error.
///
/// # Panics
/// On an input error without a line and column, and on any other error (output, picture).
pub fn answered(outcome: &Result<(), RunError>, input: &[u8]) -> bool {
    match outcome {
        Ok(()) => true,
        Err(RunError::Input(e)) => {
            let shown = e.to_string();
            assert!(
                e.line >= 1 && e.column >= 1 && shown.starts_with("line "),
                "{shown}\ninput: {:?}",
                String::from_utf8_lossy(input)
            );
            false
        }
        Err(e) => panic!("{e}\ninput: {:?}", String::from_utf8_lossy(input)),
    }
}

/// Rounds of a reader's fuzz campaign: the number in the environment variable `var` when
/// it is set (a longer campaign by hand), else `default`.
pub fn rounds_from_env(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The rule every reader keeps: a non-ASCII character of a UTF-8 input is named in the
/// message `shown` (`'３' (U+FF13)`), never shown as one of its bytes (`byte 0xef`), which
/// only a non-UTF-8 input may show.
///
/// # Panics
/// When `shown` names a byte of 0x80 or above and `input` is UTF-8 (the point of the check).
pub fn assert_names_characters(shown: &str, input: &[u8]) {
    let non_ascii_byte = ["8", "9", "a", "b", "c", "d", "e", "f"]
        .iter()
        .any(|high| shown.contains(&format!("byte 0x{high}")));
    assert!(
        !non_ascii_byte || std::str::from_utf8(input).is_err(),
        "{shown}"
    );
}

/// With probability `percent` / 100, one byte of `bytes` becomes a stray one (`x`, a
/// non-UTF-8 byte, a tab or a space).
pub fn stray_byte(rng: &mut SplitMix64, bytes: &mut [u8], percent: u32) {
    if rng.percent(percent) && !bytes.is_empty() {
        let at = rng.below(bytes.len());
        bytes[at] = b"x\xff\t "[rng.below(4)];
    }
}

/// The mutation campaign of `program`: `rounds` mutations of its corpus files (bytes of
/// `alphabet` favoured), each handed to `check` (which asserts and says whether it was
/// answered), and at least `at_least` of them answered, so the search and the checkers
/// are reached and not only the parser.
///
/// # Panics
/// When `check` does, or fewer than `at_least` inputs are answered (a test helper).
pub fn mutated_corpus_campaign(
    program: &str,
    seed: u64,
    rounds: usize,
    alphabet: &[u8],
    at_least: usize,
    check: impl FnMut(&[u8], &mut SplitMix64) -> bool,
) {
    let corpus = program_corpus(program, 20);
    let seeds = |rng: &mut SplitMix64| {
        let seed = &corpus[rng.below(corpus.len())];
        mutate(rng, seed, alphabet)
    };
    let answered = answered_rounds(seed, rounds, seeds, check);
    eprintln!("{answered} of {rounds} mutated inputs answered");
    assert!(answered >= at_least, "only {answered} of {rounds} answered");
}

/// The random campaign: `rounds` inputs drawn by `input`, each handed to `check`, at
/// least `at_least` of them answered.
///
/// # Panics
/// When `check` does, or fewer than `at_least` inputs are answered (a test helper).
pub fn random_campaign(
    seed: u64,
    rounds: usize,
    at_least: usize,
    input: impl FnMut(&mut SplitMix64) -> Vec<u8>,
    check: impl FnMut(&[u8], &mut SplitMix64) -> bool,
) {
    let answered = answered_rounds(seed, rounds, input, check);
    eprintln!("{answered} of {rounds} random inputs answered");
    assert!(answered >= at_least, "only {answered} of {rounds} answered");
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::{ErrorKind, ParseError};

    #[test]
    fn outcomes_are_judged() {
        assert!(answered(&Ok(()), b""));
        let located = ParseError::at(2, 3, ErrorKind::Io("x".to_owned()));
        assert!(!answered(&Err(RunError::Input(located)), b""));
        let mut bytes = *b"abc";
        stray_byte(&mut SplitMix64::new(1), &mut bytes, 100);
        assert_ne!(&bytes, b"abc");
    }

    #[test]
    #[should_panic(expected = "only 0 of 3 answered")]
    fn too_few_answers_fail() {
        random_campaign(1, 3, 1, |_| Vec::new(), |_, _| false);
    }
}

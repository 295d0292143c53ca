#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Fuzzing on stable Rust: seeded mutations of the testdata corpus and random small
//! levels go through [`sokoban::run`] in-process with small budgets. Every run must end
//! without a panic; every error line must be located; every answer must be the answer of
//! the level at its place (same title) and replay with [`sokoban::verify`] to its counts.
//! `SOKOBAN_FUZZ_ROUNDS=N` runs N rounds of each test instead of a few hundred (a longer
//! run: `SOKOBAN_FUZZ_ROUNDS=20000 cargo test --release -p sokoban --test fuzz --
//! --nocapture`).

use std::path::Path;
use std::time::Duration;

use grid_core::rng::SplitMix64;
use sokoban::{Collection, Metric, Options, RunOptions, generate, run, verify};
use test_support::mutate::{answered_rounds, mutate};

/// The bytes of XSB levels, for plausible insertions.
const ALPHABET: &[u8] = b"#@+$*. -_;\n";

fn options(metric: Metric) -> RunOptions {
    RunOptions {
        solve: Options {
            metric,
            memory_mib: 16,
            time_limit: Some(Duration::from_millis(20)),
            ..Options::default()
        },
        max_cells: 1024,
        ..RunOptions::default()
    }
}

/// Runs `input`, checks every line of both streams, and says whether it had no error.
fn check(input: &[u8], metric: Metric) -> bool {
    let options = options(metric);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let malformed = run(input, &mut out, &mut err, &options).unwrap();
    let err = String::from_utf8(err).unwrap();
    assert_eq!(err.lines().count(), malformed, "{err}");
    for line in err.lines() {
        assert!(line.starts_with("error: line "), "{line}");
    }
    // The well-formed levels, in order, are the ones answered.
    let levels: Vec<_> = Collection::new(input, options.max_cells)
        .filter_map(Result::ok)
        .collect();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2 * levels.len(), "{out}");
    for (level, pair) in levels.iter().zip(lines.chunks(2)) {
        assert_eq!(pair[0], level.title());
        let answer = pair[1];
        if answer == "-1" || answer.starts_with("unknown: ") {
            continue;
        }
        // `PUSHES MOVES LURD` (proven), or `unproven: PUSHES MOVES LURD >= LB` (a legal
        // solution with a proven lower bound on the metric's first key).
        let (proven, rest) = match answer.strip_prefix("unproven: ") {
            Some(rest) => (false, rest),
            None => (true, answer),
        };
        let mut fields = rest.split(' ');
        let pushes: u32 = fields.next().unwrap().parse().unwrap();
        let moves: u32 = fields.next().unwrap().parse().unwrap();
        let lurd = fields.next().unwrap_or("");
        let counts = verify(level, lurd).unwrap_or_else(|e| panic!("{answer}: {e}"));
        assert_eq!((counts.pushes, counts.moves), (pushes, moves));
        if !proven {
            assert_eq!(fields.next(), Some(">="), "{answer}");
            let bound: u32 = fields.next().unwrap().parse().unwrap();
            let first_key = match metric {
                Metric::Pushes => pushes,
                Metric::Moves => moves,
            };
            assert!(bound <= first_key, "{answer}");
        }
        assert_eq!(fields.next(), None, "{answer}");
    }
    malformed == 0
}

#[test]
fn mutated_corpus_inputs_never_panic_and_answers_replay() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let corpus = test_support::mutate::corpus(&testdata, "sokoban").unwrap();
    assert!(corpus.len() >= 15, "corpus too small: {}", corpus.len());
    let rounds = test_support::fuzz::rounds_from_env("SOKOBAN_FUZZ_ROUNDS", 500);
    for metric in [Metric::Pushes, Metric::Moves] {
        let clean = answered_rounds(
            8,
            rounds,
            |rng| {
                let seed = rng.below(corpus.len());
                mutate(rng, &corpus[seed], ALPHABET)
            },
            |text, _| check(text, metric),
        );
        eprintln!("{metric:?}: {clean} of {rounds} mutated inputs answered in full");
        assert!(
            clean * 5 > rounds,
            "only {clean} of {rounds} inputs were well formed"
        );
    }
}

#[test]
fn random_levels_with_stray_bytes_never_panic() {
    let rounds = test_support::fuzz::rounds_from_env("SOKOBAN_FUZZ_ROUNDS", 600);
    let clean = answered_rounds(
        9,
        rounds,
        |rng: &mut SplitMix64| {
            let mut text = generate::collection(rng.next_u64(), 3, 4, 5).into_bytes();
            if rng.percent(30) {
                let at = rng.below(text.len());
                text[at] = b"@$.*+x\xff\t"[rng.below(8)];
            }
            text
        },
        |text, _| check(text, Metric::Pushes),
    );
    eprintln!("{clean} of {rounds} random collections answered in full");
    assert!(
        clean * 2 > rounds,
        "only {clean} of {rounds} inputs were well formed"
    );
}

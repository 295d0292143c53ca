#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Known answers: the Microban levels of `testdata/sokoban/microban-fast.in` (those that
//! solve in a fraction of a second) against the published optimal pushes and moves of
//! `testdata/fixtures/sokoban/microban_optimal.tsv`, both metrics, every solution replayed.
//! All 155 levels are checked the same way by `cargo xtask bench sokoban`.

use std::collections::HashMap;

use sokoban::{Collection, Metric, Options, solve, verify};

const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/sokoban");

/// Level -> [(pushes, moves) at the push optimum, (pushes, moves) at the move optimum],
/// for the rows the table proves (`exact`).
fn table() -> HashMap<usize, [Option<(u32, u32)>; 2]> {
    let text = std::fs::read_to_string(format!(
        "{TESTDATA}/../fixtures/sokoban/microban_optimal.tsv"
    ))
    .unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| f[i].parse::<u32>().ok();
            let pushes = (f[6] == "exact").then(|| n(2).zip(n(3))).flatten();
            let moves = (f[7] == "exact").then(|| n(5).zip(n(4))).flatten();
            (f[0].parse().unwrap(), [pushes, moves])
        })
        .collect()
}

#[test]
fn fast_microban_levels_have_the_published_optima() {
    let table = table();
    let text = std::fs::read_to_string(format!("{TESTDATA}/microban-fast.in")).unwrap();
    let mut checked = 0;
    for level in Collection::new(text.as_bytes(), 1 << 16) {
        let level = level.unwrap();
        let number: usize = level.title().trim_start_matches("; ").parse().unwrap();
        for (key, metric) in [Metric::Pushes, Metric::Moves].into_iter().enumerate() {
            let want = table[&number][key].expect("only levels with exact values");
            let options = Options {
                metric,
                ..Options::default()
            };
            let Ok(Some(s)) = solve(&level, &options) else {
                panic!("Microban {number} {metric:?}: not solved");
            };
            assert!(s.is_proven());
            let counts = verify(&level, s.lurd()).unwrap();
            assert_eq!((counts.pushes, counts.moves), (s.pushes(), s.moves()));
            assert_eq!(
                (s.pushes(), s.moves()),
                want,
                "Microban {number} {metric:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 170, "{checked} answers checked");
}

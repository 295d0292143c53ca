#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every file in testdata/sokoban/ is a case, and every file in testdata/bad/sokoban/ a
//! malformed input (or one beyond the budgets, or a bad flag): each run is snapshotted
//! (flags, exit status, stdout, stderr) and its known answer asserted where a `.out`
//! holds one. `cargo xtask verify` runs these two tests in compare-only mode.

use test_support::harness::checked_case;

const BINARY: &str = env!("CARGO_BIN_EXE_sokoban");

#[test]
fn cases() {
    insta::glob!("../../../testdata/sokoban", "*.in", |case| {
        insta::assert_snapshot!(checked_case(BINARY, case));
    });
}

#[test]
fn bad_input() {
    insta::glob!("../../../testdata/bad/sokoban", "*.in", |case| {
        insta::assert_snapshot!(checked_case(BINARY, case));
    });
}

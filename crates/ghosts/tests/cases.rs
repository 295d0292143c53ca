#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every file in testdata/ghosts/ is a case, and every file in testdata/bad/ghosts/ a
//! malformed input (or one beyond the budgets, or a bad flag): each run is snapshotted
//! (flags, exit status, stdout, stderr) and its known answer asserted where a `.out`
//! holds one. `cargo xtask verify` runs these two tests in compare-only mode.

use test_support::harness::checked_case;

const BINARY: &str = env!("CARGO_BIN_EXE_ghosts");

#[test]
fn cases() {
    insta::glob!("../../../testdata/ghosts", "*.in", |case| {
        insta::assert_snapshot!(checked_case(BINARY, case));
    });
}

#[test]
fn bad_input() {
    insta::glob!("../../../testdata/bad/ghosts", "*.in", |case| {
        insta::assert_snapshot!(checked_case(BINARY, case));
    });
}

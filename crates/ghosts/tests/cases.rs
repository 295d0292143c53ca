#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every case in testdata/ghosts/ (a `NAME.in`, a `NAME.args`, or both) is a run of the
//! program, and every case in testdata/bad/ghosts/ a malformed input (or one beyond the
//! budgets, or a bad flag); the files they name are in testdata/fixtures/ghosts/. Each
//! run is snapshotted
//! (flags, exit status, stdout, stderr) and its known answer asserted where a `.out`
//! holds one. `cargo xtask verify` runs these two tests in compare-only mode.

use test_support::harness::{checked_case, is_case};

const BINARY: &str = env!("CARGO_BIN_EXE_ghosts");

#[test]
fn cases() {
    insta::glob!("../../../testdata/ghosts", "*.{in,args}", |case| {
        if is_case(case) {
            insta::assert_snapshot!(checked_case(BINARY, case));
        }
    });
}

#[test]
fn bad_input() {
    insta::glob!("../../../testdata/bad/ghosts", "*.{in,args}", |case| {
        if is_case(case) {
            insta::assert_snapshot!(checked_case(BINARY, case));
        }
    });
}

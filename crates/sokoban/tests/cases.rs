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

/// The input may be named on the command line instead of coming on standard input.
#[test]
fn a_file_named_on_the_command_line_is_read() {
    let case = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/sokoban/docs-example.in"
    );
    let output = std::process::Command::new(BINARY)
        .arg(case)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
    let known = std::fs::read_to_string(case.replace(".in", ".out")).unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), known);

    let output = std::process::Command::new(BINARY)
        .arg("no-such-file.xsb")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("error: cannot open no-such-file.xsb: "),
        "{stderr}"
    );
}

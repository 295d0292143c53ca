#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every file in testdata/ghosts/ is a case: its run is snapshotted, its known answer asserted.

#[test]
fn cases() {
    insta::glob!("../../../testdata/ghosts", "*.in", |case| {
        let run =
            grid_core::harness::run_case(std::path::Path::new(env!("CARGO_BIN_EXE_ghosts")), case)
                .unwrap();
        if let Some((expected, same)) = run.known_answer(case).unwrap() {
            assert!(
                same,
                "{}: expected\n{expected}\ngot\n{}",
                case.display(),
                run.stdout
            );
        }
        insta::assert_snapshot!(run.render());
    });
}

/// Every file in testdata/bad/ghosts/ is a malformed input (or one beyond the budgets, or a
/// bad flag): its exit status and located error are snapshotted; the answers of the good
/// cases before it are on stdout (and asserted where a `.out` holds them).
#[test]
fn bad_input() {
    insta::glob!("../../../testdata/bad/ghosts", "*.in", |case| {
        let run =
            grid_core::harness::run_case(std::path::Path::new(env!("CARGO_BIN_EXE_ghosts")), case)
                .unwrap();
        if let Some((expected, same)) = run.known_answer(case).unwrap() {
            assert!(
                same,
                "{}: expected\n{expected}\ngot\n{}",
                case.display(),
                run.stdout
            );
        }
        insta::assert_snapshot!(run.render());
    });
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The peak-memory helper measures a process that holds a known amount. A measuring test
//! binary has no libtest harness (see `test_support::peak_memory`): `main` runs the
//! checks, and a failed one panics, which fails the test.

use std::path::Path;

use test_support::peak_memory::{run_measured, serve_measurement};

const ALLOCATE: &str = env!("CARGO_BIN_EXE_allocate");

fn a_process_holding_a_known_amount_is_measured_within_a_few_mib() {
    for mib in [1, 40, 160] {
        let run = run_measured(Path::new(ALLOCATE), &[&mib.to_string()], b"echo\n").unwrap();
        assert_eq!(run.status, 0, "{run:?}");
        assert_eq!(run.stdout, "echo\n");
        assert_eq!(run.stderr, "allocated\n");
        // The block, plus the program's start-up (about 2 MiB) and the reporter's.
        assert!(run.peak_kib >= mib * 1024, "{run:?}");
        run.assert_peak_within(mib + 4);
    }
}

fn a_small_process_is_not_charged_for_the_test_process() {
    // The test process holds 100 MiB while the child holds 1 MiB.
    let held = vec![1u8; 100 << 20];
    let run = run_measured(Path::new(ALLOCATE), &["1"], b"").unwrap();
    assert!(held.iter().step_by(4096).all(|&b| b == 1));
    assert_eq!(run.status, 0, "{run:?}");
    run.assert_peak_within(8);
}

fn a_process_over_the_limit_fails_the_assertion() {
    let run = run_measured(Path::new(ALLOCATE), &["40"], b"").unwrap();
    let failure = run.check_peak_within(20).unwrap_err();
    assert!(failure.contains("is above 20 MiB"), "{failure}");
    run.assert_peak_within(44);
}

fn exit_status_and_streams_come_back() {
    let run = run_measured(Path::new(ALLOCATE), &["lots"], b"").unwrap();
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr, "usage: allocate MIB\n");
    assert_eq!(run.stdout, "");
}

fn main() {
    serve_measurement();
    a_process_holding_a_known_amount_is_measured_within_a_few_mib();
    a_small_process_is_not_charged_for_the_test_process();
    a_process_over_the_limit_fails_the_assertion();
    exit_status_and_streams_come_back();
    println!("peak_memory: 4 checks passed");
}

//! Any bytes through `ghosts::run`: answers, or an error located at line >= 1, column >= 1.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = ghosts::RunOptions {
        plan: true,
        show: false,
        svg: None,
        max_cells: 400,
        memory_mib: 16,
    };
    let mut out = Vec::new();
    match ghosts::run(data, &mut out, &options) {
        Ok(()) => {}
        Err(grid_core::RunError::Input(e)) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
        Err(e) => panic!("{e}"),
    }
});

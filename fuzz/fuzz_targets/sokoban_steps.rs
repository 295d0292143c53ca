//! Any bytes through `sokoban_steps::run --path`: a path that replays in the steps given,
//! or an error located at line >= 1, column >= 1.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = sokoban_steps::RunOptions {
        path: true,
        show: false,
        svg: None,
        max_cells: 1024,
        memory_mib: 16,
    };
    let mut out = Vec::new();
    match sokoban_steps::run(data, &mut out, &options) {
        Ok(()) => {
            let out = String::from_utf8(out).unwrap_or_default();
            let mut lines = out.lines();
            let steps: i64 = lines.next().unwrap_or("x").parse().unwrap_or(i64::MIN);
            assert!(steps >= -1, "{out}");
            if steps >= 0 {
                let puzzle = sokoban_steps::internals::read_puzzle(data, 1024);
                let path = lines.next().unwrap_or_default();
                let replayed = puzzle.map(|p| sokoban_steps::replay(&p, path));
                assert_eq!(replayed, Ok(Ok(steps as usize)), "{out}");
            }
        }
        Err(grid_core::RunError::Input(e)) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
        Err(e) => panic!("{e}"),
    }
});

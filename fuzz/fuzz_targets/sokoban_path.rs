//! Any bytes through `sokoban_path::run`: answers that replay with `verify`, or an error
//! located at line >= 1, column >= 1.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = sokoban_path::RunOptions {
        max_cells: 1024,
        memory_mib: 16,
        show: false,
        svg: None,
    };
    let mut out = Vec::new();
    match sokoban_path::run(data, &mut out, &options) {
        Ok(()) => {
            let out = String::from_utf8(out).unwrap_or_default();
            let mut answers = out.lines().filter(|l| !l.is_empty() && !l.starts_with("Maze #"));
            let mut reader = grid_core::CaseReader::new(data);
            while let Ok(Some(maze)) = sokoban_path::internals::read_maze(&mut reader, 1024) {
                let answer = answers.next().unwrap_or_default();
                if answer != "Impossible." {
                    assert!(sokoban_path::verify(&maze, answer).is_ok(), "{answer}");
                }
            }
        }
        Err(grid_core::RunError::Input(e)) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
        Err(e) => panic!("{e}"),
    }
});

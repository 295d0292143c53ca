//! Any bytes through `sokoban`'s XSB collection reader and `sokoban::run`: every level the
//! reader yields is well formed or refused with an error located at line >= 1, column
//! >= 1; the run answers exactly the well-formed levels, in order, under their titles,
//! and every answer replays with `verify` to its counts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let max_cells = 1024;
    let mut levels = Vec::new();
    for level in sokoban::Collection::new(data, max_cells) {
        match level {
            Ok(level) => levels.push(level),
            Err(e) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
        }
    }
    let options = sokoban::RunOptions {
        solve: sokoban::Options {
            memory_mib: 16,
            time_limit: Some(std::time::Duration::from_millis(20)),
            ..sokoban::Options::default()
        },
        max_cells,
        ..sokoban::RunOptions::default()
    };
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    let told = sokoban::run(data, &mut out, &mut errors, &options).unwrap_or_else(|e| panic!("{e}"));
    let errors = String::from_utf8(errors).unwrap_or_default();
    assert_eq!(errors.lines().count(), told, "{errors}");
    assert!(errors.lines().all(|l| l.starts_with("error: line ")), "{errors}");
    let out = String::from_utf8(out).unwrap_or_default();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2 * levels.len(), "{out}");
    for (level, pair) in levels.iter().zip(lines.chunks(2)) {
        assert_eq!(pair[0], level.title());
        if pair[1] == "-1" || pair[1].starts_with("unknown: ") {
            continue;
        }
        let mut fields = pair[1].split(' ');
        let pushes: u32 = fields.next().and_then(|f| f.parse().ok()).unwrap_or(u32::MAX);
        let moves: u32 = fields.next().and_then(|f| f.parse().ok()).unwrap_or(u32::MAX);
        let counts = sokoban::verify(level, fields.next().unwrap_or(""));
        let counts = counts.unwrap_or_else(|e| panic!("{}: {e}", pair[1]));
        assert_eq!((counts.pushes, counts.moves), (pushes, moves));
    }
});

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `--svg`: the picture read back as XML replays the step sequence the program prints (one
//! frame for the start and one per step, the box red on push frames and green on the
//! target), on every test case and on generated boards; the binary saves the file and
//! reports one it cannot write.

use std::path::Path;

use grid_core::svg::Colour;
use sokoban_steps::{Options, Puzzle, solve};

const BINARY: &str = env!("CARGO_BIN_EXE_sokoban-steps");

/// Draws `puzzle` with its smallest optimal path and checks the drawing against a replay
/// of the path; returns the number of frames.
fn check_picture(puzzle: &Puzzle) -> usize {
    let options = Options {
        path: true,
        ..Options::default()
    };
    let solution = solve(puzzle, &options).unwrap();
    let path = solution.as_ref().map(|s| s.path().unwrap());
    let mut svg = Vec::new();
    sokoban_steps::internals::write_svg(&mut svg, puzzle, path).unwrap();
    let drawing = test_support::svg_reading::read(std::str::from_utf8(&svg).unwrap());
    let grid = puzzle.grid();
    assert_eq!(drawing.size, (grid.width(), grid.height()));
    let walls: Vec<_> = (0..grid.height())
        .flat_map(|r| (0..grid.width()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid.cell(r, c).is_none())
        .collect();
    assert_eq!(drawing.walls, walls);
    let target = grid.position(puzzle.target());
    test_support::svg_reading::assert_target_drawn(&drawing, target, "@");
    let [player, crate_] = &drawing.sprites[..] else {
        panic!("two sprites: {:?}", drawing.sprites);
    };
    assert_eq!((player.label.as_str(), crate_.label.as_str()), ("X", "*"));
    // The replay: coordinates only, no grid tables.
    let mut at = grid.position(puzzle.player());
    let mut boxed = grid.position(puzzle.box_cell());
    let mut players = vec![at];
    let mut boxes = vec![boxed];
    let mut fills = vec![Colour::BOX.to_string()];
    for step in path.map_or(&[][..], |p| p.moves()) {
        let (dr, dc) = step.dir.delta();
        let next = |(r, c): (usize, usize)| {
            (
                r.checked_add_signed(dr).unwrap(),
                c.checked_add_signed(dc).unwrap(),
            )
        };
        at = next(at);
        assert_eq!(at == boxed, step.push, "a push is a step into the box");
        if step.push {
            boxed = next(boxed);
        }
        players.push(at);
        boxes.push(boxed);
        fills.push(
            if boxed == target {
                Colour::ARRIVED
            } else if step.push {
                Colour::PUSHED
            } else {
                Colour::BOX
            }
            .to_string(),
        );
    }
    let steps = solution.as_ref().map(|s| s.steps() as usize);
    assert_eq!(drawing.frames, steps.map_or(1, |s| s + 1));
    assert_eq!(player.places, players);
    assert_eq!(crate_.places, boxes);
    assert_eq!(crate_.fills, fills);
    assert_eq!(
        player.base,
        grid.position(puzzle.player()),
        "static picture: the start"
    );
    assert_eq!(crate_.base, grid.position(puzzle.box_cell()));
    if steps.is_some() {
        assert_eq!(boxed, target, "the last frame has the box on the target");
    }
    drawing.frames
}

#[test]
fn pictures_of_the_test_cases_replay_their_paths() {
    let (mut boards, mut unsolvable) = (0, 0);
    for entry in std::fs::read_dir("../../testdata/sokoban-steps").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            let puzzle: Puzzle = std::fs::read_to_string(&path).unwrap().parse().unwrap();
            if check_picture(&puzzle) == 1 {
                unsolvable += 1;
            }
            boards += 1;
        }
    }
    assert!(
        boards >= 25 && unsolvable >= 3,
        "{boards} boards, {unsolvable} unsolvable"
    );
}

#[test]
fn pictures_of_generated_boards_replay_their_paths() {
    for seed in 0..300 {
        let puzzle: Puzzle = sokoban_steps::generate::small(seed).parse().unwrap();
        check_picture(&puzzle);
    }
}

fn run_binary(args: &[&str], input: &str) -> std::process::Output {
    test_support::harness::run_with_input(Path::new(BINARY), args, input.as_bytes()).unwrap()
}

#[test]
fn the_binary_saves_the_picture_and_reports_a_failed_one() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sokoban-steps-svg");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = "4 4\n....\n..*@\n....\n.X..\n";
    let file = dir.join("board.svg");
    let with = run_binary(&["--svg", file.to_str().unwrap()], input);
    assert!(
        with.status.success(),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    assert_eq!(with.stdout, b"3\n", "--svg alone prints the count only");
    let drawing = test_support::svg_reading::read(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(drawing.frames, 4);

    let missing = dir.join("no-such-folder").join("out.svg");
    let out = run_binary(&["--svg", missing.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected = format!("error: cannot write the picture {}: ", missing.display());
    assert!(
        stderr.starts_with(&expected) && !stderr.contains("panicked"),
        "{stderr}"
    );
}

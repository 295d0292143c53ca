#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `--svg`: the picture read back as XML replays the move string the program prints (one
//! frame for the start and one per move, the box red on push frames and green on the
//! target), on every test case and on generated mazes; the binary saves one file per maze
//! and reports a file it cannot write.

use std::path::Path;

use grid_core::rng::SplitMix64;
use grid_core::svg::Colour;
use sokoban_path::internals::parse_all;
use sokoban_path::{Dir, Maze, Options, solve};

const BINARY: &str = env!("CARGO_BIN_EXE_sokoban-path");

/// Draws `maze` with its answer and checks the drawing against a replay of the move
/// string; returns the number of frames.
fn check_picture(maze: &Maze) -> usize {
    let solution = solve(maze, &Options::default()).unwrap();
    let moves = solution.as_ref().map(|s| s.moves());
    let mut svg = Vec::new();
    sokoban_path::internals::write_svg(&mut svg, maze, moves).unwrap();
    let drawing = test_support::svg_reading::read(std::str::from_utf8(&svg).unwrap());
    let grid = maze.grid();
    assert_eq!(drawing.size, (grid.width(), grid.height()));
    let walls: Vec<_> = (0..grid.height())
        .flat_map(|r| (0..grid.width()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid.cell(r, c).is_none())
        .collect();
    assert_eq!(drawing.walls, walls);
    let target = grid.position(maze.target());
    test_support::svg_reading::assert_target_drawn(&drawing, target, "T");
    let [person, crate_] = &drawing.sprites[..] else {
        panic!("two sprites: {:?}", drawing.sprites);
    };
    assert_eq!((person.label.as_str(), crate_.label.as_str()), ("S", "B"));
    // The replay: coordinates only, no grid tables.
    let mut at = grid.position(maze.person());
    let mut boxed = grid.position(maze.box_start());
    let mut people = vec![at];
    let mut boxes = vec![boxed];
    let mut fills = vec![Colour::BOX.to_string()];
    for letter in moves.unwrap_or("").chars() {
        let (dir, push) = Dir::from_letter(letter).unwrap();
        let (dr, dc) = dir.delta();
        let next = |(r, c): (usize, usize)| {
            (
                r.checked_add_signed(dr).unwrap(),
                c.checked_add_signed(dc).unwrap(),
            )
        };
        at = next(at);
        if push {
            assert_eq!(at, boxed, "a push starts next to the box");
            boxed = next(boxed);
        }
        people.push(at);
        boxes.push(boxed);
        fills.push(
            if boxed == target {
                Colour::ARRIVED
            } else if push {
                Colour::PUSHED
            } else {
                Colour::BOX
            }
            .to_string(),
        );
    }
    assert_eq!(drawing.frames, moves.map_or(1, |m| m.len() + 1));
    assert_eq!(person.places, people);
    assert_eq!(crate_.places, boxes);
    assert_eq!(crate_.fills, fills);
    assert_eq!(
        person.base,
        grid.position(maze.person()),
        "static picture: the start"
    );
    assert_eq!(crate_.base, grid.position(maze.box_start()));
    if moves.is_some() {
        assert_eq!(boxed, target, "the last frame has the box on the target");
    }
    drawing.frames
}

#[test]
fn pictures_of_the_test_cases_replay_their_answers() {
    let (mut mazes, mut impossible) = (0, 0);
    for entry in std::fs::read_dir("../../testdata/sokoban-path").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            let text = std::fs::read_to_string(&path).unwrap();
            for maze in parse_all(&text, 1 << 20).unwrap() {
                if check_picture(&maze) == 1 {
                    impossible += 1;
                }
                mazes += 1;
            }
        }
    }
    assert!(
        mazes >= 30 && impossible >= 2,
        "{mazes} mazes, {impossible} impossible"
    );
}

#[test]
fn pictures_of_generated_mazes_replay_their_answers() {
    let mut rng = SplitMix64::new(0x5e7);
    for _ in 0..200 {
        let (rows, cols) = (rng.between(1, 8), rng.between(3, 8));
        let text = sokoban_path::generate::random_maze(&mut rng, rows, cols, 20);
        for maze in parse_all(&text, 1 << 20).unwrap() {
            check_picture(&maze);
        }
    }
}

fn run_binary(args: &[&str], input: &str) -> std::process::Output {
    test_support::harness::run_with_input(Path::new(BINARY), args, input.as_bytes()).unwrap()
}

#[test]
fn the_binary_saves_one_picture_per_maze_and_reports_a_failed_one() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sokoban-path-svg");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = "1 4\nSB.T\n1 4\nSB#T\n1 3\nSBT\n0 0\n";
    let file = dir.join("mazes.svg");
    let with = run_binary(&["--svg", file.to_str().unwrap()], input);
    assert!(
        with.status.success(),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    assert_eq!(
        with.stdout,
        run_binary(&[], input).stdout,
        "--svg changes no answer"
    );
    for (k, frames) in [(1, 3), (2, 1), (3, 2)] {
        let text = std::fs::read_to_string(grid_core::svg::case_path(&file, k)).unwrap();
        assert_eq!(
            test_support::svg_reading::read(&text).frames,
            frames,
            "maze {k}"
        );
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);

    let missing = dir.join("no-such-folder").join("out.svg");
    let out = run_binary(&["--svg", missing.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Maze #1\nEE\n\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected = format!("error: cannot write the picture {}: ", missing.display());
    assert!(
        stderr.starts_with(&expected) && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn the_picture_in_docs_is_up_to_date() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sokoban-path-svg-docs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let name = "sokoban-path-level-7.svg";
    let input = std::fs::read_to_string("../../testdata/sokoban-path/level-7.in").unwrap();
    let out = run_binary(&["--svg", dir.join(name).to_str().unwrap()], &input);
    assert!(out.status.success());
    let fresh = std::fs::read_to_string(dir.join(name)).unwrap();
    let committed = std::fs::read_to_string(Path::new("../../docs").join(name)).unwrap();
    assert!(
        fresh == committed,
        "docs/{name} is stale: run `cargo run -p sokoban-path -- --svg docs/{name} \
         < testdata/sokoban-path/level-7.in` and commit the result"
    );
}

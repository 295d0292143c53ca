#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `--svg`: the picture read back as XML replays the plan the program prints (one frame
//! for the start and one per step, first frame the starts, last the homes), on the test
//! cases and on generated maps; the binary saves one file per dataset and reports a file
//! it cannot write. Also: `--show` is streamed, never held whole.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use ghosts::generate::{Density, MapSpec};
use ghosts::internals::read_dataset;
use ghosts::{Dataset, Options, solve};
use grid_core::CaseReader;
use grid_core::rng::SplitMix64;

const BINARY: &str = env!("CARGO_BIN_EXE_ghosts");

fn datasets(text: &str) -> Vec<Dataset> {
    let mut reader = CaseReader::new(text.as_bytes());
    let mut all = Vec::new();
    while let Some(d) = read_dataset(&mut reader, 1 << 20).unwrap() {
        all.push(d);
    }
    all
}

/// Solves `dataset`, draws it and checks the drawing against the plan; returns the number
/// of frames.
fn check_picture(dataset: &Dataset) -> usize {
    let options = Options {
        plan: true,
        memory_mib: 64,
        ..Options::default()
    };
    let solution = solve(dataset, &options).unwrap();
    let plan = solution.as_ref().map(|s| s.plan().unwrap());
    let mut svg = Vec::new();
    ghosts::internals::write_svg(&mut svg, dataset, plan).unwrap();
    let drawing = test_support::svg_reading::read(std::str::from_utf8(&svg).unwrap());
    let grid = dataset.grid();
    let n = dataset.ghost_count();
    let position = |cells: &[grid_core::CellId]| -> Vec<(usize, usize)> {
        cells.iter().map(|&c| grid.position(c)).collect()
    };
    assert_eq!(drawing.size, (grid.width(), grid.height()));
    let walls: Vec<_> = (0..grid.height())
        .flat_map(|r| (0..grid.width()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid.cell(r, c).is_none())
        .collect();
    assert_eq!(drawing.walls, walls);
    let homes: Vec<_> = position(dataset.homes())
        .into_iter()
        .enumerate()
        .map(|(i, at)| (at, Some(char::from(b'A' + i as u8).to_string())))
        .collect();
    assert_eq!(drawing.marks, homes, "homes marked with their letters");
    assert!(drawing.rings.is_empty(), "ghosts' homes have no ring");
    assert_eq!(
        drawing.captions.len(),
        drawing.frames,
        "a step counter per frame"
    );
    assert_eq!(drawing.sprites.len(), n);
    let expected_frames = match &solution {
        Some(solution) => {
            assert_eq!(plan.unwrap().len(), solution.steps() as usize);
            plan.unwrap().len() + 1
        }
        None => 1,
    };
    assert_eq!(drawing.frames, expected_frames);
    let starts = position(dataset.starts());
    for (i, sprite) in drawing.sprites.iter().enumerate() {
        assert_eq!(sprite.label, char::from(b'a' + i as u8).to_string());
        assert_eq!(
            sprite.base, starts[i],
            "static picture: the ghosts at their starts"
        );
        let track: Vec<_> = std::iter::once(dataset.starts())
            .chain(plan.into_iter().flatten().map(Vec::as_slice))
            .map(|placement| grid.position(placement[i]))
            .collect();
        assert_eq!(sprite.places, track, "ghost {i} follows the plan");
        if solution.is_some() {
            assert_eq!(
                sprite.places.last(),
                Some(&grid.position(dataset.homes()[i]))
            );
        }
    }
    drawing.frames
}

#[test]
fn pictures_of_the_test_cases_replay_their_plans() {
    let mut checked = 0;
    let mut unsolvable = 0;
    // The cases' inputs and the fixtures' (the official sample is a fixture).
    let folders = ["../../testdata/ghosts", "../../testdata/fixtures/ghosts"];
    for entry in folders.iter().flat_map(|f| std::fs::read_dir(f).unwrap()) {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            for dataset in datasets(&std::fs::read_to_string(&path).unwrap()) {
                if check_picture(&dataset) == 1 {
                    unsolvable += 1;
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 20 && unsolvable >= 1,
        "{checked} datasets, {unsolvable} unsolvable"
    );
}

#[test]
fn pictures_of_generated_maps_replay_their_plans() {
    let mut rng = SplitMix64::new(0x5e6);
    let mut drawn = 0;
    while drawn < 60 {
        let spec = MapSpec {
            width: rng.between(4, 10),
            height: rng.between(4, 10),
            ghosts: rng.between(1, 3),
            density: if rng.percent(50) {
                Density::Dense
            } else {
                Density::Sparse
            },
        };
        if let Some(text) = ghosts::generate::dataset(&mut rng, spec) {
            for dataset in datasets(&text) {
                check_picture(&dataset);
                drawn += 1;
            }
        }
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_binary(args: &[&str], input: &str) -> std::process::Output {
    test_support::harness::run_with_input(Path::new(BINARY), args, input.as_bytes()).unwrap()
}

#[test]
fn the_binary_saves_one_picture_per_dataset() {
    let dir = scratch_dir("ghosts-svg");
    let input =
        std::fs::read_to_string("../../testdata/fixtures/ghosts/uva1601-sample.in").unwrap();
    let file = dir.join("sample.svg");
    let with = run_binary(&["--svg", file.to_str().unwrap()], &input);
    let without = run_binary(&[], &input);
    assert!(
        with.status.success(),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    assert_eq!(with.stdout, without.stdout, "--svg changes no answer");
    let answers: Vec<usize> = String::from_utf8(with.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["sample-2.svg", "sample-3.svg", "sample.svg"]);
    for (k, steps) in answers.iter().enumerate() {
        let path = grid_core::svg::case_path(&file, k as u64 + 1);
        let drawing = test_support::svg_reading::read(&std::fs::read_to_string(path).unwrap());
        assert_eq!(drawing.frames, steps + 1);
    }
}

#[test]
fn a_picture_that_cannot_be_written_is_an_error_after_the_answer() {
    let dir = scratch_dir("ghosts-svg-missing");
    let file = dir.join("no-such-folder").join("out.svg");
    let out = run_binary(&["--svg", file.to_str().unwrap()], "4 1 1\na  A\n0 0 0\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "error: cannot write the picture {}: ",
            file.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A writer that remembers the largest single write.
#[derive(Default)]
struct Largest {
    total: usize,
    largest: usize,
}

impl Write for Largest {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.total += buf.len();
        self.largest = self.largest.max(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn show_is_streamed_one_frame_at_a_time() {
    // A 40 x 40 snake: one long corridor, a plan of hundreds of steps.
    let n = 41;
    let mut rows: Vec<Vec<u8>> = (0..n)
        .map(|r| {
            if r % 2 == 0 {
                vec![b' '; n]
            } else {
                let mut row = vec![b'#'; n];
                row[if (r / 2) % 2 == 0 { n - 1 } else { 0 }] = b' ';
                row
            }
        })
        .collect();
    rows[0][0] = b'a';
    rows[n - 1][if ((n - 1) / 2) % 2 == 0 { n - 1 } else { 0 }] = b'A';
    let mut text = format!("{n} {n} 1\n");
    for row in rows {
        text.push_str(std::str::from_utf8(&row).unwrap());
        text.push('\n');
    }
    let dataset = &datasets(&text)[0];
    let options = Options {
        plan: true,
        memory_mib: 64,
        ..Options::default()
    };
    let solution = solve(dataset, &options).unwrap().unwrap();
    let plan = solution.plan().unwrap();
    assert!(plan.len() > 800, "{} steps", plan.len());
    let mut out = Largest::default();
    ghosts::internals::write_drawings(&mut out, dataset, plan).unwrap();
    let frame = n * (n + 1);
    assert_eq!(
        out.total,
        (plan.len() + 1) * frame
            + (0..=plan.len())
                .map(|s| format!("step {s}\n").len())
                .sum::<usize>()
    );
    assert!(
        out.largest <= frame,
        "a write of {} bytes: more than one map",
        out.largest
    );
}

#[test]
fn the_pictures_in_docs_are_up_to_date() {
    let dir = scratch_dir("ghosts-svg-docs");
    let input =
        std::fs::read_to_string("../../testdata/fixtures/ghosts/uva1601-sample.in").unwrap();
    let out = run_binary(
        &["--svg", dir.join("ghosts-sample.svg").to_str().unwrap()],
        &input,
    );
    assert!(out.status.success());
    for name in [
        "ghosts-sample.svg",
        "ghosts-sample-2.svg",
        "ghosts-sample-3.svg",
    ] {
        let fresh = std::fs::read_to_string(dir.join(name)).unwrap();
        let committed = std::fs::read_to_string(Path::new("../../docs").join(name)).unwrap();
        assert!(
            fresh == committed,
            "docs/{name} is stale: run `cargo run -p ghosts -- --svg docs/ghosts-sample.svg \
             < testdata/fixtures/ghosts/uva1601-sample.in` and commit the result"
        );
    }
}

/// A cell of a MovingAI map, as the scenario writes it: (x, y).
type Xy = (usize, usize);

/// Runs `--map --scen --svg` on a map of `rows` and the agents `(start, goal)`, and reads
/// back the picture.
fn mapf_picture(
    name: &str,
    rows: &[&str],
    agents: &[(Xy, Xy)],
) -> test_support::svg_reading::Drawing {
    let dir = scratch_dir(name);
    let (height, width) = (rows.len(), rows[0].len());
    let map = format!(
        "type octile\nheight {height}\nwidth {width}\nmap\n{}\n",
        rows.join("\n")
    );
    let mut scen = "version 1\n".to_owned();
    for &((sx, sy), (gx, gy)) in agents {
        scen.push_str(&format!(
            "0\tm.map\t{width}\t{height}\t{sx}\t{sy}\t{gx}\t{gy}\t2\n"
        ));
    }
    std::fs::write(dir.join("m.map"), map).unwrap();
    std::fs::write(dir.join("m.scen"), scen).unwrap();
    let file = dir.join("m.svg");
    let (map, scen) = (dir.join("m.map"), dir.join("m.scen"));
    let out = run_binary(
        &[
            "--map",
            map.to_str().unwrap(),
            "--scen",
            scen.to_str().unwrap(),
            "--svg",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    test_support::svg_reading::read(&std::fs::read_to_string(file).unwrap())
}

#[test]
fn past_26_agents_the_goals_carry_their_agents_numbers() {
    // 30 agents in a row, each going two cells down: makespan 2.
    let rows = [".".repeat(30), ".".repeat(30), ".".repeat(30)];
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let agents: Vec<_> = (0..30).map(|x| ((x, 0), (x, 2))).collect();
    let drawing = mapf_picture("mapf-svg-numbers", &rows, &agents);
    assert_eq!(drawing.frames, 3);
    assert_eq!(drawing.marks.len(), 30);
    assert_eq!(drawing.sprites.len(), 30);
    for (i, ((goal, label), sprite)) in drawing.marks.iter().zip(&drawing.sprites).enumerate() {
        let number = (i + 1).to_string();
        assert_eq!(label.as_deref(), Some(number.as_str()), "goal {i} numbered");
        assert_eq!(sprite.label, number, "agent {i} numbered as its goal");
        assert_eq!(
            sprite.places.last(),
            Some(goal),
            "agent {i} ends on its goal"
        );
    }
    assert_eq!(drawing.captions, ["step 0 / 2", "step 1 / 2", "step 2 / 2"]);
}

#[test]
fn up_to_26_agents_the_goals_carry_their_agents_letters() {
    let agents: Vec<_> = (0..26).map(|x| ((x, 0), (x, 2))).collect();
    let rows = [".".repeat(26), ".".repeat(26), ".".repeat(26)];
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let drawing = mapf_picture("mapf-svg-letters", &rows, &agents);
    for (i, ((_, label), sprite)) in drawing.marks.iter().zip(&drawing.sprites).enumerate() {
        let upper = char::from(b'A' + i as u8).to_string();
        assert_eq!(label.as_deref(), Some(upper.as_str()));
        assert_eq!(sprite.label, upper.to_lowercase());
    }
    assert_eq!(drawing.marks.len(), 26);
}

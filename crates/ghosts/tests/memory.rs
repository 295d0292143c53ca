#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `--memory-mib` is a promise: the whole process's peak resident memory stays within the
//! budget plus [`SLACK_MIB`], and a search that cannot fit answers with the located
//! over-budget error. Each check runs the real binary on a hostile input, built here in
//! memory (the maps are up to 1 MiB of text), and measures it as a whole process.
//!
//! No libtest harness: a measuring test binary starts itself again as the small process
//! that spawns and measures the binary (`test_support::peak_memory`); `main` runs the
//! checks, and a failed one panics, which fails the test.

use std::path::Path;

use test_support::peak_memory::{MeasuredRun, run_reported, serve_measurement};

const BINARY: &str = env!("CARGO_BIN_EXE_ghosts");

/// What the process holds besides its budget: the program's start-up (measured 4.2 MiB
/// for the whole process on the sample), the input line buffer and the output, and the
/// few MiB of the measuring process that the peak may include.
const SLACK_MIB: u64 = 6;

/// A dataset: its rows, with `n` ghosts on them, and the terminator.
fn dataset(rows: &[Vec<u8>], n: usize) -> Vec<u8> {
    let mut text = format!("{} {} {n}\n", rows[0].len(), rows.len()).into_bytes();
    for row in rows {
        text.extend_from_slice(row);
        text.push(b'\n');
    }
    text.extend_from_slice(b"0 0 0\n");
    text
}

fn walls(size: usize) -> Vec<Vec<u8>> {
    vec![vec![b'#'; size]; size]
}

/// A `size` x `size` map of walls with a winding corridor: `corridors` full-width rows,
/// joined at alternate ends. Few cells spread over the whole map.
fn snake(size: usize, corridors: usize) -> (Vec<Vec<u8>>, Vec<usize>) {
    let mut rows = walls(size);
    let step = (size - 3) / (corridors - 1);
    let lines: Vec<usize> = (0..corridors).map(|i| 1 + i * step).collect();
    for (i, &r) in lines.iter().enumerate() {
        rows[r][1..size - 1].fill(b' ');
        if let Some(&below) = lines.get(i + 1) {
            let c = if i % 2 == 0 { size - 2 } else { 1 };
            for row in &mut rows[r..=below] {
                row[c] = b' ';
            }
        }
    }
    (rows, lines)
}

fn run(input: &[u8], args: &[&str]) -> MeasuredRun {
    run_reported(Path::new(BINARY), args, input).unwrap()
}

/// Two ghosts crossing a 30 x 30 room in a 1024 x 1024 map: the pair table's scratch
/// was sized by the map (measured 352 MiB under a 64 MiB budget); now by the room.
fn a_small_room_in_a_large_map() {
    let mut rows = walls(1024);
    for row in &mut rows[1..=30] {
        row[1..=30].fill(b' ');
    }
    (rows[1][1], rows[30][30], rows[30][1], rows[1][30]) = (b'a', b'b', b'A', b'B');
    let run = run(&dataset(&rows, 2), &["--memory-mib", "64"]);
    assert_eq!(run.status, 0, "{run:?}");
    // Each ghost walks one side of the room (29 steps) without meeting the other.
    assert_eq!(run.stdout, "29\n");
    run.assert_peak_within(64 + SLACK_MIB);
}

/// Two ghosts in a sparse winding corridor over a 1024 x 1024 map: the bit-parallel
/// scratch would be 3 x C x (map bits / 64) words (1.5 GiB here, and an allocation abort
/// on a longer corridor); the plain search sized by the cells runs instead.
fn a_sparse_corridor_in_a_large_map() {
    let (mut rows, lines) = snake(1024, 3);
    let last = lines[2];
    (rows[1][1], rows[1][2]) = (b'a', b'b');
    // The corridor ends on the last row entered from the left: b stays ahead of a.
    (rows[last][500], rows[last][501]) = (b'A', b'B');
    // 160 MiB: the pair table (2 C^2 bytes for C = 4084 cells, 32 MiB) is affordable.
    let run = run(&dataset(&rows, 2), &["--memory-mib", "160"]);
    assert_eq!(run.status, 0, "{run:?}");
    // a walks the corridor from its first cell to column 500 of the last row, and b one
    // cell ahead all the way.
    let corridor = 2 * 1021 + 2 * (lines[1] - lines[0]) + 499;
    assert_eq!(run.stdout, format!("{corridor}\n"));
    run.assert_peak_within(160 + SLACK_MIB);
}

/// Three ghosts that cannot reorder in a corridor without side pockets: the joint search
/// stores every placement it can reach until the budget runs out. The per-placement
/// estimate counted 4 bytes for a hash slot that holds the whole key (measured 37 MiB
/// under 16, 69 under 32).
fn a_joint_search_that_cannot_fit() {
    let (mut rows, lines) = snake(256, 6);
    let last = lines[5];
    for (i, &ghost) in b"abcBAC".iter().enumerate() {
        rows[last][128 + i] = ghost;
    }
    for budget in ["16", "32"] {
        let run = run(&dataset(&rows, 3), &["--memory-mib", budget]);
        assert_eq!(run.status, 1, "{run:?}");
        assert_eq!(run.stdout, "");
        let message = format!(
            "error: line 1, column 1: solving this case needs more than the memory budget \
             of {budget} MiB (the search ran out after storing "
        );
        assert!(run.stderr.starts_with(&message), "{run:?}");
        assert!(
            run.stderr
                .ends_with("placements); raise it with --memory-mib\n")
        );
        run.assert_peak_within(budget.parse::<u64>().unwrap() + SLACK_MIB);
    }
}

/// A MovingAI instance of the SAT path (testdata/fixtures/ghosts/mapf-door: 24 agents crossing
/// a wall through a two-cell door; prioritized planning fails at the bound, SAT on a core
/// of 19 agents settles it). The estimate of 256 bytes a variable let a 8 MiB budget run
/// to a 19.4 MiB peak: the encoding takes about 1.2 KiB a variable.
fn a_sat_decision_within_a_tight_budget() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures/ghosts");
    let (map, scen) = (folder.join("mapf-door.map"), folder.join("mapf-door.scen"));
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let flags = |budget: &'static str| ["--map", map, "--scen", scen, "--memory-mib", budget];
    let free = run(b"", &flags("1024"));
    assert_eq!(free.status, 0, "{free:?}");
    for budget in ["8", "24"] {
        let run = run(b"", &flags(budget));
        assert_eq!(run.status, 1, "{run:?}");
        assert_eq!(run.stdout, "");
        let message = format!(
            "error: the 24 agents of {scen} on {map}: solving it needs more than the memory \
             budget of {budget} MiB (about "
        );
        assert!(run.stderr.starts_with(&message), "{run:?}");
        assert!(run.stderr.contains("MiB for the SAT encoding of makespan"));
        run.assert_peak_within(budget.parse::<u64>().unwrap() + SLACK_MIB);
    }
    let run = run(b"", &flags("32"));
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.stdout, free.stdout);
    run.assert_peak_within(32 + SLACK_MIB);
}

/// An empty `side` x `side` MovingAI map and a scenario of `agents` (start column, start
/// row, goal column, goal row), written into a fresh folder; the map's path, the
/// scenario's and the folder's.
fn empty_instance(
    name: &str,
    side: usize,
    agents: &[(usize, usize, usize, usize)],
) -> (String, String, std::path::PathBuf) {
    let folder = std::env::temp_dir().join(format!("ghosts-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let (map, scen) = (folder.join("empty.map"), folder.join("empty.scen"));
    let mut text = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
    for _ in 0..side {
        text.push_str(&".".repeat(side));
        text.push('\n');
    }
    std::fs::write(&map, text).unwrap();
    let mut lines = String::from("version 1\n");
    for &(sx, sy, gx, gy) in agents {
        let far = sx.abs_diff(gx) + sy.abs_diff(gy);
        lines += &format!("0\tempty.map\t{side}\t{side}\t{sx}\t{sy}\t{gx}\t{gy}\t{far}\n");
    }
    std::fs::write(&scen, lines).unwrap();
    let path = |p: std::path::PathBuf| p.to_str().unwrap().to_owned();
    (path(map), path(scen), folder)
}

/// A thousand agents on an empty 512 x 512 map: their distance tables take 524 MB. The
/// sum of costs built them for its first plan without counting them (2.1 GB peak for a
/// 1024 x 1024 map under the default 1024 MiB); now both objectives refuse at once.
fn distance_tables_past_the_budget() {
    let agents: Vec<_> = (0..1000)
        .map(|a| {
            (
                (a * 7) % 512,
                a / 512 * 2,
                (a * 13 + 5) % 512,
                500 - a / 512 * 2,
            )
        })
        .collect();
    let (map_arg, scen_arg, folder) = empty_instance("tables", 512, &agents);
    let (map_arg, scen_arg) = (map_arg.as_str(), scen_arg.as_str());
    for objective in ["makespan", "soc"] {
        let args = [
            "--map",
            map_arg,
            "--scen",
            scen_arg,
            "--agents",
            "1000",
            "--objective",
            objective,
            "--memory-mib",
            "64",
            "--time-limit",
            "20",
        ];
        let run = run(b"", &args);
        assert_eq!(run.status, 1, "{run:?}");
        assert!(
            run.stderr.contains("MiB for the distances of 1000 agents"),
            "{run:?}"
        );
        run.assert_peak_within(64 + SLACK_MIB);
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

/// `--show` on a MovingAI instance: one agent crossing an empty 256 x 256 map in 510
/// steps, 33 MiB of drawings. They were built as one string before being written; now
/// each frame is written as it is drawn.
fn drawings_of_a_long_plan_stream() {
    let (map_arg, scen_arg, folder) = empty_instance("drawings", 256, &[(0, 0, 255, 255)]);
    let (map_arg, scen_arg) = (map_arg.as_str(), scen_arg.as_str());
    let args = [
        "--map",
        map_arg,
        "--scen",
        scen_arg,
        "--show",
        "--memory-mib",
        "16",
    ];
    let run = run(b"", &args);
    std::fs::remove_dir_all(&folder).unwrap();
    assert_eq!(run.status, 0, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "510");
    // A frame per step and one for the start, each a header and 256 rows.
    assert_eq!(lines.len(), 1 + 511 * 257);
    assert_eq!(lines[1], "step 0");
    assert_eq!(lines[2], format!("a{}", ".".repeat(255)));
    assert_eq!(lines[lines.len() - 1], format!("{}a", ".".repeat(255)));
    run.assert_peak_within(16 + SLACK_MIB);
}

fn main() {
    serve_measurement();
    drawings_of_a_long_plan_stream();
    distance_tables_past_the_budget();
    a_sat_decision_within_a_tight_budget();
    a_small_room_in_a_large_map();
    a_sparse_corridor_in_a_large_map();
    a_joint_search_that_cannot_fit();
    eprintln!("memory: every check passed");
}

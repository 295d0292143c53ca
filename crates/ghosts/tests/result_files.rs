#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `--output` (lacam3's result.txt) and `--tracker` (the MAPF Tracker's CSV row), parsed
//! back and replayed: on the MovingAI fixtures, for both objectives, every plan written
//! is legal under the step rule (each agent stays or moves to a free neighbour, no two on
//! one cell, no two swapping, following allowed), brings every agent to its goal, and
//! costs what the files say; the bounds are at most the costs, and the printed answer is
//! the objective's value.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use ghosts::{BenchmarkFiles, Objective, RunOptions};

type Cell = (i64, i64); // (x, y): x the column, y the row

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures/ghosts")
}

/// The free cells of a MovingAI map, as (x, y).
fn free_cells(map: &Path) -> HashSet<Cell> {
    let text = std::fs::read_to_string(map).unwrap();
    let rows = text.lines().skip_while(|l| *l != "map").skip(1);
    let mut free = HashSet::new();
    for (y, row) in rows.enumerate() {
        for (x, c) in row.chars().enumerate() {
            if matches!(c, '.' | 'G' | 'S') {
                free.insert((x as i64, y as i64));
            }
        }
    }
    free
}

/// `(x,y),(x,y),...,` as cells.
fn parse_cells(text: &str) -> Vec<Cell> {
    text.split("),")
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (x, y) = s.trim_start_matches('(').split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// Checks that `plan` (every agent's cell at times 0..=T) follows the step rule on
/// `free`, from `starts`, ending on `goals`.
fn replay(free: &HashSet<Cell>, plan: &[Vec<Cell>], starts: &[Cell], goals: &[Cell]) {
    assert_eq!(plan.first().map(Vec::as_slice), Some(starts));
    assert_eq!(plan.last().map(Vec::as_slice), Some(goals));
    for (t, step) in plan.windows(2).enumerate() {
        let (before, after) = (&step[0], &step[1]);
        let mut taken = HashSet::new();
        for (a, (&b, &c)) in before.iter().zip(after).enumerate() {
            assert!(
                free.contains(&c),
                "agent {a} on a blocked cell at {}",
                t + 1
            );
            assert!(
                (b.0 - c.0).abs() + (b.1 - c.1).abs() <= 1,
                "agent {a} jumps at {}",
                t + 1
            );
            assert!(taken.insert(c), "two agents on {c:?} at {}", t + 1);
        }
        let at: HashMap<Cell, usize> = before.iter().enumerate().map(|(a, &c)| (c, a)).collect();
        for (a, (&b, &c)) in before.iter().zip(after).enumerate() {
            if let Some(&other) = at.get(&c) {
                assert!(
                    other == a || after[other] != b,
                    "agents {a} and {other} swap at {}",
                    t + 1
                );
            }
        }
    }
}

/// Each agent's cost: one past the last time it is away from its goal.
fn costs(plan: &[Vec<Cell>], goals: &[Cell]) -> Vec<u64> {
    (0..goals.len())
        .map(|a| {
            plan.iter()
                .rposition(|step| step[a] != goals[a])
                .map_or(0, |t| t as u64 + 1)
        })
        .collect()
}

/// The result file's `key=value` lines and its plan.
fn parse_result(text: &str) -> (HashMap<String, String>, Vec<Vec<Cell>>) {
    let (head, solution) = text.split_once("solution=\n").unwrap();
    let keys = head
        .lines()
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap();
            (k.to_owned(), v.to_owned())
        })
        .collect();
    let plan = solution
        .lines()
        .enumerate()
        .map(|(t, line)| {
            let (time, cells) = line.split_once(':').unwrap();
            assert_eq!(time.parse::<usize>().unwrap(), t);
            parse_cells(cells)
        })
        .collect();
    (keys, plan)
}

/// The tracker file's rows after its header, read as CSV (quoted fields may hold line
/// ends): the first six fields, and the plan's move strings one a line.
fn parse_tracker(text: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut records: Vec<Vec<String>> = Vec::new();
    let (mut record, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (c, _) => field.push(c),
        }
    }
    assert!(
        !quoted && field.is_empty() && record.is_empty(),
        "a row without its end"
    );
    assert_eq!(
        records.first().map(|r| r.join(",")),
        Some("map_name,scen_type,type_id,agents,lower_cost,solution_cost,solution_plan".to_owned())
    );
    records[1..]
        .iter()
        .map(|r| {
            assert_eq!(r.len(), 7, "{r:?}");
            (
                r[..6].to_vec(),
                r[6].split('\n').map(str::to_owned).collect(),
            )
        })
        .collect()
}

/// Every agent's cells from its start along its moves, staying at the end, T + 1 long.
fn follow(starts: &[Cell], moves: &[String]) -> Vec<Vec<Cell>> {
    let horizon = moves.iter().map(String::len).max().unwrap_or(0);
    let mut at = starts.to_vec();
    let mut plan = vec![at.clone()];
    for t in 0..horizon {
        for (cell, agent) in at.iter_mut().zip(moves) {
            match agent.as_bytes().get(t) {
                Some(b'u') => cell.1 -= 1,
                Some(b'd') => cell.1 += 1,
                Some(b'l') => cell.0 -= 1,
                Some(b'r') => cell.0 += 1,
                Some(b'w') | None => {}
                Some(other) => panic!("move {}", *other as char),
            }
        }
        plan.push(at.clone());
    }
    plan
}

/// Runs one instance with both files and checks them.
fn check(map: &str, scen: &str, agents: usize, objective: Objective, dir: &Path) {
    let (output, tracker) = (dir.join("result.txt"), dir.join("tracker.csv"));
    let _ = std::fs::remove_file(&tracker);
    let files = BenchmarkFiles {
        map: fixtures().join(map),
        scen: fixtures().join(scen),
        agents: Some(agents),
    };
    let options = RunOptions {
        objective,
        result_file: Some(output.clone()),
        tracker_file: Some(tracker.clone()),
        ..RunOptions::default()
    };
    let mut printed = Vec::new();
    ghosts::run_benchmark(&files, &mut printed, &options).unwrap();
    let printed = String::from_utf8(printed).unwrap();
    let answer: i64 = printed.trim().parse().unwrap();
    let context = format!("{map} {scen} {agents} {objective:?}");
    let (keys, plan) = parse_result(&std::fs::read_to_string(&output).unwrap());
    let number = |key: &str| -> u64 { keys[key].parse().unwrap() };
    assert_eq!(number("agents"), agents as u64, "{context}");
    assert_eq!(keys["solver"], "ghosts");
    let starts = parse_cells(&keys["starts"]);
    let goals = parse_cells(&keys["goals"]);
    let tracker_text = std::fs::read_to_string(&tracker).unwrap_or_default();
    if answer < 0 {
        assert_eq!(number("solved"), 0, "{context}");
        assert!(plan.is_empty());
        assert!(tracker_text.is_empty(), "{context}");
        return;
    }
    assert_eq!(number("solved"), 1, "{context}");
    replay(&free_cells(&files.map), &plan, &starts, &goals);
    let soc: u64 = costs(&plan, &goals).iter().sum();
    assert_eq!(number("soc"), soc, "{context}");
    assert_eq!(number("makespan"), plan.len() as u64 - 1, "{context}");
    assert!(number("soc_lb") <= soc && number("makespan_lb") <= number("makespan"));
    match objective {
        Objective::Makespan => assert_eq!(answer as u64, number("makespan"), "{context}"),
        Objective::SumOfCosts => assert_eq!(answer as u64, soc, "{context}"),
    }
    let rows = parse_tracker(&tracker_text);
    assert_eq!(rows.len(), 1, "{context}");
    let (fields, moves) = &rows[0];
    assert_eq!(fields[3], agents.to_string());
    assert_eq!(moves.len(), agents);
    let followed = follow(&starts, moves);
    replay(&free_cells(&files.map), &followed, &starts, &goals);
    let lengths: u64 = moves.iter().map(|m| m.len() as u64).sum();
    assert_eq!(fields[5], lengths.to_string(), "{context}");
    assert_eq!(lengths, soc, "{context}");
    assert!(fields[4].parse::<u64>().unwrap() <= soc);
}

#[test]
fn result_files_replay_and_cost_what_they_say() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("result-files");
    std::fs::create_dir_all(&dir).unwrap();
    for objective in [Objective::Makespan, Objective::SumOfCosts] {
        for agents in 1..=8 {
            check("mapf-room.map", "mapf-room.scen", agents, objective, &dir);
        }
        for agents in 1..=5 {
            check("mapf-ibeam.map", "mapf-ibeam.scen", agents, objective, &dir);
        }
        for agents in [4, 8, 12] {
            check("mapf-door.map", "mapf-door.scen", agents, objective, &dir);
        }
        check(
            "mapf-corridor.map",
            "mapf-corridor.scen",
            2,
            objective,
            &dir,
        );
    }
}

#[test]
fn tracker_rows_append_under_one_header() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tracker-append");
    std::fs::create_dir_all(&dir).unwrap();
    let tracker = dir.join("tracker.csv");
    let _ = std::fs::remove_file(&tracker);
    for agents in [2, 3] {
        let files = BenchmarkFiles {
            map: fixtures().join("mapf-room.map"),
            scen: fixtures().join("mapf-room.scen"),
            agents: Some(agents),
        };
        let options = RunOptions {
            tracker_file: Some(tracker.clone()),
            ..RunOptions::default()
        };
        ghosts::run_benchmark(&files, &mut Vec::new(), &options).unwrap();
    }
    let rows = parse_tracker(&std::fs::read_to_string(&tracker).unwrap());
    assert_eq!(rows.len(), 2);
    // The scenario's name has no MAP-TYPE-ID shape: the map's and the scenario's names.
    assert_eq!(rows[0].0[..4], ["mapf-room", "mapf-room", "0", "2"]);
    assert_eq!(rows[1].0[3], "3");
}

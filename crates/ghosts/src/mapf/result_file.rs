//! The result files other MAPF tools read: lacam3's `result.txt` (what mapf-visualizer
//! plays) and the MAPF Tracker's CSV row (one move string per agent).
//!
//! Both take the plan as every agent's cell at times 0 (the starts) to T (the goals); an
//! agent that has arrived stays on its goal until T. Coordinates are `(x,y)` with x the
//! column and y the row, (0,0) the top left cell, as in the MovingAI files. The formats
//! are described in `docs/mapf.md`.
//!
//! # Complexity
//! O(K x T) for K agents and T steps, in time and in the text written.

use std::fmt::Write as _;
use std::io::{self, Write};

use grid_core::{CellId, Grid};

/// What a result file says about one instance.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    /// The map, for the coordinates.
    pub grid: &'a Grid,
    /// The map file's name as given (lacam3 writes the path it was given).
    pub map_file: &'a str,
    /// The solver's name (`solver=`).
    pub solver: &'a str,
    /// Every agent's start.
    pub starts: &'a [CellId],
    /// Every agent's goal.
    pub goals: &'a [CellId],
    /// The plan, times 0 to T; `None` when there is none.
    pub configurations: Option<&'a [Vec<CellId>]>,
    /// The proven lower bound on the sum of costs.
    pub soc_lb: u64,
    /// The proven lower bound on the makespan.
    pub makespan_lb: u32,
    /// Wall time of the solve, in milliseconds.
    pub comp_time_ms: u64,
}

/// The cost of every agent in `configurations`: the time at which it reaches its goal
/// for the last time (0 for an agent that never leaves it).
pub fn agent_costs(configurations: &[Vec<CellId>], goals: &[CellId]) -> Vec<u32> {
    (0..goals.len())
        .map(|i| {
            configurations
                .iter()
                .rposition(|c| c[i] != goals[i])
                .map_or(0, |t| t as u32 + 1)
        })
        .collect()
}

/// The sum of the agents' costs ([`agent_costs`]).
pub fn sum_of_costs(configurations: &[Vec<CellId>], goals: &[CellId]) -> u64 {
    agent_costs(configurations, goals)
        .iter()
        .map(|&c| u64::from(c))
        .sum()
}

fn push_cell(line: &mut String, grid: &Grid, cell: CellId) {
    let (row, col) = grid.position(cell);
    // Writing to a String cannot fail.
    let _ = write!(line, "({col},{row}),");
}

/// Writes `report` in lacam3's result format: `key=value` lines (`agents`, `map_file`,
/// `solver`, `solved`, `soc`, `soc_lb`, `makespan`, `makespan_lb`, `comp_time`, `starts`,
/// `goals`), then `solution=` and one line `t:(x,y),(x,y),...` per time step.
///
/// # Errors
/// When writing to `out` fails.
pub fn write_result(out: &mut impl Write, report: &Report<'_>) -> io::Result<()> {
    let grid = report.grid;
    let mut text = String::new();
    let (soc, makespan) = match report.configurations {
        Some(c) => (sum_of_costs(c, report.goals), c.len().saturating_sub(1)),
        None => (0, 0),
    };
    let _ = writeln!(text, "agents={}", report.starts.len());
    let _ = writeln!(text, "map_file={}", report.map_file);
    let _ = writeln!(text, "solver={}", report.solver);
    let _ = writeln!(text, "solved={}", u8::from(report.configurations.is_some()));
    let _ = writeln!(text, "soc={soc}");
    let _ = writeln!(text, "soc_lb={}", report.soc_lb);
    let _ = writeln!(text, "makespan={makespan}");
    let _ = writeln!(text, "makespan_lb={}", report.makespan_lb);
    let _ = writeln!(text, "comp_time={}", report.comp_time_ms);
    for (key, cells) in [("starts", report.starts), ("goals", report.goals)] {
        text.push_str(key);
        text.push('=');
        for &cell in cells {
            push_cell(&mut text, grid, cell);
        }
        text.push('\n');
    }
    text.push_str("solution=\n");
    out.write_all(text.as_bytes())?;
    for (t, configuration) in report.configurations.unwrap_or(&[]).iter().enumerate() {
        text.clear();
        let _ = write!(text, "{t}:");
        for &cell in configuration {
            push_cell(&mut text, grid, cell);
        }
        text.push('\n');
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// The header line of the MAPF Tracker's CSV files.
pub const TRACKER_HEADER: &str =
    "map_name,scen_type,type_id,agents,lower_cost,solution_cost,solution_plan";

/// Which instance of the benchmark a tracker row is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerInstance {
    /// The map's name, without `.map` (`random-32-32-20`).
    pub map_name: String,
    /// The scenario kind (`random` or `even`).
    pub scen_type: String,
    /// The scenario's number (1 to 25).
    pub type_id: u32,
}

impl TrackerInstance {
    /// The instance named by a scenario file's stem, `MAP-TYPE-ID` (as in
    /// `random-32-32-20-random-1`); `None` when the stem has no such shape.
    pub fn from_scen_stem(stem: &str) -> Option<Self> {
        let (rest, id) = stem.rsplit_once('-')?;
        let (map, kind) = rest.rsplit_once('-')?;
        let type_id = id.parse().ok()?;
        (!map.is_empty() && !kind.is_empty()).then(|| TrackerInstance {
            map_name: map.to_owned(),
            scen_type: kind.to_owned(),
            type_id,
        })
    }
}

/// Every agent's moves in the tracker's letters, up to its cost ([`agent_costs`]): `u`
/// (row - 1), `d` (row + 1), `l` (column - 1), `r` (column + 1), `w` (wait).
pub fn move_strings(grid: &Grid, configurations: &[Vec<CellId>], goals: &[CellId]) -> Vec<String> {
    let costs = agent_costs(configurations, goals);
    (0..goals.len())
        .map(|i| {
            (0..costs[i] as usize)
                .map(|t| {
                    let (r0, c0) = grid.position(configurations[t][i]);
                    let (r1, c1) = grid.position(configurations[t + 1][i]);
                    match (r1 as isize - r0 as isize, c1 as isize - c0 as isize) {
                        (-1, 0) => 'u',
                        (1, 0) => 'd',
                        (0, -1) => 'l',
                        (0, 1) => 'r',
                        _ => 'w',
                    }
                })
                .collect()
        })
        .collect()
}

/// The tracker's CSV row for a plan of `instance` (no line end): the plan's sum of costs,
/// the lower bound `lower_cost`, and the move strings one line each in a quoted field.
pub fn tracker_row(
    instance: &TrackerInstance,
    grid: &Grid,
    configurations: &[Vec<CellId>],
    goals: &[CellId],
    lower_cost: u64,
) -> String {
    let plan = move_strings(grid, configurations, goals).join("\n");
    format!(
        "{},{},{},{},{},{},\"{}\"",
        csv_field(&instance.map_name),
        csv_field(&instance.scen_type),
        instance.type_id,
        goals.len(),
        lower_cost,
        sum_of_costs(configurations, goals),
        plan
    )
}

/// A CSV field: quoted (with doubled quotes) when it holds a comma, quote or line end.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corridor with a side pocket: agent 0 steps aside for agent 1.
    fn example() -> (Grid, Vec<CellId>, Vec<CellId>, Vec<Vec<CellId>>) {
        let rows = ["....", "#.##"];
        let grid = Grid::new(2, 4, |r, c| rows[r].as_bytes()[c] == b'.');
        let at = |r, c| grid.cell(r, c).unwrap();
        let starts = vec![at(0, 1), at(0, 0)];
        let goals = vec![at(0, 1), at(0, 3)];
        let plan = vec![
            vec![at(0, 1), at(0, 0)],
            vec![at(1, 1), at(0, 0)],
            vec![at(1, 1), at(0, 1)],
            vec![at(0, 1), at(0, 2)],
            vec![at(0, 1), at(0, 3)],
        ];
        (grid, starts, goals, plan)
    }

    #[test]
    fn result_file_as_lacam3_writes_it() {
        let (grid, starts, goals, plan) = example();
        let mut out = Vec::new();
        write_result(
            &mut out,
            &Report {
                grid: &grid,
                map_file: "pocket.map",
                solver: "ghosts",
                starts: &starts,
                goals: &goals,
                configurations: Some(&plan),
                soc_lb: 3,
                makespan_lb: 3,
                comp_time_ms: 12,
            },
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "agents=2\nmap_file=pocket.map\nsolver=ghosts\nsolved=1\nsoc=7\nsoc_lb=3\n\
             makespan=4\nmakespan_lb=3\ncomp_time=12\nstarts=(1,0),(0,0),\ngoals=(1,0),(3,0),\n\
             solution=\n0:(1,0),(0,0),\n1:(1,1),(0,0),\n2:(1,1),(1,0),\n3:(1,0),(2,0),\n\
             4:(1,0),(3,0),\n"
        );
    }

    #[test]
    fn tracker_row_and_moves() {
        let (grid, _, goals, plan) = example();
        assert_eq!(agent_costs(&plan, &goals), [3, 4]);
        let instance = TrackerInstance::from_scen_stem("pocket-2-random-7").unwrap();
        assert_eq!(instance.map_name, "pocket-2");
        assert_eq!(
            tracker_row(&instance, &grid, &plan, &goals, 3),
            "pocket-2,random,7,2,3,7,\"dwu\nwrrr\""
        );
        assert_eq!(TrackerInstance::from_scen_stem("pocket"), None);
        assert_eq!(TrackerInstance::from_scen_stem("a-b-x"), None);
        assert_eq!(csv_field("a,b\"c"), "\"a,b\"\"c\"");
    }
}

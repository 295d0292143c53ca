//! Unsolvable instances told apart without search: a sound test (it says "never" only
//! when no plan exists), complete for the components that are paths or cycles.
//!
//! Why these cases: an agent whose goal lies in another component never gets there; on a
//! path no agent can pass another, so the agents must meet their goals in the order they
//! start in; on a cycle they keep their cyclic order, and a full cycle only turns as a
//! whole. These are the shapes where narrow maps (corridors, the generator's pockets that
//! are too short) make an instance unsolvable. On other components (trees with
//! branches, maps with rooms) the test says nothing, and the exact searches decide
//! (the linear-time characterisation of Yu and Rus, 2014, for general graphs is not
//! implemented).
//!
//! # Complexity
//! O(C + K) for C cells and K agents.

use grid_core::bfs::UNREACHABLE;
use grid_core::{CellId, Grid};

use super::Instance;

/// What the test found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No plan exists (proved).
    Never,
    /// The test cannot tell.
    Unknown,
}

/// The sound test of the module documentation.
///
/// # Complexity
/// O(C + K).
pub fn check(instance: &Instance<'_>) -> Verdict {
    let k = instance.starts.len();
    for a in 0..k {
        if instance.distance(a, instance.starts[a]) == UNREACHABLE {
            return Verdict::Never;
        }
    }
    let grid = instance.grid;
    let cells = grid.cell_count();
    // Agent on each cell at the start and at the goals.
    let mut start_of = vec![u32::MAX; cells];
    let mut goal_of = vec![u32::MAX; cells];
    for a in 0..k {
        start_of[instance.starts[a].index()] = a as u32;
        goal_of[instance.goals[a].index()] = a as u32;
    }
    let mut component = vec![u32::MAX; cells];
    let mut members: Vec<CellId> = Vec::new();
    for first in grid.cells() {
        if component[first.index()] != u32::MAX {
            continue;
        }
        members.clear();
        members.push(first);
        component[first.index()] = first.index() as u32;
        let mut head = 0;
        while head < members.len() {
            let cell = members[head];
            head += 1;
            for (_, next) in grid.neighbours(cell) {
                if component[next.index()] == u32::MAX {
                    component[next.index()] = first.index() as u32;
                    members.push(next);
                }
            }
        }
        let degree = |c: CellId| grid.neighbours(c).count();
        if members.len() < 2 || members.iter().any(|&c| degree(c) > 2) {
            continue;
        }
        let ends: Vec<CellId> = members
            .iter()
            .copied()
            .filter(|&c| degree(c) == 1)
            .collect();
        let walk_from = ends.first().copied().unwrap_or(first);
        let order = walk(grid, walk_from, members.len());
        let starts: Vec<u32> = order
            .iter()
            .map(|c| start_of[c.index()])
            .filter(|&a| a != u32::MAX)
            .collect();
        let goals: Vec<u32> = order
            .iter()
            .map(|c| goal_of[c.index()])
            .filter(|&a| a != u32::MAX)
            .collect();
        if starts.len() < 2 {
            continue;
        }
        if !ends.is_empty() {
            if starts != goals {
                return Verdict::Never;
            }
            continue;
        }
        // A cycle: the cyclic orders must agree; when full, it only turns as a whole.
        let Some(shift) = goals.iter().position(|&a| a == starts[0]) else {
            return Verdict::Never;
        };
        let same_cycle = (0..starts.len()).all(|i| starts[i] == goals[(i + shift) % goals.len()]);
        if !same_cycle {
            return Verdict::Never;
        }
        if starts.len() == order.len() {
            let position = |cells: &[u32], agent: u32| cells.iter().position(|&a| a == agent);
            let starts_at: Vec<u32> = order.iter().map(|c| start_of[c.index()]).collect();
            let goals_at: Vec<u32> = order.iter().map(|c| goal_of[c.index()]).collect();
            let (Some(s0), Some(g0)) = (
                position(&starts_at, starts[0]),
                position(&goals_at, starts[0]),
            ) else {
                return Verdict::Never;
            };
            let turn = (g0 + order.len() - s0) % order.len();
            let turned =
                (0..order.len()).all(|i| starts_at[i] == goals_at[(i + turn) % order.len()]);
            if !turned {
                return Verdict::Never;
            }
        }
    }
    Verdict::Unknown
}

/// The cells of a path or cycle component in order, from `from` (an end of a path).
fn walk(grid: &Grid, from: CellId, len: usize) -> Vec<CellId> {
    let mut order = Vec::with_capacity(len);
    let mut previous: Option<CellId> = None;
    let mut cell = from;
    loop {
        order.push(cell);
        if order.len() == len {
            return order;
        }
        // Every cell has at most two neighbours: go on to the one not just left.
        match grid
            .neighbours(cell)
            .map(|(_, n)| n)
            .find(|&n| Some(n) != previous)
        {
            Some(n) if n != from => {
                previous = Some(cell);
                cell = n;
            }
            _ => return order,
        }
    }
}

//! Prioritized planning for the sum of costs: agents one after another, each by the
//! makespan's safe-interval search ([`crate::mapf::constructive`]) around the agents
//! planned before it, to the earliest time from which its goal stays free for good,
//! within what is left of the budget of extra steps.
//!
//! Why: on most benchmark instances some order of the agents reaches the lower bound (the
//! sum of the single-agent distances) or comes within a few steps of it, and one search
//! per agent is far cheaper than a SAT decision. It is incomplete: a failure proves
//! nothing, and the caller then asks [`super::encoding`] (on a core of agents,
//! [`super::core`]).
//!
//! Each agent `a` gets the deadline `d_a + left`, where `d_a` is its distance and `left`
//! the budget of extra steps that the agents before it did not use, so the plan of every
//! agent placed costs at most the lower bound plus the budget. Paths are kept to the
//! common horizon H (the largest deadline), padded with the goal: an agent that has
//! arrived stays, and the agents after it keep off its goal.
//!
//! Why the makespan's search rather than one of its own: this module had a breadth-first
//! search over every (cell, time) pair within the agent's slack and a reservation table of
//! map x horizon (8 bytes a pair); on the benchmark's large maps that table alone is
//! hundreds of MiB (Boston_0_256, 47 000 cells, H = 500: 190 MiB, cleared for every
//! priority order), and with 50 agents the budget Delta = 0 was not even decided within
//! 30 s. The safe-interval search reaches about the path's length in states on open
//! ground, and its reservations follow the paths.
//!
//! # Complexity
//! Per attempt, K searches of [`crate::mapf::constructive`] (each O(N (log N + log R))
//! for the N states it reaches); memory O(K x H) for the paths and reservations, O(C) for
//! the per-cell lists, O(N) for one search.

use grid_core::Grid;

use crate::mapf::Instance;
use crate::mapf::constructive::{self, Noise, Planner};

/// Memory [`plan_all`] and [`plan_around`] take at horizon `horizon` for `agents` agents
/// on `grid`, in bytes (as the makespan's planning at that horizon).
pub fn memory_need(grid: &Grid, horizon: u32, agents: usize) -> u64 {
    constructive::memory_need(grid, horizon, agents)
}

/// Single-agent distances of `instance`'s agents (every agent reaches its goal).
pub fn distances(instance: &Instance<'_>) -> Vec<u32> {
    (0..instance.starts.len())
        .map(|a| instance.distance(a, instance.starts[a]))
        .collect()
}

/// The cost of each path (the step at which it reaches `goal` for the last time).
pub fn cost(path: &[u32], goal: u32) -> u32 {
    path.iter()
        .rposition(|&v| v != goal)
        .map_or(0, |t| t as u32 + 1)
}

/// Plans every agent of `instance` with at most `delta` extra steps in all (horizon
/// `horizon`, at least the largest distance plus `delta`), trying `attempts` priority
/// orders: the first longest distance first, then the agent that failed moved to the
/// front, with random ties. `None` when every attempt left some agent without a path, or
/// when `stop` (asked before each agent's search) said so.
///
/// # Complexity
/// See the module documentation, times `attempts`.
pub fn plan_all(
    instance: &Instance<'_>,
    delta: u32,
    horizon: u32,
    attempts: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Vec<Vec<u32>>> {
    let k = instance.starts.len();
    let d = distances(instance);
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&a| std::cmp::Reverse(d[a]));
    let mut planner = Planner::new(instance, horizon);
    let mut rng = Noise(0x50C0_57ED_0F91_A4C3);
    for _ in 0..attempts.max(1) {
        planner.clear();
        let mut left = delta;
        let mut stopped = false;
        let stuck = order.iter().position(|&a| {
            stopped = stop();
            if stopped {
                return true;
            }
            match planner.plan_by(a, d[a] + left) {
                Some(cost) => {
                    left -= cost - d[a];
                    false
                }
                None => true,
            }
        });
        if stopped {
            return None;
        }
        match stuck {
            None => return Some(planner.into_paths()),
            Some(rank) => rng.stuck_first(&mut order, rank),
        }
    }
    None
}

/// Plans the agents that `fixed` leaves without a path around the paths it gives (each
/// of `horizon + 1` cells, kept as they are), fewest distance last, with what the fixed
/// paths leave of `delta` extra steps. `Ok` with every path, or `Err` with the agents
/// that found no way (each tried around the fixed paths and the ones planned before it;
/// one that fails is left out, so the others still get a chance).
///
/// # Complexity
/// As one attempt of [`plan_all`].
pub fn plan_around(
    instance: &Instance<'_>,
    delta: u32,
    horizon: u32,
    fixed: &[Option<Vec<u32>>],
) -> Result<Vec<Vec<u32>>, Vec<usize>> {
    let d = distances(instance);
    let mut planner = Planner::new(instance, horizon);
    let mut free: Vec<usize> = Vec::new();
    let mut used = 0u32;
    for (a, path) in fixed.iter().enumerate() {
        match path {
            Some(path) => {
                used += cost(path, instance.goals[a].index() as u32) - d[a];
                planner.reserve(a, path.clone());
            }
            None => free.push(a),
        }
    }
    let mut left = delta.saturating_sub(used);
    free.sort_by_key(|&a| std::cmp::Reverse(d[a]));
    let failed: Vec<usize> = free
        .into_iter()
        .filter(|&a| match planner.plan_by(a, d[a] + left) {
            Some(cost) => {
                left -= cost - d[a];
                false
            }
            None => true,
        })
        .collect();
    if failed.is_empty() {
        Ok(planner.into_paths())
    } else {
        Err(failed)
    }
}

//! Prioritized planning at a fixed horizon: agents one after another, each by a
//! breadth-first search over (cell, time) that avoids the cells and moves of the agents
//! planned before it, all of them at their goals at time T.
//!
//! Why this method: it is fast (one space-time search per agent) and, at T = the lower
//! bound (the largest single-agent distance), a plan it finds is optimal at once, which is
//! what happens on most benchmark instances. It is incomplete: a failure proves nothing,
//! and the caller then asks the exact decision procedure ([`super::sat`]).
//!
//! Because every agent's plan has exactly T steps and ends at its goal, reservations up to
//! T are the whole story: nobody moves after T.
//!
//! # Complexity
//! O(K x T x C) per attempt for K agents, horizon T and C cells (the searches visit only
//! the cells from which the goal is still within reach, usually far fewer); memory
//! O(T x C) for the reservation table and the search's parent marks.

use grid_core::{CellId, Grid};

use super::Instance;
use crate::moves::Options;

/// Nobody on this cell at this time, in the reservation table.
const FREE: u32 = u32::MAX;

/// Not reached in the space-time search.
const UNSEEN: u32 = u32::MAX;

/// Plans for every agent at horizon `horizon`, trying `attempts` priority orders (the
/// first: longest distance first; then the agents that failed moved to the front, with
/// random ties). `None` when every attempt left some agent without a path.
///
/// # Complexity
/// See the module documentation, times `attempts`.
pub fn plan_at(instance: &Instance<'_>, horizon: u32, attempts: usize) -> Option<Vec<Vec<u32>>> {
    let k = instance.starts.len();
    let cells = instance.grid.cell_count();
    let t_max = horizon as usize;
    let options = Options::new(instance.grid);
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&a| std::cmp::Reverse(instance.distance(a, instance.starts[a])));
    let mut rng = Noise(0x5EED_0F91_A4C3_2D17);
    let mut table = vec![FREE; (t_max + 1) * cells];
    let mut parent = vec![UNSEEN; (t_max + 1) * cells];
    let mut layer: Vec<u32> = Vec::new();
    let mut next_layer: Vec<u32> = Vec::new();
    for _ in 0..attempts.max(1) {
        table.fill(FREE);
        let mut paths: Vec<Vec<u32>> = vec![Vec::new(); k];
        let mut failed = None;
        for (rank, &a) in order.iter().enumerate() {
            let goal = instance.goals[a].index() as u32;
            let start = instance.starts[a].index() as u32;
            let dist = instance.distances(a);
            // Layered search over time; parent[t * C + v] = the cell at t - 1.
            let mut touched: Vec<usize> = Vec::new();
            layer.clear();
            layer.push(start);
            if table[start as usize] != FREE || dist[start as usize] as usize > t_max {
                failed = Some(rank);
                break;
            }
            parent[start as usize] = start;
            touched.push(start as usize);
            for t in 0..t_max {
                next_layer.clear();
                let row = (t + 1) * cells;
                for &v in &layer {
                    for &u in options.of(v) {
                        let at = row + u as usize;
                        if parent[at] != UNSEEN
                            || dist[u as usize] as usize > t_max - t - 1
                            || table[at] != FREE
                        {
                            continue;
                        }
                        // No swap with a planned agent: whoever is on u at t must not be
                        // on v at t + 1.
                        if u != v {
                            let other = table[t * cells + u as usize];
                            if other != FREE && table[row + v as usize] == other {
                                continue;
                            }
                        }
                        parent[at] = v;
                        touched.push(at);
                        next_layer.push(u);
                    }
                }
                std::mem::swap(&mut layer, &mut next_layer);
                if layer.is_empty() {
                    break;
                }
            }
            let reached = parent[t_max * cells + goal as usize] != UNSEEN;
            if reached {
                let mut path = vec![0u32; t_max + 1];
                let mut v = goal;
                for t in (0..=t_max).rev() {
                    path[t] = v;
                    table[t * cells + v as usize] = a as u32;
                    v = parent[t * cells + v as usize];
                }
                paths[a] = path;
            }
            for at in touched {
                parent[at] = UNSEEN;
            }
            if !reached {
                failed = Some(rank);
                break;
            }
        }
        match failed {
            None => return Some(paths),
            Some(rank) => {
                // The agent that found no way goes first next time; the rest keep their
                // order with a little noise, so attempts differ.
                let stuck = order.remove(rank);
                order.insert(0, stuck);
                for i in 1..order.len() {
                    if rng.next() % 5 == 0 {
                        let j = 1 + (rng.next() % (order.len() as u64 - 1)) as usize;
                        order.swap(i, j);
                    }
                }
            }
        }
    }
    None
}

/// Cells of a plan in [`CellId`]s, steps 1..=T, one placement per step.
pub fn to_placements(paths: &[Vec<u32>], horizon: u32) -> Vec<Vec<CellId>> {
    (1..=horizon as usize)
        .map(|t| paths.iter().map(|p| CellId::new(p[t] as usize)).collect())
        .collect()
}

/// Memory [`plan_at`] needs at `horizon` on `grid`, in bytes: its reservation and parent
/// tables and the move table.
pub fn memory_need(grid: &Grid, horizon: u32, agents: usize) -> u64 {
    let cells = grid.cell_count() as u64;
    (u64::from(horizon) + 1) * cells * 8 + cells * 24 + agents as u64 * (u64::from(horizon) + 1) * 4
}

/// A xorshift generator for the order noise (grid-core's seeded generator is a test and
/// generator tool, behind its `generate` feature).
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

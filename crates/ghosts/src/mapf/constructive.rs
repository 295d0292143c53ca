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
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&a| std::cmp::Reverse(instance.distance(a, instance.starts[a])));
    let mut planner = Planner::new(instance, horizon);
    let mut rng = Noise(0x5EED_0F91_A4C3_2D17);
    for _ in 0..attempts.max(1) {
        planner.clear();
        match order.iter().position(|&a| !planner.plan(a)) {
            None => return Some(planner.paths),
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

/// Plans at horizon `horizon` for the agents that `fixed` leaves without a path, around
/// the paths it gives (every cell at 0..=T, kept as they are), fewest slack first.
/// `Ok` with every agent's path, or `Err` with the agents that found no way (each of them
/// was tried around the fixed paths and the ones planned before it; one that fails is
/// left out, so the others still get a chance).
///
/// # Complexity
/// O(K x T x C), as one attempt of [`plan_at`].
pub fn plan_around(
    instance: &Instance<'_>,
    horizon: u32,
    fixed: &[Option<Vec<u32>>],
) -> Result<Vec<Vec<u32>>, Vec<usize>> {
    let mut planner = Planner::new(instance, horizon);
    let mut free: Vec<usize> = Vec::new();
    for (a, path) in fixed.iter().enumerate() {
        match path {
            Some(path) => planner.reserve(a, path.clone()),
            None => free.push(a),
        }
    }
    free.sort_by_key(|&a| std::cmp::Reverse(instance.distance(a, instance.starts[a])));
    let failed: Vec<usize> = free.into_iter().filter(|&a| !planner.plan(a)).collect();
    if failed.is_empty() {
        Ok(planner.paths)
    } else {
        Err(failed)
    }
}

/// One space-time search per agent over a shared reservation table.
struct Planner<'i, 'a> {
    instance: &'i Instance<'a>,
    options: Options,
    cells: usize,
    t_max: usize,
    /// Agent on (t, cell), at `t * C + cell`.
    table: Vec<u32>,
    /// Cell at t - 1 of the search's path to (t, cell); [`UNSEEN`] when not reached.
    parent: Vec<u32>,
    layer: Vec<u32>,
    next_layer: Vec<u32>,
    touched: Vec<usize>,
    /// Every agent's path so far (empty: not planned).
    paths: Vec<Vec<u32>>,
}

impl<'i, 'a> Planner<'i, 'a> {
    fn new(instance: &'i Instance<'a>, horizon: u32) -> Self {
        let cells = instance.grid.cell_count();
        let t_max = horizon as usize;
        Planner {
            instance,
            options: Options::new(instance.grid),
            cells,
            t_max,
            table: vec![FREE; (t_max + 1) * cells],
            parent: vec![UNSEEN; (t_max + 1) * cells],
            layer: Vec::new(),
            next_layer: Vec::new(),
            touched: Vec::new(),
            paths: vec![Vec::new(); instance.starts.len()],
        }
    }

    /// Forgets every path.
    fn clear(&mut self) {
        self.table.fill(FREE);
        self.paths.iter_mut().for_each(Vec::clear);
    }

    /// Takes `path` as agent `a`'s.
    fn reserve(&mut self, a: usize, path: Vec<u32>) {
        for (t, &v) in path.iter().enumerate() {
            self.table[t * self.cells + v as usize] = a as u32;
        }
        self.paths[a] = path;
    }

    /// Plans agent `a` around the reservations and reserves its path; false when it has
    /// none.
    fn plan(&mut self, a: usize) -> bool {
        let (cells, t_max) = (self.cells, self.t_max);
        let instance = self.instance;
        let goal = instance.goals[a].index() as u32;
        let start = instance.starts[a].index() as u32;
        let dist = instance.distances(a);
        if self.table[start as usize] != FREE || dist[start as usize] as usize > t_max {
            return false;
        }
        // Layered search over time; parent[t * C + v] = the cell at t - 1.
        self.layer.clear();
        self.layer.push(start);
        self.parent[start as usize] = start;
        self.touched.push(start as usize);
        for t in 0..t_max {
            self.next_layer.clear();
            let row = (t + 1) * cells;
            for &v in &self.layer {
                for &u in self.options.of(v) {
                    let at = row + u as usize;
                    if self.parent[at] != UNSEEN
                        || dist[u as usize] as usize > t_max - t - 1
                        || self.table[at] != FREE
                    {
                        continue;
                    }
                    // No swap with a planned agent: whoever is on u at t must not be on
                    // v at t + 1.
                    if u != v {
                        let other = self.table[t * cells + u as usize];
                        if other != FREE && self.table[row + v as usize] == other {
                            continue;
                        }
                    }
                    self.parent[at] = v;
                    self.touched.push(at);
                    self.next_layer.push(u);
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next_layer);
            if self.layer.is_empty() {
                break;
            }
        }
        let reached = self.parent[t_max * cells + goal as usize] != UNSEEN;
        if reached {
            let mut path = vec![0u32; t_max + 1];
            let mut v = goal;
            for t in (0..=t_max).rev() {
                path[t] = v;
                v = self.parent[t * cells + v as usize];
            }
            self.reserve(a, path);
        }
        for at in self.touched.drain(..) {
            self.parent[at] = UNSEEN;
        }
        reached
    }
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

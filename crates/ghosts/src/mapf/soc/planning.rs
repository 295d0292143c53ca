//! Prioritized planning for the sum of costs: agents one after another, each by a
//! breadth-first search over (cell, time) around the agents planned before it, to the
//! earliest time from which its goal stays free for good, within what is left of the
//! budget of extra steps.
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
//! # Complexity
//! O(K x H x C) per attempt for K agents and C cells (each search visits only the cells
//! from which its goal is within reach of its deadline, usually far fewer); memory
//! O(H x C) for the reservation table and the search's parent marks.

use grid_core::Grid;

use crate::mapf::Instance;
use crate::moves::Options;

/// Nobody on this cell at this time, in the reservation table; no time, in the last-busy
/// table.
const FREE: u32 = u32::MAX;

/// Not reached in the space-time search.
const UNSEEN: u32 = u32::MAX;

/// Memory [`Planner::new`] takes at horizon `horizon` for `agents` agents on `grid`, in
/// bytes: its reservation and parent tables, the move table and the paths.
pub fn memory_need(grid: &Grid, horizon: u32, agents: usize) -> u64 {
    let cells = grid.cell_count() as u64;
    let steps = u64::from(horizon) + 1;
    steps * cells * 8 + cells * 28 + agents as u64 * steps * 4
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
/// front, with random ties. `None` when every attempt left some agent without a path.
///
/// # Complexity
/// See the module documentation, times `attempts`.
pub fn plan_all(
    instance: &Instance<'_>,
    delta: u32,
    horizon: u32,
    attempts: usize,
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
        let stuck = order
            .iter()
            .position(|&a| match planner.plan(a, d[a] + left) {
                Some(cost) => {
                    left -= cost - d[a];
                    false
                }
                None => true,
            });
        match stuck {
            None => return Some(planner.paths),
            Some(rank) => {
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

/// Plans the agents that `fixed` leaves without a path around the paths it gives (each
/// of `horizon + 1` cells, kept as they are), fewest distance last, with what the fixed
/// paths leave of `delta` extra steps. `Ok` with every path, or `Err` with the agents
/// that found no way (each tried around the fixed paths and the ones planned before it;
/// one that fails is left out, so the others still get a chance).
///
/// # Complexity
/// O(K x H x C), as one attempt of [`plan_all`].
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
        .filter(|&a| match planner.plan(a, d[a] + left) {
            Some(cost) => {
                left -= cost - d[a];
                false
            }
            None => true,
        })
        .collect();
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
    horizon: usize,
    /// Agent on (t, cell), at `t * C + cell`.
    table: Vec<u32>,
    /// Per cell, the last time a planned agent is on it ([`FREE`]: never).
    last_busy: Vec<u32>,
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
        let horizon = horizon as usize;
        Planner {
            instance,
            options: Options::new(instance.grid),
            cells,
            horizon,
            table: vec![FREE; (horizon + 1) * cells],
            last_busy: vec![FREE; cells],
            parent: vec![UNSEEN; (horizon + 1) * cells],
            layer: Vec::new(),
            next_layer: Vec::new(),
            touched: Vec::new(),
            paths: vec![Vec::new(); instance.starts.len()],
        }
    }

    /// Forgets every path.
    fn clear(&mut self) {
        self.table.fill(FREE);
        self.last_busy.fill(FREE);
        self.paths.iter_mut().for_each(Vec::clear);
    }

    /// Takes `path` (every cell at 0..=H) as agent `a`'s.
    fn reserve(&mut self, a: usize, path: Vec<u32>) {
        for (t, &v) in path.iter().enumerate() {
            self.table[t * self.cells + v as usize] = a as u32;
            let last = &mut self.last_busy[v as usize];
            if *last == FREE || *last < t as u32 {
                *last = t as u32;
            }
        }
        self.paths[a] = path;
    }

    /// Plans agent `a` around the reservations, arriving for good by `deadline` at the
    /// latest, and reserves its path: its cost, or `None` when it has no such path.
    fn plan(&mut self, a: usize, deadline: u32) -> Option<u32> {
        let cells = self.cells;
        let deadline = (deadline as usize).min(self.horizon);
        let instance = self.instance;
        let goal = instance.goals[a].index() as u32;
        let start = instance.starts[a].index() as u32;
        let dist = instance.distances(a);
        if self.table[start as usize] != FREE || dist[start as usize] as usize > deadline {
            return None;
        }
        // The goal is free for good from this time on.
        let settled = match self.last_busy[goal as usize] {
            FREE => 0,
            t => t as usize + 1,
        };
        self.layer.clear();
        self.layer.push(start);
        self.parent[start as usize] = start;
        self.touched.push(start as usize);
        let mut arrival = None;
        for t in 0..=deadline {
            if t >= settled && self.parent[t * cells + goal as usize] != UNSEEN {
                arrival = Some(t);
                break;
            }
            if t == deadline {
                break;
            }
            self.next_layer.clear();
            let row = (t + 1) * cells;
            for &v in &self.layer {
                for &u in self.options.of(v) {
                    let at = row + u as usize;
                    if self.parent[at] != UNSEEN
                        || dist[u as usize] as usize > deadline - t - 1
                        || self.table[at] != FREE
                    {
                        continue;
                    }
                    // No swap with a planned agent.
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
        let found = arrival.map(|arrival| {
            let mut path = vec![goal; self.horizon + 1];
            let mut v = goal;
            for t in (0..=arrival).rev() {
                path[t] = v;
                v = self.parent[t * cells + v as usize];
            }
            path
        });
        for at in self.touched.drain(..) {
            self.parent[at] = UNSEEN;
        }
        let path = found?;
        let cost = cost(&path, goal);
        self.reserve(a, path);
        Some(cost)
    }
}

/// A xorshift generator for the order noise.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

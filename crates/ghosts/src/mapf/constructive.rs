//! Prioritized planning at a fixed horizon: agents one after another, each by a
//! space-time A* over (cell, time) that avoids the cells and moves of the agents planned
//! before it, all of them at their goals at time T.
//!
//! Why this method: it is fast (one directed search per agent) and, at T = the lower
//! bound (the largest single-agent distance), a plan it finds is optimal at once, which is
//! what happens on most benchmark instances. It is incomplete: a failure proves nothing,
//! and the caller then asks the exact decision procedure ([`super::sat`]).
//!
//! Because every agent's plan has exactly T steps and ends at its goal, reservations up to
//! T are the whole story: nobody moves after T.
//!
//! Why A* over sparse reservations: on a large map with slack (Paris_1_256, 200 agents,
//! T = 445: 47 000 cells, 21 million (cell, time) pairs), a breadth-first search over
//! every pair each agent could still use, and a table of map x horizon, took 33 CPU s
//! (97 % of it in those searches, measured with `perf`); the agent's own path is a few
//! hundred pairs. The A* orders (cell, time) by t + distance home (every step, a wait
//! too, costs one: the time is the cost so far, so the first time a pair is reached is
//! final), ties to the later time, and so walks straight home where nobody is in the
//! way. The reservations are kept per cell as the sorted times an agent is there before
//! it stays home for good, plus the one agent that stays on it from some time on: memory
//! follows the paths, not map x horizon.
//!
//! # Complexity
//! Per agent O(N log N) for the N pairs the search reaches (at most (T + 1) x C, and at
//! most [`SEARCH_NODES`]: past that the agent counts as having no way); the pairs
//! reached are about the path's length on open ground. Memory: O(K x T) for the paths and
//! reservations, O(C) per cell lists, O(N) for one search.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use grid_core::{CellId, Grid};

use super::Instance;
use crate::moves::Options;

/// The most (cell, time) pairs one agent's search reaches before it gives up: a bound on
/// its memory (about [`BYTES_PER_NODE`] each) and time. An agent that gives up counts as
/// having no way, which prioritized planning may say anyway (it proves nothing).
pub const SEARCH_NODES: usize = 1 << 21;

/// Bytes of one search node, at most: its parent entry in the hash map (16 bytes and a
/// control byte, in a table up to twice as large as its entries) and its heap entry (12
/// bytes, in a vector up to twice as large): 58.
const BYTES_PER_NODE: u64 = 64;

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
/// As one attempt of [`plan_at`].
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

/// The planned agents on the cells over time.
///
/// Invariant: every planned path is in here, each (cell, time) at most once: the times
/// before the agent stays on its last cell for good in `visits`, the rest in `stays`.
struct Reservations {
    /// Per cell: (time, agent) for every time an agent is on it before its stay, sorted
    /// by time.
    visits: Vec<Vec<(u32, u32)>>,
    /// Per cell: the agent that is on it from a time to T, and that time.
    stays: Vec<Option<Stay>>,
}

/// An agent on a cell from `from` to the horizon.
#[derive(Debug, Clone, Copy)]
struct Stay {
    from: u32,
    agent: u32,
}

impl Reservations {
    fn new(cells: usize) -> Self {
        Reservations {
            visits: vec![Vec::new(); cells],
            stays: vec![None; cells],
        }
    }

    /// The agent on `cell` at `time`, if any.
    #[inline]
    fn agent_at(&self, cell: u32, time: u32) -> Option<u32> {
        if let Some(stay) = self.stays[cell as usize].filter(|stay| stay.from <= time) {
            return Some(stay.agent);
        }
        let visits = &self.visits[cell as usize];
        visits
            .binary_search_by_key(&time, |&(t, _)| t)
            .ok()
            .map(|i| visits[i].1)
    }

    /// Whether nobody is on `cell` at `time` or later.
    fn free_from(&self, cell: u32, time: u32) -> bool {
        self.stays[cell as usize].is_none()
            && self.visits[cell as usize]
                .last()
                .is_none_or(|&(t, _)| t < time)
    }

    /// The first time from which nobody but a staying agent is on `cell` any more.
    fn free_after(&self, cell: u32) -> u32 {
        self.visits[cell as usize].last().map_or(0, |&(t, _)| t + 1)
    }

    /// Adds agent `agent`'s `path` (its cell at 0..=T).
    fn add(&mut self, agent: u32, path: &[u32]) {
        let Some(&last) = path.last() else {
            return;
        };
        let stay = path.len() - path.iter().rev().take_while(|&&v| v == last).count();
        for (t, &v) in path.iter().enumerate().take(stay) {
            let visits = &mut self.visits[v as usize];
            let at = visits.partition_point(|&(s, _)| s < t as u32);
            visits.insert(at, (t as u32, agent));
        }
        self.stays[last as usize] = Some(Stay {
            from: stay as u32,
            agent,
        });
    }

    /// Removes every path of `paths`.
    fn remove_all(&mut self, paths: &[Vec<u32>]) {
        for path in paths {
            for &v in path {
                self.visits[v as usize].clear();
                self.stays[v as usize] = None;
            }
        }
    }
}

/// A (cell, time) pair waiting in the search's queue: the least `t + distance home`
/// first, then the latest time (deepest first, straight home on open ground), then the
/// lowest cell number (so that runs repeat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    estimate: u32,
    time: u32,
    cell: u32,
}

impl Ord for Node {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: the smallest estimate is the greatest.
        other
            .estimate
            .cmp(&self.estimate)
            .then(self.time.cmp(&other.time))
            .then(other.cell.cmp(&self.cell))
    }
}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A multiplicative hash for the search's keys (time x C + cell): plain integers, so the
/// default SipHash's protection against chosen keys buys nothing here.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = (key ^ (key >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// One space-time search per agent over shared reservations.
struct Planner<'i, 'a> {
    instance: &'i Instance<'a>,
    options: Options,
    horizon: u32,
    reservations: Reservations,
    /// The search's reached pairs (key time x C + cell) and the cell each came from.
    parent: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    queue: BinaryHeap<Node>,
    /// Every agent's path so far (empty: not planned).
    paths: Vec<Vec<u32>>,
}

impl<'i, 'a> Planner<'i, 'a> {
    fn new(instance: &'i Instance<'a>, horizon: u32) -> Self {
        let cells = instance.grid.cell_count();
        Planner {
            instance,
            options: Options::new(instance.grid),
            horizon,
            reservations: Reservations::new(cells),
            parent: HashMap::default(),
            queue: BinaryHeap::new(),
            paths: vec![Vec::new(); instance.starts.len()],
        }
    }

    /// Forgets every path.
    fn clear(&mut self) {
        self.reservations.remove_all(&self.paths);
        self.paths.iter_mut().for_each(Vec::clear);
    }

    /// Takes `path` as agent `a`'s.
    fn reserve(&mut self, a: usize, path: Vec<u32>) {
        self.reservations.add(a as u32, &path);
        self.paths[a] = path;
    }

    /// Plans agent `a` around the reservations and reserves its path; false when it has
    /// none (or its search passed [`SEARCH_NODES`]).
    fn plan(&mut self, a: usize) -> bool {
        let path = self.search(a);
        self.parent.clear();
        self.queue.clear();
        match path {
            Some(path) => {
                self.reserve(a, path);
                true
            }
            None => false,
        }
    }

    /// The space-time A* of the module documentation for agent `a`.
    fn search(&mut self, a: usize) -> Option<Vec<u32>> {
        let horizon = self.horizon;
        let cells = self.instance.grid.cell_count() as u64;
        let goal = self.instance.goals[a].index() as u32;
        let start = self.instance.starts[a].index() as u32;
        let dist = self.instance.distances(a);
        let key = |cell: u32, time: u32| u64::from(time) * cells + u64::from(cell);
        if self.reservations.agent_at(start, 0).is_some() || dist[start as usize] > horizon {
            return None;
        }
        // The agent cannot stay home before the last time another one passes there: a
        // bound on its arrival that t + distance misses, and without which the search
        // would fill every pair of a lower estimate first.
        let home_free = self.reservations.free_after(goal);
        self.parent.insert(key(start, 0), start);
        self.queue.push(Node {
            estimate: dist[start as usize].max(home_free),
            time: 0,
            cell: start,
        });
        while let Some(Node { time, cell: v, .. }) = self.queue.pop() {
            if v == goal && self.reservations.free_from(goal, time) {
                let mut path = vec![goal; horizon as usize + 1];
                let mut at = goal;
                for t in (0..=time).rev() {
                    path[t as usize] = at;
                    at = self.parent[&key(at, t)];
                }
                return Some(path);
            }
            if time == horizon {
                continue;
            }
            let next = time + 1;
            for &u in self.options.of(v) {
                let estimate = next.saturating_add(dist[u as usize]);
                if estimate > horizon || self.parent.contains_key(&key(u, next)) {
                    continue;
                }
                let estimate = estimate.max(home_free);
                if self.reservations.agent_at(u, next).is_some() {
                    continue;
                }
                // No swap with a planned agent: whoever is on u at t must not be on v
                // at t + 1.
                if u != v {
                    let other = self.reservations.agent_at(u, time);
                    if other.is_some() && self.reservations.agent_at(v, next) == other {
                        continue;
                    }
                }
                if self.parent.len() >= SEARCH_NODES {
                    return None;
                }
                self.parent.insert(key(u, next), v);
                self.queue.push(Node {
                    estimate,
                    time: next,
                    cell: u,
                });
            }
        }
        None
    }
}

/// Cells of a plan in [`CellId`]s, steps 1..=T, one placement per step.
pub fn to_placements(paths: &[Vec<u32>], horizon: u32) -> Vec<Vec<CellId>> {
    (1..=horizon as usize)
        .map(|t| paths.iter().map(|p| CellId::new(p[t] as usize)).collect())
        .collect()
}

/// Memory [`plan_at`] needs at `horizon` on `grid`, in bytes: the move table and the
/// per-cell reservation lists, the paths and their reservations, and one search of at
/// most [`SEARCH_NODES`] pairs (fewer when map x horizon is smaller).
pub fn memory_need(grid: &Grid, horizon: u32, agents: usize) -> u64 {
    let cells = grid.cell_count() as u64;
    let pairs = (u64::from(horizon) + 1) * cells;
    cells * (24 + 24 + 12)
        + agents as u64 * (u64::from(horizon) + 1) * (4 + 8)
        + pairs.min(SEARCH_NODES as u64) * BYTES_PER_NODE
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

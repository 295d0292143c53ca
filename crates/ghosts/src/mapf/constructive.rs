//! Prioritized planning at a fixed horizon: agents one after another, each by a
//! space-time search that avoids the cells and moves of the agents planned before it, all
//! of them at their goals at time T.
//!
//! Why this method: it is fast (one directed search per agent) and, at T = the lower
//! bound (the largest single-agent distance), a plan it finds is optimal at once, which is
//! what happens on most benchmark instances. It is incomplete: a failure proves nothing,
//! and the caller then asks the exact decision procedure ([`super::sat`]).
//!
//! Because every agent's plan has exactly T steps and ends at its goal, reservations up to
//! T are the whole story: nobody moves after T.
//!
//! Why safe intervals over sparse reservations: on a large map with slack (Paris_1_256,
//! 200 agents, T = 445: 47 000 cells, 21 million (cell, time) pairs), a breadth-first
//! search over every pair each agent could still use, and a table of map x horizon, took
//! 33 CPU s (97 % of it in those searches, measured with `perf`); the agent's own path is
//! a few hundred pairs. An A* over (cell, time) pairs fixed that on open ground, but
//! where an agent must wait or go round (lak303d, 1000 agents) it still reached a median
//! of 6 500 and up to 750 000 pairs per agent (30 CPU s): every time shift of every cell
//! of a detour is a pair. So the search is SIPP (Phillips and Likhachev, ICRA 2011): a
//! state is a cell and one of its *safe intervals* (the times between two visits of
//! planned agents), entered at the earliest time found, waits implicit; the states are
//! ordered by t + distance home (and not home before the last time another agent passes
//! there), ties to the later time, so the agent walks straight home where nobody is in
//! the way. The reservations are kept per cell as the sorted times an agent is there
//! before it stays home for good, plus the one agent that stays on it from some time on:
//! memory follows the paths, not map x horizon.
//!
//! Why a second search, the breadth-first one over every (cell, time) pair, on small
//! maps: SIPP takes each agent home at the earliest time it can, and an agent parked on
//! its goal early walls off the corridor it sits in. The breadth-first search that came
//! before it (layers of time, each pair's parent the first one found, staying first)
//! reaches its goal at T, the latest time, and waits before on the cells found first,
//! near its start. On maze-32-32-4 `random-1` with 80 agents (bound 92), SIPP fails at 92
//! in all of 256 priority orders tried, and so does the breadth-first search when its
//! path is cut to reach home at the earliest time; the breadth-first path as it is plans
//! at 92 in the first order (0.02 s). So when every order fails with SIPP, map x
//! horizon is at most [`LAYERED_PAIRS`] and agents x map x horizon at most
//! [`LAYERED_WORK`], the orders are tried again with the breadth-first search: O(T x C)
//! per agent, cheap there, and its table is 4 bytes a pair.
//!
//! # Complexity
//! Per agent O(N (log N + log R)) for the N states the search reaches (cells x their
//! safe intervals, and at most [`SEARCH_NODES`]: past that the agent counts as having no
//! way) and R reservations a cell; on open ground N is about the path's length. Memory:
//! O(K x T) for the paths and reservations, O(C) per cell lists, O(N) for one search.
//! The breadth-first search: O(T x C x log R) per agent, O(T x C) memory.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use grid_core::{CellId, Grid};

use super::Instance;
use crate::moves::Options;

/// The most states one agent's search reaches before it gives up: a bound on its memory
/// (about [`BYTES_PER_NODE`] each) and time. An agent that gives up counts as having no
/// way, which prioritized planning may say anyway (it proves nothing).
pub const SEARCH_NODES: usize = 1 << 20;

/// States one agent's search takes from its queue between two looks at the clock, when it
/// has a time to give up at ([`Planner::give_up_at`]).
const CLOCK_EVERY: u32 = 1024;

/// The most (cell, time) pairs, (T + 1) x C, for which planning tries the breadth-first
/// search of the module documentation when SIPP fails: its parent table is 4 bytes a
/// pair (8 MiB here). The 92 instances of the sweep have at most 1.2 million.
pub const LAYERED_PAIRS: u64 = 1 << 21;

/// Bytes of one search state, at most: its record (12 bytes, in a vector up to twice as
/// large), its index entry (16 bytes and a control byte, in a table up to 2.3 times as
/// large as its entries) and its queue entries (16 bytes, in a vector up to twice as
/// large, once more when it is entered earlier later): 95.
const BYTES_PER_NODE: u64 = 96;

/// Plans for every agent at horizon `horizon`, trying `attempts` priority orders (the
/// first: longest distance first; then the agents that failed moved to the front, with
/// random ties). `None` when every attempt left some agent without a path.
///
/// # Complexity
/// See the module documentation, times `attempts`.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn plan_at(instance: &Instance<'_>, horizon: u32, attempts: usize) -> Option<Vec<Vec<u32>>> {
    plan_at_until(instance, horizon, attempts, &mut || false, None)
}

/// [`plan_at`] with the breadth-first search of the module documentation alone (SIPP not
/// tried first, and at any size): for the tests, which check its plans on their own.
///
/// # Complexity
/// O(K x T x C x log R) per attempt.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn plan_at_layered(
    instance: &Instance<'_>,
    horizon: u32,
    attempts: usize,
) -> Option<Vec<Vec<u32>>> {
    plan_with(
        instance,
        horizon,
        attempts,
        &[Search::Layered],
        &mut || false,
        None,
    )
}

/// [`plan_at`], giving up (`None`) when `stop` says so: it is asked before each agent's
/// search (one search is at most [`SEARCH_NODES`] states), and each search gives up at
/// `give_up` ([`Planner::give_up_at`]).
///
/// # Complexity
/// As [`plan_at`], or less when stopped.
pub fn plan_at_until(
    instance: &Instance<'_>,
    horizon: u32,
    attempts: usize,
    stop: &mut dyn FnMut() -> bool,
    give_up: Option<Instant>,
) -> Option<Vec<Vec<u32>>> {
    let searches: &[Search] = if layered_fits(instance.grid, horizon, instance.starts.len()) {
        &[Search::Sipp, Search::Layered]
    } else {
        &[Search::Sipp]
    };
    plan_with(instance, horizon, attempts, searches, stop, give_up)
}

/// [`plan_at_until`] with each of `searches` in turn, `attempts` orders each.
fn plan_with(
    instance: &Instance<'_>,
    horizon: u32,
    attempts: usize,
    searches: &[Search],
    stop: &mut dyn FnMut() -> bool,
    give_up: Option<Instant>,
) -> Option<Vec<Vec<u32>>> {
    let k = instance.starts.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&a| std::cmp::Reverse(instance.distance(a, instance.starts[a])));
    let mut planner = Planner::new(instance, horizon);
    planner.give_up_at(give_up);
    for &search in searches {
        planner.search = search;
        let mut order = order.clone();
        let mut rng = Noise(0x5EED_0F91_A4C3_2D17);
        for _ in 0..attempts.max(1) {
            planner.clear();
            let mut stopped = false;
            let failed = order.iter().position(|&a| {
                stopped = stop();
                stopped || !planner.plan(a)
            });
            if stopped {
                return None;
            }
            match failed {
                None => return Some(planner.paths),
                Some(rank) => rng.stuck_first(&mut order, rank),
            }
        }
    }
    None
}

/// The most (cell, time) pairs over all agents, K x (T + 1) x C, for which planning
/// tries the breadth-first search after SIPP: its time per order. Why: on room-64-64-16
/// with 1000 agents at T = 192 (700 000 pairs, 700 million over the agents) the eight
/// orders of the breadth-first search took 9 s, after SIPP's had failed in 0.2 s; on
/// empty-32-32 with 500 agents (28 million) 2.4 s, on random-32-32-20 with 400 (18
/// million) 0.8 s (wall, under load). maze-32-32-4 `random-1` with 80 agents has 6
/// million; with two orders instead of eight it was not planned.
pub const LAYERED_WORK: u64 = 1 << 24;

/// Whether planning at `horizon` on `grid` tries the breadth-first search after SIPP
/// for `agents` agents: (T + 1) x C at most [`LAYERED_PAIRS`], and K times that at most
/// [`LAYERED_WORK`].
fn layered_fits(grid: &Grid, horizon: u32, agents: usize) -> bool {
    let pairs = (u64::from(horizon) + 1) * grid.cell_count() as u64;
    pairs <= LAYERED_PAIRS && pairs.saturating_mul(agents as u64) <= LAYERED_WORK
}

/// Which search plans one agent (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Search {
    /// SIPP: home at the earliest time it can.
    Sipp,
    /// Breadth-first over (cell, time) pairs: home at T, waiting near its start.
    Layered,
}

/// Plans at horizon `horizon` for the agents that `fixed` leaves without a path, around
/// the paths it gives (every cell at 0..=T, kept as they are), fewest slack first.
/// `Ok` with every agent's path, or `Err` with the agents that found no way (each of them
/// was tried around the fixed paths and the ones planned before it; one that fails is
/// left out, so the others still get a chance).
///
/// # Complexity
/// As one attempt of [`plan_at`].
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn plan_around(
    instance: &Instance<'_>,
    horizon: u32,
    fixed: &[Option<Vec<u32>>],
) -> Result<Vec<Vec<u32>>, Vec<usize>> {
    plan_around_until(instance, horizon, fixed, &mut || false)
}

/// [`plan_around`], asking `stop` before each agent's search: once it says so, the agents
/// left count as having found no way.
///
/// # Complexity
/// As [`plan_around`], or less when stopped.
pub fn plan_around_until(
    instance: &Instance<'_>,
    horizon: u32,
    fixed: &[Option<Vec<u32>>],
    stop: &mut dyn FnMut() -> bool,
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
    let mut stopped = false;
    let failed: Vec<usize> = free
        .into_iter()
        .filter(|&a| {
            stopped = stopped || stop();
            stopped || !planner.plan(a)
        })
        .collect();
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

    /// The last time an agent on `cell` at `time` (a free time) may stay there: the step
    /// before the next one to come, or [`u32::MAX`] when nobody comes.
    fn safe_until(&self, cell: u32, time: u32) -> u32 {
        let visits = &self.visits[cell as usize];
        let next = visits.partition_point(|&(t, _)| t <= time);
        let mut until = visits.get(next).map_or(u32::MAX, |&(t, _)| t - 1);
        if let Some(stay) = self.stays[cell as usize] {
            until = until.min(stay.from.saturating_sub(1));
        }
        until
    }

    /// Into `out`: the safe intervals (first, last free time: nobody on `cell` between)
    /// of `cell` that meet the times `first..=last`, in order, each with its own first
    /// time (which names it), not cut to the range.
    fn safe_intervals(&self, cell: u32, first: u32, last: u32, out: &mut Vec<(u32, u32)>) {
        out.clear();
        let visits = &self.visits[cell as usize];
        let stay_from = self.stays[cell as usize].map_or(u32::MAX, |stay| stay.from);
        let mut k = visits.partition_point(|&(t, _)| t < first);
        let mut from = if k == 0 { 0 } else { visits[k - 1].0 + 1 };
        while from <= last && from < stay_from {
            let to = visits
                .get(k)
                .map_or(u32::MAX, |&(t, _)| t - 1)
                .min(stay_from - 1);
            if from <= to && to >= first {
                out.push((from, to));
            }
            match visits.get(k) {
                Some(&(t, _)) => from = t + 1,
                None => break,
            }
            k += 1;
        }
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

    /// Removes agent `agent`'s `path`, added before.
    ///
    /// # Complexity
    /// O(sum over the path's cells of their visits).
    fn remove(&mut self, agent: u32, path: &[u32]) {
        for &v in path {
            self.visits[v as usize].retain(|&(_, b)| b != agent);
            if self.stays[v as usize].is_some_and(|stay| stay.agent == agent) {
                self.stays[v as usize] = None;
            }
        }
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

/// A state waiting in the search's queue (a cell entered at a time, within one of its
/// safe intervals): the least `t + distance home` first, then the latest time (deepest
/// first, straight home on open ground), then the lowest cell number (so that runs
/// repeat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    estimate: u32,
    time: u32,
    cell: u32,
    state: u32,
}

impl Ord for Node {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: the smallest estimate is the greatest.
        other
            .estimate
            .cmp(&self.estimate)
            .then(self.time.cmp(&other.time))
            .then(other.cell.cmp(&self.cell))
            .then(other.state.cmp(&self.state))
    }
}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A reached state: a cell within one of its safe intervals, the earliest time found to
/// enter it, and the state it was entered from (waiting there until the step before).
#[derive(Debug, Clone, Copy)]
struct State {
    cell: u32,
    time: u32,
    parent: u32,
}

/// A multiplicative hash for the search's keys (interval start x C + cell): plain
/// integers, so the default SipHash's protection against chosen keys buys nothing here.
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

/// One search per agent over shared reservations: the makespan's planning above, and the
/// sum of costs' ([`super::soc::planning`]), which gives each agent a deadline of its own.
pub(crate) struct Planner<'i, 'a> {
    instance: &'i Instance<'a>,
    options: Options,
    horizon: u32,
    reservations: Reservations,
    /// The search's states, and by key (interval start x C + cell) the one of each safe
    /// interval.
    states: Vec<State>,
    index: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    queue: BinaryHeap<Node>,
    /// Scratch: the safe intervals of one cell.
    intervals: Vec<(u32, u32)>,
    /// Every agent's path so far (empty: not planned).
    paths: Vec<Vec<u32>>,
    /// When an agent's search under way gives up (as finding no way), if ever.
    give_up: Option<Instant>,
    /// The search that plans each agent.
    search: Search,
    /// The breadth-first search's parent table, the cell at t - 1 of the path to each
    /// pair (at t x C + cell; [`UNSEEN`] when not reached): allocated on its first use.
    layered_parent: Vec<u32>,
    /// The breadth-first search's entries of `layered_parent` set, to reset.
    layered_touched: Vec<usize>,
}

/// Not reached in the breadth-first search.
const UNSEEN: u32 = u32::MAX;

impl<'i, 'a> Planner<'i, 'a> {
    /// No agent planned yet; every path will have `horizon + 1` cells.
    pub(crate) fn new(instance: &'i Instance<'a>, horizon: u32) -> Self {
        let cells = instance.grid.cell_count();
        Planner {
            instance,
            options: Options::new(instance.grid),
            horizon,
            reservations: Reservations::new(cells),
            states: Vec::new(),
            index: HashMap::default(),
            queue: BinaryHeap::new(),
            intervals: Vec::new(),
            paths: vec![Vec::new(); instance.starts.len()],
            give_up: None,
            search: Search::Sipp,
            layered_parent: Vec::new(),
            layered_touched: Vec::new(),
        }
    }

    /// From now on, an agent's search gives up at `at` (found no way), checked every
    /// [`CLOCK_EVERY`] states: a time limit's deadline. Why: one search takes at most
    /// [`SEARCH_NODES`] states, but on orz900d with 1000 agents (horizon 3110, cells
    /// passed by hundreds of agents) one search took tens of seconds, and planning at the
    /// bound ended 78 s past the limit when it was asked only between agents.
    pub(crate) fn give_up_at(&mut self, at: Option<Instant>) {
        self.give_up = at;
    }

    /// Forgets every path.
    pub(crate) fn clear(&mut self) {
        self.reservations.remove_all(&self.paths);
        self.paths.iter_mut().for_each(Vec::clear);
    }

    /// Takes `path` (its cell at 0..=T) as agent `a`'s.
    pub(crate) fn reserve(&mut self, a: usize, path: Vec<u32>) {
        self.reservations.add(a as u32, &path);
        self.paths[a] = path;
    }

    /// Agent `a`'s path (empty: not planned).
    pub(crate) fn path_of(&self, a: usize) -> &[u32] {
        &self.paths[a]
    }

    /// Forgets agent `a`'s path, and returns it (empty: it had none).
    pub(crate) fn release(&mut self, a: usize) -> Vec<u32> {
        let path = std::mem::take(&mut self.paths[a]);
        self.reservations.remove(a as u32, &path);
        path
    }

    /// The agents that are on the cells of `cells` at some time (each once, in the
    /// order met), besides `a`.
    pub(crate) fn agents_on(&self, cells: &[u32], a: usize, out: &mut Vec<usize>) {
        for &v in cells {
            let visits = &self.reservations.visits[v as usize];
            let stay = self.reservations.stays[v as usize].map(|stay| stay.agent);
            for b in visits.iter().map(|&(_, b)| b).chain(stay) {
                let b = b as usize;
                if b != a && !out.contains(&b) {
                    out.push(b);
                }
            }
        }
    }

    /// Every agent's path so far (empty: not planned).
    pub(crate) fn into_paths(self) -> Vec<Vec<u32>> {
        self.paths
    }

    /// Plans agent `a` around the reservations and reserves its path; false when it has
    /// none (or its search passed [`SEARCH_NODES`]).
    fn plan(&mut self, a: usize) -> bool {
        match self.search {
            Search::Sipp => self.plan_by(a, self.horizon).is_some(),
            Search::Layered => match self.search_layered(a) {
                Some(path) => {
                    self.reserve(a, path);
                    true
                }
                None => false,
            },
        }
    }

    /// The breadth-first search of the module documentation for agent `a`: layers of
    /// time, each pair's parent the first pair of the layer before that reaches it
    /// (staying first), and the path back from the goal at T. `None` when the goal is
    /// not reached at T, or at the give-up time.
    ///
    /// # Complexity
    /// O(T x C x log R) time for R reservations a cell; the table of (T + 1) x C entries
    /// is allocated on the first call and reset in O(pairs reached).
    fn search_layered(&mut self, a: usize) -> Option<Vec<u32>> {
        let cells = self.instance.grid.cell_count();
        let t_max = self.horizon as usize;
        let goal = self.instance.goals[a].index() as u32;
        let start = self.instance.starts[a].index() as u32;
        let dist = self.instance.distances(a);
        let reservations = &self.reservations;
        if reservations.agent_at(start, 0).is_some() || dist.at(start as usize) as usize > t_max {
            return None;
        }
        if self.layered_parent.is_empty() {
            self.layered_parent = vec![UNSEEN; (t_max + 1) * cells];
        }
        let parent = &mut self.layered_parent;
        let touched = &mut self.layered_touched;
        let mut layer = vec![start];
        let mut next_layer = Vec::new();
        parent[start as usize] = start;
        touched.push(start as usize);
        for t in 0..t_max {
            if self
                .give_up
                .is_some_and(|give_up| t % 16 == 0 && Instant::now() >= give_up)
            {
                break;
            }
            next_layer.clear();
            let row = (t + 1) * cells;
            let next = t as u32 + 1;
            for &v in &layer {
                for &u in self.options.of(v) {
                    let at = row + u as usize;
                    if parent[at] != UNSEEN
                        || dist.at(u as usize) as usize > t_max - t - 1
                        || reservations.agent_at(u, next).is_some()
                    {
                        continue;
                    }
                    // No swap with a planned agent: whoever is on u at t must not be on
                    // v at t + 1.
                    if u != v {
                        let other = reservations.agent_at(u, t as u32);
                        if other.is_some() && reservations.agent_at(v, next) == other {
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
        let path = (parent[t_max * cells + goal as usize] != UNSEEN).then(|| {
            let mut path = vec![goal; t_max + 1];
            let mut v = goal;
            for t in (0..=t_max).rev() {
                path[t] = v;
                v = parent[t * cells + v as usize];
            }
            path
        });
        for at in touched.drain(..) {
            parent[at] = UNSEEN;
        }
        path
    }

    /// Plans agent `a` around the reservations, home for good by `deadline` (at most the
    /// horizon) at the earliest time it can, and reserves its path (padded with its goal
    /// to the horizon): that time, its cost under the sum of costs. `None` when it has no
    /// such path (or its search passed [`SEARCH_NODES`]).
    ///
    /// # Complexity
    /// As one agent's search in the module documentation.
    pub(crate) fn plan_by(&mut self, a: usize, deadline: u32) -> Option<u32> {
        let found = self.search(a, deadline.min(self.horizon));
        self.states.clear();
        self.index.clear();
        self.queue.clear();
        let (path, arrival) = found?;
        self.reserve(a, path);
        Some(arrival)
    }

    /// The search of the module documentation for agent `a`, home by `deadline`: its path
    /// and the time it enters home for good.
    fn search(&mut self, a: usize, deadline: u32) -> Option<(Vec<u32>, u32)> {
        let cells = self.instance.grid.cell_count() as u64;
        let goal = self.instance.goals[a].index() as u32;
        let start = self.instance.starts[a].index() as u32;
        let dist = self.instance.distances(a);
        let key = |cell: u32, from: u32| u64::from(from) * cells + u64::from(cell);
        if self.reservations.agent_at(start, 0).is_some() || dist.at(start as usize) > deadline {
            return None;
        }
        // The agent cannot stay home before the last time another one passes there: a
        // bound on its arrival that t + distance misses, and without which the search
        // would fill every state of a lower estimate first.
        let home_free = self.reservations.free_after(goal);
        self.index.insert(key(start, 0), 0);
        self.states.push(State {
            cell: start,
            time: 0,
            parent: 0,
        });
        self.queue.push(Node {
            estimate: dist.at(start as usize).max(home_free),
            time: 0,
            cell: start,
            state: 0,
        });
        let mut until_clock = CLOCK_EVERY;
        while let Some(Node {
            time,
            cell: v,
            state,
            ..
        }) = self.queue.pop()
        {
            if let Some(give_up) = self.give_up {
                until_clock -= 1;
                if until_clock == 0 {
                    until_clock = CLOCK_EVERY;
                    if Instant::now() >= give_up {
                        return None;
                    }
                }
            }
            if self.states[state as usize].time < time {
                continue; // entered earlier since: this entry is stale
            }
            if v == goal && self.reservations.free_from(goal, time) {
                return Some((self.path(state, self.horizon), time));
            }
            // The agent may wait on v until `last` (the step before someone comes).
            let last = self.reservations.safe_until(v, time).min(deadline);
            for &u in self.options.of(v) {
                if u == v {
                    continue;
                }
                let (first, window_end) = (time + 1, last.saturating_add(1).min(deadline));
                if first > window_end {
                    continue;
                }
                self.reservations
                    .safe_intervals(u, first, window_end, &mut self.intervals);
                for i in 0..self.intervals.len() {
                    let (from, to) = self.intervals[i];
                    let mut enter = first.max(from);
                    let end = to.min(window_end);
                    // No swap with a planned agent: whoever is on u just before must not
                    // be on v when we enter u; else wait one more step on v.
                    while enter <= end && {
                        let other = self.reservations.agent_at(u, enter - 1);
                        other.is_some() && self.reservations.agent_at(v, enter) == other
                    } {
                        enter += 1;
                    }
                    if enter > end {
                        continue;
                    }
                    let estimate = enter.saturating_add(dist.at(u as usize));
                    if estimate > deadline {
                        break; // later intervals enter later still
                    }
                    let at = key(u, from);
                    let next = match self.index.get(&at) {
                        Some(&known) if self.states[known as usize].time <= enter => continue,
                        Some(&known) => {
                            self.states[known as usize].time = enter;
                            self.states[known as usize].parent = state;
                            known
                        }
                        None => {
                            if self.states.len() >= SEARCH_NODES {
                                return None;
                            }
                            let next = self.states.len() as u32;
                            self.states.push(State {
                                cell: u,
                                time: enter,
                                parent: state,
                            });
                            self.index.insert(at, next);
                            next
                        }
                    };
                    self.queue.push(Node {
                        estimate: estimate.max(home_free),
                        time: enter,
                        cell: u,
                        state: next,
                    });
                }
            }
        }
        None
    }

    /// The path that ends by entering the state `last` (then staying to `horizon`).
    fn path(&self, last: u32, horizon: u32) -> Vec<u32> {
        let mut state = self.states[last as usize];
        let mut path = vec![state.cell; horizon as usize + 1];
        while state.time > 0 {
            let parent = self.states[state.parent as usize];
            for t in parent.time..state.time {
                path[t as usize] = parent.cell;
            }
            state = parent;
        }
        path
    }
}

/// Cells of a plan in [`CellId`]s, steps 1..=T, one placement per step.
pub fn to_placements(paths: &[Vec<u32>], horizon: u32) -> Vec<Vec<CellId>> {
    (1..=horizon as usize)
        .map(|t| paths.iter().map(|p| CellId::new(p[t] as usize)).collect())
        .collect()
}

/// Memory [`plan_at`] needs at `horizon` on `grid`, in bytes: the move table and the
/// per-cell reservation lists, the paths and their reservations, one search of at
/// most [`SEARCH_NODES`] states (fewer when the cells and their visits are fewer: a
/// state is a cell and one of its safe intervals), and the breadth-first search's table
/// where it is tried (at most [`LAYERED_PAIRS`] pairs).
pub fn memory_need(grid: &Grid, horizon: u32, agents: usize) -> u64 {
    let cells = grid.cell_count() as u64;
    let visits = agents as u64 * (u64::from(horizon) + 1);
    // A cell has one safe interval more than the visits it holds.
    let states = cells + visits;
    let layered = if layered_fits(grid, horizon, agents) {
        (u64::from(horizon) + 1) * cells * 4 + cells * 8
    } else {
        0
    };
    cells * (24 + 24 + 12)
        + visits * (4 + 8)
        + states.min(SEARCH_NODES as u64) * BYTES_PER_NODE
        + layered
}

/// A xorshift generator for the order noise (grid-core's seeded generator is a test and
/// generator tool, behind its `generate` feature).
pub(crate) struct Noise(pub(crate) u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next order of prioritized planning after the agent at `rank` of `order` found
    /// no way: it goes first; the rest keep their order with a little noise (each swapped
    /// with a random later-than-first place at odds 1 in 5), so attempts differ.
    ///
    /// # Complexity
    /// O(K).
    pub(crate) fn stuck_first(&mut self, order: &mut Vec<usize>, rank: usize) {
        let stuck = order.remove(rank);
        order.insert(0, stuck);
        for i in 1..order.len() {
            if self.next() % 5 == 0 {
                let j = 1 + (self.next() % (order.len() as u64 - 1)) as usize;
                order.swap(i, j);
            }
        }
    }
}

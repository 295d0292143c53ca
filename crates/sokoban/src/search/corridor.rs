//! The states on the solutions with the fewest pushes, found from both ends: what the
//! second phase of `--metric pushes` keeps once the first has proven the fewest pushes P.
//!
//! A state here is (box squares, the least square of the player's region), as in the
//! first phase. A state `s` is on a solution with P pushes exactly when its fewest pushes
//! from the start, `g(s)`, and its fewest pushes to the goals, `h(s)`, add up to P (a
//! solution through it with more pushes on either side would have more than P, which are
//! the fewest). So both are searched breadth-first, one push a layer: forwards from the
//! start (pushes), keeping a state of layer `j` only when `j` plus its bound on the pushes
//! left (the first phase's) is at most P, and backwards from the solved states (pulls:
//! the box beside the player comes onto the player's square, the player steps back),
//! keeping a state of layer `j` only when `j` plus a bound on the pushes from the start
//! (a matching of its boxes to the start squares by box-alone push distances) is at most
//! P. The side whose last layer is smaller grows next, until the two depths add up to P.
//!
//! # Why it holds
//! Both bounds are admissible, so every state of a solution with P pushes is kept, at its
//! layer `g(s)` forwards and `h(s)` backwards (the part of that solution before it is a
//! shortest way to it, and every state on that part is on the solution). A state of the
//! forward layer `d` that the backward search holds at layer `P - d` is on a solution with
//! P pushes (a state reached in a layer is reached with at most that many pushes, and none
//! can have fewer than P in all). From there the marks spread: a state of forward layer
//! `j < d` is on one when one of its pushes leads to a marked state of layer `j + 1`, and
//! a state of backward layer `j` when one of its pulls leads to a marked state of
//! backward layer `j + 1`. Every state of such a solution is marked this way, and no
//! other.
//!
//! Why from both ends: searched forwards alone (the first phase without PI-corrals under
//! the ceiling P, which this replaces), the states kept are those whose bound misses the
//! pushes still to come, and the bound's error grows with the pushes made: on XSokoban 2,
//! 6 and 78 that search had more than six million states after 60 s. Each side here goes
//! about half way, where its bound still sees most of what is left.
//!
//! # Complexity
//! Exponential in the boxes in the worst case, like the searches it stands for. Per state
//! of either side: one walk over its region, per push or pull an O(k log k) sort, one
//! walk to name the child's region, an O(k) hash and for a new child an O(k^3) matching.
//! The marking walks every kept state once more. Memory: `2(k + 1)` bytes of squares and 2
//! bytes of layer per state stored (also the children cut by their bound, so that none is
//! matched twice), 4 bytes per kept state, and the indexes, all within the budget.

use std::time::Instant;

use grid_core::{CellId, Grid};

use super::budget::Budget;
use super::index::Index;
use super::push_optimum::{Known, PushSearch};
use super::walker::Walker;
use crate::board::Board;
use crate::groups::GroupDeadlocks;
use crate::matching::Matcher;
use crate::parse::Level;
use crate::pattern::PairPushes;
use crate::solution::{Options, SolveError};

/// The layer of a state stored and cut by its bound.
const CUT: u16 = u16::MAX;

/// What the search from both ends did, for the measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CorridorStats {
    /// The layers searched forwards and backwards (they add up to P when it finished).
    pub depths: (u32, u32),
    /// The states kept forwards and backwards.
    pub kept: (u64, u64),
    /// The states on the solutions with P pushes.
    pub on_paths: u64,
}

/// One side of the search: its states, stored in the order they were found.
struct Side {
    stride: usize,
    /// Per state stored, `k` sorted box squares and the least square of the region.
    words: Vec<u16>,
    /// Per state stored, its layer, or [`CUT`].
    layer: Vec<u16>,
    index: Index,
    /// The kept states, layer after layer.
    order: Vec<u32>,
    /// Where each layer starts in `order` (one more entry than layers).
    starts: Vec<usize>,
    /// Per state stored, on a solution with P pushes (filled by the marking).
    on: Vec<bool>,
}

impl Side {
    fn new(stride: usize, cells: usize) -> Self {
        Side {
            stride,
            words: Vec::new(),
            layer: Vec::new(),
            index: Index::new(stride, cells),
            order: Vec::new(),
            starts: vec![0],
            on: Vec::new(),
        }
    }

    fn state(&self, s: u32) -> &[u16] {
        &self.words[s as usize * self.stride..(s as usize + 1) * self.stride]
    }

    /// The layers complete so far, less one: the depth reached.
    fn depth(&self) -> usize {
        self.starts.len() - 2
    }

    fn last_layer(&self) -> &[u32] {
        let n = self.starts.len();
        &self.order[self.starts[n - 2]..self.starts[n - 1]]
    }

    /// The state `words` and its layer ([`CUT`] when cut), when stored.
    fn find(&self, words: &[u16]) -> Option<(u32, u16)> {
        let key = self.index.key(words);
        let (all, stride) = (&self.words, self.stride);
        self.index
            .find(words, key, |s| {
                &all[s as usize * stride..(s as usize + 1) * stride]
            })
            .ok()
            .map(|s| (s, self.layer[s as usize]))
    }

    /// Stores `words` (new) at `layer` (or [`CUT`]), kept in `order` unless cut; `false`
    /// when the budget does not allow it.
    fn add(&mut self, words: &[u16], layer: u16, budget: &mut Budget) -> bool {
        let key = self.index.key(words);
        let (all, stride) = (&self.words, self.stride);
        let Err(slot) = self.index.find(words, key, |s| {
            &all[s as usize * stride..(s as usize + 1) * stride]
        }) else {
            return true;
        };
        let s = self.layer.len() as u32;
        if s >= super::index::EMPTY - 1
            || !budget.room(&mut self.words, stride)
            || !budget.room(&mut self.layer, 1)
            || layer != CUT && !budget.room(&mut self.order, 1)
        {
            return false;
        }
        self.words.extend_from_slice(words);
        self.layer.push(layer);
        if layer != CUT {
            self.order.push(s);
        }
        self.index.insert(key.0, slot, s, budget)
    }

    /// Closes the layer being built.
    fn close_layer(&mut self) {
        self.starts.push(self.order.len());
    }
}

/// The search from both ends (see the module documentation).
struct Meet<'s, 'a> {
    level: &'a Level,
    grid: &'a Grid,
    k: usize,
    fewest: u32,
    forward: Side,
    backward: Side,
    /// The forward pushes and bound (the first phase's tables).
    pushes: &'s mut PushSearch<'a>,
    /// Per start square, per square, the box-alone pushes from it ([`u32::MAX`]: none).
    from_start: Vec<Vec<u32>>,
    matcher: Matcher,
    region: Walker,
    child_region: Walker,
    occupied: Vec<bool>,
    budget: Budget,
    stats: CorridorStats,
}

/// The states on the solutions with `fewest` pushes (the proven fewest) of `level`, with
/// their pushes from the start, and what the search did; [`SolveError`] when `deadline`,
/// the interrupt or the memory of `options` (of which `held` bytes are held beside it)
/// stopped it first.
pub(super) fn corridor(
    level: &Level,
    board: &Board<'_>,
    (pairs, pattern): (&GroupDeadlocks, &PairPushes),
    options: &Options,
    fewest: u32,
    (deadline, held): (Option<Instant>, u64),
) -> (Result<Known, SolveError>, CorridorStats) {
    let grid = level.grid();
    let (n, k) = (grid.cell_count(), level.boxes().len());
    let mut pushes = PushSearch::new(level, board, pairs, pattern, options, super::Pruning::None);
    let mut budget = Budget::new(options.memory_mib.saturating_mul(grid_core::limits::MIB));
    budget.deadline = deadline;
    budget.bytes = board.bytes() + pairs.bytes() + pattern.bytes() + held;
    let mut meet = Meet {
        level,
        grid,
        k,
        fewest,
        forward: Side::new(k + 1, n),
        backward: Side::new(k + 1, n),
        pushes: &mut pushes,
        from_start: level
            .boxes()
            .iter()
            .map(|&s| box_alone_pushes(grid, s))
            .collect(),
        matcher: Matcher::new(),
        region: Walker::new(n),
        child_region: Walker::new(n),
        occupied: vec![false; n],
        budget,
        stats: CorridorStats::default(),
    };
    let stopped = || options.interrupted() || deadline.is_some_and(|d| Instant::now() >= d);
    let found = meet.run(&stopped);
    let stats = meet.stats;
    (found, stats)
}

/// The pushes of a box alone from `start` to every square (the player anywhere a push
/// needs it, the other boxes away): a lower bound on the pushes of that box there.
///
/// # Complexity
/// O(cells) time and memory.
fn box_alone_pushes(grid: &Grid, start: CellId) -> Vec<u32> {
    let mut dist = vec![u32::MAX; grid.cell_count()];
    dist[start.index()] = 0;
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(cell) = queue.pop_front() {
        let next = dist[cell.index()] + 1;
        for (_, to, _) in grid.push_lines(cell) {
            if dist[to.index()] == u32::MAX {
                dist[to.index()] = next;
                queue.push_back(to);
            }
        }
    }
    dist
}

impl Meet<'_, '_> {
    fn run(&mut self, stopped: &dyn Fn() -> bool) -> Result<Known, SolveError> {
        self.seed()?;
        let fewest = self.fewest as usize;
        while self.forward.depth() + self.backward.depth() < fewest {
            let forwards = self.forward.last_layer().len() <= self.backward.last_layer().len();
            if forwards {
                self.grow_forward(stopped)?;
            } else {
                self.grow_backward(stopped)?;
            }
            self.stats.depths = (self.forward.depth() as u32, self.backward.depth() as u32);
            self.stats.kept = (
                self.forward.order.len() as u64,
                self.backward.order.len() as u64,
            );
            if self.forward.last_layer().is_empty() || self.backward.last_layer().is_empty() {
                // No solution with P pushes: P was not the fewest.
                return Err(SolveError::Memory);
            }
        }
        self.mark(stopped)?;
        self.known()
    }

    /// Layer 0 of both sides: the start, and the solved layout with each region.
    fn seed(&mut self) -> Result<(), SolveError> {
        let (grid, k) = (self.grid, self.k);
        let mut start: Vec<u16> = self
            .level
            .boxes()
            .iter()
            .map(|b| b.index() as u16)
            .collect();
        start.sort_unstable();
        start.push(self.region_square(&start.clone(), self.level.player()));
        if self.pushes.region_bound(&start) <= self.fewest
            && !self.forward.add(&start, 0, &mut self.budget)
        {
            return Err(SolveError::Memory);
        }
        self.forward.close_layer();
        let mut goals: Vec<u16> = self
            .level
            .goals()
            .iter()
            .map(|g| g.index() as u16)
            .collect();
        goals.sort_unstable();
        let mut solved = goals.clone();
        solved.push(0);
        // One walk per region of the solved layout, not per square: O(squares).
        let mut walked = vec![false; grid.cell_count()];
        for &g in &goals {
            walked[usize::from(g)] = true;
        }
        for cell in 0..grid.cell_count() {
            if walked[cell] {
                continue;
            }
            solved[k] = self.region_square(&goals, CellId::new(cell));
            for c in &self.region.queue {
                walked[c.index()] = true;
            }
            if self.backward.find(&solved).is_none()
                && !self.backward.add(&solved, 0, &mut self.budget)
            {
                return Err(SolveError::Memory);
            }
        }
        self.backward.close_layer();
        Ok(())
    }

    /// How many states a side grows from between two looks at the clock: a state walks
    /// the floor once per pull, up to 4k times ([`super::clock_every_walking`]).
    fn clock_every(&self) -> usize {
        super::clock_every_walking(self.level, 4 * self.k as u64) as usize
    }

    /// The least square of the player's region from `from`, the boxes on `boxes`.
    fn region_square(&mut self, boxes: &[u16], from: CellId) -> u16 {
        for &b in boxes {
            self.occupied[usize::from(b)] = true;
        }
        self.region.run(self.grid, &self.occupied, from);
        for &b in boxes {
            self.occupied[usize::from(b)] = false;
        }
        let least = self.region.queue.iter().min().copied().unwrap_or(from);
        least.index() as u16
    }

    /// The next forward layer: every push of the last layer's states, a new child kept
    /// when its layer and bound are at most P.
    fn grow_forward(&mut self, stopped: &dyn Fn() -> bool) -> Result<(), SolveError> {
        let layer = self.forward.depth() + 1;
        let stride = self.k + 1;
        let last: Vec<u32> = self.forward.last_layer().to_vec();
        let mut words = vec![0u16; stride];
        let every = self.clock_every();
        for (i, &s) in last.iter().enumerate() {
            if i % every == every - 1 && stopped() {
                return Err(SolveError::Time);
            }
            words.copy_from_slice(self.forward.state(s));
            let children = self.pushes.children_of_state(&words).to_vec();
            for child in children.chunks_exact(stride) {
                if self.forward.find(child).is_some() {
                    continue;
                }
                let bound = self.pushes.region_bound(child);
                let kept = bound != super::table::HOPELESS && layer as u32 + bound <= self.fewest;
                let at = if kept { layer as u16 } else { CUT };
                if !self.forward.add(child, at, &mut self.budget) {
                    return Err(SolveError::Memory);
                }
            }
        }
        self.forward.close_layer();
        Ok(())
    }

    /// Into `out`, the children by one pull of the state `words` (`k + 1` words each).
    fn pulls_of(&mut self, words: &[u16], out: &mut Vec<u16>) {
        let (grid, k) = (self.grid, self.k);
        out.clear();
        let boxes = &words[..k];
        for &b in boxes {
            self.occupied[usize::from(b)] = true;
        }
        self.region
            .run(grid, &self.occupied, CellId::new(usize::from(words[k])));
        let mut pulled = vec![0u16; k + 1];
        for &p in &self.region.queue {
            for (_, q, behind) in grid.push_lines(p) {
                if !self.occupied[q.index()] || self.occupied[behind.index()] {
                    continue;
                }
                // The box on `q` pulled onto `p`, the player onto `behind`.
                pulled[..k].copy_from_slice(boxes);
                let Some(i) = pulled[..k]
                    .iter()
                    .position(|&b| usize::from(b) == q.index())
                else {
                    continue;
                };
                pulled[i] = p.index() as u16;
                pulled[..k].sort_unstable();
                self.occupied[q.index()] = false;
                self.occupied[p.index()] = true;
                self.child_region.run(grid, &self.occupied, behind);
                let reached = &self.child_region.queue;
                let least = reached.iter().min().copied().unwrap_or(behind);
                self.occupied[p.index()] = false;
                self.occupied[q.index()] = true;
                pulled[k] = least.index() as u16;
                out.extend_from_slice(&pulled);
            }
        }
        for &b in boxes {
            self.occupied[usize::from(b)] = false;
        }
    }

    /// The bound on the pushes from the start to the boxes `boxes`: the least matching
    /// of the start squares to them by box-alone pushes; `None` when there is none.
    fn start_bound(&mut self, boxes: &[u16]) -> Option<u32> {
        let from_start = &self.from_start;
        self.matcher.min_cost(boxes.len(), |i, j| {
            let d = from_start[j][usize::from(boxes[i])];
            if d == u32::MAX {
                crate::matching::IMPOSSIBLE
            } else {
                d
            }
        })
    }

    /// The next backward layer: every pull of the last layer's states, a new child kept
    /// when its layer and bound from the start are at most P.
    fn grow_backward(&mut self, stopped: &dyn Fn() -> bool) -> Result<(), SolveError> {
        let layer = self.backward.depth() + 1;
        let stride = self.k + 1;
        let last: Vec<u32> = self.backward.last_layer().to_vec();
        let (mut words, mut children) = (vec![0u16; stride], Vec::new());
        let every = self.clock_every();
        for (i, &s) in last.iter().enumerate() {
            if i % every == every - 1 && stopped() {
                return Err(SolveError::Time);
            }
            words.copy_from_slice(self.backward.state(s));
            self.pulls_of(&words, &mut children);
            for child in children.chunks_exact(stride) {
                if self.backward.find(child).is_some() {
                    continue;
                }
                let kept = self
                    .start_bound(&child[..self.k])
                    .is_some_and(|b| layer as u32 + b <= self.fewest);
                let at = if kept { layer as u16 } else { CUT };
                if !self.backward.add(child, at, &mut self.budget) {
                    return Err(SolveError::Memory);
                }
            }
        }
        self.backward.close_layer();
        Ok(())
    }

    /// Marks the states on the solutions with P pushes: where the sides meet, then from
    /// each marked state one push back through the forward layers (its pulls, looked up
    /// one layer nearer the start) and one push on through the backward ones (its pushes,
    /// looked up one layer nearer the goals). Only marked states are walked from: far
    /// fewer than the kept ones.
    fn mark(&mut self, stopped: &dyn Fn() -> bool) -> Result<(), SolveError> {
        let (d, back) = (self.forward.depth(), self.backward.depth());
        if !self
            .budget
            .room(&mut self.forward.on, self.forward.layer.len())
            || !self
                .budget
                .room(&mut self.backward.on, self.backward.layer.len())
        {
            return Err(SolveError::Memory);
        }
        self.forward.on.resize(self.forward.layer.len(), false);
        self.backward.on.resize(self.backward.layer.len(), false);
        // Where they meet: forward layer d, backward layer P - d.
        let (mut ahead, mut behind) = (Vec::new(), Vec::new());
        for at in self.forward.starts[d]..self.forward.starts[d + 1] {
            let s = self.forward.order[at];
            if let Some((t, l)) = self.backward.find(self.forward.state(s))
                && usize::from(l) == back
            {
                self.forward.on[s as usize] = true;
                self.backward.on[t as usize] = true;
                ahead.push(s);
                behind.push(t);
            }
        }
        self.spread(true, ahead, d, stopped)?;
        self.spread(false, behind, back, stopped)
    }

    /// Spreads the marks from the marked states `ahead` of the last `layers` layers of a
    /// side down to its layer 0: forwards one pull back (a state of the layer nearer the
    /// start with a push into a marked one), backwards one push on (nearer the goals).
    fn spread(
        &mut self,
        forwards: bool,
        mut ahead: Vec<u32>,
        layers: usize,
        stopped: &dyn Fn() -> bool,
    ) -> Result<(), SolveError> {
        let stride = self.k + 1;
        let (mut words, mut children, mut next) = (vec![0u16; stride], Vec::new(), Vec::new());
        let every = self.clock_every();
        for layer in (0..layers).rev() {
            next.clear();
            for (i, &t) in ahead.iter().enumerate() {
                if i % every == every - 1 && stopped() {
                    return Err(SolveError::Time);
                }
                if forwards {
                    words.copy_from_slice(self.forward.state(t));
                    self.pulls_of(&words, &mut children);
                } else {
                    words.copy_from_slice(self.backward.state(t));
                    children.clear();
                    children.extend_from_slice(self.pushes.children_of_state(&words));
                }
                let side = if forwards {
                    &mut self.forward
                } else {
                    &mut self.backward
                };
                for c in children.chunks_exact(stride) {
                    if let Some((s, l)) = side.find(c)
                        && usize::from(l) == layer
                        && !side.on[s as usize]
                    {
                        side.on[s as usize] = true;
                        next.push(s);
                    }
                }
            }
            std::mem::swap(&mut ahead, &mut next);
        }
        Ok(())
    }

    /// The marked states with their pushes from the start.
    fn known(&mut self) -> Result<Known, SolveError> {
        let mut known = Known::empty(self.k, self.grid.cell_count());
        let (d, fewest) = (self.forward.depth(), self.fewest);
        for &s in &self.forward.order {
            if self.forward.on[s as usize] {
                let g = u32::from(self.forward.layer[s as usize]);
                if !known.add(self.forward.state(s), g, &mut self.budget) {
                    return Err(SolveError::Memory);
                }
            }
        }
        for &s in &self.backward.order {
            let layer = u32::from(self.backward.layer[s as usize]);
            if self.backward.on[s as usize]
                && (fewest - layer) as usize != d
                && !known.add(self.backward.state(s), fewest - layer, &mut self.budget)
            {
                return Err(SolveError::Memory);
            }
        }
        self.stats.on_paths = known.len() as u64;
        Ok(known)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use grid_core::rng::SplitMix64;

    use super::*;

    /// The least square of the region of `from` with the boxes on `boxes`.
    fn region(grid: &Grid, boxes: &[u16], from: CellId) -> u16 {
        let mut seen = vec![false; grid.cell_count()];
        for &b in boxes {
            seen[usize::from(b)] = true;
        }
        seen[from.index()] = true;
        let (mut queue, mut least) = (VecDeque::from([from]), from.index());
        while let Some(c) = queue.pop_front() {
            least = least.min(c.index());
            for (_, n) in grid.neighbours(c) {
                if !seen[n.index()] {
                    seen[n.index()] = true;
                    queue.push_back(n);
                }
            }
        }
        least as u16
    }

    /// Every push of the state `words`, no pruning: the box moves onto a free square, the
    /// player walked (in its region) to the square behind it.
    fn pushes(grid: &Grid, words: &[u16]) -> Vec<Vec<u16>> {
        let k = words.len() - 1;
        let boxes = &words[..k];
        let here = words[k];
        let mut children = Vec::new();
        for i in 0..k {
            let cell = CellId::new(usize::from(boxes[i]));
            for (_, to, behind) in grid.push_lines(cell) {
                let to_word = to.index() as u16;
                if boxes.contains(&to_word)
                    || boxes.contains(&(behind.index() as u16))
                    || region(grid, boxes, behind) != here
                {
                    continue;
                }
                let mut child = boxes.to_vec();
                child[i] = to_word;
                child.sort_unstable();
                let least = region(grid, &child, cell);
                child.push(least);
                children.push(child);
            }
        }
        children
    }

    /// The fewest pushes P of `level` and every (layout, region) on a solution with P
    /// pushes, with its pushes from the start, by plain breadth-first searches over every
    /// state reachable: forwards for the pushes from the start, backwards over the same
    /// edges for the pushes to the goals; `None` when unsolvable or past `most` states.
    fn on_paths_by_brute_force(
        level: &Level,
        most: usize,
    ) -> Option<(u32, HashMap<Vec<u16>, u32>)> {
        let grid = level.grid();
        let mut start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
        start.sort_unstable();
        let least = region(grid, &start, level.player());
        start.push(least);
        let goals: Vec<u16> = level.goals().iter().map(|g| g.index() as u16).collect();
        let k = start.len() - 1;
        let mut number: HashMap<Vec<u16>, usize> = HashMap::from([(start.clone(), 0)]);
        let (mut states, mut g, mut into) = (vec![start], vec![0u32], vec![Vec::new()]);
        let mut head = 0;
        while head < states.len() {
            if states.len() > most {
                return None;
            }
            for child in pushes(grid, &states[head]) {
                let c = *number.entry(child.clone()).or_insert_with(|| {
                    states.push(child);
                    g.push(g[head] + 1);
                    into.push(Vec::new());
                    states.len() - 1
                });
                into[c].push(head);
            }
            head += 1;
        }
        let solved = |s: &[u16]| s[..k].iter().all(|b| goals.contains(b));
        let mut h = vec![u32::MAX; states.len()];
        let mut queue = VecDeque::new();
        for (s, words) in states.iter().enumerate() {
            if solved(words) {
                h[s] = 0;
                queue.push_back(s);
            }
        }
        let fewest = (0..states.len())
            .filter(|&s| h[s] == 0)
            .map(|s| g[s])
            .min()?;
        while let Some(s) = queue.pop_front() {
            for &p in &into[s] {
                if h[p] == u32::MAX {
                    h[p] = h[s] + 1;
                    queue.push_back(p);
                }
            }
        }
        let on = (0..states.len())
            .filter(|&s| h[s] != u32::MAX && g[s] + h[s] == fewest)
            .map(|s| (states[s].clone(), g[s]))
            .collect();
        Some((fewest, on))
    }

    /// On generated levels, the states found from both ends are exactly those on the
    /// solutions with the fewest pushes that plain searches over the whole state space
    /// find, each with its pushes from the start.
    #[test]
    fn the_states_from_both_ends_are_those_on_the_solutions_with_the_fewest_pushes() {
        let mut rng = SplitMix64::new(26);
        let (mut compared, mut states, mut longest) = (0, 0, 0);
        for round in 0..400 {
            let text = crate::generate::random_level(&mut rng, 2 + round % 4, 8, 15);
            let Ok(level) = text.parse::<Level>() else {
                continue;
            };
            let options = Options::default();
            let tables = super::super::tables_unless_dead(&level, &options, None);
            let Some((board, pairs, pattern)) = tables.unwrap() else {
                continue;
            };
            let Some((fewest, reference)) = on_paths_by_brute_force(&level, 200_000) else {
                continue;
            };
            let (known, _) = corridor(
                &level,
                &board,
                (&pairs, &pattern),
                &options,
                fewest,
                (None, 0),
            );
            let known = known.expect("no limit");
            assert_eq!(known.len(), reference.len(), "{text}");
            for (words, g) in &reference {
                assert_eq!(known.pushes(words), Some(*g), "{text}{words:?}");
            }
            compared += 1;
            states += reference.len();
            longest = longest.max(fewest);
        }
        assert!(compared >= 150, "{compared} levels compared");
        assert!(states >= 3 * compared, "{states} states on paths");
        assert!(longest >= 8, "the longest fewest pushes {longest}");
    }
}

//! The finder backwards: pulls from the solved layout towards the start (the "reverse
//! mode" of YASS and Sokolution).
//!
//! Why: on a level whose difficulty is packing the goals in the right order (a goal room
//! filled from its door), the forward search packs the goals at the door first and walls
//! in the others; backwards, the boxes leave the goals in whatever order they can be
//! pulled, and the order that works is the one pulling finds.
//!
//! A backward state has the words of a forward one: the sorted box squares and the least
//! square of the player's region. A pull moves a box one square onto the square of the
//! player beside it, the player one square further on (both free): read forwards, a push.
//! The starts are the goal layout with the player in each region from which a pull can
//! be made (a solution's last push, read backwards, is such a pull); a state that equals
//! the level's start (its boxes, the player's region) ends the search, and its path read
//! from the end is a solution. States are taken greedily (or weighted, as in `greedy`) by
//! the minimum-cost matching of the boxes to the start squares on lone-box pull
//! distances, matched when taken; a box pulled onto a square from which no start square
//! can be reached by pulls is pruned, and a state with no matching is dropped: both exact
//! (the pulls of a solution read backwards take each box to its own start square, and
//! other boxes only take pulls away), so the search running out of states proves the
//! level unsolvable. There is no freeze or group deadlock backwards: an unsolvable level
//! is proven so only when every pull from every goal layout is tried.
//!
//! Meeting a forward search (each new state looked up in the other side's store) was
//! tried and not kept: see docs/sokoban.md.
//!
//! # Complexity
//! Exponential in the boxes in the worst case. Per expansion one walk O(squares); per
//! pull one walk O(squares) to name the child's region and an O(k) lookup; per state
//! taken an O(k^3) matching; O(starts x squares) for the pull distances.

use grid_core::{CellId, Dir, Grid, UNREACHABLE};

use super::greedy::{Buckets, Outcome};
use super::replay::{ancestry, lurd_through};
use super::store::{Budget, NONE, Store};
use super::walk::Walker;
use super::{Halt, Meter, Options};
use crate::matching::Matcher;
use crate::parse::Level;

/// The bound of a state not yet taken from the queue: its priority is an estimate.
const ESTIMATED: u32 = u32::MAX;

/// Expansions between two calls of the caller's stop check.
const STOP_EVERY: u64 = 256;

/// `[s * squares + c]`: the fewest pulls that take a lone box from `c` onto
/// `starts[s]`, or [`UNREACHABLE`]: the fewest pushes from `starts[s]` onto `c`, read
/// backwards (the player's side is not looked at, so a lower bound).
///
/// # Complexity
/// O(starts x squares).
fn pull_distances(grid: &Grid, starts: &[CellId]) -> Vec<u32> {
    let n = grid.cell_count();
    let mut distance = vec![UNREACHABLE; starts.len() * n];
    let mut queue: Vec<CellId> = Vec::with_capacity(n);
    for (s, &start) in starts.iter().enumerate() {
        let row = &mut distance[s * n..(s + 1) * n];
        queue.clear();
        queue.push(start);
        row[start.index()] = 0;
        let mut head = 0;
        while head < queue.len() {
            let at = queue[head];
            head += 1;
            for (dir, next) in grid.neighbours(at) {
                // A push from `at` onto `next`, the player on the far side of `at`.
                if row[next.index()] == UNREACHABLE && grid.neighbour(at, dir.opposite()).is_some()
                {
                    row[next.index()] = row[at.index()] + 1;
                    queue.push(next);
                }
            }
        }
    }
    distance
}

/// The states met, the queue, and what a state is matched with.
#[derive(Debug)]
struct Pulls {
    store: Store,
    queue: Buckets,
    /// Per state, its pulls from its goal layout.
    depth: Vec<u32>,
    /// Per state, its matching once taken from the queue ([`ESTIMATED`] before).
    bound: Vec<u32>,
    /// `[start * squares + square]`: [`pull_distances`].
    distance: Vec<u32>,
    /// Per square, the least of its distances ([`UNREACHABLE`]: no box pulled there
    /// reaches a start square).
    nearest: Vec<u32>,
    matcher: Matcher,
    g_weight: u64,
    h_weight: u64,
}

impl Pulls {
    /// The matching of `boxes` to the start squares, `None` when there is none; a first
    /// one of thousands of boxes calls `stop` as it goes.
    ///
    /// # Errors
    /// [`Halt::Stopped`] when `stop` says so.
    fn matching(
        &mut self,
        boxes: &[u16],
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Option<u32>, Halt> {
        let n = self.nearest.len();
        let distance = &self.distance;
        self.matcher
            .min_cost_within(
                boxes.len(),
                |i, s| distance[s * n + usize::from(boxes[i])],
                stop,
            )
            .ok_or(Halt::Stopped)
    }

    /// Adds the state `words` reached from `parent` ([`NONE`] for a start) by `depth`
    /// pulls, at the free `slot` of the store, queued at `priority` (an estimate: it is
    /// matched when taken).
    fn add(
        &mut self,
        words: &[u16],
        slot: usize,
        parent: u32,
        depth: u32,
        priority: u64,
        budget: &mut Budget,
    ) -> Result<u32, Halt> {
        let id = self
            .store
            .insert(words, Store::hash(words), slot, parent, budget)?;
        budget.room(&mut self.depth, 1)?;
        self.depth.push(depth);
        budget.room(&mut self.bound, 1)?;
        self.bound.push(ESTIMATED);
        self.queue.push(priority, id, budget)?;
        Ok(id)
    }
}

/// Runs the search; see the module documentation.
pub(super) fn search(
    level: &Level,
    options: &Options,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Outcome, Halt> {
    let unsolvable = Ok(Outcome::Exhausted { complete: true });
    if level.stranded() {
        return unsolvable;
    }
    if level.boxes() == level.goals() {
        return Ok(Outcome::Solved(String::new()));
    }
    let grid = level.grid();
    let n = grid.cell_count();
    let k = level.boxes().len();
    let mut budget = Budget::new(options.memory_bytes);
    // The distances, nearest, the walks' marks and the occupied squares.
    budget.take(((k + 1) * n * 4 + 3 * n * 9 + n) as u64)?;
    let distance = pull_distances(grid, level.boxes());
    let nearest = (0..n)
        .map(|c| (0..k).map(|s| distance[s * n + c]).min().unwrap_or(0))
        .collect();
    let mut pulls = Pulls {
        store: Store::new(k, &mut budget)?,
        queue: Buckets::default(),
        depth: Vec::new(),
        bound: Vec::new(),
        distance,
        nearest,
        matcher: Matcher::new(),
        g_weight: u64::from(options.g_weight),
        h_weight: u64::from(options.h_weight),
    };
    let mut walker = Walker::new(n);
    let mut region = Walker::new(n);
    let mut occupied = vec![false; n];

    // The end: the level's start, its boxes and the player's region.
    let mut start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    mark(&mut occupied, &start, true);
    region.run(grid, &occupied, level.player());
    start.push(region.least().index() as u16);
    mark(&mut occupied, &start[..k], false);

    // The starts: the goal layout, the player in each region from which a box can be
    // pulled.
    let mut words: Vec<u16> = level.goals().iter().map(|g| g.index() as u16).collect();
    let Some(h) = pulls.matching(&words, stop)? else {
        return unsolvable;
    };
    words.push(0);
    mark(&mut occupied, &words[..k], true);
    let mut seen = vec![false; n];
    for from in grid.cells() {
        if occupied[from.index()] || seen[from.index()] {
            continue;
        }
        region.run(grid, &occupied, from);
        for &c in region.order() {
            seen[c.index()] = true;
        }
        let can_pull = level.goals().iter().any(|&g| {
            Dir::ALL.into_iter().any(|dir| {
                grid.neighbour(g, dir).is_some_and(|beside| {
                    region.reached(beside)
                        && grid
                            .neighbour(beside, dir)
                            .is_some_and(|away| !occupied[away.index()])
                })
            })
        });
        if can_pull {
            words[k] = region.least().index() as u16;
            if let Err(slot) = pulls.store.find(&words, Store::hash(&words)) {
                let priority = pulls.h_weight * u64::from(h);
                pulls.add(&words, slot, NONE, 0, priority, &mut budget)?;
            }
        }
    }
    mark(&mut occupied, &words[..k], false);

    let mut boxes = vec![0u16; k];
    let mut child = vec![0u16; k + 1];
    // The pulls of a state: (box, where it ends, where the player then stands).
    let mut moves: Vec<(usize, CellId, CellId)> = Vec::new();
    let mut expanded = 0u64;
    let mut meter = Meter::default();
    while let Some(state) = pulls.queue.pop(&mut budget) {
        expanded += 1;
        if expanded % STOP_EVERY == 0 && stop() {
            return Err(Halt::Stopped);
        }
        boxes.copy_from_slice(&pulls.store.state(state)[..k]);
        let g = pulls.depth[state as usize] + 1;
        if pulls.bound[state as usize] == ESTIMATED {
            // Queued on an estimate: the matching now, and queued again at its value
            // unless the estimate was right.
            // A matching of k boxes: up to k^2 steps, warm.
            meter.walked(k * k, stop)?;
            let Some(h) = pulls.matching(&boxes, stop)? else {
                continue;
            };
            pulls.bound[state as usize] = h;
            let priority = pulls.g_weight * u64::from(g - 1) + pulls.h_weight * u64::from(h);
            if priority > pulls.queue.taken {
                pulls.queue.push(priority, state, &mut budget)?;
                continue;
            }
        }
        let h = pulls.bound[state as usize];
        let player = CellId::new(usize::from(pulls.store.state(state)[k]));
        mark(&mut occupied, &boxes, true);
        walker.run(grid, &occupied, player);
        moves.clear();
        for (i, &b) in boxes.iter().enumerate() {
            let cell = CellId::new(usize::from(b));
            for dir in Dir::ALL {
                let Some(beside) = grid.neighbour(cell, dir) else {
                    continue;
                };
                let Some(away) = grid.neighbour(beside, dir) else {
                    continue;
                };
                if walker.reached(beside)
                    && !occupied[away.index()]
                    && pulls.nearest[beside.index()] != UNREACHABLE
                {
                    moves.push((i, beside, away));
                }
            }
        }
        for &(i, to, standing) in &moves {
            meter.walked(n, stop)?;
            let cell = CellId::new(usize::from(boxes[i]));
            child[..k].copy_from_slice(&boxes);
            child[i] = to.index() as u16;
            child[..k].sort_unstable();
            occupied[cell.index()] = false;
            occupied[to.index()] = true;
            region.run(grid, &occupied, standing);
            occupied[to.index()] = false;
            occupied[cell.index()] = true;
            child[k] = region.least().index() as u16;
            let Err(slot) = pulls.store.find(&child, Store::hash(&child)) else {
                continue;
            };
            let estimate =
                (h + pulls.nearest[to.index()]).saturating_sub(pulls.nearest[cell.index()]);
            let priority = pulls.g_weight * u64::from(g) + pulls.h_weight * u64::from(estimate);
            let id = pulls.add(&child, slot, state, g, priority, &mut budget)?;
            if child == start {
                // Read from the end, the pulls are the pushes from the start.
                let chain = ancestry(&pulls.store, id);
                let layouts: Vec<&[u16]> = chain.iter().map(|&s| pulls.store.state(s)).collect();
                return Ok(Outcome::Solved(lurd_through(level, &layouts, &mut walker)));
            }
        }
        mark(&mut occupied, &boxes, false);
    }
    unsolvable
}

/// Marks (or unmarks) the squares of `boxes` in `occupied`.
fn mark(occupied: &mut [bool], boxes: &[u16], value: bool) {
    for &b in boxes {
        occupied[usize::from(b)] = value;
    }
}

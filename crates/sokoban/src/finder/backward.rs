//! The finder backwards, and from both ends: pulls from the solved layout towards the
//! start (the "reverse mode" of YASS and Sokolution), alone or taking turns with a
//! forward search of pushes until the two meet.
//!
//! Why: on a level whose difficulty is packing the goals in the right order (a goal room
//! filled from its door), the forward search packs the goals at the door first and walls
//! in the others; backwards, the boxes leave the goals in whatever order they can be
//! pulled, and the order that works is the one pulling finds.
//!
//! A backward state has the words of a forward one: the sorted box squares and the least
//! square of the player's region. A pull moves a box one square onto the square of the
//! player beside it, the player one square further on (both free): read forwards, a push.
//! The backward starts are the goal layout with the player in each region from which a
//! pull can be made (a solution's last push, read backwards, is such a pull); a backward
//! state that equals the level's start (its boxes, the player's region) ends the search,
//! and its path read from the end is a solution. The guide is the minimum-cost matching
//! of the boxes to the start squares on lone-box pull distances; a box pulled onto a
//! square from which no start square can be reached by pulls is pruned, and a state with
//! no matching is dropped: both exact (the pulls of a solution read backwards take each
//! box to its own start square, and other boxes only take pulls away), so the search
//! running out of states proves the level unsolvable.
//!
//! With [`Direction::Both`] a forward side (pushes towards the goals, the matching to the
//! goals as guide, dead squares and frozen boxes pruned as in `greedy`) takes turns with
//! the backward one, one expansion each, and each new state of either side is looked up
//! in the other's store: the same words are the same layout with the player in the same
//! region, so the forward path to it and the backward path from it join into a solution.
//!
//! # Complexity
//! Exponential in the boxes in the worst case. Per expansion one walk O(squares); per
//! move one walk O(squares) to name the child's region and O(k) lookups in one or two
//! stores; per state taken an O(k^3) matching.

use grid_core::{CellId, Dir, Grid, UNREACHABLE};

use super::greedy::{Buckets, Outcome};
use super::replay::{ancestry, lurd_through};
use super::store::{Budget, NONE, Store};
use super::walk::Walker;
use super::{Direction, Halt, Options};
use crate::board::{Board, Freeze};
use crate::matching::Matcher;
use crate::parse::Level;

/// The bound of a state not yet taken from the queue: its priority is an estimate.
const ESTIMATED: u32 = u32::MAX;

/// Expansions (of each side) between two calls of the caller's stop check.
const STOP_EVERY: u64 = 256;

/// How a side moves a box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Move {
    /// Forwards: the player behind the box pushes it one square on.
    Push,
    /// Backwards: the player beside the box steps away and the box follows.
    Pull,
}

/// One end of the search: its states, its queue, and its lone-box distances.
#[derive(Debug)]
struct Side {
    moves: Move,
    store: Store,
    queue: Buckets,
    /// Per state, its moves from its side's starts.
    depth: Vec<u32>,
    /// Per state, its matching once taken from the queue ([`ESTIMATED`] before).
    bound: Vec<u32>,
    /// `[target * squares + square]`: the fewest moves of this side that take a lone box
    /// from the square onto the target (a goal forwards, a start square backwards), or
    /// [`UNREACHABLE`].
    distance: Vec<u32>,
    /// Per square, the least of its distances ([`UNREACHABLE`]: a dead square).
    nearest: Vec<u32>,
}

/// What one expansion of a side ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// No end yet.
    Going,
    /// The side has no state left.
    Exhausted,
    /// This new state of the side is the other end: forwards every box on a goal,
    /// backwards the start.
    Reached(u32),
    /// This new state of the side (first) is in the other side's store (second).
    Met(u32, u32),
}

/// What the sides' expansions share.
struct Scratch<'a> {
    grid: &'a Grid,
    board: Board<'a>,
    freeze: Freeze,
    matcher: Matcher,
    walker: Walker,
    region: Walker,
    occupied: Vec<bool>,
    boxes: Vec<u16>,
    child: Vec<u16>,
    /// The words of the level's start: its boxes, then the player's region.
    start: Vec<u16>,
    g_weight: u64,
    h_weight: u64,
}

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

impl Side {
    /// A side with `distance` (`k` targets), no state yet.
    fn new(
        moves: Move,
        k: usize,
        n: usize,
        distance: Vec<u32>,
        budget: &mut Budget,
    ) -> Result<Self, Halt> {
        budget.take((distance.len() * 4 + n * 4) as u64)?;
        let nearest = (0..n)
            .map(|c| (0..k).map(|t| distance[t * n + c]).min().unwrap_or(0))
            .collect();
        Ok(Side {
            moves,
            store: Store::new(k, budget)?,
            queue: Buckets::default(),
            depth: Vec::new(),
            bound: Vec::new(),
            distance,
            nearest,
        })
    }

    /// The matching of `boxes` to this side's targets, `None` when there is none.
    fn matching(&self, matcher: &mut Matcher, boxes: &[u16]) -> Option<u32> {
        let n = self.nearest.len();
        matcher.min_cost(boxes.len(), |i, t| {
            self.distance[t * n + usize::from(boxes[i])]
        })
    }

    /// Adds a start with these words (new), queued at its matching; `false` when it has
    /// none.
    fn add_start(
        &mut self,
        words: &[u16],
        s: &mut Scratch<'_>,
        budget: &mut Budget,
    ) -> Result<bool, Halt> {
        let k = words.len() - 1;
        let hash = Store::hash(words);
        let Err(slot) = self.store.find(words, hash) else {
            return Ok(true);
        };
        let Some(h) = self.matching(&mut s.matcher, &words[..k]) else {
            return Ok(false);
        };
        let id = self.store.insert(words, hash, slot, NONE, budget)?;
        budget.room(&mut self.depth, 1)?;
        self.depth.push(0);
        budget.room(&mut self.bound, 1)?;
        self.bound.push(h);
        self.queue.push(s.h_weight * u64::from(h), id, budget)?;
        Ok(true)
    }

    /// Takes one state from the queue and makes its children; see [`Step`]. `other`: the
    /// other side's store, for meeting.
    fn expand(
        &mut self,
        other: Option<&Store>,
        s: &mut Scratch<'_>,
        budget: &mut Budget,
    ) -> Result<Step, Halt> {
        let Some(state) = self.queue.pop(budget) else {
            return Ok(Step::Exhausted);
        };
        let k = s.boxes.len();
        s.boxes.copy_from_slice(&self.store.state(state)[..k]);
        let g = self.depth[state as usize] + 1;
        if self.bound[state as usize] == ESTIMATED {
            // Queued on an estimate: the matching now, and queued again at its value
            // unless the estimate was right.
            let Some(h) = self.matching(&mut s.matcher, &s.boxes) else {
                return Ok(Step::Going);
            };
            self.bound[state as usize] = h;
            let priority = s.g_weight * u64::from(g - 1) + s.h_weight * u64::from(h);
            if priority > self.queue.taken {
                self.queue.push(priority, state, budget)?;
                return Ok(Step::Going);
            }
        }
        let h = self.bound[state as usize];
        let player = CellId::new(usize::from(self.store.state(state)[k]));
        for &b in &s.boxes {
            s.occupied[usize::from(b)] = true;
        }
        s.walker.run(s.grid, &s.occupied, player);
        let mut step = Step::Going;
        'boxes: for i in 0..k {
            let cell = CellId::new(usize::from(s.boxes[i]));
            for dir in Dir::ALL {
                // Where the box ends and where the player then stands.
                let (to, standing) = match self.moves {
                    Move::Push => {
                        let (Some(next), Some(behind)) = (
                            s.grid.neighbour(cell, dir),
                            s.grid.neighbour(cell, dir.opposite()),
                        ) else {
                            continue;
                        };
                        if s.occupied[next.index()] || !s.walker.reached(behind) {
                            continue;
                        }
                        (next, cell)
                    }
                    Move::Pull => {
                        let Some(beside) = s.grid.neighbour(cell, dir) else {
                            continue;
                        };
                        let Some(away) = s.grid.neighbour(beside, dir) else {
                            continue;
                        };
                        if !s.walker.reached(beside) || s.occupied[away.index()] {
                            continue;
                        }
                        (beside, away)
                    }
                };
                if self.nearest[to.index()] == UNREACHABLE {
                    continue;
                }
                s.occupied[cell.index()] = false;
                s.occupied[to.index()] = true;
                let frozen =
                    self.moves == Move::Push && s.freeze.deadlocked(&s.board, &s.occupied, to);
                if !frozen {
                    s.child[..k].copy_from_slice(&s.boxes);
                    s.child[i] = to.index() as u16;
                    s.child[..k].sort_unstable();
                    s.region.run(s.grid, &s.occupied, standing);
                    s.child[k] = s.region.least().index() as u16;
                }
                s.occupied[to.index()] = false;
                s.occupied[cell.index()] = true;
                if frozen {
                    continue;
                }
                let hash = Store::hash(&s.child);
                let Err(slot) = self.store.find(&s.child, hash) else {
                    continue;
                };
                let id = match self.store.insert(&s.child, hash, slot, state, budget) {
                    Ok(id) => id,
                    Err(halt) => {
                        clear(&mut s.occupied, &s.boxes);
                        return Err(halt);
                    }
                };
                let queued = budget
                    .room(&mut self.depth, 1)
                    .and_then(|()| budget.room(&mut self.bound, 1));
                if let Err(halt) = queued {
                    clear(&mut s.occupied, &s.boxes);
                    return Err(halt);
                }
                self.depth.push(g);
                self.bound.push(ESTIMATED);
                let reached = match self.moves {
                    Move::Push => s.child[..k]
                        .iter()
                        .all(|&b| s.board.is_goal(usize::from(b))),
                    Move::Pull => s.child == s.start,
                };
                if reached {
                    step = Step::Reached(id);
                    break 'boxes;
                }
                if let Some(met) = other.and_then(|o| o.find(&s.child, hash).ok()) {
                    step = Step::Met(id, met);
                    break 'boxes;
                }
                let estimate =
                    (h + self.nearest[to.index()]).saturating_sub(self.nearest[cell.index()]);
                let priority = s.g_weight * u64::from(g) + s.h_weight * u64::from(estimate);
                if let Err(halt) = self.queue.push(priority, id, budget) {
                    clear(&mut s.occupied, &s.boxes);
                    return Err(halt);
                }
            }
        }
        clear(&mut s.occupied, &s.boxes);
        Ok(step)
    }
}

/// Unmarks the squares of `boxes` in `occupied`.
fn clear(occupied: &mut [bool], boxes: &[u16]) {
    for &b in boxes {
        occupied[usize::from(b)] = false;
    }
}

/// Runs the search; see the module documentation. `options.direction` says whether the
/// forward side takes part ([`Direction::Both`]) or not.
pub(super) fn search(
    level: &Level,
    options: &Options,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Outcome, Halt> {
    let unsolvable = Ok(Outcome::Exhausted { complete: true });
    if level.stranded() {
        return unsolvable;
    }
    let grid = level.grid();
    let n = grid.cell_count();
    let k = level.boxes().len();
    let mut budget = Budget::new(options.memory_bytes);
    let board = Board::new(level);
    budget.take(board.bytes())?;
    if level.boxes().iter().any(|b| board.is_dead(b.index())) {
        return unsolvable;
    }
    if level.boxes().iter().all(|b| board.is_goal(b.index())) {
        return Ok(Outcome::Solved(String::new()));
    }
    let mut s = Scratch {
        grid,
        board,
        freeze: Freeze::new(n),
        matcher: Matcher::new(),
        walker: Walker::new(n),
        region: Walker::new(n),
        occupied: vec![false; n],
        boxes: vec![0; k],
        child: vec![0; k + 1],
        start: Vec::with_capacity(k + 1),
        g_weight: u64::from(options.g_weight),
        h_weight: u64::from(options.h_weight),
    };
    budget.take((n * 16) as u64)?;
    // The start's words: the forward side's start, the backward side's end.
    s.start
        .extend(level.boxes().iter().map(|b| b.index() as u16));
    for b in level.boxes() {
        s.occupied[b.index()] = true;
    }
    s.region.run(grid, &s.occupied, level.player());
    s.start.push(s.region.least().index() as u16);
    for b in level.boxes() {
        s.occupied[b.index()] = false;
    }

    let mut backward = Side::new(
        Move::Pull,
        k,
        n,
        pull_distances(grid, level.boxes()),
        &mut budget,
    )?;
    // The backward starts: the goals' layout, the player in each region from which a
    // box can be pulled.
    let goals: Vec<u16> = level.goals().iter().map(|g| g.index() as u16).collect();
    for g in level.goals() {
        s.occupied[g.index()] = true;
    }
    let mut seen = vec![false; n];
    let mut words = goals.clone();
    words.push(0);
    for from in grid.cells() {
        if s.occupied[from.index()] || seen[from.index()] {
            continue;
        }
        s.region.run(grid, &s.occupied, from);
        for &c in s.region.order() {
            seen[c.index()] = true;
        }
        let pulls = level.goals().iter().any(|&g| {
            Dir::ALL.into_iter().any(|dir| {
                s.grid.neighbour(g, dir).is_some_and(|beside| {
                    s.region.reached(beside)
                        && s.grid
                            .neighbour(beside, dir)
                            .is_some_and(|away| !s.occupied[away.index()])
                })
            })
        });
        if pulls {
            words[k] = s.region.least().index() as u16;
            if !backward.add_start(&words, &mut s, &mut budget)? {
                clear(&mut s.occupied, &goals);
                return unsolvable;
            }
        }
    }
    clear(&mut s.occupied, &goals);

    let mut forward = match options.direction {
        Direction::Both => {
            let distance = (0..k * n)
                .map(|at| s.board.distance(at / n, at % n))
                .collect();
            let mut side = Side::new(Move::Push, k, n, distance, &mut budget)?;
            let start = s.start.clone();
            if !side.add_start(&start, &mut s, &mut budget)? {
                return unsolvable;
            }
            Some(side)
        }
        _ => None,
    };

    let mut expanded = 0u64;
    loop {
        expanded += 1;
        if expanded % STOP_EVERY == 0 && stop() {
            return Err(Halt::Stopped);
        }
        let other = forward.as_ref().map(|f| &f.store);
        let layouts: Vec<&[u16]> = match backward.expand(other, &mut s, &mut budget)? {
            Step::Going => Vec::new(),
            Step::Exhausted => return unsolvable,
            Step::Reached(id) => {
                let chain = ancestry(&backward.store, id);
                chain.iter().map(|&b| backward.store.state(b)).collect()
            }
            Step::Met(b, f) => match &forward {
                Some(forward) => joined(&forward.store, f, &backward.store, b),
                None => Vec::new(),
            },
        };
        if !layouts.is_empty() {
            return Ok(Outcome::Solved(lurd_through(
                level,
                &layouts,
                &mut s.walker,
            )));
        }
        let Some(forward) = forward.as_mut() else {
            continue;
        };
        let layouts: Vec<&[u16]> =
            match forward.expand(Some(&backward.store), &mut s, &mut budget)? {
                Step::Going => Vec::new(),
                Step::Exhausted => return unsolvable,
                Step::Reached(id) => {
                    let mut chain = ancestry(&forward.store, id);
                    chain.reverse();
                    chain.iter().map(|&f| forward.store.state(f)).collect()
                }
                Step::Met(f, b) => joined(&forward.store, f, &backward.store, b),
            };
        if !layouts.is_empty() {
            return Ok(Outcome::Solved(lurd_through(
                level,
                &layouts,
                &mut s.walker,
            )));
        }
    }
}

/// The layouts from the start to `f` of the forward `forwards`, then on from `b` of the
/// backward `backwards` (the same words as `f`) to the goals.
fn joined<'a>(forwards: &'a Store, f: u32, backwards: &'a Store, b: u32) -> Vec<&'a [u16]> {
    let mut chain = ancestry(forwards, f);
    chain.reverse();
    let mut layouts: Vec<&[u16]> = chain.iter().map(|&id| forwards.state(id)).collect();
    layouts.extend(
        ancestry(backwards, b)
            .iter()
            .skip(1)
            .map(|&id| backwards.state(id)),
    );
    layouts
}

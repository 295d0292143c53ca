//! The exact search: A* over (box squares, the player's exact square after the last push),
//! with a lexicographic cost, (pushes, moves) or (moves, pushes).
//!
//! # Method
//! A state is the sorted box squares and the square the player stands on right after the
//! push that made it. The player's square is kept exact, not normalised to its reachable
//! region, because the second key (or the first, for moves) counts the steps of the walk
//! to the next push, and that depends on where the player is. One edge is one push: the
//! player walks (boxes as walls, breadth-first) to the square behind a box and pushes it;
//! the edge costs 1 push and walk + 1 moves.
//!
//! The bound is a pair. Pushes: the minimum-cost matching of boxes to goals on lone-box
//! push distances ([`crate::matching`], [`crate::board`]). Moves: at least those pushes,
//! and at least, for every box, the fewest moves that bring that box alone onto a goal
//! with the player starting on its square ([`Board::lone_steps`]): the player's track in
//! any solution, the other boxes taken away, solves each one-box level. In the metric's
//! order the pair never exceeds the remaining cost lexicographically, so the first solved
//! state taken from the queue is optimal on both keys. The per-square push distances take
//! the best side of each box, which makes the bound admissible but not always consistent,
//! so a state reached again more cheaply is queued again (re-opened); a queue entry whose
//! cost is no longer its state's is skipped.
//!
//! Pruned, because no solution passes there (so every optimum survives for both metrics):
//! pushes onto dead squares, pushes that freeze a box off a goal ([`crate::board::Freeze`]),
//! and states whose matching is impossible.
//!
//! # Complexity
//! Exponential in the number of boxes in the worst case (the problem is PSPACE-complete).
//! Per expanded state: one walk search O(cells), and per new state an O(k log k) insertion,
//! an O(k) hash and an O(k^3) matching for k boxes. Memory: (k + 1) x 2 + 16 bytes per
//! state, plus the hash table and the queue, all counted against the budget.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::time::Instant;

use grid_core::{CellId, Dir, Grid};

use crate::board::{Board, Freeze, NO_STEPS};
use crate::matching::Matcher;
use crate::parse::Level;
use crate::{Limit, Metric, Outcome, Solution, SolveOptions};

/// "No parent": the start state.
const ROOT: u32 = u32::MAX;
/// The bound of a state that cannot be solved (impossible matching): never queued.
const HOPELESS: u32 = u32::MAX;

/// What the table keeps per state besides its squares.
#[derive(Debug, Clone, Copy)]
struct Info {
    /// Cost from the start in the metric's order (first key, second key).
    cost: [u32; 2],
    /// Lower bound on the cost still needed, in the metric's order; its
    /// first key is [`HOPELESS`] when the state cannot be solved.
    bound: [u32; 2],
    /// The state it was reached from, or [`ROOT`].
    parent: u32,
}

/// When an open state is taken: smallest `f` (cost so far plus bound, a pair in the
/// metric's order) first; among equal `f`, the largest first key so far (the deepest
/// state, nearest the goal by the bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Priority {
    f: [u32; 2],
    deeper_first: Reverse<u32>,
}

/// The open states, by [`Priority`]: one bucket per priority, last in first out within it.
///
/// Why buckets and not a binary heap: priorities take few distinct values (pushes and
/// moves are small integers), so a map of buckets does O(log buckets) work per operation
/// on 4-byte entries instead of O(log states) on 16-byte ones.
#[derive(Debug, Default)]
struct Queue {
    buckets: BTreeMap<Priority, Vec<u32>>,
}

impl Queue {
    fn push(&mut self, f: [u32; 2], depth: u32, state: u32) {
        let priority = Priority {
            f,
            deeper_first: Reverse(depth),
        };
        self.buckets.entry(priority).or_default().push(state);
    }

    fn pop(&mut self) -> Option<([u32; 2], u32)> {
        let mut first = self.buckets.first_entry()?;
        let f = first.key().f;
        let state = first.get_mut().pop();
        if first.get().is_empty() {
            first.remove();
        }
        state.map(|s| (f, s))
    }
}

/// Bytes counted per queue entry: 4, doubled for the growth of the buckets.
const QUEUE_ENTRY_BYTES: u64 = 8;

/// Memory accounting against `--memory-mib`.
#[derive(Debug)]
struct Budget {
    bytes: u64,
    limit: u64,
}

impl Budget {
    /// Makes room for one more element in `v`, growing it by doubling when the budget
    /// allows; `false` when it does not.
    fn room<T>(&mut self, v: &mut Vec<T>) -> bool {
        if v.len() < v.capacity() {
            return true;
        }
        let extra = v.capacity().max(1024);
        let bytes = (extra * size_of::<T>()) as u64;
        if self.bytes + bytes > self.limit {
            return false;
        }
        v.reserve_exact(extra);
        self.bytes += ((v.capacity() - v.len()) * size_of::<T>()) as u64;
        true
    }
}

/// One slot of the hash index: the state's key and its number ([`EMPTY`] when free).
///
/// When every square fits a byte and the state has at most 16 of them (most real levels),
/// the key is the state itself, packed, so a lookup reads one slot and nothing else;
/// otherwise it is a 64-bit hash and equal keys are confirmed on the squares.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: [u64; 2],
    state: u32,
}

/// A free [`Slot`].
const EMPTY: u32 = u32::MAX;

/// The states seen: their squares in one flat array, an open-addressing hash index over
/// them (linear probing, at most half full), and their [`Info`].
#[derive(Debug)]
struct Table {
    /// Words per state: k boxes, then the player.
    stride: usize,
    words: Vec<u16>,
    info: Vec<Info>,
    slots: Vec<Slot>,
    /// The key is the packed state (see [`Slot`]).
    packed: bool,
    zobrist: Vec<u64>,
}

impl Table {
    fn new(k: usize, cells: usize) -> Self {
        Table {
            stride: k + 1,
            words: Vec::new(),
            info: Vec::new(),
            slots: vec![
                Slot {
                    key: [0; 2],
                    state: EMPTY
                };
                1 << 10
            ],
            packed: cells <= 256 && k < 16,
            // Per cell: one key for a box there, one for the player there.
            zobrist: (0..cells as u64 * 2).map(mix).collect(),
        }
    }

    /// The slot key of a state and the hash that places it.
    #[inline]
    fn key(&self, words: &[u16]) -> ([u64; 2], u64) {
        if self.packed {
            let mut key = [0u64; 2];
            for (i, &w) in words.iter().enumerate() {
                key[i / 8] |= u64::from(w) << (8 * (i % 8));
            }
            (key, mix(key[0] ^ mix(key[1])))
        } else {
            let (boxes, player) = words.split_at(self.stride - 1);
            let mut h = self.zobrist[player[0] as usize * 2 + 1];
            for &b in boxes {
                h ^= self.zobrist[b as usize * 2];
            }
            ([h, 0], h)
        }
    }

    fn words(&self, state: u32) -> &[u16] {
        let at = state as usize * self.stride;
        &self.words[at..at + self.stride]
    }

    /// The state with these squares, if seen, else the free slot where it goes.
    #[inline]
    fn find(&self, words: &[u16], key: ([u64; 2], u64)) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = key.1 as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.state == EMPTY {
                return Err(i);
            }
            if slot.key == key.0 && (self.packed || self.words(slot.state) == words) {
                return Ok(slot.state);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a new state at the free slot `slot` found by [`Table::find`]; `None` when the
    /// budget does not allow it.
    fn insert(
        &mut self,
        words: &[u16],
        key: ([u64; 2], u64),
        slot: usize,
        info: Info,
        budget: &mut Budget,
    ) -> Option<u32> {
        let state = self.info.len() as u32;
        if state >= EMPTY - 1 || !budget.room(&mut self.info) {
            return None;
        }
        // `room` grows by at least 1024 words, more than one state's.
        if self.words.len() + self.stride > self.words.capacity() && !budget.room(&mut self.words) {
            return None;
        }
        self.words.extend_from_slice(words);
        self.info.push(info);
        self.slots[slot] = Slot { key: key.0, state };
        if self.info.len() * 2 > self.slots.len() {
            let old = (self.slots.len() * size_of::<Slot>()) as u64;
            if budget.bytes + 2 * old > budget.limit {
                return None;
            }
            budget.bytes += old;
            let empty = Slot {
                key: [0; 2],
                state: EMPTY,
            };
            let mut slots = vec![empty; self.slots.len() * 2];
            let mask = slots.len() - 1;
            for s in 0..self.info.len() as u32 {
                let (key, hash) = self.key(self.words(s));
                let mut i = hash as usize & mask;
                while slots[i].state != EMPTY {
                    i = (i + 1) & mask;
                }
                slots[i] = Slot { key, state: s };
            }
            self.slots = slots;
        }
        Some(state)
    }
}

/// A well-mixed 64-bit key for `x` (SplitMix64's finaliser): the Zobrist keys of the
/// table, the same on every run.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Breadth-first walks of the player with the boxes as walls.
#[derive(Debug, Clone)]
pub struct Walker {
    dist: Vec<u32>,
    /// The direction of the last step into each square, for reading a walk back.
    came: Vec<Dir>,
    stamp: Vec<u32>,
    round: u32,
    queue: Vec<CellId>,
}

impl Walker {
    /// Buffers for `cells` squares.
    pub fn new(cells: usize) -> Self {
        Walker {
            dist: vec![0; cells],
            came: vec![Dir::North; cells],
            stamp: vec![0; cells],
            round: 0,
            queue: Vec::with_capacity(cells),
        }
    }

    /// Walks from `from` over every square not `occupied`.
    ///
    /// # Complexity
    /// O(cells).
    pub fn run(&mut self, grid: &Grid, occupied: &[bool], from: CellId) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.fill(0);
            self.round = 1;
        }
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from.index()] = self.round;
        self.dist[from.index()] = 0;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            let next = self.dist[cell.index()] + 1;
            for (dir, n) in grid.neighbours(cell) {
                if self.stamp[n.index()] != self.round && !occupied[n.index()] {
                    self.stamp[n.index()] = self.round;
                    self.dist[n.index()] = next;
                    self.came[n.index()] = dir;
                    self.queue.push(n);
                }
            }
        }
    }

    /// The length of the last walk to `cell`, if it reached it.
    #[inline]
    pub fn distance(&self, cell: CellId) -> Option<u32> {
        (self.stamp[cell.index()] == self.round).then(|| self.dist[cell.index()])
    }

    /// The directions of one shortest walk to `cell` from the last start, in order.
    pub fn walk_to(&self, grid: &Grid, cell: CellId) -> Vec<Dir> {
        let mut dirs = Vec::new();
        let mut at = cell;
        while self.distance(at).is_some_and(|d| d > 0) {
            let dir = self.came[at.index()];
            dirs.push(dir);
            match grid.neighbour(at, dir.opposite()) {
                Some(back) => at = back,
                None => break,
            }
        }
        dirs.reverse();
        dirs
    }
}

/// The LURD letter of a step: lower case for a walk, upper case for a push.
pub fn lurd(dir: Dir, push: bool) -> char {
    let letter = match dir {
        Dir::North => 'u',
        Dir::South => 'd',
        Dir::West => 'l',
        Dir::East => 'r',
    };
    if push {
        letter.to_ascii_uppercase()
    } else {
        letter
    }
}

/// Solves `level` for `options.metric`; see the module documentation.
pub fn solve(level: &Level, options: &SolveOptions) -> Outcome {
    if level.stranded() {
        return Outcome::Unsolvable;
    }
    let board = Board::new(level);
    let grid = level.grid();
    let n = grid.cell_count();
    let k = level.boxes().len();
    if level.boxes().iter().any(|b| board.is_dead(b.index())) {
        return Outcome::Unsolvable;
    }
    let started = Instant::now();
    let mut budget = Budget {
        bytes: 0,
        limit: options.memory_mib.saturating_mul(1 << 20),
    };
    let mut table = Table::new(k, n);
    budget.bytes +=
        (table.slots.len() * size_of::<Slot>() + table.zobrist.len() * 8) as u64 + board.bytes();
    let mut matcher = Matcher::new();
    let mut walker = Walker::new(n);
    let mut freeze = Freeze::new(n);
    let mut occupied = vec![false; n];

    // The bound of a state: pushes >= the matching; moves >= the pushes, and >= the
    // lone-box moves of every box from the player's square.
    let bound_of = |matcher: &mut Matcher, words: &[u16]| -> [u32; 2] {
        let Some(pushes) = matcher.min_cost(k, |i, j| board.distance(j, words[i] as usize)) else {
            return [HOPELESS; 2];
        };
        let player = words[k] as usize;
        let mut moves = pushes;
        for &b in &words[..k] {
            let lone = board.lone_steps(b as usize, player);
            if lone == NO_STEPS {
                return [HOPELESS; 2];
            }
            moves = moves.max(lone);
        }
        match options.metric {
            Metric::Pushes => [pushes, moves],
            Metric::Moves => [moves, pushes],
        }
    };

    let mut start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    start.push(level.player().index() as u16);
    let bound = bound_of(&mut matcher, &start);
    if bound[0] == HOPELESS {
        return Outcome::Unsolvable;
    }
    let key = table.key(&start);
    let Err(slot) = table.find(&start, key) else {
        return Outcome::Unknown(Limit::Memory);
    };
    let info = Info {
        cost: [0, 0],
        bound,
        parent: ROOT,
    };
    if table.insert(&start, key, slot, info, &mut budget).is_none() {
        return Outcome::Unknown(Limit::Memory);
    }
    let mut queue = Queue::default();
    queue.push(bound, 0, 0);
    let mut expanded = 0u64;
    let mut words = vec![0u16; k + 1];
    let mut child = vec![0u16; k + 1];

    while let Some((f, state)) = queue.pop() {
        let info = table.info[state as usize];
        if [info.cost[0] + info.bound[0], info.cost[1] + info.bound[1]] != f {
            continue; // reached again more cheaply since it was queued
        }
        words.copy_from_slice(table.words(state));
        if info.bound[0] == 0 && words[..k].iter().all(|&b| board.is_goal(b as usize)) {
            return Outcome::Solved(read_solution(level, &table, state, &mut walker));
        }
        expanded += 1;
        if expanded % 256 == 0 {
            if let Some(limit) = options.time_limit {
                if started.elapsed() >= limit {
                    return Outcome::Unknown(Limit::Time);
                }
            }
        }
        for &b in &words[..k] {
            occupied[b as usize] = true;
        }
        let player = CellId::new(words[k] as usize);
        walker.run(grid, &occupied, player);
        for i in 0..k {
            let cell = CellId::new(words[i] as usize);
            for dir in Dir::ALL {
                let Some(to) = grid.neighbour(cell, dir) else {
                    continue;
                };
                if occupied[to.index()] || board.is_dead(to.index()) {
                    continue;
                }
                let Some(walk) = grid
                    .neighbour(cell, dir.opposite())
                    .and_then(|behind| walker.distance(behind))
                else {
                    continue;
                };
                occupied[cell.index()] = false;
                occupied[to.index()] = true;
                let frozen = freeze.deadlocked(&board, &occupied, to);
                occupied[to.index()] = false;
                occupied[cell.index()] = true;
                if frozen {
                    continue;
                }
                // The child's squares: box i moves to `to`, kept sorted.
                child.copy_from_slice(&words);
                child[i] = to.index() as u16;
                child[..k].sort_unstable();
                child[k] = cell.index() as u16;
                let step = [1, walk + 1];
                let cost = match options.metric {
                    Metric::Pushes => [info.cost[0] + step[0], info.cost[1] + step[1]],
                    Metric::Moves => [info.cost[0] + step[1], info.cost[1] + step[0]],
                };
                let key = table.key(&child);
                let (target, bound) = match table.find(&child, key) {
                    Ok(seen) => {
                        let old = &mut table.info[seen as usize];
                        if old.bound[0] == HOPELESS || cost >= old.cost {
                            continue;
                        }
                        old.cost = cost;
                        old.parent = state;
                        (seen, old.bound)
                    }
                    Err(slot) => {
                        let bound = bound_of(&mut matcher, &child);
                        let info = Info {
                            cost,
                            bound,
                            parent: state,
                        };
                        match table.insert(&child, key, slot, info, &mut budget) {
                            Some(s) => (s, bound),
                            None => return Outcome::Unknown(Limit::Memory),
                        }
                    }
                };
                if bound[0] == HOPELESS {
                    continue;
                }
                if budget.bytes + QUEUE_ENTRY_BYTES > budget.limit {
                    return Outcome::Unknown(Limit::Memory);
                }
                budget.bytes += QUEUE_ENTRY_BYTES;
                queue.push([cost[0] + bound[0], cost[1] + bound[1]], cost[0], target);
            }
        }
        for &b in &words[..k] {
            occupied[b as usize] = false;
        }
    }
    Outcome::Unsolvable
}

/// The moves from the start to `state`, read back through the parents, each walk a
/// shortest one with the boxes as walls.
fn read_solution(level: &Level, table: &Table, state: u32, walker: &mut Walker) -> Solution {
    let grid = level.grid();
    let k = table.stride - 1;
    let mut chain = vec![state];
    let mut at = state;
    while table.info[at as usize].parent != ROOT {
        at = table.info[at as usize].parent;
        chain.push(at);
    }
    chain.reverse();
    let mut occupied = vec![false; grid.cell_count()];
    let mut moves = String::new();
    let mut pushes = 0u32;
    let mut count = 0u32;
    for pair in chain.windows(2) {
        let (before, after) = (table.words(pair[0]), table.words(pair[1]));
        let from = before[..k].iter().find(|b| !after[..k].contains(b));
        let to = after[..k].iter().find(|b| !before[..k].contains(b));
        let (Some(&from), Some(&to)) = (from, to) else {
            continue;
        };
        let (from, to) = (CellId::new(from as usize), CellId::new(to as usize));
        let Some(dir) = Dir::ALL
            .into_iter()
            .find(|&d| grid.neighbour(from, d) == Some(to))
        else {
            continue;
        };
        for &b in &before[..k] {
            occupied[b as usize] = true;
        }
        walker.run(grid, &occupied, CellId::new(before[k] as usize));
        for &b in &before[..k] {
            occupied[b as usize] = false;
        }
        if let Some(behind) = grid.neighbour(from, dir.opposite()) {
            for step in walker.walk_to(grid, behind) {
                moves.push(lurd(step, false));
                count += 1;
            }
        }
        moves.push(lurd(dir, true));
        count += 1;
        pushes += 1;
    }
    Solution {
        pushes,
        moves: count,
        lurd: moves,
    }
}

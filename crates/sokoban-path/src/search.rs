//! The exact four-key search: fewest pushes, then fewest walks, then the smallest push
//! sequence, then the smallest walk sequence (spec, "The answer, exactly").
//!
//! # Method
//! A state is (box cell, side of the box the person stands on) just after a push; the spec's
//! first pitfall (the box revisits a cell from another side) is why the side is part of it.
//! Four passes:
//!
//! 1. **Exact push distances, backwards from the target, once.** From every state, the
//!    fewest pushes that bring the box to the target, ignoring walk lengths. Which pushes a
//!    state allows depends only on which sides of the box the person can reach without
//!    moving it, and [`Blocks`] answers that in O(1), so this pass is a plain breadth-first
//!    search over at most 4 x cells states with no walk search at all. It also proves a
//!    maze impossible at once.
//! 2. **Forward over push-optimal states only, layer by layer.** A solution with the fewest
//!    pushes `P` only visits states with `pushes so far + push distance = P`, so only those
//!    are expanded; within a layer each state keeps the fewest walks over *all* its ways in
//!    (the spec's second pitfall: a later way with fewer walks replaces the first).
//!    Walk lengths come from an early-stopping search that treats the box as a wall (the
//!    third pitfall).
//! 3. **Mark the optimal states backwards**: from the target states with the fewest walks,
//!    through the "tight" edges (walks before + walk of the edge = walks after).
//! 4. **Read the answer forwards**: a push sequence fixes every state it passes (the box
//!    moves with the letters, and the person stands where the box was), so the smallest push
//!    sequence is chosen greedily: at every state the first push in N, S, W, E order whose
//!    edge is tight and leads to a marked state. Given the pushes, each walk has a fixed
//!    (shortest) length, so the smallest walk sequence is the smallest shortest walk of each
//!    segment, in order ([`Walker::smallest_walk`], grid-core's stamped walker).
//!
//! # Complexity
//! O(cells) for passes 1 and 3 and the setup (blocks), plus one early-stopping walk search
//! per push-optimal state in pass 2 and one per push in pass 4: O(cells^2) in the worst
//! case, near O(cells) on open rooms where walks around the box are short (a 1024 x 1024 room
//! with scattered walls: 0.7 s). Memory is about 170 bytes per cell in all (per-state
//! tables, blocks, walk buffers).

use grid_core::Blocks;
use grid_core::push::{decode, push_distances, state};
use grid_core::{CellId, Dir, Grid};

use crate::problem::Maze;
use grid_core::{UNREACHABLE, Walker};

/// "Not reached yet" in the per-state walk table.
const UNSET_WALKS: u64 = u64::MAX;

/// The answer to a solvable maze: its move string, and the counts read off it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Walk letters `nswe`, push letters `NSWE`.
    moves: String,
}

impl Solution {
    /// The move string: walk letters `nswe`, push letters `NSWE`.
    pub fn moves(&self) -> &str {
        &self.moves
    }

    /// Number of pushes (uppercase letters).
    ///
    /// # Complexity
    /// O(moves).
    pub fn pushes(&self) -> usize {
        self.moves.bytes().filter(u8::is_ascii_uppercase).count()
    }

    /// Number of walks (lowercase letters).
    ///
    /// # Complexity
    /// O(moves).
    pub fn walks(&self) -> usize {
        self.moves.bytes().filter(u8::is_ascii_lowercase).count()
    }
}

/// The search, with buffers reused from one maze to the next.
#[derive(Debug, Clone, Default)]
pub(crate) struct Solver {
    /// Per state: fewest pushes to the target ([`UNREACHABLE`] when there is no way).
    push_dist: Vec<u32>,
    /// Per push-optimal state reached: fewest walks from the start.
    walks: Vec<u64>,
    /// Per expanded state: walk length from the person's side to each side of the box
    /// (only for the sides a push-optimal push starts from; else [`UNREACHABLE`]).
    side_walks: Vec<[u32; 4]>,
    /// Per state: lies on an optimal solution.
    marked: Vec<bool>,
    /// The states of all layers, layer after layer; `layer_starts[k]` is where layer `k`
    /// (states after `k` pushes, from 1) begins.
    layer_states: Vec<u32>,
    layer_starts: Vec<usize>,
    queue: Vec<u32>,
    walker: Walker,
}

/// The push `dir` from a box on `cell`: the cell the box moves to and the cell the person
/// must stand on, when both are floor.
#[inline]
fn push(grid: &Grid, cell: CellId, dir: Dir) -> Option<(CellId, CellId)> {
    Some((
        grid.neighbour(cell, dir)?,
        grid.neighbour(cell, dir.opposite())?,
    ))
}

impl Solver {
    /// A solver with empty buffers.
    pub(crate) fn new() -> Self {
        Solver::default()
    }

    /// The answer for `maze` under the spec's four keys, or `None` when it is impossible.
    ///
    /// # Complexity
    /// See the module documentation.
    pub(crate) fn solve(&mut self, maze: &Maze) -> Option<Solution> {
        let grid = maze.grid();
        let n = grid.cell_count();
        let blocks = Blocks::new(grid);
        self.reset(n);
        // Pass 1 (grid-core: the many-box solver uses the same table).
        self.push_dist = push_distances(grid, &blocks, maze.target(), &mut self.queue);
        self.queue.clear();

        // The start is not a (box, side) state: the person may stand anywhere.
        let start_pushes = self.first_pushes(maze);
        let fewest = start_pushes
            .iter()
            .map(|&(_, v, _)| self.push_dist[v])
            .min()?;
        let total = fewest + 1;
        self.layer_starts.push(0); // layer 0 (the start) holds no state
        self.layer_starts.push(0);
        for &(_, v, walk) in &start_pushes {
            if self.push_dist[v] == fewest {
                self.walks[v] = u64::from(walk);
                self.layer_states.push(v as u32);
            }
        }
        for layer in 1..total as usize {
            self.expand_layer(grid, &blocks, layer);
        }
        self.layer_starts.push(self.layer_states.len());
        self.mark_optimal(grid, total as usize);

        // Pass 4: the smallest push sequence, greedily along marked tight edges.
        let mut dirs = Vec::with_capacity(total as usize);
        let mut current =
            start_pushes
                .iter()
                .find(|&&(_, v, _)| self.marked[v])
                .map(|&(dir, v, _)| {
                    dirs.push(dir);
                    v
                })?;
        while decode(current).0 != maze.target() {
            let (cell, _) = decode(current);
            let (dir, next) = Dir::ALL.into_iter().find_map(|dir| {
                let (to, _) = push(grid, cell, dir)?;
                let next = state(to, dir.opposite());
                let walk = self.side_walks[current][dir.opposite().index()];
                (self.marked[next]
                    && walk != UNREACHABLE
                    && self.push_dist[next] + 1 == self.push_dist[current]
                    && self.walks[current] + u64::from(walk) == self.walks[next])
                    .then_some((dir, next))
            })?;
            dirs.push(dir);
            current = next;
        }
        let moves = self.spell(maze, &dirs)?;
        Some(Solution { moves })
    }

    /// Sizes every per-state table for `n` cells and clears it.
    fn reset(&mut self, n: usize) {
        let states = n * 4;
        self.walks.clear();
        self.walks.resize(states, UNSET_WALKS);
        self.side_walks.clear();
        self.side_walks.resize(states, [UNREACHABLE; 4]);
        self.marked.clear();
        self.marked.resize(states, false);
        self.layer_states.clear();
        self.layer_starts.clear();
        self.queue.clear();
    }

    /// The first pushes the person can make from the start: (direction, state after it,
    /// walk before it), for every push whose state can still reach the target.
    fn first_pushes(&mut self, maze: &Maze) -> Vec<(Dir, usize, u32)> {
        let grid = maze.grid();
        let sides: Vec<(Dir, CellId, CellId)> = Dir::ALL
            .into_iter()
            .filter_map(|dir| push(grid, maze.box_start(), dir).map(|(to, at)| (dir, to, at)))
            .collect();
        let wanted: Vec<CellId> = sides.iter().map(|&(_, _, at)| at).collect();
        let box_start = maze.box_start();
        self.walker
            .search(grid, maze.person(), |c| c == box_start, &wanted);
        sides
            .into_iter()
            .filter_map(|(dir, to, at)| {
                let walk = self.walker.distance(at);
                let v = state(to, dir.opposite());
                (walk != UNREACHABLE && self.push_dist[v] != UNREACHABLE).then_some((dir, v, walk))
            })
            .collect()
    }

    /// Pass 2, one layer: expands every state of `layer` along the pushes that keep the
    /// total number of pushes fewest, keeping for every new state its fewest walks.
    fn expand_layer(&mut self, grid: &Grid, blocks: &Blocks, layer: usize) {
        let begin = self.layer_starts[layer];
        let end = self.layer_states.len();
        self.layer_starts.push(end);
        let mut wanted: Vec<CellId> = Vec::with_capacity(4);
        let mut moves: Vec<(Dir, usize, CellId)> = Vec::with_capacity(4);
        for index in begin..end {
            let u = self.layer_states[index] as usize;
            let (cell, side) = decode(u);
            let Some(person) = grid.neighbour(cell, side) else {
                continue;
            };
            let goal = self.push_dist[u] - 1;
            wanted.clear();
            moves.clear();
            for dir in Dir::ALL {
                if let Some((to, at)) = push(grid, cell, dir) {
                    let v = state(to, dir.opposite());
                    // A push the person cannot reach from this side would make the walk
                    // search flood its whole component in vain.
                    if self.push_dist[v] == goal
                        && blocks.connected_around(cell, side, dir.opposite())
                    {
                        wanted.push(at);
                        moves.push((dir, v, at));
                    }
                }
            }
            self.walker.search(grid, person, |c| c == cell, &wanted);
            for &(dir, v, at) in &moves {
                let walk = self.walker.distance(at);
                self.side_walks[u][dir.opposite().index()] = walk;
                if walk == UNREACHABLE {
                    continue; // cannot happen: the blocks say this side is reachable
                }
                let total = self.walks[u] + u64::from(walk);
                if self.walks[v] == UNSET_WALKS {
                    self.layer_states.push(v as u32);
                    self.walks[v] = total;
                } else if total < self.walks[v] {
                    self.walks[v] = total;
                }
            }
        }
    }

    /// Pass 3: marks every state that lies on a solution with the fewest pushes and walks.
    fn mark_optimal(&mut self, grid: &Grid, total: usize) {
        let last = self.layer_starts[total]..self.layer_starts[total + 1];
        let best = self.layer_states[last.clone()]
            .iter()
            .map(|&v| self.walks[v as usize])
            .min()
            .unwrap_or(UNSET_WALKS);
        for index in last {
            let v = self.layer_states[index] as usize;
            if self.walks[v] == best {
                self.marked[v] = true;
            }
        }
        for layer in (2..=total).rev() {
            for index in self.layer_starts[layer]..self.layer_starts[layer + 1] {
                let v = self.layer_states[index] as usize;
                if !self.marked[v] {
                    continue;
                }
                let (cell, side) = decode(v);
                let Some(from) = grid.neighbour(cell, side) else {
                    continue;
                };
                for before in Dir::ALL {
                    let u = state(from, before);
                    let walk = self.side_walks[u][side.index()];
                    if self.walks[u] != UNSET_WALKS
                        && walk != UNREACHABLE
                        && self.push_dist[u] == self.push_dist[v] + 1
                        && self.walks[u] + u64::from(walk) == self.walks[v]
                    {
                        self.marked[u] = true;
                    }
                }
            }
        }
    }

    /// Spells the answer for the push directions `dirs`: before every push, the smallest
    /// shortest walk to the cell behind the box.
    fn spell(&mut self, maze: &Maze, dirs: &[Dir]) -> Option<String> {
        let grid = maze.grid();
        let mut moves = String::new();
        let mut person = maze.person();
        let mut cell = maze.box_start();
        for &dir in dirs {
            let (to, at) = push(grid, cell, dir)?;
            self.walker.smallest_walk(
                grid,
                person,
                at,
                |c| c == cell,
                |dir| {
                    moves.push(dir.walk_letter());
                },
            )?;
            moves.push(dir.push_letter());
            person = cell;
            cell = to;
        }
        Some(moves)
    }
}

//! The fewest steps: A* over (box cell, player side) states, walks and pushes as edges,
//! a relaxed distance to the target (turns charged their local cost) as the heuristic.
//!
//! Why this method: between two pushes the player walks, and an optimal solution walks
//! each stretch by a shortest path with the box standing still. So the state that matters
//! is only where the box is and on which side of it the player stands: at most four states
//! per cell instead of one per (player, box) pair. Its edges are a push (cost 1) and a walk
//! to another side of the box (cost: the walk, see [`SideWalks`]). The heuristic
//! ([`steps_to_target_at_least`]: pushes cost 1, walks a lower bound from the cells and
//! walls round the box and from corridors) is consistent, so every state is expanded at
//! most once, with its exact distance; in open rooms and ladders it is nearly exact, so the
//! search follows the optimal solution closely (230 states expanded on a 128 x 128 room,
//! 30 to 700 on 128 x 128 ladders). States that can never bring the box home have no finite
//! heuristic and are never queued, so an unsolvable level costs a few O(cells) passes.
//!
//! A walk is searched only when it could matter: when a state is expanded, each walk to
//! another side is queued at its lower bound ([`SideWalks::at_least`]) and searched when
//! that entry comes first; walks that could only lead past the optimum are never searched
//! (the lazy edge evaluation of A*; keys stay lower bounds, so the order stays exact).
//!
//! Ties in f are broken towards the larger g (deeper states first), which keeps the
//! plateaus of open rooms from being expanded in full before the goal is met.
//!
//! # Complexity
//! O(S log S) heap operations for the S states expanded (at most 4 x cells), plus the walk
//! searches, each bounded by the cells within the detour around its box; O(cells) memory.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use grid_core::Blocks;
use grid_core::{CellId, Dir, UNREACHABLE};

use crate::bound::steps_to_target_at_least;
use crate::detour::{state, unpack};
use crate::problem::Puzzle;
use crate::walk::SideWalks;

/// [`Entry::kind`] of a state (any other value is the side a walk goes to).
const REAL: u8 = 4;

/// An entry of the A* queue: a state at `g` steps with `f = g + h`, or, when `kind` is a
/// side (0..4, the order of [`Dir::ALL`]), a walk from the (closed) state `state` to that
/// side, queued at its least local cost `g` and searched only once it comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    f: u32,
    g: u32,
    state: u32,
    kind: u8,
}

impl Ord for Entry {
    /// The heap pops the greatest: the smallest `f` first, then the largest `g` (deeper
    /// states first, see the module documentation), then the smallest state and kind.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .cmp(&self.f)
            .then(self.g.cmp(&other.g))
            .then(other.state.cmp(&self.state))
            .then(other.kind.cmp(&self.kind))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// What the searches of one puzzle share: the blocks of its floor, the cached walks around
/// the box, and the lower bound on the steps still needed from every state.
#[derive(Debug, Clone)]
pub struct Solver<'p> {
    pub(crate) puzzle: &'p Puzzle,
    pub(crate) blocks: Blocks,
    pub(crate) walks: SideWalks,
    /// Per state: a consistent lower bound on the steps still needed ([`UNREACHABLE`]:
    /// the box can never get home from there).
    pub(crate) to_target: Vec<u32>,
    /// How many states the last [`Solver::fewest_steps`] expanded.
    expanded: usize,
    /// Per state, after [`Solver::fewest_steps`]: the steps to reach it, exact where
    /// `closed` holds (an upper bound elsewhere).
    pub(crate) reached: Vec<u32>,
    /// Per state: expanded by the last [`Solver::fewest_steps`].
    pub(crate) closed: Vec<bool>,
}

impl<'p> Solver<'p> {
    /// Prepares the tables of `puzzle`: its blocks and the lower bound to the target.
    ///
    /// # Complexity
    /// O(cells).
    pub fn new(puzzle: &'p Puzzle) -> Self {
        let grid = puzzle.grid();
        let blocks = Blocks::new(grid);
        let walks = SideWalks::new(grid, &blocks);
        let to_target = steps_to_target_at_least(grid, &blocks, &walks, puzzle.target());
        Solver {
            puzzle,
            walks,
            blocks,
            to_target,
            expanded: 0,
            reached: Vec::new(),
            closed: Vec::new(),
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// Number of states the last [`Solver::fewest_steps`] expanded (for benchmarks).
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The states the player can start pushing from, with the steps walked to reach them:
    /// the sides of the box's start reachable from the player's start around the box.
    ///
    /// # Complexity
    /// O(cells): one breadth-first search.
    pub fn first_sides(&self) -> Vec<(usize, u32)> {
        let grid = self.puzzle.grid();
        let box_cell = self.puzzle.box_cell();
        let dist = grid.distances(self.puzzle.player(), Some(box_cell));
        Dir::ALL
            .into_iter()
            .filter_map(|side| {
                let at = grid.neighbour(box_cell, side)?;
                let walk = dist[at.index()];
                (walk != UNREACHABLE).then_some((state(box_cell, side), walk))
            })
            .collect()
    }

    /// The smallest number of steps that brings the box onto the target, or `None` when no
    /// sequence of steps does. 0 when the box starts on the target.
    ///
    /// # Complexity
    /// See the module documentation.
    pub fn fewest_steps(&mut self) -> Option<u32> {
        let grid = self.puzzle.grid();
        let target = self.puzzle.target();
        self.expanded = 0;
        if self.puzzle.box_cell() == target {
            return Some(0);
        }
        let mut best = std::mem::take(&mut self.reached);
        best.clear();
        best.resize(self.to_target.len(), UNREACHABLE);
        self.closed.clear();
        self.closed.resize(self.to_target.len(), false);
        let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
        let push = |heap: &mut BinaryHeap<_>, best: &mut [u32], h: &[u32], s: usize, g: u32| {
            if h[s] != UNREACHABLE && g < best[s] {
                best[s] = g;
                heap.push(Entry {
                    f: g + h[s],
                    g,
                    state: s as u32,
                    kind: REAL,
                });
            }
        };
        for (s, walk) in self.first_sides() {
            push(&mut heap, &mut best, &self.to_target, s, walk);
        }
        while let Some(Entry {
            g, state: s, kind, ..
        }) = heap.pop()
        {
            let s = s as usize;
            if kind != REAL {
                // A walk queued at its least cost: search it now, queue where it leads.
                let (cell, side) = unpack(s);
                let other = Dir::ALL[kind as usize];
                let t = state(cell, other);
                if g >= best[t] {
                    continue;
                }
                if let Some(walk) = self.walks.between(grid, &self.blocks, cell, side, other) {
                    let g = best[s] + walk;
                    push(&mut heap, &mut best, &self.to_target, t, g);
                }
                continue;
            }
            if g > best[s] {
                continue; // a stale entry
            }
            let (cell, side) = unpack(s);
            if cell == target {
                self.reached = best;
                return Some(g);
            }
            self.expanded += 1;
            self.closed[s] = true;
            if let Some(next) = grid.neighbour(cell, side.opposite()) {
                push(
                    &mut heap,
                    &mut best,
                    &self.to_target,
                    state(next, side),
                    g + 1,
                );
            }
            for other in Dir::ALL {
                if other == side || !self.blocks.connected_around(cell, side, other) {
                    continue;
                }
                let t = state(cell, other);
                match self.walks.known(cell, side, other) {
                    Some(walk) => push(&mut heap, &mut best, &self.to_target, t, g + walk),
                    None => {
                        let least = g + self.walks.at_least(cell, side, other);
                        if self.to_target[t] != UNREACHABLE && least < best[t] {
                            let f = least + self.to_target[t];
                            heap.push(Entry {
                                f,
                                g: least,
                                state: s as u32,
                                kind: other as u8,
                            });
                        }
                    }
                }
            }
        }
        self.reached = best;
        None
    }

    /// The walk from side `from` to side `to` of the box at `cell`, as in [`SideWalks`].
    pub(crate) fn walk(&mut self, cell: CellId, from: Dir, to: Dir) -> Option<u32> {
        self.walks
            .between(self.puzzle.grid(), &self.blocks, cell, from, to)
    }
}

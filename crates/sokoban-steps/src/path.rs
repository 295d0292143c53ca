//! One optimal step sequence: the smallest by direction order N < S < W < E among all the
//! optimal ones (the spec's tie rule), as `nswe` walks and `NSWE` pushes.
//!
//! Why this method: the smallest sequence is built front to back by taking, at every step,
//! the first direction whose move keeps the total optimal, which needs the exact number of
//! steps still needed from the states that lie on optimal solutions. Those come from a
//! Dijkstra search backwards from the target over the same (box cell, player side) states
//! as [`Solver::fewest_steps`], pruned with what the forward search proved: a state whose
//! distance from the start plus its distance to the target exceeds the optimum lies on no
//! optimal solution, and every state that does lies on one keeps its exact value. Then, for
//! each box position along the way, one A* search over the player's cells (towards the
//! player) gives the steps still needed from every cell an optimal walk can pass (walk to
//! a side, push, continue), and the walk between two pushes is read off it greedily.
//!
//! # Complexity
//! The backward search: O(S log S) for the S states not pruned, plus their walk searches.
//! The greedy part: O(k log k) per push for the k cells near optimal walks. Memory O(cells).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;

use grid_core::{CellId, Dir, Move, UNREACHABLE};

use crate::bound::steps_from_start_at_least;
use crate::detour::{state, unpack};
use crate::search::Solver;

/// An entry of the Dijkstra and A* queues of this module: an item (a state or a cell)
/// by its key, the smallest key first and, among equal keys, the smallest item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Nearest {
    key: u32,
    item: u32,
}

impl Nearest {
    fn new(key: u32, item: u32) -> Self {
        Nearest { key, item }
    }
}

impl Ord for Nearest {
    /// The heap pops the greatest: the smallest key, then the smallest item.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.key, other.item).cmp(&(self.key, self.item))
    }
}

impl PartialOrd for Nearest {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A step sequence, displayed as its letters (`nswe` walks, `NSWE` pushes).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(Vec<Move>);

impl Path {
    /// The steps, in order.
    pub fn moves(&self) -> &[Move] {
        &self.0
    }

    /// Number of steps, walks and pushes alike.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no step (the box started on the target).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of pushes.
    pub fn pushes(&self) -> usize {
        self.0.iter().filter(|m| m.push).count()
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .iter()
            .try_for_each(|m| fmt::Write::write_char(f, m.letter()))
    }
}

impl Solver<'_> {
    /// The smallest optimal step sequence (by directions, N < S < W < E), or `None` when the
    /// box can never reach the target. Empty when the box starts on the target.
    ///
    /// # Complexity
    /// See the module documentation.
    pub fn smallest_path(&mut self) -> Option<Path> {
        let optimum = self.fewest_steps()?;
        if optimum == 0 {
            return Some(Path::default());
        }
        let to_go = self.steps_to_go(optimum);
        let puzzle = self.puzzle;
        let grid = puzzle.grid();
        let target = puzzle.target();
        let (mut player, mut box_cell) = (puzzle.player(), puzzle.box_cell());
        let mut moves = Vec::with_capacity(optimum as usize);
        let mut left = vec![UNREACHABLE; grid.cell_count()];
        let mut touched = Vec::new();
        while box_cell != target {
            let remaining = optimum - moves.len() as u32;
            self.fill_steps_left(&to_go, box_cell, player, remaining, &mut left, &mut touched);
            let push_value = |dir: Dir| {
                let next = grid.neighbour(box_cell, dir)?;
                let after = if next == target {
                    0
                } else {
                    to_go[state(next, dir.opposite())]
                };
                (after != UNREACHABLE).then(|| after + 1)
            };
            // Walk until the optimal move is a push; every walk lowers `left` by one.
            loop {
                let here = left[player.index()];
                let chosen = grid.neighbours(player).find(|&(dir, next)| {
                    if next == box_cell {
                        push_value(dir) == Some(here)
                    } else {
                        left[next.index()] != UNREACHABLE && left[next.index()] + 1 == here
                    }
                });
                // The values are exact along optimal solutions, so some move always fits;
                // stop rather than loop should that ever be wrong.
                let (dir, next) = chosen?;
                let push = next == box_cell;
                moves.push(Move { dir, push });
                player = next;
                if push {
                    box_cell = grid.neighbour(box_cell, dir)?;
                    break;
                }
            }
        }
        Some(Path(moves))
    }

    /// Per state, the steps still needed to bring the box home, exact on every state that
    /// lies on an optimal solution of `optimum` steps (an overestimate or [`UNREACHABLE`]
    /// elsewhere). Needs the tables of the forward search that found `optimum`.
    fn steps_to_go(&mut self, optimum: u32) -> Vec<u32> {
        let puzzle = self.puzzle;
        let grid = puzzle.grid();
        let target = puzzle.target();
        let seeds = self.first_sides();
        let so_far_at_least =
            steps_from_start_at_least(grid, &self.blocks, &self.walks, &seeds, target);
        // A lower bound on the steps from the start to a state: exact where the forward
        // search expanded it; elsewhere the relaxed forward distance, and, as the state was
        // not expanded, with a consistent heuristic: steps + bound still needed >= optimum.
        let steps_from_start = |solver: &Solver<'_>, s: usize| {
            if solver.closed[s] {
                solver.reached[s]
            } else {
                so_far_at_least[s].max(optimum.saturating_sub(solver.to_target[s]))
            }
        };
        let mut to_go = vec![UNREACHABLE; self.to_target.len()];
        let mut heap: BinaryHeap<Nearest> = BinaryHeap::new();
        for side in Dir::ALL {
            if grid.neighbour(target, side).is_some() {
                to_go[state(target, side)] = 0;
                heap.push(Nearest::new(0, state(target, side) as u32));
            }
        }
        while let Some(Nearest { key: d, item: s }) = heap.pop() {
            let s = s as usize;
            if d > to_go[s] {
                continue;
            }
            let from_start = steps_from_start(self, s);
            if from_start == UNREACHABLE || from_start.saturating_add(d) > optimum {
                continue; // on no optimal solution
            }
            let (cell, side) = unpack(s);
            let mut relax = |t: usize, value: u32| {
                if value < to_go[t] {
                    to_go[t] = value;
                    heap.push(Nearest::new(value, t as u32));
                }
            };
            // The push that ended here started with the box on the player's cell.
            if let Some(before) = grid.neighbour(cell, side) {
                if before != target && grid.neighbour(before, side).is_some() {
                    relax(state(before, side), d + 1);
                }
            }
            if cell != target {
                for other in Dir::ALL {
                    if other != side {
                        if let Some(walk) = self.walk(cell, side, other) {
                            relax(state(cell, other), d + walk);
                        }
                    }
                }
            }
        }
        to_go
    }

    /// `left[c]`: the steps still needed with the box on `box_cell` and the player on `c`
    /// (walk to a side, push, then `to_go`), for every cell an optimal walk of the player
    /// from `player` can pass through, `remaining` being the steps still needed from there.
    ///
    /// An A* search from the sides the box can be pushed from towards the player (the
    /// Manhattan distance is the heuristic), run until every cell whose estimate is at
    /// most `remaining` has been expanded: between two pushes the walk is short, so this
    /// touches a few cells instead of the whole board. Cells it did not settle keep a
    /// value that is too large or [`UNREACHABLE`], which never looks optimal.
    ///
    /// # Complexity
    /// O(k log k) for the k cells within the estimate.
    fn fill_steps_left(
        &self,
        to_go: &[u32],
        box_cell: CellId,
        player: CellId,
        remaining: u32,
        left: &mut [u32],
        touched: &mut Vec<CellId>,
    ) {
        let grid = self.puzzle.grid();
        let target = self.puzzle.target();
        for cell in touched.drain(..) {
            left[cell.index()] = UNREACHABLE;
        }
        let (player_row, player_col) = grid.position(player);
        let towards_player = |cell: CellId| {
            let (row, col) = grid.position(cell);
            (row.abs_diff(player_row) + col.abs_diff(player_col)) as u32
        };
        let mut heap: BinaryHeap<Nearest> = BinaryHeap::new();
        for side in Dir::ALL {
            let (Some(at), Some(next)) = (
                grid.neighbour(box_cell, side),
                grid.neighbour(box_cell, side.opposite()),
            ) else {
                continue;
            };
            let after = if next == target {
                0
            } else {
                to_go[state(next, side)]
            };
            if after != UNREACHABLE && after + 1 < left[at.index()] {
                if left[at.index()] == UNREACHABLE {
                    touched.push(at);
                }
                left[at.index()] = after + 1;
                heap.push(Nearest::new(
                    after + 1 + towards_player(at),
                    at.index() as u32,
                ));
            }
        }
        while let Some(Nearest {
            key: estimate,
            item: c,
        }) = heap.pop()
        {
            if estimate > remaining {
                break;
            }
            let cell = CellId::new(c as usize);
            let d = left[cell.index()];
            if estimate != d + towards_player(cell) {
                continue; // a stale entry
            }
            for (_, next) in grid.neighbours(cell) {
                if next != box_cell && d + 1 < left[next.index()] {
                    if left[next.index()] == UNREACHABLE {
                        touched.push(next);
                    }
                    left[next.index()] = d + 1;
                    heap.push(Nearest::new(
                        d + 1 + towards_player(next),
                        next.index() as u32,
                    ));
                }
            }
        }
    }
}

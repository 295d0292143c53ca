//! Walking distances between the sides of a box, the box standing still as a wall.
//!
//! Why this way: a search over (box cell, side of the player) needs, at every box cell it
//! expands, the walk from one side to the others. [`Blocks`] already says in O(1) which
//! sides are connected at all, so a breadth-first search from one side can stop as soon as
//! it has met every connected side; in open rooms that is a few cells (the detour around a
//! box is 2 or 4 steps). Visited marks are stamped, so a search costs what it visits, not
//! the size of the grid, and results are cached per box cell so each pair is searched once.
//!
//! # Complexity
//! [`SideWalks::between`]: O(1) when cached, otherwise O(cells visited) <= O(cells).
//! Memory: 24 bytes per cell for the cache plus 12 for the search buffers.

use grid_core::blocks::Blocks;
use grid_core::{CellId, Dir, Grid};

/// A distance that does not exist (the two sides are not connected, or a side is a wall).
pub const NO_WALK: u32 = u32::MAX;
/// Marks a cache entry not computed yet.
const UNKNOWN: u32 = u32::MAX - 1;

/// Index of the unordered pair of distinct sides `a`, `b` in the 6-entry cache row.
#[inline]
fn pair(a: Dir, b: Dir) -> usize {
    const PAIR: [[usize; 4]; 4] = [[6, 0, 1, 2], [0, 6, 3, 4], [1, 3, 6, 5], [2, 4, 5, 6]];
    PAIR[a.index()][b.index()]
}

/// Lazily computed walking distances between the sides of every box cell.
#[derive(Debug, Clone)]
pub struct SideWalks {
    /// Per box cell, per pair of sides: the walk, [`NO_WALK`] or [`UNKNOWN`].
    cache: Vec<[u32; 6]>,
    /// `seen[c] == stamp` marks a cell visited by the current search.
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<(CellId, u32)>,
}

impl SideWalks {
    /// Empty caches for `grid`.
    ///
    /// # Complexity
    /// O(cells).
    pub fn new(grid: &Grid) -> Self {
        SideWalks {
            cache: vec![[UNKNOWN; 6]; grid.cell_count()],
            seen: vec![0; grid.cell_count()],
            stamp: 0,
            queue: Vec::new(),
        }
    }

    /// Steps the player needs to walk from side `from` of the box at `cell` to side `to`,
    /// never entering `cell`; 0 when `from == to`; `None` when the sides are not connected
    /// around the box (or a side is a wall).
    ///
    /// # Complexity
    /// O(1) amortised over the sides of one cell; a search of the cells within the walk's
    /// radius the first time a side of `cell` is asked about.
    pub fn between(
        &mut self,
        grid: &Grid,
        blocks: &Blocks,
        cell: CellId,
        from: Dir,
        to: Dir,
    ) -> Option<u32> {
        if from == to {
            return grid.neighbour(cell, from).map(|_| 0);
        }
        if !blocks.connected_around(cell, from, to) {
            return None;
        }
        let slot = pair(from, to);
        if self.cache[cell.index()][slot] == UNKNOWN {
            self.search_from(grid, blocks, cell, from);
        }
        let walk = self.cache[cell.index()][slot];
        (walk != NO_WALK).then_some(walk)
    }

    /// The walk between two different connected sides if a search already found it.
    ///
    /// # Complexity
    /// O(1).
    pub fn cached(&self, cell: CellId, from: Dir, to: Dir) -> Option<u32> {
        let walk = self.cache[cell.index()][pair(from, to)];
        (walk < UNKNOWN).then_some(walk)
    }

    /// Fills the cache entries between side `from` of `cell` and every other side, with one
    /// breadth-first search that stops once all the connected sides are met.
    fn search_from(&mut self, grid: &Grid, blocks: &Blocks, cell: CellId, from: Dir) {
        let Some(start) = grid.neighbour(cell, from) else {
            return;
        };
        let mut wanted = [None; 4];
        let mut missing = 0;
        for to in Dir::ALL {
            let slot = pair(from, to);
            if to == from {
                continue;
            }
            if blocks.connected_around(cell, from, to) {
                wanted[to.index()] = grid.neighbour(cell, to);
                missing += 1;
            } else {
                self.cache[cell.index()][slot] = NO_WALK;
            }
        }
        if missing == 0 {
            return;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.seen[cell.index()] = stamp;
        self.seen[start.index()] = stamp;
        self.queue.clear();
        self.queue.push((start, 0));
        let mut head = 0;
        while head < self.queue.len() {
            let (at, dist) = self.queue[head];
            head += 1;
            for (_, next) in grid.neighbours(at) {
                if self.seen[next.index()] == stamp {
                    continue;
                }
                self.seen[next.index()] = stamp;
                for to in Dir::ALL {
                    if wanted[to.index()] == Some(next) {
                        wanted[to.index()] = None;
                        self.cache[cell.index()][pair(from, to)] = dist + 1;
                        missing -= 1;
                    }
                }
                if missing == 0 {
                    return;
                }
                self.queue.push((next, dist + 1));
            }
        }
        // Blocks said connected, so every wanted side was met; stay safe regardless.
        for to in Dir::ALL {
            if wanted[to.index()].is_some() {
                self.cache[cell.index()][pair(from, to)] = NO_WALK;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_around_a_box() {
        let rows = ["...", "...", "#.#"];
        let grid = Grid::new(3, 3, |r, c| rows[r].as_bytes()[c] == b'.');
        let blocks = Blocks::new(&grid);
        let centre = grid.cell(1, 1).unwrap();
        let mut walks = SideWalks::new(&grid);
        let w = |walks: &mut SideWalks, a, b| walks.between(&grid, &blocks, centre, a, b);
        assert_eq!(w(&mut walks, Dir::West, Dir::North), Some(2));
        assert_eq!(w(&mut walks, Dir::West, Dir::East), Some(4));
        assert_eq!(w(&mut walks, Dir::East, Dir::West), Some(4));
        assert_eq!(w(&mut walks, Dir::South, Dir::North), None);
        assert_eq!(w(&mut walks, Dir::South, Dir::South), Some(0));
        let corner = grid.cell(0, 0).unwrap();
        assert_eq!(
            walks.between(&grid, &blocks, corner, Dir::North, Dir::North),
            None
        );
    }
}

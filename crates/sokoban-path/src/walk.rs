//! Walks of the person with the box as a wall: a breadth-first search that stops as soon
//! as the cells it was asked about are found, and the lexicographically smallest shortest
//! walk (key 4 of the spec) read off such a search.
//!
//! Why: the push search asks "how far from this side of the box to those sides" once per
//! expanded state. Around a box in an open room the answer is 2 or 4 steps away, so a
//! search that stops early touches a dozen cells instead of the whole grid, and generation
//! stamps make the start of every search O(1) instead of a clear of the whole table.
//!
//! # Complexity
//! Each search is O(cells it visits) time, at most O(cells); memory is O(cells), allocated
//! once per grid size.

use grid_core::{CellId, Dir, Grid};

/// Distance of a cell that the walk cannot reach.
pub const UNREACHABLE: u32 = u32::MAX;

/// Reusable buffers for early-stopping walk searches.
#[derive(Debug, Clone, Default)]
pub struct Walker {
    /// `stamp[c] == generation` when `dist[c]` belongs to the current search.
    stamp: Vec<u32>,
    dist: Vec<u32>,
    queue: Vec<CellId>,
    generation: u32,
}

impl Walker {
    /// Empty buffers; they grow to the grid's size on first use.
    pub fn new() -> Self {
        Walker::default()
    }

    /// Starts a new search on `grid`: every cell becomes unseen in O(1) (O(cells) when the
    /// grid grew or the stamp counter wraps).
    fn begin(&mut self, grid: &Grid) {
        let n = grid.cell_count();
        if self.stamp.len() != n || self.generation == u32::MAX {
            self.stamp.clear();
            self.stamp.resize(n, 0);
            self.dist.resize(n, 0);
            self.generation = 0;
        }
        self.generation += 1;
        self.queue.clear();
    }

    /// Distance of `cell` in the last search, or [`UNREACHABLE`] if it was not reached.
    #[inline]
    pub fn distance(&self, cell: CellId) -> u32 {
        if self.stamp[cell.index()] == self.generation {
            self.dist[cell.index()]
        } else {
            UNREACHABLE
        }
    }

    /// Breadth-first search from `from` that never enters `blocked`, stopping once every
    /// cell of `wanted` has been reached (or everything reachable has been). Afterwards
    /// [`Walker::distance`] is exact for every cell of `wanted` and every cell closer
    /// to `from` than the farthest of them.
    ///
    /// # Complexity
    /// O(cells visited).
    pub fn search(&mut self, grid: &Grid, from: CellId, blocked: CellId, wanted: &[CellId]) {
        self.begin(grid);
        let generation = self.generation;
        self.stamp[blocked.index()] = generation;
        self.dist[blocked.index()] = UNREACHABLE;
        if from == blocked {
            return;
        }
        let mut missing = wanted.iter().filter(|&&w| w != blocked).count();
        self.stamp[from.index()] = generation;
        self.dist[from.index()] = 0;
        if wanted.contains(&from) {
            missing -= wanted.iter().filter(|&&w| w == from).count();
        }
        self.queue.push(from);
        let mut head = 0;
        while missing > 0 && head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            let next = self.dist[cell.index()] + 1;
            for dir in Dir::ALL {
                let Some(n) = grid.neighbour(cell, dir) else {
                    continue;
                };
                if self.stamp[n.index()] != generation {
                    self.stamp[n.index()] = generation;
                    self.dist[n.index()] = next;
                    self.queue.push(n);
                    if wanted.contains(&n) {
                        missing -= wanted.iter().filter(|&&w| w == n).count();
                    }
                }
            }
        }
    }

    /// The lexicographically smallest (n < s < w < e) among the shortest walks from `from`
    /// to `to` around `blocked`, appended to `moves` as walk letters; its length, or `None`
    /// when `to` cannot be reached.
    ///
    /// Why it is the smallest: the search runs from `to`, so every cell knows its distance
    /// to the goal; stepping each time to the first neighbour (in N, S, W, E order) one step
    /// closer gives, letter by letter, the smallest continuation that is still shortest.
    ///
    /// # Complexity
    /// O(cells visited).
    pub fn smallest_walk(
        &mut self,
        grid: &Grid,
        from: CellId,
        to: CellId,
        blocked: CellId,
        moves: &mut String,
    ) -> Option<u32> {
        self.search(grid, to, blocked, &[from]);
        let length = self.distance(from);
        if length == UNREACHABLE {
            return None;
        }
        let mut cell = from;
        let mut left = length;
        while left > 0 {
            let step = Dir::ALL.into_iter().find_map(|dir| {
                grid.neighbour(cell, dir)
                    .filter(|&n| self.distance(n) == left - 1)
                    .map(|n| (dir, n))
            })?;
            moves.push(step.0.walk_letter());
            cell = step.1;
            left -= 1;
        }
        Some(length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_around_the_box_and_prefers_small_letters() {
        let grid = Grid::new(3, 3, |_, _| true);
        let at = |r, c| grid.cell(r, c).unwrap();
        let mut walker = Walker::new();
        let mut moves = String::new();
        // From the west side of the centre to its east side: north or south around it.
        let len = walker.smallest_walk(&grid, at(1, 0), at(1, 2), at(1, 1), &mut moves);
        assert_eq!(len, Some(4));
        assert_eq!(moves, "nees");
        walker.search(&grid, at(0, 0), at(0, 1), &[at(0, 2), at(2, 2)]);
        assert_eq!(walker.distance(at(0, 2)), 4);
        assert_eq!(walker.distance(at(2, 2)), 4);
        assert_eq!(walker.distance(at(0, 1)), UNREACHABLE);
    }

    #[test]
    fn unreachable_goal() {
        let grid = Grid::new(1, 3, |_, _| true);
        let mut walker = Walker::new();
        let mut moves = String::new();
        let (a, b, c) = (CellId::new(0), CellId::new(1), CellId::new(2));
        assert_eq!(walker.smallest_walk(&grid, a, c, b, &mut moves), None);
        assert_eq!(walker.smallest_walk(&grid, a, a, b, &mut moves), Some(0));
    }
}

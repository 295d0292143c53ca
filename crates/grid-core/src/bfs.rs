//! Breadth-first distances over a [`Grid`], with one cell optionally blocked (a box).

use crate::grid::{CellId, Grid};

/// Distance of a cell that cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;

/// Reusable breadth-first search buffers, so repeated searches on one grid allocate once.
#[derive(Debug, Clone, Default)]
pub struct Bfs {
    dist: Vec<u32>,
    queue: Vec<CellId>,
}

impl Bfs {
    /// Empty buffers; they grow to the grid's size on first use.
    pub fn new() -> Self {
        Bfs::default()
    }

    /// Distances from the nearest of `sources` to every cell of `grid`, never entering
    /// `blocked`; [`UNREACHABLE`] where no path exists. The result is indexed by
    /// [`CellId::index`].
    ///
    /// # Complexity
    /// O(cells) time; no allocation after the first call on a grid of this size.
    pub fn run(&mut self, grid: &Grid, sources: &[CellId], blocked: Option<CellId>) -> &[u32] {
        self.dist.clear();
        self.dist.resize(grid.cell_count(), UNREACHABLE);
        self.queue.clear();
        if let Some(b) = blocked {
            self.dist[b.index()] = 0; // marks it seen; fixed below
        }
        for &s in sources {
            if Some(s) != blocked && self.dist[s.index()] == UNREACHABLE {
                self.dist[s.index()] = 0;
                self.queue.push(s);
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            let next = self.dist[cell.index()] + 1;
            for (_, n) in grid.neighbours(cell) {
                if self.dist[n.index()] == UNREACHABLE {
                    self.dist[n.index()] = next;
                    self.queue.push(n);
                }
            }
        }
        if let Some(b) = blocked {
            self.dist[b.index()] = UNREACHABLE;
        }
        &self.dist
    }
}

impl Grid {
    /// Distances from `source` to every cell, never entering `blocked`; see [`Bfs::run`].
    ///
    /// # Complexity
    /// O(cells).
    pub fn distances(&self, source: CellId, blocked: Option<CellId>) -> Vec<u32> {
        let mut bfs = Bfs::new();
        bfs.run(self, &[source], blocked);
        bfs.dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_go_around_the_blocked_cell() {
        let rows = ["...", ".#.", "..."];
        let grid = Grid::new(3, 3, |r, c| rows[r].as_bytes()[c] == b'.');
        let at = |r, c| grid.cell(r, c).unwrap();
        let d = grid.distances(at(0, 0), None);
        assert_eq!(d[at(2, 2).index()], 4);
        let d = grid.distances(at(0, 0), Some(at(0, 1)));
        assert_eq!(d[at(0, 2).index()], 6);
        assert_eq!(d[at(0, 1).index()], UNREACHABLE);
        let d = grid.distances(at(0, 0), Some(at(0, 0)));
        assert!(
            d.iter().all(|&x| x == UNREACHABLE),
            "a blocked source reaches nothing"
        );
    }

    #[test]
    fn many_sources_take_the_nearest() {
        let grid = Grid::new(1, 5, |_, _| true);
        let mut bfs = Bfs::new();
        let d = bfs.run(&grid, &[CellId::new(0), CellId::new(4)], None);
        assert_eq!(d, [0, 1, 2, 1, 0]);
    }
}

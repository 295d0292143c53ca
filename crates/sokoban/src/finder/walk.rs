//! The player's walks between pushes: one breadth-first search over the floor with the
//! boxes as walls, marks stamped so that a search costs only the squares it reaches.
//!
//! # Complexity
//! O(squares reached) per search; O(path) to read a walk back.

use grid_core::{CellId, Dir, Grid};

/// Reusable marks of one breadth-first search.
#[derive(Debug, Clone)]
pub(super) struct Walker {
    /// The search that reached each square last.
    seen: Vec<u32>,
    /// The direction of the step that reached each square.
    came: Vec<Dir>,
    queue: Vec<CellId>,
    stamp: u32,
    /// The least square reached by the last search.
    least: CellId,
}

impl Walker {
    /// Marks for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        Walker {
            seen: vec![0; n],
            came: vec![Dir::North; n],
            queue: Vec::with_capacity(n),
            stamp: 0,
            least: CellId::new(0),
        }
    }

    /// Every square the player on `from` reaches without entering a square `occupied`
    /// marks; [`Walker::reached`] and [`Walker::least`] then answer for it.
    pub(super) fn run(&mut self, grid: &Grid, occupied: &[bool], from: CellId) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.queue.clear();
        self.queue.push(from);
        self.seen[from.index()] = self.stamp;
        self.least = from;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            for (dir, next) in grid.neighbours(cell) {
                if self.seen[next.index()] != self.stamp && !occupied[next.index()] {
                    self.seen[next.index()] = self.stamp;
                    self.came[next.index()] = dir;
                    self.queue.push(next);
                    if next < self.least {
                        self.least = next;
                    }
                }
            }
        }
    }

    /// Whether the last search reached `cell`.
    #[inline]
    pub(super) fn reached(&self, cell: CellId) -> bool {
        self.seen[cell.index()] == self.stamp
    }

    /// The squares the last search reached, in breadth-first order (nearest first).
    pub(super) fn order(&self) -> &[CellId] {
        &self.queue
    }

    /// The number of regions the free squares (those `occupied` does not mark) make,
    /// each a set of squares the player walks between; the last search's marks are
    /// spent.
    ///
    /// # Complexity
    /// O(squares).
    pub(super) fn regions(&mut self, grid: &Grid, occupied: &[bool]) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let mut count = 0;
        for start in grid.cells() {
            if occupied[start.index()] || self.seen[start.index()] == self.stamp {
                continue;
            }
            count += 1;
            self.queue.clear();
            self.queue.push(start);
            self.seen[start.index()] = self.stamp;
            let mut head = 0;
            while head < self.queue.len() {
                let cell = self.queue[head];
                head += 1;
                for (_, next) in grid.neighbours(cell) {
                    if self.seen[next.index()] != self.stamp && !occupied[next.index()] {
                        self.seen[next.index()] = self.stamp;
                        self.queue.push(next);
                    }
                }
            }
        }
        self.queue.clear();
        count
    }

    /// The least square the last search reached: the name of the player's region.
    pub(super) fn least(&self) -> CellId {
        self.least
    }

    /// The steps of a shortest walk from the last search's start to `to` (reached), in
    /// order; appended to `steps`.
    pub(super) fn walk_to(&self, grid: &Grid, to: CellId, steps: &mut Vec<Dir>) {
        let first = steps.len();
        let mut at = to;
        while let Some(&cell) = self.queue.first() {
            if at == cell {
                break;
            }
            let dir = self.came[at.index()];
            steps.push(dir);
            match grid.neighbour(at, dir.opposite()) {
                Some(back) => at = back,
                None => break,
            }
        }
        steps[first..].reverse();
    }
}

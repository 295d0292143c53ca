//! Breadth-first walks over a [`Grid`] with generation stamps: the one walker of the
//! workspace (distances for the tables of every solver, early-stopping walks of a player
//! around boxes, and the smallest shortest walk in N < S < W < E order).
//!
//! Why stamps: a search that asks "how far from here to there" once per expanded state
//! cannot afford to clear a table of the whole grid each time. A cell's distance belongs to
//! the current walk only when its stamp equals the walk's generation, so starting a walk is
//! O(1) (O(cells) once every 2^32 walks, when the counter wraps), and a walk that stops
//! early costs only the cells it visited.
//!
//! # Complexity
//! Each walk is O(cells it visits) time, at most O(cells); memory O(cells), allocated once
//! per grid size.

use crate::grid::{CellId, Dir, Grid};

/// The distance of a cell that cannot be reached (and of a state that cannot reach its
/// goal): the one "unreachable" sentinel of the workspace, larger than every distance.
pub const UNREACHABLE: u32 = u32::MAX;

/// Reusable buffers for breadth-first walks on grids of one size (they grow when the grid
/// does).
///
/// # Examples
/// ```
/// use grid_core::{Grid, UNREACHABLE, Walker};
///
/// let grid = Grid::new(3, 3, |_, _| true);
/// let at = |r, c| grid.cell(r, c).unwrap();
/// let mut walker = Walker::new();
/// // From the west side of the centre to its east side, the centre a wall (a box).
/// let centre = at(1, 1);
/// walker.search(&grid, at(1, 0), |c| c == centre, &[at(1, 2)]);
/// assert_eq!(walker.distance(at(1, 2)), 4);
/// assert_eq!(walker.distance(centre), UNREACHABLE);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Walker {
    /// `stamp[c] == generation` when `dist[c]` belongs to the current walk.
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

    /// Starts a new walk on `grid`: every cell becomes unseen in O(1) (O(cells) when the
    /// grid's size changed or the stamp counter wraps).
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

    /// Marks `cell` reached at `dist` in the current walk.
    #[inline]
    fn reach(&mut self, cell: CellId, dist: u32) {
        self.stamp[cell.index()] = self.generation;
        self.dist[cell.index()] = dist;
    }

    /// Whether the current walk reached `cell`.
    #[inline]
    fn seen(&self, cell: CellId) -> bool {
        self.stamp[cell.index()] == self.generation
    }

    /// The distance of `cell` in the last walk, or [`UNREACHABLE`] when it was not reached
    /// (or the walk stopped before it).
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn distance(&self, cell: CellId) -> u32 {
        if self.seen(cell) {
            self.dist[cell.index()]
        } else {
            UNREACHABLE
        }
    }

    /// A breadth-first walk from `from` over the cells for which `avoid` is false (`from`
    /// itself is entered unless avoided), stopping once every cell of `wanted` has been
    /// reached or everything reachable has been. Afterwards [`Walker::distance`] is exact
    /// for every cell of `wanted` and every cell closer to `from` than the farthest of
    /// them; avoided cells are [`UNREACHABLE`].
    ///
    /// # Complexity
    /// O(cells visited x (1 + wanted)).
    pub fn search(
        &mut self,
        grid: &Grid,
        from: CellId,
        avoid: impl Fn(CellId) -> bool,
        wanted: &[CellId],
    ) {
        self.begin(grid);
        if avoid(from) {
            return;
        }
        let count = |cell: CellId| wanted.iter().filter(|&&w| w == cell).count();
        let mut missing = wanted.iter().filter(|&&w| !avoid(w)).count();
        self.reach(from, 0);
        missing -= count(from);
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
                if !self.seen(n) && !avoid(n) {
                    self.reach(n, next);
                    self.queue.push(n);
                    missing -= count(n);
                }
            }
        }
    }

    /// A breadth-first walk from the nearest of `sources` over every cell for which
    /// `avoid` is false: afterwards [`Walker::distance`] is exact everywhere.
    ///
    /// # Complexity
    /// O(cells reached + sources).
    pub fn flood(&mut self, grid: &Grid, sources: &[CellId], avoid: impl Fn(CellId) -> bool) {
        self.begin(grid);
        for &s in sources {
            if !self.seen(s) && !avoid(s) {
                self.reach(s, 0);
                self.queue.push(s);
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            let next = self.dist[cell.index()] + 1;
            for (_, n) in grid.neighbours(cell) {
                if !self.seen(n) && !avoid(n) {
                    self.reach(n, next);
                    self.queue.push(n);
                }
            }
        }
    }

    /// The cells the last walk reached, in the order it reached them (by distance).
    pub fn reached(&self) -> &[CellId] {
        &self.queue
    }

    /// The lexicographically smallest (N < S < W < E) among the shortest walks from `from`
    /// to `to` over the cells for which `avoid` is false, each of its directions passed to
    /// `step` in order; its length, or `None` when `to` cannot be reached.
    ///
    /// Why it is the smallest: the walk is searched from `to`, so every cell knows its
    /// distance to the goal; stepping each time to the first neighbour (in N, S, W, E
    /// order) one step closer gives, direction by direction, the smallest continuation
    /// that is still shortest.
    ///
    /// # Complexity
    /// O(cells visited).
    pub fn smallest_walk(
        &mut self,
        grid: &Grid,
        from: CellId,
        to: CellId,
        avoid: impl Fn(CellId) -> bool,
        mut step: impl FnMut(Dir),
    ) -> Option<u32> {
        self.search(grid, to, avoid, &[from]);
        let length = self.distance(from);
        if length == UNREACHABLE {
            return None;
        }
        let mut cell = from;
        for left in (0..length).rev() {
            let (dir, next) = grid
                .neighbours(cell)
                .find(|&(_, n)| self.distance(n) == left)?;
            step(dir);
            cell = next;
        }
        Some(length)
    }
}

impl Grid {
    /// Distances from `source` to every cell, never entering `blocked`; [`UNREACHABLE`]
    /// where no path exists. Indexed by [`CellId::index`].
    ///
    /// # Complexity
    /// O(cells).
    pub fn distances(&self, source: CellId, blocked: Option<CellId>) -> Vec<u32> {
        let mut walker = Walker::new();
        walker.flood(self, &[source], |c| Some(c) == blocked);
        self.cells().map(|c| walker.distance(c)).collect()
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
        let mut dirs = Vec::new();
        let centre = at(1, 1);
        let len =
            walker.smallest_walk(&grid, at(1, 0), at(1, 2), |c| c == centre, |d| dirs.push(d));
        assert_eq!(len, Some(4));
        assert_eq!(dirs, [Dir::North, Dir::East, Dir::East, Dir::South]);
        let blocked = at(0, 1);
        walker.search(&grid, at(0, 0), |c| c == blocked, &[at(0, 2), at(2, 2)]);
        assert_eq!(walker.distance(at(0, 2)), 4);
        assert_eq!(walker.distance(at(2, 2)), 4);
        assert_eq!(walker.distance(blocked), UNREACHABLE);
    }

    #[test]
    fn unreachable_goal() {
        let grid = Grid::new(1, 3, |_, _| true);
        let mut walker = Walker::new();
        let (a, b, c) = (CellId::new(0), CellId::new(1), CellId::new(2));
        assert_eq!(walker.smallest_walk(&grid, a, c, |x| x == b, |_| ()), None);
        assert_eq!(
            walker.smallest_walk(&grid, a, a, |x| x == b, |_| ()),
            Some(0)
        );
        walker.search(&grid, b, |x| x == b, &[a]);
        assert_eq!(
            walker.distance(a),
            UNREACHABLE,
            "an avoided start reaches nothing"
        );
    }

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
        let mut walker = Walker::new();
        walker.flood(&grid, &[CellId::new(0), CellId::new(4)], |_| false);
        let d: Vec<u32> = grid.cells().map(|c| walker.distance(c)).collect();
        assert_eq!(d, [0, 1, 2, 1, 0]);
        assert_eq!(walker.reached().len(), 5);
    }

    /// Early-stopping walks agree with a full plain search on every wanted cell, over
    /// random grids, starts, avoided cells and wanted sets (and with stamps reused).
    #[test]
    fn early_stops_agree_with_plain_distances() {
        let mut rng = crate::rng::SplitMix64::new(0x5741_4c4b);
        let mut walker = Walker::new();
        for _ in 0..400 {
            let (h, w) = (rng.between(1, 9), rng.between(1, 9));
            let open: Vec<bool> = (0..h * w).map(|_| !rng.percent(30)).collect();
            let grid = Grid::new(h, w, |r, c| open[r * w + c]);
            if grid.cell_count() == 0 {
                continue;
            }
            let n = grid.cell_count();
            let from = CellId::new(rng.below(n));
            let blocked = CellId::new(rng.below(n));
            let wanted: Vec<CellId> = (0..rng.below(4))
                .map(|_| CellId::new(rng.below(n)))
                .collect();
            let plain = plain_distances(&grid, from, blocked);
            walker.search(&grid, from, |c| c == blocked, &wanted);
            for &c in &wanted {
                assert_eq!(walker.distance(c), plain[c.index()]);
            }
            if let Some(&to) = wanted.first() {
                let mut cell = from;
                let len = walker.smallest_walk(
                    &grid,
                    from,
                    to,
                    |c| c == blocked,
                    |d| {
                        cell = grid.neighbour(cell, d).unwrap();
                        assert_ne!(cell, blocked);
                    },
                );
                let expected = (plain[to.index()] != UNREACHABLE).then_some(plain[to.index()]);
                assert_eq!(len, expected);
                if len.is_some() {
                    assert_eq!(cell, to);
                }
            }
        }
    }

    /// The obviously correct reference: repeated relaxation until nothing changes.
    fn plain_distances(grid: &Grid, from: CellId, blocked: CellId) -> Vec<u32> {
        let mut d = vec![UNREACHABLE; grid.cell_count()];
        if from == blocked {
            return d;
        }
        d[from.index()] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for c in grid.cells() {
                if c == blocked || d[c.index()] == UNREACHABLE {
                    continue;
                }
                for (_, n) in grid.neighbours(c) {
                    if n != blocked && d[c.index()] + 1 < d[n.index()] {
                        d[n.index()] = d[c.index()] + 1;
                        changed = true;
                    }
                }
            }
        }
        d
    }
}

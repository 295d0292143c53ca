//! The player's walks between pushes: one breadth-first search over the floor with the
//! boxes as walls, marks stamped so that a search costs only the squares it reaches.
//!
//! # Complexity
//! O(squares reached) per search; O(path) to read a walk back.

use grid_core::{CellId, Dir, Grid};

use super::cuts::Cuts;

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

/// The regions the free squares make, labelled, so that the count after one box moves is
/// read from the squares around it rather than from a walk of the whole floor.
///
/// Why: FESS's connectivity feature and advisor ([`super::connectivity`]) count the
/// regions of every child of every state; most pushes neither join two regions nor cut
/// one, and that shows in the eight squares around the box.
///
/// When they do not (a box in a corridor has free squares on two sides), the low points
/// of one depth-first search ([`Cuts`]) of the floor as labelled, less the square freed,
/// say into how many parts the box cuts its region; the search serves every count until
/// the next labelling or another root.
///
/// # Complexity
/// O(squares) to label; O(1) per count after a move, plus one depth-first search
/// O(squares) per labelling and root when the eight squares around the box's new square do
/// not show that it cuts nothing.
#[derive(Debug, Clone)]
pub(super) struct Regions {
    /// Per square: its region's number in the last labelling, or [`Regions::NONE`] for a
    /// square a box stands on.
    label: Vec<u32>,
    /// The regions of the last labelling.
    count: u32,
    queue: Vec<CellId>,
    /// The labellings so far.
    labelled: u32,
    /// For the counts the squares around cannot settle, and the labelling and root it
    /// searched from.
    cuts: Cuts,
    searched: Option<(u32, CellId)>,
    walker: Walker,
}

impl Regions {
    const NONE: u32 = u32::MAX;

    /// Labels for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        Regions {
            label: vec![Self::NONE; n],
            count: 0,
            queue: Vec::with_capacity(n),
            labelled: 0,
            cuts: Cuts::new(n),
            searched: None,
            walker: Walker::new(n),
        }
    }

    /// Labels the regions of the free squares (those `occupied` does not mark) and
    /// returns their number.
    pub(super) fn label(&mut self, grid: &Grid, occupied: &[bool]) -> u32 {
        self.labelled = self.labelled.wrapping_add(1);
        self.label.fill(Self::NONE);
        let mut count = 0;
        for start in grid.cells() {
            if occupied[start.index()] || self.label[start.index()] != Self::NONE {
                continue;
            }
            self.queue.clear();
            self.queue.push(start);
            self.label[start.index()] = count;
            let mut head = 0;
            while head < self.queue.len() {
                let cell = self.queue[head];
                head += 1;
                for (_, next) in grid.neighbours(cell) {
                    if self.label[next.index()] == Self::NONE && !occupied[next.index()] {
                        self.label[next.index()] = count;
                        self.queue.push(next);
                    }
                }
            }
            count += 1;
        }
        self.count = count;
        count
    }

    /// The regions once a box has left `freed` (if any; a box stood there at the last
    /// labelling) and one stands on `placed` (free at the last labelling), `occupied`
    /// marking the squares after the move. `root`, a free square after the move (`freed`
    /// when there is one), is where a depth-first search starts when one is needed; the
    /// calls between two labellings with one root share it. The labels stay those of the
    /// last labelling.
    pub(super) fn after(
        &mut self,
        grid: &Grid,
        occupied: &[bool],
        freed: Option<CellId>,
        placed: CellId,
        root: CellId,
    ) -> u32 {
        let mut count = self.count;
        if let Some(freed) = freed {
            // The freed square joins the regions beside it into one.
            let mut joined = [Self::NONE; 4];
            let mut m = 0;
            for (_, next) in grid.neighbours(freed) {
                let l = self.label[next.index()];
                if l != Self::NONE && !joined[..m].contains(&l) {
                    joined[m] = l;
                    m += 1;
                }
            }
            count = count + 1 - m as u32;
        }
        match arcs(grid, occupied, placed) {
            // The box fills a region of its own square alone.
            0 => count - 1,
            // Its free neighbours stay joined around it.
            1 => count,
            _ => {
                // The floor as labelled, less `freed`: `placed` open whatever `occupied` says.
                if self.searched != Some((self.labelled, root)) {
                    self.cuts.explore(grid, occupied, root, Some(placed));
                    self.searched = Some((self.labelled, root));
                }
                if self.cuts.reached(placed) {
                    count + self.cuts.pieces(grid, placed) - 1
                } else {
                    self.walker.regions(grid, occupied)
                }
            }
        }
    }
}

/// The runs of free squares (those `occupied` does not mark) among the eight around
/// `cell`, in turn round it, that hold a square beside it (not only a corner): 0 when
/// no neighbour is free, 1 when the free neighbours are joined round `cell`, so that
/// filling `cell` cuts nothing.
fn arcs(grid: &Grid, occupied: &[bool], cell: CellId) -> u32 {
    let free = |c: Option<CellId>| c.is_some_and(|c| !occupied[c.index()]);
    // The corner between the neighbours towards `a` and `b`, through either.
    let corner = |a: Dir, b: Dir| {
        grid.neighbour(cell, a)
            .and_then(|n| grid.neighbour(n, b))
            .or_else(|| grid.neighbour(cell, b).and_then(|n| grid.neighbour(n, a)))
    };
    let ring = [
        (free(grid.neighbour(cell, Dir::North)), true),
        (free(corner(Dir::North, Dir::East)), false),
        (free(grid.neighbour(cell, Dir::East)), true),
        (free(corner(Dir::South, Dir::East)), false),
        (free(grid.neighbour(cell, Dir::South)), true),
        (free(corner(Dir::South, Dir::West)), false),
        (free(grid.neighbour(cell, Dir::West)), true),
        (free(corner(Dir::North, Dir::West)), false),
    ];
    let Some(gap) = ring.iter().position(|&(f, _)| !f) else {
        return 1;
    };
    // Round the ring from a gap: each run of free squares counts once if it holds a
    // neighbour.
    let mut runs = 0;
    let mut holds = false;
    for i in 1..=8 {
        let (f, side) = ring[(gap + i) % 8];
        if f {
            holds |= side;
        } else {
            runs += u32::from(holds);
            holds = false;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use grid_core::rng::SplitMix64;

    use super::{Regions, Walker};
    use crate::{Collection, generate};

    /// The count after a move, read around the box, is the count of a walk of the whole
    /// floor: every box of 2000 generated levels (up to 12 x 12, inner walls), moved to
    /// every free square, with its first square freed (as a push does), kept (as a box
    /// placed), and freed before the labelling (as the connectivity advisor tries a box).
    #[test]
    fn the_count_after_a_move_is_the_walked_count() {
        let mut rng = SplitMix64::new(1729);
        let mut compared = 0;
        for round in 0..2000 {
            let text = generate::random_level(&mut rng, 1 + round % 6, 12, [10, 25, 40][round % 3]);
            let Some(Ok(level)) = Collection::new(text.as_bytes(), 10_000).next() else {
                continue;
            };
            let grid = level.grid();
            let n = grid.cell_count();
            let mut regions = Regions::new(n);
            let mut walker = Walker::new(n);
            let mut occupied = vec![false; n];
            for b in level.boxes() {
                occupied[b.index()] = true;
            }
            for &from in level.boxes() {
                let free: Vec<_> = grid.cells().filter(|c| !occupied[c.index()]).collect();
                // Labelled with the box on `from`: pushed away, or another box placed.
                let labelled = regions.label(grid, &occupied);
                assert_eq!(labelled, walker.regions(grid, &occupied));
                for freed in [Some(from), None] {
                    for &to in &free {
                        occupied[from.index()] = freed.is_none();
                        occupied[to.index()] = true;
                        let walked = walker.regions(grid, &occupied);
                        let root = freed.unwrap_or(to);
                        let after = regions.after(grid, &occupied, freed, to, root);
                        assert_eq!(after, walked, "{text}");
                        occupied[to.index()] = false;
                        occupied[from.index()] = true;
                        compared += 1;
                    }
                }
                // Labelled with `from` free, the box tried elsewhere from there.
                occupied[from.index()] = false;
                regions.label(grid, &occupied);
                for &to in free.iter().chain([&from]) {
                    occupied[to.index()] = true;
                    let walked = walker.regions(grid, &occupied);
                    let root = if to == from {
                        free.first().copied()
                    } else {
                        Some(from)
                    };
                    if let Some(root) = root {
                        assert_eq!(
                            regions.after(grid, &occupied, None, to, root),
                            walked,
                            "{text}"
                        );
                        compared += 1;
                    }
                    occupied[to.index()] = false;
                }
                occupied[from.index()] = true;
            }
        }
        assert!(compared > 100_000, "{compared}");
    }
}

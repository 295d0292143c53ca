//! Where one square cuts the floor: one depth-first search of the free squares with
//! Tarjan's low points, after which the parts that taking out any one square leaves are
//! read in O(1).
//!
//! With the search rooted at r, taking out a square s (not r) leaves, of the squares the
//! search reached, one part per child subtree of s whose low point does not climb above s,
//! and one part holding r and everything else; taking out r leaves one part per child.
//! Used for the sides of a box the player reaches while the box moves
//! ([`super::box_path`]) and for the regions a box cuts the floor into
//! ([`super::walk::Regions`]).
//!
//! # Complexity
//! O(squares) per search; O(1) per question (a square has at most four children).

use grid_core::{CellId, Dir, Grid};

/// One depth-first search of the free squares and its low points.
#[derive(Debug, Clone)]
pub(super) struct Cuts {
    /// Per square: its discovery time (or [`Cuts::UNSEEN`]), its low point, the last
    /// discovery time in its subtree and its parent (or [`Cuts::UNSEEN`]).
    disc: Vec<u32>,
    low: Vec<u32>,
    last: Vec<u32>,
    up: Vec<u32>,
    /// The squares the search reached, to clear them for the next one.
    seen: Vec<CellId>,
    /// The search's stack: a square and the next direction to try from it.
    stack: Vec<(CellId, u8)>,
    root: CellId,
}

impl Cuts {
    /// "Not reached" by the search, and "no parent" in it.
    pub(super) const UNSEEN: u32 = u32::MAX;

    /// The part, once a square is taken out, that holds the root.
    pub(super) const ROOT_PART: u32 = u32::MAX - 1;

    /// A search for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        Cuts {
            disc: vec![Self::UNSEEN; n],
            low: vec![0; n],
            last: vec![0; n],
            up: vec![Self::UNSEEN; n],
            seen: Vec::new(),
            stack: Vec::new(),
            root: CellId::new(0),
        }
    }

    /// Searches the squares `blocked` does not mark (and `open`, marked or not) from
    /// `root`.
    pub(super) fn explore(
        &mut self,
        grid: &Grid,
        blocked: &[bool],
        root: CellId,
        open: Option<CellId>,
    ) {
        for &cell in &self.seen {
            self.disc[cell.index()] = Self::UNSEEN;
        }
        self.seen.clear();
        self.stack.clear();
        self.root = root;
        let mut time = 0;
        self.disc[root.index()] = time;
        self.low[root.index()] = time;
        self.up[root.index()] = Self::UNSEEN;
        self.seen.push(root);
        self.stack.push((root, 0));
        while let Some(&mut (cell, ref mut next)) = self.stack.last_mut() {
            let Some(&dir) = Dir::ALL.get(usize::from(*next)) else {
                // Every way from `cell` tried: its subtree is done.
                self.stack.pop();
                self.last[cell.index()] = time;
                if let Some(&(above, _)) = self.stack.last() {
                    let low = self.low[cell.index()];
                    let l = &mut self.low[above.index()];
                    *l = (*l).min(low);
                }
                continue;
            };
            *next += 1;
            let Some(to) = grid.neighbour(cell, dir) else {
                continue;
            };
            if blocked[to.index()] && open != Some(to) {
                continue;
            }
            if self.disc[to.index()] == Self::UNSEEN {
                time += 1;
                self.disc[to.index()] = time;
                self.low[to.index()] = time;
                self.up[to.index()] = cell.index() as u32;
                self.seen.push(to);
                self.stack.push((to, 0));
            } else if self.up[cell.index()] != to.index() as u32 {
                let back = self.disc[to.index()];
                let l = &mut self.low[cell.index()];
                *l = (*l).min(back);
            }
        }
    }

    /// Whether the last search reached `cell`.
    pub(super) fn reached(&self, cell: CellId) -> bool {
        self.disc[cell.index()] != Self::UNSEEN
    }

    /// The children of `cell` in the search whose subtrees taking out `cell` cuts off:
    /// `(child, its discovery time)`.
    fn cut_children<'a>(
        &'a self,
        grid: &'a Grid,
        cell: CellId,
    ) -> impl Iterator<Item = (CellId, u32)> + 'a {
        let d = self.disc[cell.index()];
        grid.neighbours(cell).filter_map(move |(_, child)| {
            let c = self.disc[child.index()];
            (c != Self::UNSEEN
                && self.up[child.index()] == cell.index() as u32
                && self.low[child.index()] >= d)
                .then_some((child, c))
        })
    }

    /// The part of the floor without `cell` that holds `beside` (a free square beside
    /// it): the discovery time of the cut-off child subtree that holds it, else
    /// [`Cuts::ROOT_PART`]; [`Cuts::UNSEEN`] when the search never reached `beside`.
    pub(super) fn part(&self, grid: &Grid, cell: CellId, beside: CellId) -> u32 {
        let (d, b) = (self.disc[cell.index()], self.disc[beside.index()]);
        if b == Self::UNSEEN {
            return Self::UNSEEN;
        }
        if d == Self::UNSEEN || b < d || b > self.last[cell.index()] {
            return Self::ROOT_PART;
        }
        self.cut_children(grid, cell)
            .find(|&(child, c)| c <= b && b <= self.last[child.index()])
            .map_or(Self::ROOT_PART, |(_, c)| c)
    }

    /// The parts that taking out `cell` (reached) leaves of its region: none when it is
    /// alone there.
    pub(super) fn pieces(&self, grid: &Grid, cell: CellId) -> u32 {
        let children = self.cut_children(grid, cell).count() as u32;
        children + u32::from(cell != self.root)
    }
}

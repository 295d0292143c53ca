//! The pushes that take one box from square to square, the other boxes standing still:
//! a breadth-first search over (box square, side of the player) with one walk per node.
//!
//! Why: a macro move of the finder (a box sent through its goal room to its goal,
//! [`super::goal_room`]) is one edge of the search but many pushes; the search needs the
//! fewest such pushes and the replay the pushes themselves.
//!
//! # Complexity
//! O(4 x squares) nodes, each one walk O(squares): O(squares^2) per search, in practice
//! the squares the box and the player may enter.

use grid_core::{CellId, Dir, Grid};

use super::walk::Walker;

/// "No node": the start of the tree.
const ROOT: u32 = u32::MAX;

/// The tree of a search: per node (box square x 4 + the player's side) the node it was
/// reached from and the push that reached it.
#[derive(Debug, Clone)]
pub(super) struct PushTree {
    /// Per node: the node before (or [`ROOT`]) with the stamp of the search that reached it.
    parent: Vec<(u32, u32)>,
    /// The nodes reached, in breadth-first order (fewest pushes first).
    order: Vec<u32>,
    stamp: u32,
    /// The box's square before the first push.
    from: CellId,
}

impl PushTree {
    /// A tree for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        PushTree {
            parent: vec![(ROOT, 0); 4 * n],
            order: Vec::new(),
            stamp: 0,
            from: CellId::new(0),
        }
    }

    /// Every place the box on `from` can be pushed to, the player on `player`, squares
    /// `blocked` marks (the other boxes, and whatever the caller fences off) standing
    /// still; `from` itself must not be marked. The marks are restored before it returns.
    pub(super) fn run(
        &mut self,
        grid: &Grid,
        blocked: &mut [bool],
        player: CellId,
        from: CellId,
        walker: &mut Walker,
    ) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.parent.fill((ROOT, 0));
            self.stamp = 1;
        }
        self.order.clear();
        self.from = from;
        self.expand(grid, blocked, player, from, ROOT, walker);
        let mut head = 0;
        while head < self.order.len() {
            let node = self.order[head];
            head += 1;
            let (cell, side) = split(node);
            let Some(standing) = grid.neighbour(cell, side) else {
                continue;
            };
            self.expand(grid, blocked, standing, cell, node, walker);
        }
    }

    /// Queues the pushes of the box on `cell`, the player on `standing`, reached by `node`.
    fn expand(
        &mut self,
        grid: &Grid,
        blocked: &mut [bool],
        standing: CellId,
        cell: CellId,
        node: u32,
        walker: &mut Walker,
    ) {
        blocked[cell.index()] = true;
        walker.run(grid, blocked, standing);
        blocked[cell.index()] = false;
        for dir in Dir::ALL {
            let (Some(to), Some(behind)) = (
                grid.neighbour(cell, dir),
                grid.neighbour(cell, dir.opposite()),
            ) else {
                continue;
            };
            if blocked[to.index()] || !walker.reached(behind) {
                continue;
            }
            let next = join(to, dir.opposite());
            if self.parent[next as usize].1 == self.stamp {
                continue;
            }
            self.parent[next as usize] = (node, self.stamp);
            self.order.push(next);
        }
    }

    /// Whether the last search took the box to `to` (or started there).
    pub(super) fn reached(&self, to: CellId) -> bool {
        to == self.from || self.first(to).is_some()
    }

    /// The squares the last search took the box to, with the side the player then
    /// stands on, fewest pushes first (a square once per side).
    pub(super) fn reached_nodes(&self) -> impl Iterator<Item = (CellId, Dir)> + '_ {
        self.order.iter().map(|&node| split(node))
    }

    /// The first node (fewest pushes) with the box on `to`.
    fn first(&self, to: CellId) -> Option<u32> {
        self.order.iter().copied().find(|&node| split(node).0 == to)
    }

    /// The pushes of a shortest way to `to`, in order, appended to `pushes`: the square
    /// the box stands on before each push and its direction. Nothing when the box starts
    /// there or never gets there.
    pub(super) fn pushes_to(&self, grid: &Grid, to: CellId, pushes: &mut Vec<(CellId, Dir)>) {
        let first = pushes.len();
        let mut node = self.first(to);
        while let Some(at) = node {
            let (cell, side) = split(at);
            let dir = side.opposite();
            let Some(before) = grid.neighbour(cell, side) else {
                break;
            };
            pushes.push((before, dir));
            let parent = self.parent[at as usize].0;
            node = (parent != ROOT).then_some(parent);
        }
        pushes[first..].reverse();
    }
}

/// A node: the box's square and the side the player stands on.
fn join(cell: CellId, side: Dir) -> u32 {
    (cell.index() * 4 + side.index()) as u32
}

/// See [`join`].
fn split(node: u32) -> (CellId, Dir) {
    (CellId::new(node as usize / 4), Dir::ALL[node as usize % 4])
}

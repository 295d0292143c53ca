//! The pushes that take one box from square to square, the other boxes standing still:
//! a breadth-first search over (box square, side of the player).
//!
//! Why: a macro move of the finder (a box sent through its goal room to its goal,
//! [`super::goal_room`], to the next goal of the packing order, [`super::advisor`], or to
//! any place it reaches, FESS's macro moves in [`super::greedy`]) is one edge of the
//! search but many pushes; the search needs the fewest such pushes and the
//! replay the pushes themselves.
//!
//! Which sides of the box the player reaches is read from one depth-first search of the
//! floor ([`Cuts`]: the other boxes as walls, the moving box's first square free), rooted
//! at the player, rather than from one walk per node: with the box on square s, the
//! player reaches the free squares beside s that lie in its own part of the floor without
//! s.
//!
//! # Complexity
//! O(squares) for the depth-first search, then O(1) per node of the O(4 x squares) nodes:
//! O(squares) per search (it was O(squares^2) with a walk per node).

use grid_core::{CellId, Dir, Grid};

use super::cuts::Cuts;

/// "No node": the start of the tree.
const ROOT: u32 = u32::MAX;

/// The tree of a search: per node (box square x 4 + the player's side) the node it was
/// reached from and the push that reached it.
#[derive(Debug, Clone)]
pub(super) struct PushTree {
    /// Per node: the node before (or [`ROOT`]) with the stamp of the search that reached it.
    parent: Vec<(u32, u32)>,
    /// Per node reached by the last search: its pushes from the start.
    depth: Vec<u32>,
    /// The nodes reached, in breadth-first order (fewest pushes first).
    order: Vec<u32>,
    stamp: u32,
    /// The box's square before the first push.
    from: CellId,
    /// The depth-first search of the floor, rooted at the player.
    cuts: Cuts,
}

impl PushTree {
    /// A tree for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        PushTree {
            parent: vec![(ROOT, 0); 4 * n],
            depth: vec![0; 4 * n],
            order: Vec::new(),
            stamp: 0,
            from: CellId::new(0),
            cuts: Cuts::new(n),
        }
    }

    /// Every place the box on `from` can be pushed to, the player on `player`, squares
    /// `blocked` marks (the other boxes, and whatever the caller fences off) standing
    /// still; neither `from` nor `player` may be marked.
    pub(super) fn run(&mut self, grid: &Grid, blocked: &[bool], player: CellId, from: CellId) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.parent.fill((ROOT, 0));
            self.stamp = 1;
        }
        self.order.clear();
        self.from = from;
        self.cuts.explore(grid, blocked, player, None);
        // The player, the root, is in the root's part of the floor without `from`.
        self.expand(grid, blocked, Cuts::ROOT_PART, from, ROOT);
        let mut head = 0;
        while head < self.order.len() {
            let node = self.order[head];
            head += 1;
            let (cell, side) = split(node);
            let Some(standing) = grid.neighbour(cell, side) else {
                continue;
            };
            let part = self.cuts.part(grid, cell, standing);
            self.expand(grid, blocked, part, cell, node);
        }
    }

    /// Queues the pushes of the box on `cell`, the player in `part` of the floor without
    /// `cell`, reached by `node`.
    fn expand(&mut self, grid: &Grid, blocked: &[bool], part: u32, cell: CellId, node: u32) {
        if part == Cuts::UNSEEN {
            return;
        }
        for (dir, to, behind) in grid.push_lines(cell) {
            if blocked[to.index()]
                || blocked[behind.index()]
                || self.cuts.part(grid, cell, behind) != part
            {
                continue;
            }
            let next = join(to, dir.opposite());
            if self.parent[next as usize].1 == self.stamp {
                continue;
            }
            self.parent[next as usize] = (node, self.stamp);
            self.depth[next as usize] = if node == ROOT {
                1
            } else {
                self.depth[node as usize] + 1
            };
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

    /// The places the last search took the box to, as [`PushTree::reached_nodes`], each
    /// with its pushes from the start.
    pub(super) fn reached_with_pushes(&self) -> impl Iterator<Item = (CellId, Dir, u32)> + '_ {
        self.order.iter().map(|&node| {
            let (cell, side) = split(node);
            (cell, side, self.depth[node as usize])
        })
    }

    /// The first node (fewest pushes) with the box on `to`.
    fn first(&self, to: CellId) -> Option<u32> {
        self.order.iter().copied().find(|&node| split(node).0 == to)
    }

    /// The pushes of a shortest way to `to`, in order, appended to `pushes`: the square
    /// the box stands on before each push and its direction. Nothing when the box starts
    /// there or never gets there.
    pub(super) fn pushes_to(&self, grid: &Grid, to: CellId, pushes: &mut Vec<(CellId, Dir)>) {
        self.pushes_along(grid, self.first(to), pushes);
    }

    /// As [`PushTree::pushes_to`], to the box on `to` with the player on its `side`
    /// (nothing when the last search did not reach that place).
    pub(super) fn pushes_to_side(
        &self,
        grid: &Grid,
        to: CellId,
        side: Dir,
        pushes: &mut Vec<(CellId, Dir)>,
    ) {
        let node = join(to, side);
        let reached = self.parent[node as usize].1 == self.stamp;
        self.pushes_along(grid, reached.then_some(node), pushes);
    }

    /// The pushes from the start to `node`, appended in order.
    fn pushes_along(&self, grid: &Grid, node: Option<u32>, pushes: &mut Vec<(CellId, Dir)>) {
        let first = pushes.len();
        let mut node = node;
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

#[cfg(test)]
mod tests {
    use grid_core::rng::SplitMix64;
    use grid_core::{CellId, Grid};

    use super::{PushTree, join, split};
    use crate::finder::walk::Walker;
    use crate::{Collection, generate};

    /// The obvious search: one walk of the player per node, the box a wall.
    fn walked(grid: &Grid, blocked: &mut [bool], player: CellId, from: CellId) -> Vec<u32> {
        let mut walker = Walker::new(grid.cell_count());
        let mut seen = vec![false; 4 * grid.cell_count()];
        let mut order: Vec<u32> = Vec::new();
        let mut expand = |standing: CellId, cell: CellId, order: &mut Vec<u32>| {
            blocked[cell.index()] = true;
            walker.run(grid, blocked, standing);
            blocked[cell.index()] = false;
            for (dir, to, behind) in grid.push_lines(cell) {
                let next = join(to, dir.opposite());
                if !blocked[to.index()] && walker.reached(behind) && !seen[next as usize] {
                    seen[next as usize] = true;
                    order.push(next);
                }
            }
        };
        expand(player, from, &mut order);
        let mut head = 0;
        while head < order.len() {
            let (cell, side) = split(order[head]);
            head += 1;
            if let Some(standing) = grid.neighbour(cell, side) {
                expand(standing, cell, &mut order);
            }
        }
        order
    }

    /// The parts read from one depth-first search give the same nodes in the same order
    /// as a walk per node, for every box of 3000 generated levels (up to 12 x 12, inner
    /// walls), the player on its start square and on every free square.
    #[test]
    fn one_depth_first_search_matches_a_walk_per_node() {
        let mut rng = SplitMix64::new(2027);
        let mut compared = 0;
        for round in 0..3000 {
            let text = generate::random_level(&mut rng, 1 + round % 6, 12, [10, 25, 40][round % 3]);
            let Some(Ok(level)) = Collection::new(text.as_bytes(), 10_000).next() else {
                continue;
            };
            let grid = level.grid();
            let mut tree = PushTree::new(grid.cell_count());
            for (i, &from) in level.boxes().iter().enumerate() {
                let mut blocked = vec![false; grid.cell_count()];
                for (j, b) in level.boxes().iter().enumerate() {
                    blocked[b.index()] = j != i;
                }
                let players: Vec<CellId> = std::iter::once(level.player())
                    .chain(
                        grid.cells()
                            .filter(|c| round % 10 == 0 && !blocked[c.index()]),
                    )
                    .collect();
                for player in players {
                    if player == from || blocked[player.index()] {
                        continue;
                    }
                    tree.run(grid, &blocked, player, from);
                    let expected = walked(grid, &mut blocked, player, from);
                    assert_eq!(tree.order, expected, "{text}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 5000, "{compared}");
    }
}

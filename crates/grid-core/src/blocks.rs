//! Biconnected components (blocks) of a grid's cell graph, to answer in O(1) whether two
//! neighbours of a cell stay connected when that cell is taken away.
//!
//! Why: in Sokoban the box is a wall the player must walk around. After a push the player
//! stands on one side of the box; which other sides it can reach without moving the box
//! is exactly "do these two neighbours of the box's cell share a block with it", so a
//! search over (box, side) states needs no walk search just to know which pushes exist.
//!
//! The rule used: two neighbours `u`, `v` of `x` are connected in the graph without `x`
//! if and only if the edges `x-u` and `x-v` lie in the same block (every path between
//! different blocks at `x` passes through `x`; inside a block, removing one cell keeps
//! it connected).

use crate::grid::{CellId, Dir, Grid};

/// Marks a missing edge (a wall or the grid's edge in that direction).
const NO_EDGE: u32 = u32::MAX;

/// The block of every edge of a [`Grid`]: `block[cell][dir]` for the edge from `cell` to its
/// neighbour in `dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocks {
    block: Vec<[u32; 4]>,
}

impl Blocks {
    /// Finds the blocks with Hopcroft and Tarjan's edge-stack DFS, written iteratively so
    /// that long corridors cannot overflow the call stack.
    ///
    /// # Complexity
    /// O(cells) time and memory.
    pub fn new(grid: &Grid) -> Self {
        let n = grid.cell_count();
        const UNSEEN: u32 = u32::MAX;
        let mut block = vec![[NO_EDGE; 4]; n];
        let mut disc = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut parent = vec![UNSEEN; n];
        let mut edges: Vec<(CellId, Dir)> = Vec::new();
        // DFS frames: (cell, index of the next direction to try).
        let mut frames: Vec<(CellId, usize)> = Vec::new();
        let mut time = 0u32;
        let mut next_block = 0u32;

        for root in grid.cells() {
            if disc[root.index()] != UNSEEN {
                continue;
            }
            disc[root.index()] = time;
            low[root.index()] = time;
            time += 1;
            frames.push((root, 0));
            while let Some(frame) = frames.last_mut() {
                let (v, next) = *frame;
                if next < 4 {
                    frame.1 += 1;
                    let dir = Dir::ALL[next];
                    let Some(w) = grid.neighbour(v, dir) else {
                        continue;
                    };
                    if disc[w.index()] == UNSEEN {
                        parent[w.index()] = v.index() as u32;
                        disc[w.index()] = time;
                        low[w.index()] = time;
                        time += 1;
                        edges.push((v, dir));
                        frames.push((w, 0));
                    } else if parent[v.index()] != w.index() as u32
                        && disc[w.index()] < disc[v.index()]
                    {
                        // A back edge to an ancestor.
                        edges.push((v, dir));
                        low[v.index()] = low[v.index()].min(disc[w.index()]);
                    }
                    continue;
                }
                // v is finished: report to its parent.
                frames.pop();
                let Some(&(u, _)) = frames.last() else {
                    continue;
                };
                low[u.index()] = low[u.index()].min(low[v.index()]);
                if low[v.index()] >= disc[u.index()] {
                    // u separates v's subtree: the edges above (u, v) on the stack form a block.
                    while let Some((a, dir)) = edges.pop() {
                        block[a.index()][dir.index()] = next_block;
                        if let Some(b) = grid.neighbour(a, dir) {
                            block[b.index()][dir.opposite().index()] = next_block;
                        }
                        if a == u && grid.neighbour(a, dir) == Some(v) {
                            break;
                        }
                    }
                    next_block += 1;
                }
            }
        }
        Blocks { block }
    }

    /// Whether the neighbours of `cell` in directions `a` and `b` are connected by a path
    /// that does not pass through `cell`. False when either neighbour is missing.
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn connected_around(&self, cell: CellId, a: Dir, b: Dir) -> bool {
        let row = &self.block[cell.index()];
        row[a.index()] != NO_EDGE && row[a.index()] == row[b.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The obvious answer: a walk search in the grid with `cell` removed.
    fn connected_slow(grid: &Grid, cell: CellId, a: Dir, b: Dir) -> bool {
        let (Some(u), Some(v)) = (grid.neighbour(cell, a), grid.neighbour(cell, b)) else {
            return false;
        };
        grid.distances(u, Some(cell))[v.index()] != crate::UNREACHABLE
    }

    #[test]
    fn agrees_with_walk_search_on_random_grids() {
        let mut rng = SplitMix64::new(2024);
        for round in 0..400 {
            let height = rng.between(1, 9);
            let width = rng.between(1, 9);
            let wall_percent = [10, 25, 40][round % 3];
            let open: Vec<bool> = (0..height * width)
                .map(|_| !rng.percent(wall_percent))
                .collect();
            let grid = Grid::new(height, width, |r, c| open[r * width + c]);
            let blocks = Blocks::new(&grid);
            for cell in grid.cells() {
                for a in Dir::ALL {
                    for b in Dir::ALL {
                        assert_eq!(
                            blocks.connected_around(cell, a, b),
                            connected_slow(&grid, cell, a, b),
                            "round {round}, cell {:?}, {a:?}-{b:?}",
                            grid.position(cell)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_corridor_cell_separates_its_two_sides() {
        let grid = Grid::new(1, 3, |_, _| true);
        let blocks = Blocks::new(&grid);
        let middle = CellId::new(1);
        assert!(!blocks.connected_around(middle, Dir::West, Dir::East));
        assert!(blocks.connected_around(middle, Dir::West, Dir::West));
        assert!(!blocks.connected_around(middle, Dir::North, Dir::North));
    }
}

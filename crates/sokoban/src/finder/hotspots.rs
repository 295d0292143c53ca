//! FESS's hotspots advisor (Shoham and Schaeffer, IEEE CoG 2020): besides its pushes, a
//! state gets the move of its worst hotspot, the box that blocks the most other boxes'
//! ways to the goals, to where it blocks the fewest, the other boxes standing still, as
//! one edge.
//!
//! Why: a box standing in a corridor or a door that other boxes must pass is mostly
//! moved out of the way in several pushes, none of which changes a feature (goals
//! packed, regions) by itself; the advisor's move clears the way at once. It only adds
//! edges, so every level stays as solvable as without it.
//!
//! A box on square `x` blocks the box on `s` (not on a goal) when a lone box on `s`
//! reaches a goal, but no longer with `x` walled (the player's way ignored, as for dead
//! squares: a box is pulled back from the goals). That table is computed once per level,
//! one pull search per square, and only for floors of at most [`MAX_SQUARES`] squares
//! (one bit per pair of squares).
//!
//! # Complexity
//! Per level: O(squares^2) time, squares^2 bits. Per state: O(k^2) to score the boxes,
//! then for the [`TRIES`] worst one [`PushTree`] search each, O(squares^2) in the worst
//! case, and O(k) per square reached.

use grid_core::{CellId, Dir};

use super::box_path::PushTree;
use crate::board::Board;
use crate::parse::Level;

/// The largest floor the advisor works on (its table: 128 KiB there).
pub(super) const MAX_SQUARES: usize = 1024;

/// The boxes tried per state, worst first.
const TRIES: usize = 2;

/// The advisor's tables, reused from state to state.
#[derive(Debug)]
pub(super) struct HotspotAdvisor {
    n: usize,
    /// Bit `x * n + s`: a box on `x` blocks a lone box on `s` from every goal.
    blocks: Vec<u64>,
    tree: PushTree,
    pushes: Vec<(CellId, Dir)>,
    /// The boxes that block some other: (blocked, box index).
    hot: Vec<(u32, usize)>,
    /// Per square: the stamp of the last try that scored it.
    seen: Vec<u32>,
    stamp: u32,
}

impl HotspotAdvisor {
    /// The table's bytes for a floor of `n` squares (the caller's budget counts them).
    pub(super) fn bytes(n: usize) -> u64 {
        ((n * n).div_ceil(64) * 8) as u64
    }

    /// An advisor for `level`, or `None` when its floor has more than [`MAX_SQUARES`].
    pub(super) fn new(level: &Level, board: &Board<'_>) -> Option<Self> {
        let grid = level.grid();
        let n = grid.cell_count();
        if n > MAX_SQUARES {
            return None;
        }
        let mut blocks = vec![0u64; (n * n).div_ceil(64)];
        let mut alive = vec![0u32; n];
        let mut queue: Vec<CellId> = Vec::with_capacity(n);
        for x in 0..n {
            // Pull every box back from the goals, `x` walled: the stamp `x + 1` marks the
            // squares a lone box reaches a goal from.
            let stamp = x as u32 + 1;
            queue.clear();
            for &g in level.goals() {
                if g.index() != x {
                    alive[g.index()] = stamp;
                    queue.push(g);
                }
            }
            let mut head = 0;
            while head < queue.len() {
                let cell = queue[head];
                head += 1;
                for dir in Dir::ALL {
                    // The box on `cell` pulled one square in `dir`: the player stands
                    // there and steps on.
                    let Some(to) = grid.neighbour(cell, dir) else {
                        continue;
                    };
                    let Some(player) = grid.neighbour(to, dir) else {
                        continue;
                    };
                    if to.index() == x || player.index() == x || alive[to.index()] == stamp {
                        continue;
                    }
                    alive[to.index()] = stamp;
                    queue.push(to);
                }
            }
            for (s, &reached) in alive.iter().enumerate() {
                if s != x && reached != stamp && !board.is_dead(s) {
                    let bit = x * n + s;
                    blocks[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Some(HotspotAdvisor {
            n,
            blocks,
            tree: PushTree::new(n),
            pushes: Vec::new(),
            hot: Vec::new(),
            seen: vec![0; n],
            stamp: 0,
        })
    }

    /// Whether a box on `x` blocks a lone box on `s` from every goal.
    fn blocks(&self, x: usize, s: usize) -> bool {
        let bit = x * self.n + s;
        self.blocks[bit / 64] >> (bit % 64) & 1 == 1
    }

    /// The boxes of `boxes` (but box `skip`) off the goals that a box on `x` blocks.
    fn blocked(&self, board: &Board<'_>, boxes: &[u16], skip: usize, x: usize) -> u32 {
        boxes
            .iter()
            .enumerate()
            .filter(|&(j, &s)| {
                let s = usize::from(s);
                j != skip && !board.is_goal(s) && self.blocks(x, s)
            })
            .count() as u32
    }

    /// Appends to `moves` (box index in `boxes`, where it ends, where the player then
    /// stands, pushes) the moves of the state `boxes` (marked in `occupied`, restored
    /// before it returns), the player on `player`, that take each of its [`TRIES`] worst
    /// hotspots to the square, not dead, where it blocks the fewest boxes, fewer than
    /// now (the fewest pushes among equals), in two pushes or more (one push is among
    /// the state's pushes already).
    pub(super) fn advise(
        &mut self,
        board: &Board<'_>,
        boxes: &[u16],
        occupied: &mut [bool],
        player: CellId,
        moves: &mut Vec<(usize, CellId, CellId, u32)>,
    ) {
        let grid = board.grid();
        self.hot.clear();
        for (i, &b) in boxes.iter().enumerate() {
            let count = self.blocked(board, boxes, i, usize::from(b));
            if count > 0 {
                self.hot.push((count, i));
            }
        }
        self.hot.sort_unstable_by(|a, b| b.cmp(a));
        self.hot.truncate(TRIES);
        for h in 0..self.hot.len() {
            let (count, i) = self.hot[h];
            let cell = CellId::new(usize::from(boxes[i]));
            occupied[cell.index()] = false;
            self.tree.run(grid, occupied, player, cell);
            occupied[cell.index()] = true;
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.seen.fill(0);
                self.stamp = 1;
            }
            self.seen[cell.index()] = self.stamp;
            // The best square: (blocked, where).
            let mut best: Option<(u32, CellId)> = None;
            for (to, _) in self.tree.reached_nodes() {
                if self.seen[to.index()] == self.stamp {
                    continue;
                }
                self.seen[to.index()] = self.stamp;
                if board.is_dead(to.index()) {
                    continue;
                }
                let after = self.blocked(board, boxes, i, to.index());
                if after < best.map_or(count, |(c, _)| c) {
                    best = Some((after, to));
                    if after == 0 {
                        break;
                    }
                }
            }
            let Some((_, to)) = best else {
                continue;
            };
            self.pushes.clear();
            self.tree.pushes_to(grid, to, &mut self.pushes);
            // One push is among the state's pushes already.
            if self.pushes.len() < 2 {
                continue;
            }
            if let Some(&(standing, _)) = self.pushes.last() {
                moves.push((i, to, standing, self.pushes.len() as u32));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Collection;

    /// The way to the goals runs through two squares (row 2); with one of them walled,
    /// no box below gets up, and a box on the way up is not blocked by a box below.
    #[test]
    fn a_box_in_the_passage_blocks_the_ones_below() {
        let text = "##########\n#..      #\n#######  #\n#  $$    #\n# @      #\n##########\n";
        let level = Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .next()
            .unwrap()
            .unwrap();
        let board = Board::new(&level);
        let advisor = HotspotAdvisor::new(&level, &board).unwrap();
        let grid = level.grid();
        let at = |r, c| grid.cell(r, c).unwrap().index();
        // A box goes up only at column 7 (pulled back from the goals, the player needs
        // the square above it in row 1, and column 8's has none).
        assert!(advisor.blocks(at(2, 7), at(3, 3)));
        assert!(!advisor.blocks(at(3, 3), at(2, 7)));
        assert!(!advisor.blocks(at(2, 8), at(3, 3)));
    }
}

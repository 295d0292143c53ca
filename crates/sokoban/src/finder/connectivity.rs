//! FESS's connectivity advisor (Shoham and Schaeffer, IEEE CoG 2020): besides its pushes,
//! a state gets the move of one box, the other boxes standing still, that most lowers
//! the number of regions the boxes cut the floor into, as one edge.
//!
//! Why: a box that walls the player out of part of the floor is mostly moved out of
//! the way in several pushes, each of which, alone, leaves the regions as they were (a
//! plateau of the feature); the advisor's move reaches the better cell of the feature
//! space at once. It only adds edges, so every level stays as solvable as without it.
//!
//! Only the boxes on the border of the player's region that touch a free square the
//! player cannot reach are tried (the boxes that cut the floor there), at most [`TRIES`]
//! of them, and only to squares that are not dead.
//!
//! # Complexity
//! Per state: O(k) to pick the boxes, then per box tried one [`PushTree`] search,
//! O(squares^2) in the worst case, and one count of the regions, O(squares), per square
//! the box reaches, mostly O(1) ([`Regions`]).

use grid_core::{CellId, Dir};

use super::box_path::PushTree;
use super::walk::{Regions, Walker};
use crate::board::Board;

/// The boxes tried per state.
const TRIES: usize = 4;

/// The advisor's tables, reused from state to state.
#[derive(Debug)]
pub(super) struct ConnectivityAdvisor {
    tree: PushTree,
    regions: Regions,
    pushes: Vec<(CellId, Dir)>,
    /// Per square: the stamp of the last try that counted it.
    seen: Vec<u32>,
    stamp: u32,
}

impl ConnectivityAdvisor {
    /// An advisor for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        ConnectivityAdvisor {
            tree: PushTree::new(n),
            regions: Regions::new(n),
            pushes: Vec::new(),
            seen: vec![0; n],
            stamp: 0,
        }
    }

    /// Appends to `moves` (box index in `boxes`, where it ends, where the player then
    /// stands, pushes) the move of the state `boxes` (marked in `occupied`, restored before
    /// it returns) that leaves the fewest regions, fewer than `regions` (the state's), in
    /// two pushes or more (one push is among the state's pushes already); `reach` is the
    /// player's region, from `player`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn advise(
        &mut self,
        board: &Board<'_>,
        boxes: &[u16],
        occupied: &mut [bool],
        player: CellId,
        reach: &Walker,
        regions: u32,
        moves: &mut Vec<(usize, CellId, CellId, u32)>,
    ) {
        let grid = board.grid();
        let mut tried = 0;
        // The best move: (regions, box, where it ends).
        let mut best: Option<(u32, usize, CellId)> = None;
        for (i, &b) in boxes.iter().enumerate() {
            if tried == TRIES {
                break;
            }
            let cell = CellId::new(usize::from(b));
            let touches_player = grid.neighbours(cell).any(|(_, c)| reach.reached(c));
            let cuts = grid
                .neighbours(cell)
                .any(|(_, c)| !occupied[c.index()] && !reach.reached(c));
            if !touches_player || !cuts {
                continue;
            }
            tried += 1;
            occupied[cell.index()] = false;
            self.tree.run(grid, occupied, player, cell);
            self.regions.label(grid, occupied);
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.seen.fill(0);
                self.stamp = 1;
            }
            self.seen[cell.index()] = self.stamp;
            for (to, _, pushes) in self.tree.reached_with_pushes() {
                if self.seen[to.index()] == self.stamp {
                    continue;
                }
                self.seen[to.index()] = self.stamp;
                // The first place on `to` has its fewest pushes; one push is among the
                // state's pushes already.
                if board.is_dead(to.index()) || pushes < 2 {
                    continue;
                }
                occupied[to.index()] = true;
                let count = self.regions.after(grid, occupied, None, to, cell);
                occupied[to.index()] = false;
                if count < best.map_or(regions, |(c, ..)| c) {
                    best = Some((count, i, to));
                }
            }
            occupied[cell.index()] = true;
        }
        let Some((_, i, to)) = best else {
            return;
        };
        // The tree again for the best box: its pushes and where the player ends.
        let cell = CellId::new(usize::from(boxes[i]));
        occupied[cell.index()] = false;
        self.tree.run(grid, occupied, player, cell);
        occupied[cell.index()] = true;
        self.pushes.clear();
        self.tree.pushes_to(grid, to, &mut self.pushes);
        if let Some(&(standing, _)) = self.pushes.last() {
            moves.push((i, to, standing, self.pushes.len() as u32));
        }
    }
}

//! The packing order: in which order the goals are filled, found backwards from the
//! solved level (the feature "packing" of FESS, Shoham and Schaeffer, IEEE CoG 2020).
//!
//! Why: a greedy search fills the goals nearest the boxes first, and in a goal room those
//! are the goals at its door, which then wall in the goals behind them. Backwards, with
//! every goal holding a box and the other boxes taken away, a box that the player can
//! reach and pull one square off its goal is emptied; the goals emptied first are the
//! last to fill. Each round empties, among those that can be pulled, the goal nearest
//! the player's start by walking. Goals that can never be emptied this way come last, in
//! their order.
//!
//! # Complexity
//! O(goals x squares).

use grid_core::{CellId, Dir};

use super::walk::Walker;
use crate::parse::Level;

/// Per square, the rank of its goal in the packing order (0 fills first), or
/// [`NOT_A_GOAL`].
pub(super) fn ranks(level: &Level) -> Vec<u32> {
    let grid = level.grid();
    let n = grid.cell_count();
    let mut filled = vec![false; n];
    for g in level.goals() {
        filled[g.index()] = true;
    }
    // The player starts on a goal ('+'): the walk starts there all the same.
    let start = level.player();
    let mut walker = Walker::new(n);
    let mut emptied: Vec<CellId> = Vec::new();
    let mut left: Vec<CellId> = level.goals().to_vec();
    let mut distance = vec![u32::MAX; n];
    while !left.is_empty() {
        let was = filled[start.index()];
        filled[start.index()] = false;
        walker.run(grid, &filled, start);
        filled[start.index()] = was;
        distance.fill(u32::MAX);
        for (d, &cell) in walker.order().iter().enumerate() {
            distance[cell.index()] = d as u32;
        }
        // A box on `g` can be pulled towards `d`: the player stands on the square beside
        // it and steps back onto the free square after.
        let pullable = |g: CellId, filled: &[bool], distance: &[u32]| -> Option<u32> {
            Dir::ALL
                .into_iter()
                .filter_map(|d| {
                    let p = grid.neighbour(g, d)?;
                    let q = grid.neighbour(p, d)?;
                    (distance[p.index()] != u32::MAX && !filled[q.index()])
                        .then_some(distance[p.index()])
                })
                .min()
        };
        let next = left
            .iter()
            .enumerate()
            .filter_map(|(i, &g)| pullable(g, &filled, &distance).map(|d| (d, i)))
            .min();
        let Some((_, i)) = next else {
            break;
        };
        let g = left.swap_remove(i);
        filled[g.index()] = false;
        emptied.push(g);
    }
    let mut rank = vec![NOT_A_GOAL; n];
    // Emptied first, filled last; those never emptied fill first.
    for (r, g) in left.iter().chain(emptied.iter().rev()).enumerate() {
        rank[g.index()] = r as u32;
    }
    rank
}

/// The rank of a square that is not a goal.
pub(super) const NOT_A_GOAL: u32 = u32::MAX;

/// How many goals of the packing order, from its start, hold a box (`occupied` marks
/// the boxes; `order` lists the goals by rank).
///
/// # Complexity
/// O(goals).
pub(super) fn packed(order: &[CellId], occupied: &[bool]) -> u32 {
    order.iter().take_while(|g| occupied[g.index()]).count() as u32
}

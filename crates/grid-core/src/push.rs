//! Push distances of one box to one target over (box cell, side of the player) states,
//! ignoring every other box: the exact single-box answer of `sokoban-path`, and the
//! per-box lower bound of the many-box solver `sokoban`.
//!
//! Why (cell, side): which pushes a box allows depends on which of its sides the player
//! can reach without moving it, and [`Blocks`] answers that in O(1), so the whole table is
//! one backward breadth-first search with no walk search at all.
//!
//! # Complexity
//! O(cells) time and memory (4 states a cell).

use crate::blocks::Blocks;
use crate::grid::{CellId, Dir, Grid};
use crate::walk::UNREACHABLE;

/// The state "box on `cell`, player beside it on `side`", as an index into the tables of
/// [`push_distances`].
#[inline]
pub fn state(cell: CellId, side: Dir) -> usize {
    cell.index() * 4 + side.index()
}

/// The box cell and the player's side of a state index.
#[inline]
pub fn decode(state: usize) -> (CellId, Dir) {
    (CellId::new(state / 4), Dir::ALL[state % 4])
}

/// For every state ([`state`]), the fewest pushes that bring the box onto `target` when it
/// is the only box on `grid`, or [`UNREACHABLE`]. `queue` is a reusable buffer.
///
/// A box on the target needs 0 pushes from every side the player can stand on.
///
/// # Complexity
/// O(cells), one backward breadth-first search.
pub fn push_distances(
    grid: &Grid,
    blocks: &Blocks,
    target: CellId,
    queue: &mut Vec<u32>,
) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; grid.cell_count() * 4];
    queue.clear();
    for side in Dir::ALL {
        if grid.neighbour(target, side).is_some() {
            let v = state(target, side);
            dist[v] = 0;
            queue.push(v as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head] as usize;
        head += 1;
        let (cell, side) = decode(v);
        // The box came to `cell` from `from`, pushed away from `side`.
        let Some(from) = grid.neighbour(cell, side) else {
            continue;
        };
        if from == target || grid.neighbour(from, side).is_none() {
            continue;
        }
        let next = dist[v] + 1;
        for before in Dir::ALL {
            let u = state(from, before);
            if dist[u] == UNREACHABLE && blocks.connected_around(from, before, side) {
                dist[u] = next;
                queue.push(u as u32);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corridor_counts_one_push_a_cell() {
        let grid = Grid::new(1, 5, |_, _| true);
        let blocks = Blocks::new(&grid);
        let target = CellId::new(4);
        let dist = push_distances(&grid, &blocks, target, &mut Vec::new());
        // The box on cell 1, player on its west side: three pushes east.
        assert_eq!(dist[state(CellId::new(1), Dir::West)], 3);
        // From the east side it can only go west, away from the target.
        assert_eq!(dist[state(CellId::new(1), Dir::East)], UNREACHABLE);
        // Cell 0 is a corner of the corridor: the player cannot get behind it.
        assert_eq!(dist[state(CellId::new(0), Dir::East)], UNREACHABLE);
        assert_eq!(dist[state(target, Dir::West)], 0);
    }
}

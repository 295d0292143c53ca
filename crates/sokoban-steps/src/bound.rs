//! The fewest pushes between (box cell, player side) states, counted backwards from the
//! target (a lower bound on the steps still to come) or forwards from the start.
//!
//! Why: every push is a step, so the exact number of pushes still needed is a lower bound
//! on the steps still needed, and a consistent one (a push lowers it by at most one, a
//! walk leaves it unchanged). It is exact reachability too: a state the backward count
//! never reaches can never bring the box home, so an unsolvable level is answered without
//! any walking search. Which sides of the box the player can reach without moving it is
//! read from [`Blocks`] in O(1), so the count is a 0-1 breadth-first search over at most
//! four states per cell.
//!
//! # Complexity
//! O(cells) time and memory.

use std::collections::VecDeque;

use grid_core::blocks::Blocks;
use grid_core::{CellId, Dir, Grid};

/// A count for a state that cannot reach (or be reached).
pub const UNREACHED: u32 = u32::MAX;

/// The state "box on `cell`, player on its neighbour in `side`", as a table index.
#[inline]
pub fn state(cell: CellId, side: Dir) -> usize {
    cell.index() * 4 + side.index()
}

/// The box cell and the player's side of a state index.
#[inline]
pub fn unpack(state: usize) -> (CellId, Dir) {
    (CellId::new(state / 4), Dir::ALL[state % 4])
}

/// For every state, the fewest pushes that bring the box from it onto `target`;
/// [`UNREACHED`] where no sequence of pushes does. States with the box on the target
/// count 0 (the game has ended).
///
/// # Complexity
/// O(cells).
pub fn pushes_to_target(grid: &Grid, blocks: &Blocks, target: CellId) -> Vec<u32> {
    let seeds: Vec<usize> = Dir::ALL
        .into_iter()
        .filter(|&side| grid.neighbour(target, side).is_some())
        .map(|side| state(target, side))
        .collect();
    zero_one_search(grid, blocks, &seeds, false, None)
}

/// For every state, the fewest pushes that lead to it from one of the `seeds` states;
/// [`UNREACHED`] where none does. States with the box on `target` are reached but never
/// left: the game ends there.
///
/// # Complexity
/// O(cells).
pub fn pushes_from(grid: &Grid, blocks: &Blocks, seeds: &[usize], target: CellId) -> Vec<u32> {
    zero_one_search(grid, blocks, seeds, true, Some(target))
}

/// 0-1 breadth-first search over the states: walks around the box cost 0 (a symmetric
/// relation), pushes cost 1, followed forwards or backwards.
fn zero_one_search(
    grid: &Grid,
    blocks: &Blocks,
    seeds: &[usize],
    forward: bool,
    stop: Option<CellId>,
) -> Vec<u32> {
    let mut count = vec![UNREACHED; grid.cell_count() * 4];
    let mut deque: VecDeque<(usize, u32)> = VecDeque::new();
    for &s in seeds {
        if count[s] == UNREACHED {
            count[s] = 0;
            deque.push_back((s, 0));
        }
    }
    while let Some((s, c)) = deque.pop_front() {
        if c > count[s] {
            continue;
        }
        let (cell, side) = unpack(s);
        if stop == Some(cell) {
            continue;
        }
        for other in Dir::ALL {
            if other != side && blocks.connected_around(cell, side, other) {
                let t = state(cell, other);
                if count[t] > c {
                    count[t] = c;
                    deque.push_front((t, c));
                }
            }
        }
        let pushed = if forward {
            // Away from the player's side; the player steps onto the box's old cell.
            grid.neighbour(cell, side.opposite())
                .map(|next| state(next, side))
        } else {
            // The box came from the player's cell, pushed by the player one further back.
            grid.neighbour(cell, side)
                .filter(|&before| grid.neighbour(before, side).is_some())
                .map(|before| state(before, side))
        };
        if let Some(t) = pushed {
            if count[t] > c + 1 {
                count[t] = c + 1;
                deque.push_back((t, c + 1));
            }
        }
    }
    count
}

//! Lower bounds on the steps between (box cell, player side) states: to the target (the
//! A* heuristic) and from the start (to prune the path search).
//!
//! Why: every push is a step and every change of pushing direction costs a walk round the
//! box of at least 2, 4 or 6 steps, which the 3 x 3 cells around the box tell
//! ([`walk_at_least`]). The exact distance in the state graph with those cheap walk costs
//! is a consistent lower bound of the real one (same edges, none dearer), and it is exact
//! reachability too: a state it never reaches can never bring the box home, so an
//! unsolvable level is answered without any walking search. Which sides of the box the
//! player can reach without moving it is read from [`Blocks`] in O(1), and edge costs are
//! at most 6, so Dial's buckets order the search in linear time.
//!
//! # Complexity
//! O(cells) time and memory.

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

/// The fewest steps a walk from side `from` to side `to` of the box at `cell` can take,
/// judged from the 3 x 3 cells around it: 2 around a free corner and 4 around a wall
/// corner for neighbouring sides; 4 along a free flank and 6 otherwise for opposite ones.
///
/// The walk needs at least that: it avoids the box, so between neighbouring sides it
/// passes the corner cell or goes further round, and by parity every detour adds 2.
///
/// # Complexity
/// O(1).
#[inline]
pub fn walk_at_least(grid: &Grid, cell: CellId, from: Dir, to: Dir) -> u32 {
    let (Some(a), Some(b)) = (grid.neighbour(cell, from), grid.neighbour(cell, to)) else {
        return 0;
    };
    if from == to {
        return 0;
    }
    if from.opposite() != to {
        return if grid.neighbour(a, to).is_some() {
            2
        } else {
            4
        };
    }
    let flank_free = |side: Dir| {
        grid.neighbour(cell, side).is_some()
            && grid.neighbour(a, side).is_some()
            && grid.neighbour(b, side).is_some()
    };
    let (left, right) = match from {
        Dir::North | Dir::South => (Dir::West, Dir::East),
        Dir::West | Dir::East => (Dir::North, Dir::South),
    };
    if flank_free(left) || flank_free(right) {
        4
    } else {
        6
    }
}

/// For every state, a lower bound on the steps still needed to bring the box onto
/// `target`: 0 with the box on the target; [`UNREACHED`] exactly where no sequence of
/// pushes brings it home.
///
/// # Complexity
/// O(cells).
pub fn steps_to_target_at_least(grid: &Grid, blocks: &Blocks, target: CellId) -> Vec<u32> {
    let seeds: Vec<(usize, u32)> = Dir::ALL
        .into_iter()
        .filter(|&side| grid.neighbour(target, side).is_some())
        .map(|side| (state(target, side), 0))
        .collect();
    relaxed_search(grid, blocks, &seeds, false, None)
}

/// For every state, a lower bound on the steps from the start, the player reaching the
/// `seeds` states after the given walks; states with the box on `target` are reached but
/// never left (the game ends there).
///
/// # Complexity
/// O(cells).
pub fn steps_from_start_at_least(
    grid: &Grid,
    blocks: &Blocks,
    seeds: &[(usize, u32)],
    target: CellId,
) -> Vec<u32> {
    relaxed_search(grid, blocks, seeds, true, Some(target))
}

/// Dijkstra over the states with pushes costing 1 and walks [`walk_at_least`], forwards or
/// backwards from the seeds (each with its starting distance), states with the box on
/// `stop` never left. Dial's buckets: a ring of 8 (edges cost at most 6), the seeds fed in
/// when the search reaches their distance.
fn relaxed_search(
    grid: &Grid,
    blocks: &Blocks,
    seeds: &[(usize, u32)],
    forward: bool,
    stop: Option<CellId>,
) -> Vec<u32> {
    let mut dist = vec![UNREACHED; grid.cell_count() * 4];
    let mut seeds = seeds.to_vec();
    seeds.sort_by_key(|&(_, d)| std::cmp::Reverse(d));
    let mut buckets: [Vec<u32>; 8] = Default::default();
    let mut queued = 0usize;
    let mut current = 0u32;
    loop {
        while seeds.last().is_some_and(|&(_, d)| d <= current) {
            let Some((s, d)) = seeds.pop() else { break };
            if d < dist[s] {
                dist[s] = d;
                buckets[(d % 8) as usize].push(s as u32);
                queued += 1;
            }
        }
        if queued == 0 {
            match seeds.last() {
                Some(&(_, d)) => {
                    current = d;
                    continue;
                }
                None => break,
            }
        }
        let slot = (current % 8) as usize;
        while let Some(s) = buckets[slot].pop() {
            queued -= 1;
            let s = s as usize;
            if dist[s] != current {
                continue;
            }
            let (cell, side) = unpack(s);
            if stop == Some(cell) {
                continue;
            }
            let mut relax = |t: usize, cost: u32, buckets: &mut [Vec<u32>; 8]| {
                if current + cost < dist[t] {
                    dist[t] = current + cost;
                    buckets[((current + cost) % 8) as usize].push(t as u32);
                    queued += 1;
                }
            };
            let pushed = if forward {
                // Away from the player's side; the player steps onto the box's old cell.
                grid.neighbour(cell, side.opposite())
                    .map(|next| state(next, side))
            } else {
                // The box came from the player's cell, pushed from one further back; a box
                // on the target is never pushed (the game has ended).
                grid.neighbour(cell, side)
                    .filter(|&before| grid.neighbour(before, side).is_some())
                    .map(|before| state(before, side))
            };
            if let Some(t) = pushed {
                relax(t, 1, &mut buckets);
            }
            for other in Dir::ALL {
                if other != side && blocks.connected_around(cell, side, other) {
                    relax(
                        state(cell, other),
                        walk_at_least(grid, cell, side, other),
                        &mut buckets,
                    );
                }
            }
        }
        current += 1;
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::SideWalks;
    use grid_core::rng::SplitMix64;

    #[test]
    fn local_walk_bound_never_exceeds_the_walk() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..300 {
            let (height, width) = (rng.between(1, 7), rng.between(1, 7));
            let open: Vec<bool> = (0..height * width).map(|_| !rng.percent(30)).collect();
            let grid = Grid::new(height, width, |r, c| open[r * width + c]);
            let blocks = Blocks::new(&grid);
            let mut walks = SideWalks::new(&grid);
            for cell in grid.cells() {
                for from in Dir::ALL {
                    for to in Dir::ALL {
                        if let Some(walk) = walks.between(&grid, &blocks, cell, from, to) {
                            let bound = walk_at_least(&grid, cell, from, to);
                            assert!(bound <= walk, "{:?} {from:?}->{to:?}", grid.position(cell));
                            if bound == 2 || (bound == 4 && from.opposite() == to) {
                                assert_eq!(bound, walk, "free corners make the bound exact");
                            }
                        }
                    }
                }
            }
        }
    }
}

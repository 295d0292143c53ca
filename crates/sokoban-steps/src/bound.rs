//! Lower bounds on the steps between (box cell, player side) states: to the target (the
//! A* heuristic) and from the start (to prune the path search).
//!
//! Why: every push is a step and every change of pushing direction costs a walk round the
//! box. The 3 x 3 cells around the box give a first bound of that walk (2, 4 or 6 steps,
//! [`walk_at_least`](crate::detour::walk_at_least)); the walls the walk must go round give a far better one where walls
//! come in long blocks, as between the rungs of a ladder ([`WallRings`](crate::detour::WallRings)); corridors give
//! another ([`SideWalks::at_least`]). The exact distance in the state graph with those
//! cheaper walk costs is a consistent lower bound of the real one (same edges, none
//! dearer), and it is exact reachability too: a state it never reaches can never bring the
//! box home, so an unsolvable level is answered without any walking search. Which sides of
//! the box the player can reach without moving it is read from [`Blocks`] in O(1), and
//! edge costs are capped at 63 steps (a lower bound still), so Dial's buckets order the
//! search in linear time.
//!
//! # Complexity
//! O(cells) time and memory.

use grid_core::Blocks;
use grid_core::{BucketQueue, CellId, Dir, Grid, UNREACHABLE};

use crate::detour::{state, unpack};
use crate::walk::SideWalks;

/// The dearest edge of the relaxed searches: longer walks count as this much (a lower
/// bound still), so that Dial's buckets stay a small ring.
const MAX_EDGE: u32 = 63;
/// Dial's ring of buckets: more than [`MAX_EDGE`] of them.
const RING: usize = 64;

/// For every state, a lower bound on the steps still needed to bring the box onto
/// `target`: 0 with the box on the target; [`UNREACHABLE`] exactly where no sequence of
/// pushes brings it home.
///
/// # Complexity
/// O(cells).
pub fn steps_to_target_at_least(
    grid: &Grid,
    blocks: &Blocks,
    walks: &SideWalks,
    target: CellId,
) -> Vec<u32> {
    let seeds: Vec<(usize, u32)> = Dir::ALL
        .into_iter()
        .filter(|&side| grid.neighbour(target, side).is_some())
        .map(|side| (state(target, side), 0))
        .collect();
    relaxed_search(grid, blocks, walks, &seeds, Way::Backward, None)
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
    walks: &SideWalks,
    seeds: &[(usize, u32)],
    target: CellId,
) -> Vec<u32> {
    relaxed_search(grid, blocks, walks, seeds, Way::Forward, Some(target))
}

/// Which way a relaxed search runs over the pushes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// From the start: a push moves the box away from the player's side.
    Forward,
    /// From the target: a push is undone.
    Backward,
}

/// Dijkstra over the states with pushes costing 1 and walks [`walk_at_least`], forwards or
/// backwards from the seeds (each with its starting distance), states with the box on
/// `stop` never left. Dial's buckets: a ring of [`RING`] (edges capped at [`MAX_EDGE`]), the seeds fed in
/// when the search reaches their distance.
fn relaxed_search(
    grid: &Grid,
    blocks: &Blocks,
    walks: &SideWalks,
    seeds: &[(usize, u32)],
    way: Way,
    stop: Option<CellId>,
) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; grid.cell_count() * 4];
    let mut seeds = seeds.to_vec();
    seeds.sort_by_key(|&(_, d)| std::cmp::Reverse(d));
    let mut queue = BucketQueue::new(RING);
    loop {
        // Seeds go in once the search reaches their distance (or at once when it is idle),
        // so that every key queued stays within the ring.
        let next = queue.peek_key();
        if let Some(&(s, d)) = seeds.last().filter(|&&(_, d)| next.is_none_or(|k| d <= k)) {
            seeds.pop();
            if d < dist[s] {
                if queue.is_empty() {
                    queue.advance_to(d);
                }
                dist[s] = d;
                queue.push(d, s as u32);
            }
            continue;
        }
        let Some((current, s)) = queue.pop() else {
            break;
        };
        let s = s as usize;
        if dist[s] != current {
            continue;
        }
        let (cell, side) = unpack(s);
        if stop == Some(cell) {
            continue;
        }
        let mut relax = |t: usize, cost: u32| {
            if current + cost < dist[t] {
                dist[t] = current + cost;
                queue.push(current + cost, t as u32);
            }
        };
        let pushed = if way == Way::Forward {
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
            relax(t, 1);
        }
        for other in Dir::ALL {
            if other != side && blocks.connected_around(cell, side, other) {
                let walk = walks.at_least(cell, side, other).min(MAX_EDGE);
                relax(state(cell, other), walk);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detour::{WallRings, walk_at_least};
    use grid_core::rng::SplitMix64;

    #[test]
    fn walk_bounds_never_exceed_the_walk() {
        let mut rng = SplitMix64::new(11);
        for round in 0..600 {
            let (height, width) = (rng.between(1, 9), rng.between(1, 9));
            let wall_percent = [15, 30, 45][round % 3];
            let grid = test_support::random_grid(&mut rng, height, width, wall_percent);
            let blocks = Blocks::new(&grid);
            let mut walks = SideWalks::new(&grid, &blocks);
            let fresh = walks.clone();
            let rings = WallRings::new(&grid);
            for cell in grid.cells() {
                for from in Dir::ALL {
                    for to in Dir::ALL {
                        if let Some(walk) = walks.between(&grid, &blocks, cell, from, to) {
                            let bound = walk_at_least(&grid, cell, from, to);
                            assert!(bound <= walk, "{:?} {from:?}->{to:?}", grid.position(cell));
                            if from != to {
                                let prepared = fresh.at_least(cell, from, to);
                                assert!(
                                    prepared <= walk,
                                    "{:?} {from:?}->{to:?}",
                                    grid.position(cell)
                                );
                                let rings = rings.walk_at_least(&grid, cell, from, to);
                                assert!(
                                    rings <= walk,
                                    "{:?} {from:?}->{to:?}",
                                    grid.position(cell)
                                );
                            }
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

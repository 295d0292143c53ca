//! Lower bounds on the steps between (box cell, player side) states: to the target (the
//! A* heuristic) and from the start (to prune the path search).
//!
//! Why: every push is a step and every change of pushing direction costs a walk round the
//! box. The 3 x 3 cells around the box give a first bound of that walk (2, 4 or 6 steps,
//! [`walk_at_least`]); the walls the walk must go round give a far better one where walls
//! come in long blocks, as between the rungs of a ladder ([`WallRings`]); corridors give
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

use grid_core::blocks::Blocks;
use grid_core::{BucketQueue, CellId, Dir, Grid, UNREACHABLE};

use crate::walk::SideWalks;

/// The dearest edge of the relaxed searches: longer walks count as this much (a lower
/// bound still), so that Dial's buckets stay a small ring.
const MAX_EDGE: u32 = 63;
/// Dial's ring of buckets: more than [`MAX_EDGE`] of them.
const RING: usize = 64;

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

/// The walls of a grid in 8-connected components, each with its bounding box, to bound
/// walks round a box from below by the walls they must go round.
///
/// Why: the walk from side `from` to side `to` of a box, with the box's cell, is a closed
/// 4-connected ring of floor cells, and no 8-connected set of walls crosses such a ring.
/// The 8 cells round the box fall in two sectors between the ring's two sides, which the
/// ring separates, so it encloses every wall of one sector (never the walls joined to the
/// grid's border, the outside being wall). A ring enclosing an h x w box has at least
/// 2 (h + w) + 4 steps, which gives the walk 2 (h + w) + 2: in a ladder, the walk round a
/// rail or out of a rung must go round the whole block of wall between two rungs, which
/// the 3 x 3 cells round the box never see.
///
/// # Complexity
/// [`WallRings::new`]: O(height x width) time and memory; [`WallRings::walk_at_least`]: O(1).
#[derive(Debug, Clone)]
pub struct WallRings {
    width: usize,
    height: usize,
    /// Per position (row-major): [`FLOOR`], [`BORDER`] for a wall joined to the border,
    /// otherwise the wall's component.
    component: Vec<u32>,
    /// Per component: the rows and columns it spans, `[top, bottom, left, right]`.
    spans: Vec<[u32; 4]>,
}

/// Marks a floor position in [`WallRings`].
const FLOOR: u32 = u32::MAX - 1;
/// Marks, in [`WallRings`], a wall that no ring can enclose.
const BORDER: u32 = u32::MAX;

/// The 8 cells round a cell, clockwise from north: (row offset, column offset).
const AROUND: [(isize, isize); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

impl WallRings {
    /// Labels the wall components of `grid` with the least walk round each.
    ///
    /// # Complexity
    /// O(height x width).
    pub fn new(grid: &Grid) -> Self {
        let (height, width) = (grid.height(), grid.width());
        let mut component = vec![FLOOR; height * width];
        let mut spans = Vec::new();
        let mut seen = vec![false; height * width];
        let (mut stack, mut members) = (Vec::new(), Vec::new());
        for start in 0..height * width {
            let (row, col) = (start / width, start % width);
            if seen[start] || grid.cell(row, col).is_some() {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            members.clear();
            let (mut top, mut bottom, mut left, mut right) = (row, row, col, col);
            while let Some(at) = stack.pop() {
                members.push(at);
                let (row, col) = (at / width, at % width);
                (top, bottom) = (top.min(row), bottom.max(row));
                (left, right) = (left.min(col), right.max(col));
                for (dr, dc) in AROUND {
                    let (Some(r), Some(c)) =
                        (row.checked_add_signed(dr), col.checked_add_signed(dc))
                    else {
                        continue;
                    };
                    if r < height && c < width && !seen[r * width + c] && grid.cell(r, c).is_none()
                    {
                        seen[r * width + c] = true;
                        stack.push(r * width + c);
                    }
                }
            }
            let on_border = top == 0 || left == 0 || bottom + 1 == height || right + 1 == width;
            let id = if on_border {
                BORDER
            } else {
                spans.push([top, bottom, left, right].map(|x| x as u32));
                (spans.len() - 1) as u32
            };
            for &at in &members {
                component[at] = id;
            }
        }
        WallRings {
            width,
            height,
            component,
            spans,
        }
    }

    /// A lower bound on the walk from side `from` to side `to` of a box on `cell` (two
    /// different sides, both floor): the least walk round all the walls of one of the two
    /// sectors between them, 0 when a sector has no wall.
    ///
    /// # Complexity
    /// O(1).
    pub fn walk_at_least(&self, grid: &Grid, cell: CellId, from: Dir, to: Dir) -> u32 {
        let bounds = self.walks_round(grid, cell);
        PAIRS
            .iter()
            .zip(bounds)
            .find(|&(&(a, b), _)| (a, b) == (from, to) || (b, a) == (from, to))
            .map_or(0, |(_, bound)| bound)
    }

    /// [`WallRings::walk_at_least`] for the six pairs of sides of `cell`, in the order of
    /// [`PAIRS`].
    ///
    /// # Complexity
    /// O(1).
    pub fn walks_round(&self, grid: &Grid, cell: CellId) -> [u32; 6] {
        let (row, col) = grid.position(cell);
        let mut around = [BORDER; 8];
        for (id, (dr, dc)) in around.iter_mut().zip(AROUND) {
            if let (Some(r), Some(c)) = (row.checked_add_signed(dr), col.checked_add_signed(dc)) {
                if r < self.height && c < self.width {
                    *id = self.component[r * self.width + c];
                }
            }
        }
        // Per cell round the box: the span of its inner wall (empty for floor), and which
        // of them are walls joined to the border.
        const EMPTY: [u32; 4] = [u32::MAX, 0, u32::MAX, 0];
        let mut spans = [EMPTY; 8];
        let (mut border, mut inner) = (0u32, false);
        for (k, &id) in around.iter().enumerate() {
            match id {
                FLOOR => {}
                BORDER => border |= 1 << k,
                id => {
                    spans[k] = self.spans[id as usize];
                    inner = true;
                }
            }
        }
        if !inner {
            return [0; 6];
        }
        // The least ring round every wall among the cells `first..last` (mod 8) round the
        // box: BORDER when one joins the border (no ring can enclose it).
        let sector = |first: usize, last: usize| -> u32 {
            let mut span = EMPTY;
            for k in first..last {
                let k = k % 8;
                if border & (1 << k) != 0 {
                    return BORDER;
                }
                let [t, b, l, r] = spans[k];
                span = [
                    span[0].min(t),
                    span[1].max(b),
                    span[2].min(l),
                    span[3].max(r),
                ];
            }
            let [t, b, l, r] = span;
            if t == u32::MAX {
                0
            } else {
                2 * ((b - t + 1) + (r - l + 1)) + 2
            }
        };
        // The positions of N, E, S, W in `AROUND`.
        let at = |dir: Dir| match dir {
            Dir::North => 0,
            Dir::East => 2,
            Dir::South => 4,
            Dir::West => 6,
        };
        let mut bounds = [0; 6];
        for (bound, (from, to)) in bounds.iter_mut().zip(PAIRS) {
            let (a, b) = (at(from).min(at(to)), at(from).max(at(to)));
            let least = sector(a + 1, b).min(sector(b + 1, a + 8));
            *bound = if least == BORDER { 0 } else { least };
        }
        bounds
    }
}

/// The six pairs of different sides, in the order of [`WallRings::walks_round`].
pub const PAIRS: [(Dir, Dir); 6] = [
    (Dir::North, Dir::South),
    (Dir::North, Dir::West),
    (Dir::North, Dir::East),
    (Dir::South, Dir::West),
    (Dir::South, Dir::East),
    (Dir::West, Dir::East),
];

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
    relaxed_search(grid, blocks, walks, &seeds, false, None)
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
    relaxed_search(grid, blocks, walks, seeds, true, Some(target))
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
    forward: bool,
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

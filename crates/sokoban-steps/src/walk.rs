//! Walking distances between the sides of a box, the box standing still as a wall.
//!
//! Why this way: a search over (box cell, side of the player) needs, at every box cell it
//! expands, the walk from one side to the others. [`Blocks`] already says in O(1) which
//! sides are connected at all, so a breadth-first search from one side can stop as soon as
//! it has met every connected side; in open rooms that is a few cells (the detour around a
//! box is 2 or 4 steps). Visited marks are stamped, so a search costs what it visits, not
//! the size of the grid, and results are cached per box cell so each pair is searched once.
//! In a 1-wide corridor every cell has the same walk round it (out by one end, back in by
//! the other), so one search serves the whole corridor. Until a walk is searched, the
//! cache holds a lower bound of it, prepared once for the heuristic
//! ([`SideWalks::at_least`]).
//!
//! # Complexity
//! [`SideWalks::new`]: O(cells). [`SideWalks::between`]: O(1) when cached, otherwise
//! O(cells visited) <= O(cells). Memory: 32 bytes per cell for the caches plus 12 for the
//! search buffers, and O(height x width) while the bounds are prepared.

use grid_core::Blocks;
use grid_core::{CellId, Dir, Grid, UNREACHABLE, Walker};

use crate::detour::{PAIRS, WallRings, walk_at_least};

/// Marks a corridor's walk not searched yet.
const UNKNOWN: u32 = u32::MAX - 1;
/// Flags a cache entry not searched yet: the rest of it is a lower bound of the walk.
const LOWER: u32 = 1 << 30;

/// Whether a cache entry still waits for its search.
#[inline]
fn unknown(entry: u32) -> bool {
    entry >= LOWER && entry != UNREACHABLE
}

/// Index of the unordered pair of distinct sides `a`, `b` in the 6-entry cache row (the
/// order of [`PAIRS`]).
#[inline]
fn pair(a: Dir, b: Dir) -> usize {
    const PAIR: [[usize; 4]; 4] = [[6, 0, 1, 2], [0, 6, 3, 4], [1, 3, 6, 5], [2, 4, 5, 6]];
    PAIR[a.index()][b.index()]
}

/// Marks a cell in no corridor.
const NO_CORRIDOR: u32 = u32::MAX;

/// Walking distances between the sides of every box cell: one search per corridor gives
/// the walks of all its cells, one search per side the walks of other cells, each done
/// lazily and cached; cheap lower bounds of the walks not searched yet for the heuristic.
#[derive(Debug, Clone)]
pub struct SideWalks {
    /// Per box cell, per pair of sides: the walk, [`UNREACHABLE`], or [`LOWER`] plus a lower
    /// bound of the walk until it is searched.
    cache: Vec<[u32; 6]>,
    /// Per cell: the corridor it lies in, or [`NO_CORRIDOR`].
    corridor_of: Vec<u32>,
    /// Per corridor cell: its place in the corridor, 1 next to its first end.
    place: Vec<u32>,
    corridors: Vec<Corridor>,
    /// The stamped walker of the searches (grid-core's one breadth-first walker).
    walker: Walker,
}

/// A maximal chain of floor cells with exactly two floor neighbours each, between two end
/// cells that have another number of neighbours (the same cell when the chain loops back).
///
/// A player walking round a box in the chain leaves it by the end on its own side, reaches
/// the other end without entering the chain and comes back in, so every cell of the chain
/// has the same walk between its two sides: `len - 1` steps in the chain plus the distance
/// between the ends in the floor without the chain. One search gives it for all of them.
/// Walks round a cell next to a corridor leave through the corridor's far end, which gives
/// their lower bound ([`SideWalks::at_least`]).
#[derive(Debug, Clone)]
struct Corridor {
    /// The end next to place 1, and the end next to place `len`.
    ends: [CellId; 2],
    /// Cells in the chain.
    len: u32,
    /// The walk round a box on any of its cells: [`UNKNOWN`] until searched, [`UNREACHABLE`]
    /// when the chain lies on no cycle.
    walk: u32,
    /// A lower bound of `walk` before it is searched.
    at_least: u32,
}

impl SideWalks {
    /// The corridors of `grid`, and empty caches.
    ///
    /// # Complexity
    /// O(cells).
    pub fn new(grid: &Grid, blocks: &Blocks) -> Self {
        let mut walks = SideWalks {
            cache: vec![[UNREACHABLE; 6]; grid.cell_count()],
            corridor_of: vec![NO_CORRIDOR; grid.cell_count()],
            place: vec![0; grid.cell_count()],
            corridors: Vec::new(),
            walker: Walker::new(),
        };
        walks.find_corridors(grid, blocks);
        walks.bound_walks(grid, blocks);
        walks
    }

    /// Numbers the corridors and the places of their cells.
    fn find_corridors(&mut self, grid: &Grid, blocks: &Blocks) {
        let two_sides = |cell: CellId| -> Option<[Dir; 2]> {
            let mut sides = [Dir::North; 2];
            let mut count = 0;
            for dir in Dir::ALL {
                if grid.neighbour(cell, dir).is_some() {
                    if count == 2 {
                        return None;
                    }
                    sides[count] = dir;
                    count += 1;
                }
            }
            (count == 2).then_some(sides)
        };
        let mut branches: [Vec<CellId>; 2] = Default::default();
        for start in grid.cells() {
            if self.corridor_of[start.index()] != NO_CORRIDOR {
                continue;
            }
            let Some(sides) = two_sides(start) else {
                continue;
            };
            let id = self.corridors.len() as u32;
            self.corridor_of[start.index()] = id;
            let mut ends = [start; 2];
            let mut ring = false;
            branches.iter_mut().for_each(Vec::clear);
            for ((end, side), branch) in ends.iter_mut().zip(sides).zip(&mut branches) {
                let (mut previous, mut at) = (start, grid.neighbour(start, side));
                while let Some(cell) = at {
                    if cell == start {
                        ring = true;
                        break;
                    }
                    let Some(next_sides) = two_sides(cell) else {
                        *end = cell;
                        break;
                    };
                    self.corridor_of[cell.index()] = id;
                    branch.push(cell);
                    let next = next_sides
                        .into_iter()
                        .filter_map(|dir| grid.neighbour(cell, dir))
                        .find(|&n| n != previous);
                    (previous, at) = (cell, next);
                }
                if ring {
                    break;
                }
            }
            let [towards_first, towards_second] = &branches;
            let len = (towards_first.len() + 1 + towards_second.len()) as u32;
            let chain = towards_first
                .iter()
                .rev()
                .chain([&start])
                .chain(towards_second);
            for (place, cell) in (1..).zip(chain) {
                self.place[cell.index()] = place;
            }
            let walk = if ring {
                // The whole component is one ring: round it without the box's cell.
                len - 2
            } else if blocks.connected_around(start, sides[0], sides[1]) {
                UNKNOWN
            } else {
                UNREACHABLE
            };
            self.corridors.push(Corridor {
                ends,
                len,
                walk,
                at_least: 0,
            });
        }
    }

    /// The walk round a box anywhere in corridor `id`, searched the first time.
    fn corridor_walk(&mut self, grid: &Grid, id: u32) -> u32 {
        let corridor = &self.corridors[id as usize];
        if corridor.walk != UNKNOWN {
            return corridor.walk;
        }
        let ([first, second], len) = (corridor.ends, corridor.len);
        let walk = self
            .distance_avoiding(grid, first, second, id)
            .map_or(UNREACHABLE, |between| len - 1 + between);
        self.corridors[id as usize].walk = walk;
        walk
    }

    /// The walking distance from `from` to `to` without entering corridor `id`.
    fn distance_avoiding(&mut self, grid: &Grid, from: CellId, to: CellId, id: u32) -> Option<u32> {
        let corridor_of = &self.corridor_of;
        self.walker
            .search(grid, from, |c| corridor_of[c.index()] == id, &[to]);
        let walk = self.walker.distance(to);
        (walk != UNREACHABLE).then_some(walk)
    }

    /// The walk between two different sides of a box on `cell` if a search already found it.
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn known(&self, cell: CellId, from: Dir, to: Dir) -> Option<u32> {
        let walk = match self.corridor_of[cell.index()] {
            NO_CORRIDOR => self.cache[cell.index()][pair(from, to)],
            id => self.corridors[id as usize].walk,
        };
        (walk < LOWER).then_some(walk)
    }

    /// A lower bound on the walk from side `from` to side `to` of the box at `cell`, two
    /// different sides connected around it: the walk when known, otherwise the bound
    /// [`SideWalks::new`] prepared.
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn at_least(&self, cell: CellId, from: Dir, to: Dir) -> u32 {
        match self.corridor_of[cell.index()] {
            NO_CORRIDOR => self.cache[cell.index()][pair(from, to)] & !LOWER,
            id => {
                let corridor = &self.corridors[id as usize];
                match corridor.walk {
                    UNKNOWN => corridor.at_least,
                    walk => walk,
                }
            }
        }
    }

    /// Prepares the lower bound of every walk not searched yet: the largest of
    /// [`walk_at_least`], [`WallRings::walk_at_least`], and for walks out of corridors the
    /// steps to the corridors' far ends plus the Manhattan distance between those.
    fn bound_walks(&mut self, grid: &Grid, blocks: &Blocks) {
        let rings = WallRings::new(grid);
        let manhattan = |a: CellId, b: CellId| {
            let ((ar, ac), (br, bc)) = (grid.position(a), grid.position(b));
            (ar.abs_diff(br) + ac.abs_diff(bc)) as u32
        };
        for corridor in &mut self.corridors {
            if corridor.walk == UNKNOWN {
                corridor.at_least =
                    corridor.len - 1 + manhattan(corridor.ends[0], corridor.ends[1]);
            }
        }
        for cell in grid.cells() {
            let id = self.corridor_of[cell.index()];
            // Long blocks of wall make corridors; elsewhere (open rooms) the walls round a
            // box are scattered and the rings seldom beat the local bound, so spare their
            // cost there.
            let near_corridor = id != NO_CORRIDOR
                || grid
                    .neighbours(cell)
                    .any(|(_, next)| self.corridor_of[next.index()] != NO_CORRIDOR);
            let round = if near_corridor {
                rings.walks_round(grid, cell)
            } else {
                [0; 6]
            };
            for (slot, (from, to)) in PAIRS.into_iter().enumerate() {
                if !blocks.connected_around(cell, from, to) {
                    continue;
                }
                let rings = round[slot];
                if id != NO_CORRIDOR {
                    let corridor = &mut self.corridors[id as usize];
                    corridor.at_least = corridor.at_least.max(rings);
                    continue;
                }
                let bound = walk_at_least(grid, cell, from, to)
                    .max(rings)
                    .max(self.exit_bound(grid, cell, from, to));
                self.cache[cell.index()][slot] = LOWER | bound.min(LOWER - 1);
            }
        }
    }

    /// For a cell in no corridor: a lower bound of the walk from side `from` to side `to`
    /// from the corridors they lie in, which the walk must leave by their far ends.
    fn exit_bound(&self, grid: &Grid, cell: CellId, from: Dir, to: Dir) -> u32 {
        let manhattan = |a: CellId, b: CellId| {
            let ((ar, ac), (br, bc)) = (grid.position(a), grid.position(b));
            (ar.abs_diff(br) + ac.abs_diff(bc)) as u32
        };
        let (Some(a), Some(b)) = (grid.neighbour(cell, from), grid.neighbour(cell, to)) else {
            return 0;
        };
        let (ida, idb) = (self.corridor_of[a.index()], self.corridor_of[b.index()]);
        if ida == NO_CORRIDOR && idb == NO_CORRIDOR {
            return 0;
        }
        if ida == idb {
            // One corridor from the box back to it: the walk stays in it.
            return self.corridors[ida as usize].len - 1;
        }
        // Where a walk from the side cell `side` leaves its corridor away from the box, and
        // the steps to get there.
        let exit = |side: CellId| -> Option<(CellId, u32)> {
            let id = self.corridor_of[side.index()];
            if id == NO_CORRIDOR {
                return Some((side, 0));
            }
            let corridor = &self.corridors[id as usize];
            let place = self.place[side.index()];
            if place == 1 && corridor.ends[0] == cell {
                Some((corridor.ends[1], corridor.len + 1 - place))
            } else if place == corridor.len && corridor.ends[1] == cell {
                Some((corridor.ends[0], place))
            } else {
                None
            }
        };
        match (exit(a), exit(b)) {
            (Some((ea, sa)), Some((eb, sb))) if ea != cell && eb != cell => {
                sa + manhattan(ea, eb) + sb
            }
            _ => 0,
        }
    }

    /// Steps the player needs to walk from side `from` of the box at `cell` to side `to`,
    /// never entering `cell`; 0 when `from == to`; `None` when the sides are not connected
    /// around the box (or a side is a wall).
    ///
    /// # Complexity
    /// O(1) amortised over the sides of one cell; a search of the cells within the walk's
    /// radius the first time a side of `cell` is asked about.
    pub fn between(
        &mut self,
        grid: &Grid,
        blocks: &Blocks,
        cell: CellId,
        from: Dir,
        to: Dir,
    ) -> Option<u32> {
        if from == to {
            return grid.neighbour(cell, from).map(|_| 0);
        }
        if !blocks.connected_around(cell, from, to) {
            return None;
        }
        let corridor = self.corridor_of[cell.index()];
        if corridor != NO_CORRIDOR {
            let walk = self.corridor_walk(grid, corridor);
            return (walk != UNREACHABLE).then_some(walk);
        }
        let slot = pair(from, to);
        if unknown(self.cache[cell.index()][slot]) {
            self.search_from(grid, blocks, cell, from);
        }
        let walk = self.cache[cell.index()][slot];
        (walk != UNREACHABLE).then_some(walk)
    }

    /// Fills the cache entries between side `from` of `cell` and every other side, with one
    /// breadth-first search that stops once all the connected sides are met.
    fn search_from(&mut self, grid: &Grid, blocks: &Blocks, cell: CellId, from: Dir) {
        let Some(start) = grid.neighbour(cell, from) else {
            return;
        };
        let mut wanted = [None; 4];
        let mut missing = 0;
        for to in Dir::ALL {
            let slot = pair(from, to);
            if to == from {
                continue;
            }
            if blocks.connected_around(cell, from, to) {
                if unknown(self.cache[cell.index()][slot]) {
                    wanted[to.index()] = grid.neighbour(cell, to);
                    missing += 1;
                }
            } else {
                self.cache[cell.index()][slot] = UNREACHABLE;
            }
        }
        if missing == 0 {
            return;
        }
        let mut wanted_cells = [start; 4];
        for (slot, &side) in wanted_cells.iter_mut().zip(wanted.iter().flatten()) {
            *slot = side;
        }
        self.walker
            .search(grid, start, |c| c == cell, &wanted_cells[..missing]);
        for to in Dir::ALL {
            if let Some(side) = wanted[to.index()] {
                // Blocks said connected, so every wanted side was met (else UNREACHABLE).
                self.cache[cell.index()][pair(from, to)] = self.walker.distance(side);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_around_a_box() {
        let rows = ["...", "...", "#.#"];
        let grid = Grid::new(3, 3, |r, c| rows[r].as_bytes()[c] == b'.');
        let blocks = Blocks::new(&grid);
        let centre = grid.cell(1, 1).unwrap();
        let mut walks = SideWalks::new(&grid, &blocks);
        let w = |walks: &mut SideWalks, a, b| walks.between(&grid, &blocks, centre, a, b);
        assert_eq!(w(&mut walks, Dir::West, Dir::North), Some(2));
        assert_eq!(w(&mut walks, Dir::West, Dir::East), Some(4));
        assert_eq!(w(&mut walks, Dir::East, Dir::West), Some(4));
        assert_eq!(w(&mut walks, Dir::South, Dir::North), None);
        assert_eq!(w(&mut walks, Dir::South, Dir::South), Some(0));
        let corner = grid.cell(0, 0).unwrap();
        assert_eq!(
            walks.between(&grid, &blocks, corner, Dir::North, Dir::North),
            None
        );
    }

    #[test]
    fn pair_slots_follow_pairs() {
        for (slot, (a, b)) in PAIRS.into_iter().enumerate() {
            assert_eq!((pair(a, b), pair(b, a)), (slot, slot));
        }
    }

    #[test]
    fn walks_match_a_plain_search_round_the_box() {
        let mut rng = grid_core::rng::SplitMix64::new(5);
        for round in 0..600 {
            let (height, width) = (rng.between(1, 10), rng.between(1, 10));
            let wall_percent = [10, 30, 50][round % 3];
            let grid = test_support::random_grid(&mut rng, height, width, wall_percent);
            let blocks = Blocks::new(&grid);
            let mut walks = SideWalks::new(&grid, &blocks);
            for cell in grid.cells() {
                for from in Dir::ALL {
                    let Some(start) = grid.neighbour(cell, from) else {
                        continue;
                    };
                    let plain = grid.distances(start, Some(cell));
                    for to in Dir::ALL {
                        let expected = grid
                            .neighbour(cell, to)
                            .map(|end| plain[end.index()])
                            .filter(|&d| d != UNREACHABLE);
                        let got = walks.between(&grid, &blocks, cell, from, to);
                        assert_eq!(got, expected, "{:?} {from:?}->{to:?}", grid.position(cell));
                    }
                }
            }
        }
    }
}

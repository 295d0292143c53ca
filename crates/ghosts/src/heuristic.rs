//! Lower bounds on the steps still needed: exact distances home for each ghost alone, and
//! for pairs of ghosts together.
//!
//! Why pairs: with one-ghost distances the bound ignores that ghosts block each other, and
//! on dense maps the search then wanders; the exact two-ghost distance (a breadth-first
//! search over C x C pair placements, once per pair) sees corridors that two ghosts must
//! share. Both bounds are consistent: the projection of a legal step onto one ghost or
//! one pair is a legal step of that smaller problem, so the bound drops by at most one per
//! step, and the maximum of consistent bounds is consistent.

use grid_core::bfs::UNREACHABLE;
use grid_core::{CellId, Grid};

use crate::moves::{Options, compatible};

/// "Never": a placement from which this part of the problem cannot be solved.
pub const NEVER: u32 = u32::MAX;

/// Distances of a pair placement that cannot reach home, in a [`PairTable`].
const PAIR_NEVER: u16 = u16::MAX;

/// Exact steps for ghosts `first` and `second`, alone on the map, to reach their homes
/// from every placement `(a, b)`, at index `a * C + b`.
#[derive(Debug, Clone)]
pub struct PairTable {
    first: usize,
    second: usize,
    cells: usize,
    dist: Vec<u16>,
}

impl PairTable {
    /// Breadth-first search from the pair's homes. Steps are reversible (the reverse of a
    /// legal step is legal), so distances from the homes are distances to them.
    ///
    /// # Complexity
    /// O(C^2 x 25) time, 2 C^2 bytes of memory.
    pub fn new(
        options: &Options,
        cells: usize,
        first: usize,
        second: usize,
        homes: (u32, u32),
    ) -> Self {
        let mut dist = vec![PAIR_NEVER; cells * cells];
        let mut queue: Vec<u32> = Vec::with_capacity(cells * 4);
        let start = homes.0 as usize * cells + homes.1 as usize;
        dist[start] = 0;
        queue.push(start as u32);
        let mut head = 0;
        while let Some(&state) = queue.get(head) {
            head += 1;
            let (a, b) = (state / cells as u32, state % cells as u32);
            let next = dist[state as usize].saturating_add(1).min(PAIR_NEVER - 1);
            let b_options = options.of(b);
            for &a2 in options.of(a) {
                let row = &mut dist[a2 as usize * cells..][..cells];
                for &b2 in b_options {
                    let slot = &mut row[b2 as usize];
                    if *slot == PAIR_NEVER && compatible(a, b, a2, b2) {
                        *slot = next;
                        queue.push(a2 * cells as u32 + b2);
                    }
                }
            }
        }
        PairTable {
            first,
            second,
            cells,
            dist,
        }
    }

    /// Steps for the pair from the placement in `positions`, or [`NEVER`].
    #[inline]
    pub fn get(&self, positions: &[u32]) -> u32 {
        let d = self.dist
            [positions[self.first] as usize * self.cells + positions[self.second] as usize];
        if d == PAIR_NEVER { NEVER } else { u32::from(d) }
    }
}

/// The bound used by the search: the largest of the one-ghost and pair distances it holds.
#[derive(Debug, Clone)]
pub struct Heuristic {
    /// Per ghost, per cell: steps home alone ([`UNREACHABLE`] where there is no way).
    singles: Vec<Vec<u32>>,
    pairs: Vec<PairTable>,
}

impl Heuristic {
    /// One-ghost distances only.
    ///
    /// # Complexity
    /// O(n x C).
    pub fn singles(grid: &Grid, homes: &[CellId]) -> Self {
        let singles = homes
            .iter()
            .map(|&home| grid.distances(home, None))
            .collect();
        Heuristic {
            singles,
            pairs: Vec::new(),
        }
    }

    /// Adds the exact pair distances of every pair of ghosts.
    ///
    /// # Complexity
    /// O(n^2 x C^2 x 25) time, n^2 x C^2 bytes.
    pub fn add_pairs(&mut self, options: &Options, cells: usize, homes: &[CellId]) {
        for j in 1..homes.len() {
            for i in 0..j {
                let pair = (homes[i].index() as u32, homes[j].index() as u32);
                self.pairs.push(PairTable::new(options, cells, i, j, pair));
            }
        }
    }

    /// Steps for ghost `ghost` alone from `cell` to its home, or [`NEVER`].
    #[inline]
    pub fn single(&self, ghost: usize, cell: u32) -> u32 {
        // UNREACHABLE and NEVER are both u32::MAX.
        self.singles[ghost][cell as usize]
    }

    /// Whether pair distances are in use.
    pub fn has_pairs(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// A lower bound on the steps from `positions` to all homes, or [`NEVER`] when some
    /// ghost or pair can never get home from there.
    #[inline]
    pub fn estimate(&self, positions: &[u32]) -> u32 {
        let mut bound = 0;
        if self.pairs.is_empty() {
            for (dist, &p) in self.singles.iter().zip(positions) {
                let d = dist[p as usize];
                if d == UNREACHABLE {
                    return NEVER;
                }
                bound = bound.max(d);
            }
        } else {
            // Every ghost is in some pair, and a pair distance is at least each single.
            for pair in &self.pairs {
                bound = bound.max(pair.get(positions));
            }
        }
        bound
    }
}

//! Corridor reasoning in conflict-based search ([`super::cbs`]), after Li, Harabor,
//! Stuckey, Ma, Gange and Koenig, "Pairwise symmetry reasoning for multi-agent path
//! finding search" (AIJ 2021): two agents that meet head-on in a corridor (a chain of
//! cells each with exactly two neighbours) conflict at every time one of them could
//! enter it, and a vertex or edge split moves the meeting one step along; one split on
//! "the first does not reach its far end of the corridor by t1" / "the second does not
//! reach its far end by t2" (a [`Constraint::Before`](super::cbs) on the end cell) takes
//! them all at once.
//!
//! Exactness. Let the corridor's interior be the chain c_1 .. c_k (each cell's two
//! neighbours are the chain's next cells, c_0 and c_{k+1} being its ends), agent a going
//! from end S to end E, agent b from E to S, neither starting in the interior. Let t_a
//! be a's distance to E over the map and t'_a its distance to E avoiding the interior
//! (likewise t_b, t'_b to S), and
//! T1 = min(t'_a - 1, t_b + k + 1), T2 = min(t'_b - 1, t_a + k + 1).
//! Take any plan with a on E at a time at most T1 (first at τ_a) and b on S at a time at
//! most T2 (first at τ_b). Since τ_a < t'_a, a's walk up to τ_a goes through the
//! interior from S to E (an excursion into it that comes back out at S could be waited
//! out at S, leaving a walk that avoids the interior and reaches E at τ_a): a is on S at
//! some σ_a, inside during (σ_a, τ_a), so τ_a >= σ_a + k + 1; likewise b from E at σ_b
//! to S at τ_b. On the line S, c_1 .. c_k, E the two move at most one cell a step in
//! opposite directions, so if [σ_a, τ_a] and [σ_b, τ_b] overlapped they would meet on a
//! cell or trade places: τ_a < σ_b or τ_b < σ_a. In the first case
//! τ_b >= σ_b + k + 1 >= τ_a + k + 2 >= t_a + k + 2 > T2, in the second τ_a > T1: no
//! such plan. So every plan has a off E during [0, T1] or b off S during [0, T2], and
//! the two children keep every plan of their parent between them. The distances are
//! those of the map alone (lower bounds of the ones under the node's constraints, which
//! only make T1 and T2 smaller: the argument holds). The split is made only when the
//! node's two paths break both constraints, so each child rules its path out.
//!
//! # Complexity
//! Finding the corridor of a cell: O(k). Its four distance tables (from each end, over
//! the map and avoiding the interior): O(cells) each, once per corridor (memoised by
//! the caller).

use std::collections::VecDeque;

use grid_core::{CellId, Grid};

/// Whether nodes are split on corridor conflicts, and how many such splits were made
/// (added up over the searches given it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Corridors {
    /// Whether the split is made.
    pub on: bool,
    /// The splits made.
    pub made: u64,
}

impl Corridors {
    /// Corridor splits off.
    pub fn off() -> Self {
        Corridors { on: false, made: 0 }
    }
}

/// No way (a distance past every path).
pub const FAR: u32 = u32::MAX;

/// A corridor of the map, with the distances of every cell to its two ends.
#[derive(Debug)]
pub struct Corridor {
    /// Its interior cells (each with exactly two neighbours), sorted.
    pub interior: Vec<u32>,
    /// Its two end cells (distinct, neither in the interior).
    pub ends: [u32; 2],
    /// Per end, per cell: its distance to the end over the map, and avoiding the
    /// interior ([`FAR`]: none).
    pub distances: [[Vec<u32>; 2]; 2],
}

impl Corridor {
    /// The bytes it holds.
    pub fn bytes(&self) -> u64 {
        4 * (self.interior.len() + self.distances.iter().flatten().map(Vec::len).sum::<usize>())
            as u64
    }
}

/// The number of neighbours of `cell`.
fn degree(grid: &Grid, cell: u32) -> usize {
    grid.neighbours(CellId::new(cell as usize)).count()
}

/// The interior (sorted) and the two ends of the corridor through `cell`, when `cell` has
/// exactly two neighbours and its chain of such cells ends at two distinct cells that
/// do not (`None` for a closed loop, or a chain whose two ends are one cell).
///
/// # Complexity
/// O(k) for the k cells of the chain.
pub fn corridor_through(grid: &Grid, cell: u32) -> Option<(Vec<u32>, [u32; 2])> {
    if degree(grid, cell) != 2 {
        return None;
    }
    let mut interior = vec![cell];
    let mut ends = [0u32; 2];
    let sides: Vec<u32> = grid
        .neighbours(CellId::new(cell as usize))
        .map(|(_, c)| c.index() as u32)
        .collect();
    for (side, &first) in sides.iter().enumerate() {
        let (mut previous, mut at) = (cell, first);
        while degree(grid, at) == 2 {
            if at == cell {
                // A closed loop of such cells.
                return None;
            }
            interior.push(at);
            let next = grid
                .neighbours(CellId::new(at as usize))
                .map(|(_, c)| c.index() as u32)
                .find(|&c| c != previous)?;
            (previous, at) = (at, next);
        }
        ends[side] = at;
    }
    if ends[0] == ends[1] {
        return None;
    }
    interior.sort_unstable();
    Some((interior, ends))
}

/// The corridor of `interior` and `ends` ([`corridor_through`]) with its distance tables.
///
/// # Complexity
/// Four breadth-first searches of the map, O(cells) each.
pub fn with_distances(grid: &Grid, interior: Vec<u32>, ends: [u32; 2]) -> Corridor {
    let distances = ends.map(|end| {
        [
            distances_to(grid, end, &[]),
            distances_to(grid, end, &interior),
        ]
    });
    Corridor {
        interior,
        ends,
        distances,
    }
}

/// Per cell, its distance to `end` over the map without entering `avoid` (sorted)
/// ([`FAR`]: none).
fn distances_to(grid: &Grid, end: u32, avoid: &[u32]) -> Vec<u32> {
    let mut distances = vec![FAR; grid.cell_count()];
    distances[end as usize] = 0;
    let mut queue = VecDeque::from([end]);
    while let Some(v) = queue.pop_front() {
        let d = distances[v as usize] + 1;
        for (_, c) in grid.neighbours(CellId::new(v as usize)) {
            let u = c.index() as u32;
            if distances[u as usize] == FAR && avoid.binary_search(&u).is_err() {
                distances[u as usize] = d;
                queue.push_back(u);
            }
        }
    }
    distances
}

/// For agents starting on `starts` and walking `paths` (each to its cost, then staying),
/// meeting in `corridor`: the split of the module documentation, as the far end and the
/// last time of its range for each of the two, when neither starts in the interior and
/// the two paths break both constraints (one way or the other through the corridor).
///
/// # Complexity
/// O(k + H) for the paths' H steps.
pub fn split(corridor: &Corridor, starts: [u32; 2], paths: [&[u32]; 2]) -> Option<[(u32, u32); 2]> {
    if starts
        .iter()
        .any(|s| corridor.interior.binary_search(s).is_ok())
    {
        return None;
    }
    let k = corridor.interior.len() as i64;
    let far = |d: u32| if d == FAR { i64::MAX / 4 } else { i64::from(d) };
    for (ea, eb) in [(0, 1), (1, 0)] {
        let (ends, d) = (corridor.ends, &corridor.distances);
        let [sa, sb] = starts.map(|s| s as usize);
        let t1 = (far(d[ea][1][sa]) - 1).min(far(d[eb][0][sb]) + k + 1);
        let t2 = (far(d[eb][1][sb]) - 1).min(far(d[ea][0][sa]) + k + 1);
        if t1 < 0 || t2 < 0 {
            continue;
        }
        let first = |path: &[u32], end: u32| path.iter().position(|&v| v == end);
        let breaks =
            |path: &[u32], end: u32, t: i64| first(path, end).is_some_and(|at| at as i64 <= t);
        if breaks(paths[0], ends[ea], t1) && breaks(paths[1], ends[eb], t2) {
            return Some([(ends[ea], t1 as u32), (ends[eb], t2 as u32)]);
        }
    }
    None
}

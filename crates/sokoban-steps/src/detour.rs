//! Lower bounds of one walk round a box, from what lies near it: the 3 x 3 cells around
//! it ([`walk_at_least`]) and the blocks of wall the walk must go round ([`WallRings`]);
//! and the numbering of the (box cell, player side) states the searches share.
//!
//! Why a module of its own: the cached walks (`walk`) prepare their lower bounds from
//! these, and the relaxed searches (`bound`) run over the cached walks, so these pieces
//! stand below both.
//!
//! # Complexity
//! [`walk_at_least`]: O(1); [`WallRings`]: see there.

use grid_core::{AROUND, CellId, Dir, Grid};

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

    #[cfg(test)]
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

//! The packing order: in which order the goals are filled, found backwards from the
//! solved level (the feature "packing" of FESS, Shoham and Schaeffer, IEEE CoG 2020).
//!
//! Why: a greedy search fills the goals nearest the boxes first, and in a goal room those
//! are the goals at its door, which then wall in the goals behind them. Backwards, with
//! every goal holding a box and the other boxes taken away, a box that the player can
//! reach and pull one square off its goal is emptied; the goals emptied first are the
//! last to fill. Each round empties, among those that can be pulled, the goal nearest
//! the player's start by walking. Goals that can never be emptied this way fill first, in
//! their order.
//!
//! With `outward` (the default of the finder), a goal empties only when its box can be
//! pulled back to a square where a box starts ([`WayOut`]); the nearest such goal goes
//! first, and when none can, the nearest whose box moves at all.
//!
//! # Complexity
//! O(goals x squares), plus the outward order's pull searches, at most
//! [`OUTWARD_WORK`] squares walked in all.

use grid_core::{CellId, Dir, Grid};

use super::walk::Walker;
use crate::parse::Level;

/// Per square, the rank of its goal in the packing order (0 fills first), or
/// [`NOT_A_GOAL`]. `stop` is called every [`LOOK_EVERY`] squares the outward order's pull
/// searches walk; when it says stop, their work is spent and the order goes on as the
/// one-square order (the caller's search looks at it again before long).
pub(super) fn ranks(level: &Level, outward: bool, stop: &mut dyn FnMut() -> bool) -> Vec<u32> {
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
    let mut way_out = WayOut::new(level);
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
        let mut candidates: Vec<(u32, usize)> = left
            .iter()
            .enumerate()
            .filter_map(|(i, &g)| pullable(g, &filled, &distance).map(|d| (d, i)))
            .collect();
        candidates.sort_unstable();
        let Some(&(_, nearest)) = candidates.first() else {
            break;
        };
        // Outward: the nearest goal whose box goes all the way back to a start square;
        // when none does (or the work is spent), the nearest that moves at all.
        let i = if outward {
            candidates
                .iter()
                .map(|&(_, i)| i)
                .find(|&i| way_out.leaves(grid, &mut filled, left[i], &distance, stop))
                .unwrap_or(nearest)
        } else {
            nearest
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

/// The work (squares walked) the outward order may spend on its pull searches, over the
/// whole order; past it, the order goes on as the one-square order.
const OUTWARD_WORK: u64 = 1 << 25;

/// Squares walked by the pull searches between two calls of [`ranks`]' stop check: a
/// few milliseconds.
const LOOK_EVERY: u64 = 1 << 22;

/// The pull searches of the outward order: can a lone box on a goal, the boxes on the
/// goals still filled standing still, be pulled back to a square where a box starts?
/// That is what filling that goal while the others are filled asks of a box, read
/// backwards: a goal whose box can only be pulled one square, into the room, is not
/// one that fills last.
struct WayOut {
    /// Per square, whether a box starts there.
    start: Vec<bool>,
    /// Per square, the sides of the player (bits by direction) already searched.
    seen: Vec<u8>,
    queue: Vec<(CellId, Dir)>,
    walker: Walker,
    /// Work left ([`OUTWARD_WORK`]).
    work: u64,
    /// The work left at which the stop check is called next.
    look_at: u64,
}

impl WayOut {
    fn new(level: &Level) -> Self {
        let n = level.grid().cell_count();
        let mut start = vec![false; n];
        for b in level.boxes() {
            start[b.index()] = true;
        }
        WayOut {
            start,
            seen: vec![0; n],
            queue: Vec::new(),
            walker: Walker::new(n),
            work: OUTWARD_WORK,
            look_at: OUTWARD_WORK - LOOK_EVERY,
        }
    }

    /// Whether the box on goal `g` (marked in `filled`, as are the other boxes) can be
    /// pulled to a start square other than `g`, the player first on the squares
    /// `distance` reaches. `filled` is restored before it returns.
    ///
    /// # Complexity
    /// O(4 x squares) nodes, one walk O(squares) each.
    fn leaves(
        &mut self,
        grid: &Grid,
        filled: &mut [bool],
        g: CellId,
        distance: &[u32],
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        self.seen.fill(0);
        self.queue.clear();
        // A pull moves the box onto the player's square `p` beside it and the player one
        // further on, to `q`.
        let pull = |b: CellId, d: Dir, filled: &[bool]| -> Option<CellId> {
            let p = grid.neighbour(b, d)?;
            let q = grid.neighbour(p, d)?;
            (!filled[p.index()] && !filled[q.index()]).then_some(p)
        };
        for d in Dir::ALL {
            if let Some(p) = pull(g, d, filled)
                && distance[p.index()] != u32::MAX
            {
                self.seen[p.index()] |= 1 << d.index();
                self.queue.push((p, d));
            }
        }
        filled[g.index()] = false;
        let mut found = false;
        let mut head = 0;
        while head < self.queue.len() && self.work > 0 {
            let (b, side) = self.queue[head];
            head += 1;
            if b != g && self.start[b.index()] {
                found = true;
                break;
            }
            let Some(player) = grid.neighbour(b, side) else {
                continue;
            };
            filled[b.index()] = true;
            self.walker.run(grid, filled, player);
            self.work = self.work.saturating_sub(self.walker.order().len() as u64);
            if self.work <= self.look_at {
                self.look_at = self.look_at.saturating_sub(LOOK_EVERY);
                if stop() {
                    self.work = 0;
                }
            }
            for d in Dir::ALL {
                if let Some(p) = pull(b, d, filled)
                    && self.walker.reached(p)
                    && self.seen[p.index()] & (1 << d.index()) == 0
                {
                    self.seen[p.index()] |= 1 << d.index();
                    self.queue.push((p, d));
                }
            }
            filled[b.index()] = false;
        }
        filled[g.index()] = true;
        found
    }
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

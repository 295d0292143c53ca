//! PI-corral pruning: when the boxes wall off a part of the floor that must be entered,
//! and every push of the wall's boxes goes into it, push only those boxes.
//!
//! A *corral* is a connected region of free squares the player cannot reach. Its
//! *barrier* is the boxes next to it. The corral is a **PI-corral** when every push a
//! barrier box has (onto a free square that is not dead) goes Into the corral, and every
//! push of a barrier box into the corral the Player can make now. When such a corral
//! still has work in it (a goal inside, or a barrier box off its goal), some push into
//! it comes in every solution, and it may as well come first: the pushes elsewhere
//! neither open the corral nor change what the barrier boxes can do (Junghanns and
//! Schaeffer, "Sokoban: Enhancing general single-agent search methods using domain
//! knowledge", AIJ 2001; YASS's notes on PI-corral pruning). So a state with a
//! PI-corral expands only its barrier boxes, and of several corrals the one whose
//! barrier has the fewest pushes. The pruning keeps every level's solvability (the
//! finder's tests compare it, on and off, with the exact search on generated levels).
//!
//! Why that order is safe: the barrier must also be *closed*, every square beside a
//! barrier box a wall, a corral square, a square the player reaches or another barrier
//! box. Then, until a box goes into the corral, no push elsewhere gives a barrier box a
//! push it did not have (none frees a square beside one), so the barrier stands still,
//! the first push into the corral of any solution can be made now, and the pushes before
//! it, which never touch the corral or its barrier, can still be made after it.
//!
//! What is not pruned, to stay on the safe side: a barrier that is not closed (a box
//! beside it outside the barrier, or a square of another corral), a corral with a
//! barrier box the player cannot push into it, and a barrier with no push at all.
//!
//! # Complexity
//! O(squares) per state: one pass over the squares the player does not reach.

use grid_core::{CellId, Dir, Grid};

use crate::board::Board;

/// The state a pass looks at: the floor, its tables, the boxes and the player's squares.
struct View<'s, 'b, R> {
    grid: &'s Grid,
    board: &'s Board<'b>,
    /// The boxes.
    occupied: &'s [bool],
    /// Whether the player reaches a square.
    player: &'s R,
}

/// Scratch marks for finding corrals, reused from state to state.
#[derive(Debug, Clone)]
pub(crate) struct Corrals {
    /// The pass (a stamp, one per state) that put each square in a corral last.
    seen: Vec<u32>,
    /// The corral of each square, numbered within its pass.
    corral: Vec<u32>,
    /// The barrier box squares of the corral being looked at, then of the best one.
    barrier: Vec<CellId>,
    best: Vec<CellId>,
    queue: Vec<CellId>,
    stamp: u32,
}

impl Corrals {
    /// Marks for a floor of `n` squares.
    pub(crate) fn new(n: usize) -> Self {
        Corrals {
            seen: vec![0; n],
            corral: vec![0; n],
            barrier: Vec::new(),
            best: Vec::new(),
            queue: Vec::with_capacity(n),
            stamp: 0,
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// The boxes to push in this state: those of the PI-corral with the fewest pushes,
    /// or `None` when there is none (push every box). `occupied` marks the boxes,
    /// `player` tells the squares the player reaches.
    pub(crate) fn pi_barrier(
        &mut self,
        grid: &Grid,
        board: &Board<'_>,
        occupied: &[bool],
        player: impl Fn(CellId) -> bool,
    ) -> Option<&[CellId]> {
        let player = &player;
        let mut best_pushes = usize::MAX;
        self.best.clear();
        let stamp = self.next_stamp();
        let mut number = 0;
        for start in grid.cells() {
            if occupied[start.index()] || player(start) || self.seen[start.index()] == stamp {
                continue;
            }
            number += 1;
            let view = View {
                grid,
                board,
                occupied,
                player,
            };
            if let Some(pushes) = self.judge(&view, start, stamp, number) {
                if pushes < best_pushes {
                    best_pushes = pushes;
                    std::mem::swap(&mut self.best, &mut self.barrier);
                }
            }
        }
        (best_pushes != usize::MAX).then_some(self.best.as_slice())
    }

    /// Fills the corral of `start` (corral `number` of the pass `stamp`) and judges it: the number of pushes of
    /// its barrier when it is a PI-corral with work in it (its boxes in `barrier`).
    fn judge<R: Fn(CellId) -> bool>(
        &mut self,
        view: &View<'_, '_, R>,
        start: CellId,
        stamp: u32,
        number: u32,
    ) -> Option<usize> {
        let View {
            grid,
            board,
            occupied,
            player,
        } = *view;
        self.queue.clear();
        self.barrier.clear();
        self.queue.push(start);
        self.seen[start.index()] = stamp;
        self.corral[start.index()] = number;
        let mut work = false;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            work |= board.is_goal(cell.index());
            for (_, next) in grid.neighbours(cell) {
                if occupied[next.index()] {
                    self.barrier.push(next);
                } else if self.seen[next.index()] != stamp {
                    // Unreached and free: the corral goes on (a reached square cannot be
                    // next to an unreached free one).
                    self.seen[next.index()] = stamp;
                    self.corral[next.index()] = number;
                    self.queue.push(next);
                }
            }
        }
        self.barrier.sort_unstable();
        self.barrier.dedup();
        let inside = |cell: CellId, seen: &[u32], corral: &[u32]| {
            seen[cell.index()] == stamp && corral[cell.index()] == number
        };
        let mut pushes = 0;
        for &b in &self.barrier {
            work |= !board.is_goal(b.index());
            // A closed barrier: every square beside its boxes is a wall, the corral, the
            // player's or another barrier box, so no push elsewhere can give a barrier
            // box a new push before one goes into the corral.
            let closed = Dir::ALL
                .into_iter()
                .all(|dir| match grid.neighbour(b, dir) {
                    None => true,
                    Some(x) if occupied[x.index()] => self.barrier.binary_search(&x).is_ok(),
                    Some(x) => player(x) || inside(x, &self.seen, &self.corral),
                });
            if !closed {
                return None;
            }
            for (_, to, behind) in grid.push_lines(b) {
                if occupied[to.index()] || board.is_dead(to.index()) {
                    continue;
                }
                let can = player(behind);
                let into = inside(to, &self.seen, &self.corral);
                match (can, into) {
                    // P: a push into the corral the player cannot make now.
                    (false, true) => return None,
                    // I: a push that leaves the corral shut.
                    (true, false) => return None,
                    (true, true) => pushes += 1,
                    (false, false) => {}
                }
            }
        }
        (work && pushes > 0).then_some(pushes)
    }
}

//! What a level's walls alone decide, computed once per level: the push distance of a lone
//! box from every square to every goal, the dead squares, and the freeze test.
//!
//! Why these three: the push distances feed the matching bound ([`crate::matching`]); a
//! box on a dead square (no goal within any number of pushes, even alone) and a frozen box
//! off its goal (it and its neighbours can never move again) make a state unsolvable, so
//! pruning them keeps every optimum, for both metrics.
//!
//! # Complexity
//! O(goals x cells) time and memory for the tables; the freeze test is O(boxes) per push.

use grid_core::blocks::Blocks;
use grid_core::push::{NO_PUSHES, push_distances};
use grid_core::{CellId, Dir, Grid};

use crate::parse::Level;

/// Per-level tables shared by every state of one search.
#[derive(Debug, Clone)]
pub struct Board<'a> {
    grid: &'a Grid,
    goal: Vec<bool>,
    goal_count: usize,
    /// `[goal * cells + cell]`: fewest pushes of a lone box from `cell` to the goal, from the
    /// best side ([`NO_PUSHES`] when there is none).
    distance: Vec<u32>,
    dead: Vec<bool>,
}

impl<'a> Board<'a> {
    /// The tables of `level`.
    ///
    /// # Complexity
    /// O(goals x cells).
    pub fn new(level: &'a Level) -> Self {
        let grid = level.grid();
        let n = grid.cell_count();
        let blocks = Blocks::new(grid);
        let mut goal = vec![false; n];
        let mut distance = Vec::with_capacity(level.goals().len() * n);
        let mut queue = Vec::new();
        for &g in level.goals() {
            goal[g.index()] = true;
            let by_side = push_distances(grid, &blocks, g, &mut queue);
            distance.extend((0..n).map(|c| {
                if c == g.index() {
                    0
                } else {
                    by_side[c * 4..c * 4 + 4]
                        .iter()
                        .copied()
                        .min()
                        .unwrap_or(NO_PUSHES)
                }
            }));
        }
        let goal_count = level.goals().len();
        let dead = (0..n)
            .map(|c| (0..goal_count).all(|j| distance[j * n + c] == NO_PUSHES))
            .collect();
        Board {
            grid,
            goal,
            goal_count,
            distance,
            dead,
        }
    }

    /// The floor.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// Whether `cell` is a goal.
    #[inline]
    pub fn is_goal(&self, cell: usize) -> bool {
        self.goal[cell]
    }

    /// Whether a box on `cell` can never reach any goal.
    #[inline]
    pub fn is_dead(&self, cell: usize) -> bool {
        self.dead[cell]
    }

    /// Number of goals.
    pub fn goal_count(&self) -> usize {
        self.goal_count
    }

    /// Fewest pushes of a lone box from `cell` to goal number `goal`, or [`NO_PUSHES`].
    #[inline]
    pub fn distance(&self, goal: usize, cell: usize) -> u32 {
        self.distance[goal * self.grid.cell_count() + cell]
    }
}

/// The freeze test, with its scratch marks.
///
/// A box is frozen when on each axis one neighbour is a wall, a frozen box, or both
/// neighbours are dead squares; the boxes found frozen together can never move again, so a
/// state where one of them is off a goal is unsolvable.
#[derive(Debug, Clone, Default)]
pub struct Freeze {
    /// Boxes being examined, taken as walls so the recursion ends.
    as_wall: Vec<bool>,
}

impl Freeze {
    /// Scratch marks for `cells` squares.
    pub fn new(cells: usize) -> Self {
        Freeze {
            as_wall: vec![false; cells],
        }
    }

    /// Whether the box just pushed onto `cell` is frozen together with boxes one of which
    /// (it included) is off a goal. `occupied` marks the boxes.
    ///
    /// # Complexity
    /// O(boxes) recursive steps (each box is examined at most once along a path).
    pub fn deadlocked(&mut self, board: &Board<'_>, occupied: &[bool], cell: CellId) -> bool {
        matches!(self.frozen(board, occupied, cell), Some(true))
    }

    /// `Some(off_goal)` when the box on `cell` is frozen, `off_goal` telling whether it or a
    /// box its freezing relies on is off a goal; `None` when it may still move.
    fn frozen(&mut self, board: &Board<'_>, occupied: &[bool], cell: CellId) -> Option<bool> {
        self.as_wall[cell.index()] = true;
        let result = self
            .blocked(board, occupied, cell, Dir::West, Dir::East)
            .and_then(|h| {
                self.blocked(board, occupied, cell, Dir::North, Dir::South)
                    .map(|v| h || v || !board.is_goal(cell.index()))
            });
        self.as_wall[cell.index()] = false;
        result
    }

    /// `Some(off_goal)` when the box on `cell` cannot move along the axis `a`-`b`.
    fn blocked(
        &mut self,
        board: &Board<'_>,
        occupied: &[bool],
        cell: CellId,
        a: Dir,
        b: Dir,
    ) -> Option<bool> {
        let grid = board.grid();
        let (na, nb) = (grid.neighbour(cell, a), grid.neighbour(cell, b));
        let wall = |n: Option<CellId>| n.is_none_or(|n| self.as_wall[n.index()]);
        if wall(na) || wall(nb) {
            return Some(false);
        }
        let (na, nb) = (na?, nb?);
        if board.is_dead(na.index()) && board.is_dead(nb.index()) {
            return Some(false);
        }
        for n in [na, nb] {
            if occupied[n.index()] {
                if let Some(off) = self.frozen(board, occupied, n) {
                    return Some(off);
                }
            }
        }
        None
    }
}

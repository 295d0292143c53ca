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

use grid_core::Blocks;
use grid_core::UNREACHABLE;
use grid_core::push::push_distances;
use grid_core::{CellId, Dir, Grid};

use crate::parse::Level;

/// Per-level tables shared by every state of one search.
#[derive(Debug, Clone)]
pub struct Board<'a> {
    grid: &'a Grid,
    goal: Vec<bool>,
    #[allow(dead_code, reason = "kept for the solution finder of issue 16")]
    goal_count: usize,
    /// `[goal * cells + cell]`: fewest pushes of a lone box from `cell` to the goal, from the
    /// best side ([`UNREACHABLE`] when there is none).
    distance: Vec<u32>,
    dead: Vec<bool>,
    /// `[box * cells + player]`: fewest moves that bring a lone box from `box` onto any
    /// goal with the player starting on `player` ([`NO_STEPS`] when none); empty when the
    /// level has more than [`LONE_STEPS_MAX_CELLS`] cells.
    lone_steps: Vec<u16>,
}

/// The lone-box steps of a position from which no goal can be reached.
pub const NO_STEPS: u32 = u16::MAX as u32;

/// The most floor cells for which the lone-box steps table (2 bytes per (box, player)
/// pair) is built: 1024 cells take 2 MiB.
pub const LONE_STEPS_MAX_CELLS: usize = 1024;

/// Fewest moves for a lone box from every (box square, player square) onto any goal:
/// one backward breadth-first search over the pairs, from every pair with the box on a
/// goal. Reversed, a walk moves the player back one square (not onto the box), and a push
/// moves the box back onto the player's square and the player one further.
///
/// # Complexity
/// O(cells^2) time and memory.
fn lone_box_steps(grid: &Grid, goal: &[bool]) -> Vec<u16> {
    let n = grid.cell_count();
    let mut steps = vec![u16::MAX; n * n];
    let mut queue: Vec<u32> = Vec::new();
    for g in (0..n).filter(|&g| goal[g]) {
        for p in (0..n).filter(|&p| p != g) {
            steps[g * n + p] = 0;
            queue.push((g * n + p) as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let at = queue[head] as usize;
        head += 1;
        let (b, p) = (CellId::new(at / n), CellId::new(at % n));
        let next = steps[at] + 1;
        if next == u16::MAX {
            return Vec::new(); // too far to store: no table rather than a wrong one
        }
        for (dir, before) in grid.neighbours(p) {
            if before == b {
                continue;
            }
            // A walk from `before` onto `p`, in the direction from `before` to `p`.
            let walk = b.index() * n + before.index();
            if steps[walk] == u16::MAX {
                steps[walk] = next;
                queue.push(walk as u32);
            }
            // A push from `before` that moved the box from `p` onto `b`.
            if grid.neighbour(p, dir.opposite()) == Some(b) {
                let push = p.index() * n + before.index();
                if steps[push] == u16::MAX && !goal[p.index()] {
                    steps[push] = next;
                    queue.push(push as u32);
                }
            }
        }
    }
    steps
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
                        .unwrap_or(UNREACHABLE)
                }
            }));
        }
        let goal_count = level.goals().len();
        let dead = (0..n)
            .map(|c| (0..goal_count).all(|j| distance[j * n + c] == UNREACHABLE))
            .collect();
        let lone_steps = if n <= LONE_STEPS_MAX_CELLS {
            lone_box_steps(grid, &goal)
        } else {
            Vec::new()
        };
        Board {
            grid,
            goal,
            goal_count,
            distance,
            dead,
            lone_steps,
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
    #[allow(dead_code, reason = "kept for the solution finder of issue 16")]
    pub fn goal_count(&self) -> usize {
        self.goal_count
    }

    /// Fewest moves that bring a lone box from `cell` onto any goal with the player on
    /// `player`, or [`NO_STEPS`]; 0 when the table is not built (large levels).
    ///
    /// A lower bound on the moves left of a state with many boxes: the player's track
    /// in any solution, other boxes taken away, is a lone-box solution for each box.
    #[inline]
    pub fn lone_steps(&self, cell: usize, player: usize) -> u32 {
        let n = self.grid.cell_count();
        self.lone_steps
            .get(cell * n + player)
            .map_or(0, |&s| u32::from(s))
    }

    /// The bytes of the tables.
    pub fn bytes(&self) -> u64 {
        (self.distance.len() * 4 + self.lone_steps.len() * 2 + self.dead.len() * 2) as u64
    }

    /// Fewest pushes of a lone box from `cell` to goal number `goal`, or [`UNREACHABLE`].
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

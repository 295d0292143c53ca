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
    goal_count: usize,
    /// `[goal * cells + cell]`: fewest pushes of a lone box from `cell` to the goal, from the
    /// best side ([`UNREACHABLE`] when there is none).
    distance: Vec<u32>,
    dead: Vec<bool>,
    /// `[box * cells + player]`: fewest moves that bring a lone box from `box` onto any
    /// goal with the player starting on `player` ([`NO_STEPS`] when none); empty when the
    /// level has more than [`LONE_STEPS_MAX_CELLS`] cells.
    lone_steps: Vec<u16>,
    /// The player's sides of the squares that cut the floor ([`Sides`]).
    sides: Sides,
}

/// The sides of a box the player can reach when the box is alone, for the squares where
/// that depends on the player's square: the squares that cut the floor (articulation
/// points), such as a corridor's.
///
/// Why: the matching's push distances take the best side of each box, but a lone box in a
/// corridor with the player behind it can only be pushed on. `[goal][cell * 4 + side]`
/// keeps each goal's push distances by side, and `[row(cell) * cells + player]` the sides
/// of `cell` in the player's part of the floor without `cell`, as a mask of [`Dir`]
/// indices. The fewest pushes of a lone box with the player on `player` is the least over
/// those sides: exact for the lone box, so a lower bound with any other boxes (taking
/// boxes away never makes a side unreachable). Empty (every side counted, the bound of
/// before) when the tables would take more than [`SIDES_MAX_BYTES`].
#[derive(Debug, Clone, Default)]
struct Sides {
    /// `[goal * cells * 4 + cell * 4 + side]`, [`UNREACHABLE`] when none.
    by_side: Vec<u32>,
    /// Per square, its row in `reach`, or [`NOT_CUT`].
    row: Vec<u32>,
    /// `[row * cells + player]`: the mask of the reachable sides.
    reach: Vec<u8>,
    /// Per square, the mask of all its sides (its neighbours on the floor).
    all: Vec<u8>,
}

/// The row of a square that does not cut the floor: the player reaches every side.
const NOT_CUT: u32 = u32::MAX;

/// The most bytes of the side tables ([`Sides`]).
pub const SIDES_MAX_BYTES: usize = 32 << 20;

impl Sides {
    /// The tables of `grid` with the goals' per-side distances `by_side` (goal after goal).
    ///
    /// # Complexity
    /// O(cells) per square that cuts the floor, one breadth-first search each.
    fn new(grid: &Grid, blocks: &Blocks, by_side: Vec<u32>) -> Self {
        let n = grid.cell_count();
        let cut = |c: CellId| {
            let sides: Vec<Dir> = grid.neighbours(c).map(|(d, _)| d).collect();
            sides
                .iter()
                .any(|&a| sides.iter().any(|&b| !blocks.connected_around(c, a, b)))
        };
        let cuts: Vec<CellId> = grid.cells().filter(|&c| cut(c)).collect();
        if by_side.len() * 4 + cuts.len() * n > SIDES_MAX_BYTES {
            return Sides::default();
        }
        let mut row = vec![NOT_CUT; n];
        let mut reach = vec![0u8; cuts.len() * n];
        let mut queue: Vec<CellId> = Vec::with_capacity(n);
        for (r, &c) in cuts.iter().enumerate() {
            row[c.index()] = r as u32;
            let masks = &mut reach[r * n..(r + 1) * n];
            for (dir, start) in grid.neighbours(c) {
                let bit = 1u8 << dir.index();
                if masks[start.index()] & bit != 0 {
                    continue;
                }
                // The part of the floor without `c` that holds this side: every side
                // found in it is added to each of its squares afterwards.
                queue.clear();
                queue.push(start);
                masks[start.index()] |= bit;
                let mut head = 0;
                while head < queue.len() {
                    let at = queue[head];
                    head += 1;
                    for (_, next) in grid.neighbours(at) {
                        if next != c && masks[next.index()] & bit == 0 {
                            masks[next.index()] |= bit;
                            queue.push(next);
                        }
                    }
                }
                let part: u8 = grid
                    .neighbours(c)
                    .filter(|&(_, s)| masks[s.index()] & bit != 0)
                    .fold(0, |m, (d, _)| m | 1 << d.index());
                for &at in &queue {
                    masks[at.index()] = part;
                }
            }
        }
        let all = grid
            .cells()
            .map(|c| grid.neighbours(c).fold(0, |m, (d, _)| m | 1 << d.index()))
            .collect();
        Sides {
            by_side,
            row,
            reach,
            all,
        }
    }
}

/// The (box square, side) states the goals' searches of [`Board::within`] go through
/// between two calls of its stop check: a few milliseconds.
pub const LOOK_EVERY_STATES: usize = 1 << 22;

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
    /// The tables of `level`, with the player's sides ([`Board::distance_from`]).
    ///
    /// # Complexity
    /// O(goals x cells).
    pub fn new(level: &'a Level) -> Self {
        Board::with_sides(level, true)
    }

    /// The tables of `level`; without `player_sides`, [`Board::distance_from`] is
    /// [`Board::distance`] (every side counted) and [`Board::cut_off`] always `false`.
    ///
    /// # Complexity
    /// O(goals x cells).
    pub fn with_sides(level: &'a Level, player_sides: bool) -> Self {
        match Board::within(level, player_sides, &mut || false) {
            Some(board) => board,
            None => unreachable!("a build that is never stopped ends"),
        }
    }

    /// [`Board::with_sides`], calling `stop` between two goals' searches once they have
    /// searched [`LOOK_EVERY_STATES`] states since the last call (a few milliseconds; on
    /// the largest floors all the goals take seconds): `None` when it says so. Reserve [`Board::bytes_for`] before the call: the tables are
    /// allocated as they are built.
    ///
    /// # Complexity
    /// O(goals x cells).
    pub fn within(
        level: &'a Level,
        player_sides: bool,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Self> {
        let grid = level.grid();
        let n = grid.cell_count();
        let blocks = Blocks::new(grid);
        let mut goal = vec![false; n];
        let mut distance = Vec::with_capacity(level.goals().len() * n);
        let mut all_sides = Vec::new();
        let mut queue = Vec::new();
        // (box square, side) states searched since the last look.
        let mut searched = 0;
        for &g in level.goals() {
            if searched >= LOOK_EVERY_STATES {
                searched = 0;
                if stop() {
                    return None;
                }
            }
            searched += 4 * n;
            goal[g.index()] = true;
            let by_side = push_distances(grid, &blocks, g, &mut queue);
            if player_sides && all_sides.len() * 4 <= SIDES_MAX_BYTES {
                all_sides.extend_from_slice(&by_side);
            }
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
        let sides = if player_sides && all_sides.len() == goal_count * n * 4 {
            Sides::new(grid, &blocks, all_sides)
        } else {
            Sides::default()
        };
        Some(Board {
            grid,
            goal,
            goal_count,
            distance,
            dead,
            lone_steps,
            sides,
        })
    }

    /// The bytes the tables of `level` take at most ([`Board::bytes`] of the built
    /// board is no more), known before they are built.
    ///
    /// # Complexity
    /// O(1).
    pub fn bytes_for(level: &Level) -> u64 {
        let (n, goals) = (level.grid().cell_count() as u64, level.goals().len() as u64);
        // The lone-box steps and their search's queue; the sides (within their cap); the
        // goals' distances; the per-square tables and what one goal's search holds.
        let lone = if n as usize <= LONE_STEPS_MAX_CELLS {
            n * n * 6
        } else {
            0
        };
        let sides = (goals * n * 16 + n * n).min(SIDES_MAX_BYTES as u64);
        goals * n * 4 + n * 40 + lone + sides
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
        (self.distance.len() * 4
            + self.lone_steps.len() * 2
            + self.dead.len() * 2
            + self.sides.by_side.len() * 4
            + self.sides.row.len() * 4
            + self.sides.reach.len()) as u64
    }

    /// Whether the player on `player` does not reach every side of a lone box on `cell`
    /// (`cell` cuts the floor, the player on one side of the cut): only then
    /// [`Board::distance_from`] may exceed [`Board::distance`].
    #[inline]
    pub fn cut_off(&self, cell: usize, player: usize) -> bool {
        match self.sides.row.get(cell) {
            Some(&row) if row != NOT_CUT => {
                let n = self.grid.cell_count();
                self.sides.reach[row as usize * n + player] != self.sides.all[cell]
            }
            _ => false,
        }
    }

    /// Fewest pushes of a lone box from `cell` to goal number `goal` with the player on
    /// `player` (not `cell`), or [`UNREACHABLE`]: the least over the sides of `cell` the
    /// player reaches with that box alone. At least [`Board::distance`], and equal to it
    /// where `cell` does not cut the floor ([`Board::cut_off`]).
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn distance_from(&self, goal: usize, cell: usize, player: usize) -> u32 {
        let n = self.grid.cell_count();
        let Some(&row) = self.sides.row.get(cell) else {
            return self.distance(goal, cell);
        };
        let d = self.distance(goal, cell);
        if row == NOT_CUT || d == 0 {
            return d;
        }
        let mask = self.sides.reach[row as usize * n + player];
        let at = goal * n * 4 + cell * 4;
        let by_side = &self.sides.by_side[at..at + 4];
        (0..4)
            .filter(|&s| mask & (1 << s) != 0)
            .map(|s| by_side[s])
            .min()
            .unwrap_or(UNREACHABLE)
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

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::rng::SplitMix64;

    /// Fewest pushes of a lone box from (box, player) onto `goal`, by a backward search
    /// over (box, player) pairs that knows nothing of sides or cuts: a reverse walk costs
    /// nothing, a pull one push.
    fn lone_pushes(grid: &Grid, goal: CellId) -> Vec<u32> {
        let n = grid.cell_count();
        let mut pushes = vec![UNREACHABLE; n * n];
        let mut deque = std::collections::VecDeque::new();
        for p in grid.cells().filter(|&p| p != goal) {
            pushes[goal.index() * n + p.index()] = 0;
            deque.push_back((goal, p));
        }
        while let Some((b, p)) = deque.pop_front() {
            let here = pushes[b.index() * n + p.index()];
            for (dir, before) in grid.neighbours(p) {
                if before == b {
                    continue;
                }
                let walk = b.index() * n + before.index();
                if pushes[walk] > here {
                    pushes[walk] = here;
                    deque.push_front((b, before));
                }
                // A push from `before` that moved the box from `p` onto `b`.
                if grid.neighbour(p, dir.opposite()) == Some(b) {
                    let push = p.index() * n + before.index();
                    if pushes[push] > here + 1 {
                        pushes[push] = here + 1;
                        deque.push_back((p, before));
                    }
                }
            }
        }
        pushes
    }

    #[test]
    fn distance_from_is_the_lone_box_optimum_from_the_players_square() {
        let mut rng = SplitMix64::new(16);
        let mut cut_off = 0;
        for round in 0..300 {
            let (height, width) = (rng.between(3, 8), rng.between(3, 9));
            let wall_percent = [15, 30, 45][round % 3];
            let mut rows: Vec<Vec<u8>> = (0..height)
                .map(|_| {
                    (0..width)
                        .map(|_| {
                            if rng.percent(wall_percent) {
                                b'#'
                            } else {
                                b' '
                            }
                        })
                        .collect()
                })
                .collect();
            let floor: Vec<(usize, usize)> = (0..height)
                .flat_map(|r| (0..width).map(move |c| (r, c)))
                .filter(|&(r, c)| rows[r][c] == b' ')
                .collect();
            if floor.len() < 3 {
                continue;
            }
            let (pr, pc) = floor[rng.below(floor.len())];
            rows[pr][pc] = b'@';
            let (br, bc) = floor[rng.below(floor.len())];
            let (gr, gc) = floor[rng.below(floor.len())];
            if (br, bc) == (pr, pc) || (gr, gc) == (pr, pc) {
                continue;
            }
            rows[br][bc] = b'$';
            rows[gr][gc] = if (gr, gc) == (br, bc) { b'*' } else { b'.' };
            let mut text = "#".repeat(width + 2) + "\n";
            for row in &rows {
                text += &format!("#{}#\n", String::from_utf8_lossy(row));
            }
            text += &"#".repeat(width + 2);
            let Ok(level) = text.parse::<Level>() else {
                continue;
            };
            if level.stranded() || level.goals().len() != 1 {
                continue;
            }
            let grid = level.grid();
            let n = grid.cell_count();
            let board = Board::new(&level);
            let want = lone_pushes(grid, level.goals()[0]);
            for b in 0..n {
                for p in (0..n).filter(|&p| p != b) {
                    let got = board.distance_from(0, b, p);
                    assert_eq!(got, want[b * n + p], "{text}\nbox {b} player {p}");
                    assert!(got >= board.distance(0, b));
                    if board.cut_off(b, p) {
                        cut_off += 1;
                    } else {
                        assert_eq!(got, board.distance(0, b), "{text}\nbox {b} player {p}");
                    }
                }
            }
        }
        assert!(cut_off > 1000, "only {cut_off} cut-off pairs drawn");
    }

    /// The bytes reserved before a build cover what the built tables take (the searches
    /// give the rest back); small floors are built without a look at the stop check, and
    /// on a large one a stop check that says stop at once stops the build.
    #[test]
    fn the_bytes_reserved_cover_the_tables_and_a_stopped_build_ends() {
        let text = crate::generate::collection(31, 60, 6, 12);
        let levels = crate::Collection::new(text.as_bytes(), 1 << 16).filter_map(Result::ok);
        let mut built = 0;
        for level in levels {
            for sides in [false, true] {
                let board = Board::with_sides(&level, sides);
                assert!(board.bytes() <= Board::bytes_for(&level), "{level:?}");
                let mut looks = 0;
                let stopped = Board::within(&level, sides, &mut || {
                    looks += 1;
                    true
                });
                // Small floors are built before the first look.
                assert!(stopped.is_some() && looks == 0);
                built += 1;
            }
        }
        assert!(built >= 100, "{built}");
        // 150 x 150 squares and 225 goals: 4 x 22,500 states a goal.
        let mut rows = vec!["#".repeat(152)];
        for r in 0..150 {
            let row: String = (0..150)
                .map(|c| match (r, c) {
                    (0, 0) => '@',
                    _ if r % 10 == 5 && c % 10 == 5 => '$',
                    _ if r % 10 == 5 && c % 10 == 7 => '.',
                    _ => ' ',
                })
                .collect();
            rows.push(format!("#{row}#"));
        }
        rows.push("#".repeat(152));
        let level: Level = rows.join("\n").parse().unwrap();
        let mut looks = 0;
        let stopped = Board::within(&level, true, &mut || {
            looks += 1;
            true
        });
        assert!(stopped.is_none());
        assert_eq!(looks, 1);
    }
}

//! A lower bound on the walks still to come (the moves that push nothing), from where the
//! boxes must go in all: the player's net displacement while pushing equals the boxes'.
//!
//! # Why it holds
//! In a push the player and the box both move one square the same way. Over the rest of
//! any solution, the player's pushes therefore move it by `(DX, DY)`, the sum over the
//! boxes of their final squares less their present ones, which is the sum of the goals'
//! coordinates less the sum of the boxes' (every goal ends with a box: as many goals as
//! boxes), whatever goal each box takes. The player goes from its square `p` to its final
//! square `e`, so its walks move it by `e - p - (DX, DY)`, and a walk step changes one
//! coordinate by one: the walks are at least `|e_x - p_x - DX| + |e_y - p_y - DY|`. The
//! final square `e` is where the last push started, a square next to a goal with floor
//! behind it (the player came from there), so the bound takes the least over those
//! squares: the L1 distance from `p + (DX, DY)` to that set, read from a table over the
//! grid's rectangle (a point outside it adds its distance to the rectangle). A solved
//! layout has no walks left. The moves left are at least the pushes left plus this.
//!
//! The same holds for a potential that follows the walls rather than the coordinates (see
//! [`potential`]: the distance to the goals, lowered where a push could gain on it), and
//! the bound is the larger of the two. Microban 145 needs both (`--metric moves`,
//! proven with both, still open with the coordinates alone in as much CPU).
//!
//! Where the boxes stand far from the goals, as in XSokoban's store rooms, this is the
//! way back after every box taken to the goal room: XSokoban 1 starts with 78 (of the
//! 133 walks of its solution with the fewest pushes, 97, and then moves, 230).
//!
//! # Complexity
//! O(rows x columns) once per level (a breadth-first search over the rectangle); O(k) per
//! state for k boxes (the sums), O(1) for the table.

use grid_core::{CellId, Dir, Grid};

use crate::board::Board;
use crate::parse::Level;

/// The table of the walk bound of one level (see the module documentation).
#[derive(Debug, Clone, Default)]
pub(super) struct Walks {
    /// Per cell, its column and row.
    at: Vec<(i32, i32)>,
    /// The sums of the goals' columns and rows.
    goals: (i64, i64),
    width: i64,
    height: i64,
    /// Per square of the rectangle, row-major: the L1 distance to the nearest square a
    /// last push can start from; empty when the bound is off.
    to_end: Vec<u32>,
    /// Per cell, the potential (see [`potential`]).
    phi: Vec<i32>,
    /// The sum of the goals' potentials.
    goals_phi: i64,
    /// The least potential of a square a last push can start from.
    end_phi: i32,
}

impl Walks {
    /// The table of `level`; `on == false` gives a bound of 0 everywhere.
    pub(super) fn new(level: &Level, board: &Board<'_>, on: bool) -> Self {
        let grid = level.grid();
        let (width, height) = (grid.width(), grid.height());
        if !on || level.goals().len() != level.boxes().len() || width * height == 0 {
            return Walks::default();
        }
        let at: Vec<(i32, i32)> = grid
            .cells()
            .map(|c| {
                let (row, col) = grid.position(c);
                (col as i32, row as i32)
            })
            .collect();
        let goals = level.goals().iter().fold((0i64, 0i64), |(x, y), g| {
            let (col, row) = at[g.index()];
            (x + i64::from(col), y + i64::from(row))
        });
        let mut to_end = vec![u32::MAX; width * height];
        let mut queue = Vec::new();
        let mut ends = Vec::new();
        for &goal in level.goals() {
            for dir in Dir::ALL {
                let Some(end) = grid.neighbour(goal, dir) else {
                    continue;
                };
                if grid.neighbour(end, dir).is_none() {
                    continue; // no floor behind: no push onto the goal starts here
                }
                ends.push(end);
                let (col, row) = at[end.index()];
                let square = row as usize * width + col as usize;
                if to_end[square] == u32::MAX {
                    to_end[square] = 0;
                    queue.push(square);
                }
            }
        }
        if queue.is_empty() {
            return Walks::default();
        }
        // Breadth-first over the rectangle, walls ignored: the L1 distance.
        let mut head = 0;
        while head < queue.len() {
            let square = queue[head];
            head += 1;
            let (row, col) = (square / width, square % width);
            let d = to_end[square] + 1;
            let mut visit = |r: usize, c: usize| {
                let s = r * width + c;
                if to_end[s] == u32::MAX {
                    to_end[s] = d;
                    queue.push(s);
                }
            };
            if row > 0 {
                visit(row - 1, col);
            }
            if row + 1 < height {
                visit(row + 1, col);
            }
            if col > 0 {
                visit(row, col - 1);
            }
            if col + 1 < width {
                visit(row, col + 1);
            }
        }
        let phi = potential(grid, board, level.goals());
        let goals_phi = level
            .goals()
            .iter()
            .map(|g| i64::from(phi[g.index()]))
            .sum();
        let end_phi = ends.iter().map(|e| phi[e.index()]).min().unwrap_or(0);
        Walks {
            at,
            goals,
            width: width as i64,
            height: height as i64,
            to_end,
            phi,
            goals_phi,
            end_phi,
        }
    }

    /// The walks left at least with the boxes on `boxes` (not all on goals) and the
    /// player on `player`; 0 when the bound is off.
    #[inline]
    pub(super) fn bound(&self, boxes: &[u16], player: u16) -> u32 {
        if self.to_end.is_empty() {
            return 0;
        }
        let (mut x, mut y) = self.goals;
        for &b in boxes {
            let (col, row) = self.at[usize::from(b)];
            x -= i64::from(col);
            y -= i64::from(row);
        }
        let (col, row) = self.at[usize::from(player)];
        let (x, y) = (x + i64::from(col), y + i64::from(row));
        let (cx, cy) = (x.clamp(0, self.width - 1), y.clamp(0, self.height - 1));
        let outside = (x - cx).unsigned_abs() + (y - cy).unsigned_abs();
        let inside = u64::from(self.to_end[(cy * self.width + cx) as usize]);
        let mut by_phi =
            i64::from(self.end_phi) - i64::from(self.phi[usize::from(player)]) - self.goals_phi;
        for &b in boxes {
            by_phi += i64::from(self.phi[usize::from(b)]);
        }
        let best = (inside + outside).max(u64::try_from(by_phi).unwrap_or(0));
        u32::try_from(best).unwrap_or(u32::MAX / 4)
    }

    /// The bytes of the table.
    pub(super) fn bytes(&self) -> u64 {
        (self.at.len() * 8 + self.to_end.len() * 4) as u64
    }
}

/// A potential on the floor for [`Walks`]: at most one apart on neighbouring squares, and
/// on every three squares in a row (a push's player, box and the box's next square, the
/// box on no dead square) at most the mean of the outer two at the middle one. A push
/// then raises the player's potential by at most what it raises the box's, so over the
/// rest of a solution the pushes raise the player's by at most the sum over the goals
/// less the sum over the boxes, and the walks, at most one a step, make up the rest:
/// walks are at least `phi(end) - phi(player)` plus the boxes' sum less the goals'.
///
/// It is the distance to the nearest goal (walls only), lowered until both conditions
/// hold: the largest such function under that distance (each lowering keeps every such
/// function below it, so they all stay under the result).
///
/// # Complexity
/// O(cells) per sweep, sweeps until nothing changes (a few in practice).
fn potential(grid: &Grid, board: &Board<'_>, goals: &[CellId]) -> Vec<i32> {
    let n = grid.cell_count();
    let mut phi = vec![i32::MAX; n];
    let mut queue: Vec<CellId> = Vec::with_capacity(n);
    for &g in goals {
        phi[g.index()] = 0;
        queue.push(g);
    }
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        for (_, m) in grid.neighbours(c) {
            if phi[m.index()] == i32::MAX {
                phi[m.index()] = phi[c.index()] + 1;
                queue.push(m);
            }
        }
    }
    for p in &mut phi {
        if *p == i32::MAX {
            *p = 0;
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for c in grid.cells() {
            let i = c.index();
            for (a, b) in [(Dir::North, Dir::South), (Dir::West, Dir::East)] {
                let (Some(e), Some(f)) = (grid.neighbour(c, a), grid.neighbour(c, b)) else {
                    continue;
                };
                let pushed =
                    !board.is_dead(i) && (!board.is_dead(e.index()) || !board.is_dead(f.index()));
                let mean = (phi[e.index()] + phi[f.index()]).div_euclid(2);
                if pushed && phi[i] > mean {
                    phi[i] = mean;
                    changed = true;
                }
            }
            for (_, m) in grid.neighbours(c) {
                if phi[m.index()] > phi[i] + 1 {
                    phi[m.index()] = phi[i] + 1;
                    changed = true;
                }
            }
        }
    }
    phi
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays `lurd` on `level` and checks the bound never passes the walks left.
    fn check_along(xsb: &str, lurd: &str) -> Vec<(u32, u32)> {
        let level: Level = xsb.parse().unwrap();
        let board = Board::new(&level);
        let walks = Walks::new(&level, &board, true);
        let grid = level.grid();
        let mut boxes: Vec<CellId> = level.boxes().to_vec();
        let mut player = level.player();
        let total_walks = lurd.chars().filter(char::is_ascii_lowercase).count() as u32;
        let mut out = vec![];
        let mut walks_left = total_walks;
        for (i, c) in lurd.chars().enumerate() {
            let solved = boxes.iter().all(|b| level.goals().contains(b));
            if !solved {
                let words: Vec<u16> = boxes.iter().map(|b| b.index() as u16).collect();
                let bound = walks.bound(&words, player.index() as u16);
                assert!(
                    bound <= walks_left,
                    "step {i}: bound {bound} > {walks_left}"
                );
                out.push((bound, walks_left));
            }
            let (dir, _) = crate::verify::letter_dir(c).unwrap();
            let to = grid.neighbour(player, dir).unwrap();
            if let Some(b) = boxes.iter_mut().find(|b| **b == to) {
                *b = grid.neighbour(to, dir).unwrap();
            }
            player = to;
            if c.is_ascii_lowercase() {
                walks_left -= 1;
            }
        }
        out
    }

    #[test]
    fn never_passes_the_walks_of_xsokoban_1() {
        let xsb = "    #####\n    #   #\n    #$  #\n  ###  $##\n  #  $ $ #\n### # ## #   ######\n#   # ## #####  ..#\n# $  $          ..#\n##### ### #@##  ..#\n    #     #########\n    #######\n";
        let lurd = "ullluuuLUllDlldddrRRRRRRRRRRurDllllllllllllulldRRRRRRRRRRRRRdRRlUllllllluuululldDDuulldddrRRRRRRRRRRuRRlDllllllluuulLuuurDDllDDDuulldddrRRRRRRRRRRRRlllllllluuuLuuullDDDDDuulldddrRRRRRRRRRRRllllllluuulLulDDDuulldddrRRRRRRRRRRdRUluR";
        let along = check_along(xsb, lurd);
        assert_eq!(along[0], (78, 133), "{along:?}");
    }
}

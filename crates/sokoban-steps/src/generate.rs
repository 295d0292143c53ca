//! Seeded generators of cases, as input text: small random boards for the tests, and the
//! large rooms, ladders and unsolvable levels of the benchmarks.
//!
//! Why seeded: a seed names the same case on every machine and every version (the
//! generator is [`SplitMix64`]), so tests, `cargo xtask gen` and `cargo xtask bench`
//! agree on their inputs without storing them.
//!
//! # Complexity
//! [`small`], [`unsolvable`]: O(N x M). [`room`], [`ladder`]: O(N x M) per attempt, plus one
//! solver run per attempt to keep only solvable levels (a few attempts in practice).

use grid_core::rng::SplitMix64;

use crate::problem::Puzzle;
use crate::search::Solver;

/// A board under construction: `true` is floor.
struct Board {
    height: usize,
    width: usize,
    floor: Vec<bool>,
}

impl Board {
    fn new(height: usize, width: usize, floor: bool) -> Self {
        Board {
            height,
            width,
            floor: vec![floor; height * width],
        }
    }

    fn set(&mut self, row: usize, col: usize, floor: bool) {
        self.floor[row * self.width + col] = floor;
    }

    fn floor_cells(&self) -> Vec<usize> {
        (0..self.floor.len()).filter(|&i| self.floor[i]).collect()
    }

    /// The input text with the player, box and target on the given cells (row-major
    /// indices, made floor).
    fn text(&self, player: usize, box_cell: usize, target: usize) -> String {
        let mut text = format!("{} {}\n", self.height, self.width);
        for row in 0..self.height {
            for col in 0..self.width {
                let i = row * self.width + col;
                text.push(match i {
                    _ if i == player => 'X',
                    _ if i == box_cell => '*',
                    _ if i == target => '@',
                    _ if self.floor[i] => '.',
                    _ => '#',
                });
            }
            text.push('\n');
        }
        text
    }
}

/// Three different cells of `cells`, at random.
fn three_of(rng: &mut SplitMix64, cells: &[usize]) -> (usize, usize, usize) {
    let a = rng.below(cells.len());
    let mut b = rng.below(cells.len() - 1);
    if b >= a {
        b += 1;
    }
    let mut c = rng.below(cells.len() - 2);
    for taken in [a.min(b), a.max(b)] {
        if c >= taken {
            c += 1;
        }
    }
    (cells[a], cells[b], cells[c])
}

/// A small random board for comparing the solver with a reference search: every shape from
/// 1 x 3 to 10 x 10 (a third of them 1 x N, N x 1 or 2 x N strips), 0 to 40 % walls, the
/// player, box and target on random floor cells. Some are solvable, some not.
pub fn small(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let (height, width) = match rng.below(6) {
        0 => (1, rng.between(3, 10)),
        1 => (rng.between(3, 10), 1),
        2 => (2, rng.between(2, 8)),
        _ => loop {
            let (h, w) = (rng.between(1, 10), rng.between(1, 10));
            if h * w >= 3 {
                break (h, w);
            }
        },
    };
    let wall_percent = [0, 10, 20, 30, 40][rng.below(5)];
    let mut board = Board::new(height, width, true);
    for i in 0..height * width {
        board.floor[i] = !rng.percent(wall_percent);
    }
    let all: Vec<usize> = (0..height * width).collect();
    let (player, box_cell, target) = three_of(&mut rng, &all);
    for i in [player, box_cell, target] {
        board.floor[i] = true;
    }
    board.text(player, box_cell, target)
}

/// True when the case in `text` has a solution.
fn solvable(text: &str) -> bool {
    text.parse::<Puzzle>()
        .ok()
        .is_some_and(|p| Solver::new(&p).fewest_steps().is_some())
}

/// A `height` x `width` room (walls around, at least 5 x 5 makes sense) with about
/// `wall_percent` % scattered walls inside, the box in the top-left quarter, the target in
/// the bottom-right quarter and the player anywhere: the answer is a few hundred steps on
/// 128 x 128. Attempts continue the seed's random sequence until the level is solvable (at
/// most 64).
pub fn room(seed: u64, height: usize, width: usize, wall_percent: u32) -> String {
    let mut text = String::new();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..64 {
        let mut board = Board::new(height, width, false);
        for row in 1..height.saturating_sub(1) {
            for col in 1..width.saturating_sub(1) {
                board.set(row, col, !rng.percent(wall_percent));
            }
        }
        let pick = |rng: &mut SplitMix64, rows: (usize, usize), cols: (usize, usize)| {
            rng.between(rows.0, rows.1) * width + rng.between(cols.0, cols.1)
        };
        let (h4, w4) = ((height / 4).max(1), (width / 4).max(1));
        let box_cell = pick(&mut rng, (1, h4), (1, w4));
        let target = pick(
            &mut rng,
            (height - 1 - h4, height - 2),
            (width - 1 - w4, width - 2),
        );
        let player = pick(&mut rng, (1, height - 2), (1, width - 2));
        if box_cell == target || player == box_cell || player == target {
            continue;
        }
        for i in [player, box_cell, target] {
            board.floor[i] = true;
        }
        text = board.text(player, box_cell, target);
        if solvable(&text) {
            break;
        }
    }
    text
}

/// A corridor-heavy "ladder" level of `height` x `width`: 1-wide horizontal rails every
/// third row, joined by 1-wide vertical rungs at random columns (about one column in
/// four), so the box moves only along corridors and every turn needs a walk around a
/// ladder of rungs. Box, target and player on random corridor cells; attempts continue the
/// seed's random sequence until the level is solvable (at most 64).
pub fn ladder(seed: u64, height: usize, width: usize) -> String {
    let mut text = String::new();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..64 {
        let mut board = Board::new(height, width, false);
        let rails: Vec<usize> = (1..height.saturating_sub(1)).step_by(3).collect();
        for &row in &rails {
            for col in 1..width.saturating_sub(1) {
                board.set(row, col, true);
            }
        }
        for pair in rails.windows(2) {
            for col in 1..width.saturating_sub(1) {
                if rng.percent(25) {
                    for row in pair[0]..=pair[1] {
                        board.set(row, col, true);
                    }
                }
            }
        }
        let cells = board.floor_cells();
        if cells.len() < 3 {
            break;
        }
        let (player, box_cell, target) = three_of(&mut rng, &cells);
        text = board.text(player, box_cell, target);
        if solvable(&text) {
            break;
        }
    }
    text
}

/// A `height` x `width` room (at least 5 x 10) cut in two by a wall three cells thick, with a
/// single Z-shaped 1-wide passage: the player can cross it, the box never can. Box on the
/// left, target on the right, about `wall_percent` % scattered walls: the answer is `-1`,
/// after a search space as large as the room.
pub fn unsolvable(seed: u64, height: usize, width: usize, wall_percent: u32) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut board = Board::new(height, width, false);
    let middle = width / 2;
    for row in 1..height.saturating_sub(1) {
        for col in 1..width.saturating_sub(1) {
            let in_wall = col + 1 >= middle && col <= middle + 1;
            board.set(row, col, !in_wall && !rng.percent(wall_percent));
        }
    }
    let door = rng.between(1, height.saturating_sub(3).max(1));
    for (row, col) in [
        (door, middle - 2),
        (door, middle - 1),
        (door, middle),
        (door + 1, middle),
        (door + 1, middle + 1),
        (door + 1, middle + 2),
    ] {
        board.set(row, col, true);
    }
    let pick = |rng: &mut SplitMix64, cols: (usize, usize)| {
        rng.between(1, height - 2) * width + rng.between(cols.0, cols.1)
    };
    let box_cell = pick(&mut rng, (1, middle.saturating_sub(3).max(1)));
    let mut player = pick(&mut rng, (1, middle.saturating_sub(3).max(1)));
    if player == box_cell {
        player = if box_cell % width > 1 {
            box_cell - 1
        } else {
            box_cell + 1
        };
    }
    let target = pick(&mut rng, ((middle + 3).min(width - 2), width - 2));
    for i in [player, box_cell, target] {
        board.floor[i] = true;
    }
    board.text(player, box_cell, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Dir;

    /// Whether the box can reach the target, by a plain breadth-first search over every
    /// (player, box) position: independent of the solver and of the generators' filter.
    fn box_reaches_target(puzzle: &Puzzle) -> bool {
        let grid = puzzle.grid();
        let n = grid.cell_count();
        let mut seen = vec![false; n * n];
        let start = (puzzle.player(), puzzle.box_cell());
        seen[start.0.index() * n + start.1.index()] = true;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some((player, box_at)) = queue.pop_front() {
            if box_at == puzzle.target() {
                return true;
            }
            for (dir, to) in grid.neighbours(player) {
                let next = if to == box_at {
                    match grid.neighbour(box_at, dir) {
                        Some(beyond) => (to, beyond),
                        None => continue,
                    }
                } else {
                    (to, box_at)
                };
                let index = next.0.index() * n + next.1.index();
                if !seen[index] {
                    seen[index] = true;
                    queue.push_back(next);
                }
            }
        }
        false
    }

    #[test]
    fn generated_cases_keep_their_promises() {
        for seed in 0..200 {
            assert!(small(seed).parse::<Puzzle>().is_ok(), "seed {seed}");
        }
        // The room: box in the top-left quarter, target in the bottom-right one.
        let room = room(1, 24, 24, 12).parse::<Puzzle>().unwrap();
        let (box_row, box_col) = room.grid().position(room.box_cell());
        let (target_row, target_col) = room.grid().position(room.target());
        assert!(box_row <= 6 && box_col <= 6, "box at {box_row},{box_col}");
        assert!(target_row >= 17 && target_col >= 17);
        // The ladder: 1-wide rails every third row; every other floor cell is a rung
        // (floor above and below it).
        let ladder = ladder(1, 25, 30).parse::<Puzzle>().unwrap();
        let grid = ladder.grid();
        for cell in grid.cells() {
            let (row, _) = grid.position(cell);
            let vertical = [Dir::North, Dir::South]
                .iter()
                .all(|&d| grid.neighbour(cell, d).is_some());
            assert!(
                row % 3 == 1 || vertical,
                "{:?} is neither rail nor rung",
                grid.position(cell)
            );
        }
        for seed in 0..3 {
            let stuck = unsolvable(seed, 20, 20, 12).parse::<Puzzle>().unwrap();
            assert!(
                !box_reaches_target(&stuck),
                "seed {seed}:\n{}",
                stuck.to_text()
            );
        }
        assert!(box_reaches_target(&room), "the check itself can say yes");
    }
}

//! Seeded workloads, as input text: small random mazes for the tests, and the benchmark
//! families of the issue (2,000 open mazes up to 20 x 20, 128 x 128 rooms with scattered
//! walls, ladders whose walks cross the grid, unsolvable large levels).
//!
//! Why text and not [`crate::Maze`]: the same generated input feeds this crate's tests,
//! `cargo xtask gen` and the whole-process benchmarks against the C++ baseline, which all
//! read text. Every function is a pure function of its seed ([`SplitMix64`]).
//!
//! # Complexity
//! Linear in the size of the text produced.

use grid_core::rng::SplitMix64;

/// A board under construction: rows of `. # S B T`.
struct Board {
    rows: Vec<Vec<u8>>,
}

impl Board {
    fn filled(height: usize, width: usize, byte: u8) -> Self {
        Board {
            rows: vec![vec![byte; width]; height],
        }
    }

    fn floor_cells(&self) -> Vec<(usize, usize)> {
        let mut cells = Vec::new();
        for (r, row) in self.rows.iter().enumerate() {
            for (c, &b) in row.iter().enumerate() {
                if b == b'.' {
                    cells.push((r, c));
                }
            }
        }
        cells
    }

    /// Puts `marker` on a random floor cell of `cells` that is still floor.
    fn place(&mut self, rng: &mut SplitMix64, cells: &[(usize, usize)], marker: u8) {
        let free: Vec<(usize, usize)> = cells
            .iter()
            .copied()
            .filter(|&(r, c)| self.rows[r][c] == b'.')
            .collect();
        if free.is_empty() {
            return;
        }
        let (r, c) = free[rng.below(free.len())];
        self.rows[r][c] = marker;
    }

    fn text(&self) -> String {
        let width = self.rows.first().map_or(0, Vec::len);
        let mut text = format!("{} {width}\n", self.rows.len());
        for row in &self.rows {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
        text
    }
}

/// One maze of `rows` x `cols` (at least 3 cells) with about `wall_percent` walls and `S`,
/// `B`, `T` on distinct random cells, as the text of one case (no terminator).
///
/// Few walls mean many ties among optimal answers, which is what the tests need.
///
/// # Panics
/// When `rows * cols < 3`.
pub fn random_maze(rng: &mut SplitMix64, rows: usize, cols: usize, wall_percent: u32) -> String {
    assert!(rows * cols >= 3, "a maze needs three cells");
    let mut board = Board::filled(rows, cols, b'.');
    for row in &mut board.rows {
        for byte in row.iter_mut() {
            if rng.percent(wall_percent) {
                *byte = b'#';
            }
        }
    }
    let mut all: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .collect();
    rng.shuffle(&mut all);
    for (&(r, c), marker) in all.iter().zip([b'S', b'B', b'T']) {
        board.rows[r][c] = marker;
    }
    board.text()
}

/// `count` random open mazes of 3 to `max_side` rows and columns (0 to 20 % walls), one
/// input ending with `0 0`: the workload of the whole-process comparison with the baseline.
pub fn open_rooms(seed: u64, count: usize, max_side: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let max_side = max_side.max(3);
    let mut text = String::new();
    for _ in 0..count {
        let rows = rng.between(3, max_side);
        let cols = rng.between(3, max_side);
        let walls = [0, 5, 10, 20][rng.below(4)];
        text.push_str(&random_maze(&mut rng, rows, cols, walls));
    }
    text.push_str("0 0\n");
    text
}

/// A `side` x `side` room with about 12 % scattered single walls, the box in the top-left
/// quarter and the target in the bottom-right one, ending with `0 0`.
pub fn big_room(seed: u64, side: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let side = side.max(4);
    let mut board = Board::filled(side, side, b'.');
    for row in &mut board.rows {
        for byte in row.iter_mut() {
            if rng.percent(12) {
                *byte = b'#';
            }
        }
    }
    let quarter = |r0: usize, c0: usize| -> Vec<(usize, usize)> {
        (r0..r0 + side / 2)
            .flat_map(|r| (c0..c0 + side / 2).map(move |c| (r, c)))
            .collect()
    };
    let half = side / 2;
    let (top_left, bottom_right) = (quarter(0, 0), quarter(half, half));
    let all = board.floor_cells();
    for (cells, marker) in [(&top_left, b'B'), (&bottom_right, b'T'), (&all, b'S')] {
        board.place(&mut rng, cells, marker);
    }
    let mut text = board.text();
    text.push_str("0 0\n");
    text
}

/// A ladder: two rails two cells wide down the left and right edges, joined by one-cell
/// rungs every fourth row. Box and target sit in rungs far apart. Every turn of the box
/// from a rung onto a rail makes the person walk around through another rung, across the
/// whole grid. Ends with `0 0`.
pub fn ladder(seed: u64, side: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let side = side.max(12);
    let mut board = Board::filled(side, side, b'#');
    for r in 1..side - 1 {
        for c in [1, 2, side - 3, side - 2] {
            board.rows[r][c] = b'.';
        }
    }
    let rungs: Vec<usize> = (1..side - 1).step_by(4).collect();
    for &r in &rungs {
        for c in 1..side - 1 {
            board.rows[r][c] = b'.';
        }
    }
    let inner = |rows: &[usize]| -> Vec<(usize, usize)> {
        rows.iter()
            .flat_map(|&r| (4..side - 4).map(move |c| (r, c)))
            .collect()
    };
    let half = rungs.len() / 2;
    let (upper, lower) = (inner(&rungs[..half.max(1)]), inner(&rungs[half..]));
    let all = board.floor_cells();
    for (cells, marker) in [(&upper, b'B'), (&lower, b'T'), (&all, b'S')] {
        board.place(&mut rng, cells, marker);
    }
    let mut text = board.text();
    text.push_str("0 0\n");
    text
}

/// A room like [`big_room`] whose target sits behind a bend of a one-cell corridor in the
/// bottom-right corner: the person can walk onto it, the box can never be pushed there.
/// Ends with `0 0`.
pub fn unsolvable(seed: u64, side: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let side = side.max(6);
    let mut board = Board::filled(side, side, b'.');
    for row in &mut board.rows {
        for byte in row.iter_mut() {
            if rng.percent(12) {
                *byte = b'#';
            }
        }
    }
    let (last, before) = (side - 1, side - 2);
    // The pocket: (before, before) -> (before, last) -> down to the target (last, last).
    for (r, c) in [(last - 2, last), (last, before), (last - 2, before)] {
        board.rows[r][c] = b'#';
    }
    for (r, c) in [(before, before), (before, last), (before, before - 1)] {
        board.rows[r][c] = b'.';
    }
    board.rows[last][last] = b'T';
    let all = board.floor_cells();
    let room: Vec<(usize, usize)> = all
        .iter()
        .copied()
        .filter(|&(r, c)| r < side - 3 || c < side - 3)
        .collect();
    board.place(&mut rng, &room, b'B');
    board.place(&mut rng, &room, b'S');
    let mut text = board.text();
    text.push_str("0 0\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_inputs_parse() {
        for text in [
            open_rooms(1, 20, 20),
            big_room(2, 128),
            ladder(3, 128),
            unsolvable(4, 128),
        ] {
            let mazes = crate::internals::parse_all(&text, crate::DEFAULT_MAX_CELLS).unwrap();
            assert!(!mazes.is_empty());
        }
    }

    #[test]
    fn unsolvable_is_unsolvable() {
        for seed in 0..5 {
            let mazes =
                crate::internals::parse_all(&unsolvable(seed, 40), crate::DEFAULT_MAX_CELLS)
                    .unwrap();
            assert_eq!(crate::search::Solver::new().solve(&mazes[0]), None);
        }
    }
}

//! Compact numbering of a grid's passable cells, with coordinates, directions and a
//! neighbour table.
//!
//! Searches index their tables by [`CellId`] (0..cell_count, in reading order) instead of
//! by `row * width + col`, so walls cost nothing and state spaces stay dense.

use crate::reader::CharGrid;

/// A passable cell, numbered 0.. in reading order (row by row, left to right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellId(u32);

impl CellId {
    /// The cell numbered `index`.
    #[inline]
    pub fn new(index: usize) -> Self {
        debug_assert!(index < u32::MAX as usize);
        CellId(index as u32)
    }

    /// Its number, for indexing tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One of the four moves, in the order the specs rank them: North < South < West < East.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Up: row - 1.
    North,
    /// Down: row + 1.
    South,
    /// Left: column - 1.
    West,
    /// Right: column + 1.
    East,
}

impl Dir {
    /// All four, in rank order N, S, W, E.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::West, Dir::East];

    /// Position in [`Dir::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction pointing back.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
            Dir::East => Dir::West,
        }
    }

    /// The letter of a walk in this direction: `n s w e`.
    pub fn walk_letter(self) -> char {
        b"nswe"[self.index()] as char
    }

    /// The letter of a push in this direction: `N S W E`.
    pub fn push_letter(self) -> char {
        b"NSWE"[self.index()] as char
    }

    /// The direction and whether it is a push, from a move letter (`nswe` / `NSWE`).
    pub fn from_letter(letter: char) -> Option<(Dir, bool)> {
        let dir = match letter.to_ascii_lowercase() {
            'n' => Dir::North,
            's' => Dir::South,
            'w' => Dir::West,
            'e' => Dir::East,
            _ => return None,
        };
        Some((dir, letter.is_ascii_uppercase()))
    }

    /// The `(row, col)` step of this direction.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::North => (-1, 0),
            Dir::South => (1, 0),
            Dir::West => (0, -1),
            Dir::East => (0, 1),
        }
    }
}

/// Why a `(row, col)` given in code does not name a floor cell of a [`Grid`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// The coordinates are past the grid's edge.
    #[error("({row}, {col}) is outside the {height} x {width} grid")]
    Outside {
        /// 0-based row asked for.
        row: usize,
        /// 0-based column asked for.
        col: usize,
        /// Rows of the grid.
        height: usize,
        /// Columns of the grid.
        width: usize,
    },
    /// The cell is a wall.
    #[error("({row}, {col}) is a wall")]
    Wall {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
}

/// The eight positions round a cell, clockwise from north, as (row, column) offsets: the
/// four sides at the even places (north, east, south, west), the corners between them,
/// each a side's step from the one before.
pub const AROUND: [(isize, isize); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// Marks "no cell" in the packed tables.
const NONE: u32 = u32::MAX;

/// The passable cells of a rectangular grid and how they connect. Outside the grid is wall.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    height: usize,
    width: usize,
    /// Row-major: the cell number, or `NONE` for a wall.
    cell_at: Vec<u32>,
    /// Per cell: (row, col).
    position: Vec<(u32, u32)>,
    /// Per cell, per [`Dir`]: the neighbouring cell, or `NONE`.
    neighbours: Vec<[u32; 4]>,
}

impl Grid {
    /// Numbers the cells for which `is_open(row, col)` holds.
    ///
    /// # Complexity
    /// O(height x width) time and memory.
    pub fn new(height: usize, width: usize, mut is_open: impl FnMut(usize, usize) -> bool) -> Self {
        let mut cell_at = vec![NONE; height * width];
        let mut position = Vec::new();
        for row in 0..height {
            for col in 0..width {
                if is_open(row, col) {
                    cell_at[row * width + col] = position.len() as u32;
                    position.push((row as u32, col as u32));
                }
            }
        }
        let mut grid = Grid {
            height,
            width,
            cell_at,
            position,
            neighbours: Vec::new(),
        };
        grid.neighbours = (0..grid.position.len())
            .map(|i| {
                let (row, col) = grid.position[i];
                Dir::ALL.map(|dir| {
                    grid.step(row as usize, col as usize, dir)
                        .map_or(NONE, |(r, c)| grid.cell_at[r * width + c])
                })
            })
            .collect();
        grid
    }

    /// Numbers the cells of `chars` whose byte satisfies `is_open`.
    pub fn from_chars(chars: &CharGrid, is_open: impl Fn(u8) -> bool) -> Self {
        Grid::new(chars.height(), chars.width(), |r, c| {
            is_open(chars.byte(r, c))
        })
    }

    /// `(row, col)` one step in `dir`, if it is inside the grid.
    fn step(&self, row: usize, col: usize, dir: Dir) -> Option<(usize, usize)> {
        let (dr, dc) = dir.delta();
        let r = row.checked_add_signed(dr)?;
        let c = col.checked_add_signed(dc)?;
        (r < self.height && c < self.width).then_some((r, c))
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of passable cells.
    pub fn cell_count(&self) -> usize {
        self.position.len()
    }

    /// All passable cells, in reading order.
    pub fn cells(&self) -> impl Iterator<Item = CellId> + use<> {
        (0..self.position.len()).map(CellId::new)
    }

    /// The passable cell at `row`, `col`, if any (`None` for walls and outside).
    pub fn cell(&self, row: usize, col: usize) -> Option<CellId> {
        if row >= self.height || col >= self.width {
            return None;
        }
        let id = self.cell_at[row * self.width + col];
        (id != NONE).then_some(CellId(id))
    }

    /// The floor cell at `row`, `col`, for the validating constructors of the problem
    /// types, which take coordinates.
    ///
    /// # Errors
    /// [`CellError::Outside`] past the grid's edge, [`CellError::Wall`] on a wall.
    ///
    /// # Examples
    /// ```
    /// use grid_core::{CellError, Grid};
    ///
    /// let grid = Grid::new(1, 3, |_, col| col != 1); // ". # ."
    /// assert_eq!(grid.floor_cell(0, 2).map(|c| c.index()), Ok(1));
    /// assert_eq!(grid.floor_cell(0, 1), Err(CellError::Wall { row: 0, col: 1 }));
    /// assert!(matches!(grid.floor_cell(5, 0), Err(CellError::Outside { .. })));
    /// ```
    pub fn floor_cell(&self, row: usize, col: usize) -> Result<CellId, CellError> {
        if row >= self.height || col >= self.width {
            return Err(CellError::Outside {
                row,
                col,
                height: self.height,
                width: self.width,
            });
        }
        self.cell(row, col).ok_or(CellError::Wall { row, col })
    }

    /// The passable cells round `cell`, clockwise from north as in [`AROUND`] (`None` for
    /// a wall or outside the grid).
    ///
    /// # Examples
    /// ```
    /// use grid_core::Grid;
    ///
    /// let grid = Grid::new(3, 3, |row, col| (row, col) != (0, 0)); // a wall top left
    /// let centre = grid.cell(1, 1).unwrap();
    /// let around = grid.around(centre);
    /// assert_eq!(around[0], grid.cell(0, 1)); // north
    /// assert_eq!(around[7], None); // north-west, the wall
    /// ```
    pub fn around(&self, cell: CellId) -> [Option<CellId>; 8] {
        let (row, col) = self.position(cell);
        AROUND.map(|(dr, dc)| {
            let (r, c) = (row.checked_add_signed(dr)?, col.checked_add_signed(dc)?);
            self.cell(r, c)
        })
    }

    /// `(row, col)` of `cell`, 0-based.
    pub fn position(&self, cell: CellId) -> (usize, usize) {
        let (row, col) = self.position[cell.index()];
        (row as usize, col as usize)
    }

    /// The passable neighbour of `cell` in `dir`, if any.
    #[inline]
    pub fn neighbour(&self, cell: CellId, dir: Dir) -> Option<CellId> {
        let id = self.neighbours[cell.index()][dir.index()];
        (id != NONE).then_some(CellId(id))
    }

    /// The passable neighbours of `cell` with their directions, in N, S, W, E order.
    #[inline]
    pub fn neighbours(&self, cell: CellId) -> impl Iterator<Item = (Dir, CellId)> + '_ {
        let row = &self.neighbours[cell.index()];
        Dir::ALL.into_iter().filter_map(move |dir| {
            (row[dir.index()] != NONE).then_some((dir, CellId(row[dir.index()])))
        })
    }

    /// The lines through `cell` along which a box on it can be pushed: per direction (N,
    /// S, W, E order), the square the box goes to and the square behind it where the
    /// pusher stands, both passable.
    #[inline]
    pub fn push_lines(&self, cell: CellId) -> impl Iterator<Item = (Dir, CellId, CellId)> + '_ {
        let row = &self.neighbours[cell.index()];
        Dir::ALL.into_iter().filter_map(move |dir| {
            let (to, behind) = (row[dir.index()], row[dir.opposite().index()]);
            (to != NONE && behind != NONE).then_some((dir, CellId(to), CellId(behind)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_and_neighbours() {
        let rows = ["#.#", "...", "#.#"];
        let grid = Grid::new(3, 3, |r, c| rows[r].as_bytes()[c] == b'.');
        assert_eq!(grid.cell_count(), 5);
        let centre = grid.cell(1, 1).unwrap();
        assert_eq!(centre.index(), 2);
        assert_eq!(grid.position(centre), (1, 1));
        let around: Vec<_> = grid
            .neighbours(centre)
            .map(|(d, c)| (d, grid.position(c)))
            .collect();
        assert_eq!(
            around,
            [
                (Dir::North, (0, 1)),
                (Dir::South, (2, 1)),
                (Dir::West, (1, 0)),
                (Dir::East, (1, 2))
            ]
        );
        let top = grid.cell(0, 1).unwrap();
        assert_eq!(
            grid.neighbour(top, Dir::North),
            None,
            "outside the grid is wall"
        );
        assert_eq!(grid.neighbour(top, Dir::West), None);
        assert_eq!(grid.cell(0, 0), None);
        assert_eq!(grid.cell(9, 0), None);
    }

    /// A box on the centre of a plus can be pushed along both lines; on an arm's end,
    /// along none (the square behind it is outside); on the centre of a corner, along none.
    #[test]
    fn push_lines_need_both_squares() {
        let rows = ["#.#", "...", "#.#"];
        let grid = Grid::new(3, 3, |r, c| rows[r].as_bytes()[c] == b'.');
        let at = |r, c| grid.cell(r, c).unwrap();
        let lines: Vec<_> = grid
            .push_lines(at(1, 1))
            .map(|(d, to, behind)| (d, grid.position(to), grid.position(behind)))
            .collect();
        assert_eq!(
            lines,
            [
                (Dir::North, (0, 1), (2, 1)),
                (Dir::South, (2, 1), (0, 1)),
                (Dir::West, (1, 0), (1, 2)),
                (Dir::East, (1, 2), (1, 0))
            ]
        );
        assert_eq!(grid.push_lines(at(0, 1)).count(), 0);
        let corner = ["..", ".#"];
        let grid = Grid::new(2, 2, |r, c| corner[r].as_bytes()[c] == b'.');
        assert_eq!(grid.push_lines(grid.cell(0, 0).unwrap()).count(), 0);
    }

    #[test]
    fn letters_round_trip() {
        for dir in Dir::ALL {
            assert_eq!(Dir::from_letter(dir.walk_letter()), Some((dir, false)));
            assert_eq!(Dir::from_letter(dir.push_letter()), Some((dir, true)));
            assert_eq!(dir.opposite().opposite(), dir);
        }
        assert_eq!(Dir::from_letter('x'), None);
        assert!(Dir::North < Dir::South && Dir::South < Dir::West && Dir::West < Dir::East);
    }
}

//! Lower bounds on the steps still needed: exact distances home for each ghost alone, and
//! for pairs of ghosts together.
//!
//! Why pairs: with one-ghost distances the bound ignores that ghosts block each other, and
//! on dense maps the search then wanders; the exact two-ghost distance (a breadth-first
//! search over C x C pair placements, once per pair) sees corridors that two ghosts must
//! share. Both bounds are consistent: the projection of a legal step onto one ghost or
//! one pair is a legal step of that smaller problem, so the bound drops by at most one per
//! step, and the maximum of consistent bounds is consistent.

use grid_core::UNREACHABLE;
use grid_core::{CellId, Grid};

use crate::moves::Options;

/// "Never": a placement from which this part of the problem cannot be solved. The
/// workspace's one "unreachable" sentinel, so that a one-ghost distance passes through
/// unchanged ([`Heuristic::single`]).
pub const NEVER: u32 = UNREACHABLE;

/// Distances of a pair placement that cannot reach home, in a [`PairTable`].
const PAIR_NEVER: u16 = u16::MAX;

/// Exact steps for ghosts `first` and `second`, alone on the map, to reach their homes
/// from every placement `(a, b)`, at index `a * C + b`.
#[derive(Debug, Clone)]
pub struct PairTable {
    first: usize,
    second: usize,
    cells: usize,
    dist: Vec<u16>,
}

/// The cells of a map as bits, laid out row by row with one padding column, so that a
/// set of cells moves one step in every direction by shifting words: +-1 for west and east
/// (the padding column stops a row from leaking into the next), +-stride for north and
/// south.
#[derive(Debug, Clone)]
pub struct CellBits {
    /// Bits per row (width + 1).
    stride: usize,
    /// 64-bit words per set.
    words: usize,
    /// Bit of each cell.
    bit_of: Vec<u32>,
    /// Cell of each bit (`u32::MAX` for walls and padding).
    cell_of: Vec<u32>,
    /// The set of all cells.
    open: Vec<u64>,
}

/// See [`CellBits::dense`].
fn dense(words: usize, cells: usize) -> bool {
    12 * words <= cells
}

/// Scratch bytes of the bit-parallel pair search: three sets of `words` words per cell,
/// one more set, and per cell a flag and three list entries.
fn bit_parallel_scratch(words: usize, cells: usize) -> u64 {
    let (words, cells) = (words as u64, cells as u64);
    3 * cells * words * 8 + words * 8 + cells * 13
}

impl CellBits {
    /// The layout of `grid`'s cells, over the smallest rectangle that holds them all (a
    /// small room in a large walled map costs the room, not the map).
    ///
    /// # Complexity
    /// O(C + height x width / 64) time for C cells (the bits of the rectangle, which is at
    /// most the map).
    pub fn new(grid: &Grid) -> Self {
        let (rows, cols) = Self::extent(grid);
        let (top, left) = (rows.start, cols.start);
        let stride = cols.len() + 1;
        let bits = rows.len() * stride;
        let words = bits.div_ceil(64).max(1);
        let mut bit_of = vec![0; grid.cell_count()];
        let mut cell_of = vec![u32::MAX; words * 64];
        let mut open = vec![0u64; words];
        for cell in grid.cells() {
            let (row, col) = grid.position(cell);
            let bit = (row - top) * stride + (col - left);
            bit_of[cell.index()] = bit as u32;
            cell_of[bit] = cell.index() as u32;
            open[bit / 64] |= 1 << (bit % 64);
        }
        CellBits {
            stride,
            words,
            bit_of,
            cell_of,
            open,
        }
    }

    /// The rows and columns of the smallest rectangle holding every cell of `grid`.
    fn extent(grid: &Grid) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let (mut rows, mut cols) = ((usize::MAX, 0), (usize::MAX, 0));
        for cell in grid.cells() {
            let (row, col) = grid.position(cell);
            rows = (rows.0.min(row), rows.1.max(row + 1));
            cols = (cols.0.min(col), cols.1.max(col + 1));
        }
        if rows.0 == usize::MAX {
            return (0..0, 0..0);
        }
        (rows.0..rows.1, cols.0..cols.1)
    }

    /// 64-bit words a set of `grid`'s layout takes, before it is built.
    fn words_for(grid: &Grid) -> usize {
        let (rows, cols) = Self::extent(grid);
        (rows.len() * (cols.len() + 1)).div_ceil(64).max(1)
    }

    /// Bytes of memory the layout of `grid` holds, before it is built.
    pub fn bytes_for(grid: &Grid) -> u64 {
        grid.cell_count() as u64 * 4 + Self::words_for(grid) as u64 * (64 * 4 + 8)
    }

    /// Whether the bit-parallel pair search pays on this layout: its three sets per cell
    /// of the first ghost (24 C W bytes for W words a set) take at most the table itself
    /// (2 C^2 bytes). On sparse layouts (a long corridor winding through a large map) the
    /// sets would be mostly walls, and the plain search sized by the cells runs instead.
    fn dense(&self) -> bool {
        dense(self.words, self.bit_of.len())
    }

    fn has(&self, set: &[u64], cell: u32) -> bool {
        let bit = self.bit_of[cell as usize] as usize;
        set[bit / 64] >> (bit % 64) & 1 == 1
    }

    fn clear(&self, set: &mut [u64], cell: u32) {
        let bit = self.bit_of[cell as usize] as usize;
        set[bit / 64] &= !(1 << (bit % 64));
    }

    /// `out` = the cells of `set` and their neighbours.
    fn dilate(&self, set: &[u64], out: &mut [u64]) {
        if self.stride < 64 {
            // Rows shorter than a word: every shift borrows only from the next word over.
            let k = self.stride as u32;
            let last = set.len() - 1;
            for (i, (out, &open)) in out.iter_mut().zip(&self.open).enumerate() {
                let here = set[i];
                let below = if i > 0 { set[i - 1] } else { 0 };
                let above = if i < last { set[i + 1] } else { 0 };
                let east = here << 1 | below >> 63;
                let west = here >> 1 | above << 63;
                let south = here << k | below >> (64 - k);
                let north = here >> k | above << (64 - k);
                *out = (here | east | west | south | north) & open;
            }
            return;
        }
        out.copy_from_slice(set);
        for (shift, up) in [
            (1, true),
            (1, false),
            (self.stride, true),
            (self.stride, false),
        ] {
            let (word, bit) = (shift / 64, shift % 64);
            for (i, out) in out.iter_mut().enumerate() {
                // Bit k of the shifted set is bit k - shift (up) or k + shift (down) of `set`.
                let moved = if up {
                    let low = i.checked_sub(word).map_or(0, |j| set[j] << bit);
                    let carry = match (i.checked_sub(word + 1), bit) {
                        (Some(j), 1..) => set[j] >> (64 - bit),
                        _ => 0,
                    };
                    low | carry
                } else {
                    let high = set.get(i + word).map_or(0, |&w| w >> bit);
                    let carry = match (set.get(i + word + 1), bit) {
                        (Some(&w), 1..) => w << (64 - bit),
                        _ => 0,
                    };
                    high | carry
                };
                *out |= moved;
            }
        }
        for (o, &open) in out.iter_mut().zip(&self.open) {
            *o &= open;
        }
    }
}

impl PairTable {
    /// Bytes the table of a pair needs on `cells` cells (2 C^2).
    pub fn table_bytes(cells: usize) -> u64 {
        2 * (cells as u64).saturating_pow(2)
    }

    /// Bytes of scratch memory the bit-parallel search needs while it builds one table
    /// on layout `bits` (three sets per cell and small lists); 0 when the layout is
    /// sparse, where the plain search counts its queue as it goes ([`PairTable::new`]).
    /// The budget is checked against it in [`Heuristic::add_pairs`]; the tests compare it
    /// with what the search takes.
    #[cfg(test)]
    pub fn scratch_bytes(bits: &CellBits) -> u64 {
        if bits.dense() {
            bit_parallel_scratch(bits.words, bits.bit_of.len())
        } else {
            0
        }
    }

    /// The exact distances of the pair: bit-parallel on a dense layout, else a plain
    /// layered search with at most `queue_bytes` bytes of scratch for the plain
    /// search; `None` when that search would need more.
    pub fn new(
        bits: &CellBits,
        options: &Options,
        first: usize,
        second: usize,
        homes: (u32, u32),
        queue_bytes: u64,
    ) -> Option<Self> {
        if bits.dense() {
            Some(Self::bit_parallel(bits, options, first, second, homes))
        } else {
            Self::plain(
                options,
                bits.bit_of.len(),
                (first, second),
                homes,
                queue_bytes,
            )
        }
    }

    /// Breadth-first search over pair placements, one layer at a time, each layer a list
    /// of placements `a * C + b`, with 25 checks per placement: for sparse layouts, where
    /// its memory (the table and two layers) follows the cells, not the map's area.
    ///
    /// # Complexity
    /// O(25 C^2) time; 2 C^2 bytes for the table plus 4 bytes per placement of the two
    /// largest consecutive layers, at most `queue_bytes` (`None` beyond).
    fn plain(
        options: &Options,
        cells: usize,
        (first, second): (usize, usize),
        homes: (u32, u32),
        queue_bytes: u64,
    ) -> Option<Self> {
        let index = |a: u32, b: u32| a as usize * cells + b as usize;
        // Placements a * C + b must fit in u32.
        if (cells as u64).saturating_pow(2) > u64::from(u32::MAX) {
            return None;
        }
        let cells32 = cells as u32;
        let mut dist = vec![PAIR_NEVER; cells * cells];
        let (mut layer, mut next): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        dist[index(homes.0, homes.1)] = 0;
        layer.push(homes.0 * cells32 + homes.1);
        let mut steps: u16 = 0;
        while !layer.is_empty() {
            steps = steps.saturating_add(1).min(PAIR_NEVER - 1);
            for &placement in &layer {
                let (a, b) = (placement / cells32, placement % cells32);
                for &a2 in options.of(a) {
                    for &b2 in options.of(b) {
                        let slot = &mut dist[index(a2, b2)];
                        if *slot == PAIR_NEVER && crate::moves::compatible(a, b, a2, b2) {
                            *slot = steps;
                            if next.len() == next.capacity() {
                                // Growth copies: the old and the new buffer at once.
                                let after = (next.capacity() * 3).max(64) + layer.capacity();
                                if after as u64 * 4 > queue_bytes {
                                    return None;
                                }
                            }
                            next.push(a2 * cells32 + b2);
                        }
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next);
            next.clear();
        }
        Some(PairTable {
            first,
            second,
            cells,
            dist,
        })
    }

    /// Breadth-first search from the pair's homes over all C x C placements, one layer at
    /// a time and bit-parallel: for each cell `a` of the first ghost, the set of cells of
    /// the second is a bit set, and one step of the second ghost is a shift of that set
    /// ([`CellBits`]). Steps are reversible (the reverse of a legal step is legal), so
    /// distances from the homes are distances to them.
    ///
    /// Why bit-parallel: the plain search makes 25 checks per placement (about 2 M
    /// instructions for the 110-cell maps of the bench); here a layer costs a few word
    /// operations per cell of the first ghost, several times less, which lets the search
    /// switch to pair bounds early.
    ///
    /// # Complexity
    /// O(D x C x (W + 5)) word operations for D layers and W words per set, plus O(C^2) to
    /// write the table; 2 C^2 bytes for the table and [`bit_parallel_scratch`] while
    /// it runs.
    fn bit_parallel(
        bits: &CellBits,
        options: &Options,
        first: usize,
        second: usize,
        homes: (u32, u32),
    ) -> Self {
        let cells = bits.bit_of.len();
        let words = bits.words;
        let mut dist = vec![PAIR_NEVER; cells * cells];
        let mut frontier = vec![0u64; cells * words];
        let mut visited = vec![0u64; cells * words];
        let mut next = vec![0u64; cells * words];
        let mut reach = vec![0u64; words];
        let (ha, hb) = homes;
        let row = |a: u32| a as usize * words..(a as usize + 1) * words;
        let bit = bits.bit_of[hb as usize] as usize;
        frontier[row(ha)][bit / 64] |= 1 << (bit % 64);
        visited[row(ha)][bit / 64] |= 1 << (bit % 64);
        dist[ha as usize * cells + hb as usize] = 0;
        let mut layer: u16 = 0;
        // Each list holds distinct rows, at most one per cell: sized once (the scratch
        // counts them), they never grow (growing them layer by layer was 2 % of the
        // dense bench's instructions).
        let mut active: Vec<u32> = Vec::with_capacity(cells);
        active.push(ha);
        let mut previous: Vec<u32> = Vec::with_capacity(cells);
        let mut touched: Vec<u32> = Vec::with_capacity(cells);
        let mut in_touched = vec![false; cells];
        while !active.is_empty() {
            layer = layer.saturating_add(1).min(PAIR_NEVER - 1);
            for &a in &active {
                let here = &frontier[row(a)];
                bits.dilate(here, &mut reach);
                // The swap rule matters only when the second ghost sits on a neighbour
                // of `a`: from b = a2 it may not step onto a while the first ghost steps
                // onto b, unless another b of this row next to a gets there.
                let neighbours = &options.of(a)[1..];
                for &a2 in options.of(a) {
                    let swap_only = a2 != a
                        && bits.has(here, a2)
                        && !neighbours.iter().any(|&b| b != a2 && bits.has(here, b));
                    let target = &mut next[row(a2)];
                    let had_a = bits.has(target, a);
                    for (t, &r) in target.iter_mut().zip(&reach) {
                        *t |= r;
                    }
                    if swap_only && !had_a {
                        bits.clear(target, a);
                    }
                    // The second ghost may not end on the first one's cell (no row ever
                    // sets that bit legitimately, so clearing it after the union is safe).
                    bits.clear(target, a2);
                    if !in_touched[a2 as usize] {
                        in_touched[a2 as usize] = true;
                        touched.push(a2);
                    }
                }
            }
            // Only rows that received bits this layer can hold new placements.
            std::mem::swap(&mut previous, &mut active);
            active.clear();
            for &a in &touched {
                let (fresh, seen) = (&mut next[row(a)], &mut visited[row(a)]);
                let mut any = 0;
                for (f, s) in fresh.iter_mut().zip(seen.iter_mut()) {
                    *f &= !*s;
                    *s |= *f;
                    any |= *f;
                }
                if any == 0 {
                    continue;
                }
                active.push(a);
                for (w, &word) in fresh.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        let b = bits.cell_of[w * 64 + word.trailing_zeros() as usize];
                        dist[a as usize * cells + b as usize] = layer;
                        word &= word - 1;
                    }
                }
            }
            // (A touched row that gained nothing new was masked to zero above.)
            for &a in &touched {
                in_touched[a as usize] = false;
            }
            touched.clear();
            std::mem::swap(&mut frontier, &mut next);
            // The old frontier's rows are the only ones to clear for the next layer.
            for &a in &previous {
                next[row(a)].fill(0);
            }
        }
        PairTable {
            first,
            second,
            cells,
            dist,
        }
    }

    /// Steps for the pair from the placement in `positions`, or [`NEVER`].
    #[inline]
    pub fn get(&self, positions: &[u32]) -> u32 {
        let d = self.dist
            [positions[self.first] as usize * self.cells + positions[self.second] as usize];
        if d == PAIR_NEVER { NEVER } else { u32::from(d) }
    }
}

/// Memory of the pair tables of a dataset (see [`Heuristic::pair_bytes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairBytes {
    /// The tables, kept while the search runs.
    pub tables: u64,
    /// What building them holds besides, at its peak (layout and scratch).
    pub building: u64,
}

/// The bound used by the search: the largest of the one-ghost and pair distances it holds.
#[derive(Debug, Clone)]
pub struct Heuristic {
    /// Per ghost, per cell: steps home alone ([`UNREACHABLE`] where there is no way).
    singles: Vec<Vec<u32>>,
    pairs: Vec<PairTable>,
}

impl Heuristic {
    /// One-ghost distances only.
    ///
    /// # Complexity
    /// O(n x C).
    pub fn singles(grid: &Grid, homes: &[CellId]) -> Self {
        let singles = homes
            .iter()
            .map(|&home| grid.distances(home, None))
            .collect();
        Heuristic {
            singles,
            pairs: Vec::new(),
        }
    }

    /// Bytes [`Heuristic::add_pairs`] holds for `ghosts` ghosts on `grid`: the tables it
    /// keeps, and at its peak the layout and one table's scratch besides.
    pub fn pair_bytes(grid: &Grid, ghosts: usize) -> PairBytes {
        let pairs = (ghosts * ghosts.saturating_sub(1) / 2) as u64;
        let tables = pairs.saturating_mul(PairTable::table_bytes(grid.cell_count()));
        let (words, cells) = (CellBits::words_for(grid), grid.cell_count());
        let scratch = if dense(words, cells) {
            bit_parallel_scratch(words, cells)
        } else {
            0
        };
        PairBytes {
            tables,
            building: CellBits::bytes_for(grid) + scratch,
        }
    }

    /// Adds the exact pair distances of every pair of ghosts, with at most `scratch_bytes`
    /// bytes beside the tables while they are built; false (and no pairs) when the plain
    /// search of a sparse layout would need more.
    ///
    /// # Complexity
    /// n^2 / 2 pair tables, see [`PairTable::new`].
    pub fn add_pairs(
        &mut self,
        grid: &Grid,
        options: &Options,
        homes: &[CellId],
        scratch_bytes: u64,
    ) -> bool {
        let bits = CellBits::new(grid);
        let queue_bytes = scratch_bytes.saturating_sub(CellBits::bytes_for(grid));
        for j in 1..homes.len() {
            for i in 0..j {
                let pair = (homes[i].index() as u32, homes[j].index() as u32);
                match PairTable::new(&bits, options, i, j, pair, queue_bytes) {
                    Some(table) => self.pairs.push(table),
                    None => {
                        self.pairs = Vec::new();
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Steps for ghost `ghost` alone from `cell` to its home, or [`NEVER`].
    #[inline]
    pub fn single(&self, ghost: usize, cell: u32) -> u32 {
        // UNREACHABLE and NEVER are one constant.
        self.singles[ghost][cell as usize]
    }

    /// Whether pair distances are in use.
    pub fn has_pairs(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// A lower bound on the steps from `positions` to all homes, or [`NEVER`] when some
    /// ghost or pair can never get home from there.
    #[inline]
    pub fn estimate(&self, positions: &[u32]) -> u32 {
        let mut bound = 0;
        if self.pairs.is_empty() {
            for (dist, &p) in self.singles.iter().zip(positions) {
                let d = dist[p as usize];
                if d == UNREACHABLE {
                    return NEVER;
                }
                bound = bound.max(d);
            }
        } else {
            // Every ghost is in some pair, and a pair distance is at least each single.
            for pair in &self.pairs {
                bound = bound.max(pair.get(positions));
            }
        }
        bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::compatible;
    use grid_core::rng::SplitMix64;

    /// The obvious pair search: a queue of placements, 25 checks each.
    fn plain_pair_distances(options: &Options, cells: usize, homes: (u32, u32)) -> Vec<u16> {
        let mut dist = vec![PAIR_NEVER; cells * cells];
        let mut queue = std::collections::VecDeque::new();
        dist[homes.0 as usize * cells + homes.1 as usize] = 0;
        queue.push_back(homes);
        while let Some((a, b)) = queue.pop_front() {
            let next = dist[a as usize * cells + b as usize] + 1;
            for &a2 in options.of(a) {
                for &b2 in options.of(b) {
                    let slot = &mut dist[a2 as usize * cells + b2 as usize];
                    if compatible(a, b, a2, b2) && *slot == PAIR_NEVER {
                        *slot = next;
                        queue.push_back((a2, b2));
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn bit_parallel_pair_search_equals_the_plain_one() {
        let mut rng = SplitMix64::new(31);
        let mut compared = 0;
        while compared < 300 {
            // Widths around 63 and 64 put rows across word boundaries.
            let (height, width) = [
                (rng.between(1, 7), rng.between(1, 9)),
                (rng.between(2, 4), rng.between(60, 70)),
            ][compared % 2];
            let walls = [0, 15, 30][compared % 3];
            let grid = test_support::random_grid(&mut rng, height, width, walls);
            if grid.cell_count() < 2 {
                continue;
            }
            let options = Options::new(&grid);
            let bits = CellBits::new(&grid);
            let a = rng.below(grid.cell_count()) as u32;
            let b = (a + 1 + rng.below(grid.cell_count() - 1) as u32) % grid.cell_count() as u32;
            let expected = plain_pair_distances(&options, grid.cell_count(), (a, b));
            let fast = PairTable::bit_parallel(&bits, &options, 0, 1, (a, b));
            assert_eq!(fast.dist, expected, "{height}x{width}");
            let layered = PairTable::plain(&options, grid.cell_count(), (0, 1), (a, b), u64::MAX)
                .expect("no queue limit");
            assert_eq!(layered.dist, expected, "{height}x{width}");
            compared += 1;
        }
    }

    /// A random room drawn at `(top, left)` inside a `size` x `size` map of walls.
    fn framed(rng: &mut SplitMix64, size: usize, top: usize, left: usize) -> Grid {
        let room = test_support::random_grid(rng, 6, 7, 20);
        Grid::new(size, size, |r, c| {
            r >= top
                && c >= left
                && r - top < 6
                && c - left < 7
                && room.cell(r - top, c - left).is_some()
        })
    }

    #[test]
    fn a_room_in_a_large_map_costs_the_room() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..50 {
            let (top, left) = (rng.below(90), rng.below(90));
            let grid = framed(&mut rng, 100, top, left);
            if grid.cell_count() < 2 {
                continue;
            }
            let bits = CellBits::new(&grid);
            // Six rows of eight bits (seven columns and the padding one) in one word.
            assert_eq!(bits.words, 1);
            assert!(bits.dense());
            assert_eq!(
                CellBits::bytes_for(&grid),
                grid.cell_count() as u64 * 4 + 264
            );
            let options = Options::new(&grid);
            let homes = (0, grid.cell_count() as u32 - 1);
            let table = PairTable::new(&bits, &options, 0, 1, homes, 0).expect("dense");
            assert_eq!(
                table.dist,
                plain_pair_distances(&options, grid.cell_count(), homes)
            );
        }
    }

    #[test]
    fn a_sparse_map_takes_the_plain_search_within_its_queue_bytes() {
        // Two corridors far apart, joined down the left side: a large box, few cells.
        let grid = Grid::new(200, 200, |r, c| r == 0 || r == 199 || c == 0);
        let bits = CellBits::new(&grid);
        assert!(!bits.dense());
        assert_eq!(PairTable::scratch_bytes(&bits), 0);
        let options = Options::new(&grid);
        let cells = grid.cell_count();
        let homes = (0, cells as u32 - 1);
        let table = PairTable::new(&bits, &options, 0, 1, homes, u64::MAX).expect("no limit");
        assert_eq!(table.dist, plain_pair_distances(&options, cells, homes));
        // Layers on a path are short: a few KiB of queue are enough, 64 bytes are not.
        assert!(PairTable::new(&bits, &options, 0, 1, homes, 64 << 10).is_some());
        assert!(PairTable::new(&bits, &options, 0, 1, homes, 64).is_none());
    }
}

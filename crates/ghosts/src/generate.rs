//! Seeded random datasets: carved maps that keep the statement's promises, and the
//! many-ghost layouts ([`Layout`]) that make ghosts get in each other's way.
//!
//! [`dataset`] carves maps with a wall border, connected corridors, connected walls and a
//! wall in every 2 x 2 square. Why carving: starting from solid wall and opening one cell
//! at a time next to the corridors keeps the corridors connected by construction; a cell
//! is opened only when the 2 x 2 rule still holds around it and the walls stay connected
//! without it. Both checks only get harder as more cells open, so a refused cell is never
//! tried again.
//!
//! [`layout_dataset`] draws the layouts for up to 26 ghosts, each built so that its
//! property holds by construction (the tests check it on the drawn maps):
//! - [`Layout::PillarRoom`]: an open room with single-cell pillars, symmetric through the
//!   centre; every home is the point reflection of its ghost's start, so all ghosts cross
//!   the middle of the room at once;
//! - [`Layout::Maze`]: a braided maze (a depth-first spanning tree of the odd cells, then a
//!   few extra openings that make loops); corridors one cell wide, ghosts anywhere;
//! - [`Layout::Pockets`] and [`Layout::BlockedPockets`]: one-wide corridors across the map,
//!   each its own component, with one-cell pockets beside them; in every corridor the
//!   homes lie in the reverse order of the starts, so every two ghosts of a corridor must
//!   pass each other, which only a pocket allows. A blocked dataset has one corridor
//!   without pockets that holds two ghosts or more: they can never change their order,
//!   so the answer is `-1`.

use bitvec::prelude::{BitSlice, BitVec, bitvec};
use grid_core::rng::SplitMix64;

/// How much of a map's inside becomes corridor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Density {
    /// About 55 % of the inside (16 x 16: about 105-110 corridor cells): large searches.
    Dense,
    /// About 35 % of the inside: narrow, maze-like maps.
    Sparse,
}

/// The shape of the datasets to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapSpec {
    /// Columns, including the wall border (at least 4).
    pub width: usize,
    /// Rows, including the wall border (at least 4).
    pub height: usize,
    /// Number of ghosts, 1 to 26.
    pub ghosts: usize,
    /// How open the map is.
    pub density: Density,
}

/// One dataset's text (header and rows) for `spec`, drawn from `rng`. Ghosts and homes go
/// on distinct random corridor cells; nothing promises that a solution exists. `None`
/// when the carved corridors have fewer than 2 x ghosts cells (or the map is below 4 x 4).
///
/// # Complexity
/// O((w x h)^2) for the wall-connectivity checks; fine for generation.
pub fn dataset(rng: &mut SplitMix64, spec: MapSpec) -> Option<String> {
    let MapSpec { width, height, .. } = spec;
    if width < 4 || height < 4 || spec.ghosts > 26 {
        return None;
    }
    let inside = (width - 2) * (height - 2);
    let percent = match spec.density {
        Density::Dense => 55,
        Density::Sparse => 35,
    };
    let target = (inside * percent / 100).max(2 * spec.ghosts);
    let mut open: BitVec = bitvec![0; width * height];
    let mut refused: BitVec = bitvec![0; width * height];
    let first = (rng.between(1, height - 2)) * width + rng.between(1, width - 2);
    open.set(first, true);
    let mut corridor = vec![first];
    while corridor.len() < target {
        let candidates: Vec<usize> = (0..width * height)
            .filter(|&i| !open[i] && !refused[i] && is_inside(i, width, height))
            .filter(|&i| neighbours(i, width).iter().any(|&n| open[n]))
            .collect();
        if candidates.is_empty() {
            break;
        }
        let cell = candidates[rng.below(candidates.len())];
        open.set(cell, true);
        if squares_keep_a_wall(&open, cell, width) && walls_connected(&open, width, height) {
            corridor.push(cell);
        } else {
            open.set(cell, false);
            refused.set(cell, true);
        }
    }
    if corridor.len() < 2 * spec.ghosts {
        return None;
    }
    rng.shuffle(&mut corridor);
    let mut chars: Vec<u8> = open.iter().map(|o| if *o { b' ' } else { b'#' }).collect();
    for g in 0..spec.ghosts {
        chars[corridor[2 * g]] = b'a' + g as u8;
        chars[corridor[2 * g + 1]] = b'A' + g as u8;
    }
    let mut text = format!("{width} {height} {}\n", spec.ghosts);
    for row in chars.chunks(width) {
        text.push_str(&String::from_utf8_lossy(row));
        text.push('\n');
    }
    Some(text)
}

/// How many draws [`datasets`] makes per dataset before it gives up on a spec.
const ATTEMPTS_PER_DATASET: usize = 200;

/// Which datasets [`datasets`] keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keep {
    /// Every dataset drawn, solvable or not.
    All,
    /// Only datasets whose fewest steps lie in this range (the baselines assume that a
    /// solution exists, and the bench wants a given difficulty).
    Answers(std::ops::RangeInclusive<u32>),
}

/// `count` datasets for `spec` from `seed`, ended by `0 0 0`; a dataset that `keep`
/// refuses is drawn again. An error says why when the spec cannot be met (the map too
/// small for its ghosts, or no answer in range after many draws).
pub fn datasets(seed: u64, count: usize, spec: MapSpec, keep: &Keep) -> Result<String, String> {
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    let mut made = 0;
    let mut attempts = 0;
    while made < count {
        attempts += 1;
        if attempts > ATTEMPTS_PER_DATASET * (made + 1) {
            let wanted = match keep {
                Keep::All => String::new(),
                Keep::Answers(range) => {
                    format!(" and an answer in {}..={}", range.start(), range.end())
                }
            };
            return Err(format!(
                "could not draw a {}x{} map with {} ghosts{wanted} in {ATTEMPTS_PER_DATASET} tries",
                spec.width, spec.height, spec.ghosts
            ));
        }
        let Some(one) = dataset(&mut rng, spec) else {
            continue;
        };
        if let Keep::Answers(range) = keep {
            if !fewest_steps(&one).is_some_and(|steps| range.contains(&steps)) {
                continue;
            }
        }
        text.push_str(&one);
        made += 1;
    }
    text.push_str("0 0 0\n");
    Ok(text)
}

/// The many-ghost layouts of [`layout_dataset`] (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// An open room with pillars, symmetric through the centre; every home is the point
    /// reflection of its start. Needs at least 5 x 5.
    PillarRoom,
    /// A braided maze of one-wide corridors, ghosts and homes on random cells. Needs at
    /// least 5 x 5.
    Maze,
    /// One-wide corridors with pockets, the homes of each corridor in the reverse order of
    /// its starts; solvable. Needs at least 7 x 5.
    Pockets,
    /// As [`Layout::Pockets`], but one corridor with two ghosts or more has no pocket: the
    /// answer is `-1`. Needs at least 7 x 5 and 2 ghosts.
    BlockedPockets,
}

/// The shape of a many-ghost dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutSpec {
    /// Columns, including the wall border.
    pub width: usize,
    /// Rows, including the wall border.
    pub height: usize,
    /// Number of ghosts, 1 to 26.
    pub ghosts: usize,
    /// The layout.
    pub layout: Layout,
}

/// Sides [`layout_dataset`] accepts at most: larger maps would be valid input, but the
/// layouts are meant for searches that finish.
pub const MAX_LAYOUT_SIDE: usize = 256;

/// Pillars: the chance that each candidate cell (both coordinates even) gets one.
const PILLAR_PERCENT: u32 = 40;

/// Mazes: the chance that a wall between two cells of the spanning tree is opened.
const BRAID_PERCENT: u32 = 12;

/// Pockets: the chance of a pocket beside each corridor cell that may have one.
const POCKET_PERCENT: u32 = 30;

/// One dataset's text for `spec`, drawn from `rng`; `None` when the spec is out of range
/// (see each [`Layout`]) or the map has no room for its ghosts. A pillar room whose
/// pillars happen to wall a cell in is drawn again inside.
///
/// # Complexity
/// O(w x h) per draw.
pub fn layout_dataset(rng: &mut SplitMix64, spec: LayoutSpec) -> Option<String> {
    let LayoutSpec {
        width,
        height,
        ghosts,
        layout,
    } = spec;
    if !(1..=26).contains(&ghosts) || width > MAX_LAYOUT_SIDE || height > MAX_LAYOUT_SIDE {
        return None;
    }
    let map = match layout {
        Layout::PillarRoom => pillar_room(rng, width, height, ghosts)?,
        Layout::Maze => maze(rng, width, height, ghosts)?,
        Layout::Pockets => pockets(rng, width, height, ghosts, false)?,
        Layout::BlockedPockets => pockets(rng, width, height, ghosts, true)?,
    };
    let mut text = format!("{width} {height} {ghosts}\n");
    for row in map.chunks(width) {
        text.push_str(&String::from_utf8_lossy(row));
        text.push('\n');
    }
    Some(text)
}

/// One dataset per spec of `specs`, all drawn from `seed`, ended by `0 0 0`. An error
/// names the first spec that cannot be met.
pub fn layout_datasets(seed: u64, specs: &[LayoutSpec]) -> Result<String, String> {
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    for spec in specs {
        let one = (0..ATTEMPTS_PER_DATASET)
            .find_map(|_| layout_dataset(&mut rng, *spec))
            .ok_or_else(|| {
                format!(
                    "could not draw a {}x{} {:?} map with {} ghosts",
                    spec.width, spec.height, spec.layout, spec.ghosts
                )
            })?;
        text.push_str(&one);
    }
    text.push_str("0 0 0\n");
    Ok(text)
}

/// A map of `width` x `height` cells, all wall on the border and `inside` within.
fn bordered(width: usize, height: usize, inside: u8) -> Vec<u8> {
    let mut map = vec![inside; width * height];
    for (i, cell) in map.iter_mut().enumerate() {
        if !is_inside(i, width, height) {
            *cell = b'#';
        }
    }
    map
}

/// Whether the corridors of `map` are one 4-connected piece (and there is one at all).
fn corridors_connected(map: &[u8], width: usize) -> bool {
    let Some(first) = map.iter().position(|&c| c != b'#') else {
        return false;
    };
    let mut seen = vec![false; map.len()];
    seen[first] = true;
    let mut stack = vec![first];
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        // Corridors never touch the outer edge here, so the four neighbours exist.
        for n in neighbours(i, width) {
            if map[n] != b'#' && !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    count == map.iter().filter(|&&c| c != b'#').count()
}

/// [`Layout::PillarRoom`]: pillars on even cells, each with its mirror image through the
/// centre; starts on cells whose mirror image is neither the cell itself nor taken.
fn pillar_room(
    rng: &mut SplitMix64,
    width: usize,
    height: usize,
    ghosts: usize,
) -> Option<Vec<u8>> {
    if width < 5 || height < 5 {
        return None;
    }
    let mut map = bordered(width, height, b' ');
    let last = width * height - 1;
    let mirror = |i: usize| last - i;
    for r in (2..height - 2).step_by(2) {
        for c in (2..width - 2).step_by(2) {
            if rng.percent(PILLAR_PERCENT) {
                let i = r * width + c;
                map[i] = b'#';
                map[mirror(i)] = b'#';
            }
        }
    }
    if !corridors_connected(&map, width) {
        return None;
    }
    let mut cells: Vec<usize> = (0..map.len())
        .filter(|&i| map[i] == b' ' && mirror(i) != i)
        .collect();
    rng.shuffle(&mut cells);
    let mut placed = 0;
    for i in cells {
        if placed == ghosts {
            break;
        }
        if map[i] == b' ' && map[mirror(i)] == b' ' {
            map[i] = b'a' + placed as u8;
            map[mirror(i)] = b'A' + placed as u8;
            placed += 1;
        }
    }
    (placed == ghosts).then_some(map)
}

/// [`Layout::Maze`]: a depth-first spanning tree over the cells with odd row and column,
/// then each remaining wall between two of them opened with [`BRAID_PERCENT`]. The cells
/// with even row and column stay wall, so every 2 x 2 square holds a wall.
fn maze(rng: &mut SplitMix64, width: usize, height: usize, ghosts: usize) -> Option<Vec<u8>> {
    if width < 5 || height < 5 {
        return None;
    }
    let (rows, cols) = ((height - 1) / 2, (width - 1) / 2);
    let at = |r: usize, c: usize| (2 * r + 1) * width + 2 * c + 1;
    let mut map = bordered(width, height, b'#');
    let mut visited = vec![false; rows * cols];
    let start = rng.below(rows * cols);
    visited[start] = true;
    map[at(start / cols, start % cols)] = b' ';
    let mut stack = vec![start];
    while let Some(&node) = stack.last() {
        let (r, c) = (node / cols, node % cols);
        let mut next = [None; 4];
        if r > 0 {
            next[0] = Some(node - cols);
        }
        if r + 1 < rows {
            next[1] = Some(node + cols);
        }
        if c > 0 {
            next[2] = Some(node - 1);
        }
        if c + 1 < cols {
            next[3] = Some(node + 1);
        }
        let fresh: Vec<usize> = next
            .into_iter()
            .flatten()
            .filter(|&n| !visited[n])
            .collect();
        if fresh.is_empty() {
            stack.pop();
            continue;
        }
        let n = fresh[rng.below(fresh.len())];
        visited[n] = true;
        let (a, b) = (at(r, c), at(n / cols, n % cols));
        map[(a + b) / 2] = b' ';
        map[b] = b' ';
        stack.push(n);
    }
    // Braiding: walls between two tree cells (odd row, even column or the reverse).
    for r in 1..height - 1 {
        for c in 1..width - 1 {
            let between = if r % 2 == 1 && c % 2 == 0 {
                c + 1 < 2 * cols + 1
            } else if r % 2 == 0 && c % 2 == 1 {
                r + 1 < 2 * rows + 1
            } else {
                false
            };
            if between && map[r * width + c] == b'#' && rng.percent(BRAID_PERCENT) {
                map[r * width + c] = b' ';
            }
        }
    }
    let mut cells: Vec<usize> = (0..map.len()).filter(|&i| map[i] == b' ').collect();
    if cells.len() < 2 * ghosts {
        return None;
    }
    rng.shuffle(&mut cells);
    for g in 0..ghosts {
        map[cells[2 * g]] = b'a' + g as u8;
        map[cells[2 * g + 1]] = b'A' + g as u8;
    }
    Some(map)
}

/// [`Layout::Pockets`] and [`Layout::BlockedPockets`]: corridors on rows 2, 6, 10, ...
/// from column 1 to `width - 2`, pockets on the rows next to them (so the pockets of two
/// corridors are a wall row apart), beside columns 2 to `width - 3` only and never
/// beside each other. A corridor of `L` cells takes at most `(L - 1) / 2` ghosts, starts
/// and homes on its own cells, homes in the reverse order of the starts.
///
/// Why the open corridors are solvable: each with `g` ghosts has a pocket at a column
/// with at least `g` corridor cells on either side. There any two ghosts next to each
/// other in the corridor's order trade places (the others wait towards the ends, one
/// ghost steps into the pocket, the other passes), and such trades reach every order.
/// A pocket nearer an end may not be enough: with one cell beyond it, three ghosts can
/// never reverse (the tests found it).
fn pockets(
    rng: &mut SplitMix64,
    width: usize,
    height: usize,
    ghosts: usize,
    blocked: bool,
) -> Option<Vec<u8>> {
    // Width 7 at least: a corridor of 5 cells, so that a blocked one holds 2 ghosts.
    if width < 7 || height < 5 || (blocked && ghosts < 2) {
        return None;
    }
    let corridors: Vec<usize> = (2..=height - 3).step_by(4).collect();
    let length = width - 2;
    let capacity = (length - 1) / 2;
    // Ghosts dealt over the fewest corridors that hold them, and at most one corridor for
    // every three ghosts: crowded corridors, where ghosts must pass each other.
    let used = ghosts
        .div_ceil(capacity)
        .max((ghosts / 3).min(corridors.len()))
        .max(1);
    if used > corridors.len() {
        return None;
    }
    let mut order = corridors.clone();
    rng.shuffle(&mut order);
    let mut group_of = vec![0usize; height];
    for g in 0..ghosts {
        group_of[order[g % used]] += 1;
    }
    // The blocked corridor: the first one dealt to holds the most ghosts, at least 2.
    let closed = blocked.then_some(order[0]);
    let mut map = bordered(width, height, b'#');
    for &r in &corridors {
        for c in 1..=length {
            map[r * width + c] = b' ';
        }
        if Some(r) == closed {
            continue;
        }
        // pocket[side][c]: above (0) or below (1) column c.
        let mut pocket = [vec![false; width], vec![false; width]];
        let g = group_of[r];
        let (low, high) = ((g + 1).max(2), (length - g).min(length - 1));
        pocket[rng.below(2)][rng.between(low, high)] = true;
        for c in 2..=length - 1 {
            let side = rng.below(2);
            let free = !pocket[side][c - 1] && !pocket[side][c + 1] && !pocket[1 - side][c];
            if free && rng.percent(POCKET_PERCENT) {
                pocket[side][c] = true;
            }
        }
        for c in 2..=length - 1 {
            if pocket[0][c] {
                map[(r - 1) * width + c] = b' ';
            }
            if pocket[1][c] {
                map[(r + 1) * width + c] = b' ';
            }
        }
    }
    let mut letters: Vec<u8> = (0..ghosts as u8).collect();
    rng.shuffle(&mut letters);
    let mut next_letter = letters.into_iter();
    for &r in &order[..used] {
        let group = group_of[r];
        let mut columns: Vec<usize> = (1..=length).collect();
        rng.shuffle(&mut columns);
        let (starts, homes) = columns[..2 * group].split_at_mut(group);
        starts.sort_unstable();
        homes.sort_unstable();
        for (s, h) in starts.iter().zip(homes.iter().rev()) {
            let letter = next_letter.next()?;
            map[r * width + s] = b'a' + letter;
            map[r * width + h] = b'A' + letter;
        }
    }
    Some(map)
}

fn fewest_steps(text: &str) -> Option<u32> {
    let mut reader = grid_core::CaseReader::new(text.as_bytes());
    let dataset = crate::parse::read_dataset(&mut reader, u64::MAX).ok()??;
    crate::search::solve(&dataset, crate::dataset::Want::Steps, 1024)
        .ok()?
        .steps
}

fn is_inside(i: usize, width: usize, height: usize) -> bool {
    let (r, c) = (i / width, i % width);
    r > 0 && c > 0 && r + 1 < height && c + 1 < width
}

/// The 4-neighbours of an inside cell (never outside the grid, thanks to the border).
fn neighbours(i: usize, width: usize) -> [usize; 4] {
    [i - width, i + width, i - 1, i + 1]
}

/// Every 2 x 2 square containing `cell` still holds a wall.
fn squares_keep_a_wall(open: &BitSlice, cell: usize, width: usize) -> bool {
    let corners = [cell - width - 1, cell - width, cell - 1, cell];
    corners.iter().all(|&top_left| {
        [0, 1, width, width + 1]
            .iter()
            .any(|&d| !open[top_left + d])
    })
}

/// The walls form one 4-connected piece.
fn walls_connected(open: &BitSlice, width: usize, height: usize) -> bool {
    let total = open.count_zeros();
    let mut seen: BitVec = bitvec![0; open.len()];
    let mut stack = vec![0usize]; // the top-left corner is border wall
    seen.set(0, true);
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (r, c) = (i / width, i % width);
        let around = [
            (r > 0).then(|| i - width),
            (r + 1 < height).then(|| i + width),
            (c > 0).then(|| i - 1),
            (c + 1 < width).then(|| i + 1),
        ];
        for n in around.into_iter().flatten() {
            if !open[n] && !seen[n] {
                seen.set(n, true);
                stack.push(n);
            }
        }
    }
    count == total
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::{CaseReader, CellId, Grid};

    #[test]
    fn generated_maps_keep_the_promises() {
        let mut rng = SplitMix64::new(5);
        for density in [Density::Dense, Density::Sparse] {
            for _ in 0..20 {
                let spec = MapSpec {
                    width: 16,
                    height: 16,
                    ghosts: 3,
                    density,
                };
                let text = dataset(&mut rng, spec).unwrap();
                let rows: Vec<&[u8]> = text.lines().skip(1).map(str::as_bytes).collect();
                let open: BitVec = rows
                    .iter()
                    .flat_map(|r| r.iter().map(|&b| b != b'#'))
                    .collect();
                // The walls are one 4-connected piece: checked by a breadth-first search
                // over the wall cells, not by the generator's own test.
                let walls = Grid::new(16, 16, |r, c| !open[r * 16 + c]);
                let from_corner = walls.distances(CellId::new(0), None);
                assert!(
                    from_corner.iter().all(|&d| d != grid_core::UNREACHABLE),
                    "walls split:\n{text}"
                );
                for i in 0..16 * 16 {
                    if !is_inside(i, 16, 16) {
                        assert!(!open[i], "border is wall");
                    } else if i % 16 < 15 && i / 16 < 15 {
                        assert!([0, 1, 16, 17].iter().any(|&d| !open[i + d]), "2 x 2 rule");
                    }
                }
                let dataset =
                    crate::parse::read_dataset(&mut CaseReader::new(text.as_bytes()), 1 << 20)
                        .unwrap()
                        .unwrap();
                // Corridors are connected: every corridor cell is reachable from start a.
                let d = dataset.grid.distances(dataset.starts[0], None);
                assert!(d.iter().all(|&x| x != grid_core::UNREACHABLE));
                if density == Density::Dense {
                    assert!(
                        (100..=112).contains(&dataset.grid.cell_count()),
                        "{}",
                        dataset.grid.cell_count()
                    );
                }
            }
        }
    }

    /// Parses a generated dataset with the library's own reader.
    fn parse(text: &str) -> crate::Dataset {
        text.parse().unwrap_or_else(|e| panic!("{e}:\n{text}"))
    }

    /// Per ghost: the (row, col) of its start and of its home.
    fn ends(d: &crate::Dataset) -> Vec<((usize, usize), (usize, usize))> {
        let at = |c| d.grid().position(c);
        d.starts()
            .iter()
            .zip(d.homes())
            .map(|(&s, &h)| (at(s), at(h)))
            .collect()
    }

    /// A cell's corridor neighbours.
    fn degree(d: &crate::Dataset, cell: CellId) -> usize {
        d.grid().neighbours(cell).count()
    }

    /// Components of the corridors, by a breadth-first search from each cell: per cell, the
    /// first cell of its component.
    fn components(d: &crate::Dataset) -> Vec<usize> {
        let grid = d.grid();
        let mut label = vec![usize::MAX; grid.cell_count()];
        for first in grid.cells() {
            if label[first.index()] == usize::MAX {
                let reach = grid.distances(first, None);
                for (i, &r) in reach.iter().enumerate() {
                    if r != grid_core::UNREACHABLE {
                        label[i] = first.index();
                    }
                }
            }
        }
        label
    }

    fn specs(rng: &mut SplitMix64, layout: Layout, count: usize) -> Vec<LayoutSpec> {
        (0..count)
            .map(|_| LayoutSpec {
                width: rng.between(6, 32),
                height: rng.between(5, 32),
                ghosts: rng.between(2, 26),
                layout,
            })
            .collect()
    }

    #[test]
    fn layouts_parse_with_their_sizes_and_keep_their_properties() {
        let mut rng = SplitMix64::new(1601);
        let mut drawn = [0usize; 4];
        for (k, layout) in [
            Layout::PillarRoom,
            Layout::Maze,
            Layout::Pockets,
            Layout::BlockedPockets,
        ]
        .into_iter()
        .enumerate()
        {
            for spec in specs(&mut rng, layout, 150) {
                let Some(text) = layout_dataset(&mut rng, spec) else {
                    continue;
                };
                drawn[k] += 1;
                let d = parse(&text);
                let (w, h) = (spec.width, spec.height);
                assert_eq!((d.grid().width(), d.grid().height()), (w, h), "{text}");
                assert_eq!(d.ghost_count(), spec.ghosts, "{text}");
                let open = |r: usize, c: usize| d.grid().cell(r, c).is_some();
                for r in 0..h {
                    assert!(!open(r, 0) && !open(r, w - 1), "border:\n{text}");
                }
                for c in 0..w {
                    assert!(!open(0, c) && !open(h - 1, c), "border:\n{text}");
                }
                let label = components(&d);
                match layout {
                    Layout::PillarRoom => {
                        for r in 0..h {
                            for c in 0..w {
                                assert_eq!(open(r, c), open(h - 1 - r, w - 1 - c), "{text}");
                            }
                        }
                        for (start, home) in ends(&d) {
                            assert_eq!(home, (h - 1 - start.0, w - 1 - start.1), "{text}");
                        }
                        assert!(label.iter().all(|&l| l == label[0]), "split:\n{text}");
                    }
                    Layout::Maze => {
                        check_two_by_two(&open, w, h, &text);
                        assert!(label.iter().all(|&l| l == label[0]), "split:\n{text}");
                    }
                    Layout::Pockets | Layout::BlockedPockets => {
                        check_two_by_two(&open, w, h, &text);
                        check_pockets(&d, &label, layout == Layout::BlockedPockets, &text);
                    }
                }
            }
        }
        // Most specs fit (the pockets take at most 13 ghosts on 32 rows of width 28).
        assert!(drawn.iter().all(|&n| n > 60), "{drawn:?}");
    }

    /// Every 2 x 2 square holds a wall.
    fn check_two_by_two(open: &dyn Fn(usize, usize) -> bool, w: usize, h: usize, text: &str) {
        for r in 0..h - 1 {
            for c in 0..w - 1 {
                let square = [(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)];
                assert!(square.iter().any(|&(r, c)| !open(r, c)), "2 x 2:\n{text}");
            }
        }
    }

    /// Pockets: every ghost starts and ends on one corridor row, in the reverse order of
    /// the others on its row; a corridor row with two ghosts or more is a path exactly in
    /// the blocked datasets, and then only one.
    fn check_pockets(d: &crate::Dataset, label: &[usize], blocked: bool, text: &str) {
        let grid = d.grid();
        let cell = |(r, c): (usize, usize)| grid.cell(r, c).unwrap();
        let ends = ends(d);
        let mut paths = 0;
        let mut rows: Vec<usize> = ends.iter().map(|e| e.0.0).collect();
        rows.sort_unstable();
        rows.dedup();
        for row in rows {
            let on_row: Vec<_> = ends.iter().filter(|e| e.0.0 == row).collect();
            for (a, b) in on_row.iter().tuple_pairs() {
                assert_eq!(a.1.0, row, "home on the start's row:\n{text}");
                assert_eq!(b.1.0, row, "home on the start's row:\n{text}");
                assert_eq!(
                    a.0.1 < b.0.1,
                    a.1.1 > b.1.1,
                    "homes in the reverse order:\n{text}"
                );
            }
            let component = label[cell(on_row[0].0).index()];
            let members: Vec<CellId> = grid
                .cells()
                .filter(|c| label[c.index()] == component)
                .collect();
            let ghosts_here = ends
                .iter()
                .filter(|e| label[cell(e.0).index()] == component);
            assert_eq!(
                ghosts_here.count(),
                on_row.len(),
                "one row, one component:\n{text}"
            );
            if on_row.len() >= 2 && members.iter().all(|&m| degree(d, m) <= 2) {
                paths += 1;
            }
        }
        assert_eq!(paths, usize::from(blocked), "blocked corridors:\n{text}");
    }

    /// Every pair of distinct items, in order of their positions.
    trait TuplePairs<T> {
        fn tuple_pairs(self) -> Vec<(T, T)>;
    }

    impl<'a, T, I: Iterator<Item = &'a T>> TuplePairs<&'a T> for I {
        fn tuple_pairs(self) -> Vec<(&'a T, &'a T)> {
            let items: Vec<&T> = self.collect();
            let mut pairs = Vec::new();
            for i in 0..items.len() {
                for j in i + 1..items.len() {
                    pairs.push((items[i], items[j]));
                }
            }
            pairs
        }
    }

    /// The -1 of the blocked pockets, and the solvability of the open ones, as the
    /// exhaustive joint search finds them on small maps.
    #[test]
    fn blocked_pockets_answer_minus_one_and_open_pockets_do_not() {
        let mut rng = SplitMix64::new(2007);
        let (mut blocked, mut open) = (0, 0);
        while blocked + open < 400 {
            let layout = if (blocked + open) % 2 == 0 {
                Layout::BlockedPockets
            } else {
                Layout::Pockets
            };
            let spec = LayoutSpec {
                width: rng.between(7, 11),
                height: rng.between(5, 10),
                ghosts: rng.between(2, 5),
                layout,
            };
            let Some(text) = layout_dataset(&mut rng, spec) else {
                continue;
            };
            let d = parse(&text);
            let steps = crate::search::solve(&d, crate::dataset::Want::Steps, 256)
                .unwrap()
                .steps;
            if layout == Layout::BlockedPockets {
                assert_eq!(steps, None, "blocked, yet solved:\n{text}");
                blocked += 1;
            } else {
                assert!(steps.is_some(), "open pockets, yet -1:\n{text}");
                open += 1;
            }
        }
    }

    #[test]
    fn layout_datasets_are_fixed_by_the_seed_and_refuse_what_cannot_fit() {
        let spec = LayoutSpec {
            width: 12,
            height: 9,
            ghosts: 5,
            layout: Layout::Maze,
        };
        let once = layout_datasets(9, &[spec; 3]).unwrap();
        assert_eq!(once, layout_datasets(9, &[spec; 3]).unwrap());
        assert_ne!(once, layout_datasets(10, &[spec; 3]).unwrap());
        assert_eq!(once.lines().filter(|l| l.starts_with("12 9 5")).count(), 3);
        assert!(once.ends_with("\n0 0 0\n"));
        // 7 x 5: one corridor of 5 cells takes 2 ghosts; a 4 x 4 room has no inside.
        let crowded = LayoutSpec {
            width: 7,
            height: 5,
            ghosts: 3,
            layout: Layout::Pockets,
        };
        assert!(layout_datasets(1, &[crowded]).is_err());
        let tiny = LayoutSpec {
            width: 4,
            height: 4,
            ghosts: 1,
            layout: Layout::PillarRoom,
        };
        assert!(layout_datasets(1, &[tiny]).is_err());
    }
}

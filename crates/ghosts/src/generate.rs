//! Seeded random datasets that keep the statement's promises: a wall border, connected
//! corridors, connected walls and a wall in every 2 x 2 square.
//!
//! Why carving: starting from solid wall and opening one cell at a time next to the
//! corridors keeps the corridors connected by construction; a cell is opened only when the
//! 2 x 2 rule still holds around it and the walls stay connected without it. Both checks
//! only get harder as more cells open, so a refused cell is never tried again.

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

fn fewest_steps(text: &str) -> Option<u32> {
    let mut reader = grid_core::CaseReader::new(text.as_bytes());
    let dataset = crate::parse::read_dataset(&mut reader, u64::MAX).ok()??;
    crate::search::solve(&dataset, false, 1024).ok()?.steps
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
                    from_corner
                        .iter()
                        .all(|&d| d != grid_core::bfs::UNREACHABLE),
                    "walls split:\n{text}"
                );
                for i in 0..16 * 16 {
                    if !is_inside(i, 16, 16) {
                        assert!(!open[i], "border is wall");
                    } else if i % 16 < 15 && i / 16 < 15 {
                        assert!([0, 1, 16, 17].iter().any(|&d| !open[i + d]), "2 x 2 rule");
                    }
                }
                let dataset = crate::read_dataset(&mut CaseReader::new(text.as_bytes()), 1 << 20)
                    .unwrap()
                    .unwrap();
                // Corridors are connected: every corridor cell is reachable from start a.
                let d = dataset.grid.distances(dataset.starts[0], None);
                assert!(d.iter().all(|&x| x != grid_core::bfs::UNREACHABLE));
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
}

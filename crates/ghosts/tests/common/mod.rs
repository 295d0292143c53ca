//! What the MAPF tests share: the plain breadth-first search over joint placements that
//! they compare with (`mapf.rs`, `solvable.rs`) and their random tiny instances
//! (`mapf.rs`, `soc.rs`).

// Each test binary uses its part.
#![allow(dead_code)]

use std::collections::{HashSet, VecDeque};

use ghosts::Dataset;
use grid_core::rng::SplitMix64;
use grid_core::{CellId, Grid};
use test_support::random_grid;

/// A random tiny instance: a grid of `width` x `height` with `wall_percent` walls, and
/// `agents` agents on distinct random starts and distinct random goals (a start may be
/// another's goal); `None` when the grid has fewer than `agents + 1` cells or `fits`
/// refuses its number of cells (a reference that cannot afford it).
pub fn random_instance(
    rng: &mut SplitMix64,
    width: usize,
    height: usize,
    agents: usize,
    wall_percent: u32,
    fits: impl Fn(usize) -> bool,
) -> Option<Dataset> {
    let grid = random_grid(rng, height, width, wall_percent);
    let mut cells: Vec<CellId> = grid.cells().collect();
    if cells.len() < agents + 1 || !fits(cells.len()) {
        return None;
    }
    rng.shuffle(&mut cells);
    let starts: Vec<_> = cells[..agents].iter().map(|&c| grid.position(c)).collect();
    rng.shuffle(&mut cells);
    let homes: Vec<_> = cells[..agents].iter().map(|&c| grid.position(c)).collect();
    Some(Dataset::new(grid, &starts, &homes).unwrap())
}

/// Plain BFS over joint placements (every combination of moves, kept when no two agents
/// share a cell or swap). A placement is kept as a number: 5 bits per agent (cells < 32).
pub fn reference_steps(grid: &Grid, starts: &[CellId], goals: &[CellId]) -> Option<u32> {
    assert!(grid.cell_count() <= 32 && starts.len() <= 12);
    let pack = |p: &[CellId]| p.iter().fold(0u64, |key, c| key << 5 | c.index() as u64);
    let unpack = |key: u64, out: &mut Vec<CellId>| {
        out.clear();
        out.extend(
            (0..starts.len())
                .rev()
                .map(|i| CellId::new((key >> (5 * i) & 31) as usize)),
        );
    };
    // Every cell's options: stay, or a neighbour.
    let options: Vec<Vec<CellId>> = (0..grid.cell_count())
        .map(|i| {
            let here = CellId::new(i);
            std::iter::once(here)
                .chain(grid.neighbours(here).map(|(_, n)| n))
                .collect()
        })
        .collect();
    let goal = pack(goals);
    let mut seen: HashSet<u64> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(pack(starts));
    queue.push_back((pack(starts), 0u32));
    let (mut placement, mut next) = (Vec::new(), Vec::new());
    while let Some((key, steps)) = queue.pop_front() {
        if key == goal {
            return Some(steps);
        }
        unpack(key, &mut placement);
        next.clear();
        extend(&options, &placement, &mut next);
        for &key in &next {
            if seen.insert(key) {
                queue.push_back((key, steps + 1));
            }
        }
    }
    None
}

/// Every legal next placement, packed: depth first over the agents (taken in the order
/// of their cells, so that neighbours come close together and clash early), each with its
/// options, cut as soon as two agents share a cell or swap, or a later agent has every
/// option taken (then no completion exists: the cut only saves time). The cells taken so
/// far are a bit set (cells < 32).
fn extend(options: &[Vec<CellId>], placement: &[CellId], out: &mut Vec<u64>) {
    let mut order: Vec<usize> = (0..placement.len()).collect();
    order.sort_by_key(|&a| placement[a]);
    let mut after = placement.to_vec();
    assign(options, placement, &order, &mut after, 0, 0, out);
}

fn assign(
    options: &[Vec<CellId>],
    placement: &[CellId],
    order: &[usize],
    after: &mut Vec<CellId>,
    taken: u32,
    i: usize,
    out: &mut Vec<u64>,
) {
    if i == order.len() {
        out.push(
            after
                .iter()
                .fold(0u64, |key, c| key << 5 | c.index() as u64),
        );
        return;
    }
    let bit = |c: &CellId| 1u32 << c.index();
    let boxed_in = order[i..].iter().any(|&a| {
        options[placement[a].index()]
            .iter()
            .all(|c| taken & bit(c) != 0)
    });
    if boxed_in {
        return;
    }
    let agent = order[i];
    let here = placement[agent];
    for &cell in &options[here.index()] {
        let legal = taken & bit(&cell) == 0
            && !order[..i]
                .iter()
                .any(|&j| after[j] == here && placement[j] == cell);
        if legal {
            after[agent] = cell;
            assign(
                options,
                placement,
                order,
                after,
                taken | bit(&cell),
                i + 1,
                out,
            );
        }
    }
}

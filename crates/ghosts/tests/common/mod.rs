//! What the MAPF tests share: the exhaustive references they compare with, the plain
//! breadth-first search over joint placements (the makespan: `mapf.rs`, `solvable.rs`,
//! `anytime.rs`) and Dijkstra's algorithm over placements and finished agents (the sum of
//! costs: `soc.rs`, `anytime.rs`), and their random tiny instances (`mapf.rs`, `soc.rs`,
//! `anytime.rs`).

// Each test binary uses its part.
#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};

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

/// The least sum of costs by Dijkstra's algorithm over (placement, finished agents), as
/// `soc.rs` says. Cells < 16, agents <= 6: 4 bits a cell, the finished
/// agents above.
pub fn reference_soc(grid: &Grid, starts: &[CellId], goals: &[CellId]) -> Option<u64> {
    let k = starts.len();
    assert!(grid.cell_count() <= 16 && k <= 6);
    let options: Vec<Vec<u8>> = (0..grid.cell_count())
        .map(|i| {
            let here = CellId::new(i);
            std::iter::once(i as u8)
                .chain(grid.neighbours(here).map(|(_, n)| n.index() as u8))
                .collect()
        })
        .collect();
    let goals: Vec<u8> = goals.iter().map(|g| g.index() as u8).collect();
    let pack = |cells: &[u8], finished: u32| {
        cells
            .iter()
            .fold(u64::from(finished), |key, &c| key << 4 | u64::from(c))
    };
    let unpack = |key: u64| {
        let mut cells = vec![0u8; k];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = (key >> (4 * (k - 1 - i)) & 15) as u8;
        }
        (cells, (key >> (4 * k)) as u32)
    };
    let all = (1u32 << k) - 1;
    let start: Vec<u8> = starts.iter().map(|s| s.index() as u8).collect();
    let mut best: HashMap<u64, u64> = HashMap::new();
    let mut queue = BinaryHeap::new();
    best.insert(pack(&start, 0), 0);
    queue.push(Reverse((0u64, pack(&start, 0))));
    let mut next = Vec::new();
    while let Some(Reverse((cost, key))) = queue.pop() {
        if best.get(&key) != Some(&cost) {
            continue;
        }
        let (cells, finished) = unpack(key);
        if finished == all {
            return Some(cost);
        }
        let mut push = |key: u64, cost: u64| {
            if best.get(&key).is_none_or(|&c| c > cost) {
                best.insert(key, cost);
                queue.push(Reverse((cost, key)));
            }
        };
        for a in 0..k {
            if finished & 1 << a == 0 && cells[a] == goals[a] {
                push(pack(&cells, finished | 1 << a), cost);
            }
        }
        let step = u64::from(k as u32 - finished.count_ones());
        next.clear();
        moves(&options, &cells, finished, 0, &mut cells.clone(), &mut next);
        for after in &next {
            push(pack(after, finished), cost + step);
        }
    }
    None
}

/// Every legal next placement: the agents not finished each stay or move, the finished
/// stay, no two on one cell, no two swapping.
fn moves(
    options: &[Vec<u8>],
    before: &[u8],
    finished: u32,
    i: usize,
    after: &mut Vec<u8>,
    out: &mut Vec<Vec<u8>>,
) {
    if i == before.len() {
        out.push(after.clone());
        return;
    }
    let choices: &[u8] = if finished & 1 << i != 0 {
        &before[i..=i]
    } else {
        &options[before[i] as usize]
    };
    for &cell in choices {
        let clash =
            (0..i).any(|j| after[j] == cell || (after[j] == before[i] && before[j] == cell));
        if !clash {
            after[i] = cell;
            moves(options, before, finished, i + 1, after, out);
        }
    }
    after[i] = before[i];
}

/// A grid whose open cells are every other square of a `height` x `width` lattice of
/// rooms joined along a random spanning tree (so the cells form a tree with branches).
pub fn random_tree(rng: &mut SplitMix64, height: usize, width: usize) -> Grid {
    let (rows, cols) = (2 * height - 1, 2 * width - 1);
    let mut open = vec![false; rows * cols];
    let mut joined = vec![false; height * width];
    let start = rng.below(height * width);
    joined[start] = true;
    open[(start / width) * 2 * cols + (start % width) * 2] = true;
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let i = rng.below(frontier.len());
        let room = frontier[i];
        let (r, c) = (room / width, room % width);
        let mut next = Vec::new();
        if r > 0 {
            next.push(room - width);
        }
        if r + 1 < height {
            next.push(room + width);
        }
        if c > 0 {
            next.push(room - 1);
        }
        if c + 1 < width {
            next.push(room + 1);
        }
        next.retain(|&m| !joined[m]);
        if next.is_empty() {
            frontier.swap_remove(i);
            continue;
        }
        let m = next[rng.below(next.len())];
        joined[m] = true;
        frontier.push(m);
        let (mr, mc) = (m / width, m % width);
        open[mr * 2 * cols + mc * 2] = true;
        open[(r + mr) * cols + (c + mc)] = true;
    }
    Grid::new(rows, cols, |r, c| open[r * cols + c])
}

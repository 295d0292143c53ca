#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The -1 test (`mapf::solvable`) against an exhaustive search over placements on
//! thousands of tiny maps (fixed seeds): it decides every one, and as the search does.

mod common;

use ghosts::internals::Want;
use ghosts::internals::mapf::{self, Horizons, Instance, Method, solvable};
use grid_core::rng::SplitMix64;
use grid_core::{CellId, Grid};
use test_support::random_grid;

use common::random_tree;

/// What the map's components are: whether any with two agents or more is a tree with a
/// branching cell, and whether any has rooms (cycles), branches and a free cell.
fn shapes(grid: &Grid, agents: &[CellId]) -> (bool, bool) {
    let n = grid.cell_count();
    let mut component = vec![usize::MAX; n];
    let (mut tree, mut rooms) = (false, false);
    for first in 0..n {
        if component[first] != usize::MAX {
            continue;
        }
        let mut members = vec![first];
        component[first] = first;
        let mut head = 0;
        while head < members.len() {
            let v = members[head];
            head += 1;
            for (_, w) in grid.neighbours(CellId::new(v)) {
                if component[w.index()] == usize::MAX {
                    component[w.index()] = first;
                    members.push(w.index());
                }
            }
        }
        let degree = |v: usize| grid.neighbours(CellId::new(v)).count();
        let edges = members.iter().map(|&v| degree(v)).sum::<usize>() / 2;
        let branching = members.iter().any(|&v| degree(v) > 2);
        let inside = agents
            .iter()
            .filter(|c| component[c.index()] == first)
            .count();
        if edges + 1 == members.len() && branching && inside >= 2 {
            tree = true;
        }
        if edges >= members.len() && branching && inside >= 2 && inside < members.len() {
            rooms = true;
        }
    }
    (tree, rooms)
}

/// Distinct random cells.
fn draw_cells(rng: &mut SplitMix64, grid: &Grid, k: usize) -> Vec<CellId> {
    let mut cells: Vec<CellId> = grid.cells().collect();
    rng.shuffle(&mut cells);
    cells.truncate(k);
    cells
}

/// How the test's verdicts compared with the exhaustive search's.
#[derive(Default)]
struct Tally {
    /// Instances the exhaustive search found no plan for.
    never: usize,
    /// Instances it found a plan for.
    solvable: usize,
    /// Instances the test left to the searches ([`solvable::Verdict::Unknown`]).
    left: usize,
}

impl Tally {
    /// The test's verdict on one instance, asserted not to contradict the exhaustive
    /// search ("never" and "solvable" are proofs, "unknown" is not); whether a plan
    /// exists.
    fn compare(&mut self, grid: &Grid, starts: &[CellId], goals: &[CellId]) -> bool {
        let expected = common::reference_steps(grid, starts, goals).is_some();
        let verdict = solvable::check(&Instance::new(grid, starts, goals));
        let contradicts = match verdict {
            solvable::Verdict::Never => expected,
            solvable::Verdict::Solvable => !expected,
            solvable::Verdict::Unknown => false,
        };
        assert!(
            !contradicts,
            "said {verdict:?}: {starts:?} -> {goals:?}\n{grid:?}"
        );
        self.never += usize::from(!expected);
        self.solvable += usize::from(expected);
        self.left += usize::from(verdict == solvable::Verdict::Unknown);
        expected
    }

    /// Asserts that the test decided all but `percent` of the instances compared.
    fn assert_decided_all_but(&self, percent: usize) {
        let compared = self.never + self.solvable;
        assert!(
            self.left * 100 <= compared * percent,
            "left {} of {compared} to the searches",
            self.left
        );
    }
}

#[test]
fn the_test_agrees_with_exhaustive_search_on_thousands_of_tiny_maps() {
    let mut rng = SplitMix64::new(2014);
    let mut tally = Tally::default();
    let (mut compared, mut never, mut solvable_said, mut trees, mut full) = (0, 0, 0, 0, 0);
    let mut with_rooms = 0;
    while compared < 2500 {
        let (width, height) = (rng.between(1, 5), rng.between(1, 4));
        let wall_percent = [0, 20, 35, 50][rng.below(4)];
        let grid = random_grid(&mut rng, height, width, wall_percent);
        let n = grid.cell_count();
        if n < 2 {
            continue;
        }
        // Half the instances fill a component or come close (few free cells).
        let k = if rng.percent(50) {
            rng.between(2, n.min(6))
        } else {
            n.clamp(2, 6)
        };
        let placements = (0..k).fold(1u64, |p, i| p * (n - i) as u64);
        if placements > 30_000 {
            continue;
        }
        let starts = draw_cells(&mut rng, &grid, k);
        let goals = draw_cells(&mut rng, &grid, k);
        let expected = tally.compare(&grid, &starts, &goals);
        let (tree, rooms) = shapes(&grid, &starts);
        never += usize::from(!expected);
        solvable_said += usize::from(expected);
        trees += usize::from(tree);
        with_rooms += usize::from(rooms);
        if k == n {
            full += 1;
        }
        compared += 1;
    }
    tally.assert_decided_all_but(3);
    assert!(never > 400, "said -1 {never} times");
    assert!(solvable_said > 400, "said solvable {solvable_said} times");
    assert!(trees > 60, "only {trees} instances on branching trees");
    assert!(full > 100, "only {full} full instances");
    assert!(
        with_rooms > 500,
        "only {with_rooms} instances with rooms and branches"
    );
}

/// Trees with branching cells and more free cells than the random maps give: corridors
/// carved as a random spanning tree of a small grid, agents and free cells in every
/// proportion.
#[test]
fn the_test_decides_every_tree_as_exhaustive_search_does() {
    let mut rng = SplitMix64::new(1999);
    let mut tally = Tally::default();
    let (mut compared, mut never) = (0, 0);
    while compared < 800 {
        let (width, height) = (rng.between(2, 4), rng.between(2, 4));
        let grid = random_tree(&mut rng, height, width);
        let n = grid.cell_count();
        let k = rng.between(2, (n - 1).min(5));
        let placements = (0..k).fold(1u64, |p, i| p * (n - i) as u64);
        if placements > 40_000 {
            continue;
        }
        let starts = draw_cells(&mut rng, &grid, k);
        let goals = draw_cells(&mut rng, &grid, k);
        let expected = tally.compare(&grid, &starts, &goals);
        never += usize::from(!expected);
        compared += 1;
    }
    tally.assert_decided_all_but(3);
    assert!(never > 100 && never < 700, "unsolvable: {never}");
}

/// Rooms joined by corridors: a random tree of corridors with a few more squares opened
/// next to it (each may close a cycle), agents and free cells in every proportion.
#[test]
fn the_test_decides_rooms_and_corridors_as_exhaustive_search_does() {
    let mut rng = SplitMix64::new(2012);
    let mut tally = Tally::default();
    let (mut compared, mut never, mut with_rooms) = (0, 0, 0);
    while compared < 800 {
        let (width, height) = (rng.between(2, 4), rng.between(2, 3));
        let tree = random_tree(&mut rng, height, width);
        let (rows, cols) = (tree.height(), tree.width());
        let mut open: Vec<bool> = (0..rows * cols)
            .map(|i| tree.cell(i / cols, i % cols).is_some())
            .collect();
        for _ in 0..rng.between(1, 3) {
            let i = rng.below(rows * cols);
            open[i] = true;
        }
        let grid = Grid::new(rows, cols, |r, c| open[r * cols + c]);
        let n = grid.cell_count();
        if n > 14 {
            continue;
        }
        let k = rng.between(2, (n - 1).min(5));
        let placements = (0..k).fold(1u64, |p, i| p * (n - i) as u64);
        if placements > 40_000 {
            continue;
        }
        let starts = draw_cells(&mut rng, &grid, k);
        let goals = draw_cells(&mut rng, &grid, k);
        let expected = tally.compare(&grid, &starts, &goals);
        never += usize::from(!expected);
        with_rooms += usize::from(shapes(&grid, &starts).1);
        compared += 1;
    }
    tally.assert_decided_all_but(3);
    assert!(never > 50 && never < 750, "unsolvable: {never}");
    assert!(with_rooms > 200, "only {with_rooms} with rooms");
}

/// An I-beam of 7 cells and 5 agents (`testdata/fixtures/ghosts/mapf-ibeam.*`): the ends
/// of the bottom row trade places while the agent between them waits in the stem. The
/// classes' rule, which trades neighbouring agents only, once called this "never"; the
/// driver, made to ask the test first, must find the 4 steps.
#[test]
fn a_trade_past_an_agent_that_steps_aside_is_not_called_never() {
    let grid = Grid::new(3, 3, |r, c| r != 1 || c == 1);
    let id = CellId::new;
    let starts = [id(0), id(6), id(5), id(4), id(1)];
    let goals = [id(0), id(4), id(5), id(6), id(3)];
    assert_eq!(common::reference_steps(&grid, &starts, &goals), Some(4));
    let verdict = solvable::check(&Instance::new(&grid, &starts, &goals));
    assert_ne!(verdict, solvable::Verdict::Never);
    for horizons in [
        Horizons::PlanThenCore,
        Horizons::PlanThenSat,
        Horizons::SatOnly,
    ] {
        let found = mapf::solve(
            &grid,
            &starts,
            &goals,
            Want::Steps,
            64,
            Method::Horizons(horizons),
        )
        .expect("within 64 MiB");
        assert_eq!(found.steps, Some(4), "{horizons:?}");
    }
}

/// A goal outside its agent's component is seen before any distance table is built, on
/// exactly the instances where a table says the goal is out of reach; and the tables are
/// refused at once when two bytes a cell for every agent pass the budget, or built up to
/// the stop check on a large map.
#[test]
fn a_goal_out_of_reach_is_seen_without_distances_and_tables_keep_their_limits() {
    use mapf::{Refused, solvable::goal_out_of_reach};
    let mut rng = SplitMix64::new(0x0F_F0);
    let (mut out, mut within) = (0, 0);
    for round in 0..3000 {
        let (height, width) = (rng.between(1, 12), rng.between(1, 12));
        let grid = random_grid(&mut rng, height, width, [10, 35, 55][round % 3]);
        let k = rng.between(1, 6).min(grid.cell_count());
        if k == 0 {
            continue;
        }
        let starts = draw_cells(&mut rng, &grid, k);
        let goals = draw_cells(&mut rng, &grid, k);
        let instance = Instance::new(&grid, &starts, &goals);
        let never = goal_out_of_reach(&grid, &starts, &goals);
        assert_eq!(never, instance.lower_bound().is_none(), "round {round}");
        (out, within) = (out + usize::from(never), within + usize::from(!never));
    }
    assert!(
        out > 300 && within > 300,
        "{out} out of reach, {within} within"
    );

    let grid = Grid::new(1024, 1024, |_, _| true);
    let starts: Vec<CellId> = (0..5).map(CellId::new).collect();
    let goals: Vec<CellId> = (0..5).map(|a| CellId::new(1_000_000 + a)).collect();
    // Five tables of 2 MiB each: refused under 9 MiB before any is built.
    let refused = Instance::within(&grid, &starts, &goals, 9 << 20, &mut || false);
    assert_eq!(refused.err(), Some(Refused::Bytes(10 << 20)));
    // Asked once four tables of a million cells were searched: stopped before the fifth.
    let mut asked = 0;
    let stopped = Instance::within(&grid, &starts, &goals, u64::MAX, &mut || {
        asked += 1;
        true
    });
    assert_eq!(stopped.err(), Some(Refused::Stopped));
    assert_eq!(asked, 1);
}

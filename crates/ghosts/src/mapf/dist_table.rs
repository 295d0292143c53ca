//! Lazy distances to each agent's goal: one breadth-first search per agent, from its goal,
//! resumed only as far as the queries need.
//!
//! Why lazy: the fast planner ([`super::lacam`]) asks for distances near the agents'
//! current cells, which on a large map with many agents is a small part of map x agents
//! (a 642 x 578 map has 371,076 cells; a full table for 1000 agents would take 1.4 GiB).
//! Each agent's search keeps its frontier and stops as soon as the asked cell has its
//! distance; the next query resumes it. Distances live in pages of [`PAGE`] cells (cell
//! numbers are in reading order, so a page is a piece of a row), allocated when the search
//! first reaches one of their cells: memory follows the area the searches have covered.
//!
//! When the caller already holds every agent's full distances (the driver's
//! [`super::Instance`], needed by the other methods anyway), [`DistTable::known`] reads
//! them instead: no search and no second copy (on orz900d with 1000 agents the lazy
//! searches took 2.1 s of LaCAM*'s first second before its first expansion, measured at
//! `0429ab1`).
//!
//! # Complexity
//! Over the whole run, O(C) time per agent (each cell enters its search once), and
//! O(C / [`PAGE`]) words per agent for the page index plus [`PAGE`] x 4 bytes per page
//! reached. A query for a cell already reached, or of a [`DistTable::known`] table, is
//! O(1).

use std::collections::VecDeque;

use grid_core::UNREACHABLE;
use grid_core::{CellId, Grid};

use super::GoalDistances;

/// Cells per page of the distance store.
pub const PAGE: usize = 256;

/// Not yet reached by the agent's search (inside an allocated page).
const UNSEEN: u32 = u32::MAX;

/// One agent's resumable search.
#[derive(Debug)]
struct AgentSearch {
    /// Per page: its distances, once the search has reached one of its cells.
    pages: Vec<Option<Box<[u32; PAGE]>>>,
    /// Cells reached whose neighbours are not yet reached (FIFO: the search's layers).
    frontier: VecDeque<u32>,
}

impl AgentSearch {
    #[inline]
    fn get(&self, cell: u32) -> u32 {
        match &self.pages[cell as usize / PAGE] {
            Some(page) => page[cell as usize % PAGE],
            None => UNSEEN,
        }
    }
}

/// Distances from every cell to every agent's goal, computed on demand.
#[derive(Debug)]
pub struct DistTable<'g> {
    grid: &'g Grid,
    agents: Vec<AgentSearch>,
    /// Per agent, per cell: the distances the caller computed in full (then `agents` is
    /// empty and nothing is searched).
    known: &'g [GoalDistances],
    /// Bytes held by the pages, page indexes and frontiers (as last counted).
    bytes: u64,
}

impl<'g> DistTable<'g> {
    /// The table for agents whose goals are `goals`; nothing is searched yet.
    ///
    /// # Complexity
    /// O(K x C / [`PAGE`]) for the page indexes.
    // The driver always holds the full distances (its lower bound and planning need
    // them) and passes them with `known`; the lazy table serves a caller without them,
    // today LaCAM*'s own tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn new(grid: &'g Grid, goals: &[CellId]) -> Self {
        let pages = grid.cell_count().div_ceil(PAGE);
        let mut table = DistTable {
            grid,
            agents: Vec::with_capacity(goals.len()),
            known: &[],
            bytes: 0,
        };
        for &goal in goals {
            let mut search = AgentSearch {
                pages: (0..pages).map(|_| None).collect(),
                frontier: VecDeque::from([goal.index() as u32]),
            };
            table.bytes += (pages * 8) as u64 + 64;
            set(&mut search, goal.index() as u32, 0, &mut table.bytes);
            table.agents.push(search);
        }
        table
    }

    /// The table that reads `known[agent][cell]`, every agent's distances computed in
    /// full by the caller (one vector of the grid's cell count per agent); it holds no
    /// memory of its own ([`DistTable::bytes`] is 0: the caller counts `known`).
    ///
    /// # Complexity
    /// O(1).
    pub fn known(grid: &'g Grid, known: &'g [GoalDistances]) -> Self {
        DistTable {
            grid,
            agents: Vec::new(),
            known,
            bytes: 0,
        }
    }

    /// The map.
    pub fn grid(&self) -> &'g Grid {
        self.grid
    }

    /// Another reader of the same distances, when this table reads distances the caller
    /// computed in full ([`DistTable::known`]); `None` for a table that searches itself.
    ///
    /// # Complexity
    /// O(1).
    pub fn shared(&self) -> Option<DistTable<'g>> {
        self.agents
            .is_empty()
            .then(|| DistTable::known(self.grid, self.known))
    }

    /// Steps from `cell` to agent `agent`'s goal, [`UNREACHABLE`] when there is no way.
    ///
    /// # Complexity
    /// O(1) when the cell was reached before (always with [`DistTable::known`]); else
    /// the search resumes until it reaches it (amortised O(C) per agent over all
    /// queries).
    #[inline]
    pub fn get(&mut self, agent: usize, cell: CellId) -> u32 {
        if let Some(known) = self.known.get(agent) {
            return known.view().at(cell.index());
        }
        let cell = cell.index() as u32;
        let known = self.agents[agent].get(cell);
        if known != UNSEEN {
            return known;
        }
        self.resume(agent, cell)
    }

    /// Resumes agent `agent`'s search until `cell` is reached or the search is over.
    fn resume(&mut self, agent: usize, cell: u32) -> u32 {
        let grid = self.grid;
        let search = &mut self.agents[agent];
        let before = search.frontier.capacity();
        let mut answer = UNREACHABLE;
        while let Some(v) = search.frontier.pop_front() {
            let d = search.get(v) + 1;
            for (_, u) in grid.neighbours(CellId::new(v as usize)) {
                let u = u.index() as u32;
                if search.get(u) == UNSEEN {
                    set(search, u, d, &mut self.bytes);
                    search.frontier.push_back(u);
                }
            }
            if search.get(cell) != UNSEEN {
                answer = search.get(cell);
                break;
            }
        }
        let after = search.frontier.capacity();
        self.bytes = (self.bytes + 4 * after as u64).saturating_sub(4 * before as u64);
        answer
    }

    /// Bytes held by the table now.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// Records distance `d` for `cell`, allocating its page when needed.
fn set(search: &mut AgentSearch, cell: u32, d: u32, bytes: &mut u64) {
    let page = search.pages[cell as usize / PAGE].get_or_insert_with(|| {
        *bytes += (PAGE * 4) as u64;
        Box::new([UNSEEN; PAGE])
    });
    page[cell as usize % PAGE] = d;
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::rng::SplitMix64;

    /// The lazy table agrees with the full breadth-first search, queried in random order.
    #[test]
    fn matches_full_search() {
        let mut rng = SplitMix64::new(0xD157);
        for _ in 0..200 {
            let (h, w) = (rng.between(1, 30), rng.between(1, 30));
            let grid = test_support::random_grid(&mut rng, h, w, 30);
            if grid.cell_count() == 0 {
                continue;
            }
            let goals: Vec<CellId> = (0..3)
                .map(|_| CellId::new(rng.below(grid.cell_count())))
                .collect();
            let full: Vec<Vec<u32>> = goals.iter().map(|&g| grid.distances(g, None)).collect();
            let mut lazy = DistTable::new(&grid, &goals);
            for _ in 0..grid.cell_count() * 2 {
                let a = rng.below(goals.len());
                let cell = CellId::new(rng.below(grid.cell_count()));
                assert_eq!(lazy.get(a, cell), full[a][cell.index()]);
            }
            assert!(lazy.bytes() > 0);
            let compact: Vec<GoalDistances> =
                full.iter().cloned().map(GoalDistances::new).collect();
            let mut known = DistTable::known(&grid, &compact);
            for (a, distances) in full.iter().enumerate() {
                for (cell, &d) in distances.iter().enumerate() {
                    assert_eq!(known.get(a, CellId::new(cell)), d);
                }
            }
        }
    }

    /// The compact store gives back every distance, [`UNREACHABLE`] included, in 2 bytes
    /// a cell up to 65,534 and in 4 from 65,535 on (drawn around that boundary).
    #[test]
    fn compact_distances_read_back() {
        let mut rng = SplitMix64::new(0xC0DE);
        for round in 0..200 {
            let len = rng.between(1, 40);
            let top = if round % 2 == 0 { 65_534 } else { 70_000 };
            let full: Vec<u32> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => UNREACHABLE,
                    1 => top - rng.below(3) as u32,
                    _ => rng.below(1000) as u32,
                })
                .collect();
            let long = full.iter().any(|&d| d != UNREACHABLE && d >= 65_535);
            let table = GoalDistances::new(full.clone());
            assert_eq!(matches!(table, GoalDistances::Long(_)), long);
            assert_eq!(table.bytes(), len as u64 * if long { 4 } else { 2 });
            let view = table.view();
            assert_eq!(view.iter().collect::<Vec<u32>>(), full);
            for (cell, &d) in full.iter().enumerate() {
                assert_eq!(view.at(cell), d);
            }
        }
    }

    /// [`crate::mapf::Instance::within`] builds the tables when they fit exactly and
    /// otherwise says what they need (all short here: maps below 65,535 cells).
    #[test]
    fn instance_within_its_bytes() {
        let mut rng = SplitMix64::new(0xB17E);
        for _ in 0..100 {
            let height = rng.between(2, 20);
            let grid = test_support::random_grid(&mut rng, height, 8, 20);
            if grid.cell_count() == 0 {
                continue;
            }
            let k = rng.between(1, 5);
            let cells: Vec<CellId> = (0..2 * k)
                .map(|_| CellId::new(rng.below(grid.cell_count())))
                .collect();
            let (starts, goals) = cells.split_at(k);
            let need = 2 * (k * grid.cell_count()) as u64;
            let within =
                |max| crate::mapf::Instance::within(&grid, starts, goals, max, &mut || false);
            let instance = within(need).expect("the tables fit in their own bytes");
            assert_eq!(instance.distance_bytes(), need);
            assert_eq!(
                within(need - 1).err(),
                Some(crate::mapf::Refused::Bytes(need))
            );
        }
    }
}

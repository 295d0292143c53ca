//! LaCAM* (Okumura, AAAI 2023 and IJCAI 2023): a fast first plan for many agents, then
//! better ones, towards the optimal makespan.
//!
//! Why this method: prioritized planning ([`super::constructive`]) and the SAT decisions
//! ([`super::sat`]) work at a fixed horizon over a (cell, time) table, which on a large map
//! with hundreds of agents costs seconds before any plan exists, and nothing at all when
//! the table does not fit. LaCAM searches configurations (one cell per agent) instead:
//! each search node is a configuration, its successors come one at a time from
//! [`super::pibt`] under *lazy constraints* (a low-level tree of "agent i goes to cell v"
//! fixings, grown one agent per visit), so a node costs one PIBT step, not a branching
//! factor of 5^K. A depth-first order finds a plan in about K x makespan PIBT calls on
//! most benchmark instances.
//!
//! LaCAM* keeps searching after the first plan: each node carries its best known cost g
//! (steps from the start) and the admissible h (the largest distance home), nodes with
//! g + h no better than the incumbent are dropped, and when a configuration is reached
//! again by a shorter way, the costs of everything reached from it are lowered
//! (Dijkstra over the known edges), possibly shortening the incumbent. When the search
//! space is exhausted, the incumbent is optimal (and with no plan, none exists: the
//! low-level trees enumerate every legal successor).
//!
//! The caller owns the budget: [`Budget::stop`] is asked before every expansion, the
//! memory the nodes and distances hold is counted against [`Budget::memory_bytes`], and
//! the search ends at once when a plan reaches [`Budget::enough`] (the proven lower bound).
//!
//! # Complexity
//! Per expansion, one PIBT step (O(K) distance queries) and O(K) for hashing and storing
//! the configuration; memory O(K) per node plus O(depth) per low-level constraint, and
//! the distances of [`super::dist_table`]. The number of expansions is exponential in the
//! worst case (the problem is NP-hard), about the first plan's K x makespan / K = makespan
//! nodes on sparse instances.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use grid_core::UNREACHABLE;
use grid_core::{CellId, Grid};

use super::dist_table::DistTable;
use super::pibt::{NONE, Noise, Pibt};
use crate::moves::Options;

/// One time in this many, a configuration met again sends the search back to the start
/// instead of to the node met (LaCAM*'s random restarts, which keep the depth-first
/// search from dwelling on one region).
const RESTART_ONE_IN: u64 = 1000;

/// Bytes a search node holds besides its K-sized arrays (counted against the budget).
const NODE_OVERHEAD: u64 = 160;

/// What the caller allows the search.
pub struct Budget<'s> {
    /// Bytes the nodes and distance tables may hold.
    pub memory_bytes: u64,
    /// Asked before every expansion, with how far the search has come: true ends the
    /// search with what it has.
    pub stop: &'s mut dyn FnMut(Progress) -> bool,
    /// A plan with at most this many steps ends the search (the proven lower bound:
    /// nothing shorter exists).
    pub enough: u32,
}

/// How far the search has come, for [`Budget::stop`]: a search still on its first dive
/// (about one node per step of depth) is on its way to a plan, one with many more nodes
/// than depth is backtracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Search nodes created.
    pub nodes: usize,
    /// The most steps from the start of any node created.
    pub deepest: u32,
    /// The makespan of the best plan found so far.
    pub best: Option<u32>,
}

/// Why the search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Every configuration was searched: the plan, if any, is optimal, and without a plan
    /// no plan exists.
    Exhausted,
    /// A plan of [`Budget::enough`] steps was found.
    Enough,
    /// [`Budget::stop`] said so.
    Stopped,
    /// The next node would pass [`Budget::memory_bytes`].
    OutOfMemory,
}

/// The search's answer: the best plan found and why it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Every agent's cell at times 0 (the starts) to T (the goals); `None` when no plan
    /// was found.
    pub configurations: Option<Vec<Vec<CellId>>>,
    /// Why the search ended.
    pub end: End,
    /// Search nodes created.
    pub nodes: usize,
}

impl Outcome {
    /// Steps of the plan (its makespan), if one was found.
    pub fn makespan(&self) -> Option<u32> {
        self.configurations.as_ref().map(|c| c.len() as u32 - 1)
    }
}

/// Index of a node in the search's arena.
type NodeId = u32;

/// A low-level constraint: the agents fixed so far and their cells, in the node's order.
#[derive(Debug, Clone)]
struct Constraint {
    fixed: Vec<(u32, u32)>,
}

/// A configuration met by the search.
#[derive(Debug)]
struct Node {
    configuration: Box<[u32]>,
    /// The node this one's best known way comes from.
    parent: NodeId,
    /// Configurations met one step from this one (for lowering costs).
    successors: Vec<NodeId>,
    /// Best known steps from the start.
    g: u32,
    /// Largest distance home of any agent: a lower bound on the steps left.
    h: u32,
    /// Agents in PIBT's order (highest priority first).
    order: Box<[u32]>,
    /// PIBT priorities (grow while an agent is away from its goal).
    priorities: Box<[f32]>,
    /// Low-level constraints still to try.
    tree: VecDeque<Constraint>,
    /// The next node with the same configuration hash.
    same_hash: NodeId,
}

impl Node {
    fn f(&self) -> u32 {
        self.g.saturating_add(self.h)
    }
}

/// A hasher that passes a u64 through (the keys are already mixed hashes).
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A 64-bit hash of a configuration.
fn hash(configuration: &[u32]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &v in configuration {
        h = (h ^ u64::from(v)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

/// A plan for every agent from its start to its goal, as short in makespan as the budget
/// allows, found in runs: each [`Search::run`] resumes where the last one stopped (the
/// driver gives it its first second, then turns of the time left after the proof).
pub struct Search<'g> {
    k: usize,
    goals: Vec<u32>,
    dist: DistTable<'g>,
    pibt: Pibt<'g>,
    noise: Noise,
    nodes: Vec<Node>,
    explored: HashMap<u64, NodeId, BuildHasherDefault<PassThrough>>,
    open: Vec<NodeId>,
    goal_node: Option<NodeId>,
    /// The largest `g` of any node created.
    deepest: u32,
    bytes: u64,
    /// Scratch: the candidate cells of a low-level expansion, the new configuration.
    cells: Vec<u32>,
    next: Vec<u32>,
    /// Only plans shorter than this are sought ([`Search::reseeded`]); `u32::MAX` for
    /// every plan.
    ceiling: u32,
}

impl<'g> Search<'g> {
    /// The search from `starts` to `goals` on `grid` (distinct starts, distinct goals),
    /// with the moves of `options` (made from `grid`), the distances home of `dist` and
    /// the tie breaks of `seed`; nothing is searched yet but the start.
    ///
    /// # Complexity
    /// O(K log K + C) time and memory.
    pub fn new(
        grid: &'g Grid,
        options: &'g Options,
        starts: &[CellId],
        goals: &[CellId],
        dist: DistTable<'g>,
        seed: u64,
    ) -> Self {
        let k = starts.len();
        let mut search = Search {
            k,
            goals: goals.iter().map(|g| g.index() as u32).collect(),
            dist,
            pibt: Pibt::new(options, grid.cell_count(), seed),
            noise: Noise::new(seed ^ 0xA5A5_5A5A_0F0F_F0F0),
            nodes: Vec::new(),
            explored: HashMap::default(),
            open: Vec::new(),
            goal_node: None,
            deepest: 0,
            bytes: 0,
            cells: Vec::new(),
            next: Vec::new(),
            ceiling: u32::MAX,
        };
        let start: Box<[u32]> = starts.iter().map(|s| s.index() as u32).collect();
        // Initial priorities: farther from home first (in [0, 1), so that one step away
        // from home outweighs any distance).
        let scale = (grid.cell_count() as f32 + 1.0).recip();
        let priorities: Box<[f32]> = (0..k)
            .map(|i| {
                let d = search.dist.get(i, starts[i]);
                if d == UNREACHABLE {
                    0.0
                } else {
                    d as f32 * scale
                }
            })
            .collect();
        search.add_node(start, NONE, 0, priorities);
        search.open.push(0);
        search
    }

    /// Bytes the search holds (nodes and distance tables).
    pub fn bytes(&self) -> u64 {
        self.bytes + self.dist.bytes()
    }

    /// The largest distance home in `configuration` ([`UNREACHABLE`] when some agent has
    /// no way home).
    fn h(&mut self, configuration: &[u32]) -> u32 {
        let mut h = 0;
        for (i, &v) in configuration.iter().enumerate() {
            h = h.max(self.dist.get(i, CellId::new(v as usize)));
        }
        h
    }

    /// Stores a new node and pushes it on the open stack.
    fn add_node(
        &mut self,
        configuration: Box<[u32]>,
        parent: NodeId,
        g: u32,
        priorities: Box<[f32]>,
    ) -> NodeId {
        let h = self.h(&configuration);
        let mut order: Box<[u32]> = (0..self.k as u32).collect();
        order.sort_by(|&a, &b| priorities[b as usize].total_cmp(&priorities[a as usize]));
        let id = self.nodes.len() as NodeId;
        self.deepest = self.deepest.max(g);
        let key = hash(&configuration);
        let same_hash = self.explored.insert(key, id).unwrap_or(NONE);
        self.bytes += NODE_OVERHEAD + 12 * self.k as u64 + 48;
        self.nodes.push(Node {
            configuration,
            parent,
            successors: Vec::new(),
            g,
            h,
            order,
            priorities,
            tree: VecDeque::from([Constraint { fixed: Vec::new() }]),
            same_hash,
        });
        if parent != NONE {
            self.nodes[parent as usize].successors.push(id);
        }
        id
    }

    /// The node of `configuration`, if met before.
    fn find(&self, configuration: &[u32]) -> Option<NodeId> {
        let mut id = *self.explored.get(&hash(configuration))?;
        while id != NONE {
            let node = &self.nodes[id as usize];
            if *node.configuration == *configuration {
                return Some(id);
            }
            id = node.same_hash;
        }
        None
    }

    fn incumbent_f(&self) -> u32 {
        self.goal_node
            .map_or(self.ceiling, |n| self.nodes[n as usize].g.min(self.ceiling))
    }

    /// A new search of the same instance with the tie breaks of `seed`, seeking only
    /// plans shorter than `ceiling` steps (nodes that cannot lead to one are dropped, as
    /// under an incumbent of `ceiling` steps): when it ends [`End::Exhausted`] without a
    /// plan, no plan shorter than `ceiling` exists. `None` when this search's distances
    /// are its own lazy table (not shared, see [`DistTable::shared`]).
    ///
    /// Why: LaCAM*'s first plan depends much on its tie breaks (room-64-64-16 `random-1`
    /// with 1000 agents: 579 to 609 steps over six seeds; lak303d: 527, the lower bound,
    /// to 595), and a dive costs about makespan PIBT steps.
    ///
    /// # Complexity
    /// As [`Search::new`].
    pub fn reseeded(&self, seed: u64, ceiling: u32) -> Option<Search<'g>> {
        let dist = self.dist.shared()?;
        let starts: Vec<CellId> = self.nodes[0]
            .configuration
            .iter()
            .map(|&v| CellId::new(v as usize))
            .collect();
        let goals: Vec<CellId> = self
            .goals
            .iter()
            .map(|&v| CellId::new(v as usize))
            .collect();
        let mut search = Search::new(
            dist.grid(),
            self.pibt.options(),
            &starts,
            &goals,
            dist,
            seed,
        );
        search.ceiling = ceiling;
        Some(search)
    }

    /// Searches on from where the last run stopped, within `budget` (its seed is the
    /// one of [`Search::new`]): the best plan so far and why this run ended.
    ///
    /// # Complexity
    /// See the module documentation; building the answer is O(makespan x K).
    pub fn run(&mut self, budget: &mut Budget<'_>) -> Outcome {
        if self.nodes[0].h == UNREACHABLE {
            return self.outcome(End::Exhausted);
        }
        let end = loop {
            let Some(&top) = self.open.last() else {
                break End::Exhausted;
            };
            let progress = Progress {
                nodes: self.nodes.len(),
                deepest: self.deepest,
                best: self.goal_node.map(|n| self.nodes[n as usize].g),
            };
            if (budget.stop)(progress) {
                break End::Stopped;
            }
            if self.bytes() > budget.memory_bytes {
                break End::OutOfMemory;
            }
            if self.goal_node.is_none()
                && self.nodes[top as usize].g < self.ceiling
                && *self.nodes[top as usize].configuration == *self.goals
            {
                self.goal_node = Some(top);
                if self.nodes[top as usize].g <= budget.enough {
                    break End::Enough;
                }
            }
            if self.nodes[top as usize].f() >= self.incumbent_f() {
                self.open.pop();
                continue;
            }
            let Some(constraint) = self.nodes[top as usize].tree.pop_front() else {
                self.open.pop();
                continue;
            };
            self.bytes = self
                .bytes
                .saturating_sub(48 + 8 * constraint.fixed.len() as u64);
            self.expand_constraint(top, &constraint);
            if !self.successor(top, &constraint) {
                continue;
            }
            if self
                .goal_node
                .is_some_and(|n| self.nodes[n as usize].g <= budget.enough)
            {
                break End::Enough;
            }
        };
        self.outcome(end)
    }

    /// Grows the low-level tree of `node` below `constraint`: the next agent in the
    /// node's order fixed on each of its cells (in random order).
    fn expand_constraint(&mut self, node: NodeId, constraint: &Constraint) {
        let depth = constraint.fixed.len();
        if depth >= self.k {
            return;
        }
        let n = &self.nodes[node as usize];
        let agent = n.order[depth];
        let here = n.configuration[agent as usize];
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        cells.extend_from_slice(self.pibt.options().of(here));
        self.noise.shuffle(&mut cells);
        for &v in &cells {
            let mut fixed = Vec::with_capacity(depth + 1);
            fixed.extend_from_slice(&constraint.fixed);
            fixed.push((agent, v));
            self.bytes += 48 + 8 * fixed.len() as u64;
            self.nodes[node as usize]
                .tree
                .push_back(Constraint { fixed });
        }
        self.cells = cells;
    }

    /// The configuration PIBT makes from `node` under `constraint`, added to the search
    /// (or, when met before, the costs lowered through it). False when PIBT found none.
    fn successor(&mut self, node: NodeId, constraint: &Constraint) -> bool {
        let mut next = std::mem::take(&mut self.next);
        let n = &self.nodes[node as usize];
        let ok = self.pibt.step(
            &mut self.dist,
            &n.configuration,
            &n.order,
            &constraint.fixed,
            &mut next,
        );
        if ok {
            match self.find(&next) {
                Some(known) => {
                    self.lower_costs(node, known);
                    let again = if self.noise.next_u64() % RESTART_ONE_IN == 0 {
                        0
                    } else {
                        known
                    };
                    if self.nodes[again as usize].f() < self.incumbent_f() {
                        self.open.push(again);
                    }
                }
                None => {
                    let parent = &self.nodes[node as usize];
                    let g = parent.g + 1;
                    let priorities: Box<[f32]> = parent
                        .priorities
                        .iter()
                        .zip(next.iter().zip(&self.goals))
                        .map(|(&p, (&v, &goal))| if v == goal { p - p.floor() } else { p + 1.0 })
                        .collect();
                    let id = self.add_node(next.as_slice().into(), node, g, priorities);
                    let new = &self.nodes[id as usize];
                    if *new.configuration == *self.goals {
                        self.improve_goal(id);
                    }
                    if self.nodes[id as usize].f() < self.incumbent_f()
                        || self.goal_node == Some(id)
                    {
                        self.open.push(id);
                    }
                }
            }
        }
        self.next = next;
        ok
    }

    /// Takes `id` (a goal configuration) as the incumbent when it is the first or shorter
    /// (and below the ceiling).
    fn improve_goal(&mut self, id: NodeId) {
        let g = self.nodes[id as usize].g;
        if g < self.ceiling && self.goal_node.is_none_or(|n| g <= self.nodes[n as usize].g) {
            self.goal_node = Some(id);
        }
    }

    /// Records the edge `from` -> `to` and lowers the costs of every node reached from
    /// `from` where the new edge gives a shorter way (Dijkstra with unit steps: a FIFO).
    fn lower_costs(&mut self, from: NodeId, to: NodeId) {
        if !self.nodes[from as usize].successors.contains(&to) {
            self.nodes[from as usize].successors.push(to);
            self.bytes += 4;
        }
        let mut queue = VecDeque::from([from]);
        while let Some(n) = queue.pop_front() {
            let g = self.nodes[n as usize].g + 1;
            for s in 0..self.nodes[n as usize].successors.len() {
                let m = self.nodes[n as usize].successors[s];
                if g < self.nodes[m as usize].g {
                    let node = &mut self.nodes[m as usize];
                    node.g = g;
                    node.parent = n;
                    queue.push_back(m);
                    if *node.configuration == *self.goals {
                        self.improve_goal(m);
                    }
                    if self.nodes[m as usize].f() < self.incumbent_f() {
                        self.open.push(m);
                    }
                }
            }
        }
    }

    fn outcome(&self, end: End) -> Outcome {
        let configurations = self.goal_node.map(|goal| {
            let mut path = Vec::new();
            let mut n = goal;
            while n != NONE {
                let node = &self.nodes[n as usize];
                path.push(
                    node.configuration
                        .iter()
                        .map(|&v| CellId::new(v as usize))
                        .collect(),
                );
                n = node.parent;
            }
            path.reverse();
            path
        });
        Outcome {
            configurations,
            end,
            nodes: self.nodes.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapf::{self, Method};
    use grid_core::rng::SplitMix64;

    /// Why `configurations` is not a legal plan from `starts` to `goals` (None: legal).
    fn illegal(
        grid: &Grid,
        starts: &[CellId],
        goals: &[CellId],
        configurations: &[Vec<CellId>],
    ) -> Option<String> {
        if configurations.first().map(Vec::as_slice) != Some(starts) {
            return Some("does not begin at the starts".into());
        }
        if configurations.last().map(Vec::as_slice) != Some(goals) {
            return Some("does not end at the goals".into());
        }
        for (t, pair) in configurations.windows(2).enumerate() {
            let (now, next) = (&pair[0], &pair[1]);
            for i in 0..now.len() {
                let adjacent =
                    now[i] == next[i] || grid.neighbours(now[i]).any(|(_, c)| c == next[i]);
                if !adjacent {
                    return Some(format!("agent {i} jumps at step {t}"));
                }
                for j in i + 1..now.len() {
                    if next[i] == next[j] {
                        return Some(format!("agents {i} and {j} meet at step {}", t + 1));
                    }
                    if next[i] == now[j] && next[j] == now[i] {
                        return Some(format!("agents {i} and {j} swap at step {t}"));
                    }
                }
            }
        }
        None
    }

    fn random_instance(
        rng: &mut SplitMix64,
        dense: bool,
    ) -> Option<(Grid, Vec<CellId>, Vec<CellId>)> {
        let (h, w) = (rng.between(1, 6), rng.between(2, 6));
        let walls = rng.between(0, 35) as u32;
        let grid = test_support::random_grid(rng, h, w, walls);
        let cells = grid.cell_count();
        if cells < 2 {
            return None;
        }
        let k = if dense {
            rng.between(cells.saturating_sub(2).max(1), cells - 1)
        } else {
            rng.between(1, (cells / 2).max(1))
        }
        .min(6);
        let (starts, goals) = test_support::random_ends(rng, &grid, k);
        Some((grid, starts, goals))
    }

    /// `search` run on for at most `expansions` expansions, ending at a plan of `enough`.
    fn run_within(search: &mut Search<'_>, expansions: usize, enough: u32) -> Outcome {
        let mut count = 0;
        let mut stop = |_: Progress| {
            count += 1;
            count > expansions
        };
        search.run(&mut Budget {
            memory_bytes: 256 << 20,
            stop: &mut stop,
            enough,
        })
    }

    fn run(
        grid: &Grid,
        starts: &[CellId],
        goals: &[CellId],
        expansions: usize,
        enough: u32,
    ) -> Outcome {
        let options = Options::new(grid);
        let dist = DistTable::new(grid, goals);
        let mut search = Search::new(grid, &options, starts, goals, dist, 7);
        run_within(&mut search, expansions, enough)
    }

    /// The optimal makespan by the exact solver (`None`: unsolvable), to check against.
    fn exact_makespan(grid: &Grid, starts: &[CellId], goals: &[CellId]) -> Option<u32> {
        let want = crate::dataset::Want::Steps;
        mapf::solve(grid, starts, goals, want, 256, Method::Auto)
            .unwrap()
            .steps
    }

    /// On thousands of small random instances, sparse and dense: every plan is legal and
    /// no shorter than the optimum; an exhausted search gives the optimum, or no plan
    /// exactly when none exists; an unsolvable instance never gets a plan.
    #[test]
    fn plans_are_legal_and_never_beat_the_optimum() {
        let mut rng = SplitMix64::new(0x1ACA_0001);
        let (mut planned, mut optimal, mut exhausted_none, mut unsolvable) = (0, 0, 0, 0);
        for case in 0..1200 {
            let Some((grid, starts, goals)) = random_instance(&mut rng, case % 3 == 0) else {
                continue;
            };
            let exact = exact_makespan(&grid, &starts, &goals);
            let outcome = run(&grid, &starts, &goals, 5_000, 0);
            let context = format!(
                "case {case}: {grid:?} {starts:?} -> {goals:?}, exact {exact:?}, {outcome:?}"
            );
            match (&outcome.configurations, exact) {
                (Some(configurations), Some(optimum)) => {
                    planned += 1;
                    assert_eq!(
                        illegal(&grid, &starts, &goals, configurations),
                        None,
                        "{context}"
                    );
                    let makespan = outcome.makespan().unwrap();
                    assert!(makespan >= optimum, "{context}");
                    if outcome.end == End::Exhausted {
                        assert_eq!(makespan, optimum, "{context}");
                        optimal += 1;
                    }
                }
                (Some(_), None) => panic!("a plan on an unsolvable instance: {context}"),
                (None, None) => {
                    unsolvable += 1;
                    if outcome.end == End::Exhausted {
                        exhausted_none += 1;
                    }
                }
                (None, Some(_)) => {
                    assert_ne!(outcome.end, End::Exhausted, "{context}");
                }
            }
        }
        // Seen at this seed: 934 plans (670 from an exhausted search), 241 unsolvable
        // (224 of them exhausted).
        assert!(
            planned > 800 && optimal > 550,
            "{planned} plans, {optimal} optimal"
        );
        assert!(
            unsolvable > 150 && exhausted_none > 150,
            "{unsolvable} unsolvable, {exhausted_none} exhausted"
        );
    }

    /// A search run in many short runs (as the driver resumes it) ends where one run
    /// ends: legal plans, never shorter than the optimum, the optimum once exhausted, and
    /// the same answer as one run of the same expansions.
    #[test]
    fn resumed_runs_are_one_run() {
        let mut rng = SplitMix64::new(0x1ACA_0003);
        let mut exhausted = 0;
        for case in 0..60 {
            let Some((grid, starts, goals)) = random_instance(&mut rng, case % 3 == 0) else {
                continue;
            };
            let exact = exact_makespan(&grid, &starts, &goals);
            let options = Options::new(&grid);
            let mut search = Search::new(
                &grid,
                &options,
                &starts,
                &goals,
                DistTable::new(&grid, &goals),
                7,
            );
            let mut outcome = None;
            for _ in 0..200 {
                let run = run_within(&mut search, 25, 0);
                let end = run.end;
                outcome = Some(run);
                if end != End::Stopped {
                    break;
                }
            }
            let outcome = outcome.unwrap();
            let context = format!("case {case}: exact {exact:?}, {outcome:?}");
            assert_eq!(
                outcome,
                run(&grid, &starts, &goals, 200 * 25, 0),
                "{context}"
            );
            if let Some(configurations) = &outcome.configurations {
                assert_eq!(
                    illegal(&grid, &starts, &goals, configurations),
                    None,
                    "{context}"
                );
                let makespan = outcome.makespan().unwrap_or(0);
                assert!(exact.is_some_and(|e| makespan >= e), "{context}");
            }
            if outcome.end == End::Exhausted {
                exhausted += 1;
                assert_eq!(outcome.makespan(), exact, "{context}");
            }
        }
        // Seen at this seed: 41 of the 60 exhausted.
        assert!(exhausted > 30, "{exhausted}");
    }

    /// A search told that the optimum is enough ends as soon as it has it, with it.
    #[test]
    fn ends_at_the_bound() {
        let mut rng = SplitMix64::new(0x1ACA_0002);
        let mut reached = 0;
        for case in 0..500 {
            let Some((grid, starts, goals)) = random_instance(&mut rng, false) else {
                continue;
            };
            let Some(optimum) = mapf::solve(
                &grid,
                &starts,
                &goals,
                crate::dataset::Want::Steps,
                256,
                Method::Auto,
            )
            .unwrap()
            .steps
            else {
                continue;
            };
            let outcome = run(&grid, &starts, &goals, 100_000, optimum);
            if outcome.end == End::Enough {
                reached += 1;
                assert_eq!(outcome.makespan(), Some(optimum), "case {case}");
            } else {
                assert_ne!(
                    outcome.end,
                    End::Exhausted,
                    "case {case}: exhausted without the optimum"
                );
            }
        }
        assert!(reached > 300, "{reached}");
    }

    /// A search from another seed under a ceiling ([`Search::reseeded`]), on small random
    /// instances with the exact optimum known: under a ceiling of the optimum, it never
    /// finds a plan and, run to its end, is exhausted (the proof that none is shorter);
    /// under a ceiling above it, every plan is legal and shorter than the ceiling, and
    /// an exhausted search has the optimum. A search on its own lazy distances cannot be
    /// reseeded.
    #[test]
    fn reseeded_searches_keep_below_their_ceiling() {
        let mut rng = SplitMix64::new(0x1ACA_0005);
        let (mut proofs_of_none, mut optima) = (0, 0);
        for case in 0..300 {
            let Some((grid, starts, goals)) = random_instance(&mut rng, case % 3 == 0) else {
                continue;
            };
            let Some(optimum) = exact_makespan(&grid, &starts, &goals) else {
                continue;
            };
            let options = Options::new(&grid);
            let lazy = Search::new(
                &grid,
                &options,
                &starts,
                &goals,
                DistTable::new(&grid, &goals),
                7,
            );
            assert!(lazy.reseeded(8, optimum).is_none(), "case {case}");
            let instance = mapf::Instance::new(&grid, &starts, &goals);
            let dist = DistTable::known(&grid, instance.all_distances());
            let search = Search::new(&grid, &options, &starts, &goals, dist, 7);
            for (seed, ceiling) in [(8, optimum), (9, optimum + 1), (10, optimum + 3)] {
                let mut reseeded = search.reseeded(seed, ceiling).unwrap();
                let outcome = run_within(&mut reseeded, 100_000, 0);
                let context =
                    format!("case {case}, ceiling {ceiling}: optimum {optimum}, {outcome:?}");
                match &outcome.configurations {
                    Some(configurations) => {
                        assert_eq!(
                            illegal(&grid, &starts, &goals, configurations),
                            None,
                            "{context}"
                        );
                        let makespan = outcome.makespan().unwrap();
                        assert!(makespan >= optimum && makespan < ceiling, "{context}");
                        if outcome.end == End::Exhausted {
                            assert_eq!(makespan, optimum, "{context}");
                            optima += 1;
                        }
                    }
                    None => {
                        assert!(
                            ceiling == optimum || outcome.end != End::Exhausted,
                            "{context}"
                        );
                        proofs_of_none += u32::from(outcome.end == End::Exhausted);
                    }
                }
            }
        }
        // Seen at this seed: 214 proofs that nothing is shorter than the optimum, 378 optima.
        assert!(
            proofs_of_none > 150 && optima > 250,
            "{proofs_of_none} {optima}"
        );
    }

    /// Dense rings and corridors: the plan stays legal where PIBT must rotate and
    /// backtrack; with no budget left the search stops with what it has.
    #[test]
    fn stops_when_told() {
        let grid = Grid::new(3, 3, |_, _| true);
        let starts: Vec<CellId> = (0..8).map(CellId::new).collect();
        let goals: Vec<CellId> = (1..9).rev().map(CellId::new).collect();
        let outcome = run(&grid, &starts, &goals, 0, 0);
        assert_eq!(outcome.end, End::Stopped);
        assert_eq!(outcome.configurations, None);
        let outcome = run(&grid, &starts, &goals, 1_000_000, 0);
        let configurations = outcome.configurations.as_ref().unwrap();
        assert_eq!(illegal(&grid, &starts, &goals, configurations), None);
    }

    /// Two agents head-on in a corridor with one pocket behind them (the swap technique
    /// of PIBT: one walks back into the pocket, pulling the other after it): a legal
    /// plan within a few expansions per cell of corridor, on every length and pocket.
    #[test]
    fn corridors_are_passed_by_pulling() {
        for length in 4..=14 {
            for pocket in 1..length - 2 {
                for at in pocket + 1..length - 1 {
                    let grid = Grid::new(2, length, |row, col| row == 0 || col == pocket);
                    let cell = |col: usize| grid.cell(0, col).unwrap();
                    let starts = [cell(at), cell(at + 1)];
                    let goals = [cell(length - 1), cell(0)];
                    let outcome = run(&grid, &starts, &goals, 4 * length, 0);
                    let context = format!("length {length}, pocket {pocket}, at {at}");
                    let configurations = outcome.configurations.as_ref().expect(&context);
                    assert_eq!(
                        illegal(&grid, &starts, &goals, configurations),
                        None,
                        "{context}"
                    );
                }
            }
        }
    }
}

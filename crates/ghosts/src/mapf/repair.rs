//! Collision repair at a fixed horizon: a plan of makespan T by large neighbourhood
//! search over plans whose agents may collide (MAPF-LNS2: Li, Chen, Harabor, Stuckey and
//! Koenig, AAAI 2022).
//!
//! Every agent has a path of T steps that ends home, but two agents may meet on a cell or
//! swap; the search drives the number of *colliding pairs* (pairs of agents that meet at
//! least once) to zero. A plan with none is legal, and at T = the lower bound it is an
//! optimum, which is the proof.
//!
//! Why: on the open rows of `docs/mapf.md` the optimum is the bound wherever it is known,
//! prioritized planning at the bound fails (the first agents' paths wall off the last
//! ones), and the SAT core at the bound grows to tens of agents that SAT cannot place in
//! the limit. Here no agent is ever refused a path: it takes the one that meets the others
//! least, and the meetings left are planned away a few agents at a time.
//!
//! The first plan: every agent in turn (longest distance first) by the search below
//! against the agents planned before it. Then steps: a *neighbourhood* of
//! [`NEIGHBOURHOOD`] agents is chosen by one of three choices, drawn by adaptive weights
//! that follow which choice removed collisions lately (an agent in a collision with its
//! connected agents in the graph of collisions, and the agents whose paths cross theirs;
//! an agent in a collision with the agents whose homes or starts are on its path; agents
//! drawn among those in a collision), their paths dropped and planned anew one by one in
//! a random order, each against all the others; the new paths are kept when the colliding
//! pairs did not grow, else the old ones come back.
//!
//! One agent's search: A* over (cell, time) pairs with t + distance home at most T,
//! ordered by the collisions met so far with the other agents' paths (a meeting on a cell,
//! or a swap), then by t + distance home; a path ends home at the time it is home for good,
//! and the collisions of its stay there to T count too. So it finds a path of fewest
//! collisions, and among them the earliest home.
//!
//! # Complexity
//! One search: O(P log P) for the P pairs it reaches (at most (T + 1) x C, capped at
//! P pushes), the swap checks O(V) for the V agents that visit a cell. One step:
//! [`NEIGHBOURHOOD`] searches plus O(K + N x T x V) to count the colliding pairs
//! of the paths planned. Memory: [`BYTES_PER_PAIR`] per (cell, time) pair and O(K x T)
//! for the paths and the per-cell visitors.

use grid_core::Grid;

use super::Instance;
use super::adaptive::Weights;
use super::pibt::Noise;
use crate::moves::Options;

/// Agents planned anew in one step (Li et al. use 8 for MAPF-LNS2).
pub const NEIGHBOURHOOD: usize = 8;

/// Bytes per (cell, time) pair: the occupancy (2), one search's collisions and parents
/// (4 + 4), its list of pairs to reset (4) and its queue (20 bytes an entry in a vector up
/// to twice as large, at most one push per pair).
pub const BYTES_PER_PAIR: u64 = 54;

/// Bytes per agent and step: its path and its entries in the per-cell visitors.
const BYTES_PER_AGENT_STEP: u64 = 8;

/// The most (cell, time) pairs the repair takes on (its tables are indexed by u32).
const MAX_PAIRS: u64 = 1 << 30;

/// Tries to grow a neighbourhood past the collision graph, per agent wanted.
const GROW_TRIES: usize = 10;

/// Memory the repair at `horizon` on `grid` for `agents` agents needs, in bytes; `None`
/// when it cannot be run there at all (more agents than its occupancy counts, or too many
/// pairs).
pub fn memory_need(grid: &Grid, horizon: u32, agents: usize) -> Option<u64> {
    let pairs = (u64::from(horizon) + 1) * grid.cell_count() as u64;
    if agents > usize::from(u16::MAX) || pairs > MAX_PAIRS {
        return None;
    }
    let steps = agents as u64 * (u64::from(horizon) + 1);
    Some(
        pairs * BYTES_PER_PAIR
            + steps * BYTES_PER_AGENT_STEP
            + grid.cell_count() as u64 * (24 + 24 + 4 + 8)
            + agents as u64 * 64,
    )
}

/// The repair of the module documentation at `horizon`, at most `steps` steps: the
/// paths (every agent's cell at 0..=T) when no pair collides any more, a plan of makespan
/// T. For the tests, which replay its plans and compare them with the optimum.
///
/// # Complexity
/// As K searches and `steps` steps.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn plan_at(
    instance: &Instance<'_>,
    horizon: u32,
    steps: u64,
    seed: u64,
) -> Option<Vec<Vec<u32>>> {
    let mut repair = Repair::new(instance, horizon, seed, &mut || false)?;
    let mut made = 0u64;
    let repaired = repair.repair_until(&mut || {
        made += 1;
        made > steps
    });
    repaired.then(|| repair.into_paths())
}

/// How a neighbourhood is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    /// An agent in a collision and its connected agents in the collision graph (a random
    /// walk there when they are more than [`NEIGHBOURHOOD`]), filled up with agents whose
    /// paths cross theirs.
    Connected,
    /// Agents drawn among those in a collision.
    Random,
    /// An agent in a collision with the agents whose homes or starts are on its path
    /// (those that park in its way, or wait there at first; the failure-based choice of
    /// Li et al.), filled up with agents in a collision.
    Blocking,
}

const CHOICES: [Choice; 3] = [Choice::Connected, Choice::Random, Choice::Blocking];

/// A pair waiting in the search's queue (a path's end when `home`: home for good from
/// `time`, its stay counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    time: u32,
    cell: u32,
    home: bool,
}

/// The search's queue: fewest collisions first, then the least t + distance home, then
/// the last pushed (so that the search dives: a pair's successors and a path's end come
/// out before the pairs pushed earlier). A bucket per (collisions, estimate), since both
/// are small integers and never drop below the last popped key (the distance home is a
/// consistent estimate): push and pop in O(1) amortised, and O(levels x T) to move past
/// empty buckets.
///
/// Invariant: no bucket before (`level`, `estimate`) holds a node.
#[derive(Debug, Default)]
struct Buckets {
    /// Per collisions, per estimate: the nodes.
    levels: Vec<Vec<Vec<Node>>>,
    level: usize,
    estimate: usize,
    len: usize,
}

impl Buckets {
    fn push(&mut self, collisions: u32, estimate: u32, node: Node) {
        let (c, f) = (collisions as usize, estimate as usize);
        if self.levels.len() <= c {
            self.levels.resize_with(c + 1, Vec::new);
        }
        let level = &mut self.levels[c];
        if level.len() <= f {
            level.resize_with(f + 1, Vec::new);
        }
        level[f].push(node);
        self.len += 1;
    }

    /// The first node with its collisions.
    fn pop(&mut self) -> Option<(u32, Node)> {
        if self.len == 0 {
            return None;
        }
        loop {
            let level = &mut self.levels[self.level];
            while self.estimate < level.len() {
                if let Some(node) = level[self.estimate].pop() {
                    self.len -= 1;
                    return Some((self.level as u32, node));
                }
                self.estimate += 1;
            }
            self.level += 1;
            self.estimate = 0;
        }
    }

    /// Empties the queue (keeping its buckets).
    fn clear(&mut self) {
        for level in &mut self.levels {
            level.iter_mut().for_each(Vec::clear);
        }
        self.level = 0;
        self.estimate = 0;
        self.len = 0;
    }
}

/// No agent's home or start (in `home_of`, `start_of`).
const NOBODY: u32 = u32::MAX;

/// Not reached by the search under way.
const UNSEEN: u32 = u32::MAX;

/// A plan at a fixed horizon whose agents may collide, repaired step by step.
///
/// Invariant: every agent outside a step has a path of `horizon + 1` cells from its start
/// to its goal along the map's moves; `occupancy` counts the agents on each (cell, time),
/// `visitors` lists each cell's agents once, `colliders` each agent's colliding agents
/// (symmetric), and `pairs` is half their total.
pub(crate) struct Repair<'i, 'a> {
    instance: &'i Instance<'a>,
    options: Options,
    horizon: u32,
    cells: usize,
    /// Every agent's cell at 0..=T (empty while it is planned anew).
    paths: Vec<Vec<u32>>,
    /// Agents on (cell, time), at time x C + cell.
    occupancy: Vec<u16>,
    /// Per cell: the agents whose path is on it at some time, each once.
    visitors: Vec<Vec<u32>>,
    /// Per agent: the agents it collides with.
    colliders: Vec<Vec<u32>>,
    /// Colliding pairs.
    pairs: usize,
    /// Per cell: the agent whose home (start) it is, or [`NOBODY`].
    home_of: Vec<u32>,
    start_of: Vec<u32>,
    noise: Noise,
    weights: Weights<{ CHOICES.len() }>,
    /// Scratch of the search: fewest collisions found per pair, the cell before it, the
    /// pairs to reset, the queue.
    best: Vec<u32>,
    parent: Vec<u32>,
    touched: Vec<u32>,
    queue: Buckets,
    /// Scratch: a stamp per cell and per agent, to take each once.
    cell_mark: Vec<u32>,
    agent_mark: Vec<u32>,
    stamp: u32,
}

impl<'i, 'a> Repair<'i, 'a> {
    /// The first plan at `horizon`: each agent in turn (longest distance first) by the
    /// search of the module documentation against the ones before it. `None` when an
    /// agent cannot be home by `horizon` at all, its search passes its cap, or `stop`,
    /// asked before each agent's search, says so (the driver's deadline: K searches over
    /// (T + 1) x C pairs each can take minutes on a large map with 1000 agents).
    ///
    /// # Complexity
    /// K searches, each O((T + 1) C) pairs at most.
    pub(crate) fn new(
        instance: &'i Instance<'a>,
        horizon: u32,
        seed: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Self> {
        let cells = instance.grid.cell_count();
        let k = instance.starts.len();
        let pairs = (horizon as usize + 1) * cells;
        let mut repair = Repair {
            instance,
            options: Options::new(instance.grid),
            horizon,
            cells,
            paths: vec![Vec::new(); k],
            occupancy: vec![0; pairs],
            visitors: vec![Vec::new(); cells],
            colliders: vec![Vec::new(); k],
            pairs: 0,
            home_of: vec![NOBODY; cells],
            start_of: vec![NOBODY; cells],
            noise: Noise::new(seed),
            weights: Weights::default(),
            best: vec![UNSEEN; pairs],
            parent: vec![UNSEEN; pairs],
            touched: Vec::new(),
            queue: Buckets::default(),
            cell_mark: vec![0; cells],
            agent_mark: vec![0; k],
            stamp: 0,
        };
        for a in 0..k {
            repair.home_of[instance.goals[a].index()] = a as u32;
            repair.start_of[instance.starts[a].index()] = a as u32;
        }
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by_key(|&a| std::cmp::Reverse(instance.distance(a, instance.starts[a])));
        for a in order {
            if stop() {
                return None;
            }
            let path = repair.search(a)?;
            repair.add(a, path);
        }
        Some(repair)
    }

    /// The horizon T of every path.
    pub(crate) fn horizon(&self) -> u32 {
        self.horizon
    }

    /// The colliding pairs of the plan now.
    pub(crate) fn colliding_pairs(&self) -> usize {
        self.pairs
    }

    /// Steps until no pair collides (true) or `stop`, asked before each step, says so
    /// (false).
    ///
    /// # Complexity
    /// As the steps made.
    pub(crate) fn repair_until(&mut self, stop: &mut dyn FnMut() -> bool) -> bool {
        while self.pairs > 0 {
            if stop() {
                return false;
            }
            self.step();
        }
        true
    }

    /// The paths (every agent's cell at 0..=T); legal when no pair collides.
    pub(crate) fn into_paths(self) -> Vec<Vec<u32>> {
        self.paths
    }

    /// One step of the module documentation; true when the new paths were kept.
    pub(crate) fn step(&mut self) -> bool {
        if self.pairs == 0 {
            return false;
        }
        let choice = self.weights.draw(&mut self.noise);
        let neighbourhood = match CHOICES[choice] {
            Choice::Connected => self.connected_neighbourhood(),
            Choice::Random => self.random_neighbourhood(),
            Choice::Blocking => self.blocking_neighbourhood(),
        };
        if neighbourhood.is_empty() {
            return false;
        }
        let before = self.pairs;
        let old: Vec<Vec<u32>> = neighbourhood.iter().map(|&a| self.remove(a)).collect();
        let mut order = neighbourhood.clone();
        self.noise.shuffle(&mut order);
        let mut planned = Vec::with_capacity(order.len());
        let mut complete = true;
        for &a in &order {
            match self.search(a) {
                Some(path) => {
                    self.add(a, path);
                    planned.push(a);
                }
                None => {
                    complete = false;
                    break;
                }
            }
        }
        let kept = complete && self.pairs <= before;
        let gain = if kept {
            (before - self.pairs) as f64 / neighbourhood.len() as f64
        } else {
            0.0
        };
        self.weights.reward(choice, gain);
        if !kept {
            for a in planned {
                self.remove(a);
            }
            for (&a, path) in neighbourhood.iter().zip(old) {
                self.add(a, path);
            }
        }
        kept
    }

    /// The agents in a collision now.
    fn colliding_agents(&self) -> Vec<usize> {
        (0..self.colliders.len())
            .filter(|&a| !self.colliders[a].is_empty())
            .collect()
    }

    /// [`Choice::Connected`].
    fn connected_neighbourhood(&mut self) -> Vec<usize> {
        let colliding = self.colliding_agents();
        if colliding.is_empty() {
            return Vec::new();
        }
        let first = colliding[self.noise.below(colliding.len())];
        self.stamp = self.stamp.wrapping_add(1);
        let stamp = self.stamp;
        // The connected agents, breadth first, up to one more than the neighbourhood.
        let mut component = vec![first];
        self.agent_mark[first] = stamp;
        let mut next = 0;
        while next < component.len() && component.len() <= NEIGHBOURHOOD {
            let a = component[next];
            next += 1;
            for &b in &self.colliders[a] {
                let b = b as usize;
                if self.agent_mark[b] != stamp {
                    self.agent_mark[b] = stamp;
                    component.push(b);
                }
            }
        }
        let mut chosen = vec![first];
        self.stamp = self.stamp.wrapping_add(1);
        let stamp = self.stamp;
        self.agent_mark[first] = stamp;
        if component.len() > NEIGHBOURHOOD {
            // A random walk in the collision graph from the first agent.
            let mut at = first;
            for _ in 0..NEIGHBOURHOOD * GROW_TRIES {
                if chosen.len() == NEIGHBOURHOOD {
                    break;
                }
                let around = &self.colliders[at];
                if around.is_empty() {
                    break;
                }
                at = around[self.noise.below(around.len())] as usize;
                if self.agent_mark[at] != stamp {
                    self.agent_mark[at] = stamp;
                    chosen.push(at);
                }
            }
            return chosen;
        }
        for &a in &component[1..] {
            self.agent_mark[a] = stamp;
            chosen.push(a);
        }
        // Filled up with agents whose paths cross the chosen ones' (in their way now, or
        // on the way of a path they may take instead).
        for _ in 0..NEIGHBOURHOOD * GROW_TRIES {
            if chosen.len() >= NEIGHBOURHOOD {
                break;
            }
            let a = chosen[self.noise.below(chosen.len())];
            let path = &self.paths[a];
            let v = path[self.noise.below(path.len())];
            let around = self.options.of(v);
            let u = around[self.noise.below(around.len())];
            let visitors = &self.visitors[u as usize];
            if visitors.is_empty() {
                continue;
            }
            let b = visitors[self.noise.below(visitors.len())] as usize;
            if self.agent_mark[b] != stamp {
                self.agent_mark[b] = stamp;
                chosen.push(b);
            }
        }
        chosen
    }

    /// [`Choice::Blocking`].
    fn blocking_neighbourhood(&mut self) -> Vec<usize> {
        let mut colliding = self.colliding_agents();
        if colliding.is_empty() {
            return Vec::new();
        }
        let first = colliding[self.noise.below(colliding.len())];
        self.stamp = self.stamp.wrapping_add(1);
        let stamp = self.stamp;
        self.agent_mark[first] = stamp;
        let mut found = Vec::new();
        for &v in &self.paths[first] {
            for b in [self.home_of[v as usize], self.start_of[v as usize]] {
                if b != NOBODY && self.agent_mark[b as usize] != stamp {
                    self.agent_mark[b as usize] = stamp;
                    found.push(b as usize);
                }
            }
        }
        self.noise.shuffle(&mut found);
        found.truncate(NEIGHBOURHOOD - 1);
        let mut chosen = vec![first];
        chosen.extend(found);
        self.noise.shuffle(&mut colliding);
        for a in colliding {
            if chosen.len() >= NEIGHBOURHOOD {
                break;
            }
            if self.agent_mark[a] != stamp {
                self.agent_mark[a] = stamp;
                chosen.push(a);
            }
        }
        chosen
    }

    /// [`Choice::Random`].
    fn random_neighbourhood(&mut self) -> Vec<usize> {
        let mut colliding = self.colliding_agents();
        self.noise.shuffle(&mut colliding);
        colliding.truncate(NEIGHBOURHOOD);
        colliding
    }

    /// Agents on `(cell, time)`, besides the one planned.
    #[inline]
    fn on(&self, cell: u32, time: u32) -> u32 {
        u32::from(self.occupancy[time as usize * self.cells + cell as usize])
    }

    /// Agents that go from `from` at `time` to `to` at `time + 1` (meeting one that goes
    /// the other way is a swap).
    fn moving(&self, from: u32, to: u32, time: u32) -> u32 {
        if self.on(from, time) == 0 || self.on(to, time + 1) == 0 {
            return 0;
        }
        let t = time as usize;
        self.visitors[from as usize]
            .iter()
            .filter(|&&b| {
                let path = &self.paths[b as usize];
                path[t] == from && path[t + 1] == to
            })
            .count() as u32
    }

    /// Takes `path` as agent `a`'s: its colliding agents counted, then its cells.
    ///
    /// # Complexity
    /// O(T x V) for V agents that visit a cell.
    fn add(&mut self, a: usize, path: Vec<u32>) {
        self.stamp = self.stamp.wrapping_add(1);
        let stamp = self.stamp;
        let mut met = Vec::new();
        for (t, &v) in path.iter().enumerate() {
            if self.on(v, t as u32) > 0 {
                for &b in &self.visitors[v as usize] {
                    if self.paths[b as usize][t] == v && self.agent_mark[b as usize] != stamp {
                        self.agent_mark[b as usize] = stamp;
                        met.push(b);
                    }
                }
            }
            if let Some(&u) = path.get(t + 1)
                && u != v
                && self.moving(u, v, t as u32) > 0
            {
                for &b in &self.visitors[u as usize] {
                    let other = &self.paths[b as usize];
                    if other[t] == u && other[t + 1] == v && self.agent_mark[b as usize] != stamp {
                        self.agent_mark[b as usize] = stamp;
                        met.push(b);
                    }
                }
            }
        }
        for &b in &met {
            self.colliders[b as usize].push(a as u32);
        }
        self.pairs += met.len();
        self.colliders[a] = met;
        for (t, &v) in path.iter().enumerate() {
            let at = t * self.cells + v as usize;
            self.occupancy[at] = self.occupancy[at].saturating_add(1);
            if self.cell_mark[v as usize] != stamp {
                self.cell_mark[v as usize] = stamp;
                self.visitors[v as usize].push(a as u32);
            }
        }
        self.paths[a] = path;
    }

    /// Drops agent `a`'s path, and returns it.
    ///
    /// # Complexity
    /// O(T + the visitors of its cells + its colliders' colliders).
    fn remove(&mut self, a: usize) -> Vec<u32> {
        let path = std::mem::take(&mut self.paths[a]);
        let met = std::mem::take(&mut self.colliders[a]);
        for &b in &met {
            self.colliders[b as usize].retain(|&c| c as usize != a);
        }
        self.pairs -= met.len();
        self.stamp = self.stamp.wrapping_add(1);
        let stamp = self.stamp;
        for (t, &v) in path.iter().enumerate() {
            let at = t * self.cells + v as usize;
            self.occupancy[at] = self.occupancy[at].saturating_sub(1);
            if self.cell_mark[v as usize] != stamp {
                self.cell_mark[v as usize] = stamp;
                self.visitors[v as usize].retain(|&b| b as usize != a);
            }
        }
        path
    }

    /// Agent `a`'s path of fewest collisions with the others' paths (then home earliest),
    /// as the module documentation says; `None` when it cannot be home by T, or the
    /// search passes one push per pair.
    fn search(&mut self, a: usize) -> Option<Vec<u32>> {
        let horizon = self.horizon;
        let cells = self.cells;
        let goal = self.instance.goals[a].index() as u32;
        let start = self.instance.starts[a].index() as u32;
        let dist = self.instance.distances(a);
        if dist.at(start as usize) > horizon {
            return None;
        }
        // stay[t]: the collisions of staying home at t..=T.
        let mut stay = vec![0u32; horizon as usize + 2];
        for t in (0..=horizon).rev() {
            stay[t as usize] = stay[t as usize + 1] + self.on(goal, t);
        }
        let cap = self.best.len();
        let mut pushes = 1usize;
        let first = self.on(start, 0);
        self.best[start as usize] = first;
        self.touched.push(start);
        self.queue.push(
            first,
            dist.at(start as usize),
            Node {
                time: 0,
                cell: start,
                home: false,
            },
        );
        let mut end = None;
        while let Some((collisions, node)) = self.queue.pop() {
            let Node {
                time: t,
                cell: v,
                home,
            } = node;
            if home {
                end = Some(t);
                break;
            }
            if collisions > self.best[t as usize * cells + v as usize] {
                continue; // reached with fewer since: this entry is stale
            }
            if v == goal {
                self.queue.push(
                    collisions + stay[t as usize + 1],
                    t,
                    Node {
                        time: t,
                        cell: v,
                        home: true,
                    },
                );
            }
            if t == horizon {
                continue;
            }
            let next = t + 1;
            for i in 0..self.options.of(v).len() {
                let u = self.options.of(v)[i];
                if next + dist.at(u as usize) > horizon {
                    continue;
                }
                let mut cost = collisions + self.on(u, next);
                if u != v {
                    cost += self.moving(u, v, t);
                }
                let at = next as usize * cells + u as usize;
                if cost >= self.best[at] {
                    continue;
                }
                if self.best[at] == UNSEEN {
                    self.touched.push(at as u32);
                }
                self.best[at] = cost;
                self.parent[at] = v;
                pushes += 1;
                if pushes > cap {
                    break;
                }
                self.queue.push(
                    cost,
                    next + dist.at(u as usize),
                    Node {
                        time: next,
                        cell: u,
                        home: false,
                    },
                );
            }
            if pushes > cap {
                break;
            }
        }
        let path = end.map(|arrival| {
            let mut path = vec![goal; horizon as usize + 1];
            let mut v = goal;
            for t in (1..=arrival as usize).rev() {
                path[t] = v;
                v = self.parent[t * cells + v as usize];
            }
            path[0] = v;
            path
        });
        for &at in &self.touched {
            self.best[at as usize] = UNSEEN;
        }
        self.touched.clear();
        self.queue.clear();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Dataset;
    use crate::plan::check_plan;
    use grid_core::CellId;
    use grid_core::rng::SplitMix64;

    /// A random map of 3 to 9 rows and columns with up to 30 % walls, and 2 to 12
    /// agents on distinct random starts and goals (at most one per 2 cells).
    fn random_instance(rng: &mut SplitMix64) -> Option<(Grid, Vec<CellId>, Vec<CellId>)> {
        test_support::random_agents(rng, 2)
    }

    /// The colliding pairs of `paths`, counted plainly: two agents on one cell, or
    /// swapping cells, at some time.
    fn pairs_of(paths: &[Vec<u32>]) -> usize {
        let mut pairs = 0;
        for a in 0..paths.len() {
            for b in a + 1..paths.len() {
                let (p, q) = (&paths[a], &paths[b]);
                let meet = (0..p.len()).any(|t| {
                    p[t] == q[t]
                        || (t + 1 < p.len()
                            && p[t] != p[t + 1]
                            && p[t] == q[t + 1]
                            && p[t + 1] == q[t])
                });
                pairs += usize::from(meet);
            }
        }
        pairs
    }

    /// On random small maps at the lower bound and a step or two above it: the pairs
    /// the repair counts are the pairs of its paths after every step, every path runs
    /// from its start to its goal in T steps, and a plan with no pair left replays legally
    /// with the plan checker in T steps.
    #[test]
    fn the_pairs_counted_are_the_paths_pairs_and_a_repaired_plan_replays() {
        let mut rng = SplitMix64::new(1717);
        let (mut tried, mut repaired, mut stepped) = (0, 0, 0);
        while tried < 400 {
            let Some((grid, starts, goals)) = random_instance(&mut rng) else {
                continue;
            };
            let instance = Instance::new(&grid, &starts, &goals);
            let Some(bound) = instance.lower_bound() else {
                continue;
            };
            tried += 1;
            let horizon = bound + rng.below(3) as u32;
            let Some(mut repair) = Repair::new(&instance, horizon, tried as u64, &mut || false)
            else {
                panic!("no first plan at {horizon} on {grid:?}");
            };
            for _ in 0..200 {
                assert_eq!(repair.colliding_pairs(), pairs_of(&repair.paths));
                if repair.colliding_pairs() == 0 {
                    break;
                }
                repair.step();
                stepped += 1;
            }
            for (a, path) in repair.paths.iter().enumerate() {
                assert_eq!(path.len(), horizon as usize + 1);
                assert_eq!(path[0] as usize, starts[a].index());
                assert_eq!(*path.last().unwrap_or(&u32::MAX) as usize, goals[a].index());
            }
            if repair.colliding_pairs() == 0 {
                repaired += 1;
                let paths = repair.into_paths();
                let dataset = Dataset::from_checked_cells(grid.clone(), starts, goals, 1);
                let plan = crate::mapf::constructive::to_placements(&paths, horizon);
                assert_eq!(check_plan(&dataset, &plan), Ok(horizon as usize));
            }
        }
        assert!(repaired > 300, "repaired only {repaired} of {tried}");
        assert!(stepped > 100, "only {stepped} steps");
    }
}

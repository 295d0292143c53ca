//! Plans of low sum of costs without a proof: a first plan by prioritized planning with
//! random restarts of the order, then large neighbourhood search (MAPF-LNS, Li et al.,
//! IJCAI 2021): again and again a few agents' paths are dropped and planned anew around
//! the others, and kept when the sum of their costs drops.
//!
//! Why: where the proof of the sum of costs does not finish (large maps, many agents),
//! the answer is the best plan known with the proven bound, and LaCAM*'s plans, made for
//! the makespan, are far above that bound (brc202d with 100 agents: 47077 against a bound
//! of 42528). Each agent's search is the makespan's safe-interval search
//! ([`super::constructive`]), home for good at the earliest time it can around the
//! others, with the whole horizon as slack.
//!
//! A neighbourhood is chosen one of three ways, drawn by adaptive weights that follow
//! which way lowered the sum lately ([`super::adaptive`]; the adaptive LNS of Li et al.):
//! an agent that arrives late with the agents whose paths cross its shortest way home
//! (those that hold it up); the agents that pass a random intersection and the cells
//! around it (where agents can trade their order of passing); or agents drawn at random.
//! Every path stays legal against every other at every step, so the plan can be taken at
//! any time.
//!
//! Beside the proof, once these steps stall, exact steps take a share of the time
//! ([`ExactShare`]): a neighbourhood planned jointly by SAT around every other path, one
//! step cheaper than it is, grown by the agents whose paths stand in its way
//! ([`Lns::exact_step`]). They find what only a joint move of several agents gives.
//!
//! # Complexity
//! A first plan: K searches per attempt. One step of the search: [`NEIGHBOURHOOD`]
//! searches (each O(N (log N + log R)) for the N states it reaches), plus O(K + L x R)
//! to choose the neighbourhood (L the late agent's distance, R the visits of a cell; an
//! intersection's: up to [`NEIGHBOURHOOD`] x [`CELLS_PER_AGENT`] cells' visits).
//! Memory O(K x H) for the paths and their reservations at horizon H.

use std::time::{Duration, Instant};

use super::Instance;
use super::adaptive::Weights;
use super::constructive::Planner;
use super::pibt::Noise;
use super::sat::Deadline;
use super::soc::encoding::{Avoiding, Session, count_variables};
use super::soc::planning::cost;

/// Agents planned anew in one step (Li et al. found 4 to 16 best on most maps).
pub const NEIGHBOURHOOD: usize = 8;

/// The conflicts of an exact step's SAT call ([`Lns::exact_step`]).
pub const EXACT_CONFLICTS: i32 = 2_000;

/// Steps in a row without a gain after which exact steps ([`Lns::exact_step`]) take
/// their share of the time ([`ExactShare`]).
pub const EXACT_AFTER: u64 = 256;

/// The share of the time exact steps take at first, against the other steps' time since
/// the stall; it doubles with each exact step that gains, up to as much as theirs.
pub const EXACT_FIRST_SHARE: f64 = 0.1;

/// Agents planned anew in one exact step ([`Lns::exact_step`]).
pub const EXACT_NEIGHBOURHOOD: usize = 8;

/// The most agents an exact step grows its neighbourhood to with the agents whose paths
/// stand in its way ([`Lns::exact_step`]).
pub const EXACT_MOST: usize = 32;

/// The most variables of an exact step's encoding ([`Lns::exact_step`]).
pub const EXACT_VARIABLES: u64 = 100_000;

/// When the search beside the proof takes an exact step ([`Lns::exact_step`]) instead of
/// a planning one ([`Lns::step`]): once [`EXACT_AFTER`] steps in a row gained nothing,
/// exact steps take [`EXACT_FIRST_SHARE`] of the time the other steps took since, and
/// twice that share for each exact step that gained (as much as theirs at most). A gain
/// of either kind ends the stall, and the exact steps wait for the next one.
///
/// Why a share of the time and not of the steps: an exact step takes 0.01 to 0.3 s, a
/// planning step a millisecond; on room-64-64-8 even-1 K = 40 every other step exact
/// took the time of the cascade of planning steps that reaches 2933 at 14 s (2942 at 30 s
/// instead), while a tenth of it leaves that cascade alone (2933) and still gives
/// empty-16-16 random-1 K = 80 its joint moves (864-865 instead of 868).
#[derive(Debug, Default)]
pub(crate) struct ExactShare {
    /// Whether exact steps are taken at all.
    allowed: bool,
    /// Steps since the last gain.
    idle: u64,
    /// The time of exact steps, and of the other steps since the first stall.
    exact: Duration,
    other: Duration,
    /// Exact steps that gained.
    wins: u32,
}

impl ExactShare {
    /// No step taken yet; exact steps only when `allowed`.
    pub(crate) fn new(allowed: bool) -> Self {
        ExactShare {
            allowed,
            ..ExactShare::default()
        }
    }

    /// Whether the next step is exact.
    pub(crate) fn exact_next(&self) -> bool {
        let share = (EXACT_FIRST_SHARE * 2f64.powi(self.wins.min(64) as i32)).min(1.0);
        self.allowed
            && self.idle >= EXACT_AFTER
            && self.exact.as_secs_f64() <= self.other.as_secs_f64() * share
    }

    /// Records a step: whether it was exact, the time it took, whether it gained.
    pub(crate) fn record(&mut self, exact: bool, took: Duration, gained: bool) {
        if exact {
            self.exact += took;
            self.wins += u32::from(gained);
        } else if self.idle >= EXACT_AFTER || !self.exact.is_zero() {
            self.other += took;
        }
        self.idle = if gained { 0 } else { self.idle + 1 };
    }
}

/// How a neighbourhood is chosen (drawn by adaptive weights, [`super::adaptive`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    /// An agent home late and the agents whose paths cross its shortest way home (those
    /// that hold it up); random agents when none is late.
    Late,
    /// The agents that pass a random intersection (a cell of three or more neighbours)
    /// and the cells around it, breadth first (the map-based choice of Li et al.: agents
    /// that meet there can trade their order of passing).
    Intersection,
    /// Agents drawn at random.
    Random,
}

const CHOICES: [Choice; 3] = [Choice::Late, Choice::Intersection, Choice::Random];

/// Cells the intersection choice looks at, at most, per agent it wants.
const CELLS_PER_AGENT: usize = 8;

/// A legal plan for every agent, improved step by step.
///
/// Invariant: the planner holds every agent's path (each `horizon + 1` cells, legal
/// against the others), `costs` their costs and `total` their sum.
pub(crate) struct Lns<'i, 'a> {
    instance: &'i Instance<'a>,
    planner: Planner<'i, 'a>,
    distances: Vec<u32>,
    costs: Vec<u32>,
    total: u64,
    noise: Noise,
    weights: Weights<{ CHOICES.len() }>,
    /// The cells with three or more neighbours.
    intersections: Vec<u32>,
    /// Every path has `horizon + 1` cells.
    horizon: u32,
    /// When an exact step's SAT call gives up ([`Lns::give_up_at`]).
    give_up: Option<Instant>,
    /// The exact steps' own draws, so that they leave the other steps' course as it is.
    exact_noise: Noise,
}

impl<'i, 'a> Lns<'i, 'a> {
    /// A first plan by prioritized planning at horizon `horizon`, every agent home for
    /// good as early as it can around those before it: the first order longest distance
    /// first, then random orders, until one places every agent; `None` when `attempts`
    /// orders did not, or `stop` (asked before each attempt) says so.
    ///
    /// # Complexity
    /// K searches per attempt.
    pub(crate) fn by_planning(
        instance: &'i Instance<'a>,
        horizon: u32,
        attempts: usize,
        seed: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Self> {
        let k = instance.starts.len();
        let distances: Vec<u32> = (0..k)
            .map(|a| instance.distance(a, instance.starts[a]))
            .collect();
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by_key(|&a| std::cmp::Reverse(distances[a]));
        let mut noise = Noise::new(seed);
        let mut planner = Planner::new(instance, horizon);
        let mut costs = vec![0; k];
        for _ in 0..attempts {
            if stop() {
                return None;
            }
            planner.clear();
            let placed = order.iter().all(|&a| match planner.plan_by(a, horizon) {
                Some(arrival) => {
                    costs[a] = arrival;
                    true
                }
                None => false,
            });
            if placed {
                let total = costs.iter().map(|&c| u64::from(c)).sum();
                let crossings = intersections(instance);
                return Some(Lns {
                    horizon,
                    give_up: None,
                    exact_noise: Noise::new(seed ^ 0x5eed),
                    weights: weights_for(&crossings),
                    intersections: crossings,
                    instance,
                    planner,
                    distances,
                    costs,
                    total,
                    noise,
                });
            }
            noise.shuffle(&mut order);
        }
        None
    }

    /// The plan `paths` (every agent's cell at 0..=its length, legal), kept to horizon
    /// max(`horizon`, its makespan) with each agent staying on its last cell, which must
    /// be its goal. `None` when `stop`, asked before each agent's paths are reserved, says
    /// so: the driver's deadline (a plan of Push and Swap on maze-128-128-1 with 1000
    /// agents, makespan 98 281, took 24 s to reserve and ended 6 s past the limit).
    ///
    /// # Complexity
    /// O(K x H) and the reservations' insertions.
    pub(crate) fn from_paths(
        instance: &'i Instance<'a>,
        mut paths: Vec<Vec<u32>>,
        horizon: u32,
        seed: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Self> {
        let k = instance.starts.len();
        let longest = paths.iter().map(|p| p.len().saturating_sub(1)).max();
        let horizon = horizon.max(longest.unwrap_or(0) as u32);
        let mut planner = Planner::new(instance, horizon);
        let mut costs = vec![0; k];
        for (a, path) in paths.iter_mut().enumerate() {
            if stop() {
                return None;
            }
            let last = path
                .last()
                .copied()
                .unwrap_or(instance.starts[a].index() as u32);
            path.resize(horizon as usize + 1, last);
            costs[a] = cost(path, instance.goals[a].index() as u32);
            planner.reserve(a, std::mem::take(path));
        }
        let total = costs.iter().map(|&c| u64::from(c)).sum();
        let crossings = intersections(instance);
        Some(Lns {
            horizon,
            give_up: None,
            exact_noise: Noise::new(seed ^ 0x5eed),
            weights: weights_for(&crossings),
            intersections: crossings,
            instance,
            planner,
            distances: (0..k)
                .map(|a| instance.distance(a, instance.starts[a]))
                .collect(),
            costs,
            total,
            noise: Noise::new(seed),
        })
    }

    /// The sum of costs of the plan.
    /// From now on, one agent's search inside a step gives up at `at` (the step is then
    /// not kept): the driver's deadline ([`Planner::give_up_at`]). Why: past a plan of
    /// Push and Swap (maze-128-128-1 with 1000 agents: makespan 98 281), one agent's
    /// search over that horizon took seconds, and the step ended 5.7 s past the limit.
    pub(crate) fn give_up_at(&mut self, at: Option<Instant>) {
        self.planner.give_up_at(at);
        self.give_up = at;
    }

    pub(crate) fn cost(&self) -> u64 {
        self.total
    }

    /// The sum of the agents' distances: no plan costs less.
    pub(crate) fn lower_bound(&self) -> u64 {
        self.distances.iter().map(|&d| u64::from(d)).sum()
    }

    /// Steps of the search until `stop` (asked before each) says so or the plan meets
    /// the lower bound.
    pub(crate) fn improve_until(&mut self, stop: &mut dyn FnMut() -> bool) {
        self.improve_while(u64::MAX, stop);
    }

    /// As [`Lns::improve_until`], stopping also after `patience` steps in a row that did
    /// not improve the plan (a first plan before the proof: the proof may end the search
    /// sooner than any number of steps).
    pub(crate) fn improve_while(&mut self, patience: u64, stop: &mut dyn FnMut() -> bool) {
        let lower_bound = self.lower_bound();
        let mut idle = 0u64;
        while self.total > lower_bound && idle < patience && !stop() {
            idle = if self.step() { 0 } else { idle + 1 };
        }
    }

    /// One step: a neighbourhood planned anew, in a random order, around the others;
    /// kept when every agent of it finds a path and their costs sum to less, else the
    /// old paths back. Whether the plan improved.
    pub(crate) fn step(&mut self) -> bool {
        let choice = self.weights.draw(&mut self.noise);
        let neighbourhood = self.neighbourhood(CHOICES[choice]);
        let old_paths: Vec<Vec<u32>> = neighbourhood
            .iter()
            .map(|&a| self.planner.release(a))
            .collect();
        let old: u64 = neighbourhood
            .iter()
            .map(|&a| u64::from(self.costs[a]))
            .sum();
        let mut order = neighbourhood.clone();
        self.noise.shuffle(&mut order);
        let mut new_costs = Vec::with_capacity(order.len());
        for &a in &order {
            match self.planner.plan_by(a, u32::MAX) {
                Some(arrival) => new_costs.push(arrival),
                None => break,
            }
        }
        let new: u64 = new_costs.iter().map(|&c| u64::from(c)).sum();
        let complete = new_costs.len() == order.len();
        let gain = if complete && new < old {
            (old - new) as f64 / order.len() as f64
        } else {
            0.0
        };
        self.weights.reward(choice, gain);
        if complete && new <= old {
            for (&a, &c) in order.iter().zip(&new_costs) {
                self.costs[a] = c;
            }
            self.total = self.total - old + new;
            return new < old;
        }
        for &a in order.iter().take(new_costs.len()) {
            self.planner.release(a);
        }
        for (&a, path) in neighbourhood.iter().zip(old_paths) {
            self.planner.reserve(a, path);
        }
        false
    }

    /// One exact step: a neighbourhood (chosen as [`Lns::step`] chooses, the weights
    /// left as they are) planned anew by SAT around every other agent's path, with one
    /// extra step fewer than its agents have now ([`Session::plan_avoiding`], within
    /// [`EXACT_CONFLICTS`] conflicts); kept when the solver finds such a plan. Whether
    /// the plan improved. Nothing is done when the neighbourhood has no extra steps, or
    /// when its encoding would pass [`EXACT_VARIABLES`] variables.
    ///
    /// Why: prioritized planning, agent after agent, misses what only a joint move of a
    /// few agents gives; on empty-16-16 random-1 K = 80 its plan stays at 868 from the
    /// first second while the optimum is 862.
    ///
    /// # Complexity
    /// O(N x H x K) clauses for N agents planned anew, horizon H and K agents, and one
    /// SAT call per round of swap clauses.
    pub(crate) fn exact_step(&mut self) -> bool {
        std::mem::swap(&mut self.noise, &mut self.exact_noise);
        let improved = self.exact_step_drawn();
        std::mem::swap(&mut self.noise, &mut self.exact_noise);
        improved
    }

    fn exact_step_drawn(&mut self) -> bool {
        let choice = self.weights.draw(&mut self.noise);
        let mut neighbourhood = self.neighbourhood_of(CHOICES[choice], EXACT_NEIGHBOURHOOD);
        neighbourhood.sort_unstable();
        let mut extra = self.extra_of(&neighbourhood);
        let (neighbourhood, paths) = loop {
            let Some(budget) = extra.checked_sub(1) else {
                return false;
            };
            if count_variables(self.instance, &neighbourhood, budget) > EXACT_VARIABLES {
                return false;
            }
            let others: Vec<usize> = (0..self.costs.len())
                .filter(|a| neighbourhood.binary_search(a).is_err())
                .collect();
            let paths: Vec<Vec<Vec<u32>>> = others
                .iter()
                .map(|&a| vec![self.planner.path_of(a).to_vec()])
                .collect();
            let mut session = Session::new(
                self.instance,
                &neighbourhood,
                budget,
                Deadline(self.give_up),
                &[],
            );
            let got = session.plan_avoiding(self.instance, budget, &paths, EXACT_CONFLICTS);
            match got {
                Avoiding::Plan(found) => break (neighbourhood, found),
                // The agents whose paths stand in the way join, while they fit.
                Avoiding::Core(core)
                    if !core.is_empty() && neighbourhood.len() + core.len() <= EXACT_MOST =>
                {
                    neighbourhood.extend(core.iter().map(|&i| others[i]));
                    neighbourhood.sort_unstable();
                    extra = self.extra_of(&neighbourhood);
                }
                _ => return false,
            }
        };
        let goal = |a: usize| self.instance.goals[a].index() as u32;
        let costs: Vec<u32> = neighbourhood
            .iter()
            .zip(&paths)
            .map(|(&a, path)| cost(path, goal(a)))
            .collect();
        if costs.iter().any(|&c| c > self.horizon) {
            return false;
        }
        for ((&a, mut path), c) in neighbourhood.iter().zip(paths).zip(costs) {
            self.planner.release(a);
            path.resize(self.horizon as usize + 1, goal(a));
            self.planner.reserve(a, path);
            self.total = self.total - u64::from(self.costs[a]) + u64::from(c);
            self.costs[a] = c;
        }
        true
    }

    /// The steps `agents` take in all beyond their distances home.
    fn extra_of(&self, agents: &[usize]) -> u32 {
        agents
            .iter()
            .map(|&a| self.costs[a] - self.distances[a])
            .sum()
    }

    /// The makespan of the plan: the latest cost.
    pub(crate) fn makespan(&self) -> u32 {
        self.costs.iter().copied().max().unwrap_or(0)
    }

    /// Steps that shorten the makespan until `stop` (asked before each) says so or the
    /// makespan meets `lower_bound`: each takes one of the agents home last (at the
    /// makespan M) and the agents that cross its shortest way home, and plans them anew,
    /// that one first, all home by M - 1; kept when every one of them is (one agent
    /// fewer home at M, or a shorter makespan), else the old paths back. The sum of
    /// costs may grow.
    ///
    /// # Complexity
    /// As [`Lns::step`], per step.
    pub(crate) fn shorten_until(&mut self, lower_bound: u32, stop: &mut dyn FnMut() -> bool) {
        while self.makespan() > lower_bound && !stop() {
            self.shorten_step();
        }
    }

    /// One step of [`Lns::shorten_until`]; whether it was kept.
    fn shorten_step(&mut self) -> bool {
        let makespan = self.makespan();
        let Some(deadline) = makespan.checked_sub(1) else {
            return false;
        };
        let last: Vec<usize> = (0..self.costs.len())
            .filter(|&a| self.costs[a] == makespan)
            .collect();
        let a = last[self.noise.below(last.len())];
        let way = self.shortest_way(a);
        let mut blockers = Vec::new();
        self.planner.agents_on(&way, a, &mut blockers);
        self.noise.shuffle(&mut blockers);
        let mut neighbourhood = vec![a];
        neighbourhood.extend(blockers.into_iter().take(NEIGHBOURHOOD - 1));
        let old_paths: Vec<Vec<u32>> = neighbourhood
            .iter()
            .map(|&b| self.planner.release(b))
            .collect();
        let mut new_costs = Vec::with_capacity(neighbourhood.len());
        for &b in &neighbourhood {
            match self.planner.plan_by(b, deadline) {
                Some(arrival) => new_costs.push(arrival),
                None => break,
            }
        }
        if new_costs.len() == neighbourhood.len() {
            for (&b, &c) in neighbourhood.iter().zip(&new_costs) {
                self.total = self.total - u64::from(self.costs[b]) + u64::from(c);
                self.costs[b] = c;
            }
            return true;
        }
        for &b in neighbourhood.iter().take(new_costs.len()) {
            self.planner.release(b);
        }
        for (&b, path) in neighbourhood.iter().zip(old_paths) {
            self.planner.reserve(b, path);
        }
        false
    }

    /// The agents of the next step, chosen as `choice` says.
    fn neighbourhood(&mut self, choice: Choice) -> Vec<usize> {
        self.neighbourhood_of(choice, NEIGHBOURHOOD)
    }

    /// `size` agents (all when fewer), chosen as `choice` says.
    fn neighbourhood_of(&mut self, choice: Choice, size: usize) -> Vec<usize> {
        let k = self.costs.len();
        let size = size.min(k);
        let mut chosen: Vec<usize> = Vec::with_capacity(size);
        match choice {
            Choice::Late => {
                let late: Vec<usize> = (0..k)
                    .filter(|&a| self.costs[a] > self.distances[a])
                    .collect();
                if !late.is_empty() {
                    let a = late[self.noise.below(late.len())];
                    chosen.push(a);
                    let way = self.shortest_way(a);
                    let mut blockers = Vec::new();
                    self.planner.agents_on(&way, a, &mut blockers);
                    self.noise.shuffle(&mut blockers);
                    chosen.extend(blockers.into_iter().take(size - 1));
                }
            }
            Choice::Intersection => self.around_intersection(size, &mut chosen),
            Choice::Random => {}
        }
        while chosen.len() < size {
            let a = self.noise.below(k);
            if !chosen.contains(&a) {
                chosen.push(a);
            }
        }
        chosen
    }

    /// [`Choice::Intersection`]: up to `size` agents that pass a random intersection and
    /// the cells around it (breadth first, at most [`CELLS_PER_AGENT`] cells per agent
    /// wanted), into `chosen`; a cell's agents in a random order.
    fn around_intersection(&mut self, size: usize, chosen: &mut Vec<usize>) {
        if self.intersections.is_empty() {
            return;
        }
        let first = self.intersections[self.noise.below(self.intersections.len())];
        let mut cells = vec![first];
        let mut next = 0;
        let mut found = Vec::new();
        while next < cells.len() && chosen.len() < size && next < size * CELLS_PER_AGENT {
            let v = cells[next];
            next += 1;
            found.clear();
            self.planner.agents_on(&[v], usize::MAX, &mut found);
            self.noise.shuffle(&mut found);
            for &b in &found {
                if chosen.len() < size && !chosen.contains(&b) {
                    chosen.push(b);
                }
            }
            for (_, u) in self
                .instance
                .grid
                .neighbours(grid_core::CellId::new(v as usize))
            {
                let u = u.index() as u32;
                if !cells.contains(&u) {
                    cells.push(u);
                }
            }
        }
    }

    /// The cells of one shortest way of agent `a` home, alone on the map.
    fn shortest_way(&self, a: usize) -> Vec<u32> {
        let dist = self.instance.distances(a);
        let goal = self.instance.goals[a].index() as u32;
        let mut v = self.instance.starts[a].index() as u32;
        let mut way = vec![v];
        while v != goal {
            let here = dist.at(v as usize);
            let next = self
                .instance
                .grid
                .neighbours(grid_core::CellId::new(v as usize))
                .map(|(_, u)| u.index() as u32)
                .find(|&u| dist.at(u as usize) < here);
            match next {
                Some(u) => v = u,
                None => break,
            }
            way.push(v);
        }
        way
    }

    /// Every agent's path (each `horizon + 1` cells).
    pub(crate) fn into_paths(self) -> Vec<Vec<u32>> {
        self.planner.into_paths()
    }
}

/// The cells of `instance`'s map with three or more neighbours.
fn intersections(instance: &Instance<'_>) -> Vec<u32> {
    let grid = instance.grid;
    (0..grid.cell_count())
        .filter(|&v| grid.neighbours(grid_core::CellId::new(v)).count() >= 3)
        .map(|v| v as u32)
        .collect()
}

/// The choices' first weights on a map whose intersections are `intersections`:
/// [`Choice::Intersection`] off where there is none.
fn weights_for(intersections: &[u32]) -> Weights<{ CHOICES.len() }> {
    Weights::without([false, intersections.is_empty(), false])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Dataset;
    use crate::mapf::soc::sum_of_costs;
    use crate::plan::check_plan;
    use grid_core::rng::SplitMix64;
    use grid_core::{CellId, Grid};

    /// A random map of 3 to 9 rows and columns with up to 30 % walls, and 2 to 12
    /// agents on distinct random starts and goals (at most one per 3 cells).
    fn random_instance(rng: &mut SplitMix64) -> Option<(Grid, Vec<CellId>, Vec<CellId>)> {
        test_support::random_agents(rng, 3)
    }

    /// Replays `paths` (each agent's cell at 0..=H) with the plan checker; the checker's
    /// error in words.
    fn replay(
        grid: &Grid,
        starts: &[CellId],
        goals: &[CellId],
        paths: &[Vec<u32>],
    ) -> Result<(), String> {
        let horizon = paths.first().map_or(0, |p| p.len() - 1);
        if paths.iter().any(|p| p.len() != horizon + 1) {
            return Err("paths of different lengths".into());
        }
        if paths
            .iter()
            .zip(starts)
            .any(|(p, s)| p[0] != s.index() as u32)
        {
            return Err("a path does not begin at its start".into());
        }
        let dataset = Dataset::from_checked_cells(grid.clone(), starts.to_vec(), goals.to_vec(), 1);
        let plan = crate::mapf::constructive::to_placements(paths, horizon as u32);
        check_plan(&dataset, &plan)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// First plans on 300 random maps drawn from `seed`, then 30 steps of `step` on each:
    /// every step says truly whether it improved the plan, none makes it costlier or
    /// passes the lower bound, and the plan replays legally with the cost said. The
    /// first plans made, and those the steps improved.
    fn steps_keep_the_plan_legal(
        seed: u64,
        step: impl Fn(&mut Lns<'_, '_>) -> bool,
    ) -> (usize, usize) {
        let mut rng = SplitMix64::new(seed);
        let (mut planned, mut improved) = (0, 0);
        let mut tried = 0;
        while tried < 300 {
            let Some((grid, starts, goals)) = random_instance(&mut rng) else {
                continue;
            };
            let instance = Instance::new(&grid, &starts, &goals);
            let Some(longest) = instance.lower_bound() else {
                continue;
            };
            tried += 1;
            let mut attempts = 0;
            let mut stop = || {
                attempts += 1;
                attempts > 20
            };
            let horizon = 2 * longest + 16;
            let Some(mut lns) = Lns::by_planning(&instance, horizon, 20, tried, &mut stop) else {
                continue;
            };
            planned += 1;
            let context = format!("{grid:?} {starts:?} {goals:?}");
            let first = lns.cost();
            assert!(first >= lns.lower_bound(), "{context}");
            for _ in 0..30 {
                let before = lns.cost();
                let better = step(&mut lns);
                assert_eq!(better, lns.cost() < before, "{context}");
                assert!(lns.cost() <= before && lns.cost() >= lns.lower_bound());
            }
            improved += usize::from(lns.cost() < first);
            let cost = lns.cost();
            let paths = lns.into_paths();
            assert_eq!(replay(&grid, &starts, &goals, &paths), Ok(()), "{context}");
            assert_eq!(sum_of_costs(&paths, &goals), cost, "{context}");
        }
        (planned, improved)
    }

    #[test]
    fn every_step_keeps_the_plan_legal_and_never_costlier_on_many_random_maps() {
        let (planned, improved) = steps_keep_the_plan_legal(19_019, |lns| lns.step());
        // The test must reach both outcomes: first plans, and steps that improve them.
        assert!(planned > 200, "{planned}");
        assert!(improved > 10, "{improved}");
    }

    #[test]
    fn every_exact_step_keeps_the_plan_legal_and_never_costlier_on_many_random_maps() {
        let (planned, improved) = steps_keep_the_plan_legal(19_023, |lns| lns.exact_step());
        assert!(planned > 200, "{planned}");
        assert!(improved > 10, "{improved}");
    }

    #[test]
    fn exact_steps_wait_for_a_stall_and_earn_their_share_of_the_time() {
        let ms = Duration::from_millis;
        let mut never = ExactShare::new(false);
        let mut share = ExactShare::new(true);
        for _ in 0..EXACT_AFTER {
            never.record(false, ms(1), false);
            assert!(!share.exact_next());
            share.record(false, ms(1), false);
        }
        // Stalled, nothing timed since: the first exact step comes at once (unless none
        // is allowed).
        assert!(share.exact_next());
        assert!(!never.exact_next());
        share.record(true, ms(10), false);
        // 10 ms of exact steps wait for 100 ms of the others.
        for _ in 0..99 {
            share.record(false, ms(1), false);
            assert!(!share.exact_next());
        }
        share.record(false, ms(1), false);
        assert!(share.exact_next());
        // A win doubles the share: 20 ms of exact steps against 100 ms of the others.
        share.record(true, ms(10), true);
        assert!(!share.exact_next(), "a gain ends the stall");
        for _ in 0..EXACT_AFTER {
            share.record(false, ms(0), false);
        }
        assert!(share.exact_next());
        // Any gain of the other steps ends the stall too.
        share.record(false, ms(1), true);
        assert!(!share.exact_next());
    }

    #[test]
    fn shortening_keeps_the_plan_legal_and_never_longer_on_many_random_maps() {
        let mut rng = SplitMix64::new(19_021);
        let (mut tried, mut shortened) = (0, 0);
        while tried < 200 {
            let Some((grid, starts, goals)) = random_instance(&mut rng) else {
                continue;
            };
            let instance = Instance::new(&grid, &starts, &goals);
            let Some(longest) = instance.lower_bound() else {
                continue;
            };
            let mut attempts = 0;
            let mut stop = || {
                attempts += 1;
                attempts > 20
            };
            let Some(mut lns) = Lns::by_planning(&instance, 3 * longest + 16, 20, 5, &mut stop)
            else {
                continue;
            };
            tried += 1;
            let first = lns.makespan();
            let context = format!("{grid:?} {starts:?} {goals:?}");
            for _ in 0..30 {
                let before = lns.makespan();
                // One step: the first ask goes on, the second stops.
                let mut asked = false;
                lns.shorten_until(longest, &mut || std::mem::replace(&mut asked, true));
                assert!(
                    lns.makespan() <= before && lns.makespan() >= longest,
                    "{context}"
                );
            }
            shortened += usize::from(lns.makespan() < first);
            let (makespan, cost) = (lns.makespan(), lns.cost());
            let paths = lns.into_paths();
            assert_eq!(replay(&grid, &starts, &goals, &paths), Ok(()), "{context}");
            assert_eq!(sum_of_costs(&paths, &goals), cost, "{context}");
            let arrived = paths
                .iter()
                .zip(&goals)
                .map(|(p, g)| crate::mapf::soc::planning::cost(p, g.index() as u32))
                .max();
            assert_eq!(arrived, Some(makespan), "{context}");
        }
        assert!(shortened > 10, "{shortened}");
    }

    #[test]
    fn a_plan_taken_over_is_kept_legal_by_the_steps() {
        let mut rng = SplitMix64::new(19_020);
        let mut tried = 0;
        while tried < 100 {
            let Some((grid, starts, goals)) = random_instance(&mut rng) else {
                continue;
            };
            let instance = Instance::new(&grid, &starts, &goals);
            let Some(longest) = instance.lower_bound() else {
                continue;
            };
            let mut attempts = 0;
            let mut stop = || {
                attempts += 1;
                attempts > 20
            };
            let Some(lns) = Lns::by_planning(&instance, 2 * longest + 16, 20, 7, &mut stop) else {
                continue;
            };
            tried += 1;
            // Taken over at a longer horizon, and with a path cut short of it.
            let mut paths = lns.into_paths();
            let arrived = paths
                .iter()
                .zip(&goals)
                .map(|(p, g)| crate::mapf::soc::planning::cost(p, g.index() as u32))
                .max()
                .unwrap_or(0) as usize;
            paths[0].truncate(arrived + 1);
            let cost = sum_of_costs(&paths, &goals);
            let Some(mut lns) =
                Lns::from_paths(&instance, paths, 3 * longest + 20, 11, &mut || false)
            else {
                panic!("a plan taken over was refused without a stop");
            };
            assert_eq!(lns.cost(), cost);
            let mut steps = 0;
            lns.improve_until(&mut || {
                steps += 1;
                steps > 20
            });
            let cost = lns.cost();
            let paths = lns.into_paths();
            let context = format!("{grid:?} {starts:?} {goals:?}");
            assert_eq!(replay(&grid, &starts, &goals, &paths), Ok(()), "{context}");
            assert_eq!(sum_of_costs(&paths, &goals), cost, "{context}");
        }
    }
}

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
//! # Complexity
//! A first plan: K searches per attempt. One step of the search: [`NEIGHBOURHOOD`]
//! searches (each O(N (log N + log R)) for the N states it reaches), plus O(K + L x R)
//! to choose the neighbourhood (L the late agent's distance, R the visits of a cell; an
//! intersection's: up to [`NEIGHBOURHOOD`] x [`CELLS_PER_AGENT`] cells' visits).
//! Memory O(K x H) for the paths and their reservations at horizon H.

use std::time::Instant;

use super::Instance;
use super::adaptive::Weights;
use super::constructive::Planner;
use super::pibt::Noise;
use super::soc::planning::cost;

/// Agents planned anew in one step (Li et al. found 4 to 16 best on most maps).
pub const NEIGHBOURHOOD: usize = 8;

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
        let k = self.costs.len();
        let size = NEIGHBOURHOOD.min(k);
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

    #[test]
    fn every_step_keeps_the_plan_legal_and_never_costlier_on_many_random_maps() {
        let mut rng = SplitMix64::new(19_019);
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
                let better = lns.step();
                assert_eq!(better, lns.cost() < before, "{context}");
                assert!(lns.cost() <= before && lns.cost() >= lns.lower_bound());
            }
            improved += usize::from(lns.cost() < first);
            let cost = lns.cost();
            let paths = lns.into_paths();
            assert_eq!(replay(&grid, &starts, &goals, &paths), Ok(()), "{context}");
            assert_eq!(sum_of_costs(&paths, &goals), cost, "{context}");
        }
        // The test must reach both outcomes: first plans, and steps that improve them.
        assert!(planned > 200, "{planned}");
        assert!(improved > 10, "{improved}");
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

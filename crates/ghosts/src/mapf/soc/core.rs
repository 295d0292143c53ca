//! The budget decision by a growing core of agents: the SAT decision of
//! [`super::encoding`] on a few agents only, the others planned around its plan
//! ([`super::planning`]); the makespan's core refinement ([`crate::mapf::refine`]) applied
//! to the sum of costs.
//!
//! Any subset of the agents is a relaxation for the sum of costs too: the other agents
//! take at least their distances, so when the core alone has no plan within Delta extra
//! steps, neither has the whole instance. When the core has one, the others are planned
//! around it with what the core left of the budget; if each finds a way, that is a plan
//! within Delta for all. Otherwise the agents that found none join the core, which is
//! decided again. Exact (Delta is declared impossible only by an unsatisfiable core) and
//! complete (the core grows by at least one agent a round, up to all of them). The core
//! is kept from one Delta to the next: the agents that made Delta impossible are the
//! likely culprits at Delta + 1 as well; so is its SAT session ([`Sessions`]), the
//! agents that join the core being added to it.
//!
//! # Complexity
//! At most K rounds, each a SAT decision on the core and one planning pass, O(K x H x C).

use super::Cbs;
use super::cbs::{self, Searched};
pub use super::encoding::TooLarge;
use super::encoding::{Avoiding, Decision, Sessions};
use super::pairwise::{Pair, among, cover_with_groups, min_cover};
use crate::mapf::sat::Deadline;
use std::collections::HashMap;

use super::planning;
use crate::mapf::Instance;
use crate::mapf::constructive::Planner;

/// The low-level searches conflict-based search makes on a group, over all its budgets,
/// before it leaves the group to SAT: it searches again from its root at every budget,
/// and a group it does not settle within a few thousand nodes is one of many conflicts
/// (lak303d random-1 K = 50: its groups of 9 and 10 agents took the whole 30 s).
pub const CBS_SEARCHES: u64 = 20_000;

/// The most memory one conflict-based search of a group takes before it gives up.
pub const CBS_BYTES: u64 = 256 << 20;

/// Nodes per component the cover of [`Groups::bound`] may visit (it is computed after
/// every decision of a group; past them, the component's root bound).
pub const BOUND_COVER_NODES: usize = 10_000;

/// What one decision found, and how far the core grew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refined {
    /// The decision for the whole instance.
    pub decision: Decision,
    /// SAT decisions made.
    pub rounds: usize,
}

/// Decides whether `instance` has a plan with at most `delta` extra steps (paths of
/// `horizon + 1` cells), starting from the core `in_core` (per agent) and leaving in it
/// the last core; building no encoding of more than `max_variables` variables.
///
/// # Errors
/// [`TooLarge`] when the core's encoding would pass `max_variables`.
///
/// # Complexity
/// See the module documentation.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn decide(
    instance: &Instance<'_>,
    delta: u32,
    horizon: u32,
    in_core: &mut [bool],
    max_variables: u64,
) -> Result<Refined, TooLarge> {
    let mut sessions = Sessions::new(false, crate::mapf::sat::Deadline::default());
    decide_in(
        instance,
        delta,
        horizon,
        in_core,
        max_variables,
        &mut sessions,
    )
}

/// [`decide`], with the core's SAT decisions made in `sessions` (which may keep one from
/// an earlier budget, and give up with [`Decision::Stopped`] at their deadline).
///
/// # Errors
/// As [`decide`].
///
/// # Complexity
/// As [`decide`], or less when stopped.
pub fn decide_in(
    instance: &Instance<'_>,
    delta: u32,
    horizon: u32,
    in_core: &mut [bool],
    max_variables: u64,
    sessions: &mut Sessions,
) -> Result<Refined, TooLarge> {
    let k = instance.starts.len();
    let mut fixed: Vec<Option<Vec<u32>>> = vec![None; k];
    let mut rounds = 0;
    loop {
        if in_core.iter().any(|&c| c) {
            let core: Vec<usize> = (0..k).filter(|&a| in_core[a]).collect();
            rounds += 1;
            match sessions.decide(instance, &core, delta, max_variables)? {
                decision @ (Decision::Impossible | Decision::Stopped) => {
                    return Ok(Refined { decision, rounds });
                }
                Decision::Plan(paths) => {
                    fixed.iter_mut().for_each(|f| *f = None);
                    for (&a, mut path) in core.iter().zip(paths) {
                        let goal = instance.goals[a].index() as u32;
                        path.resize(horizon as usize + 1, goal);
                        fixed[a] = Some(path);
                    }
                }
            }
        }
        match planning::plan_around(instance, delta, horizon, &fixed) {
            Ok(paths) => {
                return Ok(Refined {
                    decision: Decision::Plan(paths),
                    rounds,
                });
            }
            Err(failed) => {
                for a in failed {
                    in_core[a] = true;
                }
            }
        }
    }
}

/// The core as groups of agents decided apart (independence detection, Standley, AAAI
/// 2010, with a SAT decision per group): each group's least extra steps alone, proved by
/// its own SAT decisions, and a plan at that budget. The groups are disjoint, so a plan of
/// the whole instance spends on each group at least its least: when the leasts add up to
/// more than Delta, Delta is impossible, proved by decisions on a few agents each instead
/// of one decision on the whole core. The pairwise bound's pairs between two groups, or
/// between agents outside every group, add what the leasts leave of them
/// ([`cover_with_groups`]): on ht_chantry random-1 K = 100 the leasts stopped one step
/// short of the optimum (`8700 >= 8699` at 30 s), with the pairs the optimum is proven in
/// 21 to 22 CPU s. When they fit within Delta and the groups' plans
/// do not collide, they are the core's plan; two groups whose plans collide merge into
/// one (its least at least the sum of theirs), decided again, unless one of them is
/// planned again around the other within its least. A group decided by conflict-based
/// search takes, among its plans of least cost, one that keeps off the other groups'
/// plans where it can ([`cbs::Outside`]), so that fewer collide.
///
/// Why: on the large maps the agents that planning cannot place come in small clusters
/// far apart (Boston_0_256 random-1 with 50 agents: a core of 13), and one SAT decision
/// on all of them, budget after budget, took 1 to 15 s a budget, while the cluster of two
/// that needs one extra step is settled by one decision on its two agents.
///
/// The groups and their leasts hold for every Delta (a group's least does not depend on
/// it), so they are kept from one budget to the next.
#[derive(Default)]
pub struct Groups {
    groups: Vec<Group>,
    /// Which groups conflict-based search decides first.
    cbs: Option<Cbs>,
    /// Whether conflict-based search bounds each node by the pairs' bounds
    /// ([`cbs::node_bound`]) rather than by its own extra steps.
    cbs_pairs: bool,
    /// What each node's pairs in conflict cost ([`cbs::PairCosts`]).
    cbs_pair_costs: cbs::PairCosts,
    /// Whether its conflict-based searches split on pairs that do not fit at their own
    /// costs ([`super::symmetry`]).
    cbs_pair_splits: bool,
    /// Whether its conflict-based searches split on corridor conflicts
    /// ([`super::corridor`]).
    cbs_corridors: bool,
    /// Whether its conflict-based searches' target splits reserve the goal for its agent
    /// ([`cbs::Targets`]).
    cbs_targets: bool,
    /// Whether its conflict-based searches keep off the other groups' plans among
    /// equal paths ([`cbs::Outside`]).
    cbs_outside: bool,
    /// Whether two groups whose plans collide are first planned again by their own SAT
    /// session, one keeping off every other group's plan within its least
    /// ([`Groups::repair_by_sat`]), before they merge.
    sat_repair: bool,
}

/// Agents decided together.
struct Group {
    agents: Vec<usize>,
    /// The least extra steps of these agents alone, as far as proved: every smaller budget
    /// is impossible for them.
    least: u32,
    /// Their paths at `least` extra steps (in the order of `agents`), once found.
    plan: Option<Vec<Vec<u32>>>,
    /// Their SAT decisions, kept for when the group grows: a merge keeps the larger
    /// group's session and adds the other's agents to it instead of encoding all again.
    sessions: Option<Sessions>,
    /// Low-level searches conflict-based search may still make on these agents (with
    /// their parts' before a merge): 0, SAT decides.
    cbs_searches: u64,
}

/// What [`Groups::repair_by_sat`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SatRepair {
    /// The group's plan now keeps off every other group's.
    Repaired,
    /// No plan of the group within its least keeps off these groups' plans together.
    Core(Vec<usize>),
    /// Neither: no session to ask, or the solver did not settle it.
    Unsettled,
}

/// What [`Groups::decide`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grouped {
    /// A plan of the whole instance with at most Delta extra steps (every cell at
    /// 0..=H).
    Plan(Vec<Vec<u32>>),
    /// No plan has fewer than this many extra steps (more than Delta): proved.
    AtLeast(u32),
    /// The deadline passed in a SAT decision: nothing more is proved.
    Stopped,
}

impl Groups {
    /// No group yet.
    pub fn new() -> Self {
        Groups {
            groups: Vec::new(),
            cbs: None,
            cbs_pairs: false,
            cbs_pair_costs: cbs::PairCosts::Instance,
            cbs_pair_splits: false,
            cbs_corridors: false,
            cbs_targets: false,
            cbs_outside: false,
            sat_repair: false,
        }
    }

    /// These groups, decided first by conflict-based search where `cbs` says
    /// ([`super::cbs`]).
    pub fn with_cbs(self, cbs: Cbs) -> Self {
        Groups {
            cbs: Some(cbs),
            ..self
        }
    }

    /// These groups, with each node of their conflict-based search bounded by the pairs'
    /// bounds ([`cbs::node_bound`]) when `pairs`.
    pub fn with_cbs_pairs(self, pairs: bool) -> Self {
        Groups {
            cbs_pairs: pairs,
            ..self
        }
    }

    /// These groups, with the pairs in conflict in each node of their conflict-based
    /// search costed as `pair_costs` says.
    pub fn with_cbs_pair_costs(self, pair_costs: cbs::PairCosts) -> Self {
        Groups {
            cbs_pair_costs: pair_costs,
            ..self
        }
    }

    /// These groups, their conflict-based searches splitting on pairs that do not fit
    /// at their own costs when `on` ([`super::symmetry`]).
    pub fn with_cbs_pair_splits(self, on: bool) -> Self {
        Groups {
            cbs_pair_splits: on,
            ..self
        }
    }

    /// These groups, their conflict-based searches splitting on corridor conflicts when
    /// `on` ([`super::corridor`]).
    pub fn with_cbs_corridors(self, on: bool) -> Self {
        Groups {
            cbs_corridors: on,
            ..self
        }
    }

    /// These groups, their conflict-based searches' target splits reserving the goal for
    /// its agent when `on` ([`cbs::Targets`]).
    pub fn with_cbs_targets(self, on: bool) -> Self {
        Groups {
            cbs_targets: on,
            ..self
        }
    }

    /// These groups, their conflict-based searches keeping off the other groups' plans
    /// among equal paths when `on` ([`cbs::Outside`]).
    pub fn with_cbs_outside(self, on: bool) -> Self {
        Groups {
            cbs_outside: on,
            ..self
        }
    }

    /// Whether conflict-based search decides group `g` first ([`Cbs::decides`]), while
    /// it has searches left on the group.
    /// These groups, where with `on` two groups whose plans collide, when planning
    /// cannot place either around the other, are planned again by their own SAT session
    /// around every other group's plan before they merge ([`Groups::repair_by_sat`]).
    #[must_use]
    pub fn with_sat_repair(self, on: bool) -> Self {
        Groups {
            sat_repair: on,
            ..self
        }
    }

    fn by_cbs(&self, instance: &Instance<'_>, g: usize) -> bool {
        let group = &self.groups[g];
        group.cbs_searches > 0
            && self
                .cbs
                .is_some_and(|cbs| cbs.decides(instance, &group.agents))
    }

    /// Conflict-based search on group `g`, allowed `allowance` extra steps, with
    /// `max_variables` worth of memory: `None` when it gave up (then marked so).
    fn decide_by_cbs(
        &mut self,
        instance: &Instance<'_>,
        g: usize,
        allowance: u32,
        max_variables: u64,
        like: &Sessions,
    ) -> Option<Searched> {
        let group = &self.groups[g];
        let pairs = among(like.pairs(), &group.agents);
        let floor = group.least.max(min_cover(group.agents.len(), &pairs));
        let bytes = max_variables
            .saturating_mul(crate::mapf::sat::BYTES_PER_VARIABLE)
            .min(CBS_BYTES);
        let mut searches = group.cbs_searches;
        let node_pairs = if self.cbs_pairs { &pairs[..] } else { &[] };
        // The other groups' plans, which the search avoids among equal paths (within a
        // quarter of its memory).
        let plans = || {
            self.groups
                .iter()
                .enumerate()
                .filter(|&(h, _)| h != g)
                .flat_map(|(_, other)| other.agents.iter().zip(other.plan.iter().flatten()))
        };
        let cells: u64 = plans().map(|(_, path)| path.len() as u64).sum();
        let outside = if self.cbs_outside && cbs::outside_bytes(cells) <= bytes / 4 {
            cbs::Outside::of(
                plans().map(|(&a, path)| (&path[..], instance.goals[a].index() as u32)),
            )
        } else {
            cbs::Outside::none()
        };
        let bytes = bytes - outside.bytes().min(bytes);
        let searched = cbs::least_extra(
            instance,
            &group.agents,
            floor,
            node_pairs,
            self.cbs_pair_costs,
            // The MDDs' ranking cost the groups time (orz900d random-1 K = 50: 4.37 against
            // 3.79 CPU s, four runs each) for no gain measured.
            cbs::Classify::Earliest,
            &mut super::symmetry::PairSplits {
                on: self.cbs_pair_splits,
                made: 0,
            },
            &mut super::corridor::Corridors {
                on: self.cbs_corridors,
                made: 0,
            },
            &mut cbs::Targets {
                on: self.cbs_targets,
                ..cbs::Targets::off()
            },
            allowance,
            bytes,
            like.deadline(),
            &mut searches,
            usize::MAX,
            &outside,
        );
        let group = &mut self.groups[g];
        group.cbs_searches = searches;
        match searched {
            Searched::GaveUp(least) => {
                group.least = group.least.max(least);
                group.cbs_searches = 0;
                None
            }
            Searched::Stopped(least) => {
                group.least = group.least.max(least);
                Some(searched)
            }
            _ => Some(searched),
        }
    }

    /// The least extra steps of the instance as the groups prove it: the sum of theirs.
    fn least(&self) -> u32 {
        self.groups.iter().map(|g| g.least).sum()
    }

    /// The least extra steps of the instance (of `k` agents) as the groups and `pairs`
    /// prove them together ([`cover_with_groups`], at most [`BOUND_COVER_NODES`] nodes a
    /// component, none past `deadline`): at least [`Groups::least`], as the pairs of agents outside every group
    /// (which planning around the groups settled) and between groups count too.
    ///
    /// # Complexity
    /// As [`cover_with_groups`].
    fn bound(&self, k: usize, pairs: &[Pair], deadline: Deadline) -> u32 {
        if pairs.is_empty() {
            return self.least();
        }
        let groups: Vec<(&[usize], u32)> = self
            .groups
            .iter()
            .map(|g| (&g.agents[..], g.least))
            .collect();
        cover_with_groups(k, &groups, pairs, BOUND_COVER_NODES, deadline)
    }

    /// Decides whether `instance` has a plan with at most `delta` extra steps (paths of
    /// `horizon + 1` cells): the groups' leasts and plans (module documentation above),
    /// then the agents outside them planned around the groups' plans; those that find no
    /// way join as groups of their own. Each group's SAT decisions are made in sessions
    /// [`Sessions::alike`] `like` (its deadline, its core-guided and pairwise bounds, which
    /// raise a group's least several steps at once), building no encoding of more than
    /// `max_variables` variables (each group keeps its session for the next budget).
    ///
    /// # Errors
    /// [`TooLarge`] when a group's encoding would pass `max_variables`.
    ///
    /// # Complexity
    /// At most K merges and K joins; per group, one SAT decision per budget from its
    /// least up; per round, one planning pass and O(K x H) to find collisions.
    pub fn decide(
        &mut self,
        instance: &Instance<'_>,
        delta: u32,
        horizon: u32,
        max_variables: u64,
        like: &Sessions,
    ) -> Result<Grouped, TooLarge> {
        let k = instance.starts.len();
        loop {
            // Each group's least, while the sum stays within Delta.
            for g in 0..self.groups.len() {
                if self.groups[g].plan.is_some() {
                    continue;
                }
                loop {
                    let bound = self.bound(k, like.pairs(), like.deadline());
                    if bound > delta {
                        return Ok(Grouped::AtLeast(bound));
                    }
                    let least = self.least();
                    if self.by_cbs(instance, g) {
                        let allowance = delta - (least - self.groups[g].least);
                        match self.decide_by_cbs(instance, g, allowance, max_variables, like) {
                            Some(Searched::Plan { extra, paths }) => {
                                let group = &mut self.groups[g];
                                group.least = extra;
                                group.plan = Some(paths);
                                break;
                            }
                            Some(Searched::AtLeast(extra)) => {
                                self.groups[g].least = extra;
                                continue;
                            }
                            // The least it proved is kept in the group's: the bound
                            // is answered when it passes Delta.
                            Some(Searched::Stopped(_)) => {
                                let bound = self.bound(k, like.pairs(), like.deadline());
                                if bound > delta {
                                    return Ok(Grouped::AtLeast(bound));
                                }
                                return Ok(Grouped::Stopped);
                            }
                            // Gave up: what it proved is in the group's least, and
                            // SAT decides from there.
                            Some(Searched::GaveUp(_)) | None => continue,
                        }
                    }
                    // The other groups' kept sessions count against the room; when
                    // they leave too little, they go (they are only a head start).
                    let others = self.kept_variables(g);
                    let room = max_variables.saturating_sub(others);
                    let group = &mut self.groups[g];
                    let sessions = group.sessions.get_or_insert_with(|| like.alike());
                    let decided = match sessions.decide(instance, &group.agents, group.least, room)
                    {
                        Err(_) if others > 0 => {
                            self.drop_sessions_but(g);
                            let group = &mut self.groups[g];
                            let sessions = group.sessions.get_or_insert_with(|| like.alike());
                            sessions.decide(instance, &group.agents, group.least, max_variables)
                        }
                        decided => decided,
                    }?;
                    let group = &mut self.groups[g];
                    let sessions = group.sessions.get_or_insert_with(|| like.alike());
                    match decided {
                        Decision::Plan(paths) => {
                            group.plan = Some(paths);
                            break;
                        }
                        Decision::Impossible => {
                            group.least = (group.least + 1).max(sessions.proven());
                        }
                        Decision::Stopped => return Ok(Grouped::Stopped),
                    }
                }
            }
            let bound = self.bound(k, like.pairs(), like.deadline());
            if bound > delta {
                return Ok(Grouped::AtLeast(bound));
            }
            if let Some(&(g, h)) = self.collisions(horizon).first() {
                if self.repair(instance, h, horizon) || self.repair(instance, g, horizon) {
                    continue;
                }
                let (small, large) = if self.groups[g].agents.len() <= self.groups[h].agents.len() {
                    (g, h)
                } else {
                    (h, g)
                };
                if self.repair_by_sat(instance, small, horizon) == SatRepair::Repaired {
                    continue;
                }
                match self.repair_by_sat(instance, large, horizon) {
                    SatRepair::Repaired => {}
                    // Agents alone join at once; larger groups one pair at a time.
                    SatRepair::Core(with)
                        if with.iter().all(|&o| self.groups[o].agents.len() == 1) =>
                    {
                        self.merge_all(large, with);
                    }
                    SatRepair::Core(_) | SatRepair::Unsettled => self.merge(g, h),
                }
                continue;
            }
            let mut fixed: Vec<Option<Vec<u32>>> = vec![None; k];
            for group in &self.groups {
                for (&a, path) in group.agents.iter().zip(group.plan.iter().flatten()) {
                    let goal = instance.goals[a].index() as u32;
                    let mut path = path.clone();
                    path.resize(horizon as usize + 1, goal);
                    fixed[a] = Some(path);
                }
            }
            match planning::plan_around(instance, delta, horizon, &fixed) {
                Ok(paths) => return Ok(Grouped::Plan(paths)),
                Err(failed) => {
                    for a in failed {
                        self.groups.push(Group {
                            agents: vec![a],
                            least: 0,
                            plan: None,
                            sessions: None,
                            cbs_searches: CBS_SEARCHES,
                        });
                    }
                }
            }
        }
    }

    /// Variables of the sessions kept by every group but `g`.
    fn kept_variables(&self, g: usize) -> u64 {
        let groups = self.groups.iter().enumerate().filter(|&(h, _)| h != g);
        groups
            .filter_map(|(_, group)| group.sessions.as_ref())
            .map(Sessions::variables)
            .sum()
    }

    /// Variables of the sessions every group keeps.
    pub fn variables(&self) -> u64 {
        let sessions = self.groups.iter().filter_map(|g| g.sessions.as_ref());
        sessions.map(Sessions::variables).sum()
    }

    /// Every group's decisions from now on give up at `deadline`.
    pub fn give_up_at(&mut self, deadline: crate::mapf::sat::Deadline) {
        for group in &mut self.groups {
            group
                .sessions
                .iter_mut()
                .for_each(|s| s.give_up_at(deadline));
        }
    }

    /// Drops the sessions kept by every group.
    pub fn drop_sessions(&mut self) {
        for group in &mut self.groups {
            group.sessions.iter_mut().for_each(Sessions::drop_session);
        }
    }

    /// Drops the sessions kept by every group but `g`.
    fn drop_sessions_but(&mut self, g: usize) {
        for (h, group) in self.groups.iter_mut().enumerate() {
            if h != g {
                group.sessions.iter_mut().for_each(Sessions::drop_session);
            }
        }
    }

    /// Every two groups whose plans (each padded with its goal to `horizon`) put two
    /// agents on one cell at one time or swap them over an edge (each group of a
    /// collision in at least one pair).
    ///
    /// # Complexity
    /// O(K x H) expected.
    fn collisions(&self, horizon: u32) -> Vec<(usize, usize)> {
        let paths: Vec<(usize, &Vec<u32>)> = self
            .groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| group.plan.iter().flatten().map(move |p| (g, p)))
            .collect();
        let at = |path: &Vec<u32>, t: usize| path.get(t).or(path.last()).copied();
        let mut on_cell: HashMap<u32, usize> = HashMap::new();
        let mut moving: HashMap<(u32, u32), usize> = HashMap::new();
        let mut pairs = Vec::new();
        for t in 0..=horizon as usize {
            on_cell.clear();
            moving.clear();
            for &(g, path) in &paths {
                let Some(v) = at(path, t) else { continue };
                if let Some(h) = on_cell.insert(v, g).filter(|&h| h != g) {
                    pairs.push((h, g));
                }
                if t == horizon as usize {
                    continue;
                }
                if let Some(u) = at(path, t + 1).filter(|&u| u != v) {
                    if let Some(&h) = moving.get(&(u, v)).filter(|&&h| h != g) {
                        pairs.push((h, g));
                    }
                    moving.insert((v, u), g);
                }
            }
        }
        pairs
    }

    /// Plans group `g` again by prioritized planning around the plans of every other
    /// group, within its least: true (and its plan replaced) when every agent of it
    /// found a way and the new plan collides with no other group's.
    ///
    /// # Complexity
    /// One planning pass over the group's agents.
    fn repair(&mut self, instance: &Instance<'_>, g: usize, horizon: u32) -> bool {
        let mut planner = Planner::new(instance, horizon);
        for (h, group) in self.groups.iter().enumerate() {
            if h == g {
                continue;
            }
            for (&a, path) in group.agents.iter().zip(group.plan.iter().flatten()) {
                let goal = instance.goals[a].index() as u32;
                let mut path = path.clone();
                path.resize(horizon as usize + 1, goal);
                planner.reserve(a, path);
            }
        }
        let group = &self.groups[g];
        let distance = |a: usize| instance.distance(a, instance.starts[a]);
        let mut order = group.agents.clone();
        order.sort_by_key(|&a| std::cmp::Reverse(distance(a)));
        let mut left = group.least;
        for &a in &order {
            match planner.plan_by(a, distance(a) + left) {
                Some(cost) => left -= cost - distance(a),
                None => return false,
            }
        }
        let mut paths = planner.into_paths();
        let plan = group
            .agents
            .iter()
            .map(|&a| std::mem::take(&mut paths[a]))
            .collect();
        // Where other groups collide among themselves, the reservations hold two agents
        // on one cell and the search may miss a swap with one of them: keep the new plan
        // only when it collides with nobody, so that each repair leaves fewer groups in
        // collisions.
        self.replace_if_clear(g, plan, horizon)
    }

    /// Makes `plan` group `g`'s when it collides with no other group's (padded to
    /// `horizon`): true; else keeps the old plan, false.
    ///
    /// # Complexity
    /// O(K x H) expected.
    fn replace_if_clear(&mut self, g: usize, plan: Vec<Vec<u32>>, horizon: u32) -> bool {
        let old = self.groups[g].plan.replace(plan);
        if self
            .collisions(horizon)
            .iter()
            .any(|&(x, y)| x == g || y == g)
        {
            self.groups[g].plan = old;
            return false;
        }
        true
    }

    /// Plans group `g` again by its own SAT session within its least, keeping off every
    /// other group's plan ([`Sessions::plan_avoiding`]): [`SatRepair::Repaired`] (its plan
    /// replaced) when the solver finds such a plan within its conflicts, else the other
    /// groups whose plans it cannot keep off together, when the solver proves it. Only for
    /// groups of two or more agents (planning is complete for one) whose kept session is
    /// of exactly their agents.
    ///
    /// Why: at the last budgets a large group's plan collides with agents alone on their
    /// shortest paths, and each merge of one decided the grown group anew
    /// (empty-16-16 random-1 K = 80 at 862, the optimum: a group of 68 agents found its
    /// plan in 20.9 s, then four merges of one agent each took 4.6 to 9.8 s); the core
    /// names the groups to merge at once.
    ///
    /// # Complexity
    /// As [`Sessions::plan_avoiding`], plus O(K x H) to check the collisions.
    fn repair_by_sat(&mut self, instance: &Instance<'_>, g: usize, horizon: u32) -> SatRepair {
        if !self.sat_repair || self.groups[g].agents.len() < 2 {
            return SatRepair::Unsettled;
        }
        let (sets, others): (Vec<usize>, Vec<Vec<Vec<u32>>>) = self
            .groups
            .iter()
            .enumerate()
            .filter(|&(h, group)| h != g && group.plan.is_some())
            .map(|(h, group)| (h, group.plan.clone().unwrap_or_default()))
            .unzip();
        let group = &mut self.groups[g];
        let Some(sessions) = group.sessions.as_mut() else {
            return SatRepair::Unsettled;
        };
        match sessions.plan_avoiding(instance, &group.agents, group.least, &others) {
            Avoiding::Plan(plan) => {
                if self.replace_if_clear(g, plan, horizon) {
                    SatRepair::Repaired
                } else {
                    SatRepair::Unsettled
                }
            }
            Avoiding::Core(core) if !core.is_empty() => {
                SatRepair::Core(core.into_iter().map(|i| sets[i]).collect())
            }
            Avoiding::Core(_) | Avoiding::Unsettled => SatRepair::Unsettled,
        }
    }

    /// Group `g` and the groups `with` (distinct from it) become one, as by [`Groups::merge`]
    /// one after another.
    fn merge_all(&mut self, g: usize, mut with: Vec<usize>) {
        // From the last: each merge moves only the last group into the slot it frees,
        // which is past every group still to merge.
        with.sort_unstable_by(|a, b| b.cmp(a));
        let mut keep = g;
        for h in with {
            self.merge(keep, h);
            keep = keep.min(h);
        }
    }

    /// Groups `g` and `h` become one, its least the sum of theirs (disjoint agents), its
    /// plan to be found.
    fn merge(&mut self, g: usize, h: usize) {
        let (keep, gone) = (g.min(h), g.max(h));
        let part = self.groups.swap_remove(gone);
        let whole = &mut self.groups[keep];
        // The larger group's session grows; the other's cores are replayed in it.
        let (mut larger, smaller) = if part.agents.len() > whole.agents.len() {
            (part.sessions, whole.sessions.take())
        } else {
            (whole.sessions.take(), part.sessions)
        };
        match (&mut larger, smaller) {
            (Some(larger), Some(smaller)) => larger.adopt(smaller),
            (None, smaller) => larger = smaller,
            (Some(_), None) => {}
        }
        whole.sessions = larger;
        whole.agents.extend(part.agents);
        whole.least += part.least;
        whole.plan = None;
        // What the parts spent counts against the whole.
        whole.cbs_searches = (whole.cbs_searches + part.cbs_searches).saturating_sub(CBS_SEARCHES);
    }
}

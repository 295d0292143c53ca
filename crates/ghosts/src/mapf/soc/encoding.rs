//! The budget decision: is there a plan whose sum of costs is at most the lower bound plus
//! Delta? A time-expanded SAT encoding restricted to each agent's reachable (cell, time)
//! pairs, with the extra steps bounded by a cardinality constraint (MDD-SAT: Surynek,
//! Felner, Stern and Boyarski, "Efficient SAT approach to multi-agent path finding under
//! the sum of costs objective", ECAI 2016), handed to CaDiCaL.
//!
//! A [`Session`] is built for a reach R of extra steps and then decides every budget
//! Delta <= R in the same solver, under one assumption: the clauses it learnt for one
//! budget (and the swap clauses it was given) stay for the next, and agents that join a
//! core are added to it ([`Session::add`]) rather than the whole built again. With at
//! most R extra
//! steps in all, agent `a` (distance `d_a`) is home for good by `D_a = d_a + R`, so the
//! horizon H = max d_a + R (over all the instance's agents, so that it stays when agents
//! are added) suffices. Variables x(a, v, t) exist only where
//! dist(start_a, v) <= t and dist(v, goal_a) <= D_a - t (for t >= D_a: the goal alone, a
//! unit). Clauses as in [`crate::mapf::sat`]: the start unit, moves forward and backward,
//! at most one agent per cell and step, swaps forbidden lazily.
//!
//! The cost: e(a, k) for k = 1..=R means "agent `a` takes at least `d_a + k` steps"; the
//! clause x(a, goal_a, d_a + k - 1) or e(a, k) sets it when the agent is away from its
//! goal then, and e(a, k + 1) implies e(a, k), so each agent's e are a unary count of its
//! extra steps. An agent on a cell v other than its goal at time t is home no earlier
//! than t + dist(v, goal_a), so x(a, v, t) implies e(a, t + dist(v, goal_a) - d_a): once
//! a budget is assumed, propagation cuts every agent's variables down to those of the
//! budget's own window (its MDD), as a fresh encoding for that budget would have them. A
//! totalizer (Bailleux and Boufkhad, CP 2003) adds the counts up to R + 1; a budget Delta
//! is decided under the assumption that its output Delta + 1 ("at least Delta + 1 extra
//! steps") is false. Only the "at least" direction is encoded: that is all an upper bound
//! needs.
//!
//! The count's last variable e(a, R + 1), "beyond the reach", is a way out: the start unit
//! and the goal units from D_a on are clauses with it, and every other clause of the
//! agent holds with all its cell variables false. So the encoding is a relaxation of
//! every plan, however costly (an agent past the reach drops out with its count full),
//! and what the solver proves about the counts holds for every plan, not only those
//! within the reach: the core-guided bound's cores can be replayed in a wider session
//! ([`CoreLog`]). Under a budget Delta <= R, or any assumption that bounds the count,
//! the way out is false by propagation, and the encoding is the plain one.
//!
//! Reading a model: under Delta, an agent's goal variables are true from `d_a + k` on (k
//! its true e, at most Delta), and every true variable has a true predecessor (the
//! backward clauses) down to the start, the only variable at time 0; so the path is read
//! backwards from the goal at that time, and it costs at most `d_a + k`. Extra true
//! variables elsewhere are harmless: the vertex clauses keep every true variable, so
//! every path read, apart.
//!
//! Own reaches ([`Sessions::own_reaches`]): with the pairwise bounds' clauses in the
//! session, agent `a`'s cells need only reach r_a = R - f_a extra steps, f_a a lower bound
//! on what the session's other agents take together by those pairs ([`others_least`]).
//! Its count still runs to e(a, R + 1); its way out (all its cells false) is e(a, r_a + 1)
//! instead of e(a, R + 1), and the clause "away from the goal at d_a + k - 1" is kept for
//! k <= r_a (later, the goal clauses with the way out say it). Under a budget Delta <= R
//! a way out gives `a` at least r_a + 1 and the others at least f_a (the pair clauses hold
//! on the counts; a count capped at R + 1 only leaves the sum past R), so the totalizer's
//! output R + 1 is forced and the budget's assumption refutes it: every plan read has every
//! agent on its cells. The encoding is still a relaxation of every plan (an agent past r_a
//! takes its way out, its count true to the plan up to R + 1), so cores replay as before.
//! The core-guided raise assumes every way out false besides its sums; a core that names a
//! way out is not a fact about the sums alone, and the raise stops there (each budget is
//! then decided under its own assumption).
//!
//! # Complexity
//! V = the agents' (cell, time) pairs within reach R plus K x (R + 1) cost variables plus at
//! most K x (R + 1)^2 totalizer clauses; built in O(V + K x C) time. Solving is NP-hard
//! in general and fast on the benchmark's instances.

use std::collections::{HashMap, HashSet};

use crate::mapf::Instance;
use crate::moves::Options;

use super::pairwise::{Pair, among, min_cover};
use super::planning::distances;
use crate::mapf::sat::{Deadline, Solver, drop_off_the_clock, plain_solver, solve_in_time, solver};

/// The answer of one decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// A plan with at most Delta extra steps: per agent, its cell at every time 0..=H.
    Plan(Vec<Vec<u32>>),
    /// No plan has at most Delta extra steps (proved).
    Impossible,
    /// The [`Deadline`] passed first: nothing is proved.
    Stopped,
}

/// Variables of the encoding of the agents `agents` of `instance` within reach of
/// `reach` extra steps, counted without building it (the (cell, time) pairs, the cost
/// variables and the totalizer's outputs), so the memory budget can be checked first.
///
/// # Complexity
/// O(K x C).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn count_variables(instance: &Instance<'_>, agents: &[usize], reach: u32) -> u64 {
    count_own_variables(instance, agents, reach, &vec![0; agents.len()])
}

/// [`count_variables`] where agent `agents[i]`'s cells reach `reach - floors[i]` extra
/// steps ([`others_least`]), as a session with own reaches encodes them.
///
/// # Complexity
/// O(K x C).
pub fn count_own_variables(
    instance: &Instance<'_>,
    agents: &[usize],
    reach: u32,
    floors: &[u32],
) -> u64 {
    let horizon = u64::from(longest(instance) + reach);
    let mut total = 0u64;
    for (&a, &floor) in agents.iter().zip(floors) {
        let home_by = instance.distance(a, instance.starts[a]) + reach.saturating_sub(floor);
        let to_goal = instance.distances(a);
        for (v, s) in window(instance, a, home_by) {
            total += u64::from(home_by - s - to_goal.at(v as usize) + 1);
        }
        // The goal after the deadline, the cost variables and the totalizer's outputs.
        total += horizon - u64::from(home_by) + 2 * u64::from(reach) + 2;
    }
    total
}

/// The window of agent `a` within `home_by` steps: every cell v with
/// dist(start_a, v) + dist(v, goal_a) <= `home_by`, as `(v, dist(start_a, v))` sorted by
/// cell.
///
/// A breadth-first search from the start that expands only the window's cells: every cell
/// u on a shortest way from the start to a cell v of the window is in it too
/// (dist(start_a, u) = dist(start_a, v) - dist(u, v) and dist(u, goal_a) <=
/// dist(v, goal_a) + dist(u, v)), so that search finds every cell of the window at its
/// distance. Why: the search over the whole map and the scan of every cell at every time,
/// to count and to encode each agent, were 16 % of the CPU samples on brc202d random-1
/// with 50 agents (43 151 cells; `--objective soc --time-limit 30`), where the pairwise
/// bound builds 91 two-agent sessions; 3 % after.
///
/// # Complexity
/// O(W log W) for the W cells of the window.
fn window(instance: &Instance<'_>, a: usize, home_by: u32) -> Vec<(u32, u32)> {
    let grid = instance.grid;
    let to_goal = instance.distances(a);
    let start = instance.starts[a];
    let within = |v: usize, s: u32| {
        s.checked_add(to_goal.at(v))
            .is_some_and(|sum| sum <= home_by)
    };
    let mut found: Vec<(u32, u32)> = Vec::new();
    if !within(start.index(), 0) {
        return found;
    }
    let mut seen: HashSet<u32> = HashSet::new();
    seen.insert(start.index() as u32);
    found.push((start.index() as u32, 0));
    let mut next = 0;
    while let Some(&(v, s)) = found.get(next) {
        next += 1;
        for (_, u) in grid.neighbours(grid_core::CellId::new(v as usize)) {
            let u = u.index();
            if within(u, s + 1) && seen.insert(u as u32) {
                found.push((u as u32, s + 1));
            }
        }
    }
    found.sort_unstable();
    found
}

/// The largest distance of `instance`'s agents.
fn longest(instance: &Instance<'_>) -> u32 {
    distances(instance).into_iter().max().unwrap_or(0)
}

/// Per agent of `of` (each one of `all`), a lower bound on the extra steps the other
/// agents of `all` take together in every plan, by the pairwise bounds `pairs`: the
/// cover of the pairs among `all` ([`min_cover`]) less the largest weight of a pair of
/// the agent (the other agents' least cover plus that weight on the agent covers every
/// pair, so the cover of all is at most their cover plus it).
///
/// Why: in a session of reach R whose clauses hold the pairs, an agent that takes more
/// than R - floor extra steps leaves the others at least floor, so the session's sum
/// passes R, beyond every budget it decides: its cells need only reach R - floor
/// ([`Session`]'s own reaches).
///
/// # Complexity
/// O(P x (A + F)) for P pairs, A agents in `all` and F in `of`, plus [`min_cover`] of the
/// pairs among `all`.
pub fn others_least(all: &[usize], of: &[usize], pairs: &[Pair]) -> Vec<u32> {
    let index = |a: usize| all.iter().position(|&b| b == a);
    let among = among(pairs, all);
    if among.is_empty() {
        return vec![0; of.len()];
    }
    let cover = min_cover(all.len(), &among);
    of.iter()
        .map(|&a| {
            let i = index(a);
            let heaviest = among
                .iter()
                .filter(|p| Some(p.first) == i || Some(p.second) == i)
                .map(|p| p.extra)
                .max()
                .unwrap_or(0);
            cover.saturating_sub(heaviest)
        })
        .collect()
}

/// Decides whether `instance` has a plan with at most `delta` steps more than the sum of
/// its agents' distances.
///
/// # Complexity
/// See the module documentation.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn decide(instance: &Instance<'_>, delta: u32) -> Decision {
    let everyone: Vec<usize> = (0..instance.starts.len()).collect();
    Session::new(instance, &everyone, delta, Deadline::default(), &[]).decide(instance, delta)
}

/// The variables of one agent at one time: `(cell, variable)` sorted by cell.
type Layer = Vec<(u32, i32)>;

/// One solver for every budget up to a reach R of extra steps, on some of an instance's
/// agents, to which more can be added (module documentation).
pub struct Session {
    solver: Solver,
    /// The last variable made.
    last_var: i32,
    /// Variables as [`count_variables`] counts them, over the agents encoded.
    counted: u64,
    /// The largest distance of the instance's agents (of all of them, so that the
    /// horizon stays when agents are added).
    longest: usize,
    /// Extra steps the encoding reaches: the budgets it can decide.
    reach: u32,
    horizon: usize,
    /// The agents encoded (indices in the instance), in the order they were added.
    agents: Vec<usize>,
    /// Per agent encoded, per time: its variables.
    layers: Vec<Vec<Layer>>,
    /// Per agent encoded: its unary count of extra steps, e(a, 1..=R + 1).
    counts: Vec<Vec<i32>>,
    /// Whether each agent's cells reach only R less what the others take at least
    /// ([`others_least`]; the module documentation's own reaches).
    own: bool,
    /// Per agent encoded: its way out, e(a, r + 1) for its own reach r (R without `own`).
    ways_out: Vec<i32>,
    /// The totalizer's outputs over every agent encoded: `excess[j]` is forced true by at
    /// least j + 1 extra steps.
    excess: Vec<i32>,
    options: Options,
    deadline: Deadline,
    /// The pairwise bounds given to the session (clauses for those among its agents).
    pairs: Vec<Pair>,
    /// The unary sums of the core-guided bound ([`Session::raise`]): every agent's count
    /// of extra steps, then one sum per core of more than one sum found.
    sums: Vec<Sum>,
    /// The cores found or replayed, in order, each as the terms of the sums it named:
    /// every plan has at least as many extra steps as there are cores.
    cores: Vec<Vec<Term>>,
    /// The agents encoded have a plan of as many extra steps as there are cores (found
    /// by [`Session::raise`] since the last agents were added).
    settled: bool,
    /// That plan (the paths of [`Session::agents`], `horizon + 1` cells each), kept so
    /// that a budget at or above the bound is answered without asking the solver again.
    settled_plan: Option<Vec<Vec<u32>>>,
    /// No plan within the reach at all (a core that named no sum; the way out of the
    /// module documentation leaves none).
    exhausted: bool,
    /// Whether its solver runs in CaDiCaL's `plain` configuration
    /// ([`crate::mapf::sat::plain_solver`]).
    plain: bool,
    /// A core of the raise named a way out ([`Session::raise`]): the raise stops there.
    stalled: bool,
    /// Its writing deadline (`cut_at`) passed while agents were being encoded: the
    /// encoding is incomplete, and the session decides nothing ([`Decision::Stopped`]).
    cut: bool,
    /// When writing clauses stops: the deadline it was built with, which
    /// [`Session::give_up_at`] leaves (a group's SAT calls may stop earlier, for a while,
    /// and go on after in the same session).
    cut_at: Deadline,
}

/// What a sum of the core-guided bound adds up, in terms that hold from one session to
/// another: an agent's count of extra steps, or the outputs paid by the `j`-th core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Term {
    Agent(usize),
    Core(usize),
}

/// The cores a session's core-guided bound found ([`Session::raise`]) and the agents it
/// had encoded, to be replayed in another session ([`Session::replay`]).
///
/// Why they hold there: a session's encoding is a relaxation of every plan of its agents,
/// whatever its cost (an agent beyond the reach has the last variable of its count true
/// and may leave all its cells false), with the counts true to the plan up to R + 1. So a
/// core, refuted under assumptions on the counts and the sums over them, is a fact about
/// every plan of those agents, and of every larger set of agents (a subset of a plan is a
/// plan): replaying the cores in order (each sum a core names pays one output, a new sum
/// over those outputs) rebuilds the bound in a session of any reach on these agents or
/// more, without a SAT call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoreLog {
    agents: Vec<usize>,
    cores: Vec<Vec<Term>>,
}

impl CoreLog {
    /// The number of cores: the bound they prove.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
    pub fn len(&self) -> usize {
        self.cores.len()
    }

    /// No core.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
    pub fn is_empty(&self) -> bool {
        self.cores.is_empty()
    }
}

/// A unary sum of the core-guided bound: `outputs[k]` is forced true by at least k + 1
/// of its inputs, and its first `paid` outputs are counted in the cores found already.
#[derive(Debug, Clone)]
struct Sum {
    outputs: Vec<i32>,
    paid: usize,
    term: Term,
}

impl Session {
    /// The encoding of the agents `agents` of `instance` within reach of `reach` extra
    /// steps, in a solver that gives up at `deadline`, with the clauses of the pairwise
    /// bounds `pairs` ([`super::pairwise`]) between the agents encoded.
    ///
    /// # Complexity
    /// See the module documentation, plus O(w) clauses per pair of weight w.
    pub fn new(
        instance: &Instance<'_>,
        agents: &[usize],
        reach: u32,
        deadline: Deadline,
        pairs: &[Pair],
    ) -> Self {
        Session::configured(instance, agents, reach, deadline, pairs, false, false)
    }

    /// [`Session::new`], its solver in CaDiCaL's `plain` configuration when `plain`
    /// ([`crate::mapf::sat::plain_solver`]; the default configuration otherwise),
    /// each agent's cells within its own reach when `own` (module documentation).
    ///
    /// # Complexity
    /// As [`Session::new`].
    pub fn configured(
        instance: &Instance<'_>,
        agents: &[usize],
        reach: u32,
        deadline: Deadline,
        pairs: &[Pair],
        plain: bool,
        own: bool,
    ) -> Self {
        let longest = longest(instance) as usize;
        let mut session = Session {
            solver: if plain { plain_solver() } else { solver() },
            last_var: 0,
            counted: 0,
            longest,
            reach,
            horizon: longest + reach as usize,
            agents: Vec::new(),
            layers: Vec::new(),
            counts: Vec::new(),
            own,
            ways_out: Vec::new(),
            excess: Vec::new(),
            options: Options::new(instance.grid),
            deadline,
            pairs: pairs.to_vec(),
            sums: Vec::new(),
            cores: Vec::new(),
            settled: false,
            settled_plan: None,
            exhausted: false,
            plain,
            stalled: false,
            cut: false,
            cut_at: deadline,
        };
        session.add(instance, agents);
        session
    }

    /// Its SAT calls give up at `deadline` from now on (instead of the one it was built
    /// with, which still stops the writing of clauses).
    pub fn give_up_at(&mut self, deadline: Deadline) {
        self.deadline = deadline;
    }

    /// Whether the deadline cut the encoding short (then it decides nothing).
    pub fn cut(&self) -> bool {
        self.cut
    }

    /// Extra steps the encoding reaches: it decides every budget up to this one.
    pub fn reach(&self) -> u32 {
        self.reach
    }

    /// The agents encoded, in the order of the paths of [`Session::decide`].
    pub fn agents(&self) -> &[usize] {
        &self.agents
    }

    /// Variables of the agents encoded as [`count_variables`] counts them (the (cell,
    /// time) pairs, the cost variables and a totalizer's outputs, not the auxiliary
    /// variables of the at-most-one and totalizer clauses), the measure the memory budget
    /// is given in.
    pub fn variables(&self) -> u64 {
        self.counted
    }

    fn fresh(&mut self) -> i32 {
        self.last_var += 1;
        self.last_var
    }

    /// Adds the agents `agents` of `instance` (not encoded yet) to the encoding: their
    /// variables and clauses, the vertex clauses between them and the agents already
    /// there (each (cell, time) where both have variables gets an indicator implied by
    /// the old ones, in one at-most-one with the new ones), and a new totalizer over every
    /// agent (the old one stays, no longer assumed: it only forces its outputs). What the
    /// solver learnt stays valid: clauses are only added.
    ///
    /// # Complexity
    /// As building their encoding, plus O(V log C) to find the old variables of the cells
    /// they share.
    pub fn add(&mut self, instance: &Instance<'_>, agents: &[usize]) {
        if agents.is_empty() {
            return;
        }
        let old = self.layers.len();
        self.settled = false;
        self.settled_plan = None;
        self.stalled = false;
        let floors = if self.own {
            let all: Vec<usize> = self.agents.iter().chain(agents).copied().collect();
            others_least(&all, agents, &self.pairs)
        } else {
            vec![0; agents.len()]
        };
        let mut at_cell: Vec<Vec<(u32, i32)>> = vec![Vec::new(); self.horizon + 1];
        // Writing the clauses is not interruptible by CaDiCaL: the deadline is looked at
        // between agents and every few times (a group of 38 agents, 1.76 M variables,
        // took 9 s to write on room-64-64-16 random-1 K = 100 under a load of 3.5, and the
        // answer came 5 s past `--time-limit 30`).
        for (&a, floor) in agents.iter().zip(floors) {
            if self.cut_at.passed() {
                self.cut = true;
                return;
            }
            let own_reach = self.reach.saturating_sub(floor);
            self.add_agent(instance, a, own_reach, &mut at_cell);
        }
        for (t, mut vars) in at_cell.into_iter().enumerate() {
            if t % 16 == 0 && self.cut_at.passed() {
                self.cut = true;
                return;
            }
            vars.sort_unstable();
            for group in vars.chunk_by(|x, y| x.0 == y.0) {
                let cell = group[0].0;
                let mut group: Vec<i32> = group.iter().map(|&(_, x)| x).collect();
                let before: Vec<i32> = self.layers[..old]
                    .iter()
                    .filter_map(|layers| var(&layers[t], cell))
                    .collect();
                if !before.is_empty() {
                    let taken = self.fresh();
                    for x in before {
                        self.solver.add_clause([-x, taken]);
                    }
                    group.push(taken);
                }
                let mut last_var = self.last_var;
                at_most_one(&mut self.solver, &group, &mut || {
                    last_var += 1;
                    last_var
                });
                self.last_var = last_var;
            }
        }
        let mut last_var = self.last_var;
        self.excess = totalize(
            &mut self.solver,
            self.counts.clone(),
            self.reach as usize + 1,
            &mut || {
                last_var += 1;
                last_var
            },
        );
        self.last_var = last_var;
        self.pair_clauses(old);
    }

    /// The clauses of the pairwise bounds between two agents encoded, one of them at
    /// position `old` or later in [`Session::agents`] (added since): x_a + x_b >= w as
    /// e(a, k + 1) or e(b, w - k) for k in 0..w, e past the reach being false (an agent
    /// of the session takes at most the reach).
    fn pair_clauses(&mut self, old: usize) {
        let position = |agents: &[usize], a: usize| agents.iter().position(|&b| b == a);
        for pair in &self.pairs {
            let (Some(i), Some(j)) = (
                position(&self.agents, pair.first),
                position(&self.agents, pair.second),
            ) else {
                continue;
            };
            if i < old && j < old {
                continue;
            }
            // "At least k extra steps" past the reach is weakened to "beyond the reach"
            // (the count's last variable), which it implies.
            let count = |agent: usize, k: u32| -> i32 {
                let count = &self.counts[agent];
                count[(k as usize).min(count.len()) - 1]
            };
            for k in 0..pair.extra {
                self.solver
                    .add_clause([count(i, k + 1), count(j, pair.extra - k)]);
            }
        }
    }

    /// Agent `a`'s variables and its own clauses (start, goal, moves, cost), its cells
    /// within `own_reach` extra steps (at most the reach), its variables listed by time
    /// in `at_cell`.
    fn add_agent(
        &mut self,
        instance: &Instance<'_>,
        a: usize,
        own_reach: u32,
        at_cell: &mut [Vec<(u32, i32)>],
    ) {
        let grid = instance.grid;
        let cells = grid.cell_count();
        let distance = instance.distance(a, instance.starts[a]) as usize;
        let own_reach = own_reach.min(self.reach) as usize;
        let home_by = distance + own_reach;
        let to_goal = instance.distances(a);
        // Each cell of the window at every time from its distance from the start to the
        // last from which the goal is still within reach (the goal: to the horizon),
        // numbered time by time and by cell within a time.
        let mut layers: Vec<Layer> = vec![Vec::new(); self.horizon + 1];
        for (v, s) in window(instance, a, home_by as u32) {
            let last = match to_goal.at(v as usize) {
                0 => self.horizon,
                g => home_by.saturating_sub(g as usize).min(self.horizon),
            };
            for layer in layers.iter_mut().take(last + 1).skip(s as usize) {
                layer.push((v, 0));
            }
        }
        for (layer, at_time) in layers.iter_mut().zip(at_cell.iter_mut()) {
            for (_, x) in layer.iter_mut() {
                self.last_var += 1;
                *x = self.last_var;
            }
            at_time.extend(layer.iter().copied());
        }
        // The unary count of the extra steps, e(a, 1..=R + 1); the last is the agent
        // beyond the reach. Its way out is e(a, r + 1) for its own reach r: then none of
        // its variables need be true, and every clause below but the start and the goal
        // from the deadline on holds with them all false.
        let count: Vec<i32> = (0..=self.reach)
            .map(|_| {
                self.last_var += 1;
                self.last_var
            })
            .collect();
        let beyond = count[own_reach];
        let solver = &mut self.solver;
        // The start, and the goal from the deadline on: the only variables there.
        for &(_, var) in &layers[0] {
            solver.add_clause([var, beyond]);
        }
        for layer in &layers[home_by.min(self.horizon)..] {
            for &(_, var) in layer {
                solver.add_clause([var, beyond]);
            }
        }
        let mut here = vec![0i32; cells];
        let mut there = vec![0i32; cells];
        crate::mapf::sat::movement_clauses(
            solver,
            &self.options,
            &layers[..=self.horizon],
            &mut here,
            &mut there,
        );
        // Away from the goal at d_a + k - 1: at least k extra steps (from the own reach
        // on, the goal clauses above say it), and each count implies the one below.
        let goal = instance.goals[a].index() as u32;
        for k in 1..=own_reach {
            if let Some(at_goal) = var(&layers[distance + k - 1], goal) {
                solver.add_clause([at_goal, count[k - 1]]);
            }
        }
        for k in 1..count.len() {
            solver.add_clause([-count[k], count[k - 1]]);
        }
        // Away from the goal at t on v: at least t + dist(v, goal) - d_a extra steps.
        for (t, layer) in layers.iter().enumerate() {
            for &(v, x) in layer {
                let extra = (t + to_goal.at(v as usize) as usize).saturating_sub(distance);
                if v != goal && extra > 0 {
                    if let Some(&e) = count.get(extra - 1) {
                        solver.add_clause([-x, e]);
                    }
                }
            }
        }
        let pairs: usize = layers.iter().map(Vec::len).sum();
        self.counted += pairs as u64 + 2 * u64::from(self.reach) + 2;
        self.agents.push(a);
        self.ways_out.push(beyond);
        self.sums.push(Sum {
            outputs: count.clone(),
            paid: 0,
            term: Term::Agent(a),
        });
        self.counts.push(count);
        self.layers.push(layers);
    }

    /// Decides whether the agents encoded have a plan with at most `delta` extra steps,
    /// reading paths and adding swap clauses until a model has no swap: their paths in
    /// the order of [`Session::agents`], each of `max d_a + delta + 1` cells (d over all
    /// the instance's agents). Past the reach, the session is built again with `delta`
    /// as its reach (what it learnt is lost).
    ///
    /// # Complexity
    /// One incremental SAT call per round of swap clauses.
    pub fn decide(&mut self, instance: &Instance<'_>, delta: u32) -> Decision {
        if self.cut {
            return Decision::Stopped;
        }
        if delta > self.reach {
            let log = self.log();
            let pairs = std::mem::take(&mut self.pairs);
            let deadline = self.deadline;
            *self = Session::configured(
                instance,
                &log.agents,
                delta,
                self.cut_at,
                &pairs,
                self.plain,
                self.own,
            );
            self.give_up_at(deadline);
            if self.cut {
                return Decision::Stopped;
            }
            self.replay(&log);
        }
        let assumption = self.excess.get(delta as usize).map(|&over| -over);
        loop {
            match solve_in_time(&mut self.solver, self.deadline, assumption) {
                Some(true) => {}
                Some(false) => return Decision::Impossible,
                None => return Decision::Stopped,
            }
            if let Some(paths) = self.paths_unless_swapped(instance, delta) {
                return Decision::Plan(paths);
            }
        }
    }

    /// A plan of the agents encoded with at most `delta` extra steps that keeps off the
    /// paths of `others` (sets of paths of agents not encoded, each padded with its last
    /// cell to the horizon): no agent on a cell one of them holds at that time, none
    /// swapping with one over an edge. The paths as [`Session::decide`] gives them, or
    /// [`Avoiding::Core`]: the sets (indices in `others`) that no such plan keeps off
    /// together; [`Avoiding::Unsettled`] when `conflicts` conflicts of the solver do not
    /// settle it, at the deadline, or when a path to keep off passes the home of an agent
    /// encoded after the horizon (where that agent stays).
    ///
    /// Each set's paths are clauses guarded by a fresh selector, assumed for this call
    /// and made false after it, so nothing they say stays: what the solver learns under
    /// them mentions the selectors, and every later call is as before (exact). The
    /// selectors among the failed assumptions name the core.
    ///
    /// # Complexity
    /// O(A x H x O) clauses for A agents encoded, horizon H and O paths to keep off,
    /// then one SAT call (under `conflicts`) per round of swap clauses.
    pub fn plan_avoiding(
        &mut self,
        instance: &Instance<'_>,
        delta: u32,
        others: &[Vec<Vec<u32>>],
        conflicts: i32,
    ) -> Avoiding {
        if self.cut || delta > self.reach || self.deadline.passed() {
            return Avoiding::Unsettled;
        }
        let at = |path: &Vec<u32>, t: usize| path.get(t).or(path.last()).copied();
        // Past the horizon the agents encoded stay home: a path that passes one of their
        // homes there cannot be kept off.
        let homes: Vec<u32> = self
            .agents
            .iter()
            .map(|&a| instance.goals[a].index() as u32)
            .collect();
        if others.iter().flatten().any(|path| {
            path.iter()
                .skip(self.horizon + 1)
                .any(|v| homes.contains(v))
        }) {
            return Avoiding::Unsettled;
        }
        let mut selectors = Vec::with_capacity(others.len());
        for set in others {
            let selector = self.fresh();
            selectors.push(selector);
            for agent in 0..self.layers.len() {
                for t in 0..=self.horizon {
                    for path in set {
                        let Some(v) = at(path, t) else { continue };
                        if let Some(x) = var(&self.layers[agent][t], v) {
                            self.solver.add_clause([-selector, -x]);
                        }
                        if t == self.horizon {
                            continue;
                        }
                        // The other moves from v to u: this agent may not move from u to v.
                        let Some(u) = at(path, t + 1).filter(|&u| u != v) else {
                            continue;
                        };
                        if let (Some(from), Some(to)) = (
                            var(&self.layers[agent][t], u),
                            var(&self.layers[agent][t + 1], v),
                        ) {
                            self.solver.add_clause([-selector, -from, -to]);
                        }
                    }
                }
            }
        }
        let budget = self.excess.get(delta as usize).map(|&over| -over);
        let found = loop {
            if self.solver.set_limit("conflicts", conflicts).is_err() {
                break Avoiding::Unsettled;
            }
            match solve_in_time(
                &mut self.solver,
                self.deadline,
                budget.into_iter().chain(selectors.iter().copied()),
            ) {
                Some(true) => {}
                Some(false) => {
                    break Avoiding::Core(
                        (0..selectors.len())
                            .filter(|&i| self.solver.failed(selectors[i]))
                            .collect(),
                    );
                }
                None => break Avoiding::Unsettled,
            }
            if let Some(paths) = self.paths_unless_swapped(instance, delta) {
                break Avoiding::Plan(paths);
            }
        };
        for selector in selectors {
            self.solver.add_clause([-selector]);
        }
        found
    }

    /// A lower bound on the extra steps of the agents encoded, raised by unsatisfiable
    /// cores (OLL: Morgado, Dodaro and Marques-Silva, "Core-guided MaxSAT with soft
    /// cardinality constraints", CP 2014; Andres, Kaufmann, Matheis and Schaub,
    /// "Unsatisfiability-based optimization in clasp", ICLP 2012) until a plan meets it
    /// or the deadline passes, or passes the reach: the number of cores (found or
    /// replayed).
    ///
    /// Each sum (first every agent's count of extra steps) is assumed to have no more
    /// true outputs than it has paid. An unsatisfiable answer names the failed
    /// assumptions, a core: at least one of those sums takes one more, so the bound rises
    /// by one, each of them pays one more output, and a new sum over the outputs just paid
    /// (when more than one) has its first output paid: a second true one among them
    /// costs one more again. A model under every assumption is a plan with `cores` extra
    /// steps (after the swap clauses), the least of the agents encoded. The encoding is a
    /// relaxation of every plan (module documentation), so every plan has at least as
    /// many extra steps as there are cores; past the reach the raise stops (a model
    /// might then leave an agent out). The state stays from call to call: agents added
    /// later only add clauses, so every core found stays one.
    ///
    /// # Complexity
    /// One incremental SAT call per core and per round of swap clauses.
    pub fn raise(&mut self, instance: &Instance<'_>) -> u32 {
        while !self.cut
            && !self.settled
            && !self.exhausted
            && !self.stalled
            && self.bound() <= self.reach
        {
            let mut assumptions: Vec<i32> = self
                .sums
                .iter()
                .filter_map(|sum| sum.outputs.get(sum.paid).map(|&o| -o))
                .collect();
            // With own reaches, no agent takes its way out: a core that needs one is not
            // a fact about the sums alone, and the raise stops there.
            if self.own {
                assumptions.extend(self.ways_out.iter().map(|&w| -w));
            }
            match solve_in_time(&mut self.solver, self.deadline, assumptions.iter().copied()) {
                None => break,
                Some(true) => {
                    let paths = self.paths(instance);
                    let swaps = self.swaps(&paths);
                    if swaps.is_empty() {
                        self.settled = true;
                        self.settled_plan = Some(paths);
                    }
                    for clause in swaps {
                        self.solver.add_clause(clause);
                    }
                }
                Some(false) => {
                    if self.own && self.ways_out.iter().any(|&w| self.solver.failed(-w)) {
                        self.stalled = true;
                        break;
                    }
                    let named: Vec<usize> = (0..self.sums.len())
                        .filter(|&i| {
                            let sum = &self.sums[i];
                            sum.outputs
                                .get(sum.paid)
                                .is_some_and(|&o| self.solver.failed(-o))
                        })
                        .collect();
                    if named.is_empty() {
                        // No plan within the reach at all.
                        self.exhausted = true;
                        break;
                    }
                    self.pay(&named);
                }
            }
        }
        if self.exhausted {
            self.bound().max(self.reach + 1)
        } else {
            self.bound()
        }
    }

    /// The plan [`Session::raise`] settled on, when it has at most `delta` extra steps
    /// (within the reach): its paths cut to `max d_a + delta + 1` cells, as
    /// [`Session::decide`] gives them. Checked, not trusted: every path starts at its
    /// agent's start and the costs add up to at most the distances plus `delta`.
    ///
    /// # Complexity
    /// O(K x H).
    fn settled_within(&self, instance: &Instance<'_>, delta: u32) -> Option<Vec<Vec<u32>>> {
        let plan = self.settled_plan.as_ref()?;
        if delta > self.reach {
            return None;
        }
        let mut extra = 0u64;
        for (&a, path) in self.agents.iter().zip(plan) {
            let distance = instance.distance(a, instance.starts[a]);
            let cost = super::planning::cost(path, instance.goals[a].index() as u32);
            if path.first() != Some(&(instance.starts[a].index() as u32)) || cost < distance {
                return None;
            }
            extra += u64::from(cost - distance);
        }
        if extra > u64::from(delta) {
            return None;
        }
        let cut = self.longest + delta as usize + 1;
        Some(
            plan.iter()
                .map(|path| path[..cut.min(path.len())].to_vec())
                .collect(),
        )
    }

    /// The number of cores found or replayed.
    fn bound(&self) -> u32 {
        u32::try_from(self.cores.len()).unwrap_or(u32::MAX)
    }

    /// One more core, naming the sums at `named` (indices in `sums`, each with an output
    /// left to pay): each pays one output, and a new sum over the outputs just paid (when
    /// more than one) has its first output paid.
    fn pay(&mut self, named: &[usize]) {
        let mut paid: Vec<Vec<i32>> = Vec::with_capacity(named.len());
        let mut terms = Vec::with_capacity(named.len());
        for &i in named {
            let sum = &mut self.sums[i];
            paid.push(vec![sum.outputs[sum.paid]]);
            sum.paid += 1;
            terms.push(sum.term);
        }
        let core = self.cores.len();
        self.cores.push(terms);
        self.settled = false;
        self.settled_plan = None;
        if paid.len() > 1 {
            let mut last_var = self.last_var;
            let outputs = totalize(&mut self.solver, paid, self.reach as usize + 1, &mut || {
                last_var += 1;
                last_var
            });
            self.last_var = last_var;
            self.sums.push(Sum {
                outputs,
                paid: 1,
                term: Term::Core(core),
            });
        }
    }

    /// The cores of the core-guided bound so far, with the agents encoded: what
    /// [`Session::replay`] takes.
    pub fn log(&self) -> CoreLog {
        CoreLog {
            agents: self.agents.clone(),
            cores: self.cores.clone(),
        }
    }

    /// Adds the cores of `log` to the core-guided bound without a SAT call ([`CoreLog`]:
    /// they hold in every session whose agents include the log's), in order, up to the
    /// first that names a sum this session cannot pay (an agent's count shorter than the
    /// reach it was found in). A log of other agents than the session's is ignored.
    /// Returns the number of cores replayed.
    ///
    /// # Complexity
    /// O(cores x (sums + R)) besides the totalizers' clauses.
    pub fn replay(&mut self, log: &CoreLog) -> usize {
        if !log.agents.iter().all(|a| self.agents.contains(a)) {
            return 0;
        }
        // The log's core j is this session's core `own[j]`.
        let mut own: Vec<usize> = Vec::with_capacity(log.cores.len());
        for core in &log.cores {
            let mut named = Vec::with_capacity(core.len());
            for term in core {
                let mine = match *term {
                    Term::Agent(a) => Term::Agent(a),
                    Term::Core(j) => match own.get(j) {
                        Some(&mine) => Term::Core(mine),
                        None => return own.len(),
                    },
                };
                match self.sums.iter().position(|sum| sum.term == mine) {
                    Some(i) if self.sums[i].paid < self.sums[i].outputs.len() => named.push(i),
                    _ => return own.len(),
                }
            }
            own.push(self.cores.len());
            self.pay(&named);
        }
        own.len()
    }

    fn is_true(&self, layer: &Layer, cell: u32) -> bool {
        var(layer, cell).is_some_and(|x| self.solver.value(x) == Some(true))
    }

    /// Every agent's path, read backwards from its goal at the first time from which its
    /// goal variables are all true (module documentation).
    fn paths(&self, instance: &Instance<'_>) -> Vec<Vec<u32>> {
        let mut paths = Vec::with_capacity(self.layers.len());
        for (&a, agent) in self.agents.iter().zip(&self.layers) {
            let goal = instance.goals[a].index() as u32;
            let mut arrival = self.horizon;
            while arrival > 0 && self.is_true(&agent[arrival - 1], goal) {
                arrival -= 1;
            }
            let mut path = vec![goal; self.horizon + 1];
            let mut v = goal;
            for t in (0..arrival).rev() {
                // The backward clause makes one option true; keep the cell otherwise.
                v = self
                    .options
                    .of(v)
                    .iter()
                    .copied()
                    .find(|&u| self.is_true(&agent[t], u))
                    .unwrap_or(v);
                path[t] = v;
            }
            paths.push(path);
        }
        paths
    }

    /// The last model's paths, each cut to `max d_a + delta + 1` cells, when no two of
    /// the agents encoded swap over an edge in it; else `None`, and clauses forbid those
    /// swaps from now on (the next call finds another model).
    ///
    /// # Complexity
    /// O(A x H) for A agents and horizon H, expected.
    fn paths_unless_swapped(
        &mut self,
        instance: &Instance<'_>,
        delta: u32,
    ) -> Option<Vec<Vec<u32>>> {
        let mut paths = self.paths(instance);
        let swaps = self.swaps(&paths);
        if swaps.is_empty() {
            for path in &mut paths {
                path.truncate(self.longest + delta as usize + 1);
            }
            return Some(paths);
        }
        for clause in swaps {
            self.solver.add_clause(clause);
        }
        None
    }

    /// The clauses forbidding the swaps of `paths` (empty: none swap).
    fn swaps(&self, paths: &[Vec<u32>]) -> Vec<[i32; 4]> {
        let mut clauses = Vec::new();
        let mut moving: HashMap<(u32, u32), usize> = HashMap::new();
        for t in 0..self.horizon {
            moving.clear();
            for (a, path) in paths.iter().enumerate() {
                if path[t] != path[t + 1] {
                    moving.insert((path[t], path[t + 1]), a);
                }
            }
            for (&(u, v), &a) in &moving {
                let Some(&b) = moving.get(&(v, u)) else {
                    continue;
                };
                if a < b {
                    let x = |agent: usize, t: usize, cell: u32| {
                        var(&self.layers[agent][t], cell).unwrap_or(0)
                    };
                    clauses.push([-x(a, t, u), -x(a, t + 1, v), -x(b, t, v), -x(b, t + 1, u)]);
                }
            }
        }
        clauses
    }
}

/// `paths`, one per agent of `encoded` in that order, in the order of `agents` (the same
/// agents).
///
/// # Complexity
/// O(A^2) for A agents.
fn in_order_of(agents: &[usize], encoded: &[usize], paths: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    let mut ordered = vec![Vec::new(); agents.len()];
    for (a, path) in encoded.iter().zip(paths) {
        if let Some(i) = agents.iter().position(|b| b == a) {
            ordered[i] = path;
        }
    }
    ordered
}

fn var(layer: &Layer, cell: u32) -> Option<i32> {
    layer
        .binary_search_by_key(&cell, |&(v, _)| v)
        .ok()
        .map(|i| layer[i].1)
}

/// The sum of the unary `counts` (each a list whose i-th variable means "at least i + 1"),
/// as a unary list of at most `cap` outputs: output j is forced true when the inputs make
/// at least j + 1 true. Pairs of lists are merged in a balanced tree.
fn totalize(
    solver: &mut Solver,
    mut counts: Vec<Vec<i32>>,
    cap: usize,
    fresh: &mut impl FnMut() -> i32,
) -> Vec<i32> {
    counts.retain(|c| !c.is_empty());
    while counts.len() > 1 {
        let mut merged = Vec::with_capacity(counts.len().div_ceil(2));
        let mut pairs = counts.into_iter();
        while let Some(left) = pairs.next() {
            match pairs.next() {
                Some(right) => merged.push(merge(solver, &left, &right, cap, fresh)),
                None => merged.push(left),
            }
        }
        counts = merged;
    }
    counts.pop().unwrap_or_default()
}

/// The unary sum of `left` and `right`, cut at `cap` outputs.
fn merge(
    solver: &mut Solver,
    left: &[i32],
    right: &[i32],
    cap: usize,
    fresh: &mut impl FnMut() -> i32,
) -> Vec<i32> {
    let out: Vec<i32> = (0..(left.len() + right.len()).min(cap))
        .map(|_| fresh())
        .collect();
    for i in 0..=left.len() {
        for j in 0..=right.len() {
            // Sums past the cap follow from the ones at the cap.
            if i + j == 0 || i + j > out.len() {
                continue;
            }
            let target = out[i + j - 1];
            let mut clause = Vec::with_capacity(3);
            if i > 0 {
                clause.push(-left[i - 1]);
            }
            if j > 0 {
                clause.push(-right[j - 1]);
            }
            clause.push(target);
            solver.add_clause(clause);
        }
    }
    out
}

/// At most one of `vars` true: pairwise for up to 5, else Sinz's sequential counter
/// (n - 1 auxiliary variables, 3n clauses).
fn at_most_one(solver: &mut Solver, vars: &[i32], fresh: &mut impl FnMut() -> i32) {
    if vars.len() <= 5 {
        for i in 0..vars.len() {
            for j in i + 1..vars.len() {
                solver.add_clause([-vars[i], -vars[j]]);
            }
        }
        return;
    }
    let n = vars.len();
    let s: Vec<i32> = (0..n - 1).map(|_| fresh()).collect();
    solver.add_clause([-vars[0], s[0]]);
    for i in 1..n - 1 {
        solver.add_clause([-vars[i], s[i]]);
        solver.add_clause([-s[i - 1], s[i]]);
        solver.add_clause([-vars[i], -s[i - 1]]);
    }
    solver.add_clause([-vars[n - 1], -s[n - 2]]);
}

/// The encoding would need `variables` variables: more than the caller allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// Variables of the encoding that was not built.
    pub variables: u64,
}

/// With [`Sessions::filling`], the share of the room (numerator, denominator) a new
/// session may fill when its usual reach does not fit: the rest is for the other groups'
/// sessions.
pub const SESSION_FILL: (u64, u64) = (15, 16);

/// What [`Session::plan_avoiding`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Avoiding {
    /// The paths of a plan within the budget that keeps off the others.
    Plan(Vec<Vec<u32>>),
    /// No plan within the budget keeps off these sets of paths together (indices in the
    /// sets given; empty when none within the budget exists at all).
    Core(Vec<usize>),
    /// Not settled within the conflicts or the deadline, or no session to ask.
    Unsettled,
}

/// The conflicts [`Sessions::plan_avoiding`] gives the solver. The plans and cores it
/// finds come within a few conflicts (0.00 to 0.15 s on den312d random-1 K = 80 and
/// empty-16-16 random-1 K = 80, groups of 45 to 70 agents), while a call that does not
/// settle costs more than the merge's decision it would save: with 300, 0.7 to 1.5 s
/// each on den312d (a decision of the merged group: 0.15 to 0.6 s), with 2 000, 4.4 to
/// 5.8 s on empty-16-16.
pub const AVOID_CONFLICTS: i32 = 50;

/// The SAT decisions of successive budgets: with `incremental`, a [`Session`] is kept
/// and decides the next budgets while they are within its reach, the agents that join
/// the core being added to it; otherwise each decision has a fresh session of reach
/// Delta.
///
/// A new session for Delta reaches Delta + Delta / 4 + 2: a wider reach makes a larger
/// encoding, slower to decide the first budget in (at Delta = 0, where a fresh encoding
/// is the shortest paths alone, a reach of 4 took 8.9 s against 1.3 s on
/// random-64-64-10 even-1 with 80 agents), a narrower one rebuilds more often. Measured
/// (CPU s, `--time-limit 30`, loaded machine) against a fixed reach of Delta + 4 and a
/// fresh session per budget: random-64-64-10 even-1 K = 80 2.6 against 9.0 and 6.6 s;
/// den312d even-1 K = 40 proved in 16.4 s, unproven by the other two. Since a session
/// built again replays the cores of the one before ([`CoreLog`]), rebuilding costs the
/// encoding only, and the narrower reach of Delta / 4 + 2 past Delta (it was
/// Delta / 2 + 1) makes each core cheaper: CPU s to the proof under `ulimit -t` (Delta / 2 + 1,
/// Delta / 4 + 2, Delta / 8 + 2): maze-32-32-4 even-1 K = 40 unproven at 20 s (Delta
/// 35), 1735 in 18.8 s, proven within 20 s; room-32-32-4 even-1 K = 40 1101 in 33.4 s
/// with Delta / 4 + 2; room-64-64-8 random-1 K = 40 unproven at 25 s, 2278 in 11.8 and
/// 11.8 s; maze-32-32-4 random-1 K = 20 988 in 9.9, 10.0 and 14.6 s.
pub struct Sessions {
    incremental: bool,
    deadline: Deadline,
    kept: Option<Session>,
    /// The pairwise bounds every session built from now on is given.
    pairs: Vec<Pair>,
    /// Whether each decision first raises the core-guided bound ([`Session::raise`]).
    core_guided: bool,
    /// Whether a budget at or above the raised bound takes the raise's own plan
    /// ([`Sessions::reusing`]).
    reuse: bool,
    /// Whether a new session whose usual reach does not fit the memory reaches as far as
    /// fits rather than Delta alone ([`Sessions::filling`]).
    fill: bool,
    /// Whether the sessions' solvers run in CaDiCaL's `plain` configuration
    /// ([`Sessions::plain`]).
    plain: bool,
    /// Whether each agent's cells reach only what the others leave it
    /// ([`Sessions::own_reaches`]).
    own: bool,
    /// When writing a session's clauses stops ([`Sessions::writing_until`]).
    cut_at: Deadline,
    /// The bound the last decision proved when it answered impossible (0: none beyond
    /// its budget).
    proven: u32,
    /// The cores of the last session used (kept when it is dropped), replayed in the
    /// next one built on its agents or more.
    log: CoreLog,
    /// Cores of other sessions whose agents have joined these ([`Sessions::adopt`]), to
    /// be replayed in the next session used.
    adopted: Vec<CoreLog>,
}

impl Sessions {
    /// No session yet; each gives up at `deadline`.
    pub fn new(incremental: bool, deadline: Deadline) -> Self {
        Sessions {
            incremental,
            deadline,
            kept: None,
            pairs: Vec::new(),
            core_guided: false,
            reuse: false,
            fill: false,
            plain: false,
            own: false,
            cut_at: deadline,
            proven: 0,
            log: CoreLog::default(),
            adopted: Vec::new(),
        }
    }

    /// Sessions that first raise the core-guided bound of their agents
    /// ([`Session::raise`]) before they decide a budget below it.
    pub fn core_guided(incremental: bool, deadline: Deadline) -> Self {
        Sessions {
            core_guided: true,
            ..Sessions::new(incremental, deadline)
        }
    }

    /// These sessions, where with `reuse` a budget at or above the core-guided bound
    /// takes the plan the raise settled on ([`Session::raise`]: the model that met the
    /// bound) instead of asking the solver again under the budget's assumption.
    pub fn reusing(self, reuse: bool) -> Self {
        Sessions { reuse, ..self }
    }

    /// These sessions, where with `fill` (and incremental sessions) a new session whose
    /// usual reach, Delta + Delta / 4 + 2, would pass the memory reaches as many budgets
    /// past Delta as fit in 15/16 of it ([`SESSION_FILL`]), rather than Delta alone.
    ///
    /// Why: a session of reach Delta decides one budget; its raise passes the reach at
    /// the first core, and the next budget builds it again. On ht_chantry random-1 with
    /// 100 agents (`--memory-mib 4096`, 2.75 M variables of room) the group of 37 agents
    /// needed 2.2 to 2.4 M variables at reach Delta and 3.3 M at the usual reach, so from
    /// Delta = 43 on every budget was a new build of 3.3 to 4.8 s, its raise 0.3 to 0.5 s.
    /// The sixteenth left over is for the other groups' sessions: one that does not fit
    /// beside this one drops it ([`super::core::Groups`]).
    pub fn filling(self, fill: bool) -> Self {
        Sessions { fill, ..self }
    }

    /// These sessions, their solvers in CaDiCaL's `plain` configuration when `plain`
    /// ([`crate::mapf::sat::plain_solver`]: no preprocessing or inprocessing).
    ///
    /// Why: traced on room-32-32-4 random-1 K = 40 (no time limit), the proof's time went
    /// to single calls of [`Session::raise`] that took seconds with a few hundred
    /// conflicts (a conflict limit of 300 stopped them, one of 1500 did not), the core at
    /// 39 extra steps 31 s of the 37.5 CPU s: the inprocessing of the default
    /// configuration on the incremental formula, not the search. Plain, that row is
    /// proven in 17.1 CPU s.
    pub fn plain(self, plain: bool) -> Self {
        Sessions { plain, ..self }
    }

    /// These sessions, where with `own` each agent's cells reach only the session's reach
    /// less what the others take at least by the pairwise bounds ([`others_least`]; the
    /// module documentation's own reaches).
    ///
    /// Why: a group's encoding holds every agent's cells within the whole reach, while the
    /// pairs between the others already spend most of it: on ht_chantry random-1 with 100
    /// agents (`--memory-mib 4096`) the group of 45 agents at 51 extra steps needed 3.57 M
    /// variables, past the room of 2.79 M, and the proof stopped there at 19.7 s of 30.
    pub fn own_reaches(self, own: bool) -> Self {
        Sessions { own, ..self }
    }

    /// These sessions, their clauses written until `cut_at` (by default their deadline):
    /// a later instant when their SAT calls stop for a while and go on after (the
    /// groups' share of the proof, [`super::Whole::AfterGroups`]), so that a session
    /// being written then is finished and kept rather than cut and written again.
    pub fn writing_until(self, cut_at: Deadline) -> Self {
        Sessions { cut_at, ..self }
    }

    /// The reach of a new session on `agents` for `delta` within `max_variables`: the
    /// usual Delta + Delta / 4 + 2 when it fits; with [`Sessions::filling`], else the
    /// widest that fits in [`SESSION_FILL`] of the room; else Delta.
    ///
    /// # Complexity
    /// O(log Delta) counts of [`count_variables`].
    fn reach_for(
        &self,
        instance: &Instance<'_>,
        agents: &[usize],
        delta: u32,
        max_variables: u64,
    ) -> u32 {
        let floors = self.floors(agents, agents);
        let count_variables =
            |agents: &[usize], reach: u32| count_own_variables(instance, agents, reach, &floors);
        let wide = delta.saturating_add(delta / 4 + 2);
        if count_variables(agents, wide) <= max_variables {
            return wide;
        }
        let fill = max_variables / SESSION_FILL.1 * SESSION_FILL.0;
        if !self.fill || count_variables(agents, delta) > fill {
            return delta;
        }
        // The count grows with the reach: the widest within `fill`, by bisection
        // (`near` fits, `far` does not).
        let (mut near, mut far) = (delta, wide);
        while far - near > 1 {
            let middle = near + (far - near) / 2;
            if count_variables(agents, middle) <= fill {
                near = middle;
            } else {
                far = middle;
            }
        }
        near
    }

    /// Per agent of `of` (each one of `all`), what the others of `all` take at least
    /// ([`others_least`]) with own reaches, else 0.
    fn floors(&self, all: &[usize], of: &[usize]) -> Vec<u32> {
        if self.own {
            others_least(all, of, &self.pairs)
        } else {
            vec![0; of.len()]
        }
    }

    /// The extra steps the last decision proved every plan takes when it answered
    /// [`Decision::Impossible`] (of the agents decided: a bound for the whole instance
    /// too); 0 when it proved only its own budget impossible.
    pub fn proven(&self) -> u32 {
        self.proven
    }

    /// Sessions as these (incremental or not, core-guided or not, the same deadline),
    /// with no session and no pairwise bounds.
    pub fn fresh(&self) -> Self {
        Sessions {
            core_guided: self.core_guided,
            reuse: self.reuse,
            fill: self.fill,
            plain: self.plain,
            own: self.own,
            cut_at: self.cut_at,
            ..Sessions::new(self.incremental, self.deadline)
        }
    }

    /// Sessions as these (incremental or not, core-guided or not, the same deadline and
    /// pairwise bounds), with no session: for another set of agents.
    pub fn alike(&self) -> Self {
        Sessions {
            pairs: self.pairs.clone(),
            ..self.fresh()
        }
    }

    /// When the decisions give up.
    pub fn deadline(&self) -> Deadline {
        self.deadline
    }

    /// The decisions from now on, in the kept session too, give up at `deadline`.
    pub fn give_up_at(&mut self, deadline: Deadline) {
        self.deadline = deadline;
        if let Some(session) = &mut self.kept {
            session.give_up_at(deadline);
        }
    }

    /// The pairwise bounds given to the sessions.
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// [`Sessions::pairs`] when `on`, else none.
    pub fn pairs_if(&self, on: bool) -> &[Pair] {
        if on { &self.pairs } else { &[] }
    }

    /// Variables of the kept session (0 when none is kept).
    pub fn variables(&self) -> u64 {
        self.kept.as_ref().map_or(0, Session::variables)
    }

    /// Drops the kept session, to free its memory; its cores stay, to be replayed in the
    /// next one.
    pub fn drop_session(&mut self) {
        if let Some(session) = self.kept.take() {
            self.log = session.log();
        }
    }

    /// Takes over the cores of `other` (sessions on other agents, which are to join
    /// these): they are replayed in the next session used, once it has their agents.
    pub fn adopt(&mut self, mut other: Sessions) {
        other.drop_session();
        self.adopted.push(other.log);
        self.adopted.append(&mut other.adopted);
    }

    /// Gives the pairwise bounds `pairs` ([`super::pairwise`]) to every session built
    /// from now on, as clauses (the kept one, if any, is dropped).
    pub fn set_pairs(&mut self, pairs: Vec<Pair>) {
        self.kept = None;
        self.pairs = pairs;
    }

    /// A plan of the agents `agents` with at most `delta` extra steps that keeps off
    /// the paths of `others` ([`Session::plan_avoiding`], within [`AVOID_CONFLICTS`]
    /// conflicts), its paths in the order of `agents`; [`Avoiding::Unsettled`] as well
    /// when the kept session is not one of exactly these agents within that reach (no
    /// session is built for it).
    ///
    /// # Complexity
    /// As [`Session::plan_avoiding`].
    pub fn plan_avoiding(
        &mut self,
        instance: &Instance<'_>,
        agents: &[usize],
        delta: u32,
        others: &[Vec<Vec<u32>>],
    ) -> Avoiding {
        let Some(session) = self.kept.as_mut().filter(|session| {
            session.reach() >= delta
                && session.agents().len() == agents.len()
                && session.agents().iter().all(|a| agents.contains(a))
        }) else {
            return Avoiding::Unsettled;
        };
        match session.plan_avoiding(instance, delta, others, AVOID_CONFLICTS) {
            Avoiding::Plan(paths) => Avoiding::Plan(in_order_of(agents, session.agents(), paths)),
            other => other,
        }
    }

    /// Decides whether the agents `agents` of `instance` (distinct) have a plan with at
    /// most `delta` extra steps, building no encoding of more than `max_variables`
    /// variables: their paths in the order of `agents`.
    ///
    /// # Errors
    /// [`TooLarge`] when even the encoding of reach `delta` would pass `max_variables`.
    ///
    /// # Complexity
    /// O(K x C) to count the variables, then as [`Session::decide`] (and
    /// [`Session::new`] or [`Session::add`] when the kept session lacks the reach or
    /// some agents).
    pub fn decide(
        &mut self,
        instance: &Instance<'_>,
        agents: &[usize],
        delta: u32,
        max_variables: u64,
    ) -> Result<Decision, TooLarge> {
        // A decision small enough to end before CaDiCaL asks its terminate callback
        // would go on past the deadline, one after another: the pairwise bound's pair
        // decisions on maze-128-128-1 with 100 agents ran 9 s past the proof's share.
        if self.deadline.passed() {
            return Ok(Decision::Stopped);
        }
        let kept = self.kept.take().filter(|session| {
            self.incremental
                && session.reach() >= delta
                && session.agents().iter().all(|a| agents.contains(a))
        });
        let session = match kept {
            Some(mut session) => {
                let new: Vec<usize> = agents
                    .iter()
                    .copied()
                    .filter(|a| !session.agents().contains(a))
                    .collect();
                let all: Vec<usize> = session.agents().iter().chain(&new).copied().collect();
                let floors = self.floors(&all, &new);
                let variables = count_own_variables(instance, &new, session.reach(), &floors);
                if session.variables().saturating_add(variables) <= max_variables {
                    session.add(instance, &new);
                    Some(session)
                } else {
                    None
                }
            }
            None => None,
        };
        let mut session = match session {
            Some(session) => session,
            None => {
                let reach = if self.incremental {
                    self.reach_for(instance, agents, delta, max_variables)
                } else {
                    delta
                };
                if reach == delta {
                    let floors = self.floors(agents, agents);
                    let variables = count_own_variables(instance, agents, delta, &floors);
                    if variables > max_variables {
                        return Err(TooLarge { variables });
                    }
                }
                let mut session = Session::configured(
                    instance,
                    agents,
                    reach,
                    self.cut_at,
                    &self.pairs,
                    self.plain,
                    self.own,
                );
                session.give_up_at(self.deadline);
                if self.incremental && !session.cut() {
                    session.replay(&self.log);
                }
                session
            }
        };
        if session.cut() {
            // Nothing decided; the cores found so far stay in the log and the adopted
            // ones wait, for the next session.
            drop_off_the_clock(session, self.deadline);
            return Ok(Decision::Stopped);
        }
        for log in std::mem::take(&mut self.adopted) {
            if self.incremental {
                session.replay(&log);
            }
        }
        self.proven = 0;
        let raised = if self.core_guided {
            session.raise(instance)
        } else {
            0
        };
        let decision = if raised > delta {
            self.proven = raised;
            Decision::Impossible
        } else if let Some(paths) = session
            .settled_within(instance, delta)
            .filter(|_| self.reuse)
        {
            // The raise's last model is already a plan within the budget: asking again
            // under the budget's assumption found one anew (room-32-32-4 even-1 K = 40:
            // 101 such calls, 7.6 of 29 CPU s).
            Decision::Plan(paths)
        } else {
            session.decide(instance, delta)
        };
        let decision = match decision {
            // The session's order to the caller's.
            Decision::Plan(paths) => Decision::Plan(in_order_of(agents, session.agents(), paths)),
            other => other,
        };
        self.log = session.log();
        if self.incremental {
            self.kept = Some(session);
        }
        Ok(decision)
    }
}

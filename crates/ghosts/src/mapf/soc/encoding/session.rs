//! One SAT session ([`Session`]): the encoding of a set of agents for a reach R of
//! extra steps in one CaDiCaL solver, which decides every budget Delta <= R under an
//! assumption, grows by the agents that join a core, raises its proven least by cores
//! ([`Session::raise`]), and reads plans back from its models.
//!
//! # Complexity
//! Building: O(sum over agents of their (cell, time) pairs within the reach), times the
//! neighbours of a cell for the move clauses; each decision is one CaDiCaL call.

use crate::mapf::Instance;
use crate::mapf::sat::{
    Deadline, Solver, at_most_one, plain_solver, solve_in_time, solver, swap_clauses,
};
use crate::moves::Options;

use super::super::pairwise::Pair;
use super::cardinality::totalize;
use super::{Avoiding, Decision, Layer, longest, others_least, window};

/// One solver for every budget up to a reach R of extra steps, on some of an instance's
/// agents, to which more can be added (module documentation).
pub struct Session {
    solver: Solver,
    /// The last variable made.
    last_var: i32,
    /// Variables as [`super::count_variables`] counts them, over the agents encoded.
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
pub(super) enum Term {
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
pub(super) struct Sum {
    outputs: Vec<i32>,
    paid: usize,
    term: Term,
}

impl Session {
    /// The encoding of the agents `agents` of `instance` within reach of `reach` extra
    /// steps, in a solver that gives up at `deadline`, with the clauses of the pairwise
    /// bounds `pairs` ([`super::super::pairwise`]) between the agents encoded.
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

    /// Variables of the agents encoded as [`super::count_variables`] counts them (the (cell,
    /// time) pairs, the cost variables and a totalizer's outputs, not the auxiliary
    /// variables of the at-most-one and totalizer clauses), the measure the memory budget
    /// is given in.
    pub fn variables(&self) -> u64 {
        self.counted
    }

    pub(super) fn fresh(&mut self) -> i32 {
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
    pub(super) fn settled_within(
        &self,
        instance: &Instance<'_>,
        delta: u32,
    ) -> Option<Vec<Vec<u32>>> {
        let plan = self.settled_plan.as_ref()?;
        if delta > self.reach {
            return None;
        }
        let mut extra = 0u64;
        for (&a, path) in self.agents.iter().zip(plan) {
            let distance = instance.distance(a, instance.starts[a]);
            let cost = super::super::planning::cost(path, instance.goals[a].index() as u32);
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
        swap_clauses(self.horizon, paths, |agent, t, cell| {
            var(&self.layers[agent][t], cell).unwrap_or(0)
        })
    }
}

/// `paths`, one per agent of `encoded` in that order, in the order of `agents` (the same
/// agents).
///
/// # Complexity
/// O(A^2) for A agents.
pub(super) fn in_order_of(
    agents: &[usize],
    encoded: &[usize],
    paths: Vec<Vec<u32>>,
) -> Vec<Vec<u32>> {
    let mut ordered = vec![Vec::new(); agents.len()];
    for (a, path) in encoded.iter().zip(paths) {
        if let Some(i) = agents.iter().position(|b| b == a) {
            ordered[i] = path;
        }
    }
    ordered
}

pub(super) fn var(layer: &Layer, cell: u32) -> Option<i32> {
    layer
        .binary_search_by_key(&cell, |&(v, _)| v)
        .ok()
        .map(|i| layer[i].1)
}

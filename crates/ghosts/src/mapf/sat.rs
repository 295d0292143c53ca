//! The fixed-horizon decision procedure: is there a plan of makespan exactly T? Encoded as
//! a SAT problem and handed to the CaDiCaL solver (the `cadical` crate, built from its
//! bundled C++ sources).
//!
//! Encoding, for agent a, time t in 0..=T and cell v: a variable x(a, v, t) "a is on v at
//! t", created only when dist(start_a, v) <= t and dist(v, goal_a) <= T - t (elsewhere the
//! agent cannot be in time). Clauses:
//! - the start at 0 and the goal at T are units (they are the only cells of those steps);
//! - moves: x(a, v, t) implies some x(a, u, t + 1) with u = v or a neighbour of v, and
//!   x(a, u, t + 1) implies some x(a, v, t) among its neighbours (the backward form
//!   helps propagation);
//! - vertex conflicts: at most one variable of a cell and a step is true (pairwise for a
//!   few agents, a sequential counter beyond);
//! - swap conflicts: added lazily. A model is read as one chain of true variables per
//!   agent; when two chains swap over an edge, the clause forbidding that very swap is
//!   added and the solver asked again (few rounds in practice: swaps are rare in optimal
//!   plans).
//!
//! The clauses say nothing about an agent being on one cell only: extra true variables
//! are harmless, since the chain read from a model is a legal path of that agent, and the
//! vertex clauses keep every true variable (so every chain) apart.
//!
//! # Complexity
//! The encoding has V = sum over agents of the cells in their time windows variables and
//! O(V) clauses, built in O(V + K x C) time; solving is NP-hard in general and fast on
//! the benchmark's instances.

use std::cell::RefCell;
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use grid_core::Grid;

use super::Instance;
use crate::moves::Options;

/// Bytes one decision holds per variable of [`count_variables`] (the encoding and the
/// solver), checked against the budget before anything is built.
///
/// A bound in two parts. The encoding has at most 19 literals per counted variable: a
/// forward and a backward clause of at most 6 literals each (itself and the 5 options),
/// at most 6 in the vertex clauses (pairwise for up to 5 agents on a cell, else a
/// sequential counter of 3g - 4 binary clauses and g - 1 auxiliary variables for g
/// agents), and the start and goal units. And the decision's peak memory per literal
/// (whole process, `decide` alone at one horizon) measured 65 to 76 bytes on eight
/// benchmark instances: room-32-32-4 even-1 with 40 agents at T = 51 (185 k variables,
/// 2.6 M literals, 185 MiB) and 53, random-1 with 20 at 46 (62 k, 0.74 M, 52 MiB);
/// random-32-32-20 random-1 with 100 at 48 (712 k, 10.9 M, 786 MiB); maze-32-32-2
/// random-1 with 40 at 129 (872 k, 13.0 M, 872 MiB); empty-32-32 even-1 with 80 at 45
/// (677 k, 11.3 M, 770 MiB); den312d even-1 with 40 at 111 (1.59 M, 25.0 M, 1556 MiB);
/// room-64-64-8 even-1 with 40 at 140 (3.08 M, 47.9 M, 3073 MiB). Per counted variable
/// that was 884 to 1193 bytes, with 12 to 16.6 literals. 19 literals at 80 bytes, rounded
/// up: 1536. (Swap clauses, 4 literals each, are added after the check; few in practice.)
pub const BYTES_PER_VARIABLE: u64 = 1536;

/// The answer of one decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// A plan of makespan T: per agent, its cell at every time 0..=T.
    Plan(Vec<Vec<u32>>),
    /// No plan of makespan T exists (proved).
    Impossible,
    /// The [`Deadline`] passed first: nothing is proved.
    Stopped,
}

/// When a SAT decision gives up: the instant the driver sets from its time limit
/// (`None`: never). CaDiCaL asks its terminate callback often during the search, so a
/// decision stops within milliseconds of the deadline instead of running to its end;
/// the driver owns the clock, the solver only compares with the instant it was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Deadline(pub Option<std::time::Instant>);

impl Deadline {
    /// Whether the deadline has passed, or the decision racing this thread's has
    /// answered ([`decide_raced`]).
    pub fn passed(&self) -> bool {
        self.0.is_some_and(|at| std::time::Instant::now() >= at) || rival_answered()
    }

    /// The deadline a SAT call over `variables` variables gives up at, so that it is
    /// over by this one: earlier by [`UNASKED_NANOS_PER_VARIABLE`] a variable, the time
    /// CaDiCaL may spend without asking its terminate callback.
    pub fn for_variables(self, variables: i32) -> Deadline {
        let margin = std::time::Duration::from_nanos(
            u64::try_from(variables)
                .unwrap_or(0)
                .saturating_mul(UNASKED_NANOS_PER_VARIABLE),
        );
        Deadline(self.0.map(|at| at.checked_sub(margin).unwrap_or(at)))
    }
}

/// How long, per variable of its clauses, CaDiCaL may work without asking its terminate
/// callback: its garbage collection (in `reduce`) copies every clause kept into a fresh
/// arena and does not ask. Measured on the sum of costs' proof of room-64-64-8 even-13
/// with 60 agents (`--time-limit 10 --memory-mib 2048`): a session of 954,239 variables
/// and 3.7 million clauses returned 0.86 to 1.09 s after its deadline (three runs), the
/// whole run ending at 10.5 to 10.8 s; about 1.1 microseconds a variable. With this
/// margin ahead of every call ([`solve_in_time`]) the run ends at 10.03 s (three runs),
/// its bound 3705 instead of 3706 (the proof's last raise given up 1.2 s earlier).
pub const UNASKED_NANOS_PER_VARIABLE: u64 = 1_250;

/// `solver.solve_with(assumptions)`, giving up at `deadline` less the margin of
/// [`Deadline::for_variables`] for the solver's variables, so that the call is over by
/// `deadline` even when CaDiCaL collects its garbage just before it.
///
/// # Complexity
/// One SAT call.
pub fn solve_in_time(
    solver: &mut Solver,
    deadline: Deadline,
    assumptions: impl IntoIterator<Item = i32>,
) -> Option<bool> {
    let within = deadline.for_variables(solver.num_variables());
    if within.passed() {
        return None;
    }
    // Set at every call, so that the call's deadline is the only one the solver asks.
    solver.set_callbacks((within.0.is_some() || racing()).then_some(within));
    solver.solve_with(assumptions)
}

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        self.passed()
    }
}

/// The CaDiCaL solver the encodings use, stopped at a [`Deadline`].
pub type Solver = cadical::Solver<Deadline>;

/// A CaDiCaL solver in its default configuration; its calls give up at the deadline
/// [`solve_in_time`] is given.
pub fn solver() -> Solver {
    Solver::new()
}

/// A solver as [`solver`], in CaDiCaL's `plain` configuration: no preprocessing and
/// no inprocessing (variable elimination, subsumption, probing, vivification, ...), only
/// the search itself. The sum of costs' sessions ([`super::soc::encoding::Session`]) use
/// it: there single incremental calls of a few hundred conflicts took seconds each in the
/// default configuration (room-32-32-4 random-1 K = 40: one core of fewer than 1500
/// conflicts took 31 s), and the proof of that row fell from 37.5 to 17.1 CPU s.
pub fn plain_solver() -> Solver {
    // "plain" is one of CaDiCaL's own configurations; the default solver otherwise.
    Solver::with_config("plain").unwrap_or_default()
}

/// A solver as [`solver`], in CaDiCaL's `sat` configuration (tuned for satisfiable
/// problems: it stays in its stable mode, where it follows the phases of its best
/// assignment so far): the rival of [`decide_raced`].
pub fn sat_solver() -> Solver {
    // "sat" is one of CaDiCaL's own configurations; the default solver otherwise.
    Solver::with_config("sat").unwrap_or_default()
}

/// How long a decision runs alone before [`decide_raced`] starts its rival: the
/// decisions that take less (nearly all) answer as they did without one, plan and all.
pub const RIVAL_AFTER: Duration = Duration::from_secs(1);

/// The `rival_after` of [`decide_raced`] for a caller with `threads` threads and a
/// decision whose encoding takes `need` of a budget `room` (both in one unit, variables or
/// bytes): [`RIVAL_AFTER`] when there are two threads or more and the budget holds two
/// encodings, none otherwise.
pub fn rival_after(threads: NonZeroUsize, need: u64, room: u64) -> Option<Duration> {
    (threads.get() >= 2 && need <= room / 2).then_some(RIVAL_AFTER)
}

thread_local! {
    /// Set on this thread while its decision races another ([`decide_raced`]): the flag
    /// either sets once it has answered.
    static RIVAL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Whether this thread's decision races another.
fn racing() -> bool {
    RIVAL.with(|r| r.borrow().is_some())
}

/// Whether the decision racing this thread's has answered.
fn rival_answered() -> bool {
    RIVAL.with(|r| {
        r.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Acquire))
    })
}

/// `decide` run on this thread as one side of a race on `answered`: it stops when the
/// other side has answered, and sets `answered` when it has.
fn one_side(answered: &Arc<AtomicBool>, decide: impl FnOnce() -> Decision) -> Decision {
    RIVAL.with(|r| *r.borrow_mut() = Some(Arc::clone(answered)));
    let decision = decide();
    RIVAL.with(|r| *r.borrow_mut() = None);
    if decision != Decision::Stopped {
        answered.store(true, Ordering::Release);
    }
    decision
}

/// [`decide_until`], and, with `rival_after` (given when the caller's budget holds two
/// encodings; [`RIVAL_AFTER`] in the solver), once the decision has not answered within
/// it, the same decision on a second thread by a solver in CaDiCaL's `sat` configuration
/// ([`sat_solver`]): the first answer is the answer, and the other side stops at its next
/// look at the clock. Both decide the same question, so the answer is the same; the plan
/// may be either's. A decision that answers first wakes the waiting rival at once.
///
/// Why: one configuration's time on a decision varies by orders of magnitude where the
/// other's does not, and the makespan's search runs on one thread, the other core idle.
/// On a maze of 16 x 16 with 12 ghosts (`bench ghosts-many`, seed 1601009055) the default
/// configuration took 1.5 to 51 s for its plan at the optimum and the `sat` one 1.6 s;
/// on another maze with 11 ghosts the default took 0.13 s for what the `sat` one took 1.5.
///
/// # Complexity
/// As [`decide_until`] on each side: the faster side's time (the rival's plus
/// `rival_after`), twice the memory once the rival runs.
pub fn decide_raced(
    instance: &Instance<'_>,
    horizon: u32,
    deadline: Deadline,
    rival_after: Option<Duration>,
) -> Decision {
    let Some(after) = rival_after else {
        return decide_until(instance, horizon, deadline);
    };
    let answered = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let theirs = scope.spawn(|| {
            let start = Instant::now() + after;
            loop {
                if answered.load(Ordering::Acquire) || deadline.passed() {
                    return Decision::Stopped;
                }
                let now = Instant::now();
                if now >= start {
                    break;
                }
                // Woken early by this side's answer (or spuriously: the loop looks again).
                std::thread::park_timeout(start - now);
            }
            one_side(&answered, || {
                decide_by(instance, horizon, deadline, sat_solver())
            })
        });
        let mine = one_side(&answered, || decide_until(instance, horizon, deadline));
        theirs.thread().unpark();
        let theirs = theirs
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match mine {
            Decision::Stopped => theirs,
            decided => decided,
        }
    })
}

/// Variables of the encoding at horizon `horizon`, counted without building it, so the
/// memory budget can be checked first.
///
/// # Complexity
/// O(K x C).
pub fn count_variables(instance: &Instance<'_>, horizon: u32) -> u64 {
    let mut total = 0u64;
    for a in 0..instance.starts.len() {
        let from_start = instance.grid.distances(instance.starts[a], None);
        let to_goal = instance.distances(a);
        for (s, g) in from_start.iter().zip(to_goal.iter()) {
            if let Some(sum) = s.checked_add(g) {
                if sum <= horizon {
                    // Cell v is available for t in s..=T - g.
                    total += u64::from(horizon - sum + 1);
                }
            }
        }
    }
    total
}

/// Decides whether `instance` has a plan of makespan exactly `horizon` (an agent may wait
/// at its goal, so "at most `horizon`" is the same question once `horizon` is at least
/// the lower bound).
///
/// # Complexity
/// See the module documentation.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn decide(instance: &Instance<'_>, horizon: u32) -> Decision {
    decide_until(instance, horizon, Deadline::default())
}

/// [`decide`], giving up with [`Decision::Stopped`] at `deadline`.
///
/// # Complexity
/// As [`decide`], or less when stopped.
pub fn decide_until(instance: &Instance<'_>, horizon: u32, deadline: Deadline) -> Decision {
    decide_by(instance, horizon, deadline, solver())
}

/// [`decide_until`] by `solver` (empty).
fn decide_by(
    instance: &Instance<'_>,
    horizon: u32,
    deadline: Deadline,
    solver: Solver,
) -> Decision {
    let Some(mut encoding) = Encoding::build(instance, horizon, deadline, solver) else {
        return Decision::Stopped;
    };
    let decision = encoding.solve(instance.grid, deadline);
    drop_off_the_clock(encoding, deadline);
    decision
}

/// Drops `value` (a SAT encoding: freeing millions of clauses takes up to a second) on
/// a thread of its own once `deadline` has passed, so that the answer at the time limit
/// does not wait for it; before the deadline, here (the memory is then free for the next
/// step).
pub fn drop_off_the_clock<T: Send + 'static>(value: T, deadline: Deadline) {
    // The instant alone: a decision stopped by its rival's answer frees its memory here,
    // before the next decision is built.
    if deadline.0.is_some_and(|at| Instant::now() >= at) {
        // Without a thread, dropped here all the same.
        let _ = std::thread::Builder::new().spawn(move || drop(value));
    }
}

/// The variables of one agent at one time: `(cell, variable)` sorted by cell.
pub(crate) type Layer = Vec<(u32, i32)>;

struct Encoding {
    solver: Solver,
    horizon: usize,
    /// Per agent, per time: its variables.
    layers: Vec<Vec<Layer>>,
}

impl Encoding {
    /// The clauses of makespan `horizon`, in `solver` (empty); `None` when `deadline`
    /// passes while they are written (a core of hundreds of agents takes seconds to write).
    fn build(
        instance: &Instance<'_>,
        horizon: u32,
        deadline: Deadline,
        mut solver: Solver,
    ) -> Option<Self> {
        let grid = instance.grid;
        let options = Options::new(grid);
        let cells = grid.cell_count();
        let t_max = horizon as usize;
        let mut next_var: i32 = 1;
        let mut layers: Vec<Vec<Layer>> = Vec::with_capacity(instance.starts.len());
        // Scratch: the variable of each cell at t and at t + 1 for the current agent.
        let mut here = vec![0i32; cells];
        let mut there = vec![0i32; cells];
        // Per time, per cell: every agent's variable there (for the vertex clauses).
        let mut at_cell: Vec<Vec<(u32, i32)>> = vec![Vec::new(); t_max + 1];
        for a in 0..instance.starts.len() {
            if deadline.passed() {
                drop_off_the_clock(solver, deadline);
                return None;
            }
            let from_start = grid.distances(instance.starts[a], None);
            let to_goal = instance.distances(a);
            let window: Vec<u32> = (0..cells as u32)
                .filter(|&v| {
                    from_start[v as usize]
                        .checked_add(to_goal.at(v as usize))
                        .is_some_and(|s| s as usize <= t_max)
                })
                .collect();
            let mut agent_layers: Vec<Layer> = Vec::with_capacity(t_max + 1);
            for (t, at_time) in at_cell.iter_mut().enumerate() {
                let layer: Layer = window
                    .iter()
                    .filter(|&&v| {
                        from_start[v as usize] as usize <= t
                            && to_goal.at(v as usize) as usize <= t_max - t
                    })
                    .map(|&v| {
                        let var = next_var;
                        next_var += 1;
                        (v, var)
                    })
                    .collect();
                at_time.extend(layer.iter().copied());
                agent_layers.push(layer);
            }
            // Start and goal (the only variables at 0 and at T).
            for t in [0, t_max] {
                for &(_, var) in &agent_layers[t] {
                    solver.add_clause([var]);
                }
            }
            movement_clauses(&mut solver, &options, &agent_layers, &mut here, &mut there);
            layers.push(agent_layers);
        }
        // Vertex conflicts, cell by cell and step by step.
        for mut vars in at_cell {
            if deadline.passed() {
                drop_off_the_clock(solver, deadline);
                return None;
            }
            vars.sort_unstable();
            let mut i = 0;
            while i < vars.len() {
                let cell = vars[i].0;
                let mut j = i;
                while j < vars.len() && vars[j].0 == cell {
                    j += 1;
                }
                let group: Vec<i32> = vars[i..j].iter().map(|&(_, x)| x).collect();
                at_most_one(&mut solver, &group, &mut || {
                    next_var += 1;
                    next_var - 1
                });
                i = j;
            }
        }
        Some(Encoding {
            solver,
            horizon: t_max,
            layers,
        })
    }

    /// Solves, reading chains and adding swap clauses until a model has no swap.
    fn solve(&mut self, grid: &Grid, deadline: Deadline) -> Decision {
        let options = Options::new(grid);
        loop {
            if deadline.passed() {
                return Decision::Stopped;
            }
            match solve_in_time(&mut self.solver, deadline, []) {
                Some(true) => {}
                Some(false) => return Decision::Impossible,
                None => return Decision::Stopped,
            }
            let paths = self.chains(&options);
            let swaps = self.swaps(&paths);
            if swaps.is_empty() {
                return Decision::Plan(paths);
            }
            for clause in swaps {
                self.solver.add_clause(clause);
            }
        }
    }

    /// One path per agent through the true variables, from its start at 0 to its goal at
    /// T: at each step the first true option (the clauses guarantee one).
    fn chains(&self, options: &Options) -> Vec<Vec<u32>> {
        let mut paths = Vec::with_capacity(self.layers.len());
        for agent in &self.layers {
            let mut path = Vec::with_capacity(self.horizon + 1);
            let mut v = agent[0][0].0;
            path.push(v);
            for layer in &agent[1..] {
                let next = options.of(v).iter().copied().find(|&u| {
                    self.var(layer, u)
                        .is_some_and(|x| self.solver.value(x) == Some(true))
                });
                // The forward clause makes one option true; keep the cell otherwise.
                v = next.unwrap_or(v);
                path.push(v);
            }
            paths.push(path);
        }
        paths
    }

    fn var(&self, layer: &Layer, cell: u32) -> Option<i32> {
        layer
            .binary_search_by_key(&cell, |&(v, _)| v)
            .ok()
            .map(|i| layer[i].1)
    }

    /// The clauses forbidding the swaps of the chains `paths` (empty: none swap).
    fn swaps(&self, paths: &[Vec<u32>]) -> Vec<[i32; 4]> {
        swap_clauses(self.horizon, paths, |agent, t, cell| {
            self.var(&self.layers[agent][t], cell).unwrap_or(0)
        })
    }
}

/// The clauses forbidding the swaps in `paths` (each agent's cell at every time
/// 0..=`horizon`): for two agents that trade cells u and v between t and t + 1, one clause
/// that not all four of `x(agent, time, cell)` hold. The encodings add them lazily, for
/// the swaps of the plans their solver answers, so every cell of `paths` has its variable.
///
/// # Complexity
/// O(horizon x agents) expected (the moves of each step hashed).
pub fn swap_clauses(
    horizon: usize,
    paths: &[Vec<u32>],
    x: impl Fn(usize, usize, u32) -> i32,
) -> Vec<[i32; 4]> {
    let mut clauses = Vec::new();
    let mut moving: HashMap<(u32, u32), usize> = HashMap::new();
    for t in 0..horizon {
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
                clauses.push([-x(a, t, u), -x(a, t + 1, v), -x(b, t, v), -x(b, t + 1, u)]);
            }
        }
    }
    clauses
}

/// The moves of one agent between consecutive layers: from a cell at t to one of its
/// options at t + 1 (forward), and on a cell at t + 1 only from one of its options at t
/// (backward). `here` and `there` are all zero, one entry per cell, and are left so.
///
/// # Complexity
/// O(pairs x options) clauses over the layers.
pub(crate) fn movement_clauses(
    solver: &mut Solver,
    options: &Options,
    layers: &[Layer],
    here: &mut [i32],
    there: &mut [i32],
) {
    let mut clause: Vec<i32> = Vec::with_capacity(6);
    for t in 0..layers.len().saturating_sub(1) {
        for &(v, var) in &layers[t] {
            here[v as usize] = var;
        }
        for &(v, var) in &layers[t + 1] {
            there[v as usize] = var;
        }
        // Forward: from v at t to one of its options at t + 1.
        for &(v, var) in &layers[t] {
            clause.clear();
            clause.push(-var);
            clause.extend(
                options
                    .of(v)
                    .iter()
                    .map(|&u| there[u as usize])
                    .filter(|&x| x != 0),
            );
            solver.add_clause(clause.iter().copied());
        }
        // Backward: on u at t + 1 only from one of its options at t.
        for &(u, var) in &layers[t + 1] {
            clause.clear();
            clause.push(-var);
            clause.extend(
                options
                    .of(u)
                    .iter()
                    .map(|&v| here[v as usize])
                    .filter(|&x| x != 0),
            );
            solver.add_clause(clause.iter().copied());
        }
        for &(v, _) in &layers[t] {
            here[v as usize] = 0;
        }
        for &(v, _) in &layers[t + 1] {
            there[v as usize] = 0;
        }
    }
}

/// At most one of `vars` true: pairwise for up to 5, else Sinz's sequential counter
/// (n - 1 auxiliary variables, each from `fresh`, and 3n clauses).
///
/// # Complexity
/// O(n) clauses for n variables past 5, O(n^2) up to 5.
pub fn at_most_one(solver: &mut Solver, vars: &[i32], fresh: &mut impl FnMut() -> i32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_gives_up_earlier_by_its_variables_margin() {
        let at = Instant::now() + Duration::from_secs(10);
        let deadline = Deadline(Some(at));
        // 400,000 variables at 1.25 microseconds each: half a second.
        assert_eq!(
            deadline.for_variables(400_000),
            Deadline(Some(at - Duration::from_millis(500)))
        );
        assert_eq!(deadline.for_variables(0), deadline);
        assert_eq!(deadline.for_variables(-1), deadline);
        // No deadline stays none.
        assert_eq!(Deadline(None).for_variables(i32::MAX), Deadline(None));
    }

    /// At most one of n variables, pairwise or by the sequential counter: every single
    /// one may hold, none may, no two may.
    #[test]
    fn at_most_one_allows_one_and_forbids_every_pair() {
        for n in 1..=9 {
            let mut solver = solver();
            let vars: Vec<i32> = (1..=n).collect();
            let mut next = n + 1;
            at_most_one(&mut solver, &vars, &mut || {
                next += 1;
                next - 1
            });
            assert_eq!(next - n - 1, if n <= 5 { 0 } else { n - 1 }, "{n}");
            let none: Vec<i32> = vars.iter().map(|&v| -v).collect();
            assert_eq!(solver.solve_with(none), Some(true), "{n}");
            for &a in &vars {
                assert_eq!(solver.solve_with([a]), Some(true), "{n} {a}");
                for &b in &vars {
                    if a < b {
                        assert_eq!(solver.solve_with([a, b]), Some(false), "{n} {a} {b}");
                    }
                }
            }
        }
    }

    /// Two agents trading cells give one clause over their four variables; one following
    /// the other, or an agent standing, gives none.
    #[test]
    fn swap_clauses_name_each_swap_once() {
        let x = |agent: usize, t: usize, cell: u32| (100 * agent + 10 * t) as i32 + cell as i32 + 1;
        // Agents 0 and 1 trade cells 3 and 4 between times 1 and 2; agent 2 stands.
        let paths = vec![vec![2, 3, 4], vec![5, 4, 3], vec![7, 7, 7]];
        let clauses = swap_clauses(2, &paths, x);
        assert_eq!(
            clauses,
            vec![[-x(0, 1, 3), -x(0, 2, 4), -x(1, 1, 4), -x(1, 2, 3)]]
        );
        // Agent 1 follows agent 0 along a line: no swap.
        let following = vec![vec![1, 2, 3], vec![0, 1, 2]];
        assert!(swap_clauses(2, &following, x).is_empty());
    }

    /// A decision is raced only by a caller with two threads whose budget holds two
    /// encodings, the edge included.
    #[test]
    fn a_rival_needs_two_threads_and_room_for_two_encodings() {
        let (one, two) = (NonZeroUsize::MIN, NonZeroUsize::new(2).unwrap());
        assert_eq!(rival_after(two, 50, 100), Some(RIVAL_AFTER));
        assert_eq!(rival_after(two, 51, 100), None);
        assert_eq!(rival_after(one, 1, 100), None);
        assert_eq!(rival_after(two, u64::MAX, u64::MAX), None);
    }

    /// A side of a race whose rival has answered decides nothing, as at a passed
    /// deadline, and the flag stays on its thread only while it decides.
    #[test]
    fn a_side_whose_rival_answered_decides_nothing() {
        // A ring of ten cells round a block of two; the agents trade ends of the top row.
        let grid = Grid::new(3, 4, |r, c| !(r == 1 && (c == 1 || c == 2)));
        let (left, right) = (grid.cell(0, 0).unwrap(), grid.cell(0, 3).unwrap());
        let (starts, goals) = ([left, right], [right, left]);
        let instance = Instance::new(&grid, &starts, &goals);
        let answered = Arc::new(AtomicBool::new(true));
        assert_eq!(
            one_side(&answered, || decide_until(&instance, 8, Deadline(None))),
            Decision::Stopped
        );
        assert!(!racing() && !Deadline(None).passed());
        assert!(matches!(
            decide_until(&instance, 8, Deadline(None)),
            Decision::Plan(_)
        ));
        let fresh = Arc::new(AtomicBool::new(false));
        assert!(matches!(
            one_side(&fresh, || decide_until(&instance, 8, Deadline(None))),
            Decision::Plan(_)
        ));
        assert!(fresh.load(Ordering::Acquire));
    }

    #[test]
    fn a_call_whose_margin_has_passed_decides_nothing() {
        let mut solver = solver();
        for v in 1..=1000 {
            solver.add_clause([v, v + 1]);
        }
        // The deadline is a millisecond away; the margin of 1,001 variables is longer.
        let soon = Deadline(Some(Instant::now() + Duration::from_millis(1)));
        assert_eq!(solve_in_time(&mut solver, soon, []), None);
        // Without a deadline the same call decides.
        assert_eq!(solve_in_time(&mut solver, Deadline(None), []), Some(true));
    }
}

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
//! Here: the counts and the windows every session shares, and the one-shot [`decide`];
//! one session in `session.rs`, the sessions kept across decisions in `sessions.rs`, the
//! totalizer and at-most-one clauses in `cardinality.rs`.
//!
//! # Complexity
//! V = the agents' (cell, time) pairs within reach R plus K x (R + 1) cost variables plus at
//! most K x (R + 1)^2 totalizer clauses; built in O(V + K x C) time. Solving is NP-hard
//! in general and fast on the benchmark's instances.

mod cardinality;
mod session;
mod sessions;

use std::collections::HashSet;

use super::pairwise::{Pair, among, min_cover};
use super::planning::distances;
use crate::mapf::Instance;
use crate::mapf::sat::Deadline;

pub use session::{CoreLog, Session};
pub use sessions::{Avoiding, Sessions};

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

/// The encoding would need `variables` variables: more than the caller allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// Variables of the encoding that was not built.
    pub variables: u64,
}

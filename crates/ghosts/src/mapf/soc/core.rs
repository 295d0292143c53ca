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

pub use super::encoding::TooLarge;
use super::encoding::{Decision, Sessions};
use super::planning;
use crate::mapf::Instance;

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

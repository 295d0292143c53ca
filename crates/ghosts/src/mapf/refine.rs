//! The fixed-horizon decision by a growing core of agents: the SAT decision of [`super::sat`]
//! on a few agents only, the others planned around its plan.
//!
//! Why: on crowded maps (a maze with 80 agents) the encoding of every agent is large and
//! CaDiCaL takes minutes on it, though most agents have slack and stay out of the way.
//! Any subset of the agents is a relaxation: when the core alone has no plan of makespan
//! T, neither has the whole instance, and T is proved impossible. When the core has one,
//! the other agents are planned around it (prioritized planning, [`super::constructive`]);
//! if every one of them finds a way, that is a plan of makespan T for all. Otherwise the
//! agents that found none join the core and the core is decided again. This is
//! counterexample-guided abstraction refinement over agents, in the spirit of independence
//! detection (Standley, AAAI 2010): exact, since a horizon is declared impossible only by
//! an unsatisfiable core, and complete, since the core grows by at least one agent a round
//! and the whole instance is the last possible core.
//!
//! # Complexity
//! At most K rounds, each a SAT decision on the core (see [`super::sat`]) and one
//! prioritized-planning pass, O(K x T x C).

use std::num::NonZeroUsize;

use grid_core::CellId;

use super::sat::{self, Decision};
use super::{Instance, constructive};

/// What one decision found, and how far the core grew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refined {
    /// The decision for the whole instance.
    pub decision: Decision,
    /// Agents in the last core.
    pub core: usize,
    /// The last core's agents (indices into the instance), in increasing order: when the
    /// decision is [`Decision::Impossible`], these alone have no plan of makespan T.
    pub core_agents: Vec<usize>,
    /// SAT decisions made.
    pub rounds: usize,
}

/// The core's encoding would need `variables` variables: more than the caller allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// Variables of the encoding that was not built.
    pub variables: u64,
}

/// Decides whether `instance` has a plan of makespan `horizon`, building no encoding of
/// more than `max_variables` variables.
///
/// # Errors
/// [`TooLarge`] when the core's encoding would pass `max_variables`.
///
/// # Complexity
/// See the module documentation.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn decide(
    instance: &Instance<'_>,
    horizon: u32,
    max_variables: u64,
) -> Result<Refined, TooLarge> {
    decide_until(
        instance,
        horizon,
        max_variables,
        sat::Deadline::default(),
        NonZeroUsize::MIN,
    )
}

/// [`decide`], giving up with [`Decision::Stopped`] at `deadline`; with two `threads` or
/// more, each SAT decision of the core that fits the budget twice may be raced
/// ([`sat::decide_raced`]).
///
/// # Errors
/// As [`decide`].
///
/// # Complexity
/// As [`decide`], or less when stopped.
pub fn decide_until(
    instance: &Instance<'_>,
    horizon: u32,
    max_variables: u64,
    deadline: sat::Deadline,
    threads: NonZeroUsize,
) -> Result<Refined, TooLarge> {
    let k = instance.starts.len();
    let mut in_core = vec![false; k];
    let mut fixed: Vec<Option<Vec<u32>>> = vec![None; k];
    let mut rounds = 0;
    let mut stop = || deadline.passed();
    loop {
        match constructive::plan_around_until(instance, horizon, &fixed, &mut stop) {
            Ok(paths) => {
                let core_agents: Vec<usize> = (0..k).filter(|&a| in_core[a]).collect();
                return Ok(Refined {
                    decision: Decision::Plan(paths),
                    core: core_agents.len(),
                    core_agents,
                    rounds,
                });
            }
            Err(failed) => {
                for a in failed {
                    in_core[a] = true;
                }
            }
        }
        if stop() {
            let core_agents: Vec<usize> = (0..k).filter(|&a| in_core[a]).collect();
            return Ok(Refined {
                decision: Decision::Stopped,
                core: core_agents.len(),
                core_agents,
                rounds,
            });
        }
        let core: Vec<usize> = (0..k).filter(|&a| in_core[a]).collect();
        let starts: Vec<CellId> = core.iter().map(|&a| instance.starts[a]).collect();
        let goals: Vec<CellId> = core.iter().map(|&a| instance.goals[a]).collect();
        let sub = Instance::new(instance.grid, &starts, &goals);
        let variables = sat::count_variables(&sub, horizon);
        if variables > max_variables {
            return Err(TooLarge { variables });
        }
        rounds += 1;
        let rival = sat::rival_after(threads, variables, max_variables);
        match sat::decide_raced(&sub, horizon, deadline, rival) {
            decision @ (Decision::Impossible | Decision::Stopped) => {
                return Ok(Refined {
                    decision,
                    core: core.len(),
                    core_agents: core,
                    rounds,
                });
            }
            Decision::Plan(paths) => {
                fixed.iter_mut().for_each(|f| *f = None);
                for (&a, path) in core.iter().zip(paths) {
                    fixed[a] = Some(path);
                }
            }
        }
    }
}

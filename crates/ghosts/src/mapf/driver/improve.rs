//! After the proof stopped, until the time limit: a plan found when there is none
//! (LaCAM* resumed, then Push and Swap as the last resort), then the best plan made
//! shorter (prioritized planning at shorter horizons, then turns of the neighbourhood
//! search and of LaCAM*'s anytime search).

use std::time::{Duration, Instant};

use grid_core::CellId;
use grid_core::limits::MIB;

use crate::search::Found;

use super::super::{
    Agents, Event, Instance, LastResort, Stopwatch, constructive, lacam, lns, push_swap, repair,
};
use super::Driver;
use super::first_plans::FIRST_PLAN_MEMORY_SHARE;
use super::horizons::{PLANNING_ATTEMPTS, REPAIR_TURN, repair_pays};
use super::paths_of;

/// The share of the time left after the proof that prioritized planning may take to
/// find shorter plans ([`Driver::improve`]): a failing probe can take tens of seconds
/// (lt_gallowstemplar_n `random-1` with 1000 agents: 37 s at T = 398, measured at
/// `5eaded2`), which the neighbourhood search and LaCAM* use better.
const PROBE_SHARE: f64 = 0.25;

/// The neighbourhood search and LaCAM*'s anytime search take turns of this long to
/// shorten the best plan ([`Driver::improve`]).
const IMPROVE_TURN: Duration = Duration::from_millis(500);

/// The turns of a method in [`Driver::improve`] keep their length for this many turns in
/// a row that do not shorten its plan (LaCAM* shortens in bursts: on maze-128-128-1
/// `random-1` with 500 agents, halving its turn after each such turn ended at 2288
/// instead of 1902).
const FRUITLESS_TURNS_KEPT: u32 = 4;

/// The seed of the neighbourhoods that shorten the makespan ([`Driver::improve`]).
pub(super) const SHORTEN_SEED: u64 = 23;

/// After this many turns in a row without a shorter plan, the neighbourhood search of
/// [`Driver::improve`] starts again from LaCAM*'s best plan when it has not started from
/// that one yet (the shortest plan so far kept), else goes back to the shortest plan.
/// Its plans are local optima of their own: on maze-128-128-1 `random-1` with 500 agents
/// (`--time-limit 60`) it gained 2 steps in 41 s from the 2109 of LaCAM*'s dives from
/// other seeds; restarting from LaCAM*'s own 2136 it reached 1910.
pub(super) const LNS_RESTART_AFTER: u32 = 8;

/// The most (agent, time) pairs of a plan the neighbourhood search takes over. Past it a
/// plan is Push and Swap's (maze-128-128-1 with 1000 agents: makespan 84 897 to 98 281,
/// 85 to 98 million pairs): taking it over took 24 s, a step several seconds, and 27 s
/// made 9 steps of no gain, ending past the time limit. LaCAM*'s longest plans on the
/// benchmark's large maps have about 3.5 million (1000 agents, 3 262 steps).
const LNS_MOST_PAIRS: u64 = 20_000_000;

/// Whether the neighbourhood search takes `plan` over (see [`LNS_MOST_PAIRS`]).
pub(super) fn fits_lns(plan: &[Vec<CellId>], agents: usize) -> bool {
    steps_fit_lns(plan.len(), agents)
}

/// Whether the neighbourhood search takes a plan of `steps` steps for `agents` agents
/// over (see [`LNS_MOST_PAIRS`]).
pub(super) fn steps_fit_lns(steps: usize, agents: usize) -> bool {
    (steps as u64).saturating_mul(agents as u64) <= LNS_MOST_PAIRS
}

/// Bytes [`Driver::push_and_swap`] counts for a single move of its plan and for each of
/// the plan's cells (an agent at a step): 12 for a move, then 4 for the cell in the
/// paths, 4 in the placements of the answer and up to 12 in the neighbourhood search's
/// reservations ([`lns`]), which shortens the plan.
pub(super) const PUSH_AND_SWAP_BYTES: u64 = 20;

impl<'a, 't> Driver<'a, 't> {
    /// Step, when the proof stopped over the memory budget or at its end ([`super::PROOF_SHARE`]
    /// of the time limit), and a time limit leaves time: without a plan, LaCAM*
    /// (`search`, resumed where its first plans stopped) searches for one until its first
    /// or the limit (planning failed at the proven bound `lower` already, and a longer
    /// horizon rarely frees what blocked it: on orz900d `even-1` with 1000 agents a probe
    /// 25 % longer failed for 27 s, LaCAM* plans 3110, the bound, in 3 s). Then, within
    /// [`PROBE_SHARE`] of the time left, shorter plans than the best by prioritized
    /// planning: one step shorter first (no more probes when that fails), then at
    /// horizons between `lower`, where planning failed, and the best makespan, halving
    /// the gap each time. Then, for what is left of the limit, in
    /// turns of [`IMPROVE_TURN`]: large neighbourhood search shortens the best plan (the
    /// agents home last and those in their way planned anew to be home one step sooner,
    /// `mapf/lns.rs`), and LaCAM* goes on with its anytime search (its turn shorter
    /// while it finds nothing shorter); when LaCAM*'s plan is the shorter, the
    /// neighbourhood search goes on from it. Each wins somewhere
    /// (measured at `5eaded2`, 60 s: on maze-128-128-1 `random-1` with 500 agents the
    /// neighbourhood search alone shortened 3950 to 3834 where LaCAM* alone reached 2264;
    /// on room-64-64-16 `random-1` with 1000 it gave 557 where LaCAM* gave 593). Without
    /// a limit, `best` as it is: every answer is then a proof or an error.
    pub(super) fn improve(
        &mut self,
        instance: &Instance<'_>,
        search: &mut lacam::Search<'_>,
        lower: u32,
        best: Option<Found>,
        mut repairing: Option<repair::Repair<'_, '_>>,
    ) -> Option<Found> {
        let Stopwatch::Wall(Some(limit)) = self.stopwatch else {
            return best;
        };
        let Agents { grid, starts, .. } = self.agents;
        let k = starts.len();
        let mut stop = self.wall_stop();
        let memory_bytes = self.limits.budget_mib.saturating_mul(MIB) / FIRST_PLAN_MEMORY_SHARE;
        let mut best = match best {
            Some(best) => best,
            None => {
                let clock = Instant::now();
                // Half the time left at most, then Push and Swap as the last resort.
                let search_end = {
                    let left = limit.saturating_sub(self.started.elapsed());
                    Instant::now() + left / 2
                };
                let last_resort = self.last_resort;
                let mut budget = lacam::Budget {
                    memory_bytes,
                    stop: &mut |progress: lacam::Progress| {
                        stop()
                            || progress.best.is_some()
                            || (last_resort == LastResort::PushAndSwap
                                && Instant::now() > search_end)
                    },
                    enough: lower,
                };
                let outcome = search.run(&mut budget);
                (self.trace)(&Event::FirstPlan {
                    steps: outcome.makespan(),
                    exhausted: outcome.end == lacam::End::Exhausted,
                    nodes: outcome.nodes,
                    seconds: clock.elapsed().as_secs_f64(),
                });
                match self.lacam_found(outcome) {
                    Some(found) => found,
                    None if self.last_resort == LastResort::PushAndSwap && !stop() => {
                        self.push_and_swap(instance, search.bytes())?
                    }
                    None => return None,
                }
            }
        };
        let room = self.room(instance.distance_bytes());
        let probes_end = {
            let left = limit.saturating_sub(self.started.elapsed());
            Instant::now() + left.mul_f64(PROBE_SHARE)
        };
        let mut probes_stop = || stop() || Instant::now() > probes_end;
        let (mut failed, mut shortened) = (lower, false);
        loop {
            let Some(steps) = best.steps else {
                return Some(best);
            };
            if steps <= failed.saturating_add(1) {
                break;
            }
            // One step shorter first: where planning cannot do that, it does no better
            // lower down either, and each failure costs up to a few seconds (room-64-64-16
            // `random-1` with 1000 agents: ten failed probes from 397 to 602, 14 s).
            let horizon = if shortened {
                failed + (steps - failed) / 2
            } else {
                steps - 1
            };
            if probes_stop() || constructive::memory_need(grid, horizon, k) > room {
                break;
            }
            let clock = Instant::now();
            let give_up = self.wall_deadline().map(|end| end.min(probes_end));
            let paths = constructive::plan_at_until(
                instance,
                horizon,
                PLANNING_ATTEMPTS,
                &mut probes_stop,
                give_up,
            );
            (self.trace)(&Event::Improving {
                horizon,
                found: paths.is_some(),
                seconds: clock.elapsed().as_secs_f64(),
            });
            match paths {
                Some(paths) => {
                    shortened = true;
                    best = self.found(horizon, &paths);
                }
                None if shortened => failed = horizon,
                None => break,
            }
        }
        let Some(plan) = best.plan.as_ref() else {
            return Some(best);
        };
        if stop() || !fits_lns(plan, k) {
            return Some(best);
        }
        let clock = Instant::now();
        let taken =
            lns::Lns::from_paths(instance, paths_of(starts, plan), 0, SHORTEN_SEED, &mut stop);
        let Some(mut lns) = taken else {
            return Some(best);
        };
        let from = lns.makespan();
        let (mut steps, mut lacam_best, mut lacam_open) = (0u64, None, true);
        // Turns in a row that did not shorten the plan of the neighbourhood search and of
        // LaCAM*: after a few, each next turn of that method is half as long, down to a
        // sixteenth (room-64-64-16 `random-1` with 1000 agents: LaCAM* has no shorter
        // plan than its first in 25 s; maze-128-128-1 `random-1` with 500: the
        // neighbourhood search shortens 3950 by 116 in 55 s, LaCAM* reaches 2136).
        let (mut lns_fruitless, mut lacam_fruitless) = (0u32, 0u32);
        let turn = |fruitless: u32| {
            IMPROVE_TURN / (1 << fruitless.saturating_sub(FRUITLESS_TURNS_KEPT).min(4))
        };
        let (mut repair_steps, repair_clock) = (0u64, Instant::now());
        let repair_from = repairing.as_ref().map(repair::Repair::colliding_pairs);
        let repair_event = |left: usize, steps: u64| Event::Repair {
            horizon: lower,
            from: repair_from,
            left,
            steps,
            seconds: repair_clock.elapsed().as_secs_f64(),
        };
        let mut repair_fruitless = 0u32;
        // LaCAM*'s best plan while the neighbourhood search has not started from it (its
        // restart when stuck); the shortest plan before a restart, while the restart has
        // not passed it.
        let mut lacam_plan: Option<Vec<Vec<CellId>>> = None;
        let mut kept: Option<lns::Lns<'_, '_>> = None;
        while lns.makespan() > lower && !stop() {
            if let Some(repair) =
                repairing.take_if(|repair| !repair_pays(repair.colliding_pairs(), repair_fruitless))
            {
                // Far from a proof: its time goes to the plan's shortening from now on.
                (self.trace)(&repair_event(repair.colliding_pairs(), repair_steps));
            }
            if let Some(repair) = repairing.as_mut() {
                // The collision repair at the proven bound first: its plan is the proof.
                let turn_end = Instant::now() + REPAIR_TURN;
                let before = repair.colliding_pairs();
                let repaired = repair.repair_until(&mut || {
                    let stopped = stop() || Instant::now() > turn_end;
                    repair_steps += u64::from(!stopped);
                    stopped
                });
                if repair.colliding_pairs() < before {
                    repair_fruitless = 0;
                } else {
                    repair_fruitless += 1;
                }
                if repaired {
                    (self.trace)(&repair_event(0, repair_steps));
                    let paths = repairing.take().map(repair::Repair::into_paths);
                    return paths.map(|paths| self.found(lower, &paths));
                }
            }
            let turn_end = Instant::now() + turn(lns_fruitless);
            lns.give_up_at(Some(turn_end));
            let before = lns.makespan();
            lns.shorten_until(lower, &mut || {
                let stopped = stop() || Instant::now() > turn_end;
                steps += u64::from(!stopped);
                stopped
            });
            if lns.makespan() < before {
                lns_fruitless = 0;
            } else {
                lns_fruitless += 1;
            }
            if lns_fruitless >= LNS_RESTART_AFTER {
                let restart = lacam_plan.take().and_then(|plan| {
                    let paths = paths_of(starts, &plan[1..]);
                    lns::Lns::from_paths(instance, paths, 0, SHORTEN_SEED, &mut stop)
                });
                if let Some(restart) = restart {
                    let left = std::mem::replace(&mut lns, restart);
                    if kept
                        .as_ref()
                        .is_none_or(|best| left.makespan() < best.makespan())
                    {
                        kept = Some(left);
                    }
                    lns_fruitless = 0;
                } else if let Some(best) = kept.take_if(|best| best.makespan() < lns.makespan()) {
                    // Stuck after the restart too: back to the shortest plan.
                    lns = best;
                    lns_fruitless = 0;
                }
            }
            if !lacam_open || stop() {
                continue;
            }
            let turn_end = Instant::now() + turn(lacam_fruitless);
            let mut budget = lacam::Budget {
                memory_bytes,
                stop: &mut |_: lacam::Progress| stop() || Instant::now() > turn_end,
                enough: lower,
            };
            let outcome = search.run(&mut budget);
            lacam_open = matches!(outcome.end, lacam::End::Stopped);
            let makespan = outcome.makespan();
            if makespan.is_some_and(|m| lacam_best.is_none_or(|b| m < b)) {
                lacam_fruitless = 0;
            } else {
                lacam_fruitless += 1;
            }
            let Some(makespan) = makespan else {
                continue;
            };
            let Some(configurations) = outcome.configurations else {
                continue;
            };
            if lacam_best != Some(makespan) && fits_lns(&configurations, k) {
                lacam_plan = Some(configurations);
            }
            lacam_best = Some(makespan);
            if makespan < lns.makespan()
                && let Some(plan) = lacam_plan.take()
            {
                let taken = lns::Lns::from_paths(
                    instance,
                    paths_of(starts, &plan[1..]),
                    0,
                    SHORTEN_SEED,
                    &mut stop,
                );
                if let Some(taken) = taken {
                    lns = taken;
                    lns_fruitless = 0;
                }
            }
        }
        if let Some(best) = kept
            && best.makespan() < lns.makespan()
        {
            lns = best;
        }
        if let Some(repair) = repairing {
            (self.trace)(&repair_event(repair.colliding_pairs(), repair_steps));
        }
        let makespan = lns.makespan();
        (self.trace)(&Event::Shortened {
            makespan,
            from,
            steps,
            lacam_best,
            seconds: clock.elapsed().as_secs_f64(),
        });
        Some(self.found(makespan, &lns.into_paths()))
    }

    /// Step, the last resort when LaCAM* and planning gave no plan: Push and Swap
    /// ([`push_swap`]) within the memory left besides `held_bytes`, a move counted at
    /// [`PUSH_AND_SWAP_BYTES`].
    pub(super) fn push_and_swap(
        &mut self,
        instance: &Instance<'_>,
        held_bytes: u64,
    ) -> Option<Found> {
        let paths = self.push_and_swap_paths(instance, held_bytes)?;
        let steps = paths.first().map_or(0, |p| p.len().saturating_sub(1)) as u32;
        Some(self.found(steps, &paths))
    }

    /// [`Driver::push_and_swap`]'s plan as every agent's path (traced).
    pub(super) fn push_and_swap_paths(
        &mut self,
        instance: &Instance<'_>,
        held_bytes: u64,
    ) -> Option<Vec<Vec<u32>>> {
        let clock = Instant::now();
        let room = self
            .room(instance.distance_bytes())
            .saturating_sub(held_bytes);
        let mut stop = self.wall_stop();
        let mut budget = push_swap::Budget {
            moves: usize::try_from(room / PUSH_AND_SWAP_BYTES).unwrap_or(usize::MAX),
            stop: &mut stop,
        };
        let order = push_swap::default_order(instance);
        let mut moves = 0;
        let paths = push_swap::plan(instance, &order, &mut budget, &mut moves).ok();
        let steps = paths
            .as_ref()
            .map(|paths| paths.first().map_or(0, |p| p.len().saturating_sub(1)) as u32);
        (self.trace)(&Event::PushAndSwap {
            steps,
            moves,
            seconds: clock.elapsed().as_secs_f64(),
        });
        paths
    }
}

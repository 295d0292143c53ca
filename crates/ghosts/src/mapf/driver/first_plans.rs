//! LaCAM*'s first plans before the proof, from its own seed and then from others, and
//! the shortening of the best of them: what the makespan's driver has in hand before its
//! first horizon.
//!
//! Why: a plan in hand turns every later limit into an answer (`unproven: PLAN >= LB`),
//! and a plan that meets the lower bound is the proof. Each step has a share of the time
//! limit (the constants below), so the proof keeps the rest.

use std::time::{Duration, Instant};

use grid_core::limits::MIB;

use crate::search::Found;

use super::super::{Event, Instance, Stopwatch, lacam, lns};
use super::Driver;
use super::improve::{SHORTEN_SEED, fits_lns};
use super::paths_of;
use super::sum_of_costs::{SOC_FIRST_PLAN_COUNTED_FACTOR, SOC_FIRST_PLAN_SHARE};

/// The share of the time limit LaCAM* gets for the first plans, at most.
const FIRST_PLAN_SHARE: u32 = 10;

/// LaCAM*'s time for the first plans, at most (of any time limit), unless it is still
/// diving towards its first plan (see [`Driver::first_plans`]).
const FIRST_PLAN_SECONDS: Duration = Duration::from_secs(1);

/// After its first plan, LaCAM* goes on for the first plans (towards the lower bound)
/// until this many times the time that plan took, or [`REFINE_AT_LEAST`]: where its first
/// plan is above the bound, planning at the bound is often the faster proof (ht_chantry
/// `even-1` with 100 agents: LaCAM*'s plan 205 at once, 205 still after 1 s, planning
/// at 200 then in 0.01 s; the first second was the whole run's time). Its search is kept
/// and resumed after the proof, should that stop.
const REFINE_FACTOR: u32 = 4;

/// LaCAM*'s time after its first plan, at least (within [`FIRST_PLAN_SECONDS`]): see
/// [`REFINE_FACTOR`].
const REFINE_AT_LEAST: Duration = Duration::from_millis(50);

/// LaCAM*'s search counts as a dive towards its first plan while it has created at most
/// this many nodes per step of its deepest node (a dive that never backs up creates one).
const DIVE_NODES_PER_STEP: u64 = 2;

/// The part of the memory budget LaCAM* may hold for the first plans (they are kept
/// while the proof runs).
pub(super) const FIRST_PLAN_MEMORY_SHARE: u64 = 4;

/// The share of the time limit by which [`Driver::shorten_first`] stops. Measured on
/// the open rows of `docs/mapf.md` (`--time-limit 60`): see there.
const SHORTEN_FIRST_SHARE: f64 = 0.3;

/// Steps of [`Driver::shorten_first`] without a shorter plan after which the SAT
/// decisions get the time (where the optimum is above the bound, the search cannot reach
/// it). On the open rows of `docs/mapf.md` a shorter plan came after up to 12 000 steps
/// (random-32-32-10 random-1 with 400 agents: 54 to 53; with 4 000, the search gave up
/// at 54 and the proof took 16 CPU s instead of 2).
const SHORTEN_FIRST_PATIENCE: u64 = 20_000;

/// The seed of LaCAM*'s tie breaks (fixed: the same run gives the same plan).
pub(super) const FIRST_PLAN_SEED: u64 = 17;

/// With a time limit, LaCAM*'s dives from other seeds ([`Driver::other_seeds`]) end at
/// this share of it, from the start of the run.
const OTHER_SEEDS_SHARE: f64 = 0.15;

/// LaCAM*'s dives from other seeds end after this many seeds in a row without a
/// shorter plan.
const OTHER_SEEDS_PATIENCE: u32 = 6;

/// LaCAM*'s dives from other seeds, at most.
const OTHER_SEEDS: u32 = 32;

/// In the tests' forced mode ([`crate::mapf::Horizons::PlanRepairCore`]), each of LaCAM*'s dives
/// from other seeds within this many nodes.
pub(super) const OTHER_SEEDS_COUNTED_NODES: u64 = 200;

/// How long [`Driver::other_seeds`] may go.
#[derive(Debug, Clone, Copy)]
pub(super) enum DiveBudget {
    /// Until this instant.
    Until(Instant),
    /// Each dive within this many nodes.
    Nodes(u64),
}

/// What LaCAM* gave before the proof.
pub(super) enum FirstPlans {
    /// A plan proven optimal (it meets the lower bound, or LaCAM* searched everything),
    /// or the proof that none exists.
    Optimal(Found),
    /// A plan, longer than the lower bound.
    Best(Found),
    /// Nothing in its share of the time.
    None,
}

impl<'a, 't> Driver<'a, 't> {
    /// Step: LaCAM* for the first plans, on the distances of `instance`, within
    /// min([`FIRST_PLAN_SECONDS`], the time limit / [`FIRST_PLAN_SHARE`]) and a share of
    /// the memory, ending at once at a plan of `lower_bound` steps (which is then proven
    /// optimal). While the search is still on its first dive towards a plan (at most
    /// [`DIVE_NODES_PER_STEP`] nodes per step of depth, no plan yet), it may go on to the
    /// time limit / [`FIRST_PLAN_SHARE`]: on orz900d `even-1` with 1000 agents the dive
    /// to a plan of the lower bound takes 3111 nodes and about 3 s, where planning at the
    /// bound fails for 25 s. Nothing without a time limit: every answer is then a proof,
    /// as before there were first plans.
    pub(super) fn first_plans(
        &mut self,
        search: &mut lacam::Search<'_>,
        lower_bound: u32,
    ) -> FirstPlans {
        let clock = Instant::now();
        let mut expansions = 0u64;
        let mut first_plan_at: Option<Duration> = None;
        let mut stop = |progress: lacam::Progress| match self.stopwatch {
            Stopwatch::Wall(limit) => {
                let share = limit.unwrap_or_default() / FIRST_PLAN_SHARE;
                let elapsed = clock.elapsed();
                let diving = progress.best.is_none()
                    && progress.nodes as u64
                        <= u64::from(progress.deepest).saturating_mul(DIVE_NODES_PER_STEP) + 1;
                if progress.best.is_some() && first_plan_at.is_none() {
                    first_plan_at = Some(elapsed);
                }
                let refined_enough = first_plan_at
                    .is_some_and(|at| elapsed > (at * REFINE_FACTOR).max(REFINE_AT_LEAST));
                elapsed > share || (elapsed > FIRST_PLAN_SECONDS && !diving) || refined_enough
            }
            Stopwatch::Counted {
                first_plan_nodes, ..
            } => {
                expansions += 1;
                expansions > first_plan_nodes
            }
        };
        if self.stopwatch == Stopwatch::Wall(None) {
            return FirstPlans::None;
        }
        let mut budget = lacam::Budget {
            memory_bytes: self.limits.budget_mib.saturating_mul(MIB) / FIRST_PLAN_MEMORY_SHARE,
            stop: &mut stop,
            enough: lower_bound,
        };
        let outcome = search.run(&mut budget);
        self.first_plans_of(outcome, lower_bound, clock)
    }

    /// Step, for the sum of costs when [`Driver::first_plans`] found nothing: LaCAM*
    /// (`search`) goes on until its first plan, at most until
    /// [`SOC_FIRST_PLAN_SHARE`] of the time limit (with [`Stopwatch::Counted`], for
    /// [`SOC_FIRST_PLAN_COUNTED_FACTOR`] times its first expansions).
    ///
    /// Why: the makespan's methods resume LaCAM* after the proof when nothing else
    /// planned, the sum of costs' did not, so an instance where LaCAM* needs a little
    /// more than its first second got no plan at all: maze-128-128-1 even-1 with 500
    /// agents, `unknown` at 30 s (LaCAM* stopped at 1.0 s, prioritized planning failed in
    /// every order, and so did the proof), where LaCAM* plans in 1.2 s.
    pub(super) fn first_plan_resumed(
        &mut self,
        search: &mut lacam::Search<'_>,
        lower_bound: u32,
    ) -> FirstPlans {
        let clock = Instant::now();
        let (until, most_nodes) = match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => (
                Some(self.started + limit.mul_f64(SOC_FIRST_PLAN_SHARE)),
                u64::MAX,
            ),
            Stopwatch::Wall(None) => return FirstPlans::None,
            Stopwatch::Counted {
                first_plan_nodes, ..
            } => (
                None,
                first_plan_nodes.saturating_mul(SOC_FIRST_PLAN_COUNTED_FACTOR),
            ),
        };
        let mut nodes = 0u64;
        let mut budget = lacam::Budget {
            memory_bytes: self.limits.budget_mib.saturating_mul(MIB) / FIRST_PLAN_MEMORY_SHARE,
            stop: &mut |progress: lacam::Progress| {
                nodes += 1;
                progress.best.is_some()
                    || nodes > most_nodes
                    || until.is_some_and(|until| Instant::now() > until)
            },
            enough: lower_bound,
        };
        let outcome = search.run(&mut budget);
        self.first_plans_of(outcome, lower_bound, clock)
    }

    /// What LaCAM*'s run `outcome`, begun at `clock`, gave (traced).
    fn first_plans_of(
        &mut self,
        outcome: lacam::Outcome,
        lower_bound: u32,
        clock: Instant,
    ) -> FirstPlans {
        let exhausted = outcome.end == lacam::End::Exhausted;
        (self.trace)(&Event::FirstPlan {
            steps: outcome.makespan(),
            exhausted,
            nodes: outcome.nodes,
            seconds: clock.elapsed().as_secs_f64(),
        });
        let Some(steps) = outcome.makespan() else {
            return if exhausted {
                FirstPlans::Optimal(Found::NEVER)
            } else {
                FirstPlans::None
            };
        };
        let found = self.lacam_found(outcome).unwrap_or(Found::NEVER);
        if exhausted || steps <= lower_bound {
            FirstPlans::Optimal(found)
        } else {
            FirstPlans::Best(found)
        }
    }

    /// LaCAM*'s plan of `outcome`, if any.
    pub(super) fn lacam_found(&self, outcome: lacam::Outcome) -> Option<Found> {
        let steps = outcome.makespan()?;
        let configurations = outcome.configurations?;
        Some(Found {
            steps: Some(steps),
            plan: self
                .keeps_plans()
                .then(|| configurations.into_iter().skip(1).collect()),
            expanded: 0,
        })
    }

    /// Step, at the first horizon the small core leaves open (the bound `horizon`),
    /// while LaCAM*'s best plan `incumbent` is longer: LaCAM*'s dives from other seeds
    /// ([`lacam::Search::reseeded`]), each seeking only plans shorter than the best so far
    /// and given up at its first plan or once it backs up more than a dive does
    /// ([`DIVE_NODES_PER_STEP`]); until [`OTHER_SEEDS_SHARE`] of the time limit,
    /// [`OTHER_SEEDS_PATIENCE`] seeds in a row without a shorter plan, or [`OTHER_SEEDS`]
    /// seeds (or each dive within the nodes of `budget`). The best plan becomes
    /// `incumbent`; `search`, LaCAM*'s first, is the one the improve phase resumes (its
    /// refined plans are the neighbourhood search's restarts, see [`super::improve::LNS_RESTART_AFTER`]).
    /// The answer when the best plan meets `horizon` (a proven bound), or when a dive
    /// searched everything below the best plan: that plan, optimal, or that no plan
    /// exists.
    ///
    /// Why: LaCAM*'s first plan depends much on its tie breaks. Six seeds on
    /// room-64-64-16 `random-1` with 1000 agents gave 579 to 609 steps (lacam2: 578, then
    /// 576), on lak303d 527 (the bound: a proof) to 595, on ost003d 461 to 488; a dive
    /// costs about one PIBT step per step of its plan (0.1 to 0.3 s there), far less
    /// than the collision repair or the neighbourhood search spend on the same gain.
    ///
    /// # Complexity
    /// Per dive, as [`lacam::Search::run`] on its first dive.
    pub(super) fn other_seeds(
        &mut self,
        search: &lacam::Search<'_>,
        horizon: u32,
        incumbent: &mut Option<Found>,
        budget: DiveBudget,
    ) -> Option<Found> {
        let clock = Instant::now();
        let (end, nodes_allowed) = match budget {
            DiveBudget::Until(end) => (Some(end), u64::MAX),
            DiveBudget::Nodes(nodes) => (None, nodes),
        };
        let best_steps = |incumbent: &Option<Found>| incumbent.as_ref().and_then(|b| b.steps);
        let from = best_steps(incumbent);
        let (mut seeds, mut fruitless, mut exhausted) = (0u32, 0u32, false);
        while seeds < OTHER_SEEDS
            && fruitless < OTHER_SEEDS_PATIENCE
            && best_steps(incumbent).is_none_or(|best| best > horizon)
            && end.is_none_or(|end| Instant::now() <= end)
        {
            seeds += 1;
            let ceiling = best_steps(incumbent).unwrap_or(u32::MAX);
            let Some(mut dive) = search.reseeded(FIRST_PLAN_SEED + u64::from(seeds), ceiling)
            else {
                break;
            };
            let mut expansions = 0u64;
            let mut stop = |progress: lacam::Progress| {
                expansions += 1;
                let backing_up = progress.nodes as u64
                    > u64::from(progress.deepest).saturating_mul(DIVE_NODES_PER_STEP) + 1;
                progress.best.is_some()
                    || backing_up
                    || expansions > nodes_allowed
                    || end.is_some_and(|end| Instant::now() > end)
            };
            let mut budget = lacam::Budget {
                memory_bytes: self.limits.budget_mib.saturating_mul(MIB) / FIRST_PLAN_MEMORY_SHARE,
                stop: &mut stop,
                enough: horizon,
            };
            let outcome = dive.run(&mut budget);
            exhausted = outcome.end == lacam::End::Exhausted;
            match self.lacam_found(outcome) {
                Some(found) => {
                    *incumbent = Some(found);
                    fruitless = 0;
                }
                None => fruitless += 1,
            }
            if exhausted {
                break;
            }
        }
        (self.trace)(&Event::OtherSeeds {
            seeds,
            from,
            best: best_steps(incumbent),
            exhausted,
            seconds: clock.elapsed().as_secs_f64(),
        });
        match incumbent {
            // A plan at the proven bound is optimal.
            Some(best) if best.steps.is_some_and(|m| m <= horizon) => Some(best.clone()),
            _ => exhausted.then(|| incumbent.clone().unwrap_or(Found::NEVER)),
        }
    }

    /// How long [`Driver::other_seeds`] may go at the bound: with a time limit, until
    /// [`OTHER_SEEDS_SHARE`] of it; with [`Stopwatch::Counted`], each dive within its
    /// first-plan nodes; `None` without a time limit (every answer is then a proof, and
    /// there are no first plans to better).
    pub(super) fn dive_budget(&self) -> Option<DiveBudget> {
        match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => Some(DiveBudget::Until(
                self.started + limit.mul_f64(OTHER_SEEDS_SHARE),
            )),
            Stopwatch::Wall(None) => None,
            Stopwatch::Counted {
                first_plan_nodes, ..
            } => Some(DiveBudget::Nodes(first_plan_nodes)),
        }
    }

    /// Whether [`Driver::shorten_first`] has something to do: a time limit and a plan.
    pub(super) fn can_shorten(&self, incumbent: Option<&Found>) -> bool {
        matches!(self.stopwatch, Stopwatch::Wall(Some(_)))
            && incumbent.is_some_and(|best| best.plan.is_some())
    }

    /// Step, with a time limit, when planning fails at the lower bound `lower_bound`:
    /// large neighbourhood search shortens the plan `incumbent` ([`lns`], as in
    /// [`Driver::improve`]) toward the bound, until [`SHORTEN_FIRST_SHARE`] of the time
    /// limit; `incumbent` becomes the shorter plan. Whether it did shorten it (a plan at
    /// the bound is then the answer).
    ///
    /// Why before the SAT decisions: on the open rows of `docs/mapf.md` the optimum
    /// was the bound wherever it is known, planning at the bound fails, and the core of
    /// the SAT decision grows to tens of agents that SAT places in seconds each
    /// (empty-32-32 even-1 with 500 agents at T = 57: 32 agents, 677 000 variables, 7 s;
    /// then 48, 969 000, 22 s) without an end in the time limit, where the
    /// neighbourhood search reached the bound (random-32-32-10 random-1 with 400 agents:
    /// 67 to 53 in 4.8 s; maze-32-32-4 random-1 with 100: 109 to 92 in 21 s).
    pub(super) fn shorten_first(
        &mut self,
        instance: &Instance<'_>,
        lower_bound: u32,
        incumbent: &mut Option<Found>,
    ) -> bool {
        let Stopwatch::Wall(Some(limit)) = self.stopwatch else {
            return false;
        };
        let Some(plan) = incumbent.as_ref().and_then(|best| best.plan.as_ref()) else {
            return false;
        };
        if !fits_lns(plan, self.agents.starts.len()) {
            return false;
        }
        let clock = Instant::now();
        let end = self.end(limit).min(limit.mul_f64(SHORTEN_FIRST_SHARE));
        let started = self.started;
        let Some(mut search) = lns::Lns::from_paths(
            instance,
            paths_of(self.agents.starts, plan),
            0,
            SHORTEN_SEED,
            &mut || started.elapsed() > end,
        ) else {
            return false;
        };
        search.give_up_at(started.checked_add(end));
        let from = search.makespan();
        let mut steps = 0u64;
        // In rounds of SHORTEN_FIRST_PATIENCE steps, while each makes the plan shorter.
        loop {
            let before = search.makespan();
            let mut round = 0u64;
            search.shorten_until(lower_bound, &mut || {
                round += 1;
                started.elapsed() > end || round > SHORTEN_FIRST_PATIENCE
            });
            steps += round.saturating_sub(1);
            if search.makespan() >= before || started.elapsed() > end {
                break;
            }
        }
        let makespan = search.makespan();
        (self.trace)(&Event::Shortened {
            makespan,
            from,
            steps,
            lacam_best: None,
            seconds: clock.elapsed().as_secs_f64(),
        });
        if makespan >= from {
            return false;
        }
        *incumbent = Some(self.found(makespan, &search.into_paths()));
        true
    }
}

//! The sum of costs' driving: the first plan (LaCAM*, prioritized planning, Push and
//! Swap), the proof of [`soc`] with its bound, and the neighbourhood search beside it on a
//! second thread, the best plan kept and answered with the proven bound.

use std::time::{Duration, Instant};

use grid_core::limits::MIB;
use grid_core::{CellId, Grid};

use crate::moves::Options;
use crate::search::Found;

use super::super::dist_table::DistTable;
use super::super::{
    Agents, Event, Instance, LastResort, Stopwatch, Unanswered, lacam, lns, sat, soc, solvable,
};
use super::Driver;
use super::first_plans::{FIRST_PLAN_SEED, FirstPlans};
use super::improve::{PUSH_AND_SWAP_BYTES, steps_fit_lns};
use super::{passed, paths_of};

/// [`crate::mapf::solve_agents_soc`] by `driver`.
pub(crate) fn soc_driven(
    mut driver: Driver<'_, '_>,
    techniques: soc::Techniques,
) -> Result<Option<(soc::SocPlan, u64)>, Unanswered> {
    let Agents {
        grid,
        starts,
        goals,
        ..
    } = driver.agents;
    let limits = driver.limits;
    if solvable::goal_out_of_reach(grid, starts, goals) {
        return Ok(None);
    }
    let mut first = None;
    // The sum of the distances: the bound of a plan answered before the proof's tables.
    let first_bound: u64;
    {
        let budget = limits.budget_mib.saturating_mul(MIB);
        let k = starts.len();
        let limit = limits.time_limit.unwrap_or_default();
        let instance = Instance::within(grid, starts, goals, budget, &mut driver.wall_stop())
            .map_err(|refused| refused.unanswered(k, limits.budget_mib, limit))?;
        let Some(lower_bound) = instance.lower_bound() else {
            return Ok(None);
        };
        first_bound = soc::planning::distances(&instance)
            .iter()
            .map(|&d| u64::from(d))
            .sum();
        let options = Options::new(grid);
        let dist = DistTable::known(grid, instance.all_distances());
        let mut search = lacam::Search::new(grid, &options, starts, goals, dist, FIRST_PLAN_SEED);
        let mut first_plans = driver.first_plans(&mut search, lower_bound);
        if matches!(first_plans, FirstPlans::None) {
            first_plans = driver.first_plan_resumed(&mut search, lower_bound);
        }
        drop(search);
        drop(instance);
        match first_plans {
            FirstPlans::Optimal(Found { steps: None, .. }) => return Ok(None),
            FirstPlans::Optimal(found) | FirstPlans::Best(found) => {
                first = found.plan.map(|plan| paths_of(starts, &plan));
            }
            FirstPlans::None => {}
        }
    }
    let first = driver.soc_plan(first, SocPhase::BeforeProof);
    // The last resort, as for the makespan: Push and Swap, whose plan is long but legal.
    let first = first.or_else(|| driver.soc_last_resort());
    // The neighbourhood search beside the proof, on a core of its own, with its memory
    // taken off the proof's: with a time limit, two threads and a plan whose search fits.
    // Its exact steps only when their SAT session fits as well (`lns::Lns::exact_step`).
    let beside_need = first.as_ref().and_then(|paths| {
        let most = limits.budget_mib.saturating_mul(MIB) / SOC_BESIDE_MOST;
        let bytes = beside_bytes(grid, starts.len(), paths);
        let with_exact = bytes.saturating_add(lns::EXACT_VARIABLES * sat::BYTES_PER_VARIABLE);
        let runs = matches!(driver.stopwatch, Stopwatch::Wall(Some(_)))
            && driver.threads.get() >= 2
            && bytes <= most;
        runs.then_some(if with_exact <= most {
            (with_exact, true)
        } else {
            (bytes, false)
        })
    });
    if let Stopwatch::Wall(Some(limit)) = driver.stopwatch {
        // With the search beside, the plan improves all along: the proof keeps nearly
        // the whole limit.
        let share = match beside_need {
            Some(_) => SOC_PROOF_SHARE_BESIDE,
            None => SOC_PROOF_SHARE,
        };
        driver.proof_end = Some(limit.mul_f64(share));
    }
    let deadline = driver.deadline();
    let whole_from = driver.share_of_proof(SOC_WHOLE_FROM);
    let whole_late_from = driver.share_of_proof(SOC_WHOLE_LATE_FROM);
    let beside_plan = first.as_ref().zip(beside_need).and_then(|(paths, need)| {
        let until = deadline.0?;
        Some((paths.clone(), until, need))
    });
    let proof_mib = limits
        .budget_mib
        .saturating_sub(beside_plan.as_ref().map_or(0, |b| b.2.0.div_ceil(MIB)));
    let beside = soc::Beside::telling(driver.progress);
    let done = std::sync::atomic::AtomicBool::new(false);
    let (found, beside_found) = std::thread::scope(|scope| {
        let helper = beside_plan.map(|(paths, until, (_, exact))| {
            let (beside, done) = (&beside, &done);
            let within = BesideWithin {
                until,
                exact,
                beside,
                done,
            };
            scope.spawn(move || lns_beside(grid, starts, goals, paths, within))
        });
        // The clock and the trace are the driver's fields, borrowed apart.
        let clock = (driver.stopwatch, driver.started, driver.proof_end);
        let checks_left = &driver.checks_left;
        let mut stop = || passed(clock, checks_left);
        let trace = &mut *driver.trace;
        let mut raised = |lower_bound| {
            let seconds = clock.1.elapsed().as_secs_f64();
            trace(&Event::SocBound {
                lower_bound,
                seconds,
            });
        };
        let within = soc::Within {
            stop: &mut stop,
            deadline,
            first,
            first_bound,
            whole_from,
            whole_late_from,
            beside: helper.as_ref().map(|_| &beside),
            raised: Some(&mut raised),
        };
        let found = soc::solve_within(grid, starts, goals, proof_mib, techniques, within);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        // A panic of the search beside is its own: the proof's answer stands.
        let beside_found = helper.and_then(|helper| helper.join().ok().flatten());
        (found, beside_found)
    });
    let mut found = found.map_err(|e| match (e, limits.time_limit) {
        (Unanswered::Time { .. }, Some(limit)) => Unanswered::Time { limit },
        (e, _) => e,
    })?;
    if let (Some((plan, _)), Some(paths)) = (found.as_mut(), beside_found) {
        let cost = soc::sum_of_costs(&paths, goals);
        if cost < plan.cost {
            (driver.trace)(&Event::SocBeside {
                cost,
                from: plan.cost,
            });
            plan.paths = paths;
            plan.cost = cost;
        }
    }
    driver.proof_end = None;
    let found = found.map(|(mut plan, bound)| {
        if bound < plan.cost {
            let paths = std::mem::take(&mut plan.paths);
            plan.paths = driver
                .soc_plan(Some(paths), SocPhase::AfterProof)
                .unwrap_or_default();
            plan.cost = soc::sum_of_costs(&plan.paths, goals);
        }
        (plan, bound)
    });
    Ok(found.map(|(mut plan, bound)| {
        let arrived = plan
            .paths
            .iter()
            .zip(goals)
            .map(|(path, goal)| soc::planning::cost(path, goal.index() as u32) as usize)
            .max()
            .unwrap_or(0);
        for path in &mut plan.paths {
            path.truncate(arrived + 1);
        }
        if bound < plan.cost {
            (driver.trace)(&Event::Unproven {
                cost: plan.cost,
                lower_bound: bound,
            });
        }
        (plan, bound)
    }))
}

/// With a time limit and two threads or more, the sum of costs' plan is improved by
/// neighbourhood search ([`lns`]) on a thread of its own while the proof runs, when that
/// takes at most this fraction of the memory budget (the rest is the proof's).
const SOC_BESIDE_MOST: u64 = 4;

/// The seed of the neighbourhood search beside the proof (not [`SOC_PLAN_SEED`]: it goes
/// on from the plan that one left).
const SOC_BESIDE_SEED: u64 = 23;

/// Bytes the neighbourhood search beside the proof takes at most for `agents` agents on
/// `grid` from the plan `paths`: its own distance tables (4 bytes a cell and agent) and
/// its paths and reservations at its horizon ([`PUSH_AND_SWAP_BYTES`] less the move's 12,
/// per agent and step, twice for the scratch of a step). An exact step's SAT session
/// ([`lns::Lns::exact_step`], at most [`lns::EXACT_VARIABLES`] variables) comes on top.
fn beside_bytes(grid: &Grid, agents: usize, paths: &[Vec<u32>]) -> u64 {
    let cells = grid.cell_count() as u64;
    let longest = paths.iter().map(Vec::len).max().unwrap_or(0) as u64;
    let steps = longest.max(1).saturating_mul(agents as u64);
    (cells * 4)
        .saturating_mul(agents as u64)
        .saturating_add(steps.saturating_mul(2 * (PUSH_AND_SWAP_BYTES - 12)))
}

/// Where the neighbourhood search beside the proof stops, and what it may do.
struct BesideWithin<'a> {
    /// The instant it stops at the latest.
    until: Instant,
    /// Whether it takes exact steps ([`lns::Lns::exact_step`]): their session fits.
    exact: bool,
    /// The proof's bound, read before every step, and each better plan's cost, told.
    beside: &'a soc::Beside<'a>,
    /// Set when the proof is over.
    done: &'a std::sync::atomic::AtomicBool,
}

/// The neighbourhood search beside the proof: from `paths` (a legal plan), steps of
/// [`lns`] (exact ones too when `within.exact`, [`lns::ExactShare`]) until the proof is
/// done, the instant `within.until`, or its plan costs no more than the proof's bound.
/// Its plan, when it found a better one.
fn lns_beside(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    paths: Vec<Vec<u32>>,
    within: BesideWithin<'_>,
) -> Option<Vec<Vec<u32>>> {
    use std::sync::atomic::Ordering::Relaxed;
    let BesideWithin {
        until,
        exact,
        beside,
        done,
    } = within;
    let over = || done.load(Relaxed) || Instant::now() >= until;
    // Its memory was counted by the caller (`beside_bytes`); its time is the proof's.
    let instance = Instance::within(grid, starts, goals, u64::MAX, &mut || over()).ok()?;
    let mut search = lns::Lns::from_paths(&instance, paths, 0, SOC_BESIDE_SEED, &mut || over())?;
    search.give_up_at(Some(until));
    let first = search.cost();
    let floor = search.lower_bound();
    let mut share = lns::ExactShare::new(exact);
    while !over() && search.cost() > beside.bound.load(Relaxed).max(floor) {
        let exact = share.exact_next();
        let started = Instant::now();
        let improved = if exact {
            search.exact_step()
        } else {
            search.step()
        };
        share.record(exact, started.elapsed(), improved);
        if improved {
            beside.tell_found(search.cost());
        }
    }
    (search.cost() < first).then(|| search.into_paths())
}

/// The share of the time limit, from the start, within which the sum of costs' first
/// plan is made and improved ([`lns`]) before the proof, when LaCAM* gave a plan.
const SOC_PLAN_SHARE: f64 = 0.1;

/// As [`SOC_PLAN_SHARE`] when LaCAM* gave no plan: prioritized planning may take this
/// share to find one.
const SOC_PLAN_SHARE_WITHOUT_PLAN: f64 = 0.5;

/// The share of the time limit by which LaCAM*, resumed when its first second gave the
/// sum of costs no plan, stops looking for one ([`Driver::first_plan_resumed`]); then
/// prioritized planning has its turn ([`SOC_PLAN_SHARE_WITHOUT_PLAN`]).
pub(super) const SOC_FIRST_PLAN_SHARE: f64 = 0.25;

/// With [`Stopwatch::Counted`], LaCAM* resumed for the sum of costs' first plan
/// ([`Driver::first_plan_resumed`]) expands this many times its first expansions at most.
pub(super) const SOC_FIRST_PLAN_COUNTED_FACTOR: u64 = 1 << 16;

/// Priority orders the sum of costs' first plan by prioritized planning tries ([`lns`]):
/// a bound, since an instance with no plan at all fails every one.
const SOC_PLAN_ATTEMPTS: usize = 32;

/// Before the sum of costs' proof, the neighbourhood search ([`lns`]) stops after this
/// many steps in a row that did not improve the plan (as well as at
/// [`SOC_PLAN_SHARE`] of the time): the proof may need no more.
const SOC_PLAN_PATIENCE: u64 = 200;

/// The share of the time limit, from the start, the sum of costs' proof gets when a
/// neighbourhood search runs beside it ([`lns_beside`]): that search improves the plan
/// all along, so the proof no longer leaves [`SOC_PROOF_SHARE`]'s fifth of the time to it
/// (the rest is the margin of the answer's writing).
const SOC_PROOF_SHARE_BESIDE: f64 = 0.97;

/// The share of the time limit, from the start, the sum of costs' proof gets; the rest
/// improves the best plan ([`lns`]) when the proof did not finish. Measured at 0.7,
/// 0.8 and 0.9 (`--time-limit 30`, load 6): maze-32-32-4 random-1 K = 20 is proven at
/// 0.8 and 0.9 and was not in three runs at 0.7; the neighbourhood search after the
/// proof gets less time (ht_chantry random-1 K = 100: 8746, 8752, 8775).
const SOC_PROOF_SHARE: f64 = 0.8;

/// The share of the proof's time after which one conflict-based search over all agents
/// takes over from the groups where it applies ([`soc::Whole::AfterGroups`]).
const SOC_WHOLE_FROM: f64 = 0.4;

/// The share of the sum of costs' proof time after which the search over all agents
/// takes over from the groups on the other instances ([`soc::Techniques::cbs_whole_late`]):
/// late, since the groups' SAT decisions prove ost003d random-1 K = 100 at 15.6 CPU s of
/// its 30 s, while on the rows they leave open the search over all agents raises most of
/// its bound in its first 2 s (room-64-64-16 random-1 K = 100: 50 to 84 extra steps).
const SOC_WHOLE_LATE_FROM: f64 = 0.8;

/// With [`Stopwatch::Counted`], the most attempts and steps of each phase of [`lns`]
/// (and at most LaCAM*'s expansions).
const SOC_PLAN_COUNTED_STEPS: u64 = 32;

/// The horizon of the sum of costs' planning ([`lns`]): this many times the lower
/// bound of the makespan, plus [`SOC_PLAN_EXTRA_STEPS`] (at least the first plan's
/// makespan): the slack each agent may take to go round or wait for the others.
const SOC_PLAN_HORIZON_FACTOR: u32 = 2;

/// See [`SOC_PLAN_HORIZON_FACTOR`].
const SOC_PLAN_EXTRA_STEPS: u32 = 16;

/// The seed of the sum of costs' orders and neighbourhoods (fixed: the same run gives
/// the same plan).
const SOC_PLAN_SEED: u64 = 19;

/// When [`Driver::soc_plan`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SocPhase {
    /// Before the proof: a first plan by prioritized planning, the better of it and
    /// LaCAM*'s improved, within [`SOC_PLAN_SHARE`] of the time.
    BeforeProof,
    /// After the proof stopped: the best plan improved until the time limit.
    AfterProof,
}

impl<'a, 't> Driver<'a, 't> {
    /// Step, for the sum of costs with a time limit: the plan `first` (every agent's cell
    /// at 0..=its makespan), and before the proof also one by prioritized planning, the
    /// better of them improved by large neighbourhood search ([`lns`]) while `phase`
    /// leaves time. Without a time limit, `first` as it is (every answer a proof).
    fn soc_plan(&mut self, first: Option<Vec<Vec<u32>>>, phase: SocPhase) -> Option<Vec<Vec<u32>>> {
        let (share, steps_allowed) = match (self.stopwatch, phase) {
            (Stopwatch::Wall(None), _) => return first,
            (Stopwatch::Wall(Some(limit)), SocPhase::BeforeProof) => {
                let share = match first {
                    Some(_) => SOC_PLAN_SHARE,
                    None => SOC_PLAN_SHARE_WITHOUT_PLAN,
                };
                (limit.mul_f64(share), u64::MAX)
            }
            (Stopwatch::Wall(Some(limit)), SocPhase::AfterProof) => (limit, u64::MAX),
            (
                Stopwatch::Counted {
                    first_plan_nodes, ..
                },
                _,
            ) => (Duration::MAX, first_plan_nodes.min(SOC_PLAN_COUNTED_STEPS)),
        };
        let Agents {
            grid,
            starts,
            goals,
            ..
        } = self.agents;
        let clock = Instant::now();
        let started = self.started;
        // No time left: the plan as it is, without building the search's tables (their
        // distances and reservations took 1.7 s past the limit on orz900d random-1 with
        // 1000 agents).
        if started.elapsed() > share {
            return first;
        }
        // Within the share: a plan as it is rather than tables past the limit.
        let budget = self.limits.budget_mib.saturating_mul(MIB);
        let mut past_share = || started.elapsed() > share;
        let Ok(instance) = Instance::within(grid, starts, goals, budget, &mut past_share) else {
            return first;
        };
        let lower_bound = instance.lower_bound()?;
        let horizon = lower_bound
            .saturating_mul(SOC_PLAN_HORIZON_FACTOR)
            .saturating_add(SOC_PLAN_EXTRA_STEPS);
        let mut asked = 0u64;
        let mut stop = || {
            asked += 1;
            asked > steps_allowed || started.elapsed() > share
        };
        // A plan too long to take over (Push and Swap's) stays as it is, as for the
        // makespan: reserving one of 84 897 steps for 1000 agents took 16 s, past the limit.
        let longest = first
            .as_ref()
            .and_then(|paths| paths.iter().map(Vec::len).max())
            .unwrap_or(0);
        if !steps_fit_lns(longest, starts.len()) {
            return first;
        }
        // A plan longer than the horizon is not taken over, but it stays the answer when
        // planning finds none within the share (LaCAM*'s 364 steps for 600 agents on a
        // 200 x 200 map at `--time-limit 1` were dropped, and no plan was printed).
        let mut from_first = first.clone().and_then(|paths| {
            lns::Lns::from_paths(&instance, paths, horizon, SOC_PLAN_SEED, &mut || false)
        });
        if phase == SocPhase::BeforeProof {
            let planned = lns::Lns::by_planning(
                &instance,
                horizon,
                SOC_PLAN_ATTEMPTS,
                SOC_PLAN_SEED,
                &mut stop,
            );
            if let Some(planned) = planned
                && from_first
                    .as_ref()
                    .is_none_or(|known| planned.cost() < known.cost())
            {
                from_first = Some(planned);
            }
        }
        let Some(mut best) = from_first else {
            return first;
        };
        let from = best.cost();
        let mut steps = 0u64;
        let mut counted_stop = || {
            let stop = stop();
            steps += u64::from(!stop);
            stop
        };
        match phase {
            SocPhase::BeforeProof => best.improve_while(SOC_PLAN_PATIENCE, &mut counted_stop),
            SocPhase::AfterProof => best.improve_until(&mut counted_stop),
        }
        (self.trace)(&Event::SocPlan {
            cost: best.cost(),
            from,
            steps,
            seconds: clock.elapsed().as_secs_f64(),
        });
        Some(best.into_paths())
    }

    /// Step, for the sum of costs when LaCAM* and prioritized planning gave no plan and a
    /// limit is set (a time limit, or [`Stopwatch::Counted`]): Push and Swap
    /// ([`Driver::push_and_swap`]).
    ///
    /// Why: the makespan has it as its last resort, the sum of costs had none, so
    /// maze-128-128-1 random-1 with 1000 agents printed no plan at all (LaCAM* none in
    /// 58 000 nodes, prioritized planning none in any order), where Push and Swap plans
    /// in 0.6 s.
    fn soc_last_resort(&mut self) -> Option<Vec<Vec<u32>>> {
        let limited = match self.stopwatch {
            Stopwatch::Wall(limit) => limit.is_some() && !self.passed(),
            Stopwatch::Counted { .. } => true,
        };
        if self.last_resort != LastResort::PushAndSwap || !limited {
            return None;
        }
        let Agents {
            grid,
            starts,
            goals,
            ..
        } = self.agents;
        let budget = self.limits.budget_mib.saturating_mul(MIB);
        let instance = Instance::within(grid, starts, goals, budget, &mut self.wall_stop()).ok()?;
        self.push_and_swap_paths(&instance, 0)
    }
}

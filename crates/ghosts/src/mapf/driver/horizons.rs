//! The makespan's proof: horizons T = LB, LB + 1, ... each settled by prioritized
//! planning, the collision repair, and the SAT decision on a growing core of agents (the
//! module documentation of [`crate::mapf`], step 3), and the joint search for small
//! cores and small instances.
//!
//! # Complexity
//! Per horizon, as [`constructive`] and [`sat`] (the decision on the core's encoding of
//! O(K x T x C) variables), or as [`crate::search`].

use std::time::{Duration, Instant};

use grid_core::limits::MIB;

use crate::dataset::{Dataset, MAX_GHOSTS, Want};
use crate::search::{self, Found};

use super::super::{
    Agents, Event, HORIZONS_BEFORE_EXHAUSTIVE, Horizons, Instance, Stopwatch, Unanswered,
    constructive, lacam, refine, repair, sat,
};
use super::Driver;
use super::first_plans::{DiveBudget, OTHER_SEEDS_COUNTED_NODES};

/// Priority orders prioritized planning tries per horizon.
pub(super) const PLANNING_ATTEMPTS: usize = 8;

/// Agents up to this many go to the joint search (the classic 1 to 3 ghosts; measured:
/// the bench's 3-ghost rows are fastest there).
pub(super) const JOINT_SEARCH_AGENTS: usize = 3;

/// A core of at most this many agents that has no plan at a horizon gets its own optimum
/// from the joint search ([`crate::search`]), when that fits in [`CORE_JOINT_MIB`]: the
/// core is a relaxation, so its optimum is a lower bound for the whole instance, and every
/// horizon below it is skipped as proved impossible (and a core that cannot be solved at
/// all proves the instance unsolvable). Measured on the bench's generated maze with 10
/// ghosts (optimum 131, lower bound 102): SAT proofs on a 4-agent core grow from 0.2 s at
/// T = 102 to 17 s at T = 118, where the joint search on the same core takes well under a
/// second.
const CORE_JOINT_AGENTS: usize = 6;

/// The memory the joint search on a small core may take (at most half the room left):
/// a bounded try, since its time grows with the placements it stores.
const CORE_JOINT_MIB: u64 = 64;

/// Distinct cores tried by the joint search in one solve, at most.
const CORE_JOINT_TRIES: usize = 8;

/// Instances with at most this many placements (C! / (C - K)!) go to the joint search as
/// well: it is exact and complete, and on so small a space faster than building SAT
/// encodings, and it decides unsolvable instances the sound test cannot.
pub(super) const JOINT_SEARCH_PLACEMENTS: u64 = 1 << 20;

/// C! / (C - K)!, the placements of K agents on C cells, saturated.
pub(super) fn placements(cells: usize, agents: usize) -> u64 {
    (0..agents).fold(1u64, |p, i| {
        p.saturating_mul(cells.saturating_sub(i) as u64)
    })
}

/// With a time limit, the collision repair at the bound goes on until this share of it
/// (see [`Driver::repair`]).
const REPAIR_SHARE: f64 = 0.3;

/// In the tests' counted runs ([`Stopwatch::Counted`] and
/// [`Horizons::PlanRepairCore`]), the collision repair's steps at one horizon, at most.
pub(super) const REPAIR_COUNTED_STEPS: u64 = 2000;

/// After the proof stopped, the collision repair's turn before each of the
/// neighbourhood search and LaCAM* (see [`Driver::improve`]): always this long, since
/// its plan is a proof and theirs are not (room-32-32-4 `random-1` with 200 agents: from
/// 3 colliding pairs to none in 4 470 steps, 9 s of such turns; with turns halved while
/// the pairs did not drop, as theirs are, none of 9 in 1 418 steps). It gets them only
/// while it is near a proof (see [`repair_pays`]).
pub(super) const REPAIR_TURN: Duration = Duration::from_millis(1000);

/// After the proof stopped, the collision repair ends after this many turns in a row
/// that left as many colliding pairs as before (maze-32-32-2 `even-1` with 150 agents:
/// 2 pairs left at 30 % of the limit, and none of the turns after it removed one).
const REPAIR_FRUITLESS_TURNS: u32 = 4;

/// After the proof stopped, the collision repair goes on only with at most this many
/// colliding pairs left: the proof in those turns came from 2 pairs (room-32-32-4
/// `random-1` with 200 agents at load 5), while with 8 (maze-32-32-4 `even-1` with 150)
/// the turns took 14 to 18 of the 30 s after the proof for one pair less.
const REPAIR_FEW_PAIRS: usize = 4;

/// Whether the collision repair, with `pairs` colliding pairs left after `fruitless`
/// turns in a row that removed none, gets another turn after the proof stopped.
pub(super) fn repair_pays(pairs: usize, fruitless: u32) -> bool {
    pairs <= REPAIR_FEW_PAIRS && fruitless < REPAIR_FRUITLESS_TURNS
}

/// The seed of the collision repair's choices.
const REPAIR_SEED: u64 = 29;

/// With a time limit, the small SAT core at the bound gives up at this share of it (see
/// [`Driver::small_core_deadline`]).
const SMALL_CORE_SHARE: f64 = 0.1;

/// With a time limit, the collision repair at the bound goes on past this share of its
/// time only with at most [`REPAIR_NEAR_PAIRS`] colliding pairs left (see
/// [`Driver::repair`]).
const REPAIR_CHECK_SHARE: f64 = 0.25;

/// See [`REPAIR_CHECK_SHARE`]: the proofs by the repair had at most 7 pairs left there
/// (room-32-32-4 `random-1` with 200 agents, the slowest, at load 5); den312d `random-1`
/// with 500 had 50 to 68 (107 at first, still 21 at the end of its time at load 1), and
/// in the time it gives back the neighbourhood search shortens its plan 242 to 201.
const REPAIR_NEAR_PAIRS: usize = 16;

/// See [`REPAIR_CHECK_SHARE`]: the collision repair also goes on when its colliding pairs
/// have fallen to at most a this-th of its first plan's: warehouse-10-20-10-2-1
/// `random-1` with 1000 agents fell from 187 to 60 and was proven by the repair in 17 s
/// before the rule of [`REPAIR_NEAR_PAIRS`] alone stopped it (den312d `random-1` with 500
/// falls from 107 to 50 to 68, and stops as before).
const REPAIR_FALL: usize = 3;

/// Steps of `search` within `budget`, `steps` counting them; whether no pair collides.
fn repair_within(
    search: &mut repair::Repair<'_, '_>,
    budget: RepairBudget,
    steps: &mut u64,
) -> bool {
    search.repair_until(&mut || {
        let stop = match budget {
            RepairBudget::Until(end) => Instant::now() > end,
            RepairBudget::Steps(most) => *steps >= most,
        };
        *steps += u64::from(!stop);
        stop
    })
}

/// How long [`Driver::repair`] may go.
#[derive(Debug, Clone, Copy)]
pub(super) enum RepairBudget {
    /// Until this instant.
    Until(Instant),
    /// At most this many steps.
    Steps(u64),
}

/// Variables of the SAT encoding of a core that the driver decides at the bound before
/// [`Driver::shorten_first`] (about 220 MiB): the sweep's cores at the bound (2 to 6
/// agents) fit, the open rows' (32 agents and more, 377 000 variables and more) do not.
const SMALL_CORE_VARIABLES: u64 = 150_000;

/// How [`Driver::horizons`] ended without a stop.
pub(super) enum Proof {
    /// The optimum (or the proof that no plan exists).
    Found(Found),
    /// Past [`HORIZONS_BEFORE_EXHAUSTIVE`] with few agents: the joint search settles it
    /// (after the caller drops the instance's distances, to give it the whole budget).
    Exhaustive,
}

/// How one horizon ended.
enum Horizon {
    /// A plan of this makespan: `paths[a][t]`, every agent's cell at 0..=T.
    Plan(Vec<Vec<u32>>),
    /// No plan of this makespan, nor of any below `next`: go on from `next`.
    Impossible { next: u32 },
    /// A core of agents can never be solved, so neither can the instance.
    Never,
}

/// The optimum of the agents `core` of `instance` alone, by the joint search within
/// `budget_mib` MiB: `Some(None)` when they cannot be solved at all, `None` when the
/// search did not fit.
fn core_optimum(instance: &Instance<'_>, core: &[usize], budget_mib: u64) -> Option<Option<u32>> {
    let sub = Dataset::from_checked_cells(
        instance.grid.clone(),
        core.iter().map(|&a| instance.starts[a]).collect(),
        core.iter().map(|&a| instance.goals[a]).collect(),
        1,
    );
    search::solve(&sub, Want::Steps, budget_mib)
        .ok()
        .map(|found| found.steps)
}

impl<'a, 't> Driver<'a, 't> {
    /// Horizons from `lower_bound` up, as the module documentation says, until one has a
    /// plan; `proven_below` follows the horizon (no plan is shorter). A horizon that
    /// reaches the makespan of `incumbent` proves it optimal. When planning fails at the
    /// lower bound, [`Driver::shorten_first`] shortens `incumbent` before the SAT
    /// decisions.
    #[allow(clippy::too_many_arguments)] // the steps' state, kept by the caller
    pub(super) fn horizons<'i, 'g>(
        &mut self,
        instance: &'i Instance<'g>,
        search: &lacam::Search<'_>,
        horizons: Horizons,
        lower_bound: u32,
        incumbent: &mut Option<Found>,
        proven_below: &mut u32,
        repairing: &mut Option<repair::Repair<'i, 'g>>,
    ) -> Result<Proof, Unanswered> {
        let joint_allowed = instance.starts.len() <= MAX_GHOSTS as usize;
        let room = self
            .room(instance.distance_bytes())
            .saturating_sub(search.bytes());
        let mut horizon = lower_bound;
        let mut tried_cores: Vec<Vec<usize>> = Vec::new();
        // Whether no horizon has passed the small core undecided yet: the first that does
        // gets the repair and the neighbourhood search before the large cores.
        let mut first_open = true;
        loop {
            *proven_below = horizon;
            if let Some(best) = incumbent
                .as_ref()
                .filter(|best| best.steps.is_some_and(|m| m <= horizon))
            {
                return Ok(Proof::Found(best.clone()));
            }
            self.check_time()?;
            if horizon > lower_bound.saturating_add(HORIZONS_BEFORE_EXHAUSTIVE) && joint_allowed {
                return Ok(Proof::Exhaustive);
            }
            if horizons != Horizons::SatOnly {
                if let Some(paths) = self.planning(instance, horizon, room)? {
                    return Ok(Proof::Found(self.found(horizon, &paths)));
                }
                self.check_time()?;
                if horizons == Horizons::PlanRepairCore {
                    let budget = DiveBudget::Nodes(OTHER_SEEDS_COUNTED_NODES);
                    if let Some(answer) = self.other_seeds(search, horizon, incumbent, budget) {
                        return Ok(Proof::Found(answer));
                    }
                }
                if horizons == Horizons::PlanRepairCore
                    && let Some(paths) = self.repair(
                        instance,
                        horizon,
                        room,
                        RepairBudget::Steps(REPAIR_COUNTED_STEPS),
                        &mut None,
                    )
                {
                    return Ok(Proof::Found(self.found(horizon, &paths)));
                }
                if first_open
                    && horizons == Horizons::PlanThenCore
                    && (self.can_shorten(incumbent.as_ref()) || self.repair_budget().is_some())
                {
                    // A small core first (the sweep's cores at the bound have 2 to 6
                    // agents and settle in milliseconds); past it, the plan toward the
                    // bound before the large cores.
                    let small = room.min(SMALL_CORE_VARIABLES * sat::BYTES_PER_VARIABLE);
                    let until = self.small_core_deadline();
                    match self.core_decision_until(
                        instance,
                        horizon,
                        small,
                        &mut tried_cores,
                        until,
                    ) {
                        Ok(Horizon::Plan(paths)) => {
                            return Ok(Proof::Found(self.found(horizon, &paths)));
                        }
                        Ok(Horizon::Impossible { next }) => {
                            horizon = next;
                            continue;
                        }
                        Ok(Horizon::Never) => return Ok(Proof::Found(Found::NEVER)),
                        Err(Unanswered::OverBudget { .. }) => {}
                        // Stopped at its own deadline, before the proof's end.
                        Err(Unanswered::Time { .. }) if !self.wall_passed() => {}
                        Err(stopped) => return Err(stopped),
                    }
                    first_open = false;
                    if let Some(budget) = self.dive_budget()
                        && let Some(answer) = self.other_seeds(search, horizon, incumbent, budget)
                    {
                        return Ok(Proof::Found(answer));
                    }
                    if let Some(budget) = self.repair_budget()
                        && let Some(paths) = self.repair(instance, horizon, room, budget, repairing)
                    {
                        return Ok(Proof::Found(self.found(horizon, &paths)));
                    }
                    self.check_time()?;
                    if self.can_shorten(incumbent.as_ref())
                        && self.shorten_first(instance, horizon, incumbent)
                        && let Some(best) = incumbent
                            .as_ref()
                            .filter(|best| best.steps.is_some_and(|m| m <= horizon))
                    {
                        return Ok(Proof::Found(best.clone()));
                    }
                }
            }
            let outcome = match horizons {
                Horizons::PlanThenCore | Horizons::PlanRepairCore => {
                    self.core_decision(instance, horizon, room, &mut tried_cores)?
                }
                Horizons::PlanThenSat | Horizons::SatOnly => {
                    self.sat_decision(instance, horizon, room)?
                }
            };
            match outcome {
                Horizon::Plan(paths) => return Ok(Proof::Found(self.found(horizon, &paths))),
                Horizon::Impossible { next } => horizon = next,
                Horizon::Never => return Ok(Proof::Found(Found::NEVER)),
            }
        }
    }

    /// How long [`Driver::repair`] may go at the bound: with a time limit, until
    /// [`REPAIR_SHARE`] of it (or the proof's end); with [`Stopwatch::Counted`],
    /// [`REPAIR_COUNTED_STEPS`] steps; `None` when it is switched off, or without a time
    /// limit (every answer there comes from planning or SAT, as before the repair, so
    /// that a run under a memory budget answers as it did: the over-budget error of
    /// `mapf-over-budget-search`, which the repair would plan).
    fn repair_budget(&self) -> Option<RepairBudget> {
        if !self.techniques.repair {
            return None;
        }
        match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => Some(RepairBudget::Until(
                self.started + self.end(limit).min(limit.mul_f64(REPAIR_SHARE)),
            )),
            Stopwatch::Wall(None) => None,
            Stopwatch::Counted { .. } => Some(RepairBudget::Steps(REPAIR_COUNTED_STEPS)),
        }
    }

    /// Step: the collision repair of [`repair`] at `horizon` within `budget` and the
    /// memory `room`; the paths when it leaves no collision (a plan of makespan T).
    ///
    /// Why at the bound, before the neighbourhood search and the large SAT cores: on the
    /// open rows of `docs/mapf.md` the optimum is the bound wherever it is known, and a
    /// plan at the bound is the proof; SAT's cores there grow without an end, and
    /// shortening a longer plan stops a few steps above the bound.
    ///
    /// When it stops with collisions left, the repair is kept in `kept`: with a time
    /// limit, [`Driver::improve`] gives it turns while T is still the proven bound.
    pub(super) fn repair<'i, 'g>(
        &mut self,
        instance: &'i Instance<'g>,
        horizon: u32,
        room: u64,
        budget: RepairBudget,
        kept: &mut Option<repair::Repair<'i, 'g>>,
    ) -> Option<Vec<Vec<u32>>> {
        let clock = Instant::now();
        let k = instance.starts.len();
        let fits = repair::memory_need(instance.grid, horizon, k).is_some_and(|need| need <= room);
        let mut out_of_time = || match budget {
            RepairBudget::Until(end) => Instant::now() > end,
            RepairBudget::Steps(_) => false,
        };
        let search = fits
            .then(|| repair::Repair::new(instance, horizon, REPAIR_SEED, &mut out_of_time))
            .flatten();
        let Some(mut search) = search else {
            (self.trace)(&Event::Repair {
                horizon,
                from: None,
                left: 0,
                steps: 0,
                seconds: clock.elapsed().as_secs_f64(),
            });
            return None;
        };
        let from = search.colliding_pairs();
        let mut steps = 0u64;
        let repaired = match budget {
            RepairBudget::Until(end) => {
                // Past a share of its time (from its first paths on), it goes on only
                // when near a proof.
                let now = Instant::now();
                let check = now
                    + end
                        .saturating_duration_since(now)
                        .mul_f64(REPAIR_CHECK_SHARE);
                repair_within(&mut search, RepairBudget::Until(check), &mut steps)
                    || ((search.colliding_pairs() <= REPAIR_NEAR_PAIRS
                        || search.colliding_pairs().saturating_mul(REPAIR_FALL) <= from)
                        && repair_within(&mut search, budget, &mut steps))
            }
            RepairBudget::Steps(_) => repair_within(&mut search, budget, &mut steps),
        };
        (self.trace)(&Event::Repair {
            horizon,
            from: Some(from),
            left: search.colliding_pairs(),
            steps,
            seconds: clock.elapsed().as_secs_f64(),
        });
        if repaired {
            return Some(search.into_paths());
        }
        *kept = Some(search);
        None
    }

    /// Step: the joint-placement A* on every agent, with the whole budget.
    pub(super) fn joint_search(&mut self) -> Result<Found, Unanswered> {
        let clock = Instant::now();
        let Agents {
            grid,
            starts,
            goals,
            dataset,
        } = self.agents;
        let copy;
        let dataset = match dataset {
            Some(dataset) => dataset,
            None => {
                copy =
                    Dataset::from_checked_cells(grid.clone(), starts.to_vec(), goals.to_vec(), 1);
                &copy
            }
        };
        let budget_mib = self.limits.budget_mib;
        let found = search::solve(dataset, self.want, budget_mib).map_err(|e| {
            Unanswered::JointOverBudget {
                budget_mib,
                placements: e.placements,
            }
        })?;
        (self.trace)(&Event::JointSearch {
            steps: found.steps,
            seconds: clock.elapsed().as_secs_f64(),
        });
        Ok(found)
    }

    /// Step: prioritized planning at `horizon`; the paths when it finds a plan.
    pub(super) fn planning(
        &mut self,
        instance: &Instance<'_>,
        horizon: u32,
        room: u64,
    ) -> Result<Option<Vec<Vec<u32>>>, Unanswered> {
        let k = instance.starts.len();
        let need = constructive::memory_need(instance.grid, horizon, k);
        if need > room {
            return Err(self.over(format!(
                "{} MiB for planning {k} agents over {horizon} steps",
                need.div_ceil(MIB)
            )));
        }
        let clock = Instant::now();
        let mut stop = self.wall_stop();
        let give_up = self.wall_deadline();
        let paths =
            constructive::plan_at_until(instance, horizon, PLANNING_ATTEMPTS, &mut stop, give_up);
        (self.trace)(&Event::Planning {
            horizon,
            found: paths.is_some(),
            seconds: clock.elapsed().as_secs_f64(),
        });
        Ok(paths)
    }

    /// Step: the SAT decision at `horizon` on a growing core of agents; when a small core
    /// has no plan, its own optimum by the joint search (a lower bound for the instance).
    fn core_decision(
        &mut self,
        instance: &Instance<'_>,
        horizon: u32,
        room: u64,
        tried_cores: &mut Vec<Vec<usize>>,
    ) -> Result<Horizon, Unanswered> {
        let deadline = self.deadline();
        self.core_decision_until(instance, horizon, room, tried_cores, deadline)
    }

    /// When the small core at the bound gives up: with a time limit, at
    /// [`SMALL_CORE_SHARE`] of it (or the proof's end), so that the collision repair and
    /// the neighbourhood search get their turn (maze-32-32-4 `even-1` with 150 agents:
    /// its small core at the bound 88 did not end in the 30 s of the proof); otherwise
    /// the proof's deadline.
    fn small_core_deadline(&self) -> sat::Deadline {
        match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => sat::Deadline(
                self.started
                    .checked_add(self.end(limit).min(limit.mul_f64(SMALL_CORE_SHARE))),
            ),
            _ => self.deadline(),
        }
    }

    /// [`Driver::core_decision`], its SAT decisions given up at `deadline`.
    fn core_decision_until(
        &mut self,
        instance: &Instance<'_>,
        horizon: u32,
        room: u64,
        tried_cores: &mut Vec<Vec<usize>>,
        deadline: sat::Deadline,
    ) -> Result<Horizon, Unanswered> {
        let clock = Instant::now();
        let max_variables = room / sat::BYTES_PER_VARIABLE;
        let threads = self.limits.threads;
        let refined = refine::decide_until(instance, horizon, max_variables, deadline, threads)
            .map_err(|e| {
                self.over(format!(
                    "about {} MiB for the SAT encoding of makespan {horizon} ({} variables)",
                    e.variables
                        .saturating_mul(sat::BYTES_PER_VARIABLE)
                        .div_ceil(MIB),
                    e.variables
                ))
            })?;
        if refined.decision == sat::Decision::Stopped {
            return Err(self.time_passed());
        }
        (self.trace)(&Event::Core {
            horizon,
            found: matches!(refined.decision, sat::Decision::Plan(_)),
            agents: refined.core,
            rounds: refined.rounds,
            seconds: clock.elapsed().as_secs_f64(),
        });
        if let sat::Decision::Plan(paths) = refined.decision {
            return Ok(Horizon::Plan(paths));
        }
        let next = Horizon::Impossible { next: horizon + 1 };
        if refined.core_agents.len() > CORE_JOINT_AGENTS
            || tried_cores.len() >= CORE_JOINT_TRIES
            || tried_cores.contains(&refined.core_agents)
        {
            return Ok(next);
        }
        self.check_time()?;
        let joint_mib = (room / MIB / 2).min(CORE_JOINT_MIB);
        let clock = Instant::now();
        let optimum = core_optimum(instance, &refined.core_agents, joint_mib);
        (self.trace)(&Event::CoreOptimum {
            horizon,
            agents: refined.core_agents.len(),
            steps: optimum.flatten(),
            fits: optimum.is_some(),
            seconds: clock.elapsed().as_secs_f64(),
        });
        tried_cores.push(refined.core_agents);
        Ok(match optimum {
            Some(None) => Horizon::Never,
            // Every horizon below the core's optimum is impossible for the core, so for
            // the whole instance; the search goes on from there.
            Some(Some(steps)) if steps > horizon + 1 => Horizon::Impossible { next: steps },
            _ => next,
        })
    }

    /// Step: the SAT decision at `horizon` on every agent.
    fn sat_decision(
        &mut self,
        instance: &Instance<'_>,
        horizon: u32,
        room: u64,
    ) -> Result<Horizon, Unanswered> {
        let clock = Instant::now();
        let variables = sat::count_variables(instance, horizon);
        let need = variables.saturating_mul(sat::BYTES_PER_VARIABLE);
        if need > room {
            return Err(self.over(format!(
                "about {} MiB for the SAT encoding of makespan {horizon} ({variables} \
                 variables)",
                need.div_ceil(MIB)
            )));
        }
        let rival = sat::rival_after(self.limits.threads, need, room);
        let decision = sat::decide_raced(instance, horizon, self.deadline(), rival);
        if decision == sat::Decision::Stopped {
            return Err(self.time_passed());
        }
        (self.trace)(&Event::Sat {
            horizon,
            found: matches!(decision, sat::Decision::Plan(_)),
            variables,
            seconds: clock.elapsed().as_secs_f64(),
        });
        Ok(match decision {
            sat::Decision::Plan(paths) => Horizon::Plan(paths),
            sat::Decision::Impossible => Horizon::Impossible { next: horizon + 1 },
            sat::Decision::Stopped => return Err(self.time_passed()),
        })
    }
}

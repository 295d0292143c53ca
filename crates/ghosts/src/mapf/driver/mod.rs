//! The one owner of the budget, the clock and the trace ([`Driver`]): it runs the
//! methods of [`crate::mapf`] in order (first plans, the proof, the improvement), keeps
//! the best plan and the proven bound, and stops at the time or memory limit with both.
//! The methods it calls neither read the clock nor report.
//!
//! Its steps, one file each: [`first_plans`] (LaCAM* before the proof), [`horizons`] (the
//! makespan's proof), [`improve`] (the plan shortened after it), [`sum_of_costs`] (the sum of
//! costs).

mod first_plans;
mod horizons;
mod improve;
mod sum_of_costs;

use std::time::{Duration, Instant};

use grid_core::CellId;
use grid_core::limits::MIB;

use crate::dataset::{MAX_GHOSTS, Want};
use crate::moves::Options;
use crate::progress::Progress;
use crate::search::Found;

use super::dist_table::DistTable;
use super::{
    Agents, Event, Horizons, Instance, LastResort, Limits, Method, Stopwatch, Techniques,
    Unanswered, constructive, lacam, repair, sat, solvable,
};
use first_plans::{FIRST_PLAN_SEED, FirstPlans};
use horizons::{JOINT_SEARCH_AGENTS, JOINT_SEARCH_PLACEMENTS, Proof, placements};

pub(super) use sum_of_costs::soc_driven;

/// The driver's answer: what was found and, when a limit stopped the proof, the proven
/// lower bound below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The best plan found (its makespan in `steps`), or the proof that none exists.
    pub found: Found,
    /// `None`: `found` is proven optimal. `Some(lb)`: a limit stopped the proof; no plan
    /// has fewer than `lb` steps (and `found` has more).
    pub unproven_bound: Option<u32>,
}

impl Answer {
    fn proven(found: Found) -> Answer {
        Answer {
            found,
            unproven_bound: None,
        }
    }
}

/// The share of the time limit the proof gets: the rest goes to finding a plan, or a
/// shorter one than the first plans' ([`Driver::improve`]), so that a limit rarely ends
/// with nothing and the plan it ends with is LaCAM*'s after more than its first second.
/// Measured on the sweep's open rows (`--time-limit 60`): every proof that finished did
/// so within the first half of the limit.
const PROOF_SHARE: f64 = 0.5;

/// [`Driver::passed`] on the driver's clock (its stopwatch, start and proof's end) and its
/// checks left, so that a caller may hold them beside a borrow of its trace.
fn passed(
    (stopwatch, started, proof_end): (Stopwatch, Instant, Option<Duration>),
    checks_left: &std::cell::Cell<u32>,
) -> bool {
    match stopwatch {
        Stopwatch::Wall(Some(limit)) => started.elapsed() > end_of(proof_end, limit),
        Stopwatch::Wall(None) => false,
        Stopwatch::Counted { .. } => {
            let left = checks_left.get();
            checks_left.set(left.saturating_sub(1));
            left == 0
        }
    }
}

/// When the step under way stops, of a time limit `limit`: `proof_end` when set.
fn end_of(proof_end: Option<Duration>, limit: Duration) -> Duration {
    proof_end.map_or(limit, |end| end.min(limit))
}

/// The one owner of the budget, the clock and the trace: it runs the methods of the module
/// documentation in order, each a named step below; the methods neither read the clock
/// nor report.
pub(super) struct Driver<'a, 't> {
    agents: Agents<'a>,
    want: Want,
    limits: Limits,
    started: Instant,
    stopwatch: Stopwatch,
    /// With [`Stopwatch::Wall`]: when the proof stops if earlier than the time limit
    /// (no first plan: the rest of the time goes to finding one).
    proof_end: Option<Duration>,
    /// [`Stopwatch::Counted`]: the time checks left before the proof stops.
    checks_left: std::cell::Cell<u32>,
    techniques: Techniques,
    /// What [`Driver::improve`] does when it has no plan.
    pub(super) last_resort: LastResort,
    /// The threads it may use: with 2 or more and a time limit, the sum of costs' plan is
    /// improved beside the proof.
    threads: std::num::NonZeroUsize,
    trace: &'t mut dyn FnMut(&Event),
    /// Told the sum of costs' plans found beside the proof as they come, from that
    /// thread (every other figure reaches it through `trace`: `solve::observe`).
    progress: Option<&'t Progress>,
}

impl<'a, 't> Driver<'a, 't> {
    pub(super) fn new(
        agents: Agents<'a>,
        want: Want,
        limits: Limits,
        trace: &'t mut dyn FnMut(&Event),
    ) -> Self {
        Driver {
            agents,
            want,
            limits,
            started: Instant::now(),
            stopwatch: Stopwatch::Wall(limits.time_limit),
            proof_end: None,
            checks_left: std::cell::Cell::new(0),
            techniques: Techniques::default(),
            last_resort: LastResort::PushAndSwap,
            threads: std::num::NonZeroUsize::MIN,
            trace,
            progress: None,
        }
    }

    /// The driver telling `progress` what the traced events do not.
    pub(super) fn with_progress(mut self, progress: Option<&'t Progress>) -> Self {
        self.progress = progress;
        self
    }

    /// The driver with `threads` threads instead of one.
    pub(super) fn with_threads(mut self, threads: std::num::NonZeroUsize) -> Self {
        self.threads = threads;
        self
    }

    /// The driver with `techniques` instead of the default ones.
    pub(super) fn with_techniques(mut self, techniques: Techniques) -> Self {
        self.techniques = techniques;
        self
    }

    /// The driver stopped by `stopwatch` instead of the wall clock of `limits`.
    pub(super) fn with_stopwatch(mut self, stopwatch: Stopwatch) -> Self {
        if let Stopwatch::Counted { checks, .. } = stopwatch {
            self.checks_left.set(checks);
        }
        self.stopwatch = stopwatch;
        self
    }

    /// Whether the proof must stop now (each call is one check of
    /// [`Stopwatch::Counted`]).
    fn passed(&self) -> bool {
        passed(
            (self.stopwatch, self.started, self.proof_end),
            &self.checks_left,
        )
    }

    /// When the step under way stops, of a time limit `limit`: the proof's end when set.
    fn end(&self, limit: Duration) -> Duration {
        end_of(self.proof_end, limit)
    }

    fn over(&self, detail: String) -> Unanswered {
        Unanswered::OverBudget {
            budget_mib: self.limits.budget_mib,
            detail,
        }
    }

    /// The instant a SAT decision under way gives up: the time limit (none with
    /// [`Stopwatch::Counted`], which stops between steps only).
    fn deadline(&self) -> sat::Deadline {
        match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => {
                sat::Deadline(self.started.checked_add(self.end(limit)))
            }
            _ => sat::Deadline(None),
        }
    }

    /// The instant at `share` of the time from now to the proof's end (none without a
    /// wall-clock limit).
    fn share_of_proof(&self, share: f64) -> sat::Deadline {
        match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => {
                let now = self.started.elapsed();
                let left = self.end(limit).saturating_sub(now);
                sat::Deadline(self.started.checked_add(now + left.mul_f64(share)))
            }
            _ => sat::Deadline(None),
        }
    }

    /// Stops between steps once the time limit has passed.
    fn check_time(&self) -> Result<(), Unanswered> {
        if self.passed() {
            Err(self.time_passed())
        } else {
            Ok(())
        }
    }

    /// The error of a stop by the time limit.
    fn time_passed(&self) -> Unanswered {
        Unanswered::Time {
            limit: self.limits.time_limit.unwrap_or_default(),
        }
    }

    /// The portfolio of the module documentation; with a time limit, LaCAM*'s first plans
    /// before the proof, and the best of them with the proven bound when a limit stops
    /// it (shortened by [`Driver::improve`], which needs the plans: with a time limit they
    /// are kept until the answer, and dropped then when the caller wants the steps only).
    pub(super) fn run(self, method: Method) -> Result<Answer, Unanswered> {
        let want = self.want;
        let mut answer = self.run_keeping_plans(method)?;
        if want == Want::Steps {
            answer.found.plan = None;
        }
        Ok(answer)
    }

    /// Whether the steps keep their plans: when the caller wants them, and with a time
    /// limit, since [`Driver::improve`] shortens the best plan.
    fn keeps_plans(&self) -> bool {
        self.want == Want::Plan || matches!(self.stopwatch, Stopwatch::Wall(Some(_)))
    }

    /// [`Driver::run`], the plans kept as [`Driver::keeps_plans`] says.
    fn run_keeping_plans(mut self, method: Method) -> Result<Answer, Unanswered> {
        let Agents {
            grid,
            starts,
            goals,
            ..
        } = self.agents;
        let k = starts.len();
        if starts == goals {
            return Ok(Answer::proven(Found::at_start(self.want)));
        }
        let joint_allowed = k <= MAX_GHOSTS as usize;
        let (horizons, test_first) = match method {
            Method::JointSearch => return self.joint_search().map(Answer::proven),
            Method::Auto
                if joint_allowed
                    && (k <= JOINT_SEARCH_AGENTS
                        || placements(grid.cell_count(), k) <= JOINT_SEARCH_PLACEMENTS) =>
            {
                return self.joint_search().map(Answer::proven);
            }
            Method::Auto => (Horizons::PlanThenCore, true),
            Method::Horizons(h) => (h, true),
            Method::HorizonsOnly(h) => (h, false),
        };
        if solvable::goal_out_of_reach(grid, starts, goals) {
            (self.trace)(&Event::LowerBound(None));
            return Ok(Answer::proven(Found::NEVER));
        }
        let budget = self.limits.budget_mib.saturating_mul(MIB);
        let limit = self.limits.time_limit.unwrap_or_default();
        let instance = Instance::within(grid, starts, goals, budget, &mut self.wall_stop())
            .map_err(|refused| refused.unanswered(k, self.limits.budget_mib, limit))?;
        (self.trace)(&Event::LowerBound(instance.lower_bound()));
        let Some(lower_bound) = instance.lower_bound() else {
            return Ok(Answer::proven(Found::NEVER));
        };
        if test_first && solvable::check(&instance) == solvable::Verdict::Never {
            (self.trace)(&Event::NeverSolvable);
            return Ok(Answer::proven(Found::NEVER));
        }
        let options = Options::new(grid);
        let dist = DistTable::known(grid, instance.all_distances());
        // Kept through the proof: the improve phase resumes it.
        let mut search = lacam::Search::new(grid, &options, starts, goals, dist, FIRST_PLAN_SEED);
        let mut incumbent = match self.first_plans(&mut search, lower_bound) {
            FirstPlans::Optimal(found) => return Ok(Answer::proven(found)),
            FirstPlans::Best(found) => Some(found),
            FirstPlans::None => None,
        };
        if let Stopwatch::Wall(Some(limit)) = self.stopwatch {
            self.proof_end = Some(limit.mul_f64(PROOF_SHARE));
        }
        let mut proven_below = lower_bound;
        let mut repairing = None;
        let proof = self.horizons(
            &instance,
            &search,
            horizons,
            lower_bound,
            &mut incumbent,
            &mut proven_below,
            &mut repairing,
        );
        let stopped = match proof {
            Err(stopped @ (Unanswered::Time { .. } | Unanswered::OverBudget { .. })) => stopped,
            Ok(Proof::Exhaustive) => {
                drop(search);
                drop(instance);
                return self.joint_search().map(Answer::proven);
            }
            Ok(Proof::Found(found)) => return Ok(Answer::proven(found)),
            Err(e) => return Err(e),
        };
        self.proof_end = None;
        // The repair goes on only at the horizon that is still the proven bound.
        let repairing =
            repairing.filter(|repair: &repair::Repair<'_, '_>| repair.horizon() == proven_below);
        let best = self.improve(&instance, &mut search, proven_below, incumbent, repairing);
        let Some(best) = best else {
            return Err(stopped);
        };
        if best.steps.is_some_and(|steps| steps <= proven_below) {
            // A plan found after the proof stopped that meets its bound proves itself.
            return Ok(Answer::proven(best));
        }
        (self.trace)(&Event::Unproven {
            cost: best.steps.map_or(0, u64::from),
            lower_bound: u64::from(proven_below),
        });
        Ok(Answer {
            found: best,
            unproven_bound: Some(proven_below),
        })
    }

    /// What a step under way asks to know whether the time limit has passed: the wall
    /// clock against the limit (never with [`Stopwatch::Counted`], which stops between
    /// steps only, nor without a limit).
    fn wall_stop(&self) -> impl FnMut() -> bool + use<> {
        let deadline = self.wall_deadline();
        move || deadline.is_some_and(|deadline| Instant::now() > deadline)
    }

    /// The instant of [`Driver::wall_stop`], if any.
    fn wall_deadline(&self) -> Option<Instant> {
        match self.stopwatch {
            Stopwatch::Wall(Some(limit)) => self.started.checked_add(self.end(limit)),
            _ => None,
        }
    }

    /// Whether the wall clock has passed the proof's end (never without a time limit).
    fn wall_passed(&self) -> bool {
        self.wall_deadline()
            .is_some_and(|deadline| Instant::now() > deadline)
    }

    /// The memory left for one horizon's method: the budget less the distances (again for
    /// the agents of a SAT core, which get an instance of their own), the map's numbering
    /// (4 bytes a square, 24 a cell) and the encoding's move table and scratch (29 bytes a
    /// cell).
    fn room(&self, distance_bytes: u64) -> u64 {
        let grid = self.agents.grid;
        let squares = (grid.height() as u64).saturating_mul(grid.width() as u64);
        let map_bytes = squares * 4 + grid.cell_count() as u64 * (24 + 29);
        self.limits
            .budget_mib
            .saturating_mul(MIB)
            .saturating_sub(distance_bytes.saturating_mul(2).saturating_add(map_bytes))
    }

    /// The solution of makespan `horizon` made of `paths` (every agent's cell at 0..=T).
    fn found(&self, horizon: u32, paths: &[Vec<u32>]) -> Found {
        Found {
            steps: Some(horizon),
            plan: self
                .keeps_plans()
                .then(|| constructive::to_placements(paths, horizon)),
            expanded: 0,
        }
    }
}

/// Every agent's cell at 0..=T of the plan `plan` (placements after steps 1..=T) from
/// `starts`.
fn paths_of(starts: &[CellId], plan: &[Vec<CellId>]) -> Vec<Vec<u32>> {
    let mut paths: Vec<Vec<u32>> = starts.iter().map(|s| vec![s.index() as u32]).collect();
    for placement in plan {
        for (path, cell) in paths.iter_mut().zip(placement) {
            path.push(cell.index() as u32);
        }
    }
    paths
}

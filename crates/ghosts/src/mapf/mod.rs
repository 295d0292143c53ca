//! Makespan-optimal multi-agent path finding: the ghosts rules (vertex and swap conflicts
//! forbidden, following and rotations allowed) for many agents.
//!
//! The method, chosen per instance ([`solve`]):
//! 1. distances home for every agent; a goal out of reach, or one of the shapes
//!    [`solvable`] decides at once, answers `-1`;
//! 2. few agents on a small map: the joint-placement A* of [`crate::search`] (exact and
//!    complete, the fastest there);
//! 3. otherwise horizons T = LB, LB + 1, ... from the lower bound LB (the largest
//!    single-agent distance): for each, prioritized planning ([`constructive`]) and, when
//!    it fails, the exact decision ([`sat`]) on a growing core of agents, the others
//!    planned around the core's plan ([`refine`]). When a small core has no plan at T,
//!    the joint search gives that core's own optimum, a lower bound for the whole
//!    instance (a subset of the agents is a relaxation): the horizons below it are
//!    skipped, and a core with no plan at all answers `-1` (cores of up to 6 agents).
//!    The first T that has a plan is the optimum, since every smaller one was proved
//!    impossible (or is below LB).
//!
//! Step 3 alone cannot prove that no plan exists at all. When [`solvable`] cannot tell
//! and the horizons pass LB + [`HORIZONS_BEFORE_EXHAUSTIVE`] without a plan, the joint
//! search takes over (up to 26 agents), which ends with the answer or the over-budget
//! error.
//!
//! The order of these steps, the time and memory each gets, and the answer when a limit
//! stops them are the driver's (`driver/`, one file per step); the methods are the
//! modules below, and [`Event`] (`event.rs`) is what the driver reports.
//!
//! # Complexity
//! O(K x C) for the distances and the tests; then as [`constructive`] and [`sat`] per
//! horizon, or as [`crate::search`].

pub mod adaptive;
pub mod constructive;
pub mod dist_table;
pub mod lacam;
pub mod lns;
pub mod pibt;
pub mod push_swap;
pub mod refine;
pub mod repair;
pub mod result_file;
pub mod sat;
pub mod show;
pub mod soc;
pub mod solvable;

mod driver;
mod event;

use std::time::Duration;

use grid_core::UNREACHABLE;
use grid_core::limits::MIB;
use grid_core::{CellId, Grid};

use crate::dataset::{Dataset, Want};
use crate::progress::Progress;
use crate::search::Found;
use driver::{Driver, soc_driven};

pub(crate) use driver::Answer;
pub use event::Event;

/// Horizons past the lower bound tried before an instance that [`solvable`] cannot
/// decide goes to the exhaustive joint search.
pub const HORIZONS_BEFORE_EXHAUSTIVE: u32 = 64;

/// An instance: a grid, and the start and goal of every agent.
#[derive(Debug, Clone)]
pub struct Instance<'a> {
    /// The free cells.
    pub grid: &'a Grid,
    /// Start of agent `i`.
    pub starts: &'a [CellId],
    /// Goal of agent `i`.
    pub goals: &'a [CellId],
    /// Per agent, per cell: steps to its goal alone ([`UNREACHABLE`] where none).
    to_goal: Vec<GoalDistances>,
}

/// One agent's steps to its goal from every cell, in 2 bytes a cell when its longest
/// finite distance fits (every map whose cells are fewer than 65,535, and in practice
/// nearly every other), else 4: on orz900d (96,603 cells) with 1000 agents the tables are
/// most of the process's memory (369 of 432 MiB at 4 bytes, measured at `c6312d4`).
#[derive(Debug, Clone)]
pub enum GoalDistances {
    /// Distances below `u16::MAX`; `u16::MAX` stands for [`UNREACHABLE`].
    Short(Box<[u16]>),
    /// Distances as they are.
    Long(Box<[u32]>),
}

impl GoalDistances {
    /// The compact form of `full` (one distance per cell, [`UNREACHABLE`] where none).
    ///
    /// # Complexity
    /// O(C).
    pub fn new(full: Vec<u32>) -> Self {
        let short = |d: u32| d == UNREACHABLE || d < u32::from(u16::MAX);
        if full.iter().all(|&d| short(d)) {
            GoalDistances::Short(
                full.iter()
                    .map(|&d| u16::try_from(d).unwrap_or(u16::MAX))
                    .collect(),
            )
        } else {
            GoalDistances::Long(full.into_boxed_slice())
        }
    }

    /// The view that reads it.
    pub fn view(&self) -> Distances<'_> {
        match self {
            GoalDistances::Short(d) => Distances::Short(d),
            GoalDistances::Long(d) => Distances::Long(d),
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        match self {
            GoalDistances::Short(d) => 2 * d.len() as u64,
            GoalDistances::Long(d) => 4 * d.len() as u64,
        }
    }
}

/// A read-only view of [`GoalDistances`]: steps from a cell (by index) to the goal.
#[derive(Debug, Clone, Copy)]
pub enum Distances<'i> {
    /// See [`GoalDistances::Short`].
    Short(&'i [u16]),
    /// See [`GoalDistances::Long`].
    Long(&'i [u32]),
}

impl<'i> Distances<'i> {
    /// Steps from the cell of index `cell` ([`UNREACHABLE`] when there is no way).
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn at(self, cell: usize) -> u32 {
        match self {
            Distances::Short(d) => match d[cell] {
                u16::MAX => UNREACHABLE,
                x => u32::from(x),
            },
            Distances::Long(d) => d[cell],
        }
    }

    /// Every cell's, in cell order.
    pub fn iter(self) -> impl Iterator<Item = u32> + 'i {
        let len = match self {
            Distances::Short(d) => d.len(),
            Distances::Long(d) => d.len(),
        };
        (0..len).map(move |cell| self.at(cell))
    }
}

/// Why [`Instance::within`] built no instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The distance tables would pass the budget: the bytes they need at least.
    Bytes(u64),
    /// The stop check said so while they were built.
    Stopped,
}

impl Refused {
    /// What the solve answers when the tables of `k` agents were refused under a budget
    /// of `budget_mib` MiB, or stopped by a time `limit`.
    pub fn unanswered(self, k: usize, budget_mib: u64, limit: Duration) -> Unanswered {
        match self {
            Refused::Bytes(needed) => Unanswered::OverBudget {
                budget_mib,
                detail: format!(
                    "{} MiB for the distances of {k} agents",
                    needed.div_ceil(MIB)
                ),
            },
            Refused::Stopped => Unanswered::Time { limit },
        }
    }
}

/// The cells [`Instance::within`] searches between two looks at its stop check: a few
/// milliseconds of breadth-first search.
pub const LOOK_EVERY_CELLS: usize = 1 << 22;

impl<'a> Instance<'a> {
    /// The instance, with every agent's distances to its goal.
    ///
    /// # Complexity
    /// O(K x C) time and memory.
    pub fn new(grid: &'a Grid, starts: &'a [CellId], goals: &'a [CellId]) -> Self {
        Self::within(grid, starts, goals, u64::MAX, &mut || false)
            .unwrap_or_else(|_| unreachable!("no table is larger than u64::MAX bytes"))
    }

    /// [`Instance::new`] when its distance tables take at most `max_bytes`, and `stop`
    /// (asked between two agents' tables once [`LOOK_EVERY_CELLS`] cells were searched
    /// since it was last asked: a few milliseconds) does not say stop.
    ///
    /// # Errors
    /// [`Refused::Bytes`] with the bytes the tables would need at least: at once when two
    /// bytes a cell for every agent pass `max_bytes` (no table takes less), else as they
    /// are built (so the process never holds more than `max_bytes` of them plus one
    /// agent's full table); [`Refused::Stopped`] when `stop` said so.
    ///
    /// # Complexity
    /// O(K x C) time, O(min(K x C, max_bytes)) memory.
    pub fn within(
        grid: &'a Grid,
        starts: &'a [CellId],
        goals: &'a [CellId],
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Self, Refused> {
        let least = 2 * grid.cell_count() as u64 * goals.len() as u64;
        if least > max_bytes {
            return Err(Refused::Bytes(least));
        }
        let mut to_goal = Vec::with_capacity(goals.len());
        let (mut bytes, mut searched) = (0u64, 0);
        for (built, &goal) in goals.iter().enumerate() {
            if searched >= LOOK_EVERY_CELLS {
                searched = 0;
                if stop() {
                    return Err(Refused::Stopped);
                }
            }
            searched += grid.cell_count();
            let table = GoalDistances::new(grid.distances(goal, None));
            bytes += table.bytes();
            if bytes > max_bytes {
                let per_agent = bytes / (built as u64 + 1);
                return Err(Refused::Bytes(per_agent.saturating_mul(goals.len() as u64)));
            }
            to_goal.push(table);
        }
        Ok(Instance {
            grid,
            starts,
            goals,
            to_goal,
        })
    }

    /// Steps from every cell to agent `agent`'s goal.
    pub fn distances(&self, agent: usize) -> Distances<'_> {
        self.to_goal[agent].view()
    }

    /// Per agent, per cell: steps to its goal ([`UNREACHABLE`] where none).
    pub fn all_distances(&self) -> &[GoalDistances] {
        &self.to_goal
    }

    /// Bytes the distance tables hold.
    pub fn distance_bytes(&self) -> u64 {
        self.to_goal.iter().map(GoalDistances::bytes).sum()
    }

    /// Steps from `cell` to agent `agent`'s goal ([`UNREACHABLE`] when there is no way).
    pub fn distance(&self, agent: usize, cell: CellId) -> u32 {
        self.to_goal[agent].view().at(cell.index())
    }

    /// The largest single-agent distance: no plan is shorter. `None` when some agent
    /// cannot reach its goal at all.
    pub fn lower_bound(&self) -> Option<u32> {
        (0..self.starts.len())
            .map(|a| self.distance(a, self.starts[a]))
            .try_fold(0, |lb, d| (d != UNREACHABLE).then_some(lb.max(d)))
    }
}

/// What a solve minimises (`--objective`).
///
/// Both count steps under the same rules (`docs/mapf.md`); they differ in what is summed
/// up. Every instance that has a plan for one has a plan for the other, so both answer
/// `None` on the same instances.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Objective {
    /// The steps until the last agent is home (`makespan`, the default; UVa 1601's
    /// answer).
    #[default]
    Makespan,
    /// The sum over the agents of the step at which each reaches its goal for the last
    /// time and stays (`soc`, the MAPF field's standard objective).
    #[cfg_attr(feature = "cli", value(name = "soc"))]
    SumOfCosts,
}

/// Which method answers (for tests, which compare them, and for experiments).
///
/// [`Method::JointSearch`] takes at most [`crate::dataset::MAX_GHOSTS`] agents (the keys of its
/// placements hold no more); the others take any number.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The portfolio of the module documentation.
    Auto,
    /// The joint-placement A* only (at most 26 agents).
    JointSearch,
    /// Horizons from the lower bound, each decided as said.
    Horizons(Horizons),
    /// As [`Method::Horizons`], without the up-front unsolvability test of [`solvable`]:
    /// an unsolvable instance is then answered by the horizons themselves (a small core
    /// with no plan at all, or the joint search past [`HORIZONS_BEFORE_EXHAUSTIVE`]
    /// horizons). For tests of those paths, which the test would otherwise settle first.
    HorizonsOnly(Horizons),
}

/// How each horizon is decided.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizons {
    /// Prioritized planning first, then the SAT decision on a growing core of agents
    /// ([`refine`]) when it fails.
    PlanThenCore,
    /// Prioritized planning first, then LaCAM*'s dives from other seeds (each within
    /// `OTHER_SEEDS_COUNTED_NODES` nodes, `driver/first_plans.rs`) and the collision repair ([`repair`], at most
    /// `REPAIR_COUNTED_STEPS` steps, `driver/horizons.rs`) at every horizon, then the SAT decision on a
    /// growing core of agents: for the tests, which compare the dives' and the repair's
    /// plans with the exhaustive optimum at every horizon (the default runs them at the
    /// bound only, with a time limit).
    PlanRepairCore,
    /// Prioritized planning first, the SAT decision on every agent when it fails.
    PlanThenSat,
    /// The SAT decision only.
    SatOnly,
}

/// The switchable techniques of the makespan's driver (each on by default), so that a
/// test compares the answers with each on and off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Techniques {
    /// The collision repair (`mapf/repair.rs`) at the lower bound when prioritized planning
    /// fails there and a small SAT core does not decide it: a plan with no collision is
    /// the optimum.
    pub repair: bool,
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques { repair: true }
    }
}

/// Why an instance got no answer. The front door's [`crate::SolveError`] says the same
/// to a caller (`impl From<Unanswered> for SolveError`, the one place the two meet).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unanswered {
    /// The next step of the search would pass the memory budget.
    #[error("the memory budget of {budget_mib} MiB is too small: {detail}")]
    OverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// What ran out, in words.
        detail: String,
    },
    /// The joint search would store more placements than the budget holds.
    #[error(
        "the memory budget of {budget_mib} MiB is too small: the search ran out after storing {placements} placements"
    )]
    JointOverBudget {
        /// The budget, in MiB.
        budget_mib: u64,
        /// Placements stored when the budget ran out.
        placements: usize,
    },
    /// The time limit passed between two steps of the search.
    #[error("the time limit of {limit:?} passed")]
    Time {
        /// The limit.
        limit: Duration,
    },
}

/// The fewest steps that bring every agent from `starts` to `goals` on `grid` (distinct
/// starts, distinct goals, all on cells of `grid`), by `method`, within `budget_mib` MiB;
/// with the plan when `want` asks for it.
///
/// # Errors
/// [`Unanswered::OverBudget`] when the search cannot finish within the budget.
///
/// # Complexity
/// See the module documentation.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn solve(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    want: Want,
    budget_mib: u64,
    method: Method,
) -> Result<Found, Unanswered> {
    solve_traced(grid, starts, goals, want, budget_mib, method, &mut |_| {})
}

/// [`solve`], telling `trace` every step as it is decided (the `--verbose` flag of the
/// binary, and the bench's "settled by" column).
///
/// # Errors
/// As [`solve`].
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn solve_traced(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    want: Want,
    budget_mib: u64,
    method: Method,
    trace: &mut dyn FnMut(&Event),
) -> Result<Found, Unanswered> {
    solve_with(
        grid,
        starts,
        goals,
        want,
        budget_mib,
        method,
        Techniques::default(),
        trace,
    )
}

/// [`solve_traced`] with `techniques` (for the tests, which compare the answers with
/// each technique on and off).
///
/// # Errors
/// As [`solve`].
#[allow(clippy::too_many_arguments)] // the arguments of `solve_traced` and the switches
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn solve_with(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    want: Want,
    budget_mib: u64,
    method: Method,
    techniques: Techniques,
    trace: &mut dyn FnMut(&Event),
) -> Result<Found, Unanswered> {
    let agents = Agents {
        grid,
        starts,
        goals,
        dataset: None,
    };
    let limits = Limits {
        budget_mib,
        time_limit: None,
        threads: std::num::NonZeroUsize::MIN,
    };
    Driver::new(agents, want, limits, trace)
        .with_techniques(techniques)
        .run(method)
        .map(|answer| answer.found)
}

/// The makespan's answer within `limits` with `last_resort` (for the tests of the
/// switch): the steps of the best plan (`None`: proven that none exists) and the proven
/// lower bound (the steps when proven).
///
/// # Errors
/// As [`solve_agents`].
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn solve_with_last_resort(
    agents: Agents<'_>,
    limits: Limits,
    last_resort: LastResort,
) -> Result<(Option<u32>, Option<u32>), Unanswered> {
    let mut trace = |_: &Event| {};
    let mut driver = Driver::new(agents, Want::Steps, limits, &mut trace);
    driver.last_resort = last_resort;
    let answer = driver.run(Method::Auto)?;
    let steps = answer.found.steps;
    Ok((steps, answer.unproven_bound.or(steps)))
}

/// [`solve_traced`] with every limit of the front door, on the agents of a dataset or of
/// a benchmark instance.
pub(crate) fn solve_agents(
    agents: Agents<'_>,
    want: Want,
    limits: Limits,
    trace: &mut dyn FnMut(&Event),
) -> Result<Answer, Unanswered> {
    Driver::new(agents, want, limits, trace).run(Method::Auto)
}

/// The least sum of costs for the agents, with a plan (its makespan as short as the
/// plan's costs allow: the steps after the last agent is home are dropped), and the
/// proven lower bound (the cost itself when proven); `None` when no plan exists. With a
/// time limit, LaCAM*'s first plans come first (as for the makespan), and a limit that
/// stops the proof leaves the best plan with the bound.
///
/// # Errors
/// As [`solve_agents`], when a limit stops the proof with no plan known.
pub(crate) fn solve_agents_soc(
    agents: Agents<'_>,
    limits: Limits,
    threads: std::num::NonZeroUsize,
    trace: &mut dyn FnMut(&Event),
    progress: Option<&Progress>,
) -> Result<Option<(soc::SocPlan, u64)>, Unanswered> {
    let Agents { starts, goals, .. } = agents;
    if starts == goals {
        let plan = soc::SocPlan {
            cost: 0,
            lower_bound: 0,
            paths: starts.iter().map(|s| vec![s.index() as u32]).collect(),
        };
        return Ok(Some((plan, 0)));
    }
    soc_driven(
        Driver::new(agents, Want::Plan, limits, trace)
            .with_threads(threads)
            .with_progress(progress),
        soc::Techniques::default(),
    )
}

/// The agents of an instance, and the dataset they come from when there is one (the joint
/// search runs on a dataset: an instance without one gets a copy when it needs it).
#[derive(Debug, Clone, Copy)]
pub struct Agents<'a> {
    /// The free cells.
    pub grid: &'a Grid,
    /// Start of agent `i`.
    pub starts: &'a [CellId],
    /// Goal of agent `i`.
    pub goals: &'a [CellId],
    /// The dataset of these agents, if they come from one.
    pub dataset: Option<&'a Dataset>,
}

/// The limits the driver keeps: memory, and optionally wall time (checked between steps:
/// a step under way finishes first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Memory, in MiB.
    pub budget_mib: u64,
    /// Wall time from the start of the solve.
    pub time_limit: Option<Duration>,
    /// Threads the makespan's search may use: with 2 or more, a SAT decision still
    /// deciding after [`sat::RIVAL_AFTER`] is raced by a second solver configuration
    /// when the budget holds both ([`sat::decide_raced`]).
    pub threads: std::num::NonZeroUsize,
}

/// What the driver does when nothing else gave a plan within the time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastResort {
    /// LaCAM* for half the time left, then Push and Swap (`mapf/push_swap.rs`).
    PushAndSwap,
    /// LaCAM* until the time limit (as before Push and Swap).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests
    LacamOnly,
}

/// When a solve stops its proof.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // `Counted` is for the tests
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopwatch {
    /// The wall clock: LaCAM*'s first plans for a share of the limit, the proof stopped
    /// past it; `None`: no limit, no first plans, every answer a proof.
    Wall(Option<Duration>),
    /// Counted steps instead, so that a test stops at the same place on every machine:
    /// LaCAM* for `first_plan_nodes` expansions, the proof at its `checks`-th check of
    /// the time (between the steps of the search).
    Counted {
        /// LaCAM*'s expansions.
        first_plan_nodes: u64,
        /// The proof's checks.
        checks: u32,
    },
}

/// The answer of [`solve_stopped`].
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    /// The placements after each step.
    pub plan: Vec<Vec<CellId>>,
    /// The objective's value of the plan.
    pub cost: u64,
    /// The proven lower bound (`cost` when proven).
    pub lower_bound: u64,
}

/// What the driver answers, makespan or sum of costs, stopped by `stopwatch`: for the
/// tests of the anytime answers (`Err` only when no plan was found before the stop).
///
/// # Errors
/// As [`solve_agents`].
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn solve_stopped(
    agents: Agents<'_>,
    objective: Objective,
    method: Method,
    budget_mib: u64,
    stopwatch: Stopwatch,
) -> Result<Option<Stopped>, Unanswered> {
    let limits = Limits {
        budget_mib,
        time_limit: None,
        threads: std::num::NonZeroUsize::MIN,
    };
    let mut trace = |_: &Event| {};
    let driver = Driver::new(agents, Want::Plan, limits, &mut trace).with_stopwatch(stopwatch);
    match objective {
        Objective::Makespan => {
            let answer = driver.run(method)?;
            Ok(answer.found.steps.map(|steps| {
                let plan = answer.found.plan.unwrap_or_default();
                let bound = answer.unproven_bound.unwrap_or(steps);
                Stopped {
                    plan,
                    cost: u64::from(steps),
                    lower_bound: u64::from(bound),
                }
            }))
        }
        Objective::SumOfCosts => Ok(soc_driven(driver, soc::Techniques::default())?.map(
            |(plan, bound)| Stopped {
                plan: plan.placements(),
                cost: plan.cost,
                lower_bound: bound,
            },
        )),
    }
}

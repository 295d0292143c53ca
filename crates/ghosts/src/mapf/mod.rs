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
//! # Complexity
//! O(K x C) for the distances and the tests; then as [`constructive`] and [`sat`] per
//! horizon, or as [`crate::search`].

pub mod constructive;
pub mod dist_table;
pub mod lacam;
pub mod pibt;
pub mod refine;
pub mod result_file;
pub mod sat;
pub mod show;
pub mod solvable;

use std::time::Instant;

use grid_core::bfs::UNREACHABLE;
use grid_core::limits::MIB;
use grid_core::{CellId, Grid};

use crate::problem::Dataset;
use crate::search::{self, Plan, Solution};

/// Horizons past the lower bound tried before an instance that [`solvable`] cannot
/// decide goes to the exhaustive joint search.
pub const HORIZONS_BEFORE_EXHAUSTIVE: u32 = 64;

/// Priority orders prioritized planning tries per horizon.
const PLANNING_ATTEMPTS: usize = 8;

/// Agents up to this many go to the joint search (the classic 1 to 3 ghosts; measured:
/// the bench's 3-ghost rows are fastest there).
const JOINT_SEARCH_AGENTS: usize = 3;

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
const JOINT_SEARCH_PLACEMENTS: u64 = 1 << 20;

/// C! / (C - K)!, the placements of K agents on C cells, saturated.
fn placements(cells: usize, agents: usize) -> u64 {
    (0..agents).fold(1u64, |p, i| {
        p.saturating_mul(cells.saturating_sub(i) as u64)
    })
}

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
    to_goal: Vec<Vec<u32>>,
}

impl<'a> Instance<'a> {
    /// The instance, with every agent's distances to its goal.
    ///
    /// # Complexity
    /// O(K x C) time and memory.
    pub fn new(grid: &'a Grid, starts: &'a [CellId], goals: &'a [CellId]) -> Self {
        let to_goal = goals.iter().map(|&g| grid.distances(g, None)).collect();
        Instance {
            grid,
            starts,
            goals,
            to_goal,
        }
    }

    /// Steps from every cell to agent `agent`'s goal.
    pub fn distances(&self, agent: usize) -> &[u32] {
        &self.to_goal[agent]
    }

    /// Steps from `cell` to agent `agent`'s goal ([`UNREACHABLE`] when there is no way).
    pub fn distance(&self, agent: usize, cell: CellId) -> u32 {
        self.to_goal[agent][cell.index()]
    }

    /// The largest single-agent distance: no plan is shorter. `None` when some agent
    /// cannot reach its goal at all.
    pub fn lower_bound(&self) -> Option<u32> {
        (0..self.starts.len())
            .map(|a| self.distance(a, self.starts[a]))
            .try_fold(0, |lb, d| (d != UNREACHABLE).then_some(lb.max(d)))
    }
}

/// Which method answers (for tests, which compare them, and for experiments).
///
/// [`Method::JointSearch`] takes at most [`crate::MAX_GHOSTS`] agents (the keys of its
/// placements hold no more); the others take any number.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizons {
    /// Prioritized planning first, then the SAT decision on a growing core of agents
    /// ([`refine`]) when it fails.
    PlanThenCore,
    /// Prioritized planning first, the SAT decision on every agent when it fails.
    PlanThenSat,
    /// The SAT decision only.
    SatOnly,
}

/// Why an instance got no answer.
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
}

/// The fewest steps that bring every agent from `starts` to `goals` on `grid` (distinct
/// starts, distinct goals, all on cells of `grid`), by `method`, within `budget_mib` MiB;
/// with the plan when `want_plan`.
///
/// # Errors
/// [`Unanswered::OverBudget`] when the search cannot finish within the budget.
///
/// # Complexity
/// See the module documentation.
pub fn solve(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    want_plan: bool,
    budget_mib: u64,
    method: Method,
) -> Result<Solution, Unanswered> {
    solve_traced(
        grid,
        starts,
        goals,
        want_plan,
        budget_mib,
        method,
        &mut |_| {},
    )
}

/// One step of [`solve_traced`]: what was decided, how, and how long it took.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The lower bound (largest single-agent distance); `None` when a goal is out of reach.
    LowerBound(Option<u32>),
    /// The unsolvability test of [`solvable`] proved that no plan exists.
    NeverSolvable,
    /// The joint-placement A* of [`crate::search`] answered.
    JointSearch {
        /// Its answer.
        steps: Option<u32>,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// Prioritized planning ([`constructive`]) at one horizon.
    Planning {
        /// The horizon T.
        horizon: u32,
        /// Whether it found a plan of makespan T.
        found: bool,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The SAT decision on a growing core of agents ([`refine`]) at one horizon.
    Core {
        /// The horizon T.
        horizon: u32,
        /// Whether a plan of makespan T exists (else it is proved impossible).
        found: bool,
        /// Agents in the last core.
        agents: usize,
        /// SAT decisions made (one per core).
        rounds: usize,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The joint search on a core that had no plan at a horizon: its optimum is a lower
    /// bound for the whole instance.
    CoreOptimum {
        /// The horizon the core had no plan at.
        horizon: u32,
        /// Agents in the core.
        agents: usize,
        /// The core's optimum (`None`: it cannot be solved at all; also `None` with
        /// `fits == false` when the search did not fit its memory).
        steps: Option<u32>,
        /// Whether the search finished within its memory.
        fits: bool,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The SAT decision on every agent ([`sat`]) at one horizon.
    Sat {
        /// The horizon T.
        horizon: u32,
        /// Whether a plan of makespan T exists (else it is proved impossible).
        found: bool,
        /// Variables of the encoding.
        variables: u64,
        /// Wall seconds it took.
        seconds: f64,
    },
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = |found: bool| if found { "plan" } else { "none" };
        match self {
            Event::LowerBound(Some(lb)) => write!(f, "lower bound {lb}"),
            Event::LowerBound(None) => write!(f, "lower bound: a goal is out of reach"),
            Event::NeverSolvable => write!(f, "settled by the unsolvability test: -1"),
            Event::JointSearch { steps, seconds } => write!(
                f,
                "settled by the joint search: {} ({seconds:.3} s)",
                steps.map_or(-1, i64::from)
            ),
            Event::Planning {
                horizon,
                found,
                seconds,
            } => write!(
                f,
                "{}planning at T = {horizon}: {} ({seconds:.3} s)",
                if *found { "settled by " } else { "" },
                verdict(*found)
            ),
            Event::Core {
                horizon,
                found,
                agents,
                rounds,
                seconds,
            } => write!(
                f,
                "{}sat on a core at T = {horizon}: {} ({agents} agents in the core, {rounds} \
                 rounds, {seconds:.3} s)",
                if *found { "settled by " } else { "" },
                verdict(*found)
            ),
            Event::CoreOptimum {
                horizon,
                agents,
                steps,
                fits,
                seconds,
            } => match (fits, steps) {
                (false, _) => write!(
                    f,
                    "joint search on the {agents}-agent core of T = {horizon}: over its memory \
                     ({seconds:.3} s)"
                ),
                (true, Some(steps)) => write!(
                    f,
                    "joint search on the {agents}-agent core of T = {horizon}: optimum \
                     {steps}, the new lower bound ({seconds:.3} s)"
                ),
                (true, None) => write!(
                    f,
                    "settled by the joint search on the {agents}-agent core of T = \
                     {horizon}: -1 ({seconds:.3} s)"
                ),
            },
            Event::Sat {
                horizon,
                found,
                variables,
                seconds,
            } => write!(
                f,
                "{}sat at T = {horizon}: {} ({variables} variables, {seconds:.3} s)",
                if *found { "settled by " } else { "" },
                verdict(*found)
            ),
        }
    }
}

/// [`solve`], telling `trace` every step as it is decided (the `--verbose` flag of the
/// binary, and the bench's "settled by" column).
///
/// # Errors
/// As [`solve`].
pub fn solve_traced(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    want_plan: bool,
    budget_mib: u64,
    method: Method,
    trace: &mut dyn FnMut(&Event),
) -> Result<Solution, Unanswered> {
    solve_with_dataset(
        grid, starts, goals, None, want_plan, budget_mib, method, trace,
    )
}

/// [`solve`] for a [`Dataset`]: its joint search runs on the dataset itself (no copy of
/// the map).
pub(crate) fn solve_dataset(
    dataset: &Dataset,
    want_plan: bool,
    budget_mib: u64,
    method: Method,
) -> Result<Solution, Unanswered> {
    let (grid, starts, goals) = (&dataset.grid, &dataset.starts, &dataset.homes);
    solve_with_dataset(
        grid,
        starts,
        goals,
        Some(dataset),
        want_plan,
        budget_mib,
        method,
        &mut |_| {},
    )
}

#[allow(clippy::too_many_arguments)]
fn solve_with_dataset(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    dataset: Option<&Dataset>,
    want_plan: bool,
    budget_mib: u64,
    method: Method,
    trace: &mut dyn FnMut(&Event),
) -> Result<Solution, Unanswered> {
    let k = starts.len();
    let budget = budget_mib.saturating_mul(MIB);
    let over = |detail: String| Unanswered::OverBudget { budget_mib, detail };
    if starts == goals {
        return Ok(Solution {
            steps: Some(0),
            plan: want_plan.then(Vec::new),
            expanded: 0,
        });
    }
    let joint = |budget_mib: u64, trace: &mut dyn FnMut(&Event)| {
        let clock = Instant::now();
        let copy;
        let dataset = match dataset {
            Some(dataset) => dataset,
            None => {
                copy = Dataset {
                    grid: grid.clone(),
                    starts: starts.to_vec(),
                    homes: goals.to_vec(),
                    header_line: 1,
                };
                &copy
            }
        };
        let solution = search::solve(dataset, want_plan, budget_mib).map_err(|e| {
            Unanswered::JointOverBudget {
                budget_mib,
                placements: e.placements,
            }
        })?;
        trace(&Event::JointSearch {
            steps: solution.steps,
            seconds: clock.elapsed().as_secs_f64(),
        });
        Ok(solution)
    };
    let joint_allowed = k <= crate::parse::MAX_GHOSTS as usize;
    let (horizons, test_first) = match method {
        Method::JointSearch => return joint(budget_mib, trace),
        Method::Auto
            if joint_allowed
                && (k <= JOINT_SEARCH_AGENTS
                    || placements(grid.cell_count(), k) <= JOINT_SEARCH_PLACEMENTS) =>
        {
            return joint(budget_mib, trace);
        }
        Method::Auto => (Horizons::PlanThenCore, true),
        Method::Horizons(h) => (h, true),
        Method::HorizonsOnly(h) => (h, false),
    };
    let distance_bytes = (k as u64).saturating_mul(grid.cell_count() as u64 * 4);
    if distance_bytes > budget {
        return Err(over(format!(
            "{} MiB for the distances of {k} agents",
            distance_bytes.div_ceil(MIB)
        )));
    }
    let instance = Instance::new(grid, starts, goals);
    let never = Solution {
        steps: None,
        plan: None,
        expanded: 0,
    };
    trace(&Event::LowerBound(instance.lower_bound()));
    let Some(lower_bound) = instance.lower_bound() else {
        return Ok(never);
    };
    if test_first && solvable::check(&instance) == solvable::Verdict::Never {
        trace(&Event::NeverSolvable);
        return Ok(never);
    }
    // Besides the search: the distances (again for the agents of a SAT core, which get an
    // instance of their own), the map's numbering (4 bytes a square, 24 a cell) and the
    // encoding's move table and scratch (29 bytes a cell).
    let squares = (grid.height() as u64).saturating_mul(grid.width() as u64);
    let map_bytes = squares * 4 + grid.cell_count() as u64 * (24 + 29);
    let room = budget.saturating_sub(distance_bytes.saturating_mul(2).saturating_add(map_bytes));
    let mut horizon = lower_bound;
    let mut tried_cores: Vec<Vec<usize>> = Vec::new();
    loop {
        if horizon > lower_bound.saturating_add(HORIZONS_BEFORE_EXHAUSTIVE) && joint_allowed {
            drop(instance);
            return joint(budget_mib, trace);
        }
        if horizons != Horizons::SatOnly {
            let need = constructive::memory_need(grid, horizon, k);
            if need > room {
                return Err(over(format!(
                    "{} MiB for planning {k} agents over {horizon} steps",
                    need.div_ceil(MIB)
                )));
            }
            let clock = Instant::now();
            let paths = constructive::plan_at(&instance, horizon, PLANNING_ATTEMPTS);
            trace(&Event::Planning {
                horizon,
                found: paths.is_some(),
                seconds: clock.elapsed().as_secs_f64(),
            });
            if let Some(paths) = paths {
                return Ok(found(horizon, &paths, want_plan));
            }
        }
        let clock = Instant::now();
        let decision = if horizons == Horizons::PlanThenCore {
            let max_variables = room / sat::BYTES_PER_VARIABLE;
            let refined = refine::decide(&instance, horizon, max_variables).map_err(|e| {
                over(format!(
                    "about {} MiB for the SAT encoding of makespan {horizon} ({} variables)",
                    e.variables
                        .saturating_mul(sat::BYTES_PER_VARIABLE)
                        .div_ceil(MIB),
                    e.variables
                ))
            })?;
            trace(&Event::Core {
                horizon,
                found: matches!(refined.decision, sat::Decision::Plan(_)),
                agents: refined.core,
                rounds: refined.rounds,
                seconds: clock.elapsed().as_secs_f64(),
            });
            let small = refined.core_agents.len() <= CORE_JOINT_AGENTS;
            if refined.decision == sat::Decision::Impossible
                && small
                && tried_cores.len() < CORE_JOINT_TRIES
                && !tried_cores.contains(&refined.core_agents)
            {
                let joint_mib = (room / MIB / 2).min(CORE_JOINT_MIB);
                let clock = Instant::now();
                let optimum = core_optimum(grid, starts, goals, &refined.core_agents, joint_mib);
                trace(&Event::CoreOptimum {
                    horizon,
                    agents: refined.core_agents.len(),
                    steps: optimum.flatten(),
                    fits: optimum.is_some(),
                    seconds: clock.elapsed().as_secs_f64(),
                });
                match optimum {
                    Some(None) => return Ok(never),
                    // Every horizon below the core's optimum is impossible for the core,
                    // so for the whole instance; the loop goes on from there.
                    Some(Some(steps)) if steps > horizon + 1 => horizon = steps - 1,
                    _ => {}
                }
                tried_cores.push(refined.core_agents);
            }
            refined.decision
        } else {
            let variables = sat::count_variables(&instance, horizon);
            let need = variables.saturating_mul(sat::BYTES_PER_VARIABLE);
            if need > room {
                return Err(over(format!(
                    "about {} MiB for the SAT encoding of makespan {horizon} ({variables} \
                     variables)",
                    need.div_ceil(MIB)
                )));
            }
            let decision = sat::decide(&instance, horizon);
            trace(&Event::Sat {
                horizon,
                found: matches!(decision, sat::Decision::Plan(_)),
                variables,
                seconds: clock.elapsed().as_secs_f64(),
            });
            decision
        };
        match decision {
            sat::Decision::Plan(paths) => return Ok(found(horizon, &paths, want_plan)),
            sat::Decision::Impossible => horizon += 1,
        }
    }
}

/// The optimum of the agents `core` alone, by the joint search within `budget_mib` MiB:
/// `Some(None)` when they cannot be solved at all, `None` when the search did not fit.
fn core_optimum(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    core: &[usize],
    budget_mib: u64,
) -> Option<Option<u32>> {
    let sub = Dataset {
        grid: grid.clone(),
        starts: core.iter().map(|&a| starts[a]).collect(),
        homes: core.iter().map(|&a| goals[a]).collect(),
        header_line: 1,
    };
    search::solve(&sub, false, budget_mib)
        .ok()
        .map(|solution| solution.steps)
}

/// The solution of makespan `horizon` made of `paths` (every agent's cell at 0..=T).
fn found(horizon: u32, paths: &[Vec<u32>], want_plan: bool) -> Solution {
    let plan: Option<Plan> = want_plan.then(|| constructive::to_placements(paths, horizon));
    Solution {
        steps: Some(horizon),
        plan,
        expanded: 0,
    }
}

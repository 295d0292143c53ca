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

use std::time::{Duration, Instant};

use grid_core::UNREACHABLE;
use grid_core::limits::MIB;
use grid_core::{CellId, Grid};

use crate::dataset::{Dataset, MAX_GHOSTS, Want};
use crate::moves::Options;
use crate::progress::Progress;
use crate::search::{self, Found};
use dist_table::DistTable;

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
/// [`Method::JointSearch`] takes at most [`MAX_GHOSTS`] agents (the keys of its
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
    /// [`OTHER_SEEDS_COUNTED_NODES`] nodes) and the collision repair ([`repair`], at most
    /// [`REPAIR_COUNTED_STEPS`] steps) at every horizon, then the SAT decision on a
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

/// One step of the search, as it is decided: what, how, and how long it took. The sink of
/// [`crate::Options::trace`] is told each (the `--verbose` flag of the binary prints
/// them, one `ghosts: ...` line each); their `Display` is that line.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The lower bound (largest single-agent distance); `None` when a goal is out of reach.
    LowerBound(Option<u32>),
    /// The unsolvability test (pockets, corridors, classes of cells) proved that no plan
    /// exists.
    NeverSolvable,
    /// The joint-placement A* answered.
    JointSearch {
        /// Its answer.
        steps: Option<u32>,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// Prioritized planning at one horizon.
    Planning {
        /// The horizon T.
        horizon: u32,
        /// Whether it found a plan of makespan T.
        found: bool,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The SAT decision on a growing core of agents at one horizon.
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
    /// LaCAM*'s first plans (with a time limit, before the proof): the best makespan it
    /// found in its share of the time.
    FirstPlan {
        /// The makespan of its best plan (`None`: none found in time).
        steps: Option<u32>,
        /// Whether its search space was exhausted (its answer is then the optimum, or
        /// that none exists).
        exhausted: bool,
        /// Search nodes it created.
        nodes: usize,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// LaCAM*'s dives from other seeds (`mapf/lacam.rs`, at the bound): the best makespan
    /// before and after them.
    OtherSeeds {
        /// Seeds tried.
        seeds: u32,
        /// The best plan's makespan before them (`None`: no plan).
        from: Option<u32>,
        /// The best plan's makespan after them (`None`: no plan).
        best: Option<u32>,
        /// Whether a dive searched everything below the best plan (which is then
        /// optimal, or no plan exists).
        exhausted: bool,
        /// Wall seconds they took.
        seconds: f64,
    },
    /// Push and Swap (`mapf/push_swap.rs`), the last resort when nothing else gave a plan.
    PushAndSwap {
        /// The makespan of its plan (`None`: it found none).
        steps: Option<u32>,
        /// Its single moves before they were run side by side.
        moves: usize,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The time limit or the memory budget stopped the proof: the best plan found and
    /// the proven lower bound are the answer.
    Unproven {
        /// The makespan (or sum of costs) of the best plan.
        cost: u64,
        /// The proven lower bound.
        lower_bound: u64,
    },
    /// Prioritized planning at one horizon after the proof stopped over the memory budget
    /// (with a time limit): a shorter plan than the best known, not a proof.
    Improving {
        /// The horizon T.
        horizon: u32,
        /// Whether it found a plan of makespan T.
        found: bool,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The best plan for the sum of costs before the proof, or after it stopped: by
    /// prioritized planning (or LaCAM*'s), then improved by large neighbourhood search
    /// (`mapf/lns.rs`).
    SocPlan {
        /// Its sum of costs.
        cost: u64,
        /// The sum of costs of the plan it started from.
        from: u64,
        /// Steps of the neighbourhood search made.
        steps: u64,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The proof of the sum of costs raised its lower bound (before the budget of extra
    /// steps it starts).
    SocBound {
        /// The proven lower bound on the sum of costs.
        lower_bound: u64,
        /// Wall seconds since the solve started.
        seconds: f64,
    },
    /// A plan for the sum of costs better than the proof's best, found by large
    /// neighbourhood search on a thread beside the proof (`mapf/lns.rs`).
    SocBeside {
        /// Its sum of costs.
        cost: u64,
        /// The sum of costs of the proof's best plan.
        from: u64,
    },
    /// The best plan's makespan shortened by large neighbourhood search
    /// (`mapf/lns.rs`) and LaCAM*'s anytime search in turns, after the proof stopped.
    Shortened {
        /// Its makespan now.
        makespan: u32,
        /// Its makespan before.
        from: u32,
        /// Steps of the neighbourhood search made.
        steps: u64,
        /// The makespan of LaCAM*'s best plan at its last turn (`None`: it had none, or
        /// no turn, as before the SAT decisions).
        lacam_best: Option<u32>,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The collision repair (`mapf/repair.rs`) at one horizon: a plan of that makespan when
    /// no pair of agents collides any more.
    Repair {
        /// The horizon T.
        horizon: u32,
        /// Colliding pairs of its first plan (`None`: it could not start, over its
        /// memory or an agent's search cap).
        from: Option<usize>,
        /// Colliding pairs left (0: a plan of makespan T).
        left: usize,
        /// Steps made.
        steps: u64,
        /// Wall seconds it took.
        seconds: f64,
    },
    /// The SAT decision on every agent at one horizon.
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
            Event::FirstPlan {
                steps,
                exhausted,
                nodes,
                seconds,
            } => match steps {
                Some(steps) => write!(
                    f,
                    "first plans by lacam*: best {steps}{} ({nodes} nodes, {seconds:.3} s)",
                    if *exhausted { ", optimal" } else { "" }
                ),
                None => write!(
                    f,
                    "first plans by lacam*: {} ({nodes} nodes, {seconds:.3} s)",
                    if *exhausted {
                        "none exists"
                    } else {
                        "none found"
                    }
                ),
            },
            Event::OtherSeeds {
                seeds,
                from,
                best,
                exhausted,
                seconds,
            } => {
                let steps = |m: &Option<u32>| m.map_or("none".to_string(), |m| m.to_string());
                write!(
                    f,
                    "first plans by lacam* from {seeds} more seeds: best {}, was {}{} ({seconds:.3} s)",
                    steps(best),
                    steps(from),
                    if *exhausted { ", optimal" } else { "" }
                )
            }
            Event::PushAndSwap {
                steps,
                moves,
                seconds,
            } => match steps {
                Some(steps) => write!(
                    f,
                    "a plan by push and swap: {steps} ({moves} moves, {seconds:.3} s)"
                ),
                None => write!(f, "push and swap: none found ({seconds:.3} s)"),
            },
            Event::Unproven { cost, lower_bound } => write!(
                f,
                "stopped by a limit: the best plan {cost}, the lower bound {lower_bound}"
            ),
            Event::Improving {
                horizon,
                found,
                seconds,
            } => write!(
                f,
                "a shorter plan by planning at T = {horizon}: {} ({seconds:.3} s)",
                verdict(*found)
            ),
            Event::SocPlan {
                cost,
                from,
                steps,
                seconds,
            } => write!(
                f,
                "a plan for the sum of costs: {cost}, from {from} by {steps} steps of \
                 neighbourhood search ({seconds:.3} s)"
            ),
            Event::SocBound {
                lower_bound,
                seconds,
            } => write!(f, "sum of costs >= {lower_bound} ({seconds:.3} s)"),
            Event::SocBeside { cost, from } => write!(
                f,
                "a plan for the sum of costs beside the proof: {cost}, the proof's best {from}"
            ),
            Event::Shortened {
                makespan,
                from,
                steps,
                lacam_best,
                seconds,
            } => match lacam_best {
                Some(lacam_best) => write!(
                    f,
                    "a shorter plan by neighbourhood search and lacam*: {makespan}, from \
                     {from} by {steps} steps (lacam*'s best: {lacam_best}) ({seconds:.3} s)"
                ),
                None => write!(
                    f,
                    "a shorter plan by neighbourhood search: {makespan}, from {from} by \
                     {steps} steps ({seconds:.3} s)"
                ),
            },
            Event::Repair {
                horizon,
                from: None,
                seconds,
                ..
            } => write!(
                f,
                "collision repair at T = {horizon}: no first plan, over its memory, a \
                 search's cap or its time ({seconds:.3} s)"
            ),
            Event::Repair {
                horizon,
                from: Some(from),
                left,
                steps,
                seconds,
            } => write!(
                f,
                "{}collision repair at T = {horizon}: {} ({from} colliding pairs at first, \
                 {left} after {steps} steps, {seconds:.3} s)",
                if *left == 0 { "settled by " } else { "" },
                verdict(*left == 0)
            ),
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

/// [`solve_agents_soc`] by `driver`.
fn soc_driven(
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

/// With a time limit, the collision repair at the bound goes on until this share of it
/// (see [`Driver::repair`]).
const REPAIR_SHARE: f64 = 0.3;

/// In the tests' counted runs ([`Stopwatch::Counted`] and
/// [`Horizons::PlanRepairCore`]), the collision repair's steps at one horizon, at most.
pub const REPAIR_COUNTED_STEPS: u64 = 2000;

/// After the proof stopped, the collision repair's turn before each of the
/// neighbourhood search and LaCAM* (see [`Driver::improve`]): always this long, since
/// its plan is a proof and theirs are not (room-32-32-4 `random-1` with 200 agents: from
/// 3 colliding pairs to none in 4 470 steps, 9 s of such turns; with turns halved while
/// the pairs did not drop, as theirs are, none of 9 in 1 418 steps). It gets them only
/// while it is near a proof (see [`repair_pays`]).
const REPAIR_TURN: Duration = Duration::from_millis(1000);

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
fn repair_pays(pairs: usize, fruitless: u32) -> bool {
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
enum RepairBudget {
    /// Until this instant.
    Until(Instant),
    /// At most this many steps.
    Steps(u64),
}

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
const FIRST_PLAN_MEMORY_SHARE: u64 = 4;

/// The share of the time limit the proof gets: the rest goes to finding a plan, or a
/// shorter one than the first plans' ([`Driver::improve`]), so that a limit rarely ends
/// with nothing and the plan it ends with is LaCAM*'s after more than its first second.
/// Measured on the sweep's open rows (`--time-limit 60`): every proof that finished did
/// so within the first half of the limit.
const PROOF_SHARE: f64 = 0.5;

/// The share of the time limit by which [`Driver::shorten_first`] stops. Measured on
/// the open rows of `docs/mapf.md` (`--time-limit 60`): see there.
const SHORTEN_FIRST_SHARE: f64 = 0.3;

/// Steps of [`Driver::shorten_first`] without a shorter plan after which the SAT
/// decisions get the time (where the optimum is above the bound, the search cannot reach
/// it). On the open rows of `docs/mapf.md` a shorter plan came after up to 12 000 steps
/// (random-32-32-10 random-1 with 400 agents: 54 to 53; with 4 000, the search gave up
/// at 54 and the proof took 16 CPU s instead of 2).
const SHORTEN_FIRST_PATIENCE: u64 = 20_000;

/// Variables of the SAT encoding of a core that the driver decides at the bound before
/// [`Driver::shorten_first`] (about 220 MiB): the sweep's cores at the bound (2 to 6
/// agents) fit, the open rows' (32 agents and more, 377 000 variables and more) do not.
const SMALL_CORE_VARIABLES: u64 = 150_000;

/// The seed of LaCAM*'s tie breaks (fixed: the same run gives the same plan).
const FIRST_PLAN_SEED: u64 = 17;

/// With a time limit, LaCAM*'s dives from other seeds ([`Driver::other_seeds`]) end at
/// this share of it, from the start of the run.
const OTHER_SEEDS_SHARE: f64 = 0.15;

/// LaCAM*'s dives from other seeds end after this many seeds in a row without a
/// shorter plan.
const OTHER_SEEDS_PATIENCE: u32 = 6;

/// LaCAM*'s dives from other seeds, at most.
const OTHER_SEEDS: u32 = 32;

/// In the tests' forced mode ([`Horizons::PlanRepairCore`]), each of LaCAM*'s dives
/// from other seeds within this many nodes.
pub const OTHER_SEEDS_COUNTED_NODES: u64 = 200;

/// How long [`Driver::other_seeds`] may go.
#[derive(Debug, Clone, Copy)]
enum DiveBudget {
    /// Until this instant.
    Until(Instant),
    /// Each dive within this many nodes.
    Nodes(u64),
}

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
const SHORTEN_SEED: u64 = 23;

/// After this many turns in a row without a shorter plan, the neighbourhood search of
/// [`Driver::improve`] starts again from LaCAM*'s best plan when it has not started from
/// that one yet (the shortest plan so far kept), else goes back to the shortest plan.
/// Its plans are local optima of their own: on maze-128-128-1 `random-1` with 500 agents
/// (`--time-limit 60`) it gained 2 steps in 41 s from the 2109 of LaCAM*'s dives from
/// other seeds; restarting from LaCAM*'s own 2136 it reached 1910.
const LNS_RESTART_AFTER: u32 = 8;

/// The most (agent, time) pairs of a plan the neighbourhood search takes over. Past it a
/// plan is Push and Swap's (maze-128-128-1 with 1000 agents: makespan 84 897 to 98 281,
/// 85 to 98 million pairs): taking it over took 24 s, a step several seconds, and 27 s
/// made 9 steps of no gain, ending past the time limit. LaCAM*'s longest plans on the
/// benchmark's large maps have about 3.5 million (1000 agents, 3 262 steps).
const LNS_MOST_PAIRS: u64 = 20_000_000;

/// Whether the neighbourhood search takes `plan` over (see [`LNS_MOST_PAIRS`]).
fn fits_lns(plan: &[Vec<CellId>], agents: usize) -> bool {
    steps_fit_lns(plan.len(), agents)
}

/// Whether the neighbourhood search takes a plan of `steps` steps for `agents` agents
/// over (see [`LNS_MOST_PAIRS`]).
fn steps_fit_lns(steps: usize, agents: usize) -> bool {
    (steps as u64).saturating_mul(agents as u64) <= LNS_MOST_PAIRS
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
const SOC_FIRST_PLAN_SHARE: f64 = 0.25;

/// With [`Stopwatch::Counted`], LaCAM* resumed for the sum of costs' first plan
/// ([`Driver::first_plan_resumed`]) expands this many times its first expansions at most.
const SOC_FIRST_PLAN_COUNTED_FACTOR: u64 = 1 << 16;

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

/// Bytes [`Driver::push_and_swap`] counts for a single move of its plan and for each of
/// the plan's cells (an agent at a step): 12 for a move, then 4 for the cell in the
/// paths, 4 in the placements of the answer and up to 12 in the neighbourhood search's
/// reservations ([`lns`]), which shortens the plan.
const PUSH_AND_SWAP_BYTES: u64 = 20;

/// What the driver does when nothing else gave a plan within the time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastResort {
    /// LaCAM* for half the time left, then Push and Swap (`mapf/push_swap.rs`).
    PushAndSwap,
    /// LaCAM* until the time limit (as before Push and Swap).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests
    LacamOnly,
}

/// When [`Driver::soc_plan`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SocPhase {
    /// Before the proof: a first plan by prioritized planning, the better of it and
    /// LaCAM*'s improved, within [`SOC_PLAN_SHARE`] of the time.
    BeforeProof,
    /// After the proof stopped: the best plan improved until the time limit.
    AfterProof,
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

/// How [`Driver::horizons`] ended without a stop.
enum Proof {
    /// The optimum (or the proof that no plan exists).
    Found(Found),
    /// Past [`HORIZONS_BEFORE_EXHAUSTIVE`] with few agents: the joint search settles it
    /// (after the caller drops the instance's distances, to give it the whole budget).
    Exhaustive,
}

/// What LaCAM* gave before the proof.
enum FirstPlans {
    /// A plan proven optimal (it meets the lower bound, or LaCAM* searched everything),
    /// or the proof that none exists.
    Optimal(Found),
    /// A plan, longer than the lower bound.
    Best(Found),
    /// Nothing in its share of the time.
    None,
}

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
struct Driver<'a, 't> {
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
    last_resort: LastResort,
    /// The threads it may use: with 2 or more and a time limit, the sum of costs' plan is
    /// improved beside the proof.
    threads: std::num::NonZeroUsize,
    trace: &'t mut dyn FnMut(&Event),
    /// Told the sum of costs' plans found beside the proof as they come, from that
    /// thread (every other figure reaches it through `trace`: `solve::observe`).
    progress: Option<&'t Progress>,
}

impl<'a, 't> Driver<'a, 't> {
    fn new(
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
    fn with_progress(mut self, progress: Option<&'t Progress>) -> Self {
        self.progress = progress;
        self
    }

    /// The driver with `threads` threads instead of one.
    fn with_threads(mut self, threads: std::num::NonZeroUsize) -> Self {
        self.threads = threads;
        self
    }

    /// The driver with `techniques` instead of the default ones.
    fn with_techniques(mut self, techniques: Techniques) -> Self {
        self.techniques = techniques;
        self
    }

    /// The driver stopped by `stopwatch` instead of the wall clock of `limits`.
    fn with_stopwatch(mut self, stopwatch: Stopwatch) -> Self {
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
    fn run(self, method: Method) -> Result<Answer, Unanswered> {
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

    /// Step: LaCAM* for the first plans, on the distances of `instance`, within
    /// min([`FIRST_PLAN_SECONDS`], the time limit / [`FIRST_PLAN_SHARE`]) and a share of
    /// the memory, ending at once at a plan of `lower_bound` steps (which is then proven
    /// optimal). While the search is still on its first dive towards a plan (at most
    /// [`DIVE_NODES_PER_STEP`] nodes per step of depth, no plan yet), it may go on to the
    /// time limit / [`FIRST_PLAN_SHARE`]: on orz900d `even-1` with 1000 agents the dive
    /// to a plan of the lower bound takes 3111 nodes and about 3 s, where planning at the
    /// bound fails for 25 s. Nothing without a time limit: every answer is then a proof,
    /// as before there were first plans.
    fn first_plans(&mut self, search: &mut lacam::Search<'_>, lower_bound: u32) -> FirstPlans {
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
    fn first_plan_resumed(
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
    fn lacam_found(&self, outcome: lacam::Outcome) -> Option<Found> {
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

    /// Horizons from `lower_bound` up, as the module documentation says, until one has a
    /// plan; `proven_below` follows the horizon (no plan is shorter). A horizon that
    /// reaches the makespan of `incumbent` proves it optimal. When planning fails at the
    /// lower bound, [`Driver::shorten_first`] shortens `incumbent` before the SAT
    /// decisions.
    #[allow(clippy::too_many_arguments)] // the steps' state, kept by the caller
    fn horizons<'i, 'g>(
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
    fn repair<'i, 'g>(
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

    /// Step, at the first horizon the small core leaves open (the bound `horizon`),
    /// while LaCAM*'s best plan `incumbent` is longer: LaCAM*'s dives from other seeds
    /// ([`lacam::Search::reseeded`]), each seeking only plans shorter than the best so far
    /// and given up at its first plan or once it backs up more than a dive does
    /// ([`DIVE_NODES_PER_STEP`]); until [`OTHER_SEEDS_SHARE`] of the time limit,
    /// [`OTHER_SEEDS_PATIENCE`] seeds in a row without a shorter plan, or [`OTHER_SEEDS`]
    /// seeds (or each dive within the nodes of `budget`). The best plan becomes
    /// `incumbent`; `search`, LaCAM*'s first, is the one the improve phase resumes (its
    /// refined plans are the neighbourhood search's restarts, see [`LNS_RESTART_AFTER`]).
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
    fn other_seeds(
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
    fn dive_budget(&self) -> Option<DiveBudget> {
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
    fn can_shorten(&self, incumbent: Option<&Found>) -> bool {
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
    fn shorten_first(
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

    /// Step: the joint-placement A* on every agent, with the whole budget.
    fn joint_search(&mut self) -> Result<Found, Unanswered> {
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
    fn planning(
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

    /// Step, when the proof stopped over the memory budget or at its end ([`PROOF_SHARE`]
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
    fn improve(
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
    fn push_and_swap(&mut self, instance: &Instance<'_>, held_bytes: u64) -> Option<Found> {
        let paths = self.push_and_swap_paths(instance, held_bytes)?;
        let steps = paths.first().map_or(0, |p| p.len().saturating_sub(1)) as u32;
        Some(self.found(steps, &paths))
    }

    /// [`Driver::push_and_swap`]'s plan as every agent's path (traced).
    fn push_and_swap_paths(
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

    /// Whether the wall clock has passed the proof's end (never without a time limit).
    fn wall_passed(&self) -> bool {
        self.wall_deadline()
            .is_some_and(|deadline| Instant::now() > deadline)
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

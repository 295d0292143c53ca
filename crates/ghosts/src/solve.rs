//! The library's front door: the [`Options`] of one solve, the [`Solution`] it returns,
//! the [`SolveError`] of a limit, and [`solve`] for any [`Problem`] (a UVa
//! [`Dataset`] or a MovingAI [`Benchmark`]).
//!
//! Why a layer of its own: the methods below it (the joint A*, the many-agent driver)
//! speak in cell numbers and internal answers; a caller wants an answer that cannot be
//! misread. This is the one place where the driver's outcome becomes the caller's (`impl
//! From<Unanswered> for SolveError`), and where the map's own tables are checked against
//! the budget before anything is allocated.

use std::fmt;
use std::time::Duration;

use grid_core::limits::{DEFAULT_MEMORY_MIB, MIB};

use crate::benchmark::Benchmark;
use crate::dataset::{Dataset, Plan, Want};
pub use crate::mapf::Objective;
use crate::mapf::soc::SocPlan;
use crate::mapf::{self, Agents, Event, Limits, Unanswered};
use crate::parse::{BYTES_PER_CELL, BYTES_PER_CELL_PER_GHOST};
use crate::progress::Progress;

/// What one solve computes, how far it may go, and who hears of its progress.
///
/// Build it from the default and change what you need, so that options added later
/// (such as the objective) keep the defaults:
/// ```
/// let options = ghosts::Options { plan: true, ..ghosts::Options::default() };
/// assert_eq!(options.memory_mib, ghosts::DEFAULT_MEMORY_MIB);
/// ```
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// What to minimise ([`Objective::Makespan`] by default).
    pub objective: Objective,
    /// Also find one optimal plan ([`Solution::plan`]).
    pub plan: bool,
    /// Memory the search may use, in MiB (`--memory-mib`).
    pub memory_mib: u64,
    /// Wall time the solve may take, checked between the steps of the search and inside
    /// every SAT decision; past it, the best plan found with its proven lower bound
    /// ([`Solution::is_proven`] `false`), or [`SolveError::Time`] when none was found.
    /// With a limit, LaCAM* gives the first plans (`docs/mapf.md`); `None`: no limit,
    /// every answer a proof.
    pub time_limit: Option<Duration>,
    /// The threads the solve may use (default 1). With 2 or more, a time limit and
    /// [`Objective::SumOfCosts`], a second thread improves the plan by large
    /// neighbourhood search while the proof runs, and a plan that meets the proof's bound
    /// ends it; for the makespan, a SAT decision still running after a second is raced by
    /// a second solver configuration on another thread (`docs/mapf.md`). The binary's
    /// `--jobs` gives the machine's processors.
    pub threads: std::num::NonZeroUsize,
    /// Told every step of the search as it is decided ([`Event`]); `None`: nobody.
    /// The binary's `--verbose` prints them on standard error.
    pub trace: Option<&'a dyn Fn(&Event)>,
    /// Kept up to date with the proven bound and the best plan while the search runs,
    /// readable from another thread ([`Progress`]); `None`: nobody watches. The binary
    /// redraws them on standard error when it is a terminal.
    pub progress: Option<&'a Progress>,
}

impl Default for Options<'_> {
    /// The makespan, no plan, [`DEFAULT_MEMORY_MIB`], no time limit, one thread, no
    /// trace, no progress.
    fn default() -> Self {
        Options {
            objective: Objective::Makespan,
            plan: false,
            memory_mib: DEFAULT_MEMORY_MIB,
            time_limit: None,
            threads: std::num::NonZeroUsize::MIN,
            trace: None,
            progress: None,
        }
    }
}

impl fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("objective", &self.objective)
            .field("plan", &self.plan)
            .field("memory_mib", &self.memory_mib)
            .field("time_limit", &self.time_limit)
            .field("threads", &self.threads)
            .field("trace", &self.trace.map(|_| "a sink"))
            .field("progress", &self.progress)
            .finish()
    }
}

/// The answer for a solvable problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    objective: Objective,
    steps: u32,
    cost: u64,
    lower_bound: u64,
    plan: Option<Plan>,
    expanded: usize,
}

impl Solution {
    /// A proven answer of `steps` steps (the makespan objective).
    fn makespan(steps: u32, plan: Option<Plan>, expanded: usize) -> Solution {
        Solution {
            objective: Objective::Makespan,
            steps,
            cost: u64::from(steps),
            lower_bound: u64::from(steps),
            plan,
            expanded,
        }
    }

    /// A proven answer of least sum of costs; the plan kept when `want` asks for it.
    fn sum_of_costs(soc: SocPlan, want: Want) -> Solution {
        let plan = soc.placements();
        Solution {
            objective: Objective::SumOfCosts,
            steps: u32::try_from(plan.len()).unwrap_or(u32::MAX),
            cost: soc.cost,
            lower_bound: soc.cost,
            plan: (want == Want::Plan).then_some(plan),
            expanded: 0,
        }
    }

    /// The objective [`Solution::cost`] is the value of.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// The value of the objective for this answer: the makespan ([`Solution::steps`])
    /// or the sum of costs. What the program prints.
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The steps until the last ghost (agent) is home: the length of the plan when there
    /// is one. For [`Objective::Makespan`] the fewest; for [`Objective::SumOfCosts`] the
    /// makespan of the plan found (not always the fewest: a least sum may need more
    /// steps).
    pub fn steps(&self) -> u32 {
        self.plan
            .as_ref()
            .and_then(|plan| u32::try_from(plan.len()).ok())
            .unwrap_or(self.steps)
    }

    /// When [`Options::plan`] asked for it: the placement after each step (every ghost's
    /// cell, in letter or scenario order), the last one with every ghost home; `steps()`
    /// long.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Whether [`Solution::cost`] is proven to be the least. `false` for an anytime
    /// answer: [`Options::time_limit`] or [`Options::memory_mib`] stopped the proof, and
    /// the plan is the best one found (legal, but perhaps not optimal).
    pub fn is_proven(&self) -> bool {
        self.lower_bound == self.cost
    }

    /// The proven lower bound on the objective: no plan costs less. [`Solution::cost`]
    /// itself when [`Solution::is_proven`], below it otherwise.
    pub fn lower_bound(&self) -> u64 {
        self.lower_bound
    }

    /// Placements the joint search expanded (0 when another method answered): a measure
    /// of its work, for benchmarks.
    pub fn expanded(&self) -> usize {
        self.expanded
    }
}

/// Why [`solve`] gave up: a limit was reached with nothing to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The next step of the search would pass [`Options::memory_mib`].
    #[error("the search needs more than the memory budget of {budget_mib} MiB ({detail})")]
    Memory {
        /// The budget, in MiB.
        budget_mib: u64,
        /// What ran out, in words (for example "the search ran out after storing 123
        /// placements", or "about 40 MiB for the SAT encoding of makespan 38 (27000
        /// variables)").
        detail: String,
    },
    /// [`Options::time_limit`] passed.
    #[error("the search took longer than the time limit of {limit:?}")]
    Time {
        /// The limit.
        limit: Duration,
    },
}

impl From<Unanswered> for SolveError {
    fn from(unanswered: Unanswered) -> SolveError {
        match unanswered {
            Unanswered::OverBudget { budget_mib, detail } => {
                SolveError::Memory { budget_mib, detail }
            }
            Unanswered::JointOverBudget {
                budget_mib,
                placements,
            } => SolveError::Memory {
                budget_mib,
                detail: format!(
                    "the search ran out after storing {placements} placement{}",
                    if placements == 1 { "" } else { "s" }
                ),
            },
            Unanswered::Time { limit } => SolveError::Time { limit },
        }
    }
}

/// A problem [`solve`] takes: a [`Dataset`] or a [`Benchmark`].
pub trait Problem: sealed::Problem {}

impl Problem for Dataset {}
impl Problem for Benchmark {}

/// The crate's side of [`Problem`], out of a caller's reach.
mod sealed {
    use super::{Agents, SolveError};

    /// The agents the driver is run on.
    pub trait Problem {
        /// The agents of this problem, once its tables are known to fit `budget_mib`.
        fn agents(&self, budget_mib: u64) -> Result<Agents<'_>, SolveError>;
    }
}

impl sealed::Problem for Dataset {
    fn agents(&self, budget_mib: u64) -> Result<Agents<'_>, SolveError> {
        let grid = self.grid();
        let per_cell = BYTES_PER_CELL + BYTES_PER_CELL_PER_GHOST * self.ghost_count() as u64;
        let need = (grid.height() as u64)
            .saturating_mul(grid.width() as u64)
            .saturating_mul(per_cell);
        if need > budget_mib.saturating_mul(MIB) {
            return Err(SolveError::Memory {
                budget_mib,
                detail: format!(
                    "about {} MiB for the tables sized by the map",
                    need.div_ceil(MIB)
                ),
            });
        }
        Ok(Agents {
            grid,
            starts: self.starts(),
            goals: self.homes(),
            dataset: Some(self),
        })
    }
}

impl sealed::Problem for Benchmark {
    fn agents(&self, _budget_mib: u64) -> Result<Agents<'_>, SolveError> {
        // The map's tables were checked against the budget when it was read.
        Ok(Agents {
            grid: self.grid(),
            starts: self.starts(),
            goals: self.goals(),
            dataset: None,
        })
    }
}

/// The fewest steps that bring every ghost (agent) of `problem` home, all moving at once
/// (or with [`Objective::SumOfCosts`] the least sum of costs), and with [`Options::plan`]
/// one optimal plan; `Ok(None)` when they can never all be home.
///
/// # Examples
/// ```
/// let text = "5 3 1\n#####\n#a A#\n#####\n";
/// let problem: ghosts::Dataset = text.parse()?;
/// let answer = ghosts::solve(&problem, &ghosts::Options::default())?;
/// match answer {
///     Some(solution) => assert_eq!(solution.steps(), 2),
///     None => unreachable!("ghost a can walk home"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
/// With the plan, and every step of the search told to a sink:
/// ```
/// use std::cell::RefCell;
///
/// let problem: ghosts::Dataset = "4 3 2\n####\n#aA#\n#Bb#\n".parse()?;
/// let events = RefCell::new(Vec::new());
/// let sink = |event: &ghosts::Event| events.borrow_mut().push(event.to_string());
/// let options = ghosts::Options { plan: true, trace: Some(&sink), ..Default::default() };
/// let solution = ghosts::solve(&problem, &options)?.expect("solvable");
/// assert_eq!(solution.steps(), 1);
/// assert_eq!(solution.plan().map(Vec::len), Some(1));
/// assert!(solution.is_proven());
/// assert_eq!(events.borrow().len(), 1); // settled by the joint search
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The least sum of costs:
/// ```
/// use ghosts::{Objective, Options};
///
/// let problem: ghosts::Dataset = "4 3 2\n####\n#aA#\n#Bb#\n".parse()?;
/// let options = Options { objective: Objective::SumOfCosts, ..Options::default() };
/// let solution = ghosts::solve(&problem, &options)?.expect("solvable");
/// // Both ghosts step at once: one step for the last, two for the sum.
/// assert_eq!((solution.cost(), solution.steps()), (2, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolveError::Memory`] when the map's tables alone would not fit in
/// [`Options::memory_mib`] (checked before anything is allocated), or when the next step
/// of the search would pass it; [`SolveError::Time`] past [`Options::time_limit`].
///
/// # Complexity
/// Few ghosts on a small map: an A* over joint placements with exact pair distances,
/// O(E x 5^n) for E expansions (at most C^n for C cells, far fewer in practice). More:
/// horizons from the lower bound, each settled by prioritized planning (O(K x C x T)) or
/// a SAT decision on a core of agents; `docs/ghosts.md` and `docs/mapf.md` have the
/// details and the measurements.
pub fn solve<P: Problem>(
    problem: &P,
    options: &Options<'_>,
) -> Result<Option<Solution>, SolveError> {
    let want = if options.plan {
        Want::Plan
    } else {
        Want::Steps
    };
    let limits = Limits {
        budget_mib: options.memory_mib,
        time_limit: options.time_limit,
        threads: options.threads,
    };
    if let Some(progress) = options.progress {
        progress.start();
    }
    // Over however the solve ends.
    struct Stop<'p>(Option<&'p Progress>);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            if let Some(progress) = self.0 {
                progress.stop();
            }
        }
    }
    let _over = Stop(options.progress);
    let mut trace = |event: &Event| {
        if let Some(progress) = options.progress {
            observe(progress, event, options.objective);
        }
        if let Some(sink) = options.trace {
            sink(event);
        }
    };
    let agents = problem.agents(options.memory_mib)?;
    let solution = match options.objective {
        Objective::Makespan => {
            let answer = mapf::solve_agents(agents, want, limits, &mut trace)?;
            let found = answer.found;
            found.steps.map(|steps| {
                let mut solution = Solution::makespan(steps, found.plan, found.expanded);
                if let Some(bound) = answer.unproven_bound {
                    solution.lower_bound = u64::from(bound);
                }
                solution
            })
        }
        Objective::SumOfCosts => mapf::solve_agents_soc(
            agents,
            limits,
            options.threads,
            &mut trace,
            options.progress,
        )?
        .map(|(soc, bound)| {
            let mut solution = Solution::sum_of_costs(soc, want);
            solution.lower_bound = bound;
            solution
        }),
    };
    // The answer's figures, which no event may have told (a proof's last plan).
    if let (Some(progress), Some(solution)) = (options.progress, &solution) {
        progress.plan_of(solution.cost());
        progress.bound_at_least(solution.lower_bound());
    }
    Ok(solution)
}

/// Tells `progress` what `event` proves or finds on `objective`: the makespan's events carry
/// horizons (a horizon proved impossible raises the bound past it, a plan found at
/// one is a plan of that makespan); for the sum of costs, its proof's bounds and its
/// plans' events (the makespans of its first plans are not its costs; the plans found
/// beside the proof reach `progress` directly, [`crate::mapf::soc::Beside`]).
fn observe(progress: &Progress, event: &Event, objective: Objective) {
    match (objective, event) {
        (_, Event::Unproven { cost, lower_bound }) => {
            progress.plan_of(*cost);
            progress.bound_at_least(*lower_bound);
        }
        (Objective::SumOfCosts, Event::SocPlan { cost, .. } | Event::SocBeside { cost, .. }) => {
            progress.plan_of(*cost);
        }
        (Objective::SumOfCosts, Event::SocBound { lower_bound, .. }) => {
            progress.bound_at_least(*lower_bound);
        }
        (Objective::SumOfCosts, _) => {}
        (Objective::Makespan, event) => observe_makespan(progress, event),
    }
}

/// [`observe`] for the makespan.
fn observe_makespan(progress: &Progress, event: &Event) {
    let steps = u64::from;
    match *event {
        Event::LowerBound(Some(bound)) => progress.bound_at_least(steps(bound)),
        Event::JointSearch {
            steps: Some(found), ..
        } => {
            progress.bound_at_least(steps(found));
            progress.plan_of(steps(found));
        }
        Event::Planning {
            horizon,
            found: true,
            ..
        }
        | Event::Improving {
            horizon,
            found: true,
            ..
        }
        | Event::Repair {
            horizon, left: 0, ..
        } => progress.plan_of(steps(horizon)),
        Event::Core { horizon, found, .. } | Event::Sat { horizon, found, .. } => {
            if found {
                progress.plan_of(steps(horizon));
            } else {
                progress.bound_at_least(steps(horizon) + 1);
            }
        }
        Event::CoreOptimum {
            steps: Some(optimum),
            fits: true,
            ..
        } => progress.bound_at_least(steps(optimum)),
        Event::FirstPlan {
            steps: Some(found),
            exhausted,
            ..
        }
        | Event::OtherSeeds {
            best: Some(found),
            exhausted,
            ..
        } => {
            progress.plan_of(steps(found));
            if exhausted {
                progress.bound_at_least(steps(found));
            }
        }
        Event::PushAndSwap {
            steps: Some(found), ..
        } => progress.plan_of(steps(found)),
        Event::Shortened { makespan, .. } => progress.plan_of(steps(makespan)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Grid;

    fn room() -> Grid {
        // ####
        // #  #
        // ## #
        let rows = ["####", "#  #", "## #"];
        Grid::new(3, 4, |r, c| rows[r].as_bytes()[c] != b'#')
    }

    #[test]
    fn the_constructor_refuses_what_the_format_cannot_hold() {
        let e = |starts: &[(usize, usize)], homes: &[(usize, usize)]| {
            Dataset::new(room(), starts, homes).unwrap_err().to_string()
        };
        assert_eq!(
            e(&[(1, 1)], &[]),
            "1 starts but 0 homes: every ghost needs one of each"
        );
        assert_eq!(e(&[(1, 1)], &[(2, 1)]), "the home 'A': (2, 1) is a wall");
        assert_eq!(
            e(&[(1, 1), (3, 2)], &[(1, 2), (2, 2)]),
            "the start of ghost 'b': (3, 2) is outside the 3 x 4 grid"
        );
        assert_eq!(
            e(&[(1, 1), (1, 2)], &[(2, 2), (2, 2)]),
            "the home 'A' and the home 'B' are both at (2, 2)"
        );
        let many = vec![(1, 1); 27];
        assert_eq!(
            e(&many, &many),
            "27 ghosts, above the limit of 26 (one per letter a-z)"
        );
        // A start may be a home (the text format cannot write it; the search does not
        // mind): b must leave a's home, a follows it.
        let d = Dataset::new(room(), &[(1, 1), (1, 2)], &[(1, 2), (2, 2)]).unwrap();
        assert_eq!(d.ghost_count(), 2);
        assert_eq!(d.grid().position(d.starts()[1]), (1, 2));
        assert_eq!(
            solve(&d, &Options::default()).unwrap().map(|s| s.steps()),
            Some(1)
        );
    }

    #[test]
    fn built_and_parsed_datasets_agree_and_solve_alike() {
        let built = Dataset::new(room(), &[(1, 1)], &[(2, 2)]).unwrap();
        let parsed: Dataset = "4 3 1\n####\n#a #\n##A#\n".parse().unwrap();
        assert_eq!(built, parsed);
        let options = Options::default();
        let steps = |d: &Dataset| solve(d, &options).unwrap().map(|s| s.steps());
        assert_eq!(steps(&built), steps(&parsed));
        assert_eq!(steps(&built), Some(2));
    }

    #[test]
    fn parsing_wants_exactly_one_dataset() {
        let e = |text: &str| text.parse::<Dataset>().unwrap_err().to_string();
        assert_eq!(
            e("\n"),
            "line 1, column 1: this case has no dataset before the end or the terminator `0 0 0`"
        );
        assert_eq!(
            e("3 1 1\naA \n3 1 1\naA \n"),
            "line 3, column 1: expected the end of the text (it holds one dataset), found a \
             second dataset"
        );
        assert!("3 1 1\naA \n0 0 0\n".parse::<Dataset>().is_ok());
    }

    #[test]
    fn a_tiny_budget_is_a_typed_error() {
        let d: Dataset = "5 2 2\nab   \n   BA\n".parse().unwrap();
        let options = |memory_mib| Options {
            memory_mib,
            ..Options::default()
        };
        assert_eq!(
            solve(&d, &options(0)),
            Err(SolveError::Memory {
                budget_mib: 0,
                detail: "about 1 MiB for the tables sized by the map".to_owned()
            })
        );
        // 26 ghosts crossing an open room: the tables fit, and so does the many-agent
        // search (the joint A* would not: its placements pass 1 MiB).
        let crowd = |width: usize, height: usize| -> Dataset {
            let mut rows = vec![" ".repeat(width); height];
            rows[0] = ('a'..='z').chain(" ".repeat(width - 26).chars()).collect();
            rows[height - 1] = " "
                .repeat(width - 26)
                .chars()
                .chain(('A'..='Z').rev())
                .collect();
            format!("{width} {height} 26\n{}\n", rows.join("\n"))
                .parse()
                .unwrap()
        };
        let small = crowd(30, 10);
        let found = solve(&small, &options(1)).unwrap().map(|s| s.steps());
        assert!(found.is_some_and(|steps| steps >= 9 + 25), "{found:?}");
        // In a room of 100 x 40 the distances and prioritized planning do not.
        assert!(matches!(
            solve(&crowd(100, 40), &options(1)),
            Err(SolveError::Memory { budget_mib: 1, .. })
        ));
    }
}

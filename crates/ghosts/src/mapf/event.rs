//! What the solve reports as it goes ([`Event`]): the horizons decided, the plans found,
//! the bounds proven; the `--verbose` lines and the progress line are written from them.

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

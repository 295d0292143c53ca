//! Sum-of-costs optimal multi-agent path finding under the ghosts rules: an agent's cost is
//! the step at which it reaches its goal for the last time (and stays), and the answer is
//! the least sum of the costs.
//!
//! The method ([`solve`]):
//! 1. distances home for every agent; a goal out of reach answers `None`. Unless the
//!    up-front test of [`crate::mapf::solvable`] proves the instance solvable, the
//!    makespan solver ([`crate::mapf::solve`]) decides solvability (so both objectives
//!    answer `None` on the same instances) and its plan is the first incumbent;
//! 2. the lower bound LB = the sum of the single-agent distances; budgets
//!    Delta = 0, 1, 2, ... of extra steps, each decided exactly: prioritized planning
//!    within the budget ([`planning`]) and, when it fails, the SAT decision of
//!    [`encoding`] on a growing core of agents ([`core`]), split into groups decided
//!    apart whose least extra steps add up, with the pairs between them
//!    ([`core::Groups`], [`pairwise::cover_with_groups`]: a sum past Delta proves it
//!    impossible, and the loop goes on from that sum; a group of long paths on a
//!    large map is decided first by conflict-based search, [`cbs`]), or on all of them. With Delta
//!    extra steps every agent is home by its distance plus Delta, so the horizon
//!    max d_a + Delta suffices. The first Delta with a plan gives the optimum, every
//!    smaller one being proved impossible; an incumbent of cost LB + Delta ends the
//!    loop at Delta. The SAT decisions of successive budgets on the same agents share
//!    one solver ([`encoding::Session`]: the budget is an assumption, so what CaDiCaL
//!    learnt on Delta stays for Delta + 1);
//! 3. two lower bounds skip budgets: before the first SAT decision, the pairwise bound
//!    ([`pairwise`]: the exact extra steps of every two agents that may meet, by
//!    conflict-based search first where it would decide them as a group, combined by
//!    a minimum weighted vertex cover), whose pairs also go into every SAT session as
//!    clauses; and in each SAT session, the core-guided bound of its agents
//!    ([`encoding::Session::raise`]), raised by unsatisfiable cores until it meets a
//!    plan of those agents. The cores hold for every plan, whatever the session's reach,
//!    so a session built again wider, or for a merge of two groups, replays them
//!    ([`encoding::CoreLog`]) instead of finding them anew.
//!
//! Each technique can be switched off in [`Techniques`], so the tests compare the answer
//! with and without it.
//!
//! # Complexity
//! O(K x C) for the distances and the test; then per budget as [`planning`] and
//! [`encoding`].

pub mod cbs;
pub mod core;
pub mod corridor;
pub mod encoding;
mod int_hash;
pub mod pair_cost;
pub mod pairwise;
pub mod planning;
pub mod symmetry;

use grid_core::limits::MIB;
use grid_core::{CellId, Grid};

use super::{Instance, Method, Refused, Unanswered, solvable};
use crate::progress::Progress;
use encoding::Decision;

/// Priority orders prioritized planning tries per budget.
const PLANNING_ATTEMPTS: usize = 8;

/// The most extra steps a pair's bound is decided up to ([`pairwise`]) when no plan
/// is known to give a smaller cap.
const PAIR_CAP: u32 = 64;

/// Which techniques decide each budget (all on by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Techniques {
    /// Prioritized planning within the budget first ([`planning`]).
    pub planning: bool,
    /// The SAT decision on a growing core of agents ([`core`]) rather than on all of
    /// them.
    pub core: bool,
    /// The core decided as groups of agents apart, each by its own SAT decisions
    /// ([`core::Groups`]), rather than as one (with `core` only).
    pub groups: bool,
    /// One SAT session for the successive budgets on the same agents
    /// ([`encoding::Sessions`]) rather than a fresh encoding and solver per budget.
    pub incremental: bool,
    /// The pairwise lower bound ([`pairwise`]): the budgets start at it once planning
    /// has failed, and its pairs go into the SAT sessions as clauses.
    pub pairwise: bool,
    /// The core-guided bound of each SAT session ([`encoding::Session::raise`]): the
    /// budgets below it are skipped.
    pub core_guided: bool,
    /// With `core_guided`: a budget at or above a session's raised bound takes the plan
    /// the raise settled on instead of a SAT call of its own
    /// ([`encoding::Sessions::reusing`]).
    pub reuse_plan: bool,
    /// Which groups ([`core::Groups`], with `groups`) are decided by conflict-based
    /// search ([`cbs`]) before SAT.
    pub cbs: Cbs,
    /// With `cbs` and `pairwise`: each node of conflict-based search bounded by the
    /// pairs' bounds as well as by its own extra steps ([`cbs::node_bound`]).
    pub cbs_pairs: bool,
    /// With `cbs`: the pairs in conflict in each node of conflict-based search costed
    /// under the node's constraints by a two-agent search ([`cbs::PairCosts`]).
    pub cbs_pair_costs: bool,
    /// With `incremental`: a new SAT session whose usual reach would pass the memory
    /// reaches as many budgets as fit rather than Delta alone
    /// ([`encoding::Sessions::filling`]).
    pub fill: bool,
    /// With `pairwise`: the pairs of agents that `cbs` would decide as a group are
    /// decided by conflict-based search first ([`pairwise`]).
    pub pairs_by_cbs: bool,
    /// With `cbs`: when one conflict-based search over all the agents ([`cbs`]) decides
    /// the budgets, from the proven bound to the cost of the plan known, where `cbs`
    /// would decide all of them as a group ([`Whole`]).
    pub cbs_whole: Whole,
    /// With `cbs_whole`: each node's conflicts in the search over all agents ranked by
    /// their agents' MDDs, cardinal first, target conflicts first among equals
    /// ([`cbs::Classify::Mdd`]), rather than the earliest few classified by replanning
    /// (the groups' searches classify the earliest).
    pub cbs_mdd: bool,
    /// With `cbs`: a node whose pair in conflict is proven (by the pairs' bounds) not to
    /// fit at its two agents' own costs is split into "one costs more" and "the other
    /// costs more" when no cardinal conflict is found ([`symmetry`]).
    pub cbs_pair_splits: bool,
    /// With `cbs`: a node whose two agents meet head-on in a corridor is split into
    /// "the first does not reach its far end by t1" and "the second does not reach its
    /// far end by t2" ([`corridor`]), where a vertex or edge split would move the meeting
    /// one step along.
    pub cbs_corridors: bool,
    /// With `cbs`: a target conflict (an agent on the goal of another after that one
    /// arrived for good) is split into "the home agent arrives later" and "the home
    /// agent arrives for good by then, and every other agent keeps off its goal from
    /// then on" ([`cbs::Targets`]), rather than keeping the crosser alone off it.
    pub cbs_targets: bool,
    /// With `cbs`: each group's conflict-based search takes, among paths of equal cost
    /// and equal conflicts within the group, those of fewest conflicts with the other
    /// groups' plans ([`cbs::Outside`]), so that its plan collides with fewer of them and
    /// fewer groups merge: orz900d random-1 K = 100 (`--time-limit 30`) grew a group of
    /// 24 agents, each merge a new search of 8 to 14 s, and was proven at 73 s; with it
    /// the largest group has 11 agents and the instance is proven in 10.6 s.
    pub cbs_outside: bool,
    /// The SAT sessions' solvers in CaDiCaL's `plain` configuration, without
    /// preprocessing or inprocessing ([`encoding::Sessions::plain`]).
    pub plain_sat: bool,
    /// With `cbs` and [`Whole::AfterGroups`]: the search over all agents also on the
    /// instances [`Cbs::decides`] does not give it, from [`Within::whole_late_from`]
    /// (later than [`Within::whole_from`]: there the groups' SAT decisions settle most
    /// instances, some of them late in the proof's time).
    pub cbs_whole_late: bool,
    /// With `cbs_whole_late`: the least cells of a map on which the search over all
    /// agents takes over late ([`WHOLE_LATE_CELLS`] by default).
    pub whole_late_cells: usize,
    /// With `pairwise`: each agent's cells in a SAT session reach only the session's
    /// reach less what the other agents take at least by their pairs
    /// ([`encoding::Sessions::own_reaches`]).
    pub own_reaches: bool,
    /// With [`Whole::AfterGroups`]: the search over all agents gives the rest of the time
    /// back to the groups when it stalls ([`WHOLE_STALL`] nodes without a rise of its
    /// bound) instead of keeping it to the end.
    pub whole_stall_back: bool,
    /// With `groups` and `incremental`: two groups whose plans collide, when planning
    /// cannot place either around the other, are first planned again by their own SAT
    /// session, keeping off every other group's plan within their least
    /// ([`core::Groups::with_sat_repair`]), before they merge.
    pub sat_repair: bool,
}

/// When the search over all agents ([`Techniques::cbs_whole`]) decides.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // `Off`, `First`: the tests
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whole {
    /// Never.
    Off,
    /// Once the pairwise bound is known, before the groups; it leaves them what it
    /// proved when it stalls ([`WHOLE_STALL`]) or passes its memory.
    First,
    /// From [`Within::whole_from`] (the driver's share of the proof's time) to the end,
    /// the groups deciding before (nothing when there is no such instant): the groups
    /// settle most instances in a few seconds (orz900d random-1 K = 50: 3.3 to 4.4 CPU s,
    /// 5.0 to 6.1 s with the search over all agents first), while on brc202d random-1
    /// K = 100 they stop at the pairwise bound and the search over all agents raises it
    /// to the optimum. It starts earlier, with their memory, when a group's encoding
    /// would pass the memory before that instant, on every map (then the groups do not
    /// take the time back).
    AfterGroups,
}

/// With [`Whole::First`], the nodes the search over all agents takes in a row
/// without a rise of its least bound before it leaves the rest to the groups: its bound
/// rose every 1 to 5 nodes on brc202d random-1 K = 100 (from 35 to 72 extra steps, the
/// optimum, in 81 nodes), while on orz900d random-1 K = 50 it took 60 nodes from 8 to 9
/// and 300 more to 10 (the groups prove 10 in a third of that time).
pub const WHOLE_STALL: usize = 32;

/// With [`Cbs::Large`], the maps on which conflict-based search decides the groups first.
pub const CBS_CELLS: usize = 10_000;

/// With [`Techniques::cbs_whole_late`], the maps on which the search over all agents takes
/// the last fifth of the proof's time from the groups: on the large maps it raised the
/// proven bound of six rows unproven either way (ht_chantry, 7 461 cells, random-1 K = 100
/// 8688 -> 8696; lt_gallowstemplar_n, lak303d, maze-128-128-1), while on the sweep's maps
/// (at most 5 699 cells) the groups' SAT decisions need that time: room-32-32-4 even-1
/// K = 40, `--time-limit 30`, proven 1101 in 20.8 CPU s without it, `1102 >= 1101` twice
/// with it.
pub const WHOLE_LATE_CELLS: usize = 7_000;

/// With [`Cbs::Large`], the least average distance of a group's agents that conflict-based
/// search decides: the SAT encoding grows with the paths' length (brc202d random-1: 400
/// steps on average, a group of 10 agents took seconds a decision), while on shorter
/// paths SAT settled the groups CBS did not (lak303d random-1 K = 50, 147 steps on
/// average: proven in 11.6 CPU s by SAT alone, unproven at 30 CPU s with CBS first;
/// ost003d random-1 K = 100: 9.2 CPU s by SAT, unproven with 250, 18.2 s with 350).
pub const CBS_DISTANCE: u64 = 350;

/// Which groups [`cbs`] decides (one it gives up on goes to SAT).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // `Off`, `Everywhere`: the tests
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cbs {
    /// None.
    Off,
    /// Groups on large maps ([`core::Groups`] says which).
    Large,
    /// Every group (for the tests).
    Everywhere,
}

impl Cbs {
    /// Whether conflict-based search decides the agents `agents` of `instance` first:
    /// all of them with [`Cbs::Everywhere`]; with [`Cbs::Large`], on maps of at least
    /// [`CBS_CELLS`] cells when the agents are at least [`CBS_DISTANCE`] steps from their
    /// goals on average.
    ///
    /// # Complexity
    /// O(agents).
    pub fn decides(self, instance: &Instance<'_>, agents: &[usize]) -> bool {
        let long = || {
            let sum: u64 = agents
                .iter()
                .map(|&a| u64::from(instance.distance(a, instance.starts[a])))
                .sum();
            sum >= CBS_DISTANCE * agents.len() as u64
        };
        match self {
            Cbs::Everywhere => true,
            Cbs::Large => instance.grid.cell_count() >= CBS_CELLS && long(),
            Cbs::Off => false,
        }
    }
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques {
            planning: true,
            core: true,
            groups: true,
            incremental: true,
            pairwise: true,
            core_guided: true,
            reuse_plan: true,
            cbs: Cbs::Large,
            cbs_pairs: true,
            cbs_pair_costs: true,
            fill: true,
            pairs_by_cbs: true,
            cbs_whole: Whole::AfterGroups,
            cbs_mdd: true,
            cbs_pair_splits: true,
            cbs_corridors: true,
            cbs_targets: true,
            cbs_outside: true,
            plain_sat: true,
            cbs_whole_late: true,
            whole_late_cells: WHOLE_LATE_CELLS,
            own_reaches: true,
            whole_stall_back: true,
            sat_repair: true,
        }
    }
}

/// A plan of least sum of costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocPlan {
    /// The sum of the agents' costs.
    pub cost: u64,
    /// The sum of the agents' distances (no plan costs less).
    pub lower_bound: u64,
    /// Per agent, its cell at every time 0..=H (H the makespan of the plan; agents that
    /// have arrived stay).
    pub paths: Vec<Vec<u32>>,
}

impl SocPlan {
    /// The plan as placements after each step 1..=H.
    pub fn placements(&self) -> Vec<Vec<CellId>> {
        let horizon = self.paths.first().map_or(0, |p| p.len().saturating_sub(1));
        (1..=horizon)
            .map(|t| {
                self.paths
                    .iter()
                    .map(|p| CellId::new(p[t] as usize))
                    .collect()
            })
            .collect()
    }
}

/// What the search over all agents ([`Techniques::cbs_whole`]) is given besides its
/// budgets.
struct WholeSearch<'i, 'a> {
    instance: &'i Instance<'a>,
    /// The sum of the agents' distances.
    lower_bound: u64,
    pair_costs: cbs::PairCosts,
    classify: cbs::Classify,
    /// Whether it splits on pairs that do not fit at their own costs.
    pair_splits: bool,
    /// Whether it splits on corridor conflicts.
    corridors: bool,
    /// Whether its target splits reserve the goal for its agent.
    targets: bool,
    /// Bytes it may take.
    room: u64,
}

impl WholeSearch<'_, '_> {
    /// One conflict-based search over all the agents from `delta` extra steps (proven)
    /// to the cost of `incumbent` (less one; without one, [`PAIR_CAP`] past `delta`),
    /// nodes bounded by `pairs`, until `deadline` or `stall` nodes without a rise of its
    /// bound: a plan of least sum of costs, or the extra steps it proved and whether the
    /// deadline stopped it.
    ///
    /// # Complexity
    /// As [`cbs::least_extra`].
    fn decide(
        &self,
        delta: u32,
        incumbent: Option<&SocPlan>,
        pairs: &[pairwise::Pair],
        deadline: super::sat::Deadline,
        stall: usize,
    ) -> Result<SocPlan, (u32, bool)> {
        let instance = self.instance;
        let everyone: Vec<usize> = (0..instance.starts.len()).collect();
        let allowance = incumbent.map_or(delta.saturating_add(PAIR_CAP), |best| {
            u32::try_from(best.cost - self.lower_bound - 1).unwrap_or(u32::MAX)
        });
        let mut searches = u64::MAX;
        let searched = cbs::least_extra(
            instance,
            &everyone,
            delta,
            pairs,
            self.pair_costs,
            self.classify,
            &mut symmetry::PairSplits {
                on: self.pair_splits,
                made: 0,
            },
            &mut corridor::Corridors {
                on: self.corridors,
                made: 0,
            },
            &mut cbs::Targets {
                on: self.targets,
                ..cbs::Targets::off()
            },
            allowance,
            self.room,
            deadline,
            &mut searches,
            stall,
            &cbs::Outside::none(),
        );
        match searched {
            cbs::Searched::Plan { paths, .. } => {
                let horizon = paths.iter().map(Vec::len).max().unwrap_or(1);
                let paths: Vec<Vec<u32>> = paths
                    .into_iter()
                    .zip(instance.goals)
                    .map(|(mut path, goal)| {
                        path.resize(horizon, goal.index() as u32);
                        path
                    })
                    .collect();
                Ok(SocPlan {
                    cost: sum_of_costs(&paths, instance.goals),
                    lower_bound: self.lower_bound,
                    paths,
                })
            }
            cbs::Searched::AtLeast(least) | cbs::Searched::GaveUp(least) => Err((least, false)),
            cbs::Searched::Stopped(least) => Err((least, true)),
        }
    }
}

/// The sum of the costs of `paths` (each agent's last arrival at its goal).
pub fn sum_of_costs(paths: &[Vec<u32>], goals: &[CellId]) -> u64 {
    paths
        .iter()
        .zip(goals)
        .map(|(p, g)| u64::from(planning::cost(p, g.index() as u32)))
        .sum()
}

/// The least sum of costs that brings every agent from `starts` to `goals` on `grid`
/// (distinct starts, distinct goals, all on cells of `grid`), with a plan, by the
/// techniques `techniques`, within `budget_mib` MiB. `None`: no plan exists.
///
/// # Errors
/// [`Unanswered::OverBudget`] when a step would pass the budget.
///
/// # Complexity
/// See the module documentation.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn solve(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    budget_mib: u64,
    techniques: Techniques,
) -> Result<Option<SocPlan>, Unanswered> {
    let mut never = || false;
    let within = Within {
        stop: &mut never,
        deadline: super::sat::Deadline::default(),
        first: None,
        first_bound: 0,
        whole_from: super::sat::Deadline::default(),
        whole_late_from: super::sat::Deadline::default(),
        beside: None,
        raised: None,
    };
    Ok(solve_within(grid, starts, goals, budget_mib, techniques, within)?.map(|(plan, _)| plan))
}

/// What the proof and a search for plans beside it, on another thread, tell each other
/// ([`Within::beside`]); the search's plans go to whoever watches the solve's
/// [`Progress`] as well (the proof's bound goes there by [`Within::raised`]).
#[derive(Debug)]
pub struct Beside<'p> {
    /// The sum of costs of the best plan the search beside has found (`u64::MAX`: none).
    pub found: std::sync::atomic::AtomicU64,
    /// The proof's lower bound so far.
    pub bound: std::sync::atomic::AtomicU64,
    /// Told each plan found as well (`None`: nobody watches).
    pub progress: Option<&'p Progress>,
}

impl Default for Beside<'_> {
    fn default() -> Self {
        Beside {
            found: std::sync::atomic::AtomicU64::new(u64::MAX),
            bound: std::sync::atomic::AtomicU64::new(0),
            progress: None,
        }
    }
}

impl<'p> Beside<'p> {
    /// No plan, no bound yet; the plans found told to `progress` as well.
    pub fn telling(progress: Option<&'p Progress>) -> Self {
        Beside {
            progress,
            ..Beside::default()
        }
    }

    /// The proof's bound is now `bound`.
    pub fn tell_bound(&self, bound: u64) {
        self.bound
            .store(bound, std::sync::atomic::Ordering::Relaxed);
    }

    /// The search beside found a plan of sum of costs `cost`.
    pub fn tell_found(&self, cost: u64) {
        self.found.store(cost, std::sync::atomic::Ordering::Relaxed);
        if let Some(progress) = self.progress {
            progress.plan_of(cost);
        }
    }
}

/// What the caller (the driver, which owns the clock) allows [`solve_within`], and the
/// plan it already has.
pub struct Within<'s> {
    /// Asked before every budget of extra steps: true stops the proof.
    pub stop: &'s mut dyn FnMut() -> bool,
    /// When a SAT decision under way gives up (the same limit as `stop`).
    pub deadline: super::sat::Deadline,
    /// A legal plan found before (every agent's cell at 0..=H): the first incumbent, and
    /// a proof that the instance is solvable.
    pub first: Option<Vec<Vec<u32>>>,
    /// A proven lower bound on the sum of costs known with `first` (the sum of the
    /// distances, from the caller's tables): the bound answered with `first` when
    /// `stop` comes before the proof's own tables are built; 0 when unknown.
    pub first_bound: u64,
    /// With [`Whole::AfterGroups`]: when the groups stop and the search over all agents
    /// takes the rest of the time (none: the groups decide to the end).
    pub whole_from: super::sat::Deadline,
    /// With [`Techniques::cbs_whole_late`]: when the groups stop and the search over all
    /// agents takes the rest of the time on the instances [`Cbs::decides`] does not give
    /// it (none: the groups decide to the end).
    pub whole_late_from: super::sat::Deadline,
    /// A search for plans beside the proof, if one runs: before every budget the proof
    /// tells it its bound, and stops (as `stop` does) once a plan it found costs no more
    /// than that bound, which the caller then answers proven.
    pub beside: Option<&'s Beside<'s>>,
    /// Told the proven lower bound (the sum of costs) each time it rises, before the
    /// budget it starts; `None`: nobody.
    pub raised: Option<&'s mut dyn FnMut(u64)>,
}

/// [`solve`], stopped when `within.stop` says so or a step would pass the budget: then,
/// when a plan is known (`within.first` or one found since), the best one and the proven
/// lower bound (the sum of the distances plus the budgets of extra steps proved
/// impossible). A proven answer has the bound equal to its cost.
///
/// # Errors
/// [`Unanswered::OverBudget`] when a step would pass the budget, and
/// [`Unanswered::Time`] (with a zero limit: the caller knows its own) when `stop` said so,
/// both with no plan known.
///
/// # Complexity
/// See the module documentation.
pub fn solve_within(
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    budget_mib: u64,
    techniques: Techniques,
    within: Within<'_>,
) -> Result<Option<(SocPlan, u64)>, Unanswered> {
    let k = starts.len();
    let budget = budget_mib.saturating_mul(MIB);
    let over = |detail: String| Unanswered::OverBudget { budget_mib, detail };
    // A stop's limit is zero: the caller knows its own. Stopped with a plan in hand, that
    // plan is the answer, with the bound known with it.
    let instance = match Instance::within(grid, starts, goals, budget, within.stop) {
        Ok(instance) => instance,
        Err(Refused::Stopped) if within.first.is_some() => {
            let paths = within.first.unwrap_or_default();
            let cost = sum_of_costs(&paths, goals);
            let bound = within.first_bound.min(cost);
            let plan = SocPlan {
                cost,
                lower_bound: bound,
                paths,
            };
            return Ok(Some((plan, bound)));
        }
        Err(refused) => {
            return Err(refused.unanswered(k, budget_mib, std::time::Duration::ZERO));
        }
    };
    let distance_bytes = instance.distance_bytes();
    if instance.lower_bound().is_none() {
        return Ok(None);
    }
    let d = planning::distances(&instance);
    let lower_bound: u64 = d.iter().map(|&x| u64::from(x)).sum();
    let longest = d.iter().copied().max().unwrap_or(0);
    let mut incumbent: Option<SocPlan> = within.first.map(|paths| SocPlan {
        cost: sum_of_costs(&paths, goals),
        lower_bound,
        paths,
    });
    // A proof of solvability (the test's, or a plan) lets the budgets run free; otherwise
    // the makespan solver decides, so that both objectives answer -1 on the same
    // instances, and its plan is the first incumbent.
    if incumbent.is_none() && solvable::check(&instance) != solvable::Verdict::Solvable {
        let makespan = super::solve(
            grid,
            starts,
            goals,
            crate::dataset::Want::Plan,
            budget_mib,
            Method::Auto,
        )?;
        let Some(plan) = makespan.plan.filter(|_| makespan.steps.is_some()) else {
            return Ok(None);
        };
        let mut paths: Vec<Vec<u32>> = starts.iter().map(|s| vec![s.index() as u32]).collect();
        for placement in &plan {
            for (path, cell) in paths.iter_mut().zip(placement) {
                path.push(cell.index() as u32);
            }
        }
        incumbent = Some(SocPlan {
            cost: sum_of_costs(&paths, goals),
            lower_bound,
            paths,
        });
    }
    let squares = (grid.height() as u64).saturating_mul(grid.width() as u64);
    let map_bytes = squares * 4 + grid.cell_count() as u64 * (24 + 29);
    let room = budget.saturating_sub(distance_bytes.saturating_mul(2).saturating_add(map_bytes));
    let mut in_core = vec![false; k];
    let mut delta = 0u32;
    let mut paired = false;
    let mut whole_tried = false;
    let stop = within.stop;
    let beside = within.beside;
    let mut raised = within.raised;
    let mut told = None;
    let everyone: Vec<usize> = (0..k).collect();
    let by_whole = techniques.cbs.decides(&instance, &everyone);
    // With the search over all agents after the groups, the groups' decisions stop at
    // its start.
    let whole_from = if by_whole {
        within.whole_from
    } else if techniques.cbs_whole_late
        && techniques.cbs != Cbs::Off
        && grid.cell_count() >= techniques.whole_late_cells
    {
        within.whole_late_from
    } else {
        super::sat::Deadline::default()
    };
    let whole_later = techniques.cbs_whole == Whole::AfterGroups && whole_from.0.is_some();
    // When the groups' encodings pass the memory, the search over all agents, which
    // needs none of it, takes the rest of the time (with its memory) where it would have
    // taken a share: with `--time-limit 90` on lt_gallowstemplar_n random-1 K = 50 a
    // group passed the memory at 40 s, before the search over all agents had its turn,
    // and the answer's bound was 5573, below the 5606 it proves at 30 s.
    let whole_if_full = techniques.cbs_whole == Whole::AfterGroups && techniques.cbs != Cbs::Off;
    // The groups' memory error, answered when the search over all agents after it
    // finds no plan.
    let mut full: Option<Unanswered> = None;
    let deadline = if whole_later {
        whole_from
    } else {
        within.deadline
    };
    let mut sessions = if techniques.core_guided {
        encoding::Sessions::core_guided(techniques.incremental, deadline)
            .reusing(techniques.reuse_plan)
            .filling(techniques.fill)
            .plain(techniques.plain_sat)
            .own_reaches(techniques.own_reaches)
            .writing_until(within.deadline)
    } else {
        encoding::Sessions::new(techniques.incremental, deadline)
            .filling(techniques.fill)
            .plain(techniques.plain_sat)
            .own_reaches(techniques.own_reaches)
            .writing_until(within.deadline)
    };
    let pair_costs = if techniques.cbs_pair_costs {
        cbs::PairCosts::UnderConstraints
    } else {
        cbs::PairCosts::Instance
    };
    let classify = if techniques.cbs_mdd {
        cbs::Classify::Mdd
    } else {
        cbs::Classify::Earliest
    };
    // The search over all agents (`Whole`), on `room` bytes.
    let whole = |room: u64| WholeSearch {
        instance: &instance,
        lower_bound,
        pair_costs,
        classify,
        pair_splits: techniques.cbs_pair_splits,
        corridors: techniques.cbs_corridors,
        targets: techniques.cbs_targets,
        room,
    };
    let mut groups = core::Groups::new()
        .with_cbs(techniques.cbs)
        .with_cbs_pairs(techniques.cbs_pairs)
        .with_cbs_pair_costs(pair_costs)
        .with_cbs_pair_splits(techniques.cbs_pair_splits)
        .with_cbs_corridors(techniques.cbs_corridors)
        .with_cbs_targets(techniques.cbs_targets)
        .with_cbs_outside(techniques.cbs_outside)
        .with_sat_repair(techniques.sat_repair);
    // Every budget below `delta` is proved impossible: LB + delta is the proven bound
    // whenever the loop stops.
    let mut budgets = || -> Result<Option<SocPlan>, Unanswered> {
        loop {
            if let Some(best) =
                incumbent.take_if(|best| best.cost <= lower_bound + u64::from(delta))
            {
                return Ok(Some(best));
            }
            let bound = lower_bound + u64::from(delta);
            if let Some(raised) = raised.as_mut().filter(|_| told < Some(bound)) {
                told = Some(bound);
                raised(bound);
            }
            if let Some(beside) = beside {
                use std::sync::atomic::Ordering::Relaxed;
                beside.tell_bound(bound);
                if beside.found.load(Relaxed) <= bound {
                    return Err(Unanswered::Time {
                        limit: std::time::Duration::ZERO,
                    });
                }
            }
            if stop() {
                return Err(Unanswered::Time {
                    limit: std::time::Duration::ZERO,
                });
            }
            let horizon = longest.saturating_add(delta);
            let need = planning::memory_need(grid, horizon, k);
            let paths = if need > room {
                return Err(over(format!(
                    "{} MiB for planning {k} agents over {horizon} steps",
                    need.div_ceil(MIB)
                )));
            } else if techniques.planning {
                planning::plan_all(&instance, delta, horizon, PLANNING_ATTEMPTS, stop)
            } else {
                None
            };
            // The least budget not proved impossible after this one.
            let mut next = delta + 1;
            let decision = match paths {
                Some(paths) => Decision::Plan(paths),
                None => {
                    let room = room.saturating_sub(need);
                    let max_variables = room / super::sat::BYTES_PER_VARIABLE;
                    if techniques.pairwise && !paired {
                        // Once, before the first SAT decision: planning settles most
                        // instances without it.
                        paired = true;
                        let gap = incumbent.as_ref().map_or(PAIR_CAP, |best| {
                            u32::try_from(best.cost - lower_bound).unwrap_or(u32::MAX)
                        });
                        let bound = pairwise::pairwise_bound(
                            &instance,
                            gap.min(PAIR_CAP),
                            max_variables,
                            &sessions,
                            if techniques.pairs_by_cbs {
                                techniques.cbs
                            } else {
                                Cbs::Off
                            },
                        );
                        sessions.set_pairs(bound.pairs);
                        if bound.extra > delta {
                            delta = bound.extra;
                            continue;
                        }
                    }
                    if techniques.cbs_whole == Whole::First && !whole_tried && paired && by_whole {
                        whole_tried = true;
                        let from = whole(room).decide(
                            delta,
                            incumbent.as_ref(),
                            sessions.pairs_if(techniques.cbs_pairs),
                            within.deadline,
                            WHOLE_STALL,
                        );
                        match from {
                            Ok(plan) => return Ok(Some(plan)),
                            Err((least, stopped)) => {
                                delta = delta.max(least);
                                if stopped {
                                    return Err(Unanswered::Time {
                                        limit: std::time::Duration::ZERO,
                                    });
                                }
                                continue;
                            }
                        }
                    }
                    let too_large = |variables: u64| {
                        over(format!(
                            "about {} MiB for the SAT encoding of {delta} extra steps ({variables} \
                         variables)",
                            variables
                                .saturating_mul(super::sat::BYTES_PER_VARIABLE)
                                .div_ceil(MIB)
                        ))
                    };
                    if techniques.core && techniques.groups {
                        match groups.decide(&instance, delta, horizon, max_variables, &sessions) {
                            Ok(core::Grouped::Plan(paths)) => Decision::Plan(paths),
                            Ok(core::Grouped::AtLeast(least)) => {
                                next = least;
                                Decision::Impossible
                            }
                            Ok(core::Grouped::Stopped) => Decision::Stopped,
                            Err(e) if whole_if_full && !whole_tried => {
                                full = Some(too_large(e.variables));
                                Decision::Stopped
                            }
                            Err(e) => return Err(too_large(e.variables)),
                        }
                    } else if techniques.core {
                        core::decide_in(
                            &instance,
                            delta,
                            horizon,
                            &mut in_core,
                            max_variables,
                            &mut sessions,
                        )
                        .map_err(|e| too_large(e.variables))?
                        .decision
                    } else {
                        sessions
                            .decide(&instance, &everyone, delta, max_variables)
                            .map_err(|e| too_large(e.variables))?
                    }
                }
            };
            if decision == Decision::Stopped && (whole_later || full.is_some()) && !whole_tried {
                // The groups' share of the time is over (or their memory): the search
                // over all agents takes the rest, with the memory of the groups' SAT
                // sessions (with the stall back, beside them: the groups go on in them
                // after; not after their memory ran out).
                whole_tried = true;
                let stall_back = techniques.whole_stall_back && full.is_none();
                let room = if stall_back {
                    let kept = groups.variables().saturating_add(sessions.variables());
                    room.saturating_sub(kept.saturating_mul(super::sat::BYTES_PER_VARIABLE))
                } else {
                    groups.drop_sessions();
                    room
                };
                let from = whole(room).decide(
                    delta,
                    incumbent.as_ref(),
                    sessions.pairs_if(techniques.cbs_pairs),
                    within.deadline,
                    if stall_back { WHOLE_STALL } else { usize::MAX },
                );
                match from {
                    Ok(plan) => return Ok(Some(plan)),
                    Err((least, false)) if stall_back => {
                        // Stalled: the groups, whose bound was still rising, take
                        // the rest of the time back (their cores are replayed).
                        delta = delta.max(least);
                        groups.give_up_at(within.deadline);
                        sessions.give_up_at(within.deadline);
                        continue;
                    }
                    Err((least, _)) => {
                        delta = delta.max(least);
                        return Err(full.take().unwrap_or(Unanswered::Time {
                            limit: std::time::Duration::ZERO,
                        }));
                    }
                }
            }
            if decision == Decision::Stopped {
                return Err(Unanswered::Time {
                    limit: std::time::Duration::ZERO,
                });
            }
            if let Decision::Plan(paths) = decision {
                return Ok(Some(SocPlan {
                    cost: sum_of_costs(&paths, goals),
                    lower_bound,
                    paths,
                }));
            }
            // Budgets the decision proved impossible beyond its own.
            delta = next.max(sessions.proven());
        }
    };
    let answer = budgets();
    // The SAT sessions kept (millions of clauses when the proof ran long) are freed off
    // the clock once the deadline has passed: freeing them took 0.4 to 0.5 s past a
    // `--time-limit 10` on maze-32-32-4 even-1 with 40 agents and den312d even-1 with 80.
    super::sat::drop_off_the_clock((groups, sessions), within.deadline);
    match answer {
        Ok(found) => Ok(found.map(|plan| {
            let cost = plan.cost;
            (plan, cost)
        })),
        Err(stopped) => match incumbent {
            Some(best) => Ok(Some((best, lower_bound + u64::from(delta)))),
            None => Err(stopped),
        },
    }
}

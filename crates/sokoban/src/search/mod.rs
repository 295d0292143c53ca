//! The exact search: A* over (box squares, the player's exact square after the last push),
//! with a lexicographic cost, (pushes, moves) or (moves, pushes).
//!
//! # Method
//! A state is the sorted box squares and the square the player stands on right after the
//! push that made it. The player's square is kept exact, not normalised to its reachable
//! region, because the second key (or the first, for moves) counts the steps of the walk
//! to the next push, and that depends on where the player is. One edge is one push: the
//! player walks (boxes as walls, breadth-first) to the square behind a box and pushes it;
//! the edge costs 1 push and walk + 1 moves.
//!
//! The bound is a pair. Pushes: the minimum-cost matching of boxes to goals on lone-box
//! push distances ([`crate::matching`], [`crate::board`]), computed once per box layout,
//! and at least the parent's pushes bound less one (a child is one push from its parent:
//! the bound passed down, "pathmax", keeps `f` from falling along a path where the
//! best-side distances of the matching drop by more than one push). Moves: at least those
//! pushes, and at least, for every box, the fewest moves that bring that box alone onto a
//! goal with the player starting on its square (`Board::lone_steps`): the player's track
//! in any solution, the other boxes taken away, solves each one-box level. `--metric
//! moves` also takes the exact moves left near the end from a breadth-first search
//! backwards from the solved states (`ball`), built once the search has run a while and
//! grown with it; every state outside it has more moves left than its radius. In the
//! metric's order the pair never exceeds the remaining cost lexicographically, so the first solved
//! state taken from the queue (by `Priority`) is optimal on both keys. The bound is
//! admissible but not always consistent, so a state reached again more cheaply is queued
//! again (re-opened); a queue entry whose cost is no longer its state's is skipped.
//!
//! One expansion serves every open state of the box layout with as many pushes: one walk
//! from all their squares at once (`Walker::run_many`) gives each push its cheapest
//! start, exactly what expanding them one by one would give. Expanding a state before its
//! turn is safe: it is expanded at its current cost, and again if that cost falls. A push
//! whose cheapest start is a state expanded before with as many pushes is skipped: that
//! expansion made the same child at the same cost.
//!
//! States are kept by box layout (`table`): a child is looked up by its layout, then its
//! player's square among the few states the layout's cache line holds, which is also all
//! the dominance test below reads.
//!
//! Pruned, because no solution passes there (so every optimum survives for both metrics):
//! pushes onto dead squares, pushes that freeze a box off a goal ([`crate::board::Freeze`]),
//! pushes that leave the pushed box in a deadlock with one or two other boxes
//! (`GroupDeadlocks`),
//! and states whose matching is impossible. Pruned because another state is at least as
//! good, `--metric pushes` only: a state whose layout has a state with fewer pushes in the
//! same connected part of the floor (the player of that one walks to this square, which
//! costs no push: every continuation from here is a cheaper one from there, strictly fewer
//! pushes, whatever the moves). That state is kept, so it or one that dominates it in turn
//! (with still fewer pushes, so the chain ends) is expanded. Not for `--metric moves`,
//! where fewer pushes say nothing about the first key. There instead, a state taken from
//! the queue is dropped when another state of its layout, plus the walk from its square
//! to this one, costs no more ("walked over", `Search::is_walked_over`): every
//! continuation from here is one from there at no more cost, and that state (fewer
//! moves, so the chain ends) is kept.
//!
//! # Layout
//! A ladder, each module using only those before it: `budget` (memory accounting),
//! `index` (the hash index), `ball` (the backward ball), `table` (states by box layout), `queue` (the open states),
//! `walker` (the player's walks), `push_optimum` (the fewest pushes alone, the player
//! normalised to its region), `corridor` (the states on the solutions with the fewest
//! pushes, from both ends), `expand` (one expansion), and here the driver, which owns the
//! clock and the triple table's timing and reads the solution back.
//!
//! # Complexity
//! Exponential in the number of boxes in the worst case (the problem is PSPACE-complete).
//! Per expansion: one walk search O(cells + states of the layout); per push an O(k log k)
//! sort, an O(k) hash, O(k^2) group lookups and, with `--metric pushes` when the layout
//! already has a state with fewer pushes, one walk O(cells); per new layout an O(k^3)
//! matching for k boxes.
//! Memory: 28 bytes per state and 8 in its layout's line (one 64-byte line per layout
//! holds six states, a further line seven more), 64 + 2k bytes per layout, plus the layouts'
//! hash index and the queue, all counted against the budget.

mod ball;
mod budget;
mod corridor;
mod expand;
mod index;
mod push_optimum;
mod queue;
mod table;
mod walker;
mod walks;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use grid_core::{CellId, Dir};

use crate::board::Board;
use crate::groups::GroupDeadlocks;
use crate::matching::Matcher;
use crate::parse::Level;
use crate::pattern::{PairPushes, PairScratch};
use crate::solution::{Metric, Options, Solution, SolveError, counted};
pub use ball::BallPlan;
use expand::Search;
pub use expand::Stats;
pub(crate) use index::hash_squares;
use push_optimum::{Outcome, Paths};
pub(crate) use push_optimum::{Probe, Probed};
pub use push_optimum::{Pruning, PushStats};
use table::{HOPELESS, ROOT, Table};
use walker::Walker;

/// The expansions after which the triple table ([`GroupDeadlocks::triples`]) is built:
/// it takes up to a tenth of a second, more than most levels need in all; built at the
/// start when it takes at most [`TRIPLES_AT_ONCE_BYTES`] (a few milliseconds).
pub(super) const TRIPLES_AFTER: u64 = 20_000;
/// See [`TRIPLES_AFTER`].
pub(super) const TRIPLES_AT_ONCE_BYTES: u64 = 2 << 20;
/// The expansions between two looks at the clock on levels of ordinary size
/// ([`clock_every`]).
pub(super) const CLOCK_EVERY: u64 = 256;

/// The expansions between two looks at the clock on `level`: [`CLOCK_EVERY`], or fewer
/// where one expansion costs more than a few microseconds. An expansion walks the floor
/// (n squares) and matches up to 4k children, each at least O(k) and up to O(k^2) for k
/// boxes; on a floor of 60,000 squares with 200 boxes 256 expansions took seconds.
///
/// # Complexity
/// O(1).
pub(super) fn clock_every(level: &Level) -> u64 {
    clock_every_walking(level, 1)
}

/// [`clock_every`] for steps that walk the floor `walks` times each (the corridor's
/// states walk it once per pull, up to 4k times: 256 of them in a room of 6,400 squares
/// ran 0.3 s past the limit).
///
/// # Complexity
/// O(1).
pub(super) fn clock_every_walking(level: &Level, walks: u64) -> u64 {
    let (n, k) = (level.grid().cell_count() as u64, level.boxes().len() as u64);
    (CLOCK_EVERY * 4096 / (walks.max(1) * n + 4 * k * k).max(1)).clamp(1, CLOCK_EVERY)
}

/// The share of its time limit after which the exact search may give up ([`GiveUp`]).
const GIVE_UP_AFTER: f64 = 0.8;

/// How far below the solution in hand its bound must be for the exact search to give up
/// ([`GiveUp`]): the solution's first key more than this share above the bound.
const GIVE_UP_GAP: f64 = 0.1;

/// When the exact search gives the rest of its time up, so that the solution in hand
/// is polished with it instead (`finder::polish`): past [`GIVE_UP_AFTER`] of its time
/// limit, while the cheapest solution published beside ([`SolutionsBeside`]) costs more
/// than its bound (or `floor`, the first phase's) by more than [`GIVE_UP_GAP`], by the
/// metric's first key.
///
/// Why: on XSokoban's hard levels the bound rises by a push or two in the last fifth of
/// a minute, where the solution stays 20 to 80 pushes above it (15: `180 698 >= 102`);
/// 15 s of polish took 15 to `164 532`, 5 from `161 518` to `149 403`. Where the bound is
/// close to the solution (Microban's levels proven near the limit, a solution with the
/// fewest pushes proven beside), the search goes on to the limit.
pub(super) struct GiveUp<'a> {
    after: Instant,
    solutions: &'a SolutionsBeside,
    metric: Metric,
    floor: u32,
}

impl GiveUp<'_> {
    /// Whether the search, its bound `bound` now, gives up. The fewest pushes proven
    /// beside are a bound too (`--metric pushes`): with their solution in hand, the
    /// search goes on (Microban 93 and 144, whose moves it proves under that ceiling
    /// near the limit while its own bound on the pushes is still below).
    fn now(&self, bound: u32) -> bool {
        let proven = match self.metric {
            Metric::Pushes if self.solutions.has_fewest() => self.solutions.pushes(),
            _ => 0,
        };
        let bound = f64::from(bound.max(self.floor).max(proven));
        Instant::now() >= self.after
            && self
                .solutions
                .first_key(self.metric)
                .is_some_and(|key| f64::from(key) > bound * (1.0 + GIVE_UP_GAP))
    }
}

/// Solves `level` for `options.metric` (see the module documentation), and tells what
/// the search did, with the lower bound it proved ([`Stats::bound`]) when a limit stopped
/// it: the exact search alone ([`PushProof::OneSearch`]).
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests and examples (`internals`)
pub fn solve_counting(
    level: &Level,
    options: &Options,
) -> (Result<Option<Solution>, SolveError>, Stats) {
    solve_counting_by(level, options, PushProof::OneSearch)
}

/// How `--metric pushes` is proven (`--metric moves` is always one search).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushProof {
    /// The exact search alone, on both keys at once.
    OneSearch,
    /// The fewest pushes first, the player normalised to its region, then the exact
    /// search under that ceiling (see [`solve_counting_by`]).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    Ceiling,
    /// As [`PushProof::Ceiling`], and the second phase keeps only the states on the
    /// solutions with the fewest pushes, found from both ends once the first phase has
    /// proven them (`corridor`).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    OnPaths,
    /// As [`PushProof::Ceiling`] when the first phase proves the fewest pushes within
    /// this time; otherwise the exact search alone for the rest of the time, as
    /// [`PushProof::OneSearch`] (the first phase's bound on the pushes kept).
    FirstWithin(Duration),
}

/// [`solve_counting`], `--metric pushes` proven as `proof` says.
///
/// [`PushProof::Ceiling`]: first the fewest pushes P alone, the player normalised to
/// its region (`push_optimum`, with PI-corral pruning); then the exact search under the
/// ceiling P (a state whose pushes and bound on the pushes left pass P is not kept: every
/// solution has at least P pushes, so none through it has P). [`PushProof::OnPaths`]:
/// besides, every (layout, region) on a solution with P pushes is found from both ends,
/// with its pushes from the start (`corridor`), and the second phase drops every other
/// new state (see `push_optimum::Known`). When a limit stops the
/// second phase, the answer is the first phase's solution, unproven, with the lower bound
/// P (its pushes are the fewest, its moves perhaps not).
pub fn solve_counting_by(
    level: &Level,
    options: &Options,
    proof: PushProof,
) -> (Result<Option<Solution>, SolveError>, Stats) {
    solve_counting_planned(level, options, proof, BallPlan::default())
}

/// [`solve_counting_by`], the backward ball (`--metric moves` with [`Bounds::ball`])
/// built as `plan` says rather than [`BallPlan::default`]: for the tests (a ball built
/// at once, or small) and measurements.
///
/// [`Bounds::ball`]: crate::Bounds::ball
pub fn solve_counting_planned(
    level: &Level,
    options: &Options,
    proof: PushProof,
    plan: BallPlan,
) -> (Result<Option<Solution>, SolveError>, Stats) {
    solve_counting_beside(level, options, proof, plan, None)
}

/// [`solve_counting_planned`] with, under `--metric pushes`, `fewest_beside`: the
/// fewest pushes once another search proves them ([`HOPELESS`] until then), read every
/// [`CLOCK_EVERY`] expansions and taken as the ceiling from then on (states made after
/// it are bounded and kept as under a first phase's ceiling; those made before keep
/// their weaker bounds, which stay admissible).
pub(crate) fn solve_counting_beside(
    level: &Level,
    options: &Options,
    proof: PushProof,
    plan: BallPlan,
    fewest_beside: Option<&SolutionsBeside>,
) -> (Result<Option<Solution>, SolveError>, Stats) {
    let started = Instant::now();
    let deadline = options.time_limit.map(|t| started + t);
    let (board, pairs, pattern) = match tables_unless_dead(level, options, deadline) {
        Ok(Some(tables)) => tables,
        Ok(None) => return (Ok(None), Stats::default()),
        Err(limit) => return (Err(limit), Stats::default()),
    };
    let mut first_phase = PushStats::default();
    // The first phase's backward ball by pushes, a bound on the pushes of the exact search
    // (also when the first phase did not finish in its time).
    let mut push_ball = None;
    let (ceiling, fewest_pushes) = match (options.metric, proof) {
        (Metric::Moves, _) | (Metric::Pushes, PushProof::OneSearch) => (HOPELESS, None),
        (Metric::Pushes, proof) => {
            let (paths, first_deadline) = match proof {
                PushProof::OnPaths => (Paths::Mark, deadline),
                PushProof::FirstWithin(within) => {
                    let end = Instant::now() + within;
                    (Paths::Skip, Some(deadline.map_or(end, |d| d.min(end))))
                }
                _ => (Paths::Skip, deadline),
            };
            let (outcome, stats, ball) = push_optimum::push_optimum(
                level,
                &board,
                (&pairs, &pattern),
                options,
                Pruning::PiCorrals,
                (paths, options.bounds.ball.then_some(plan)),
                (first_deadline, None, None),
            );
            first_phase = stats;
            push_ball = ball;
            match outcome {
                // Not within its own time (or the memory): the exact search alone.
                Err(e)
                    if e != SolveError::Interrupted
                        && matches!(proof, PushProof::FirstWithin(_)) =>
                {
                    (HOPELESS, None)
                }
                Err(e) => return (Err(e), first_stats(stats)),
                Ok(Outcome::Unsolvable) => return (Ok(None), first_stats(stats)),
                Ok(Outcome::Solved {
                    pushes,
                    lurd,
                    paths,
                }) => (pushes, Some((pushes, lurd, paths))),
            }
        }
    };
    let (fewest_pushes, paths) = match fewest_pushes {
        Some((pushes, lurd, paths)) => (Some((pushes, lurd)), paths),
        None => (None, None),
    };
    let mut search = Search::new(level, board, pairs, pattern, options, ceiling, paths);
    search.take_push_ball(push_ball);
    // Under the ceiling of a first phase that finished, its ball is kept as it is: grown
    // further it cost more than it saved (Microban 146 by pushes: 2.7 CPU s instead of
    // 1.3, a ball of radius 8 and 2 million layouts for 85,322 expansions fewer).
    search.ball_plan = search
        .ball_plan
        .filter(|_| ceiling == HOPELESS)
        .map(|_| plan);
    // The fewest pushes beside are a ceiling by pushes only; the finder's solution is
    // improved by either metric.
    let ceiling_beside = fewest_beside.filter(|_| options.metric == Metric::Pushes);
    let give_up = match (options.time_limit, fewest_beside) {
        (Some(limit), Some(solutions)) => Some(GiveUp {
            after: started + limit.mul_f64(GIVE_UP_AFTER),
            solutions,
            metric: options.metric,
            floor: first_phase.bound,
        }),
        _ => None,
    };
    let answer = match search.start() {
        Ok(true) => run(&mut search, options, deadline, ceiling_beside, give_up)
            .map_err(|e| search.budget.reason(e)),
        Ok(false) => Ok(None),
        Err(e) => Err(e),
    };
    let mut stats = search.stats;
    stats.states = search.table.info.len() as u64;
    stats.layouts = search.table.layouts.len() as u64;
    stats.first_phase = first_phase;
    stats.bound = stats.bound.max(first_phase.bound);
    let answer = match (answer, fewest_pushes) {
        (Err(e), fewest) => match fewest.or_else(|| ceiling_beside?.solution()) {
            Some((pushes, lurd)) => {
                stats.bound = stats.bound.max(pushes);
                let lurd = spliced(
                    level,
                    &search.table,
                    &mut search.walker,
                    lurd,
                    options.metric,
                );
                Ok(Some(Solution::unproven(lurd, pushes)))
            }
            None => {
                if let Some(beside) = fewest_beside {
                    beside.improve_found(|lurd| {
                        spliced(
                            level,
                            &search.table,
                            &mut search.walker,
                            lurd,
                            options.metric,
                        )
                    });
                }
                Err(e)
            }
        },
        (answer, _) => answer,
    };
    (answer, stats)
}

/// What the search did when the first phase ended it: that phase's.
fn first_stats(first_phase: PushStats) -> Stats {
    Stats {
        bound: first_phase.bound,
        first_phase,
        ..Stats::default()
    }
}

/// What the searches beside the exact one found: the fewest pushes proven (`--metric
/// pushes` on two threads) and a solution with them, which the exact search takes as its
/// ceiling once published and, when a limit stops it, answers shortened by what it
/// reached ([`spliced`]); and the finder's solution, which the exact search stopped by a
/// limit leaves improved the same way for the answer.
#[derive(Debug)]
pub(crate) struct SolutionsBeside {
    /// The fewest pushes, [`HOPELESS`] (no ceiling) until published.
    pushes: AtomicU32,
    lurd: Mutex<Option<String>>,
    found: Mutex<Option<String>>,
}

impl SolutionsBeside {
    /// Nothing published yet.
    pub(crate) fn new() -> Self {
        SolutionsBeside {
            pushes: AtomicU32::new(HOPELESS),
            lurd: Mutex::new(None),
            found: Mutex::new(None),
        }
    }

    /// `lurd` is the finder's solution.
    pub(crate) fn publish_found(&self, lurd: &str) {
        *self.found.lock().unwrap_or_else(PoisonError::into_inner) = Some(lurd.to_owned());
    }

    /// `lurd` becomes the finder's solution when none is held or it is cheaper than the
    /// one held by `metric`'s order (pushes and moves counted on the string: both are
    /// legal solutions); whether it did. Two polishers of the same solution offer what
    /// they gain here, so that neither undoes the other's.
    pub(crate) fn offer_found(&self, lurd: &str, metric: Metric) -> bool {
        let cost = |lurd: &str| {
            let (pushes, moves) = counted(lurd);
            metric.order(pushes, moves)
        };
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        if found
            .as_deref()
            .is_some_and(|held| cost(held) <= cost(lurd))
        {
            return false;
        }
        *found = Some(lurd.to_owned());
        true
    }

    /// The finder's solution, as published or improved since.
    pub(crate) fn found(&self) -> Option<String> {
        self.found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The finder's solution replaced by what `improve` makes of it, when there is one.
    fn improve_found(&self, improve: impl FnOnce(String) -> String) {
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(lurd) = found.take() {
            *found = Some(improve(lurd));
        }
    }

    /// The fewest pushes are `pushes`, and `lurd` a solution with them (a solution with
    /// another count of pushes is not answered, [`SolutionsBeside::solution`]).
    pub(crate) fn publish(&self, pushes: u32, lurd: &str) {
        *self.lurd.lock().unwrap_or_else(PoisonError::into_inner) = Some(lurd.to_owned());
        // Released after the solution, so that whoever reads the pushes finds it.
        self.pushes.store(pushes, Ordering::Release);
    }

    /// The metric's first key of the cheapest solution published (the finder's, or
    /// the one with the fewest pushes proven), `None` before one is.
    fn first_key(&self, metric: Metric) -> Option<u32> {
        let key = |lurd: &str| {
            let (pushes, moves) = counted(lurd);
            metric.order(pushes, moves)[0]
        };
        let found = self.found().map(|lurd| key(&lurd));
        let fewest = self.solution().map(|(_, lurd)| key(&lurd));
        found.into_iter().chain(fewest).min()
    }

    /// Whether the fewest pushes have been published.
    pub(crate) fn has_fewest(&self) -> bool {
        self.pushes() != HOPELESS
    }

    /// The fewest pushes published, or [`HOPELESS`] (no ceiling).
    pub(crate) fn pushes(&self) -> u32 {
        self.pushes.load(Ordering::Acquire)
    }

    /// The fewest pushes and their solution, once published (when it has as many).
    fn solution(&self) -> Option<(u32, String)> {
        let pushes = self.pushes();
        let lurd = self
            .lurd
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()?;
        (pushes != HOPELESS && counted(&lurd).0 == pushes).then_some((pushes, lurd))
    }
}

/// The fewest pushes of `level` by the first phase of `--metric pushes` alone (see
/// [`solve_counting`]), `None` when it is unsolvable, with `pruning`; and what it did.
///
/// # Errors
/// [`SolveError`] when a limit of `options` stopped it; the stats carry the proven lower
/// bound.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests and examples (`internals`)
pub fn fewest_pushes(
    level: &Level,
    options: &Options,
    pruning: Pruning,
) -> (Result<Option<u32>, SolveError>, PushStats) {
    let (answer, stats) = push_optimum_alone(level, options, pruning, None, None);
    (answer.map(|o| o.map(|(pushes, _)| pushes)), stats)
}

/// [`fewest_pushes`] with a solution that has them (each walk shortest, the moves perhaps
/// not the fewest among such solutions): the first phase alone, within `options`' limits,
/// its memory raised to the bytes `more_memory` holds once another thread stores more
/// there than `--memory-mib` (looked at every [`CLOCK_EVERY`] expansions), and `probe`
/// asked at those looks for a solution with as few pushes as the bound proven
/// ([`Probe`]): when it has one, that is the answer.
///
/// # Errors
/// As [`fewest_pushes`].
pub(crate) fn push_optimum_alone(
    level: &Level,
    options: &Options,
    pruning: Pruning,
    more_memory: Option<&std::sync::atomic::AtomicU64>,
    probe: Option<Probe<'_>>,
) -> (Result<Option<(u32, String)>, SolveError>, PushStats) {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let (board, pairs, pattern) = match tables_unless_dead(level, options, deadline) {
        Ok(Some(tables)) => tables,
        Ok(None) => return (Ok(None), PushStats::default()),
        Err(limit) => return (Err(limit), PushStats::default()),
    };
    let (outcome, stats, _) = push_optimum::push_optimum(
        level,
        &board,
        (&pairs, &pattern),
        options,
        pruning,
        (Paths::Skip, options.bounds.ball.then(BallPlan::default)),
        (deadline, more_memory, probe),
    );
    let answer = outcome.map(|o| match o {
        Outcome::Solved { pushes, lurd, .. } => Some((pushes, lurd)),
        Outcome::Unsolvable => None,
    });
    (answer, stats)
}

/// With `fewest` pushes proven the fewest of `level` (by another search), the fewest moves
/// among the solutions with that many, proven, within `options`' limits: the states on
/// those solutions found from both ends (`corridor`), then the exact search under the
/// ceiling `fewest` keeping only those states. The solution is the one the exact search
/// alone gives, letter for letter, on every level the tests and measurements tried: a
/// state left out is on no solution with `fewest` pushes, so the states of those solutions
/// come out of the queue in the same order (unless a bound passed down from a state left
/// out would have raised one of theirs, which none of those levels showed).
///
/// Why: on two threads the finder's thread is idle once it has proven the fewest pushes
/// beside the exact search, and where those solutions are few, both ends and the search
/// over them take a fraction of what the exact search still has to do (Microban 144: 1.7
/// s and 25,032 expansions, where the exact search alone expands 870,000 states).
///
/// # Errors
/// [`SolveError`] when a limit of `options` stopped it first.
pub(crate) fn fewest_moves_among(
    level: &Level,
    options: &Options,
    fewest: u32,
) -> Result<Option<Solution>, SolveError> {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let Some((board, pairs, pattern)) = tables_unless_dead(level, options, deadline)? else {
        return Ok(None);
    };
    let (paths, _) = corridor::corridor(
        level,
        &board,
        (&pairs, &pattern),
        options,
        fewest,
        (deadline, 0),
    );
    let mut search = Search::new(level, board, pairs, pattern, options, fewest, Some(paths?));
    search.ball_plan = None;
    match search.start() {
        Ok(true) => {
            run(&mut search, options, deadline, None, None).map_err(|e| search.budget.reason(e))
        }
        Ok(false) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The bounds on the pushes left of `level` with its boxes on `boxes` and the player on
/// `player` (not on a box): the matching on the best sides, the one on the sides the
/// player reaches ([`matching_from`]), and that one raised by the pattern database of
/// pairs ([`PairPushes::bound`], whether or not the search would use it), each `None`
/// when there is no matching. For the tests, which check that none passes the pushes left
/// of an optimal solution and that each often passes the one before.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn pushes_bounds(level: &Level, boxes: &[CellId], player: CellId) -> [Option<u32>; 3] {
    let board = Board::new(level);
    let boxes: Vec<u16> = boxes.iter().map(|b| b.index() as u16).collect();
    let player = player.index() as u16;
    let mut matcher = Matcher::new();
    let best = expand_matching(&mut matcher, &board, &boxes);
    let from = matching_from(&mut matcher, &board, &boxes, player);
    let pattern = PairPushes::new(level);
    let pairs = match pattern.bound(
        &mut matcher,
        &board,
        &boxes,
        player,
        &mut PairScratch::default(),
    ) {
        _ if from == HOPELESS => HOPELESS,
        Some(crate::matching::IMPOSSIBLE) => HOPELESS,
        Some(pairs) => pairs.max(from),
        None => from,
    };
    [best, from, pairs].map(|b| (b != HOPELESS).then_some(b))
}

/// The walls' tables (with the bounds `options` asks for), the pair table and the
/// pattern database of pairs (empty unless asked for) of `level`, or `None` when the start
/// is already dead: a box out of reach off its goal, a box on a dead square, a dead pair.
///
/// # Errors
/// On the largest floors the walls' tables take seconds and much memory:
/// [`SolveError::Memory`] when they would not fit in [`Options::memory_mib`] (known
/// before they are built), [`SolveError::Time`] or [`SolveError::Interrupted`] when the
/// deadline passes or the search is interrupted while they are built.
fn tables_unless_dead<'a>(
    level: &'a Level,
    options: &Options,
    deadline: Option<Instant>,
) -> Result<Option<(Board<'a>, GroupDeadlocks, PairPushes)>, SolveError> {
    if level.stranded() {
        return Ok(None);
    }
    if Board::bytes_for(level) > options.memory_mib.saturating_mul(grid_core::limits::MIB) {
        return Err(SolveError::Memory);
    }
    let mut stop = || options.interrupted() || deadline.is_some_and(|d| Instant::now() >= d);
    let Some(board) = Board::within(level, options.bounds.player_sides, &mut stop) else {
        return Err(if options.interrupted() {
            SolveError::Interrupted
        } else {
            SolveError::Time
        });
    };
    let boxes = level.boxes();
    if boxes.iter().any(|b| board.is_dead(b.index())) {
        return Ok(None);
    }
    let pairs = if boxes.len() >= 2 {
        GroupDeadlocks::new(level)
    } else {
        GroupDeadlocks::default()
    };
    let player = level.player().index();
    for (i, a) in boxes.iter().enumerate() {
        if boxes[i + 1..]
            .iter()
            .any(|b| pairs.dead(a.index(), b.index(), player))
        {
            return Ok(None);
        }
    }
    let pattern = if boxes.len() >= 2 && options.bounds.pairs {
        pattern_if_it_raises(level, &board)
    } else {
        PairPushes::default()
    };
    Ok(Some((board, pairs, pattern)))
}

/// The pattern database of pairs of `level` when it raises the bound of the start above
/// the matching's, else an empty one: where the boxes of the start do not stand in each
/// other's way, the pairs' bound rarely rises later and its lookups cost more than it
/// saves (Microban 139: 0.7 % fewer expansions, 20 % more CPU).
fn pattern_if_it_raises(level: &Level, board: &Board<'_>) -> PairPushes {
    let pattern = PairPushes::new(level);
    if !pattern.is_built() {
        return pattern;
    }
    let boxes: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    let player = level.player().index() as u16;
    let mut matcher = Matcher::new();
    let matched = matching_from(&mut matcher, board, &boxes, player);
    let mut scratch = PairScratch::default();
    match pattern.bound(&mut matcher, board, &boxes, player, &mut scratch) {
        Some(pairs) if matched != HOPELESS && pairs > matched => pattern,
        _ => PairPushes::default(),
    }
}

/// The A* loop: takes the best open state until a solved one comes out (the optimum), the
/// queue runs dry (unsolvable) or a limit is reached.
fn run(
    search: &mut Search<'_>,
    options: &Options,
    deadline: Option<Instant>,
    fewest_beside: Option<&SolutionsBeside>,
    give_up: Option<GiveUp<'_>>,
) -> Result<Option<Solution>, SolveError> {
    let level = search.level();
    let k = level.boxes().len();
    let triples_at_once = GroupDeadlocks::triples_bytes(level) <= TRIPLES_AT_ONCE_BYTES;
    let mut expanded = 0u64;
    let clock_every = clock_every(level);
    let mut ball_at = search.ball_plan.map_or(0, |plan| plan.after.max(1));
    search.budget.deadline = deadline;
    search.looks = budget::Looks::new(k, deadline, options.interrupt.clone());
    loop {
        let Some((f, state)) = search.queue.pop() else {
            return Ok(None);
        };
        let info = search.table.info[state as usize];
        if info.closed || search.f(info.cost, info.bound) != f {
            continue; // expanded, or reached again more cheaply, since it was queued
        }
        search.stats.bound = search.stats.bound.max(f[0]);
        if search.is_solved(&info) {
            let solution = read_solution(level, &search.table, state, &mut search.walker);
            return Ok(Some(Solution::proven(solution, options.metric)));
        }
        if search.rebound(state)? || search.is_walked_over(state) {
            continue;
        }
        if !info.refined && search.refine(state)? {
            continue;
        }
        expanded += 1;
        search.stats.expansions += 1;
        if k >= 3 && (expanded == TRIPLES_AFTER || expanded == 1 && triples_at_once) {
            search.build_triples();
        }
        if search.ball_plan.is_some() && expanded == ball_at {
            search.grow_ball(expanded, &|| {
                options.interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
            });
            ball_at = ball_at.saturating_mul(2);
        }
        if expanded % clock_every == 0 {
            if options.interrupted() {
                return Err(SolveError::Interrupted);
            }
            if deadline.is_some_and(|d| Instant::now() >= d)
                || give_up.as_ref().is_some_and(|g| g.now(search.stats.bound))
            {
                return Err(SolveError::Time);
            }
            if let Some(fewest) = fewest_beside {
                search.lower_ceiling(fewest.pushes());
            }
        }
        search.expand(&info)?;
    }
}

/// The moves from the start to `state`, read back through the parents, each walk a
/// shortest one with the boxes as walls, in LURD.
fn read_solution(level: &Level, table: &Table, state: u32, walker: &mut Walker) -> String {
    let grid = level.grid();
    let mut chain = vec![state];
    let mut at = state;
    while table.info[at as usize].parent != ROOT {
        at = table.info[at as usize].parent;
        chain.push(at);
    }
    chain.reverse();
    let mut occupied = vec![false; grid.cell_count()];
    let mut moves = String::new();
    for pair in chain.windows(2) {
        let (before, after) = (table.info[pair[0] as usize], table.info[pair[1] as usize]);
        let (before_boxes, after_boxes) = (table.layout(before.layout), table.layout(after.layout));
        let from = before_boxes.iter().find(|b| !after_boxes.contains(b));
        let to = after_boxes.iter().find(|b| !before_boxes.contains(b));
        let (Some(&from), Some(&to)) = (from, to) else {
            continue;
        };
        let (from, to) = (CellId::new(from as usize), CellId::new(to as usize));
        let Some(dir) = Dir::ALL
            .into_iter()
            .find(|&d| grid.neighbour(from, d) == Some(to))
        else {
            continue;
        };
        for &b in before_boxes {
            occupied[b as usize] = true;
        }
        walker.run(grid, &occupied, CellId::new(before.player as usize));
        for &b in before_boxes {
            occupied[b as usize] = false;
        }
        if let Some(behind) = grid.neighbour(from, dir.opposite()) {
            for step in walker.walk_to(grid, behind) {
                moves.push(walk_letter(step));
            }
        }
        moves.push(push_letter(dir));
    }
    moves
}

/// `lurd`, a legal solution, improved by the metric's order where the exact search,
/// stopped by a limit, reached one of its layouts more cheaply: the search's way to that
/// layout, then a shortest walk to the solution's next push, then the rest of the solution
/// as it is. `lurd` itself when no layout of it was reached more cheaply.
///
/// Why it holds: the table's way back to a state is legal, and the rest of the solution
/// starts from the layout alone and a walk to its next push, whatever square the player
/// came in on. The result is checked by replaying it and kept only when it is legal and
/// cheaper. Under a ceiling of P proven pushes, a solution with P pushes stays at P: a
/// state of the layout the solution has after `j` pushes cannot have fewer than `j`
/// (there would be a solution with fewer than P), and one with more makes more than P.
///
/// Why: the second phase of `--metric pushes` on XSokoban stops on a limit long before
/// it proves the fewest moves, and the first phase's solution takes its pushes in the
/// order the first phase found, each walk shortest, where the second phase has often
/// found cheaper orders of the first pushes; the finder's solutions begin with detours
/// the exact search has the cheapest ways around.
///
/// # Complexity
/// One walk O(cells) per push of `lurd` whose layout the table holds, one layout lookup
/// O(k) per push, and a replay O(moves x k).
fn spliced(
    level: &Level,
    table: &Table,
    walker: &mut Walker,
    lurd: String,
    metric: Metric,
) -> String {
    let grid = level.grid();
    let k = level.boxes().len();
    let total = u64::from(counted(&lurd).0);
    let ordered = |pushes: u64, moves: u64| metric.order(pushes, moves);
    let mut boxes: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    let mut player = level.player();
    let mut occupied = vec![false; grid.cell_count()];
    let mut sorted = vec![0u16; k];
    let mut members = Vec::new();
    // The best splice: its cost in all, the table's state, the square behind the box of
    // the next push and the position of that push's letter in `lurd`.
    let mut best = (ordered(total, lurd.len() as u64), None);
    let mut pushes = 0u64;
    for (at, letter) in lurd.char_indices() {
        let Some(dir) = Dir::ALL
            .into_iter()
            .find(|&d| walk_letter(d) == letter || push_letter(d) == letter)
        else {
            return lurd;
        };
        let Some(next) = grid.neighbour(player, dir) else {
            return lurd;
        };
        if push_letter(dir) == letter {
            sorted.copy_from_slice(&boxes);
            sorted.sort_unstable();
            let key = table.layout_index.key(&sorted);
            if let Ok(layout) = table.find_layout(&sorted, key) {
                table.members(layout, &mut members);
                for &b in &boxes {
                    occupied[usize::from(b)] = true;
                }
                // A walk from the square behind the box reaches the members' squares
                // by the same steps reversed.
                walker.run(grid, &occupied, player);
                for &b in &boxes {
                    occupied[usize::from(b)] = false;
                }
                for m in &members {
                    let Some(walk) = walker.distance(CellId::new(usize::from(m.player))) else {
                        continue;
                    };
                    let info = table.info[m.state as usize];
                    let [first, second] = info.cost.map(u64::from);
                    // The metric's order swapped back (swapping twice is no swap).
                    let [p, moves] = metric.order(first, second);
                    let cost = ordered(
                        p + total - pushes,
                        moves + u64::from(walk) + (lurd.len() - at) as u64,
                    );
                    if cost < best.0 {
                        best = (cost, Some((m.state, player, at)));
                    }
                }
            }
            let Some(b) = boxes.iter_mut().find(|b| usize::from(**b) == next.index()) else {
                return lurd;
            };
            let Some(to) = grid.neighbour(next, dir) else {
                return lurd;
            };
            *b = to.index() as u16;
            pushes += 1;
        }
        player = next;
    }
    let Some((state, behind, at)) = best.1 else {
        return lurd;
    };
    let mut shorter = read_solution(level, table, state, walker);
    let info = table.info[state as usize];
    for &b in table.layout(info.layout) {
        occupied[usize::from(b)] = true;
    }
    walker.run(grid, &occupied, CellId::new(usize::from(info.player)));
    shorter.extend(walker.walk_to(grid, behind).into_iter().map(walk_letter));
    shorter.push_str(&lurd[at..]);
    match crate::verify::verify(level, &shorter) {
        Ok(c) if ordered(c.pushes.into(), c.moves.into()) < ordered(total, lurd.len() as u64) => {
            shorter
        }
        _ => lurd,
    }
}

/// The matching bound on the pushes of the boxes `boxes` with the player on `player`,
/// each box's push distances taken from the sides of it the player reaches with that box
/// alone ([`Board::distance_from`]), or [`HOPELESS`] when there is no matching. At least
/// the matching on the best sides, and admissible for the same reason: a solution, the
/// other boxes taken away, pushes each box to its goal alone from where the player is.
///
/// # Complexity
/// O(k^2) distances and an O(k^3) matching for k boxes.
pub(super) fn matching_from(
    matcher: &mut Matcher,
    board: &Board<'_>,
    boxes: &[u16],
    player: u16,
) -> u32 {
    let player = usize::from(player);
    matcher
        .min_cost_tabled(boxes.len(), |i, j| {
            board.distance_from(j, usize::from(boxes[i]), player)
        })
        .unwrap_or(HOPELESS)
}

/// The matching on the best sides, as the exact search computes it per layout.
fn expand_matching(matcher: &mut Matcher, board: &Board<'_>, boxes: &[u16]) -> u32 {
    matcher
        .min_cost(boxes.len(), |i, j| board.distance(j, usize::from(boxes[i])))
        .unwrap_or(HOPELESS)
}

/// The LURD letter of a walk step: `l u r d`.
pub(super) fn walk_letter(dir: Dir) -> char {
    match dir {
        Dir::North => 'u',
        Dir::South => 'd',
        Dir::West => 'l',
        Dir::East => 'r',
    }
}

/// The LURD letter of a push: `L U R D`.
pub(super) fn push_letter(dir: Dir) -> char {
    walk_letter(dir).to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use grid_core::rng::SplitMix64;

    use super::*;
    use crate::{Collection, generate, verify::verify};

    /// The exact search gives up only past its share of the time, and only while the
    /// cheapest solution published (the finder's, or the one with the fewest pushes
    /// proven) is more than the gap above its bound (or the first phase's floor), by the
    /// metric's first key.
    #[test]
    fn the_exact_search_gives_up_late_and_only_far_from_the_solution_in_hand() {
        let solutions = SolutionsBeside::new();
        let past = Instant::now() - Duration::from_secs(1);
        let give_up = |after, metric, floor| GiveUp {
            after,
            solutions: &solutions,
            metric,
            floor,
        };
        // Nothing published: nothing to give the time to.
        assert!(!give_up(past, Metric::Pushes, 0).now(1));
        // 12 pushes, 40 moves.
        let lurd = "rRRRRRRRRRRRRuuuuuuuuuuuuuuuuuuuuuuuuuuu";
        assert_eq!(lurd.len(), 40);
        solutions.publish_found(lurd);
        assert!(give_up(past, Metric::Pushes, 0).now(10));
        assert!(
            !give_up(past, Metric::Pushes, 0).now(11),
            "12 is within a tenth of 11"
        );
        assert!(
            !give_up(past, Metric::Pushes, 11).now(5),
            "the floor counts"
        );
        assert!(give_up(past, Metric::Moves, 0).now(36));
        assert!(!give_up(past, Metric::Moves, 0).now(37));
        let future = Instant::now() + Duration::from_secs(60);
        assert!(
            !give_up(future, Metric::Pushes, 0).now(1),
            "not before its time"
        );
        // The fewest pushes proven beside, 11, are the cheaper solution and a bound.
        solutions.publish(11, "RRRRRRRRRRR");
        assert!(!give_up(past, Metric::Pushes, 0).now(2));
        // By moves they are no bound; their solution, 11 moves, is the cheapest in hand.
        assert!(give_up(past, Metric::Moves, 0).now(9));
        assert!(!give_up(past, Metric::Moves, 0).now(10));
    }

    /// A solution offered by a polisher is taken only when it is cheaper than the one
    /// held by the metric's order, the first key first.
    #[test]
    fn an_offered_solution_is_taken_only_when_cheaper_by_the_metrics_order() {
        // 2 pushes and 6 moves, 3 pushes and 4 moves, 2 pushes and 4 moves.
        let (two_six, three_four, two_four) = ("rRllRr", "RRRu", "RuRd");
        for metric in [Metric::Pushes, Metric::Moves] {
            let solutions = SolutionsBeside::new();
            assert!(solutions.offer_found(two_six, metric), "none held");
            assert!(!solutions.offer_found(two_six, metric), "as cheap");
            let fewer_moves = solutions.offer_found(three_four, metric);
            assert_eq!(fewer_moves, metric == Metric::Moves, "{metric:?}");
            assert!(solutions.offer_found(two_four, metric), "{metric:?}");
            assert_eq!(solutions.found().as_deref(), Some(two_four));
            assert!(!solutions.offer_found(three_four, metric), "{metric:?}");
            assert!(!solutions.offer_found(two_six, metric), "{metric:?}");
        }
    }

    /// The fewest moves among the fewest pushes, searched on the states of those
    /// solutions alone (found from both ends), are the exact search's answer: the same
    /// solution, letter for letter.
    #[test]
    fn the_fewest_moves_among_the_fewest_pushes_are_the_exact_searchs_answer() {
        let mut rng = SplitMix64::new(2612);
        let (mut levels, mut longest) = (0, 0);
        for round in 0..300 {
            let text = generate::random_level(&mut rng, 2 + round % 4, 9, 9);
            let Some(Ok(level)) = Collection::new(text.as_bytes(), 4096).next() else {
                continue;
            };
            let options = Options::default();
            let (Ok(Some(exact)), _) = solve_counting(&level, &options) else {
                continue;
            };
            let among = fewest_moves_among(&level, &options, exact.pushes())
                .unwrap()
                .unwrap();
            assert!(among.is_proven(), "level {round}");
            assert_eq!(among.lurd(), exact.lurd(), "level {round}\n{text}");
            levels += 1;
            longest = longest.max(exact.pushes());
        }
        assert!(
            levels >= 100 && longest >= 10,
            "{levels} levels, the most pushes {longest}"
        );
    }

    /// A solution with the fewest pushes, spliced with the exact search's table under
    /// their ceiling (here run to its end, so the table holds the cheapest way to every
    /// layout it took), stays legal with as many pushes, never has more moves than it had
    /// nor fewer than the optimum, and is often shorter than the first phase's.
    #[test]
    fn a_spliced_solution_is_legal_and_between_the_optimum_and_the_first_phases() {
        let mut rng = SplitMix64::new(23);
        let (mut spliced_at_all, mut levels) = (0, 0);
        for round in 0..400 {
            let text = generate::random_level(&mut rng, 2 + round % 4, 9, 9);
            let Some(Ok(level)) = Collection::new(text.as_bytes(), 4096).next() else {
                continue;
            };
            let options = Options::default();
            let Ok(Some(optimum)) = crate::solve(&level, &options) else {
                continue;
            };
            let (Ok(Some((pushes, first))), _) =
                push_optimum_alone(&level, &options, Pruning::PiCorrals, None, None)
            else {
                panic!("level {round}: the first phase found no solution");
            };
            assert_eq!(pushes, optimum.pushes());
            let (board, pairs, pattern) =
                tables_unless_dead(&level, &options, None).unwrap().unwrap();
            let mut search = Search::new(&level, board, pairs, pattern, &options, pushes, None);
            assert!(search.start().unwrap());
            let solved = run(&mut search, &options, None, None, None)
                .unwrap()
                .unwrap();
            assert_eq!(solved.moves(), optimum.moves());
            let shorter = spliced(
                &level,
                &search.table,
                &mut search.walker,
                first.clone(),
                Metric::Pushes,
            );
            let counts = verify(&level, &shorter).unwrap();
            assert_eq!(counts.pushes, pushes, "level {round}");
            assert!(counts.moves as usize <= first.len(), "level {round}");
            assert!(counts.moves >= optimum.moves(), "level {round}");
            levels += 1;
            spliced_at_all += usize::from(shorter.len() < first.len());
        }
        assert!(
            levels >= 100 && spliced_at_all >= 10,
            "{levels} levels, {spliced_at_all} shortened"
        );
    }

    /// The finder's solution (greedy, not optimal), spliced with the exact search's table
    /// by either metric (the search run to its end, no ceiling), stays legal, never costs
    /// more in the metric's order nor less than the optimum, and is often cheaper.
    #[test]
    fn a_spliced_finder_solution_is_legal_and_no_dearer() {
        for (seed, metric) in [(29, Metric::Pushes), (30, Metric::Moves)] {
            let options = Options {
                metric,
                ..Options::default()
            };
            let ordered = |pushes: u32, moves: u32| metric.order(pushes, moves);
            let cases = generate::with_finder_solutions(seed, 300, &options);
            let mut cheaper = 0;
            for (level, optimum, found) in &cases {
                let before = verify(level, found).unwrap();
                let (board, pairs, pattern) =
                    tables_unless_dead(level, &options, None).unwrap().unwrap();
                let mut search =
                    Search::new(level, board, pairs, pattern, &options, HOPELESS, None);
                assert!(search.start().unwrap());
                run(&mut search, &options, None, None, None)
                    .unwrap()
                    .unwrap();
                let after = spliced(
                    level,
                    &search.table,
                    &mut search.walker,
                    found.clone(),
                    metric,
                );
                let after = verify(level, &after).unwrap();
                let cost = |c: crate::verify::Counts| ordered(c.pushes, c.moves);
                let n = level.number();
                assert!(cost(after) <= cost(before), "level {n}");
                assert!(cost(after) >= ordered(optimum.pushes(), optimum.moves()));
                cheaper += usize::from(cost(after) < cost(before));
            }
            let levels = cases.len();
            assert!(
                levels >= 100 && cheaper >= 8,
                "{metric:?}: {levels} levels, {cheaper} cheaper"
            );
        }
    }
}

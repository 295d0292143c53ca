//! Always an answer: the finder first (runs with different guides, [`PORTFOLIO`]), on
//! a share of the time, then the exact search; the exact answer when it comes, else the
//! finder's solution, marked unproven with the proven lower bound: the exact search's (the
//! largest first key of `f` it took from its queue), or the start's matching when that is
//! higher. When the finder found nothing in its share, the exact search stops after
//! [`EXACT_UNSOLVED_SECONDS`] (or at [`EXACT_END_UNSOLVED`] of a short limit) and the
//! finder has the rest ([`last_chance`]); when that finds a solution before the limit,
//! the exact search runs again on the time left ([`again`]). On two threads
//! ([`side_by_side`]) the finder and the exact search run from the start side by side,
//! and with `--metric pushes` the finder's thread goes on, once it has found, with the
//! fewest pushes alone ([`pushes_beside`]), with `--metric moves` it polishes the
//! solution found ([`polish_found`]); when the exact search meets its memory before the
//! finder has found, its thread looks for a solution too ([`help`]).
//!
//! Why this order: on a level the exact search proves, the finder mostly answers in a
//! fraction of a second and takes little of its time; on a level it cannot prove, the
//! finder's solution is what the user gets. Both share the memory bound one after the
//! other (the finder's tables are freed before the exact search starts).
//!
//! # Complexity
//! That of the two searches, within `--time-limit` and `--memory-mib`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use grid_core::limits::MIB;

use super::ceiling::Ceiling;
use super::polish::{Polisher, polish, polish_into};
use super::{Direction, Guide, Halt, Options as FinderOptions, find};
use crate::board::Board;
use crate::matching::Matcher;
use crate::parse::Level;
use crate::search::{PushProof, SolutionsBeside};
use crate::solution::{Interrupt, Metric, Options, Solution, SolveError, counted};

/// The share of `--time-limit` the forward runs of the finder may take (it stops as
/// soon as it finds), times their shares in [`PORTFOLIO`] (1, and [`MACRO_SHARE`] more);
/// the backward runs have [`BACKWARD_SHARE`] and [`BACKWARD_WEIGHTED_SHARE`] of it more.
const FINDER_SHARE: f64 = 0.2;

/// Without a time limit, the finder's stop checks (each after a few hundred expansions)
/// before it gives way to the exact search: about a million expansions.
const FINDER_CHECKS_UNTIMED: u32 = 4096;

/// The answer for `level`: see the module documentation and [`crate::solve`]; an unproven
/// solution polished in the time left ([`polish`]).
///
/// # Errors
/// [`SolveError`] when neither search found a solution within the limits.
pub(crate) fn solve(level: &Level, options: &Options) -> Result<Option<Solution>, SolveError> {
    let started = Instant::now();
    let answer = searched(level, options)?;
    let deadline = options.time_limit.and_then(|t| started.checked_add(t));
    Ok(match (answer, deadline) {
        (Some(solution), Some(deadline)) => Some(polish(level, options, solution, deadline)),
        (answer, _) => answer,
    })
}

/// The answer for `level` of the finder and the exact search (see [`solve`]).
///
/// # Errors
/// As [`solve`].
fn searched(level: &Level, options: &Options) -> Result<Option<Solution>, SolveError> {
    if options.interrupted() {
        return Err(SolveError::Interrupted);
    }
    if options.threads.get() >= 2 && options.time_limit != Some(Duration::ZERO) {
        return side_by_side(level, options);
    }
    let started = Instant::now();
    let found = if options.time_limit == Some(Duration::ZERO) {
        None
    } else {
        match portfolio(level, options, started) {
            Ok(None) => return Ok(None),
            Ok(Some(lurd)) => Some(lurd),
            Err(()) => None,
        }
    };
    // Without a solution the exact search stops early, and the finder has the rest.
    let time_limit = match (options.time_limit, &found) {
        (Some(limit), None) => Some(
            limit
                .mul_f64(EXACT_END_UNSOLVED)
                .min(started.elapsed() + Duration::from_secs_f64(EXACT_UNSOLVED_SECONDS)),
        ),
        (limit, _) => limit,
    };
    let left = time_limit.map(|t| t.saturating_sub(started.elapsed()));
    let (limit, bound, improved) = match exact(level, options, left, found.as_deref(), None) {
        Exact::Settled(answer) => return Ok(answer),
        Exact::Stopped {
            limit,
            bound,
            improved,
        } => (limit, bound, improved),
    };
    match improved.or(found) {
        Some(lurd) => Ok(Some(Solution::unproven(lurd, bound))),
        None if limit == SolveError::Interrupted || options.time_limit.is_none() => Err(limit),
        None => match last_chance(level, options, started) {
            Ok(Some(lurd)) => Ok(Some(again(level, options, started, lurd, bound))),
            // The finder ran out of states: unsolvable.
            Ok(None) => Ok(None),
            Err(Halt::Memory) => Err(SolveError::Memory),
            Err(Halt::Stopped) if options.interrupted() => Err(SolveError::Interrupted),
            Err(Halt::Stopped) => Err(SolveError::Time),
        },
    }
}

/// The answer for `level` with the finder and the exact search on two threads, each from
/// the start and on the whole time limit: the finder's portfolio, then its last chance
/// until a solution or the limit, then (with `--metric pushes` and a time limit) the
/// fewest pushes alone ([`pushes_beside`]); the exact search beside it until it settles
/// the level (which stops the finder's thread) or meets a limit. The finder stores up to
/// [`FINDER_MEMORY_SHARE`] of `--memory-mib`, the fewest pushes alone
/// [`BESIDE_MEMORY_SHARE`] after it, the exact search the rest.
///
/// Why: on one level with two cores the second core was idle, and each search had only
/// its share of the limit; side by side the exact search has the whole limit (Microban
/// 139 by moves takes it 9 to 13 CPU s, more than the 6 s it had of 10 one after the
/// other) and the finder has its whole share and the last chance's besides.
fn side_by_side(level: &Level, options: &Options) -> Result<Option<Solution>, SolveError> {
    let started = Instant::now();
    let finder_mib = (options.memory_mib as f64 * FINDER_MEMORY_SHARE) as u64;
    let finder_options = Options {
        memory_mib: finder_mib,
        interrupt: Some(Interrupt::follower(options.interrupt.as_ref())),
        ..options.clone()
    };
    // With `--metric pushes` and a time limit the finder's thread goes on with the
    // fewest pushes alone once it has found ([`pushes_beside`]), on half the memory.
    let beside_mib = match (options.metric, options.time_limit) {
        (Metric::Pushes, Some(_)) => (options.memory_mib as f64 * BESIDE_MEMORY_SHARE) as u64,
        _ => 0,
    };
    let exact_options = Options {
        memory_mib: options.memory_mib - finder_mib.max(beside_mib),
        interrupt: Some(Interrupt::follower(options.interrupt.as_ref())),
        ..options.clone()
    };
    // The exact search's thread finding too, once the exact search has met its memory
    // with no solution found ([`help`]), on the memory it had.
    let helper_options = Options {
        interrupt: Some(Interrupt::follower(options.interrupt.as_ref())),
        ..exact_options.clone()
    };
    // The fewest moves among the fewest pushes on the finder's thread once it has proven
    // those ([`moves_beside`]), stopped when the exact search returns but for the time.
    let moves_options = Options {
        memory_mib: beside_mib,
        interrupt: Some(Interrupt::follower(options.interrupt.as_ref())),
        ..options.clone()
    };
    // The polish on the exact search's thread once it has returned ([`polish_beside`]),
    // stopped when the fewest pushes come beside: their solution is the one to polish
    // then, after both threads.
    let polish_options = Options {
        interrupt: Some(Interrupt::follower(exact_options.interrupt.as_ref())),
        ..exact_options.clone()
    };
    // The solutions found beside the exact search: the finder's, and the one with the fewest
    // pushes once proven (the exact search's ceiling).
    let solutions = SolutionsBeside::new();
    // The memory the fewest pushes beside may grow to once the exact search's thread is
    // done with its own (its share handed over).
    let handed = AtomicU64::new(0);
    let (found, beside, exact) = std::thread::scope(|scope| {
        let finder = scope.spawn(|| {
            let found = match portfolio(level, &finder_options, started) {
                Ok(answer) => Ok(answer),
                Err(()) => last_chance(level, &finder_options, started),
            };
            if let Ok(Some(lurd)) = &found {
                solutions.publish_found(lurd);
            }
            if let Ok(answer) = &found {
                // Found, or ran out of states (unsolvable): the other thread's finder
                // has nothing left to find.
                helper_options.stop();
                if answer.is_none() {
                    exact_options.stop();
                }
            }
            // Without the fewest pushes beside (`--metric moves`), this thread polishes
            // the solution found while the exact search runs.
            if beside_mib == 0 {
                polish_found(level, &finder_options, started, &solutions);
            }
            let mut beside = match found {
                Ok(Some(_)) => pushes_beside(
                    level,
                    &Options {
                        memory_mib: beside_mib,
                        ..finder_options.clone()
                    },
                    started,
                    Some(&handed),
                    &solutions,
                ),
                _ => Beside::default(),
            };
            if let Some((pushes, lurd)) = &beside.fewest {
                solutions.publish(*pushes, lurd);
                polish_options.stop();
                beside.proven = moves_beside(level, &moves_options, started, *pushes);
                if beside.proven.is_some() {
                    exact_options.stop();
                }
            }
            (found, beside)
        });
        let exact = exact(
            level,
            &exact_options,
            options.time_limit,
            None,
            Some(&solutions),
        );
        if let Exact::Settled(_) = exact {
            finder_options.stop();
        }
        // The fewest moves beside go on when the exact search only gave its time up (or
        // ran out of it, when they end too): Microban 144 gave up at 8 s, before the
        // fewest pushes beside came, which ended the proof beside at 9.5 s with it.
        if !matches!(
            exact,
            Exact::Stopped {
                limit: SolveError::Time,
                ..
            }
        ) {
            moves_options.stop();
        }
        let helped = help(level, &exact, &helper_options, started);
        if helped.is_ok() {
            finder_options.stop();
        }
        // Done with its memory (the exact search and the help have returned): the fewest
        // pushes beside, still running when the exact search stopped on its memory, may
        // take it too, but for what the polish on this thread keeps.
        let polish_mib =
            polish_memory(&exact, exact_options.memory_mib, &solutions, beside_mib > 0);
        let mib = (beside_mib + exact_options.memory_mib).saturating_sub(polish_mib);
        handed.store(mib.saturating_mul(MIB), Ordering::Relaxed);
        if polish_mib > 0 {
            let polishing = Options {
                memory_mib: polish_mib,
                ..polish_options.clone()
            };
            // Beside the finder's thread's polish ([`polish_found`]), the other way.
            let order = match beside_mib {
                0 => Polisher::StretchesBack,
                _ => Polisher::FromTheEnd,
            };
            polish_beside(level, &exact, &polishing, started, &solutions, order);
        }
        // The finder's thread does not panic; if it did, its answer is lost, not the level.
        let (found, beside) = finder
            .join()
            .unwrap_or((Err(Halt::Stopped), Beside::default()));
        // The finder's solution as the exact search left it (improved when it stopped
        // after the finder had found).
        let found = found.map(|answer| answer.map(|lurd| solutions.found().unwrap_or(lurd)));
        let found = match (found, helped) {
            (Ok(answer), _) => Ok(answer),
            (_, Ok(answer)) => Ok(answer),
            (found, _) => found,
        };
        (found, beside, exact)
    });
    settle(exact, found, beside, options)
}

/// The memory (MiB) the exact search's thread keeps to polish the finder's solution
/// ([`polish_beside`]) out of the `exact_mib` the exact search had, once it has returned
/// with no answer: all of it when it gave its time up (stopped on the clock before the
/// limit, `search::GiveUp`) or stopped on its memory with no fewest pushes `beside`;
/// [`POLISH_MEMORY_SHARE`] of it when it stopped on its memory while the fewest pushes
/// beside go on (they take the rest); none otherwise (settled, nothing found yet, or
/// the fewest pushes proven: the answer is then polished after both threads, on all the
/// memory).
fn polish_memory(exact: &Exact, exact_mib: u64, solutions: &SolutionsBeside, beside: bool) -> u64 {
    let Exact::Stopped { limit, .. } = exact else {
        return 0;
    };
    if solutions.found().is_none() {
        return 0;
    }
    match limit {
        SolveError::Time => exact_mib,
        SolveError::Memory if !beside => exact_mib,
        SolveError::Memory if !solutions.has_fewest() => {
            (exact_mib as f64 * POLISH_MEMORY_SHARE) as u64
        }
        _ => 0,
    }
}

/// The share of the exact search's memory its thread keeps to polish with when the
/// exact search stopped on its memory and the fewest pushes beside go on
/// ([`polish_memory`]): most of it goes to them (XSokoban 55 at `--time-limit 100`
/// proves its 120 pushes at 77 s with it).
const POLISH_MEMORY_SHARE: f64 = 0.25;

/// The finder's solution polished on the exact search's thread ([`polish`], within
/// `options.memory_mib`) until the limit, once the exact search has returned without an
/// answer ([`polish_memory`]), and published back for the answer. The fewest pushes beside
/// go on meanwhile on the other thread: a proof of them late in the limit still comes
/// (XSokoban 83: 194 pushes proven by the first phase alone in 59.4 s of 60).
///
/// Why: on XSokoban's hard levels the exact search stopped on its memory, or gave up,
/// with a third to a fifth of the limit left, and its core waited for the other.
fn polish_beside(
    level: &Level,
    exact: &Exact,
    options: &Options,
    started: Instant,
    solutions: &SolutionsBeside,
    order: Polisher,
) {
    if !matches!(exact, Exact::Stopped { .. }) {
        return;
    }
    let Some(deadline) = options.time_limit.and_then(|t| started.checked_add(t)) else {
        return;
    };
    if options.interrupted() || Instant::now() >= deadline {
        return;
    }
    polish_into(level, options, deadline, solutions, order);
}

/// With `--metric moves` on two threads, the finder's solution polished on the finder's
/// thread ([`polish_into`], within its `options.memory_mib`) from when it is found until
/// the limit, or until the exact search settles the level (which stops `options`); its
/// gains offered to `solutions`, where the exact search takes them when it stops, and
/// where the exact search's thread, done, polishes beside it the other way
/// ([`polish_beside`]).
///
/// Why: with `--metric moves` nothing else ran on that thread once the finder had found
/// (the fewest pushes beside are for `--metric pushes`), and on the levels no proof
/// reaches the polish began only when the exact search gave up.
fn polish_found(level: &Level, options: &Options, started: Instant, solutions: &SolutionsBeside) {
    let Some(deadline) = options.time_limit.and_then(|t| started.checked_add(t)) else {
        return;
    };
    if options.interrupted() || Instant::now() >= deadline || solutions.found().is_none() {
        return;
    }
    polish_into(level, options, deadline, solutions, Polisher::FromTheEnd);
}

/// What the exact search's thread finds once the exact search has met its memory, the
/// finder's thread not having found yet: the ways of [`LAST_CHANCE`] from the last, each
/// its share of the time left, on the memory the exact search had, so that the two
/// threads try different ways at the same time (the finder's thread is then in its last
/// chance, on FESS's order proper first). `Err(Halt::Stopped)` at once when the exact
/// search settled the level or stopped otherwise, without a time limit, or when
/// `options`' interrupt is set (the finder's thread sets it when it finds).
///
/// Why: on XSokoban's hard levels the exact search meets its memory after 16 to 23 s of
/// a 60 s limit (14, 16, 18, 23), and its core was idle for the rest.
fn help(
    level: &Level,
    exact: &Exact,
    options: &Options,
    started: Instant,
) -> Result<Option<String>, Halt> {
    match exact {
        Exact::Stopped {
            limit: SolveError::Memory,
            ..
        } if options.time_limit.is_some() => {
            last_chance_in(level, options, started, LAST_CHANCE.into_iter().rev())
        }
        _ => Err(Halt::Stopped),
    }
}

/// The answer of [`side_by_side`] from what each thread made of the level: the exact
/// search's answer when it settled the level (the finder's solution instead when the
/// fewest pushes were proven and the finder has as many and fewer moves); else the
/// finder's solution, unproven, with the best proven bound, or the solution with the
/// fewest pushes proven beside ([`pushes_beside`]) when that came (the finder's, when it
/// has as few pushes and fewer moves); else the limit that stopped them.
fn settle(
    exact: Exact,
    found: Result<Option<String>, Halt>,
    beside: Beside,
    options: &Options,
) -> Result<Option<Solution>, SolveError> {
    let settled = matches!(&exact, Exact::Settled(Some(s)) if s.is_proven());
    if let Some(proven) = beside.proven.filter(|_| !settled) {
        return Ok(Some(proven));
    }
    match (exact, found) {
        (Exact::Settled(Some(solution)), Ok(Some(lurd)))
            if !solution.is_proven() && fewer(&lurd, &solution) =>
        {
            Ok(Some(Solution::unproven(lurd, solution.lower_bound())))
        }
        (Exact::Settled(answer), _) => Ok(answer),
        (Exact::Stopped { bound, .. }, Ok(Some(lurd))) => Ok(Some(match beside.fewest {
            Some((pushes, first)) => {
                let first = Solution::unproven(first, pushes);
                if fewer(&lurd, &first) {
                    Solution::unproven(lurd, pushes)
                } else {
                    first
                }
            }
            None => Solution::unproven(lurd, bound.max(beside.bound)),
        })),
        (Exact::Stopped { .. }, Ok(None)) => Ok(None),
        (Exact::Stopped { .. }, _) if options.interrupted() => Err(SolveError::Interrupted),
        (Exact::Stopped { limit, .. }, _) if options.time_limit.is_none() => Err(limit),
        (
            Exact::Stopped {
                limit: SolveError::Memory,
                ..
            },
            Err(Halt::Memory),
        ) => Err(SolveError::Memory),
        (Exact::Stopped { .. }, _) => Err(SolveError::Time),
    }
}

/// The share of `--memory-mib` of the fewest pushes alone beside the exact search
/// ([`pushes_beside`]), the exact search having the rest; the finder's store is freed
/// before it starts.
const BESIDE_MEMORY_SHARE: f64 = 0.5;

/// What the fewest pushes alone found beside the exact search ([`pushes_beside`]).
#[derive(Debug, Default)]
struct Beside {
    /// The fewest pushes and a solution with them, when proven.
    fewest: Option<(u32, String)>,
    /// A proven lower bound on the pushes.
    bound: u32,
    /// The answer proven on both keys from the fewest pushes ([`moves_beside`]).
    proven: Option<Solution>,
}

/// Once the fewest pushes `fewest` are proven beside the exact search: the fewest moves
/// among the solutions with that many ([`crate::search::fewest_moves_among`]) on the time
/// left, within `options` (the memory of the fewest pushes beside, stopped when the exact
/// search returns other than on the clock); the answer when proven. Why: the finder's
/// thread is idle from then on, and where the solutions with the fewest pushes are few,
/// it proves both keys well before the exact search (Microban 144 at `--time-limit 10`:
/// see docs/sokoban.md).
fn moves_beside(
    level: &Level,
    options: &Options,
    started: Instant,
    fewest: u32,
) -> Option<Solution> {
    let left = options
        .time_limit
        .map(|t| t.saturating_sub(started.elapsed()))?;
    if options.interrupted() || left < AGAIN_AT_LEAST {
        return None;
    }
    let within = Options {
        time_limit: Some(left),
        ..options.clone()
    };
    crate::search::fewest_moves_among(level, &within, fewest)
        .ok()
        .flatten()
        .filter(Solution::is_proven)
}

/// With `--metric pushes` and a time limit, once the finder has a solution: the fewest
/// pushes alone (the first phase of the exact search, the player normalised to its
/// region, PI-corral pruning) on the finder's thread until the limit, within
/// `options.memory_mib`, raised to the bytes `handed` holds once the exact search's
/// thread has handed its memory over (XSokoban 55 at `--time-limit 100`: the first
/// phase proves 120 pushes in 80 s alone and 26 million states, where half the memory
/// stopped it at 52.6 s). Why: that thread is idle once the finder has found, and the
/// exact search gives the first phase only a share of its time before it goes on alone on
/// both keys; on large floors the first phase proves the pushes where the exact search
/// proves nothing (XSokoban 3: 134 pushes in 38 s alone, the exact search's bound 132 at
/// 60 s).
fn pushes_beside(
    level: &Level,
    options: &Options,
    started: Instant,
    handed: Option<&AtomicU64>,
    solutions: &SolutionsBeside,
) -> Beside {
    let left = options
        .time_limit
        .map(|t| t.saturating_sub(started.elapsed()));
    if options.metric != Metric::Pushes || left.is_none_or(|t| t < AGAIN_AT_LEAST) {
        return Beside::default();
    }
    let alone = Options {
        time_limit: left,
        ..options.clone()
    };
    let deadline = left.map(|t| Instant::now() + t);
    let stop = || alone.interrupted() || deadline.is_some_and(|d| Instant::now() >= d);
    let way = run(CEILING_WAY);
    let (answer, stats) = std::thread::scope(|scope| {
        let mut ceiling = Ceiling::new(level, &way, solutions, &stop, scope);
        crate::search::push_optimum_alone(
            level,
            &alone,
            crate::search::Pruning::PiCorrals,
            handed,
            Some(&mut |bound, left| ceiling.ask(bound, left)),
        )
    });
    Beside {
        fewest: answer.ok().flatten(),
        bound: stats.bound,
        proven: None,
    }
}

/// The finder's way under the ceiling of the fewest pushes' bound ([`Ceiling`]): FESS's
/// order proper with its macro moves. Measured on the finder alone at the ceiling of the
/// proven optimum (CPU s, XSokoban): it finds 3 (0.10), 7 (2.4), 43 (0.9), 55 (1.6) and
/// 83 (0.04); greedy on the matching with FESS's features and cycling found 3 (0.9) and
/// 55 (1.2), not 7 in 10 s, neither way 49 in 10 s. Beside the search (12-07), every
/// solution found under a ceiling on XSokoban 43, 48, 53, 55 and 80 came from the first;
/// taken in turn with it, the second only put its runs off.
const CEILING_WAY: Way = MACRO_MOVES;

/// The share of `--memory-mib` the finder may store when it runs beside the exact search
/// ([`side_by_side`]). Why a quarter: its stores grow slowly (FESS's order proper on
/// XSokoban 14, 25 CPU s: 221 MB), the exact search's fast (Microban 145 by moves: 1.37 GB
/// to its proof).
const FINDER_MEMORY_SHARE: f64 = 0.25;

/// What the exact search made of a level in its time.
enum Exact {
    /// The answer: proven optimal, proven unsolvable, or the fewest pushes proven (the
    /// first phase's solution, or the finder's when it has as few pushes and fewer moves).
    Settled(Option<Solution>),
    /// Stopped by `limit` with the metric's first key proven at least `bound`; the
    /// finder's solution it was given, improved by what it reached when it could be
    /// (`search::spliced`).
    Stopped {
        limit: SolveError,
        bound: u32,
        improved: Option<String>,
    },
}

/// The exact search on `level` within `time_limit` (from now), the finder's solution
/// `found` beside it, the fewest pushes proven beside it taken as its ceiling when they
/// come (`fewest_beside`, [`pushes_beside`]): see [`Exact`].
fn exact(
    level: &Level,
    options: &Options,
    time_limit: Option<Duration>,
    found: Option<&str>,
    fewest_beside: Option<&SolutionsBeside>,
) -> Exact {
    let deadline = time_limit.map(|t| Instant::now() + t);
    let exact = Options {
        time_limit,
        ..options.clone()
    };
    let proof = match (options.metric, time_limit) {
        (Metric::Pushes, Some(left)) => {
            let share = match fewest_beside {
                Some(_) => FIRST_PHASE_SHARE_BESIDE,
                None => FIRST_PHASE_SHARE,
            };
            PushProof::FirstWithin(left.mul_f64(share))
        }
        _ => PushProof::OneSearch,
    };
    // The finder's solution given here, for the exact search to improve when it stops
    // (on two threads the finder's thread publishes its own to `fewest_beside`).
    let own = SolutionsBeside::new();
    let beside = match (fewest_beside, found) {
        (Some(beside), _) => Some(beside),
        (None, Some(lurd)) => {
            own.publish_found(lurd);
            Some(&own)
        }
        (None, None) => None,
    };
    let (answer, stats) = crate::search::solve_counting_beside(
        level,
        &exact,
        proof,
        crate::search::BallPlan::default(),
        beside,
    );
    match answer {
        Ok(Some(solution)) if !solution.is_proven() => Exact::Settled(Some(match found {
            Some(lurd) if fewer(lurd, &solution) => {
                Solution::unproven(lurd.to_owned(), solution.lower_bound())
            }
            _ => solution,
        })),
        Ok(answer) => Exact::Settled(answer),
        Err(limit) => Exact::Stopped {
            limit,
            // The exact search's start comes out first, with at least the start's bound;
            // stopped before that, the bound is the start's if it can be had in time.
            bound: match stats.bound {
                0 => start_bound_within(level, &exact, deadline).unwrap_or(0),
                bound => bound,
            },
            improved: found.and(own.found()),
        },
    }
}

/// The answer once the last chance found `lurd` (the exact search having proven `bound`
/// before it): the exact search again on the time that is left, now with a solution to
/// fall back on. Why: the exact search had only [`EXACT_UNSOLVED_SECONDS`] before the last
/// chance, and a proof that needs more (Microban II 104: 82 pushes proven in 38 s of a
/// 120 s limit) came only when the portfolio found the solution in its share.
fn again(level: &Level, options: &Options, started: Instant, lurd: String, bound: u32) -> Solution {
    let left = options
        .time_limit
        .map(|t| t.saturating_sub(started.elapsed()));
    if options.interrupted() || left.is_some_and(|t| t < AGAIN_AT_LEAST) {
        return Solution::unproven(lurd, bound);
    }
    match exact(level, options, left, Some(&lurd), None) {
        Exact::Settled(Some(solution)) => solution,
        // Not reached: the finder's solution replays, so the level is solvable.
        Exact::Settled(None) => Solution::unproven(lurd, bound),
        Exact::Stopped {
            bound: again,
            improved,
            ..
        } => Solution::unproven(improved.unwrap_or(lurd), bound.max(again)),
    }
}

/// The least time left for which the exact search runs [`again`].
const AGAIN_AT_LEAST: Duration = Duration::from_millis(500);

/// With `--metric pushes` and a time limit, the share of the exact search's time the
/// fewest pushes alone may take first (the player normalised to its region, PI-corral
/// pruning: `search::PushProof::FirstWithin`); proved within it, the exact search then
/// runs under that ceiling and, when it is stopped, the answer has the fewest pushes
/// proven (`unproven: P M ... >= P`). Why a share: on XSokoban 2, 6, 17 and 38 the first
/// phase proves the pushes in 0.06 to 3.1 CPU s, where the exact search proves nothing
/// in 10 s but 38 (3.6 s); on Microban 139 it costs as much as the whole exact search
/// (5.9 s), and its share is what such a level loses.
const FIRST_PHASE_SHARE: f64 = 0.15;

/// [`FIRST_PHASE_SHARE`] on two threads ([`side_by_side`]), where the fewest pushes
/// alone also runs on the finder's thread once it has found ([`pushes_beside`]) and
/// hands what it proves to the exact search as its ceiling: the exact search's own first
/// phase is then there for the levels where it is cheap (XSokoban 1, 17, 38: 0.06 to
/// 0.15 s, after which the ceiling halves the exact search's time), and the others lose
/// less of the exact search's time to it (wall s, two runs each, with the ceiling from
/// beside: Microban 144 by pushes at `--time-limit 10` 9.5 and 9.4 instead of 10.0 and
/// 9.9, 93 7.9 and 7.9 instead of 8.3 and 8.3; Microban II 120 at 30 s 8.5 and 8.0
/// instead of 9.9 and 9.9).
const FIRST_PHASE_SHARE_BESIDE: f64 = 0.02;

/// Whether the solution `lurd` has as few pushes as `than` and fewer moves.
fn fewer(lurd: &str, than: &Solution) -> bool {
    let (pushes, moves) = counted(lurd);
    pushes <= than.pushes() && moves < than.moves()
}

/// Where the exact search stops, as a share of `--time-limit`, when the finder found
/// nothing in its share: the finder then has the rest ([`last_chance`]). Why not earlier:
/// Microban 139, which no finder run solves in 2 s, takes the exact search 7 to 10 CPU s.
const EXACT_END_UNSOLVED: f64 = 0.9;

/// The most seconds the exact search gets when the finder found nothing in its share.
/// Why a cap: a proof that comes at all mostly comes within seconds (the exact search's
/// memory grows with its time, and past a few seconds it meets the memory bound or
/// the limit); the finder, given the time instead, solves more (see docs/sokoban.md).
const EXACT_UNSOLVED_SECONDS: f64 = 10.0;

/// The finder again, after the exact search gave up, until `--time-limit`: the ways of
/// [`LAST_CHANCE`] in turn, each its share of the time left.
fn last_chance(level: &Level, options: &Options, started: Instant) -> Result<Option<String>, Halt> {
    last_chance_in(level, options, started, LAST_CHANCE)
}

/// [`last_chance`] with the ways `ways` and their shares, in that order.
fn last_chance_in(
    level: &Level,
    options: &Options,
    started: Instant,
    ways: impl IntoIterator<Item = (f64, Way)>,
) -> Result<Option<String>, Halt> {
    let Some(limit) = options.time_limit else {
        return Err(Halt::Stopped);
    };
    if options.interrupted() {
        return Err(Halt::Stopped);
    }
    let begun = started.elapsed();
    let left = limit.saturating_sub(begun);
    let mut halt = Halt::Stopped;
    let mut share_end = 0.0;
    for (share, way) in ways {
        share_end += share;
        let end = begun + left.mul_f64(share_end);
        if started.elapsed() >= end {
            continue;
        }
        let finder_options = FinderOptions {
            memory_bytes: options.memory_mib.saturating_mul(MIB),
            ..run(way)
        };
        match find(level, &finder_options, &mut || {
            options.interrupted() || started.elapsed() >= end
        }) {
            Ok(answer) => return Ok(answer),
            Err(h) => halt = h,
        }
        if options.interrupted() {
            break;
        }
    }
    Err(halt)
}

/// The finder's runs, one after the other until one answers: see [`PORTFOLIO`]. `Ok(None)`:
/// a run ran out of states (proven unsolvable); `Err(())`: none answered within its share.
fn portfolio(level: &Level, options: &Options, started: Instant) -> Result<Option<String>, ()> {
    let memory_bytes = options.memory_mib.saturating_mul(MIB);
    let mut share_end = 0.0;
    for (share, way) in PORTFOLIO {
        share_end += share;
        let finder_time = options
            .time_limit
            .map(|t| t.mul_f64(FINDER_SHARE * share_end));
        // A run whose share is already over is not started: its tables alone would take
        // more than the time it has (XSokoban 44 at `--time-limit 0.05`: 1.7 s).
        if finder_time.is_some_and(|t| started.elapsed() >= t) {
            continue;
        }
        let checks_allowed = (f64::from(FINDER_CHECKS_UNTIMED) * share) as u32;
        let mut checks = 0u32;
        let mut stop = || {
            checks += 1;
            options.interrupted()
                || match finder_time {
                    Some(limit) => started.elapsed() >= limit,
                    None => checks > checks_allowed,
                }
        };
        let finder_options = FinderOptions {
            memory_bytes,
            ..run(way)
        };
        if let Ok(answer) = find(level, &finder_options, &mut stop) {
            return Ok(answer);
        }
        if options.interrupted() {
            break;
        }
    }
    Err(())
}

/// A way through the states: the order of the states, the guide, FESS's features
/// (packing order and regions) with the cycling over their cells, and corral deadlocks.
#[derive(Debug, Clone, Copy)]
struct Way {
    order: Order,
    guide: Guide,
    features: bool,
    /// FESS's cycling over the feature cells, with the features (else features first).
    cycling: bool,
    corral_deadlocks: bool,
    /// FESS's hotspots advisor (measured with FESS's order proper only).
    hotspots: bool,
    /// FESS's macro moves: every place one box reaches, as one move (measured with
    /// FESS's order proper only).
    box_moves: bool,
    /// Pushes from the start, or pulls from the goals (`backward`, which reads only the
    /// order of the fields above).
    direction: Direction,
}

/// How a way weighs what a state has cost against the guide's estimate of what is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// The guide alone (greedy best-first).
    Greedy,
    /// The pushes so far weigh 1 against the guide's 3 (weighted A*).
    WeightedAStar,
    /// FESS's move weights (the unadvised moves so far weigh 1 against the guide's 1)
    /// and the connectivity advisor.
    FessGuided,
    /// FESS's order proper: within a cell, the fewest unadvised moves so far, the guide
    /// only prunes (a state whose matching is impossible); the connectivity advisor on.
    Fess,
}

/// The finder's options for `way`.
fn run(way: Way) -> FinderOptions {
    let (g_weight, h_weight, fess) = match way.order {
        Order::Greedy => (0, 1, false),
        Order::WeightedAStar => (1, 3, false),
        Order::FessGuided => (1, 1, true),
        Order::Fess => (1, 0, true),
    };
    FinderOptions {
        guide: way.guide,
        g_weight,
        h_weight,
        move_weights: fess,
        connectivity: fess,
        hotspots: way.hotspots,
        box_moves: way.box_moves,
        packing: way.features,
        regions: way.features,
        cycling: way.features && way.cycling,
        corral_deadlocks: way.corral_deadlocks,
        direction: way.direction,
        // Goal-room macros and the packing advisor in every run: see docs/sokoban.md
        // for what they gain.
        goal_rooms: true,
        advisor: true,
        ..FinderOptions::default()
    }
}

/// The finder's runs, in order, with their shares of the finder's time. Why several:
/// they solve different levels. Measured on the finder alone, 3 CPU seconds a level
/// (`examples/finder.rs`), XSokoban 90, goal-room macros and packing advisor on (see
/// docs/sokoban.md for the history): the nearest goal, no features, 15 levels (the
/// shortest solutions); the matching, features, cycling, corral deadlocks 27 (49, 55
/// no other run solves); the same with FESS's guided order 29 at 5 s (86, 76); the same
/// on the nearest goal 31 at 5 s (12); FESS's order proper (no guide in the priority)
/// 42, 19, 20, 34, 37, 43, 45, 56, 57, 61, 70 and 81 among them, which no other run
/// solves, so it has the largest share, second after the short first run; the same
/// with FESS's macro moves third ([`MACRO_MOVES`], [`MACRO_SHARE`]). Then the two
/// backward runs, greedy and weighted ([`BACKWARD_SHARE`], [`BACKWARD_WEIGHTED_SHARE`]).
const PORTFOLIO: [(f64, Way); 8] = [
    (
        0.1,
        Way {
            order: Order::Greedy,
            guide: Guide::Nearest,
            features: false,
            cycling: true,
            corral_deadlocks: false,
            hotspots: false,
            box_moves: false,
            direction: Direction::Forward,
        },
    ),
    (0.35, FESS),
    (MACRO_SHARE, MACRO_MOVES),
    (
        0.2,
        Way {
            order: Order::Greedy,
            ..FESS
        },
    ),
    (
        0.2,
        Way {
            order: Order::FessGuided,
            ..FESS
        },
    ),
    (
        0.15,
        Way {
            order: Order::FessGuided,
            guide: Guide::Nearest,
            ..FESS
        },
    ),
    (
        BACKWARD_SHARE,
        Way {
            order: Order::Greedy,
            guide: Guide::Matching,
            features: false,
            cycling: false,
            corral_deadlocks: false,
            hotspots: false,
            box_moves: false,
            direction: Direction::Backward,
        },
    ),
    (
        BACKWARD_WEIGHTED_SHARE,
        Way {
            order: Order::WeightedAStar,
            guide: Guide::Matching,
            features: false,
            cycling: false,
            corral_deadlocks: false,
            hotspots: false,
            box_moves: false,
            direction: Direction::Backward,
        },
    ),
];

/// The share of the backward run (pulls from the goals, greedy on the matching to the
/// start squares), last in the portfolio, on top of the forward runs' shares (which
/// make 1 and [`MACRO_SHARE`]): it solves at once or not at all (on the finder alone, 3 CPU s a level,
/// XSokoban 72 in 1.2 s, which no forward run solves; 44 in 5.5 s), so it is given a
/// short share after the forward runs rather than time taken from them (at
/// `--time-limit 60`, 2.4 s).
const BACKWARD_SHARE: f64 = 0.2;

/// The share of the second backward run, weighted (pulls so far 1, matching 3), after
/// the greedy one: on the finder alone it solves XSokoban 44 in 0.54 CPU s (the greedy
/// run: 5.5 s) and Sasquatch 23 and 24 (1 s a level), but not XSokoban 72 (3 s) nor
/// Sasquatch 10 and 28 (at `--time-limit 60`, 1.2 s).
const BACKWARD_WEIGHTED_SHARE: f64 = 0.1;

/// The runs of [`last_chance`] with their shares of the time left. FESS's order proper
/// (run 2) first, with the largest share, then the same with macro moves
/// ([`MACRO_MOVES`]): they are the runs that solve the hard levels given time, and a run
/// stopped by its share starts again from nothing. Measured on the finder alone,
/// XSokoban 90, CPU s (before the push tree read the low points): run 2 solves 36 in
/// 9.5 s, 25 in 15.8 s, 75 in 19.6 s and 46 in 22.8 s (30 s a level, none of the other
/// 28 open levels), the macro moves 36, 75 and 46 within 3 s and 48 in 3.7 s; at
/// `--time-limit 60` the last chance has about 41 s, 0.45 of it 18.6 s for run 2 and
/// 0.25 10 s for the macro moves, here with the hotspots advisor: at 10 s a level, of
/// the 23 levels open at `--time-limit 60` without it, it solves 74 (4.1 s), and of the
/// levels the macro moves solve, all but 71 (which another run solves), where at 3 s a
/// level over all 90 it solves as many as without (48: 30 and 48 gained, 36 and 42
/// lost). The others get what the levels only they
/// solve need, with a margin: run 4 (the FESS-guided order on the matching) XSokoban 10
/// in 3.0 s; weighted A* (pushes 1, matching 3) with cycling 15 in 2.0 s (run 2: 3.4 s);
/// run 3 (greedy on the matching) 49 and 55 in 1.2 and 0.9 s, and run 3 without the
/// cycling (features first) 59 in 0.7 s; run 5 (the FESS-guided order on the nearest
/// goal) 47 in 1.0 s. With the outward packing order the hotspots advisor that run 2 had
/// here adds no level at 3 or 10 s and loses 19, 20, 37 and 45 (see docs/sokoban.md).
const LAST_CHANCE: [(f64, Way); 7] = [
    (0.45, FESS),
    (
        0.25,
        Way {
            hotspots: true,
            ..MACRO_MOVES
        },
    ),
    (0.11, PORTFOLIO[4].1),
    (
        0.07,
        Way {
            order: Order::WeightedAStar,
            corral_deadlocks: false,
            ..FESS
        },
    ),
    (0.04, PORTFOLIO[3].1),
    (
        0.04,
        Way {
            cycling: false,
            ..PORTFOLIO[3].1
        },
    ),
    (0.04, PORTFOLIO[5].1),
];

/// FESS's order proper with its macro moves (every place one box reaches, the other
/// boxes standing still, as one move; [`FinderOptions::box_moves`]). Measured on the
/// finder alone, XSokoban 90, 3 CPU s a level: it solves 24, 30, 36, 42, 46, 47 and 75,
/// which FESS's order proper on pushes does not, and loses 11, 13, 15, 19, 21, 70, 76
/// and 81, which the other runs solve; at 10 s, of the 28 levels no run solved, 24
/// (0.56 s), 30 (3.2 s), 42 (2.6 s) and 48 (3.7 s). So it is a run of its own.
const MACRO_MOVES: Way = Way {
    box_moves: true,
    ..FESS
};

/// FESS's order proper (the portfolio's run 2): the unadvised moves so far within each
/// cell of the feature space, on pushes, the matching only pruning.
const FESS: Way = Way {
    order: Order::Fess,
    guide: Guide::Matching,
    features: true,
    cycling: true,
    corral_deadlocks: true,
    hotspots: false,
    box_moves: false,
    direction: Direction::Forward,
};

/// The share of [`MACRO_MOVES`] in the portfolio, on top of the other forward runs'
/// (which make 1): at `--time-limit 60`, 3 s.
const MACRO_SHARE: f64 = 0.25;

/// A proven lower bound on the metric's first key from the start: the matching of boxes
/// to goals on lone-box push distances (every solution pushes each box to its own goal;
/// moves count the pushes too). Within the limits of `options`: `None` when its tables
/// would not fit in [`Options::memory_mib`], or when `deadline` passes (or the search is
/// interrupted) while they are built or the boxes matched (seconds for thousands of
/// boxes).
pub(super) fn start_bound_within(
    level: &Level,
    options: &Options,
    deadline: Option<Instant>,
) -> Option<u32> {
    if Board::bytes_for(level) > options.memory_mib.saturating_mul(grid_core::limits::MIB) {
        return None;
    }
    let mut stop = || options.interrupted() || deadline.is_some_and(|d| Instant::now() >= d);
    let board = Board::within(level, false, &mut stop)?;
    let boxes = level.boxes();
    let matched = Matcher::new().min_cost_within(
        boxes.len(),
        |i, j| board.distance(j, boxes[i].index()),
        &mut stop,
    )?;
    Some(matched.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use std::num::NonZeroUsize;

    use super::{
        Beside, Exact, FESS, again, find, help, polish_found, polish_memory, pushes_beside, run,
        settle,
    };
    use crate::finder::Halt;
    use crate::search::SolutionsBeside;
    use crate::solution::Solution;
    use crate::verify::verify;
    use crate::{Collection, Interrupt, Level, Metric, Options, SolveError, generate, solve};

    /// The exact search's thread polishes only once the exact search returned without an
    /// answer and a solution is in hand: on all its memory when it gave its time up, or
    /// met its memory with no fewest pushes beside; on a quarter when it met its memory
    /// while the fewest pushes beside go on; not at all once they are proven (the answer
    /// is then polished after both threads).
    #[test]
    fn the_exact_search_thread_polishes_only_what_it_should() {
        let stopped = |limit| Exact::Stopped {
            limit,
            bound: 3,
            improved: None,
        };
        let solutions = SolutionsBeside::new();
        for beside in [false, true] {
            assert_eq!(
                polish_memory(&stopped(SolveError::Time), 800, &solutions, beside),
                0
            );
        }
        solutions.publish_found("rRRR");
        let memory = |limit, beside| polish_memory(&stopped(limit), 800, &solutions, beside);
        assert_eq!(memory(SolveError::Time, true), 800);
        assert_eq!(memory(SolveError::Time, false), 800);
        assert_eq!(memory(SolveError::Memory, true), 200);
        assert_eq!(memory(SolveError::Memory, false), 800);
        assert_eq!(memory(SolveError::Interrupted, true), 0);
        assert_eq!(memory(SolveError::Interrupted, false), 0);
        let settled = Exact::Settled(Some(Solution::unproven("rRRR".to_owned(), 3)));
        assert_eq!(polish_memory(&settled, 800, &solutions, false), 0);
        solutions.publish(3, "RRR");
        assert_eq!(memory(SolveError::Memory, true), 0);
    }

    /// With `--metric moves` the finder's thread polishes the solution found until the
    /// limit (`polish_found`): what it leaves replays, is never dearer, is cheaper on
    /// some generated levels whose solutions were given a detour; nothing without a
    /// time limit.
    #[test]
    fn the_finders_thread_polishes_its_solution_by_moves() {
        let options = Options {
            metric: Metric::Moves,
            time_limit: Some(Duration::from_secs(2)),
            ..Options::default()
        };
        let cases = generate::with_finder_solutions(41, 120, &options);
        let mut cheaper = 0;
        for (level, _, found) in &cases {
            // A detour after the middle push, which a round from the end reaches.
            let pushes = verify(level, found).unwrap().pushes as usize;
            let Some(detoured) = generate::detoured(level, found, pushes.div_ceil(2).max(1)) else {
                continue;
            };
            let solutions = SolutionsBeside::new();
            solutions.publish_found(&detoured);
            let untimed = Options {
                time_limit: None,
                ..options.clone()
            };
            polish_found(level, &untimed, Instant::now(), &solutions);
            assert_eq!(solutions.found(), Some(detoured.clone()));
            polish_found(level, &options, Instant::now(), &solutions);
            let after = solutions.found().unwrap();
            let n = level.number();
            let counts = verify(level, &after).unwrap();
            assert!(after.len() <= detoured.len(), "level {n}");
            assert_eq!(counts.moves as usize, after.len(), "level {n}");
            cheaper += usize::from(after.len() < detoured.len());
        }
        assert!(cheaper >= 10, "{cheaper} of {} cheaper", cases.len());
    }

    /// `count` levels of `generate::collection` drawn from `seed`.
    fn generated(seed: u64, count: usize, boxes: usize, side: usize) -> Vec<Level> {
        let text = generate::collection(seed, count, boxes, side);
        let levels: Vec<_> = Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .filter_map(Result::ok)
            .collect();
        assert_eq!(levels.len(), count);
        levels
    }

    /// The finder and the exact search side by side ([`super::side_by_side`]) answer what
    /// one thread answers: the same proven optimum on both keys (the exact search's own
    /// solution) and the same unsolvable levels, with and without a time limit; and a set
    /// interrupt stops both.
    #[test]
    fn two_threads_answer_what_one_does() {
        let levels = generated(16, 80, 3, 6);
        let two = NonZeroUsize::new(2).unwrap();
        let (mut solved, mut unsolvable) = (0, 0);
        for level in &levels {
            for metric in [Metric::Pushes, Metric::Moves] {
                let one = Options {
                    metric,
                    ..Options::default()
                };
                let expected = solve(level, &one);
                match &expected {
                    Ok(Some(_)) => solved += 1,
                    Ok(None) => unsolvable += 1,
                    Err(e) => panic!("level {}: {e}", level.number()),
                }
                for time_limit in [None, Some(Duration::from_secs(30))] {
                    let both = Options {
                        threads: two,
                        time_limit,
                        ..one.clone()
                    };
                    assert_eq!(solve(level, &both), expected, "level {}", level.number());
                }
            }
        }
        assert!(solved > 50 && unsolvable > 10, "{solved} {unsolvable}");

        let interrupt = Interrupt::default();
        interrupt.interrupt();
        let stopped = Options {
            threads: two,
            interrupt: Some(interrupt),
            ..Options::default()
        };
        assert_eq!(solve(&levels[0], &stopped), Err(SolveError::Interrupted));
    }

    /// The exact search's thread, once the exact search met its memory ([`help`]), finds
    /// a solution that replays on every solvable generated level, and nothing on the
    /// unsolvable ones (`-1` when a way runs out of states); it does not start when the
    /// exact search stopped for time, without a time limit, or when the finder's thread
    /// has already found (its interrupt set).
    #[test]
    fn the_exact_search_thread_finds_once_the_exact_search_met_its_memory() {
        let levels = generated(18, 60, 3, 6);
        let timed = Options {
            time_limit: Some(Duration::from_secs(30)),
            ..Options::default()
        };
        let memory = Exact::Stopped {
            limit: SolveError::Memory,
            bound: 0,
            improved: None,
        };
        let (mut found, mut unsolvable) = (0, 0);
        for level in &levels {
            let expected = solve(level, &Options::default()).unwrap();
            match (help(level, &memory, &timed, Instant::now()), expected) {
                (Ok(Some(lurd)), Some(_)) => {
                    verify(level, &lurd).unwrap();
                    found += 1;
                }
                (Ok(None), None) => unsolvable += 1,
                (helped, expected) => {
                    panic!("level {}: {helped:?} for {expected:?}", level.number())
                }
            }
            let time = Exact::Stopped {
                limit: SolveError::Time,
                bound: 0,
                improved: None,
            };
            assert_eq!(
                help(level, &time, &timed, Instant::now()),
                Err(Halt::Stopped)
            );
            let untimed = Options::default();
            assert_eq!(
                help(level, &memory, &untimed, Instant::now()),
                Err(Halt::Stopped)
            );
            let found_beside = Options {
                interrupt: Some(Interrupt::default()),
                ..timed.clone()
            };
            found_beside.stop();
            let helped = help(level, &memory, &found_beside, Instant::now());
            assert_eq!(helped, Err(Halt::Stopped));
        }
        assert!(found > 30 && unsolvable > 5, "{found} {unsolvable}");
    }

    /// Given the last chance's solution and time left, [`again`] answers the exact
    /// search's proven optimum on both keys; with less than [`super::AGAIN_AT_LEAST`]
    /// left, the solution itself, unproven, with the bound it was given.
    #[test]
    fn again_proves_the_optimum_when_time_is_left() {
        let text = include_str!("../../../../testdata/sokoban/microban-fast.in");
        let levels: Vec<_> = Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .filter_map(Result::ok)
            .take(12)
            .collect();
        assert_eq!(levels.len(), 12);
        for level in &levels {
            for metric in [Metric::Pushes, Metric::Moves] {
                let untimed = Options {
                    metric,
                    ..Options::default()
                };
                let best = solve(level, &untimed).unwrap().unwrap();
                assert!(best.is_proven());
                let timed = |seconds| Options {
                    time_limit: Some(Duration::from_secs_f64(seconds)),
                    ..untimed.clone()
                };
                let found = best.lurd().to_owned();
                let proven = again(level, &timed(60.0), Instant::now(), found.clone(), 0);
                assert!(proven.is_proven(), "Microban {}", level.number());
                assert_eq!(
                    (proven.pushes(), proven.moves()),
                    (best.pushes(), best.moves())
                );
                let late = again(level, &timed(0.1), Instant::now(), found.clone(), 7);
                assert!(!late.is_proven());
                assert_eq!((late.lurd(), late.lower_bound()), (found.as_str(), 7));
            }
        }
    }

    /// The fewest pushes alone beside the exact search ([`pushes_beside`]) are the exact
    /// search's fewest pushes, with a solution that replays with that many, on generated
    /// levels; nothing without a time limit or by moves, whose answers it cannot serve.
    #[test]
    fn the_fewest_pushes_beside_are_the_optimum_and_replay() {
        let levels = generated(17, 120, 4, 7);
        let timed = Options {
            metric: Metric::Pushes,
            time_limit: Some(Duration::from_secs(30)),
            ..Options::default()
        };
        let mut proven = 0;
        for level in &levels {
            let optimum = solve(level, &Options::default()).unwrap();
            let beside =
                pushes_beside(level, &timed, Instant::now(), None, &SolutionsBeside::new());
            match (&optimum, &beside.fewest) {
                (Some(optimum), Some((pushes, lurd))) => {
                    assert_eq!(*pushes, optimum.pushes(), "level {}", level.number());
                    let counts = verify(level, lurd).unwrap();
                    assert_eq!(counts.pushes, *pushes, "level {}", level.number());
                    assert!(counts.moves >= optimum.moves());
                    proven += 1;
                }
                (None, None) => {}
                _ => panic!("level {}: {optimum:?} {beside:?}", level.number()),
            }
            for other in [
                Options {
                    metric: Metric::Moves,
                    ..timed.clone()
                },
                Options {
                    time_limit: None,
                    ..timed.clone()
                },
            ] {
                let none =
                    pushes_beside(level, &other, Instant::now(), None, &SolutionsBeside::new());
                assert_eq!((none.fewest, none.bound), (None, 0));
            }
        }
        assert!(proven > 60, "{proven}");
    }

    /// XSokoban 2 (131 pushes, proven by the fewest pushes alone in 124,000 expansions)
    /// and the Microban levels of `microban-fast.in`.
    fn xsokoban_2_and_microban_fast() -> Vec<Level> {
        let text = [
            include_str!("../../../../testdata/sokoban/xsokoban-2-unproven.in"),
            include_str!("../../../../testdata/sokoban/microban-fast.in"),
        ]
        .concat();
        Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .filter_map(Result::ok)
            .collect()
    }

    /// With a solution in hand (the finder's), the fewest pushes beside ask the finder
    /// under the ceiling of their bound ([`Ceiling`]) at their looks at the clock, and
    /// answer the solution in hand once their bound reaches its pushes: on the Microban
    /// levels of `microban-fast.in` and XSokoban 2, what they answer is the fewest pushes
    /// they prove alone, with a solution that replays with that many; and on some level
    /// the answer comes that way, not out of their own queue.
    #[test]
    fn the_fewest_pushes_beside_with_a_solution_in_hand_keep_the_optimum() {
        let levels = xsokoban_2_and_microban_fast();
        let timed = Options {
            metric: Metric::Pushes,
            time_limit: Some(Duration::from_secs(60)),
            ..Options::default()
        };
        let mut probed = 0;
        for level in &levels {
            let alone = pushes_beside(level, &timed, Instant::now(), None, &SolutionsBeside::new());
            let Some((fewest, own)) = alone.fewest else {
                panic!("level {}: not proven alone", level.number());
            };
            let Ok(Some(found)) = find(level, &run(FESS), &mut || false) else {
                continue;
            };
            let solutions = SolutionsBeside::new();
            solutions.publish_found(&found);
            let beside = pushes_beside(level, &timed, Instant::now(), None, &solutions);
            let (pushes, lurd) = beside.fewest.unwrap();
            assert_eq!(pushes, fewest, "level {}", level.number());
            assert_eq!(verify(level, &lurd).unwrap().pushes, fewest);
            if lurd != own {
                probed += 1;
            }
        }
        assert!(
            probed > 0,
            "no answer came from the solution in hand or the ceiling"
        );
    }

    /// The fewest pushes beside take the memory the exact search's thread hands over
    /// ([`side_by_side`]): on XSokoban 2 (131 pushes, proven by them in 124,000
    /// expansions) and the Microban levels of `microban-fast.in`, with 1 MiB of their own
    /// and 64 MiB handed over (stored before they start, so read at the first look, 256
    /// expansions in), they prove what 1 MiB alone does not, each with the fewest pushes
    /// they prove with 64 MiB of their own.
    #[test]
    fn the_fewest_pushes_beside_take_the_memory_handed_over() {
        use std::sync::atomic::AtomicU64;

        let levels = xsokoban_2_and_microban_fast();
        let with = |mib| Options {
            metric: Metric::Pushes,
            time_limit: Some(Duration::from_secs(60)),
            memory_mib: mib,
            ..Options::default()
        };
        let handed = AtomicU64::new(64 * super::MIB);
        let mut gained = 0;
        for level in &levels {
            let alone = pushes_beside(
                level,
                &with(1),
                Instant::now(),
                None,
                &SolutionsBeside::new(),
            );
            let helped = pushes_beside(
                level,
                &with(1),
                Instant::now(),
                Some(&handed),
                &SolutionsBeside::new(),
            );
            let roomy = pushes_beside(
                level,
                &with(64),
                Instant::now(),
                None,
                &SolutionsBeside::new(),
            );
            let fewest = |b: &Beside| b.fewest.as_ref().map(|f| f.0);
            if let Some((pushes, lurd)) = &helped.fewest {
                assert_eq!(Some(*pushes), fewest(&roomy), "level {}", level.number());
                assert_eq!(verify(level, lurd).unwrap().pushes, *pushes);
            }
            if alone.fewest.is_none() && helped.fewest.is_some() {
                gained += 1;
            }
        }
        assert!(gained > 0, "no level needed the memory handed over");
    }

    /// The exact search that takes the fewest pushes proven beside it as its ceiling
    /// midway (read every 256 expansions; here set from the start, so taken at the first
    /// look) proves the same optimum on both keys as without, on the Microban levels of
    /// `microban-fast.in` whose search is long enough for the look to come before the
    /// end; a ceiling one push too low loses it; by moves, no ceiling is taken.
    #[test]
    fn the_ceiling_from_beside_keeps_both_optima() {
        use crate::search::{BallPlan, PushProof, SolutionsBeside, Stats, solve_counting_beside};

        let text = include_str!("../../../../testdata/sokoban/microban-fast.in");
        let levels: Vec<_> = Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .filter_map(Result::ok)
            .collect();
        let (mut taken, mut lost) = (0, 0);
        for level in &levels {
            // The answer by `metric` with the fewest pushes `beside`, and what it did.
            let by = |metric, beside: Option<(u32, &str)>| -> (Option<Solution>, Stats) {
                let fewest = beside.map(|(pushes, lurd)| {
                    let fewest = SolutionsBeside::new();
                    fewest.publish(pushes, lurd);
                    fewest
                });
                let options = Options {
                    metric,
                    ..Options::default()
                };
                let (answer, stats) = solve_counting_beside(
                    level,
                    &options,
                    PushProof::OneSearch,
                    BallPlan::default(),
                    fewest.as_ref(),
                );
                (answer.unwrap(), stats)
            };
            let Some(optimum) = by(Metric::Pushes, None).0 else {
                continue;
            };
            let (answer, stats) = by(Metric::Pushes, Some((optimum.pushes(), optimum.lurd())));
            let answer = answer.unwrap();
            assert_eq!(
                (answer.pushes(), answer.moves(), answer.is_proven()),
                (optimum.pushes(), optimum.moves(), true),
                "level {}",
                level.number()
            );
            assert_eq!(verify(level, answer.lurd()).unwrap().moves, answer.moves());
            if stats.over_ceiling > 0 {
                taken += 1;
                let counts = |s: Option<Solution>| s.map(|s| (s.pushes(), s.moves()));
                let too_low = Some((optimum.pushes() - 1, optimum.lurd()));
                let wrong = by(Metric::Pushes, too_low).0;
                lost += usize::from(counts(wrong) != counts(Some(optimum.clone())));
                assert_eq!(
                    counts(by(Metric::Moves, too_low).0),
                    counts(by(Metric::Moves, None).0)
                );
            }
        }
        assert!(taken >= 8, "{taken}");
        assert_eq!(lost, taken, "a ceiling too low must lose the optimum");
    }

    /// When the exact search stopped, the answer is the solution with the fewest pushes
    /// proven beside it, with those pushes as its bound (the finder's when it has as
    /// many pushes and fewer moves), else the finder's with the best bound proven; a
    /// solution proven on both keys beside it comes before all but the exact search's
    /// own proof.
    #[test]
    fn a_stopped_exact_search_answers_the_fewest_pushes_or_both_keys_proven_beside() {
        let stopped = || Exact::Stopped {
            limit: SolveError::Time,
            bound: 5,
            improved: None,
        };
        let options = Options::default();
        let beside = |fewest: Option<(u32, &str)>, bound| Beside {
            fewest: fewest.map(|(p, lurd)| (p, lurd.to_owned())),
            bound,
            proven: None,
        };
        let answer = |found: &str, beside| {
            settle(stopped(), Ok(Some(found.to_owned())), beside, &options)
                .unwrap()
                .unwrap()
        };
        let first = "lRlRuR";
        // The finder's solution has more pushes: the one proven beside.
        let got = answer("RRRR", beside(Some((3, first)), 3));
        assert_eq!(
            (got.lurd(), got.lower_bound(), got.is_proven()),
            (first, 3, false)
        );
        // As many pushes and fewer moves: the finder's, the pushes proven all the same.
        let got = answer("RRR", beside(Some((3, first)), 3));
        assert_eq!(
            (got.lurd(), got.lower_bound(), got.is_proven()),
            ("RRR", 3, false)
        );
        // Nothing proven beside: the finder's, with the higher of the two bounds.
        assert_eq!(answer("RRRR", beside(None, 4)).lower_bound(), 5);
        assert_eq!(answer("RRRR", beside(None, 7)).lower_bound(), 7);
        // A settled exact search answers as before, whatever came beside.
        let proven = Solution::proven("rRR".to_owned(), Metric::Pushes);
        let got = settle(
            Exact::Settled(Some(proven.clone())),
            Ok(Some("RR".to_owned())),
            beside(Some((2, "RR")), 2),
            &options,
        );
        assert_eq!(got, Ok(Some(proven.clone())));
        let nothing = settle(stopped(), Err(Halt::Memory), Beside::default(), &options);
        assert_eq!(nothing, Err(SolveError::Time));
        // Both keys proven beside: that answer, whether the exact search was stopped or
        // gave the fewest pushes unproven; the exact search's own proof first.
        let both = Solution::proven("RuR".to_owned(), Metric::Pushes);
        let with_both = || Beside {
            proven: Some(both.clone()),
            ..beside(Some((2, "RlluR")), 2)
        };
        let got = settle(
            stopped(),
            Ok(Some("RRRR".to_owned())),
            with_both(),
            &options,
        );
        assert_eq!(got, Ok(Some(both.clone())));
        let unproven = Solution::unproven("RlluR".to_owned(), 2);
        let got = settle(
            Exact::Settled(Some(unproven)),
            Err(Halt::Memory),
            with_both(),
            &options,
        );
        assert_eq!(got, Ok(Some(both.clone())));
        let got = settle(
            Exact::Settled(Some(proven.clone())),
            Ok(None),
            with_both(),
            &options,
        );
        assert_eq!(got, Ok(Some(proven)));
    }
}

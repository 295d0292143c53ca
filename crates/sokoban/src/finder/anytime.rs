//! Always an answer: the finder first, on a share of the time, then the exact search on
//! the rest; the exact answer when it comes, else the finder's solution, marked unproven
//! with the proven lower bound: the exact search's (the largest first key of `f` it took
//! from its queue), or the start's matching when that is higher.
//!
//! Why this order: on a level the exact search proves, the finder mostly answers in a
//! fraction of a second and takes little of its time; on a level it cannot prove, the
//! finder's solution is what the user gets. Both share the memory bound one after the
//! other (the finder's tables are freed before the exact search starts).
//!
//! # Complexity
//! That of the two searches, within `--time-limit` and `--memory-mib`.

use std::time::{Duration, Instant};

use grid_core::limits::MIB;

use super::{Options as FinderOptions, find};
use crate::board::Board;
use crate::matching::Matcher;
use crate::parse::Level;
use crate::solution::{Options, Solution, SolveError};

/// The share of `--time-limit` the finder may take (it stops as soon as it finds).
const FINDER_SHARE: f64 = 0.2;

/// Without a time limit, the finder's stop checks (each after a few hundred expansions)
/// before it gives way to the exact search: about a million expansions.
const FINDER_CHECKS_UNTIMED: u32 = 4096;

/// The answer for `level`: see the module documentation and [`crate::solve`].
///
/// # Errors
/// [`SolveError`] when neither search found a solution within the limits.
pub(crate) fn solve(level: &Level, options: &Options) -> Result<Option<Solution>, SolveError> {
    if options.interrupted() {
        return Err(SolveError::Interrupted);
    }
    let started = Instant::now();
    let memory_bytes = options.memory_mib.saturating_mul(MIB);
    let found = if options.time_limit == Some(Duration::ZERO) {
        None
    } else {
        let finder_time = options.time_limit.map(|t| t.mul_f64(FINDER_SHARE));
        let mut checks = 0u32;
        let mut stop = || {
            checks += 1;
            options.interrupted()
                || match finder_time {
                    Some(limit) => started.elapsed() >= limit,
                    None => checks > FINDER_CHECKS_UNTIMED,
                }
        };
        let finder_options = FinderOptions {
            memory_bytes,
            ..FinderOptions::default()
        };
        match find(level, &finder_options, &mut stop) {
            Ok(None) => return Ok(None),
            Ok(Some(lurd)) => Some(lurd),
            Err(_) => None,
        }
    };
    let exact = Options {
        time_limit: options
            .time_limit
            .map(|t| t.saturating_sub(started.elapsed())),
        ..options.clone()
    };
    let (answer, stats) = crate::search::solve_counting(level, &exact);
    match answer {
        Ok(answer) => Ok(answer),
        Err(limit) => match found {
            Some(lurd) => {
                let bound = start_bound(level).max(stats.bound);
                Ok(Some(Solution::unproven(lurd, bound)))
            }
            None => Err(limit),
        },
    }
}

/// A proven lower bound on the metric's first key from the start: the matching of boxes
/// to goals on lone-box push distances (every solution pushes each box to its own goal;
/// moves count the pushes too).
pub(super) fn start_bound(level: &Level) -> u32 {
    let board = Board::new(level);
    let boxes = level.boxes();
    Matcher::new()
        .min_cost(boxes.len(), |i, j| board.distance(j, boxes[i].index()))
        .unwrap_or(0)
}

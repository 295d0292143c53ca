//! The finder under a ceiling: a solution with as few pushes as the fewest pushes' search
//! has proven it needs, asked for while that search runs.
//!
//! Why: the fewest pushes' search (A* over the player's regions) raises its bound to the
//! optimum `P` long before it proves it; the proof then waits for a solution with `P`
//! pushes to come out of the last layer of its queue, where the states whose bound is
//! `P` but whose way on is longer fill most of the work (XSokoban 55: the bound 120 at 20
//! s, the proof at 80 s). A bound and any legal solution with as many pushes prove the
//! same, and the finder, driven by FESS's features instead of the bound alone, finds one
//! among far fewer states once every state whose pushes and bound pass the ceiling is
//! dropped ([`super::Options::ceiling`]): 55 at the ceiling 120 in 1.6 CPU s.
//!
//! The schedule: at each look of the search at the clock, a solution in hand with as
//! few pushes as the bound is the answer at once. Otherwise, when a run is due, the
//! finder runs, in turn, under the ceiling of the bound (a solution there is the answer)
//! and under one push fewer than the solution in hand (a solution there replaces it, so
//! that the proof comes as soon as the bound reaches it, and an unproven answer has
//! fewer pushes). A run at the bound has twice the slice of the last one at the same
//! bound (from [`LEAST_SLICE`]): the finder keeps nothing between runs, so the slices
//! double until one is long enough, and all of them take less than twice that one. A
//! run below the solution has a sixteenth of the time so far: when it finds, it mostly
//! finds at once. The runs take a share of the time as it passes ([`Pace`]), and the
//! share depends on the bound. While it has not risen for half the search's time or more
//! ([`STALLED`]), the search is in its last layer or near it, and the finder is the
//! likelier way to the proof: a third ([`STALLED_SHARE`]). While it rises, the search is
//! on its way to the proof by itself: a seventeenth ([`RISING_SHARE`]).
//!
//! Why: on XSokoban 48, 53 and 55 (`--metric pushes --time-limit 60`) the bound is the
//! optimum from the start, and the finder at that ceiling needs 0.7, 8.5 and 1.6 s for
//! a solution. The schedule before (slices of a quarter of the time so far, runs at a
//! third of the time until they stopped gaining, a seventeenth after) gave them those
//! slices only at 42, 47 and 50 s, or not at all.
//!
//! # Complexity
//! Each run is a finder's run ([`super::find`]) within its slice and the bytes the search
//! has left; nothing is kept between runs.

use std::time::{Duration, Instant};

use super::{Halt, Options, find};
use crate::parse::Level;
use crate::search::SolutionsBeside;
use crate::solution::{Metric, counted};
use crate::verify;

/// The shortest slice a run under the ceiling gets.
const LEAST_SLICE: Duration = Duration::from_millis(50);

/// The longest slice a run at the bound gets: the doubling stops there.
const LONGEST_SLICE: Duration = Duration::from_secs(3600);

/// The bound has stalled when it has not risen for this share of the time the search
/// has had (the start's bound is not a rise).
const STALLED: f64 = 0.5;

/// The share of the search's time the runs may take while the bound has stalled.
const STALLED_SHARE: f64 = 1.0 / 3.0;

/// The share of the search's time the runs may take while the bound rises.
const RISING_SHARE: f64 = 1.0 / 17.0;

/// A run below the solution in hand has this part of the time the search has had.
const BELOW_PART: u32 = 16;

/// The least memory a run is started with: below it the finder's tables alone fill it.
const LEAST_BYTES: u64 = 16 << 20;

/// The finder under a ceiling below the solution in hand, run in slices beside the fewest
/// pushes' search; see the module documentation.
pub(super) struct Ceiling<'a> {
    level: &'a Level,
    /// The finder's way ([`Options::ceiling`] and the memory are set per run).
    way: &'a Options,
    /// The solution in hand (the finder's), where a run's solution goes too.
    solutions: &'a SolutionsBeside,
    /// Whether the caller's limits have stopped everything.
    stop: &'a dyn Fn() -> bool,
    /// When the search began.
    began: Instant,
    /// The runs' account of time.
    pace: Pace,
    /// Whether the next run is at the bound (else below the solution in hand).
    at_bound: bool,
    /// The slice of the next run at the bound.
    bound_slice: Duration,
    /// The bound at the last ask, and when it last rose (the start's bound counting as
    /// no rise).
    bound: Option<u32>,
    risen: Instant,
    /// The ceiling under which the finder last ran out of states (nothing new there).
    exhausted: Option<u32>,
}

impl<'a> Ceiling<'a> {
    /// Runs of `way` on `level` beside a search begun now, the solution in hand in
    /// `solutions`, `stop` the caller's limits.
    pub(super) fn new(
        level: &'a Level,
        way: &'a Options,
        solutions: &'a SolutionsBeside,
        stop: &'a dyn Fn() -> bool,
    ) -> Self {
        let now = Instant::now();
        Ceiling {
            level,
            way,
            solutions,
            stop,
            began: now,
            pace: Pace::new(now),
            at_bound: true,
            bound_slice: LEAST_SLICE,
            bound: None,
            risen: now,
            exhausted: None,
        }
    }

    /// A legal solution with at most `bound` pushes, the search having proven at least
    /// `bound` and holding `left` bytes it may still take: the solution in hand when it
    /// has that few. Else, when a run is due, the finder under the ceiling of the bound
    /// or of one push fewer than the solution in hand, whose solution (when it finds one)
    /// replaces it.
    pub(super) fn ask(&mut self, bound: u32, left: u64) -> Option<String> {
        let incumbent = self.solutions.found()?;
        let pushes = counted(&incumbent).0;
        if pushes <= bound {
            return Some(incumbent);
        }
        let now = Instant::now();
        if self.bound.is_some_and(|b| bound > b) {
            self.risen = now;
            self.bound_slice = LEAST_SLICE;
        }
        self.bound = Some(bound);
        let elapsed = now.duration_since(self.began);
        let share = share(elapsed, now.duration_since(self.risen));
        if !self.pace.due(now, share) || left < LEAST_BYTES {
            return None;
        }
        let at_bound = self.at_bound;
        self.at_bound = !at_bound;
        let (ceiling, slice) = match at_bound {
            true => (bound, self.bound_slice),
            false => (pushes - 1, (elapsed / BELOW_PART).max(LEAST_SLICE)),
        };
        if self.exhausted == Some(ceiling) {
            return None;
        }
        let end = now + slice;
        let options = Options {
            ceiling: Some(ceiling),
            memory_bytes: left,
            ..self.way.clone()
        };
        let stop = self.stop;
        let found = find(self.level, &options, &mut || {
            stop() || Instant::now() >= end
        });
        self.pace.spend(now.elapsed());
        match found {
            Ok(Some(lurd)) => {
                let counts = verify(self.level, &lurd).ok()?;
                if counts.pushes >= pushes {
                    return None;
                }
                self.solutions.offer_found(&lurd, Metric::Pushes);
                (counts.pushes <= bound).then_some(lurd)
            }
            Ok(None) => {
                self.exhausted = Some(ceiling);
                None
            }
            // Out of its slice: the next run at this bound has twice as long. Out of
            // memory, a longer slice would not help.
            Err(Halt::Stopped) if at_bound => {
                self.bound_slice = doubled(self.bound_slice);
                None
            }
            Err(_) => None,
        }
    }
}

/// Twice `slice`, at most [`LONGEST_SLICE`] (so that no doubling overflows).
fn doubled(slice: Duration) -> Duration {
    slice.saturating_mul(2).min(LONGEST_SLICE)
}

/// The share of the time the runs may take, the search having run for `elapsed`, its
/// bound last risen `since_risen` ago: see the module documentation.
fn share(elapsed: Duration, since_risen: Duration) -> f64 {
    match since_risen >= elapsed.mul_f64(STALLED) {
        true => STALLED_SHARE,
        false => RISING_SHARE,
    }
}

/// The runs' account of time: it is credited, at each ask, with the time since the last
/// ask at the share that held then, and a run is due while the credit is not below zero;
/// each run is charged its time. Why not the share of all the time so far: a bound that
/// rose for long and then stalls would let the runs take a third of all that time at
/// once. Why the share of the last ask: the search does not ask while it grows its ball
/// (XSokoban 43: 8 to 11 s without an ask, across which the bound came to count as
/// stalled), and a long gap credited at the new share gave the same burst.
#[derive(Debug, Clone, Copy)]
struct Pace {
    /// Seconds the runs may still take (below zero after a run longer than its credit).
    credit: f64,
    /// When the credit was last brought up to date, and the share that held then.
    last: Instant,
    share: f64,
}

impl Pace {
    fn new(now: Instant) -> Self {
        Pace {
            credit: 0.0,
            last: now,
            share: RISING_SHARE,
        }
    }

    /// Credits the time since the last ask at the share that held then, `share` holding
    /// from `now`; whether a run is due.
    fn due(&mut self, now: Instant, share: f64) -> bool {
        self.credit += now.saturating_duration_since(self.last).as_secs_f64() * self.share;
        self.last = now;
        self.share = share;
        self.credit >= 0.0
    }

    /// Charges a run that took `run`.
    fn spend(&mut self, run: Duration) {
        self.credit -= run.as_secs_f64();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn a_stalled_bound_gives_the_runs_a_third_a_rising_one_a_seventeenth() {
        // Not risen for 21 s of 42 (half): stalled; risen 20 s ago of 42: rising.
        assert_eq!(share(secs(42), secs(21)), STALLED_SHARE);
        assert_eq!(share(secs(42), secs(20)), RISING_SHARE);
        // The start's bound never rose.
        assert_eq!(share(Duration::ZERO, Duration::ZERO), STALLED_SHARE);
    }

    #[test]
    fn the_slices_at_the_bound_double_up_to_the_longest() {
        assert_eq!(doubled(LEAST_SLICE), 2 * LEAST_SLICE);
        let slice = (0..200).fold(LEAST_SLICE, |slice, _| doubled(slice));
        assert_eq!(slice, LONGEST_SLICE);
    }

    #[test]
    fn a_run_is_due_at_once_and_then_after_its_time_over_the_share() {
        let start = Instant::now();
        let mut pace = Pace::new(start);
        assert!(pace.due(start, STALLED_SHARE));
        pace.spend(secs(1));
        // A run of 1 s at a third: due again once 3 s have passed since it began.
        assert!(!pace.due(start + Duration::from_millis(2900), STALLED_SHARE));
        assert!(pace.due(start + Duration::from_millis(3100), STALLED_SHARE));
    }

    #[test]
    fn a_stall_after_a_long_rise_starts_without_a_burst() {
        let start = Instant::now();
        let mut pace = Pace::new(start);
        assert!(pace.due(start, RISING_SHARE));
        // 34 s of a rising bound, without an ask, leave 2 s of credit, not a third of 34,
        // though the bound counts as stalled at the ask that ends them.
        assert!(pace.due(start + secs(34), STALLED_SHARE));
        pace.spend(Duration::from_millis(2100));
        assert!(!pace.due(start + secs(34), STALLED_SHARE));
    }
}

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
//! fewer pushes). The run at the bound is **resumed**: it lives on a thread of its own
//! ([`Resumed`]) and sleeps in its stop check between its slices, so that its work adds
//! up across the asks until the bound rises; only one of the two threads runs at a time.
//! A run below the solution starts afresh each time (its ceiling falls with each find).
//! Each slice is a sixteenth of the time so far. The runs take a share of the time as it
//! passes ([`Pace`]), and the share depends on the bound. While it has not risen for half
//! the search's time or more ([`STALLED`]), the search is in its last layer or near it,
//! and the finder is the likelier way to the proof: a third ([`STALLED_SHARE`]). While it
//! rises, the search is on its way to the proof by itself: a seventeenth
//! ([`RISING_SHARE`]).
//!
//! Why: on XSokoban 48, 53 and 55 (`--metric pushes --time-limit 60`) the bound is the
//! optimum from the start, and the finder at that ceiling needs 0.7, 8.5 and 1.6 s for
//! a solution. Runs that started afresh with twice the slice of the last (from
//! [`LEAST_SLICE`]) took up to four times that to get there (53: 6.4 s at 29 s, the
//! next slice 12.8 s cut by the limit); resumed, 8.5 s of runs are 8.5 s of its work.
//!
//! The memory: a run below the solution takes what the search has left and frees it
//! before the search goes on. The run at the bound keeps its tables while it sleeps, so
//! it is started with a third of what the search has left, and the search's limit is
//! lowered by as much while the run lives ([`Probed::held`]); when the search has less
//! left than that, the run is ended and its bytes given back.
//!
//! # Complexity
//! Each run is a finder's run ([`super::find`]) within its slices and its bytes.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use super::{Halt, Options, find};
use crate::parse::Level;
use crate::search::{Probed, SolutionsBeside};
use crate::solution::{Metric, counted};
use crate::verify;

/// The shortest slice a run under the ceiling gets.
const LEAST_SLICE: Duration = Duration::from_millis(50);

/// The bound has stalled when it has not risen for this share of the time the search
/// has had (the start's bound is not a rise).
const STALLED: f64 = 0.5;

/// The share of the search's time the runs may take while the bound has stalled.
const STALLED_SHARE: f64 = 1.0 / 3.0;

/// The share of the search's time the runs may take while the bound rises.
const RISING_SHARE: f64 = 1.0 / 17.0;

/// A slice is this part of the time the search has had.
const SLICE_PART: u32 = 16;

/// The part of the bytes the search has left that the resumed run at the bound holds.
const RESUMED_PART: u64 = 3;

/// The least memory a run is started with: below it the finder's tables alone fill it.
const LEAST_BYTES: u64 = 16 << 20;

/// What a finder's run ends with.
type Ran = Result<Option<String>, Halt>;

/// The caller's limits, asked from the run's thread too.
pub(super) type Stop<'s> = &'s (dyn Fn() -> bool + Sync);

/// The finder under a ceiling below the solution in hand, run in slices beside the fewest
/// pushes' search; see the module documentation.
pub(super) struct Ceiling<'s, 'e> {
    level: &'s Level,
    /// The finder's way ([`Options::ceiling`] and the memory are set per run).
    way: &'s Options,
    /// The solution in hand (the finder's), where a run's solution goes too.
    solutions: &'s SolutionsBeside,
    /// Whether the caller's limits have stopped everything.
    stop: Stop<'s>,
    /// Where the run at the bound gets its thread.
    scope: &'s Scope<'s, 'e>,
    /// When the search began.
    began: Instant,
    /// The runs' account of time.
    pace: Pace,
    /// Whether the next run is at the bound (else below the solution in hand).
    at_bound: bool,
    /// The run at the bound, sleeping between its slices.
    resumed: Option<Resumed<'s>>,
    /// The bound at the last ask, and when it last rose (the start's bound counting as
    /// no rise).
    bound: Option<u32>,
    risen: Instant,
    /// The ceiling under which the finder last ran out of states or memory (nothing more
    /// to find there with what it has).
    spent: Option<u32>,
}

impl<'s, 'e> Ceiling<'s, 'e> {
    /// Runs of `way` on `level` beside a search begun now, the solution in hand in
    /// `solutions`, `stop` the caller's limits, the run at the bound on a thread of
    /// `scope`.
    pub(super) fn new(
        level: &'s Level,
        way: &'s Options,
        solutions: &'s SolutionsBeside,
        stop: Stop<'s>,
        scope: &'s Scope<'s, 'e>,
    ) -> Self {
        let now = Instant::now();
        Ceiling {
            level,
            way,
            solutions,
            stop,
            scope,
            began: now,
            pace: Pace::new(now),
            at_bound: true,
            resumed: None,
            bound: None,
            risen: now,
            spent: None,
        }
    }

    /// A legal solution with at most `bound` pushes, the search having proven at least
    /// `bound` and holding `left` bytes it may still take: the solution in hand when it
    /// has that few. Else, when a run is due, the finder under the ceiling of the bound
    /// or of one push fewer than the solution in hand, whose solution (when it finds one)
    /// replaces it. With the bytes the run at the bound holds until the next ask.
    pub(super) fn ask(&mut self, bound: u32, left: u64) -> Probed {
        let solution = self.asked(bound, left);
        Probed {
            solution,
            held: self.resumed.as_ref().map_or(0, |r| r.held),
        }
    }

    fn asked(&mut self, bound: u32, left: u64) -> Option<String> {
        let incumbent = self.solutions.found()?;
        let pushes = counted(&incumbent).0;
        if pushes <= bound {
            return Some(incumbent);
        }
        let now = Instant::now();
        if self.bound.is_some_and(|b| bound > b) {
            self.risen = now;
        }
        self.bound = Some(bound);
        // Under a ceiling below the bound there is nothing to find; and the search needs
        // the bytes back once it has less left than the run holds.
        if self
            .resumed
            .as_ref()
            .is_some_and(|r| r.ceiling < bound || left < r.held)
        {
            self.resumed = None;
        }
        let elapsed = now.duration_since(self.began);
        let share = share(elapsed, now.duration_since(self.risen));
        if !self.pace.due(now, share) {
            return None;
        }
        // One push fewer than the solution in hand is the bound itself: the run there is
        // the one at the bound.
        let at_bound = self.at_bound || pushes - 1 == bound;
        self.at_bound = !self.at_bound;
        let ceiling = if at_bound { bound } else { pushes - 1 };
        if self.spent == Some(ceiling) {
            return None;
        }
        let end = now + (elapsed / SLICE_PART).max(LEAST_SLICE);
        let found = match (at_bound, self.resumed.as_mut()) {
            (true, Some(resumed)) => resumed.slice(end),
            (true, None) if left / RESUMED_PART >= LEAST_BYTES => {
                let held = left / RESUMED_PART;
                let (resumed, found) = Resumed::start(self, ceiling, held, end);
                self.resumed = resumed;
                found
            }
            (false, _) if left >= LEAST_BYTES => {
                let options = Options {
                    ceiling: Some(ceiling),
                    memory_bytes: left,
                    ..self.way.clone()
                };
                let stop = self.stop;
                Some(find(self.level, &options, &mut || {
                    stop() || Instant::now() >= end
                }))
            }
            _ => return None,
        };
        self.pace.spend(now.elapsed());
        match found? {
            Ok(Some(lurd)) => {
                let counts = verify(self.level, &lurd).ok()?;
                if counts.pushes >= pushes {
                    return None;
                }
                self.solutions.offer_found(&lurd, Metric::Pushes);
                (counts.pushes <= bound).then_some(lurd)
            }
            // Out of states, or the run at the bound out of its bytes: nothing more
            // to find under this ceiling with them.
            Ok(None) => {
                self.spent = Some(ceiling);
                None
            }
            Err(Halt::Memory) if at_bound => {
                self.spent = Some(ceiling);
                None
            }
            Err(_) => None,
        }
    }
}

/// Whose turn it is, between the search's thread and the run at the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// The run's, until then.
    Run(Instant),
    /// The search's: the run sleeps in its stop check.
    Asleep,
    /// The run is to end (its stop check says so).
    Quit,
    /// The run has ended.
    Ended,
}

/// The turn, and its change told to the thread that waits for it.
#[derive(Debug)]
struct Gate {
    turn: Mutex<Turn>,
    changed: Condvar,
}

impl Gate {
    fn set(&self, turn: Turn) {
        *self.turn.lock().unwrap_or_else(PoisonError::into_inner) = turn;
        self.changed.notify_all();
    }

    /// On the search's thread, the turn given to the run: waits until the run sleeps or
    /// has ended.
    fn run_until(&self, end: Instant) {
        let mut turn = self.turn.lock().unwrap_or_else(PoisonError::into_inner);
        *turn = Turn::Run(end);
        self.changed.notify_all();
        while let Turn::Run(_) = *turn {
            turn = self
                .changed
                .wait(turn)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// On the run's thread, its slice over: sleeps until the next slice (its end) or
    /// the word to quit (`None`).
    fn sleep(&self) -> Option<Instant> {
        let mut turn = self.turn.lock().unwrap_or_else(PoisonError::into_inner);
        *turn = Turn::Asleep;
        self.changed.notify_all();
        loop {
            match *turn {
                Turn::Run(end) => return Some(end),
                Turn::Quit => return None,
                Turn::Asleep | Turn::Ended => {
                    turn = self
                        .changed
                        .wait(turn)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            }
        }
    }
}

/// Tells the search's thread that the run has ended, also when it unwinds.
struct EndsTurn(Arc<Gate>);

impl Drop for EndsTurn {
    fn drop(&mut self) {
        self.0.set(Turn::Ended);
    }
}

/// The run at the bound on its own thread, asleep between its slices; dropped, it is
/// told to quit and joined (its bytes freed).
struct Resumed<'s> {
    /// Its ceiling: the bound when it started.
    ceiling: u32,
    /// The bytes it may hold.
    held: u64,
    gate: Arc<Gate>,
    /// `None` once joined.
    run: Option<ScopedJoinHandle<'s, Ran>>,
}

impl<'s> Resumed<'s> {
    /// Starts the run at `ceiling` with `held` bytes, its first slice until `end`: the
    /// run, unless it ended in that slice, and its result when it did.
    fn start(
        on: &Ceiling<'s, '_>,
        ceiling: u32,
        held: u64,
        end: Instant,
    ) -> (Option<Self>, Option<Ran>) {
        let gate = Arc::new(Gate {
            turn: Mutex::new(Turn::Run(end)),
            changed: Condvar::new(),
        });
        let options = Options {
            ceiling: Some(ceiling),
            memory_bytes: held,
            ..on.way.clone()
        };
        let (level, stop, ends) = (on.level, on.stop, EndsTurn(Arc::clone(&gate)));
        let run = on.scope.spawn(move || {
            let gate = Arc::clone(&ends.0);
            let mut end = end;
            let found = find(level, &options, &mut || {
                if stop() {
                    return true;
                }
                if Instant::now() < end {
                    return false;
                }
                match gate.sleep() {
                    Some(next) => {
                        end = next;
                        stop()
                    }
                    None => true,
                }
            });
            drop(ends);
            found
        });
        let mut resumed = Resumed {
            ceiling,
            held,
            gate,
            run: Some(run),
        };
        let found = resumed.wait_for_turn();
        (found.is_none().then_some(resumed), found)
    }

    /// Another slice, until `end`: the run's result when it ended in it.
    fn slice(&mut self, end: Instant) -> Option<Ran> {
        self.gate.run_until(end);
        self.wait_for_turn()
    }

    /// After the run's turn: its result, joined, when it has ended.
    fn wait_for_turn(&mut self) -> Option<Ran> {
        let mut turn = self
            .gate
            .turn
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        while let Turn::Run(_) = *turn {
            turn = self
                .gate
                .changed
                .wait(turn)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let ended = *turn == Turn::Ended;
        drop(turn);
        ended.then(|| self.join())
    }

    /// The run's result, once it has ended or been told to; a panic on its thread goes on
    /// on this one.
    fn join(&mut self) -> Ran {
        match self.run.take().map(ScopedJoinHandle::join) {
            Some(Ok(found)) => found,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => Err(Halt::Stopped),
        }
    }
}

impl Drop for Resumed<'_> {
    fn drop(&mut self) {
        if self.run.is_some() {
            self.gate.set(Turn::Quit);
            if let Some(Err(panic)) = self.run.take().map(ScopedJoinHandle::join) {
                if !std::thread::panicking() {
                    std::panic::resume_unwind(panic);
                }
            }
        }
    }
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
    use crate::{Collection, Options as SolveOptions, solve};

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    /// A run at the bound resumed slice after slice, each slice ending at the run's first
    /// stop check, finds what one run without a stop finds, letter for letter (the
    /// finder's course depends on nothing but its states, so sleeping in the stop check
    /// changes nothing): on XSokoban 2 under a ceiling of 140 pushes (nine more than its
    /// fewest; over a thousand slices), and on Microban levels of `microban-fast.in` under
    /// the ceiling of their fewest. Dropped
    /// while it sleeps, a run is told to quit and joined.
    #[test]
    fn a_run_resumed_in_slices_finds_what_one_run_finds() {
        let text = [
            include_str!("../../../../testdata/sokoban/xsokoban-2-unproven.in"),
            include_str!("../../../../testdata/sokoban/microban-fast.in"),
        ]
        .concat();
        let levels: Vec<_> = Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .filter_map(Result::ok)
            .take(12)
            .collect();
        let way = Options::default();
        let solutions = SolutionsBeside::new();
        let never = || false;
        let mut most_slices = 0;
        for (i, level) in levels.iter().enumerate() {
            let fewest = match i {
                0 => 140,
                _ => solve(level, &SolveOptions::default())
                    .unwrap()
                    .unwrap()
                    .pushes(),
            };
            let at = Options {
                ceiling: Some(fewest),
                ..way.clone()
            };
            let whole = find(level, &at, &mut || false);
            std::thread::scope(|scope| {
                let ceiling = Ceiling::new(level, &way, &solutions, &never, scope);
                let past = Instant::now();
                let (mut resumed, mut found) =
                    Resumed::start(&ceiling, fewest, at.memory_bytes, past);
                let mut slices = 1;
                while found.is_none() {
                    found = resumed.as_mut().unwrap().slice(past);
                    slices += 1;
                }
                assert_eq!(found, Some(whole), "level {}", level.number());
                most_slices = most_slices.max(slices);
                let (asleep, found) = Resumed::start(&ceiling, fewest, at.memory_bytes, past);
                assert!(asleep.is_some() != found.is_some());
            });
        }
        assert!(most_slices > 10, "{most_slices}");
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

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
//! finder runs for a slice of a quarter of the time the search has had (at least
//! [`LEAST_SLICE`]): its ways in turn, each under the ceiling of the bound (a solution
//! there is the answer), then each under one push fewer than the solution in hand (a
//! solution there replaces it, so that the proof comes as soon as the bound reaches it).
//! A run is due once the search has had twice the last slice again, doubled for each
//! run in a row that found nothing new ([`MOST_DOUBLINGS`]): the runs take a third of
//! the time while they gain and a seventeenth once they stop.
//!
//! # Complexity
//! Each run is a finder's run ([`super::find`]) within its slice and the bytes the search
//! has left; nothing is kept between runs.

use std::time::{Duration, Instant};

use super::{Options, find};
use crate::parse::Level;
use crate::search::SolutionsBeside;
use crate::solution::{Metric, counted};
use crate::verify;

/// The shortest slice a run under the ceiling gets.
const LEAST_SLICE: Duration = Duration::from_millis(50);

/// A run waits until the search has had twice the last run's slice since it, doubled
/// for each run in a row that found nothing new, up to this many doublings: the runs
/// take a third of the time while they gain, a seventeenth once they stop gaining.
const MOST_DOUBLINGS: u32 = 3;

/// The least memory a run is started with: below it the finder's tables alone fill it.
const LEAST_BYTES: u64 = 16 << 20;

/// The finder under a ceiling below the solution in hand, run in slices beside the fewest
/// pushes' search; see the module documentation.
pub(super) struct Ceiling<'a> {
    level: &'a Level,
    /// The finder's ways, in turn ([`Options::ceiling`] and the memory set per run).
    ways: &'a [Options],
    /// The solution in hand (the finder's), where a run's solution goes too.
    solutions: &'a SolutionsBeside,
    /// Whether the caller's limits have stopped everything.
    stop: &'a dyn Fn() -> bool,
    /// When the search began.
    began: Instant,
    /// When the last run ended.
    last_end: Instant,
    /// How long the last run had.
    last_slice: Duration,
    /// Runs made so far.
    runs: usize,
    /// Runs in a row that found no solution with fewer pushes.
    fruitless: u32,
    /// The ceiling under which each way last ran out of states (nothing new there).
    exhausted: Vec<Option<u32>>,
}

impl<'a> Ceiling<'a> {
    /// Runs of `ways` on `level` beside a search begun now, the solution in hand in
    /// `solutions`, `stop` the caller's limits.
    pub(super) fn new(
        level: &'a Level,
        ways: &'a [Options],
        solutions: &'a SolutionsBeside,
        stop: &'a dyn Fn() -> bool,
    ) -> Self {
        let now = Instant::now();
        Ceiling {
            level,
            ways,
            solutions,
            stop,
            began: now,
            last_end: now,
            last_slice: Duration::ZERO,
            runs: 0,
            fruitless: 0,
            exhausted: vec![None; ways.len()],
        }
    }

    /// A legal solution with at most `bound` pushes, the search having proven at least
    /// `bound` and holding `left` bytes it may still take: the solution in hand when it
    /// has that few. Else, when a run is due, the finder under the ceiling of one push
    /// fewer than the solution in hand, whose solution (when it finds one) replaces it.
    pub(super) fn ask(&mut self, bound: u32, left: u64) -> Option<String> {
        let incumbent = self.solutions.found()?;
        let pushes = counted(&incumbent).0;
        if pushes <= bound {
            return Some(incumbent);
        }
        let now = Instant::now();
        if self.ways.is_empty()
            || left < LEAST_BYTES
            || now.duration_since(self.last_end)
                < (2 << self.fruitless.min(MOST_DOUBLINGS)) * self.last_slice
        {
            return None;
        }
        // The ways in turn, each at the bound, then each one push below the solution.
        let turn = self.runs % self.ways.len();
        let ceiling = match (self.runs / self.ways.len()) % 2 {
            0 => bound,
            _ => pushes - 1,
        };
        self.runs += 1;
        if self.exhausted[turn] == Some(ceiling) {
            return None;
        }
        let slice = (now.duration_since(self.began) / 4).max(LEAST_SLICE);
        let end = now + slice;
        let options = Options {
            ceiling: Some(ceiling),
            memory_bytes: left,
            ..self.ways[turn].clone()
        };
        let stop = self.stop;
        let found = find(self.level, &options, &mut || {
            stop() || Instant::now() >= end
        });
        self.last_end = Instant::now();
        self.last_slice = slice;
        self.fruitless += 1;
        match found {
            Ok(Some(lurd)) => {
                let counts = verify(self.level, &lurd).ok()?;
                if counts.pushes >= pushes {
                    return None;
                }
                self.fruitless = 0;
                self.solutions.offer_found(&lurd, Metric::Pushes);
                (counts.pushes <= bound).then_some(lurd)
            }
            Ok(None) => {
                self.exhausted[turn] = Some(ceiling);
                None
            }
            Err(_) => None,
        }
    }
}

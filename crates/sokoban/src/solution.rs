//! What a solve is asked and what it answers: the metric, the options, the solution and
//! the limits that can stop a search.
//!
//! Why a solution keeps only its LURD string: its pushes and moves are counted from it, so
//! they cannot disagree with it; and it says whether it is proven optimal, with the lower
//! bound that was proven, so that an answer found but not proven (issue 16's anytime
//! search) fits the same type without a caller mistaking it for a proof.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use grid_core::limits::DEFAULT_MEMORY_MIB;

/// Which cost is minimised first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Metric {
    /// Fewest pushes, then fewest moves.
    #[default]
    Pushes,
    /// Fewest moves, then fewest pushes.
    Moves,
}

impl Metric {
    /// A cost of `pushes` and `moves` as this metric compares it: first key, second key.
    pub(crate) fn order<T>(self, pushes: T, moves: T) -> [T; 2] {
        match self {
            Metric::Pushes => [pushes, moves],
            Metric::Moves => [moves, pushes],
        }
    }
}

/// How one level is searched ([`crate::solve`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The metric (default [`Metric::Pushes`]).
    pub metric: Metric,
    /// The memory the search may store, in MiB (`--memory-mib`), counted as it grows.
    pub memory_mib: u64,
    /// The time one level may take (`--time-limit`); `None` for no limit.
    pub time_limit: Option<Duration>,
    /// A flag that stops the search at its next look at the clock, as the time limit
    /// would but with [`SolveError::Interrupted`] (the binary's Ctrl-C); `None`: nobody.
    pub interrupt: Option<Interrupt>,
    /// Which lower bounds the searches use beyond the matching on the best sides (all by
    /// default; switched off to measure what one brings).
    pub bounds: Bounds,
    /// `--metric moves`: a state taken from the queue is dropped when another state of its
    /// box layout, with the walk from its square to this one, costs no more
    /// (docs/sokoban.md, "Walked over"). Default `true`; switched off to measure it.
    pub walked_over: bool,
    /// The threads one level may use (default 1). With 2 or more, the finder and the exact
    /// search run side by side, each on its own thread, each with the whole time limit
    /// (the finder with a quarter of `memory_mib`, the exact search with the rest),
    /// instead of one after the other; [`crate::run`] gives a lone level all its jobs.
    pub threads: NonZeroUsize,
}

/// The lower bounds the exact search and the push optimum use on top of the matching of
/// boxes to goals on lone-box push distances ([`Options::bounds`]). Each is admissible, so
/// switching one off changes the work, never an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// A box on a square that cuts the floor (a corridor's, a door's) is pushed, in the
    /// matching, only from the sides of it the player reaches (docs/sokoban.md, "The
    /// player's side of a box"). Default `true`.
    pub player_sides: bool,
    /// The pattern database of box pairs (docs/sokoban.md, "Pairs of boxes"): the fewest
    /// pushes of two boxes alone onto goals, added over disjoint pairs to the matching of
    /// the other boxes. Default `true`.
    pub pairs: bool,
    /// The walks left (docs/sokoban.md, "The walks left"): the player's pushes move it as
    /// far as the boxes must go in all, so the walks bring it back; the moves bound is the
    /// pushes left plus those. Default `true`.
    pub walks: bool,
    /// The backward ball (docs/sokoban.md, "The backward ball"): the exact moves left
    /// (`--metric moves`) or pushes left (`--metric pushes`, both phases) of every state
    /// near the end, found backwards from the solved states; every state outside it has
    /// more. Default `true`.
    pub ball: bool,
}

impl Default for Bounds {
    /// Every bound on.
    fn default() -> Self {
        Bounds {
            player_sides: true,
            pairs: true,
            walks: true,
            ball: true,
        }
    }
}

/// A flag one thread sets ([`Interrupt::interrupt`]) to stop the searches that other
/// threads run with it in their [`Options::interrupt`]; clones share the flag.
///
/// ```
/// let interrupt = sokoban::Interrupt::default();
/// let options = sokoban::Options { interrupt: Some(interrupt.clone()), ..Default::default() };
/// interrupt.interrupt();
/// let level: sokoban::Level = "#######\n#@$  .#\n#######\n".parse()?;
/// assert_eq!(sokoban::solve(&level, &options), Err(sokoban::SolveError::Interrupted));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<Flag>);

/// The flag behind an [`Interrupt`], and the flag it follows, if any.
#[derive(Debug, Default)]
struct Flag {
    set: AtomicBool,
    parent: Option<Interrupt>,
}

impl Interrupt {
    /// Sets the flag: every search with it stops at its next look (every few thousand
    /// expansions), and [`crate::run`] reads no further level.
    pub fn interrupt(&self) {
        self.0.set.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set, or the flag of the interrupt it was made to follow
    /// (one search of a level stops the other through such a flag).
    pub fn is_set(&self) -> bool {
        self.0.set.load(Ordering::Relaxed) || self.0.parent.as_ref().is_some_and(Self::is_set)
    }

    /// A new flag that is also set whenever `parent` is (when there is one): one search of
    /// a level stops the other through it, and the caller's interrupt still stops both.
    pub(crate) fn follower(parent: Option<&Interrupt>) -> Interrupt {
        Interrupt(Arc::new(Flag {
            set: AtomicBool::new(false),
            parent: parent.cloned(),
        }))
    }
}

impl PartialEq for Interrupt {
    /// The same flag.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Interrupt {}

impl Options {
    /// Whether [`Options::interrupt`] is set.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(Interrupt::is_set)
    }

    /// Sets [`Options::interrupt`], when there is one: the searches with these options
    /// stop at their next look.
    pub(crate) fn stop(&self) {
        if let Some(interrupt) = &self.interrupt {
            interrupt.interrupt();
        }
    }
}

impl Default for Options {
    /// [`Metric::Pushes`], [`DEFAULT_MEMORY_MIB`], no time limit, one thread.
    fn default() -> Self {
        Options {
            metric: Metric::Pushes,
            memory_mib: DEFAULT_MEMORY_MIB,
            time_limit: None,
            interrupt: None,
            bounds: Bounds::default(),
            walked_over: true,
            threads: NonZeroUsize::MIN,
        }
    }
}

/// A limit that stopped a search before it found anything ([`crate::solve`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// [`Options::time_limit`] passed.
    #[error("the time limit was reached")]
    Time,
    /// The search would store more than [`Options::memory_mib`].
    #[error("the memory budget was reached")]
    Memory,
    /// [`Options::interrupt`] was set.
    #[error("the search was interrupted")]
    Interrupted,
}

/// The pushes and moves of the LURD string `lurd`, read from its letters (a push is an
/// upper-case letter, every letter a move): O(moves), without a replay.
pub(crate) fn counted(lurd: &str) -> (u32, u32) {
    let pushes = lurd.bytes().filter(u8::is_ascii_uppercase).count();
    (
        u32::try_from(pushes).unwrap_or(u32::MAX),
        u32::try_from(lurd.len()).unwrap_or(u32::MAX),
    )
}

/// A solution: its moves in LURD (`lurd` walks, `LURD` pushes), the counts read from them,
/// and whether it is proven optimal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    lurd: String,
    pushes: u32,
    moves: u32,
    proven: bool,
    lower_bound: u32,
}

impl Solution {
    /// A solution proven optimal for `metric`: its lower bound is its own first key.
    pub(crate) fn proven(lurd: String, metric: Metric) -> Self {
        let (pushes, moves) = counted(&lurd);
        let lower_bound = match metric {
            Metric::Pushes => pushes,
            Metric::Moves => moves,
        };
        Solution {
            lurd,
            pushes,
            moves,
            proven: true,
            lower_bound,
        }
    }

    /// A legal solution not proven optimal, with `lower_bound`, a proven lower bound on
    /// the metric's first key (issue 16's anytime answer).
    pub(crate) fn unproven(lurd: String, lower_bound: u32) -> Self {
        let mut s = Solution::proven(lurd, Metric::Pushes);
        s.proven = false;
        s.lower_bound = lower_bound;
        s
    }

    /// Its pushes: the upper-case letters of [`Solution::lurd`].
    pub fn pushes(&self) -> u32 {
        self.pushes
    }

    /// Its moves, pushes included: the letters of [`Solution::lurd`].
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The moves, `l u r d` for a walk and `L U R D` for a push (empty for a level solved
    /// at the start).
    pub fn lurd(&self) -> &str {
        &self.lurd
    }

    /// Whether it is proven optimal on both keys of the metric it was solved for.
    pub fn is_proven(&self) -> bool {
        self.proven
    }

    /// The proven lower bound on the metric's first key (pushes, or moves): equal to this
    /// solution's own count when [`Solution::is_proven`].
    pub fn lower_bound(&self) -> u32 {
        self.lower_bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_come_from_the_moves() {
        let s = Solution::proven("rRRdL".to_owned(), Metric::Moves);
        assert_eq!((s.pushes(), s.moves(), s.lurd()), (3, 5, "rRRdL"));
        assert_eq!(s.lower_bound(), 5);
        assert!(s.is_proven());
        assert_eq!(
            Solution::proven(String::new(), Metric::Pushes).lower_bound(),
            0
        );
    }
}

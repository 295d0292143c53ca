//! Sokoban with many boxes, as players and solver authors know it: XSB levels in, LURD
//! solutions out, each proven optimal for one of the two standard metrics
//! (spec `sokoban.md`):
//! - [`Metric::Pushes`]: fewest pushes, then fewest moves among those;
//! - [`Metric::Moves`]: fewest moves (every step), then fewest pushes among those.
//!
//! ```
//! let text = "; a corridor\n#######\n#@ $ .#\n#######\n";
//! let level: sokoban::Level = text.parse()?;
//! let answer = sokoban::solve(&level, &sokoban::Options::default())?;
//! match answer {
//!     Some(s) => assert_eq!((s.pushes(), s.moves(), s.lurd()), (2, 3, "rRR")),
//!     None => unreachable!("proven unsolvable"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A collection is read level by level with [`Collection`]; [`run`] is the `sokoban`
//! binary (titles, answer lines, `--level`, `--show`, `--svg`).
//!
//! # Layout
//! The modules form a ladder, each using only those above it:
//! 1. `parse`: the XSB reader and [`Level`] (format);
//! 2. `solution`: [`Options`], [`Solution`], [`SolveError`] (what a solve asks and answers);
//! 3. `frozen`, `board`, `matching`, `groups`, `pattern`, `corral`, `region`: the boxes
//!    frozen from the start (walls for the rest), what the walls alone decide (push
//!    distances, dead squares, freeze tests), the matching bound, the deadlocks of two
//!    and three boxes, the pattern database of pairs, PI-corrals, the player's region
//!    after a push;
//! 4. `search`: the exact A* (its queue, layout table, walker, expansion and driver, each
//!    in its own module);
//! 5. `verify`, `show`, `svg`: the replay checker and the drawings;
//! 6. `range`, `run`: `--level` and the binary's loop.
//!
//! # Limits
//! Bad input never panics: a malformed level gets a located error and the run goes on with
//! the next one (`docs/errors.md`). `--max-cells` ([`RunOptions::max_cells`], default 2^16)
//! bounds rows x longest row of a level while it is read; `--memory-mib`
//! ([`Options::memory_mib`]) bounds what one search stores, counted as it grows (the
//! answer is then `unknown: memory`); `--time-limit` ([`Options::time_limit`]) bounds its
//! time (`unknown: time`).

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]
// The `internals` feature makes the methods public one by one for the workspace's tests
// (hidden, not part of the API); their docs name the private items they are built from.
#![cfg_attr(feature = "internals", allow(rustdoc::private_intra_doc_links))]

mod board;
mod corral;
mod finder;
mod frozen;
#[cfg(feature = "generate")]
#[doc(hidden)]
pub mod generate;
mod groups;
mod matching;
mod parse;
mod pattern;
mod range;
mod region;
mod run;
mod search;
mod show;
mod solution;
mod svg;
mod verify;

pub use grid_core::ParseError;
pub use parse::{Collection, DEFAULT_MAX_CELLS, Level, LevelError, MAX_FLOOR, MAX_SIDE, MAX_TITLE};
pub use range::{LevelRange, LevelRangeError};
pub use run::{RunOptions, run};
pub use solution::{Bounds, Interrupt, Metric, Options, Solution, SolveError};
pub use verify::{Counts, VerifyError, verify};

/// A solution of `level` for `options.metric`: proven optimal on both keys when
/// [`Solution::is_proven`]; otherwise (the exact search reached a limit) a legal solution
/// found by the finder first, with [`Solution::lower_bound`] the proven lower bound of the
/// metric's first key.
///
/// ```
/// let level: sokoban::Level = "#####\n#@$.#\n#####\n".parse()?;
/// let answer = sokoban::solve(&level, &sokoban::Options::default())?;
/// match answer {
///     Some(s) => assert_eq!((s.pushes(), s.moves(), s.lurd(), s.is_proven()), (1, 1, "R", true)),
///     None => unreachable!("proven unsolvable"),
/// }
/// let stuck: sokoban::Level = "######\n#@  .#\n#   $#\n######\n".parse()?;
/// assert_eq!(sokoban::solve(&stuck, &sokoban::Options::default())?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// `Ok(None)`: the level is proven unsolvable.
///
/// # Errors
/// [`SolveError::Time`] or [`SolveError::Memory`] when a limit of `options` stopped the
/// search first, [`SolveError::Interrupted`] when its [`Options::interrupt`] did, with no
/// solution found.
///
/// # Complexity
/// Exponential in the number of boxes in the worst case (the problem is PSPACE-complete);
/// see the search's design notes in `docs/sokoban.md`.
pub fn solve(level: &Level, options: &Options) -> Result<Option<Solution>, SolveError> {
    // Boxes frozen from the start never move in any solution: walls for every table.
    match frozen::walled(level) {
        frozen::Frozen::Nothing => finder::anytime::solve(level, options),
        frozen::Frozen::OffGoal if options.interrupted() => Err(SolveError::Interrupted),
        frozen::Frozen::OffGoal => Ok(None),
        frozen::Frozen::Walled(inner) => finder::anytime::solve(&inner, options),
    }
}

/// The search's internals, for the workspace's own tests and measurements only (feature
/// `internals`): not part of the API.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::finder::{Direction, Guide, Halt, Options as FinderOptions, find};
    pub use crate::frozen::{Frozen, walled};
    pub use crate::groups::GroupDeadlocks;
    pub use crate::search::{
        BallPlan, Pruning, PushProof, PushStats, Stats, fewest_pushes, pushes_bounds,
        solve_counting, solve_counting_by, solve_counting_planned,
    };
}

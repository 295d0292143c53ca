//! The finder: any legal solution of a hard level, fast, with no claim of optimality.
//!
//! Why a second search beside the exact one ([`crate::search`]): proving an optimum
//! needs every state below the optimal cost, which on the classic hard collections
//! (XSokoban) is more than any memory holds; a solution is usually found among far
//! fewer states by going straight for the goals. The exact search then has an
//! incumbent to report when it runs out of time.
//!
//! - `anytime`: the driver of [`crate::solve`]: the finder, then the exact search;
//! - `greedy`: best-first search over push states, the player normalised to its region,
//!   with the matching bound as the guide and the exact deadlock prunings (and, switched
//!   on, FESS's macro moves: every place one box reaches as one edge);
//! - `backward`: pulls from the solved layout towards the start;
//! - `packing`: the order in which the goals are filled, found backwards;
//! - `polish`: an unproven solution improved in the time left, by the exact search from
//!   states along it;
//! - `corral_deadlock`: pushes that shut a corral whose boxes can never all reach goals;
//! - `advisor`: FESS's packing advisor, a box sent to the next goal of the packing order
//!   as one move;
//! - `connectivity`: FESS's connectivity advisor, a box moved to where it leaves the
//!   fewest regions as one move;
//! - `hotspots`: FESS's hotspots advisor, the box that blocks the most others' ways to
//!   the goals moved to where it blocks the fewest as one move;
//! - `goal_room`: a box at a goal room's door sent to its goal as one move;
//! - `box_path`: the pushes that take one box from square to square;
//! - `ceiling`: the finder under the ceiling of the fewest pushes' bound, run beside
//!   that search;
//! - `cuts`: where one square cuts the floor (articulation points);
//! - `store`: the states seen and the memory budget;
//! - `walk`: the player's walks between pushes;
//! - `replay`: a found state read back as LURD.
//!
//! Methods never read the clock: the caller passes a stop check, called every few hundred
//! expansions and, within an expansion, every few million squares walked ([`Meter`]: on a
//! large floor with many boxes one expansion walks the floor thousands of times), and a
//! memory bound in bytes.

mod advisor;
pub(crate) mod anytime;
mod backward;
mod box_path;
mod ceiling;
mod connectivity;
mod corral_deadlock;
mod cuts;
mod goal_room;
mod greedy;
mod hotspots;
mod packing;
mod polish;
mod replay;
mod store;
mod walk;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod meter_tests {
    use super::{Halt, Meter};

    /// The stop check is called once the squares walked pass [`Meter::LOOK_EVERY`], and
    /// its answer is the meter's.
    #[test]
    fn the_stop_check_comes_after_so_many_squares() {
        let mut meter = Meter::default();
        let mut looks = 0;
        let mut stop = || {
            looks += 1;
            looks == 2
        };
        let walk = 60_000;
        let walks = Meter::LOOK_EVERY.div_ceil(walk as u64);
        for _ in 0..walks - 1 {
            assert_eq!(meter.walked(walk, &mut stop), Ok(()));
        }
        assert_eq!(meter.walked(walk, &mut stop), Ok(()));
        for _ in 0..walks - 1 {
            assert_eq!(meter.walked(walk, &mut stop), Ok(()));
        }
        assert_eq!(meter.walked(walk, &mut stop), Err(Halt::Stopped));
        assert_eq!(looks, 2);
    }
}

use crate::parse::Level;
use greedy::Outcome;

/// Why the finder returned without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The caller's stop check said so.
    Stopped,
    /// The memory bound was reached.
    Memory,
}

/// The squares a search walked since its last call of the stop check: within one
/// expansion, the check is called again once they pass [`Meter::LOOK_EVERY`].
///
/// Why not by expansions alone: an expansion walks the floor once per child (the player's
/// region after the push), and a child can be any place a box reaches, so on a floor of
/// 60,000 squares with 200 boxes one expansion took minutes; counted by squares, the
/// check comes every few milliseconds on any level.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    walked: u64,
}

impl Meter {
    /// Squares walked between two calls of the stop check: a few milliseconds of walks.
    pub(crate) const LOOK_EVERY: u64 = 1 << 22;

    /// Counts a walk of `squares`; calls `stop` when the count passes
    /// [`Meter::LOOK_EVERY`].
    ///
    /// # Errors
    /// [`Halt::Stopped`] when `stop` says so.
    pub(crate) fn walked(
        &mut self,
        squares: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<(), Halt> {
        self.walked += squares as u64;
        if self.walked >= Self::LOOK_EVERY {
            self.walked = 0;
            if stop() {
                return Err(Halt::Stopped);
            }
        }
        Ok(())
    }
}

/// How the finder searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The bytes its tables may take.
    pub memory_bytes: u64,
    /// The weight of the pushes so far in a state's priority (0: greedy).
    pub g_weight: u32,
    /// The weight of the guide in a state's priority.
    pub h_weight: u32,
    /// What guides the search to the goals.
    pub guide: Guide,
    /// Fill the goals in the packing order first (`packing`).
    pub packing: bool,
    /// Fewer player regions first, after the packing.
    pub regions: bool,
    /// The packing order empties backwards, of the goals whose box can be pulled, the
    /// nearest whose box goes back to a square where a box starts, the goals still filled
    /// standing still (`packing`); else the nearest whose box moves at all.
    pub outward_packing: bool,
    /// Push only the boxes of a PI-corral when a state has one (`corral`). Off by
    /// default: measured on the finder alone (CPU seconds a level), it solves the same
    /// levels with and without (XSokoban 6 of 90 at 3 s, Microban 151 of 155 at 0.3 s,
    /// Microban II 124 and 125 of 135 at 1 s, Sasquatch 10 of 50 at 1 s).
    pub corrals: bool,
    /// Take the states by FESS's cycling over the cells of the feature space (packing
    /// and regions, as switched on), one state per cell in turn, rather than by the
    /// features first (`greedy`).
    pub cycling: bool,
    /// Prune pushes that shut a deadlocked corral (`corral_deadlock`).
    pub corral_deadlocks: bool,
    /// Send a box at a goal room's entrance to its goal in one move, and push no box in
    /// a room whose boxes all stand on goals (`goal_room`).
    pub goal_rooms: bool,
    /// FESS's packing advisor: besides the pushes, a state gets the moves that take a
    /// box to the next goal of the packing order in one edge (`advisor`), whether or
    /// not the packing is a feature.
    pub advisor: bool,
    /// FESS's move weights: the pushes so far in a state's priority count an advisor's
    /// move as 0 and any other move (a push, a goal room's macro) as 1, so that within
    /// a cell the states reached by the fewest unadvised moves come first.
    pub move_weights: bool,
    /// FESS's connectivity advisor: besides the pushes, a state gets the move of one box
    /// that most lowers the regions the boxes cut the floor into (`connectivity`).
    pub connectivity: bool,
    /// FESS's hotspots advisor: besides the pushes, a state gets the move of the box
    /// that blocks the most other boxes' ways to the goals to where it blocks the
    /// fewest (`hotspots`).
    pub hotspots: bool,
    /// FESS's macro moves: besides the pushes, a state gets every move of one box, the
    /// other boxes standing still, to a square it reaches in two pushes or more that is
    /// not dead, as one edge (with `move_weights`, one unadvised move).
    pub box_moves: bool,
    /// Which way the search goes: pushes from the start (`greedy`, with every switch
    /// above) or pulls from the solved layout (`backward`, which reads only the memory
    /// and the weights).
    pub direction: Direction,
    /// The most pushes a solution may have (forward only): a state whose pushes so far
    /// plus its matching bound pass it is dropped, and a state reached again by fewer
    /// pushes is taken again from there. With a ceiling the bound proves (the fewest
    /// pushes' search has raised its bound to it), a solution found proves the fewest
    /// pushes. Running out of states says nothing about solvability: without goal-room
    /// macros it means no solution within the ceiling, with them not even that.
    pub ceiling: Option<u32>,
}

/// Which way the finder searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Pushes from the start towards the goals.
    Forward,
    /// Pulls from the goals towards the start (`backward`).
    Backward,
}

/// The estimate of the pushes left that guides the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guide {
    /// The minimum-cost matching of boxes to goals, O(k^3) per state taken.
    Matching,
    /// The sum of each box's push distance to its nearest goal, O(1) per push.
    Nearest,
}

impl Default for Options {
    /// Greedy best-first, 1 GiB.
    fn default() -> Self {
        Options {
            memory_bytes: 1 << 30,
            g_weight: 0,
            h_weight: 1,
            guide: Guide::Matching,
            packing: true,
            regions: true,
            outward_packing: true,
            corrals: false,
            cycling: false,
            corral_deadlocks: false,
            goal_rooms: false,
            advisor: false,
            move_weights: false,
            connectivity: false,
            hotspots: false,
            box_moves: false,
            direction: Direction::Forward,
            ceiling: None,
        }
    }
}

/// A legal solution of `level` as LURD (`Some("")` when it starts solved), `None` when it
/// is proven unsolvable (the search ran out of states: every pruning it makes is exact
/// for solvability).
///
/// # Errors
/// [`Halt::Stopped`] when `stop` returned `true`, [`Halt::Memory`] at the memory bound.
///
/// With goal-room macros, which drop pushes, a search that runs out of states having
/// dropped any is run again without them before the answer is `None`. Under a
/// [`Options::ceiling`], `None` means only that no solution within it was found (not
/// run again).
///
/// # Complexity
/// Exponential in the boxes in the worst case; see `greedy`.
pub fn find(
    level: &Level,
    options: &Options,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Option<String>, Halt> {
    let outcome = match options.direction {
        Direction::Forward => greedy::search(level, options, stop)?,
        Direction::Backward => backward::search(level, options, stop)?,
    };
    match outcome {
        Outcome::Solved(lurd) => Ok(Some(lurd)),
        // Under a ceiling, no solution within it: nothing about solvability.
        Outcome::Exhausted { .. } if options.ceiling.is_some() => Ok(None),
        Outcome::Exhausted { complete: true } => Ok(None),
        Outcome::Exhausted { complete: false } => {
            let every_push = Options {
                goal_rooms: false,
                ..options.clone()
            };
            match greedy::search(level, &every_push, stop)? {
                Outcome::Solved(lurd) => Ok(Some(lurd)),
                Outcome::Exhausted { .. } => Ok(None),
            }
        }
    }
}

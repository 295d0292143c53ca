//! Goal-room macros (Junghanns and Schaeffer, "Sokoban: Enhancing general single-agent
//! search methods using domain knowledge", AIJ 2001): where goals lie in a room entered
//! by one square, a box pushed in through that square goes straight to the goal the
//! packing order gives it, as one edge of the search, and no other push inside the room
//! is made while every box in it stands on a goal.
//!
//! Why: in XSokoban most goals lie in such a room, and a search that moves boxes one
//! push at a time inside it spends its states on the ways of arranging the room (the
//! goals at the door filled first wall in the goals behind them). With the macro, each
//! box that reaches the door is one step from its goal, and the room's state is only
//! which goals are filled, in the order that keeps the rest reachable.
//!
//! A *room* is a part of the floor that one square, its *entrance*, cuts from the rest
//! (an articulation point of the floor, from [`Blocks`]) holding at least one goal and
//! at most [`ROOM_SQUARES_PER_GOAL`] squares per goal (and 4 more); of rooms that
//! overlap, the smallest is taken. A room is *clean* in a state when every box in it stands on a goal; only
//! then do the macros apply. The goal a box is sent to is the first empty goal of the
//! room, in the packing order ([`super::packing`]), the box can be pushed to from the
//! door, the room's other boxes standing still: the fewest pushes that take it there
//! ([`super::box_path`]). The macro of a room depends only on its filled goals and the
//! side the player pushes from, so it is computed once per pair and kept.
//!
//! The macros drop pushes, so on their own they could make a solvable level look
//! unsolvable; the search says when it dropped any, and the finder then searches again
//! without them before it answers "unsolvable" ([`super::find`]).
//!
//! # Complexity
//! Finding the rooms: O(squares) for the blocks, then one walk O(squares) per
//! articulation point. Per state: O(k) to tell the clean rooms. A macro, once per room,
//! goals filled and side: O(room^2) ([`super::box_path`]); O(1) after.

use std::collections::HashMap;

use grid_core::{Blocks, CellId, Dir, Grid};

use super::box_path::PushTree;
use super::walk::Walker;
use crate::board::Board;
use crate::parse::Level;

/// "In no room".
const NO_ROOM: u16 = u16::MAX;

/// The most goals a room may hold: its filled goals are the bits of a `u64`.
const MAX_GOALS: usize = 64;

/// A room holds at most this many squares per goal, and 4 more: a part of the floor
/// with fewer goals is a stretch of the level, not a goal room (XSokoban 78's left 40
/// squares with 8 goals, where the macros lose the level).
const ROOM_SQUARES_PER_GOAL: usize = 2;

/// The most squares a level may have for its rooms to be looked for (one walk per
/// articulation point).
const MAX_SQUARES: usize = 4096;

/// One goal room.
#[derive(Debug)]
struct Room {
    entrance: CellId,
    /// Its squares, the entrance not among them.
    squares: Vec<CellId>,
    /// Its goals in the packing order (the first fills first).
    goals: Vec<CellId>,
    /// Per (goals filled, direction of the push through the entrance): the macro.
    macros: HashMap<(u64, Dir), Option<Macro>>,
}

/// A box sent from a room's entrance to its goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Macro {
    /// Where the box ends.
    pub(super) goal: CellId,
    /// Where the player ends: the square the box left by its last push.
    pub(super) standing: CellId,
    /// The pushes it takes.
    pub(super) pushes: u32,
}

/// The goal rooms of a level, the macros found so far, and the state being expanded.
#[derive(Debug)]
pub(super) struct GoalRooms {
    /// Per square: its room, or [`NO_ROOM`].
    room_of: Vec<u16>,
    /// Per square: the bit of its goal in its room's filled goals.
    goal_bit: Vec<u8>,
    rooms: Vec<Room>,
    /// Per room, in the state looked at last: its filled goals, or [`DIRTY`].
    filled: Vec<u64>,
    tree: PushTree,
    walker: Walker,
}

/// A room with a box off its goals.
const DIRTY: u64 = u64::MAX;

impl GoalRooms {
    /// The goal rooms of `level`; `rank` is the packing order's rank of each goal square.
    pub(super) fn new(level: &Level, rank: &[u32]) -> Self {
        let grid = level.grid();
        let n = grid.cell_count();
        let mut rooms = GoalRooms {
            room_of: vec![NO_ROOM; n],
            goal_bit: vec![0; n],
            rooms: Vec::new(),
            filled: Vec::new(),
            tree: PushTree::new(n),
            walker: Walker::new(n),
        };
        if n > MAX_SQUARES {
            return rooms;
        }
        let mut is_goal = vec![false; n];
        for g in level.goals() {
            is_goal[g.index()] = true;
        }
        let blocks = Blocks::new(grid);
        // Every part of the floor an articulation point cuts off, holding goals.
        let mut candidates: Vec<(CellId, Vec<CellId>)> = Vec::new();
        let mut blocked = vec![false; n];
        for entrance in grid.cells() {
            let sides: Vec<Dir> = grid.neighbours(entrance).map(|(d, _)| d).collect();
            for (i, &side) in sides.iter().enumerate() {
                // One walk per part: a side joined to an earlier one is the same part.
                if sides[..i]
                    .iter()
                    .any(|&other| blocks.connected_around(entrance, other, side))
                {
                    continue;
                }
                if sides
                    .iter()
                    .all(|&other| other == side || blocks.connected_around(entrance, other, side))
                {
                    continue;
                }
                let Some(start) = grid.neighbour(entrance, side) else {
                    continue;
                };
                blocked[entrance.index()] = true;
                rooms.walker.run(grid, &blocked, start);
                blocked[entrance.index()] = false;
                let part = rooms.walker.order();
                let goals = part.iter().filter(|c| is_goal[c.index()]).count();
                if goals > 0
                    && goals <= MAX_GOALS
                    && part.len() <= ROOM_SQUARES_PER_GOAL * goals + 4
                {
                    candidates.push((entrance, part.to_vec()));
                }
            }
        }
        candidates.sort_by_key(|(entrance, part)| (part.len(), *entrance));
        let mut taken = vec![false; n];
        for (entrance, squares) in candidates {
            if rooms.rooms.len() >= usize::from(NO_ROOM)
                || taken[entrance.index()]
                || squares.iter().any(|c| taken[c.index()])
                || rooms
                    .rooms
                    .iter()
                    .any(|r| squares.binary_search(&r.entrance).is_ok())
            {
                continue;
            }
            let id = rooms.rooms.len() as u16;
            let mut squares = squares;
            squares.sort_unstable();
            for c in &squares {
                taken[c.index()] = true;
                rooms.room_of[c.index()] = id;
            }
            taken[entrance.index()] = true;
            let mut goals: Vec<CellId> = squares
                .iter()
                .copied()
                .filter(|c| is_goal[c.index()])
                .collect();
            goals.sort_by_key(|g| (rank[g.index()], *g));
            for (bit, g) in goals.iter().enumerate() {
                rooms.goal_bit[g.index()] = bit as u8;
            }
            rooms.rooms.push(Room {
                entrance,
                squares,
                goals,
                macros: HashMap::new(),
            });
        }
        rooms.filled = vec![0; rooms.rooms.len()];
        rooms
    }

    /// Whether the level has any goal room.
    pub(super) fn any(&self) -> bool {
        !self.rooms.is_empty()
    }

    /// Looks at a state: which rooms are clean, and their filled goals.
    ///
    /// # Complexity
    /// O(rooms + k).
    pub(super) fn look(&mut self, board: &Board<'_>, boxes: &[u16]) {
        self.filled.fill(0);
        for &b in boxes {
            let room = self.room_of[usize::from(b)];
            if room == NO_ROOM {
                continue;
            }
            let filled = &mut self.filled[usize::from(room)];
            if board.is_goal(usize::from(b)) {
                *filled |= 1 << self.goal_bit[usize::from(b)];
            } else {
                *filled = DIRTY;
            }
        }
    }

    /// Whether `cell` lies in a clean room (of the state looked at last): its box stays.
    pub(super) fn in_clean_room(&self, cell: CellId) -> bool {
        let room = self.room_of[cell.index()];
        room != NO_ROOM && self.filled[usize::from(room)] != DIRTY
    }

    /// The clean room a box on `cell` pushed in `dir` enters through its entrance.
    pub(super) fn entered(&self, grid: &Grid, cell: CellId, dir: Dir) -> Option<usize> {
        let to = grid.neighbour(cell, dir)?;
        let room = usize::from(self.room_of[to.index()]);
        (room != usize::from(NO_ROOM)
            && self.rooms[room].entrance == cell
            && self.filled[room] != DIRTY)
            .then_some(room)
    }

    /// The macro of a box on the entrance of `room` pushed in `dir` into it, in the state
    /// looked at last (the room clean), or `None` when no empty goal can be reached.
    pub(super) fn send(&mut self, grid: &Grid, room: usize, dir: Dir) -> Option<Macro> {
        let filled = self.filled[room];
        let key = (filled, dir);
        if let Some(&known) = self.rooms[room].macros.get(&key) {
            return known;
        }
        let found = self.find_macro(grid, room, filled, dir);
        self.rooms[room].macros.insert(key, found);
        found
    }

    fn find_macro(&mut self, grid: &Grid, room: usize, filled: u64, dir: Dir) -> Option<Macro> {
        let r = &self.rooms[room];
        let behind = grid.neighbour(r.entrance, dir.opposite())?;
        // Only the room, its entrance and the square the player pushes from are open:
        // the rest of the floor meets the room only at the entrance.
        let mut blocked = vec![true; grid.cell_count()];
        for c in &r.squares {
            blocked[c.index()] = false;
        }
        for (bit, g) in r.goals.iter().enumerate() {
            if filled & (1 << bit) != 0 {
                blocked[g.index()] = true;
            }
        }
        blocked[behind.index()] = false;
        self.tree.run(grid, &blocked, behind, r.entrance);
        let goal = r
            .goals
            .iter()
            .enumerate()
            .find(|&(bit, &g)| filled & (1 << bit) == 0 && self.tree.reached(g))?
            .1;
        let mut pushes = Vec::new();
        self.tree.pushes_to(grid, *goal, &mut pushes);
        let &(standing, _) = pushes.last()?;
        // The first push must go into the room in `dir`.
        if pushes.first().map(|&(_, d)| d) != Some(dir) {
            return None;
        }
        Some(Macro {
            goal: *goal,
            standing,
            pushes: pushes.len() as u32,
        })
    }
}

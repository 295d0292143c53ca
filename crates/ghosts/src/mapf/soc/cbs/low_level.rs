//! The low-level search of conflict-based search: one agent's least path under a node's
//! constraints ([`Group::plan`]), a space-time A* whose ties go to the path meeting the
//! fewest other paths, of the group and then of the other groups ([`Avoid`], [`Outside`]).
//!
//! # Complexity
//! O(N log N) for the N (cell, time) states reached, at most the cells times the agent's
//! deadline.

use std::collections::BinaryHeap;
use std::rc::Rc;

use grid_core::CellId;

use super::super::int_hash::{IntMap, IntSet};
use super::super::pair_cost::Rules;
use super::{Constraint, Group, Limits, STATE_BYTES};

/// States whose buffers ([`Scratch`]) the low-level searches keep from one to the next.
const KEPT_STATES: usize = 1 << 20;

/// The buffers of a group's low-level searches, kept from one search to the next: on
/// brc202d random-1 K = 100 their allocation and growth and the hashing of three-field
/// keys were a fifth of the search over all agents' time.
#[derive(Default)]
pub(super) struct Scratch {
    /// (cell, time, parent, arrived) per state reached.
    states: Vec<(u32, u32, u32, bool)>,
    /// The states reached, by [`seen_key`].
    seen: IntSet<u64>,
    /// The open states, by [`open_key`].
    heap: BinaryHeap<u128>,
}

/// A state reached at `cell` at `time` (below 2^31), arriving on its goal or not, as one
/// word.
fn seen_key(cell: u32, time: u32, arrives: bool) -> u64 {
    (u64::from(cell) << 32) | (u64::from(time) << 1) | u64::from(arrives)
}

/// An open state as one integer, greater for the state to take first: least f, then
/// fewest conflicts, then deepest (greatest g), then the earliest reached (least index;
/// indices are distinct, so the order is total).
fn open_key(f: u32, conflicts: u32, g: u32, index: u32) -> u128 {
    (u128::from(!f) << 96)
        | (u128::from(!conflicts) << 64)
        | (u128::from(g) << 32)
        | u128::from(!index)
}

/// The state index and the conflicts of an [`open_key`].
fn open_index(key: u128) -> (u32, u32) {
    (index_of(key), !((key >> 64) as u32))
}

/// The state index of an [`open_key`].
fn index_of(key: u128) -> u32 {
    !(key as u32)
}

/// `constraints` on an agent whose goal is `goal`, compiled (`None`: one keeps it off its
/// goal for good, so it never arrives, or they forbid its goal at or after the time by
/// which it must have arrived for good).
pub(super) fn rules(constraints: &[Constraint], goal: u32) -> Option<Rules> {
    let mut rules = Rules {
        after: -1,
        ..Rules::default()
    };
    for &c in constraints {
        match c {
            Constraint::Vertex { cell, time } => {
                rules.vertex.insert((cell, time));
                if cell == goal {
                    rules.after = rules.after.max(i64::from(time));
                }
            }
            Constraint::Edge { from, to, time } => {
                rules.edge.insert((from, to, time));
            }
            Constraint::From { cell, time } => {
                if cell == goal {
                    return None;
                }
                let e = rules.from.entry(cell).or_insert(time);
                *e = (*e).min(time);
            }
            Constraint::Longer { time } => rules.after = rules.after.max(i64::from(time)),
            Constraint::Before { cell, time } => {
                let e = rules.until.entry(cell).or_insert(time);
                *e = (*e).max(time);
                if cell == goal {
                    rules.after = rules.after.max(i64::from(time));
                }
            }
            // Goals are distinct: the agent whose goal `cell` is arrives by `time`, every
            // other keeps off `cell` from `time`.
            Constraint::Home { cell, time } if cell == goal => {
                rules.by = Some(rules.by.map_or(time, |by| by.min(time)));
            }
            Constraint::Home { cell, time } => {
                let e = rules.from.entry(cell).or_insert(time);
                *e = (*e).min(time);
            }
        }
    }
    // Forbidden on its goal at or after the time it must be there for good.
    if rules.by.is_some_and(|by| i64::from(by) <= rules.after) {
        return None;
    }
    Some(rules)
}

/// What one low-level search found.
pub(super) enum Planned {
    Path(Vec<u32>),
    /// No path within the limit.
    Over,
    GaveUp,
}

/// Where the agents of a node are (the conflict avoidance table): the low-level search
/// prefers, among paths of equal cost, the one that meets the others least. Built once
/// per node for all its agents (a child's own agent is taken off as it is counted, by
/// [`Avoid`]): on 100 agents of 400 steps, one table per child was a tenth of the search
/// over all agents' time.
pub(super) struct Occupancy {
    /// (cell << 32 | time) -> the agents there then.
    on: IntMap<u64, u32>,
    /// Goal cell -> the time its agent arrived for good.
    home: IntMap<u32, u32>,
}

impl Occupancy {
    /// The table of `paths`, whose agents' goals are `goals`.
    pub(super) fn new(paths: &[Rc<Vec<u32>>], goals: &[u32]) -> Self {
        let cells = paths.iter().map(|p| p.len()).sum();
        let on = IntMap::with_capacity_and_hasher(cells, Default::default());
        let home = IntMap::with_capacity_and_hasher(paths.len(), Default::default());
        let mut occupancy = Occupancy { on, home };
        for (j, path) in paths.iter().enumerate() {
            occupancy.add(path, goals[j]);
        }
        occupancy
    }

    /// Adds `path`, of the agent whose goal is `goal`.
    pub(super) fn add(&mut self, path: &[u32], goal: u32) {
        for (t, &v) in path.iter().enumerate() {
            *self.on.entry((u64::from(v) << 32) | t as u64).or_insert(0) += 1;
        }
        self.home.insert(goal, path.len() as u32 - 1);
    }
}

/// The plans of agents outside a group ([`super::least_extra`]), which its low-level searches
/// avoid where paths are otherwise equal: conflict-based search on a group of independence
/// detection ([`super::super::core::Groups`]) then tends to a plan that collides with no other
/// group's, which spares a merge (Standley, "Finding optimal solutions to cooperative
/// pathfinding problems", AAAI 2010: the conflict avoidance table).
pub struct Outside(Occupancy);

impl Outside {
    /// No plans outside.
    pub fn none() -> Self {
        Outside(Occupancy::new(&[], &[]))
    }

    /// The `plans` outside, each an agent's path (it stays on its last cell, its goal,
    /// after the end) and its goal.
    ///
    /// # Complexity
    /// O(total length of the paths).
    pub fn of<'p>(plans: impl IntoIterator<Item = (&'p [u32], u32)>) -> Self {
        let mut occupancy = Occupancy::new(&[], &[]);
        for (path, goal) in plans {
            occupancy.add(path, goal);
        }
        Outside(occupancy)
    }

    /// Bytes the table takes: hash tables of (key, value) pairs of 12 and 8 bytes and a
    /// control byte each, by capacity.
    pub fn bytes(&self) -> u64 {
        let Occupancy { on, home } = &self.0;
        on.capacity() as u64 * 13 + home.capacity() as u64 * 9
    }
}

/// Bytes an [`Outside`] of paths of `cells` cells in all takes at most: a table of
/// capacity at most twice its entries, 13 bytes each.
pub fn outside_bytes(cells: u64) -> u64 {
    cells.saturating_mul(2 * 13)
}

/// The conflicts a path counts with the plans outside the group, in the low bits of its
/// count (the group's own in the high bits: those come first, so the order of two counts
/// is the order of the group's own, then of the outside ones).
const OUTSIDE_BITS: u32 = 12;

/// The most conflicts with the plans outside a count holds: more count as this many.
const OUTSIDE_MOST: u32 = (1 << OUTSIDE_BITS) - 1;

/// The count of a path, `path`, with one more step's, `step` (both as [`Avoid::count`]
/// packs them): the group's own added (saturating), the outside ones added up to
/// [`OUTSIDE_MOST`], so that they never spill into the group's own.
fn add_conflicts(path: u32, step: u32) -> u32 {
    let inside = (path >> OUTSIDE_BITS).saturating_add(step >> OUTSIDE_BITS);
    let outside = ((path & OUTSIDE_MOST) + (step & OUTSIDE_MOST)).min(OUTSIDE_MOST);
    (inside.min(u32::MAX >> OUTSIDE_BITS) << OUTSIDE_BITS) | outside
}

/// The others of one agent in an [`Occupancy`]: the table less the agent's own path, then
/// the plans outside its group.
pub(super) struct Avoid<'o> {
    pub(super) cat: &'o Occupancy,
    /// The agent's path in the table (empty: not in it).
    pub(super) own: &'o [u32],
    pub(super) outside: &'o Outside,
}

impl Avoid<'_> {
    /// The others met on `cell` at `time` by the agent whose goal is `goal`: those of its
    /// group above [`OUTSIDE_BITS`], and below whether it meets a plan outside.
    pub(super) fn count(&self, cell: u32, time: u32, goal: u32) -> u32 {
        let on = self
            .cat
            .on
            .get(&((u64::from(cell) << 32) | u64::from(time)))
            .copied()
            .unwrap_or(0);
        let mine = u32::from(self.own.get(time as usize) == Some(&cell));
        // Goals are distinct: the arrival on the agent's own goal is its own.
        let home = cell != goal && self.cat.home.get(&cell).is_some_and(|&s| time > s);
        let inside = on - mine + u32::from(home);
        let outside = &self.outside.0;
        if outside.on.is_empty() {
            return inside << OUTSIDE_BITS;
        }
        let met = outside
            .on
            .get(&((u64::from(cell) << 32) | u64::from(time)))
            .copied()
            .unwrap_or(0);
        let home = outside.home.get(&cell).is_some_and(|&s| time > s);
        (inside << OUTSIDE_BITS) | (met + u32::from(home)).min(1)
    }
}

impl Group<'_, '_> {
    /// The least-cost path of agent `i` (index in the group) that obeys `constraints`
    /// and costs at most `limit`, fewest conflicts with `cat` among those; the space-time
    /// A* of the module documentation.
    ///
    /// # Complexity
    /// O(N log N) for the N states reached.
    pub(super) fn plan(
        &self,
        i: usize,
        constraints: &[Constraint],
        limit: u32,
        avoid: &Avoid<'_>,
        limits: &Limits,
        used: u64,
    ) -> Planned {
        let Some(left) = limits.searches.get().checked_sub(1) else {
            return Planned::GaveUp;
        };
        limits.searches.set(left);
        let a = self.agents[i];
        let goal = self.goals[i];
        let instance = self.instance;
        let grid = instance.grid;
        let Some(rules) = rules(constraints, goal) else {
            return Planned::Over;
        };
        // A path that arrives for good by `by` costs at most `by`, and each of its states
        // has f at most that cost (h never passes what is left): `by` as the limit keeps
        // every such path.
        let limit = rules.by.map_or(limit, |by| limit.min(by));
        let after = rules.after;
        let forbidden = |v: u32, t: u32| rules.forbids(v, t);
        let h = |v: u32, t: u32| -> u32 {
            let d = instance.distance(a, CellId::new(v as usize));
            let wait = (after + 1 - i64::from(t)).max(0) as u32;
            d.max(wait)
        };
        let start = instance.starts[a].index() as u32;
        if forbidden(start, 0) {
            return Planned::Over;
        }
        // States: (cell, time, parent, arrived); a state on the goal remembers whether it
        // just arrived (only an arrival after `after` ends the search). The buffers are the
        // group's, kept from one search to the next.
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { states, seen, heap } = &mut *scratch;
        states.clear();
        seen.clear();
        heap.clear();
        states.push((start, 0, u32::MAX, true));
        let room = limits.bytes.saturating_sub(used) / STATE_BYTES;
        if h(start, 0) <= limit {
            seen.insert(seen_key(start, 0, true));
            heap.push(open_key(h(start, 0), 0, 0, 0));
        }
        let planned = loop {
            let Some(key) = heap.pop() else {
                break Planned::Over;
            };
            let (index, conflicts) = open_index(key);
            let (v, t, _, arrived) = states[index as usize];
            if v == goal && arrived && i64::from(t) > after {
                let mut path = vec![0; t as usize + 1];
                let mut at = index;
                while at != u32::MAX {
                    let (cell, time, parent, _) = states[at as usize];
                    path[time as usize] = cell;
                    at = parent;
                }
                break Planned::Path(path);
            }
            if states.len() as u64 > room {
                break Planned::GaveUp;
            }
            // One search may reach millions of states (a maze, an allowance of thousands of
            // steps): the deadline is asked every 2^16 of them.
            if states.len() % (1 << 16) == 0 && limits.deadline.passed() {
                break Planned::GaveUp;
            }
            let next = t + 1;
            if next >= 1 << 31 {
                // Past the times [`seen_key`] packs (and any memory's worth of states).
                break Planned::GaveUp;
            }
            let moves = std::iter::once(v).chain(
                grid.neighbours(CellId::new(v as usize))
                    .map(|(_, c)| c.index() as u32),
            );
            for u in moves {
                if forbidden(u, next) || rules.forbids_move(v, u, next) {
                    continue;
                }
                let f = next + h(u, next);
                if f > limit {
                    continue;
                }
                let arrives = u == goal && v != goal;
                if !seen.insert(seen_key(u, next, arrives)) {
                    continue;
                }
                let index = states.len() as u32;
                states.push((u, next, index_of(key), arrives));
                let conflicts = add_conflicts(conflicts, avoid.count(u, next, goal));
                heap.push(open_key(f, conflicts, next, index));
            }
        };
        // A search that reached many states does not keep its buffers' memory past its end.
        if states.capacity() > KEPT_STATES {
            *scratch = Scratch::default();
        }
        planned
    }
}

#[cfg(test)]
mod tests {
    use super::{OUTSIDE_BITS, OUTSIDE_MOST, add_conflicts};

    /// A path's conflicts with plans outside its group, however many, never outweigh one
    /// conflict within the group: the outside count stops at its most.
    #[test]
    fn conflicts_outside_never_spill_into_the_groups_own() {
        let one_inside = 1 << OUTSIDE_BITS;
        let mut many_outside = 0;
        for _ in 0..3 * OUTSIDE_MOST {
            many_outside = add_conflicts(many_outside, 1);
        }
        assert_eq!(many_outside, OUTSIDE_MOST);
        assert!(many_outside < one_inside);
        assert_eq!(
            add_conflicts(one_inside | 3, one_inside | 1),
            (2 << OUTSIDE_BITS) | 4
        );
        assert_eq!(add_conflicts(u32::MAX, one_inside), u32::MAX);
    }
}

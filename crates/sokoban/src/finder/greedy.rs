//! Best-first search over push states with the player normalised to its region: the
//! finder's search.
//!
//! A state is the sorted box squares and the least square of the player's region (every
//! square the player reaches without pushing gives the same pushes next, so a state
//! stands for all of them). One edge is one push. States are taken by the least
//! `g_weight x pushes so far + h_weight x bound`, the bound being the minimum-cost
//! matching of boxes to goals on lone-box push distances ([`crate::matching`]); with
//! `g_weight` 0 this is greedy best-first search, which goes straight for the goals.
//! Within one priority the last state queued comes first (depth first among equals).
//!
//! The matching costs O(k^3), and most states a greedy search makes are never taken, so
//! a child is queued on an estimate (its parent's bound, changed by the pushed box's
//! change of distance to its nearest goal) and matched when taken: queued again at the
//! matched priority when that is higher, dropped when the matching is impossible.
//!
//! Features of FESS (Shoham and Schaeffer, IEEE CoG 2020), each switchable, come first in
//! the priority when on: the goals not yet filled in the packing order
//! ([`super::packing`]), then the number of regions the boxes cut the floor into (fewer
//! regions, more freedom for the player).
//!
//! With `move_weights` on (FESS's move weights), the "pushes so far" of the priority
//! count the moves that are not an advisor's ([`super::advisor`],
//! [`super::connectivity`], [`super::hotspots`]), one each, and an advisor's move as
//! nothing.
//!
//! With `box_moves` on (FESS's macro moves), a state also gets every place one box
//! reaches in two pushes or more, the other boxes standing still and the square not dead,
//! as one edge ([`PushTree`]), after the advisors' edges and weighed as an unadvised move.
//!
//! With `corrals` on, a state with a PI-corral pushes only its barrier's boxes
//! (`crate::corral`).
//!
//! With a `ceiling` (the most pushes a solution may have; `super::ceiling`), a state is
//! dropped when taken if its pushes so far plus its bound pass it, and a state reached
//! again by fewer pushes takes its new parent and is queued again (4 more bytes a state):
//! so that, without goal-room macros, running out of states means no solution within it.
//!
//! Pruned, because no solution passes there (so a level is unsolvable exactly when the
//! search runs out of states): pushes onto dead squares, pushes that freeze a box off a
//! goal, pushes that leave the pushed box in a deadlock of two or three boxes
//! ([`GroupDeadlocks`]), with `corral_deadlocks` on pushes that shut a deadlocked corral
//! ([`super::corral_deadlock`]), and states whose matching is impossible.
//!
//! # Complexity
//! Exponential in the boxes in the worst case. Per expansion one walk O(squares), and with
//! `box_moves` one push search O(squares) per box; per edge the freeze test O(k), O(k^2)
//! group lookups, one walk O(squares) to name the child's region and, for a new state, an
//! O(k^3) matching (with `box_moves` up to 4 x squares edges per box).

use std::collections::BTreeMap;

use grid_core::CellId;

use super::advisor::PackingAdvisor;
use super::box_path::PushTree;
use super::connectivity::ConnectivityAdvisor;
use super::corral_deadlock::CorralDeadlocks;
use super::goal_room::GoalRooms;
use super::hotspots::HotspotAdvisor;
use super::store::{Budget, NONE, Store};
use super::walk::{Regions, Walker};
use super::{Guide, Halt, Meter, Options};
use crate::board::{Board, Freeze};
use crate::corral::Corrals;
use crate::groups::GroupDeadlocks;
use crate::matching::Matcher;
use crate::parse::Level;

/// The bound of a state not yet taken from the queue: its priority is an estimate.
const ESTIMATED: u32 = u32::MAX;

/// Expansions between two calls of the caller's stop check.
const STOP_EVERY: u64 = 256;

/// The largest triple table built (its bytes, queue included).
const TRIPLES_MAX_BYTES: u64 = 64 << 20;

/// The open states by priority, least first: one last-in-first-out bucket per priority.
///
/// Why buckets: priorities take few distinct values (features and pushes are small
/// integers), so a map of buckets does O(log buckets) work per operation on 4-byte
/// entries.
#[derive(Debug, Default)]
pub(super) struct Buckets {
    buckets: BTreeMap<u64, Vec<u32>>,
    /// The priority of the state taken last.
    pub(super) taken: u64,
}

/// Bytes of a queued state.
const QUEUE_ENTRY_BYTES: u64 = 4;

impl Buckets {
    /// Queues `state` at `priority`, its bucket grown (doubled) through `budget`.
    ///
    /// Why the buckets' capacities are counted, not their states: a bucket keeps its
    /// capacity while states are taken from it, until it is empty and dropped.
    pub(super) fn push(
        &mut self,
        priority: u64,
        state: u32,
        budget: &mut Budget,
    ) -> Result<(), Halt> {
        let bucket = self.buckets.entry(priority).or_default();
        if bucket.len() == bucket.capacity() {
            let grow = bucket.capacity().max(4);
            if let Err(halt) = budget.take(grow as u64 * QUEUE_ENTRY_BYTES) {
                if bucket.is_empty() {
                    self.buckets.remove(&priority);
                }
                return Err(halt);
            }
            bucket.reserve_exact(grow);
        }
        bucket.push(state);
        Ok(())
    }

    /// The last state queued at the least priority; [`Buckets::taken`] is then that
    /// priority. A bucket left empty is dropped and its bytes given back.
    pub(super) fn pop(&mut self, budget: &mut Budget) -> Option<u32> {
        let mut first = self.buckets.first_entry()?;
        self.taken = *first.key();
        let state = first.get_mut().pop();
        if first.get().is_empty() {
            budget.give(first.get().capacity() as u64 * QUEUE_ENTRY_BYTES);
            first.remove();
        }
        state
    }

    fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

/// The open states of FESS's cycling (Shoham and Schaeffer, IEEE CoG 2020): one queue per
/// cell of the feature space (the features' bits of a priority), taken in turn, one state
/// per turn, each the least by the guide within its cell.
///
/// Why: a single order by features first spends the whole search in the best cell, and a
/// wrong packing or a bad region count there is never left; cycling gives every cell
/// its share, so a state that makes progress on any feature gets expanded soon.
#[derive(Debug, Default)]
struct Cells {
    cells: BTreeMap<u64, Buckets>,
    /// The cell whose turn came last.
    turn: Option<u64>,
    /// The cell whose turn came before it, for [`Cells::again`].
    before: Option<u64>,
    /// The priority (features and guide) of the state taken last.
    taken: u64,
}

impl Cells {
    fn push(&mut self, priority: u64, state: u32, budget: &mut Budget) -> Result<(), Halt> {
        self.cells.entry(priority & !GUIDE_MASK).or_default().push(
            priority & GUIDE_MASK,
            state,
            budget,
        )
    }

    /// The least state of the next cell in turn, after [`Cells::turn`] (the first cell
    /// after the last).
    fn pop(&mut self, budget: &mut Budget) -> Option<u32> {
        let next = match self.turn {
            Some(turn) => self
                .cells
                .range(turn + 1..)
                .next()
                .or_else(|| self.cells.iter().next()),
            None => self.cells.iter().next(),
        };
        let cell = *next?.0;
        let queue = self.cells.get_mut(&cell)?;
        let state = queue.pop(budget);
        self.taken = cell | queue.taken;
        if queue.is_empty() {
            self.cells.remove(&cell);
        }
        self.before = self.turn;
        self.turn = Some(cell);
        state
    }

    /// Gives the turn back: the state taken was queued again, not expanded.
    fn again(&mut self) {
        self.turn = self.before;
    }
}

/// The open states: one order ([`Buckets`]) or FESS's cycling over feature cells
/// ([`Cells`]).
#[derive(Debug)]
enum Open {
    Ordered(Buckets),
    Cycling(Cells),
}

impl Open {
    fn push(&mut self, priority: u64, state: u32, budget: &mut Budget) -> Result<(), Halt> {
        match self {
            Open::Ordered(b) => b.push(priority, state, budget),
            Open::Cycling(c) => c.push(priority, state, budget),
        }
    }

    fn pop(&mut self, budget: &mut Budget) -> Option<u32> {
        match self {
            Open::Ordered(b) => b.pop(budget),
            Open::Cycling(c) => c.pop(budget),
        }
    }

    /// The priority of the state taken last.
    fn taken(&self) -> u64 {
        match self {
            Open::Ordered(b) => b.taken,
            Open::Cycling(c) => c.taken,
        }
    }

    /// The state taken last goes back to the queue at a higher priority: with cycling,
    /// its cell keeps the turn.
    fn requeue(&mut self, priority: u64, state: u32, budget: &mut Budget) -> Result<(), Halt> {
        if let Open::Cycling(c) = self {
            c.again();
        }
        self.push(priority, state, budget)
    }
}

/// The features of a state in its priority, above the guide's bits: the goals not yet
/// packed in order ([`super::packing`]), then the player's regions.
const PACKING_SHIFT: u32 = 40;
/// See [`PACKING_SHIFT`].
const REGIONS_SHIFT: u32 = 32;
/// The guide's bits of a priority.
const GUIDE_MASK: u64 = (1 << REGIONS_SHIFT) - 1;

/// What a search that was not stopped ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    /// A solution, as LURD.
    Solved(String),
    /// No state is left. `complete`: no push was dropped by a macro ([`super::goal_room`]),
    /// so the level is unsolvable.
    Exhausted { complete: bool },
}

/// Runs the search; see the module documentation.
pub(super) fn search(
    level: &Level,
    options: &Options,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Outcome, Halt> {
    let unsolvable = Ok(Outcome::Exhausted { complete: true });
    if level.stranded() {
        return unsolvable;
    }
    let grid = level.grid();
    let n = grid.cell_count();
    let k = level.boxes().len();
    let mut budget = Budget::new(options.memory_bytes);
    // The walls' tables, counted before they are built (and the unused part given back),
    // built within the stop check: on the largest floors they take seconds.
    let reserved = Board::bytes_for(level);
    budget.take(reserved)?;
    let board = Board::within(level, true, stop).ok_or(Halt::Stopped)?;
    budget.give(reserved.saturating_sub(board.bytes()));
    if level.boxes().iter().any(|b| board.is_dead(b.index())) {
        return unsolvable;
    }
    if level.boxes().iter().all(|b| board.is_goal(b.index())) {
        return Ok(Outcome::Solved(String::new()));
    }
    let pairs = if k >= 2 {
        GroupDeadlocks::new(level)
    } else {
        GroupDeadlocks::default()
    };
    budget.take(pairs.bytes())?;
    let triple_bytes = GroupDeadlocks::triples_bytes(level);
    // The triples only help: without room for them (a quarter of the budget at most) the
    // search goes on with the pairs rather than stop.
    let triples_room = TRIPLES_MAX_BYTES.min(options.memory_bytes / 4);
    let triples = if k >= 3 && triple_bytes > 0 && triple_bytes <= triples_room {
        budget.take(triple_bytes)?;
        GroupDeadlocks::triples(level)
    } else {
        GroupDeadlocks::default()
    };
    let mut freeze = Freeze::new(n);
    let mut matcher = Matcher::new();
    let mut walker = Walker::new(n);
    let mut region = Walker::new(n);
    let mut occupied = vec![false; n];
    let mut store = Store::new(k, &mut budget)?;
    // Per state: its pushes from the start (with `move_weights`, its moves that are not
    // an advisor's), and its matching bound once taken from the
    // queue ([`ESTIMATED`] before).
    let mut pushes: Vec<u32> = Vec::new();
    let mut bound: Vec<u32> = Vec::new();
    // Under a ceiling, per state its pushes from the start (the fewest found so far).
    let mut spent: Option<Vec<u32>> = options.ceiling.map(|_| Vec::new());
    let mut queue = if options.cycling {
        Open::Cycling(Cells::default())
    } else {
        Open::Ordered(Buckets::default())
    };
    let (gw, hw) = (u64::from(options.g_weight), u64::from(options.h_weight));
    let rank = if options.packing || options.goal_rooms || options.advisor {
        super::packing::ranks(level, options.outward_packing, stop)
    } else {
        Vec::new()
    };
    let order: Vec<CellId> = if options.packing || options.advisor {
        let mut order: Vec<CellId> = level.goals().to_vec();
        order.sort_by_key(|g| rank[g.index()]);
        order
    } else {
        Vec::new()
    };
    let mut rooms = if options.goal_rooms {
        Some(GoalRooms::new(level, &rank)).filter(GoalRooms::any)
    } else {
        None
    };
    // Whether a macro dropped a push: then running out of states proves nothing.
    let mut dropped = false;
    let mut regions = Regions::new(n);
    let mut corrals = Corrals::new(n);
    let mut corral_deadlocks = CorralDeadlocks::new(n);

    let mut words: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    for b in level.boxes() {
        occupied[b.index()] = true;
    }
    region.run(grid, &occupied, level.player());
    words.push(region.least().index() as u16);
    for b in level.boxes() {
        occupied[b.index()] = false;
    }
    // The nearest goal's push distance of each square: a child's estimate is its
    // parent's bound changed by the pushed box's change, until it is taken.
    let nearest: Vec<u32> = (0..n)
        .map(|c| (0..k).map(|j| board.distance(j, c)).min().unwrap_or(0))
        .collect();
    let hash = Store::hash(&words);
    let slot = store.find(&words, hash).err().unwrap_or(0);
    let start = store.insert(&words, hash, slot, NONE, &mut budget)?;
    budget.room(&mut pushes, 1)?;
    pushes.push(0);
    budget.room(&mut bound, 1)?;
    bound.push(ESTIMATED);
    if let Some(spent) = spent.as_mut() {
        budget.room(spent, 1)?;
        spent.push(0);
    }
    queue.push(0, start, &mut budget)?;

    let mut boxes = vec![0u16; k];
    let mut child = vec![0u16; k + 1];
    let mut moves: Vec<(usize, CellId, CellId, u32)> = Vec::new();
    let mut advisor = options.advisor.then(|| PackingAdvisor::new(level));
    let mut connectivity = options.connectivity.then(|| ConnectivityAdvisor::new(n));
    let mut hotspots = if options.hotspots && n <= super::hotspots::MAX_SQUARES {
        budget.take(HotspotAdvisor::bytes(n))?;
        HotspotAdvisor::new(level, &board)
    } else {
        None
    };
    let mut box_moves = options.box_moves.then(|| PushTree::new(n));
    let mut expanded = 0u64;
    let mut meter = Meter::default();
    while let Some(state) = queue.pop(&mut budget) {
        expanded += 1;
        if expanded % STOP_EVERY == 0 && stop() {
            return Err(Halt::Stopped);
        }
        boxes.copy_from_slice(&store.state(state)[..k]);
        let g = pushes[state as usize] + 1;
        let h = bound[state as usize];
        if h == ESTIMATED && options.guide == Guide::Matching {
            // A matching of k boxes: up to k^2 steps, warm.
            meter.walked(k * k, stop)?;
            // Queued on an estimate: the matching now, and queued again at its value
            // unless the estimate was right.
            let distance = |i: usize, j: usize| board.distance(j, usize::from(boxes[i]));
            let Some(h) = matcher
                .min_cost_within(k, distance, stop)
                .ok_or(Halt::Stopped)?
            else {
                continue;
            };
            bound[state as usize] = h;
            let estimate = queue.taken();
            let priority = (estimate & !GUIDE_MASK)
                | (gw * u64::from(g - 1) + hw * u64::from(h)).min(GUIDE_MASK);
            if priority > estimate {
                queue.requeue(priority, state, &mut budget)?;
                continue;
            }
        }
        let h = match bound[state as usize] {
            ESTIMATED => boxes.iter().map(|&b| nearest[usize::from(b)]).sum(),
            h => h,
        };
        // Under the ceiling: the bound (the matching, or the nearest goals' sum, which is
        // no more) says every solution through here has more pushes.
        let base = spent.as_ref().map(|s| s[state as usize]);
        if let (Some(ceiling), Some(base)) = (options.ceiling, base)
            && base + h > ceiling
        {
            continue;
        }
        let player = CellId::new(usize::from(store.state(state)[k]));
        for &b in &boxes {
            occupied[usize::from(b)] = true;
        }
        walker.run(grid, &occupied, player);
        // The regions of the state, labelled for its children's counts.
        let count = if options.regions || connectivity.is_some() {
            regions.label(grid, &occupied)
        } else {
            0
        };
        let barrier = if options.corrals {
            corrals.pi_barrier(grid, &board, &occupied, |c| walker.reached(c))
        } else {
            None
        };
        if let Some(rooms) = rooms.as_mut() {
            rooms.look(&board, &boxes);
        }
        // The moves of the state: (box, where it ends, where the player then stands,
        // pushes).
        moves.clear();
        for (i, &b) in boxes.iter().enumerate() {
            let cell = CellId::new(usize::from(b));
            if barrier.is_some_and(|barrier| barrier.binary_search(&cell).is_err()) {
                continue;
            }
            if rooms.as_ref().is_some_and(|r| r.in_clean_room(cell)) {
                dropped = true;
                continue;
            }
            for (dir, next, behind) in grid.push_lines(cell) {
                if occupied[next.index()] || board.is_dead(next.index()) || !walker.reached(behind)
                {
                    continue;
                }
                // Where the box ends, where the player then stands, and the pushes: one,
                // or a goal room's macro instead.
                let (to, standing, length) = match rooms.as_mut().and_then(|r| {
                    let room = r.entered(grid, cell, dir)?;
                    Some(r.send(grid, room, dir))
                }) {
                    None => (next, cell, 1),
                    Some(sent) => {
                        dropped = true;
                        match sent {
                            Some(m) if !occupied[m.goal.index()] => (m.goal, m.standing, m.pushes),
                            _ => continue,
                        }
                    }
                };
                moves.push((i, to, standing, length));
            }
        }
        // The moves from here on are the advisor's.
        let advised = moves.len();
        if let Some(advisor) = advisor.as_mut() {
            advisor.advise(&board, &order, &boxes, &mut occupied, player, &mut moves);
        }
        if let Some(connectivity) = connectivity.as_mut() {
            connectivity.advise(
                &board,
                &boxes,
                &mut occupied,
                player,
                &walker,
                count,
                &mut moves,
            );
        }
        if let Some(hotspots) = hotspots.as_mut() {
            hotspots.advise(&board, &boxes, &mut occupied, player, &mut moves);
        }
        // The moves from here on are macro moves, unadvised: after the advisors', so that
        // a place both reach is the advisor's (weighed as one).
        let unadvised = moves.len();
        if let Some(tree) = box_moves.as_mut() {
            'boxes: for (i, &b) in boxes.iter().enumerate() {
                let cell = CellId::new(usize::from(b));
                if barrier.is_some_and(|barrier| barrier.binary_search(&cell).is_err())
                    || rooms.as_ref().is_some_and(|r| r.in_clean_room(cell))
                    || !grid
                        .push_lines(cell)
                        .any(|(_, _, behind)| walker.reached(behind))
                {
                    continue;
                }
                meter.walked(n, stop)?;
                occupied[cell.index()] = false;
                tree.run(grid, &occupied, player, cell);
                occupied[cell.index()] = true;
                for (to, side, length) in tree.reached_with_pushes() {
                    if length < 2 || to == cell || board.is_dead(to.index()) {
                        continue;
                    }
                    let Some(standing) = grid.neighbour(to, side) else {
                        continue;
                    };
                    // Counted: on an open floor each box has up to 4 x squares places (a
                    // 120 x 120 room with 100 boxes, 5.8 million, 184 MB in one state).
                    // Past the budget the state's other macro moves are left out: each
                    // place is still reached push by push.
                    if budget.room(&mut moves, 1).is_err() {
                        break 'boxes;
                    }
                    moves.push((i, to, standing, length));
                }
            }
        }
        for (m, &(i, to, standing, length)) in moves.iter().enumerate() {
            meter.walked(n, stop)?;
            let cell = CellId::new(usize::from(boxes[i]));
            {
                occupied[cell.index()] = false;
                occupied[to.index()] = true;
                let mut skip = freeze.deadlocked(&board, &occupied, to)
                    || group_dead(&pairs, &triples, &boxes, i, to.index(), standing.index());
                let mut features = 0u64;
                let mut slot = 0;
                // Seen before, but reached here by fewer pushes under a ceiling.
                let mut again = None;
                if !skip {
                    child[..k].copy_from_slice(&boxes);
                    child[i] = to.index() as u16;
                    child[..k].sort_unstable();
                    region.run(grid, &occupied, standing);
                    child[k] = region.least().index() as u16;
                    // Seen before, or a corral it shuts is deadlocked.
                    match store.find(&child, Store::hash(&child)) {
                        Ok(id) => match (base, spent.as_ref()) {
                            (Some(base), Some(s)) if base + length < s[id as usize] => {
                                again = Some(id);
                            }
                            _ => skip = true,
                        },
                        Err(free) => slot = free,
                    }
                    // The corral test reads one push: a macro is not tested.
                    skip = skip
                        || options.corral_deadlocks
                            && length == 1
                            && corral_deadlocks.dead(&board, &occupied, &region, &walker, cell, to);
                }
                if !skip {
                    if options.packing {
                        let left = k as u64 - u64::from(super::packing::packed(&order, &occupied));
                        features |= left << PACKING_SHIFT;
                    }
                    if options.regions {
                        let count = u64::from(regions.after(grid, &occupied, Some(cell), to, cell))
                            .min(255);
                        features |= count << REGIONS_SHIFT;
                    }
                }
                occupied[to.index()] = false;
                occupied[cell.index()] = true;
                if skip {
                    continue;
                }
                let g = match (options.move_weights, (advised..unadvised).contains(&m)) {
                    (false, _) => g - 1 + length,
                    (true, true) => g - 1,
                    (true, false) => g,
                };
                let id = match again {
                    Some(id) => {
                        store.reparent(id, state);
                        pushes[id as usize] = g;
                        id
                    }
                    None => {
                        let hash = Store::hash(&child);
                        let id = store.insert(&child, hash, slot, state, &mut budget)?;
                        budget.room(&mut pushes, 1)?;
                        pushes.push(g);
                        budget.room(&mut bound, 1)?;
                        bound.push(ESTIMATED);
                        if let Some(spent) = spent.as_mut() {
                            budget.room(spent, 1)?;
                            spent.push(0);
                        }
                        id
                    }
                };
                let over = match (spent.as_mut(), base) {
                    (Some(spent), Some(base)) => {
                        spent[id as usize] = base + length;
                        options.ceiling.is_some_and(|c| base + length > c)
                    }
                    _ => false,
                };
                if over {
                    continue;
                }
                if child[..k].iter().all(|&b| board.is_goal(usize::from(b))) {
                    let lurd = super::replay::lurd(level, &store, id, &mut walker);
                    return Ok(Outcome::Solved(lurd));
                }
                let estimate = match bound[id as usize] {
                    ESTIMATED => (h + nearest[to.index()]).saturating_sub(nearest[cell.index()]),
                    known => known,
                };
                let guide = (gw * u64::from(g) + hw * u64::from(estimate)).min(GUIDE_MASK);
                queue.push(features | guide, id, &mut budget)?;
            }
        }
        for &b in &boxes {
            occupied[usize::from(b)] = false;
        }
    }
    Ok(Outcome::Exhausted { complete: !dropped })
}

/// Whether the box pushed from `from` onto `to` (box `i` of `boxes`, the squares before
/// the push) makes a deadlock of two or three boxes, the player on `from`.
fn group_dead(
    pairs: &GroupDeadlocks,
    triples: &GroupDeadlocks,
    boxes: &[u16],
    i: usize,
    to: usize,
    from: usize,
) -> bool {
    let k = boxes.len();
    let other = |j: usize| usize::from(boxes[j]);
    if pairs.bytes() > 0 && (0..k).any(|j| j != i && pairs.dead(to, other(j), from)) {
        return true;
    }
    triples.bytes() > 0
        && (0..k).any(|j| {
            j != i && (j + 1..k).any(|l| l != i && triples.dead3(to, other(j), other(l), from))
        })
}

//! One expansion: every open state of a box layout with as many pushes, served by one walk
//! from all their squares; each push that passes the deadlock tests becomes a child,
//! looked up in the table, dropped when dominated, and queued.
//!
//! Why one walk for the layout: the states of one layout differ only in the player's
//! square; [`Walker::run_many`] gives each push its cheapest start, what expanding them
//! one by one would give.
//!
//! # Complexity
//! Per expansion: one walk O(cells + states of the layout); per push an O(k log k) sort,
//! an O(k) hash, O(k^2) group lookups and, with `--metric pushes` when the layout already
//! has a state with fewer pushes, one walk O(cells); per new layout an O(k^3) matching.

use std::cell::Cell;

use grid_core::{CellId, Dir, Grid};

use super::ball::{Ball, BallPlan, Layer};
use super::budget::{Budget, Looks};
use super::index::EMPTY;
use super::push_optimum::Known;
use super::queue::{Order, QUEUE_ENTRY_BYTES, Queue};
use super::table::{
    HOPELESS, HOPELESS_MEMBER, Info, Member, PUSHES_CAP, ROOT, Table, member_pushes,
};
use super::walker::{Source, Walker};
use super::walks::Walks;
use crate::board::{Board, Freeze, NO_STEPS};
use crate::groups::GroupDeadlocks;
use crate::matching::{IMPOSSIBLE, Matcher};
use crate::parse::Level;
use crate::pattern::{PairPushes, PairScratch};
use crate::solution::{Metric, Options, SolveError};

/// One push of an expansion, waiting for its table lookup.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// The box's square before the push (the player's after).
    cell: CellId,
    /// The box's square after the push.
    to: CellId,
    /// The moves before the push.
    moves: u32,
    /// The state it starts from.
    parent: u32,
    /// The key of the child's layout.
    key: ([u64; 2], u64),
    /// The child's layout, when seen before the expansion; else [`EMPTY`].
    layout: u32,
}

/// What another state of the layout being expanded is to the expansion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Open, with as many pushes: expanded now, with the state taken from the queue.
    Now,
    /// Expanded before with as many pushes: the pushes it reaches best are already done.
    Done,
    /// With fewer pushes (`--metric pushes` only): it dominates every state in its region
    /// (it walks to their squares at no push), which is then not expanded here.
    Fewer,
}

/// What one search did, for the tests and for measurements: its work, and what each
/// pruning took away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Expansions (one serves the open states of a layout with as many pushes).
    pub expansions: u64,
    /// States stored.
    pub states: u64,
    /// Box layouts stored.
    pub layouts: u64,
    /// New states dropped because a state of their layout with fewer pushes reaches them
    /// (`--metric pushes`).
    pub dominated: u64,
    /// Pushes pruned because they leave two boxes that cannot both reach goals
    /// ([`GroupDeadlocks`]).
    pub pair_deadlocks: u64,
    /// Pushes pruned because they leave three boxes that cannot all reach goals, when
    /// no two of them are already a deadlock.
    pub triple_deadlocks: u64,
    /// New states not kept because their pushes and bound on the pushes left pass the
    /// ceiling (the fewest pushes the first phase proved, `--metric pushes`).
    pub over_ceiling: u64,
    /// New states not kept because their layout and region, with their pushes, is on no
    /// solution with the fewest pushes (`--metric pushes` in two phases).
    pub off_paths: u64,
    /// States taken from the queue whose pushes bound rose when the sides their player
    /// reaches were counted, queued again instead of expanded.
    pub refined: u64,
    /// States taken from the queue and dropped because another state of their layout,
    /// with the walk from its square to theirs, costs no more (`--metric moves`).
    pub walked_over: u64,
    /// What the first phase did (`--metric pushes`).
    pub first_phase: super::PushStats,
    /// The moves left within which the backward ball holds every state ([`Ball`]; 0 when
    /// it is not built).
    pub ball_radius: u32,
    /// The box layouts of the backward ball.
    pub ball_layouts: u64,
    /// States taken from the queue whose moves bound the ball raised (made before it was
    /// built), queued again instead of expanded.
    pub rebounded: u64,
    /// The largest first key of `f` (cost so far plus bound) among the states taken
    /// from the queue: a proven lower bound on the metric's first key of every
    /// solution, also when a limit stops the search (with an admissible bound, an open
    /// state on an optimal path always has `f` at most the optimum, and the queue gives
    /// the least `f` first).
    pub bound: u32,
}

/// Where the keys of a cost or bound pair sit, in the metric's order.
#[derive(Debug, Clone, Copy)]
struct Keys {
    pushes: usize,
    moves: usize,
}

/// The buffers one expansion reuses.
#[derive(Debug, Default)]
struct Scratch {
    /// The members of a layout.
    layout_members: Vec<Member>,
    /// The sources of the walk, and per source its state and role.
    sources: Vec<Source>,
    members: Vec<(u32, Role)>,
    /// The open states with more pushes.
    later: Vec<Member>,
    /// The squares of the states with fewer pushes (the dominance test).
    targets: Vec<CellId>,
    /// The squares and costs of the states with fewer moves (the walked-over test).
    walked: Vec<(CellId, [u32; 2])>,
    /// Per region of the walk: a state with fewer pushes is in it.
    blocked: Vec<bool>,
    /// The pushes of one expansion that pass the deadlock tests, their boxes apart.
    pending: Vec<Pending>,
    pending_boxes: Vec<u16>,
    /// The boxes of the layout expanded, and of one child.
    boxes: Vec<u16>,
    child: Vec<u16>,
    /// A child's boxes and the least square of its player's region.
    known_words: Vec<u16>,
    /// Per box of the layout expanded, its goal in that layout's matching (see
    /// [`one_push_matching`]), once `assigned` is set in the expansion.
    goals: Vec<u16>,
    assigned: bool,
}

/// One search's tables and buffers: what the driver ([`super::solve_counting`]) runs.
#[derive(Debug)]
pub(super) struct Search<'a> {
    level: &'a Level,
    grid: &'a Grid,
    board: Board<'a>,
    pairs: GroupDeadlocks,
    /// The pattern database of pairs (empty when not asked for).
    pattern: PairPushes,
    pair_scratch: PairScratch,
    /// Empty until the driver builds it ([`Search::build_triples`]).
    triples: GroupDeadlocks,
    k: usize,
    metric: Metric,
    keys: Keys,
    /// States walked over are dropped when taken (`--metric moves` with
    /// [`Options::walked_over`]).
    walked_over: bool,
    /// The most pushes a solution may have: no state whose pushes and bound pass it is
    /// kept ([`HOPELESS`]: no ceiling).
    ceiling: u32,
    /// The states on the solutions with the fewest pushes, by layout and region, found by
    /// the first phase (`--metric pushes` in two phases): a new state that is not one of
    /// them, with their pushes, is dropped.
    paths: Option<Known>,
    /// The bound on the walks left ([`Walks`]; 0 everywhere when switched off).
    walks: Walks,
    /// The exact moves left near the end ([`Ball`]; `None` until built).
    ball: Option<Ball>,
    /// The first phase's backward ball by pushes ([`Layer::Push`], `--metric pushes` in
    /// two phases): the exact pushes left near the end, a bound on the pushes key.
    push_ball: Option<Ball>,
    /// When and how large the ball (`--metric moves`) or the ball by pushes (`--metric
    /// pushes`) is built or grown; `None` when it is not (off).
    pub(super) ball_plan: Option<BallPlan>,
    /// The states made before the ball was built (their bounds do not count it): when
    /// taken from the queue, their bound is raised by it first ([`Search::rebound`]).
    ball_from: u32,
    pub(super) table: Table,
    pub(super) queue: Queue,
    pub(super) budget: Budget,
    /// The looks at the clock within an expansion (set by the search's loop).
    pub(super) looks: Looks,
    matcher: Matcher,
    pub(super) walker: Walker,
    /// The walker of the dominance test.
    checker: Walker,
    freeze: Freeze,
    /// The squares holding a box during an expansion.
    occupied: Vec<bool>,
    scratch: Scratch,
    pub(super) stats: Stats,
    /// The least first key of a bound queued so far: whether the ball is worth growing
    /// ([`Ball::worth_growing`]).
    nearest: u32,
    /// Per layout of the table, its number in the ball (the metric's), [`NOT_LOOKED`]
    /// or [`NOT_IN_BALL`] ([`Search::in_ball`]).
    in_ball: Vec<Cell<u32>>,
}

/// A layout not looked up in the ball since it last grew ([`Search::in_ball`]).
const NOT_LOOKED: u32 = u32::MAX;
/// A layout with no state in the ball ([`Search::in_ball`]).
const NOT_IN_BALL: u32 = u32::MAX - 1;

/// The bound of a state: pushes >= `pushes`, the matching of its layout (`HOPELESS` when
/// there is none); moves >= the pushes left (at least `left` too: under a ceiling, the
/// ceiling less the pushes so far) plus the walks left ([`Walks`]), >= the lone-box
/// moves of every box from the player's square, and >= what the backward ball says
/// ([`Ball`]: looked up only when the rest is within its radius, the layout found by
/// `in_ball`).
#[inline]
fn bound_of(
    (board, walks, ball, push_ball): (&Board<'_>, &Walks, Option<&Ball>, Option<&Ball>),
    keys: Keys,
    (mut pushes, left): (u32, u32),
    (boxes, player): (&[u16], u16),
    in_ball: impl Fn(&Ball) -> Option<u32>,
) -> [u32; 2] {
    if pushes == HOPELESS {
        return [HOPELESS; 2];
    }
    if let Some(ball) = push_ball.filter(|b| pushes <= b.radius()) {
        pushes = pushes.max(ball.bound_at(in_ball(ball), player));
    }
    // A layout whose matching is 0 has every box on a goal: nothing left.
    let mut moves = if pushes == 0 {
        0
    } else {
        pushes.max(left).saturating_add(walks.bound(boxes, player))
    };
    for &b in boxes {
        let lone = board.lone_steps(b as usize, player as usize);
        if lone == NO_STEPS {
            return [HOPELESS; 2];
        }
        moves = moves.max(lone);
    }
    if let Some(ball) = ball.filter(|b| moves <= b.radius()) {
        moves = moves.max(ball.bound_at(in_ball(ball), player));
    }
    let mut bound = [0; 2];
    bound[keys.pushes] = pushes;
    bound[keys.moves] = moves;
    bound
}

/// The matching bound on the pushes of a layout, or `HOPELESS`.
fn matching(matcher: &mut Matcher, board: &Board<'_>, boxes: &[u16]) -> u32 {
    matcher
        .min_cost_keyed(boxes, |i, j| board.distance(j, boxes[i] as usize))
        .unwrap_or(HOPELESS)
}

/// The matching of a layout one push from one whose matching is `parent` (not
/// [`HOPELESS`]) with the box pushed from `from` to `to` matched to goal `goal` there,
/// without solving it again, when that is possible: `Some` when the box's push distance
/// to `goal` falls by the most it falls to any goal. Exact: the parent's assignment, the
/// box sent to the same goal, gives the child `parent - fall`; and the child's best
/// assignment, applied to the parent, gives the parent at most the child's plus the fall
/// to the goal it gives that box, at most the largest fall; so the child has at least
/// `parent - fall` too. `None` when another goal gains more, or a goal out of reach from
/// `from` comes within reach from `to`.
///
/// # Complexity
/// O(k) for k goals, against O(k^3) for the matching.
#[inline]
fn one_push_matching(
    board: &Board<'_>,
    k: usize,
    parent: u32,
    (from, to): (usize, usize),
    goal: usize,
) -> Option<u32> {
    let (before, after) = (board.distance(goal, from), board.distance(goal, to));
    if after == IMPOSSIBLE || before == IMPOSSIBLE {
        return None;
    }
    let fall = i64::from(before) - i64::from(after);
    for j in 0..k {
        let (b, a) = (board.distance(j, from), board.distance(j, to));
        if a == IMPOSSIBLE {
            continue;
        }
        if b == IMPOSSIBLE || i64::from(b) - i64::from(a) > fall {
            return None;
        }
    }
    u32::try_from(i64::from(parent) - fall).ok()
}

/// The pushes bound of a state of a layout whose matching is `layout_pushes`, with the
/// player on `player`: the matching again with each box's push distances from the sides
/// the player reaches ([`super::matching_from`]) when a box stands on a square that cuts
/// the floor and the player does not reach all its sides, and the pairs' bound
/// ([`PairPushes::bound`]) when the pattern database is built; else the layout's.
#[inline]
fn pushes_from(
    matcher: &mut Matcher,
    board: &Board<'_>,
    pattern: (&PairPushes, &mut PairScratch),
    layout_pushes: u32,
    boxes: &[u16],
    player: u16,
) -> u32 {
    if layout_pushes == HOPELESS
        || !pattern.0.is_built()
            && !boxes
                .iter()
                .any(|&b| board.cut_off(usize::from(b), usize::from(player)))
    {
        return layout_pushes;
    }
    let pushes = super::matching_from(matcher, board, boxes, player).max(layout_pushes);
    if pushes == HOPELESS {
        return HOPELESS;
    }
    match pattern.0.bound(matcher, board, boxes, player, pattern.1) {
        Some(IMPOSSIBLE) => HOPELESS,
        Some(pairs) => pushes.max(pairs),
        None => pushes,
    }
}

impl<'a> Search<'a> {
    /// The tables of a search of `level` with the pair table `pairs`, before the start.
    pub(super) fn new(
        level: &'a Level,
        board: Board<'a>,
        pairs: GroupDeadlocks,
        pattern: PairPushes,
        options: &Options,
        ceiling: u32,
        paths: Option<Known>,
    ) -> Self {
        let grid = level.grid();
        let n = grid.cell_count();
        let k = level.boxes().len();
        let mut budget = Budget::new(options.memory_mib.saturating_mul(grid_core::limits::MIB));
        let table = Table::new(k, n);
        budget.bytes +=
            table.layout_index.bytes() + board.bytes() + pairs.bytes() + pattern.bytes();
        budget.bytes += paths.as_ref().map_or(0, Known::bytes);
        let walks = Walks::new(level, &board, options.bounds.walks);
        budget.bytes += walks.bytes();
        let (keys, order) = match options.metric {
            Metric::Pushes => (
                Keys {
                    pushes: 0,
                    moves: 1,
                },
                Order::ShallowFirst,
            ),
            Metric::Moves => (
                Keys {
                    pushes: 1,
                    moves: 0,
                },
                Order::DeeperFirst,
            ),
        };

        Search {
            level,
            grid,
            board,
            pairs,
            pattern,
            pair_scratch: PairScratch::default(),
            triples: GroupDeadlocks::default(),
            k,
            metric: options.metric,
            keys,
            walked_over: options.metric == Metric::Moves && options.walked_over,
            ceiling,
            paths,
            walks,
            ball: None,
            push_ball: None,
            ball_plan: options.bounds.ball.then(BallPlan::default),
            ball_from: 0,
            table,
            queue: Queue::new(order),
            budget,
            looks: Looks::new(k, None, options.interrupt.clone()),
            matcher: Matcher::new(),
            walker: Walker::new(n),
            checker: Walker::new(n),
            freeze: Freeze::new(n),
            occupied: vec![false; n],
            scratch: Scratch {
                boxes: vec![0; k],
                child: vec![0; k],
                ..Scratch::default()
            },
            stats: Stats::default(),
            nearest: HOPELESS,
            in_ball: Vec::new(),
        }
    }

    /// Stores and queues the start state; `Ok(false)` when it has no matching (the level
    /// is unsolvable).
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the budget does not hold it.
    pub(super) fn start(&mut self) -> Result<bool, SolveError> {
        let level = self.level;
        let start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
        let start_player = level.player().index() as u16;
        let key = self.table.layout_index.key(&start);
        let (matcher, board) = (&mut self.matcher, &self.board);
        let Some(layout) = self.table.layout_of(
            &start,
            key,
            || matching(matcher, board, &start),
            &mut self.budget,
        ) else {
            return Err(SolveError::Memory);
        };
        let pushes = self.table.layouts[layout as usize].pushes;
        let pushes = pushes_from(
            &mut self.matcher,
            &self.board,
            (&self.pattern, &mut self.pair_scratch),
            pushes,
            &start,
            start_player,
        );
        let bound = self.bound(pushes, 0, (layout, &start), start_player);

        if bound[0] == HOPELESS {
            return Ok(false);
        }
        let info = Info {
            cost: [0, 0],
            bound,
            parent: ROOT,
            layout,
            player: start_player,
            closed: false,
            refined: true,
        };
        if self.table.insert(info, 0, &mut self.budget).is_none() {
            return Err(SolveError::Memory);
        }
        self.table.layouts[layout as usize].fewest = 0;
        self.nearest = self.nearest.min(bound[0]);
        self.queue.push(self.f([0, 0], bound), 0, 0);
        Ok(true)
    }

    /// Raises the pushes bound of the open state `state`, just taken from the queue, to
    /// the matching on the sides its player reaches (`pushes_from`); `true` when that
    /// raised it, the state then queued again at its new `f` instead of expanded now.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the queue entry does not fit the budget.
    pub(super) fn refine(&mut self, state: u32) -> Result<bool, SolveError> {
        let info = &mut self.table.info[state as usize];
        info.refined = true;
        let info = *info;
        let boxes = self.table.layout(info.layout);
        let old = info.bound[self.keys.pushes];
        let pushes = pushes_from(
            &mut self.matcher,
            &self.board,
            (&self.pattern, &mut self.pair_scratch),
            old,
            boxes,
            info.player,
        );
        if pushes <= old {
            return Ok(false);
        }
        let bound = self.bound(
            pushes,
            info.cost[self.keys.pushes],
            (info.layout, boxes),
            info.player,
        );
        self.table.info[state as usize].bound = bound;
        self.stats.refined += 1;
        if bound[0] != HOPELESS && !self.over_ceiling(info.cost, bound) {
            if self.budget.bytes + QUEUE_ENTRY_BYTES > self.budget.limit {
                return Err(SolveError::Memory);
            }
            self.budget.bytes += QUEUE_ENTRY_BYTES;
            let cost = info.cost;
            self.nearest = self.nearest.min(bound[0]);
            self.queue.push(self.f(cost, bound), cost[0], state);
        }
        Ok(true)
    }

    /// Builds or grows the backward ball ([`Ball`]) as `ball_plan` says, `expanded`
    /// expansions into the search: by moves with `--metric moves`, by pushes (the first
    /// phase's when it made one) with `--metric pushes`; at most a third of the budget
    /// left when first built; when its radius grows, the states made so far are raised by
    /// it when taken.
    pub(super) fn grow_ball(&mut self, expanded: u64, stop: &dyn Fn() -> bool) {
        let Some(plan) = self.ball_plan else {
            return;
        };
        let (slot, layer) = match self.metric {
            Metric::Moves => (&mut self.ball, Layer::Move),
            Metric::Pushes => (&mut self.push_ball, Layer::Push),
        };
        if slot.is_none() {
            let left = self.budget.limit.saturating_sub(self.budget.bytes);
            *slot = Ball::new(self.level, layer, plan.bytes.min(left / 3));
            let Some(ball) = slot else {
                self.ball_plan = None;
                return;
            };
            self.budget.bytes += ball.budget.bytes;
        }
        let Some(ball) = slot.as_mut().filter(|b| b.worth_growing(self.nearest)) else {
            return;
        };
        let (bytes, radius, layouts) = (ball.budget.bytes, ball.radius(), ball.layouts());
        ball.grow(self.level, plan.states_after(expanded, layer), stop);
        if ball.layouts() > layouts {
            // Layouts not in the ball before may be now.
            self.in_ball
                .iter()
                .filter(|kept| kept.get() == NOT_IN_BALL)
                .for_each(|kept| kept.set(NOT_LOOKED));
        }
        self.budget.bytes = (self.budget.bytes + ball.budget.bytes).saturating_sub(bytes);
        if ball.radius() > radius {
            self.ball_from = self.table.info.len() as u32;
        }
        self.stats.ball_radius = ball.radius();
        self.stats.ball_layouts = ball.layouts() as u64;
    }

    /// Takes the first phase's backward ball by pushes (its bytes counted), a bound on
    /// the pushes of every state made from now on.
    pub(super) fn take_push_ball(&mut self, ball: Option<Ball>) {
        self.budget.bytes += ball.as_ref().map_or(0, |b| b.budget.bytes);
        self.push_ball = ball;
        self.in_ball.iter().for_each(|kept| kept.set(NOT_LOOKED));
    }

    /// Raises the bound of the open state `state`, just taken from the queue and made
    /// before the ball last grew, to what the ball says (the metric's first key); `true`
    /// when that raised it, the state then queued again at its new `f` (unless it passes
    /// the ceiling) instead of expanded now.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the queue entry does not fit the budget.
    pub(super) fn rebound(&mut self, state: u32) -> Result<bool, SolveError> {
        if state >= self.ball_from {
            return Ok(false);
        }
        let Some(ball) = (match self.metric {
            Metric::Moves => &self.ball,
            Metric::Pushes => &self.push_ball,
        }) else {
            return Ok(false);
        };
        let info = self.table.info[state as usize];
        if info.bound[0] > ball.radius() {
            return Ok(false);
        }
        let boxes = self.table.layout(info.layout);
        let first = ball.bound_at(self.in_ball(info.layout, ball, boxes), info.player);
        if first <= info.bound[0] {
            return Ok(false);
        }
        let bound = match self.metric {
            Metric::Moves => [first, info.bound[1]],
            Metric::Pushes => self.bound(first, info.cost[0], (info.layout, boxes), info.player),
        };
        self.table.info[state as usize].bound = bound;
        self.stats.rebounded += 1;
        if bound[0] != HOPELESS && !self.over_ceiling(info.cost, bound) {
            if self.budget.bytes + QUEUE_ENTRY_BYTES > self.budget.limit {
                return Err(SolveError::Memory);
            }
            self.budget.bytes += QUEUE_ENTRY_BYTES;
            self.queue
                .push(self.f(info.cost, bound), info.cost[0], state);
        }
        Ok(true)
    }

    /// Whether the open state `state`, just taken from the queue (`--metric moves`), is
    /// walked over: another state of its layout, plus the walk from that state's square to
    /// this one, costs no more (fewer moves, or as many and no more pushes). Every
    /// continuation from here is then one from there at no more cost, so an optimal
    /// solution through here has an equally good one through there; the chain of such
    /// states ends (each has fewer moves than the one it walks over), at one that is kept.
    ///
    /// # Complexity
    /// O(the layout's states + squares within the walk that could pay off).
    pub(super) fn is_walked_over(&mut self, state: u32) -> bool {
        let info = self.table.info[state as usize];
        if !self.walked_over || self.table.layouts[info.layout as usize].len < 2 {
            return false;
        }
        let (m, p) = (self.keys.moves, self.keys.pushes);
        let s = &mut self.scratch;
        self.table.members(info.layout, &mut s.layout_members);
        s.walked.clear();
        let mut within = 0;
        for member in &s.layout_members {
            if member.state == state || member.pushes == HOPELESS_MEMBER {
                continue;
            }
            let other = &self.table.info[member.state as usize];
            if other.bound[0] == HOPELESS || other.cost[m] >= info.cost[m] {
                continue;
            }
            within = within.max(info.cost[m] - other.cost[m]);
            s.walked
                .push((CellId::new(usize::from(member.player)), other.cost));
        }
        if s.walked.is_empty() {
            return false;
        }
        s.boxes.copy_from_slice(self.table.layout(info.layout));
        for &b in &s.boxes {
            self.occupied[b as usize] = true;
        }
        let from = CellId::new(usize::from(info.player));
        let walked = &s.walked;
        let over =
            self.checker
                .reaches_within(self.grid, &self.occupied, from, within, |square, d| {
                    walked.iter().any(|&(at, cost)| {
                        at == square && (cost[m] + d, cost[p]) <= (info.cost[m], info.cost[p])
                    })
                });
        for &b in &s.boxes {
            self.occupied[b as usize] = false;
        }
        if over {
            self.stats.walked_over += 1;
        }
        over
    }

    /// The level searched.
    pub(super) fn level(&self) -> &'a Level {
        self.level
    }

    /// Builds the triple table when the budget allows it.
    pub(super) fn build_triples(&mut self) {
        let bytes = GroupDeadlocks::triples_bytes(self.level);
        if bytes > 0 && self.budget.bytes + bytes <= self.budget.limit {
            self.triples = GroupDeadlocks::triples(self.level);
            self.budget.bytes += self.triples.bytes();
        }
    }

    /// Whether the state `info` has every box on a goal (its layout's boxes are loaded
    /// for [`Search::expand`] on the way).
    pub(super) fn is_solved(&mut self, info: &Info) -> bool {
        let boxes = &mut self.scratch.boxes;
        boxes.copy_from_slice(self.table.layout(info.layout));
        info.bound[0] == 0 && boxes.iter().all(|&b| self.board.is_goal(b as usize))
    }

    /// Expands the open state `info` (just checked by [`Search::is_solved`]) with every
    /// open state of its layout with as many pushes.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when a child does not fit the budget.
    pub(super) fn expand(&mut self, info: &Info) -> Result<(), SolveError> {
        let pushes = info.cost[self.keys.pushes];
        self.scratch.assigned = false;
        self.gather_sources(info.layout, pushes);
        for &b in &self.scratch.boxes {
            self.occupied[b as usize] = true;
        }
        self.walk();
        self.collect_pushes();
        self.touch_children();
        let mut result = Ok(());
        for j in 0..self.scratch.pending.len() {
            if let Err(e) = self.record(j, pushes) {
                result = Err(e);
                break;
            }
        }
        for &b in &self.scratch.boxes {
            self.occupied[b as usize] = false;
        }
        result
    }

    /// The states of `layout` (see [`Role`]) as sources of one walk; those with more
    /// pushes into `later`.
    fn gather_sources(&mut self, layout: u32, pushes: u32) {
        let fewer_dominate = self.metric == Metric::Pushes;
        let s = &mut self.scratch;
        s.sources.clear();
        s.members.clear();
        s.later.clear();
        s.pending.clear();
        s.pending_boxes.clear();
        self.table.members(layout, &mut s.layout_members);
        // The members' pushes are read on the layout's line; only those with as many
        // pushes as this state need their `Info`.
        for m in &s.layout_members {
            if m.pushes == HOPELESS_MEMBER {
                continue;
            }
            let their = if m.pushes < PUSHES_CAP {
                u32::from(m.pushes)
            } else {
                self.table.info[m.state as usize].cost[self.keys.pushes]
            };
            let (role, moves) = if their == pushes {
                let them = &mut self.table.info[m.state as usize];
                let role = if them.closed { Role::Done } else { Role::Now };
                them.closed = true;
                (role, them.cost[self.keys.moves])
            } else if !fewer_dominate {
                continue;
            } else if their < pushes {
                // Its region is blocked whatever its moves: the walk in that region
                // answers no push, and the regions do not meet.
                (Role::Fewer, 0)
            } else {
                s.later.push(*m);
                continue;
            };
            s.sources.push(Source {
                square: CellId::new(m.player as usize),
                moves,
                tag: s.members.len() as u32,
            });
            s.members.push((m.state, role));
        }
        s.sources.sort_unstable_by_key(|s| s.moves);
    }

    /// The walk from every source at once; the regions of the states with fewer pushes
    /// blocked; the open states with more pushes that it reaches closed unexpanded (each
    /// is dominated: fewer pushes, then a walk that costs no push, reach its square).
    fn walk(&mut self) {
        let s = &mut self.scratch;
        self.walker.run_many(self.grid, &self.occupied, &s.sources);
        s.blocked.clear();
        s.blocked.resize(s.sources.len(), false);
        for (i, source) in s.sources.iter().enumerate() {
            if s.members[source.tag as usize].1 == Role::Fewer {
                s.blocked[self.walker.source_region(i)] = true;
            }
        }
        for t in &s.later {
            if self
                .walker
                .distance(CellId::new(t.player as usize))
                .is_some()
            {
                self.table.info[t.state as usize].closed = true;
            }
        }
    }

    /// Every push the walk reaches from a state expanded now that passes the dead-square,
    /// freeze and group-deadlock tests, into `pending`.
    fn collect_pushes(&mut self) {
        let (grid, board, k) = (self.grid, &self.board, self.k);
        let s = &mut self.scratch;
        let occupied = &mut self.occupied;
        for i in 0..k {
            let cell = CellId::new(s.boxes[i] as usize);
            for dir in Dir::ALL {
                let Some(to) = grid.neighbour(cell, dir) else {
                    continue;
                };
                if occupied[to.index()] || board.is_dead(to.index()) {
                    continue;
                }
                let Some(behind) = grid.neighbour(cell, dir.opposite()) else {
                    continue;
                };
                let Some(moves) = self.walker.distance(behind) else {
                    continue;
                };
                let (parent, role) = s.members[self.walker.origin(behind) as usize];
                if role != Role::Now || s.blocked[self.walker.region(behind)] {
                    continue;
                }
                occupied[cell.index()] = false;
                occupied[to.index()] = true;
                let frozen = self.freeze.deadlocked(board, occupied, to);
                occupied[to.index()] = false;
                occupied[cell.index()] = true;
                if frozen {
                    continue;
                }
                let (to_, at) = (to.index(), cell.index());
                let boxes = &s.boxes;
                if (0..k).any(|j| j != i && self.pairs.dead(to_, boxes[j] as usize, at)) {
                    self.stats.pair_deadlocks += 1;
                    continue;
                }
                if self.triples.bytes() > 0
                    && (0..k).any(|j| {
                        j != i
                            && (j + 1..k).any(|l| {
                                l != i
                                    && self.triples.dead3(
                                        to_,
                                        boxes[j] as usize,
                                        boxes[l] as usize,
                                        at,
                                    )
                            })
                    })
                {
                    self.stats.triple_deadlocks += 1;
                    continue;
                }
                // The child's boxes: box i moves to `to`, kept sorted.
                s.child.copy_from_slice(&s.boxes);
                s.child[i] = to.index() as u16;
                s.child.sort_unstable();
                s.pending_boxes.extend_from_slice(&s.child);
                s.pending.push(Pending {
                    cell,
                    to,
                    moves,
                    parent,
                    key: self.table.layout_index.key(&s.child),
                    layout: EMPTY,
                });
            }
        }
    }

    /// Loads the children's slots, then the lines of the layouts found, all together
    /// first: most are far apart in a large table, and independent loads overlap where
    /// one lookup after another would wait.
    fn touch_children(&mut self) {
        let (k, s) = (self.k, &mut self.scratch);
        for p in &s.pending {
            self.table.layout_index.touch(p.key.1);
        }
        for (j, p) in s.pending.iter_mut().enumerate() {
            let boxes = &s.pending_boxes[j * k..(j + 1) * k];
            if let Ok(layout) = self.table.find_layout(boxes, p.key) {
                self.table.touch_layout(layout);
                p.layout = layout;
            }
        }
    }

    /// Stores (or improves) the child of pending push `j` from a state with `pushes`, and
    /// queues it.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when it does not fit the budget.
    #[inline]
    fn record(&mut self, j: usize, pushes: u32) -> Result<(), SolveError> {
        let k = self.k;
        let p = self.scratch.pending[j];
        self.scratch
            .child
            .copy_from_slice(&self.scratch.pending_boxes[j * k..(j + 1) * k]);
        let player = p.cell.index() as u16;
        let mut cost = [0; 2];
        cost[self.keys.pushes] = pushes + 1;
        cost[self.keys.moves] = p.moves + 1;
        // One push from the parent: at least its pushes bound less one.
        let inherited =
            self.table.info[p.parent as usize].bound[self.keys.pushes].saturating_sub(1);
        let seen = if p.layout == EMPTY {
            None
        } else {
            self.table.member_mut(p.layout, player).map(|m| m.state)
        };
        let found = match seen {
            Some(seen) => self.improve(seen, &p, cost, inherited, pushes),
            None => self.add(&p, cost, inherited, pushes)?,
        };
        let Some((target, bound)) = found else {
            return Ok(());
        };
        if bound[0] == HOPELESS || self.over_ceiling(cost, bound) {
            return Ok(());
        }
        if self.budget.bytes + QUEUE_ENTRY_BYTES > self.budget.limit {
            return Err(SolveError::Memory);
        }
        self.budget.bytes += QUEUE_ENTRY_BYTES;
        self.nearest = self.nearest.min(bound[0]);
        self.queue.push(self.f(cost, bound), cost[0], target);
        Ok(())
    }

    /// A child already stored as `seen`: its cost lowered or its bound raised, or `None`
    /// when neither changes anything.
    #[inline]
    fn improve(
        &mut self,
        seen: u32,
        p: &Pending,
        cost: [u32; 2],
        inherited: u32,
        pushes: u32,
    ) -> Option<(u32, [u32; 2])> {
        let player = p.cell.index() as u16;
        let old = self.table.info[seen as usize];
        if old.bound[0] == HOPELESS {
            return None;
        }
        let raised = inherited > old.bound[self.keys.pushes];
        if cost >= old.cost && !raised {
            return None;
        }
        let bound = if raised {
            self.bound(
                inherited,
                cost[self.keys.pushes].min(old.cost[self.keys.pushes]),
                (p.layout, &self.scratch.child),
                player,
            )
        } else {
            old.bound
        };
        let old = &mut self.table.info[seen as usize];
        old.bound = bound;
        if cost < old.cost {
            old.cost = cost;
            old.parent = p.parent;
            old.closed = false;
            let l = &mut self.table.layouts[p.layout as usize];
            l.fewest = l.fewest.min(pushes + 1);
            if let Some(m) = self.table.member_mut(p.layout, player) {
                m.pushes = member_pushes(pushes + 1);
            }
        } else if old.closed {
            return None;
        }
        Some((seen, bound))
    }

    /// A child not stored yet: stored (its layout too when new), or `None` when a state
    /// of its layout with fewer pushes dominates it (`--metric pushes`).
    ///
    /// # Errors
    /// [`SolveError::Memory`] when it does not fit the budget; [`SolveError::Time`] or
    /// [`SolveError::Interrupted`] when [`Search::looks`] says so.
    #[inline]
    fn add(
        &mut self,
        p: &Pending,
        cost: [u32; 2],
        inherited: u32,
        pushes: u32,
    ) -> Result<Option<(u32, [u32; 2])>, SolveError> {
        self.looks.made()?;
        let player = p.cell.index() as u16;
        if self.off_paths(p, pushes + 1) {
            self.stats.off_paths += 1;
            return Ok(None);
        }
        let parent = self.table.layouts[self.table.info[p.parent as usize].layout as usize].pushes;
        let (matcher, board, k) = (&mut self.matcher, &self.board, self.k);
        let s = &mut self.scratch;
        let (child, boxes, goals, assigned) = (&s.child, &s.boxes, &mut s.goals, &mut s.assigned);
        let new_matching = || {
            if parent == HOPELESS {
                return matching(matcher, board, child);
            }
            if !*assigned {
                let _ = matching(matcher, board, boxes);
                matcher.assignment(k, goals);
                *assigned = true;
            }
            let (from, to) = (p.cell.index(), p.to.index());
            let at = boxes.iter().position(|&b| usize::from(b) == from);
            let quick = at.and_then(|at| {
                one_push_matching(board, k, parent, (from, to), usize::from(goals[at]))
            });
            match quick {
                Some(m) => {
                    debug_assert_eq!(m, matching(matcher, board, child));
                    m
                }
                None => matching(matcher, board, child),
            }
        };
        let Some(layout) = self
            .table
            .layout_of(child, p.key, new_matching, &mut self.budget)
        else {
            return Err(SolveError::Memory);
        };
        if self.metric == Metric::Pushes
            && self.table.layouts[layout as usize].fewest < pushes + 1
            && pushes < u32::from(PUSHES_CAP)
            && self.dominated(layout, p, pushes)
        {
            self.stats.dominated += 1;
            return Ok(None);
        }
        let mut pb = self.table.layouts[layout as usize].pushes;
        if pb != HOPELESS {
            pb = pb.max(inherited);
        }
        if self.in_ball.len() < self.table.layouts.len() {
            let more = self.table.layouts.len() - self.in_ball.len();
            if !self.budget.room(&mut self.in_ball, more) {
                return Err(SolveError::Memory);
            }
            self.in_ball
                .resize(self.table.layouts.len(), Cell::new(NOT_LOOKED));
        }
        let bound = self.bound(
            pb,
            cost[self.keys.pushes],
            (layout, &self.scratch.child),
            player,
        );
        if bound[0] != HOPELESS && self.over_ceiling(cost, bound) {
            self.stats.over_ceiling += 1;
            return Ok(None);
        }
        let info = Info {
            cost,
            bound,
            parent: p.parent,
            layout,
            player,
            closed: false,
            refined: !self.pattern.is_built()
                && !self
                    .scratch
                    .child
                    .iter()
                    .any(|&b| self.board.cut_off(usize::from(b), usize::from(player))),
        };
        let member = if bound[0] == HOPELESS {
            HOPELESS_MEMBER
        } else {
            member_pushes(pushes + 1)
        };
        let Some(state) = self.table.insert(info, member, &mut self.budget) else {
            return Err(SolveError::Memory);
        };
        if bound[0] != HOPELESS {
            let l = &mut self.table.layouts[layout as usize];
            l.fewest = l.fewest.min(pushes + 1);
        }
        Ok(Some((state, bound)))
    }

    /// Whether the layout and region of push `p`'s child (its boxes in `scratch.child`),
    /// reached with `pushes`, is on no solution with the fewest pushes.
    fn off_paths(&mut self, p: &Pending, pushes: u32) -> bool {
        let Some(known) = &self.paths else {
            return false;
        };
        let (cell, to) = (p.cell, p.to);
        self.occupied[cell.index()] = false;
        self.occupied[to.index()] = true;
        self.checker.run(self.grid, &self.occupied, cell);
        self.occupied[to.index()] = false;
        self.occupied[cell.index()] = true;
        let least = self.checker.queue.iter().min().copied().unwrap_or(cell);
        let words = &mut self.scratch.known_words;
        words.clear();
        words.extend_from_slice(&self.scratch.child);
        words.push(least.index() as u16);
        known.pushes(words) != Some(pushes)
    }

    /// The bound of a state with the pushes bound `pushes`, `so_far` pushes from the start,
    /// the boxes on `boxes` (the table's layout `layout`) and the player on `player` (see
    /// [`bound_of`]).
    #[inline]
    fn bound(
        &self,
        pushes: u32,
        so_far: u32,
        (layout, boxes): (u32, &[u16]),
        player: u16,
    ) -> [u32; 2] {
        let left = if self.ceiling == HOPELESS {
            0
        } else {
            self.ceiling.saturating_sub(so_far)
        };
        // One ball at a time: by moves with `--metric moves`, by pushes with `pushes`.
        debug_assert!(self.ball.is_none() || self.push_ball.is_none());
        bound_of(
            (
                &self.board,
                &self.walks,
                self.ball.as_ref(),
                self.push_ball.as_ref(),
            ),
            self.keys,
            (pushes, left),
            (boxes, player),
            |ball| self.in_ball(layout, ball, boxes),
        )
    }

    /// The ball's number of the table's layout `layout` (its boxes `boxes`), kept per
    /// layout from the first look until the ball grows: a layout's states are made one
    /// by one, 2.8 a layout on Microban 144, and each look hashes its boxes.
    #[inline]
    fn in_ball(&self, layout: u32, ball: &Ball, boxes: &[u16]) -> Option<u32> {
        let Some(kept) = self.in_ball.get(layout as usize) else {
            return ball.find(boxes);
        };
        let found = match kept.get() {
            NOT_LOOKED => {
                let found = ball.find(boxes);
                kept.set(found.unwrap_or(NOT_IN_BALL));
                found
            }
            NOT_IN_BALL => None,
            l => Some(l),
        };
        debug_assert_eq!(found, ball.find(boxes), "kept since the ball grew");
        found
    }

    /// The `f` a state with `cost` and `bound` is queued at: the cost plus the bound.
    #[inline]
    pub(super) fn f(&self, cost: [u32; 2], bound: [u32; 2]) -> [u32; 2] {
        [
            cost[0].saturating_add(bound[0]),
            cost[1].saturating_add(bound[1]),
        ]
    }

    /// Takes `pushes`, proven the fewest by another search, as the ceiling when it is
    /// lower (`--metric pushes` only): every optimal solution has that many.
    pub(super) fn lower_ceiling(&mut self, pushes: u32) {
        self.ceiling = self.ceiling.min(pushes);
    }

    /// Whether a state with `cost` and `bound` needs more pushes than the ceiling.
    #[inline]
    fn over_ceiling(&self, cost: [u32; 2], bound: [u32; 2]) -> bool {
        let p = self.keys.pushes;
        u64::from(cost[p]) + u64::from(bound[p]) > u64::from(self.ceiling)
    }

    /// Whether a state of `layout` with fewer pushes than `pushes + 1` reaches the
    /// player's square of push `p` after it, at no push.
    fn dominated(&mut self, layout: u32, p: &Pending, pushes: u32) -> bool {
        let s = &mut self.scratch;
        s.targets.clear();
        self.table.members(layout, &mut s.layout_members);
        s.targets.extend(
            s.layout_members
                .iter()
                .filter(|m| u32::from(m.pushes) < pushes + 1)
                .map(|m| CellId::new(m.player as usize)),
        );
        let (cell, to) = (p.cell, p.to);
        self.occupied[cell.index()] = false;
        self.occupied[to.index()] = true;
        let dominated = self
            .checker
            .reaches(self.grid, &self.occupied, cell, &s.targets);
        self.occupied[to.index()] = false;
        self.occupied[cell.index()] = true;
        dominated
    }
}

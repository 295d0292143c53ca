//! The push optimum alone: A* over (box squares, the player's region), the first phase of
//! `--metric pushes`.
//!
//! Why a second state space: the exact search keeps the player's exact square, because
//! the moves (the second key) depend on it; the pushes do not. Every square the player
//! walks to without a push gives the same pushes next, so here a state is the sorted box
//! squares and the least square of the player's region, one state where the exact search
//! has one per square of the region (up to seven times fewer on the larger Microban
//! levels). One edge is one push, costing 1. The bound is the matching of
//! `super::expand` on the player's sides, raised by the pattern database of pairs when
//! the level uses it (`crate::pattern`), with the parent's bound less one ("pathmax"); it is admissible, not
//! always consistent, so a state reached again with fewer pushes is queued again. The
//! first solved state taken from the queue has the fewest pushes, and the largest `f`
//! taken before a limit stops the search is a proven lower bound on them.
//!
//! Pruned as in the exact search, because no solution passes there: pushes onto dead
//! squares, pushes that freeze a box off a goal, pushes that leave the pushed box in a
//! deadlock with one or two others, layouts without a matching. With
//! `Pruning::PiCorrals`, a state with a PI-corral pushes only the corral's barrier
//! boxes (`crate::corral`): some push into the corral comes in every solution and can
//! come first, the pushes before it moved after it, so a solution with as many pushes
//! starts with one of those (the reordering keeps the number of pushes, not the walks:
//! this is why the pruning is here and not in the exact search).
//!
//! The solution read back walks, before each push, a shortest way (boxes as walls) from
//! the player's square to the square behind the box: a legal solution with the fewest
//! pushes, not always the fewest moves among them (the second phase, the exact search
//! under the ceiling of these pushes, finds those).
//!
//! # Complexity
//! Exponential in the boxes in the worst case. Per expansion one walk O(cells); per push
//! the freeze test, O(k^2) group lookups, one walk O(cells) to name the child's region, an
//! O(k) hash and, for a new state, an O(k^3) matching. Memory: 2(k + 1) bytes of squares,
//! 12 bytes of pushes, bound and parent, and 2 x 24 bytes of index per state (at most half
//! full), plus the queue, all counted against the budget.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use grid_core::{CellId, Dir, Grid};

use super::ball::{Ball, BallPlan, Layer};
use super::budget::{Budget, Looks};
use super::index::Index;
use super::queue::QUEUE_ENTRY_BYTES;
use super::table::{HOPELESS, ROOT};
use super::walker::Walker;
use super::{TRIPLES_AFTER, TRIPLES_AT_ONCE_BYTES, push_letter, walk_letter};
use crate::board::{Board, Freeze};
use crate::corral::Corrals;
use crate::groups::GroupDeadlocks;
use crate::matching::{IMPOSSIBLE, Matcher};
use crate::parse::Level;
use crate::pattern::{PairPushes, PairScratch};
use crate::solution::{Options, SolveError};

/// Which pushes a state expands, beyond the deadlock tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pruning {
    /// Every push.
    None,
    /// Only the barrier's pushes when the state has a PI-corral (`crate::corral`).
    PiCorrals,
}

/// Whether the first phase goes on to find the states on the solutions with the fewest
/// pushes ([`Known`]) once it has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Paths {
    Skip,
    /// Found from both ends (`super::corridor`).
    Mark,
}

/// What the first phase found.
#[derive(Debug)]
pub(super) enum Outcome {
    /// The fewest pushes, a solution with that many (walks shortest per push), and the
    /// states on the solutions with that many, when the search for them finished in time.
    Solved {
        pushes: u32,
        lurd: String,
        paths: Option<Known>,
    },
    /// No solution.
    Unsolvable,
}

/// What the first phase did, for the tests and measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PushStats {
    /// States taken from the queue and expanded.
    pub expansions: u64,
    /// States stored.
    pub states: u64,
    /// Expansions that pushed only a PI-corral's barrier.
    pub corrals: u64,
    /// The largest `f` taken from the queue: a proven lower bound on the pushes.
    pub bound: u32,
    /// The pushes left within which the backward ball by pushes holds every state (0
    /// when it is not built).
    pub ball_radius: u32,
    /// The box layouts of the backward ball by pushes.
    pub ball_layouts: u64,
    /// States taken from the queue whose bound the ball raised (made before it grew),
    /// queued again instead of expanded.
    pub rebounded: u64,
    /// What the search for the states on the solutions with the fewest pushes did
    /// (`Paths::Mark`).
    pub corridor: super::corridor::CorridorStats,
}

/// The states (box layout, player's region) on the solutions with the fewest pushes P,
/// each with its fewest pushes from the start: what the second phase prunes with (a
/// state of the exact search whose layout and region is not one of them, or is reached
/// with other pushes, is on no solution with P pushes). Found from both ends
/// (`super::corridor`).
#[derive(Debug)]
pub(super) struct Known {
    k: usize,
    words: Vec<u16>,
    pushes: Vec<u32>,
    index: Index,
}

impl Known {
    /// The fewest pushes of the state `words` (sorted box squares, then the least square
    /// of the player's region) when it is on a solution with the fewest pushes.
    pub(super) fn pushes(&self, words: &[u16]) -> Option<u32> {
        let stride = self.k + 1;
        let all = &self.words;
        let key = self.index.key(words);
        self.index
            .find(words, key, |s| {
                &all[s as usize * stride..(s as usize + 1) * stride]
            })
            .ok()
            .map(|s| self.pushes[s as usize])
            .filter(|&g| g != HOPELESS)
    }

    /// None yet, for states of `k` boxes on a level of `cells` squares.
    pub(super) fn empty(k: usize, cells: usize) -> Self {
        Known {
            k,
            words: Vec::new(),
            pushes: Vec::new(),
            index: Index::new(k + 1, cells),
        }
    }

    /// Adds the state `words` (not in yet) with its fewest pushes `pushes`; `false` when
    /// the budget does not allow it.
    pub(super) fn add(&mut self, words: &[u16], pushes: u32, budget: &mut Budget) -> bool {
        let stride = self.k + 1;
        let key = self.index.key(words);
        let all = &self.words;
        let Err(slot) = self.index.find(words, key, |s| {
            &all[s as usize * stride..(s as usize + 1) * stride]
        }) else {
            return true;
        };
        let s = self.pushes.len() as u32;
        if !budget.room(&mut self.words, stride) || !budget.room(&mut self.pushes, 1) {
            return false;
        }
        self.words.extend_from_slice(words);
        self.pushes.push(pushes);
        self.index.insert(key.0, slot, s, budget)
    }

    /// The states it holds.
    pub(super) fn len(&self) -> usize {
        self.pushes.len()
    }

    /// The bytes it takes.
    pub(super) fn bytes(&self) -> u64 {
        (self.words.capacity() * 2 + self.pushes.capacity() * 4) as u64 + self.index.bytes()
    }
}

/// When an open state is taken: the least `f` first, then the most pushes so far (the
/// state nearest the goals by the bound).
type Priority = (u32, Reverse<u32>);

/// The first phase's tables.
pub(super) struct PushSearch<'a> {
    level: &'a Level,
    grid: &'a Grid,
    board: &'a Board<'a>,
    pairs: &'a GroupDeadlocks,
    /// The pattern database of pairs (empty when not asked for).
    pattern: &'a PairPushes,
    pair_scratch: PairScratch,
    triples: GroupDeadlocks,
    k: usize,
    pruning: Pruning,
    /// The children of one expansion, `k + 1` words each.
    children: Vec<u16>,
    /// Per state, k sorted box squares and the least square of the player's region.
    words: Vec<u16>,
    parent: Vec<u32>,
    pushes: Vec<u32>,
    /// Per state, its bound on the pushes left, [`HOPELESS`] when it has no matching.
    bound: Vec<u32>,
    /// Per state, expanded with its present pushes.
    closed: Vec<bool>,
    index: Index,
    budget: Budget,
    /// The looks at the clock within an expansion (set by [`PushSearch::run`]).
    looks: Looks,
    queue: BTreeMap<Priority, Vec<u32>>,
    matcher: Matcher,
    walker: Walker,
    region: Walker,
    freeze: Freeze,
    corrals: Corrals,
    occupied: Vec<bool>,
    /// The backward ball by pushes ([`Ball`], [`Layer::Push`]): `None` until built.
    ball: Option<Ball>,
    /// When and how large it is built; `None` when it is not.
    ball_plan: Option<BallPlan>,
    /// The states made before the ball last grew: raised by it when taken.
    ball_from: u32,
    /// The least bound of a state queued so far: whether the ball is worth growing.
    nearest: u32,
    /// Bytes another thread lets the search grow to, once it has freed them (read every
    /// [`super::CLOCK_EVERY`] expansions or fewer ([`super::clock_every`]); `None`: the budget stays `--memory-mib`).
    more_memory: Option<&'a AtomicU64>,
    /// The limit before the probe's bytes held are taken off it: `budget.limit` is this
    /// less `held`, what the probe said it holds at its last ask ([`Probed::held`]).
    whole_limit: u64,
    held: u64,
    stats: PushStats,
}

/// Another way to a solution, asked at the search's looks at the clock: given the lower
/// bound proven on the pushes and the bytes the search has left, a legal solution with at
/// most that many pushes (then the fewest), or `None`, and the bytes it holds until the
/// next ask ([`Probed`]).
pub(crate) type Probe<'p> = &'p mut dyn FnMut(u32, u64) -> Probed;

/// What a [`Probe`] answers.
#[derive(Debug, Default)]
pub(crate) struct Probed {
    /// A legal solution with at most as many pushes as the bound, when it has one.
    pub(crate) solution: Option<String>,
    /// The bytes it keeps until the next ask (a run paused between its slices): the
    /// search's limit leaves them to it, so that both together stay within the budget.
    pub(crate) held: u64,
}

/// What the search's loop ends with.
enum Found {
    /// A solved state taken from the queue.
    State(u32),
    /// The probe's solution, with as many pushes as the bound proven.
    Probed { pushes: u32, lurd: String },
}

/// The fewest pushes of `level` (see the module documentation), with `board`, `pairs`
/// and `pattern` its tables (the pair deadlocks and the pattern database of pairs),
/// stopping at `deadline` (its memory raised to what `more_memory` holds, when that
/// passes `--memory-mib`; `probe` asked at its looks at the clock), what the search did,
/// and the backward ball by pushes when
/// `ball` asked for one and it was built (also when a limit stopped the search: its
/// answers hold whatever the search found).
///
/// # Errors
/// [`SolveError`] when a limit of `options` (or `deadline`) stopped it first; the stats
/// then carry the proven lower bound.
pub(super) fn push_optimum<'a>(
    level: &'a Level,
    board: &'a Board<'a>,
    (pairs, pattern): (&'a GroupDeadlocks, &'a PairPushes),
    options: &Options,
    pruning: Pruning,
    (paths, ball): (Paths, Option<BallPlan>),
    (deadline, more_memory, probe): (Option<Instant>, Option<&'a AtomicU64>, Option<Probe<'_>>),
) -> (Result<Outcome, SolveError>, PushStats, Option<Ball>) {
    let mut search = PushSearch::new(level, board, pairs, pattern, options, pruning);
    search.ball_plan = ball;
    search.more_memory = more_memory;
    let found = search
        .run(options, deadline, probe)
        .map_err(|e| search.budget.reason(e));
    search.stats.states = search.parent.len() as u64;
    let mut stats = search.stats;
    let ball = search.ball.take();
    let (pushes, lurd) = match found {
        Ok(Some(Found::State(state))) => {
            (search.pushes[state as usize], search.read_solution(state))
        }
        Ok(Some(Found::Probed { pushes, lurd })) => (pushes, lurd),
        Ok(None) => return (Ok(Outcome::Unsolvable), stats, ball),
        Err(e) => return (Err(e), stats, ball),
    };
    drop(search);
    let paths = match paths {
        Paths::Skip => None,
        Paths::Mark => {
            let (found, corridor) = super::corridor::corridor(
                level,
                board,
                (pairs, pattern),
                options,
                pushes,
                (deadline, ball.as_ref().map_or(0, |b| b.budget.bytes)),
            );
            stats.corridor = corridor;
            found.ok()
        }
    };
    (
        Ok(Outcome::Solved {
            pushes,
            lurd,
            paths,
        }),
        stats,
        ball,
    )
}

impl<'a> PushSearch<'a> {
    pub(super) fn new(
        level: &'a Level,
        board: &'a Board<'a>,
        pairs: &'a GroupDeadlocks,
        pattern: &'a PairPushes,
        options: &Options,
        pruning: Pruning,
    ) -> Self {
        let grid = level.grid();
        let n = grid.cell_count();
        let k = level.boxes().len();
        let index = Index::new(k + 1, n);
        let mut budget = Budget::new(options.memory_mib.saturating_mul(grid_core::limits::MIB));
        budget.bytes = index.bytes() + board.bytes() + pairs.bytes() + pattern.bytes();
        PushSearch {
            level,
            grid,
            board,
            pairs,
            pattern,
            pair_scratch: PairScratch::default(),
            triples: GroupDeadlocks::default(),
            k,
            pruning,
            children: Vec::new(),
            words: Vec::new(),
            parent: Vec::new(),
            pushes: Vec::new(),
            bound: Vec::new(),
            closed: Vec::new(),
            index,
            budget,
            looks: Looks::default(),
            queue: BTreeMap::new(),
            matcher: Matcher::new(),
            walker: Walker::new(n),
            region: Walker::new(n),
            freeze: Freeze::new(n),
            corrals: Corrals::new(n),
            occupied: vec![false; n],
            ball: None,
            ball_plan: None,
            ball_from: 0,
            nearest: HOPELESS,
            more_memory: None,
            whole_limit: 0,
            held: 0,
            stats: PushStats::default(),
        }
    }

    fn state(&self, state: u32) -> &[u16] {
        let stride = self.k + 1;
        &self.words[state as usize * stride..(state as usize + 1) * stride]
    }

    /// Queues `state` at its present pushes and bound.
    fn queue(&mut self, state: u32) -> Result<(), SolveError> {
        if self.budget.bytes + QUEUE_ENTRY_BYTES > self.budget.limit {
            return Err(SolveError::Memory);
        }
        self.budget.bytes += QUEUE_ENTRY_BYTES;
        let (g, h) = (self.pushes[state as usize], self.bound[state as usize]);
        self.nearest = self.nearest.min(h);
        self.queue
            .entry((g + h, Reverse(g)))
            .or_default()
            .push(state);
        Ok(())
    }

    /// Stores the state `words` reached from `parent` with `pushes` and the bound
    /// `inherited` at least (its matching is computed when it is new), or lowers its
    /// pushes; queues it when it is new or improved and has a matching.
    fn reach(
        &mut self,
        words: &[u16],
        parent: u32,
        pushes: u32,
        inherited: u32,
    ) -> Result<(), SolveError> {
        self.looks.made()?;
        let key = self.index.key(words);
        let stride = self.k + 1;
        let all = &self.words;
        let found = self.index.find(words, key, |s| {
            &all[s as usize * stride..(s as usize + 1) * stride]
        });
        let slot = match found {
            Ok(state) => {
                let s = state as usize;
                if self.bound[s] == HOPELESS || self.pushes[s] <= pushes {
                    return Ok(());
                }
                self.pushes[s] = pushes;
                self.parent[s] = parent;
                self.bound[s] = self.bound[s].max(inherited);
                self.closed[s] = false;
                return self.queue(state);
            }
            Err(slot) => slot,
        };
        let state = self.parent.len() as u32;
        if state >= ROOT - 1
            || !self.budget.room(&mut self.parent, 1)
            || !self.budget.room(&mut self.pushes, 1)
            || !self.budget.room(&mut self.bound, 1)
            || !self.budget.room(&mut self.closed, 1)
            || !self.budget.room(&mut self.words, stride)
        {
            return Err(SolveError::Memory);
        }
        let mut bound = self.region_bound(words);
        if bound != HOPELESS {
            bound = bound.max(inherited);
            if let Some(ball) = self.ball.as_ref().filter(|b| bound <= b.radius()) {
                bound = bound.max(ball.bound(&words[..self.k], words[self.k]));
            }
        }
        self.words.extend_from_slice(words);
        self.parent.push(parent);
        self.pushes.push(pushes);
        self.bound.push(bound);
        self.closed.push(false);
        if !self.index.insert(key.0, slot, state, &mut self.budget) {
            return Err(SolveError::Memory);
        }
        if bound == HOPELESS {
            return Ok(());
        }
        self.queue(state)
    }

    /// The bound on the pushes left of the state `words` (sorted box squares, then the
    /// least square of the player's region): the matching on the player's sides, raised
    /// by the pattern database of pairs; [`HOPELESS`] when it has no matching.
    pub(super) fn region_bound(&mut self, words: &[u16]) -> u32 {
        let (boxes, player) = (&words[..self.k], words[self.k]);
        let bound = super::matching_from(&mut self.matcher, self.board, boxes, player);
        if bound == HOPELESS {
            return HOPELESS;
        }
        match self.pattern.bound(
            &mut self.matcher,
            self.board,
            boxes,
            player,
            &mut self.pair_scratch,
        ) {
            Some(IMPOSSIBLE) => HOPELESS,
            Some(pairs) => bound.max(pairs),
            None => bound,
        }
    }

    /// The children of the state `words` (every push that passes the deadlock tests, no
    /// PI-corral pruning), `k + 1` words each.
    pub(super) fn children_of_state(&mut self, words: &[u16]) -> &[u16] {
        let k = self.k;
        let boxes = words[..k].to_vec();
        let player = CellId::new(usize::from(words[k]));
        for &b in &boxes {
            self.occupied[usize::from(b)] = true;
        }
        self.walker.run(self.grid, &self.occupied, player);
        self.children_of(&boxes, &[]);
        for &b in &boxes {
            self.occupied[usize::from(b)] = false;
        }
        &self.children
    }

    /// The least square the player reaches from `from` with the boxes `occupied` marks.
    fn region_of(&mut self, from: CellId) -> u16 {
        self.region.run(self.grid, &self.occupied, from);
        let least = self.region.queue.iter().min().copied().unwrap_or(from);
        least.index() as u16
    }

    /// The A* loop: the first solved state taken from the queue, `None` when the queue
    /// runs dry.
    fn run(
        &mut self,
        options: &Options,
        deadline: Option<Instant>,
        mut probe: Option<Probe<'_>>,
    ) -> Result<Option<Found>, SolveError> {
        self.budget.deadline = deadline;
        self.looks = Looks::new(self.k, deadline, options.interrupt.clone());
        self.whole_limit = self.budget.limit;
        let level = self.level;
        let k = self.k;
        let mut start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
        start.sort_unstable();
        for &b in &start {
            self.occupied[usize::from(b)] = true;
        }
        let region = self.region_of(level.player());
        for &b in &start {
            self.occupied[usize::from(b)] = false;
        }
        start.push(region);
        self.reach(&start, ROOT, 0, 0)?;
        let triples_at_once = GroupDeadlocks::triples_bytes(level) <= TRIPLES_AT_ONCE_BYTES;
        let mut boxes = vec![0u16; k];
        let mut child = vec![0u16; k + 1];
        let mut barrier: Vec<CellId> = Vec::new();
        let mut ball_at = self.ball_plan.map_or(0, |plan| plan.after.max(1));
        let clock_every = super::clock_every(level);
        while let Some(mut first) = self.queue.first_entry() {
            let (f, Reverse(g)) = *first.key();
            let state = first.get_mut().pop();
            if first.get().is_empty() {
                first.remove();
            }
            let Some(state) = state else {
                continue;
            };
            let s = state as usize;
            if self.closed[s] || self.pushes[s] != g || g + self.bound[s] != f {
                continue; // expanded, or reached again with fewer pushes, since queued
            }
            if self.rebound(state)? {
                continue;
            }
            self.stats.bound = self.stats.bound.max(f);
            boxes.copy_from_slice(&self.state(state)[..k]);
            if self.is_solved(state) {
                return Ok(Some(Found::State(state)));
            }
            self.closed[s] = true;
            self.stats.expansions += 1;
            let expanded = self.stats.expansions;
            if k >= 3 && (expanded == TRIPLES_AFTER || expanded == 1 && triples_at_once) {
                self.build_triples();
            }
            if self.ball_plan.is_some() && expanded == ball_at {
                self.grow_ball(expanded, &|| {
                    options.interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
                });
                ball_at = ball_at.saturating_mul(2);
            }
            if expanded % clock_every == 0 {
                if options.interrupted() {
                    return Err(SolveError::Interrupted);
                }
                if let Some(more) = self.more_memory {
                    self.whole_limit = self.whole_limit.max(more.load(Ordering::Relaxed));
                    self.budget.limit = self.whole_limit.saturating_sub(self.held);
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Err(SolveError::Time);
                }
                if let Some(probe) = probe.as_mut() {
                    let left = self.budget.limit.saturating_sub(self.budget.bytes);
                    let probed = probe(f, left);
                    self.held = probed.held;
                    self.budget.limit = self.whole_limit.saturating_sub(self.held);
                    if let Some(lurd) = probed.solution {
                        let pushes = lurd.bytes().filter(u8::is_ascii_uppercase).count() as u32;
                        if pushes <= f {
                            return Ok(Some(Found::Probed { pushes, lurd }));
                        }
                    }
                }
            }
            let player = CellId::new(usize::from(self.state(state)[k]));
            for &b in &boxes {
                self.occupied[usize::from(b)] = true;
            }
            self.walker.run(self.grid, &self.occupied, player);
            barrier.clear();
            if self.pruning == Pruning::PiCorrals {
                let walker = &self.walker;
                if let Some(b) =
                    self.corrals
                        .pi_barrier(self.grid, self.board, &self.occupied, |c| {
                            walker.distance(c).is_some()
                        })
                {
                    barrier.extend_from_slice(b);
                    self.stats.corrals += 1;
                }
            }
            self.children_of(&boxes, &barrier);
            for &b in &boxes {
                self.occupied[usize::from(b)] = false;
            }
            let inherited = self.bound[s].saturating_sub(1);
            let children = std::mem::take(&mut self.children);
            // Each child's slot of the index loaded first, all together (an index of
            // millions of states is a cache miss a lookup: `index::prefetch`).
            for c in children.chunks_exact(k + 1) {
                self.index.touch(self.index.key(c).1);
            }
            for c in children.chunks_exact(k + 1) {
                child.copy_from_slice(c);
                self.reach(&child, state, g + 1, inherited)?;
            }
            self.children = children;
        }
        Ok(None)
    }

    /// Builds or grows the backward ball by pushes as `ball_plan` says, `expanded`
    /// expansions in: at most a third of the budget left when first built; when its
    /// radius grows, the states made so far are raised by it when taken.
    fn grow_ball(&mut self, expanded: u64, stop: &dyn Fn() -> bool) {
        let Some(plan) = self.ball_plan else {
            return;
        };
        if self.ball.is_none() {
            let left = self.budget.limit.saturating_sub(self.budget.bytes);
            self.ball = Ball::new(self.level, Layer::Push, plan.bytes.min(left / 3));
            let Some(ball) = &self.ball else {
                self.ball_plan = None;
                return;
            };
            self.budget.bytes += ball.budget.bytes;
        }
        let Some(ball) = self.ball.as_mut().filter(|b| b.worth_growing(self.nearest)) else {
            return;
        };
        let (bytes, radius) = (ball.budget.bytes, ball.radius());
        ball.grow(self.level, plan.states_after(expanded, Layer::Push), stop);
        self.budget.bytes = (self.budget.bytes + ball.budget.bytes).saturating_sub(bytes);
        if ball.radius() > radius {
            self.ball_from = self.parent.len() as u32;
        }
        self.stats.ball_radius = ball.radius();
        self.stats.ball_layouts = ball.layouts() as u64;
    }

    /// Raises the bound of `state`, just taken from the queue and made before the ball
    /// last grew, to what the ball says; `true` when that raised it, the state then
    /// queued again instead of expanded now.
    ///
    /// # Errors
    /// [`SolveError::Memory`] when the queue entry does not fit the budget.
    fn rebound(&mut self, state: u32) -> Result<bool, SolveError> {
        let s = state as usize;
        let Some(ball) = self.ball.as_ref().filter(|_| state < self.ball_from) else {
            return Ok(false);
        };
        if self.bound[s] > ball.radius() {
            return Ok(false);
        }
        let words = self.state(state);
        let raised = ball.bound(&words[..self.k], words[self.k]);
        if raised <= self.bound[s] {
            return Ok(false);
        }
        self.bound[s] = raised;
        self.stats.rebounded += 1;
        self.queue(state)?;
        Ok(true)
    }

    /// Whether `state` has every box on a goal.
    fn is_solved(&self, state: u32) -> bool {
        self.bound[state as usize] == 0
            && self.state(state)[..self.k]
                .iter()
                .all(|&b| self.board.is_goal(usize::from(b)))
    }

    /// Into `children`, every push from the boxes `boxes` (marked in `occupied`, the walk
    /// from the player done) that passes the deadlock tests, only the `barrier`'s boxes
    /// when it is not empty, as the child's words.
    fn children_of(&mut self, boxes: &[u16], barrier: &[CellId]) {
        let (grid, k) = (self.grid, self.k);
        self.children.clear();
        let least = crate::region::least_two(self.walker.reached());
        for i in 0..k {
            let cell = CellId::new(usize::from(boxes[i]));
            if !barrier.is_empty() && barrier.binary_search(&cell).is_err() {
                continue;
            }
            for (_, to, behind) in grid.push_lines(cell) {
                if self.occupied[to.index()]
                    || self.board.is_dead(to.index())
                    || self.walker.distance(behind).is_none()
                {
                    continue;
                }
                self.occupied[cell.index()] = false;
                self.occupied[to.index()] = true;
                let dead = self.freeze.deadlocked(self.board, &self.occupied, to)
                    || self.group_dead(boxes, i, to.index(), cell.index());
                if !dead {
                    let at = self.children.len();
                    self.children.extend_from_slice(boxes);
                    self.children[at + i] = to.index() as u16;
                    self.children[at..at + k].sort_unstable();
                    let walker = &self.walker;
                    let told = crate::region::least_after_push(
                        grid,
                        &self.occupied,
                        |c| walker.distance(c).is_some(),
                        cell,
                        to,
                        least,
                    );
                    let region = match told {
                        Some(least) => least.index() as u16,
                        None => self.region_of(cell),
                    };
                    debug_assert_eq!(region, self.region_of(cell));
                    self.children.push(region);
                }
                self.occupied[to.index()] = false;
                self.occupied[cell.index()] = true;
            }
        }
    }

    /// Whether the box pushed from `from` onto `to` (box `i` of `boxes`, the squares
    /// before the push) makes a deadlock of two or three boxes, the player on `from`.
    fn group_dead(&self, boxes: &[u16], i: usize, to: usize, from: usize) -> bool {
        let k = boxes.len();
        let other = |j: usize| usize::from(boxes[j]);
        if self.pairs.bytes() > 0 && (0..k).any(|j| j != i && self.pairs.dead(to, other(j), from)) {
            return true;
        }
        self.triples.bytes() > 0
            && (0..k).any(|j| {
                j != i
                    && (j + 1..k)
                        .any(|l| l != i && self.triples.dead3(to, other(j), other(l), from))
            })
    }

    /// Builds the triple table when the budget allows it.
    fn build_triples(&mut self) {
        let bytes = GroupDeadlocks::triples_bytes(self.level);
        if bytes > 0 && self.budget.bytes + bytes <= self.budget.limit {
            self.triples = GroupDeadlocks::triples(self.level);
            self.budget.bytes += self.triples.bytes();
        }
    }

    /// The moves from the start to `state`: per push, a shortest walk (boxes as walls)
    /// from the player's square to the square behind the box, then the push.
    fn read_solution(&mut self, state: u32) -> String {
        let (grid, k) = (self.grid, self.k);
        let mut chain = vec![state];
        let mut at = state;
        while self.parent[at as usize] != ROOT {
            at = self.parent[at as usize];
            chain.push(at);
        }
        chain.reverse();
        self.occupied.fill(false);
        let mut player = self.level.player();
        let mut moves = String::new();
        for pair in chain.windows(2) {
            let (before, after) = (self.state(pair[0]), self.state(pair[1]));
            let from = before[..k].iter().find(|b| !after[..k].contains(b));
            let to = after[..k].iter().find(|b| !before[..k].contains(b));
            let (Some(&from), Some(&to)) = (from, to) else {
                continue;
            };
            let (from, to) = (CellId::new(usize::from(from)), CellId::new(usize::from(to)));
            let Some(dir) = Dir::ALL
                .into_iter()
                .find(|&d| grid.neighbour(from, d) == Some(to))
            else {
                continue;
            };
            let before: Vec<u16> = before[..k].to_vec();
            for &b in &before {
                self.occupied[usize::from(b)] = true;
            }
            self.walker.run(grid, &self.occupied, player);
            for &b in &before {
                self.occupied[usize::from(b)] = false;
            }
            if let Some(behind) = grid.neighbour(from, dir.opposite()) {
                moves.extend(
                    self.walker
                        .walk_to(grid, behind)
                        .into_iter()
                        .map(walk_letter),
                );
            }
            moves.push(push_letter(dir));
            player = from;
        }
        moves
    }
}

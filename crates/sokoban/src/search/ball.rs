//! The fewest moves (or pushes) left, exactly, near the end: a breadth-first search
//! backwards from the solved states, layer by layer while it stays small ("perimeter
//! search"), over (box squares, the player's square) by moves, or (box squares, the
//! player's region) by pushes.
//!
//! # Why it holds
//! By moves ([`Layer::Move`], `--metric moves`): a state's moves left are its distance to
//! a solved state in the graph whose edges are single moves (a step of the player, or a
//! step that pushes a box). Breadth-first from every solved state at once (the boxes on
//! the goals, the player on any other square) along those edges reversed (the player
//! steps back, or steps back pulling the box in front of it), every state found at layer
//! `d` has exactly `d` moves left; once layers `0..=radius` are complete, a state not
//! found has more than `radius` moves left. So a state's moves left are at least what the
//! ball says: its layer when it is in, else `radius + 1`.
//!
//! By pushes ([`Layer::Push`], `--metric pushes`): the same over (box squares, the
//! player's region), one pull a layer (from any square of the region, the box beside the
//! player comes onto the player's square and the player steps back), the layer written on
//! every square of the region: the pushes left of a state do not depend on where in its
//! region the player stands, so the exact search reads it by the player's square too.
//!
//! The pulls never bring a box onto a dead square (a state found backwards is solvable),
//! so nothing is pruned and the layers are exact.
//!
//! What it brings: where a short solution walks around many boxes (Microban 145, 146:
//! twelve boxes, each one push from a goal), the bounds by the boxes alone see few of the
//! walks; the ball sees them all for the last `radius` moves, and lifts every state
//! outside it to `radius + 1`, so the forward search needs only reach the ball. By pushes,
//! it sees what the matching misses near the end (Microban 93: the player shut in by the
//! boxes on the doors).
//!
//! # Complexity
//! Per state of the ball: by moves 4 reverse steps and 4 pulls, by pushes a walk over the
//! region and 4 pulls per square of it; a pull an O(k log k) sort and a hash lookup (and
//! by pushes a walk over the child's region when new); memory one byte per (layout,
//! square) and `2k` bytes per layout, plus the index. Per lookup from the forward search:
//! an O(k) key and one probe. A growth makes the pulls of a state (by pushes) or of a run
//! of [`RUN`] states (by moves) before looking any of them up, and prefetches their index
//! slots and layer lines (`index::prefetch`): in a ball of millions of layouts each
//! lookup is a cache miss, and made together they overlap.

use grid_core::{CellId, Dir};

use super::budget::Budget;
use super::index::{self, EMPTY, Index};
use super::walker::Walker;
use crate::parse::Level;

/// A square of a layout not (yet) in the ball.
const UNSEEN: u8 = u8::MAX;

/// How many layers beyond the ball's radius the forward search's nearest state may lie
/// for the ball to grow on ([`Ball::worth_growing`]): a growth adds a layer or a few.
const GROW_REACH: u32 = 4;

/// When the ball is built and how far it grows: see [`BallPlan::default`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BallPlan {
    /// The expansions of the forward search after which it is first built (most levels
    /// are solved before and never pay for it); it grows again each time the expansions
    /// double.
    pub after: u64,
    /// Each time, it grows to at most this many states per expansion made so far, so
    /// that it costs a share of the forward search's work.
    pub per_expansion: u64,
    /// The states it holds at most: the layer that passes this is the last.
    pub states: u64,
    /// The bytes it takes at most (and at most a third of what the search's budget
    /// has left when it is first built): the layer that does not fit is the last, part
    /// built.
    pub bytes: u64,
}

impl Default for BallPlan {
    /// First after 20,000 expansions, up to 64 states per expansion, 8 million states
    /// and 384 MiB.
    fn default() -> Self {
        BallPlan {
            after: 20_000,
            per_expansion: 64,
            states: 8 << 20,
            bytes: 384 << 20,
        }
    }
}

/// How many states of a layer's edge a growing ball takes between two looks at its stop
/// (the clock and the interrupt): a layer of millions of states took 2 s past a 10 s
/// limit on Microban 153 without them.
const STOP_EVERY: usize = 1024;

/// What one layer of a [`Ball`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layer {
    /// One move (`--metric moves`): a state is (boxes, the player's square).
    Move,
    /// One push (the first phase of `--metric pushes`): a state is (boxes, the player's
    /// region), its layer written on every square of the region.
    Push,
}

impl BallPlan {
    /// The states a ball of `layer` may hold `expanded` expansions into the search: by
    /// pushes an eighth of [`BallPlan::per_expansion`] (a state costs a walk over its
    /// region and more pulls: at the full share, the exact search's tests on generated
    /// levels took 24 CPU s more, most of it in the ball).
    pub(super) fn states_after(&self, expanded: u64, layer: Layer) -> u64 {
        let share = match layer {
            Layer::Move => self.per_expansion,
            Layer::Push => self.per_expansion / 8,
        };
        self.states.min(share.saturating_mul(expanded))
    }
}

/// The backward ball around the solved states (see the module documentation).
#[derive(Debug)]
pub(super) struct Ball {
    layer: Layer,
    k: usize,
    /// The squares of the level.
    n: usize,
    /// Per layout, its k box squares, sorted.
    words: Vec<u16>,
    /// Per layout, per square, the moves left with the player there, or [`UNSEEN`].
    dist: Vec<u8>,
    index: Index,
    /// Every state with at most this many moves left is in the ball; 0 when it is empty
    /// (then it answers 0).
    radius: u32,
    /// The states with `radius` moves left, from which the next layer is built; empty
    /// when the ball grows no more.
    edge: Vec<(u32, u16)>,
    /// Where a growth stopped by its `stop` left off: the next state of `edge` to grow
    /// from, and the part of the next layer already found (its states exact), taken up
    /// by the next growth.
    resume: (usize, Vec<(u32, u16)>),
    /// How many states of the edge a growth takes between two looks at its stop
    /// ([`STOP_EVERY`]; fewer in the tests).
    stop_every: usize,
    /// The states in the ball.
    states: u64,
    /// What it holds, counted against its own limit. Without a deadline: an index that
    /// did not double for the clock would end the ball for good (a layer that does not
    /// fit is its last), where a growth stopped by the clock is taken up again; its index
    /// (a few million layouts at most) doubles in a fraction of a second.
    pub(super) budget: Budget,
}

impl Ball {
    /// The solved states of `level` (layer 0, radius 0: the ball answers 0 until it
    /// grows), to take at most `bytes`; `None` when the level has not as many goals as
    /// boxes, or when they do not fit.
    pub(super) fn new(level: &Level, layer: Layer, bytes: u64) -> Option<Self> {
        let grid = level.grid();
        let (n, k) = (grid.cell_count(), level.boxes().len());
        if k == 0 || level.goals().len() != k || n >= usize::from(u16::MAX) {
            return None;
        }
        let mut ball = Ball {
            layer,
            k,
            n,
            words: Vec::new(),
            dist: Vec::new(),
            index: Index::new(k, n),
            radius: 0,
            edge: Vec::new(),
            resume: (0, Vec::new()),
            stop_every: STOP_EVERY,
            states: 0,
            budget: Budget::new(bytes),
        };
        ball.budget.bytes += ball.index.bytes();
        let mut goals: Vec<u16> = level.goals().iter().map(|g| g.index() as u16).collect();
        goals.sort_unstable();
        let solved = ball.layout_of(&goals)?;
        let mut occupied = vec![false; n];
        for &g in &goals {
            occupied[usize::from(g)] = true;
        }
        let mut walker = Walker::new(n);
        for c in 0..n {
            if occupied[c] || ball.dist[solved as usize * n + c] != UNSEEN {
                continue;
            }
            if !ball.budget.room(&mut ball.edge, 1) {
                return None;
            }
            ball.mark(level, &occupied, solved, c as u16, 0, &mut walker);
            ball.edge.push((solved, c as u16));
        }
        ball.states = ball.edge.len() as u64;
        Some(ball)
    }

    /// Adds whole layers while the ball holds at most `states` states (the layer that
    /// passes it is the last added), its budget allows, a state is left to grow from and
    /// `stop` (asked every [`STOP_EVERY`] states grown from) says go on. A layer that does
    /// not fit is kept as far as it was built (its states are exact), and the ball grows
    /// no more; a layer stopped is kept too, and the next growth goes on with it where it
    /// stopped (the first phase hands its ball, stopped at its own deadline, to the exact
    /// search, which grows it further).
    pub(super) fn grow(&mut self, level: &Level, states: u64, stop: &dyn Fn() -> bool) {
        if self.layer == Layer::Push {
            self.grow_pushes(level, states, stop);
            return;
        }
        let grid = level.grid();
        let (n, k) = (self.n, self.k);
        let mut occupied = vec![false; n];
        let mut pulled = vec![0u16; k];
        // A run of edge states' steps back, made first and looked up after (see
        // [`Step`]), and the pulled layouts, `k` squares each.
        let (mut steps, mut layouts) = (Vec::<Step>::new(), Vec::<u16>::new());
        while !self.edge.is_empty() && self.radius + 1 < u32::from(UNSEEN) && self.states <= states
        {
            let step = (self.radius + 1) as u8;
            let edge = std::mem::take(&mut self.edge);
            let (from, mut next) = std::mem::take(&mut self.resume);
            let mut full = false;
            let mut i = from;
            while i < edge.len() {
                if i % self.stop_every == self.stop_every - 1 && i > from && stop() {
                    self.edge = edge;
                    self.resume = (i, next);
                    return;
                }
                // A run of up to RUN states, ending before the next look at the stop.
                let mut end = i + 1;
                while end < edge.len()
                    && end - i < RUN
                    && end % self.stop_every != self.stop_every - 1
                {
                    end += 1;
                }
                // Every step back of the run first, the index's slot of each pulled
                // layout loaded while the next is made (as in `grow_pushes`).
                steps.clear();
                layouts.clear();
                for &(l, p) in &edge[i..end] {
                    let boxes = &self.words[l as usize * k..(l as usize + 1) * k];
                    for &b in boxes {
                        occupied[usize::from(b)] = true;
                    }
                    let p = CellId::new(usize::from(p));
                    for dir in Dir::ALL {
                        let Some(q) = grid.neighbour(p, dir) else {
                            continue;
                        };
                        if !occupied[q.index()] {
                            // The player stepped from `q` to `p`.
                            steps.push(Step {
                                layout: l,
                                from: q,
                                pulled: None,
                            });
                            continue;
                        }
                        // The player stepped from behind `p` onto it, pushing the box on
                        // `p` to `q`: pulled back, the box stands on `p`.
                        let Some(behind) = grid.neighbour(p, dir.opposite()) else {
                            continue;
                        };
                        if occupied[behind.index()] || !pull(&mut pulled, boxes, q, p) {
                            continue;
                        }
                        let key = self.index.key(&pulled);
                        self.index.touch(key.1);
                        steps.push(Step {
                            layout: l,
                            from: behind,
                            pulled: Some((layouts.len(), key)),
                        });
                        layouts.extend_from_slice(&pulled);
                    }
                    for &b in boxes {
                        occupied[usize::from(b)] = false;
                    }
                }
                // Then each pulled layout, in the order made, and the line of each
                // square's layer loaded.
                let mut made = steps.len();
                for (j, s) in steps.iter_mut().enumerate() {
                    if let Some((o, key)) = s.pulled {
                        let Some(l2) = self.layout_keyed(&layouts[o..o + k], key) else {
                            (made, full) = (j, true);
                            break;
                        };
                        s.layout = l2;
                    }
                    index::prefetch(&self.dist[s.layout as usize * n + s.from.index()]);
                }
                for s in &steps[..made] {
                    let (l2, at) = (s.layout, s.layout as usize * n + s.from.index());
                    if self.dist[at] == UNSEEN {
                        if !self.budget.room(&mut next, 1) {
                            full = true;
                            break;
                        }
                        self.dist[at] = step;
                        next.push((l2, s.from.index() as u16));
                    }
                }
                if full {
                    break;
                }
                i = end;
            }
            self.budget.bytes -= (edge.capacity() * size_of::<(u32, u16)>()) as u64;
            drop(edge);
            self.states += next.len() as u64;
            if full {
                // Part of the next layer: exact, but not all of it.
                self.budget.bytes -= (next.capacity() * size_of::<(u32, u16)>()) as u64;
                return;
            }
            self.radius += 1;
            self.edge = next;
        }
    }

    /// Writes `step` on `square` of layout `l` (the boxes `occupied`), and with
    /// [`Layer::Push`] on every square of its region (walked by `walker`; a region is
    /// marked whole or not at all, so it is unmarked here).
    fn mark(
        &mut self,
        level: &Level,
        occupied: &[bool],
        l: u32,
        square: u16,
        step: u8,
        walker: &mut Walker,
    ) {
        let n = self.n;
        let dist = &mut self.dist[l as usize * n..(l as usize + 1) * n];
        dist[usize::from(square)] = step;
        if self.layer == Layer::Move {
            return;
        }
        walker.run(level.grid(), occupied, CellId::new(usize::from(square)));
        for c in &walker.queue {
            dist[c.index()] = step;
        }
    }

    /// [`Ball::grow`] by pushes: from each state of the last layer (a square of its
    /// region), every pull from a square of the region (the box beside the player comes
    /// onto the player's square, the player one step back), the child's region marked
    /// when new.
    fn grow_pushes(&mut self, level: &Level, states: u64, stop: &dyn Fn() -> bool) {
        let grid = level.grid();
        let (n, k) = (self.n, self.k);
        let mut occupied = vec![false; n];
        let mut boxes = vec![0u16; k];
        let mut pulled = vec![0u16; k];
        let (mut region, mut child_region) = (Walker::new(n), Walker::new(n));
        // One state's pulls and their layouts, `k` squares each.
        let (mut pulls, mut layouts) = (Vec::<Pull>::new(), Vec::<u16>::new());
        let mut children = Vec::<u32>::new();
        while !self.edge.is_empty() && self.radius + 1 < u32::from(UNSEEN) && self.states <= states
        {
            let step = (self.radius + 1) as u8;
            let edge = std::mem::take(&mut self.edge);
            let (from, mut next) = std::mem::take(&mut self.resume);
            let mut full = false;
            for (i, &(l, start)) in edge.iter().enumerate().skip(from) {
                if i % self.stop_every == self.stop_every - 1 && i > from && stop() {
                    self.edge = edge;
                    self.resume = (i, next);
                    return;
                }
                boxes.copy_from_slice(self.layout(l));
                for &b in &boxes {
                    occupied[usize::from(b)] = true;
                }
                region.run(grid, &occupied, CellId::new(usize::from(start)));
                // Every pull of the state first, each child's slot of the index loaded
                // while the next is made, then each child looked up: the lookups are
                // cache misses in an index of millions of layouts, and loaded together
                // they overlap instead of waiting one after the other.
                pulls.clear();
                layouts.clear();
                for &p in &region.queue {
                    for (_, q, behind) in grid.push_lines(p) {
                        if !occupied[q.index()] || occupied[behind.index()] {
                            continue;
                        }
                        // The box on `q` pulled onto `p`, the player onto `behind`.
                        if !pull(&mut pulled, &boxes, q, p) {
                            continue;
                        }
                        let key = self.index.key(&pulled);
                        self.index.touch(key.1);
                        layouts.extend_from_slice(&pulled);
                        pulls.push(Pull { q, p, behind, key });
                    }
                }
                // Then each child's layout, the line of its square's layer loaded the
                // same way.
                children.clear();
                for (pull, pulled) in pulls.iter().zip(layouts.chunks_exact(k)) {
                    let Some(l2) = self.layout_keyed(pulled, pull.key) else {
                        full = true;
                        break;
                    };
                    index::prefetch(&self.dist[l2 as usize * n + pull.behind.index()]);
                    children.push(l2);
                }
                for (pull, &l2) in pulls.iter().zip(&children) {
                    let Pull { q, p, behind, .. } = *pull;
                    if self.dist[l2 as usize * n + behind.index()] != UNSEEN {
                        continue;
                    }
                    if !self.budget.room(&mut next, 1) {
                        full = true;
                        break;
                    }
                    occupied[q.index()] = false;
                    occupied[p.index()] = true;
                    self.mark(
                        level,
                        &occupied,
                        l2,
                        behind.index() as u16,
                        step,
                        &mut child_region,
                    );
                    occupied[p.index()] = false;
                    occupied[q.index()] = true;
                    next.push((l2, behind.index() as u16));
                    self.states += 1;
                }
                for &b in &boxes {
                    occupied[usize::from(b)] = false;
                }
                if full {
                    break;
                }
            }
            self.budget.bytes -= (edge.capacity() * size_of::<(u32, u16)>()) as u64;
            drop(edge);
            if full {
                self.budget.bytes -= (next.capacity() * size_of::<(u32, u16)>()) as u64;
                return;
            }
            self.radius += 1;
            self.edge = next;
        }
    }

    fn layout(&self, l: u32) -> &[u16] {
        &self.words[l as usize * self.k..(l as usize + 1) * self.k]
    }

    /// The layout of `boxes` (sorted), added with every square unseen when new; `None`
    /// when the budget does not allow it.
    fn layout_of(&mut self, boxes: &[u16]) -> Option<u32> {
        self.layout_keyed(boxes, self.index.key(boxes))
    }

    /// [`Ball::layout_of`] with the index's key of `boxes` already made.
    fn layout_keyed(&mut self, boxes: &[u16], key: ([u64; 2], u64)) -> Option<u32> {
        let (words, k) = (&self.words, self.k);
        let slot = match self
            .index
            .find(boxes, key, |l| &words[l as usize * k..l as usize * k + k])
        {
            Ok(l) => return Some(l),
            Err(slot) => slot,
        };
        let l = (self.words.len() / k) as u32;
        if l >= EMPTY - 1
            || !self.budget.room(&mut self.words, k)
            || !self.budget.room(&mut self.dist, self.n)
        {
            return None;
        }
        self.words.extend_from_slice(boxes);
        self.dist.resize(self.dist.len() + self.n, UNSEEN);
        self.index
            .insert(key.0, slot, l, &mut self.budget)
            .then_some(l)
    }

    /// The moves left at least with the boxes on `boxes` (sorted) and the player on
    /// `player`: exact inside the ball, `radius + 1` outside; 0 when off.
    #[inline]
    pub(super) fn bound(&self, boxes: &[u16], player: u16) -> u32 {
        self.bound_at(self.find(boxes), player)
    }

    /// The number of the layout `boxes` (sorted) in the ball, `None` when it has none of
    /// its states: what [`Ball::bound_at`] reads, for a caller that keeps it per layout
    /// (until the ball grows).
    #[inline]
    pub(super) fn find(&self, boxes: &[u16]) -> Option<u32> {
        let key = self.index.key(boxes);
        let (words, k) = (&self.words, self.k);
        self.index
            .find(boxes, key, |l| &words[l as usize * k..l as usize * k + k])
            .ok()
    }

    /// [`Ball::bound`] of the layout [`Ball::find`] answered `layout` for, the player on
    /// `player`.
    #[inline]
    pub(super) fn bound_at(&self, layout: Option<u32>, player: u16) -> u32 {
        if self.radius == 0 {
            return 0;
        }
        match layout.map(|l| self.dist[l as usize * self.n + usize::from(player)]) {
            Some(UNSEEN) | None => self.radius + 1,
            Some(d) => u32::from(d),
        }
    }

    /// Whether growing it further can pay, `nearest` being the least bound of a state
    /// the forward search has made so far (before the ball's own look). The ball is
    /// looked up only for a state whose bound is within its radius, so while every state
    /// made lies more than [`GROW_REACH`] layers beyond it, a growth costs its states and
    /// raises nothing: on XSokoban 2 and 6 the forward search's nearest states stay at 73
    /// and 40 pushes from the goals while the ball reaches 21 and 30, and the ball took
    /// two thirds of the first phase's time for no state raised.
    pub(super) fn worth_growing(&self, nearest: u32) -> bool {
        self.radius == 0 || nearest <= self.radius.saturating_add(GROW_REACH)
    }

    /// Every state with more moves left than this is outside the ball.
    #[inline]
    pub(super) fn radius(&self) -> u32 {
        self.radius
    }

    /// The layouts in the ball.
    pub(super) fn layouts(&self) -> usize {
        self.words.len().checked_div(self.k).unwrap_or(0)
    }
}

/// How many states of the edge [`Ball::grow`] by moves steps back from at once: their
/// pulled layouts' slots of the index are loaded together (a state has one or two pulls).
const RUN: usize = 16;

/// One step back of [`Ball::grow`] by moves: the player onto `from`, in `layout` (the
/// state's own when it only stepped; with a pull, where its layout starts in the run's
/// layouts and its key, and `layout` its number once looked up).
#[derive(Debug, Clone, Copy)]
struct Step {
    layout: u32,
    from: CellId,
    pulled: Option<(usize, ([u64; 2], u64))>,
}

/// One pull of [`Ball::grow_pushes`]: the box on `q` onto `p`, the player from `p` onto
/// `behind`, and the index's key of the layout it makes.
#[derive(Debug, Clone, Copy)]
struct Pull {
    q: CellId,
    p: CellId,
    behind: CellId,
    key: ([u64; 2], u64),
}

/// The box layout `boxes` (sorted squares) with the box on `from` pulled onto `onto`, into
/// `pulled` (sorted); `false` when no box stands on `from`.
///
/// # Complexity
/// O(k log k) for k boxes.
fn pull(pulled: &mut [u16], boxes: &[u16], from: CellId, onto: CellId) -> bool {
    pulled.copy_from_slice(boxes);
    let Some(i) = pulled.iter().position(|&b| usize::from(b) == from.index()) else {
        return false;
    };
    pulled[i] = onto.index() as u16;
    pulled.sort_unstable();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::rng::SplitMix64;
    use std::cell::Cell;

    /// A ball grown in steps stopped every other look (its layers taken up where they
    /// stopped) ends as the ball grown in one go: the same layouts, and the same answer
    /// for every layout and player square, by moves and by pushes.
    #[test]
    fn a_growth_stopped_and_taken_up_ends_as_one_in_one_go() {
        let mut rng = SplitMix64::new(2026);
        let (mut compared, mut stops) = (0, 0);
        for round in 0..120 {
            let text = crate::generate::random_level(&mut rng, 2 + round % 3, 6, 10);
            let Ok(level) = text.parse::<Level>() else {
                continue;
            };
            for layer in [Layer::Move, Layer::Push] {
                let Some(mut whole) = Ball::new(&level, layer, 64 << 20) else {
                    continue;
                };
                let mut parts = Ball::new(&level, layer, 64 << 20).unwrap();
                parts.stop_every = 3;
                whole.grow(&level, u64::MAX, &|| false);
                let looks = Cell::new(0u32);
                let stop = || {
                    looks.set(looks.get() + 1);
                    looks.get() % 2 == 0
                };
                for _ in 0..100_000 {
                    if parts.edge.is_empty() && parts.resume.0 == 0 {
                        break;
                    }
                    parts.grow(&level, u64::MAX, &stop);
                }
                stops += looks.get() / 2;
                assert_eq!(parts.radius(), whole.radius(), "{text}");
                assert_eq!(parts.layouts(), whole.layouts(), "{text}");
                for l in 0..whole.layouts() as u32 {
                    let boxes = whole.layout(l).to_vec();
                    for p in 0..whole.n as u16 {
                        if boxes.contains(&p) {
                            continue;
                        }
                        assert_eq!(parts.bound(&boxes, p), whole.bound(&boxes, p), "{text}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
        assert!(stops > 100, "{stops}");
    }

    /// The ball against a plain search: on generated levels every state reachable from
    /// the start is found by making the player's moves forwards (a step, or a push), and
    /// its fewest moves and fewest pushes to a solved state come from a breadth-first
    /// search backwards over those forward moves (no pull is made). A ball grown whole,
    /// and one stopped after its first few layers, answers exactly that within its
    /// radius and the radius plus one past it (or where no solved state can be reached),
    /// by moves and by pushes.
    #[test]
    fn a_ball_answers_what_a_search_of_the_forward_moves_finds() {
        use std::collections::{HashMap, VecDeque};
        let mut rng = SplitMix64::new(20_261_207);
        let (mut checked, mut outside) = (0, 0);
        for round in 0..90 {
            let text = crate::generate::random_level(&mut rng, 1 + round % 3, 6, 15);
            let Ok(level) = text.parse::<Level>() else {
                continue;
            };
            let grid = level.grid();
            let sorted = |cells: &[CellId]| {
                let mut squares: Vec<u16> = cells.iter().map(|c| c.index() as u16).collect();
                squares.sort_unstable();
                squares
            };
            let goals = sorted(level.goals());
            // Every state from the start, and each forward move as (from, to, pushed).
            let start = (sorted(level.boxes()), level.player().index() as u16);
            let mut number = HashMap::from([(start.clone(), 0usize)]);
            let (mut states, mut moves) = (vec![start], Vec::new());
            let mut at = 0;
            while at < states.len() && states.len() < 20_000 {
                let (boxes, player) = states[at].clone();
                for dir in Dir::ALL {
                    let Some(q) = grid.neighbour(CellId::new(usize::from(player)), dir) else {
                        continue;
                    };
                    let q16 = q.index() as u16;
                    let mut after = boxes.clone();
                    let pushed = boxes.contains(&q16);
                    if pushed {
                        let Some(r) = grid.neighbour(q, dir) else {
                            continue;
                        };
                        if boxes.contains(&(r.index() as u16)) {
                            continue;
                        }
                        let i = after.iter().position(|&b| b == q16).unwrap();
                        after[i] = r.index() as u16;
                        after.sort_unstable();
                    }
                    let next = (after, q16);
                    let count = number.len();
                    let to = *number.entry(next.clone()).or_insert(count);
                    if to == count {
                        states.push(next);
                    }
                    moves.push((at, to, pushed));
                }
                at += 1;
            }
            if at < states.len() {
                continue;
            }
            // Backwards from the solved states: moves (every edge 1), pushes (0-1).
            let mut into = vec![Vec::new(); states.len()];
            for &(from, to, pushed) in &moves {
                into[to].push((from, pushed));
            }
            let left = |by_pushes: bool| {
                let mut dist = vec![u32::MAX; states.len()];
                let mut queue = VecDeque::new();
                for (i, (boxes, _)) in states.iter().enumerate() {
                    if *boxes == goals {
                        dist[i] = 0;
                        queue.push_back(i);
                    }
                }
                while let Some(i) = queue.pop_front() {
                    for &(from, pushed) in &into[i] {
                        let cost = u32::from(pushed || !by_pushes);
                        if dist[i] + cost < dist[from] {
                            dist[from] = dist[i] + cost;
                            if cost == 0 {
                                queue.push_front(from);
                            } else {
                                queue.push_back(from);
                            }
                        }
                    }
                }
                dist
            };
            for (layer, dist) in [(Layer::Move, left(false)), (Layer::Push, left(true))] {
                for most in [u64::MAX, 40] {
                    let Some(mut ball) = Ball::new(&level, layer, 64 << 20) else {
                        continue;
                    };
                    ball.grow(&level, most, &|| false);
                    let r = ball.radius();
                    for (i, (boxes, player)) in states.iter().enumerate() {
                        let want = if dist[i] <= r { dist[i] } else { r + 1 };
                        assert_eq!(ball.bound(boxes, *player), want, "{layer:?} {text}");
                        checked += 1;
                        outside += usize::from(dist[i] > r);
                    }
                }
            }
        }
        // 91,480 answers, 80,599 of them past the radius (or with no solved state).
        assert!(checked - outside > 5_000, "{checked} {outside}");
        assert!(outside > 5_000, "{outside}");
    }

    /// What the growth's gate ([`Ball::worth_growing`]) rests on: a ball answers at most
    /// its radius plus one for any state, so a growth of one layer raises no state whose
    /// bound is already past the radius plus two. Checked on generated levels, both
    /// layers, at every radius: the answers of every layout in the ball and of the start
    /// (in it or not) stay within the radius plus one, and each growth by one layer raises
    /// the start's answer by at most one; the gate opens before the first layer and then exactly
    /// up to [`GROW_REACH`] layers past the radius.
    #[test]
    fn a_ball_answers_at_most_one_past_its_radius_and_grows_only_near_the_search() {
        let mut rng = SplitMix64::new(612);
        let mut checked = 0;
        for round in 0..60 {
            let text = crate::generate::random_level(&mut rng, 2 + round % 3, 6, 10);
            let Ok(level) = text.parse::<Level>() else {
                continue;
            };
            let mut start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
            start.sort_unstable();
            let player = level.player().index() as u16;
            for layer in [Layer::Move, Layer::Push] {
                let Some(mut ball) = Ball::new(&level, layer, 64 << 20) else {
                    continue;
                };
                assert!(ball.worth_growing(u32::MAX), "{text}");
                let mut before = ball.bound(&start, player);
                while ball.radius() < 40 && !ball.edge.is_empty() {
                    let states = ball.states;
                    ball.grow(&level, states, &|| false);
                    let r = ball.radius();
                    let now = ball.bound(&start, player);
                    assert!(now <= r + 1, "{text}");
                    // One layer more (radius 0 answers 0 for everything).
                    assert!(
                        now >= before && (before == 0 || now <= before + 1),
                        "{text}"
                    );
                    before = now;
                    for l in 0..ball.layouts() as u32 {
                        let boxes = ball.layout(l).to_vec();
                        for p in 0..ball.n as u16 {
                            if !boxes.contains(&p) {
                                assert!(ball.bound(&boxes, p) <= r + 1, "{text}");
                            }
                        }
                    }
                    assert!(ball.worth_growing(r + GROW_REACH), "{text}");
                    assert!(!ball.worth_growing(r + GROW_REACH + 1), "{text}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }
}

//! The exact search: A* over (box squares, the player's exact square after the last push),
//! with a lexicographic cost, (pushes, moves) or (moves, pushes).
//!
//! # Method
//! A state is the sorted box squares and the square the player stands on right after the
//! push that made it. The player's square is kept exact, not normalised to its reachable
//! region, because the second key (or the first, for moves) counts the steps of the walk
//! to the next push, and that depends on where the player is. One edge is one push: the
//! player walks (boxes as walls, breadth-first) to the square behind a box and pushes it;
//! the edge costs 1 push and walk + 1 moves.
//!
//! The bound is a pair. Pushes: the minimum-cost matching of boxes to goals on lone-box
//! push distances ([`crate::matching`], [`crate::board`]), computed once per box layout,
//! and at least the parent's pushes bound less one (a child is one push from its parent:
//! the bound passed down, "pathmax", keeps `f` from falling along a path where the
//! best-side distances of the matching drop by more than one push). Moves: at least those
//! pushes, and at least, for every box, the fewest moves that bring that box alone onto a
//! goal with the player starting on its square ([`Board::lone_steps`]): the player's track
//! in any solution, the other boxes taken away, solves each one-box level. In the metric's
//! order the pair never exceeds the remaining cost lexicographically, so the first solved
//! state taken from the queue (by `Priority`) is optimal on both keys. The bound is
//! admissible but not always consistent, so a state reached again more cheaply is queued
//! again (re-opened); a queue entry whose cost is no longer its state's is skipped.
//!
//! One expansion serves every open state of the box layout with as many pushes: one walk
//! from all their squares at once ([`Walker::run_many`]) gives each push its cheapest
//! start, exactly what expanding them one by one would give. Expanding a state before its
//! turn is safe: it is expanded at its current cost, and again if that cost falls. A push
//! whose cheapest start is a state expanded before with as many pushes is skipped: that
//! expansion made the same child at the same cost.
//!
//! States are kept by box layout (`Table`): a child is looked up by its layout, then its
//! player's square among the few states the layout's cache line holds, which is also all
//! the dominance test below reads.
//!
//! Pruned, because no solution passes there (so every optimum survives for both metrics):
//! pushes onto dead squares, pushes that freeze a box off a goal ([`crate::board::Freeze`]),
//! pushes that leave the pushed box in a deadlock with one or two other boxes
//! ([`GroupDeadlocks`]),
//! and states whose matching is impossible. Pruned because another state is at least as
//! good, `--metric pushes` only: a state whose layout has a state with fewer pushes in the
//! same connected part of the floor (the player of that one walks to this square, which
//! costs no push: every continuation from here is a cheaper one from there, strictly fewer
//! pushes, whatever the moves). That state is kept, so it or one that dominates it in turn
//! (with still fewer pushes, so the chain ends) is expanded. Not for `--metric moves`,
//! where fewer pushes say nothing about the first key.
//!
//! # Complexity
//! Exponential in the number of boxes in the worst case (the problem is PSPACE-complete).
//! Per expansion: one walk search O(cells + states of the layout); per push an O(k log k)
//! sort, an O(k) hash, O(k^2) group lookups and, with `--metric pushes` when the layout already has a state
//! with fewer pushes, one walk O(cells); per new layout an O(k^3) matching for k boxes.
//! Memory: 28 bytes per state and 8 in its layout's line (one 64-byte line per layout
//! holds six states, a further line seven more), 64 + 2k bytes per layout, plus the layouts'
//! hash index and the queue, all counted against the budget.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::time::Instant;

use grid_core::{CellId, Dir, Grid};

use crate::board::{Board, Freeze, NO_STEPS};
use crate::groups::GroupDeadlocks;
use crate::matching::Matcher;
use crate::parse::Level;
use crate::{Limit, Metric, Outcome, Solution, SolveOptions};

/// "No parent": the start state.
const ROOT: u32 = u32::MAX;
/// The bound of a state that cannot be solved (impossible matching): never queued.
const HOPELESS: u32 = u32::MAX;

/// What the table keeps per state besides its squares.
#[derive(Debug, Clone, Copy)]
struct Info {
    /// Cost from the start in the metric's order (first key, second key).
    cost: [u32; 2],
    /// Lower bound on the cost still needed, in the metric's order; its
    /// first key is [`HOPELESS`] when the state cannot be solved.
    bound: [u32; 2],
    /// The state it was reached from, or [`ROOT`].
    parent: u32,
    /// Its box layout (a number in [`Table`]'s layouts).
    layout: u32,
    /// The player's square.
    player: u16,
    /// Expanded at its current cost (its queue entries are then stale).
    closed: bool,
}

/// When an open state is taken: smallest `f` (cost so far plus bound, a pair in the
/// metric's order) first, its first key before all. With `--metric pushes`, among equal
/// first keys of `f` the fewest pushes so far come first ([`Order::ShallowFirst`]), then
/// the second key of `f`; with `--metric moves`, among equal `f` the most moves so far
/// ([`Order::DeeperFirst`]: the deepest state, nearest the goal by the bound).
///
/// Both keep A* exact: a goal state has no bound, so its first key so far equals the
/// first key of its `f`, the largest of its `f` level; every state of that level with an
/// optimal solution behind it, fewer pushes so far or as many and a smaller second key of
/// `f`, comes out before a goal with a worse second key.
///
/// Why shallow first for pushes: a box layout is then mostly taken after every state one
/// push before it at this level, with all its player squares in (one expansion of
/// [`Walker::run_many`] then serves them all, see `Role`), instead of once per late square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Priority {
    f0: u32,
    shallow_first: u32,
    f1: u32,
    deeper_first: Reverse<u32>,
}

/// How [`Priority`] breaks ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Fewest pushes so far first, before the second key of `f` (`--metric pushes`).
    ShallowFirst,
    /// Most of the first key so far first, after the second key of `f` (`--metric moves`).
    DeeperFirst,
}

/// The open states, by [`Priority`]: one bucket per priority, last in first out within it.
///
/// Why buckets and not a binary heap: priorities take few distinct values (pushes and
/// moves are small integers), so a map of buckets does O(log buckets) work per operation
/// on 4-byte entries instead of O(log states) on 16-byte ones.
#[derive(Debug)]
struct Queue {
    buckets: BTreeMap<Priority, Vec<u32>>,
    order: Order,
}

impl Queue {
    fn new(order: Order) -> Self {
        Queue {
            buckets: BTreeMap::new(),
            order,
        }
    }

    /// Queues `state` with this `f` and this first key so far.
    fn push(&mut self, f: [u32; 2], depth: u32, state: u32) {
        let priority = match self.order {
            Order::ShallowFirst => Priority {
                f0: f[0],
                shallow_first: depth,
                f1: f[1],
                deeper_first: Reverse(0),
            },
            Order::DeeperFirst => Priority {
                f0: f[0],
                shallow_first: 0,
                f1: f[1],
                deeper_first: Reverse(depth),
            },
        };
        self.buckets.entry(priority).or_default().push(state);
    }

    fn pop(&mut self) -> Option<([u32; 2], u32)> {
        let mut first = self.buckets.first_entry()?;
        let f = [first.key().f0, first.key().f1];
        let state = first.get_mut().pop();
        if first.get().is_empty() {
            first.remove();
        }
        state.map(|s| (f, s))
    }
}

/// Bytes counted per queue entry: 4, doubled for the growth of the buckets.
const QUEUE_ENTRY_BYTES: u64 = 8;

/// Memory accounting against `--memory-mib`.
#[derive(Debug)]
struct Budget {
    bytes: u64,
    limit: u64,
}

impl Budget {
    /// Makes room for one more element in `v`, growing it by doubling when the budget
    /// allows; `false` when it does not.
    fn room<T>(&mut self, v: &mut Vec<T>) -> bool {
        if v.len() < v.capacity() {
            return true;
        }
        let extra = v.capacity().max(1024);
        let bytes = (extra * size_of::<T>()) as u64;
        if self.bytes + bytes > self.limit {
            return false;
        }
        v.reserve_exact(extra);
        self.bytes += ((v.capacity() - v.len()) * size_of::<T>()) as u64;
        true
    }
}

/// One slot of a hash index: the key of a state (or box layout) and its number ([`EMPTY`]
/// when free).
///
/// When every square fits a byte and there are at most 16 of them (most real levels), the
/// key is the squares themselves, packed, so a lookup reads one slot and nothing else;
/// otherwise it is a 64-bit hash and equal keys are confirmed on the squares.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: [u64; 2],
    id: u32,
}

/// A free [`Slot`].
const EMPTY: u32 = u32::MAX;

/// An open-addressing hash index (linear probing, at most half full) from squares to the
/// numbers of the entries that hold them; the squares themselves are kept by the caller,
/// `stride` words per entry.
#[derive(Debug)]
struct Index {
    slots: Vec<Slot>,
    /// The key is the packed squares (see [`Slot`]).
    packed: bool,
}

/// What an [`Index`] lookup found: the entry, or the free slot where it goes.
type Found = Result<u32, usize>;

impl Index {
    fn new(stride: usize, cells: usize) -> Self {
        Index {
            slots: vec![
                Slot {
                    key: [0; 2],
                    id: EMPTY
                };
                1 << 10
            ],
            packed: cells <= 256 && stride <= 16,
        }
    }

    fn bytes(&self) -> u64 {
        (self.slots.len() * size_of::<Slot>()) as u64
    }

    /// Loads the first slot of `hash`, so that the lookup that follows finds it in cache.
    #[inline]
    fn touch(&self, hash: u64) {
        std::hint::black_box(self.slots[hash as usize & (self.slots.len() - 1)].id);
    }

    /// The slot key of `words` and the hash that places it.
    #[inline]
    fn key(&self, words: &[u16]) -> ([u64; 2], u64) {
        if self.packed {
            let mut key = [0u64; 2];
            for (i, &w) in words.iter().enumerate() {
                key[i / 8] |= u64::from(w) << (8 * (i % 8));
            }
            (key, mix(key[0] ^ mix(key[1])))
        } else {
            let h = words
                .iter()
                .fold(0u64, |h, &w| mix(h.rotate_left(17) ^ u64::from(w)));
            ([h, 0], h)
        }
    }

    /// The entry with these squares, if present, else the free slot where it goes;
    /// `words_of` gives the squares of an entry (only read when the key is a hash).
    #[inline]
    fn find<'w>(
        &self,
        words: &[u16],
        key: ([u64; 2], u64),
        words_of: impl Fn(u32) -> &'w [u16],
    ) -> Found {
        let mask = self.slots.len() - 1;
        let mut i = key.1 as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.id == EMPTY {
                return Err(i);
            }
            if slot.key == key.0 && (self.packed || words_of(slot.id) == words) {
                return Ok(slot.id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records entry `id` (number `count - 1` of `count`) at the free `slot`, doubling
    /// the slots when more than half full; `false` when the budget does not allow that.
    fn insert<'w>(
        &mut self,
        key: [u64; 2],
        slot: usize,
        id: u32,
        budget: &mut Budget,
        words_of: impl Fn(u32) -> &'w [u16],
    ) -> bool {
        self.slots[slot] = Slot { key, id };
        let count = id as usize + 1;
        if count * 2 <= self.slots.len() {
            return true;
        }
        let old = self.bytes();
        if budget.bytes + 2 * old > budget.limit {
            return false;
        }
        budget.bytes += old;
        let empty = Slot {
            key: [0; 2],
            id: EMPTY,
        };
        let mut slots = vec![empty; self.slots.len() * 2];
        let mask = slots.len() - 1;
        for e in 0..count as u32 {
            let (key, hash) = self.key(words_of(e));
            let mut i = hash as usize & mask;
            while slots[i].id != EMPTY {
                i = (i + 1) & mask;
            }
            slots[i] = Slot { key, id: e };
        }
        self.slots = slots;
        true
    }
}

/// The states seen, by box layout: the layouts' squares in one flat array with an
/// [`Index`] over them; per layout one cache line ([`Layout`]) with its matching bound and
/// its first states ([`Member`]: the player's square and the pushes, all a lookup or a
/// dominance test reads), more in [`More`] blocks; per state its [`Info`].
///
/// Why layouts first: a layout is reached with the player on several squares (about four
/// to seven on the larger Microban levels), and the matching bound depends on the boxes
/// only, so it is computed once per layout; one expansion takes every open state of the
/// layout at once ([`Walker::run_many`]). A state is found by its layout, then its
/// player's square among the layout's members, which are on the line just read: two cache
/// misses per child where a table over whole states, then the layout, then the layout's
/// states one by one, took up to three and two per other state, and 12 + 6k bytes less
/// per state.
#[derive(Debug)]
struct Table {
    /// Boxes per layout.
    k: usize,
    info: Vec<Info>,
    /// Per layout, its k box squares.
    layout_words: Vec<u16>,
    layouts: Vec<Layout>,
    /// The members of layouts past the [`HEAD_MEMBERS`] first.
    more: Vec<More>,
    layout_index: Index,
}

/// One state of a layout, as its layout keeps it.
#[derive(Debug, Clone, Copy, Default)]
struct Member {
    state: u32,
    /// The player's square.
    player: u16,
    /// Its pushes, at most [`PUSHES_CAP`]; [`HOPELESS_MEMBER`] when it cannot be solved.
    pushes: u16,
}

/// The largest pushes a [`Member`] holds exactly: a member with more holds this, so the
/// dominance test, which needs exact pushes, is not used past it (it is an optional
/// pruning).
const PUSHES_CAP: u16 = u16::MAX - 1;
/// The pushes of a [`Member`] that cannot be solved.
const HOPELESS_MEMBER: u16 = u16::MAX;

/// The members a [`Layout`] holds itself.
const HEAD_MEMBERS: usize = 6;
/// The members one [`More`] block holds.
const MORE_MEMBERS: usize = 7;

/// What the table keeps per box layout: one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Layout {
    /// Its matching bound on the pushes (or [`HOPELESS`]).
    pushes: u32,
    /// The fewest pushes of its states that are not hopeless (`u32::MAX` before one).
    fewest: u32,
    /// Its states in all.
    len: u32,
    /// The newest [`More`] block, or [`EMPTY`]: blocks are chained newest first, and only
    /// the newest may be partly filled.
    more: u32,
    head: [Member; HEAD_MEMBERS],
}

/// Members of one layout past its first ones: one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct More {
    members: [Member; MORE_MEMBERS],
    /// The next older block, or [`EMPTY`].
    next: u32,
}

impl Table {
    fn new(k: usize, cells: usize) -> Self {
        Table {
            k,
            info: Vec::new(),
            layout_words: Vec::new(),
            layouts: Vec::new(),
            more: Vec::new(),
            layout_index: Index::new(k, cells),
        }
    }

    fn layout(&self, layout: u32) -> &[u16] {
        let at = layout as usize * self.k;
        &self.layout_words[at..at + self.k]
    }

    /// The layout of these box squares, if seen.
    #[inline]
    fn find_layout(&self, boxes: &[u16], key: ([u64; 2], u64)) -> Found {
        self.layout_index.find(boxes, key, |l| self.layout(l))
    }

    /// Loads the line of `layout`, so that reading its members soon finds them in cache.
    #[inline]
    fn touch_layout(&self, layout: u32) {
        std::hint::black_box(self.layouts[layout as usize].len);
    }

    /// The members of `layout`, newest first, into `out` (cleared first).
    fn members(&self, layout: u32, out: &mut Vec<Member>) {
        out.clear();
        let l = &self.layouts[layout as usize];
        let mut extra = (l.len as usize).saturating_sub(HEAD_MEMBERS);
        let mut block = l.more;
        while block != EMPTY {
            let b = &self.more[block as usize];
            let filled = (extra - 1) % MORE_MEMBERS + 1;
            out.extend(b.members[..filled].iter().rev());
            extra -= filled;
            block = b.next;
        }
        let head = (l.len as usize).min(HEAD_MEMBERS);
        out.extend(l.head[..head].iter().rev());
    }

    /// The member of `layout` with the player on `player`, if any.
    #[inline]
    fn member_mut(&mut self, layout: u32, player: u16) -> Option<&mut Member> {
        let l = &self.layouts[layout as usize];
        let head = (l.len as usize).min(HEAD_MEMBERS);
        if let Some(i) = l.head[..head].iter().position(|m| m.player == player) {
            return Some(&mut self.layouts[layout as usize].head[i]);
        }
        let mut extra = (l.len as usize).saturating_sub(HEAD_MEMBERS);
        let mut block = l.more;
        while block != EMPTY {
            let b = &self.more[block as usize];
            let filled = (extra - 1) % MORE_MEMBERS + 1;
            if let Some(i) = b.members[..filled].iter().position(|m| m.player == player) {
                return Some(&mut self.more[block as usize].members[i]);
            }
            extra -= filled;
            block = b.next;
        }
        None
    }

    /// The layout of the boxes `boxes` (their key `key`), added with its matching bound
    /// `pushes()` when new; `None` when the budget does not allow it.
    fn layout_of(
        &mut self,
        boxes: &[u16],
        key: ([u64; 2], u64),
        pushes: impl FnOnce() -> u32,
        budget: &mut Budget,
    ) -> Option<u32> {
        let slot = match self.find_layout(boxes, key) {
            Ok(layout) => return Some(layout),
            Err(slot) => slot,
        };
        let layout = self.layouts.len() as u32;
        if layout >= EMPTY - 1 || !budget.room(&mut self.layouts) {
            return None;
        }
        // `room` grows by at least 1024 words, more than one layout's.
        if self.layout_words.len() + boxes.len() > self.layout_words.capacity()
            && !budget.room(&mut self.layout_words)
        {
            return None;
        }
        self.layout_words.extend_from_slice(boxes);
        self.layouts.push(Layout {
            pushes: pushes(),
            fewest: u32::MAX,
            len: 0,
            more: EMPTY,
            head: [Member::default(); HEAD_MEMBERS],
        });
        let (words, k) = (&self.layout_words, self.k);
        let words_of = |l: u32| &words[l as usize * k..l as usize * k + k];
        self.layout_index
            .insert(key.0, slot, layout, budget, words_of)
            .then_some(layout)
    }

    /// Adds a new state, a member of its layout `info.layout` with `pushes` (see
    /// [`Member::pushes`]); `None` when the budget does not allow it.
    fn insert(&mut self, info: Info, pushes: u16, budget: &mut Budget) -> Option<u32> {
        let state = self.info.len() as u32;
        if state >= EMPTY - 1 || !budget.room(&mut self.info) {
            return None;
        }
        let member = Member {
            state,
            player: info.player,
            pushes,
        };
        let layout = info.layout as usize;
        let len = self.layouts[layout].len as usize;
        if len < HEAD_MEMBERS {
            self.layouts[layout].head[len] = member;
        } else if (len - HEAD_MEMBERS) % MORE_MEMBERS == 0 {
            let block = self.more.len() as u32;
            if block >= EMPTY - 1 || !budget.room(&mut self.more) {
                return None;
            }
            let mut members = [Member::default(); MORE_MEMBERS];
            members[0] = member;
            self.more.push(More {
                members,
                next: self.layouts[layout].more,
            });
            self.layouts[layout].more = block;
        } else {
            let block = self.layouts[layout].more as usize;
            self.more[block].members[(len - HEAD_MEMBERS) % MORE_MEMBERS] = member;
        }
        self.layouts[layout].len += 1;
        self.info.push(info);
        Some(state)
    }
}

/// The pushes a [`Member`] holds for a state with `pushes` that is not hopeless.
fn member_pushes(pushes: u32) -> u16 {
    u16::try_from(pushes).map_or(PUSHES_CAP, |p| p.min(PUSHES_CAP))
}

/// A well-mixed 64-bit key for `x` (SplitMix64's finaliser): the hashes of the tables, the
/// same on every run.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Breadth-first walks of the player with the boxes as walls.
#[derive(Debug, Clone)]
pub struct Walker {
    dist: Vec<u32>,
    /// The direction of the last step into each square, for reading a walk back.
    came: Vec<Dir>,
    /// The position of the source each square was reached from, by [`Walker::run_many`].
    wave: Vec<u32>,
    /// Per source of [`Walker::run_many`]: the union-find parent of its region (the root
    /// after the walk).
    joined: Vec<u32>,
    /// Per source of [`Walker::run_many`], its tag.
    tags: Vec<u32>,
    stamp: Vec<u32>,
    round: u32,
    queue: Vec<CellId>,
}

/// One start of [`Walker::run_many`]: a square, the moves already made when the walk
/// starts there, and a number the walk reports as the origin of the squares it reaches.
#[derive(Debug, Clone, Copy)]
pub struct Source {
    /// Where the player stands.
    pub square: CellId,
    /// The moves made before.
    pub moves: u32,
    /// What [`Walker::origin`] answers for the squares best reached from here.
    pub tag: u32,
}

impl Walker {
    /// Buffers for `cells` squares.
    pub fn new(cells: usize) -> Self {
        Walker {
            dist: vec![0; cells],
            came: vec![Dir::North; cells],
            wave: vec![0; cells],
            joined: Vec::new(),
            tags: Vec::new(),
            stamp: vec![0; cells],
            round: 0,
            queue: Vec::with_capacity(cells),
        }
    }

    fn next_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.fill(0);
            self.round = 1;
        }
    }

    /// Walks from several `sources` at once, sorted by their moves: afterwards
    /// [`Walker::distance`] is the fewest moves to a square over all sources (their moves
    /// plus the walk), [`Walker::origin`] the tag of one source that achieves it, and
    /// [`Walker::region`] names the connected part of the floor (boxes as walls) by one of
    /// the sources in it.
    ///
    /// Why: the states of one box layout differ only in the player's square; one walk for
    /// all of them gives each push its cheapest start, as separate walks would.
    ///
    /// # Complexity
    /// O(cells + sources x α(sources)) (union-find over the sources' waves where they meet).
    pub fn run_many(&mut self, grid: &Grid, occupied: &[bool], sources: &[Source]) {
        self.next_round();
        self.queue.clear();
        self.joined.clear();
        self.joined.extend(0..sources.len() as u32);
        let (mut head, mut next) = (0, 0);
        loop {
            // The nearer of the queue's head and the next source, the source first on
            // ties: both orders are by moves, so squares are settled in that order.
            let queued = self.queue.get(head).map(|c| self.dist[c.index()]);
            let source = sources
                .get(next)
                .filter(|s| queued.is_none_or(|q| s.moves <= q));
            let cell = if let Some(s) = source {
                let at = s.square.index();
                next += 1;
                if self.stamp[at] == self.round {
                    self.join(self.wave[at], next as u32 - 1);
                    continue;
                }
                self.stamp[at] = self.round;
                self.dist[at] = s.moves;
                self.wave[at] = next as u32 - 1;
                s.square
            } else if let Some(&cell) = self.queue.get(head) {
                head += 1;
                cell
            } else {
                break;
            };
            let (d, wave) = (self.dist[cell.index()] + 1, self.wave[cell.index()]);
            for (dir, n) in grid.neighbours(cell) {
                if occupied[n.index()] {
                    continue;
                }
                if self.stamp[n.index()] != self.round {
                    self.stamp[n.index()] = self.round;
                    self.dist[n.index()] = d;
                    self.came[n.index()] = dir;
                    self.wave[n.index()] = wave;
                    self.queue.push(n);
                } else if self.wave[n.index()] != wave {
                    self.join(self.wave[n.index()], wave);
                }
            }
        }
        self.tags.clear();
        self.tags.extend(sources.iter().map(|s| s.tag));
        for i in 0..sources.len() {
            let root = self.root(i as u32);
            self.joined[i] = root;
        }
    }

    /// The representative of source `i`'s region in the union-find of [`Walker::run_many`].
    fn root(&mut self, mut i: u32) -> u32 {
        while self.joined[i as usize] != i {
            let up = self.joined[self.joined[i as usize] as usize];
            self.joined[i as usize] = up;
            i = up;
        }
        i
    }

    fn join(&mut self, a: u32, b: u32) {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.joined[a.max(b) as usize] = a.min(b);
        }
    }

    /// The tag of the source the last [`Walker::run_many`] reached `cell` from (meaningful
    /// when [`Walker::distance`] is `Some`).
    #[inline]
    pub fn origin(&self, cell: CellId) -> u32 {
        self.tags[self.wave[cell.index()] as usize]
    }

    /// The region of `cell` in the last [`Walker::run_many`]: the position (in its
    /// `sources`) of one source in the same connected part of the floor; equal for two
    /// squares exactly when they are connected (meaningful when [`Walker::distance`] is
    /// `Some`).
    #[inline]
    pub fn region(&self, cell: CellId) -> usize {
        self.joined[self.wave[cell.index()] as usize] as usize
    }

    /// The region of source number `i` of the last [`Walker::run_many`] (see
    /// [`Walker::region`]).
    #[inline]
    pub fn source_region(&self, i: usize) -> usize {
        self.joined[i] as usize
    }

    /// Whether a walk from `from` over squares not `occupied` reaches one of `targets`;
    /// stops at the first.
    ///
    /// # Complexity
    /// O(cells x targets).
    pub fn reaches(
        &mut self,
        grid: &Grid,
        occupied: &[bool],
        from: CellId,
        targets: &[CellId],
    ) -> bool {
        self.next_round();
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from.index()] = self.round;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            if targets.contains(&cell) {
                return true;
            }
            for (_, n) in grid.neighbours(cell) {
                if self.stamp[n.index()] != self.round && !occupied[n.index()] {
                    self.stamp[n.index()] = self.round;
                    self.queue.push(n);
                }
            }
        }
        false
    }

    /// Walks from `from` over every square not `occupied`.
    ///
    /// # Complexity
    /// O(cells).
    pub fn run(&mut self, grid: &Grid, occupied: &[bool], from: CellId) {
        self.next_round();
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from.index()] = self.round;
        self.dist[from.index()] = 0;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            let next = self.dist[cell.index()] + 1;
            for (dir, n) in grid.neighbours(cell) {
                if self.stamp[n.index()] != self.round && !occupied[n.index()] {
                    self.stamp[n.index()] = self.round;
                    self.dist[n.index()] = next;
                    self.came[n.index()] = dir;
                    self.queue.push(n);
                }
            }
        }
    }

    /// The length of the last walk to `cell`, if it reached it.
    #[inline]
    pub fn distance(&self, cell: CellId) -> Option<u32> {
        (self.stamp[cell.index()] == self.round).then(|| self.dist[cell.index()])
    }

    /// The directions of one shortest walk to `cell` from the last start, in order.
    pub fn walk_to(&self, grid: &Grid, cell: CellId) -> Vec<Dir> {
        let mut dirs = Vec::new();
        let mut at = cell;
        while self.distance(at).is_some_and(|d| d > 0) {
            let dir = self.came[at.index()];
            dirs.push(dir);
            match grid.neighbour(at, dir.opposite()) {
                Some(back) => at = back,
                None => break,
            }
        }
        dirs.reverse();
        dirs
    }
}

/// The LURD letter of a step: lower case for a walk, upper case for a push.
pub fn lurd(dir: Dir, push: bool) -> char {
    let letter = match dir {
        Dir::North => 'u',
        Dir::South => 'd',
        Dir::West => 'l',
        Dir::East => 'r',
    };
    if push {
        letter.to_ascii_uppercase()
    } else {
        letter
    }
}

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
}

/// The expansions after which the triple table ([`GroupDeadlocks::triples`]) is built:
/// it takes up to a tenth of a second, more than most levels need in all; built at the
/// start when it takes at most [`TRIPLES_AT_ONCE_BYTES`] (a few milliseconds).
const TRIPLES_AFTER: u64 = 20_000;
/// See [`TRIPLES_AFTER`].
const TRIPLES_AT_ONCE_BYTES: u64 = 2 << 20;

/// Solves `level` for `options.metric`; see the module documentation.
pub fn solve(level: &Level, options: &SolveOptions) -> Outcome {
    solve_counting(level, options).0
}

/// [`solve`], and what the search did.
pub fn solve_counting(level: &Level, options: &SolveOptions) -> (Outcome, Stats) {
    let mut stats = Stats::default();
    let outcome = search(level, options, &mut stats);
    (outcome, stats)
}

fn search(level: &Level, options: &SolveOptions, stats: &mut Stats) -> Outcome {
    if level.stranded() {
        return Outcome::Unsolvable;
    }
    let board = Board::new(level);
    let grid = level.grid();
    let n = grid.cell_count();
    let k = level.boxes().len();
    if level.boxes().iter().any(|b| board.is_dead(b.index())) {
        return Outcome::Unsolvable;
    }
    let pairs = if k >= 2 {
        GroupDeadlocks::new(level)
    } else {
        GroupDeadlocks::default()
    };
    let player = level.player().index();
    let boxes = level.boxes();
    for (i, a) in boxes.iter().enumerate() {
        if boxes[i + 1..]
            .iter()
            .any(|b| pairs.dead(a.index(), b.index(), player))
        {
            return Outcome::Unsolvable;
        }
    }
    let started = Instant::now();
    let mut budget = Budget {
        bytes: 0,
        limit: options.memory_mib.saturating_mul(1 << 20),
    };
    let mut table = Table::new(k, n);
    budget.bytes += table.layout_index.bytes() + board.bytes() + pairs.bytes();
    let mut matcher = Matcher::new();
    let mut walker = Walker::new(n);
    let mut freeze = Freeze::new(n);
    let mut occupied = vec![false; n];
    let mut sources: Vec<Source> = Vec::new();
    // The members of a layout; per source its state and role; the open states with more
    // pushes; the squares of the states with fewer pushes.
    let mut layout_members: Vec<Member> = Vec::new();
    let mut members: Vec<(u32, Role)> = Vec::new();
    let mut later: Vec<Member> = Vec::new();
    let mut targets: Vec<CellId> = Vec::new();
    // The pushes of one expansion that pass the deadlock tests, their boxes apart.
    let mut pending: Vec<Pending> = Vec::new();
    let mut pending_boxes: Vec<u16> = Vec::new();
    let mut checker = Walker::new(n);
    let mut blocked: Vec<bool> = Vec::new();
    // The keys of a cost or bound pair in the metric's order.
    let (pushes_key, moves_key) = match options.metric {
        Metric::Pushes => (0, 1),
        Metric::Moves => (1, 0),
    };

    // The bound of a state: pushes >= the matching of its layout (`HOPELESS` when there
    // is none); moves >= the pushes, and >= the lone-box moves of every box from the
    // player's square.
    let bound_of = |pushes: u32, boxes: &[u16], player: u16| -> [u32; 2] {
        if pushes == HOPELESS {
            return [HOPELESS; 2];
        }
        let mut moves = pushes;
        for &b in boxes {
            let lone = board.lone_steps(b as usize, player as usize);
            if lone == NO_STEPS {
                return [HOPELESS; 2];
            }
            moves = moves.max(lone);
        }
        let mut bound = [0; 2];
        bound[pushes_key] = pushes;
        bound[moves_key] = moves;
        bound
    };
    let matching = |matcher: &mut Matcher, boxes: &[u16]| {
        matcher
            .min_cost(k, |i, j| board.distance(j, boxes[i] as usize))
            .unwrap_or(HOPELESS)
    };

    let start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    let start_player = level.player().index() as u16;
    let key = table.layout_index.key(&start);
    let Some(layout) = table.layout_of(&start, key, || matching(&mut matcher, &start), &mut budget)
    else {
        return Outcome::Unknown(Limit::Memory);
    };
    let bound = bound_of(table.layouts[layout as usize].pushes, &start, start_player);
    if bound[0] == HOPELESS {
        return Outcome::Unsolvable;
    }
    let info = Info {
        cost: [0, 0],
        bound,
        parent: ROOT,
        layout,
        player: start_player,
        closed: false,
    };
    if table.insert(info, 0, &mut budget).is_none() {
        return Outcome::Unknown(Limit::Memory);
    }
    table.layouts[layout as usize].fewest = 0;
    let mut queue = Queue::new(match options.metric {
        Metric::Pushes => Order::ShallowFirst,
        Metric::Moves => Order::DeeperFirst,
    });
    queue.push(bound, 0, 0);
    let mut expanded = 0u64;
    let mut triples = GroupDeadlocks::default();
    let triples_at_once = GroupDeadlocks::triples_bytes(level) <= TRIPLES_AT_ONCE_BYTES;
    let mut boxes = vec![0u16; k];
    let mut child = vec![0u16; k];

    let outcome = 'search: loop {
        let Some((f, state)) = queue.pop() else {
            break Outcome::Unsolvable;
        };
        let info = table.info[state as usize];
        if info.closed || [info.cost[0] + info.bound[0], info.cost[1] + info.bound[1]] != f {
            continue; // expanded, or reached again more cheaply, since it was queued
        }
        boxes.copy_from_slice(table.layout(info.layout));
        if info.bound[0] == 0 && boxes.iter().all(|&b| board.is_goal(b as usize)) {
            break 'search Outcome::Solved(read_solution(level, &table, state, &mut walker));
        }
        expanded += 1;
        stats.expansions += 1;
        if k >= 3 && (expanded == TRIPLES_AFTER || expanded == 1 && triples_at_once) {
            let bytes = GroupDeadlocks::triples_bytes(level);
            if bytes > 0 && budget.bytes + bytes <= budget.limit {
                triples = GroupDeadlocks::triples(level);
                budget.bytes += triples.bytes();
            }
        }
        if expanded % 256 == 0 {
            if let Some(limit) = options.time_limit {
                if started.elapsed() >= limit {
                    break 'search Outcome::Unknown(Limit::Time);
                }
            }
        }
        // The other states of this layout (see `Role`), as sources of one walk.
        let pushes = info.cost[pushes_key];
        let fewer_dominate = options.metric == Metric::Pushes;
        sources.clear();
        members.clear();
        later.clear();
        pending.clear();
        pending_boxes.clear();
        table.members(info.layout, &mut layout_members);
        // The members' pushes are read on the layout's line; only those with as many
        // pushes as this state need their `Info`.
        for m in &layout_members {
            if m.pushes == HOPELESS_MEMBER {
                continue;
            }
            let their = if m.pushes < PUSHES_CAP {
                u32::from(m.pushes)
            } else {
                table.info[m.state as usize].cost[pushes_key]
            };
            let (role, moves) = if their == pushes {
                let them = &mut table.info[m.state as usize];
                let role = if them.closed { Role::Done } else { Role::Now };
                them.closed = true;
                (role, them.cost[moves_key])
            } else if !fewer_dominate {
                continue;
            } else if their < pushes {
                // Its region is blocked whatever its moves: the walk in that region
                // answers no push, and the regions do not meet.
                (Role::Fewer, 0)
            } else {
                later.push(*m);
                continue;
            };
            sources.push(Source {
                square: CellId::new(m.player as usize),
                moves,
                tag: members.len() as u32,
            });
            members.push((m.state, role));
        }
        sources.sort_unstable_by_key(|s| s.moves);
        for &b in &boxes {
            occupied[b as usize] = true;
        }
        walker.run_many(grid, &occupied, &sources);
        blocked.clear();
        blocked.resize(sources.len(), false);
        for (i, s) in sources.iter().enumerate() {
            if members[s.tag as usize].1 == Role::Fewer {
                blocked[walker.source_region(i)] = true;
            }
        }

        // Open states with more pushes where this walk went: each is dominated (fewer
        // pushes, then a walk that costs no push, reach its square), closed unexpanded.
        for t in &later {
            if walker.distance(CellId::new(t.player as usize)).is_some() {
                table.info[t.state as usize].closed = true;
            }
        }
        for i in 0..k {
            let cell = CellId::new(boxes[i] as usize);
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
                let Some(moves) = walker.distance(behind) else {
                    continue;
                };
                let (parent, role) = members[walker.origin(behind) as usize];
                if role != Role::Now || blocked[walker.region(behind)] {
                    continue;
                }
                occupied[cell.index()] = false;
                occupied[to.index()] = true;
                let frozen = freeze.deadlocked(&board, &occupied, to);
                occupied[to.index()] = false;
                occupied[cell.index()] = true;
                if frozen {
                    continue;
                }
                let (to_, at) = (to.index(), cell.index());
                if (0..k).any(|j| j != i && pairs.dead(to_, boxes[j] as usize, at)) {
                    stats.pair_deadlocks += 1;
                    continue;
                }
                if triples.bytes() > 0
                    && (0..k).any(|j| {
                        j != i
                            && (j + 1..k).any(|l| {
                                l != i
                                    && triples.dead3(to_, boxes[j] as usize, boxes[l] as usize, at)
                            })
                    })
                {
                    stats.triple_deadlocks += 1;
                    continue;
                }
                // The child's boxes: box i moves to `to`, kept sorted.
                child.copy_from_slice(&boxes);
                child[i] = to.index() as u16;
                child.sort_unstable();
                pending_boxes.extend_from_slice(&child);
                pending.push(Pending {
                    cell,
                    to,
                    moves,
                    parent,
                    key: table.layout_index.key(&child),
                    layout: EMPTY,
                });
            }
        }
        // The children's slots, then the lines of the layouts found, are loaded all
        // together first: most are far apart in a large table, and independent loads
        // overlap where one lookup after another would wait.
        for p in &pending {
            table.layout_index.touch(p.key.1);
        }
        for (j, p) in pending.iter_mut().enumerate() {
            if let Ok(layout) = table.find_layout(&pending_boxes[j * k..(j + 1) * k], p.key) {
                table.touch_layout(layout);
                p.layout = layout;
            }
        }
        for (j, p) in pending.iter().enumerate() {
            let Pending {
                cell,
                to,
                moves,
                parent,
                key,
                layout,
            } = *p;
            child.copy_from_slice(&pending_boxes[j * k..(j + 1) * k]);
            let player = cell.index() as u16;
            let mut cost = [0; 2];
            cost[pushes_key] = pushes + 1;
            cost[moves_key] = moves + 1;
            // One push from the parent: at least its pushes bound less one.
            let inherited = table.info[parent as usize].bound[pushes_key].saturating_sub(1);
            let seen = if layout == EMPTY {
                None
            } else {
                table.member_mut(layout, player).map(|m| m.state)
            };
            let (target, bound) = match seen {
                Some(seen) => {
                    let old = table.info[seen as usize];
                    if old.bound[0] == HOPELESS {
                        continue;
                    }
                    let raised = inherited > old.bound[pushes_key];
                    if cost >= old.cost && !raised {
                        continue;
                    }
                    let bound = if raised {
                        bound_of(inherited, &child, player)
                    } else {
                        old.bound
                    };
                    let old = &mut table.info[seen as usize];
                    old.bound = bound;
                    if cost < old.cost {
                        old.cost = cost;
                        old.parent = parent;
                        old.closed = false;
                        let l = &mut table.layouts[layout as usize];
                        l.fewest = l.fewest.min(pushes + 1);
                        if let Some(m) = table.member_mut(layout, player) {
                            m.pushes = member_pushes(pushes + 1);
                        }
                    } else if old.closed {
                        continue;
                    }
                    (seen, bound)
                }
                None => {
                    let Some(layout) = table.layout_of(
                        &child,
                        key,
                        || matching(&mut matcher, &child),
                        &mut budget,
                    ) else {
                        break 'search Outcome::Unknown(Limit::Memory);
                    };
                    if fewer_dominate
                        && table.layouts[layout as usize].fewest < pushes + 1
                        && pushes < u32::from(PUSHES_CAP)
                    {
                        targets.clear();
                        table.members(layout, &mut layout_members);
                        targets.extend(
                            layout_members
                                .iter()
                                .filter(|m| u32::from(m.pushes) < pushes + 1)
                                .map(|m| CellId::new(m.player as usize)),
                        );
                        occupied[cell.index()] = false;
                        occupied[to.index()] = true;
                        let dominated = checker.reaches(grid, &occupied, cell, &targets);
                        occupied[to.index()] = false;
                        occupied[cell.index()] = true;
                        if dominated {
                            stats.dominated += 1;
                            continue;
                        }
                    }
                    let mut pb = table.layouts[layout as usize].pushes;
                    if pb != HOPELESS {
                        pb = pb.max(inherited);
                    }
                    let bound = bound_of(pb, &child, player);
                    let info = Info {
                        cost,
                        bound,
                        parent,
                        layout,
                        player,
                        closed: false,
                    };
                    let member = if bound[0] == HOPELESS {
                        HOPELESS_MEMBER
                    } else {
                        member_pushes(pushes + 1)
                    };
                    match table.insert(info, member, &mut budget) {
                        Some(s) => {
                            if bound[0] != HOPELESS {
                                let l = &mut table.layouts[layout as usize];
                                l.fewest = l.fewest.min(pushes + 1);
                            }
                            (s, bound)
                        }
                        None => break 'search Outcome::Unknown(Limit::Memory),
                    }
                }
            };
            if bound[0] == HOPELESS {
                continue;
            }
            if budget.bytes + QUEUE_ENTRY_BYTES > budget.limit {
                break 'search Outcome::Unknown(Limit::Memory);
            }
            budget.bytes += QUEUE_ENTRY_BYTES;
            queue.push([cost[0] + bound[0], cost[1] + bound[1]], cost[0], target);
        }
        for &b in &boxes {
            occupied[b as usize] = false;
        }
    };
    stats.states = table.info.len() as u64;
    stats.layouts = table.layouts.len() as u64;
    outcome
}

/// The moves from the start to `state`, read back through the parents, each walk a
/// shortest one with the boxes as walls.
fn read_solution(level: &Level, table: &Table, state: u32, walker: &mut Walker) -> Solution {
    let grid = level.grid();
    let mut chain = vec![state];
    let mut at = state;
    while table.info[at as usize].parent != ROOT {
        at = table.info[at as usize].parent;
        chain.push(at);
    }
    chain.reverse();
    let mut occupied = vec![false; grid.cell_count()];
    let mut moves = String::new();
    let mut pushes = 0u32;
    let mut count = 0u32;
    for pair in chain.windows(2) {
        let (before, after) = (table.info[pair[0] as usize], table.info[pair[1] as usize]);
        let (before_boxes, after_boxes) = (table.layout(before.layout), table.layout(after.layout));
        let from = before_boxes.iter().find(|b| !after_boxes.contains(b));
        let to = after_boxes.iter().find(|b| !before_boxes.contains(b));
        let (Some(&from), Some(&to)) = (from, to) else {
            continue;
        };
        let (from, to) = (CellId::new(from as usize), CellId::new(to as usize));
        let Some(dir) = Dir::ALL
            .into_iter()
            .find(|&d| grid.neighbour(from, d) == Some(to))
        else {
            continue;
        };
        for &b in before_boxes {
            occupied[b as usize] = true;
        }
        walker.run(grid, &occupied, CellId::new(before.player as usize));
        for &b in before_boxes {
            occupied[b as usize] = false;
        }
        if let Some(behind) = grid.neighbour(from, dir.opposite()) {
            for step in walker.walk_to(grid, behind) {
                moves.push(lurd(step, false));
                count += 1;
            }
        }
        moves.push(lurd(dir, true));
        count += 1;
        pushes += 1;
    }
    Solution {
        pushes,
        moves: count,
        lurd: moves,
    }
}

//! The open states, by priority: one bucket per priority, last in first out within it.
//!
//! Why buckets and not a binary heap: priorities take few distinct values (pushes and
//! moves are small integers), so a map of buckets does O(log buckets) work per operation
//! on 4-byte entries instead of O(log states) on 16-byte ones.

use std::cmp::Reverse;
use std::collections::BTreeMap;

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
/// [`Walker::run_many`](super::walker::Walker::run_many) then serves them all, see `Role`), instead of once per late square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Priority {
    pub(super) f0: u32,
    pub(super) shallow_first: u32,
    pub(super) f1: u32,
    pub(super) deeper_first: Reverse<u32>,
}

/// How [`Priority`] breaks ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
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
pub(super) struct Queue {
    pub(super) buckets: BTreeMap<Priority, Vec<u32>>,
    pub(super) order: Order,
}

impl Queue {
    pub(super) fn new(order: Order) -> Self {
        Queue {
            buckets: BTreeMap::new(),
            order,
        }
    }

    /// Queues `state` with this `f` and this first key so far.
    pub(super) fn push(&mut self, f: [u32; 2], depth: u32, state: u32) {
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

    pub(super) fn pop(&mut self) -> Option<([u32; 2], u32)> {
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
pub(super) const QUEUE_ENTRY_BYTES: u64 = 8;

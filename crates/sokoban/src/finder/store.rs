//! The states a finder has seen: box squares and the player's region in one flat array,
//! a hash index over them, and the memory they take counted against a budget.
//!
//! Why one flat array: a state is k + 1 small numbers (its sorted box squares, then the
//! least square of the player's region), so `k + 1` `u16` words per state and an 8-byte
//! slot in the index (at most half full) are all it costs, with no allocation per state.
//!
//! # Complexity
//! A lookup or an insertion is O(k) expected; the index doubles when half full (amortised
//! O(k) per state).

use super::Halt;

/// Memory counted against the finder's bound.
#[derive(Debug, Clone)]
pub(super) struct Budget {
    used: u64,
    limit: u64,
}

impl Budget {
    /// A budget of `limit` bytes, nothing used.
    pub(super) fn new(limit: u64) -> Self {
        Budget { used: 0, limit }
    }

    /// Counts `bytes` more, or [`Halt::Memory`] when they do not fit.
    pub(super) fn take(&mut self, bytes: u64) -> Result<(), Halt> {
        if self.used.saturating_add(bytes) > self.limit {
            return Err(Halt::Memory);
        }
        self.used += bytes;
        Ok(())
    }

    /// Gives `bytes` back (memory freed).
    pub(super) fn give(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }

    /// Makes room for `extra` more elements in `v`, doubling its capacity when it grows.
    pub(super) fn room<T>(&mut self, v: &mut Vec<T>, extra: usize) -> Result<(), Halt> {
        if v.len() + extra <= v.capacity() {
            return Ok(());
        }
        let grow = v.capacity().max(extra).max(256);
        self.take((grow * size_of::<T>()) as u64)?;
        v.reserve_exact(grow);
        Ok(())
    }
}

/// "No state".
pub(super) const NONE: u32 = u32::MAX;

/// The states, numbered from 0 in the order they were added.
#[derive(Debug)]
pub(super) struct Store {
    /// Words per state: k box squares, sorted, then the player's region.
    stride: usize,
    words: Vec<u16>,
    /// Per state, the state it was reached from ([`NONE`] for the start).
    parent: Vec<u32>,
    /// Open addressing, linear probing: (high half of the hash, state + 1), 0 when free.
    slots: Vec<(u32, u32)>,
}

/// What [`Store::find`] found: the state, or the free slot where it goes.
pub(super) type Found = Result<u32, usize>;

impl Store {
    /// An empty store of states of `k` boxes.
    pub(super) fn new(k: usize, budget: &mut Budget) -> Result<Self, Halt> {
        let slots = 1 << 12;
        budget.take((slots * 8) as u64)?;
        Ok(Store {
            stride: k + 1,
            words: Vec::new(),
            parent: Vec::new(),
            slots: vec![(0, 0); slots],
        })
    }

    /// The words of `state`: its boxes, then its player's region.
    #[inline]
    pub(super) fn state(&self, state: u32) -> &[u16] {
        let at = state as usize * self.stride;
        &self.words[at..at + self.stride]
    }

    /// The state `state` was reached from, or [`NONE`].
    pub(super) fn parent(&self, state: u32) -> u32 {
        self.parent[state as usize]
    }

    /// Makes `parent` the state `state` was reached from.
    pub(super) fn reparent(&mut self, state: u32, parent: u32) {
        self.parent[state as usize] = parent;
    }

    /// The hash of a state's words.
    #[inline]
    pub(super) fn hash(words: &[u16]) -> u64 {
        crate::search::hash_squares(words)
    }

    /// The state with these words, or the free slot where it goes.
    #[inline]
    pub(super) fn find(&self, words: &[u16], hash: u64) -> Found {
        let mask = self.slots.len() - 1;
        let tag = (hash >> 32) as u32;
        let mut i = hash as usize & mask;
        loop {
            let (t, id) = self.slots[i];
            if id == 0 {
                return Err(i);
            }
            if t == tag && self.state(id - 1) == words {
                return Ok(id - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a state with these words at the free `slot` [`Store::find`] gave.
    pub(super) fn insert(
        &mut self,
        words: &[u16],
        hash: u64,
        slot: usize,
        parent: u32,
        budget: &mut Budget,
    ) -> Result<u32, Halt> {
        let id = self.parent.len() as u32;
        if id == NONE - 1 {
            return Err(Halt::Memory);
        }
        budget.room(&mut self.words, self.stride)?;
        budget.room(&mut self.parent, 1)?;
        self.words.extend_from_slice(words);
        self.parent.push(parent);
        self.slots[slot] = ((hash >> 32) as u32, id + 1);
        if 2 * self.parent.len() > self.slots.len() {
            self.grow(budget)?;
        }
        Ok(id)
    }

    /// Doubles the index.
    fn grow(&mut self, budget: &mut Budget) -> Result<(), Halt> {
        let size = self.slots.len() * 2;
        budget.take((size * 8) as u64)?;
        let mut slots = vec![(0u32, 0u32); size];
        let mask = size - 1;
        for id in 0..self.parent.len() as u32 {
            let hash = Store::hash(self.state(id));
            let mut i = hash as usize & mask;
            while slots[i].1 != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = ((hash >> 32) as u32, id + 1);
        }
        budget.give((self.slots.len() * 8) as u64);
        self.slots = slots;
        Ok(())
    }
}

//! An open-addressing hash index from box squares to the numbers of the entries that
//! hold them (linear probing, at most half full).
//!
//! # Complexity
//! O(1) expected per lookup and insertion; doubling rehashes O(entries).

use super::budget::Budget;

/// One slot of a hash index: the key of a state (or box layout) and its number ([`EMPTY`]
/// when free).
///
/// When every square fits a byte and there are at most 16 of them (most real levels), the
/// key is the squares themselves, packed, so a lookup reads one slot and nothing else;
/// otherwise it is a 64-bit hash and equal keys are confirmed on the squares.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    pub(super) key: [u64; 2],
    pub(super) id: u32,
}

/// A free [`Slot`].
pub(super) const EMPTY: u32 = u32::MAX;

/// An open-addressing hash index (linear probing, at most half full) from squares to the
/// numbers of the entries that hold them; the squares themselves are kept by the caller,
/// `stride` words per entry.
#[derive(Debug)]
pub(super) struct Index {
    pub(super) slots: Vec<Slot>,
    /// The key is the packed squares (see [`Slot`]).
    pub(super) packed: bool,
}

/// What an [`Index`] lookup found: the entry, or the free slot where it goes.
pub(super) type Found = Result<u32, usize>;

impl Index {
    pub(super) fn new(stride: usize, cells: usize) -> Self {
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

    pub(super) fn bytes(&self) -> u64 {
        (self.slots.len() * size_of::<Slot>()) as u64
    }

    /// Loads the first slot of `hash`, so that the lookup that follows finds it in cache.
    #[inline]
    pub(super) fn touch(&self, hash: u64) {
        std::hint::black_box(self.slots[hash as usize & (self.slots.len() - 1)].id);
    }

    /// The slot key of `words` and the hash that places it.
    #[inline]
    pub(super) fn key(&self, words: &[u16]) -> ([u64; 2], u64) {
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
    pub(super) fn find<'w>(
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
    pub(super) fn insert<'w>(
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

/// A well-mixed 64-bit key for `x` (SplitMix64's finaliser): the hashes of the tables, the
/// same on every run.
pub(super) fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

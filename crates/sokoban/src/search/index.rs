//! An open-addressing hash index from box squares to the numbers of the entries that
//! hold them (linear probing, at most half full).
//!
//! # Complexity
//! O(1) expected per lookup and insertion; doubling rehashes O(entries).

use std::time::Duration;

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

    /// Starts loading the first slot of `hash`, so that the lookup that follows finds it
    /// in cache.
    #[inline]
    pub(super) fn touch(&self, hash: u64) {
        prefetch(&self.slots[hash as usize & (self.slots.len() - 1)]);
    }

    /// The slot key of `words` and the hash that places it.
    #[inline]
    pub(super) fn key(&self, words: &[u16]) -> ([u64; 2], u64) {
        if self.packed {
            let mut key = [0u64; 2];
            for (i, &w) in words.iter().enumerate() {
                key[i / 8] |= u64::from(w) << (8 * (i % 8));
            }
            (key, self.hash_of(key))
        } else {
            let h = hash_squares(words);
            ([h, 0], self.hash_of([h, 0]))
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
    ///
    /// A doubling that would not end before the budget's deadline is not started: the
    /// index then fills up to three quarters (longer probes, for the little time left)
    /// and the clock stops the search, or, past three quarters, `false` with the budget
    /// marked late (a stop on time, not memory: [`Budget::reason`]). Without that, a doubling of tens of millions of
    /// entries started near the end ran past `--time-limit` by two seconds.
    pub(super) fn insert(
        &mut self,
        key: [u64; 2],
        slot: usize,
        id: u32,
        budget: &mut Budget,
    ) -> bool {
        self.slots[slot] = Slot { key, id };
        let count = id as usize + 1;
        if count * 2 <= self.slots.len() {
            return true;
        }
        if budget.runs_out_within(self.doubling_time()) {
            let full = count * 4 > self.slots.len() * 3;
            budget.late |= full;
            return !full;
        }
        let old = self.bytes();
        if budget.bytes + 2 * old > budget.limit {
            return false;
        }
        budget.bytes += old;
        self.double();
        true
    }

    /// What doubling the slots takes at most: [`REHASH_NANOS_PER_SLOT`] per slot made.
    fn doubling_time(&self) -> Duration {
        Duration::from_nanos(2 * self.slots.len() as u64 * REHASH_NANOS_PER_SLOT)
    }

    /// Twice the slots, every entry placed again.
    ///
    /// The entries are taken in the order of their old slots, not of their numbers: an
    /// entry at old slot `i` goes at or just after `i` or `i` plus the old length, so the
    /// writes run through the new slots in two streams instead of one cache and TLB miss
    /// each (see [`REHASH_NANOS_PER_SLOT`]; 16.8 million entries took 6.4 s in number
    /// order on XSokoban 55, with a second search running). Any order
    /// of insertion makes a valid linear-probing table; the hash comes back from the key.
    fn double(&mut self) {
        let empty = Slot {
            key: [0; 2],
            id: EMPTY,
        };
        let mut slots = vec![empty; self.slots.len() * 2];
        let mask = slots.len() - 1;
        for &old in self.slots.iter().filter(|s| s.id != EMPTY) {
            let mut i = self.hash_of(old.key) as usize & mask;
            while slots[i].id != EMPTY {
                i = (i + 1) & mask;
            }
            slots[i] = old;
        }
        self.slots = slots;
    }

    /// The hash that placed `key` (see [`Index::key`]).
    #[inline]
    fn hash_of(&self, key: [u64; 2]) -> u64 {
        if self.packed {
            mix(key[0] ^ mix(key[1]))
        } else {
            key[0]
        }
    }
}

/// Asks the processor to start loading the cache line of `value`, and goes on at once.
///
/// Why not a plain read: a read that misses the cache holds up every instruction after it
/// from retiring until its line comes, so only the few reads within the processor's
/// window of instructions overlap; a prefetch retires at once, so the lines of all the
/// children of a state load together. Where the prefetch instruction is not available
/// this does nothing (it is a hint: no answer depends on it).
#[inline]
pub(super) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache; it reads nothing the program sees and
    // never faults, and `value` is a live reference anyway. SSE is part of every x86_64.
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// What making one slot of a doubled index costs at most. Measured on the 2-core machine
/// (XSokoban 55's first phase): 8.4 million entries into 33.6 million slots in 0.46 s,
/// 14 ns a slot (2.16 s in the entries' number order); twice that covers a slower machine.
const REHASH_NANOS_PER_SLOT: u64 = 30;

/// A 64-bit hash of squares (the same on every run), for the keys of layouts and states
/// that do not pack into 128 bits: four squares a step, one multiplication each, then
/// one [`mix`] for the low bits that place it. A step is a bijection of the hash for
/// given squares, so squares that differ in one group of four never share a hash. A
/// full mix per square made the hashing a tenth of Microban II 130's search (23 boxes).
///
/// # Complexity
/// O(k) for k squares, k / 4 multiplications in a chain.
#[inline]
pub(crate) fn hash_squares(words: &[u16]) -> u64 {
    let h = words.chunks(4).fold(words.len() as u64, |h, four| {
        let x = four
            .iter()
            .enumerate()
            .fold(0u64, |x, (i, &w)| x | u64::from(w) << (16 * i));
        (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
    });
    mix(h)
}

/// A well-mixed 64-bit key for `x` (SplitMix64's finaliser): the hashes of the tables, the
/// same on every run.
pub(super) fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::{Budget, Index, hash_squares};

    /// Pseudo-random squares, the same on every run.
    fn squares(seed: u64, len: usize, below: u16) -> Vec<u16> {
        (0..len as u64)
            .map(|i| (super::mix(seed * 64 + i) % u64::from(below)) as u16)
            .collect()
    }

    /// Fills `index` with `count` distinct entries of `stride` squares below `below`,
    /// while `insert` accepts them; the entries' squares, in number order.
    fn fill(
        index: &mut Index,
        budget: &mut Budget,
        count: usize,
        stride: usize,
        below: u16,
    ) -> Vec<u16> {
        let mut words: Vec<u16> = Vec::new();
        let mut seed = 0;
        while words.len() / stride < count {
            seed += 1;
            let entry = squares(seed, stride, below);
            let key = index.key(&entry);
            let all = &words;
            let Err(slot) = index.find(&entry, key, |e| &all[e as usize * stride..][..stride])
            else {
                continue;
            };
            let id = (words.len() / stride) as u32;
            words.extend_from_slice(&entry);
            if !index.insert(key.0, slot, id, budget) {
                break;
            }
        }
        words
    }

    /// Every entry is found again after the doublings (the entries placed again in the
    /// order of their slots), by packed keys and by hashes, and a layout never inserted is
    /// not found.
    #[test]
    fn a_doubled_index_finds_every_entry() {
        for (stride, cells, below) in [(6, 100, 100), (16, 256, 256), (20, 400, 400)] {
            let mut index = Index::new(stride, cells);
            assert_eq!(index.packed, stride <= 16 && cells <= 256);
            let mut budget = Budget::new(1 << 30);
            let words = fill(&mut index, &mut budget, 20_000, stride, below);
            assert!(index.slots.len() >= 40_000, "never doubled");
            assert_eq!(
                budget.bytes,
                index.bytes() - Index::new(stride, cells).bytes()
            );
            for (id, entry) in words.chunks(stride).enumerate() {
                let key = index.key(entry);
                let found = index.find(entry, key, |e| &words[e as usize * stride..][..stride]);
                assert_eq!(found, Ok(id as u32));
            }
            let absent = vec![below - 1; stride];
            if !words.chunks(stride).any(|e| e == absent) {
                let key = index.key(&absent);
                let found = index.find(&absent, key, |e| &words[e as usize * stride..][..stride]);
                assert!(found.is_err());
            }
        }
    }

    /// With its deadline passed, an index does not double: it takes entries up to three
    /// quarters of its slots, then refuses, and finds every entry it took.
    #[test]
    fn an_index_past_its_deadline_fills_to_three_quarters_instead_of_doubling() {
        let mut index = Index::new(6, 100);
        let slots = index.slots.len();
        let mut budget = Budget::new(1 << 30);
        budget.deadline = Some(Instant::now());
        let words = fill(&mut index, &mut budget, slots, 6, 100);
        assert_eq!(index.slots.len(), slots);
        assert_eq!(budget.bytes, 0);
        assert!(budget.late);
        assert_eq!(
            words.len() / 6,
            slots * 3 / 4 + 1,
            "the entry refused is the one past 3/4"
        );
        for (id, entry) in words.chunks(6).enumerate().take(slots * 3 / 4) {
            let key = index.key(entry);
            let found = index.find(entry, key, |e| &words[e as usize * 6..][..6]);
            assert_eq!(found, Ok(id as u32));
        }
    }

    /// The hash of squares spreads layouts as a search makes them (sorted squares, each a
    /// box moved from the last: mostly one group of four changed): no two of 200,000
    /// distinct layouts of 23 boxes share a hash, and the 1,024 slots of their low bits
    /// are filled evenly (each within a third of the mean).
    #[test]
    fn the_hash_of_squares_spreads_neighbouring_layouts() {
        let (k, below, count) = (23usize, 400u16, 200_000usize);
        let mut layout: Vec<u16> = squares(1, k, below);
        let mut seen = std::collections::HashSet::new();
        let mut hashes = std::collections::HashSet::new();
        let mut buckets = vec![0u32; 1024];
        let mut seed = 0;
        while seen.len() < count {
            seed += 1;
            let moved = super::mix(seed) as usize % k;
            let to = (super::mix(seed << 20) % u64::from(below)) as u16;
            if layout.contains(&to) {
                continue;
            }
            layout[moved] = to;
            let mut sorted = layout.clone();
            sorted.sort_unstable();
            if !seen.insert(sorted.clone()) {
                continue;
            }
            let h = hash_squares(&sorted);
            assert!(hashes.insert(h), "two layouts share {h:#x}");
            buckets[h as usize & 1023] += 1;
        }
        let mean = (count / 1024) as u32;
        let (least, most) = (buckets.iter().min(), buckets.iter().max());
        assert!(
            buckets
                .iter()
                .all(|&b| b > mean * 2 / 3 && b < mean * 4 / 3),
            "{least:?} to {most:?} around {mean}"
        );
    }
}

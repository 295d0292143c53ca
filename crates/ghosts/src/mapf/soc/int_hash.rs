//! A multiplicative hash for the conflict-based searches' small integer keys ((cell,
//! time) and the like): the standard library's SipHash guards against chosen keys, which
//! cells and times never are, and took a tenth of the search over all agents' time
//! (brc202d random-1 K = 100).
//!
//! # Complexity
//! O(1) per integer hashed.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed by integers or tuples of them.
pub type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// A set of integers or tuples of them.
pub type IntSet<K> = HashSet<K, BuildHasherDefault<IntHasher>>;

/// Each word folded in by a rotation, an exclusive or and a multiplication (the Fx hash
/// of rustc), the result rotated so that its well-mixed high bits choose the bucket.
#[derive(Default, Clone, Copy)]
pub struct IntHasher(u64);

/// An odd constant with well-spread bits (2^64 over the golden ratio).
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

impl IntHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

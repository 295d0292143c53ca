//! A monotone bucket priority queue (Dial's buckets on a ring): the workspace's one
//! priority queue for searches whose keys are small integers that never go below the
//! last key taken out.
//!
//! Why buckets: with integer keys and edges of bounded cost `c`, every key queued lies
//! within `c` of the smallest one, so a ring of more than `c` buckets holds them all, and
//! push and pop are O(1) (amortised over the advance of the smallest key), against
//! O(log n) for a binary heap. Within a bucket the order is last in, first out.
//!
//! # Complexity
//! [`BucketQueue::push`]: O(1) amortised. [`BucketQueue::pop`]: O(1) plus the empty
//! buckets it steps over, O(ring + largest key) over the life of the queue. Memory: the
//! ring, plus 8 bytes a queued item.

/// Items of type `T` queued by `u32` keys, smallest key first, where every key pushed lies
/// in `[current, current + ring)` (`current`: the key of the last item taken out, or the
/// key [`BucketQueue::advance_to`] set).
///
/// # Examples
/// ```
/// use grid_core::BucketQueue;
///
/// let mut queue = BucketQueue::new(4);
/// queue.push(2, 'b');
/// queue.push(0, 'a');
/// queue.push(3, 'c');
/// assert_eq!(queue.pop(), Some((0, 'a')));
/// queue.push(1, 'd'); // keys only need to be at least the last one taken out
/// assert_eq!(queue.pop(), Some((1, 'd')));
/// assert_eq!(queue.pop(), Some((2, 'b')));
/// assert_eq!(queue.pop(), Some((3, 'c')));
/// assert_eq!(queue.pop(), None);
/// ```
#[derive(Debug, Clone)]
pub struct BucketQueue<T> {
    buckets: Vec<Vec<T>>,
    /// The smallest key that may still be in the queue.
    current: u32,
    len: usize,
}

impl<T> BucketQueue<T> {
    /// An empty queue whose keys span less than `ring` at any time (at least 1).
    ///
    /// # Complexity
    /// O(ring).
    pub fn new(ring: usize) -> Self {
        BucketQueue {
            buckets: std::iter::repeat_with(Vec::new).take(ring.max(1)).collect(),
            current: 0,
            len: 0,
        }
    }

    /// Number of items queued.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The smallest key an item may still have: the key of the last item taken out (0 at
    /// the start), or the key set by [`BucketQueue::advance_to`].
    pub fn current(&self) -> u32 {
        self.current
    }

    /// Moves [`BucketQueue::current`] up to `key` while the queue is empty, so that keys
    /// from `key` on can be pushed (a search fed with seeds far apart).
    ///
    /// # Panics
    /// In debug builds, when the queue is not empty or `key` is below the current one.
    pub fn advance_to(&mut self, key: u32) {
        debug_assert!(self.is_empty() && key >= self.current);
        self.current = key;
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        key as usize % self.buckets.len()
    }

    /// Queues `item` with `key`, which must lie in `[current, current + ring)`.
    ///
    /// # Panics
    /// In debug builds, when `key` is out of that range (in release builds the order is
    /// then wrong).
    #[inline]
    pub fn push(&mut self, key: u32, item: T) {
        debug_assert!(
            key >= self.current && ((key - self.current) as usize) < self.buckets.len(),
            "key {key} outside the ring from {}",
            self.current
        );
        let slot = self.slot(key);
        self.buckets[slot].push(item);
        self.len += 1;
    }

    /// The smallest key queued, or `None` when empty.
    ///
    /// # Complexity
    /// O(1) plus the empty buckets between [`BucketQueue::current`] and that key.
    #[inline]
    pub fn peek_key(&self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let mut key = self.current;
        while self.buckets[self.slot(key)].is_empty() {
            key += 1;
        }
        Some(key)
    }

    /// Takes out an item with the smallest key (the last pushed among them), with its key;
    /// [`BucketQueue::current`] becomes that key.
    #[inline]
    pub fn pop(&mut self) -> Option<(u32, T)> {
        let key = self.peek_key()?;
        self.current = key;
        let slot = self.slot(key);
        let item = self.buckets[slot].pop()?;
        self.len -= 1;
        Some((key, item))
    }

    /// Empties the queue and sets [`BucketQueue::current`] back to 0, keeping the buckets'
    /// memory.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(Vec::clear);
        self.current = 0;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Against a binary heap on random monotone workloads: the keys come out in the
    /// heap's order, and every item pushed comes out once with its key.
    #[test]
    fn pops_keys_in_the_order_of_a_heap() {
        let mut rng = crate::rng::SplitMix64::new(0x4255_434b);
        for _ in 0..300 {
            let ring = rng.between(1, 8);
            let mut queue = BucketQueue::new(ring);
            let mut heap = BinaryHeap::new();
            let (mut pushed, mut popped) = (Vec::new(), Vec::new());
            for round in 0..rng.between(0, 60) {
                if rng.percent(60) {
                    let key = queue.current() + rng.below(ring) as u32;
                    queue.push(key, round);
                    heap.push(Reverse(key));
                    pushed.push((key, round));
                } else {
                    let expected = heap.pop().map(|Reverse(key)| key);
                    let got = queue.pop();
                    assert_eq!(got.map(|(key, _)| key), expected);
                    popped.extend(got);
                }
                assert_eq!(queue.len(), heap.len());
            }
            popped.extend(std::iter::from_fn(|| queue.pop()));
            assert!(popped.windows(2).all(|w| w[0].0 <= w[1].0));
            pushed.sort_unstable();
            popped.sort_unstable();
            assert_eq!(pushed, popped);
        }
    }

    #[test]
    fn advance_lets_far_seeds_in() {
        let mut queue: BucketQueue<u8> = BucketQueue::new(2);
        queue.advance_to(100);
        queue.push(101, 1);
        assert_eq!(queue.pop(), Some((101, 1)));
        assert_eq!(queue.peek_key(), None);
        queue.clear();
        assert_eq!(queue.current(), 0);
    }
}

//! Minimum-cost perfect matching of boxes to goals (the Hungarian method with potentials):
//! the search's lower bound on the pushes still needed.
//!
//! Why a matching and not the sum of each box's nearest goal: two boxes cannot both end on
//! one goal, and on real levels the matching bound is often several pushes higher, which
//! prunes whole layers of the search. It is admissible (every solution pushes each box to
//! a distinct goal, at least its push distance) for both metrics.
//!
//! Matchings come one after the other for siblings in a search (a box moved, the rest the
//! same), so each starts from the last one's potentials and assignment and matches again
//! only the boxes whose goal no longer fits.
//!
//! # Complexity
//! O(k^3) time for k boxes from nothing, O(k^2) for each box matched again after a
//! matching of as many; O(k) extra memory in a reusable [`Matcher`].

/// The cost of an impossible pair (a box that can never reach a goal): the push
/// distance of a goal out of reach, grid-core's one "unreachable" value.
pub const IMPOSSIBLE: u32 = grid_core::UNREACHABLE;

/// Reusable buffers of the Hungarian method.
#[derive(Debug, Clone, Default)]
pub struct Matcher {
    u: Vec<i64>,
    v: Vec<i64>,
    way: Vec<usize>,
    goal_of: Vec<usize>,
    min_to: Vec<i64>,
    used: Vec<bool>,
    /// The costs of [`Matcher::min_cost_tabled`].
    table: Vec<u32>,
    /// The number of boxes of the last matching, whose potentials and assignment are in
    /// the buffers (a warm start for the next of that size).
    warm: Option<usize>,
    /// Per box of the last matching by [`Matcher::min_cost_keyed`], its key (empty after
    /// any other): a box with the same key in the same row has the same costs.
    keys: Vec<u16>,
}

/// Boxes matched between two calls of the stop check of [`Matcher::min_cost_within`]:
/// O(k^2) each, a few milliseconds for 4,000 boxes.
pub const STOP_EVERY_ROWS: usize = 64;

/// A cost far above any finite matching, standing for [`IMPOSSIBLE`] inside the method.
const BIG: i64 = 1 << 40;

impl Matcher {
    /// Empty buffers.
    pub fn new() -> Self {
        Matcher::default()
    }

    /// As [`Matcher::min_cost`], with each `cost(box, goal)` asked once and kept in a table
    /// (for costs that take more than a lookup).
    ///
    /// # Complexity
    /// O(k^2) calls of `cost` and O(k^3).
    pub fn min_cost_tabled(
        &mut self,
        k: usize,
        mut cost: impl FnMut(usize, usize) -> u32,
    ) -> Option<u32> {
        let mut table = std::mem::take(&mut self.table);
        table.clear();
        table.extend((0..k * k).map(|at| cost(at / k, at % k)));
        let answer = self.min_cost(k, |i, j| table[i * k + j]);
        self.table = table;
        answer
    }

    /// [`Matcher::min_cost`] started from the potentials and assignment the buffers hold
    /// from the last matching of `k` boxes (a sibling in the search: mostly the same
    /// costs). Each box's potential is lowered or raised to its least reduced cost, which
    /// keeps the potentials feasible for the new costs; the pairs of the old assignment
    /// still tight stay matched, and only the boxes left without a goal are matched again
    /// by shortest augmenting paths. The result is the least cost all the same (feasible
    /// potentials, tight pairs, a perfect matching), with an optimal assignment that may
    /// differ from a cold start's among equal ones.
    ///
    /// # Complexity
    /// O(k^2) and O(k^2) per box matched again (O(k^3) at worst, as cold).
    fn min_cost_warm(
        &mut self,
        k: usize,
        cost: impl Fn(usize, usize) -> u32,
        same: impl Fn(usize) -> bool,
    ) -> Option<u32> {
        let c = |i: usize, j: usize| {
            let x = cost(i - 1, j - 1);
            if x == IMPOSSIBLE { BIG } else { i64::from(x) }
        };
        // A box whose costs are the last matching's keeps its potential: it is already
        // its least reduced cost, and its pair tight.
        for i in (1..=k).filter(|&i| !same(i - 1)) {
            self.u[i] = (1..=k).map(|j| c(i, j) - self.v[j]).min().unwrap_or(0);
        }
        let mut free = Vec::new();
        for j in 1..=k {
            let i = self.goal_of[j];
            if !same(i - 1) && c(i, j) - self.u[i] - self.v[j] != 0 {
                self.goal_of[j] = 0;
                free.push(i);
            }
        }
        for i in free {
            self.augment(i, k, &c);
        }
        let total: i64 = (1..=k).map(|j| c(self.goal_of[j], j)).sum();
        (total < BIG).then_some(total as u32)
    }

    /// Per box, its cost in the assignment of the last [`Matcher::min_cost_tabled`] of
    /// `k` boxes, into `out` (empty when that had no matching).
    pub fn assigned_costs(&self, k: usize, out: &mut Vec<u32>) {
        out.clear();
        if self.table.len() != k * k || self.goal_of.len() != k + 1 {
            return;
        }
        out.resize(k, 0);
        for j in 1..=k {
            let i = self.goal_of[j];
            if i == 0 || self.table[(i - 1) * k + j - 1] == IMPOSSIBLE {
                out.clear();
                return;
            }
            out[i - 1] = self.table[(i - 1) * k + j - 1];
        }
    }

    /// Per box, its goal in the assignment of the last [`Matcher::min_cost`] (or
    /// [`Matcher::min_cost_tabled`]) of `k` boxes, into `out` (meaningless when that had
    /// no matching).
    pub fn assignment(&self, k: usize, out: &mut Vec<u16>) {
        out.clear();
        out.resize(k, 0);
        for j in 1..=k.min(self.goal_of.len().saturating_sub(1)) {
            if let Some(i) = self.goal_of[j].checked_sub(1) {
                out[i] = (j - 1) as u16;
            }
        }
    }

    /// The least total `cost(box, goal)` over all ways to give each of the `k` boxes its
    /// own goal, or `None` when every way uses an [`IMPOSSIBLE`] pair. After a matching of
    /// as many boxes, it starts from that one's potentials and assignment, where only the
    /// boxes whose goal no longer fits are matched again: the searches match siblings one
    /// after the other, which differ in a box or two.
    ///
    /// # Complexity
    /// O(k^3) cold; warm, O(k^2) and O(k^2) per box whose goal changes.
    pub fn min_cost(&mut self, k: usize, cost: impl Fn(usize, usize) -> u32) -> Option<u32> {
        self.keys.clear();
        let answer = if self.warm == Some(k) {
            self.min_cost_warm(k, cost, |_| false)
        } else {
            self.min_cost_cold(k, cost, &mut || false).flatten()
        };
        self.warm = Some(k);
        answer
    }

    /// [`Matcher::min_cost`] of `keys.len()` boxes whose costs depend on their keys alone
    /// (a box's square): after a matching by this method, a box with the same key in the
    /// same row as then keeps its potential and its goal without a look at its costs.
    /// So every keyed matching of one matcher must read one table of costs (a search
    /// keeps its own matcher beside its own board); any other matching in between is
    /// fine, the next keyed one then looks at every row. A child of the search differs
    /// from its parent in the rows between the pushed box's old and new place among the
    /// sorted squares, so with 23 boxes a few rows are looked at instead of all.
    ///
    /// # Complexity
    /// Warm, O(k) per box whose key is the same, O(k) and O(k^2) per box matched again
    /// for the others; cold, O(k^3).
    pub fn min_cost_keyed(
        &mut self,
        keys: &[u16],
        cost: impl Fn(usize, usize) -> u32,
    ) -> Option<u32> {
        let k = keys.len();
        let answer = if self.warm == Some(k) {
            let last = std::mem::take(&mut self.keys);
            let same = |i: usize| last.len() == k && last[i] == keys[i];
            let answer = self.min_cost_warm(k, cost, same);
            self.keys = last;
            answer
        } else {
            self.min_cost_cold(k, cost, &mut || false).flatten()
        };
        self.warm = Some(k);
        self.keys.clear();
        self.keys.extend_from_slice(keys);
        answer
    }

    /// [`Matcher::min_cost`], where a matching from nothing calls `stop` after every
    /// [`STOP_EVERY_ROWS`] boxes matched: `None` when it says so (the buffers then hold no
    /// warm start). For the first matching of thousands of boxes, which takes seconds.
    ///
    /// # Complexity
    /// As [`Matcher::min_cost`].
    pub fn min_cost_within(
        &mut self,
        k: usize,
        cost: impl Fn(usize, usize) -> u32,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Option<u32>> {
        self.keys.clear();
        if self.warm == Some(k) {
            return Some(self.min_cost_warm(k, cost, |_| false));
        }
        self.warm = None;
        let answer = self.min_cost_cold(k, cost, stop)?;
        self.warm = Some(k);
        Some(answer)
    }

    /// [`Matcher::min_cost`] from nothing (the Hungarian method with potentials, a box at a
    /// time); `None` when `stop`, called every [`STOP_EVERY_ROWS`] boxes, says so.
    ///
    /// # Complexity
    /// O(k^3).
    fn min_cost_cold(
        &mut self,
        k: usize,
        cost: impl Fn(usize, usize) -> u32,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Option<u32>> {
        // 1-based rows (boxes) and columns (goals); column 0 is the virtual start.
        let c = |i: usize, j: usize| {
            let x = cost(i - 1, j - 1);
            if x == IMPOSSIBLE { BIG } else { i64::from(x) }
        };
        self.u.clear();
        self.u.resize(k + 1, 0);
        self.v.clear();
        self.v.resize(k + 1, 0);
        self.goal_of.clear();
        self.goal_of.resize(k + 1, 0);
        self.way.clear();
        self.way.resize(k + 1, 0);
        for i in 1..=k {
            if i % STOP_EVERY_ROWS == 0 && stop() {
                return None;
            }
            self.augment(i, k, &c);
        }
        let total: i64 = (1..=k).map(|j| c(self.goal_of[j], j)).sum();
        Some((total < BIG).then_some(total as u32))
    }

    /// Matches box `i` (1-based), which has no goal, by a shortest augmenting path on the
    /// reduced costs, keeping the potentials feasible and the matched pairs tight.
    ///
    /// # Complexity
    /// O(k^2).
    fn augment(&mut self, i: usize, k: usize, c: &impl Fn(usize, usize) -> i64) {
        self.goal_of[0] = i;
        let mut j0 = 0;
        self.min_to.clear();
        self.min_to.resize(k + 1, i64::MAX);
        self.used.clear();
        self.used.resize(k + 1, false);
        loop {
            self.used[j0] = true;
            let i0 = self.goal_of[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            for j in 1..=k {
                if !self.used[j] {
                    let cur = c(i0, j) - self.u[i0] - self.v[j];
                    if cur < self.min_to[j] {
                        self.min_to[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.min_to[j] < delta {
                        delta = self.min_to[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=k {
                if self.used[j] {
                    self.u[self.goal_of[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.min_to[j] -= delta;
                }
            }
            j0 = j1;
            if self.goal_of[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.goal_of[j0] = self.goal_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::rng::SplitMix64;

    /// Every permutation, for the reference.
    fn brute(k: usize, cost: &[Vec<u32>]) -> Option<u32> {
        fn go(i: usize, k: usize, used: &mut Vec<bool>, cost: &[Vec<u32>]) -> Option<u64> {
            if i == k {
                return Some(0);
            }
            let mut best: Option<u64> = None;
            for j in 0..k {
                if !used[j] && cost[i][j] != IMPOSSIBLE {
                    used[j] = true;
                    if let Some(rest) = go(i + 1, k, used, cost) {
                        let total = rest + u64::from(cost[i][j]);
                        best = Some(best.map_or(total, |b| b.min(total)));
                    }
                    used[j] = false;
                }
            }
            best
        }
        go(0, k, &mut vec![false; k], cost).map(|x| x as u32)
    }

    /// A cost below 30, or [`IMPOSSIBLE`] with `impossible` percent.
    fn random_cost(rng: &mut SplitMix64, impossible: u32) -> u32 {
        if rng.percent(impossible) {
            IMPOSSIBLE
        } else {
            rng.below(30) as u32
        }
    }

    /// `rows` rows of `k` [`random_cost`]s.
    fn random_costs(rng: &mut SplitMix64, rows: usize, k: usize, impossible: u32) -> Vec<Vec<u32>> {
        (0..rows)
            .map(|_| (0..k).map(|_| random_cost(rng, impossible)).collect())
            .collect()
    }

    #[test]
    fn equals_brute_force_on_random_matrices() {
        let mut rng = SplitMix64::new(10);
        let mut matcher = Matcher::new();
        for _ in 0..2000 {
            let k = rng.between(1, 6);
            let cost = random_costs(&mut rng, k, k, 25);
            assert_eq!(
                matcher.min_cost(k, |i, j| cost[i][j]),
                brute(k, &cost),
                "{cost:?}"
            );
        }
    }

    /// Warm starts (a matching after one of as many boxes) on
    /// sequences of matrices each a few changes from the one before, as siblings in the
    /// search are: the least cost, and the assignment's costs adding up to it.
    #[test]
    fn warm_starts_equal_brute_force_on_changing_matrices() {
        let mut rng = SplitMix64::new(11);
        let mut matcher = Matcher::new();
        let mut assigned = Vec::new();
        for _ in 0..300 {
            let k = rng.between(1, 7);
            let mut cost = random_costs(&mut rng, k, k, 15);
            for _ in 0..20 {
                for _ in 0..rng.between(1, 4) {
                    let (i, j) = (rng.below(k), rng.below(k));
                    cost[i][j] = random_cost(&mut rng, 15);
                }
                if rng.percent(10) {
                    // Another size in between: the next one starts cold.
                    let _ = matcher.min_cost_tabled(k + 1, |_, _| 1);
                }
                let best = brute(k, &cost);
                assert_eq!(
                    matcher.min_cost_tabled(k, |i, j| cost[i][j]),
                    best,
                    "{cost:?}"
                );
                matcher.assigned_costs(k, &mut assigned);
                if let Some(best) = best {
                    assert_eq!(assigned.iter().sum::<u32>(), best, "{cost:?}");
                }
            }
        }
    }

    /// Keyed warm starts as the search makes them: boxes on squares (sorted), each cost a
    /// fixed table's entry for the box's square, one box moved at a time (so the rows
    /// between its old and new place shift), now and then another matching in between
    /// (unkeyed, or of another size): always the brute force's least cost.
    #[test]
    fn keyed_warm_starts_equal_brute_force_as_boxes_move() {
        let mut rng = SplitMix64::new(12);
        let mut kept_rows = 0;
        for _ in 0..300 {
            // One table of costs per matcher, as `min_cost_keyed` asks.
            let mut matcher = Matcher::new();
            let (k, squares) = (rng.between(1, 7), 12);
            let table = random_costs(&mut rng, squares, k, 15);
            let mut boxes: Vec<u16> = (0..squares as u16).collect();
            for i in (1..boxes.len()).rev() {
                boxes.swap(i, rng.below(i + 1));
            }
            boxes.truncate(k);
            boxes.sort_unstable();
            let mut last: Vec<u16> = Vec::new();
            for _ in 0..20 {
                let moved = rng.below(k);
                let free: Vec<u16> = (0..squares as u16).filter(|q| !boxes.contains(q)).collect();
                boxes[moved] = free[rng.below(free.len())];
                boxes.sort_unstable();
                match rng.below(10) {
                    0 => {
                        let _ = matcher.min_cost(k, |i, j| table[usize::from(boxes[i])][j]);
                    }
                    1 => {
                        let _ = matcher.min_cost_tabled(k + 1, |_, _| 1);
                    }
                    _ => {}
                }
                let cost: Vec<Vec<u32>> = boxes
                    .iter()
                    .map(|&b| table[usize::from(b)].clone())
                    .collect();
                kept_rows += (0..k)
                    .filter(|&i| last.len() == k && last[i] == boxes[i])
                    .count();
                assert_eq!(
                    matcher.min_cost_keyed(&boxes, |i, j| table[usize::from(boxes[i])][j]),
                    brute(k, &cost),
                    "{cost:?}"
                );
                last.clone_from(&boxes);
            }
        }
        // Rows were kept: the keyed path was taken, not only cold starts.
        assert!(kept_rows > 10_000, "{kept_rows}");
    }

    /// A matching that may be stopped gives [`Matcher::min_cost`]'s answer when it is not;
    /// stopped before its end it gives `None`, and the next matching starts cold, right.
    #[test]
    fn a_matching_within_a_stop_check_is_the_same_or_none() {
        let mut rng = SplitMix64::new(77);
        for round in 0..40 {
            let k = if round % 4 == 0 {
                200
            } else {
                rng.between(1, 9)
            };
            let cost = random_costs(&mut rng, k, k, 10);
            let c = |i: usize, j: usize| cost[i][j];
            let want = Matcher::new().min_cost(k, c);
            assert_eq!(
                Matcher::new().min_cost_within(k, c, &mut || false),
                Some(want)
            );
            let mut matcher = Matcher::new();
            let mut looks = 0;
            let stopped = matcher.min_cost_within(k, c, &mut || {
                looks += 1;
                true
            });
            // Looked at after every STOP_EVERY_ROWS boxes: only matchings that long stop.
            assert_eq!(stopped.is_none(), k >= STOP_EVERY_ROWS, "k {k}");
            assert_eq!(looks, usize::from(k >= STOP_EVERY_ROWS));
            assert_eq!(matcher.min_cost(k, c), want);
        }
    }
}

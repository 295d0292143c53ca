//! A pattern database of box pairs: the fewest pushes that bring two boxes alone (every
//! other box taken away) onto any two goals, from every placement of the two and the
//! player, found once per level by one backward search in the level's own geometry
//! (Pereira, Ritt and Buriol, "Optimal Sokoban solving using pattern databases", AIJ
//! 2015, with patterns of two boxes).
//!
//! Why it is a lower bound: take the other boxes away from a state and replay a solution:
//! every walk and push of the pair stays legal (a push of a box taken away becomes a step
//! onto a free square), and the pair ends on two goals; so the pushes of the pair in any
//! solution are at least the pair's entry. The pushes of distinct boxes are distinct, so
//! the entries of disjoint pairs add up, and with them the matching of the remaining
//! boxes onto any goals (each of those boxes ends on a goal of its own, at least its
//! lone-box push distance away): [`PairPushes::bound`]. What the matching of every box
//! misses and a pair sees: two boxes that stand in each other's way (one must step aside
//! for the other, or the player must pass one to push the other).
//!
//! The search runs backwards from every placement of the pair on two goals (the player
//! anywhere), layer by layer in pulls: a reverse step moves the player back one square at
//! no push, a pull moves a box back onto the player's square and the player one further,
//! one push. The player's square matters only through its region: the entry is the same
//! on every square the player walks to.
//!
//! # Complexity
//! O(n^3) time and bytes for n floor squares (built up to [`PAIR_PUSHES_MAX_CELLS`]); a
//! lookup is O(1), [`PairPushes::bound`] O(k^2) lookups and one O(k^3) matching for k
//! boxes.

use grid_core::CellId;

use crate::board::Board;
use crate::matching::{IMPOSSIBLE, Matcher};
use crate::parse::Level;

/// The most floor squares for which the table is built: C(160, 2) x 160 bytes take
/// 2 MiB, built in a few hundredths of a second.
pub const PAIR_PUSHES_MAX_CELLS: usize = 160;

/// The entry of a placement from which the pair cannot reach two goals.
const NEVER: u8 = u8::MAX;

/// The largest entry kept: farther placements keep this, still a lower bound.
const CAP: u16 = 254;

/// The fewest pushes of box pairs alone onto goals (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct PairPushes {
    n: usize,
    /// `[rank(a, b) * n + player]` for a < b (rank `a + b (b - 1) / 2`): the fewest
    /// pushes, [`NEVER`] when none.
    pushes: Vec<u8>,
}

/// The rank of the pair `a` < `b` among the pairs of squares.
#[inline]
fn rank(a: usize, b: usize) -> usize {
    a + b * (b - 1) / 2
}

impl PairPushes {
    /// The table of `level`'s floor and goals (its boxes and player do not matter), or an
    /// empty one (no bound) past [`PAIR_PUSHES_MAX_CELLS`] squares or with fewer than two
    /// goals.
    ///
    /// # Complexity
    /// O(n^3) for n floor squares.
    pub fn new(level: &Level) -> Self {
        let grid = level.grid();
        let n = grid.cell_count();
        let goals: Vec<usize> = level.goals().iter().map(|g| g.index()).collect();
        if n > PAIR_PUSHES_MAX_CELLS || goals.len() < 2 {
            return PairPushes::default();
        }
        let mut pushes = vec![u16::MAX; n * (n - 1) / 2 * n];
        let pack = |a: usize, b: usize, p: usize| (a | b << 8 | p << 16) as u32;
        let mut layer: Vec<u32> = Vec::new();
        for (i, &g) in goals.iter().enumerate() {
            for &h in &goals[i + 1..] {
                let (a, b) = (g.min(h), g.max(h));
                for p in (0..n).filter(|&p| p != a && p != b) {
                    pushes[rank(a, b) * n + p] = 0;
                    layer.push(pack(a, b, p));
                }
            }
        }
        let mut next: Vec<u32> = Vec::new();
        let mut depth: u16 = 0;
        while !layer.is_empty() {
            // The layer grows while it is read: steps back cost no push.
            let mut head = 0;
            while head < layer.len() {
                let at = layer[head] as usize;
                head += 1;
                let (a, b, p) = (at & 0xff, at >> 8 & 0xff, at >> 16);
                if pushes[rank(a, b) * n + p] != depth {
                    continue; // reached in an earlier layer since it was queued
                }
                let player = CellId::new(p);
                for (dir, before) in grid.neighbours(player) {
                    let q = before.index();
                    if q == a || q == b {
                        continue;
                    }
                    let step = rank(a, b) * n + q;
                    if pushes[step] > depth {
                        pushes[step] = depth;
                        layer.push(pack(a, b, q));
                    }
                    // A push from `q` that moved a box from `p` onto the square beyond.
                    let Some(beyond) = grid.neighbour(player, dir.opposite()) else {
                        continue;
                    };
                    let beyond = beyond.index();
                    let other = if beyond == a {
                        b
                    } else if beyond == b {
                        a
                    } else {
                        continue;
                    };
                    let (c, d) = (other.min(p), other.max(p));
                    let pull = rank(c, d) * n + q;
                    if pushes[pull] > depth + 1 {
                        pushes[pull] = depth + 1;
                        next.push(pack(c, d, q));
                    }
                }
            }
            layer.clear();
            std::mem::swap(&mut layer, &mut next);
            depth += 1;
        }
        let pushes = pushes
            .into_iter()
            .map(|d| {
                if d == u16::MAX {
                    NEVER
                } else {
                    d.min(CAP) as u8
                }
            })
            .collect();
        PairPushes { n, pushes }
    }

    /// Whether the table is built.
    pub fn is_built(&self) -> bool {
        self.n > 0
    }

    /// The bytes of the table.
    pub fn bytes(&self) -> u64 {
        self.pushes.len() as u64
    }

    /// The fewest pushes that bring boxes on `a` and `b` (distinct squares) alone onto
    /// two goals with the player on `player`, [`IMPOSSIBLE`] when they cannot; `0` when
    /// the table is not built.
    #[inline]
    pub fn pushes(&self, a: usize, b: usize, player: usize) -> u32 {
        if self.n == 0 {
            return 0;
        }
        match self.pushes[rank(a.min(b), a.max(b)) * self.n + player] {
            NEVER => IMPOSSIBLE,
            d => u32::from(d),
        }
    }

    /// A lower bound on the pushes left with the boxes on `boxes` and the player on
    /// `player`, called right after `matcher` matched those boxes onto the goals
    /// ([`Matcher::min_cost_tabled`], push distances from the player's sides): the pairs
    /// whose entry passes what the matching gives their two boxes, taken greedily by how
    /// much (disjoint pairs), their entries added to the matching of the other boxes onto
    /// any goals. `None` when no pair passes (this bound is then at most the matching:
    /// the matching's own assignment, cut to the other boxes, is one for them), and
    /// [`IMPOSSIBLE`] when a pair cannot reach goals.
    ///
    /// # Complexity
    /// O(k^2 log k) for k boxes and, when a pair passes, an O(k^3) matching.
    pub fn bound(
        &self,
        matcher: &mut Matcher,
        board: &Board<'_>,
        boxes: &[u16],
        player: u16,
        scratch: &mut PairScratch,
    ) -> Option<u32> {
        if self.n == 0 || boxes.len() < 2 {
            return None;
        }
        let (k, p) = (boxes.len(), usize::from(player));
        matcher.assigned_costs(k, &mut scratch.assigned);
        let assigned = &scratch.assigned;
        if assigned.len() != k {
            return None;
        }
        let surplus = &mut scratch.surplus;
        surplus.clear();
        for i in 0..k {
            for j in i + 1..k {
                let pair = self.pushes(usize::from(boxes[i]), usize::from(boxes[j]), p);
                if pair == IMPOSSIBLE {
                    return Some(IMPOSSIBLE);
                }
                let matched = assigned[i] + assigned[j];
                if pair > matched {
                    surplus.push((pair - matched, i as u16, j as u16, pair));
                }
            }
        }
        if surplus.is_empty() {
            return None;
        }
        surplus.sort_unstable_by(|x, y| y.cmp(x));
        let paired = &mut scratch.paired;
        paired.clear();
        paired.resize(k, false);
        let mut total = 0u32;
        for &(_, i, j, pair) in surplus.iter() {
            let (i, j) = (usize::from(i), usize::from(j));
            if !paired[i] && !paired[j] {
                paired[i] = true;
                paired[j] = true;
                total += pair;
            }
        }
        let rest = &mut scratch.rest;
        rest.clear();
        rest.extend(
            (0..k)
                .filter(|&i| !paired[i])
                .map(|i| usize::from(boxes[i])),
        );
        if rest.is_empty() {
            return Some(total);
        }
        // The rest onto any goals: rows past the rest are free boxes, 0 to every goal.
        let rest = &scratch.rest;
        let matched = matcher.min_cost_tabled(board.goal_count(), |i, g| {
            rest.get(i).map_or(0, |&b| board.distance_from(g, b, p))
        });
        Some(matched.map_or(IMPOSSIBLE, |m| total + m))
    }
}

/// The buffers of [`PairPushes::bound`].
#[derive(Debug, Clone, Default)]
pub struct PairScratch {
    assigned: Vec<u32>,
    surplus: Vec<(u32, u16, u16, u32)>,
    paired: Vec<bool>,
    rest: Vec<usize>,
}

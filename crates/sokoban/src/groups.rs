//! Small-group deadlocks: every placement of two (or three) boxes and the player from
//! which those boxes alone cannot all reach goals, found once per level by one backward
//! search.
//!
//! Why this is exact for both metrics: take the other boxes away from a solvable state and
//! replay its solution: every walk and every push of the group stays legal (fewer squares
//! are taken), a push of a box taken away becomes a step onto a free square, and at the
//! end the group is on goals. So when the group alone cannot do it, no solution passes
//! through any state that holds it there with the player in that place: the state is
//! pruned, and no optimum of either metric is lost. It finds what the freeze test and the
//! dead squares do not: two boxes in one corridor with one goal, a box that the player
//! must pass to push another, two boxes along a wall with one goal beside them.
//!
//! The search runs backwards from every placement of the group on goals (the player
//! anywhere): a reverse step moves the player back one square, a pull moves a box back
//! onto the player's square and the player one further. What it reaches is solvable; the
//! rest is dead.
//!
//! # Complexity
//! O(C(n, m) n) time and bits for groups of m boxes on n floor squares, built only
//! up to [`PAIR_MAX_CELLS`] squares for pairs and [`TRIPLE_MAX_CELLS`] for triples; a
//! lookup is O(1).

use grid_core::CellId;

use crate::parse::Level;

/// The most floor squares for which the pair table is built: C(160, 2) x 160 bits take
/// 250 KiB and the search queues at most 2 million placements (8 MiB), for a moment.
pub const PAIR_MAX_CELLS: usize = 160;

/// The most floor squares for which the triple table is built: C(72, 3) x 72 bits take
/// 530 KiB and the search queues at most 4.3 million placements (17 MiB), for a moment.
pub const TRIPLE_MAX_CELLS: usize = 72;

/// The solvable placements of a group of boxes (two or three) and the player.
#[derive(Debug, Clone, Default)]
pub struct GroupDeadlocks {
    n: usize,
    /// Boxes per group.
    m: usize,
    /// One bit per (boxes in increasing order, player): set when the boxes can all reach
    /// goals.
    solvable: Vec<u64>,
}

impl GroupDeadlocks {
    /// The pair table of `level`'s floor and goals (its boxes and player do not matter),
    /// or an empty one (which finds no deadlock) past [`PAIR_MAX_CELLS`] squares or with
    /// fewer than two goals.
    ///
    /// # Complexity
    /// O(n^3) for n floor squares.
    pub fn new(level: &Level) -> Self {
        GroupDeadlocks::build(level, 2, PAIR_MAX_CELLS)
    }

    /// The triple table of `level`, or an empty one past [`TRIPLE_MAX_CELLS`] squares or
    /// with fewer than three goals.
    ///
    /// # Complexity
    /// O(n^4) for n floor squares.
    pub fn triples(level: &Level) -> Self {
        GroupDeadlocks::build(level, 3, TRIPLE_MAX_CELLS)
    }

    /// The bytes [`GroupDeadlocks::triples`] takes for `level`, its queue included (0 when
    /// it builds none).
    pub fn triples_bytes(level: &Level) -> u64 {
        let n = level.grid().cell_count();
        if n > TRIPLE_MAX_CELLS || level.goals().len() < 3 {
            return 0;
        }
        let placements = (groups(n, 3) * n) as u64;
        placements / 8 + placements * 4
    }

    fn build(level: &Level, m: usize, max_cells: usize) -> Self {
        let grid = level.grid();
        let n = grid.cell_count();
        if n > max_cells || level.goals().len() < m {
            return GroupDeadlocks::default();
        }
        let mut table = GroupDeadlocks {
            n,
            m,
            solvable: vec![0; (groups(n, m) * n).div_ceil(64)],
        };
        let mut queue: Vec<u32> = Vec::new();
        let goals: Vec<usize> = level.goals().iter().map(|g| g.index()).collect();
        // Every group of m goals, in increasing order (the goals are sorted).
        let mut pick = [0usize, 1, 2];
        let mut group = [0usize; 3];
        'groups: loop {
            for (slot, &i) in group.iter_mut().zip(&pick[..m]) {
                *slot = goals[i];
            }
            for p in (0..n).filter(|p| !group[..m].contains(p)) {
                table.reach(&group[..m], p, &mut queue);
            }
            // The next combination of m indices below goals.len().
            let mut i = m;
            loop {
                if i == 0 {
                    break 'groups;
                }
                i -= 1;
                if pick[i] < goals.len() - m + i {
                    break;
                }
            }
            pick[i] += 1;
            for j in i + 1..m {
                pick[j] = pick[j - 1] + 1;
            }
        }
        let mut head = 0;
        let mut boxes = [0usize; 3];
        while head < queue.len() {
            let at = queue[head];
            head += 1;
            let p = (at >> 24) as usize;
            for (i, b) in boxes[..m].iter_mut().enumerate() {
                *b = (at >> (8 * i)) as usize & 0xff;
            }
            let player = CellId::new(p);
            for (dir, before) in grid.neighbours(player) {
                let q = before.index();
                if boxes[..m].contains(&q) {
                    continue;
                }
                // A step from `before` onto the player's square.
                table.reach(&boxes[..m], q, &mut queue);
                // A push from `before` that moved a box from the player's square onto the
                // square beyond it.
                let Some(beyond) = grid.neighbour(player, dir.opposite()) else {
                    continue;
                };
                if let Some(i) = boxes[..m].iter().position(|&b| b == beyond.index()) {
                    let mut pulled = boxes;
                    pulled[i] = p;
                    pulled[..m].sort_unstable();
                    table.reach(&pulled[..m], q, &mut queue);
                }
            }
        }
        table
    }

    /// The bit of (sorted `boxes`, `p`): the group's rank among the groups of its size
    /// (the combinatorial number system: box i of the group counts C(square, i + 1)),
    /// times n, plus the player's square. Why not n^m per group: the table is m! times
    /// smaller, 220 KiB for triples on 58 squares, and its lookups stay in cache.
    #[inline]
    fn index(&self, boxes: &[usize], p: usize) -> usize {
        let rank = match *boxes {
            [a, b] => a + b * (b - 1) / 2,
            [a, b, c] => a + b * (b - 1) / 2 + c * (c - 1) * (c - 2) / 6,
            _ => 0,
        };
        rank * self.n + p
    }

    /// Marks (boxes, p) solvable, queued once (its squares packed in a byte each: the
    /// tables are built up to 255 squares).
    fn reach(&mut self, boxes: &[usize], p: usize, queue: &mut Vec<u32>) {
        let at = self.index(boxes, p);
        let (word, bit) = (at / 64, 1u64 << (at % 64));
        if self.solvable[word] & bit == 0 {
            self.solvable[word] |= bit;
            let packed = boxes
                .iter()
                .enumerate()
                .fold((p as u32) << 24, |w, (i, &b)| w | (b as u32) << (8 * i));
            queue.push(packed);
        }
    }

    /// Whether boxes on `a` and `b` (distinct squares) with the player on `player` can
    /// never both reach goals, whatever else is on the floor; `false` when the table is
    /// not built or is not a pair table.
    #[inline]
    pub fn dead(&self, a: usize, b: usize, player: usize) -> bool {
        if self.m != 2 {
            return false;
        }
        let at = self.index(&[a.min(b), a.max(b)], player);
        self.solvable[at / 64] & (1u64 << (at % 64)) == 0
    }

    /// Whether boxes on the distinct squares `a`, `b`, `c` with the player on `player`
    /// can never all reach goals; `false` when the table is not built or is not a triple
    /// table.
    #[inline]
    pub fn dead3(&self, a: usize, b: usize, c: usize, player: usize) -> bool {
        if self.m != 3 {
            return false;
        }
        let mut group = [a, b, c];
        group.sort_unstable();
        let at = self.index(&group, player);
        self.solvable[at / 64] & (1u64 << (at % 64)) == 0
    }

    /// The bytes of the table.
    pub fn bytes(&self) -> u64 {
        (self.solvable.len() * 8) as u64
    }
}

/// C(n, m): the groups of m among n squares (m is 2 or 3).
fn groups(n: usize, m: usize) -> usize {
    match m {
        2 => n * n.saturating_sub(1) / 2,
        _ => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
    }
}

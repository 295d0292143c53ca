//! Breadth-first walks of the player with the boxes as walls, from one square or from
//! every state of a box layout at once, with stamps so that a walk costs only what it
//! visits.

use grid_core::{CellId, Dir, Grid};

/// Breadth-first walks of the player with the boxes as walls.
#[derive(Debug, Clone)]
pub(super) struct Walker {
    pub(super) dist: Vec<u32>,
    /// The direction of the last step into each square, for reading a walk back.
    pub(super) came: Vec<Dir>,
    /// The position of the source each square was reached from, by [`Walker::run_many`].
    pub(super) wave: Vec<u32>,
    /// Per source of [`Walker::run_many`]: the union-find parent of its region (the root
    /// after the walk).
    pub(super) joined: Vec<u32>,
    /// Per source of [`Walker::run_many`], its tag.
    pub(super) tags: Vec<u32>,
    pub(super) stamp: Vec<u32>,
    pub(super) round: u32,
    pub(super) queue: Vec<CellId>,
}

/// One start of [`Walker::run_many`]: a square, the moves already made when the walk
/// starts there, and a number the walk reports as the origin of the squares it reaches.
#[derive(Debug, Clone, Copy)]
pub(super) struct Source {
    /// Where the player stands.
    pub(super) square: CellId,
    /// The moves made before.
    pub(super) moves: u32,
    /// What [`Walker::origin`] answers for the squares best reached from here.
    pub(super) tag: u32,
}

impl Walker {
    /// Buffers for `cells` squares.
    pub(super) fn new(cells: usize) -> Self {
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

    pub(super) fn next_round(&mut self) {
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
    pub(super) fn run_many(&mut self, grid: &Grid, occupied: &[bool], sources: &[Source]) {
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
    pub(super) fn root(&mut self, mut i: u32) -> u32 {
        while self.joined[i as usize] != i {
            let up = self.joined[self.joined[i as usize] as usize];
            self.joined[i as usize] = up;
            i = up;
        }
        i
    }

    pub(super) fn join(&mut self, a: u32, b: u32) {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.joined[a.max(b) as usize] = a.min(b);
        }
    }

    /// The tag of the source the last [`Walker::run_many`] reached `cell` from (meaningful
    /// when [`Walker::distance`] is `Some`).
    #[inline]
    pub(super) fn origin(&self, cell: CellId) -> u32 {
        self.tags[self.wave[cell.index()] as usize]
    }

    /// The region of `cell` in the last [`Walker::run_many`]: the position (in its
    /// `sources`) of one source in the same connected part of the floor; equal for two
    /// squares exactly when they are connected (meaningful when [`Walker::distance`] is
    /// `Some`).
    #[inline]
    pub(super) fn region(&self, cell: CellId) -> usize {
        self.joined[self.wave[cell.index()] as usize] as usize
    }

    /// The region of source number `i` of the last [`Walker::run_many`] (see
    /// [`Walker::region`]).
    #[inline]
    pub(super) fn source_region(&self, i: usize) -> usize {
        self.joined[i] as usize
    }

    /// Whether a walk from `from` over squares not `occupied` reaches one of `targets`;
    /// stops at the first.
    ///
    /// # Complexity
    /// O(cells x targets).
    pub(super) fn reaches(
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

    /// Whether a walk from `from` over squares not `occupied`, at most `within` steps,
    /// reaches a square where `target` (given the square and its steps) holds; stops at
    /// the first.
    ///
    /// # Complexity
    /// O(squares within `within` steps) calls of `target` at most.
    pub(super) fn reaches_within(
        &mut self,
        grid: &Grid,
        occupied: &[bool],
        from: CellId,
        within: u32,
        mut target: impl FnMut(CellId, u32) -> bool,
    ) -> bool {
        self.begin(from);
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            let d = self.dist[cell.index()];
            if target(cell, d) {
                return true;
            }
            if d >= within {
                continue;
            }
            for (_, n) in grid.neighbours(cell) {
                if self.stamp[n.index()] != self.round && !occupied[n.index()] {
                    self.stamp[n.index()] = self.round;
                    self.dist[n.index()] = d + 1;
                    self.queue.push(n);
                }
            }
        }
        false
    }

    /// A new walk from `from`: a new round of marks and `from` alone in the queue, 0 steps.
    fn begin(&mut self, from: CellId) {
        self.next_round();
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from.index()] = self.round;
        self.dist[from.index()] = 0;
    }

    /// Walks from `from` over every square not `occupied`.
    ///
    /// # Complexity
    /// O(cells).
    pub(super) fn run(&mut self, grid: &Grid, occupied: &[bool], from: CellId) {
        self.begin(from);
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

    /// The squares the last walk reached, nearest first.
    pub(super) fn reached(&self) -> &[CellId] {
        &self.queue
    }

    /// The length of the last walk to `cell`, if it reached it.
    #[inline]
    pub(super) fn distance(&self, cell: CellId) -> Option<u32> {
        (self.stamp[cell.index()] == self.round).then(|| self.dist[cell.index()])
    }

    /// The directions of one shortest walk to `cell` from the last start, in order.
    pub(super) fn walk_to(&self, grid: &Grid, cell: CellId) -> Vec<Dir> {
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

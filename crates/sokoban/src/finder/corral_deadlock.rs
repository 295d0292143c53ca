//! Corral deadlocks: a push that shuts the player out of a part of the floor whose boxes
//! can never all reach goals, found by a small search on those boxes alone.
//!
//! After a push, each part of the free floor the player cannot reach beside the pushed
//! box is a *corral*; its boxes are those next to it (they, with the walls, shut it). The
//! test keeps only these boxes, takes every other box away, and searches their pushes,
//! the player starting where it stands:
//!
//! - a box pushed onto a square that was neither the corral nor one of its boxes has left
//!   it, and is taken away too;
//! - the test fails (no deadlock) as soon as every box left stands on a goal, or when the
//!   search passes [`MAX_STATES`] states;
//! - the state is deadlocked when the search runs out of states first.
//!
//! Why exact: taking boxes away never makes a solvable level unsolvable (every push of a
//! solution stays legal, the pushes of a removed box become walks), so when the boxes
//! kept, with boxes taken away as they leave, can never all stand on goals, neither can
//! every box of the level. Inside the search, pushes onto dead squares and frozen boxes
//! off goals are pruned, both exact for the boxes kept. The finder's tests compare the
//! finder with and without it on thousands of generated levels.
//!
//! This is the corral deadlock of Rolling Stone (Junghanns and Schaeffer, AIJ 2001) and
//! YASS, made exact by taking the leaving boxes away rather than trusting them.
//!
//! # Complexity
//! O(squares) to find a corral; the search at most [`MAX_STATES`] states, each
//! O(boxes x squares). Results are remembered by the boxes kept and the player's region.

use std::collections::HashMap;

use grid_core::{CellId, Grid};

use super::walk::Walker;
use crate::board::{Board, Freeze};

/// The states a test may search before it gives up (no deadlock claimed).
pub(super) const MAX_STATES: usize = 500;

/// Corrals of more boxes than this are not tested.
const MAX_BOXES: usize = 6;

/// Results remembered; past this the memory is cleared.
const MAX_REMEMBERED: usize = 1 << 16;

/// The test, with its scratch marks and what it has found.
#[derive(Debug)]
pub(super) struct CorralDeadlocks {
    /// The squares of the corral being looked at (stamped).
    corral: Vec<u32>,
    stamp: u32,
    queue: Vec<CellId>,
    boxes: Vec<CellId>,
    /// The boxes the search keeps, per square.
    kept: Vec<bool>,
    walker: Walker,
    freeze: Freeze,
    seen: HashMap<Vec<u16>, ()>,
    open: Vec<Vec<u16>>,
    /// Dead or not, by the boxes kept and the least square of the player's region.
    remembered: HashMap<Vec<u16>, bool>,
    /// Tests run and deadlocks found, for measuring.
    pub(super) tests: u64,
    pub(super) found: u64,
}

impl CorralDeadlocks {
    /// Marks for a floor of `n` squares.
    pub(super) fn new(n: usize) -> Self {
        CorralDeadlocks {
            corral: vec![0; n],
            stamp: 0,
            queue: Vec::new(),
            boxes: Vec::new(),
            kept: vec![false; n],
            walker: Walker::new(n),
            freeze: Freeze::new(n),
            seen: HashMap::new(),
            open: Vec::new(),
            remembered: HashMap::new(),
            tests: 0,
            found: 0,
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.corral.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Whether the box just pushed onto `to` shut a corral that is deadlocked.
    /// `occupied` marks the boxes after the push, `player` the squares the player reaches
    /// after it, from `from` (where the box was), `before` those it reached before it.
    /// Only the corrals the push shut are tested (their squares were reached before):
    /// the others were tested when they were shut.
    pub(super) fn dead(
        &mut self,
        board: &Board<'_>,
        occupied: &[bool],
        player: &Walker,
        before: &Walker,
        from: CellId,
        to: CellId,
    ) -> bool {
        let grid = board.grid();
        // The stamps of this push's corrals are those past `stamps` (a wrap of the
        // stamps only makes a corral tested twice).
        let stamps = self.stamp;
        for (_, start) in grid.neighbours(to) {
            if occupied[start.index()]
                || player.reached(start)
                || !before.reached(start)
                || self.corral[start.index()] > stamps
            {
                continue;
            }
            let stamp = self.next_stamp();
            if !self.fill(grid, occupied, start, stamp) {
                continue;
            }
            if self.boxes.iter().all(|b| board.is_goal(b.index())) {
                continue;
            }
            if self.search(board, from, stamp) {
                return true;
            }
        }
        false
    }

    /// Marks the corral of `start` with `stamp` and collects its boxes in `boxes`; false
    /// when they are too many to test.
    fn fill(&mut self, grid: &Grid, occupied: &[bool], start: CellId, stamp: u32) -> bool {
        self.queue.clear();
        self.boxes.clear();
        self.queue.push(start);
        self.corral[start.index()] = stamp;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            for (_, next) in grid.neighbours(cell) {
                if self.corral[next.index()] == stamp {
                    continue;
                }
                self.corral[next.index()] = stamp;
                if occupied[next.index()] {
                    self.boxes.push(next);
                    if self.boxes.len() > MAX_BOXES {
                        return false;
                    }
                } else {
                    // Unreached and free: the corral goes on (a reached square cannot
                    // be next to an unreached free one).
                    self.queue.push(next);
                }
            }
        }
        true
    }

    /// The search on the corral's boxes alone; true when it runs out of states without
    /// all of them on goals (deadlocked).
    fn search(&mut self, board: &Board<'_>, player: CellId, stamp: u32) -> bool {
        let grid = board.grid();
        let mut start: Vec<u16> = self.boxes.iter().map(|b| b.index() as u16).collect();
        start.sort_unstable();
        start.push(self.region_of(grid, &start, player));
        if let Some(&dead) = self.remembered.get(&start) {
            return dead;
        }
        self.tests += 1;
        self.seen.clear();
        self.open.clear();
        self.seen.insert(start.clone(), ());
        self.open.push(start.clone());
        let mut dead = true;
        'search: while let Some(state) = self.open.pop() {
            let k = state.len() - 1;
            for &b in &state[..k] {
                self.kept[usize::from(b)] = true;
            }
            self.walker
                .run(grid, &self.kept, CellId::new(usize::from(state[k])));
            let mut children: Vec<Vec<u16>> = Vec::new();
            for i in 0..k {
                let cell = CellId::new(usize::from(state[i]));
                for (_, to, behind) in grid.push_lines(cell) {
                    if self.kept[to.index()]
                        || board.is_dead(to.index())
                        || !self.walker.reached(behind)
                    {
                        continue;
                    }
                    let mut child: Vec<u16> = Vec::with_capacity(k + 1);
                    if self.corral[to.index()] == stamp {
                        self.kept[cell.index()] = false;
                        self.kept[to.index()] = true;
                        let frozen = self.freeze.deadlocked(board, &self.kept, to);
                        self.kept[to.index()] = false;
                        self.kept[cell.index()] = true;
                        if frozen {
                            continue;
                        }
                        child.extend(state[..k].iter().map(|&b| {
                            if usize::from(b) == cell.index() {
                                to.index() as u16
                            } else {
                                b
                            }
                        }));
                    } else {
                        // The box left the corral: taken away.
                        child.extend(
                            state[..k]
                                .iter()
                                .copied()
                                .filter(|&b| usize::from(b) != cell.index()),
                        );
                    }
                    child.sort_unstable();
                    children.push(child);
                }
            }
            for &b in &state[..k] {
                self.kept[usize::from(b)] = false;
            }
            for mut child in children {
                if child.iter().all(|&b| board.is_goal(usize::from(b))) {
                    dead = false;
                    break 'search;
                }
                // The player stands where the pushed box was: the square of the parent's
                // box that the child lacks.
                let from = state[..k]
                    .iter()
                    .find(|b| !child.contains(b))
                    .map_or(player, |&b| CellId::new(usize::from(b)));
                let region = self.region_of(grid, &child, from);
                child.push(region);
                if self.seen.contains_key(&child) {
                    continue;
                }
                if self.seen.len() >= MAX_STATES {
                    dead = false;
                    break 'search;
                }
                self.seen.insert(child.clone(), ());
                self.open.push(child);
            }
        }
        if self.remembered.len() >= MAX_REMEMBERED {
            self.remembered.clear();
        }
        self.remembered.insert(start, dead);
        self.found += u64::from(dead);
        dead
    }

    /// The least square of the player's region on `from`, the boxes on `boxes` alone.
    fn region_of(&mut self, grid: &Grid, boxes: &[u16], from: CellId) -> u16 {
        for &b in boxes {
            self.kept[usize::from(b)] = true;
        }
        self.walker.run(grid, &self.kept, from);
        for &b in boxes {
            self.kept[usize::from(b)] = false;
        }
        self.walker.least().index() as u16
    }
}

#[cfg(test)]
mod tests {
    use grid_core::rng::SplitMix64;
    use grid_core::{CellId, Dir};

    use super::CorralDeadlocks;
    use crate::board::Board;
    use crate::finder::walk::Walker;
    use crate::finder::{Options, find};
    use crate::{Collection, Level, generate};

    fn levels(text: &str) -> Vec<Level> {
        Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
            .filter_map(Result::ok)
            .collect()
    }

    /// Every deadlock the test claims is one: random pushes on generated rooms, and each
    /// state after a push that the test calls deadlocked is drawn as a level of its own
    /// and searched to exhaustion by the finder (complete, without the test), which must
    /// find no solution. Enough claims are made for this to mean something.
    #[test]
    fn every_claimed_deadlock_is_unsolvable() {
        let mut rng = SplitMix64::new(77);
        let (mut claims, mut tests) = (0, 0);
        for round in 0..1000 {
            let boxes = 2 + round % 5;
            let text = generate::random_level(&mut rng, boxes, 12, [25, 35, 45][round % 3]);
            for level in levels(&text) {
                if level.stranded() {
                    continue;
                }
                let grid = level.grid();
                let board = Board::new(&level);
                let n = grid.cell_count();
                let mut boxes: Vec<CellId> = level.boxes().to_vec();
                let mut player = level.player();
                let mut occupied = vec![false; n];
                let mut walker = Walker::new(n);
                let mut test = CorralDeadlocks::new(n);
                for _ in 0..30 {
                    occupied.fill(false);
                    for b in &boxes {
                        occupied[b.index()] = true;
                    }
                    walker.run(grid, &occupied, player);
                    let pushes: Vec<(usize, CellId)> = (0..boxes.len())
                        .flat_map(|i| Dir::ALL.into_iter().map(move |d| (i, d)))
                        .filter_map(|(i, d)| {
                            let to = grid.neighbour(boxes[i], d)?;
                            let behind = grid.neighbour(boxes[i], d.opposite())?;
                            (!occupied[to.index()]
                                && !board.is_dead(to.index())
                                && walker.reached(behind))
                            .then_some((i, to))
                        })
                        .collect();
                    if pushes.is_empty() {
                        break;
                    }
                    let (i, to) = pushes[rng.below(pushes.len())];
                    let from = boxes[i];
                    occupied[from.index()] = false;
                    occupied[to.index()] = true;
                    boxes[i] = to;
                    player = from;
                    let before = walker.clone();
                    walker.run(grid, &occupied, player);
                    if test.dead(&board, &occupied, &walker, &before, from, to) {
                        claims += 1;
                        let drawn = level.draw(&boxes, player);
                        let state = Collection::new(drawn.as_bytes(), crate::DEFAULT_MAX_CELLS)
                            .next()
                            .unwrap()
                            .unwrap_or_else(|e| panic!("{e}\n{drawn}"));
                        let state = &state;
                        let found = find(state, &Options::default(), &mut || false).unwrap();
                        assert_eq!(found, None, "claimed deadlocked:\n{drawn}");
                        break;
                    }
                }
                tests += test.tests;
            }
        }
        assert!(
            claims >= 50 && tests >= 150,
            "{claims} claims in {tests} tests"
        );
    }
}

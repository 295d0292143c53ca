//! PIBT, priority inheritance with backtracking (Okumura et al., AIJ 2022): one step for
//! every agent at once, the configuration generator of [`super::lacam`].
//!
//! Agents choose in priority order, each the free neighbouring cell (or its own) nearest
//! its goal. An agent that wants a cell where another still stands makes that one choose
//! first, lending it its priority; when the other finds no cell, the first tries its next
//! choice (backtracking). Some agents may be fixed beforehand by the search's constraints.
//! The ghosts rules are kept: no two agents on one cell, no two swapping; following and
//! rotations are allowed.
//!
//! # Complexity
//! O(K x 5) distance queries and cell checks per step for K agents (each agent is asked
//! once: an agent that has chosen is never asked again), plus the queries'
//! own cost (see [`super::dist_table`]). Memory O(C + K).

use grid_core::CellId;

use super::dist_table::DistTable;
use crate::moves::Options;

/// No agent, in the occupancy tables; no cell chosen yet, in the next configuration.
pub const NONE: u32 = u32::MAX;

/// A small seeded generator (SplitMix64) for the tie breaks: grid-core's is a test tool,
/// behind its `generate` feature.
#[derive(Debug, Clone)]
pub struct Noise(u64);

impl Noise {
    /// The generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Noise(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (((self.next_u64() >> 32) * bound as u64) >> 32) as usize
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The generator's tables, kept between steps (cleared after each).
#[derive(Debug)]
pub struct Pibt<'o> {
    options: &'o Options,
    /// Agent on each cell now.
    now: Vec<u32>,
    /// Agent that has taken each cell for the next step.
    next: Vec<u32>,
    noise: Noise,
}

impl<'o> Pibt<'o> {
    /// Tables for a map whose moves are `options` and `cells` cells.
    pub fn new(options: &'o Options, cells: usize, seed: u64) -> Self {
        Pibt {
            options,
            now: vec![NONE; cells],
            next: vec![NONE; cells],
            noise: Noise::new(seed),
        }
    }

    /// The moves of the map.
    pub fn options(&self) -> &'o Options {
        self.options
    }

    /// The next configuration after `from` (agent `i` on cell `from[i]`), in `to`: first
    /// the agents of `fixed` on their given cells (agent, cell), then the others in
    /// `order` (highest priority first) by PIBT. False when the fixed agents clash (one
    /// cell or a swap) or an agent of `order` finds no cell; `to` is then meaningless.
    ///
    /// # Complexity
    /// See the module documentation.
    pub fn step(
        &mut self,
        dist: &mut DistTable<'_>,
        from: &[u32],
        order: &[u32],
        fixed: &[(u32, u32)],
        to: &mut Vec<u32>,
    ) -> bool {
        to.clear();
        to.resize(from.len(), NONE);
        for (i, &v) in from.iter().enumerate() {
            self.now[v as usize] = i as u32;
        }
        let ok = self.fill(dist, from, order, fixed, to);
        for &v in from {
            self.now[v as usize] = NONE;
        }
        for &v in to.iter() {
            if v != NONE {
                self.next[v as usize] = NONE;
            }
        }
        ok
    }

    fn fill(
        &mut self,
        dist: &mut DistTable<'_>,
        from: &[u32],
        order: &[u32],
        fixed: &[(u32, u32)],
        to: &mut [u32],
    ) -> bool {
        for &(i, v) in fixed {
            if self.next[v as usize] != NONE {
                return false;
            }
            let j = self.now[v as usize];
            if j != NONE && j != i && to[j as usize] == from[i as usize] {
                return false;
            }
            to[i as usize] = v;
            self.next[v as usize] = i;
        }
        for &i in order {
            if to[i as usize] == NONE && !self.choose(dist, from, to, i) {
                return false;
            }
        }
        true
    }

    /// PIBT for agent `i`: takes a cell for it, asking the agent on that cell to move
    /// first when it has not chosen yet. False when `i` must stay and could not.
    fn choose(&mut self, dist: &mut DistTable<'_>, from: &[u32], to: &mut [u32], i: u32) -> bool {
        let here = from[i as usize];
        // Candidates: stay or a neighbour, nearest the goal first, random among equals.
        let mut candidates = [(0u32, 0u64, 0u32); 5];
        let options = self.options.of(here);
        for (slot, &v) in candidates.iter_mut().zip(options) {
            let d = dist.get(i as usize, CellId::new(v as usize));
            *slot = (d, self.noise.next_u64(), v);
        }
        let candidates = &mut candidates[..options.len()];
        candidates.sort_unstable();
        for &(_, _, v) in candidates.iter() {
            if self.next[v as usize] != NONE {
                continue;
            }
            let j = self.now[v as usize];
            // No swap: the agent on v must not be going to i's cell.
            if j != NONE && to[j as usize] == here {
                continue;
            }
            self.next[v as usize] = i;
            to[i as usize] = v;
            if j != NONE && j != i && to[j as usize] == NONE && !self.choose(dist, from, to, j) {
                continue;
            }
            return true;
        }
        // Nothing free: stay (the agent that asked, if any, moves on to its next choice).
        self.next[here as usize] = i;
        to[i as usize] = here;
        false
    }
}

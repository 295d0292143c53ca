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
//! Plain PIBT stalls where two agents meet head-on in a corridor: the one with the
//! higher priority pushes the other back forever. The swap technique of LaCAM
//! (Okumura, AAAI 2023) turns it round: the agent walks back instead, pulling the other
//! after it, until they reach a junction where they pass (never an actual swap of
//! cells). On maze-32-32-2 even-1 with 150 agents, LaCAM*'s first second found no plan
//! without it and one of makespan 136 with it (lacam2: 135).
//!
//! # Complexity
//! O(K x 5) distance queries and cell checks per step for K agents (each agent is asked
//! once: an agent that has chosen is never asked again), plus the queries'
//! own cost (see [`super::dist_table`]) and the swap checks, each a walk along one
//! corridor, O(its length). Memory O(C + K).

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
    ///
    /// With the swap technique of LaCAM (Okumura, AAAI 2023): when `i` and a neighbour
    /// must pass each other in a corridor (see [`Pibt::swap_partner`]), `i` tries its
    /// cells farthest from its goal first and, when it moves, pulls the partner into the
    /// cell it leaves; walking back like this they reach a junction where they pass.
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
        let partner = self.swap_partner(dist, to, i, here, candidates[0].2);
        if partner.is_some() {
            candidates.reverse();
        }
        for (rank, &(_, _, v)) in candidates.iter().enumerate() {
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
            // The partner follows into the cell i leaves (no swap: had i moved onto the
            // partner's cell, the partner would have chosen already).
            if let Some(p) = partner
                && rank == 0
                && to[p as usize] == NONE
                && self.next[here as usize] == NONE
            {
                to[p as usize] = here;
                self.next[here as usize] = p;
            }
            return true;
        }
        // Nothing free: stay (the agent that asked, if any, moves on to its next choice).
        self.next[here as usize] = i;
        to[i as usize] = here;
        false
    }

    /// The agent `i` (on `here`, its best cell `best`) must pass in a corridor, if any:
    /// the agent on `best` that has not chosen yet, when each wants the other's side and
    /// the corridor behind `i` opens onto a junction where they can pass; or a neighbour
    /// pushing `i` towards `best` when `i` must pass it in the same way (the corridor
    /// beyond `best` opening onto a junction).
    fn swap_partner(
        &self,
        dist: &mut DistTable<'_>,
        to: &[u32],
        i: u32,
        here: u32,
        best: u32,
    ) -> Option<u32> {
        if best == here {
            return None;
        }
        let j = self.now[best as usize];
        if j != NONE
            && to[j as usize] == NONE
            && self.swap_needed(dist, i, j, here, best)
            && self.swap_room(dist, best, here)
        {
            return Some(j);
        }
        self.neighbours(here).find_map(|u| {
            let k = self.now[u as usize];
            (k != NONE
                && u != best
                && self.swap_needed(dist, k, i, here, best)
                && self.swap_room(dist, best, here))
            .then_some(k)
        })
    }

    /// Whether `pusher` (on `pusher_at`) and `puller` (on `puller_at`, next to it) can
    /// only reach their goals by passing each other: walking the corridor from the
    /// puller's side away from the pusher while the pusher still wants to go that way,
    /// no junction comes (a cell with two ways on), and at the end each wants the
    /// other's side.
    fn swap_needed(
        &self,
        dist: &mut DistTable<'_>,
        pusher: u32,
        puller: u32,
        pusher_at: u32,
        puller_at: u32,
    ) -> bool {
        let d = |dist: &mut DistTable<'_>, agent: u32, cell: u32| {
            dist.get(agent as usize, CellId::new(cell as usize))
        };
        let (mut back, mut ahead) = (pusher_at, puller_at);
        while d(dist, pusher, ahead) < d(dist, pusher, back) {
            let mut ways = self.ways_on(dist, ahead, back);
            match (ways.next(), ways.next()) {
                (Some(_), Some(_)) => return false,
                (Some(next), None) => (back, ahead) = (ahead, next),
                (None, _) => break,
            }
        }
        d(dist, puller, back) < d(dist, puller, ahead)
            && (d(dist, pusher, back) == 0 || d(dist, pusher, ahead) < d(dist, pusher, back))
    }

    /// Whether the corridor from `puller_at` away from `pusher_at` opens onto a junction
    /// before it ends or comes back round to `pusher_at`.
    fn swap_room(&self, dist: &mut DistTable<'_>, pusher_at: u32, puller_at: u32) -> bool {
        let (mut back, mut ahead) = (pusher_at, puller_at);
        // A corridor has at most as many cells as the map.
        for _ in 0..self.now.len() {
            if ahead == pusher_at {
                return false;
            }
            let mut ways = self.ways_on(dist, ahead, back);
            match (ways.next(), ways.next()) {
                (Some(_), Some(_)) => return true,
                (Some(next), None) => (back, ahead) = (ahead, next),
                (None, _) => return false,
            }
        }
        false
    }

    /// The neighbours of `cell` one can go on to, coming from `back`: not `back`, nor a
    /// dead end where an agent sits on its own goal.
    fn ways_on<'s>(
        &'s self,
        dist: &'s mut DistTable<'_>,
        cell: u32,
        back: u32,
    ) -> impl Iterator<Item = u32> + 's {
        self.neighbours(cell).filter(move |&u| {
            if u == back {
                return false;
            }
            let a = self.now[u as usize];
            let dead_end = self.neighbours(u).nth(1).is_none();
            !(dead_end && a != NONE && dist.get(a as usize, CellId::new(u as usize)) == 0)
        })
    }

    /// The neighbours of `cell` (its options but staying).
    fn neighbours(&self, cell: u32) -> impl Iterator<Item = u32> + '_ {
        self.options
            .of(cell)
            .iter()
            .copied()
            .filter(move |&u| u != cell)
    }
}

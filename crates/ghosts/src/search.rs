//! A* over joint placements of all ghosts, with a bucket queue and a bound that grows
//! stronger (pair distances) once a search turns out to be large.
//!
//! Why this method: every step costs 1 and the bound of [`crate::heuristic`] is
//! consistent, so A* expands each placement at most once and returns as soon as the
//! goal is reached within the smallest open `f`. Buckets indexed by `f` make queue
//! operations O(1); inside a bucket the newest (deepest) placement goes first, which
//! reaches the goal of a wide `f` layer quickly. Visited placements live in one
//! open-addressing hash table keyed by the packed placement, so memory follows the
//! placements the search actually touches, not C^n.
//!
//! # Complexity
//! O(E x 5^n) time for E expanded placements (each has at most 5^n successors) and
//! O(E) memory; E is at most C^n and far smaller with the pair bound (see the bench).

use grid_core::CellId;

use crate::heuristic::{Heuristic, NEVER};
use crate::moves::{Options, compatible};
use crate::parse::Dataset;

/// How many placements a search with one-ghost bounds may expand before it is restarted
/// with pair bounds: small searches never pay for the C^2 pair tables.
const EXPANSIONS_BEFORE_PAIRS: usize = 2_000;

/// The placements of all ghosts from the start (excluded) to the homes (included).
pub type Plan = Vec<Vec<CellId>>;

/// The answer for one dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Fewest steps, or `None` when the ghosts can never all be home.
    pub steps: Option<u32>,
    /// When asked for and solvable: the placement after each step.
    pub plan: Option<Plan>,
    /// Placements expanded by the search (for the bench and curious users).
    pub expanded: usize,
}

/// The search would need more memory than allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the search needs more than {budget_mib} MiB (stored {placements} placements)")]
pub struct OverBudget {
    /// The budget, in MiB.
    pub budget_mib: u64,
    /// Placements stored when the budget ran out.
    pub placements: usize,
}

/// Solves `dataset` exactly within `budget_mib` MiB of search memory.
///
/// # Complexity
/// See the module documentation.
pub fn solve(dataset: &Dataset, want_plan: bool, budget_mib: u64) -> Result<Solution, OverBudget> {
    let n = dataset.starts.len();
    let cells = dataset.grid.cell_count();
    if dataset.starts == dataset.homes {
        return Ok(Solution {
            steps: Some(0),
            plan: want_plan.then(Vec::new),
            expanded: 0,
        });
    }
    let options = Options::new(&dataset.grid);
    let mut heuristic = Heuristic::singles(&dataset.grid, &dataset.homes);
    let budget_bytes = budget_mib.saturating_mul(1 << 20);
    let pair_bytes = (n * n.saturating_sub(1) / 2) as u64 * (cells as u64).pow(2) * 2;
    let pairs_affordable = n >= 2 && pair_bytes <= budget_bytes / 4;
    // Two ghosts: the pair table is the exact answer, no reason to wait.
    if n == 2 && pairs_affordable {
        heuristic.add_pairs(&options, cells, &dataset.homes);
    }
    let layout = Layout::new(n, cells);
    let budget = Budget {
        bytes: budget_bytes.saturating_sub(if pairs_affordable { pair_bytes } else { 0 }),
        mib: budget_mib,
    };
    let mut outcome = layout.dispatch(
        dataset,
        &options,
        &heuristic,
        want_plan,
        budget,
        pairs_affordable,
    )?;
    if outcome.is_none() {
        heuristic.add_pairs(&options, cells, &dataset.homes);
        outcome = layout.dispatch(dataset, &options, &heuristic, want_plan, budget, false)?;
    }
    // A search that may not restart always finishes.
    Ok(outcome.unwrap_or(Solution {
        steps: None,
        plan: None,
        expanded: 0,
    }))
}

/// Memory allowed to one search.
#[derive(Debug, Clone, Copy)]
struct Budget {
    bytes: u64,
    mib: u64,
}

/// How a placement is packed into 64-bit words: `bits` per ghost, `per_word` ghosts a word.
#[derive(Debug, Clone, Copy)]
struct Layout {
    ghosts: usize,
    bits: u32,
    per_word: usize,
}

impl Layout {
    fn new(ghosts: usize, cells: usize) -> Self {
        let bits = (usize::BITS - cells.saturating_sub(1).leading_zeros()).max(1);
        Layout {
            ghosts,
            bits,
            per_word: (64 / bits) as usize,
        }
    }

    fn words(&self) -> usize {
        self.ghosts.div_ceil(self.per_word).max(1)
    }

    /// Runs the search with the smallest key type that holds a placement.
    fn dispatch(
        self,
        dataset: &Dataset,
        options: &Options,
        heuristic: &Heuristic,
        want_plan: bool,
        budget: Budget,
        may_restart: bool,
    ) -> Result<Option<Solution>, OverBudget> {
        macro_rules! run {
            ($k:literal) => {
                Search::<$k>::new(self, options, heuristic, budget).run(
                    dataset,
                    want_plan,
                    may_restart,
                )
            };
        }
        match self.words() {
            1 => run!(1),
            2 => run!(2),
            3 | 4 => run!(4),
            5..=8 => run!(8),
            _ => run!(13), // 26 ghosts of at most 24 bits each
        }
    }

    #[inline]
    fn pack<const K: usize>(&self, positions: &[u32]) -> [u64; K] {
        let mut key = [0u64; K];
        for (i, &p) in positions.iter().enumerate() {
            key[i / self.per_word] |= u64::from(p) << ((i % self.per_word) as u32 * self.bits);
        }
        key
    }

    #[inline]
    fn unpack<const K: usize>(&self, key: &[u64; K], positions: &mut [u32]) {
        let mask = (1u64 << self.bits) - 1;
        for (i, p) in positions.iter_mut().enumerate() {
            *p = ((key[i / self.per_word] >> ((i % self.per_word) as u32 * self.bits)) & mask)
                as u32;
        }
    }
}

/// A placement the search has stored.
#[derive(Debug, Clone, Copy)]
struct Node<const K: usize> {
    key: [u64; K],
    /// Index of the node it was reached from (itself for the start).
    parent: u32,
    /// Steps from the start on the best way found so far.
    steps: u32,
    expanded: bool,
}

const EMPTY: u32 = u32::MAX;

struct Search<'a, const K: usize> {
    layout: Layout,
    options: &'a Options,
    heuristic: &'a Heuristic,
    nodes: Vec<Node<K>>,
    /// Open addressing, linear probing: node indices, `EMPTY` for a free slot.
    table: Vec<u32>,
    /// Open nodes by f = steps + bound.
    buckets: Vec<Vec<u32>>,
    max_nodes: usize,
    budget_mib: u64,
}

#[inline]
fn hash<const K: usize>(key: &[u64; K]) -> u64 {
    let mut h = 0u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 32;
    }
    h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl<'a, const K: usize> Search<'a, K> {
    fn new(layout: Layout, options: &'a Options, heuristic: &'a Heuristic, budget: Budget) -> Self {
        // A node costs itself, two table slots (load at most 1/2) and about one queue entry.
        let per_node = (size_of::<Node<K>>() + 3 * size_of::<u32>()) as u64;
        Search {
            layout,
            options,
            heuristic,
            nodes: Vec::new(),
            table: vec![EMPTY; 1024],
            buckets: Vec::new(),
            max_nodes: usize::try_from(budget.bytes / per_node)
                .unwrap_or(usize::MAX)
                .min(EMPTY as usize - 1),
            budget_mib: budget.mib,
        }
    }

    /// The node of `key`, inserted with `steps` and `parent` if new. Returns its index and
    /// whether it was inserted.
    #[inline]
    fn find_or_insert(
        &mut self,
        key: [u64; K],
        steps: u32,
        parent: u32,
    ) -> Result<(u32, bool), OverBudget> {
        let mask = self.table.len() - 1;
        let mut slot = (hash(&key) as usize) & mask;
        loop {
            let index = self.table[slot];
            if index == EMPTY {
                break;
            }
            if self.nodes[index as usize].key == key {
                return Ok((index, false));
            }
            slot = (slot + 1) & mask;
        }
        if self.nodes.len() >= self.max_nodes {
            return Err(OverBudget {
                budget_mib: self.budget_mib,
                placements: self.nodes.len(),
            });
        }
        let index = self.nodes.len() as u32;
        let parent = if parent == EMPTY { index } else { parent };
        self.nodes.push(Node {
            key,
            parent,
            steps,
            expanded: false,
        });
        self.table[slot] = index;
        if self.nodes.len() * 2 > self.table.len() {
            self.grow();
        }
        Ok((index, true))
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mask = size - 1;
        let mut table = vec![EMPTY; size];
        for (index, node) in self.nodes.iter().enumerate() {
            let mut slot = (hash(&node.key) as usize) & mask;
            while table[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            table[slot] = index as u32;
        }
        self.table = table;
    }

    fn push(&mut self, f: u32, node: u32) {
        let f = f as usize;
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        self.buckets[f].push(node);
    }

    /// `Ok(None)` when `may_restart` and the search grew past [`EXPANSIONS_BEFORE_PAIRS`].
    fn run(
        mut self,
        dataset: &Dataset,
        want_plan: bool,
        may_restart: bool,
    ) -> Result<Option<Solution>, OverBudget> {
        let n = self.layout.ghosts;
        let to_u32 = |cells: &[CellId]| cells.iter().map(|c| c.index() as u32).collect::<Vec<_>>();
        let start = to_u32(&dataset.starts);
        let goal: [u64; K] = self.layout.pack(&to_u32(&dataset.homes));
        let bound = self.heuristic.estimate(&start);
        let never = Solution {
            steps: None,
            plan: None,
            expanded: 0,
        };
        if bound == NEVER {
            return Ok(Some(never));
        }
        let (root, _) = self.find_or_insert(self.layout.pack(&start), 0, EMPTY)?;
        self.push(bound, root);
        let mut from = vec![0u32; n];
        let mut to = vec![0u32; n];
        let mut successors: Vec<(u32, [u64; K])> = Vec::new();
        let mut f = bound as usize;
        let mut expanded = 0usize;
        loop {
            while f < self.buckets.len() && self.buckets[f].is_empty() {
                f += 1;
            }
            let Some(current) = self.buckets.get_mut(f).and_then(Vec::pop) else {
                return Ok(Some(Solution { expanded, ..never }));
            };
            let node = self.nodes[current as usize];
            if node.expanded {
                continue;
            }
            self.nodes[current as usize].expanded = true;
            if node.key == goal {
                return Ok(Some(self.finish(current, want_plan, expanded)));
            }
            expanded += 1;
            if may_restart && expanded > EXPANSIONS_BEFORE_PAIRS {
                return Ok(None);
            }
            self.layout.unpack(&node.key, &mut from);
            let steps = node.steps + 1;
            successors.clear();
            self.successors(&from, &mut to, 0, &mut |placement| {
                let bound = self.heuristic.estimate(placement);
                if bound != NEVER {
                    successors.push((steps + bound, self.layout.pack(placement)));
                }
            });
            for &(f_next, key) in &successors {
                let (index, inserted) = self.find_or_insert(key, steps, current)?;
                let next = &mut self.nodes[index as usize];
                if !inserted {
                    if next.expanded || next.steps <= steps {
                        continue;
                    }
                    next.steps = steps;
                    next.parent = current;
                }
                if key == goal && f_next as usize == f {
                    // Nothing open has a smaller f: this is a shortest way home.
                    return Ok(Some(self.finish(index, want_plan, expanded)));
                }
                self.push(f_next, index);
            }
        }
    }

    /// Calls `visit` with every placement one legal step away from `from`, choosing the
    /// move of ghost `i` onwards (`to[..i]` holds the moves already chosen).
    fn successors(&self, from: &[u32], to: &mut [u32], i: usize, visit: &mut impl FnMut(&[u32])) {
        if i == from.len() {
            visit(to);
            return;
        }
        'option: for &cell in self.options.of(from[i]) {
            for j in 0..i {
                if !compatible(from[j], from[i], to[j], cell) {
                    continue 'option;
                }
            }
            to[i] = cell;
            self.successors(from, to, i + 1, visit);
        }
    }

    fn finish(&self, goal: u32, want_plan: bool, expanded: usize) -> Solution {
        let steps = self.nodes[goal as usize].steps;
        let plan = want_plan.then(|| {
            let mut placements = Vec::new();
            let mut index = goal;
            let mut positions = vec![0u32; self.layout.ghosts];
            while self.nodes[index as usize].parent != index {
                self.layout
                    .unpack(&self.nodes[index as usize].key, &mut positions);
                placements.push(positions.iter().map(|&p| CellId::new(p as usize)).collect());
                index = self.nodes[index as usize].parent;
            }
            placements.reverse();
            placements
        });
        Solution {
            steps: Some(steps),
            plan,
            expanded,
        }
    }
}

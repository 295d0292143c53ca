//! A* over joint placements of all ghosts, with partial expansion, a bucket queue, and a
//! bound that grows stronger (pair distances) once a search turns out to be large.
//!
//! Why this method: every step costs 1 and the bounds of [`crate::heuristic`] are
//! consistent, so A* never expands a placement with f above the answer, and returns as
//! soon as the goal is reached within the smallest open f. Buckets indexed by f make
//! queue operations O(1); inside a bucket the newest (deepest) placement goes first,
//! which reaches the goal of the last layer quickly. Partial expansion generates only the
//! successors in the current layer, so the many successors with a larger f are never
//! stored.
//!
//! Visited placements live in an open-addressing hash set that keeps each key beside its
//! node index, so memory follows the placements the search touches (not C^n) and a probe
//! touches one cache line. (A direct table indexed by the placement, 5 MiB for the
//! classic maps and reused across datasets, measured 15 % slower on the bench's dense
//! maps, as its random accesses miss the cache.)
//!
//! Memory is counted, not estimated: the budget is what remains after the tables sized by
//! the map and the pair tables, and every buffer of the search (nodes, hash table, queue,
//! fresh successors) is counted by its capacity; before a buffer grows, the peak on the
//! way (the old buffer and its copy at once) is checked, and the search stops with
//! [`OverBudget`] instead of passing it. A stored placement costs at least a node, two
//! slots of the hash set (at most half full) and a queue entry: 60 bytes with one-word
//! keys (up to 9 ghosts on the classic maps), and up to two slots more just after the
//! hash set doubles.
//!
//! # Complexity
//! O(E x 5^n) time for E expansions (each enumerates at most 5^n moves) and O(E) memory;
//! E is at most C^n and far smaller in practice (see the bench).

use grid_core::CellId;
use grid_core::limits::MIB;

use crate::dataset::{Dataset, Plan, Want};
use crate::heuristic::{Heuristic, NEVER};
use crate::moves::{Options, compatible};

/// What a method found for one instance (the front door's `Solution` is made of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Fewest steps, or `None` when the ghosts can never all be home.
    pub steps: Option<u32>,
    /// When asked for and solvable: the placement after each step.
    pub plan: Option<Plan>,
    /// Placements expanded by the search (for the bench and curious users).
    pub expanded: usize,
}

impl Found {
    /// No plan exists.
    pub const NEVER: Found = Found {
        steps: None,
        plan: None,
        expanded: 0,
    };

    /// Every agent is home at the start: 0 steps, and the empty plan when asked for.
    pub fn at_start(want: Want) -> Found {
        Found {
            steps: Some(0),
            plan: (want == Want::Plan).then(Vec::new),
            expanded: 0,
        }
    }
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

/// One-ghost-bound expansions a search may spend before it pays for pair tables, per
/// pair-table state: a search stops for pair tables after pair states / 64 expansions
/// (at least 200). Measured on the bench's maps (96 datasets each, whole process, median
/// of 15): dense 20.4 ms at 1/64 against 20.8 ms at 1/4, sparse 16.0 ms against 25.9 ms.
/// Pair tables are cheap in wall time (sequential word operations), while a long
/// one-ghost search is slow (random probes of the visited set); most datasets finish
/// before either matters.
const PAIR_STATES_PER_EXPANSION: u64 = 64;

/// The least number of expansions before pair tables are built.
const MIN_EXPANSIONS_BEFORE_PAIRS: u64 = 200;

/// Solves `dataset` exactly within `budget_mib` MiB of search memory.
///
/// # Complexity
/// See the module documentation.
pub fn solve(dataset: &Dataset, want: Want, budget_mib: u64) -> Result<Found, OverBudget> {
    solve_with(dataset, want, budget_mib, PairsAfter::Measured)
}

/// When a search with one-ghost bounds stops to build pair tables.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairsAfter {
    /// After pair states / 64 expansions, at least 200 (see the bench).
    Measured,
    /// After this many expansions (0: build them before searching). For tests, which
    /// must reach the pair-bound search on maps too small to trigger it, and experiments.
    Expansions(usize),
}

/// [`solve`], choosing when pair tables are built. Every choice gives the same answer.
pub fn solve_with(
    dataset: &Dataset,
    want: Want,
    budget_mib: u64,
    pairs_after: PairsAfter,
) -> Result<Found, OverBudget> {
    let n = dataset.starts.len();
    let cells = dataset.grid.cell_count();
    if dataset.starts == dataset.homes {
        return Ok(Found::at_start(want));
    }
    let options = Options::new(&dataset.grid);
    let mut heuristic = Heuristic::singles(&dataset.grid, &dataset.homes);
    // Everything is counted against the budget: the tables sized by the map, the pair
    // tables and their scratch, and the search's own storage (see `Search::reserve`).
    let budget_bytes = budget_mib.saturating_mul(MIB);
    let after_tables = budget_bytes.saturating_sub(map_table_bytes(dataset));
    let pair_bytes = Heuristic::pair_bytes(&dataset.grid, n);
    let pairs_affordable = n >= 2
        && pair_bytes.tables <= after_tables / 4
        && pair_bytes.tables.saturating_add(pair_bytes.building) <= after_tables;
    let bytes = after_tables.saturating_sub(if pairs_affordable {
        pair_bytes.tables
    } else {
        0
    });
    let pair_states = pair_bytes.tables / 2;
    // Two ghosts: the pair table is the exact answer, no reason to wait. (It may not fit
    // on a sparse map, where its queue is counted as it grows: then singles it is.)
    let pairs_built = n == 2
        && pairs_affordable
        && heuristic.add_pairs(&dataset.grid, &options, &dataset.homes, bytes);
    let layout = Layout::new(n, cells);
    let context = Context {
        layout,
        options: &options,
        budget_mib,
        bytes,
        expansions_before_pairs: if pairs_affordable && !pairs_built && n > 2 {
            match pairs_after {
                PairsAfter::Measured => (pair_states / PAIR_STATES_PER_EXPANSION)
                    .max(MIN_EXPANSIONS_BEFORE_PAIRS)
                    as usize,
                PairsAfter::Expansions(expansions) => expansions,
            }
        } else {
            usize::MAX
        },
    };
    let mut outcome = context.dispatch(dataset, &heuristic, want)?;
    if outcome.is_none() {
        // The first search's storage is freed: the pair search may use it for scratch.
        heuristic.add_pairs(&dataset.grid, &options, &dataset.homes, bytes);
        let context = Context {
            expansions_before_pairs: usize::MAX,
            ..context
        };
        outcome = context.dispatch(dataset, &heuristic, want)?;
    }
    // A search that may not stop for pairs always finishes.
    Ok(outcome.unwrap_or(Found::NEVER))
}

/// Bytes of the tables sized by the map that a search holds besides its own: the map's
/// numbering (4 bytes a square of the map, 24 a cell), the move table (21 bytes a cell)
/// and the one-ghost distances (4 bytes a cell and ghost).
fn map_table_bytes(dataset: &Dataset) -> u64 {
    let grid = &dataset.grid;
    let squares = (grid.height() as u64).saturating_mul(grid.width() as u64);
    let per_cell = 24 + 21 + 4 * dataset.starts.len() as u64;
    squares * 4 + grid.cell_count() as u64 * per_cell
}

/// How a placement becomes a key. When C^n fits in 64 bits the key is the placement read
/// as a number in base C (one word for up to 9 ghosts on the classic maps); otherwise each
/// ghost gets `bits` bits at a precomputed word and shift.
#[derive(Debug, Clone, Copy)]
struct Layout {
    ghosts: usize,
    cells: u64,
    radix: bool,
    bits: u32,
    word: [u8; MAX_GHOSTS],
    shift: [u8; MAX_GHOSTS],
}

/// Ghosts a placement can hold (letters a-z).
const MAX_GHOSTS: usize = crate::dataset::MAX_GHOSTS as usize;

/// Ghost counts up to this use small scratch arrays in [`Search::successors`].
const FEW_GHOSTS: usize = 4;

impl Layout {
    fn new(ghosts: usize, cells: usize) -> Self {
        let bits = (usize::BITS - cells.saturating_sub(1).leading_zeros()).max(1);
        let per_word = (64 / bits) as usize;
        let mut word = [0u8; MAX_GHOSTS];
        let mut shift = [0u8; MAX_GHOSTS];
        for i in 0..ghosts.min(MAX_GHOSTS) {
            word[i] = (i / per_word) as u8;
            shift[i] = ((i % per_word) as u32 * bits) as u8;
        }
        let cells = cells as u64;
        let radix = (0..ghosts)
            .try_fold(1u64, |space, _| space.checked_mul(cells))
            .is_some();
        Layout {
            ghosts,
            cells,
            radix,
            bits,
            word,
            shift,
        }
    }

    /// 64-bit words a key needs.
    fn words(&self) -> usize {
        if self.radix {
            1
        } else {
            usize::from(self.word[self.ghosts - 1]) + 1
        }
    }

    #[inline]
    fn pack<const K: usize>(&self, positions: &[u32]) -> [u64; K] {
        let mut key = [0u64; K];
        if self.radix {
            key[0] = positions
                .iter()
                .fold(0, |key, &p| key * self.cells + u64::from(p));
        } else {
            for (i, &p) in positions.iter().enumerate() {
                key[usize::from(self.word[i])] |= u64::from(p) << self.shift[i];
            }
        }
        key
    }

    #[inline]
    fn unpack<const K: usize>(&self, key: &[u64; K], positions: &mut [u32]) {
        if self.radix {
            let mut rest = key[0];
            for p in positions.iter_mut().rev() {
                *p = (rest % self.cells) as u32;
                rest /= self.cells;
            }
        } else {
            let mask = (1u64 << self.bits) - 1;
            for (i, p) in positions.iter_mut().enumerate() {
                *p = ((key[usize::from(self.word[i])] >> self.shift[i]) & mask) as u32;
            }
        }
    }
}

/// What one search run needs besides its tables.
#[derive(Clone, Copy)]
struct Context<'a> {
    layout: Layout,
    options: &'a Options,
    budget_mib: u64,
    /// Bytes the search's storage may take.
    bytes: u64,
    /// Expansions after which the search stops so that pair tables can be built.
    expansions_before_pairs: usize,
}

impl Context<'_> {
    /// Runs the search with the smallest key type that holds a placement.
    fn dispatch(
        self,
        dataset: &Dataset,
        heuristic: &Heuristic,
        want: Want,
    ) -> Result<Option<Found>, OverBudget> {
        macro_rules! run {
            ($k:literal) => {{ Search::<$k>::new(self, heuristic).run(dataset, want) }};
        }
        match self.layout.words() {
            1 => run!(1),
            2 => run!(2),
            3 | 4 => run!(4),
            5..=8 => run!(8),
            _ => run!(13), // 26 ghosts of at most 24 bits each
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
    /// The f layer in which it is (next) expanded, [`CLOSED`] once every successor is out.
    layer: u32,
}

/// The `layer` of a node whose successors have all been generated.
const CLOSED: u32 = u32::MAX;

/// A free slot of the hash set (and "no parent yet").
const EMPTY: u32 = u32::MAX;

struct Search<'a, const K: usize> {
    context: Context<'a>,
    heuristic: &'a Heuristic,
    nodes: Vec<Node<K>>,
    /// Open addressing with linear probing. Each slot holds the key beside the
    /// node index, so a probe reads one cache line instead of chasing into the nodes.
    table: Vec<Slot<K>>,
    /// Open nodes by f = steps + bound.
    buckets: Vec<Vec<u32>>,
    /// Bytes of the buckets' buffers (their capacities).
    queue_bytes: u64,
}

/// A slot of the hash set: a placement and its node, or `index == EMPTY` when free.
#[derive(Debug, Clone, Copy)]
struct Slot<const K: usize> {
    key: [u64; K],
    index: u32,
}

impl<const K: usize> Slot<K> {
    const FREE: Self = Slot {
        key: [0; K],
        index: EMPTY,
    };
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
    /// Bytes of a node, a hash slot, a queue entry, a fresh successor's key.
    const NODE: u64 = size_of::<Node<K>>() as u64;
    const SLOT: u64 = size_of::<Slot<K>>() as u64;
    const ENTRY: u64 = size_of::<u32>() as u64;
    const KEY: u64 = size_of::<[u64; K]>() as u64;

    /// What one more stored placement costs at least, growth included: its node, two hash
    /// slots (the load stays at most 1/2), its queue entry, and its key in the list of
    /// fresh successors with that list's growth (old and new buffer at once).
    const MARGINAL: u64 = Self::NODE + 2 * Self::SLOT + Self::ENTRY + 3 * Self::KEY;

    fn new(context: Context<'a>, heuristic: &'a Heuristic) -> Self {
        let table = vec![Slot::FREE; 256];
        Search {
            context,
            heuristic,
            nodes: Vec::new(),
            table,
            buckets: Vec::new(),
            queue_bytes: 0,
        }
    }

    /// Bytes the search holds now, `successors` being the capacity of the list of fresh
    /// successors: every buffer by its capacity (what the allocator gave, not what is
    /// filled).
    fn in_use(&self, successors: usize) -> u64 {
        self.nodes.capacity() as u64 * Self::NODE
            + self.table.len() as u64 * Self::SLOT
            + self.queue_bytes
            + self.buckets.capacity() as u64 * size_of::<Vec<u32>>() as u64
            + successors as u64 * Self::KEY
    }

    /// Placements the rest of the budget could still store at the least cost each, so
    /// that a longer list of successors is cut short (it could not be stored).
    fn room(&self, successors: usize) -> usize {
        let left = self.context.bytes.saturating_sub(self.in_use(successors));
        usize::try_from(left / Self::MARGINAL).unwrap_or(usize::MAX)
    }

    /// Makes room for `more` new nodes and as many queue entries in bucket `f`, plus one
    /// in bucket `f + 1` (`successors`: the capacity of the list of fresh successors): grows the nodes and the hash table now, so that inserting them
    /// allocates nothing more, after checking that the peak on the way (a growing buffer
    /// and its copy exist at once; the hash table is rebuilt from the nodes, so its old
    /// buffer goes first) stays within the budget.
    fn reserve(&mut self, more: usize, f: usize, successors: usize) -> Result<(), OverBudget> {
        let over = OverBudget {
            budget_mib: self.context.budget_mib,
            placements: self.nodes.len(),
        };
        let after = self.nodes.len() + more;
        if after >= EMPTY as usize {
            return Err(over);
        }
        let now = self.in_use(successors);
        // Nothing grows (most expansions): the check below reduces to this one.
        let fits = |bucket: Option<&Vec<u32>>, pushes: usize| {
            bucket.is_some_and(|b| b.len() + pushes <= b.capacity())
        };
        if after <= self.nodes.capacity()
            && after * 2 <= self.table.len()
            && fits(self.buckets.get(f), more)
            && fits(self.buckets.get(f + 1), 1)
        {
            return if now + 2 * size_of::<Vec<u32>>() as u64 <= self.context.bytes {
                Ok(())
            } else {
                Err(over)
            };
        }
        let capacity = self.nodes.capacity();
        let node_capacity = if after > capacity {
            after.max(2 * capacity).max(64)
        } else {
            capacity
        };
        let mut table_len = self.table.len();
        while after * 2 > table_len {
            table_len *= 2;
        }
        // Queue growth: a bucket that must grow doubles (at least), old and new at once.
        let bucket_growth = |bucket: Option<&Vec<u32>>, pushes: usize| {
            let (len, capacity) = bucket.map_or((0, 0), |b| (b.len(), b.capacity()));
            if len + pushes > capacity {
                (capacity + (len + pushes).max(2 * capacity).max(4)) as u64 * Self::ENTRY
            } else {
                0
            }
        };
        let queue = bucket_growth(self.buckets.get(f), more)
            + bucket_growth(self.buckets.get(f + 1), 1)
            + 2 * size_of::<Vec<u32>>() as u64;
        let nodes_grown = (node_capacity - capacity) as u64 * Self::NODE;
        let while_nodes_grow =
            now + nodes_grown + capacity as u64 * Self::NODE * u64::from(node_capacity > capacity);
        let while_table_grows =
            now + nodes_grown + (table_len - self.table.len()) as u64 * Self::SLOT;
        if while_nodes_grow.max(while_table_grows) + queue > self.context.bytes {
            return Err(over);
        }
        if node_capacity > capacity {
            self.nodes.reserve_exact(node_capacity - self.nodes.len());
        }
        if table_len > self.table.len() {
            self.rebuild(table_len);
        }
        Ok(())
    }

    /// The node of `key`, inserted with `steps` and `parent` if new (room for it was
    /// [`Search::reserve`]d). Returns its index and whether it was inserted.
    #[inline(always)]
    fn find_or_insert(&mut self, key: [u64; K], steps: u32, parent: u32) -> (u32, bool) {
        let index = self.nodes.len() as u32;
        {
            let mask = self.table.len() - 1;
            let mut slot = (hash(&key) as usize) & mask;
            loop {
                let known = self.table[slot];
                if known.index == EMPTY {
                    break;
                }
                if known.key == key {
                    return (known.index, false);
                }
                slot = (slot + 1) & mask;
            }
            self.table[slot] = Slot { key, index };
        }
        self.nodes.push(Node {
            key,
            parent: if parent == EMPTY { index } else { parent },
            steps,
            layer: CLOSED,
        });
        debug_assert!(
            self.nodes.len() * 2 <= self.table.len(),
            "reserve() grows it"
        );
        (index, true)
    }

    /// The hash table at `size` slots, rebuilt from the nodes (the old one freed first).
    fn rebuild(&mut self, size: usize) {
        self.table = Vec::new();
        let mask = size - 1;
        let mut table = vec![Slot::FREE; size];
        for (index, node) in self.nodes.iter().enumerate() {
            let mut slot = (hash(&node.key) as usize) & mask;
            while table[slot].index != EMPTY {
                slot = (slot + 1) & mask;
            }
            table[slot] = Slot {
                key: node.key,
                index: index as u32,
            };
        }
        self.table = table;
    }

    fn push(&mut self, f: u32, node: u32) {
        let f = f as usize;
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        let bucket = &mut self.buckets[f];
        let capacity = bucket.capacity();
        bucket.push(node);
        self.queue_bytes += (bucket.capacity() - capacity) as u64 * Self::ENTRY;
    }

    /// The search. `Ok(None)` when it stopped after `expansions_before_pairs`.
    ///
    /// Partial expansion: a node popped from layer `f` generates only the successors whose
    /// own f is `f` (the others cannot be needed before layer `f + 1`), and goes back into
    /// layer `f + 1` if it has successors left.
    fn run(mut self, dataset: &Dataset, want: Want) -> Result<Option<Found>, OverBudget> {
        let layout = self.context.layout;
        let to_u32 = |cells: &[CellId]| cells.iter().map(|c| c.index() as u32).collect::<Vec<_>>();
        let start = to_u32(&dataset.starts);
        let goal: [u64; K] = layout.pack(&to_u32(&dataset.homes));
        let bound = self.heuristic.estimate(&start);
        if bound == NEVER {
            return Ok(Some(Found::NEVER));
        }
        self.reserve(1, bound as usize, 0)?;
        let (root, _) = self.find_or_insert(layout.pack(&start), 0, EMPTY);
        self.nodes[root as usize].layer = bound;
        self.push(bound, root);
        let mut from = vec![0u32; layout.ghosts];
        let mut successors: Vec<[u64; K]> = Vec::new();
        let mut f = bound as usize;
        let mut expanded = 0usize;
        loop {
            while f < self.buckets.len() && self.buckets[f].is_empty() {
                // Nothing goes into a layer below the current one again: free its buffer.
                let drained = std::mem::take(&mut self.buckets[f]);
                self.queue_bytes -= drained.capacity() as u64 * Self::ENTRY;
                f += 1;
            }
            let Some(current) = self.buckets.get_mut(f).and_then(Vec::pop) else {
                return Ok(Some(Found {
                    expanded,
                    ..Found::NEVER
                }));
            };
            let node = self.nodes[current as usize];
            if node.layer as usize != f {
                continue; // moved to a lower layer by a shorter way, or closed
            }
            if node.key == goal {
                return Ok(Some(self.finish(current, want, expanded)));
            }
            expanded += 1;
            if expanded > self.context.expansions_before_pairs {
                return Ok(None);
            }
            layout.unpack(&node.key, &mut from);
            let steps = node.steps + 1;
            // Successors in this layer are exactly `limit` steps from home by the bound.
            let limit = f as u32 - steps;
            successors.clear();
            // Many ghosts in open space have up to 5^n successors: the list is cut as soon
            // as it could not be stored, which bounds time as well as memory.
            let room = self.room(successors.capacity());
            let more = if from.len() <= FEW_GHOSTS {
                self.successors::<FEW_GHOSTS>(&from, limit, &mut successors, room)
            } else {
                self.successors::<MAX_GHOSTS>(&from, limit, &mut successors, room)
            };
            self.reserve(successors.len(), f, successors.capacity())?;
            let layer = if more { f as u32 + 1 } else { CLOSED };
            self.nodes[current as usize].layer = layer;
            if more {
                self.push(layer, current);
            }
            for &key in &successors {
                let (index, inserted) = self.find_or_insert(key, steps, current);
                let next = &mut self.nodes[index as usize];
                if !inserted {
                    if next.steps <= steps {
                        continue;
                    }
                    next.steps = steps;
                    next.parent = current;
                }
                next.layer = f as u32;
                if key == goal {
                    // Nothing open lies in a lower layer: this is a shortest way home.
                    return Ok(Some(self.finish(index, want, expanded)));
                }
                self.push(f as u32, index);
            }
        }
    }

    /// Appends to `out` every placement one legal step away from `from` whose bound is
    /// exactly `limit`; returns whether some successor was left for a later layer. Stops
    /// early once `out` holds more than `room` placements (they could not be stored).
    ///
    /// A move that puts one ghost more than `limit` steps from home is cut before the rest
    /// of the combination is built. A successor whose bound is below `limit` is skipped:
    /// the bound is consistent, so that only happens when this node is expanded again in a
    /// later layer, and such a successor came out in its own layer already. The combinations are walked like an odometer over each
    /// ghost's remaining moves (no recursion: this loop is the search's hot spot).
    ///
    /// `M` is the capacity of the per-ghost scratch arrays (at least the number of ghosts):
    /// small for the classic 1 to 4 ghosts, so that setting them up costs next to nothing.
    fn successors<const M: usize>(
        &self,
        from: &[u32],
        limit: u32,
        out: &mut Vec<[u64; K]>,
        room: usize,
    ) -> bool {
        let n = from.len();
        let mut more = false;
        let mut moves = [[0u32; 5]; M];
        let mut count = [0usize; M];
        for i in 0..n {
            for &cell in self.context.options.of(from[i]) {
                let alone = self.heuristic.single(i, cell);
                if alone <= limit {
                    // Keep each ghost's moves by decreasing distance from home: the
                    // odometer then ends on "every ghost steps closer", which the LIFO
                    // bucket expands first, so the last layer is dived goal-first.
                    let mut k = count[i];
                    while k > 0 && self.heuristic.single(i, moves[i][k - 1]) < alone {
                        moves[i][k] = moves[i][k - 1];
                        k -= 1;
                    }
                    moves[i][k] = cell;
                    count[i] += 1;
                } else {
                    more |= alone != NEVER;
                }
            }
            if count[i] == 0 {
                return more;
            }
        }
        let check_pairs = self.heuristic.has_pairs();
        let mut to = [0u32; M];
        let to = &mut to[..n];
        let mut choice = [0usize; M];
        let mut depth = 0;
        loop {
            if choice[depth] == count[depth] {
                if depth == 0 {
                    return more;
                }
                depth -= 1;
                choice[depth] += 1;
                continue;
            }
            let cell = moves[depth][choice[depth]];
            if !(0..depth).all(|j| compatible(from[j], from[depth], to[j], cell)) {
                choice[depth] += 1;
                continue;
            }
            to[depth] = cell;
            if depth + 1 < n {
                depth += 1;
                choice[depth] = 0;
                continue;
            }
            choice[depth] += 1;
            if out.len() > room {
                return more; // the caller's reserve() reports the budget
            }
            if !check_pairs {
                // Every ghost is within `limit` of home; the bound is the farthest one.
                let bound = (0..n).map(|i| self.heuristic.single(i, to[i])).max();
                if bound == Some(limit) {
                    out.push(self.context.layout.pack(to));
                }
                continue;
            }
            match self.heuristic.estimate(to) {
                NEVER => {}
                bound if bound == limit => out.push(self.context.layout.pack(to)),
                bound if bound > limit => more = true,
                // Below the limit: this node is being expanded again in a later layer, and
                // that successor came out in the layer it belongs to.
                _ => {}
            }
        }
    }

    fn finish(&self, goal: u32, want: Want, expanded: usize) -> Found {
        let steps = self.nodes[goal as usize].steps;
        let plan = (want == Want::Plan).then(|| {
            let mut placements = Vec::new();
            let mut index = goal;
            let mut positions = vec![0u32; self.context.layout.ghosts];
            while self.nodes[index as usize].parent != index {
                self.context
                    .layout
                    .unpack(&self.nodes[index as usize].key, &mut positions);
                placements.push(positions.iter().map(|&p| CellId::new(p as usize)).collect());
                index = self.nodes[index as usize].parent;
            }
            placements.reverse();
            placements
        });
        Found {
            steps: Some(steps),
            plan,
            expanded,
        }
    }
}

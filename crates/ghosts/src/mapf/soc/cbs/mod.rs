//! Conflict-based search (Sharon et al., AIJ 2015) for a group's least extra steps: a
//! best-first search over sets of constraints, each node a path per agent that obeys its
//! constraints (found by a space-time A* with the agent's distance table as heuristic),
//! split on a conflict between two paths into two nodes that each forbid one side of it.
//!
//! Why: on the large maps the groups of [`super::core::Groups`] are a few agents whose
//! paths are hundreds of steps long and meet at a few places; the time-expanded SAT
//! encoding of such a group is the map times the horizon (brc202d random-1 with 50
//! agents: a group of 10 agents over about 400 steps, seconds per decision), while the
//! conflicts are few and local, which is where CBS's search is short.
//!
//! The improvements, by what they pay on such maps (Li et al., AIJ 2021, "Pairwise
//! symmetry reasoning for multi-agent path finding search"):
//! - cardinal conflicts first: of the earliest conflicts, one whose both children cost
//!   more is split first, then one where one child does (the children are replanned to
//!   know, as an MDD would tell);
//! - bypass (Boyarski et al., 2015): a child that costs the same with fewer conflicts
//!   gives its path to the node instead of splitting it;
//! - target reasoning: an agent that crosses the goal of another after that one has
//!   arrived splits into "the other arrives later" (a length constraint) and "the crosser
//!   keeps off that goal from then on"; with [`Targets`] (CBSH2-RTC, Li et al., AIJ 2021,
//!   after the disjoint splitting of Li et al., ICAPS 2019), the second child is "the
//!   other arrives for good by then, and every agent but it keeps off that goal from then
//!   on" ([`Constraint::Home`]), with every agent whose path breaks it replanned: the
//!   crosser's child used to cost nothing where another agent's path crossed the same
//!   goal later, and was split again on it (ht_chantry random-1 K = 100: 287 of 404
//!   splits on target conflicts);
//! - the group's proven least ([`super::pairwise`]'s cover of the group's pairs, and the
//!   bound its SAT sessions proved) as a floor of every node's cost, so the nodes under it
//!   are taken fewest conflicts first;
//! - each node bounded by its agents' extra steps plus the cover of what the pairs still
//!   lack on them ([`node_bound`]), and a search cut short answers the least bound of
//!   its open nodes, which the caller keeps as the group's proven least.
//! - the pairs in conflict in a node costed under the node's constraints on their two
//!   agents ([`PairCosts::UnderConstraints`], by [`super::pair_cost`]'s increasing cost
//!   on their MDDs), which raise the node's bound as the weighted dependency graph of
//!   CBSH2 does; a pair that fits at its own costs gives the node its two paths when
//!   that leaves fewer conflicts (a bypass of both at once).
//! - the other groups' plans ([`Outside`]) as a second conflict avoidance table: among
//!   paths of equal cost and equal conflicts within the group, each low-level search
//!   takes one that meets fewest of them, so the group's plan collides with fewer other
//!   groups and fewer merge (orz900d random-1 K = 100: its largest group 11 agents
//!   instead of 24, proven in 10.6 s instead of 73).
//!
//! Exactness: the two children of a split together keep every plan of their parent
//! (vertex, edge and target splits as in the papers; for the target split of
//! [`Targets`]: a plan where the home agent arrives for good at a time <= t keeps it on
//! its goal at every time >= t, so no other agent is there then, which is the second
//! child; every other plan has it arriving after t, the first child: the two are
//! disjoint), each low-level search is an exact A* (consistent heuristic: the distance
//! to the goal, raised to the last time the goal is forbidden; a deadline to arrive by
//! caps its f, which never passes the cost of a path through the state), and the nodes
//! are taken in order of cost, so the first node without a conflict is a plan of least
//! sum of costs. Nodes and searches past the caller's limits give up
//! ([`Searched::GaveUp`]): nothing is claimed, and the caller decides by SAT.
//!
//! The high-level search and the node bounds are here; the conflicts and the choice of
//! the one to split on are in `conflicts.rs`, the low-level search (one agent's least
//! path under a node's constraints) in `low_level.rs`.
//!
//! # Complexity
//! Exponential in the number of conflicts in the worst case; per node O(K x H) to find
//! the conflicts (and to find the paths that break a [`Constraint::Home`]) and, per
//! low-level search, O(N log N) for the N (cell, time) states it reaches (at most the
//! cells times the agent's deadline).

mod conflicts;
mod low_level;

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::rc::Rc;

use super::corridor::{Corridor, Corridors};
use super::int_hash::IntMap;
use super::pair_cost::{PairExtra, Walker, pair_extra};
use super::pairwise::{COVER_NODES, Pair, min_cover_within};
use super::planning;
use super::symmetry::PairSplits;
use crate::mapf::Instance;
use crate::mapf::sat::Deadline;
use conflicts::{CellScratch, Conflict};
use low_level::{Avoid, Occupancy, Planned, Scratch, rules};

pub use low_level::{Outside, outside_bytes};

/// The earliest conflicts of a node whose children are replanned to find a cardinal one.
const CLASSIFIED: usize = 4;

/// Bypasses tried at one node before it is split.
const BYPASSES: usize = 16;

/// Bytes counted per low-level state (cell, time, parent, heap entry and set entry).
const STATE_BYTES: u64 = 64;

/// Bytes counted per high-level node besides its new path.
const NODE_BYTES: u64 = 96;

/// States (MDD cells and joint states) one pair's cost under a node's constraints may
/// take ([`super::pair_cost`]) before it answers what it proved.
const PAIR_STATES: u64 = 1 << 18;

/// Bytes counted per state of [`PAIR_STATES`].
const PAIR_STATE_BYTES: u64 = 16;

/// Bytes counted per entry of the two-agent searches' memo besides its constraints.
const MEMO_BYTES: u64 = 96;

/// Bytes counted per constraint in a memo's key.
const CONSTRAINT_BYTES: u64 = 16;

/// Cells one agent's MDD may take for the classification of its conflicts
/// ([`Classify::Mdd`]); past it, its conflicts count as not cardinal on its side.
const MDD_CELLS: u64 = 1 << 16;

/// How the conflicts of a node are chosen for its split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Classify {
    /// The earliest [`CLASSIFIED`] conflicts, classified by replanning both children.
    #[default]
    Earliest,
    /// Every conflict first ranked by the MDDs of its two agents at their costs under
    /// the node's constraints (a side is cardinal when every path of that cost passes
    /// where the conflict is: the MDD's level there is that one cell), cardinal first,
    /// then the earliest; the first [`CLASSIFIED`] of that order replanned as with
    /// `Earliest`. With many conflicts (brc202d random-1 K = 100: 402 at the root of
    /// the search over all agents) the earliest few are seldom the cardinal ones.
    Mdd,
}

/// Per time 0..=cost, the cell every path of an agent at its cost is on then, if one.
type Singletons = Rc<Vec<Option<u32>>>;

/// The key of [`Singletons`]: the agent (index in the group), its cost and its
/// constraints, sorted.
type SingletonKey = (usize, u32, Vec<Constraint>);

/// What bounds each node's pairs of agents ([`node_bound`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairCosts {
    /// The pairs' bounds of the whole instance only.
    #[default]
    Instance,
    /// Also, for each pair in conflict in a node, its least extra steps under the node's
    /// constraints on its two agents (the weighted dependency graph of CBSH2, Li et al.,
    /// AIJ 2021), by increasing cost on the two agents' MDDs ([`super::pair_cost`]),
    /// memoised on the two agents and their constraints. Computed when the node is
    /// taken (a node whose bound rises goes back to the open list), and kept by its
    /// children for the pairs whose constraints they do not change.
    UnderConstraints,
}

/// One constraint on one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Constraint {
    /// Not on `cell` at `time`.
    Vertex { cell: u32, time: u32 },
    /// Not moving from `from` to `to` in the step that ends at `time`.
    Edge { from: u32, to: u32, time: u32 },
    /// Not on `cell` at `time` or later (target reasoning).
    From { cell: u32, time: u32 },
    /// Arriving at its goal for the last time after `time` (target reasoning).
    Longer { time: u32 },
    /// Not on `cell` at any time up to `time` (corridor reasoning).
    Before { cell: u32, time: u32 },
    /// `cell`, the goal of one agent of the group, is that agent's from `time` on: it is
    /// on its goal at every time >= `time` (arrives for good by `time`), and every other
    /// agent is off `cell` at every time >= `time` (target reasoning, [`Targets`]). One
    /// constraint on the node for all the agents ([`Group::constraints_of`] gives it to
    /// each), resolved by each agent's goal in [`rules`].
    Home { cell: u32, time: u32 },
}

/// Whether a target conflict's second child is "the home agent arrives for good by the
/// time of the conflict, and every other agent keeps off its goal from then on"
/// ([`Constraint::Home`], with every agent whose path breaks it replanned) rather than
/// "the crosser keeps off that goal from then on", and how many such splits were made
/// and agents replanned in their second children (added up over the searches given it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Targets {
    /// Whether the split is made.
    pub on: bool,
    /// The splits made.
    pub made: u64,
    /// The agents replanned in the second children of the splits made.
    pub replanned: u64,
}

impl Targets {
    /// The stronger target splits off.
    pub fn off() -> Self {
        Targets::default()
    }
}

/// What [`least_extra`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Searched {
    /// A plan of the group's least extra steps `extra` (at most the allowance): its paths
    /// in the order of the agents given, each to its cost.
    Plan {
        /// The group's least extra steps.
        extra: u32,
        /// The paths.
        paths: Vec<Vec<u32>>,
    },
    /// Every plan of the group takes at least this many extra steps (more than the
    /// allowance): proved.
    AtLeast(u32),
    /// The deadline passed: every plan of the group takes at least this many extra steps
    /// (the least bound of the nodes not yet expanded), nothing more proved.
    Stopped(u32),
    /// The search would pass its memory or its low-level searches: as `Stopped`.
    GaveUp(u32),
}

/// A node of the high-level search.
struct Node {
    /// The node it was split from (`None`: the root).
    parent: Option<usize>,
    /// The agent constrained here (index in the group) and its new constraint (a
    /// [`Constraint::Home`]: on every agent, the agent being the one whose goal it
    /// reserves).
    constraint: Option<(usize, Constraint)>,
    /// Per agent of the group, its path (to its cost).
    paths: Vec<Rc<Vec<u32>>>,
    /// The group's extra steps (sum of costs less sum of distances).
    extra: u32,
    /// Least extra steps of pairs of agents (indices in the group) under this node's
    /// constraints on them, as far as known ([`PairCosts::UnderConstraints`]).
    pair_costs: Vec<Pair>,
}

/// An open node: least floored extra steps first, then fewest conflicts, then the newest.
#[derive(PartialEq, Eq)]
struct Open {
    floored: u32,
    conflicts: usize,
    node: usize,
    /// Whether `floored` counts the pairs in conflict under the node's constraints.
    costed: bool,
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: reversed on cost and conflicts, the newest node
        // (deepest) first among equals.
        other
            .floored
            .cmp(&self.floored)
            .then(other.conflicts.cmp(&self.conflicts))
            .then(self.node.cmp(&other.node))
            .then(self.costed.cmp(&other.costed))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The limits of one search.
struct Limits {
    /// Bytes the nodes and a low-level search may take together.
    bytes: u64,
    deadline: Deadline,
    /// Low-level searches left before the search gives up.
    searches: std::cell::Cell<u64>,
    /// Nodes taken in a row without a rise of the least bound before the search gives
    /// up.
    stall: usize,
}

/// The key of a two-agent search's memo: the two agents (in the instance) and their
/// constraints, each sorted.
type PairKey = (usize, usize, Vec<Constraint>, Vec<Constraint>);

/// The group's agents, their goals and distances.
struct Group<'i, 'a> {
    instance: &'i Instance<'a>,
    agents: &'i [usize],
    goals: Vec<u32>,
    distances: Vec<u32>,
    /// The pairs of agents of the group (indices in it) that take extra steps together,
    /// for each node's bound (empty: the node's own extra steps only).
    pairs: &'i [Pair],
    /// Whether the nodes' pairs are costed under their constraints.
    pair_costs: PairCosts,
    /// The search's deadline: past it, a node's cover of its pairs settles for its root
    /// bound ([`node_bound`]).
    deadline: Deadline,
    /// The two-agent searches' answers.
    memo: &'i std::cell::RefCell<HashMap<PairKey, u32>>,
    /// The pairs (agents in the instance) whose two-agent search ran out of its budget:
    /// not tried again in this search.
    costly: &'i std::cell::RefCell<HashSet<(usize, usize)>>,
    /// Bytes the memo holds, counted with the nodes'.
    memo_bytes: std::cell::Cell<u64>,
    /// How the conflicts of a node are chosen.
    classify: Classify,
    /// The singletons of each agent's MDD (index in the group) under its constraints
    /// (sorted), at its cost ([`Classify::Mdd`]); counted in `memo_bytes`.
    singletons: std::cell::RefCell<HashMap<SingletonKey, Singletons>>,
    /// Whether a node is split on a pair that does not fit at its own costs
    /// ([`super::symmetry`]), and the splits made.
    pair_splits: std::cell::Cell<PairSplits>,
    /// Whether a node is split on a corridor conflict ([`super::corridor`]), and the
    /// splits made.
    corridors: std::cell::Cell<Corridors>,
    /// Whether a target conflict's second child reserves the goal for its agent
    /// ([`Targets`]), and the splits made.
    targets: std::cell::Cell<Targets>,
    /// The corridors met, by their least interior cell (with their distance tables,
    /// counted in `memo_bytes`).
    corridor_memo: std::cell::RefCell<IntMap<u32, Rc<Corridor>>>,
    /// The low-level searches' buffers.
    scratch: std::cell::RefCell<Scratch>,
    /// The conflict detection's arrays by cell.
    cells: std::cell::RefCell<CellScratch>,
    /// The plans of the agents outside the group, which its low-level searches avoid
    /// second, after the group's own agents.
    outside: &'i Outside,
}

/// Finds the least extra steps of the agents `agents` of `instance` (distinct) alone, if
/// at most `allowance`, with a plan; `floor` is a proven lower bound on it (the search
/// starts its nodes' order there) and `pairs` (indices in `agents`) bounds on the extra
/// steps of two of them together, which raise each node's bound ([`node_bound`]), with
/// the pairs in conflict costed as `pair_costs` says and the conflict to split chosen as
/// `classify` says, or a pair that does not fit at its own costs split on when
/// `pair_splits` says so (the splits made are added to it), on corridor conflicts as
/// `corridors` says and on target conflicts as `targets` says (likewise). Gives up at
/// `deadline`, when its nodes and searches would take more than `bytes`, past
/// `*searches` low-level searches (what it made is taken off `*searches`), or after
/// `stall` nodes in a row taken without a rise of the least bound. Among the paths of
/// equal cost and equal conflicts within the group, each low-level search takes one of
/// fewest conflicts with the plans `outside` (exact either way: only the choice among
/// equals changes).
///
/// # Complexity
/// See the module documentation.
#[allow(clippy::too_many_arguments)]
pub fn least_extra(
    instance: &Instance<'_>,
    agents: &[usize],
    floor: u32,
    pairs: &[Pair],
    pair_costs: PairCosts,
    classify: Classify,
    pair_splits: &mut PairSplits,
    corridors: &mut Corridors,
    targets: &mut Targets,
    allowance: u32,
    bytes: u64,
    deadline: Deadline,
    searches: &mut u64,
    stall: usize,
    outside: &Outside,
) -> Searched {
    if floor > allowance {
        return Searched::AtLeast(floor);
    }
    let memo = std::cell::RefCell::new(HashMap::new());
    let costly = std::cell::RefCell::new(HashSet::new());
    let group = Group {
        instance,
        goals: agents
            .iter()
            .map(|&a| instance.goals[a].index() as u32)
            .collect(),
        distances: agents
            .iter()
            .map(|&a| instance.distance(a, instance.starts[a]))
            .collect(),
        agents,
        pairs,
        pair_costs,
        deadline,
        memo: &memo,
        costly: &costly,
        memo_bytes: std::cell::Cell::new(0),
        classify,
        singletons: std::cell::RefCell::new(HashMap::new()),
        pair_splits: std::cell::Cell::new(*pair_splits),
        corridors: std::cell::Cell::new(*corridors),
        targets: std::cell::Cell::new(*targets),
        corridor_memo: std::cell::RefCell::default(),
        scratch: std::cell::RefCell::default(),
        cells: std::cell::RefCell::default(),
        outside,
    };
    let limits = Limits {
        bytes,
        deadline,
        searches: std::cell::Cell::new(*searches),
        stall,
    };
    let searched = group.search(floor, allowance, &limits);
    *searches = limits.searches.get();
    *pair_splits = group.pair_splits.get();
    *corridors = group.corridors.get();
    *targets = group.targets.get();
    searched
}

impl Group<'_, '_> {
    /// Extra steps of `path` for agent `i`.
    fn extra_of(&self, i: usize, path: &[u32]) -> u32 {
        planning::cost(path, self.goals[i]) - self.distances[i]
    }

    /// The bound of a node with `paths` and `extra` steps ([`node_bound`]), its pairs'
    /// costs under its constraints `pair_costs` beside the instance's.
    fn bound(&self, paths: &[Rc<Vec<u32>>], extra: u32, pair_costs: &[Pair]) -> u32 {
        if self.pairs.is_empty() && pair_costs.is_empty() {
            return extra;
        }
        let own: Vec<u32> = (0..paths.len())
            .map(|i| self.extra_of(i, &paths[i]))
            .collect();
        if pair_costs.is_empty() {
            return node_bound(paths.len(), self.pairs, &own, self.deadline);
        }
        let pairs = strongest(self.pairs, pair_costs);
        node_bound(paths.len(), &pairs, &own, self.deadline)
    }

    /// Every constraint on agent `i` in node `n` (a [`Constraint::Home`] is on every
    /// agent).
    fn constraints_of(&self, nodes: &[Node], n: usize, i: usize) -> Vec<Constraint> {
        let mut constraints = Vec::new();
        let mut at = Some(n);
        while let Some(m) = at {
            if let Some((j, c)) = nodes[m].constraint {
                if j == i || matches!(c, Constraint::Home { .. }) {
                    constraints.push(c);
                }
            }
            at = nodes[m].parent;
        }
        constraints
    }

    /// The costs under node `n`'s constraints of its pairs in `conflicts` not yet in
    /// its `pair_costs`, added there ([`PairCosts::UnderConstraints`]); with, for the
    /// pairs that fit at their own costs, a path of each (the pair, and the paths).
    #[allow(clippy::too_many_arguments)]
    fn cost_pairs(
        &self,
        nodes: &mut [Node],
        n: usize,
        conflicts: &[Conflict],
        allowance: u32,
        limits: &Limits,
        used: u64,
    ) -> Vec<(usize, usize, [Vec<u32>; 2])> {
        let mut fitting = Vec::new();
        for conflict in conflicts {
            // Hundreds of pairs may be in conflict (maze-128-128-2 random-1 K = 50): the
            // pairs not costed by the deadline keep the instance's bound.
            if limits.deadline.passed() {
                break;
            }
            let (x, y) = conflict.agents();
            let (a, b) = (x.min(y), x.max(y));
            if nodes[n]
                .pair_costs
                .iter()
                .any(|p| p.first == a && p.second == b)
            {
                continue;
            }
            let (extra, paths) = self.pair_cost(nodes, n, a, b, allowance, limits, used);
            nodes[n].pair_costs.push(Pair {
                first: a,
                second: b,
                extra,
            });
            if let Some(paths) = paths {
                fitting.push((a, b, paths));
            }
        }
        fitting
    }

    /// A lower bound on the extra steps of agents `a` and `b` alone under node `n`'s
    /// constraints on them ([`super::pair_cost`], memoised); when it is their own extra
    /// steps and was not in the memo, a path of each at its cost, the two never meeting.
    #[allow(clippy::too_many_arguments)]
    fn pair_cost(
        &self,
        nodes: &[Node],
        n: usize,
        a: usize,
        b: usize,
        allowance: u32,
        limits: &Limits,
        used: u64,
    ) -> (u32, Option<[Vec<u32>; 2]>) {
        let node = &nodes[n];
        let mut given = [
            self.constraints_of(nodes, n, a),
            self.constraints_of(nodes, n, b),
        ];
        for c in &mut given {
            c.sort_unstable();
            c.dedup();
        }
        let own = [
            self.extra_of(a, &node.paths[a]),
            self.extra_of(b, &node.paths[b]),
        ];
        let whole = self
            .pairs
            .iter()
            .find(|p| p.first == a && p.second == b)
            .map_or(0, |p| p.extra);
        let floor = whole.max(own[0] + own[1]);
        // The others take at least their own extra steps.
        let Some(limit) = allowance.checked_sub(node.extra - own[0] - own[1]) else {
            return (floor, None);
        };
        let [given_a, given_b] = given;
        let pair = (self.agents[a], self.agents[b]);
        if (given_a.is_empty() && given_b.is_empty()) || self.costly.borrow().contains(&pair) {
            // The two alone, as the instance's pairs bound them already; or a pair
            // whose search ran out of its budget at another node.
            return (floor, None);
        }
        let key = (self.agents[a], self.agents[b], given_a, given_b);
        if let Some(&extra) = self.memo.borrow().get(&key) {
            return (extra.max(floor), None);
        }
        let (Some(rules_a), Some(rules_b)) =
            (rules(&key.2, self.goals[a]), rules(&key.3, self.goals[b]))
        else {
            // One of them never arrives: its own search said so first.
            return (floor, None);
        };
        let walkers = [
            Walker {
                agent: self.agents[a],
                rules: &rules_a,
                least: planning::cost(&node.paths[a], self.goals[a]),
            },
            Walker {
                agent: self.agents[b],
                rules: &rules_b,
                least: planning::cost(&node.paths[b], self.goals[b]),
            },
        ];
        let room = limits.bytes.saturating_sub(used + self.memo_bytes.get());
        let budget = PAIR_STATES.min(room / PAIR_STATE_BYTES);
        let PairExtra {
            extra,
            paths,
            gave_up,
        } = pair_extra(
            self.instance,
            [&walkers[0], &walkers[1]],
            floor,
            limit,
            budget,
        );
        if gave_up {
            self.costly.borrow_mut().insert(pair);
        }
        let bytes = MEMO_BYTES + CONSTRAINT_BYTES * (key.2.len() + key.3.len()) as u64;
        self.memo_bytes.set(self.memo_bytes.get() + bytes);
        self.memo.borrow_mut().insert(key, extra);
        (extra.max(floor), paths.filter(|_| extra <= own[0] + own[1]))
    }

    /// The best-first search (module documentation).
    fn search(&self, floor: u32, allowance: u32, limits: &Limits) -> Searched {
        let k = self.agents.len();
        let targets = self.targets.get().on;
        let mut paths = Vec::with_capacity(k);
        // The paths planned so far, added one by one (built anew for each agent, the
        // table took O(K^2 x H): orz900d random-1 with 1000 agents, 3.6 s past the proof's
        // end in one root).
        let mut cat = Occupancy::new(&[], &self.goals);
        for i in 0..k {
            if limits.deadline.passed() {
                return Searched::Stopped(floor);
            }
            let avoid = Avoid {
                cat: &cat,
                own: &[],
                outside: self.outside,
            };
            match self.plan(i, &[], self.distances[i] + allowance, &avoid, limits, 0) {
                Planned::Path(path) => {
                    cat.add(&path, self.goals[i]);
                    paths.push(Rc::new(path));
                }
                Planned::Over => return Searched::AtLeast(allowance + 1),
                Planned::GaveUp => return Searched::GaveUp(floor),
            }
        }
        let mut used = 0u64;
        let extra = (0..k).map(|i| self.extra_of(i, &paths[i])).sum();
        let bounded = self.bound(&paths, extra, &[]);
        let conflicts = self.conflicts(&paths).len();
        let mut nodes = vec![Node {
            parent: None,
            constraint: None,
            paths,
            extra,
            pair_costs: Vec::new(),
        }];
        let mut open = BinaryHeap::new();
        open.push(Open {
            floored: bounded.max(floor),
            conflicts,
            node: 0,
            costed: self.pair_costs == PairCosts::Instance,
        });
        // Children past the allowance are not kept: the least of what they would cost
        // (at least allowance + 1) is what the search proves when the open nodes run out.
        let pruned = allowance + 1;
        let mut pops = 0usize;
        // The least bound taken so far, and when it last rose.
        let (mut risen, mut rose_at) = (0, 0);
        while let Some(Open {
            node: n,
            floored,
            conflicts,
            costed,
        }) = open.pop()
        {
            pops += 1;
            // Every plan not yet ruled out lies under this node or an open one, all of
            // them bounded by at least its bound (or pruned past the allowance).
            let least = floored.min(pruned);
            if floored > allowance {
                return Searched::AtLeast(least);
            }
            // Every node: one takes up to a fifth of a second on 100 agents.
            if limits.deadline.passed() {
                return Searched::Stopped(least);
            }
            if floored > risen {
                (risen, rose_at) = (floored, pops);
            } else if pops - rose_at > limits.stall {
                return Searched::GaveUp(least);
            }
            if !costed {
                let mut found = self.conflicts(&nodes[n].paths);
                let fitting = self.cost_pairs(&mut nodes, n, &found, allowance, limits, used);
                // A pair that fits at its own costs gives its paths to the node (a bypass:
                // the same costs under the same constraints) when that leaves fewer
                // conflicts.
                for (a, b, [path_a, path_b]) in fitting {
                    let paths = with(
                        &with(&nodes[n].paths, a, &Rc::new(path_a)),
                        b,
                        &Rc::new(path_b),
                    );
                    let fewer = self.conflicts(&paths);
                    if fewer.len() < found.len() {
                        nodes[n].paths = paths;
                        found = fewer;
                    }
                }
                let node = &nodes[n];
                let raised = self.bound(&node.paths, node.extra, &node.pair_costs);
                if raised > floored {
                    if raised <= allowance {
                        open.push(Open {
                            floored: raised,
                            conflicts,
                            node: n,
                            costed: true,
                        });
                    }
                    continue;
                }
            }
            let mut bypasses = 0;
            let (conflict, children) = loop {
                let mut found = self.conflicts(&nodes[n].paths);
                if self.classify == Classify::Mdd {
                    self.rank(&nodes, n, &mut found);
                }
                if found.is_empty() {
                    let node = &nodes[n];
                    return Searched::Plan {
                        extra: node.extra,
                        paths: node.paths.iter().map(|p| p.to_vec()).collect(),
                    };
                }
                // The earliest conflicts, classified by replanning both children.
                let cat = Occupancy::new(&nodes[n].paths, &self.goals);
                let mut best: Option<(u8, Conflict, [Child; 2])> = None;
                let mut bypassed = false;
                for &conflict in found.iter().take(CLASSIFIED) {
                    let conflict = self.corridor(&nodes[n].paths, conflict).unwrap_or(conflict);
                    let children = conflict.split(&self.goals, targets).map(|(i, constraint)| {
                        self.child(&nodes, n, &cat, i, constraint, allowance, limits, used)
                    });
                    if children.iter().any(|c| matches!(c, Child::GaveUp)) {
                        return Searched::GaveUp(least);
                    }
                    if bypasses < BYPASSES {
                        // Each replanned path costs at least its parent's: the same sum
                        // is the same costs, each path least under the node's constraints.
                        if let Some(new) = children.iter().find_map(|c| match c {
                            Child::Path { paths, extra }
                                if *extra == nodes[n].extra
                                    && self.conflicts(&with_all(&nodes[n].paths, paths)).len()
                                        < found.len() =>
                            {
                                Some(paths.clone())
                            }
                            _ => None,
                        }) {
                            nodes[n].paths = with_all(&nodes[n].paths, &new);
                            bypasses += 1;
                            bypassed = true;
                            break;
                        }
                    }
                    let costlier = children
                        .iter()
                        .filter(|c| match c {
                            Child::Path { extra, .. } => *extra > nodes[n].extra,
                            _ => true,
                        })
                        .count() as u8;
                    if best.as_ref().is_none_or(|(c, _, _)| costlier > *c) {
                        best = Some((costlier, conflict, children));
                    }
                    if costlier == 2 {
                        break;
                    }
                }
                if bypassed {
                    continue;
                }
                let Some((costlier, conflict, children)) = best else {
                    unreachable!("a node with a conflict classifies at least one");
                };
                if costlier < 2 {
                    if let Some(split) = self.pair_split(&nodes, n, &found) {
                        let children = split.split(&self.goals, targets).map(|(i, constraint)| {
                            self.child(&nodes, n, &cat, i, constraint, allowance, limits, used)
                        });
                        if children.iter().any(|c| matches!(c, Child::GaveUp)) {
                            return Searched::GaveUp(least);
                        }
                        let mut made = self.pair_splits.get();
                        made.made += 1;
                        self.pair_splits.set(made);
                        break (split, children);
                    }
                }
                break (conflict, children);
            };
            if matches!(conflict, Conflict::Corridor { .. }) {
                let mut made = self.corridors.get();
                made.made += 1;
                self.corridors.set(made);
            }
            let split = conflict.split(&self.goals, targets);
            if targets && matches!(conflict, Conflict::Target { .. }) {
                let mut made = self.targets.get();
                made.made += 1;
                if let Child::Path { paths, .. } = &children[1] {
                    made.replanned += paths.len() as u64;
                }
                self.targets.set(made);
            }
            for ((agent, constraint), child) in split.into_iter().zip(children) {
                let Child::Path { paths: new, extra } = child else {
                    continue;
                };
                let paths = with_all(&nodes[n].paths, &new);
                // The pairs whose paths and constrained agent the child keeps cost what
                // they cost here: the others of a home constraint have it too, but a
                // pair's cost under fewer constraints is still a bound of its cost under
                // more (costed again, it could only rise).
                let changed = |x: usize| x == agent || new.iter().any(|(j, _)| *j == x);
                let pair_costs: Vec<Pair> = nodes[n]
                    .pair_costs
                    .iter()
                    .filter(|p| !changed(p.first) && !changed(p.second))
                    .copied()
                    .collect();
                // A child's plans are its parent's: the parent's bound holds (path-max).
                let floored = self.bound(&paths, extra, &pair_costs).max(floored);
                if floored > allowance {
                    continue;
                }
                let conflicts = self.conflicts(&paths).len();
                used += NODE_BYTES
                    + 8 * k as u64
                    + new.iter().map(|(_, p)| 4 * p.len() as u64).sum::<u64>();
                if used + self.memo_bytes.get() > limits.bytes {
                    return Searched::GaveUp(least);
                }
                let node = nodes.len();
                nodes.push(Node {
                    parent: Some(n),
                    constraint: Some((agent, constraint)),
                    paths,
                    extra,
                    pair_costs,
                });
                open.push(Open {
                    floored,
                    conflicts,
                    node,
                    costed: self.pair_costs == PairCosts::Instance,
                });
            }
        }
        Searched::AtLeast(pruned)
    }

    /// The agents whose paths in node `n` break `constraint` on agent `i`: `i` alone,
    /// or for a [`Constraint::Home`], the agent whose goal it reserves when it arrives
    /// for good after its time, and every other agent on that goal at or after it.
    fn breaking(&self, nodes: &[Node], n: usize, i: usize, constraint: Constraint) -> Vec<usize> {
        let Constraint::Home { cell, time } = constraint else {
            return vec![i];
        };
        let paths = &nodes[n].paths;
        (0..paths.len())
            .filter(|&j| {
                if self.goals[j] == cell {
                    planning::cost(&paths[j], cell) > time
                } else {
                    // Past its end a path stays on its own goal, not `cell`.
                    paths[j].iter().skip(time as usize).any(|&v| v == cell)
                }
            })
            .collect()
    }

    /// The child of node `n` where agent `i` gets `constraint` too (every agent, for a
    /// [`Constraint::Home`]): the paths that break it replanned one after the other,
    /// each within what the others leave of `allowance` (the ones not yet replanned
    /// counted at their parent's extra steps, which the child's never go under).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &self,
        nodes: &[Node],
        n: usize,
        cat: &Occupancy,
        i: usize,
        constraint: Constraint,
        allowance: u32,
        limits: &Limits,
        used: u64,
    ) -> Child {
        let node = &nodes[n];
        let mut extra = node.extra;
        let mut paths = Vec::new();
        for j in self.breaking(nodes, n, i, constraint) {
            let mut constraints = self.constraints_of(nodes, n, j);
            constraints.push(constraint);
            let others = extra - self.extra_of(j, &node.paths[j]);
            let Some(left) = allowance.checked_sub(others) else {
                return Child::Over;
            };
            let avoid = Avoid {
                cat,
                own: &node.paths[j],
                outside: self.outside,
            };
            match self.plan(
                j,
                &constraints,
                self.distances[j] + left,
                &avoid,
                limits,
                used,
            ) {
                Planned::Path(path) => {
                    extra = others + self.extra_of(j, &path);
                    paths.push((j, Rc::new(path)));
                }
                Planned::Over => return Child::Over,
                Planned::GaveUp => return Child::GaveUp,
            }
        }
        Child::Path { paths, extra }
    }
}

/// A lower bound on the extra steps of every plan under a node whose agents take `own`
/// extra steps each (on their paths, each least under the node's constraints): every
/// such plan gives each agent a at least `own[a]` and each pair at least its `extra`
/// (the weighted dependency graph of CBSH, Felner et al., ICAPS 2018, here with the
/// pairs' bounds of the whole instance rather than under the node's constraints), so
/// its extra steps are at least the sum of `own` plus the least cover of what the
/// pairs still lack, `max(0, extra - own[a] - own[b])` (past `deadline`, its components'
/// root bounds: [`min_cover_within`]; the whole search of lak303d random-1 with
/// 1000 agents spent 10 s past a 30 s limit in one node's cover).
///
/// # Complexity
/// O(P) plus [`min_cover_within`] of the pairs that still lack steps.
pub fn node_bound(agents: usize, pairs: &[Pair], own: &[u32], deadline: Deadline) -> u32 {
    let lacking: Vec<Pair> = pairs
        .iter()
        .filter_map(|p| {
            let extra = p
                .extra
                .checked_sub(own[p.first] + own[p.second])
                .filter(|&e| e > 0)?;
            Some(Pair { extra, ..*p })
        })
        .collect();
    let sum: u32 = own.iter().take(agents).sum();
    sum + min_cover_within(agents, &lacking, COVER_NODES, deadline)
}

/// `pairs` and `more` together, each pair at the larger of its bounds.
fn strongest(pairs: &[Pair], more: &[Pair]) -> Vec<Pair> {
    let mut all = pairs.to_vec();
    for p in more {
        match all
            .iter_mut()
            .find(|q| q.first == p.first && q.second == p.second)
        {
            Some(q) => q.extra = q.extra.max(p.extra),
            None => all.push(*p),
        }
    }
    all.retain(|p| p.extra > 0);
    all
}

/// `paths` with agent `i`'s replaced by `path`.
fn with(paths: &[Rc<Vec<u32>>], i: usize, path: &Rc<Vec<u32>>) -> Vec<Rc<Vec<u32>>> {
    let mut paths = paths.to_vec();
    paths[i] = Rc::clone(path);
    paths
}

/// `paths` with each agent's of `new` replaced by its path there.
fn with_all(paths: &[Rc<Vec<u32>>], new: &[(usize, Rc<Vec<u32>>)]) -> Vec<Rc<Vec<u32>>> {
    let mut paths = paths.to_vec();
    for (i, path) in new {
        paths[*i] = Rc::clone(path);
    }
    paths
}

/// A child of a split.
enum Child {
    /// Its replanned agents with their paths (one for a constraint on one agent), and
    /// the group's extra steps.
    Path {
        paths: Vec<(usize, Rc<Vec<u32>>)>,
        extra: u32,
    },
    /// No path within the allowance.
    Over,
    /// The search would pass the memory.
    GaveUp,
}

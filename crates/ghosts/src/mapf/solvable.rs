//! Whether an instance can be solved at all, told without search.
//!
//! The agents move as pebbles do in *pebble motion with rotations* (Yu and Rus, 2014):
//! any reachable placement is reached by single moves into free cells and by turning a
//! cycle of the map that agents fill entirely (a simultaneous step is a set of such
//! trains and turns, since following is allowed and swapping is not). The test looks at
//! each connected component of the map on its own, with its `n` cells and `p` agents:
//!
//! - **every goal in its agent's component**, or the answer is "never";
//! - **a full component** (`p = n`): only cycles turn. A cell on no cycle never changes
//!   its agent; an agent stays in its 2-edge-connected part; a part that is a single
//!   cycle only turns as a whole; any other part can be put in any order (turning two
//!   overlapping cycles gives every permutation of the part);
//! - **a tree with a free cell** (`p < n`): the test of Auletta, Monti, Parente and
//!   Persiano (1999). The start is first carried, by real moves, onto the goals' cells
//!   (leaves first); then agents are grouped into classes that can be put in any order
//!   among their cells (two neighbouring agents, with only free cells between them, can
//!   trade places exactly when they can reach a branching cell with two free branches
//!   beside them), and every agent's carried cell and goal must be in one class;
//! - **a cycle with a free cell**: the cyclic order of the agents never changes;
//! - other components (a free cell and a cycle that is not the whole component): the
//!   test does not decide; the exact searches do.
//!
//! Every verdict is compared in the tests with an exhaustive search over placements on
//! thousands of tiny maps.
//!
//! # Complexity
//! O(C + K) for the component and cycle tests, O(n^2) for a tree component of `n`
//! cells (the carrying and the pairs of neighbouring agents), on C cells and K agents.

use grid_core::bfs::UNREACHABLE;
use grid_core::{CellId, Grid};

use super::Instance;

/// What the test found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No plan exists (proved).
    Never,
    /// A plan exists (proved, for every component).
    Solvable,
    /// The test cannot tell.
    Unknown,
}

/// No agent, no cell.
const NONE: u32 = u32::MAX;

/// The most steps the classes of a tree may take (pairs of agents around a region of
/// free cells, times the cells walked for each): beyond, the test does not decide.
const PAIR_WORK: usize = 1 << 28;

/// The test of the module documentation.
///
/// # Complexity
/// O(C + K), and O(n^2) for a tree component of `n` cells.
pub fn check(instance: &Instance<'_>) -> Verdict {
    let k = instance.starts.len();
    for a in 0..k {
        if instance.distance(a, instance.starts[a]) == UNREACHABLE {
            return Verdict::Never;
        }
    }
    let grid = instance.grid;
    let cells = grid.cell_count();
    let mut local = vec![NONE; cells];
    let mut members: Vec<CellId> = Vec::new();
    let mut verdict = Verdict::Solvable;
    for first in grid.cells() {
        if local[first.index()] != NONE {
            continue;
        }
        members.clear();
        members.push(first);
        local[first.index()] = 0;
        let mut head = 0;
        while head < members.len() {
            let cell = members[head];
            head += 1;
            for (_, next) in grid.neighbours(cell) {
                if local[next.index()] == NONE {
                    local[next.index()] = members.len() as u32;
                    members.push(next);
                }
            }
        }
        let Some(component) = Component::new(grid, instance, &members, &local) else {
            continue;
        };
        match component.possible() {
            Some(false) => return Verdict::Never,
            Some(true) => {}
            None => verdict = Verdict::Unknown,
        }
    }
    verdict
}

/// One connected component, numbered locally `0..n` in the order of `members`.
struct Component<'a> {
    grid: &'a Grid,
    members: &'a [CellId],
    /// The local number of every cell of the map (of its own component).
    local: &'a [u32],
    /// The agent starting on each cell, or [`NONE`].
    start: Vec<u32>,
    /// The agent whose goal each cell is, or [`NONE`].
    goal: Vec<u32>,
    /// Agents in the component.
    agents: usize,
}

impl<'a> Component<'a> {
    /// The component of `members`, or `None` when fewer than two agents start in it
    /// (one agent alone reaches any goal of its component).
    fn new(
        grid: &'a Grid,
        instance: &Instance<'_>,
        members: &'a [CellId],
        local: &'a [u32],
    ) -> Option<Self> {
        let n = members.len();
        // `local` is the numbering of the component being built, or of an earlier one:
        // a cell of this component is one of its members.
        let inside = |c: CellId| {
            let here = local[c.index()] as usize;
            here < n && members[here] == c
        };
        let agents = instance.starts.iter().filter(|&&s| inside(s)).count();
        if agents < 2 {
            return None;
        }
        let (mut start, mut goal) = (vec![NONE; n], vec![NONE; n]);
        for (a, (&s, &g)) in instance.starts.iter().zip(instance.goals).enumerate() {
            if inside(s) {
                start[local[s.index()] as usize] = a as u32;
                goal[local[g.index()] as usize] = a as u32;
            }
        }
        Some(Component {
            grid,
            members,
            local,
            start,
            goal,
            agents,
        })
    }

    fn len(&self) -> usize {
        self.members.len()
    }

    /// The neighbours of cell `v`.
    fn adjacent(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.grid
            .neighbours(self.members[v])
            .map(|(_, c)| self.local[c.index()] as usize)
    }

    fn degree(&self, v: usize) -> usize {
        self.grid.neighbours(self.members[v]).count()
    }

    /// Whether the agents can reach their goals: `None` when the test does not decide.
    fn possible(&self) -> Option<bool> {
        let n = self.len();
        if self.agents == n {
            return Some(self.full_possible());
        }
        let degrees: usize = (0..n).map(|v| self.degree(v)).sum();
        let branching = (0..n).any(|v| self.degree(v) > 2);
        if degrees / 2 + 1 == n {
            return if branching {
                self.tree_possible()
            } else {
                Some(self.path_possible())
            };
        }
        if !branching {
            return Some(self.cycle_possible());
        }
        None
    }

    /// The cells of the component in the order of its cycle (every degree is 2), or the
    /// cells of one 2-edge-connected part that is a cycle, from `first`, keeping to cells
    /// where `inside` holds.
    fn cycle_order(&self, first: usize, inside: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut order = vec![first];
        let mut previous = usize::MAX;
        let mut v = first;
        loop {
            let next = self.adjacent(v).find(|&w| w != previous && inside(w));
            match next {
                Some(w) if w != first => {
                    order.push(w);
                    previous = v;
                    v = w;
                }
                _ => return order,
            }
        }
    }

    /// A path: no agent passes another, so the agents meet their goals in their order.
    fn path_possible(&self) -> bool {
        let Some(end) = (0..self.len()).find(|&v| self.degree(v) <= 1) else {
            return false;
        };
        let order = self.cycle_order(end, |_| true);
        let along = |cells: &[u32]| -> Vec<u32> {
            order
                .iter()
                .map(|&v| cells[v])
                .filter(|&a| a != NONE)
                .collect()
        };
        along(&self.start) == along(&self.goal)
    }

    /// A cycle with a free cell: the agents keep their cyclic order.
    fn cycle_possible(&self) -> bool {
        let order = self.cycle_order(0, |_| true);
        let starts: Vec<u32> = order
            .iter()
            .map(|&v| self.start[v])
            .filter(|&a| a != NONE)
            .collect();
        let goals: Vec<u32> = order
            .iter()
            .map(|&v| self.goal[v])
            .filter(|&a| a != NONE)
            .collect();
        is_rotation(&starts, &goals)
    }

    /// Every cell taken: only cycles turn (see the module documentation).
    fn full_possible(&self) -> bool {
        let n = self.len();
        let part = self.two_edge_connected_parts();
        let mut goal_cell = vec![NONE; n];
        let mut start_cell = vec![NONE; n];
        let mut by_agent: Vec<(u32, usize)> = Vec::with_capacity(n);
        for v in 0..n {
            by_agent.push((self.start[v], v));
        }
        by_agent.sort_unstable();
        let slot = |agent: u32| by_agent.binary_search_by_key(&agent, |&(a, _)| a).ok();
        for v in 0..n {
            if let Some(i) = slot(self.goal[v]) {
                goal_cell[i] = v as u32;
                start_cell[i] = by_agent[i].1 as u32;
            }
        }
        let mut size = vec![0usize; n];
        let mut edges = vec![0usize; n];
        for v in 0..n {
            size[part[v]] += 1;
            for w in self.adjacent(v) {
                if part[w] == part[v] {
                    edges[part[v]] += 1;
                }
            }
        }
        for i in 0..n {
            let (s, g) = (start_cell[i] as usize, goal_cell[i] as usize);
            if s >= n || g >= n || part[s] != part[g] || (size[part[s]] == 1 && s != g) {
                return false;
            }
        }
        // A part that is a single cycle (as many edges as cells) turns as a whole.
        let mut checked = vec![false; n];
        for v in 0..n {
            let p = part[v];
            if size[p] < 3 || checked[p] || edges[p] / 2 != size[p] {
                continue;
            }
            checked[p] = true;
            let order = self.cycle_order(v, |w| part[w] == p);
            let starts: Vec<u32> = order.iter().map(|&w| self.start[w]).collect();
            let goals: Vec<u32> = order.iter().map(|&w| self.goal[w]).collect();
            if !is_rotation(&starts, &goals) {
                return false;
            }
        }
        true
    }

    /// The 2-edge-connected part of each cell (the parts left when the bridges are cut),
    /// numbered by a cell of the part.
    ///
    /// # Complexity
    /// O(n), by one depth-first search for the bridges (Tarjan, 1974).
    fn two_edge_connected_parts(&self) -> Vec<usize> {
        let n = self.len();
        let (mut entered, mut low) = (vec![usize::MAX; n], vec![0usize; n]);
        let mut bridges: Vec<(usize, usize)> = Vec::new();
        let mut clock = 0;
        // (cell, the cell it was entered from, next neighbour to look at)
        let mut stack: Vec<(usize, usize, usize)> = vec![(0, usize::MAX, 0)];
        entered[0] = 0;
        low[0] = 0;
        while let Some(&mut (v, from, ref mut next)) = stack.last_mut() {
            if let Some(w) = self.adjacent(v).nth(*next) {
                *next += 1;
                if w == from {
                    continue;
                }
                if entered[w] == usize::MAX {
                    clock += 1;
                    entered[w] = clock;
                    low[w] = clock;
                    stack.push((w, v, 0));
                } else {
                    low[v] = low[v].min(entered[w]);
                }
            } else {
                stack.pop();
                if from != usize::MAX {
                    low[from] = low[from].min(low[v]);
                    if low[v] > entered[from] {
                        bridges.push((from.min(v), from.max(v)));
                    }
                }
            }
        }
        bridges.sort_unstable();
        let is_bridge = |a: usize, b: usize| bridges.binary_search(&(a.min(b), a.max(b))).is_ok();
        let mut part = vec![usize::MAX; n];
        let mut queue = Vec::new();
        for first in 0..n {
            if part[first] != usize::MAX {
                continue;
            }
            part[first] = first;
            queue.push(first);
            while let Some(v) = queue.pop() {
                for w in self.adjacent(v) {
                    if part[w] == usize::MAX && !is_bridge(v, w) {
                        part[w] = first;
                        queue.push(w);
                    }
                }
            }
        }
        part
    }

    /// A tree with at least one free cell (see the module documentation).
    fn tree_possible(&self) -> Option<bool> {
        let carried = self.carry_onto_goals()?;
        Tree::new(self, &carried).classes_agree(&carried, &self.goal)
    }

    /// The start carried by real moves onto the goals' cells, leaves first: a leaf that
    /// must be free pushes its agent towards the nearest free cell; a leaf that must be
    /// taken pulls the nearest agent; then the leaf is done and left out. `None` if the
    /// counts do not allow it (they always do when every goal is distinct).
    ///
    /// # Complexity
    /// O(n^2): one breadth-first search per cell.
    fn carry_onto_goals(&self) -> Option<Vec<u32>> {
        let n = self.len();
        let mut here = self.start.clone();
        let mut done = vec![false; n];
        let mut degree: Vec<usize> = (0..n).map(|v| self.degree(v)).collect();
        let mut leaves: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
        let mut from = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        while let Some(leaf) = leaves.pop() {
            if done[leaf] {
                continue;
            }
            let want = self.goal[leaf] != NONE;
            if want != (here[leaf] != NONE) {
                // The nearest cell that is free (to push into) or taken (to pull from).
                from.fill(usize::MAX);
                from[leaf] = leaf;
                queue.clear();
                queue.push_back(leaf);
                let mut found = None;
                while let Some(v) = queue.pop_front() {
                    if v != leaf && (here[v] != NONE) == want {
                        found = Some(v);
                        break;
                    }
                    for w in self.adjacent(v) {
                        if !done[w] && from[w] == usize::MAX {
                            from[w] = v;
                            queue.push_back(w);
                        }
                    }
                }
                let target = found?;
                if want {
                    here[leaf] = here[target];
                    here[target] = NONE;
                } else {
                    // Every cell on the way is taken: each agent steps one cell on.
                    let mut v = target;
                    while v != leaf {
                        here[v] = here[from[v]];
                        v = from[v];
                    }
                    here[leaf] = NONE;
                }
            }
            done[leaf] = true;
            for w in self.adjacent(leaf) {
                if !done[w] {
                    degree[w] -= 1;
                    if degree[w] <= 1 {
                        leaves.push(w);
                    }
                }
            }
        }
        Some(here)
    }
}

/// Whether `goals` is `starts` turned (both hold the same agents in a cycle's order).
fn is_rotation(starts: &[u32], goals: &[u32]) -> bool {
    if starts.len() != goals.len() {
        return false;
    }
    if starts.is_empty() {
        return true;
    }
    let Some(shift) = goals.iter().position(|&a| a == starts[0]) else {
        return false;
    };
    (0..starts.len()).all(|i| starts[i] == goals[(i + shift) % goals.len()])
}

/// A tree component rooted at cell 0 with one placement on it, for the classes.
struct Tree<'a> {
    component: &'a Component<'a>,
    parent: Vec<usize>,
    depth: Vec<usize>,
    /// Free cells in the subtree of each cell (itself included).
    free_below: Vec<usize>,
    free: usize,
}

impl<'a> Tree<'a> {
    fn new(component: &'a Component<'a>, placement: &[u32]) -> Self {
        let n = component.len();
        let (mut parent, mut depth) = (vec![usize::MAX; n], vec![0; n]);
        let mut order = vec![0usize];
        parent[0] = 0;
        let mut head = 0;
        while head < order.len() {
            let v = order[head];
            head += 1;
            for w in component.adjacent(v) {
                if parent[w] == usize::MAX {
                    parent[w] = v;
                    depth[w] = depth[v] + 1;
                    order.push(w);
                }
            }
        }
        let mut free_below: Vec<usize> =
            placement.iter().map(|&a| usize::from(a == NONE)).collect();
        for &v in order.iter().skip(1).rev() {
            free_below[parent[v]] += free_below[v];
        }
        let free = free_below[0];
        Tree {
            component,
            parent,
            depth,
            free_below,
            free,
        }
    }

    /// Free cells in the branch of `w` that starts at its neighbour `z`.
    fn branch_free(&self, w: usize, z: usize) -> usize {
        if self.parent[z] == w && z != w {
            self.free_below[z]
        } else {
            self.free - self.free_below[w]
        }
    }

    /// The cells from `a` to `b`.
    fn path(&self, a: usize, b: usize) -> Vec<usize> {
        let (mut x, mut y) = (a, b);
        let (mut head, mut tail) = (vec![], vec![]);
        while self.depth[x] > self.depth[y] {
            head.push(x);
            x = self.parent[x];
        }
        while self.depth[y] > self.depth[x] {
            tail.push(y);
            y = self.parent[y];
        }
        while x != y {
            head.push(x);
            tail.push(y);
            x = self.parent[x];
            y = self.parent[y];
        }
        head.push(x);
        head.extend(tail.into_iter().rev());
        head
    }

    /// Whether the agent on `x`, with its neighbour `toward` on the way to the other
    /// agent, can take the pair to a branching cell on its own side with two free
    /// branches beside them: at itself (two other branches holding at least two free
    /// cells, and two branches with a free cell), or at the nearest branching cell down
    /// one of the branches behind it, `d` cells away, with at least `d + 2` free cells in
    /// that branch.
    fn side_trades(&self, x: usize, toward: usize) -> bool {
        let component = self.component;
        if component.degree(x) >= 3 {
            let others: usize = component
                .adjacent(x)
                .filter(|&z| z != toward)
                .map(|z| self.branch_free(x, z))
                .sum();
            let free_branches = component
                .adjacent(x)
                .filter(|&z| self.branch_free(x, z) > 0)
                .count();
            if others >= 2 && free_branches >= 2 {
                return true;
            }
        }
        component.adjacent(x).filter(|&z| z != toward).any(|z| {
            self.branching_down(x, z)
                .is_some_and(|d| self.branch_free(x, z) >= d + 2)
        })
    }

    /// The distance from `x` to the nearest branching cell down its branch that starts
    /// at the neighbour `z` (cells of degree 2 until then), or `None` if the branch is a
    /// dead end.
    fn branching_down(&self, x: usize, z: usize) -> Option<usize> {
        let (mut previous, mut v, mut d) = (x, z, 1);
        loop {
            if self.component.degree(v) >= 3 {
                return Some(d);
            }
            let next = self.component.adjacent(v).find(|&w| w != previous)?;
            previous = v;
            v = next;
            d += 1;
        }
    }

    /// Whether two neighbouring agents on `a` and `b` can trade places.
    fn trades(&self, a: usize, b: usize) -> bool {
        let path = self.path(a, b);
        let last = path.len() - 1;
        if self.side_trades(a, path[1]) || self.side_trades(b, path[last - 1]) {
            return true;
        }
        // A branching cell between them, with a free cell off the way, or free cells on
        // both sides.
        (1..last).any(|i| {
            let w = path[i];
            let (before, after) = (path[i - 1], path[i + 1]);
            self.component.degree(w) >= 3
                && (self
                    .component
                    .adjacent(w)
                    .any(|z| z != before && z != after && self.branch_free(w, z) > 0)
                    || (self.branch_free(w, before) > 0 && self.branch_free(w, after) > 0))
        })
    }

    /// Whether every agent's cell in `placement` and its goal are in one class; `None`
    /// when the pairs to compare would take more than [`PAIR_WORK`] steps.
    fn classes_agree(&self, placement: &[u32], goal: &[u32]) -> Option<bool> {
        let n = placement.len();
        let mut class = UnionFind::new(n);
        let taken = |v: usize| placement[v] != NONE;
        // Neighbouring pairs: taken cells next to each other, and the taken cells around
        // each region of free cells.
        for v in 0..n {
            for w in self.component.adjacent(v) {
                if v < w && taken(v) && taken(w) && self.trades(v, w) {
                    class.join(v, w);
                }
            }
        }
        let mut region = vec![false; n];
        let mut work = 0usize;
        let mut stack = Vec::new();
        let mut around = Vec::new();
        for first in 0..n {
            if taken(first) || region[first] {
                continue;
            }
            region[first] = true;
            stack.push(first);
            around.clear();
            while let Some(v) = stack.pop() {
                for w in self.component.adjacent(v) {
                    if taken(w) {
                        around.push(w);
                    } else if !region[w] {
                        region[w] = true;
                        stack.push(w);
                    }
                }
            }
            around.sort_unstable();
            around.dedup();
            work = work.saturating_add((around.len() * around.len()).saturating_mul(n));
            if work > PAIR_WORK {
                return None;
            }
            for i in 0..around.len() {
                for j in i + 1..around.len() {
                    if class.find(around[i]) != class.find(around[j])
                        && self.trades(around[i], around[j])
                    {
                        class.join(around[i], around[j]);
                    }
                }
            }
        }
        // Each agent: its cell now and its goal cell.
        let mut now: Vec<(u32, usize)> = (0..n)
            .filter(|&v| taken(v))
            .map(|v| (placement[v], v))
            .collect();
        now.sort_unstable();
        Some((0..n).filter(|&v| goal[v] != NONE).all(|g| {
            match now.binary_search_by_key(&goal[g], |&(a, _)| a) {
                Ok(i) => class.find(now[i].1) == class.find(g),
                Err(_) => false,
            }
        }))
    }
}

/// Disjoint sets over `0..n`, with path halving.
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.parent[a] = b;
    }
}

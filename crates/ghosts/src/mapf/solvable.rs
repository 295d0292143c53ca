//! Whether an instance can be solved at all, told without search.
//!
//! The agents move as pebbles do in *pebble motion with rotations* (Yu and Rus, 2014):
//! any reachable placement is reached by single moves into free cells and by turning a
//! cycle of the map that agents fill entirely (a simultaneous step is a set of such
//! trains and turns, since following is allowed and swapping is not). The test looks at
//! each connected component of the map on its own, with its `n` cells and `p` agents;
//! its parts are the 2-edge-connected parts (what is left when the bridges are cut):
//! *rooms* (parts with a cycle) and single cells.
//!
//! - **every goal in its agent's component**, or the answer is "never";
//! - **a full component** (`p = n`): only cycles turn. A cell on no cycle never changes
//!   its agent; an agent stays in its room; a room that is a single cycle only turns as
//!   a whole; any other room can be put in any order (two overlapping cycles turned in
//!   turn give every permutation);
//! - **a path** or **a cycle** with a free cell: the agents keep their (cyclic) order;
//! - **any other component with a free cell**: the test of Auletta, Monti, Parente and
//!   Persiano (1999) for trees, with rooms as places where agents trade. The start is
//!   first carried, by real moves along a spanning tree (leaves first), onto the goals'
//!   cells; then agents are grouped into classes that can be put in any order among
//!   their cells, and every agent's carried cell and goal must share a class. The agents
//!   in one room are one class (a free cell reaches the room, or it is full and turns).
//!   Two neighbouring agents (only free cells between them) trade places when they can
//!   take the pair to a place that lets them: a branching cell with a free cell in two
//!   branches beside them, or a room. Such a place between them serves when it has a
//!   free cell off their way (two free cells to take both, for a room); behind one of
//!   them, `d` cells away, it serves when that side has `d + 2` free cells (`d + 1` for
//!   a room); an agent on a branching cell trades there when two other branches hold
//!   two free cells and two branches have a free cell. Classes that agree prove a plan;
//!   classes that do not are no proof of "never" (the rule misses trades past an agent
//!   that steps aside), so the test then says [`Verdict::Unknown`] and the searches
//!   decide.
//!
//! Every verdict is compared in the tests with an exhaustive search over placements on
//! thousands of tiny maps (trees, rooms with corridors, full and nearly full maps): every
//! "never" and every "solvable" agrees with it, and the tests count the instances left
//! to the searches.
//!
//! # Complexity
//! O(C + K) for the full, path and cycle components. For the others, the carrying is one
//! breadth-first search per cell where the start and the goals differ (O(n) each, usually
//! far less), and the classes compare the pairs of agents around each region of free
//! cells along a way through it; when that work passes [`PAIR_WORK`] (large open maps
//! with many agents) the test does not decide and the searches do.

use grid_core::UNREACHABLE;
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

/// The most steps the classes may take (a walk through a region of free cells from each
/// agent around it, and the way to each other agent): beyond, the test does not decide.
pub const PAIR_WORK: usize = 1 << 26;

/// Whether some agent's goal lies outside its start's connected component: the answer is
/// then "never" (the first rule of the module documentation), known before any
/// distance table is built (on a map of a million cells, a thousand agents' tables take
/// seconds and 2 GB).
///
/// # Complexity
/// O(C + K).
pub fn goal_out_of_reach(grid: &Grid, starts: &[CellId], goals: &[CellId]) -> bool {
    let mut component = vec![NONE; grid.cell_count()];
    let mut queue: Vec<CellId> = Vec::new();
    let mut label = 0;
    for first in grid.cells() {
        if component[first.index()] != NONE {
            continue;
        }
        component[first.index()] = label;
        queue.clear();
        queue.push(first);
        while let Some(cell) = queue.pop() {
            for (_, next) in grid.neighbours(cell) {
                if component[next.index()] == NONE {
                    component[next.index()] = label;
                    queue.push(next);
                }
            }
        }
        label += 1;
    }
    starts
        .iter()
        .zip(goals)
        .any(|(s, g)| component[s.index()] != component[g.index()])
}

/// The test of the module documentation.
///
/// # Complexity
/// O(C + K) and the bounded work of the classes (module documentation).
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
        if !branching {
            return Some(if degrees / 2 + 1 == n {
                self.path_possible()
            } else {
                self.cycle_possible()
            });
        }
        self.classes_possible()
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
        let Some(moves) = cells_by_agent(&self.start, &self.goal) else {
            return false;
        };
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
        for (s, g) in moves {
            if part[s] != part[g] || (size[part[s]] == 1 && s != g) {
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

    /// A component with a branching cell and a free cell (see the module
    /// documentation).
    ///
    /// Only a "yes" is a proof: every trade the classes join is a real one, but the rule
    /// looks at neighbouring agents only and misses trades past an agent that can step
    /// aside (two agents on the leaves beside a branching cell that a third one holds,
    /// crossing while the third waits in the stem: `tests/solvable.rs` pins that shape).
    /// So classes that disagree leave the answer to the searches.
    fn classes_possible(&self) -> Option<bool> {
        let carried = self.carry_onto_goals()?;
        match Layout::new(self, &carried).classes_agree(&carried, &self.goal)? {
            true => Some(true),
            false => None,
        }
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
        // Leaves of a breadth-first spanning tree: what is left stays connected.
        let mut above = vec![usize::MAX; n];
        above[0] = 0;
        let mut order = vec![0usize];
        let mut head = 0;
        while head < order.len() {
            let v = order[head];
            head += 1;
            for w in self.adjacent(v) {
                if above[w] == usize::MAX {
                    above[w] = v;
                    order.push(w);
                }
            }
        }
        let spanning = |v: usize, w: usize| (above[w] == v && w != 0) || (above[v] == w && v != 0);
        let mut here = self.start.clone();
        let mut done = vec![false; n];
        let mut degree: Vec<usize> = (0..n)
            .map(|v| self.adjacent(v).filter(|&w| spanning(v, w)).count())
            .collect();
        let mut leaves: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
        let mut from = vec![usize::MAX; n];
        let mut visited: Vec<usize> = Vec::new();
        while let Some(leaf) = leaves.pop() {
            if done[leaf] {
                continue;
            }
            let want = self.goal[leaf] != NONE;
            if want != (here[leaf] != NONE) {
                // The nearest cell that is free (to push into) or taken (to pull from).
                for &v in &visited {
                    from[v] = usize::MAX;
                }
                visited.clear();
                from[leaf] = leaf;
                visited.push(leaf);
                let mut head = 0;
                let mut found = None;
                while head < visited.len() {
                    let v = visited[head];
                    head += 1;
                    if v != leaf && (here[v] != NONE) == want {
                        found = Some(v);
                        break;
                    }
                    for w in self.adjacent(v) {
                        if !done[w] && from[w] == usize::MAX {
                            from[w] = v;
                            visited.push(w);
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
                if !done[w] && spanning(leaf, w) {
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

/// A component with one placement on it, for the classes: its 2-edge-connected parts
/// (rooms: parts with a cycle; the others are single cells) joined by bridges into a
/// tree rooted at the part of cell 0, with the free cells on each side of each bridge.
struct Layout<'a> {
    component: &'a Component<'a>,
    part: Vec<usize>,
    /// Cells of each part (indexed by the part's number, a cell of it).
    size: Vec<usize>,
    /// The part each part hangs from in the tree of parts.
    above: Vec<usize>,
    /// Free cells in each part and the parts below it.
    free_below: Vec<usize>,
    free: usize,
    /// [`Self::need_down`] of the (agent, neighbour) pairs asked so far.
    needs: std::cell::RefCell<std::collections::HashMap<(usize, usize), Option<usize>>>,
}

impl<'a> Layout<'a> {
    fn new(component: &'a Component<'a>, placement: &[u32]) -> Self {
        let n = component.len();
        let part = component.two_edge_connected_parts();
        let mut size = vec![0; n];
        for v in 0..n {
            size[part[v]] += 1;
        }
        // The tree of parts, breadth first from cell 0: a bridge leads to a new part.
        let mut above = vec![usize::MAX; n];
        let mut order = vec![0usize];
        let mut seen = vec![false; n];
        seen[0] = true;
        above[part[0]] = part[0];
        let mut parts_in_order = vec![part[0]];
        let mut head = 0;
        while head < order.len() {
            let v = order[head];
            head += 1;
            for w in component.adjacent(v) {
                if !seen[w] {
                    seen[w] = true;
                    order.push(w);
                    if part[w] != part[v] && above[part[w]] == usize::MAX {
                        above[part[w]] = part[v];
                        parts_in_order.push(part[w]);
                    }
                }
            }
        }
        let mut free_below = vec![0; n];
        for v in 0..n {
            if placement[v] == NONE {
                free_below[part[v]] += 1;
            }
        }
        for &p in parts_in_order.iter().skip(1).rev() {
            free_below[above[p]] += free_below[p];
        }
        let free = free_below[part[0]];
        Layout {
            component,
            part,
            size,
            above,
            free_below,
            free,
            needs: Default::default(),
        }
    }

    fn in_room(&self, v: usize) -> bool {
        self.size[self.part[v]] >= 3
    }

    /// Free cells on the side of the bridge from `w` to its neighbour `z` that holds `z`.
    fn side_free(&self, w: usize, z: usize) -> usize {
        let (pw, pz) = (self.part[w], self.part[z]);
        if self.above[pz] == pw && pz != pw {
            self.free_below[pz]
        } else {
            self.free - self.free_below[pw]
        }
    }

    /// Free cells a pair needs behind `x`, down the way that starts at its neighbour `z`
    /// (across a bridge), to trade at the nearest place there: `d + 1` for a room `d`
    /// cells away, `d + 2` for a branching cell; `None` for a dead end.
    fn need_down(&self, x: usize, z: usize) -> Option<usize> {
        if let Some(&need) = self.needs.borrow().get(&(x, z)) {
            return need;
        }
        let need = self.walk_down(x, z);
        self.needs.borrow_mut().insert((x, z), need);
        need
    }

    /// [`Self::need_down`], walked.
    fn walk_down(&self, x: usize, z: usize) -> Option<usize> {
        let (mut previous, mut v, mut d) = (x, z, 1);
        loop {
            if self.in_room(v) {
                return Some(d + 1);
            }
            if self.component.degree(v) >= 3 {
                return Some(d + 2);
            }
            let next = self.component.adjacent(v).find(|&w| w != previous)?;
            previous = v;
            v = next;
            d += 1;
        }
    }

    /// Whether the agent on `x`, whose way to the other agent starts at its neighbour
    /// `toward`, can take the pair to a place on its own side where they trade: its own
    /// room (a free cell on that side of the bridge out), its own branching cell (two
    /// other branches holding two free cells, two branches with a free cell), or the
    /// nearest room or branching cell down a branch behind it ([`Self::need_down`]).
    fn side_trades(&self, x: usize, toward: usize) -> bool {
        let component = self.component;
        if self.in_room(x) {
            return self.part[toward] != self.part[x] && self.side_free(toward, x) >= 1;
        }
        if component.degree(x) >= 3 {
            let others: usize = component
                .adjacent(x)
                .filter(|&z| z != toward)
                .map(|z| self.side_free(x, z))
                .sum();
            let free_branches = component
                .adjacent(x)
                .filter(|&z| self.side_free(x, z) > 0)
                .count();
            if others >= 2 && free_branches >= 2 {
                return true;
            }
        }
        component.adjacent(x).filter(|&z| z != toward).any(|z| {
            self.need_down(x, z)
                .is_some_and(|need| self.side_free(x, z) >= need)
        })
    }

    /// Whether two neighbouring agents trade places, given a way `path` between them
    /// through free cells.
    fn trades(&self, path: &[usize]) -> bool {
        let last = path.len() - 1;
        let (a, b) = (path[0], path[last]);
        if self.side_trades(a, path[1]) || self.side_trades(b, path[last - 1]) {
            return true;
        }
        // Between them: a free cell of the room of one of them (the other walks in), a
        // room that can take both (two free cells in it or off their way), or a
        // branching cell with a free cell off their way, or free cells on both sides.
        (1..last).any(|i| {
            let w = path[i];
            let (before, after) = (path[i - 1], path[i + 1]);
            if self.in_room(w) {
                let p = self.part[w];
                if p == self.part[a] || p == self.part[b] {
                    return true;
                }
                let enter = (1..=i)
                    .rev()
                    .find(|&j| self.part[path[j - 1]] != p)
                    .unwrap_or(1);
                let exit = (i..last)
                    .find(|&j| self.part[path[j + 1]] != p)
                    .unwrap_or(last - 1);
                let behind_a = self.side_free(path[enter], path[enter - 1]);
                let behind_b = self.side_free(path[exit], path[exit + 1]);
                return self.free.saturating_sub(behind_a + behind_b) >= 2;
            }
            self.component.degree(w) >= 3
                && (self
                    .component
                    .adjacent(w)
                    .any(|z| z != before && z != after && self.side_free(w, z) > 0)
                    || (self.side_free(w, before) > 0 && self.side_free(w, after) > 0))
        })
    }

    /// Whether every agent's cell in `placement` and its goal are in one class; `None`
    /// when the pairs to compare would take more than [`PAIR_WORK`] steps.
    fn classes_agree(&self, placement: &[u32], goal: &[u32]) -> Option<bool> {
        let n = placement.len();
        let mut class = UnionFind::new(n);
        let taken = |v: usize| placement[v] != NONE;
        // The agents of a room take every order among themselves.
        let mut first_in = vec![usize::MAX; n];
        for v in (0..n).filter(|&v| taken(v) && self.in_room(v)) {
            let p = self.part[v];
            if first_in[p] == usize::MAX {
                first_in[p] = v;
            } else {
                class.join(v, first_in[p]);
            }
        }
        // Neighbouring pairs: taken cells next to each other, and the taken cells around
        // each region of free cells.
        for v in 0..n {
            for w in self.component.adjacent(v) {
                if v < w && taken(v) && taken(w) && self.trades(&[v, w]) {
                    class.join(v, w);
                }
            }
        }
        let mut region = vec![usize::MAX; n];
        let mut work = 0usize;
        let mut members = Vec::new();
        let mut around = Vec::new();
        let mut from = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        for first in 0..n {
            if taken(first) || region[first] != usize::MAX {
                continue;
            }
            region[first] = first;
            members.clear();
            members.push(first);
            around.clear();
            let mut head = 0;
            while head < members.len() {
                let v = members[head];
                head += 1;
                for w in self.component.adjacent(v) {
                    if taken(w) {
                        around.push(w);
                    } else if region[w] == usize::MAX {
                        region[w] = first;
                        members.push(w);
                    }
                }
            }
            around.sort_unstable();
            around.dedup();
            for i in 0..around.len() {
                // One way from `around[i]` to every other, through the region.
                let x = around[i];
                if around[i + 1..]
                    .iter()
                    .all(|&y| class.find(x) == class.find(y))
                {
                    continue;
                }
                work = work.saturating_add(members.len() + around.len());
                if work > PAIR_WORK {
                    return None;
                }
                for &m in &members {
                    from[m] = usize::MAX;
                }
                for &y in &around {
                    from[y] = usize::MAX;
                }
                from[x] = x;
                queue.clear();
                queue.push_back(x);
                while let Some(v) = queue.pop_front() {
                    if v != x && taken(v) {
                        continue;
                    }
                    for w in self.component.adjacent(v) {
                        let open = !taken(w) && region[w] == first;
                        if from[w] == usize::MAX
                            && (open || (taken(w) && around.binary_search(&w).is_ok()))
                        {
                            from[w] = v;
                            queue.push_back(w);
                        }
                    }
                }
                for &y in &around[i + 1..] {
                    if class.find(x) == class.find(y) || from[y] == usize::MAX {
                        continue;
                    }
                    let mut path = vec![y];
                    let mut v = y;
                    while v != x {
                        v = from[v];
                        path.push(v);
                    }
                    work = work.saturating_add(path.len());
                    if work > PAIR_WORK {
                        return None;
                    }
                    if self.trades(&path) {
                        class.join(x, y);
                    }
                }
            }
        }
        let moves = cells_by_agent(placement, goal)?;
        Some(
            moves
                .into_iter()
                .all(|(now, g)| class.find(now) == class.find(g)),
        )
    }
}

/// Each agent's cell in `from` and in `to` (both give the agent on each cell, or
/// [`NONE`]), or `None` when they do not hold the same agents.
///
/// # Complexity
/// O(n log n).
fn cells_by_agent(from: &[u32], to: &[u32]) -> Option<Vec<(usize, usize)>> {
    let listed = |cells: &[u32]| {
        let mut agents: Vec<(u32, usize)> = (0..cells.len())
            .filter(|&v| cells[v] != NONE)
            .map(|v| (cells[v], v))
            .collect();
        agents.sort_unstable();
        agents
    };
    let (from, to) = (listed(from), listed(to));
    if from.len() != to.len() || from.iter().zip(&to).any(|(a, b)| a.0 != b.0) {
        return None;
    }
    Some(from.iter().zip(&to).map(|(a, b)| (a.1, b.1)).collect())
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

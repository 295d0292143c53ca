//! The pairwise lower bound on the extra steps: the weighted dependency graph of CBSH
//! (Felner, Li, Boyarski, Ma, Cohen, Kumar and Koenig, "Adding heuristics to
//! conflict-based search for multi-agent path finding", ICAPS 2018; Li, Harabor, Stuckey
//! and Koenig, "Pairwise symmetry reasoning for multi-agent path finding search", AIJ
//! 2021) over the whole instance.
//!
//! Any two agents a and b of a plan form a plan of their own, so their extra steps
//! x_a + x_b are at least w_ab, the least extra steps of a and b alone (their exact
//! two-agent optimum, decided budget by budget by the SAT sessions of [`super::encoding`]
//! on the two of them). Every plan's extra steps are therefore at least the least
//! sum of x over the nonnegative integers with x_a + x_b >= w_ab for every pair: a minimum
//! weighted vertex cover of the graph of the pairs with w_ab > 0, exact per connected
//! component by branch and bound ([`min_cover`]), and the bound of its root (a matching
//! of disjoint pairs) where the branching passes its node limit.
//!
//! Most pairs take no extra step, settled without a SAT decision: when no shortest path
//! of one can meet a shortest path of the other at the same time (a cell, a swap, or a
//! cell after the other is home for good: [`may_meet`]), or when one shortest path of one
//! leaves the other a shortest path apart from it ([`apart`]), w_ab = 0. (On
//! random-64-64-10 even-1 with 80 agents, a SAT decision for every pair that may meet
//! took 10.7 s wall on the loaded 2-core machine, more than the rest of the proof.)
//!
//! A pair of long paths on a large map (where [`Cbs`] says conflict-based search decides
//! a group first) is decided by conflict-based search on the two agents first
//! ([`super::cbs::least_extra`], at most [`PAIR_CBS_SEARCHES`] low-level searches), and
//! by SAT from the bound it proved when it gives up. Why: the two-agent SAT sessions of
//! such pairs are large (orz900d random-1 K = 100: 65 000 to 120 000 variables for a
//! pair's reach of 2, 0.2 to 0.5 s a pair, 4.8 CPU s for the bound), while the
//! conflicts of two agents are few and each low-level search a few milliseconds.
//!
//! The pairs also go into every SAT session ([`super::encoding::Session`]) as clauses on
//! the agents' unary counts of extra steps, e(a, k + 1) or e(b, w_ab - k) for k in
//! 0..w_ab: implied by the rules, so no plan is lost, and they spare CaDiCaL finding each
//! pair's conflict again under every budget.
//!
//! # Complexity
//! O(K x C) for the shortest-path times, O(K^2 x C) for the filter, then one two-agent
//! SAT decision per budget up to w_ab (at most the cap) per pair that may meet; the
//! vertex cover is exponential in a component's size in the worst case, cut at
//! [`COVER_NODES`] nodes.

use crate::mapf::Instance;
use crate::moves::Options;

use super::Cbs;
use super::cbs::{self, Searched};
use super::encoding::{Decision, Sessions};
use super::symmetry::PairSplits;
use crate::mapf::sat::Deadline;

/// Nodes the branch and bound of one component of [`min_cover`] may visit before it
/// settles for the bound of its root.
pub const COVER_NODES: usize = 200_000;

/// The low-level searches conflict-based search may make on one pair before SAT decides
/// it (from the bound the search proved).
pub const PAIR_CBS_SEARCHES: u64 = 200;

/// Two agents and the least extra steps they take together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    /// The first agent (index in the instance; less than `second`).
    pub first: usize,
    /// The second agent.
    pub second: usize,
    /// A lower bound on the extra steps of the two (their least extra steps when
    /// decided within the cap and the deadline), at least 1.
    pub extra: u32,
}

/// Pairs tested between two looks at the deadline in [`pairwise_bound`].
const PAIRS_PER_CHECK: usize = 256;

/// The pairs of agents that take extra steps together, and the bound they give.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PairwiseBound {
    /// Every pair with a positive bound.
    pub pairs: Vec<Pair>,
    /// A lower bound on the extra steps of every plan: the vertex cover of `pairs`.
    pub extra: u32,
}

/// The pairwise bound of `instance` (module documentation): each pair's extra steps
/// decided up to `cap` (a pair is never counted above it), by conflict-based search first
/// where `cbs` says so ([`Cbs::decides`]), in SAT sessions of at most `max_variables`
/// variables given up at their deadline (`sessions` says how: its deadline and whether
/// sessions are incremental; it keeps none of them). A pair whose decision stopped or
/// would pass the memory counts the budgets proved impossible.
///
/// # Complexity
/// See the module documentation.
pub fn pairwise_bound(
    instance: &Instance<'_>,
    cap: u32,
    max_variables: u64,
    sessions: &Sessions,
    cbs: Cbs,
) -> PairwiseBound {
    let k = instance.starts.len();
    let on_path = shortest_path_times(instance);
    let by_time: Vec<Vec<u32>> = on_path
        .iter()
        .map(|times| {
            let mut cells: Vec<u32> = (0..times.len() as u32)
                .filter(|&v| times[v as usize] != u32::MAX)
                .collect();
            cells.sort_by_key(|&v| times[v as usize]);
            cells
        })
        .collect();
    let options = Options::new(instance.grid);
    let mut pairs = Vec::new();
    let deadline = sessions.deadline();
    'pairs: for a in 0..k {
        for b in a + 1..k {
            // Most pairs never reach a decision that could see the deadline (orz900d
            // random-1 with 1000 agents: 500 000 pairs, their tests alone ran 13 s past
            // a proof's end): asked every PAIRS_PER_CHECK pairs.
            if (a * k + b) % PAIRS_PER_CHECK == 0 && deadline.passed() {
                break 'pairs;
            }
            if !may_meet(instance, &options, &on_path, a, b)
                || apart(instance, &options, &on_path, &by_time, a, b)
                || apart(instance, &options, &on_path, &by_time, b, a)
            {
                continue;
            }
            let Some(extra) = pair_extra(instance, [a, b], cap, max_variables, sessions, cbs)
            else {
                // The deadline passed: the pairs decided so far still bound.
                break 'pairs;
            };
            if extra > 0 {
                pairs.push(Pair {
                    first: a,
                    second: b,
                    extra,
                });
            }
        }
    }
    let extra = min_cover_within(k, &pairs, COVER_NODES, deadline);
    PairwiseBound { pairs, extra }
}

/// The least extra steps of the two agents `agents` alone, up to `cap`: by
/// conflict-based search when `cbs` says so, else (or from the bound it proved when it
/// gives up) decided by SAT budget by budget (skipping the budgets a decision proved
/// impossible beyond its own); where the memory stops a decision, the budgets proved
/// impossible; `None` when the deadline stopped it.
fn pair_extra(
    instance: &Instance<'_>,
    agents: [usize; 2],
    cap: u32,
    max_variables: u64,
    sessions: &Sessions,
    cbs: Cbs,
) -> Option<u32> {
    let mut delta = 0;
    if cap > 0 && cbs.decides(instance, &agents) {
        let bytes = max_variables
            .saturating_mul(crate::mapf::sat::BYTES_PER_VARIABLE)
            .min(super::core::CBS_BYTES);
        let mut searches = PAIR_CBS_SEARCHES;
        let searched = cbs::least_extra(
            instance,
            &agents,
            0,
            &[],
            cbs::PairCosts::Instance,
            cbs::Classify::Earliest,
            // Two agents and no pairs' bounds: nothing to split on.
            &mut PairSplits::off(),
            &mut super::corridor::Corridors::off(),
            &mut cbs::Targets::off(),
            cap - 1,
            bytes,
            sessions.deadline(),
            &mut searches,
            usize::MAX,
            &super::cbs::Outside::none(),
        );
        match searched {
            Searched::Plan { extra, .. } => return Some(extra),
            Searched::AtLeast(extra) => return Some(extra.min(cap)),
            Searched::Stopped(_) => return None,
            Searched::GaveUp(least) => delta = least,
        }
    }
    let mut own = sessions.fresh();
    while delta < cap {
        match own.decide(instance, &agents, delta, max_variables) {
            Ok(Decision::Impossible) => delta = (delta + 1).max(own.proven()),
            Ok(Decision::Stopped) => return None,
            Ok(Decision::Plan(_)) | Err(_) => return Some(delta),
        }
    }
    Some(cap)
}

/// Per agent, per cell: the time at which a shortest path of the agent is on the cell,
/// `u32::MAX` where none passes.
fn shortest_path_times(instance: &Instance<'_>) -> Vec<Vec<u32>> {
    (0..instance.starts.len())
        .map(|a| {
            let distance = instance.distance(a, instance.starts[a]);
            let from_start = instance.grid.distances(instance.starts[a], None);
            from_start
                .iter()
                .zip(instance.distances(a).iter())
                .map(|(&s, g)| {
                    if s.checked_add(g) == Some(distance) {
                        s
                    } else {
                        u32::MAX
                    }
                })
                .collect()
        })
        .collect()
}

/// Whether some shortest path of agent `a` may meet some shortest path of agent `b`
/// (`on_path` as [`shortest_path_times`] gives it): on one cell at one time, on the
/// other's goal once the other is home, or swapping over an edge. When not, every pair
/// of shortest paths is a plan of the two, so they take no extra step.
fn may_meet(
    instance: &Instance<'_>,
    options: &Options,
    on_path: &[Vec<u32>],
    a: usize,
    b: usize,
) -> bool {
    let (at_a, at_b) = (&on_path[a], &on_path[b]);
    let home = |x: usize| {
        let goal = instance.goals[x].index();
        (goal, on_path[x][goal])
    };
    let (goal_a, home_a) = home(a);
    let (goal_b, home_b) = home(b);
    // Passing the other's goal at or after its arrival.
    if (at_a[goal_b] != u32::MAX && at_a[goal_b] >= home_b)
        || (at_b[goal_a] != u32::MAX && at_b[goal_a] >= home_a)
    {
        return true;
    }
    for (v, (&ta, &tb)) in at_a.iter().zip(at_b).enumerate() {
        if ta == u32::MAX || tb == u32::MAX {
            continue;
        }
        if ta == tb {
            return true;
        }
        // a from v to u while b from u to v.
        if tb == ta + 1 {
            for &u in options.of(v as u32) {
                let u = u as usize;
                if u != v && at_a[u] == ta + 1 && at_b[u] == ta {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether agent `b` has a shortest path apart from one shortest path of agent `a` (the
/// first one found, then home for good): then both take their distances. `on_path` as
/// [`shortest_path_times`] gives it, `by_time` each agent's cells of `on_path` by time.
/// A quick sufficient test that spares most pairs that may meet their SAT decision.
///
/// # Complexity
/// O(C) for the two agents' cells on their shortest paths.
fn apart(
    instance: &Instance<'_>,
    options: &Options,
    on_path: &[Vec<u32>],
    by_time: &[Vec<u32>],
    a: usize,
    b: usize,
) -> bool {
    let (at_a, at_b) = (&on_path[a], &on_path[b]);
    let goal_a = instance.goals[a].index() as u32;
    let goal_b = instance.goals[b].index() as u32;
    // One shortest path of a, as its cell at each time up to its arrival.
    let mut path_a = vec![instance.starts[a].index() as u32];
    while let Some(&v) = path_a.last() {
        if v == goal_a {
            break;
        }
        let t = at_a[v as usize];
        let Some(&u) = options.of(v).iter().find(|&&u| at_a[u as usize] == t + 1) else {
            return false;
        };
        path_a.push(u);
    }
    let a_at = |t: u32| path_a.get(t as usize).copied().unwrap_or(goal_a);
    let home_b = at_b[goal_b as usize];
    // b home for good from its arrival: a must not pass its goal then.
    if (home_b as usize..path_a.len()).any(|t| path_a[t] == goal_b) {
        return false;
    }
    // b's cells on its shortest paths reachable without meeting a, by time.
    let mut reached = vec![false; at_b.len()];
    reached[instance.starts[b].index()] = true;
    for &v in &by_time[b] {
        if !reached[v as usize] {
            continue;
        }
        let t = at_b[v as usize];
        for &u in options.of(v) {
            if at_b[u as usize] != t + 1 || reached[u as usize] {
                continue;
            }
            let met = u == a_at(t + 1) || (u == a_at(t) && v == a_at(t + 1));
            if !met {
                reached[u as usize] = true;
            }
        }
    }
    reached[goal_b as usize]
}

/// The pairs of `pairs` between two agents of `agents`, each agent named by its position
/// in `agents` (for [`min_cover`] over those agents).
///
/// # Complexity
/// O(P x A) for P pairs and A agents.
pub fn among(pairs: &[Pair], agents: &[usize]) -> Vec<Pair> {
    let index = |a: usize| agents.iter().position(|&b| b == a);
    pairs
        .iter()
        .filter_map(|p| {
            let (x, y) = (index(p.first)?, index(p.second)?);
            Some(Pair {
                first: x.min(y),
                second: x.max(y),
                extra: p.extra,
            })
        })
        .collect()
}

/// The least sum of nonnegative integers x (one per agent, `agents` of them) with
/// x_a + x_b >= extra for every pair: exact per connected component by branch and bound,
/// or the bound of the component's root (its matching bound) past [`COVER_NODES`]
/// nodes.
///
/// # Complexity
/// O(P) to split the components, then exponential in a component's size in the worst
/// case, at most [`COVER_NODES`] nodes of O(n^2) each.
pub fn min_cover(agents: usize, pairs: &[Pair]) -> u32 {
    min_cover_within(agents, pairs, COVER_NODES, Deadline::default())
}

/// [`min_cover`] with at most `nodes` nodes per component, and none past `deadline`
/// (then the component's root bound): the branching on a component of hundreds of
/// agents (room-64-64-16 random-1 with 1000 agents) took 20 s past a 30 s limit.
///
/// # Complexity
/// As [`min_cover`], at most `nodes` nodes per component.
pub fn min_cover_within(agents: usize, pairs: &[Pair], nodes: usize, deadline: Deadline) -> u32 {
    let mut component: Vec<usize> = (0..agents).collect();
    fn root(component: &mut [usize], mut x: usize) -> usize {
        while component[x] != x {
            component[x] = component[component[x]];
            x = component[x];
        }
        x
    }
    for pair in pairs {
        let (ra, rb) = (
            root(&mut component, pair.first),
            root(&mut component, pair.second),
        );
        component[ra] = rb;
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); agents];
    for a in 0..agents {
        let r = root(&mut component, a);
        members[r].push(a);
    }
    members
        .into_iter()
        .filter(|m| m.len() > 1)
        .map(|m| Cover::new(&m, pairs, nodes, deadline).solve())
        .sum()
}

/// A lower bound on the extra steps of every plan of `agents` agents from disjoint
/// `groups` of them (each with a lower bound on its agents' extra steps together) and
/// `pairs`: with each group's agents taken as one vertex X_G (an agent outside every
/// group is a vertex of its own, at least 0), X_G >= least_G and X_G + X_H >= w_ab for a
/// pair of agents a in G and b in H, G != H (the extra steps are nonnegative); with
/// Y = X - least, the least sum is the sum of the leasts plus the least cover of the
/// pairs' weights less the leasts of their two ends ([`min_cover_within`], at most
/// `nodes` nodes a component). A pair within one group is left to the group's least.
///
/// # Complexity
/// O(K + P) plus the cover.
pub fn cover_with_groups(
    agents: usize,
    groups: &[(&[usize], u32)],
    pairs: &[Pair],
    nodes: usize,
    deadline: Deadline,
) -> u32 {
    // A vertex per group, then one per agent outside them.
    let mut vertex = vec![usize::MAX; agents];
    let mut floor: Vec<u32> = Vec::with_capacity(agents);
    for &(members, least) in groups {
        for &a in members {
            vertex[a] = floor.len();
        }
        floor.push(least);
    }
    for v in &mut vertex {
        if *v == usize::MAX {
            *v = floor.len();
            floor.push(0);
        }
    }
    let lacking: Vec<Pair> = pairs
        .iter()
        .filter_map(|p| {
            let (u, v) = (vertex[p.first], vertex[p.second]);
            let extra = p.extra.checked_sub(floor[u].saturating_add(floor[v]))?;
            (u != v && extra > 0).then(|| Pair {
                first: u.min(v),
                second: u.max(v),
                extra,
            })
        })
        .collect();
    floor.iter().sum::<u32>() + min_cover_within(floor.len(), &lacking, nodes, deadline)
}

/// The branch and bound of one component: the weights between its vertices (indexed
/// 0..n, heaviest degree first), the values given so far and the best sum found.
struct Cover {
    /// `weight[i][j]`: the extra steps of vertices i and j together (0: no pair).
    weight: Vec<Vec<u32>>,
    value: Vec<u32>,
    best: u32,
    nodes: usize,
    /// The most nodes it visits before it settles for its root's bound.
    limit: usize,
    /// When it settles for its root's bound whatever the nodes (looked at every node).
    deadline: Deadline,
    /// Whether the node limit or the deadline cut the branching.
    cut: bool,
}

impl Cover {
    fn new(members: &[usize], pairs: &[Pair], limit: usize, deadline: Deadline) -> Self {
        let n = members.len();
        let index = |a: usize| members.binary_search(&a).ok();
        let mut weight = vec![vec![0u32; n]; n];
        for pair in pairs {
            if let (Some(i), Some(j)) = (index(pair.first), index(pair.second)) {
                weight[i][j] = weight[i][j].max(pair.extra);
                weight[j][i] = weight[i][j];
            }
        }
        // Heaviest first: their values settle the most edges early.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(weight[i].iter().sum::<u32>()));
        let weight: Vec<Vec<u32>> = order
            .iter()
            .map(|&i| order.iter().map(|&j| weight[i][j]).collect())
            .collect();
        // Every vertex at its heaviest edge covers everything: a first solution.
        let best = weight
            .iter()
            .map(|row| row.iter().copied().max().unwrap_or(0))
            .sum();
        Cover {
            weight,
            value: Vec::with_capacity(n),
            best,
            nodes: 0,
            limit,
            deadline,
            cut: false,
        }
    }

    /// The least sum, or the root's bound when the node limit stops the search.
    fn solve(mut self) -> u32 {
        let root = self.bound(0);
        self.branch(0);
        if self.cut { root } else { self.best }
    }

    /// The least value vertex `i` may take given the values of vertices before it.
    fn floor(&self, i: usize) -> u32 {
        self.value
            .iter()
            .zip(&self.weight[i])
            .map(|(&x, &w)| w.saturating_sub(x))
            .max()
            .unwrap_or(0)
    }

    /// A lower bound on the sum of the values of vertices `from..`: each at least its
    /// floor, and the pairs of a greedy matching among them at least their weight.
    fn bound(&self, from: usize) -> u32 {
        let n = self.weight.len();
        let floor: Vec<u32> = (from..n).map(|i| self.floor(i)).collect();
        let mut matched = vec![false; n - from];
        let mut edges: Vec<(u32, usize, usize)> = Vec::new();
        for i in from..n {
            for j in i + 1..n {
                let gain = self.weight[i][j].saturating_sub(floor[i - from] + floor[j - from]);
                if gain > 0 {
                    edges.push((gain, i - from, j - from));
                }
            }
        }
        edges.sort_unstable_by(|x, y| y.cmp(x));
        let mut total: u32 = floor.iter().sum();
        for (gain, i, j) in edges {
            if !matched[i] && !matched[j] {
                matched[i] = true;
                matched[j] = true;
                total += gain;
            }
        }
        total
    }

    fn branch(&mut self, i: usize) {
        self.nodes += 1;
        // A node is O(n^2) (its bound): the clock is cheap beside it.
        self.cut |= self.nodes > self.limit || self.deadline.passed();
        if self.cut {
            return;
        }
        let n = self.weight.len();
        let sum: u32 = self.value.iter().sum();
        if i == n {
            self.best = self.best.min(sum);
            return;
        }
        if sum + self.bound(i) >= self.best {
            return;
        }
        let low = self.floor(i);
        // More than its heaviest edge to the vertices after it never helps.
        let high = self.weight[i][i + 1..]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .max(low);
        for x in low..=high {
            self.value.push(x);
            self.branch(i + 1);
            self.value.pop();
            if self.cut {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use grid_core::rng::SplitMix64;

    /// The least cover by trying every vector of values up to the heaviest weight.
    fn brute_cover(agents: usize, pairs: &[Pair]) -> u32 {
        let top = pairs.iter().map(|p| p.extra).max().unwrap_or(0);
        let mut value = vec![0u32; agents];
        let mut best = u32::MAX;
        loop {
            if pairs
                .iter()
                .all(|p| value[p.first] + value[p.second] >= p.extra)
            {
                best = best.min(value.iter().sum());
            }
            let mut i = 0;
            while i < agents && value[i] == top {
                value[i] = 0;
                i += 1;
            }
            if i == agents {
                return best;
            }
            value[i] += 1;
        }
    }

    /// A random graph on `agents` vertices: each pair an edge but one time in `odds`, of
    /// weight 1 to 4.
    fn random_pairs(rng: &mut SplitMix64, agents: usize, odds: usize) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for a in 0..agents {
            for b in a + 1..agents {
                if rng.below(odds) > 0 {
                    pairs.push(Pair {
                        first: a,
                        second: b,
                        extra: 1 + rng.below(4) as u32,
                    });
                }
            }
        }
        pairs
    }

    #[test]
    fn the_cover_equals_the_brute_force_on_random_graphs() {
        let mut rng = SplitMix64::new(4242);
        for _ in 0..400 {
            let agents = 2 + rng.below(4);
            let pairs = random_pairs(&mut rng, agents, 3);
            assert_eq!(
                min_cover(agents, &pairs),
                brute_cover(agents, &pairs),
                "{pairs:?}"
            );
        }
    }

    /// A cover whose deadline has passed settles for its components' root bounds: never
    /// above the exact cover, below it on some graphs (the branching was cut), equal to
    /// it without a deadline.
    #[test]
    fn a_cover_past_its_deadline_settles_for_the_root_bound() {
        let mut rng = SplitMix64::new(777);
        let passed = Deadline(Some(std::time::Instant::now()));
        let mut below = 0;
        for _ in 0..100 {
            let agents = 10 + rng.below(6);
            let pairs = random_pairs(&mut rng, agents, 2);
            let exact = min_cover(agents, &pairs);
            let cut = min_cover_within(agents, &pairs, COVER_NODES, passed);
            assert!(cut <= exact, "{cut} > {exact}: {pairs:?}");
            let free = min_cover_within(agents, &pairs, COVER_NODES, Deadline(None));
            assert_eq!(free, exact, "{pairs:?}");
            below += usize::from(cut < exact);
        }
        assert!(below > 10, "{below}");
    }

    #[test]
    fn a_triangle_of_ones_needs_two() {
        let pair = |first, second| Pair {
            first,
            second,
            extra: 1,
        };
        assert_eq!(min_cover(3, &[pair(0, 1), pair(1, 2), pair(0, 2)]), 2);
        assert_eq!(min_cover(4, &[pair(0, 1), pair(2, 3)]), 2);
        assert_eq!(min_cover(3, &[pair(0, 1), pair(1, 2)]), 1);
    }
}

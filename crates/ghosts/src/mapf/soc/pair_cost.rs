//! The least extra steps of two agents alone under their constraints in a node of
//! conflict-based search, by increasing cost (the increasing cost tree search of Sharon,
//! Stern, Goldenberg and Felner, AIJ 2013, for two agents): for Delta = 0, 1, ... over
//! the least costs of the two under their constraints, and each split of Delta between
//! them, the multi-valued decision diagrams (MDDs) of the two at those costs, and
//! whether one path of each walks them without meeting.
//!
//! Why: in [`super::cbs`] the edge of the weighted dependency graph of a pair in conflict
//! is the pair's least extra steps under the node's constraints (Li, Harabor, Stuckey and
//! Koenig, AIJ 2021). Found by a conflict-based search of the two, it stays at the sum of
//! their own extra steps when their conflict has many places of the same cost (two
//! agents walking the same way through an open area: brc202d random-1 with 100 agents,
//! agents 42 and 43, each split moves the conflict one cell on), while the joint walk of
//! the two MDDs at that cost answers at once that no pair of paths fits.
//!
//! Exactness: the MDD of an agent at cost c holds every path that obeys its constraints
//! and arrives at its goal for good at exactly c (after the last time its goal is
//! forbidden; none when c is past the time by which it must have arrived), and every
//! path of the pair costs at least the two least costs, so the first Delta with a joint
//! walk is the pair's least; a search cut short by its budget answers the Delta it
//! reached (every smaller one proved to have no walk).
//!
//! # Complexity
//! Per split, O(W x H) for the two MDDs (W their widths, H the cost) and O(W^2 x H) for
//! the joint walk; the calls are cut at a budget of states.

use std::collections::HashMap;

use grid_core::CellId;

use super::int_hash::{IntMap, IntSet};
use crate::mapf::Instance;

/// One agent's constraints compiled for the searches (`super::cbs`).
#[derive(Debug, Default)]
pub struct Rules {
    /// (cell, time) the agent may not be on.
    pub vertex: IntSet<(u32, u32)>,
    /// (from, to, time): moves it may not make in the step that ends at time.
    pub edge: IntSet<(u32, u32, u32)>,
    /// Cell -> the time from which the agent may not be on it.
    pub from: IntMap<u32, u32>,
    /// Cell -> the last time up to which (from time 0) the agent may not be on it
    /// ([`super::corridor`]).
    pub until: IntMap<u32, u32>,
    /// The agent arrives at its goal for good after this time (-1: at any time).
    pub after: i64,
    /// The agent arrives at its goal for good by this time (`None`: at any time;
    /// target reasoning, [`super::cbs`]).
    pub by: Option<u32>,
}

impl Rules {
    /// Whether the agent may not be on `cell` at `time`.
    pub fn forbids(&self, cell: u32, time: u32) -> bool {
        (!self.vertex.is_empty() && self.vertex.contains(&(cell, time)))
            || (!self.from.is_empty() && self.from.get(&cell).is_some_and(|&s| time >= s))
            || (!self.until.is_empty() && self.until.get(&cell).is_some_and(|&s| time <= s))
    }

    /// Whether the agent may not move from `from` to `to` in the step that ends at `time`.
    pub fn forbids_move(&self, from: u32, to: u32, time: u32) -> bool {
        from != to && !self.edge.is_empty() && self.edge.contains(&(from, to, time))
    }
}

/// One of the two agents: who it is, its rules and its least cost under them.
pub struct Walker<'r> {
    /// The agent (index in the instance).
    pub agent: usize,
    /// Its rules.
    pub rules: &'r Rules,
    /// The least cost of a path of it under `rules`.
    pub least: u32,
}

/// Values of Delta one call tries past the bound it starts from before it answers
/// what it proved (each costs Delta + 1 joint walks).
const DELTAS: u32 = 4;

/// The cells of the paths of an agent level by level (time 0 to its cost).
pub type Mdd = Vec<Vec<u32>>;

/// What [`pair_extra`] found.
pub struct PairExtra {
    /// A lower bound on the least extra steps of the two together.
    pub extra: u32,
    /// When the two fit at their least costs (`extra` is their own extra steps): a path
    /// of each at its least cost (to its cost), the two never meeting.
    pub paths: Option<[Vec<u32>; 2]>,
    /// Whether the budget ran out first (`extra` is then what was proved before).
    pub gave_up: bool,
}

/// A lower bound on the least extra steps of the two agents `walkers` together (the
/// module documentation), from `known`, a bound already proved: their least when at
/// most `limit`, else at least `limit + 1`; cut at `budget` states (MDD cells and joint
/// states) or after [`DELTAS`] values of Delta, it answers what it proved.
///
/// # Complexity
/// See the module documentation.
pub fn pair_extra(
    instance: &Instance<'_>,
    walkers: [&Walker<'_>; 2],
    known: u32,
    limit: u32,
    budget: u64,
) -> PairExtra {
    let proved = |extra: u32| PairExtra {
        extra,
        paths: None,
        gave_up: false,
    };
    let gave_up = |extra: u32| PairExtra {
        extra,
        paths: None,
        gave_up: true,
    };
    let [w1, w2] = walkers;
    let distance = |w: &Walker<'_>| instance.distance(w.agent, instance.starts[w.agent]);
    let own = (w1.least - distance(w1)) + (w2.least - distance(w2));
    let mut left = budget;
    let mut mdds: [HashMap<u32, Option<Mdd>>; 2] = [HashMap::new(), HashMap::new()];
    let from = known.saturating_sub(own);
    for delta in from.. {
        if own + delta > limit {
            return proved(own + delta);
        }
        if delta >= from + DELTAS {
            return gave_up(own + delta);
        }
        for first in 0..=delta {
            let costs = [w1.least + first, w2.least + delta - first];
            for (i, w) in [w1, w2].into_iter().enumerate() {
                if !mdds[i].contains_key(&costs[i]) {
                    let Some(mdd) = mdd(instance, w, costs[i], &mut left) else {
                        return gave_up(own + delta);
                    };
                    mdds[i].insert(costs[i], (!mdd.is_empty()).then_some(mdd));
                }
            }
            let (Some(m1), Some(m2)) = (&mdds[0][&costs[0]], &mdds[1][&costs[1]]) else {
                continue;
            };
            match walk(instance, [w1, w2], [m1, m2], &mut left) {
                Walked::Together(paths) => {
                    return PairExtra {
                        extra: own + delta,
                        paths: (delta == 0).then_some(paths),
                        gave_up: false,
                    };
                }
                Walked::Apart => {}
                Walked::GaveUp => return gave_up(own + delta),
            }
        }
    }
    unreachable!("the loop returns once past the limit")
}

/// The MDD of `walker` at exactly `cost` (empty: no such path), `None` past `*left`
/// cells (taken off `*left`).
///
/// # Complexity
/// O(W x H) for its W cells a level over H = `cost` levels.
pub fn mdd(instance: &Instance<'_>, walker: &Walker<'_>, cost: u32, left: &mut u64) -> Option<Mdd> {
    let rules = walker.rules;
    let a = walker.agent;
    let goal = instance.goals[a].index() as u32;
    let start = instance.starts[a].index() as u32;
    let grid = instance.grid;
    let d = |v: u32| instance.distance(a, CellId::new(v as usize));
    if i64::from(cost) <= rules.after
        || rules.by.is_some_and(|by| cost > by)
        || rules.from.contains_key(&goal)
    {
        return Some(Vec::new());
    }
    if rules.forbids(start, 0) || d(start) > cost {
        return Some(Vec::new());
    }
    let mut levels: Mdd = vec![vec![start]];
    for t in 1..=cost {
        let mut next = Vec::new();
        for &v in &levels[t as usize - 1] {
            let moves = std::iter::once(v).chain(
                grid.neighbours(CellId::new(v as usize))
                    .map(|(_, c)| c.index() as u32),
            );
            for u in moves {
                if !rules.forbids(u, t) && !rules.forbids_move(v, u, t) && d(u) <= cost - t {
                    next.push(u);
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        *left = left.checked_sub(next.len() as u64)?;
        if next.is_empty() {
            return Some(Vec::new());
        }
        levels.push(next);
    }
    // Backwards: only the cells with a way on to the goal at `cost`, not on the goal
    // just before (else the path arrives for good earlier).
    for t in (0..cost as usize).rev() {
        let (before, after) = levels.split_at_mut(t + 1);
        let later = &after[0];
        before[t].retain(|&v| {
            if t + 1 == cost as usize && v == goal {
                return false;
            }
            std::iter::once(v)
                .chain(
                    grid.neighbours(CellId::new(v as usize))
                        .map(|(_, c)| c.index() as u32),
                )
                .any(|u| later.binary_search(&u).is_ok() && !rules.forbids_move(v, u, t as u32 + 1))
        });
        if before[t].is_empty() {
            return Some(Vec::new());
        }
    }
    Some(levels)
}

/// One time of [`walk`]'s depth-first trail: the two agents' cells, and the pairs of
/// cells still to try at the next time.
type Step = ((u32, u32), Vec<(u32, u32)>);

/// What [`walk`] found.
enum Walked {
    /// A path of each (to its cost), the two never meeting.
    Together([Vec<u32>; 2]),
    /// No two such paths.
    Apart,
    /// Past the budget.
    GaveUp,
}

/// Whether one path of each MDD walks them without the two meeting (on a cell, by
/// trading places, or on the goal of one home for good), with the paths; gives up past
/// `*left` joint states.
fn walk(
    instance: &Instance<'_>,
    walkers: [&Walker<'_>; 2],
    mdds: [&Mdd; 2],
    left: &mut u64,
) -> Walked {
    let grid = instance.grid;
    let end = mdds[0].len().max(mdds[1].len()) - 1;
    // The cells agent i may step to from `v` in the step that ends at `t` (at most 5).
    let steps = |i: usize, v: u32, t: usize, out: &mut Vec<u32>| {
        out.clear();
        let mdd = mdds[i];
        if t >= mdd.len() {
            out.push(v);
            return;
        }
        let moves = std::iter::once(v).chain(
            grid.neighbours(CellId::new(v as usize))
                .map(|(_, c)| c.index() as u32),
        );
        for u in moves {
            if mdd[t].binary_search(&u).is_ok() && !walkers[i].rules.forbids_move(v, u, t as u32) {
                out.push(u);
            }
        }
    };
    let first = (mdds[0][0][0], mdds[1][0][0]);
    if first.0 == first.1 {
        return Walked::Apart;
    }
    // Depth first (a walk that fits is usually found along the first branches), each
    // (time, cells) visited once; `trail[t]` is the pair of cells at time t and the
    // pairs still to try from it.
    let mut seen: IntSet<(u32, u32, u32)> = IntSet::default();
    let mut trail: Vec<Step> = Vec::new();
    let (mut firsts, mut seconds) = (Vec::with_capacity(5), Vec::with_capacity(5));
    let mut next_of = |t: usize, (u, v): (u32, u32), seen: &IntSet<(u32, u32, u32)>| {
        let mut next = Vec::new();
        steps(0, u, t, &mut firsts);
        steps(1, v, t, &mut seconds);
        for &x in &firsts {
            for &y in &seconds {
                if x != y && !(x == v && y == u) && !seen.contains(&(t as u32, x, y)) {
                    next.push((x, y));
                }
            }
        }
        // Tried last first: the order of the cells, reversed.
        next.reverse();
        next
    };
    if end == 0 {
        return Walked::Together([vec![first.0], vec![first.1]]);
    }
    let to_try = next_of(1, first, &seen);
    trail.push((first, to_try));
    while let Some((_, to_try)) = trail.last_mut() {
        let Some(cells) = to_try.pop() else {
            trail.pop();
            continue;
        };
        let t = trail.len();
        if !seen.insert((t as u32, cells.0, cells.1)) {
            continue;
        }
        let Some(rest) = left.checked_sub(1) else {
            return Walked::GaveUp;
        };
        *left = rest;
        if t == end {
            trail.push((cells, Vec::new()));
            break;
        }
        let to_try = next_of(t + 1, cells, &seen);
        trail.push((cells, to_try));
    }
    if trail.len() != end + 1 {
        return Walked::Apart;
    }
    let mut paths = [vec![0; mdds[0].len()], vec![0; mdds[1].len()]];
    for (t, &((u, v), _)) in trail.iter().enumerate() {
        if t < paths[0].len() {
            paths[0][t] = u;
        }
        if t < paths[1].len() {
            paths[1][t] = v;
        }
    }
    Walked::Together(paths)
}

//! The conflicts of a node's paths and which one to split on: found cell by cell and
//! time by time ([`Group::conflicts`]), ranked cardinal first ([`Group::rank`], by the
//! children's costs or the agents' MDDs), and refined into the symmetry-breaking splits
//! (pairs that cannot both keep their costs, head-on meetings in a corridor).
//!
//! # Complexity
//! O(K x H) per node to find the conflicts of K paths of at most H steps; the ranking
//! adds two low-level searches per classified conflict, or one MDD per agent.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::rc::Rc;

use super::super::corridor::{corridor_through, split, with_distances};
use super::super::pair_cost::{Walker, mdd};
use super::super::planning;
use super::super::symmetry::costlier_pair;
use super::low_level::rules;
use super::{
    CONSTRAINT_BYTES, Constraint, Group, MDD_CELLS, MEMO_BYTES, Node, Singletons, strongest,
};

/// A conflict between two agents of the group (indices in the group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Conflict {
    /// `a` and `b` on `cell` at `time`, neither arrived there for good.
    Vertex {
        a: usize,
        b: usize,
        cell: u32,
        time: u32,
    },
    /// `a` moves `from` -> `to` while `b` moves `to` -> `from`, in the step ending at
    /// `time`.
    Edge {
        a: usize,
        b: usize,
        from: u32,
        to: u32,
        time: u32,
    },
    /// `crosser` on the goal of `home`, at `time`, after `home` arrived there for good.
    Target {
        crosser: usize,
        home: usize,
        time: u32,
    },
    /// `a` and `b`, costing `costs`, proven not to fit together at those costs
    /// ([`super::super::symmetry`]).
    Costlier { a: usize, b: usize, costs: [u32; 2] },
    /// `a` and `b` head-on in a corridor ([`super::super::corridor`]): `a` reaching `ends[0]`
    /// by `times[0]` and `b` reaching `ends[1]` by `times[1]` do not go together.
    Corridor {
        a: usize,
        b: usize,
        ends: [u32; 2],
        times: [u32; 2],
    },
}

impl Conflict {
    /// The two agents in conflict.
    pub(super) fn agents(self) -> (usize, usize) {
        match self {
            Conflict::Vertex { a, b, .. } | Conflict::Edge { a, b, .. } => (a, b),
            Conflict::Target { crosser, home, .. } => (crosser, home),
            Conflict::Costlier { a, b, .. } | Conflict::Corridor { a, b, .. } => (a, b),
        }
    }

    /// The two children: each an agent and the constraint it gets (a
    /// [`Constraint::Home`], when `targets`, is given to every agent).
    pub(super) fn split(self, goals: &[u32], targets: bool) -> [(usize, Constraint); 2] {
        match self {
            Conflict::Vertex { a, b, cell, time } => [
                (a, Constraint::Vertex { cell, time }),
                (b, Constraint::Vertex { cell, time }),
            ],
            Conflict::Edge {
                a,
                b,
                from,
                to,
                time,
            } => [
                (a, Constraint::Edge { from, to, time }),
                (
                    b,
                    Constraint::Edge {
                        from: to,
                        to: from,
                        time,
                    },
                ),
            ],
            // A plan where `home` arrives by `time` keeps it on its goal from then on, so
            // every other agent is off that cell from `time`: with `targets`, the second
            // child is exactly those plans (disjoint from the first); without, it keeps
            // the crosser alone off the cell. Every other plan has `home` arriving later.
            Conflict::Target { home, time, .. } if targets => [
                (home, Constraint::Longer { time }),
                (
                    home,
                    Constraint::Home {
                        cell: goals[home],
                        time,
                    },
                ),
            ],
            Conflict::Target {
                crosser,
                home,
                time,
            } => [
                (home, Constraint::Longer { time }),
                (
                    crosser,
                    Constraint::From {
                        cell: goals[home],
                        time,
                    },
                ),
            ],
            // Every plan has one of the two costing more ([`super::super::symmetry`]).
            Conflict::Costlier { a, b, costs } => [
                (a, Constraint::Longer { time: costs[0] }),
                (b, Constraint::Longer { time: costs[1] }),
            ],
            // Every plan has `a` off its far end until `times[0]` or `b` off its far
            // end until `times[1]` ([`super::super::corridor`]).
            Conflict::Corridor { a, b, ends, times } => [
                (
                    a,
                    Constraint::Before {
                        cell: ends[0],
                        time: times[0],
                    },
                ),
                (
                    b,
                    Constraint::Before {
                        cell: ends[1],
                        time: times[1],
                    },
                ),
            ],
        }
    }
}

/// [`Group::conflicts`]'s arrays by cell (`u32::MAX`: none), kept from one call to the
/// next (on brc202d random-1 K = 100, hash maps there were a tenth of the search over all
/// agents' time): the last agent on each cell at the current time, the first, and the
/// first one step ago, with the cells written at the current time and one step ago.
#[derive(Default)]
pub(super) struct CellScratch {
    on_cell: Vec<u32>,
    first: Vec<u32>,
    before: Vec<u32>,
    touched: Vec<u32>,
    touched_before: Vec<u32>,
}

impl Group<'_, '_> {
    /// With pair splits on, the split of node `n` on the first pair of its conflicts
    /// `found` that does not fit at its own costs ([`super::super::symmetry`]), by the pairs'
    /// bounds of the instance and those under the node's constraints.
    pub(super) fn pair_split(
        &self,
        nodes: &[Node],
        n: usize,
        found: &[Conflict],
    ) -> Option<Conflict> {
        if !self.pair_splits.get().on {
            return None;
        }
        let node = &nodes[n];
        let known = strongest(self.pairs, &node.pair_costs);
        let own = |i: usize| self.extra_of(i, &node.paths[i]);
        let (a, b) = costlier_pair(found.iter().map(|c| c.agents()), &known, own)?;
        let cost = |i: usize| planning::cost(&node.paths[i], self.goals[i]);
        Some(Conflict::Costlier {
            a,
            b,
            costs: [cost(a), cost(b)],
        })
    }

    /// With corridor splits on, `conflict` (between two paths of `paths`) as a corridor
    /// conflict when it is a vertex or edge conflict on a cell of a corridor that the
    /// two cross head-on ([`super::super::corridor`]).
    ///
    /// # Complexity
    /// O(k + H) for a corridor of k cells and paths of H steps, plus four breadth-first
    /// searches of the map the first time the corridor is met.
    pub(super) fn corridor(&self, paths: &[Rc<Vec<u32>>], conflict: Conflict) -> Option<Conflict> {
        if !self.corridors.get().on {
            return None;
        }
        let (a, b, cells) = match conflict {
            Conflict::Vertex { a, b, cell, .. } => (a, b, [cell, cell]),
            Conflict::Edge { a, b, from, to, .. } => (a, b, [from, to]),
            _ => return None,
        };
        let grid = self.instance.grid;
        let (interior, ends) = cells
            .iter()
            .find_map(|&cell| corridor_through(grid, cell))?;
        let known = self.corridor_memo.borrow().get(&interior[0]).cloned();
        let corridor = match known {
            Some(corridor) => corridor,
            None => {
                let corridor = Rc::new(with_distances(grid, interior, ends));
                self.memo_bytes
                    .set(self.memo_bytes.get() + corridor.bytes() + MEMO_BYTES);
                self.corridor_memo
                    .borrow_mut()
                    .insert(corridor.interior[0], Rc::clone(&corridor));
                corridor
            }
        };
        let start = |i: usize| self.instance.starts[self.agents[i]].index() as u32;
        let [(end_a, until_a), (end_b, until_b)] =
            split(&corridor, [start(a), start(b)], [&paths[a], &paths[b]])?;
        Some(Conflict::Corridor {
            a,
            b,
            ends: [end_a, end_b],
            times: [until_a, until_b],
        })
    }

    /// The singletons of agent `i`'s MDD in node `n` at the cost of its path there
    /// (memoised; empty past [`MDD_CELLS`]).
    pub(super) fn singletons(&self, nodes: &[Node], n: usize, i: usize) -> Singletons {
        let mut constraints = self.constraints_of(nodes, n, i);
        constraints.sort_unstable();
        constraints.dedup();
        let cost = planning::cost(&nodes[n].paths[i], self.goals[i]);
        let key = (i, cost, constraints);
        if let Some(known) = self.singletons.borrow().get(&key) {
            return Rc::clone(known);
        }
        let levels = rules(&key.2, self.goals[i]).and_then(|rules| {
            let walker = Walker {
                agent: self.agents[i],
                rules: &rules,
                least: cost,
            };
            mdd(self.instance, &walker, cost, &mut MDD_CELLS.clone())
        });
        let found: Singletons = Rc::new(
            levels
                .unwrap_or_default()
                .iter()
                .map(|level| (level.len() == 1).then(|| level[0]))
                .collect(),
        );
        let bytes = MEMO_BYTES + CONSTRAINT_BYTES * key.2.len() as u64 + 8 * found.len() as u64;
        self.memo_bytes.set(self.memo_bytes.get() + bytes);
        self.singletons.borrow_mut().insert(key, Rc::clone(&found));
        found
    }

    /// `found`, the conflicts of node `n`, reordered by how many of their children are
    /// known by the MDDs to cost more (2 first), then target conflicts first, the
    /// earliest first among equals ([`super::Classify::Mdd`]).
    ///
    /// # Complexity
    /// One MDD per agent in conflict (memoised), then O(F log F) for the F conflicts.
    pub(super) fn rank(&self, nodes: &[Node], n: usize, found: &mut [Conflict]) {
        let mut known: HashMap<usize, Singletons> = HashMap::new();
        let mut on = |i: usize| -> Singletons {
            Rc::clone(
                known
                    .entry(i)
                    .or_insert_with(|| self.singletons(nodes, n, i)),
            )
        };
        let at = |s: &Singletons, t: u32| s.get(t as usize).copied().flatten();
        found.sort_by_cached_key(|&conflict| {
            let costlier = match conflict {
                Conflict::Vertex { a, b, cell, time } => {
                    u8::from(at(&on(a), time) == Some(cell))
                        + u8::from(at(&on(b), time) == Some(cell))
                }
                Conflict::Edge {
                    a,
                    b,
                    from,
                    to,
                    time,
                } => {
                    let (sa, sb) = (on(a), on(b));
                    u8::from(at(&sa, time - 1) == Some(from) && at(&sa, time) == Some(to))
                        + u8::from(at(&sb, time - 1) == Some(to) && at(&sb, time) == Some(from))
                }
                // The home agent's child arrives after `time`, past its cost; the
                // crosser's costs more when all its paths are on that goal from then on
                // at some time.
                Conflict::Target {
                    crosser,
                    home,
                    time,
                } => {
                    let goal = self.goals[home];
                    let s = on(crosser);
                    1 + u8::from(s.iter().skip(time as usize).any(|&c| c == Some(goal)))
                }
                // Both children cost more (never found among a node's conflicts).
                Conflict::Costlier { .. } | Conflict::Corridor { .. } => 2,
            };
            // Among equals, target conflicts first (the arrival constraint moves a whole
            // arrival, not one step), as CBSH2-RTC orders them.
            (
                Reverse(costlier),
                !matches!(conflict, Conflict::Target { .. }),
            )
        });
    }

    /// Every conflict of `paths` (each agent staying on its last cell after its end), in
    /// order of time.
    ///
    /// # Complexity
    /// O(K x H) expected (the head-on meetings found through who was where a step ago,
    /// not by trying every two agents).
    pub(super) fn conflicts(&self, paths: &[Rc<Vec<u32>>]) -> Vec<Conflict> {
        const NONE: usize = usize::MAX;
        let k = paths.len();
        let horizon = paths.iter().map(|p| p.len()).max().unwrap_or(1) - 1;
        let at = |i: usize, t: usize| *paths[i].get(t).unwrap_or(&self.goals[i]);
        let mut found = Vec::new();
        // At the current time: the last agent on each cell; the first, and after each
        // agent the next on its cell (agents in increasing order), now and one step ago.
        // Flat by cell, the group's from one call to the next; each time step resets the
        // cells it wrote.
        let mut cells = self.cells.borrow_mut();
        let CellScratch {
            on_cell,
            first,
            before,
            touched,
            touched_before,
        } = &mut *cells;
        let (mut next, mut next_before) = (vec![NONE; k], vec![NONE; k]);
        for t in 0..=horizon {
            next.fill(NONE);
            for i in 0..k {
                let v = at(i, t);
                if v as usize >= on_cell.len() {
                    let cells = v as usize + 1;
                    on_cell.resize(cells, NONE as u32);
                    first.resize(cells, NONE as u32);
                    before.resize(cells, NONE as u32);
                }
                let previous = std::mem::replace(&mut on_cell[v as usize], i as u32);
                if previous == NONE as u32 {
                    first[v as usize] = i as u32;
                    touched.push(v);
                    continue;
                }
                let j = previous as usize;
                next[j] = i;
                let arrived = |x: usize| v == self.goals[x] && t + 1 >= paths[x].len();
                let (time, cell) = (t as u32, v);
                found.push(if arrived(j) {
                    Conflict::Target {
                        crosser: i,
                        home: j,
                        time,
                    }
                } else if arrived(i) {
                    Conflict::Target {
                        crosser: j,
                        home: i,
                        time,
                    }
                } else {
                    Conflict::Vertex {
                        a: j,
                        b: i,
                        cell,
                        time,
                    }
                });
            }
            if t > 0 {
                // Agent i from -> to meets, head-on, each later agent j that was on `to`
                // one step ago and is on `from` now.
                for i in 0..k {
                    let (from, to) = (at(i, t - 1), at(i, t));
                    if from == to {
                        continue;
                    }
                    let mut j = match before.get(to as usize) {
                        Some(&j) if j != NONE as u32 => j as usize,
                        _ => NONE,
                    };
                    while j != NONE {
                        if j > i && at(j, t) == from {
                            found.push(Conflict::Edge {
                                a: i,
                                b: j,
                                from,
                                to,
                                time: t as u32,
                            });
                        }
                        j = next_before[j];
                    }
                }
            }
            // `before` becomes this step's `first`; the old `before` is cleared for reuse.
            for &v in touched.iter() {
                on_cell[v as usize] = NONE as u32;
            }
            for &v in touched_before.iter() {
                before[v as usize] = NONE as u32;
            }
            std::mem::swap(first, before);
            std::mem::swap(touched, touched_before);
            touched.clear();
            std::mem::swap(&mut next, &mut next_before);
        }
        // Leave the arrays all NONE for the next call.
        for &v in touched_before.iter() {
            before[v as usize] = NONE as u32;
        }
        touched_before.clear();
        found
    }
}

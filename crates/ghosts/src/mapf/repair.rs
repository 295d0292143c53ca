//! A plan at a fixed horizon repaired by SAT: the agents without a path are decided
//! jointly (the encoding of [`super::sat`]) around the paths of the others, which stay as
//! obstacles in time; when they have no plan so, the others that block them join them.
//!
//! Why: where the optimum is the lower bound (the open rows of `docs/mapf.md`), a plan
//! at the bound is the whole proof, and prioritized planning misses it by a few agents.
//! The core of [`super::refine`] decides the failing agents *alone* (a relaxation, which
//! proves horizons impossible) and then plans the others around their plan, which fails
//! again on a crowded map, so the core grows to tens of agents and hundreds of thousands
//! of variables. Here the failing agents are decided *around* the others (a restriction:
//! a plan of it is a plan of the whole instance), and the paths of the others are
//! assumptions of the SAT call: one selector per agent kept, implying that its path's
//! cells and moves are taken. When there is no plan, the failed assumptions name the
//! kept agents to blame, and those are set free (planned by SAT too) in the next round.
//! When no assumption failed, the free agents alone have no plan of makespan T: a subset
//! of the agents is a relaxation, so T is proved impossible, as by [`super::refine`].
//!
//! Exact: a plan is returned only when it is one (every free agent's chain avoids the
//! kept paths' cells and swaps, and the free agents avoid each other as in
//! [`super::sat`]), and "impossible" only from an unsatisfiable formula without
//! assumptions. Complete: every round frees at least one agent, and with every agent
//! free the formula is [`super::sat`]'s.
//!
//! # Complexity
//! At most K rounds, each a SAT call on the free agents' encoding (V variables of their
//! time windows, O(V) clauses, built in O(V + F x C) for F free agents) plus
//! O((T + 1) x C) for the kept paths' cells. Memory: the encoding, and 4 bytes per cell
//! and step.

use std::time::Instant;

use grid_core::Grid;

use super::Instance;
use super::constructive::Planner;
use super::sat::{self, Deadline, Layer, Solver};
use crate::moves::Options;

/// How a repair ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repaired {
    /// A plan of makespan T: every agent's cell at 0..=T (the kept paths as they were).
    Plan(Vec<Vec<u32>>),
    /// No plan of makespan T exists: these agents (in increasing order) alone have none.
    Impossible(Vec<usize>),
    /// The free agents' encoding would need this many variables, more than allowed.
    TooLarge {
        /// Variables of the encoding not built.
        variables: u64,
    },
    /// The deadline passed, or a SAT call reached its conflicts, first.
    GaveUp,
}

/// How far a repair may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Variables of one round's encoding, at most.
    pub max_variables: u64,
    /// Conflicts of one SAT call, at most (CaDiCaL's limit; negative: none).
    pub conflicts: i32,
    /// When it gives up.
    pub deadline: Deadline,
}

impl Limits {
    /// No limit at all.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests
    pub const NONE: Limits = Limits {
        max_variables: u64::MAX,
        conflicts: -1,
        deadline: Deadline(None),
    };
}

/// A repair's outcome, and how far it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// How it ended.
    pub outcome: Repaired,
    /// Agents free (decided by SAT) in the last round.
    pub free: usize,
    /// SAT calls made (one per round).
    pub rounds: usize,
}

/// Times the failed assumptions of an unsatisfiable round are asked again alone, to name
/// fewer agents to set free.
const TRIMS: usize = 4;

/// No agent on a cell at a step, in the table of kept paths.
const NOBODY: u32 = u32::MAX;

/// The paths prioritized planning gives at horizon `horizon` in one pass, longest
/// distance first (as [`super::constructive::plan_at`]'s first order): an agent that
/// finds no way around those before it is left out (`None`), and the next ones still
/// tried. `stop` is asked before each agent's search, which gives up at `give_up`; once
/// stopped, the agents left have no path.
///
/// # Complexity
/// One pass of [`super::constructive`].
pub fn planned_at(
    instance: &Instance<'_>,
    horizon: u32,
    stop: &mut dyn FnMut() -> bool,
    give_up: Option<Instant>,
) -> Vec<Option<Vec<u32>>> {
    let k = instance.starts.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&a| std::cmp::Reverse(instance.distance(a, instance.starts[a])));
    let mut planner = Planner::new(instance, horizon);
    planner.give_up_at(give_up);
    let mut stopped = false;
    for a in order {
        stopped = stopped || stop();
        if !stopped {
            planner.plan_by(a, horizon);
        }
    }
    planner
        .into_paths()
        .into_iter()
        .map(|path| (!path.is_empty()).then_some(path))
        .collect()
}

/// The agents' paths that a plan `paths` of any makespan (every agent's cell at
/// 0..=its length, legal) keeps at horizon `horizon`: an agent home for good by then
/// keeps its path, cut at T; the others (`None`) are to be planned.
///
/// # Complexity
/// O(K x M) for the plan's makespan M.
#[cfg_attr(not(feature = "internals"), allow(dead_code))] // reached by the tests (`internals`)
pub fn kept_at(instance: &Instance<'_>, horizon: u32, paths: &[Vec<u32>]) -> Vec<Option<Vec<u32>>> {
    let t_max = horizon as usize;
    paths
        .iter()
        .enumerate()
        .map(|(a, path)| {
            let goal = instance.goals[a].index() as u32;
            let home = path.len() > t_max && path[t_max..].iter().all(|&v| v == goal)
                || path.len() <= t_max && path.last() == Some(&goal);
            home.then(|| {
                let mut kept: Vec<u32> = path.iter().copied().take(t_max + 1).collect();
                kept.resize(t_max + 1, goal);
                kept
            })
        })
        .collect()
}

/// Repairs the plan `kept` at horizon `horizon`: the agents it leaves without a path
/// (`None`) are planned, and others set free as the module documentation says. Each
/// kept path must have `horizon + 1` cells, and the kept paths must be legal together.
/// Within `limits`.
///
/// # Complexity
/// See the module documentation.
pub fn repair_until(
    instance: &Instance<'_>,
    horizon: u32,
    kept: &[Option<Vec<u32>>],
    limits: &Limits,
) -> Repair {
    let Limits {
        max_variables,
        conflicts,
        deadline,
    } = *limits;
    let grid = instance.grid;
    let k = instance.starts.len();
    let mut kept: Vec<Option<Vec<u32>>> = kept.to_vec();
    let mut from_start: Vec<Option<Vec<u32>>> = vec![None; k];
    let mut rounds = 0;
    loop {
        let free: Vec<usize> = (0..k).filter(|&a| kept[a].is_none()).collect();
        if free.is_empty() {
            let paths = kept.into_iter().map(Option::unwrap_or_default).collect();
            return Repair {
                outcome: Repaired::Plan(paths),
                free: 0,
                rounds,
            };
        }
        if let Some(&far) = free
            .iter()
            .find(|&&a| instance.distance(a, instance.starts[a]) > horizon)
        {
            // Farther from home than the horizon: no plan of makespan T at all.
            return Repair {
                outcome: Repaired::Impossible(vec![far]),
                free: free.len(),
                rounds,
            };
        }
        for &a in &free {
            from_start[a].get_or_insert_with(|| grid.distances(instance.starts[a], None));
        }
        let variables: u64 = free
            .iter()
            .map(|&a| {
                window_variables(
                    from_start[a].as_deref().unwrap_or_default(),
                    instance.distances(a),
                    horizon,
                )
            })
            .sum();
        let ended = |outcome| Repair {
            outcome,
            free: free.len(),
            rounds,
        };
        if variables > max_variables {
            return ended(Repaired::TooLarge { variables });
        }
        if deadline.passed() {
            return ended(Repaired::GaveUp);
        }
        rounds += 1;
        let Some(mut encoding) =
            Encoding::build(instance, horizon, &free, &from_start, &kept, deadline)
        else {
            return Repair {
                outcome: Repaired::GaveUp,
                free: free.len(),
                rounds,
            };
        };
        let answer = encoding.solve(grid, conflicts, deadline);
        let selectors = std::mem::take(&mut encoding.selectors);
        let blamed: Vec<usize> = match &answer {
            Answer::Unsatisfiable => {
                let mut failed: Vec<(usize, i32)> = selectors
                    .iter()
                    .copied()
                    .filter(|&(_, s)| encoding.solver.failed(s))
                    .collect();
                // Asked again under the failed ones alone, the solver often names fewer.
                for _ in 0..TRIMS {
                    if failed.len() <= 1 || deadline.passed() {
                        break;
                    }
                    limit_conflicts(&mut encoding.solver, conflicts);
                    if encoding.solver.solve_with(failed.iter().map(|&(_, s)| s)) != Some(false) {
                        break;
                    }
                    let fewer: Vec<(usize, i32)> = failed
                        .iter()
                        .copied()
                        .filter(|&(_, s)| encoding.solver.failed(s))
                        .collect();
                    let shrunk = fewer.len() < failed.len();
                    failed = fewer;
                    if !shrunk {
                        break;
                    }
                }
                failed.into_iter().map(|(b, _)| b).collect()
            }
            _ => Vec::new(),
        };
        sat::drop_off_the_clock(encoding, deadline);
        let outcome = match answer {
            Answer::Stopped => Repaired::GaveUp,
            Answer::Chains(chains) => {
                for (&a, path) in free.iter().zip(chains) {
                    kept[a] = Some(path);
                }
                let paths = kept.into_iter().map(Option::unwrap_or_default).collect();
                Repaired::Plan(paths)
            }
            Answer::Unsatisfiable if blamed.is_empty() => Repaired::Impossible(free.clone()),
            Answer::Unsatisfiable => {
                for b in blamed {
                    kept[b] = None;
                }
                continue;
            }
        };
        return Repair {
            outcome,
            free: free.len(),
            rounds,
        };
    }
}

/// Variables of one agent's time window at `horizon` (as [`sat::count_variables`]).
fn window_variables(from_start: &[u32], to_goal: &[u32], horizon: u32) -> u64 {
    from_start
        .iter()
        .zip(to_goal)
        .filter_map(|(s, g)| s.checked_add(*g))
        .filter(|&sum| sum <= horizon)
        .map(|sum| u64::from(horizon - sum + 1))
        .sum()
}

/// What one round's solver said.
enum Answer {
    /// The free agents' paths, in the order of the free agents.
    Chains(Vec<Vec<u32>>),
    /// No plan under the assumptions (the failed ones say who blocks).
    Unsatisfiable,
    /// The deadline or the conflicts' limit came first.
    Stopped,
}

/// The free agents' encoding around the kept paths.
struct Encoding {
    solver: Solver,
    horizon: usize,
    /// Per free agent, per time: its variables.
    layers: Vec<Vec<Layer>>,
    /// (kept agent, its selector) for every kept agent in some free agent's way.
    selectors: Vec<(usize, i32)>,
}

impl Encoding {
    /// The clauses of [`super::sat`] for the agents `free`, and per kept agent in their
    /// way a selector that forbids its cells (at each step) and its moves' swaps to
    /// them. `None` when `deadline` passes while they are written.
    fn build(
        instance: &Instance<'_>,
        horizon: u32,
        free: &[usize],
        from_start: &[Option<Vec<u32>>],
        kept: &[Option<Vec<u32>>],
        deadline: Deadline,
    ) -> Option<Self> {
        let grid = instance.grid;
        let options = Options::new(grid);
        let cells = grid.cell_count();
        let t_max = horizon as usize;
        // Who is kept on each cell at each step.
        let mut on = vec![NOBODY; (t_max + 1) * cells];
        for (b, path) in kept.iter().enumerate() {
            if let Some(path) = path {
                for (t, &v) in path.iter().enumerate() {
                    on[t * cells + v as usize] = b as u32;
                }
            }
        }
        let mut solver = sat::solver_until(deadline);
        let mut next_var: i32 = 1;
        let mut selector = vec![0i32; instance.starts.len()];
        let mut selectors: Vec<(usize, i32)> = Vec::new();
        let mut select = |b: u32, next_var: &mut i32| -> i32 {
            let s = &mut selector[b as usize];
            if *s == 0 {
                *s = *next_var;
                *next_var += 1;
                selectors.push((b as usize, *s));
            }
            *s
        };
        let mut layers: Vec<Vec<Layer>> = Vec::with_capacity(free.len());
        let mut here = vec![0i32; cells];
        let mut there = vec![0i32; cells];
        let mut at_cell: Vec<Vec<(u32, i32)>> = vec![Vec::new(); t_max + 1];
        for &a in free {
            if deadline.passed() {
                sat::drop_off_the_clock(solver, deadline);
                return None;
            }
            let from_start = from_start[a].as_deref().unwrap_or_default();
            let to_goal = instance.distances(a);
            let window: Vec<u32> = (0..cells as u32)
                .filter(|&v| {
                    from_start[v as usize]
                        .checked_add(to_goal[v as usize])
                        .is_some_and(|s| s as usize <= t_max)
                })
                .collect();
            let mut agent_layers: Vec<Layer> = Vec::with_capacity(t_max + 1);
            for (t, at_time) in at_cell.iter_mut().enumerate() {
                let layer: Layer = window
                    .iter()
                    .filter(|&&v| {
                        from_start[v as usize] as usize <= t
                            && to_goal[v as usize] as usize <= t_max - t
                    })
                    .map(|&v| {
                        let var = next_var;
                        next_var += 1;
                        (v, var)
                    })
                    .collect();
                at_time.extend(layer.iter().copied());
                agent_layers.push(layer);
            }
            for t in [0, t_max] {
                for &(_, var) in &agent_layers[t] {
                    solver.add_clause([var]);
                }
            }
            sat::movement_clauses(&mut solver, &options, &agent_layers, &mut here, &mut there);
            // The kept agents' cells, and their moves against this agent's.
            for (t, layer) in agent_layers.iter().enumerate() {
                for &(v, var) in layer {
                    let b = on[t * cells + v as usize];
                    if b != NOBODY {
                        let s = select(b, &mut next_var);
                        solver.add_clause([-s, -var]);
                    }
                    if t == t_max {
                        continue;
                    }
                    // This agent v -> u while kept b goes u -> v.
                    for &u in options.of(v) {
                        let b = on[t * cells + u as usize];
                        if u == v || b == NOBODY || on[(t + 1) * cells + v as usize] != b {
                            continue;
                        }
                        if let Some(next) = var_of(&agent_layers[t + 1], u) {
                            let s = select(b, &mut next_var);
                            solver.add_clause([-s, -var, -next]);
                        }
                    }
                }
            }
            layers.push(agent_layers);
        }
        for mut vars in at_cell {
            if deadline.passed() {
                sat::drop_off_the_clock(solver, deadline);
                return None;
            }
            vars.sort_unstable();
            for group in vars.chunk_by(|x, y| x.0 == y.0) {
                let group: Vec<i32> = group.iter().map(|&(_, x)| x).collect();
                sat::at_most_one(&mut solver, &group, &mut next_var);
            }
        }
        Some(Encoding {
            solver,
            horizon: t_max,
            layers,
            selectors,
        })
    }

    /// Solves under every selector, reading chains and adding the clauses of the free
    /// agents' swaps until a model has none.
    fn solve(&mut self, grid: &Grid, conflicts: i32, deadline: Deadline) -> Answer {
        let options = Options::new(grid);
        let assumptions: Vec<i32> = self.selectors.iter().map(|&(_, s)| s).collect();
        loop {
            if deadline.passed() {
                return Answer::Stopped;
            }
            limit_conflicts(&mut self.solver, conflicts);
            match self.solver.solve_with(assumptions.iter().copied()) {
                Some(true) => {}
                Some(false) => return Answer::Unsatisfiable,
                None => return Answer::Stopped,
            }
            let paths = sat::chains(&self.solver, &self.layers, self.horizon, &options);
            let swaps = sat::swaps(&self.layers, &paths, self.horizon);
            if swaps.is_empty() {
                return Answer::Chains(paths);
            }
            for clause in swaps {
                self.solver.add_clause(clause);
            }
        }
    }
}

/// The next SAT call of `solver` stops (undecided) after `conflicts` conflicts, when not
/// negative.
fn limit_conflicts(solver: &mut Solver, conflicts: i32) {
    if conflicts >= 0 {
        // A known limit's name: CaDiCaL accepts it.
        let _ = solver.set_limit("conflicts", conflicts);
    }
}

/// The variable of `cell` in `layer`, if any.
fn var_of(layer: &Layer, cell: u32) -> Option<i32> {
    layer
        .binary_search_by_key(&cell, |&(v, _)| v)
        .ok()
        .map(|i| layer[i].1)
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The MAPF methods against a plain breadth-first search over joint placements on
//! thousands of tiny random maps with 2 to 8 agents (fixed seeds, solvable and not): the
//! portfolio, the horizons with prioritized planning, the horizons with SAT alone, and the
//! joint A*, each forced; and the horizons' own -1 (a small core with no plan at all), the
//! up-front test bypassed, on unsolvable ones. Every plan is replayed by the checker. The
//! unsolvability test is checked for soundness everywhere, and for completeness on paths
//! and cycles.

mod common;

use std::time::Duration;

use ghosts::Dataset;
use ghosts::internals::mapf::{
    self, Event, Horizons, Instance, Method, Techniques, constructive, push_swap, refine, repair,
    sat, solvable,
};
use ghosts::internals::{Want, check_plan};
use grid_core::rng::SplitMix64;
use grid_core::{CellId, Grid};

use common::{random_instance, random_tree, reference_steps};

fn draw(dataset: &Dataset) -> String {
    let grid = dataset.grid();
    let mut text = String::new();
    for r in 0..grid.height() {
        for c in 0..grid.width() {
            let cell = grid.cell(r, c);
            let s = dataset.starts().iter().position(|&x| Some(x) == cell);
            let g = dataset.homes().iter().position(|&x| Some(x) == cell);
            text.push(match (cell, s, g) {
                (None, _, _) => '#',
                (_, Some(i), _) => (b'a' + i as u8) as char,
                (_, _, Some(i)) => (b'A' + i as u8) as char,
                _ => '.',
            });
        }
        text.push('\n');
    }
    format!(
        "{text}starts {:?}\ngoals {:?}",
        dataset.starts(),
        dataset.homes()
    )
}

fn check(dataset: &Dataset, method: Method, expected: Option<u32>) {
    check_traced(dataset, method, expected, &mut |_| {});
}

/// [`check`], telling `trace` every step of the solver.
fn check_traced(
    dataset: &Dataset,
    method: Method,
    expected: Option<u32>,
    trace: &mut dyn FnMut(&Event),
) {
    check_with(dataset, method, Techniques::default(), expected, trace);
}

/// [`check_traced`] with `techniques`.
fn check_with(
    dataset: &Dataset,
    method: Method,
    techniques: Techniques,
    expected: Option<u32>,
    trace: &mut dyn FnMut(&Event),
) {
    let clock = std::time::Instant::now();
    let solution = mapf::solve_with(
        dataset.grid(),
        dataset.starts(),
        dataset.homes(),
        Want::Plan,
        64,
        method,
        techniques,
        trace,
    )
    .unwrap();
    assert_eq!(solution.steps, expected, "{method:?}\n{}", draw(dataset));
    if std::env::var("MAPF_TIMES").is_ok() {
        eprintln!(
            "{method:?} {} agents {} cells {:?}: {:?}",
            dataset.starts().len(),
            dataset.grid().cell_count(),
            expected,
            clock.elapsed()
        );
    }
    if let (Some(steps), Some(plan)) = (solution.steps, &solution.plan) {
        assert_eq!(
            check_plan(dataset, plan),
            Ok(steps as usize),
            "{}",
            draw(dataset)
        );
    }
}

/// Instances compared per agent count (2..=8): 1 200 in all (the test's cost is the plain
/// BFS, which must exhaust every unsolvable instance).
const PER_AGENTS: [usize; 9] = [0, 0, 300, 300, 250, 200, 112, 30, 8];

/// All instances compared.
const COUNT: usize = 1200;

#[test]
fn every_method_equals_plain_bfs_on_thousands_of_tiny_maps() {
    let mut rng = SplitMix64::new(909);
    let (mut compared, mut unsolvable, mut said_never) = (0, 0, 0);
    // Optima that prioritized planning alone missed, found by the SAT decision on a core.
    let mut cored = 0;
    // Horizons skipped by a small core's own optimum.
    let mut core_jumps = 0;
    // Optima that prioritized planning missed, found by the collision repair.
    let mut repaired = 0;
    // Plans found by LaCAM*'s dives from other seeds.
    let mut dived = 0;
    let mut per_agents = [0usize; 9];
    while compared < COUNT {
        let agents = rng.between(2, 8);
        let (width, height) = (rng.between(1, 5), rng.between(1, 4));
        let wall_percent = [0, 15, 30][rng.below(3)];
        let Some(dataset) =
            random_instance(&mut rng, width, height, agents, wall_percent, |_| true)
        else {
            continue;
        };
        // Small enough for the plain BFS: at most 60 000 placements C! / (C - K)! (more
        // for 7 and 8 agents, which need at least 8 and 9 cells).
        let cells = dataset.grid().cell_count();
        let placements = (0..agents).fold(1u64, |p, i| p.saturating_mul((cells - i) as u64));
        let most = match agents {
            8 => 400_000,
            7 => 200_000,
            _ => 60_000,
        };
        if placements > most || per_agents[agents] == PER_AGENTS[agents] {
            continue;
        }
        let clock = std::time::Instant::now();
        let expected = reference_steps(dataset.grid(), dataset.starts(), dataset.homes());
        if std::env::var("MAPF_TIMES").is_ok() {
            eprintln!("reference: {:?}", clock.elapsed());
        }
        let instance = Instance::new(dataset.grid(), dataset.starts(), dataset.homes());
        if solvable::check(&instance) == solvable::Verdict::Never {
            assert_eq!(expected, None, "unsound -1\n{}", draw(&dataset));
            said_never += 1;
        }
        check(&dataset, Method::Auto, expected);
        let off = Techniques { repair: false };
        check_with(&dataset, Method::Auto, off, expected, &mut |_| {});
        check(&dataset, Method::JointSearch, expected);
        match expected {
            Some(steps) => {
                check_traced(
                    &dataset,
                    Method::Horizons(Horizons::PlanThenCore),
                    expected,
                    &mut |event| {
                        if let Event::CoreOptimum {
                            horizon,
                            steps,
                            fits: true,
                            ..
                        } = *event
                        {
                            match steps {
                                Some(steps) if steps > horizon + 1 => core_jumps += 1,
                                _ => {}
                            }
                        }
                    },
                );
                check(&dataset, Method::Horizons(Horizons::PlanThenSat), expected);
                check(&dataset, Method::Horizons(Horizons::SatOnly), expected);
                // The collision repair at every horizon planning fails at: a plan it
                // leaves with no collision is taken as the optimum there.
                check_traced(
                    &dataset,
                    Method::Horizons(Horizons::PlanRepairCore),
                    expected,
                    &mut |event| match *event {
                        Event::Repair { left: 0, .. } => repaired += 1,
                        Event::OtherSeeds { from, best, .. } => {
                            dived += usize::from(best.is_some() && best != from);
                        }
                        _ => {}
                    },
                );
                // The decisions themselves: possible at the optimum (with a plan that
                // replays), impossible just below.
                let lower = instance.lower_bound().unwrap();
                assert!(matches!(
                    sat::decide(&instance, steps),
                    sat::Decision::Plan(_)
                ));
                let refined = refine::decide(&instance, steps, u64::MAX).unwrap();
                if refined.rounds > 0 {
                    cored += 1;
                }
                let sat::Decision::Plan(paths) = refined.decision else {
                    panic!("no core plan at the optimum\n{}", draw(&dataset));
                };
                let plan = constructive::to_placements(&paths, steps);
                assert_eq!(check_plan(&dataset, &plan), Ok(steps as usize));
                // Raced from the start by the `sat` configuration: either side's plan.
                let now = Some(Duration::ZERO);
                let raced = sat::decide_raced(&instance, steps, sat::Deadline(None), now);
                let sat::Decision::Plan(paths) = raced else {
                    panic!("no raced plan at the optimum\n{}", draw(&dataset));
                };
                let plan = constructive::to_placements(&paths, steps);
                assert_eq!(check_plan(&dataset, &plan), Ok(steps as usize));
                if steps > lower {
                    let below = sat::decide_raced(&instance, steps - 1, sat::Deadline(None), now);
                    assert_eq!(below, sat::Decision::Impossible);
                    assert_eq!(sat::decide(&instance, steps - 1), sat::Decision::Impossible);
                    let below = refine::decide(&instance, steps - 1, u64::MAX).unwrap();
                    assert_eq!(below.decision, sat::Decision::Impossible);
                }
            }
            None => unsolvable += 1,
        }
        per_agents[agents] += 1;
        compared += 1;
    }
    assert_eq!(per_agents, PER_AGENTS);
    assert!(
        unsolvable > 100 && unsolvable < COUNT * 6 / 7,
        "unsolvable: {unsolvable}"
    );
    // 303 with this seed: the core's rounds (SAT on a subset, the rest planned around it)
    // are compared with the plain BFS, not only the first planning pass.
    assert!(cored > 100, "the core decided only {cored} optima");
    // 15 with this seed (32 before LaCAM*'s dives from other seeds came first): the
    // repair's plans are compared with the optimum, not only replayed.
    assert!(repaired > 10, "the repair found only {repaired} optima");
    // 215 with this seed: the dives' plans are compared with the optimum (a dive that
    // searched everything below the best plan, the proof it is optimal, is tested in
    // `mapf::lacam`: none here, where a dive stops when it backs up).
    assert!(dived > 150, "the dives found only {dived} plans");
    // The core's optimum as a new lower bound is compared too, not only the horizons.
    assert!(
        core_jumps > 20,
        "a core's optimum skipped horizons only {core_jumps} times"
    );
    assert!(
        said_never > COUNT / 40,
        "the test said -1 only {said_never} times"
    );
}

/// Unsolvable instances compared in the test of the horizons' own -1.
const UNSOLVABLE: usize = 800;

/// The horizons' own -1, which the up-front test would otherwise settle first: on tiny
/// unsolvable maps with 2 to 6 agents (every core is then small enough for its joint
/// search), the horizons with the core and without the up-front test must answer -1 as
/// the plain BFS does, settled by exactly one of: a core with no plan at all, or the joint
/// search past the horizons. The core must settle most of them.
#[test]
fn a_small_core_with_no_plan_at_all_answers_minus_one_as_plain_bfs() {
    let mut rng = SplitMix64::new(1601);
    let (mut compared, mut by_core, mut by_joint) = (0, 0, 0);
    let mut per_agents = [0usize; 7];
    while compared < UNSOLVABLE {
        let agents = rng.between(2, 6);
        let (width, height) = (rng.between(1, 5), rng.between(1, 4));
        // Many walls: more of the tiny maps are unsolvable.
        let wall_percent = [15, 30, 45][rng.below(3)];
        let Some(dataset) =
            random_instance(&mut rng, width, height, agents, wall_percent, |_| true)
        else {
            continue;
        };
        let cells = dataset.grid().cell_count();
        let placements = (0..agents).fold(1u64, |p, i| p.saturating_mul((cells - i) as u64));
        if placements > 20_000 {
            continue;
        }
        // A goal out of reach is told by the lower bound at once: not the path tested.
        let instance = Instance::new(dataset.grid(), dataset.starts(), dataset.homes());
        if instance.lower_bound().is_none() {
            continue;
        }
        if reference_steps(dataset.grid(), dataset.starts(), dataset.homes()).is_some() {
            continue;
        }
        let mut settled = Vec::new();
        check_traced(
            &dataset,
            Method::HorizonsOnly(Horizons::PlanThenCore),
            None,
            &mut |event| match event {
                Event::CoreOptimum {
                    steps: None,
                    fits: true,
                    ..
                } => settled.push("core"),
                Event::JointSearch { .. } => settled.push("joint"),
                Event::LowerBound(None) => settled.push("out of reach"),
                Event::NeverSolvable => settled.push("the up-front test"),
                _ => {}
            },
        );
        match settled[..] {
            ["core"] => by_core += 1,
            ["joint"] => by_joint += 1,
            _ => panic!("settled by {settled:?}\n{}", draw(&dataset)),
        }
        per_agents[agents] += 1;
        compared += 1;
    }
    // With this seed: 800 of 800 settled by the core (239, 265, 137, 104 and 55 with 2 to
    // 6 agents; the up-front test tells every one of them at once, so without the bypass
    // the core would settle none).
    assert!(
        by_core > UNSOLVABLE * 3 / 4,
        "of {UNSOLVABLE} unsolvable instances, {by_core} were settled by a core with no \
         plan, {by_joint} by the joint search"
    );
    assert!(
        per_agents[2..].iter().all(|&n| n > 40),
        "unsolvable instances per agent count: {per_agents:?}"
    );
}

#[test]
fn unsolvability_test_is_complete_on_paths_and_cycles() {
    let mut rng = SplitMix64::new(2014);
    let mut compared = 0;
    while compared < 1000 {
        // A corridor (one row) or a ring (the border of a rectangle).
        let ring = rng.percent(50);
        let (width, height) = if ring {
            // Rings of 4, 8, 10 and 12 cells (2 x 3 would have cells of degree 3).
            [(2, 2), (3, 3), (4, 3), (4, 4)][rng.below(4)]
        } else {
            (rng.between(2, 9), 1)
        };
        let grid = Grid::new(height, width, |r, c| {
            !ring || r == 0 || c == 0 || r + 1 == height || c + 1 == width
        });
        let agents = rng.between(2, grid.cell_count().min(5));
        let mut cells: Vec<CellId> = grid.cells().collect();
        rng.shuffle(&mut cells);
        let starts = cells[..agents].to_vec();
        rng.shuffle(&mut cells);
        let goals = cells[..agents].to_vec();
        let instance = Instance::new(&grid, &starts, &goals);
        let expected = reference_steps(&grid, &starts, &goals);
        let verdict = solvable::check(&instance);
        assert_eq!(
            verdict == solvable::Verdict::Never,
            expected.is_none(),
            "{width}x{height} ring {ring}: {starts:?} -> {goals:?}"
        );
        compared += 1;
    }
}

/// Whether `paths` (every agent's cell at 0..=T) is a legal plan of makespan `horizon`
/// from `starts` to `goals` on `grid`: each step a wait or a move to a neighbour, no two
/// agents on one cell, no two swapping. Written out here (not the crate's checker, which
/// takes at most 26 agents) so that many-agent plans are replayed too.
fn replays(grid: &Grid, starts: &[CellId], goals: &[CellId], paths: &[Vec<u32>], horizon: u32) {
    let t_max = horizon as usize;
    assert_eq!(paths.len(), starts.len());
    for (a, path) in paths.iter().enumerate() {
        assert_eq!(path.len(), t_max + 1, "agent {a}'s path");
        assert_eq!(path[0] as usize, starts[a].index(), "agent {a}'s start");
        assert_eq!(path[t_max] as usize, goals[a].index(), "agent {a}'s goal");
        for t in 0..t_max {
            let (v, u) = (path[t] as usize, path[t + 1] as usize);
            assert!(
                v == u
                    || grid
                        .neighbours(CellId::new(v))
                        .any(|(_, next)| next.index() == u),
                "agent {a} jumps at {t}"
            );
        }
    }
    for t in 0..=t_max {
        let mut on = std::collections::HashMap::new();
        for (a, path) in paths.iter().enumerate() {
            let before = on.insert(path[t], a);
            assert_eq!(before, None, "agent {a} and another on one cell at {t}");
        }
        if t < t_max {
            for (a, path) in paths.iter().enumerate() {
                if let Some(&b) = on.get(&path[t + 1]) {
                    assert!(
                        b == a || paths[b][t + 1] != path[t],
                        "agents {a} and {b} swap at {t}"
                    );
                }
            }
        }
    }
}

/// Prioritized planning (SIPP, then the breadth-first search; and that one alone) on 200
/// tiny random instances with the plain BFS's optimum: every plan it gives at a horizon
/// replays legally with that makespan, so none comes below the optimum; a plan at the
/// lower bound happens only when the optimum is the bound; and the driver takes a
/// planning answer as the optimum only at the first horizon not proved impossible.
#[test]
fn prioritized_plans_replay_and_prove_only_at_a_proven_bound() {
    let mut rng = SplitMix64::new(1901);
    let (mut compared, mut at_bound, mut above_bound) = (0, 0, 0);
    let (mut repaired, mut repaired_at_optimum) = (0, 0);
    while compared < 200 {
        let agents = rng.between(2, 6);
        let (width, height) = (rng.between(1, 6), rng.between(1, 5));
        let wall_percent = [0, 15, 30][rng.below(3)];
        let Some(dataset) =
            random_instance(&mut rng, width, height, agents, wall_percent, |c| c <= 30)
        else {
            continue;
        };
        let cells = dataset.grid().cell_count();
        let placements = (0..agents).fold(1u64, |p, i| p.saturating_mul((cells - i) as u64));
        if placements > 60_000 {
            continue;
        }
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let instance = Instance::new(grid, starts, goals);
        let Some(lower) = instance.lower_bound() else {
            continue;
        };
        let optimum = reference_steps(grid, starts, goals);
        compared += 1;
        let top = optimum.unwrap_or(lower) + 3;
        for horizon in lower..=top {
            let layered = constructive::plan_at_layered(&instance, horizon, 8);
            for paths in constructive::plan_at(&instance, horizon, 8)
                .into_iter()
                .chain(layered)
            {
                replays(grid, starts, goals, &paths, horizon);
                let plan = constructive::to_placements(&paths, horizon);
                assert_eq!(check_plan(&dataset, &plan), Ok(horizon as usize));
                assert!(
                    optimum.is_some_and(|opt| opt <= horizon),
                    "a plan of {horizon} against the optimum {optimum:?}\n{}",
                    draw(&dataset)
                );
                if horizon == lower {
                    assert_eq!(optimum, Some(lower), "{}", draw(&dataset));
                }
            }
            // The collision repair's plans, likewise.
            if let Some(paths) = repair::plan_at(&instance, horizon, 300, u64::from(horizon)) {
                replays(grid, starts, goals, &paths, horizon);
                let plan = constructive::to_placements(&paths, horizon);
                assert_eq!(check_plan(&dataset, &plan), Ok(horizon as usize));
                assert!(
                    optimum.is_some_and(|opt| opt <= horizon),
                    "a repaired plan of {horizon} against the optimum {optimum:?}\n{}",
                    draw(&dataset)
                );
                repaired += 1;
                repaired_at_optimum += usize::from(optimum == Some(horizon));
            }
        }
        // The driver: a horizon settled by planning is the optimum.
        let mut settled_at = None;
        check_traced(
            &dataset,
            Method::HorizonsOnly(Horizons::PlanThenCore),
            optimum,
            &mut |event| {
                if let Event::Planning {
                    horizon,
                    found: true,
                    ..
                } = event
                {
                    settled_at = Some(*horizon);
                }
            },
        );
        match settled_at {
            Some(horizon) if horizon == lower => at_bound += 1,
            Some(_) => above_bound += 1,
            None => {}
        }
        if let Some(horizon) = settled_at {
            assert_eq!(Some(horizon), optimum, "{}", draw(&dataset));
        }
    }
    // With this seed: most optima are the bound and found by planning there; some are
    // found by planning above it, after SAT proved the horizons below impossible.
    assert!(at_bound > 100, "planning settled {at_bound} at the bound");
    assert!(above_bound > 5, "planning settled {above_bound} above it");
    assert!(
        repaired > 200 && repaired_at_optimum > 100,
        "the repair planned {repaired} horizons, {repaired_at_optimum} at the optimum"
    );
}

/// Prioritized planning with many agents (10 to 120 on random maps of up to 24 x 24):
/// every plan it gives replays legally with the makespan asked, and planning the others
/// around half of such a plan (as the core's refinement does) gives a legal plan again.
#[test]
fn prioritized_plans_of_many_agents_replay_legally() {
    let mut rng = SplitMix64::new(1902);
    let (mut planned, mut around_planned, mut layered_planned, mut tried) = (0, 0, 0, 0);
    while tried < 300 {
        let (width, height) = (rng.between(6, 24), rng.between(6, 24));
        let wall_percent = [0, 10, 20, 30][rng.below(4)];
        let grid = test_support::random_grid(&mut rng, height, width, wall_percent);
        let mut cells: Vec<CellId> = grid.cells().collect();
        let agents = rng.between(10, 120).min(cells.len() / 2);
        if agents < 2 {
            continue;
        }
        rng.shuffle(&mut cells);
        let starts = cells[..agents].to_vec();
        rng.shuffle(&mut cells);
        let goals = cells[..agents].to_vec();
        let instance = Instance::new(&grid, &starts, &goals);
        let Some(lower) = instance.lower_bound() else {
            continue;
        };
        tried += 1;
        let horizon = lower + rng.below(4) as u32;
        // The breadth-first search alone (planning tries it only when SIPP fails), on a
        // third of the instances (it is the slower one).
        let layered = (tried % 3 == 0)
            .then(|| constructive::plan_at_layered(&instance, horizon, 4))
            .flatten();
        if let Some(paths) = layered {
            layered_planned += 1;
            replays(&grid, &starts, &goals, &paths, horizon);
        }
        let Some(paths) = constructive::plan_at(&instance, horizon, 4) else {
            continue;
        };
        planned += 1;
        replays(&grid, &starts, &goals, &paths, horizon);
        let fixed: Vec<Option<Vec<u32>>> = paths
            .iter()
            .enumerate()
            .map(|(a, path)| (a % 2 == 0).then(|| path.clone()))
            .collect();
        // Not sure to succeed (the others may block each other another way), but what
        // it gives must replay around the fixed paths, kept as they are.
        if let Ok(around) = constructive::plan_around(&instance, horizon, &fixed) {
            around_planned += 1;
            replays(&grid, &starts, &goals, &around, horizon);
            for a in (0..agents).step_by(2) {
                assert_eq!(around[a], paths[a], "a fixed path was changed");
            }
        }
    }
    assert!(planned > 120, "planning found {planned} plans of 300");
    assert!(
        layered_planned > 40,
        "the breadth-first search found {layered_planned} of 100"
    );
    assert!(
        around_planned > planned / 2,
        "planning around half of a plan found {around_planned} of {planned}"
    );
}

/// Push and Swap ([`push_swap`]) on its default order: the plan, or `None`.
fn push_and_swap(instance: &Instance<'_>) -> Option<Vec<Vec<u32>>> {
    let order = push_swap::default_order(instance);
    let mut stop = || false;
    let mut budget = push_swap::Budget {
        moves: 1 << 24,
        stop: &mut stop,
    };
    let mut moves = 0;
    match push_swap::plan(instance, &order, &mut budget, &mut moves) {
        Ok(paths) => Some(paths),
        Err(push_swap::Failure::Stuck) => None,
        Err(e) => panic!("{e:?} with a budget of 2^24 moves"),
    }
}

/// Push and Swap against the plain breadth-first search on 1500 tiny maps (random grids
/// with walls, and trees of corridors with branching cells; 2 agents up to all cells but
/// one): every plan it gives replays legally and is no shorter than the optimum, it gives
/// none where no plan exists, and it finds one on 98 % of the solvable trees with two
/// free cells or more (it is not complete: no proof either way).
#[test]
fn push_and_swap_plans_replay_and_agree_with_exhaustive_search() {
    let mut rng = SplitMix64::new(2011);
    let (mut compared, mut solvable_trees, mut found_trees, mut found) = (0, 0, 0, 0);
    while compared < 1500 {
        let tree = rng.percent(50);
        let (height, width) = (rng.between(2, 4), rng.between(2, 5));
        let grid = if tree {
            random_tree(&mut rng, height.min(3), width.min(4))
        } else {
            test_support::random_grid(&mut rng, height, width, 30)
        };
        let n = grid.cell_count();
        if !(3..=32).contains(&n) {
            continue;
        }
        let k = rng.between(2, (n - 1).min(6));
        let placements = (0..k).fold(1u64, |p, i| p * (n - i) as u64);
        if placements > 40_000 {
            continue;
        }
        let mut cells: Vec<CellId> = grid.cells().collect();
        rng.shuffle(&mut cells);
        let starts = cells[..k].to_vec();
        rng.shuffle(&mut cells);
        let goals = cells[..k].to_vec();
        let instance = Instance::new(&grid, &starts, &goals);
        let optimum = reference_steps(&grid, &starts, &goals);
        let paths = push_and_swap(&instance);
        let context = format!("{grid:?} {starts:?} -> {goals:?}");
        if let Some(paths) = &paths {
            let horizon = (paths[0].len() - 1) as u32;
            replays(&grid, &starts, &goals, paths, horizon);
            let optimum = optimum.unwrap_or_else(|| panic!("a plan where none exists: {context}"));
            assert!(horizon >= optimum, "{horizon} < {optimum}: {context}");
            found += 1;
        }
        if tree && optimum.is_some() && n - k >= 2 {
            solvable_trees += 1;
            found_trees += usize::from(paths.is_some());
        }
        compared += 1;
    }
    assert!(found > 800, "plans on {found} of {compared}");
    assert!(solvable_trees > 300, "{solvable_trees} solvable trees");
    assert!(
        found_trees * 100 >= solvable_trees * 98,
        "plans on {found_trees} of {solvable_trees} solvable trees"
    );
}

/// Push and Swap on larger mazes (trees of corridors, up to 19 x 19 squares) and random
/// grids, with agents on up to 90 % of the cells: every plan replays legally, and it
/// finds plans on most of them.
#[test]
fn push_and_swap_plans_of_many_agents_replay_legally() {
    let mut rng = SplitMix64::new(2014);
    let (mut tried, mut found) = (0, 0);
    while tried < 120 {
        let (height, width) = (rng.between(4, 10), rng.between(4, 10));
        let grid = if rng.percent(50) {
            random_tree(&mut rng, height, width)
        } else {
            test_support::random_grid(&mut rng, 2 * height - 2, 2 * width - 2, 25)
        };
        let n = grid.cell_count();
        if n < 10 {
            continue;
        }
        let percent = [10, 30, 50, 70, 90][rng.below(5)];
        let k = (n * percent / 100).clamp(2, n - 2);
        let mut cells: Vec<CellId> = grid.cells().collect();
        rng.shuffle(&mut cells);
        let starts = cells[..k].to_vec();
        rng.shuffle(&mut cells);
        let goals = cells[..k].to_vec();
        let instance = Instance::new(&grid, &starts, &goals);
        if instance.lower_bound().is_none() {
            continue;
        }
        tried += 1;
        if let Some(paths) = push_and_swap(&instance) {
            let horizon = (paths[0].len() - 1) as u32;
            replays(&grid, &starts, &goals, &paths, horizon);
            found += 1;
        }
    }
    assert!(found > 90, "plans on {found} of {tried}");
}

/// The driver with a time limit, with Push and Swap as its last resort and without, on
/// 20 tiny trees and grids: both answers agree with the plain breadth-first search (a
/// proven answer is the optimum; an unproven one has a plan no shorter and a bound no
/// higher). Push and Swap only runs when nothing else found a plan, which these do not
/// reach; the plans themselves are checked above.
#[test]
fn the_driver_answers_as_the_reference_with_push_and_swap_and_without() {
    let mut rng = SplitMix64::new(2024);
    let mut compared = 0;
    while compared < 20 {
        let (height, width) = (rng.between(2, 3), rng.between(2, 4));
        let grid = if rng.percent(50) {
            random_tree(&mut rng, height, width)
        } else {
            test_support::random_grid(&mut rng, height, width + 1, 30)
        };
        let n = grid.cell_count();
        if !(3..=32).contains(&n) {
            continue;
        }
        let k = rng.between(2, (n - 1).min(5));
        let mut cells: Vec<CellId> = grid.cells().collect();
        rng.shuffle(&mut cells);
        let starts = cells[..k].to_vec();
        rng.shuffle(&mut cells);
        let goals = cells[..k].to_vec();
        let optimum = reference_steps(&grid, &starts, &goals);
        let agents = mapf::Agents {
            grid: &grid,
            starts: &starts,
            goals: &goals,
            dataset: None,
        };
        let limits = mapf::Limits {
            budget_mib: 64,
            time_limit: Some(std::time::Duration::from_secs(2)),
            threads: std::num::NonZeroUsize::MIN,
        };
        for last_resort in [mapf::LastResort::PushAndSwap, mapf::LastResort::LacamOnly] {
            // No answer in time (a loaded machine) is no wrong answer.
            let (steps, bound) = match mapf::solve_with_last_resort(agents, limits, last_resort) {
                Ok(answer) => answer,
                Err(mapf::Unanswered::Time { .. }) => continue,
                Err(e) => panic!("{e:?}"),
            };
            match (steps, optimum) {
                (None, None) => {}
                (Some(steps), Some(optimum)) => {
                    assert!(steps >= optimum && bound.is_some_and(|b| b <= optimum));
                }
                _ => panic!("{steps:?} against {optimum:?}: {grid:?} {starts:?} {goals:?}"),
            }
        }
        compared += 1;
    }
}

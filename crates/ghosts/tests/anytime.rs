#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The anytime answers against the exhaustive references of `common` on thousands of tiny
//! random maps with 2 to 6 agents (fixed seeds), for both objectives: the driver is
//! stopped at counted places (LaCAM*'s expansions, the proof's checks of the time), so
//! that the same answers come on every machine. Every answer with a plan replays legally,
//! costs what it says, costs at least the optimum, and its lower bound is at most the
//! optimum; an answer whose bound meets its cost is the optimum. With no stop, and through
//! the front door with a generous time limit, every answer is proven and the optimum.

mod common;

use std::time::Duration;

use ghosts::internals::check_plan;
use ghosts::internals::mapf::{self, Agents, Horizons, Method, Stopped, Stopwatch, Unanswered};
use ghosts::{CellId, Dataset, Objective};
use grid_core::rng::SplitMix64;

use common::{random_instance, reference_soc, reference_steps};

/// A random tiny instance (at most 16 cells and 40 000 placements, for the references).
fn tiny_instance(rng: &mut SplitMix64, agents: usize) -> Option<Dataset> {
    let (width, height) = (2 + rng.below(3), 2 + rng.below(3));
    let walls = [0, 10, 25][rng.below(3)];
    random_instance(rng, width, height, agents, walls, |cells| {
        let placements: usize = (0..agents).map(|i| cells.saturating_sub(i)).product();
        cells <= 16 && placements <= 40_000
    })
}

/// The objective's value of `plan` (placements after each step) from `dataset`'s starts.
fn cost_of(dataset: &Dataset, plan: &[Vec<CellId>], objective: Objective) -> u64 {
    match objective {
        Objective::Makespan => plan.len() as u64,
        Objective::SumOfCosts => dataset
            .homes()
            .iter()
            .enumerate()
            .map(|(a, &home)| {
                // Times 0 (the start) to H: the cost is one past the last time away.
                let times: Vec<&[CellId]> = std::iter::once(dataset.starts())
                    .chain(plan.iter().map(Vec::as_slice))
                    .collect();
                times
                    .iter()
                    .rposition(|placement| placement[a] != home)
                    .map_or(0, |t| t as u64 + 1)
            })
            .sum(),
    }
}

/// What the stopped answers did, for the test's closing assertions.
#[derive(Debug, Default)]
struct Tally {
    proven: usize,
    unproven: usize,
    nothing: usize,
}

/// Checks one stopped answer against the optimum `expected`.
fn check(
    dataset: &Dataset,
    objective: Objective,
    stopwatch: Stopwatch,
    expected: Option<u64>,
    tally: &mut Tally,
) {
    let agents = Agents {
        grid: dataset.grid(),
        starts: dataset.starts(),
        goals: dataset.homes(),
        dataset: None,
    };
    // The horizons, not the joint search (which the portfolio picks on tiny maps and
    // which takes no stop).
    let method = Method::Horizons(Horizons::PlanThenCore);
    let context = || format!("{objective:?} {stopwatch:?} expected {expected:?}\n{dataset:?}");
    match mapf::solve_stopped(agents, objective, method, 64, stopwatch) {
        // Stopped with nothing known (solvable or not): the error, no guess.
        Err(Unanswered::Time { .. }) => tally.nothing += 1,
        Err(other) => panic!("{other}\n{}", context()),
        Ok(None) => assert_eq!(expected, None, "{}", context()),
        Ok(Some(Stopped {
            plan,
            cost,
            lower_bound,
        })) => {
            let optimum = expected.unwrap_or_else(|| panic!("a plan for -1\n{}", context()));
            assert_eq!(check_plan(dataset, &plan), Ok(plan.len()), "{}", context());
            assert_eq!(cost_of(dataset, &plan, objective), cost, "{}", context());
            assert!(cost >= optimum, "{}", context());
            assert!(lower_bound <= optimum, "{}", context());
            if lower_bound == cost {
                assert_eq!(cost, optimum, "{}", context());
                tally.proven += 1;
            } else {
                tally.unproven += 1;
            }
        }
    }
}

/// Instances per agent count (2..=6).
const PER_AGENTS: [usize; 7] = [0, 0, 200, 200, 150, 80, 40];

#[test]
fn stopped_answers_are_legal_and_bracket_the_optimum_on_many_tiny_maps() {
    let mut rng = SplitMix64::new(17_172);
    let mut tally = Tally::default();
    let stops = [
        Stopwatch::Counted {
            first_plan_nodes: 0,
            checks: 0,
        },
        Stopwatch::Counted {
            first_plan_nodes: 4,
            checks: 0,
        },
        Stopwatch::Counted {
            first_plan_nodes: 40,
            checks: 1,
        },
        Stopwatch::Counted {
            first_plan_nodes: 400,
            checks: 3,
        },
    ];
    for (agents, &count) in PER_AGENTS.iter().enumerate() {
        let mut done = 0;
        while done < count {
            let Some(dataset) = tiny_instance(&mut rng, agents) else {
                continue;
            };
            let (grid, starts, homes) = (dataset.grid(), dataset.starts(), dataset.homes());
            let steps = reference_steps(grid, starts, homes).map(u64::from);
            let soc = reference_soc(grid, starts, homes);
            for (objective, expected) in
                [(Objective::Makespan, steps), (Objective::SumOfCosts, soc)]
            {
                for stopwatch in stops {
                    check(&dataset, objective, stopwatch, expected, &mut tally);
                }
                // Unstopped: every answer is a proof.
                let mut free = Tally::default();
                let unstopped = Stopwatch::Counted {
                    first_plan_nodes: 1 << 20,
                    checks: u32::MAX,
                };
                check(&dataset, objective, unstopped, expected, &mut free);
                assert_eq!(free.unproven + free.nothing, 0, "{dataset:?}");
            }
            done += 1;
        }
    }
    eprintln!("{tally:?}");
    // The stops must leave answers of every kind.
    assert!(tally.unproven > 100, "{tally:?}");
    assert!(tally.proven > 100, "{tally:?}");
    assert!(tally.nothing > 100, "{tally:?}");
}

/// The sum of costs stopped by `stopwatch` on half as many tiny instances as
/// [`PER_AGENTS`] says, drawn from `seed`, each answer checked by [`check`]: the tally,
/// and for each solvable instance whether Push and Swap plans it and whether an answer
/// came.
fn soc_stopped_on_tiny_maps(seed: u64, stopwatch: Stopwatch) -> (Tally, Vec<(bool, bool)>) {
    let mut rng = SplitMix64::new(seed);
    let mut tally = Tally::default();
    let mut solvable = Vec::new();
    for (agents, &count) in PER_AGENTS.iter().enumerate() {
        let mut done = 0;
        while done < count / 2 {
            let Some(dataset) = tiny_instance(&mut rng, agents) else {
                continue;
            };
            let (grid, starts, homes) = (dataset.grid(), dataset.starts(), dataset.homes());
            let soc = reference_soc(grid, starts, homes);
            let instance = mapf::Instance::new(grid, starts, homes);
            let order = mapf::push_swap::default_order(&instance);
            let mut budget = mapf::push_swap::Budget {
                moves: 1 << 20,
                stop: &mut || false,
            };
            let pushed = mapf::push_swap::plan(&instance, &order, &mut budget, &mut 0).is_ok();
            let before = tally.nothing;
            check(&dataset, Objective::SumOfCosts, stopwatch, soc, &mut tally);
            if soc.is_some() {
                solvable.push((pushed, tally.nothing == before));
            }
            done += 1;
        }
    }
    (tally, solvable)
}

#[test]
fn the_sum_of_costs_gets_a_plan_when_lacam_needs_more_than_its_first_nodes() {
    // LaCAM*'s first plans stop after one node and the proof at its first check: the
    // plan comes from LaCAM* resumed (or prioritized planning, or Push and Swap), on
    // every solvable instance, legal and bracketing the optimum with its bound; among
    // them, those Push and Swap does not plan.
    let stopwatch = Stopwatch::Counted {
        first_plan_nodes: 1,
        checks: 0,
    };
    let (tally, solvable) = soc_stopped_on_tiny_maps(17_174, stopwatch);
    eprintln!("{tally:?}");
    assert_eq!(tally.nothing, 0, "{tally:?}");
    let beyond_push_and_swap = solvable.iter().filter(|&&(pushed, _)| !pushed).count();
    assert!(beyond_push_and_swap > 20, "{beyond_push_and_swap}");
}

#[test]
fn the_sum_of_costs_falls_back_on_push_and_swap_when_nothing_else_planned() {
    // No LaCAM* nodes, no planning steps, the proof stopped at its first check: the plan,
    // if any, is Push and Swap's, and there is one wherever Push and Swap plans.
    let stopwatch = Stopwatch::Counted {
        first_plan_nodes: 0,
        checks: 0,
    };
    let (tally, solvable) = soc_stopped_on_tiny_maps(17_175, stopwatch);
    eprintln!("{tally:?}");
    for &(pushed, answered) in &solvable {
        assert!(answered || !pushed, "{tally:?}");
    }
    let pushed = solvable.iter().filter(|&&(pushed, _)| pushed).count();
    assert!(pushed > 100, "{pushed}");
}

#[test]
fn a_generous_time_limit_proves_the_optimum_through_the_front_door() {
    let mut rng = SplitMix64::new(17_173);
    for (agents, &count) in PER_AGENTS.iter().enumerate() {
        let mut done = 0;
        while done < count / 4 {
            let Some(dataset) = tiny_instance(&mut rng, agents) else {
                continue;
            };
            let (grid, starts, homes) = (dataset.grid(), dataset.starts(), dataset.homes());
            let steps = reference_steps(grid, starts, homes).map(u64::from);
            let soc = reference_soc(grid, starts, homes);
            for (objective, expected) in
                [(Objective::Makespan, steps), (Objective::SumOfCosts, soc)]
            {
                let options = ghosts::Options {
                    objective,
                    plan: true,
                    memory_mib: 64,
                    time_limit: Some(Duration::from_secs(600)),
                    // A second thread: the sum of costs' plan improved beside the proof.
                    threads: std::num::NonZeroUsize::new(2).unwrap(),
                    ..ghosts::Options::default()
                };
                let solution = ghosts::solve(&dataset, &options).unwrap();
                assert_eq!(solution.as_ref().map(|s| s.cost()), expected, "{dataset:?}");
                if let Some(solution) = solution {
                    assert!(solution.is_proven());
                    assert_eq!(solution.lower_bound(), solution.cost());
                    let plan = solution.plan().unwrap();
                    assert_eq!(check_plan(&dataset, plan), Ok(plan.len()));
                    assert_eq!(cost_of(&dataset, plan, objective), solution.cost());
                }
            }
            done += 1;
        }
    }
}

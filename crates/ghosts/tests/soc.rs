#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The sum-of-costs solver against an exhaustive search on thousands of tiny random maps
//! with 2 to 6 agents (fixed seeds, solvable and not), with every technique switched on
//! and off (the incremental SAT sessions off once). The reference is Dijkstra's algorithm over (placement, finished agents): a
//! finished agent stays on its goal for good, every step costs the agents not finished,
//! and an agent on its goal may finish at no cost; the least cost with every agent
//! finished is the least sum of costs. Every plan is replayed by the checker and its cost
//! recounted.

mod common;

use ghosts::Dataset;
use ghosts::internals::check_plan;
use ghosts::internals::mapf::soc::{self, Cbs, Techniques, Whole};
use grid_core::rng::SplitMix64;
use grid_core::{CellId, Grid};

use common::{random_instance, reference_soc};

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

/// Every combination of the switches `planning` and `core` (in groups) with the
/// incremental SAT sessions and both lower bounds, the bounds alone and off once each
/// (with planning and the core), the core as one group once, the raise's plan not
/// reused once, the solvers in CaDiCaL's default configuration rather than `plain`
/// (with planning and without), the fresh encoding per
/// budget once (on all agents, without planning: every budget by SAT), and conflict-based
/// search on every group (without planning, with the pairwise bound and without, and its
/// nodes bounded by the pairs and not), so that each way of deciding a budget meets the
/// reference. With conflict-based search on every group, the pairwise bound's pairs are
/// decided by it too (`pairs_by_cbs`); the default leaves the tiny maps' pairs to SAT, as
/// with the switch off. The sessions that fill the memory (`fill`) never need to on
/// these maps: their own test is below.
fn every_technique() -> Vec<Techniques> {
    let mut all = Vec::new();
    for planning in [false, true] {
        for core in [false, true] {
            all.push(Techniques {
                planning,
                core,
                groups: core,
                ..Techniques::default()
            });
        }
    }
    for (pairwise, core_guided) in [(false, false), (true, false), (false, true)] {
        all.push(Techniques {
            pairwise,
            core_guided,
            ..Techniques::default()
        });
    }
    all.push(Techniques {
        groups: false,
        ..Techniques::default()
    });
    all.push(Techniques {
        reuse_plan: false,
        ..Techniques::default()
    });
    // The sessions' solvers in CaDiCaL's default configuration (`plain_sat` off), with
    // planning and without, so that the SAT decides every budget once.
    for planning in [true, false] {
        all.push(Techniques {
            planning,
            plain_sat: false,
            ..Techniques::default()
        });
    }
    all.push(Techniques {
        planning: false,
        core: false,
        groups: false,
        incremental: false,
        ..Techniques::default()
    });
    // Conflict-based search decides every group (the default leaves the tiny maps to
    // SAT), with and without the floor the pairwise bound gives it, and with the floor
    // but without each node's bound by the pairs (nor the pairs' costs under each node's
    // constraints).
    for (pairwise, cbs_pairs, cbs_pair_costs) in [
        (false, true, true),
        (true, true, true),
        (true, false, false),
    ] {
        all.push(Techniques {
            planning: false,
            pairwise,
            cbs: Cbs::Everywhere,
            cbs_pairs,
            cbs_pair_costs,
            ..Techniques::default()
        });
    }
    // Colliding groups merged without first planning one again around the others by its
    // own SAT session (`sat_repair`, on in every variant above).
    all.push(Techniques {
        sat_repair: false,
        ..Techniques::default()
    });
    // The groups' searches without keeping off the other groups' plans (`cbs_outside`).
    all.push(Techniques {
        planning: false,
        cbs: Cbs::Everywhere,
        cbs_outside: false,
        ..Techniques::default()
    });
    // The search over all agents (`cbs_whole`) by default comes after the groups' share
    // of a time limit, so never here: first, its conflicts ranked by MDDs (`cbs_mdd`;
    // `least_extra` alone is tested with and without below), with pair splits
    // (`cbs_pair_splits`, on by default in the variants above) and without.
    for cbs_pair_splits in [true, false] {
        all.push(Techniques {
            planning: false,
            cbs: Cbs::Everywhere,
            cbs_whole: Whole::First,
            cbs_pair_splits,
            ..Techniques::default()
        });
    }
    // Corridor splits (`cbs_corridors`, on in the variants above) off, in the groups'
    // searches and in the search over all agents; the same for the target splits that
    // reserve the goal for its agent (`cbs_targets`).
    // Each agent's cells in the SAT sessions within the whole reach (`own_reaches`
    // off), with planning and without.
    for planning in [true, false] {
        all.push(Techniques {
            planning,
            own_reaches: false,
            ..Techniques::default()
        });
    }
    for cbs_whole in [Whole::AfterGroups, Whole::First] {
        all.push(Techniques {
            planning: false,
            cbs: Cbs::Everywhere,
            cbs_whole,
            cbs_corridors: false,
            ..Techniques::default()
        });
        all.push(Techniques {
            planning: false,
            cbs: Cbs::Everywhere,
            cbs_whole,
            cbs_targets: false,
            ..Techniques::default()
        });
    }
    all
}

/// Solves `dataset` with `techniques` and checks the answer against `expected`: the cost,
/// the lower bound, a plan that replays legally and costs what is said.
fn check(dataset: &Dataset, techniques: Techniques, expected: Option<u64>) {
    let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
    let answer = soc::solve(grid, starts, goals, 64, techniques).unwrap();
    let context = || format!("{techniques:?}\n{}", draw(dataset));
    assert_eq!(answer.as_ref().map(|a| a.cost), expected, "{}", context());
    let Some(answer) = answer else {
        return;
    };
    let plan = answer.placements();
    assert!(check_plan(dataset, &plan).is_ok(), "{}", context());
    assert_eq!(answer.paths.len(), starts.len());
    for (path, start) in answer.paths.iter().zip(starts) {
        assert_eq!(path[0] as usize, start.index(), "{}", context());
    }
    assert_eq!(soc::sum_of_costs(&answer.paths, goals), answer.cost);
    let distances: u64 = goals
        .iter()
        .zip(starts)
        .map(|(&g, &s)| u64::from(grid.distances(g, None)[s.index()]))
        .sum();
    assert_eq!(answer.lower_bound, distances);
    assert!(answer.cost >= answer.lower_bound);
}

/// The front door with `Objective::SumOfCosts` answers `expected` too, with a proven
/// solution whose plan replays legally, costs what it says and is `steps()` long.
fn check_front_door(dataset: &Dataset, expected: Option<u64>) {
    let options = ghosts::Options {
        objective: ghosts::Objective::SumOfCosts,
        plan: true,
        memory_mib: 64,
        ..ghosts::Options::default()
    };
    let solution = ghosts::solve(dataset, &options).unwrap();
    let context = || draw(dataset);
    assert_eq!(
        solution.as_ref().map(|s| s.cost()),
        expected,
        "{}",
        context()
    );
    let Some(solution) = solution else {
        return;
    };
    assert!(solution.is_proven());
    assert_eq!(solution.lower_bound(), solution.cost());
    assert_eq!(solution.objective(), ghosts::Objective::SumOfCosts);
    let plan = solution.plan().unwrap();
    assert_eq!(check_plan(dataset, plan), Ok(plan.len()), "{}", context());
    assert_eq!(plan.len(), solution.steps() as usize);
    let mut paths: Vec<Vec<u32>> = dataset
        .starts()
        .iter()
        .map(|s| vec![s.index() as u32])
        .collect();
    for placement in plan {
        for (path, cell) in paths.iter_mut().zip(placement) {
            path.push(cell.index() as u32);
        }
    }
    assert_eq!(soc::sum_of_costs(&paths, dataset.homes()), solution.cost());
    // No step after the last agent is home for good.
    if let Some(last) = plan.len().checked_sub(2) {
        assert_ne!(&plan[last], plan.last().unwrap(), "{}", context());
    }
}

/// Instances per agent count (2..=6).
const PER_AGENTS: [usize; 7] = [0, 0, 800, 700, 500, 200, 100];

/// The longest test of the suite: the instances are drawn in order from one seed, then
/// checked on every core (the answers do not depend on the order), so that it does not
/// hold the suite up on one of them.
#[test]
fn every_technique_equals_the_exhaustive_search_on_thousands_of_tiny_maps() {
    let mut rng = SplitMix64::new(1717);
    let mut drawn = Vec::new();
    for (agents, &count) in PER_AGENTS.iter().enumerate() {
        let mut done = 0;
        while done < count {
            let width = 2 + rng.below(3);
            let height = 2 + rng.below(3);
            let walls = [0, 10, 25][rng.below(3)];
            let Some(dataset) = random_instance(&mut rng, width, height, agents, walls, |cells| {
                // The exhaustive search stores every placement it reaches (C! / (C - K)!
                // at most).
                let placements: usize = (0..agents).map(|i| cells.saturating_sub(i)).product();
                cells <= 16 && placements <= 40_000
            }) else {
                continue;
            };
            drawn.push((agents, dataset));
            done += 1;
        }
    }
    assert_eq!(drawn.len(), PER_AGENTS.iter().sum::<usize>());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Per worker: the instances it found unsolvable, and with an optimum above the bound.
    let counts: Vec<(usize, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let (mut unsolvable, mut above_bound) = (0, 0);
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((agents, dataset)) = drawn.get(i) else {
                            return (unsolvable, above_bound);
                        };
                        match compare_with_every_technique(*agents, dataset) {
                            None => unsolvable += 1,
                            Some(true) => above_bound += 1,
                            Some(false) => {}
                        }
                    }
                })
            })
            .collect();
        // A worker's failed assertion fails the test here, with its message.
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let unsolvable: usize = counts.iter().map(|c| c.0).sum();
    let above_bound: usize = counts.iter().map(|c| c.1).sum();
    // The instances must exercise both kinds of answer and optima above the bound.
    eprintln!(
        "{} compared, {unsolvable} unsolvable, {above_bound} above the bound",
        drawn.len()
    );
    assert!(unsolvable > 100, "{unsolvable}");
    assert!(above_bound > 300, "{above_bound}");
}

/// Every technique and the front door on `dataset` against the exhaustive search:
/// `None` when it has no plan, else whether its optimum is above the sum of distances.
fn compare_with_every_technique(agents: usize, dataset: &Dataset) -> Option<bool> {
    let clock = std::time::Instant::now();
    let expected = reference_soc(dataset.grid(), dataset.starts(), dataset.homes());
    let reference = clock.elapsed();
    for techniques in every_technique() {
        check(dataset, techniques, expected);
    }
    check_front_door(dataset, expected);
    if std::env::var("SOC_TIMES").is_ok() {
        eprintln!(
            "{agents} agents, {} cells, {expected:?}: reference {reference:?}, all {:?}",
            dataset.grid().cell_count(),
            clock.elapsed()
        );
    }
    let lower_bound: u64 = dataset
        .homes()
        .iter()
        .zip(dataset.starts())
        .map(|(&g, &s)| u64::from(dataset.grid().distances(g, None)[s.index()]))
        .sum();
    expected.map(|cost| cost > lower_bound)
}

#[test]
fn two_agents_swapping_ends_of_a_ring_go_opposite_ways() {
    // A ring of 3 x 6 cells: both shortest ways (5 steps along the top row) meet head on,
    // so one agent goes round the bottom (9 steps): 14.
    let grid = Grid::new(3, 6, |r, c| r != 1 || c == 0 || c == 5);
    let (a, b) = (grid.cell(0, 0).unwrap(), grid.cell(0, 5).unwrap());
    let (starts, goals) = ([a, b], [b, a]);
    assert_eq!(reference_soc(&grid, &starts, &goals), Some(14));
    for techniques in every_technique() {
        let answer = soc::solve(&grid, &starts, &goals, 64, techniques).unwrap();
        assert_eq!(answer.map(|a| (a.cost, a.lower_bound)), Some((14, 10)));
    }
}

#[test]
fn a_tree_the_up_front_test_calls_unsolvable_is_solved() {
    // An I-beam of 7 cells, 5 agents: the ends of the bottom row trade places through the
    // stem. The up-front -1 test once answered `Never` here (tests/solvable.rs pins it).
    let grid = Grid::new(3, 3, |r, c| r != 1 || c == 1);
    let id = CellId::new;
    let starts = [id(0), id(6), id(5), id(4), id(1)];
    let goals = [id(0), id(4), id(5), id(6), id(3)];
    assert_eq!(reference_soc(&grid, &starts, &goals), Some(15));
    for techniques in every_technique() {
        let answer = soc::solve(&grid, &starts, &goals, 64, techniques).unwrap();
        assert_eq!(answer.map(|a| a.cost), Some(15));
    }
}

/// A tiny instance of 2 to 5 agents on at most 16 cells (few enough placements for the
/// exhaustive search) that has a plan, with its optimum's extra steps over the sum of the
/// agents' distances; `None` when the draw is too large or has no plan.
/// Agent `a`'s distance home in `dataset`.
/// What a test lets the proof do: go on to the end (`never` stops it, no deadline), from
/// no plan, with no search beside; the search over all agents late from `whole_late_from`.
fn untimed(
    never: &mut dyn FnMut() -> bool,
    whole_late_from: ghosts::internals::mapf::sat::Deadline,
) -> soc::Within<'_> {
    use ghosts::internals::mapf::sat::Deadline;
    soc::Within {
        stop: never,
        deadline: Deadline(None),
        first: None,
        first_bound: 0,
        whole_from: Deadline(None),
        whole_late_from,
        beside: None,
        raised: None,
    }
}

fn distance(dataset: &Dataset, a: usize) -> u64 {
    let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
    u64::from(grid.distances(goals[a], None)[starts[a].index()])
}

fn tiny_with_optimum(rng: &mut SplitMix64) -> Option<(Dataset, u32)> {
    let agents = 2 + rng.below(4);
    let width = 2 + rng.below(3);
    let height = 2 + rng.below(3);
    let walls = [0, 10, 25][rng.below(3)];
    let dataset = random_instance(rng, width, height, agents, walls, |cells| {
        let placements: usize = (0..agents).map(|i| cells.saturating_sub(i)).product();
        cells <= 16 && placements <= 40_000
    })?;
    let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
    let optimum = reference_soc(grid, starts, goals)?;
    let distances: u64 = (0..agents).map(|a| distance(&dataset, a)).sum();
    Some((dataset, u32::try_from(optimum - distances).unwrap()))
}

/// Runs `check` on tiny instances drawn from `seed` whose optimum the exhaustive search
/// knows, until `count` of them are counted (`check` answers whether one counts: false
/// skips it): the dataset, the optimum's extra steps over the distances, the instance,
/// all its agents, and the generator for the check's own draws.
fn on_tiny_instances(
    seed: u64,
    count: usize,
    mut check: impl FnMut(
        &Dataset,
        u32,
        &ghosts::internals::mapf::Instance,
        &[usize],
        &mut SplitMix64,
    ) -> bool,
) {
    let mut rng = SplitMix64::new(seed);
    let mut counted = 0;
    while counted < count {
        let Some((dataset, gap)) = tiny_with_optimum(&mut rng) else {
            continue;
        };
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let instance = ghosts::internals::mapf::Instance::new(grid, starts, goals);
        let everyone: Vec<usize> = (0..starts.len()).collect();
        counted += usize::from(check(&dataset, gap, &instance, &everyone, &mut rng));
    }
}

/// The two lower bounds against the exhaustive search on tiny maps: each pair's extra
/// steps of the pairwise bound are the two agents' own optimum (the reference on the two
/// alone), decided by SAT and by conflict-based search first, the vertex cover never
/// passes the optimum's extra steps, and the core-guided
/// bound of a session on every agent reaches exactly the optimum's extra steps when its
/// reach allows them (and never passes them with half the reach).
#[test]
fn the_lower_bounds_meet_the_exhaustive_optimum_and_never_pass_it() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::{Session, Sessions};
    use ghosts::internals::mapf::soc::pair_cost::{Rules, Walker, pair_extra};
    use ghosts::internals::mapf::soc::pairwise::pairwise_bound;

    let (mut pairs_above, mut bound_above, mut pairs_costed) = (0, 0, 0);
    on_tiny_instances(1719, 400, |dataset, gap, instance, everyone, _| {
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let agents = starts.len();
        let distance = |a: usize| distance(dataset, a);
        let context = || draw(dataset);
        let bound = pairs_by_sat(instance);
        let by_cbs = pairwise_bound(
            instance,
            64,
            u64::MAX,
            &Sessions::new(true, Deadline(None)),
            Cbs::Everywhere,
        );
        for a in 0..agents {
            for b in a + 1..agents {
                let pair = reference_soc(grid, &[starts[a], starts[b]], &[goals[a], goals[b]])
                    .unwrap()
                    - distance(a)
                    - distance(b);
                for bound in [&bound, &by_cbs] {
                    let found = bound
                        .pairs
                        .iter()
                        .find(|p| (p.first, p.second) == (a, b))
                        .map_or(0, |p| u64::from(p.extra));
                    assert_eq!(found, pair, "pair {a} {b}\n{}", context());
                }
                // The increasing-cost search of the pair (no constraints) finds it too.
                let rules = [Rules::default(), Rules::default()];
                let rules = rules.map(|r| Rules { after: -1, ..r });
                let walkers = [a, b].map(|x| (x, u32::try_from(distance(x)).unwrap()));
                let walkers = [0, 1].map(|i| Walker {
                    agent: walkers[i].0,
                    rules: &rules[i],
                    least: walkers[i].1,
                });
                let costed = pair_extra(instance, [&walkers[0], &walkers[1]], 0, 64, u64::MAX);
                // Exact, unless cut short after its few values of Delta (then at most it).
                let extra = u64::from(costed.extra);
                assert!(extra <= pair, "pair {a} {b}\n{}", context());
                assert!(
                    costed.gave_up || extra == pair,
                    "pair {a} {b}\n{}",
                    context()
                );
                assert_eq!(costed.paths.is_some(), pair == 0, "{}", context());
                if let Some([p, q]) = costed.paths {
                    let at = |path: &[u32], t: usize| path[t.min(path.len() - 1)];
                    assert_eq!(p.len() as u64, distance(a) + 1);
                    assert_eq!(q.len() as u64, distance(b) + 1);
                    for t in 0..p.len().max(q.len()) {
                        assert_ne!(at(&p, t), at(&q, t), "{}", context());
                        if t > 0 {
                            let swap = at(&p, t) == at(&q, t - 1) && at(&q, t) == at(&p, t - 1);
                            assert!(!swap, "{}", context());
                        }
                    }
                }
                pairs_costed += usize::from(!costed.gave_up);
            }
        }
        assert!(bound.extra <= gap, "{} > {gap}\n{}", bound.extra, context());
        let mut session = Session::new(instance, everyone, gap, Deadline(None), &bound.pairs);
        assert_eq!(session.raise(instance), gap, "{}", context());
        let mut session = Session::new(instance, everyone, gap / 2, Deadline(None), &[]);
        assert!(session.raise(instance) <= gap, "{}", context());
        pairs_above += usize::from(!bound.pairs.is_empty());
        bound_above += usize::from(bound.extra > 0 && bound.extra < gap);
        true
    });
    // Pairs that take extra steps, and bounds strictly between 0 and the optimum.
    assert!(pairs_above > 50, "{pairs_above}");
    assert!(bound_above > 5, "{bound_above}");
    assert!(pairs_costed > 400, "{pairs_costed}");
}

/// The cores of one session replayed in another ([`Session::replay`]) keep the
/// core-guided bound exact, against the exhaustive search on tiny maps: cores found with
/// a narrow reach, replayed in a session of the optimum's reach, and cores found on two
/// halves of the agents apart, both replayed in a session on all of them (as a merge of
/// two groups does): the bound raised from there is the optimum's extra steps, never
/// more (on instances whose optimum takes extra steps). A log is never replayed in a session lacking some of its agents.
#[test]
fn cores_replayed_in_a_wider_session_keep_the_bound_exact() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::Session;

    let (mut replayed_narrow, mut replayed_halves) = (0, 0);
    on_tiny_instances(1723, 150, |dataset, gap, instance, everyone, rng| {
        if gap == 0 {
            // Nothing to prove beyond the distances.
            return false;
        }
        let context = || draw(dataset);
        // A narrow reach first, then the optimum's.
        let narrow = rng.below(gap as usize + 1) as u32;
        let mut first = Session::new(instance, everyone, narrow, Deadline(None), &[]);
        assert!(first.raise(instance) <= gap, "{}", context());
        let log = first.log();
        let mut wide = Session::new(instance, everyone, gap, Deadline(None), &[]);
        assert_eq!(wide.replay(&log), log.len(), "{}", context());
        assert_eq!(wide.raise(instance), gap, "{}", context());
        replayed_narrow += usize::from(!log.is_empty());
        // Two halves apart, then all.
        let (left, right) = everyone.split_at(everyone.len() / 2);
        let mut logs = Vec::new();
        for half in [left, right] {
            let mut session = Session::new(instance, half, gap, Deadline(None), &[]);
            assert!(session.raise(instance) <= gap, "{}", context());
            logs.push(session.log());
        }
        let mut all = Session::new(instance, everyone, gap, Deadline(None), &[]);
        for log in &logs {
            assert_eq!(all.replay(log), log.len(), "{}", context());
        }
        assert_eq!(all.raise(instance), gap, "{}", context());
        replayed_halves += usize::from(logs.iter().any(|log| !log.is_empty()));
        // A log of all the agents is not replayed in a session of half of them.
        let mut half = Session::new(instance, right, gap, Deadline(None), &[]);
        assert_eq!(half.replay(&all.log()), 0, "{}", context());
        true
    });
    // Logs with cores in both settings.
    assert!(replayed_narrow > 30, "{replayed_narrow}");
    assert!(replayed_halves > 30, "{replayed_halves}");
}

/// Two agents crossing an open square, one left to right and down a row, the other top
/// to bottom and right a column: every two shortest paths meet (each cell both pass is
/// reached at the same time by both), at a place that depends on the paths, so no vertex
/// split raises a child's cost; the pair's bound (one extra step) splits the node into
/// "one of them takes longer", and the search answers the reference's optimum, with the
/// pair splits and without.
#[test]
fn two_agents_crossing_an_open_square_are_split_as_a_pair() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::cbs::{
        Classify, Outside, PairCosts, Searched, Targets, least_extra,
    };
    use ghosts::internals::mapf::soc::corridor::Corridors;
    use ghosts::internals::mapf::soc::encoding::Sessions;
    use ghosts::internals::mapf::soc::pairwise::pairwise_bound;
    use ghosts::internals::mapf::soc::symmetry::PairSplits;

    let grid = Grid::new(4, 4, |_, _| true);
    let at = |r, c| grid.cell(r, c).unwrap();
    let (starts, goals) = ([at(1, 0), at(0, 1)], [at(2, 3), at(3, 2)]);
    assert_eq!(reference_soc(&grid, &starts, &goals), Some(9));
    let instance = ghosts::internals::mapf::Instance::new(&grid, &starts, &goals);
    let bound = pairwise_bound(
        &instance,
        64,
        u64::MAX,
        &Sessions::new(true, Deadline(None)),
        Cbs::Off,
    );
    assert_eq!(bound.extra, 1);
    for (pair_costs, classify) in [
        (PairCosts::Instance, Classify::Earliest),
        (PairCosts::UnderConstraints, Classify::Mdd),
    ] {
        for on in [true, false] {
            let mut splits = PairSplits { on, made: 0 };
            let searched = least_extra(
                &instance,
                &[0, 1],
                0,
                &bound.pairs,
                pair_costs,
                classify,
                &mut splits,
                &mut Corridors::off(),
                &mut Targets::off(),
                4,
                64 << 20,
                Deadline(None),
                &mut u64::MAX.clone(),
                usize::MAX,
                &Outside::none(),
            );
            assert!(
                matches!(searched, Searched::Plan { extra: 1, .. }),
                "{pair_costs:?} {classify:?} {on} {searched:?}"
            );
            assert_eq!(splits.made > 0, on, "{pair_costs:?} {classify:?}");
        }
    }
}

/// Two agents swapping sides through a corridor of three cells (in the second map, a
/// pocket below its middle cell leaves two corridors of one cell, and a way for one to
/// step aside): every vertex or edge split moves their head-on meeting one step along,
/// while one corridor split ("the first does not reach its far end before the second
/// has come through", or the other way round) settles it. The search answers the
/// reference's optimum with the corridor splits and without, and with them makes at
/// least one, and fewer low-level searches in the corridor of three cells.
#[test]
fn two_agents_head_on_in_a_corridor_are_split_once() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::cbs::{
        Classify, Outside, PairCosts, Searched, Targets, least_extra,
    };
    use ghosts::internals::mapf::soc::corridor::Corridors;
    use ghosts::internals::mapf::soc::symmetry::PairSplits;

    let maps: [&[&str]; 2] = [
        &["..###..", ".......", "..###.."],
        &["..###..", ".......", "..#.#.."],
    ];
    for rows in maps {
        let grid = Grid::new(rows.len(), rows[0].len(), |r, c| {
            rows[r].as_bytes()[c] == b'.'
        });
        let at = |r, c| grid.cell(r, c).unwrap();
        let (starts, goals) = ([at(1, 0), at(1, 6)], [at(1, 6), at(1, 0)]);
        let optimum = reference_soc(&grid, &starts, &goals).unwrap();
        let gap = u32::try_from(optimum - 12).unwrap();
        let instance = ghosts::internals::mapf::Instance::new(&grid, &starts, &goals);
        let mut spent = Vec::new();
        for (pair_costs, classify) in [
            (PairCosts::Instance, Classify::Earliest),
            (PairCosts::UnderConstraints, Classify::Mdd),
        ] {
            for on in [true, false] {
                let mut corridors = Corridors { on, made: 0 };
                let mut searches = 100_000u64;
                let searched = least_extra(
                    &instance,
                    &[0, 1],
                    0,
                    &[],
                    pair_costs,
                    classify,
                    &mut PairSplits::off(),
                    &mut corridors,
                    &mut Targets::off(),
                    gap + 4,
                    64 << 20,
                    Deadline(None),
                    &mut searches,
                    usize::MAX,
                    &Outside::none(),
                );
                assert!(
                    matches!(searched, Searched::Plan { extra, .. } if extra == gap),
                    "{rows:?} {pair_costs:?} {classify:?} {on} {searched:?} {gap}"
                );
                assert_eq!(
                    corridors.made > 0,
                    on,
                    "{rows:?} {pair_costs:?} {classify:?}"
                );
                spent.push(100_000 - searches);
            }
            // Fewer in the corridor of three cells; where one steps aside, either way.
            let (with, without) = (spent[spent.len() - 2], spent[spent.len() - 1]);
            assert!(with < without || rows[2] == "..#.#..", "{rows:?} {spent:?}");
        }
    }
}

/// Conflict-based search alone against the exhaustive search on tiny maps, with the
/// pairs' bounds on its nodes and without, and with few low-level searches allowed: a
/// plan is the optimum's, and every bound it proves, when it gives up too, is at most
/// the optimum's extra steps (the bound answered when the deadline or the searches run
/// out).
#[test]
fn conflict_based_search_bounds_never_pass_the_optimum() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::cbs::{
        Classify, Outside, PairCosts, Searched, Targets, least_extra,
    };
    use ghosts::internals::mapf::soc::corridor::Corridors;
    use ghosts::internals::mapf::soc::symmetry::PairSplits;

    let (mut gave_up, mut raised, mut split, mut corridor_splits) = (0, 0, 0, 0);
    let (mut target_splits, mut replanned) = (0, 0);
    let mut walks = SplitMix64::new(1722);
    on_tiny_instances(1721, 150, |dataset, gap, instance, everyone, _| {
        let bound = pairs_by_sat(instance);
        // Plans outside the group, which change only the choice among equal paths.
        let outside = Outside::of(
            random_walks(instance.grid, &mut walks)
                .iter()
                .map(|(path, goal)| (&path[..], *goal)),
        );
        let none = Outside::none();
        // Pair splits (`symmetry`) off and on; corridor splits (`corridor`) off and on;
        // target splits that reserve the goal (`Targets`) off and on.
        let variants = [
            (
                &bound.pairs[..],
                PairCosts::Instance,
                Classify::Earliest,
                false,
                false,
                false,
            ),
            (&[], PairCosts::Instance, Classify::Mdd, false, true, true),
            (
                &[],
                PairCosts::Instance,
                Classify::Earliest,
                false,
                false,
                true,
            ),
            (
                &bound.pairs[..],
                PairCosts::UnderConstraints,
                Classify::Mdd,
                false,
                false,
                true,
            ),
            (
                &bound.pairs[..],
                PairCosts::Instance,
                Classify::Earliest,
                true,
                true,
                true,
            ),
            (
                &bound.pairs[..],
                PairCosts::UnderConstraints,
                Classify::Mdd,
                true,
                true,
                false,
            ),
        ];
        for (pairs, pair_costs, classify, on, corridors, targets) in variants {
            for allowance in [gap.saturating_sub(1), gap, gap + 2] {
                for budget in [2, 8, 64, 20_000] {
                    let mut searches = budget;
                    let mut splits = PairSplits { on, made: 0 };
                    let mut corridor = Corridors {
                        on: corridors,
                        made: 0,
                    };
                    let mut target = Targets {
                        on: targets,
                        ..Targets::off()
                    };
                    let searched = least_extra(
                        instance,
                        everyone,
                        0,
                        pairs,
                        pair_costs,
                        classify,
                        &mut splits,
                        &mut corridor,
                        &mut target,
                        allowance,
                        64 << 20,
                        Deadline(None),
                        &mut searches,
                        // Cut by a stall of the bound too, once.
                        if budget == 64 { 4 } else { usize::MAX },
                        // Half the searches with plans outside.
                        if budget >= 64 { &outside } else { &none },
                    );
                    let context = || {
                        format!(
                            "{pair_costs:?} {classify:?} {on} {corridors} {targets} {allowance} {budget} {searched:?}\n{}",
                            draw(dataset)
                        )
                    };
                    match searched {
                        Searched::Plan { extra, .. } => assert_eq!(extra, gap, "{}", context()),
                        Searched::AtLeast(least) => {
                            assert!(least <= gap && allowance < gap, "{}", context());
                        }
                        Searched::GaveUp(least) | Searched::Stopped(least) => {
                            assert!(least <= gap, "{}", context());
                            gave_up += 1;
                            raised += usize::from(least > 0);
                        }
                    }
                    split += splits.made;
                    corridor_splits += corridor.made;
                    assert!(targets || target.made == 0);
                    target_splits += target.made;
                    replanned += target.replanned;
                }
            }
        }
        true
    });
    // Searches cut short, some with a bound above zero; nodes split on pairs (2849 of
    // them) and on corridors (110).
    assert!(gave_up > 50, "{gave_up}");
    assert!(raised > 10, "{raised}");
    assert!(split > 1000, "{split}");
    assert!(corridor_splits > 50, "{corridor_splits}");
    assert!(target_splits > 50, "{target_splits}");
    assert!(replanned > 1000, "{replanned}");
    println!("target splits {target_splits}, agents replanned {replanned}");
}

/// One to three random walks of 1 to 12 steps on `grid`, each with its last cell as its
/// goal: plans outside a group for [`least_extra`](ghosts::internals::mapf::soc::cbs::least_extra).
fn random_walks(grid: &Grid, rng: &mut SplitMix64) -> Vec<(Vec<u32>, u32)> {
    (0..1 + rng.below(3))
        .map(|_| {
            let mut cell = CellId::new(rng.below(grid.cell_count()));
            let mut path = vec![cell.index() as u32];
            for _ in 0..1 + rng.below(12) {
                let next: Vec<CellId> = grid.neighbours(cell).map(|(_, c)| c).collect();
                if !next.is_empty() && rng.below(4) > 0 {
                    cell = next[rng.below(next.len())];
                }
                path.push(cell.index() as u32);
            }
            (path, cell.index() as u32)
        })
        .collect()
}

/// Conflict-based search on a group takes, among its least-cost paths, one that keeps
/// off the plans outside the group ([`Outside`](ghosts::internals::mapf::soc::cbs::Outside)):
/// an agent crossing an open square, with a plan outside that stays on a cell of the path
/// the search takes without it, keeps off that cell with it, at the same cost.
#[test]
fn conflict_based_search_keeps_off_the_plans_outside_the_group() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::cbs::{Outside, PairCosts, Searched, Targets, least_extra};
    use ghosts::internals::mapf::soc::corridor::Corridors;
    use ghosts::internals::mapf::soc::symmetry::PairSplits;

    let grid = Grid::new(5, 5, |_, _| true);
    let (starts, goals) = ([grid.cell(0, 0).unwrap()], [grid.cell(4, 4).unwrap()]);
    let instance = ghosts::internals::mapf::Instance::new(&grid, &starts, &goals);
    let search = |outside: &Outside| match least_extra(
        &instance,
        &[0],
        0,
        &[],
        PairCosts::Instance,
        Default::default(),
        &mut PairSplits { on: false, made: 0 },
        &mut Corridors::off(),
        &mut Targets::off(),
        0,
        64 << 20,
        Deadline(None),
        &mut u64::MAX.clone(),
        usize::MAX,
        outside,
    ) {
        Searched::Plan {
            extra: 0,
            mut paths,
        } => paths.pop().unwrap(),
        other => panic!("{other:?}"),
    };
    let alone = search(&Outside::none());
    // Each cell of the path between its ends, held for the whole plan by an agent outside.
    for &held in &alone[1..alone.len() - 1] {
        let stay = vec![held; alone.len()];
        let kept_off = search(&Outside::of([(&stay[..], held)]));
        assert_eq!(kept_off.len(), alone.len());
        assert!(!kept_off.contains(&held), "{alone:?} {kept_off:?} {held}");
    }
}

/// Sessions that fill the memory ([`Sessions::filling`]) decide the budgets as the
/// exhaustive search does: on tiny maps, with a room between what reach Delta and the
/// usual reach need, every budget below the optimum's extra steps is impossible and the
/// optimum's has a plan within it, with the core-guided raise and without; and some
/// sessions were built at a reach strictly between the two.
#[test]
fn sessions_filling_the_memory_decide_every_budget_exactly() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::{Sessions, count_variables};

    let mut between = 0;
    on_tiny_instances(1733, 150, |dataset, gap, instance, everyone, rng| {
        let (starts, goals) = (dataset.starts(), dataset.homes());
        let context = || draw(dataset);
        let count = |reach: u32| count_variables(instance, everyone, reach);
        let (low, high) = (count(gap), count(gap + gap / 4 + 2));
        // A room that holds reach `gap` (so no budget up to it is too large) and often not
        // the usual reach.
        let max_variables = low + rng.below((high - low) as usize * 5 / 4 + 1) as u64;
        for core_guided in [false, true] {
            let mut sessions = if core_guided {
                Sessions::core_guided(true, Deadline(None))
            } else {
                Sessions::new(true, Deadline(None))
            }
            .filling(true);
            let paths = decide_up_to_the_optimum(
                &mut sessions,
                instance,
                everyone,
                (gap, max_variables),
                &context,
                &mut |sessions, delta| {
                    let variables = sessions.variables();
                    let usual = count(delta + delta / 4 + 2);
                    between += usize::from(variables > count(delta) && variables < usual);
                },
            );
            let distances: u64 = (0..starts.len())
                .map(|a| u64::from(instance.distance(a, starts[a])))
                .sum();
            let cost = soc::sum_of_costs(&paths, goals);
            assert!(cost <= distances + u64::from(gap), "{}", context());
        }
        true
    });
    assert!(between > 20, "{between}");
}

/// The pairwise bound of `instance`, every pair decided by SAT up to 64 extra steps.
fn pairs_by_sat(
    instance: &ghosts::internals::mapf::Instance,
) -> ghosts::internals::mapf::soc::pairwise::PairwiseBound {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::Sessions;
    ghosts::internals::mapf::soc::pairwise::pairwise_bound(
        instance,
        64,
        u64::MAX,
        &Sessions::new(true, Deadline(None)),
        Cbs::Off,
    )
}

/// Decides the budgets of `everyone` in `sessions` from 0 up (skipping those a decision
/// proved impossible), each within `room.1` variables, until one has a plan, which must
/// be at the optimum's extra steps `room.0`, no budget up to it proved impossible beyond
/// its own; `seen` is told the sessions and the budget after each decision. The plan's
/// paths.
fn decide_up_to_the_optimum(
    sessions: &mut ghosts::internals::mapf::soc::encoding::Sessions,
    instance: &ghosts::internals::mapf::Instance,
    everyone: &[usize],
    (gap, max_variables): (u32, u64),
    context: &dyn Fn() -> String,
    seen: &mut dyn FnMut(&ghosts::internals::mapf::soc::encoding::Sessions, u32),
) -> Vec<Vec<u32>> {
    use ghosts::internals::mapf::soc::encoding::Decision;
    let mut delta = 0;
    loop {
        let decided = sessions.decide(instance, everyone, delta, max_variables);
        seen(sessions, delta);
        match decided.unwrap() {
            Decision::Plan(paths) => {
                assert_eq!(delta, gap, "{}", context());
                return paths;
            }
            Decision::Impossible => {
                delta = (delta + 1).max(sessions.proven());
                assert!(delta <= gap, "{}", context());
            }
            Decision::Stopped => unreachable!(),
        }
    }
}

/// Own reaches (`Sessions::own_reaches`): with the pairwise bound's pairs as clauses and
/// each agent's cells reaching only the session's reach less what the other agents take
/// at least by those pairs, a session of any reach from the optimum's extra steps up
/// decides every budget within it as the exhaustive search does (impossible below the
/// optimum, a plan that replays legally and costs at most the budget from it), its
/// core-guided bound never passes the optimum, and the sessions that build themselves
/// (core-guided and not) meet the optimum budget by budget. Some encodings are strictly
/// smaller than with the whole reach for every agent, else the test checks nothing new.
#[test]
fn own_reaches_decide_every_budget_exactly() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::{
        Decision, Session, Sessions, count_own_variables, count_variables, others_least,
    };

    let (mut smaller, mut decided) = (0, 0);
    on_tiny_instances(1741, 150, |dataset, gap, instance, everyone, rng| {
        let goals = dataset.homes();
        let context = || draw(dataset);
        let bound = pairs_by_sat(instance);
        if bound.pairs.is_empty() {
            return false;
        }
        let distances: u64 = (0..everyone.len())
            .map(|a| u64::from(instance.distance(a, dataset.starts()[a])))
            .sum();
        let legal = |paths: Vec<Vec<u32>>, budget: u32| {
            let plan = soc::SocPlan {
                cost: soc::sum_of_costs(&paths, goals),
                lower_bound: distances,
                paths,
            };
            assert!(plan.cost <= distances + u64::from(budget), "{}", context());
            assert!(
                check_plan(dataset, &plan.placements()).is_ok(),
                "{}",
                context()
            );
        };
        let reach = gap + rng.below(4) as u32;
        let floors = others_least(everyone, everyone, &bound.pairs);
        smaller += usize::from(
            count_own_variables(instance, everyone, reach, &floors)
                < count_variables(instance, everyone, reach),
        );
        let mut session = Session::configured(
            instance,
            everyone,
            reach,
            Deadline(None),
            &bound.pairs,
            true,
            true,
        );
        assert!(session.raise(instance) <= gap, "{}", context());
        for delta in 0..=reach {
            match session.decide(instance, delta) {
                Decision::Plan(paths) => {
                    assert!(delta >= gap, "plan at {delta} < {gap}\n{}", context());
                    legal(paths, delta);
                }
                Decision::Impossible => {
                    assert!(delta < gap, "impossible at {delta} >= {gap}\n{}", context())
                }
                Decision::Stopped => unreachable!(),
            }
            decided += 1;
        }
        for core_guided in [false, true] {
            let mut sessions = if core_guided {
                Sessions::core_guided(true, Deadline(None))
            } else {
                Sessions::new(true, Deadline(None))
            }
            .plain(true)
            .own_reaches(true);
            sessions.set_pairs(bound.pairs.clone());
            let paths = decide_up_to_the_optimum(
                &mut sessions,
                instance,
                everyone,
                (gap, u64::MAX),
                &context,
                &mut |_, _| {},
            );
            legal(paths, gap);
        }
        true
    });
    assert!(smaller > 50, "{smaller}");
    assert!(decided > 500, "{decided}");
}

/// A session whose deadline has passed before its clauses are written is cut short: it
/// decides nothing (`Stopped`), its raise proves nothing, and sessions that would build it
/// answer `Stopped` too, on instances whose optimum takes extra steps (so that a decision
/// at 0 would otherwise be a SAT call).
#[test]
fn a_session_cut_by_its_deadline_decides_nothing() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::{Decision, Session};

    on_tiny_instances(1747, 20, |_, gap, instance, everyone, _| {
        if gap == 0 {
            return false;
        }
        let passed = Deadline(Some(std::time::Instant::now()));
        let mut session = Session::configured(instance, everyone, gap, passed, &[], true, true);
        assert!(session.cut());
        assert_eq!(session.raise(instance), 0);
        assert_eq!(session.decide(instance, gap), Decision::Stopped);
        let whole = Session::configured(instance, everyone, gap, Deadline(None), &[], true, true);
        assert!(!whole.cut());
        true
    });
}

/// The search over all agents after the groups on the instances `Cbs::Large` does not
/// give it (`cbs_whole_late`), with the groups' share already over when the proof starts
/// (their SAT decisions stop at the first check of the clock, which a tiny encoding may
/// not reach) and no deadline of its own: the answer is the exhaustive optimum, and the
/// bound answered equals it (the switch off is the groups' SAT decisions, tested above;
/// on this test's hardest instance they take 33 s, where the search gives up at its 4 MiB
/// in 0.9 s).
#[test]
fn the_search_over_all_agents_after_the_groups_answers_the_optimum() {
    use ghosts::internals::mapf::sat::Deadline;

    for whole_stall_back in [false, true] {
        let mut gave_up = 0;
        on_tiny_instances(1741, 100, |dataset, gap, _, _, _| {
            let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
            let distances: u64 = (0..starts.len()).map(|a| distance(dataset, a)).sum();
            let mut never = || false;
            let within = untimed(&mut never, Deadline(Some(std::time::Instant::now())));
            let techniques = Techniques {
                planning: false,
                cbs_whole_late: true,
                whole_late_cells: 0,
                whole_stall_back,
                ..Techniques::default()
            };
            // Past its memory the search gives up, claiming nothing (with the stall
            // back, the groups take the time back and answer).
            let Ok(found) = soc::solve_within(grid, starts, goals, 4, techniques, within) else {
                gave_up += 1;
                return true;
            };
            let (plan, bound) = found.unwrap();
            assert_eq!(plan.cost, distances + u64::from(gap), "{}", draw(dataset));
            assert_eq!(bound, plan.cost, "{}", draw(dataset));
            assert!(check_plan(dataset, &plan.placements()).is_ok());
            true
        });
        if whole_stall_back {
            assert_eq!(gave_up, 0);
        } else {
            assert!(gave_up <= 10, "{gave_up}");
        }
    }
}

/// A search beside the proof ([`soc::Beside`]) that has a plan of the optimum's cost stops
/// the proof as soon as its bound meets that cost, and never later nor sooner: the bound
/// answered is exactly the exhaustive optimum, with the proof's own best plan (here a
/// legal plan one wait longer than the optimum's, so that it cannot end the proof itself).
#[test]
fn a_plan_found_beside_stops_the_proof_at_its_cost_and_not_before() {
    use ghosts::internals::mapf::sat::Deadline;
    use std::sync::atomic::Ordering::Relaxed;

    let mut stopped_by_beside = 0;
    on_tiny_instances(1753, 200, |dataset, gap, _, _, _| {
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let Ok(Some(optimal)) = soc::solve(grid, starts, goals, 64, Techniques::default()) else {
            panic!("no optimum: {}", draw(dataset));
        };
        let optimum = optimal.cost;
        assert_eq!(
            optimum,
            optimal.lower_bound + u64::from(gap),
            "{}",
            draw(dataset)
        );
        // Everyone waits one step first: legal, and dearer unless nobody moves.
        let padded: Vec<Vec<u32>> = optimal
            .paths
            .iter()
            .map(|path| {
                std::iter::once(path[0])
                    .chain(path.iter().copied())
                    .collect()
            })
            .collect();
        if soc::sum_of_costs(&padded, goals) == optimum {
            return false;
        }
        let beside = soc::Beside::default();
        beside.found.store(optimum, Relaxed);
        let mut never = || false;
        let within = soc::Within {
            stop: &mut never,
            deadline: Deadline(None),
            first: Some(padded),
            first_bound: 0,
            whole_from: Deadline(None),
            whole_late_from: Deadline(None),
            beside: Some(&beside),
            raised: None,
        };
        let (plan, bound) =
            soc::solve_within(grid, starts, goals, 64, Techniques::default(), within)
                .unwrap()
                .unwrap();
        assert_eq!(bound, optimum, "{}", draw(dataset));
        assert!(plan.cost >= bound, "{}", draw(dataset));
        assert!(beside.bound.load(Relaxed) <= optimum, "{}", draw(dataset));
        assert!(check_plan(dataset, &plan.placements()).is_ok());
        stopped_by_beside += usize::from(plan.cost > bound);
        true
    });
    // The proof must have been stopped by the plan beside, not ended by a plan of its own.
    assert!(stopped_by_beside > 150, "{stopped_by_beside}");
}

/// The bound of groups and pairs together (`pairwise::cover_with_groups`, what the
/// groups answer a budget with) against the exhaustive search on tiny maps: the agents
/// split at random into groups and agents outside them, each group's least its own
/// optimum's extra steps (the reference on its agents alone) or less, the pairs those of
/// the pairwise bound. The bound never passes the optimum's extra steps and is at least
/// the sum of the leasts; some are strictly above the sum (pairs outside the groups
/// counted) and some strictly above the pairs' own cover (the groups' leasts counted).
#[test]
fn groups_and_pairs_together_never_pass_the_optimum() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::pairwise::{cover_with_groups, min_cover};

    let (mut above_leasts, mut above_cover, mut checked) = (0, 0, 0);
    on_tiny_instances(2024, 400, |dataset, gap, instance, _, rng| {
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let agents = starts.len();
        let distance = |a: usize| distance(dataset, a);
        let bound = pairs_by_sat(instance);
        for _ in 0..4 {
            // Group of each agent: 0 is none.
            let of: Vec<usize> = (0..agents).map(|_| rng.below(3)).collect();
            let mut groups: Vec<(Vec<usize>, u32)> = Vec::new();
            for g in 1..3 {
                let members: Vec<usize> = (0..agents).filter(|&a| of[a] == g).collect();
                if members.is_empty() {
                    continue;
                }
                let s: Vec<CellId> = members.iter().map(|&a| starts[a]).collect();
                let h: Vec<CellId> = members.iter().map(|&a| goals[a]).collect();
                let optimum = reference_soc(grid, &s, &h).unwrap();
                let least = optimum - members.iter().map(|&a| distance(a)).sum::<u64>();
                let least = u32::try_from(least).unwrap();
                // Sometimes one less: a least proven short of the group's optimum.
                let short = u32::from(least > 0 && rng.below(2) == 1);
                groups.push((members, least - short));
            }
            let leasts: u32 = groups.iter().map(|g| g.1).sum();
            let groups: Vec<(&[usize], u32)> = groups.iter().map(|(m, l)| (&m[..], *l)).collect();
            let together = cover_with_groups(agents, &groups, &bound.pairs, 10_000, Deadline(None));
            assert!(together <= gap, "{together} > {gap}\n{}", draw(dataset));
            assert!(
                together >= leasts,
                "{together} < {leasts}\n{}",
                draw(dataset)
            );
            above_leasts += usize::from(together > leasts);
            above_cover += usize::from(together > min_cover(agents, &bound.pairs));
            checked += 1;
        }
        true
    });
    assert!(above_leasts > 20, "{above_leasts} of {checked}");
    assert!(above_cover > 20, "{above_cover} of {checked}");
}

/// When the groups' SAT encodings pass the memory, the search over all agents takes the
/// rest of the time, on any map: on 8 x 8 maps with 10 agents and 1 MiB, instances the
/// groups leave unproven without it (conflict-based search off: their encodings do not
/// fit) are proven by it at the optimum that 256 MiB gives (14 of 30), and every bound
/// answered stays at or below that optimum. (Its share of the time never comes by the
/// clock here: there is none on maps this small.)
#[test]
fn the_search_over_all_agents_takes_over_when_the_groups_pass_the_memory() {
    use ghosts::internals::mapf::sat::Deadline;
    let mut rng = SplitMix64::new(4242);
    let (mut full, mut taken_over) = (0, 0);
    for _ in 0..40 {
        let Some(dataset) = common::random_instance(&mut rng, 8, 8, 10, 20, |_| true) else {
            continue;
        };
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let optimum = soc::solve(grid, starts, goals, 256, Techniques::default())
            .unwrap()
            .map(|plan| plan.cost);
        let run = |cbs: Cbs| {
            let mut never = || false;
            let within = untimed(&mut never, Deadline(None));
            let techniques = Techniques {
                planning: false,
                cbs,
                ..Techniques::default()
            };
            soc::solve_within(grid, starts, goals, 1, techniques, within)
        };
        let proven = |answer: &Result<Option<(soc::SocPlan, u64)>, _>| matches!(answer, Ok(Some((plan, bound))) if plan.cost == *bound);
        if proven(&run(Cbs::Off)) {
            continue;
        }
        full += 1;
        let answer = run(Cbs::Large);
        if let Ok(Some((plan, bound))) = &answer {
            assert!(Some(*bound) <= optimum, "{}", draw(&dataset));
            assert!(check_plan(&dataset, &plan.placements()).is_ok());
        }
        if proven(&answer) {
            assert_eq!(answer.unwrap().map(|(plan, _)| plan.cost), optimum);
            taken_over += 1;
        }
    }
    assert!(full >= 10, "{full}");
    // 14 of 30 with this seed (the search gives up past its own memory on the others);
    // none without the turn.
    assert!(taken_over >= 10, "{taken_over} of {full}");
}

/// A session's plan that keeps off other agents' paths ([`Session::plan_avoiding`]) on
/// tiny maps: with the other agents' paths of an optimal plan, the session's agents have
/// one within their share of its extra steps, and the plan given starts on their starts,
/// costs no more, and neither meets nor swaps with the others' paths or among
/// themselves; below their own least the answer is a core; and the
/// paths kept off leave nothing behind (the session decides its least as before).
#[test]
fn a_plan_keeping_off_other_paths_is_found_when_one_exists() {
    use ghosts::internals::mapf::sat::Deadline;
    use ghosts::internals::mapf::soc::encoding::{Avoiding, Decision, Session};

    let (mut found, mut below) = (0, 0);
    on_tiny_instances(1811, 300, |dataset, gap, instance, everyone, rng| {
        let (grid, starts, goals) = (dataset.grid(), dataset.starts(), dataset.homes());
        let Ok(Some(optimal)) = soc::solve(grid, starts, goals, 64, Techniques::default()) else {
            panic!("no optimum: {}", draw(dataset));
        };
        let context = || draw(dataset);
        let split = 1 + rng.below(everyone.len() - 1);
        let (mine, theirs) = everyone.split_at(split);
        let goal = |a: usize| goals[a].index() as u32;
        let extra = |a: usize, path: &Vec<u32>| {
            u64::from(ghosts::internals::mapf::soc::planning::cost(path, goal(a)))
                - distance(dataset, a)
        };
        let share: u64 = mine.iter().map(|&a| extra(a, &optimal.paths[a])).sum();
        let share = u32::try_from(share).unwrap();
        let others: Vec<Vec<Vec<u32>>> = theirs
            .iter()
            .map(|&a| vec![optimal.paths[a].clone()])
            .collect();
        // The optimum's reach, so that every path of it ends within the horizon.
        let mut session = Session::new(instance, mine, gap, Deadline(None), &[]);
        let Avoiding::Plan(paths) = session.plan_avoiding(instance, share, &others, i32::MAX)
        else {
            panic!(
                "no plan keeping off the others within {share}: {}",
                context()
            );
        };
        found += 1;
        let at = |path: &Vec<u32>, t: usize| *path.get(t).or(path.last()).unwrap();
        let mut all: Vec<&Vec<u32>> = paths.iter().collect();
        all.extend(theirs.iter().map(|&a| &optimal.paths[a]));
        let horizon = all.iter().map(|p| p.len()).max().unwrap();
        let mut total = 0;
        for (&a, path) in mine.iter().zip(&paths) {
            assert_eq!(path[0], starts[a].index() as u32, "{}", context());
            total += extra(a, path);
        }
        assert!(
            total <= u64::from(share),
            "{total} > {share}: {}",
            context()
        );
        for t in 0..horizon {
            for (i, p) in all.iter().enumerate() {
                for q in &all[i + 1..] {
                    assert_ne!(at(p, t), at(q, t), "meet at {t}: {}", context());
                    assert!(
                        !(at(p, t) == at(q, t + 1)
                            && at(p, t + 1) == at(q, t)
                            && at(p, t) != at(p, t + 1)),
                        "swap at {t}: {}",
                        context()
                    );
                }
            }
        }
        // Below the session's own least: no plan at all, whatever it keeps off.
        let least = session.raise(instance);
        if least > 0 {
            below += 1;
            assert!(
                matches!(
                    session.plan_avoiding(instance, least - 1, &others, i32::MAX),
                    Avoiding::Core(_)
                ),
                "{}",
                context()
            );
        }
        assert!(
            matches!(session.decide(instance, least), Decision::Plan(_)),
            "{}",
            context()
        );
        true
    });
    // Sessions with a least to go below (28 of the 300 drawn).
    assert!(below > 20, "{below}");
    assert_eq!(found, 300);
}

/// Stopped while its distance tables are built (a map of over four million cells, so the
/// stop check is asked before the second agent's), the proof answers the plan it was
/// given, with the bound given with it: before, it answered "time" and the caller printed
/// no plan although it had one.
#[test]
fn a_proof_stopped_before_its_tables_answers_the_plan_in_hand() {
    use ghosts::internals::mapf::sat::Deadline;
    let grid = Grid::new(2100, 2100, |_, _| true);
    let cell = |row: usize, col: usize| grid.cell(row, col).unwrap();
    let (starts, goals) = ([cell(0, 0), cell(5, 0)], [cell(0, 2), cell(5, 1)]);
    let paths: Vec<Vec<u32>> = vec![
        vec![0, 1, 2]
            .into_iter()
            .map(|c| cell(0, c).index() as u32)
            .collect(),
        vec![cell(5, 0).index() as u32, cell(5, 1).index() as u32],
    ];
    let mut stopped = || true;
    let within = soc::Within {
        stop: &mut stopped,
        deadline: Deadline(None),
        first: Some(paths.clone()),
        first_bound: 3,
        whole_from: Deadline(None),
        whole_late_from: Deadline(None),
        beside: None,
        raised: None,
    };
    let (plan, bound) =
        soc::solve_within(&grid, &starts, &goals, 1024, Techniques::default(), within)
            .unwrap()
            .unwrap();
    assert_eq!((plan.cost, bound), (3, 3));
    assert_eq!(plan.paths, paths);
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The fast search against a slow, obviously-correct one on hundreds of random small maps
//! (fixed seeds), including maps that break the statement's promises and maps with no
//! solution. Every plan is replayed by the library's checker, and the checker itself is
//! shown to reject broken plans.

use std::collections::{HashMap, VecDeque};

use ghosts::Dataset;
use ghosts::internals::Want;
use ghosts::internals::search::{PairsAfter, solve, solve_with};
use ghosts::internals::{BadPlan, check_plan, read_dataset};
use grid_core::rng::SplitMix64;
use grid_core::{CaseReader, CellId};
use itertools::Itertools;

/// Plain breadth-first search over every joint placement: all 5^n combinations of moves
/// (the cartesian product of each ghost's moves), kept when no two ghosts end on one cell
/// and no two swap.
fn reference_steps(dataset: &Dataset) -> Option<u32> {
    let grid = dataset.grid();
    let moves = |cell: CellId| -> Vec<CellId> {
        std::iter::once(cell)
            .chain(grid.neighbours(cell).map(|(_, n)| n))
            .collect()
    };
    breadth_first(dataset, |placement| {
        let n = placement.len();
        placement
            .iter()
            .map(|&cell| moves(cell))
            .multi_cartesian_product()
            .filter(|after| {
                (0..n).all(|i| {
                    (0..i).all(|j| {
                        after[i] != after[j]
                            && !(after[i] == placement[j] && after[j] == placement[i])
                    })
                })
            })
            .collect()
    })
}

/// The fewest steps from the starts to the homes by breadth-first search, each placement's
/// successors given by `next`; `None` when the homes are never reached.
fn breadth_first(dataset: &Dataset, next: impl Fn(&[CellId]) -> Vec<Vec<CellId>>) -> Option<u32> {
    let mut seen: HashMap<Vec<CellId>, u32> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(dataset.starts().to_vec(), 0);
    queue.push_back(dataset.starts().to_vec());
    while let Some(placement) = queue.pop_front() {
        let steps = seen[&placement];
        if placement == dataset.homes() {
            return Some(steps);
        }
        for after in next(&placement) {
            if !seen.contains_key(&after) {
                seen.insert(after.clone(), steps + 1);
                queue.push_back(after);
            }
        }
    }
    None
}

/// A random map of `width` x `height` with no promises kept: walls anywhere (border or
/// not), ghosts and homes on random distinct open cells.
fn random_map(
    rng: &mut SplitMix64,
    width: usize,
    height: usize,
    ghosts: usize,
    wall_percent: u32,
) -> Option<String> {
    let mut cells: Vec<u8> = (0..width * height)
        .map(|_| {
            if rng.percent(wall_percent) {
                b'#'
            } else {
                b' '
            }
        })
        .collect();
    let mut open: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == b' ').collect();
    if open.len() < 2 * ghosts {
        return None;
    }
    rng.shuffle(&mut open);
    for g in 0..ghosts {
        cells[open[2 * g]] = b'a' + g as u8;
        cells[open[2 * g + 1]] = b'A' + g as u8;
    }
    let mut text = format!("{width} {height} {ghosts}\n");
    for row in cells.chunks(width) {
        text.push_str(std::str::from_utf8(row).unwrap());
        text.push('\n');
    }
    Some(text)
}

fn parse(text: &str) -> Dataset {
    read_dataset(&mut CaseReader::new(text.as_bytes()), 1 << 20)
        .unwrap()
        .unwrap()
}

#[test]
fn fast_search_equals_plain_bfs_on_random_maps() {
    let mut rng = SplitMix64::new(1601);
    let (mut compared, mut unsolvable) = (0, 0);
    let mut per_ghosts = [0; 4];
    while compared < 600 {
        let ghosts = 1 + compared % 3;
        let (width, height) = if ghosts == 3 {
            (rng.between(2, 5), rng.between(2, 4))
        } else {
            (rng.between(1, 7), rng.between(1, 6))
        };
        let wall_percent = [0, 15, 30, 45][rng.below(4)];
        let Some(text) = random_map(&mut rng, width, height, ghosts, wall_percent) else {
            continue;
        };
        let dataset = parse(&text);
        let expected = reference_steps(&dataset);
        let solution = solve(&dataset, Want::Plan, 64).unwrap();
        assert_eq!(solution.steps, expected, "map:\n{text}");
        if let (Some(steps), Some(plan)) = (solution.steps, &solution.plan) {
            assert_eq!(
                check_plan(&dataset, plan),
                Ok(steps as usize),
                "map:\n{text}"
            );
        } else {
            unsolvable += 1;
        }
        per_ghosts[ghosts] += 1;
        compared += 1;
    }
    // The sample must exercise both outcomes and every ghost count.
    assert!(
        unsolvable > 50 && unsolvable < 550,
        "unsolvable: {unsolvable}"
    );
    assert!(per_ghosts[1..].iter().all(|&k| k == 200));
}

#[test]
fn fast_search_equals_plain_bfs_on_promise_keeping_maps() {
    use ghosts::generate::{Density, MapSpec, dataset};
    let mut rng = SplitMix64::new(2007);
    let mut compared = 0;
    while compared < 90 {
        let spec = MapSpec {
            width: rng.between(5, 7),
            height: rng.between(5, 7),
            ghosts: 1 + compared % 3,
            density: if compared % 2 == 0 {
                Density::Dense
            } else {
                Density::Sparse
            },
        };
        let Some(text) = dataset(&mut rng, spec) else {
            continue;
        };
        compared += 1;
        let d = parse(&text);
        assert_eq!(
            solve(&d, Want::Steps, 64).unwrap().steps,
            reference_steps(&d),
            "map:\n{text}"
        );
    }
}

#[test]
fn official_sample_answers() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/fixtures/ghosts/uva1601-sample.in"
    ))
    .unwrap();
    let mut reader = CaseReader::new(text.as_bytes());
    let mut answers = Vec::new();
    while let Some(d) = read_dataset(&mut reader, 1 << 20).unwrap() {
        let solution = solve(&d, Want::Plan, 1024).unwrap();
        let steps = solution.steps.unwrap();
        assert_eq!(
            check_plan(&d, solution.plan.as_ref().unwrap()),
            Ok(steps as usize)
        );
        answers.push(steps);
    }
    assert_eq!(answers, [7, 36, 77]);
}

#[test]
fn checker_rejects_broken_plans() {
    // a must go right twice; b follows it.
    let d = parse("6 1 2\nbaBA  \n");
    let at = |col| d.grid().cell(0, col).unwrap();
    let good = vec![vec![at(2), at(1)], vec![at(3), at(2)]];
    assert_eq!(check_plan(&d, &good), Ok(2));
    let jump = vec![vec![at(3), at(0)]];
    assert!(
        matches!(check_plan(&d, &jump), Err(BadPlan::Illegal { step: 1, .. })),
        "jump"
    );
    let collide = vec![vec![at(1), at(1)]];
    assert!(
        matches!(
            check_plan(&d, &collide),
            Err(BadPlan::Illegal { step: 1, .. })
        ),
        "collision"
    );
    let swap = vec![vec![at(0), at(1)]];
    assert!(
        matches!(check_plan(&d, &swap), Err(BadPlan::Illegal { step: 1, .. })),
        "swap"
    );
    let short = vec![vec![at(2), at(1)]];
    assert_eq!(check_plan(&d, &short), Err(BadPlan::NotHome { steps: 1 }));
    let wrong_count = vec![vec![at(2)]];
    assert!(matches!(
        check_plan(&d, &wrong_count),
        Err(BadPlan::WrongCount { .. })
    ));
    let wall = parse("3 1 1\na#A\n");
    let through = vec![vec![CellId::new(1)]];
    assert!(
        check_plan(&wall, &through).is_err(),
        "a wall cell is not numbered; moving to cell 1 jumps"
    );
}

#[test]
fn four_ghosts_match_plain_bfs_on_tiny_maps() {
    let mut rng = SplitMix64::new(4);
    let mut compared = 0;
    while compared < 60 {
        let (width, height) = (rng.between(3, 4), rng.between(2, 3));
        let Some(text) = random_map(&mut rng, width, height, 4, [0, 10, 20][compared % 3]) else {
            continue;
        };
        let d = parse(&text);
        let solution = solve(&d, Want::Plan, 64).unwrap();
        assert_eq!(solution.steps, reference_steps(&d), "map:\n{text}");
        if let Some(plan) = &solution.plan {
            assert_eq!(check_plan(&d, plan), Ok(plan.len()));
        }
        compared += 1;
    }
}

/// The plan as the program prints it (`--plan`): parsed back from the text and replayed.
#[test]
fn printed_plans_replay_and_drawings_have_a_frame_per_step() {
    let mut rng = SplitMix64::new(77);
    let mut checked = 0;
    while checked < 100 {
        let ghosts = 1 + checked % 3;
        let (width, height) = (rng.between(3, 6), rng.between(2, 4));
        let Some(text) = random_map(&mut rng, width, height, ghosts, 15) else {
            continue;
        };
        let d = parse(&text);
        let options = ghosts::RunOptions {
            plan: true,
            ..ghosts::RunOptions::default()
        };
        let mut out = Vec::new();
        ghosts::run(text.as_bytes(), &mut out, &options).unwrap();
        let printed = String::from_utf8(out).unwrap();
        let mut lines = printed.lines();
        let steps: i64 = lines.next().unwrap().parse().unwrap();
        let plan: Vec<Vec<CellId>> = lines
            .map(|line| {
                line.split(' ')
                    .map(|cell| {
                        let (r, c) = cell.split_once(',').unwrap();
                        d.grid()
                            .cell(r.parse().unwrap(), c.parse().unwrap())
                            .unwrap()
                    })
                    .collect()
            })
            .collect();
        if steps < 0 {
            assert!(plan.is_empty(), "no plan after -1");
        } else {
            assert_eq!(
                check_plan(&d, &plan),
                Ok(steps as usize),
                "printed:\n{printed}"
            );
            let options = ghosts::RunOptions {
                show: true,
                ..ghosts::RunOptions::default()
            };
            let mut drawn = Vec::new();
            ghosts::run(text.as_bytes(), &mut drawn, &options).unwrap();
            let frames = String::from_utf8(drawn)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with("step "))
                .count();
            assert_eq!(frames as i64, steps + 1);
        }
        checked += 1;
    }
}

#[test]
fn a_search_past_the_memory_budget_is_refused_not_run() {
    // 26 ghosts in an open room: the first step alone has billions of successors.
    let mut rows = vec!["#".repeat(30)];
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').collect();
    for r in 0..10 {
        let inside: String = (0..28)
            .map(|c| {
                letters
                    .get(r * 28 + c)
                    .copied()
                    .filter(|_| r < 2)
                    .unwrap_or(' ')
            })
            .collect();
        rows.push(format!("#{inside}#"));
    }
    rows.push("#".repeat(30));
    let text = format!("30 12 26\n{}\n", rows.join("\n"));
    // The joint A* refuses it at once...
    let dataset: ghosts::Dataset = text.parse().unwrap();
    let refused = solve(&dataset, Want::Steps, 4).unwrap_err();
    assert_eq!(refused.budget_mib, 4);
    assert!(refused.placements < 1000, "{refused:?}");
    // ...and the program answers it within the same budget with the many-agent methods,
    // with a plan that replays.
    let options = ghosts::Options {
        plan: true,
        memory_mib: 4,
        ..ghosts::Options::default()
    };
    let solution = ghosts::solve(&dataset, &options).unwrap().unwrap();
    let plan = solution.plan().unwrap();
    assert_eq!(check_plan(&dataset, plan), Ok(solution.steps() as usize));
}

/// Small maps rarely grow a search past the point where pair tables are built, so the
/// pair-bound search is forced here: at once, and after a few expansions (a restart).
#[test]
fn pair_bound_searches_equal_plain_bfs() {
    let mut rng = SplitMix64::new(3523);
    let mut compared = 0;
    while compared < 200 {
        let ghosts = 3 + compared % 2;
        let (width, height) = if ghosts == 3 {
            (rng.between(2, 5), rng.between(2, 4))
        } else {
            (rng.between(3, 4), rng.between(2, 3))
        };
        let Some(text) = random_map(&mut rng, width, height, ghosts, [0, 15, 30][compared % 3])
        else {
            continue;
        };
        let d = parse(&text);
        let expected = reference_steps(&d);
        for after in [PairsAfter::Expansions(0), PairsAfter::Expansions(3)] {
            let t0 = std::time::Instant::now();
            let solution = solve_with(&d, Want::Plan, 64, after).unwrap();
            eprintln!("  fast {after:?} {:?}", t0.elapsed());
            assert_eq!(solution.steps, expected, "{after:?}, map:\n{text}");
            if let Some(plan) = &solution.plan {
                assert_eq!(check_plan(&d, plan), Ok(plan.len()));
            }
        }
        compared += 1;
    }
}

/// Every placement one step after `before`, built ghost by ghost: each ghost stays or
/// moves to a neighbour, and a choice is kept only when it lands on no cell taken by an
/// earlier ghost and swaps with none. The same rule as [`reference_steps`], without its
/// 5^n product, so that 5 to 8 ghosts stay affordable.
fn next_placements(grid: &grid_core::Grid, before: &[CellId]) -> Vec<Vec<CellId>> {
    fn extend(
        grid: &grid_core::Grid,
        before: &[CellId],
        after: &mut Vec<CellId>,
        out: &mut Vec<Vec<CellId>>,
    ) {
        let i = after.len();
        if i == before.len() {
            out.push(after.clone());
            return;
        }
        let from = before[i];
        for to in std::iter::once(from).chain(grid.neighbours(from).map(|(_, n)| n)) {
            let fits = (0..i).all(|j| after[j] != to && !(after[j] == from && to == before[j]));
            if fits {
                after.push(to);
                extend(grid, before, after, out);
                after.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(grid, before, &mut Vec::new(), &mut out);
    out
}

/// Plain breadth-first search over joint placements with [`next_placements`]: the fewest
/// steps, `None` when the homes are never reached.
fn reference_steps_by_ghost(dataset: &Dataset) -> Option<u32> {
    breadth_first(dataset, |placement| {
        next_placements(dataset.grid(), placement)
    })
}

/// 5 to 8 ghosts on tiny maps, against [`reference_steps_by_ghost`]. The ghosts live in a
/// crowded corridor (one or two cells more than ghosts) with a pocket or two beside it,
/// where they can step aside and pass. Beside it, each map has a walled-off open square no
/// ghost can reach, just large enough that C^n passes 2^64 for its C corridor cells: the
/// search then packs a placement into several 64-bit words, a key layout no other test
/// reaches. The datasets are built in code ([`Dataset::new`]); the homes are where a
/// random walk of legal steps leads (three cases in four: solvable, often in fewer steps
/// than walked) or drawn at random (often unsolvable), so a ghost may end on another's
/// start.
#[test]
fn five_to_eight_ghosts_with_multi_word_keys_match_plain_bfs() {
    let mut rng = SplitMix64::new(16015);
    let (mut unsolvable, mut shorter) = (0, 0);
    let mut per_ghosts = [0; 9];
    for case in 0..48 {
        let ghosts = 5 + case % 4;
        let length = ghosts + rng.between(1, 2);
        let mut pockets = vec![rng.below(length)];
        if rng.percent(50) {
            pockets.push(rng.below(length));
        }
        let room: Vec<(usize, usize)> = (0..length)
            .map(|c| (0, c))
            .chain(pockets.iter().map(|&c| (1, c)))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        // The smallest square side with (room + side^2)^ghosts above 2^64.
        let side = (1..)
            .find(|&side: &usize| {
                let cells = (room.len() + side * side) as u128;
                cells
                    .checked_pow(ghosts as u32)
                    .is_none_or(|c| c > u128::from(u64::MAX))
            })
            .unwrap();
        let (height, width) = (3 + side, length.max(side));
        let grid = grid_core::Grid::new(height, width, |r, c| {
            room.contains(&(r, c)) || (r > 2 && c < side)
        });
        let mut starts = room.clone();
        rng.shuffle(&mut starts);
        starts.truncate(ghosts);
        let cell = |&(r, c): &(usize, usize)| grid.cell(r, c).unwrap();
        let walked = rng.between(1, 8);
        let homes: Vec<(usize, usize)> = if case % 4 == 3 {
            let mut homes = room.clone();
            rng.shuffle(&mut homes);
            homes.truncate(ghosts);
            homes
        } else {
            let mut at: Vec<CellId> = starts.iter().map(cell).collect();
            for _ in 0..walked {
                let next = next_placements(&grid, &at);
                at = next[rng.below(next.len())].clone();
            }
            at.iter().map(|&c| grid.position(c)).collect()
        };
        let d = Dataset::new(grid.clone(), &starts, &homes).unwrap();
        let cells = d.grid().cell_count() as u128;
        assert!(
            cells.pow(ghosts as u32) > u128::from(u64::MAX),
            "one-word keys"
        );
        let expected = reference_steps_by_ghost(&d);
        for after in [PairsAfter::Measured, PairsAfter::Expansions(0)] {
            let solution = solve_with(&d, Want::Plan, 64, after).unwrap();
            assert_eq!(
                solution.steps, expected,
                "{ghosts} ghosts, {after:?}, starts {starts:?}, homes {homes:?}, pockets {pockets:?}"
            );
            if let (Some(steps), Some(plan)) = (solution.steps, &solution.plan) {
                assert_eq!(check_plan(&d, plan), Ok(steps as usize));
            }
        }
        match expected {
            None => unsolvable += 1,
            Some(steps) if case % 4 != 3 && (steps as usize) < walked => shorter += 1,
            Some(_) => {}
        }
        per_ghosts[ghosts] += 1;
    }
    assert!(per_ghosts[5..].iter().all(|&k| k == 12), "{per_ghosts:?}");
    // Both outcomes, and walks that the search shortens.
    assert!((1..=12).contains(&unsolvable), "unsolvable: {unsolvable}");
    assert!(shorter > 5, "shorter than walked: {shorter}");
}

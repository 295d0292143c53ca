//! The finder on generated levels against the exact search, and on Microban: every
//! solution replays legally, and a level gets `None` exactly when it is unsolvable.

use grid_core::rng::SplitMix64;

use super::{Options, find};
use crate::{Collection, Level, generate, solve, verify};

fn levels(text: &str) -> Vec<Level> {
    Collection::new(text.as_bytes(), crate::DEFAULT_MAX_CELLS)
        .filter_map(Result::ok)
        .collect()
}

fn check(level: &Level, options: &Options) {
    let found = find(level, options, &mut || false).unwrap();
    let exact = solve(level, &crate::Options::default()).unwrap();
    match (&found, &exact) {
        (Some(lurd), Some(best)) => {
            let counts = verify(level, lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
            assert!(counts.pushes >= best.pushes());
        }
        (None, None) => {}
        _ => panic!(
            "{}: found {found:?}, exact {exact:?}",
            level.draw(level.boxes(), level.player())
        ),
    }
}

#[test]
fn agrees_with_the_exact_search_on_generated_levels() {
    let mut rng = SplitMix64::new(16);
    let options = [
        Options::default(),
        Options {
            g_weight: 1,
            h_weight: 2,
            ..Options::default()
        },
        // PI-corrals, with the one-square packing order.
        Options {
            corrals: true,
            outward_packing: false,
            ..Options::default()
        },
        Options {
            cycling: true,
            corral_deadlocks: true,
            ..Options::default()
        },
        // FESS's order proper (the second run of the solver's portfolio): the unadvised
        // moves so far alone, the matching only pruning.
        Options {
            hotspots: true,
            ..fess()
        },
        // The first run of the solver's portfolio.
        Options {
            guide: super::Guide::Nearest,
            packing: false,
            regions: false,
            ..Options::default()
        },
    ];
    for round in 0..1500 {
        let boxes = 1 + round % 5;
        let text = generate::random_level(&mut rng, boxes, 6, 15);
        for level in levels(&text) {
            for o in &options {
                check(&level, o);
            }
        }
    }
}

/// With and without PI-corral pruning.
#[test]
fn every_solution_replays_on_microban() {
    let text = include_str!("../../../../testdata/sokoban/microban-fast.in");
    for corrals in [false, true] {
        let options = Options {
            corrals,
            ..Options::default()
        };
        let (mut solved, mut tried) = (0, 0);
        for level in levels(text) {
            tried += 1;
            let mut calls = 0;
            // About 50 000 expansions each: a budget the test can afford.
            let found = find(&level, &options, &mut || {
                calls += 1;
                calls > 200
            });
            if let Ok(found) = found {
                let lurd =
                    found.unwrap_or_else(|| panic!("Microban {} is solvable", level.number()));
                verify(&level, &lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
                solved += 1;
            }
        }
        assert!(
            tried >= 20 && solved * 10 >= tried * 9,
            "corrals {corrals}: {solved} of {tried}"
        );
    }
}

/// PI-corral pruning keeps every level's solvability: the finder with it and without it
/// (a complete search either way) on many more generated levels than the exact search
/// can afford: rooms up to 12 squares a side with many inner walls, where corrals form
/// (a barrier left open, the first version, fails here).
#[test]
fn corral_pruning_keeps_solvability() {
    let with = Options {
        corrals: true,
        ..Options::default()
    };
    let without = Options {
        corrals: false,
        ..Options::default()
    };
    same_solvability(2001, 2500, &with, &without);
}

/// Corral deadlocks keep every level's solvability, with the cycling over feature cells:
/// the finder with them and without them (a complete search either way) on the rooms of
/// [`corral_pruning_keeps_solvability`], other seeds.
#[test]
fn corral_deadlocks_keep_solvability() {
    let with = Options {
        cycling: true,
        corral_deadlocks: true,
        ..Options::default()
    };
    same_solvability(2002, 1000, &with, &Options::default());
}

/// The finder with `with` and with `without` (both complete) find a solution on the same
/// levels, of `rounds` generated rooms up to 12 x 12 with many inner walls (seed `seed`),
/// and `with`'s solutions replay; most rooms are compared, and both answers occur.
fn same_solvability(seed: u64, rounds: usize, with: &Options, without: &Options) {
    let mut rng = SplitMix64::new(seed);
    let (mut compared, mut solvable) = (0, 0);
    for round in 0..rounds {
        let boxes = 2 + round % 5;
        let text = generate::random_level(&mut rng, boxes, 12, [25, 35, 45][round % 3]);
        for level in levels(&text) {
            let found = find(&level, with, &mut || false).unwrap();
            let reference = find(&level, without, &mut || false).unwrap();
            assert_eq!(
                found.is_some(),
                reference.is_some(),
                "{}",
                level.draw(level.boxes(), level.player())
            );
            if let Some(lurd) = &found {
                verify(&level, lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
                solvable += 1;
            }
            compared += 1;
        }
    }
    assert!(
        compared > rounds * 4 / 5 && solvable > rounds / 12 && solvable < compared,
        "{solvable} of {compared}"
    );
}

/// The lower bound an unproven answer carries: what the exact search took from its queue
/// before a limit stopped it never passes the optimum, for either metric; on many levels
/// it passes the start's matching.
#[test]
fn the_bound_of_a_stopped_search_never_passes_the_optimum() {
    use std::time::Duration;

    use crate::solution::{Metric, SolveError};
    let mut rng = SplitMix64::new(61);
    let (mut stopped, mut above_start) = (0, 0);
    for round in 0..300 {
        let boxes = 4 + round % 3;
        let text = generate::random_level(&mut rng, boxes, 10, 10);
        for level in levels(&text) {
            for metric in [Metric::Pushes, Metric::Moves] {
                let exact = crate::Options {
                    metric,
                    ..crate::Options::default()
                };
                let Ok(Some(best)) = solve(&level, &exact) else {
                    continue;
                };
                let first = match metric {
                    Metric::Pushes => best.pushes(),
                    Metric::Moves => best.moves(),
                };
                // Stopped at the first look at the clock (after a few hundred expansions).
                let hurried = crate::Options {
                    time_limit: Some(Duration::ZERO),
                    ..exact
                };
                let (answer, stats) = crate::search::solve_counting(&level, &hurried);
                let bound = match answer {
                    Err(SolveError::Time) => stats.bound,
                    // With `--metric pushes`, the first phase proved the fewest pushes
                    // before the clock stopped the second: its solution has them.
                    Ok(Some(s)) if !s.is_proven() => {
                        assert_eq!((metric, s.pushes()), (Metric::Pushes, first));
                        assert_eq!(s.lower_bound(), first);
                        verify(&level, s.lurd()).unwrap();
                        stats.bound
                    }
                    _ => continue,
                };
                stopped += 1;
                assert!(bound <= first, "{metric:?}: bound {bound} > {first}");
                let start =
                    super::anytime::start_bound_within(&level, &crate::Options::default(), None);
                above_start += usize::from(bound > start.unwrap_or(0));
            }
        }
    }
    assert!(
        stopped >= 20 && above_start >= 10,
        "stopped {stopped}, above the start {above_start}"
    );
}

/// Goal-room macros keep every level's solvability and their solutions replay: on
/// generated levels whose goals lie in a room behind one door or a one-wide tunnel, the
/// finder with them agrees with the exact search, and most solvable levels are solved by
/// the search with the macros itself (not by the search again without them, which the
/// finder runs before it answers "unsolvable").
#[test]
fn goal_room_macros_keep_solvability() {
    use super::greedy::{Outcome, search};
    let mut rng = SplitMix64::new(1601);
    let ways = [
        Options {
            goal_rooms: true,
            ..Options::default()
        },
        Options {
            goal_rooms: true,
            outward_packing: false,
            ..Options::default()
        },
        Options {
            goal_rooms: true,
            cycling: true,
            corral_deadlocks: true,
            ..Options::default()
        },
        Options {
            goal_rooms: true,
            guide: super::Guide::Nearest,
            packing: false,
            regions: false,
            ..Options::default()
        },
    ];
    let (mut with_rooms, mut solvable, mut by_macros) = (0, 0, 0);
    for round in 0..600 {
        let text = generate::goal_room_level(&mut rng, 1 + round % 4);
        for level in levels(&text) {
            let rank = super::packing::ranks(&level, false, &mut || false);
            with_rooms += usize::from(super::goal_room::GoalRooms::new(&level, &rank).any());
            for way in &ways {
                check(&level, way);
                if let Ok(Outcome::Solved(lurd)) = search(&level, way, &mut || false) {
                    verify(&level, &lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
                    by_macros += 1;
                }
            }
            solvable += usize::from(solve(&level, &crate::Options::default()).unwrap().is_some());
        }
    }
    assert!(
        with_rooms > 500 && solvable > 150 && by_macros * 10 > solvable * 3 * 9,
        "rooms {with_rooms}, solvable {solvable}, solved with the macros {by_macros}"
    );
}

/// The packing advisor only adds edges: the finder with it (and the portfolio's other
/// switches) and without it find a solution on the same generated rooms, and its
/// solutions, macro moves included, replay legally; on Microban too.
#[test]
fn the_packing_advisor_keeps_solvability_and_replays() {
    let with = Options {
        advisor: true,
        cycling: true,
        corral_deadlocks: true,
        ..Options::default()
    };
    same_solvability(2003, 1000, &with, &Options::default());
    on_goal_rooms_and_microban(1603, &with);
}

/// The finder with `with` (and goal-room macros) against the exact search on 300
/// generated goal-room levels (seed `seed`), then on the Microban levels of the test
/// data, each stopped after 200 stop checks: every solution replays legally and none
/// is called unsolvable. Returns the Microban levels solved and tried.
fn on_goal_rooms_and_microban(seed: u64, with: &Options) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    for round in 0..300 {
        let text = generate::goal_room_level(&mut rng, 1 + round % 4);
        for level in levels(&text) {
            check(
                &level,
                &Options {
                    goal_rooms: true,
                    ..with.clone()
                },
            );
        }
    }
    let text = include_str!("../../../../testdata/sokoban/microban-fast.in");
    let (mut solved, mut tried) = (0, 0);
    for level in levels(text) {
        tried += 1;
        let mut calls = 0;
        if let Ok(found) = find(&level, with, &mut || {
            calls += 1;
            calls > 200
        }) {
            let lurd = found.unwrap_or_else(|| panic!("Microban {} is solvable", level.number()));
            verify(&level, &lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
            solved += 1;
        }
    }
    (solved, tried)
}

/// The connectivity advisor only adds edges and FESS's move weights only reorder: the
/// finder with both (and the portfolio's other switches) and without them find a
/// solution on the same generated rooms, and its solutions, macro moves included, replay
/// legally; it agrees with the exact search on goal-room levels; on Microban too.
#[test]
fn the_connectivity_advisor_and_move_weights_keep_solvability_and_replay() {
    let with = Options {
        advisor: true,
        connectivity: true,
        move_weights: true,
        g_weight: 1,
        cycling: true,
        corral_deadlocks: true,
        ..Options::default()
    };
    same_solvability(2004, 1000, &with, &Options::default());
    let (solved, tried) = on_goal_rooms_and_microban(1604, &with);
    assert!(solved * 10 >= tried * 9, "{solved} of {tried}");
}

/// FESS's order proper (the portfolio's run 2): the unadvised moves so far alone in the
/// priority, the guide only pruning, with the advisors, cycling and corral deadlocks.
fn fess() -> Options {
    Options {
        g_weight: 1,
        h_weight: 0,
        advisor: true,
        connectivity: true,
        move_weights: true,
        cycling: true,
        corral_deadlocks: true,
        ..Options::default()
    }
}

/// FESS's order proper (the unadvised moves so far alone in the priority, the guide only
/// pruning) with the portfolio's switches: it agrees with the exact search on goal-room
/// levels, and solves most of Microban with solutions that replay.
#[test]
fn fess_order_keeps_solvability_and_replays() {
    let (solved, tried) = on_goal_rooms_and_microban(1605, &fess());
    assert!(solved * 10 >= tried * 9, "{solved} of {tried}");
}

/// The hotspots advisor only adds edges: FESS's order proper with it finds a solution on
/// the same generated rooms as the plain finder, agrees with the exact search on
/// goal-room levels, and its solutions, the advisor's moves included, replay legally; on
/// Microban too.
#[test]
fn the_hotspots_advisor_keeps_solvability_and_replays() {
    let with = Options {
        hotspots: true,
        ..fess()
    };
    same_solvability(2006, 1000, &with, &Options::default());
    let (solved, tried) = on_goal_rooms_and_microban(1606, &with);
    assert!(solved * 10 >= tried * 9, "{solved} of {tried}");
}

/// FESS's macro moves only add edges: FESS's order proper with them finds a solution on
/// the same generated rooms as the plain finder, agrees with the exact search on
/// goal-room levels, and its solutions replay legally, the macro moves included (a box
/// moved the long way round to a neighbouring square, or ending with the player on a
/// side in another region than the fewest pushes would leave it); on Microban too.
#[test]
fn macro_moves_keep_solvability_and_replay() {
    let with = Options {
        box_moves: true,
        ..fess()
    };
    same_solvability(2007, 1000, &with, &Options::default());
    let greedy = Options {
        box_moves: true,
        ..Options::default()
    };
    same_solvability(2008, 500, &greedy, &Options::default());
    let (solved, tried) = on_goal_rooms_and_microban(1607, &with);
    assert!(solved * 10 >= tried * 9, "{solved} of {tried}");
}

/// The backward search (pulls from the goals), greedy and weighted (the portfolio's runs
/// 6 and 7): on generated levels it finds a solution exactly where the exact search
/// does, and every solution, read back from the pulls, replays legally; also on
/// generated goal-room levels, and on larger rooms against the forward finder.
#[test]
fn backward_agrees_with_the_exact_search() {
    let backward = Options {
        direction: super::Direction::Backward,
        ..Options::default()
    };
    let weighted = Options {
        g_weight: 1,
        h_weight: 3,
        ..backward.clone()
    };
    let mut rng = SplitMix64::new(1616);
    for round in 0..1500 {
        let text = generate::random_level(&mut rng, 1 + round % 5, 6, 15);
        for level in levels(&text) {
            check(&level, &backward);
            check(&level, &weighted);
        }
    }
    let mut rng = SplitMix64::new(1617);
    for round in 0..200 {
        let text = generate::goal_room_level(&mut rng, 1 + round % 4);
        for level in levels(&text) {
            check(&level, &backward);
            check(&level, &weighted);
        }
    }
    // Few rooms: backwards, an unsolvable room is proven so only when every pull from
    // every goal layout is tried (no freeze or group deadlocks prune them), 20 s on one
    // 12 x 12 room of seed 2016 (round 159).
    same_solvability(2016, 150, &backward, &Options::default());
}

/// The backward search solves most of Microban within a small budget, and every solution
/// replays legally.
#[test]
fn backward_replays_on_microban() {
    let options = Options {
        direction: super::Direction::Backward,
        ..Options::default()
    };
    let text = include_str!("../../../../testdata/sokoban/microban-fast.in");
    let (mut solved, mut tried) = (0, 0);
    for level in levels(text) {
        tried += 1;
        let mut calls = 0;
        if let Ok(found) = find(&level, &options, &mut || {
            calls += 1;
            calls > 200
        }) {
            let lurd = found.unwrap_or_else(|| panic!("Microban {} is solvable", level.number()));
            verify(&level, &lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
            solved += 1;
        }
    }
    assert!(
        tried >= 20 && solved * 10 >= tried * 9,
        "{solved} of {tried}"
    );
}

/// The outward packing order fills a goal column from its far end: on Microban 68 the
/// boxes come into the column of goals from the top, so the bottom goal fills first.
/// The one-square order empties the bottom goal first backwards (its box can be pulled
/// one square east, where no push ever brings a box) and so fills it last.
#[test]
fn the_outward_packing_order_fills_a_goal_column_from_its_far_end() {
    let text = include_str!("../../../../testdata/sokoban/microban-fast.in");
    let level = levels(text)
        .into_iter()
        .find(|l| l.title().trim_start_matches(';').trim() == "68")
        .expect("Microban 68 in the test data");
    let order = |outward: bool| {
        let rank = super::packing::ranks(&level, outward, &mut || false);
        let mut goals = level.goals().to_vec();
        goals.sort_by_key(|g| rank[g.index()]);
        goals
            .iter()
            .map(|&g| level.grid().position(g))
            .collect::<Vec<_>>()
    };
    assert_eq!(order(true), [(5, 2), (4, 2), (3, 2)]);
    assert_eq!(order(false), [(4, 2), (3, 2), (5, 2)]);
}

/// Under a ceiling the finder is a complete search for a solution with that many pushes
/// or fewer (a state reached again by fewer pushes is taken again; every pruning is exact
/// for the pushes), so without goal-room macros (which leave pushes out): at the ceiling
/// of the fewest pushes it always finds a solution, legal and with exactly those pushes,
/// and one push below it never finds one; on generated levels, by the ways the solver
/// runs under a ceiling (FESS's order proper with macro moves, greedy with features),
/// against the exact search's fewest pushes.
#[test]
fn under_the_fewest_pushes_as_ceiling_it_finds_and_one_below_it_does_not() {
    let mut rng = SplitMix64::new(2030);
    let ways = [
        Options {
            box_moves: true,
            ..fess()
        },
        Options {
            cycling: true,
            corral_deadlocks: true,
            ..Options::default()
        },
        Options {
            corrals: true,
            g_weight: 1,
            h_weight: 3,
            ..Options::default()
        },
    ];
    let (mut tried, mut below) = (0, 0);
    for round in 0..1200 {
        let boxes = 1 + round % 4;
        let text = generate::random_level(&mut rng, boxes, 6 + round % 5, 10);
        for level in levels(&text) {
            let Some(best) = solve(&level, &crate::Options::default()).unwrap() else {
                continue;
            };
            let fewest = best.pushes();
            tried += 1;
            for way in &ways {
                let at = Options {
                    ceiling: Some(fewest),
                    ..way.clone()
                };
                let lurd = find(&level, &at, &mut || false)
                    .unwrap()
                    .unwrap_or_else(|| panic!("none within {fewest}:\n{text}"));
                let counts = verify(&level, &lurd).unwrap_or_else(|e| panic!("{e}: {lurd}"));
                assert_eq!(counts.pushes, fewest, "{lurd}\n{text}");
                if fewest > 0 {
                    below += 1;
                    let under = Options {
                        ceiling: Some(fewest - 1),
                        ..way.clone()
                    };
                    assert_eq!(find(&level, &under, &mut || false), Ok(None), "{text}");
                }
            }
        }
    }
    assert!(tried > 600 && below > 900, "{tried} levels, {below} below");
}

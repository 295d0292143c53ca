#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The solver against an exhaustive reference on thousands of small random levels (fixed
//! seeds), both metrics, every solution replayed; and with one box against the two
//! single-box programs of the workspace on their own generated levels.
//!
//! The reference knows nothing of pushes as edges, bounds or deadlocks: it is Dijkstra's
//! algorithm over (box squares, player square) with one edge per legal step, each costing
//! (1 move, 1 push or 0), compared lexicographically in the metric's order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use grid_core::rng::SplitMix64;
use grid_core::{CellId, Dir};
use sokoban::internals::{
    BallPlan, Frozen, GroupDeadlocks, Pruning, PushProof, Stats, fewest_pushes, pushes_bounds,
    solve_counting, solve_counting_by, solve_counting_planned, walled,
};
use sokoban::{Bounds, Collection, Level, Metric, Options, generate, verify};

/// Fewest (pushes, moves) for the metric's order of keys, or `None` when unsolvable.
fn reference(level: &Level, metric: Metric) -> Option<(u32, u32)> {
    if level.stranded() {
        return None;
    }
    let grid = level.grid();
    let goals = level.goals();
    let mut start: Vec<u16> = level.boxes().iter().map(|b| b.index() as u16).collect();
    start.push(level.player().index() as u16);
    let k = start.len() - 1;
    let mut best: HashMap<Vec<u16>, (u32, u32)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start.clone(), (0, 0));
    heap.push(Reverse(((0u32, 0u32), start)));
    while let Some(Reverse((cost, state))) = heap.pop() {
        if best.get(&state) != Some(&cost) {
            continue;
        }
        let solved = state[..k]
            .iter()
            .all(|&b| goals.contains(&CellId::new(b as usize)));
        if solved {
            return Some(match metric {
                Metric::Pushes => cost,
                Metric::Moves => (cost.1, cost.0),
            });
        }
        let player = CellId::new(state[k] as usize);
        for dir in Dir::ALL {
            let Some(next) = grid.neighbour(player, dir) else {
                continue;
            };
            let mut child = state.clone();
            child[k] = next.index() as u16;
            let mut push = 0;
            if let Some(i) = state[..k].iter().position(|&b| b as usize == next.index()) {
                let Some(beyond) = grid.neighbour(next, dir) else {
                    continue;
                };
                if state[..k].contains(&(beyond.index() as u16)) {
                    continue;
                }
                child[i] = beyond.index() as u16;
                child[..k].sort_unstable();
                push = 1;
            }
            let c = match metric {
                Metric::Pushes => (cost.0 + push, cost.1 + 1),
                Metric::Moves => (cost.0 + 1, cost.1 + push),
            };
            if best.get(&child).is_none_or(|&old| c < old) {
                best.insert(child.clone(), c);
                heap.push(Reverse((c, child)));
            }
        }
    }
    None
}

/// The solver's (pushes, moves), its solution replayed.
fn fast(level: &Level, metric: Metric) -> Option<(u32, u32)> {
    fast_counting(level, metric).0
}

/// [`fast`], and what the search did; with `--metric pushes` in every way
/// ([`PushProof`]), with `--metric moves` without dropping states walked over, and
/// without the bound on the walks left ([`Bounds::walks`]), each of which must give the
/// same answer (the stats of the default search, and of the one without the walks).
fn fast_counting(level: &Level, metric: Metric) -> (Option<(u32, u32)>, Stats) {
    let options = Options {
        metric,
        ..Options::default()
    };
    let (answer, mut stats) = solve_counting(level, &options);
    let answer = replayed(level, answer);
    let mut no_walks = options.clone();
    no_walks.bounds.walks = false;
    let (again, by_no_walks) = solve_counting(level, &no_walks);
    assert_eq!(
        replayed(level, again),
        answer,
        "{} without the walks",
        level.title()
    );
    stats.walked_over += by_no_walks.walked_over;
    if metric == Metric::Pushes {
        for proof in [PushProof::Ceiling, PushProof::OnPaths] {
            let (two, by_two) = solve_counting_by(level, &options, proof);
            assert_eq!(replayed(level, two), answer, "{} {proof:?}", level.title());
            stats.dominated += by_two.dominated;
            stats.pair_deadlocks += by_two.pair_deadlocks;
            stats.triple_deadlocks += by_two.triple_deadlocks;
            stats.over_ceiling += by_two.over_ceiling;
            stats.off_paths += by_two.off_paths;
            stats.refined += by_two.refined;
            stats.first_phase = by_two.first_phase;
        }
        // The backward ball by pushes (the first phase's passed on to the second, and
        // grown there), built at once small or larger, or after a few expansions, in one
        // search or two, or grown a little at every doubling of the expansions (the
        // layouts the search looked up in it and kept, looked up again): the same answer.
        for (proof, after, per_expansion, states) in [
            (PushProof::OneSearch, 0, 1000, 30),
            (PushProof::OneSearch, 3, 1000, 3000),
            (PushProof::OneSearch, 1, 4, 1 << 20),
            (PushProof::Ceiling, 0, 1000, 30),
            (PushProof::Ceiling, 3, 1000, 3000),
            (PushProof::OnPaths, 0, 1000, 300),
        ] {
            let plan = BallPlan {
                after,
                per_expansion,
                states,
                ..BallPlan::default()
            };
            let (again, by_ball) = solve_counting_planned(level, &options, proof, plan);
            let what = format!(
                "{} {proof:?} with the ball {after} {per_expansion} {states}",
                level.title()
            );
            assert_eq!(replayed(level, again), answer, "{what}");
            stats.first_phase.ball_radius = stats
                .first_phase
                .ball_radius
                .max(by_ball.first_phase.ball_radius);
            stats.first_phase.rebounded += by_ball.first_phase.rebounded;
            stats.rebounded += by_ball.rebounded;
        }
    } else {
        let plain = Options {
            walked_over: false,
            ..options.clone()
        };
        let (again, by_plain) = solve_counting(level, &plain);
        let what = format!("{} without walked over", level.title());
        assert_eq!(replayed(level, again), answer, "{what}");
        assert_eq!(by_plain.walked_over, 0, "{what}");
        // The backward ball off, built at once small (most states outside it, at its
        // radius plus one) or larger, and built after a few expansions (the states made
        // before raised when taken): the same answer.
        let mut no_ball = options.clone();
        no_ball.bounds.ball = false;
        let (again, _) = solve_counting(level, &no_ball);
        assert_eq!(
            replayed(level, again),
            answer,
            "{} without the ball",
            level.title()
        );
        for (after, per_expansion, states) in [
            (0, 1000, 30),
            (0, 1000, 300),
            (3, 1000, 3000),
            (1, 4, 1 << 20),
        ] {
            let plan = BallPlan {
                after,
                per_expansion,
                states,
                ..BallPlan::default()
            };
            let (again, by_ball) =
                solve_counting_planned(level, &options, PushProof::OneSearch, plan);
            let what = format!(
                "{} with the ball {after} {per_expansion} {states}",
                level.title()
            );
            assert_eq!(replayed(level, again), answer, "{what}");
            stats.ball_radius = stats.ball_radius.max(by_ball.ball_radius);
            stats.rebounded += by_ball.rebounded;
        }
    }
    (answer, stats)
}

/// The (pushes, moves) of a proven answer, its solution replayed.
fn replayed(
    level: &Level,
    answer: Result<Option<sokoban::Solution>, sokoban::SolveError>,
) -> Option<(u32, u32)> {
    match answer {
        Ok(Some(s)) => {
            let counts = verify(level, s.lurd())
                .unwrap_or_else(|e| panic!("{}: {e}: {}", level.title(), s.lurd()));
            assert_eq!((counts.pushes, counts.moves), (s.pushes(), s.moves()));
            assert!(s.is_proven());
            Some((s.pushes(), s.moves()))
        }
        Ok(None) => None,
        Err(limit) => panic!("{}: stopped: {limit}", level.title()),
    }
}

fn levels(text: &str) -> Vec<Level> {
    Collection::new(text.as_bytes(), 1 << 16)
        .map(Result::unwrap)
        .collect()
}

/// Asserts that the solver's answer for `level` by `metric` equals the reference's;
/// whether the level is solvable, and what the search did.
fn fast_equals_reference(level: &Level, metric: Metric) -> (bool, Stats) {
    let want = reference(level, metric);
    let (got, stats) = fast_counting(level, metric);
    assert_eq!(
        got,
        want,
        "{} {metric:?}\n{}",
        level.title(),
        level.draw(level.boxes(), level.player())
    );
    if metric == Metric::Pushes {
        fewest_pushes_equal_reference(level, want.map(|w| w.0));
    }
    (want.is_some(), stats)
}

/// Asserts that the first phase of `--metric pushes` alone, with PI-corral pruning and
/// without, proves `want` (the reference's fewest pushes, `None` when unsolvable).
fn fewest_pushes_equal_reference(level: &Level, want: Option<u32>) {
    for pruning in [Pruning::PiCorrals, Pruning::None] {
        let (got, _) = fewest_pushes(level, &Options::default(), pruning);
        assert_eq!(
            got.unwrap(),
            want,
            "{} {pruning:?}\n{}",
            level.title(),
            level.draw(level.boxes(), level.player())
        );
    }
}

/// The prunings that fired, summed over searches.
#[derive(Debug, Default)]
struct Fired {
    dominated: u64,
    pair_deadlocks: u64,
    triple_deadlocks: u64,
    over_ceiling: u64,
    off_paths: u64,
    corrals: u64,
    refined: u64,
    walked_over: u64,
    rebounded: u64,
    push_rebounded: u64,
    push_balls: u64,
}

impl Fired {
    fn add(&mut self, stats: Stats) {
        self.dominated += stats.dominated;
        self.pair_deadlocks += stats.pair_deadlocks;
        self.triple_deadlocks += stats.triple_deadlocks;
        self.over_ceiling += stats.over_ceiling;
        self.off_paths += stats.off_paths;
        self.corrals += stats.first_phase.corrals;
        self.refined += stats.refined;
        self.walked_over += stats.walked_over;
        self.rebounded += stats.rebounded;
        self.push_rebounded += stats.first_phase.rebounded;
        self.push_balls += u64::from(stats.first_phase.ball_radius > 0);
    }
}

#[test]
fn equals_the_exhaustive_reference_on_random_levels() {
    let mut solved = [0usize; 5];
    let mut total = [0usize; 5];
    let mut fired = Fired::default();
    for (seed, count, max_boxes, max_side) in [(1, 2000, 2, 6), (2, 1500, 3, 5), (3, 1000, 4, 5)] {
        for level in levels(&generate::collection(seed, count, max_boxes, max_side)) {
            for metric in [Metric::Pushes, Metric::Moves] {
                let (is_solved, stats) = fast_equals_reference(&level, metric);
                total[level.boxes().len()] += 1;
                solved[level.boxes().len()] += usize::from(is_solved);
                fired.add(stats);
            }
        }
    }
    println!("levels per box count (0: out of reach): solved {solved:?} of {total:?}, {fired:?}");
    // The prunings must have been put to the test.
    assert!(fired.pair_deadlocks > 300, "{fired:?}");
    assert!(fired.dominated > 300, "{fired:?}");
    assert!(fired.triple_deadlocks > 50, "{fired:?}");
    assert!(fired.off_paths > 1000, "{fired:?}");
    assert!(fired.over_ceiling > 300, "{fired:?}");
    assert!(fired.walked_over > 30, "{fired:?}");
    assert!(fired.push_balls > 1000, "{fired:?}");
    // The sample must hold solvable and unsolvable levels of every size.
    for boxes in 1..=4 {
        assert!(
            solved[boxes] > 50,
            "{boxes} boxes: {solved:?} solved of {total:?}"
        );
        assert!(
            total[boxes] - solved[boxes] > 50,
            "{boxes} boxes: {solved:?} of {total:?}"
        );
    }
}

/// `text` with boxes set on some of its empty squares that are frozen from the start:
/// squares between walls on both axes (a corner or a dead end) and, where the room has
/// an empty 2 x 2 square, a block of four; each on a goal, or (one level in eight) one off
/// a goal with a free goal added, which makes the level unsolvable.
fn with_frozen_boxes(rng: &mut SplitMix64, text: &str) -> String {
    let mut rows: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    let at = |rows: &[Vec<u8>], r: usize, c: usize| rows.get(r).and_then(|row| row.get(c).copied());
    let wall = |rows: &[Vec<u8>], r: usize, c: usize| at(rows, r, c).is_none_or(|b| b == b'#');
    let (height, width) = (rows.len(), rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut empty = Vec::new();
    for r in 1..height.saturating_sub(1) {
        for c in 1..width.saturating_sub(1) {
            if at(&rows, r, c) == Some(b' ') {
                empty.push((r, c));
            }
        }
    }
    let mut set = Vec::new();
    // A block of four, where one fits.
    let blocks: Vec<_> = empty
        .iter()
        .filter(|&&(r, c)| {
            [(r, c + 1), (r + 1, c), (r + 1, c + 1)]
                .iter()
                .all(|&(r, c)| at(&rows, r, c) == Some(b' '))
        })
        .copied()
        .collect();
    if !blocks.is_empty() && rng.below(2) == 0 {
        let (r, c) = blocks[rng.below(blocks.len())];
        set.extend([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]);
    }
    for &(r, c) in &empty {
        let across = wall(&rows, r, c - 1) || wall(&rows, r, c + 1);
        let along = wall(&rows, r - 1, c) || wall(&rows, r + 1, c);
        if across && along && !set.contains(&(r, c)) && rng.below(2) == 0 {
            set.push((r, c));
        }
    }
    let off_goal = !set.is_empty() && rng.below(8) == 0;
    for (i, &(r, c)) in set.iter().enumerate() {
        rows[r][c] = if off_goal && i == 0 { b'$' } else { b'*' };
    }
    if off_goal {
        // The goal the box off its goal would need, on any other empty square.
        if let Some(&(r, c)) = empty.iter().find(|&&(r, c)| rows[r][c] == b' ') {
            rows[r][c] = b'.';
        }
    }
    rows.iter()
        .map(|r| String::from_utf8_lossy(r).into_owned() + "\n")
        .collect()
}

/// Boxes frozen from the start are walls for the front door ([`sokoban::solve`]): on
/// random rooms with boxes on goals in corners, dead ends and blocks of four, and a few
/// with one off its goal, its answers equal the exhaustive reference's on the level as
/// it is, both metrics, every solution replayed on the original level.
#[test]
fn frozen_boxes_as_walls_keep_both_optima() {
    let mut rng = SplitMix64::new(1441);
    let (mut as_walls, mut off_goal, mut solved, mut total) = (0, 0, 0, 0);
    for round in 0..1500 {
        let text = generate::random_level(&mut rng, 1 + round % 3, 6, [0, 10, 20][round % 3]);
        let text = with_frozen_boxes(&mut rng, &text);
        let Ok(level) = text.parse::<Level>() else {
            continue;
        };
        match walled(&level) {
            Frozen::Walled(_) => as_walls += 1,
            Frozen::OffGoal => off_goal += 1,
            Frozen::Nothing => {}
        }
        for metric in [Metric::Pushes, Metric::Moves] {
            let options = Options {
                metric,
                ..Options::default()
            };
            let got = replayed(&level, sokoban::solve(&level, &options));
            assert_eq!(got, reference(&level, metric), "{metric:?}\n{text}");
            solved += usize::from(got.is_some());
            total += 1;
        }
    }
    println!("{as_walls} walled, {off_goal} frozen off a goal, {solved} of {total} solved");
    assert!(as_walls > 500, "{as_walls}");
    assert!(off_goal > 50, "{off_goal}");
    assert!(solved > 1000, "{solved} of {total}");
}

/// `--metric moves` on rooms of up to 7 x 7 with 3 boxes, where the player walks between
/// boxes and a layout is reached with the player on many squares: dropping the states
/// walked over (also off, in [`fast_counting`]) keeps the reference's optimum, and fires
/// often.
#[test]
fn walks_keep_the_fewest_moves() {
    let mut rng = SplitMix64::new(1603);
    let (mut solved, mut total) = (0, 0);
    let mut fired = Fired::default();
    for round in 0..2000 {
        let text = generate::random_level(&mut rng, 3, 7, [0, 10, 20][round % 3]);
        let Ok(level) = text.parse::<Level>() else {
            continue;
        };
        let (is_solved, stats) = fast_equals_reference(&level, Metric::Moves);
        total += 1;
        solved += usize::from(is_solved);
        fired.add(stats);
    }
    println!("{solved} of {total} solved, {fired:?}");
    assert!(solved > 50, "{solved} of {total}");
    assert!(fired.walked_over > 1000, "{fired:?}");
    assert!(fired.rebounded > 100, "{fired:?}");
}

/// Two rooms of 2 to 4 x 2 to 4 squares joined by a one-wide corridor of 1 to 3
/// squares, `boxes` boxes (the first in the corridor) and as many goals anywhere, the
/// player anywhere: a box in the corridor can be pushed only away from the player's room,
/// into the other one, where the player can go round it and push it back.
fn two_rooms(rng: &mut SplitMix64, boxes: usize) -> String {
    let (h, w1, w2, len) = (
        rng.between(2, 4),
        rng.between(2, 4),
        rng.between(2, 4),
        rng.between(1, 3),
    );
    let width = w1 + len + w2;
    let door = rng.below(h);
    let mut inner: Vec<u8> = (0..h * width)
        .map(|at| {
            let c = at % width;
            if c < w1 || c >= w1 + len || at / width == door {
                b' '
            } else {
                b'#'
            }
        })
        .collect();
    let floor: Vec<usize> = (0..h * width).filter(|&at| inner[at] == b' ').collect();
    let corridor = door * width + w1 + rng.below(len);
    let mut taken = vec![corridor];
    let draw = |rng: &mut SplitMix64, taken: &mut Vec<usize>| loop {
        let at = floor[rng.below(floor.len())];
        if !taken.contains(&at) {
            taken.push(at);
            return at;
        }
    };
    for _ in 1..boxes {
        draw(rng, &mut taken);
    }
    let player = draw(rng, &mut taken);
    for &b in &taken[..boxes] {
        inner[b] = b'$';
    }
    inner[player] = b'@';
    for _ in 0..boxes {
        let g = floor[rng.below(floor.len())];
        inner[g] = match inner[g] {
            b'$' => b'*',
            b'@' => b'+',
            b' ' => b'.',
            other => other,
        };
    }
    let mut text = "#".repeat(width + 2) + "\n";
    for row in inner.chunks(width) {
        text += &format!("#{}#\n", String::from_utf8_lossy(row));
    }
    text + &"#".repeat(width + 2) + "\n"
}

/// Two rooms of 2 to 4 x 2 to 4 squares joined by a door (one square) that holds a box on
/// a goal, another box in the left room, the player and `boxes - 1` goals (and `boxes -
/// 2` more boxes) in the right one: the box in the door must leave it for the other to
/// come through, and the player must first get past it, which the matching does not see
/// and the pairs' bound does (as on Microban 93).
fn door_on_goal(rng: &mut SplitMix64, boxes: usize) -> String {
    let (h, w1, w2) = (rng.between(2, 4), rng.between(2, 4), rng.between(2, 4));
    let width = w1 + 1 + w2;
    let door = rng.below(h) * width + w1;
    let mut inner: Vec<u8> = (0..h * width)
        .map(|at| {
            if at % width == w1 && at != door {
                b'#'
            } else {
                b' '
            }
        })
        .collect();
    inner[door] = b'*';
    let left: Vec<usize> = (0..h * width).filter(|&at| at % width < w1).collect();
    let right: Vec<usize> = (0..h * width).filter(|&at| at % width > w1).collect();
    inner[left[rng.below(left.len())]] = b'$';
    let mut free = right;
    let mut draw = |rng: &mut SplitMix64| free.swap_remove(rng.below(free.len()));
    inner[draw(rng)] = b'@';
    for _ in 1..boxes {
        inner[draw(rng)] = b'.';
    }
    for _ in 2..boxes {
        inner[draw(rng)] = b'$';
    }
    let mut text = "#".repeat(width + 2) + "\n";
    for row in inner.chunks(width) {
        text += &format!("#{}#\n", String::from_utf8_lossy(row));
    }
    text + &"#".repeat(width + 2) + "\n"
}

/// Every state of `level` after each push of the solution `lurd` (the start included),
/// with the pushes left after it: (boxes, player, pushes left).
fn states_along(level: &Level, lurd: &str) -> Vec<(Vec<CellId>, CellId, u32)> {
    let grid = level.grid();
    let mut boxes: Vec<CellId> = level.boxes().to_vec();
    let mut player = level.player();
    let total = lurd.chars().filter(char::is_ascii_uppercase).count() as u32;
    let mut states = vec![(boxes.clone(), player, total)];
    let mut pushed = 0;
    for c in lurd.chars() {
        let dir = match c.to_ascii_lowercase() {
            'l' => Dir::West,
            'u' => Dir::North,
            'r' => Dir::East,
            _ => Dir::South,
        };
        player = grid.neighbour(player, dir).unwrap();
        if let Some(i) = boxes.iter().position(|&b| b == player) {
            boxes[i] = grid.neighbour(player, dir).unwrap();
            pushed += 1;
            states.push((boxes.clone(), player, total - pushed));
        }
    }
    states
}

/// Levels with doors and one-wide corridors (goal rooms behind one door or a tunnel, and
/// rooms with inner walls), where a box on a square that cuts the floor can only be
/// pushed from the player's side: both optima kept with the bound that counts only those
/// sides (`Board::distance_from`), and that bound, on every state of an optimal solution,
/// at most the pushes left and often more than the matching on the best sides.
#[test]
fn sides_the_player_reaches_keep_both_optima() {
    let mut rng = SplitMix64::new(1602);
    let (mut solved, mut total, mut states, mut raised) = (0, 0, 0, 0);
    let (mut starts, mut raised_starts, mut refined, mut paired) = (0, 0, 0, 0);
    for round in 0..1600 {
        let text = match round % 4 {
            0 => generate::goal_room_level(&mut rng, 1 + round / 4 % 3),
            1 => generate::random_level(&mut rng, 2, 8, [20, 30][round / 4 % 2]),
            2 => two_rooms(&mut rng, 1 + round / 4 % 2),
            _ => door_on_goal(&mut rng, 2 + round / 4 % 2),
        };
        let Ok(level) = text.parse::<Level>() else {
            continue;
        };
        for metric in [Metric::Pushes, Metric::Moves] {
            let (is_solved, stats) = fast_equals_reference(&level, metric);
            total += 1;
            solved += usize::from(is_solved);
            refined += stats.refined;
            // The switch off: the matching on the best sides alone, the same answer.
            let without = Options {
                metric,
                bounds: Bounds {
                    player_sides: false,
                    pairs: false,
                    walks: false,
                    ball: false,
                },
                ..Options::default()
            };
            let (answer, stats) = solve_counting(&level, &without);
            assert_eq!(replayed(&level, answer), reference(&level, metric));
            assert_eq!(stats.refined, 0);
        }
        // The start, a random state: the bound with the player's sides at most the
        // reference's fewest pushes (or none when the reference finds no solution).
        if !level.stranded() {
            let [best, from, pairs] = pushes_bounds(&level, level.boxes(), level.player());
            let want = reference(&level, Metric::Pushes).map(|w| w.0);
            if let Some(w) = want {
                assert!(from.is_some_and(|f| f <= w), "{from:?} {want:?}\n{text}");
                assert!(from <= pairs && pairs <= want, "{pairs:?} {want:?}\n{text}");
                starts += 1;
                raised_starts += usize::from(from > best);
                paired += usize::from(pairs > from);
            }
        }
        let (Ok(Some(solution)), _) = solve_counting(&level, &Options::default()) else {
            continue;
        };
        for (boxes, player, left) in states_along(&level, solution.lurd()) {
            let [best, from, pairs] = pushes_bounds(&level, &boxes, player);
            let (best, from, pairs) = (best.unwrap(), from.unwrap(), pairs.unwrap());
            assert!(
                best <= from && from <= pairs && pairs <= left,
                "{best} {from} {pairs} {left}\n{}",
                level.draw(&boxes, player)
            );
            states += 1;
            raised += usize::from(from > best);
            paired += usize::from(pairs > from);
        }
    }
    println!(
        "{solved} of {total} solved; bound raised on {raised} of {states} states along \
         solutions, {raised_starts} of {starts} starts; {refined} states refined; \
         {paired} states and starts raised by the pairs"
    );
    assert!(paired > 25, "{paired}");
    assert!(solved > 200 && total - solved > 100, "{solved} of {total}");
    assert!(
        raised > 50 && raised_starts > 20,
        "{raised} {raised_starts}"
    );
    assert!(refined > 10, "{refined}");
}

/// The pattern database of pairs (`PairPushes`) on two-box levels: its bound at the
/// start is the reference's fewest pushes exactly, and none when the reference finds no
/// solution (with more boxes, `sides_the_player_reaches_keep_both_optima` checks it along
/// optimal solutions; the solver's answers with it, on by default, are checked against the
/// reference in every test here).
#[test]
fn pairs_bound_is_exact_for_two_boxes() {
    let mut twos = 0;
    for level in levels(&generate::collection(5, 600, 2, 6)) {
        if level.stranded() || level.boxes().len() != 2 {
            continue;
        }
        let want = reference(&level, Metric::Pushes).map(|w| w.0);
        let [_, from, pairs] = pushes_bounds(&level, level.boxes(), level.player());
        if from.is_some() {
            assert_eq!(pairs, want, "{}", level.title());
            twos += 1;
        }
    }
    assert!(twos > 100, "{twos}");
}

/// Five and six boxes in rooms of up to 5 x 5: layouts reached with the player on many
/// squares in several parts of the floor, where one expansion serves several states and
/// `--metric pushes` drops states dominated by fewer pushes.
#[test]
fn many_boxes_equal_the_exhaustive_reference() {
    let (mut solved, mut total) = (0, 0);
    let mut fired = Fired::default();
    for level in levels(&generate::collection(4, 1000, 6, 5)) {
        if level.boxes().len() < 5 {
            continue;
        }
        for metric in [Metric::Pushes, Metric::Moves] {
            let (is_solved, stats) = fast_equals_reference(&level, metric);
            total += 1;
            solved += usize::from(is_solved);
            fired.add(stats);
        }
    }
    println!("{solved} of {total} solved, {fired:?}");
    assert!(solved > 40 && total - solved > 40, "{solved} of {total}");
    assert!(
        fired.pair_deadlocks > 50 && fired.dominated > 10 && fired.walked_over > 5,
        "{fired:?}"
    );
    assert!(fired.triple_deadlocks > 20, "{fired:?}");
}

/// The first phase of `--metric pushes` with PI-corral pruning against itself without,
/// on rooms of up to 12 x 12 with many inner walls, where boxes shut off parts of the
/// floor and corrals form (too large for the exhaustive reference; the phase without the
/// pruning equals the reference in the tests above): the pruning must fire often and keep
/// the fewest pushes.
#[test]
fn pi_corrals_keep_the_fewest_pushes() {
    let mut rng = SplitMix64::new(1601);
    let (mut solved, mut total, mut corrals) = (0, 0, 0);
    for round in 0..4000 {
        let boxes = 2 + round % 5;
        let text = generate::random_level(&mut rng, boxes, 12, [25, 35, 45][round % 3]);
        for level in levels(&text) {
            let (with, stats) = fewest_pushes(&level, &Options::default(), Pruning::PiCorrals);
            let (without, _) = fewest_pushes(&level, &Options::default(), Pruning::None);
            assert_eq!(
                with.unwrap(),
                without.unwrap(),
                "{}",
                level.draw(level.boxes(), level.player())
            );
            total += 1;
            solved += usize::from(with.unwrap().is_some());
            corrals += stats.corrals;
        }
    }
    println!("{solved} of {total} solved, {corrals} expansions with a PI-corral");
    assert!(solved > 100 && total - solved > 100, "{solved} of {total}");
    assert!(corrals > 150, "{corrals}");
}

/// The two- and three-box tables against the reference: on small random levels with two
/// or three boxes, the table calls a placement of the boxes and the player dead exactly
/// when the exhaustive search finds no solution from it.
#[test]
fn group_deadlocks_equal_the_exhaustive_reference() {
    let mut rng = SplitMix64::new(12);
    for (m, seed) in [(2, 5), (3, 6)] {
        let (mut dead, mut alive) = (0, 0);
        for level in levels(&generate::collection(seed, 600, m, 6)) {
            let n = level.grid().cell_count();
            if level.boxes().len() != m || level.stranded() || n < m + 2 {
                continue;
            }
            for _ in 0..10 {
                let mut squares: Vec<usize> = Vec::new();
                while squares.len() < m + 1 {
                    let c = rng.below(n);
                    if !squares.contains(&c) {
                        squares.push(c);
                    }
                }
                let mut boxes: Vec<CellId> = squares[..m].iter().map(|&c| CellId::new(c)).collect();
                boxes.sort_unstable();
                let drawn = level.draw(&boxes, CellId::new(squares[m]));
                let placed = drawn
                    .parse::<Level>()
                    .unwrap_or_else(|e| panic!("{e}\n{drawn}"));
                let b: Vec<usize> = placed.boxes().iter().map(|c| c.index()).collect();
                let p = placed.player().index();
                let is_dead = if m == 2 {
                    GroupDeadlocks::new(&placed).dead(b[0], b[1], p)
                } else {
                    GroupDeadlocks::triples(&placed).dead3(b[0], b[1], b[2], p)
                };
                assert_eq!(
                    is_dead,
                    reference(&placed, Metric::Pushes).is_none(),
                    "{m} boxes\n{drawn}"
                );
                dead += usize::from(is_dead);
                alive += usize::from(!is_dead);
            }
        }
        assert!(
            dead > 100 && alive > 100,
            "{m} boxes: {dead} dead, {alive} alive"
        );
    }
}

/// A `sokoban-path` maze (`S B T . #` rows after an `R C` header) as XSB, walled around.
fn path_maze_to_xsb(text: &str) -> String {
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let width = rows.first().map_or(0, |r| r.len());
    let mut xsb = format!("{}\n", "#".repeat(width + 2));
    for row in rows {
        let row: String = row
            .chars()
            .map(|c| match c {
                'S' => '@',
                'B' => '$',
                'T' => '.',
                '#' => '#',
                _ => ' ',
            })
            .collect();
        xsb.push_str(&format!("#{row}#\n"));
    }
    xsb.push_str(&format!("{}\n", "#".repeat(width + 2)));
    xsb
}

#[test]
fn one_box_equals_sokoban_path_pushes_and_walks() {
    let mut rng = SplitMix64::new(77);
    let mut solved = 0;
    for _ in 0..1500 {
        let (rows, cols) = (rng.between(1, 8), rng.between(3, 8));
        let walls = [0, 10, 20, 30][rng.below(4)];
        let text = sokoban_path::generate::random_maze(&mut rng, rows, cols, walls);
        let maze: sokoban_path::Maze = text.parse().unwrap();
        let want = sokoban_path::solve(&maze, &sokoban_path::Options::default())
            .unwrap()
            .map(|s| (s.pushes() as u32, (s.pushes() + s.walks()) as u32));
        let level = path_maze_to_xsb(&text).parse::<Level>().unwrap();
        assert_eq!(fast(&level, Metric::Pushes), want, "{text}");
        solved += usize::from(want.is_some());
    }
    assert!(solved > 300 && solved < 1400, "{solved} solvable");
}

#[test]
fn one_box_equals_sokoban_steps_steps() {
    let mut solved = 0;
    for seed in 0..1500 {
        let text = sokoban_steps::generate::small(seed);
        let puzzle: sokoban_steps::Puzzle = text.parse().unwrap();
        let want = sokoban_steps::solve(&puzzle, &sokoban_steps::Options::default())
            .unwrap()
            .map(|s| s.steps());
        // X player, * box, @ target, . floor, # wall.
        let rows: Vec<&str> = text.lines().skip(1).collect();
        let width = rows.first().map_or(0, |r| r.len());
        let mut xsb = format!("{}\n", "#".repeat(width + 2));
        for row in rows {
            let row: String = row
                .chars()
                .map(|c| match c {
                    'X' => '@',
                    '*' => '$',
                    '@' => '.',
                    '#' => '#',
                    _ => ' ',
                })
                .collect();
            xsb.push_str(&format!("#{row}#\n"));
        }
        xsb.push_str(&format!("{}\n", "#".repeat(width + 2)));
        let level = xsb.parse::<Level>().unwrap();
        assert_eq!(
            fast(&level, Metric::Moves).map(|(_, m)| m),
            want,
            "seed {seed}\n{xsb}"
        );
        solved += usize::from(want.is_some());
    }
    assert!(solved > 300 && solved < 1400, "{solved} solvable");
}

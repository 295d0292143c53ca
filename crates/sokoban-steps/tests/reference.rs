#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The solver against a slow, obviously-correct reference: breadth-first search over every
//! (player, box) pair, on hundreds of random boards from fixed seeds. The reference reads
//! the text itself and shares no code with the solver; every path is also replayed by the
//! library's checker.

use sokoban_steps::internals::Solver;
use sokoban_steps::{Puzzle, generate, replay};

/// The reference: a board of bytes, moves by the spec's rules, nothing clever.
struct Reference {
    height: usize,
    width: usize,
    open: Vec<bool>,
    player: usize,
    box_cell: usize,
    target: usize,
}

const DIRS: [(isize, isize, char); 4] = [(-1, 0, 'n'), (1, 0, 's'), (0, -1, 'w'), (0, 1, 'e')];
const NONE: u32 = u32::MAX;

impl Reference {
    fn parse(text: &str) -> Self {
        let mut lines = text.lines();
        let header: Vec<usize> = lines
            .next()
            .unwrap()
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let (height, width) = (header[0], header[1]);
        let mut r = Reference {
            height,
            width,
            open: vec![false; height * width],
            player: 0,
            box_cell: 0,
            target: 0,
        };
        for (row, line) in lines.take(height).enumerate() {
            for (col, ch) in line.chars().take(width).enumerate() {
                let i = row * width + col;
                r.open[i] = ch != '#';
                match ch {
                    'X' => r.player = i,
                    '*' => r.box_cell = i,
                    '@' => r.target = i,
                    _ => {}
                }
            }
        }
        r
    }

    /// The floor cell one step from `cell`, if any (outside the grid is wall).
    fn step(&self, cell: usize, dir: usize) -> Option<usize> {
        let (dr, dc, _) = DIRS[dir];
        let row = (cell / self.width).checked_add_signed(dr)?;
        let col = (cell % self.width).checked_add_signed(dc)?;
        (row < self.height && col < self.width && self.open[row * self.width + col])
            .then_some(row * self.width + col)
    }

    /// The state after moving in `dir` from (player, box), and whether it pushed.
    fn successor(
        &self,
        (player, box_cell): (usize, usize),
        dir: usize,
    ) -> Option<((usize, usize), bool)> {
        let next = self.step(player, dir)?;
        if next != box_cell {
            return Some(((next, box_cell), false));
        }
        let beyond = self.step(box_cell, dir)?;
        Some(((next, beyond), true))
    }

    fn index(&self, (player, box_cell): (usize, usize)) -> usize {
        player * self.open.len() + box_cell
    }

    /// Fewest steps by plain forward BFS over (player, box).
    fn fewest_steps(&self) -> Option<u32> {
        let n = self.open.len();
        let mut dist = vec![NONE; n * n];
        let start = (self.player, self.box_cell);
        dist[self.index(start)] = 0;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let d = dist[self.index(s)];
            if s.1 == self.target {
                return Some(d);
            }
            for dir in 0..4 {
                if let Some((t, _)) = self.successor(s, dir) {
                    if dist[self.index(t)] == NONE {
                        dist[self.index(t)] = d + 1;
                        queue.push_back(t);
                    }
                }
            }
        }
        None
    }

    /// The lexicographically smallest optimal sequence: BFS distances to the goal over the
    /// reversed move graph, then the first direction that keeps the distance dropping.
    fn smallest_path(&self) -> Option<String> {
        let n = self.open.len();
        let states = || {
            (0..n)
                .flat_map(move |p| (0..n).map(move |b| (p, b)))
                .filter(|&(p, b)| p != b && self.open[p] && self.open[b])
        };
        let mut reverse: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n * n];
        let mut to_goal = vec![NONE; n * n];
        let mut queue = std::collections::VecDeque::new();
        for s in states() {
            if s.1 == self.target {
                to_goal[self.index(s)] = 0;
                queue.push_back(s);
                continue; // the game has ended: no moves out of a goal state
            }
            for dir in 0..4 {
                if let Some((t, _)) = self.successor(s, dir) {
                    reverse[self.index(t)].push(s);
                }
            }
        }
        while let Some(t) = queue.pop_front() {
            let d = to_goal[self.index(t)];
            for &s in &reverse[self.index(t)] {
                if to_goal[self.index(s)] == NONE {
                    to_goal[self.index(s)] = d + 1;
                    queue.push_back(s);
                }
            }
        }
        let mut s = (self.player, self.box_cell);
        if to_goal[self.index(s)] == NONE {
            return None;
        }
        let mut path = String::new();
        while s.1 != self.target {
            let here = to_goal[self.index(s)];
            let (t, pushed, letter) = (0..4)
                .find_map(|dir| {
                    let (t, pushed) = self.successor(s, dir)?;
                    (to_goal[self.index(t)] == here - 1).then_some((t, pushed, DIRS[dir].2))
                })
                .unwrap();
            path.push(if pushed {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
            s = t;
        }
        Some(path)
    }
}

/// Compares everything the solver says about `text` with the reference.
fn check(text: &str, what: &str) -> Option<u32> {
    let reference = Reference::parse(text);
    let expected = reference.fewest_steps();
    let puzzle = text.parse::<Puzzle>().unwrap();
    let mut solver = Solver::new(&puzzle);
    assert_eq!(solver.fewest_steps(), expected, "{what}: steps\n{text}");
    let path = solver.smallest_path().map(|p| p.to_string());
    assert_eq!(path, reference.smallest_path(), "{what}: path\n{text}");
    if let Some(path) = &path {
        assert_eq!(
            replay(&puzzle, path).map(|n| n as u32),
            Ok(expected.unwrap()),
            "{what}: replay\n{text}"
        );
    }
    expected
}

#[test]
fn small_random_boards_agree_with_the_reference() {
    let (mut solvable, mut unsolvable, mut strips) = (0, 0, 0);
    for seed in 0..3000 {
        let text = generate::small(seed);
        let header = text.lines().next().unwrap().to_owned();
        if header.starts_with("1 ") || header.ends_with(" 1") || header.starts_with("2 ") {
            strips += 1;
        }
        match check(&text, &format!("seed {seed}")) {
            Some(_) => solvable += 1,
            None => unsolvable += 1,
        }
    }
    // The sample must exercise both outcomes and the strips, or it proves little.
    assert!(
        solvable > 600 && unsolvable > 600 && strips > 600,
        "{solvable} {unsolvable} {strips}"
    );
}

#[test]
fn generated_levels_agree_with_the_reference() {
    for seed in 0..12 {
        check(&generate::room(seed, 12, 14, 12), &format!("room {seed}"));
        check(
            &generate::room(seed, 9, 16, 25),
            &format!("dense room {seed}"),
        );
        check(&generate::ladder(seed, 14, 16), &format!("ladder {seed}"));
        assert_eq!(
            check(
                &generate::unsolvable(seed, 10, 14, 10),
                &format!("unsolvable {seed}")
            ),
            None
        );
    }
}

#[test]
fn official_samples() {
    assert_eq!(check("4 4\n....\n..*@\n....\n.X..\n", "sample 1"), Some(3));
    assert_eq!(
        check(
            "6 6\n...#..\n......\n#*##..\n..##.#\n..X...\n.@#...\n",
            "sample 2"
        ),
        Some(11)
    );
}

/// Large generated levels, whose answers a separate plain (player, box) BFS with a
/// visited bitset certified once (seconds each, too slow for the suite): the solver must
/// match them, and its path must replay to the same length.
#[test]
fn large_levels_match_certified_answers_and_paths_replay() {
    let levels = [
        (generate::room(1, 128, 128, 12), Some(322)),
        (generate::ladder(1, 128, 128), Some(153)),
        (generate::ladder(2, 128, 128), Some(740)),
        (generate::unsolvable(1, 128, 128, 12), None),
    ];
    for (text, expected) in levels {
        let puzzle = text.parse::<Puzzle>().unwrap();
        let mut solver = Solver::new(&puzzle);
        assert_eq!(solver.fewest_steps(), expected);
        let path = solver.smallest_path();
        assert_eq!(path.as_ref().map(|p| p.len() as u32), expected);
        if let Some(path) = path {
            assert_eq!(replay(&puzzle, &path.to_string()), Ok(path.len()));
        }
    }
}

//! What the tests and `cargo xtask find-cases` share about sokoban-path answers: the four
//! keys of a move string, a simulation of the queue-order tie-break of the widely copied
//! AcWing 174 solution (and of the spec's second pitfall), and whether the box revisits
//! a cell. Test code, not product: included by `tests/reference.rs` and by xtask with
//! `#[path]`, never part of the library.

#![allow(clippy::unwrap_used, dead_code)]

use std::collections::VecDeque;

use grid_core::{CellId, Dir};
use sokoban_path::Maze;

/// The four keys of a move string, comparable: (pushes, walks, push ranks, walk ranks).
pub fn key(moves: &str) -> (usize, usize, Vec<usize>, Vec<usize>) {
    let pushes: Vec<usize> = moves.chars().filter_map(|c| "NSWE".find(c)).collect();
    let walks: Vec<usize> = moves.chars().filter_map(|c| "nswe".find(c)).collect();
    (pushes.len(), walks.len(), pushes, walks)
}

/// A simulation of the tie-break of the widely copied AcWing 174 solution (the C++ baseline):
/// breadth-first over (box, last push) in queue order, pushes tried N, S, W, E, each state
/// keeping the first way in unless a later one has strictly fewer walks, each walk the path
/// of a breadth-first tree grown from the person (not the smallest walk), and the first
/// target state in queue order among those with the fewest (pushes, walks).
pub fn acwing(maze: &Maze) -> Option<String> {
    queue_order(maze, true)
}

/// [`acwing`], or with `replace` false the bug of the spec's second pitfall: every state
/// keeps its first way in even when a later one has fewer walks.
pub fn queue_order(maze: &Maze, replace: bool) -> Option<String> {
    let grid = &maze.grid();
    let n = grid.cell_count();
    // The walk: BFS from `from`, first discovery wins, neighbours in N, S, W, E order.
    let walk = |from: CellId, to: CellId, cell: CellId| -> Option<Vec<Dir>> {
        let mut parent: Vec<Option<Dir>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[from.index()] = true;
        seen[cell.index()] = true;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            if c == to {
                let mut path = Vec::new();
                let mut at = c;
                while let Some(d) = parent[at.index()] {
                    path.push(d);
                    at = grid.neighbour(at, d.opposite()).unwrap();
                }
                path.reverse();
                return Some(path);
            }
            for dir in Dir::ALL {
                if let Some(next) = grid.neighbour(c, dir).filter(|x| !seen[x.index()]) {
                    seen[next.index()] = true;
                    parent[next.index()] = Some(dir);
                    queue.push_back(next);
                }
            }
        }
        None
    };
    // Per (box cell, last push): (pushes, walks), the walk and push into it, predecessor.
    type Entry = ((usize, usize), Vec<Dir>, Dir, Option<usize>);
    let mut states: Vec<Option<Entry>> = vec![None; n * 4];
    let mut queue = VecDeque::new();
    for dir in Dir::ALL {
        let (Some(at), Some(to)) = (
            grid.neighbour(maze.box_start(), dir.opposite()),
            grid.neighbour(maze.box_start(), dir),
        ) else {
            continue;
        };
        if let Some(path) = walk(maze.person(), at, maze.box_start()) {
            let s = to.index() * 4 + dir.index();
            states[s] = Some(((1, path.len()), path, dir, None));
            queue.push_back(s);
        }
    }
    let mut end: Option<(usize, (usize, usize))> = None;
    while let Some(s) = queue.pop_front() {
        let (cell, last) = (CellId::new(s / 4), Dir::ALL[s % 4]);
        let dist = states[s].as_ref().unwrap().0;
        if cell == maze.target() && end.is_none_or(|(_, d)| dist < d) {
            end = Some((s, dist));
        }
        let person = grid.neighbour(cell, last.opposite()).unwrap();
        for dir in Dir::ALL {
            let (Some(at), Some(to)) = (
                grid.neighbour(cell, dir.opposite()),
                grid.neighbour(cell, dir),
            ) else {
                continue;
            };
            let Some(path) = walk(person, at, cell) else {
                continue;
            };
            let next = (dist.0 + 1, dist.1 + path.len());
            let t = to.index() * 4 + dir.index();
            match &states[t] {
                None => {
                    states[t] = Some((next, path, dir, Some(s)));
                    queue.push_back(t);
                }
                Some((d, ..)) if replace && *d > next => {
                    states[t] = Some((next, path, dir, Some(s)))
                }
                Some(_) => {}
            }
        }
    }
    let (mut s, _) = end?;
    let mut pieces = Vec::new();
    loop {
        let (_, path, dir, pre) = states[s].as_ref().unwrap();
        let mut piece: String = path.iter().map(|d| d.walk_letter()).collect();
        piece.push(dir.push_letter());
        pieces.push(piece);
        match pre {
            Some(p) => s = *p,
            None => break,
        }
    }
    pieces.reverse();
    Some(pieces.concat())
}

/// Whether the box stands on some cell twice during `moves`.
pub fn box_revisits(m: &Maze, moves: &str) -> bool {
    let mut cell = m.box_start();
    let mut seen = vec![cell];
    for c in moves.chars().filter(char::is_ascii_uppercase) {
        let (dir, _) = Dir::from_letter(c).unwrap();
        cell = m.grid().neighbour(cell, dir).unwrap();
        if seen.contains(&cell) {
            return true;
        }
        seen.push(cell);
    }
    false
}

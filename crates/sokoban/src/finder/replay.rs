//! A found state's moves read back as LURD: per push, a shortest walk (boxes as walls)
//! from where the player stands to the square behind the box, then the push; a macro's
//! pushes found again by [`PushTree`], the fewest that leave the player in the next
//! state's region.
//!
//! # Complexity
//! O(pushes x squares), and O(squares^2) per macro.

use grid_core::{CellId, Dir};

use super::box_path::PushTree;
use super::store::{NONE, Store};
use super::walk::Walker;
use crate::parse::Level;

/// The moves from the start of `level` to `state` of `store`.
pub(super) fn lurd(level: &Level, store: &Store, state: u32, walker: &mut Walker) -> String {
    let mut chain = ancestry(store, state);
    chain.reverse();
    let layouts: Vec<&[u16]> = chain.iter().map(|&s| store.state(s)).collect();
    lurd_through(level, &layouts, walker)
}

/// `state` of `store`, then the state it was reached from, and so on to a start.
pub(super) fn ancestry(store: &Store, state: u32) -> Vec<u32> {
    let mut chain = vec![state];
    let mut at = state;
    while store.parent(at) != NONE {
        at = store.parent(at);
        chain.push(at);
    }
    chain
}

/// The moves from the start of `level` through `layouts` in order (each a state's
/// words: its sorted box squares, first the start's), each one move of one box (a
/// push, or a macro's pushes) from the one before.
pub(super) fn lurd_through(level: &Level, layouts: &[&[u16]], walker: &mut Walker) -> String {
    let grid = level.grid();
    let k = level.boxes().len();
    let mut occupied = vec![false; grid.cell_count()];
    let mut player = level.player();
    let mut text = String::new();
    let mut steps: Vec<Dir> = Vec::new();
    let mut pushes: Vec<(CellId, Dir)> = Vec::new();
    let mut tree = PushTree::new(grid.cell_count());
    for pair in layouts.windows(2) {
        let (before, after) = (&pair[0][..k], &pair[1][..k]);
        let from = before.iter().find(|b| !after.contains(b));
        let to = after.iter().find(|b| !before.contains(b));
        let (Some(&from), Some(&to)) = (from, to) else {
            continue;
        };
        let (from, to) = (CellId::new(usize::from(from)), CellId::new(usize::from(to)));
        for &b in before {
            occupied[usize::from(b)] = true;
        }
        walker.run(grid, &occupied, player);
        let single = Dir::ALL
            .into_iter()
            .find(|&d| grid.neighbour(from, d) == Some(to))
            .filter(|&dir| {
                grid.neighbour(from, dir.opposite())
                    .is_some_and(|behind| walker.reached(behind))
            });
        // One push, or a macro's many: the fewest that take the box there and leave the
        // player in the next state's region (a move of the box may end with the player on
        // any side, and a box may reach a neighbouring square the long way round).
        let region = pair[1].get(k).map(|&r| CellId::new(usize::from(r)));
        occupied[from.index()] = false;
        occupied[to.index()] = true;
        let single = single.filter(|_| {
            walker.run(grid, &occupied, from);
            region.is_none_or(|r| walker.least() == r)
        });
        pushes.clear();
        match single {
            Some(dir) => pushes.push((from, dir)),
            None => {
                occupied[to.index()] = false;
                tree.run(grid, &occupied, player, from);
                occupied[to.index()] = true;
                let side = tree.reached_nodes().find_map(|(cell, side)| {
                    let standing = grid.neighbour(cell, side).filter(|_| cell == to)?;
                    walker.run(grid, &occupied, standing);
                    region.is_none_or(|r| walker.least() == r).then_some(side)
                });
                match side {
                    Some(side) => tree.pushes_to_side(grid, to, side, &mut pushes),
                    None => tree.pushes_to(grid, to, &mut pushes),
                }
            }
        }
        occupied[to.index()] = false;
        occupied[from.index()] = true;
        for &(cell, dir) in &pushes {
            let Some(behind) = grid.neighbour(cell, dir.opposite()) else {
                break;
            };
            walker.run(grid, &occupied, player);
            steps.clear();
            walker.walk_to(grid, behind, &mut steps);
            text.extend(steps.iter().map(|&d| char::from(walk_letter(d))));
            text.push(char::from(walk_letter(dir).to_ascii_uppercase()));
            occupied[cell.index()] = false;
            if let Some(next) = grid.neighbour(cell, dir) {
                occupied[next.index()] = true;
            }
            player = cell;
        }
        for &b in before.iter().chain(after) {
            occupied[usize::from(b)] = false;
        }
    }
    text
}

/// The LURD letter of a walk in `dir` (a push is its upper case).
pub(super) fn walk_letter(dir: Dir) -> u8 {
    match dir {
        Dir::North => b'u',
        Dir::South => b'd',
        Dir::West => b'l',
        Dir::East => b'r',
    }
}

//! Boxes frozen from the start: boxes that no sequence of moves can ever push, and the
//! level with those of them on goals made walls.
//!
//! A set of boxes is frozen when each of them, on each axis, has a wall or a box of the
//! set beside it. None of them can move first: a push along an axis needs the square
//! ahead free and the player on the square behind, and one of the two holds a wall or a
//! box of the set that has not moved. The largest such set (every box, less those that
//! fail the test, until none does) is what the level's start freezes for good: a box of
//! it off a goal makes the level unsolvable; those on goals are walls in all but name.
//!
//! Why make them walls: every table of the solver is computed from the walls (push
//! distances, dead squares, the deadlocks and pairs of boxes, the backward ball), and a
//! frozen box seen as floor lets a lone box pass where no box can and be matched to a goal
//! that is taken. Microban 144 starts with four boxes on goals in a square block: its
//! push optimum (36) is proven within seconds once they are walls, where the bound stayed
//! at 34 after 15 s before. The level with them as walls has exactly the original's
//! solutions (the frozen boxes never move in any), so its answers and LURD strings are
//! the original's.
//!
//! # Complexity
//! O(boxes^2) for the set (each round drops a box or ends), O(rows x columns) for the
//! level with walls.

use grid_core::{CellId, Dir};

use crate::parse::Level;

/// What the boxes frozen from the start make of a level.
#[derive(Debug)]
pub enum Frozen {
    /// No box is frozen on a goal while another can move: the level as it is.
    Nothing,
    /// A frozen box off a goal: the level is unsolvable.
    OffGoal,
    /// The level with the frozen boxes (all on goals) as walls, and at least one box
    /// left that may move.
    Walled(Level),
}

/// The boxes of `level` frozen from the start, sorted: the largest set whose boxes each
/// have, on both axes, a wall or a box of the set beside them.
pub fn frozen_boxes(level: &Level) -> Vec<CellId> {
    let grid = level.grid();
    let mut frozen = vec![false; grid.cell_count()];
    for b in level.boxes() {
        frozen[b.index()] = true;
    }
    // A square beside `cell` toward `dir` stops it: a wall (no floor cell) or a frozen box.
    let stops = |frozen: &[bool], cell: CellId, dir: Dir| {
        grid.neighbour(cell, dir).is_none_or(|n| frozen[n.index()])
    };
    loop {
        let mut dropped = false;
        for &b in level.boxes() {
            if !frozen[b.index()] {
                continue;
            }
            let across = stops(&frozen, b, Dir::West) || stops(&frozen, b, Dir::East);
            let along = stops(&frozen, b, Dir::North) || stops(&frozen, b, Dir::South);
            if !(across && along) {
                frozen[b.index()] = false;
                dropped = true;
            }
        }
        if !dropped {
            break;
        }
    }
    level
        .boxes()
        .iter()
        .copied()
        .filter(|b| frozen[b.index()])
        .collect()
}

/// `level` with its boxes frozen from the start as walls ([`Frozen`]).
pub fn walled(level: &Level) -> Frozen {
    if level.stranded() {
        return Frozen::Nothing;
    }
    let frozen = frozen_boxes(level);
    if frozen
        .iter()
        .any(|b| level.goals().binary_search(b).is_err())
    {
        return Frozen::OffGoal;
    }
    // None frozen, or all: a solved start, which the search answers at once.
    if frozen.is_empty() || frozen.len() == level.boxes().len() {
        return Frozen::Nothing;
    }
    let grid = level.grid();
    let mut rows: Vec<Vec<u8>> = level
        .draw(level.boxes(), level.player())
        .lines()
        .map(|line| line.as_bytes().to_vec())
        .collect();
    for &b in &frozen {
        let (row, col) = grid.position(b);
        rows[row][col] = b'#';
    }
    match Level::from_rows(level.number(), level.title().to_owned(), &rows) {
        Ok(inner) => Frozen::Walled(inner),
        // Not reached (fewer boxes and goals, as many of each, the player kept); the
        // level as it is stays a right answer.
        Err(_) => Frozen::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rows: &[&str]) -> Level {
        Level::new("; t", rows).unwrap()
    }

    #[test]
    fn a_square_block_and_a_corner_box_freeze_and_a_box_free_along_its_wall_does_not() {
        // A 2 x 2 block of boxes on goals in the open, a box on a goal in a corner, and
        // a box against the top wall that can still go left or right.
        let l = level(&[
            "########", //
            "#*   $ #", "#  ** .#", "#@ **  #", "#      #", "########",
        ]);
        let frozen: Vec<_> = frozen_boxes(&l)
            .iter()
            .map(|&b| l.grid().position(b))
            .collect();
        assert_eq!(frozen, vec![(1, 1), (2, 3), (2, 4), (3, 3), (3, 4)]);
        let Frozen::Walled(inner) = walled(&l) else {
            panic!("expected walls");
        };
        assert_eq!(inner.boxes().len(), 1);
        assert_eq!(inner.goals().len(), 1);
        assert_eq!(
            inner.draw(inner.boxes(), inner.player()),
            "########\n##   $ #\n#  ## .#\n#@ ##  #\n#      #\n########\n"
        );
    }

    #[test]
    fn a_frozen_box_off_a_goal_is_unsolvable_and_none_frozen_is_nothing() {
        let stuck = level(&["#####", "#$  #", "#@ .#", "#####"]);
        assert!(matches!(walled(&stuck), Frozen::OffGoal));
        let free = level(&["#####", "# $ #", "#@ .#", "#####"]);
        assert!(matches!(walled(&free), Frozen::Nothing));
        let solved = level(&["#####", "#*  #", "#@  #", "#####"]);
        assert!(matches!(walled(&solved), Frozen::Nothing));
    }

    #[test]
    fn a_row_along_a_wall_freezes_and_a_chain_frees_when_its_end_can_move() {
        // Three boxes in a row along the top wall: the ends can only be pushed from the
        // middle one's square, so all three are frozen.
        let row = level(&["#######", "# *** #", "#@    #", "#######"]);
        assert_eq!(frozen_boxes(&row).len(), 3);
        // A box in a one-wide slot, held along its column by the box above it, which
        // can go left or right: neither is frozen.
        let chain = level(&["#######", "#  *  #", "# #*# #", "#@    #", "#######"]);
        assert!(frozen_boxes(&chain).is_empty());
    }
}

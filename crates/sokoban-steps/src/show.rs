//! The `--show` output: the board at the start and after every push, for a person to
//! follow a solution.
//!
//! Why after pushes only: between two pushes the player just walks a shortest way around a
//! box that stands still, which the path line spells out; the boards show what changes.
//!
//! # Complexity
//! O(steps + pushes x N x M).

use std::io::{self, Write};

use crate::path::Path;
use crate::problem::Puzzle;

/// Writes, for a solution `path` of `puzzle`, the start board and then the board after each
/// push, each after a blank line and a heading such as `push 2 of 5 (step 7 of 11): S`.
/// The boards are grid-core's [`Board::draw`](grid_core::Board::draw) frames: `#` wall,
/// `.` floor, `X` the player, `*` the box, `@` the target when nothing stands on it.
///
/// # Errors
/// When writing fails. A `path` that breaks the rules stops at its first bad step (the
/// solver never produces one).
pub fn write_pushes(out: &mut impl Write, puzzle: &Puzzle, path: &Path) -> io::Result<()> {
    let board = puzzle.board();
    let pushes = path.pushes();
    let steps = path.len();
    writeln!(out)?;
    writeln!(out, "start (pushes: {pushes}, steps: {steps})")?;
    board.draw(board.start(), out)?;
    let mut pushed = 0;
    for (index, (m, at)) in board.positions(path.moves().iter().copied()).enumerate() {
        if m.push {
            pushed += 1;
            writeln!(out)?;
            let (step, letter) = (index + 1, m.letter());
            writeln!(
                out,
                "push {pushed} of {pushes} (step {step} of {steps}): {letter}"
            )?;
            board.draw(at, out)?;
        }
    }
    Ok(())
}

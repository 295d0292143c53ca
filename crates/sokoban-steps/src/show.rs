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
use crate::verify::Position;

/// Writes the board of `puzzle` with the player and the box at `at`: `#` wall, `.` floor,
/// `X` the player, `*` the box, `@` the target when nothing stands on it.
///
/// # Errors
/// When writing fails.
pub fn write_board(out: &mut impl Write, puzzle: &Puzzle, at: Position) -> io::Result<()> {
    let grid = puzzle.grid();
    let mut line = Vec::with_capacity(grid.width() + 1);
    for row in 0..grid.height() {
        line.clear();
        line.extend((0..grid.width()).map(|col| match grid.cell(row, col) {
            None => b'#',
            Some(c) if c == at.player => b'X',
            Some(c) if c == at.box_cell => b'*',
            Some(c) if c == puzzle.target() => b'@',
            Some(_) => b'.',
        }));
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Writes, for a solution `path` of `puzzle`, the start board and then the board after each
/// push, each after a blank line and a heading such as `push 2 of 5 (step 7 of 11): S`.
///
/// # Errors
/// When writing fails. A `path` that breaks the rules stops at its first bad step (the
/// solver never produces one).
pub fn write_pushes(out: &mut impl Write, puzzle: &Puzzle, path: &Path) -> io::Result<()> {
    let pushes = path.0.iter().filter(|m| m.push).count();
    let steps = path.0.len();
    let mut at = puzzle.start();
    writeln!(out)?;
    writeln!(out, "start (pushes: {pushes}, steps: {steps})")?;
    write_board(out, puzzle, at)?;
    let mut pushed = 0;
    for (index, m) in path.0.iter().enumerate() {
        let Ok((next, push)) = puzzle.step(at, m.dir) else {
            break;
        };
        at = next;
        if push {
            pushed += 1;
            writeln!(out)?;
            writeln!(
                out,
                "push {pushed} of {pushes} (step {} of {steps}): {}",
                index + 1,
                m.letter()
            )?;
            write_board(out, puzzle, at)?;
        }
    }
    Ok(())
}

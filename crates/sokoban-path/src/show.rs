//! `--show`: the maze drawn after every push, so a reader can follow a solution without
//! decoding the move string.
//!
//! Why a drawing per push and not per move: walks never change the board except for the
//! person's place, and a drawing per move would bury the pushes under thousands of walk
//! frames on large levels. Each frame names the push and the walks before it. The frames
//! are grid-core's [`Board::draw`](grid_core::Board::draw): `#` wall, `.` floor, `T`
//! target, `B` box, `S` person, `*` box on the target, `+` person on the target.
//!
//! # Complexity
//! O(pushes x rows x columns) output.

use std::io::{self, Write};

use grid_core::Move;

use crate::problem::Maze;

/// Writes the start and then one frame after every push of `moves`, each under a title line
/// `push K of P: X after W walks`.
///
/// `moves` must be a valid answer for `maze` (as [`crate::verify()`] checks); letters that are
/// not moves, or moves that are not legal, end the drawing early.
///
/// # Errors
/// When writing fails.
pub fn show(maze: &Maze, moves: &str, out: &mut impl Write) -> io::Result<()> {
    let board = maze.board();
    let total = moves.chars().filter(char::is_ascii_uppercase).count();
    writeln!(out, "start")?;
    board.draw(board.start(), out)?;
    let (mut pushes, mut walks) = (0, 0);
    let moves = moves.chars().map_while(Move::from_letter);
    for (m, at) in board.positions(moves) {
        if !m.push {
            walks += 1;
            continue;
        }
        pushes += 1;
        let letter = m.letter();
        writeln!(
            out,
            "push {pushes} of {total}: {letter} after {walks} walks"
        )?;
        board.draw(at, out)?;
        walks = 0;
    }
    Ok(())
}

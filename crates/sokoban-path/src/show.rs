//! `--show`: the maze drawn after every push, so a reader can follow a solution without
//! decoding the move string.
//!
//! Why a drawing per push and not per move: walks never change the board except for the
//! person's place, and a drawing per move would bury the pushes under thousands of walk
//! frames on large levels. Each frame names the push and the walks before it.
//!
//! # Complexity
//! O(pushes x rows x columns) output.

use std::io::{self, Write};

use grid_core::{CellId, Dir};

use crate::problem::Maze;

/// Writes one frame: `#` wall, `.` floor, `T` target, `B` box, `S` person, `*` box on the
/// target, `+` person on the target.
///
/// # Errors
/// When writing fails.
pub fn draw(maze: &Maze, person: CellId, cell: CellId, out: &mut impl Write) -> io::Result<()> {
    let grid = &maze.grid;
    let mut line = Vec::with_capacity(grid.width() + 1);
    for row in 0..grid.height() {
        line.clear();
        for col in 0..grid.width() {
            line.push(match grid.cell(row, col) {
                None => b'#',
                Some(c) if c == cell && c == maze.target => b'*',
                Some(c) if c == cell => b'B',
                Some(c) if c == person && c == maze.target => b'+',
                Some(c) if c == person => b'S',
                Some(c) if c == maze.target => b'T',
                Some(_) => b'.',
            });
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Writes the start and then one frame after every push of `moves`, each under a title line
/// `push K of P: X after W walks`.
///
/// `moves` must be a valid answer for `maze` (as [`crate::verify()`] checks); letters that are
/// not moves, or moves that are not legal, end the drawing early.
///
/// # Errors
/// When writing fails.
pub fn show(maze: &Maze, moves: &str, out: &mut impl Write) -> io::Result<()> {
    let grid = &maze.grid;
    let total = moves.chars().filter(char::is_ascii_uppercase).count();
    let mut person = maze.person;
    let mut cell = maze.box_start;
    writeln!(out, "start")?;
    draw(maze, person, cell, out)?;
    let mut pushes = 0;
    let mut walks = 0;
    for letter in moves.chars() {
        let Some((dir, is_push)) = Dir::from_letter(letter) else {
            return Ok(());
        };
        let Some(next) = grid.neighbour(person, dir) else {
            return Ok(());
        };
        if !is_push {
            person = next;
            walks += 1;
            continue;
        }
        let Some(beyond) = grid.neighbour(cell, dir) else {
            return Ok(());
        };
        person = cell;
        cell = beyond;
        pushes += 1;
        writeln!(
            out,
            "push {pushes} of {total}: {letter} after {walks} walks"
        )?;
        draw(maze, person, cell, out)?;
        walks = 0;
    }
    Ok(())
}

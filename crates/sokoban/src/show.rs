//! `--show`: the level drawn in XSB at the start and after every push of a solution, so a
//! reader can follow it without decoding the LURD string.
//!
//! Why one frame per push: walks change nothing but the player's square; a frame per move
//! would bury the pushes under the walks. Each frame names the push and the walk before it,
//! as `sokoban-path --show` and `sokoban-steps --show` do.
//!
//! # Complexity
//! O(pushes x rows x columns) output.

use std::io::{self, Write};

use grid_core::CellId;

use crate::parse::Level;
use crate::verify::{letter_dir, verify};

/// The position after each push of `lurd`: (letter, walks before it, boxes, player), after
/// the start (letter `None`). Empty when `lurd` is not a valid solution of `level`.
pub fn positions(level: &Level, lurd: &str) -> Vec<(Option<char>, u32, Vec<CellId>, CellId)> {
    if verify(level, lurd).is_err() {
        return Vec::new();
    }
    let grid = level.grid();
    let mut boxes = level.boxes().to_vec();
    let mut player = level.player();
    let mut frames = vec![(None, 0, boxes.clone(), player)];
    let mut walks = 0;
    for letter in lurd.chars() {
        let Some((dir, _)) = letter_dir(letter) else {
            return Vec::new();
        };
        let Some(next) = grid.neighbour(player, dir) else {
            return Vec::new();
        };
        player = next;
        if letter.is_ascii_uppercase() {
            if let (Some(b), Some(beyond)) = (
                boxes.iter_mut().find(|b| **b == next),
                grid.neighbour(next, dir),
            ) {
                *b = beyond;
            }
            frames.push((Some(letter), walks, boxes.clone(), player));
            walks = 0;
        } else {
            walks += 1;
        }
    }
    frames
}

/// Writes `start` and the level, then for every push `push K of P: X after W walks` and
/// the level after it.
///
/// # Errors
/// When writing fails.
pub fn show(level: &Level, lurd: &str, out: &mut impl Write) -> io::Result<()> {
    let frames = positions(level, lurd);
    let total = frames.len().saturating_sub(1);
    for (k, (letter, walks, boxes, player)) in frames.iter().enumerate() {
        match letter {
            None => writeln!(out, "start")?,
            Some(letter) => writeln!(out, "push {k} of {total}: {letter} after {walks} walks")?,
        }
        out.write_all(level.draw(boxes, *player).as_bytes())?;
    }
    Ok(())
}

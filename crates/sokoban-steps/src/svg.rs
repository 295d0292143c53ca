//! `--svg FILE`: the answer as an animated picture: the player (a disc marked `X`) and the
//! box (a square marked `*`) move one step a frame; the box turns red on the frames where
//! it is pushed and green once it stands on the target (marked `@`).
//!
//! Drawn by grid-core's single-box [`Board::write_svg`](grid_core::Board::write_svg): one frame for the start and one after every step of the
//! smallest optimal sequence (the `--path` line), so the picture replays exactly what the
//! program prints. A board without an answer gets the level with the player and the box at
//! their starts.
//!
//! # Complexity
//! O(N x M + steps) time; the output is O(wall runs + steps).

use std::io::{self, Write};

use crate::path::Path;
use crate::problem::Puzzle;

/// Writes the picture of `puzzle` and its step sequence `path` (`None`: unsolvable) to
/// `out` as one SVG document.
///
/// A `path` that breaks the rules ends the animation at the frame before its first bad
/// step (the solver never produces one; [`crate::replay`] tells).
///
/// # Errors
/// When writing fails.
///
/// # Example
/// ```
/// let puzzle: sokoban_steps::Puzzle = "1 4\nX*.@\n".parse()?;
/// let options = sokoban_steps::Options { path: true, ..Default::default() };
/// let solution = sokoban_steps::solve(&puzzle, &options)?.expect("solvable");
/// let mut svg = Vec::new();
/// sokoban_steps::internals::write_svg(&mut svg, &puzzle, solution.path())?;
/// // The box goes from column 1 to column 3 in two pushes.
/// assert!(String::from_utf8(svg).unwrap().contains(r#"values="1 0;2 0;3 0""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_svg(out: &mut impl Write, puzzle: &Puzzle, path: Option<&Path>) -> io::Result<()> {
    let title = match path {
        Some(path) => format!("sokoban-steps: {} steps, {path}", path.len()),
        None => "sokoban-steps: -1 (the box can never reach the target)".to_owned(),
    };
    let moves = path.map_or(&[][..], |path| path.moves());
    puzzle.board().write_svg(out, title, moves)
}

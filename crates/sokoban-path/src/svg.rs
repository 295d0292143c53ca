//! `--svg FILE`: the answer as an animated picture: the person (a disc marked `S`) and the
//! box (a square marked `B`) move one letter of the move string a frame; the box turns red
//! on the frames where it is pushed and green once it stands on the target (marked `T`).
//!
//! Drawn by grid-core's single-box [`Board::write_svg`](grid_core::Board::write_svg): one frame for the start and one after every move, so the
//! picture replays exactly the move string the program prints. A maze without an answer
//! gets the level with the person and the box at their starts.
//!
//! # Complexity
//! O(rows x columns + moves) time; the output is O(wall runs + moves).

use std::io::{self, Write};

use grid_core::Move;

use crate::problem::Maze;

/// Writes the picture of `maze` and its move string `moves` (`None`: impossible) to `out`
/// as one SVG document.
///
/// `moves` should be a valid answer (as [`crate::verify()`] checks): a letter that is not a
/// move, or a move that is not legal, ends the animation at the frame before it.
///
/// # Errors
/// When writing fails.
///
/// # Example
/// ```
/// let maze: sokoban_path::Maze = "1 4\nSB.T\n".parse()?;
/// let mut svg = Vec::new();
/// sokoban_path::internals::write_svg(&mut svg, &maze, Some("EE"))?;
/// // The box goes from column 1 to column 3 in two pushes.
/// assert!(String::from_utf8(svg).unwrap().contains(r#"values="1 0;2 0;3 0""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_svg(out: &mut impl Write, maze: &Maze, moves: Option<&str>) -> io::Result<()> {
    let title = match moves {
        Some(moves) => format!("sokoban-path: {moves}"),
        None => "sokoban-path: Impossible.".to_owned(),
    };
    let moves: Vec<Move> = moves
        .unwrap_or("")
        .chars()
        .map_while(Move::from_letter)
        .collect();
    maze.board().write_svg(out, title, &moves)
}

//! `--svg FILE`: the answer as an animated picture: the player (a disc marked `X`) and the
//! box (a square marked `*`) move one step a frame; the box turns red on the frames where
//! it is pushed and green once it stands on the target (marked `@`).
//!
//! Drawn with [`grid_core::svg`]: one frame for the start and one after every step of the
//! smallest optimal sequence (the `--path` line), so the picture replays exactly what the
//! program prints. A board without an answer gets the level with the player and the box at
//! their starts.
//!
//! # Complexity
//! O(N x M + steps) time; the output is O(wall runs + steps).

use std::io::{self, Write};

use grid_core::CellId;
use grid_core::svg::{Colour, Look, Mark, Picture, Place, Recording, Shape, Sprite};

use crate::path::Path;
use crate::problem::Puzzle;

/// Writes the picture of `puzzle` and its step sequence `path` (`None`: unsolvable) to
/// `out` as one SVG document.
///
/// A `path` that breaks the rules ends the animation at the frame before its first bad
/// step (the solver never produces one; [`crate::verify::replay`] tells).
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
/// sokoban_steps::svg::write_svg(&mut svg, &puzzle, solution.path())?;
/// // The box goes from column 1 to column 3 in two pushes.
/// assert!(String::from_utf8(svg).unwrap().contains(r#"values="1 0;2 0;3 0""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_svg(out: &mut impl Write, puzzle: &Puzzle, path: Option<&Path>) -> io::Result<()> {
    let grid = puzzle.grid();
    let mut picture = Picture::from_grid(grid);
    let (row, col) = grid.position(puzzle.target());
    picture.add_mark(Mark::new(row, col, Colour::TARGET).with_label("@"));
    picture.add_sprite(Sprite::new(Shape::Circle, "X", Colour::PERSON));
    picture.add_sprite(
        Sprite::new(Shape::RoundedSquare, "*", Colour::BOX)
            .with_look(Look::Pushed, Colour::PUSHED)
            .with_look(Look::Arrived, Colour::ARRIVED),
    );
    picture.set_title(match path {
        Some(path) => format!("sokoban-steps: {} steps, {path}", path.0.len()),
        None => "sokoban-steps: -1 (the box can never reach the target)".to_owned(),
    });
    let place = |cell: CellId, look: Look| {
        let (row, col) = grid.position(cell);
        let look = if cell == puzzle.target() {
            Look::Arrived
        } else {
            look
        };
        Place::at(row, col).look(look)
    };
    let mut frames = Recording::new(2);
    let mut at = puzzle.start();
    frames.push_frame(&[
        place(at.player, Look::Plain),
        place(at.box_cell, Look::Plain),
    ]);
    for step in path.map_or(&[][..], |path| &path.0) {
        let Ok((next, pushed)) = puzzle.step(at, step.dir) else {
            break;
        };
        if pushed != step.push {
            break;
        }
        at = next;
        let look = if pushed { Look::Pushed } else { Look::Plain };
        frames.push_frame(&[place(at.player, Look::Plain), place(at.box_cell, look)]);
    }
    picture.write(out, &frames)
}

//! `--svg FILE`: the answer as an animated picture: the person (a disc marked `S`) and the
//! box (a square marked `B`) move one letter of the move string a frame; the box turns red
//! on the frames where it is pushed and green once it stands on the target (marked `T`).
//!
//! Drawn with [`grid_core::svg`]: one frame for the start and one after every move, so the
//! picture replays exactly the move string the program prints. A maze without an answer
//! gets the level with the person and the box at their starts.
//!
//! # Complexity
//! O(rows x columns + moves) time; the output is O(wall runs + moves).

use std::io::{self, Write};

use grid_core::svg::{Colour, Look, Mark, Picture, Place, Recording, Shape, Sprite};
use grid_core::{CellId, Dir};

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
/// sokoban_path::svg::write_svg(&mut svg, &maze, Some("EE"))?;
/// // The box goes from column 1 to column 3 in two pushes.
/// assert!(String::from_utf8(svg).unwrap().contains(r#"values="1 0;2 0;3 0""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_svg(out: &mut impl Write, maze: &Maze, moves: Option<&str>) -> io::Result<()> {
    let grid = maze.grid();
    let mut picture = Picture::from_grid(grid);
    let (row, col) = grid.position(maze.target());
    picture.add_mark(Mark::new(row, col, Colour::TARGET).with_label("T"));
    picture.add_sprite(Sprite::new(Shape::Circle, "S", Colour::PERSON));
    picture.add_sprite(
        Sprite::new(Shape::RoundedSquare, "B", Colour::BOX)
            .with_look(Look::Pushed, Colour::PUSHED)
            .with_look(Look::Arrived, Colour::ARRIVED),
    );
    picture.set_title(match moves {
        Some(moves) => format!("sokoban-path: {moves}"),
        None => "sokoban-path: Impossible.".to_owned(),
    });
    let place = |cell: CellId, look: Look| {
        let (row, col) = grid.position(cell);
        let look = if cell == maze.target() {
            Look::Arrived
        } else {
            look
        };
        Place::at(row, col).look(look)
    };
    let mut frames = Recording::new(2);
    let (mut person, mut cell) = (maze.person(), maze.box_start());
    frames.push_frame(&[place(person, Look::Plain), place(cell, Look::Plain)]);
    for letter in moves.unwrap_or("").chars() {
        let Some((dir, is_push)) = Dir::from_letter(letter) else {
            break;
        };
        let Some(next) = grid.neighbour(person, dir) else {
            break;
        };
        let look = if is_push {
            if next != cell {
                break;
            }
            let Some(beyond) = grid.neighbour(cell, dir) else {
                break;
            };
            cell = beyond;
            Look::Pushed
        } else {
            if next == cell {
                break;
            }
            Look::Plain
        };
        person = next;
        frames.push_frame(&[place(person, Look::Plain), place(cell, look)]);
    }
    picture.write(out, &frames)
}

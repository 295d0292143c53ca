//! `--svg FILE`: the solution as an animated picture, through the shared writer
//! [`grid_core::svg`]: the player (a disc marked `@`) and the boxes (squares marked `$`)
//! move one LURD letter a frame; a box turns red on the frames it is pushed and green when
//! it stands on a goal (marked `.`, and ringed above the pieces so that a goal under a box
//! or the player still shows). A level without a solution gets the start alone.
//!
//! # Complexity
//! O(rows x columns + boxes x moves) time and output.

use std::io::{self, Write};

use grid_core::CellId;
use grid_core::svg::{Colour, Look, Mark, Picture, Place, Recording, Shape, Sprite};

use crate::parse::Level;
use crate::verify::letter_dir;

/// Writes the picture of `level` played by `lurd` (`None`: no solution) to `out` as one
/// SVG document. A letter that is not a legal move ends the animation before it.
///
/// # Errors
/// When writing fails.
pub fn write_svg(out: &mut impl Write, level: &Level, lurd: Option<&str>) -> io::Result<()> {
    let grid = level.grid();
    let mut picture = Picture::from_grid(grid);
    for &goal in level.goals() {
        let (row, col) = grid.position(goal);
        picture.add_mark(
            Mark::new(row, col, Colour::TARGET)
                .with_label(".")
                .with_ring(),
        );
    }
    picture.add_sprite(Sprite::new(Shape::Circle, "@", Colour::PERSON));
    for _ in level.boxes() {
        picture.add_sprite(
            Sprite::new(Shape::RoundedSquare, "$", Colour::BOX)
                .with_look(Look::Pushed, Colour::PUSHED)
                .with_look(Look::Arrived, Colour::ARRIVED),
        );
    }
    picture.set_title(format!(
        "sokoban {}: {}",
        level.title(),
        lurd.unwrap_or("-1")
    ));
    let place = |cell: CellId, look: Look| {
        let (row, col) = grid.position(cell);
        let look = if level.goals().contains(&cell) && look != Look::Pushed {
            Look::Arrived
        } else {
            look
        };
        Place::at(row, col).look(look)
    };
    let mut boxes = level.boxes().to_vec();
    let mut player = level.player();
    let mut frames = Recording::new(boxes.len() + 1);
    let frame = |player: CellId, boxes: &[CellId], pushed: Option<usize>| {
        let mut places = vec![Place::at(grid.position(player).0, grid.position(player).1)];
        places.extend(boxes.iter().enumerate().map(|(i, &b)| {
            place(
                b,
                if Some(i) == pushed {
                    Look::Pushed
                } else {
                    Look::Plain
                },
            )
        }));
        places
    };
    frames.push_frame(&frame(player, &boxes, None));
    for letter in lurd.unwrap_or("").chars() {
        let Some((dir, _)) = letter_dir(letter) else {
            break;
        };
        let Some(next) = grid.neighbour(player, dir) else {
            break;
        };
        let pushed = boxes.iter().position(|&b| b == next);
        if pushed.is_some() != letter.is_ascii_uppercase() {
            break;
        }
        if let Some(i) = pushed {
            match grid.neighbour(next, dir) {
                Some(beyond) if !boxes.contains(&beyond) => boxes[i] = beyond,
                _ => break,
            }
        }
        player = next;
        frames.push_frame(&frame(player, &boxes, pushed));
    }
    picture.write(out, &frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_and_the_player_move_a_square_a_frame() {
        let level = Level::from_xsb("######\n#@$ .#\n######\n").unwrap();
        let mut svg = Vec::new();
        write_svg(&mut svg, &level, Some("RR")).unwrap();
        let text = String::from_utf8(svg).unwrap();
        assert!(text.contains(r#"values="1 1;2 1;3 1""#), "{text}");
        assert!(text.contains(r#"values="2 1;3 1;4 1""#), "{text}");
        // The goal's ring comes after the box and the player: it shows under either.
        let drawing = test_support::svg_reading::read(&text);
        assert_eq!(drawing.rings, [(1, 4)]);
        assert!(drawing.rings_over_sprites);
        assert_eq!(drawing.captions, ["step 0 / 2", "step 1 / 2", "step 2 / 2"]);
        let mut still = Vec::new();
        write_svg(&mut still, &level, None).unwrap();
        assert!(String::from_utf8(still).unwrap().contains("-1"));
    }
}

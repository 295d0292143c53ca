//! `--svg FILE`: the answer as an animated picture, each ghost a disc with its letter
//! moving one step a frame, each home its tinted cell with the upper-case letter.
//!
//! Drawn with [`grid_core::svg`]: the picture has one frame for the start and one after
//! every step of the plan, so it replays exactly the plan the program prints with
//! `--plan`. A dataset with no answer gets the level with the ghosts at their starts.
//!
//! # Complexity
//! O(w x h + steps x n) time; the output is O(wall runs + steps x n).

use std::io::{self, Write};

use grid_core::CellId;
use grid_core::svg::{Colour, Mark, Picture, Place, Recording, Shape, Sprite};

use crate::dataset::{Dataset, Plan};

/// Writes the picture of `dataset` and its `plan` (`None`: no plan brings every ghost
/// home) to `out` as one SVG document.
///
/// A plan that names the wrong number of ghosts is drawn as far as its first such step
/// (the solver never produces one; [`crate::plan::check_plan`] tells).
///
/// # Errors
/// When writing fails.
///
pub fn write_svg(out: &mut impl Write, dataset: &Dataset, plan: Option<&Plan>) -> io::Result<()> {
    let grid = dataset.grid();
    let mut picture = Picture::from_grid(grid);
    for (i, &home) in dataset.homes().iter().enumerate() {
        let (row, col) = grid.position(home);
        let letter = char::from(b'A' + i as u8);
        picture.add_mark(Mark::new(row, col, Colour::palette(i)).with_label(letter));
    }
    for i in 0..dataset.ghost_count() {
        let letter = char::from(b'a' + i as u8);
        picture.add_sprite(Sprite::new(Shape::Circle, letter, Colour::palette(i)));
    }
    picture.set_title(match plan {
        Some(plan) => format!("ghosts: every ghost home in {} steps", plan.len()),
        None => "ghosts: no plan brings every ghost home".to_owned(),
    });
    let n = dataset.ghost_count();
    let mut frames = Recording::new(n);
    let steps = plan.map_or(&[][..], |plan| plan.as_slice());
    let placements = std::iter::once(dataset.starts()).chain(steps.iter().map(Vec::as_slice));
    let mut places = Vec::with_capacity(n);
    for placement in placements.take_while(|p| p.len() == n) {
        places.clear();
        places.extend(placement.iter().map(|&cell: &CellId| {
            let (row, col) = grid.position(cell);
            Place::at(row, col)
        }));
        frames.push_frame(&places);
    }
    picture.write(out, &frames)
}

#[cfg(test)]
mod tests {
    use crate::{Options, solve};

    #[test]
    fn a_ghost_moves_one_cell_a_frame() {
        let dataset: crate::Dataset = "4 1 1\na  A\n".parse().unwrap();
        let options = Options {
            plan: true,
            ..Options::default()
        };
        let solution = solve(&dataset, &options).unwrap().unwrap();
        let mut svg = Vec::new();
        super::write_svg(&mut svg, &dataset, solution.plan()).unwrap();
        // Ghost a moves from column 0 to column 3, one cell a frame.
        assert!(
            String::from_utf8(svg)
                .unwrap()
                .contains(r#"values="0 0;1 0;2 0;3 0""#)
        );
    }
}

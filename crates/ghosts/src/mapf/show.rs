//! `--show` and `--svg` for benchmark instances: the map in MovingAI characters before the
//! first step and after every step, and the animated picture.

use std::io;

use grid_core::svg::{Colour, Mark, Picture, Place, Recording, Shape, Sprite};
use grid_core::{CellId, Grid};

use crate::dataset::Plan;

/// Agent `i` as drawn: `a`-`z` for the first 26, `*` beyond.
fn agent_char(i: usize) -> u8 {
    if i < 26 { b'a' + i as u8 } else { b'*' }
}

/// Goal of agent `i` without its agent: `A`-`Z` for the first 26, `+` beyond.
fn goal_char(i: usize) -> u8 {
    if i < 26 { b'A' + i as u8 } else { b'+' }
}

/// Writes frames `step 0` (the starts) to `step T` to `out`: `.` free, `@` blocked,
/// agents `a`-`z` (then `*`), goals without their agent `A`-`Z` (then `+`). Streamed, as
/// the datasets' drawings are: one copy of the map is held, each frame is drawn on it and
/// written, and only its changed squares are put back, so memory stays O(height x width)
/// however long the plan.
///
/// # Errors
/// When writing fails.
///
/// # Complexity
/// O((T + 1) x (height x width + K)) time.
pub fn write_drawings(
    out: &mut impl io::Write,
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    plan: &Plan,
) -> io::Result<()> {
    let width = grid.width();
    // The map and its goals, each row with its newline.
    let mut canvas: Vec<u8> = Vec::with_capacity(grid.height() * (width + 1));
    for r in 0..grid.height() {
        canvas.extend((0..width).map(|c| {
            if grid.cell(r, c).is_some() {
                b'.'
            } else {
                b'@'
            }
        }));
        canvas.push(b'\n');
    }
    let at = |cell: CellId| {
        let (r, c) = grid.position(cell);
        r * (width + 1) + c
    };
    for (i, &goal) in goals.iter().enumerate() {
        canvas[at(goal)] = goal_char(i);
    }
    let frames = std::iter::once(starts).chain(plan.iter().map(Vec::as_slice));
    for (step, placement) in frames.enumerate() {
        writeln!(out, "step {step}")?;
        let under: Vec<u8> = placement.iter().map(|&cell| canvas[at(cell)]).collect();
        for (i, &agent) in placement.iter().enumerate() {
            canvas[at(agent)] = agent_char(i);
        }
        out.write_all(&canvas)?;
        // Back in reverse, so a square two agents share in a bad plan gets its map back.
        for (&agent, &square) in placement.iter().zip(&under).rev() {
            canvas[at(agent)] = square;
        }
    }
    Ok(())
}

/// The animated picture of an instance and its `plan` (`None`: no plan), as
/// [`crate::svg::write_svg`] draws a dataset: each agent a disc, each goal a tinted cell
/// in the agent's colour, both labelled so that one tells whose goal is whose: up to 26
/// agents `a`-`z` on goals `A`-`Z`; more than 26 all numbered in scenario order, `1` to
/// `K` on the agents and the same numbers on their goals (colours alone repeat too
/// closely to tell hundreds apart).
///
/// # Errors
/// When writing fails.
///
/// # Complexity
/// O(height x width + T x K).
pub fn write_svg(
    out: &mut impl io::Write,
    grid: &Grid,
    starts: &[CellId],
    goals: &[CellId],
    plan: Option<&Plan>,
) -> io::Result<()> {
    let mut picture = Picture::from_grid(grid);
    let numbered = starts.len() > 26;
    let label = |i: usize, letter: u8| {
        if numbered {
            (i + 1).to_string()
        } else {
            char::from(letter).to_string()
        }
    };
    for (i, &goal) in goals.iter().enumerate() {
        let (row, col) = grid.position(goal);
        picture
            .add_mark(Mark::new(row, col, Colour::palette(i)).with_label(label(i, goal_char(i))));
    }
    for i in 0..starts.len() {
        let sprite = Sprite::new(Shape::Circle, label(i, agent_char(i)), Colour::palette(i));
        picture.add_sprite(sprite);
    }
    picture.set_title(match plan {
        Some(plan) => format!("MAPF: every agent at its goal in {} steps", plan.len()),
        None => "MAPF: no plan brings every agent to its goal".to_owned(),
    });
    let mut frames = Recording::new(starts.len());
    let steps = plan.map_or(&[][..], |plan| plan.as_slice());
    let mut places = Vec::with_capacity(starts.len());
    for placement in std::iter::once(starts).chain(steps.iter().map(Vec::as_slice)) {
        places.clear();
        places.extend(placement.iter().map(|&cell| {
            let (row, col) = grid.position(cell);
            Place::at(row, col)
        }));
        frames.push_frame(&places);
    }
    picture.write(out, &frames)
}

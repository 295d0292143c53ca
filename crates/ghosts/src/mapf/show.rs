//! `--show` and `--svg` for benchmark instances: the map in MovingAI characters before the
//! first step and after every step, and the animated picture.

use std::fmt::Write as _;
use std::io;

use grid_core::svg::{Colour, Mark, Picture, Place, Recording, Shape, Sprite};
use grid_core::{CellId, Grid};

use crate::search::Plan;

/// Agent `i` as drawn: `a`-`z` for the first 26, `*` beyond.
fn agent_char(i: usize) -> u8 {
    if i < 26 { b'a' + i as u8 } else { b'*' }
}

/// Goal of agent `i` without its agent: `A`-`Z` for the first 26, `+` beyond.
fn goal_char(i: usize) -> u8 {
    if i < 26 { b'A' + i as u8 } else { b'+' }
}

/// Frames `step 0` (the starts) to `step T`: `.` free, `@` blocked, agents `a`-`z` (then
/// `*`), goals without their agent `A`-`Z` (then `+`).
///
/// # Complexity
/// O((T + 1) x (height x width + K)).
pub fn draw_plan(grid: &Grid, starts: &[CellId], goals: &[CellId], plan: &Plan) -> String {
    let mut text = String::new();
    let frames = std::iter::once(starts).chain(plan.iter().map(Vec::as_slice));
    for (step, placement) in frames.enumerate() {
        let _ = writeln!(text, "step {step}");
        let mut rows: Vec<Vec<u8>> = (0..grid.height())
            .map(|r| {
                (0..grid.width())
                    .map(|c| {
                        if grid.cell(r, c).is_some() {
                            b'.'
                        } else {
                            b'@'
                        }
                    })
                    .collect()
            })
            .collect();
        for (i, &goal) in goals.iter().enumerate() {
            let (r, c) = grid.position(goal);
            rows[r][c] = goal_char(i);
        }
        for (i, &agent) in placement.iter().enumerate() {
            let (r, c) = grid.position(agent);
            rows[r][c] = agent_char(i);
        }
        for row in rows {
            text.push_str(&String::from_utf8_lossy(&row));
            text.push('\n');
        }
    }
    text
}

/// The animated picture of an instance and its `plan` (`None`: no plan), as
/// [`crate::svg::write_svg`] draws a dataset: each agent a disc labelled with
/// its letter, `a`-`z` (then `*`), each goal a tinted cell.
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
    for (i, &goal) in goals.iter().enumerate() {
        let (row, col) = grid.position(goal);
        picture
            .add_mark(Mark::new(row, col, Colour::palette(i)).with_label(char::from(goal_char(i))));
    }
    for i in 0..starts.len() {
        let label = if i < 26 {
            char::from(agent_char(i)).to_string()
        } else {
            (i + 1).to_string()
        };
        picture.add_sprite(Sprite::new(Shape::Circle, label, Colour::palette(i)));
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

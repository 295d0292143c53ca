//! `--show` for benchmark instances: the map in MovingAI characters before the first step
//! and after every step.

use std::fmt::Write as _;

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

/// Frames `step 0` (the starts) to `step T`: `.` free, `@` blocked, agents and goals as
/// [`agent_char`] and [`goal_char`] say.
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
                    .map(|c| if grid.cell(r, c).is_some() { b'.' } else { b'@' })
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

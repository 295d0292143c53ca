//! Seeded small random levels, as XSB text, for the reference tests: 1 to 6 boxes in rooms
//! of up to 6 x 6 floor squares with scattered walls. Some are solvable, some not (a box in
//! a corner, boxes the player cannot reach).
//!
//! Why text: the tests then run the same reader as the binary. Every level is a pure
//! function of its seed ([`SplitMix64`]).
//!
//! # Complexity
//! O(rows x columns) per level.

use grid_core::rng::SplitMix64;

/// Moves the player `@` of `inner` at random for up to 60 steps; a step away from a box
/// beside it pulls the box along half of the time. Pulls reversed are pushes, so a level
/// solved before stays solvable.
fn pull_randomly(
    rng: &mut SplitMix64,
    inner: &mut [u8],
    height: usize,
    width: usize,
    start: usize,
) {
    let has_box = |b: u8| matches!(b, b'$' | b'*');
    let is_goal = |b: u8| matches!(b, b'.' | b'*' | b'+');
    let mut player = start;
    for _ in 0..rng.between(5, 60) {
        let (r, c) = (player / width, player % width);
        let (dr, dc) = [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)][rng.below(4)];
        let step = |r: usize, c: usize| -> Option<usize> {
            let (nr, nc) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
            (nr < height && nc < width).then_some(nr * width + nc)
        };
        let Some(next) = step(r, c) else { continue };
        if inner[next] == b'#' || has_box(inner[next]) {
            continue;
        }
        // The square behind the player, opposite the step.
        let behind = {
            let (br, bc) = (r.checked_add_signed(-dr), c.checked_add_signed(-dc));
            match (br, bc) {
                (Some(br), Some(bc)) if br < height && bc < width => Some(br * width + bc),
                _ => None,
            }
        };
        let set = |inner: &mut [u8], at: usize, what: u8| {
            let goal = is_goal(inner[at]);
            inner[at] = match (what, goal) {
                (b'$', true) => b'*',
                (b'$', false) => b'$',
                (b'@', true) => b'+',
                (b'@', false) => b'@',
                (_, true) => b'.',
                _ => b' ',
            };
        };
        set(inner, next, b'@');
        match behind {
            Some(b) if has_box(inner[b]) && rng.percent(50) => {
                set(inner, b, b' ');
                set(inner, player, b'$');
            }
            _ => set(inner, player, b' '),
        }
        player = next;
    }
}

/// One random level of `boxes` boxes (clamped to 1..=6): an inner room of 2 to `max_side`
/// rows and columns inside a wall border, `wall_percent` % inner walls, boxes, goals and
/// the player on distinct random squares (a box may start on a goal).
pub fn random_level(
    rng: &mut SplitMix64,
    boxes: usize,
    max_side: usize,
    wall_percent: u32,
) -> String {
    let boxes = boxes.clamp(1, 6);
    let max_side = max_side.max(2);
    let (height, width) = loop {
        let (h, w) = (rng.between(1, max_side), rng.between(2, max_side));
        if h * w > boxes + 1 {
            break (h, w);
        }
    };
    let mut inner = vec![b' '; height * width];
    for square in inner.iter_mut() {
        if rng.percent(wall_percent) {
            *square = b'#';
        }
    }
    let mut squares: Vec<usize> = (0..height * width).collect();
    rng.shuffle(&mut squares);
    let player = squares[0];
    if rng.percent(50) {
        // Solvable by construction: boxes on the goals, then random pulls.
        for &g in &squares[1..=boxes] {
            inner[g] = b'*';
        }
        inner[player] = b'@';
        pull_randomly(rng, &mut inner, height, width, player);
    } else {
        let box_squares = &squares[1..=boxes];
        // Goals: anywhere but the player's square, possibly under a box.
        let mut goal_choices: Vec<usize> = squares[1..].to_vec();
        rng.shuffle(&mut goal_choices);
        for &b in box_squares {
            inner[b] = b'$';
        }
        inner[player] = b'@';
        for &g in &goal_choices[..boxes] {
            inner[g] = match inner[g] {
                b'$' => b'*',
                _ => b'.',
            };
        }
    }
    walled(&inner, width)
}

/// One random level of `boxes` boxes (clamped to 1..=6) whose goals all lie in a goal
/// room: an arena of 2 to 6 rows and 2 to 6 columns with 15 % inner walls on the left,
/// a wall of 1 or 2 columns with one door (so one square, or a one-wide tunnel, leads
/// in), and a room of up to 3 x 3 squares beside it holding the goals. Half of the
/// levels start solved and the player pulls boxes out at random (solvable by
/// construction, some boxes still in the room, on goals or not); the other half put the
/// boxes anywhere in the arena.
pub fn goal_room_level(rng: &mut SplitMix64, boxes: usize) -> String {
    let boxes = boxes.clamp(1, 6);
    let (room_rows, room_cols) = loop {
        let (r, c) = (rng.between(1, 3), rng.between(1, 3));
        if r * c >= boxes {
            break (r, c);
        }
    };
    let height = rng.between(room_rows.max(2), 6);
    let arena = rng.between(2, 6);
    let door_cols = rng.between(1, 2);
    let width = arena + door_cols + room_cols;
    let top = rng.below(height - room_rows + 1);
    let door_row = top + rng.below(room_rows);
    let mut inner = vec![b'#'; height * width];
    for r in 0..height {
        for c in 0..arena {
            if !rng.percent(15) {
                inner[r * width + c] = b' ';
            }
        }
        for c in arena..arena + door_cols {
            if r == door_row {
                inner[r * width + c] = b' ';
            }
        }
        for c in arena + door_cols..width {
            if (top..top + room_rows).contains(&r) {
                inner[r * width + c] = b' ';
            }
        }
    }
    // The arena square beside the door is open, so the room can be entered at all.
    inner[door_row * width + arena - 1] = b' ';
    let mut room: Vec<usize> = (top..top + room_rows)
        .flat_map(|r| (arena + door_cols..width).map(move |c| r * width + c))
        .collect();
    rng.shuffle(&mut room);
    let mut open: Vec<usize> = (0..height * arena)
        .map(|i| (i / arena) * width + i % arena)
        .filter(|&i| inner[i] == b' ')
        .collect();
    rng.shuffle(&mut open);
    let player = open[0];
    if rng.percent(50) {
        for &g in &room[..boxes] {
            inner[g] = b'*';
        }
        inner[player] = b'@';
        for _ in 0..4 {
            let at = inner.iter().position(|&b| matches!(b, b'@' | b'+'));
            if let Some(at) = at {
                pull_randomly(rng, &mut inner, height, width, at);
            }
        }
    } else {
        for &g in &room[..boxes] {
            inner[g] = b'.';
        }
        for &b in open.iter().skip(1).take(boxes) {
            inner[b] = b'$';
        }
        inner[player] = b'@';
    }
    walled(&inner, width)
}

/// `count` levels from `seed` with 1 to `max_boxes` boxes, as one collection whose titles
/// are `; seed S level N`.
pub fn collection(seed: u64, count: usize, max_boxes: usize, max_side: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    for n in 1..=count {
        let boxes = rng.between(1, max_boxes.clamp(1, 6));
        let walls = [0, 10, 20, 30][rng.below(4)];
        text.push_str(&format!("; seed {seed} level {n}\n"));
        text.push_str(&random_level(&mut rng, boxes, max_side, walls));
        text.push('\n');
    }
    text
}

/// For the tests that improve the finder's solutions: of `rounds` generated levels (2 to
/// 5 boxes, 9 x 9, from `seed`), those solvable, each with its optimum by `options` and
/// the finder's solution (greedy, often not optimal).
#[cfg(test)]
pub(crate) fn with_finder_solutions(
    seed: u64,
    rounds: usize,
    options: &crate::Options,
) -> Vec<(crate::Level, crate::Solution, String)> {
    let mut rng = SplitMix64::new(seed);
    let mut cases = Vec::new();
    for round in 0..rounds {
        let text = random_level(&mut rng, 2 + round % 4, 9, 9);
        let Some(Ok(level)) = crate::Collection::new(text.as_bytes(), 4096).next() else {
            continue;
        };
        let Ok(Some(optimum)) = crate::solve(&level, options) else {
            continue;
        };
        let finder = crate::finder::Options::default();
        if let Ok(Some(found)) = crate::finder::find(&level, &finder, &mut || false) {
            cases.push((level, optimum, found));
        }
    }
    cases
}

/// For the tests of the polish: the solution `lurd` of `level` with a detour of two
/// walks that cancel (`lr`, `rl`, `ud` or `du`, the first that replays) after push
/// `after` (1-based; 0 puts it before the first push); `None` when `lurd` has fewer
/// pushes or no detour replays there.
#[cfg(test)]
pub(crate) fn detoured(level: &crate::Level, lurd: &str, after: usize) -> Option<String> {
    let at = match after {
        0 => 0,
        _ => lurd
            .char_indices()
            .filter(|(_, c)| c.is_ascii_uppercase())
            .nth(after - 1)
            .map(|(i, _)| i + 1)?,
    };
    ["lr", "rl", "ud", "du"]
        .iter()
        .map(|detour| format!("{}{detour}{}", &lurd[..at], &lurd[at..]))
        .find(|detoured| crate::verify::verify(level, detoured).is_ok())
}

/// The XSB text of the `width`-wide rows `inner`, inside a wall all round.
fn walled(inner: &[u8], width: usize) -> String {
    let mut text = "#".repeat(width + 2);
    text.push('\n');
    for row in inner.chunks(width) {
        text.push('#');
        text.push_str(&String::from_utf8_lossy(row));
        text.push_str("#\n");
    }
    text.push_str(&"#".repeat(width + 2));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Collection;

    #[test]
    fn every_generated_level_reads() {
        let text = collection(1, 500, 4, 6);
        let mut count = 0;
        for level in Collection::new(text.as_bytes(), 1 << 16) {
            let level = level.unwrap();
            assert!(level.stranded() || level.boxes().len() == level.goals().len());
            count += 1;
        }
        assert_eq!(count, 500);
    }
}

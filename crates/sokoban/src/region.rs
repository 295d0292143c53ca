//! The player's region after one push, told from its region before the push without a new
//! walk where it can be. The searches over push states name the player's region by its
//! least square; a walk per child costs O(region), while most pushes change the region by
//! the two squares the box leaves and enters.

use grid_core::{CellId, Grid};

/// The two least of `squares` (a walk's reached squares, not empty); the second `None`
/// when there is one.
///
/// # Complexity
/// O(squares).
pub(crate) fn least_two(squares: &[CellId]) -> (CellId, Option<CellId>) {
    let mut least = squares[0];
    let mut second: Option<CellId> = None;
    for &cell in &squares[1..] {
        if cell < least {
            second = Some(least);
            least = cell;
        } else if second.is_none_or(|s| cell < s) {
            second = Some(cell);
        }
    }
    (least, second)
}

/// The least square of the player's region after the box on `from` is pushed onto `to`
/// (the player then on `from`), where the region before the push tells it: `reached`
/// says which squares the player reached before the push (the square it pushed from
/// among them), `least` is [`least_two`] of those, `occupied` marks the boxes after the
/// push. `None` when only a walk can tell.
///
/// Why it is a walk's answer: the push frees `from` and fills `to`, nothing else. When
/// every neighbour of `from` but `to` is a box, a wall or a square reached before, the
/// region after gains `from` and nothing else. It loses `to` at most: when `to` was not
/// reached, nothing of the region changes; when it was, and `to`'s free neighbours after
/// the push all lie on one unbroken arc of free squares among the eight around it, a walk
/// through `to` goes round it on that arc, so the rest stays one region.
///
/// # Complexity
/// O(1).
pub(crate) fn least_after_push(
    grid: &Grid,
    occupied: &[bool],
    reached: impl Fn(CellId) -> bool,
    from: CellId,
    to: CellId,
    least: (CellId, Option<CellId>),
) -> Option<CellId> {
    let joins_more = grid
        .neighbours(from)
        .any(|(_, n)| n != to && !occupied[n.index()] && !reached(n));
    if joins_more {
        return None;
    }
    let kept = if !reached(to) {
        least.0
    } else if around_in_one_arc(grid, occupied, to) {
        // The region held `to` and the square the player pushed from, so a second.
        match least {
            (first, _) if first != to => first,
            (_, second) => second?,
        }
    } else {
        return None;
    };
    Some(kept.min(from))
}

/// Whether the free squares (not walls, not `occupied`) beside `cell` on its four sides
/// all lie on one unbroken arc of free squares of the eight around it, stepping from
/// each of the eight to the next round the ring (each a side's step from the one
/// before): then any walk through `cell` can go round it instead.
///
/// # Complexity
/// O(1).
fn around_in_one_arc(grid: &Grid, occupied: &[bool], cell: CellId) -> bool {
    // Round the ring from the north, clockwise: the sides at the even places.
    let free = grid
        .around(cell)
        .map(|square| square.is_some_and(|n| !occupied[n.index()]));
    let Some(gap) = free.iter().position(|&f| !f) else {
        return true;
    };
    // Count the arcs, starting after a gap, that hold a side's free square.
    let (mut arcs, mut in_arc, mut arc_has_side) = (0, false, false);
    for step in 1..=8 {
        let at = (gap + step) % 8;
        if free[at] {
            in_arc = true;
            arc_has_side |= at % 2 == 0;
        } else {
            if in_arc && arc_has_side {
                arcs += 1;
            }
            (in_arc, arc_has_side) = (false, false);
        }
    }
    arcs <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::rng::SplitMix64;

    /// The squares a walk from `from` over squares not `occupied` reaches.
    fn walk(grid: &Grid, occupied: &[bool], from: CellId) -> Vec<CellId> {
        let mut seen = vec![false; grid.cell_count()];
        let mut queue = vec![from];
        seen[from.index()] = true;
        let mut head = 0;
        while head < queue.len() {
            let cell = queue[head];
            head += 1;
            for (_, n) in grid.neighbours(cell) {
                if !seen[n.index()] && !occupied[n.index()] {
                    seen[n.index()] = true;
                    queue.push(n);
                }
            }
        }
        queue
    }

    /// On random rooms with random boxes, after every push the player can make, the least
    /// square of its region told without a walk (where it is told) is a walk's; and it is
    /// told on most pushes, or it would save nothing.
    #[test]
    fn the_region_after_a_push_told_without_a_walk_is_the_walks() {
        let mut rng = SplitMix64::new(1206);
        let (mut told, mut pushes) = (0, 0);
        for _ in 0..4_000 {
            let (height, width) = (rng.between(3, 9), rng.between(3, 9));
            let walls = rng.between(0, 35) as u32;
            let grid = Grid::new(height, width, |_, _| !rng.percent(walls));
            let cells = grid.cell_count();
            if cells < 3 {
                continue;
            }
            let share = rng.between(5, 50) as u32;
            let mut occupied: Vec<bool> = (0..cells).map(|_| rng.percent(share)).collect();
            let player = CellId::new(rng.below(cells));
            occupied[player.index()] = false;
            let before = walk(&grid, &occupied, player);
            let mut reached = vec![false; cells];
            before.iter().for_each(|c| reached[c.index()] = true);
            let least = least_two(&before);
            assert_eq!(Some(least.0), before.iter().min().copied());
            let boxes: Vec<CellId> = grid.cells().filter(|c| occupied[c.index()]).collect();
            for cell in boxes {
                for (_, to, behind) in grid.push_lines(cell) {
                    if occupied[to.index()] || !reached[behind.index()] {
                        continue;
                    }
                    pushes += 1;
                    occupied[cell.index()] = false;
                    occupied[to.index()] = true;
                    let walked = walk(&grid, &occupied, cell).into_iter().min();
                    let fast =
                        least_after_push(&grid, &occupied, |c| reached[c.index()], cell, to, least);
                    if let Some(fast) = fast {
                        told += 1;
                        assert_eq!(Some(fast), walked, "push {cell:?} -> {to:?}");
                    }
                    occupied[to.index()] = false;
                    occupied[cell.index()] = true;
                }
            }
        }
        assert!(pushes > 10_000, "{pushes} pushes tried");
        assert!(told * 2 > pushes, "told {told} of {pushes}");
    }
}

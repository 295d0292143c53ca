//! The checker: replays a step sequence by the rules of the spec and says whether it
//! brings the box home, and in how many steps.
//!
//! Why a separate checker: it shares no code with the searches, so tests can trust it to
//! judge their output (a sequence whose letters, walls, pushes or ending are wrong is
//! refused with the index of the first bad step).
//!
//! # Complexity
//! O(length of the sequence).

use grid_core::{CellId, Dir};

use crate::path::Move;
use crate::problem::Puzzle;

/// Where the player and the box stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The player's cell.
    pub player: CellId,
    /// The box's cell.
    pub box_cell: CellId,
}

/// Why a step sequence is not a solution; `step` is the 0-based index of the bad letter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A letter other than `nswe` / `NSWE`.
    #[error("step {step}: {letter:?} is not a move letter")]
    NotAMove {
        /// Index of the letter.
        step: usize,
        /// The letter.
        letter: char,
    },
    /// The step leads into a wall or off the grid.
    #[error("step {step}: the player walks into a wall")]
    IntoWall {
        /// Index of the step.
        step: usize,
    },
    /// The box cannot move: a wall or the grid's edge is behind it.
    #[error("step {step}: the box is blocked")]
    BoxBlocked {
        /// Index of the step.
        step: usize,
    },
    /// A lowercase letter moves the box, or an uppercase one does not.
    #[error("step {step}: the letter's case says {}, the board says otherwise", if *.push { "push" } else { "walk" })]
    WrongCase {
        /// Index of the step.
        step: usize,
        /// What the letter claimed.
        push: bool,
    },
    /// Steps after the box reached the target (the game had ended).
    #[error("step {step}: the game ended at the previous step")]
    AfterTheEnd {
        /// Index of the step.
        step: usize,
    },
    /// The sequence ends with the box off the target.
    #[error("the box is not on the target at the end")]
    NotHome,
}

impl Puzzle {
    /// The starting position.
    pub fn start(&self) -> Position {
        Position {
            player: self.player(),
            box_cell: self.box_cell(),
        }
    }

    /// The position after the player steps in `dir` from `at`, and whether that pushed the
    /// box; `Err` with step 0 when the step is illegal (the caller renumbers it).
    pub fn step(&self, at: Position, dir: Dir) -> Result<(Position, bool), ReplayError> {
        let grid = self.grid();
        let next = grid
            .neighbour(at.player, dir)
            .ok_or(ReplayError::IntoWall { step: 0 })?;
        if next != at.box_cell {
            return Ok((
                Position {
                    player: next,
                    box_cell: at.box_cell,
                },
                false,
            ));
        }
        let beyond = grid
            .neighbour(next, dir)
            .ok_or(ReplayError::BoxBlocked { step: 0 })?;
        Ok((
            Position {
                player: next,
                box_cell: beyond,
            },
            true,
        ))
    }
}

/// Replays `letters` from the start of `puzzle`; the number of steps when they bring the
/// box onto the target exactly at the last step (0 letters when it starts there).
///
/// # Errors
/// The first [`ReplayError`] met.
pub fn replay(puzzle: &Puzzle, letters: &str) -> Result<usize, ReplayError> {
    let moves = letters
        .chars()
        .enumerate()
        .map(|(step, letter)| {
            Dir::from_letter(letter)
                .map(|(dir, push)| Move { dir, push })
                .ok_or(ReplayError::NotAMove { step, letter })
        })
        .collect::<Result<Vec<_>, _>>()?;
    replay_moves(puzzle, &moves)
}

/// As [`replay`], for moves already decoded.
///
/// # Errors
/// The first [`ReplayError`] met.
pub fn replay_moves(puzzle: &Puzzle, moves: &[Move]) -> Result<usize, ReplayError> {
    let mut at = puzzle.start();
    for (step, m) in moves.iter().enumerate() {
        if at.box_cell == puzzle.target() {
            return Err(ReplayError::AfterTheEnd { step });
        }
        let renumber = |e: ReplayError| match e {
            ReplayError::IntoWall { .. } => ReplayError::IntoWall { step },
            ReplayError::BoxBlocked { .. } => ReplayError::BoxBlocked { step },
            other => other,
        };
        let (next, pushed) = puzzle.step(at, m.dir).map_err(renumber)?;
        if pushed != m.push {
            return Err(ReplayError::WrongCase { step, push: m.push });
        }
        at = next;
    }
    if at.box_cell == puzzle.target() {
        Ok(moves.len())
    } else {
        Err(ReplayError::NotHome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_sequences() {
        let p = "2 4\nX*.@\n....\n".parse::<Puzzle>().unwrap();
        assert_eq!(replay(&p, "EE"), Ok(2));
        assert_eq!(replay(&p, "E"), Err(ReplayError::NotHome));
        assert_eq!(replay(&p, "EEe"), Err(ReplayError::AfterTheEnd { step: 2 }));
        assert_eq!(
            replay(&p, "eE"),
            Err(ReplayError::WrongCase {
                step: 0,
                push: false
            })
        );
        assert_eq!(replay(&p, "n"), Err(ReplayError::IntoWall { step: 0 }));
        assert_eq!(
            replay(&p, "x"),
            Err(ReplayError::NotAMove {
                step: 0,
                letter: 'x'
            })
        );
        let p = "1 3\n@X*\n".parse::<Puzzle>().unwrap();
        assert_eq!(replay(&p, "E"), Err(ReplayError::BoxBlocked { step: 0 }));
    }
}

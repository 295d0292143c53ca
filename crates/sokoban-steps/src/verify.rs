//! The checker: replays a step sequence by the rules of the spec and says whether it
//! brings the box home, and in how many steps (grid-core's single-box
//! [`Board::replay`](grid_core::Board::replay)).
//!
//! Why a separate checker: it shares no code with the searches, so tests can trust it to
//! judge their output (a sequence whose letters, walls, pushes or ending are wrong is
//! refused with the index of the first bad step).
//!
//! # Complexity
//! O(length of the sequence).

use grid_core::ReplayError;

use crate::problem::Puzzle;

/// Replays `letters` from the start of `puzzle`; the number of steps when they bring the
/// box onto the target exactly at the last step.
///
/// # Errors
/// The first [`ReplayError`] met.
pub fn replay(puzzle: &Puzzle, letters: &str) -> Result<usize, ReplayError> {
    puzzle.board().replay(letters).map(|counts| counts.steps())
}

#[cfg(any(test, feature = "internals"))]
/// As [`replay`], for moves already decoded.
///
/// # Errors
/// The first [`ReplayError`] met.
pub fn replay_moves(puzzle: &Puzzle, moves: &[grid_core::Move]) -> Result<usize, ReplayError> {
    puzzle
        .board()
        .replay_moves(moves)
        .map(|counts| counts.steps())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_sequences() {
        let p = "2 4\nX*.@\n....\n".parse::<Puzzle>().unwrap();
        assert_eq!(replay(&p, "EE"), Ok(2));
        assert_eq!(replay(&p, "sewnEE"), Ok(6));
        assert_eq!(replay(&p, "E"), Err(ReplayError::NotSolved));
        assert_eq!(
            replay(&p, "EEe"),
            Err(ReplayError::AfterSolved { index: 2 })
        );
        let p = "1 3\n@X*\n".parse::<Puzzle>().unwrap();
        assert_eq!(replay(&p, "E"), Err(ReplayError::BoxBlocked { index: 0 }));
    }
}

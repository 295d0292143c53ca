//! Replaying a move string on a maze: every move legal, the box on the target at the end
//! and not before, and the counts of pushes and walks (grid-core's single-box
//! [`Board::replay`](grid_core::Board::replay)).
//!
//! Why a checker in the library: the tests replay every answer they see with it, so a
//! wrong letter is caught whatever produced it, and callers can check strings from
//! elsewhere (for example from another solver) against the same rules.
//!
//! # Complexity
//! O(length of the string) time.

use grid_core::{Counts, ReplayError};

use crate::problem::Maze;

/// Replays `moves` on `maze`: the counts of pushes and walks when it solves the maze.
///
/// # Errors
/// The first illegal move, a move after the box reached the target, or an end with the box
/// elsewhere.
pub fn verify(maze: &Maze, moves: &str) -> Result<Counts, ReplayError> {
    maze.board().replay(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_counts() {
        let m: Maze = "2 4\nSB.T\n....\n".parse().unwrap();
        assert_eq!(
            verify(&m, "sewnEE").map(|c| (c.pushes, c.walks)),
            Ok((2, 4))
        );
        assert_eq!(
            verify(&m, "S"),
            Err(ReplayError::WrongCase {
                index: 0,
                push: true
            })
        );
        assert_eq!(verify(&m, "E"), Err(ReplayError::NotSolved));
    }
}

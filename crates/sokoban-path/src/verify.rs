//! Replaying a move string on a maze: every move legal, the box on the target at the end
//! and not before, and the counts of pushes and walks.
//!
//! Why a checker in the library: the tests replay every answer they see with it, so a
//! wrong letter is caught whatever produced it, and callers can check strings from
//! elsewhere (for example from another solver) against the same rules.
//!
//! # Complexity
//! O(length of the string) time, O(1) extra memory.

use grid_core::Dir;

use crate::problem::Maze;

/// How many moves of each kind a valid move string makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Uppercase letters: pushes.
    pub pushes: usize,
    /// Lowercase letters: walks.
    pub walks: usize,
}

/// Why a move string does not solve a maze. Positions are 0-based indices into the string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A character other than `nswe` / `NSWE`.
    #[error("move {index}: {letter:?} is not a move letter")]
    NotAMove {
        /// Where.
        index: usize,
        /// The character.
        letter: char,
    },
    /// A walk into a wall, out of the grid, or into the box.
    #[error("move {index}: cannot walk {letter:?} there")]
    BlockedWalk {
        /// Where.
        index: usize,
        /// The letter.
        letter: char,
    },
    /// A push with no box in front of the person, or with no floor beyond the box.
    #[error("move {index}: cannot push {letter:?} there")]
    BlockedPush {
        /// Where.
        index: usize,
        /// The letter.
        letter: char,
    },
    /// Moves after the box already reached the target (the case is solved at that moment).
    #[error("move {index}: the box is already on the target")]
    AfterSolved {
        /// Where.
        index: usize,
    },
    /// The string ends with the box off the target.
    #[error("the box does not end on the target")]
    NotSolved,
}

/// Replays `moves` on `maze`.
///
/// # Errors
/// The first illegal move, a move after the box reached the target, or an end with the box
/// elsewhere.
pub fn verify(maze: &Maze, moves: &str) -> Result<Counts, VerifyError> {
    let grid = &maze.grid;
    let mut person = maze.person;
    let mut cell = maze.box_start;
    let mut counts = Counts {
        pushes: 0,
        walks: 0,
    };
    for (index, letter) in moves.chars().enumerate() {
        if cell == maze.target {
            return Err(VerifyError::AfterSolved { index });
        }
        let (dir, is_push): (Dir, bool) =
            Dir::from_letter(letter).ok_or(VerifyError::NotAMove { index, letter })?;
        let next = grid.neighbour(person, dir);
        if is_push {
            let beyond = next
                .filter(|&n| n == cell)
                .and_then(|n| grid.neighbour(n, dir))
                .ok_or(VerifyError::BlockedPush { index, letter })?;
            person = cell;
            cell = beyond;
            counts.pushes += 1;
        } else {
            person = next
                .filter(|&n| n != cell)
                .ok_or(VerifyError::BlockedWalk { index, letter })?;
            counts.walks += 1;
        }
    }
    if cell == maze.target {
        Ok(counts)
    } else {
        Err(VerifyError::NotSolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::read_maze;
    use grid_core::CaseReader;

    fn maze(text: &str) -> Maze {
        read_maze(&mut CaseReader::new(text.as_bytes()), 1000)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn accepts_and_counts() {
        let m = maze("2 4\nSB.T\n....\n");
        assert_eq!(
            verify(&m, "EE"),
            Ok(Counts {
                pushes: 2,
                walks: 0
            })
        );
        assert_eq!(
            verify(&m, "sewnEE"),
            Ok(Counts {
                pushes: 2,
                walks: 4
            })
        );
    }

    #[test]
    fn rejects() {
        let m = maze("2 4\nSB.T\n....\n");
        assert_eq!(
            verify(&m, "e"),
            Err(VerifyError::BlockedWalk {
                index: 0,
                letter: 'e'
            })
        );
        assert_eq!(
            verify(&m, "n"),
            Err(VerifyError::BlockedWalk {
                index: 0,
                letter: 'n'
            })
        );
        assert_eq!(
            verify(&m, "S"),
            Err(VerifyError::BlockedPush {
                index: 0,
                letter: 'S'
            })
        );
        assert_eq!(verify(&m, "E"), Err(VerifyError::NotSolved));
        assert_eq!(
            verify(&m, "EEw"),
            Err(VerifyError::AfterSolved { index: 2 })
        );
        assert_eq!(
            verify(&m, "x"),
            Err(VerifyError::NotAMove {
                index: 0,
                letter: 'x'
            })
        );
    }
}

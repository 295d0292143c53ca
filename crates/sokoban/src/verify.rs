//! The LURD replay checker every test uses: plays a solution on a level, move by move.
//!
//! Rules checked: every letter is one of `lurdLURD`; a walk (lower case) steps onto a floor
//! square without a box; a push (upper case) steps onto a box and moves it one square on,
//! onto floor without a box; lower case exactly when no box moves; the last move leaves
//! every box on a goal, and no earlier move does (the game ends when the level is solved).
//!
//! # Complexity
//! O(moves + cells).

use grid_core::{CellId, Dir};

use crate::parse::Level;

/// What a valid solution counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Upper-case letters: moves that push a box.
    pub pushes: u32,
    /// Every letter.
    pub moves: u32,
}

/// Why a move string is not a solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A letter that is not `lurdLURD`.
    #[error("move {index}: '{letter}' is not a move")]
    NotAMove {
        /// 1-based position.
        index: usize,
        /// The letter.
        letter: char,
    },
    /// The move runs into a wall, or pushes a box into a wall or another box.
    #[error("move {index}: '{letter}' is blocked")]
    Blocked {
        /// 1-based position.
        index: usize,
        /// The letter.
        letter: char,
    },
    /// A lower-case letter that pushes a box, or an upper-case one that does not.
    #[error("move {index}: '{letter}' has the wrong case")]
    WrongCase {
        /// 1-based position.
        index: usize,
        /// The letter.
        letter: char,
    },
    /// The level is solved before the last move.
    #[error("the level is solved after move {index}, before the end")]
    SolvedEarly {
        /// 1-based position of the move that solved it.
        index: usize,
    },
    /// After the last move some box is off its goal.
    #[error("the level is not solved at the end")]
    NotSolved,
}

/// The direction and push flag of a LURD letter.
pub(crate) fn letter_dir(letter: char) -> Option<(Dir, bool)> {
    let dir = match letter.to_ascii_lowercase() {
        'u' => Dir::North,
        'd' => Dir::South,
        'l' => Dir::West,
        'r' => Dir::East,
        _ => return None,
    };
    Some((dir, letter.is_ascii_uppercase()))
}

/// Replays `lurd` on `level` from its start.
///
/// # Errors
/// The first rule broken ([`VerifyError`]).
pub fn verify(level: &Level, lurd: &str) -> Result<Counts, VerifyError> {
    let grid = level.grid();
    let mut has_box = vec![false; grid.cell_count()];
    for b in level.boxes() {
        has_box[b.index()] = true;
    }
    let mut is_goal = vec![false; grid.cell_count()];
    for g in level.goals() {
        is_goal[g.index()] = true;
    }
    let mut off_goal = level.boxes().iter().filter(|b| !is_goal[b.index()]).count();
    let solvable_at_all = !level.stranded();
    let mut player: CellId = level.player();
    let mut counts = Counts {
        pushes: 0,
        moves: 0,
    };
    for (i, letter) in lurd.chars().enumerate() {
        let index = i + 1;
        if off_goal == 0 && solvable_at_all {
            return Err(VerifyError::SolvedEarly { index: i });
        }
        let (dir, push) = letter_dir(letter).ok_or(VerifyError::NotAMove { index, letter })?;
        let next = grid
            .neighbour(player, dir)
            .ok_or(VerifyError::Blocked { index, letter })?;
        if has_box[next.index()] {
            if !push {
                return Err(VerifyError::WrongCase { index, letter });
            }
            let beyond = grid
                .neighbour(next, dir)
                .filter(|b| !has_box[b.index()])
                .ok_or(VerifyError::Blocked { index, letter })?;
            has_box[next.index()] = false;
            has_box[beyond.index()] = true;
            off_goal = off_goal + usize::from(is_goal[next.index()])
                - usize::from(is_goal[beyond.index()]);
            counts.pushes += 1;
        } else if push {
            return Err(VerifyError::WrongCase { index, letter });
        }
        player = next;
        counts.moves += 1;
    }
    if off_goal == 0 && solvable_at_all {
        Ok(counts)
    } else {
        Err(VerifyError::NotSolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_rules() {
        let level = Level::from_xsb("######\n#@$ .#\n######\n").unwrap();
        assert_eq!(
            verify(&level, "RR"),
            Ok(Counts {
                pushes: 2,
                moves: 2
            })
        );
        assert_eq!(
            verify(&level, "rR"),
            Err(VerifyError::WrongCase {
                index: 1,
                letter: 'r'
            })
        );
        assert_eq!(
            verify(&level, "Rr"),
            Err(VerifyError::WrongCase {
                index: 2,
                letter: 'r'
            })
        );
        assert_eq!(
            verify(&level, "l"),
            Err(VerifyError::Blocked {
                index: 1,
                letter: 'l'
            })
        );
        assert_eq!(verify(&level, "R"), Err(VerifyError::NotSolved));
        assert_eq!(
            verify(&level, "RRl"),
            Err(VerifyError::SolvedEarly { index: 2 })
        );
        assert_eq!(
            verify(&level, "x"),
            Err(VerifyError::NotAMove {
                index: 1,
                letter: 'x'
            })
        );
        let solved = Level::from_xsb("####\n#@*#\n####\n").unwrap();
        assert_eq!(
            verify(&solved, ""),
            Ok(Counts {
                pushes: 0,
                moves: 0
            })
        );
    }
}

//! The single-box board: one player, one box and one target on a [`Grid`], with the one
//! replay of a move string (walks `nswe`, pushes `NSWE`), the text frames of `--show` and
//! the animated picture of `--svg`, shared by the single-box programs.
//!
//! Why one model: `sokoban-path` and `sokoban-steps` play the same game on different
//! letters (`S B T` and `X * @`); the rules of a move, the validation of a board built from
//! coordinates and the drawings are the same, so they are written once here and each
//! program names its letters in a [`Notation`].
//!
//! # Complexity
//! [`Board::new`]: O(1). A replay: O(moves). A frame: O(rows x columns).

use std::fmt;
use std::io::{self, Write};

use crate::grid::{CellError, CellId, Dir, Grid};
use crate::svg::{Colour, Look, Mark, Picture, Place, Recording, Shape, Sprite};

/// One step of the player: a direction, and whether it pushes the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the player steps.
    pub dir: Dir,
    /// Whether the step pushes the box one cell further in `dir`.
    pub push: bool,
}

impl Move {
    /// The letter of the move: `nswe` for walks, `NSWE` for pushes (LURD in Sokoban's
    /// words: `u d l r` / `U D L R` are the same moves under other names).
    pub fn letter(self) -> char {
        if self.push {
            self.dir.push_letter()
        } else {
            self.dir.walk_letter()
        }
    }

    /// The move of a letter `nswe` / `NSWE`, or `None`.
    pub fn from_letter(letter: char) -> Option<Move> {
        Dir::from_letter(letter).map(|(dir, push)| Move { dir, push })
    }
}

/// How a program writes the three pieces: their letters in the input, on the frames and in
/// the pictures, and their names in messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notation {
    /// The letters of the player, the box and the target (`S B T`, `X * @`).
    pub letters: [char; 3],
    /// Their names in messages: "the person 'S'", "the box 'B'", "the target 'T'".
    pub names: [&'static str; 3],
    /// The frame letter of the box on the target.
    pub box_on_target: char,
    /// The frame letter of the player on the target.
    pub player_on_target: char,
}

/// One of the three pieces, to say which one a [`BoardError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// The player's start.
    Player,
    /// The box's start.
    Box,
    /// The target.
    Target,
}

impl Piece {
    fn index(self) -> usize {
        self as usize
    }
}

/// Why [`Board::new`] refuses its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// A piece is not on a floor cell.
    NotFloor {
        /// Which piece.
        piece: Piece,
        /// Outside the grid or on a wall.
        source: CellError,
        /// Its name in the message.
        name: &'static str,
    },
    /// The box starts on the target. The formats cannot write it (one character per cell),
    /// so no input has it.
    BoxOnTarget {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// The player shares a cell with the box or the target.
    SharedCell {
        /// The box or the target.
        piece: Piece,
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The names of that piece and of the player, in the message.
        names: [&'static str; 2],
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::NotFloor { source, name, .. } => write!(f, "{name}: {source}"),
            BoardError::BoxOnTarget { row, col } => write!(
                f,
                "the box starts on the target at ({row}, {col}): the format needs them apart"
            ),
            BoardError::SharedCell {
                row, col, names, ..
            } => write!(
                f,
                "{} and {} are both at ({row}, {col})",
                names[0], names[1]
            ),
        }
    }
}

impl std::error::Error for BoardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BoardError::NotFloor { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Where the player and the box stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The player's cell.
    pub player: CellId,
    /// The box's cell.
    pub box_cell: CellId,
}

/// How many moves of each kind a valid move string makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Uppercase letters: pushes.
    pub pushes: usize,
    /// Lowercase letters: walks.
    pub walks: usize,
}

impl Counts {
    /// All moves, walks and pushes alike.
    pub fn steps(&self) -> usize {
        self.pushes + self.walks
    }
}

/// Why a move string does not solve a board; `index` is the 0-based place of the bad
/// letter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A letter other than `nswe` / `NSWE`.
    #[error("move {index}: {letter:?} is not a move letter")]
    NotAMove {
        /// Where.
        index: usize,
        /// The letter.
        letter: char,
    },
    /// The step leads into a wall or off the grid.
    #[error("move {index}: the player walks into a wall")]
    IntoWall {
        /// Where.
        index: usize,
    },
    /// The box cannot move: a wall or the grid's edge is behind it.
    #[error("move {index}: the box is blocked")]
    BoxBlocked {
        /// Where.
        index: usize,
    },
    /// A walk letter moves the box, or a push letter has no box in front of the player.
    #[error("move {index}: the letter says {}, the board says otherwise", if *.push { "push" } else { "walk" })]
    WrongCase {
        /// Where.
        index: usize,
        /// What the letter claimed.
        push: bool,
    },
    /// A move after the box reached the target (the game ends at that moment).
    #[error("move {index}: the box is already on the target")]
    AfterSolved {
        /// Where.
        index: usize,
    },
    /// The string ends with the box off the target.
    #[error("the box does not end on the target")]
    NotSolved,
}

/// A single-box board: its floor and where the player, the box and the target start.
///
/// Every value is valid: the three pieces stand on three different floor cells, as in the
/// text formats (one character per cell).
///
/// # Examples
/// ```
/// use grid_core::{Board, Grid, Notation};
///
/// static LETTERS: Notation = Notation {
///     letters: ['S', 'B', 'T'],
///     names: ["the person 'S'", "the box 'B'", "the target 'T'"],
///     box_on_target: '*',
///     player_on_target: '+',
/// };
/// let board = Board::new(Grid::new(1, 4, |_, _| true), (0, 0), (0, 1), (0, 3), &LETTERS)?;
/// assert_eq!(board.replay("EE").map(|c| c.pushes), Ok(2));
/// assert_eq!(board.to_text(), "1 4\nSB.T\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    player: CellId,
    box_cell: CellId,
    target: CellId,
    notation: &'static Notation,
}

impl Board {
    /// The board on `grid` (its cells are the floor) with the player, the box and the
    /// target at the given `(row, col)`, from 0 at the top left.
    ///
    /// # Errors
    /// A [`BoardError`] when a piece is outside the grid or on a wall, or two pieces share
    /// a cell (the box on the target included), named as `notation` names them.
    ///
    /// # Complexity
    /// O(1).
    pub fn new(
        grid: Grid,
        player: (usize, usize),
        box_cell: (usize, usize),
        target: (usize, usize),
        notation: &'static Notation,
    ) -> Result<Board, BoardError> {
        let floor = |piece: Piece, (row, col)| {
            grid.floor_cell(row, col)
                .map_err(|source| BoardError::NotFloor {
                    piece,
                    source,
                    name: notation.names[piece.index()],
                })
        };
        let (player_cell, box_at, target_cell) = (
            floor(Piece::Player, player)?,
            floor(Piece::Box, box_cell)?,
            floor(Piece::Target, target)?,
        );
        if box_at == target_cell {
            let (row, col) = box_cell;
            return Err(BoardError::BoxOnTarget { row, col });
        }
        for (piece, cell) in [(Piece::Box, box_at), (Piece::Target, target_cell)] {
            if cell == player_cell {
                let (row, col) = player;
                let names = [notation.names[piece.index()], notation.names[0]];
                return Err(BoardError::SharedCell {
                    piece,
                    row,
                    col,
                    names,
                });
            }
        }
        Ok(Board::from_cells(
            grid,
            [player_cell, box_at, target_cell],
            notation,
        ))
    }

    /// The board with the pieces on these cells of `grid` (player, box, target), for
    /// readers that found them as three different letters of floor.
    ///
    /// # Panics
    /// In debug builds, when two of the cells are the same.
    pub fn from_cells(
        grid: Grid,
        [player, box_cell, target]: [CellId; 3],
        notation: &'static Notation,
    ) -> Board {
        debug_assert!(player != box_cell && player != target && box_cell != target);
        Board {
            grid,
            player,
            box_cell,
            target,
            notation,
        }
    }

    /// The floor cells and how they connect (walls and the outside are not cells).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The player's start.
    pub fn player(&self) -> CellId {
        self.player
    }

    /// The box's start.
    pub fn box_cell(&self) -> CellId {
        self.box_cell
    }

    /// The target.
    pub fn target(&self) -> CellId {
        self.target
    }

    /// The letters and names of the pieces.
    pub fn notation(&self) -> &'static Notation {
        self.notation
    }

    /// The starting position.
    pub fn start(&self) -> Position {
        Position {
            player: self.player,
            box_cell: self.box_cell,
        }
    }

    /// The position after the player steps in `dir` from `at`, and whether the step pushed
    /// the box.
    ///
    /// # Errors
    /// [`ReplayError::IntoWall`] or [`ReplayError::BoxBlocked`] with index 0 (a replay
    /// renumbers it).
    pub fn step(&self, at: Position, dir: Dir) -> Result<(Position, bool), ReplayError> {
        let next = self
            .grid
            .neighbour(at.player, dir)
            .ok_or(ReplayError::IntoWall { index: 0 })?;
        if next != at.box_cell {
            let walked = Position {
                player: next,
                box_cell: at.box_cell,
            };
            return Ok((walked, false));
        }
        let beyond = self
            .grid
            .neighbour(next, dir)
            .ok_or(ReplayError::BoxBlocked { index: 0 })?;
        let pushed = Position {
            player: next,
            box_cell: beyond,
        };
        Ok((pushed, true))
    }

    /// The positions a move sequence passes, one after each move, ending before the first
    /// move that breaks the rules (see [`Board::replay_moves`] to tell why).
    pub fn positions<'a>(
        &'a self,
        moves: impl IntoIterator<Item = Move> + 'a,
    ) -> impl Iterator<Item = (Move, Position)> + 'a {
        let mut at = Some(self.start());
        moves.into_iter().map_while(move |m| {
            let (next, pushed) = self.step(at?, m.dir).ok()?;
            if pushed != m.push {
                at = None;
                return None;
            }
            at = Some(next);
            Some((m, next))
        })
    }

    /// Replays `moves` from the start: every move legal, its letter's case saying whether
    /// it pushes, the box on the target at the end and not before.
    ///
    /// # Errors
    /// The first [`ReplayError`] met (a letter that is not a move first of all).
    ///
    /// # Complexity
    /// O(moves).
    pub fn replay(&self, moves: &str) -> Result<Counts, ReplayError> {
        let moves = moves
            .chars()
            .enumerate()
            .map(|(index, letter)| {
                Move::from_letter(letter).ok_or(ReplayError::NotAMove { index, letter })
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.replay_moves(&moves)
    }

    /// As [`Board::replay`], for moves already decoded.
    ///
    /// # Errors
    /// The first [`ReplayError`] met.
    pub fn replay_moves(&self, moves: &[Move]) -> Result<Counts, ReplayError> {
        let mut at = self.start();
        let mut counts = Counts {
            pushes: 0,
            walks: 0,
        };
        for (index, m) in moves.iter().enumerate() {
            if at.box_cell == self.target {
                return Err(ReplayError::AfterSolved { index });
            }
            let (next, pushed) = self.step(at, m.dir).map_err(|e| match e {
                ReplayError::IntoWall { .. } => ReplayError::IntoWall { index },
                _ => ReplayError::BoxBlocked { index },
            })?;
            if pushed != m.push {
                return Err(ReplayError::WrongCase {
                    index,
                    push: m.push,
                });
            }
            if pushed {
                counts.pushes += 1;
            } else {
                counts.walks += 1;
            }
            at = next;
        }
        if at.box_cell == self.target {
            Ok(counts)
        } else {
            Err(ReplayError::NotSolved)
        }
    }

    /// Writes one frame of the board with the pieces at `at`: `#` wall, `.` floor, and the
    /// notation's letters (the player before the box, the box before the target).
    ///
    /// # Errors
    /// When writing fails.
    ///
    /// # Complexity
    /// O(rows x columns).
    pub fn draw(&self, at: Position, out: &mut impl Write) -> io::Result<()> {
        let n = self.notation;
        let [player, box_letter, target] = n.letters;
        let mut line = String::with_capacity(self.grid.width() + 1);
        for row in 0..self.grid.height() {
            line.clear();
            line.extend(
                (0..self.grid.width()).map(|col| match self.grid.cell(row, col) {
                    None => '#',
                    Some(c) if c == at.box_cell && c == self.target => n.box_on_target,
                    Some(c) if c == at.box_cell => box_letter,
                    Some(c) if c == at.player && c == self.target => n.player_on_target,
                    Some(c) if c == at.player => player,
                    Some(c) if c == self.target => target,
                    Some(_) => '.',
                }),
            );
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// The board in the input format (`N M`, then the rows, each ending with a newline).
    pub fn to_text(&self) -> String {
        let (height, width) = (self.grid.height(), self.grid.width());
        let mut text = format!("{height} {width}\n");
        let mut frame = Vec::new();
        // Writing into a vector cannot fail.
        let _ = self.draw(self.start(), &mut frame);
        text.push_str(&String::from_utf8_lossy(&frame));
        text
    }

    /// Writes the animated picture of `moves` on this board (titled `title`) to `out`: the
    /// player (a disc) and the box (a square) move one move a frame; the box turns red on
    /// the frames where it is pushed and green once it stands on the target, whose ring is
    /// drawn over the pieces so that it shows under either. An empty `moves` gives the
    /// board with the pieces at their starts. Moves past the first one that breaks the
    /// rules are not drawn.
    ///
    /// # Errors
    /// When writing fails.
    ///
    /// # Complexity
    /// O(rows x columns + moves) time; the output is O(wall runs + moves).
    pub fn write_svg(&self, out: &mut impl Write, title: String, moves: &[Move]) -> io::Result<()> {
        let grid = &self.grid;
        let [player, box_letter, target] = self.notation.letters.map(String::from);
        let mut picture = Picture::from_grid(grid);
        let (row, col) = grid.position(self.target);
        picture.add_mark(
            Mark::new(row, col, Colour::TARGET)
                .with_label(&target)
                .with_ring(),
        );
        picture.add_sprite(Sprite::new(Shape::Circle, &player, Colour::PERSON));
        picture.add_sprite(
            Sprite::new(Shape::RoundedSquare, &box_letter, Colour::BOX)
                .with_look(Look::Pushed, Colour::PUSHED)
                .with_look(Look::Arrived, Colour::ARRIVED),
        );
        picture.set_title(title);
        let place = |cell: CellId, look: Look| {
            let (row, col) = grid.position(cell);
            let look = if cell == self.target {
                Look::Arrived
            } else {
                look
            };
            Place::at(row, col).look(look)
        };
        let mut frames = Recording::new(2);
        let start = self.start();
        frames.push_frame(&[
            place(start.player, Look::Plain),
            place(start.box_cell, Look::Plain),
        ]);
        for (m, at) in self.positions(moves.iter().copied()) {
            let look = if m.push { Look::Pushed } else { Look::Plain };
            frames.push_frame(&[place(at.player, Look::Plain), place(at.box_cell, look)]);
        }
        picture.write(out, &frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static NOTATION: Notation = Notation {
        letters: ['X', '*', '@'],
        names: ["the player 'X'", "the box '*'", "the target '@'"],
        box_on_target: '*',
        player_on_target: 'X',
    };

    fn board(rows: &[&str]) -> Board {
        let grid = Grid::new(rows.len(), rows[0].len(), |r, c| {
            rows[r].as_bytes()[c] != b'#'
        });
        let find = |letter: u8| {
            (0..rows.len())
                .find_map(|r| rows[r].bytes().position(|b| b == letter).map(|c| (r, c)))
                .unwrap()
        };
        Board::new(grid, find(b'X'), find(b'*'), find(b'@'), &NOTATION).unwrap()
    }

    #[test]
    fn the_constructor_refuses_what_the_format_cannot_hold() {
        let grid = || Grid::new(1, 4, |_, col| col != 1);
        let e = |p, b, t| {
            Board::new(grid(), p, b, t, &NOTATION)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e((0, 1), (0, 2), (0, 3)),
            "the player 'X': (0, 1) is a wall"
        );
        assert_eq!(
            e((0, 0), (1, 2), (0, 3)),
            "the box '*': (1, 2) is outside the 1 x 4 grid"
        );
        assert_eq!(
            e((0, 0), (0, 3), (0, 3)),
            "the box starts on the target at (0, 3): the format needs them apart"
        );
        assert_eq!(
            e((0, 2), (0, 2), (0, 3)),
            "the box '*' and the player 'X' are both at (0, 2)"
        );
        assert_eq!(
            e((0, 3), (0, 2), (0, 3)),
            "the target '@' and the player 'X' are both at (0, 3)"
        );
    }

    #[test]
    fn judges_sequences() {
        let b = board(&["X*.@", "...."]);
        let counts = |pushes, walks| Ok(Counts { pushes, walks });
        assert_eq!(b.replay("EE"), counts(2, 0));
        assert_eq!(b.replay("sewnEE"), counts(2, 4));
        assert_eq!(b.replay("E"), Err(ReplayError::NotSolved));
        assert_eq!(b.replay("EEe"), Err(ReplayError::AfterSolved { index: 2 }));
        assert_eq!(
            b.replay("eE"),
            Err(ReplayError::WrongCase {
                index: 0,
                push: false
            })
        );
        assert_eq!(
            b.replay("S"),
            Err(ReplayError::WrongCase {
                index: 0,
                push: true
            })
        );
        assert_eq!(b.replay("n"), Err(ReplayError::IntoWall { index: 0 }));
        assert_eq!(
            b.replay("Ex"),
            Err(ReplayError::NotAMove {
                index: 1,
                letter: 'x'
            })
        );
        let b = board(&["@X*"]);
        assert_eq!(b.replay("E"), Err(ReplayError::BoxBlocked { index: 0 }));
    }

    #[test]
    fn frames_and_positions() {
        let b = board(&["X*.@"]);
        let moves: Vec<Move> = "EEe".chars().filter_map(Move::from_letter).collect();
        let seen: Vec<Position> = b.positions(moves).map(|(_, at)| at).collect();
        assert_eq!(seen.len(), 2, "the walk into the box is not a walk");
        let mut out = Vec::new();
        b.draw(seen[1], &mut out).unwrap();
        assert_eq!(out, b"..X*\n");
        assert_eq!(b.to_text(), "1 4\nX*.@\n");
        assert_eq!(
            Move {
                dir: Dir::West,
                push: true
            }
            .letter(),
            'W'
        );
    }
}

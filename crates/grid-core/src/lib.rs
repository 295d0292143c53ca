//! Shared ground for the grid-search solvers of this workspace: what the four problem
//! crates need in common, and nothing they do not.
//!
//! The surface is small on purpose: the types are re-exported here, at the root, and only
//! six modules are public, as namespaces of what belongs together. The ladder inside,
//! each module using only those below it: `error`, `reader`, then `grid` and `limits`,
//! then `walk`, `queue`, `blocks` and `push`, then `cli`, `progress`, `svg`, `board` and `movingai`.
//!
//! At the root:
//! - reading input: [`CaseReader`] (a streaming reader of multi-case text: integer
//!   [`Header`]s, then rows of an exact width, a [`CharGrid`], [`RowEnd`]) that reports
//!   every problem as a located [`ParseError`] ([`ErrorKind`]); [`describe_char`],
//!   [`describe_char_at`] and [`char_column`] name a character and its column the way
//!   every reader does; [`report`] formats an error as every binary prints it;
//! - the grid: [`Grid`] numbers the passable cells of a character grid ([`CellId`]), with
//!   their coordinates, the [`Dir`] order N < S < W < E and a neighbour table
//!   ([`CellError`] for a cell out of place);
//! - searching: the stamped breadth-first [`Walker`] (early-stopping walks, floods,
//!   smallest shortest walks), [`Grid::distances`] and the one [`UNREACHABLE`] sentinel;
//!   the monotone [`BucketQueue`] (Dial's buckets) for integer-keyed searches; [`Blocks`],
//!   biconnected components that tell in O(1) which sides of a cell stay connected when
//!   the cell is taken away (the sides of a box);
//! - the single-box [`Board`] (player, box, target: [`Piece`], [`Notation`]) with its move
//!   replay ([`Move`], [`Position`], [`Counts`], [`ReplayError`], [`BoardError`]),
//!   `--show` frames and `--svg` picture;
//! - the binaries' common ground: the input file or standard input ([`open_input`]), the
//!   [`RunError`] and the exit statuses ([`exit_code`]).
//!
//! The public modules:
//! - [`limits`]: the size and memory guards every program applies to a case header
//!   before allocating (`--max-cells`, `--memory-mib`; [`Limits`], [`grid_size`]);
//! - [`push`]: push distances of one box to one target over (box cell, side) states;
//! - [`movingai`]: the MovingAI `.map` grid format of the multi-agent path finding
//!   benchmark, with located errors;
//! - [`svg`]: animated SVG pictures of solutions (walls, marks, moving pieces), streamed;
//! - [`progress`]: the progress line a long run keeps on a terminal, wiped before every
//!   answer;
//! - `rng` (feature `generate`): a tiny seeded generator, so that generated cases and
//!   randomised tests are the same on every machine and every version.
//!
//! What exists only for tests (the process harness of the data-driven cases, the input
//! mutations of the fuzz tests, random grids) lives in the workspace's `test-support`
//! crate, a dev-dependency: a library user compiles none of it.
//!
//! The solver crates build on these pieces and never on each other.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod blocks;
mod board;
mod cli;
mod error;
mod grid;
pub mod limits;
pub mod movingai;
pub mod progress;
pub mod push;
mod queue;
mod reader;
#[cfg(any(test, feature = "generate"))]
pub mod rng;
pub mod svg;
mod walk;

pub use blocks::Blocks;
pub use board::{Board, BoardError, Counts, Move, Notation, Piece, Position, ReplayError};
pub use cli::{RunError, exit_code, open_input};
pub use error::{ErrorKind, ParseError, char_column, describe_char, describe_char_at, report};
pub use grid::{AROUND, CellError, CellId, Dir, Grid};
pub use limits::{GridSize, Limits, SizeFields, grid_size};
pub use queue::BucketQueue;
pub use reader::{CaseReader, CharGrid, Header, RowEnd};
pub use walk::{UNREACHABLE, Walker};

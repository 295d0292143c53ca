//! Shared ground for the grid-search solvers of this workspace.
//!
//! - [`reader`]: a streaming reader of multi-case text input (integer headers, then rows of
//!   an exact width) that reports every problem as a located [`ParseError`];
//! - [`grid`]: compact numbering of the passable cells of a character grid, their
//!   coordinates, the [`Dir`] order N < S < W < E and a neighbour table;
//! - [`walk`]: the stamped breadth-first [`Walker`] (early-stopping walks, floods,
//!   smallest shortest walks), [`Grid::distances`] and the one [`UNREACHABLE`] sentinel;
//! - [`queue`]: the monotone [`BucketQueue`] (Dial's buckets) for integer-keyed searches;
//! - [`board`]: the single-box [`Board`] (player, box, target) with its move replay,
//!   `--show` frames and `--svg` picture, and the [`Move`] of a move string;
//! - [`blocks`]: biconnected components, to tell in O(1) which sides of a cell stay
//!   connected when the cell is taken away (the sides of a box);
//! - [`push`]: push distances of one box to one target over (box cell, side) states;
//! - [`cli`]: the input file or standard input ([`open_input`]), the run error and the
//!   exit statuses every binary shares;
//! - [`limits`]: the size and memory guards every program applies to a case header
//!   before allocating (`--max-cells`, `--memory-mib`);
//! - [`movingai`]: the MovingAI `.map` grid format of the multi-agent path finding
//!   benchmark, with located errors;
//! - [`svg`]: animated SVG pictures of solutions (walls, marks, moving pieces), streamed;
//! - `rng` (feature `generate`): a tiny seeded generator, so that generated cases and
//!   randomised tests are the same on every machine and every version.
//!
//! What exists only for tests (the process harness of the data-driven cases, the input
//! mutations of the fuzz tests, random grids) lives in the workspace's `test-support`
//! crate, a dev-dependency: a library user compiles none of it.
//!
//! The solver crates build on these pieces and never on each other.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod blocks;
pub mod board;
pub mod cli;
pub mod error;
pub mod grid;
pub mod limits;
pub mod movingai;
pub mod push;
pub mod queue;
pub mod reader;
#[cfg(any(test, feature = "generate"))]
pub mod rng;
pub mod svg;
pub mod walk;

pub use board::{Board, BoardError, Counts, Move, Notation, Piece, Position, ReplayError};
pub use cli::{RunError, exit_code, open_input};
pub use error::{
    ErrorKind, ParseError, char_column, describe_byte, describe_char, describe_char_at,
};
pub use grid::{CellError, CellId, Dir, Grid};
pub use limits::{GridSize, Limits, SizeFields, grid_size};
pub use queue::BucketQueue;
pub use reader::{CaseReader, CharGrid, Header, RowEnd};
pub use walk::{UNREACHABLE, Walker};

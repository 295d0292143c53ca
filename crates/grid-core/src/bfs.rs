//! Moved: the breadth-first walks are [`crate::walk`], [`Grid::distances`](crate::Grid::distances)
//! included. This path stays until every crate imports [`crate::UNREACHABLE`] from the root.

pub use crate::walk::UNREACHABLE;

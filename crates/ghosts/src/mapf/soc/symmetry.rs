//! Pair splits in conflict-based search ([`super::cbs`]): a node where two agents in
//! conflict are proven, by their pair's cost, unable to both keep their own costs is
//! split into "the first costs more" and "the second costs more", so that both children
//! cost one step more than the node.
//!
//! Why: two agents walking the same way side by side through an open area (brc202d
//! random-1 with 100 agents, agents 42 and 43: vertex conflicts at every time from 7 to
//! 318, on a path with many cells of equal cost each step) conflict at hundreds of
//! places, and a vertex split at any of them leaves both children at the node's cost
//! (the constrained agent steps round that cell and meets the other a step further on).
//! The symmetry reasoning of Li, Harabor, Stuckey and Koenig (AIJ 2021) settles such
//! pairs by rectangle and corridor constraints for the shapes it recognises; here the
//! pair's least extra steps under the node's constraints ([`super::pair_cost`], the
//! weighted dependency graph's edge) already prove that the two do not fit at their own
//! costs, whatever the shape, and that is all the split needs.
//!
//! Exactness: let a and b cost c_a and c_b on the node's paths, and the pair's least
//! extra steps under the node's constraints exceed their own (so no two paths of theirs
//! under those constraints cost at most c_a and at most c_b without meeting). Every plan
//! under the node then has a costing more than c_a or b costing more than c_b: the two
//! children, each a [`Constraint::Longer`](super::cbs) on one agent (its last arrival at
//! its goal after c_a, resp. c_b), keep every plan of the node between them (a plan with
//! both costlier is in both: the children overlap, which costs nodes, not answers).
//! The constraint is the one target reasoning already gives, honoured by the low-level
//! A*, the MDDs and the memo keys.
//!
//! # Complexity
//! O(F) per node for its F conflicts, the pairs' costs being those the node has.

use super::pairwise::Pair;

/// Whether nodes are split on pairs that do not fit at their own costs, and how many such
/// splits were made (added up over the searches given it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairSplits {
    /// Whether the split is made.
    pub on: bool,
    /// The splits made.
    pub made: u64,
}

impl PairSplits {
    /// Pair splits off.
    pub fn off() -> Self {
        PairSplits { on: false, made: 0 }
    }
}

/// Of the pairs `in_conflict` (agents' indices in the group, in the order the conflicts
/// are ranked), the first whose least extra steps by `pairs` (each pair's best bound
/// known under the node's constraints) exceed what its two agents take, `own` of each.
///
/// # Complexity
/// O(F x P) for F pairs in conflict and P pairs known.
pub fn costlier_pair(
    in_conflict: impl IntoIterator<Item = (usize, usize)>,
    pairs: &[Pair],
    own: impl Fn(usize) -> u32,
) -> Option<(usize, usize)> {
    in_conflict.into_iter().find_map(|(x, y)| {
        let (a, b) = (x.min(y), x.max(y));
        let needed = pairs
            .iter()
            .filter(|p| p.first == a && p.second == b)
            .map(|p| p.extra)
            .max()?;
        (needed > own(a) + own(b)).then_some((a, b))
    })
}

//! The cardinality constraint of the encoding, as clauses: the totalizer (Bailleux and
//! Boufkhad, CP 2003) that adds the agents' unary counts of extra steps (at most one
//! agent per cell is [`crate::mapf::sat::at_most_one`], shared with the makespan's
//! encoding).
//!
//! # Complexity
//! O(n log n) merges of unary lists of at most `cap` outputs, O(cap^2) clauses each.

use crate::mapf::sat::Solver;

/// The sum of the unary `counts` (each a list whose i-th variable means "at least i + 1"),
/// as a unary list of at most `cap` outputs: output j is forced true when the inputs make
/// at least j + 1 true. Pairs of lists are merged in a balanced tree.
pub(super) fn totalize(
    solver: &mut Solver,
    mut counts: Vec<Vec<i32>>,
    cap: usize,
    fresh: &mut impl FnMut() -> i32,
) -> Vec<i32> {
    counts.retain(|c| !c.is_empty());
    while counts.len() > 1 {
        let mut merged = Vec::with_capacity(counts.len().div_ceil(2));
        let mut pairs = counts.into_iter();
        while let Some(left) = pairs.next() {
            match pairs.next() {
                Some(right) => merged.push(merge(solver, &left, &right, cap, fresh)),
                None => merged.push(left),
            }
        }
        counts = merged;
    }
    counts.pop().unwrap_or_default()
}

/// The unary sum of `left` and `right`, cut at `cap` outputs.
pub(super) fn merge(
    solver: &mut Solver,
    left: &[i32],
    right: &[i32],
    cap: usize,
    fresh: &mut impl FnMut() -> i32,
) -> Vec<i32> {
    let out: Vec<i32> = (0..(left.len() + right.len()).min(cap))
        .map(|_| fresh())
        .collect();
    for i in 0..=left.len() {
        for j in 0..=right.len() {
            // Sums past the cap follow from the ones at the cap.
            if i + j == 0 || i + j > out.len() {
                continue;
            }
            let target = out[i + j - 1];
            let mut clause = Vec::with_capacity(3);
            if i > 0 {
                clause.push(-left[i - 1]);
            }
            if j > 0 {
                clause.push(-right[j - 1]);
            }
            clause.push(target);
            solver.add_clause(clause);
        }
    }
    out
}

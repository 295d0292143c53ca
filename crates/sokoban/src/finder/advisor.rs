//! FESS's packing advisor (Shoham and Schaeffer, "The FESS Algorithm: A Feature Based
//! Approach to Single-Agent Search", IEEE CoG 2020): besides its pushes, a state gets the
//! moves that take a box to the next empty goal of the packing order ([`super::packing`])
//! as one edge, the other boxes standing still.
//!
//! Why: a greedy search moves a box towards its goal one push at a time, and every push
//! on the way is a state whose features (goals packed, regions) have not changed yet, so
//! the search spends its states on the plateau between two packed goals. The advisor's
//! move lands on the next cell of the feature space at once. It only adds edges, so
//! every level stays as solvable as without it.
//!
//! Only the [`TRIES`] boxes nearest the goal (lone-box push distance) are tried: the
//! nearest mostly get there, and each try is a search of the box's pushes.
//!
//! # Complexity
//! Per state: O(k log k) to pick the boxes, then per box tried one [`PushTree`] search,
//! O(squares^2) in the worst case.

use grid_core::{CellId, Dir, UNREACHABLE};

use super::box_path::PushTree;
use crate::board::Board;
use crate::parse::Level;

/// The boxes tried per state.
const TRIES: usize = 2;

/// The advisor's tables, reused from state to state.
#[derive(Debug)]
pub(super) struct PackingAdvisor {
    /// Per square: the index of its goal in the level's goals, or `u32::MAX`.
    goal_index: Vec<u32>,
    tree: PushTree,
    pushes: Vec<(CellId, Dir)>,
    /// The boxes not on goals that can reach the next goal: (distance, box).
    candidates: Vec<(u32, usize)>,
}

impl PackingAdvisor {
    /// An advisor for `level`.
    pub(super) fn new(level: &Level) -> Self {
        let n = level.grid().cell_count();
        let mut goal_index = vec![u32::MAX; n];
        for (j, g) in level.goals().iter().enumerate() {
            goal_index[g.index()] = j as u32;
        }
        PackingAdvisor {
            goal_index,
            tree: PushTree::new(n),
            pushes: Vec::new(),
            candidates: Vec::new(),
        }
    }

    /// Appends to `moves` (box index in `boxes`, where it ends, where the player then
    /// stands, pushes) the moves of the state `boxes` (marked in `occupied`, restored
    /// before it returns), the player on `player`, that take a box off the goals to the
    /// first empty goal of `order` (the goals in the packing order) in two pushes or
    /// more (one push is among the state's pushes already).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn advise(
        &mut self,
        board: &Board<'_>,
        order: &[CellId],
        boxes: &[u16],
        occupied: &mut [bool],
        player: CellId,
        moves: &mut Vec<(usize, CellId, CellId, u32)>,
    ) {
        let grid = board.grid();
        let Some(&goal) = order.iter().find(|g| !occupied[g.index()]) else {
            return;
        };
        let j = self.goal_index[goal.index()];
        if j == u32::MAX {
            return;
        }
        self.candidates.clear();
        for (i, &b) in boxes.iter().enumerate() {
            let b = usize::from(b);
            if board.is_goal(b) {
                continue;
            }
            let d = board.distance(j as usize, b);
            if d != UNREACHABLE && d >= 2 {
                self.candidates.push((d, i));
            }
        }
        self.candidates.sort_unstable();
        for &(_, i) in self.candidates.iter().take(TRIES) {
            let cell = CellId::new(usize::from(boxes[i]));
            occupied[cell.index()] = false;
            self.tree.run(grid, occupied, player, cell);
            occupied[cell.index()] = true;
            if !self.tree.reached(goal) {
                continue;
            }
            self.pushes.clear();
            self.tree.pushes_to(grid, goal, &mut self.pushes);
            // One push is among the state's pushes already.
            if self.pushes.len() < 2 {
                continue;
            }
            let Some(&(standing, _)) = self.pushes.last() else {
                continue;
            };
            moves.push((i, goal, standing, self.pushes.len() as u32));
        }
    }
}

//! A legal plan where the other methods find none: Push and Swap (Luna and Bekris, IJCAI
//! 2011), one agent at a time, its moves then run side by side as early as they can.
//!
//! Why: on a perfect maze (maze-128-128-1, a tree of 8191 cells in corridors one cell
//! wide) with 1000 agents, an agent home for good walls off every way through its goal,
//! so prioritized planning fails after a few dozen agents in every order and LaCAM*
//! fills its memory without a plan. Here an agent home may still be moved, and is put
//! back: the agents go home one after the other along a shortest way; an agent in the
//! way that is not home yet is *pushed* off it (the agents from it to the nearest free
//! cell each take one step, none of those home crossed); one that cannot be pushed, or
//! that is home, trades places with the moving agent by a *swap*: the pair is taken to a
//! branching cell (the nearest first, at most [`SWAP_SITES`]), two of its other
//! neighbours are cleared by pushes (which may move any other agent), the pair trades
//! there in six moves, and every move that took it there is played back in reverse, the
//! two agents' parts exchanged, so that every other agent is where it was. An agent home
//! that traded places is one step off its goal, behind the moving agent, and steps back
//! onto it as soon as the moving agent has left it (a stack, the last displaced first).
//!
//! Each agent's loop takes one step along its shortest way or gives up, so the method
//! ends: it gives a plan or says it found none (no proof of anything: Push and Swap is
//! not complete, and it needs a branching cell to trade; the answer -1 comes from
//! [`super::solvable`]). Every plan is legal: the sequence of single moves into free
//! cells is legal, and the schedule keeps, cell by cell, the order in which the agents
//! held it: a move is made at the first step after the agent's previous move and no
//! earlier than the step the cell's previous holder left it (following is allowed, and a
//! swap or a turn would need a cycle of moves each waiting for the next).
//!
//! # Complexity
//! For K agents of shortest ways up to D on C cells: K x D steps, each a push (a
//! breadth-first search to the nearest free cell, usually a few cells) or a swap (a
//! breadth-first search for branching cells, O(C), and the moves that reach one).
//! Memory: O(C + K) and 12 bytes a move (at most `Budget::moves`), then the plan's
//! K x (T + 1) cells for its makespan T.

use super::Instance;

/// Branching cells a swap tries, nearest first, before it gives up.
pub const SWAP_SITES: usize = 16;

/// No agent, no cell.
const NONE: u32 = u32::MAX;

/// How far the method may go.
pub struct Budget<'s> {
    /// The most single moves it may record (12 bytes each), and the most cells its plan
    /// may hold (4 bytes each, K x (T + 1)).
    pub moves: usize,
    /// Asked between agents and between swaps: true stops the method.
    pub stop: &'s mut dyn FnMut() -> bool,
}

/// Why no plan came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// An agent could neither push nor swap its way on (no proof that no plan exists).
    Stuck,
    /// The moves or the plan passed `Budget::moves`.
    OverBudget,
    /// `Budget::stop` said so.
    Stopped,
}

/// A single move of one agent into a free neighbouring cell.
#[derive(Debug, Clone, Copy)]
struct Move {
    agent: u32,
    from: u32,
    to: u32,
}

/// The agents' placement as single moves change it, and the moves so far.
struct Board<'i, 'a> {
    instance: &'i Instance<'a>,
    /// The neighbours of each cell.
    neighbours: Vec<Vec<u32>>,
    /// The agent on each cell, or [`NONE`].
    at: Vec<u32>,
    /// Each agent's cell.
    cell: Vec<u32>,
    /// Agents a push must not move: those home, and those waiting to step back home.
    fixed: Vec<bool>,
    moves: Vec<Move>,
    max_moves: usize,
    /// Breadth-first search scratch, by stamp: `seen[c] == stamp` marks a cell reached.
    seen: Vec<u32>,
    parent: Vec<u32>,
    stamp: u32,
    queue: Vec<u32>,
}

/// Which agents a push may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pushing {
    /// Agents not home only (a moving agent's way).
    NotFixed,
    /// Any agent (inside a swap, whose moves are all played back).
    Any,
}

impl<'i, 'a> Board<'i, 'a> {
    fn new(instance: &'i Instance<'a>, max_moves: usize) -> Self {
        let grid = instance.grid;
        let cells = grid.cell_count();
        let neighbours = grid
            .cells()
            .map(|c| grid.neighbours(c).map(|(_, n)| n.index() as u32).collect())
            .collect();
        let mut at = vec![NONE; cells];
        let cell: Vec<u32> = instance.starts.iter().map(|s| s.index() as u32).collect();
        for (a, &c) in cell.iter().enumerate() {
            at[c as usize] = a as u32;
        }
        Board {
            instance,
            neighbours,
            at,
            cell,
            fixed: vec![false; instance.starts.len()],
            moves: Vec::new(),
            max_moves,
            seen: vec![0; cells],
            parent: vec![NONE; cells],
            stamp: 0,
            queue: Vec::new(),
        }
    }

    fn goal(&self, a: u32) -> u32 {
        self.instance.goals[a as usize].index() as u32
    }

    /// Agent `a` steps into the free neighbouring cell `to`.
    fn step(&mut self, a: u32, to: u32) -> Result<(), Failure> {
        debug_assert_eq!(self.at[to as usize], NONE);
        if self.moves.len() >= self.max_moves {
            return Err(Failure::OverBudget);
        }
        let from = self.cell[a as usize];
        self.at[from as usize] = NONE;
        self.at[to as usize] = a;
        self.cell[a as usize] = to;
        self.moves.push(Move { agent: a, from, to });
        Ok(())
    }

    /// Takes back the moves after the first `mark` (the board as it was then).
    fn undo_to(&mut self, mark: usize) {
        while self.moves.len() > mark {
            let Some(m) = self.moves.pop() else { break };
            self.at[m.to as usize] = NONE;
            self.at[m.from as usize] = m.agent;
            self.cell[m.agent as usize] = m.from;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Empties cell `from` by moving its agent, and the agents from it to the nearest
    /// free cell, one step each toward that cell; the way crosses no cell of `avoid` and
    /// moves only agents `pushing` allows. False, with no move made, when no free cell
    /// is reachable so.
    ///
    /// # Complexity
    /// O(cells reached before the nearest free one).
    fn push_away(&mut self, from: u32, avoid: &[u32], pushing: Pushing) -> Result<bool, Failure> {
        if self.at[from as usize] == NONE {
            return Ok(true);
        }
        let stamp = self.next_stamp();
        self.queue.clear();
        self.queue.push(from);
        self.seen[from as usize] = stamp;
        let mut head = 0;
        let mut free = NONE;
        'search: while head < self.queue.len() {
            let c = self.queue[head];
            head += 1;
            for i in 0..self.neighbours[c as usize].len() {
                let n = self.neighbours[c as usize][i];
                if self.seen[n as usize] == stamp || avoid.contains(&n) {
                    continue;
                }
                let holder = self.at[n as usize];
                if holder != NONE && pushing == Pushing::NotFixed && self.fixed[holder as usize] {
                    continue;
                }
                self.seen[n as usize] = stamp;
                self.parent[n as usize] = c;
                if holder == NONE {
                    free = n;
                    break 'search;
                }
                self.queue.push(n);
            }
        }
        if free == NONE {
            return Ok(false);
        }
        // Every cell on the way before the free one holds an agent (else it would have
        // been the nearest free cell): each steps into the cell ahead, last one first.
        let mut to = free;
        while to != from {
            let c = self.parent[to as usize];
            let a = self.at[c as usize];
            self.step(a, to)?;
            to = c;
        }
        Ok(true)
    }

    /// Agent `a` takes one step to the neighbouring cell `to`: into it when free, else
    /// pushing its agent away (when that agent is not home and can be pushed), else
    /// trading places with it ([`Board::swap`]). False when none of these can be done.
    fn advance(&mut self, a: u32, to: u32) -> Result<bool, Failure> {
        let here = self.cell[a as usize];
        let holder = self.at[to as usize];
        if holder == NONE {
            self.step(a, to)?;
            return Ok(true);
        }
        if !self.fixed[holder as usize] && self.push_away(to, &[here], Pushing::NotFixed)? {
            self.step(a, to)?;
            return Ok(true);
        }
        self.swap(a, holder)
    }

    /// [`Board::advance`], or [`Failure::Stuck`]; an agent home that traded places goes
    /// on `displaced`.
    fn advance_keeping(
        &mut self,
        a: u32,
        to: u32,
        displaced: &mut Vec<u32>,
    ) -> Result<(), Failure> {
        let holder = self.at[to as usize];
        let home = holder != NONE && self.fixed[holder as usize];
        if !self.advance(a, to)? {
            return Err(Failure::Stuck);
        }
        if home {
            displaced.push(holder);
        }
        Ok(())
    }

    /// Agents `r` and `s`, on neighbouring cells, trade places; every other agent ends
    /// where it was. False, with no move made, when no branching cell of the
    /// [`SWAP_SITES`] nearest serves.
    fn swap(&mut self, r: u32, s: u32) -> Result<bool, Failure> {
        let (u, v) = (self.cell[r as usize], self.cell[s as usize]);
        // The branching cells nearest the pair, each with the agent on its side, and the
        // way to it: a breadth-first search from both cells at once, each way on one
        // side (it never crosses the other agent's cell).
        let cells = self.neighbours.len();
        let mut side = vec![NONE; cells];
        let mut parent = vec![NONE; cells];
        let mut queue = vec![u, v];
        side[u as usize] = r;
        side[v as usize] = s;
        let mut sites: Vec<u32> = Vec::new();
        let mut head = 0;
        while head < queue.len() && sites.len() < SWAP_SITES {
            let c = queue[head];
            head += 1;
            if self.neighbours[c as usize].len() >= 3 {
                sites.push(c);
            }
            for &n in &self.neighbours[c as usize] {
                if side[n as usize] == NONE {
                    side[n as usize] = side[c as usize];
                    parent[n as usize] = c;
                    queue.push(n);
                }
            }
        }
        drop(queue);
        for site in sites {
            let mark = self.moves.len();
            let leader = side[site as usize];
            let follower = if leader == r { s } else { r };
            let mut way = vec![site];
            let mut c = site;
            while parent[c as usize] != NONE {
                c = parent[c as usize];
                way.push(c);
            }
            way.reverse();
            if self.swap_at(leader, follower, &way)? {
                // Play back the moves that set the swap up, the two agents' parts
                // exchanged: every other agent goes back where it was.
                let setup = self.moves[mark..self.moves.len() - 6].to_vec();
                for m in setup.into_iter().rev() {
                    let agent = match m.agent {
                        a if a == r => s,
                        a if a == s => r,
                        a => a,
                    };
                    self.step(agent, m.from)?;
                }
                return Ok(true);
            }
            self.undo_to(mark);
        }
        Ok(false)
    }

    /// The pair `leader` (on `way[0]`) and `follower` (on its neighbour behind) walks
    /// `way` to the branching cell at its end, two other neighbours of it are cleared,
    /// and the pair trades places there in six moves. False when a push fails (the
    /// caller takes back the moves made).
    fn swap_at(&mut self, leader: u32, follower: u32, way: &[u32]) -> Result<bool, Failure> {
        for &next in &way[1..] {
            let (l, f) = (self.cell[leader as usize], self.cell[follower as usize]);
            if !self.push_away(next, &[l, f], Pushing::Any)? {
                return Ok(false);
            }
            self.step(leader, next)?;
            self.step(follower, l)?;
        }
        let (site, behind) = (self.cell[leader as usize], self.cell[follower as usize]);
        let mut avoid = vec![site, behind];
        let mut cleared = Vec::with_capacity(2);
        for i in 0..self.neighbours[site as usize].len() {
            let n = self.neighbours[site as usize][i];
            if n == behind {
                continue;
            }
            let mark = self.moves.len();
            if self.push_away(n, &avoid, Pushing::Any)? {
                cleared.push(n);
                avoid.push(n);
                if cleared.len() == 2 {
                    break;
                }
            } else {
                self.undo_to(mark);
            }
        }
        let [first, second] = cleared[..] else {
            return Ok(false);
        };
        self.step(leader, first)?;
        self.step(follower, site)?;
        self.step(follower, second)?;
        self.step(leader, site)?;
        self.step(leader, behind)?;
        self.step(follower, site)?;
        Ok(true)
    }

    /// The next cell of agent `a`'s shortest way home.
    fn toward_goal(&self, a: u32) -> Option<u32> {
        let here = self.cell[a as usize];
        let distances = self.instance.distances(a as usize);
        let d = distances.at(here as usize);
        self.neighbours[here as usize]
            .iter()
            .copied()
            .find(|&n| distances.at(n as usize).wrapping_add(1) == d)
    }
}

/// Every agent's cell at 0..=T, legal, every agent home at T, by the method of the module
/// documentation; agents in the order of `order` (each once).
///
/// `moves` is set to the single moves it made (found or not).
///
/// # Errors
/// [`Failure`]: stuck, over the budget or stopped; never a proof.
///
/// # Complexity
/// See the module documentation.
pub fn plan(
    instance: &Instance<'_>,
    order: &[usize],
    budget: &mut Budget<'_>,
    moves: &mut usize,
) -> Result<Vec<Vec<u32>>, Failure> {
    let mut board = Board::new(instance, budget.moves);
    let found = walk_home(&mut board, order, budget);
    *moves = board.moves.len();
    found?;
    schedule(instance, &board.moves, budget.moves)
}

/// The agents of `order` home one after the other on `board` (module documentation).
fn walk_home(
    board: &mut Board<'_, '_>,
    order: &[usize],
    budget: &mut Budget<'_>,
) -> Result<(), Failure> {
    // Agents home that traded places and wait, one step off it, to step back home.
    let mut displaced: Vec<u32> = Vec::new();
    for &a in order {
        if (budget.stop)() {
            return Err(Failure::Stopped);
        }
        let a = a as u32;
        while board.cell[a as usize] != board.goal(a) {
            let Some(next) = board.toward_goal(a) else {
                return Err(Failure::Stuck);
            };
            board.advance_keeping(a, next, &mut displaced)?;
            // The last displaced steps back first: its goal is where the one displaced
            // after it waits, or where the moving agent is.
            while let Some(back) = displaced.pop() {
                let goal = board.goal(back);
                if board.at[goal as usize] == a {
                    displaced.push(back);
                    break;
                }
                board.advance_keeping(back, goal, &mut displaced)?;
            }
        }
        board.fixed[a as usize] = true;
    }
    if !displaced.is_empty() {
        return Err(Failure::Stuck);
    }
    Ok(())
}

/// Every agent's cell at 0..=T of the single moves `moves`, each made at the first step
/// after its agent's previous move and no earlier than the step its cell's previous
/// holder left (module documentation).
///
/// # Complexity
/// O(moves + C + K x T).
fn schedule(
    instance: &Instance<'_>,
    moves: &[Move],
    max_cells: usize,
) -> Result<Vec<Vec<u32>>, Failure> {
    let k = instance.starts.len();
    let mut last = vec![0u32; k];
    let mut left = vec![0u32; instance.grid.cell_count()];
    let mut times = Vec::with_capacity(moves.len());
    for m in moves {
        let t = (last[m.agent as usize] + 1).max(left[m.to as usize]);
        last[m.agent as usize] = t;
        left[m.from as usize] = t;
        times.push(t);
    }
    let makespan = last.iter().copied().max().unwrap_or(0) as usize;
    if k.saturating_mul(makespan + 1) > max_cells {
        return Err(Failure::OverBudget);
    }
    let mut paths: Vec<Vec<u32>> = instance
        .starts
        .iter()
        .map(|s| {
            let mut path = Vec::with_capacity(makespan + 1);
            path.push(s.index() as u32);
            path
        })
        .collect();
    for (m, &t) in moves.iter().zip(&times) {
        let path = &mut paths[m.agent as usize];
        let here = path.last().copied().unwrap_or(m.from);
        path.resize(t as usize, here);
        path.push(m.to);
    }
    for path in &mut paths {
        let here = path.last().copied().unwrap_or(NONE);
        path.resize(makespan + 1, here);
    }
    Ok(paths)
}

/// The agents in the order [`plan`] takes them by default: next, always the agent whose
/// goal lies on the shortest ways of the fewest agents not yet taken (on a tree, an agent
/// home then walls off few of the ways still to walk, and fewer swaps bring agents home
/// out of the way). Ties by the agent's number.
///
/// # Complexity
/// O(K x D + K log K) for K agents of shortest ways up to D long.
pub fn default_order(instance: &Instance<'_>) -> Vec<usize> {
    let k = instance.starts.len();
    let grid = instance.grid;
    let mut crossing = vec![0u32; grid.cell_count()];
    let mut way = Vec::new();
    let ways = |a: usize, way: &mut Vec<u32>| {
        way.clear();
        let distances = instance.distances(a);
        let mut here = instance.starts[a];
        way.push(here.index() as u32);
        while distances.at(here.index()) > 0 {
            let d = distances.at(here.index());
            let Some((_, next)) = grid
                .neighbours(here)
                .find(|&(_, n)| distances.at(n.index()).wrapping_add(1) == d)
            else {
                break;
            };
            here = next;
            way.push(here.index() as u32);
        }
    };
    for a in 0..k {
        ways(a, &mut way);
        for &c in &way {
            crossing[c as usize] += 1;
        }
    }
    // A heap of (crossings of the goal when pushed, agent); an entry whose count has
    // changed since is stale (a newer one was pushed) and skipped.
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u32, usize)>> = (0..k)
        .map(|a| std::cmp::Reverse((crossing[instance.goals[a].index()], a)))
        .collect();
    let mut goal_of = vec![NONE; grid.cell_count()];
    for (a, g) in instance.goals.iter().enumerate() {
        goal_of[g.index()] = a as u32;
    }
    let mut taken = vec![false; k];
    let mut order = Vec::with_capacity(k);
    while let Some(std::cmp::Reverse((count, a))) = heap.pop() {
        if taken[a] || crossing[instance.goals[a].index()] != count {
            continue;
        }
        taken[a] = true;
        order.push(a);
        ways(a, &mut way);
        for &c in &way {
            crossing[c as usize] -= 1;
            let b = goal_of[c as usize];
            if b != NONE && !taken[b as usize] {
                heap.push(std::cmp::Reverse((crossing[c as usize], b as usize)));
            }
        }
    }
    order
}

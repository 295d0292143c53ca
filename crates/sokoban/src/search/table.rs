//! The states seen, by box layout: what each state and each layout keeps, in cache lines.

use super::budget::Budget;
use super::index::{EMPTY, Found, Index};

/// "No parent": the start state.
pub(super) const ROOT: u32 = u32::MAX;
/// The bound of a state that cannot be solved (impossible matching): never queued.
pub(super) const HOPELESS: u32 = u32::MAX;

/// What the table keeps per state besides its squares.
#[derive(Debug, Clone, Copy)]
pub(super) struct Info {
    /// Cost from the start in the metric's order (first key, second key).
    pub(super) cost: [u32; 2],
    /// Lower bound on the cost still needed, in the metric's order; its
    /// first key is [`HOPELESS`] when the state cannot be solved.
    pub(super) bound: [u32; 2],
    /// The state it was reached from, or [`ROOT`].
    pub(super) parent: u32,
    /// Its box layout (a number in [`Table`]'s layouts).
    pub(super) layout: u32,
    /// The player's square.
    pub(super) player: u16,
    /// Expanded at its current cost (its queue entries are then stale).
    pub(super) closed: bool,
    /// Its pushes bound counts only the sides of its boxes the player reaches (see
    /// `expand::pushes_from`), or no box of it is cut off from a side: computed when the
    /// state is first taken from the queue, not when it is made (most are never taken).
    pub(super) refined: bool,
}

/// The states seen, by box layout: the layouts' squares in one flat array with an
/// [`Index`] over them; per layout one cache line ([`Layout`]) with its matching bound and
/// its first states ([`Member`]: the player's square and the pushes, all a lookup or a
/// dominance test reads), more in [`More`] blocks; per state its [`Info`].
///
/// Why layouts first: a layout is reached with the player on several squares (about four
/// to seven on the larger Microban levels), and the matching bound depends on the boxes
/// only, so it is computed once per layout; one expansion takes every open state of the
/// layout at once ([`Walker::run_many`](super::walker::Walker::run_many)). A state is found by its layout, then its
/// player's square among the layout's members, which are on the line just read: two cache
/// misses per child where a table over whole states, then the layout, then the layout's
/// states one by one, took up to three and two per other state, and 12 + 6k bytes less
/// per state.
#[derive(Debug)]
pub(super) struct Table {
    /// Boxes per layout.
    pub(super) k: usize,
    pub(super) info: Vec<Info>,
    /// Per layout, its k box squares.
    pub(super) layout_words: Vec<u16>,
    pub(super) layouts: Vec<Layout>,
    /// The members of layouts past the [`HEAD_MEMBERS`] first.
    pub(super) more: Vec<More>,
    pub(super) layout_index: Index,
}

/// One state of a layout, as its layout keeps it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Member {
    pub(super) state: u32,
    /// The player's square.
    pub(super) player: u16,
    /// Its pushes, at most [`PUSHES_CAP`]; [`HOPELESS_MEMBER`] when it cannot be solved.
    pub(super) pushes: u16,
}

/// The largest pushes a [`Member`] holds exactly: a member with more holds this, so the
/// dominance test, which needs exact pushes, is not used past it (it is an optional
/// pruning).
pub(super) const PUSHES_CAP: u16 = u16::MAX - 1;
/// The pushes of a [`Member`] that cannot be solved.
pub(super) const HOPELESS_MEMBER: u16 = u16::MAX;

/// The members a [`Layout`] holds itself.
pub(super) const HEAD_MEMBERS: usize = 6;
/// The members one [`More`] block holds.
pub(super) const MORE_MEMBERS: usize = 7;

/// What the table keeps per box layout: one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Layout {
    /// Its matching bound on the pushes (or [`HOPELESS`]).
    pub(super) pushes: u32,
    /// The fewest pushes of its states that are not hopeless (`u32::MAX` before one).
    pub(super) fewest: u32,
    /// Its states in all.
    pub(super) len: u32,
    /// The newest [`More`] block, or [`EMPTY`]: blocks are chained newest first, and only
    /// the newest may be partly filled.
    pub(super) more: u32,
    pub(super) head: [Member; HEAD_MEMBERS],
}

/// Members of one layout past its first ones: one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct More {
    pub(super) members: [Member; MORE_MEMBERS],
    /// The next older block, or [`EMPTY`].
    pub(super) next: u32,
}

impl Table {
    pub(super) fn new(k: usize, cells: usize) -> Self {
        Table {
            k,
            info: Vec::new(),
            layout_words: Vec::new(),
            layouts: Vec::new(),
            more: Vec::new(),
            layout_index: Index::new(k, cells),
        }
    }

    pub(super) fn layout(&self, layout: u32) -> &[u16] {
        let at = layout as usize * self.k;
        &self.layout_words[at..at + self.k]
    }

    /// The layout of these box squares, if seen.
    #[inline]
    pub(super) fn find_layout(&self, boxes: &[u16], key: ([u64; 2], u64)) -> Found {
        self.layout_index.find(boxes, key, |l| self.layout(l))
    }

    /// Starts loading the line of `layout`, so that reading its members soon finds them
    /// in cache.
    #[inline]
    pub(super) fn touch_layout(&self, layout: u32) {
        super::index::prefetch(&self.layouts[layout as usize]);
    }

    /// The members of `layout`, newest first, into `out` (cleared first).
    pub(super) fn members(&self, layout: u32, out: &mut Vec<Member>) {
        out.clear();
        let l = &self.layouts[layout as usize];
        let mut extra = (l.len as usize).saturating_sub(HEAD_MEMBERS);
        let mut block = l.more;
        while block != EMPTY {
            let b = &self.more[block as usize];
            let filled = (extra - 1) % MORE_MEMBERS + 1;
            out.extend(b.members[..filled].iter().rev());
            extra -= filled;
            block = b.next;
        }
        let head = (l.len as usize).min(HEAD_MEMBERS);
        out.extend(l.head[..head].iter().rev());
    }

    /// The member of `layout` with the player on `player`, if any.
    #[inline]
    pub(super) fn member_mut(&mut self, layout: u32, player: u16) -> Option<&mut Member> {
        let l = &self.layouts[layout as usize];
        let head = (l.len as usize).min(HEAD_MEMBERS);
        if let Some(i) = l.head[..head].iter().position(|m| m.player == player) {
            return Some(&mut self.layouts[layout as usize].head[i]);
        }
        let mut extra = (l.len as usize).saturating_sub(HEAD_MEMBERS);
        let mut block = l.more;
        while block != EMPTY {
            let b = &self.more[block as usize];
            let filled = (extra - 1) % MORE_MEMBERS + 1;
            if let Some(i) = b.members[..filled].iter().position(|m| m.player == player) {
                return Some(&mut self.more[block as usize].members[i]);
            }
            extra -= filled;
            block = b.next;
        }
        None
    }

    /// The layout of the boxes `boxes` (their key `key`), added with its matching bound
    /// `pushes()` when new; `None` when the budget does not allow it.
    pub(super) fn layout_of(
        &mut self,
        boxes: &[u16],
        key: ([u64; 2], u64),
        pushes: impl FnOnce() -> u32,
        budget: &mut Budget,
    ) -> Option<u32> {
        let slot = match self.find_layout(boxes, key) {
            Ok(layout) => return Some(layout),
            Err(slot) => slot,
        };
        let layout = self.layouts.len() as u32;
        if layout >= EMPTY - 1 || !budget.room(&mut self.layouts, 1) {
            return None;
        }
        if !budget.room(&mut self.layout_words, boxes.len()) {
            return None;
        }
        self.layout_words.extend_from_slice(boxes);
        self.layouts.push(Layout {
            pushes: pushes(),
            fewest: u32::MAX,
            len: 0,
            more: EMPTY,
            head: [Member::default(); HEAD_MEMBERS],
        });
        self.layout_index
            .insert(key.0, slot, layout, budget)
            .then_some(layout)
    }

    /// Adds a new state, a member of its layout `info.layout` with `pushes` (see
    /// [`Member::pushes`]); `None` when the budget does not allow it.
    pub(super) fn insert(&mut self, info: Info, pushes: u16, budget: &mut Budget) -> Option<u32> {
        let state = self.info.len() as u32;
        if state >= EMPTY - 1 || !budget.room(&mut self.info, 1) {
            return None;
        }
        let member = Member {
            state,
            player: info.player,
            pushes,
        };
        let layout = info.layout as usize;
        let len = self.layouts[layout].len as usize;
        if len < HEAD_MEMBERS {
            self.layouts[layout].head[len] = member;
        } else if (len - HEAD_MEMBERS) % MORE_MEMBERS == 0 {
            let block = self.more.len() as u32;
            if block >= EMPTY - 1 || !budget.room(&mut self.more, 1) {
                return None;
            }
            let mut members = [Member::default(); MORE_MEMBERS];
            members[0] = member;
            self.more.push(More {
                members,
                next: self.layouts[layout].more,
            });
            self.layouts[layout].more = block;
        } else {
            let block = self.layouts[layout].more as usize;
            self.more[block].members[(len - HEAD_MEMBERS) % MORE_MEMBERS] = member;
        }
        self.layouts[layout].len += 1;
        self.info.push(info);
        Some(state)
    }
}

/// The pushes a [`Member`] holds for a state with `pushes` that is not hopeless.
pub(super) fn member_pushes(pushes: u32) -> u16 {
    u16::try_from(pushes).map_or(PUSHES_CAP, |p| p.min(PUSHES_CAP))
}
